//! CuTe's answers (from the oracle in `shared/oracle`, copied into `data/`):
//! every row must pass. `algebra.tsv` and `seeds.tsv` are the project's shared
//! vectors; `extra_2002.tsv` was generated the same way with another seed.
//!
//! - an expression whose integers are all static prints exactly CuTe's answer;
//! - one with dynamic integers prints the same values (compared with `_` removed);
//! - `error`: kute returns an error;
//! - `cute-wrong:<answer>`: CuTe's answer is not the true result; kute returns an
//!   error or the true result. Marked by `shared/oracle/cute_truth.py` for the
//!   operations built on composition (the composite), and by an independent
//!   checker of CuTe's own documented postconditions (both in scripts/mark_wrong.py):
//!   `left_inverse` gives a quasi-inverse (`L(R(L(i))) == L(i)`), and
//!   `make_layout_like` / `make_fragment_like` a compact layout.

use kute::expr::{self, Expr, ExprKind, Value};

fn all_static(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int { is_static, .. } => *is_static,
        ExprKind::Underscore | ExprKind::Name(_) => true,
        ExprKind::Tuple(xs) | ExprKind::Tile(xs) => xs.iter().all(all_static),
        ExprKind::Layout(a, b) => all_static(a) && all_static(b),
        ExprKind::Call { args, .. } => args.iter().all(all_static),
        ExprKind::Apply(f, args) => all_static(f) && args.iter().all(all_static),
        ExprKind::Basis { is_static, .. } => *is_static,
        _ => false,
    }
}

/// For a `composition(A, B)` row, whether `got` is the true composite `Â∘B`.
fn is_true_composite(src: &str, got: &Value) -> bool {
    let e = expr::parse(src).unwrap();
    let ExprKind::Call { name, args, .. } = &e.kind else { return false };
    if name != "composition" {
        return false;
    }
    let env = expr::Env::new();
    let (Ok(Value::Layout(a)), Ok(Value::Layout(b)), Value::Layout(r)) =
        (expr::eval_expr(&args[0], &env), expr::eval_expr(&args[1], &env), got)
    else {
        return false;
    };
    let ahat = kute::coalesce(&a).unwrap();
    let (bv, rv) = (b.values().unwrap(), r.values().unwrap());
    bv.len() == rv.len() && bv.iter().zip(&rv).all(|(&x, &y)| ahat.eval(x).unwrap() == y)
}

/// For a `make_layout_like` / `make_fragment_like` row where CuTe's answer is
/// not the compact layout CuTe documents (equal strides given overlapping
/// ones): `got` has CuTe's shape, zero strides where CuTe has them, and its
/// other leaves map their coordinates one-to-one onto `[0, n)`.
fn is_compact_like(src: &str, cute: &str, got: &Value) -> bool {
    if !(src.starts_with("make_layout_like(") || src.starts_with("make_fragment_like(")) {
        return false;
    }
    let (Ok(cute), Value::Layout(got)) = (cute.parse::<kute::Layout>(), got) else { return false };
    let strip = |s: String| s.replace('_', "");
    if strip(cute.shape().to_string()) != strip(got.shape().to_string()) {
        return false;
    }
    let zero = |l: &kute::Layout| l.leaves().iter().map(|m| m.stride.value() == 0).collect::<Vec<_>>();
    if zero(&cute) != zero(got) {
        return false;
    }
    let mut idx = vec![0i64];
    for m in got.leaves().iter().filter(|m| m.stride.value() != 0) {
        let (s, d) = (m.shape.value(), m.stride.value());
        idx = (0..s).flat_map(|k| idx.iter().map(move |&v| v + k * d)).collect();
    }
    idx.sort_unstable();
    idx.iter().enumerate().all(|(i, &v)| v == i as i64)
}

fn check_file(name: &str, text: &str) {
    let mut failures = Vec::new();
    let mut n = 0;
    for line in text.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (src, want) = line.split_once('\t').expect("expr<TAB>answer");
        n += 1;
        let got = expr::eval(src);
        let ok = match (want, &got) {
            ("error", r) => r.is_err(),
            (w, r) if w.starts_with("cute-wrong:") => match r {
                Err(_) => true,
                Ok(v) => is_true_composite(src, v) || is_compact_like(src, &w["cute-wrong:".len()..], v),
            },
            // kute prints booleans as true/false where CuTe prints _1/_0 (static) or 1/0
            // (README, "Where kute differs from CuTe C++")
            (w, Ok(Value::Bool(b))) => w.trim_start_matches('_') == if b.value { "1" } else { "0" },
            (w, Ok(v)) => {
                let s = v.to_string();
                if all_static(&expr::parse(src).unwrap()) {
                    s == w
                } else {
                    s.replace('_', "") == w.replace('_', "")
                }
            }
            (_, Err(_)) => false,
        };
        if !ok {
            let g = match &got {
                Ok(v) => v.to_string(),
                Err(e) => format!("error: {e}"),
            };
            failures.push(format!("{src}\n    want {want}\n    got  {g}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{}: {} of {n} rows fail:\n{}",
        name,
        failures.len(),
        failures.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn algebra_vectors() {
    check_file("algebra.tsv", include_str!("data/algebra.tsv"));
}

/// 4000 more cases from the same generator (`gen.py 2002 4000`) answered by the
/// CuTe oracle; rows where CuTe's answer was shown not to be the composite (a
/// counterexample point) are marked `cute-wrong:`.
#[test]
fn extra_vectors() {
    check_file("extra_2002.tsv", include_str!("data/extra_2002.tsv"));
}

/// Coordinate layouts: ScaledBasis strides (`E<i>`, `_3@1`), identity layouts
/// and the operations CuTe allows on them (`shared/vectors/basis.tsv`).
#[test]
fn basis_vectors() {
    check_file("basis.tsv", include_str!("data/basis.tsv"));
}

/// CuTe's tuple utilities (`front`, `back`, `unwrap`, `wrap`, `tuple_cat`,
/// `insert`, `remove`, `repeat_like`, `repeat`), from the oracle.
#[test]
fn tuple_vectors() {
    check_file("tuples.tsv", include_str!("data/tuples.tsv"));
}

/// CuTe's `elem_less`, `lex_less` and `colex_less`, from the oracle.
#[test]
fn comparison_vectors() {
    check_file("comparisons.tsv", include_str!("data/comparisons.tsv"));
}

/// CuTe's `slice`/`dice` of integer tuples and `idx2crd` with strides, from the oracle.
#[test]
fn slice_vectors() {
    check_file("slices.tsv", include_str!("data/slices.tsv"));
}

/// CuTe's `coshape` and `coprofile`, from the oracle.
#[test]
fn coshape_vectors() {
    check_file("coshape.tsv", include_str!("data/coshape.tsv"));
}

/// CuTe's `make_layout_like`, `make_fragment_like` and `evenly_divides`, from the oracle.
#[test]
fn like_vectors() {
    check_file("like.tsv", include_str!("data/like.tsv"));
}

/// CuTe's `max_alignment`, from the oracle with run-time integers as written.
#[test]
fn max_alignment_vectors() {
    check_file("max_alignment.tsv", include_str!("data/max_alignment.tsv"));
}

/// CuTe's `domain_offset`, from the oracle.
#[test]
fn domain_offset_vectors() {
    check_file("domain_offset.tsv", include_str!("data/domain_offset.tsv"));
}

/// CuTe's `zip2_by` of integer tuples, from the oracle.
#[test]
fn zip2_by_vectors() {
    check_file("zip2_by.tsv", include_str!("data/zip2_by.tsv"));
}

/// CuTe's `domain_distribute`, from the oracle.
#[test]
fn domain_distribute_vectors() {
    check_file("domain_distribute.tsv", include_str!("data/domain_distribute.tsv"));
}

/// CuTe's `transform_layout(L, f)` and `transform_layout(L0, L1, f)` with `f`
/// a function name, from the oracle (`f` sent as a generic lambda).
#[test]
fn transform_layout_vectors() {
    check_file("transform_layout.tsv", include_str!("data/transform_layout.tsv"));
}

/// CuTe's `recast_layout<Old,New>` with its element types, from the oracle.
#[test]
fn recast_layout_vectors() {
    check_file("recast_layout.tsv", include_str!("data/recast_layout.tsv"));
}

/// CuTe's `L.get_hier_coord(i)`, `L.get_flat_coord(i)` and `L.get_1d_coord(i)`,
/// from the oracle (sent as the member functions they are).
#[test]
fn get_coord_vectors() {
    check_file("get_hier_coord.tsv", include_str!("data/get_hier_coord.tsv"));
}

/// The expected results of NVIDIA's 2026 reference implementation (PyCuTe)
/// for `greatest_common_domain`, `layout_add`, `common_refinement`,
/// `common_coarsening` and `coalesce_z`.
#[test]
fn pycute_vectors() {
    check_file("pycute.tsv", include_str!("data/pycute.tsv"));
}

#[test]
fn seed_vectors() {
    check_file("seeds.tsv", include_str!("data/seeds.tsv"));
}
