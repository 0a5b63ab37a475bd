//! A tensor-core GEMM (SM80 `mma.sync`), every index from kute's layouts.
//!
//! `C = A · Bᵀ` with `A` of shape `(M, K)` and `B` of shape `(N, K)`, each
//! contiguous along K or along M (N): BLAS's TN, NT, NN and TT; f16 or bf16
//! inputs, f32 accumulation and an f32
//! `C` of shape `(M, N)`, row-major. `M`, `N`, `K` are multiples of the block
//! tile.
//!
//! The plan:
//! 1. The block tile `(BM, BN, BK)` cuts `A`, `B` and `C` with
//!    `zipped_divide`: mode 0 a tile's offsets, mode 1 the tiles' first
//!    offsets.
//! 2. The MMA is CuTe's `make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{},
//!    (2,2,1))`: four warps, 2 x 2. Its `get_layoutA_TV`, `get_layoutB_TV` and
//!    `get_layoutC_TV` give each thread's fragment coordinates in one MMA
//!    tile `(32, 16, 16)`, whose value order is the register order of the
//!    `mma.sync` instruction. The MMA tile is repeated over the block tile
//!    with `zipped_divide`.
//! 3. Global to shared memory: `cp.async` 16-byte copies whose TV layout is
//!    CuTe's `make_tiled_copy` construction (`right_inverse(raked_product)`),
//!    in a pipeline of `STAGES` tiles.
//! 4. The shared tiles are K-major and swizzled as
//!    [`kute::analysis::search_swizzle`] picks for the `cp.async` stores and
//!    the fragment loads, every warp counted.
//!
//! Fragments are loaded from shared memory with `ldmatrix` (`x4` for A, `x2`
//! for B), its addresses from CuTe's `make_tiled_copy_A/B` of the
//! `SM75_U32x{4,2}_LDSM_N` atoms, whose destination TV layouts must equal
//! the MMA's (checked).
//!
//! The main loop is CuTe's `sgemm_sm80` pipeline: the fragments of the next
//! k-block are loaded while the current one multiplies (two register
//! buffers, so `BK/16` is even), and the next k-tile's copies start at the
//! first k-block of each tile. Every shared offset `s(u + v)` of a
//! per-thread part `u` and a compile-time part `v` (a thread's row and an
//! MMA repeat, or a thread's vector and a copy pass) is emitted as
//! `s(u) ^ s(v)`: `s(u)` is computed once, each access is one XOR with a
//! constant. The generator checks that split at every thread, repeat and
//! pass (it holds because the parts fill disjoint bits of the tile
//! coordinate and a swizzle is an XOR of bits).
//!
//! The plan is the crate's `plan::gemm_sm80` (layouts and the split
//! constants), the text `emit::gemm_sm80` (with the `cp.async`, `ldmatrix`
//! and `mma.sync` wrappers of its device headers); [`GemmKernel::new`] joins
//! them.

use crate::gemm_sm90::{EpilogueOp, SizeFacts};
use crate::plan::ceil_div;
use crate::plan::gemm_sm80::Sm80Extents;
use crate::{emit, plan, Elem, Error, Result};
use kute::analysis::BankReport;
use kute::{AnyLayout, Int, Layout};

pub use crate::plan::gemm_sm80::{OperandPlan, OutputPlan};
pub use crate::plan::TileModes;

const OP: &str = "gemm kernel";

/// The block tile and pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GemmConfig {
    /// Block tile along M.
    pub bm: i64,
    /// Block tile along N.
    pub bn: i64,
    /// Block tile along K.
    pub bk: i64,
    /// Tiles in flight in shared memory (2 or more).
    pub stages: i64,
    /// `A (M,K)` contiguous along K (`true`, BLAS's "T") or along M ("N").
    pub a_k_major: bool,
    /// `B (N,K)` contiguous along K (`true`, BLAS's "N") or along N ("T").
    pub b_k_major: bool,
    /// `C`'s element type: f32, or the inputs' type (each f32 sum rounded to
    /// nearest even, as cuBLAS's half-precision GEMMs and CuTe's
    /// `sgemm_sm80` tutorial write it).
    pub c_elem: Elem,
}

impl GemmConfig {
    /// BLAS's name of the operand layouts (column-major `C = op(A)·op(B)`):
    /// `TN` for both K-major, `NT` for both M/N-major, `NN`, `TT`.
    ///
    /// Pre: none. Post: two letters.
    ///
    /// ```
    /// let c = kute_cuda::gemm::GemmConfig { a_k_major: false, ..Default::default() };
    /// assert_eq!((kute_cuda::gemm::GemmConfig::default().blas(), c.blas()), ("TN", "NN"));
    /// ```
    pub fn blas(&self) -> &'static str {
        plan::blas((self.a_k_major, self.b_k_major))
    }
}

impl Default for GemmConfig {
    fn default() -> GemmConfig {
        GemmConfig { bm: 128, bn: 128, bk: 32, stages: 3, a_k_major: true, b_k_major: true, c_elem: Elem::F32 }
    }
}

/// Threads per block: the tiled MMA's four warps.
pub const THREADS: i64 = 128;

/// A planned GEMM kernel.
#[derive(Clone, Debug)]
pub struct GemmKernel {
    /// The kernel's name.
    pub name: String,
    /// The input element type (f16 or bf16).
    pub elem: Elem,
    /// `(M, N, K)`.
    pub mnk: (i64, i64, i64),
    /// The tile and pipeline.
    pub config: GemmConfig,
    /// `A`, `(M, K)`.
    pub a: Layout,
    /// `B`, `(N, K)`.
    pub b: Layout,
    /// `C`, `(M, N)`.
    pub c: Layout,
    /// The shared tile of `A`, `(BM, BK)`.
    pub smem_a: AnyLayout,
    /// The shared tile of `B`, `(BN, BK)`.
    pub smem_b: AnyLayout,
    /// Every layout the kernel evaluates for `A`.
    pub plan_a: OperandPlan,
    /// Every layout the kernel evaluates for `B`.
    pub plan_b: OperandPlan,
    /// Every layout the kernel evaluates for `C`.
    pub plan_c: OutputPlan,
    /// Predicted wavefronts of one block's `cp.async` stores and fragment
    /// loads of `A` (one k-block), per warp.
    pub cost_a: [Vec<BankReport>; 2],
    /// Same for `B`.
    pub cost_b: [Vec<BankReport>; 2],
    /// The swizzle searches' reasoning.
    pub reasoning: Vec<String>,
    /// Bytes of dynamic shared memory per block (the launch's; the stages of
    /// both tiles).
    pub smem_bytes: u32,
    /// The CUDA C++ source.
    pub source: String,
}

impl GemmKernel {
    /// Plans `C = A · Bᵀ` for `(M, N, K)` (see the [module docs](self)).
    ///
    /// Pre: `elem` f16 or bf16; `M, N >= 1`, `K` a positive multiple of 8;
    /// `BM` a multiple of 32, `BN` of 16, `BK` 32, 64 or 128;
    /// `c_elem` f32 or `elem` (else an `Unsupported` error).
    /// Post: a kernel of [`GemmKernel::blocks`] blocks of 128 threads whose
    /// dynamic shared memory (`smem_bytes`, at most 227 KiB, else an
    /// `Unsupported` error) is `STAGES · (BM + BN) · BK · 2` bytes,
    /// predicated when the sizes are not multiples of the tile.
    ///
    /// ```
    /// use kute_cuda::{gemm::{GemmConfig, GemmKernel}, Elem};
    /// let k = GemmKernel::new("g", (256, 256, 64), Elem::F16, GemmConfig::default()).unwrap();
    /// assert!(k.source.contains("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"));
    /// assert_eq!(k.blocks(), (2, 2));
    /// // a 16-bit C: pairs of sums rounded to nearest even, stored as one word
    /// let cfg = GemmConfig { c_elem: Elem::Bf16, ..GemmConfig::default() };
    /// let h = GemmKernel::new("h", (256, 256, 64), Elem::Bf16, cfg).unwrap();
    /// assert!(h.source.contains("cvt.rn.bf16x2.f32") && h.source.contains("unsigned short* __restrict__ C"));
    /// let f = GemmConfig { c_elem: Elem::F16, ..GemmConfig::default() };
    /// assert!(GemmKernel::new("x", (256, 256, 64), Elem::Bf16, f).is_err());
    /// ```
    pub fn new(name: &str, mnk: (i64, i64, i64), elem: Elem, config: GemmConfig) -> Result<GemmKernel> {
        let p = plan::gemm_sm80::plan(Sm80Extents::fixed(mnk, (config.a_k_major, config.b_k_major)), elem, config)?;
        let source = emit::gemm_sm80::source(name, &p)?;
        Ok(GemmKernel {
            name: name.to_string(),
            elem,
            mnk,
            config,
            a: p.a,
            b: p.b,
            c: p.c,
            smem_a: p.smem_a,
            smem_b: p.smem_b,
            plan_a: p.plan_a,
            plan_b: p.plan_b,
            plan_c: p.plan_c,
            cost_a: p.cost_a,
            cost_b: p.cost_b,
            reasoning: p.reasoning,
            smem_bytes: p.smem_bytes as u32,
            source,
        })
    }

    /// The grid, `(ceil(M/BM), ceil(N/BN))`.
    ///
    /// Pre: none. Post: the number of block tiles along M and N.
    ///
    /// ```
    /// use kute_cuda::{gemm::{GemmConfig, GemmKernel}, Elem};
    /// let cfg = GemmConfig { bm: 64, bn: 128, ..GemmConfig::default() };
    /// let k = GemmKernel::new("g", (200, 300, 64), Elem::F16, cfg).unwrap();
    /// assert_eq!(k.blocks(), (4, 3)); // (ceil(200 / 64), ceil(300 / 128))
    /// ```
    pub fn blocks(&self) -> (u32, u32) {
        (ceil_div(self.mnk.0, self.config.bm) as u32, ceil_div(self.mnk.1, self.config.bn) as u32)
    }
}

/// The SM80 GEMM compiled once for every size: `M`, `N`, `K`, the
/// leading dimensions, the batch and the batch strides are kernel
/// arguments (the plan is made on unknowns with the facts every launch
/// guarantees, [`SizeFacts`]); a grid of `(M-tiles, N-tiles, batch)`.
/// What the library runs on GPUs other than Hopper.
#[derive(Clone, Debug)]
pub struct Sm80GemmAtLaunch {
    /// The kernel's name.
    pub name: String,
    /// The inputs' type (f16 or bf16).
    pub elem: Elem,
    /// The tile, pipeline, majors and `C`'s type.
    pub config: GemmConfig,
    /// What every launch guarantees.
    pub facts: SizeFacts,
    /// The fused epilogue (`alpha`, `beta` and the bias given at launch).
    pub op: EpilogueOp,
    /// Whether the kernel guards the edges (the facts leave sizes off the tile grid).
    pub predicated: bool,
    /// Bytes of dynamic shared memory per block.
    pub smem_bytes: u32,
    /// The CUDA C++ source: `NAME(A, B, C, M, N, K, LDA, LDB, LDC, L, SA,
    /// SB, SC, alpha[, beta][, bias])`, and split-K's `NAME_split(A, B, C,
    /// sizes, W, S)` and `NAME_finish(W, C, sizes, alpha[, beta][, bias],
    /// S)`.
    pub source: String,
}

/// A problem for an [`Sm80GemmAtLaunch`]: its sizes, checked against the
/// facts and the kernel's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sm80Problem {
    /// `(M, N, K)`.
    pub mnk: (i64, i64, i64),
    /// Matrices in the batch.
    pub batch: i64,
    /// The leading dimensions of A, B and C.
    pub ld: (i64, i64, i64),
    /// The batch strides of A, B and C.
    pub batch_stride: (i64, i64, i64),
    /// The grid: `(M-tiles, N-tiles, batch)`.
    pub grid: (u32, u32, u32),
    /// k-tiles of each block tile.
    pub ktiles: i64,
    /// The k-tiles' splits (split-K), or `None` for
    /// [`Sm80Problem::split_heuristic`]'s choice at launch.
    pub splits: Option<i64>,
}

impl Sm80Problem {
    /// The splits of each tile's k-tiles for a GPU of `sms`
    /// multiprocessors: the SM90 rule ([`crate::gemm_sm90::splits_for`]).
    ///
    /// Pre: none. Post: 1 to 16.
    ///
    /// ```
    /// use kute_cuda::{gemm::{GemmConfig, Sm80GemmAtLaunch}, gemm_sm90::SizeFacts, Elem};
    /// let g = Sm80GemmAtLaunch::new("g", Elem::F16, GemmConfig::default(), SizeFacts::default()).unwrap();
    /// assert_eq!(g.problem((4096, 4096, 4096)).unwrap().split_heuristic(108), 1); // 1024 tiles
    /// assert_eq!(g.problem((256, 256, 16384)).unwrap().split_heuristic(108), 16); // 4 tiles, 512 k-tiles
    /// ```
    pub fn split_heuristic(&self, sms: u32) -> i64 {
        let (gx, gy, gz) = self.grid;
        crate::gemm_sm90::splits_for(gx as i64 * gy as i64 * gz as i64, self.ktiles, sms)
    }

    /// The problem with its k-tiles split `splits` ways (pinned).
    ///
    /// Pre: none (the launch checks `1 <= splits <= min(k-tiles, 16)`).
    /// Post: the problem.
    ///
    /// ```
    /// use kute_cuda::{gemm::{GemmConfig, Sm80GemmAtLaunch}, gemm_sm90::SizeFacts, Elem};
    /// let g = Sm80GemmAtLaunch::new("g", Elem::F16, GemmConfig::default(), SizeFacts::default()).unwrap();
    /// assert_eq!(g.problem((128, 128, 1024)).unwrap().with_splits(4).splits, Some(4));
    /// ```
    pub fn with_splits(self, splits: i64) -> Sm80Problem {
        Sm80Problem { splits: Some(splits), ..self }
    }

    /// The elements each of A, B and C spans (A and B K-major as `k_major`
    /// says): what their buffers must hold.
    ///
    /// Pre: none. Post: `(A, B, C)`.
    ///
    /// ```
    /// use kute_cuda::{gemm::{GemmConfig, Sm80GemmAtLaunch}, gemm_sm90::SizeFacts, Elem};
    /// let g = Sm80GemmAtLaunch::new("g", Elem::F16, GemmConfig::default(), SizeFacts::default()).unwrap();
    /// assert_eq!(g.problem((300, 200, 72)).unwrap().spans((true, true)), (300 * 72, 200 * 72, 300 * 200));
    /// ```
    pub fn spans(&self, k_major: (bool, bool)) -> (i64, i64, i64) {
        crate::gemm_sm90::operand_spans(self.mnk, self.batch, (self.ld, self.batch_stride), k_major)
    }
}

impl Sm80GemmAtLaunch {
    /// Plans the kernel of `config` for every size the facts allow.
    ///
    /// Pre: as [`GemmKernel::new`] for the tile; the facts' divisors
    /// positive, the operands' contiguous extents declared multiples of 8
    /// (16-byte vectors). Post: the kernel, or an `Unsupported` error.
    ///
    /// ```
    /// use kute_cuda::{gemm::{GemmConfig, Sm80GemmAtLaunch}, gemm_sm90::SizeFacts, Elem};
    /// let g = Sm80GemmAtLaunch::new("g", Elem::F16, GemmConfig::default(), SizeFacts::default()).unwrap();
    /// assert!(g.predicated && g.source.contains("const long long LDA"));
    /// let p = g.problem_batched((300, 200, 72), 2, (80, 72, 200), (300 * 80, 200 * 72, 300 * 200)).unwrap();
    /// assert_eq!(p.grid, (3, 2, 2));
    /// assert!(g.problem((300, 200, 70)).is_err()); // K declared a multiple of 8
    /// let tiled = SizeFacts { m_div: 128, n_div: 128, k_div: 32 };
    /// assert!(!Sm80GemmAtLaunch::new("t", Elem::F16, GemmConfig::default(), tiled).unwrap().predicated);
    /// ```
    pub fn new(name: &str, elem: Elem, config: GemmConfig, facts: SizeFacts) -> Result<Sm80GemmAtLaunch> {
        Sm80GemmAtLaunch::with_op(name, elem, config, facts, EpilogueOp::default())
    }

    /// As [`Sm80GemmAtLaunch::new`], each sum `x` stored as
    /// `activation(alpha · x + beta · C + bias)` (`op`).
    ///
    /// Pre and Post: as `new`; the kernels take `alpha` (and `beta`, and
    /// the bias's f32 pointer, where `op` has them) after the sizes.
    ///
    /// ```
    /// use kute_cuda::gemm_sm90::{Activation, BiasMode, EpilogueOp, SizeFacts};
    /// use kute_cuda::{gemm::{GemmConfig, Sm80GemmAtLaunch}, Elem};
    /// let op = EpilogueOp { bias: BiasMode::PerRow, activation: Activation::Relu, beta: true };
    /// let g = Sm80GemmAtLaunch::with_op("g", Elem::Bf16, GemmConfig::default(), SizeFacts::default(), op).unwrap();
    /// assert!(g.source.contains("const float alpha, const float beta, const float* __restrict__ bias)"));
    /// ```
    pub fn with_op(
        name: &str,
        elem: Elem,
        config: GemmConfig,
        facts: SizeFacts,
        op: EpilogueOp,
    ) -> Result<Sm80GemmAtLaunch> {
        let unknown = |n: &str, div: i64| -> Result<Int> {
            if div < 1 {
                return Err(Error::unsupported(OP, format!("{n} declared a multiple of {div} (a positive divisor)")));
            }
            Ok(Int::symbolic(kute::sym::Sym::var_div(n, div)?)?)
        };
        // the operands' leading dimensions and strides: whole 16-byte vectors
        let vec = 16 / elem.bytes().max(1);
        let extents = Sm80Extents {
            mnk: (unknown("M", facts.m_div)?, unknown("N", facts.n_div)?, unknown("K", facts.k_div)?),
            ld: (unknown("LDA", vec)?, unknown("LDB", vec)?, unknown("LDC", facts.n_div)?),
            batch: Some((unknown("L", 1)?, (unknown("SA", vec)?, unknown("SB", vec)?, unknown("SC", facts.n_div)?))),
            op: Some(op),
        };
        let p = plan::gemm_sm80::plan(extents, elem, config)?;
        let source = emit::gemm_sm80::source(name, &p)?;
        Ok(Sm80GemmAtLaunch {
            name: name.to_string(),
            elem,
            config,
            facts,
            op,
            predicated: p.predicated,
            smem_bytes: p.smem_bytes as u32,
            source,
        })
    }

    /// The problem `(M, N, K)`: one matrix of each, contiguous.
    ///
    /// Pre and Post: as [`Sm80GemmAtLaunch::problem_batched`].
    ///
    /// ```
    /// use kute_cuda::{gemm::{GemmConfig, Sm80GemmAtLaunch}, gemm_sm90::SizeFacts, Elem};
    /// let g = Sm80GemmAtLaunch::new("g", Elem::F16, GemmConfig::default(), SizeFacts::default()).unwrap();
    /// let p = g.problem((300, 200, 72)).unwrap();
    /// assert_eq!((p.ld, p.grid, p.ktiles), ((72, 72, 200), (3, 2, 1), 3));
    /// ```
    pub fn problem(&self, (m, n, k): (i64, i64, i64)) -> Result<Sm80Problem> {
        let ld = (if self.config.a_k_major { k } else { m }, if self.config.b_k_major { k } else { n }, n);
        self.problem_batched((m, n, k), 1, ld, (m * k, n * k, m * n))
    }

    /// The problem of `batch` products `(M, N, K)`, the operands' rows `ld`
    /// elements apart and their matrices `batch_stride` apart (A, B, C).
    ///
    /// Pre: `M`, `N`, `K` positive multiples of the facts' divisors and
    /// below 2^31; each leading dimension at least its row's length and a
    /// multiple of 8 (A, B) or of `facts.n_div` (C), as are the batch
    /// strides; `C`'s matrices apart; fewer than 2^16 tiles along N and
    /// matrices (the grid's limits) (else an `Unsupported` error naming the
    /// value and the rule). Post: the problem.
    ///
    /// ```
    /// use kute_cuda::{gemm::{GemmConfig, Sm80GemmAtLaunch}, gemm_sm90::SizeFacts, Elem};
    /// let g = Sm80GemmAtLaunch::new("g", Elem::F16, GemmConfig::default(), SizeFacts::default()).unwrap();
    /// // A's rows 80 apart, a batch of 2
    /// assert!(g.problem_batched((300, 200, 72), 2, (80, 72, 200), (300 * 80, 200 * 72, 300 * 200)).is_ok());
    /// assert!(g.problem_batched((300, 200, 72), 2, (70, 72, 200), (300 * 80, 200 * 72, 300 * 200)).is_err()); // lda < K
    /// assert!(g.problem_batched((300, 200, 72), 2, (72, 72, 200), (300 * 72, 200 * 72, 1000)).is_err()); // Cs overlap
    /// ```
    pub fn problem_batched(
        &self,
        (m, n, k): (i64, i64, i64),
        batch: i64,
        ld: (i64, i64, i64),
        batch_stride: (i64, i64, i64),
    ) -> Result<Sm80Problem> {
        let bad = |why: String| Err(Error::unsupported("sm80 gemm at launch", format!("{}: {why}", self.name)));
        let f = self.facts;
        if let Some(why) = f.refusal((m, n, k)) {
            return bad(why);
        }
        if batch < 1 || batch > u16::MAX as i64 {
            return bad(format!("a batch of {batch} (1 to 65535)"));
        }
        let vec = 16 / self.elem.bytes().max(1);
        let GemmConfig { a_k_major, b_k_major, bm, bn, .. } = self.config;
        // (name, leading dimension, the row's length, the rows, the batch stride, its divisor)
        let operands = [
            ("A", ld.0, if a_k_major { k } else { m }, if a_k_major { m } else { k }, batch_stride.0, vec),
            ("B", ld.1, if b_k_major { k } else { n }, if b_k_major { n } else { k }, batch_stride.1, vec),
            ("C", ld.2, n, m, batch_stride.2, f.n_div),
        ];
        for (what, l, row, rows, stride, div) in operands {
            if l < row || l % div != 0 {
                return bad(format!(
                    "{what}'s leading dimension {l}: at least its rows' {row} elements, a multiple of {div}"
                ));
            }
            if batch > 1 && (stride < 0 || stride % div != 0) {
                return bad(format!("{what}'s batch stride {stride}: a multiple of {div}"));
            }
            if what == "C" && batch > 1 && stride < (rows - 1) * l + row {
                return bad(format!(
                    "C's matrices overlap: batch stride {stride} under the {} elements of one",
                    (rows - 1) * l + row
                ));
            }
        }
        let tiles = (ceil_div(m, bm), ceil_div(n, bn));
        if tiles.0 > i32::MAX as i64 || tiles.1 > u16::MAX as i64 {
            return bad(format!("{} x {} tiles (at most 2^31 - 1 along M, 65535 along N)", tiles.0, tiles.1));
        }
        // a batch of one: its strides unused (0)
        let batch_stride = if batch > 1 { batch_stride } else { (0, 0, 0) };
        Ok(Sm80Problem {
            mnk: (m, n, k),
            batch,
            ld,
            batch_stride,
            grid: (tiles.0 as u32, tiles.1 as u32, batch as u32),
            ktiles: ceil_div(k, self.config.bk),
            splits: None,
        })
    }
}

/// A plain GEMM for checking: one thread per element of `C`, f32
/// accumulation in order of K, the same operand layouts.
///
/// Pre: `elem` f16 or bf16. Post: a kernel `name(A, B, C)` for blocks of
/// 256 threads over `M·N` elements, reading `A` and `B` with the majors of
/// `config`.
///
/// ```
/// use kute_cuda::{gemm::{reference_source, GemmConfig}, Elem};
/// let nt = GemmConfig { a_k_major: false, ..GemmConfig::default() };
/// let s = reference_source("r", (200, 300, 64), Elem::Bf16, &nt).unwrap();
/// assert!(s.contains("__launch_bounds__(256) r("));
/// assert!(s.contains("A[l * 200LL + i]")); // M-major A: element (i, l) at l·M + i
/// assert!(s.contains("B[j * 64LL + l]")); // K-major B: element (j, l) at j·K + l
/// assert!(reference_source("r", (8, 8, 8), Elem::F32, &nt).is_err());
/// ```
pub fn reference_source(name: &str, mnk: (i64, i64, i64), elem: Elem, config: &GemmConfig) -> Result<String> {
    if elem == Elem::F32 {
        return Err(Error::unsupported(OP, "f32 inputs"));
    }
    Ok(emit::gemm_sm80::reference(name, mnk, elem, config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operand_layout_and_tile_takes_the_split_addresses() {
        // (all 266 tiles and layouts the Pre admits were checked once; these are a sample)
        let layouts = [(true, true), (false, false), (false, true), (true, false)];
        let cases = layouts.map(|(a, b)| (a, b, 128, 128, 32, Elem::F16)).into_iter().chain([(
            true,
            true,
            64,
            64,
            64,
            Elem::Bf16,
        )]);
        for (a_k_major, b_k_major, bm, bn, bk, elem) in cases {
            let cfg = GemmConfig { bm, bn, bk, stages: 2, a_k_major, b_k_major, ..GemmConfig::default() };
            let g = GemmKernel::new("g", (512, 512, 256), elem, cfg).unwrap();
            for part in ["sa_frag0 ^", "sb_frag0 ^", "sa_copy0 ^", "sb_copy0 ^"] {
                assert!(g.source.contains(part), "{} {elem}: no {part}", cfg.blas());
            }
        }
    }
}
