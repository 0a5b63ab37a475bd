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
//! ([`kute::codegen::cuda`]). The plan is `plan::copy`, the text
//! `emit::copy`; [`CopyKernel::new`] joins them.

use crate::{emit, plan, Elem, Result};
use kute::Layout;

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
        let p = plan::copy::plan(src, dst, elem, config)?;
        let source = emit::copy::source(name, elem, (src, dst), &p, config)?;
        let plan::copy::CopyPlan { common, vector_elems, src_units, dst_units, units } = p;
        Ok(CopyKernel {
            name: name.to_string(),
            elem,
            src: src.clone(),
            dst: dst.clone(),
            common,
            vector_elems,
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
