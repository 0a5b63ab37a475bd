//! CUDA kernels built from kute's layouts, compiled at run time with NVRTC
//! and run through the CUDA driver API (the `cudarc` crate, loading the CUDA
//! libraries when first used, so this crate builds on machines without CUDA).
//!
//! The data path: a kernel family's configuration ([`copy::CopyConfig`],
//! [`transpose::TransposeConfig`], [`gemm::GemmConfig`] for the SM80
//! `mma.sync` GEMM, [`gemm_sm90::Sm90Config`] for the SM90 `wgmma` GEMMs with
//! `cp.async`, TMA, or warp-specialized and persistent) → its *plan*, every
//! index a layout derived with kute's typed algebra (the crate-private
//! `plan` layer: no CUDA text) → CUDA C++ source written from the plan (the
//! `emit` layer: no layout algebra; the layouts become functions by
//! [`kute::codegen::cuda`], the PTX wrappers come from one device header
//! each, pasted in, so the source has no includes) → PTX
//! ([`gpu::compile_ptx`]) → a launch ([`gpu::Gpu`]). The public kernels
//! ([`copy::CopyKernel`], [`transpose::TransposeKernel`],
//! [`gemm::GemmKernel`], [`gemm_sm90::Sm90Gemm`]) join the two: each
//! constructor plans, emits, and keeps both.
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

pub mod attention;
pub mod cache;
pub mod copy;
pub mod elem;
mod emit;
pub mod error;
pub mod gemm;
pub mod gemm_sm90;
pub mod gpu;
pub mod library;
mod plan;
pub mod reference;
pub mod transpose;
pub mod tune;

pub use elem::Elem;
pub use error::{Error, Result};
