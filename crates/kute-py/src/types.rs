//! The Python classes of kute's values: `Layout`, `IntTuple`, `Tiler`,
//! `Swizzle`, `Value` and `_`, and the exception `KuteError`.

use crate::convert::{from_point, int, int_tuple_py, layout_fast, to_py, to_value, to_values, Strides};
use kute::expr::{self, Value};
use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString, PyTuple};
use std::hash::{Hash, Hasher};

create_exception!(
    kute,
    KuteError,
    PyValueError,
    "An error of kute (an invalid expression, an operation CuTe refuses or would answer wrongly, a limit \
     exceeded); the message is kute's own."
);

/// A kute error as the Python exception `kute.KuteError`, with kute's message.
pub fn kerr(e: kute::Error) -> PyErr {
    KuteError::new_err(e.to_string())
}

/// A hash of a value's printed form (equal values print the same).
pub fn hash_of(x: &impl std::fmt::Display) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    x.to_string().hash(&mut h);
    h.finish()
}

/// Python's index `i` (negative from the end) into `n` modes, or `IndexError`.
pub fn index(i: isize, n: usize) -> PyResult<usize> {
    let j = if i < 0 { i + n as isize } else { i };
    if j < 0 || j as usize >= n {
        return Err(PyIndexError::new_err(format!("mode {i} out of range: rank {n}")));
    }
    Ok(j as usize)
}

/// `kute.Layout`: a CuTe layout `shape:stride`.
///
/// `Layout((4,8), (8,1))`, `Layout((4,8))` (compact column-major strides, as
/// CuTe's `make_layout`) or `Layout("(4,8):(8,1)")` (any expression whose
/// value is a layout or a shape). Python ints are run-time integers; write
/// `"_8"` (a string) for a static one.
#[pyclass(module = "kute", name = "Layout", frozen, subclass)]
#[derive(Clone)]
pub struct PyLayout {
    /// The layout, on the heap ([`LayoutBox`]).
    pub inner: LayoutBox,
}

/// A layout on the heap, for a Python object: a layout holds up to 16
/// leaves inline (hundreds of bytes), and each move of one into or out of a
/// Python object would copy all of them. The storage of the layouts Python
/// has let go of is kept for the next ones (up to [`LayoutBox::KEPT`] per
/// thread), so that a new one is no allocation, and copying a layout in
/// copies only the leaves it has.
pub struct LayoutBox(Option<Box<kute::Layout>>);

thread_local! {
    /// The storage [`LayoutBox`] keeps for the next layouts (the boxes
    /// themselves: each is handed to a new object as it is).
    #[allow(clippy::vec_box)]
    static KEPT: std::cell::RefCell<Vec<Box<kute::Layout>>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl LayoutBox {
    /// How many boxes each thread keeps.
    pub const KEPT: usize = 64;

    /// Storage for a layout: a kept box (holding some layout), else a new one.
    #[inline]
    pub fn storage() -> LayoutBox {
        let kept = KEPT.try_with(|k| k.borrow_mut().pop()).ok().flatten();
        LayoutBox(Some(kept.unwrap_or_else(|| Box::new(kute::Layout::unit()))))
    }

    /// A copy of `l` (only the leaves and tokens it has are copied).
    #[inline]
    pub fn copy_of(l: &kute::Layout) -> LayoutBox {
        let mut b = LayoutBox::storage();
        kute::Layout::clone_from(&mut b, l);
        b
    }
}

impl std::ops::Deref for LayoutBox {
    type Target = kute::Layout;

    #[inline(always)]
    fn deref(&self) -> &kute::Layout {
        // (None only while dropped)
        self.0.as_deref().unwrap_or(&UNIT)
    }
}

impl std::ops::DerefMut for LayoutBox {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut kute::Layout {
        self.0.get_or_insert_with(|| Box::new(kute::Layout::unit()))
    }
}

impl std::fmt::Display for LayoutBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&**self, f)
    }
}

impl PartialEq for LayoutBox {
    fn eq(&self, other: &LayoutBox) -> bool {
        **self == **other
    }
}

impl Clone for LayoutBox {
    fn clone(&self) -> LayoutBox {
        LayoutBox::copy_of(self)
    }
}

impl Drop for LayoutBox {
    fn drop(&mut self) {
        if let Some(b) = self.0.take() {
            // (nothing kept while the thread's storage is being torn down)
            let _ = KEPT.try_with(|k| {
                let mut k = k.borrow_mut();
                if k.len() < LayoutBox::KEPT {
                    k.push(b);
                }
            });
        }
    }
}

/// What an emptied [`LayoutBox`] reads as.
static UNIT: std::sync::LazyLock<kute::Layout> = std::sync::LazyLock::new(kute::Layout::unit);

/// `kute.IntTuple`: an integer or a nested tuple of integers (a shape, a
/// stride, a coordinate), static (`_8`) or dynamic (`8`), as `kute.eval`
/// answers it.
#[pyclass(module = "kute", name = "IntTuple", frozen)]
#[derive(Clone)]
pub struct PyIntTuple {
    /// The tuple.
    pub inner: kute::IntTuple,
}

/// `kute.Tiler`: the right operand of composition, the divides and the
/// products: a layout, `_`, or a by-mode tuple `<T0,T1,...>`.
#[pyclass(module = "kute", name = "Tiler", frozen)]
#[derive(Clone)]
pub struct PyTiler {
    /// The tiler.
    pub inner: kute::Tiler,
}

/// `kute.Swizzle(bits, base, shift)`: CuTe's `Swizzle<B,M,S>`, the function
/// `x ^ ((x & yyy_mask) >> shift)`.
#[pyclass(module = "kute", name = "Swizzle", frozen, subclass)]
#[derive(Clone)]
pub struct PySwizzle {
    /// The swizzle.
    pub inner: kute::Swizzle,
}

/// `kute.Value`: any other value of kute's expression language (a
/// coordinate with `_`, basis strides, a composed layout, an atom, a tensor,
/// a tuple of mixed values), printed as kute prints it. It can be passed back
/// to kute's functions; a tuple value is also a Python sequence.
#[pyclass(module = "kute", name = "Value", frozen)]
#[derive(Clone)]
pub struct PyValue {
    /// The value.
    pub inner: Value,
}

/// `kute._`: CuTe's `_` (Underscore), for slicing (`layout(kute._, 1)`; `None`
/// works as well) and for by-mode tilers.
#[pyclass(module = "kute", name = "Underscore", frozen)]
pub struct PyUnderscore;

impl PyLayout {
    /// A layout as a new `kute.Layout`.
    #[inline(always)]
    pub fn wrap(py: Python<'_>, inner: kute::Layout) -> PyResult<Py<PyAny>> {
        PyLayout::wrap_ref(py, &inner)
    }

    /// A copy of a layout as a new `kute.Layout`.
    #[inline]
    pub fn wrap_ref(py: Python<'_>, inner: &kute::Layout) -> PyResult<Py<PyAny>> {
        Ok(Py::new(py, PyLayout { inner: LayoutBox::copy_of(inner) })?.into_any())
    }

    /// A layout as the (not yet Python) object.
    #[inline(always)]
    pub fn of(inner: kute::Layout) -> PyLayout {
        PyLayout { inner: LayoutBox::copy_of(&inner) }
    }

    /// The layout of Python ints and tuples, without going through values
    /// (`None` for other operands); no stride: CuTe's `make_layout(shape)`.
    pub fn fast(shape: &Bound<'_, PyAny>, stride: Option<&Bound<'_, PyAny>>) -> PyResult<Option<LayoutBox>> {
        let strides = match stride {
            Some(d) => Strides::Given(d),
            None => Strides::Compact(kute::Int::ONE),
        };
        layout_fast(shape, strides)
    }
}

#[cfg(not(feature = "abi3"))]
impl crate::capi::FastNew for PyLayout {
    fn fast_layout(shape: &Bound<'_, PyAny>, stride: Option<&Bound<'_, PyAny>>) -> PyResult<Option<LayoutBox>> {
        PyLayout::fast(shape, stride)
    }

    fn new_object(py: Python<'_>, inner: LayoutBox) -> PyResult<Py<PyAny>> {
        Ok(Py::new(py, PyLayout { inner })?.into_any())
    }
}

#[pymethods]
impl PyLayout {
    #[new]
    #[pyo3(signature = (shape, stride = None))]
    fn new(shape: &Bound<'_, PyAny>, stride: Option<&Bound<'_, PyAny>>) -> PyResult<PyLayout> {
        if let Some(inner) = PyLayout::fast(shape, stride)? {
            return Ok(PyLayout { inner });
        }
        if let Ok(l) = shape.cast::<PyLayout>()
            && stride.is_none()
        {
            return Ok(PyLayout { inner: l.get().inner.clone() });
        }
        if let (Ok(s), None) = (shape.cast::<PyString>(), stride) {
            return Ok(PyLayout::of(expr::parse_layout(&s.to_cow()?).map_err(kerr)?));
        }
        let mut args = vec![to_value(shape)?];
        if let Some(d) = stride {
            args.push(to_value(d)?);
        }
        match expr::call("make_layout", &[], &args).map_err(kerr)? {
            Value::Layout(inner) => Ok(PyLayout::of(inner)),
            other => Err(KuteError::new_err(format!("Layout: the arguments make {}, not a layout", other.kind_name()))),
        }
    }

    /// The shape: a Python int or nested tuple of ints (`kute.eval("shape(L)",
    /// L=L)` keeps the static marks).
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        int_tuple_py(py, self.inner.shape().as_ref())
    }

    /// The stride: a Python int or nested tuple of ints, or a `Value` for
    /// basis strides (`_1@0`).
    #[getter]
    fn stride(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, expr::call("stride", &[], &[Value::Layout((*self.inner).clone())]).map_err(kerr)?)
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
        kute::print::table(&*self.inner).map_err(kerr)
    }

    /// CuTe's `print_latex` (a TikZ picture).
    fn latex(&self) -> PyResult<String> {
        kute::print::latex(&*self.inner).map_err(kerr)
    }

    /// kute's SVG drawing of the layout.
    fn svg(&self) -> PyResult<String> {
        kute::print::svg(&*self.inner).map_err(kerr)
    }

    /// Jupyter: the SVG drawing (`None` where kute cannot draw the layout).
    fn _repr_svg_(&self) -> Option<String> {
        kute::print::svg(&*self.inner).ok()
    }

    /// Jupyter: CuTe's `print_latex` (`None` where kute cannot draw the layout).
    fn _repr_latex_(&self) -> Option<String> {
        kute::print::latex(&*self.inner).ok()
    }

    /// `L(i)`, `L(i, j)`, `L((i, (j, k)))`: the index at a coordinate (an
    /// int); with `None` or `kute._` in the coordinate, the slice (a Layout).
    #[pyo3(signature = (*args))]
    fn __call__(&self, py: Python<'_>, args: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
        let crd = if args.len() == 1 { args.get_item(0)? } else { args.clone().into_any() };
        if let Some(i) = crate::convert::index_within(&crd, self.inner.view()) {
            return Ok(i.into_pyobject(py)?.into_any().unbind());
        }
        from_point(py, self.apply(args)?)
    }

    /// Mode `i` (negative counts from the end).
    fn __getitem__(&self, i: isize) -> PyResult<PyLayout> {
        let i = index(i, self.inner.rank())?;
        Ok(PyLayout::of(self.inner.mode(i).map_err(kerr)?))
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
        hash_of(&*self.inner)
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String,))> {
        Ok((py.get_type::<PyLayout>().into_any().unbind(), (self.inner.to_string(),)))
    }
}

impl PyLayout {
    /// The layout at a coordinate (a negative integer in it is an `IndexError`).
    pub fn apply(&self, args: &Bound<'_, PyTuple>) -> PyResult<Value> {
        // the common case: one int
        if args.len() == 1
            && let Ok(i) = args.get_item(0)?.cast_exact::<pyo3::types::PyInt>()
        {
            let i: i64 = i.extract()?;
            if i >= 0 && self.inner.has_int_strides() && !self.inner.has_symbols() {
                return Ok(Value::IntTuple(kute::IntTuple::int_dynamic(self.inner.eval(i).map_err(kerr)?)));
            }
        }
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
        expr::apply(&Value::Layout((*self.inner).clone()), &vals).map_err(kerr)
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
                return Ok(PyTiler { inner: kute::Tiler::Layout((*l.get().inner).clone()) });
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
impl PySwizzle {
    /// `Swizzle(bits, base, shift)`: CuTe's `Swizzle<B,M,S>` (`B, M >= 0`,
    /// `|S| >= B`, else `KuteError`).
    #[new]
    fn new(bits: i64, base: i64, shift: i64) -> PyResult<PySwizzle> {
        // (past 62 bits the masks cannot exist; kute's check adds the three)
        if bits > 62 || base > 62 || shift.unsigned_abs() > 62 {
            return Err(KuteError::new_err(format!(
                "Swizzle: Swizzle<{bits},{base},{shift}>: the masks reach past bit 62"
            )));
        }
        Ok(PySwizzle { inner: kute::Swizzle::new(bits, base, shift).map_err(kerr)? })
    }

    /// `B`, the number of bits xored.
    #[getter]
    fn bits(&self) -> i32 {
        self.inner.bits()
    }

    /// `M`, the number of low bits left alone.
    #[getter]
    fn base(&self) -> i32 {
        self.inner.base()
    }

    /// `S`, how far the Y bits move onto the Z bits (right when positive).
    #[getter]
    fn shift(&self) -> i32 {
        self.inner.shift()
    }

    /// The mask of the bits read (`YYY`).
    #[getter]
    fn yyy_msk(&self) -> i64 {
        self.inner.yyy_mask()
    }

    /// The mask of the bits changed (`ZZZ`).
    #[getter]
    fn zzz_msk(&self) -> i64 {
        self.inner.zzz_mask()
    }

    /// The swizzled offset (an int), or the composed layout of the swizzle
    /// applied to a layout's values.
    fn __call__(&self, py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        if let Ok(i) = x.cast_exact::<pyo3::types::PyInt>() {
            let i: i64 = i.extract()?;
            return Ok(self.inner.apply(i).into_pyobject(py)?.into_any().unbind());
        }
        to_py(py, expr::apply(&Value::Swizzle(self.inner), &[to_value(x)?]).map_err(kerr)?)
    }

    /// The size of the domain, `2^(B+M+|S|)`.
    fn size(&self) -> i64 {
        1i64 << (self.inner.bits() + self.inner.base() + self.inner.shift().abs())
    }

    /// The size of the codomain (the domain's).
    fn cosize(&self) -> i64 {
        self.size()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Swizzle({},{},{})", self.inner.bits(), self.inner.base(), self.inner.shift())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PySwizzle>().is_ok_and(|o| o.get().inner == self.inner)
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.inner)
    }

    fn __reduce__(slf: &Bound<'_, Self>) -> (Py<PyAny>, (i32, i32, i32)) {
        let sw = slf.get().inner;
        (slf.get_type().into_any().unbind(), (sw.bits(), sw.base(), sw.shift()))
    }
}

#[pymethods]
impl PyValue {
    /// `Value("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)")`: the value of an
    /// expression, whatever its kind.
    #[new]
    fn new(src: &str) -> PyResult<PyValue> {
        Ok(PyValue { inner: expr::eval(src).map_err(kerr)? })
    }

    /// The kind of value, as kute's error messages name it (`"a swizzle"`).
    #[getter]
    fn kind(&self) -> &'static str {
        self.inner.kind_name()
    }

    /// `C(i)`, `C(i, j)`: a composed layout or tensor at a coordinate.
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

    /// Element `i` of a tuple value.
    fn __getitem__(&self, py: Python<'_>, i: isize) -> PyResult<Py<PyAny>> {
        match &self.inner {
            Value::Tuple(vs) => to_py(py, vs[index(i, vs.len())?].clone()),
            other => Err(PyTypeError::new_err(format!("{} is not subscriptable", other.kind_name()))),
        }
    }

    /// Jupyter: the SVG drawing of a composed layout, tiled MMA or tiled copy
    /// (`None` for other values); an MMA or a copy of more than 4096 cells is
    /// drawn compactly, as `kute svg` draws it (a notebook keeps it small).
    fn _repr_svg_(&self) -> Option<String> {
        match &self.inner {
            Value::Composed(c) => kute::print::svg(&**c).ok(),
            Value::TiledMma(m) => kute::print::svg_mma_auto(m).ok(),
            Value::TiledCopy(c) => kute::print::svg_copy_auto(c).ok(),
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
