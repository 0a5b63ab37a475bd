//! CuTe's known bugs and pitfalls as regression tests (docs/theory.md §1 and §5,
//! the CuTe C++ inventory §1.9 and §5), and CuTe cases that must still be accepted.
//!
//! Every expected answer was checked with CuTe's own C++ (the CuTe oracle's `cute.py eval`,
//! which evaluates the all-static variant, and `--as-written` for run-time integers);
//! the oracle's answer is quoted next to each case. Where CuTe is wrong, the test
//! compares against the mathematics (the true composite `Â∘B`, computed by our own
//! evaluator in `common`), never against what kute prints today.

use crate::common;

use common::*;
use kute::expr;
use kute::{ErrorKind, Layout};

fn ev(src: &str) -> kute::Result<String> {
    expr::eval(src).map(|v| v.to_string())
}

/// kute prints exactly CuTe's answer (all-static expression).
fn exact(src: &str, cute: &str) {
    match ev(src) {
        Ok(s) => assert_eq!(s, cute, "{src}"),
        Err(e) => panic!("{src}: CuTe answers {cute}, kute errs: {e}"),
    }
}

/// kute's answer has the same values as CuTe's (`_` marks removed).
fn same_values(src: &str, cute: &str) {
    match ev(src) {
        Ok(s) => assert_eq!(strip(&s), strip(cute), "{src}"),
        Err(e) => panic!("{src}: CuTe answers {cute}, kute errs: {e}"),
    }
}

/// kute rejects the expression with an error of the given kind.
fn rejects(src: &str, kind: ErrorKind) {
    match expr::eval(src) {
        Ok(v) => panic!("{src}: CuTe rejects it, kute answers {v}"),
        Err(e) => assert_eq!(e.kind(), kind, "{src}: {e}"),
    }
}

/// The true composite `Â(B(i))`, `i < size(B)`.
fn true_composite(a: &str, b: &str) -> Vec<i64> {
    let (a, b) = (lay(a), lay(b));
    values(&b).into_iter().map(|x| ahat(&a, x)).collect()
}

/// CuTe answers `cute` for `composition(a, b)`, which is not the composite: kute must
/// return an error, or a layout with the true composite's values (compatible with B).
fn cute_wrong_composition(a: &str, b: &str, cute: &str) {
    let want = true_composite(a, b);
    assert_ne!(values(&lay(cute)), want, "CuTe's answer {cute} is in fact the composite of {a} o {b}");
    for (x, y) in [(a.to_string(), b.to_string()), (strip(a), strip(b))] {
        let src = format!("composition({x},{y})");
        match expr::eval(&src) {
            Err(e) => assert_eq!(e.kind(), ErrorKind::Inadmissible, "{src}: {e}"),
            Ok(v) => {
                let r = lay(&v.to_string());
                assert_eq!(values(&r), want, "{src} = {r} is CuTe's wrong answer, not the composite {want:?}");
                assert!(shapes_compatible(&lay(&y), &r), "{src} = {r} is not compatible with {y}");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Composition: CuTe answers, but not with the composite
// ---------------------------------------------------------------------------

/// theory.md §5.3: CuTe checks only `rest_stride % shape == 0 || rest_stride < shape`.
/// oracle: `composition((_6,_4):(_1,_7),_4:_4)` = `(_2,_2):(_4,_7)` (values 0,4,7,11);
/// the composite is 0,4,9,14, which no layout has.
#[test]
fn cute_bug_6_4_after_4_4() {
    assert_eq!(true_composite("(6,4):(1,7)", "4:4"), [0, 4, 9, 14]);
    assert!(!realizable(&[0, 4, 9, 14]));
    cute_wrong_composition("(_6,_4):(_1,_7)", "_4:_4", "(_2,_2):(_4,_7)");
    rejects("composition((6,4):(1,7),4:4)", ErrorKind::Inadmissible);
}

/// oracle: `(_2,_3):(_6,_3)` (dynamic: `(2,3,1):(6,3,5)`); the composite is 0,6,7,8,9,15.
#[test]
fn cute_bug_4_6_8_after_6_3() {
    assert_eq!(true_composite("(4,6,8):(2,3,5)", "6:3"), [0, 6, 7, 8, 9, 15]);
    cute_wrong_composition("(_4,_6,_8):(_2,_3,_5)", "_6:_3", "(_2,_3):(_6,_3)");
    rejects("composition((4,6,8):(2,3,5),6:3)", ErrorKind::Inadmissible);
}

/// Shah's overflow example (theory.md §1): both single-mode compositions exist but
/// their concatenation carries between A's modes. oracle: `(_3,_2):(_2,_3)`, whose
/// value at 5 is 7 while A(B(5)) = A(7) = 8; no layout is the composite.
#[test]
fn shah_overflow() {
    assert_eq!(true_composite("(6,2):(1,7)", "(3,2):(2,3)"), [0, 2, 4, 3, 5, 8]);
    assert!(!realizable(&[0, 2, 4, 3, 5, 8]));
    cute_wrong_composition("(_6,_2):(_1,_7)", "(_3,_2):(_2,_3)", "(_3,_2):(_2,_3)");
}

/// The `cute-wrong` rows of tests/data/algebra.tsv (CuTe's answer quoted).
#[test]
fn algebra_tsv_cute_wrong_rows() {
    cute_wrong_composition("(_8,(_5,_4),(_5,_1)):(_200,(_40,_10),(_2,_2))", "_20:_5", "(_2,_5,_2):(_1000,_40,_10)");
    cute_wrong_composition("((_2,_3),_8):((_32,_32),_1)", "_6:_4", "(_2,_3):(_64,_1)");
    cute_wrong_composition(
        "((_4,_3,_3),(_16,_4,_2)):((_48,_0,_16),(_1,_1152,_576))",
        "(_18,_8):(_8,_288)",
        "((_2,_3,_3),(_2,_4)):((_0,_16,_1),(_8,_1152))",
    );
    cute_wrong_composition(
        "((_8,_8,_4),_6):((_4,_0,_1),_32)",
        "(_4,_16,_16):(_4,_16,_2)",
        "((_2,_2),(_4,_4),(_4,_4)):((_16,_0),(_0,_1),(_8,_0))",
    );
    // logical_divide(A, B) = A o (B, B*): CuTe's answer is not the composite either
    let a = "((_4,_4),(_3,_16),_2):((_12,_8),(_16,_3),_4)";
    let cute = "((_2,_6),((_4,_4,_2),(_2,_2))):((_32,_3),((_12,_8,_16),(_24,_4)))";
    // B* = complement(B, shape(coalesce(A))); oracle: complement(_12:_32,(_4,_4,_3,_16,_2)) = (_32,_4):(_1,_384)
    exact("coalesce(((_4,_4),(_3,_16),_2):((_12,_8),(_16,_3),_4))", "(_4,_4,_3,_16,_2):(_12,_8,_16,_3,_4)");
    exact("complement(_12:_32,(_4,_4,_3,_16,_2))", "(_32,_4):(_1,_384)");
    let bb = "(_12,(_32,_4)):(_32,(_1,_384))";
    let want = true_composite(a, bb);
    assert_ne!(values(&lay(cute)), want);
    let src = format!("logical_divide({a},_12:_32)");
    if let Ok(v) = expr::eval(&src) {
        assert_eq!(values(&lay(&v.to_string())), want, "{src} = {v} is CuTe's wrong answer");
    }
}

/// Random finds (laws.rs, rank-1 B): CuTe answers wrongly although a layout with the
/// composite's values exists; kute must error or find the true composite.
#[test]
fn cute_wrong_but_composite_exists() {
    for (a, b, cute) in [
        ("(_8,_3):(_9,_1)", "_6:_3", "(_3,_2):(_27,_1)"),
        ("(_8,_6):(_10,_1)", "_6:_3", "(_3,_2):(_30,_1)"),
        ("(_8,_4,_2,_2):(_12,_4,_2,_8)", "_6:_3", "(_3,_2):(_36,_4)"),
        ("(_4,_4,_5,_3):(_3,_12,_7,_8)", "_4:_10", "(_2,_2):(_30,_7)"),
        ("(_5,_4,_8,_2):(_4,_8,_10,_4)", "_4:_3", "(_2,_2):(_12,_8)"),
        ("(_5,_4,_2):(_7,_10,_9)", "_4:_3", "(_2,_2):(_21,_10)"),
        ("(_8,_6,_5,_4):(_2,_6,_10,_4)", "_6:_3", "(_3,_2):(_6,_6)"),
        ("(_8,_4,_6):(_1,_7,_4)", "_6:_3", "(_3,_2):(_3,_7)"),
        ("(_5,_5,_4):(_4,_12,_4)", "_4:_3", "(_2,_2):(_12,_12)"),
        ("(_8,_2,_2):(_7,_5,_6)", "_4:_5", "(_2,_2):(_35,_5)"),
    ] {
        assert!(realizable(&true_composite(a, b)), "{a} o {b}");
        cute_wrong_composition(a, b, cute);
        // a layout has the composite's values, so kute answers it
        let v = expr::eval(&format!("composition({a},{b})")).unwrap_or_else(|e| panic!("{a} o {b}: {e}"));
        assert_eq!(values(&lay(&v.to_string())), true_composite(a, b), "{a} o {b} = {v}");
    }
}

/// The examples of issue "Complete and unbreakable" (item 2): the true layout
/// where CuTe's is wrong, an error where none exists.
#[test]
fn never_a_silently_wrong_layout() {
    // CuTe --as-written: (2,3,1):(24,1,42), values 0,24,1,25,2,26
    let want = true_composite("(7,6,4):(6,1,42)", "6:4");
    assert_eq!(want, [0, 24, 7, 31, 14, 38]);
    assert_ne!(values(&lay("(2,3,1):(24,1,42)")), want);
    for src in ["composition((7,6,4):(6,1,42),6:4)", "composition((_7,_6,_4):(_6,_1,_42),_6:_4)"] {
        let r = lay(&expr::eval(src).unwrap().to_string());
        assert_eq!(values(&r), want, "{src} = {r}");
        assert!(shapes_compatible(&lay("6:4"), &r));
    }
    // the divide's first mode is the composite composition itself gives (here:
    // no complement of a negative stride, so an error)
    rejects("logical_divide((4,2):(1,8),2:-5)", ErrorKind::Inadmissible);
    // not injective, and CuTe's (2,2):(2,1) is not a quasi-inverse: L(R(L(5))) = 1, L(5) = 4
    rejects("left_inverse((2,3):(2,1))", ErrorKind::Inadmissible);
    // ties left to right: compact
    exact("make_ordered_layout((4,8),(_5,_5))", "(4,8):(_1,4)");
    exact("make_ordered_layout((_2,_2,_2),(_1,_0,_1))", "(_2,_2,_2):(_2,_1,_4)");
    // the products and regrouped divides are checked too (CuTe's answers quoted)
    for (src, cute) in [
        ("blocked_product(_8:_4,(_2,_2,_2):(_3,_2,_16))", "((_8,_2),(_1,_2),(_1,_2)):((_4,_3),(_0,_2),(_0,_128))"),
        ("zipped_divide(((_6,_4),_2):((_12,_1),_0),_6:_4)", "((_2,_3),(_4,_2)):((_48,_1),(_12,_0))"),
    ] {
        match expr::eval(src) {
            Err(e) => assert_eq!(e.kind(), ErrorKind::Inadmissible, "{src}: {e}"),
            Ok(v) => assert_ne!(v.to_string(), cute, "{src} is CuTe's wrong answer"),
        }
    }
}

/// Run-time integers: CuTe skips its checks and answers wrongly, or divides by zero.
/// kute decides by value, so the dynamic expression behaves like the static one.
#[test]
fn dynamic_operands_checked_by_value() {
    // CuTe --as-written: (3,1):(24,1), size 3 for a size-4 B; static: error.
    rejects("composition((8,8):(8,1),4:3)", ErrorKind::Inadmissible);
    rejects("composition((_8,_8):(_8,_1),_4:_3)", ErrorKind::Inadmissible);
    // CuTe --as-written: (4,1):(1,4), size 4 for a size-6 B; static: _6:_1.
    same_values("composition((4,3):(1,4),6)", "_6:_1");
    exact("composition((_4,_3):(_1,_4),_6)", "_6:_1");
    // CuTe --as-written: SIGFPE (dynamic 0 stride in B, multi-mode A); static: _4:_0.
    same_values("composition((4,3):(1,4),4:0)", "_4:_0");
    exact("composition((_4,_3):(_1,_4),_4:_0)", "_4:_0");
    // CuTe --as-written drops dynamic strides: 4:_1; static: _8:_1.
    same_values("right_inverse((4,2):(_1,4))", "_8:_1");
    // CuTe --as-written keeps a dynamic 1: (1,5):(_1,12); static: _5:_12.
    same_values("complement(12:1,53)", "_5:_12");
    // CuTe --as-written: ((5,1),(2,2)):((16,4),(80,4)); static: (_5,(_2,_2)):(_16,(_80,_4)).
    same_values("composition((10,2):(16,4),(5,4):(1,5))", "(_5,(_2,_2)):(_16,(_80,_4))");
    exact("composition((_10,_2):(_16,_4),(_5,_4):(_1,_5))", "(_5,(_2,_2)):(_16,(_80,_4))");
}

// ---------------------------------------------------------------------------
// theory.md §5: semantic pitfalls
// ---------------------------------------------------------------------------

/// §5.1: composition extends the *coalesced* A (`coalesce_x`), whose extension differs
/// from A's: `(4,1):(3,3)` and `4:3` agree below 4 but not beyond.
#[test]
fn pitfall_extension_of_coalesced_lhs() {
    exact("coalesce((_4,_1):(_3,_3))", "_4:_3");
    exact("composition((_4,_1):(_3,_3),_2:_4)", "_2:_3"); // oracle: _2:_3
    exact("composition(_4:_3,_2:_4)", "_2:_12"); // oracle: _2:_12
    exact("coalesce(_1:_2)", "_1:_0");
    exact("composition(_1:_2,_4:_1)", "_4:_2"); // oracle: _4:_2
                                                // the law: Â is coalesce_x(A), last mode unbounded
    assert_eq!(true_composite("(_4,_1):(_3,_3)", "_2:_4"), [0, 3]);
}

/// §5.4: a cotarget that the last extent·stride does not divide. CuTe (oracle)
/// answers `(_24,_22):(_1,_48)`, cosize 1032 > 1025, so its own unit-test bound
/// `cosize(R) <= round_up(M, cosize(A))` fails; the relaxed laws still hold.
#[test]
fn pitfall_non_dividing_cotarget() {
    exact("complement(_2:_24,_1024)", "(_24,_22):(_1,_48)");
    let r = lay("(_24,_22):(_1,_48)");
    assert_eq!(r.cosize().unwrap().value(), 1032);
    let v = values(&r);
    assert!(v.windows(2).all(|w| w[0] < w[1]));
    assert!(v.iter().skip(1).all(|&x| x != 24));
    // Shah: complement(4:2, 19) violates the cosize bound; CuTe answers (_2,_3):(_1,_8)
    exact("complement(_4:_2,_19)", "(_2,_3):(_1,_8)");
}

/// §5.5 / K10: non-tractable inputs. CuTe's complement runs and returns a partial
/// complement (ordered, disjoint, but (A,R) does not fill [0,M)); kute gives CuTe's
/// answer. left_inverse of such a layout is rejected by both.
#[test]
fn pitfall_non_tractable() {
    // injective but not complementable (Colfax Obs. 2.1.6.7): no complement of size 3 exists
    exact("complement((_2,_2):(_1,_3),_12)", "_2:_6"); // oracle: _2:_6
    same_values("complement((2,2):(1,3),12)", "_2:_6");
    let (a, r) = (lay("(_2,_2):(_1,_3)"), lay("_2:_6"));
    assert_eq!(size(&a) * size(&r), 8); // < 12: not a complement, as in CuTe
    assert!(injective(&modes_of(&Layout::concat([&a, &r]).unwrap())));
    // (2,2,4):(1,6,16): oracle complement = _3:_2, left_inverse = error
    exact("complement((_2,_2,_4):(_1,_6,_16))", "_3:_2");
    let (a, r) = (lay("(_2,_2,_4):(_1,_6,_16)"), lay("_3:_2"));
    let image: std::collections::HashSet<i64> = values(&a).into_iter().collect();
    assert!(values(&r).iter().skip(1).all(|x| !image.contains(x)));
    assert!(injective(&modes_of(&Layout::concat([&a, &r]).unwrap())));
    rejects("left_inverse((_2,_2,_4):(_1,_6,_16))", ErrorKind::Inadmissible);
    rejects("left_inverse((2,2,4):(1,6,16))", ErrorKind::Inadmissible);
}

/// Non-injective layouts have no complement: CuTe static-asserts, kute errors.
#[test]
fn non_injective_complement_rejected() {
    rejects("complement((_2,_2):(_2,_3),_19)", ErrorKind::Inadmissible); // Shah: "a 0 in its shape"
    rejects("complement((_2,_2):(_1,_1))", ErrorKind::Inadmissible);
    rejects("complement((_3,_2):(_2,_3))", ErrorKind::Inadmissible); // inventory Appendix B
    rejects("complement((2,2):(2,3),19)", ErrorKind::Inadmissible);
}

// ---------------------------------------------------------------------------
// CuTe cases that must still be accepted
// ---------------------------------------------------------------------------

/// Shah: CUTLASS 3.3 was too strict here; current CuTe (oracle) and kute accept.
#[test]
fn shah_weakly_admissible_accepted() {
    exact("composition((_4,_6,_8,_10):(_2,_3,_5,_7),_6:_12)", "(_2,_3):(_9,_5)");
    same_values("composition((4,6,8,10):(2,3,5,7),6:12)", "(_2,_3):(_9,_5)");
    assert_eq!(true_composite("(4,6,8,10):(2,3,5,7)", "6:12"), values(&lay("(2,3):(9,5)")));
}

/// The last mode of A is unbounded, without divisibility (CuTe's composition tests).
#[test]
fn last_mode_extension_accepted() {
    exact("composition((_4,_3):(_3,_1),_8)", "(_4,_2):(_3,_1)");
    exact("composition((_8,_8):(_8,_1),_3:_3)", "_3:_24");
    exact("composition((_4,_6,_8):(_1,_4,_7),_6:_1)", "_6:_1");
    exact("composition((_6,_2):(_8,_2),(_4,_3):(_3,_1))", "((_2,_2),_3):((_24,_2),_8)");
}

/// Colfax's worked examples (oracle answers; CuTe gives a flat form where Colfax nests).
#[test]
fn colfax_examples_accepted() {
    exact("composition((_12,_3,_6):(_1,_72,_12),(_6,_6):(_6,_1))", "((_2,_3),_6):((_6,_72),_1)");
    exact("composition((_2,_2,_6):(_12,_6,_1),_4:_2)", "(_2,_2):(_6,_1)");
}

/// Divides whose tile does not divide A round the rest mode up (the domain grows);
/// a tile larger than A is accepted. Dynamic answers quoted from `--as-written`.
#[test]
fn padded_divides_accepted() {
    exact("logical_divide(_10:_1,_4)", "(_4,_3):(_1,_4)");
    same_values("logical_divide(10:_1,_4)", "(_4,3):(_1,_4)");
    exact("logical_divide(_96:_1,_32:_2)", "(_32,(_2,_2)):(_2,(_1,_64))");
    same_values("logical_divide(96:_1,_32:_2)", "(_32,(_2,2)):(_2,(_1,_64))");
    exact("logical_divide(_48:_1,_32:_1)", "(_32,_2):(_1,_32)");
    same_values("logical_divide(48:_1,_32:_1)", "(_32,2):(_1,_32)");
    // A tile larger than A: CuTe --as-written (_32,1):(_1,_32), all-static
    // (_32,_1):(_1,_0): the same function on the domain; kute by value = the static one.
    exact("logical_divide(_2:_1,_32:_1)", "(_32,_1):(_1,_0)");
    let dynamic = lay(&ev("logical_divide(2:_1,_32:_1)").unwrap());
    assert_eq!(values(&dynamic), values(&lay("(_32,1):(_1,_32)")));
    assert_eq!(strip(&dynamic.to_string()), "(32,1):(1,0)");
    exact("logical_divide(_32:_1,_48:_1)", "(_48,_1):(_1,_0)");
    let dynamic = lay(&ev("logical_divide(32:_1,_48:_1)").unwrap());
    assert_eq!(values(&dynamic), values(&lay("(_48,1):(_1,_48)")));
}

/// Negative strides (CuTe "beta"): composition handles them through abs/signum.
#[test]
fn negative_strides() {
    exact("composition((_1,(_2,_4)):(_0,(_-1,_512)),_4:_-1)", "(_2,_2):(_1,_-512)");
    exact("composition((_4,_4):(_-1,_1),(_2,_4,_2):(_1,_2,_8))", "(_2,(_2,_2),_2):(_-1,(_-2,_1),_2)");
    exact("upcast<2>((_4,_8):(_0,_-2))", "(_4,_8):(_0,_-1)");
    exact("right_inverse(_4:_-1)", "_1:_0");
    // CuTe's complement and left_inverse of a negative stride are nonsense
    // ((_-1,_0):(_1,_-4) and (_-1,_4):(_0,_1)); kute gives CuTe's answer or an error.
    for (src, cute) in [("complement(_4:_-1,_8)", "(_-1,_0):(_1,_-4)"), ("left_inverse(_4:_-1)", "(_-1,_4):(_0,_1)")] {
        if let Ok(s) = ev(src) {
            assert_eq!(s, cute, "{src}");
        }
    }
}

/// Expressions CuTe rejects at compile time (inventory Appendix B, §5.4), checked with
/// the oracle (`error`).
#[test]
fn cute_rejections() {
    rejects("logical_product(_4:_2,_3:_1)", ErrorKind::Inadmissible);
    rejects("logical_product(_2:_3,_8:_1)", ErrorKind::Inadmissible);
    rejects("composition(_4:_1,<_2,_2>)", ErrorKind::Mismatch);
    rejects("logical_divide(_6:_1,<_2,_3>)", ErrorKind::Mismatch);
    rejects("zipped_divide((_4,_8):(_1,_4),<_2,_>)", ErrorKind::Mismatch);
    rejects("downcast<2>((_4,_8):(_2,_4))", ErrorKind::Inadmissible);
    rejects("composition((_8,_8):(_8,_1),_4:_3)", ErrorKind::Inadmissible);
    exact("tile_to_shape((_2,_4):(_1,_2),(_6,_16))", "((_2,_3),(_4,_4)):((_1,_8),(_2,_24))");
}

/// `cosize` is `1 + Σ(s-1)|d|` (the code), not `L(size-1)+1` (CuTe's doc 01), which
/// differ for negative strides (inventory, "document drift").
#[test]
fn cosize_with_negative_strides() {
    exact("cosize((_4,_3):(_-1,_8))", "_20");
    same_values("cosize((4,_3):(_1,_8))", "20");
}

/// `upcast`/`downcast` by a factor that is not a number of elements: an error,
/// never extents of 0 or below (before, `downcast` by 0 or -1 gave such a layout,
/// and `upcast` by 0 passed when every stride was 0).
#[test]
fn cast_factors_must_be_positive() {
    let l = lay("(_4,_8):(_1,_4)");
    let z = lay("(_4,_8):(_0,_0)");
    for n in [0, -1, -8] {
        assert!(kute::downcast(&l, n).is_err(), "downcast by {n}");
        assert!(kute::upcast(&l, n).is_err(), "upcast by {n}");
        assert!(kute::upcast(&z, n).is_err(), "upcast of zero strides by {n}");
    }
    assert_eq!(kute::downcast(&l, 2).unwrap().to_string(), "(_8,_8):(_1,_8)");
    assert_eq!(kute::upcast(&z, 2).unwrap().to_string(), "(_4,_8):(_0,_0)");
}

/// An order whose largest static value is `i64::MAX`, beside a dynamic one: the
/// dynamic one ranks after it, which no `i64` can say; an error, not a panic
/// (found by `no_panic.rs`).
#[test]
fn compact_order_past_the_largest_rank() {
    let r = kute::expr::eval("compact_order((2,3),(_9223372036854775807,1))");
    assert!(r.is_err(), "{r:?}");
    // (mode 1 ranks first: stride _1; then mode 0: stride 3, the extent of mode 1)
    assert_eq!(kute::expr::eval("compact_order((2,3),(_1,_0))").unwrap().to_string(), "(3,_1)");
}

/// The register fragments of an SM120 MMA (CuTe's `sparse_elem` metadata,
/// which it prints with a stack address) are not modelled: `make_tensor` of
/// one says so, where it had said the sparse op has no metadata fragment.
#[test]
fn sm120_register_fragments_are_refused_as_such() {
    let e = kute::expr::eval(
        "make_tensor<MMA_Traits<SM120::SPARSE::SM120_SPARSE_16x8x64_TN<float_e4m3_t,float_e4m3_t,float>>::FrgTypeE>((_4,_2))",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("register fragment") && e.contains("SM120_SPARSE_16x8x64_TN"), "{e}");
    // the SM100 sparse op's metadata is in tensor memory, and is made
    let sm100 = "make_tensor<MMA_Traits<SM100_MMA_F16BF16_SS_SPARSE<half_t,half_t,float,128,64,UMMA::Major::K,UMMA::Major::K>>::FrgTypeE>(((_128,_32),_1,_1))";
    assert!(kute::expr::eval(sm100).is_ok(), "{:?}", kute::expr::eval(sm100));
}
