//! The crate's layers, checked on the source: every import between the
//! top-level modules of `src/` goes to a module that `lib.rs` lists before the
//! importer, so no module is built on one that is built on it (no cycle; text
//! → value → layout → algebra → print / code). An import is any `crate::` path
//! in code (comments are skipped); a name the crate root re-exports
//! (`crate::Layout`, `crate::coalesce`) counts as an import of the module it
//! comes from.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The code of a file, comments removed (`//` to the end of the line; a
/// `//` inside a string literal cuts that line short, which can only hide an
/// import, never invent one), with each kept line's number.
fn code_lines(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split("//").next().unwrap_or("").to_string()))
        .filter(|(_, l)| !l.trim().is_empty())
        .collect()
}

/// The first segment of every path after `crate::` in `code`, with brace
/// groups (`crate::{a::X, b::{Y, Z}}`) read element by element, each with the
/// byte offset of its `crate::`.
fn crate_paths(code: &str) -> Vec<(usize, String)> {
    code.match_indices("crate::")
        .flat_map(|(i, _)| first_segments(&code[i + "crate::".len()..]).into_iter().map(move |n| (i, n)))
        .collect()
}

/// The first segment of the path that starts `s`, or of each element of the
/// brace group that starts it.
fn first_segments(s: &str) -> Vec<String> {
    let ident =
        |t: &str| -> String { t.trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect() };
    let Some(group) = s.strip_prefix('{') else {
        return vec![ident(s)].into_iter().filter(|n| !n.is_empty()).collect();
    };
    let (mut out, mut depth, mut elem_start) = (Vec::new(), 0, 0);
    for (i, ch) in group.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' if depth == 0 => {
                out.push(ident(&group[elem_start..i]));
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(ident(&group[elem_start..i]));
                elem_start = i + 1;
            }
            _ => {}
        }
    }
    out.retain(|n| !n.is_empty());
    out
}

struct Crate {
    /// top-level module -> its source files
    modules: BTreeMap<String, Vec<PathBuf>>,
    /// name re-exported at the crate root -> the module it comes from
    reexports: BTreeMap<String, String>,
    /// modules re-exported whole (`pub use m::*`)
    globs: Vec<String>,
}

fn read_crate() -> Crate {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let (mut modules, mut reexports, mut globs) = (BTreeMap::new(), BTreeMap::new(), Vec::new());
    for (_, line) in code_lines(&lib) {
        let l = line.trim();
        let decl = l.strip_prefix("pub mod ").or_else(|| l.strip_prefix("mod "));
        if let Some(name) = decl.and_then(|d| d.strip_suffix(';')) {
            let (file, dir) = (src().join(format!("{name}.rs")), src().join(name));
            let mut files = Vec::new();
            if dir.is_dir() {
                crate::common::rust_files(&dir, &mut files);
            } else {
                files.push(file);
            }
            modules.insert(name.to_string(), files);
        } else if let Some(u) = l.strip_prefix("pub use ").and_then(|u| u.strip_suffix(';')) {
            let (module, names) = u.split_once("::").expect("pub use module::...");
            let module = module.to_string();
            let names = names.trim_start_matches("{").trim_end_matches('}');
            if names == "*" {
                globs.push(module);
                continue;
            }
            for n in names.split(',') {
                // `slice::{Coord, Crd}` and `a::B` name the last segment
                let n = n.trim().rsplit("::").next().unwrap().trim_matches(|c| c == '{' || c == '}');
                reexports.insert(n.trim().to_string(), module.clone());
            }
        }
    }
    assert!(modules.len() > 10, "lib.rs declares {} modules", modules.len());
    Crate { modules, reexports, globs }
}

/// module -> imported module -> one place that imports it (`file:line`).
type Graph = BTreeMap<String, BTreeMap<String, String>>;

fn imports(c: &Crate) -> Graph {
    let mut g = Graph::new();
    for (m, files) in &c.modules {
        let edges = g.entry(m.clone()).or_default();
        for f in files {
            let text = std::fs::read_to_string(f).unwrap();
            // brace groups may span lines: join the code, keeping where each line starts
            let lines = code_lines(&text);
            let joined: String = lines.iter().map(|(_, l)| format!("{l}\n")).collect();
            let mut starts = Vec::new();
            let mut at = 0;
            for (n, l) in &lines {
                starts.push((at, *n));
                at += l.len() + 1;
            }
            for (pos, name) in crate_paths(&joined) {
                let line = starts.iter().rev().find(|(s, _)| *s <= pos).map_or(0, |(_, n)| *n);
                let target = if c.modules.contains_key(&name) {
                    name.clone()
                } else if let Some(t) = c.reexports.get(&name) {
                    t.clone()
                } else if let [glob] = &c.globs[..] {
                    glob.clone()
                } else {
                    panic!("{}:{line}: crate::{name} names no module and no root re-export", f.display())
                };
                if &target != m {
                    let place = format!("{}:{line}", f.strip_prefix(src()).unwrap_or(f).display());
                    edges.entry(target).or_insert(place);
                }
            }
        }
    }
    g
}

#[test]
fn the_issue_s_named_edges_stay_absent() {
    let g = imports(&read_crate());
    // layout evaluation does not call the algebra; layout and iter do not import each other
    for (from, to) in [("layout", "algebra"), ("layout", "iter"), ("layout", "eval")] {
        assert!(!g[from].contains_key(to), "{from} imports {to} at {}", g[from][to]);
    }
    // the values read text only through the syntax, which imports them, never the
    // other way; the syntax reads into values, knowing nothing of the algebra
    assert!(!g["syntax"].contains_key("algebra"), "syntax imports algebra at {}", g["syntax"]["algebra"]);
    for value in ["int", "int_tuple", "stride", "tree", "layout", "tiler", "algebra"] {
        for text in ["syntax", "expr"] {
            assert!(!g[value].contains_key(text), "{value} imports {text} at {}", g[value][text]);
        }
    }
}

#[test]
fn the_path_reader_reads_groups_and_nested_paths() {
    let names = |code: &str| crate_paths(code).into_iter().map(|(_, n)| n).collect::<Vec<_>>();
    assert_eq!(names("use crate::{error::Error, layout::{Layout, Mode}};"), ["error", "layout"]);
    assert_eq!(names("let x = crate::int::Int::ONE + crate::coalesce(&l);"), ["int", "coalesce"]);
    assert_eq!(crate_paths("a crate::b")[0].0, 2);
}

/// The layer order that `lib.rs` documents: the module names in backticks
/// of the paragraph that starts "The modules are layers", in order.
fn documented_order(c: &Crate) -> Vec<String> {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let para: String = lib
        .lines()
        .skip_while(|l| !l.contains("The modules are layers"))
        .take_while(|l| l.trim() != "//!")
        .map(|l| l.trim_start_matches("//!"))
        .collect::<Vec<_>>()
        .join(" ");
    let names = para.split('`').skip(1).step_by(2).map(|n| n.trim_start_matches("mod@").to_string());
    names.filter(|n| c.modules.contains_key(n)).collect()
}

/// Every import goes to a module listed before the importer, which also
/// rules out import cycles.
#[test]
fn imports_follow_the_documented_layer_order() {
    let c = read_crate();
    let g = imports(&c);
    // the scan sees imports at all
    assert!(g["layout"].contains_key("int_tuple"), "the scan found layout's imports: {:?}", g["layout"]);
    let order = documented_order(&c);
    let unlisted: Vec<_> = c.modules.keys().filter(|m| !order.contains(m)).collect();
    assert!(unlisted.is_empty(), "lib.rs's layer list leaves out {unlisted:?}");
    let rank = |m: &str| order.iter().position(|o| o == m).unwrap();
    for (m, edges) in g {
        for (d, place) in edges {
            assert!(rank(&d) < rank(&m), "{m} imports {d} ({place}), which lib.rs lists after it");
        }
    }
}

/// The files of `expr/` import one another without a cycle (the overloads
/// receive what they need as arguments rather than calling back into the
/// registry). A file is a module path (`expr::functions::args`); an import is
/// a `crate::expr::...`, `super::...` or `self::...` path, read as the
/// longest module path it starts with.
#[test]
fn the_files_of_expr_import_without_a_cycle() {
    let root = src().join("expr");
    let mut files = Vec::new();
    crate::common::rust_files(&root, &mut files);
    let module = |f: &Path| -> Vec<String> {
        let rel = f.strip_prefix(src()).unwrap().with_extension("");
        let mut m: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
        if m.last().is_some_and(|l| l == "mod") {
            m.pop();
        }
        m
    };
    let modules: Vec<Vec<String>> = files.iter().map(|f| module(f)).collect();
    let longest = |path: Vec<String>| modules.iter().filter(|m| path.starts_with(m)).max_by_key(|m| m.len()).cloned();
    let mut edges: BTreeMap<Vec<String>, Vec<Vec<String>>> = BTreeMap::new();
    for f in &files {
        let me = module(f);
        let text = std::fs::read_to_string(f).unwrap();
        let code: String = code_lines(&text).into_iter().map(|(_, l)| l + "\n").collect();
        for (prefix, base) in [("crate::", vec![]), ("super::", me[..me.len() - 1].to_vec()), ("self::", me.clone())] {
            for (i, _) in code.match_indices(prefix) {
                // `$crate::` and `crate::` alike; `super::super::` is not used
                let rest = &code[i + prefix.len()..];
                let path: Vec<String> = rest
                    .split("::")
                    .map(|s| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>())
                    .take_while(|s| !s.is_empty())
                    .collect();
                let mut full = base.clone();
                full.extend(path);
                if let Some(to) = longest(full)
                    && to != me
                    && !me.starts_with(&to)
                {
                    edges.entry(me.clone()).or_default().push(to);
                }
            }
        }
    }
    assert!(edges.values().map(Vec::len).sum::<usize>() > 10, "the scan found imports: {edges:?}");
    // depth-first search for a cycle
    fn visit(
        m: &Vec<String>,
        edges: &BTreeMap<Vec<String>, Vec<Vec<String>>>,
        stack: &mut Vec<Vec<String>>,
        done: &mut Vec<Vec<String>>,
    ) {
        if done.contains(m) {
            return;
        }
        assert!(!stack.contains(m), "an import cycle in expr/: {stack:?} -> {m:?}");
        stack.push(m.clone());
        for d in edges.get(m).into_iter().flatten() {
            visit(d, edges, stack, done);
        }
        stack.pop();
        done.push(m.clone());
    }
    let mut done = Vec::new();
    for m in &modules {
        visit(m, &edges, &mut Vec::new(), &mut done);
    }
}
