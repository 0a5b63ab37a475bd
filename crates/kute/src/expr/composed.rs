//! Calls with a swizzle or composed layout among the arguments: CuTe's
//! overloads from `layout_composed.hpp` and `swizzle_layout.hpp`, by
//! function name.
//!
//! Most operations act on the domain, i.e. on the inner layout `B` of
//! `A o offset o B`: the registry's own implementation runs on `B`, and a
//! layout result is recomposed as `composition(A, offset, result)` (shape,
//! size, rank, depth, cosize and complement return `B`'s answer as it is).
//! The rest are in [`crate::composed::ops`].

use super::functions::Impl;
use super::value::{type_error, Value};
use crate::composed::{self, compose3, ops, ComposedLayout};
use crate::error::{Error, ErrorKind, Result};
use crate::int::Int;
use crate::layout::Layout;

/// Functions that take swizzles and composed layouts themselves.
pub(super) const NATIVE: &[&str] =
    &["make_composed_layout", "Swizzle", "get_swizzle_portion", "get_nonswizzle_portion"];

/// Functions answered by the inner layout's answer.
const OF_INNER: &[&str] = &["shape", "size", "rank", "depth", "cosize", "complement"];

/// Functions whose layout answer on the inner layout is recomposed.
const RECOMPOSED: &[&str] = &[
    "get",
    "layout",
    "take",
    "flatten",
    "append",
    "group",
    "zip",
    "coalesce",
    "filter",
    "tile_unzip",
    "logical_divide",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
    "logical_product",
    "zipped_product",
    "tiled_product",
    "flat_product",
    "blocked_product",
    "raked_product",
    "tile_to_shape",
    "composition",
];

fn is_composed(v: &Value) -> bool {
    matches!(v, Value::Swizzle(_) | Value::Composed(_))
}

/// Whether a call must go through [`call`].
pub(super) fn involved(args: &[Value]) -> bool {
    args.iter().any(is_composed)
}

fn unsupported(name: &str, args: &[Value]) -> Error {
    let what = args.iter().find(|v| is_composed(v)).map(|v| v.kind_name()).unwrap_or("a composed layout");
    Error::new(ErrorKind::Type, "evaluate", format!("{name} is not defined on {what} (CuTe has no such overload)"))
}

/// `args` with the first replaced by `v`.
fn with_first(args: &[Value], v: Value) -> Vec<Value> {
    let mut a = args.to_vec();
    a[0] = v;
    a
}

/// A call of the registry entry `name` (implementation `imp`) with a swizzle
/// or composed layout among `args`.
pub(super) fn call(name: &'static str, targs: &[i64], args: &[Value], imp: Impl) -> Result<Value> {
    if NATIVE.contains(&name) {
        return imp(targs, args);
    }
    let first = &args[0];
    match (name, first) {
        ("stride", Value::Composed(c)) => {
            return Err(Error::new(
                ErrorKind::Type,
                name,
                format!("{c} has no stride: CuTe deletes stride() of a composed layout (its map is not linear)"),
            ))
        }
        ("make_layout", Value::Swizzle(s)) if args.len() == 1 => {
            return Ok(Value::from_any(ops::make_layout_of_swizzle(*s)))
        }
        ("right_inverse" | "left_inverse", _) => {
            let c = first.to_any_layout("the operand")?;
            let r = if name == "right_inverse" { ops::right_inverse(&c)? } else { ops::left_inverse(&c)? };
            return Ok(Value::from_any(r));
        }
        ("upcast" | "downcast", _) => {
            let c = first.to_any_layout("the operand")?;
            return Ok(Value::from_any(ops::recast(&c, targs[0], name == "upcast")?));
        }
        ("recast_layout", _) => {
            let c = first.to_any_layout("the operand")?;
            return Ok(Value::from_any(ops::recast_layout(&c, targs[0], targs[1])?));
        }
        ("max_alignment", _) => return Ok(int(ops::max_alignment(&first.to_any_layout("the operand")?)?)),
        ("max_common_vector", _) => {
            let (a, b) = (first.to_any_layout("the left operand")?, args[1].to_any_layout("the right operand")?);
            return Ok(int(ops::max_common_vector(&a, &b)?));
        }
        ("max_common_layout", _) => {
            let (a, b) = (first.to_any_layout("the left operand")?, args[1].to_any_layout("the right operand")?);
            return Ok(Value::Layout(ops::max_common_layout(&a, &b)?));
        }
        ("nullspace", Value::Composed(_)) => return Ok(Value::Layout(Layout::leaf(Int::ONE, Int::ZERO))),
        ("make_fragment_like", Value::Composed(c)) if c.swizzle().is_some() => {
            return imp(targs, &[Value::from_any(c.inner().clone())])
        }
        ("composition", _) if !matches!(first, Value::Composed(_)) || is_layout_like(&args[1]) => {
            let (a, b) = (first.to_any_layout("the left operand")?, args[1].to_any_layout("the right operand")?);
            return Ok(Value::from_any(ops::composition(&a, &b)?));
        }
        ("logical_product", Value::Layout(l)) => {
            if let Value::Composed(c) = &args[1] {
                return Ok(Value::from_any(ops::logical_product(l, c)?));
            }
        }
        ("slice" | "slice_and_offset" | "domain_offset", _) => return slicing(name, args),
        _ => {}
    }
    let Value::Composed(c) = first else { return Err(unsupported(name, args)) };
    if name == "filter" && args.len() == 1 {
        return Err(Error::new(
            ErrorKind::Type,
            name,
            format!("{c}: CuTe filters a composed layout only by a profile"),
        ));
    }
    if OF_INNER.contains(&name) {
        return super::functions::dispatch(name, targs, &with_first(args, Value::from_any(c.inner().clone())), imp);
    }
    if RECOMPOSED.contains(&name) {
        let r = super::functions::dispatch(name, targs, &with_first(args, Value::from_any(c.inner().clone())), imp)?;
        let r = r.to_any_layout("the result").map_err(|e| e.in_op(name))?;
        return Ok(Value::from_any(compose3(c.outer().clone(), c.offset(), r)));
    }
    Err(unsupported(name, args))
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
