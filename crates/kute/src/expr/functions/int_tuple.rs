//! Functions of integer tuples: products, comparisons, divisions, and the
//! maps between coordinates and indices (CuTe's `int_tuple.hpp`), with
//! PyCuTe's common refinements.
//!
//! `crate::int_tuple` works on borrowed trees; [`pair`] reads the two tuple
//! operands of a binary function once, so each entry is one line.

use super::args::{boolean, int, tuple, Args};
use crate::algebra;
use crate::error::{Error, ErrorKind, Result};
use crate::expr::value::Value;
use crate::int::Int;
use crate::int_tuple::{self, IntTuple};
use crate::layout::{Layout, Major};
use crate::tree::TreeRef;

type Tuple<'a> = TreeRef<'a, Int>;

/// The two integer-tuple operands of a binary tuple function.
fn pair(a: &Args, f: impl FnOnce(Tuple<'_>, Tuple<'_>) -> Result<Value>) -> Result<Value> {
    let (x, y): (IntTuple, IntTuple) = (a.arg(0, "A")?, a.arg(1, "B")?);
    f(x.as_ref(), y.as_ref())
}

pub(super) fn product(t: &IntTuple) -> Result<Int> {
    t.size()
}

pub(super) fn product_each(t: &IntTuple) -> Result<IntTuple> {
    int_tuple::product_each(t.as_ref())
}

pub(super) fn prefix_product(t: &IntTuple) -> Result<IntTuple> {
    int_tuple::prefix_product(t.as_ref())
}

pub(super) fn inner_product(a: &Args) -> Result<Value> {
    pair(a, |x, y| Ok(int(int_tuple::inner_product(x, y)?)))
}

pub(super) fn congruent(a: &Args) -> Result<Value> {
    pair(a, |x, y| Ok(boolean(int_tuple::congruent(x, y))))
}

pub(super) fn weakly_congruent(a: &Args) -> Result<Value> {
    pair(a, |x, y| Ok(boolean(int_tuple::weakly_congruent(x, y))))
}

pub(super) fn compatible(a: &Args) -> Result<Value> {
    pair(a, |x, y| Ok(boolean(int_tuple::compatible(x, y)?)))
}

pub(super) fn weakly_compatible(a: &Args) -> Result<Value> {
    pair(a, |x, y| Ok(boolean(int_tuple::weakly_compatible(x, y)?)))
}

pub(super) fn elem_less(a: &Args) -> Result<Value> {
    pair(a, |x, y| Ok(boolean(int_tuple::elem_less(x, y)?)))
}

pub(super) fn lex_less(a: &Args) -> Result<Value> {
    pair(a, |x, y| Ok(boolean(int_tuple::lex_less(x, y)?)))
}

pub(super) fn colex_less(a: &Args) -> Result<Value> {
    pair(a, |x, y| Ok(boolean(int_tuple::colex_less(x, y)?)))
}

pub(super) fn shape_div(a: &Args) -> Result<Value> {
    pair(a, |x, y| Ok(tuple(int_tuple::shape_div(x, y)?)))
}

pub(super) fn elem_scale(a: &Args) -> Result<Value> {
    pair(a, |x, y| Ok(tuple(int_tuple::elem_scale(x, y)?)))
}

/// `min(a, b)` of two integers ([`Int::min_symbolic`]).
pub(super) fn min(a: &Args) -> Result<Value> {
    let (x, y): (Int, Int) = (a.arg(0, "a")?, a.arg(1, "b")?);
    Ok(int(x.min_symbolic(y)?))
}

/// `ceil_div(A, B)`; by a layout, the rest shape of a divide (CuTe's overload).
pub(super) fn ceil_div(a: &Args) -> Result<Value> {
    let x: IntTuple = a.arg(0, "the dividend")?;
    if let Value::Layout(t) = &a[1] {
        return Ok(tuple(algebra::complement(t, &x).map_err(|e| e.in_op("ceil_div"))?.shape()));
    }
    Ok(tuple(int_tuple::ceil_div(x.as_ref(), a.arg::<IntTuple>(1, "the divisor")?.as_ref())?))
}

/// `idx2crd(i, S[, D])`.
pub(super) fn idx2crd(a: &Args) -> Result<Value> {
    let (i, s): (IntTuple, IntTuple) = (a.arg(0, "the index")?, a.arg(1, "the shape")?);
    Ok(tuple(match a.opt::<IntTuple>(2, "the stride")? {
        Some(d) => int_tuple::idx2crd_strided(i.as_ref(), s.as_ref(), d.as_ref())?,
        None => int_tuple::idx2crd(i.as_ref(), s.as_ref())?,
    }))
}

pub(super) fn increment(c: &IntTuple, s: &IntTuple) -> Result<IntTuple> {
    int_tuple::increment(c.as_ref(), s.as_ref())
}

/// `crd2idx(c, S[, D])`; of a layout, its value at `c`.
pub(super) fn crd2idx(a: &Args) -> Result<Value> {
    let c: IntTuple = a.arg(0, "the coordinate")?;
    if let (Value::Layout(l), 2) = (&a[1], a.len()) {
        return Ok(int(l.eval_coord(&c)?));
    }
    let s: IntTuple = a.arg(1, "the shape")?;
    Ok(int(match a.opt::<IntTuple>(2, "the stride")? {
        Some(d) => int_tuple::crd2idx(c.as_ref(), s.as_ref(), d.as_ref())?,
        None => int_tuple::crd2idx_compact(c.as_ref(), s.as_ref())?,
    }))
}

pub(super) fn crd2crd(c: &IntTuple, from: &IntTuple, to: &IntTuple) -> Result<IntTuple> {
    int_tuple::crd2crd(c.as_ref(), from.as_ref(), to.as_ref())
}

/// The shape and the start (default 1) of the compact stride functions.
fn shape_start(a: &Args) -> Result<(IntTuple, Int)> {
    Ok((a.arg(0, "the shape")?, a.opt(1, "the start")?.unwrap_or(Int::ONE)))
}

pub(super) fn compact_col_major(a: &Args) -> Result<Value> {
    let (s, start) = shape_start(a)?;
    Ok(tuple(int_tuple::compact_col_major(s.as_ref(), start)?))
}

pub(super) fn compact_row_major(a: &Args) -> Result<Value> {
    let (s, start) = shape_start(a)?;
    Ok(tuple(int_tuple::compact_row_major(s.as_ref(), start)?))
}

/// `compact_order(S, order)` (`LayoutLeft{}`/`LayoutRight{}` as orders).
pub(super) fn compact_order(a: &Args) -> Result<Value> {
    let s: IntTuple = a.arg(0, "the shape")?;
    Ok(tuple(match &a[1] {
        Value::Major(Major::Left) => int_tuple::compact_col_major(s.as_ref(), Int::ONE)?,
        Value::Major(Major::Right) => int_tuple::compact_row_major(s.as_ref(), Int::ONE)?,
        _ => int_tuple::compact_order(s.as_ref(), a.arg::<IntTuple>(1, "the order")?.as_ref())?,
    }))
}

/// `domain_distribute(S, n)`.
pub(super) fn domain_distribute(s: &IntTuple, n: &IntTuple) -> Result<Layout> {
    let Some(n) = n.inline_leaf() else {
        return Err(Error::new(ErrorKind::Type, "domain_distribute", format!("the count must be an integer, not {n}")));
    };
    algebra::domain_distribute(s, n)
}
