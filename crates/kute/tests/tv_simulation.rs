//! Proof on the CPU that kute's thread partitions are right: simulated
//! threads run a tiled MMA exactly as a kernel does, and the result must be
//! the plain matrix product; tiled copies must move every element once.
//!
//! The simulation of an MMA: every thread reads only its own fragments of A,
//! B and C through `thrfrg_A/B/C` (its slice at its (V,M,N,K) thread
//! coordinate); each instruction then gathers, for one group of atom threads,
//! the atom's A, B and C tiles from those registers through the atom's own
//! `ALayout/BLayout/CLayout` (which is what the hardware instruction means),
//! multiplies them, and gives each thread back its C values; finally every
//! thread writes only its C fragment. The reference is `C(m,n) = Σ_k A(m,k)·B(n,k)`.

use kute::atom::{CopyAtom, MmaAtom, Operand, TiledCopy, TiledMma};
use kute::{Layout, Tiler};

fn lay(s: &str) -> Layout {
    s.parse().unwrap()
}

/// `l(x0, x1)` of a rank-2 layout, by the 1-D coordinate `x0 + size<0>·x1`.
fn at2(l: &Layout, x0: i64, x1: i64) -> i64 {
    l.eval(x0 + mode_size(l, 0) * x1).unwrap()
}

/// The fragment of thread coordinate `thr` (a text such as `(3,(1,0))`) in a
/// `((Thr...),(Frg...))` layout: the offset and the layout of its values.
fn fragment(l: &Layout, thr: &str) -> (i64, Layout) {
    let c = kute::expr::parse_coord(&format!("({thr},_)")).unwrap();
    let (f, off) = l.slice_and_offset(&c).unwrap();
    (off.as_int().unwrap().value(), f)
}

fn size(l: &Layout) -> i64 {
    l.size().unwrap().value()
}

fn mode_size(l: &Layout, i: usize) -> i64 {
    l.mode(i).unwrap().size().unwrap().value()
}

/// A deterministic small integer for element `i` of matrix `seed`.
fn value(seed: i64, i: i64) -> i64 {
    ((i * 7919 + seed * 104729) % 17) - 8
}

/// Run the tiled MMA `m` on one tile with simulated threads; compare with the
/// plain product.
fn simulate(m: &TiledMma) {
    let shape = m.tile_shape().unwrap();
    let dim = |i| shape.get(i).unwrap().as_int().unwrap().value();
    let (tm, tn, tk) = (dim(0), dim(1), dim(2));
    let a: Vec<i64> = (0..tm * tk).map(|i| value(1, i)).collect(); // A(m,k) at m + k·TM
    let b: Vec<i64> = (0..tn * tk).map(|i| value(2, i)).collect(); // B(n,k) at n + k·TN
    let mut c = vec![i64::MIN; (tm * tn) as usize];

    let fa = m.thrfrg(Operand::A, &lay(&format!("(_{tm},_{tk}):(_1,_{tm})"))).unwrap();
    let fb = m.thrfrg(Operand::B, &lay(&format!("(_{tn},_{tk}):(_1,_{tn})"))).unwrap();
    let fc = m.thrfrg(Operand::C, &lay(&format!("(_{tm},_{tn}):(_1,_{tm})"))).unwrap();
    let vmnk = m.thr_layout_vmnk();
    let (nv, nm, nn, nk) = (mode_size(vmnk, 0), mode_size(vmnk, 1), mode_size(vmnk, 2), mode_size(vmnk, 3));
    let atom = m.atom();
    let amnk = atom.shape_mnk();
    let (am, an, ak) = (
        amnk.get(0).unwrap().size().unwrap().value(),
        amnk.get(1).unwrap().size().unwrap().value(),
        amnk.get(2).unwrap().size().unwrap().value(),
    );
    // the fragment of one thread: (FrgV, (Rest0, Rest1)) of each operand
    let frg = |f: &Layout| f.mode(1).unwrap();
    let (ga, gb, gc) = (frg(&fa), frg(&fb), frg(&fc));
    let (va, vb, vc) = (mode_size(&ga, 0), mode_size(&gb, 0), mode_size(&gc, 0));
    let rest = |g: &Layout| {
        let r = g.mode(1).unwrap();
        (mode_size(&r, 0), mode_size(&r, 1))
    };
    let ((rm, rka), (rn, rkb), (rm_c, rn_c)) = (rest(&ga), rest(&gb), rest(&gc));
    assert_eq!((rka, rm, rn), (rkb, rm_c, rn_c));
    // registers by thread index (the indices need not be 0..n: SM70's quad pairs)
    let slots = vmnk.cosize().unwrap().value() as usize;
    let mut reg_a = vec![vec![0i64; (va * rm * rka) as usize]; slots];
    let mut reg_b = vec![vec![0i64; (vb * rn * rkb) as usize]; slots];
    let mut reg_c = vec![vec![0i64; (vc * rm * rn) as usize]; slots];
    let all_threads: Vec<(i64, i64, i64, i64, i64)> = itertools(nv, nm, nn)
        .into_iter()
        .flat_map(|(v, x, y)| (0..nk).map(move |z| (v, x, y, z)))
        .map(|(v, x, y, z)| (vmnk.eval(v + nv * (x + nm * (y + nn * z))).unwrap(), v, x, y, z))
        .collect();
    for &(t, v, tm_, tn_, tk_) in &all_threads {
        let (oa, fa_t) = fragment(&fa, &format!("({v},({tm_},{tk_}))"));
        let (ob, fb_t) = fragment(&fb, &format!("({v},({tn_},{tk_}))"));
        for (i, r) in reg_a[t as usize].iter_mut().enumerate() {
            *r = a[(oa + fa_t.eval(i as i64).unwrap()) as usize];
        }
        for (i, r) in reg_b[t as usize].iter_mut().enumerate() {
            *r = b[(ob + fb_t.eval(i as i64).unwrap()) as usize];
        }
    }

    // the instructions: one per (thread group M, N, K) and (rest M, N, K)
    let (la, lb, lc) = (atom.layout_a_tv(), atom.layout_b_tv(), atom.layout_c_tv());
    for (gm, gn, gk) in itertools(nm, nn, nk) {
        for (r_m, r_n, r_k) in itertools(rm, rn, rka) {
            let mut tile_a = vec![None; (am * ak) as usize];
            let mut tile_b = vec![None; (an * ak) as usize];
            let mut tile_c = vec![0i64; (am * an) as usize];
            let thread = |v: i64| vmnk.eval(v + nv * (gm + nm * (gn + nn * gk))).unwrap();
            for v in 0..nv {
                let t = thread(v) as usize;
                for j in 0..va {
                    let x = reg_a[t][(j + va * (r_m + rm * r_k)) as usize];
                    let p = at2(la, v, j) as usize;
                    assert!(tile_a[p].is_none_or(|y| y == x), "A element {p} read twice, differently");
                    tile_a[p] = Some(x);
                }
                for j in 0..vb {
                    let x = reg_b[t][(j + vb * (r_n + rn * r_k)) as usize];
                    let p = at2(lb, v, j) as usize;
                    assert!(tile_b[p].is_none_or(|y| y == x), "B element {p} read twice, differently");
                    tile_b[p] = Some(x);
                }
                for j in 0..vc {
                    tile_c[at2(lc, v, j) as usize] = reg_c[t][(j + vc * (r_m + rm * r_n)) as usize];
                }
            }
            for i in 0..am {
                for jn in 0..an {
                    let mut s = tile_c[(i + am * jn) as usize];
                    for k in 0..ak {
                        let x = tile_a[(i + am * k) as usize].expect("every A element of the atom is read");
                        let y = tile_b[(jn + an * k) as usize].expect("every B element of the atom is read");
                        s += x * y;
                    }
                    tile_c[(i + am * jn) as usize] = s;
                }
            }
            for v in 0..nv {
                let t = thread(v) as usize;
                for j in 0..vc {
                    reg_c[t][(j + vc * (r_m + rm * r_n)) as usize] = tile_c[at2(lc, v, j) as usize];
                }
            }
        }
    }

    // each thread writes only its C fragment (threads along K hold partial sums: add them)
    for &(t, v, tm_, tn_, _) in &all_threads {
        let (oc, fc_t) = fragment(&fc, &format!("({v},({tm_},{tn_}))"));
        for (i, &x) in reg_c[t as usize].iter().enumerate() {
            let idx = (oc + fc_t.eval(i as i64).unwrap()) as usize;
            c[idx] = if c[idx] == i64::MIN { x } else { c[idx] + x };
        }
    }
    for i in 0..tm {
        for j in 0..tn {
            let want: i64 = (0..tk).map(|k| a[(i + tm * k) as usize] * b[(j + tn * k) as usize]).sum();
            assert_eq!(c[(i + tm * j) as usize], want, "C({i},{j}) of {m}");
        }
    }
}

/// Every `(x, y, z)` with `x < a`, `y < b`, `z < c`.
fn itertools(a: i64, b: i64, c: i64) -> Vec<(i64, i64, i64)> {
    (0..c).flat_map(|z| (0..b).flat_map(move |y| (0..a).map(move |x| (x, y, z)))).collect()
}

const ATOMS: &[&str] = &[
    "SM80_16x8x8_F16F16F16F16_TN",
    "SM80_16x8x16_F16F16F16F16_TN",
    "SM80_16x8x16_F32F16F16F32_TN",
    "SM80_16x8x16_F32BF16BF16F32_TN",
    "SM80_16x8x8_F32TF32TF32F32_TN",
    "SM80_16x8x32_S32S8S8S32_TN",
    "SM80_8x8x4_F64F64F64F64_TN",
    "SM75_16x8x8_F32F16F16F32_TN",
    "SM70_8x8x4_F32F16F16F32_NT",
    "SM70_8x8x4_F32F16F16F32_TN",
    "UniversalFMA<float,float,float,float>",
    "SM90_64x8x16_F16F16F16_SS",
    "SM90_64x16x16_F32F16F16_RS",
    "SM90_64x64x16_F32BF16BF16_SS",
    "SM90_64x32x8_F32TF32TF32_SS_TN",
    "SM90_64x16x32_S32S8S8_SS_TN",
];

#[test]
fn every_atom_computes_the_product() {
    for op in ATOMS {
        let m = TiledMma::new(MmaAtom::new(op).unwrap(), None, None).unwrap();
        simulate(&m);
    }
}

#[test]
fn tiled_mmas_compute_the_product() {
    let cases: &[(&str, &str, Option<&str>)] = &[
        ("SM80_16x8x16_F16F16F16F16_TN", "(_2,_2,_1):(_1,_2,_0)", None),
        ("SM80_16x8x16_F16F16F16F16_TN", "(_2,_2,_1):(_2,_1,_0)", None),
        ("SM80_16x8x16_F16F16F16F16_TN", "(_2,_2,_1):(_1,_2,_0)", Some("<_32,_32,_16>")),
        ("SM80_16x8x8_F32TF32TF32F32_TN", "(_1,_2,_2):(_0,_1,_2)", None),
        ("SM70_8x8x4_F32F16F16F32_NT", "(_2,_2,_1):(_1,_2,_0)", Some("<_16,_16,_8>")),
        ("UniversalFMA<float,float,float,float>", "(_4,_8,_1):(_8,_1,_0)", None),
        ("SM90_64x16x16_F32F16F16_SS", "(_2,_1,_1):(_1,_0,_0)", None),
    ];
    for (op, layout, perm) in cases {
        let perm: Option<Tiler> = perm.map(|p| p.parse().unwrap());
        let m = TiledMma::new(MmaAtom::new(op).unwrap(), Some(&lay(layout)), perm.as_ref()).unwrap();
        simulate(&m);
    }
    // a permutation that is not a plain tile: rows of N interleaved
    let perm: Tiler = "<_32,(_8,_2,_2):(_1,_16,_8),_16>".parse().unwrap();
    let m = TiledMma::new(
        MmaAtom::new("SM80_16x8x16_F32F16F16F32_TN").unwrap(),
        Some(&lay("(_2,_2,_1):(_1,_2,_0)")),
        Some(&perm),
    )
    .unwrap();
    simulate(&m);
}

/// A tiled copy moves every element of its tile exactly once: its destination
/// TV layout reaches each coordinate of the tile once (for a copy of an MMA
/// operand shared by the threads along another mode, the same number of
/// times each), and each atom instruction reads the same set of coordinates
/// as it writes.
fn check_copy(c: &TiledCopy) {
    let d = c.layout_d_tv().unwrap();
    let s = c.layout_s_tv().unwrap();
    let tile: i64 = (0..2).map(|i| c.tile_size(i).unwrap().value()).product();
    let mut seen = vec![0u32; tile as usize];
    let (threads, vals) = (mode_size(&d, 0), mode_size(&d, 1));
    for t in 0..threads {
        for v in 0..vals {
            seen[at2(&d, t, v) as usize] += 1;
        }
    }
    // once each, or (an MMA operand shared by the threads along another mode)
    // the same number of times each
    let copies = (threads * vals / tile) as u32;
    assert!(seen.iter().all(|&n| n == copies), "{c}: destination coverage {seen:?}");
    // per instruction (a block of the atom's threads, and the atom's values on
    // each side: ldmatrix reads 8 values of some threads and writes 4 of each)
    let atom = c.atom();
    let athr = mode_size(atom.val_layout_ref(), 0);
    let (as_, ad) = (mode_size(atom.val_layout_src(), 1), mode_size(atom.val_layout_dst(), 1));
    let svals = mode_size(&s, 1);
    assert_eq!(svals / as_, vals / ad, "{c}: as many instructions on both sides");
    for t0 in (0..threads).step_by(athr as usize) {
        for k in 0..vals / ad {
            let mut src: Vec<i64> = Vec::new();
            let mut dst: Vec<i64> = Vec::new();
            for t in t0..t0 + athr {
                for v in k * as_..(k + 1) * as_ {
                    src.push(at2(&s, t, v));
                }
                for v in k * ad..(k + 1) * ad {
                    dst.push(at2(&d, t, v));
                }
            }
            src.sort_unstable();
            src.dedup();
            dst.sort_unstable();
            dst.dedup();
            assert_eq!(src, dst, "{c}: instruction {k} of threads {t0}..");
        }
    }
}

#[test]
fn tiled_copies_move_every_element_once() {
    let exactly_once = [
        ("UniversalCopy<uint128_t>", "half_t", "(_32,_4):(_4,_1)", "(_1,_8):(_8,_1)"),
        ("UniversalCopy<uint64_t>", "float", "(_16,_8):(_1,_16)", "(_2,_1):(_1,_0)"),
        ("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", "half_t", "(_16,_8):(_8,_1)", "(_1,_8):(_8,_1)"),
        ("UniversalCopy<uint32_t>", "uint32_t", "(_8,_4):(_4,_1)", "(_1,_1):(_0,_0)"),
    ];
    for (op, t, thr, val) in exactly_once {
        let c = TiledCopy::make(CopyAtom::new(op, t).unwrap(), &lay(thr), &lay(val)).unwrap();
        let d = c.layout_d_tv().unwrap();
        assert_eq!(size(&d), (0..2).map(|i| c.tile_size(i).unwrap().value()).product::<i64>(), "{c}");
        check_copy(&c);
    }
    let m =
        TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(), Some(&lay("(_2,_2,_1):(_1,_2,_0)")), None)
            .unwrap();
    for (op, which) in
        [("SM75_U32x4_LDSM_N", Operand::A), ("SM75_U32x2_LDSM_N", Operand::B), ("UniversalCopy<uint32_t>", Operand::C)]
    {
        let c = TiledCopy::for_mma(CopyAtom::new(op, "half_t").unwrap(), &m, which).unwrap();
        check_copy(&c);
    }
    let c = TiledCopy::for_mma_c_atom(CopyAtom::new("UniversalCopy<uint32_t>", "half_t").unwrap(), &m).unwrap();
    check_copy(&c);
}

/// `get_slice(t).partition_C(tensor)` of an identity tensor larger than the
/// tile: the threads' partitions cover every coordinate exactly once, each
/// thread's first-tile values are `get_layoutC_TV(t, v)`, and the fragment
/// has `partition_shape_C`'s shape. Likewise `partition_S` of a tiled copy.
#[test]
fn thread_slices_partition_tensors() {
    use kute::tensor::make_identity_tensor;
    let m =
        TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(), Some(&lay("(_2,_2,_1):(_1,_2,_0)")), None)
            .unwrap();
    let shape: kute::IntTuple = "(_64,_32)".parse().unwrap();
    let (rows, cols) = (64i64, 32i64);
    let tv = m.layout_c_tv().unwrap();
    let tile_m = m.tile_size(0).unwrap().value();
    let mut seen = vec![0u32; (rows * cols) as usize];
    for t in 0..m.size().unwrap().value() {
        let thr = m.get_slice(t).unwrap();
        let part = thr.partition_c(make_identity_tensor(&shape).unwrap()).unwrap();
        assert_eq!(part.shape().unwrap(), m.partition_shape(Operand::C, &shape).unwrap());
        for i in 0..part.size().unwrap() {
            let c = part.get(i).unwrap();
            let g = |k| c.get(k).unwrap().as_int().unwrap().value();
            seen[(g(0) + rows * g(1)) as usize] += 1;
        }
        // the first tile: value v of thread t is get_layoutC_TV(t, v)
        let vals = part.layout().as_layout("c").unwrap().mode(0).unwrap().size().unwrap().value();
        for v in 0..vals {
            let c = part.get(v).unwrap();
            let g = |k| c.get(k).unwrap().as_int().unwrap().value();
            let idx = at2(&tv, t, v);
            assert_eq!((g(0), g(1)), (idx % tile_m, idx / tile_m), "thread {t} value {v}");
        }
        let frag = thr.partition_fragment::<_, f32>(Operand::C, make_identity_tensor(&shape).unwrap()).unwrap();
        assert_eq!(frag.shape().unwrap(), part.shape().unwrap());
    }
    assert!(seen.iter().all(|&n| n == 1), "C coverage");

    let c = TiledCopy::make(
        CopyAtom::new("UniversalCopy<uint128_t>", "half_t").unwrap(),
        &lay("(_16,_8):(_8,_1)"),
        &lay("(_1,_8):(_8,_1)"),
    )
    .unwrap();
    let shape: kute::IntTuple = "(_32,_128)".parse().unwrap();
    let mut seen = vec![0u32; 32 * 128];
    for t in 0..c.size().unwrap().value() {
        let part = c.get_slice(t).unwrap().partition_s(make_identity_tensor(&shape).unwrap()).unwrap();
        for i in 0..part.size().unwrap() {
            let x = part.get(i).unwrap();
            let g = |k| x.get(k).unwrap().as_int().unwrap().value();
            seen[(g(0) + 32 * g(1)) as usize] += 1;
        }
    }
    assert!(seen.iter().all(|&n| n == 1), "copy coverage");
}

/// The expression forms of the thread slices agree with the library's.
#[test]
fn thread_slices_in_expressions() {
    let v = kute::expr::eval(
        "partition_C(get_slice(make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}),5),make_identity_tensor((_16,_8)))",
    )
    .unwrap();
    let m = TiledMma::new(MmaAtom::new("SM80_16x8x8_F16F16F16F16_TN").unwrap(), None, None).unwrap();
    let lib = m
        .get_slice(5)
        .unwrap()
        .partition_c(kute::tensor::make_identity_tensor(&"(_16,_8)".parse().unwrap()).unwrap())
        .unwrap();
    assert_eq!(v.to_string(), format!("ArithTuple(1,2) o {}", lib.layout()));
    assert!(kute::expr::eval(
        "partition_S(get_slice(make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}),0),make_identity_tensor((_16,_8)))"
    )
    .is_err());
    assert!(kute::expr::eval("get_slice(make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}),32)").is_err());
}
