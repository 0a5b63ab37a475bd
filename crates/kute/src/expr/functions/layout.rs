//! Making layouts, tuples and tiles (CuTe's `make_*`), and reading a layout at
//! an index (`L.get_hier_coord(i)` and its kin).

use super::args::{lay, Args};
use crate::error::Result;
use crate::expr::value::Value;
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::stride::{self, Stride, StrideTuple};
use crate::tiler::Tiler;
use crate::tree::Tree;

/// `make_shape(a, b, ...)` and its aliases: a tuple of anything.
pub(super) fn make_tuple(a: &Args) -> Result<Value> {
    Value::tuple(a.values().to_vec())
}

/// `make_tile(T0, T1, ...)`: the by-mode tiler `<T0,T1,...>`.
pub(super) fn make_tile(a: &Args) -> Result<Value> {
    let ts = (0..a.len()).map(|i| a.arg(i, "a tile element")).collect::<Result<_>>()?;
    Ok(Value::Tiler(Tiler::Tuple(ts)))
}

pub(super) fn make_identity_layout(s: &IntTuple) -> Result<Layout> {
    Layout::identity(s)
}

pub(super) fn make_basis_like(s: &IntTuple) -> Result<StrideTuple> {
    stride::make_basis_like(s)
}

/// `E<I...>{}` reaches the registry only through `expr::call` (the evaluator
/// reads the literal itself).
pub(super) fn basis_e(a: &Args) -> Result<Value> {
    Ok(Value::from_strides(Tree::leaf(Stride::basis(Int::ONE, &a.path()?)?)))
}

/// `make_layout(S)`, `(S, D)`, `(S, LayoutLeft{})`, or `(L0, L1, ...)`.
pub(super) fn make_layout(a: &Args) -> Result<Value> {
    if let Value::Layout(_) = &a[0] {
        let ls = (0..a.len()).map(|i| a.arg::<Layout>(i, "a layout")).collect::<Result<Vec<_>>>()?;
        return Ok(lay(Layout::concat(ls.iter())?));
    }
    // layouts concatenate in any number; a shape takes one stride or order at most
    super::args::arity(a.name, a.values(), 1, 2)?;
    let s: IntTuple = a.arg(0, "the shape")?;
    match a.extra(1) {
        None => Ok(lay(Layout::from_shape(&s)?)),
        Some(Value::Major(m)) => Ok(lay(Layout::from_shape_major(&s, *m)?)),
        Some(_) => Ok(lay(Layout::with_strides(&s, &a.arg(1, "the stride")?)?)),
    }
}

/// `make_ordered_layout(S, order)` (`LayoutLeft{}`/`LayoutRight{}` as orders).
pub(super) fn make_ordered_layout(a: &Args) -> Result<Value> {
    let s: IntTuple = a.arg(0, "the shape")?;
    match &a[1] {
        Value::Major(m) => Ok(lay(Layout::from_shape_major(&s, *m)?)),
        _ => Ok(lay(Layout::ordered(&s, &a.arg(1, "the order")?)?)),
    }
}

pub(super) fn get_hier_coord(l: &Layout, i: &Int) -> Result<IntTuple> {
    l.get_hier_coord(*i)
}

pub(super) fn get_flat_coord(l: &Layout, i: &Int) -> Result<IntTuple> {
    l.get_flat_coord(*i)
}

pub(super) fn get_1d_coord(l: &Layout, i: &Int) -> Result<Int> {
    l.get_1d_coord(*i)
}
