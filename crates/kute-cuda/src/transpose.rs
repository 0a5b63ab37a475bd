//! A copy between two rank-2 layouts whose contiguous modes differ (a
//! matrix transpose), staged through shared memory so that both the global
//! loads and the global stores are 16-byte vectors along their contiguous
//! mode.
//!
//! The plan, all in kute's algebra and analysis:
//! 1. Both layouts are cut into tiles with `zipped_divide(L, (TM,TN))`:
//!    mode 0 a tile's offsets, mode 1 the tiles' first offsets (a block per
//!    tile).
//! 2. Two thread-value layouts over a tile, as CuTe's `make_tiled_copy`
//!    builds them: `right_inverse(raked_product(threads, values))` for one
//!    pass, repeated over the tile with `zipped_divide`. The *read* layout
//!    gives each thread `V` consecutive elements along the source's
//!    contiguous mode (16 bytes), neighbouring threads neighbouring vectors;
//!    the *write* layout the same along the destination's contiguous mode.
//! 3. The shared-memory tile is row-major along the source's contiguous mode;
//!    [`kute::analysis::search_swizzle`] picks the swizzle that makes the
//!    block's shared stores (the read layout, 16-byte vectors) and shared
//!    loads (the write layout, one element each) cost the fewest wavefronts,
//!    every warp of the block counted; the tile shapes of [`TILES`] are tried
//!    in order, and the first without bank conflicts (else the one with the
//!    fewest) wins.
//! 4. [`kute::analysis::block_bank_conflicts`] predicts the wavefronts of
//!    every shared access of the kernel (what Nsight Compute counts).
//!
//! Thread `t` reads its `P` source vectors (all loads in flight), stores them
//! to shared memory, waits for the block, then gathers each destination
//! vector element by element from shared memory and stores it. The plan is
//! `plan::transpose`, the text `emit::transpose`; [`TransposeKernel::new`]
//! joins them.

use crate::{emit, plan, Elem, Result};
use kute::analysis::BankReport;
use kute::{AnyLayout, Layout};

/// Choices for a transpose kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TransposeConfig {
    /// Threads per block (a multiple of 32, at most 1024).
    pub threads: u32,
    /// Swizzle the shared tile as the search selects (`false`: the plain
    /// row-major tile, for comparison).
    pub swizzle: bool,
    /// A fixed tile `(TM, TN)` (`None`: the tile shapes below are tried).
    pub tile: Option<(i64, i64)>,
}

impl Default for TransposeConfig {
    fn default() -> TransposeConfig {
        TransposeConfig { threads: 256, swizzle: true, tile: None }
    }
}

/// The tile shapes tried, in order of preference.
pub const TILES: [(i64, i64); 6] = [(64, 64), (32, 64), (64, 32), (32, 32), (64, 128), (128, 64)];

/// The shared-memory cost of one block, per warp.
#[derive(Clone, Debug)]
pub struct SharedCost {
    /// The stores to shared memory, one report per warp.
    pub stores: Vec<BankReport>,
    /// The loads from shared memory, one report per warp.
    pub loads: Vec<BankReport>,
}

impl SharedCost {
    /// Wavefronts of the block's stores.
    ///
    /// Pre: none. Post: the sum over warps.
    ///
    /// ```
    /// use kute_cuda::{transpose::{TransposeConfig, TransposeKernel}, Elem};
    /// let src: kute::Layout = "(64,64):(64,1)".parse().unwrap();
    /// let dst: kute::Layout = "(64,64):(1,64)".parse().unwrap();
    /// let cfg = TransposeConfig { swizzle: false, tile: Some((32, 32)), ..TransposeConfig::default() };
    /// let k = TransposeKernel::new("t", &src, &dst, Elem::F32, cfg).unwrap(); // shared tile (32,32):(32,1), f32
    /// // thread t stores 4 floats of row t/8: a quarter-warp stores a whole 128-byte
    /// // row, one wavefront; 4 phases per warp, 8 warps
    /// assert_eq!(k.cost.store_wavefronts(), 32);
    /// ```
    pub fn store_wavefronts(&self) -> i64 {
        self.stores.iter().map(|r| r.wavefronts).sum()
    }

    /// Wavefronts of the block's loads.
    ///
    /// Pre: none. Post: the sum over warps.
    ///
    /// ```
    /// use kute_cuda::{transpose::{TransposeConfig, TransposeKernel}, Elem};
    /// let src: kute::Layout = "(64,64):(64,1)".parse().unwrap();
    /// let dst: kute::Layout = "(64,64):(1,64)".parse().unwrap();
    /// let cfg = TransposeConfig { swizzle: false, tile: Some((32, 32)), ..TransposeConfig::default() };
    /// let k = TransposeKernel::new("t", &src, &dst, Elem::F32, cfg).unwrap(); // shared tile (32,32):(32,1), f32
    /// // thread t loads rows 4(t%8)..+4 of column t/8, one float at a time: a warp's
    /// // 32 loads hit banks 0..3, 8 rows each, 8 wavefronts; 4 loads per thread, 8 warps
    /// assert_eq!(k.cost.load_wavefronts(), 8 * 4 * 8);
    /// ```
    pub fn load_wavefronts(&self) -> i64 {
        self.loads.iter().map(|r| r.wavefronts).sum()
    }

    /// Bank conflicts of the block's stores: the wavefronts beyond one per
    /// active phase of each instruction.
    ///
    /// Pre: none. Post: `store_wavefronts() - active phases`.
    ///
    /// ```
    /// use kute_cuda::{transpose::{TransposeConfig, TransposeKernel}, Elem};
    /// let src: kute::Layout = "(64,64):(64,1)".parse().unwrap();
    /// let dst: kute::Layout = "(64,64):(1,64)".parse().unwrap();
    /// let cfg = TransposeConfig { swizzle: false, tile: Some((32, 32)), ..TransposeConfig::default() };
    /// let k = TransposeKernel::new("t", &src, &dst, Elem::F32, cfg).unwrap(); // shared tile (32,32):(32,1), f32
    /// // every quarter-warp stores one 128-byte row: one wavefront per phase
    /// assert_eq!(k.cost.store_conflicts(), 0);
    /// ```
    pub fn store_conflicts(&self) -> i64 {
        excess(&self.stores)
    }

    /// Bank conflicts of the block's loads (as [`SharedCost::store_conflicts`]).
    ///
    /// Pre: none. Post: `load_wavefronts() - active phases`.
    ///
    /// ```
    /// use kute_cuda::{transpose::{TransposeConfig, TransposeKernel}, Elem};
    /// let src: kute::Layout = "(64,64):(64,1)".parse().unwrap();
    /// let dst: kute::Layout = "(64,64):(1,64)".parse().unwrap();
    /// let cfg = TransposeConfig { swizzle: false, tile: Some((32, 32)), ..TransposeConfig::default() };
    /// let k = TransposeKernel::new("t", &src, &dst, Elem::F32, cfg).unwrap(); // shared tile (32,32):(32,1), f32
    /// // each load of a warp: 8 rows in each of banks 0..3, 7 wavefronts too many;
    /// // 4 loads per thread, 8 warps
    /// assert_eq!(k.cost.load_conflicts(), 7 * 4 * 8);
    /// ```
    pub fn load_conflicts(&self) -> i64 {
        excess(&self.loads)
    }
}

fn excess(r: &[BankReport]) -> i64 {
    r.iter().map(BankReport::conflicts).sum()
}

/// A planned transpose kernel.
#[derive(Clone, Debug)]
pub struct TransposeKernel {
    /// The kernel's name.
    pub name: String,
    /// The element type.
    pub elem: Elem,
    /// The source layout, rank 2, contiguous along mode 1 (after the
    /// modes of both layouts are exchanged if the source was contiguous
    /// along mode 0).
    pub src: Layout,
    /// The destination layout, rank 2, contiguous along mode 0.
    pub dst: Layout,
    /// The tile `(TM, TN)`.
    pub tile: (i64, i64),
    /// Threads per block.
    pub threads: u32,
    /// Elements per vector (16 bytes).
    pub vector_elems: i64,
    /// Vectors per thread (`P`).
    pub passes: i64,
    /// `(T, (V, P))` to the tile coordinate (colexicographic in `(TM, TN)`)
    /// each thread reads from the source and stores to shared memory.
    pub tv_read: Layout,
    /// Same for the destination and the loads from shared memory.
    pub tv_write: Layout,
    /// The shared-memory tile: the tile coordinate to an element offset.
    pub smem: AnyLayout,
    /// The search's reasoning (empty when the swizzle was not searched).
    pub reasoning: Vec<String>,
    /// `composition(src tile, tv_read)`.
    pub src_read: Layout,
    /// `composition(dst tile, tv_write)`.
    pub dst_write: Layout,
    /// A tile's number to its first source offset.
    pub src_tiles: Layout,
    /// A tile's number to its first destination offset.
    pub dst_tiles: Layout,
    /// Number of tiles (blocks).
    pub blocks: i64,
    /// Predicted shared-memory cost of one block.
    pub cost: SharedCost,
    /// The CUDA C++ source.
    pub source: String,
    /// A diagnostic twin, kernel `NAME_shared_only`: the same shared-memory
    /// accesses with no global memory traffic (registers filled from the
    /// thread's number; the global store never taken), so that a profiler
    /// counts the shared accesses alone.
    pub shared_only_source: String,
}

impl TransposeKernel {
    /// Plans the copy of `src` into `dst` (see the [module docs](self)).
    ///
    /// Pre: `name` a C identifier; `src` and `dst` rank 2 with the same mode
    /// sizes `(M, N)`; one contiguous (stride 1) along mode 1 and the other
    /// along mode 0; a tile that divides `(M, N)`; `config` as documented
    /// (else an `Unsupported` error, or kute's error).
    /// Post: every tile coordinate is read once and written once (the TV
    /// layouts are bijections onto the tile); every vector access is
    /// contiguous and aligned.
    ///
    /// ```
    /// use kute_cuda::{transpose::{TransposeConfig, TransposeKernel}, Elem};
    /// let src: kute::Layout = "(256,256):(256,1)".parse().unwrap();
    /// let dst: kute::Layout = "(256,256):(1,256)".parse().unwrap();
    /// let k = TransposeKernel::new("tr", &src, &dst, Elem::F32, TransposeConfig::default()).unwrap();
    /// assert_eq!(k.cost.store_conflicts() + k.cost.load_conflicts(), 0);
    /// ```
    pub fn new(name: &str, src: &Layout, dst: &Layout, elem: Elem, config: TransposeConfig) -> Result<TransposeKernel> {
        let p = plan::transpose::plan(src, dst, elem, config)?;
        let (source, shared_only_source) = emit::transpose::sources(name, elem, &p)?;
        Ok(TransposeKernel {
            name: name.to_string(),
            elem,
            src: p.src,
            dst: p.dst,
            tile: p.tile,
            threads: config.threads,
            vector_elems: p.vector_elems,
            passes: p.passes,
            tv_read: p.tv_read,
            tv_write: p.tv_write,
            smem: p.smem,
            reasoning: p.reasoning,
            src_read: p.src_read,
            dst_write: p.dst_write,
            src_tiles: p.src_tiles,
            dst_tiles: p.dst_tiles,
            blocks: p.blocks,
            cost: p.cost,
            source,
            shared_only_source,
        })
    }

    /// Shared memory of one block, in bytes.
    ///
    /// Pre: none. Post: `TM · TN · elem bytes`.
    ///
    /// ```
    /// use kute_cuda::{transpose::{TransposeConfig, TransposeKernel}, Elem};
    /// let src: kute::Layout = "(64,128):(128,1)".parse().unwrap();
    /// let dst: kute::Layout = "(64,128):(1,64)".parse().unwrap();
    /// let cfg = TransposeConfig { tile: Some((32, 64)), ..TransposeConfig::default() };
    /// let k = TransposeKernel::new("t", &src, &dst, Elem::F16, cfg).unwrap();
    /// assert_eq!(k.smem_bytes(), 32 * 64 * 2);
    /// ```
    pub fn smem_bytes(&self) -> i64 {
        self.tile.0 * self.tile.1 * self.elem.bytes()
    }
}
