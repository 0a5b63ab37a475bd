//! The plan of the SM80 `mma.sync` GEMM (see [`crate::gemm`] for the steps).

use super::{both_coordinates, check_rows, copy_tv, identity_tiles, known_multiple, shape2, TileModes};
use crate::gemm::{GemmConfig, THREADS};
use crate::{Elem, Error, Result};
use kute::analysis::{block_bank_conflicts, search_swizzle, Access, BankReport, SearchSpec};
use kute::atom::{CopyAtom, MmaAtom, Operand, TiledCopy, TiledMma};
use kute::{AnyLayout, AsIntTuple, Int, Layout, Major};

const OP: &str = "gemm kernel";

/// The layouts of one input operand, as the kernel evaluates them (each a
/// function of a 1-D index).
#[derive(Clone, Debug)]
pub struct OperandPlan {
    /// The tile grid by mode (row tile, k-tile, batch) to the tile's first
    /// offset: the sum of the modes' parts, computed without a division.
    pub tiles: TileModes,
    /// A tile's coordinate to its global offset in the tile (the operand's
    /// layout, strides its own): `cp.async` TV index `i` reads
    /// `gtile(scopy(i))` (a composition would ask whether a leading
    /// dimension given at launch equals the tile's extent, to merge modes).
    pub gtile: Layout,
    /// `cp.async` TV index to the tile coordinate (the shared offset is
    /// the shared layout of it).
    pub scopy: Layout,
    /// Thread to the tile coordinate of its `ldmatrix` row (the first MMA tile).
    pub ldsm: Layout,
    /// MMA tile repeat (`row repeat + repeats · k repeat`) to its tile-coordinate offset.
    pub rep: Layout,
    /// When predicated: the tile grid by mode to the (row, k[, batch])
    /// coordinate of its first element (an identity layout divided by the
    /// tile).
    pub ctiles: Option<TileModes>,
    /// When predicated: `cp.async` TV index to the (row, k) coordinate in the tile.
    pub ccopy: Option<Layout>,
}

/// The layouts of `C`, as the kernel evaluates them.
#[derive(Clone, Debug)]
pub struct OutputPlan {
    /// The tile grid by mode (row tile, column tile, batch) to the tile's
    /// first offset.
    pub tiles: TileModes,
    /// Tile coordinate to the offset in the tile.
    pub tile: Layout,
    /// `t + 128 · v` to the tile coordinate of accumulator `v` (the first MMA tile).
    pub frag: Layout,
    /// MMA tile repeat (`i + repeats · j`) to its tile-coordinate offset.
    pub rep: Layout,
    /// When predicated: the tile grid by mode to the (row, column[, batch])
    /// of its first element.
    pub ctiles: Option<TileModes>,
    /// When predicated: tile coordinate to its (row, column) in the tile.
    pub ctile: Option<Layout>,
}

/// One operand's shared offsets split into a per-thread part, computed once,
/// and compile-time constants: `s(u + v) = s(u) ^ s(v)` in shared memory,
/// `g(u + v) = g(u) + g(v)` in global memory.
pub(crate) struct SplitOffsets {
    /// `s(v)` of each `cp.async` pass `v`.
    pub copy_smem: Vec<i64>,
    /// `g(v)` of each `cp.async` pass `v` (expressions of the unknowns for
    /// sizes given at launch).
    pub copy_gmem: Vec<Int>,
    /// `s(v)` of each MMA tile repeat `v` of the `ldmatrix` rows.
    pub frag: Vec<i64>,
}

/// The SM80 GEMM's plan: the operands' and `C`'s layouts, the shared tiles,
/// and the counts and constants the kernel's text needs.
pub(crate) struct Sm80Plan {
    /// The sizes: integers, or unknowns given at launch.
    pub extents: Sm80Extents,
    /// The input type (f16 or bf16).
    pub elem: Elem,
    /// The tile and pipeline.
    pub config: GemmConfig,
    /// `A`, `(M, K[, L])`.
    pub a: Layout,
    /// `B`, `(N, K[, L])`.
    pub b: Layout,
    /// `C`, `(M, N[, L])`.
    pub c: Layout,
    /// The shared tile of `A`, `(BM, BK)`.
    pub smem_a: AnyLayout,
    /// The shared tile of `B`, `(BN, BK)`.
    pub smem_b: AnyLayout,
    /// `A`'s layouts.
    pub plan_a: OperandPlan,
    /// `B`'s layouts.
    pub plan_b: OperandPlan,
    /// `C`'s layouts.
    pub plan_c: OutputPlan,
    /// Predicted wavefronts of `A`'s `cp.async` stores and fragment loads.
    pub cost_a: [Vec<BankReport>; 2],
    /// Same for `B`.
    pub cost_b: [Vec<BankReport>; 2],
    /// The swizzle searches' reasoning.
    pub reasoning: Vec<String>,
    /// Bytes of dynamic shared memory per block.
    pub smem_bytes: i64,
    /// Whether the sizes are off the tile grid (copies and stores guarded).
    pub predicated: bool,
    /// `cp.async` passes per thread of `A` and `B`.
    pub passes: (i64, i64),
    /// MMA tile repeats over the block tile along M, N and K.
    pub repeats: (i64, i64, i64),
    /// Block tiles along M and N, and k-tiles (expressions of the unknowns
    /// for sizes given at launch).
    pub tiles: (Int, Int, Int),
    /// The `cp.async` TV index step of one pass (threads · vector).
    pub pass_step: i64,
    /// `A`'s split offsets.
    pub split_a: SplitOffsets,
    /// `B`'s split offsets.
    pub split_b: SplitOffsets,
    /// Split-K (sizes given at launch, with a batch): a second kernel of
    /// `S` shares each storing its f32 sums into its slice of a workspace,
    /// and a third adding them in order into `C`.
    pub split_k: Option<super::SplitK>,
}

/// The sizes an SM80 plan is made for: integers, or unknowns given at
/// launch with the facts the caller guarantees. `A`, `B` and `C` have rows
/// `ld` elements apart and, with a batch `(L, strides)`, `L` matrices each
/// its stride apart.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sm80Extents {
    /// `(M, N, K)`.
    pub mnk: (Int, Int, Int),
    /// The leading dimensions of `A`, `B` and `C`.
    pub ld: (Int, Int, Int),
    /// The batch count and the batch strides of `A`, `B` and `C`.
    pub batch: Option<(Int, (Int, Int, Int))>,
    /// The fused epilogue (a kernel of sizes given at launch), or `None`.
    pub op: Option<crate::gemm_sm90::EpilogueOp>,
}

impl Sm80Extents {
    /// One problem of sizes known now, each operand contiguous.
    pub(crate) fn fixed((m, n, k): (i64, i64, i64), (a_k, b_k): (bool, bool)) -> Sm80Extents {
        let d = Int::new_dynamic;
        let ld = (d(if a_k { k } else { m }), d(if b_k { k } else { n }), d(n));
        Sm80Extents { mnk: (d(m), d(n), d(k)), ld, batch: None, op: None }
    }

    /// The rank of the operands' layouts: 2, or 3 with a batch.
    pub(crate) fn rank(&self) -> usize {
        if self.batch.is_some() {
            3
        } else {
            2
        }
    }
}

/// The layout of an operand `(rows, cols[, L])` whose rows (`cols_major`:
/// its columns contiguous) are `ld` apart, and its matrices `stride`.
fn strided((rows, cols): (Int, Int), ld: Int, cols_major: bool, batch: Option<(Int, Int)>) -> Result<Layout> {
    let one = Int::new_dynamic(1);
    let (s0, s1) = if cols_major { (ld, one) } else { (one, ld) };
    Ok(match batch {
        Some((l, stride)) => Layout::new((rows, cols, l), (s0, s1, stride))?,
        None => Layout::new((rows, cols), (s0, s1))?,
    })
}

/// One operand's layouts before they are gathered into an [`OperandPlan`].
pub(crate) struct Side {
    /// `zipped_divide(X, (BX, BK))`.
    pub(crate) tiles: Layout,
    /// `cp.async` TV over `(BX, BK)`.
    pub(crate) copy_tv: Layout,
    /// `ldmatrix` source TV over `(BX, BK)` (the first MMA tile): each
    /// thread's row address is its value 0.
    pub(crate) frag: Layout,
    /// MMA tile repeats over `(BX, BK)`.
    pub(crate) rep: Layout,
    pub(crate) smem: AnyLayout,
    pub(crate) cost: [Vec<BankReport>; 2],
}

/// Whether two layouts are the same function over the same domain size.
pub(crate) fn same_function(a: &Layout, b: &Layout) -> Result<bool> {
    let n = a.size()?.value();
    if n != b.size()?.value() {
        return Ok(false);
    }
    Ok(a.indices()?.zip(b.indices()?).all(|(x, y)| x == y))
}

/// The shared offsets `s(u + v)` of a per-thread part `u` and a
/// compile-time part `v` as `s(u) ^ s(v)`: so the kernel computes `s(u)` once
/// and each access is one XOR with a constant. This holds when `u` and `v`
/// fill disjoint bits of the tile coordinate and `s` is a swizzled layout
/// (an XOR of bits, linear over them); it is checked here for every pair.
///
/// Pre: `u + v` in `s`'s domain. Post: `Some(s(v))` for each `v` when the
/// split holds for every `(u, v)`, else `None`.
pub(crate) fn xor_split(s: &AnyLayout, us: &[i64], vs: &[i64]) -> Result<Option<Vec<i64>>> {
    let at = |x: i64| -> Result<i64> { Ok(s.eval_int(Int::new_dynamic(x))?.value()) };
    let mut out = Vec::with_capacity(vs.len());
    for &v in vs {
        let sv = at(v)?;
        for &u in us {
            if at(u + v)? != at(u)? ^ sv {
                return Ok(None);
            }
        }
        out.push(sv);
    }
    Ok(Some(out))
}

/// `l(i)` for each `i` of `is`.
pub(crate) fn values_at(l: &Layout, is: impl Iterator<Item = i64>) -> Result<Vec<i64>> {
    is.map(|i| Ok(l.eval(i)?)).collect()
}

/// One operand's plan (its arguments are the operand's parts; a struct of
/// them would only be unpacked again). `ldsm` is the `ldmatrix` tiled copy
/// (`make_tiled_copy_A/B`): its source TV gives each thread's row address,
/// and its destination TV must be the MMA's (the registers come out in the
/// MMA's order).
#[allow(clippy::too_many_arguments)]
pub(crate) fn side(
    copy_tv: Layout,
    x: &Layout,
    rows: i64,
    bk: i64,
    mma_tv: &Layout,
    ldsm: &TiledCopy,
    mma_tile: (i64, i64),
    elem: Elem,
    k_major: bool,
    reasoning: &mut Vec<String>,
) -> Result<Side> {
    let (ldsm_s, ldsm_d) = (ldsm.layout_s_tv()?, ldsm.layout_d_tv()?);
    if !same_function(&ldsm_d, mma_tv)? {
        return Err(Error::unsupported(OP, format!("the ldmatrix copy gives {ldsm_d} where the MMA takes {mma_tv}")));
    }
    let tiles = kute::zipped_divide(x, &shape2(rows, bk))?;
    let zd = kute::zipped_divide(&Layout::from_shape(&shape2(rows, bk))?, &shape2(mma_tile.0, mma_tile.1))?;
    let frag = kute::composition(&zd.mode(0)?, &ldsm_s)?;
    let rep = zd.mode(1)?;
    let spec = SearchSpec {
        tile: (rows, bk),
        elem_bytes: elem.bytes(),
        major: if k_major { Major::Right } else { Major::Left },
        patterns: vec![
            ("cp.async".into(), Access::Tv(copy_tv.clone())),
            ("fragments".into(), Access::Tv(frag.clone())),
        ],
    };
    let r = search_swizzle(&spec)?;
    reasoning.extend(r.reasoning);
    let smem = r.best.layout;
    let cost =
        [block_bank_conflicts(&smem, elem.bytes(), &copy_tv)?, block_bank_conflicts(&smem, elem.bytes(), &frag)?];
    Ok(Side { tiles, copy_tv, frag, rep, smem, cost })
}

/// Plans `C = A · Bᵀ` for the extents (integers or unknowns given at
/// launch); the Pre and Post of [`crate::gemm::GemmKernel::new`] and
/// [`crate::gemm::Sm80GemmAtLaunch::new`].
pub(crate) fn plan(extents: Sm80Extents, elem: Elem, config: GemmConfig) -> Result<Sm80Plan> {
    let (m, n, k) = extents.mnk;
    let rank = extents.rank();
    let GemmConfig { bm, bn, bk, stages, a_k_major, b_k_major, c_elem } = config;
    let (atom, vt) = match elem {
        Elem::F16 => ("SM80_16x8x16_F32F16F16F32_TN", "half_t"),
        Elem::Bf16 => ("SM80_16x8x16_F32BF16BF16F32_TN", "bfloat16_t"),
        Elem::F32 | Elem::E4m3 | Elem::E5m2 => {
            return Err(Error::unsupported(OP, format!("{elem} inputs: the SM80 tensor-core GEMM takes f16 or bf16")))
        }
    };
    if bm < 32
        || bm % 32 != 0
        || bn < 16
        || bn % 16 != 0
        || bk < 32
        || bk % 32 != 0
        || 128 % (bk / 8) != 0
        || stages < 2
    {
        return Err(Error::unsupported(OP, format!("tile ({bm},{bn},{bk}) with {stages} stages")));
    }
    let positive = |x: Int| x.is_symbolic() || x.value() >= 1;
    if !positive(m) || !positive(n) || !positive(k) {
        return Err(Error::unsupported(OP, format!("({m},{n},{k}): M, N and K at least 1")));
    }
    if c_elem != Elem::F32 && c_elem != elem {
        return Err(Error::unsupported(OP, format!("a C of {c_elem} from {elem} inputs (f32 or {elem})")));
    }
    check_rows(OP, (m, n, k), (a_k_major, b_k_major), elem)?;
    // Off the tile grid (or for sizes at launch not declared multiples of
    // it), every copy and store is guarded by a predicate computed from
    // identity layouts (CuTe's make_identity_tensor).
    let predicated = !(known_multiple(m, bm) && known_multiple(n, bn) && known_multiple(k, bk));
    // dynamic shared memory: up to 227 KiB a block on Hopper (163 KiB on
    // an A100: the launch reports it there)
    let smem_bytes = stages * (bm + bn) * bk * 2;
    if smem_bytes > 227 * 1024 {
        return Err(Error::unsupported(OP, format!("{smem_bytes} bytes of shared memory (at most 227 KiB)")));
    }
    // CuTe's make_tiled_mma(atom, (_2,_2,_1)): four warps, 2 x 2
    let (s0, s1, s2) = (Int::ZERO, Int::ONE, Int::new_static(2));
    let warps = Layout::new((s2, s2, s1), (s1, s2, s0))?;
    let mma = TiledMma::new(MmaAtom::new(atom)?, Some(&warps), None)?;
    let (tv_a, tv_b, tv_c) = (mma.layout_a_tv()?, mma.layout_b_tv()?, mma.layout_c_tv()?);
    let ldsm = |which: Operand, op: &str| -> Result<TiledCopy> {
        Ok(TiledCopy::for_mma(CopyAtom::new(op, vt)?, &mma, which)?)
    };
    // K-major tiles are read with ldmatrix, M/N-major ones with ldmatrix.trans
    let ldsm_a = ldsm(Operand::A, if a_k_major { "SM75_U32x4_LDSM_N" } else { "SM75_U16x8_LDSM_T" })?;
    let ldsm_b = ldsm(Operand::B, if b_k_major { "SM75_U32x2_LDSM_N" } else { "SM75_U16x4_LDSM_T" })?;
    let (lda, ldb, ldc) = extents.ld;
    let (l, (sa_, sb_, sc_)) = match extents.batch {
        Some((l, s)) => (Some(l), s),
        None => (None, (Int::ZERO, Int::ZERO, Int::ZERO)),
    };
    let with = |s: Int| l.map(|l| (l, s));
    let a = strided((m, k), lda, a_k_major, with(sa_))?;
    let b = strided((n, k), ldb, b_k_major, with(sb_))?;
    let c = strided((m, n), ldc, true, with(sc_))?;
    let mut reasoning = Vec::new();
    let (copy_a, copy_b) =
        (copy_tv(OP, THREADS, bm, bk, elem, a_k_major, None)?, copy_tv(OP, THREADS, bn, bk, elem, b_k_major, None)?);
    let sa = side(copy_a, &a, bm, bk, &tv_a, &ldsm_a, (32, 16), elem, a_k_major, &mut reasoning)?;
    let sb = side(copy_b, &b, bn, bk, &tv_b, &ldsm_b, (16, 16), elem, b_k_major, &mut reasoning)?;
    let zc = kute::zipped_divide(&c, &shape2(bm, bn))?;
    let zt = kute::zipped_divide(&Layout::from_shape(&shape2(bm, bn))?, &shape2(32, 16))?;
    let frag_c = kute::composition(&zt.mode(0)?, &tv_c)?;
    let rep_c = zt.mode(1)?;

    // the coordinates (row, k) or (row, column) of what each thread
    // touches: a tile's coordinates, and the tile grid's by mode (with the
    // batch's coordinate)
    // (C's coordinates are needed by the fused epilogue and split-K's
    // guards too)
    let c_coords = predicated || extents.op.is_some() || l.is_some();
    let identity =
        |(rows, cols): (Int, Int), (tr, tc): (i64, i64), needed: bool| -> Result<Option<(Layout, TileModes)>> {
            if !needed {
                return Ok(None);
            }
            let id = match l {
                Some(l) => Layout::identity(&(rows, cols, l).as_int_tuple())?,
                None => Layout::identity(&(rows, cols).as_int_tuple())?,
            };
            let tiles = kute::zipped_divide(&id, &shape2(tr, tc))?.mode(1)?;
            Ok(Some((identity_tiles((rows, cols), (tr, tc))?.mode(0)?, TileModes::coordinates_of(&tiles, rank)?)))
        };
    let operand = |x: &Side, rows: Int, br: i64| -> Result<OperandPlan> {
        let id = identity((rows, k), (br, bk), predicated)?;
        let (ctiles, ccopy) = match id {
            Some((tile, grid)) => (Some(grid), Some(both_coordinates(&kute::composition(&tile, &x.copy_tv)?)?)),
            None => (None, None),
        };
        Ok(OperandPlan {
            tiles: TileModes::of(&x.tiles.mode(1)?)?,
            gtile: x.tiles.mode(0)?,
            scopy: x.copy_tv.clone(),
            ldsm: x.frag.clone(),
            rep: x.rep.clone(),
            ctiles,
            ccopy,
        })
    };
    let (plan_a, plan_b) = (operand(&sa, m, bm)?, operand(&sb, n, bn)?);
    let (ctiles, ctile) = match identity((m, n), (bm, bn), c_coords)? {
        Some((tile, grid)) => (Some(grid), Some(both_coordinates(&tile)?)),
        None => (None, None),
    };
    let plan_c =
        OutputPlan { tiles: TileModes::of(&zc.mode(1)?)?, tile: zc.mode(0)?, frag: frag_c, rep: rep_c, ctiles, ctile };

    let vec = 16 / elem.bytes();
    let (pa, pb) = (bm * bk / (THREADS * vec), bn * bk / (THREADS * vec));
    let (mm, mn, mk) = (bm / 32, bn / 16, bk / 16);
    let tvv = THREADS * vec;
    // Per-thread parts computed once, each access one XOR (shared) or one
    // addition (global) with a constant: the split is checked at every
    // thread and pass (it holds for every tile the Pre admits).
    let unsplit = |x: &str, what: &str| Error::unsupported(OP, format!("{x}'s {what} offsets do not split per thread"));
    let split_copy =
        |x: &str, side: &Side, plan: &OperandPlan, (rows, passes): (i64, i64)| -> Result<(Vec<i64>, Vec<Int>)> {
            let threads = 0..THREADS;
            let starts = || (0..passes).map(|p| tvv * p);
            let additive = |l: &Layout| -> Result<Option<(Vec<i64>, Vec<i64>)>> {
                let (us, vs) = (values_at(l, threads.clone())?, values_at(l, starts())?);
                for (p, &v) in vs.iter().enumerate() {
                    for (t, &u) in us.iter().enumerate() {
                        if l.eval(t as i64 + tvv * p as i64)? != u + v {
                            return Ok(None);
                        }
                    }
                }
                Ok(Some((us, vs)))
            };
            let Some((su, sv)) = additive(&plan.scopy)? else {
                return Err(unsplit(x, "cp.async"));
            };
            // the global offsets split wherever the tile's row and column each
            // add without a carry (then for every leading dimension): the
            // passes' parts are the global layout at the passes' starts
            let carries = sv.iter().any(|&v| su.iter().any(|&u| u % rows + v % rows >= rows));
            if carries {
                return Err(unsplit(x, "cp.async global"));
            }
            let sc = xor_split(&side.smem, &su, &sv)?.ok_or_else(|| unsplit(x, "cp.async"))?;
            let gv = sv.iter().map(|&v| Ok(plan.gtile.eval_int(Int::new_dynamic(v))?)).collect::<Result<Vec<Int>>>()?;
            Ok((sc, gv))
        };
    let (copy_sa, copy_ga) = split_copy("a", &sa, &plan_a, (bm, pa))?;
    let (copy_sb, copy_gb) = split_copy("b", &sb, &plan_b, (bn, pb))?;
    // The ldmatrix row addresses: s(frag(t) + rep(r)) as s(frag(t)) ^ s(rep(r)).
    let ldsm_split = |x: &str, side: &Side, reps: i64| -> Result<Vec<i64>> {
        let us = values_at(&side.frag, 0..THREADS)?;
        let vs = values_at(&side.rep, 0..reps * mk)?;
        xor_split(&side.smem, &us, &vs)?.ok_or_else(|| unsplit(x, "ldmatrix"))
    };
    let frag_a = ldsm_split("a", &sa, mm)?;
    let frag_b = ldsm_split("b", &sb, mn)?;
    let tiles_of = |x: Int, b: i64| x.ceil_div(Int::new_dynamic(b));
    let split_k = match extents.batch {
        Some((l, (_, _, sc))) => Some(super::SplitK::new((m, n, l), (ldc, sc), (bm, bn))?),
        None => None,
    };
    Ok(Sm80Plan {
        extents,
        elem,
        config,
        a,
        b,
        c,
        smem_a: sa.smem,
        smem_b: sb.smem,
        plan_a,
        plan_b,
        plan_c,
        cost_a: sa.cost,
        cost_b: sb.cost,
        reasoning,
        smem_bytes,
        predicated,
        passes: (pa, pb),
        repeats: (mm, mn, mk),
        tiles: (tiles_of(m, bm)?, tiles_of(n, bn)?, tiles_of(k, bk)?),
        pass_step: tvv,
        split_a: SplitOffsets { copy_smem: copy_sa, copy_gmem: copy_ga, frag: frag_a },
        split_b: SplitOffsets { copy_smem: copy_sb, copy_gmem: copy_gb, frag: frag_b },
        split_k,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kute::composed::compose3;

    #[test]
    fn xor_split_holds_only_where_every_pair_splits() {
        // Sw<2,3,3> o _0 o (_128,_32):(_32,_1)
        let (s128, s32) = (Int::new_static(128), Int::new_static(32));
        let tile = Layout::new((s128, s32), (s32, Int::ONE)).unwrap();
        let sw = compose3(AnyLayout::Swizzle(kute::Swizzle::new(2, 3, 3).unwrap()), Int::ZERO, AnyLayout::Layout(tile));
        let at = |x: i64| sw.eval_int(Int::new_dynamic(x)).unwrap().value();
        // rows 0..32 at column 0 or 8, against repeats of 32 rows and 16 columns
        let us: Vec<i64> = (0..64).map(|i| i % 32 + 128 * (8 * (i / 32))).collect();
        let vs = [0, 32, 64, 96, 128 * 16, 32 + 128 * 16];
        assert_eq!(xor_split(&sw, &us, &vs).unwrap(), Some(vs.iter().map(|&v| at(v)).collect()));
        // a carry between the parts (row 1 + row 1) breaks the split
        assert_eq!(xor_split(&sw, &[1], &[1]).unwrap(), None);
    }

    /// Every value of `l` over its domain (a layout of concrete sizes), and
    /// its coordinates' components for a coordinate layout (static marks
    /// dropped: a size of 1 is static in one plan and not in the other).
    fn values(l: &Layout) -> Vec<String> {
        let n = l.size().unwrap().value();
        (0..n).map(|i| l.eval_point(Int::new_dynamic(i)).unwrap().to_int_tuple().to_string().replace('_', "")).collect()
    }

    /// The law of sizes given at launch: for sizes the facts allow, the
    /// plan made with unknowns, the values put in, evaluates as the plan
    /// made for those values at every index of every layout the kernel
    /// evaluates, with the same per-pass global offsets and tile counts,
    /// and it guards the edges wherever that plan does.
    #[test]
    fn the_sm80_plan_of_sizes_at_launch_is_the_plan_of_every_size_it_allows() {
        use kute::sym::{Sym, Valuation};
        let configs = [
            GemmConfig::default(),
            GemmConfig { bm: 64, bn: 64, a_k_major: false, c_elem: Elem::F16, ..GemmConfig::default() },
            GemmConfig { bm: 128, bn: 64, b_k_major: false, ..GemmConfig::default() },
            GemmConfig { bm: 64, bn: 128, a_k_major: false, b_k_major: false, ..GemmConfig::default() },
        ];
        let mut next = crate::plan::test_draws(0x9e37_79b9_7f4a_7c15u64);
        let mut compared = 0;
        for config in configs {
            for (md, nd, kd) in [(8, 8, 8), (128, 128, 32)] {
                let unknown = |n: &str, d: i64| Int::symbolic(Sym::var_div(n, d).unwrap()).unwrap();
                let extents = Sm80Extents {
                    mnk: (unknown("M", md), unknown("N", nd), unknown("K", kd)),
                    ld: (unknown("LDA", 8), unknown("LDB", 8), unknown("LDC", nd.min(8))),
                    batch: Some((unknown("L", 1), (unknown("SA", 8), unknown("SB", 8), unknown("SC", nd.min(8))))),
                    op: None,
                };
                let sym = plan(extents, Elem::F16, config).unwrap();
                for _ in 0..3 {
                    let (m, n, k) = (md * next(300 / md + 2), nd * next(300 / nd + 2), kd * next(200 / kd + 2));
                    let extra: Vec<i64> = (0..6).map(|_| 8 * (next(3) - 1)).collect();
                    let rows = |r: i64, c: i64, km: bool| if km { (r, c) } else { (c, r) };
                    let (ar, ac) = rows(m, k, config.a_k_major);
                    let (br, bc) = rows(n, k, config.b_k_major);
                    let (lda, ldb, ldc) = (ac + extra[0], bc + extra[1], n + extra[2]);
                    let l = next(3);
                    let (sa, sb, sc) = (ar * lda + extra[3], br * ldb + extra[4], m * ldc + extra[5]);
                    let d = Int::new_dynamic;
                    let fixed = Sm80Extents {
                        mnk: (d(m), d(n), d(k)),
                        ld: (d(lda), d(ldb), d(ldc)),
                        batch: Some((d(l), (d(sa), d(sb), d(sc)))),
                        op: None,
                    };
                    let want = plan(fixed, Elem::F16, config).unwrap();
                    let v = Valuation::from([
                        ("M", m),
                        ("N", n),
                        ("K", k),
                        ("LDA", lda),
                        ("LDB", ldb),
                        ("LDC", ldc),
                        ("L", l),
                        ("SA", sa),
                        ("SB", sb),
                        ("SC", sc),
                    ]);
                    let put = |x: &Layout| values(&x.substitute(&v).unwrap());
                    let modes = |t: &TileModes| [Some(t.first.clone()), Some(t.second.clone()), t.batch.clone()];
                    let mut pairs: Vec<(Layout, Layout)> = Vec::new();
                    for (s, w) in [
                        (&sym.plan_a.tiles, &want.plan_a.tiles),
                        (&sym.plan_b.tiles, &want.plan_b.tiles),
                        (&sym.plan_c.tiles, &want.plan_c.tiles),
                    ] {
                        for (s, w) in modes(s).into_iter().zip(modes(w)) {
                            pairs.push((s.unwrap(), w.unwrap()));
                        }
                    }
                    for (s, w) in [
                        (&sym.plan_a.ctiles, &want.plan_a.ctiles),
                        (&sym.plan_b.ctiles, &want.plan_b.ctiles),
                        (&sym.plan_c.ctiles, &want.plan_c.ctiles),
                    ] {
                        match (s, w) {
                            (Some(s), Some(w)) => {
                                for (s, w) in modes(s).into_iter().zip(modes(w)) {
                                    pairs.push((s.unwrap(), w.unwrap()));
                                }
                            }
                            (Some(_), None) => assert!(sym.predicated && !want.predicated),
                            (None, Some(_)) => {
                                panic!("({m},{n},{k}): the plan for values guards, the symbolic one not")
                            }
                            (None, None) => {}
                        }
                    }
                    pairs.push((sym.plan_a.gtile.clone(), want.plan_a.gtile.clone()));
                    pairs.push((sym.plan_b.gtile.clone(), want.plan_b.gtile.clone()));
                    pairs.push((sym.plan_c.tile.clone(), want.plan_c.tile.clone()));
                    for (s, w) in &pairs {
                        assert_eq!(put(s), values(w), "({m},{n},{k}) {config:?}");
                    }
                    let at = |x: &Int| x.substitute(&v).unwrap().value();
                    for (s, w) in [(&sym.split_a, &want.split_a), (&sym.split_b, &want.split_b)] {
                        let got: Vec<i64> = s.copy_gmem.iter().map(at).collect();
                        let fixed: Vec<i64> = w.copy_gmem.iter().map(|x| x.value()).collect();
                        assert_eq!(got, fixed);
                    }
                    let (st, wt) = (sym.tiles, want.tiles);
                    assert_eq!([at(&st.0), at(&st.1), at(&st.2)], [wt.0.value(), wt.1.value(), wt.2.value()]);
                    assert!(sym.predicated || !want.predicated);
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 24);
    }
}
