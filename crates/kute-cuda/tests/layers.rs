//! The crate's two layers, checked on the source: `src/plan/` computes
//! layouts with kute's typed API and writes no CUDA; `src/emit/` writes CUDA
//! from a plan and computes no layout (no algebra, no expression parser).
//! Comments are skipped and string literals told apart from code by a small
//! Rust lexer, so a comment naming an operation never trips the check and
//! CUDA text is found only where it is text.

use std::path::{Path, PathBuf};

/// A Rust file split into its code (comments and literals blanked) and its
/// string literals.
struct Lexed {
    code: String,
    strings: Vec<String>,
}

/// Splits `src` into code and string literals: `//` and `/* */` comments
/// dropped; `"..."`, `r"..."`, `r#"..."#` (any number of `#`) and byte
/// strings collected; char literals (`'"'`) kept apart from lifetimes.
fn lex(src: &str) -> Lexed {
    let s: Vec<char> = src.chars().collect();
    let (mut code, mut strings, mut i) = (String::new(), Vec::new(), 0);
    while i < s.len() {
        let c = s[i];
        let next = s.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < s.len() {
                if s[i] == '/' && s.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if s[i] == '*' && s.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !ident_before(&s, i) {
            // a raw string: r, then n hashes, then a quote
            let mut j = i + 1;
            while s.get(j) == Some(&'#') {
                j += 1;
            }
            if s.get(j) != Some(&'"') {
                code.push(c);
                i += 1;
                continue;
            }
            let hashes = j - i - 1;
            let start = j + 1;
            let mut k = start;
            while k < s.len() && !(s[k] == '"' && (0..hashes).all(|h| s.get(k + 1 + h) == Some(&'#'))) {
                k += 1;
            }
            strings.push(s[start..k.min(s.len())].iter().collect());
            code.push_str("\"\"");
            i = k + 1 + hashes;
        } else if c == '"' {
            let mut k = i + 1;
            let mut lit = String::new();
            while k < s.len() && s[k] != '"' {
                if s[k] == '\\' && k + 1 < s.len() {
                    lit.push(s[k]);
                    k += 1;
                }
                lit.push(s[k]);
                k += 1;
            }
            strings.push(lit);
            code.push_str("\"\"");
            i = k + 1;
        } else if c == '\'' {
            // a char literal ('x', '\n', '\'') or a lifetime ('a)
            let close = if next == Some('\\') {
                s[i + 2..].iter().position(|&x| x == '\'').map(|p| i + 2 + p)
            } else {
                Some(i + 2)
            };
            match close {
                Some(e) if s.get(e) == Some(&'\'') => {
                    code.push_str("' '");
                    i = e + 1;
                }
                _ => {
                    code.push(c);
                    i += 1;
                }
            }
        } else {
            code.push(c);
            i += 1;
        }
    }
    Lexed { code, strings }
}

fn ident_before(s: &[char], i: usize) -> bool {
    i > 0 && (s[i - 1].is_alphanumeric() || s[i - 1] == '_')
}

/// Whether `code` calls `name`: `name(` not preceded by an identifier
/// character, as a free function (`name(`, `kute::name(`) or, when
/// `methods`, as a method (`.name(`).
fn calls(code: &str, name: &str, methods: bool) -> bool {
    code.match_indices(name).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + name.len()..].trim_start();
        let free_or_path = !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.');
        (after.starts_with('(') || after.starts_with("::<")) && (free_or_path || (methods && before == Some('.')))
    })
}

/// The functions kute's algebra exports (`crates/kute/src/algebra/mod.rs`,
/// its `pub use` lists).
fn algebra_functions() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kute/src/algebra/mod.rs");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let code = lex(&text).code;
    let mut names = Vec::new();
    for stmt in code.split(';') {
        let stmt = stmt.trim();
        let Some(rest) = stmt.strip_prefix("pub use ") else { continue };
        let list = rest.split_once('{').map_or(rest.rsplit("::").next().unwrap_or(""), |(_, l)| l);
        for n in list.trim_end_matches('}').split(',') {
            let n = n.trim();
            // functions only (types and traits are capitalised)
            if n.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
                names.push(n.to_string());
            }
        }
    }
    assert!(names.len() > 30, "read {} algebra functions from {}", names.len(), path.display());
    names
}

/// The layout constructors and the analyses, which are plan work too.
const LAYOUT_WORK: &[&str] = &[
    "compose3",
    "make_layout_tv",
    "search_swizzle",
    "block_bank_conflicts",
    "swizzle_bytes_to_elements",
    "Layout::new",
    "Layout::identity",
    "Layout::from_shape",
    "Layout::concat",
    "Layout::with_strides",
    "ComposedLayout::new",
    "eval",
    "eval_int",
    "indices",
];

/// The expression parser and the text round trips of layouts.
const PARSING: &[&str] = &["kute::expr", "expr::", "layout_of", ".parse(", "parse::<", "from_str("];

/// CUDA C++ in a string literal: what a plan must not write.
const CUDA_TEXT: &[&str] = &[
    "__global__",
    "__device__",
    "__shared__",
    "__forceinline__",
    "__launch_bounds__",
    "__syncthreads",
    "__restrict__",
    "extern \\\"C\\\"",
    "extern \"C\"",
    "asm(",
    "asm volatile",
    "#pragma",
    "threadIdx",
    "blockIdx",
    "reinterpret_cast",
    "long long",
    "unsigned short*",
];

/// Method names that std also has (`Iterator::filter`): only their free calls count.
const STD_METHODS: &[&str] = &["filter"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn layer(name: &str) -> Vec<(String, Lexed)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(name);
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    files.sort();
    assert!(files.len() >= 4, "{} has {} files", dir.display(), files.len());
    files
        .into_iter()
        .map(|f| {
            (
                format!("src/{name}/{}", f.file_name().unwrap().to_string_lossy()),
                lex(&std::fs::read_to_string(&f).unwrap()),
            )
        })
        .collect()
}

/// What a plan file does that belongs to the emit layer or to parsing.
fn plan_violations(l: &Lexed) -> Vec<String> {
    let mut v: Vec<String> =
        PARSING.iter().filter(|p| l.code.contains(**p)).map(|p| format!("parses text ({p})")).collect();
    for bad in ["crate::emit", "emit::", "codegen", "include_str!"] {
        if l.code.contains(bad) {
            v.push(format!("reaches the emit layer ({bad})"));
        }
    }
    for s in &l.strings {
        for t in CUDA_TEXT {
            if s.contains(t) {
                v.push(format!("writes CUDA ({t} in {:?})", s.chars().take(60).collect::<String>()));
            }
        }
    }
    v
}

/// What an emit file does that belongs to the plan layer or to parsing.
fn emit_violations(l: &Lexed, algebra: &[String]) -> Vec<String> {
    let mut v: Vec<String> =
        PARSING.iter().filter(|p| l.code.contains(**p)).map(|p| format!("parses text ({p})")).collect();
    for bad in ["kute::algebra", "kute::analysis", "kute::atom", "kute::composed"] {
        if l.code.contains(bad) {
            v.push(format!("uses the plan's tools ({bad})"));
        }
    }
    for f in algebra.iter().map(String::as_str).chain(LAYOUT_WORK.iter().copied()) {
        if calls(&l.code, f, !STD_METHODS.contains(&f)) {
            v.push(format!("computes layouts ({f})"));
        }
    }
    // a plan's types may be read, its functions not called
    for (at, _) in l.code.match_indices("plan::") {
        let rest = &l.code[at..];
        let path: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
        let last = path.rsplit("::").next().unwrap_or("");
        if last.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && rest[path.len()..].trim_start().starts_with('(')
        {
            v.push(format!("runs the plan ({path})"));
        }
    }
    v
}

/// Every kernel family's plan and emitter are among the files checked
/// (a family added outside the two folders would escape the checks).
#[test]
fn the_checks_read_every_family() {
    for (dir, files) in [("plan", layer("plan")), ("emit", layer("emit"))] {
        let names: Vec<&str> = files.iter().map(|(f, _)| f.as_str()).collect();
        for family in ["copy", "transpose", "gemm_sm80", "gemm_sm90", "attention_sm80"] {
            let want = format!("src/{dir}/{family}.rs");
            assert!(names.contains(&want.as_str()), "{want} is not checked: {names:?}");
        }
    }
}

#[test]
fn plans_write_no_cuda_and_parse_no_text() {
    let bad: Vec<String> = layer("plan")
        .iter()
        .flat_map(|(f, l)| plan_violations(l).into_iter().map(move |w| format!("{f}: {w}")))
        .collect();
    assert!(bad.is_empty(), "the plan layer:\n{}", bad.join("\n"));
}

#[test]
fn emitters_compute_no_layout_and_parse_no_text() {
    let algebra = algebra_functions();
    let bad: Vec<String> = layer("emit")
        .iter()
        .flat_map(|(f, l)| emit_violations(l, &algebra).into_iter().map(move |w| format!("{f}: {w}")))
        .collect();
    assert!(bad.is_empty(), "the emit layer:\n{}", bad.join("\n"));
}

#[test]
fn the_layer_checks_catch_what_they_mean_and_skip_comments() {
    let algebra = algebra_functions();
    // caught: an algebra call, a method of it, a layout evaluated, the parser, a plan run
    for code in [
        "let z = kute::zipped_divide(&a, &t)?;",
        "let t = c.tile_to_shape(&s, None)?;",
        "let x = l.eval(3)?;",
        "let l = kute::expr::eval(\"(2,2):(1,2)\")?;",
        "let l: Layout = text.parse()?;",
        "let p = plan::copy::plan(&s, &d, e, c)?;",
    ] {
        assert!(!emit_violations(&lex(code), &algebra).is_empty(), "missed in emit: {code}");
    }
    // not caught: comments, names inside strings, iterator filters, plan types
    for code in [
        "// zipped_divide(a, t) gave this; l.eval(3)\n/* composition(a, b) */ let x = 1;",
        "let s = format!(\"{name}_zipped_divide(i)\");",
        "let v: Vec<i64> = xs.iter().copied().filter(|x| *x > 0).collect();",
        "use crate::plan::copy::CopyPlan;",
        "let c = '\"'; let s = \"composition(\";",
    ] {
        assert!(emit_violations(&lex(code), &algebra).is_empty(), "false alarm in emit: {code}");
    }
    for code in [
        "let s = format!(\"extern \\\"C\\\" __global__ void {name}()\");",
        "let s = r#\"asm volatile(\"bar.sync 0;\");\"#;",
        "let l = layout_of(&format!(\"({m},{n}):({n},1)\"))?;",
        "use crate::emit::header;",
    ] {
        assert!(!plan_violations(&lex(code)).is_empty(), "missed in plan: {code}");
    }
    for code in [
        "// the kernel's __global__ entry reads asm(...)\nlet x = 2;",
        "let why = \"the cp.async copies do not tile\";",
    ] {
        assert!(plan_violations(&lex(code)).is_empty(), "false alarm in plan: {code}");
    }
}
