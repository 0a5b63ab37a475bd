//! The plan of an SM90 attention forward pass (FlashAttention-3's
//! structure): `S = Q·Kᵀ` by `wgmma` with both operands in shared memory
//! (`_SS`), `O += P·V` by `wgmma` with `P` in registers (`_RS`), each
//! consumer warpgroup owning 64 query rows. The plan holds what the
//! kernel's indices come from: the accumulators of `S` and `O` and the `A`
//! fragment of `P` as layouts of CuTe's GMMA atoms, the re-layout of `S`'s
//! registers into `P`'s (`left_inverse(S) ∘ P`, checked to stay in each
//! thread), the lanes sharing a row, and the shared tiles of `Q`, `K` and
//! `V` with their `wgmma` descriptors and k steps, all read off layouts.
//! The TMA boxes that fill the tiles (128-byte slabs of 64 columns) and
//! each consumer warpgroup's rows of `Q` are read off the tiles' layouts
//! and checked against them.

use super::attention_sm80::{covers_once, fragments, p_from_s, register_plan, row_masks, Fragments, RegisterIndices};
use super::gemm_sm90::{descriptor, sw128_tile, tile_offset, Descriptor};
use crate::attention::Sm90AttentionConfig;
use crate::{Elem, Error, Result};
use kute::atom::{MmaAtom, Operand, TiledMma};
use kute::{AnyLayout, Int, Layout};

const OP: &str = "sm90 attention plan";

/// Hopper's shared memory per block (227 KiB).
const SMEM_LIMIT: i64 = 227 * 1024;

/// One shared tile and what the `wgmma` reading it needs.
#[derive(Clone, Debug)]
pub(crate) struct Sm90Tile {
    /// The swizzled tile, `(rows, cols)` column-major coordinates.
    pub layout: AnyLayout,
    /// CuTe's name of its GMMA atom.
    pub atom: String,
    /// The descriptor's fields.
    pub desc: Descriptor,
    /// Each `wgmma` k step's offset (elements) from the tile's start: the
    /// unswizzled position of `(0, 16 · k)`.
    pub ksteps: Vec<i64>,
    /// Each TMA box's offset (elements): the slab of 64 contiguous columns
    /// (K-major) or rows (MN-major) `j` of the tile, every one of its
    /// 128-byte lines in order from there (checked), 1024-byte aligned.
    pub boxes: Vec<i64>,
    /// The lines of a box (its other extent).
    pub box_lines: i64,
}

/// The SM90 attention kernel's plan.
#[derive(Debug)]
pub(crate) struct AttentionSm90Plan {
    /// The choices.
    pub config: Sm90AttentionConfig,
    /// The inputs' type.
    pub elem: Elem,
    /// Query rows per block (64 per consumer warpgroup).
    pub block_m: i64,
    /// Threads per block: a producer warpgroup and the consumers.
    pub threads: i64,
    /// CuTe's names of the two atoms (`S`'s `_SS`, `O`'s `_RS`).
    pub atoms: [String; 2],
    /// `S`, the accumulators of `Q·Kᵀ`, over `(block_m, block_n)`, by the
    /// consumer threads.
    pub s: Fragments,
    /// `P` as the register `A` operand of `O += P·V`, over `(block_m,
    /// block_n)`.
    pub p: Fragments,
    /// `O`, the accumulators of `P·V`, over `(block_m, d)`.
    pub o: Fragments,
    /// `P`'s full index to `S`'s (`left_inverse(S) ∘ P`), every value in its
    /// own thread.
    pub p_from_s: Layout,
    /// The lane masks whose XOR reaches the threads sharing a row.
    pub row_masks: Vec<i64>,
    /// `Q` `(block_m, d)` and `K` `(block_n, d)`, K-major; `V` as `B` of `O
    /// = P·V`: `(d, block_n)`, stored `d`-contiguous (MN-major).
    pub smem: [Sm90Tile; 3],
    /// Bytes of shared memory the tiles take (`Q` once, `K` and `V` per
    /// stage).
    pub smem_bytes: i64,
    /// The kernel's form of `S`'s register coordinates (consumer threads).
    pub s_regs: RegisterIndices,
    /// The kernel's form of `O`'s register coordinates.
    pub o_regs: RegisterIndices,
    /// Each row slot's row past the thread's first.
    pub slot_rows: Vec<i64>,
    /// `P`'s value `j` of a thread is its `S` register `p_src[j]`.
    pub p_src: Vec<i64>,
    /// Elements from `Q`'s tile to consumer warpgroup `w`'s 64 rows: `w ·
    /// q_wg` (checked for each).
    pub q_wg: i64,
}

/// The rules of a configuration: `d` of 64, 128 or 256; one to three
/// consumer warpgroups; `block_n` a multiple of 16 from 64 to 256 (the
/// `wgmma`'s N, and 16 keys per k step of `O`'s); one to four stages; the
/// tiles within Hopper's shared memory; 16-bit inputs.
fn check(config: Sm90AttentionConfig, elem: Elem) -> Result<i64> {
    let Sm90AttentionConfig { head_dim: d, block_n: bn, warpgroups, stages, .. } = config;
    let bad = |why: String| Err(Error::unsupported(OP, why));
    if !matches!(elem, Elem::F16 | Elem::Bf16) {
        return bad(format!("{elem} inputs (f16 or bf16)"));
    }
    if ![64, 128, 256].contains(&d) {
        return bad(format!("head_dim {d} (64, 128 or 256)"));
    }
    if !(1..=3).contains(&warpgroups) {
        return bad(format!("{warpgroups} consumer warpgroups (1 to 3)"));
    }
    if !(64..=256).contains(&bn) || bn % 16 != 0 {
        return bad(format!("block_n {bn}: a multiple of 16 from 64 to 256"));
    }
    if !(1..=4).contains(&stages) {
        return bad(format!("{stages} stages (1 to 4)"));
    }
    let bytes = elem.bytes() * d * (64 * warpgroups + 2 * stages * bn);
    if bytes > SMEM_LIMIT {
        return bad(format!("{bytes} bytes of shared tiles (at most {SMEM_LIMIT})"));
    }
    Ok(bytes)
}

/// A shared tile of `(rows, cols)`, K-major or not, with its descriptor and
/// the offsets of its `k_steps` k steps of 16 columns.
fn tile(elem: Elem, (rows, cols): (i64, i64), k_major: bool, k_steps: i64) -> Result<Sm90Tile> {
    let (layout, atom) = sw128_tile(elem, (rows, cols), k_major)?;
    let desc = descriptor(&layout, rows, k_major, elem)?;
    let ksteps = (0..k_steps).map(|k| tile_offset(&layout, rows, 0, 16 * k)).collect::<Result<_>>()?;
    // a box: 64 contiguous elements (128 bytes) of each of `lines` lines
    let w = 128 / elem.bytes();
    let (slabs, lines) = if k_major { (cols / w, rows) } else { (rows / w, cols) };
    let at = |j: i64, line: i64, x: i64| {
        let (r, c) = if k_major { (line, w * j + x) } else { (w * j + x, line) };
        tile_offset(&layout, rows, r, c)
    };
    let mut boxes = Vec::with_capacity(slabs as usize);
    for j in 0..slabs {
        let base = at(j, 0, 0)?;
        if base * elem.bytes() % 1024 != 0 {
            return Err(Error::unsupported(OP, format!("{layout}'s box {j} starts off a 1024-byte line")));
        }
        for line in 0..lines {
            for x in 0..w {
                if at(j, line, x)? != base + w * line + x {
                    return Err(Error::unsupported(
                        OP,
                        format!("{layout}'s box {j} is not {lines} lines of {w} elements in a row"),
                    ));
                }
            }
        }
        boxes.push(base);
    }
    Ok(Sm90Tile { layout, atom, desc, ksteps, boxes, box_lines: lines })
}

/// Plans the kernel for `config` and `elem`; every claim it relies on is
/// checked: the fragments cover their tiles once, each `P` register is an
/// `S` register of its own thread, the row lanes, and the shared tiles are
/// CuTe's GMMA atoms.
///
/// Pre: none. Post: the plan, or an `Unsupported` error naming the broken
/// rule or claim.
pub(crate) fn plan(config: Sm90AttentionConfig, elem: Elem) -> Result<AttentionSm90Plan> {
    let smem_bytes = check(config, elem)?;
    let Sm90AttentionConfig { head_dim: d, block_n: bn, warpgroups, .. } = config;
    let t = if elem == Elem::Bf16 { "BF16BF16" } else { "F16F16" };
    let atoms = [
        format!("SM90_64x{bn}x16_F32{t}_SS<GMMA::Major::K,GMMA::Major::K>"),
        format!("SM90_64x{d}x16_F32{t}_RS<GMMA::Major::K,GMMA::Major::MN>"),
    ];
    // make_tiled_mma(atom, (warpgroups, 1, 1)): the warpgroups along M
    let (s0, s1) = (Int::ZERO, Int::ONE);
    let along_m = Layout::new((Int::new_static(warpgroups), s1, s1), (s1, s0, s0))?;
    let mma_s = TiledMma::new(MmaAtom::new(&atoms[0])?, Some(&along_m), None)?;
    let mma_o = TiledMma::new(MmaAtom::new(&atoms[1])?, Some(&along_m), None)?;
    let threads = mma_s.size()?.value();
    let bm = 64 * warpgroups;
    let s = fragments(&mma_s, Operand::C, (bm, bn), (bm, bn))?;
    let p = fragments(&mma_o, Operand::A, (bm, bn), (bm, 16))?;
    let o = fragments(&mma_o, Operand::C, (bm, d), (bm, d))?;
    for (what, f) in [("S", &s), ("P", &p), ("O", &o)] {
        covers_once(what, f, threads, 1)?;
    }
    let p_from_s = p_from_s(&s, &p, threads)?;
    let row_masks = row_masks(&s, &o, threads)?;
    let smem =
        [tile(elem, (bm, d), true, d / 16)?, tile(elem, (bn, d), true, d / 16)?, tile(elem, (d, bn), false, bn / 16)?];
    let (s_regs, o_regs, slot_rows, p_src) = register_plan(&s, &o, &p_from_s, threads)?;
    // warpgroup w's rows of Q start at row 64 w: a whole number of 8-row
    // groups, so its wgmma descriptors start there
    let q_wg = if warpgroups > 1 { tile_offset(&smem[0].layout, bm, 64, 0)? } else { 0 };
    for w in 0..warpgroups {
        if tile_offset(&smem[0].layout, bm, 64 * w, 0)? != w * q_wg {
            return Err(Error::unsupported(OP, format!("Q's rows of warpgroup {w} are not {w} · {q_wg} elements in")));
        }
    }
    Ok(AttentionSm90Plan {
        config,
        elem,
        block_m: bm,
        threads: threads + 128,
        atoms,
        s,
        p,
        o,
        p_from_s,
        row_masks,
        smem,
        smem_bytes,
        s_regs,
        o_regs,
        slot_rows,
        p_src,
        q_wg,
    })
}

#[cfg(test)]
mod tests {
    use super::super::attention_sm80::tests::{assert_attention, data, reference, OnlineRows};
    use super::*;

    /// The forward pass through the plan on the CPU, thread by thread: `S`
    /// into its accumulators (the `_SS` `wgmma` reads `Q` and `K` whole),
    /// masks and the online softmax per register with the row maxima and
    /// sums combined over the row masks' lanes, `P` rounded to f16 and
    /// placed by `p_from_s`, `O += P·V` with `P` gathered from the threads'
    /// registers through its `A` fragments (the `_RS` `wgmma`); finally `O /
    /// l` and the LSE. Queries `i` see keys up to `i + Lk - Lq` when causal.
    fn simulate(
        p: &AttentionSm90Plan,
        (q, k, v): (&[f32], &[f32], &[f32]),
        (lq, lk): (i64, i64),
    ) -> (Vec<f32>, Vec<f32>) {
        let Sm90AttentionConfig { head_dim: d, block_n: bn, causal, .. } = p.config;
        let (bm, tn) = (p.block_m, p.threads - 128);
        let scale_log2 = std::f32::consts::LOG2_E / (d as f32).sqrt();
        let regs = |f: &Fragments| (f.values * f.repeats) as usize;
        let (mut out, mut lse) = (vec![0f32; (lq * d) as usize], vec![0f32; lq as usize]);
        for b0 in (0..lq).step_by(bm as usize) {
            let mut rows = OnlineRows::new(&p.s, tn);
            let mut o = vec![vec![0f32; regs(&p.o)]; tn as usize];
            for k0 in (0..lk).step_by(bn as usize) {
                let mut s = vec![vec![0f32; regs(&p.s)]; tn as usize];
                for t in 0..tn {
                    for r in 0..p.s.repeats {
                        for vv in 0..p.s.values {
                            let i = (vv + p.s.values * r) as usize;
                            let (row, col) = p.s.coord(tn, t, vv, r).unwrap();
                            let (qi, kj) = (b0 + row, k0 + col);
                            let x = if qi >= lq || kj >= lk || (causal && kj > qi + lk - lq) {
                                f32::NEG_INFINITY
                            } else {
                                let dot: f32 =
                                    (0..d).map(|c| q[(qi * d + c) as usize] * k[(kj * d + c) as usize]).sum();
                                dot * scale_log2
                            };
                            s[t as usize][i] = x;
                        }
                    }
                }
                rows.step((&p.s, &p.o), tn, &p.row_masks, &mut s, &mut o);
                // P's registers from S's, then P gathered whole through its A
                // fragments (every cell once), O += P · V
                let mut dense = vec![f32::NAN; (bm * bn) as usize];
                for t in 0..tn {
                    for r in 0..p.p.repeats {
                        for vv in 0..p.p.values {
                            let j = vv + p.p.values * r;
                            let y = p.p_from_s.eval(t + tn * j).unwrap();
                            assert_eq!(y % tn, t);
                            let (row, col) = p.p.coord(tn, t, vv, r).unwrap();
                            assert!(dense[(row + bm * col) as usize].is_nan(), "P's cell ({row},{col}) twice");
                            dense[(row + bm * col) as usize] = s[t as usize][(y / tn) as usize];
                        }
                    }
                }
                for t in 0..tn {
                    for r in 0..p.o.repeats {
                        for vv in 0..p.o.values {
                            let (row, col) = p.o.coord(tn, t, vv, r).unwrap();
                            let sum: f32 = (0..bn)
                                .filter(|&j| k0 + j < lk)
                                .map(|j| dense[(row + bm * j) as usize] * v[((k0 + j) * d + col) as usize])
                                .sum();
                            o[t as usize][(vv + p.o.values * r) as usize] += sum;
                        }
                    }
                }
            }
            rows.finish(&p.o, tn, &p.row_masks, &o, (b0, lq, d), (&mut out, &mut lse));
        }
        (out, lse)
    }

    /// The plan on the CPU computes attention: O within 2^-9 (P rounded to
    /// f16), the LSE within 1e-4, with tails, causal masks and query and key
    /// lengths that differ, for every head dimension and warpgroup count.
    #[test]
    fn the_plan_on_the_cpu_computes_attention() {
        let c = |head_dim, block_n, warpgroups, causal| Sm90AttentionConfig {
            head_dim,
            block_n,
            warpgroups,
            causal,
            ..Sm90AttentionConfig::default()
        };
        let cases = [
            (c(64, 64, 1, false), (70, 150)),
            (c(128, 128, 2, true), (130, 200)),
            (c(256, 64, 1, true), (64, 90)),
            (c(64, 128, 3, true), (250, 300)),
        ];
        for (i, (config, (lq, lk))) in cases.into_iter().enumerate() {
            let p = plan(config, Elem::F16).unwrap_or_else(|e| panic!("{config:?}: {e}"));
            let d = config.head_dim;
            let seeds = 3 * i as u64;
            let (q, k, v) = (data(lq * d, seeds + 1), data(lk * d, seeds + 2), data(lk * d, seeds + 3));
            let got = simulate(&p, (&q, &k, &v), (lq, lk));
            assert_attention(&format!("{config:?}"), got, reference((&q, &k, &v), (lq, lk, d), config.causal), d);
        }
    }

    /// What the kernel will rely on, against PTX's definitions: the
    /// accumulator of `m64nNk16` puts thread `t`'s value `v` at row `t/4 %
    /// 8 + 8·(v/2 % 2) + 16·(t/32)` and column `2·(t%4) + v%2 + 8·(v/4)`; the
    /// register `A` fragment of the `_RS` form the same for its 16 columns
    /// (so `P` takes `S`'s registers in order, 8 per 16 keys); four lanes
    /// share a row; the shared tiles are the 128-byte GMMA atoms, `K`'s k
    /// steps 32 bytes apart within a 64-column slab and a slab apart across.
    #[test]
    fn the_fragments_and_tiles_are_ptxs() {
        for (d, bn, wgs) in [(64, 64, 1), (128, 128, 2), (256, 64, 2), (128, 176, 1)] {
            let config =
                Sm90AttentionConfig { head_dim: d, block_n: bn, warpgroups: wgs, ..Sm90AttentionConfig::default() };
            let p = plan(config, Elem::Bf16).unwrap_or_else(|e| panic!("{config:?}: {e}"));
            let tn = 128 * wgs;
            assert_eq!(p.threads, tn + 128);
            assert_eq!(p.row_masks, vec![1, 2]);
            for t in 0..tn {
                let (w, t) = (t / 128, t % 128);
                for v in 0..bn / 2 {
                    let want =
                        (t / 4 % 8 + 8 * (v / 2 % 2) + 16 * (t / 32) + 64 * w, 2 * (t % 4) + v % 2 + 8 * (v / 4));
                    assert_eq!(p.s.coord(tn, t + 128 * w, v, 0).unwrap(), want, "{config:?} S thread {t} value {v}");
                }
            }
            // P's value j of thread t is S's value j: no register moves
            for x in 0..p.p_from_s.size().unwrap().value() {
                assert_eq!(p.p_from_s.eval(x).unwrap(), x, "{config:?}");
            }
            assert_eq!(
                p.smem.iter().map(|t| t.atom.as_str()).collect::<Vec<_>>(),
                ["Layout_K_SW128", "Layout_K_SW128", "Layout_MN_SW128"]
            );
            // the kernel's form: P's registers are S's in order; each
            // register a constant past its thread's first (PTX's formula at
            // thread 0); TMA boxes are the 64-column slabs, one after the
            // other; the second warpgroup's Q rows 64 rows of 128 bytes in
            assert_eq!(p.p_src, (0..bn / 2).collect::<Vec<_>>(), "{config:?}");
            for (v, &(r, c)) in p.s_regs.offsets.iter().enumerate() {
                let v = v as i64;
                assert_eq!((r, c), (8 * (v / 2 % 2), v % 2 + 8 * (v / 4)), "{config:?} S register {v}");
            }
            assert_eq!(p.slot_rows, vec![0, 8]);
            for (t, rows) in p.smem.iter().zip([64 * wgs, bn, bn]) {
                let want: Vec<i64> = (0..t.boxes.len() as i64).map(|j| j * rows * 64).collect();
                assert_eq!((&t.boxes, t.box_lines), (&want, if t.atom == "Layout_MN_SW128" { bn } else { rows }));
                assert_eq!(t.boxes.len() as i64, d / 64);
            }
            assert_eq!(p.q_wg, if wgs == 2 { 64 * 64 } else { 0 });
            let k = &p.smem[1];
            for (i, &off) in k.ksteps.iter().enumerate() {
                let i = i as i64;
                assert_eq!(off, 16 * (i % 4) + bn * 64 * (i / 4), "{config:?} K's k step {i}");
            }
            assert_eq!(k.desc.sbo, 1024);
        }
        let too_big = Sm90AttentionConfig { head_dim: 256, block_n: 256, ..Sm90AttentionConfig::default() };
        assert!(plan(too_big, Elem::F16).unwrap_err().to_string().contains("shared tiles"));
        assert!(plan(Sm90AttentionConfig { block_n: 72, ..Sm90AttentionConfig::default() }, Elem::F16).is_err());
    }
}
