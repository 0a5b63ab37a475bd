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
//! vector element by element from shared memory and stores it.

use crate::source::{header, layout_fn, plain_fn, vector_struct, vector_type};
use crate::{layout_of, Elem, Error, Result};
use kute::analysis::{block_bank_conflicts, search_swizzle, Access, BankReport, SearchSpec};
use kute::{AnyLayout, Layout, Major};

const OP: &str = "transpose kernel";

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

/// `(T, (V, P))` to tile coordinates for threads arranged by `thr` and
/// values by `val`: CuTe's `make_tiled_copy(atom, thr, val)` for one pass
/// ([`kute::atom::make_layout_tv`]: its TV layout and pass tile), repeated
/// over the tile with `zipped_divide`.
pub(crate) fn tv_layout(thr: &str, val: &str, tile: (i64, i64)) -> Result<Layout> {
    let (pass, one) = kute::atom::make_layout_tv(&layout_of(thr)?, &layout_of(val)?)?;
    let zd = layout_of(&format!("zipped_divide(make_layout(({},{})), {pass})", tile.0, tile.1))?;
    let a = layout_of(&format!("composition({}, {one})", zd.mode(0)?))?;
    Ok(Layout::concat([&a.mode(0)?, &Layout::concat([&a.mode(1)?, &zd.mode(1)?])?])?)
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
        crate::source::check_threads(OP, config.threads)?;
        let (mut src, mut dst) = (src.clone(), dst.clone());
        for l in [&src, &dst] {
            if l.rank() != 2 {
                return Err(Error::unsupported(OP, format!("{l} is not rank 2")));
            }
        }
        let unit = |l: &Layout, k: usize| -> Result<bool> { Ok(l.mode(k)?.eval(1)? == 1) };
        if unit(&src, 0)? && unit(&dst, 1)? {
            let swap = |l: &Layout| -> Result<Layout> { Ok(Layout::concat([&l.mode(1)?, &l.mode(0)?])?) };
            (src, dst) = (swap(&src)?, swap(&dst)?);
        }
        if !(unit(&src, 1)? && unit(&dst, 0)?) {
            return Err(Error::unsupported(
                OP,
                format!(
                    "{src} -> {dst}: the source must be contiguous along one mode and the destination along the other"
                ),
            ));
        }
        let (m, n) = (src.mode(0)?.size()?.value(), src.mode(1)?.size()?.value());
        if (dst.mode(0)?.size()?.value(), dst.mode(1)?.size()?.value()) != (m, n) {
            return Err(Error::unsupported(OP, format!("{src} and {dst} have different mode sizes")));
        }
        let tiles: Vec<(i64, i64)> = match config.tile {
            Some(t) => vec![t],
            None => TILES.to_vec(),
        };
        let mut best: Option<(i64, TransposeKernel)> = None;
        let mut why = Vec::new();
        for tile in tiles {
            match plan(name, &src, &dst, elem, config, tile, (m, n)) {
                Ok(k) => {
                    let ex = k.cost.store_conflicts() + k.cost.load_conflicts();
                    if best.as_ref().is_none_or(|(b, _)| ex < *b) {
                        best = Some((ex, k));
                    }
                    if ex == 0 {
                        break;
                    }
                }
                Err(e) => why.push(format!("tile {tile:?}: {e}")),
            }
        }
        best.map(|(_, k)| k).ok_or_else(|| Error::unsupported(OP, why.join("; ")))
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

/// One 16-byte global store of four words. The gathered vector is built
/// word by word, and a plain store of it may be split into four.
const ST_GLOBAL_V4: &str = r#"__device__ __forceinline__ void kute_st_global_v4(void* p, const unsigned int (&w)[4]) {
  asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" :: "l"(p), "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]) : "memory");
}
"#;

/// The body that fills word `k` of the destination vector from shared
/// memory: one element per word for 4-byte elements, two (the lower first)
/// for 2-byte ones.
fn gather(name: &str, elem: Elem, t: i64, tv: i64) -> String {
    let at = |e: &str| format!("smem[{name}_smem({name}_tv_write(t + {t}LL * ({e}) + {tv}LL * p))]");
    match elem.bytes() {
        4 => format!("      w[k] = {};", at("k")),
        _ => format!("      w[k] = (unsigned int){} | ((unsigned int){} << 16);", at("2 * k"), at("2 * k + 1")),
    }
}

fn plan(
    name: &str,
    src: &Layout,
    dst: &Layout,
    elem: Elem,
    config: TransposeConfig,
    tile: (i64, i64),
    (m, n): (i64, i64),
) -> Result<TransposeKernel> {
    let (tm, tn) = tile;
    let t = i64::from(config.threads);
    let vec = 16 / elem.bytes();
    if tm < 1 || tn < 1 || m % tm != 0 || n % tn != 0 {
        return Err(Error::unsupported(OP, format!("the tile ({tm},{tn}) does not divide ({m},{n})")));
    }
    if tn % vec != 0 || tm % vec != 0 || (t * vec) % tn != 0 || (t * vec) % tm != 0 {
        return Err(Error::unsupported(
            OP,
            format!("{t} threads of {vec}-element vectors do not cover rows of {tn} and columns of {tm}"),
        ));
    }
    let (rows, cols) = (t * vec / tn, t * vec / tm);
    if rows > tm || cols > tn || tm % rows != 0 || tn % cols != 0 {
        return Err(Error::unsupported(OP, format!("{t} threads do not fit the tile ({tm},{tn})")));
    }
    // Threads along the source's contiguous mode (1), values too; then along mode 0 for the destination.
    let tv_read = tv_layout(&format!("({rows},{}):({},1)", tn / vec, tn / vec), &format!("(1,{vec}):(0,1)"), tile)?;
    let tv_write = tv_layout(&format!("({},{cols}):(1,{})", tm / vec, tm / vec), &format!("({vec},1):(1,0)"), tile)?;
    let passes = tm * tn / (t * vec);

    let (smem, reasoning) = if config.swizzle {
        let spec = SearchSpec {
            tile,
            elem_bytes: elem.bytes(),
            major: Major::Right,
            patterns: vec![
                ("store".into(), Access::Tv(tv_read.clone())),
                ("load".into(), Access::Tv(tv_write.clone())),
            ],
        };
        let r = search_swizzle(&spec)?;
        (r.best.layout, r.reasoning)
    } else {
        (kute::expr::eval(&format!("({tm},{tn}):({tn},1)"))?.to_any_layout("smem")?, Vec::new())
    };
    let cost = SharedCost {
        stores: block_bank_conflicts(&smem, elem.bytes(), &tv_read)?,
        loads: block_bank_conflicts(&smem, elem.bytes(), &tv_write)?,
    };

    let zs = layout_of(&format!("zipped_divide({src}, ({tm},{tn}))"))?;
    let zd = layout_of(&format!("zipped_divide({dst}, ({tm},{tn}))"))?;
    let src_read = layout_of(&format!("composition({}, {tv_read})", zs.mode(0)?))?;
    let dst_write = layout_of(&format!("composition({}, {tv_write})", zd.mode(0)?))?;
    let (src_tiles, dst_tiles) = (zs.mode(1)?, zd.mode(1)?);
    let blocks = src_tiles.size()?.value();

    // Every vector access contiguous and aligned; the smem offsets inside the tile.
    let starts = || (0..passes).flat_map(move |p| (0..t).map(move |th| th + t * vec * p));
    let smem_at = |c: i64| -> Result<i64> { Ok(smem.eval_int(kute::Int::new_dynamic(c))?.value()) };
    let checks: [(&str, bool); 3] = [
        ("source reads", crate::source::is_vector(|i| Ok(src_read.eval(i)?), starts(), t, vec)?),
        ("destination writes", crate::source::is_vector(|i| Ok(dst_write.eval(i)?), starts(), t, vec)?),
        ("shared stores", crate::source::is_vector(|i| smem_at(tv_read.eval(i)?), starts(), t, vec)?),
    ];
    for (what, ok) in checks {
        if !ok {
            return Err(Error::unsupported(
                OP,
                format!("the {what} of tile ({tm},{tn}) are not aligned 16-byte vectors"),
            ));
        }
    }
    for i in 0..tm * tn {
        let o = smem_at(i)?;
        if !(0..tm * tn).contains(&o) {
            return Err(Error::unsupported(OP, format!("{smem} leaves the shared tile at {i}")));
        }
    }
    for (c, b) in [(src_tiles.eval(0)?, "source"), (dst_tiles.eval(0)?, "destination")] {
        if c < 0 {
            return Err(Error::unsupported(OP, format!("a negative {b} offset")));
        }
    }

    let mut s = String::new();
    header(&mut s, &format!("transpose-copy {src} -> {dst}, {elem}, tile ({tm},{tn}), shared {smem}"));
    s.push_str(&vector_struct(elem, vec));
    plain_fn(&mut s, &src_tiles, &format!("{name}_src_tiles"))?;
    plain_fn(&mut s, &dst_tiles, &format!("{name}_dst_tiles"))?;
    plain_fn(&mut s, &src_read, &format!("{name}_src_read"))?;
    plain_fn(&mut s, &dst_write, &format!("{name}_dst_write"))?;
    plain_fn(&mut s, &tv_read, &format!("{name}_tv_read"))?;
    plain_fn(&mut s, &tv_write, &format!("{name}_tv_write"))?;
    layout_fn(&mut s, &smem, &format!("{name}_smem"))?;
    let (c, vt, tv) = (elem.carrier(), vector_type(elem, vec), t * vec);
    s.push_str(ST_GLOBAL_V4);
    let body = |shared_only: bool| -> String {
        let (kname, load, store) = if shared_only {
            (
                format!("{name}_shared_only"),
                format!("{{ {vt} x; for (int k = 0; k < {vec}; ++k) x.x[k] = ({c})(t * 7 + p * 3 + k); r[p] = x; }}"),
                // never true (the values are small), but the compiler cannot
                // know, and every word is needed to decide
                format!(
                    "if ((w[0] ^ w[1] ^ w[2] ^ w[3]) == 0xffffffffu) kute_st_global_v4(d + {name}_dst_write(t + {tv}LL * p), w);"
                ),
            )
        } else {
            (
                name.to_string(),
                format!("r[p] = *reinterpret_cast<const {vt}*>(s + {name}_src_read(t + {tv}LL * p));"),
                format!("kute_st_global_v4(d + {name}_dst_write(t + {tv}LL * p), w);"),
            )
        };
        format!(
            r#"extern "C" __global__ void __launch_bounds__({t}) {kname}(const {c}* __restrict__ src, {c}* __restrict__ dst) {{
  __shared__ {vt} smem_v[{smem_vecs}];
  {c}* smem = reinterpret_cast<{c}*>(smem_v);
  const long long b = blockIdx.x;
  const long long t = threadIdx.x;
  const {c}* s = src + {name}_src_tiles(b);
  {c}* d = dst + {name}_dst_tiles(b);
  {vt} r[{passes}];
#pragma unroll
  for (int p = 0; p < {passes}; ++p) {load}
#pragma unroll
  for (int p = 0; p < {passes}; ++p) *reinterpret_cast<{vt}*>(smem + {name}_smem({name}_tv_read(t + {tv}LL * p))) = r[p];
  __syncthreads();
#pragma unroll
  for (int p = 0; p < {passes}; ++p) {{
    unsigned int w[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {{
{gather}
    }}
    {store}
  }}
}}
"#,
            smem_vecs = tm * tn / vec,
            gather = gather(name, elem, t, tv)
        )
    };
    let shared_only_source = format!("{s}{}", body(true));
    s.push_str(&body(false));
    Ok(TransposeKernel {
        name: name.to_string(),
        elem,
        src: src.clone(),
        dst: dst.clone(),
        tile,
        threads: config.threads,
        vector_elems: vec,
        passes,
        tv_read,
        tv_write,
        smem,
        reasoning,
        src_read,
        dst_write,
        src_tiles,
        dst_tiles,
        blocks,
        cost,
        source: s,
        shared_only_source,
    })
}
