//! How kute writes values and pictures.
//!
//! The `Display` expectations below are CuTe's own output for the same
//! expressions (from the CuTe oracle's `cute.py eval --as-written`); the table and
//! LaTeX snapshots in `snapshots/` were checked against `cute.py print`. SVG has
//! no CuTe counterpart: its snapshots guard the picture against accidental
//! change, and the tests here check its structure.

use kute::expr::eval;
use kute::print::{latex, svg, table};
use kute::Layout;

fn layout(s: &str) -> Layout {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Expression and CuTe's printout of its value.
const DISPLAY: &[(&str, &str)] = &[
    ("_8", "_8"),
    ("8", "8"),
    ("-3", "-3"),
    ("_-3", "_-3"),
    ("(_2,3)", "(_2,3)"),
    ("((_2,_3),(4,(5,_6)))", "((_2,_3),(4,(5,_6)))"),
    ("(8)", "(8)"),
    ("make_layout((_2,_4))", "(_2,_4):(_1,_2)"),
    ("make_layout((2,4))", "(2,4):(_1,2)"),
    ("(2,(2,2)):(4,(1,2))", "(2,(2,2)):(4,(1,2))"),
    ("(_2,_3):(_-1,_4)", "(_2,_3):(_-1,_4)"),
    ("_1:_0", "_1:_0"),
    ("make_layout(_8)", "_8:_1"),
    ("make_layout((_2,(_3,_4)),LayoutRight{})", "(_2,(_3,_4)):(_12,(_4,_1))"),
    ("make_tile(_2:_1, _4:_2)", "(_2:_1,_4:_2)"),
    ("make_tile(2:1, _)", "(2:1,_)"),
    ("<_2,_3>", "(_2,_3)"),
    ("slice_and_offset((_1,_),(_2,_3):(_3,_1))", "((_3):(_1),_3)"),
    ("slice_and_offset((1,_),(2,3):(3,1))", "((3):(1),3)"),
    ("(_2,_3):(_3,_1)(_,_1)", "(_2):(_3)"),
    ("slice((_,1),(2,3):(3,1))", "(2):(3)"),
    ("dice((_,1),(2,3):(3,1))", "(3):(1)"),
    ("idx2crd(_5,(_2,(_2,_2)))", "(_1,(_0,_1))"),
    ("idx2crd(5,(2,(2,2)))", "(1,(0,1))"),
    ("crd2idx((1,(0,1)),(2,(2,2)))", "5"),
    ("size((_2,4))", "8"),
    ("product_each(((_2,_3),4))", "(_6,4)"),
    ("(_2,_3):(_3,_1)(_4)", "_2"),
    ("(2,3):(3,1)(1,1)", "4"),
    ("shape_div((_12,_8),_4)", "(_3,_8)"),
    ("rank(_5)", "_1"),
    ("depth((_1,(_2,(_3))))", "_3"),
    ("get<1,0>((_1,(_2,_3)))", "_2"),
    ("take<1,3>((_1,_2,_3,_4))", "(_2,_3)"),
];

#[test]
fn values_print_as_cute_prints_them() {
    let mut bad = Vec::new();
    for (src, want) in DISPLAY {
        match eval(src) {
            Ok(v) if v.to_string() == *want => {}
            Ok(v) => bad.push(format!("{src}: want {want}, got {v}")),
            Err(e) => bad.push(format!("{src}: want {want}, got error {e}")),
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn layouts_round_trip_through_text() {
    for (_, text) in DISPLAY.iter().filter(|(_, w)| w.contains(':') && !w.contains(",_") && !w.starts_with("((")) {
        let l = layout(text);
        assert_eq!(l.to_string(), *text);
    }
}

#[test]
fn booleans_print_as_words() {
    // A documented difference: CuTe prints true_type/false_type as _1/_0.
    assert_eq!(eval("congruent((_2,_3),(_4,_5))").unwrap().to_string(), "true");
    assert_eq!(eval("congruent((_2,_3),_4)").unwrap().to_string(), "false");
}

#[test]
fn errors_name_the_operation() {
    let e = eval("composition((6,4):(1,7), 4:4)").unwrap_err();
    assert!(e.to_string().starts_with("composition: "), "{e}");
    let e = eval("(2,3").unwrap_err();
    assert!(e.to_string().starts_with("parse: "), "{e}");
    assert!(e.span().is_some());
}

/// A division by zero names the user's call and operands, not an
/// intermediate of its algorithm (`ceil_div(7, 0)` computes `6 / 0`, a
/// complement by a size-0 layout `7 / 0`).
#[test]
fn division_by_zero_names_the_call_and_its_operands() {
    use kute::ErrorKind::DivisionByZero;
    let cases = [
        ("ceil_div(7,0)", "ceil_div", "ceil_div(7, 0)"),
        ("ceil_div((9,4),0)", "ceil_div", "ceil_div(9, 0)"),
        ("complement(0:1, 8)", "complement", "the layout 0:1 has size 0"),
        ("complement((3,0):(1,3), (8,2))", "complement", "the layout (3,0):(1,3) has size 0"),
        ("complement((0,4):(1,8))", "complement", "the layout (0,4):(1,8) has size 0"),
        ("logical_divide(8:1, 0:1)", "logical_divide", "complement: the layout 0:1 has size 0"),
    ];
    for (src, op, says) in cases {
        let e = eval(src).unwrap_err();
        assert_eq!((e.kind(), e.op()), (DivisionByZero, op), "{src}: {e}");
        assert!(e.message().contains(says), "{src}: {e}");
    }
}

/// Every error names an operation a user would recognise (the call, the
/// operator, `make_layout` for `S:D`, `evaluate` for the evaluator's own).
#[test]
fn every_error_names_an_operation() {
    let tuple = format!("({})", vec!["1"; 4097].join(","));
    let cases = [
        ("7/0", "/"),
        ("_:_", "make_layout"),
        ("(2,3):(1,_)", "make_layout"),
        ("_3@1 + _2@0", "+"),
        ("1 - (1,2)", "-"),
        ("_5@0 * 2", "*"),
        (tuple.as_str(), "evaluate"),
        ("size(foo)", "evaluate"),
        ("composition((6,4):(1,7), 4:4)", "composition"),
    ];
    for (src, op) in cases {
        let e = eval(src).unwrap_err();
        assert_eq!(e.op(), op, "{src}: {e}");
        assert!(e.to_string().starts_with(&format!("{op}: ")), "{src}: {e}");
    }
}

/// A mode path out of range is the error of the call that took it
/// (`size<5>(L)` is `size`'s), not of an inner `layout<5>`.
#[test]
fn a_mode_path_out_of_range_names_the_call() {
    for op in ["size", "shape", "stride", "cosize", "rank", "depth", "get", "layout"] {
        let src = format!("{op}<5>((2,3):(1,2))");
        let e = eval(&src).unwrap_err();
        assert_eq!((e.kind(), e.op()), (kute::ErrorKind::Mismatch, op), "{src}: {e}");
        assert!(e.message().contains("[5]"), "{src}: {e}");
    }
}

/// Composition walks the coalesced left operand, and its errors number the
/// modes of that layout: the layout named is `coalesce(A)`, and its mode of
/// that number has the extent named.
#[test]
fn composition_errors_name_the_coalesced_modes_they_number() {
    for (a, b) in [("(1,6,3):(6,0,12)", "8:8"), ("(2,1,4,6):(1,7,4,32)", "_6:_2"), ("(2,1,6):(1,9,4)", "_4:_3")] {
        let src = format!("composition({a},{b})");
        let e = eval(&src).unwrap_err();
        let m = e.message();
        let (_, rest) = m.split_once("the coalesced left operand ").unwrap_or_else(|| panic!("{src}: {e}"));
        let (named, rest) = rest.split_once("'s mode ").unwrap();
        let i: usize = rest.split(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap();
        let extent = m.rsplit("extent ").next().unwrap().trim_end_matches(')');
        let coalesced = eval(&format!("coalesce({a})")).unwrap().to_string();
        assert_eq!(named, coalesced.replace('_', ""), "{src}: {e}");
        let mode = eval(&format!("shape<{i}>({coalesced})")).unwrap().to_string();
        assert_eq!(mode.replace('_', ""), extent, "{src}: {e}");
    }
}

// ----- tables ---------------------------------------------------------------

#[test]
fn table_snapshots() {
    insta::assert_snapshot!("table_nested", table(&layout("(2,(2,2)):(4,(2,1))")).unwrap());
    insta::assert_snapshot!("table_negative_stride", table(&layout("(_2,_3):(_-1,_4)")).unwrap());
    insta::assert_snapshot!("table_both_nested", table(&layout("((2,2),(2,(2,2))):((1,16),(2,(4,8)))")).unwrap());
    insta::assert_snapshot!("table_rank1", table(&layout("8:2")).unwrap());
    insta::assert_snapshot!("table_rank1_nested", table(&layout("((4,2)):((2,1))")).unwrap());
}

#[test]
fn rank1_table_is_the_padded_column_under_the_layout_itself() {
    // CuTe's print_layout rejects rank 1; kute prints the N×1 table of
    // (L,_1):(..,_0), which CuTe does print, under L's own header line: the
    // column CuTe's print_latex draws (append<2>(L, _1:_0)).
    let t = table(&layout("8:2")).unwrap();
    let padded = table(&layout("(8,_1):(2,_0)")).unwrap();
    assert_eq!(t.split_once('\n').unwrap().1, padded.split_once('\n').unwrap().1);
    assert_eq!(t.lines().next(), Some("8:2"));
    assert_eq!(t.lines().count(), 2 + 2 * 8 + 1);
}

/// The cells of each picture, row by row, read back from its text.
fn table_cells(t: &str) -> Vec<Vec<i64>> {
    t.lines()
        .filter(|l| l.contains('|'))
        .map(|l| l.split('|').skip(1).filter_map(|c| c.trim().parse().ok()).collect())
        .collect()
}

fn latex_cells(t: &str) -> Vec<Vec<i64>> {
    // `\node[fill=..] at (m,n) {v};`
    let mut cells: Vec<(usize, usize, i64)> = Vec::new();
    for l in t.lines().filter(|l| l.contains("\\node[fill")) {
        let at = &l[l.find(" at (").unwrap() + 5..];
        let (mn, rest) = at.split_once(')').unwrap();
        let (m, n) = mn.split_once(',').unwrap();
        let v = &rest[rest.find('{').unwrap() + 1..rest.find('}').unwrap()];
        cells.push((m.parse().unwrap(), n.parse().unwrap(), v.parse().unwrap()));
    }
    grid_of(cells)
}

fn svg_cells(t: &str) -> Vec<Vec<i64>> {
    // each cell: `<rect class="cell" x=".." y=".." ...><title>coord → index</title>`,
    // placed by the rank of its y and x among all cells'
    let rects: Vec<(f64, f64, i64)> = t
        .split("<rect class=\"cell\"")
        .skip(1)
        .map(|p| {
            (
                attr(p, "y").parse().unwrap(),
                attr(p, "x").parse().unwrap(),
                p[p.find("→ ").unwrap() + "→ ".len()..].split('<').next().unwrap().parse().unwrap(),
            )
        })
        .collect();
    let sorted = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.dedup();
        v
    };
    let ys = sorted(rects.iter().map(|r| r.0).collect());
    let xs = sorted(rects.iter().map(|r| r.1).collect());
    grid_of(
        rects.iter().map(|&(y, x, v)| (ys.partition_point(|&w| w < y), xs.partition_point(|&w| w < x), v)).collect(),
    )
}

fn grid_of(cells: Vec<(usize, usize, i64)>) -> Vec<Vec<i64>> {
    let rows = cells.iter().map(|c| c.0 + 1).max().unwrap_or(0);
    let cols = cells.iter().map(|c| c.1 + 1).max().unwrap_or(0);
    let mut g = vec![vec![i64::MIN; cols]; rows];
    for (m, n, v) in cells {
        g[m][n] = v;
    }
    g
}

#[test]
fn table_latex_and_svg_draw_every_layout_alike_rank1_included() {
    for src in ["8:2", "((4,2)):((2,1))", "1:0", "(3,4):(4,1)", "(2,(2,2)):(4,(2,1))", "Sw<1,0,1> o 0 o 4:1"] {
        let l = eval(src).unwrap().to_any_layout("draw").unwrap();
        let t = table_cells(&table(&l).unwrap());
        assert_eq!(latex_cells(&latex(&l).unwrap()), t, "latex of {src}");
        assert_eq!(svg_cells(&svg(&l).unwrap()), t, "svg of {src}");
        if !src.contains('(') {
            // rank 1: one column, in index order
            assert!(t.iter().all(|r| r.len() == 1), "{src}: {t:?}");
        }
    }
}

#[test]
fn wide_row_labels_use_two_columns() {
    let t = table(&layout("(12,1):(1,0)")).unwrap();
    assert!(t.contains("\n10  | 10 |\n"), "{t}");
}

#[test]
fn tables_refuse_negative_extents() {
    // no layout of negative extents is made from text; one made leaf by leaf is not drawn
    assert!("(-2,3):(1,2)".parse::<Layout>().unwrap_err().to_string().contains("negative"));
    let l = Layout::leaf(kute::Int::new_dynamic(-2), kute::Int::ONE);
    for r in [table(&l), latex(&l), svg(&l)] {
        let e = r.unwrap_err();
        assert!(e.to_string().contains("negative extent"), "{e}");
    }
}

#[test]
fn tables_need_rank_one_or_two() {
    let e = table(&layout("(2,2,2):(1,2,4)")).unwrap_err();
    assert!(e.to_string().contains("rank 3"), "{e}");
    assert!(latex(&layout("(2,2,2):(1,2,4)")).is_err());
    assert!(svg(&layout("(2,2,2):(1,2,4)")).is_err());
}

// ----- LaTeX ----------------------------------------------------------------

#[test]
fn latex_snapshots() {
    insta::assert_snapshot!("latex_row_major", latex(&layout("(_2,_3):(_3,_1)")).unwrap());
    insta::assert_snapshot!("latex_nested", latex(&layout("(2,(2,2)):(4,(2,1))")).unwrap());
    insta::assert_snapshot!("latex_rank1", latex(&layout("_3:_1")).unwrap());
}

#[test]
fn rank1_latex_is_a_column() {
    let t = latex(&layout("_3:_1")).unwrap();
    assert!(t.starts_with("% Layout: (_3,_1):(_1,_0)\n"), "{t}");
    assert!(t.contains("(0,0) grid (3,1);"), "{t}");
}

// ----- SVG ------------------------------------------------------------------

#[test]
fn svg_snapshots() {
    insta::assert_snapshot!("svg_row_major", svg(&layout("(_2,_3):(_3,_1)")).unwrap());
    insta::assert_snapshot!("svg_nested", svg(&layout("(2,(2,2)):(4,(2,1))")).unwrap());
    insta::assert_snapshot!("svg_rank1_nested", svg(&layout("((4,2)):((2,1))")).unwrap());
}

/// The `(fill, text)` of every cell, in row-major order.
/// The value of the attribute `name` in the text of a tag.
fn attr<'a>(tag: &'a str, name: &str) -> &'a str {
    let k = format!(" {name}=\"");
    let i = tag.find(&k).unwrap() + k.len();
    &tag[i..i + tag[i..].find('"').unwrap()]
}

fn cells(s: &str) -> Vec<(String, String)> {
    let fills: Vec<String> = s.split("<rect class=\"cell\"").skip(1).map(|t| attr(t, "fill").to_string()).collect();
    let values = s.split("<g class=\"values\"").nth(1).unwrap().split("</g>").next().unwrap();
    let texts: Vec<String> = values
        .split("<text")
        .skip(1)
        .map(|t| t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()].to_string())
        .collect();
    assert_eq!(fills.len(), texts.len());
    fills.into_iter().zip(texts).collect()
}

#[test]
fn svg_cells_show_the_values_in_the_palette() {
    let l = layout("(2,(2,2)):(4,(2,1))");
    let s = svg(&l).unwrap();
    let c = cells(&s);
    // Row-major over the table, as print_layout lays it out.
    let values: Vec<&str> = c.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(values, ["0", "2", "1", "3", "4", "6", "5", "7"]);
    // black!NN is NN% black on white: black!00 white, black!40 #999999, black!70 #4d4d4d.
    let greys = ["#ffffff", "#999999", "#cccccc", "#666666", "#e6e6e6", "#808080", "#b3b3b3", "#4d4d4d"];
    for (fill, text) in &c {
        let v: usize = text.parse().unwrap();
        assert_eq!(fill, greys[v % 8], "cell {v}");
    }
    // Dark cells get white text.
    assert!(s.contains("fill=\"#ffffff\">7</text>"), "{s}");
    assert!(s.contains("fill=\"#000000\">0</text>"), "{s}");
}

#[test]
fn svg_labels_give_index_and_natural_coordinate() {
    let s = svg(&layout("(2,(2,2)):(4,(2,1))")).unwrap();
    for c in ["(0,0)", "(1,0)", "(0,1)", "(1,1)"] {
        assert!(s.contains(&format!(">{c}</text>")), "missing column coordinate {c}");
    }
    // Mode 0 is not nested: rows carry only their index.
    let rows = s.split("<g class=\"row-labels\"").nth(1).unwrap().split("</g>").next().unwrap();
    assert_eq!(rows.matches("<text").count(), 2);
    assert!(s.contains("<title>Layout (2,(2,2)):(4,(2,1))</title>"));
}

#[test]
fn svg_rank1_is_a_column() {
    let s = svg(&layout("8:2")).unwrap();
    let values: Vec<String> = cells(&s).into_iter().map(|(_, t)| t).collect();
    assert_eq!(values, ["0", "2", "4", "6", "8", "10", "12", "14"]);
    let labels =
        |g: &str| s.split(&format!("<g class=\"{g}\"")).nth(1).unwrap().split("</g>").next().unwrap().to_string();
    assert_eq!(labels("row-labels").matches("<text").count(), 8);
    assert_eq!(labels("col-labels").matches("<text").count(), 1);
}

#[test]
fn svg_stays_readable_at_64x64() {
    let l = eval("zipped_divide((64,64):(64,1), <8,8>)").unwrap().to_string();
    let s = svg(&layout(&l)).unwrap();
    assert_eq!(s.matches("<rect class=\"cell\"").count(), 64 * 64);
    let font: f64 = {
        let g = s.split("<g class=\"values\" font-size=\"").nth(1).unwrap();
        g[..g.find('"').unwrap()].parse().unwrap()
    };
    let cell: f64 = {
        let r = s.split("<rect class=\"cell\"").nth(1).unwrap();
        let w = r.split(" width=\"").nth(1).unwrap();
        w[..w.find('"').unwrap()].parse().unwrap()
    };
    assert!(font >= 12.0, "font {font}");
    // "4095" in a monospace font is about 4 × 0.6 em wide: it must fit its cell.
    assert!(cell >= 4.0 * 0.6 * font + 4.0, "cell {cell} too small for font {font}");
    assert!(cell <= 64.0, "cell {cell} needlessly large");
}
