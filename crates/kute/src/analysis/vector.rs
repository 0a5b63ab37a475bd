//! The widest vector each thread can use.

use super::bank::warp_vector;
use super::{elem_log2, thread_offsets, tile_extents, Access, Dir};
use crate::composed::{ops, AnyLayout};
use crate::error::Result;
use crate::int::Int;
use crate::layout::Layout;
use std::fmt;

/// The vector width of an access (see [`vector_width`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VectorReport {
    /// CuTe's `max_common_vector(smem o values, V:1)`: how many of thread 0's
    /// leading values are consecutive in memory (`None` where CuTe's algebra
    /// rejects the composition; the message says why).
    pub cute_common: std::result::Result<i64, String>,
    /// The width CuTe's common vector allows: the largest power of two that is
    /// at most `cute_common`, divides `V` and is at most 16 bytes (1 when
    /// `cute_common` is unknown).
    pub elems: i64,
    /// `elems * elem_bytes`.
    pub bytes: i64,
    /// The width the bank model uses: checked on every active thread,
    /// alignment included (at most `elems` where `cute_common` is known, unless
    /// CuTe's answer is cut by a swizzle's `2^M` that the access never crosses).
    pub warp_elems: i64,
    /// `warp_elems * elem_bytes`.
    pub warp_bytes: i64,
    /// Values per thread.
    pub values: i64,
}

impl fmt::Display for VectorReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.cute_common {
            Ok(c) => writeln!(
                f,
                "max_common_vector: {} of thread 0's {}",
                super::counted(*c, "element"),
                super::counted(self.values, "value")
            )?,
            Err(e) => writeln!(f, "max_common_vector: not defined ({e})")?,
        }
        writeln!(f, "vector:            {} bytes ({})", self.bytes, super::counted(self.elems, "element"))?;
        let warp = super::counted(self.warp_elems, "element");
        writeln!(f, "warp-wide:         {} bytes ({warp}), every thread aligned", self.warp_bytes)
    }
}

/// The widest aligned vector (at most 16 bytes) a thread can use to access
/// its values.
///
/// Pre: as [`bank_conflicts`](super::bank_conflicts). Post: `elems` and
/// `warp_elems` are powers of two dividing `values`, at most `16 /
/// elem_bytes`.
///
/// ```
/// use kute::analysis::{vector_width, Access};
/// let sw = kute::expr::eval("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)").unwrap().to_any_layout("s").unwrap();
/// let r = vector_width(&sw, 2, &Access::parse("row:32").unwrap()).unwrap();
/// assert_eq!((r.cute_common.clone().unwrap(), r.elems, r.bytes, r.warp_elems), (8, 8, 16, 8));
/// ```
pub fn vector_width(smem: &AnyLayout, elem_bytes: i64, access: &Access) -> Result<VectorReport> {
    crate::sym::refuse("vector_width", || smem.has_symbols())?;
    elem_log2(elem_bytes, "analysis")?;
    let (threads, values) = thread_offsets(smem, elem_bytes, access)?;
    let warp_elems = warp_vector(&threads, values, elem_bytes);
    // thread 0's values as a layout into the tile
    let vl = match access {
        Access::Tv(tv) if tv.rank() == 2 => tv.mode(1)?,
        Access::Tv(_) => Layout::unit(),
        Access::Pattern(p) => {
            let (rows, _) = tile_extents(smem)?;
            let stride = if p.values == Dir::Row { rows } else { 1 };
            Layout::leaf(Int::new_static(values), Int::new_static(stride))
        }
    };
    let cute_common = (|| -> Result<i64> {
        let c = ops::composition(smem, &AnyLayout::Layout(vl))?;
        let id = AnyLayout::Layout(Layout::leaf(Int::new_static(values), Int::ONE));
        Ok(ops::max_common_vector(&c, &id)?.value())
    })()
    .map_err(|e| e.to_string());
    let mut elems = 1;
    if let Ok(c) = cute_common {
        let mut w = 16 / elem_bytes;
        while w > 1 && !(w <= c && values % w == 0) {
            w /= 2;
        }
        elems = w;
    }
    Ok(VectorReport {
        cute_common,
        elems,
        bytes: elems * elem_bytes,
        warp_elems,
        warp_bytes: warp_elems * elem_bytes,
        values,
    })
}
