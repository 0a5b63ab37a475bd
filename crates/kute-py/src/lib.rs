//! # kute-py — kute's layout algebra for Python
//!
//! The native part of the Python package `kute` (built with maturin:
//! `pip install ./crates/kute-py`). It wraps kute's own types and functions,
//! so that Python gets CuTe's answers exactly as the `kute` command prints them:
//!
//! - [`PyLayout`] (`kute.Layout`), [`PyIntTuple`] (`kute.IntTuple`),
//!   [`PyTiler`] (`kute.Tiler`) and [`PyValue`] (`kute.Value`, every other
//!   kind of value of the expression language: coordinates, swizzles, composed
//!   layouts, atoms, tuples of mixed values);
//! - `kute.eval(text)`, the expression language ([`kute::expr::eval`]);
//! - `kute.call(name, *args, targs=())`, every function of the expression
//!   language by its CuTe name ([`kute::expr::call`]); the Python part of the
//!   package (`python/kute/__init__.py`) makes one module function of each
//!   (`kute.logical_divide(a, b)`, ...), so that there is one implementation;
//! - `kute.KuteError` (a `ValueError`), raised with kute's message for every
//!   error of kute: nothing a user passes makes this module panic.
//!
//! Python values convert to kute's as CuTe's C++ integers would: a Python
//! `int` is a run-time (dynamic) integer, a `str` is evaluated as an
//! expression (`"_8"` is a static 8, `"(4,8):(8,1)"` a layout), a `tuple` or
//! `list` is an integer tuple, a coordinate (with `None` or `kute._` for `_`)
//! or a by-mode tiler (with layouts in it).

#![warn(missing_docs)]
#![forbid(unsafe_code)]

use kute::expr::{self, Value};
use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyList, PyString, PyTuple};
use std::hash::{Hash, Hasher};

create_exception!(
    kute,
    KuteError,
    PyValueError,
    "An error of kute (an invalid expression, an operation CuTe refuses or would answer wrongly, a limit \
     exceeded); the message is kute's own."
);

/// A kute error as the Python exception `kute.KuteError`, with kute's message.
fn kerr(e: kute::Error) -> PyErr {
    KuteError::new_err(e.to_string())
}

/// `kute.Layout`: a CuTe layout `shape:stride`.
///
/// `Layout((4,8), (8,1))`, `Layout((4,8))` (compact column-major strides, as
/// CuTe's `make_layout`) or `Layout("(4,8):(8,1)")` (any expression whose
/// value is a layout or a shape). Python ints are run-time integers; write
/// `"_8"` (a string) for a static one.
#[pyclass(module = "kute", name = "Layout", frozen)]
#[derive(Clone)]
pub struct PyLayout {
    inner: kute::Layout,
}

/// `kute.IntTuple`: an integer or a nested tuple of integers (a shape, a
/// stride, a coordinate), static (`_8`) or dynamic (`8`).
#[pyclass(module = "kute", name = "IntTuple", frozen)]
#[derive(Clone)]
pub struct PyIntTuple {
    inner: kute::IntTuple,
}

/// `kute.Tiler`: the right operand of composition, the divides and the
/// products: a layout, `_`, or a by-mode tuple `<T0,T1,...>`.
#[pyclass(module = "kute", name = "Tiler", frozen)]
#[derive(Clone)]
pub struct PyTiler {
    inner: kute::Tiler,
}

/// `kute.Value`: any other value of kute's expression language (a
/// coordinate with `_`, basis strides, a swizzle, a composed layout, an atom,
/// a tensor, a tuple of mixed values), printed as kute prints it. It can be
/// passed back to kute's functions; a tuple value is also a Python sequence.
#[pyclass(module = "kute", name = "Value", frozen)]
#[derive(Clone)]
pub struct PyValue {
    inner: Value,
}

/// `kute._`: CuTe's `_` (Underscore), for slicing (`layout(kute._, 1)`; `None`
/// works as well) and for by-mode tilers.
#[pyclass(module = "kute", name = "Underscore", frozen)]
pub struct PyUnderscore;

/// A Python object as a value of the expression language.
///
/// Pre: none. Post: the value (see the module documentation), a `TypeError`
/// for an object of another type, `KuteError` for a string that does not
/// evaluate or a tuple past kute's limits.
pub fn to_value(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    value_at(obj, 0)
}

/// [`to_value`] of an object `depth` tuples deep in the argument (bounded as
/// kute bounds the nesting of what it parses: no recursion without end).
fn value_at(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<Value> {
    if let Ok(l) = obj.cast::<PyLayout>() {
        return Ok(Value::Layout(l.get().inner.clone()));
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
        return tuple_value(t.len(), t.iter(), depth);
    }
    if let Ok(t) = obj.cast::<PyList>() {
        return tuple_value(t.len(), t.iter(), depth);
    }
    if obj.cast::<PyInt>().is_ok() {
        // (an OverflowError past 64 bits)
        return Ok(Value::IntTuple(kute::IntTuple::int_dynamic(obj.extract::<i64>()?)));
    }
    if is_sympy(obj)? {
        return Ok(Value::IntTuple(kute::IntTuple::leaf(sympy_int(obj, depth)?)));
    }
    Err(PyTypeError::new_err(format!(
        "kute takes layouts, integer tuples, tilers, ints, sympy expressions, tuples, strings (expressions) and \
         None/kute._; got {}",
        obj.get_type().name()?
    )))
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
/// by integers and `ceiling` of a quotient are kute's arithmetic.
fn sympy_int(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<kute::Int> {
    if depth > kute::limits::MAX_DEPTH {
        return Err(KuteError::new_err("a sympy expression nested too deeply"));
    }
    let is = |what: &str| -> PyResult<bool> { obj.getattr(what)?.extract::<bool>() };
    let args = || -> PyResult<Vec<kute::Int>> {
        obj.getattr("args")?.try_iter()?.map(|a| sympy_int(&a?, depth + 1)).collect()
    };
    let fold = |op: fn(kute::Int, kute::Int) -> kute::Result<kute::Int>, unit: i64| -> PyResult<kute::Int> {
        args()?.into_iter().try_fold(kute::Int::new_dynamic(unit), |a, b| op(a, b).map_err(kerr))
    };
    if is("is_Integer")? {
        return Ok(kute::Int::new_dynamic(obj.call_method0("__int__")?.extract::<i64>()?));
    }
    if is("is_Symbol")? {
        let name: String = obj.getattr("name")?.extract()?;
        let even = obj.getattr("is_even")?.extract::<Option<bool>>()? == Some(true);
        return kute::Int::symbolic(sympy_unknown(&name, even)?).map_err(kerr);
    }
    if is("is_Add")? {
        return fold(kute::Int::add, 0);
    }
    let function: String = obj.getattr("func")?.getattr("__name__")?.extract().unwrap_or_default();
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
        return fold(kute::Int::mul, 1);
    }
    if is("is_Pow")? {
        let base = sympy_int(&obj.getattr("base")?, depth + 1)?;
        let exp = obj.getattr("exp")?;
        let exp: Option<u32> = match exp.getattr("is_Integer")?.extract::<bool>()? {
            true => exp.call_method0("__int__")?.extract().ok(),
            false => None,
        };
        if let Some(e) = exp.filter(|&e| e <= 64) {
            return (0..e).try_fold(kute::Int::new_dynamic(1), |a, _| a.mul(base)).map_err(kerr);
        }
    }
    Err(PyTypeError::new_err(format!(
        "kute reads sympy integers, symbols, sums, products, integer powers, exact quotients and ceiling; not {}",
        obj.str()?
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

/// Python objects as values.
fn to_values(args: &Bound<'_, PyTuple>) -> PyResult<Vec<Value>> {
    args.iter().map(|a| to_value(&a)).collect()
}

/// A value as a Python object: a `Layout`, `IntTuple`, `Tiler`, `bool`,
/// `kute._`, or a `Value` for every other kind.
///
/// Pre: none. Post: the object (an error only if Python cannot allocate it).
pub fn from_value(py: Python<'_>, v: Value) -> PyResult<Py<PyAny>> {
    Ok(match v {
        Value::Layout(inner) => Py::new(py, PyLayout { inner })?.into_any(),
        Value::IntTuple(inner) => Py::new(py, PyIntTuple { inner })?.into_any(),
        Value::Tiler(inner) => Py::new(py, PyTiler { inner })?.into_any(),
        Value::Bool(b) => PyBool::new(py, b.value).to_owned().into_any().unbind(),
        Value::Underscore => Py::new(py, PyUnderscore)?.into_any(),
        inner => Py::new(py, PyValue { inner })?.into_any(),
    })
}

/// The result of evaluating a layout at a point: a Python `int` for an
/// integer, else the value.
fn from_point(py: Python<'_>, v: Value) -> PyResult<Py<PyAny>> {
    match &v {
        Value::IntTuple(t) if t.is_leaf() && !t.has_symbols() => {
            Ok(t.leaves()[0].value().into_pyobject(py)?.into_any().unbind())
        }
        _ => from_value(py, v),
    }
}

/// A hash of a value's printed form (equal values print the same).
fn hash_of(x: &impl std::fmt::Display) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    x.to_string().hash(&mut h);
    h.finish()
}

/// Python's index `i` (negative from the end) into `n` modes, or `IndexError`.
fn index(i: isize, n: usize) -> PyResult<usize> {
    let j = if i < 0 { i + n as isize } else { i };
    if j < 0 || j as usize >= n {
        return Err(PyIndexError::new_err(format!("mode {i} out of range: rank {n}")));
    }
    Ok(j as usize)
}

/// An integer as a Python int.
fn int(py: Python<'_>, r: kute::Result<kute::Int>) -> PyResult<Py<PyAny>> {
    let x = r.map_err(kerr)?;
    if x.is_symbolic() {
        // a symbol stays a kute integer (its expression prints, and it takes part in layouts)
        return Ok(Py::new(py, PyIntTuple { inner: kute::IntTuple::leaf(x) })?.into_any());
    }
    Ok(x.value().into_pyobject(py)?.into_any().unbind())
}

#[pymethods]
impl PyLayout {
    #[new]
    #[pyo3(signature = (shape, stride = None))]
    fn new(shape: &Bound<'_, PyAny>, stride: Option<&Bound<'_, PyAny>>) -> PyResult<PyLayout> {
        if let Ok(l) = shape.cast::<PyLayout>()
            && stride.is_none()
        {
            return Ok(l.get().clone());
        }
        if let (Ok(s), None) = (shape.cast::<PyString>(), stride) {
            return Ok(PyLayout { inner: expr::parse_layout(&s.to_cow()?).map_err(kerr)? });
        }
        let mut args = vec![to_value(shape)?];
        if let Some(d) = stride {
            args.push(to_value(d)?);
        }
        match expr::call("make_layout", &[], &args).map_err(kerr)? {
            Value::Layout(inner) => Ok(PyLayout { inner }),
            other => Err(KuteError::new_err(format!("Layout: the arguments make {}, not a layout", other.kind_name()))),
        }
    }

    /// The shape, an `IntTuple`.
    #[getter]
    fn shape(&self) -> PyIntTuple {
        PyIntTuple { inner: self.inner.shape() }
    }

    /// The stride: an `IntTuple`, or a `Value` for basis strides (`_1@0`).
    #[getter]
    fn stride(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        from_value(py, expr::call("stride", &[], &[Value::Layout(self.inner.clone())]).map_err(kerr)?)
    }

    /// The size (the product of the shape), an int.
    fn size(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        int(py, self.inner.size())
    }

    /// The cosize (one past the largest index), an int.
    fn cosize(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        int(py, self.inner.cosize())
    }

    /// The number of top-level modes.
    fn rank(&self) -> usize {
        self.inner.rank()
    }

    /// The nesting depth (0 for an integer shape).
    fn depth(&self) -> usize {
        self.inner.depth()
    }

    /// Whether every integer of the layout is static.
    fn is_static(&self) -> bool {
        self.inner.is_static()
    }

    /// CuTe's `print_layout` table (rank 1 or 2).
    fn table(&self) -> PyResult<String> {
        kute::print::table(&self.inner).map_err(kerr)
    }

    /// CuTe's `print_latex` (a TikZ picture).
    fn latex(&self) -> PyResult<String> {
        kute::print::latex(&self.inner).map_err(kerr)
    }

    /// kute's SVG drawing of the layout.
    fn svg(&self) -> PyResult<String> {
        kute::print::svg(&self.inner).map_err(kerr)
    }

    /// Jupyter: the SVG drawing (`None` where kute cannot draw the layout).
    fn _repr_svg_(&self) -> Option<String> {
        kute::print::svg(&self.inner).ok()
    }

    /// Jupyter: CuTe's `print_latex` (`None` where kute cannot draw the layout).
    fn _repr_latex_(&self) -> Option<String> {
        kute::print::latex(&self.inner).ok()
    }

    /// `L(i)`, `L(i, j)`, `L((i, (j, k)))`: the index at a coordinate (an
    /// int); with `None` or `kute._` in the coordinate, the slice (a Layout).
    #[pyo3(signature = (*args))]
    fn __call__(&self, py: Python<'_>, args: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
        let vals = to_values(args)?;
        // Python counts a negative index from the end; CuTe does not: refuse it
        let negative = |v: &Value| match v {
            Value::IntTuple(t) => t.leaves().iter().find(|x| !x.is_symbolic() && x.value() < 0).copied(),
            _ => None,
        };
        if let Some(x) = vals.iter().find_map(negative) {
            return Err(PyIndexError::new_err(format!(
                "{}: the coordinate {x} is negative; a layout does not count from the end (its last index is \
                 size - 1)",
                self.inner
            )));
        }
        from_point(py, expr::apply(&Value::Layout(self.inner.clone()), &vals).map_err(kerr)?)
    }

    /// Mode `i` (negative counts from the end).
    fn __getitem__(&self, i: isize) -> PyResult<PyLayout> {
        let i = index(i, self.inner.rank())?;
        Ok(PyLayout { inner: self.inner.mode(i).map_err(kerr)? })
    }

    fn __len__(&self) -> usize {
        self.inner.rank()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Layout('{}')", self.inner)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyLayout>().is_ok_and(|o| o.get().inner == self.inner)
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.inner)
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String,))> {
        Ok((py.get_type::<PyLayout>().into_any().unbind(), (self.inner.to_string(),)))
    }
}

/// An integer tuple as plain Python (an int or nested tuples of ints).
fn int_tuple_py<'py>(py: Python<'py>, t: kute::int_tuple::IntTupleRef<'_>) -> PyResult<Bound<'py, PyAny>> {
    match t.as_leaf() {
        Some(n) if n.is_symbolic() => {
            Ok(Py::new(py, PyIntTuple { inner: kute::IntTuple::leaf(n) })?.into_bound(py).into_any())
        }
        Some(n) => Ok(n.value().into_pyobject(py)?.into_any()),
        None => {
            let items = t.children().map(|c| int_tuple_py(py, c)).collect::<PyResult<Vec<_>>>()?;
            Ok(PyTuple::new(py, items)?.into_any())
        }
    }
}

#[pymethods]
impl PyIntTuple {
    #[new]
    fn new(x: &Bound<'_, PyAny>) -> PyResult<PyIntTuple> {
        match to_value(x)? {
            Value::IntTuple(inner) => Ok(PyIntTuple { inner }),
            other => Err(KuteError::new_err(format!(
                "IntTuple: the argument is {}, not an integer tuple",
                other.kind_name()
            ))),
        }
    }

    /// The plain Python value: an int, or nested tuples of ints.
    #[getter]
    fn value<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        int_tuple_py(py, self.inner.as_ref())
    }

    /// The product of the integers, an int.
    fn size(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        int(py, self.inner.size())
    }

    /// The number of top-level modes (1 for an integer).
    fn rank(&self) -> usize {
        self.inner.rank()
    }

    /// The nesting depth (0 for an integer).
    fn depth(&self) -> usize {
        self.inner.depth()
    }

    /// Whether every integer is static.
    fn is_static(&self) -> bool {
        self.inner.is_static()
    }

    /// Whether this is a single integer.
    fn is_int(&self) -> bool {
        self.inner.is_leaf()
    }

    fn __index__(&self) -> PyResult<i64> {
        match self.inner.as_int() {
            Some(n) if n.is_symbolic() => {
                Err(PyTypeError::new_err(format!("{} is symbolic: kute.substitute gives it a value", self.inner)))
            }
            Some(n) => Ok(n.value()),
            None => Err(PyTypeError::new_err(format!("{} is a tuple, not an integer", self.inner))),
        }
    }

    fn __int__(&self) -> PyResult<i64> {
        self.__index__()
    }

    fn __len__(&self) -> usize {
        self.inner.rank()
    }

    /// Mode `i` (negative counts from the end); an integer's mode 0 is itself.
    fn __getitem__(&self, i: isize) -> PyResult<PyIntTuple> {
        let i = index(i, self.inner.rank())?;
        if self.inner.is_leaf() {
            return Ok(self.clone());
        }
        Ok(PyIntTuple { inner: self.inner.get(i).map_err(kerr)? })
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("IntTuple('{}')", self.inner)
    }

    /// Equal to an `IntTuple` of the same structure and integers (static and
    /// dynamic alike), or to the plain Python int/tuple of the same values.
    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        if let Ok(o) = other.cast::<PyIntTuple>() {
            return Ok(o.get().inner == self.inner);
        }
        if other.cast::<PyBool>().is_ok() {
            return Ok(false);
        }
        self.value(py)?.eq(other)
    }

    /// The hash of the plain Python value (consistent with `==` on ints and tuples).
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        self.value(py)?.hash()
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String,))> {
        Ok((py.get_type::<PyIntTuple>().into_any().unbind(), (self.inner.to_string(),)))
    }
}

#[pymethods]
impl PyTiler {
    /// `Tiler("<4:1,_>")`, `Tiler(layout)`, or `Tiler(t0, t1, ...)`, the
    /// by-mode tiler `<t0,t1,...>` (each a layout, an int, a tuple or `None`).
    #[new]
    #[pyo3(signature = (*modes))]
    fn new(modes: &Bound<'_, PyTuple>) -> PyResult<PyTiler> {
        if modes.len() == 1 {
            let m = modes.get_item(0)?;
            if let Ok(s) = m.cast::<PyString>() {
                return Ok(PyTiler { inner: expr::parse_tiler(&s.to_cow()?).map_err(kerr)? });
            }
            if let Ok(l) = m.cast::<PyLayout>() {
                return Ok(PyTiler { inner: kute::Tiler::Layout(l.get().inner.clone()) });
            }
        }
        match expr::call("make_tile", &[], &to_values(modes)?).map_err(kerr)? {
            Value::Tiler(inner) => Ok(PyTiler { inner }),
            other => Err(KuteError::new_err(format!("Tiler: the arguments make {}, not a tiler", other.kind_name()))),
        }
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Tiler('{}')", self.inner)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyTiler>().is_ok_and(|o| o.get().inner == self.inner)
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.inner)
    }
}

#[pymethods]
impl PyValue {
    /// `Value("Sw<3,4,3>")`: the value of an expression, whatever its kind.
    #[new]
    fn new(src: &str) -> PyResult<PyValue> {
        Ok(PyValue { inner: expr::eval(src).map_err(kerr)? })
    }

    /// The kind of value, as kute's error messages name it (`"a swizzle"`).
    #[getter]
    fn kind(&self) -> &'static str {
        self.inner.kind_name()
    }

    /// `C(i)`, `C(i, j)`: a swizzle, composed layout or tensor at a coordinate.
    #[pyo3(signature = (*args))]
    fn __call__(&self, py: Python<'_>, args: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
        from_point(py, expr::apply(&self.inner, &to_values(args)?).map_err(kerr)?)
    }

    /// The number of elements of a tuple value (`TypeError` for another kind).
    fn __len__(&self) -> PyResult<usize> {
        match &self.inner {
            Value::Tuple(vs) => Ok(vs.len()),
            other => Err(PyTypeError::new_err(format!("{} has no len()", other.kind_name()))),
        }
    }

    /// Element `i` of a tuple value, converted as `kute.eval` converts.
    fn __getitem__(&self, py: Python<'_>, i: isize) -> PyResult<Py<PyAny>> {
        match &self.inner {
            Value::Tuple(vs) => from_value(py, vs[index(i, vs.len())?].clone()),
            other => Err(PyTypeError::new_err(format!("{} is not subscriptable", other.kind_name()))),
        }
    }

    /// Jupyter: the SVG drawing of a swizzle, composed layout, tiled MMA or
    /// tiled copy (`None` for other values).
    fn _repr_svg_(&self) -> Option<String> {
        match &self.inner {
            Value::Composed(c) => kute::print::svg(&**c).ok(),
            Value::TiledMma(m) => kute::print::svg_mma(m).ok(),
            Value::TiledCopy(c) => kute::print::svg_copy(c).ok(),
            _ => None,
        }
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Value('{}')", self.inner)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyValue>().is_ok_and(|o| o.get().inner == self.inner)
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.inner)
    }
}

#[pymethods]
impl PyUnderscore {
    fn __repr__(&self) -> &'static str {
        "_"
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyUnderscore>().is_ok()
    }

    fn __hash__(&self) -> u64 {
        0x5f
    }
}

/// `kute.eval(text, **names)`: the value of an expression of kute's
/// language, as a `Layout`, `IntTuple`, `Tiler`, `bool` or `Value`; the
/// keyword arguments are names the text may use (`M=kute.sym("M", div=128)`).
#[pyfunction]
#[pyo3(signature = (src, **names))]
fn eval(py: Python<'_>, src: &str, names: Option<&Bound<'_, pyo3::types::PyDict>>) -> PyResult<Py<PyAny>> {
    let mut env = expr::Env::new();
    if let Some(names) = names {
        for (k, v) in names.iter() {
            env.insert(k.extract::<String>()?, to_value(&v)?);
        }
    }
    from_value(py, expr::eval_in(src, &env).map_err(kerr)?)
}

/// `kute.sym(name, div=1, min=1, ne=())`: an unknown positive integer named
/// `name`, a multiple of `div` (CuTe DSL's `?{div=N}`), at least `min`, and
/// unequal to each of `ne` (ints or other unknowns): an `IntTuple` that
/// layouts, tuples and expressions take as an extent or stride.
#[pyfunction]
#[pyo3(signature = (name, div = 1, min = 1, ne = Vec::new()))]
fn sym(py: Python<'_>, name: &str, div: i64, min: i64, ne: Vec<Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
    let ne = ne
        .iter()
        .map(|x| match to_value(x)? {
            Value::IntTuple(t) if t.is_leaf() => Ok(t.leaves()[0].to_sym()),
            v => Err(PyTypeError::new_err(format!("ne takes integers and unknowns, not {v}"))),
        })
        .collect::<PyResult<Vec<_>>>()?;
    let facts = kute::sym::Facts { div, min, ne };
    let s = kute::sym::Sym::unknown_with(Some(name), facts).map_err(kerr)?;
    from_value(py, Value::IntTuple(kute::IntTuple::leaf(kute::Int::symbolic(s).map_err(kerr)?)))
}

/// `kute.substitute(value, values)`: the value with integers put in for its
/// unknowns (`values` a dict from names to ints).
#[pyfunction]
fn substitute(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    values: &Bound<'_, pyo3::types::PyDict>,
) -> PyResult<Py<PyAny>> {
    let mut v = kute::sym::Valuation::new();
    for (k, x) in values.iter() {
        v.set(&k.extract::<String>()?, x.extract::<i64>()?);
    }
    from_value(py, to_value(value)?.substitute(&v).map_err(kerr)?)
}

/// `kute.as_dsl(value)`: the value printed as CuTe DSL prints it (`?`,
/// `?{div=N}`, no static marks).
#[pyfunction]
fn as_dsl(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let v = to_value(value)?;
    Ok(kute::sym::as_dsl(|| v.to_string()))
}

/// `kute.call(name, *args, targs=())`: the function `name` of the expression
/// language (its CuTe name) on the arguments; `targs` are its template
/// arguments (`size<1>(L)` is `call("size", L, targs=(1,))`; element types
/// are given as their widths in bits).
#[pyfunction]
#[pyo3(signature = (name, *args, targs = None))]
fn call(
    py: Python<'_>,
    name: &str,
    args: &Bound<'_, PyTuple>,
    targs: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let targs: Vec<i64> = match targs {
        None => Vec::new(),
        Some(t) => match t.extract::<i64>() {
            Ok(n) => vec![n],
            Err(_) => t.extract::<Vec<i64>>()?,
        },
    };
    from_value(py, expr::call(name, &targs, &to_values(args)?).map_err(kerr)?)
}

/// A direct path to one of kute's algebra functions, taken when the operands
/// are `Layout`s (no conversion, no lookup): the function the expression
/// language calls for layouts, so the answers and messages are the same.
#[derive(Clone, Copy)]
enum Direct {
    /// `f(L)`.
    Unary(fn(&kute::Layout) -> kute::Result<kute::Layout>),
    /// `f(A, B)`.
    Binary(fn(&kute::Layout, &kute::Layout) -> kute::Result<kute::Layout>),
    /// `f(A, M)`, `M` an integer tuple: a Python int or tuple of ints, an
    /// `IntTuple`, or a layout's shape (as the expression language reads it).
    Cotarget(fn(&kute::Layout, &kute::IntTuple) -> kute::Result<kute::Layout>),
}

/// `name(*args)`: `direct` on layouts, else the expression language's function.
fn direct_call(
    py: Python<'_>,
    name: &str,
    direct: Direct,
    args: &Bound<'_, PyTuple>,
    targs: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    if targs.is_none() {
        let items: Vec<Bound<'_, PyAny>> = args.iter().collect();
        let layouts: Vec<&Bound<'_, PyLayout>> = items.iter().filter_map(|x| x.cast::<PyLayout>().ok()).collect();
        let out = match (direct, items.len(), layouts.len()) {
            (Direct::Unary(f), 1, 1) => Some(f(&layouts[0].get().inner)),
            (Direct::Binary(f), 2, 2) => Some(f(&layouts[0].get().inner, &layouts[1].get().inner)),
            (Direct::Cotarget(f), 2, _) if items[0].cast::<PyLayout>().is_ok() => {
                let a = &layouts[0].get().inner;
                let m = &items[1];
                match m.cast::<PyLayout>() {
                    Ok(l) => Some(f(a, &l.get().inner.shape())),
                    _ => match m.cast::<PyIntTuple>() {
                        Ok(t) => Some(f(a, &t.get().inner)),
                        _ => {
                            if m.cast::<PyInt>().is_ok() {
                                Some(f(a, &kute::IntTuple::int_dynamic(m.extract::<i64>()?)))
                            } else {
                                None
                            }
                        }
                    },
                }
            }
            _ => None,
        };
        if let Some(r) = out {
            return Ok(Py::new(py, PyLayout { inner: r.map_err(kerr)? })?.into_any());
        }
    }
    call(py, name, args, targs)
}

macro_rules! direct {
    ($($name:ident: $kind:ident($f:expr), $doc:literal;)*) => {
        $(
            #[doc = $doc]
            #[doc = ""]
            #[doc = "Any operands the expression language takes (tilers, shapes, strings); template arguments as `targs=`."]
            #[pyfunction]
            #[pyo3(signature = (*args, targs = None))]
            fn $name(py: Python<'_>, args: &Bound<'_, PyTuple>, targs: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
                direct_call(py, stringify!($name), Direct::$kind($f), args, targs)
            }
        )*
        /// Adds the functions with a direct path to the module.
        fn add_direct(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $(m.add_function(wrap_pyfunction!($name, m)?)?;)*
            Ok(())
        }
    };
}

direct! {
    coalesce: Unary(kute::coalesce), "coalesce(L[, profile]): the fewest modes with the same function (CuTe's coalesce).";
    right_inverse: Unary(kute::right_inverse), "right_inverse(L): R with L(R(i)) = i (CuTe's right_inverse).";
    left_inverse: Unary(kute::left_inverse), "left_inverse(L): R with R(L(i)) = i (CuTe's left_inverse).";
    composition: Binary(kute::composition), "composition(A, B): R(c) = A(B(c)); B a layout, a shape or a tiler.";
    complement: Cotarget(|a, m| kute::complement(a, m)), "complement(A[, M]): the layout filling A's gaps up to M.";
    logical_divide: Binary(kute::logical_divide), "logical_divide(A, T): A o (T, complement(T)): (tile, rest).";
    zipped_divide: Binary(kute::zipped_divide), "zipped_divide(A, T): ((tile), (rest)).";
    tiled_divide: Binary(kute::tiled_divide), "tiled_divide(A, T): ((tile), rest...).";
    flat_divide: Binary(kute::flat_divide), "flat_divide(A, T): (tile..., rest...).";
    logical_product: Binary(kute::logical_product), "logical_product(A, B): (A, complement(A) o B).";
    zipped_product: Binary(kute::zipped_product), "zipped_product(A, B): ((A), (rest)).";
    tiled_product: Binary(kute::tiled_product), "tiled_product(A, B): ((A), rest...).";
    flat_product: Binary(kute::flat_product), "flat_product(A, B): (A..., rest...).";
    blocked_product: Binary(kute::blocked_product), "blocked_product(A, B): B repeats block A, mode by mode.";
    raked_product: Binary(kute::raked_product), "raked_product(A, B): A's elements interleaved by B, mode by mode.";
}

/// `kute.functions()`: every function of the expression language, as
/// `(name, aliases, signature, summary)` (what `kute functions` lists).
#[pyfunction]
fn functions() -> Vec<(&'static str, Vec<&'static str>, &'static str, &'static str)> {
    expr::FUNCTIONS.iter().map(|f| (f.name, f.aliases.to_vec(), f.signature, f.summary)).collect()
}

/// Whether every integer written in the expression `src` is static (`_8`),
/// as the shared vector files tell exact answers from by-value ones.
#[pyfunction]
fn _all_static(src: &str) -> PyResult<bool> {
    use kute::expr::{Expr, ExprKind};
    fn all(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Int { is_static, .. } => *is_static,
            ExprKind::Underscore | ExprKind::Name(_) => true,
            ExprKind::Tuple(xs) | ExprKind::Tile(xs) => xs.iter().all(all),
            ExprKind::Layout(a, b) => all(a) && all(b),
            ExprKind::Call { args, .. } => args.iter().all(all),
            ExprKind::Apply(f, args) => all(f) && args.iter().all(all),
            ExprKind::Basis { is_static, .. } => *is_static,
            ExprKind::Composed(a, o, b) => all(a) && all(o) && all(b),
            _ => false,
        }
    }
    Ok(all(&expr::parse(src).map_err(kerr)?))
}

/// The native module `kute._kute` (re-exported by the package `kute`).
#[pymodule]
fn _kute(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyLayout>()?;
    m.add_class::<PyIntTuple>()?;
    m.add_class::<PyTiler>()?;
    m.add_class::<PyValue>()?;
    m.add_class::<PyUnderscore>()?;
    m.add("_", PyUnderscore)?;
    m.add("KuteError", m.py().get_type::<KuteError>())?;
    m.add_function(wrap_pyfunction!(eval, m)?)?;
    m.add_function(wrap_pyfunction!(sym, m)?)?;
    m.add_function(wrap_pyfunction!(substitute, m)?)?;
    m.add_function(wrap_pyfunction!(as_dsl, m)?)?;
    m.add_function(wrap_pyfunction!(call, m)?)?;
    m.add_function(wrap_pyfunction!(functions, m)?)?;
    m.add_function(wrap_pyfunction!(_all_static, m)?)?;
    add_direct(m)?;
    Ok(())
}
