//! CuTe's answers (from the CuTe oracle, which runs CuTe's own C++; copied into `data/`):
//! every row must pass. `algebra.tsv` and `seeds.tsv` are the project's shared
//! vectors; `extra_2002.tsv` was generated the same way with another seed.
//!
//! - an expression whose integers are all static prints exactly CuTe's answer;
//! - one with dynamic integers prints the same values (compared with `_` removed);
//! - `error`: kute returns an error;
//! - `cute-wrong:<answer>`: CuTe's answer is not the true result; kute returns an
//!   error or the true result. Marked by the oracle's `cute_truth.py` for the
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
        ExprKind::Composed(a, o, b) => all_static(a) && all_static(o) && all_static(b),
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

/// For a `slice` / `slice_and_offset` row of a composed layout `C` (the
/// `cute-wrong:` rows where CuTe's decayed slice is not the slice): whether
/// `got` is a true slice, checked by evaluating `C` at every coordinate of
/// the slice (its `_` filled in) against `got` plus the offset (`slice` drops
/// the offset: then the difference must be one constant).
fn is_true_slice(src: &str, got: &Value) -> bool {
    let e = expr::parse(src).unwrap();
    let ExprKind::Call { name, args, .. } = &e.kind else { return false };
    if name != "slice" && name != "slice_and_offset" {
        return false;
    }
    let coord_text = &src[args[0].span.0..args[0].span.1];
    let c_text = &src[args[1].span.0..args[1].span.1];
    let (r, off) = match (name.as_str(), got) {
        ("slice", v) => (v.clone(), None),
        (_, Value::Tuple(p)) if p.len() == 2 => {
            (p[0].clone(), Some(p[1].to_string().replace('_', "").parse::<i64>().unwrap()))
        }
        _ => return false,
    };
    let r_text = r.to_string();
    let free = expr::eval(&format!("shape(slice({coord_text},shape({c_text})))")).unwrap().to_string();
    let n: i64 = expr::eval(&format!("size({free})")).unwrap().to_string().replace('_', "").parse().unwrap();
    let mut diff = None;
    for j in 0..n {
        let jc = expr::eval(&format!("idx2crd({j},{free})")).unwrap().to_string().replace('_', "");
        let parts: Vec<String> = if jc.starts_with('(') { split_top(&jc[1..jc.len() - 1]) } else { vec![jc] };
        let mut it = parts.into_iter();
        let full: String =
            coord_text.chars().map(|ch| if ch == '_' { it.next().unwrap() } else { ch.to_string() }).collect();
        let want =
            expr::eval(&format!("{c_text}({full})")).unwrap().to_string().replace('_', "").parse::<i64>().unwrap();
        let have = expr::eval(&format!("{r_text}({j})")).unwrap().to_string().replace('_', "").parse::<i64>().unwrap();
        let d = want - have - off.unwrap_or(0);
        if off.is_some() && d != 0 || diff.is_some_and(|x| x != d) {
            return false;
        }
        diff = Some(d);
    }
    true
}

/// The slice check can fail: CuTe's decayed answer on a `cute-wrong:` row
/// is not the slice.
#[test]
fn true_slice_check_rejects_cutes_wrong_slice() {
    let src = "slice_and_offset((0,_,(_,_)),Sw<1,4,3> o _32 o (_4,_4,(_4,_2)):(_1,_4,(_16,_64)))";
    let cute = expr::eval("((_4,_4,_2):(_4,_16,_64),_32)").unwrap();
    assert!(!is_true_slice(src, &cute));
    assert!(is_true_slice(src, &expr::eval(src).unwrap()));
}

/// The top-level elements of a tuple's inside.
fn split_top(s: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 0);
    for ch in s.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    out.push(cur);
    out
}

fn check_file(name: &str, text: &str) {
    let mut failures = Vec::new();
    let mut n = 0;
    for line in text.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        // EXPR<TAB>ANSWER, or EXPR<TAB>CUTE<TAB>ANSWER: kute's spelling and CuTe's
        // (empty: the same), both of which must give CuTe's answer
        let cols: Vec<&str> = line.split('\t').collect();
        let (srcs, want) = match cols[..] {
            [src, want] => (vec![src], want),
            [src, "", want] => (vec![src], want),
            [src, cute, want] => (vec![src, cute], want),
            _ => panic!("{name}: expr<TAB>answer or expr<TAB>cute<TAB>answer: {line}"),
        };
        // a multi-line CuTe print (a TiledMMA, an atom) has its newlines written `\n`
        let want_owned = want.replace("\\n", "\n");
        let want = want_owned.as_str();
        for src in srcs {
            n += 1;
            let got = expr::eval(src);
            let ok = match (want, &got) {
                ("error", r) => r.is_err(),
                (w, r) if w.starts_with("cute-wrong:") => match r {
                    Err(_) => true,
                    Ok(v) => {
                        is_true_composite(src, v)
                            || is_compact_like(src, &w["cute-wrong:".len()..], v)
                            || is_true_slice(src, v)
                    }
                },
                // kute prints booleans as true/false where CuTe prints _1/_0 (static) or 1/0
                // (docs/differences.md)
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
/// and the operations CuTe allows on them (CuTe's vector file `basis.tsv`).
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

/// Nested expressions: the result of one operation as an operand of the next
/// (integer layouts through the algebra, up to three deep), from the oracle;
/// a row is `cute-wrong:` where CuTe's answer for any call in it is wrong
/// (`scripts/nested_vectors.py`).
#[test]
fn nested_algebra_vectors() {
    check_file("nested_algebra.tsv", include_str!("data/nested_algebra.tsv"));
}

/// Nested expressions of coordinate layouts: identity layouts divided,
/// coalesced, flattened, composed with an integer layout, sliced and
/// evaluated, from the oracle (`scripts/nested_vectors.py`).
#[test]
fn nested_basis_vectors() {
    check_file("nested_basis.tsv", include_str!("data/nested_basis.tsv"));
}

/// The expected results of NVIDIA's 2026 reference implementation (PyCuTe)
/// for `greatest_common_domain`, `layout_add`, `common_refinement`,
/// `common_coarsening` and `coalesce_z`.
#[test]
fn pycute_vectors() {
    check_file("pycute.tsv", include_str!("data/pycute.tsv"));
}

/// Swizzles and composed layouts (CuTe's vector file `swizzle.tsv`).
#[test]
fn swizzle_vectors() {
    check_file("swizzle.tsv", include_str!("data/swizzle.tsv"));
}

/// MMA and copy atoms, tiled MMAs and tiled copies (CuTe's vector file `tv.tsv`).
#[test]
fn tv_vectors() {
    check_file("tv.tsv", include_str!("data/tv.tsv"));
}

/// Calls kute takes in forms CuTe C++ spells otherwise (a shape as an atom,
/// thread or value layout), `retile`, `retile_S`/`retile_D` of thread slices,
/// and `tile_to_shape` with an order: CuTe's answers to CuTe's spelling.
#[test]
fn call_vectors() {
    check_file("calls.tsv", include_str!("data/calls.tsv"));
}

#[test]
fn seed_vectors() {
    check_file("seeds.tsv", include_str!("data/seeds.tsv"));
}

/// Blackwell atoms (`data/tv_sm100.tsv`, the project's shared vectors): tcgen05 UMMA, TMEM copies,
/// UMMA shared-memory atoms, SM120.
#[test]
fn tv_sm100_vectors() {
    check_file("tv_sm100.tsv", include_str!("data/tv_sm100.tsv"));
}

/// More Blackwell rows, answered by the oracle the same way (`data/tv_sm100_extra.tsv`):
/// the TS forms, every UMMA family's 2-SM traits, the accumulators the non-interleaved
/// and half-precision allocations make, TMEM copies spelled as atoms, the GMMA spellings
/// of the shared-memory atoms, their recasts, SM120 scale-factor layouts.
#[test]
fn tv_sm100_extra_vectors() {
    check_file("tv_sm100_extra.tsv", include_str!("data/tv_sm100_extra.tsv"));
}

/// The traits of a traits type, `MMA_Traits<MMA_Traits<Op>>`, which CuTe's primary
/// template rejects, beside `MMA_Atom<MMA_Traits<Op>>`, which CuTe specializes
/// (`data/mma_traits_nested.tsv`, the oracle's answers).
#[test]
fn mma_traits_of_traits_vectors() {
    check_file("mma_traits_nested.tsv", include_str!("data/mma_traits_nested.tsv"));
}
