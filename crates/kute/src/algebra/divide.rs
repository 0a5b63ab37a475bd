//! The divide family: `logical_divide` and its regroupings `zipped_divide`,
//! `tiled_divide`, `flat_divide`; also `tile_unzip`.
//!
//! `logical_divide` is checked like [`composition`](crate::composition): a
//! result that is not the true composite is an error. The regroupings
//! (`zipped`/`tiled`/`flat_divide`) return CuTe's answer as it is, since that is
//! what CuTe's reference answers for them pin down (see
//! [`doc::differences`](crate::doc::differences)); check a tiler with
//! `logical_divide` first when in doubt.

use super::coalesce::coalesce;
use super::complement::complement;
use super::composition::compose_checked;
use super::tiler::Tiler;
use crate::error::{Error, Result};
use crate::layout::modes::zip2_by;
use crate::layout::Layout;
use smallvec::SmallVec;

/// CuTe `logical_divide(A, B)` for a layout `B`:
/// `A ∘ (B, complement(B, shape(coalesce(A))))`, a rank-2 `(tile, rest)` layout.
/// A tile that does not divide `A` rounds the rest mode up (the domain grows),
/// exactly as CuTe.
///
/// Pre: those of [`complement`] and [`composition`](crate::composition).
///
/// ```
/// use kute::Layout;
/// let a: Layout = "24:2".parse().unwrap();
/// let b: Layout = "4:2".parse().unwrap();
/// assert_eq!(kute::logical_divide(&a, &b.into()).unwrap().to_string(), "(4,(2,3)):(4,(2,16))");
/// ```
pub fn logical_divide(a: &Layout, t: &Tiler) -> Result<Layout> {
    divide_impl(a, t).map_err(|e| e.in_op("logical_divide"))
}

fn divide_layout(a: &Layout, b: &Layout, verify: bool) -> Result<Layout> {
    let cot = coalesce(a)?.shape();
    let rest = complement(b, &cot)?;
    compose_checked(a, &Layout::concat_unchecked([b, &rest]), verify)
}

fn divide_impl(a: &Layout, t: &Tiler) -> Result<Layout> {
    by_mode(a, t, "logical_divide", &|a, b| divide_layout(a, b, true))
}

/// The divide under the regroupings: CuTe's answer as is (see the module docs).
fn divide_unchecked(a: &Layout, t: &Tiler) -> Result<Layout> {
    by_mode(a, t, "logical_divide", &|a, b| divide_layout(a, b, false))
}

/// Apply `f` by mode along a tiler (CuTe's `transform_layout(A, tiler, f)`):
/// extra modes of `A` are kept.
pub(crate) fn by_mode(
    a: &Layout,
    t: &Tiler,
    op: &'static str,
    f: &dyn Fn(&Layout, &Layout) -> Result<Layout>,
) -> Result<Layout> {
    match t {
        Tiler::Layout(b) => f(a, b),
        Tiler::Int(n) => f(a, &Tiler::int_layout(*n)),
        Tiler::Underscore => Ok(a.clone()),
        Tiler::Tuple(ts) => {
            if ts.len() > a.rank() {
                return Err(Error::mismatch(
                    op,
                    format!(
                        "too many modes in the tiler: {t} has {} but the layout {a} has rank {}",
                        ts.len(),
                        a.rank()
                    ),
                ));
            }
            let mut parts: SmallVec<[Layout; 4]> = SmallVec::new();
            for (i, m) in a.modes().enumerate() {
                match ts.get(i) {
                    Some(ti) => parts.push(by_mode(&m, ti, op, f)?),
                    None => parts.push(m),
                }
            }
            Ok(Layout::concat_unchecked(parts.iter()))
        }
    }
}

/// CuTe `tile_unzip(L, tiler)`: at each terminal of the tiler, `L` has a rank-2
/// mode `(tile, rest)`; gather the tiles into mode 0 and the rests (then `L`'s
/// extra modes) into mode 1.
///
/// ```
/// use kute::{Layout, Tiler};
/// let l: Layout = "((_2,_3),(_4,_5),_6):((_1,_2),(_6,_24),_120)".parse().unwrap();
/// let t: Tiler = kute::expr::parse_tiler("<_2,_4>").unwrap();
/// assert_eq!(kute::tile_unzip(&l, &t).unwrap().to_string(), "((_2,_4),(_3,_5,_6)):((_1,_6),(_2,_24,_120))");
/// ```
pub fn tile_unzip(l: &Layout, t: &Tiler) -> Result<Layout> {
    Ok(Layout { tree: zip2_by(l.as_tree_ref(), t).map_err(|e| e.in_op("tile_unzip"))? })
}

/// CuTe `zipped_divide(A, tiler)`: `((tiles...), (rests..., extra modes...))`.
///
/// ```
/// use kute::{Layout, Tiler};
/// let a: Layout = "(_12,_32,_6):(_1,_128,_0)".parse().unwrap();
/// let t: Tiler = kute::expr::parse_tiler("(_4,_8)").unwrap();
/// assert_eq!(kute::zipped_divide(&a, &t).unwrap().to_string(), "((_4,_8),(_3,_4,_6)):((_1,_128),(_4,_1024,_0))");
/// ```
pub fn zipped_divide(a: &Layout, t: &Tiler) -> Result<Layout> {
    let go = || tile_unzip(&divide_unchecked(a, t)?, t);
    go().map_err(|e| e.in_op("zipped_divide"))
}

/// CuTe `tiled_divide(A, tiler)`: `((tiles...), rest0, rest1, ...)`.
///
/// ```
/// use kute::{Layout, Tiler};
/// let a: Layout = "(_12,_32,_6):(_1,_128,_0)".parse().unwrap();
/// let t: Tiler = kute::expr::parse_tiler("(_4,_8)").unwrap();
/// assert_eq!(kute::tiled_divide(&a, &t).unwrap().to_string(), "((_4,_8),_3,_4,_6):((_1,_128),_4,_1024,_0)");
/// ```
pub fn tiled_divide(a: &Layout, t: &Tiler) -> Result<Layout> {
    let go = || unpack(&tile_unzip(&divide_unchecked(a, t)?, t)?, false);
    go().map_err(|e| e.in_op("tiled_divide"))
}

/// CuTe `flat_divide(A, tiler)`: `(tile0, tile1, ..., rest0, rest1, ...)`.
///
/// ```
/// use kute::{Layout, Tiler};
/// let a: Layout = "(_12,_32,_6):(_1,_128,_0)".parse().unwrap();
/// let t: Tiler = kute::expr::parse_tiler("(_4,_8)").unwrap();
/// assert_eq!(kute::flat_divide(&a, &t).unwrap().to_string(), "(_4,_8,_3,_4,_6):(_1,_128,_4,_1024,_0)");
/// ```
pub fn flat_divide(a: &Layout, t: &Tiler) -> Result<Layout> {
    let go = || unpack(&tile_unzip(&divide_unchecked(a, t)?, t)?, true);
    go().map_err(|e| e.in_op("flat_divide"))
}

/// CuTe's `Z(_, repeat<R1>(_))` (and `Z(repeat<R0>(_), repeat<R1>(_))` when
/// `both`): splice the modes of mode 1 (and mode 0) into the top level. A mode
/// of rank 1 is kept whole, since `repeat<1>(_)` is `_` itself.
pub(crate) fn unpack(z: &Layout, both: bool) -> Result<Layout> {
    let r = z.as_tree_ref();
    let mut b = crate::tree::Builder::new();
    b.open();
    for (i, m) in r.modes().enumerate() {
        if (i == 1 || both) && m.rank() > 1 {
            b.push_modes(m);
        } else {
            b.push(m);
        }
    }
    b.close();
    Ok(Layout { tree: b.finish() })
}
