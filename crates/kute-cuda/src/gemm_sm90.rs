//! A Hopper GEMM (SM90 `wgmma`), every index from kute's layouts.
//!
//! `C = A · Bᵀ`, f16 or bf16 inputs, f32 accumulation and a row-major `C`
//! (f32, or 16-bit from the warp-specialized kernel); the first two kernels
//! take both operands K-major (BLAS's "TN") and `M` a multiple of 128, `N` of
//! 256, `K` of 64. Two warpgroups (256 threads) per block, each computing 64
//! rows of the 128 x 256 block tile with `wgmma.mma_async.m64n256k16`.
//!
//! From kute:
//! - the shared tiles are CuTe's GMMA atom `Layout_K_SW128` tiled to
//!   `(128, 64)`: `Sw<3,3,3> o (128,64):(64,1)` in elements, checked with
//!   [`kute::analysis::gmma_atom_name`]; the `wgmma` descriptors' swizzle
//!   mode (128B) and stride between 8-row groups (1024 bytes) are read off
//!   that layout;
//! - the `cp.async` copies into them use the TV layout of CuTe's
//!   `make_tiled_copy` construction, and kute's bank model finds them
//!   conflict-free;
//! - the accumulators go to `C` through the GMMA atom's `CLayout`
//!   (`MMA_Traits<SM90_64x256x16_F32F16F16_SS<K,K>>::CLayout{}`), repeated
//!   over the two warpgroups with `zipped_divide`.
//!
//! The mainloop is a `cp.async` pipeline of `STAGES` k-tiles, two of them
//! loading while one is multiplied and the previous one's `wgmma`s may still
//! run: wait for tile `kt`, fence the async proxy, synchronise, refill the
//! stage of tile `kt-2`, issue four `wgmma`s on tile `kt`, and wait until at
//! most one group of them is in flight.
//!
//! Compiled for `sm_90a` (the `wgmma` instructions are architecture-specific).
//! The tiles are copied either by every thread with `cp.async`
//! ([`Sm90Gemm::new`]) or by TMA ([`Sm90Gemm::with_tma`]): one thread arms
//! the stage's mbarrier with the tile's bytes and issues two bulk tensor
//! copies, at coordinates read off `zipped_divide(make_identity_layout)`,
//! into the same 128-byte-swizzled tiles (the tensor maps' boxes and swizzle
//! are the shared layouts'); the consumers wait on the mbarrier's phase.
//!
//! [`Sm90Gemm::warp_specialized`] is the Hopper schedule proper: a persistent
//! kernel of one block per multiprocessor, each looping over block tiles
//! (grouped by eight along M, for L2), with a producer warpgroup whose one
//! thread issues the TMA copies and two consumer warpgroups that only
//! multiply. Full and empty mbarriers per stage replace `__syncthreads`:
//! the producer waits until both consumers have released a stage, the
//! consumers wait until its bytes have landed, and the producer fills the
//! next tile's stages while the consumers store the last tile's `C`.
//! It alone takes M- or N-major operands ([`Sm90Gemm::warp_specialized_with`]:
//! `Layout_MN_SW128` tiles, transposed `wgmma` operands) and any sizes whose
//! operands' rows are whole 16-byte units (TMA fills what lies outside the
//! operands with zeros; the edge tiles' stores are guarded by coordinates
//! from `zipped_divide(make_identity_layout((M, N)), tile)`).
//!
//! Its consumers can store `C` by TMA ([`Sm90Epilogue::Tma`], from
//! [`Sm90Gemm::warp_specialized_epilogue`], where `C`'s rows are whole 16-byte
//! units): each warpgroup writes its accumulators, one box
//! of 64 rows by 128 bytes at a time, into one of two shared buffers laid out
//! as CuTe's `Layout_K_SW128` atom in `C`'s elements (which kute's bank
//! model finds conflict-free for the 16-bit pairs), fences the async proxy,
//! meets on a named barrier, and one thread issues a bulk tensor store of the
//! box at coordinates from `zipped_divide(make_identity_layout((M, N)),
//! tile)` (TMA clips the boxes at `C`'s edges). The warpgroup then multiplies
//! the next tile while the TMA engine drains `C`: on a skinny K the
//! `st.global`s from registers ([`Sm90Epilogue::Direct`], kept for the other
//! `C`s) had stopped the `wgmma`s for about as long as a tile's mainloop.

use crate::gemm::{ceil_div, check_rows, copy_tv, operand_layout};
use crate::source::{header, layout_fn, plain_fn};
use crate::{layout_of, Elem, Error, Result};
use kute::analysis::{block_bank_conflicts, gmma_atom_name, swizzle_bytes_to_elements, BankReport};
use kute::{AnyLayout, Major};

const OP: &str = "sm90 gemm kernel";

/// Threads per block: two warpgroups (three, a producer and two consumers,
/// in the warp-specialized kernel: [`Sm90Gemm::threads`]).
pub const THREADS: i64 = 256;
/// The block tile `(BM, BN, BK)`.
pub const TILE: (i64, i64, i64) = (128, 256, 64);
/// k-tiles in flight.
pub const STAGES: i64 = 4;
/// Bytes of the TMA store's staging buffers ([`Sm90Epilogue::Tma`]): two
/// boxes of 64 rows by 128 bytes per consumer warpgroup, which with the
/// four stages' 192 KiB fits Hopper's 227 KiB per block (a whole 128 x 256
/// f16 tile, 64 KiB, would take a stage).
pub const C_STAGE_BYTES: i64 = 2 * 2 * 64 * 128;

/// A planned SM90 GEMM.
#[derive(Clone, Debug)]
pub struct Sm90Gemm {
    /// The kernel's name.
    pub name: String,
    /// The input type.
    pub elem: Elem,
    /// `(M, N, K)`.
    pub mnk: (i64, i64, i64),
    /// The shared tile of `A`, `(128, 64)` in elements.
    pub smem: AnyLayout,
    /// The shared tile of `B`, `(256, 64)` in elements.
    pub smem_b: AnyLayout,
    /// CuTe's name of `A`'s atom (`Layout_K_SW128`, or `Layout_MN_SW128` for
    /// an M-major `A`).
    pub atom: String,
    /// Predicted wavefronts of one block's `cp.async` stores of one operand, per warp.
    pub store_cost: Vec<BankReport>,
    /// Bytes of dynamic shared memory per block (1 KiB of it for alignment).
    pub smem_bytes: u32,
    /// How the tiles reach shared memory; with TMA the kernel takes two
    /// tensor maps of A and B, [`crate::gpu::TensorMap`]s, in place of
    /// their pointers.
    pub loader: Sm90Loader,
    /// Threads per block.
    pub threads: u32,
    /// The type of `C`: f32, or (warp-specialized kernel) the inputs' type,
    /// rounded to nearest even from the f32 accumulators.
    pub c_elem: Elem,
    /// The TMA tensor maps of A and of B: `(rows, columns, box rows, box
    /// columns)` of the row-major matrix each is read as (`(M, K)` for a
    /// K-major A, `(K, M)` for an M-major one), boxes read off the shared
    /// layouts; the arguments of [`crate::gpu::Gpu::tensor_map_sw128`].
    pub tma_maps: [(u64, u64, u32, u32); 2],
    /// Whether A and B are K-major (BLAS's "TN" is `(true, true)`).
    pub k_major: (bool, bool),
    /// How the warp-specialized kernel stores `C` ([`Sm90Epilogue::Direct`]
    /// for the other kernels).
    pub epilogue: Sm90Epilogue,
    /// With [`Sm90Epilogue::Tma`], the TMA tensor map of `C`: `(rows,
    /// columns, box rows, box columns)` of the row-major `(M, N)` matrix,
    /// boxes of 64 rows by 128 bytes (the staging layout's atom); the kernel
    /// takes it as a fourth argument, after `C` (see
    /// [`crate::gpu::Gpu::launch_tma`]).
    pub c_map: Option<(u64, u64, u32, u32)>,
    /// With [`Sm90Epilogue::Tma`], the shared staging tile of `C` over the
    /// `(128, 256)` block tile, in `C`'s elements: each 64-row by 128-byte
    /// box is CuTe's `Layout_K_SW128` atom tiled down 64 rows (every box at
    /// offset 0; the kernel adds its buffer's base).
    pub c_stage: Option<AnyLayout>,
    /// With [`Sm90Epilogue::Tma`], predicted wavefronts of one consumer
    /// warpgroup's stores of its accumulators into the staging tile, per warp.
    pub c_stage_cost: Vec<BankReport>,
    /// The CUDA C++ source.
    pub source: String,
}

/// How the warp-specialized [`Sm90Gemm`] stores `C`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sm90Epilogue {
    /// Each consumer thread stores its accumulators with `st.global`
    /// straight from registers (guarded on the edge tiles); the `wgmma`s of
    /// the next tile wait until every store has issued.
    Direct,
    /// Each consumer warpgroup writes its accumulators, 64 rows by 128 bytes
    /// at a time, into one of two 128-byte-swizzled shared buffers, and one
    /// of its threads stores the box with a TMA bulk tensor store; the
    /// warpgroup goes on to the next box, and after the last to the next
    /// tile's `wgmma`s, while the TMA engine drains `C` (it clips the boxes
    /// at the edges of `C`). Needs rows of `C` of a multiple of 16 bytes.
    Tma,
}

/// How an [`Sm90Gemm`] moves its tiles and schedules its blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sm90Loader {
    /// Every thread copies with `cp.async`; a block per tile.
    CpAsync,
    /// One consumer thread issues TMA copies; a block per tile.
    Tma,
    /// A producer warpgroup issues TMA copies for two consumer warpgroups,
    /// under full/empty mbarriers; one persistent block per multiprocessor.
    WarpSpecialized,
}

impl Sm90Gemm {
    /// Plans `C = A · Bᵀ` for `(M, N, K)` (see the [module docs](self)).
    ///
    /// Pre: `elem` f16 or bf16; `M` a positive multiple of 128, `N` of 256,
    /// `K` of 64 (else an `Unsupported` error).
    /// Post: a kernel of `(M/128, N/256)` blocks of 256 threads taking
    /// [`Sm90Gemm::smem_bytes`] of dynamic shared memory.
    ///
    /// ```
    /// use kute_cuda::{gemm_sm90::Sm90Gemm, Elem};
    /// let g = Sm90Gemm::new("h", (256, 256, 128), Elem::F16).unwrap();
    /// assert_eq!(g.atom, "Layout_K_SW128");
    /// assert!(g.source.contains("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16"));
    /// ```
    pub fn new(name: &str, mnk: (i64, i64, i64), elem: Elem) -> Result<Sm90Gemm> {
        Sm90Gemm::plan(name, mnk, elem, Sm90Loader::CpAsync, Elem::F32, (true, true), Sm90Epilogue::Direct)
    }

    /// As [`Sm90Gemm::new`], the tiles loaded by TMA (bulk tensor copies
    /// into the 128-byte-swizzled tiles, completion counted by mbarriers)
    /// issued by one thread, in place of every thread's `cp.async`.
    ///
    /// Pre: as `new`. Post: a kernel `NAME(tma_a, tma_b, C)` taking the
    /// tensor maps of A and B by value (`__grid_constant__`).
    ///
    /// ```
    /// use kute_cuda::{gemm_sm90::{Sm90Gemm, Sm90Loader}, Elem};
    /// let g = Sm90Gemm::with_tma("t", (256, 512, 128), Elem::F16).unwrap();
    /// assert_eq!((g.loader, g.threads, g.blocks()), (Sm90Loader::Tma, 256, (2, 2)));
    /// // A (M, K) in boxes of its (128, 64) tile, B (N, K) in boxes of its (256, 64) tile
    /// assert_eq!(g.tma_maps, [(256, 128, 128, 64), (512, 128, 256, 64)]);
    /// assert!(g.source.contains("const __grid_constant__ kute_tmap tma_b, float* __restrict__ C)"));
    /// ```
    pub fn with_tma(name: &str, mnk: (i64, i64, i64), elem: Elem) -> Result<Sm90Gemm> {
        Sm90Gemm::plan(name, mnk, elem, Sm90Loader::Tma, Elem::F32, (true, true), Sm90Epilogue::Direct)
    }

    /// As [`Sm90Gemm::with_tma`], warp-specialized and persistent (see the
    /// [module docs](self)): 384 threads per block, launched on
    /// [`Sm90Gemm::grid`] blocks. `C` is `c_elem`: f32, or the inputs' type
    /// (each accumulator rounded to nearest even, as cuBLAS's half-precision
    /// GEMMs write), stored as [`Sm90Gemm::warp_specialized_with`] says.
    ///
    /// Pre: as `new`; `c_elem` f32 or `elem` (else an `Unsupported` error).
    /// Post: a kernel `NAME(tma_a, tma_b, C, tma_c)`, launched with
    /// [`crate::gpu::Gpu::launch_sm90`].
    ///
    /// ```
    /// use kute_cuda::{gemm_sm90::Sm90Gemm, Elem};
    /// let g = Sm90Gemm::warp_specialized("w", (1024, 1024, 128), Elem::Bf16, Elem::F32).unwrap();
    /// assert_eq!((g.threads, g.grid(132)), (384, (32, 1)));
    /// assert!(g.source.contains("setmaxnreg.inc.sync.aligned.u32 232"));
    /// let h = Sm90Gemm::warp_specialized("h", (1024, 1024, 128), Elem::Bf16, Elem::Bf16).unwrap();
    /// assert!(h.source.contains("cvt.rn.bf16x2.f32"));
    /// assert!(Sm90Gemm::warp_specialized("x", (1024, 1024, 128), Elem::Bf16, Elem::F16).is_err());
    /// ```
    pub fn warp_specialized(name: &str, mnk: (i64, i64, i64), elem: Elem, c_elem: Elem) -> Result<Sm90Gemm> {
        Sm90Gemm::warp_specialized_with(name, mnk, elem, c_elem, (true, true))
    }

    /// As [`Sm90Gemm::warp_specialized`], for A and B K-major or not
    /// (`k_major`): an M- or N-major operand's tile is CuTe's
    /// `Layout_MN_SW128` atom tiled along K first, read by `wgmma` with its
    /// transpose bit and descriptors whose leading and stride byte offsets
    /// come from that layout, and copied by TMA in 64-element-wide boxes.
    ///
    /// Pre: as `warp_specialized`, except that `M`, `N` and `K` may be any
    /// positive sizes whose operands' contiguous extents are multiples of 8
    /// (TMA reads rows of multiples of 16 bytes; else an `Unsupported` error):
    /// TMA fills what lies outside the operands with zeros, and the edge
    /// tiles' stores are guarded. Post: `C = A · Bᵀ` with A `(M, K)` and B
    /// `(N, K)` column-major where not K-major (the SM80
    /// [`GemmKernel`](crate::gemm::GemmKernel)'s operand layouts). `C` is
    /// stored by TMA through shared memory ([`Sm90Epilogue::Tma`]) where its
    /// rows are whole 16-byte units, else straight from registers, guarded at
    /// the edges ([`Sm90Epilogue::Direct`]); either way the kernel is
    /// launched with [`crate::gpu::Gpu::launch_sm90`].
    ///
    /// ```
    /// use kute_cuda::{gemm_sm90::{Sm90Epilogue, Sm90Gemm}, Elem};
    /// let g = Sm90Gemm::warp_specialized_with("nn", (256, 256, 128), Elem::F16, Elem::F32, (false, true)).unwrap();
    /// assert_eq!(g.atom, "Layout_MN_SW128");
    /// assert_eq!(g.tma_maps[0], (128, 256, 64, 64)); // A read as (K, M), 64 x 64 boxes
    /// assert!(g.source.contains(", 1, 1, 1, 1, 0;"));  // A transposed
    /// // any sizes: TMA clips C's edge tiles...
    /// let e = Sm90Gemm::warp_specialized_with("e", (200, 264, 72), Elem::F16, Elem::F32, (true, true)).unwrap();
    /// assert_eq!((e.blocks(), e.epilogue), ((2, 2), Sm90Epilogue::Tma));
    /// // ...and where C's rows are not whole 16-byte units, the stores are guarded by its coordinates
    /// let o = Sm90Gemm::warp_specialized_with("o", (128, 36, 64), Elem::F16, Elem::F16, (true, true)).unwrap();
    /// assert_eq!(o.epilogue, Sm90Epilogue::Direct);
    /// assert!(o.source.contains("o_c_ctile("));
    /// // but TMA reads rows of whole 16-byte units: K-major A needs K % 8 == 0
    /// assert!(Sm90Gemm::warp_specialized_with("x", (200, 264, 70), Elem::F16, Elem::F32, (true, true)).is_err());
    /// ```
    pub fn warp_specialized_with(
        name: &str,
        mnk: (i64, i64, i64),
        elem: Elem,
        c_elem: Elem,
        k_major: (bool, bool),
    ) -> Result<Sm90Gemm> {
        let epilogue = if mnk.1 * c_elem.bytes() % 16 == 0 { Sm90Epilogue::Tma } else { Sm90Epilogue::Direct };
        Sm90Gemm::warp_specialized_epilogue(name, mnk, elem, c_elem, k_major, epilogue)
    }

    /// As [`Sm90Gemm::warp_specialized_with`], storing `C` as `epilogue`
    /// says: [`Sm90Epilogue::Tma`] is the fast one (BENCHMARKS.md, "A
    /// TMA-store epilogue"); the direct stores remain for `C`s whose rows TMA
    /// cannot address.
    ///
    /// Pre: as `warp_specialized_with`; with [`Sm90Epilogue::Tma`], `N`
    /// times `C`'s element size a multiple of 16 (else an `Unsupported`
    /// error). Post: with `Tma`, a kernel `NAME(tma_a, tma_b, C, tma_c)`
    /// taking [`Sm90Gemm::c_map`]'s tensor map of `C` (and `C`, which it does
    /// not use), launched with [`crate::gpu::Gpu::launch_tma`]; with
    /// `Direct`, `NAME(tma_a, tma_b, C)`.
    ///
    /// ```
    /// use kute_cuda::{gemm_sm90::{Sm90Epilogue, Sm90Gemm}, Elem};
    /// let (f16, f32, tn) = (Elem::F16, Elem::F32, (true, true));
    /// let t = Sm90Gemm::warp_specialized_epilogue("t", (1024, 1024, 512), f16, f16, tn, Sm90Epilogue::Tma).unwrap();
    /// assert_eq!(t.c_map, Some((1024, 1024, 64, 64)));
    /// assert!(t.source.contains("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group"));
    /// // the 128-byte swizzle makes the accumulators' stores into the staging tile conflict-free
    /// assert!(t.c_stage_cost.iter().all(|w| w.is_conflict_free()));
    /// let d = Sm90Gemm::warp_specialized_epilogue("d", (1024, 1024, 512), f16, f16, tn, Sm90Epilogue::Direct).unwrap();
    /// assert_eq!((d.c_map, d.smem_bytes + 32 * 1024), (None, t.smem_bytes));
    /// // any sizes: TMA clips the boxes at C's edges (f32 C: 64 rows by 32 columns)...
    /// let e = Sm90Gemm::warp_specialized_epilogue("e", (200, 264, 72), f16, f32, tn, Sm90Epilogue::Tma).unwrap();
    /// assert_eq!(e.c_map, Some((200, 264, 64, 32)));
    /// // ...but needs C's rows in whole 16-byte units
    /// assert!(Sm90Gemm::warp_specialized_epilogue("o", (130, 17, 8), f16, f16, tn, Sm90Epilogue::Tma).is_err());
    /// ```
    pub fn warp_specialized_epilogue(
        name: &str,
        mnk: (i64, i64, i64),
        elem: Elem,
        c_elem: Elem,
        k_major: (bool, bool),
        epilogue: Sm90Epilogue,
    ) -> Result<Sm90Gemm> {
        if c_elem != Elem::F32 && c_elem != elem {
            return Err(Error::unsupported(OP, format!("a C of {c_elem} from {elem} inputs (f32 or {elem})")));
        }
        if epilogue == Sm90Epilogue::Tma && mnk.1 * c_elem.bytes() % 16 != 0 {
            return Err(Error::unsupported(
                OP,
                format!("a TMA store of C's rows of {} bytes (a multiple of 16)", mnk.1 * c_elem.bytes()),
            ));
        }
        Sm90Gemm::plan(name, mnk, elem, Sm90Loader::WarpSpecialized, c_elem, k_major, epilogue)
    }

    fn plan(
        name: &str,
        (m, n, k): (i64, i64, i64),
        elem: Elem,
        loader: Sm90Loader,
        c_elem: Elem,
        (a_k, b_k): (bool, bool),
        epilogue: Sm90Epilogue,
    ) -> Result<Sm90Gemm> {
        let tma = loader != Sm90Loader::CpAsync;
        let ws = loader == Sm90Loader::WarpSpecialized;
        if !(ws || a_k && b_k) {
            return Err(Error::unsupported(OP, "M- or N-major operands: only the warp-specialized kernel takes them"));
        }
        let (bm, bn, bk) = TILE;
        let (ty, op) = match elem {
            Elem::F16 => ("f16", format!("SM90_64x{bn}x16_F32F16F16_SS")),
            Elem::Bf16 => ("bf16", format!("SM90_64x{bn}x16_F32BF16BF16_SS")),
            Elem::F32 => return Err(Error::unsupported(OP, "f32 inputs: wgmma takes f16 or bf16 here")),
        };
        // the warp-specialized kernel takes any sizes: TMA fills what lies
        // outside the operands with zeros, and the edge tiles' stores are
        // guarded; TMA needs rows of a multiple of 16 bytes
        let multiple = m % bm == 0 && n % bn == 0 && k % bk == 0;
        if m < 1 || n < 1 || k < 1 || (!ws && !multiple) {
            return Err(Error::unsupported(
                OP,
                format!("({m},{n},{k}) is not a multiple of the tile ({bm},{bn},{bk})"),
            ));
        }
        check_rows(OP, (m, n, k), (a_k, b_k))?;
        let predicated = !multiple;
        // CuTe's 128-byte swizzle atoms for 16-bit elements (a swizzle of
        // byte addresses): GMMA::Layout_K_SW128_Atom tiled down the rows, or
        // Layout_MN_SW128_Atom (64 rows by 8 k) tiled along K first, so that
        // one 64-row slab is one TMA box
        let w = 128 / elem.bytes();
        let smem_of = |rows: i64, k_major: bool| -> Result<(AnyLayout, String)> {
            let expr = if k_major {
                format!("tile_to_shape(Sw<3,4,3> o _0 o (_8,_{w}):(_{w},_1), (_{rows},_{bk}))")
            } else {
                format!("tile_to_shape(Sw<3,4,3> o _0 o (_{w},_8):(_1,_{w}), (_{rows},_{bk}), (_2,_1))")
            };
            let l = swizzle_bytes_to_elements(&layout_of_any(&expr)?, elem.bytes())?;
            let sw = match &l {
                AnyLayout::Composed(c) => c.swizzle(),
                _ => None,
            }
            .ok_or_else(|| Error::unsupported(OP, format!("{l} is not swizzled")))?;
            let (shape, major, want) = if k_major {
                ((8, w), Major::Right, "Layout_K_SW128")
            } else {
                ((w, 8), Major::Left, "Layout_MN_SW128")
            };
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
        let desc = |l: &AnyLayout, rows: i64, k_major: bool| -> Result<(i64, i64, i64)> {
            let b = elem.bytes();
            let (lbo, sbo) =
                if k_major { (16, at(l, rows, 8, 0)? * b) } else { (at(l, rows, w, 0)? * b, at(l, rows, 0, 8)? * b) };
            Ok((lbo, sbo, at(l, rows, 0, 16)?))
        };
        let (a_desc, b_desc) = (desc(&smem, bm, a_k)?, desc(&smem_b, bn, b_k)?);
        let wg_offset = at(&smem, bm, 64, 0)?;
        let vec = 16 / elem.bytes();
        let (copy_tv, copy_b) = (copy_tv(THREADS, bm, bk, elem, true)?, copy_tv(THREADS, bn, bk, elem, true)?);
        let store_cost = block_bank_conflicts(&smem, elem.bytes(), &copy_tv)?;
        let (a, b) = (operand_layout(m, k, a_k)?, operand_layout(n, k, b_k)?);
        let c = layout_of(&format!("({m},{n}):({n},1)"))?;
        let za = layout_of(&format!("zipped_divide({a}, ({bm},{bk}))"))?;
        let zb = layout_of(&format!("zipped_divide({b}, ({bn},{bk}))"))?;
        let zc = layout_of(&format!("zipped_divide({c}, ({bm},{bn}))"))?;
        let c_atom = layout_of(&format!("MMA_Traits<{op}<GMMA::Major::K,GMMA::Major::K>>::CLayout{{}}"))?;
        // the two warpgroups' atoms over the (128,128) tile: (thread, value) -> tile coordinate
        let zt = layout_of(&format!("zipped_divide(make_layout(({bm},{bn})), (64,{bn}))"))?;
        let frag_c = layout_of(&format!("composition({}, {c_atom})", zt.mode(0)?))?;
        let rep_c = zt.mode(1)?;

        let mut s = String::new();
        header(&mut s, &format!("sm90 gemm TN C({m},{n}) {c_elem} = A({m},{k}) * B({n},{k})^T, {elem}, wgmma m64n{bn}k16, shared {smem} ({atom})"));
        for (l, f) in [
            (&za.mode(1)?, "a_tiles"),
            (&zb.mode(1)?, "b_tiles"),
            (&zc.mode(1)?, "c_tiles"),
            (&layout_of(&format!("composition({}, {copy_tv})", za.mode(0)?))?, "a_gcopy"),
            (&layout_of(&format!("composition({}, {copy_b})", zb.mode(0)?))?, "b_gcopy"),
            (&copy_tv, "a_scopy"),
            (&copy_b, "b_scopy"),
            (&frag_c, "c_frag"),
            (&rep_c, "c_rep"),
            (&zc.mode(0)?, "c_tile"),
        ] {
            plain_fn(&mut s, l, &format!("{name}_{f}"))?;
        }
        if tma {
            for (rows, br, f) in [(m, bm, "a_ctiles"), (n, bn, "b_ctiles")] {
                let id = layout_of(&format!("zipped_divide(make_identity_layout(({rows},{k})), ({br},{bk}))"))?;
                // both components, even where a tile grid has one tile along a mode
                let both = layout_of(&format!("make_layout({}, (_1,_1):(_1@0,_1@1))", id.mode(1)?))?;
                plain_fn(&mut s, &both, &format!("{name}_{f}"))?;
            }
        }
        let tma_store = epilogue == Sm90Epilogue::Tma;
        if predicated || tma_store {
            // the tiles' coordinates (the TMA store's box coordinates), and
            // for guarded stores every element's
            let id = layout_of(&format!("zipped_divide(make_identity_layout(({m},{n})), ({bm},{bn}))"))?;
            for (l, f) in [(id.mode(1)?, "c_ctiles"), (id.mode(0)?, "c_ctile")] {
                if f == "c_ctile" && tma_store {
                    continue;
                }
                let both = layout_of(&format!("make_layout({l}, (_1,_1):(_1@0,_1@1))"))?;
                plain_fn(&mut s, &both, &format!("{name}_{f}"))?;
            }
        }
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
            let l = swizzle_bytes_to_elements(
                &layout_of_any(&format!(
                    "Sw<3,4,3> o _0 o ((_64,_2),(_{box_cols},_{boxes})):((_{box_cols},_0),(_1,_0))"
                ))?,
                cb,
            )?;
            let cost = block_bank_conflicts(&l, cb, &frag_c)?;
            layout_fn(&mut s, &l, &format!("{name}_c_stage"))?;
            (Some(l), cost)
        } else {
            (None, Vec::new())
        };
        layout_fn(&mut s, &smem, &format!("{name}_sa"))?;
        layout_fn(&mut s, &smem_b, &format!("{name}_sb"))?;
        let (a_elems, b_elems) = (bm * bk, bn * bk);
        let acc = bn / 2; // m64nN: N/2 f32 accumulators per thread
        let outs: Vec<String> = (0..acc).map(|r| format!("\"+f\"(d[{r}])")).collect();
        let regs: Vec<String> = (0..acc).map(|r| format!("%{r}")).collect();
        let cp_load = format!(
            r#"  auto load = [&](long long kt, int stage) {{
    const unsigned short* ga = A + {name}_a_tiles(bm + {tm}LL * kt);
    const unsigned short* gb = B + {name}_b_tiles(bn + {tn}LL * kt);
#pragma unroll
    for (int p = 0; p < {pa}; ++p) {{
      const long long i = t + {tvv}LL * p;
      kute_cp_async16(sa + stage * {a_elems} + {name}_sa({name}_a_scopy(i)), ga + {name}_a_gcopy(i));
    }}
#pragma unroll
    for (int p = 0; p < {pb}; ++p) {{
      const long long i = t + {tvv}LL * p;
      kute_cp_async16(sb + stage * {b_elems} + {name}_sb({name}_b_scopy(i)), gb + {name}_b_gcopy(i));
    }}
  }};
"#,
            tm = m / bm,
            tn = n / bn,
            pa = bm * bk / (THREADS * vec),
            pb = bn * bk / (THREADS * vec),
            tvv = THREADS * vec,
        );
        // TMA: one thread arms the stage's mbarrier with the tile's bytes and
        // issues both bulk copies at the tiles' coordinates (innermost, K,
        // first), read off identity layouts divided by the tile
        let tma_load = format!(
            r#"  __shared__ alignas(8) unsigned long long full[{STAGES}];
  if (t == 0) {{
    for (int s = 0; s < {STAGES}; ++s) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(kute_bar(&full[s])));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }}
  __syncthreads();
  auto load = [&](long long kt, int stage) {{
    if (t != 0) return;
    const unsigned int bar = kute_bar(&full[stage]);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"({tile_bytes}) : "memory");
    const auto ca = {name}_a_ctiles(bm + {tm}LL * kt);
    const auto cb = {name}_b_ctiles(bn + {tn}LL * kt);
    {copy_a}
    {copy_b}
  }};
"#,
            copy_a = tma_copy("a", &format!("stage * {a_elems}"), "ca.c[1]", "ca.c[0]"),
            copy_b = tma_copy("b", &format!("stage * {b_elems}"), "cb.c[1]", "cb.c[0]"),
            tm = m / bm,
            tn = n / bn,
            tile_bytes = (a_elems + b_elems) * elem.bytes(),
        );
        let (tma_decl, params, load_fn, commit, wait_tile) = if tma {
            (
                TMA_HELPERS.to_string(),
                "const __grid_constant__ kute_tmap tma_a, const __grid_constant__ kute_tmap tma_b".to_string(),
                tma_load,
                String::new(),
                format!("kute_wait(kute_bar(&full[kt % {STAGES}]), (unsigned int)((kt / {STAGES}) & 1));"),
            )
        } else {
            (
                String::new(),
                "const unsigned short* __restrict__ A, const unsigned short* __restrict__ B".to_string(),
                cp_load,
                "asm volatile(\"cp.async.commit_group;\" ::: \"memory\");".to_string(),
                format!("asm volatile(\"cp.async.wait_group {};\" ::: \"memory\");\n    asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\");", STAGES - 3),
            )
        };
        s.push_str(&format!(
            r#"__device__ __forceinline__ void kute_cp_async16(void* smem, const void* gmem) {{
  unsigned int s = (unsigned int)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(s), "l"(gmem) : "memory");
}}
// wgmma shared-memory descriptors: start address, leading byte offset,
// stride byte offset (in 16-byte units), swizzle mode 1 (128 bytes)
__device__ __forceinline__ unsigned long long kute_desc_a(const void* p) {{
  unsigned long long a = (unsigned long long)((unsigned int)__cvta_generic_to_shared(p) & 0x3FFFF) >> 4;
  return a | ((unsigned long long)({a_lbo} >> 4) << 16) | ((unsigned long long)({a_sbo} >> 4) << 32) | (1ULL << 62);
}}
__device__ __forceinline__ unsigned long long kute_desc_b(const void* p) {{
  unsigned long long a = (unsigned long long)((unsigned int)__cvta_generic_to_shared(p) & 0x3FFFF) >> 4;
  return a | ((unsigned long long)({b_lbo} >> 4) << 16) | ((unsigned long long)({b_sbo} >> 4) << 32) | (1ULL << 62);
}}
// A and B transposed (imm-trans) where they are M- or N-major
__device__ __forceinline__ void kute_wgmma(float (&d)[{acc}], unsigned long long da, unsigned long long db) {{
  asm volatile("wgmma.mma_async.sync.aligned.m64n{bn}k16.f32.{ty}.{ty} {{{regs}}}, %{ia}, %{ib}, 1, 1, 1, {ta}, {tb};"
               : {outs}
               : "l"(da), "l"(db));
}}
"#,
            a_lbo = a_desc.0,
            a_sbo = a_desc.1,
            b_lbo = b_desc.0,
            b_sbo = b_desc.1,
            ta = u8::from(!a_k),
            tb = u8::from(!b_k),
            regs = regs.join(","),
            outs = outs.join(", "),
            ia = acc,
            ib = acc + 1,
        ));
        let (tm, tn) = (ceil_div(m, bm), ceil_div(n, bn));
        if loader == Sm90Loader::WarpSpecialized {
            let operands = [(bm, a_k, a_desc.2, wg_offset), (bn, b_k, b_desc.2, 0)];
            s.push_str(&warp_specialized_kernel(
                name,
                &tma_decl,
                (tm, tn, ceil_div(k, bk)),
                (a_elems, b_elems),
                (elem, c_elem),
                operands,
                predicated.then_some((m, n)),
                tma_store.then_some((box_cols, boxes)),
            ));
        } else {
            s.push_str(&format!(
                r#"{tma_decl}extern "C" __global__ void __launch_bounds__({THREADS}) {name}({params}, float* __restrict__ C) {{
  extern __shared__ unsigned char smem_raw[];
  // 1024-byte aligned, as the 128-byte swizzle needs
  unsigned short* sm = reinterpret_cast<unsigned short*>((reinterpret_cast<unsigned long long>(smem_raw) + 1023ULL) & ~1023ULL);
  unsigned short* sa = sm;
  unsigned short* sb = sm + {STAGES} * {a_elems};
  const long long t = threadIdx.x;
  const long long wg = t / 128;
  const long long bm = blockIdx.x, bn = blockIdx.y;
  float d[{acc}];
#pragma unroll
  for (int r = 0; r < {acc}; ++r) d[r] = 0.f;
  const long long ktiles = {ktiles};
{load_fn}#pragma unroll
  for (int s = 0; s < {STAGES} - 2; ++s) {{
    if (s < ktiles) load(s, s);
    {commit}
  }}
  for (long long kt = 0; kt < ktiles; ++kt) {{
    // tile kt has landed; every thread's wgmma of tile kt-2 has finished
    {wait_tile}
    __syncthreads();
    // refill the stage of tile kt-2
    const long long next = kt + {STAGES} - 2;
    if (next < ktiles) load(next, (int)(next % {STAGES}));
    {commit}
    const unsigned short* sas = sa + (kt % {STAGES}) * {a_elems} + wg * {wg_rows};
    const unsigned short* sbs = sb + (kt % {STAGES}) * {b_elems};
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int ks = 0; ks < {ksteps}; ++ks) kute_wgmma(d, kute_desc_a(sas + 16 * ks), kute_desc_b(sbs + 16 * ks));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    // keep one tile's wgmma in flight
    asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
  }}
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  float* gc = C + {name}_c_tiles(bm + {tm}LL * bn);
#pragma unroll
  for (int r = 0; r < {acc}; r += 2) {{
    const long long at = {name}_c_tile({name}_c_frag(t % 128 + 128LL * r) + {name}_c_rep(wg));
    asm volatile("st.global.v2.f32 [%0], {{%1, %2}};" :: "l"(gc + at), "f"(d[r]), "f"(d[r + 1]) : "memory");
  }}
}}
"#,
                ktiles = k / bk,
                wg_rows = 64 * bk,
                ksteps = bk / 16,
            ));
        }
        Ok(Sm90Gemm {
            name: name.to_string(),
            elem,
            mnk: (m, n, k),
            smem,
            smem_b,
            atom,
            store_cost,
            smem_bytes: (STAGES * (a_elems + b_elems) * elem.bytes() + if tma_store { C_STAGE_BYTES } else { 0 } + 1024)
                as u32,
            loader,
            threads: if ws { 3 * 128 } else { THREADS as u32 },
            c_elem,
            tma_maps: [(m, bm, a_k), (n, bn, b_k)].map(|(rows, box_rows, k_major)| {
                if k_major {
                    (rows as u64, k as u64, box_rows as u32, bk as u32)
                } else {
                    (k as u64, rows as u64, bk as u32, w as u32)
                }
            }),
            k_major: (a_k, b_k),
            epilogue,
            c_map: tma_store.then_some((m as u64, n as u64, 64, box_cols as u32)),
            c_stage,
            c_stage_cost,
            source: s,
        })
    }

    /// The grid, `(ceil(M/128), ceil(N/256))`.
    ///
    /// Pre: none. Post: the number of block tiles along M and N.
    ///
    /// ```
    /// use kute_cuda::{gemm_sm90::Sm90Gemm, Elem};
    /// let g = Sm90Gemm::new("h", (384, 512, 64), Elem::F16).unwrap();
    /// assert_eq!(g.blocks(), (3, 2)); // (384 / 128, 512 / 256)
    /// let e = Sm90Gemm::warp_specialized_with("e", (300, 600, 64), Elem::F16, Elem::F32, (true, true)).unwrap();
    /// assert_eq!(e.blocks(), (3, 3)); // (ceil(300 / 128), ceil(600 / 256))
    /// ```
    pub fn blocks(&self) -> (u32, u32) {
        let (m, n, _) = self.mnk;
        (ceil_div(m, TILE.0) as u32, ceil_div(n, TILE.1) as u32)
    }

    /// The grid to launch on a GPU of `sms` multiprocessors: [`blocks`](Self::blocks),
    /// or for the persistent kernel one block per multiprocessor (at most one
    /// per tile).
    ///
    /// Pre: `sms >= 1`. Post: the grid's `(x, y)`.
    ///
    /// ```
    /// use kute_cuda::{gemm_sm90::Sm90Gemm, Elem};
    /// let h = Sm90Gemm::new("h", (384, 512, 64), Elem::F16).unwrap();
    /// assert_eq!(h.grid(132), (3, 2)); // a block per tile
    /// let w = Sm90Gemm::warp_specialized("w", (2048, 2048, 64), Elem::F16, Elem::F32).unwrap();
    /// // 16 · 8 = 128 tiles: a block per multiprocessor, at most one per tile
    /// assert_eq!((w.grid(132), w.grid(100)), ((128, 1), (100, 1)));
    /// ```
    pub fn grid(&self, sms: u32) -> (u32, u32) {
        let (x, y) = self.blocks();
        match self.loader {
            Sm90Loader::WarpSpecialized => ((x * y).min(sms.max(1)), 1),
            _ => (x, y),
        }
    }
}

/// The warp-specialized persistent kernel (see the [module docs](self)):
/// `tiles = (TM, TN, KT)` block tiles along M and N and k-tiles, `elems` the
/// elements of one stage of A and of B. The layout functions, `kute_desc_a`,
/// `kute_desc_b` and `kute_wgmma` are already in the source, and `tma_decl`
/// holds [`TMA_HELPERS`]. `edges`: `(M, N)` where the sizes are not
/// multiples of the tile; `tma_store`: `(box columns, boxes per row of the
/// tile)` for [`Sm90Epilogue::Tma`] (`NAME_c_stage` is in the source).
#[allow(clippy::too_many_arguments)]
fn warp_specialized_kernel(
    name: &str,
    tma_decl: &str,
    (tm, tn, ktiles): (i64, i64, i64),
    (a_elems, b_elems): (i64, i64),
    (elem, c_elem): (Elem, Elem),
    operands: [(i64, bool, i64, i64); 2],
    edges: Option<(i64, i64)>,
    tma_store: Option<(i64, i64)>,
) -> String {
    let bytes = elem.bytes();
    // per operand: (tile rows, K-major, the k step's offset, the second
    // warpgroup's offset), offsets in elements
    let [(_, _, a_kstep, a_wg), (_, _, b_kstep, _)] = operands;
    // one TMA box per K-major tile, one per 64-row slab of an MN-major one
    let w = 128 / bytes;
    let mut copies = String::new();
    for (x, elems, (rows, k_major, _, _)) in [("a", a_elems, operands[0]), ("b", b_elems, operands[1])] {
        for j in 0..if k_major { 1 } else { rows / w } {
            let (inner, outer) = if k_major {
                (format!("c{x}.c[1]"), format!("c{x}.c[0]"))
            } else {
                (format!("c{x}.c[0] + {}", j * w), format!("c{x}.c[1]"))
            };
            let offset = format!("stage * {elems} + {}", j * w * TILE.2);
            copies.push_str(&format!("        {}\n", tma_copy(x, &offset, &inner, &outer)));
        }
    }
    // the 16-bit C's conversion (cvt.rn.f16 / cvt.rn.bf16)
    let cvt = if c_elem == Elem::Bf16 { "bf16" } else { "f16" };
    // one element at a time, for the edge tiles
    let store_one = match c_elem {
        Elem::F32 => "gc[at + e] = d[r + e];".to_string(),
        _ => format!(
            r#"{{ unsigned short h; asm("cvt.rn.{cvt}.f32 %0, %1;" : "=h"(h) : "f"(d[r + e])); gc[at + e] = h; }}"#
        ),
    };
    let (c_type, store) = match c_elem {
        Elem::F32 => (
            "float",
            r#"asm volatile("st.global.v2.f32 [%0], {%1, %2};" :: "l"(gc + at), "f"(d[r]), "f"(d[r + 1]) : "memory");"#
                .to_string(),
        ),
        _ => (
            "unsigned short",
            // d[r] to the low half: the lower address
            format!(
                r#"unsigned int h; asm("cvt.rn.{cvt}x2.f32 %0, %1, %2;" : "=r"(h) : "f"(d[r + 1]), "f"(d[r]));
      asm volatile("st.global.b32 [%0], %1;" :: "l"(gc + at), "r"(h) : "memory");"#
            ),
        ),
    };
    let (bn, bk) = (TILE.1, TILE.2);
    let acc = bn / 2;
    // tiles are numbered in groups of `group` M-tiles, N fastest within a
    // group: the blocks at work together share A's and B's tiles in L2
    let group = [8, 4, 2, 1].into_iter().find(|g| tm % g == 0).unwrap_or(1);
    let consumer_warps = 8;
    let fast = format!(
        r#"    {c_type}* gc = C + {name}_c_tiles(bm + {tm}LL * bn);
#pragma unroll
    for (int r = 0; r < {acc}; r += 2) {{
      const long long at = {name}_c_tile({name}_c_frag(ct % 128 + 128LL * r) + {name}_c_rep(cw));
      {store}
    }}
"#
    );
    let direct = match edges {
        None => fast,
        Some((m, n)) => {
            // a value pair is two adjacent columns; paired stores need
            // rows of an even length
            let pair = if n % 2 == 0 {
                format!("if (col + 1 < {n}LL) {{ {store} }} else if (col < {n}LL) {{ const int e = 0; {store_one} }}")
            } else {
                format!(
                    "if (col < {n}LL) {{ const int e = 0; {store_one} }}\n        if (col + 1 < {n}LL) {{ const int e = 1; {store_one} }}"
                )
            };
            format!(
                r#"    {c_type}* gc = C + {name}_c_tiles(bm + {tm}LL * bn);
    const auto cc = {name}_c_ctiles(bm + {tm}LL * bn);
#pragma unroll
    for (int r = 0; r < {acc}; r += 2) {{
      const long long x = {name}_c_frag(ct % 128 + 128LL * r) + {name}_c_rep(cw);
      const auto in = {name}_c_ctile(x);
      const long long at = {name}_c_tile(x);
      const long long row = cc.c[0] + in.c[0], col = cc.c[1] + in.c[1];
      if (row < {m}LL) {{
        {pair}
      }}
    }}
"#
            )
        }
    };
    let (c_param, epilogue, drain) = match tma_store {
        None => (String::new(), direct, String::new()),
        Some((box_cols, boxes)) => {
            let box_bytes = 64 * 128;
            // one thread and a named barrier (1 + cw) per consumer warpgroup
            let per = acc / boxes; // accumulators of one box per thread
            let stage_store = match c_elem {
                Elem::F32 => r#"asm volatile("st.shared.v2.f32 [%0], {%1, %2};" :: "r"(sbuf + (unsigned int)at * 4u), "f"(d[r]), "f"(d[r + 1]) : "memory");"#.to_string(),
                _ => format!(
                    r#"unsigned int h; asm("cvt.rn.{cvt}x2.f32 %0, %1, %2;" : "=r"(h) : "f"(d[r + 1]), "f"(d[r]));
        asm volatile("st.shared.b32 [%0], %1;" :: "r"(sbuf + (unsigned int)at * 2u), "r"(h) : "memory");"#
                ),
            };
            // boxes entirely outside C (edge tiles) are not stored, but their
            // (empty) bulk groups are committed all the same, so that the
            // groups still count boxes
            let inside = match edges {
                None => String::new(),
                Some((m, n)) => format!(" && row0 < {m} && col0 + {box_cols} * j < {n}"),
            };
            (
                ", const __grid_constant__ kute_tmap tma_c".to_string(),
                format!(
                    r#"    // C by TMA: box j (64 rows by 128 bytes) of this warpgroup's rows through
    // buffer j % 2; the TMA engine drains it while the warpgroup fills the
    // other one and, after the last box, multiplies the next tile
    const auto cc = {name}_c_ctiles(bm + {tm}LL * bn);
    const int row0 = (int)cc.c[0] + 64 * (int)cw, col0 = (int)cc.c[1];
#pragma unroll
    for (int j = 0; j < {boxes}; ++j) {{
      const unsigned int sbuf = sc + (unsigned int)(cw * {wg_bytes} + (j % 2) * {box_bytes});
      // the box stored from this buffer two boxes ago has been read
      if (ct % 128 == 0) asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
      asm volatile("bar.sync %0, 128;" :: "r"(1 + (int)cw) : "memory");
#pragma unroll
      for (int r = {per} * j; r < {per} * (j + 1); r += 2) {{
        const long long at = {name}_c_stage({name}_c_frag(ct % 128 + 128LL * r));
        {stage_store}
      }}
      // the writes, made visible to the async proxy, are all in
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      asm volatile("bar.sync %0, 128;" :: "r"(1 + (int)cw) : "memory");
      if (ct % 128 == 0) {{
        if (true{inside})
          asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {{%1, %2}}], [%3];"
                       :: "l"(&tma_c), "r"(col0 + {box_cols} * j), "r"(row0), "r"(sbuf) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      }}
    }}
"#,
                    wg_bytes = 2 * box_bytes,
                ),
                // the last boxes have left shared memory and reached C
                r#"  if (ct % 128 == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
"#
                .to_string(),
            )
        }
    };
    format!(
        r#"{tma_decl}extern "C" __global__ void __launch_bounds__(384, 1) {name}(const __grid_constant__ kute_tmap tma_a, const __grid_constant__ kute_tmap tma_b, {c_type}* __restrict__ C{c_param}) {{
  extern __shared__ unsigned char smem_raw[];
  // 1024-byte aligned, as the 128-byte swizzle needs
  unsigned short* sm = reinterpret_cast<unsigned short*>((reinterpret_cast<unsigned long long>(smem_raw) + 1023ULL) & ~1023ULL);
  unsigned short* sa = sm;
  unsigned short* sb = sm + {STAGES} * {a_elems};
  // C's staging buffers (TMA store), after the stages
  const unsigned int sc = (unsigned int)__cvta_generic_to_shared(sm + {STAGES} * ({a_elems} + {b_elems}));
  // full: the stage's bytes have landed; empty: both consumers are done with it
  __shared__ alignas(8) unsigned long long full[{STAGES}], empty[{STAGES}];
  const int t = threadIdx.x;
  const int wg = t / 128;
  if (t == 0) {{
    for (int s = 0; s < {STAGES}; ++s) {{
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(kute_bar(&full[s])));
      asm volatile("mbarrier.init.shared::cta.b64 [%0], {consumer_warps};" :: "r"(kute_bar(&empty[s])));
    }}
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }}
  __syncthreads();
  const long long tiles = {tiles};
  if (wg == 0) {{
    // the producer: few registers, one thread issuing every copy
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    if (t != 0) return;
    long long it = 0;
    for (long long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {{
      const long long g = tile / {group_tiles}, w = tile % {group_tiles};
      const long long bm = g * {group} + w % {group}, bn = w / {group};
      for (long long kt = 0; kt < {ktiles}; ++kt, ++it) {{
        const int stage = (int)(it % {STAGES});
        // the consumers released this stage's previous round
        if (it >= {STAGES}) kute_wait(kute_bar(&empty[stage]), (unsigned int)(((it / {STAGES}) + 1) & 1));
        const unsigned int bar = kute_bar(&full[stage]);
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"({tile_bytes}) : "memory");
        const auto ca = {name}_a_ctiles(bm + {tm}LL * kt);
        const auto cb = {name}_b_ctiles(bn + {tn}LL * kt);
{copies}      }}
    }}
    return;
  }}
  // the consumers: warpgroup cw multiplies rows 64 cw .. 64 cw + 63 of each tile
  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
  const long long ct = t - 128;
  const long long cw = ct / 128;
  long long it = 0;
  for (long long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {{
    const long long g = tile / {group_tiles}, w = tile % {group_tiles};
    const long long bm = g * {group} + w % {group}, bn = w / {group};
    float d[{acc}];
#pragma unroll
    for (int r = 0; r < {acc}; ++r) d[r] = 0.f;
    for (long long kt = 0; kt < {ktiles}; ++kt, ++it) {{
      const int stage = (int)(it % {STAGES});
      kute_wait(kute_bar(&full[stage]), (unsigned int)((it / {STAGES}) & 1));
      const unsigned short* sas = sa + stage * {a_elems} + cw * {a_wg};
      const unsigned short* sbs = sb + stage * {b_elems};
      asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
      for (int ks = 0; ks < {ksteps}; ++ks) kute_wgmma(d, kute_desc_a(sas + {a_kstep} * ks), kute_desc_b(sbs + {b_kstep} * ks));
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
      // the previous k-tile's wgmma have finished: release its stage
      asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
      if (kt > 0 && ct % 32 == 0) kute_arrive(kute_bar(&empty[(it - 1) % {STAGES}]));
    }}
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    if (ct % 32 == 0) kute_arrive(kute_bar(&empty[(it - 1) % {STAGES}]));
{epilogue}  }}
{drain}}}
"#,
        tiles = tm * tn,
        group_tiles = group * tn,
        tile_bytes = (a_elems + b_elems) * bytes,
        ksteps = bk / 16,
    )
}

/// The tensor-map type and the mbarrier helpers of every TMA kernel.
const TMA_HELPERS: &str = r#"struct alignas(64) kute_tmap { unsigned long long v[16]; };
__device__ __forceinline__ unsigned int kute_bar(const unsigned long long* b) {
  return (unsigned int)__cvta_generic_to_shared(b);
}
// wait until the barrier's phase of this parity has completed
__device__ __forceinline__ void kute_wait(unsigned int bar, unsigned int phase) {
  asm volatile("{\n.reg .pred p;\nWAIT:\nmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n@!p bra WAIT;\n}" :: "r"(bar), "r"(phase) : "memory");
}
__device__ __forceinline__ void kute_arrive(unsigned int bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}
"#;

/// One TMA bulk copy of operand `x` (`a` or `b`) into `s{x} + offset`, at the
/// tensor-map coordinate `(inner, outer)`, completing on the mbarrier `bar`.
fn tma_copy(x: &str, offset: &str, inner: &str, outer: &str) -> String {
    format!(
        r#"asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {{%2, %3}}], [%4];"
                     :: "r"((unsigned int)__cvta_generic_to_shared(s{x} + {offset})), "l"(&tma_{x}), "r"((int)({inner})), "r"((int)({outer})), "r"(bar) : "memory");"#
    )
}

fn layout_of_any(expr: &str) -> Result<AnyLayout> {
    Ok(kute::expr::eval(expr)?.to_any_layout("kernel plan")?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kute::Int;

    /// Every accumulator of the TMA-store epilogue lands where the TMA
    /// store's 128-byte swizzle reads its tile coordinate: box `v / per` (the
    /// values of box `j` are `per·j ..`), row `row % 64`, and the 16-byte
    /// chunk of the row XORed with the row's low three bits. And a plain
    /// (unswizzled) box would cost 8 wavefronts per store of 16-bit pairs
    /// (the swizzled one 1; 2 per half-warp's f32 pairs, twice the ideal).
    #[test]
    fn tma_store_staging_matches_the_tma_swizzle() {
        for (elem, c_elem) in [(Elem::F16, Elem::F16), (Elem::Bf16, Elem::Bf16), (Elem::F16, Elem::F32)] {
            let g =
                Sm90Gemm::warp_specialized_epilogue("t", (256, 512, 64), elem, c_elem, (true, true), Sm90Epilogue::Tma)
                    .unwrap();
            assert_eq!(g.epilogue, Sm90Epilogue::Tma);
            let stage = g.c_stage.as_ref().unwrap();
            let cb = c_elem.bytes();
            let w = 128 / cb;
            let per = 128 / (TILE.1 / w);
            let atom =
                layout_of("MMA_Traits<SM90_64x256x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>>::CLayout{}").unwrap();
            let zt = layout_of("zipped_divide(make_layout((128,256)), (64,256))").unwrap();
            let frag = layout_of(&format!("composition({}, {atom})", zt.mode(0).unwrap())).unwrap();
            for t in 0..128 {
                for v in 0..128 {
                    let x = frag.eval(t + 128 * v).unwrap();
                    let (row, col) = (x % 128, x / 128);
                    assert!(row < 64);
                    assert_eq!(col / w, v / per);
                    let byte = (row * w + col % w) * cb;
                    let tma = byte ^ (((byte >> 7) & 7) << 4);
                    assert_eq!(stage.eval_int(Int::new_dynamic(x)).unwrap().value() * cb, tma);
                }
            }
            // f32 pairs: a half-warp's four rows take chunks {0,1} ^ row, two of them the same pair
            let degree = if cb == 2 { 1.0 } else { 2.0 };
            assert!(g.c_stage_cost.iter().all(|r| r.degree() == degree), "{c_elem}");
            if cb == 2 {
                let plain = layout_of_any(&format!("((_64,_2),(_{w},_4)):((_{w},_0),(_1,_0))")).unwrap();
                let cost = block_bank_conflicts(&plain, cb, &frag).unwrap();
                assert!(cost.iter().all(|r| r.degree() == 8.0));
            }
        }
    }
}
