//! Tensors in the expression language: counting and identity (coordinate)
//! tensors, their partitions, divides, indexing and `print_tensor`.
//!
//! `make_tensor(counting, L)` is CuTe's `make_tensor(counting_iterator<int>(0), L)`
//! (`counting` names the counting engine; the oracle has no spelling for it);
//! `make_identity_tensor(S)` is CuTe's. A tensor prints as CuTe's `print`
//! (`counting_iter(0) o (_4,_8):(_1,_4)`); `print_tensor(T)` gives CuTe's
//! `print_tensor` text.
//!
//! ```
//! use kute::expr::eval;
//! assert_eq!(eval("make_tensor(counting, (_4,_8):(_1,_4))(1,2)").unwrap().to_string(), "9");
//! assert_eq!(eval("make_identity_tensor((_4,_8))(_,2)").unwrap().to_string(), "ArithTuple(_0,2) o (_4):(_1@0)");
//! assert_eq!(eval("local_tile(make_identity_tensor((_8,_12)), (_4,_3), (1,2))(0)").unwrap().to_string(), "(4,6)");
//! ```

use super::value::{type_error, TensorValue, Value};
use crate::error::{Error, ErrorKind, Result};
use crate::int::Int;
use crate::tensor::{self, Coords, Counting, Tensor};

impl TensorValue {
    /// Whether the tensor holds a symbol. Pre: none. Post: the answer.
    pub(crate) fn has_symbols(&self) -> bool {
        match self {
            TensorValue::Counting(t) => t.has_symbols(),
            TensorValue::Identity(t) => t.has_symbols(),
            TensorValue::Printed(_) => false,
        }
    }

    /// The tensor with values put in for its unknowns.
    pub(crate) fn substitute(&self, v: &crate::sym::Valuation) -> crate::error::Result<TensorValue> {
        Ok(match self {
            TensorValue::Counting(t) => TensorValue::Counting(t.substitute(v)?),
            TensorValue::Identity(t) => TensorValue::Identity(t.substitute(v)?),
            TensorValue::Printed(p) => TensorValue::Printed(p.clone()),
        })
    }
}

impl TensorValue {
    /// The leaves of its layout (for the evaluator's budgets).
    pub(super) fn leaf_count(&self) -> usize {
        match self {
            TensorValue::Counting(t) => t.layout().leaf_count(),
            TensorValue::Identity(t) => t.layout().leaf_count(),
            TensorValue::Printed(_) => 1,
        }
    }

    /// The depth of its layout.
    pub(super) fn depth(&self) -> usize {
        match self {
            TensorValue::Counting(t) => t.layout().depth(),
            TensorValue::Identity(t) => t.layout().depth(),
            TensorValue::Printed(_) => 0,
        }
    }

    fn layout(&self) -> Result<&crate::AnyLayout> {
        match self {
            TensorValue::Counting(t) => Ok(t.layout()),
            TensorValue::Identity(t) => Ok(t.layout()),
            TensorValue::Printed(_) => Err(Error::new(ErrorKind::Type, "evaluate", "printed text is not a tensor")),
        }
    }

    /// `f` applied to whichever tensor it is.
    fn map(&self, f: impl Fn(TensorOf) -> Result<TensorOf>) -> Result<Value> {
        let r = match self {
            TensorValue::Counting(t) => f(TensorOf::C(t.clone()))?,
            TensorValue::Identity(t) => f(TensorOf::I(t.clone()))?,
            TensorValue::Printed(_) => {
                return Err(Error::new(ErrorKind::Type, "evaluate", "printed text is not a tensor"))
            }
        };
        Ok(match r {
            TensorOf::C(t) => wrap(TensorValue::Counting(t)),
            TensorOf::I(t) => wrap(TensorValue::Identity(t)),
        })
    }
}

/// One of the two tensor kinds, to write each operation once.
enum TensorOf {
    C(Tensor<Counting>),
    I(Tensor<Coords>),
}

macro_rules! both {
    ($x:expr, |$t:ident| $body:expr) => {
        match $x {
            TensorOf::C($t) => Ok(TensorOf::C($body?)),
            TensorOf::I($t) => Ok(TensorOf::I($body?)),
        }
    };
}

fn wrap(t: TensorValue) -> Value {
    Value::Tensor(Box::new(t))
}

fn as_tensor<'a>(v: &'a Value, what: &str) -> Result<&'a TensorValue> {
    match v {
        Value::Tensor(t) if !matches!(**t, TensorValue::Printed(_)) => Ok(t),
        other => Err(type_error(what, "a tensor", other)),
    }
}

/// How a call reaches the rest of its dispatch (see [`super::overload::Overload`]).
type Run<'a> = &'a dyn Fn(&[Value]) -> Result<Value>;

/// A divide of a tensor: the tensor over the same engine with the divided
/// layout (CuTe's `logical_divide(T, tiler)` and its regroupings).
fn divide(args: &[Value], how: fn(TensorOf, &crate::tiler::Tiler) -> Result<TensorOf>) -> Result<Value> {
    let t = as_tensor(&args[0], "the first argument")?;
    let tiler = args.get(1).ok_or_else(|| Error::new(ErrorKind::Type, "evaluate", "a tiler is missing"))?;
    let tiler = tiler.as_tiler("the tiler")?;
    t.map(|x| how(x, &tiler))
}

/// `logical_divide(T, tiler)`.
pub(super) fn logical_divide(_: &[i64], args: &[Value], _: Run<'_>) -> Result<Value> {
    divide(args, |x, t| both!(x, |x| x.logical_divide(t)))
}

/// `zipped_divide(T, tiler)`.
pub(super) fn zipped_divide(_: &[i64], args: &[Value], _: Run<'_>) -> Result<Value> {
    divide(args, |x, t| both!(x, |x| x.zipped_divide(t)))
}

/// `tiled_divide(T, tiler)`.
pub(super) fn tiled_divide(_: &[i64], args: &[Value], _: Run<'_>) -> Result<Value> {
    divide(args, |x, t| both!(x, |x| x.tiled_divide(t)))
}

/// `flat_divide(T, tiler)`.
pub(super) fn flat_divide(_: &[i64], args: &[Value], _: Run<'_>) -> Result<Value> {
    divide(args, |x, t| both!(x, |x| x.flat_divide(t)))
}

/// A query answered on a tensor's layout (`size(T)`, `shape(T)`, ...).
pub(super) fn of_layout(name: &str, args: &[Value], run: Run<'_>) -> Result<Value> {
    match args {
        [t] => run(&[Value::from_any(as_tensor(t, "the tensor")?.layout()?.clone())]),
        _ => Err(Error::new(ErrorKind::Type, "evaluate", format!("{name} of a tensor takes the tensor alone"))),
    }
}

/// `counting`: the name of the counting engine (an argument of `make_tensor`).
pub(super) fn counting(_: &[i64], _: &[Value]) -> Result<Value> {
    Err(Error::new(ErrorKind::Type, "counting", "counting names an engine: write make_tensor(counting, L)"))
}

/// `make_tensor(counting, L)`.
pub(super) fn make_tensor(_: &[i64], a: &[Value]) -> Result<Value> {
    if !matches!(a[0], Value::Function("counting")) {
        return Err(type_error("the engine", "'counting'", &a[0]));
    }
    let l = match &a[1] {
        Value::IntTuple(s) => crate::AnyLayout::Layout(crate::Layout::from_shape(s)?),
        other => other.to_any_layout("the layout")?,
    };
    Ok(wrap(TensorValue::Counting(tensor::make_counting_tensor(l))))
}

/// `make_identity_tensor(S)`.
pub(super) fn make_identity_tensor(_: &[i64], a: &[Value]) -> Result<Value> {
    let s = a[0].as_int_tuple("the shape")?;
    Ok(wrap(TensorValue::Identity(tensor::make_identity_tensor(&s)?)))
}

fn tiler_coord(a: &[Value]) -> Result<(crate::tiler::Tiler, crate::Coord)> {
    Ok((a[1].as_tiler("the tiler")?, a[2].as_coord("the coordinate")?))
}

/// `local_tile(T, tiler, coord)`.
pub(super) fn local_tile(_: &[i64], a: &[Value]) -> Result<Value> {
    let (tl, c) = tiler_coord(a)?;
    as_tensor(&a[0], "the tensor")?.map(|x| both!(x, |t| t.local_tile(&tl, &c)))
}

/// `inner_partition(T, tiler, coord)`.
pub(super) fn inner_partition(_: &[i64], a: &[Value]) -> Result<Value> {
    let (tl, c) = tiler_coord(a)?;
    as_tensor(&a[0], "the tensor")?.map(|x| both!(x, |t| t.inner_partition(&tl, &c)))
}

/// `outer_partition(T, tiler, coord)`.
pub(super) fn outer_partition(_: &[i64], a: &[Value]) -> Result<Value> {
    let (tl, c) = tiler_coord(a)?;
    as_tensor(&a[0], "the tensor")?.map(|x| both!(x, |t| t.outer_partition(&tl, &c)))
}

/// `local_partition(T, thr_layout, thr_idx)`.
pub(super) fn local_partition(_: &[i64], a: &[Value]) -> Result<Value> {
    let thr = a[1].to_layout("the thread layout")?;
    let idx = a[2].as_int("the thread index")?.value();
    as_tensor(&a[0], "the tensor")?.map(|x| both!(x, |t| t.local_partition(&thr, idx)))
}

/// `print_tensor(T)`.
pub(super) fn print_tensor(_: &[i64], a: &[Value]) -> Result<Value> {
    let s = match as_tensor(&a[0], "the tensor")? {
        TensorValue::Counting(t) => tensor::print_tensor(t)?,
        TensorValue::Identity(t) => tensor::print_tensor(t)?,
        TensorValue::Printed(_) => unreachable!("as_tensor refuses printed text"),
    };
    Ok(wrap(TensorValue::Printed(s)))
}

/// `T(args...)`: the element at a coordinate, or the slice when it has `_`.
pub(super) fn apply(t: &TensorValue, args: &[Value]) -> Result<Value> {
    let coord = if args.len() == 1 { args[0].clone() } else { Value::tuple(args.to_vec())? };
    match coord {
        Value::IntTuple(c) => match t {
            TensorValue::Counting(t) => Ok(Value::IntTuple(crate::IntTuple::leaf(Int::new_dynamic(t.at(&c)?)))),
            TensorValue::Identity(t) => Ok(Value::IntTuple(t.at(&c)?.map(Int::to_dynamic))),
            TensorValue::Printed(_) => Err(Error::new(ErrorKind::Type, "evaluate", "printed text cannot be indexed")),
        },
        Value::Coord(_) | Value::Underscore => {
            let c = coord.as_coord("the coordinate")?;
            t.map(|x| both!(x, |t| t.slice(&c)))
        }
        other => Err(type_error("the coordinate", "integers and '_'", &other)),
    }
}

/// The shape of the tensor a value holds.
pub(super) fn tensor_shape(v: &Value) -> Result<crate::IntTuple> {
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
    as_tensor(v, "the tensor")?.map(part)
}

/// `thr_copy.partition_S/D(T)` (`side`) of the tensor a value holds.
pub(super) fn partition_copy(v: &Value, s: &crate::atom::ThrCopy<'_>, side: crate::atom::Side) -> Result<Value> {
    let part = |x: TensorOf| -> Result<TensorOf> {
        match side {
            crate::atom::Side::Source => both!(x, |t| s.partition_s(t)),
            crate::atom::Side::Destination => both!(x, |t| s.partition_d(t)),
        }
    };
    as_tensor(v, "the tensor")?.map(part)
}
