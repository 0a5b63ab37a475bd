//! Every `console` example of the documents (README.md and every `docs/**/*.md`)
//! is real: each `$ kute ...` command is run and its output (stdout, then stderr)
//! must be the text under it. (`scripts/readme-examples.py` rewrites the outputs
//! after a deliberate change.)

use std::path::{Path, PathBuf};
use std::process::Command;

const README: &str = include_str!("../../../README.md");

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The user documents: README.md, then every markdown file under `docs/`, as
/// (path relative to the root, text), read when the test runs.
pub(crate) fn documents() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    let mut files = vec![root().join("README.md")];
    let mut docs = Vec::new();
    walk(&root().join("docs"), &mut docs);
    docs.sort();
    files.extend(docs);
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p.strip_prefix(root()).unwrap().display().to_string(), text)
        })
        .collect()
}

/// The fewest `$ kute` examples each document must have: a lost example fails.
/// (More are fine; raise a floor when adding examples.)
const MIN_EXAMPLES: &[(&str, usize)] = &[
    ("README.md", 7),
    ("docs/tour.md", 70),
    ("docs/gpu.md", 2),
    ("docs/cli.md", 10),
    ("docs/symbolic.md", 7),
    ("docs/differences.md", 4),
];

/// A command line split as a POSIX shell would, for the quoting the README uses:
/// bare words and single-quoted strings.
fn shell_words(cmd: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = cmd.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    cur.push(q);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                assert!(!"\"\\$`|<>;&".contains(c), "unsupported shell syntax in README command: {cmd}");
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

/// `(command, expected output)` for every example of every console block of `doc`.
fn examples(doc: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut block: Option<&str> = None; // the fence's indentation while inside a block
    let mut current: Option<(String, Vec<String>)> = None;
    for line in doc.lines() {
        let stripped = line.trim_start_matches(' ');
        let indent = &line[..line.len() - stripped.len()];
        match block {
            None => {
                if stripped == "```console" {
                    block = Some(indent);
                }
            }
            Some(ind) => {
                if stripped == "```" && indent == ind {
                    found.extend(current.take().map(|(c, o)| (c, o.join("\n"))));
                    block = None;
                } else {
                    let body = line.strip_prefix(ind).unwrap_or(line);
                    if let Some(cmd) = body.strip_prefix("$ ") {
                        found.extend(current.take().map(|(c, o)| (c, o.join("\n"))));
                        current = Some((cmd.to_string(), Vec::new()));
                    } else if let Some((_, out)) = current.as_mut() {
                        out.push(body.to_string());
                    } else {
                        panic!("output before any command in a console block: {line}");
                    }
                }
            }
        }
    }
    assert!(block.is_none(), "unterminated console block");
    found
}

#[test]
fn shell_words_split_like_a_shell() {
    assert_eq!(shell_words("kute eval 'a b' c'd e'"), ["kute", "eval", "a b", "cd e"]);
}

#[test]
fn document_examples_are_real() {
    let docs = documents();
    let mut bad = Vec::new();
    let mut total = 0;
    for (path, text) in &docs {
        let ex = examples(text);
        if let Some((_, min)) = MIN_EXAMPLES.iter().find(|(p, _)| p == path) {
            assert!(ex.len() >= *min, "{path}: {} `$ kute` examples, at least {min} expected", ex.len());
        }
        total += ex.len();
        for (cmd, want) in &ex {
            let argv = shell_words(cmd);
            assert_eq!(argv[0], "kute", "{path}: {cmd}");
            let o = Command::new(env!("CARGO_BIN_EXE_kute")).args(&argv[1..]).output().unwrap();
            let got = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
            if got.trim_end_matches('\n') != want.trim_end_matches('\n') {
                bad.push(format!("$ {cmd}\n--- {path}\n{want}\n--- kute\n{got}"));
            }
        }
    }
    for (path, _) in MIN_EXAMPLES {
        assert!(docs.iter().any(|(p, _)| p == path), "{path} is missing");
    }
    // 80 when the examples were all in README.md
    assert!(total >= 80, "only {total} examples found");
    assert!(bad.is_empty(), "document examples differ from kute's output:\n{}", bad.join("\n\n"));
}

/// `.ci/run` runs exactly the README's test command: the second line of the
/// "Getting started" block.
#[test]
fn ci_runs_the_readmes_test_command() {
    let ci = include_str!("../../../.ci/run");
    let start = README.find("## Getting started").expect("a Getting started section");
    let block = README[start..].split("```sh\n").nth(1).and_then(|b| b.split("```").next()).expect("a sh block");
    let test_command = block.lines().nth(1).expect("two commands");
    assert!(test_command.starts_with("cargo test"), "{test_command}");
    assert_eq!(ci.lines().rfind(|l| !l.trim().is_empty()), Some(test_command), ".ci/run:\n{ci}");
}

/// The SVG pictures in `docs/` are what the `kute svg` commands written beside
/// them draw today: each `kute svg 'EXPR' -o docs/FILE.svg` line of a `sh` block
/// in the documents is run, and its output must equal the file.
#[test]
fn docs_pictures_are_what_kute_draws() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut checked = 0;
    for doc in std::fs::read_dir(root.join("docs")).unwrap() {
        let doc = doc.unwrap().path();
        if doc.extension().is_none_or(|e| e != "md") {
            continue;
        }
        for line in std::fs::read_to_string(&doc).unwrap().lines() {
            let Some(rest) = line.strip_prefix("kute svg '") else { continue };
            let Some((expr, out)) = rest.split_once("' -o ") else { continue };
            // (examples that write elsewhere are only examples)
            if !out.trim().starts_with("docs/") {
                continue;
            }
            let file = root.join(out.trim());
            let o = Command::new(env!("CARGO_BIN_EXE_kute")).args(["svg", expr]).output().unwrap();
            assert!(o.status.success(), "{expr}: {}", String::from_utf8_lossy(&o.stderr));
            let want = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            assert!(o.stdout == want, "{} is not what `kute svg '{expr}'` draws today", file.display());
            checked += 1;
        }
    }
    assert!(checked >= 2, "{checked} pictures checked");
}
