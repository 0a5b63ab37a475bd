//! The documentation standard, checked on the source: every public function
//! and every method of a public trait states its Pre/Post conditions and
//! carries a doctest. (A textual check: `pub fn` items and the `fn` items of
//! `pub trait` bodies, read with the `///` lines and attributes above them.)
//! The library, and the workspace's Rust-facing crates beside it (kute-cuda,
//! kute-wasm, kute-macros; kute-py is a Python extension, tested from Python).

use std::path::Path;

/// Public only for the tests (`kute::test_hooks`, built with the
/// `test-hooks` feature alone) or crate-internal helpers declared `pub`
/// inside private items: not part of the documented API.
const INTERNAL: &[(&str, &str)] = &[
    ("kute/src/lib.rs", "without_fast_paths"),
    ("kute/src/lib.rs", "fast_answers"),
    ("kute/src/lib.rs", "inline_leaf"),
    ("kute/src/lib.rs", "char_count"),
    ("kute/src/lib.rs", "esc"),
    ("kute/src/lib.rs", "f"),
    ("kute/src/lib.rs", "shade"),
    ("kute/src/lib.rs", "take_points"),
];

/// Files whose items are all internal (`tree::Buf`, reached by the tests through `kute::test_hooks`).
const INTERNAL_FILES: &[&str] = &["kute/src/tree/buf.rs"];

/// The crates checked, as folders beside this one's.
const CRATES: &[&str] = &["kute", "kute-cuda", "kute-wasm", "kute-macros"];

/// The name of the function declared on `line`, if it declares one that is
/// public: `pub fn` anywhere, or `fn` inside a `pub trait` body.
fn declared(line: &str, in_pub_trait: bool) -> Option<&str> {
    let t = line.trim_start();
    let t = t.strip_prefix("pub ").or(if in_pub_trait { Some(t) } else { None })?;
    let t = t.strip_prefix("const ").unwrap_or(t);
    let rest = t.strip_prefix("fn ")?;
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    Some(&rest[..end])
}

#[test]
fn every_public_function_has_pre_post_and_a_doctest() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut files = Vec::new();
    for c in CRATES {
        let src = crates.join(c).join("src");
        assert!(src.is_dir(), "{} is missing (the test reads the workspace's sources)", src.display());
        crate::common::rust_files(&src, &mut files);
    }
    files.sort();
    let (mut checked, mut missing) = (0, Vec::new());
    for path in &files {
        let rel = path.strip_prefix(crates).unwrap().to_string_lossy().replace('\\', "/");
        if INTERNAL_FILES.contains(&rel.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let mut in_pub_trait = false;
        for (i, line) in lines.iter().enumerate() {
            if line.starts_with("pub trait ") {
                // (a trait with no body, `pub trait T: Bounds {}`, declares nothing)
                in_pub_trait = !line.trim_end().ends_with("{}");
            } else if line.starts_with('}') {
                in_pub_trait = false;
            }
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            let Some(name) = declared(line, in_pub_trait) else { continue };
            if INTERNAL.contains(&(rel.as_str(), name)) {
                continue;
            }
            let doc: Vec<&str> = lines[..i]
                .iter()
                .rev()
                .map(|l| l.trim_start())
                .take_while(|l| l.starts_with("///") || l.starts_with("#["))
                .collect();
            let doc = doc.join("\n");
            checked += 1;
            let mut lacks = Vec::new();
            if !(doc.contains("Pre") && doc.contains("Post")) {
                lacks.push("Pre/Post");
            }
            if !doc.contains("```") {
                lacks.push("a doctest");
            }
            if !lacks.is_empty() {
                missing.push(format!("{rel}:{} {name}: lacks {}", i + 1, lacks.join(" and ")));
            }
        }
    }
    // (a floor on the count: the scan has not silently stopped finding items)
    assert!(checked > 500, "only {checked} public functions found");
    assert!(missing.is_empty(), "{} public functions lack documentation:\n{}", missing.len(), missing.join("\n"));
}
