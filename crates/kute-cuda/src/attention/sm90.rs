//! The SM90 attention forward kernel: FlashAttention-3's structure. A
//! producer warpgroup copies `Q` once and each key block's `K` and `V` by
//! TMA into a ring of stages; each consumer warpgroup owns 64 query rows and
//! multiplies `S = Q·Kᵀ` by `wgmma` from shared memory (`_SS`), runs the
//! online softmax on its registers, and adds `P·V` by `wgmma` with `P` in
//! registers (`_RS`): `S`'s accumulators re-read as `P`'s `A` fragments by
//! the re-layout `left_inverse(S) ∘ P`, which the plan checks keeps every
//! value in its thread. With [`Sm90AttentionConfig::overlap`] the next
//! block's `S` is multiplied while the current block's softmax runs.

use super::Strides;
use crate::{Elem, Result};

/// The choices of the SM90 attention kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sm90AttentionConfig {
    /// The head dimension `d` (64, 128 or 256).
    pub head_dim: i64,
    /// Keys per step: the `N` of `S`'s `wgmma` and the `K` of `O`'s (a
    /// multiple of 16 from 64 to 256).
    pub block_n: i64,
    /// Consumer warpgroups, each 64 query rows (1 to 3).
    pub warpgroups: i64,
    /// K and V tiles in flight (1 to 4).
    pub stages: i64,
    /// Whether keys after a query's position are masked (aligned at the end).
    pub causal: bool,
    /// Whether the next key block's `S = Q·Kᵀ` is multiplied while the
    /// softmax of the current one runs (FlashAttention-3's overlap within a
    /// warpgroup; it holds two blocks' registers, `S` and `P`, at once).
    pub overlap: bool,
    /// Whether the consumer warpgroups take turns issuing their `wgmma`
    /// (FlashAttention-3's ping-pong: one's softmax runs while another's
    /// products do; with two or more warpgroups).
    pub pingpong: bool,
    /// Whether the grid is persistent: a block per multiprocessor, each
    /// taking the tiles in turn, its producer copying the next tile's `Q`
    /// and keys while its consumers store the last one's `O` (else a block
    /// per tile). A launch choice: the kernel's source is the same.
    pub persistent: bool,
}

impl Default for Sm90AttentionConfig {
    /// FlashAttention-3's forward tile for `d = 128`: two consumer
    /// warpgroups (128 query rows), 128 keys per step, two stages, the
    /// softmax overlapped with the next block's `S`, the warpgroups taking
    /// turns.
    fn default() -> Sm90AttentionConfig {
        Sm90AttentionConfig {
            head_dim: 128,
            block_n: 128,
            warpgroups: 2,
            stages: 2,
            causal: false,
            overlap: true,
            pingpong: true,
            persistent: true,
        }
    }
}

impl Sm90AttentionConfig {
    /// The tiles of the library's calls, measured fastest (H200, f16,
    /// `kute-cuda attention --sm90-tile`): two stages, overlapped, the
    /// warpgroups taking turns; at `d` = 64 three consumer warpgroups (192
    /// query rows: 510 TFLOP/s, against 434 with two) and 128 keys a step;
    /// at 128 two warpgroups and 176 keys (626, against 613 with 128), 128
    /// when causal (628, against 618 with 176); at 256 two warpgroups and
    /// 80 keys (`Q` and two stages of `K` and `V` fill the shared memory;
    /// 648, against 629 with 64).
    ///
    /// Pre: none. Post: a configuration of head dimension `head_dim`
    /// (checked by the plan where it is used).
    ///
    /// ```
    /// use kute_cuda::attention::{describe_sm90, Sm90AttentionConfig};
    /// let c = Sm90AttentionConfig::for_head_dim(256, true);
    /// assert_eq!((c.block_n, c.warpgroups, c.stages, c.causal), (80, 2, 2, true));
    /// assert!(describe_sm90(c, kute_cuda::Elem::Bf16).is_ok());
    /// assert_eq!(Sm90AttentionConfig::for_head_dim(64, false).warpgroups, 3);
    /// ```
    pub fn for_head_dim(head_dim: i64, causal: bool) -> Sm90AttentionConfig {
        let (block_n, warpgroups) = match head_dim {
            64 => (128, 3),
            128 if !causal => (176, 2),
            128 => (128, 2),
            _ => (80, 2),
        };
        Sm90AttentionConfig {
            head_dim,
            block_n,
            warpgroups,
            causal,
            persistent: !causal,
            ..Sm90AttentionConfig::default()
        }
    }
}

/// The SM90 plan for `config` and `elem`, as text: the two GMMA atoms
/// (`S = Q·Kᵀ` from shared memory, `O += P·V` with `P` in registers), the
/// fragments of `S`, `P` and `O`, the re-layout of `S`'s registers into
/// `P`'s, the lanes sharing a row, and the shared tiles with their
/// descriptors, k steps and TMA boxes.
///
/// Pre: none. Post: the text, or an `Unsupported` error naming the broken
/// rule (`d` of 64, 128 or 256; 1 to 3 warpgroups; `block_n` a multiple of
/// 16 from 64 to 256; 1 to 4 stages; the tiles within 227 KiB; f16 or
/// bf16) or the plan's claim that fails.
///
/// ```
/// use kute_cuda::{attention::{describe_sm90, Sm90AttentionConfig}, Elem};
/// let text = describe_sm90(Sm90AttentionConfig::default(), Elem::F16).unwrap();
/// assert!(text.contains("SM90_64x128x16_F32F16F16_RS"));
/// assert!(text.contains("row lanes: XOR 1, 2"));
/// let wide = Sm90AttentionConfig { head_dim: 256, block_n: 256, ..Sm90AttentionConfig::default() };
/// assert!(describe_sm90(wide, Elem::F16).unwrap_err().to_string().contains("shared tiles"));
/// ```
pub fn describe_sm90(config: Sm90AttentionConfig, elem: Elem) -> Result<String> {
    use std::fmt::Write as _;
    let p = crate::plan::attention_sm90::plan(config, elem)?;
    let Sm90AttentionConfig { head_dim: d, block_n: bn, warpgroups, stages, causal, overlap, pingpong, persistent } =
        p.config;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "attention forward (SM90), {} inputs, d = {d}, {} query rows x {bn} keys per step, {warpgroups} consumer warpgroup(s) and a producer ({} threads), {stages} stages{}{}{}{}",
        p.elem,
        p.block_m,
        p.threads,
        if causal { ", causal" } else { "" },
        if overlap { ", the next S overlapped with the softmax" } else { "" },
        if pingpong && warpgroups > 1 { ", the warpgroups taking turns" } else { "" },
        if persistent { ", persistent" } else { ", a block per tile" }
    );
    let _ = writeln!(o, "S = Q·Kᵀ: {}\nO += P·V: {}", p.atoms[0], p.atoms[1]);
    for (what, f) in [("S (C)", &p.s), ("P (A, registers)", &p.p), ("O (C)", &p.o)] {
        let _ = writeln!(
            o,
            "{what} over {:?}: frag {}, rep {} ({} values x {} repeats per thread)",
            f.tile, f.frag, f.rep, f.values, f.repeats
        );
    }
    let _ = writeln!(o, "P from S (left_inverse(S) ∘ P, registers of the same thread): {}", p.p_from_s);
    for (what, t) in ["Q", "K", "V"].iter().zip(&p.smem) {
        let _ = writeln!(
            o,
            "shared {what}: {} ({}), descriptor LBO {} SBO {} bytes, k steps at {:?}, TMA boxes of {} lines at {:?}",
            t.layout, t.atom, t.desc.lbo, t.desc.sbo, t.ksteps, t.box_lines, t.boxes
        );
    }
    let masks: Vec<String> = p.row_masks.iter().map(|m| m.to_string()).collect();
    let _ = writeln!(o, "row lanes: XOR {}", masks.join(", "));
    let _ = writeln!(o, "shared tiles: {} bytes", p.smem_bytes);
    Ok(o)
}

/// The SM90 attention forward kernel of one configuration: its CUDA source
/// and what a launch needs. One kernel serves every shape: the lengths,
/// heads and strides are its arguments, `Q`, `K` and `V` its TMA tensor maps.
#[derive(Clone, Debug)]
pub struct Sm90AttentionKernel {
    /// The kernel's name.
    pub name: String,
    /// The configuration.
    pub config: Sm90AttentionConfig,
    /// The inputs' type (f16 or bf16).
    pub elem: Elem,
    /// Query rows per block.
    pub block_m: i64,
    /// Threads per block (a producer warpgroup and the consumers).
    pub threads: u32,
    /// Bytes of dynamic shared memory per block (the tiles, and 1024 to
    /// align them).
    pub smem_bytes: u32,
    /// The CUDA source: `name(tma_q, tma_k, tma_v, O, LSE, params)`.
    pub source: String,
}

/// A tensor map's shape for TMA (see [`Sm90AttentionKernel::map`]):
/// `dims` and `boxes` innermost first, `strides` the bytes of each
/// dimension but the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapSpec {
    /// `[d, seq, heads, batch]`.
    pub dims: [u64; 4],
    /// Bytes from one position of the sequence, head and batch to the next.
    pub strides: [u64; 3],
    /// The box: `[64, lines, 1, 1]`.
    pub boxes: [u32; 4],
}

impl Sm90AttentionKernel {
    /// Plans and writes the kernel `name` for `config` and `elem`.
    ///
    /// Pre: none. Post: the kernel, or the error naming the broken rule
    /// or plan claim (see [`describe_sm90`]).
    ///
    /// ```
    /// use kute_cuda::{attention::{Sm90AttentionConfig, Sm90AttentionKernel}, Elem};
    /// let k = Sm90AttentionKernel::new("attn", Sm90AttentionConfig::default(), Elem::F16).unwrap();
    /// assert_eq!((k.threads, k.block_m), (384, 128));
    /// assert_eq!(k.smem_bytes, (128 * 128 + 2 * 2 * 128 * 128) * 2 + 1024);
    /// assert!(k.source.contains("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16"));
    /// ```
    pub fn new(name: &str, config: Sm90AttentionConfig, elem: Elem) -> Result<Sm90AttentionKernel> {
        let p = crate::plan::attention_sm90::plan(config, elem)?;
        let source = crate::emit::attention_sm90::source(name, &p)?;
        Ok(Sm90AttentionKernel {
            name: name.to_string(),
            config,
            elem,
            block_m: p.block_m,
            threads: p.threads as u32,
            smem_bytes: (p.smem_bytes + 1024) as u32,
            source,
        })
    }

    /// The kernel's name for `config` and `elem` in the library's cache.
    ///
    /// Pre: none. Post: a C identifier naming every field of `config`.
    ///
    /// ```
    /// use kute_cuda::{attention::{Sm90AttentionConfig, Sm90AttentionKernel}, Elem};
    /// let c = Sm90AttentionConfig::for_head_dim(256, true);
    /// assert_eq!(Sm90AttentionKernel::name_of(c, Elem::Bf16), "kute_attention_sm90_bf16_d256_n80_wg2_s2_causal");
    /// let plain = Sm90AttentionConfig { overlap: false, ..Sm90AttentionConfig::default() };
    /// assert_eq!(Sm90AttentionKernel::name_of(plain, Elem::F16), "kute_attention_sm90_f16_d128_n128_wg2_s2_serial");
    /// ```
    pub fn name_of(config: Sm90AttentionConfig, elem: Elem) -> String {
        let Sm90AttentionConfig { head_dim, block_n, warpgroups, stages, causal, overlap, pingpong, .. } = config;
        let c = if causal { "_causal" } else { "" };
        let o = if overlap { "" } else { "_serial" };
        let p = if pingpong || warpgroups == 1 { "" } else { "_together" };
        format!("kute_attention_sm90_{elem}_d{head_dim}_n{block_n}_wg{warpgroups}_s{stages}{c}{o}{p}")
    }

    /// The grid (one dimension) for `lq` queries, `heads` query heads and
    /// `batch` on a GPU of `sms` multiprocessors: a block per tile of
    /// `block_m` queries of a head of a batch entry, at most one per
    /// multiprocessor where persistent (each block takes the tiles in turn;
    /// so it does past the grid's limit too).
    ///
    /// Pre: none. Post: `(blocks, 1, 1)`, at least one block.
    ///
    /// ```
    /// use kute_cuda::attention::{Sm90AttentionConfig, Sm90AttentionKernel};
    /// let c = Sm90AttentionConfig { persistent: false, ..Sm90AttentionConfig::default() };
    /// let k = Sm90AttentionKernel::new("a", c, kute_cuda::Elem::F16)?;
    /// assert_eq!(k.grid(1000, 16, 2, 132), (8 * 16 * 2, 1, 1)); // ceil(1000 / 128) query blocks
    /// let p = Sm90AttentionKernel::new("p", Sm90AttentionConfig::default(), kute_cuda::Elem::F16)?;
    /// assert_eq!(p.grid(1000, 16, 2, 132), (132, 1, 1));
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn grid(&self, lq: i64, heads: i64, batch: i64, sms: u32) -> (u32, u32, u32) {
        let tiles = (lq + self.block_m - 1) / self.block_m * heads * batch;
        let limit = if self.config.persistent { i64::from(sms) } else { i64::from(i32::MAX) };
        (tiles.clamp(1, limit.max(1)) as u32, 1, 1)
    }

    /// The tensor map of `Q` (`keys` false) or of `K` or `V`, stored as
    /// `s` says: its `(d, seq, heads, batch)` with their strides in bytes,
    /// boxes of 64 columns by the kernel's query rows or keys. A mode of
    /// extent 1 is never stepped over, so its stride is given as the
    /// tensor's span (TMA takes only multiples of 16 bytes).
    ///
    /// Pre: `s`'s `d` stride 1, its other strides of modes longer than 1
    /// multiples of 8 elements. Post: the map's shape.
    ///
    /// ```
    /// use kute_cuda::attention::{strides, Sm90AttentionConfig, Sm90AttentionKernel};
    /// let k = Sm90AttentionKernel::new("a", Sm90AttentionConfig::default(), kute_cuda::Elem::F16)?;
    /// let bshd = strides("Q", &"(1000,128,8):(1024,1,128)".parse::<kute::Layout>()?, 4)?;
    /// let m = k.map(&bshd, false);
    /// assert_eq!((m.dims, m.strides, m.boxes), ([128, 1000, 8, 1], [2048, 256, 2048000], [64, 128, 1, 1]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn map(&self, s: &Strides, keys: bool) -> MapSpec {
        let lines = if keys { self.config.block_n } else { self.block_m };
        let bytes = self.elem.bytes() as u64;
        let span = (s.span().max(1) as u64 * bytes).div_ceil(16) * 16;
        let stride = |i: usize| if s.extents[i] > 1 { s.strides[i] as u64 * bytes } else { span };
        MapSpec {
            dims: [1, 0, 2, 3].map(|i| s.extents[i] as u64),
            strides: [stride(0), stride(2), stride(3)],
            boxes: [64, lines as u32, 1, 1],
        }
    }
}
