//! Tensors: indexing and slicing against the layout's own
//! evaluation, partitions against CuTe's definitions written out here,
//! copies against an element-by-element model, gemm against a triple loop,
//! and print_tensor against CuTe's bytes (tests/data/print_tensor.txt).

use crate::common;

use common::Gen;
use kute::expr::{eval, parse_coord};
use kute::tensor::{
    self, axpby, clear, copy, copy_scalar, fill, gemm, make_counting_tensor, make_identity_tensor, transform,
    transform_into, CopyPath, Owned, Tensor,
};
use kute::{ErrorKind, Int, IntTuple, Layout};

fn lay(s: &str) -> Layout {
    s.parse().unwrap()
}

fn tup(s: &str) -> IntTuple {
    s.parse().unwrap()
}

/// A flat layout `(e0,e1,..):(d0,d1,..)` and its model: the offset of the 1-D
/// coordinate `i` (colexicographic), computed here.
#[derive(Clone, Debug)]
struct Flat {
    ext: Vec<i64>,
    str: Vec<i64>,
}

impl Flat {
    fn text(&self) -> String {
        let j = |v: &[i64]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",");
        format!("({}):({})", j(&self.ext), j(&self.str))
    }
    fn layout(&self) -> Layout {
        lay(&self.text())
    }
    fn size(&self) -> i64 {
        self.ext.iter().product()
    }
    fn offset(&self, mut i: i64) -> i64 {
        let mut o = 0;
        for (e, d) in self.ext.iter().zip(&self.str) {
            o += (i % e) * d;
            i /= e;
        }
        o
    }
}

/// A compact layout of the extents, its modes ordered randomly (a bijection onto `[0, size)`).
fn compact(g: &mut Gen, ext: Vec<i64>) -> Flat {
    let mut order: Vec<usize> = (0..ext.len()).collect();
    g.shuffle(&mut order);
    let mut str = vec![0; ext.len()];
    let mut acc = 1;
    for &k in &order {
        str[k] = acc;
        acc *= ext[k];
    }
    Flat { ext, str }
}

fn factors(mut n: i64) -> Vec<i64> {
    let mut f = Vec::new();
    let mut p = 2;
    while n > 1 {
        while n % p == 0 {
            f.push(p);
            n /= p;
        }
        p += 1;
    }
    f
}

/// Other extents of the same product.
fn regroup(g: &mut Gen, ext: &[i64]) -> Vec<i64> {
    let mut fs: Vec<i64> = ext.iter().flat_map(|&e| factors(e)).collect();
    g.shuffle(&mut fs);
    let mut out = Vec::new();
    let mut cur = 1;
    for f in fs {
        cur *= f;
        if g.chance(0.5) {
            out.push(cur);
            cur = 1;
        }
    }
    if cur > 1 || out.is_empty() {
        out.push(cur);
    }
    out
}

// --- print_tensor: CuTe's bytes --------------------------------------------

#[test]
fn print_tensor_is_cute_byte_for_byte() {
    let text = include_str!("data/print_tensor.txt");
    let mut cases = 0;
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    while let Some(head) = lines.next() {
        let expr = head.strip_prefix("=== ").expect("a case header");
        let mut want = String::new();
        for l in lines.by_ref() {
            if l == "=== end" {
                break;
            }
            want.push_str(l);
            want.push('\n');
        }
        let got = eval(&format!("print_tensor({expr})")).unwrap_or_else(|e| panic!("{expr}: {e}"));
        assert_eq!(format!("{got}\n"), want, "{expr}");
        cases += 1;
    }
    assert!(cases >= 20, "{cases} cases");
}

#[test]
fn print_tensor_of_owned_floats_uses_cute_float_format() {
    let t = Tensor::new(Owned(vec![1.5f32, -0.25, 1234.0, 0.0]), lay("(2,2):(1,2)"));
    let s = tensor::print_tensor(&t).unwrap();
    let body: Vec<&str> = s.lines().skip(1).collect();
    // printf("%10.2e")
    assert_eq!(body, ["  1.50e+00  1.23e+03", " -2.50e-01  0.00e+00"]);
    assert!(s.starts_with("ptr[32b](0x"), "{s}");
}

// --- indexing and slicing ----------------------------------------------------

#[test]
fn indexing_agrees_with_the_layout() {
    let mut g = Gen::new(16);
    for _ in 0..200 {
        let n = g.range(1, 4) as usize;
        let ext: Vec<i64> = (0..n).map(|_| g.range(1, 5)).collect();
        let f = compact(&mut g, ext.clone());
        let l = f.layout();
        let t = make_counting_tensor(l.clone());
        for i in 0..f.size() {
            assert_eq!(t.get(i).unwrap(), f.offset(i), "{} at {i}", f.text());
            // the natural (here flat) coordinate of i
            let c = l.get_hier_coord(Int::new_dynamic(i)).unwrap();
            assert_eq!(t.at(&c).unwrap(), l.eval_coord(&c).unwrap().value());
        }
        assert_eq!(t.get(f.size()).unwrap_err().kind(), ErrorKind::Mismatch);
        assert_eq!(t.get(-1).unwrap_err().kind(), ErrorKind::Mismatch);
    }
}

#[test]
fn hierarchical_and_rd_coordinates() {
    let l = lay("((2,3),(2,2)):((1,8),(2,4))");
    let t = make_counting_tensor(l.clone());
    for m in 0..6 {
        for n in 0..4 {
            let nat = tup(&format!("(({},{}),({},{}))", m % 2, m / 2, n % 2, n / 2));
            let rd = tup(&format!("({m},{n})"));
            let want = l.eval_coord(&nat).unwrap().value();
            assert_eq!(t.at(&nat).unwrap(), want);
            assert_eq!(t.at(&rd).unwrap(), want);
            assert_eq!(t.get(m + 6 * n).unwrap(), want);
        }
    }
    assert!(t.at(&tup("(6,0)")).is_err());
    assert!(t.at(&tup("((2,0),(0,0))")).is_err());
    assert!(t.at(&tup("(0,(0,2))")).is_err());
}

#[test]
fn identity_tensor_elements_are_their_coordinates() {
    let t = make_identity_tensor(&tup("(_4,(_2,_3))")).unwrap();
    for a in 0..4 {
        for b in 0..2 {
            for c in 0..3 {
                let nat = format!("({a},({b},{c}))");
                assert_eq!(t.at(&tup(&nat)).unwrap().to_string(), nat);
                assert_eq!(t.at(&tup(&format!("({a},{})", b + 2 * c))).unwrap().to_string(), nat);
                assert_eq!(t.get(a + 4 * (b + 2 * c)).unwrap().to_string(), nat);
            }
        }
    }
}

#[test]
fn slices_are_views_at_an_offset() {
    let mut g = Gen::new(7);
    for _ in 0..100 {
        let ext = vec![g.range(1, 5), g.range(1, 5), g.range(1, 4)];
        let f = compact(&mut g, ext);
        let t = make_counting_tensor(f.layout());
        let (a, c) = (g.range(0, f.ext[0] - 1), g.range(0, f.ext[2] - 1));
        let s = t.clone().slice(&parse_coord(&format!("({a},_,{c})")).unwrap()).unwrap();
        assert_eq!(s.size().unwrap(), f.ext[1]);
        for b in 0..f.ext[1] {
            let full = a * f.str[0] + b * f.str[1] + c * f.str[2];
            assert_eq!(s.get(b).unwrap(), full);
        }
        assert!(t.slice(&parse_coord(&format!("({},_,0)", f.ext[0])).unwrap()).is_err());
    }
    // a view of owned storage: writes land in the original
    let mut o = Tensor::new(Owned(vec![0i32; 12]), lay("(3,4):(4,1)"));
    let mut col = o.view_mut().slice(&parse_coord("(_,2)").unwrap()).unwrap();
    for i in 0..3 {
        col.set(i, 1 + i as i32).unwrap();
    }
    assert_eq!(o.engine().0, vec![0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0]);
}

// --- partitions: CuTe's definitions, written independently ------------------

#[test]
fn local_tile_is_the_tile_at_the_block_coordinate() {
    for (m, n, tm, tn) in [(8, 12, 4, 3), (16, 16, 4, 8), (6, 10, 3, 5), (12, 4, 2, 2)] {
        let t = make_counting_tensor(lay(&format!("({m},{n}):({n},1)"))); // row-major: (i,j) -> i*n + j
        for bm in 0..m / tm {
            for bn in 0..n / tn {
                let tile = t
                    .clone()
                    .local_tile(
                        &format!("({tm},{tn})").parse().unwrap(),
                        &parse_coord(&format!("({bm},{bn})")).unwrap(),
                    )
                    .unwrap();
                for i in 0..tm {
                    for j in 0..tn {
                        let want = (bm * tm + i) * n + (bn * tn + j);
                        assert_eq!(tile.at(&tup(&format!("({i},{j})"))).unwrap(), want);
                    }
                }
            }
        }
    }
}

#[test]
fn local_partition_is_one_threads_element_of_every_tile() {
    for (m, n, tm, tn, thr) in
        [(8, 12, 2, 3, "(2,3):(3,1)"), (8, 12, 2, 3, "(2,3):(1,2)"), (16, 8, 4, 2, "(4,2):(2,1)")]
    {
        let thr_l = lay(thr);
        let t = make_identity_tensor(&tup(&format!("({m},{n})"))).unwrap();
        for idx in 0..tm * tn {
            // the thread's coordinate: the (tm', tn') that the thread layout maps to idx
            let (a, b) = (0..tm)
                .flat_map(|a| (0..tn).map(move |b| (a, b)))
                .find(|&(a, b)| thr_l.eval_coord(&tup(&format!("({a},{b})"))).unwrap().value() == idx)
                .unwrap();
            let p = t.clone().local_partition(&thr_l, idx).unwrap();
            assert_eq!(p.shape().unwrap().to_string(), format!("({},{})", m / tm, n / tn));
            for i in 0..m / tm {
                for j in 0..n / tn {
                    let want = format!("({},{})", i * tm + a, j * tn + b);
                    assert_eq!(p.at(&tup(&format!("({i},{j})"))).unwrap().to_string(), want);
                }
            }
        }
        assert!(t.local_partition(&thr_l, tm * tn).is_err());
    }
}

#[test]
fn divides_of_a_tensor_are_the_divides_of_its_layout() {
    let l = lay("(8,12):(12,1)");
    let t: kute::Tiler = "(4,3)".parse().unwrap();
    let ct = make_counting_tensor(l.clone());
    assert_eq!(
        ct.clone().zipped_divide(&t).unwrap().layout().to_string(),
        kute::zipped_divide(&l, &t).unwrap().to_string()
    );
    assert_eq!(
        ct.clone().logical_divide(&t).unwrap().layout().to_string(),
        kute::logical_divide(&l, &t).unwrap().to_string()
    );
    assert_eq!(
        ct.clone().tiled_divide(&t).unwrap().layout().to_string(),
        kute::tiled_divide(&l, &t).unwrap().to_string()
    );
    assert_eq!(ct.flat_divide(&t).unwrap().layout().to_string(), kute::flat_divide(&l, &t).unwrap().to_string());
}

// --- copy --------------------------------------------------------------------

/// The model: `dst[fd(i) + bd] = src[fs(i) + bs]` for every i, element by element.
fn model_copy(src: &[i64], fs: &Flat, bs: i64, dst: &mut [i64], fd: &Flat, bd: i64) {
    for i in 0..fs.size() {
        dst[(fd.offset(i) + bd) as usize] = src[(fs.offset(i) + bs) as usize];
    }
}

#[test]
fn copy_between_random_layouts_of_equal_size() {
    let mut g = Gen::new(1616);
    let mut vector = 0;
    for case in 0..300 {
        let n = g.range(1, 4) as usize;
        let ext: Vec<i64> = (0..n).map(|_| g.range(1, 7)).collect();
        let fs = compact(&mut g, ext.clone());
        // the same extents (a shared vector is likely) or others of the same size
        let fd = if case % 2 == 0 {
            compact(&mut g, ext)
        } else {
            {
                let e = regroup(&mut g, &fs.ext);
                compact(&mut g, e)
            }
        };
        let size = fs.size();
        let (bs, bd) = (g.range(0, 3), g.range(0, 3));
        let src: Vec<i64> = (0..size + bs).map(|x| 1000 + x).collect();
        let st = Tensor::with_offset(
            Owned(src.clone()),
            fs.layout(),
            kute::layout::point::Point::Scalar(Int::new_dynamic(bs).into()),
        );
        let mk = || {
            Tensor::with_offset(
                Owned(vec![-1i64; (size + bd) as usize]),
                fd.layout(),
                kute::layout::point::Point::Scalar(Int::new_dynamic(bd).into()),
            )
        };
        let mut want = vec![-1i64; (size + bd) as usize];
        model_copy(&src, &fs, bs, &mut want, &fd, bd);
        let (mut d1, mut d2) = (mk(), mk());
        let path = copy(&st, &mut d1).unwrap();
        let scalar = copy_scalar(&st, &mut d2).unwrap();
        assert_eq!(d1.engine().0, want, "{} -> {} ({path:?})", fs.text(), fd.text());
        assert_eq!(d2.engine().0, want, "scalar {} -> {}", fs.text(), fd.text());
        assert_ne!(scalar, CopyPath::Generic);
        // every element written exactly once: dst is a bijection, so no -1 is left past the offset
        assert!(d1.engine().0[bd as usize..].iter().all(|&x| x >= 1000));
        // (max_common_vector refuses some dynamic layouts: then copy does not vectorise)
        let v = kute::max_common_vector(&fs.layout(), &fd.layout()).map(|v| v.value()).unwrap_or(1);
        if v > 1 {
            assert_eq!(path, CopyPath::Vector { width: v }, "{} -> {}", fs.text(), fd.text());
            vector += 1;
        } else {
            assert_eq!(path, CopyPath::Strided);
        }
    }
    assert!(vector > 50, "the vector path was taken {vector} times");
}

#[test]
fn copy_from_counting_and_into_swizzled_layouts_takes_the_generic_path() {
    let src = make_counting_tensor(lay("(4,4):(4,1)"));
    let sw = eval("Sw<2,0,2> o _0 o (_4,_4):(_4,_1)").unwrap().to_any_layout("x").unwrap();
    let mut dst = Tensor::new(Owned(vec![0i64; 16]), sw.clone());
    assert_eq!(copy(&src, &mut dst).unwrap(), CopyPath::Generic);
    for i in 0..16 {
        let pos = sw.eval_int(Int::new_dynamic(i)).unwrap().value() as usize;
        assert_eq!(dst.engine().0[pos], src.get(i).unwrap());
    }
}

#[test]
fn copy_errors_instead_of_panicking() {
    let src = Tensor::new(Owned(vec![1; 8]), lay("8:1"));
    let mut small = Tensor::new(Owned(vec![0; 6]), lay("6:1"));
    assert_eq!(copy(&src, &mut small).unwrap_err().kind(), ErrorKind::Mismatch);
    // a layout reaching past the storage
    let mut short = Tensor::new(Owned(vec![0; 7]), lay("8:1"));
    assert!(copy(&src, &mut short).is_err());
    let mut neg = Tensor::new(Owned(vec![0; 8]), lay("8:-1"));
    assert!(copy(&src, &mut neg).is_err());
    assert!(short.get(7).is_err());
}

// --- other algorithms ----------------------------------------------------------

#[test]
fn fill_clear_transform_axpby() {
    let mut t = Tensor::new(Owned(vec![0i32; 12]), lay("(2,3):(6,2)"));
    fill(&mut t, 5).unwrap();
    let touched: Vec<usize> = (0..6).map(|i| Flat { ext: vec![2, 3], str: vec![6, 2] }.offset(i) as usize).collect();
    for (k, &x) in t.engine().0.iter().enumerate() {
        assert_eq!(x, if touched.contains(&k) { 5 } else { 0 });
    }
    transform(&mut t, |x| x * 3).unwrap();
    assert_eq!(t.get(5).unwrap(), 15);
    clear(&mut t).unwrap();
    assert!(t.engine().0.iter().all(|&x| x == 0));
    let x = make_counting_tensor(lay("(2,3):(3,1)"));
    let mut y = Tensor::new(Owned(vec![0i64; 6]), lay("(2,3):(1,2)"));
    transform_into(&x, &mut y, |v| v * 10).unwrap();
    let mut y2 = Tensor::new(Owned(vec![1i64; 6]), lay("(2,3):(1,2)"));
    axpby(2, &x, 3, &mut y2).unwrap();
    for i in 0..6 {
        assert_eq!(y.get(i).unwrap(), 10 * x.get(i).unwrap());
        assert_eq!(y2.get(i).unwrap(), 2 * x.get(i).unwrap() + 3);
    }
    assert!(axpby(1, &x, 1, &mut Tensor::new(Owned(vec![0i64; 4]), lay("4:1"))).is_err());
}

#[test]
fn gemm_is_the_triple_loop() {
    let mut g = Gen::new(99);
    for _ in 0..20 {
        let (m, n, k) = (g.range(1, 6), g.range(1, 6), g.range(1, 6));
        let av: Vec<i64> = (0..m * k).map(|_| g.range(-5, 6)).collect();
        let bv: Vec<i64> = (0..n * k).map(|_| g.range(-5, 6)).collect();
        let cv: Vec<i64> = (0..m * n).map(|_| g.range(-5, 6)).collect();
        // A row-major (M,K), B column-major (N,K), C row-major (M,N)
        let a = Tensor::new(Owned(av.clone()), lay(&format!("({m},{k}):({k},1)")));
        let b = Tensor::new(Owned(bv.clone()), lay(&format!("({n},{k}):(1,{n})")));
        let mut c = Tensor::new(Owned(cv.clone()), lay(&format!("({m},{n}):({n},1)")));
        gemm(&a, &b, &mut c).unwrap();
        for i in 0..m {
            for j in 0..n {
                let mut want = cv[(i * n + j) as usize];
                for l in 0..k {
                    want += av[(i * k + l) as usize] * bv[(j + l * n) as usize];
                }
                assert_eq!(c.engine().0[(i * n + j) as usize], want);
            }
        }
    }
    let a = Tensor::new(Owned(vec![0i64; 6]), lay("(2,3):(3,1)"));
    let b = Tensor::new(Owned(vec![0i64; 8]), lay("(2,4):(4,1)"));
    let mut c = Tensor::new(Owned(vec![0i64; 4]), lay("(2,2):(2,1)"));
    assert_eq!(gemm(&a, &b, &mut c).unwrap_err().kind(), ErrorKind::Mismatch);
}

#[test]
fn recast_sees_the_same_bytes() {
    let v: Vec<u32> = (0..8).map(|x| 0x0101_0101 * x).collect();
    let t = Tensor::new(Owned(v.clone()), lay("(_2,_4):(_4,_1)"));
    let b = t.recast::<u8>().unwrap();
    assert_eq!(b.layout().to_string(), "(_2,_16):(_16,_1)");
    for i in 0..32 {
        let (r, c) = (i % 2, i / 2);
        assert_eq!(
            b.at(&tup(&format!("({r},{c})"))).unwrap(),
            v[(r * 4 + c / 4) as usize].to_ne_bytes()[(c % 4) as usize]
        );
    }
    // an offset that is not a whole number of u32
    let off = kute::layout::point::Point::Scalar(Int::new_dynamic(1).into());
    assert!(Tensor::with_offset(Owned(vec![0u8; 8]), lay("4:1"), off).recast::<u32>().is_err());
    // a stride that upcast cannot merge
    assert!(Tensor::new(Owned(vec![0u8; 32]), lay("(2,4):(3,8)")).recast::<u32>().is_err());
}

// --- the expression language -----------------------------------------------------

#[test]
fn expressions_on_tensors() {
    let ev = |s: &str| eval(s).unwrap_or_else(|e| panic!("{s}: {e}")).to_string();
    assert_eq!(ev("make_tensor(counting, (_4,_8):(_1,_4))"), "counting_iter(0) o (_4,_8):(_1,_4)");
    assert_eq!(ev("make_tensor(counting, (_4,_8):(_1,_4))(1,2)"), "9");
    assert_eq!(ev("make_identity_tensor((_4,_8))(3,5)"), "(3,5)");
    assert_eq!(ev("local_tile(make_identity_tensor((_8,_12)),(_4,_3),(1,2))"), "ArithTuple(4,6) o (_4,_3):(_1@0,_1@1)");
    assert_eq!(
        ev("zipped_divide(make_identity_tensor((_8,_12)),(_4,_3))"),
        "ArithTuple(_0,_0) o ((_4,_3),(_2,_4)):((_1@0,_1@1),(_4@0,_3@1))"
    );
    assert_eq!(ev("size(make_identity_tensor((_8,_12)))"), "_96");
    assert_eq!(
        ev("outer_partition(make_tensor(counting, (_4,_6):(_1,_4)),(_2,_3),(1,0))"),
        "counting_iter(1) o (_2,_2):(_2,_12)"
    );
    assert!(eval("make_identity_tensor((_4,_8))(4,0)").is_err());
    assert!(eval("make_tensor(5, (_4,_8))").is_err());
    assert!(eval("coalesce(make_identity_tensor((_4,_8)))").is_err());
    assert_eq!(eval("print_tensor(4:1)").unwrap_err().kind(), ErrorKind::Type);
}

/// A layout where a tensor is expected: the error shows the expression that
/// makes its counting tensor, and that expression, put in the call, works.
#[test]
fn a_layout_for_a_tensor_gets_the_expression_of_its_tensor() {
    let e = eval("print_tensor(4:1)").unwrap_err();
    assert_eq!(
        e.to_string(),
        "print_tensor: the tensor must be a tensor, not a layout (4:1); make_tensor(counting, 4:1) is the tensor of that layout"
    );
    for (call, layout) in [
        ("print_tensor(LAYOUT)", "4:1"),
        ("local_tile(LAYOUT, (_2,_3), (1,1))", "(_4,_6):(_6,_1)"),
        ("partition_A(get_slice(make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}),0), LAYOUT)", "(16,16):(1,16)"),
    ] {
        let e = eval(&call.replace("LAYOUT", layout)).unwrap_err();
        let tensor = format!("make_tensor(counting, {layout})");
        assert_eq!(e.kind(), ErrorKind::Type, "{call}: {e}");
        assert!(e.to_string().ends_with(&format!("; {tensor} is the tensor of that layout")), "{call}: {e}");
        eval(&call.replace("LAYOUT", &tensor)).unwrap_or_else(|e| panic!("{call} of {tensor}: {e}"));
    }
    // a shape: its coordinate tensor
    for (call, shape) in [("print_tensor(SHAPE)", "(2,3)"), ("local_tile(SHAPE, (_2,_2), (0,1))", "(_8,_8)")] {
        let e = eval(&call.replace("SHAPE", shape)).unwrap_err();
        let tensor = format!("make_identity_tensor({shape})");
        assert!(e.to_string().ends_with(&format!("; {tensor} is the coordinate tensor of that shape")), "{call}: {e}");
        eval(&call.replace("SHAPE", &tensor)).unwrap_or_else(|e| panic!("{call} of {tensor}: {e}"));
    }
    // no such hint where that tensor could not be printed (basis strides)
    let e = eval("print_tensor(make_identity_layout((2,3)))").unwrap_err();
    assert!(!e.to_string().contains("make_tensor"), "{e}");
}

// --- retile ----------------------------------------------------------------------

/// `retile_S` / `retile_D` of a tensor keep its engine and offset and give its
/// layout CuTe's `TiledCopy::retile` (whose answers `data/calls.tsv` holds), a
/// regrouping: the same elements, each once.
#[test]
fn retile_of_a_tensor_regroups_its_elements() {
    let mma = "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{},Layout<Shape<_2,_2,_1>>{})";
    let cases = [
        (format!("make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>{{}},{mma})"), "((_2,_2,_2),_2,_2)"),
        (format!("make_tiled_copy_B(Copy_Atom<SM75_U32x2_LDSM_N,half_t>{{}},{mma})"), "((_2,_2),_4,_2)"),
        (format!("make_tiled_copy_C(Copy_Atom<UniversalCopy<uint32_t>,half_t>{{}},{mma})"), "((_2,_2),_2,_4)"),
    ];
    for (copy, frag) in cases {
        for (side, thr) in [("retile_S", 3), ("retile_D", 100)] {
            let t = format!("make_tensor(counting, make_layout({frag}))");
            let got = eval(&format!("{side}(get_slice({copy},{thr}),{t})")).unwrap();
            let want = eval(&format!("retile({copy},make_layout({frag}))")).unwrap();
            assert_eq!(got.to_string(), format!("counting_iter(0) o {want}"), "{side} of {frag}");
            let l: Layout = want.to_string().parse().unwrap();
            let mut seen = l.values().unwrap();
            seen.sort();
            assert_eq!(seen, (0..seen.len() as i64).collect::<Vec<_>>(), "{l} is not a regrouping of {frag}");
        }
    }
    // of an identity tensor: each coordinate once
    let c = "make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>,half_t>{},(_32,_4),(_1,_2))";
    let got = eval(&format!("retile_D(get_slice({c},7),make_identity_tensor((_4,_2,_2)))")).unwrap();
    assert!(got.to_string().starts_with("ArithTuple(_0,_0,_0) o ((_2,_2),_2,_2):"), "{got}");
}

#[test]
fn retile_errors_name_the_call() {
    let mma = "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{})";
    let copy = format!("make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>{{}},{mma})");
    for (src, kind) in [
        // a thread slice of a TiledMMA, a TiledCopy itself: not CuTe's ThrCopy
        (format!("retile_S(get_slice({mma},0),(_8,_2,_2))"), ErrorKind::Type),
        (format!("retile_S({copy},(_8,_2,_2))"), ErrorKind::Type),
        // a fragment of too few modes for the tile (CuTe rejects it too)
        (format!("retile_D(get_slice({copy},0),(_8,_2):(_1,_8))"), ErrorKind::Mismatch),
    ] {
        let e = eval(&src).unwrap_err();
        assert_eq!(e.kind(), kind, "{src}: {e}");
        assert!(e.to_string().starts_with("retile_") || e.to_string().starts_with("evaluate: retile_"), "{src}: {e}");
    }
}

// --- gmem and smem tensors ---------------------------------------------------------

/// The tensor algorithms on a gmem or smem tensor give the layout they give
/// the counting tensor of the same layout, and move the pointer by that
/// tensor's offset in elements (`bits/8` bytes each; a sub-byte pointer
/// names the byte and the element within it, as CuTe's `subptr`).
#[test]
fn pointer_tensors_move_by_the_counting_tensors_offset() {
    let ops = [
        "local_tile(@, (_16,_8), (1,_))",
        "local_tile(@, (_16,_8), (2,3))",
        "local_tile(@, (_8,_8,_4), (1,2,_), Step<_1,X,_1>{})",
        "local_partition(@, (_8,_4), 13)",
        "local_partition(local_tile(@, (_32,_32), (1,0)), (_4,_8), 30)",
        "zipped_divide(@, (_16,_8))",
        "@(_,5)",
        "@(3,_)(_)",
        "partition_A(get_slice(make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}),7), local_tile(@,(_16,_16),(1,2)))",
    ];
    for (elem, bits, base) in
        [("half_t", 16, 0), ("float", 32, 4096), ("double", 64, 256), ("uint8_t", 8, 3), ("float_e2m1_t", 4, 64)]
    {
        for layout in ["(64,96):(96,_1)", "(64,96):(_1,64)", "(_64,(_8,_12)):(_8,(_1,_512))"] {
            for op in ops {
                let gmem = format!("make_tensor(make_gmem_ptr<{elem}>({base}), {layout})");
                let counting = format!("make_tensor(counting, {layout})");
                let got = eval(&op.replace('@', &gmem)).unwrap_or_else(|e| panic!("{op} of {gmem}: {e}")).to_string();
                let want = eval(&op.replace('@', &counting)).unwrap().to_string();
                let (ptr, got_layout) = got.split_once(" o ").unwrap();
                let (iter, want_layout) = want.split_once(" o ").unwrap();
                assert_eq!(got_layout, want_layout, "{op} of {gmem}");
                let offset: i64 = iter
                    .trim_start_matches("counting_iter(")
                    .trim_end_matches(')')
                    .trim_start_matches('_')
                    .parse()
                    .unwrap();
                let at = base * 8 + offset * bits;
                let ptr_want = if bits < 8 {
                    format!("gmem_subptr[{bits}b]({:#x}.{})", at / 8, at % 8 / bits)
                } else {
                    format!("gmem_ptr[{bits}b]({:#x})", at / 8)
                };
                assert_eq!(ptr, ptr_want, "{op} of {gmem}");
            }
        }
    }
    // smem: the swizzle stays with the pointer
    let s = "make_tensor(make_smem_ptr<half_t>(1024), Sw<3,3,3> o _0 o (_64,_64):(_64,_1))";
    assert_eq!(
        eval(&format!("local_tile({s}, (_8,_64), (2,0))(_,3)")).unwrap().to_string(),
        "Sw<3,3,3>_smem_ptr[16b](0xc06) o (_8):(_64)"
    );
}

/// A gmem or smem tensor has no elements kute could read: reading or
/// printing one is an error saying so; its tiles are what TMA and bulk
/// copies take (a tile of a gmem tensor makes the TMA copy of the tensor
/// that starts there).
#[test]
fn pointer_tensors_are_read_by_nobody_and_taken_by_copies() {
    let g = "make_tensor(make_gmem_ptr<half_t>(0), (256,128):(128,_1))";
    for call in [format!("{g}(3,4)"), format!("print_tensor(local_tile({g}, (_2,_2), (0,0)))")] {
        let e = eval(&call).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Type, "{call}: {e}");
        assert!(e.to_string().contains("memory kute does not hold"), "{call}: {e}");
    }
    let tile = format!("local_tile({g}, (_128,_64), (1,1))");
    let tiled = eval(&format!("make_tma_copy(SM90_TMA_LOAD{{}}, {tile}, (_128,_64):(_64,_1))")).unwrap();
    let whole = eval("make_tma_copy(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr<half_t>(32896), (_128,_64):(128,_1)), (_128,_64):(_64,_1))").unwrap();
    assert_eq!(tiled.to_string(), whole.to_string());
    assert_eq!(eval(&format!("size({g})")).unwrap().to_string(), "32768");
}
