//! The plan of the SM80 attention forward kernel (see [`crate::attention`]):
//! every thread's fragments of `Q`, `K`, `S`, `P`, `V` and `O` as layouts of
//! the tiled MMA, the `S` → `P` re-layout, and the lanes that share a row.

use super::gemm_sm80::{side, values_at, xor_split, Side};
use super::{copy_tv, layout2, shape2};
use crate::attention::AttentionConfig;
use crate::{Elem, Error, Result};
use kute::analysis::BankReport;
use kute::atom::{CopyAtom, MmaAtom, Operand, TiledCopy, TiledMma};
use kute::{AnyLayout, Int, Layout, Tiler};

const OP: &str = "attention plan";

/// One operand of one MMA over a block tile `(rows, cols)` (column-major
/// offsets `row + rows · col`): thread `t`'s value `v` of repeat `r` is at
/// `frag(t + threads · v) + rep(r)`.
#[derive(Clone, Debug)]
pub(crate) struct Fragments {
    /// `t + threads · v` to the offset in the tile (the first MMA tile).
    pub frag: Layout,
    /// MMA tile repeat to its offset.
    pub rep: Layout,
    /// The block tile `(rows, cols)`.
    pub tile: (i64, i64),
    /// Values per thread in one MMA tile.
    pub values: i64,
    /// MMA tiles in the block tile.
    pub repeats: i64,
    /// MMA tiles along the tile's rows and columns: repeat `a + grid.0 · b`
    /// is the tile at `(a, b)` (checked).
    pub grid: (i64, i64),
}

impl Fragments {
    /// `(thread, value, repeat)` as one index (`t + threads · (v + values ·
    /// r)`) to the offset: `frag` and `rep` side by side.
    pub(crate) fn full(&self) -> Result<Layout> {
        Ok(Layout::concat([&self.frag, &self.rep])?)
    }

    /// The `(row, column)` of thread `t`'s value `v` of repeat `r`.
    pub(crate) fn coord(&self, threads: i64, t: i64, v: i64, r: i64) -> Result<(i64, i64)> {
        let x = self.frag.eval(t + threads * v)? + self.rep.eval(r)?;
        Ok((x % self.tile.0, x / self.tile.0))
    }
}

/// The SM80 attention forward kernel's plan.
pub(crate) struct AttentionSm80Plan {
    /// The choices.
    pub config: AttentionConfig,
    /// The inputs' type.
    pub elem: Elem,
    /// Threads per block.
    pub threads: i64,
    /// CuTe's name of the MMA atom.
    pub atom: String,
    /// `Q` as `A` of `S = Q·Kᵀ`, over `(block_m, d)`.
    pub q: Fragments,
    /// `K` as `B` of `S = Q·Kᵀ`, over `(block_n, d)`.
    pub k: Fragments,
    /// `S`, the accumulators of `Q·Kᵀ`, over `(block_m, block_n)`.
    pub s: Fragments,
    /// `P` as `A` of `O = P·V`, over `(block_m, block_n)`.
    pub p: Fragments,
    /// `V` as `B` of `O = P·V`: `(d, block_n)` (`N = d`, `K` the keys).
    pub v: Fragments,
    /// `O`, the accumulators of `P·V`, over `(block_m, d)`.
    pub o: Fragments,
    /// `K`'s and `V`'s fragments as one `ldmatrix` loads them: `k` and `v`
    /// where `kv_x4` is off, else those of the tiled MMA permuted to 16
    /// along N (two MMA tiles per repeat).
    pub k_load: Fragments,
    pub v_load: Fragments,
    /// Per register of a `K` or `V` load: the MMA tile of the pair (0 or 1
    /// past `2 · a` for load repeat `(a, b)`) and its register there (the
    /// same for `K` and `V`: checked).
    pub kv_regs: Vec<(i64, i64)>,
    /// `P`'s full index (see [`Fragments::full`]) to `S`'s: each `P`
    /// register's value is the `S` register of the same thread at that
    /// index, `left_inverse(S) ∘ P`.
    pub p_from_s: Layout,
    /// The lane masks whose XOR reaches every thread that shares a row of
    /// `S` (and of `O`) with a thread: a row's maximum and sum are combined
    /// by shuffles over them.
    pub row_masks: Vec<i64>,
    /// The shared tiles of `Q` `(block_m, d)`, `K` `(block_n, d)` and `V`
    /// `(d, block_n)` (column-major coordinates; `V` is stored key-major,
    /// so its tile is read with `ldmatrix.trans`), each the swizzle kute's
    /// search finds for its `cp.async` stores and `ldmatrix` reads.
    pub smem: [SharedTile; 3],
    /// The kernel's form of the shared tiles' indices (`Q`, `K`, `V`).
    pub tiles: [TileIndices; 3],
    /// The kernel's form of `S`'s register coordinates.
    pub s_regs: RegisterIndices,
    /// The kernel's form of `O`'s register coordinates.
    pub o_regs: RegisterIndices,
    /// Each row slot's row, relative to the thread's first (the rows a
    /// thread holds of `S` and of `O`: the same, checked).
    pub slot_rows: Vec<i64>,
    /// `P`'s value `j` of a thread is its `S` register `p_src[j]` (from
    /// `p_from_s`).
    pub p_src: Vec<i64>,
    /// Whether `Q`'s fragments stay in registers for the whole block
    /// (where the accumulators leave room), else they are read from shared
    /// memory at each key block with `K`'s.
    pub q_in_registers: bool,
    /// Bytes of dynamic shared memory: one tile each of `Q`, `K` and `V`.
    pub smem_bytes: i64,
}

/// A shared tile's indices as the kernel computes them: a per-thread part
/// computed once, and a constant per `cp.async` pass or MMA repeat (an
/// addition in global memory, an XOR in the swizzled shared tile).
pub(crate) struct TileIndices {
    /// Thread to the tile coordinate of its first `cp.async` vector.
    pub copy: Layout,
    /// Thread to that vector's position along the sequence (a row of `Q`
    /// or `K`, a key of `V`).
    pub seq: Layout,
    /// Thread to that vector's first position along the head dimension.
    pub dim: Layout,
    /// `cp.async` passes per thread over the tile.
    pub passes: i64,
    /// Per pass: the shared offset's constant, as an XOR on the bits a
    /// thread's part may hold and an addition above them (the swizzle's
    /// XOR with bits the thread's part never has is an addition, which the
    /// instructions take as an immediate).
    pub pass_smem: Vec<(i64, i64)>,
    /// Per pass: the sequence offset.
    pub pass_seq: Vec<i64>,
    /// Per pass: the head-dimension offset.
    pub pass_dim: Vec<i64>,
    /// Per MMA repeat: the constant of the `ldmatrix` row addresses, split
    /// as `pass_smem`'s.
    pub frag_smem: Vec<(i64, i64)>,
}

/// An accumulator's registers (`S` or `O`) as the kernel addresses them.
#[derive(Debug)]
pub(crate) struct RegisterIndices {
    /// Thread to the row of its value 0 of repeat 0.
    pub row: Layout,
    /// Thread to the column of its value 0 of repeat 0.
    pub col: Layout,
    /// Per register `v + values · r`: its `(row, column)` past the thread's.
    pub offsets: Vec<(i64, i64)>,
    /// Per register: its row slot (an index into the plan's `slot_rows`).
    pub slots: Vec<usize>,
}

/// One operand's shared tile and its copies in and out.
pub(crate) struct SharedTile {
    /// The swizzled tile.
    pub layout: AnyLayout,
    /// `cp.async` TV index to the tile coordinate.
    pub copy_tv: Layout,
    /// `ldmatrix` source TV over the first MMA tile: each thread's row
    /// address is its value 0 (the destination TV is the MMA's: checked).
    pub ldsm: Layout,
    /// MMA tile repeats over the tile.
    pub rep: Layout,
    /// Predicted wavefronts of the `cp.async` stores and of the `ldmatrix`
    /// reads, per warp.
    pub cost: [Vec<BankReport>; 2],
    /// The swizzle search's reasoning.
    pub reasoning: Vec<String>,
}

impl SharedTile {
    fn of(s: Side, reasoning: Vec<String>) -> SharedTile {
        SharedTile { layout: s.smem, copy_tv: s.copy_tv, ldsm: s.frag, rep: s.rep, cost: s.cost, reasoning }
    }
}

/// The fragments of `which` over the block tile `tile`, the tiled MMA's
/// `atom_tile` repeated over it.
pub(crate) fn fragments(mma: &TiledMma, which: Operand, tile: (i64, i64), atom_tile: (i64, i64)) -> Result<Fragments> {
    let tv = mma.layout_tv(which)?;
    let z = kute::zipped_divide(&Layout::from_shape(&shape2(tile.0, tile.1))?, &shape2(atom_tile.0, atom_tile.1))?;
    let frag = kute::composition(&z.mode(0)?, &tv)?;
    let rep = z.mode(1)?;
    let threads = mma.size()?.value();
    let values = tv.size()?.value() / threads;
    let repeats = rep.size()?.value();
    let grid = (tile.0 / atom_tile.0, tile.1 / atom_tile.1);
    for r in 0..repeats {
        let (a, b) = (r % grid.0, r / grid.0);
        if rep.eval(r)? != a * atom_tile.0 + tile.0 * atom_tile.1 * b {
            return Err(Error::unsupported(OP, format!("the MMA tiles {rep} over {tile:?} are not column-major")));
        }
    }
    Ok(Fragments { frag, rep, tile, values, repeats, grid })
}

/// The rows of `S` (or `O`) thread `t` holds, in order.
pub(crate) fn rows_of(f: &Fragments, threads: i64, t: i64) -> Result<Vec<i64>> {
    let mut rows = Vec::new();
    for r in 0..f.repeats {
        for v in 0..f.values {
            rows.push(f.coord(threads, t, v, r)?.0);
        }
    }
    rows.sort_unstable();
    rows.dedup();
    Ok(rows)
}

/// Checks that `f` covers its tile once within each of `groups` equal
/// groups of the `threads` (B fragments: every warp holds the whole tile).
pub(crate) fn covers_once(what: &str, f: &Fragments, threads: i64, groups: i64) -> Result<()> {
    let cells = f.tile.0 * f.tile.1;
    let per = threads / groups;
    for g in 0..groups {
        let mut seen = vec![false; cells as usize];
        for t in g * per..(g + 1) * per {
            for r in 0..f.repeats {
                for val in 0..f.values {
                    let (row, col) = f.coord(threads, t, val, r)?;
                    let at = (row + f.tile.0 * col) as usize;
                    if row >= f.tile.0 || col >= f.tile.1 || std::mem::replace(&mut seen[at], true) {
                        return Err(Error::unsupported(
                            OP,
                            format!(
                                "{what}'s fragments {} + {} do not cover its {:?} tile once",
                                f.frag, f.rep, f.tile
                            ),
                        ));
                    }
                }
            }
        }
        if seen.contains(&false) {
            return Err(Error::unsupported(OP, format!("{what}'s fragments leave cells of its {:?} tile", f.tile)));
        }
    }
    Ok(())
}

/// `P`'s full index to `S`'s, `left_inverse(S) ∘ P`, checked to keep
/// every value in its thread (the accumulators become the next MMA's `A`
/// operand in registers).
pub(crate) fn p_from_s(s: &Fragments, p: &Fragments, threads: i64) -> Result<Layout> {
    let p_from_s = kute::composition(&kute::left_inverse(&s.full()?)?, &p.full()?)?;
    for x in 0..p_from_s.size()?.value() {
        let y = p_from_s.eval(x)?;
        if y % threads != x % threads {
            return Err(Error::unsupported(
                OP,
                format!("P's value {x} is S's value {y}, held by thread {} rather than {}", y % threads, x % threads),
            ));
        }
    }
    Ok(p_from_s)
}

/// The lane masks whose XOR reaches every thread sharing a row of `S`
/// with a thread, checked at every thread, and that each thread holds the
/// same rows of `O` as of `S`.
pub(crate) fn row_masks(s: &Fragments, o: &Fragments, threads: i64) -> Result<Vec<i64>> {
    // the lanes sharing a row: lane 0's partners, then every lane's by XOR
    let s_rows: Vec<Vec<i64>> = (0..threads).map(|t| rows_of(s, threads, t)).collect::<Result<_>>()?;
    let partners: Vec<i64> = (0..threads).filter(|&t| s_rows[t as usize] == s_rows[0]).collect();
    let row_masks: Vec<i64> = (0..5).map(|b| 1i64 << b).filter(|m| partners.contains(m)).collect();
    let span: Vec<i64> = (0..1i64 << row_masks.len())
        .map(|bits| row_masks.iter().enumerate().filter(|(i, _)| bits >> i & 1 == 1).fold(0, |a, (_, m)| a ^ m))
        .collect();
    for t in 0..threads {
        let mine = &s_rows[t as usize];
        for u in 0..threads {
            let shares = s_rows[u as usize].iter().any(|r| mine.contains(r));
            let partner = span.contains(&(t ^ u));
            if shares != partner || (shares && s_rows[u as usize] != *mine) {
                return Err(Error::unsupported(
                    OP,
                    format!("threads {t} and {u} share rows of S unlike the lane masks {row_masks:?}"),
                ));
            }
        }
        if rows_of(o, threads, t)? != *mine {
            return Err(Error::unsupported(OP, format!("thread {t} holds other rows of O than of S")));
        }
    }
    Ok(row_masks)
}

/// Plans the kernel for `config` and `elem` (the Pre of
/// [`AttentionConfig::check`]); every claim the kernel relies on is
/// checked here: the fragments cover their tiles once, each `P` register
/// is an `S` register of its own thread, and the threads sharing a row of
/// `S` are a lane's XOR with the row masks, holding the same rows of `O`.
pub(crate) fn plan(config: AttentionConfig, elem: Elem) -> Result<AttentionSm80Plan> {
    config.check(elem)?;
    let AttentionConfig { head_dim: d, block_m: bm, block_n: bn, warps, .. } = config;
    let atom = match elem {
        Elem::Bf16 => "SM80_16x8x16_F32BF16BF16F32_TN",
        _ => "SM80_16x8x16_F32F16F16F32_TN",
    };
    // CuTe's make_tiled_mma(atom, (warps, 1, 1)): the warps stacked along M
    let (s0, s1) = (Int::ZERO, Int::ONE);
    let warp_layout = Layout::new((Int::new_static(warps), s1, s1), (s1, s0, s0))?;
    let mma = TiledMma::new(MmaAtom::new(atom)?, Some(&warp_layout), None)?;
    let threads = mma.size()?.value();
    let rows = 16 * warps;
    let q = fragments(&mma, Operand::A, (bm, d), (rows, 16))?;
    let k = fragments(&mma, Operand::B, (bn, d), (8, 16))?;
    let s = fragments(&mma, Operand::C, (bm, bn), (rows, 8))?;
    let p = fragments(&mma, Operand::A, (bm, bn), (rows, 16))?;
    let v = fragments(&mma, Operand::B, (d, bn), (8, 16))?;
    let o = fragments(&mma, Operand::C, (bm, d), (rows, 8))?;
    // the B loads: with x4, CuTe's Tile<16·warps, 16, 16> permutation makes
    // each thread's B values cover two MMA tiles of 8 along N
    let mma_b = if config.kv_x4 {
        let tiler = Tiler::Tuple([rows, 16, 16].map(|n| Tiler::Int(Int::new_static(n))).to_vec());
        TiledMma::new(MmaAtom::new(atom)?, Some(&warp_layout), Some(&tiler))?
    } else {
        mma.clone()
    };
    let b_n = if config.kv_x4 { 16 } else { 8 };
    let k_load = fragments(&mma_b, Operand::B, (bn, d), (b_n, 16))?;
    let v_load = fragments(&mma_b, Operand::B, (d, bn), (b_n, 16))?;
    let kv_regs = load_registers(&k_load, &k, threads)?;
    if load_registers(&v_load, &v, threads)? != kv_regs {
        return Err(Error::unsupported(OP, "K's and V's loads hold their MMA tiles' registers in different orders"));
    }
    // every fragment map covers its tile once: A's and C's over all the
    // threads, B's (which every warp holds whole) over each warp's
    for (what, f, per_warp) in
        [("Q", &q, false), ("K", &k, true), ("S", &s, false), ("P", &p, false), ("V", &v, true), ("O", &o, false)]
    {
        covers_once(what, f, threads, if per_warp { warps } else { 1 })?;
    }
    let p_from_s = p_from_s(&s, &p, threads)?;
    let row_masks = row_masks(&s, &o, threads)?;
    // the shared tiles: ldmatrix copies made for the MMA's operands
    // (make_tiled_copy_A/B), the swizzles found by kute's search over the
    // cp.async stores and the ldmatrix reads
    let vt = if elem == Elem::Bf16 { "bfloat16_t" } else { "half_t" };
    let ldsm = |which: Operand, op: &str| -> Result<TiledCopy> {
        Ok(TiledCopy::for_mma(CopyAtom::new(op, vt)?, &mma, which)?)
    };
    let ldsm_b =
        |op: &str| -> Result<TiledCopy> { Ok(TiledCopy::for_mma(CopyAtom::new(op, vt)?, &mma_b, Operand::B)?) };
    let (tv_a, tv_b) = (mma.layout_a_tv()?, mma_b.layout_b_tv()?);
    // the copies in lines of 64 elements of d (FlashAttention-2's), or the
    // shortest longer line whose rows the keys of a step fill: a thread's
    // vectors of one row lie at constant offsets along d, which its copies
    // take as immediates
    let vec = 16 / elem.bytes();
    let line = std::iter::successors(Some(64.min(d)), |l| Some(2 * l))
        .take_while(|&l| l < d)
        .find(|&l| threads * vec % l == 0 && bn % (threads * vec / l) == 0);
    let tile_of = |rows: i64, cols: i64, k_major: bool, tv: &Layout, copy: &TiledCopy, mma_tile: (i64, i64)| {
        let x = if k_major { layout2((rows, cols), (cols, 1))? } else { layout2((rows, cols), (1, rows))? };
        let mut reasoning = Vec::new();
        let copy_tv = copy_tv(OP, threads, rows, cols, elem, k_major, line)?;
        let sd = side(copy_tv, &x, rows, cols, tv, copy, mma_tile, elem, k_major, &mut reasoning)?;
        Ok::<SharedTile, Error>(SharedTile::of(sd, reasoning))
    };
    let smem = [
        tile_of(bm, d, true, &tv_a, &ldsm(Operand::A, "SM75_U32x4_LDSM_N")?, (rows, 16))?,
        tile_of(
            bn,
            d,
            true,
            &tv_b,
            &ldsm_b(if config.kv_x4 { "SM75_U32x4_LDSM_N" } else { "SM75_U32x2_LDSM_N" })?,
            (b_n, 16),
        )?,
        tile_of(
            d,
            bn,
            false,
            &tv_b,
            &ldsm_b(if config.kv_x4 { "SM75_U16x8_LDSM_T" } else { "SM75_U16x4_LDSM_T" })?,
            (b_n, 16),
        )?,
    ];
    let tiles = [
        tile_indices(&smem[0], threads, elem, (bm, d), true)?,
        tile_indices(&smem[1], threads, elem, (bn, d), true)?,
        tile_indices(&smem[2], threads, elem, (d, bn), false)?,
    ];
    let (s_regs, o_regs, slot_rows, p_src) = register_plan(&s, &o, &p_from_s, threads)?;
    // Q's fragments stay in registers where the accumulators leave room
    // under the 255 registers a thread may hold (FlashAttention-2 keeps Q in
    // shared memory at d = 128, where O alone takes 128)
    let regs = |f: &Fragments, per: i64| f.values * f.repeats / per;
    let q_in_registers = regs(&o, 1) + regs(&s, 1) + regs(&q, 2) <= 160;
    let smem_bytes = config.smem_bytes(elem);
    if smem_bytes > 227 * 1024 {
        return Err(Error::unsupported(OP, format!("{smem_bytes} bytes of shared memory (at most 227 KiB)")));
    }
    Ok(AttentionSm80Plan {
        config,
        elem,
        threads,
        atom: atom.to_string(),
        q,
        k,
        s,
        p,
        v,
        o,
        k_load,
        v_load,
        kv_regs,
        p_from_s,
        row_masks,
        smem,
        tiles,
        s_regs,
        o_regs,
        slot_rows,
        p_src,
        q_in_registers,
        smem_bytes,
    })
}

/// Where each register of `ld` (a B operand's fragments as one `ldmatrix`
/// loads them, `ratio` MMA tiles of `f` along N per repeat) lives in `f`:
/// register `i` (values `2i`, `2i + 1`) of load repeat `(a, b)` is register
/// `q` of `f`'s tile `(ratio · a + sub, b)`, the same `(sub, q)` for every
/// thread and repeat (checked).
fn load_registers(ld: &Fragments, f: &Fragments, threads: i64) -> Result<Vec<(i64, i64)>> {
    let ratio = f.grid.0 / ld.grid.0;
    let unlike = || Error::unsupported(OP, format!("the B load {} + {} is not pairs of MMA tiles", ld.frag, ld.rep));
    if ld.grid.1 != f.grid.1 || ld.grid.0 * ratio != f.grid.0 || ld.values != f.values * ratio {
        return Err(unlike());
    }
    let mut regs = Vec::new();
    for i in 0..ld.values / 2 {
        let want = |t: i64, r: i64, e: i64| ld.coord(threads, t, 2 * i + e, r);
        let found = (0..ratio)
            .flat_map(|sub| (0..f.values / 2).map(move |q| (sub, q)))
            .find(|&(sub, q)| f.coord(threads, 0, 2 * q, sub).ok() == want(0, 0, 0).ok())
            .ok_or_else(unlike)?;
        for t in 0..threads {
            for r in 0..ld.repeats {
                let (a, b) = (r % ld.grid.0, r / ld.grid.0);
                let tile = ratio * a + found.0 + f.grid.0 * b;
                for e in 0..2 {
                    if f.coord(threads, t, 2 * found.1 + e, tile)? != want(t, r, e)? {
                        return Err(unlike());
                    }
                }
            }
        }
        regs.push(found);
    }
    Ok(regs)
}

/// `f`'s registers in the kernel's form, and the rows of its slots.
struct Registers {
    indices: RegisterIndices,
    slot_rows: Vec<i64>,
}

/// The projections of a column-major `(rows, cols)` tile's offsets on its
/// row and its column.
fn projections((rows, cols): (i64, i64)) -> Result<(Layout, Layout)> {
    Ok((layout2((rows, cols), (1, 0))?, layout2((rows, cols), (0, 1))?))
}

/// Splits the coordinates of `f`'s registers into a per-thread part (value
/// 0 of repeat 0) and a constant per register, checked at every thread.
fn register_indices(f: &Fragments, threads: i64) -> Result<Registers> {
    let thread = f.frag.mode(0)?;
    let (pr, pc) = projections(f.tile)?;
    let (row, col) = (kute::composition(&pr, &thread)?, kute::composition(&pc, &thread)?);
    let n = f.values * f.repeats;
    let mut offsets = Vec::with_capacity(n as usize);
    for i in 0..n {
        offsets.push(f.coord(threads, 0, i % f.values, i / f.values)?);
    }
    let base0 = offsets[0];
    for o in &mut offsets {
        *o = (o.0 - base0.0, o.1 - base0.1);
    }
    for t in 0..threads {
        let base = (row.eval(t)?, col.eval(t)?);
        for (i, off) in offsets.iter().enumerate() {
            let i = i as i64;
            if f.coord(threads, t, i % f.values, i / f.values)? != (base.0 + off.0, base.1 + off.1) {
                return Err(Error::unsupported(
                    OP,
                    format!("register {i} of thread {t} in {:?} is not its thread's base plus a constant", f.tile),
                ));
            }
        }
    }
    let mut slot_rows: Vec<i64> = offsets.iter().map(|o| o.0).collect();
    slot_rows.sort_unstable();
    slot_rows.dedup();
    let slots = offsets.iter().map(|o| slot_rows.binary_search(&o.0).unwrap_or(0)).collect();
    Ok(Registers { indices: RegisterIndices { row, col, offsets, slots }, slot_rows })
}

/// The accumulators' registers in the kernel's form (see
/// [`register_indices`]) and `P`'s sources: `S`'s and `O`'s registers as a
/// per-thread base and a constant each, the rows of their slots (the same
/// for both: checked), and per `P` register the `S` register holding its
/// value (from `p_from_s`, the same number in every thread: checked). `O`
/// is stored in pairs of neighbouring columns from an even one (checked).
pub(crate) fn register_plan(
    s: &Fragments,
    o: &Fragments,
    p_from_s: &Layout,
    threads: i64,
) -> Result<(RegisterIndices, RegisterIndices, Vec<i64>, Vec<i64>)> {
    let s_regs = register_indices(s, threads)?;
    let o_regs = register_indices(o, threads)?;
    if s_regs.slot_rows != o_regs.slot_rows {
        return Err(Error::unsupported(OP, "S's and O's registers hold their rows in different orders"));
    }
    // O is stored in pairs of neighbouring columns (one 32-bit store each)
    for t in 0..threads {
        let c0 = o_regs.indices.col.eval(t)?;
        for pair in o_regs.indices.offsets.chunks(2) {
            if pair.len() != 2 || pair[1] != (pair[0].0, pair[0].1 + 1) || (c0 + pair[0].1) % 2 != 0 {
                return Err(Error::unsupported(
                    OP,
                    format!("O's registers {pair:?} of thread {t} are not column pairs"),
                ));
            }
        }
    }
    let n = p_from_s.size()?.value() / threads;
    let p_src = (0..n).map(|j| Ok(p_from_s.eval(threads * j)? / threads)).collect::<Result<Vec<i64>>>()?;
    // the same S register for every thread (p_from_s keeps each value in
    // its thread; here its number does not depend on the thread)
    for t in 0..threads {
        for (j, &src) in p_src.iter().enumerate() {
            if p_from_s.eval(t + threads * j as i64)? != t + threads * src {
                return Err(Error::unsupported(
                    OP,
                    format!("P's value {j} comes from another S register in thread {t}"),
                ));
            }
        }
    }
    Ok((s_regs.indices, o_regs.indices, s_regs.slot_rows, p_src))
}

/// Each constant `c` of `cs` XORed onto the per-thread parts `us` as an
/// XOR on the bits the parts hold and an addition of the rest: `u ^ c ==
/// (u ^ x) + a` for every `u` (the bits of `a` are none of `u`'s).
fn xor_add(us: &[i64], cs: &[i64]) -> Vec<(i64, i64)> {
    let held = us.iter().fold(0, |m, u| m | u);
    cs.iter().map(|c| (c & held, c & !held)).collect()
}

/// The shared tile `t` over `tile` (`(rows, d)` for `Q` and `K`, the
/// sequence its rows; `(d, keys)` for `V`) in the kernel's form: each
/// `cp.async` vector and `ldmatrix` row address as a per-thread part and
/// a constant, every split checked at every thread, and each vector
/// contiguous in global (along `d`) and shared memory.
fn tile_indices(t: &SharedTile, threads: i64, elem: Elem, tile: (i64, i64), seq_rows: bool) -> Result<TileIndices> {
    let vec = 16 / elem.bytes();
    let cells = tile.0 * tile.1;
    let passes = cells / (threads * vec);
    let step = threads * vec;
    let copy = t.copy_tv.mode(0)?;
    let (pr, pc) = projections(tile)?;
    let (ps, pd) = if seq_rows { (pr, pc) } else { (pc, pr) };
    let (seq, dim) = (kute::composition(&ps, &copy)?, kute::composition(&pd, &copy)?);
    let at = |x: i64| -> Result<i64> { Ok(t.layout.eval_int(Int::new_dynamic(x))?.value()) };
    let unsplit = |what: &str| Error::unsupported(OP, format!("the {tile:?} tile's {what} do not split per thread"));
    let starts = || (0..passes).map(|p| step * p);
    let us = values_at(&copy, 0..threads)?;
    let vs = values_at(&t.copy_tv, starts())?;
    let pass_seq = vs.iter().map(|&x| Ok(ps.eval(x)?)).collect::<Result<Vec<i64>>>()?;
    let pass_dim = vs.iter().map(|&x| Ok(pd.eval(x)?)).collect::<Result<Vec<i64>>>()?;
    for th in 0..threads {
        let (s0, d0, x0) = (seq.eval(th)?, dim.eval(th)?, us[th as usize]);
        for (p, &v) in vs.iter().enumerate() {
            // the pass's vector: its tile coordinate the thread's plus the
            // pass's, its elements consecutive along d and in shared memory
            let first = t.copy_tv.eval(th + step * p as i64)?;
            if first != x0 + v {
                return Err(unsplit("cp.async vectors"));
            }
            for e in 0..vec {
                let x = t.copy_tv.eval(th + step * p as i64 + threads * e)?;
                if ps.eval(x)? != s0 + pass_seq[p] || pd.eval(x)? != d0 + pass_dim[p] + e || at(x)? != at(first)? + e {
                    return Err(unsplit("cp.async vectors"));
                }
            }
        }
    }
    let pass_smem = xor_split(&t.layout, &us, &vs)?.ok_or_else(|| unsplit("cp.async shared offsets"))?;
    let rows = values_at(&t.ldsm, 0..threads)?;
    let reps = values_at(&t.rep, 0..t.rep.size()?.value())?;
    let frag_smem = xor_split(&t.layout, &rows, &reps)?.ok_or_else(|| unsplit("ldmatrix rows"))?;
    let pass_smem = xor_add(&us.iter().map(|&u| at(u)).collect::<Result<Vec<_>>>()?, &pass_smem);
    let frag_smem = xor_add(&rows.iter().map(|&u| at(u)).collect::<Result<Vec<_>>>()?, &frag_smem);
    Ok(TileIndices { copy, seq, dim, passes, pass_smem, pass_seq, pass_dim, frag_smem })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::elem::{round_to_16, widen_16};

    /// An MMA as the hardware does it, from the threads' registers: the
    /// dense operands gathered through the fragments (every cell once),
    /// multiplied, and `C` scattered back: `c[t][v + values · r] += Σ
    /// a·b`. `b` is `(N, K)`, so `C = A · Bᵀ`.
    fn mma(
        plan_threads: i64,
        a: (&Fragments, &[Vec<f32>]),
        b: (&Fragments, &[Vec<f32>]),
        c: (&Fragments, &mut [Vec<f32>]),
    ) {
        let gather = |f: &Fragments, regs: &[Vec<f32>]| {
            let mut dense = vec![f32::NAN; (f.tile.0 * f.tile.1) as usize];
            for t in 0..plan_threads {
                for r in 0..f.repeats {
                    for v in 0..f.values {
                        let (row, col) = f.coord(plan_threads, t, v, r).unwrap();
                        let at = (row + f.tile.0 * col) as usize;
                        let x = regs[t as usize][(v + f.values * r) as usize];
                        // (B is held whole by every warp: the copies agree)
                        assert!(dense[at].is_nan() || dense[at] == x, "cell ({row},{col}) differs between threads");
                        dense[at] = x;
                    }
                }
            }
            assert!(dense.iter().all(|x| !x.is_nan()), "a cell no thread holds");
            dense
        };
        let (fa, fb, fc) = (a.0, b.0, c.0);
        let (da, db) = (gather(fa, a.1), gather(fb, b.1));
        let (m, n, k) = (fa.tile.0, fb.tile.0, fa.tile.1);
        assert_eq!(k, fb.tile.1);
        assert_eq!((m, n), fc.tile);
        for t in 0..plan_threads {
            for r in 0..fc.repeats {
                for v in 0..fc.values {
                    let (row, col) = fc.coord(plan_threads, t, v, r).unwrap();
                    let sum: f32 = (0..k).map(|kk| da[(row + m * kk) as usize] * db[(col + n * kk) as usize]).sum();
                    c.1[t as usize][(v + fc.values * r) as usize] += sum;
                }
            }
        }
    }

    /// Loads a row-major `(rows, cols)` matrix's block at `(r0, 0)` into the
    /// threads' registers of `f` (zero past `rows`), rounded to the input
    /// type; `transposed` reads `f`'s `(row, col)` as the matrix's `(col, row)`.
    fn load(
        f: &Fragments,
        threads: i64,
        x: &[f32],
        (rows, cols): (i64, i64),
        r0: i64,
        transposed: bool,
    ) -> Vec<Vec<f32>> {
        (0..threads)
            .map(|t| {
                let mut regs = vec![0.0; (f.values * f.repeats) as usize];
                for r in 0..f.repeats {
                    for v in 0..f.values {
                        let (a, b) = f.coord(threads, t, v, r).unwrap();
                        let (row, col) = if transposed { (b + r0, a) } else { (a + r0, b) };
                        if row < rows && col < cols {
                            regs[(v + f.values * r) as usize] = x[(row * cols + col) as usize];
                        }
                    }
                }
                regs
            })
            .collect()
    }

    /// The kernel's steps on the CPU, thread by thread through the plan:
    /// for each block of queries and each block of keys, `S` by the MMA
    /// model, the causal and tail masks from each register's coordinate,
    /// the row maxima and sums combined over the row masks' lanes, `P`
    /// rounded to the input type and placed by `p_from_s`, `O` rescaled
    /// and accumulated by the MMA model; finally `O / l` and the LSE.
    fn simulate(
        plan: &AttentionSm80Plan,
        (q, k, v): (&[f32], &[f32], &[f32]),
        (lq, lk): (i64, i64),
    ) -> (Vec<f32>, Vec<f32>) {
        let AttentionConfig { head_dim: d, block_m: bm, block_n: bn, causal, .. } = plan.config;
        let t_n = plan.threads;
        let scale_log2 = (1.0 / (d as f32).sqrt()) * std::f32::consts::LOG2_E;
        let mut out = vec![0f32; (lq * d) as usize];
        let mut lse = vec![0f32; lq as usize];
        let (s_len, o_len) = ((plan.s.values * plan.s.repeats) as usize, (plan.o.values * plan.o.repeats) as usize);
        for b0 in (0..lq).step_by(bm as usize) {
            let qr = load(&plan.q, t_n, q, (lq, d), b0, false);
            let mut rows = OnlineRows::new(&plan.s, t_n);
            let mut o = vec![vec![0f32; o_len]; t_n as usize];
            for k0 in (0..lk).step_by(bn as usize) {
                let kr = load(&plan.k, t_n, k, (lk, d), k0, false);
                let mut s = vec![vec![0f32; s_len]; t_n as usize];
                mma(t_n, (&plan.q, &qr), (&plan.k, &kr), (&plan.s, &mut s));
                // the masks, then the online softmax
                for (t, regs) in s.iter_mut().enumerate() {
                    for r in 0..plan.s.repeats {
                        for vv in 0..plan.s.values {
                            let i = (vv + plan.s.values * r) as usize;
                            let (row, col) = plan.s.coord(t_n, t as i64, vv, r).unwrap();
                            let (qi, kj) = (b0 + row, k0 + col);
                            if kj >= lk || (causal && kj > qi + lk - lq) {
                                regs[i] = f32::NEG_INFINITY;
                            } else {
                                regs[i] *= scale_log2;
                            }
                        }
                    }
                }
                rows.step((&plan.s, &plan.o), t_n, &plan.row_masks, &mut s, &mut o);
                // P's registers from S's, then O += P · V
                let per_s = plan.s.values * plan.s.repeats;
                let p: Vec<Vec<f32>> = (0..t_n)
                    .map(|t| {
                        (0..plan.p.values * plan.p.repeats)
                            .map(|j| {
                                let y = plan.p_from_s.eval(t + t_n * j).unwrap();
                                assert_eq!(y % t_n, t);
                                let i = y / t_n;
                                assert!(i < per_s);
                                s[t as usize][i as usize]
                            })
                            .collect()
                    })
                    .collect();
                let vr = load(&plan.v, t_n, v, (lk, d), k0, true);
                mma(t_n, (&plan.p, &p), (&plan.v, &vr), (&plan.o, &mut o));
            }
            rows.finish(&plan.o, t_n, &plan.row_masks, &o, (b0, lq, d), (&mut out, &mut lse));
        }
        (out, lse)
    }

    /// Each thread's rows of `S` (and of `O`), in order, with their running
    /// maxima and sums: the online softmax as the kernels keep it.
    pub(crate) struct OnlineRows {
        rows: Vec<Vec<i64>>,
        m: Vec<Vec<f32>>,
        l: Vec<Vec<f32>>,
    }

    /// Each thread's values combined with its partners' over the row
    /// masks, as the shuffles do (a butterfly).
    fn butterfly(x: &mut [Vec<f32>], masks: &[i64], f: impl Fn(f32, f32) -> f32) {
        for &mask in masks {
            let before = x.to_vec();
            for t in 0..x.len() {
                for ri in 0..x[t].len() {
                    x[t][ri] = f(before[t][ri], before[t ^ mask as usize][ri]);
                }
            }
        }
    }

    impl OnlineRows {
        pub(crate) fn new(s: &Fragments, threads: i64) -> OnlineRows {
            let rows: Vec<Vec<i64>> = (0..threads).map(|t| rows_of(s, threads, t).unwrap()).collect();
            let m = rows.iter().map(|r| vec![f32::NEG_INFINITY; r.len()]).collect();
            let l = rows.iter().map(|r| vec![0.0; r.len()]).collect();
            OnlineRows { rows, m, l }
        }

        /// The index in thread `t`'s rows of `row`.
        fn at(&self, t: usize, row: i64) -> usize {
            self.rows[t].binary_search(&row).unwrap()
        }

        /// One block of keys: `s` holds each thread's scores, scaled by
        /// `log2(e) / √d` and masked (`-inf`). The row maxima over the
        /// row masks' lanes, `l` and `o` rescaled, and `s` turned into `P`
        /// (`exp2(s - m)` rounded to f16, as the MMA reads it; `l` sums
        /// the unrounded values).
        pub(crate) fn step(
            &mut self,
            (sf, of): (&Fragments, &Fragments),
            threads: i64,
            masks: &[i64],
            s: &mut [Vec<f32>],
            o: &mut [Vec<f32>],
        ) {
            let mut local: Vec<Vec<f32>> = self.m.iter().map(|x| vec![f32::NEG_INFINITY; x.len()]).collect();
            for t in 0..threads as usize {
                for r in 0..sf.repeats {
                    for vv in 0..sf.values {
                        let ri = self.at(t, sf.coord(threads, t as i64, vv, r).unwrap().0);
                        local[t][ri] = local[t][ri].max(s[t][(vv + sf.values * r) as usize]);
                    }
                }
            }
            butterfly(&mut local, masks, f32::max);
            for t in 0..threads as usize {
                let new_m: Vec<f32> = self.m[t].iter().zip(&local[t]).map(|(a, b)| a.max(*b)).collect();
                let alpha: Vec<f32> = self.m[t]
                    .iter()
                    .zip(&new_m)
                    .map(|(old, new)| if *new == f32::NEG_INFINITY { 1.0 } else { (old - new).exp2() })
                    .collect();
                for (l, a) in self.l[t].iter_mut().zip(&alpha) {
                    *l *= a;
                }
                for r in 0..sf.repeats {
                    for vv in 0..sf.values {
                        let i = (vv + sf.values * r) as usize;
                        let ri = self.at(t, sf.coord(threads, t as i64, vv, r).unwrap().0);
                        let e = if new_m[ri] == f32::NEG_INFINITY { 0.0 } else { (s[t][i] - new_m[ri]).exp2() };
                        s[t][i] = widen_16(round_to_16(e, Elem::F16), Elem::F16);
                        self.l[t][ri] += e;
                    }
                }
                for r in 0..of.repeats {
                    for vv in 0..of.values {
                        let ri = self.at(t, of.coord(threads, t as i64, vv, r).unwrap().0);
                        o[t][(vv + of.values * r) as usize] *= alpha[ri];
                    }
                }
                self.m[t] = new_m;
            }
        }

        /// The sums over the row masks' lanes, then `O / l` and the LSE of
        /// the block's rows from `b0` (those before `lq`) into `out` and `lse`.
        pub(crate) fn finish(
            mut self,
            of: &Fragments,
            threads: i64,
            masks: &[i64],
            o: &[Vec<f32>],
            (b0, lq, d): (i64, i64, i64),
            (out, lse): (&mut [f32], &mut [f32]),
        ) {
            butterfly(&mut self.l, masks, |a, b| a + b);
            for (t, regs) in o.iter().enumerate().take(threads as usize) {
                for r in 0..of.repeats {
                    for vv in 0..of.values {
                        let (row, col) = of.coord(threads, t as i64, vv, r).unwrap();
                        let ri = self.at(t, row);
                        if b0 + row < lq {
                            out[((b0 + row) * d + col) as usize] = regs[(vv + of.values * r) as usize] / self.l[t][ri];
                            lse[(b0 + row) as usize] = self.m[t][ri] / std::f32::consts::LOG2_E + self.l[t][ri].ln();
                        }
                    }
                }
            }
        }
    }

    /// Attention in f64, row by row.
    pub(crate) fn reference(
        (q, k, v): (&[f32], &[f32], &[f32]),
        (lq, lk, d): (i64, i64, i64),
        causal: bool,
    ) -> (Vec<f64>, Vec<f64>) {
        let mut out = vec![0f64; (lq * d) as usize];
        let mut lse = vec![0f64; lq as usize];
        let scale = 1.0 / (d as f64).sqrt();
        for i in 0..lq {
            let seen = |j: i64| !causal || j <= i + lk - lq;
            let s: Vec<f64> = (0..lk)
                .map(|j| {
                    if !seen(j) {
                        return f64::NEG_INFINITY;
                    }
                    (0..d).map(|c| f64::from(q[(i * d + c) as usize]) * f64::from(k[(j * d + c) as usize])).sum::<f64>()
                        * scale
                })
                .collect();
            let mx = s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let e: Vec<f64> = s.iter().map(|x| (x - mx).exp()).collect();
            let sum: f64 = e.iter().sum();
            lse[i as usize] = mx + sum.ln();
            for c in 0..d {
                out[(i * d + c) as usize] =
                    (0..lk).map(|j| e[j as usize] * f64::from(v[(j * d + c) as usize])).sum::<f64>() / sum;
            }
        }
        (out, lse)
    }

    pub(crate) fn data(n: i64, seed: u64) -> Vec<f32> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // multiples of 1/16 in [-1, 1]: exact in f16
                ((x % 33) as f32 - 16.0) / 16.0
            })
            .collect()
    }

    /// The plan's claims hold for every configuration the rules allow, and
    /// the re-layout keeps every `P` register in its thread.
    #[test]
    fn every_allowed_configuration_plans() {
        // (the swizzle searches take seconds each in a debug build: a
        // spread of configurations, every head dimension and warp count)
        let mut n = 0;
        for (d, warps, bm_mul, bn) in [
            (64, 1, 1, 16),
            (64, 4, 1, 64),
            (64, 4, 2, 128),
            (64, 8, 1, 32),
            (128, 2, 2, 64),
            (128, 4, 2, 64),
            (128, 8, 1, 64),
            (256, 1, 2, 16),
            (256, 4, 1, 64),
            (256, 8, 1, 32),
        ] {
            let config = AttentionConfig {
                head_dim: d,
                block_m: 16 * warps * bm_mul,
                block_n: bn,
                warps,
                causal: false,
                kv_x4: true,
                frag_prefetch: 1,
                kv_stages: 1,
            };
            config.check(Elem::F16).unwrap_or_else(|e| panic!("{config:?}: {e}"));
            let p = plan(config, Elem::F16).unwrap_or_else(|e| panic!("{config:?}: {e}"));
            assert_eq!(p.threads, 32 * warps);
            // m16n8's C: the four lanes of a quad share each row
            assert_eq!(p.row_masks, vec![1, 2]);
            // the swizzles make the ldmatrix reads conflict-free
            for t in &p.smem {
                assert!(t.cost[1].iter().all(|r| r.degree() == 1.0), "{config:?}: {} {:?}", t.layout, t.cost[1]);
            }
            n += 1;
        }
        assert_eq!(n, 10);
        // the rules: V's copy by 256 threads covers 32 keys of d = 64 per pass
        let v_copy = AttentionConfig {
            head_dim: 64,
            block_m: 128,
            block_n: 16,
            warps: 8,
            causal: false,
            kv_x4: true,
            frag_prefetch: 1,
            kv_stages: 1,
        };
        assert!(v_copy.check(Elem::F16).unwrap_err().to_string().contains("V's copy"));
        assert!(plan(AttentionConfig { block_m: 48, ..AttentionConfig::default() }, Elem::F16).is_err());
    }

    /// The kernel's steps through the plan give attention's answer: O
    /// within 2^-9 (P is rounded to f16; every other value is exact or
    /// f32), the LSE within 1e-4, for tails, causal masks, query and key
    /// lengths that differ, and every head dimension.
    #[test]
    fn the_plan_on_the_cpu_computes_attention() {
        let cases = [
            (
                AttentionConfig {
                    head_dim: 64,
                    block_m: 64,
                    block_n: 64,
                    warps: 4,
                    causal: false,
                    kv_x4: true,
                    frag_prefetch: 1,
                    kv_stages: 1,
                },
                (100, 150),
            ),
            (
                AttentionConfig {
                    head_dim: 64,
                    block_m: 64,
                    block_n: 32,
                    warps: 2,
                    causal: true,
                    kv_x4: true,
                    frag_prefetch: 1,
                    kv_stages: 1,
                },
                (70, 70),
            ),
            (
                AttentionConfig {
                    head_dim: 128,
                    block_m: 128,
                    block_n: 64,
                    warps: 4,
                    causal: true,
                    kv_x4: true,
                    frag_prefetch: 1,
                    kv_stages: 1,
                },
                (40, 200),
            ),
            (
                AttentionConfig {
                    head_dim: 128,
                    block_m: 64,
                    block_n: 32,
                    warps: 4,
                    causal: false,
                    kv_x4: false,
                    frag_prefetch: 1,
                    kv_stages: 1,
                },
                (65, 90),
            ),
            (
                AttentionConfig {
                    head_dim: 256,
                    block_m: 32,
                    block_n: 16,
                    warps: 1,
                    causal: false,
                    kv_x4: true,
                    frag_prefetch: 1,
                    kv_stages: 1,
                },
                (33, 17),
            ),
        ];
        for (i, (config, (lq, lk))) in cases.into_iter().enumerate() {
            let p = plan(config, Elem::F16).unwrap();
            let d = config.head_dim;
            let (q, k, v) =
                (data(lq * d, 3 * i as u64 + 1), data(lk * d, 3 * i as u64 + 2), data(lk * d, 3 * i as u64 + 3));
            let got = simulate(&p, (&q, &k, &v), (lq, lk));
            assert_attention(&format!("{config:?}"), got, reference((&q, &k, &v), (lq, lk, d), config.causal), d);
        }
    }

    /// `O` within 2^-9 of the reference (`P` is rounded to f16; every other
    /// value is exact or f32) and the LSE within 1e-4, naming `what` and the
    /// element that is not.
    pub(crate) fn assert_attention(
        what: &str,
        (got, got_lse): (Vec<f32>, Vec<f32>),
        (want, want_lse): (Vec<f64>, Vec<f64>),
        d: i64,
    ) {
        for (x, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(
                (f64::from(*g) - w).abs() <= 2f64.powi(-9),
                "{what} O[{}][{}] = {g}, want {w}",
                x as i64 / d,
                x as i64 % d
            );
        }
        for (x, (g, w)) in got_lse.iter().zip(&want_lse).enumerate() {
            assert!((f64::from(*g) - w).abs() <= 1e-4, "{what} lse[{x}] = {g}, want {w}");
        }
    }

    /// The kernel's copies and fragment loads through the plan's tables:
    /// each thread's `cp.async` vectors (its base, the pass constants as an
    /// XOR and an addition, 8 consecutive elements) fill every cell of the
    /// shared tile once with the global element at its (sequence, dim);
    /// then `ldmatrix` as the PTX manual defines it (each of a warp's
    /// lanes gives one 8-element row address, `x4`/`x2`, `.trans`) from
    /// the `ldmatrix` tables puts into each thread's registers the values
    /// its MMA fragment names.
    #[test]
    fn the_kernels_tables_copy_and_load_every_fragment_value() {
        // (the library's tiles among them: 128 keys at d = 64, and 80 at 256,
        // whose copies go in lines of 128 elements of d)
        for (d, bm, bn, warps, kv_x4) in [
            (128, 128, 64, 4, true),
            (128, 128, 32, 4, false),
            (64, 64, 32, 2, true),
            (256, 128, 64, 8, true),
            (64, 128, 128, 4, true),
            (256, 128, 80, 8, true),
        ] {
            let config = AttentionConfig {
                head_dim: d,
                block_m: bm,
                block_n: bn,
                warps,
                causal: false,
                kv_x4,
                frag_prefetch: 1,
                kv_stages: 1,
            };
            let p = plan(config, Elem::F16).unwrap();
            let threads = p.threads;
            let b_mats = if kv_x4 { 4 } else { 2 };
            assert_eq!(p.k_load.values, 2 * b_mats);
            // (which tile, its fragments as loaded, the sequence rows, matrices per ldmatrix, transposed)
            for (i, f, rows, mats, trans) in
                [(0, &p.q, bm, 4, false), (1, &p.k_load, bn, b_mats, false), (2, &p.v_load, bn, b_mats, true)]
            {
                let (t, ix) = (&p.smem[i], &p.tiles[i]);
                let at = |x: i64| t.layout.eval_int(Int::new_dynamic(x)).unwrap().value();
                // a global (rows, d) block: each element's value names it
                let g = |seq: i64, dim: i64| seq * 1000 + dim;
                let mut smem = vec![-1i64; (rows * d) as usize];
                for th in 0..threads {
                    let base = at(ix.copy.eval(th).unwrap());
                    let (s0, d0) = (ix.seq.eval(th).unwrap(), ix.dim.eval(th).unwrap());
                    for pass in 0..ix.passes as usize {
                        let (x, a) = ix.pass_smem[pass];
                        for e in 0..8 {
                            let cell = &mut smem[((base ^ x) + a + e) as usize];
                            assert_eq!(*cell, -1, "{config:?} tile {i}: a cell written twice");
                            *cell = g(s0 + ix.pass_seq[pass], d0 + ix.pass_dim[pass] + e);
                        }
                    }
                }
                assert!(smem.iter().all(|&c| c >= 0), "{config:?} tile {i}: a cell no copy writes");
                for r in 0..f.repeats {
                    let (x, a) = ix.frag_smem[r as usize];
                    let row_at = |th: i64| (at(t.ldsm.eval(th).unwrap()) ^ x) + a;
                    for th in 0..threads {
                        let (warp, lane) = (th / 32, th % 32);
                        for m in 0..mats {
                            for e in 0..2 {
                                // the PTX manual's fragment of an 8 x 8 matrix
                                let got = if trans {
                                    smem[(row_at(32 * warp + 8 * m + 2 * (lane % 4) + e) + lane / 4) as usize]
                                } else {
                                    smem[(row_at(32 * warp + 8 * m + lane / 4) + 2 * (lane % 4) + e) as usize]
                                };
                                let (row, col) = f.coord(threads, th, 2 * m + e, r).unwrap();
                                let want = if i == 2 { g(col, row) } else { g(row, col) };
                                assert_eq!(got, want, "{config:?} tile {i} repeat {r} thread {th} value {}", 2 * m + e);
                            }
                        }
                    }
                }
            }
        }
    }

    /// A wrong re-layout is caught: `P` read from `S` by the identity
    /// instead of `p_from_s` moves values between rows and columns.
    #[test]
    fn p_from_s_is_not_the_identity() {
        let p = plan(AttentionConfig::default(), Elem::F16).unwrap();
        let moved = (0..p.p_from_s.size().unwrap().value()).filter(|&x| p.p_from_s.eval(x).unwrap() != x).count();
        assert!(moved > 0);
    }
}
