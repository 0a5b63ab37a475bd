//! The layout algebra: coalescing, composition, complement, inverses, the
//! divides and products, recasting, slicing and by-mode transforms (CuTe's
//! `layout.hpp`).
//!
//! Where the library's function is already the expression's (one layout
//! and one tiler in, one layout out), the registry names it directly; the
//! functions here are the ones with CuTe's extra forms (an optional profile,
//! `_` passed through, an order tag, template arguments).

use super::args::{int, lay, tuple, Args};
use crate::algebra;
use crate::error::{Error, Result};
use crate::expr::value::{type_error, Value};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::slice::Coord;
use crate::layout::{Layout, Major};
use crate::tiler::Tiler;

/// The library's own functions, called as they are.
pub(super) use crate::algebra::{
    blocked_product, common_coarsening, common_refinement, evenly_divides, flat_divide, flat_product,
    greatest_common_domain, layout_add, logical_divide, logical_product, make_fragment_like, make_layout_like,
    max_alignment, max_common_layout, max_common_vector, raked_product, tile_unzip, tiled_divide, tiled_product,
    zip2_by, zipped_divide, zipped_product,
};

pub(super) fn coalesce(a: &Args) -> Result<Value> {
    match &a[0] {
        Value::IntTuple(s) if a.len() == 1 => Ok(tuple(algebra::coalesce_shape(s)?)),
        v => {
            let l = v.to_layout("the operand")?;
            match a.extra(1) {
                None => Ok(lay(algebra::coalesce(&l)?)),
                Some(_) => Ok(lay(algebra::coalesce_profile(&l, &a.arg(1, "the profile")?)?)),
            }
        }
    }
}

/// `filter` or `filter_zeros`, of the whole layout or mode by mode of a profile.
fn filter_with(name: &'static str, a: &Args, f: &dyn Fn(&Layout) -> Result<Layout>) -> Result<Value> {
    let l = a.arg::<Layout>(0, "the operand")?;
    match a.extra(1) {
        None => Ok(lay(f(&l)?)),
        Some(_) => Ok(lay(algebra::coalesce_profile_with(&l, &a.arg(1, "the profile")?, name, f)?)),
    }
}

pub(super) fn filter_zeros(a: &Args) -> Result<Value> {
    filter_with("filter_zeros", a, &|l: &Layout| Ok(algebra::filter_zeros(l)))
}

pub(super) fn filter(a: &Args) -> Result<Value> {
    filter_with("filter", a, &algebra::filter)
}

pub(super) fn bw_coalesce(a: &Args) -> Result<Value> {
    let old = Layout::new(&a.arg::<IntTuple>(0, "the shape")?, &a.arg::<IntTuple>(1, "the stride")?)?;
    let new = Layout::new(&a.arg::<IntTuple>(2, "the new shape")?, &a.arg::<IntTuple>(3, "the new stride")?)?;
    let t = a.targs()[0];
    let i = isize::try_from(t).map_err(|_| Error::mismatch("bw_coalesce", format!("mode index {t}")))?;
    Ok(lay(algebra::bw_coalesce(&old, i, &new)?))
}

pub(super) fn coalesce_z(a: &Args) -> Result<Value> {
    let l = a.arg::<Layout>(0, "the operand")?;
    match a.extra(1) {
        None => Ok(lay(algebra::coalesce_z(&l)?)),
        Some(_) => Ok(lay(algebra::coalesce_z_profile(&l, &a.arg(1, "the profile")?)?)),
    }
}

pub(super) fn composition(a: &Args) -> Result<Value> {
    let l = a.arg::<Layout>(0, "the left operand")?;
    match &a[1] {
        Value::Layout(b) => Ok(lay(algebra::composition(&l, b)?)),
        _ => Ok(lay(algebra::composition_tiler(&l, &a.arg::<Tiler>(1, "the right operand")?)?)),
    }
}

pub(super) fn complement(a: &Args) -> Result<Value> {
    let l = a.arg::<Layout>(0, "the operand")?;
    match a.extra(1) {
        None => Ok(lay(algebra::complement_self(&l)?)),
        Some(_) => Ok(lay(algebra::complement(&l, &a.arg::<IntTuple>(1, "the cotarget")?)?)),
    }
}

/// A function of one layout; of `_` it is `_` (CuTe's inverses pass `_` through).
fn unary(a: &Args, f: fn(&Layout) -> Result<Layout>) -> Result<Value> {
    if let Value::Underscore = &a[0] {
        return Ok(Value::Underscore);
    }
    Ok(lay(f(&a.arg::<Layout>(0, "the operand")?)?))
}

pub(super) fn right_inverse(a: &Args) -> Result<Value> {
    unary(a, algebra::right_inverse)
}

pub(super) fn left_inverse(a: &Args) -> Result<Value> {
    unary(a, algebra::left_inverse)
}

pub(super) fn nullspace(a: &Args) -> Result<Value> {
    unary(a, algebra::nullspace)
}

pub(super) fn tile_to_shape(a: &Args) -> Result<Value> {
    let l = a.arg::<Layout>(0, "the block")?;
    let s = a.arg::<IntTuple>(1, "the target shape")?;
    let o = match a.extra(2) {
        None | Some(Value::Major(Major::Left)) => None,
        Some(Value::Major(Major::Right)) => {
            let n = s.rank() as i64;
            Some(IntTuple::tuple_of_leaves((0..n).rev().map(Int::new_static)))
        }
        Some(_) => Some(a.arg(2, "the order")?),
    };
    Ok(lay(algebra::tile_to_shape(&l, &s, o.as_ref())?))
}

pub(super) fn upcast(a: &Args) -> Result<Value> {
    Ok(lay(algebra::upcast(&a.arg::<Layout>(0, "the operand")?, a.targs()[0])?))
}

pub(super) fn downcast(a: &Args) -> Result<Value> {
    Ok(lay(algebra::downcast(&a.arg::<Layout>(0, "the operand")?, a.targs()[0])?))
}

pub(super) fn recast_layout(a: &Args) -> Result<Value> {
    let l = a.arg::<Layout>(0, "the operand")?;
    Ok(lay(algebra::recast_layout(&l, a.targs()[0], a.targs()[1])?))
}

/// The coordinate and the layout of the slicing functions.
fn coord_layout(a: &Args) -> Result<(Coord, Layout)> {
    Ok((a.arg::<Coord>(0, "the coordinate")?, a.arg::<Layout>(1, "the layout")?))
}

pub(super) fn slice(a: &Args) -> Result<Value> {
    if let Value::IntTuple(t) = &a[1] {
        return Ok(tuple(crate::layout::slice::slice_tuple(&a.arg::<Coord>(0, "the coordinate")?, t.as_ref())?));
    }
    let (c, l) = coord_layout(a)?;
    Ok(lay(l.slice(&c)?))
}

pub(super) fn dice(a: &Args) -> Result<Value> {
    if let Value::IntTuple(t) = &a[1] {
        return Ok(tuple(crate::layout::slice::dice_tuple(&a.arg::<Coord>(0, "the coordinate")?, t.as_ref())?));
    }
    let (c, l) = coord_layout(a)?;
    Ok(lay(l.dice(&c)?))
}

pub(super) fn domain_offset(a: &Args) -> Result<Value> {
    let c = a.arg::<IntTuple>(0, "the coordinate")?;
    let l = a.arg::<Layout>(1, "the layout")?;
    let off = l.eval_coord_point(&c).map_err(|e| e.in_op("domain_offset"))?;
    Ok(Value::Tuple(vec![lay(l), Value::from_point(off)]))
}

pub(super) fn slice_and_offset(a: &Args) -> Result<Value> {
    let (c, l) = coord_layout(a)?;
    let (s, off) = l.slice_and_offset(&c)?;
    Ok(Value::Tuple(vec![lay(s), Value::from_point(off)]))
}

/// The modes `transform_layout` walks: a layout's, or a tuple's elements (an
/// integer and `_` are their own single mode, as `get<0>` of them in CuTe).
fn mode_values(v: &Value, what: &str) -> Result<Vec<Value>> {
    Ok(match v {
        Value::Layout(l) => l.modes().map(|m| Value::Layout(m.to_layout())).collect(),
        Value::IntTuple(t) if t.is_leaf() => vec![v.clone()],
        Value::IntTuple(t) => t.as_ref().children().map(|c| Value::IntTuple(c.to_tree())).collect(),
        Value::Coord(c) => c.as_ref().children().map(|c| coord_value(&c.to_tree())).collect::<Result<_>>()?,
        Value::Tuple(vs) => vs.clone(),
        Value::Underscore => vec![Value::Underscore],
        other => return Err(type_error(what, "a layout or a tuple", other)),
    })
}

/// A coordinate (with `_`) as the value the evaluator gives it.
fn coord_value(c: &Coord) -> Result<Value> {
    use crate::layout::slice::Crd;
    match c.as_ref().as_leaf() {
        Some(Crd::Underscore) => Ok(Value::Underscore),
        Some(Crd::Int(n)) => Ok(int(n)),
        None => Value::tuple(c.as_ref().children().map(|x| coord_value(&x.to_tree())).collect::<Result<_>>()?),
    }
}

pub(super) fn transform_layout(a: &Args) -> Result<Value> {
    let op = "transform_layout";
    let Some((Value::Function(f), operands @ [first, ..])) = a.values().split_last() else {
        let f = a.values().last().unwrap_or(&Value::Underscore);
        return Err(type_error("the function", "a function name such as coalesce", f).in_op(op));
    };
    let modes0 = mode_values(first, "the first operand").map_err(|e| e.in_op(op))?;
    let parts = match operands.get(1) {
        None => modes0.into_iter().map(|m| a.call(f, &[], &[m])).collect::<Result<Vec<_>>>()?,
        Some(second) => {
            let modes1 = mode_values(second, "the second operand").map_err(|e| e.in_op(op))?;
            algebra::transform_pairs(modes0, modes1, |x, y| a.call(f, &[], &[x, y]), Ok, Ok)?
        }
    };
    if parts.is_empty() {
        return Err(Error::mismatch(op, format!("{first} has no modes, and make_layout needs at least one")));
    }
    // CuTe's make_layout of the parts: layouts concatenate; otherwise (f gave
    // integers) its shape and shape-stride forms apply
    if !parts.iter().any(|p| matches!(p, Value::Layout(_))) {
        return a.call("make_layout", &[], &parts).map_err(|e| e.in_op(op));
    }
    let layouts = parts
        .into_iter()
        .map(|p| match p {
            Value::Layout(l) => Ok(l),
            other => Err(type_error("a mode of the result", "a layout, as the others are", &other).in_op(op)),
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(lay(Layout::concat(&layouts).map_err(|e| e.in_op(op))?))
}
