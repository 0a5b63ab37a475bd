//! The GEMM plan run on the CPU with a model of the hardware instructions
//! taken from the PTX ISA (not from kute): `cp.async` moves 16 bytes,
//! `ldmatrix.x4/.x2` gives lane `l` the elements `(l/4, 2·(l%4)..+1)` of each
//! 8x8 matrix whose rows lanes `8q..8q+7` point at, and `mma.m16n8k16`
//! takes its A, B and C fragments by the ISA's register tables. The product
//! must be the plain matrix product, for every block, warp and pipeline
//! stage of the plan.

use kute::{AnyLayout, Int, Layout};
use kute_cuda::gemm::{GemmConfig, GemmKernel, OperandPlan, TileModes, THREADS};
use kute_cuda::Elem;

fn at(l: &Layout, i: i64) -> i64 {
    l.eval(i).unwrap()
}

fn smem_at(s: &AnyLayout, c: i64) -> usize {
    s.eval_int(Int::new_dynamic(c)).unwrap().value() as usize
}

/// The (row, column) a coordinate layout gives at `i`.
fn coord(l: &Layout, i: i64) -> (i64, i64) {
    let p = l.eval_point(Int::new_dynamic(i)).unwrap().to_int_tuple();
    let v: Vec<i64> = p.leaves().iter().map(|x| x.value()).collect();
    (v[0], v[1])
}

/// A tile grid's offset of tile `(i, j)`: the sum of its modes' parts.
fn grid_at(t: &TileModes, (i, j): (i64, i64)) -> i64 {
    at(&t.first, i) + at(&t.second, j)
}

/// A tile grid's coordinate of tile `(i, j)`: the sum of its modes'.
fn grid_coord(t: &TileModes, (i, j): (i64, i64)) -> (i64, i64) {
    let ((a, b), (c, d)) = (coord(&t.first, i), coord(&t.second, j));
    (a + c, b + d)
}

/// One k-tile of an operand into shared memory, as the kernel's `cp.async`s
/// do (zeros for a vector whose coordinates leave `(rows, k)`).
#[allow(clippy::too_many_arguments)]
fn load(
    p: &OperandPlan,
    smem_layout: &AnyLayout,
    global: &[f64],
    tile: (i64, i64),
    smem: &mut [f64],
    vec: i64,
    passes: i64,
    lim: (i64, i64),
) {
    let base = grid_at(&p.tiles, tile);
    for t in 0..THREADS {
        for q in 0..passes {
            let i = t + THREADS * vec * q;
            let s = smem_at(smem_layout, at(&p.scopy, i));
            let inside = match (&p.ctiles, &p.ccopy) {
                (Some(ct), Some(cc)) => {
                    let ((r0, k0), (r, k)) = (grid_coord(ct, tile), coord(cc, i));
                    r0 + r < lim.0 && k0 + k < lim.1
                }
                _ => true,
            };
            if inside {
                let g = (base + at(&p.gtile, at(&p.scopy, i))) as usize;
                smem[s..s + vec as usize].copy_from_slice(&global[g..g + vec as usize]);
            } else {
                smem[s..s + vec as usize].fill(0.0);
            }
        }
    }
}

/// `ldmatrix.x{n}[.trans]` for one warp: `rows[l]` is the shared offset
/// lane `l` points at, the first element of row `l % 8` of matrix `l / 8`
/// (`M_q[r][c] = smem[rows[8q + r] + c]`); lane `l` receives, in register
/// `q`, `M_q[l/4][2(l%4) + e]`, or with `.trans` `M_q[2(l%4) + e][l/4]`.
fn ldmatrix(smem: &[f64], rows: &[usize], n: usize, trans: bool) -> Vec<Vec<[f64; 2]>> {
    (0..32)
        .map(|l| {
            (0..n)
                .map(|q| {
                    let el = |r: usize, c: usize| smem[rows[8 * q + r] + c];
                    let (g, c) = (l / 4, 2 * (l % 4));
                    if trans {
                        [el(c, g), el(c + 1, g)]
                    } else {
                        [el(g, c), el(g, c + 1)]
                    }
                })
                .collect()
        })
        .collect()
}

/// `mma.m16n8k16` for one warp: fragments by the PTX ISA's tables.
fn mma(acc: &mut [[f64; 4]], a: &[Vec<[f64; 2]>], b: &[Vec<[f64; 2]>]) {
    let (mut am, mut bm) = ([[0.0; 16]; 16], [[0.0; 8]; 16]); // A[m][k], B[k][n]
    for l in 0..32 {
        let (g, c) = (l / 4, l % 4);
        for e in 0..2 {
            am[g][2 * c + e] = a[l][0][e];
            am[g + 8][2 * c + e] = a[l][1][e];
            am[g][2 * c + 8 + e] = a[l][2][e];
            am[g + 8][2 * c + 8 + e] = a[l][3][e];
            bm[2 * c + e][g] = b[l][0][e];
            bm[2 * c + 8 + e][g] = b[l][1][e];
        }
    }
    let dot = |m: usize, n: usize| (0..16).map(|k| am[m][k] * bm[k][n]).sum::<f64>();
    for (l, r) in acc.iter_mut().enumerate() {
        let (g, c) = (l / 4, l % 4);
        r[0] += dot(g, 2 * c);
        r[1] += dot(g, 2 * c + 1);
        r[2] += dot(g + 8, 2 * c);
        r[3] += dot(g + 8, 2 * c + 1);
    }
}

fn simulate(g: &GemmKernel, a: &[f64], b: &[f64]) -> Vec<f64> {
    let (m, n, k) = g.mnk;
    let GemmConfig { bm, bn, bk, .. } = g.config;
    let vec = 16 / g.elem.bytes();
    let (mm, mn, mk) = (bm / 32, bn / 16, bk / 16);
    let mut c = vec![f64::NAN; (m * n) as usize];
    // each warp's ldmatrix rows per (k step, repeat): the same in every tile
    let rows = |p: &OperandPlan, s: &AnyLayout, w: i64, rep: i64| -> Vec<usize> {
        (0..32).map(|l| smem_at(s, at(&p.ldsm, 32 * w + l) + at(&p.rep, rep))).collect()
    };
    let rows_a: Vec<Vec<Vec<Vec<usize>>>> = (0..THREADS / 32)
        .map(|w| (0..mk).map(|ki| (0..mm).map(|i| rows(&g.plan_a, &g.smem_a, w, i + mm * ki)).collect()).collect())
        .collect();
    let rows_b: Vec<Vec<Vec<Vec<usize>>>> = (0..THREADS / 32)
        .map(|w| (0..mk).map(|ki| (0..mn).map(|j| rows(&g.plan_b, &g.smem_b, w, j + mn * ki)).collect()).collect())
        .collect();
    let (tiles_m, tiles_n) = ((m + bm - 1) / bm, (n + bn - 1) / bn);
    for tb in 0..tiles_n {
        for tm in 0..tiles_m {
            // acc[thread][i][j][r]
            let mut acc = vec![vec![vec![[0.0f64; 4]; mn as usize]; mm as usize]; THREADS as usize];
            for kt in 0..((k + bk - 1) / bk) {
                let (mut sa, mut sb) = (vec![f64::NAN; (bm * bk) as usize], vec![f64::NAN; (bn * bk) as usize]);
                load(&g.plan_a, &g.smem_a, a, (tm, kt), &mut sa, vec, bm * bk / (THREADS * vec), (m, k));
                load(&g.plan_b, &g.smem_b, b, (tb, kt), &mut sb, vec, bn * bk / (THREADS * vec), (n, k));
                for w in 0..THREADS / 32 {
                    for ki in 0..mk {
                        let (ra, rb) = (&rows_a[w as usize][ki as usize], &rows_b[w as usize][ki as usize]);
                        let fa: Vec<_> = ra.iter().map(|r| ldmatrix(&sa, r, 4, !g.config.a_k_major)).collect();
                        let fb: Vec<_> = rb.iter().map(|r| ldmatrix(&sb, r, 2, !g.config.b_k_major)).collect();
                        for i in 0..mm as usize {
                            for j in 0..mn as usize {
                                let mut warp: Vec<[f64; 4]> = (0..32).map(|l| acc[32 * w as usize + l][i][j]).collect();
                                mma(&mut warp, &fa[i], &fb[j]);
                                for l in 0..32 {
                                    acc[32 * w as usize + l][i][j] = warp[l];
                                }
                            }
                        }
                    }
                }
            }
            let block = (tm, tb);
            let base = grid_at(&g.plan_c.tiles, block);
            for t in 0..THREADS {
                for i in 0..mm {
                    for j in 0..mn {
                        for v in 0..4 {
                            let x = at(&g.plan_c.frag, t + THREADS * v) + at(&g.plan_c.rep, i + mm * j);
                            if let (Some(ct), Some(cc)) = (&g.plan_c.ctiles, &g.plan_c.ctile) {
                                let ((r0, c0), (r, col)) = (grid_coord(ct, block), coord(cc, x));
                                if r0 + r >= m || c0 + col >= n {
                                    continue;
                                }
                            }
                            c[(base + at(&g.plan_c.tile, x)) as usize] =
                                acc[t as usize][i as usize][j as usize][v as usize];
                        }
                    }
                }
            }
        }
    }
    c
}

#[test]
fn the_gemm_plan_computes_the_matrix_product_with_the_instructions_semantics() {
    the_plans_compute_the_matrix_product(&[
        ((128, 128, 64), Elem::F16, GemmConfig::default()),
        ((256, 128, 32), Elem::Bf16, GemmConfig::default()),
        ((64, 64, 64), Elem::F16, GemmConfig { bm: 64, bn: 64, bk: 64, stages: 2, ..GemmConfig::default() }),
    ]);
}

#[test]
fn the_predicated_gemm_plan_computes_the_matrix_product() {
    // no size a multiple of the tile
    the_plans_compute_the_matrix_product(&[
        ((100, 72, 40), Elem::F16, GemmConfig::default()),
        ((130, 17, 8), Elem::Bf16, GemmConfig::default()),
    ]);
}

#[test]
fn the_gemm_plans_of_every_operand_layout_compute_the_matrix_product() {
    // on and off the tile grid
    the_plans_compute_the_matrix_product(&[
        ((128, 128, 64), Elem::F16, GemmConfig { a_k_major: false, b_k_major: false, ..GemmConfig::default() }),
        ((128, 128, 32), Elem::Bf16, GemmConfig { a_k_major: false, ..GemmConfig::default() }),
        ((128, 128, 32), Elem::F16, GemmConfig { b_k_major: false, ..GemmConfig::default() }),
        ((136, 24, 37), Elem::F16, GemmConfig { a_k_major: false, b_k_major: false, ..GemmConfig::default() }),
    ]);
}

/// Each plan run on the model equals the product of its operands, and every
/// warp's fragment loads and `cp.async` stores are conflict-free.
fn the_plans_compute_the_matrix_product(cases: &[((i64, i64, i64), Elem, GemmConfig)]) {
    for &((m, n, k), elem, cfg) in cases {
        let g = GemmKernel::new("g", (m, n, k), elem, cfg).unwrap();
        let a: Vec<f64> = (0..m * k).map(|x| ((x * 7 + 3) % 11) as f64 - 5.0).collect();
        let b: Vec<f64> = (0..n * k).map(|x| ((x * 5 + 1) % 13) as f64 - 6.0).collect();
        let c = simulate(&g, &a, &b);
        // A(i, l) and B(j, l) where the plan's layouts put them, gathered once
        // into rows of K
        let gather = |l: &Layout, data: &[f64], rows: i64| -> Vec<f64> {
            let (ev, r0) = (l.evaluator().unwrap(), l.mode(0).unwrap().size().unwrap().value());
            assert_eq!(r0, rows);
            (0..rows * k).map(|x| data[ev.eval((x / k) + rows * (x % k)).unwrap() as usize]).collect()
        };
        let (ra, rb) = (gather(&g.a, &a, m), gather(&g.b, &b, n));
        for i in 0..m {
            for j in 0..n {
                let (ai, bj) = (&ra[(i * k) as usize..][..k as usize], &rb[(j * k) as usize..][..k as usize]);
                let want: f64 = ai.iter().zip(bj).map(|(x, y)| x * y).sum();
                assert_eq!(c[(i * n + j) as usize], want, "C[{i}][{j}] of ({m},{n},{k}) {cfg:?}");
            }
        }
        // every warp's fragment loads and every cp.async store conflict-free
        for r in g.cost_a.iter().chain(&g.cost_b).flatten() {
            assert!(r.is_conflict_free(), "{r}");
        }
    }
}

#[test]
fn gemm_plans_refuse_what_they_cannot_tile() {
    let e = |mnk, elem, cfg| GemmKernel::new("g", mnk, elem, cfg).unwrap_err().to_string();
    assert!(e((100, 128, 60), Elem::F16, GemmConfig::default()).contains("K = 60 must be a multiple of 8"));
    let nt = GemmConfig { a_k_major: false, b_k_major: false, ..GemmConfig::default() };
    assert!(e((100, 128, 60), Elem::F16, nt).contains("M = 100 must be a multiple of 8"));
    assert!(e((0, 128, 64), Elem::F16, GemmConfig::default()).contains("at least 1"));
    assert_eq!(nt.blas(), "NT");
    assert!(e((128, 128, 64), Elem::F32, GemmConfig::default()).contains("f16 or bf16"));
    // shared memory is dynamic: 128 KiB builds, more than Hopper's 227 KiB does not
    let big = |stages, bk| GemmConfig { stages, bk, ..GemmConfig::default() };
    assert_eq!(GemmKernel::new("g", (128, 128, 64), Elem::F16, big(4, 64)).unwrap().smem_bytes, 128 * 1024);
    assert!(e((128, 128, 256), Elem::F16, big(4, 128)).contains("at most 227 KiB"));
    // the fragments alternate between two register buffers: an even number of k-blocks
    assert!(e((128, 128, 64), Elem::F16, big(3, 16)).contains("tile (128,128,16)"));
}
