//! `transform_layout`: a layout built mode by mode by a function, CuTe's tool
//! for the by-mode operations (`coalesce(L, profile)` is one).

use crate::error::{Error, Result};
use crate::layout::{Layout, LayoutView};

/// CuTe `transform_layout(L, f)`: `make_layout(f(layout<0>(L)), f(layout<1>(L)), ...)`,
/// the layout whose mode `i` is `f` of mode `i` of `L`.
///
/// Pre: `f` succeeds on every mode (else its error); the result is nested at
/// most [`MAX_DEPTH`](crate::tree::MAX_DEPTH) levels (else a `Limit` error).
/// Post: a tuple layout of rank `rank(L)` (a rank-1 `L` gives a rank-1 tuple,
/// as CuTe's `make_layout` of one layout) whose mode `i` is `f(layout<i>(L))`.
///
/// ```
/// use kute::Layout;
/// let l: Layout = "((_2,_4),(_3,_1)):((_1,_2),(_8,_0))".parse().unwrap();
/// let r = kute::transform_layout(&l, |m| kute::coalesce(&m.to_layout())).unwrap();
/// assert_eq!(r.to_string(), "(_8,_3):(_1,_8)");
/// ```
pub fn transform_layout(l: &Layout, mut f: impl FnMut(LayoutView<'_>) -> Result<Layout>) -> Result<Layout> {
    let parts = l.modes().map(&mut f).collect::<Result<Vec<_>>>()?;
    concat_parts(&parts)
}

/// CuTe `transform_layout(L0, L1, f)`: `f` of the modes of `L0` and `L1` taken
/// in pairs, over the first `min(rank(L0), rank(L1))` modes, followed by the
/// remaining modes of `L0`, then those of `L1`, unchanged.
///
/// Pre: `f` succeeds on every pair (else its error); the result is nested at
/// most [`MAX_DEPTH`](crate::tree::MAX_DEPTH) levels (else a `Limit` error).
/// Post: a tuple layout of rank `max(rank(L0), rank(L1))` whose mode `i` is
/// `f(layout<i>(L0), layout<i>(L1))` for `i < min(rank(L0), rank(L1))`, and the
/// leftover mode of `L0` or `L1` after that.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(_4,_6,_5):(_1,_4,_24)".parse().unwrap();
/// let b: Layout = "(_2,_3):(_2,_1)".parse().unwrap();
/// let r = kute::transform_layout2(&a, &b, |x, y| kute::composition(&x.to_layout(), &y.to_layout())).unwrap();
/// assert_eq!(r.to_string(), "(_2,_3,_5):(_2,_4,_24)");
/// ```
pub fn transform_layout2(
    l0: &Layout,
    l1: &Layout,
    f: impl FnMut(LayoutView<'_>, LayoutView<'_>) -> Result<Layout>,
) -> Result<Layout> {
    let keep = |m: LayoutView<'_>| Ok(m.to_layout());
    concat_parts(&transform_pairs(l0.modes().collect(), l1.modes().collect(), f, keep, keep)?)
}

/// The order of the two-operand `transform_layout`, over any modes: `f` of
/// the pairs, then the leftovers of the first operand through `rest0`, then
/// those of the second through `rest1`.
pub(crate) fn transform_pairs<A, B, T>(
    modes0: Vec<A>,
    modes1: Vec<B>,
    mut f: impl FnMut(A, B) -> Result<T>,
    rest0: impl FnMut(A) -> Result<T>,
    rest1: impl FnMut(B) -> Result<T>,
) -> Result<Vec<T>> {
    let paired = modes0.len().min(modes1.len());
    let mut parts = Vec::with_capacity(modes0.len().max(modes1.len()));
    let (mut m0, mut m1) = (modes0.into_iter(), modes1.into_iter());
    // (`take` stops before asking either iterator for more than `paired`)
    for (x, y) in m0.by_ref().zip(m1.by_ref()).take(paired) {
        parts.push(f(x, y)?);
    }
    for x in m0.map(rest0) {
        parts.push(x?);
    }
    for y in m1.map(rest1) {
        parts.push(y?);
    }
    Ok(parts)
}

/// CuTe's `make_layout(parts...)`, which needs at least one layout.
fn concat_parts(parts: &[Layout]) -> Result<Layout> {
    if parts.is_empty() {
        return Err(Error::mismatch("transform_layout", "an operand has no modes, and make_layout needs at least one"));
    }
    Layout::concat(parts).map_err(|e| e.in_op("transform_layout"))
}
