//! The plan of the SM90 `wgmma` GEMMs (see [`crate::gemm_sm90`] for the
//! kernels).

use super::{both_coordinates, ceil_div, check_rows, copy_tv, identity_tiles, layout2, operand_layout, shape2};
use crate::gemm_sm90::{Sm90Config, Sm90Epilogue, Sm90Loader, C_STAGE_BYTES, STAGES, THREADS, TILE};
use crate::{Elem, Error, Result};
use kute::analysis::{block_bank_conflicts, gmma_atom_name, swizzle_bytes_to_elements, BankReport};
use kute::atom::MmaAtom;
use kute::composed::{compose3, ComposedLayout};
use kute::{AnyLayout, AsIntTuple, Int, Layout, Major, Swizzle};

const OP: &str = "sm90 gemm kernel";

/// A `wgmma` shared-memory descriptor's fields for one operand's tile, read
/// off its layout, and the offset of one k step (16 elements of K).
#[derive(Clone, Copy)]
pub(crate) struct Descriptor {
    /// Leading byte offset.
    pub lbo: i64,
    /// Stride byte offset.
    pub sbo: i64,
    /// Elements from one k step to the next.
    pub kstep: i64,
}

/// The SM90 GEMM's plan: the shared tiles, the layouts the kernel evaluates,
/// the descriptors, and the counts its text needs.
pub(crate) struct Sm90Plan {
    /// `(M, N, K)`.
    pub mnk: (i64, i64, i64),
    /// The input type (f16 or bf16).
    pub elem: Elem,
    /// The choices the plan was made for.
    pub config: Sm90Config,
    /// Whether the sizes are off the tile grid (edge tiles' stores guarded).
    pub predicated: bool,
    /// The shared tile of `A`, `(128, 64)` in elements.
    pub smem: AnyLayout,
    /// The shared tile of `B`, `(256, 64)` in elements.
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
    /// `cp.async` TV index to the global offset in `A`'s tile.
    pub a_gcopy: Layout,
    /// Same in `B`'s.
    pub b_gcopy: Layout,
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
    /// Predicated or with the TMA store: block tile number to the (row,
    /// column) of its first element of `C`.
    pub c_ctiles: Option<Layout>,
    /// Predicated with direct stores: tile coordinate to its (row, column).
    pub c_ctile: Option<Layout>,
    /// With the TMA store: the shared staging tile of `C`.
    pub c_stage: Option<AnyLayout>,
    /// With the TMA store: predicted wavefronts of the staging stores.
    pub c_stage_cost: Vec<BankReport>,
    /// With the TMA store: `(box columns, boxes per row of the tile)`.
    pub c_boxes: Option<(i64, i64)>,
    /// Block tiles along M and N, and k-tiles.
    pub tiles: (i64, i64, i64),
    /// `cp.async` passes per thread of `A` and `B`.
    pub passes: (i64, i64),
    /// The `cp.async` TV index step of one pass (threads · vector).
    pub pass_step: i64,
    /// Elements of one stage of `A` and of `B`.
    pub stage_elems: (i64, i64),
    /// M-tiles per group of the persistent kernel's tile order (for L2).
    pub group: i64,
    /// The TMA tensor maps of `A` and `B`.
    pub tma_maps: [(u64, u64, u32, u32); 2],
    /// The TMA tensor map of `C` (TMA store).
    pub c_map: Option<(u64, u64, u32, u32)>,
    /// Bytes of dynamic shared memory per block.
    pub smem_bytes: i64,
    /// Threads per block.
    pub threads: i64,
}

/// `Sw<3,4,3> o _0 o inner`: CuTe's 128-byte swizzle of byte addresses.
fn sw128_bytes(inner: Layout) -> Result<ComposedLayout> {
    Ok(ComposedLayout::new(AnyLayout::Swizzle(Swizzle::new(3, 4, 3)?), Int::ZERO, AnyLayout::Layout(inner)))
}

/// A layout of static integers.
fn static_layout(shape: impl AsIntTuple, stride: impl AsIntTuple) -> Result<Layout> {
    Ok(Layout::new(shape, stride)?)
}

/// Plans `C = A · Bᵀ` for `(M, N, K)`; the Pre and Post of
/// [`crate::gemm_sm90::Sm90Gemm::with_config`].
pub(crate) fn plan((m, n, k): (i64, i64, i64), elem: Elem, config: Sm90Config) -> Result<Sm90Plan> {
    let Sm90Config { loader, epilogue, c_elem, k_major: (a_k, b_k) } = config;
    let tma = loader != Sm90Loader::CpAsync;
    let ws = loader == Sm90Loader::WarpSpecialized;
    if c_elem != Elem::F32 && c_elem != elem {
        return Err(Error::unsupported(OP, format!("a C of {c_elem} from {elem} inputs (f32 or {elem})")));
    }
    let tma_store = epilogue == Sm90Epilogue::Tma;
    if tma_store && n * c_elem.bytes() % 16 != 0 {
        return Err(Error::unsupported(
            OP,
            format!("a TMA store of C's rows of {} bytes (a multiple of 16)", n * c_elem.bytes()),
        ));
    }
    if !ws && (c_elem != Elem::F32 || tma_store) {
        return Err(Error::unsupported(OP, "a 16-bit C or a TMA store: only the warp-specialized kernel writes them"));
    }
    if !(ws || a_k && b_k) {
        return Err(Error::unsupported(OP, "M- or N-major operands: only the warp-specialized kernel takes them"));
    }
    let (bm, bn, bk) = TILE;
    let op = match elem {
        Elem::F16 => format!("SM90_64x{bn}x16_F32F16F16_SS"),
        Elem::Bf16 => format!("SM90_64x{bn}x16_F32BF16BF16_SS"),
        Elem::F32 => return Err(Error::unsupported(OP, "f32 inputs: wgmma takes f16 or bf16 here")),
    };
    // the warp-specialized kernel takes any sizes: TMA fills what lies
    // outside the operands with zeros, and the edge tiles' stores are
    // guarded; TMA needs rows of a multiple of 16 bytes
    let multiple = m % bm == 0 && n % bn == 0 && k % bk == 0;
    if m < 1 || n < 1 || k < 1 || (!ws && !multiple) {
        return Err(Error::unsupported(OP, format!("({m},{n},{k}) is not a multiple of the tile ({bm},{bn},{bk})")));
    }
    check_rows(OP, (m, n, k), (a_k, b_k))?;
    let predicated = !multiple;
    // CuTe's 128-byte swizzle atoms for 16-bit elements (a swizzle of
    // byte addresses): GMMA::Layout_K_SW128_Atom tiled down the rows, or
    // Layout_MN_SW128_Atom (64 rows by 8 k) tiled along K first, so that
    // one 64-row slab is one TMA box
    let w = 128 / elem.bytes();
    let s = Int::new_static;
    let smem_of = |rows: i64, k_major: bool| -> Result<(AnyLayout, String)> {
        let target = (s(rows), s(bk)).as_int_tuple().into_owned();
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
    };
    let (smem, atom) = smem_of(bm, a_k)?;
    let (smem_b, _) = smem_of(bn, b_k)?;
    // the descriptors' fields, the k step and the second warpgroup's
    // rows, read off the layouts (unswizzled offsets of (row, k))
    let at = |l: &AnyLayout, rows: i64, r: i64, c: i64| -> Result<i64> {
        let plain = match l {
            AnyLayout::Composed(x) => x.inner().as_layout(OP)?.clone(),
            AnyLayout::Layout(x) => x.clone(),
            AnyLayout::Swizzle(_) => return Err(Error::unsupported(OP, "a bare swizzle")),
        };
        Ok(plain.eval(r + rows * c)?)
    };
    // K-major: LBO unused (16 bytes), SBO the stride of 8-row groups;
    // MN-major: LBO the stride of 64-row slabs, SBO that of 8-k groups
    let desc = |l: &AnyLayout, rows: i64, k_major: bool| -> Result<Descriptor> {
        let b = elem.bytes();
        let (lbo, sbo) =
            if k_major { (16, at(l, rows, 8, 0)? * b) } else { (at(l, rows, w, 0)? * b, at(l, rows, 0, 8)? * b) };
        Ok(Descriptor { lbo, sbo, kstep: at(l, rows, 0, 16)? })
    };
    let (desc_a, desc_b) = (desc(&smem, bm, a_k)?, desc(&smem_b, bn, b_k)?);
    let wg_offset = at(&smem, bm, 64, 0)?;
    let vec = 16 / elem.bytes();
    let (a_scopy, b_scopy) = (copy_tv(OP, THREADS, bm, bk, elem, true)?, copy_tv(OP, THREADS, bn, bk, elem, true)?);
    let store_cost = block_bank_conflicts(&smem, elem.bytes(), &a_scopy)?;
    let (a, b) = (operand_layout(m, k, a_k)?, operand_layout(n, k, b_k)?);
    let c = layout2((m, n), (n, 1))?;
    let za = kute::zipped_divide(&a, &shape2(bm, bk))?;
    let zb = kute::zipped_divide(&b, &shape2(bn, bk))?;
    let zc = kute::zipped_divide(&c, &shape2(bm, bn))?;
    let c_atom = MmaAtom::new(&format!("{op}<GMMA::Major::K,GMMA::Major::K>"))?.layout_c_tv().clone();
    // the two warpgroups' atoms over the (128,128) tile: (thread, value) -> tile coordinate
    let zt = kute::zipped_divide(&Layout::from_shape(&shape2(bm, bn))?, &shape2(64, bn))?;
    let c_frag = kute::composition(&zt.mode(0)?, &c_atom)?;
    let c_rep = zt.mode(1)?;
    let (a_ctiles, b_ctiles) = if tma {
        // both components, even where a tile grid has one tile along a mode
        let ctiles =
            |rows: i64, br: i64| -> Result<Layout> { both_coordinates(&identity_tiles((rows, k), (br, bk))?.mode(1)?) };
        (Some(ctiles(m, bm)?), Some(ctiles(n, bn)?))
    } else {
        (None, None)
    };
    // the tiles' coordinates (the TMA store's box coordinates), and for
    // guarded stores every element's
    let (c_ctiles, c_ctile) = if predicated || tma_store {
        let id = identity_tiles((m, n), (bm, bn))?;
        let ctile = if tma_store { None } else { Some(both_coordinates(&id.mode(0)?)?) };
        (Some(both_coordinates(&id.mode(1)?)?), ctile)
    } else {
        (None, None)
    };
    // The TMA store's staging tile: a box of 64 rows (one consumer
    // warpgroup's) by 128 bytes, CuTe's Layout_K_SW128 atom in C's
    // elements, over the (128, 256) block tile with the warpgroup's and
    // the box's offsets left to the kernel (stride 0). The swizzle spreads
    // the 8 rows a warp's 16-bit accumulator pairs fall in over the 32
    // banks (a plain row-major box puts them all in the same 4: 8-way
    // conflicts); f32 pairs cost twice the ideal (a half-warp's 4 rows
    // of 32 bytes take two 16-byte chunk pairs), which is kept.
    let cb = c_elem.bytes();
    let (box_cols, boxes) = (128 / cb, bn / (128 / cb));
    let (c_stage, c_stage_cost) = if tma_store {
        let boxed = static_layout(((s(64), s(2)), (s(box_cols), s(boxes))), ((s(box_cols), s(0)), (s(1), s(0))))?;
        let bytes = compose3(AnyLayout::Swizzle(Swizzle::new(3, 4, 3)?), Int::ZERO, AnyLayout::Layout(boxed));
        let l = swizzle_bytes_to_elements(&bytes, cb)?;
        let cost = block_bank_conflicts(&l, cb, &c_frag)?;
        (Some(l), cost)
    } else {
        (None, Vec::new())
    };
    let (a_elems, b_elems) = (bm * bk, bn * bk);
    let (tm, tn) = (ceil_div(m, bm), ceil_div(n, bn));
    Ok(Sm90Plan {
        mnk: (m, n, k),
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
        c_tiles: zc.mode(1)?,
        a_gcopy: kute::composition(&za.mode(0)?, &a_scopy)?,
        b_gcopy: kute::composition(&zb.mode(0)?, &b_scopy)?,
        a_scopy,
        b_scopy,
        c_frag,
        c_rep,
        c_tile: zc.mode(0)?,
        a_ctiles,
        b_ctiles,
        c_ctiles,
        c_ctile,
        c_stage,
        c_stage_cost,
        c_boxes: tma_store.then_some((box_cols, boxes)),
        tiles: (tm, tn, ceil_div(k, bk)),
        passes: (bm * bk / (THREADS * vec), bn * bk / (THREADS * vec)),
        pass_step: THREADS * vec,
        stage_elems: (a_elems, b_elems),
        // tiles are numbered in groups of `group` M-tiles, N fastest within a
        // group: the blocks at work together share A's and B's tiles in L2
        group: [8, 4, 2, 1].into_iter().find(|g| tm % g == 0).unwrap_or(1),
        tma_maps: [(m, bm, a_k), (n, bn, b_k)].map(|(rows, box_rows, k_major)| {
            if k_major {
                (rows as u64, k as u64, box_rows as u32, bk as u32)
            } else {
                (k as u64, rows as u64, bk as u32, w as u32)
            }
        }),
        c_map: tma_store.then_some((m as u64, n as u64, 64, box_cols as u32)),
        smem_bytes: STAGES * (a_elems + b_elems) * elem.bytes() + if tma_store { C_STAGE_BYTES } else { 0 } + 1024,
        threads: if ws { 3 * 128 } else { THREADS },
    })
}
