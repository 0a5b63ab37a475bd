//! Python objects to kute values and back.
//!
//! Two directions, two forms:
//! - [`to_value`]: any Python argument as a value of the expression language
//!   (layouts, integer tuples, tilers, ints, tuples, strings, sympy integers,
//!   `None`/`kute._`); [`int_tuple_fast`] is its fast path for plain Python
//!   ints and tuples, which builds the tuple without going through values.
//! - [`from_value`] keeps kute's types (what `kute.eval` answers: an
//!   `IntTuple` keeps its static marks), [`to_py`] gives plain Python where
//!   Python has the value (what the module functions answer: an `int`, a
//!   `tuple` of ints, a `tuple` of values).

use crate::types::{kerr, KuteError, LayoutBox, PyIntTuple, PyLayout, PySwizzle, PyTiler, PyUnderscore, PyValue};
use kute::expr::{self, Value};
use kute::{Int, IntTuple};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyList, PyString, PyTuple};

/// A Python object as a value of the expression language.
///
/// Pre: none. Post: the value (a Python `int` is a dynamic integer, a `str`
/// an expression, a `tuple` or `list` an integer tuple, a coordinate or a
/// by-mode tiler, `None` or `kute._` CuTe's `_`); a `TypeError` for an object
/// of another type, `KuteError` for a string that does not evaluate or a tuple
/// past kute's limits.
pub fn to_value(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    value_at(obj, 0)
}

/// Python objects as values.
pub fn to_values(args: &Bound<'_, PyTuple>) -> PyResult<Vec<Value>> {
    args.iter().map(|a| to_value(&a)).collect()
}

/// [`to_value`] of an object `depth` tuples deep in the argument (bounded as
/// kute bounds the nesting of what it parses: no recursion without end).
fn value_at(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<Value> {
    if let Ok(l) = obj.cast::<PyLayout>() {
        return Ok(Value::Layout((*l.get().inner).clone()));
    }
    if let Ok(t) = obj.cast::<PyIntTuple>() {
        return Ok(Value::IntTuple(t.get().inner.clone()));
    }
    if let Ok(t) = obj.cast::<PyTiler>() {
        return Ok(Value::Tiler(t.get().inner.clone()));
    }
    if let Ok(v) = obj.cast::<PyValue>() {
        return Ok(v.get().inner.clone());
    }
    if let Ok(s) = obj.cast::<PySwizzle>() {
        return Ok(Value::Swizzle(s.get().inner));
    }
    if obj.is_none() || obj.cast::<PyUnderscore>().is_ok() {
        return Ok(Value::Underscore);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(kute::Bool { value: b.is_true(), is_static: false }));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return expr::eval(&s.to_cow()?).map_err(kerr);
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        if let Some(it) = int_tuple_fast(obj)? {
            return Ok(Value::IntTuple(it));
        }
        return tuple_value(t.len(), t.iter(), depth);
    }
    if let Ok(t) = obj.cast::<PyList>() {
        return tuple_value(t.len(), t.iter(), depth);
    }
    if obj.cast::<PyInt>().is_ok() {
        // (an OverflowError past 64 bits)
        return Ok(Value::IntTuple(IntTuple::int_dynamic(obj.extract::<i64>()?)));
    }
    if is_sympy(obj)? {
        return Ok(Value::IntTuple(IntTuple::leaf(sympy_int(obj, depth)?)));
    }
    Err(PyTypeError::new_err(format!(
        "kute takes layouts, integer tuples, tilers, swizzles, ints, sympy expressions, tuples, strings \
         (expressions) and None/kute._; got {}",
        obj.get_type().name()?
    )))
}

/// A Python sequence of `len` items, `depth` deep, as one tuple value.
fn tuple_value<'py>(len: usize, items: impl Iterator<Item = Bound<'py, PyAny>>, depth: usize) -> PyResult<Value> {
    let max_depth = kute::limits::MAX_DEPTH + 8;
    if depth >= max_depth {
        return Err(KuteError::new_err(format!("a tuple nested deeper than {max_depth} levels")));
    }
    if len > kute::limits::MAX_RANK {
        return Err(KuteError::new_err(format!(
            "a tuple of {len} elements (at most {} are taken)",
            kute::limits::MAX_RANK
        )));
    }
    let vals = items.map(|x| value_at(&x, depth + 1)).collect::<PyResult<Vec<_>>>()?;
    Value::tuple(vals).map_err(kerr)
}

/// `obj` as an exact `T` (an int, a tuple), without the error object, and the
/// reference counting of the type in it, that a failed `cast_exact` makes
/// (the walks below test most objects for two types).
#[inline(always)]
fn exact<'a, 'py, T: pyo3::PyTypeInfo>(obj: Borrowed<'a, 'py, PyAny>) -> Option<Borrowed<'a, 'py, T>> {
    if obj.is_exact_instance_of::<T>() {
        obj.cast_exact::<T>().ok()
    } else {
        None
    }
}

/// Why [`int_tuple_fast`] or [`layout_fast`] stopped.
enum Stop {
    /// It did not (an error is kute's).
    None,
    /// Not a plain int or tuple of them (the general path decides).
    Other,
    /// A Python error (an int past 64 bits).
    Py(PyErr),
    /// Past one of kute's limits.
    Limit(String),
}

/// A plain Python int, or nested tuples of ints, as a dynamic integer tuple,
/// without going through values: `None` when `obj` holds anything else (a
/// list, a string, a layout, a sympy expression), for the general path.
///
/// Pre: none. Post: the tuple; an `OverflowError` for an int past 64 bits,
/// `KuteError` past kute's limits (depth, rank, leaves).
pub fn int_tuple_fast(obj: &Bound<'_, PyAny>) -> PyResult<Option<IntTuple>> {
    if let Some(i) = exact::<PyInt>(obj.as_borrowed()) {
        return Ok(Some(IntTuple::int_dynamic(i.extract::<i64>()?)));
    }
    let mut stop = Stop::Other;
    let built = IntTuple::try_build(|b| {
        walk(b, obj.as_borrowed(), 0, &mut stop).map_err(|()| kute::Error::new(kute::ErrorKind::Type, "", ""))
    });
    match (built, stop) {
        (Ok(t), _) => Ok(Some(t)),
        (Err(_), Stop::Other | Stop::None) => Ok(None),
        (Err(_), Stop::Py(e)) => Err(e),
        (Err(_), Stop::Limit(m)) => Err(KuteError::new_err(m)),
    }
}

/// Adds `obj` (an int or a tuple of them) to the tree being built.
fn walk(
    b: &mut kute::tree::Builder<'_, Int>,
    obj: Borrowed<'_, '_, PyAny>,
    depth: usize,
    stop: &mut Stop,
) -> Result<(), ()> {
    if let Some(i) = exact::<PyInt>(obj) {
        match i.extract::<i64>() {
            Ok(v) => {
                b.leaf(Int::new_dynamic(v));
                return Ok(());
            }
            Err(e) => {
                *stop = Stop::Py(e);
                return Err(());
            }
        }
    }
    let Some(t) = exact::<PyTuple>(obj) else {
        return Err(());
    };
    if depth >= kute::limits::MAX_DEPTH {
        *stop = Stop::Limit(format!("a tuple nested deeper than {} levels", kute::limits::MAX_DEPTH));
        return Err(());
    }
    if t.len() > kute::limits::MAX_RANK {
        *stop = Stop::Limit(format!("a tuple of {} elements (at most {} are taken)", t.len(), kute::limits::MAX_RANK));
        return Err(());
    }
    b.open();
    for x in t.iter_borrowed() {
        walk(b, x, depth + 1, stop)?;
    }
    b.close();
    Ok(())
}

/// The strides of a layout made from Python ints and tuples.
#[derive(Clone, Copy)]
pub enum Strides<'a, 'py> {
    /// Given, congruent to the shape.
    Given(&'a Bound<'py, PyAny>),
    /// Compact column-major, the first one this integer (CuTe's `make_layout(shape)`
    /// starts at a static 1, pycute's `prefix_product` at a dynamic one).
    Compact(Int),
}

/// A layout of plain Python ints and tuples, built in one pass without going
/// through values or integer tuples, on the heap where the Python object will
/// keep it (no copy of the layout): `None` when the operands hold anything
/// else, or are not congruent (the general path decides, and says why).
///
/// Pre: none. Post: the layout; an `OverflowError` for an int past 64 bits,
/// `KuteError` past kute's limits or for a negative extent.
pub fn layout_fast(shape: &Bound<'_, PyAny>, strides: Strides<'_, '_>) -> PyResult<Option<LayoutBox>> {
    let mut stop = Stop::None;
    let mut l = LayoutBox::storage();
    let built = l.try_build_modes_in(|b| {
        let r = match strides {
            Strides::Given(d) => walk2(b, shape.as_borrowed(), d.as_borrowed(), 0, &mut stop),
            Strides::Compact(first) => walk_compact(b, shape.as_borrowed(), 0, &mut Some(first), &mut stop),
        };
        r.map_err(|()| kute::Error::new(kute::ErrorKind::Type, "", ""))
    });
    match (built, stop) {
        (Ok(()), _) => Ok(Some(l)),
        (Err(e), Stop::None) => Err(kerr(e)),
        (Err(_), Stop::Other) => Ok(None),
        (Err(_), Stop::Py(e)) => Err(e),
        (Err(_), Stop::Limit(m)) => Err(KuteError::new_err(m)),
    }
}

/// The tuple limits of [`walk`]: `Err` (and `stop` set) past them.
#[inline(always)]
fn tuple_limits(n: usize, depth: usize, stop: &mut Stop) -> Result<(), ()> {
    if depth >= kute::limits::MAX_DEPTH || n > kute::limits::MAX_RANK {
        return past_limits(n, depth, stop);
    }
    Ok(())
}

#[cold]
#[inline(never)]
fn past_limits(n: usize, depth: usize, stop: &mut Stop) -> Result<(), ()> {
    *stop = if depth >= kute::limits::MAX_DEPTH {
        Stop::Limit(format!("a tuple nested deeper than {} levels", kute::limits::MAX_DEPTH))
    } else {
        Stop::Limit(format!("a tuple of {n} elements (at most {} are taken)", kute::limits::MAX_RANK))
    };
    Err(())
}

/// An int's value, or `Err` with `stop` set.
fn int_value(i: &Borrowed<'_, '_, PyInt>, stop: &mut Stop) -> Result<i64, ()> {
    match crate::capi::int_value(i) {
        Some(v) => Ok(v),
        // past 64 bits: PyO3's OverflowError
        None => i.extract::<i64>().map_err(|e| *stop = Stop::Py(e)),
    }
}

/// Adds the mode `s:d` to the layout being built where `s` is an int: `None`
/// where it is not (a tuple, for [`walk2`]).
#[inline(always)]
fn leaf2(
    b: &mut kute::tree::Builder<'_, kute::Mode>,
    s: Borrowed<'_, '_, PyAny>,
    d: Borrowed<'_, '_, PyAny>,
    stop: &mut Stop,
) -> Option<Result<(), ()>> {
    let si = exact::<PyInt>(s)?;
    let Some(di) = exact::<PyInt>(d) else {
        *stop = Stop::Other;
        return Some(Err(()));
    };
    Some(int_value(&si, stop).and_then(|x| {
        let y = int_value(&di, stop)?;
        b.leaf(kute::Mode::new(Int::new_dynamic(x), Int::new_dynamic(y)));
        Ok(())
    }))
}

/// Adds the modes of `s:d` (ints, or tuples of them alike) to the layout being
/// built (a leaf of a tuple is added in the loop, without a call of its own).
fn walk2(
    b: &mut kute::tree::Builder<'_, kute::Mode>,
    s: Borrowed<'_, '_, PyAny>,
    d: Borrowed<'_, '_, PyAny>,
    depth: usize,
    stop: &mut Stop,
) -> Result<(), ()> {
    let other = |stop: &mut Stop| {
        *stop = Stop::Other;
        Err(())
    };
    if let Some(r) = leaf2(b, s, d, stop) {
        return r;
    }
    let (Some(st), Some(dt)) = (exact::<PyTuple>(s), exact::<PyTuple>(d)) else {
        return other(stop);
    };
    let n = st.len();
    if n != dt.len() {
        return other(stop);
    }
    tuple_limits(n, depth, stop)?;
    b.open();
    for (x, y) in st.iter_borrowed().zip(dt.iter_borrowed()) {
        match leaf2(b, x, y, stop) {
            Some(r) => r?,
            None => walk2(b, x, y, depth + 1, stop)?,
        }
    }
    b.close();
    Ok(())
}

/// Adds the modes of shape `s` with compact column-major strides, the next
/// one `next` (`None` past 64 bits: then only if no mode needs it).
fn walk_compact(
    b: &mut kute::tree::Builder<'_, kute::Mode>,
    s: Borrowed<'_, '_, PyAny>,
    depth: usize,
    next: &mut Option<Int>,
    stop: &mut Stop,
) -> Result<(), ()> {
    if let Some(si) = exact::<PyInt>(s) {
        let x = Int::new_dynamic(int_value(&si, stop)?);
        let Some(d) = *next else {
            *stop = Stop::Other;
            return Err(());
        };
        b.leaf(kute::Mode::new(x, d));
        *next = d.mul(x).ok();
        return Ok(());
    }
    let Some(st) = exact::<PyTuple>(s) else {
        *stop = Stop::Other;
        return Err(());
    };
    tuple_limits(st.len(), depth, stop)?;
    b.open();
    for x in st.iter_borrowed() {
        walk_compact(b, x, depth + 1, next, stop)?;
    }
    b.close();
    Ok(())
}

/// Whether `obj` is a sympy object (its type is defined in a sympy module).
fn is_sympy(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    let module: String = obj.get_type().getattr("__module__")?.extract().unwrap_or_default();
    Ok(module == "sympy" || module.starts_with("sympy."))
}

/// The kute unknown of each sympy symbol name, made once per process, so that
/// the same sympy symbol is the same unknown in every call.
fn sympy_unknown(name: &str, even: bool) -> PyResult<kute::sym::Sym> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static MADE: OnceLock<Mutex<HashMap<(String, bool), kute::sym::Sym>>> = OnceLock::new();
    let mut made = MADE.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner());
    if let Some(s) = made.get(&(name.to_string(), even)) {
        return Ok(s.clone());
    }
    let s = kute::sym::Sym::var_div(name, if even { 2 } else { 1 }).map_err(kerr)?;
    made.insert((name.to_string(), even), s.clone());
    Ok(s)
}

/// A sympy integer expression as a kute integer: a symbol is an unknown
/// positive integer (a multiple of 2 when declared `even`), and sums,
/// products, powers with a non-negative integer exponent, exact quotients
/// by integers, `ceiling` of a quotient and `Min` are kute's arithmetic.
fn sympy_int(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<Int> {
    if depth > kute::limits::MAX_DEPTH {
        return Err(KuteError::new_err("a sympy expression nested too deeply"));
    }
    let is = |what: &str| -> PyResult<bool> { obj.getattr(what)?.extract::<bool>() };
    let args =
        || -> PyResult<Vec<Int>> { obj.getattr("args")?.try_iter()?.map(|a| sympy_int(&a?, depth + 1)).collect() };
    let fold = |op: fn(Int, Int) -> kute::Result<Int>, unit: i64| -> PyResult<Int> {
        args()?.into_iter().try_fold(Int::new_dynamic(unit), |a, b| op(a, b).map_err(kerr))
    };
    if is("is_Integer")? {
        return Ok(Int::new_dynamic(obj.call_method0("__int__")?.extract::<i64>()?));
    }
    if is("is_Symbol")? {
        let name: String = obj.getattr("name")?.extract()?;
        let even = obj.getattr("is_even")?.extract::<Option<bool>>()? == Some(true);
        return Int::symbolic(sympy_unknown(&name, even)?).map_err(kerr);
    }
    if is("is_Add")? {
        return fold(Int::add, 0);
    }
    let function: String = obj.getattr("func")?.getattr("__name__")?.extract().unwrap_or_default();
    if function == "Min" {
        // kute's min(x,c) where the facts do not order an unknown and an integer
        let mut xs = args()?.into_iter();
        let first = xs.next().ok_or_else(|| PyTypeError::new_err("Min() of nothing"))?;
        return xs.try_fold(first, |a, b| a.min_symbolic(b)).map_err(kerr);
    }
    if is("is_Mul")? || is("is_Rational")? || function == "ceiling" {
        // p/q: the numerator and the denominator, divided exactly (or rounded up)
        let inner = if function == "ceiling" { obj.getattr("args")?.get_item(0)? } else { obj.clone() };
        let parts = inner.call_method0("as_numer_denom")?;
        let (p, q) = (parts.get_item(0)?, parts.get_item(1)?);
        let q_int = sympy_int(&q, depth + 1)?;
        if q_int.to_sym().as_const() != Some(1) {
            let p = sympy_int(&p, depth + 1)?;
            let r = if function == "ceiling" { p.ceil_div(q_int) } else { p.div(q_int) };
            return r.map_err(kerr);
        }
        if function == "ceiling" {
            return sympy_int(&p, depth + 1);
        }
        return fold(Int::mul, 1);
    }
    if is("is_Pow")? {
        let base = sympy_int(&obj.getattr("base")?, depth + 1)?;
        let exp = obj.getattr("exp")?;
        let exp: Option<u32> = match exp.getattr("is_Integer")?.extract::<bool>()? {
            true => exp.call_method0("__int__")?.extract().ok(),
            false => None,
        };
        if let Some(e) = exp.filter(|&e| e <= 64) {
            return (0..e).try_fold(Int::new_dynamic(1), |a, _| a.mul(base)).map_err(kerr);
        }
    }
    Err(PyTypeError::new_err(format!(
        "kute reads sympy integers, symbols, sums, products, integer powers, exact quotients, ceiling and Min; not {}",
        obj.str()?
    )))
}

/// A value as a Python object of kute's types: a `Layout`, `IntTuple`,
/// `Tiler`, `Swizzle`, `bool`, `kute._`, or a `Value` for every other kind.
/// What `kute.eval` answers (an `IntTuple` keeps its static marks).
///
/// Pre: none. Post: the object (an error only if Python cannot allocate it).
pub fn from_value(py: Python<'_>, v: Value) -> PyResult<Py<PyAny>> {
    Ok(match v {
        Value::Layout(inner) => PyLayout::wrap(py, inner)?,
        Value::IntTuple(inner) => Py::new(py, PyIntTuple { inner })?.into_any(),
        Value::Tiler(inner) => Py::new(py, PyTiler { inner })?.into_any(),
        Value::Swizzle(inner) => Py::new(py, PySwizzle { inner })?.into_any(),
        Value::Bool(b) => PyBool::new(py, b.value).to_owned().into_any().unbind(),
        Value::Underscore => Py::new(py, PyUnderscore)?.into_any(),
        inner => Py::new(py, PyValue { inner })?.into_any(),
    })
}

/// A value as plain Python where Python has it: an integer tuple without
/// unknowns as an `int` or nested `tuple`s of ints, a tuple of values as a
/// `tuple`; the other kinds as [`from_value`] gives them. What the module
/// functions (`kute.size`, `kute.shape`, ...) answer.
///
/// Pre: none. Post: the object.
pub fn to_py(py: Python<'_>, v: Value) -> PyResult<Py<PyAny>> {
    match v {
        Value::IntTuple(t) => Ok(int_tuple_py(py, t.as_ref())?.unbind()),
        Value::Tuple(vs) => {
            let items = vs.into_iter().map(|x| to_py(py, x)).collect::<PyResult<Vec<_>>>()?;
            Ok(PyTuple::new(py, items)?.into_any().unbind())
        }
        other => from_value(py, other),
    }
}

/// An integer tuple as plain Python (an int or nested tuples of ints; an
/// unknown stays a kute integer, an `IntTuple`).
pub fn int_tuple_py<'py>(py: Python<'py>, t: kute::int_tuple::IntTupleRef<'_>) -> PyResult<Bound<'py, PyAny>> {
    match t.as_leaf() {
        Some(n) if n.is_symbolic() => {
            Ok(Py::new(py, PyIntTuple { inner: IntTuple::leaf(n) })?.into_bound(py).into_any())
        }
        Some(n) => Ok(n.value().into_pyobject(py)?.into_any()),
        None => {
            let items = t.children().map(|c| int_tuple_py(py, c)).collect::<PyResult<Vec<_>>>()?;
            Ok(PyTuple::new(py, items)?.into_any())
        }
    }
}

/// The result of evaluating a layout at a point: a Python `int` for an
/// integer, else the value.
pub fn from_point(py: Python<'_>, v: Value) -> PyResult<Py<PyAny>> {
    match &v {
        Value::IntTuple(t) if t.is_leaf() && !t.has_symbols() => {
            Ok(t.leaves()[0].value().into_pyobject(py)?.into_any().unbind())
        }
        _ => to_py(py, v),
    }
}

/// `l` at `crd` where `crd` is a coordinate of `l`'s own shape (a tuple for
/// each tuple, a Python int (exactly) within the extent for each leaf) and `l`'s integers
/// are known: the sum of the coordinates times the strides, which pycute's
/// `crd2idx` and kute's evaluation both answer. `None` for anything else
/// (1-D indices, slices, unknowns, a sum past 64 bits), which the general
/// path answers.
pub fn index_within(crd: &Bound<'_, PyAny>, l: kute::LayoutView<'_>) -> Option<i64> {
    if l.is_leaf() {
        let m = l.leaves().first()?;
        let d = m.stride.as_int().filter(|d| !d.is_symbolic() && !m.shape.is_symbolic())?;
        let c = crate::capi::int_value(&crd.cast_exact::<PyInt>().ok()?.as_borrowed())?;
        return (0..m.shape.value()).contains(&c).then(|| c.checked_mul(d.value())).flatten();
    }
    let t = crd.cast::<PyTuple>().ok()?;
    if t.len() != l.rank() {
        return None;
    }
    let mut sum = 0i64;
    for (c, m) in t.iter_borrowed().zip(l.modes()) {
        sum = sum.checked_add(index_within(&c, m)?)?;
    }
    Some(sum)
}

/// An integer as a Python int (an unknown stays an `IntTuple`).
pub fn int(py: Python<'_>, r: kute::Result<Int>) -> PyResult<Py<PyAny>> {
    let x = r.map_err(kerr)?;
    if x.is_symbolic() {
        // a symbol stays a kute integer (its expression prints, and it takes part in layouts)
        return Ok(Py::new(py, PyIntTuple { inner: IntTuple::leaf(x) })?.into_any());
    }
    Ok(x.value().into_pyobject(py)?.into_any().unbind())
}
