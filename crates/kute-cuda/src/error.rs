//! Errors of planning, compiling and running kernels.

/// What went wrong, naming the step.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A layout operation of the plan failed (kute's error).
    #[error(transparent)]
    Layout(#[from] kute::Error),
    /// The operands cannot make this kernel (the message says why).
    #[error("{op}: {why}")]
    Unsupported {
        /// The kernel being planned.
        op: &'static str,
        /// The condition that fails.
        why: String,
    },
    /// NVRTC rejected the generated source (its log).
    #[error("NVRTC could not compile {name}: {log}")]
    Compile {
        /// The kernel.
        name: String,
        /// NVRTC's log.
        log: String,
    },
    /// The CUDA driver failed.
    #[error("CUDA driver: {0}")]
    Driver(#[from] cudarc::driver::DriverError),
    /// A kernel's output differs from the CPU reference.
    #[error("{kernel}: wrong result: {why}")]
    Wrong {
        /// The kernel.
        kernel: String,
        /// The first difference.
        why: String,
    },
}

impl Error {
    pub(crate) fn unsupported(op: &'static str, why: impl Into<String>) -> Error {
        Error::Unsupported { op, why: why.into() }
    }
}

/// `std::result::Result` with this crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
