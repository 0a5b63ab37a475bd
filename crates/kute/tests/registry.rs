//! The function registry: every listed function is callable, every callable
//! name is listed, and count errors come from the entries.

use kute::expr::{self, call, lookup, Count, Value, FUNCTIONS};
use kute::ErrorKind;
use std::collections::BTreeSet;

/// Every name the evaluator answered to before the registry (its old `match`),
/// written out independently of the registry.
const CALLABLE: &[&str] = &[
    "make_shape",
    "make_stride",
    "make_coord",
    "make_tuple",
    "make_step",
    "make_tile",
    "make_layout",
    "make_identity_layout",
    "make_basis_like",
    "E",
    "make_ordered_layout",
    "shape",
    "stride",
    "size",
    "cosize",
    "rank",
    "depth",
    "get",
    "layout",
    "select",
    "take",
    "group",
    "append",
    "prepend",
    "replace",
    "flatten",
    "unflatten",
    "zip",
    "tile_unzip",
    "product",
    "product_each",
    "inner_product",
    "congruent",
    "weakly_congruent",
    "compatible",
    "weakly_compatible",
    "shape_div",
    "elem_scale",
    "ceil_div",
    "prefix_product",
    "idx2crd",
    "crd2idx",
    "crd2crd",
    "compact_col_major",
    "compact_row_major",
    "compact_major",
    "compact_order",
    "coalesce",
    "filter_zeros",
    "filter",
    "composition",
    "complement",
    "right_inverse",
    "left_inverse",
    "nullspace",
    "logical_divide",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
    "logical_product",
    "zipped_product",
    "tiled_product",
    "flat_product",
    "blocked_product",
    "raked_product",
    "max_common_layout",
    "max_common_vector",
    "tile_to_shape",
    "upcast",
    "downcast",
    "slice",
    "dice",
    "slice_and_offset",
    "front",
    "back",
    "unwrap",
    "wrap",
    "tuple_cat",
    "insert",
    "remove",
    "repeat_like",
    "repeat",
    "elem_less",
    "lex_less",
    "colex_less",
    "coshape",
    "coprofile",
    "make_layout_like",
    "make_fragment_like",
    "evenly_divides",
    "max_alignment",
    "domain_offset",
    "zip2_by",
    "increment",
    "domain_distribute",
    "greatest_common_domain",
    "layout_add",
    "transform_layout",
    "recast_layout",
    "get_hier_coord",
    "get_flat_coord",
    "get_1d_coord",
    "common_refinement",
    "common_coarsening",
    "bw_coalesce",
    "coalesce_z",
    "Swizzle",
    "Sw",
    "make_composed_layout",
    "get_swizzle_portion",
    "get_nonswizzle_portion",
    "make_tiled_mma",
    "make_tiled_copy",
    "make_tiled_copy_A",
    "make_tiled_copy_B",
    "make_tiled_copy_C",
    "make_tiled_copy_C_atom",
    "make_tiled_copy_S",
    "make_tiled_copy_D",
    "get_layoutA_TV",
    "get_layoutB_TV",
    "get_layoutC_TV",
    "get_thr_layout_vmnk",
    "thrfrg_A",
    "thrfrg_B",
    "thrfrg_C",
    "partition_shape_A",
    "partition_shape_B",
    "partition_shape_C",
    "permutation_mnk",
    "tile_shape",
    "thr_size",
    "tile_size",
    "get_layoutS_TV",
    "get_layoutD_TV",
    "tidfrg_S",
    "tidfrg_D",
    "Tiler_MN",
    "TiledLayout_TV",
    "make_layout_tv",
    "get_slice",
    "partition_A",
    "partition_B",
    "partition_C",
    "partition_S",
    "partition_D",
    "partition_fragment_A",
    "partition_fragment_B",
    "partition_fragment_C",
    "make_tensor",
    "counting",
    "make_identity_tensor",
    "local_tile",
    "local_partition",
    "inner_partition",
    "outer_partition",
    "print_tensor",
];

fn all_names() -> Vec<&'static str> {
    FUNCTIONS.iter().flat_map(|f| f.names()).collect()
}

#[test]
fn the_registry_holds_exactly_the_callable_names() {
    let names = all_names();
    let set: BTreeSet<&str> = names.iter().copied().collect();
    assert_eq!(set.len(), names.len(), "a name is registered twice");
    assert_eq!(set, CALLABLE.iter().copied().collect::<BTreeSet<_>>());
}

#[test]
fn every_registered_name_is_callable() {
    let arg = || expr::eval("(2,3):(1,2)").unwrap();
    for f in FUNCTIONS {
        for name in f.names() {
            assert!(std::ptr::eq(lookup(name).unwrap(), f), "{name}");
            // a count the entry refuses: the count error, never "unknown function"
            let (targs, args, want) = if f.targs.max != usize::MAX {
                let k = f.targs.max + 1;
                let want =
                    format!("evaluate: {name} takes {} to {} template argument(s), got {k}", f.targs.min, f.targs.max);
                (vec![0; k], vec![arg()], want)
            } else {
                let c = f.arg_count(f.targs.min);
                assert_ne!(c.max, usize::MAX, "{name} accepts any count of everything");
                let k = c.max + 1;
                let want = if c.min == c.max {
                    format!("evaluate: {name} takes {} argument(s), got {k}", c.min)
                } else {
                    format!("evaluate: {name} takes {} to {} argument(s), got {k}", c.min, c.max)
                };
                (vec![0; f.targs.min], vec![arg(); k], want)
            };
            let e = call(name, &targs, &args).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::UnknownName, "{name}: {e}");
            assert_eq!(e.to_string(), want);
            // and through the text of an expression, the same error
            let targ_text =
                if targs.is_empty() { String::new() } else { format!("<{}>", vec!["0"; targs.len()].join(",")) };
            let src = format!("{name}{targ_text}({})", vec!["(2,3):(1,2)"; args.len()].join(","));
            assert_eq!(expr::eval(&src).unwrap_err().to_string(), want, "{src}");
        }
    }
    let e = call("frobnicate", &[], &[]).unwrap_err();
    assert_eq!((e.kind(), e.to_string().as_str()), (ErrorKind::UnknownName, "evaluate: unknown function 'frobnicate'"));
}

#[test]
fn every_registered_name_answers_a_call() {
    // one call each that CuTe answers (values from CuTe's documentation and semantics)
    let cases: &[(&str, &str)] = &[
        ("make_shape(2,_3)", "(2,_3)"),
        ("make_stride(2,_3)", "(2,_3)"),
        ("make_coord(2,_3)", "(2,_3)"),
        ("make_tuple(2,_3)", "(2,_3)"),
        ("make_step(2,_3)", "(2,_3)"),
        ("compact_major((2,3))", "(_1,2)"),
        ("compact_col_major((2,3))", "(_1,2)"),
        ("compact_row_major((2,3))", "(3,_1)"),
        ("make_layout((_2,4),LayoutRight{})", "(_2,4):(4,_1)"),
        ("append<3>((2,3))", "(2,3,_1)"),
        ("take<1,3>((_2,_3,_5,_7):(_1,_2,_6,_30))", "(_3,_5):(_2,_6)"),
        // element types as template arguments, and a function name as an argument
        ("recast_layout<uint8_t,uint32_t>((_4,_8):(_1,_4))", "(_1,_8):(_1,_1)"),
        ("transform_layout((_2,(_1,_6)):(_1,(_6,_2)),coalesce)", "(_2,_6):(_1,_2)"),
    ];
    for (src, want) in cases {
        assert_eq!(expr::eval(src).unwrap().to_string(), *want, "{src}");
    }
}

#[test]
fn count_errors_are_unchanged() {
    // messages of the evaluator before the registry, byte for byte
    let cases: &[(&str, &str)] = &[
        ("append((2,3))", "evaluate: append takes 2 argument(s), got 1"),
        ("append((2,3),4,5)", "evaluate: append takes 2 argument(s), got 3"),
        ("append<2>((2,3),4,5)", "evaluate: append takes 1 to 2 argument(s), got 3"),
        ("append<1,2>((2,3))", "evaluate: append takes 0 to 1 template argument(s), got 2"),
        ("make_layout((2,3),(1,2),(3,4))", "evaluate: make_layout takes 1 to 2 argument(s), got 3"),
        ("make_layout<1>(2)", "evaluate: make_layout takes 0 to 0 template argument(s), got 1"),
        ("take<1>((2,3,4))", "evaluate: take takes two template arguments <B,E>"),
        ("group<0,1,2>((2,3,4))", "evaluate: group takes two template arguments <B,E>"),
        ("upcast(4:1)", "evaluate: upcast takes 1 to 1 template argument(s), got 0"),
        ("size(1,2)", "evaluate: size takes 1 argument(s), got 2"),
        ("make_stride<1>(2)", "evaluate: make_stride takes 0 to 0 template argument(s), got 1"),
        ("nosuch(2)", "evaluate: unknown function 'nosuch'"),
    ];
    for (src, want) in cases {
        let e = expr::eval(src).unwrap_err();
        assert_eq!(e.to_string(), *want, "{src}");
        assert_eq!(e.kind(), ErrorKind::UnknownName, "{src}");
    }
}

#[test]
fn template_arguments_are_integers_or_element_types_as_the_entry_says() {
    let cases: &[(&str, ErrorKind, &str)] = &[
        (
            "recast_layout<uint8_t>(4:1)",
            ErrorKind::UnknownName,
            "evaluate: recast_layout takes 2 to 2 template argument(s), got 1",
        ),
        (
            "recast_layout<frob_t,uint8_t>(4:1)",
            ErrorKind::UnknownName,
            "evaluate: unknown element type 'frob_t' in recast_layout<...>",
        ),
        (
            "recast_layout<8,32>(4:1)",
            ErrorKind::Type,
            "evaluate: recast_layout takes element types as template arguments (uint8_t, half_t, ...), not the integer 8",
        ),
        ("take<int,2>((2,3))", ErrorKind::Type, "evaluate: take takes integers as template arguments, not the type int"),
        ("transform_layout(4:1)", ErrorKind::UnknownName, "evaluate: transform_layout takes 2 to 3 argument(s), got 1"),
    ];
    for (src, kind, want) in cases {
        let e = expr::eval(src).unwrap_err();
        assert_eq!((e.kind(), e.to_string().as_str()), (*kind, *want), "{src}");
    }
    // the library call takes the types' widths in bits
    let l = expr::eval("(_4,_8):(_1,_4)").unwrap();
    assert_eq!(call("recast_layout", &[8, 32], &[l]).unwrap().to_string(), "(_1,_8):(_1,_1)");
    assert!(lookup("recast_layout").unwrap().type_targs && !lookup("take").unwrap().type_targs);
}

#[test]
fn counts() {
    assert!(Count::ANY.accepts(0) && Count::ANY.accepts(usize::MAX));
    assert!(!Count::between(1, 2).accepts(0));
    let append = lookup("append").unwrap();
    assert_eq!((append.arg_count(0), append.arg_count(1)), (Count::exactly(2), Count::between(1, 2)));
    assert_eq!(lookup("size").unwrap().arg_count(0), Count::exactly(1));
    // a value the registry's call produces is the evaluator's
    let v: Value = call("make_tile", &[], &[expr::eval("2").unwrap(), expr::eval("_").unwrap()]).unwrap();
    assert_eq!(v, expr::eval("<2,_>").unwrap());
}

/// A bound name applies like a layout (`A(1,3)`, `A(5)`, `A(_,1)`), and an
/// unknown function's error suggests the nearest registered name.
#[test]
fn bound_names_apply_and_misspellings_get_a_hint() {
    let mut env = expr::Env::new();
    expr::bind(&mut env, "A", expr::eval("(4,6):(6,1)").unwrap()).unwrap();
    let at = |s: &str| expr::eval_in(s, &env).map(|v| v.to_string());
    // (1,3) -> 1*6 + 3*1; 5 -> (1,1) -> 7; the column 1 slice
    assert_eq!(at("A(1,3)").unwrap(), "9");
    assert_eq!(at("A(5)").unwrap(), "7");
    assert_eq!(at("A(_,1)").unwrap(), "(4):(6)");
    // a registered function keeps its meaning even when a binding shares its name
    expr::bind(&mut env, "size", expr::eval("2:1").unwrap()).unwrap();
    assert_eq!(expr::eval_in("size(A)", &env).unwrap().to_string(), "24");
    let e = expr::eval("sise((2,3))").unwrap_err().to_string();
    assert!(e.contains("did you mean 'size'?"), "{e}");
    let e = expr::eval("logical_devide(8:1,2)").unwrap_err().to_string();
    assert!(e.contains("did you mean 'logical_divide'?"), "{e}");
    let e = expr::eval("zzzzzz(1)").unwrap_err().to_string();
    assert!(!e.contains("did you mean"), "{e}");
}

/// An error names the operation called, with the inner step that failed as
/// context.
#[test]
fn errors_name_the_operation_called() {
    let e = expr::eval("logical_divide((4,2):(1,8),2:-5)").unwrap_err();
    assert_eq!(e.op(), "logical_divide");
    assert!(e.message().starts_with("complement: "), "{e}");
    let e =
        kute::logical_product(&"4:3".parse().unwrap(), &"(2,2):(1,2)".parse::<kute::Layout>().unwrap()).unwrap_err();
    assert_eq!(e.op(), "logical_product");
    assert!(e.message().starts_with("composition: "), "{e}");
}

/// A multi-dimensional coordinate outside the shape is an error; a 1-D
/// coordinate past the size extends the last mode, as in CuTe.
#[test]
fn coordinates_out_of_range() {
    let at = |s: &str| expr::eval(s).map(|v| v.to_string()).map_err(|e| e.kind());
    assert_eq!(at("(4,6):(6,1)(9,0)"), Err(ErrorKind::Mismatch));
    assert_eq!(at("(4,6):(6,1)(0,-1)"), Err(ErrorKind::Mismatch));
    assert_eq!(at("(4,(2,3)):(1,(4,8))(1,6)"), Err(ErrorKind::Mismatch));
    // in range: 1 + 5 -> (1,2) in (2,3) -> 1 + 4 + 16
    assert_eq!(at("(4,(2,3)):(1,(4,8))(1,5)"), Ok("21".to_string()));
    // 30 = (2, 7): the last mode extends, 2*6 + 7
    assert_eq!(at("(4,6):(6,1)(30)"), Ok("19".to_string()));
}

/// Whether `e` is the error of a call CuTe has no overload for.
fn no_overload(e: &kute::Error) -> bool {
    e.kind() == ErrorKind::Type && e.to_string().contains("(CuTe has no such overload)")
}

/// The calls of `f` with `sample` among its arguments: at each position the
/// entry's least argument count allows (at least one), the other arguments
/// a plain layout, template arguments `1` (or 16-bit elements).
fn calls_with(f: &kute::expr::FunctionInfo, sample: &Value) -> Vec<kute::Result<Value>> {
    let targs: Vec<i64> = vec![if f.type_targs { 16 } else { 1 }; f.targs.min];
    let c = f.arg_count(targs.len());
    let n = c.min.max(1).min(c.max);
    let plain = expr::eval("(_4,_8):(_1,_4)").unwrap();
    (0..n)
        .map(|k| {
            let args: Vec<Value> = (0..n).map(|i| if i == k { sample.clone() } else { plain.clone() }).collect();
            call(f.name, &targs, &args)
        })
        .collect()
}

/// The registry alone decides the overloads: every function reaches its own
/// treatment of each kind of value it says it takes (at least one call form
/// is not refused for the kind), and every call with a kind it does not
/// take is a `Type` error naming the function.
#[test]
fn every_function_takes_the_kinds_it_claims_and_refuses_the_others() {
    use kute::expr::Kind;
    let samples: [(Kind, &[&str]); 3] = [
        (Kind::Composed, &["Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", "Sw<3,4,3>"]),
        (Kind::Tensor, &["make_identity_tensor((_4,_8))", "make_tensor(counting, (_4,_8):(_1,_4))"]),
        (
            Kind::Atom,
            &[
                "make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{})",
                "get_slice(make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}), 0)",
            ],
        ),
    ];
    let (mut claimed, mut refused) = (0, 0);
    for f in FUNCTIONS {
        if f.arg_count(f.targs.min).max == 0 {
            continue;
        }
        for (kind, sources) in &samples {
            let results: Vec<kute::Result<Value>> =
                sources.iter().flat_map(|s| calls_with(f, &expr::eval(s).unwrap())).collect();
            if f.takes(*kind) {
                claimed += 1;
                assert!(
                    results.iter().any(|r| r.as_ref().map_or_else(|e| !no_overload(e), |_| true)),
                    "{} says it takes {kind:?} but refuses every call: {:?}",
                    f.name,
                    results.iter().filter_map(|r| r.as_ref().err().map(|e| e.to_string())).collect::<Vec<_>>()
                );
            } else {
                refused += 1;
                for r in &results {
                    let e = r.as_ref().expect_err(&format!("{} takes no {kind:?}, yet answers", f.name));
                    assert!(no_overload(e) && e.to_string().contains(f.name), "{}: {e}", f.name);
                }
            }
        }
    }
    assert!(claimed > 60 && refused > 200, "{claimed} claimed, {refused} refused");
}
