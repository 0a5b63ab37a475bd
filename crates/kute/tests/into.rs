//! The `*_into` forms give exactly the by-value results (static flags included),
//! whatever the reused output held before, and leave `_1:_0` after an error.
//!
//! One output layout is reused across thousands of random operations of every
//! kind (results from 1 to more than 16 leaves), so a stale token or leaf from
//! an earlier result would show up as a difference.

use crate::common;

use common::{Gen, T};
use kute::{Layout, Result, Tiler};

/// A random layout with static or dynamic integers, often nested.
fn layout(g: &mut Gen, max_rank: usize) -> Layout {
    let negative = g.chance(0.1);
    let t: T = g.layout(max_rank, negative);
    let st = g.chance(0.5);
    t.show(st).parse().unwrap_or_else(|e| panic!("{}: {e}", t.show(st)))
}

/// A random tiler: a layout, an integer, or a by-mode tuple of those (or `_`).
fn tiler(g: &mut Gen, rank: usize) -> Tiler {
    match g.below(4) {
        0 => Tiler::Layout(layout(g, 2)),
        1 => kute::expr::parse_tiler(&g.range(1, 9).to_string()).unwrap(),
        _ => {
            let k = 1 + g.below(rank.max(1));
            let parts: Vec<String> = (0..k)
                .map(|_| match g.below(4) {
                    0 => "_".to_string(),
                    1 => g.range(1, 9).to_string(),
                    _ => {
                        let st = g.chance(0.5);
                        T::flat(&g.flat_modes(2, false)).show(st)
                    }
                })
                .collect();
            kute::expr::parse_tiler(&format!("<{}>", parts.join(","))).unwrap()
        }
    }
}

fn same(op: &str, out: &mut Layout, by_value: Result<Layout>, into: impl FnOnce(&mut Layout) -> Result<()>) {
    let r = into(out);
    match (&by_value, &r) {
        (Ok(v), Ok(())) => assert_eq!(out.to_string(), v.to_string(), "{op}: into vs by value"),
        (Err(e), Err(f)) => {
            assert_eq!(e.to_string(), f.to_string(), "{op}: the errors differ");
            assert_eq!(out.to_string(), "_1:_0", "{op}: the output after an error");
        }
        _ => panic!("{op}: by value {by_value:?}, into {r:?}"),
    }
}

#[test]
fn into_forms_match_by_value() {
    let mut out = Layout::default();
    let mut ok = 0;
    for seed in 0..3000u64 {
        let mut g = Gen::new(seed);
        let a = layout(&mut g, 4);
        let b = layout(&mut g, 3);
        let t = tiler(&mut g, a.rank());
        let m: kute::IntTuple = g.range(1, 200).to_string().parse().unwrap();
        let tag = format!("seed {seed}: A = {a}, B = {b}, tiler = {t}");
        same(&format!("coalesce {tag}"), &mut out, kute::coalesce(&a), |o| kute::coalesce_into(o, &a));
        same(&format!("complement {tag}"), &mut out, kute::complement(&a, &m), |o| kute::complement_into(o, &a, &m));
        // the cotarget as an `Int` (read without a tree) and as a plain integer
        let n = m.as_int().expect("an integer cotarget");
        same(&format!("complement/Int {tag}"), &mut out, kute::complement(&a, &m), |o| kute::complement_into(o, &a, n));
        same(&format!("complement/i64 {tag}"), &mut out, kute::complement(&a, &m), |o| {
            kute::complement_into(o, &a, n.value())
        });
        same(&format!("composition {tag}"), &mut out, kute::composition(&a, &b), |o| kute::composition_into(o, &a, &b));
        same(&format!("composition/tiler {tag}"), &mut out, kute::composition_tiler(&a, &t), |o| {
            kute::composition_tiler_into(o, &a, &t)
        });
        same(&format!("logical_divide {tag}"), &mut out, kute::logical_divide(&a, &t), |o| {
            kute::logical_divide_into(o, &a, &t)
        });
        same(&format!("zipped_divide {tag}"), &mut out, kute::zipped_divide(&a, &t), |o| {
            kute::zipped_divide_into(o, &a, &t)
        });
        same(&format!("tiled_divide {tag}"), &mut out, kute::tiled_divide(&a, &t), |o| {
            kute::tiled_divide_into(o, &a, &t)
        });
        same(&format!("flat_divide {tag}"), &mut out, kute::flat_divide(&a, &t), |o| kute::flat_divide_into(o, &a, &t));
        same(&format!("logical_product {tag}"), &mut out, kute::logical_product(&a, &t), |o| {
            kute::logical_product_into(o, &a, &t)
        });
        same(&format!("zipped_product {tag}"), &mut out, kute::zipped_product(&a, &t), |o| {
            kute::zipped_product_into(o, &a, &t)
        });
        same(&format!("tiled_product {tag}"), &mut out, kute::tiled_product(&a, &t), |o| {
            kute::tiled_product_into(o, &a, &t)
        });
        same(&format!("flat_product {tag}"), &mut out, kute::flat_product(&a, &t), |o| {
            kute::flat_product_into(o, &a, &t)
        });
        same(&format!("blocked_product {tag}"), &mut out, kute::blocked_product(&a, &b), |o| {
            kute::blocked_product_into(o, &a, &b)
        });
        same(&format!("raked_product {tag}"), &mut out, kute::raked_product(&a, &b), |o| {
            kute::raked_product_into(o, &a, &b)
        });
        ok += kute::logical_divide(&a, &t).is_ok() as usize;
    }
    // the generator must reach the success paths, not only errors
    assert!(ok > 500, "only {ok} successful divides");
}

#[test]
fn into_after_a_large_result() {
    // a result of more than 16 leaves (heap storage), then small ones into the same output
    let a: Layout = "((2,2),(2,2),(2,2),(2,2),(2,2),(2,2),(2,2),(2,2),(2,2))"
        .parse::<kute::IntTuple>()
        .map(|s| Layout::from_shape(&s).unwrap())
        .unwrap();
    let b: Layout = "(3,(4,5)):(1,(3,12))".parse().unwrap();
    let mut out = Layout::default();
    kute::blocked_product_into(&mut out, &a, &b).unwrap();
    assert_eq!(out.to_string(), kute::blocked_product(&a, &b).unwrap().to_string());
    assert!(out.leaves().len() > 16);
    let c: Layout = "(2,(1,6)):(1,(6,2))".parse().unwrap();
    kute::coalesce_into(&mut out, &c).unwrap();
    assert_eq!(out.to_string(), "12:1");
    let bad: Layout = "4:4".parse().unwrap();
    let a2: Layout = "(6,4):(1,7)".parse().unwrap();
    assert!(kute::composition_into(&mut out, &a2, &bad).is_err());
    assert_eq!(out.to_string(), "_1:_0");
}
