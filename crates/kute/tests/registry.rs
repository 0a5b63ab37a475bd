//! The function registry: every listed function is callable, every callable
//! name is listed, and count errors come from the entries.

use kute::expr::{self, call, lookup, Count, Kind, Value, FUNCTIONS};
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
    "min",
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
    "make_tmem_copy",
    "make_tmem_ptr",
    "make_gmem_ptr",
    "make_smem_ptr",
    "tma_partition",
    "make_tma_copy",
    "make_tma_atom",
    "make_tma_copy_A_sm90",
    "make_tma_copy_B_sm90",
    "make_tma_copy_C_sm90",
    "make_tma_copy_A_sm100",
    "make_tma_copy_B_sm100",
    "make_tma_atom_A_sm100",
    "make_tma_atom_B_sm100",
    "get_tma_tensor",
    "tma_gbasis",
    "tma_descriptor",
    "bulk_copy_atom",
    "make_utccp_copy",
    "UMMA::tile_to_mma_shape",
    "umma_desc_K",
    "gmma_desc_K",
    "gmma_desc_MN",
    "umma_desc_MN",
    "make_tensor",
    "counting",
    "make_identity_tensor",
    "make_im2col_tma_copy",
    "make_im2col_tma_copy_A_sm100",
    "make_im2col_tma_copy_B_sm100",
    "make_im2col_tma_atom_A_sm100",
    "make_im2col_tma_atom_B_sm100",
    "local_tile",
    "local_partition",
    "inner_partition",
    "outer_partition",
    "print_tensor",
    "retile",
    "retile_S",
    "retile_D",
    "print",
    "print_layout",
    "print_latex",
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
            // a known name called with a wrong count: a type error, not an unknown name
            assert_eq!(e.kind(), ErrorKind::Type, "{name}: {e}");
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
        // every name here but `nosuch` is a function: its count is wrong, its name known
        let kind = if src.starts_with("nosuch") { ErrorKind::UnknownName } else { ErrorKind::Type };
        assert_eq!(e.kind(), kind, "{src}");
    }
}

#[test]
fn template_arguments_are_integers_or_element_types_as_the_entry_says() {
    let cases: &[(&str, ErrorKind, &str)] = &[
        (
            "recast_layout<uint8_t>(4:1)",
            ErrorKind::Type,
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
        ("transform_layout(4:1)", ErrorKind::Type, "evaluate: transform_layout takes 2 to 3 argument(s), got 1"),
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

/// Values of each kind the registry tells apart, to call every entry with.
fn samples(kind: Kind) -> Vec<Value> {
    const MMA: &str = "MMA_Atom<SM80_16x8x16_F16F16F16F16_TN>{}";
    const COPY: &str = "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>,half_t>{},(_8,_4):(_4,_1),(_1,_8):(_8,_1))";
    let mma = format!("make_tiled_mma({MMA})");
    let srcs: Vec<String> = match kind {
        Kind::Atom => vec![MMA.into(), mma, "Copy_Atom<UniversalCopy<uint128_t>,half_t>{}".into(), COPY.into()],
        Kind::Composed => vec!["Sw<2,3,3>".into(), "Sw<2,3,3> o _0 o (_8,_64):(_64,_1)".into()],
        Kind::Tensor => vec!["make_tensor(counting, (_8,_16):(_1,_8))".into(), "make_identity_tensor((_8,_16))".into()],
        Kind::ThrSlice => vec![format!("get_slice({mma}, 0)"), format!("get_slice({COPY}, 0)")],
    };
    srcs.iter().map(|s| expr::eval(s).unwrap_or_else(|e| panic!("{s}: {e}"))).collect()
}

/// Whether an error is the registry's refusal of a kind of value.
fn refused(name: &str, v: &Value, e: &kute::Error) -> bool {
    let want = format!("evaluate: {name} is not defined on {} (CuTe has no such overload)", v.kind_name());
    e.kind() == ErrorKind::Type && e.to_string() == want
}

/// Every entry, for every kind of value: called with a value of that kind in
/// each argument position (plain values elsewhere), it reaches an
/// implementation or overload somewhere where the registry says it claims
/// the kind, and is refused with a `Type` error everywhere where it does not.
/// Read from the registry, so that a new entry is tested as it is added.
#[test]
fn every_entry_takes_the_kinds_it_claims_and_refuses_the_others() {
    let plain = expr::eval("(_8,_16):(_1,_8)").unwrap();
    let mut reached = 0;
    for f in FUNCTIONS {
        let targs = vec![if f.type_targs { 8 } else { 1 }; f.targs.min];
        let count = f.arg_count(targs.len());
        if count.max == 0 {
            assert!(Kind::ALL.iter().all(|k| !f.claims(*k)), "{} takes no argument and claims a kind", f.name);
            continue;
        }
        let n = count.min.max(1);
        for kind in Kind::ALL {
            let mut reaches = false;
            for v in samples(kind) {
                for at in 0..n {
                    let mut args = vec![plain.clone(); n];
                    args[at] = v.clone();
                    assert_eq!(Kind::of_call(&args), Some(kind));
                    let r = call(f.name, &targs, &args);
                    let refusal = r.as_ref().is_err_and(|e| refused(f.name, &v, e));
                    if f.claims(kind) {
                        reaches |= !refusal;
                    } else {
                        assert!(refusal, "{}{targs:?} with {} at {at}: {r:?}, not the refusal", f.name, v.kind_name());
                    }
                }
            }
            if f.claims(kind) {
                assert!(reaches, "{} claims {kind:?} but refuses every value of it", f.name);
                reached += 1;
            }
        }
    }
    // the registry claims kinds at all (composed layouts, tensors, atoms, slices)
    assert!(reached > 60, "{reached}");
}

/// A call's kind is its most special argument's, and the registry alone
/// says what becomes of it: the answer of the inner layout, a recomposed
/// layout, the tensor's layout, or a refusal naming the function.
#[test]
fn the_registry_decides_the_overload() {
    let at = |s: &str| expr::eval(s).map(|v| v.to_string());
    assert_eq!(at("size(Sw<2,3,3> o _0 o (_8,_64):(_64,_1))").unwrap(), "_512");
    assert_eq!(at("size(make_tensor(counting, Sw<2,3,3> o _0 o (_8,_64):(_64,_1)))").unwrap(), "_512");
    assert_eq!(at("get<0>(Sw<2,3,3> o _0 o (_8,_64):(_64,_1))").unwrap(), "Sw<2,3,3> o _0 o _8:_64");
    let e = expr::eval("coshape(Sw<2,3,3> o _0 o (_8,_64):(_64,_1))").unwrap_err();
    assert_eq!(e.to_string(), "evaluate: coshape is not defined on a composed layout (CuTe has no such overload)");
    let e = expr::eval("shape(MMA_Atom<SM80_16x8x16_F16F16F16F16_TN>{})").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type, "{e}");
    // a typed argument's error names the function, the argument and what it must be
    let e = expr::eval("logical_divide((4,2):(1,8), LayoutLeft{})").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type, "{e}");
    assert!(e.to_string().starts_with("logical_divide: argument 2 (T) must be a tiler, not a stride order tag"), "{e}");
}

/// Where an atom, thread or value layout is expected, a shape is its compact
/// layout (CuTe's answers are in `data/calls.tsv`); anything else is a `Type`
/// error naming the function, the argument and what it must be.
#[test]
fn a_layout_argument_takes_a_shape_and_nothing_else() {
    let atom = "Copy_Atom<UniversalCopy<uint32_t>,half_t>{}";
    let at = |s: &str| expr::eval(s).map(|v| v.to_string());
    assert_eq!(
        at(&format!("make_tiled_copy({atom},(_4,_8):(_8,_1),(_1,_2))")),
        at(&format!("make_tiled_copy({atom},(_4,_8):(_8,_1),make_layout((_1,_2)))"))
    );
    for (src, want) in [
        (
            format!("make_tiled_copy({atom},LayoutLeft{{}},(_1,_2))"),
            "make_tiled_copy: argument 2 (the thread layout) must be a layout or a shape, not a stride order tag",
        ),
        (
            format!("make_tiled_copy({atom},(_4,_8),<_1,_2>)"),
            "make_tiled_copy: argument 3 (the value layout) must be a layout or a shape, not a tiler",
        ),
        ("make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{},(2,-1,1))".to_string(), "make_tiled_mma: "),
    ] {
        let e = expr::eval(&src).unwrap_err();
        assert!(e.to_string().starts_with(want), "{src}: {e}");
    }
}

/// An element type a function does not know as a template argument gets the
/// nearest name.
#[test]
fn misspelt_element_types_get_the_nearest_name() {
    let e = expr::eval("recast_layout<halff_t,float>(4:1)").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownName, "{e}");
    assert!(
        e.to_string().ends_with("unknown element type 'halff_t' in recast_layout<...>; did you mean 'half_t'?"),
        "{e}"
    );
}
