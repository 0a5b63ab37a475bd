//! `complement(A, M)`: the layout that fills the gaps of `A` up to `M`.

use super::coalesce::{coalesce_flat, filter};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{self, IntTuple};
use crate::layout::{Layout, Mode};
use smallvec::SmallVec;

/// CuTe `complement(A, cotarget)`: an ordered layout `R` whose image avoids `A`'s
/// (except at 0) so that `(A, R)` covers `[0, size(cotarget))`. `cotarget` may be
/// a shape; its size is what counts.
///
/// kute also complements layouts with run-time strides of any rank (CuTe C++
/// refuses rank > 1), giving the same values as for static strides.
///
/// Pre: the filtered `A`, sorted by stride, has each stride at least the
/// previous extent·stride (else "non-injective" error, as CuTe).
/// Post (for admissible `A`): `R` is sorted and coalesced,
/// `size(A)·size(R) >= size(cotarget)`.
///
/// ```
/// use kute::{Layout, IntTuple};
/// let a: Layout = "4:2".parse().unwrap();
/// let m: IntTuple = "24".parse().unwrap();
/// assert_eq!(kute::complement(&a, &m).unwrap().to_string(), "(2,3):(_1,8)");
/// ```
pub fn complement(a: &Layout, cotarget: &IntTuple) -> Result<Layout> {
    complement_impl(a, Some(cotarget)).map_err(|e| e.in_op("complement"))
}

/// CuTe `complement(A)`: the complement up to `cosize(filter(A))`.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(_2,_2):(_1,_6)".parse().unwrap();
/// assert_eq!(kute::complement_self(&a).unwrap().to_string(), "_3:_2");
/// ```
pub fn complement_self(a: &Layout) -> Result<Layout> {
    complement_impl(a, None).map_err(|e| e.in_op("complement"))
}

fn complement_impl(a: &Layout, cotarget: Option<&IntTuple>) -> Result<Layout> {
    let f = filter(a)?;
    let own;
    let cot = match cotarget {
        Some(c) => c,
        None => {
            own = IntTuple::leaf(f.cosize()?);
            &own
        }
    };
    let leaves = f.leaves();
    if leaves.len() == 1 && leaves[0].stride.value() == 0 {
        // Only _1:_0 survives filtering with a zero stride: compact over the cotarget.
        // CuTe: make_layout(coalesce(cotarget)); by value, all extents merge.
        let n = cot.size()?;
        let d = if n.value() == 1 { Int::ZERO } else { Int::ONE };
        return Ok(Layout::leaf(n, d));
    }
    let mut shape: SmallVec<[Int; 16]> = leaves.iter().map(|m| m.shape).collect();
    let mut stride: SmallVec<[Int; 16]> = leaves.iter().map(|m| m.stride).collect();
    let r = shape.len();
    let mut modes: SmallVec<[Mode; 16]> = SmallVec::new();
    let mut last_stride = Int::ONE;
    for _ in 0..r - 1 {
        // the first index of the smallest stride
        let mut j = 0;
        for k in 1..stride.len() {
            if stride[k].value() < stride[j].value() {
                j = k;
            }
        }
        let min_stride = stride[j];
        let new_shape = min_stride.div(last_stride)?;
        if new_shape.value() == 0 {
            return Err(non_injective(a));
        }
        modes.push(Mode::new(new_shape, last_stride));
        last_stride = min_stride.mul(shape[j])?;
        shape.remove(j);
        stride.remove(j);
    }
    let new_shape = stride[0].div(last_stride)?;
    if new_shape.value() == 0 {
        return Err(non_injective(a));
    }
    modes.push(Mode::new(new_shape, last_stride));
    let new_stride = stride[0].mul(shape[0])?;
    let rest = int_tuple::ceil_div(cot.as_ref(), IntTuple::leaf(new_stride).as_ref())?;
    let rest_stride = int_tuple::compact_col_major(rest.as_ref(), new_stride)?;
    for (&s, &d) in rest.leaves().iter().zip(rest_stride.leaves()) {
        modes.push(Mode::new(s, d));
    }
    Ok(Layout::from_flat(&coalesce_flat(&modes, false)?))
}

fn non_injective(a: &Layout) -> Error {
    Error::inadmissible(
        "complement",
        format!("{a} is not injective: after sorting by stride, a stride is smaller than the extent·stride of the mode before it"),
    )
}
