//! Compiled kernels kept for reuse: in memory for the life of a
//! [`Gpu`](crate::gpu::Gpu) (the module, every kernel of a source), and on
//! disk across processes, keyed by the SHA-256 of the source, the
//! architecture, NVRTC's version and this crate's version (a key that
//! differs compiles again: nothing stale is loaded).
//!
//! The disk cache holds PTX (what NVRTC makes); the driver keeps its own
//! cache of the machine code it makes from PTX. Its folder is
//! `$KUTE_CUDA_CACHE`, else `$XDG_CACHE_HOME/kute-cuda`, else
//! `$HOME/.cache/kute-cuda`; `KUTE_CUDA_CACHE=off` turns it off. A cache
//! that cannot be read or written is skipped (the kernel is compiled).

use sha2::{Digest, Sha256};
use std::path::PathBuf;

/// Where a kernel came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// This [`Gpu`](crate::gpu::Gpu)'s memory: already loaded.
    Memory,
    /// The disk cache: PTX compiled by an earlier process, loaded.
    Disk,
    /// Compiled now with NVRTC (and stored on disk).
    Compiled,
}

/// The cache key of a kernel: hex SHA-256 of what decides its PTX.
///
/// Pre: none. Post: 64 hex digits; equal keys for equal inputs.
pub(crate) fn key(source: &str, arch: &str, nvrtc: (i32, i32)) -> String {
    let mut h = Sha256::new();
    for part in [env!("CARGO_PKG_VERSION"), arch, &format!("nvrtc {}.{}", nvrtc.0, nvrtc.1), source] {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The disk cache's folder, or `None` where it is turned off or no home is known.
pub(crate) fn folder() -> Option<PathBuf> {
    match std::env::var_os("KUTE_CUDA_CACHE") {
        Some(v) if v == "off" => None,
        Some(v) if !v.is_empty() => Some(PathBuf::from(v)),
        _ => std::env::var_os("XDG_CACHE_HOME")
            .filter(|v| !v.is_empty())
            .map(|x| PathBuf::from(x).join("kute-cuda"))
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache").join("kute-cuda"))),
    }
}

/// The PTX stored under `key`, if any.
pub(crate) fn read(key: &str) -> Option<String> {
    std::fs::read_to_string(folder()?.join(format!("{key}.ptx"))).ok()
}

/// Stores `ptx` under `key` (written to a temporary file and renamed, so a
/// reader never sees half a file); a failure is ignored.
pub(crate) fn write(key: &str, ptx: &str) {
    let Some(dir) = folder() else { return };
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    let tmp = dir.join(format!("{key}.{}.tmp", std::process::id()));
    if std::fs::write(&tmp, ptx).is_ok() && std::fs::rename(&tmp, dir.join(format!("{key}.ptx"))).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every input of the key changes it.
    #[test]
    fn the_key_covers_every_input() {
        let base = key("src", "sm_90a", (13, 0));
        assert_eq!(base.len(), 64);
        assert_eq!(base, key("src", "sm_90a", (13, 0)));
        for other in [
            key("src ", "sm_90a", (13, 0)),
            key("src", "sm_90", (13, 0)),
            key("src", "sm_90a", (13, 1)),
            // the parts are length-prefixed: moving a boundary changes the key
            key("sm_90asrc", "", (13, 0)),
        ] {
            assert_ne!(base, other);
        }
    }
}
