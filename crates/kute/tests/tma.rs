//! TMA copies (`make_tma_copy` and friends) and the SM90 bulk copy
//! (`SM90_BULK_COPY_AUTO`, `bulk_copy_atom`) against CuTe's own answers:
//! `data/tma.tsv`, made by `data/gen_tma.py` from CuTe's C++ headers with a
//! stub of the driver's `cuTensorMapEncodeTiled` that records its arguments.
//! Every row must print exactly CuTe's text (its `_` marks included: the
//! expressions are evaluated as written, integers static or dynamic), and an
//! `error` row must be refused with an error. The im2col copies
//! (`make_im2col_tma_copy`) likewise: `data/tma_im2col.tsv`, made by
//! `data/gen_tma_im2col.py` with a stub of `cuTensorMapEncodeIm2col`.

use kute::expr;

/// Every row of a file of CuTe's answers (`expr \t answer`, `error` where
/// CuTe rejects it) against kute's: at least `least` rows, none differing.
fn rows_match_cute(data: &str, least: usize) {
    let (mut rows, mut bad) = (0, Vec::new());
    for line in data.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let (src, want) = line.split_once('\t').expect("a row is `expr \\t answer`");
        let want = want.replace("\\n", "\n");
        rows += 1;
        match (expr::eval(src), want.as_str()) {
            (Err(_), "error") => {}
            (Ok(v), "error") => bad.push(format!("{src}\n  CuTe rejects it; kute: {v}")),
            (Ok(v), w) if v.to_string() == w => {}
            (Ok(v), w) => bad.push(format!("{src}\n  CuTe: {w}\n  kute: {v}")),
            (Err(e), w) => bad.push(format!("{src}\n  CuTe: {w}\n  kute: error {e}")),
        }
    }
    assert!(rows >= least, "only {rows} rows");
    assert!(bad.is_empty(), "{} of {rows} rows differ from CuTe:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn tma_rows_match_cute() {
    rows_match_cute(include_str!("data/tma.tsv"), 400);
}

#[test]
fn im2col_rows_match_cute() {
    rows_match_cute(include_str!("data/tma_im2col.tsv"), 170);
}
