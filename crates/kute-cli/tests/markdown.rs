//! The repository's markdown files (every `*.md` outside `target/` and hidden
//! folders) speak of the project, not of how it was developed. A line fails when it has:
//! - a path outside the repository: `../shared` (or `.../shared`), or an absolute
//!   `/work/`, `/root/` or `/home/` path;
//! - an issue or pull-request reference: `#` followed by digits at the start of a word
//!   (`#N`, `(#N)`), the word issue or issues followed by a number (`#` optional after
//!   issue, required after issues), `PR N` / `PR #N` (N standing for digits);
//! - a numbered session or stop: the word session followed by a number (`N`, `#N` or
//!   `-N`), `stop N`, or an ordinal before `session` (`third session`, `3rd session`).
//!
//! Not references, and so allowed: markdown headings (`# Title`, `## Title`), C and
//! CUDA preprocessor lines (`#include`, `#pragma`: no digit after the `#`), colour
//! codes and other `#` words with letters (`#0a0a0a`), references into another
//! project (`cutlass#3470`: a word character before the `#`), format strings
//! (`{:#06x}`), the verb (`the kernel issues 4 loads`: `issues` needs a `#`), and
//! `session` on its own (the interactive session).

use std::path::{Path, PathBuf};

fn markdown_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if p.is_dir() {
                if !name.starts_with('.') && name != "target" && name != "node_modules" {
                    walk(&p, out);
                }
            } else if name.ends_with(".md") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."), &mut out);
    out.sort();
    out
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// After `rest` skips spaces, one optional `#` or `-` and spaces again, a number
/// ends the word (`3`, `#3`, `- 3`), not a longer word (`3rd`, `3x`).
fn number_follows(rest: &str, need_hash: bool) -> bool {
    let mut r = rest.trim_start_matches(' ');
    match r.chars().next() {
        Some('#') => r = &r[1..],
        Some('-') if !need_hash => r = r[1..].trim_start_matches(' '),
        _ if need_hash => return false,
        _ => {}
    }
    let digits = r.len() - r.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    digits > 0 && !r[digits..].starts_with(is_word)
}

/// Each start of `word` in `line` as a whole word (no word character before it or after
/// it), with the text after it; `line` and `word` compared case-insensitively when `fold`.
fn whole_words<'a>(line: &'a str, word: &str, fold: bool) -> impl Iterator<Item = &'a str> + 'a {
    // ASCII folding keeps every byte offset of `line`
    let hay = if fold { line.to_ascii_lowercase() } else { line.to_string() };
    let word = if fold { word.to_ascii_lowercase() } else { word.to_string() };
    let mut found = Vec::new();
    for (i, _) in hay.match_indices(&word) {
        let before = line[..i].chars().next_back();
        let after = &line[i + word.len()..];
        if !before.is_some_and(is_word) && !after.starts_with(is_word) {
            found.push(after);
        }
    }
    found.into_iter()
}

const ORDINALS: &[&str] = &[
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
    "twelfth",
];

/// Why `line` breaks the rule, if it does.
fn violation(line: &str) -> Option<&'static str> {
    if line.contains("../shared") {
        return Some("a path outside the repository (../shared)");
    }
    for root in ["/work/", "/root/", "/home/"] {
        for (i, _) in line.match_indices(root) {
            if !line[..i].chars().next_back().is_some_and(|c| is_word(c) || c == '.' || c == '/') {
                return Some("an absolute path of one machine");
            }
        }
    }
    for (i, _) in line.match_indices('#') {
        let before = line[..i].chars().next_back();
        if before.is_none_or(|c| c.is_whitespace() || "([{,;:".contains(c)) && number_follows(&line[i..], true) {
            return Some("an issue reference (#<digits>)");
        }
    }
    if whole_words(line, "issue", true).any(|r| number_follows(r, false))
        || whole_words(line, "issues", true).any(|r| number_follows(r, true))
        || whole_words(line, "PR", false).any(|r| number_follows(r, false))
    {
        return Some("an issue or pull-request reference");
    }
    if whole_words(line, "session", true).any(|r| number_follows(r, false))
        || whole_words(line, "stop", true).any(|r| number_follows(r, false))
    {
        return Some("a numbered session or stop");
    }
    for s in whole_words(line, "session", true).map(|after| line.len() - after.len() - "session".len()) {
        let before = line[..s].trim_end_matches(' ');
        if before.len() == s {
            continue; // no space before `session`
        }
        let word_start = before.rfind(|c: char| !is_word(c)).map_or(0, |i| i + 1);
        let prev = before[word_start..].to_ascii_lowercase();
        let numeric_ordinal = prev.len() > 2
            && prev[..prev.len() - 2].chars().all(|c| c.is_ascii_digit())
            && ["st", "nd", "rd", "th"].contains(&&prev[prev.len() - 2..]);
        if ORDINALS.contains(&prev.as_str()) || numeric_ordinal {
            return Some("a numbered session");
        }
    }
    None
}

#[test]
fn the_rule_is_precise() {
    for bad in [
        "see ../shared/oracle",
        "KUTE_BENCH_DIR=.../shared/bench",
        "references: /work/shared/bench",
        "pycute from /root/.cache/kute-oracle",
        "fixed in #36.",
        "(#36)",
        "#41 was about this",
        "see issue 41",
        concat!("Issue #", "41"),
        "issues #3 and #4",
        "PR #12",
        "PR 12",
        concat!("in session ", "3"),
        "Session #3",
        "session-3",
        "stop 2 of the work",
        "in a first session today",
        "the 3rd session",
    ] {
        assert!(violation(bad).is_some(), "should fail: {bad}");
    }
    for good in [
        "# Benchmarks",
        "## 2. Install",
        "#include <cute/tensor.hpp>",
        "#pragma unroll",
        "color: #0a0a0a",
        "see NVIDIA/cutlass#3470",
        "{:#06x}",
        "the kernel issues 4 `ldmatrix.x4`",
        "an interactive session with history",
        "`:help` in the session",
        "crates/kute/src/work/x.rs",
        "https://example.org/home/page",
        "~/.cache/kute-cuda",
        "stops at 4",
        "a PRNG seeded with 12",
        "sessions of the REPL",
    ] {
        assert_eq!(violation(good), None, "should pass: {good}");
    }
}

#[test]
fn markdown_files_cite_no_issues_sessions_or_outside_paths() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let files = markdown_files();
    assert!(files.len() >= 15, "only {} markdown files found", files.len());
    let mut bad = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for (n, line) in text.lines().enumerate() {
            if let Some(why) = violation(line) {
                let name = f.strip_prefix(&root).unwrap_or(f).display();
                bad.push(format!("{name}:{}: {why}: {line}", n + 1));
            }
        }
    }
    assert!(bad.is_empty(), "markdown lines that break the rule:\n{}", bad.join("\n"));
}

/// Every relative link or image of a markdown file (outside fenced code
/// blocks) names a file or folder that exists, relative to the file: a
/// document moved into `docs/` must not keep links written for the root.
#[test]
fn relative_links_resolve() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in markdown_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let dir = file.parent().unwrap();
        let mut fenced = false;
        for (i, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                continue;
            }
            if fenced {
                continue;
            }
            let mut rest = line;
            while let Some(at) = rest.find("](") {
                let after = &rest[at + 2..];
                let end = after.find(')').unwrap_or(after.len());
                let target = after[..end].split('#').next().unwrap_or("").trim();
                rest = &after[end..];
                let inline_code = line[..line.len() - rest.len()].matches('`').count() % 2 == 1;
                if target.is_empty() || target.contains("://") || target.starts_with("mailto:") || inline_code {
                    continue;
                }
                checked += 1;
                if !dir.join(target).exists() {
                    broken.push(format!("{}:{}: {target}", file.display(), i + 1));
                }
            }
        }
    }
    assert!(checked >= 20, "only {checked} relative links found");
    assert!(broken.is_empty(), "links to nothing:\n{}", broken.join("\n"));
}
