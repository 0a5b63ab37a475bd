//! Tensors in the expression language: counting, identity (coordinate), gmem and smem
//! tensors, their partitions, divides and indexing, and the
//! overloads of layout functions for tensors (the registry names them).
//!
//! `make_tensor(counting, L)` is CuTe's `make_tensor(counting_iterator<int>(0), L)`
//! (`counting` names the counting engine; the oracle has no spelling for it);
//! `make_identity_tensor(S)` is CuTe's. A tensor prints as CuTe's `print`
//! (`counting_iter(0) o (_4,_8):(_1,_4)`); `print_tensor(T)` (printing.rs) gives
//! CuTe's `print_tensor` text.
//!
//! ```
//! use kute::expr::eval;
//! assert_eq!(eval("make_tensor(counting, (_4,_8):(_1,_4))(1,2)").unwrap().to_string(), "9");
//! assert_eq!(eval("make_identity_tensor((_4,_8))(_,2)").unwrap().to_string(), "ArithTuple(_0,2) o (_4):(_1@0)");
//! assert_eq!(eval("local_tile(make_identity_tensor((_8,_12)), (_4,_3), (1,2))(0)").unwrap().to_string(), "(4,6)");
//! ```

use super::args::Args;
use crate::error::{Error, ErrorKind, Result};
use crate::expr::tensor_value::TensorValue;
use crate::expr::value::{type_error, type_error_hinted, Value};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::slice::{Coord, Crd};
use crate::layout::Layout;
use crate::tensor::{self, Coords, Counting, Pointer, Tensor};
use crate::tiler::Tiler;
use std::borrow::Cow;

/// One of the tensor kinds the algorithms take, to write each operation once.
enum TensorOf {
    C(Tensor<Counting>),
    I(Tensor<Coords>),
    P(Tensor<Pointer>),
}

macro_rules! both {
    ($x:expr, |$t:ident| $body:expr) => {
        match $x {
            TensorOf::C($t) => Ok(TensorOf::C($body?)),
            TensorOf::I($t) => Ok(TensorOf::I($body?)),
            TensorOf::P($t) => Ok(TensorOf::P($body?)),
        }
    };
}

/// The error of a tensor operation kute does not define on tensor memory.
pub(super) fn tmem_unsupported() -> Error {
    Error::new(
        ErrorKind::Type,
        "evaluate",
        "this operation is not defined on a tensor-memory tensor (take its layout, or make_tmem_copy)",
    )
}

fn wrap(t: TensorValue) -> Value {
    Value::Tensor(Box::new(t))
}

/// `f` applied to whichever tensor `t` is.
fn map(t: &TensorValue, f: impl Fn(TensorOf) -> Result<TensorOf>) -> Result<Value> {
    let r = match t {
        TensorValue::Counting(t) => f(TensorOf::C(t.clone()))?,
        TensorValue::Identity(t) => f(TensorOf::I(t.clone()))?,
        TensorValue::Pointer(t) => f(TensorOf::P(t.clone()))?,
        TensorValue::Tmem(..) => return Err(tmem_unsupported()),
        TensorValue::Im2col(_) => return Err(super::im2col_unsupported()),
    };
    Ok(match r {
        TensorOf::C(t) => wrap(TensorValue::Counting(t)),
        TensorOf::I(t) => wrap(TensorValue::Identity(t)),
        TensorOf::P(t) => wrap(TensorValue::Pointer(t)),
    })
}

/// The tensor a value holds, else a `Type` error naming `what`; for a layout
/// with integer strides and no unknowns, the error shows the expression that
/// makes its counting tensor (`make_tensor(counting, L)`).
pub(crate) fn as_tensor<'a>(v: &'a Value, what: &str) -> Result<Cow<'a, TensorValue>> {
    match v {
        Value::Tensor(t) => Ok(Cow::Borrowed(t)),
        // (the TMA copies' operands, as the tensor algorithms take them)
        Value::GmemTensor(g) => Ok(Cow::Owned(TensorValue::Pointer(Tensor::new(g.pointer(), g.layout().clone())))),
        Value::SmemTensor(s) => Ok(Cow::Owned(TensorValue::Pointer(Tensor::new(s.pointer(), s.layout().clone())))),
        other => {
            let hint = match other {
                Value::Layout(l) if l.has_int_strides() && !l.has_symbols() => {
                    format!("; make_tensor(counting, {l}) is the tensor of that layout")
                }
                Value::IntTuple(s) if !s.has_symbols() => {
                    format!("; make_identity_tensor({s}) is the coordinate tensor of that shape")
                }
                _ => String::new(),
            };
            Err(type_error_hinted(what, "a tensor", other, &hint))
        }
    }
}

/// The tensor that is the first argument of an overload.
fn first<'a>(a: &Args<'a>) -> Result<Cow<'a, TensorValue>> {
    as_tensor(&a.values()[0], "the first argument").map_err(|e| e.in_op(a.name))
}

/// Of a tensor alone, the answer of its layout (`shape`, `size`, `layout<I>`).
pub(super) fn of_layout(a: &Args) -> Result<Value> {
    let t = first(a)?;
    if a.len() != 1 {
        return Err(Error::new(ErrorKind::Type, "evaluate", format!("{} is not defined on a tensor", a.name)));
    }
    a.again(&[Value::from_any(t.layout()?.clone())])
}

/// The tiler of a divide.
fn tiler(a: &Args) -> Result<Tiler> {
    a.arg(1, "the tiler")
}

/// `logical_divide(T, tiler)`: the layout divided, the same engine.
pub(super) fn logical_divide(a: &Args) -> Result<Value> {
    let (t, tl) = (first(a)?, tiler(a)?);
    map(&t, |x| both!(x, |t| t.logical_divide(&tl)))
}

pub(super) fn zipped_divide(a: &Args) -> Result<Value> {
    let (t, tl) = (first(a)?, tiler(a)?);
    map(&t, |x| both!(x, |t| t.zipped_divide(&tl)))
}

pub(super) fn tiled_divide(a: &Args) -> Result<Value> {
    let (t, tl) = (first(a)?, tiler(a)?);
    map(&t, |x| both!(x, |t| t.tiled_divide(&tl)))
}

pub(super) fn flat_divide(a: &Args) -> Result<Value> {
    let (t, tl) = (first(a)?, tiler(a)?);
    map(&t, |x| both!(x, |t| t.flat_divide(&tl)))
}

/// `counting`: the name of the counting engine (an argument of `make_tensor`).
pub(super) fn counting(_: &Args) -> Result<Value> {
    Err(Error::new(ErrorKind::Type, "counting", "counting names an engine: write make_tensor(counting, L)"))
}

/// `make_tensor(counting, L)`.
pub(super) fn make_tensor(a: &Args) -> Result<Value> {
    if let Value::GmemPtr(p) = &a[0] {
        return super::tma::make_gmem_tensor(&p.0, p.1, a);
    }
    if let Value::SmemPtr(p) = &a[0] {
        return super::tma::make_smem_tensor(&p.0, p.1, a);
    }
    // (only a gmem tensor takes a symbolic layout: the extents of a kernel's operands)
    crate::sym::refuse(a.name, || a[1].has_symbols())?;
    if let Value::TmemPtr(bits) = a[0] {
        // a tensor in tensor memory: `make_tensor(make_tmem_ptr<float>(0), L)`
        let l: Layout = match &a[1] {
            Value::IntTuple(s) => Layout::from_shape(s)?,
            _ => a.arg(1, "the layout")?,
        };
        let t = crate::atom::tmem::TmemTensor::new(tmem_type(bits), l.clone()).map_err(|e| e.within(a.name))?;
        return Ok(wrap(TensorValue::Tmem(Box::new((t, crate::AnyLayout::Layout(l))))));
    }
    if !matches!(a[0], Value::Function("counting")) {
        return Err(type_error("the engine", "'counting'", &a[0]));
    }
    let l = match &a[1] {
        Value::IntTuple(s) => crate::AnyLayout::Layout(Layout::from_shape(s)?),
        _ => a.arg(1, "the layout")?,
    };
    Ok(wrap(TensorValue::Counting(tensor::make_counting_tensor(l))))
}

/// An element type of `bits` bits (a TMEM tensor's copies depend on the width alone).
fn tmem_type(bits: i64) -> &'static str {
    match bits {
        4 => "float_e2m1_t",
        6 => "float_e2m3_t",
        8 => "uint8_t",
        16 => "uint16_t",
        _ => "uint32_t",
    }
}

/// `make_tmem_ptr<T>(addr)`: a tensor-memory pointer to `T`, at address 0 only.
pub(super) fn make_tmem_ptr(a: &Args) -> Result<Value> {
    let bits = a.targs().first().copied().unwrap_or(0);
    if ![4, 6, 8, 16, 32].contains(&bits) {
        return Err(Error::new(
            ErrorKind::Inadmissible,
            a.name,
            format!("tensor memory holds elements of 4, 6, 8, 16 or 32 bits, not {bits}"),
        ));
    }
    let addr = a.known(0, "the address")?;
    if addr != 0 {
        return Err(Error::new(
            ErrorKind::Inadmissible,
            a.name,
            format!("kute's tensor-memory tensors start at address 0, not {addr}"),
        ));
    }
    Ok(Value::TmemPtr(bits))
}

/// `make_identity_tensor(S)`.
pub(super) fn make_identity_tensor(a: &Args) -> Result<Value> {
    let s: IntTuple = a.arg(0, "the shape")?;
    Ok(wrap(TensorValue::Identity(tensor::make_identity_tensor(&s)?)))
}

/// The tensor, the tiler and the coordinate of the tile functions.
fn tensor_tiler_coord<'a>(a: &Args<'a>) -> Result<(Cow<'a, TensorValue>, Tiler, Coord)> {
    Ok((as_tensor(&a.values()[0], "the tensor")?, a.arg(1, "the tiler")?, a.arg(2, "the coordinate")?))
}

/// `local_tile(T, tiler, coord[, proj])`: with a projection (`Step<_1,X,_1>{}`),
/// CuTe's `local_tile(T, dice(proj, tiler), dice(proj, coord))`, the modes
/// where `proj` has `X` left out of both.
pub(super) fn local_tile(a: &Args) -> Result<Value> {
    let (t, mut tl, mut c) = tensor_tiler_coord(a)?;
    if a.len() == 4 {
        let proj: Coord = a.arg(3, "the projection")?;
        let keep: Vec<bool> = proj.as_ref().children().map(|m| !matches!(m.as_leaf(), Some(Crd::Underscore))).collect();
        let kept = |i: usize| keep.get(i).copied().unwrap_or(false);
        tl = match tl {
            Tiler::Tuple(ts) if ts.len() == keep.len() => {
                Tiler::Tuple(ts.into_iter().enumerate().filter(|&(i, _)| kept(i)).map(|(_, t)| t).collect())
            }
            _ => return Err(a.wrong(1, "the tiler", &format!("a tiler of {} modes, as the projection", keep.len()))),
        };
        if c.as_ref().rank() != keep.len() {
            return Err(a.wrong(
                2,
                "the coordinate",
                &format!("a coordinate of {} modes, as the projection", keep.len()),
            ));
        }
        let modes: Vec<_> =
            c.as_ref().children().enumerate().filter(|&(i, _)| kept(i)).map(|(_, m)| m.to_tree()).collect();
        c = crate::tree::Tree::tuple(modes.iter().map(|m| m.as_ref()));
    }
    map(&t, |x| both!(x, |t| t.local_tile(&tl, &c)))
}

/// `inner_partition(T, tiler, coord)`.
pub(super) fn inner_partition(a: &Args) -> Result<Value> {
    let (t, tl, c) = tensor_tiler_coord(a)?;
    map(&t, |x| both!(x, |t| t.inner_partition(&tl, &c)))
}

/// `outer_partition(T, tiler, coord)`.
pub(super) fn outer_partition(a: &Args) -> Result<Value> {
    let (t, tl, c) = tensor_tiler_coord(a)?;
    map(&t, |x| both!(x, |t| t.outer_partition(&tl, &c)))
}

/// `local_partition(T, thr_layout, thr_idx)` (the thread layout may be
/// given as a shape, its compact column-major layout).
pub(super) fn local_partition(a: &Args) -> Result<Value> {
    let thr = a.layout_or_shape(1, "the thread layout")?;
    let idx = a.known(2, "the thread index")?;
    map(&*as_tensor(&a[0], "the tensor")?, |x| both!(x, |t| t.local_partition(&thr, idx)))
}

/// `T(args...)`: the element at a coordinate, or the slice when it has `_`.
pub(crate) fn apply(t: &TensorValue, args: &[Value]) -> Result<Value> {
    let coord = if args.len() == 1 { args[0].clone() } else { Value::tuple(args.to_vec())? };
    match coord {
        Value::IntTuple(c) => match t {
            TensorValue::Counting(t) => Ok(Value::IntTuple(IntTuple::leaf(Int::new_dynamic(t.at(&c)?)))),
            TensorValue::Identity(t) => Ok(Value::IntTuple(t.at(&c)?.map(Int::to_dynamic))),
            // (a pointer reads nothing: its error, which says what there is)
            TensorValue::Pointer(t) => t.at(&c).map(|()| Value::Tuple(vec![])),
            TensorValue::Tmem(..) => Err(tmem_unsupported()),
            TensorValue::Im2col(t) => Ok(match t.at(&c)? {
                crate::layout::point::Point::Tuple(x) => Value::IntTuple(x),
                p => Value::IntTuple(p.to_int_tuple()),
            }),
        },
        Value::Coord(_) | Value::Underscore => {
            let c = coord.as_coord("the coordinate")?;
            map(t, |x| both!(x, |t| t.slice(&c)))
        }
        other => Err(type_error("the coordinate", "integers and '_'", &other)),
    }
}

/// The shape of the tensor a value holds.
pub(super) fn tensor_shape(v: &Value) -> Result<IntTuple> {
    as_tensor(v, "the tensor")?.layout()?.shape()
}

/// `thr_mma.partition_A/B/C(T)` (`which`) of the tensor a value holds.
pub(super) fn partition_mma(v: &Value, s: &crate::atom::ThrMma<'_>, which: crate::atom::Operand) -> Result<Value> {
    use crate::atom::Operand;
    let part = |x: TensorOf| -> Result<TensorOf> {
        match which {
            Operand::A => both!(x, |t| s.partition_a(t)),
            Operand::B => both!(x, |t| s.partition_b(t)),
            Operand::C => both!(x, |t| s.partition_c(t)),
        }
    };
    map(&*as_tensor(v, "the tensor")?, part)
}

/// `thr_copy.partition_S/D(T)` (`side`) of the tensor a value holds.
pub(super) fn partition_copy(v: &Value, s: &crate::atom::ThrCopy<'_>, side: crate::atom::Side) -> Result<Value> {
    let part = |x: TensorOf| -> Result<TensorOf> {
        match side {
            crate::atom::Side::Source => both!(x, |t| s.partition_s(t)),
            crate::atom::Side::Destination => both!(x, |t| s.partition_d(t)),
        }
    };
    map(&*as_tensor(v, "the tensor")?, part)
}

/// `thr_copy.retile_S/D(T)` (`side`) of the tensor a value holds.
pub(super) fn retile_copy(v: &Value, s: &crate::atom::ThrCopy<'_>, side: crate::atom::Side) -> Result<Value> {
    let retile = |x: TensorOf| -> Result<TensorOf> {
        match side {
            crate::atom::Side::Source => both!(x, |t| s.retile_s(t)),
            crate::atom::Side::Destination => both!(x, |t| s.retile_d(t)),
        }
    };
    map(&*as_tensor(v, "the tensor")?, retile)
}
