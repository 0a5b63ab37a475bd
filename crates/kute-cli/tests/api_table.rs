//! The library calls of the "From CuTe C++ to kute" table (docs/from-cute.md) exist and agree
//! with the expressions next to them.

use kute::expr::{eval, parse_tiler};
use kute::int_tuple::idx2crd;
use kute::{HasLayout, Int, IntTuple, Layout, Major};

fn lay(s: &str) -> Layout {
    s.parse().unwrap()
}

fn tup(s: &str) -> IntTuple {
    s.parse().unwrap()
}

fn ev(s: &str) -> String {
    eval(s).unwrap().to_string()
}

#[test]
fn construction_and_access() {
    let (shape, stride) = (tup("(2,4)"), tup("(4,1)"));
    assert_eq!(Layout::new(&shape, &stride).unwrap().to_string(), ev("make_layout((2,4),(4,1))"));
    assert_eq!(Layout::new((2, 4), (4, 1)).unwrap().to_string(), ev("make_layout((2,4),(4,1))"));
    assert_eq!(Layout::from_shape(&shape).unwrap().to_string(), ev("make_layout((2,4))"));
    assert_eq!(
        Layout::from_shape_major(&shape, Major::Right).unwrap().to_string(),
        ev("make_layout((2,4),LayoutRight{})")
    );
    assert_eq!(Int::new_static(8).to_string(), "_8");
    assert_eq!(Int::new_dynamic(8).to_string(), "8");

    let a = lay("(2,(2,2)):(4,(2,1))");
    assert_eq!(a.size().unwrap().to_string(), ev("size((2,(2,2)):(4,(2,1)))"));
    assert_eq!(a.cosize().unwrap().to_string(), ev("cosize((2,(2,2)):(4,(2,1)))"));
    assert_eq!(a.rank(), 2);
    assert_eq!(a.mode_at(&[1, 0]).unwrap().to_string(), ev("layout<1,0>((2,(2,2)):(4,(2,1)))"));
    assert_eq!(a.eval(5).unwrap().to_string(), ev("(2,(2,2)):(4,(2,1))(5)"));
    assert_eq!(a.eval_coord(&tup("(1,3)")).unwrap().to_string(), ev("(2,(2,2)):(4,(2,1))(1,3)"));
    let coord = kute::expr::parse_coord("(_,1)").unwrap();
    assert_eq!(a.slice(&coord).unwrap().to_string(), ev("(2,(2,2)):(4,(2,1))(_,1)"));
    let i = tup("16");
    let s = tup("(3,(2,3))");
    assert_eq!(idx2crd(i.as_ref(), s.as_ref()).unwrap().to_string(), ev("idx2crd(16,(3,(2,3)))"));
    let i = Int::new_dynamic(5);
    assert_eq!(a.get_hier_coord(i).unwrap().to_string(), ev("get_hier_coord((2,(2,2)):(4,(2,1)),5)"));
    assert_eq!(a.get_flat_coord(i).unwrap().to_string(), ev("get_flat_coord((2,(2,2)):(4,(2,1)),5)"));
    assert_eq!(a.get_1d_coord(i).unwrap().to_string(), ev("get_1d_coord((2,(2,2)):(4,(2,1)),5)"));
}

#[test]
fn algebra() {
    let a = lay("(_6,_2):(_8,_2)");
    let b = lay("(_4,_3):(_3,_1)");
    assert_eq!(kute::coalesce(&a).unwrap().to_string(), ev("coalesce((_6,_2):(_8,_2))"));
    assert_eq!(kute::composition(&a, &b).unwrap().to_string(), ev("composition((_6,_2):(_8,_2), (_4,_3):(_3,_1))"));
    let tiler = parse_tiler("<_3:_4,_8:_2>").unwrap();
    let c = lay("(_12,(_4,_8)):(_59,(_13,_1))");
    assert_eq!(
        kute::composition_tiler(&c, &tiler).unwrap().to_string(),
        ev("composition((_12,(_4,_8)):(_59,(_13,_1)), <_3:_4,_8:_2>)")
    );
    assert_eq!(kute::complement(&lay("4:2"), tup("24")).unwrap().to_string(), ev("complement(4:2, 24)"));

    let v = lay("24:2");
    let t = lay("4:2");
    assert_eq!(kute::logical_divide(&v, &t).unwrap().to_string(), ev("logical_divide(24:2, 4:2)"));
    assert_eq!(v.logical_divide(&t).unwrap().to_string(), ev("logical_divide(24:2, 4:2)"));
    let m = lay("(_8,_8):(_8,_1)");
    let tiler = parse_tiler("<_2:_1,_4:_1>").unwrap();
    assert_eq!(
        kute::logical_divide(&m, &tiler).unwrap().to_string(),
        ev("logical_divide((_8,_8):(_8,_1), <_2:_1,_4:_1>)")
    );
    assert_eq!(
        kute::zipped_divide(&m, &tiler).unwrap().to_string(),
        ev("zipped_divide((_8,_8):(_8,_1), <_2:_1,_4:_1>)")
    );

    let tile = lay("(_2,_2):(_1,_2)");
    let tiles = lay("(_3,_4):(_4,_1)");
    assert_eq!(
        kute::logical_product(&tile, &tiles).unwrap().to_string(),
        ev("logical_product((_2,_2):(_1,_2), (_3,_4):(_4,_1))")
    );
    assert_eq!(
        kute::blocked_product(&tile, &tiles).unwrap().to_string(),
        ev("blocked_product((_2,_2):(_1,_2), (_3,_4):(_4,_1))")
    );
    assert_eq!(
        kute::raked_product(&tile, &tiles).unwrap().to_string(),
        ev("raked_product((_2,_2):(_1,_2), (_3,_4):(_4,_1))")
    );
    let r = lay("(_4,_2):(_2,_1)");
    assert_eq!(kute::right_inverse(&r).unwrap().to_string(), ev("right_inverse((_4,_2):(_2,_1))"));
    assert_eq!(kute::left_inverse(&r).unwrap().to_string(), ev("left_inverse((_4,_2):(_2,_1))"));

    let w = lay("(_4,_8):(_1,_4)");
    assert_eq!(kute::upcast(&w, 2).unwrap().to_string(), ev("upcast<2>((_4,_8):(_1,_4))"));
    assert_eq!(
        kute::recast_layout(&w, 8, 32).unwrap().to_string(),
        ev("recast_layout<uint8_t,uint32_t>((_4,_8):(_1,_4))")
    );
    let n = lay("((_2,_4),(_3,_1)):((_1,_2),(_8,_0))");
    assert_eq!(
        kute::transform_layout(&n, |m| kute::coalesce(&m.to_layout())).unwrap().to_string(),
        ev("transform_layout(((_2,_4),(_3,_1)):((_1,_2),(_8,_0)), coalesce)")
    );
    let t = lay("(_4,_3):(_2,_1)");
    assert_eq!(
        kute::transform_layout2(&n, &t, |x, y| kute::composition(&x.to_layout(), &y.to_layout())).unwrap().to_string(),
        ev("transform_layout(((_2,_4),(_3,_1)):((_1,_2),(_8,_0)), (_4,_3):(_2,_1), composition)")
    );
}

#[test]
fn printing() {
    let a = lay("(2,(2,2)):(4,(2,1))");
    assert_eq!(a.to_string(), "(2,(2,2)):(4,(2,1))");
    assert!(kute::print::table(&a).unwrap().starts_with("(2,(2,2)):(4,(2,1))\n"));
    assert!(kute::print::latex(&a).unwrap().starts_with("% Layout: (2,(2,2)):(4,(2,1))\n"));
    assert!(kute::print::svg(&a).unwrap().starts_with("<svg "));
}

#[test]
fn coordinate_layouts() {
    let s = tup("(8,12)");
    let id = Layout::identity(&s).unwrap();
    assert_eq!(id.to_string(), ev("make_identity_layout((8,12))"));
    let e = kute::Stride::basis(Int::new_static(3), &[1]).unwrap();
    assert_eq!(e.to_string(), ev("_3@1"));
    assert_eq!(kute::Stride::basis(Int::ONE, &[1, 0]).unwrap().to_string(), ev("E<1,0>{}"));
    assert_eq!(id.eval_point(Int::new_dynamic(37)).unwrap().to_string(), ev("make_identity_layout((8,12))(37)"));
}
