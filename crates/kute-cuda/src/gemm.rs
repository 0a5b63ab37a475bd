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

use crate::source::{header, layout_fn, plain_fn};
use crate::transpose::tv_layout;
use crate::{layout_of, Elem, Error, Result};
use kute::analysis::{block_bank_conflicts, search_swizzle, Access, BankReport, SearchSpec};
use kute::{AnyLayout, Layout, Major};

const OP: &str = "gemm kernel";

/// `ceil(a / b)` for positive `b`.
pub(crate) fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

/// The block tile and pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
        blas((self.a_k_major, self.b_k_major))
    }
}

/// BLAS's name of the operand layouts whose K-majorness is `k_major` (A, B).
fn blas(k_major: (bool, bool)) -> &'static str {
    match k_major {
        (true, true) => "TN",
        (false, false) => "NT",
        (false, true) => "NN",
        (true, false) => "TT",
    }
}

/// An operand `(rows, K)`: K-major (row-major), else column-major. The SM80
/// and SM90 GEMMs read their operands through it.
pub(crate) fn operand_layout(rows: i64, k: i64, k_major: bool) -> Result<Layout> {
    layout_of(&if k_major { format!("({rows},{k}):({k},1)") } else { format!("({rows},{k}):(1,{rows})") })
}

/// Every operand's contiguous extent a whole number of 16-byte vectors of
/// 16-bit elements (what `cp.async` and TMA copy), else an `Unsupported`
/// error of `op`.
pub(crate) fn check_rows(op: &'static str, (m, n, k): (i64, i64, i64), (a_k, b_k): (bool, bool)) -> Result<()> {
    let contiguous = [if a_k { ("K", k) } else { ("M", m) }, if b_k { ("K", k) } else { ("N", n) }];
    match contiguous.into_iter().find(|(_, extent)| extent % 8 != 0) {
        Some((what, extent)) => Err(Error::unsupported(
            op,
            format!(
                "({m},{n},{k}) {}: {what} = {extent} must be a multiple of 8 (the operands' rows are whole 16-byte vectors)",
                blas((a_k, b_k))
            ),
        )),
        None => Ok(()),
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

/// The layouts of one input operand, as the kernel evaluates them (each a
/// function of a 1-D index).
#[derive(Clone, Debug)]
pub struct OperandPlan {
    /// Block tile number (`row tile + tiles · k tile`) to its first offset.
    pub tiles: Layout,
    /// `cp.async` TV index (`t + 128 · V · p`) to the global offset in the tile.
    pub gcopy: Layout,
    /// `cp.async` TV index to the tile coordinate (the shared offset is
    /// the shared layout of it).
    pub scopy: Layout,
    /// Thread to the tile coordinate of its `ldmatrix` row (the first MMA tile).
    pub ldsm: Layout,
    /// MMA tile repeat (`row repeat + repeats · k repeat`) to its tile-coordinate offset.
    pub rep: Layout,
    /// When predicated: block tile number to the (row, k) coordinate of its
    /// first element (an identity layout divided by the tile).
    pub ctiles: Option<Layout>,
    /// When predicated: `cp.async` TV index to the (row, k) coordinate in the tile.
    pub ccopy: Option<Layout>,
}

/// The layouts of `C`, as the kernel evaluates them.
#[derive(Clone, Debug)]
pub struct OutputPlan {
    /// Block tile number (`bm + tiles · bn`) to its first offset.
    pub tiles: Layout,
    /// Tile coordinate to the offset in the tile.
    pub tile: Layout,
    /// `t + 128 · v` to the tile coordinate of accumulator `v` (the first MMA tile).
    pub frag: Layout,
    /// MMA tile repeat (`i + repeats · j`) to its tile-coordinate offset.
    pub rep: Layout,
    /// When predicated: block tile number to the (row, column) of its first element.
    pub ctiles: Option<Layout>,
    /// When predicated: tile coordinate to its (row, column) in the tile.
    pub ctile: Option<Layout>,
}

struct Side {
    /// `zipped_divide(X, (BX, BK))`.
    tiles: Layout,
    /// `cp.async` TV over `(BX, BK)`.
    copy_tv: Layout,
    /// `ldmatrix` source TV over `(BX, BK)` (the first MMA tile): each
    /// thread's row address is its value 0.
    frag: Layout,
    /// MMA tile repeats over `(BX, BK)`.
    rep: Layout,
    smem: AnyLayout,
    cost: [Vec<BankReport>; 2],
}

/// The `cp.async` TV layout of `threads` threads over a `(rows, bk)` tile:
/// 16-byte vectors along the contiguous mode (K when `k_major`, else the
/// rows), neighbouring threads along it too.
///
/// Pre: the threads' vectors tile the tile (else an `Unsupported` error).
/// Post: `(threads, (V, P))` to tile coordinates, a bijection.
pub(crate) fn copy_tv(threads: i64, rows: i64, bk: i64, elem: Elem, k_major: bool) -> Result<Layout> {
    let vec = 16 / elem.bytes();
    if k_major {
        let across = bk / vec; // threads along K
        tv_layout(&format!("({},{across}):({across},1)", threads / across), &format!("(1,{vec}):(0,1)"), (rows, bk))
    } else {
        let down = rows / vec; // threads along M (or N)
        if threads % down != 0 || bk % (threads / down) != 0 {
            return Err(Error::unsupported(
                OP,
                format!("{threads} threads of {vec}-element vectors do not tile ({rows},{bk})"),
            ));
        }
        tv_layout(&format!("({down},{}):(1,{down})", threads / down), &format!("({vec},1):(1,0)"), (rows, bk))
    }
}

/// Whether two layouts are the same function over the same domain size.
fn same_function(a: &Layout, b: &Layout) -> Result<bool> {
    let n = a.size()?.value();
    if n != b.size()?.value() {
        return Ok(false);
    }
    Ok(a.indices()?.zip(b.indices()?).all(|(x, y)| x == y))
}

/// The shared offsets `s(u + v)` of a per-thread part `u` and a
/// compile-time part `v` as `s(u) ^ s(v)`: so the kernel computes `s(u)` once
/// and each access is one XOR with a constant. This holds when `u` and `v`
/// fill disjoint bits of the tile coordinate and `s` is a swizzled layout
/// (an XOR of bits, linear over them); it is checked here for every pair.
///
/// Pre: `u + v` in `s`'s domain. Post: `Some(s(v))` for each `v` when the
/// split holds for every `(u, v)`, else `None`.
fn xor_split(s: &AnyLayout, us: &[i64], vs: &[i64]) -> Result<Option<Vec<i64>>> {
    let at = |x: i64| -> Result<i64> { Ok(s.eval_int(kute::Int::new_dynamic(x))?.value()) };
    let mut out = Vec::with_capacity(vs.len());
    for &v in vs {
        let sv = at(v)?;
        for &u in us {
            if at(u + v)? != at(u)? ^ sv {
                return Ok(None);
            }
        }
        out.push(sv);
    }
    Ok(Some(out))
}

/// `l(i)` for each `i` of `is`.
fn values_at(l: &Layout, is: impl Iterator<Item = i64>) -> Result<Vec<i64>> {
    is.map(|i| Ok(l.eval(i)?)).collect()
}

/// One operand's plan (its arguments are the operand's parts; a struct of
/// them would only be unpacked again). `ldsm` is the `ldmatrix` tiled copy
/// (`make_tiled_copy_A/B`): its source TV gives each thread's row address,
/// and its destination TV must be the MMA's (the registers come out in the
/// MMA's order).
#[allow(clippy::too_many_arguments)]
fn side(
    x: &Layout,
    rows: i64,
    bk: i64,
    mma_tv: &Layout,
    ldsm: (&Layout, &Layout),
    mma_tile: (i64, i64),
    elem: Elem,
    k_major: bool,
    reasoning: &mut Vec<String>,
) -> Result<Side> {
    if !same_function(ldsm.1, mma_tv)? {
        return Err(Error::unsupported(OP, format!("the ldmatrix copy gives {} where the MMA takes {mma_tv}", ldsm.1)));
    }
    let mma_tv = ldsm.0;
    let tiles = layout_of(&format!("zipped_divide({x}, ({rows},{bk}))"))?;
    let copy_tv = copy_tv(THREADS, rows, bk, elem, k_major)?;
    let zd = layout_of(&format!("zipped_divide(make_layout(({rows},{bk})), ({},{}))", mma_tile.0, mma_tile.1))?;
    let frag = layout_of(&format!("composition({}, {mma_tv})", zd.mode(0)?))?;
    let rep = zd.mode(1)?;
    let spec = SearchSpec {
        tile: (rows, bk),
        elem_bytes: elem.bytes(),
        major: if k_major { Major::Right } else { Major::Left },
        patterns: vec![
            ("cp.async".into(), Access::Tv(copy_tv.clone())),
            ("fragments".into(), Access::Tv(frag.clone())),
        ],
    };
    let r = search_swizzle(&spec)?;
    reasoning.extend(r.reasoning);
    let smem = r.best.layout;
    let cost =
        [block_bank_conflicts(&smem, elem.bytes(), &copy_tv)?, block_bank_conflicts(&smem, elem.bytes(), &frag)?];
    Ok(Side { tiles, copy_tv, frag, rep, smem, cost })
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
    pub fn new(name: &str, (m, n, k): (i64, i64, i64), elem: Elem, config: GemmConfig) -> Result<GemmKernel> {
        let GemmConfig { bm, bn, bk, stages, a_k_major, b_k_major, c_elem } = config;
        let ty = match elem {
            Elem::F16 => "f16",
            Elem::Bf16 => "bf16",
            Elem::F32 => return Err(Error::unsupported(OP, "f32 inputs: the tensor-core GEMM takes f16 or bf16")),
        };
        if bm < 32
            || bm % 32 != 0
            || bn < 16
            || bn % 16 != 0
            || bk < 32
            || bk % 32 != 0
            || 128 % (bk / 8) != 0
            || stages < 2
        {
            return Err(Error::unsupported(OP, format!("tile ({bm},{bn},{bk}) with {stages} stages")));
        }
        if m < 1 || n < 1 || k < 1 {
            return Err(Error::unsupported(OP, format!("({m},{n},{k}): M, N and K at least 1")));
        }
        if c_elem != Elem::F32 && c_elem != elem {
            return Err(Error::unsupported(OP, format!("a C of {c_elem} from {elem} inputs (f32 or {elem})")));
        }
        check_rows(OP, (m, n, k), (a_k_major, b_k_major))?;
        // Off the tile grid, every copy and store is guarded by a predicate
        // computed from identity layouts (CuTe's make_identity_tensor).
        let predicated = m % bm != 0 || n % bn != 0 || k % bk != 0;
        // dynamic shared memory: up to 227 KiB a block on Hopper (163 KiB on
        // an A100: the launch reports it there)
        let smem_bytes = stages * (bm + bn) * bk * 2;
        if smem_bytes > 227 * 1024 {
            return Err(Error::unsupported(OP, format!("{smem_bytes} bytes of shared memory (at most 227 KiB)")));
        }
        let atom = match elem {
            Elem::Bf16 => "SM80_16x8x16_F32BF16BF16F32_TN",
            _ => "SM80_16x8x16_F32F16F16F32_TN",
        };
        let mma = format!("make_tiled_mma({atom}{{}},(_2,_2,_1):(_1,_2,_0))");
        let tv_a = layout_of(&format!("get_layoutA_TV({mma})"))?;
        let tv_b = layout_of(&format!("get_layoutB_TV({mma})"))?;
        let tv_c = layout_of(&format!("get_layoutC_TV({mma})"))?;
        let vt = if elem == Elem::Bf16 { "bfloat16_t" } else { "half_t" };
        let ldsm = |which: &str, atom: &str| -> Result<(Layout, Layout)> {
            let copy = format!("make_tiled_copy_{which}(Copy_Atom<{atom},{vt}>{{}}, {mma})");
            Ok((layout_of(&format!("get_layoutS_TV({copy})"))?, layout_of(&format!("get_layoutD_TV({copy})"))?))
        };
        // K-major tiles are read with ldmatrix, M/N-major ones with ldmatrix.trans
        let ldsm_a = ldsm("A", if a_k_major { "SM75_U32x4_LDSM_N" } else { "SM75_U16x8_LDSM_T" })?;
        let ldsm_b = ldsm("B", if b_k_major { "SM75_U32x2_LDSM_N" } else { "SM75_U16x4_LDSM_T" })?;
        let a = operand_layout(m, k, a_k_major)?;
        let b = operand_layout(n, k, b_k_major)?;
        let c = layout_of(&format!("({m},{n}):({n},1)"))?;
        let mut reasoning = Vec::new();
        let sa = side(&a, bm, bk, &tv_a, (&ldsm_a.0, &ldsm_a.1), (32, 16), elem, a_k_major, &mut reasoning)?;
        let sb = side(&b, bn, bk, &tv_b, (&ldsm_b.0, &ldsm_b.1), (16, 16), elem, b_k_major, &mut reasoning)?;
        let zc = layout_of(&format!("zipped_divide({c}, ({bm},{bn}))"))?;
        let zt = layout_of(&format!("zipped_divide(make_layout(({bm},{bn})), (32,16))"))?;
        let frag_c = layout_of(&format!("composition({}, {tv_c})", zt.mode(0)?))?;
        let rep_c = zt.mode(1)?;

        let mut s = String::new();
        header(
            &mut s,
            &format!(
                "gemm C({m},{n}) {c_elem} = A({m},{k}) * B({n},{k})^T, {elem}, tile ({bm},{bn},{bk}), {stages} stages"
            ),
        );
        s.push_str(&format!("// shared A: {}\n// shared B: {}\n", sa.smem, sb.smem));
        // the coordinates (row, k) or (row, column) of what each thread touches
        let identity = |rows: i64, cols: i64, tr: i64, tc: i64| -> Result<Option<Layout>> {
            if !predicated {
                return Ok(None);
            }
            Ok(Some(layout_of(&format!("zipped_divide(make_identity_layout(({rows},{cols})), ({tr},{tc}))"))?))
        };
        // A part of an identity layout may name one coordinate only (CuTe's
        // sparse `128@0`); a trailing size-1 mode of strides `1@0, 1@1` makes
        // the emitted coordinate always have both components.
        let both = |l: Layout| -> Result<Layout> { layout_of(&format!("make_layout({l}, (_1,_1):(_1@0,_1@1))")) };
        let operand = |x: &Side, rows: i64, br: i64| -> Result<OperandPlan> {
            let id = identity(rows, k, br, bk)?;
            let (ctiles, ccopy) = match &id {
                Some(i) => (
                    Some(both(i.mode(1)?)?),
                    Some(both(layout_of(&format!("composition({}, {})", i.mode(0)?, x.copy_tv))?)?),
                ),
                None => (None, None),
            };
            Ok(OperandPlan {
                tiles: x.tiles.mode(1)?,
                gcopy: layout_of(&format!("composition({}, {})", x.tiles.mode(0)?, x.copy_tv))?,
                scopy: x.copy_tv.clone(),
                ldsm: x.frag.clone(),
                rep: x.rep.clone(),
                ctiles,
                ccopy,
            })
        };
        let (plan_a, plan_b) = (operand(&sa, m, bm)?, operand(&sb, n, bn)?);
        let ic = identity(m, n, bm, bn)?;
        let (ctiles, ctile) = match &ic {
            Some(i) => (Some(both(i.mode(1)?)?), Some(both(i.mode(0)?)?)),
            None => (None, None),
        };
        let plan_c = OutputPlan { tiles: zc.mode(1)?, tile: zc.mode(0)?, frag: frag_c, rep: rep_c, ctiles, ctile };
        for (l, f) in [
            (&plan_a.tiles, "a_tiles"),
            (&plan_b.tiles, "b_tiles"),
            (&plan_c.tiles, "c_tiles"),
            (&plan_a.gcopy, "a_gcopy"),
            (&plan_b.gcopy, "b_gcopy"),
            (&plan_a.scopy, "a_scopy"),
            (&plan_b.scopy, "b_scopy"),
            (&plan_a.ldsm, "a_frag"),
            (&plan_b.ldsm, "b_frag"),
            (&plan_a.rep, "a_rep"),
            (&plan_b.rep, "b_rep"),
            (&plan_c.frag, "c_frag"),
            (&plan_c.rep, "c_rep"),
            (&plan_c.tile, "c_tile"),
        ] {
            plain_fn(&mut s, l, &format!("{name}_{f}"))?;
        }
        layout_fn(&mut s, &sa.smem, &format!("{name}_sa"))?;
        layout_fn(&mut s, &sb.smem, &format!("{name}_sb"))?;
        for (l, f) in [
            (&plan_a.ctiles, "a_ctiles"),
            (&plan_a.ccopy, "a_ccopy"),
            (&plan_b.ctiles, "b_ctiles"),
            (&plan_b.ccopy, "b_ccopy"),
            (&plan_c.ctiles, "c_ctiles"),
            (&plan_c.ctile, "c_ctile"),
        ] {
            if let Some(l) = l {
                plain_fn(&mut s, l, &format!("{name}_{f}"))?;
            }
        }
        let vec = 16 / elem.bytes();
        let (pa, pb) = (bm * bk / (THREADS * vec), bn * bk / (THREADS * vec));
        let (mm, mn, mk) = (bm / 32, bn / 16, bk / 16);
        let (tm, tn, ktiles) = (ceil_div(m, bm), ceil_div(n, bn), ceil_div(k, bk));
        let tvv = THREADS * vec;
        // Per-thread parts computed once, each access one XOR (shared) or one
        // addition (global) with a constant: the split is checked at every
        // thread and pass (it holds for every tile the Pre admits).
        let mut prelude = String::new();
        // a C initializer list
        let list = |v: &[i64]| v.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", ");
        let unsplit =
            |x: &str, what: &str| Error::unsupported(OP, format!("{x}'s {what} offsets do not split per thread"));
        let mut split_copy = |x: &str, side: &Side, plan: &OperandPlan, passes: i64| -> Result<()> {
            let threads = 0..THREADS;
            let starts = || (0..passes).map(|p| tvv * p);
            let additive = |l: &Layout| -> Result<Option<(Vec<i64>, Vec<i64>)>> {
                let (us, vs) = (values_at(l, threads.clone())?, values_at(l, starts())?);
                for (p, &v) in vs.iter().enumerate() {
                    for (t, &u) in us.iter().enumerate() {
                        if l.eval(t as i64 + tvv * p as i64)? != u + v {
                            return Ok(None);
                        }
                    }
                }
                Ok(Some((us, vs)))
            };
            let (Some((su, sv)), Some((_, gv))) = (additive(&plan.scopy)?, additive(&plan.gcopy)?) else {
                return Err(unsplit(x, "cp.async"));
            };
            let sc = xor_split(&side.smem, &su, &sv)?.ok_or_else(|| unsplit(x, "cp.async"))?;
            prelude.push_str(&format!(
                "  const int s{x}_copy0 = (int){name}_s{x}({name}_{x}_scopy(t));\n  const long long g{x}_copy0 = {name}_{x}_gcopy(t);\n  const int s{x}_copy[] = {{{}}};\n  const long long g{x}_copy[] = {{{}}};\n",
                list(&sc),
                list(&gv)
            ));
            Ok(())
        };
        split_copy("a", &sa, &plan_a, pa)?;
        split_copy("b", &sb, &plan_b, pb)?;
        let copy = |x: &str, rows: i64, passes: i64, guarded: bool| -> String {
            let one = rows * bk;
            let store = format!("s{x} + stage * {one} + (s{x}_copy0 ^ s{x}_copy[p])");
            let load = format!("g{x} + g{x}_copy0 + g{x}_copy[p]");
            if guarded {
                let lim = if x == "a" { m } else { n };
                format!(
                    "#pragma unroll\n    for (int p = 0; p < {passes}; ++p) {{\n      const long long i = t + {tvv}LL * p;\n      const auto at = {name}_{x}_ccopy(i);\n      const bool ok = c{x}.c[0] + at.c[0] < {lim}LL && c{x}.c[1] + at.c[1] < {k}LL;\n      kute_cp_async16_zfill({store}, ok ? {load} : g{x}0, ok ? 16 : 0);\n    }}"
                )
            } else {
                format!(
                    "#pragma unroll\n    for (int p = 0; p < {passes}; ++p)\n      kute_cp_async16({store}, {load});"
                )
            }
        };
        // The ldmatrix row addresses: s(frag(t) + rep(r)) as s(frag(t)) ^ s(rep(r)).
        let mut ldsm_split = |x: &str, side: &Side, reps: i64| -> Result<()> {
            let us = values_at(&side.frag, 0..THREADS)?;
            let vs = values_at(&side.rep, 0..reps * mk)?;
            let c = xor_split(&side.smem, &us, &vs)?.ok_or_else(|| unsplit(x, "ldmatrix"))?;
            prelude.push_str(&format!(
                "  const int s{x}_frag0 = (int){name}_s{x}({name}_{x}_frag(t));\n  const int s{x}_frag[] = {{{}}};\n",
                list(&c)
            ));
            Ok(())
        };
        ldsm_split("a", &sa, mm)?;
        ldsm_split("b", &sb, mn)?;
        let fast_load = format!("{}\n{}", copy("a", bm, pa, false), copy("b", bn, pb, false));
        // Only the blocks and the k-tile that cross an edge take the guarded path.
        let load_body = if predicated {
            format!(
                "    if (interior && (kt + 1) * {bk}LL <= {k}LL) {{\n{fast_load}\n    }} else {{\n    const auto ca = {name}_a_ctiles(bm + {tm}LL * kt);\n    const auto cb = {name}_b_ctiles(bn + {tn}LL * kt);\n{}\n{}\n    }}",
                copy("a", bm, pa, true),
                copy("b", bn, pb, true)
            )
        } else {
            fast_load
        };
        // a 16-bit C's conversion
        let cvt = if elem == Elem::Bf16 { "bf16" } else { "f16" };
        let fast_store = format!(
            r#"#pragma unroll
  for (int i = 0; i < {mm}; ++i)
#pragma unroll
    for (int j = 0; j < {mn}; ++j)
#pragma unroll
      for (int r = 0; r < 2; ++r) {{
        const long long at = {name}_c_tile({name}_c_frag(t + {THREADS}LL * (2 * r)) + {name}_c_rep(i + {mm}LL * j));
        {pair}
      }}"#,
            pair = match c_elem {
                Elem::F32 => r#"asm volatile("st.global.v2.f32 [%0], {%1, %2};" :: "l"(gc + at), "f"(acc[i][j][2 * r]), "f"(acc[i][j][2 * r + 1]) : "memory");"#.to_string(),
                // two sums rounded into one 32-bit word, the lower column in the low half
                _ => format!(
                    r#"unsigned int h; asm("cvt.rn.{cvt}x2.f32 %0, %1, %2;" : "=r"(h) : "f"(acc[i][j][2 * r + 1]), "f"(acc[i][j][2 * r]));
        asm volatile("st.global.b32 [%0], %1;" :: "l"(gc + at), "r"(h) : "memory");"#
                ),
            }
        );
        let store_c = if predicated {
            let guarded = format!(
                r#"const auto cc = {name}_c_ctiles(bm + {tm}LL * bn);
#pragma unroll
  for (int i = 0; i < {mm}; ++i)
#pragma unroll
    for (int j = 0; j < {mn}; ++j)
#pragma unroll
      for (int r = 0; r < 2; ++r)
#pragma unroll
        for (int e = 0; e < 2; ++e) {{
          const long long x = {name}_c_frag(t + {THREADS}LL * (2 * r + e)) + {name}_c_rep(i + {mm}LL * j);
          const auto at = {name}_c_ctile(x);
          if (cc.c[0] + at.c[0] < {m}LL && cc.c[1] + at.c[1] < {n}LL) {one}
        }}"#,
                one = match c_elem {
                    Elem::F32 => format!("gc[{name}_c_tile(x)] = acc[i][j][2 * r + e];"),
                    _ => format!(
                        r#"{{ unsigned short h; asm("cvt.rn.{cvt}.f32 %0, %1;" : "=h"(h) : "f"(acc[i][j][2 * r + e])); gc[{name}_c_tile(x)] = h; }}"#
                    ),
                }
            );
            // the paired stores need 8-byte aligned rows
            if n % 2 == 0 {
                format!("if (interior) {{\n  {fast_store}\n  }} else {{\n  {guarded}\n  }}")
            } else {
                guarded
            }
        } else {
            fast_store
        };
        s.push_str(&format!(
            r#"__device__ __forceinline__ void kute_cp_async16(void* smem, const void* gmem) {{
  unsigned int s = (unsigned int)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(s), "l"(gmem) : "memory");
}}
__device__ __forceinline__ void kute_cp_async16_zfill(void* smem, const void* gmem, int bytes) {{
  unsigned int s = (unsigned int)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(s), "l"(gmem), "r"(bytes) : "memory");
}}
__device__ __forceinline__ void kute_ldsm_x4(unsigned int (&r)[4], const void* smem) {{
  unsigned int s = (unsigned int)__cvta_generic_to_shared(smem);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{%0,%1,%2,%3}}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(s));
}}
__device__ __forceinline__ void kute_ldsm_x2(unsigned int (&r)[2], const void* smem) {{
  unsigned int s = (unsigned int)__cvta_generic_to_shared(smem);
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {{%0,%1}}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(s));
}}
__device__ __forceinline__ void kute_ldsm_x4_trans(unsigned int (&r)[4], const void* smem) {{
  unsigned int s = (unsigned int)__cvta_generic_to_shared(smem);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {{%0,%1,%2,%3}}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(s));
}}
__device__ __forceinline__ void kute_ldsm_x2_trans(unsigned int (&r)[2], const void* smem) {{
  unsigned int s = (unsigned int)__cvta_generic_to_shared(smem);
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {{%0,%1}}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(s));
}}
__device__ __forceinline__ void kute_mma(float (&d)[4], const unsigned int (&a)[4], const unsigned int (&b)[2]) {{
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.{ty}.{ty}.f32 {{%0,%1,%2,%3}}, {{%4,%5,%6,%7}}, {{%8,%9}}, {{%0,%1,%2,%3}};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}}
extern "C" __global__ void __launch_bounds__({THREADS}) {name}(const unsigned short* __restrict__ A, const unsigned short* __restrict__ B, {c_ty}* __restrict__ C) {{
  extern __shared__ __align__(128) unsigned short smem[];
  unsigned short* sa = smem;
  unsigned short* sb = smem + {sa_all};
  const long long t = threadIdx.x;
  const long long bm = blockIdx.x, bn = blockIdx.y;
  const bool interior = (bm + 1) * {bm}LL <= {m}LL && (bn + 1) * {bn}LL <= {n}LL;
  (void)interior;
  float acc[{mm}][{mn}][4];
#pragma unroll
  for (int i = 0; i < {mm}; ++i)
#pragma unroll
    for (int j = 0; j < {mn}; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r) acc[i][j][r] = 0.f;
  const long long ktiles = {ktiles};
{prelude}  auto load = [&](long long kt, int stage) {{
    const unsigned short* ga = A + {name}_a_tiles(bm + {tm}LL * kt);
    const unsigned short* gb = B + {name}_b_tiles(bn + {tn}LL * kt);
    const unsigned short* ga0 = A;
    const unsigned short* gb0 = B;
    (void)ga0; (void)gb0;
{load_body}
  }};
#pragma unroll
  for (int s = 0; s < {stages} - 1; ++s) {{
    if (s < ktiles) load(s, s);
    asm volatile("cp.async.commit_group;" ::: "memory");
  }}
  // CuTe's sgemm_sm80 pipeline: the fragments of k-block kb + 1 are loaded
  // while k-block kb multiplies, across the k-tiles too; the next k-tile's
  // copies start at k-block 0 into the stage read before the last barrier.
  int rs = 0, ws = {stages} - 1;
  const unsigned short* sas = sa;
  const unsigned short* sbs = sb;
  unsigned int fa[2][{mm}][4], fb[2][{mn}][2];
  auto fragments = [&](int kn, int buf) {{
#pragma unroll
    for (int i = 0; i < {mm}; ++i) kute_ldsm_x4{ta}(fa[buf][i], sas + (sa_frag0 ^ sa_frag[i + {mm} * kn]));
#pragma unroll
    for (int j = 0; j < {mn}; ++j) kute_ldsm_x2{tb}(fb[buf][j], sbs + (sb_frag0 ^ sb_frag[j + {mn} * kn]));
  }};
  asm volatile("cp.async.wait_group {wait};" ::: "memory");
  __syncthreads();
  fragments(0, 0);
  for (long long kt = 0; kt < ktiles; ++kt) {{
#pragma unroll
    for (int kb = 0; kb < {mk}; ++kb) {{
      if (kb == {mk} - 1) {{
        sas = sa + rs * {sa_one};
        sbs = sb + rs * {sb_one};
        asm volatile("cp.async.wait_group {wait};" ::: "memory");
        __syncthreads();
      }}
      fragments((kb + 1) % {mk}, (kb + 1) % 2);
      if (kb == 0) {{
        const long long next = kt + {stages} - 1;
        if (next < ktiles) load(next, ws);
        asm volatile("cp.async.commit_group;" ::: "memory");
        ws = rs;
        rs = rs + 1 == {stages} ? 0 : rs + 1;
      }}
#pragma unroll
      for (int i = 0; i < {mm}; ++i)
#pragma unroll
        for (int j = 0; j < {mn}; ++j) kute_mma(acc[i][j], fa[kb % 2][i], fb[kb % 2][j]);
    }}
  }}
  {c_ty}* gc = C + {name}_c_tiles(bm + {tm}LL * bn);
  {store_c}
}}
"#,
            sa_all = stages * bm * bk,
            c_ty = if c_elem == Elem::F32 { "float" } else { "unsigned short" },
            sa_one = bm * bk,
            sb_one = bn * bk,
            wait = stages - 2,
            ta = if a_k_major { "" } else { "_trans" },
            tb = if b_k_major { "" } else { "_trans" },
        ));
        Ok(GemmKernel {
            name: name.to_string(),
            elem,
            mnk: (m, n, k),
            config,
            a,
            b,
            c,
            smem_a: sa.smem,
            smem_b: sb.smem,
            plan_a,
            plan_b,
            plan_c,
            cost_a: sa.cost,
            cost_b: sb.cost,
            reasoning,
            smem_bytes: smem_bytes as u32,
            source: s,
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
pub fn reference_source(name: &str, (m, n, k): (i64, i64, i64), elem: Elem, config: &GemmConfig) -> Result<String> {
    let cvt = match elem {
        Elem::F16 => "__half2float_bits",
        Elem::Bf16 => "__bf162float_bits",
        Elem::F32 => return Err(Error::unsupported(OP, "f32 inputs")),
    };
    Ok(format!(
        r#"// generated by kute-cuda: reference gemm ({m},{n},{k}), {elem}
__device__ __forceinline__ float __half2float_bits(unsigned short h) {{
  float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f;
}}
__device__ __forceinline__ float __bf162float_bits(unsigned short h) {{
  return __uint_as_float(((unsigned int)h) << 16);
}}
extern "C" __global__ void __launch_bounds__(256) {name}(const unsigned short* __restrict__ A, const unsigned short* __restrict__ B, float* __restrict__ C) {{
  const long long e = (long long)blockIdx.x * 256 + threadIdx.x;
  if (e >= {mn}LL) return;
  const long long i = e / {n}LL, j = e % {n}LL;
  float s = 0.f;
  for (long long l = 0; l < {k}LL; ++l) s += {cvt}(A[{ai}]) * {cvt}(B[{bj}]);
  C[e] = s;
}}
"#,
        mn = m * n,
        ai = if config.a_k_major { format!("i * {k}LL + l") } else { format!("l * {m}LL + i") },
        bj = if config.b_k_major { format!("j * {k}LL + l") } else { format!("l * {n}LL + j") },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xor_split_holds_only_where_every_pair_splits() {
        let sw: AnyLayout = kute::expr::eval("composition(Swizzle<2,3,3>{}, (_128,_32):(_32,_1))")
            .unwrap()
            .to_any_layout("test")
            .unwrap();
        let at = |x: i64| sw.eval_int(kute::Int::new_dynamic(x)).unwrap().value();
        // rows 0..32 at column 0 or 8, against repeats of 32 rows and 16 columns
        let us: Vec<i64> = (0..64).map(|i| i % 32 + 128 * (8 * (i / 32))).collect();
        let vs = [0, 32, 64, 96, 128 * 16, 32 + 128 * 16];
        assert_eq!(xor_split(&sw, &us, &vs).unwrap(), Some(vs.iter().map(|&v| at(v)).collect()));
        // a carry between the parts (row 1 + row 1) breaks the split
        assert_eq!(xor_split(&sw, &[1], &[1]).unwrap(), None);
    }

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
