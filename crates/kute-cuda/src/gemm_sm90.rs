//! A Hopper GEMM (SM90 `wgmma`), every index from kute's layouts.
//!
//! `C = A · Bᵀ`, f16 or bf16 inputs (and, in the warp-specialized kernel,
//! e4m3 or e5m2: [`tile`]'s k-tile is 128 bytes of either), f32
//! accumulation and a row-major `C` (f32, or 16-bit from the
//! warp-specialized kernel); the first two kernels take both operands
//! K-major (BLAS's "TN") and `M` a multiple of 128, `N` of 256, `K` of 64.
//! Two warpgroups (256 threads) per block, each computing 64 rows of the
//! 128 x 256 block tile with `wgmma.mma_async.m64n256k16` (the
//! warp-specialized kernel also tiles 128 x 128 and 128 x 64:
//! [`Sm90Config::bn`], [`tile_n_heuristic`]).
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
//!
//! Every constructor is [`Sm90Gemm::with_config`] with its [`Sm90Config`]:
//! the plan is the crate's `plan::gemm_sm90`, the text `emit::gemm_sm90`
//! (with the `wgmma`, TMA, mbarrier and `cp.async` wrappers of its device
//! headers).

use crate::plan::ceil_div;
use crate::{emit, plan, Elem, Result};
use kute::analysis::BankReport;
use kute::{AnyLayout, Int};

/// Threads per block: two warpgroups (three, a producer and two consumers,
/// in the warp-specialized kernel: [`Sm90Gemm::threads`]).
pub const THREADS: i64 = 256;
/// The block tile `(BM, BN, BK)` of 16-bit inputs ([`tile`] of each type).
pub const TILE: (i64, i64, i64) = tile(Elem::F16);

/// The block tile `(BM, BN, BK)` of inputs of `elem`: 128 x 256, and a
/// k-tile of 128 bytes per row (64 16-bit or 128 8-bit elements), one row
/// of the 128-byte swizzle atom.
///
/// Pre: none. Post: `BK · bytes = 128`.
///
/// ```
/// use kute_cuda::{gemm_sm90::tile, Elem};
/// assert_eq!(tile(Elem::Bf16), (128, 256, 64));
/// assert_eq!(tile(Elem::E4m3), (128, 256, 128));
/// ```
pub const fn tile(elem: Elem) -> (i64, i64, i64) {
    (128, 256, 128 / elem.bytes())
}

/// The blocks of a cluster ([`Sm90Config::cluster`]) for a problem of
/// `m` rows whose operands' rows (TMA's lines of A and of B, their leading
/// dimensions) are `row_bytes` apart: 2 where a row of A or B does not
/// start on a 32-byte sector and the M-tiles pair up (even, or at least 8
/// of them, so that the last pair's missing half costs little); else 1.
/// Measured (H200, f16 and bf16): rows off the sectors slow each block's
/// TMA loads (6000x3000x1000, rows of 2000 bytes: 0.079 ms, against 0.061
/// with K = 1024), and halving B's loads by multicast brings it to
/// 0.063; on the sector-aligned shapes clusters of 2 won nothing
/// measurable (within the runs' spread, ±8% on the largest).
///
/// Pre: none. Post: 1 or 2.
///
/// ```
/// use kute_cuda::gemm_sm90::cluster_heuristic;
/// assert_eq!(cluster_heuristic(6000, (2000, 2000)), 2);
/// assert_eq!(cluster_heuristic(4096, (8192, 8192)), 1); // whole sectors
/// assert_eq!(cluster_heuristic(300, (2000, 2000)), 1); // 3 M-tiles: a third of a pair idle
/// ```
pub fn cluster_heuristic(m: i64, row_bytes: (i64, i64)) -> i64 {
    let tm = ceil_div(m, TILE.0);
    let off_sectors = row_bytes.0 % 32 != 0 || row_bytes.1 % 32 != 0;
    if off_sectors && tm >= 2 && (tm % 2 == 0 || tm >= 8) {
        2
    } else {
        1
    }
}

/// The block tile's width (one of [`TILE_NS`]) for `(M, N, K)` in a
/// batch of `batch` on a GPU of `sms` multiprocessors: the width whose
/// tiles fill the multiprocessors' waves best, a narrower tile counting
/// for less: its `wgmma`s do less work per byte loaded. The weights are
/// measured (H200, f16, 4000³, where every width fills its waves alike):
/// the 128-wide tile runs at 0.78 and the 64-wide one at 0.48 of the
/// 256-wide tile's rate; the 192-wide one's is [`WIDTH_192_RATE`].
///
/// Pre: none. Post: one of [`TILE_NS`].
///
/// ```
/// use kute_cuda::gemm_sm90::tile_n_heuristic;
/// assert_eq!(tile_n_heuristic((4096, 4096, 4096), 1, 132), 256); // 512 tiles
/// assert_eq!(tile_n_heuristic((128, 8192, 8192), 1, 132), 64); // 128 tiles of 64, 32 of 256
/// assert_eq!(tile_n_heuristic((256, 8192, 8192), 1, 132), 128); // 128 tiles of 128
/// assert_eq!(tile_n_heuristic((6000, 3000, 1000), 1, 132), 256); // 564 tiles
/// ```
pub fn tile_n_heuristic((m, n, _k): (i64, i64, i64), batch: i64, sms: u32) -> i64 {
    let sms = i64::from(sms.max(1));
    let score = |bn: i64| {
        let tiles = ceil_div(m.max(1), TILE.0) * ceil_div(n.max(1), bn) * batch.max(1);
        let waves = ceil_div(tiles, sms);
        let fill = tiles as f64 / (waves * sms) as f64;
        let work = match bn {
            256 => 1.0,
            192 => WIDTH_192_RATE,
            128 => 0.78,
            _ => 0.48,
        };
        fill * work
    };
    // the widest of the best (ties to the wider tile)
    TILE_NS
        .into_iter()
        .fold((256, -1.0), |(best, s), bn| if score(bn) > s + 1e-9 { (bn, score(bn)) } else { (best, s) })
        .0
}

/// [`Sm90Problem::split_heuristic`]'s rule on `tiles` block tiles of
/// `ktiles` k-tiles each, on `sms` multiprocessors.
///
/// Pre: none. Post: the splits, 1 to 16.
///
/// ```
/// use kute_cuda::gemm_sm90::splits_for;
/// assert_eq!(splits_for(32, 128, 132), 4);
/// assert_eq!(splits_for(64, 128, 132), 1);
/// ```
pub fn splits_for(tiles: i64, ktiles: i64, sms: u32) -> i64 {
    if 4 * tiles > i64::from(sms) {
        return 1;
    }
    (i64::from(sms) / tiles.max(1)).min(ktiles / 4).clamp(1, 16)
}

/// Elements of K per `wgmma` instruction for inputs of `elem`: 32 bytes
/// (16 of a 16-bit type, 32 of an 8-bit one).
pub(crate) fn wgmma_k(elem: Elem) -> i64 {
    32 / elem.bytes()
}
/// k-tiles in flight with the 128 x 256 tile (narrower tiles keep more:
/// as many as fit, up to [`MAX_STAGES`]).
pub const STAGES: i64 = 4;
/// The most k-tiles in flight of a narrow tile.
pub const MAX_STAGES: i64 = 8;
/// Bytes of dynamic shared memory a Hopper block may take (227 KiB).
pub const SMEM_LIMIT: i64 = 227 * 1024;
/// The weight of the 192-wide tile's rate against the 256-wide one's in
/// [`tile_n_heuristic`]: measured 0.99 at 8192³ (H200, f16), where both
/// fill their waves, but 0.97 on 6000x3000x1000, where the 192-wide tile's
/// fuller last wave (95% against 85%) does not make up for it; 0.88 keeps
/// the heuristic off it there (`kute-cuda tune` still times it).
pub const WIDTH_192_RATE: f64 = 0.88;
/// The block tile widths (`BN`) of the warp-specialized kernel: the `wgmma`
/// is m64nBNk16 (or k32).
pub const TILE_NS: [i64; 4] = [256, 192, 128, 64];
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
    /// The block tile `(BM, BN, BK)`.
    pub tile: (i64, i64, i64),
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sm90Loader {
    /// Every thread copies with `cp.async`; a block per tile.
    CpAsync,
    /// One consumer thread issues TMA copies; a block per tile.
    Tma,
    /// A producer warpgroup issues TMA copies for two consumer warpgroups,
    /// under full/empty mbarriers; one persistent block per multiprocessor.
    WarpSpecialized,
}

/// The choices of an [`Sm90Gemm`]: the block tile is 128 rows by `bn`
/// columns (256 by default, the only width outside the warp-specialized
/// kernel; 128 or 64 there, for problems of few tiles), the `wgmma`
/// m64n`bn` on two warpgroups; the stages are as many as fill Hopper's
/// shared memory (four of the widest tile, with `C`'s staging buffers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sm90Config {
    /// How the tiles reach shared memory and the blocks are scheduled.
    pub loader: Sm90Loader,
    /// How `C` is stored ([`Sm90Epilogue::Tma`] with the warp-specialized
    /// loader only).
    pub epilogue: Sm90Epilogue,
    /// The type of `C`: f32, or (warp-specialized loader) the inputs' type.
    pub c_elem: Elem,
    /// Whether A and B are K-major (both, except with the warp-specialized
    /// loader).
    pub k_major: (bool, bool),
    /// The block tile's width `BN`, one of [`TILE_NS`] (256 but with the
    /// warp-specialized loader).
    pub bn: i64,
    /// The blocks of a thread-block cluster, along M (1 or 2; 2 with the
    /// warp-specialized loader only): a cluster's blocks multiply
    /// neighbouring M-tiles by the same N-tile, each loading half of B's
    /// tile and multicasting it to both, which halves B's reads from L2.
    pub cluster: i64,
}

impl Default for Sm90Config {
    fn default() -> Sm90Config {
        Sm90Config {
            loader: Sm90Loader::CpAsync,
            epilogue: Sm90Epilogue::Direct,
            c_elem: Elem::F32,
            k_major: (true, true),
            bn: 256,
            cluster: 1,
        }
    }
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
        Sm90Gemm::with_config(name, mnk, elem, Sm90Config::default())
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
        Sm90Gemm::with_config(name, mnk, elem, Sm90Config { loader: Sm90Loader::Tma, ..Sm90Config::default() })
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
    /// assert!(g.source.contains("kute_wgmma_m64n256k16_f32_f16<1, 0>(")); // A transposed
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
    /// says: [`Sm90Epilogue::Tma`] is the fast one (docs/benchmarks/gemm.md,
    /// "The SM90 epilogues"); the direct stores remain for `C`s whose rows TMA
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
        let config =
            Sm90Config { loader: Sm90Loader::WarpSpecialized, epilogue, c_elem, k_major, ..Sm90Config::default() };
        Sm90Gemm::with_config(name, mnk, elem, config)
    }

    /// Plans `C = A · Bᵀ` for `(M, N, K)` as `config` says (see the
    /// [module docs](self)); the other constructors are this with their
    /// choices.
    ///
    /// Pre: `elem` f16 or bf16; `config.c_elem` f32 or `elem`; with the
    /// `cp.async` or TMA loader, an f32 `C` stored directly, both operands
    /// K-major, and `M` a positive multiple of 128, `N` of 256, `K` of 64;
    /// with the warp-specialized loader, the Pre of
    /// [`Sm90Gemm::warp_specialized_epilogue`] (else an `Unsupported` error).
    /// Post: the kernel of that constructor.
    ///
    /// ```
    /// use kute_cuda::{gemm_sm90::{Sm90Config, Sm90Epilogue, Sm90Gemm, Sm90Loader}, Elem};
    /// let ws = Sm90Config { loader: Sm90Loader::WarpSpecialized, epilogue: Sm90Epilogue::Tma, c_elem: Elem::F16, ..Sm90Config::default() };
    /// let g = Sm90Gemm::with_config("w", (1024, 1024, 512), Elem::F16, ws).unwrap();
    /// assert_eq!((g.threads, g.c_map), (384, Some((1024, 1024, 64, 64))));
    /// assert_eq!(Sm90Gemm::with_config("h", (256, 256, 128), Elem::F16, Sm90Config::default()).unwrap().threads, 256);
    /// // a 16-bit C is the warp-specialized kernel's alone
    /// let c16 = Sm90Config { c_elem: Elem::F16, ..Sm90Config::default() };
    /// assert!(Sm90Gemm::with_config("x", (256, 256, 128), Elem::F16, c16).is_err());
    /// ```
    pub fn with_config(name: &str, mnk: (i64, i64, i64), elem: Elem, config: Sm90Config) -> Result<Sm90Gemm> {
        let p = plan::gemm_sm90::plan(plan::gemm_sm90::Extents::fixed(mnk), elem, config)?;
        let source = emit::gemm_sm90::source(name, &p)?;
        let (tma_maps, c_map) = plan::gemm_sm90::tensor_maps(mnk, elem, config);
        Ok(Sm90Gemm {
            name: name.to_string(),
            elem,
            tile: p.tile,
            mnk,
            smem: p.smem,
            smem_b: p.smem_b,
            atom: p.atom,
            store_cost: p.store_cost,
            smem_bytes: p.smem_bytes as u32,
            loader: config.loader,
            threads: p.threads as u32,
            c_elem: config.c_elem,
            tma_maps,
            k_major: config.k_major,
            epilogue: config.epilogue,
            c_map,
            c_stage: p.c_stage,
            c_stage_cost: p.c_stage_cost,
            source,
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
        (ceil_div(m, self.tile.0) as u32, ceil_div(n, self.tile.1) as u32)
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

/// The activation a fused epilogue applies ([`EpilogueOp`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Activation {
    /// None: the value as it is.
    #[default]
    None,
    /// `max(x, 0)`.
    Relu,
    /// `x · Φ(x)`, `0.5 x (1 + erf(x / √2))` (PyTorch's default GELU),
    /// `erf` from Abramowitz and Stegun's rational approximation 7.1.26
    /// ([`ERF_AS_7_1_26`]: within 1.5e-7 of `erf`, 6e-7 evaluated in f32;
    /// one reciprocal and one exponential, no branch), so `GELU(x)` is
    /// within about `3e-7 · |x|` of the exact.
    Gelu,
    /// `x · sigmoid(x)`.
    Silu,
}

/// Abramowitz and Stegun's approximation 7.1.26 of `erf(x)`, `x ≥ 0`:
/// `1 - u·(a1 + u·(a2 + u·(a3 + u·(a4 + u·a5))))·exp(-x²)` with `u = 1 /
/// (1 + p·x)`, as `[p, a1, a2, a3, a4, a5]`; its error is at most 1.5e-7
/// (6e-7 evaluated in f32; `erf(-x) = -erf(x)`). The fused GELU evaluates it.
pub const ERF_AS_7_1_26: [f32; 6] = [0.327_591_1, 0.254_829_6, -0.284_496_74, 1.421_413_8, -1.453_152_1, 1.061_405_4];

/// Where a fused epilogue's bias applies ([`EpilogueOp`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BiasMode {
    /// No bias.
    #[default]
    None,
    /// `bias[row]`, `M` values (one per row of `C`).
    PerRow,
    /// `bias[column]`, `N` values (one per column of `C`).
    PerColumn,
}

/// What the kernel of sizes given at launch does to each f32 sum `x`
/// before storing it: `activation(alpha · x + beta · c + bias)`, `c` the
/// value `C` held before the call, with `alpha`, `beta` and the bias (f32,
/// shared by the matrices of a batch) given at launch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EpilogueOp {
    /// The bias, if any.
    pub bias: BiasMode,
    /// The activation.
    pub activation: Activation,
    /// Whether `C` is read (`beta · c` added; the kernel then takes `beta`
    /// after `alpha`). Without it `C` is only written, as with `beta = 0`.
    pub beta: bool,
}

/// What every launch of an [`Sm90GemmAtLaunch`] guarantees of its
/// `(M, N, K)`: each a positive multiple of its divisor. The facts decide
/// the kernel: multiples of the block tile (128, 256, 64) drop the guards of
/// the edge tiles, and TMA needs the operands' rows (and, for a TMA store,
/// `C`'s) in whole 16-byte units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SizeFacts {
    /// `M` is a multiple of this.
    pub m_div: i64,
    /// `N` is a multiple of this.
    pub n_div: i64,
    /// `K` is a multiple of this.
    pub k_div: i64,
}

impl SizeFacts {
    /// Why a kernel made for these facts does not take `(M, N, K)`: a size
    /// below 1, past 2^31 - 1, or not a multiple of its declared divisor;
    /// `None` where it takes them.
    ///
    /// Pre: none. Post: the reason, naming the size and the rule.
    ///
    /// ```
    /// use kute_cuda::gemm_sm90::SizeFacts;
    /// assert!(SizeFacts::default().refusal((300, 600, 72)).is_none());
    /// assert!(SizeFacts::default().refusal((300, 600, 70)).unwrap().starts_with("K = 70"));
    /// ```
    pub fn refusal(&self, (m, n, k): (i64, i64, i64)) -> Option<String> {
        [("M", m, self.m_div), ("N", n, self.n_div), ("K", k, self.k_div)].into_iter().find_map(|(what, x, div)| {
            (x < 1 || x % div != 0 || x > i32::MAX as i64)
                .then(|| format!("{what} = {x}, but the kernel was made for {what} a positive multiple of {div}"))
        })
    }
}

impl Default for SizeFacts {
    /// Any `M` and `N`, `K` a multiple of 8 (the rows of K-major operands
    /// are then whole 16-byte vectors of 16-bit elements).
    fn default() -> SizeFacts {
        SizeFacts { m_div: 1, n_div: 1, k_div: 8 }
    }
}

/// The warp-specialized SM90 GEMM made once for every `(M, N, K)` its
/// [`SizeFacts`] allow: its source takes `M`, `N` and `K` as the kernel's
/// last arguments, every index an expression of them that kute's algebra
/// derived on symbolic layouts (the operands' `zipped_divide`s by the tile
/// with `M`, `N`, `K` unknowns: `ceil_div(M,128)` tiles, strides `K`...).
/// Compile it once ([`crate::gpu::Gpu::kernel_cached`]) and launch it on any
/// problem ([`crate::gpu::Gpu::launch_sm90_at`]).
#[derive(Clone, Debug)]
pub struct Sm90GemmAtLaunch {
    /// The kernel's name.
    pub name: String,
    /// The input type.
    pub elem: Elem,
    /// The choices it was made for (the warp-specialized loader).
    pub config: Sm90Config,
    /// What every launch guarantees.
    pub facts: SizeFacts,
    /// The fused epilogue (`alpha` and the bias are given at launch).
    pub op: EpilogueOp,
    /// Whether the edge tiles are guarded (the facts do not make `M` and `N`
    /// multiples of the block tile).
    pub predicated: bool,
    /// Bytes of dynamic shared memory per block.
    pub smem_bytes: u32,
    /// Threads per block.
    pub threads: u32,
    /// The CUDA C++ source.
    pub source: String,
}

/// A TMA tensor map of a batch of row-major matrices: dimensions and box
/// innermost first (`[columns, rows, batch]`), and the byte strides of a
/// row and of a matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TmaSpec {
    /// `[columns, rows, matrices]`.
    pub dims: [u64; 3],
    /// Bytes from one row to the next, and from one matrix to the next.
    pub strides: [u64; 2],
    /// The box: `[columns, rows, 1]`.
    pub box_dims: [u32; 3],
}

/// One problem for an [`Sm90GemmAtLaunch`]: its sizes, leading dimensions
/// and batch, checked against the facts, and what launching it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sm90Problem {
    /// `(M, N, K)`.
    pub mnk: (i64, i64, i64),
    /// Matrices in the batch.
    pub batch: i64,
    /// Leading dimensions of A, B and C (elements from a row of the
    /// row-major matrix each is stored as to the next: `(M, K)` for a
    /// K-major A, `(K, M)` for an M-major one).
    pub ld: (i64, i64, i64),
    /// Elements from one matrix of the batch to the next, of A, B and C.
    pub batch_stride: (i64, i64, i64),
    /// The tensor maps of A and B.
    pub maps: [TmaSpec; 2],
    /// With a TMA store, the tensor map of C.
    pub c_map: Option<TmaSpec>,
    /// Block tiles along M and N (per matrix).
    pub blocks: (u32, u32),
    /// k-tiles of each block tile ([`tile`]'s `BK` of the inputs' type).
    pub ktiles: i64,
    /// The k-tiles' splits (split-K), or `None` for
    /// [`Sm90Problem::split_heuristic`]'s choice at launch.
    pub splits: Option<i64>,
    /// The blocks of the kernel's clusters ([`Sm90Config::cluster`]).
    pub cluster: i64,
}

impl Sm90Problem {
    /// One persistent block per multiprocessor of `sms`, at most one per
    /// tile of the batch; with clusters, whole clusters of blocks, at most
    /// one per cluster's tiles (a pair of M-tiles).
    ///
    /// Pre: none. Post: the grid's `(x, y)`.
    ///
    /// ```
    /// use kute_cuda::gemm_sm90::{SizeFacts, Sm90Config, Sm90GemmAtLaunch, Sm90Loader};
    /// let ws = Sm90Config { loader: Sm90Loader::WarpSpecialized, ..Sm90Config::default() };
    /// let g = Sm90GemmAtLaunch::new("g", kute_cuda::Elem::F16, ws, SizeFacts::default()).unwrap();
    /// assert_eq!(g.problem((300, 600, 64)).unwrap().grid(132), (9, 1)); // 3 x 3 tiles
    /// assert_eq!(g.problem((4096, 4096, 64)).unwrap().grid(132), (132, 1));
    /// ```
    pub fn grid(&self, sms: u32) -> (u32, u32) {
        self.grid_with(sms, 1)
    }

    /// As [`Sm90Problem::grid`], each tile's k-tiles split `splits` ways.
    ///
    /// Pre: none. Post: the grid's `(x, y)`.
    ///
    /// ```
    /// use kute_cuda::gemm_sm90::{SizeFacts, Sm90Config, Sm90GemmAtLaunch, Sm90Loader};
    /// let ws = Sm90Config { loader: Sm90Loader::WarpSpecialized, ..Sm90Config::default() };
    /// let g = Sm90GemmAtLaunch::new("g", kute_cuda::Elem::F16, ws, SizeFacts::default()).unwrap();
    /// assert_eq!(g.problem((128, 8192, 8192)).unwrap().grid_with(132, 4), (128, 1)); // 32 tiles x 4
    /// ```
    pub fn grid_with(&self, sms: u32, splits: i64) -> (u32, u32) {
        let c = self.cluster.max(1) as u64;
        let rows = (self.blocks.0 as u64).div_ceil(c);
        let units = rows * self.blocks.1 as u64 * self.batch as u64 * splits.max(1) as u64;
        ((units.min((sms as u64 / c).max(1)) * c) as u32, 1)
    }

    /// The problem with its k-tiles split `splits` ways (pinned: the
    /// heuristic is not asked).
    ///
    /// Pre: none (the launch checks `1 <= splits <= k-tiles`). Post: the problem.
    ///
    /// ```
    /// use kute_cuda::gemm_sm90::{SizeFacts, Sm90Config, Sm90GemmAtLaunch, Sm90Loader};
    /// let ws = Sm90Config { loader: Sm90Loader::WarpSpecialized, ..Sm90Config::default() };
    /// let g = Sm90GemmAtLaunch::new("g", kute_cuda::Elem::F16, ws, SizeFacts::default()).unwrap();
    /// let p = g.problem((128, 8192, 8192)).unwrap();
    /// assert_eq!((p.splits, p.with_splits(2).splits), (None, Some(2)));
    /// ```
    pub fn with_splits(self, splits: i64) -> Sm90Problem {
        Sm90Problem { splits: Some(splits), ..self }
    }

    /// Split-K's heuristic for a GPU of `sms` multiprocessors: a problem
    /// with tiles for more than a quarter of them is not split; one with
    /// fewer splits each tile's k-tiles into as many shares as fill the
    /// multiprocessors once (`sms / tiles`), each share at least four
    /// k-tiles, at most 16 shares. (Measured on an H200 with 128 x 256
    /// tiles, docs/benchmarks/gemm.md: 128x8192x8192 in four shares ran
    /// 1.09x faster than unsplit; 256x8192x8192 in two shares 0.88x, so it
    /// is not split. The library narrows the tile first
    /// ([`tile_n_heuristic`]), which beat every split measured.)
    ///
    /// Pre: none. Post: the splits, from 1.
    ///
    /// ```
    /// use kute_cuda::gemm_sm90::{SizeFacts, Sm90Config, Sm90GemmAtLaunch, Sm90Loader};
    /// let ws = Sm90Config { loader: Sm90Loader::WarpSpecialized, ..Sm90Config::default() };
    /// let g = Sm90GemmAtLaunch::new("g", kute_cuda::Elem::F16, ws, SizeFacts::default()).unwrap();
    /// assert_eq!(g.problem((4096, 4096, 4096)).unwrap().split_heuristic(132), 1); // 512 tiles
    /// assert_eq!(g.problem((128, 8192, 8192)).unwrap().split_heuristic(132), 4); // 32 tiles, 128 k-tiles
    /// assert_eq!(g.problem((256, 8192, 8192)).unwrap().split_heuristic(132), 1); // 64 tiles
    /// assert_eq!(g.problem((128, 256, 256)).unwrap().split_heuristic(132), 1); // 4 k-tiles
    /// ```
    pub fn split_heuristic(&self, sms: u32) -> i64 {
        splits_for(self.blocks.0 as i64 * self.blocks.1 as i64 * self.batch, self.ktiles, sms)
    }

    /// The elements each of A, B and C spans: what their buffers must hold.
    ///
    /// Pre: none. Post: `(A, B, C)`.
    ///
    /// ```
    /// use kute_cuda::gemm_sm90::{SizeFacts, Sm90Config, Sm90GemmAtLaunch, Sm90Loader};
    /// let ws = Sm90Config { loader: Sm90Loader::WarpSpecialized, ..Sm90Config::default() };
    /// let g = Sm90GemmAtLaunch::new("g", kute_cuda::Elem::F16, ws, SizeFacts::default()).unwrap();
    /// assert_eq!(g.problem((300, 600, 64)).unwrap().spans((true, true)), (300 * 64, 600 * 64, 300 * 600));
    /// // C's rows 1024 apart, two matrices 400 000 apart
    /// let p = g.problem_batched((300, 600, 64), 2, (64, 64, 1024), (300 * 64, 600 * 64, 400_000)).unwrap();
    /// assert_eq!(p.spans((true, true)).2, 400_000 + 299 * 1024 + 600);
    /// ```
    pub fn spans(&self, k_major: (bool, bool)) -> (i64, i64, i64) {
        operand_spans(self.mnk, self.batch, (self.ld, self.batch_stride), k_major)
    }
}

/// The elements each of A, B and C spans for `batch` problems `(M, N, K)`
/// with the leading dimensions and batch strides `(ld, batch_stride)`,
/// A and B K-major as `k_major` says: the last element each reaches, plus
/// one.
pub(crate) fn operand_spans(
    (m, n, k): (i64, i64, i64),
    batch: i64,
    (ld, batch_stride): ((i64, i64, i64), (i64, i64, i64)),
    k_major: (bool, bool),
) -> (i64, i64, i64) {
    let span = |(outer, inner): (i64, i64), ld: i64, stride: i64| (batch - 1) * stride + (outer - 1) * ld + inner;
    let rows = |r: i64, km: bool| if km { (r, k) } else { (k, r) };
    (
        span(rows(m, k_major.0), ld.0, batch_stride.0),
        span(rows(n, k_major.1), ld.1, batch_stride.1),
        span((m, n), ld.2, batch_stride.2),
    )
}

impl Sm90GemmAtLaunch {
    /// Plans the warp-specialized kernel (`config.loader` is
    /// [`Sm90Loader::WarpSpecialized`]) for every `(M, N, K)` that `facts`
    /// allow, any leading dimensions and any batch of matrices: `C`'s
    /// leading dimension and batch stride are multiples of `facts.n_div`.
    ///
    /// Pre: `elem` f16 or bf16; `config` as [`Sm90Gemm::with_config`] takes
    /// it; the facts make the operands' contiguous extents multiples of 8
    /// (and with a TMA store, `N` times `C`'s element size a multiple of 16);
    /// every divisor positive (else an `Unsupported` error).
    /// Post: a kernel `NAME(tma_a, tma_b, C[, tma_c], M, N, K, LDC, L, SC,
    /// alpha)`; split-K's `NAME_split(tma_a, tma_b, C, M, N, K, LDC, L, SC,
    /// W, S)` (`S` shares of the k-tiles, each stored into its slice of the
    /// f32 workspace `W`) and `NAME_finish(W, C, M, N, K, LDC, L, SC, alpha,
    /// S)`.
    ///
    /// ```
    /// use kute_cuda::gemm_sm90::{SizeFacts, Sm90Config, Sm90Epilogue, Sm90GemmAtLaunch, Sm90Loader};
    /// use kute_cuda::Elem;
    /// let ws = Sm90Config { loader: Sm90Loader::WarpSpecialized, epilogue: Sm90Epilogue::Tma, c_elem: Elem::F16, ..Sm90Config::default() };
    /// let any = SizeFacts { n_div: 8, ..SizeFacts::default() };
    /// let g = Sm90GemmAtLaunch::new("g", Elem::F16, ws, any).unwrap();
    /// assert!(g.predicated && g.source.contains("const long long M, const long long N, const long long K, const long long LDC, const long long L, const long long SC, const float alpha)"));
    /// assert!(g.source.contains("(((M) + (128LL) - 1LL) / (128LL))")); // the M-tiles, ceil_div(M,128)
    /// let p = g.problem((300, 600, 72)).unwrap();
    /// assert_eq!((p.blocks, p.batch, p.ld), ((3, 3), 1, (72, 72, 600)));
    /// assert!(g.problem((300, 601, 72)).is_err()); // N is declared a multiple of 8
    /// // a batch of 4, C's rows 1024 apart
    /// let b = g.problem_batched((300, 600, 72), 4, (72, 72, 1024), (300 * 72, 600 * 72, 300 * 1024)).unwrap();
    /// assert_eq!(b.c_map.unwrap().dims, [600, 300, 4]);
    /// assert!(g.problem_batched((300, 600, 72), 4, (72, 72, 1024), (300 * 72, 600 * 72, 1024)).is_err()); // Cs overlap
    /// // a TMA store needs C's rows in 16-byte units: N must be declared a multiple of 8
    /// assert!(Sm90GemmAtLaunch::new("x", Elem::F16, ws, SizeFacts::default()).is_err());
    /// // tile multiples: no guards
    /// let tiled = SizeFacts { m_div: 128, n_div: 256, k_div: 64 };
    /// assert!(!Sm90GemmAtLaunch::new("t", Elem::F16, ws, tiled).unwrap().predicated);
    /// ```
    pub fn new(name: &str, elem: Elem, config: Sm90Config, facts: SizeFacts) -> Result<Sm90GemmAtLaunch> {
        Sm90GemmAtLaunch::with_op(name, elem, config, facts, EpilogueOp::default())
    }

    /// As [`Sm90GemmAtLaunch::new`], each sum `x` stored as
    /// `activation(alpha · x + bias)` (`op`).
    ///
    /// Pre: as `new`. Post: as `new`; the GEMM and the finishing kernel take
    /// `alpha` (and with a bias, its f32 pointer) after `SC`.
    ///
    /// ```
    /// use kute_cuda::gemm_sm90::{Activation, BiasMode, EpilogueOp, SizeFacts, Sm90Config, Sm90GemmAtLaunch, Sm90Loader};
    /// let ws = Sm90Config { loader: Sm90Loader::WarpSpecialized, ..Sm90Config::default() };
    /// let op = EpilogueOp { bias: BiasMode::PerColumn, activation: Activation::Gelu, ..EpilogueOp::default() };
    /// let g = Sm90GemmAtLaunch::with_op("g", kute_cuda::Elem::F16, ws, SizeFacts::default(), op).unwrap();
    /// assert!(g.source.contains("const float alpha, const float* __restrict__ bias)"));
    /// assert!(g.source.contains("copysignf(erf, t)")); // GELU's erf, branch-free
    /// ```
    pub fn with_op(
        name: &str,
        elem: Elem,
        config: Sm90Config,
        facts: SizeFacts,
        op: EpilogueOp,
    ) -> Result<Sm90GemmAtLaunch> {
        const OP: &str = "sm90 gemm at launch";
        if config.loader != Sm90Loader::WarpSpecialized {
            return Err(crate::Error::unsupported(OP, "sizes given at launch: the warp-specialized loader only"));
        }
        let unknown = |n: &str, div: i64| -> Result<Int> {
            if div < 1 {
                return Err(crate::Error::unsupported(
                    OP,
                    format!("{n} declared a multiple of {div} (a positive divisor)"),
                ));
            }
            Ok(Int::symbolic(kute::sym::Sym::var_div(n, div)?)?)
        };
        let extents = plan::gemm_sm90::Extents {
            mnk: (unknown("M", facts.m_div)?, unknown("N", facts.n_div)?, unknown("K", facts.k_div)?),
            ldc: unknown("LDC", facts.n_div)?,
            batch: Some((unknown("L", 1)?, unknown("SC", facts.n_div)?)),
            split_k: true,
            op: Some(op),
        };
        let p = plan::gemm_sm90::plan(extents, elem, config)?;
        let source = emit::gemm_sm90::source(name, &p)?;
        Ok(Sm90GemmAtLaunch {
            name: name.to_string(),
            elem,
            config,
            facts,
            op,
            predicated: p.predicated,
            smem_bytes: p.smem_bytes as u32,
            threads: p.threads as u32,
            source,
        })
    }

    /// The problem `(M, N, K)`: one matrix of each, contiguous.
    ///
    /// Pre and Post: as [`Sm90GemmAtLaunch::problem_batched`].
    ///
    /// ```
    /// use kute_cuda::gemm_sm90::{SizeFacts, Sm90Config, Sm90GemmAtLaunch, Sm90Loader};
    /// let ws = Sm90Config { loader: Sm90Loader::WarpSpecialized, ..Sm90Config::default() };
    /// let g = Sm90GemmAtLaunch::new("g", kute_cuda::Elem::F16, ws, SizeFacts::default()).unwrap();
    /// let p = g.problem((300, 600, 72)).unwrap();
    /// assert_eq!((p.ld, p.batch, p.blocks), ((72, 72, 600), 1, (3, 3)));
    /// assert!(g.problem((300, 600, 70)).is_err()); // K declared a multiple of 8
    /// ```
    pub fn problem(&self, (m, n, k): (i64, i64, i64)) -> Result<Sm90Problem> {
        let (a_k, b_k) = self.config.k_major;
        let ld = (if a_k { k } else { m }, if b_k { k } else { n }, n);
        self.problem_batched((m, n, k), 1, ld, (m * k, n * k, m * n))
    }

    /// The problem of `batch` products `(M, N, K)`, the operands' rows `ld`
    /// elements apart and their matrices `batch_stride` elements apart (A,
    /// B, C).
    ///
    /// Pre: `M`, `N`, `K` positive multiples of the facts' divisors, small
    /// enough for TMA's 32-bit coordinates; each leading dimension at least
    /// its row's length, a multiple of 16 bytes (and `C`'s a multiple of
    /// `facts.n_div`); `batch >= 1`, the batch strides multiples of 16 bytes
    /// (`C`'s of `facts.n_div`), `C`'s matrices apart; fewer than 2^31 block
    /// tiles (else an `Unsupported` error naming the value and the rule).
    /// Post: the tensor maps and the tiles.
    ///
    /// ```
    /// use kute_cuda::gemm_sm90::{SizeFacts, Sm90Config, Sm90GemmAtLaunch, Sm90Loader};
    /// let ws = Sm90Config { loader: Sm90Loader::WarpSpecialized, ..Sm90Config::default() };
    /// let g = Sm90GemmAtLaunch::new("g", kute_cuda::Elem::F16, ws, SizeFacts::default()).unwrap();
    /// // A's rows 80 apart, a batch of 3
    /// let p = g.problem_batched((300, 600, 72), 3, (80, 72, 600), (300 * 80, 600 * 72, 300 * 600)).unwrap();
    /// assert_eq!(p.maps[0].dims, [72, 300, 3]); // (K, M, batch), innermost first
    /// assert_eq!(p.maps[0].strides, [160, 300 * 80 * 2]); // bytes
    /// assert!(g.problem_batched((300, 600, 72), 3, (70, 72, 600), (300 * 80, 600 * 72, 300 * 600)).is_err()); // lda < K
    /// ```
    pub fn problem_batched(
        &self,
        (m, n, k): (i64, i64, i64),
        batch: i64,
        ld: (i64, i64, i64),
        batch_stride: (i64, i64, i64),
    ) -> Result<Sm90Problem> {
        let bad = |why: String| Err(crate::Error::unsupported("sm90 gemm at launch", format!("{}: {why}", self.name)));
        let f = self.facts;
        if let Some(why) = f.refusal((m, n, k)) {
            return bad(why);
        }
        if batch < 1 || batch > i32::MAX as i64 {
            return bad(format!("a batch of {batch} (1 to 2^31 - 1)"));
        }
        let (a_k, b_k) = self.config.k_major;
        let (e, ce) = (self.elem.bytes(), self.config.c_elem.bytes());
        let tma_store = self.config.epilogue == Sm90Epilogue::Tma;
        // (name, leading dimension, the row's length, the rows, the batch stride, element bytes, TMA-addressed)
        let operands = [
            ("A", ld.0, if a_k { k } else { m }, if a_k { m } else { k }, batch_stride.0, e, true),
            ("B", ld.1, if b_k { k } else { n }, if b_k { n } else { k }, batch_stride.1, e, true),
            ("C", ld.2, n, m, batch_stride.2, ce, tma_store),
        ];
        for (what, l, row, rows, stride, bytes, tma) in operands {
            if l < row {
                return bad(format!("{what}'s leading dimension {l} is less than its rows' {row} elements"));
            }
            if tma && (l * bytes % 16 != 0 || (batch > 1 && stride * bytes % 16 != 0)) {
                return bad(format!(
                    "{what}'s leading dimension {l} and batch stride {stride} must be multiples of 16 bytes (TMA)"
                ));
            }
            if what == "C" {
                if l % f.n_div != 0 || (batch > 1 && stride % f.n_div != 0) {
                    return bad(format!(
                        "C's leading dimension {l} and batch stride {stride} must be multiples of {}",
                        f.n_div
                    ));
                }
                if batch > 1 && stride < (rows - 1) * l + row {
                    return bad(format!(
                        "C's matrices overlap: batch stride {stride} under the {} elements of one",
                        (rows - 1) * l + row
                    ));
                }
            }
        }
        let blocks = (ceil_div(m, TILE.0), ceil_div(n, self.config.bn));
        if blocks.0 * blocks.1 * batch > i32::MAX as i64 {
            return bad(format!("({m},{n},{k}) x {batch}: {} block tiles, past 2^31", blocks.0 * blocks.1 * batch));
        }
        // a batch of one: any stride TMA takes
        let stride = |s: i64, rows: i64, l: i64, bytes: i64| {
            if batch > 1 {
                s
            } else {
                (rows * l * bytes + 15) / 16 * 16 / bytes
            }
        };
        let (maps2, c_map2) = plan::gemm_sm90::tensor_maps((m, n, k), self.elem, self.config);
        let spec = |(rows, cols, box_rows, box_cols): (u64, u64, u32, u32), l: i64, s: i64, bytes: i64| TmaSpec {
            dims: [cols, rows, batch as u64],
            strides: [(l * bytes) as u64, (stride(s, rows as i64, l, bytes) * bytes) as u64],
            box_dims: [box_cols, box_rows, 1],
        };
        Ok(Sm90Problem {
            mnk: (m, n, k),
            batch,
            ld,
            batch_stride,
            maps: [spec(maps2[0], ld.0, batch_stride.0, e), spec(maps2[1], ld.1, batch_stride.1, e)],
            c_map: c_map2.map(|d| spec(d, ld.2, batch_stride.2, ce)),
            blocks: (blocks.0 as u32, blocks.1 as u32),
            ktiles: ceil_div(k, tile(self.elem).2),
            splits: None,
            cluster: self.config.cluster,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fused GELU's erf: Abramowitz and Stegun 7.1.26 evaluated in f32
    /// (as the kernel does, with exact division and exponential) is within
    /// 6e-7 of `erf` (the published bound 1.5e-7 plus the f32 rounding of
    /// the polynomial) from -8 to 8; GELU from it within 3e-7 · |x| + 1e-7
    /// of the exact.
    #[test]
    fn gelus_erf_approximation_is_within_its_bound() {
        let [p, a1, a2, a3, a4, a5] = ERF_AS_7_1_26;
        let erf = |t: f32| -> f32 {
            let x = t.abs();
            let u = 1.0 / (1.0 + p * x);
            let q = u * (a1 + u * (a2 + u * (a3 + u * (a4 + u * a5))));
            (1.0 - q * (-x * x).exp()).copysign(t)
        };
        let mut worst = 0f64;
        for i in -80_000..=80_000 {
            let x = i as f32 / 10_000.0;
            let d = (erf(x) as f64 - libm::erf(x as f64)).abs();
            worst = worst.max(d);
        }
        assert!(worst < 6e-7, "largest error {worst:e}");
        for i in -2000..=2000 {
            let t = i as f32 / 100.0;
            let g = 0.5 * t * (1.0 + erf(t * std::f32::consts::FRAC_1_SQRT_2));
            let want = 0.5 * t as f64 * (1.0 + libm::erf(t as f64 / std::f64::consts::SQRT_2));
            assert!((g as f64 - want).abs() <= 3e-7 * (t.abs() as f64) + 1e-7, "GELU({t}) = {g}, not {want}");
        }
    }
    use kute::analysis::block_bank_conflicts;
    use kute::Int;

    /// CuTe's spelling of a layout, evaluated: the check is independent of
    /// the plan's typed construction.
    fn layout_of(expr: &str) -> kute::Result<kute::Layout> {
        kute::expr::eval(expr)?.to_layout("test")
    }

    fn layout_of_any(expr: &str) -> kute::Result<AnyLayout> {
        kute::expr::eval(expr)?.to_any_layout("test")
    }

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
