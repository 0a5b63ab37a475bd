//! Tests of single modules of the library, through its public API (and, for a
//! few internals, `kute::test_hooks`, built for the tests only), one module each.

/// What the modules' tests name.
mod prelude {
    pub use kute::atom::traits::*;
    pub use kute::evaluator::*;
    pub use kute::f2::*;
    pub use kute::iter::*;
    pub use kute::limits::*;
    pub use kute::print::svg;
    pub use kute::stride::*;
    pub use kute::swizzle::*;
    pub use kute::test_hooks::{esc, f, inline_leaf, shade, take_points};
    pub use kute::tree::*;
    pub use kute::{AnyLayout, ErrorKind, Int, Layout};
}

/// From `src/atom/traits.rs`.
mod atom_traits_unit {
    use super::prelude::*;

    #[test]
    fn atom_every_table_literal_parses() {
        for n in mma_op_names() {
            mma_traits(&n).unwrap_or_else(|e| panic!("{n}: {e}"));
        }
        for n in copy_op_names() {
            copy_traits(&n).unwrap_or_else(|e| panic!("{n}: {e}"));
        }
    }

    #[test]
    fn atom_split_and_errors() {
        assert!(mma_traits(" cute::SM80_16x8x8_F16F16F16F16_TN ").is_ok());
        assert_eq!(mma_traits("SM80_16x8x8_F16F16F16F16_TN<int>").unwrap_err().kind(), ErrorKind::Mismatch);
        assert_eq!(mma_traits("UniversalFMA<float").unwrap_err().kind(), ErrorKind::Parse);
        assert_eq!(mma_traits("UniversalFMA<a>>").unwrap_err().kind(), ErrorKind::Parse);
        assert_eq!(mma_traits("UniversalFMA<,>").unwrap_err().kind(), ErrorKind::Parse);
        assert_eq!(mma_traits("").unwrap_err().kind(), ErrorKind::UnknownName);
        assert_eq!(mma_traits("SM90_64x20x16_F16F16F16_SS").unwrap_err().kind(), ErrorKind::UnknownName);
        assert_eq!(mma_traits("SM90_64x40x32_S32S8S8_SS_TN").unwrap_err().kind(), ErrorKind::UnknownName);
        assert!(mma_traits("SM90_64x48x32_S32S8S8_SS_TN_SATURATE").is_ok());
        assert_eq!(mma_traits("SM90_64x64x32_F16F16F16_SS").unwrap_err().kind(), ErrorKind::UnknownName);
        assert_eq!(mma_traits("SM90_64x99999999999x16_F16F16F16_SS").unwrap_err().kind(), ErrorKind::UnknownName);
        assert_eq!(
            mma_traits("SM90_64x64x16_F16F16F16_RS<GMMA::Major::MN,GMMA::Major::K>").unwrap_err().kind(),
            ErrorKind::Inadmissible
        );
        assert_eq!(mma_traits("SM90_64x64x16_F16F16F16_SS<GMMA::Major::K>").unwrap_err().kind(), ErrorKind::Mismatch);
        assert!(mma_traits("SM90_64x64x16_F16F16F16_SS<GMMA::Major::MN,GMMA::Major::MN,GMMA::ScaleIn::Neg>").is_ok());
        assert!(mma_traits("SM90_64x64x8_F32TF32TF32_SS_TN<GMMA::ScaleIn::One,GMMA::ScaleIn::Neg>").is_ok());
        assert_eq!(
            mma_traits("SM90_64x64x8_F32TF32TF32_SS_TN<GMMA::Major::K>").unwrap_err().kind(),
            ErrorKind::Mismatch
        );
        assert_eq!(mma_traits("SM90_64x64x32_S32S8S8_SS_TN<>").unwrap_err().kind(), ErrorKind::Mismatch);
        let f = mma_traits("UniversalFMA<complex<double>>").unwrap();
        assert_eq!(f.val_types, ["complex<double>"; 4]);
        let f = mma_traits("UniversalFMA<float,half_t>").unwrap();
        assert_eq!(f.val_types, ["float", "half_t", "half_t", "float"]);
        assert_eq!(copy_traits("UniversalCopy<uint4_t>").unwrap_err().kind(), ErrorKind::Inadmissible);
        assert_eq!(copy_traits("UniversalCopy<foo>").unwrap_err().kind(), ErrorKind::UnknownName);
        assert_eq!(copy_traits("UniversalCopy").unwrap_err().kind(), ErrorKind::Mismatch);
        assert_eq!(copy_traits("SM80_CP_ASYNC_CACHEALWAYS<uint16_t>").unwrap_err().kind(), ErrorKind::Inadmissible);
        assert_eq!(
            copy_traits("SM80_CP_ASYNC_CACHEALWAYS<uint32_t,uint64_t>").unwrap_err().kind(),
            ErrorKind::Inadmissible
        );
        assert_eq!(
            copy_traits("AutoVectorizingCopyWithAssumedAlignment<7>").unwrap_err().kind(),
            ErrorKind::Inadmissible
        );
        assert_eq!(copy_traits("SM75_U32x4_LDSM_N<int>").unwrap_err().kind(), ErrorKind::Mismatch);
        let e = copy_traits("SM75_U32x4_LDSM").unwrap_err();
        assert!(e.message().contains("did you mean 'SM75_U32x4_LDSM_N'"), "{e}");
        let c = copy_traits("UniversalCopy<cutlass::half_t,uint16_t>").unwrap();
        assert_eq!(c.dst.to_string(), "(_1,_16):(_0,_1)");
        // non-ASCII text is an error, not a panic
        assert!(mma_traits("SM90_64x8x16_F16F16F16_SSé<ü>").is_err());
        assert!(copy_traits("é<").is_err());
    }
}

/// From `src/tree/buf.rs`.
mod tree_buf {
    use kute::test_hooks::Buf;

    #[test]
    fn spills_and_comes_back() {
        let mut b: Buf<u32, 4> = Buf::new();
        let mut model = Vec::new();
        for round in 0..3u32 {
            for i in 0..10 {
                b.push(i + round);
                model.push(i + round);
                assert_eq!(&*b, &model[..]);
            }
            assert_eq!(b.pop(), model.pop());
            b.truncate(2);
            model.truncate(2);
            assert_eq!(&*b, &model[..]);
            b.resize(6, 7);
            model.resize(6, 7);
            assert_eq!(&*b, &model[..]);
            b[1] = 99;
            model[1] = 99;
            assert_eq!(&*b, &model[..]);
            assert_eq!(b.clone(), Buf::from_slice(&model));
            // clone_from, from and into inline and spilled buffers
            let mut c: Buf<u32, 4> = Buf::from_slice(&[5; 9]);
            c.clone_from(&b);
            assert_eq!(&*c, &model[..]);
            let big: Buf<u32, 4> = Buf::from_slice(&[1, 2, 3, 4, 5, 6]);
            c.clone_from(&big);
            assert_eq!(&*c, &[1, 2, 3, 4, 5, 6]);
            c.extend_from_slice(&[7]);
            assert_eq!(&*c, &[1, 2, 3, 4, 5, 6, 7]);
            b.clear();
            model.clear();
            assert!(b.is_empty());
        }
        while b.pop().is_some() {}
        for i in 0..3 {
            b.push(i);
        }
        assert_eq!(&*b, &[0, 1, 2]);
    }
}

/// From `src/tree/mod.rs`.
mod tree {
    use super::prelude::*;

    fn sample() -> Tree<i32> {
        // (1,(2,3),(),4)
        Tree::build(|b| {
            b.open();
            b.leaf(1);
            b.open();
            b.leaf(2);
            b.leaf(3);
            b.close();
            b.open();
            b.close();
            b.leaf(4);
            b.close();
        })
    }

    #[test]
    fn inline_leaf_is_a_leaf_held_inline() {
        assert_eq!(inline_leaf(&Tree::leaf(5)), Some(5));
        assert_eq!(inline_leaf(&sample()), None);
        // a one-element tuple is not a leaf
        let one = Tree::build(|b| {
            b.open();
            b.leaf(7);
            b.close();
        });
        assert_eq!(inline_leaf(&one), None);
        let mut wide = Tree::build(|b| {
            b.open();
            for i in 0..100 {
                b.leaf(i);
            }
            b.close();
        });
        assert_eq!(inline_leaf(&wide), None);
        // a leaf rebuilt into buffers that had spilled is declined or read
        // right, never misread
        let mut b = Builder::new(&mut wide);
        b.leaf(3);
        drop(b);
        assert!(wide.is_leaf());
        assert!(matches!(inline_leaf(&wide), None | Some(3)), "{:?}", inline_leaf(&wide));
    }

    #[test]
    fn navigation() {
        let t = sample();
        assert_eq!(t.rank(), 4);
        assert_eq!(t.depth(), 2);
        let kids: Vec<_> = t.as_ref().children().collect();
        assert_eq!(kids[0].as_leaf(), Some(1));
        assert_eq!(kids[1].leaves(), &[2, 3]);
        assert_eq!(kids[2].rank(), 0);
        assert_eq!(kids[3].as_leaf(), Some(4));
        assert_eq!(t.flatten().leaves(), &[1, 2, 3, 4]);
        assert_eq!(Tree::leaf(5).depth(), 0);
        let empty: Tree<i32> = Tree::tuple(std::iter::empty());
        assert_eq!(empty.depth(), 1);
        assert_eq!(empty.rank(), 0);
    }
}

/// From `src/syntax/mod.rs`.
mod syntax_layers {
    /// The code lines (not comments) of a source file that name a module of the crate.
    fn uses(src: &str) -> Vec<&str> {
        src.lines().map(str::trim).filter(|l| !l.starts_with("//") && l.contains("crate::")).collect()
    }

    #[test]
    fn the_parser_knows_no_values() {
        for l in uses(include_str!("../src/syntax/parse.rs")) {
            assert!(
                l.starts_with("use crate::error::")
                    || l.contains("crate::arith::gcd_i64")
                    || l.contains("crate::tree::MAX_DEPTH")
                    || l.contains("crate::limits::MAX_SOURCE"),
                "parse.rs: {l}"
            );
        }
    }

    #[test]
    fn literals_evaluate_nothing() {
        for l in uses(include_str!("../src/syntax/literal.rs")) {
            assert!(!l.contains("crate::expr"), "literal.rs: {l}");
            assert!(!l.contains("crate::algebra"), "literal.rs: {l}");
        }
    }
}

/// From `src/evaluator.rs`.
mod evaluator {
    use super::prelude::*;

    #[test]
    fn fast_divmod_exact() {
        for d in (2u64..300).chain([641, 1 << 20, (1 << 20) + 1, (1 << 61) - 1, (1 << 61) + 1, (1 << 62) - 1]) {
            let f = FastDivmod::new(d).unwrap();
            let probes =
                (0u64..2000).chain((0..2000).map(|k| FastDivmod::LIMIT - 1 - k * 7919)).chain((1..64).flat_map(|b| {
                    let p = 1u64 << b.min(61);
                    [p - 1, p, p + 1, d.saturating_mul(p.min(1 << 40)), d.saturating_mul(3) - 1]
                }));
            for n in probes.filter(|&n| n < FastDivmod::LIMIT) {
                assert_eq!(f.divmod(n), (n / d, n % d), "{n} / {d}");
            }
        }
        assert!(FastDivmod::new(0).is_none());
        assert!(FastDivmod::new(1).is_none());
        assert!(FastDivmod::new(1 << 62).is_none());
    }

    #[test]
    fn evaluator_matches_eval() {
        for s in [
            "(128,128):(1,128)",
            "((8,16),(4,32)):((1,256),(8,32))",
            "(_4,(_8,_4)):(_32,(_1,_8))",
            "((3,5),(7,(2,6))):((35,1),(5,(0,-210)))",
            "(1,1):(0,0)",
            "7:-3",
            "(2,(1,6)):(1,(6,2))",
            "((3,4),5,(6,2),7):((1,180),3,(30,15),720)",
            "(1000,3,(7,9)):(1,-5000,(2,3))",
            "(300,2,300,5):(7,1,3,11)",
        ] {
            let l: Layout = s.parse().unwrap();
            let e = l.evaluator().unwrap();
            let n = l.size().unwrap().value();
            for i in -5..n + 20 {
                assert_eq!(e.eval(i).unwrap(), l.eval(i).unwrap(), "{s} at {i}");
            }
            let mut all = Vec::new();
            e.for_each(-5..n + 20, |x| all.push(x)).unwrap();
            let want: Vec<i64> = (-5..n + 20).map(|i| l.eval(i).unwrap()).collect();
            assert_eq!(all, want, "{s}: for_each");
            for (a, b) in [(-5, n + 20), (0, n), (1, n - 1), (3, 4), (n, n + 3), (-3, -1), (5, 2)] {
                let mut got = Vec::new();
                e.for_each_in(a..b, |x| got.push(x)).unwrap();
                let want: Vec<i64> = (a..b).map(|i| l.eval(i).unwrap()).collect();
                assert_eq!(got, want, "{s}: for_each_in({a}..{b})");
            }
        }
    }
}

/// From `src/error.rs`.
mod error {
    use kute::test_hooks::char_count;

    #[test]
    fn char_counts_handle_multibyte_text() {
        assert_eq!(char_count("aé(", 3), 2);
        assert_eq!(char_count("aé(", 2), 1); // inside 'é': the character before
        assert_eq!(char_count("ab", 4), 4);
    }
}

/// From `src/arith.rs`, through `Int::gcd` (`src/int.rs`), its concrete case.
mod arith {
    use super::prelude::*;

    #[test]
    fn gcd_of_absolute_values_saturating_at_the_top() {
        let gcd = |a: i64, b: i64| Int::new_dynamic(a).gcd(Int::new_dynamic(b)).unwrap().value();
        assert_eq!((gcd(0, 0), gcd(12, 0), gcd(0, -12), gcd(-12, 18), gcd(12, -18)), (0, 12, 12, 6, 6));
        assert_eq!((gcd(i64::MIN, 0), gcd(i64::MIN, i64::MIN), gcd(i64::MIN, 6)), (i64::MAX, i64::MAX, 2));
        assert_eq!((gcd(i64::MAX, i64::MIN), gcd(i64::MAX, 7 * 73)), (1, 7 * 73));
    }
}

/// From `src/f2/mod.rs`.
mod f2 {
    use super::prelude::*;

    fn any(src: &str) -> AnyLayout {
        kute::expr::eval(src).unwrap().to_any_layout("l").unwrap()
    }

    fn same_function(a: &AnyLayout, b: &AnyLayout) -> bool {
        let n = a.size().unwrap().value();
        n == b.size().unwrap().value()
            && (0..n).all(|i| {
                a.eval_int(Int::new_dynamic(i)).unwrap().value() == b.eval_int(Int::new_dynamic(i)).unwrap().value()
            })
    }

    /// Every swizzle atom CuTe's GMMA and SM80 kernels use, on element
    /// offsets, for 1-, 2- and 4-byte elements: to Triton's form and back,
    /// the same function.
    #[test]
    fn swizzle_atoms_round_trip() {
        let mut atoms = Vec::new();
        // rows of 16, 32, 64, 128 bytes (INTER, SW32, SW64, SW128); the swizzle
        // keeps 16-byte pieces whole, so its base is log2(16 / element bytes)
        for (b, bytes) in [(0, 16), (1, 32), (2, 64), (3, 128)] {
            for (elem, m) in [(1, 4), (2, 3), (4, 2)] {
                let cols = bytes / elem;
                atoms.push(format!("Sw<{b},{m},3> o _0 o (_8,_{cols}):(_{cols},_1)")); // K-major
                atoms.push(format!("Sw<{b},{m},3> o _0 o (_{cols},_8):(_1,_{cols})"));
                // MN-major
            }
        }
        atoms.push("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)".into());
        atoms.push("Sw<2,0,2> o _0 o (_4,_4):(_4,_1)".into());
        for a in atoms {
            let l = any(&a);
            let ll = LinearLayout::of(&l).unwrap();
            let back = ll.to_layout().unwrap();
            assert!(same_function(&l, &back), "{a} -> {ll} -> {back}");
            // the matrix reproduces every value
            let m = BitMatrix::of(&l).unwrap();
            for x in 0..l.size().unwrap().value() {
                assert_eq!(m.apply(x), l.eval_int(Int::new_dynamic(x)).unwrap().value());
            }
        }
    }

    #[test]
    fn non_linear_maps_are_errors() {
        assert!(BitMatrix::of(&any("(_3,_4):(_1,_3)")).is_err()); // size 12
        assert!(BitMatrix::of(&any("(_2,_2):(_1,_1)")).is_err()); // 1 + 1 = 2, not 1 xor 1
        assert!(BitMatrix::of(&any("Sw<1,0,1> o _1 o _4:_1")).is_err()); // offset: L(0) != 0
                                                                         // a map no swizzle straightens
        let ll = LinearLayout::new(vec![("dim0".into(), vec![3, 5, 6])], 8).unwrap();
        assert!(ll.to_layout().is_err());
    }
}

/// From `src/limits.rs`.
mod limits {
    use super::prelude::*;

    #[test]
    fn evaluations_share_the_point_budget_and_operations_alone_do_not() {
        // alone: each call has the whole budget
        for _ in 0..3 {
            take_points(MAX_POINTS, "t", String::new).unwrap();
        }
        with_point_budget(|| {
            take_points(MAX_POINTS - 10, "t", String::new).unwrap();
            with_point_budget(|| take_points(10, "t", String::new).unwrap());
            assert!(take_points(1, "t", String::new).is_err());
        });
        // closed: a new evaluation starts from zero
        with_point_budget(|| take_points(MAX_POINTS, "t", String::new).unwrap());
    }
}

/// From `src/iter.rs`.
mod iter {
    use super::prelude::*;

    fn reference(l: &Layout) -> Vec<i64> {
        let n = l.size().unwrap().value().max(0);
        (0..n).map(|i| l.eval(i).unwrap()).collect()
    }

    #[test]
    fn next_and_fold_agree_with_eval() {
        for s in [
            "(2,3):(3,1)",
            "(128,128):(1,128)",
            "((8,16),(4,32)):((1,256),(8,32))",
            "(_4,(_8,_4)):(_32,(_1,_8))",
            "((3,1),(1,5)):((7,0),(0,-2))",
            "((3,4),5,(6,2),7):((1,180),3,(30,15),720)",
            "((2,3),(1,2),(2,1,2),3):((1,-2),(9,4),(7,3,-11),5)",
            "(1,1):(0,0)",
            "():()",
            "5:0",
            "(3,0):(1,3)",
            // the three-mode path's bounds (strides of magnitude 2^20 - 1 in, 2^20 out)
            "(2,3):(-1048575,1048575)",
            "(2,3,2):(-1048576,1048576,1)",
            "(3,1,2):(1,5,3)",
        ] {
            let l: Layout = s.parse().unwrap();
            let want = reference(&l);
            let got: Vec<i64> = Indices::new(&l).unwrap().collect();
            assert_eq!(got, want, "next() on {s}");
            let mut folded = Vec::new();
            Indices::new(&l).unwrap().for_each(|i| folded.push(i));
            assert_eq!(folded, want, "fold() on {s}");
            // fold after partial external iteration
            for skip in 0..want.len().min(13) {
                let mut it = Indices::new(&l).unwrap();
                let mut v: Vec<i64> = it.by_ref().take(skip).collect();
                it.for_each(|i| v.push(i));
                assert_eq!(v, want, "take({skip}) then fold on {s}");
            }
        }
    }

    /// Flat layouts of dynamic integers from `(extent, stride)` lists.
    fn flat(leaves: &[(i64, i64)]) -> Layout {
        crate::common::lay(&crate::common::T::flat(leaves).d())
    }

    #[test]
    fn many_leaves_agree_with_eval() {
        // more leaves of extent above 1 than any fixed inline capacity, extents
        // of 1 between them, negative strides, nesting
        let mut cases: Vec<Layout> = [
            "(2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2):(1,4,2,8,32,16,64,256,128,512,2048,1024,4096,16384,8192,32768,65536)",
            "((2,1,3),(1,2),(3,1,1,2),(2,3,1),(2,2),5,(1,3)):((1,7,2),(5,-6),(12,9,0,-36),(72,144,1),(432,-864),1728,(3,8640))",
            "(3,(2,(2,(2,(2,(2,(2,(2,2)))))))):(-1,(3,(6,(12,(24,(48,(96,(192,384))))))))",
        ]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
        // twelve leaves of extents 2..=4 with strides of both signs
        let mut x = 0x2545_f491_u64;
        for _ in 0..6 {
            let leaves: Vec<(i64, i64)> = (0..12)
                .map(|_| {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (2 + (x >> 61) as i64 % 3, ((x >> 40) % 2001) as i64 - 1000)
                })
                .collect();
            cases.push(flat(&leaves));
        }
        for l in &cases {
            let want = reference(l);
            assert!(want.len() < 1 << 21, "{l}: too large to traverse in a test");
            assert_eq!(Indices::new(l).unwrap().collect::<Vec<_>>(), want, "next() on {l}");
            let mut folded = Vec::with_capacity(want.len());
            Indices::new(l).unwrap().for_each(|i| folded.push(i));
            assert_eq!(folded, want, "fold() on {l}");
            for skip in [1, 7, 100, want.len() / 3] {
                let mut it = Indices::new(l).unwrap();
                let mut v: Vec<i64> = it.by_ref().take(skip).collect();
                it.for_each(|i| v.push(i));
                assert_eq!(v, want, "take({skip}) then fold on {l}");
            }
        }
    }

    #[test]
    fn nth_jumps_to_l_of_i() {
        // domains far too large to walk: 60 leaves of extent 2, 39 of extent 3
        // (coordinates packed past 64 bits), wide extents, extents of 1
        let mut strides2: Vec<i64> = (0..60).map(|k| 1i64 << k).collect();
        strides2.reverse();
        strides2.swap(3, 40);
        let two: Vec<(i64, i64)> =
            strides2.iter().enumerate().map(|(k, &d)| (2, if k % 3 == 0 { -d } else { d })).collect();
        let three: Vec<(i64, i64)> = (0..39).map(|k| (3, 3i64.pow(k))).collect();
        let mut three_rev = three.clone();
        three_rev.reverse();
        let cases = [
            flat(&two),
            flat(&three),
            flat(&three_rev),
            flat(&[(2, 1), (3, 2), (2, 6), (1 << 30, 12), (5, 0), (1, 7), (1 << 16, -(1 << 33)), (3, 1)]),
            flat(&[(5, 1), (1, 3), (7, 5), (1, 0), (9, 35), (1 << 20, 315), (1, 1), (1 << 30, 330301440)]),
        ];
        for l in &cases {
            let size = l.size().unwrap().value() as u64;
            // positions: the ends, every prefix product of the extents and its
            // neighbours (where carries start), and pseudo-random ones
            let mut at: Vec<u64> = vec![0, 1, size - 1, size - 2, size / 2];
            let mut p = 1u64;
            for m in l.leaves() {
                p = p.saturating_mul(m.shape.value() as u64);
                if p < size {
                    at.extend([p - 1, p, p + 1]);
                }
            }
            let mut x = 0x9e37_79b9_u64;
            for _ in 0..200 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                at.push(x % size);
            }
            for &i in &at {
                let mut it = Indices::new(l).unwrap();
                assert_eq!(it.nth(i as usize), Some(l.eval(i as i64).unwrap()), "nth({i}) on {l}");
                assert_eq!(it.len() as u64, size - i - 1, "len after nth({i}) on {l}");
                // the odometer goes on from there, and a second jump adds up
                for k in i + 1..(i + 40).min(size) {
                    assert_eq!(it.next(), Some(l.eval(k as i64).unwrap()), "next() at {k} after nth({i}) on {l}");
                }
                let mut it = Indices::new(l).unwrap();
                let half = (size - i) / 2;
                it.nth(i as usize);
                if i + 1 + half < size {
                    let j = i + 1 + half;
                    assert_eq!(it.nth(half as usize), Some(l.eval(j as i64).unwrap()), "nth({i}), nth({half}) on {l}");
                }
            }
            let mut it = Indices::new(l).unwrap();
            assert_eq!(it.nth(size as usize), None, "nth(size) on {l}");
            assert_eq!(it.next(), None, "next() after nth(size) on {l}");
        }
        // small domains: nth agrees with walking, on every path
        for s in ["(4,8,4):(32,1,8)", "((3,4),5,(6,2),7):((1,180),3,(30,15),720)", "(3,0):(1,3)", "7:3"] {
            let l: Layout = s.parse().unwrap();
            let want = reference(&l);
            for i in 0..=want.len() {
                assert_eq!(Indices::new(&l).unwrap().nth(i), want.get(i).copied(), "nth({i}) on {s}");
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        /// Random flat layouts, 1 to 24 leaves, extents 1 to 6, 0, or up to 2^20,
        /// strides up to ±2^40: `Indices::new` is an error only where a size or
        /// an index overflows (or an extent is negative, never here), and
        /// otherwise walking, folding and jumping agree with `L(i)`.
        #[test]
        fn random_layouts_walk_and_jump_as_l_of_i(
            leaves in proptest::collection::vec(
                (proptest::prop_oneof![30 => 1i64..7, 1 => proptest::strategy::Just(0i64), 4 => 1i64..(1 << 20)], -(1i64 << 40)..(1i64 << 40)),
                1..25,
            ),
            at in proptest::collection::vec(proptest::prelude::any::<u64>(), 8),
        ) {
            let l = flat(&leaves);
            let it = match Indices::new(&l) {
                Ok(it) => it,
                Err(e) => {
                    proptest::prop_assert_eq!(e.kind(), ErrorKind::Overflow, "{}: {}", l, e);
                    return Ok(());
                }
            };
            let size = l.size().unwrap().value() as u64;
            proptest::prop_assert_eq!(it.len() as u64, size);
            if size <= 4096 {
                let want = reference(&l);
                proptest::prop_assert_eq!(it.collect::<Vec<_>>(), want.clone(), "next() on {}", l);
                let mut folded = Vec::new();
                Indices::new(&l).unwrap().for_each(|i| folded.push(i));
                proptest::prop_assert_eq!(folded, want, "fold() on {}", l);
            }
            for x in at {
                let i = if size == 0 { x } else { x % size };
                let mut it = Indices::new(&l).unwrap();
                let got = it.nth(i as usize);
                let want = (i < size).then(|| l.eval(i as i64).unwrap());
                proptest::prop_assert_eq!(got, want, "nth({}) on {}", i, l);
                if i + 1 < size {
                    proptest::prop_assert_eq!(it.next(), Some(l.eval(i as i64 + 1).unwrap()), "next() after nth({}) on {}", i, l);
                }
            }
        }
    }

    #[test]
    fn basis_strides_are_refused() {
        // small layouts (the loop-nest path) and larger ones alike
        for src in ["make_identity_layout((2,3))", "make_identity_layout((4))", "make_identity_layout((2,3,2,2,2))"] {
            let l = kute::expr::parse_layout(src).unwrap();
            let e = Indices::new(&l).unwrap_err();
            assert!(e.to_string().contains("iterate"), "{src}: {e}");
        }
    }

    #[test]
    fn zero_extents_are_empty_and_negative_ones_refused() {
        for s in ["(3,0):(1,3)", "(0,2):(1,1)", "((2,0),3):((1,2),4)"] {
            let l: Layout = s.parse().unwrap();
            assert_eq!(Indices::new(&l).unwrap().count(), 0, "{s}");
        }
        for s in ["(-2,-3):(1,2)", "-4:1", "(2,(3,-1)):(1,(2,6))"] {
            let e = s.parse::<Layout>().unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Inadmissible, "{s}");
        }
        // one made leaf by leaf
        for n in [-4, -1] {
            let l = Layout::leaf(Int::new_dynamic(n), Int::ONE);
            let e = Indices::new(&l).unwrap_err();
            let s = l.to_string();
            assert_eq!(e.kind(), ErrorKind::Inadmissible, "{s}");
            assert!(e.to_string().contains("negative extent"), "{s}: {e}");
        }
    }
}

/// From `src/stride.rs`.
mod stride {
    use super::prelude::*;

    #[test]
    fn paths_round_trip_and_print_innermost_first() {
        for path in [&[][..], &[0], &[3], &[1, 0], &[2, 0, 1], &[255, 0, 7, 1, 2, 3, 4]] {
            let s = Stride::basis(Int::new_static(5), path).unwrap();
            assert_eq!(s.path().as_slice(), path);
            assert_eq!(s.depth(), path.len());
            let printed: String = path.iter().rev().map(|i| format!("@{i}")).collect();
            assert_eq!(s.to_string(), format!("_5{printed}"));
            assert_eq!(s.is_int(), path.is_empty());
        }
        assert!(Stride::basis(Int::ONE, &[0; 8]).is_err());
    }

    #[test]
    fn integers_are_their_int() {
        for x in [Int::new_static(-3), Int::new_dynamic(7), Int::ZERO] {
            let s = Stride::from(x);
            assert_eq!(s.as_int(), Some(x));
            assert_eq!(s.to_string(), x.to_string());
        }
        let e = Stride::basis(Int::ONE, &[0]).unwrap();
        assert_eq!(e.as_int(), None);
        assert!(!e.same(Stride::ONE));
        assert!(e.same(e.to_dynamic()));
        assert!(!e.same(Stride::basis(Int::ONE, &[1]).unwrap()));
    }
}

/// From `src/swizzle/mod.rs`.
mod swizzle {
    use super::prelude::*;

    /// The masks by their definition, bit by bit.
    #[test]
    fn masks_and_application_match_the_definition() {
        for b in 0..4 {
            for m in 0..5 {
                for s in -6i64..=6 {
                    let Ok(sw) = Swizzle::new(b, m, s) else {
                        assert!(s.abs() < b);
                        continue;
                    };
                    for x in 0..4096i64 {
                        let mut want = x;
                        for k in 0..b {
                            let ybit = m + s.max(0) + k;
                            let zbit = m - s.min(0) + k;
                            want ^= ((x >> ybit) & 1) << zbit;
                        }
                        assert_eq!(sw.apply(x), want, "{sw} at {x}");
                    }
                    if b > 0 {
                        assert_eq!(Swizzle::from_masks(sw.yyy_mask(), sw.zzz_mask()).unwrap(), sw);
                    }
                }
            }
        }
    }

    #[test]
    fn composition_is_the_composite() {
        let a = Swizzle::new(3, 4, 3).unwrap();
        let b = Swizzle::new(2, 4, 3).unwrap();
        let c = a.compose(b).unwrap();
        for x in 0..4096 {
            assert_eq!(c.apply(x), a.apply(b.apply(x)));
        }
        assert!(a.compose(Swizzle::new(2, 4, 4).unwrap()).is_err());
        // exhaustively over small swizzles: an answer is always the composite
        for (b0, m0, b1, m1, s) in small_pairs() {
            let (x, y) = (Swizzle::new(b0, m0, s).unwrap(), Swizzle::new(b1, m1, s).unwrap());
            if let Ok(c) = x.compose(y) {
                for v in 0..1 << 12 {
                    assert_eq!(c.apply(v), x.apply(y.apply(v)), "{x} o {y} = {c} at {v}");
                }
            }
        }
    }

    /// Pairs of small swizzles of one shift (both signs).
    fn small_pairs() -> Vec<(i64, i64, i64, i64, i64)> {
        let mut v = Vec::new();
        for s in [-3i64, -2, -1, 1, 2, 3] {
            for b0 in 0..=s.abs() {
                for b1 in 0..=s.abs() {
                    for m0 in 0..4 {
                        for m1 in 0..4 {
                            v.push((b0, m0, b1, m1, s));
                        }
                    }
                }
            }
        }
        v
    }
}

/// From `src/print/svg.rs`.
mod svg {
    use super::prelude::*;

    #[test]
    fn shades_follow_the_palette() {
        assert_eq!(shade(0), ("#ffffff".to_string(), "#000000"));
        assert_eq!(shade(1), ("#999999".to_string(), "#000000")); // black!40
        assert_eq!(shade(3), ("#666666".to_string(), "#ffffff")); // black!60
        assert_eq!(shade(7), ("#4d4d4d".to_string(), "#ffffff")); // black!70
        assert_eq!(shade(-1), shade(7));
    }

    #[test]
    fn numbers_are_short() {
        assert_eq!(f(12.0), "12");
        assert_eq!(f(12.25), "12.3");
        assert_eq!(esc("a<b&\"c\">"), "a&lt;b&amp;&quot;c&quot;&gt;");
    }

    #[test]
    fn huge_grids_are_refused() {
        let l: Layout = "(512,512):(1,512)".parse().unwrap();
        let e = svg(&l).unwrap_err();
        assert!(e.to_string().contains("65536"), "{e}");
        let l: Layout = "(256,256):(1,256)".parse().unwrap();
        assert!(svg(&l).is_ok());
    }

    #[test]
    fn rank_three_is_an_error() {
        let l: Layout = "(2,2,2):(1,2,4)".parse().unwrap();
        assert!(svg(&l).is_err());
    }
}

/// From `src/print/mod.rs`: coordinate layouts are drawn with a coordinate
/// in each cell, as `print_tensor` shows an identity tensor.
mod print_coordinates {
    use kute::expr::eval;

    fn layout(src: &str) -> kute::Layout {
        eval(src).unwrap().as_layout().unwrap().clone()
    }

    #[test]
    fn identity_layouts_show_each_cell_s_coordinate() {
        for (rows, cols) in [(1, 1), (4, 4), (3, 5), (8, 2)] {
            let l = layout(&format!("make_identity_layout((_{rows},_{cols}))"));
            let table = kute::print::table(&l).unwrap();
            let latex = kute::print::latex(&l).unwrap();
            let svg = kute::print::svg(&l).unwrap();
            for m in 0..rows {
                // the table's row m: its cells in order
                let line = table.lines().nth(3 + 2 * m as usize).unwrap();
                let cells: Vec<&str> = line.split('|').skip(1).map(str::trim).filter(|c| !c.is_empty()).collect();
                let want: Vec<String> = (0..cols).map(|n| format!("({m},{n})")).collect();
                assert_eq!(cells, want, "{l} row {m}:\n{table}");
                for n in 0..cols {
                    assert!(latex.contains(&format!("at ({m},{n}) {{({m},{n})}};")), "{l} ({m},{n})");
                    assert!(svg.contains(&format!(">({m},{n})</text>")), "{l} ({m},{n})");
                }
            }
        }
        // a nested mode: the row index m is the coordinate ((m % 2, m / 2))
        let l = layout("make_identity_layout(((_2,_2),_3))");
        let table = kute::print::table(&l).unwrap();
        for m in 0..4 {
            let line = table.lines().nth(3 + 2 * m).unwrap();
            assert!(line.contains(&format!("| (({},{}),2) |", m % 2, m / 2)), "{line}");
        }
        // indices are drawn as before, and a picture of coordinates has no banks
        assert!(kute::print::table(&layout("(_2,_2):(_1,_2)")).unwrap().contains("| 3 |"));
        let opts = kute::print::SvgOptions { banks: Some(2), marks: vec![] };
        assert!(kute::print::svg_with(&layout("make_identity_layout((_2,_2))"), &opts).is_err());
    }
}
