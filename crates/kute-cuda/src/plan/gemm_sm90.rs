//! The plan of the SM90 `wgmma` GEMMs (see [`crate::gemm_sm90`] for the
//! kernels).

use super::{
    all_coordinates, both_coordinates, check_rows, copy_tv, identity_tiles, known_multiple, layout2, operand_layout,
    shape2,
};
use crate::gemm_sm90::{
    tile, wgmma_k, Sm90Config, Sm90Epilogue, Sm90Loader, C_STAGE_BYTES, MAX_STAGES, SMEM_LIMIT, STAGES, THREADS,
    TILE_NS,
};
use crate::{Elem, Error, Result};
use kute::analysis::{block_bank_conflicts, gmma_atom_name, swizzle_bytes_to_elements, BankReport};
use kute::atom::MmaAtom;
use kute::composed::{compose3, ComposedLayout};
use kute::{AnyLayout, AsIntTuple, Int, Layout, Major, Swizzle};

const OP: &str = "sm90 gemm kernel";

/// A `wgmma` shared-memory descriptor's fields for one operand's tile, read
/// off its layout, and the offset of one k step (16 elements of K).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Descriptor {
    /// Leading byte offset.
    pub lbo: i64,
    /// Stride byte offset.
    pub sbo: i64,
    /// Elements from one k step (one `wgmma`'s K, 32 bytes) to the next.
    pub kstep: i64,
}

/// The sizes a plan is made for: integers, or unknowns given at launch with
/// the facts the caller guarantees. `C` is `(M, N)` with rows `ldc` apart
/// and, with a batch `(L, stride)`, `L` of them `stride` apart.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Extents {
    /// `(M, N, K)`.
    pub mnk: (Int, Int, Int),
    /// `C`'s leading dimension.
    pub ldc: Int,
    /// The batch count and `C`'s batch stride.
    pub batch: Option<(Int, Int)>,
    /// Whether the kernel splits the k-tiles (split-K, with a batch only).
    pub split_k: bool,
    /// The fused epilogue of a kernel of sizes given at launch (which
    /// takes `alpha`), or `None`.
    pub op: Option<crate::gemm_sm90::EpilogueOp>,
}

impl Extents {
    /// One problem of sizes known now, `C` contiguous.
    pub(crate) fn fixed((m, n, k): (i64, i64, i64)) -> Extents {
        let d = Int::new_dynamic;
        Extents { mnk: (d(m), d(n), d(k)), ldc: d(n), batch: None, split_k: false, op: None }
    }
}

pub(crate) use super::TileModes;

pub(crate) use super::SplitK;

/// The SM90 GEMM's plan: the shared tiles, the layouts the kernel evaluates,
/// the descriptors, and the counts its text needs.
pub(crate) struct Sm90Plan {
    /// The sizes (integers, or unknowns given at launch with the facts the
    /// caller guarantees), `C`'s leading dimension and the batch.
    pub extents: Extents,
    /// The input type (f16, bf16, e4m3 or e5m2).
    pub elem: Elem,
    /// The choices the plan was made for.
    pub config: Sm90Config,
    /// The block tile `(BM, BN, BK)`: 128 rows, `config.bn` columns, 128
    /// bytes of K.
    pub tile: (i64, i64, i64),
    /// k-tiles in flight: as many as fit in shared memory, at most
    /// [`MAX_STAGES`] (four of the 128 x 256 tile).
    pub stages: i64,
    /// Whether the sizes are off the tile grid (edge tiles' stores guarded).
    pub predicated: bool,
    /// The shared tile of `A`, `(128, 64)` in elements.
    pub smem: AnyLayout,
    /// The shared tile of `B`, `(BN, BK)` in elements.
    pub smem_b: AnyLayout,
    /// CuTe's name of `A`'s atom.
    pub atom: String,
    /// `A`'s descriptor.
    pub desc_a: Descriptor,
    /// `B`'s descriptor.
    pub desc_b: Descriptor,
    /// Elements from `A`'s first 64 rows to the second warpgroup's.
    pub wg_offset: i64,
    /// Predicted wavefronts of one block's `cp.async` stores of one operand, per warp.
    pub store_cost: Vec<BankReport>,
    /// Block tile number (`row tile + tiles · k tile`) to its first offset, of `A`.
    pub a_tiles: Layout,
    /// Same of `B`.
    pub b_tiles: Layout,
    /// Block tile number (`bm + tiles · bn`) to its first offset in `C`.
    pub c_tiles: Layout,
    /// With `cp.async` loads: TV index to the global offset in `A`'s tile.
    pub a_gcopy: Option<Layout>,
    /// Same in `B`'s.
    pub b_gcopy: Option<Layout>,
    /// `cp.async` TV index to the tile coordinate of `A`.
    pub a_scopy: Layout,
    /// Same of `B`.
    pub b_scopy: Layout,
    /// `t + 128 · v` to the tile coordinate of accumulator `v` (the first warpgroup's).
    pub c_frag: Layout,
    /// Warpgroup to its rows' tile-coordinate offset.
    pub c_rep: Layout,
    /// Tile coordinate to the offset in `C`'s tile.
    pub c_tile: Layout,
    /// With TMA loads: block tile number to the (row, k) coordinate of `A`'s tile.
    pub a_ctiles: Option<Layout>,
    /// Same for `B`.
    pub b_ctiles: Option<Layout>,
    /// With TMA loads: `A`'s tiles by mode (row tile, k-tile, batch) to
    /// their (row, k[, batch]) coordinates.
    pub a_ctiles_modes: Option<TileModes>,
    /// Same for `B`.
    pub b_ctiles_modes: Option<TileModes>,
    /// `C`'s tiles by mode (row tile, column tile, batch) to their offsets.
    pub c_tiles_modes: TileModes,
    /// `C`'s tiles by mode to their (row, column[, batch]) coordinates.
    pub c_ctiles_modes: Option<TileModes>,
    /// With a fused epilogue's bias: its shared buffer's byte offset (the
    /// tile's row or column values, after the stages and `C`'s staging).
    pub bias_offset: Option<i64>,
    /// With a fused epilogue's bias: the (row, column) in the tile of an
    /// accumulator as three parts that add without carry, the thread's
    /// (`t` of the first warpgroup), the value's (`v`) and the warpgroup's:
    /// `coord(c_frag(t + 128 · v) + c_rep(w)) = thr(t) + val(v) + wg(w)`
    /// (checked at every `t`, `v`, `w`), so that the kernel computes the
    /// thread's part once and each value's folds into a constant.
    pub c_coord_parts: Option<[Layout; 3]>,
    /// Split-K (sizes given at launch): a second kernel takes the number of
    /// shares `S`; each block multiplies a tile's share of the k-tiles and
    /// stores its f32 sums into the share's slice of a workspace `W` (`C`'s
    /// shape, row-major, one slice per share), which a third kernel sums in
    /// order of the shares and converts into `C`.
    pub split_k: Option<SplitK>,
    /// Predicated or with the TMA store: block tile number to the (row,
    /// column) of its first element of `C`.
    pub c_ctiles: Option<Layout>,
    /// Tile coordinate to its (row, column[, 0]) in the tile: for guarded
    /// direct stores, a fused epilogue's bias and split-K's guards.
    pub c_ctile: Option<Layout>,
    /// With the TMA store: the shared staging tile of `C`.
    pub c_stage: Option<AnyLayout>,
    /// With the TMA store: predicted wavefronts of the staging stores.
    pub c_stage_cost: Vec<BankReport>,
    /// With the TMA store: `(box columns, boxes per row of the tile)`.
    pub c_boxes: Option<(i64, i64)>,
    /// Block tiles along M and N, and k-tiles (expressions of the unknowns
    /// for sizes given at launch).
    pub tiles: (Int, Int, Int),
    /// `cp.async` passes per thread of `A` and `B`.
    pub passes: (i64, i64),
    /// The `cp.async` TV index step of one pass (threads · vector).
    pub pass_step: i64,
    /// Elements of one stage of `A` and of `B`.
    pub stage_elems: (i64, i64),
    /// The persistent kernel's rows of tiles: M-tiles, or with a cluster
    /// of two blocks along M, pairs of them (the last pair's second tile
    /// past `C` where the M-tiles are odd: multiplied, for its B half, and
    /// not stored).
    pub sched_tm: Int,
    /// With a cluster of two: each block's half of B's tile, which it loads
    /// and multicasts to both blocks. K-major, one box: `(its rows, the
    /// second half's offset in elements)`; MN-major, 64-row slabs: `(slabs
    /// per half, the second half's first slab)`.
    pub b_half: Option<(i64, i64)>,
    /// Rows of tiles (of `sched_tm`) per group of the persistent kernel's
    /// tile order (for L2).
    pub group: i64,
    /// Whether `group` divides the M-tiles (else the last group is smaller).
    pub group_divides: bool,
    /// Bytes of dynamic shared memory per block.
    pub smem_bytes: i64,
    /// Threads per block.
    pub threads: i64,
}

impl Sm90Plan {
    /// `(M, N, K)`.
    pub(crate) fn mnk(&self) -> (Int, Int, Int) {
        self.extents.mnk
    }

    /// Components of the tiles' coordinates: 2, or 3 with a batch.
    pub(crate) fn rank(&self) -> usize {
        if self.extents.batch.is_some() {
            3
        } else {
            2
        }
    }
}

/// `Sw<3,4,3> o _0 o inner`: CuTe's 128-byte swizzle of byte addresses.
fn sw128_bytes(inner: Layout) -> Result<ComposedLayout> {
    Ok(ComposedLayout::new(AnyLayout::Swizzle(Swizzle::new(3, 4, 3)?), Int::ZERO, AnyLayout::Layout(inner)))
}

/// A layout of static integers.
fn static_layout(shape: impl AsIntTuple, stride: impl AsIntTuple) -> Result<Layout> {
    Ok(Layout::new(shape, stride)?)
}

/// A TMA tensor map's `(rows, columns, box rows, box columns)`.
pub(crate) type MapDims = (u64, u64, u32, u32);

/// The TMA tensor maps of A and B (`(rows, columns, box rows, box
/// columns)` of the row-major matrix each is read as) and of C with a TMA
/// store, for the sizes `(m, n, k)`.
pub(crate) fn tensor_maps(
    (m, n, k): (i64, i64, i64),
    elem: Elem,
    config: Sm90Config,
) -> ([MapDims; 2], Option<MapDims>) {
    let (bm, _, bk) = tile(elem);
    let bn = config.bn;
    let w = 128 / elem.bytes();
    let (a_k, b_k) = config.k_major;
    // a cluster's blocks each load half of a K-major B tile's rows
    let b_rows = if b_k { bn / config.cluster.max(1) } else { bn };
    let maps = [(m, bm, a_k), (n, b_rows, b_k)].map(|(rows, box_rows, k_major)| {
        if k_major {
            (rows as u64, k as u64, box_rows as u32, bk as u32)
        } else {
            (k as u64, rows as u64, bk as u32, w as u32)
        }
    });
    let box_cols = 128 / config.c_elem.bytes();
    (maps, (config.epilogue == Sm90Epilogue::Tma).then_some((m as u64, n as u64, 64, box_cols as u32)))
}

/// A `(rows, cols)` shared tile of `elem` (column-major coordinates) of
/// CuTe's 128-byte swizzle atoms (a swizzle of byte addresses, rows of 128
/// bytes: 64 16-bit or 128 8-bit elements): `GMMA::Layout_K_SW128_Atom`
/// tiled down the rows (`k_major`, the columns contiguous), or
/// `Layout_MN_SW128_Atom` (64 rows by 8 columns) tiled along the columns
/// first, so that one 64-row slab is one TMA box; with the atom's name.
///
/// Pre: `rows` a multiple of 8 (`k_major`) or of the row's elements, `cols`
/// of the row's elements (`k_major`) or of 8. Post: the tile, or the
/// algebra's error; an `Unsupported` one where the result is not the atom.
pub(crate) fn sw128_tile(elem: Elem, (rows, cols): (i64, i64), k_major: bool) -> Result<(AnyLayout, String)> {
    let w = 128 / elem.bytes();
    let s = Int::new_static;
    let target = (s(rows), s(cols)).as_int_tuple().into_owned();
    let tiled = if k_major {
        sw128_bytes(static_layout((s(8), s(w)), (s(w), s(1)))?)?.tile_to_shape(&target, None)?
    } else {
        let order = (s(2), s(1)).as_int_tuple().into_owned();
        sw128_bytes(static_layout((s(w), s(8)), (s(1), s(w)))?)?.tile_to_shape(&target, Some(&order))?
    };
    let l = swizzle_bytes_to_elements(&tiled, elem.bytes())?;
    let sw = match &l {
        AnyLayout::Composed(c) => c.swizzle(),
        _ => None,
    }
    .ok_or_else(|| Error::unsupported(OP, format!("{l} is not swizzled")))?;
    let (shape, major, want) =
        if k_major { ((8, w), Major::Right, "Layout_K_SW128") } else { ((w, 8), Major::Left, "Layout_MN_SW128") };
    let atom = gmma_atom_name(sw, shape, elem.bytes(), major)
        .ok_or_else(|| Error::unsupported(OP, format!("{l} is no GMMA atom")))?;
    if atom != want {
        return Err(Error::unsupported(OP, format!("{l} is {atom}, not {want}")));
    }
    Ok((l, atom))
}

/// The unswizzled offset (elements) of `(r, c)` in a shared tile of
/// [`sw128_tile`] with `rows` rows: what a descriptor's fields and start
/// addresses count.
///
/// Pre: `l` a swizzled or plain layout of integer strides. Post: the
/// offset, or an `Unsupported` error for a bare swizzle.
pub(crate) fn tile_offset(l: &AnyLayout, rows: i64, r: i64, c: i64) -> Result<i64> {
    let plain = match l {
        AnyLayout::Composed(x) => x.inner().as_layout(OP)?.clone(),
        AnyLayout::Layout(x) => x.clone(),
        AnyLayout::Swizzle(_) => return Err(Error::unsupported(OP, "a bare swizzle")),
    };
    Ok(plain.eval(r + rows * c)?)
}

/// The `wgmma` descriptor's fields of a shared tile of [`sw128_tile`],
/// read off the layout: K-major, LBO unused (16 bytes) and SBO the stride
/// of 8-row groups; MN-major, LBO the stride of 64-row slabs and SBO that
/// of 8-column groups; the k step one `wgmma`'s K (32 bytes of each row).
///
/// Pre: as [`tile_offset`]. Post: the fields in bytes, the k step in
/// elements.
pub(crate) fn descriptor(l: &AnyLayout, rows: i64, k_major: bool, elem: Elem) -> Result<Descriptor> {
    let (b, w) = (elem.bytes(), 128 / elem.bytes());
    let (lbo, sbo) = if k_major {
        (16, tile_offset(l, rows, 8, 0)? * b)
    } else {
        (tile_offset(l, rows, w, 0)? * b, tile_offset(l, rows, 0, 8)? * b)
    };
    Ok(Descriptor { lbo, sbo, kstep: tile_offset(l, rows, 0, wgmma_k(elem))? })
}

/// Plans `C = A · Bᵀ` for `(M, N, K)`, integers or unknowns given at launch
/// (the warp-specialized kernel only); the Pre and Post of
/// [`crate::gemm_sm90::Sm90Gemm::with_config`].
pub(crate) fn plan(extents: Extents, elem: Elem, config: Sm90Config) -> Result<Sm90Plan> {
    let (m, n, k) = extents.mnk;
    let Extents { ldc, batch, .. } = extents;
    let Sm90Config { loader, epilogue, c_elem, k_major: (a_k, b_k), bn, cluster } = config;
    let tma = loader != Sm90Loader::CpAsync;
    let ws = loader == Sm90Loader::WarpSpecialized;
    // 16-bit inputs give C in f32 or their own type; 8-bit ones in f32,
    // f16 or bf16
    let c_ok = c_elem == Elem::F32 || c_elem == elem || (elem.is_fp8() && matches!(c_elem, Elem::F16 | Elem::Bf16));
    if !c_ok {
        let of = if elem.is_fp8() { "f32, f16 or bf16".to_string() } else { format!("f32 or {elem}") };
        return Err(Error::unsupported(OP, format!("a C of {c_elem} from {elem} inputs ({of})")));
    }
    let tma_store = epilogue == Sm90Epilogue::Tma;
    let at_launch = m.is_symbolic() || n.is_symbolic() || k.is_symbolic();
    if (at_launch || batch.is_some()) && !ws {
        return Err(Error::unsupported(
            OP,
            "sizes given at launch or a batch: only the warp-specialized kernel takes them",
        ));
    }
    let rank = if batch.is_some() { 3 } else { 2 };
    if !(cluster == 1 || cluster == 2 && ws) {
        return Err(Error::unsupported(
            OP,
            format!("a cluster of {cluster} blocks: 1, or 2 with the warp-specialized loader"),
        ));
    }
    if tma_store && !known_multiple(n, 16 / c_elem.bytes()) {
        return Err(Error::unsupported(
            OP,
            format!("a TMA store of C's rows of {n} elements of {} bytes (a multiple of 16 bytes)", c_elem.bytes()),
        ));
    }
    if !ws && (c_elem != Elem::F32 || tma_store) {
        return Err(Error::unsupported(OP, "a 16-bit C or a TMA store: only the warp-specialized kernel writes them"));
    }
    if !(ws || a_k && b_k) {
        return Err(Error::unsupported(OP, "M- or N-major operands: only the warp-specialized kernel takes them"));
    }
    let (bm, _, bk) = tile(elem);
    if !TILE_NS.contains(&bn) || (!ws && bn != 256) {
        return Err(Error::unsupported(
            OP,
            format!("a block tile 128 x {bn}: 256, or with the warp-specialized loader 128 or 64"),
        ));
    }
    // CuTe's atom (its C layout places the accumulators); 8-bit wgmma reads
    // both operands K-major only
    let (op, targs) = match elem {
        Elem::F16 => (format!("SM90_64x{bn}x16_F32F16F16_SS"), "<GMMA::Major::K,GMMA::Major::K>"),
        Elem::Bf16 => (format!("SM90_64x{bn}x16_F32BF16BF16_SS"), "<GMMA::Major::K,GMMA::Major::K>"),
        Elem::E4m3 => (format!("SM90_64x{bn}x32_F32E4M3E4M3_SS_TN"), ""),
        Elem::E5m2 => (format!("SM90_64x{bn}x32_F32E5M2E5M2_SS_TN"), ""),
        Elem::F32 => return Err(Error::unsupported(OP, "f32 inputs: wgmma takes f16, bf16, e4m3 or e5m2 here")),
    };
    if elem.is_fp8() && !(a_k && b_k) {
        return Err(Error::unsupported(
            OP,
            format!("{elem} operands that are not both K-major: 8-bit wgmma reads K-major A and B only (TN)"),
        ));
    }
    // the warp-specialized kernel takes any sizes: TMA fills what lies
    // outside the operands with zeros, and the edge tiles' stores are
    // guarded; TMA needs rows of a multiple of 16 bytes
    let multiple = known_multiple(m, bm) && known_multiple(n, bn) && known_multiple(k, bk);
    let positive = |x: Int| x.is_symbolic() || x.value() >= 1;
    if !positive(m) || !positive(n) || !positive(k) || (!ws && !multiple) {
        return Err(Error::unsupported(OP, format!("({m},{n},{k}) is not a multiple of the tile ({bm},{bn},{bk})")));
    }
    check_rows(OP, (m, n, k), (a_k, b_k), elem)?;
    // a cluster's pair of M-tiles whose second lies past C: its stores are
    // guarded too
    let predicated = !multiple || !known_multiple(m, cluster * bm);
    let (smem, atom) = sw128_tile(elem, (bm, bk), a_k)?;
    let (smem_b, _) = sw128_tile(elem, (bn, bk), b_k)?;
    let (desc_a, desc_b) = (descriptor(&smem, bm, a_k, elem)?, descriptor(&smem_b, bn, b_k, elem)?);
    let wg_offset = tile_offset(&smem, bm, 64, 0)?;
    let vec = 16 / elem.bytes();
    let (a_scopy, b_scopy) =
        (copy_tv(OP, THREADS, bm, bk, elem, true, None)?, copy_tv(OP, THREADS, bn, bk, elem, true, None)?);
    let store_cost = block_bank_conflicts(&smem, elem.bytes(), &a_scopy)?;
    let (a, b) = (operand_layout(m, k, a_k)?, operand_layout(n, k, b_k)?);
    let c = match batch {
        Some((l, sc)) => Layout::new((m, n, l), (ldc, Int::new_dynamic(1), sc))?,
        None => layout2((m, n), (ldc, 1))?,
    };
    let za = kute::zipped_divide(&a, &shape2(bm, bk))?;
    let zb = kute::zipped_divide(&b, &shape2(bn, bk))?;
    let zc = kute::zipped_divide(&c, &shape2(bm, bn))?;
    let c_atom = MmaAtom::new(&format!("{op}{targs}"))?.layout_c_tv().clone();
    // the two warpgroups' atoms over the (128,128) tile: (thread, value) -> tile coordinate
    let zt = kute::zipped_divide(&Layout::from_shape(&shape2(bm, bn))?, &shape2(64, bn))?;
    let c_frag = kute::composition(&zt.mode(0)?, &c_atom)?;
    let c_rep = zt.mode(1)?;
    let (a_ctiles, b_ctiles) = if tma && batch.is_none() {
        // both components, even where a tile grid has one tile along a mode
        let ctiles =
            |rows: Int, br: i64| -> Result<Layout> { both_coordinates(&identity_tiles((rows, k), (br, bk))?.mode(1)?) };
        (Some(ctiles(m, bm)?), Some(ctiles(n, bn)?))
    } else {
        (None, None)
    };
    // the tile grid of the identity layout of `(rows, cols[, L])` by
    // `(tr, tc)`, by mode, every coordinate with all its components
    let coords = |(rows, cols): (Int, Int), tile: (i64, i64)| -> Result<TileModes> {
        let id = match batch {
            Some((l, _)) => Layout::identity(&(rows, cols, l).as_int_tuple())?,
            None => Layout::identity(&(rows, cols).as_int_tuple())?,
        };
        let tiles = kute::zipped_divide(&id, &shape2(tile.0, tile.1))?.mode(1)?;
        let mode = |i: usize| -> Result<Layout> { all_coordinates(&tiles.mode(i)?, rank) };
        Ok(TileModes { first: mode(0)?, second: mode(1)?, batch: batch.map(|_| mode(2)).transpose()? })
    };
    let (a_ctiles_modes, b_ctiles_modes) =
        if tma { (Some(coords((m, k), (bm, bk))?), Some(coords((n, k), (bn, bk))?)) } else { (None, None) };
    let c_tiles = zc.mode(1)?;
    let c_tiles_modes = TileModes {
        first: c_tiles.mode(0)?,
        second: c_tiles.mode(1)?,
        batch: batch.map(|_| c_tiles.mode(2)).transpose()?,
    };
    // the tiles' coordinates (the TMA store's box coordinates), and for
    // guarded stores every element's
    let split = extents.split_k && batch.is_some();
    let biased = extents.op.is_some_and(|o| o.bias != crate::gemm_sm90::BiasMode::None);
    let id = identity_tiles((m, n), (bm, bn))?;
    let c_ctiles = (predicated || tma_store).then(|| both_coordinates(&id.mode(1)?)).transpose()?;
    let c_ctile =
        ((predicated && !tma_store) || biased || split).then(|| all_coordinates(&id.mode(0)?, rank)).transpose()?;
    // The TMA store's staging tile: a box of 64 rows (one consumer
    // warpgroup's) by 128 bytes, CuTe's Layout_K_SW128 atom in C's
    // elements, over the (128, BN) block tile with the warpgroup's and
    // the box's offsets left to the kernel (stride 0). The swizzle spreads
    // the 8 rows a warp's 16-bit accumulator pairs fall in over the 32
    // banks (a plain row-major box puts them all in the same 4: 8-way
    // conflicts); f32 pairs cost twice the ideal (a half-warp's 4 rows
    // of 32 bytes take two 16-byte chunk pairs), which is kept.
    let cb = c_elem.bytes();
    let (box_cols, boxes) = (128 / cb, bn / (128 / cb));
    let (c_stage, c_stage_cost) = if tma_store {
        let s = Int::new_static;
        let boxed = static_layout(((s(64), s(2)), (s(box_cols), s(boxes))), ((s(box_cols), s(0)), (s(1), s(0))))?;
        let bytes = compose3(AnyLayout::Swizzle(Swizzle::new(3, 4, 3)?), Int::ZERO, AnyLayout::Layout(boxed));
        let l = swizzle_bytes_to_elements(&bytes, cb)?;
        let cost = block_bank_conflicts(&l, cb, &c_frag)?;
        (Some(l), cost)
    } else {
        (None, Vec::new())
    };
    let c_ctiles_modes = (c_ctiles.is_some() || split || biased).then(|| coords((m, n), (bm, bn))).transpose()?;
    let c_coord_parts = if biased { coord_parts(&c_frag, &c_rep, (bm, bn))? } else { None };
    let split_k = if let (true, Some((l, sc))) = (split, batch) {
        Some(SplitK::new((m, n, l), (ldc, sc), (bm, bn))?)
    } else {
        None
    };
    let (a_elems, b_elems) = (bm * bk, bn * bk);
    // a cluster's halves of B's tile: K-major, rows; MN-major, 64-row slabs
    let b_half = if cluster == 2 {
        let w = 128 / elem.bytes();
        if b_k {
            Some((bn / 2, tile_offset(&smem_b, bn, bn / 2, 0)?))
        } else if (bn / w) % 2 == 0 {
            Some((bn / w / 2, bn / w / 2))
        } else {
            return Err(Error::unsupported(
                OP,
                format!(
                    "a cluster of 2 on an N-major B tile of {bn} columns: its 64-row slabs ({}) must pair up",
                    bn / w
                ),
            ));
        }
    } else {
        None
    };
    // as many stages as fit beside C's staging, the bias and the 1 KiB of
    // alignment (four of the widest tile, as the other kernels keep)
    let extras = if tma_store { C_STAGE_BYTES } else { 0 } + if biased { bm.max(bn) * 4 } else { 0 } + 1024;
    let stage_bytes = (a_elems + b_elems) * elem.bytes();
    let stages = if ws { ((SMEM_LIMIT - extras) / stage_bytes).min(MAX_STAGES) } else { STAGES };
    let after_stages = stages * stage_bytes + if tma_store { C_STAGE_BYTES } else { 0 };
    let tiles_of = |x: Int, b: i64| x.ceil_div(Int::new_dynamic(b));
    let (tm, tn, tk) = (tiles_of(m, bm)?, tiles_of(n, bn)?, tiles_of(k, bk)?);
    // tiles are numbered in groups of `group` M-tiles, N fastest within a
    // group: the blocks at work together share A's and B's tiles in L2 (for
    // sizes given at launch, groups of 8, the last one maybe smaller)
    // (a cluster's rows of tiles are pairs: groups of as many M-tiles)
    let sched_tm = tm.ceil_div(Int::new_dynamic(cluster))?;
    let most = 8 / cluster;
    let group = [8, 4, 2, 1].into_iter().filter(|&g| g <= most).find(|&g| known_multiple(sched_tm, g)).unwrap_or(1);
    let (group, group_divides) = if at_launch && group < most { (most, false) } else { (group, true) };
    Ok(Sm90Plan {
        extents,
        split_k,
        elem,
        config,
        predicated,
        smem,
        smem_b,
        atom,
        desc_a,
        desc_b,
        wg_offset,
        store_cost,
        a_tiles: za.mode(1)?,
        b_tiles: zb.mode(1)?,
        c_tiles,
        c_tiles_modes,
        c_ctiles_modes,
        a_gcopy: (!tma).then(|| kute::composition(&za.mode(0)?, &a_scopy)).transpose()?,
        b_gcopy: (!tma).then(|| kute::composition(&zb.mode(0)?, &b_scopy)).transpose()?,
        a_scopy,
        b_scopy,
        c_frag,
        c_rep,
        c_tile: zc.mode(0)?,
        a_ctiles,
        b_ctiles,
        a_ctiles_modes,
        b_ctiles_modes,
        c_ctiles,
        c_ctile,
        c_stage,
        c_stage_cost,
        c_boxes: tma_store.then_some((box_cols, boxes)),
        tiles: (tm, tn, tk),
        sched_tm,
        b_half,
        passes: (bm * bk / (THREADS * vec), bn * bk / (THREADS * vec)),
        pass_step: THREADS * vec,
        stage_elems: (a_elems, b_elems),
        group,
        group_divides,
        bias_offset: biased.then_some(after_stages),
        c_coord_parts,
        // (with a bias: the tile's rows' or columns' f32 values, shared by
        // the consumers; 1 KiB to align the stages)
        smem_bytes: after_stages + if biased { bm.max(bn) * 4 } else { 0 } + 1024,
        tile: (bm, bn, bk),
        stages,
        threads: if ws { 3 * 128 } else { THREADS },
    })
}

/// The parts of [`Sm90Plan::c_coord_parts`]: the identity layout of the
/// `(bm, bn)` tile composed with `c_frag`'s thread mode, its value mode
/// and `c_rep`; `None` where the three do not add up to the coordinate
/// without a carry (a layout whose row parts overflow the tile's rows).
fn coord_parts(c_frag: &Layout, c_rep: &Layout, (bm, bn): (i64, i64)) -> Result<Option<[Layout; 3]>> {
    if c_frag.rank() != 2 {
        return Ok(None);
    }
    let id = Layout::identity(&shape2(bm, bn))?;
    let part = |l: &Layout| -> Result<Layout> { both_coordinates(&kute::composition(&id, l)?) };
    let parts = [part(&c_frag.mode(0)?)?, part(&c_frag.mode(1)?)?, part(c_rep)?];
    let coords = |l: &Layout| -> Result<Vec<(i64, i64)>> {
        (0..l.size()?.value())
            .map(|i| {
                let c = l.eval_point(Int::new_dynamic(i))?.to_int_tuple();
                let at = |k: usize| -> Result<i64> {
                    c.get(k)?
                        .as_int()
                        .map(|x| x.value())
                        .ok_or_else(|| Error::unsupported(OP, format!("{l}: a coordinate")))
                };
                Ok((at(0)?, at(1)?))
            })
            .collect()
    };
    let (thr, val, wg) = (coords(&parts[0])?, coords(&parts[1])?, coords(&parts[2])?);
    let threads = thr.len() as i64;
    for (w, cw) in wg.iter().enumerate() {
        for (v, cv) in val.iter().enumerate() {
            for (t, ct) in thr.iter().enumerate() {
                let x = c_frag.eval(t as i64 + threads * v as i64)? + c_rep.eval(w as i64)?;
                if (x % bm, x / bm) != (ct.0 + cv.0 + cw.0, ct.1 + cv.1 + cw.1) {
                    return Ok(None);
                }
            }
        }
    }
    Ok(Some(parts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gemm_sm90::{Sm90Epilogue, Sm90Loader};
    use kute::sym::{Sym, Valuation};

    /// 8-bit inputs: the shared tiles are the 128-byte swizzle atom over
    /// 128-element (128-byte) rows, one `wgmma` k step is 32 elements (the
    /// 32 bytes of a 16-bit one), the accumulators land where the 16-bit
    /// kernel's do, and operands that are not both K-major are refused.
    #[test]
    fn fp8_plans_read_128_byte_rows_and_k_steps_of_32() {
        let ws = Sm90Config {
            loader: Sm90Loader::WarpSpecialized,
            epilogue: Sm90Epilogue::Tma,
            c_elem: Elem::F16,
            k_major: (true, true),
            bn: 256,
            cluster: 1,
        };
        let f16 = plan(Extents::fixed((256, 512, 256)), Elem::F16, ws).unwrap();
        for elem in Elem::FP8 {
            let p = plan(Extents::fixed((256, 512, 256)), elem, ws).unwrap();
            assert_eq!(p.atom, "Layout_K_SW128");
            // (row, k) at byte row·128 + k, its 16-byte chunk XORed with the row's low bits
            for x in 0..128 * 128 {
                let (row, col) = (x % 128, x / 128);
                let byte = row * 128 + col;
                let want = byte ^ (((byte >> 7) & 7) << 4);
                assert_eq!(p.smem.eval_int(Int::new_dynamic(x)).unwrap().value(), want, "{elem} ({row},{col})");
            }
            assert_eq!((p.desc_a.kstep, p.desc_b.kstep), (32, 32));
            assert_eq!((p.desc_a.sbo, p.desc_b.sbo), (f16.desc_a.sbo, f16.desc_b.sbo));
            assert_eq!(p.c_frag, f16.c_frag);
            assert_eq!(p.stage_elems, (128 * 128, 256 * 128));
            assert_eq!(p.tiles.2.value(), 2); // 256 / 128
            for c_elem in [Elem::F32, Elem::Bf16] {
                assert!(plan(Extents::fixed((256, 512, 256)), elem, Sm90Config { c_elem, ..ws }).is_ok());
            }
            for k_major in [(false, true), (true, false), (false, false)] {
                let e = plan(Extents::fixed((256, 512, 256)), elem, Sm90Config { k_major, ..ws }).err().unwrap();
                assert!(e.to_string().contains("K-major"), "{e}");
            }
            // rows of 16-byte vectors: K a multiple of 16 elements
            let e = plan(Extents::fixed((256, 512, 264)), elem, ws).err().unwrap();
            assert!(e.to_string().contains("multiple of 16"), "{e}");
        }
    }

    /// With a bias, the accumulators' tile coordinates split into a
    /// thread's, a value's and a warpgroup's part for every tile width,
    /// input and `C` type (so the kernel reads the bias at a per-thread
    /// base plus constants), and the parts are the coordinates of the
    /// tile's identity layout: every accumulator's (row, column) from the
    /// parts is the column-major position `c_frag` gives it.
    #[test]
    fn biased_plans_split_the_accumulator_coordinates_without_carry() {
        use crate::gemm_sm90::{BiasMode, EpilogueOp};
        for bn in [256, 128, 64] {
            for (elem, c_elem) in [(Elem::F16, Elem::F16), (Elem::Bf16, Elem::F32), (Elem::E4m3, Elem::Bf16)] {
                let ws = Sm90Config {
                    loader: Sm90Loader::WarpSpecialized,
                    epilogue: Sm90Epilogue::Tma,
                    c_elem,
                    k_major: (true, true),
                    bn,
                    cluster: 1,
                };
                let op = EpilogueOp { bias: BiasMode::PerColumn, ..EpilogueOp::default() };
                let ext = Extents { op: Some(op), ..Extents::fixed((256, 512, 256)) };
                let p = plan(ext, elem, ws).unwrap();
                let parts = p.c_coord_parts.as_ref().unwrap_or_else(|| panic!("{bn} {elem}: no parts"));
                let at = |l: &Layout, i: i64| {
                    let c = l.eval_point(Int::new_dynamic(i)).unwrap().to_int_tuple();
                    (c.get(0).unwrap().as_int().unwrap().value(), c.get(1).unwrap().as_int().unwrap().value())
                };
                // a value's part: m64nNk16's pairs of adjacent columns, 8
                // rows apart, then 8 columns on (PTX's accumulator layout)
                for v in 0..bn / 2 {
                    assert_eq!(at(&parts[1], v), (8 * (v / 2 % 2), v % 2 + 8 * (v / 4)), "{bn} value {v}");
                }
                for t in 0..128 {
                    assert_eq!(at(&parts[0], t), (t / 4 % 8 + 16 * (t / 32), 2 * (t % 4)), "{bn} thread {t}");
                }
                assert_eq!(at(&parts[2], 1), (64, 0));
                let plain = plan(Extents::fixed((256, 512, 256)), elem, ws).unwrap();
                assert!(plain.c_coord_parts.is_none());
            }
        }
    }

    /// The narrow tiles keep more stages in the same shared memory, and
    /// every plan fits Hopper's 227 KiB; the other kernels take 256 only.
    #[test]
    fn narrow_tiles_keep_more_stages_within_hopper_shared_memory() {
        let ws = Sm90Config {
            loader: Sm90Loader::WarpSpecialized,
            epilogue: Sm90Epilogue::Tma,
            c_elem: Elem::F16,
            ..Sm90Config::default()
        };
        let mut last = 0;
        for bn in TILE_NS {
            for elem in [Elem::F16, Elem::E4m3] {
                let p = plan(Extents::fixed((256, 512, 256)), elem, Sm90Config { bn, ..ws }).unwrap();
                assert_eq!(p.tile, (128, bn, 128 / elem.bytes()));
                assert!(p.smem_bytes <= SMEM_LIMIT, "{bn} {elem}: {}", p.smem_bytes);
                assert!(p.stages >= last && p.stages <= MAX_STAGES);
                // one more stage would not fit (or the most are kept)
                let stage = (p.stage_elems.0 + p.stage_elems.1) * elem.bytes();
                assert!(p.stages == MAX_STAGES || p.smem_bytes + stage > SMEM_LIMIT, "{bn} {elem}");
            }
            last = plan(Extents::fixed((256, 512, 256)), Elem::F16, Sm90Config { bn, ..ws }).unwrap().stages;
        }
        assert_eq!(plan(Extents::fixed((256, 512, 256)), Elem::F16, ws).unwrap().stages, STAGES);
        for bn in [128, 64, 96, 512] {
            assert!(
                plan(Extents::fixed((256, 512, 256)), Elem::F16, Sm90Config { bn, ..Sm90Config::default() }).is_err()
            );
        }
    }

    /// A cluster's two halves of B's tile are where the whole tile's
    /// layout puts them: K-major, the second half's rows start at the
    /// plan's offset, on a 1024-byte swizzle period (so that a box of half
    /// the rows, written there, is swizzled as the tile is); MN-major, each
    /// 64-row slab is a box at its own offset and the slabs pair up. The
    /// tensor map's box is half the rows (K-major); a cluster of 3, of 2
    /// on other loaders, and an N-major B of one slab are refused.
    #[test]
    fn a_clusters_halves_of_b_make_its_tile() {
        for elem in [Elem::F16, Elem::Bf16, Elem::E4m3] {
            let w = 128 / elem.bytes();
            for bn in TILE_NS {
                for b_k in [true, false] {
                    if elem.is_fp8() && !b_k {
                        continue;
                    }
                    let config = Sm90Config {
                        loader: Sm90Loader::WarpSpecialized,
                        epilogue: Sm90Epilogue::Tma,
                        c_elem: Elem::F32,
                        k_major: (true, b_k),
                        bn,
                        cluster: 2,
                    };
                    let planned = plan(Extents::fixed((512, 1024, 256)), elem, config);
                    if !b_k && (bn / w) % 2 != 0 {
                        let e = planned.err().map(|e| e.to_string()).unwrap_or_default();
                        assert!(e.contains("slabs"), "{bn} {elem}: {e}");
                        continue;
                    }
                    let p = planned.unwrap();
                    let (half, second) = p.b_half.unwrap();
                    let bk = p.tile.2;
                    if b_k {
                        assert_eq!(half * 2, bn);
                        assert_eq!(second * elem.bytes() % 1024, 0, "{bn} {elem}");
                        for r in 0..bn {
                            let want = (r / half) * second + (r % half) * w;
                            assert_eq!(tile_offset(&p.smem_b, bn, r, 0).unwrap(), want, "{bn} {elem} row {r}");
                        }
                    } else {
                        assert_eq!((half * 2, second), (bn / w, half));
                        for j in 0..bn / w {
                            assert_eq!(tile_offset(&p.smem_b, bn, j * w, 0).unwrap(), j * w * bk, "{bn} {elem}");
                        }
                    }
                    let (maps, _) = tensor_maps((512, 1024, 256), elem, config);
                    let box_rows = if b_k { bn / 2 } else { bk };
                    assert_eq!(maps[1].2 as i64, box_rows, "{bn} {elem}");
                    assert_eq!(p.sched_tm.value(), 2);
                }
            }
        }
        let ws = Sm90Config { loader: Sm90Loader::WarpSpecialized, ..Sm90Config::default() };
        let e = |c: Sm90Config| plan(Extents::fixed((512, 1024, 256)), Elem::F16, c).err().map(|e| e.to_string());
        assert!(e(Sm90Config { cluster: 3, ..ws }).unwrap().contains("cluster of 3"));
        assert!(e(Sm90Config { cluster: 2, loader: Sm90Loader::Tma, ..ws }).unwrap().contains("cluster of 2"));
        assert!(e(Sm90Config { cluster: 2, ..ws }).is_none());
    }

    /// A layout as compared: its shape, and its leaves' strides where their
    /// extent is not 1 (a mode of extent 1 is never stepped: CuTe writes its
    /// stride 0 where the extent is known to be 1), without static marks.
    fn seen(l: &Layout) -> String {
        let strides: Vec<String> = l
            .leaves()
            .iter()
            .map(|m| if m.shape.value() == 1 { "0".to_string() } else { m.stride.to_string() })
            .collect();
        format!("{}:{}", l.shape(), strides.join(",")).replace('_', "")
    }

    /// The law of sizes given at launch: for every `(M, N, K)` the facts
    /// allow, the plan made with unknowns, the values put in, is the plan
    /// made for those values (every layout the kernel evaluates, the tile
    /// counts), and it guards the edges wherever that plan does.
    #[test]
    fn the_plan_of_sizes_at_launch_is_the_plan_of_every_size_it_allows() {
        let ws = |epilogue, c_elem, k_major, bn| Sm90Config {
            loader: Sm90Loader::WarpSpecialized,
            epilogue,
            c_elem,
            k_major,
            bn,
            cluster: 1,
        };
        let configs = [
            ws(Sm90Epilogue::Tma, Elem::F16, (true, true), 256),
            ws(Sm90Epilogue::Direct, Elem::F32, (true, true), 256),
            ws(Sm90Epilogue::Direct, Elem::F16, (false, true), 128),
            ws(Sm90Epilogue::Tma, Elem::F32, (true, false), 64),
            ws(Sm90Epilogue::Tma, Elem::F16, (true, true), 64),
            // clusters of two: the pairs of M-tiles and their guards
            Sm90Config { cluster: 2, ..ws(Sm90Epilogue::Tma, Elem::F16, (true, true), 256) },
            Sm90Config { cluster: 2, ..ws(Sm90Epilogue::Direct, Elem::F32, (true, false), 128) },
        ];
        let facts = [(1, 8, 8), (8, 8, 8), (128, 256, 64), (64, 16, 16)];
        let mut next = crate::plan::test_draws(0x2545_f491_4f6c_dd1du64);
        let mut compared = 0;
        // 16-bit inputs in every config; 8-bit ones (K-major only) in the TN ones
        let cases = configs.iter().map(|&c| (Elem::F16, c)).chain(
            configs
                .iter()
                .filter(|c| c.k_major == (true, true))
                .map(|&c| (Elem::E4m3, Sm90Config { c_elem: Elem::F16, ..c })),
        );
        for (elem, config) in cases {
            for (md, nd, kd) in facts {
                let unknown = |n: &str, d: i64| Int::symbolic(Sym::var_div(n, d).unwrap()).unwrap();
                let extents = Extents {
                    mnk: (unknown("M", md), unknown("N", nd), unknown("K", kd)),
                    ldc: unknown("LDC", nd),
                    batch: Some((unknown("L", 1), unknown("SC", nd))),
                    split_k: true,
                    op: None,
                };
                let planned = plan(extents, elem, config);
                if let Err(e) = &planned {
                    eprintln!("{config:?} {md} {nd} {kd}: {e}");
                }
                let Ok(sym) = planned else {
                    // only what the facts cannot make legal is refused: a TMA
                    // store with N not declared a multiple of 8, an operand's
                    // contiguous extent not declared a multiple of 8
                    let (a_k, b_k) = config.k_major;
                    let vec = 16 / elem.bytes();
                    let rows_ok = (if a_k { kd } else { md }) % vec == 0 && (if b_k { kd } else { nd }) % vec == 0;
                    let store_ok = config.epilogue != Sm90Epilogue::Tma || nd % (16 / config.c_elem.bytes()) == 0;
                    assert!(!(rows_ok && store_ok), "{config:?} {md} {nd} {kd} refused");
                    continue;
                };
                for _ in 0..12 {
                    let (m, n, k) = (md * next(2048 / md + 2), nd * next(4096 / nd + 2), kd * next(1024 / kd + 2));
                    // C's rows and matrices apart by at least their lengths
                    let (ldc, l) = (n + nd * (next(3) - 1), next(4));
                    let sc = m * ldc + nd * (next(3) - 1);
                    let d = Int::new_dynamic;
                    let fixed = Extents {
                        mnk: (d(m), d(n), d(k)),
                        ldc: d(ldc),
                        batch: Some((d(l), d(sc))),
                        split_k: true,
                        op: None,
                    };
                    let want = plan(fixed, elem, config).unwrap();
                    let v = Valuation::from([("M", m), ("N", n), ("K", k), ("LDC", ldc), ("L", l), ("SC", sc)]);
                    let put = |l: &Layout| seen(&l.substitute(&v).unwrap());
                    let pairs = [
                        (&sym.c_tiles, &want.c_tiles),
                        (&sym.c_tile, &want.c_tile),
                        (&sym.c_frag, &want.c_frag),
                        (&sym.c_rep, &want.c_rep),
                        (&sym.c_tiles_modes.first, &want.c_tiles_modes.first),
                        (&sym.c_tiles_modes.second, &want.c_tiles_modes.second),
                    ];
                    for (s, w) in pairs {
                        assert_eq!(put(s), seen(w), "({m},{n},{k}) {config:?}");
                    }
                    let modes = |t: &Option<TileModes>| {
                        t.as_ref().map(|t| [Some(t.first.clone()), Some(t.second.clone()), t.batch.clone()])
                    };
                    let by_mode = |s: &Option<TileModes>, w: &Option<TileModes>| {
                        let (s, w) = (modes(s), modes(w));
                        (0..3).map(move |i| {
                            (s.as_ref().and_then(|s| s[i].clone()), w.as_ref().and_then(|w| w[i].clone()))
                        })
                    };
                    let owned: Vec<(Option<Layout>, Option<Layout>)> =
                        by_mode(&sym.a_ctiles_modes, &want.a_ctiles_modes)
                            .chain(by_mode(&sym.b_ctiles_modes, &want.b_ctiles_modes))
                            .chain(by_mode(&sym.c_ctiles_modes, &want.c_ctiles_modes))
                            .chain([(sym.c_tiles_modes.batch.clone(), want.c_tiles_modes.batch.clone())])
                            .chain([
                                (sym.c_ctiles.clone(), want.c_ctiles.clone()),
                                (sym.c_ctile.clone(), want.c_ctile.clone()),
                            ])
                            .chain(sym.split_k.iter().zip(&want.split_k).flat_map(|(s, w)| {
                                [
                                    (Some(s.w_tiles.first.clone()), Some(w.w_tiles.first.clone())),
                                    (Some(s.w_tiles.second.clone()), Some(w.w_tiles.second.clone())),
                                    (s.w_tiles.batch.clone(), w.w_tiles.batch.clone()),
                                    (Some(s.w_tile.clone()), Some(w.w_tile.clone())),
                                    (Some(s.w_share.clone()), Some(w.w_share.clone())),
                                    (Some(s.finish.clone()), Some(w.finish.clone())),
                                ]
                            }))
                            .collect();
                    assert_eq!(sym.split_k.is_some(), want.split_k.is_some());
                    let opts: Vec<(&Option<Layout>, &Option<Layout>)> = owned.iter().map(|(s, w)| (s, w)).collect();
                    for (s, w) in opts {
                        match (s, w) {
                            (Some(s), Some(w)) => assert_eq!(put(s), seen(w), "({m},{n},{k}) {config:?}"),
                            // the unknowns' plan guards every size it allows; a size
                            // on the tile grid needs no guards
                            (Some(_), None) => assert!(sym.predicated && !want.predicated),
                            (None, Some(_)) => {
                                panic!("({m},{n},{k}) {config:?}: the plan for values guards, the symbolic one not")
                            }
                            (None, None) => {}
                        }
                    }
                    let tiles = |(a, b, c): (Int, Int, Int)| [a, b, c].map(|x| x.substitute(&v).unwrap().value());
                    assert_eq!(tiles(sym.tiles), tiles(want.tiles));
                    let at = |x: Int| x.substitute(&v).unwrap().value();
                    assert_eq!(at(sym.sched_tm), at(want.sched_tm));
                    assert_eq!(at(want.sched_tm), (at(want.tiles.0) + config.cluster - 1) / config.cluster);
                    assert!(sym.predicated || !want.predicated);
                    compared += 1;
                }
            }
        }
        assert!(compared >= 300, "{compared}");
    }
}
