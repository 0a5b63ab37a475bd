//! CUDA kernels built from kute's layouts, compiled at run time with NVRTC
//! and run through the CUDA driver API (the `cudarc` crate, loading the CUDA
//! libraries when first used, so this crate builds on machines without CUDA).
//!
//! The data path: layouts → a kernel *plan* ([`copy::CopyKernel`],
//! [`transpose::TransposeKernel`], the tensor-core GEMMs
//! [`gemm::GemmKernel`] (SM80 `mma.sync`) and [`gemm_sm90::Sm90Gemm`]
//! (SM90 `wgmma` with `cp.async`, TMA, or warp-specialized and persistent))
//! whose every index is a layout derived with kute's algebra
//! and emitted by [`kute::codegen::cuda`] → CUDA C++ source (no includes) →
//! PTX ([`gpu::compile_ptx`]) → a launch ([`gpu::Gpu`]).
//! Planning needs no GPU and no CUDA library; compiling needs NVRTC; running
//! needs a GPU.
//!
//! ```
//! use kute_cuda::{copy::{CopyConfig, CopyKernel}, Elem};
//! let src: kute::Layout = "(64,64):(64,1)".parse().unwrap();
//! let k = CopyKernel::new("copy64", &src, &src, Elem::F32, CopyConfig::default()).unwrap();
//! assert_eq!(k.vector_elems, 4); // 16-byte vectors
//! assert!(k.source.contains("extern \"C\" __global__"));
//! ```

pub mod copy;
pub mod elem;
pub mod error;
pub mod gemm;
pub mod gemm_sm90;
pub mod gpu;
pub mod reference;
pub mod source;
pub mod transpose;

pub use elem::Elem;
pub use error::{Error, Result};

/// Evaluates a kute expression that must give a plain layout.
pub(crate) fn layout_of(expr: &str) -> Result<kute::Layout> {
    Ok(kute::expr::eval(expr)?.to_layout("kernel plan")?)
}
