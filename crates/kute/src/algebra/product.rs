//! The product family: `logical_product`, `zipped_product`, `tiled_product`,
//! `flat_product`, `blocked_product`, `raked_product` and `tile_to_shape`.
//!
//! Products return CuTe's answer as it is, including the rare case where the
//! inner `complement(A) ∘ B` is not the true composite: CuTe's reference answers
//! pin that behaviour down (see [`doc::differences`](crate::doc::differences)).

use super::complement::complement;
use super::composition::compose_checked;
use super::divide::{by_mode, tile_unzip, unpack};
use super::tiler::Tiler;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{self, IntTuple};
use crate::layout::Layout;

fn product_layout(a: &Layout, b: &Layout) -> Result<Layout> {
    let m = a.size()?.mul(b.cosize()?)?;
    let comp = complement(a, &IntTuple::leaf(m))?;
    let rest = compose_checked(&comp, b, false)?;
    Ok(Layout::concat_unchecked([a, &rest]))
}

/// CuTe `logical_product(A, B)` for a layout `B`:
/// `(A, complement(A, size(A)·cosize(B)) ∘ B)`, rank 2. A by-mode tiler applies
/// mode by mode, keeping `A`'s extra modes.
///
/// Pre: those of [`complement`] and [`composition`](crate::composition).
/// Post: mode 0 of the result is `A`.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(_2,_2):(_1,_2)".parse().unwrap();
/// let b: Layout = "(_3,_4):(_4,_1)".parse().unwrap();
/// assert_eq!(kute::logical_product(&a, &b.into()).unwrap().to_string(), "((_2,_2),(_3,_4)):((_1,_2),(_16,_4))");
/// ```
pub fn logical_product(a: &Layout, t: &Tiler) -> Result<Layout> {
    by_mode(a, t, "logical_product", &product_layout).map_err(|e| e.in_op("logical_product"))
}

/// CuTe `zipped_product(A, tiler)`: `((blocks...), (products..., extra...))`.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(_2,_2):(_1,_2)".parse().unwrap();
/// let b: Layout = "(_3,_4):(_4,_1)".parse().unwrap();
/// assert_eq!(kute::zipped_product(&a, &b.into()).unwrap().to_string(), "((_2,_2),(_3,_4)):((_1,_2),(_16,_4))");
/// ```
pub fn zipped_product(a: &Layout, t: &Tiler) -> Result<Layout> {
    let go = || tile_unzip(&by_mode(a, t, "zipped_product", &product_layout)?, t);
    go().map_err(|e| e.in_op("zipped_product"))
}

/// CuTe `tiled_product(A, tiler)`: `((blocks...), p0, p1, ...)`.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(_2,_2):(_1,_2)".parse().unwrap();
/// let b: Layout = "(_3,_4):(_4,_1)".parse().unwrap();
/// assert_eq!(kute::tiled_product(&a, &b.into()).unwrap().to_string(), "((_2,_2),_3,_4):((_1,_2),_16,_4)");
/// ```
pub fn tiled_product(a: &Layout, t: &Tiler) -> Result<Layout> {
    let go = || unpack(&tile_unzip(&by_mode(a, t, "tiled_product", &product_layout)?, t)?, false);
    go().map_err(|e| e.in_op("tiled_product"))
}

/// CuTe `flat_product(A, tiler)`: `(b0, b1, ..., p0, p1, ...)`.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(_2,_2):(_1,_2)".parse().unwrap();
/// let b: Layout = "(_3,_4):(_4,_1)".parse().unwrap();
/// assert_eq!(kute::flat_product(&a, &b.into()).unwrap().to_string(), "(_2,_2,_3,_4):(_1,_2,_16,_4)");
/// ```
pub fn flat_product(a: &Layout, t: &Tiler) -> Result<Layout> {
    let go = || unpack(&tile_unzip(&by_mode(a, t, "flat_product", &product_layout)?, t)?, true);
    go().map_err(|e| e.in_op("flat_product"))
}

fn rank_product(a: &Layout, b: &Layout, raked: bool) -> Result<Layout> {
    let r = a.rank().max(b.rank());
    let unit = Layout::unit();
    let pa = a.append_to(r, &unit)?;
    let pb = b.append_to(r, &unit)?;
    let p = product_layout(&pa, &pb)?;
    let (p0, p1) = (p.mode(0)?, p.mode(1)?);
    if raked {
        p1.zip_with(&p0)
    } else {
        p0.zip_with(&p1)
    }
}

/// CuTe `blocked_product(A, B)`: `B` repeats the block `A`; mode `i` of the result
/// is `(A_i, (A* ∘ B)_i)`. Rank: `max(rank A, rank B)` (both padded with `_1:_0`).
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(_2,_5):(_5,_1)".parse().unwrap();
/// let b: Layout = "(_3,_4):(_1,_3)".parse().unwrap();
/// assert_eq!(kute::blocked_product(&a, &b).unwrap().to_string(), "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))");
/// ```
pub fn blocked_product(a: &Layout, b: &Layout) -> Result<Layout> {
    rank_product(a, b, false).map_err(|e| e.in_op("blocked_product"))
}

/// CuTe `raked_product(A, B)`: as [`blocked_product`] with the parts of each mode
/// swapped, interleaving the copies of `A`.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(_2,_5):(_5,_1)".parse().unwrap();
/// let b: Layout = "(_3,_4):(_1,_3)".parse().unwrap();
/// assert_eq!(kute::raked_product(&a, &b).unwrap().to_string(), "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))");
/// ```
pub fn raked_product(a: &Layout, b: &Layout) -> Result<Layout> {
    rank_product(a, b, true).map_err(|e| e.in_op("raked_product"))
}

/// CuTe `tile_to_shape(block, target, order)`: repeat `block` (blocked product)
/// until it has shape `target`, stepping through the modes in `order`
/// (column-major when `None`).
///
/// Pre: `rank(block) <= rank(target)`, and each mode of `block` divides the
/// matching mode of `target`.
///
/// ```
/// use kute::{Layout, IntTuple};
/// let a: Layout = "(_2,_4):(_1,_2)".parse().unwrap();
/// let t: IntTuple = "(_8,_16)".parse().unwrap();
/// assert_eq!(kute::tile_to_shape(&a, &t, None).unwrap().to_string(), "((_2,_4),(_4,_4)):((_1,_8),(_2,_32))");
/// ```
pub fn tile_to_shape(block: &Layout, target: &IntTuple, order: Option<&IntTuple>) -> Result<Layout> {
    let go = || -> Result<Layout> {
        let r = target.rank();
        if block.rank() > r {
            return Err(Error::mismatch(
                "tile_to_shape",
                format!("rank of the block {block} must be <= rank of the target shape {target}"),
            ));
        }
        let padded = block.append_to(r, &Layout::unit())?;
        let bs = int_tuple::product_each(padded.shape().as_ref())?;
        let ts = int_tuple::product_each(target.as_ref())?;
        for (x, y) in ts.leaves().iter().zip(bs.leaves()) {
            if y.value() == 0 || x.value() % y.value() != 0 {
                return Err(Error::inadmissible(
                    "tile_to_shape",
                    format!("the block shape {bs} does not divide the target shape {ts}"),
                ));
            }
        }
        let ps = int_tuple::ceil_div(ts.as_ref(), bs.as_ref())?;
        let grid = match order {
            None => Layout::from_shape(&ps)?,
            Some(o) => Layout::ordered(&ps, o)?,
        };
        rank_product(&padded, &grid, false)
    };
    go().map_err(|e| e.in_op("tile_to_shape"))
}

/// CuTe `upcast<N>(L)`: reinterpret for elements `N` times wider. A stride `d`
/// becomes `sign(d)·ceil(|d|/N)` and its extent `ceil(s / ceil(N/|d|))`; stride-0
/// modes are unchanged.
///
/// Pre: each non-zero stride divides `N` or is divisible by it.
///
/// ```
/// use kute::Layout;
/// let l: Layout = "(_4,_8):(_1,_4)".parse().unwrap();
/// assert_eq!(kute::upcast(&l, 2).unwrap().to_string(), "(_2,_8):(_1,_2)");
/// ```
pub fn upcast(l: &Layout, n: i64) -> Result<Layout> {
    let n = Int::new_static(n);
    let tree = l
        .tree
        .try_map(|m| {
            let d = m.stride;
            if d.value() == 0 {
                return Ok(m);
            }
            let ad = d.abs()?;
            if n.value() <= 0 || (ad.value() % n.value() != 0 && n.value() % ad.value() != 0) {
                return Err(Error::inadmissible(
                    "upcast",
                    format!("divisibility condition fails: stride {d} and factor {n} do not divide one another"),
                ));
            }
            let s = m.shape.ceil_div(n.ceil_div(ad)?)?;
            let d = d.signum().mul(ad.ceil_div(n)?)?;
            Ok(crate::layout::Mode::new(s, d))
        })
        .map_err(|e| e.in_op("upcast"))?;
    Ok(Layout { tree })
}

/// CuTe `downcast<N>(L)`: reinterpret for elements `N` times narrower: modes of
/// stride ±1 grow `N` times, other strides are multiplied by `N`.
///
/// Pre: some stride is 1 ("downcast requires adjacent elements").
///
/// ```
/// use kute::Layout;
/// let l: Layout = "(_4,_8):(_1,_4)".parse().unwrap();
/// assert_eq!(kute::downcast(&l, 2).unwrap().to_string(), "(_8,_8):(_1,_8)");
/// ```
pub fn downcast(l: &Layout, n: i64) -> Result<Layout> {
    let n = Int::new_static(n);
    if !l.leaves().iter().any(|m| m.stride.value() == 1) {
        return Err(Error::inadmissible(
            "downcast",
            format!("{l} has no stride-1 mode: downcast requires adjacent elements"),
        ));
    }
    let tree = l
        .tree
        .try_map(|m| {
            if m.stride.value().abs() == 1 {
                Ok(crate::layout::Mode::new(m.shape.mul(n)?, m.stride))
            } else {
                Ok(crate::layout::Mode::new(m.shape, m.stride.mul(n)?))
            }
        })
        .map_err(|e| e.in_op("downcast"))?;
    Ok(Layout { tree })
}
