//! Layouts made like another: CuTe's `make_layout_like` and `make_fragment_like`.

use super::product::tiled_product;
use crate::error::Result;
use crate::int::Int;
use crate::int_tuple::compact_col_major;
use crate::layout::Layout;
use crate::tiler::Tiler;

/// `shape` with an extent 1 wherever `stride` is 0 (CuTe's two-argument
/// `filter_zeros(stride, shape)`, deciding by value).
fn shape_without_zero_strides(l: &Layout, op: &'static str) -> Result<crate::int_tuple::IntTuple> {
    l.int_strides(op)?;
    Ok(l.tree.map(|m| if m.stride.value() == 0 { Int::ONE } else { m.shape }))
}

/// CuTe `make_layout_like(L)`: a compact layout of `L`'s shape whose strides
/// follow the order of `L`'s strides; stride-0 modes keep stride 0.
///
/// Pre: integer strides (else an `Inadmissible` error); the strides fit in
/// `i64` (else an `Overflow` error).
/// Post: same shape as `L`; compact on the modes of non-zero stride, ordered
/// as `L`'s strides order them (dynamic strides after static ones, as
/// `compact_order`).
///
/// ```
/// use kute::Layout;
/// let l: Layout = "(2,3,4,5):(_0,42,_1,_0)".parse().unwrap();
/// assert_eq!(kute::make_layout_like(&l).unwrap().to_string(), "(2,3,4,5):(_0,4,_1,_0)");
/// ```
pub fn make_layout_like(l: &Layout) -> Result<Layout> {
    crate::sym::refuse("make_layout_like", || l.has_symbols())?;
    let go = || -> Result<Layout> {
        let shape = shape_without_zero_strides(l, "make_layout_like")?;
        let order = l.int_stride("make_layout_like")?;
        let stride = crate::int_tuple::order_strides(shape.as_ref(), order.as_ref(), true)?;
        Layout::new(l.shape(), &stride)
    };
    go().map_err(|e| e.in_op("make_layout_like"))
}

/// CuTe `make_fragment_like(L)`: the register layout CuTe allocates for a
/// fragment shaped like `L`. For a static shape of rank above 1: mode 0
/// column-major (its stride-0 parts kept at 0), the other modes ordered like
/// `L`'s strides, as `tiled_product(mode 0, make_ordered_layout(modes 1..))`;
/// otherwise the compact column-major layout of `L`'s shape.
///
/// Pre: integer strides (else an `Inadmissible` error), and those of
/// [`tiled_product`](crate::tiled_product).
/// Post: a compact layout of `L`'s size.
///
/// ```
/// use kute::Layout;
/// let l: Layout = "(_2,(_3,_4)):(_12,(_4,_1))".parse().unwrap();
/// assert_eq!(kute::make_fragment_like(&l).unwrap().to_string(), "(_2,((_3,_4))):(_1,((_8,_2)))");
/// let d: Layout = "(2,3):(3,1)".parse().unwrap();
/// assert_eq!(kute::make_fragment_like(&d).unwrap().to_string(), "(2,3):(_1,2)");
/// ```
pub fn make_fragment_like(l: &Layout) -> Result<Layout> {
    crate::sym::refuse("make_fragment_like", || l.has_symbols())?;
    let go = || -> Result<Layout> {
        let shape = l.shape();
        let all_static = shape.leaves().iter().all(|s| s.is_static());
        if l.rank() <= 1 || l.tree.is_leaf() || !all_static {
            return Layout::from_shape(&shape);
        }
        l.int_strides("make_fragment_like")?;
        let m0 = l.mode(0)?;
        let s0 = shape_without_zero_strides(&m0, "make_fragment_like")?;
        let first = Layout::new(m0.shape(), &compact_col_major(s0.as_ref(), Int::ONE)?)?;
        let rest = l.take(1, l.rank())?;
        let ordered = Layout::ordered(&rest.shape(), &rest.int_stride("make_fragment_like")?)?;
        tiled_product(&first, &Tiler::Layout(ordered))
    };
    go().map_err(|e| e.in_op("make_fragment_like"))
}
