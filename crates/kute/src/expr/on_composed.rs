//! CuTe's overloads for swizzles and composed layouts, from
//! `layout_composed.hpp` and `swizzle_layout.hpp`: the functions that take
//! them, and the registry functions' own overloads for them (each entry of
//! the registry says which it has).
//!
//! Most operations act on the domain, i.e. on the inner layout `B` of
//! `A o offset o B`: the registry's own implementation runs on `B`, and a
//! layout result is recomposed as `composition(A, offset, result)` (shape,
//! size, rank, depth, cosize and complement return `B`'s answer as it is).
//! The rest are in [`crate::composed::ops`].

use super::value::{type_error, Value};
use crate::composed::{self, compose3, ops, ComposedLayout};
use crate::error::{Error, ErrorKind, Result};
use crate::int::Int;
use crate::layout::Layout;

/// How a call reaches the rest of its dispatch (see [`super::overload::Overload`]).
type Run<'a> = &'a dyn Fn(&[Value]) -> Result<Value>;

fn is_composed(v: &Value) -> bool {
    matches!(v, Value::Swizzle(_) | Value::Composed(_))
}

/// The error of a call CuTe has no overload for.
pub(super) fn unsupported(name: &str, args: &[Value]) -> Error {
    let what = args.iter().find(|v| is_composed(v)).map(|v| v.kind_name()).unwrap_or("a composed layout");
    Error::new(ErrorKind::Type, "evaluate", format!("{name} is not defined on {what} (CuTe has no such overload)"))
}

/// `args` with the first replaced by `v`.
fn with_first(args: &[Value], v: Value) -> Vec<Value> {
    let mut a = args.to_vec();
    a[0] = v;
    a
}

/// The composed layout that is the first argument, or the error of `name`.
fn first_composed<'a>(name: &str, args: &'a [Value]) -> Result<&'a ComposedLayout> {
    match args.first() {
        Some(Value::Composed(c)) => Ok(c),
        _ => Err(unsupported(name, args)),
    }
}

/// The answer on the inner layout of the first argument, as it is.
pub(super) fn of_inner(name: &str, args: &[Value], run: Run<'_>) -> Result<Value> {
    let c = first_composed(name, args)?;
    run(&with_first(args, Value::from_any(c.inner().clone())))
}

/// The answer on the inner layout of the first argument, composed again
/// with its outer function.
pub(super) fn recomposed(name: &str, args: &[Value], run: Run<'_>) -> Result<Value> {
    let c = first_composed(name, args)?;
    let r = run(&with_first(args, Value::from_any(c.inner().clone())))?;
    let r = r.to_any_layout("the result").map_err(|e| e.in_op(name.to_string()))?;
    Ok(Value::from_any(compose3(c.outer().clone(), c.offset(), r)))
}

/// `stride(C)`: CuTe deletes it (a composed layout's map is not linear).
pub(super) fn stride(_: &[i64], args: &[Value], _: Run<'_>) -> Result<Value> {
    let c = first_composed("stride", args)?;
    Err(Error::new(
        ErrorKind::Type,
        "stride",
        format!("{c} has no stride: CuTe deletes stride() of a composed layout (its map is not linear)"),
    ))
}

/// `make_layout(Sw)`: a swizzle as a composed layout over its domain.
pub(super) fn make_layout(_: &[i64], args: &[Value], _: Run<'_>) -> Result<Value> {
    match args {
        [Value::Swizzle(s)] => Ok(Value::from_any(ops::make_layout_of_swizzle(*s))),
        _ => Err(unsupported("make_layout", args)),
    }
}

/// `right_inverse(C)`.
pub(super) fn right_inverse(_: &[i64], args: &[Value], _: Run<'_>) -> Result<Value> {
    Ok(Value::from_any(ops::right_inverse(&args[0].to_any_layout("the operand")?)?))
}

/// `left_inverse(C)`.
pub(super) fn left_inverse(_: &[i64], args: &[Value], _: Run<'_>) -> Result<Value> {
    Ok(Value::from_any(ops::left_inverse(&args[0].to_any_layout("the operand")?)?))
}

/// `upcast<N>(C)`.
pub(super) fn upcast(t: &[i64], args: &[Value], _: Run<'_>) -> Result<Value> {
    Ok(Value::from_any(ops::recast(&args[0].to_any_layout("the operand")?, t[0], true)?))
}

/// `downcast<N>(C)`.
pub(super) fn downcast(t: &[i64], args: &[Value], _: Run<'_>) -> Result<Value> {
    Ok(Value::from_any(ops::recast(&args[0].to_any_layout("the operand")?, t[0], false)?))
}

/// `recast_layout<Old,New>(C)`.
pub(super) fn recast_layout(t: &[i64], args: &[Value], _: Run<'_>) -> Result<Value> {
    Ok(Value::from_any(ops::recast_layout(&args[0].to_any_layout("the operand")?, t[0], t[1])?))
}

/// `max_alignment(C)`.
pub(super) fn max_alignment(_: &[i64], args: &[Value], _: Run<'_>) -> Result<Value> {
    Ok(int(ops::max_alignment(&args[0].to_any_layout("the operand")?)?))
}

/// `max_common_vector(A, B)`.
pub(super) fn max_common_vector(_: &[i64], args: &[Value], _: Run<'_>) -> Result<Value> {
    let (a, b) = (args[0].to_any_layout("the left operand")?, args[1].to_any_layout("the right operand")?);
    Ok(int(ops::max_common_vector(&a, &b)?))
}

/// `max_common_layout(A, B)`.
pub(super) fn max_common_layout(_: &[i64], args: &[Value], _: Run<'_>) -> Result<Value> {
    let (a, b) = (args[0].to_any_layout("the left operand")?, args[1].to_any_layout("the right operand")?);
    Ok(Value::Layout(ops::max_common_layout(&a, &b)?))
}

/// `nullspace(C)`: `_1:_0` (a composed layout's kernel is not a layout).
pub(super) fn nullspace(_: &[i64], args: &[Value], _: Run<'_>) -> Result<Value> {
    first_composed("nullspace", args)?;
    Ok(Value::Layout(Layout::leaf(Int::ONE, Int::ZERO)))
}

/// `make_fragment_like(C)` of a swizzled layout: the inner layout's.
pub(super) fn make_fragment_like(_: &[i64], args: &[Value], run: Run<'_>) -> Result<Value> {
    match args.first() {
        Some(Value::Composed(c)) if c.swizzle().is_some() => run(&[Value::from_any(c.inner().clone())]),
        _ => Err(unsupported("make_fragment_like", args)),
    }
}

/// `composition(A, B)`: with layout-like operands the composed composite,
/// else (a composed layout by a tiler) the composite of the inner layout,
/// recomposed.
pub(super) fn composition(_: &[i64], args: &[Value], run: Run<'_>) -> Result<Value> {
    if !matches!(args[0], Value::Composed(_)) || is_layout_like(&args[1]) {
        let (a, b) = (args[0].to_any_layout("the left operand")?, args[1].to_any_layout("the right operand")?);
        return Ok(Value::from_any(ops::composition(&a, &b)?));
    }
    recomposed("composition", args, run)
}

/// `logical_product(L, C)` of a layout by a composed layout; of a composed
/// layout, the inner layout's product recomposed.
pub(super) fn logical_product(_: &[i64], args: &[Value], run: Run<'_>) -> Result<Value> {
    if let (Value::Layout(l), Value::Composed(c)) = (&args[0], &args[1]) {
        return Ok(Value::from_any(ops::logical_product(l, c)?));
    }
    recomposed("logical_product", args, run)
}

/// `filter(C, profile)`: CuTe filters a composed layout only by a profile.
pub(super) fn filter(_: &[i64], args: &[Value], run: Run<'_>) -> Result<Value> {
    let c = first_composed("filter", args)?;
    if args.len() == 1 {
        return Err(Error::new(
            ErrorKind::Type,
            "filter",
            format!("{c}: CuTe filters a composed layout only by a profile"),
        ));
    }
    recomposed("filter", args, run)
}

/// `slice(c, C)`.
pub(super) fn slice(_: &[i64], args: &[Value], _: Run<'_>) -> Result<Value> {
    slicing("slice", args)
}

/// `slice_and_offset(c, C)`.
pub(super) fn slice_and_offset(_: &[i64], args: &[Value], _: Run<'_>) -> Result<Value> {
    slicing("slice_and_offset", args)
}

/// `domain_offset(c, C)`.
pub(super) fn domain_offset(_: &[i64], args: &[Value], _: Run<'_>) -> Result<Value> {
    slicing("domain_offset", args)
}

/// A layout, swizzle or composed layout (not a tiler).
fn is_layout_like(v: &Value) -> bool {
    matches!(v, Value::Layout(_) | Value::Swizzle(_) | Value::Composed(_))
}

fn int(i: Int) -> Value {
    Value::IntTuple(crate::int_tuple::IntTuple::leaf(i))
}

/// `slice(c, C)`, `slice_and_offset(c, C)`, `domain_offset(c, C)` of a composed layout.
fn slicing(name: &'static str, args: &[Value]) -> Result<Value> {
    let Value::Composed(k) = &args[1] else { return Err(unsupported(name, args)) };
    match name {
        "domain_offset" => {
            let c = args[0].as_int_tuple("the coordinate").map_err(|e| e.in_op(name))?;
            let (r, off) = ops::domain_offset(&c, k)?;
            Ok(Value::Tuple(vec![Value::Composed(Box::new(r)), int(off)]))
        }
        _ => {
            let c = args[0].as_coord("the coordinate").map_err(|e| e.in_op(name))?;
            let (r, off) = composed::slice_and_offset(&c, k)?;
            if name == "slice" {
                Ok(Value::from_any(r))
            } else {
                Ok(Value::Tuple(vec![Value::from_any(r), int(off)]))
            }
        }
    }
}

/// `C(args...)` of a swizzle or composed layout: the value at the coordinate,
/// or the slice where it has `_`.
pub(super) fn apply(f: &Value, args: &[Value]) -> Result<Value> {
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
        (Value::Composed(_), _) => slicing("slice", &[coord, f.clone()]),
        _ => Err(type_error("the applied value", "a layout", f)),
    }
}

/// `make_composed_layout(A, offset, B)`, also CuTe's printed form `A o offset o B`.
pub(super) fn make_composed_layout(_: &[i64], a: &[Value]) -> Result<Value> {
    let outer = a[0].to_any_layout("the outer function")?;
    let off = a[1].as_int("the offset")?;
    let inner = a[2].to_any_layout("the inner layout")?;
    Ok(Value::Composed(Box::new(ComposedLayout::new(outer, off, inner))))
}

/// `Swizzle<B,M,S>{}` (or `Sw<B,M,S>`), and `Sw<B,M,S>(x)`.
pub(super) fn swizzle(t: &[i64], a: &[Value]) -> Result<Value> {
    let s = crate::swizzle::Swizzle::new(t[0], t[1], t[2])?;
    match a.first() {
        None => Ok(Value::Swizzle(s)),
        Some(x) => apply(&Value::Swizzle(s), std::slice::from_ref(x)),
    }
}

pub(super) fn get_swizzle_portion(_: &[i64], a: &[Value]) -> Result<Value> {
    Ok(Value::Swizzle(ops::get_swizzle_portion(&a[0].to_any_layout("the operand")?)?))
}

pub(super) fn get_nonswizzle_portion(_: &[i64], a: &[Value]) -> Result<Value> {
    Ok(Value::Layout(ops::get_nonswizzle_portion(&a[0].to_any_layout("the operand")?)?))
}
