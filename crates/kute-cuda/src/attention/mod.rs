//! Attention's forward pass from layouts: `O = softmax(Q·Kᵀ·scale [+ causal
//! mask])·V` and the log-sum-exp of each row, FlashAttention-2's structure
//! on SM80 `mma.sync` (the plan; its kernel text comes with the emit layer).
//!
//! A block owns `block_m` query rows; its `warps` warps each own 16 rows
//! of every `16·warps`-row slab. For each `block_n` keys it multiplies
//! `S = Q·Kᵀ` (`mma.sync` m16n8k16, f32 accumulators), keeps each row's
//! running maximum and sum (the threads that share a row, read off the
//! accumulator layout, combine theirs with lane shuffles), turns its `S`
//! registers into the `P` operand of `O += P·V` in place (the re-layout
//! from the accumulator to the A operand is derived with kute's algebra:
//! `left_inverse(S) ∘ P` maps each `P` register to the `S` register holding
//! its value, in the same thread), and rescales `O`.
//!
//! The key and value tiles have one shared buffer each, their copies
//! staggered as FlashAttention-2 does: `V(n)` lands while `S(n)` is
//! computed, `K(n - 1)` while `O += P·V(n)` is. The key blocks run from
//! the last to the first, so that the blocks a mask touches (the tail of
//! `Lk`, the causal diagonal) come first; the blocks a causal mask hides
//! whole are skipped.
//!
//! [`attention`] is the library call: `Q`, `K`, `V` and `O` described by
//! kute layouts of shape `(seq, dim, heads, batch)`, the kernel compiled
//! once per element type, head dimension, tile and mask and kept per GPU.

mod sm90;

pub use sm90::{describe_sm90, MapSpec, Sm90AttentionConfig, Sm90AttentionKernel};

use crate::gpu::Gpu;
use crate::{Elem, Error, Result};
use cudarc::driver::{CudaSlice, DeviceRepr};
use kute::Layout;

/// The choices of the SM80 attention kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AttentionConfig {
    /// The head dimension `d` (64, 128 or 256).
    pub head_dim: i64,
    /// Query rows per block: a multiple of `16 · warps`.
    pub block_m: i64,
    /// Keys per step: a multiple of 16.
    pub block_n: i64,
    /// Warps per block.
    pub warps: i64,
    /// Whether keys after a query's position are masked, aligned at the
    /// end (FlashAttention's convention): query `i` of `Lq` sees keys up
    /// to `i + Lk - Lq`. PyTorch's `is_causal` aligns at the start (query
    /// `i` sees keys up to `i`); the two agree where `Lq = Lk`. A query
    /// that sees no key (`i + Lk - Lq < 0`) gets `O = 0` and an LSE of
    /// `-inf`.
    pub causal: bool,
    /// `K`'s and `V`'s fragments loaded by `ldmatrix.x4`, two MMA tiles of
    /// 8 keys (of `K`) or 8 columns (of `V`) per instruction (CuTe's tiled
    /// MMA permuted to 16 along N, as FlashAttention-2's), rather than by
    /// `.x2`, one tile each: half the `ldmatrix` instructions.
    pub kv_x4: bool,
    /// How far ahead of their MMAs the fragments are loaded, in groups of
    /// MMAs (a group: the MMAs of one `K` or `V` load at one k-step, with
    /// `Q`'s loads at the first of a k-step): 0 loads each group's
    /// fragments right before its MMAs; `g` issues group `i + g`'s loads
    /// before group `i`'s MMAs, hiding an `ldmatrix`'s latency behind `g`
    /// groups of MMAs at the cost of `g` groups' registers (0 to 8).
    pub frag_prefetch: i64,
    /// Tiles of `K` and `V` in shared memory, 1 or 2. With one (as
    /// FlashAttention-2), `V(n)` is copied while `S = Q·K(n)ᵀ` is
    /// multiplied and `K(n - 1)` while `O += P·V(n)` is, each copy waited
    /// for half a step later. With two, block `n - 1`'s `K` and `V` are
    /// copied into the other tiles while block `n` is computed: a whole
    /// step to land and one barrier per step, for twice the shared memory
    /// of `K` and `V`.
    pub kv_stages: i64,
}

/// The fragments' prefetch distance of the default tiles (see
/// [`AttentionConfig::frag_prefetch`]).
pub const FRAG_PREFETCH: i64 = 1;

impl Default for AttentionConfig {
    /// FlashAttention-2's forward tile for `d = 128`: 128 query rows, 64
    /// keys per step, four warps, not causal.
    fn default() -> AttentionConfig {
        AttentionConfig {
            head_dim: 128,
            block_m: 128,
            block_n: 64,
            warps: 4,
            causal: false,
            kv_x4: true,
            frag_prefetch: FRAG_PREFETCH,
            kv_stages: 1,
        }
    }
}

impl AttentionConfig {
    /// The configuration's rules: `d` of 64, 128 or 256; `block_m` a
    /// multiple of `16 · warps`; `block_n` a multiple of 16 and of `256 ·
    /// warps / d` (V's copy); 1 to 8 warps; a prefetch of 0 to 8 groups;
    /// 16-bit inputs.
    ///
    /// Pre: none. Post: `Ok` where the rules hold, else an `Unsupported`
    /// error naming the one broken.
    ///
    /// ```
    /// use kute_cuda::{attention::AttentionConfig, Elem};
    /// assert!(AttentionConfig::default().check(Elem::F16).is_ok());
    /// let odd = AttentionConfig { block_m: 96, ..AttentionConfig::default() };
    /// assert!(odd.check(Elem::F16).unwrap_err().to_string().contains("block_m"));
    /// assert!(AttentionConfig::default().check(Elem::F32).is_err());
    /// ```
    pub fn check(&self, elem: Elem) -> Result<()> {
        const OP: &str = "attention";
        let AttentionConfig { head_dim, block_m, block_n, warps, frag_prefetch, kv_stages, .. } = *self;
        let bad = |why: String| Err(Error::unsupported(OP, why));
        if !matches!(elem, Elem::F16 | Elem::Bf16) {
            return bad(format!("{elem} inputs (f16 or bf16)"));
        }
        if ![64, 128, 256].contains(&head_dim) {
            return bad(format!("head_dim {head_dim} (64, 128 or 256)"));
        }
        if !(1..=8).contains(&warps) {
            return bad(format!("{warps} warps (1 to 8)"));
        }
        if block_m < 16 * warps || block_m % (16 * warps) != 0 {
            return bad(format!("block_m {block_m}: a multiple of 16 · warps = {}", 16 * warps));
        }
        if !(0..=8).contains(&frag_prefetch) {
            return bad(format!("frag_prefetch {frag_prefetch} (0 to 8)"));
        }
        if !(1..=2).contains(&kv_stages) {
            return bad(format!("kv_stages {kv_stages} (1 or 2)"));
        }
        if block_n < 16 || block_n % 16 != 0 {
            return bad(format!("block_n {block_n}: a multiple of 16"));
        }
        // V's tile (d, block_n) is copied in 16-byte vectors down d: the
        // threads then cover 32 · warps · 8 / d keys per pass
        let per_pass = (32 * warps * 8 / head_dim).max(1);
        if block_n % per_pass != 0 {
            return bad(format!("block_n {block_n}: a multiple of {per_pass} (V's copy by {} threads)", 32 * warps));
        }
        Ok(())
    }
}

/// The plan of the SM80 kernel for `config` and `elem`, as text: the MMA
/// atom, each operand's fragments (thread `t`'s value `v` of repeat `r` at
/// `frag(t + threads · v) + rep(r)`, column-major in its tile), the
/// re-layout of `S`'s registers into `P`'s, and the lanes sharing a row.
///
/// Pre: the rules of [`AttentionConfig::check`]. Post: the text, or the
/// error naming the broken rule or the plan's claim that fails.
///
/// ```
/// use kute_cuda::{attention::{describe, AttentionConfig}, Elem};
/// let text = describe(AttentionConfig::default(), Elem::F16).unwrap();
/// assert!(text.contains("SM80_16x8x16_F32F16F16F32_TN"));
/// assert!(text.contains("row lanes: XOR 1, 2"));
/// ```
pub fn describe(config: AttentionConfig, elem: Elem) -> Result<String> {
    use std::fmt::Write as _;
    let p = crate::plan::attention_sm80::plan(config, elem)?;
    let AttentionConfig { head_dim: d, block_m: bm, block_n: bn, warps, causal, kv_x4, frag_prefetch, kv_stages } =
        p.config;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "attention forward, {} inputs, d = {d}, {bm} query rows x {bn} keys per step, {warps} warps ({} threads){}, K and V by ldmatrix.{}, fragments loaded {frag_prefetch} MMA groups ahead, {kv_stages} stage(s) of K and V",
        p.elem,
        p.threads,
        if causal { ", causal" } else { "" },
        if kv_x4 { "x4" } else { "x2" }
    );
    let _ = writeln!(o, "MMA atom: {}, warps along M", p.atom);
    for (what, f) in [
        ("Q (A of S = Q·Kᵀ)", &p.q),
        ("K (B of S)", &p.k),
        ("S (C)", &p.s),
        ("P (A of O = P·V)", &p.p),
        ("V (B of O, (d, keys))", &p.v),
        ("O (C)", &p.o),
    ] {
        let _ = writeln!(
            o,
            "{what} over {:?}: frag {}, rep {} ({} values x {} repeats per thread)",
            f.tile, f.frag, f.rep, f.values, f.repeats
        );
    }
    let _ = writeln!(o, "P from S (left_inverse(S) ∘ P, registers of the same thread): {}", p.p_from_s);
    let worst = |c: &[kute::analysis::BankReport]| c.iter().map(|r| r.degree()).fold(0.0, f64::max);
    for (what, t) in ["Q", "K", "V"].iter().zip(&p.smem) {
        let _ = writeln!(
            o,
            "shared {what}: {} (cp.async {} by TV {}, worst {:.0}-way; ldmatrix rows {}, rep {}, worst {:.0}-way)",
            t.layout,
            what,
            t.copy_tv,
            worst(&t.cost[0]),
            t.ldsm,
            t.rep,
            worst(&t.cost[1])
        );
        for line in &t.reasoning {
            let _ = writeln!(o, "  {line}");
        }
    }
    let masks: Vec<String> = p.row_masks.iter().map(|m| m.to_string()).collect();
    let _ = writeln!(o, "row lanes: XOR {}", masks.join(", "));
    let _ = writeln!(
        o,
        "kernel: {} bytes of shared memory (Q, and {} of K and V), Q {}",
        p.smem_bytes,
        if kv_stages == 1 { "one tile each" } else { "two tiles each" },
        if p.q_in_registers { "in registers" } else { "read from shared memory at each key block" }
    );
    Ok(o)
}

impl AttentionConfig {
    /// The forward tiles measured fastest (H200, f16): 128 query rows, four
    /// warps and 128 keys per step at `d = 64`, 64 keys at 128; eight warps
    /// and 80 keys at 256 (one warp's 16 rows of `O` at `d = 256` take 128
    /// registers; `Q` and two stages of 80 keys fill 224 KiB); `K` and `V`
    /// double-buffered, each group's fragments loaded right before its
    /// MMAs.
    ///
    /// Pre: none. Post: a configuration of head dimension `head_dim`
    /// (checked by [`AttentionConfig::check`] where it is used).
    ///
    /// ```
    /// use kute_cuda::{attention::AttentionConfig, Elem};
    /// let c = AttentionConfig::for_head_dim(256, true);
    /// assert_eq!((c.block_m, c.block_n, c.warps, c.causal, c.kv_stages), (128, 80, 8, true, 2));
    /// assert!(c.check(Elem::Bf16).is_ok());
    /// ```
    pub fn for_head_dim(head_dim: i64, causal: bool) -> AttentionConfig {
        // (H200, f16, TFLOP/s, one run: d = 64, 4 x 32 heads x 4096: 128x128
        // 341, 128x64 330; d = 128, 4 x 16 x 4096: 128x64 380, one stage
        // 355; d = 256, 2 x 16 x 8192, eight warps: 128x80 342, 128x64 318,
        // 128x48 316, and 64x64 with four warps and one stage (two blocks an
        // SM) 307)
        let (warps, block_n) = match head_dim {
            64 => (4, 128),
            128 => (4, 64),
            _ => (8, 80),
        };
        AttentionConfig { head_dim, block_m: 128, block_n, warps, causal, kv_x4: true, frag_prefetch: 0, kv_stages: 2 }
    }

    /// Bytes of shared memory a block of this configuration takes: `Q`'s
    /// tile and `kv_stages` tiles each of `K` and `V`.
    ///
    /// Pre: none. Post: `(block_m · d + 2 · kv_stages · block_n · d)` elements
    /// of `elem`.
    ///
    /// ```
    /// use kute_cuda::{attention::AttentionConfig, Elem};
    /// assert_eq!(AttentionConfig::for_head_dim(256, false).smem_bytes(Elem::F16), 224 * 1024);
    /// ```
    pub fn smem_bytes(&self, elem: Elem) -> i64 {
        (self.block_m + 2 * self.kv_stages * self.block_n) * self.head_dim * elem.bytes()
    }

    /// The fastest tile of [`AttentionConfig::for_head_dim`] that fits
    /// `max_smem` bytes of shared memory per block (a GPU's opt-in limit:
    /// 227 KiB on Hopper, 163 KiB on the A100, 99 KiB on other Ampere and
    /// Ada GPUs): that tile, else it with one stage of `K` and `V`, else
    /// 64 query rows by 64 keys with four warps and one stage
    /// (FlashAttention-2's tile where shared memory is short), else 64 by
    /// 32.
    ///
    /// Pre: none. Post: the first of those that fits, or the last.
    ///
    /// ```
    /// use kute_cuda::{attention::AttentionConfig, Elem};
    /// let a100 = AttentionConfig::fitting(256, false, Elem::F16, 163 * 1024);
    /// assert_eq!((a100.block_m, a100.block_n, a100.kv_stages), (128, 80, 1));
    /// let ada = AttentionConfig::fitting(256, false, Elem::F16, 99 * 1024);
    /// assert_eq!((ada.block_m, ada.block_n, ada.warps, ada.kv_stages), (64, 64, 4, 1));
    /// assert_eq!(AttentionConfig::fitting(128, true, Elem::Bf16, 99 * 1024), AttentionConfig::for_head_dim(128, true));
    /// ```
    pub fn fitting(head_dim: i64, causal: bool, elem: Elem, max_smem: i64) -> AttentionConfig {
        let best = AttentionConfig::for_head_dim(head_dim, causal);
        let short = AttentionConfig { block_m: 64, block_n: 64, warps: 4, kv_stages: 1, ..best };
        let candidates =
            [best, AttentionConfig { kv_stages: 1, ..best }, short, AttentionConfig { block_n: 32, ..short }];
        candidates.into_iter().find(|c| c.smem_bytes(elem) <= max_smem).unwrap_or(candidates[3])
    }
}

/// The SM80 attention forward kernel of one configuration: its CUDA source
/// and what a launch needs. One kernel serves every shape: the lengths,
/// heads and strides are its arguments.
#[derive(Clone, Debug)]
pub struct AttentionKernel {
    /// The kernel's name.
    pub name: String,
    /// The configuration.
    pub config: AttentionConfig,
    /// The inputs' type (f16 or bf16).
    pub elem: Elem,
    /// Threads per block.
    pub threads: u32,
    /// Bytes of dynamic shared memory per block.
    pub smem_bytes: u32,
    /// Whether `Q`'s fragments stay in registers (else they are read from
    /// shared memory at each key block).
    pub q_in_registers: bool,
    /// The CUDA source: `name(Q, K, V, O, LSE, params)`.
    pub source: String,
}

impl AttentionKernel {
    /// Plans and writes the kernel `name` for `config` and `elem`.
    ///
    /// Pre: the rules of [`AttentionConfig::check`]. Post: the kernel, or
    /// the error naming the broken rule or plan claim.
    ///
    /// ```
    /// use kute_cuda::{attention::{AttentionConfig, AttentionKernel}, Elem};
    /// let k = AttentionKernel::new("attn", AttentionConfig::default(), Elem::F16).unwrap();
    /// assert_eq!((k.threads, k.smem_bytes), (128, (128 * 128 + 2 * 64 * 128) * 2));
    /// assert!(k.source.contains("ex2.approx.ftz.f32") && k.source.contains("ldmatrix.sync.aligned.m8n8.x2.trans"));
    /// assert_eq!(k.grid(1000, 16, 2), (8, 16, 2)); // ceil(1000 / 128) query blocks, heads, batch
    /// ```
    pub fn new(name: &str, config: AttentionConfig, elem: Elem) -> Result<AttentionKernel> {
        let p = crate::plan::attention_sm80::plan(config, elem)?;
        let source = crate::emit::attention_sm80::source(name, &p)?;
        Ok(AttentionKernel {
            name: name.to_string(),
            config,
            elem,
            threads: p.threads as u32,
            smem_bytes: p.smem_bytes as u32,
            q_in_registers: p.q_in_registers,
            source,
        })
    }

    /// The kernel's name for `config` and `elem` in the library's cache
    /// (one source per name, so the disk cache finds it again).
    ///
    /// Pre: none. Post: a C identifier naming every field of `config`.
    ///
    /// ```
    /// use kute_cuda::{attention::{AttentionConfig, AttentionKernel}, Elem};
    /// let name = AttentionKernel::name_of(AttentionConfig::default(), Elem::Bf16);
    /// assert_eq!(name, "kute_attention_bf16_d128_128x64_w4");
    /// let x2 = AttentionConfig { kv_x4: false, ..AttentionConfig::default() };
    /// assert_eq!(AttentionKernel::name_of(x2, Elem::F16), "kute_attention_f16_d128_128x64_w4_x2");
    /// let pf0 = AttentionConfig { frag_prefetch: 0, ..x2 };
    /// assert_eq!(AttentionKernel::name_of(pf0, Elem::F16), "kute_attention_f16_d128_128x64_w4_x2_pf0");
    /// ```
    pub fn name_of(config: AttentionConfig, elem: Elem) -> String {
        let AttentionConfig { head_dim, block_m, block_n, warps, causal, kv_x4, frag_prefetch, kv_stages } = config;
        let c = if causal { "_causal" } else { "" };
        let x2 = if kv_x4 { "" } else { "_x2" };
        let pf = if frag_prefetch == FRAG_PREFETCH { String::new() } else { format!("_pf{frag_prefetch}") };
        let st = if kv_stages == 1 { String::new() } else { format!("_kv{kv_stages}") };
        format!("kute_attention_{elem}_d{head_dim}_{block_m}x{block_n}_w{warps}{c}{x2}{pf}{st}")
    }

    /// The grid for `lq` queries, `heads` query heads and `batch`: a block
    /// per `block_m` queries of each head of each batch entry.
    ///
    /// Pre: sizes within the grid's limits (checked by [`attention`]).
    /// Post: `(ceil(lq / block_m), heads, batch)`.
    ///
    /// ```
    /// use kute_cuda::{attention::{AttentionConfig, AttentionKernel}, Elem};
    /// let k = AttentionKernel::new("a", AttentionConfig::for_head_dim(128, false), Elem::F16)?;
    /// assert_eq!(k.grid(300, 16, 2), (3, 16, 2)); // 128 queries a block
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn grid(&self, lq: i64, heads: i64, batch: i64) -> (u32, u32, u32) {
        (((lq + self.config.block_m - 1) / self.config.block_m) as u32, heads as u32, batch as u32)
    }
}

/// The kernel's sizes and strides, passed by value (the CUDA struct
/// `kute_attention_params` of the emitted source, field for field): each
/// tensor's `(batch, seq, head)` strides in elements, the lengths, the
/// query heads per key head, `scale · log2(e)`, the query heads and the
/// batch entries (the SM90 kernel's tiles; the SM80 kernel's grid has them).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Params {
    pub q: [i64; 3],
    pub k: [i64; 3],
    pub v: [i64; 3],
    pub o: [i64; 3],
    pub lse: [i64; 3],
    pub lq: i32,
    pub lk: i32,
    pub group: i32,
    pub scale_log2: f32,
    pub heads: i32,
    pub batch: i32,
}

// SAFETY: plain integers and a float, laid out as the kernel's C struct.
unsafe impl DeviceRepr for Params {}

/// `Q`, `K` or `V` on the GPU: 16-bit elements (f16 or bf16 bits) and a
/// layout of shape `(seq, dim, heads, batch)` to offsets in `data` (the
/// last modes may be left out: one head, one batch entry).
pub struct Heads<'a> {
    /// The elements.
    pub data: &'a CudaSlice<u16>,
    /// `(seq, dim, heads, batch)` to offset.
    pub layout: Layout,
}

/// `O`, written by the call (see [`Heads`]).
pub struct HeadsMut<'a> {
    /// The elements.
    pub data: &'a mut CudaSlice<u16>,
    /// `(seq, dim, heads, batch)` to offset.
    pub layout: Layout,
}

/// The log-sum-exp of each query row (f32, natural log), written by the
/// call: a layout of shape `(seq, heads, batch)` to offsets in `data`.
pub struct Lse<'a> {
    /// The values.
    pub data: &'a mut CudaSlice<f32>,
    /// `(seq, heads, batch)` to offset.
    pub layout: Layout,
}

/// The tensors of one [`attention`] call.
pub struct AttentionTensors<'a> {
    /// The queries, `(Lq, d, h_q, batch)`.
    pub q: Heads<'a>,
    /// The keys, `(Lk, d, h_kv, batch)`, `h_kv` dividing `h_q`.
    pub k: Heads<'a>,
    /// The values, `(Lk, d, h_kv, batch)`.
    pub v: Heads<'a>,
    /// The output, `(Lq, d, h_q, batch)`.
    pub o: HeadsMut<'a>,
    /// Where given, each query row's log-sum-exp, `(Lq, h_q, batch)`.
    pub lse: Option<Lse<'a>>,
}

/// The options of [`attention`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AttentionOptions {
    /// The scores' factor: `1/sqrt(d)` where `None` (the default). Positive.
    pub scale: Option<f32>,
    /// The causal mask, aligned at the end (see [`AttentionConfig::causal`]).
    pub causal: bool,
    /// The SM80 kernel's tile, pinned; [`AttentionConfig::for_head_dim`]'s
    /// where `None`. Its `head_dim` and `causal` are the call's.
    pub config: Option<AttentionConfig>,
    /// The SM90 kernel's tile, pinned;
    /// [`Sm90AttentionConfig::for_head_dim`]'s where `None`. Its
    /// `head_dim` and `causal` are the call's.
    pub sm90: Option<Sm90AttentionConfig>,
    /// The SM80 kernel (`mma.sync`) even on an SM90 GPU, which otherwise
    /// runs the SM90 kernel (`wgmma`, TMA).
    pub sm80: bool,
}

/// How a layout stores an operand of attention: each mode's extent and
/// stride, four modes (the missing trailing ones of extent 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strides {
    /// The extents, `(seq, dim, heads, batch)` (`dim` 1 for the LSE).
    pub extents: [i64; 4],
    /// The strides in elements, in the same order.
    pub strides: [i64; 4],
}

impl Strides {
    /// The elements a buffer must hold: the largest offset plus one (0
    /// for an empty tensor).
    fn span(&self) -> i64 {
        if self.extents.contains(&0) {
            return 0;
        }
        self.extents.iter().zip(&self.strides).map(|(e, s)| (e - 1) * s).sum::<i64>() + 1
    }

    /// `(batch, seq, head)` strides, as the kernel takes them.
    fn kernel(&self) -> [i64; 3] {
        [self.strides[3], self.strides[0], self.strides[2]]
    }
}

const OP: &str = "attention";

/// How `layout` stores the operand `what`: integer extents and strides, one
/// leaf per mode, ranks `first..=modes` (missing trailing modes extent 1),
/// strides not negative. `modes` is 4 for `(seq, dim, heads, batch)` and 3
/// for the LSE's `(seq, heads, batch)` (read as `dim` 1).
///
/// Pre: none. Post: the strides, or an `Unsupported` error naming `what`,
/// its layout and the rule it breaks.
///
/// ```
/// use kute_cuda::attention::strides;
/// // BSHD: 2 batches of 100 positions of 8 heads of 64
/// let bshd: kute::Layout = "(100,64,8,2):(512,1,64,51200)".parse().unwrap();
/// let s = strides("Q", &bshd, 4).unwrap();
/// assert_eq!((s.extents, s.strides), ([100, 64, 8, 2], [512, 1, 64, 51200]));
/// let lse: kute::Layout = "(100,8)".parse().unwrap(); // one batch entry
/// assert_eq!(strides("LSE", &lse, 3).unwrap().extents, [100, 1, 8, 1]);
/// assert!(strides("Q", &"(100,(8,8))".parse().unwrap(), 4).is_err());
/// ```
pub fn strides(what: &str, layout: &Layout, modes: usize) -> Result<Strides> {
    let flat = crate::library::flat_modes(OP, what, layout, 1..=modes, &format!("at most {modes} modes"))?;
    let mut ext = [1i64; 4];
    let mut str = [0i64; 4];
    for (i, &(e, st)) in flat.iter().enumerate() {
        // the LSE has no dim mode: its modes are 0, 2 and 3
        let at = if modes == 3 && i > 0 { i + 1 } else { i };
        (ext[at], str[at]) = (e, st);
    }
    Ok(Strides { extents: ext, strides: str })
}

/// `O = softmax(Q·Kᵀ·scale [+ causal mask])·V` on `gpu`, and where asked
/// each query row's log-sum-exp (see the [module docs](self)): `Q`, `K`,
/// `V` and `O` of `elem` (f16 or bf16, held as `u16`), each a layout of
/// shape `(seq, dim, heads, batch)` whose `dim` has stride 1 (BSHD and
/// BHSD storage both are such layouts); query head `h` reads key and
/// value head `h / (h_q / h_kv)` (grouped-query attention). On SM90 GPUs
/// the SM90 kernel runs (unless `options.sm80`); elsewhere the SM80
/// kernel of [`AttentionConfig::fitting`] the GPU's shared memory, or of
/// `options.config`.
///
/// Pre: `Q` `(Lq, d, h_q, b)`, `K` and `V` `(Lk, d, h_kv, b)`, `O` `(Lq, d,
/// h_q, b)`, the LSE `(Lq, h_q, b)`; `d` of 64, 128 or 256; `h_kv`
/// dividing `h_q`; the other strides of `Q`, `K` and `V` multiples of 8
/// elements and of `O` multiples of 2 (16- and 4-byte accesses), the seq
/// strides of `Q`, `K` and `V` below 2^23; every
/// buffer holding what its layout spans; a positive finite scale; an SM80
/// or newer GPU (else an `Unsupported` error naming the operand and the
/// rule). Post: `O` (rounded to `elem`) and the LSE hold attention's answer
/// (a query that sees no key: `O = 0`, LSE `-inf`), or the driver's error.
///
/// ```no_run
/// use kute_cuda::attention::{attention, AttentionOptions, AttentionTensors, Heads, HeadsMut, Lse};
/// use kute_cuda::{gpu::Gpu, Elem};
/// let gpu = Gpu::new(0)?;
/// let (b, h, s, d) = (2, 8, 1000, 128);
/// let (q, k, v) = (gpu.zeros::<u16>(b * s * h * d)?, gpu.zeros::<u16>(b * s * h * d)?, gpu.zeros::<u16>(b * s * h * d)?);
/// let mut o = gpu.zeros::<u16>(b * s * h * d)?;
/// let mut lse = gpu.zeros::<f32>(b * h * s)?;
/// // BSHD storage: (seq, dim, heads, batch) with strides (h·d, 1, d, s·h·d)
/// let bshd: kute::Layout = "(1000,128,8,2):(1024,1,128,1024000)".parse().unwrap();
/// let lse_layout: kute::Layout = "(1000,8,2):(1,1000,8000)".parse().unwrap();
/// attention(&gpu, Elem::F16, AttentionTensors {
///     q: Heads { data: &q, layout: bshd.clone() },
///     k: Heads { data: &k, layout: bshd.clone() },
///     v: Heads { data: &v, layout: bshd.clone() },
///     o: HeadsMut { data: &mut o, layout: bshd },
///     lse: Some(Lse { data: &mut lse, layout: lse_layout }),
/// }, &AttentionOptions { causal: true, ..AttentionOptions::default() })?;
/// # Ok::<(), kute_cuda::Error>(())
/// ```
pub fn attention(gpu: &Gpu, elem: Elem, t: AttentionTensors<'_>, options: &AttentionOptions) -> Result<()> {
    let bad = |why: String| Err(Error::unsupported(OP, why));
    if !matches!(elem, Elem::F16 | Elem::Bf16) {
        return bad(format!("{elem} inputs (f16 or bf16)"));
    }
    let (sq, sk, sv, so) = (
        strides("Q", &t.q.layout, 4)?,
        strides("K", &t.k.layout, 4)?,
        strides("V", &t.v.layout, 4)?,
        strides("O", &t.o.layout, 4)?,
    );
    let [lq, d, hq, batch] = sq.extents;
    let [lk, dk, hkv, bk] = sk.extents;
    if sv.extents != sk.extents {
        return bad(format!("K {:?} and V {:?}: the same (Lk, d, h_kv, batch)", sk.extents, sv.extents));
    }
    if so.extents != sq.extents {
        return bad(format!("Q {:?} and O {:?}: the same (Lq, d, h_q, batch)", sq.extents, so.extents));
    }
    if dk != d || bk != batch {
        return bad(format!("Q {:?} and K {:?}: the same d and batch", sq.extents, sk.extents));
    }
    if ![64, 128, 256].contains(&d) {
        return bad(format!("head dimension {d} (64, 128 or 256)"));
    }
    if hkv == 0 || hq % hkv != 0 {
        return bad(format!("{hq} query heads and {hkv} key heads: h_kv must divide h_q"));
    }
    let sl = match &t.lse {
        Some(l) => {
            let s = strides("LSE", &l.layout, 3)?;
            if [s.extents[0], s.extents[2], s.extents[3]] != [lq, hq, batch] {
                return bad(format!(
                    "the LSE {} for Q {:?}: its shape must be (Lq, h_q, batch) = ({lq},{hq},{batch})",
                    l.layout, sq.extents
                ));
            }
            Some(s)
        }
        None => None,
    };
    for (what, s, vec) in [("Q", &sq, 8), ("K", &sk, 8), ("V", &sv, 8), ("O", &so, 2)] {
        if s.strides[1] != 1 {
            return bad(format!("{what}'s dim stride is {}: it must be 1", s.strides[1]));
        }
        let [seq, _, head, b] = s.strides;
        for (mode, stride, extent) in
            [("seq", seq, s.extents[0]), ("head", head, s.extents[2]), ("batch", b, s.extents[3])]
        {
            if extent > 1 && stride % vec != 0 {
                return bad(format!(
                    "{what}'s {mode} stride {stride}: a multiple of {vec} elements ({}-byte accesses)",
                    2 * vec
                ));
            }
        }
    }
    // a tile's offsets from its first row are 32-bit in the kernel
    for (what, s) in [("Q", &sq), ("K", &sk), ("V", &sv)] {
        if s.strides[0] >= (1 << 31) / 256 {
            return bad(format!("{what}'s seq stride {}: below 2^23 elements", s.strides[0]));
        }
    }
    let scale = options.scale.unwrap_or(1.0 / (d as f32).sqrt());
    if !(scale.is_finite() && scale > 0.0) {
        return bad(format!("scale {scale}: positive and finite"));
    }
    if lq.max(lk) > i64::from(i32::MAX) / 2 || hq > 65535 || batch > 65535 {
        return bad(format!(
            "Lq {lq}, Lk {lk}, {hq} heads, batch {batch}: lengths below 2^30, heads and batch at most 65535"
        ));
    }
    // every buffer holds what its layout spans
    let spans = [
        ("Q", sq.span(), t.q.data.len()),
        ("K", sk.span(), t.k.data.len()),
        ("V", sv.span(), t.v.data.len()),
        ("O", so.span(), t.o.data.len()),
    ];
    for (what, need, len) in
        spans.into_iter().chain(t.lse.as_ref().zip(sl).map(|(l, s)| ("LSE", s.span(), l.data.len())))
    {
        if (len as i64) < need {
            return bad(format!("{what} holds {len} elements, fewer than the {need} its layout spans"));
        }
    }
    let arch = gpu.arch()?;
    let cc: i64 =
        arch.trim_start_matches("sm_").trim_end_matches(|c: char| c.is_ascii_alphabetic()).parse().unwrap_or(0);
    if cc < 80 {
        return bad(format!("a {arch} GPU: the kernel's mma.sync, ldmatrix and cp.async need SM80 or newer"));
    }
    if lq == 0 || hq == 0 || batch == 0 {
        return Ok(());
    }
    let params = Params {
        q: sq.kernel(),
        k: sk.kernel(),
        v: sv.kernel(),
        o: so.kernel(),
        lse: sl.map_or([0; 3], |s| s.kernel()),
        lq: lq as i32,
        lk: lk as i32,
        group: (hq / hkv) as i32,
        scale_log2: scale * std::f32::consts::LOG2_E,
        heads: hq as i32,
        batch: batch as i32,
    };
    let (tensors, o, lse) = ((t.q.data, t.k.data, t.v.data), t.o.data, t.lse.map(|l| l.data));
    if arch == "sm_90" && !options.sm80 {
        let config = match options.sm90 {
            Some(c) => Sm90AttentionConfig { head_dim: d, causal: options.causal, ..c },
            None => Sm90AttentionConfig::for_head_dim(d, options.causal),
        };
        let loaded = gpu.attention_sm90_kernel(elem, config)?;
        let (kernel, f) = (&loaded.0, &loaded.1);
        let specs = [kernel.map(&sq, false), kernel.map(&sk, true), kernel.map(&sv, true)];
        let grid = kernel.grid(lq, hq, batch, gpu.sm_count()?);
        return gpu.launch_attention_sm90(f, kernel, grid, tensors, specs, o, lse, &params);
    }
    let config = match options.config {
        Some(c) => AttentionConfig { head_dim: d, causal: options.causal, ..c },
        None => AttentionConfig::fitting(d, options.causal, elem, gpu.max_smem_per_block()?.into()),
    };
    let loaded = gpu.attention_kernel(elem, config)?;
    let (kernel, f) = (&loaded.0, &loaded.1);
    gpu.launch_attention(f, kernel, kernel.grid(lq, hq, batch), tensors, o, lse, &params)
}

/// One query row of attention on the CPU, in f64: `q` its `d` values, `k`
/// and `v` the head's keys and values row by row (`d` values each), of
/// which the row sees the first `seen` (all of them without a mask; `i +
/// Lk - Lq + 1` of them for query `i` under the causal mask, at most `Lk`).
///
/// Pre: `q.len() == d`, `k` and `v` at least `seen · d` values. Post: the
/// row of `O` and its log-sum-exp (natural log); a row that sees no key
/// gives zeros and `-inf`.
///
/// ```
/// use kute_cuda::attention::reference_row;
/// // two keys, the second scoring higher: its value weighs more
/// let (o, lse) = reference_row(&[1.0, 0.0], &[0.0, 0.0, 1.0, 0.0], &[1.0, 0.0, 0.0, 1.0], 2, 1.0, 2);
/// let e = std::f64::consts::E;
/// assert!((o[1] - e / (1.0 + e)).abs() < 1e-12 && (lse - (1.0 + e).ln()).abs() < 1e-12);
/// assert_eq!(reference_row(&[1.0, 0.0], &[], &[], 2, 1.0, 0).1, f64::NEG_INFINITY);
/// ```
pub fn reference_row(q: &[f32], k: &[f32], v: &[f32], d: usize, scale: f64, seen: usize) -> (Vec<f64>, f64) {
    let mut out = vec![0f64; d];
    if seen == 0 {
        return (out, f64::NEG_INFINITY);
    }
    let s: Vec<f64> = (0..seen)
        .map(|j| q.iter().zip(&k[j * d..(j + 1) * d]).map(|(a, b)| f64::from(*a) * f64::from(*b)).sum::<f64>() * scale)
        .collect();
    let mx = s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = s.iter().map(|x| (x - mx).exp()).collect();
    let sum: f64 = e.iter().sum();
    for (j, w) in e.iter().enumerate() {
        for (o, x) in out.iter_mut().zip(&v[j * d..(j + 1) * d]) {
            *o += w * f64::from(*x);
        }
    }
    out.iter_mut().for_each(|o| *o /= sum);
    (out, mx + sum.ln())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kernel's parameter struct is the Rust `Params` field for field:
    /// five `(batch, seq, head)` stride triples, then three ints and a
    /// float and two ints, 144 bytes with no padding between them.
    #[test]
    fn params_match_the_kernels_struct() {
        assert_eq!(std::mem::size_of::<Params>(), 5 * 24 + 6 * 4);
        assert_eq!(std::mem::align_of::<Params>(), 8);
        let c = crate::emit::attention_sm80::PARAMS;
        assert!(
            c.contains("long long q[3], k[3], v[3], o[3], lse[3];\n  int lq, lk, group;\n  float scale_log2;\n  int heads, batch;"),
            "{c}"
        );
    }

    /// The reference row agrees with the plan's f64 attention on a causal
    /// row and sees nothing where the mask hides every key.
    #[test]
    fn the_reference_row_is_softmax_weighted_values() {
        let d = 4;
        let q = [0.5f32, -1.0, 0.25, 1.0];
        let k: Vec<f32> = (0..12).map(|i| (i % 5) as f32 / 4.0 - 0.5).collect();
        let v: Vec<f32> = (0..12).map(|i| (i % 3) as f32 - 1.0).collect();
        let (o, lse) = reference_row(&q, &k, &v, d, 0.5, 2);
        let s: Vec<f64> =
            (0..2).map(|j| (0..d).map(|c| f64::from(q[c]) * f64::from(k[j * d + c])).sum::<f64>() * 0.5).collect();
        let z: f64 = s.iter().map(|x| x.exp()).sum();
        assert!((lse - z.ln()).abs() < 1e-12);
        for c in 0..d {
            let want: f64 = (0..2).map(|j| s[j].exp() / z * f64::from(v[j * d + c])).sum();
            assert!((o[c] - want).abs() < 1e-12);
        }
        assert_eq!(reference_row(&q, &k, &v, d, 0.5, 0), (vec![0.0; d], f64::NEG_INFINITY));
    }
}
