//! `explain`: every intermediate layout it prints is what the library computes
//! from that step's inputs (recomputed here, step by step), the printed text
//! shows each of them, and the last step is the operation's own answer.

use kute::explain::{explain, Step};

fn check(src: &str) {
    let e = explain(src).unwrap_or_else(|err| panic!("{src}: {err}"));
    assert!(!e.steps.is_empty(), "{src}: no steps");
    for step in &e.steps {
        let (out, want) = match step {
            Step::Coalesce { a, out } => (out, kute::coalesce(a).unwrap()),
            Step::Complement { b, m, out } => (out, kute::complement(b, *m).unwrap()),
            Step::Composition { a, b, out } => (out, kute::composition(a, b).unwrap()),
            Step::Concat { parts, out } => (out, kute::Layout::concat(parts).unwrap()),
            Step::Result { expr, out } => (out, kute::expr::eval(expr).unwrap().as_layout().unwrap().clone()),
            other => panic!("a step kind this test does not know: {other:?}"),
        };
        assert_eq!(out, &want, "{src}: step {step:?}");
        assert!(e.text.contains(&out.to_string()), "{src}: the text does not show {out}");
    }
    assert!(matches!(e.steps.last(), Some(Step::Result { .. })), "{src}: the answer comes last");
}

#[test]
fn every_step_is_what_the_library_computes() {
    for src in [
        "logical_divide(24:2, 4:2)",
        "logical_divide((4,2,3):(2,1,8), 4:2)",
        "zipped_divide((8,8):(8,1), <2,4>)",
        "tiled_divide((_12,_32):(_32,_1), <_3,_8>)",
        "flat_divide((8,8):(1,8), 4:1)",
        "composition(20:2, (4,5):(1,4))",
        "composition((20,2):(16,4), (4,5):(1,4))",
        "composition((_12,(_4,_8)):(_59,(_13,_1)), <_3:_4,_8:_2>)",
        "complement((2,2):(1,6), 24)",
        "complement(4:2)",
        "coalesce((2,(1,6)):(1,(6,2)))",
        "logical_product((2,2):(1,2), (3,4):(1,3))",
        "logical_product((2,2):(4,1), 6:1)",
        "blocked_product((_2,_2):(_1,_2), (_3,_4):(_4,_1))",
        "raked_product((2,2):(1,2), (3,4):(1,3))",
    ] {
        check(src);
    }
}

#[test]
fn an_inadmissible_step_is_shown_with_its_condition() {
    let e = explain("composition((6,4):(1,7), 4:4)").unwrap();
    assert!(e.text.contains("(6,4):(1,7) ∘ 4:4 fails: "), "{}", e.text);
    assert!(!e.steps.iter().any(|s| matches!(s, Step::Result { .. })));
    assert!(explain("size(4:1)").is_err());
    assert!(explain("4:1").is_err());
}
