//! kute-cuda as a library: [`gemm`] multiplies matrices a program holds on
//! the GPU, each described by a kute layout, with the SM90 kernel made once
//! for every size ([`crate::gemm_sm90::Sm90GemmAtLaunch`]).
//!
//! `C = A · Bᵀ`: `A` is `(M, K)`, `B` is `(N, K)` and `C` is `(M, N)`, each
//! optionally with a third mode, the batch (`(M, K, L)`, ...). A layout's
//! strides say how the matrix is stored: `A` with `K`'s stride 1 is
//! K-major (its rows `M`'s stride apart), with `M`'s stride 1 M-major; the
//! same for `B`; `C` must have `N`'s stride 1. The majors, the leading
//! dimensions and the batch strides are read off the layouts; a layout no
//! kernel serves is an error naming the operand and what is missing.
//!
//! The kernels are planned, compiled (or read from the disk cache) and kept
//! per GPU once for each combination of element types, majors and the
//! divisibility the sizes share (16-byte rows for TMA), so a program that
//! calls [`gemm`] with a new `M` compiles nothing.

use crate::gemm_sm90::{Activation, BiasMode, EpilogueOp, SizeFacts, Sm90Config, Sm90Epilogue, Sm90Loader};
use crate::gpu::{EpilogueArgs, Gpu};
use crate::tune::TuneKey;
use crate::{Elem, Error, Result};
use cudarc::driver::{CudaSlice, DeviceRepr};
use kute::Layout;

const OP: &str = "gemm";

/// A matrix (or a batch of them) on the GPU: its elements and its layout,
/// `(rows, cols)` or `(rows, cols, batch)` to offsets in `data`.
pub struct Matrix<'a, T> {
    /// The elements.
    pub data: &'a CudaSlice<T>,
    /// Coordinate to offset in `data`.
    pub layout: Layout,
}

/// A matrix the call writes (see [`Matrix`]).
pub struct MatrixMut<'a, T> {
    /// The elements.
    pub data: &'a mut CudaSlice<T>,
    /// Coordinate to offset in `data`.
    pub layout: Layout,
}

/// How an operand is stored, read off its layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Storage {
    /// `(rows, cols)` of the operand's logical shape.
    pub shape: (i64, i64),
    /// Matrices in the batch (1 without a third mode).
    pub batch: i64,
    /// Whether the columns are contiguous (the second mode's stride is 1):
    /// K-major for `A` and `B`, as `C` must be.
    pub cols_contiguous: bool,
    /// Elements between rows (columns contiguous) or columns.
    pub ld: i64,
    /// Elements between matrices of the batch.
    pub batch_stride: i64,
}

/// How `layout` stores the operand `what`: concrete integer extents and
/// strides, one of its first two modes of stride 1 (or of extent 1), the
/// others positive.
///
/// Pre: none. Post: the storage, or an `Unsupported` error naming `what`,
/// its layout and the rule it breaks.
///
/// ```
/// use kute_cuda::library::storage;
/// let rows: kute::Layout = "(100,64):(72,1)".parse().unwrap(); // rows 72 apart
/// let s = storage("A", &rows).unwrap();
/// assert_eq!((s.shape, s.cols_contiguous, s.ld, s.batch), ((100, 64), true, 72, 1));
/// let batch: kute::Layout = "(100,64,3):(1,128,8192)".parse().unwrap(); // columns 128 apart
/// let s = storage("A", &batch).unwrap();
/// assert_eq!((s.cols_contiguous, s.ld, s.batch, s.batch_stride), (false, 128, 3, 8192));
/// assert!(storage("A", &"(100,64):(2,200)".parse().unwrap()).is_err()); // no unit stride
/// ```
pub fn storage(what: &str, layout: &Layout) -> Result<Storage> {
    let bad = |why: String| Err(Error::unsupported(OP, format!("{what} = {layout}: {why}")));
    let modes = flat_modes(OP, what, layout, 2..=3, "a matrix is (rows, cols) or (rows, cols, batch)")?;
    let mut ext = [1i64; 3];
    let mut str = [0i64; 3];
    for (i, &(e, st)) in modes.iter().enumerate() {
        (ext[i], str[i]) = (e, st);
        if e < 1 {
            return bad(format!("mode {i} is {e}:{st}: positive extents, strides not negative"));
        }
    }
    let unit = |i: usize| str[i] == 1 || ext[i] == 1;
    let (cols_contiguous, ld) = if unit(1) {
        (true, if ext[0] == 1 { ext[1] } else { str[0] })
    } else if unit(0) {
        (false, if ext[1] == 1 { ext[0] } else { str[1] })
    } else {
        return bad("neither the rows' nor the columns' stride is 1 (the kernels read contiguous rows)".into());
    };
    let span = if cols_contiguous { (ext[0] - 1) * ld + ext[1] } else { (ext[1] - 1) * ld + ext[0] };
    let batch_stride = if modes.len() == 3 && ext[2] > 1 { str[2] } else { span };
    Ok(Storage { shape: (ext[0], ext[1]), batch: ext[2], cols_contiguous, ld, batch_stride })
}

/// The `(extent, stride)` of each mode of `layout`, the operand `what` of
/// `op`: integers known at the call, a rank in `ranks` (`rule` says why),
/// one extent and one stride a mode, none negative.
///
/// Pre: none. Post: the modes in order, or an `Unsupported` error of `op`
/// naming `what`, its layout and the rule it breaks.
pub(crate) fn flat_modes(
    op: &'static str,
    what: &str,
    layout: &Layout,
    ranks: std::ops::RangeInclusive<usize>,
    rule: &str,
) -> Result<Vec<(i64, i64)>> {
    let bad = |why: String| Error::unsupported(op, format!("{what} = {layout}: {why}"));
    if layout.has_symbols() {
        return Err(bad("its sizes must be known at the call".into()));
    }
    if !layout.has_int_strides() {
        return Err(bad("its strides must be integers".into()));
    }
    let rank = layout.rank();
    if !ranks.contains(&rank) {
        return Err(bad(format!("rank {rank}: {rule}")));
    }
    (0..rank)
        .map(|i| {
            let m = layout.mode(i)?;
            let [leaf] = m.leaves() else {
                return Err(bad(format!("mode {i} is {m}: each mode one extent and one stride")));
            };
            let (e, st) = (leaf.shape.value(), leaf.stride.scale_int().value());
            if e < 0 || st < 0 {
                return Err(bad(format!("mode {i} is {m}: extents and strides not negative")));
            }
            Ok((e, st))
        })
        .collect()
}

/// The largest of 16, 8, 4, 2, 1, at most `most`, dividing every value.
fn common_div(values: &[i64], most: i64) -> i64 {
    [16, 8, 4, 2, 1].into_iter().filter(|&d| d <= most).find(|d| values.iter().all(|v| v % d == 0)).unwrap_or(1)
}

/// `C = A · Bᵀ` on `gpu` (see the [module docs](self)): `A` and `B` of
/// `elem` (f16 or bf16 as 16-bit words `u16`; e4m3 or e5m2 as bytes `u8`,
/// both K-major), `C` of `T`: f32 (4 bytes), or 2 bytes: `elem` from 16-bit
/// inputs, f16 from 8-bit ones (bf16 through [`gemm_with`]'s
/// [`GemmOptions::c_elem`]).
///
/// Pre: the layouts as [`storage`] reads them, of shapes `(M, K)`,
/// `(N, K)`, `(M, N)` with equal batches; `C`'s columns contiguous; the
/// contiguous extents and leading dimensions of `A` and `B` multiples of 8
/// elements (16-byte rows for TMA); every buffer holding what its layout
/// spans; a Hopper GPU (else an `Unsupported` error naming the operand and
/// the rule). Post: `C` holds the product (each element the f32 sum,
/// rounded to nearest even for a 16-bit `C`), or the driver's error.
///
/// ```no_run
/// use kute_cuda::{gpu::Gpu, library::{gemm, Matrix, MatrixMut}, Elem};
/// let gpu = Gpu::new(0)?;
/// let (m, n, k) = (300, 200, 64);
/// let (a, b) = (gpu.zeros::<u16>(m * k)?, gpu.zeros::<u16>(n * k)?);
/// let mut c = gpu.zeros::<f32>(m * n)?;
/// let lay = |s: &str| s.parse::<kute::Layout>().unwrap();
/// gemm(&gpu, Elem::F16,
///      Matrix { data: &a, layout: lay("(300,64):(64,1)") },    // A row-major (K-major)
///      Matrix { data: &b, layout: lay("(200,64):(1,200)") },   // B column-major (N-major)
///      MatrixMut { data: &mut c, layout: lay("(300,200):(200,1)") })?;
/// # Ok::<(), kute_cuda::Error>(())
/// ```
pub fn gemm<E: DeviceRepr, T: DeviceRepr>(
    gpu: &Gpu,
    elem: Elem,
    a: Matrix<'_, E>,
    b: Matrix<'_, E>,
    c: MatrixMut<'_, T>,
) -> Result<()> {
    gemm_with(gpu, elem, a, b, c, &GemmOptions::default())
}

/// What [`gemm_with`] does to each f32 sum `x` before storing it:
/// `activation(alpha · scale_a · scale_b · x + beta · c + bias)`, `c` the
/// element of `C` before the call.
#[derive(Clone, Copy, Debug)]
pub struct GemmOptions<'a> {
    /// The sums' factor (1 by default).
    pub alpha: f32,
    /// `C`'s factor (0 by default: `C` is only written). Another value
    /// reads `C` (a kernel of its own, compiled once).
    pub beta: f32,
    /// Per-tensor scales of A and B (their dequantization factors: A holds
    /// `A_true / scale_a`), as `torch._scaled_mm` takes them for 8-bit
    /// inputs; 1 by default.
    pub scales: (f32, f32),
    /// The type of a 2-byte `C` from 8-bit inputs: f16 (the default,
    /// `None`) or bf16. 16-bit inputs give a 2-byte `C` of their own type.
    pub c_elem: Option<Elem>,
    /// The k-tiles' splits (split-K), pinned; `None` (the default) for the
    /// choice `kute-cuda tune` recorded for the problem ([`crate::tune`]),
    /// else [`crate::gemm_sm90::Sm90Problem::split_heuristic`]'s.
    pub splits: Option<i64>,
    /// The block tile's width (256, 192, 128 or 64), pinned; `None` (the
    /// default) for the recorded choice ([`crate::tune`]), else
    /// [`crate::gemm_sm90::tile_n_heuristic`]'s.
    pub tile_n: Option<i64>,
    /// The blocks of a thread-block cluster (1 or 2: two blocks along M
    /// sharing B's tile by TMA multicast), pinned; `None` (the default) for
    /// the recorded choice ([`crate::tune`]), else
    /// [`crate::gemm_sm90::cluster_heuristic`]'s.
    pub cluster: Option<i64>,
    /// Run the SM80 `mma.sync` kernels (what GPUs other than Hopper run)
    /// on a Hopper GPU too (false by default).
    pub sm80: bool,
    /// A bias, f32, per row (`M` values) or per column (`N` values) of `C`,
    /// shared by the matrices of a batch.
    pub bias: Option<(&'a CudaSlice<f32>, BiasMode)>,
    /// The activation.
    pub activation: Activation,
}

impl Default for GemmOptions<'_> {
    /// `C = A · Bᵀ`: alpha 1, beta 0, no bias, no activation.
    fn default() -> Self {
        GemmOptions {
            alpha: 1.0,
            beta: 0.0,
            scales: (1.0, 1.0),
            c_elem: None,
            splits: None,
            tile_n: None,
            cluster: None,
            sm80: false,
            bias: None,
            activation: Activation::None,
        }
    }
}

/// As [`gemm`], the epilogue fused: `C = activation(alpha · scale_a ·
/// scale_b · A · Bᵀ + beta · C + bias)`, with the plan's choices pinned where the
/// options say.
///
/// Pre: as [`gemm`]; a bias of `M` (per row) or `N` (per column) values;
/// `c_elem`, where given, `T`'s type (f32; or f16 or bf16 from 8-bit
/// inputs); a pinned tile width of 256, 192, 128 or 64, splits from 1 to
/// the k-tiles and clusters of 1 or 2 (2 with an N-major B: a tile of an
/// even number of 128-byte slabs) (else an `Unsupported` error). Post: `C` holds each element's f32 sum
/// with the epilogue applied, rounded for a 16-bit `C`.
///
/// ```no_run
/// use kute_cuda::{gemm_sm90::{Activation, BiasMode}, gpu::Gpu, library::{gemm_with, GemmOptions, Matrix, MatrixMut}, Elem};
/// let gpu = Gpu::new(0)?;
/// let (a, b, bias) = (gpu.zeros::<u16>(256 * 64)?, gpu.zeros::<u16>(512 * 64)?, gpu.zeros::<f32>(512)?);
/// let mut c = gpu.zeros::<u16>(256 * 512)?;
/// let lay = |s: &str| s.parse::<kute::Layout>().unwrap();
/// let gelu = GemmOptions { bias: Some((&bias, BiasMode::PerColumn)), activation: Activation::Gelu, ..GemmOptions::default() };
/// gemm_with(&gpu, Elem::F16, Matrix { data: &a, layout: lay("(256,64):(64,1)") },
///           Matrix { data: &b, layout: lay("(512,64):(64,1)") },
///           MatrixMut { data: &mut c, layout: lay("(256,512):(512,1)") }, &gelu)?;
/// # Ok::<(), kute_cuda::Error>(())
/// ```
///
/// 8-bit inputs, stored as bytes, with per-tensor scales (what
/// `torch._scaled_mm(a, b.t(), scale_a, scale_b, out_dtype=torch.bfloat16)`
/// computes):
///
/// ```no_run
/// use kute_cuda::{gpu::Gpu, library::{gemm_with, GemmOptions, Matrix, MatrixMut}, Elem};
/// let gpu = Gpu::new(0)?;
/// let (a, b) = (gpu.zeros::<u8>(256 * 512)?, gpu.zeros::<u8>(1024 * 512)?); // e4m3 bytes
/// let mut c = gpu.zeros::<u16>(256 * 1024)?;
/// let lay = |s: &str| s.parse::<kute::Layout>().unwrap();
/// let fp8 = GemmOptions { scales: (0.02, 0.01), c_elem: Some(Elem::Bf16), ..GemmOptions::default() };
/// gemm_with(&gpu, Elem::E4m3, Matrix { data: &a, layout: lay("(256,512):(512,1)") },
///           Matrix { data: &b, layout: lay("(1024,512):(512,1)") },
///           MatrixMut { data: &mut c, layout: lay("(256,1024):(1024,1)") }, &fp8)?;
/// # Ok::<(), kute_cuda::Error>(())
/// ```
pub fn gemm_with<E: DeviceRepr, T: DeviceRepr>(
    gpu: &Gpu,
    elem: Elem,
    a: Matrix<'_, E>,
    b: Matrix<'_, E>,
    c: MatrixMut<'_, T>,
    options: &GemmOptions<'_>,
) -> Result<()> {
    if elem == Elem::F32 {
        return Err(Error::unsupported(OP, "f32 inputs (f16, bf16, e4m3 or e5m2)"));
    }
    if std::mem::size_of::<E>() as i64 != elem.bytes() {
        return Err(Error::unsupported(
            OP,
            format!(
                "A and B of {elem} held in {}-byte elements ({} bytes each)",
                std::mem::size_of::<E>(),
                elem.bytes()
            ),
        ));
    }
    let c_elem = match (std::mem::size_of::<T>(), options.c_elem) {
        (4, None | Some(Elem::F32)) => Elem::F32,
        (2, None) if elem.is_fp8() => Elem::F16,
        (2, None) => elem,
        (2, Some(ce)) if ce.bytes() == 2 && (ce == elem || elem.is_fp8()) => ce,
        (n, want) => {
            let of = if elem.is_fp8() { "f32, f16 or bf16".to_string() } else { format!("f32 or {elem}") };
            let named = want.map_or(String::new(), |w| format!(" named {w}"));
            return Err(Error::unsupported(OP, format!("a C of {n}-byte elements{named} from {elem} inputs ({of})")));
        }
    };
    let sm80 = options.sm80 || gpu.arch()? != "sm_90";
    let (sa, sb, sc) = (storage("A", &a.layout)?, storage("B", &b.layout)?, storage("C", &c.layout)?);
    let ((m, k), (n, kb), (mc, nc)) = (sa.shape, sb.shape, sc.shape);
    if kb != k || mc != m || nc != n {
        return Err(Error::unsupported(
            OP,
            format!("A ({m},{k}), B ({n},{kb}) and C ({mc},{nc}): C = A·Bᵀ needs A (M,K), B (N,K), C (M,N)"),
        ));
    }
    if sa.batch != sc.batch || sb.batch != sc.batch {
        return Err(Error::unsupported(OP, format!("batches of {}, {} and {}", sa.batch, sb.batch, sc.batch)));
    }
    if !sc.cols_contiguous {
        return Err(Error::unsupported(OP, format!("C = {}: its columns must be contiguous (stride 1)", c.layout)));
    }
    // the facts every such call shares: the divisibility of the sizes and
    // strides (16-byte rows for TMA: 8 elements), a TMA store of C where its
    // rows allow
    let batched = |s: &Storage| if s.batch > 1 { vec![s.batch_stride] } else { vec![] };
    let contiguous = |s: &Storage, rows: i64, cols: i64| if s.cols_contiguous { cols } else { rows };
    let mut a_vals = vec![contiguous(&sa, m, k), sa.ld];
    a_vals.extend(batched(&sa));
    let mut b_vals = vec![contiguous(&sb, n, k), sb.ld];
    b_vals.extend(batched(&sb));
    // 16-byte rows: 8 16-bit or 16 8-bit elements
    let vec = 16 / elem.bytes();
    for (what, vals) in [("A", &a_vals), ("B", &b_vals)] {
        if common_div(vals, vec) < vec {
            return Err(Error::unsupported(
                OP,
                format!("{what}: its rows' length, leading dimension and batch stride {vals:?} must be multiples of {vec} elements (16-byte rows for TMA and cp.async)"),
            ));
        }
    }
    let k_major = (sa.cols_contiguous, sb.cols_contiguous);
    let mut c_vals = vec![n, sc.ld];
    c_vals.extend(batched(&sc));
    let n_div = common_div(&c_vals, 8);
    let tma_store = n_div * c_elem.bytes() % 16 == 0;
    let facts = SizeFacts {
        m_div: if k_major.0 { 1 } else { 8 },
        n_div: if k_major.1 { n_div } else { n_div.max(8) },
        k_div: if k_major.0 || k_major.1 { vec } else { 1 },
    };
    if sm80 {
        return gemm_sm80(gpu, elem, (&sa, &sb, &sc), (a.data, b.data, c.data), (c_elem, facts, options));
    }
    // the choices: pinned by the caller, else recorded for this problem by
    // `kute-cuda tune`, else the heuristics'
    let pinned = options.tile_n.is_some() && options.splits.is_some() && options.cluster.is_some();
    let tuned = recorded(gpu, (elem, c_elem, k_major), ((m, n, k), sc.batch), false, pinned)?;
    let bn = match options.tile_n.or(tuned.map(|c| c.tile_n)) {
        Some(bn) => bn,
        // (a pinned cluster of two on an N-major B: a width of whole pairs
        // of 128-byte slabs)
        None => match crate::gemm_sm90::tile_n_heuristic((m, n, k), sc.batch, gpu.sm_count()?) {
            bn if options.cluster == Some(2) && !k_major.1 && (bn * elem.bytes() / 128) % 2 != 0 => {
                if bn < 128 {
                    128
                } else {
                    256
                }
            }
            bn => bn,
        },
    };
    let cluster = match options.cluster.or(tuned.map(|c| c.cluster)) {
        Some(c) => c,
        None => {
            let e = elem.bytes();
            // (an N-major B's tile splits into its 64-row slabs: an even number)
            let halves = k_major.1 || (bn * e / 128) % 2 == 0;
            if halves {
                crate::gemm_sm90::cluster_heuristic(m, (sa.ld * e, sb.ld * e))
            } else {
                1
            }
        }
    };
    let config = Sm90Config {
        loader: Sm90Loader::WarpSpecialized,
        epilogue: if tma_store { Sm90Epilogue::Tma } else { Sm90Epilogue::Direct },
        c_elem,
        k_major,
        bn,
        cluster,
    };
    let (op, args) = epilogue(options)?;
    let loaded = gpu.gemm_kernels(elem, config, facts, op)?;
    let (g, kernels) = (&loaded.0, &loaded.1);
    let ld = (sa.ld, sb.ld, sc.ld);
    let mut p = g.problem_batched((m, n, k), sc.batch, ld, (sa.batch_stride, sb.batch_stride, sc.batch_stride))?;
    if let Some(s) = options.splits.or(tuned.map(|c| c.splits)) {
        p = p.with_splits(s);
    }
    gpu.launch_sm90_at_with(kernels, g, &p, (a.data, b.data, c.data), &args)
}

/// What `kute-cuda tune` recorded for the problem `(mnk, batch)` of
/// `(elem, c_elem, k_major)` on this GPU (the SM80 kernels' entry where
/// `sm80`), unless the caller `pinned` every choice or the table is empty.
///
/// Pre: none. Post: the choice, or `None`; the table's error where it
/// cannot be read.
fn recorded(
    gpu: &Gpu,
    (elem, c_elem, k_major): (Elem, Elem, (bool, bool)),
    (mnk, batch): ((i64, i64, i64), i64),
    sm80: bool,
    pinned: bool,
) -> Result<Option<crate::tune::Choice>> {
    let table = gpu.tune_table()?;
    if table.is_empty() || pinned {
        return Ok(None);
    }
    Ok(table.get(&TuneKey { gpu: gpu.name()?, elem, c_elem, k_major, mnk, batch, sm80 }))
}

/// The fused epilogue the options ask for, and its launch arguments
/// (alpha with the scales' product).
///
/// Pre: none. Post: the epilogue, or an `Unsupported` error for a bias of
/// neither rows nor columns.
fn epilogue<'a>(options: &GemmOptions<'a>) -> Result<(EpilogueOp, EpilogueArgs<'a>)> {
    let op = EpilogueOp {
        bias: options.bias.map_or(BiasMode::None, |(_, how)| how),
        activation: options.activation,
        beta: options.beta != 0.0,
    };
    if op.bias == BiasMode::None && options.bias.is_some() {
        return Err(Error::unsupported(OP, "a bias that applies to neither rows nor columns (BiasMode::None)"));
    }
    let (sa, sb) = options.scales;
    Ok((op, EpilogueArgs { alpha: options.alpha * sa * sb, beta: options.beta, bias: options.bias.map(|(b, _)| b) }))
}

/// The SM80 kernels' block tile widths `BN` (each with `BM` 128 or 64).
pub const SM80_TILE_NS: [i64; 2] = [128, 64];

/// The SM80 block tile `(BM, BN)` for `(M, N)` in a batch of `batch` on a
/// GPU of `sms` multiprocessors: the largest of 128 x 128, 128 x 64,
/// 64 x 128 and 64 x 64 whose tiles give every multiprocessor a block
/// (the larger tile loads less per multiply-add), else the smallest (the
/// most blocks). Pre: none. Post: one of the four.
///
/// ```
/// use kute_cuda::library::sm80_tile;
/// assert_eq!(sm80_tile((4096, 4096), 1, 108), (128, 128)); // 1024 tiles
/// assert_eq!(sm80_tile((1024, 1024), 1, 108), (128, 64)); // 64 of 128 x 128, 128 of 128 x 64
/// assert_eq!(sm80_tile((128, 1024), 1, 108), (64, 64)); // 32 of 64 x 64: the most
/// ```
pub fn sm80_tile((m, n): (i64, i64), batch: i64, sms: u32) -> (i64, i64) {
    const TILES: [(i64, i64); 4] = [(128, 128), (128, 64), (64, 128), (64, 64)];
    let blocks = |(bm, bn): (i64, i64)| crate::plan::ceil_div(m, bm) * crate::plan::ceil_div(n, bn) * batch;
    TILES.into_iter().find(|&t| blocks(t) >= sms as i64).unwrap_or((64, 64))
}

/// [`gemm_with`] on the SM80 `mma.sync` kernel of sizes given at launch
/// ([`crate::gemm::Sm80GemmAtLaunch`]): the tile by [`sm80_tile`] (its
/// width pinnable: 128 or 64), split-K by the SM90 rule (pinnable), the
/// fused epilogue, the facts the caller read off the operands' storage. 8-bit inputs and
/// clusters are Hopper's.
fn gemm_sm80<E: DeviceRepr, T: DeviceRepr>(
    gpu: &Gpu,
    elem: Elem,
    (sa, sb, sc): (&Storage, &Storage, &Storage),
    (a, b, c): (&CudaSlice<E>, &CudaSlice<E>, &mut CudaSlice<T>),
    (c_elem, facts, options): (Elem, SizeFacts, &GemmOptions<'_>),
) -> Result<()> {
    if elem.is_fp8() || options.cluster.is_some_and(|c| c != 1) {
        return Err(Error::unsupported(
            OP,
            "on the SM80 kernels: 8-bit inputs (wgmma) and clusters run on Hopper (sm_90) only",
        ));
    }
    if options.tile_n.is_some_and(|w| !SM80_TILE_NS.contains(&w)) {
        return Err(Error::unsupported(
            OP,
            format!("a tile width of {:?} on the SM80 kernels (128 or 64)", options.tile_n),
        ));
    }
    let ((m, k), (n, _)) = (sa.shape, sb.shape);
    let (a_k, b_k) = (sa.cols_contiguous, sb.cols_contiguous);
    let sms = gpu.sm_count()?;
    // the choices: pinned, else recorded by `kute-cuda tune` for these
    // kernels and this problem, else the heuristics'
    let pinned = options.tile_n.is_some() && options.splits.is_some();
    let tuned = recorded(gpu, (elem, c_elem, (a_k, b_k)), ((m, n, k), sc.batch), true, pinned)?;
    let (bm, bn) = match options.tile_n.or(tuned.map(|c| c.tile_n)) {
        Some(w) => (sm80_tile((m, n), sc.batch, sms).0, w),
        None => sm80_tile((m, n), sc.batch, sms),
    };
    let config = crate::gemm::GemmConfig {
        bm,
        bn,
        a_k_major: a_k,
        b_k_major: b_k,
        c_elem,
        ..crate::gemm::GemmConfig::default()
    };
    let (op, args) = epilogue(options)?;
    let loaded = gpu.sm80_gemm_kernels(elem, config, facts, op)?;
    let g = &loaded.0;
    let mut p = g.problem_batched(
        (m, n, k),
        sc.batch,
        (sa.ld, sb.ld, sc.ld),
        (sa.batch_stride, sb.batch_stride, sc.batch_stride),
    )?;
    if let Some(s) = options.splits.or(tuned.map(|c| c.splits)) {
        p = p.with_splits(s);
    }
    gpu.launch_sm80_at((g, &loaded.1), &p, (a, b, c), &args)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `storage` reads is what the layout computes: at every
    /// coordinate, the offset is `b·batch_stride + r·ld + c` (columns
    /// contiguous) or `b·batch_stride + c·ld + r`; the layouts no kernel
    /// serves are refused.
    #[test]
    fn storage_is_what_the_layout_computes() {
        let served = [
            "(100,64):(64,1)",
            "(100,64):(72,1)",
            "(100,64):(1,100)",
            "(100,64):(1,104)",
            "(100,64,3):(64,1,6400)",
            "(100,64,3):(72,1,8000)",
            "(100,64,3):(1,128,8192)",
            "(1,64):(0,1)",
            "(100,1):(1,0)",
            "(100,64,1):(64,1,0)",
        ];
        for text in served {
            let l: Layout = text.parse().unwrap();
            let s = storage("A", &l).unwrap_or_else(|e| panic!("{text}: {e}"));
            let (rows, cols) = s.shape;
            for b in 0..s.batch {
                for r in 0..rows {
                    for c in 0..cols {
                        let coord = r + rows * (c + cols * b);
                        let want = b * s.batch_stride + if s.cols_contiguous { r * s.ld + c } else { c * s.ld + r };
                        assert_eq!(l.eval(coord).unwrap(), want, "{text} at ({r},{c},{b})");
                    }
                }
            }
        }
        for text in ["(100,64):(2,200)", "(4,(2,2)):(1,(4,8))", "100:1", "(2,2,2,2):(1,2,4,8)"] {
            let l: Layout = text.parse().unwrap();
            let e = storage("B", &l).unwrap_err().to_string();
            assert!(e.contains("B = ") && e.contains(text), "{text}: {e}");
        }
    }
}
