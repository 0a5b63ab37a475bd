//! Tensor copy between any two layouts of the same size, as CuTe's
//! `copy(src, dst)` means it: element `c` of the source (its 1-D coordinate)
//! goes to element `c` of the destination.
//!
//! The plan, all in kute's algebra:
//! 1. `max_common_layout(src, dst)` gives the coordinates along which both
//!    layouts are contiguous; its size is the common vector.
//! 2. `zipped_divide(src, common)` and `zipped_divide(dst, common)` give
//!    `((common),(rest))`, mode 0 contiguous in both.
//! 3. Vectors are the widest power of two of at most 16 bytes (`V`
//!    elements) dividing the common size `v`; the *unit layouts*
//!    `(composition(mode 0, (v/V):V), rest)` give a vector's number to its
//!    first element's offset, consecutive numbers neighbouring vectors in
//!    memory. Both must keep every vector aligned (every stride of the unit
//!    layouts a multiple of `V`), else `V` is halved.
//! 4. Thread `t` of block `b` moves the units `b·T·I + k·T + t` for
//!    `k < I`: neighbouring threads move neighbouring units, so a warp's
//!    accesses are as contiguous as the layouts allow, and each thread has `I`
//!    loads in flight before its first store.
//!
//! The kernel evaluates the two unit layouts with kute's emitted functions
//! ([`kute::codegen::cuda`]).

use crate::source::{header, plain_fn, vector_struct, vector_type};
use crate::{layout_of, Elem, Error, Result};
use kute::Layout;
use std::fmt::Write;

/// Launch shape of a copy kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyConfig {
    /// Threads per block (a multiple of 32, at most 1024).
    pub threads: u32,
    /// Vectors each thread moves (`I`, 1 to 16).
    pub units_per_thread: u32,
}

impl Default for CopyConfig {
    fn default() -> CopyConfig {
        CopyConfig { threads: 256, units_per_thread: 4 }
    }
}

/// A planned copy kernel: its layouts and its CUDA source.
#[derive(Clone, Debug)]
pub struct CopyKernel {
    /// The kernel's name (a C identifier).
    pub name: String,
    /// The element type.
    pub elem: Elem,
    /// The source layout.
    pub src: Layout,
    /// The destination layout.
    pub dst: Layout,
    /// `max_common_layout(src, dst)`.
    pub common: Layout,
    /// Elements per vector access (`V`).
    pub vector_elems: i64,
    /// A vector's number to the source offset of its first element.
    pub src_units: Layout,
    /// A vector's number to the destination offset of its first element.
    pub dst_units: Layout,
    /// Number of vectors.
    pub units: i64,
    /// The launch shape.
    pub config: CopyConfig,
    /// The CUDA C++ source (no includes).
    pub source: String,
}

impl CopyKernel {
    /// Plans the copy of `src` into `dst` (see the [module docs](self)).
    ///
    /// Pre: `name` a C identifier; `src` and `dst` of the same size, with
    /// integer strides and non-negative offsets; `dst` injective (no two
    /// coordinates share an offset); `config` as documented (else
    /// an `Unsupported` error, or kute's error from the algebra).
    /// Post: `vector_elems * units == size(src)`; for every vector `u` and
    /// `e < vector_elems`, `src(e + V·u') = src_units(u) + e` where `u'` is
    /// the coordinate of `u` in the divided layout (and the same for `dst`).
    ///
    /// ```
    /// use kute_cuda::{copy::{CopyConfig, CopyKernel}, Elem};
    /// let src: kute::Layout = "(8,8):(8,1)".parse().unwrap();
    /// let dst: kute::Layout = "(8,8):(1,8)".parse().unwrap(); // a transpose: no common vector
    /// let k = CopyKernel::new("t8", &src, &dst, Elem::F16, CopyConfig::default()).unwrap();
    /// assert_eq!((k.vector_elems, k.units), (1, 64));
    /// ```
    pub fn new(name: &str, src: &Layout, dst: &Layout, elem: Elem, config: CopyConfig) -> Result<CopyKernel> {
        const OP: &str = "copy kernel";
        crate::source::check_threads(OP, config.threads)?;
        if !(1..=16).contains(&config.units_per_thread) {
            return Err(Error::unsupported(OP, format!("{} vectors per thread: 1 to 16", config.units_per_thread)));
        }
        let (n, m) = (src.size()?.value(), dst.size()?.value());
        if n != m {
            return Err(Error::unsupported(OP, format!("source {src} has {n} elements, destination {dst} {m}")));
        }
        if n < 1 {
            return Err(Error::unsupported(OP, "an empty copy"));
        }
        injective(dst)?;
        let common = kute::max_common_layout(src, dst)?;
        let v = common.size()?.value().max(1);
        // Both layouts divided by the common layout: mode 0 is contiguous in
        // both, so vectors numbered along it are neighbours in memory.
        let zs = layout_of(&format!("zipped_divide({src}, {common})"))?;
        let zd = layout_of(&format!("zipped_divide({dst}, {common})"))?;
        let mut vec = (16 / elem.bytes()).min(1 << v.trailing_zeros());
        let (src_units, dst_units) = loop {
            let units = |z: &Layout| -> Result<Layout> {
                let head = layout_of(&format!("composition({}, {}:{vec})", z.mode(0)?, v / vec))?;
                Ok(Layout::concat([&head, &z.mode(1)?])?)
            };
            let (us, ud) = (units(&zs)?, units(&zd)?);
            let aligned = |z: &Layout, u: &Layout| -> Result<bool> {
                let head = z.mode(0)?;
                let contiguous = (0..vec).all(|e| head.eval(e).ok() == Some(e));
                let strides_ok = u
                    .leaves()
                    .iter()
                    .all(|m| m.shape.value() == 1 || m.stride.as_int().is_some_and(|d| d.value().rem_euclid(vec) == 0));
                Ok(contiguous && strides_ok && u.eval(0)? >= 0)
            };
            if vec == 1 || (aligned(&zs, &us)? && aligned(&zd, &ud)?) {
                break (us, ud);
            }
            vec /= 2;
        };
        let units = n / vec;
        let source = copy_source(name, elem, src, dst, vec, &src_units, &dst_units, units, config)?;
        Ok(CopyKernel {
            name: name.to_string(),
            elem,
            src: src.clone(),
            dst: dst.clone(),
            common,
            vector_elems: vec,
            src_units,
            dst_units,
            units,
            config,
            source,
        })
    }

    /// Blocks to launch.
    ///
    /// Pre: none. Post: `ceil(units / (threads · units_per_thread))`.
    ///
    /// ```
    /// use kute_cuda::{copy::{CopyConfig, CopyKernel}, Elem};
    /// let l: kute::Layout = "(100,64):(64,1)".parse().unwrap();
    /// let k = CopyKernel::new("c", &l, &l, Elem::F32, CopyConfig::default()).unwrap();
    /// assert_eq!(k.units, 1600); // 6400 f32 in 16-byte vectors of 4
    /// assert_eq!(k.blocks(), 2); // ceil(1600 / (256 · 4))
    /// let one = CopyConfig { threads: 128, units_per_thread: 1 };
    /// assert_eq!(CopyKernel::new("c", &l, &l, Elem::F32, one).unwrap().blocks(), 13); // ceil(1600 / 128)
    /// ```
    pub fn blocks(&self) -> u32 {
        let per = i64::from(self.config.threads) * i64::from(self.config.units_per_thread);
        ((self.units + per - 1) / per) as u32
    }
}

/// The largest destination whose injectivity is checked element by element.
const MAX_CHECKED_COSIZE: i64 = 1 << 27;

/// Checks that no two coordinates of `dst` share an offset (else the copy
/// would race): the modes sorted by stride, each stride at least the span of
/// the smaller ones proves it; otherwise every offset is marked.
fn injective(dst: &Layout) -> Result<()> {
    const OP: &str = "copy kernel";
    let mut modes: Vec<(i64, i64)> = Vec::new();
    for m in dst.leaves() {
        let n = m.shape.value();
        let Some(d) = m.stride.as_int() else {
            return Err(Error::unsupported(OP, format!("{dst} has a stride that is not an integer")));
        };
        if n > 1 {
            modes.push((d.value().abs(), n));
        }
    }
    modes.sort_unstable();
    let mut span = 1i64;
    let mut proven = true;
    for &(d, n) in &modes {
        if d < span {
            proven = false;
            break;
        }
        span = d.saturating_mul(n - 1).saturating_add(span);
    }
    if proven {
        return Ok(());
    }
    let cosize = dst.cosize()?.value();
    if !(0..=MAX_CHECKED_COSIZE).contains(&cosize) || dst.indices()?.any(|o| o < 0) {
        return Err(Error::unsupported(OP, format!("cannot show that the destination {dst} is injective")));
    }
    let mut seen = vec![0u64; (cosize as usize).div_ceil(64)];
    for (c, o) in dst.indices()?.enumerate() {
        let (w, b) = (o as usize / 64, o % 64);
        if seen[w] >> b & 1 == 1 {
            return Err(Error::unsupported(
                OP,
                format!("the destination {dst} is not injective: coordinate {c} writes offset {o}, as an earlier one does (the copy would race)"),
            ));
        }
        seen[w] |= 1 << b;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn copy_source(
    name: &str,
    elem: Elem,
    src: &Layout,
    dst: &Layout,
    vec: i64,
    src_units: &Layout,
    dst_units: &Layout,
    units: i64,
    config: CopyConfig,
) -> Result<String> {
    let mut s = String::new();
    header(&mut s, &format!("copy {src} -> {dst}, {elem}, {vec}-element vectors"));
    s.push_str(&vector_struct(elem, vec));
    plain_fn(&mut s, src_units, &format!("{name}_src"))?;
    plain_fn(&mut s, dst_units, &format!("{name}_dst"))?;
    let (t, i, c, vt) = (config.threads, config.units_per_thread, elem.carrier(), vector_type(elem, vec));
    let _ = write!(
        s,
        r#"extern "C" __global__ void __launch_bounds__({t}) {name}(const {c}* __restrict__ src, {c}* __restrict__ dst) {{
  const long long u0 = (long long)blockIdx.x * {per}LL + threadIdx.x;
  {vt} r[{i}];
#pragma unroll
  for (int k = 0; k < {i}; ++k) {{
    const long long u = u0 + k * {t}LL;
    if (u < {units}LL) r[k] = *reinterpret_cast<const {vt}*>(src + {name}_src(u));
  }}
#pragma unroll
  for (int k = 0; k < {i}; ++k) {{
    const long long u = u0 + k * {t}LL;
    if (u < {units}LL) *reinterpret_cast<{vt}*>(dst + {name}_dst(u)) = r[k];
  }}
}}
"#,
        per = i64::from(t) * i64::from(i)
    );
    Ok(s)
}
