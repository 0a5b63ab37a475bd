//! One thread of a tiled MMA or copy as a value (`get_slice(X, t)`).

use crate::atom::{TiledCopy, TiledMma};

/// One thread of a tiled MMA or copy (`get_slice(X, t)`), CuTe's `ThrMMA` /
/// `ThrCopy`.
// (boxed inside `Value`: the variants' sizes do not matter there)
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThrSlice {
    /// Thread `t` of a tiled MMA.
    Mma(TiledMma, i64),
    /// Thread `t` of a tiled copy.
    Copy(TiledCopy, i64),
}

impl std::fmt::Display for ThrSlice {
    /// CuTe's `print(ThrMMA)` / `print(ThrCopy)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ThrSlice::Mma(m, t) => {
                let c = m.get_slice(*t).map_err(|_| std::fmt::Error)?.thr_vmnk();
                writeln!(f, "ThrMMA")?;
                writeln!(f, "  Thr VMNK: ({},{},{},{})", c[0], c[1], c[2], c[3])?;
                write!(f, "{m}")
            }
            ThrSlice::Copy(c, t) => {
                writeln!(f, "ThrCopy")?;
                writeln!(f, "  ThrIdx: {t}")?;
                write!(f, "{c}")
            }
        }
    }
}
