//! The syntax layers: literals through `FromStr` (no evaluation), calls
//! rejected there, and the scaled basis syntax.

use kute::expr::{self, ExprKind};
use kute::syntax::{self, literal};
use kute::{ErrorKind, Int, IntTuple, Layout, Tiler};

fn s(v: i64) -> IntTuple {
    IntTuple::leaf(Int::new_static(v))
}
fn d(v: i64) -> IntTuple {
    IntTuple::leaf(Int::new_dynamic(v))
}
fn tup(items: &[IntTuple]) -> IntTuple {
    IntTuple::tuple(items.iter().map(|t| t.as_ref()))
}

#[test]
fn int_tuple_literals() {
    let cases: Vec<(&str, IntTuple)> = vec![
        ("8", d(8)),
        ("_8", s(8)),
        ("Int<8>{}", s(8)),
        ("Int< -3 >{}", s(-3)),
        ("_8{}", s(8)),
        ("-3", d(-3)),
        ("_-1", s(-1)),
        ("()", tup(&[])),
        ("(8)", tup(&[d(8)])),
        (" ( 2 , _3 ) ", tup(&[d(2), s(3)])),
        ("(2,(_3,Int<4>{}),((5)))", tup(&[d(2), tup(&[s(3), s(4)]), tup(&[tup(&[d(5)])])])),
    ];
    for (src, want) in cases {
        let got: IntTuple = src.parse().unwrap_or_else(|e| panic!("{src}: {e}"));
        assert_eq!(got, want, "{src}");
        // static marks are part of equality only through the flag: check it leaf by leaf
        let flags: Vec<bool> = got.leaves().iter().map(|x| x.is_static()).collect();
        let want_flags: Vec<bool> = want.leaves().iter().map(|x| x.is_static()).collect();
        assert_eq!(flags, want_flags, "{src}");
    }
}

#[test]
fn layout_literals() {
    let sd = |a: IntTuple, b: IntTuple| Layout::new(&a, &b).unwrap();
    let cases: Vec<(&str, Layout)> = vec![
        ("8:2", sd(d(8), d(2))),
        ("_8:_1", sd(s(8), s(1))),
        ("(2,(2,2)):(4,(2,1))", sd(tup(&[d(2), tup(&[d(2), d(2)])]), tup(&[d(4), tup(&[d(2), d(1)])]))),
        ("(Int<2>{},4):(_12,_1)", sd(tup(&[s(2), d(4)]), tup(&[s(12), s(1)]))),
        // a bare shape: compact column-major strides, the first static 1
        ("(_2,4)", sd(tup(&[s(2), d(4)]), tup(&[s(1), s(2)]))),
        ("(2,(3,4))", sd(tup(&[d(2), tup(&[d(3), d(4)])]), tup(&[s(1), tup(&[d(2), d(6)])]))),
        ("8", sd(d(8), s(1))),
    ];
    for (src, want) in cases {
        let got: Layout = src.parse().unwrap_or_else(|e| panic!("{src}: {e}"));
        assert_eq!(got, want, "{src}");
        assert_eq!(got.to_string(), want.to_string(), "{src}");
    }
}

#[test]
fn calls_are_not_literals() {
    // (text, span of the call)
    for (src, span) in [("size((2,3))", (0, 11)), ("(2,size(3))", (3, 10)), ("make_layout(4)", (0, 14))] {
        let e = src.parse::<IntTuple>().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Parse, "{src}: {e}");
        assert_eq!(e.span(), Some(span), "{src}: {e}");
        assert!(e.to_string().contains("a literal cannot contain the call"), "{src}: {e}");
        let e = src.parse::<Layout>().unwrap_err();
        assert_eq!((e.kind(), e.span()), (ErrorKind::Parse, Some(span)), "{src}: {e}");
        let e = src.parse::<Tiler>().unwrap_err();
        assert_eq!((e.kind(), e.span()), (ErrorKind::Parse, Some(span)), "{src}: {e}");
    }
    assert_eq!(
        "size((2,3))".parse::<IntTuple>().unwrap_err().to_string(),
        "parse: a literal cannot contain the call 'size'"
    );
    // the evaluator still evaluates the same text
    assert_eq!(expr::eval("size((2,3))").unwrap().to_string(), "6");
    assert_eq!(expr::parse_int_tuple("size((2,3))").unwrap(), d(6));
    let kind = |r: Result<(), kute::Error>| r.unwrap_err().kind();
    for src in ["(2,3):(1,2)(1)", "A", "(4,LayoutLeft{})", "(2,3):size(4)"] {
        assert_eq!(kind(src.parse::<Layout>().map(drop)), ErrorKind::Parse, "{src}");
        assert_eq!(kind(src.parse::<Tiler>().map(drop)), ErrorKind::Parse, "{src}");
    }
    // a tiler is the wrong kind of literal for a layout before its call is looked at
    let src = "<_4:_1,logical_divide(4:1,2)>";
    assert_eq!(kind(src.parse::<Tiler>().map(drop)), ErrorKind::Parse, "{src}");
    assert_eq!(kind(src.parse::<Layout>().map(drop)), ErrorKind::Type, "{src}");
    assert!("(2,3".parse::<Layout>().is_err());
    assert!("(2,3) x".parse::<IntTuple>().is_err());
}

#[test]
fn literals_of_the_wrong_kind() {
    let e = "(2,_)".parse::<IntTuple>().unwrap_err();
    assert_eq!((e.kind(), e.span()), (ErrorKind::Type, Some((3, 4))), "{e}");
    let e = "<2,3>".parse::<Layout>().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type, "{e}");
    let e = "(2,3):(1,2)".parse::<IntTuple>().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type, "{e}");
    let e = "(2,3):(1,<2>)".parse::<Layout>().unwrap_err();
    assert_eq!((e.kind(), e.span()), (ErrorKind::Type, Some((9, 12))), "{e}");
    // a stride that is not congruent: the layout's own error, pointing at the layout
    let e = "(2,3):(1,2,3)".parse::<Layout>().unwrap_err();
    assert_eq!((e.kind(), e.span()), (ErrorKind::Mismatch, Some((0, 13))), "{e}");
}

#[test]
fn tiler_literals_agree_with_the_evaluator() {
    let forms = [
        "4:2",
        "(_4,_8):(_1,_4)",
        "(2,3)",
        "((2,3),_4)",
        "()",
        "(5)",
        "8",
        "_8",
        "Int<8>{}",
        "_",
        "<_4:_1,_>",
        "<2,<3,_>>",
        "<(2,2),4:2>",
        "<<<_2>>,_>",
        "(2:1,_)",
        "(_,3)",
        "(<2,3>,4:1)",
        "<Int<4>{},(2,_),((3,4):(1,3),_)>",
    ];
    for src in forms {
        let lit: Tiler = src.parse().unwrap_or_else(|e| panic!("{src}: {e}"));
        let ev = expr::parse_tiler(src).unwrap_or_else(|e| panic!("{src}: {e}"));
        assert_eq!(lit, ev, "{src}");
    }
    // and against tilers built by hand
    let i = |v| Tiler::Int(Int::new_dynamic(v));
    assert_eq!("(2,3)".parse::<Tiler>().unwrap(), Tiler::Tuple(vec![i(2), i(3)]));
    assert_eq!("<2,_>".parse::<Tiler>().unwrap(), Tiler::Tuple(vec![i(2), Tiler::Underscore]));
    assert_eq!("_".parse::<Tiler>().unwrap(), Tiler::Underscore);
    assert_eq!("4:2".parse::<Tiler>().unwrap(), Tiler::Layout("4:2".parse().unwrap()));
    assert_eq!(
        "<(2,<3>)>".parse::<Tiler>().unwrap(),
        Tiler::Tuple(vec![Tiler::Tuple(vec![i(2), Tiler::Tuple(vec![i(3)])])])
    );
    assert_eq!("<>".parse::<Tiler>().unwrap_err().kind(), ErrorKind::Parse);
}

fn kind(src: &str) -> ExprKind {
    syntax::parse(src).unwrap_or_else(|e| panic!("{src}: {e}")).kind
}

fn basis(value: i64, is_static: bool, path: &[u32]) -> ExprKind {
    ExprKind::Basis { value, is_static, path: path.to_vec() }
}

#[test]
fn scaled_basis_syntax() {
    assert_eq!(kind("_3@1"), basis(3, true, &[1]));
    assert_eq!(kind("3@1"), basis(3, false, &[1]));
    assert_eq!(kind("_2@0@1"), basis(2, true, &[0, 1]));
    assert_eq!(kind("-1@0"), basis(-1, false, &[0]));
    assert_eq!(kind("_-1@12"), basis(-1, true, &[12]));
    assert_eq!(syntax::parse(" _2@0@1 ").unwrap().span, (1, 7));
    // as strides of a layout
    let ExprKind::Layout(_, stride) = kind("(4,2):(_1@0,_1@1)") else { panic!("not a layout") };
    let ExprKind::Tuple(items) = stride.kind else { panic!("not a tuple") };
    assert_eq!(items.iter().map(|x| x.kind.clone()).collect::<Vec<_>>(), [basis(1, true, &[0]), basis(1, true, &[1])]);
    assert_eq!(items[1].span, (12, 16));
    // E<...>{}: a value-initialised type, a call without arguments
    let call = |targs: &[i64]| ExprKind::Call {
        name: "E".into(),
        targs: targs.iter().map(|&t| kute::syntax::TemplateArg::Int(t)).collect(),
        args: vec![],
    };
    assert_eq!(kind("E<>{}"), call(&[]));
    assert_eq!(kind("E<1,0>{}"), call(&[1, 0]));
    assert_eq!(kind("E<0>{}"), call(&[0]));
    assert_eq!(syntax::parse("(E<1,0>{},2)").unwrap().span, (0, 12));
    // malformed
    for bad in ["3@", "3@x", "_3@1x", "3 @1", "3@-1", "3@99999999999", "E<1>{", "{}", "E<>"] {
        let e = syntax::parse(bad).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Parse, "{bad}: {e}");
    }
}

#[test]
fn scaled_bases_are_values() {
    // CuTe's printed answers (the vector file basis.tsv)
    for (src, want) in [
        ("_3@1", "_3@1"),
        ("_2@0@1", "_2@0@1"),
        ("-1@0", "-1@0"),
        ("E<>{}", "_1"),
        ("E<1,0>{}", "_1@0@1"),
        ("E<2,0,1>{}", "_1@1@0@2"),
        ("(4,2):(_1@0,_1@1)", "(4,2):(_1@0,_1@1)"),
        ("(4,2):(E<0>{},E<1>{})", "(4,2):(_1@0,_1@1)"),
    ] {
        assert_eq!(expr::eval(src).unwrap().to_string(), want, "{src}");
    }
    // literals: a layout's stride may hold basis elements, a tiler's may not
    for src in ["(4,2):(_1@0,_1@1)", "(4,2):(E<0>{},E<1>{})"] {
        assert_eq!(src.parse::<Layout>().unwrap().to_string(), "(4,2):(_1@0,_1@1)", "{src}");
    }
    let e = "(4,_1@0)".parse::<Layout>().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type, "{e}");
    assert!(e.message().contains("basis stride"), "{e}");
    assert!("E<-1>{}".parse::<Layout>().is_err());
    assert!(expr::eval("E<-1>{}").is_err());
    assert!(literal::tiler(&syntax::parse("<_1@0>").unwrap()).is_err());
}

#[test]
fn the_old_paths_still_parse() {
    // `kute::expr::parse` is the syntax layer's parser
    assert_eq!(expr::parse("take<1,3>(L)").unwrap(), syntax::parse("take<1,3>(L)").unwrap());
    assert_eq!(expr::split_binding("A = 4:1"), Some(("A", " 4:1")));
}

#[test]
fn template_arguments_may_be_types() {
    use kute::syntax::TemplateArg;
    let ExprKind::Call { name, targs, args } = kind("recast_layout<uint8_t,_2>(4:1)") else { panic!("not a call") };
    assert_eq!((name.as_str(), args.len()), ("recast_layout", 1));
    assert_eq!(targs, [TemplateArg::Type("uint8_t".into()), TemplateArg::Int(2)]);
    assert_eq!(targs.iter().map(|t| t.to_string()).collect::<Vec<_>>(), ["uint8_t", "2"]);
    // a basis index must be an integer
    let e = kute::expr::eval("E<x>{}").unwrap_err();
    assert_eq!((e.kind(), e.to_string().as_str()), (ErrorKind::Type, "E: basis index x is not an integer"));
    for bad in ["f<(2)>(1)", "f<uint8_t(1)", "f<uint8_t>"] {
        assert_eq!(syntax::parse(bad).unwrap_err().kind(), ErrorKind::Parse, "{bad}");
    }
}

/// The Levenshtein distance by its full table, the textbook recurrence (the
/// model the library's banded table is checked against).
fn levenshtein(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut t = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in t.iter_mut().enumerate() {
        row[0] = i;
    }
    t[0] = (0..=b.len()).collect();
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let sub = t[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]);
            t[i][j] = sub.min(t[i - 1][j] + 1).min(t[i][j - 1] + 1);
        }
    }
    t[a.len()][b.len()]
}

/// `edit_distance` and `edit_distance_within` against the full table, and
/// `expr::nearest` (which stops early on its candidates) against a plain
/// search for the first nearest candidate: random texts over a small
/// alphabet with a two-byte letter, every limit up to 12.
#[test]
fn bounded_edit_distance_and_nearest_agree_with_the_full_table() {
    use proptest::prelude::*;
    let text = || proptest::collection::vec(proptest::sample::select(vec!['a', 'b', 'c', 'é', '_']), 0..14);
    proptest!(ProptestConfig::with_cases(2000), |(a in text(), b in text(), limit in 0usize..13)| {
        let (a, b): (String, String) = (a.into_iter().collect(), b.into_iter().collect());
        let d = levenshtein(&a, &b);
        prop_assert_eq!(syntax::edit_distance(&a, &b), d, "{:?} {:?}", a, b);
        let within = syntax::edit_distance_within(&a, &b, limit);
        prop_assert_eq!(within, (d <= limit).then_some(d), "{:?} {:?} limit {}", a, b, limit);
    });
    proptest!(ProptestConfig::with_cases(500), |(word in text(), cands in proptest::collection::vec(text(), 0..12))| {
        let word: String = word.into_iter().collect();
        let cands: Vec<String> = cands.into_iter().map(|c| c.into_iter().collect()).collect();
        let limit = if word.chars().count() <= 4 { 1 } else { 2 };
        let mut want: Option<(usize, &str)> = None;
        for c in &cands {
            let d = levenshtein(&word, c);
            if d <= limit && want.is_none_or(|(best, _)| d < best) {
                want = Some((d, c.as_str()));
            }
        }
        let got = expr::nearest(&word, cands.iter().map(String::as_str));
        prop_assert_eq!(got, want.map(|(_, c)| c), "{:?} in {:?}", word, cands);
    });
}

/// CuTe's C++ spellings of values as types, nested as CuTe nests them; the
/// answers are CuTe's (its own headers, evaluating the same text).
#[test]
fn cute_type_spellings_are_values() {
    for (src, cute) in [
        ("Shape<_2,_4>{}", "(_2,_4)"),
        ("Layout<Shape<_2,_4>,Stride<_4,_1>>{}", "(_2,_4):(_4,_1)"),
        ("Layout<Shape<_2,_2,_1>>{}", "(_2,_2,_1):(_1,_2,_0)"),
        ("C<4>{}", "_4"),
        ("Step<_1,X,_1>{}", "(_1,_,_1)"),
        ("Layout<Shape<_2,Shape<_3,_4>>,Stride<_12,Stride<_4,_1>>>{}", "(_2,(_3,_4)):(_12,(_4,_1))"),
        ("Tile<_2,_4>{}", "(_2,_4)"),
        ("cosize(make_identity_layout((_2,_16,_8)))", "_256"),
        ("make_layout_tv((_32,_4):(_1,_32),(_1,_8):(_1,_1))", "((_32,_32),((_32,_4),_8):((_1,_256),_32))"),
        ("size(make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}))", "_128"),
    ] {
        assert_eq!(kute::expr::eval(src).unwrap_or_else(|e| panic!("{src}: {e}")).to_string(), cute, "{src}");
    }
    // a shape where CuTe wants a layout is its compact layout, as CuTe DSL takes it
    let by_shape = kute::expr::eval("make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, (_2,_2,_1))").unwrap();
    let by_layout = kute::expr::eval("make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, (_2,_2,_1):(_1,_2,_0))").unwrap();
    assert_eq!(by_shape.to_string(), by_layout.to_string());
    // misspelt and malformed types are errors
    for bad in ["Shape<_2,Bogus<_1>>{}", "C<Shape<_2>>{}", "Layout<_1,_2,_3>{}", "Int<x>{}"] {
        assert!(kute::expr::eval(bad).is_err(), "{bad}");
    }
}

/// A misspelt operation or name gets the nearest known one in its error.
#[test]
fn unknown_names_suggest_the_nearest_operation_or_name() {
    let e = kute::expr::eval("make_tiled_mma(SM80_16x8x16_F16F16F16F16_TM{})").unwrap_err();
    assert!(e.to_string().contains("did you mean 'SM80_16x8x16_F16F16F16F16_TN'?"), "{e}");
    let e = kute::expr::eval("make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_M,half_t>{}, x)").unwrap_err();
    assert_eq!(e.kind(), kute::ErrorKind::UnknownName, "{e}");
    let mut env = kute::expr::Env::new();
    kute::expr::eval_line(&mut env, "tileA = (4,4):(1,4)").unwrap();
    let e = kute::expr::eval_line(&mut env, "size(tileB)").unwrap_err();
    assert!(e.to_string().contains("did you mean 'tileA'?"), "{e}");
    // a short name is near too many to guess
    let e = kute::expr::eval("logical_divide(Q, 4:2)").unwrap_err();
    assert!(!e.to_string().contains("did you mean"), "{e}");
}

/// `local_tile(T, tiler, coord, proj)`: CuTe's `local_tile(T, dice(proj,
/// tiler), dice(proj, coord))`, the modes where `proj` has `X` left out. The
/// values are CuTe's (its static marks aside: the oracle evaluates all-static).
#[test]
fn local_tile_takes_a_projection() {
    let eval = |s: &str| kute::expr::eval(s).unwrap_or_else(|e| panic!("{s}: {e}")).to_string().replace('_', "");
    for (src, cute) in [
        (
            "local_tile(make_identity_tensor((_8,_16)), Shape<_4,_4,_8>{}, (1,2,1), Step<_1,X,_1>{})",
            "ArithTuple(4,8) o (4,8):(1@0,1@1)",
        ),
        (
            "local_tile(make_identity_tensor((_8,_16)), Shape<_4,_4,_8>{}, (1,0,1), Step<X,_1,_1>{})",
            "ArithTuple(0,8) o (4,8):(1@0,1@1)",
        ),
    ] {
        assert_eq!(eval(src), cute, "{src}");
    }
    // the same as the diced call
    assert_eq!(
        eval("local_tile(make_identity_tensor((_8,_16)), Shape<_4,_4,_8>{}, (1,2,1), Step<_1,X,_1>{})"),
        eval("local_tile(make_identity_tensor((_8,_16)), (_4,_8), (1,1))")
    );
    // a projection of another rank than the tiler's is an error naming the argument
    let e =
        kute::expr::eval("local_tile(make_identity_tensor((_8,_16)), (_4,_8), (1,1), Step<_1,X,_1>{})").unwrap_err();
    assert!(e.to_string().contains("argument 2 (the tiler)"), "{e}");
}
