//! Swizzles and composed layouts in the expression language: their own
//! functions (`Swizzle`, `make_composed_layout`, the portions) and CuTe's
//! overloads for them from `layout_composed.hpp` and `swizzle_layout.hpp`,
//! which the registry names entry by entry.
//!
//! Most operations act on the domain, i.e. on the inner layout `B` of
//! `A o offset o B`: [`of_inner`] answers with `B`'s answer, [`recomposed`]
//! composes a layout answer again as `composition(A, offset, result)`. The
//! rest are in [`crate::composed::ops`].

use super::args::{int, Args};
use crate::composed::{self, ops, AnyLayout, ComposedLayout};
use crate::error::{Error, ErrorKind, Result};
use crate::expr::value::{type_error, Value};
use crate::int::Int;
use crate::layout::slice::Coord;
use crate::layout::Layout;
use crate::swizzle::Swizzle;

fn is_composed(v: &Value) -> bool {
    matches!(v, Value::Swizzle(_) | Value::Composed(_))
}

/// A call with a swizzle or composed layout the function has no overload for
/// (where the argument is, or what it is, the overload does not take).
fn unsupported(a: &Args) -> Error {
    let what = a.values().iter().find(|v| is_composed(v)).map(|v| v.kind_name()).unwrap_or("a composed layout");
    Error::new(ErrorKind::Type, "evaluate", format!("{} is not defined on {what} (CuTe has no such overload)", a.name))
}

/// The composed layout that is the first argument (a swizzle alone is not one).
fn first_composed<'a>(a: &Args<'a>) -> Result<&'a ComposedLayout> {
    match &a.values()[0] {
        Value::Composed(c) => Ok(c),
        _ => Err(unsupported(a)),
    }
}

/// The call again with the first argument `v`.
fn again_with_first(a: &Args, v: Value) -> Result<Value> {
    let mut vs = a.values().to_vec();
    vs[0] = v;
    a.again(&vs)
}

/// Of a composed layout first, the answer of its inner layout (`size`, `shape`).
pub(super) fn of_inner(a: &Args) -> Result<Value> {
    let c = first_composed(a)?;
    again_with_first(a, Value::from_any(c.inner().clone()))
}

/// Of a composed layout `A o offset o B` first, the layout answer `R` of its
/// inner layout `B`, composed again: `A o offset o R`.
pub(super) fn recomposed(a: &Args) -> Result<Value> {
    let c = first_composed(a)?;
    let r = again_with_first(a, Value::from_any(c.inner().clone()))?;
    let r = r.to_any_layout("the result").map_err(|e| e.in_op(a.name))?;
    Ok(Value::from_any(c.recompose(r)))
}

/// `stride(C)`: CuTe deletes it (a composed layout's map is not linear).
pub(super) fn stride(a: &Args) -> Result<Value> {
    let c = first_composed(a)?;
    Err(Error::new(
        ErrorKind::Type,
        a.name,
        format!("{c} has no stride: CuTe deletes stride() of a composed layout (its map is not linear)"),
    ))
}

/// `make_layout(Sw)`: the swizzle as a composed layout over its whole domain.
pub(super) fn make_layout(a: &Args) -> Result<Value> {
    match a.values() {
        [Value::Swizzle(s)] => Ok(Value::from_any(ops::make_layout_of_swizzle(*s))),
        _ => Err(unsupported(a)),
    }
}

pub(super) fn right_inverse(a: &Args) -> Result<Value> {
    Ok(Value::from_any(ops::right_inverse(&a.arg::<AnyLayout>(0, "the operand")?)?))
}

pub(super) fn left_inverse(a: &Args) -> Result<Value> {
    Ok(Value::from_any(ops::left_inverse(&a.arg::<AnyLayout>(0, "the operand")?)?))
}

pub(super) fn upcast(a: &Args) -> Result<Value> {
    Ok(Value::from_any(ops::recast(&a.arg::<AnyLayout>(0, "the operand")?, a.targs()[0], true)?))
}

pub(super) fn downcast(a: &Args) -> Result<Value> {
    Ok(Value::from_any(ops::recast(&a.arg::<AnyLayout>(0, "the operand")?, a.targs()[0], false)?))
}

pub(super) fn recast_layout(a: &Args) -> Result<Value> {
    let t = a.targs();
    Ok(Value::from_any(ops::recast_layout(&a.arg::<AnyLayout>(0, "the operand")?, t[0], t[1])?))
}

pub(super) fn max_alignment(a: &Args) -> Result<Value> {
    Ok(int(ops::max_alignment(&a.arg::<AnyLayout>(0, "the operand")?)?))
}

/// The two operands of a binary overload, each any layout.
fn two(a: &Args) -> Result<(AnyLayout, AnyLayout)> {
    Ok((a.arg(0, "the left operand")?, a.arg(1, "the right operand")?))
}

pub(super) fn max_common_vector(a: &Args) -> Result<Value> {
    let (x, y) = two(a)?;
    Ok(int(ops::max_common_vector(&x, &y)?))
}

pub(super) fn max_common_layout(a: &Args) -> Result<Value> {
    let (x, y) = two(a)?;
    Ok(Value::Layout(ops::max_common_layout(&x, &y)?))
}

/// `nullspace(C)`: a composed layout's map is injective on its domain.
pub(super) fn nullspace(a: &Args) -> Result<Value> {
    first_composed(a)?;
    Ok(Value::Layout(Layout::leaf(Int::ONE, Int::ZERO)))
}

/// `make_fragment_like(Sw o offset o L)`: the fragment of `L` (registers are not swizzled).
pub(super) fn make_fragment_like(a: &Args) -> Result<Value> {
    match first_composed(a)? {
        c if c.swizzle().is_some() => a.again(&[Value::from_any(c.inner().clone())]),
        _ => Err(unsupported(a)),
    }
}

/// `composition(A, B)` with a swizzle or composed layout: of two layouts,
/// CuTe's composed composition; of a composed layout by a tiler, recomposed.
pub(super) fn composition(a: &Args) -> Result<Value> {
    let layout_like = matches!(a[1], Value::Layout(_) | Value::Swizzle(_) | Value::Composed(_));
    if !matches!(a[0], Value::Composed(_)) || layout_like {
        let (x, y) = two(a)?;
        return Ok(Value::from_any(ops::composition(&x, &y)?));
    }
    recomposed(a)
}

/// `logical_product(L, C)` of a plain layout by a composed one; else recomposed.
pub(super) fn logical_product(a: &Args) -> Result<Value> {
    if let (Value::Layout(l), Value::Composed(c)) = (&a[0], &a[1]) {
        return Ok(Value::from_any(ops::logical_product(l, c)?));
    }
    recomposed(a)
}

/// `filter(C, profile)`, recomposed; CuTe filters a composed layout only by a profile.
pub(super) fn filter(a: &Args) -> Result<Value> {
    if a.len() == 1 {
        let c = first_composed(a)?;
        return Err(Error::new(
            ErrorKind::Type,
            a.name,
            format!("{c}: CuTe filters a composed layout only by a profile"),
        ));
    }
    recomposed(a)
}

/// The composed layout that is the second argument (of the slicing functions).
fn second_composed<'a>(a: &Args<'a>) -> Result<&'a ComposedLayout> {
    match &a.values()[1] {
        Value::Composed(k) => Ok(k),
        _ => Err(unsupported(a)),
    }
}

/// `slice(c, C)`.
pub(super) fn slice(a: &Args) -> Result<Value> {
    let k = second_composed(a)?;
    Ok(Value::from_any(composed::slice_and_offset(&a.arg::<Coord>(0, "the coordinate")?, k)?.0))
}

/// `slice_and_offset(c, C)`.
pub(super) fn slice_and_offset(a: &Args) -> Result<Value> {
    let k = second_composed(a)?;
    let (r, off) = composed::slice_and_offset(&a.arg::<Coord>(0, "the coordinate")?, k)?;
    Ok(Value::Tuple(vec![Value::from_any(r), int(off)]))
}

/// `domain_offset(c, C)`.
pub(super) fn domain_offset(a: &Args) -> Result<Value> {
    let k = second_composed(a)?;
    let (r, off) = ops::domain_offset(&a.arg(0, "the coordinate")?, k)?;
    Ok(Value::Tuple(vec![Value::Composed(Box::new(r)), int(off)]))
}

/// `C(args...)` of a swizzle or composed layout: the value at the coordinate,
/// or the slice where it has `_`.
pub(crate) fn apply(f: &Value, args: &[Value]) -> Result<Value> {
    let coord = if args.len() == 1 { args[0].clone() } else { Value::tuple(args.to_vec())? };
    match (f, &coord) {
        (Value::Swizzle(s), Value::IntTuple(t)) if t.is_leaf() => Ok(int(s.apply_int(t.leaves()[0]))),
        (Value::Swizzle(s), other) => {
            Err(type_error("the argument of a swizzle", "an integer", other).in_op(s.to_string()))
        }
        (Value::Composed(k), Value::IntTuple(t)) => {
            if !t.is_leaf() {
                crate::layout::slice::check_coord_range(t, &k.shape()?, &k.to_string())?;
            }
            Ok(int(k.eval_coord(t)?))
        }
        (Value::Composed(k), _) => {
            let c = coord.as_coord("the coordinate").map_err(|e| e.in_op("slice"))?;
            Ok(Value::from_any(composed::slice_and_offset(&c, k)?.0))
        }
        _ => Err(type_error("the applied value", "a layout", f)),
    }
}

/// `make_composed_layout(A, offset, B)`, also CuTe's printed form `A o offset o B`.
pub(super) fn make_composed_layout(a: &Args) -> Result<Value> {
    let outer = a.arg(0, "the outer function")?;
    let off = a.arg(1, "the offset")?;
    let inner = a.arg(2, "the inner layout")?;
    Ok(Value::Composed(Box::new(ComposedLayout::new(outer, off, inner))))
}

/// `Swizzle<B,M,S>{}` (or `Sw<B,M,S>`), and `Sw<B,M,S>(x)`.
pub(super) fn swizzle(a: &Args) -> Result<Value> {
    let t = a.targs();
    let s = Swizzle::new(t[0], t[1], t[2])?;
    match a.extra(0) {
        None => Ok(Value::Swizzle(s)),
        Some(x) => apply(&Value::Swizzle(s), std::slice::from_ref(x)),
    }
}

pub(super) fn get_swizzle_portion(a: &Args) -> Result<Value> {
    Ok(Value::Swizzle(ops::get_swizzle_portion(&a.arg(0, "the operand")?)?))
}

pub(super) fn get_nonswizzle_portion(a: &Args) -> Result<Value> {
    Ok(Value::Layout(ops::get_nonswizzle_portion(&a.arg(0, "the operand")?)?))
}
