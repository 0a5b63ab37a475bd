//! The plan of a copy between two layouts of the same size (see
//! [`crate::copy`] for the steps).

use super::check_threads;
use crate::copy::CopyConfig;
use crate::{Elem, Error, Result};
use kute::Layout;

const OP: &str = "copy kernel";

/// A copy's layouts: the vectors each thread moves and where they lie.
pub(crate) struct CopyPlan {
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
}

/// Plans the copy of `src` into `dst`; the Pre and Post of
/// [`crate::copy::CopyKernel::new`].
pub(crate) fn plan(src: &Layout, dst: &Layout, elem: Elem, config: CopyConfig) -> Result<CopyPlan> {
    check_threads(OP, config.threads)?;
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
    let zs = kute::zipped_divide(src, &common)?;
    let zd = kute::zipped_divide(dst, &common)?;
    let mut vec = (16 / elem.bytes()).min(1 << v.trailing_zeros());
    let (src_units, dst_units) = loop {
        let units = |z: &Layout| -> Result<Layout> {
            let head = kute::composition(&z.mode(0)?, &Layout::new(v / vec, vec)?)?;
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
    Ok(CopyPlan { common, vector_elems: vec, src_units, dst_units, units: n / vec })
}

/// The largest destination whose injectivity is checked element by element.
const MAX_CHECKED_COSIZE: i64 = 1 << 27;

/// Checks that no two coordinates of `dst` share an offset (else the copy
/// would race): the modes sorted by stride, each stride at least the span of
/// the smaller ones proves it; otherwise every offset is marked.
fn injective(dst: &Layout) -> Result<()> {
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
