//! Compiling with NVRTC and running on a GPU (through `cudarc`, which loads
//! `libnvrtc` and `libcuda` when first used).

use crate::attention::{AttentionConfig, AttentionKernel, MapSpec, Params, Sm90AttentionConfig, Sm90AttentionKernel};
use crate::cache::{self, Origin};
use crate::gemm::{GemmConfig, Sm80GemmAtLaunch, Sm80Problem};
use crate::gemm_sm90::{
    BiasMode, EpilogueOp, SizeFacts, Sm90Config, Sm90Gemm, Sm90GemmAtLaunch, Sm90Loader, Sm90Problem, TmaSpec,
};
use crate::{Elem, Error, Result};
use cudarc::driver::{CudaContext, CudaFunction, CudaSlice, CudaStream, DeviceRepr, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::{compile_ptx_with_opts, CompileOptions, Ptx};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The NVRTC architecture names this crate compiles for.
pub const ARCHS: [&str; 4] = ["sm_80", "sm_86", "sm_89", "sm_90"];

/// Compiles `source` to PTX for `arch` (`sm_80`, `sm_90`, ...) with NVRTC.
///
/// Pre: NVRTC can be loaded (`libnvrtc.so` on the library path; else this
/// panics inside `cudarc`, so check with [`nvrtc_available`] first).
/// Post: the PTX, or a `Compile` error carrying NVRTC's log.
///
/// ```no_run
/// use kute_cuda::{copy::{CopyConfig, CopyKernel}, gpu::compile_ptx, Elem, Error};
/// let l: kute::Layout = "(64,64):(64,1)".parse().unwrap();
/// let k = CopyKernel::new("copy64", &l, &l, Elem::F32, CopyConfig::default())?;
/// let ptx = compile_ptx(&k.name, &k.source, "sm_80")?;
/// assert!(ptx.to_src().contains(".entry copy64"));
/// assert!(matches!(compile_ptx("bad", "not C++", "sm_80"), Err(Error::Compile { .. })));
/// # Ok::<(), kute_cuda::Error>(())
/// ```
pub fn compile_ptx(name: &str, source: &str, arch: &'static str) -> Result<Ptx> {
    let opts = CompileOptions { arch: Some(arch), options: vec!["--std=c++17".into()], ..Default::default() };
    compile_ptx_with_opts(source, opts).map_err(|e| Error::Compile { name: name.to_string(), log: format!("{e:?}") })
}

/// The registers, spills and shared memory `ptxas` reports for the kernels
/// of `source`, compiled by NVRTC to machine code for the real
/// architecture `arch` (`sm_80`, `sm_90`) with `--ptxas-options=-v`.
///
/// Pre: as [`compile_ptx`]. Post: `ptxas`'s lines (its `Used N registers`,
/// `N bytes spill stores` per kernel), or a `Compile` error with NVRTC's log.
///
/// ```no_run
/// use kute_cuda::{attention::{AttentionConfig, AttentionKernel}, gpu::ptxas_report, Elem};
/// let k = AttentionKernel::new("attn", AttentionConfig::default(), Elem::F16)?;
/// let report = ptxas_report(&k.name, &k.source, "sm_90")?;
/// assert!(report.contains("registers"));
/// # Ok::<(), kute_cuda::Error>(())
/// ```
pub fn ptxas_report(name: &str, source: &str, arch: &str) -> Result<String> {
    use cudarc::nvrtc::result;
    let err = |log: String| Error::Compile { name: name.to_string(), log };
    let src = std::ffi::CString::new(source).map_err(|e| err(e.to_string()))?;
    let prog = result::create_program(&src, None).map_err(|e| err(format!("{e:?}")))?;
    let options = [format!("--gpu-architecture={arch}"), "--std=c++17".into(), "--ptxas-options=-v".into()];
    // SAFETY: `prog` was just created and is destroyed once, below; the
    // log is a NUL-terminated buffer NVRTC filled.
    unsafe {
        let compiled = result::compile_program(prog, &options);
        let log =
            result::get_program_log(prog).map(|l| std::ffi::CStr::from_ptr(l.as_ptr()).to_string_lossy().into_owned());
        let _ = result::destroy_program(prog);
        let log = log.map_err(|e| err(format!("{e:?}")))?;
        compiled.map_err(|e| err(format!("{e:?}: {log}")))?;
        Ok(log)
    }
}

/// What `ptxas` says of one kernel of a [`ptxas_report`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelResources {
    /// The entry function's name.
    pub name: String,
    /// Registers per thread.
    pub registers: i64,
    /// Bytes of spill stores per thread.
    pub spill_stores: i64,
    /// Bytes of spill loads per thread.
    pub spill_loads: i64,
}

/// The kernels of a [`ptxas_report`] log, in its order: `ptxas` writes per
/// entry function "Compiling entry function 'NAME'", then its stack frame
/// and spills, then "Used N registers".
///
/// Pre: none. Post: one entry per "Used" line that follows an entry
/// function's name; counts `ptxas` did not print are 0.
///
/// ```
/// let log = "ptxas info    : Compiling entry function 'k' for 'sm_90a'\n\
///            ptxas info    : Function properties for k\n\
///            ptxas         .     8 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n\
///            ptxas info    : Used 254 registers, used 1 barriers";
/// let k = &kute_cuda::gpu::kernel_resources(log)[0];
/// assert_eq!((k.name.as_str(), k.registers, k.spill_stores, k.spill_loads), ("k", 254, 8, 12));
/// ```
pub fn kernel_resources(log: &str) -> Vec<KernelResources> {
    // the number before `what` on a line ("..., 8 bytes spill stores, ...")
    let count = |line: &str, what: &str| -> Option<i64> {
        line.split(',').find(|p| p.contains(what))?.split_whitespace().rev().nth(what.split(' ').count())?.parse().ok()
    };
    let mut out = Vec::new();
    let (mut name, mut stores, mut loads) = (None::<String>, 0, 0);
    for line in log.lines() {
        if let Some(rest) = line.split("entry function '").nth(1) {
            name = rest.split('\'').next().map(str::to_string);
            (stores, loads) = (0, 0);
        } else if line.contains("spill stores") {
            stores = count(line, "bytes spill stores").unwrap_or(0);
            loads = count(line, "bytes spill loads").unwrap_or(0);
        } else if let Some(r) = line.split("Used ").nth(1)
            && let Some(name) = name.take()
        {
            let registers = r.split(' ').next().and_then(|x| x.parse().ok()).unwrap_or(0);
            out.push(KernelResources { name, registers, spill_stores: stores, spill_loads: loads });
        }
    }
    out
}

/// Whether NVRTC can be loaded (without panicking when it cannot).
///
/// Pre: none. Post: `true` when `libnvrtc` was found and answers its version.
///
/// ```
/// use kute_cuda::gpu::{compile_ptx, nvrtc_available};
/// // where NVRTC loads, compiling does not panic (here an empty kernel compiles)
/// if nvrtc_available() {
///     assert!(compile_ptx("k", "extern \"C\" __global__ void k() {}", "sm_80").is_ok());
/// }
/// ```
pub fn nvrtc_available() -> bool {
    // SAFETY: only tries to load the library and reports whether it could.
    std::panic::catch_unwind(|| unsafe { cudarc::nvrtc::sys::is_culib_present() }).unwrap_or(false)
}

/// NVRTC's `(major, minor)` version, `(0, 0)` where it does not answer.
///
/// Pre: none (a missing NVRTC answers `(0, 0)`, without panicking). Post:
/// the version NVRTC reports (part of the kernel caches' key).
///
/// ```
/// let (major, _) = kute_cuda::gpu::nvrtc_version();
/// assert!(major == 0 || major >= 11);
/// ```
pub fn nvrtc_version() -> (i32, i32) {
    std::panic::catch_unwind(|| {
        let (mut major, mut minor) = (0, 0);
        // SAFETY: two live out-parameters (a missing NVRTC panics inside
        // cudarc, caught here).
        let r = unsafe { cudarc::nvrtc::sys::nvrtcVersion(&mut major, &mut minor) };
        if r == cudarc::nvrtc::sys::nvrtcResult::NVRTC_SUCCESS {
            (major, minor)
        } else {
            (0, 0)
        }
    })
    .unwrap_or((0, 0))
}

/// The launch shape of `f`: a `grid` of blocks of `threads` threads with
/// `smem` bytes of dynamic shared memory (past the default 48 KiB, the
/// kernel's limit is raised to it first).
fn config(f: &CudaFunction, grid: (u32, u32), threads: u32, smem: u32) -> Result<LaunchConfig> {
    if smem > 48 * 1024 {
        use cudarc::driver::sys::CUfunction_attribute_enum as Attr;
        f.set_attribute(Attr::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem as i32)?;
    }
    Ok(LaunchConfig { grid_dim: (grid.0, grid.1, 1), block_dim: (threads, 1, 1), shared_mem_bytes: smem })
}

/// As [`config`], for a grid of three dimensions.
fn config3(f: &CudaFunction, grid: (u32, u32, u32), threads: u32, smem: u32) -> Result<LaunchConfig> {
    let mut cfg = config(f, (grid.0, grid.1), threads, smem)?;
    cfg.grid_dim.2 = grid.2;
    Ok(cfg)
}

/// An attention kernel's last arguments: `O`, the LSE (a null pointer
/// where none is asked for) and the parameters.
fn push_attention_outputs<'a>(
    l: &mut cudarc::driver::LaunchArgs<'a>,
    o: &'a mut CudaSlice<u16>,
    lse: Option<&'a mut CudaSlice<f32>>,
    params: &'a Params,
) {
    static NONE: u64 = 0;
    l.arg(o);
    match lse {
        Some(x) => l.arg(x),
        None => l.arg(&NONE),
    };
    l.arg(params);
}

/// The value `cache` keeps for `key`, made by `make` where it has none yet
/// (outside the lock: a compile may take seconds; two threads making the
/// same one at once keep the second).
fn kept<K: Eq + std::hash::Hash, V>(
    cache: &Mutex<HashMap<K, Arc<V>>>,
    key: K,
    make: impl FnOnce() -> Result<V>,
) -> Result<Arc<V>> {
    if let Some(v) = cache.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
        return Ok(v.clone());
    }
    let v = Arc::new(make()?);
    cache.lock().unwrap_or_else(|p| p.into_inner()).insert(key, v.clone());
    Ok(v)
}

/// `Ok` where buffers of `lens` elements (A, B, C) hold the `spans` of
/// the problem `mnk` x `batch`; else an `Unsupported` error of `op` naming
/// the first that does not.
fn check_spans(
    op: &'static str,
    lens: (usize, usize, usize),
    spans: (i64, i64, i64),
    ((m, n, k), batch): ((i64, i64, i64), i64),
) -> Result<()> {
    let all = [("A", lens.0, spans.0), ("B", lens.1, spans.1), ("C", lens.2, spans.2)];
    match all.into_iter().find(|&(_, len, need)| (len as i64) < need) {
        Some((what, len, need)) => Err(Error::unsupported(
            op,
            format!("{what} holds {len} elements, fewer than the {need} its problem ({m},{n},{k}) x {batch} spans"),
        )),
        None => Ok(()),
    }
}

/// The fused epilogue's launch arguments after the sizes: `alpha`, `beta`
/// where the kernel reads `C`, and the bias where it has one.
fn push_epilogue<'a>(l: &mut cudarc::driver::LaunchArgs<'a>, beta: bool, args: &'a EpilogueArgs<'a>) {
    l.arg(&args.alpha);
    if beta {
        l.arg(&args.beta);
    }
    if let Some(bias) = args.bias {
        l.arg(bias);
    }
}

/// `Ok` where the bias given is what a kernel of bias mode `mode` takes on
/// `(M, N)`: none, or at least `M` (per row) or `N` (per column) values;
/// else an `Unsupported` error of `op`.
fn check_bias(op: &'static str, mode: BiasMode, bias: Option<&CudaSlice<f32>>, (m, n): (i64, i64)) -> Result<()> {
    let bias_len = match mode {
        BiasMode::None => None,
        BiasMode::PerRow => Some(("per row", m)),
        BiasMode::PerColumn => Some(("per column", n)),
    };
    match (bias_len, bias) {
        (None, None) => Ok(()),
        (Some((_, need)), Some(bias)) if bias.len() as i64 >= need => Ok(()),
        (Some((how, need)), Some(bias)) => {
            Err(Error::unsupported(op, format!("a bias {how} of {} values, fewer than {need}", bias.len())))
        }
        (Some((how, _)), None) => Err(Error::unsupported(op, format!("no bias for a kernel with one {how}"))),
        (None, Some(_)) => Err(Error::unsupported(op, "a bias for a kernel without one")),
    }
}

/// A TMA tensor map (CUDA's `CUtensorMap`), passed to a kernel by value.
#[repr(C, align(64))]
#[derive(Clone, Copy, Debug)]
pub struct TensorMap(pub [u64; 16]);

// SAFETY: plain bytes, laid out as CUDA's CUtensorMap (128 bytes, 64-aligned).
unsafe impl DeviceRepr for TensorMap {}

/// The fused epilogue's arguments at a launch ([`Gpu::launch_sm90_at_with`]).
#[derive(Clone, Copy, Debug)]
pub struct EpilogueArgs<'a> {
    /// The sums' factor.
    pub alpha: f32,
    /// `C`'s factor, where the kernel reads `C` ([`EpilogueOp::beta`]).
    pub beta: f32,
    /// The bias, `M` or `N` f32 values, where the kernel has one.
    pub bias: Option<&'a CudaSlice<f32>>,
}

impl Default for EpilogueArgs<'_> {
    /// `alpha` 1, no bias.
    fn default() -> Self {
        EpilogueArgs { alpha: 1.0, beta: 0.0, bias: None }
    }
}

/// The library's kernels by configuration.
type GemmCache = HashMap<(Elem, Sm90Config, SizeFacts, EpilogueOp), Arc<(Sm90GemmAtLaunch, Sm90Kernels)>>;

/// The kernels of an [`Sm90GemmAtLaunch`], loaded ([`Gpu::load_sm90_at`]):
/// the GEMM, split-K's GEMM and split-K's finishing kernel.
pub struct Sm90Kernels {
    main: CudaFunction,
    split: CudaFunction,
    finish: CudaFunction,
    /// Where the module came from (compiled now, or a cache).
    pub origin: Origin,
    /// The blocks that run at once: a block per multiprocessor, or with
    /// clusters, the clusters the GPU places at once times their blocks
    /// (`None`: one per multiprocessor).
    pub slots: Option<u32>,
}

/// An SM90 GEMM launch built once from its plan ([`Gpu::prepare_sm90`]): the
/// operands, their tensor maps (and C's), the grid and the shared memory.
pub struct Sm90Launch<'a> {
    a: &'a CudaSlice<u16>,
    b: &'a CudaSlice<u16>,
    maps: Option<(TensorMap, TensorMap)>,
    c_map: Option<TensorMap>,
    c_addr: u64,
    grid: (u32, u32),
    threads: u32,
    smem: u32,
}

/// A GPU: its context and the stream kernels run on.
pub struct Gpu {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    /// Modules loaded by [`Gpu::kernel_cached`], by cache key.
    loaded: Mutex<HashMap<String, Arc<cudarc::driver::CudaModule>>>,
    /// Split-K's f32 workspace, grown as problems need.
    workspace: Mutex<Option<CudaSlice<f32>>>,
    /// The library's kernels ([`crate::library::gemm`]), planned and loaded
    /// once per configuration.
    gemms: Mutex<GemmCache>,
    /// The recorded plan choices ([`crate::tune`]), read when first needed.
    tune: std::sync::OnceLock<std::result::Result<crate::tune::TuneTable, String>>,
    /// The attention kernels ([`crate::attention::attention`]), planned and
    /// loaded once per element type and configuration.
    attentions: Mutex<AttentionCache>,
    /// The SM90 attention kernels, likewise.
    attentions_sm90: Mutex<Sm90AttentionCache>,
    /// The SM80 GEMM kernels of sizes given at launch the library made.
    sm80_gemms: Mutex<Sm80Cache>,
}

/// The attention kernels by element type and configuration.
type AttentionCache = HashMap<(Elem, AttentionConfig), Arc<(AttentionKernel, CudaFunction)>>;
type Sm90AttentionCache = HashMap<(Elem, Sm90AttentionConfig), Arc<(Sm90AttentionKernel, CudaFunction)>>;
type Sm80Cache = HashMap<(Elem, GemmConfig, SizeFacts, EpilogueOp), Arc<(Sm80GemmAtLaunch, Sm80Kernels)>>;

/// The kernels of an [`Sm80GemmAtLaunch`], loaded ([`Gpu::load_sm80_at`]):
/// the GEMM, split-K's GEMM and split-K's finishing kernel.
pub struct Sm80Kernels {
    main: CudaFunction,
    split: CudaFunction,
    finish: CudaFunction,
    /// Where the module came from (compiled now, or a cache).
    pub origin: Origin,
}

impl Gpu {
    /// Opens GPU `ordinal`.
    ///
    /// Pre: the CUDA driver can be loaded (else `cudarc` panics). Post: the
    /// GPU, or the driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::gpu::Gpu;
    /// let gpu = Gpu::new(0)?;
    /// println!("{} ({}, {} SMs)", gpu.name()?, gpu.arch()?, gpu.sm_count()?);
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn new(ordinal: usize) -> Result<Gpu> {
        let ctx = CudaContext::new(ordinal)?;
        let stream = ctx.default_stream();
        Ok(Gpu {
            ctx,
            stream,
            loaded: Mutex::new(HashMap::new()),
            workspace: Mutex::new(None),
            gemms: Mutex::new(HashMap::new()),
            tune: std::sync::OnceLock::new(),
            attentions: Mutex::new(HashMap::new()),
            attentions_sm90: Mutex::new(HashMap::new()),
            sm80_gemms: Mutex::new(HashMap::new()),
        })
    }

    /// The plan choices recorded by `kute-cuda tune` ([`crate::tune`]),
    /// read from [`crate::tune::TuneTable::path`] on first use.
    ///
    /// Pre: none. Post: the table (empty where there is no file), or an
    /// `Unsupported` error naming the file and its broken line.
    ///
    /// ```no_run
    /// let gpu = kute_cuda::gpu::Gpu::new(0)?;
    /// println!("{} recorded plans", gpu.tune_table()?.len());
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn tune_table(&self) -> Result<&crate::tune::TuneTable> {
        match self.tune.get_or_init(|| crate::tune::TuneTable::load().map_err(|e| e.to_string())) {
            Ok(t) => Ok(t),
            Err(e) => Err(Error::unsupported("tune table", e.clone())),
        }
    }

    /// The GPU's name.
    ///
    /// Pre: none. Post: the driver's name for it.
    ///
    /// ```no_run
    /// let gpu = kute_cuda::gpu::Gpu::new(0)?;
    /// assert!(!gpu.name()?.is_empty()); // e.g. "NVIDIA H100 80GB HBM3"
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn name(&self) -> Result<String> {
        Ok(self.ctx.name()?)
    }

    /// The NVRTC architecture of the GPU (`sm_90` for compute capability 9.0).
    ///
    /// Pre: none. Post: `sm_XY`.
    ///
    /// ```no_run
    /// let gpu = kute_cuda::gpu::Gpu::new(0)?;
    /// assert!(gpu.arch()?.starts_with("sm_")); // "sm_90" on an H100
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn arch(&self) -> Result<&'static str> {
        let (major, minor) = self.ctx.compute_capability()?;
        let name = format!("sm_{major}{minor}");
        Ok(match ARCHS.iter().find(|a| **a == name) {
            Some(a) => a,
            None => Box::leak(name.into_boxed_str()),
        })
    }

    /// The number of streaming multiprocessors (the grid of a persistent kernel).
    ///
    /// Pre: none. Post: the driver's multiprocessor count.
    ///
    /// ```no_run
    /// use kute_cuda::{gemm_sm90::Sm90Gemm, gpu::Gpu, Elem};
    /// let gpu = Gpu::new(0)?;
    /// let g = Sm90Gemm::warp_specialized("w", (4096, 4096, 64), Elem::F16, Elem::F32)?;
    /// // 32 x 16 tiles: one persistent block per multiprocessor
    /// assert_eq!(g.grid(gpu.sm_count()?), (gpu.sm_count()?.min(512), 1));
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn sm_count(&self) -> Result<u32> {
        use cudarc::driver::sys::CUdevice_attribute_enum as Attr;
        Ok(self.ctx.attribute(Attr::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)? as u32)
    }

    /// The most shared memory a block may take, in bytes, once a kernel
    /// opts in (227 KiB on Hopper, 163 KiB on the A100, 99 KiB on other
    /// Ampere and Ada GPUs).
    ///
    /// Pre: none. Post: the driver's opt-in limit per block.
    ///
    /// ```no_run
    /// let gpu = kute_cuda::gpu::Gpu::new(0)?;
    /// assert!(gpu.max_smem_per_block()? >= 48 * 1024);
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn max_smem_per_block(&self) -> Result<u32> {
        use cudarc::driver::sys::CUdevice_attribute_enum as Attr;
        Ok(self.ctx.attribute(Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)? as u32)
    }

    /// The stream kernels run on.
    ///
    /// Pre: none. Post: the context's default stream, on which every launch,
    /// copy and timing of this `Gpu` is queued.
    ///
    /// ```no_run
    /// let gpu = kute_cuda::gpu::Gpu::new(0)?;
    /// let buf = gpu.zeros::<u32>(1024)?; // queued on the stream
    /// gpu.stream().synchronize()?;
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// Compiles `source` for this GPU and loads the kernel `name`.
    ///
    /// Pre: as [`compile_ptx`]. Post: the kernel, or the compiler's or
    /// driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::{copy::{CopyConfig, CopyKernel}, gpu::Gpu, Elem};
    /// let l: kute::Layout = "(64,64):(64,1)".parse().unwrap();
    /// let k = CopyKernel::new("copy64", &l, &l, Elem::F32, CopyConfig::default())?;
    /// let gpu = Gpu::new(0)?;
    /// let f = gpu.kernel(&k.name, &k.source)?;
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn kernel(&self, name: &str, source: &str) -> Result<CudaFunction> {
        self.kernel_for(name, source, self.arch()?)
    }

    /// As [`Gpu::kernel`], compiled for `arch` (`sm_90a` for Hopper's
    /// architecture-specific instructions).
    ///
    /// Pre: as [`compile_ptx`]; the GPU runs `arch`. Post: the kernel, or the
    /// compiler's or driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::{gemm_sm90::Sm90Gemm, gpu::Gpu, Elem};
    /// let gpu = Gpu::new(0)?;
    /// let g = Sm90Gemm::new("h", (256, 256, 128), Elem::F16)?;
    /// let f = gpu.kernel_for(&g.name, &g.source, "sm_90a")?; // wgmma needs sm_90a
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn kernel_for(&self, name: &str, source: &str, arch: &'static str) -> Result<CudaFunction> {
        let ptx = compile_ptx(name, source, arch)?;
        let module = self.ctx.load_module(ptx)?;
        Ok(module.load_function(name)?)
    }

    /// As [`Gpu::kernel_for`], through the kernel caches ([`crate::cache`]):
    /// a kernel this `Gpu` loaded before is returned as it is, one an earlier
    /// process compiled is loaded from its PTX on disk, and only a new one
    /// is compiled (and stored).
    ///
    /// Pre: as [`Gpu::kernel_for`]. Post: the kernel and where it came from,
    /// or the compiler's or driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::{cache::Origin, gemm_sm90::{SizeFacts, Sm90Config, Sm90GemmAtLaunch, Sm90Loader}, gpu::Gpu, Elem};
    /// let gpu = Gpu::new(0)?;
    /// let ws = Sm90Config { loader: Sm90Loader::WarpSpecialized, ..Sm90Config::default() };
    /// let g = Sm90GemmAtLaunch::new("g", Elem::F16, ws, SizeFacts::default())?;
    /// let (_, first) = gpu.kernel_cached(&g.name, &g.source, "sm_90a")?; // Compiled, or Disk
    /// let (_, again) = gpu.kernel_cached(&g.name, &g.source, "sm_90a")?;
    /// assert_eq!(again, Origin::Memory);
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn kernel_cached(&self, name: &str, source: &str, arch: &'static str) -> Result<(CudaFunction, Origin)> {
        let (module, origin) = self.module_cached(name, source, arch)?;
        Ok((module.load_function(name)?, origin))
    }

    /// The module of `source` through the caches (see
    /// [`Gpu::kernel_cached`]; `name` names it in a compiler's error): the
    /// source is hashed once however many of its kernels are loaded.
    fn module_cached(
        &self,
        name: &str,
        source: &str,
        arch: &'static str,
    ) -> Result<(Arc<cudarc::driver::CudaModule>, Origin)> {
        let key = cache::key(source, arch, nvrtc_version());
        if let Some(module) = self.loaded.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
            return Ok((module.clone(), Origin::Memory));
        }
        let (ptx, origin) = match cache::read(&key) {
            Some(text) => (Ptx::from_src(text), Origin::Disk),
            None => {
                let ptx = compile_ptx(name, source, arch)?;
                cache::write(&key, &ptx.to_src());
                (ptx, Origin::Compiled)
            }
        };
        let module = self.ctx.load_module(ptx)?;
        self.loaded.lock().unwrap_or_else(|p| p.into_inner()).insert(key, module.clone());
        Ok((module, origin))
    }

    /// The kernel of sizes given at launch for `elem`, `config` and `facts`,
    /// planned and loaded on the first call with them, kept for the next.
    ///
    /// Pre: as [`Sm90GemmAtLaunch::new`]. Post: the kernel and its loaded
    /// functions, or the planner's, compiler's or driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::{gemm_sm90::{SizeFacts, Sm90Config, Sm90Loader}, gpu::Gpu, Elem};
    /// let gpu = Gpu::new(0)?;
    /// let ws = Sm90Config { loader: Sm90Loader::WarpSpecialized, ..Sm90Config::default() };
    /// let first = gpu.gemm_kernels(Elem::F16, ws, SizeFacts::default(), Default::default())?; // planned, compiled
    /// let again = gpu.gemm_kernels(Elem::F16, ws, SizeFacts::default(), Default::default())?; // kept
    /// assert!(std::sync::Arc::ptr_eq(&first, &again));
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn gemm_kernels(
        &self,
        elem: Elem,
        config: Sm90Config,
        facts: SizeFacts,
        op: EpilogueOp,
    ) -> Result<Arc<(Sm90GemmAtLaunch, Sm90Kernels)>> {
        kept(&self.gemms, (elem, config, facts, op), || {
            let g = Sm90GemmAtLaunch::with_op(&format!("kute_gemm_{}", self.gemms_len()), elem, config, facts, op)?;
            let kernels = self.load_sm90_at(&g)?;
            Ok((g, kernels))
        })
    }

    /// The SM80 GEMM of sizes given at launch for `elem`, `config`,
    /// `facts` and the fused epilogue `op`, planned and loaded (through
    /// [`Gpu::load_sm80_at`], for this GPU's architecture) on the first
    /// call with them, kept for the next.
    ///
    /// Pre: as [`Sm80GemmAtLaunch::with_op`]. Post: the kernel and its
    /// loaded functions, or the planner's, compiler's or driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::{gemm::GemmConfig, gemm_sm90::SizeFacts, gpu::Gpu, Elem};
    /// let gpu = Gpu::new(0)?;
    /// let first = gpu.sm80_gemm_kernels(Elem::F16, GemmConfig::default(), SizeFacts::default(), Default::default())?;
    /// let again = gpu.sm80_gemm_kernels(Elem::F16, GemmConfig::default(), SizeFacts::default(), Default::default())?;
    /// assert!(std::sync::Arc::ptr_eq(&first, &again)); // planned and compiled once
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn sm80_gemm_kernels(
        &self,
        elem: Elem,
        config: GemmConfig,
        facts: SizeFacts,
        op: EpilogueOp,
    ) -> Result<Arc<(Sm80GemmAtLaunch, Sm80Kernels)>> {
        let key = (elem, config, facts, op);
        let mut cache = self.sm80_gemms.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(k) = cache.get(&key) {
            return Ok(k.clone());
        }
        let g = Sm80GemmAtLaunch::with_op(&format!("kute_gemm80_{}", cache.len()), elem, config, facts, op)?;
        let kernels = self.load_sm80_at(&g)?;
        let k = Arc::new((g, kernels));
        cache.insert(key, k.clone());
        Ok(k)
    }

    /// Loads the kernels of `g` (through the kernel cache, for this GPU's
    /// architecture): the GEMM, and split-K's two.
    ///
    /// Pre: as [`Gpu::kernel_for`]. Post: the kernels, or the compiler's
    /// or driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::{gemm::{GemmConfig, Sm80GemmAtLaunch}, gemm_sm90::SizeFacts, gpu::Gpu, Elem};
    /// let gpu = Gpu::new(0)?;
    /// let g = Sm80GemmAtLaunch::new("g", Elem::F16, GemmConfig::default(), SizeFacts::default())?;
    /// println!("{:?}", gpu.load_sm80_at(&g)?.origin); // Compiled, or Disk in a later process
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn load_sm80_at(&self, g: &Sm80GemmAtLaunch) -> Result<Sm80Kernels> {
        let (module, origin) = self.module_cached(&g.name, &g.source, self.arch()?)?;
        let f = |n: String| module.load_function(&n);
        Ok(Sm80Kernels {
            main: f(g.name.clone())?,
            split: f(format!("{}_split", g.name))?,
            finish: f(format!("{}_finish", g.name))?,
            origin,
        })
    }

    /// Launches the SM80 GEMM of sizes given at launch `g` (its kernels
    /// `k`) on the problem `p`: `a`, `b` and `c` hold A, B and C as the
    /// problem lays them out; `args` gives the fused epilogue's alpha, beta
    /// and bias. Where `p` splits the k-tiles (its `splits`, else
    /// [`Sm80Problem::split_heuristic`]'s choice for this GPU), the shares'
    /// f32 sums go into a workspace this `Gpu` keeps and the finishing
    /// kernel adds them into `C` with the epilogue.
    ///
    /// Pre: buffers at least as long as the problem spans, of the inputs'
    /// (2 bytes) and `C`'s element sizes; a bias exactly where `g.op` has
    /// one, of `M` or `N` values; splits from 1 to the k-tiles, at most 16
    /// (else an `Unsupported` error). Post: the launches were queued, or
    /// the driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::{gemm::{GemmConfig, Sm80GemmAtLaunch}, gemm_sm90::SizeFacts, gpu::{EpilogueArgs, Gpu}, Elem};
    /// let gpu = Gpu::new(0)?;
    /// let g = Sm80GemmAtLaunch::new("g", Elem::F16, GemmConfig::default(), SizeFacts::default())?;
    /// let k = gpu.load_sm80_at(&g)?;
    /// let (a, b) = (gpu.zeros::<u16>(300 * 72)?, gpu.zeros::<u16>(200 * 72)?);
    /// let mut c = gpu.zeros::<f32>(300 * 200)?;
    /// let p = g.problem((300, 200, 72))?;
    /// gpu.launch_sm80_at((&g, &k), &p, (&a, &b, &mut c), &EpilogueArgs::default())?;
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn launch_sm80_at<E: DeviceRepr, T: DeviceRepr>(
        &self,
        (g, k): (&Sm80GemmAtLaunch, &Sm80Kernels),
        p: &Sm80Problem,
        (a, b, c): (&CudaSlice<E>, &CudaSlice<E>, &mut CudaSlice<T>),
        args: &EpilogueArgs<'_>,
    ) -> Result<()> {
        const OP: &str = "launch_sm80_at";
        if std::mem::size_of::<E>() != 2 {
            return Err(Error::unsupported(
                OP,
                format!("A and B of {} in {}-byte elements", g.elem, std::mem::size_of::<E>()),
            ));
        }
        let c_bytes = g.config.c_elem.bytes() as usize;
        if std::mem::size_of::<T>() != c_bytes {
            return Err(Error::unsupported(
                OP,
                format!("a C of {} in {}-byte elements", g.config.c_elem, std::mem::size_of::<T>()),
            ));
        }
        let (m, n, kk) = p.mnk;
        check_bias(OP, g.op.bias, args.bias, (m, n))?;
        let spans = p.spans((g.config.a_k_major, g.config.b_k_major));
        check_spans(OP, (a.len(), b.len(), c.len()), spans, (p.mnk, p.batch))?;
        let sms = self.sm_count()?;
        let splits = p.splits.unwrap_or_else(|| p.split_heuristic(sms));
        if splits < 1 || splits > p.ktiles.min(16) {
            return Err(Error::unsupported(
                OP,
                format!("{splits} splits of {} k-tiles (1 to {})", p.ktiles, p.ktiles.min(16)),
            ));
        }
        let (gx, gy, gz) = p.grid;
        let threads = crate::gemm::THREADS as u32;
        let (ld, st) = (p.ld, p.batch_stride);
        let sizes = [&m, &n, &kk, &ld.0, &ld.1, &ld.2, &p.batch, &st.0, &st.1, &st.2];
        if splits == 1 {
            let cfg = LaunchConfig { grid_dim: (gx, gy, gz), ..config(&k.main, (gx, gy), threads, g.smem_bytes)? };
            let mut l = self.stream.launch_builder(&k.main);
            l.arg(a);
            l.arg(b);
            l.arg(c);
            for x in sizes {
                l.arg(x);
            }
            push_epilogue(&mut l, g.op.beta, args);
            // SAFETY: the kernel takes A, B, C, the ten sizes, alpha, beta
            // where it reads C and the bias, in this order; it reads and
            // writes inside the spans checked above and the bias's M or N
            // values (checked).
            unsafe { l.launch(cfg) }?;
            return Ok(());
        }
        let mut guard = self.workspace((m * n * p.batch * splits) as usize)?;
        let Some(w) = guard.as_mut() else { return Err(Error::unsupported(OP, "no workspace")) };
        let z = gz * splits as u32;
        let cfg = LaunchConfig { grid_dim: (gx, gy, z), ..config(&k.split, (gx, gy), threads, g.smem_bytes)? };
        let mut l = self.stream.launch_builder(&k.split);
        l.arg(a);
        l.arg(b);
        l.arg(&mut *c);
        for x in sizes {
            l.arg(x);
        }
        l.arg(&*w);
        l.arg(&splits);
        // SAFETY: the split kernel takes A, B, C (unused), the ten sizes,
        // the workspace and the splits; it stores inside the workspace's
        // M·N·L·S elements, which it holds (grown above).
        unsafe { l.launch(cfg) }?;
        drop(l);
        self.launch_finish(&k.finish, (w, c), (&sizes, m * n * p.batch), (g.op.beta, args), splits)
    }

    /// Split-K's workspace, grown (zeroed) to at least `need` f32 values.
    ///
    /// Pre: none. Post: the locked workspace, or the driver's error.
    fn workspace(&self, need: usize) -> Result<std::sync::MutexGuard<'_, Option<CudaSlice<f32>>>> {
        let mut guard = self.workspace.lock().unwrap_or_else(|q| q.into_inner());
        if guard.as_ref().is_none_or(|w| w.len() < need) {
            *guard = Some(self.stream.alloc_zeros::<f32>(need)?);
        }
        Ok(guard)
    }

    /// Split-K's finishing kernel `f`: the shares' sums in `w` added in
    /// order into `c`, with the epilogue, over `total` elements (`M·N·L`);
    /// `sizes` the GEMM's size arguments in its kernels' order.
    ///
    /// Pre: `w` holds the `splits` shares' sums of the problem. Post: the
    /// launch was queued, or the driver's error.
    fn launch_finish<T: DeviceRepr>(
        &self,
        f: &CudaFunction,
        (w, c): (&CudaSlice<f32>, &mut CudaSlice<T>),
        (sizes, total): (&[&i64], i64),
        (beta, args): (bool, &EpilogueArgs<'_>),
        splits: i64,
    ) -> Result<()> {
        let sms = self.sm_count()?;
        let blocks = ((total + 255) / 256).min(sms as i64 * 8) as u32;
        let mut l = self.stream.launch_builder(f);
        l.arg(w);
        l.arg(c);
        for x in sizes {
            l.arg(*x);
        }
        push_epilogue(&mut l, beta, args);
        l.arg(&splits);
        // SAFETY: the finishing kernel reads the workspace's M·N·L·S sums and
        // writes each element once into C at its layout's offsets, inside
        // the span the caller checked.
        unsafe { l.launch(config(f, (blocks, 1), 256, 0)?) }?;
        Ok(())
    }

    /// The attention kernel of `elem` and `config`, planned and loaded
    /// (through [`Gpu::kernel_cached`]) on the first call with them, kept
    /// for the next; compiled for this GPU's architecture.
    ///
    /// Pre: the rules of [`AttentionConfig::check`]. Post: the kernel and
    /// its loaded function, or the planner's, compiler's or driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::{attention::AttentionConfig, gpu::Gpu, Elem};
    /// let gpu = Gpu::new(0)?;
    /// let first = gpu.attention_kernel(Elem::F16, AttentionConfig::default())?; // planned, compiled
    /// let again = gpu.attention_kernel(Elem::F16, AttentionConfig::default())?; // kept
    /// assert!(std::sync::Arc::ptr_eq(&first, &again));
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn attention_kernel(
        &self,
        elem: Elem,
        config: AttentionConfig,
    ) -> Result<Arc<(AttentionKernel, CudaFunction)>> {
        kept(&self.attentions, (elem, config), || {
            let k = AttentionKernel::new(&AttentionKernel::name_of(config, elem), config, elem)?;
            let (f, _) = self.kernel_cached(&k.name, &k.source, self.arch()?)?;
            Ok((k, f))
        })
    }

    /// Launches the attention kernel `f` of `k` on a `grid` over `Q`, `K`,
    /// `V`, `O` and the LSE (none: the kernel stores no LSE).
    ///
    /// Pre: `params` describe the buffers (the kernel reads and writes
    /// inside the offsets its strides and lengths give, which the caller
    /// checked the buffers hold). Post: the launch was queued, or the
    /// driver's error.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn launch_attention(
        &self,
        f: &CudaFunction,
        k: &AttentionKernel,
        grid: (u32, u32, u32),
        (q, kk, v): (&CudaSlice<u16>, &CudaSlice<u16>, &CudaSlice<u16>),
        o: &mut CudaSlice<u16>,
        lse: Option<&mut CudaSlice<f32>>,
        params: &Params,
    ) -> Result<()> {
        let cfg = config3(f, grid, k.threads, k.smem_bytes)?;
        let mut l = self.stream.launch_builder(f);
        l.arg(q);
        l.arg(kk);
        l.arg(v);
        push_attention_outputs(&mut l, o, lse, params);
        // SAFETY: the kernel takes four 16-bit buffers, an f32 buffer (or
        // null, then unread) and its parameters by value; it reads and
        // writes at the offsets the parameters' strides give for the
        // lengths, inside the buffers (the precondition).
        unsafe { l.launch(cfg) }?;
        Ok(())
    }

    /// The SM90 attention kernel of `config` for `elem`: planned and
    /// compiled for `sm_90a` (or read from the disk cache) on first use,
    /// then kept.
    ///
    /// Pre: an SM90 GPU. Post: the kernel and its function, or the plan's,
    /// the compiler's or the driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::{attention::Sm90AttentionConfig, gpu::Gpu, Elem};
    /// let gpu = Gpu::new(0)?;
    /// let first = gpu.attention_sm90_kernel(Elem::Bf16, Sm90AttentionConfig::for_head_dim(128, true))?;
    /// let again = gpu.attention_sm90_kernel(Elem::Bf16, Sm90AttentionConfig::for_head_dim(128, true))?;
    /// assert!(std::sync::Arc::ptr_eq(&first, &again)); // planned and compiled once
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn attention_sm90_kernel(
        &self,
        elem: Elem,
        config: Sm90AttentionConfig,
    ) -> Result<Arc<(Sm90AttentionKernel, CudaFunction)>> {
        kept(&self.attentions_sm90, (elem, config), || {
            let k = Sm90AttentionKernel::new(&Sm90AttentionKernel::name_of(config, elem), config, elem)?;
            let (f, _) = self.kernel_cached(&k.name, &k.source, "sm_90a")?;
            Ok((k, f))
        })
    }

    /// Launches the SM90 attention kernel `f` of `k` on a `grid`: `Q`, `K`
    /// and `V` through tensor maps of `specs`, `O` and the LSE (none: the
    /// kernel stores no LSE) through `params`' strides.
    ///
    /// Pre: `specs` and `params` describe the buffers, which hold what they
    /// span (the caller checked). Post: the launch was queued, or the
    /// driver's error.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn launch_attention_sm90(
        &self,
        f: &CudaFunction,
        k: &Sm90AttentionKernel,
        grid: (u32, u32, u32),
        (q, kk, v): (&CudaSlice<u16>, &CudaSlice<u16>, &CudaSlice<u16>),
        specs: [MapSpec; 3],
        o: &mut CudaSlice<u16>,
        lse: Option<&mut CudaSlice<f32>>,
        params: &Params,
    ) -> Result<()> {
        let maps = [
            self.tensor_map_4d(q, k.elem, &specs[0])?,
            self.tensor_map_4d(kk, k.elem, &specs[1])?,
            self.tensor_map_4d(v, k.elem, &specs[2])?,
        ];
        let cfg = config3(f, grid, k.threads, k.smem_bytes)?;
        let mut l = self.stream.launch_builder(f);
        for m in &maps {
            l.arg(m);
        }
        push_attention_outputs(&mut l, o, lse, params);
        // SAFETY: the kernel takes three tensor maps and its parameters by
        // value, a 16-bit output and an f32 one (or null, then unwritten);
        // the maps read inside the buffers they were made from and the
        // stores stay inside the offsets the parameters give (the
        // precondition).
        unsafe { l.launch(cfg) }?;
        Ok(())
    }

    fn gemms_len(&self) -> usize {
        self.gemms.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// Loads the kernels of `g` (through [`Gpu::kernel_cached`]: compiled
    /// once per source, kept in memory and on disk): the GEMM, and split-K's
    /// two. Keep the handle: looking the source up hashes it.
    ///
    /// Pre: as [`Gpu::kernel_for`] for `sm_90a`. Post: the kernels, or the
    /// compiler's or driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::{gemm_sm90::{SizeFacts, Sm90Config, Sm90GemmAtLaunch, Sm90Loader}, gpu::Gpu, Elem};
    /// let gpu = Gpu::new(0)?;
    /// let ws = Sm90Config { loader: Sm90Loader::WarpSpecialized, ..Sm90Config::default() };
    /// let g = Sm90GemmAtLaunch::new("g", Elem::F16, ws, SizeFacts::default())?;
    /// let k = gpu.load_sm90_at(&g)?;
    /// println!("{:?}", k.origin); // Compiled, or Disk in a later process
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn load_sm90_at(&self, g: &Sm90GemmAtLaunch) -> Result<Sm90Kernels> {
        // (one source, one module: the three kernels from one lookup)
        let (module, origin) = self.module_cached(&g.name, &g.source, "sm_90a")?;
        let f = |n: String| module.load_function(&n);
        let main = f(g.name.clone())?;
        // (a multiprocessor's blocks of a cluster share its GPC: fewer
        // clusters than multiprocessors / blocks may fit at once)
        let slots = if g.config.cluster > 1 {
            let c = g.config.cluster as u32;
            let cfg = config(&main, (c, 1), g.threads, g.smem_bytes)?;
            Some(main.occupancy_max_active_clusters(cfg, &self.stream)?.max(1) * c)
        } else {
            None
        };
        Ok(Sm90Kernels {
            main,
            split: f(format!("{}_split", g.name))?,
            finish: f(format!("{}_finish", g.name))?,
            origin,
            slots,
        })
    }

    /// Launches the SM90 GEMM of sizes given at launch `g` (its kernels `k`,
    /// from [`Gpu::load_sm90_at`]) on the problem `p` (from
    /// [`Sm90GemmAtLaunch::problem`] or
    /// [`Sm90GemmAtLaunch::problem_batched`]): `a`, `b` and `c` hold A, B
    /// and C as the problem lays them out. Where `p` splits the k-tiles
    /// (its `splits`, or [`Sm90Problem::split_heuristic`]'s choice for this
    /// GPU), the split kernel adds each share's f32 sums into a workspace
    /// this `Gpu` keeps, and the finishing kernel converts it into `C`.
    ///
    /// Pre: buffers at least as long as [`Sm90Problem::spans`], `E` of the
    /// inputs' element size (`u16` for f16 and bf16, `u8` for e4m3 and
    /// e5m2), `T` of `C`'s, splits from 1 to the k-tiles (else an
    /// `Unsupported` error naming the buffer or the splits). Post: the
    /// launches were queued, or the driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::{gemm_sm90::{SizeFacts, Sm90Config, Sm90GemmAtLaunch, Sm90Loader}, gpu::Gpu, Elem};
    /// let gpu = Gpu::new(0)?;
    /// let ws = Sm90Config { loader: Sm90Loader::WarpSpecialized, ..Sm90Config::default() };
    /// let g = Sm90GemmAtLaunch::new("g", Elem::F16, ws, SizeFacts::default())?;
    /// let k = gpu.load_sm90_at(&g)?;
    /// for (m, n, kk) in [(100, 200, 64), (4096, 4096, 4096), (128, 8192, 8192)] {
    ///     let (a, b) = (gpu.zeros::<u16>(m * kk)?, gpu.zeros::<u16>(n * kk)?);
    ///     let mut c = gpu.zeros::<f32>(m * n)?;
    ///     let p = g.problem((m as i64, n as i64, kk as i64))?;
    ///     gpu.launch_sm90_at(&k, &g, &p, &a, &b, &mut c)?; // the last one split-K
    /// }
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn launch_sm90_at<E: DeviceRepr, T: DeviceRepr>(
        &self,
        kernels: &Sm90Kernels,
        g: &Sm90GemmAtLaunch,
        p: &Sm90Problem,
        a: &CudaSlice<E>,
        b: &CudaSlice<E>,
        c: &mut CudaSlice<T>,
    ) -> Result<()> {
        self.launch_sm90_at_with(kernels, g, p, (a, b, c), &EpilogueArgs::default())
    }

    /// As [`Gpu::launch_sm90_at`], with the fused epilogue's `alpha` and
    /// bias ([`Sm90GemmAtLaunch::with_op`]).
    ///
    /// Pre: as `launch_sm90_at`; a bias exactly where `g.op` has one,
    /// holding `M` (per row) or `N` (per column) values (else an
    /// `Unsupported` error). Post: as `launch_sm90_at`.
    ///
    /// ```no_run
    /// use kute_cuda::gemm_sm90::{Activation, BiasMode, EpilogueOp, SizeFacts, Sm90Config, Sm90GemmAtLaunch, Sm90Loader};
    /// use kute_cuda::{gpu::{EpilogueArgs, Gpu}, Elem};
    /// let gpu = Gpu::new(0)?;
    /// let ws = Sm90Config { loader: Sm90Loader::WarpSpecialized, ..Sm90Config::default() };
    /// let op = EpilogueOp { bias: BiasMode::PerColumn, activation: Activation::Relu, ..EpilogueOp::default() };
    /// let g = Sm90GemmAtLaunch::with_op("g", Elem::F16, ws, SizeFacts::default(), op)?;
    /// let k = gpu.load_sm90_at(&g)?;
    /// let (a, b, bias) = (gpu.zeros::<u16>(256 * 64)?, gpu.zeros::<u16>(512 * 64)?, gpu.zeros::<f32>(512)?);
    /// let mut c = gpu.zeros::<f32>(256 * 512)?;
    /// let p = g.problem((256, 512, 64))?;
    /// gpu.launch_sm90_at_with(&k, &g, &p, (&a, &b, &mut c), &EpilogueArgs { alpha: 0.5, bias: Some(&bias), ..EpilogueArgs::default() })?;
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn launch_sm90_at_with<E: DeviceRepr, T: DeviceRepr>(
        &self,
        kernels: &Sm90Kernels,
        g: &Sm90GemmAtLaunch,
        p: &Sm90Problem,
        (a, b, c): (&CudaSlice<E>, &CudaSlice<E>, &mut CudaSlice<T>),
        args: &EpilogueArgs<'_>,
    ) -> Result<()> {
        const OP: &str = "launch_sm90_at";
        check_bias(OP, g.op.bias, args.bias, (p.mnk.0, p.mnk.1))?;
        let (m, n, k) = p.mnk;
        let c_elem = g.config.c_elem;
        if std::mem::size_of::<E>() as i64 != g.elem.bytes() {
            return Err(Error::unsupported(
                OP,
                format!("A and B of {} elements of {} bytes", g.elem, std::mem::size_of::<E>()),
            ));
        }
        if std::mem::size_of::<T>() as i64 != c_elem.bytes() {
            return Err(Error::unsupported(
                OP,
                format!("a C of {c_elem} elements of {} bytes", std::mem::size_of::<T>()),
            ));
        }
        check_spans(OP, (a.len(), b.len(), c.len()), p.spans(g.config.k_major), (p.mnk, p.batch))?;
        let sms = self.sm_count()?;
        let splits = p.splits.unwrap_or_else(|| p.split_heuristic(sms));
        let slots = kernels.slots.unwrap_or(sms);
        let ktiles = p.ktiles;
        if splits < 1 || splits > ktiles {
            return Err(Error::unsupported(OP, format!("{splits} splits of {ktiles} k-tiles (1 to {ktiles})")));
        }
        let ta = self.tensor_map_3d(a, g.elem, &p.maps[0])?;
        let tb = self.tensor_map_3d(b, g.elem, &p.maps[1])?;
        let (ldc, batch, sc) = (p.ld.2, p.batch, p.batch_stride.2);
        if splits == 1 {
            let tc = p.c_map.map(|d| self.tensor_map_3d(c, c_elem, &d)).transpose()?;
            let f = &kernels.main;
            let cfg = config(f, p.grid(slots), g.threads, g.smem_bytes)?;
            let mut l = self.stream.launch_builder(f);
            l.arg(&ta);
            l.arg(&tb);
            l.arg(c);
            if let Some(m) = &tc {
                l.arg(m);
            }
            for x in [&m, &n, &k, &ldc, &batch, &sc] {
                l.arg(x);
            }
            push_epilogue(&mut l, g.op.beta, args);
            // SAFETY: the kernel takes two tensor maps by value, C (and its
            // map with a TMA store), the sizes, C's leading dimension, the
            // batch, C's batch stride, alpha, beta where it reads C and the
            // bias; it stores inside
            // the elements of C the problem spans, which the buffer holds,
            // and reads the bias inside its M or N values (checked above).
            unsafe { l.launch(cfg) }?;
            return Ok(());
        }
        // split-K: the workspace (a slice of C's shape in f32 per share), the
        // split kernel storing each share's sums, the finishing kernel
        // adding them in order
        if splits > 16 {
            return Err(Error::unsupported(OP, format!("{splits} splits (at most 16)")));
        }
        let mut guard = self.workspace((m * n * batch * splits) as usize)?;
        let Some(w) = guard.as_mut() else { return Err(Error::unsupported(OP, "no workspace")) };
        let f = &kernels.split;
        let cfg = config(f, p.grid_with(slots, splits), g.threads, g.smem_bytes)?;
        let mut l = self.stream.launch_builder(f);
        l.arg(&ta);
        l.arg(&tb);
        l.arg(&mut *c);
        for x in [&m, &n, &k, &ldc, &batch, &sc] {
            l.arg(x);
        }
        l.arg(&*w);
        l.arg(&splits);
        // SAFETY: the split kernel takes two tensor maps by value, C (unused),
        // the sizes, C's leading dimension, the batch, C's batch stride, the
        // workspace and the splits; it stores inside the workspace's
        // M·N·L·S elements, which it holds (grown above).
        unsafe { l.launch(cfg) }?;
        drop(l);
        let sizes: [&i64; 6] = [&m, &n, &k, &ldc, &batch, &sc];
        self.launch_finish(&kernels.finish, (w, c), (&sizes, m * n * batch), (g.op.beta, args), splits)
    }

    /// Copies `data` to a new device buffer.
    ///
    /// Pre: none. Post: the buffer, or the driver's error.
    ///
    /// ```no_run
    /// let gpu = kute_cuda::gpu::Gpu::new(0)?;
    /// let buf = gpu.upload(&[1u32, 2, 3])?;
    /// assert_eq!(gpu.download(&buf)?, [1, 2, 3]);
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn upload<T: DeviceRepr>(&self, data: &[T]) -> Result<CudaSlice<T>> {
        Ok(self.stream.clone_htod(data)?)
    }

    /// A zeroed device buffer of `n` elements.
    ///
    /// Pre: none. Post: the buffer, or the driver's error.
    ///
    /// ```no_run
    /// let gpu = kute_cuda::gpu::Gpu::new(0)?;
    /// let buf = gpu.zeros::<f32>(4)?;
    /// assert_eq!(gpu.download(&buf)?, [0.0; 4]);
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn zeros<T: DeviceRepr + cudarc::driver::ValidAsZeroBits>(&self, n: usize) -> Result<CudaSlice<T>> {
        Ok(self.stream.alloc_zeros(n)?)
    }

    /// Copies a device buffer back.
    ///
    /// Pre: none. Post: its contents, or the driver's error.
    ///
    /// ```no_run
    /// let gpu = kute_cuda::gpu::Gpu::new(0)?;
    /// let data: Vec<u16> = (0..256).collect();
    /// assert_eq!(gpu.download(&gpu.upload(&data)?)?, data);
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn download<T: DeviceRepr + Clone + Default>(&self, buf: &CudaSlice<T>) -> Result<Vec<T>> {
        Ok(self.stream.clone_dtoh(buf)?)
    }

    /// Launches `f(src, dst)` on `blocks` blocks of `threads` threads.
    ///
    /// Pre: `f` takes a source and a destination pointer and stays inside
    /// the buffers for this launch shape (the plans guarantee it for their
    /// own layouts and buffers of their cosizes). Post: the launch was
    /// queued, or the driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::{copy::{CopyConfig, CopyKernel}, gpu::Gpu, Elem};
    /// let src: kute::Layout = "(64,64):(64,1)".parse().unwrap();
    /// let dst: kute::Layout = "(64,64):(1,64)".parse().unwrap(); // a transpose
    /// let k = CopyKernel::new("t64", &src, &dst, Elem::F32, CopyConfig::default())?;
    /// let gpu = Gpu::new(0)?;
    /// let f = gpu.kernel(&k.name, &k.source)?;
    /// let a: Vec<u32> = (0..64 * 64).collect(); // f32 moved as its bits
    /// let (s, mut d) = (gpu.upload(&a)?, gpu.zeros::<u32>(64 * 64)?);
    /// gpu.launch(&f, k.blocks(), k.config.threads, &s, &mut d)?;
    /// assert_eq!(gpu.download(&d)?[1], 64); // element (1,0): source offset 64, destination offset 1
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn launch<T: DeviceRepr>(
        &self,
        f: &CudaFunction,
        blocks: u32,
        threads: u32,
        src: &CudaSlice<T>,
        dst: &mut CudaSlice<T>,
    ) -> Result<()> {
        let cfg = config(f, (blocks, 1), threads, 0)?;
        let mut b = self.stream.launch_builder(f);
        b.arg(src);
        b.arg(dst);
        // SAFETY: the kernel's two pointer parameters are the buffers, and
        // the plans keep every access inside them (the precondition).
        unsafe { b.launch(cfg) }?;
        Ok(())
    }

    /// Launches `f(a, b, c)` on a `grid` of blocks of `threads` threads (a
    /// GEMM: two inputs and an output).
    ///
    /// Pre: `f` takes three pointers and stays inside the buffers for this
    /// launch shape. Post: the launch was queued, or the driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::{gemm::{reference_source, GemmConfig}, gpu::Gpu, Elem};
    /// let (m, n, k) = (128usize, 128, 64);
    /// let gpu = Gpu::new(0)?;
    /// let mnk = (m as i64, n as i64, k as i64);
    /// let f = gpu.kernel("ref", &reference_source("ref", mnk, Elem::F16, &GemmConfig::default())?)?;
    /// let (a, b) = (gpu.zeros::<u16>(m * k)?, gpu.zeros::<u16>(n * k)?);
    /// let mut c = gpu.zeros::<f32>(m * n)?;
    /// gpu.launch3(&f, ((m * n).div_ceil(256) as u32, 1), 256, &a, &b, &mut c)?; // a thread per element of C
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn launch3<T: DeviceRepr, U: DeviceRepr>(
        &self,
        f: &CudaFunction,
        grid: (u32, u32),
        threads: u32,
        a: &CudaSlice<T>,
        b: &CudaSlice<T>,
        c: &mut CudaSlice<U>,
    ) -> Result<()> {
        self.launch3_smem(f, grid, threads, 0, a, b, c)
    }

    /// As [`Gpu::launch3`], with `smem` bytes of dynamic shared memory (the
    /// kernel's limit raised to it first).
    ///
    /// Pre: as `launch3`; `smem` within the GPU's limit per block.
    /// Post: the launch was queued, or the driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::{gemm::{GemmConfig, GemmKernel, THREADS}, gpu::Gpu, Elem};
    /// let g = GemmKernel::new("g", (256, 256, 64), Elem::F16, GemmConfig::default())?;
    /// let gpu = Gpu::new(0)?;
    /// let f = gpu.kernel(&g.name, &g.source)?;
    /// let (a, b) = (gpu.zeros::<u16>(256 * 64)?, gpu.zeros::<u16>(256 * 64)?);
    /// let mut c = gpu.zeros::<f32>(256 * 256)?;
    /// gpu.launch3_smem(&f, g.blocks(), THREADS as u32, g.smem_bytes, &a, &b, &mut c)?;
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn launch3_smem<T: DeviceRepr, U: DeviceRepr>(
        &self,
        f: &CudaFunction,
        grid: (u32, u32),
        threads: u32,
        smem: u32,
        a: &CudaSlice<T>,
        b: &CudaSlice<T>,
        c: &mut CudaSlice<U>,
    ) -> Result<()> {
        let cfg = config(f, grid, threads, smem)?;
        let mut l = self.stream.launch_builder(f);
        l.arg(a);
        l.arg(b);
        l.arg(c);
        // SAFETY: the kernel's three pointer parameters are the buffers, and
        // the plans keep every access inside them (the precondition).
        unsafe { l.launch(cfg) }?;
        Ok(())
    }

    /// The TMA tensor map of a row-major `(rows, cols)` matrix of 16-bit
    /// elements (`bf16` or else `f16`) in `buf`, copied in boxes of
    /// `(box_rows, box_cols)` into shared memory with the 128-byte swizzle.
    ///
    /// Pre: `buf` holds `rows · cols` elements; `cols · 2` a multiple of 16;
    /// `box_cols · 2 == 128`, `box_rows <= 256`. Post: the map, or the
    /// driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::{gemm_sm90::Sm90Gemm, gpu::Gpu, Elem};
    /// let g = Sm90Gemm::with_tma("t", (256, 256, 128), Elem::Bf16)?;
    /// let gpu = Gpu::new(0)?;
    /// let a = gpu.zeros::<u16>(256 * 128)?;
    /// let (rows, cols, box_rows, box_cols) = g.tma_maps[0]; // (256, 128, 128, 64): A is (M, K), K-major
    /// let map = gpu.tensor_map_sw128(&a, rows, cols, box_rows, box_cols, true)?;
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn tensor_map_sw128(
        &self,
        buf: &CudaSlice<u16>,
        rows: u64,
        cols: u64,
        box_rows: u32,
        box_cols: u32,
        bf16: bool,
    ) -> Result<TensorMap> {
        self.tensor_map_of(buf, if bf16 { Elem::Bf16 } else { Elem::F16 }, (rows, cols, box_rows, box_cols))
    }

    /// As [`Gpu::tensor_map_sw128`], for a matrix of `elem` (`f32`, `f16` or
    /// `bf16`) whose `(rows, cols, box rows, box cols)` are `dims` (an
    /// [`Sm90Gemm::c_map`](crate::gemm_sm90::Sm90Gemm::c_map), the map a
    /// TMA store of `C` writes through).
    ///
    /// Pre: `T` is `elem.bytes()` wide (else an `Unsupported` error); `buf`
    /// holds `rows · cols` elements; `cols · elem.bytes()` a multiple of 16;
    /// `box_cols · elem.bytes() <= 128`, `box_rows <= 256`. Post: the map,
    /// or the driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::{gemm_sm90::Sm90Gemm, gpu::Gpu, Elem};
    /// let g = Sm90Gemm::warp_specialized("w", (1024, 1024, 128), Elem::F16, Elem::F32)?;
    /// let gpu = Gpu::new(0)?;
    /// let c = gpu.zeros::<f32>(1024 * 1024)?;
    /// let map = gpu.tensor_map_of(&c, g.c_elem, g.c_map.unwrap())?; // boxes of 64 x 32 f32
    /// assert!(gpu.tensor_map_of(&c, Elem::F16, g.c_map.unwrap()).is_err()); // f32 buffer, f16 map
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn tensor_map_of<T: DeviceRepr>(
        &self,
        buf: &CudaSlice<T>,
        elem: Elem,
        (rows, cols, box_rows, box_cols): (u64, u64, u32, u32),
    ) -> Result<TensorMap> {
        self.encode(buf, elem, &[cols, rows], &[cols * elem.bytes() as u64], &[box_cols, box_rows])
    }

    /// As [`Gpu::tensor_map_of`], for a batch of matrices (a 3-D map, see
    /// [`TmaSpec`]).
    ///
    /// Pre: as `tensor_map_of`, with `buf` holding every matrix of the
    /// batch. Post: the map, or the driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::{gemm_sm90::TmaSpec, gpu::Gpu, Elem};
    /// let gpu = Gpu::new(0)?;
    /// let a = gpu.zeros::<u16>(3 * 256 * 64)?; // three (256, 64) f16 matrices
    /// let spec = TmaSpec { dims: [64, 256, 3], strides: [128, 256 * 128], box_dims: [64, 128, 1] };
    /// let map = gpu.tensor_map_3d(&a, Elem::F16, &spec)?;
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn tensor_map_3d<T: DeviceRepr>(&self, buf: &CudaSlice<T>, elem: Elem, spec: &TmaSpec) -> Result<TensorMap> {
        self.encode(buf, elem, &spec.dims, &spec.strides, &spec.box_dims)
    }

    /// The tensor map of an attention operand (`Q`, `K` or `V`, see
    /// [`Sm90AttentionKernel::map`]): a 4-D map of `buf`.
    ///
    /// Pre: `buf` holds what `spec` spans; `T` is `elem.bytes()` wide; the
    /// strides multiples of 16 bytes. Post: the map, or the driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::attention::{strides, Sm90AttentionConfig, Sm90AttentionKernel};
    /// use kute_cuda::{gpu::Gpu, Elem};
    /// let k = Sm90AttentionKernel::new("a", Sm90AttentionConfig::default(), Elem::F16)?;
    /// let q: kute::Layout = "(1000,128,8):(1024,1,128)".parse().unwrap(); // BSHD, one batch entry
    /// let gpu = Gpu::new(0)?;
    /// let buf = gpu.zeros::<u16>(1000 * 1024)?;
    /// let map = gpu.tensor_map_4d(&buf, Elem::F16, &k.map(&strides("Q", &q, 4)?, false))?;
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn tensor_map_4d<T: DeviceRepr>(&self, buf: &CudaSlice<T>, elem: Elem, spec: &MapSpec) -> Result<TensorMap> {
        self.encode(buf, elem, &spec.dims, &spec.strides, &spec.boxes)
    }

    /// A 128-byte-swizzled tiled tensor map of `buf`: `dims` and `boxes`
    /// innermost first, `strides` the bytes of each dimension but the first.
    fn encode<T: DeviceRepr>(
        &self,
        buf: &CudaSlice<T>,
        elem: Elem,
        dims: &[u64],
        strides: &[u64],
        boxes: &[u32],
    ) -> Result<TensorMap> {
        use cudarc::driver::sys::{self, CUtensorMapDataType as Ty};
        use cudarc::driver::DevicePtr;
        if std::mem::size_of::<T>() as i64 != elem.bytes() {
            return Err(Error::unsupported(
                "tensor map",
                format!("a buffer of {elem} elements of {} bytes", std::mem::size_of::<T>()),
            ));
        }
        if dims.len() != boxes.len() || strides.len() + 1 != dims.len() || !(2..=5).contains(&dims.len()) {
            return Err(Error::unsupported(
                "tensor map",
                format!("{} dimensions, {} strides", dims.len(), strides.len()),
            ));
        }
        let (ptr, _sync) = buf.device_ptr(&self.stream);
        let mut map = sys::CUtensorMap { opaque: [0; 16] };
        let elem_strides = [1u32; 5];
        // SAFETY: every pointer is to a live slice of the rank's length
        // (checked above; the element strides' array is at least as long).
        // L2 promotion of 256 bytes where every row and matrix starts on a
        // 256-byte boundary, else 128: rows 16 but not 32 bytes aligned
        // (f16 K = 1000) ran 0.091 ms on 6000x3000x1000 with 256 and 0.079
        // with 128, aligned ones alike with either (H200)
        let promotion = if strides.iter().all(|s| s % 256 == 0) {
            sys::CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_256B
        } else {
            sys::CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_128B
        };
        let r = unsafe {
            sys::cuTensorMapEncodeTiled(
                &mut map,
                match elem {
                    Elem::F32 => Ty::CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
                    Elem::F16 => Ty::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
                    Elem::Bf16 => Ty::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
                    // TMA moves the 8-bit floats' bytes
                    Elem::E4m3 | Elem::E5m2 => Ty::CU_TENSOR_MAP_DATA_TYPE_UINT8,
                },
                dims.len() as u32,
                ptr as *mut std::ffi::c_void,
                dims.as_ptr(),
                strides.as_ptr(),
                boxes.as_ptr(),
                elem_strides.as_ptr(),
                sys::CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
                sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B,
                promotion,
                sys::CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
            )
        };
        r.result()?;
        Ok(TensorMap(map.opaque))
    }

    /// Launches the SM90 GEMM `g` (its kernel `f`, compiled from `g.source`
    /// for `sm_90a`) on `a`, `b` and `c`: [`Gpu::prepare_sm90`], then
    /// [`Gpu::launch_prepared`]. To launch the same plan on the same buffers
    /// many times (a benchmark), prepare once and launch the preparation.
    ///
    /// Pre: as [`Gpu::prepare_sm90`]. Post: the launch was queued, or the
    /// driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::{gemm_sm90::Sm90Gemm, gpu::Gpu, Elem};
    /// let gpu = Gpu::new(0)?;
    /// let g = Sm90Gemm::warp_specialized("g", (256, 256, 64), Elem::F16, Elem::F16)?;
    /// let f = gpu.kernel_for(&g.name, &g.source, "sm_90a")?;
    /// let (a, b) = (gpu.zeros::<u16>(256 * 64)?, gpu.zeros::<u16>(256 * 64)?);
    /// let mut c = gpu.zeros::<u16>(256 * 256)?;
    /// gpu.launch_sm90(&f, &g, &a, &b, &mut c)?;
    /// // the same, prepared once
    /// let p = gpu.prepare_sm90(&g, &a, &b, &c)?;
    /// for _ in 0..3 {
    ///     gpu.launch_prepared(&f, &p, &mut c)?;
    /// }
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn launch_sm90<T: DeviceRepr>(
        &self,
        f: &CudaFunction,
        g: &Sm90Gemm,
        a: &CudaSlice<u16>,
        b: &CudaSlice<u16>,
        c: &mut CudaSlice<T>,
    ) -> Result<()> {
        let p = self.prepare_sm90(g, a, b, c)?;
        self.launch_prepared(f, &p, c)
    }

    /// What launching the SM90 GEMM `g` on `a`, `b` and `c` takes, built from
    /// the plan: the tensor maps its kernel reads (A's and B's, and C's for
    /// a TMA-store epilogue), its grid (one block per multiprocessor for the
    /// persistent kernel) and its shared memory.
    ///
    /// Pre: `a` and `b` hold the operands (`M·K` and `N·K` elements of
    /// `g.elem`, laid out as `g.tma_maps` say), `c` the `M·N` elements of
    /// `g.c_elem` (`T` of its size, else an `Unsupported` error).
    /// Post: a launch for [`Gpu::launch_prepared`] on these buffers.
    ///
    /// ```no_run
    /// use kute_cuda::{gemm_sm90::Sm90Gemm, gpu::Gpu, Elem};
    /// let gpu = Gpu::new(0)?;
    /// let g = Sm90Gemm::warp_specialized("w", (256, 256, 64), Elem::F16, Elem::F32)?;
    /// let (a, b) = (gpu.zeros::<u16>(256 * 64)?, gpu.zeros::<u16>(256 * 64)?);
    /// let c = gpu.zeros::<f32>(256 * 256)?;
    /// let p = gpu.prepare_sm90(&g, &a, &b, &c)?;
    /// assert!(gpu.prepare_sm90(&g, &a, &b, &gpu.zeros::<u16>(256 * 256)?).is_err()); // C is f32
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn prepare_sm90<'a, T: DeviceRepr>(
        &self,
        g: &Sm90Gemm,
        a: &'a CudaSlice<u16>,
        b: &'a CudaSlice<u16>,
        c: &CudaSlice<T>,
    ) -> Result<Sm90Launch<'a>> {
        if std::mem::size_of::<T>() as i64 != g.c_elem.bytes() {
            return Err(Error::unsupported(
                "launch_sm90",
                format!("a C of {} elements of {} bytes", g.c_elem, std::mem::size_of::<T>()),
            ));
        }
        let mut p = Sm90Launch {
            a,
            b,
            maps: None,
            c_map: None,
            c_addr: self.address(c),
            grid: g.blocks(),
            threads: g.threads,
            smem: g.smem_bytes,
        };
        if g.loader == Sm90Loader::CpAsync {
            return Ok(p);
        }
        let bf16 = g.elem == Elem::Bf16;
        let [(ar, ac, abr, abc), (br, bc, bbr, bbc)] = g.tma_maps;
        p.maps = Some((
            self.tensor_map_sw128(a, ar, ac, abr, abc, bf16)?,
            self.tensor_map_sw128(b, br, bc, bbr, bbc, bf16)?,
        ));
        p.c_map = g.c_map.map(|d| self.tensor_map_of(c, g.c_elem, d)).transpose()?;
        if g.loader == Sm90Loader::WarpSpecialized {
            p.grid = g.grid(self.sm_count()?);
        }
        Ok(p)
    }

    /// Launches the kernel `f` of the plan `p` was prepared for, writing `c`.
    ///
    /// Pre: `c` is the buffer `p` was prepared with (else an `Unsupported`
    /// error: a map of C holds its address). Post: the launch was queued, or
    /// the driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::{gemm_sm90::Sm90Gemm, gpu::Gpu, Elem};
    /// let gpu = Gpu::new(0)?;
    /// let g = Sm90Gemm::warp_specialized("w", (256, 256, 64), Elem::F16, Elem::F16)?;
    /// let f = gpu.kernel_for(&g.name, &g.source, "sm_90a")?;
    /// let (a, b) = (gpu.zeros::<u16>(256 * 64)?, gpu.zeros::<u16>(256 * 64)?);
    /// let (mut c, mut other) = (gpu.zeros::<u16>(256 * 256)?, gpu.zeros::<u16>(256 * 256)?);
    /// let p = gpu.prepare_sm90(&g, &a, &b, &c)?;
    /// gpu.launch_prepared(&f, &p, &mut c)?;
    /// assert!(gpu.launch_prepared(&f, &p, &mut other).is_err()); // not the C it was prepared for
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn launch_prepared<T: DeviceRepr>(
        &self,
        f: &CudaFunction,
        p: &Sm90Launch<'_>,
        c: &mut CudaSlice<T>,
    ) -> Result<()> {
        if self.address(c) != p.c_addr {
            return Err(Error::unsupported("launch_prepared", "a C other than the one the launch was prepared for"));
        }
        match &p.maps {
            None => self.launch3_smem(f, p.grid, p.threads, p.smem, p.a, p.b, c),
            Some((ta, tb)) => self.launch_tma(f, p.grid, p.threads, p.smem, (ta, tb), c, p.c_map.as_ref()),
        }
    }

    /// A buffer's device address.
    fn address<T: DeviceRepr>(&self, buf: &CudaSlice<T>) -> u64 {
        use cudarc::driver::DevicePtr;
        buf.device_ptr(&self.stream).0
    }

    /// Launches `f(ta, tb, c)` (a TMA GEMM: two tensor maps and an output),
    /// or `f(ta, tb, c, tc)` where `c_map` is given (a GEMM storing `C` by TMA
    /// through `tc`, a map of `c` from [`Gpu::tensor_map_of`]), with `smem`
    /// bytes of dynamic shared memory.
    ///
    /// Pre: the maps describe buffers the kernel may read; `c` holds what
    /// it writes; `c_map` a map of `c`, the kernel taking it exactly when it is
    /// given. Post: the launch was queued, or the driver's error.
    ///
    /// ```no_run
    /// use kute_cuda::{gemm_sm90::Sm90Gemm, gpu::Gpu, Elem};
    /// let g = Sm90Gemm::with_tma("t", (256, 256, 128), Elem::F16)?; // kernel t(tma_a, tma_b, C)
    /// let gpu = Gpu::new(0)?;
    /// let f = gpu.kernel_for(&g.name, &g.source, "sm_90a")?;
    /// let (a, b) = (gpu.zeros::<u16>(256 * 128)?, gpu.zeros::<u16>(256 * 128)?);
    /// let mut c = gpu.zeros::<f32>(256 * 256)?;
    /// let [(ar, ac, abr, abc), (br, bc, bbr, bbc)] = g.tma_maps;
    /// let ta = gpu.tensor_map_sw128(&a, ar, ac, abr, abc, false)?;
    /// let tb = gpu.tensor_map_sw128(&b, br, bc, bbr, bbc, false)?;
    /// gpu.launch_tma(&f, g.blocks(), g.threads, g.smem_bytes, (&ta, &tb), &mut c, None)?;
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn launch_tma<U: DeviceRepr>(
        &self,
        f: &CudaFunction,
        grid: (u32, u32),
        threads: u32,
        smem: u32,
        maps: (&TensorMap, &TensorMap),
        c: &mut CudaSlice<U>,
        c_map: Option<&TensorMap>,
    ) -> Result<()> {
        let cfg = config(f, grid, threads, smem)?;
        let mut l = self.stream.launch_builder(f);
        l.arg(maps.0);
        l.arg(maps.1);
        l.arg(c);
        if let Some(m) = c_map {
            l.arg(m);
        }
        // SAFETY: the kernel takes two tensor maps by value and an output the
        // plan keeps its stores inside, and with `c_map` a map of that output
        // (the precondition).
        unsafe { l.launch(cfg) }?;
        Ok(())
    }

    /// Milliseconds per call of `run`: `warmup` calls, then `rounds` rounds
    /// of `reps` calls timed with CUDA events; the median round's mean.
    ///
    /// Pre: none (`rounds` and `reps` of 0 count as 1).
    /// Post: the time, or the first error `run` or the driver returns.
    ///
    /// ```no_run
    /// use kute_cuda::{copy::{CopyConfig, CopyKernel}, gpu::Gpu, Elem};
    /// let l: kute::Layout = "(4096,4096):(4096,1)".parse().unwrap();
    /// let k = CopyKernel::new("copy", &l, &l, Elem::F32, CopyConfig::default())?;
    /// let gpu = Gpu::new(0)?;
    /// let f = gpu.kernel(&k.name, &k.source)?;
    /// let (s, mut d) = (gpu.zeros::<u32>(4096 * 4096)?, gpu.zeros::<u32>(4096 * 4096)?);
    /// let ms = gpu.time(3, 5, 20, || gpu.launch(&f, k.blocks(), k.config.threads, &s, &mut d))?;
    /// println!("{:.1} GB/s", 2.0 * 4.0 * 4096.0 * 4096.0 / (ms * 1e6));
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn time(&self, warmup: usize, rounds: usize, reps: usize, mut run: impl FnMut() -> Result<()>) -> Result<f64> {
        for _ in 0..warmup {
            run()?;
        }
        let flags = Some(cudarc::driver::sys::CUevent_flags::CU_EVENT_DEFAULT);
        let mut times = Vec::with_capacity(rounds);
        for _ in 0..rounds.max(1) {
            let start = self.stream.record_event(flags)?;
            for _ in 0..reps.max(1) {
                run()?;
            }
            let end = self.stream.record_event(flags)?;
            times.push(f64::from(start.elapsed_ms(&end)?) / reps.max(1) as f64);
        }
        times.sort_by(f64::total_cmp);
        Ok(times[times.len() / 2])
    }

    /// Waits for the stream.
    ///
    /// Pre: none. Post: every queued launch finished, or the driver's error.
    ///
    /// ```no_run
    /// let gpu = kute_cuda::gpu::Gpu::new(0)?;
    /// let buf = gpu.upload(&[0u32; 1024])?; // queued
    /// gpu.sync()?; // done
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn sync(&self) -> Result<()> {
        Ok(self.stream.synchronize()?)
    }
}
