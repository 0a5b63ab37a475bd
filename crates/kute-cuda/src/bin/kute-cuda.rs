//! `kute-cuda`: plans, compiles, checks and measures the kernels kute builds
//! from layouts.
//!
//! - `plan`: prints a kernel's plan (layouts, swizzle reasoning, predicted
//!   shared-memory wavefronts) and its CUDA source; needs nothing.
//! - `ptx`: compiles every kernel of the catalogue with NVRTC for the given
//!   architectures (no GPU needed).
//! - `check`: runs every kernel of the catalogue on the GPU and compares with
//!   the CPU reference.
//! - `bench`: times kute's copy and transpose beside PyTorch's `copy_` and
//!   `x.t().contiguous()` (a Python subprocess) on the same shapes.
//! - `ncu`: runs the transposes under Nsight Compute and compares its
//!   shared-memory counters with kute's prediction.
//! - `gemm`: checks and times the GEMMs made for each shape beside
//!   `torch.matmul`.
//! - `gemm-at-launch`: the SM90 GEMM made once for every size (plan and
//!   compile times, cache hits, launch overhead), timed on each shape beside
//!   the kernel made for it and `torch.matmul`.
//! - `gemm-epilogue`: the library GEMM with a fused bias and activation
//!   beside PyTorch's unfused matmul + bias + activation.
//! - `gemm-fp8`: the library GEMM of 8-bit float inputs with per-tensor
//!   scales beside `torch._scaled_mm`.
//! - `attention`: the attention forward kernel checked against a CPU
//!   reference and timed beside PyTorch's `scaled_dot_product_attention`
//!   (flash and cuDNN backends).

use clap::{Parser, Subcommand};
use kute::Layout;
use kute_cuda::attention::{AttentionConfig, AttentionKernel};
use kute_cuda::copy::{CopyConfig, CopyKernel};
use kute_cuda::elem::{round_to_16, widen_16};
use kute_cuda::gemm::{GemmConfig, GemmKernel};
use kute_cuda::gemm_sm90::{
    SizeFacts, Sm90Config, Sm90Epilogue, Sm90Gemm, Sm90GemmAtLaunch, Sm90Loader, Sm90Problem, THREADS as SM90_THREADS,
};
use kute_cuda::gpu::{compile_ptx, nvrtc_available, Gpu, Sm90Kernels};
use kute_cuda::reference::check_copy;
use kute_cuda::transpose::{TransposeConfig, TransposeKernel};
use kute_cuda::{Elem, Error};
use std::process::{Command, ExitCode};

#[derive(Parser)]
#[command(
    name = "kute-cuda",
    version,
    about = "CUDA kernels from kute's layouts: plan, compile (NVRTC), check and benchmark"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Print the plan and CUDA source of a copy or transpose from SRC to DST,
    /// or of an SM90 attention kernel.
    Plan {
        /// `copy`, `transpose`, `attention` or `attention-sm90` (the SM90
        /// plan: `--block-n`, `--warpgroups`, `--stages`).
        kind: String,
        /// The source layout, e.g. '(64,64):(64,1)' (copy, transpose).
        src: Option<String>,
        /// The destination layout (copy, transpose).
        dst: Option<String>,
        /// f32, f16 or bf16.
        #[arg(long, default_value = "f32")]
        elem: Elem,
        /// Use the plain (unswizzled) shared tile.
        #[arg(long)]
        no_swizzle: bool,
        /// Attention: the head dimension.
        #[arg(long, default_value_t = 128)]
        head_dim: i64,
        /// Attention: query rows per block.
        #[arg(long, default_value_t = 128)]
        block_m: i64,
        /// Attention: keys per step.
        #[arg(long, default_value_t = 64)]
        block_n: i64,
        /// Attention: warps per block.
        #[arg(long, default_value_t = 4)]
        warps: i64,
        /// Attention: the causal mask.
        #[arg(long)]
        causal: bool,
        /// SM90 attention: consumer warpgroups.
        #[arg(long, default_value_t = 2)]
        warpgroups: i64,
        /// SM90 attention: K and V tiles in flight.
        #[arg(long, default_value_t = 2)]
        stages: i64,
        /// SM90 attention: each key block's S multiplied after the previous
        /// block's softmax rather than overlapped with it.
        #[arg(long)]
        serial: bool,
        /// SM90 attention: the consumer warpgroups issue their products
        /// together rather than taking turns.
        #[arg(long)]
        together: bool,
        /// Attention: K and V by ldmatrix.x2 rather than .x4.
        #[arg(long)]
        kv_x2: bool,
        /// Attention: MMA groups the fragments are loaded ahead.
        #[arg(long, default_value_t = kute_cuda::attention::FRAG_PREFETCH)]
        frag_prefetch: i64,
        /// Attention: tiles of K and V in shared memory (1, or 2: the next
        /// block copied while this one is computed).
        #[arg(long, default_value_t = 1)]
        kv_stages: i64,
    },
    /// Compile every kernel of the catalogue to PTX with NVRTC.
    Ptx {
        /// Architectures (NVRTC names).
        #[arg(long, value_delimiter = ',', default_value = "sm_80,sm_90")]
        arch: Vec<String>,
        /// Write each kernel's source and PTX here.
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Also compile the attention kernels to machine code for each
        /// architecture and print ptxas's registers and spills (a spill
        /// fails the command).
        #[arg(long)]
        cubin: bool,
    },
    /// Compile one CUDA source (its kernels need no includes) with NVRTC.
    CompileOne {
        /// The source text, or `@FILE` to read it from a file.
        source: String,
        /// Architecture (NVRTC name).
        #[arg(long, default_value = "sm_90")]
        arch: String,
        /// Compile to machine code for the real architecture (`sm_90a`, ...)
        /// and print ptxas's registers, shared memory and spills instead.
        #[arg(long)]
        resources: bool,
    },
    /// Run every kernel of the catalogue on the GPU against the CPU reference.
    Check,
    /// Time kute's kernels beside PyTorch's on the same tensors.
    Bench {
        /// Square sizes.
        #[arg(long, value_delimiter = ',', default_value = "8192,16384")]
        sizes: Vec<i64>,
        /// Element types.
        #[arg(long, value_delimiter = ',', default_value = "f32,f16")]
        elems: Vec<Elem>,
        /// Launches per timed round.
        #[arg(long, default_value_t = 20)]
        reps: usize,
        /// Skip PyTorch.
        #[arg(long)]
        no_torch: bool,
        /// Also time copy kernels with these vectors per thread (tuning).
        #[arg(long, value_delimiter = ',')]
        sweep: Vec<u32>,
    },
    /// Check and time kute's GEMM beside PyTorch's matmul (cuBLAS).
    Gemm {
        /// Shapes MxNxK.
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "4096x4096x4096,8192x8192x8192,8192x8192x512,4000x4000x4000"
        )]
        shapes: Vec<String>,
        /// Input types.
        #[arg(long, value_delimiter = ',', default_value = "f16,bf16")]
        elems: Vec<Elem>,
        /// Operand layouts (BLAS's TN, NT, NN, TT); PyTorch is timed for TN.
        #[arg(long, default_value = "TN")]
        layouts: String,
        /// Also the SM90 wgmma kernel (TN; Hopper only).
        #[arg(long)]
        sm90: bool,
        /// Launches per timed round.
        #[arg(long, default_value_t = 10)]
        reps: usize,
        /// Skip PyTorch.
        #[arg(long)]
        no_torch: bool,
        /// The SM80 kernel's k-tile (BK) and stages.
        #[arg(long, value_delimiter = ',', default_value = "32,3")]
        bk_stages: Vec<i64>,
    },
    /// Compare Nsight Compute's shared-memory counters with kute's prediction.
    Ncu {
        /// Square size.
        #[arg(long, default_value_t = 4096)]
        size: i64,
        /// Element types.
        #[arg(long, value_delimiter = ',', default_value = "f32,f16")]
        elems: Vec<Elem>,
        /// The ncu executable.
        #[arg(long, default_value = "ncu")]
        ncu: String,
    },
    /// Nsight Compute's bank-conflict counters for the GEMMs (kute predicts none).
    NcuGemm {
        /// Square size.
        #[arg(long, default_value_t = 4096)]
        size: i64,
        /// The ncu executable.
        #[arg(long, default_value = "ncu")]
        ncu: String,
    },
    /// The SM90 GEMM compiled once for every size: plan and compile times,
    /// cache hits, launch overhead, and its time on each shape beside the
    /// kernel made for that shape and torch.matmul (each result checked
    /// against the per-shape kernel's, bit for bit)
    GemmAtLaunch {
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "4096x4096x4096,8192x8192x8192,8192x8192x512,2048x2048x2048,4000x4000x4000,128x8192x8192,256x8192x8192,1024x8192x8192,4096x14336x4096,4096x4096x14336,6000x3000x1000,16384x16384x1024,64x(512x512x512)"
        )]
        shapes: Vec<String>,
        #[arg(long, default_value = "f16")]
        elem: Elem,
        #[arg(long, default_value_t = 10)]
        reps: usize,
        #[arg(long)]
        no_torch: bool,
        /// The divisors of M, N and K every launch guarantees
        #[arg(long, value_delimiter = ',', default_value = "1,8,8")]
        facts: Vec<i64>,
        /// Compile this file in place of the planned source (to try an edit of it)
        #[arg(long, hide = true)]
        source_file: Option<std::path::PathBuf>,
        /// Pin the block tile's width (256, 128 or 64) instead of the
        /// library's heuristic choice per shape
        #[arg(long)]
        tile_n: Option<i64>,
        /// The clusters' blocks (1, 2) to run each shape with, one row each
        /// (by default the library's heuristic choice per shape)
        #[arg(long, value_delimiter = ',')]
        clusters: Vec<i64>,
        /// Launch at most this many blocks (in place of the GPU's)
        #[arg(long, hide = true)]
        slots: Option<u32>,
    },
    /// The library GEMM with a fused bias and activation beside PyTorch's
    /// unfused matmul + bias + activation
    GemmEpilogue {
        #[arg(long, default_value = "4096x4096x4096")]
        shape: String,
        #[arg(long, default_value = "f16")]
        elem: Elem,
        #[arg(long, default_value_t = 10)]
        reps: usize,
    },
    /// Check and time the library GEMM of 8-bit float inputs (per-tensor
    /// scales, a 16-bit C) beside `torch._scaled_mm`: each result checked
    /// at sampled entries against the dequantized reference, exactly.
    GemmFp8 {
        #[arg(long, value_delimiter = ',', default_value = "4096x4096x4096,8192x8192x8192,128x8192x8192")]
        shapes: Vec<String>,
        #[arg(long, value_delimiter = ',', default_value = "e4m3")]
        elems: Vec<Elem>,
        /// C's type: f16, bf16 or f32.
        #[arg(long, default_value = "f16")]
        c_elem: Elem,
        #[arg(long, default_value_t = 20)]
        reps: usize,
        #[arg(long)]
        no_torch: bool,
        /// Pin the k-tiles' splits (split-K) instead of the heuristic's choice.
        #[arg(long)]
        splits: Option<i64>,
        /// Pin the block tile's width (256, 128, 64) instead of the heuristic's choice.
        #[arg(long)]
        tile_n: Option<i64>,
    },
    /// Time the library GEMM's candidate plans (every tile width, splits of
    /// K) on each shape, print them beside the heuristics' choice, and
    /// record each winner in the tune table the library reads
    /// (`$KUTE_CUDA_TUNE`, else tune.jsonl in the kernel cache's folder)
    Tune {
        #[arg(long, value_delimiter = ',', default_value = "128x8192x8192,256x8192x8192,6000x3000x1000")]
        shapes: Vec<String>,
        #[arg(long, default_value = "f16")]
        elem: Elem,
        /// C's type (the inputs' type for 16-bit inputs, f16 for 8-bit ones, by default)
        #[arg(long)]
        c_elem: Option<Elem>,
        #[arg(long, default_value_t = 10)]
        reps: usize,
        /// Print the timings only; record nothing
        #[arg(long)]
        dry_run: bool,
        /// Tune the SM80 kernels (what GPUs other than Hopper run; on
        /// other GPUs, always)
        #[arg(long)]
        sm80: bool,
    },
    /// Compile the library's kernels (each tile width, fused epilogues,
    /// beta, 8-bit inputs) to `sm_90a` machine code with NVRTC's `ptxas`
    /// and report their registers and spills; fails if a GEMM kernel
    /// storing `C` by TMA (what every call with 16-byte rows of `C` runs)
    /// spills (no GPU needed).
    Spills,
    /// Check attention (the library call) against a CPU f64 reference on
    /// sampled rows and time it beside PyTorch's scaled_dot_product_attention
    /// with the flash and the cuDNN backends; a wrong result fails the command.
    Attention {
        /// Configurations B,HQ,HKV,LQ,LK,D,CAUSAL (CAUSAL 0 or 1), separated by ';'.
        #[arg(
            long,
            value_delimiter = ';',
            default_value = "4,16,16,4096,4096,128,0;1,16,16,16384,16384,128,0;1,16,16,16384,16384,128,1;4,32,32,4096,4096,64,0;2,16,16,8192,8192,256,0;1,32,8,4096,4096,128,0"
        )]
        configs: Vec<String>,
        #[arg(long, value_delimiter = ',', default_value = "f16,bf16")]
        elems: Vec<Elem>,
        /// Launches per timed round.
        #[arg(long, default_value_t = 10)]
        reps: usize,
        /// Skip PyTorch.
        #[arg(long)]
        no_torch: bool,
        /// Store Q, K, V and O as (batch, heads, seq, dim) instead of (batch, seq, heads, dim).
        #[arg(long)]
        bhsd: bool,
        /// Pin kute's tile: BLOCK_M,BLOCK_N,WARPS[,KV_X4[,PREFETCH]] (KV_X4 1, the
        /// default, or 0: K and V by ldmatrix.x2; PREFETCH: MMA groups the
        /// fragments are loaded ahead, 0 to 8); the head dimension's default otherwise.
        /// Repeated, each configuration runs with each tile.
        #[arg(long)]
        tile: Vec<String>,
        /// Query rows checked against the CPU reference per configuration.
        #[arg(long, default_value_t = 48)]
        rows: usize,
        /// Run the SM80 kernel (mma.sync) on an SM90 GPU too, beside the
        /// SM90 one (`--tile` pins its tile).
        #[arg(long)]
        sm80: bool,
        /// Pin the SM90 kernel's tile: BLOCK_N,WARPGROUPS,STAGES[,OVERLAP[,PINGPONG[,PERSISTENT]]]
        /// (OVERLAP and PINGPONG 1, the default, or 0; PERSISTENT 0, the
        /// default, or 1); repeated, each configuration runs with each.
        #[arg(long)]
        sm90_tile: Vec<String>,
    },
    /// The 8-bit library checks of `check` alone.
    #[command(hide = true)]
    CheckFp8,
    /// The attention checks of `check` alone.
    #[command(hide = true)]
    CheckAttention,
    /// ptxas's registers and spills of the attention kernels alone (what
    /// `ptx --cubin` prints after compiling the whole catalogue).
    #[command(hide = true)]
    AttentionRegs {
        #[arg(long, value_delimiter = ',', default_value = "sm_80,sm_90")]
        arch: Vec<String>,
    },
    /// Launch one GEMM once (what `ncu-gemm` profiles).
    #[command(hide = true)]
    GemmOnce {
        size: i64,
        layouts: String,
        #[arg(long)]
        sm90: bool,
    },
    /// Launch one transpose once (what `ncu` profiles).
    #[command(hide = true)]
    Once {
        size: i64,
        elem: Elem,
        #[arg(long)]
        no_swizzle: bool,
        #[arg(long)]
        shared_only: bool,
    },
}

fn lay(s: &str) -> Result<Layout, Error> {
    Ok(s.parse::<Layout>()?)
}

/// A row-major and a column-major `n x n` layout.
fn square(n: i64) -> Result<(Layout, Layout), Error> {
    Ok((lay(&format!("({n},{n}):({n},1)"))?, lay(&format!("({n},{n}):(1,{n})"))?))
}

enum Kernel {
    Copy(Box<CopyKernel>),
    Transpose(Box<TransposeKernel>),
}

impl Kernel {
    fn copy(k: CopyKernel) -> Kernel {
        Kernel::Copy(Box::new(k))
    }
    fn transpose(k: TransposeKernel) -> Kernel {
        Kernel::Transpose(Box::new(k))
    }
    fn name(&self) -> &str {
        match self {
            Kernel::Copy(k) => &k.name,
            Kernel::Transpose(k) => &k.name,
        }
    }
    fn source(&self) -> &str {
        match self {
            Kernel::Copy(k) => &k.source,
            Kernel::Transpose(k) => &k.source,
        }
    }
    /// Every (kernel name, source) this plan generates.
    fn sources(&self) -> Vec<(String, &str)> {
        match self {
            Kernel::Copy(k) => vec![(k.name.clone(), &k.source)],
            Kernel::Transpose(k) => {
                vec![(k.name.clone(), &k.source), (format!("{}_shared_only", k.name), &k.shared_only_source)]
            }
        }
    }
    fn layouts(&self) -> (&Layout, &Layout) {
        match self {
            Kernel::Copy(k) => (&k.src, &k.dst),
            Kernel::Transpose(k) => (&k.src, &k.dst),
        }
    }
    fn elem(&self) -> Elem {
        match self {
            Kernel::Copy(k) => k.elem,
            Kernel::Transpose(k) => k.elem,
        }
    }
    fn launch_shape(&self) -> (u32, u32) {
        match self {
            Kernel::Copy(k) => (k.blocks(), k.config.threads),
            Kernel::Transpose(k) => (k.blocks as u32, k.threads),
        }
    }
}

/// Every kernel kute-cuda generates in its tests and benchmarks: copies
/// between assorted layouts, transposes swizzled and plain, each element type.
fn catalogue() -> Result<Vec<Kernel>, Error> {
    let mut out = Vec::new();
    let copies = [
        ("rowmajor", "(256,320):(320,1)", "(256,320):(320,1)"),
        ("colmajor", "(96,64):(1,96)", "(96,64):(1,96)"),
        ("row_to_col", "(64,48):(48,1)", "(64,48):(1,64)"),
        ("padded", "(64,60):(64,1)", "(64,60):(60,1)"),
        ("tiled", "((8,16),(8,16)):((8,1024),(1,64))", "((8,16),(8,16)):((16,1),(128,1024))"),
        ("strided", "(100,33):(40,1)", "(100,33):(1,100)"),
        ("odd", "1001:1", "1001:1"),
        ("big", "(1024,1024):(1024,1)", "(1024,1024):(1024,1)"),
    ];
    for elem in Elem::ALL {
        for (tag, s, d) in copies {
            out.push(Kernel::copy(CopyKernel::new(
                &format!("copy_{tag}_{elem}"),
                &lay(s)?,
                &lay(d)?,
                elem,
                CopyConfig::default(),
            )?));
        }
        for (tag, s, d) in [
            ("256", "(256,256):(256,1)", "(256,256):(1,256)"),
            ("rect", "(192,512):(512,1)", "(192,512):(1,192)"),
            ("colsrc", "(128,256):(1,128)", "(128,256):(256,1)"),
            ("1024", "(1024,1024):(1024,1)", "(1024,1024):(1,1024)"),
        ] {
            for swizzle in [true, false] {
                let cfg = TransposeConfig { swizzle, ..TransposeConfig::default() };
                let name = format!("transpose_{tag}_{elem}{}", if swizzle { "" } else { "_plain" });
                out.push(Kernel::transpose(TransposeKernel::new(&name, &lay(s)?, &lay(d)?, elem, cfg)?));
            }
        }
    }
    Ok(out)
}

/// The GEMM cases of `check` and of the NVRTC test: (M, N, K), type and
/// operand layouts (BLAS's TN, NT, NN, TT).
const GEMM_CASES: [((i64, i64, i64), Elem, &str); 11] = [
    ((256, 256, 64), Elem::F16, "TN"),
    ((384, 256, 160), Elem::F16, "TN"),
    ((256, 512, 96), Elem::Bf16, "TN"),
    ((128, 128, 32), Elem::Bf16, "TN"),
    ((256, 256, 64), Elem::F16, "NT"),
    ((256, 128, 96), Elem::Bf16, "NN"),
    ((128, 256, 64), Elem::F16, "TT"),
    // predicated: sizes off the tile grid
    ((200, 136, 72), Elem::F16, "TN"),
    ((1000, 520, 1000), Elem::Bf16, "TN"),
    ((17, 3, 8), Elem::F16, "TN"),
    ((136, 200, 37), Elem::F16, "NT"),
];

/// The configuration for BLAS's name of the operand layouts.
fn gemm_config(blas: &str) -> Result<GemmConfig, Error> {
    let (a_k_major, b_k_major) = match blas {
        "TN" => (true, true),
        "NT" => (false, false),
        "NN" => (false, true),
        "TT" => (true, false),
        other => return Err(Error::Unsupported { op: "gemm", why: format!("'{other}': TN, NT, NN or TT") }),
    };
    Ok(GemmConfig { a_k_major, b_k_major, ..GemmConfig::default() })
}

/// Every GEMM kernel and its reference, as (name, source).
fn gemm_catalogue() -> Result<Vec<(String, String)>, Error> {
    let mut out = Vec::new();
    for (k, (mnk, elem, blas)) in GEMM_CASES.iter().enumerate() {
        let cfg = gemm_config(blas)?;
        let g = GemmKernel::new(&format!("gemm{k}_{blas}_{elem}"), *mnk, *elem, cfg)?;
        out.push((g.name.clone(), g.source));
        // the same with a 16-bit C
        let cfg16 = GemmConfig { c_elem: *elem, ..cfg };
        let g = GemmKernel::new(&format!("gemm{k}_{blas}_{elem}_c16"), *mnk, *elem, cfg16)?;
        out.push((g.name.clone(), g.source));
        let r = format!("gemm{k}_{blas}_{elem}_reference");
        out.push((r.clone(), kute_cuda::gemm::reference_source(&r, *mnk, *elem, &cfg)?));
    }
    for elem in [Elem::F16, Elem::Bf16] {
        out.extend(sm80_at_launch_catalogue(elem)?.into_iter().map(|g| (g.name, g.source)));
    }
    Ok(out)
}

/// The SM80 kernels of sizes given at launch that `ptx` compiles and
/// `check` runs: each of the library's tiles, every operand layout, f32
/// and 16-bit C, facts from none to tile multiples.
fn sm80_at_launch_catalogue(elem: Elem) -> Result<Vec<kute_cuda::gemm::Sm80GemmAtLaunch>, Error> {
    use kute_cuda::gemm::Sm80GemmAtLaunch;
    let cfg = |bm, bn, a_k_major, b_k_major, c_elem| GemmConfig {
        bm,
        bn,
        a_k_major,
        b_k_major,
        c_elem,
        ..GemmConfig::default()
    };
    let any = SizeFacts { m_div: 8, n_div: 8, k_div: 8 };
    let tiled = SizeFacts { m_div: 128, n_div: 128, k_div: 32 };
    let kernels = [
        ("tn", cfg(128, 128, true, true, Elem::F32), SizeFacts::default()),
        ("tn16", cfg(128, 64, true, true, elem), SizeFacts::default()),
        ("nt", cfg(64, 128, false, false, Elem::F32), any),
        ("nn16", cfg(64, 64, false, true, elem), any),
        ("tt", cfg(128, 128, true, false, Elem::F32), any),
        ("tiled", cfg(128, 128, true, true, elem), tiled),
    ];
    kernels
        .into_iter()
        .map(|(what, c, facts)| Sm80GemmAtLaunch::new(&format!("gemm80at_{what}_{elem}"), elem, c, facts))
        .collect()
}

/// `Ok` when `got` equals `want` bit for bit, else a `Wrong` error naming
/// how many of the row-major `(., n)` elements differ and the first
/// (`C[i][j]`), against `what` produced `want`.
fn same_bits(kernel: &str, got: &[f32], want: &[f32], n: usize, what: &str) -> Result<(), Error> {
    let differs = |(x, y): (&f32, &f32)| x.to_bits() != y.to_bits();
    let Some(e) = got.iter().zip(want).position(differs) else { return Ok(()) };
    let wrong = got.iter().zip(want).filter(|p| differs(*p)).count();
    Err(Error::Wrong {
        kernel: kernel.to_string(),
        why: format!(
            "{wrong} of {} elements differ; C[{}][{}] = {} where {what} has {}",
            got.len(),
            e / n,
            e % n,
            got[e],
            want[e]
        ),
    })
}

/// `Ok` when the 16-bit `got` is the f32 `want` rounded to `elem` (nearest
/// even), element for element.
fn same_rounded(kernel: &str, got: &[u16], want: &[f32], elem: Elem, n: usize, what: &str) -> Result<(), Error> {
    let rounded = |x: &f32| round_to_16(*x, elem);
    let Some(e) = got.iter().zip(want).position(|(g, w)| *g != rounded(w)) else { return Ok(()) };
    Err(Error::Wrong {
        kernel: kernel.to_string(),
        why: format!("C[{}][{}] = {:#06x} where {what} rounds to {:#06x}", e / n, e % n, got[e], rounded(&want[e])),
    })
}

/// A xorshift stream of pseudo-random 64-bit words from `seed`.
fn xorshift(seed: u64) -> impl Iterator<Item = u64> {
    // (seeds mixed first: `seed | 1` alone gave seeds 2n and 2n + 1 one stream)
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    std::iter::repeat_with(move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    })
}

/// Inputs whose every product and sum is exact in f32 (multiples of 1/8 in
/// [-1, 1]), so that any order of summation gives the same bits: f16 or
/// bf16 bit patterns.
fn gemm_data(n: usize, elem: Elem, seed: u64) -> Vec<u16> {
    xorshift(seed)
        .take(n)
        .map(|x| {
            let v = ((x >> 33) % 17) as f32 / 8.0 - 1.0;
            let b = v.to_bits();
            match elem {
                Elem::Bf16 => (b >> 16) as u16,
                _ => {
                    if v == 0.0 {
                        0
                    } else {
                        let sign = (b >> 16) & 0x8000;
                        let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
                        (sign | ((exp as u32) << 10) | ((b >> 13) & 0x3ff)) as u16
                    }
                }
            }
        })
        .collect()
}

/// A checked GEMM: the kernel, its output and its two inputs.
type GemmRun = (cudarc::driver::CudaFunction, Vec<f32>, Vec<u16>, Vec<u16>);

/// Runs the GEMM and its reference on the same inputs; `Ok(C)` when they agree bit for bit.
fn gemm_checked(gpu: &Gpu, g: &GemmKernel, seed: u64) -> Result<GemmRun, Error> {
    let (m, n, k) = g.mnk;
    let f = gpu.kernel(&g.name, &g.source)?;
    let rname = format!("{}_reference", g.name);
    let r = gpu.kernel(&rname, &kute_cuda::gemm::reference_source(&rname, g.mnk, g.elem, &g.config)?)?;
    let a_host = gemm_data((m * k) as usize, g.elem, seed);
    let b_host = gemm_data((n * k) as usize, g.elem, seed.wrapping_mul(31));
    let a = gpu.upload(&a_host)?;
    let b = gpu.upload(&b_host)?;
    let mut c = gpu.zeros::<f32>((m * n) as usize)?;
    let mut want = gpu.zeros::<f32>((m * n) as usize)?;
    gpu.launch3_smem(&f, g.blocks(), kute_cuda::gemm::THREADS as u32, g.smem_bytes, &a, &b, &mut c)?;
    gpu.launch3(&r, (((m * n + 255) / 256) as u32, 1), 256, &a, &b, &mut want)?;
    let (got, want) = (gpu.download(&c)?, gpu.download(&want)?);
    same_bits(&g.name, &got, &want, n as usize, "the reference")?;
    Ok((f, got, a_host, b_host))
}

fn gemm(
    shapes: &[String],
    elems: &[Elem],
    layouts: &str,
    sm90: bool,
    reps: usize,
    no_torch: bool,
    bk_stages: &[i64],
) -> Result<(), Error> {
    let mut cfg = gemm_config(layouts)?;
    if let [bk, stages] = bk_stages[..] {
        (cfg.bk, cfg.stages) = (bk, stages);
    }
    let no_torch = no_torch || layouts != "TN";
    let gpu = Gpu::new(0)?;
    println!("GPU: {} ({})", gpu.name()?, gpu.arch()?);
    let parse = |s: &str| -> Result<(i64, i64, i64), Error> {
        let v: Vec<i64> = s.split('x').filter_map(|x| x.trim().parse().ok()).collect();
        match v[..] {
            [m, n, k] => Ok((m, n, k)),
            _ => Err(Error::Unsupported { op: "gemm", why: format!("'{s}': MxNxK") }),
        }
    };
    let dir = std::env::temp_dir().join(format!("kute-gemm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| Error::Unsupported { op: "gemm", why: e.to_string() })?;
    let mut rows = Vec::new();
    let mut torch_args = Vec::new();
    for (si, s) in shapes.iter().enumerate() {
        let mnk = parse(s)?;
        for &elem in elems {
            let g = GemmKernel::new("kgemm", mnk, elem, cfg)?;
            let (f, c, a_host, b_host) = gemm_checked(&gpu, &g, 0x5eed + si as u64)?;
            println!("{s} {elem}: equal to the reference kernel bit for bit; shared A {}, B {}", g.smem_a, g.smem_b);
            if si == 0 {
                // kute's C and its inputs for PyTorch to check
                let tag = format!("{s}_{elem}");
                let write = |name: &str, bytes: &[u8]| std::fs::write(dir.join(format!("{tag}_{name}.bin")), bytes);
                let as_bytes16 = |v: &[u16]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
                write("a", &as_bytes16(&a_host))
                    .and_then(|()| write("b", &as_bytes16(&b_host)))
                    .and_then(|()| write("c", &c.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>()))
                    .map_err(|e| Error::Unsupported { op: "gemm", why: e.to_string() })?;
                torch_args.push(format!("{s}:{}:{}", elem.torch(), dir.join(&tag).display()));
            } else {
                torch_args.push(format!("{s}:{}:", elem.torch()));
            }
            let (m, n, k) = mnk;
            let a = gpu.zeros::<u16>((m * k) as usize)?;
            let b = gpu.zeros::<u16>((n * k) as usize)?;
            let mut cc = gpu.zeros::<f32>((m * n) as usize)?;
            let ms = gpu.time(2, 5, reps, || {
                gpu.launch3_smem(&f, g.blocks(), kute_cuda::gemm::THREADS as u32, g.smem_bytes, &a, &b, &mut cc)
            })?;
            rows.push((s.clone(), elem, format!("kute gemm {layouts} (SM80 mma.sync)"), ms, mnk));
            // the same kernel with a 16-bit C (what CuTe's sgemm_sm80 and cuBLAS write),
            // checked against the f32 C rounded on the host
            let g16 = GemmKernel::new("kgemm16", mnk, elem, GemmConfig { c_elem: elem, ..cfg })?;
            let f16k = gpu.kernel(&g16.name, &g16.source)?;
            let launch16 = |a: &_, b: &_, c: &mut _| {
                gpu.launch3_smem(&f16k, g16.blocks(), kute_cuda::gemm::THREADS as u32, g16.smem_bytes, a, b, c)
            };
            let mut c16 = gpu.zeros::<u16>((m * n) as usize)?;
            launch16(&gpu.upload(&a_host)?, &gpu.upload(&b_host)?, &mut c16)?;
            same_rounded(&g16.name, &gpu.download(&c16)?, &c, elem, n as usize, "its f32 C")?;
            println!("{s} {elem}: the SM80 kernel with {elem} C equals its f32 C rounded to {elem}, bit for bit");
            let ms = gpu.time(2, 5, reps, || launch16(&a, &b, &mut c16))?;
            rows.push((s.clone(), elem, format!("kute gemm {layouts} (SM80 mma.sync, {elem} C)"), ms, mnk));
            // the library's SM80 path: one kernel for every size, its tile
            // chosen per problem; equal to the kernel made for the shape
            {
                use kute_cuda::library::{gemm_with, GemmOptions, Matrix, MatrixMut};
                let lay = |t: String| t.parse::<Layout>().map_err(Error::from);
                let operand = |rows: i64, km: bool| {
                    if km {
                        lay(format!("({rows},{k}):({k},1)"))
                    } else {
                        lay(format!("({rows},{k}):(1,{rows})"))
                    }
                };
                let (la, lb, lc) =
                    (operand(m, cfg.a_k_major)?, operand(n, cfg.b_k_major)?, lay(format!("({m},{n}):({n},1)"))?);
                let options = GemmOptions { sm80: true, ..GemmOptions::default() };
                let (ha, hb) = (gpu.upload(&a_host)?, gpu.upload(&b_host)?);
                let mut cl = gpu.zeros::<u16>((m * n) as usize)?;
                let run = |x: &cudarc::driver::CudaSlice<u16>,
                           y: &cudarc::driver::CudaSlice<u16>,
                           c: &mut cudarc::driver::CudaSlice<u16>| {
                    let (am, bm_) = (Matrix { data: x, layout: la.clone() }, Matrix { data: y, layout: lb.clone() });
                    gemm_with(&gpu, elem, am, bm_, MatrixMut { data: c, layout: lc.clone() }, &options)
                };
                run(&ha, &hb, &mut cl)?;
                same_rounded(
                    "library gemm (SM80)",
                    &gpu.download(&cl)?,
                    &c,
                    elem,
                    n as usize,
                    "the SM80 kernel's f32 C",
                )?;
                let tile = kute_cuda::library::sm80_tile((m, n), 1, gpu.sm_count()?);
                println!("{s} {elem}: the library's SM80 kernel for every size (tile {tile:?}) equals the kernel made for the shape");
                let ms = gpu.time(2, 5, reps, || run(&a, &b, &mut cl))?;
                rows.push((
                    s.clone(),
                    elem,
                    format!("kute library {layouts} (SM80 at launch, {} x {}, {elem} C)", tile.0, tile.1),
                    ms,
                    mnk,
                ));
            }
            let plan90 = if sm90 {
                Sm90Gemm::warp_specialized_with("kgemm90ws", mnk, elem, Elem::F32, (cfg.a_k_major, cfg.b_k_major))
                    .map_err(|e| println!("{s} {elem}: no SM90 kernel: {e}"))
                    .ok()
            } else {
                None
            };
            if let Some(ws) = plan90 {
                let majors = ws.k_major;
                // the cp.async and the non-persistent TMA kernels take TN only
                let mut kernels = Vec::new();
                if let (true, Ok(h)) = (layouts == "TN", Sm90Gemm::new("kgemm90", mnk, elem)) {
                    let f90 = sm90_checked(&gpu, &h, &a_host, &b_host, &c)?;
                    println!(
                        "{s} {elem}: the SM90 kernel equals the SM80 kernel bit for bit; shared {} ({})",
                        h.smem, h.atom
                    );
                    let ms = gpu.time(2, 5, reps, || {
                        gpu.launch3_smem(&f90, h.blocks(), SM90_THREADS as u32, h.smem_bytes, &a, &b, &mut cc)
                    })?;
                    rows.push((s.clone(), elem, "kute gemm TN (SM90 wgmma)".to_string(), ms, mnk));
                    kernels.push((Sm90Gemm::with_tma("kgemm90tma", mnk, elem)?, "SM90 wgmma + TMA".to_string()));
                }
                // f32 and 16-bit C, each stored straight from registers and by TMA
                for c_elem in [Elem::F32, elem] {
                    for epilogue in [Sm90Epilogue::Direct, Sm90Epilogue::Tma] {
                        let tag = format!("kgemm90ws_{c_elem}_{}", epilogue == Sm90Epilogue::Tma);
                        let plan = Sm90Gemm::warp_specialized_epilogue(&tag, mnk, elem, c_elem, majors, epilogue);
                        let p = match (plan, epilogue) {
                            (Ok(p), _) => p,
                            (Err(e), Sm90Epilogue::Tma) => {
                                println!("{s} {elem}: no TMA store of {c_elem} C: {e}");
                                continue;
                            }
                            (Err(e), _) => return Err(e),
                        };
                        let c = if c_elem == Elem::F32 { String::new() } else { format!(", {elem} C") };
                        let how = if epilogue == Sm90Epilogue::Tma { "TMA store" } else { "st.global" };
                        kernels.push((p, format!("SM90 warp-specialized, persistent{c}, {how}")));
                    }
                }
                let sms = gpu.sm_count()?;
                for (t90, label) in kernels {
                    let label = format!("{layouts} ({label})");
                    let ft = gpu.kernel_for(&t90.name, &t90.source, "sm_90a")?;
                    let n = mnk.1 as usize;
                    let (ha, hb) = (gpu.upload(&a_host)?, gpu.upload(&b_host)?);
                    let grid = t90.grid(sms);
                    let ms = if t90.c_elem == Elem::F32 {
                        sm90_timed::<f32>(&gpu, &ft, &t90, (&ha, &hb), reps, |got| {
                            same_bits(&t90.name, got, &c, n, "the SM80 kernel")?;
                            println!(
                                "{s} {elem}: the {label} kernel equals the SM80 kernel bit for bit ({grid:?} blocks)"
                            );
                            Ok(())
                        })?
                    } else {
                        sm90_timed::<u16>(&gpu, &ft, &t90, (&ha, &hb), reps, |got| {
                            same_rounded(&t90.name, got, &c, elem, n, "the SM80 result")?;
                            println!("{s} {elem}: the {label} kernel equals the SM80 result rounded to {elem}, bit for bit ({grid:?} blocks)");
                            Ok(())
                        })?
                    };
                    rows.push((s.clone(), elem, format!("kute gemm {label}"), ms, mnk));
                }
            }
        }
    }
    if no_torch {
        println!("PyTorch: not run (--no-torch)");
    } else {
        for v in torch_gemm("gemm", reps, &torch_args)? {
            let (Some(shape), Some(ms)) = (v["shape"].as_str(), v["matmul_ms"].as_f64()) else { continue };
            let Some(elem) = elems.iter().copied().find(|e| v["dtype"].as_str() == Some(e.torch())) else { continue };
            let mnk = parse(shape)?;
            rows.push((shape.to_string(), elem, "torch.matmul (cuBLAS)".to_string(), ms, mnk));
            if let Some(err) = v["max_rel_err"].as_f64() {
                println!("{shape} {elem}: kute's C against torch.matmul(A.float(), B.float().t()): max relative error {err:e}");
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    println!();
    println!("| M x N x K | type | kernel | time (ms) | TFLOP/s | vs torch.matmul |");
    println!("|---|---|---|---|---|---|");
    for r in &rows {
        let flops = 2.0 * (r.4 .0 * r.4 .1 * r.4 .2) as f64;
        let base = rows.iter().find(|x| x.0 == r.0 && x.1 == r.1 && x.2.starts_with("torch")).map(|x| x.3);
        let ratio = base.map(|b| format!("{:.3}", b / r.3)).unwrap_or_else(|| "-".into());
        println!("| {} | {} | {} | {:.4} | {:.1} | {ratio} |", r.0, r.1, r.2, r.3, flops / r.3 / 1e9);
    }
    Ok(())
}

fn need_nvrtc() -> Result<(), Error> {
    if nvrtc_available() {
        Ok(())
    } else {
        Err(Error::Compile {
            name: "(all)".into(),
            log: "libnvrtc could not be loaded: put it on LD_LIBRARY_PATH".into(),
        })
    }
}

fn static_arch(a: &str) -> &'static str {
    Box::leak(a.to_string().into_boxed_str())
}

fn plan(kind: &str, src: &str, dst: &str, elem: Elem, no_swizzle: bool) -> Result<(), Error> {
    use std::fmt::Write as _;
    let mut o = String::new();
    let (s, d) = (lay(src)?, lay(dst)?);
    match kind {
        "copy" => {
            let k = CopyKernel::new("kute_copy", &s, &d, elem, CopyConfig::default())?;
            let _ = writeln!(o, "// max_common_layout: {}", k.common);
            let _ = writeln!(o, "// vector: {} elements ({} bytes)", k.vector_elems, k.vector_elems * elem.bytes());
            let _ = writeln!(o, "// source units: {}", k.src_units);
            let _ = writeln!(o, "// destination units: {}", k.dst_units);
            let _ = writeln!(o, "// launch: {} blocks of {} threads", k.blocks(), k.config.threads);
            o.push_str(&k.source);
        }
        "transpose" => {
            let cfg = TransposeConfig { swizzle: !no_swizzle, ..TransposeConfig::default() };
            let k = TransposeKernel::new("kute_transpose", &s, &d, elem, cfg)?;
            let _ = writeln!(
                o,
                "// tile: {:?}, {} threads, {} vectors of {} elements each",
                k.tile, k.threads, k.passes, k.vector_elems
            );
            let _ = writeln!(o, "// tv_read:  {}", k.tv_read);
            let _ = writeln!(o, "// tv_write: {}", k.tv_write);
            let _ = writeln!(o, "// shared:   {}", k.smem);
            for r in &k.reasoning {
                let _ = writeln!(o, "//   {r}");
            }
            let _ = writeln!(
                o,
                "// per block: shared stores {} wavefronts ({} conflicts), loads {} wavefronts ({} conflicts)",
                k.cost.store_wavefronts(),
                k.cost.store_conflicts(),
                k.cost.load_wavefronts(),
                k.cost.load_conflicts()
            );
            let _ = writeln!(o, "// launch: {} blocks of {} threads", k.blocks, k.threads);
            o.push_str(&k.source);
        }
        "gemm" => {
            let mnk = |t: &str| -> Result<i64, Error> {
                t.trim().parse().map_err(|_| Error::Unsupported { op: "plan", why: format!("'{t}' is not a size") })
            };
            let k = GemmKernel::new("kute_gemm", (mnk(src)?, mnk(dst)?, mnk(src)?), elem, GemmConfig::default())?;
            for r in &k.reasoning {
                let _ = writeln!(o, "//   {r}");
            }
            o.push_str(&k.source);
        }
        other => return Err(Error::Unsupported { op: "plan", why: format!("'{other}': copy, transpose or gemm") }),
    }
    // a closed pipe (`| head`) ends the output quietly
    let _ = std::io::Write::write_all(&mut std::io::stdout(), o.as_bytes());
    Ok(())
}

/// The attention kernels `ptx` compiles: f16 and bf16, every head
/// dimension with its default tile, causal or not, and tiles beside them
/// (Q in registers at d = 128, one and two warps).
fn attention_catalogue() -> Result<Vec<AttentionKernel>, Error> {
    let mut configs = Vec::new();
    for d in [64, 128, 256] {
        for causal in [false, true] {
            configs.push(AttentionConfig::for_head_dim(d, causal));
        }
    }
    configs.push(AttentionConfig {
        head_dim: 128,
        block_m: 64,
        block_n: 64,
        warps: 4,
        causal: false,
        kv_x4: true,
        frag_prefetch: 1,
        kv_stages: 1,
    });
    configs.push(AttentionConfig {
        head_dim: 64,
        block_m: 64,
        block_n: 32,
        warps: 2,
        causal: true,
        kv_x4: true,
        frag_prefetch: 1,
        kv_stages: 1,
    });
    configs.push(AttentionConfig {
        head_dim: 256,
        block_m: 64,
        block_n: 32,
        warps: 4,
        causal: false,
        kv_x4: true,
        frag_prefetch: 1,
        kv_stages: 1,
    });
    // where shared memory is short (99 KiB per block): d = 256's tile
    configs.push(AttentionConfig::fitting(256, false, Elem::F16, 99 * 1024));
    // the default tiles with one stage of K and V, and with them loaded by
    // ldmatrix.x2 right before their MMAs (the earlier kernels)
    for d in [64, 128, 256] {
        configs.push(AttentionConfig { kv_stages: 1, ..AttentionConfig::for_head_dim(d, false) });
        configs.push(AttentionConfig {
            kv_x4: false,
            frag_prefetch: 0,
            kv_stages: 1,
            ..AttentionConfig::for_head_dim(d, false)
        });
    }
    let mut out = Vec::new();
    for elem in [Elem::F16, Elem::Bf16] {
        for &c in &configs {
            out.push(AttentionKernel::new(&AttentionKernel::name_of(c, elem), c, elem)?);
        }
    }
    Ok(out)
}

/// The SM90 attention kernels `ptx` compiles (for `sm_90a`): f16 and bf16,
/// every head dimension's default tile, causal or not, overlapped or not,
/// one warpgroup with three stages, two issuing together with 176 keys a
/// step, and two warpgroups at `d` = 64 with 192 keys a step.
fn attention_sm90_catalogue() -> Result<Vec<kute_cuda::attention::Sm90AttentionKernel>, Error> {
    use kute_cuda::attention::{Sm90AttentionConfig, Sm90AttentionKernel};
    let mut configs = Vec::new();
    for d in [64, 128, 256] {
        for causal in [false, true] {
            for overlap in [true, false] {
                configs.push(Sm90AttentionConfig { overlap, ..Sm90AttentionConfig::for_head_dim(d, causal) });
            }
        }
    }
    configs.push(Sm90AttentionConfig { block_n: 64, warpgroups: 1, stages: 3, ..Sm90AttentionConfig::default() });
    configs.push(Sm90AttentionConfig { block_n: 176, pingpong: false, ..Sm90AttentionConfig::default() });
    configs.push(Sm90AttentionConfig { head_dim: 64, block_n: 192, ..Sm90AttentionConfig::default() });
    let mut out = Vec::new();
    for elem in [Elem::F16, Elem::Bf16] {
        for &c in &configs {
            out.push(Sm90AttentionKernel::new(&Sm90AttentionKernel::name_of(c, elem), c, elem)?);
        }
    }
    Ok(out)
}

/// The spill stores an attention kernel may have, in bytes: the SM80
/// kernels' fastest tiles hold 128 registers of `O` and 64 of `S` and sit at
/// the 255-register edge, where ptxas spills a few registers around the
/// loop (16 to 36 bytes) and its versions differ by as much; their tiles
/// that spill nothing ran slower (355 against 380 TFLOP/s at `d` = 128). A
/// kernel that holds too much at once spills hundreds of bytes.
const SPILL_LIMIT: i64 = 64;

/// ptxas's registers, spills and shared memory of each attention kernel
/// for `arch` (for `sm_90`, the SM90 kernels too, for `sm_90a`), one line
/// each; the number of kernels that spill more than [`SPILL_LIMIT`].
fn attention_cubins(arch: &str) -> Result<usize, Error> {
    let mut spilling = 0;
    let mut kernels: Vec<(String, String, &str, bool)> =
        attention_catalogue()?.into_iter().map(|k| (k.name, k.source, arch, k.q_in_registers)).collect();
    if arch == "sm_90" {
        kernels.extend(attention_sm90_catalogue()?.into_iter().map(|k| (k.name, k.source, "sm_90a", false)));
    }
    for (name, source, arch, q_in_registers) in kernels {
        let log = kute_cuda::gpu::ptxas_report(&name, &source, arch)?;
        for r in kute_cuda::gpu::kernel_resources(&log) {
            let spills = r.spill_stores + r.spill_loads > 0;
            let over = r.spill_stores > SPILL_LIMIT;
            spilling += usize::from(over);
            println!(
                "{arch} {}{}: {} registers, {} bytes spill stores, {} bytes spill loads{}",
                name,
                if q_in_registers { " (Q in registers)" } else { "" },
                r.registers,
                r.spill_stores,
                r.spill_loads,
                if over {
                    "  <- SPILLS"
                } else if spills {
                    "  (a few registers spilled)"
                } else {
                    ""
                }
            );
        }
    }
    Ok(spilling)
}

/// Compiles `source` to PTX for `arch` with NVRTC; with `out`, writes the
/// source and its PTX there (`NAME.cu`, `NAME.ARCH.ptx`). A failure is
/// printed, and the answer is whether it compiled (an error only where
/// `out` cannot be made).
fn compile_kept(name: &str, source: &str, arch: &'static str, out: Option<&std::path::Path>) -> Result<bool, Error> {
    match compile_ptx(name, source, arch) {
        Ok(p) => {
            if let Some(dir) = out {
                std::fs::create_dir_all(dir).map_err(|e| Error::Unsupported { op: "ptx", why: e.to_string() })?;
                let _ = std::fs::write(dir.join(format!("{name}.cu")), source);
                let _ = std::fs::write(dir.join(format!("{name}.{arch}.ptx")), p.to_src());
            }
            Ok(true)
        }
        Err(e) => {
            eprintln!("{arch} {name}: {e}");
            Ok(false)
        }
    }
}

fn ptx(archs: &[String], out: Option<&std::path::Path>, cubin: bool) -> Result<(), Error> {
    need_nvrtc()?;
    let kernels = catalogue()?;
    let attention = attention_catalogue()?;
    let mut failed = 0;
    for arch in archs {
        let a = static_arch(arch);
        let mut count = 0;
        for (name, source) in kernels.iter().flat_map(|k| k.sources()) {
            count += 1;
            failed += usize::from(!compile_kept(&name, source, a, out)?);
        }
        for (name, source) in gemm_catalogue()? {
            count += 1;
            if let Err(e) = compile_ptx(&name, &source, a) {
                failed += 1;
                eprintln!("{arch} {name}: {e}");
            }
        }
        let attention_failed = failed;
        for k in &attention {
            count += 1;
            failed += usize::from(!compile_kept(&k.name, &k.source, a, out)?);
        }
        println!("{arch} attention: {} kernels, {} failed", attention.len(), failed - attention_failed);
        println!("{arch}: {count} kernels compiled, {failed} failed");
        if cubin {
            let spilling = attention_cubins(arch)?;
            if spilling > 0 {
                failed += spilling;
                eprintln!("{arch}: {spilling} attention kernels spill more than {SPILL_LIMIT} bytes of registers");
            }
        }
    }
    // the wgmma kernels are for sm_90a only
    let mut count = 0;
    let (tn, tma, direct) = ((true, true), Sm90Epilogue::Tma, Sm90Epilogue::Direct);
    for (mnk, elem) in [((256, 256, 128), Elem::F16), ((128, 512, 64), Elem::Bf16)] {
        for h in [
            Sm90Gemm::new(&format!("gemm90_{elem}"), mnk, elem)?,
            Sm90Gemm::with_tma(&format!("gemm90tma_{elem}"), mnk, elem)?,
            Sm90Gemm::warp_specialized_epilogue(&format!("gemm90ws_{elem}"), mnk, elem, Elem::F32, tn, direct)?,
            Sm90Gemm::warp_specialized_epilogue(&format!("gemm90ws16_{elem}"), mnk, elem, elem, tn, direct)?,
            Sm90Gemm::warp_specialized_epilogue(
                &format!("gemm90ws_nt_{elem}"),
                mnk,
                elem,
                Elem::F32,
                (false, false),
                direct,
            )?,
            Sm90Gemm::warp_specialized_epilogue(
                &format!("gemm90ws_nn_{elem}"),
                mnk,
                elem,
                Elem::F32,
                (false, true),
                direct,
            )?,
            Sm90Gemm::warp_specialized_epilogue(
                &format!("gemm90ws_tt_{elem}"),
                mnk,
                elem,
                elem,
                (true, false),
                direct,
            )?,
            // predicated: no size a multiple of the tile
            Sm90Gemm::warp_specialized_epilogue(
                &format!("gemm90ws_edge_{elem}"),
                (200, 264, 72),
                elem,
                Elem::F32,
                (true, true),
                direct,
            )?,
            Sm90Gemm::warp_specialized_epilogue(
                &format!("gemm90ws_edge_nt_{elem}"),
                (136, 8, 1000),
                elem,
                elem,
                (false, false),
                direct,
            )?,
            // C stored by TMA: 16-bit and f32, K- and MN-major operands, edge tiles
            Sm90Gemm::warp_specialized_epilogue(&format!("gemm90ws_tma16_{elem}"), mnk, elem, elem, tn, tma)?,
            Sm90Gemm::warp_specialized_epilogue(
                &format!("gemm90ws_tma_nt_{elem}"),
                mnk,
                elem,
                Elem::F32,
                (false, false),
                tma,
            )?,
            Sm90Gemm::warp_specialized_epilogue(
                &format!("gemm90ws_tma_edge_{elem}"),
                (200, 264, 72),
                elem,
                Elem::F32,
                tn,
                tma,
            )?,
            Sm90Gemm::warp_specialized_epilogue(
                &format!("gemm90ws_tma_edge_nt_{elem}"),
                (136, 8, 1000),
                elem,
                elem,
                (false, false),
                tma,
            )?,
        ] {
            count += 1;
            if let Err(e) = compile_ptx(&h.name, &h.source, "sm_90a") {
                failed += 1;
                eprintln!("sm_90a {}: {e}", h.name);
            }
        }
    }
    // the fused epilogues: every activation, each bias
    {
        use kute_cuda::gemm_sm90::{Activation, BiasMode, EpilogueOp};
        let ws = Sm90Config {
            loader: Sm90Loader::WarpSpecialized,
            epilogue: Sm90Epilogue::Tma,
            c_elem: Elem::F16,
            ..Sm90Config::default()
        };
        let facts = SizeFacts { n_div: 8, ..SizeFacts::default() };
        let (tma, direct) = (Sm90Epilogue::Tma, Sm90Epilogue::Direct);
        // (with beta: C read through the TMA staging buffer or directly,
        // 16-bit and f32)
        for (i, (bias, activation, beta, epilogue, c_elem)) in [
            (BiasMode::None, Activation::Relu, false, tma, Elem::F16),
            (BiasMode::PerRow, Activation::Gelu, false, tma, Elem::F16),
            (BiasMode::PerColumn, Activation::Silu, false, tma, Elem::F16),
            (BiasMode::PerColumn, Activation::None, false, tma, Elem::F16),
            (BiasMode::PerColumn, Activation::Gelu, true, tma, Elem::F16),
            (BiasMode::None, Activation::None, true, tma, Elem::F32),
            (BiasMode::PerRow, Activation::Relu, true, direct, Elem::F16),
            (BiasMode::None, Activation::Silu, true, direct, Elem::F32),
        ]
        .into_iter()
        .enumerate()
        {
            let config = Sm90Config { epilogue, c_elem, ..ws };
            let facts = if epilogue == direct { SizeFacts::default() } else { facts };
            let g = Sm90GemmAtLaunch::with_op(
                &format!("gemm90op{i}"),
                Elem::F16,
                config,
                facts,
                EpilogueOp { bias, activation, beta },
            )?;
            count += 1;
            if let Err(e) = compile_ptx(&g.name, &g.source, "sm_90a") {
                failed += 1;
                eprintln!("sm_90a {}: {e}", g.name);
            }
        }
    }
    for elem in [Elem::F16, Elem::Bf16, Elem::E4m3, Elem::E5m2] {
        for g in at_launch_catalogue(elem)? {
            count += 1;
            if let Err(e) = compile_ptx(&g.name, &g.source, "sm_90a") {
                failed += 1;
                eprintln!("sm_90a {}: {e}", g.name);
            }
        }
    }
    let (attention_sm90, failed_before) = (attention_sm90_catalogue()?, failed);
    for k in &attention_sm90 {
        count += 1;
        failed += usize::from(!compile_kept(&k.name, &k.source, "sm_90a", out)?);
    }
    println!("sm_90a attention: {} kernels, {} failed", attention_sm90.len(), failed - failed_before);
    println!("sm_90a: {count} kernels compiled, {failed} failed");
    if failed > 0 {
        return Err(Error::Compile { name: format!("{failed} kernels"), log: "see above".into() });
    }
    Ok(())
}

/// Random bits for `n` elements (a xorshift stream; the values only need to differ).
fn data<T: From<u16>>(n: usize, seed: u64) -> Vec<T> {
    xorshift(seed).take(n).map(|x| T::from((x >> 20) as u16)).collect()
}

fn cosize(l: &Layout) -> Result<usize, Error> {
    Ok(l.cosize()?.value().max(0) as usize)
}

/// An element's carrier on the host (`u32` for f32, `u16` for f16 and bf16).
trait Carrier:
    cudarc::driver::DeviceRepr + cudarc::driver::ValidAsZeroBits + From<u16> + Copy + PartialEq + std::fmt::Debug + Default
{
}

impl<T> Carrier for T where
    T: cudarc::driver::DeviceRepr
        + cudarc::driver::ValidAsZeroBits
        + From<u16>
        + Copy
        + PartialEq
        + std::fmt::Debug
        + Default
{
}

/// Runs `k` once on fresh buffers and checks the result; returns the kernel.
fn run_checked<T>(gpu: &Gpu, k: &Kernel) -> Result<cudarc::driver::CudaFunction, Error>
where
    T: Carrier,
{
    let f = gpu.kernel(k.name(), k.source())?;
    let (s, d) = k.layouts();
    let input: Vec<T> = data(cosize(s)?, 0x9e37_79b9);
    let src = gpu.upload(&input)?;
    let mut dst = gpu.zeros::<T>(cosize(d)?)?;
    let (blocks, threads) = k.launch_shape();
    gpu.launch(&f, blocks, threads, &src, &mut dst)?;
    let out = gpu.download(&dst)?;
    check_copy(k.name(), s, d, &input, &out)?;
    Ok(f)
}

fn check() -> Result<(), Error> {
    let gpu = Gpu::new(0)?;
    println!("GPU: {} ({})", gpu.name()?, gpu.arch()?);
    let kernels = catalogue()?;
    let mut bad = 0;
    for k in &kernels {
        let r = match k.elem() {
            Elem::F32 => run_checked::<u32>(&gpu, k).map(|_| ()),
            Elem::F16 | Elem::Bf16 => run_checked::<u16>(&gpu, k).map(|_| ()),
            e @ (Elem::E4m3 | Elem::E5m2) => {
                Err(Error::Unsupported { op: "check", why: format!("the catalogue moves no {e} elements") })
            }
        };
        match r {
            Ok(()) => println!("ok    {}", k.name()),
            Err(e) => {
                bad += 1;
                println!("FAIL  {}: {e}", k.name());
            }
        }
    }
    for (k, (mnk, elem, blas)) in GEMM_CASES.iter().enumerate() {
        let g = GemmKernel::new(&format!("gemm{k}_{blas}_{elem}"), *mnk, *elem, gemm_config(blas)?)?;
        match gemm_checked(&gpu, &g, 7 + k as u64) {
            Ok(_) => println!("ok    {} {mnk:?}", g.name),
            Err(e) => {
                bad += 1;
                println!("FAIL  {}: {e}", g.name);
            }
        }
    }
    let mut at_launch = 0;
    if gpu.arch()? == "sm_90" {
        for elem in [Elem::F16, Elem::Bf16] {
            for g in at_launch_catalogue(elem)? {
                let f = gpu.load_sm90_at(&g)?;
                let origin = f.origin;
                for (i, &mnk) in AT_LAUNCH_SHAPES.iter().enumerate() {
                    let Ok(p) = g.problem(mnk) else { continue };
                    at_launch += 1;
                    match at_launch_checked(&gpu, &f, &g, &p, 11 + i as u64) {
                        Ok(()) => println!("ok    {} {mnk:?} (one {origin:?} kernel for every size)", g.name),
                        Err(e) => {
                            bad += 1;
                            println!("FAIL  {} {mnk:?}: {e}", g.name);
                        }
                    }
                    // split-K: each tile's k-tiles in up to three shares
                    let splits = ((mnk.2 + 63) / 64).min(3);
                    if splits > 1 {
                        at_launch += 1;
                        match at_launch_checked(&gpu, &f, &g, &p.with_splits(splits), 11 + i as u64) {
                            Ok(()) => println!("ok    {} {mnk:?}, k split {splits} ways", g.name),
                            Err(e) => {
                                bad += 1;
                                println!("FAIL  {} {mnk:?}, k split {splits} ways: {e}", g.name);
                            }
                        }
                    }
                }
                // a batch of three with every leading dimension padded
                for (i, &mnk) in [(200, 264, 72), (256, 512, 128)].iter().enumerate() {
                    if g.problem(mnk).is_err() {
                        continue;
                    }
                    at_launch += 1;
                    match at_launch_batched_checked(&gpu, &f, &g, mnk, 3, 41 + i as u64) {
                        Ok(()) => println!(
                            "ok    {} {mnk:?} x 3, padded rows and matrices{}",
                            g.name,
                            if i % 2 == 0 { ", k split 2 ways" } else { "" }
                        ),
                        Err(e) => {
                            bad += 1;
                            println!("FAIL  {} {mnk:?} x 3, padded: {e}", g.name);
                        }
                    }
                }
            }
        }
    }
    // the SM80 kernels of sizes given at launch (what GPUs other than
    // Hopper run), on this GPU
    for elem in [Elem::F16, Elem::Bf16] {
        for g in sm80_at_launch_catalogue(elem)? {
            let f = gpu.load_sm80_at(&g)?;
            let origin = f.origin;
            for (i, &mnk) in AT_LAUNCH_SHAPES.iter().enumerate() {
                let Ok(p) = g.problem(mnk) else { continue };
                // unsplit, and split-K in up to three shares
                let ways = if p.ktiles > 1 { vec![1, p.ktiles.min(3)] } else { vec![1] };
                for splits in ways {
                    at_launch += 1;
                    match sm80_at_launch_checked(&gpu, (&g, &f), mnk, splits, 61 + i as u64) {
                        Ok(()) => {
                            println!(
                                "ok    {} {mnk:?}, k split {splits} ways (one {origin:?} kernel for every size)",
                                g.name
                            )
                        }
                        Err(e) => {
                            bad += 1;
                            println!("FAIL  {} {mnk:?}, k split {splits} ways: {e}", g.name);
                        }
                    }
                }
            }
        }
    }
    // the library call: operands described by layouts
    let mut library = 0;
    if gpu.arch()? == "sm_90" {
        let cases = [
            ((300, 200, 64), 1, (true, true), Elem::F16, true, None),
            ((256, 264, 128), 1, (false, true), Elem::F16, false, None),
            ((128, 512, 96), 3, (true, false), Elem::Bf16, false, None),
            ((136, 40, 1000), 2, (false, false), Elem::Bf16, true, None),
            // clusters of two: an odd count of M-tiles, an N-major B, a batch
            ((300, 200, 64), 1, (true, true), Elem::F16, false, Some(2)),
            ((1000, 264, 1000), 3, (true, false), Elem::Bf16, false, Some(2)),
            ((520, 136, 200), 2, (false, false), Elem::F16, true, Some(2)),
        ];
        // (and on the SM80 kernels, each operand layout, a batch, odd sizes)
        let sm80 = [
            ((300, 200, 64), 1, (true, true), Elem::F16, true),
            ((256, 264, 128), 3, (false, true), Elem::Bf16, false),
            ((1000, 520, 1000), 1, (true, false), Elem::F16, false),
            ((136, 40, 1000), 2, (false, false), Elem::Bf16, true),
            ((4096, 4096, 512), 1, (true, true), Elem::F16, false),
        ];
        let cases = cases
            .into_iter()
            .map(|(mnk, batch, km, elem, c_f32, cluster)| (mnk, batch, km, elem, (c_f32, cluster, false)))
            .chain(sm80.into_iter().map(|(mnk, batch, km, elem, c_f32)| (mnk, batch, km, elem, (c_f32, None, true))));
        for (i, (mnk, batch, k_major, elem, how)) in cases.enumerate() {
            library += 1;
            let (c_f32, cluster, on_sm80) = how;
            let what = format!(
                "gemm {mnk:?} x {batch} {} {elem} C {}{}{}",
                majors_config(k_major).blas(),
                if c_f32 { "f32" } else { "16-bit" },
                cluster.map_or(String::new(), |c| format!(", clusters of {c}")),
                if on_sm80 { ", SM80 kernels" } else { "" }
            );
            match library_checked(&gpu, mnk, batch, k_major, elem, how, 77 + i as u64) {
                Ok(()) => println!("ok    {what}"),
                Err(e) => {
                    bad += 1;
                    println!("FAIL  {what}: {e}");
                }
            }
        }
    }
    // the fused epilogue: alpha, a bias per row or column, an activation
    if gpu.arch()? == "sm_90" {
        use kute_cuda::gemm_sm90::{Activation, BiasMode};
        let cases = [
            ((300, 200, 64), BiasMode::PerColumn, Activation::Gelu, 0.0, Elem::F16, true),
            ((256, 264, 128), BiasMode::PerRow, Activation::Relu, 0.0, Elem::F16, false),
            ((136, 40, 1000), BiasMode::None, Activation::Silu, 0.0, Elem::Bf16, true),
            // one tile and 64 k-tiles: split-K, the epilogue in the finishing kernel
            ((128, 256, 4096), BiasMode::PerRow, Activation::Gelu, 0.0, Elem::F16, true),
            ((100, 256, 2048), BiasMode::PerColumn, Activation::Silu, 0.0, Elem::Bf16, false),
            // beta: C read by TMA (16-byte rows) or directly (N odd), on and
            // off the tile grid, many tiles per block, split-K's finish
            ((300, 264, 256), BiasMode::PerColumn, Activation::Relu, 0.75, Elem::F16, false),
            ((1000, 1024, 512), BiasMode::None, Activation::None, -1.5, Elem::Bf16, false),
            ((2048, 2048, 128), BiasMode::PerRow, Activation::Silu, 0.5, Elem::F16, true),
            ((129, 77, 96), BiasMode::PerColumn, Activation::Gelu, 2.0, Elem::F16, true),
            ((130, 63, 64), BiasMode::None, Activation::None, 1.0, Elem::Bf16, false),
            ((128, 256, 4096), BiasMode::None, Activation::Relu, 0.25, Elem::F16, false),
        ];
        // (and in clusters of two: beta read by TMA and directly, biases,
        // an odd count of M-tiles)
        let clustered = [
            ((2048, 2048, 128), BiasMode::PerRow, Activation::Silu, 0.5, Elem::F16, true),
            ((300, 264, 256), BiasMode::PerColumn, Activation::Relu, 0.75, Elem::F16, false),
            ((1000, 77, 96), BiasMode::PerColumn, Activation::Gelu, 2.0, Elem::Bf16, true),
        ];
        // (and on the SM80 kernels, split-K's finishing kernel included)
        let sm80 = [
            ((300, 200, 64), BiasMode::PerColumn, Activation::Gelu, 0.0, Elem::F16, true),
            ((256, 264, 128), BiasMode::PerRow, Activation::Relu, 0.75, Elem::Bf16, false),
            ((128, 256, 4096), BiasMode::PerRow, Activation::Silu, 0.5, Elem::F16, true),
            ((129, 77, 96), BiasMode::None, Activation::None, -1.5, Elem::F16, false),
        ];
        let cases = cases
            .into_iter()
            .map(|c| (c, (None, false)))
            .chain(clustered.into_iter().map(|c| (c, (Some(2), false))))
            .chain(sm80.into_iter().map(|c| (c, (None, true))));
        for (i, ((mnk, bias, act, beta, elem, c_f32), (cluster, on_sm80))) in cases.enumerate() {
            library += 1;
            let what = format!(
                "gemm_with {mnk:?} {bias:?} {act:?} beta {beta} {elem} C {}{}{}",
                if c_f32 { "f32" } else { "16-bit" },
                cluster.map_or(String::new(), |c| format!(", clusters of {c}")),
                if on_sm80 { ", SM80 kernels" } else { "" }
            );
            match epilogue_checked(&gpu, mnk, bias, act, beta, elem, (c_f32, cluster, on_sm80), 91 + i as u64) {
                Ok(err) => println!("ok    {what}: largest difference {err:.2e} (relative)"),
                Err(e) => {
                    bad += 1;
                    println!("FAIL  {what}: {e}");
                }
            }
        }
    }
    // 8-bit inputs with per-tensor scales through the library call, every
    // entry against the dequantized reference
    if gpu.arch()? == "sm_90" {
        let (n, wrong) = fp8_library_checks(&gpu)?;
        library += n;
        bad += wrong;
    }
    let (attention_calls, wrong) = attention_checks(&gpu)?;
    bad += wrong;
    println!(
        "{} kernels checked against the CPU reference, {} GEMMs, {at_launch} problems of the SM90 kernels of sizes given at launch, {library} library calls against the reference GEMM and {attention_calls} attention calls against the CPU reference, {bad} wrong",
        kernels.len(),
        GEMM_CASES.len()
    );
    if bad > 0 {
        return Err(Error::Wrong { kernel: format!("{bad} kernels"), why: "see above".into() });
    }
    Ok(())
}

/// The attention checks of `check`: odd lengths, masks, grouped heads,
/// both storages, every head dimension, each row against the CPU
/// reference; on an SM90 GPU each case through both kernels, pinned SM90
/// tiles and persistent blocks. The calls made and how many were wrong.
fn attention_checks(gpu: &Gpu) -> Result<(usize, usize), Error> {
    // attention: odd lengths, masks, grouped heads, both storages, every
    // head dimension, each row against the CPU reference
    // (on an SM90 GPU the library's calls run the SM90 kernel: each case
    // runs on the SM80 kernel too)
    let (mut attention_calls, mut bad) = (0, 0);
    let mut attention_cases = ATTENTION_CASES.to_vec();
    if gpu.arch()? == "sm_90" {
        for c in ATTENTION_CASES {
            if c.path == AttentionPath::Library {
                attention_cases.push(AttentionCase { path: AttentionPath::Sm80(None), ..c });
            }
        }
        // pinned SM90 tiles: one warpgroup, three stages, not overlapped;
        // two issuing together; three taking turns; 176 keys a step
        let mut c = ATTENTION_CASES[1];
        c.path = AttentionPath::Sm90((64, 1, 3, false, true, true));
        attention_cases.push(c);
        let mut c = ATTENTION_CASES[6];
        c.path = AttentionPath::Sm90((64, 2, 2, true, false, false));
        attention_cases.push(c);
        let mut c = ATTENTION_CASES[3];
        c.path = AttentionPath::Sm90((128, 3, 2, true, true, true));
        attention_cases.push(c);
        let mut c = ATTENTION_CASES[9];
        c.path = AttentionPath::Sm90((176, 2, 2, false, true, true));
        attention_cases.push(c);
        // more tiles than multiprocessors: each persistent block takes
        // several, the next one's Q and keys copied during the last one's
        // stores (grouped heads; causal with three warpgroups)
        let many = AttentionCase {
            batch: 2,
            hq: 24,
            hkv: 6,
            lq: 700,
            lk: 200,
            d: 128,
            causal: false,
            elem: Elem::Bf16,
            bhsd: false,
            path: AttentionPath::Library,
            lse: true,
        };
        attention_cases.push(many);
        attention_cases.push(AttentionCase {
            d: 64,
            causal: true,
            elem: Elem::F16,
            bhsd: true,
            path: AttentionPath::Sm90((128, 3, 2, true, true, true)),
            ..many
        });
    }
    for (i, case) in attention_cases.iter().enumerate() {
        attention_calls += 1;
        match attention_checked(gpu, case, None, 300 + i as u64) {
            Ok((eo, el)) => println!("ok    attention {case}: O within {eo:.1e}, LSE within {el:.1e}"),
            Err(e) => {
                bad += 1;
                println!("FAIL  attention {case}: {e}");
            }
        }
    }
    Ok((attention_calls, bad))
}

/// The SM90 kernels of sizes given at launch that `ptx` compiles and
/// `check` runs: f32 and 16-bit C, direct and TMA stores, K- and MN-major
/// operands, and facts from none to tile multiples.
fn at_launch_catalogue(elem: Elem) -> Result<Vec<Sm90GemmAtLaunch>, Error> {
    let ws = |epilogue, c_elem, k_major| Sm90Config {
        loader: Sm90Loader::WarpSpecialized,
        epilogue,
        c_elem,
        k_major,
        ..Sm90Config::default()
    };
    if elem.is_fp8() {
        return fp8_catalogue(elem);
    }
    let (direct, tma, tn) = (Sm90Epilogue::Direct, Sm90Epilogue::Tma, (true, true));
    let any_k8 = SizeFacts::default();
    let n8 = SizeFacts { n_div: 8, ..any_k8 };
    let mn8 = SizeFacts { m_div: 8, n_div: 8, k_div: 1 };
    let tiled = SizeFacts { m_div: 128, n_div: 256, k_div: 64 };
    Ok(vec![
        Sm90GemmAtLaunch::new(&format!("gemm90at_{elem}"), elem, ws(direct, Elem::F32, tn), any_k8)?,
        Sm90GemmAtLaunch::new(&format!("gemm90at_c16_{elem}"), elem, ws(direct, elem, tn), any_k8)?,
        Sm90GemmAtLaunch::new(&format!("gemm90at_tma16_{elem}"), elem, ws(tma, elem, tn), n8)?,
        Sm90GemmAtLaunch::new(&format!("gemm90at_nt_{elem}"), elem, ws(tma, Elem::F32, (false, false)), mn8)?,
        Sm90GemmAtLaunch::new(&format!("gemm90at_tiled_{elem}"), elem, ws(tma, elem, tn), tiled)?,
        Sm90GemmAtLaunch::new(&format!("gemm90at_n192_{elem}"), elem, Sm90Config { bn: 192, ..ws(tma, elem, tn) }, n8)?,
        // clusters of two blocks along M, B's halves multicast
        Sm90GemmAtLaunch::new(
            &format!("gemm90at_cl2_{elem}"),
            elem,
            Sm90Config { cluster: 2, ..ws(tma, elem, tn) },
            n8,
        )?,
        Sm90GemmAtLaunch::new(
            &format!("gemm90at_cl2_nt_{elem}"),
            elem,
            Sm90Config { cluster: 2, bn: 128, ..ws(tma, Elem::F32, (false, false)) },
            mn8,
        )?,
    ])
}

/// The 8-bit kernels of sizes given at launch (both operands K-major, `K`
/// a multiple of 16): an f32 C, f16 and bf16 C stored by TMA, alpha fused
/// (the scales' product), and tile multiples.
fn fp8_catalogue(elem: Elem) -> Result<Vec<Sm90GemmAtLaunch>, Error> {
    use kute_cuda::gemm_sm90::EpilogueOp;
    let ws = |epilogue, c_elem| Sm90Config {
        loader: Sm90Loader::WarpSpecialized,
        epilogue,
        c_elem,
        ..Sm90Config::default()
    };
    let (direct, tma) = (Sm90Epilogue::Direct, Sm90Epilogue::Tma);
    let k16 = SizeFacts { k_div: 16, ..SizeFacts::default() };
    let n8 = SizeFacts { n_div: 8, ..k16 };
    let tiled = SizeFacts { m_div: 128, n_div: 256, k_div: 128 };
    Ok(vec![
        Sm90GemmAtLaunch::new(&format!("gemm90at_{elem}"), elem, ws(direct, Elem::F32), k16)?,
        Sm90GemmAtLaunch::new(&format!("gemm90at_c16_{elem}"), elem, ws(direct, Elem::F16), k16)?,
        Sm90GemmAtLaunch::with_op(
            &format!("gemm90at_tma16_{elem}"),
            elem,
            ws(tma, Elem::Bf16),
            n8,
            EpilogueOp::default(),
        )?,
        Sm90GemmAtLaunch::new(&format!("gemm90at_tiled_{elem}"), elem, ws(tma, Elem::F16), tiled)?,
        Sm90GemmAtLaunch::new(&format!("gemm90at_n64_{elem}"), elem, Sm90Config { bn: 64, ..ws(tma, Elem::F16) }, n8)?,
        Sm90GemmAtLaunch::new(
            &format!("gemm90at_n192_{elem}"),
            elem,
            Sm90Config { bn: 192, ..ws(direct, Elem::F32) },
            k16,
        )?,
    ])
}

/// 8-bit float inputs: multiples of 1/4 in [-2, 2], exact in E4M3 and
/// E5M2, so that every sum of up to 2^13 products (multiples of 1/16
/// under 4) is exact in f32.
fn fp8_data(n: usize, elem: Elem, seed: u64) -> Vec<u8> {
    use kute_cuda::elem::fp8_from_f32;
    let table: Vec<u8> = (0..17).map(|i| fp8_from_f32((i as f32 - 8.0) / 4.0, elem)).collect();
    xorshift(seed).take(n).map(|r| table[(r % 17) as usize]).collect()
}

/// The dequantized reference at `(b, row, col)` of K-major A `(M, K, L)`
/// and B `(N, K, L)`, stored contiguously (their values, decoded from the
/// 8-bit patterns): `scale · Σ_k A·B`, exact (see [`fp8_data`]).
fn fp8_reference(a: &[f32], b: &[f32], (m, n, k): (usize, usize, usize), at: (usize, usize, usize), scale: f32) -> f32 {
    let (bi, row, col) = at;
    let (ra, rb) = ((bi * m + row) * k, (bi * n + col) * k);
    let sum: f64 = (0..k).map(|i| f64::from(a[ra + i]) * f64::from(b[rb + i])).sum();
    (sum * f64::from(scale)) as f32
}

/// The library call on 8-bit inputs with per-tensor scales (powers of two,
/// so that the dequantized sums stay exact) into a C of `c_elem`, checked
/// bit for bit against [`fp8_reference`] at every entry, or at `samples`
/// entries (rounded once for a 16-bit C).
fn fp8_checked(
    gpu: &Gpu,
    (m, n, k): (i64, i64, i64),
    batch: i64,
    (elem, c_elem): (Elem, Elem),
    (samples, splits, tile_n): (Option<usize>, Option<i64>, Option<i64>),
    seed: u64,
) -> Result<usize, Error> {
    use kute_cuda::library::GemmOptions;
    let lay = |s: String| s.parse::<Layout>().map_err(Error::from);
    let layout = |r: i64, c: i64| lay(format!("({r},{c},{batch}):({c},1,{})", r * c));
    let (la, lb, lc) = (layout(m, k)?, layout(n, k)?, layout(m, n)?);
    let a = fp8_data((batch * m * k) as usize, elem, seed);
    let b = fp8_data((batch * n * k) as usize, elem, seed + 1);
    let (da, db) = (gpu.upload(&a)?, gpu.upload(&b)?);
    let scales = (0.5f32, 0.25f32);
    let options = GemmOptions { scales, c_elem: Some(c_elem), splits, tile_n, ..GemmOptions::default() };
    let total = (batch * m * n) as usize;
    let got: Vec<f32> = if c_elem == Elem::F32 {
        library_c::<_, f32>(gpu, elem, (&da, la), (&db, lb), (total, lc), None, &options)?
    } else {
        let c = library_c::<_, u16>(gpu, elem, (&da, la), (&db, lb), (total, lc), None, &options)?;
        c.iter().map(|&h| widen_16(h, c_elem)).collect()
    };
    let dims = (m as usize, n as usize, k as usize);
    let entries: Vec<usize> = match samples {
        Some(s) => xorshift(seed + 7).take(s).map(|r| (r % total as u64) as usize).collect(),
        None => (0..total).collect(),
    };
    // (every wrong entry counted, and the rows and columns they span)
    let mut first = None;
    let (mut wrong, mut rows, mut cols) = (0usize, (usize::MAX, 0usize), (usize::MAX, 0usize));
    // the inputs' values, decoded once
    let decode = |x: &[u8]| -> Vec<f32> { x.iter().map(|&v| kute_cuda::elem::fp8_value(v, elem)).collect() };
    let (av, bv) = (decode(&a), decode(&b));
    for &e in &entries {
        let (bi, row, col) = (e / (dims.0 * dims.1), e / dims.1 % dims.0, e % dims.1);
        let exact = fp8_reference(&av, &bv, dims, (bi, row, col), scales.0 * scales.1);
        let want = if c_elem == Elem::F32 { exact } else { widen_16(round_to_16(exact, c_elem), c_elem) };
        if got[e].to_bits() != want.to_bits() && !(got[e] == 0.0 && want == 0.0) {
            wrong += 1;
            first.get_or_insert(format!(
                "C[{bi}][{row}][{col}] = {} where the dequantized reference gives {want}",
                got[e]
            ));
            (rows, cols) = ((rows.0.min(row), rows.1.max(row)), (cols.0.min(col), cols.1.max(col)));
        }
    }
    if let Some(first) = first {
        return Err(Error::Wrong {
            kernel: format!("library gemm {elem} -> {c_elem}"),
            why: format!(
                "{first}; {wrong} of {} entries wrong, in rows {}..={} and columns {}..={}",
                entries.len(),
                rows.0,
                rows.1,
                cols.0,
                cols.1
            ),
        });
    }
    Ok(entries.len())
}

/// The 8-bit library calls of `check`: every shape of [`FP8_SHAPES`] for
/// e4m3 and e5m2 into f32, f16 and bf16, every entry against the
/// dequantized reference; the number of calls and of wrong ones.
fn fp8_library_checks(gpu: &Gpu) -> Result<(usize, usize), Error> {
    let (mut n, mut bad) = (0, 0);
    let types = Elem::FP8.into_iter().flat_map(|e| [(e, Elem::F32), (e, Elem::F16), (e, Elem::Bf16)]);
    for (i, types) in types.enumerate() {
        for (j, (mnk, batch)) in FP8_SHAPES.into_iter().enumerate() {
            n += 1;
            let what = format!("gemm {batch}x{mnk:?} {} -> {}, scales (0.5, 0.25)", types.0, types.1);
            match fp8_checked(gpu, mnk, batch, types, (None, None, None), 300 + (10 * i + j) as u64) {
                Ok(n) => println!("ok    {what}: {n} entries exact"),
                Err(e) => {
                    bad += 1;
                    println!("FAIL  {what}: {e}");
                }
            }
        }
    }
    Ok((n, bad))
}

/// The problems `check` gives the 8-bit kernels through the library call:
/// `(M, N, K)` with `K` a multiple of 16, and the batch.
const FP8_SHAPES: [((i64, i64, i64), i64); 7] = [
    ((128, 256, 128), 1),
    ((256, 512, 256), 1),
    ((200, 264, 80), 1),
    ((136, 8, 1008), 1),
    ((1000, 520, 1024), 1),
    ((17, 40, 32), 1),
    ((100, 200, 64), 3),
];

/// `kute-cuda gemm-fp8`: see `Cmd::GemmFp8`.
fn gemm_fp8(
    shapes: &[String],
    elems: &[Elem],
    c_elem: Elem,
    reps: usize,
    no_torch: bool,
    (splits, tile_n): (Option<i64>, Option<i64>),
) -> Result<(), Error> {
    use kute_cuda::library::GemmOptions;
    let gpu = Gpu::new(0)?;
    println!("GPU: {} ({})", gpu.name()?, gpu.arch()?);
    let mut rows = Vec::new();
    let mut cases = Vec::new();
    for shape in shapes {
        let v: Vec<i64> = shape.split('x').filter_map(|x| x.parse().ok()).collect();
        let [m, n, k] = v[..] else {
            return Err(Error::Unsupported { op: "gemm-fp8", why: format!("'{shape}': MxNxK") });
        };
        for &elem in elems {
            if !elem.is_fp8() {
                return Err(Error::Unsupported {
                    op: "gemm-fp8",
                    why: format!("{elem} is no 8-bit float (e4m3, e5m2)"),
                });
            }
            // checked first (sampled entries), then timed on the same sizes
            let checked = fp8_checked(&gpu, (m, n, k), 1, (elem, c_elem), (Some(256), splits, tile_n), 11)?;
            let (da, db) =
                (gpu.upload(&fp8_data((m * k) as usize, elem, 3))?, gpu.upload(&fp8_data((n * k) as usize, elem, 4))?);
            let options =
                GemmOptions { scales: (0.5, 0.25), c_elem: Some(c_elem), splits, tile_n, ..GemmOptions::default() };
            let ms = library_timed(&gpu, (elem, c_elem), (&da, &db), (m, n, k), &options, reps)?;
            cases.push(format!("{shape}:{}:{}", elem.torch(), c_elem.torch()));
            rows.push((shape.clone(), elem, ms, 2.0 * (m * n * k) as f64 / ms / 1e9, checked));
        }
    }
    let mut torch = std::collections::HashMap::new();
    if !no_torch {
        let out = Command::new("python3")
            .args(["-c", TORCH, "scaled", &reps.to_string()])
            .args(&cases)
            .output()
            .map_err(|e| Error::Unsupported { op: "gemm-fp8", why: format!("python3: {e}") })?;
        if !out.status.success() {
            println!("PyTorch: failed: {}", String::from_utf8_lossy(&out.stderr));
        }
        for line in String::from_utf8_lossy(&out.stdout).lines().filter(|l| l.starts_with('{')) {
            let v: serde_json::Value =
                serde_json::from_str(line).map_err(|e| Error::Unsupported { op: "gemm-fp8", why: e.to_string() })?;
            if let (Some(s), Some(d), Some(ms)) = (v["shape"].as_str(), v["dtype"].as_str(), v["scaled_mm_ms"].as_f64())
            {
                torch.insert(format!("{s}:{d}"), (ms, v["fast_accum_ms"].as_f64()));
            }
        }
    }
    println!("| shape | inputs | C | kute (ms) | kute TFLOP/s | torch._scaled_mm (ms) | kute vs torch | torch, use_fast_accum (ms) | kute vs torch fast | entries checked |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let (mut ratios, mut fast_ratios) = (Vec::new(), Vec::new());
    for (shape, elem, ms, tflops, checked) in rows {
        let t = torch.get(&format!("{shape}:{}", elem.torch())).copied();
        let fast = t.and_then(|t| t.1);
        if let Some((t, _)) = t {
            ratios.push(t / ms);
        }
        if let Some(f) = fast {
            fast_ratios.push(f / ms);
        }
        println!(
            "| {shape} | {elem} | {c_elem} | {ms:.4} | {tflops:.0} | {} | {} | {} | {} | {checked}, exact |",
            t.map_or("-".into(), |t| format!("{:.4}", t.0)),
            t.map_or("-".into(), |t| format!("{:.3}x", t.0 / ms)),
            fast.map_or("-".into(), |f| format!("{f:.4}")),
            fast.map_or("-".into(), |f| format!("{:.3}x", f / ms))
        );
    }
    let geomean = |r: &[f64]| (r.iter().map(|r| r.ln()).sum::<f64>() / r.len() as f64).exp();
    if !ratios.is_empty() {
        println!("geomean kute vs torch._scaled_mm: {:.3}x over {} shapes", geomean(&ratios), ratios.len());
    }
    if !fast_ratios.is_empty() {
        let (g, n) = (geomean(&fast_ratios), fast_ratios.len());
        println!("geomean kute vs torch._scaled_mm(use_fast_accum=True): {g:.3}x over {n} shapes");
    }
    Ok(())
}

/// One library call on `(m, n, k)` TN with `options` into a new `C` of
/// `c_elem`, timed: ms per call (the kernels compiled by a first call
/// outside the timing).
fn library_timed<E: cudarc::driver::DeviceRepr>(
    gpu: &Gpu,
    (elem, c_elem): (Elem, Elem),
    (da, db): (&cudarc::driver::CudaSlice<E>, &cudarc::driver::CudaSlice<E>),
    (m, n, k): (i64, i64, i64),
    options: &kute_cuda::library::GemmOptions<'_>,
    reps: usize,
) -> Result<f64, Error> {
    use kute_cuda::library::{gemm_with, Matrix, MatrixMut};
    fn timed<E: cudarc::driver::DeviceRepr, T: cudarc::driver::DeviceRepr + cudarc::driver::ValidAsZeroBits>(
        gpu: &Gpu,
        elem: Elem,
        (da, db): (&cudarc::driver::CudaSlice<E>, &cudarc::driver::CudaSlice<E>),
        (la, lb, lc): (&Layout, &Layout, &Layout),
        total: usize,
        options: &kute_cuda::library::GemmOptions<'_>,
        reps: usize,
    ) -> Result<f64, Error> {
        let mut c = gpu.zeros::<T>(total)?;
        let mut run = || {
            let (a, b) = (Matrix { data: da, layout: la.clone() }, Matrix { data: db, layout: lb.clone() });
            gemm_with(gpu, elem, a, b, MatrixMut { data: &mut c, layout: lc.clone() }, options)
        };
        run()?;
        gpu.time(2, 5, reps, &mut run)
    }
    let lay = |s: String| s.parse::<Layout>().map_err(Error::from);
    let (la, lb, lc) =
        (lay(format!("({m},{k}):({k},1)"))?, lay(format!("({n},{k}):({k},1)"))?, lay(format!("({m},{n}):({n},1)"))?);
    let (ls, total) = ((&la, &lb, &lc), (m * n) as usize);
    if c_elem == Elem::F32 {
        timed::<E, f32>(gpu, elem, (da, db), ls, total, options, reps)
    } else {
        timed::<E, u16>(gpu, elem, (da, db), ls, total, options, reps)
    }
}

/// `kute-cuda tune`: see `Cmd::Tune`.
fn tune(
    shapes: &[String],
    (elem, c_elem): (Elem, Option<Elem>),
    reps: usize,
    dry_run: bool,
    sm80: bool,
) -> Result<(), Error> {
    use kute_cuda::gemm_sm90::{tile, tile_n_heuristic, TILE_NS};
    use kute_cuda::library::GemmOptions;
    use kute_cuda::tune::{Choice, TuneKey, TuneTable};
    let gpu = Gpu::new(0)?;
    let (name, sms) = (gpu.name()?, gpu.sm_count()?);
    println!("GPU: {name} ({}, {sms} SMs)", gpu.arch()?);
    let c_elem = c_elem.unwrap_or(if elem.is_fp8() { Elem::F16 } else { elem });
    let sm80 = sm80 || gpu.arch()? != "sm_90";
    let mut table = gpu.tune_table()?.clone();
    println!("| M x N x K | tile/splits/cluster: ms ... | fastest | heuristics' choice | fastest vs heuristics |");
    println!("|---|---|---|---|---|");
    for shape in shapes {
        let v: Vec<i64> = shape.split('x').filter_map(|x| x.parse().ok()).collect();
        let [m, n, k] = v[..] else {
            return Err(Error::Unsupported { op: "tune", why: format!("'{shape}': MxNxK") });
        };
        // the candidates: every width, unsplit and split 2, 4 and 8 ways
        // where the k-tiles allow and the blocks stay within two waves;
        // unsplit, clusters of two where there are two M-tiles
        let ktiles = (k + tile(elem).2 - 1) / tile(elem).2;
        let mut cands = Vec::new();
        // (the SM80 kernels: widths 128 and 64, k-tiles of 32)
        let ktiles = if sm80 { (k + 31) / 32 } else { ktiles };
        let widths: &[i64] = if sm80 { &kute_cuda::library::SM80_TILE_NS } else { &TILE_NS };
        for &bn in widths {
            let rows = if sm80 { kute_cuda::library::sm80_tile((m, n), 1, sms).0 } else { 128 };
            let tiles = (m + rows - 1) / rows * ((n + bn - 1) / bn);
            for splits in [1, 2, 4, 8] {
                if splits == 1 || (splits <= ktiles && tiles * splits <= 2 * sms as i64) {
                    cands.push(Choice { tile_n: bn, splits, cluster: 1 });
                }
            }
            if m > 128 && !sm80 {
                cands.push(Choice { tile_n: bn, splits: 1, cluster: 2 });
            }
        }
        let mut times = Vec::new();
        for c in &cands {
            let options = GemmOptions {
                tile_n: Some(c.tile_n),
                splits: Some(c.splits),
                cluster: Some(c.cluster),
                sm80,
                c_elem: Some(c_elem),
                ..GemmOptions::default()
            };
            let ms = if elem.is_fp8() {
                let (da, db) = (
                    gpu.upload(&fp8_data((m * k) as usize, elem, 3))?,
                    gpu.upload(&fp8_data((n * k) as usize, elem, 4))?,
                );
                library_timed(&gpu, (elem, c_elem), (&da, &db), (m, n, k), &options, reps)?
            } else {
                let (da, db) = (
                    gpu.upload(&gemm_data((m * k) as usize, elem, 3))?,
                    gpu.upload(&gemm_data((n * k) as usize, elem, 4))?,
                );
                library_timed(&gpu, (elem, c_elem), (&da, &db), (m, n, k), &options, reps)?
            };
            times.push((*c, ms));
        }
        let Some(&(best, best_ms)) = times.iter().min_by(|a, b| a.1.total_cmp(&b.1)) else { continue };
        // what the library picks without a record
        let (bm, bn) = if sm80 {
            kute_cuda::library::sm80_tile((m, n), 1, sms)
        } else {
            (128, tile_n_heuristic((m, n, k), 1, sms))
        };
        let tiles = (m + bm - 1) / bm * ((n + bn - 1) / bn);
        let splits = kute_cuda::gemm_sm90::splits_for(tiles, ktiles, sms);
        let cluster =
            if sm80 { 1 } else { kute_cuda::gemm_sm90::cluster_heuristic(m, (k * elem.bytes(), k * elem.bytes())) };
        let heur =
            times.iter().find(|(c, _)| c.tile_n == bn && c.splits == splits && c.cluster == cluster).map(|t| t.1);
        let listed: Vec<String> =
            times.iter().map(|(c, ms)| format!("{}/{}/{}: {ms:.4}", c.tile_n, c.splits, c.cluster)).collect();
        println!(
            "| {shape} | {} | width {}, {} split(s), cluster {}: {best_ms:.4} | {bm} x {bn}, {splits}, {cluster}: {} | {} |",
            listed.join(", "),
            best.tile_n,
            best.splits,
            best.cluster,
            heur.map_or("-".into(), |h| format!("{h:.4}")),
            heur.map_or("-".into(), |h| format!("{:.3}x", h / best_ms))
        );
        let key = TuneKey { gpu: name.clone(), elem, c_elem, k_major: (true, true), mnk: (m, n, k), batch: 1, sm80 };
        table.insert(key, best)?;
    }
    match (dry_run, TuneTable::path()) {
        (true, _) => println!("recorded nothing (--dry-run)"),
        (false, None) => println!("recorded nothing: KUTE_CUDA_TUNE=off, or no cache folder"),
        (false, Some(path)) => {
            table.save(&path)?;
            println!("recorded {} problems in {}", table.len(), path.display());
        }
    }
    Ok(())
}

/// The problems `check` gives every kernel of sizes given at launch (those
/// its facts allow): on and off the tile grid, one tile and many, skinny.
const AT_LAUNCH_SHAPES: [(i64, i64, i64); 10] = [
    (128, 256, 64),
    (256, 512, 128),
    (200, 264, 72),
    (136, 8, 1000),
    (1000, 520, 1000),
    (8, 16, 8),
    (1024, 768, 320),
    (17, 40, 24),
    // (clusters: an odd count of M-tiles, and more pairs of them than
    // clusters at once)
    (300, 520, 200),
    (4096, 2048, 64),
];

/// The reference GEMM's configuration for operands of the majors
/// `(A K-major, B K-major)` (its `blas()` names them).
fn majors_config((a_k_major, b_k_major): (bool, bool)) -> GemmConfig {
    GemmConfig { a_k_major, b_k_major, ..GemmConfig::default() }
}

/// Runs the kernel of sizes given at launch `g` (its kernel `f`) on the
/// problem `p` with exact inputs, and compares with the reference GEMM
/// (made for these sizes) bit for bit, or rounded for a 16-bit C.
fn at_launch_checked(
    gpu: &Gpu,
    f: &Sm90Kernels,
    g: &Sm90GemmAtLaunch,
    p: &Sm90Problem,
    seed: u64,
) -> Result<(), Error> {
    let (m, n, _) = p.mnk;
    let (da, db, want) = reference_problem(gpu, (&g.name, g.elem, g.config.k_major), p.mnk, seed)?;
    if g.config.c_elem == Elem::F32 {
        let mut c = gpu.zeros::<f32>((m * n) as usize)?;
        gpu.launch_sm90_at(f, g, p, &da, &db, &mut c)?;
        same_bits(&g.name, &gpu.download(&c)?, &want, n as usize, "the reference")
    } else {
        let mut c = gpu.zeros::<u16>((m * n) as usize)?;
        gpu.launch_sm90_at(f, g, p, &da, &db, &mut c)?;
        same_rounded(&g.name, &gpu.download(&c)?, &want, g.elem, n as usize, "the reference")
    }
}

/// A and B on the GPU and the reference GEMM's f32 C on the host.
type ReferenceProblem = (cudarc::driver::CudaSlice<u16>, cudarc::driver::CudaSlice<u16>, Vec<f32>);

/// The problem `mnk`'s operands on the GPU (seeded data, every operand
/// contiguous with the majors `k_major`) and the reference GEMM's f32 `C`
/// on the host (its kernel named after `name`).
fn reference_problem(
    gpu: &Gpu,
    (name, elem, k_major): (&str, Elem, (bool, bool)),
    (m, n, k): (i64, i64, i64),
    seed: u64,
) -> Result<ReferenceProblem, Error> {
    let rname = format!("{name}_reference_{m}_{n}_{k}");
    let r =
        gpu.kernel(&rname, &kute_cuda::gemm::reference_source(&rname, (m, n, k), elem, &majors_config(k_major))?)?;
    let a = gemm_data((m * k) as usize, elem, seed);
    let b = gemm_data((n * k) as usize, elem, seed.wrapping_mul(31));
    let (da, db) = (gpu.upload(&a)?, gpu.upload(&b)?);
    let mut want = gpu.zeros::<f32>((m * n) as usize)?;
    gpu.launch3(&r, (((m * n + 255) / 256) as u32, 1), 256, &da, &db, &mut want)?;
    Ok((da, db, gpu.download(&want)?))
}

/// Runs the SM80 kernel of sizes given at launch `g` (its kernels `f`) on
/// `mnk`, every operand contiguous, the k-tiles split `splits` ways, and
/// compares `C` with the reference GEMM's: bit for bit (f32), or rounded
/// (16-bit).
fn sm80_at_launch_checked(
    gpu: &Gpu,
    (g, f): (&kute_cuda::gemm::Sm80GemmAtLaunch, &kute_cuda::gpu::Sm80Kernels),
    (m, n, k): (i64, i64, i64),
    splits: i64,
    seed: u64,
) -> Result<(), Error> {
    let p = g.problem((m, n, k))?.with_splits(splits);
    let args = kute_cuda::gpu::EpilogueArgs::default();
    let k_major = (g.config.a_k_major, g.config.b_k_major);
    let (da, db, want) = reference_problem(gpu, (&g.name, g.elem, k_major), (m, n, k), seed)?;
    if g.config.c_elem == Elem::F32 {
        let mut c = gpu.zeros::<f32>((m * n) as usize)?;
        gpu.launch_sm80_at((g, f), &p, (&da, &db, &mut c), &args)?;
        same_bits(&g.name, &gpu.download(&c)?, &want, n as usize, "the reference")
    } else {
        let mut c = gpu.zeros::<u16>((m * n) as usize)?;
        gpu.launch_sm80_at((g, f), &p, (&da, &db, &mut c), &args)?;
        same_rounded(&g.name, &gpu.download(&c)?, &want, g.elem, n as usize, "the reference")
    }
}

/// Runs `g` on a batch of `batch` problems `mnk` whose rows and matrices
/// are padded (every leading dimension and batch stride past its minimum,
/// as the kernel's rules allow), and compares each `C` with the reference
/// GEMM on the same matrices stored contiguously; the padding of `C` must
/// stay untouched.
fn at_launch_batched_checked(
    gpu: &Gpu,
    f: &Sm90Kernels,
    g: &Sm90GemmAtLaunch,
    (m, n, k): (i64, i64, i64),
    batch: i64,
    seed: u64,
) -> Result<(), Error> {
    let (a_k, b_k) = g.config.k_major;
    let up = |x: i64, d: i64| (x + d - 1) / d * d;
    // (rows, row length) of A, B and C as stored
    let shape_a = if a_k { (m, k) } else { (k, m) };
    let shape_b = if b_k { (n, k) } else { (k, n) };
    let nd = g.facts.n_div;
    let ld = (shape_a.1 + 8, shape_b.1 + 16, up(n + 8, nd));
    let stride = (shape_a.0 * ld.0 + 64, shape_b.0 * ld.1 + 8, up(m * ld.2 + 8, nd));
    // (the second case splits the k-tiles in two: split-K on a padded batch)
    let splits = if seed % 2 == 1 { 2 } else { 1 };
    let p = g.problem_batched((m, n, k), batch, ld, stride)?.with_splits(splits);
    let (sa, sb, sc) = p.spans(g.config.k_major);
    let (mut ha, mut hb) = (vec![0u16; sa as usize], vec![0u16; sb as usize]);
    let mut wants = Vec::new();
    let cfg = majors_config(g.config.k_major);
    let rname = format!("{}_reference_{m}_{n}_{k}", g.name);
    let r = gpu.kernel(&rname, &kute_cuda::gemm::reference_source(&rname, (m, n, k), g.elem, &cfg)?)?;
    for bi in 0..batch {
        let a = gemm_data((m * k) as usize, g.elem, seed + 2 * bi as u64);
        let b = gemm_data((n * k) as usize, g.elem, seed + 2 * bi as u64 + 1);
        let scatter = |dst: &mut [u16], src: &[u16], (rows, cols): (i64, i64), ld: i64, at: i64| {
            for row in 0..rows {
                for col in 0..cols {
                    dst[(at + row * ld + col) as usize] = src[(row * cols + col) as usize];
                }
            }
        };
        scatter(&mut ha, &a, shape_a, ld.0, bi * stride.0);
        scatter(&mut hb, &b, shape_b, ld.1, bi * stride.1);
        let mut want = gpu.zeros::<f32>((m * n) as usize)?;
        gpu.launch3(&r, (((m * n + 255) / 256) as u32, 1), 256, &gpu.upload(&a)?, &gpu.upload(&b)?, &mut want)?;
        wants.push(gpu.download(&want)?);
    }
    let (da, db) = (gpu.upload(&ha)?, gpu.upload(&hb)?);
    // each C of the batch gathered from the strided buffer (equal to the
    // reference, rounded for a 16-bit C); the rest of it must stay 0
    fn check<T: PartialEq + Default + std::fmt::Debug + Copy>(
        name: &str,
        got: &[T],
        wants: &[Vec<f32>],
        (m, n): (i64, i64),
        (ldc, sc): (i64, i64),
        want_of: impl Fn(f32) -> T,
    ) -> Result<(), Error> {
        let mut touched = vec![false; got.len()];
        for (bi, want) in wants.iter().enumerate() {
            for row in 0..m {
                for col in 0..n {
                    let at = (bi as i64 * sc + row * ldc + col) as usize;
                    touched[at] = true;
                    let w = want_of(want[(row * n + col) as usize]);
                    if got[at] != w {
                        return Err(Error::Wrong {
                            kernel: name.to_string(),
                            why: format!("matrix {bi}: C[{row}][{col}] = {:?} where the reference has {w:?}", got[at]),
                        });
                    }
                }
            }
        }
        match got.iter().zip(&touched).position(|(x, t)| !t && *x != T::default()) {
            Some(at) => Err(Error::Wrong { kernel: name.to_string(), why: format!("C's padding at {at} was written") }),
            None => Ok(()),
        }
    }
    let cs = (ld.2, stride.2);
    if g.config.c_elem == Elem::F32 {
        let mut c = gpu.zeros::<f32>(sc as usize)?;
        gpu.launch_sm90_at(f, g, &p, &da, &db, &mut c)?;
        check(&g.name, &gpu.download(&c)?, &wants, (m, n), cs, |x| x)
    } else {
        let mut c = gpu.zeros::<u16>(sc as usize)?;
        gpu.launch_sm90_at(f, g, &p, &da, &db, &mut c)?;
        check(&g.name, &gpu.download(&c)?, &wants, (m, n), cs, |x| round_to_16(x, g.elem))
    }
}

/// `library::gemm_with` of `a` and `b` (buffers and layouts) into a `C`
/// of `total` elements of `T` laid out as `lc`, holding `init` before the
/// call (zeros without): `C` downloaded.
fn library_c<
    E: cudarc::driver::DeviceRepr,
    T: cudarc::driver::DeviceRepr + cudarc::driver::ValidAsZeroBits + Clone + Default,
>(
    gpu: &Gpu,
    elem: Elem,
    (da, la): (&cudarc::driver::CudaSlice<E>, Layout),
    (db, lb): (&cudarc::driver::CudaSlice<E>, Layout),
    (total, lc): (usize, Layout),
    init: Option<&[T]>,
    options: &kute_cuda::library::GemmOptions<'_>,
) -> Result<Vec<T>, Error> {
    use kute_cuda::library::{gemm_with, Matrix, MatrixMut};
    let mut c = match init {
        Some(v) => gpu.upload(v)?,
        None => gpu.zeros::<T>(total)?,
    };
    let (a, b) = (Matrix { data: da, layout: la }, Matrix { data: db, layout: lb });
    gemm_with(gpu, elem, a, b, MatrixMut { data: &mut c, layout: lc }, options)?;
    gpu.download(&c)
}

/// The library call `kute_cuda::library::gemm` on a batch of `batch`
/// problems whose operands are stored as `k_major` says (contiguous),
/// against the reference GEMM on each matrix.
#[allow(clippy::too_many_arguments)]
fn library_checked(
    gpu: &Gpu,
    (m, n, k): (i64, i64, i64),
    batch: i64,
    k_major: (bool, bool),
    elem: Elem,
    (c_f32, cluster, sm80): (bool, Option<i64>, bool),
    seed: u64,
) -> Result<(), Error> {
    use kute_cuda::library::GemmOptions;
    let lay = |s: String| s.parse::<Layout>().map_err(Error::from);
    // (rows, cols, batch) with the contiguous mode stride 1, matrices one after another
    let layout = |(r, c): (i64, i64), cols_contiguous: bool| {
        let strides = if cols_contiguous { (c, 1) } else { (1, r) };
        lay(format!("({r},{c},{batch}):({},{},{})", strides.0, strides.1, r * c))
    };
    let (la, lb, lc) = (layout((m, k), k_major.0)?, layout((n, k), k_major.1)?, layout((m, n), true)?);
    let a = gemm_data((batch * m * k) as usize, elem, seed);
    let b = gemm_data((batch * n * k) as usize, elem, seed + 1);
    let (da, db) = (gpu.upload(&a)?, gpu.upload(&b)?);
    let cfg = majors_config(k_major);
    let rname = format!("library_reference_{m}_{n}_{k}_{}", cfg.blas());
    let r = gpu.kernel(&rname, &kute_cuda::gemm::reference_source(&rname, (m, n, k), elem, &cfg)?)?;
    let mut wants = Vec::new();
    for bi in 0..batch as usize {
        let (sa, sb) = ((m * k) as usize, (n * k) as usize);
        let mut want = gpu.zeros::<f32>((m * n) as usize)?;
        let (ra, rb) = (gpu.upload(&a[bi * sa..(bi + 1) * sa])?, gpu.upload(&b[bi * sb..(bi + 1) * sb])?);
        gpu.launch3(&r, (((m * n + 255) / 256) as u32, 1), 256, &ra, &rb, &mut want)?;
        wants.extend(gpu.download(&want)?);
    }
    let total = (batch * m * n) as usize;
    let (a, b) = ((&da, la), (&db, lb));
    let plain = GemmOptions { cluster, sm80, ..GemmOptions::default() };
    if c_f32 {
        let got = library_c::<_, f32>(gpu, elem, a, b, (total, lc), None, &plain)?;
        same_bits("library gemm", &got, &wants, n as usize, "the reference")
    } else {
        let got = library_c::<_, u16>(gpu, elem, a, b, (total, lc), None, &plain)?;
        same_rounded("library gemm", &got, &wants, elem, n as usize, "the reference")
    }
}

/// The fused epilogue on the CPU, in f64: `activation(alpha · x + bias)`.
fn epilogue_reference(x: f64, alpha: f64, bias: f64, act: kute_cuda::gemm_sm90::Activation) -> f64 {
    use kute_cuda::gemm_sm90::Activation;
    let t = alpha * x + bias;
    match act {
        Activation::None => t,
        Activation::Relu => t.max(0.0),
        Activation::Gelu => 0.5 * t * (1.0 + libm::erf(t / std::f64::consts::SQRT_2)),
        Activation::Silu => t / (1.0 + (-t).exp()),
    }
}

/// `library::gemm_with` with `alpha = 0.5`, `beta`, the bias and the
/// activation, `C` holding multiples of 1/4 in [-1.25, 1.25] before the
/// call, against the reference GEMM with the epilogue applied on the CPU:
/// `Ok` with the largest relative difference when every element is within
/// 1e-5 (f32 C) or the 16-bit type's rounding (16-bit C).
#[allow(clippy::too_many_arguments)]
fn epilogue_checked(
    gpu: &Gpu,
    (m, n, k): (i64, i64, i64),
    bias_mode: kute_cuda::gemm_sm90::BiasMode,
    act: kute_cuda::gemm_sm90::Activation,
    beta: f32,
    elem: Elem,
    (c_f32, cluster, sm80): (bool, Option<i64>, bool),
    seed: u64,
) -> Result<f64, Error> {
    use kute_cuda::gemm_sm90::BiasMode;
    use kute_cuda::library::GemmOptions;
    let lay = |s: String| s.parse::<Layout>().map_err(Error::from);
    let (a, b) = (gemm_data((m * k) as usize, elem, seed), gemm_data((n * k) as usize, elem, seed + 1));
    let (da, db) = (gpu.upload(&a)?, gpu.upload(&b)?);
    let r = gpu.kernel(
        "epilogue_reference",
        &kute_cuda::gemm::reference_source("epilogue_reference", (m, n, k), elem, &gemm_config("TN")?)?,
    )?;
    let mut want = gpu.zeros::<f32>((m * n) as usize)?;
    gpu.launch3(&r, (((m * n + 255) / 256) as u32, 1), 256, &da, &db, &mut want)?;
    let sums = gpu.download(&want)?;
    let len = if bias_mode == BiasMode::PerRow { m } else { n };
    let bias: Vec<f32> = (0..len).map(|i| ((i * 7) % 13) as f32 / 4.0 - 1.5).collect();
    let dbias = gpu.upload(&bias)?;
    let options = GemmOptions {
        alpha: 0.5,
        beta,
        bias: (bias_mode != BiasMode::None).then_some((&dbias, bias_mode)),
        activation: act,
        cluster,
        sm80,
        ..GemmOptions::default()
    };
    // C's values before the call (exact in every C type)
    let c0: Vec<f32> = (0..m * n).map(|i| ((i * 5 + seed as i64) % 11) as f32 / 4.0 - 1.25).collect();
    let (la, lb, lc) =
        (lay(format!("({m},{k}):({k},1)"))?, lay(format!("({n},{k}):({k},1)"))?, lay(format!("({m},{n}):({n},1)"))?);
    let (ab, bb, cc) = ((&da, la), (&db, lb), ((m * n) as usize, lc));
    let got: Vec<f32> = if c_f32 {
        library_c::<_, f32>(gpu, elem, ab, bb, cc, Some(&c0), &options)?
    } else {
        let bits: Vec<u16> = c0.iter().map(|&x| kute_cuda::elem::round_to_16(x, elem)).collect();
        library_c::<_, u16>(gpu, elem, ab, bb, cc, Some(&bits), &options)?.iter().map(|&h| widen_16(h, elem)).collect()
    };
    // the 16-bit types' half unit in the last place, relative
    let tol = if c_f32 {
        1e-5
    } else if elem == Elem::Bf16 {
        2f64.powi(-8)
    } else {
        2f64.powi(-11)
    };
    let mut worst = 0f64;
    for row in 0..m {
        for col in 0..n {
            let at = (row * n + col) as usize;
            let bias_v = match bias_mode {
                BiasMode::None => 0.0,
                BiasMode::PerRow => bias[row as usize] as f64,
                BiasMode::PerColumn => bias[col as usize] as f64,
            };
            let w = epilogue_reference(sums[at] as f64, 0.5, bias_v + beta as f64 * c0[at] as f64, act);
            let d = (got[at] as f64 - w).abs() / w.abs().max(1.0);
            worst = worst.max(d);
            if d > tol * 1.01 + 1e-6 {
                return Err(Error::Wrong {
                    kernel: "gemm_with".into(),
                    why: format!("C[{row}][{col}] = {} where the epilogue on the reference gives {w}", got[at]),
                });
            }
        }
    }
    Ok(worst)
}

/// `kute-cuda gemm-epilogue`: the fused epilogue's time beside PyTorch's
/// unfused `activation(A @ B.t() + bias)`.
fn gemm_epilogue(shape: &str, elem: Elem, reps: usize) -> Result<(), Error> {
    use kute_cuda::gemm_sm90::{Activation, BiasMode};
    use kute_cuda::library::{gemm_with, GemmOptions, Matrix, MatrixMut};
    let gpu = Gpu::new(0)?;
    println!("GPU: {} ({})", gpu.name()?, gpu.arch()?);
    let v: Vec<i64> = shape.split('x').filter_map(|x| x.parse().ok()).collect();
    let [m, n, k] = v[..] else {
        return Err(Error::Unsupported { op: "gemm-epilogue", why: format!("'{shape}': MxNxK") });
    };
    let lay = |s: String| s.parse::<Layout>().map_err(Error::from);
    let (da, db) =
        (gpu.upload(&gemm_data((m * k) as usize, elem, 5))?, gpu.upload(&gemm_data((n * k) as usize, elem, 6))?);
    let dbias = gpu.upload(&(0..n).map(|i| (i % 7) as f32 / 8.0).collect::<Vec<f32>>())?;
    let mut c = gpu.zeros::<u16>((m * n) as usize)?;
    let (la, lb, lc) =
        (lay(format!("({m},{k}):({k},1)"))?, lay(format!("({n},{k}):({k},1)"))?, lay(format!("({m},{n}):({n},1)"))?);
    let mut rows = Vec::new();
    for act in [Activation::None, Activation::Relu, Activation::Gelu, Activation::Silu] {
        let options =
            GemmOptions { bias: Some((&dbias, BiasMode::PerColumn)), activation: act, ..GemmOptions::default() };
        // (the layouts parsed once, outside the timed calls)
        let mut run = || {
            gemm_with(
                &gpu,
                elem,
                Matrix { data: &da, layout: la.clone() },
                Matrix { data: &db, layout: lb.clone() },
                MatrixMut { data: &mut c, layout: lc.clone() },
                &options,
            )
        };
        run()?; // planned and compiled once
        let ms = gpu.time(2, 5, reps, &mut run)?;
        rows.push((format!("{act:?}"), ms));
    }
    let out = Command::new("python3")
        .args(["-c", TORCH, "epilogue", &reps.to_string(), shape, elem.torch()])
        .output()
        .map_err(|e| Error::Unsupported { op: "gemm-epilogue", why: format!("python3: {e}") })?;
    if !out.status.success() {
        println!("PyTorch: failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    let mut torch = std::collections::HashMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines().filter(|l| l.starts_with('{')) {
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| Error::Unsupported { op: "gemm-epilogue", why: e.to_string() })?;
        if let (Some(a), Some(ms)) = (v["activation"].as_str(), v["unfused_ms"].as_f64()) {
            torch.insert(a.to_string(), (ms, v["matmul_ms"].as_f64()));
        }
    }
    println!("| {shape} {elem}, bias per column | kute fused (ms) | torch matmul + bias + activation (ms) | torch.matmul alone (ms) | kute vs unfused |");
    println!("|---|---|---|---|---|");
    for (act, ms) in rows {
        let t = torch.get(&act.to_lowercase());
        println!(
            "| {act} | {ms:.3} | {} | {} | {} |",
            t.map_or("-".into(), |t| format!("{:.3}", t.0)),
            t.and_then(|t| t.1).map_or("-".into(), |x| format!("{x:.3}")),
            t.map_or("-".into(), |t| format!("{:.3}x", t.0 / ms))
        );
    }
    Ok(())
}

/// `kute-cuda spills`: see `Cmd::Spills`.
fn spills() -> Result<(), Error> {
    use kute_cuda::gemm_sm90::{Activation, BiasMode, EpilogueOp};
    need_nvrtc()?;
    let (tma, direct) = (Sm90Epilogue::Tma, Sm90Epilogue::Direct);
    let plain = EpilogueOp::default();
    let gelu = EpilogueOp { bias: BiasMode::PerColumn, activation: Activation::Gelu, beta: false };
    let silu_beta = EpilogueOp { bias: BiasMode::PerRow, activation: Activation::Silu, beta: true };
    let beta = EpilogueOp { beta: true, ..plain };
    let mut cases = Vec::new();
    for bn in kute_cuda::gemm_sm90::TILE_NS {
        for op in [plain, gelu, silu_beta] {
            cases.push((Elem::F16, Elem::F16, bn, tma, op, 1));
        }
    }
    cases.extend([
        (Elem::Bf16, Elem::F32, 256, tma, beta, 1),
        (Elem::F16, Elem::F16, 256, direct, gelu, 1),
        (Elem::E4m3, Elem::Bf16, 256, tma, silu_beta, 1),
        // clusters of two along M
        (Elem::F16, Elem::F16, 256, tma, plain, 2),
        (Elem::F16, Elem::F16, 256, tma, gelu, 2),
        (Elem::F16, Elem::F16, 128, tma, silu_beta, 2),
        (Elem::E4m3, Elem::Bf16, 256, tma, plain, 2),
    ]);
    let mut spilling = 0;
    println!("| kernel | inputs | C | tile | cluster | epilogue | registers | spill stores (bytes) |");
    println!("|---|---|---|---|---|---|---|---|");
    for (i, (elem, c_elem, bn, epilogue, op, cluster)) in cases.into_iter().enumerate() {
        let config =
            Sm90Config { loader: Sm90Loader::WarpSpecialized, epilogue, c_elem, k_major: (true, true), bn, cluster };
        let n_div = if epilogue == tma { 8 } else { 1 };
        let facts = SizeFacts { n_div, k_div: 16 / elem.bytes(), ..SizeFacts::default() };
        let name = format!("spills{i}");
        let g = Sm90GemmAtLaunch::with_op(&name, elem, config, facts, op)?;
        let log = kute_cuda::gpu::ptxas_report(&name, &g.source, "sm_90a")?;
        for k in kute_cuda::gpu::kernel_resources(&log) {
            // the GEMM kernels (split-K's share of the k-tiles included)
            let kind = k.name.strip_prefix(&name).unwrap_or(&k.name);
            let kind = if kind.is_empty() { "gemm" } else { kind.trim_start_matches('_') };
            println!(
                "| {kind} | {elem} | {c_elem} | 128 x {bn} | {cluster} | {:?}{}{} | {} | {} |",
                op.activation,
                if op.bias == BiasMode::None { String::new() } else { format!(", bias {:?}", op.bias) },
                if op.beta { ", beta" } else { "" },
                k.registers,
                k.spill_stores
            );
            // (split-K's kernel and the direct stores of rows not in
            // 16-byte units compute each pair's offset whole: reported)
            if kind == "gemm" && epilogue == tma && k.spill_stores != 0 {
                spilling += 1;
            }
        }
    }
    if spilling > 0 {
        return Err(Error::Wrong { kernel: format!("{spilling} GEMM kernels"), why: "they spill registers".into() });
    }
    Ok(())
}

/// `kute-cuda gemm-at-launch`: see `Cmd::GemmAtLaunch`.
fn gemm_at_launch(
    shapes: &[String],
    elem: Elem,
    reps: usize,
    no_torch: bool,
    (facts, tile_n, clusters, slots): (&[i64], Option<i64>, &[i64], Option<u32>),
    source_file: Option<&std::path::Path>,
) -> Result<(), Error> {
    use std::time::Instant;
    let gpu = Gpu::new(0)?;
    println!("GPU: {} ({}), NVRTC {:?}", gpu.name()?, gpu.arch()?, kute_cuda::gpu::nvrtc_version());
    let [m_div, n_div, k_div] = facts[..] else {
        return Err(Error::Unsupported { op: "gemm-at-launch", why: "--facts M_DIV,N_DIV,K_DIV".into() });
    };
    // the kernel for every size of one tile width, made when a shape first needs it
    let make = |bn: i64, cluster: i64| -> Result<(Sm90GemmAtLaunch, Sm90Kernels), Error> {
        let config = Sm90Config {
            loader: Sm90Loader::WarpSpecialized,
            epilogue: Sm90Epilogue::Tma,
            c_elem: elem,
            k_major: (true, true),
            bn,
            cluster,
        };
        let t = Instant::now();
        let name = format!("kgemm90at{bn}c{cluster}");
        let mut g = Sm90GemmAtLaunch::new(&name, elem, config, SizeFacts { m_div, n_div, k_div })?;
        if let Some(path) = source_file {
            g.source = std::fs::read_to_string(path)
                .map_err(|e| Error::Unsupported { op: "gemm-at-launch", why: format!("{}: {e}", path.display()) })?;
        }
        println!(
            "plan and source of the 128 x {bn} kernel (clusters of {cluster}) for every size (M % {m_div} == 0, N % {n_div} == 0, K % {k_div} == 0): {:.0} µs",
            t.elapsed().as_secs_f64() * 1e6
        );
        let t = Instant::now();
        let mut f = gpu.load_sm90_at(&g)?;
        println!("kernels: {:?} in {:.1} ms; {:?} blocks at once", f.origin, t.elapsed().as_secs_f64() * 1e3, f.slots);
        if slots.is_some() {
            f.slots = slots;
        }
        let t = Instant::now();
        let again = gpu.load_sm90_at(&g)?.origin;
        println!("kernels again: {again:?} in {:.1} µs", t.elapsed().as_secs_f64() * 1e6);
        Ok((g, f))
    };
    let mut made: std::collections::HashMap<(i64, i64), (Sm90GemmAtLaunch, Sm90Kernels)> =
        std::collections::HashMap::new();
    // MxNxK, or a batch: Bx(MxNxK)
    let parse = |s: &str| -> Result<(i64, (i64, i64, i64)), Error> {
        let v: Vec<i64> = s.split(['x', '(', ')']).filter_map(|x| x.trim().parse().ok()).collect();
        match v[..] {
            [m, n, k] if !s.contains('(') => Ok((1, (m, n, k))),
            [b, m, n, k] if s.contains('(') => Ok((b, (m, n, k))),
            _ => Err(Error::Unsupported { op: "gemm-at-launch", why: format!("'{s}': MxNxK or Bx(MxNxK)") }),
        }
    };
    let sms = gpu.sm_count()?;
    let mut rows = Vec::new();
    // (each shape with every cluster asked for, or the heuristic's: None)
    let asked: Vec<Option<i64>> =
        if clusters.is_empty() { vec![None] } else { clusters.iter().map(|&c| Some(c)).collect() };
    let runs = shapes.iter().enumerate().flat_map(|(si, s)| asked.iter().map(move |&c| (si, s, c)));
    for (si, s, cluster) in runs {
        let (batch, mnk) = parse(s)?;
        let (m, n, k) = mnk;
        let row_bytes = k * elem.bytes();
        let cluster = cluster.unwrap_or_else(|| kute_cuda::gemm_sm90::cluster_heuristic(m, (row_bytes, row_bytes)));
        let bn = tile_n.unwrap_or_else(|| kute_cuda::gemm_sm90::tile_n_heuristic(mnk, batch, sms));
        let (g, f) = match made.entry((bn, cluster)) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => e.insert(make(bn, cluster)?),
        };
        let (g, f) = (&*g, &*f);
        // a batch of contiguous matrices
        let p = g.problem_batched(mnk, batch, (k, k, n), (m * k, n * k, m * n))?;
        let a = gemm_data((batch * m * k) as usize, elem, 3 + si as u64);
        let b = gemm_data((batch * n * k) as usize, elem, 5 + si as u64);
        let (da, db) = (gpu.upload(&a)?, gpu.upload(&b)?);
        // the kernel made for this shape: its plan and compile time, its C
        let t = Instant::now();
        let fixed =
            Sm90Gemm::warp_specialized_epilogue("kgemm90fixed", mnk, elem, elem, (true, true), Sm90Epilogue::Tma)?;
        let ff = gpu.kernel_for(&fixed.name, &fixed.source, "sm_90a")?;
        let compile_ms = t.elapsed().as_secs_f64() * 1e3;
        let mut cf = gpu.zeros::<u16>((m * n) as usize)?;
        let prepared = gpu.prepare_sm90(&fixed, &da, &db, &cf)?;
        gpu.launch_prepared(&ff, &prepared, &mut cf)?;
        let mut ca = gpu.zeros::<u16>((batch * m * n) as usize)?;
        gpu.launch_sm90_at(f, g, &p, &da, &db, &mut ca)?;
        // (the per-shape kernel multiplied the batch's first matrices)
        let (got, want) = (gpu.download(&ca)?[..(m * n) as usize].to_vec(), gpu.download(&cf)?);
        if let Some(e) = got.iter().zip(&want).position(|(x, y)| x != y) {
            return Err(Error::Wrong {
                kernel: g.name.clone(),
                why: format!("{s}: C[{}][{}] differs from the per-shape kernel's", e / n as usize, e % n as usize),
            });
        }
        // host time of a launch: the problem, three tensor maps, the launch (no sync)
        gpu.sync()?;
        let t = Instant::now();
        for _ in 0..20 {
            let p = g.problem_batched(mnk, batch, (k, k, n), (m * k, n * k, m * n))?;
            gpu.launch_sm90_at(f, g, &p, &da, &db, &mut ca)?;
        }
        let launch_us = t.elapsed().as_secs_f64() * 1e6 / 20.0;
        gpu.sync()?;
        let t = Instant::now();
        for _ in 0..20 {
            gpu.launch_prepared(&ff, &prepared, &mut cf)?;
        }
        let prepared_us = t.elapsed().as_secs_f64() * 1e6 / 20.0;
        gpu.sync()?;
        let ms_at = gpu.time(2, 5, reps, || gpu.launch_sm90_at(f, g, &p, &da, &db, &mut ca))?;
        // a batch by the per-shape kernel: one launch per matrix
        let ms_fixed = gpu.time(2, 5, reps, || {
            for _ in 0..batch {
                gpu.launch_prepared(&ff, &prepared, &mut cf)?;
            }
            Ok(())
        })?;
        let splits = p.split_heuristic(sms);
        println!(
            "{s}: equal to the per-shape kernel bit for bit (tile 128 x {bn}, clusters of {cluster}, {:?} blocks, k split {splits} ways); per-shape plan + NVRTC {compile_ms:.0} ms; host launch {launch_us:.1} µs (prepared per-shape launch {prepared_us:.1} µs)",
            p.grid_with(f.slots.unwrap_or(sms), splits)
        );
        rows.push((s.clone(), (batch * m, n, k), ms_at, ms_fixed, batch, (bn, cluster)));
    }
    let mut torch = std::collections::HashMap::new();
    if no_torch {
        println!("PyTorch: not run (--no-torch)");
    } else {
        // (a batch as MxNxKxB, torch.matmul of 3-D tensors)
        let args: Vec<String> = shapes
            .iter()
            .map(|s| match parse(s) {
                Ok((b, (m, n, k))) if b > 1 => format!("{m}x{n}x{k}x{b}:{}:", elem.torch()),
                _ => format!("{s}:{}:", elem.torch()),
            })
            .collect();
        let keys: std::collections::HashMap<String, String> =
            args.iter().zip(shapes).map(|(a, s)| (a.split(':').next().unwrap_or("").to_string(), s.clone())).collect();
        for v in torch_gemm("gemm-at-launch", reps, &args)? {
            if let (Some(shape), Some(ms)) = (v["shape"].as_str(), v["matmul_ms"].as_f64()) {
                torch.insert(keys.get(shape).cloned().unwrap_or_else(|| shape.to_string()), ms);
            }
        }
    }
    println!();
    println!("| M x N x K | tile | cluster | one kernel for every size (ms) | TFLOP/s | kernel for the shape, 128 x 256 (ms) | torch.matmul (ms) | vs the shape's kernel | vs torch.matmul |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let (mut log_torch, mut log_fixed, mut with_torch, mut single) = (0.0, 0.0, 0usize, 0usize);
    for (s, (m, n, k), at, fixed, batch, (bn, cluster)) in &rows {
        let tflops = 2.0 * (*m as f64) * (*n as f64) * (*k as f64) / (at * 1e9);
        let vs_torch = torch.get(s).map(|t| t / at);
        if let Some(r) = vs_torch {
            log_torch += r.ln();
            with_torch += 1;
        }
        // (a batch against one launch per matrix: not in the geomean)
        if *batch == 1 {
            log_fixed += (fixed / at).ln();
            single += 1;
        }
        println!(
            "| {s} | 128 x {bn} | {cluster} | {at:.3} | {tflops:.0} | {fixed:.3} | {} | {:.3}x | {} |",
            torch.get(s).map_or("-".to_string(), |t| format!("{t:.3}")),
            fixed / at,
            vs_torch.map_or("-".to_string(), |r| format!("{r:.3}x"))
        );
    }
    if !rows.is_empty() {
        println!(
            "geomean: {:.3}x the per-shape kernels (single problems), {} torch.matmul",
            (log_fixed / single.max(1) as f64).exp(),
            if with_torch > 0 { format!("{:.3}x", (log_torch / with_torch as f64).exp()) } else { "-".to_string() }
        );
    }
    Ok(())
}

const TORCH: &str = include_str!("torch_bench.py");

/// PyTorch's side of a GEMM benchmark (`torch_bench.py gemm REPS CASES`):
/// one JSON object per case it printed; a failed run is said and gives
/// what it printed before failing.
fn torch_gemm(op: &'static str, reps: usize, cases: &[String]) -> Result<Vec<serde_json::Value>, Error> {
    let out = Command::new("python3")
        .args(["-c", TORCH, "gemm", &reps.to_string()])
        .args(cases)
        .output()
        .map_err(|e| Error::Unsupported { op, why: format!("python3: {e}") })?;
    if !out.status.success() {
        println!("PyTorch: failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).map_err(|e| Error::Unsupported { op, why: e.to_string() }))
        .collect()
}

/// Runs the SM90 plan `t90` (its kernel `f`) once on `ab`, hands its `C` to
/// `check`, then times it on the same buffers: milliseconds per call.
fn sm90_timed<T: cudarc::driver::DeviceRepr + cudarc::driver::ValidAsZeroBits + Clone + Default>(
    gpu: &Gpu,
    f: &cudarc::driver::CudaFunction,
    t90: &Sm90Gemm,
    (a, b): (&cudarc::driver::CudaSlice<u16>, &cudarc::driver::CudaSlice<u16>),
    reps: usize,
    check: impl FnOnce(&[T]) -> Result<(), Error>,
) -> Result<f64, Error> {
    let (m, n, _) = t90.mnk;
    let mut c = gpu.zeros::<T>((m * n) as usize)?;
    let p = gpu.prepare_sm90(t90, a, b, &c)?;
    gpu.launch_prepared(f, &p, &mut c)?;
    check(&gpu.download(&c)?)?;
    gpu.time(2, 5, reps, || gpu.launch_prepared(f, &p, &mut c))
}

/// Runs the SM90 kernel on `a` and `b` and compares with `want` (the checked
/// SM80 result) bit for bit.
fn sm90_checked(
    gpu: &Gpu,
    h: &Sm90Gemm,
    a: &[u16],
    b: &[u16],
    want: &[f32],
) -> Result<cudarc::driver::CudaFunction, Error> {
    let f = gpu.kernel_for(&h.name, &h.source, "sm_90a")?;
    let (da, db) = (gpu.upload(a)?, gpu.upload(b)?);
    let mut dc = gpu.zeros::<f32>(want.len())?;
    gpu.launch3_smem(&f, h.blocks(), SM90_THREADS as u32, h.smem_bytes, &da, &db, &mut dc)?;
    let got = gpu.download(&dc)?;
    same_bits(&h.name, &got, want, h.mnk.1 as usize, "the SM80 kernel")?;
    Ok(f)
}

/// PyTorch's times (ms) for each (size, dtype): `copy_` and `t().contiguous()`.
fn torch_times(sizes: &[i64], elems: &[Elem], reps: usize) -> Result<Vec<serde_json::Value>, String> {
    let dtypes: Vec<&str> = elems.iter().map(|e| e.torch()).collect();
    let sizes: Vec<String> = sizes.iter().map(|s| s.to_string()).collect();
    let out = Command::new("python3")
        .args(["-c", TORCH, "copy", &sizes.join(","), &dtypes.join(","), &reps.to_string()])
        .output()
        .map_err(|e| format!("python3: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).map_err(|e| e.to_string()))
        .collect()
}

fn bench(sizes: &[i64], elems: &[Elem], reps: usize, no_torch: bool, sweep: &[u32]) -> Result<(), Error> {
    let gpu = Gpu::new(0)?;
    println!("GPU: {} ({})", gpu.name()?, gpu.arch()?);
    let mut rows: Vec<(i64, Elem, String, f64)> = Vec::new();
    for &n in sizes {
        for &elem in elems {
            let (row, col) = square(n)?;
            let mut kernels = vec![
                (
                    "kute copy".to_string(),
                    Kernel::copy(CopyKernel::new("kcopy", &row, &row, elem, CopyConfig::default())?),
                ),
                (
                    "kute transpose".to_string(),
                    Kernel::transpose(TransposeKernel::new("ktr", &row, &col, elem, TransposeConfig::default())?),
                ),
                (
                    "kute transpose (no swizzle)".to_string(),
                    Kernel::transpose(TransposeKernel::new(
                        "ktrp",
                        &row,
                        &col,
                        elem,
                        TransposeConfig { swizzle: false, ..Default::default() },
                    )?),
                ),
            ];
            for &i in sweep {
                let cfg = CopyConfig { units_per_thread: i, ..CopyConfig::default() };
                kernels.push((
                    format!("kute copy I={i}"),
                    Kernel::copy(CopyKernel::new(&format!("kcopy{i}"), &row, &row, elem, cfg)?),
                ));
            }
            for (label, k) in &kernels {
                let ms = match elem {
                    Elem::F32 => time_kernel::<u32>(&gpu, k, reps)?,
                    _ => time_kernel::<u16>(&gpu, k, reps)?,
                };
                rows.push((n, elem, label.clone(), ms));
                if let Kernel::Transpose(t) = k {
                    println!("{n} {elem} {label}: tile {:?}, shared {}", t.tile, t.smem);
                }
            }
        }
    }
    let torch = if no_torch { Err("not run (--no-torch)".to_string()) } else { torch_times(sizes, elems, reps) };
    match &torch {
        Ok(t) => {
            for v in t {
                let n = v["size"].as_i64().unwrap_or(0);
                let Some(elem) = elems.iter().copied().find(|e| v["dtype"].as_str() == Some(e.torch())) else {
                    continue;
                };
                for (key, label) in [("copy_ms", "torch copy_"), ("transpose_ms", "torch x.t().contiguous()")] {
                    if let Some(ms) = v[key].as_f64() {
                        rows.push((n, elem, label.to_string(), ms));
                    }
                }
            }
        }
        Err(e) => println!("PyTorch: not measured: {e}"),
    }
    println!();
    println!("| size | type | kernel | time (ms) | GB/s | vs torch copy_ | vs kute copy |");
    println!("|---|---|---|---|---|---|---|");
    for &n in sizes {
        for &elem in elems {
            let bytes = 2.0 * (n * n * elem.bytes()) as f64;
            let find = |label: &str| rows.iter().find(|r| r.0 == n && r.1 == elem && r.2 == label).map(|r| r.3);
            let (tc, kc) = (find("torch copy_"), find("kute copy"));
            for r in rows.iter().filter(|r| r.0 == n && r.1 == elem) {
                let ratio = |base: Option<f64>| base.map(|b| format!("{:.3}", b / r.3)).unwrap_or_else(|| "-".into());
                println!(
                    "| {n}² | {elem} | {} | {:.4} | {:.0} | {} | {} |",
                    r.2,
                    r.3,
                    bytes / r.3 / 1e6,
                    ratio(tc),
                    ratio(kc)
                );
            }
        }
    }
    Ok(())
}

fn time_kernel<T>(gpu: &Gpu, k: &Kernel, reps: usize) -> Result<f64, Error>
where
    T: Carrier,
{
    let f = run_checked::<T>(gpu, k)?;
    let (s, d) = k.layouts();
    let src = gpu.zeros::<T>(cosize(s)?)?;
    let mut dst = gpu.zeros::<T>(cosize(d)?)?;
    let (blocks, threads) = k.launch_shape();
    gpu.time(3, 5, reps, || gpu.launch(&f, blocks, threads, &src, &mut dst))
}

fn transposes(n: i64, elem: Elem) -> Result<Vec<(bool, TransposeKernel)>, Error> {
    let (row, col) = square(n)?;
    [true, false]
        .into_iter()
        .map(|sw| {
            let name = if sw { "ktr" } else { "ktrp" };
            Ok((
                sw,
                TransposeKernel::new(name, &row, &col, elem, TransposeConfig { swizzle: sw, ..Default::default() })?,
            ))
        })
        .collect()
}

fn once(n: i64, elem: Elem, no_swizzle: bool, shared_only: bool) -> Result<(), Error> {
    let gpu = Gpu::new(0)?;
    let Some((_, k)) = transposes(n, elem)?.into_iter().find(|(sw, _)| *sw != no_swizzle) else {
        return Err(Error::Unsupported { op: "once", why: "no plan".into() });
    };
    if shared_only {
        let name = format!("{}_shared_only", k.name);
        let f = gpu.kernel(&name, &k.shared_only_source)?;
        let src = gpu.zeros::<u32>(1)?;
        let mut dst = gpu.zeros::<u32>(1)?;
        gpu.launch(&f, k.blocks as u32, k.threads, &src, &mut dst)?;
        return gpu.sync();
    }
    let k = Kernel::Transpose(Box::new(k));
    match elem {
        Elem::F32 => run_checked::<u32>(&gpu, &k).map(|_| ()),
        _ => run_checked::<u16>(&gpu, &k).map(|_| ()),
    }
}

/// Runs this program with `args` under Nsight Compute (`ncu`), profiling
/// the kernels whose names contain `kernel`; each metric's value ("?" when
/// ncu printed none).
fn profile(ncu: &str, metrics: &[&str], kernel: &str, args: &[String]) -> Result<Vec<String>, Error> {
    let me = std::env::current_exe().map_err(|e| Error::Unsupported { op: "ncu", why: e.to_string() })?;
    let out = Command::new(ncu)
        .args(["--csv", "--metrics", &metrics.join(","), "-k", &format!("regex:{kernel}")])
        .arg(&me)
        .args(args)
        .output()
        .map_err(|e| Error::Unsupported { op: "ncu", why: format!("{ncu}: {e}") })?;
    let text = String::from_utf8_lossy(&out.stdout);
    let measured: Vec<String> = metrics
        .iter()
        .map(|m| {
            text.lines()
                .find(|l| l.contains(m))
                .and_then(|l| l.rsplit("\",\"").next())
                .map(|v| v.trim_matches('"').replace(',', ""))
                .unwrap_or_else(|| "?".into())
        })
        .collect();
    if measured.iter().all(|m| m == "?") {
        eprintln!("ncu output:\n{text}\n{}", String::from_utf8_lossy(&out.stderr));
    }
    Ok(measured)
}

fn gemm_once(n: i64, layouts: &str, sm90: bool) -> Result<(), Error> {
    let gpu = Gpu::new(0)?;
    let a = gpu.zeros::<u16>((n * n) as usize)?;
    let b = gpu.zeros::<u16>((n * n) as usize)?;
    let mut c = gpu.zeros::<f32>((n * n) as usize)?;
    if sm90 {
        let h = Sm90Gemm::new("kgemm90", (n, n, n), Elem::F16)?;
        let f = gpu.kernel_for(&h.name, &h.source, "sm_90a")?;
        gpu.launch3_smem(&f, h.blocks(), SM90_THREADS as u32, h.smem_bytes, &a, &b, &mut c)?;
    } else {
        let g = GemmKernel::new("kgemm", (n, n, n), Elem::F16, gemm_config(layouts)?)?;
        let f = gpu.kernel(&g.name, &g.source)?;
        gpu.launch3_smem(&f, g.blocks(), kute_cuda::gemm::THREADS as u32, g.smem_bytes, &a, &b, &mut c)?;
    }
    gpu.sync()
}

fn ncu_gemm(n: i64, ncu: &str) -> Result<(), Error> {
    let metrics = [
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "smsp__inst_executed_op_ldgsts.sum",
        "smsp__inst_executed_op_ldsm.sum",
    ];
    println!("| kernel | predicted conflicts (cp.async stores / ldmatrix loads) | {} |", metrics.join(" | "));
    println!("|---|---|{}", "---|".repeat(metrics.len()));
    for (label, layouts, sm90) in [("SM80 TN", "TN", false), ("SM80 NT", "NT", false), ("SM90 TN", "TN", true)] {
        let predicted = if sm90 {
            let h = Sm90Gemm::new("kgemm90", (n, n, n), Elem::F16)?;
            format!("{} / (wgmma reads)", h.store_cost.iter().map(|w| w.conflicts()).sum::<i64>())
        } else {
            let g = GemmKernel::new("kgemm", (n, n, n), Elem::F16, gemm_config(layouts)?)?;
            let excess = |r: &[kute::analysis::BankReport]| -> i64 { r.iter().map(|w| w.conflicts()).sum() };
            format!("{} / {}", excess(&g.cost_a[0]) + excess(&g.cost_b[0]), excess(&g.cost_a[1]) + excess(&g.cost_b[1]))
        };
        let mut args = vec!["gemm-once".to_string(), n.to_string(), layouts.to_string()];
        if sm90 {
            args.push("--sm90".into());
        }
        let measured = profile(ncu, &metrics, "kgemm", &args)?;
        println!("| {label} | {predicted} | {} |", measured.join(" | "));
    }
    Ok(())
}

fn ncu(n: i64, elems: &[Elem], ncu: &str) -> Result<(), Error> {
    let metrics = [
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    ];
    println!(
        "| type | kernel | shared tile | | store conflicts | load conflicts | store wavefronts | load wavefronts |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for &elem in elems {
        for ((sw, k), shared_only) in transposes(n, elem)?.into_iter().flat_map(|x| [(x.clone(), false), (x, true)]) {
            let mut flags = vec![];
            if !sw {
                flags.push("--no-swizzle");
            }
            if shared_only {
                flags.push("--shared-only");
            }
            let mut args = vec!["once".to_string(), n.to_string(), elem.to_string()];
            args.extend(flags.iter().map(|f| f.to_string()));
            let measured = profile(ncu, &metrics, "ktr", &args)?;
            let b = k.blocks;
            let predicted = [
                k.cost.store_conflicts() * b,
                k.cost.load_conflicts() * b,
                k.cost.store_wavefronts() * b,
                k.cost.load_wavefronts() * b,
            ];
            let cells: Vec<String> = predicted.iter().zip(&measured).map(|(p, m)| format!("{p} / {m}")).collect();
            let what = if shared_only { "shared only" } else { "transpose" };
            println!("| {elem} | {what} | {} | kute / ncu | {} |", k.smem, cells.join(" | "));
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let r = match cli.cmd {
        Cmd::Plan {
            kind,
            src,
            dst,
            elem,
            no_swizzle,
            head_dim,
            block_m,
            block_n,
            warps,
            causal,
            warpgroups,
            stages,
            serial,
            together,
            kv_x2,
            frag_prefetch,
            kv_stages,
        } => {
            let elem16 = if elem == Elem::F32 { Elem::F16 } else { elem };
            if kind == "attention-sm90" {
                let config = kute_cuda::attention::Sm90AttentionConfig {
                    head_dim,
                    block_n,
                    warpgroups,
                    stages,
                    causal,
                    overlap: !serial,
                    pingpong: !together,
                    persistent: !causal,
                };
                kute_cuda::attention::describe_sm90(config, elem16).and_then(|t| {
                    use kute_cuda::attention::Sm90AttentionKernel;
                    let k = Sm90AttentionKernel::new(&Sm90AttentionKernel::name_of(config, elem16), config, elem16)?;
                    print!("{t}\n{}", k.source);
                    Ok(())
                })
            } else if kind == "attention" {
                let config = kute_cuda::attention::AttentionConfig {
                    head_dim,
                    block_m,
                    block_n,
                    warps,
                    causal,
                    kv_x4: !kv_x2,
                    frag_prefetch,
                    kv_stages,
                };
                let elem = if elem == Elem::F32 { Elem::F16 } else { elem };
                kute_cuda::attention::describe(config, elem).map(|t| print!("{t}"))
            } else {
                match (src, dst) {
                    (Some(src), Some(dst)) => plan(&kind, &src, &dst, elem, no_swizzle),
                    _ => Err(Error::Unsupported { op: "plan", why: format!("{kind}: SRC and DST layouts") }),
                }
            }
        }
        Cmd::Ptx { arch, out, cubin } => ptx(&arch, out.as_deref(), cubin),
        Cmd::CompileOne { source, arch, resources } => need_nvrtc().and_then(|()| {
            let source = match source.strip_prefix('@') {
                Some(file) => std::fs::read_to_string(file)
                    .map_err(|e| Error::Unsupported { op: "compile-one", why: format!("{file}: {e}") })?,
                None => source,
            };
            if resources {
                kute_cuda::gpu::ptxas_report("source", &source, &arch).map(|log| print!("{log}"))
            } else {
                compile_ptx("source", &source, static_arch(&arch)).map(|p| print!("{}", p.to_src()))
            }
        }),
        Cmd::Check => check(),
        Cmd::Bench { sizes, elems, reps, no_torch, sweep } => bench(&sizes, &elems, reps, no_torch, &sweep),
        Cmd::Ncu { size, elems, ncu: exe } => ncu(size, &elems, &exe),
        Cmd::Gemm { shapes, elems, layouts, sm90, reps, no_torch, bk_stages } => {
            gemm(&shapes, &elems, &layouts, sm90, reps, no_torch, &bk_stages)
        }
        Cmd::Once { size, elem, no_swizzle, shared_only } => once(size, elem, no_swizzle, shared_only),
        Cmd::NcuGemm { size, ncu: exe } => ncu_gemm(size, &exe),
        Cmd::GemmOnce { size, layouts, sm90 } => gemm_once(size, &layouts, sm90),
        Cmd::GemmEpilogue { shape, elem, reps } => gemm_epilogue(&shape, elem, reps),
        Cmd::Tune { shapes, elem, c_elem, reps, dry_run, sm80 } => tune(&shapes, (elem, c_elem), reps, dry_run, sm80),
        Cmd::Spills => spills(),
        Cmd::Attention { configs, elems, reps, no_torch, bhsd, tile, rows, sm80, sm90_tile } => {
            attention_bench(&configs, &elems, reps, no_torch, bhsd, (&tile, &sm90_tile, sm80), rows)
        }
        Cmd::AttentionRegs { arch } => need_nvrtc().and_then(|()| {
            let spilling = arch.iter().map(|a| attention_cubins(a)).sum::<Result<usize, Error>>()?;
            match spilling {
                0 => Ok(()),
                n => Err(Error::Compile {
                    name: format!("{n} attention kernels"),
                    log: format!("they spill more than {SPILL_LIMIT} bytes of registers"),
                }),
            }
        }),
        Cmd::CheckFp8 => Gpu::new(0).and_then(|gpu| match fp8_library_checks(&gpu)? {
            (_, 0) => Ok(()),
            (_, bad) => Err(Error::Wrong { kernel: format!("{bad} calls"), why: "see above".into() }),
        }),
        Cmd::CheckAttention => Gpu::new(0).and_then(|gpu| match attention_checks(&gpu)? {
            (n, 0) => {
                println!("{n} attention calls against the CPU reference, 0 wrong");
                Ok(())
            }
            (_, bad) => Err(Error::Wrong { kernel: format!("{bad} attention calls"), why: "see above".into() }),
        }),
        Cmd::GemmFp8 { shapes, elems, c_elem, reps, no_torch, splits, tile_n } => {
            gemm_fp8(&shapes, &elems, c_elem, reps, no_torch, (splits, tile_n))
        }
        Cmd::GemmAtLaunch { shapes, elem, reps, no_torch, facts, source_file, tile_n, clusters, slots } => {
            gemm_at_launch(&shapes, elem, reps, no_torch, (&facts, tile_n, &clusters, slots), source_file.as_deref())
        }
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// One attention problem of the checks and the benchmark.
/// A pinned attention tile: (block_m, block_n, warps, K and V by
/// ldmatrix.x4, the fragments' prefetch, the stages of K and V).
type AttentionTile = (i64, i64, i64, bool, i64, i64);

/// The kernel an attention case runs: the library's choice for the GPU, the
/// SM80 kernel (its tile pinned or not), or the SM90 kernel with a pinned
/// tile (block_n, warpgroups, stages, overlap, ping-pong, persistent).
#[derive(Clone, Copy, Debug, PartialEq)]
enum AttentionPath {
    Library,
    Sm80(Option<AttentionTile>),
    Sm90((i64, i64, i64, bool, bool, bool)),
}

#[derive(Clone, Copy, Debug)]
struct AttentionCase {
    batch: i64,
    hq: i64,
    hkv: i64,
    lq: i64,
    lk: i64,
    d: i64,
    causal: bool,
    elem: Elem,
    /// Storage (batch, heads, seq, dim) instead of (batch, seq, heads, dim).
    bhsd: bool,
    /// The kernel and its tile.
    path: AttentionPath,
    /// Whether the call writes the LSE.
    lse: bool,
}

impl std::fmt::Display for AttentionCase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let AttentionCase { batch, hq, hkv, lq, lk, d, causal, elem, bhsd, path, lse } = *self;
        write!(f, "{elem} b{batch} hq{hq} hkv{hkv} Lq{lq} Lk{lk} d{d}{}", if causal { " causal" } else { "" })?;
        write!(f, " {}", if bhsd { "BHSD" } else { "BSHD" })?;
        match path {
            AttentionPath::Library => {}
            AttentionPath::Sm80(None) => write!(f, " sm80")?,
            AttentionPath::Sm80(Some((bm, bn, w, x4, pf, st))) => {
                write!(f, " sm80 tile {bm}x{bn} w{w}{} pf{pf} kv{st}", if x4 { "" } else { " x2" })?
            }
            AttentionPath::Sm90((bn, wgs, st, overlap, pingpong, persistent)) => write!(
                f,
                " sm90 n{bn} wg{wgs} s{st}{}{}{}",
                if overlap { "" } else { " serial" },
                if pingpong { "" } else { " together" },
                if persistent { " persistent" } else { "" }
            )?,
        }
        if !lse {
            write!(f, " no LSE")?;
        }
        Ok(())
    }
}

impl AttentionCase {
    /// `(seq, dim, heads, batch)` of `Q` (`keys` false) or `K`/`V`, as stored.
    fn layout(&self, keys: bool) -> Result<Layout, Error> {
        let (s, h) = if keys { (self.lk, self.hkv) } else { (self.lq, self.hq) };
        let d = self.d;
        let text = if self.bhsd {
            format!("({s},{d},{h},{}):({d},1,{},{})", self.batch, s * d, h * s * d)
        } else {
            format!("({s},{d},{h},{}):({},1,{d},{})", self.batch, h * d, s * h * d)
        };
        lay(&text)
    }

    /// The LSE's `(seq, heads, batch)`, dense.
    fn lse_layout(&self) -> Result<Layout, Error> {
        lay(&format!("({},{},{}):(1,{},{})", self.lq, self.hq, self.batch, self.lq, self.lq * self.hq))
    }

    /// The floating-point operations counted: `4·b·h·Lq·Lk·d`, halved when causal.
    fn flops(&self) -> f64 {
        let f = 4.0 * (self.batch * self.hq * self.lq * self.lk * self.d) as f64;
        if self.causal {
            f / 2.0
        } else {
            f
        }
    }

    /// The tolerances of the checks: O's largest absolute error (inputs
    /// uniform in [-1, 1]: P is rounded to the input type before P·V and O
    /// is rounded on its store, so bf16's 8-bit significand gets the wider
    /// one) and the LSE's (f32 throughout).
    fn tolerance(&self) -> (f64, f64) {
        (if self.elem == Elem::Bf16 { 2e-2 } else { 4e-3 }, 2e-3)
    }
}

/// `check`'s attention problems: one query, 77 queries and 130 keys and
/// the reverse (tails of both), causal masks aligned at the end (rows that
/// see no key where Lq > Lk), grouped heads, both storages, every head
/// dimension, f16 and bf16, a pinned smaller tile, a call without the LSE.
const ATTENTION_CASES: [AttentionCase; 10] = {
    const fn c(
        (batch, hq, hkv): (i64, i64, i64),
        (lq, lk, d): (i64, i64, i64),
        causal: bool,
        elem: Elem,
        bhsd: bool,
    ) -> AttentionCase {
        AttentionCase { batch, hq, hkv, lq, lk, d, causal, elem, bhsd, path: AttentionPath::Library, lse: true }
    }
    let mut cases = [
        c((1, 2, 2), (1, 1, 64), false, Elem::F16, false),
        c((2, 4, 2), (77, 130, 128), true, Elem::F16, true),
        c((2, 4, 1), (130, 77, 256), true, Elem::Bf16, false),
        c((1, 3, 3), (200, 200, 64), true, Elem::Bf16, true),
        c((2, 2, 2), (1, 130, 128), false, Elem::Bf16, false),
        c((1, 8, 2), (77, 1, 64), false, Elem::F16, false),
        c((1, 2, 2), (300, 257, 256), false, Elem::F16, true),
        c((1, 2, 2), (129, 129, 128), true, Elem::Bf16, false),
        c((1, 2, 1), (100, 190, 64), true, Elem::F16, false),
        c((2, 2, 2), (65, 300, 128), false, Elem::F16, true),
    ];
    cases[7].path = AttentionPath::Sm80(Some((128, 32, 4, false, 0, 1)));
    cases[8].path = AttentionPath::Sm80(Some((64, 32, 2, true, 2, 2)));
    cases[9].lse = false;
    cases
};

/// Values uniform in [-1, 1], rounded to `elem` (its bits).
fn attention_data(n: usize, elem: Elem, seed: u64) -> Vec<u16> {
    xorshift(seed).take(n).map(|x| round_to_16((x >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0, elem)).collect()
}

/// The call on `case` (tensors `q`, `k`, `v` uploaded, `o` and `lse` written).
fn attention_call(
    gpu: &Gpu,
    case: &AttentionCase,
    (q, k, v): (&cudarc::driver::CudaSlice<u16>, &cudarc::driver::CudaSlice<u16>, &cudarc::driver::CudaSlice<u16>),
    o: &mut cudarc::driver::CudaSlice<u16>,
    lse: Option<&mut cudarc::driver::CudaSlice<f32>>,
    layouts: &(Layout, Layout, Layout),
) -> Result<(), Error> {
    use kute_cuda::attention::{attention, AttentionOptions, AttentionTensors, Heads, HeadsMut, Lse};
    let (lq, lk, ll) = layouts;
    let (mut config, mut sm90, mut sm80) = (None, None, false);
    match case.path {
        AttentionPath::Library => {}
        AttentionPath::Sm80(tile) => {
            sm80 = true;
            config = tile.map(|(block_m, block_n, warps, kv_x4, frag_prefetch, kv_stages)| AttentionConfig {
                head_dim: case.d,
                block_m,
                block_n,
                warps,
                causal: case.causal,
                kv_x4,
                frag_prefetch,
                kv_stages,
            });
        }
        AttentionPath::Sm90((block_n, warpgroups, stages, overlap, pingpong, persistent)) => {
            sm90 = Some(kute_cuda::attention::Sm90AttentionConfig {
                head_dim: case.d,
                block_n,
                warpgroups,
                stages,
                causal: case.causal,
                overlap,
                pingpong,
                persistent,
            });
        }
    }
    attention(
        gpu,
        case.elem,
        AttentionTensors {
            q: Heads { data: q, layout: lq.clone() },
            k: Heads { data: k, layout: lk.clone() },
            v: Heads { data: v, layout: lk.clone() },
            o: HeadsMut { data: o, layout: lq.clone() },
            lse: lse.map(|data| Lse { data, layout: ll.clone() }),
        },
        &AttentionOptions { scale: None, causal: case.causal, config, sm90, sm80 },
    )
}

/// Runs `case` once and checks `rows` sampled query rows (every row where
/// `None`) of every checked head against [`reference_row`] in f64: the
/// largest absolute errors of O and of the LSE, or a `Wrong` error past
/// the case's tolerances. Returns the buffers too, for timing.
fn attention_run_checked(
    gpu: &Gpu,
    case: &AttentionCase,
    rows: Option<usize>,
    seed: u64,
) -> Result<((f64, f64), AttentionBuffers), Error> {
    use kute_cuda::attention::reference_row;
    let (lq_l, lk_l, ll) = (case.layout(false)?, case.layout(true)?, case.lse_layout()?);
    let (nq, nk) = (cosize(&lq_l)?, cosize(&lk_l)?);
    let (hq, hk, hv) = (
        attention_data(nq, case.elem, seed),
        attention_data(nk, case.elem, seed + 1),
        attention_data(nk, case.elem, seed + 2),
    );
    let (q, k, v) = (gpu.upload(&hq)?, gpu.upload(&hk)?, gpu.upload(&hv)?);
    // O and the LSE start as NaN: an entry the kernel misses is wrong
    let mut o = gpu.upload(&vec![0x7fffu16; nq])?;
    let mut lse = gpu.upload(&vec![f32::NAN; (case.lq * case.hq * case.batch) as usize])?;
    let layouts = (lq_l.clone(), lk_l.clone(), ll.clone());
    attention_call(gpu, case, (&q, &k, &v), &mut o, case.lse.then_some(&mut lse), &layouts)?;
    let (ho, hl) = (gpu.download(&o)?, gpu.download(&lse)?);
    let name = format!("attention {case}");
    let at = |l: &Layout, c: i64| -> Result<usize, Error> { Ok(l.eval(c)? as usize) };
    let (d, lq, lk) = (case.d as usize, case.lq, case.lk);
    let widen = |x: u16| widen_16(x, case.elem);
    // the (batch, head) pairs and rows checked
    let mut pairs: Vec<(i64, i64)> = (0..case.batch).flat_map(|b| (0..case.hq).map(move |h| (b, h))).collect();
    let mut qrows: Vec<i64> = (0..lq).collect();
    if let Some(n) = rows {
        let mut r = xorshift(seed + 3);
        pairs = vec![pairs[0], pairs[pairs.len() - 1]];
        if pairs[0] == pairs[1] {
            pairs.pop();
        }
        if (n as i64) < lq {
            let mut pick: Vec<i64> = vec![0, lq - 1];
            pick.extend((0..n.saturating_sub(2)).map(|_| (r.next().unwrap_or(0) % lq as u64) as i64));
            pick.sort_unstable();
            pick.dedup();
            qrows = pick;
        }
    }
    let scale = 1.0 / (d as f64).sqrt();
    let (mut eo, mut el) = (0f64, 0f64);
    let (tol_o, tol_l) = case.tolerance();
    let group = case.hq / case.hkv;
    for (b, h) in pairs {
        let hk_ = h / group;
        // the head's keys and values, row by row
        let (mut kk, mut vv) = (Vec::with_capacity(lk as usize * d), Vec::with_capacity(lk as usize * d));
        for j in 0..lk {
            for c in 0..d as i64 {
                let x = at(&lk_l, j + lk * (c + case.d * (hk_ + case.hkv * b)))?;
                kk.push(widen(hk[x]));
                vv.push(widen(hv[x]));
            }
        }
        for &i in &qrows {
            let coord = |c: i64| i + lq * (c + case.d * (h + case.hq * b));
            let qrow: Vec<f32> =
                (0..d as i64).map(|c| Ok(widen(hq[at(&lq_l, coord(c))?]))).collect::<Result<_, Error>>()?;
            let seen = if case.causal { (i + lk - lq + 1).clamp(0, lk) } else { lk } as usize;
            let (want, want_lse) = reference_row(&qrow, &kk, &vv, d, scale, seen);
            for (c, w) in want.iter().enumerate() {
                let g = f64::from(widen(ho[at(&lq_l, coord(c as i64))?]));
                let e = (g - w).abs();
                if e.is_nan() || e > tol_o {
                    return Err(Error::Wrong {
                        kernel: name,
                        why: format!("O[b {b}, h {h}, row {i}, col {c}] = {g}, want {w:.6} (tolerance {tol_o:.0e})"),
                    });
                }
                eo = eo.max(e);
            }
            if case.lse {
                let g = f64::from(hl[at(&ll, i + lq * (h + case.hq * b))?]);
                let e = if g == want_lse { 0.0 } else { (g - want_lse).abs() };
                if e.is_nan() || e > tol_l {
                    return Err(Error::Wrong {
                        kernel: name,
                        why: format!("LSE[b {b}, h {h}, row {i}] = {g}, want {want_lse:.6} (tolerance {tol_l:.0e})"),
                    });
                }
                el = el.max(e);
            }
        }
    }
    Ok(((eo, el), AttentionBuffers { q, k, v, o, lse, layouts }))
}

/// A checked case's device buffers and layouts, kept for timing.
struct AttentionBuffers {
    q: cudarc::driver::CudaSlice<u16>,
    k: cudarc::driver::CudaSlice<u16>,
    v: cudarc::driver::CudaSlice<u16>,
    o: cudarc::driver::CudaSlice<u16>,
    lse: cudarc::driver::CudaSlice<f32>,
    layouts: (Layout, Layout, Layout),
}

/// [`attention_run_checked`]'s errors alone.
fn attention_checked(gpu: &Gpu, case: &AttentionCase, rows: Option<usize>, seed: u64) -> Result<(f64, f64), Error> {
    attention_run_checked(gpu, case, rows, seed).map(|(e, _)| e)
}

/// `kute-cuda attention`: see `Cmd::Attention`.
fn attention_bench(
    configs: &[String],
    elems: &[Elem],
    reps: usize,
    no_torch: bool,
    bhsd: bool,
    (tile, sm90_tile, sm80): (&[String], &[String], bool),
    rows: usize,
) -> Result<(), Error> {
    let gpu = Gpu::new(0)?;
    println!("GPU: {} ({})", gpu.name()?, gpu.arch()?);
    let parse = |text: &String| -> Result<AttentionTile, Error> {
        let bad = || Error::Unsupported {
            op: "attention",
            why: format!("--tile {text}: BLOCK_M,BLOCK_N,WARPS[,KV_X4[,PREFETCH[,KV_STAGES]]]"),
        };
        let v: Vec<i64> =
            text.split(',').map(|x| x.trim().parse::<i64>()).collect::<Result<_, _>>().map_err(|_| bad())?;
        let pf = kute_cuda::attention::FRAG_PREFETCH;
        match v[..] {
            [bm, bn, w] => Ok((bm, bn, w, true, pf, 1)),
            [bm, bn, w, x4 @ (0 | 1)] => Ok((bm, bn, w, x4 == 1, pf, 1)),
            [bm, bn, w, x4 @ (0 | 1), pf] => Ok((bm, bn, w, x4 == 1, pf, 1)),
            [bm, bn, w, x4 @ (0 | 1), pf, st] => Ok((bm, bn, w, x4 == 1, pf, st)),
            _ => Err(bad()),
        }
    };
    let parse90 = |text: &String| -> Result<AttentionPath, Error> {
        let bad = || Error::Unsupported {
            op: "attention",
            why: format!("--sm90-tile {text}: BLOCK_N,WARPGROUPS,STAGES[,OVERLAP[,PINGPONG[,PERSISTENT]]]"),
        };
        let v: Vec<i64> =
            text.split(',').map(|x| x.trim().parse::<i64>()).collect::<Result<_, _>>().map_err(|_| bad())?;
        match v[..] {
            [bn, wgs, st] => Ok(AttentionPath::Sm90((bn, wgs, st, true, true, false))),
            [bn, wgs, st, o @ (0 | 1)] => Ok(AttentionPath::Sm90((bn, wgs, st, o == 1, true, false))),
            [bn, wgs, st, o @ (0 | 1), pp @ (0 | 1)] => Ok(AttentionPath::Sm90((bn, wgs, st, o == 1, pp == 1, false))),
            [bn, wgs, st, o @ (0 | 1), pp @ (0 | 1), ps @ (0 | 1)] => {
                Ok(AttentionPath::Sm90((bn, wgs, st, o == 1, pp == 1, ps == 1)))
            }
            _ => Err(bad()),
        }
    };
    // the library's choice unless tiles are pinned; the SM80 kernel beside
    // it with --sm80; each pinned tile
    let mut paths = Vec::new();
    if tile.is_empty() && sm90_tile.is_empty() {
        paths.push(AttentionPath::Library);
    }
    if sm80 && tile.is_empty() {
        paths.push(AttentionPath::Sm80(None));
    }
    for t in tile {
        paths.push(AttentionPath::Sm80(Some(parse(t)?)));
    }
    for t in sm90_tile {
        paths.push(parse90(t)?);
    }
    let mut cases = Vec::new();
    for text in configs {
        let v: Vec<i64> =
            text.split(',').map(|x| x.trim().parse::<i64>()).collect::<Result<_, _>>().map_err(|_| {
                Error::Unsupported { op: "attention", why: format!("'{text}': B,HQ,HKV,LQ,LK,D,CAUSAL") }
            })?;
        let [batch, hq, hkv, lq, lk, d, causal] = v[..] else {
            return Err(Error::Unsupported { op: "attention", why: format!("'{text}': B,HQ,HKV,LQ,LK,D,CAUSAL") });
        };
        for &elem in elems {
            for &path in &paths {
                cases.push(AttentionCase {
                    batch,
                    hq,
                    hkv,
                    lq,
                    lk,
                    d,
                    causal: causal != 0,
                    elem,
                    bhsd,
                    path,
                    lse: true,
                });
            }
        }
    }
    let (mut bad, mut refused) = (0, 0);
    let mut timed = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        match attention_run_checked(&gpu, case, Some(rows), 500 + i as u64) {
            Ok(((eo, el), mut bufs)) => {
                let (to, tl) = case.tolerance();
                println!(
                    "ok    attention {case}: O within {eo:.1e} (tolerance {to:.0e}), LSE within {el:.1e} (tolerance {tl:.0e}), {rows} sampled rows"
                );
                let AttentionBuffers { q, k, v, o, lse, layouts } = &mut bufs;
                let ms = gpu.time(2, 5, reps, || attention_call(&gpu, case, (q, k, v), o, Some(lse), layouts))?;
                timed.push((*case, ms));
            }
            // (a pinned tile the plan refuses is not a wrong answer)
            Err(e @ Error::Unsupported { .. }) => {
                refused += 1;
                println!("REFUSED attention {case}: {e}");
            }
            Err(e) => {
                bad += 1;
                println!("FAIL  attention {case}: {e}");
            }
        }
    }
    // PyTorch's side, one child for every case
    let torch: Vec<serde_json::Value> = if no_torch || timed.is_empty() {
        Vec::new()
    } else {
        let args: Vec<String> = timed
            .iter()
            .map(|(c, _)| {
                format!(
                    "{},{},{},{},{},{},{},{}",
                    c.batch,
                    c.hq,
                    c.hkv,
                    c.lq,
                    c.lk,
                    c.d,
                    u8::from(c.causal),
                    c.elem.torch()
                )
            })
            .collect();
        let out = Command::new("python3")
            .args(["-c", TORCH, "attention", &reps.to_string()])
            .args(&args)
            .output()
            .map_err(|e| Error::Unsupported { op: "attention", why: format!("python3: {e}") })?;
        if !out.status.success() {
            println!("PyTorch: failed: {}", String::from_utf8_lossy(&out.stderr));
        }
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| l.starts_with('{'))
            .map(|l| serde_json::from_str(l).map_err(|e| Error::Unsupported { op: "attention", why: e.to_string() }))
            .collect::<Result<_, _>>()?
    };
    let tflops = |c: &AttentionCase, ms: f64| c.flops() / (ms * 1e9);
    println!();
    println!("| case | kute ms | kute TFLOP/s | flash ms | flash TFLOP/s | cuDNN ms | cuDNN TFLOP/s | kute / flash | kute / cuDNN | torch flash err | torch cuDNN err |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for (i, (c, ms)) in timed.iter().enumerate() {
        let t = torch.get(i);
        let field = |k: &str| t.and_then(|t| t[k].as_f64());
        let cell = |x: Option<f64>, f: &dyn Fn(f64) -> String| x.map_or("-".to_string(), f);
        let (fl, cu) = (field("flash_ms"), field("cudnn_ms"));
        println!(
            "| {c} | {ms:.3} | {:.1} | {} | {} | {} | {} | {} | {} | {} | {} |",
            tflops(c, *ms),
            cell(fl, &|x| format!("{x:.3}")),
            cell(fl, &|x| format!("{:.1}", tflops(c, x))),
            cell(cu, &|x| format!("{x:.3}")),
            cell(cu, &|x| format!("{:.1}", tflops(c, x))),
            cell(fl, &|x| format!("{:.2}x", x / ms)),
            cell(cu, &|x| format!("{:.2}x", x / ms)),
            cell(field("flash_err"), &|x| format!("{x:.1e}")),
            cell(field("cudnn_err"), &|x| format!("{x:.1e}")),
        );
        for k in ["flash_error", "cudnn_error"] {
            if let Some(e) = t.and_then(|t| t[k].as_str()) {
                println!("  {c}: torch {k}: {e}");
            }
        }
    }
    if bad > 0 {
        return Err(Error::Wrong { kernel: format!("{bad} attention configurations"), why: "see above".into() });
    }
    if refused > 0 {
        return Err(Error::Unsupported {
            op: "attention",
            why: format!("{refused} configurations refused: see above"),
        });
    }
    Ok(())
}
