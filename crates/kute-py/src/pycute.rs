//! `kute.pycute`: pycute's API (NVIDIA's pure-Python CuTe, the `pycute`
//! package of the `nvidia-cutlass` wheel) answered by kute.
//!
//! The native part: the class `kute.pycute.Layout` (a `kute.Layout` that
//! prints, compares and slices as pycute's does), the layout algebra with
//! pycute's argument conventions (`None`, an int, a tuple of tilers or a
//! layout as the right operand) and pycute's integer-tuple functions. Each
//! answer is pycute's where pycute's is the true one, and an error saying why
//! where it is not (`pycute_alg`). The Python part
//! (`python/kute/pycute/`) adds `Swizzle`, `ComposedLayout`, `LayoutBase`
//! and the small predicates.

use crate::build::{push_view, push_view_dynamic};
use crate::convert::{int_tuple_fast, layout_fast, Strides};
use crate::pycute_alg::{self as alg, Fail};
use crate::pycute_fmt::{layout_repr, layout_text};
use crate::types::{kerr, KuteError, LayoutBox, PyLayout};
use kute::{Int, IntTuple, Layout};
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PySlice, PyTuple};
use pyo3::PyClassInitializer;
use smallvec::SmallVec;

/// A failure of the algebra as a Python exception (`kute.KuteError`).
fn perr(f: Fail) -> PyErr {
    match f {
        Fail::Pycute(m) => KuteError::new_err(m),
        Fail::Kute(e) => kerr(e),
    }
}

/// `kute.pycute.Layout(shape, stride=None)`: pycute's `Layout`, a
/// `kute.Layout` that prints as pycute prints (`(4, 8):(8, 1)`), compares by
/// value and slices as pycute slices. No stride: pycute's `prefix_product`
/// of the shape (column-major).
#[pyclass(extends = PyLayout, module = "kute.pycute", name = "Layout", frozen, subclass)]
pub struct PcLayout;

impl PcLayout {
    /// A layout as a new `kute.pycute.Layout`.
    #[inline(always)]
    pub fn wrap(py: Python<'_>, inner: Layout) -> PyResult<Py<PyAny>> {
        PcLayout::wrap_ref(py, &inner)
    }

    /// The layout `build` makes in the storage of a new `kute.pycute.Layout`.
    #[inline]
    pub fn wrap_built(py: Python<'_>, build: impl FnOnce(&mut Layout) -> alg::R<()>) -> PyResult<Py<PyAny>> {
        let mut inner = LayoutBox::storage();
        build(&mut inner).map_err(perr)?;
        Ok(Py::new(py, PyClassInitializer::from(PyLayout { inner }).add_subclass(PcLayout))?.into_any())
    }

    /// The layout built in `inner` (its storage, [`crate::types::LayoutBox::storage`])
    /// as a new `kute.pycute.Layout`.
    #[inline]
    pub fn wrap_box(py: Python<'_>, inner: LayoutBox) -> PyResult<Py<PyAny>> {
        Ok(Py::new(py, PyClassInitializer::from(PyLayout { inner }).add_subclass(PcLayout))?.into_any())
    }

    /// The layout of Python ints and tuples, without going through values
    /// (`None` for other operands); no stride: pycute's `prefix_product` of the
    /// shape (compact from a dynamic 1).
    pub fn fast(shape: &Bound<'_, PyAny>, stride: Option<&Bound<'_, PyAny>>) -> PyResult<Option<LayoutBox>> {
        let strides = match stride {
            Some(d) => Strides::Given(d),
            None => Strides::Compact(Int::new_dynamic(1)),
        };
        layout_fast(shape, strides)
    }

    /// A copy of a layout as a new `kute.pycute.Layout`.
    #[inline]
    pub fn wrap_ref(py: Python<'_>, inner: &Layout) -> PyResult<Py<PyAny>> {
        let base = PyLayout { inner: crate::types::LayoutBox::copy_of(inner) };
        Ok(Py::new(py, PyClassInitializer::from(base).add_subclass(PcLayout))?.into_any())
    }
}

/// The layout of a Python argument (any `kute.Layout`).
fn layout_arg<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<&'a Layout> {
    match obj.cast::<PyLayout>() {
        Ok(l) => concrete(what, &l.get().inner),
        Err(_) => Err(PyTypeError::new_err(format!("{what} takes a layout, not {}", obj.get_type().name()?))),
    }
}

/// The layout of a Python argument (any `kute.Layout`), unknowns and all:
/// for the functions that answer them.
fn layout_any<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<&'a Layout> {
    match obj.cast::<PyLayout>() {
        Ok(l) => Ok(&l.get().inner),
        Err(_) => Err(PyTypeError::new_err(format!("{what} takes a layout, not {}", obj.get_type().name()?))),
    }
}

/// A layout for pycute's own algorithm, which computes with known integers:
/// one with unknowns is a `TypeError` (the module functions of `kute.pycute`
/// answer such layouts with kute's algebra before they come here).
fn concrete<'a>(what: &str, l: &'a Layout) -> PyResult<&'a Layout> {
    if l.has_symbols() {
        return Err(PyTypeError::new_err(format!(
            "{what}: {} has unknowns, and pycute's algorithm computes with known integers; kute.pycute's \
             algebra (composition, the divides and products, coalesce, complement, the inverses, size, filter, \
             make_layout, slice_and_offset) and kute's own functions answer symbolically, kute.substitute gives the \
             unknowns values",
            l
        )));
    }
    Ok(l)
}

/// pycute's `is_int`: a Python int, not a bool.
fn is_int(obj: &Bound<'_, PyAny>) -> bool {
    obj.is_instance_of::<PyInt>() && !obj.is_instance_of::<PyBool>()
}

/// pycute's `Layout(n)`: `n:1`.
fn int_layout(n: i64) -> PyResult<Layout> {
    Layout::new(IntTuple::int_dynamic(n), IntTuple::int_dynamic(1)).map_err(kerr)
}

#[cfg(not(feature = "abi3"))]
impl crate::capi::FastNew for PcLayout {
    fn fast_layout(shape: &Bound<'_, PyAny>, stride: Option<&Bound<'_, PyAny>>) -> PyResult<Option<LayoutBox>> {
        PcLayout::fast(shape, stride)
    }

    fn new_object(py: Python<'_>, inner: LayoutBox) -> PyResult<Py<PyAny>> {
        PcLayout::wrap_box(py, inner)
    }
}

#[pymethods]
impl PcLayout {
    #[new]
    #[pyo3(signature = (_shape, _stride = None))]
    fn new(_shape: &Bound<'_, PyAny>, _stride: Option<&Bound<'_, PyAny>>) -> PyResult<PyClassInitializer<PcLayout>> {
        let bad = |x: &Bound<'_, PyAny>| -> PyResult<PyErr> {
            Ok(PyTypeError::new_err(format!(
                "kute.pycute.Layout takes Python ints and tuples of them, not {}",
                x.get_type().name()?
            )))
        };
        if let Some(inner) = PcLayout::fast(_shape, _stride)? {
            return Ok(PyClassInitializer::from(PyLayout { inner }).add_subclass(PcLayout));
        }
        // unknowns (kute.sym, sympy symbols): kute's make_layout, which keeps them
        if has_symbols(_shape) || _stride.is_some_and(has_symbols) {
            let mut args = vec![crate::convert::to_value(_shape)?];
            if let Some(d) = _stride {
                args.push(crate::convert::to_value(d)?);
            }
            return match kute::expr::call("make_layout", &[], &args).map_err(kerr)? {
                kute::expr::Value::Layout(l) => Ok(PyClassInitializer::from(PyLayout::of(l)).add_subclass(PcLayout)),
                other => {
                    Err(KuteError::new_err(format!("Layout: the arguments make {}, not a layout", other.kind_name())))
                }
            };
        }
        // not plain ints and tuples, or not congruent: say which
        let (s, d) = match (int_tuple_fast(_shape)?, _stride) {
            (None, _) => return Err(bad(_shape)?),
            (Some(s), None) => {
                return Err(KuteError::new_err(format!("Layout: the prefix products of the shape {s} pass 64 bits")));
            }
            (Some(s), Some(d)) => match int_tuple_fast(d)? {
                Some(d) => (s, d),
                None => return Err(bad(d)?),
            },
        };
        Err(kerr(Layout::new(&s, &d).err().unwrap_or_else(|| {
            kute::Error::new(kute::ErrorKind::Mismatch, "Layout", format!("the stride {d} does not fit the shape {s}"))
        })))
    }

    fn __str__(slf: &Bound<'_, Self>) -> String {
        layout_text(&slf.as_super().get().inner)
    }

    fn __repr__(slf: &Bound<'_, Self>) -> String {
        layout_repr(&slf.as_super().get().inner)
    }

    /// Equal to a layout of the same shape and stride (by value, as pycute
    /// compares Python tuples).
    fn __eq__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyLayout>().is_ok_and(|o| o.get().inner.to_dynamic() == slf.as_super().get().inner.to_dynamic())
    }

    fn __hash__(slf: &Bound<'_, Self>) -> u64 {
        crate::types::hash_of(&slf.as_super().get().inner.to_dynamic())
    }

    /// pycute's `L[i]`: `Layout(shape[i], stride[i])` (an index or a slice of
    /// the modes); a single mode is its own mode 0.
    fn __getitem__(slf: &Bound<'_, Self>, i: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let l = &slf.as_super().get().inner;
        if let Ok(s) = i.cast::<PySlice>() {
            let shape = crate::convert::int_tuple_py(py, l.shape().as_ref())?;
            let stride = crate::convert::int_tuple_py(py, stride_ints(l)?.as_ref())?;
            if l.view().is_leaf() {
                return Err(PyTypeError::new_err("a single mode takes no slice ('int' object is not subscriptable)"));
            }
            let (a, b) = (shape.get_item(s)?, stride.get_item(s)?);
            return PcLayout::wrap(py, pycute_layout(&a, &b)?);
        }
        let k: isize = i.extract()?;
        let n = l.rank() as isize;
        if l.view().is_leaf() {
            if k != 0 {
                return Err(PyIndexError::new_err(format!("mode {k} of the single mode {}", layout_text(l))));
            }
            return PcLayout::wrap(py, (**l).clone());
        }
        let j = if k < 0 { k + n } else { k };
        if j < 0 || j >= n {
            return Err(PyIndexError::new_err(format!("mode {k} out of range: rank {n}")));
        }
        PcLayout::wrap(py, l.mode(j as usize).map_err(kerr)?)
    }

    /// pycute's `L(*coord)`: the index at the coordinate (an int); with
    /// `None` in it, the slice `Layout(slice_(c, shape), slice_(c, stride))`.
    #[pyo3(signature = (*args))]
    fn __call__(slf: &Bound<'_, Self>, args: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let base = slf.as_super().get();
        let crd = if args.len() == 1 { args.get_item(0)? } else { args.clone().into_any() };
        if let Some(i) = crate::convert::index_within(&crd, base.inner.view()) {
            return Ok(i.into_pyobject(py)?.into_any().unbind());
        }
        let slicing = has_none(args.as_any())?;
        if slicing && base.inner.has_symbols() {
            // (an unknown: kute's slice, the same modes)
            return match base.apply(args)? {
                kute::expr::Value::Layout(l) => PcLayout::wrap(py, l),
                other => crate::convert::to_py(py, other),
            };
        }
        if slicing {
            return sliced(py, &crd, &base.inner);
        }
        crate::convert::from_point(py, base.apply(args)?)
    }

    /// pycute's `size()`: the product of the shape.
    fn size(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        size(slf.py(), slf.as_any())
    }

    /// pycute's `cosize()`: `L(size - 1) + 1`.
    fn cosize(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        cosize(slf.py(), slf.as_any())
    }

    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<Reduced> {
        let py = slf.py();
        let l = &slf.as_super().get().inner;
        let shape = crate::convert::int_tuple_py(py, l.shape().as_ref())?.unbind();
        let stride = crate::convert::int_tuple_py(py, stride_ints(l)?.as_ref())?.unbind();
        Ok((slf.get_type().into_any().unbind(), (shape, stride)))
    }
}

/// What `__reduce__` answers: the class and its arguments.
type Reduced = (Py<PyAny>, (Py<PyAny>, Py<PyAny>));

/// The integer strides of `l` (a `TypeError` for basis strides).
fn stride_ints(l: &Layout) -> PyResult<IntTuple> {
    l.stride()
        .try_map(|x| x.as_int().ok_or_else(|| kute::Error::new(kute::ErrorKind::Type, "", "")))
        .map_err(|_| PyTypeError::new_err(format!("{l} has basis strides; pycute's layouts have integer strides")))
}

/// `Layout(shape, stride)` of Python ints and tuples.
fn pycute_layout(s: &Bound<'_, PyAny>, d: &Bound<'_, PyAny>) -> PyResult<Layout> {
    match (int_tuple_fast(s)?, int_tuple_fast(d)?) {
        (Some(s), Some(d)) => Layout::new(&s, &d).map_err(kerr),
        _ => Err(PyTypeError::new_err("a layout of Python ints and tuples")),
    }
}

/// pycute's `has_none(a)`: whether `None` is a leaf of `a`.
fn has_none(a: &Bound<'_, PyAny>) -> PyResult<bool> {
    if let Ok(t) = a.cast::<PyTuple>() {
        for x in t.iter() {
            if has_none(&x)? {
                return Ok(true);
            }
        }
        return Ok(false);
    }
    Ok(a.is_none())
}

/// pycute's `slice_(crd, trg)`: the parts of `trg` where `crd` has `None`.
fn slice_of<'py>(crd: &Bound<'py, PyAny>, trg: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = crd.py();
    let mut out = Vec::new();
    slice_into(crd, trg, &mut out)?;
    Ok(PyTuple::new(py, out)?.into_any())
}

fn slice_into<'py>(crd: &Bound<'py, PyAny>, trg: &Bound<'py, PyAny>, out: &mut Vec<Bound<'py, PyAny>>) -> PyResult<()> {
    if let Ok(c) = crd.cast::<PyTuple>() {
        let Ok(t) = trg.cast::<PyTuple>() else {
            return Err(KuteError::new_err(format!(
                "slice_: the coordinate {} is a tuple where the target is {}",
                crd.repr()?,
                trg.repr()?
            )));
        };
        if c.len() != t.len() {
            return Err(KuteError::new_err(format!(
                "slice_: the coordinate {} and the target {} have different lengths",
                crd.repr()?,
                trg.repr()?
            )));
        }
        for (x, y) in c.iter().zip(t.iter()) {
            slice_into(&x, &y, out)?;
        }
        return Ok(());
    }
    if crd.is_none() {
        out.push(trg.clone());
    }
    Ok(())
}

/// The right operand of pycute's composition, divides and products.
enum Tile<'py> {
    /// `None`: nothing.
    Nothing,
    /// An int `n`: `Layout(n)`.
    Int(i64),
    /// A tuple: by mode.
    Tuple(Vec<Tile<'py>>),
    /// A layout.
    Layout(Bound<'py, PyLayout>),
}

/// The right operand for pycute's algorithm: its layouts concrete (a
/// `TypeError` for unknowns, which the symbolic path answers).
fn tile<'py>(obj: &Bound<'py, PyAny>, depth: usize) -> PyResult<Tile<'py>> {
    tile_in(obj, depth, true)
}

/// The right operand as given, unknowns and all (for a splitter of the caller's).
fn tile_as_given<'py>(obj: &Bound<'py, PyAny>, depth: usize) -> PyResult<Tile<'py>> {
    tile_in(obj, depth, false)
}

fn tile_in<'py>(obj: &Bound<'py, PyAny>, depth: usize, known: bool) -> PyResult<Tile<'py>> {
    if let Ok(l) = obj.cast::<PyLayout>() {
        if known {
            concrete("pycute's right operand", &l.get().inner)?;
        }
        return Ok(Tile::Layout(l.clone()));
    }
    if obj.is_none() {
        return Ok(Tile::Nothing);
    }
    if is_int(obj) {
        return Ok(Tile::Int(obj.extract()?));
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        if depth > kute::limits::MAX_DEPTH {
            return Err(KuteError::new_err("a tiler nested too deeply"));
        }
        return Ok(Tile::Tuple(t.iter().map(|x| tile_in(&x, depth + 1, known)).collect::<PyResult<_>>()?));
    }
    Err(PyTypeError::new_err(format!(
        "pycute's right operand is a layout, an int, a tuple of them or None; not {}",
        obj.get_type().name()?
    )))
}

fn tile_py(py: Python<'_>, t: &Tile<'_>) -> PyResult<Py<PyAny>> {
    Ok(match t {
        Tile::Nothing => py.None(),
        Tile::Int(n) => n.into_pyobject(py)?.into_any().unbind(),
        Tile::Layout(l) => PcLayout::wrap(py, (*l.get().inner).clone())?,
        Tile::Tuple(ts) => {
            PyTuple::new(py, ts.iter().map(|x| tile_py(py, x)).collect::<PyResult<Vec<_>>>()?)?.into_any().unbind()
        }
    })
}

/// pycute's by-mode form: `make_layout(f(A[i], B[i]) for i < len(B), A[i] for the rest)`.
fn by_mode(
    op: &str,
    a: &Layout,
    ts: &[Tile],
    f: &mut dyn FnMut(&Layout, &Tile) -> PyResult<Layout>,
) -> PyResult<Layout> {
    let n = alg::rank(a);
    if n < ts.len() {
        return Err(KuteError::new_err(format!(
            "{op}: pycute's algorithm fails: the tiler has {} modes, the layout {} only {n}",
            ts.len(),
            layout_text(a)
        )));
    }
    let mut parts = Vec::with_capacity(n);
    for (i, t) in ts.iter().enumerate() {
        parts.push(f(&alg::mode(a, i).map_err(perr)?, t)?);
    }
    for i in ts.len()..n {
        parts.push(alg::mode(a, i).map_err(perr)?);
    }
    alg::make_layout(&parts).map_err(perr)
}

/// [`by_mode`] built in `out` (the storage of the Python object that holds
/// the answer): the modes' answers, then the rest of `A`'s modes read in
/// place, with no layout of the whole made on the way.
fn by_mode_in(
    op: &str,
    a: &Layout,
    ts: &[Tile],
    f: &mut dyn FnMut(&Layout, &Tile) -> PyResult<Layout>,
    out: &mut Layout,
) -> PyResult<()> {
    let n = alg::rank(a);
    if n < ts.len() || n == 0 {
        out.clone_from(&by_mode(op, a, ts, f)?);
        return Ok(());
    }
    let mut parts = Vec::with_capacity(ts.len());
    for (i, t) in ts.iter().enumerate() {
        parts.push(f(&alg::mode(a, i).map_err(perr)?, t)?);
    }
    let rest = (ts.len()..n).map(|i| mode_view(a, i)).collect::<PyResult<Vec<_>>>()?;
    out.try_build_modes_in(|b| {
        b.open();
        parts.iter().for_each(|p| push_view(b, p.view()));
        rest.iter().for_each(|v| push_view(b, *v));
        b.close();
        Ok(())
    })
    .map_err(kerr)?;
    if out.depth() > kute::limits::MAX_DEPTH {
        // (too deep: pycute's make_layout's error, as the general path gives it)
        out.clone_from(&by_mode(op, a, ts, f)?);
    }
    Ok(())
}

/// pycute's composition by mode ([`by_mode_in`] with [`composition_t`]) in
/// one pass, built in `out`: each mode of `a` read in place and composed
/// with its tile (a layout, an int or `None`) straight into the answer.
/// `false`, with `out` to be rebuilt, where a tile is a tuple, a
/// composite is not proved to be the true one ([`alg::Composer::holds`]) or
/// pycute's algorithm fails: the checked path answers those, and answers
/// the same as this one elsewhere.
fn composition_by_mode_in(a: &Layout, ts: &[Tile], out: &mut Layout) -> bool {
    let n = alg::rank(a);
    if ts.is_empty() || n < ts.len() {
        return false;
    }
    let unproved = || kute::Error::new(kute::ErrorKind::Inadmissible, "composition", "not proved by mode");
    let mut composer = alg::Composer::default();
    let built = out.try_build_modes_in(|b| {
        b.open();
        for i in 0..n {
            let Ok(m) = mode_view(a, i) else { return Err(unproved()) };
            let int;
            let tile = match ts.get(i) {
                None | Some(Tile::Nothing) => {
                    push_view(b, m);
                    continue;
                }
                Some(Tile::Tuple(_)) => return Err(unproved()),
                Some(Tile::Int(k)) => {
                    int = int_layout(*k).map_err(|_| unproved())?;
                    &int
                }
                Some(Tile::Layout(l)) => &*l.get().inner,
            };
            if !alg::size(tile).is_ok_and(|k| k <= alg::MAX_CHECKED_POINTS) {
                return Err(unproved());
            }
            if composer.start(m).is_err() {
                return Err(unproved());
            }
            let mut fail = None;
            composer.compose(b, tile.view(), &mut fail)?;
            if fail.is_some() || !composer.holds() {
                return Err(unproved());
            }
        }
        b.close();
        Ok(())
    });
    built.is_ok() && out.depth() <= kute::limits::MAX_DEPTH
}

/// pycute's `L[i]` ([`alg::mode`]) as a view: no copy.
fn mode_view(l: &Layout, i: usize) -> PyResult<kute::LayoutView<'_>> {
    let v = l.view();
    let m = if v.is_leaf() { (i == 0).then_some(v) } else { v.mode(i) };
    match m {
        Some(m) => Ok(m),
        None => Err(match alg::mode(l, i) {
            Err(f) => perr(f),
            Ok(_) => KuteError::new_err(format!("mode {i} of {}", layout_text(l))),
        }),
    }
}

fn composition_t(a: &Layout, t: &Tile<'_>) -> PyResult<Layout> {
    match t {
        Tile::Nothing => Ok(a.clone()),
        Tile::Int(n) => alg::composition(a, &int_layout(*n)?).map_err(perr),
        Tile::Tuple(ts) => by_mode("composition", a, ts, &mut composition_t),
        Tile::Layout(b) => alg::composition(a, &b.get().inner).map_err(perr),
    }
}

fn logical_divide_t(a: &Layout, t: &Tile<'_>) -> PyResult<Layout> {
    match t {
        Tile::Nothing => Ok(a.clone()),
        Tile::Int(n) => alg::logical_divide(a, &int_layout(*n)?).map_err(perr),
        Tile::Tuple(ts) => by_mode("logical_divide", a, ts, &mut logical_divide_t),
        Tile::Layout(b) => alg::logical_divide(a, &b.get().inner).map_err(perr),
    }
}

fn logical_product_t(a: &Layout, t: &Tile<'_>) -> PyResult<Layout> {
    match t {
        Tile::Nothing => Ok(a.clone()),
        Tile::Int(n) => {
            // pycute answers logical_divide(A, Layout(n)) here; the product is another layout
            let divide = alg::logical_divide(a, &int_layout(*n)?);
            let product = alg::logical_product(a, &int_layout(*n)?);
            if let (Ok(d), Ok(p)) = (&divide, &product)
                && d.to_dynamic() == p.to_dynamic()
            {
                return Ok(d.clone());
            }
            Err(KuteError::new_err(format!(
                "logical_product: pycute's logical_product(A, {n}) with an int answers logical_divide(A, Layout({n})){}, \
                 not the product{}; write logical_product(A, Layout({n}))",
                divide.as_ref().map(|d| format!(" = {}", layout_text(d))).unwrap_or_default(),
                product.as_ref().map(|p| format!(" {}", layout_text(p))).unwrap_or_default(),
            )))
        }
        Tile::Tuple(ts) => by_mode("logical_product", a, ts, &mut logical_product_t),
        Tile::Layout(b) => alg::logical_product(a, &b.get().inner).map_err(perr),
    }
}

/// The splitter of `hier_unzip`: one of the two of this module, or any
/// Python callable `f(A, B)` answering a rank-2 layout.
enum Splitter<'py> {
    Divide,
    Product,
    Python(Bound<'py, PyAny>),
}

fn split(sp: &Splitter<'_>, a: &Layout, t: &Tile<'_>) -> PyResult<Layout> {
    match sp {
        Splitter::Divide => logical_divide_t(a, t),
        Splitter::Product => logical_product_t(a, t),
        Splitter::Python(f) => {
            let py = f.py();
            let r = f.call1((PcLayout::wrap(py, a.clone())?, tile_py(py, t)?))?;
            layout_any(&r, "hier_unzip's splitter's answer").cloned()
        }
    }
}

/// pycute's `hier_unzip(splitter, A, B)`.
fn hier_unzip_t(sp: &Splitter<'_>, a: &Layout, t: &Tile<'_>) -> PyResult<Layout> {
    match t {
        Tile::Nothing => alg::make_layout(&[alg::flat_layout(&[1], &[0]).map_err(perr)?, a.clone()]).map_err(perr),
        Tile::Tuple(ts) => {
            let n = alg::rank(a);
            if n < ts.len() {
                return Err(KuteError::new_err(format!(
                    "hier_unzip: pycute's algorithm fails: the tiler has {} modes, the layout {} only {n}",
                    ts.len(),
                    layout_text(a)
                )));
            }
            let mut firsts = Vec::with_capacity(ts.len());
            let mut rests = Vec::with_capacity(n);
            for (i, ti) in ts.iter().enumerate() {
                let s = hier_unzip_t(sp, &alg::mode(a, i).map_err(perr)?, ti)?;
                firsts.push(alg::mode(&s, 0).map_err(perr)?);
                rests.push(alg::mode(&s, 1).map_err(perr)?);
            }
            for i in ts.len()..n {
                rests.push(alg::mode(a, i).map_err(perr)?);
            }
            let f = alg::make_layout(&firsts).map_err(perr)?;
            let r = alg::make_layout(&rests).map_err(perr)?;
            alg::make_layout(&[f, r]).map_err(perr)
        }
        _ => split(sp, a, t),
    }
}

/// pycute's `zipped_*` (`tiled` false) or `tiled_*` (`tiled` true) of `A`
/// and the tiler `t`, built in a new object's storage: for a by-mode tiler,
/// `((firsts), (rests))` or `((firsts), rests...)` of the modes' splits read
/// in place (as [`hier_unzip_t`] and [`tiled`] make it, without their
/// intermediate layouts).
fn unzipped(py: Python<'_>, sp: &Splitter<'_>, a: &Layout, t: &Tile<'_>, tiled_form: bool) -> PyResult<Py<PyAny>> {
    let Tile::Tuple(ts) = t else {
        let r = hier_unzip_t(sp, a, t)?;
        return PcLayout::wrap(py, if tiled_form { tiled(&r)? } else { r });
    };
    let n = alg::rank(a);
    if n < ts.len() || ts.is_empty() || a.depth() + 2 >= kute::limits::MAX_DEPTH {
        let r = hier_unzip_t(sp, a, t)?;
        return PcLayout::wrap(py, if tiled_form { tiled(&r)? } else { r });
    }
    let mut splits = Vec::with_capacity(ts.len());
    for (i, ti) in ts.iter().enumerate() {
        splits.push(hier_unzip_t(sp, &alg::mode(a, i).map_err(perr)?, ti)?);
    }
    let firsts = splits.iter().map(|s| mode_view(s, 0)).collect::<PyResult<Vec<_>>>()?;
    let mut rests = splits.iter().map(|s| mode_view(s, 1)).collect::<PyResult<Vec<_>>>()?;
    for i in ts.len()..n {
        rests.push(mode_view(a, i)?);
    }
    let mut out = crate::types::LayoutBox::storage();
    out.try_build_modes_in(|b| {
        b.open();
        b.open();
        firsts.iter().for_each(|v| push_view(b, *v));
        b.close();
        if !tiled_form {
            b.open();
        }
        rests.iter().for_each(|v| push_view(b, *v));
        if !tiled_form {
            b.close();
        }
        b.close();
        Ok(())
    })
    .map_err(kerr)?;
    if out.depth() > kute::limits::MAX_DEPTH {
        let r = hier_unzip_t(sp, a, t)?;
        return PcLayout::wrap(py, if tiled_form { tiled(&r)? } else { r });
    }
    PcLayout::wrap_box(py, out)
}

/// pycute's tiled form of a zipped answer: `(r[0], r[1][0], r[1][1], ...)`.
fn tiled(r: &Layout) -> PyResult<Layout> {
    let r0 = alg::mode(r, 0).map_err(perr)?;
    let r1 = alg::mode(r, 1).map_err(perr)?;
    let mut parts = vec![r0];
    for i in 0..alg::rank(&r1) {
        parts.push(alg::mode(&r1, i).map_err(perr)?);
    }
    alg::make_layout(&parts).map_err(perr)
}

/// The Python part's symbolic form of the functions (`kute.pycute`'s answer,
/// by kute's algebra, where an argument holds an unknown).
static SYMBOLIC: std::sync::Mutex<Option<Py<PyAny>>> = std::sync::Mutex::new(None);

/// `_symbolic_hook(f)`: where one of the algebra's functions raises a
/// `TypeError` (pycute's algorithm refuses unknowns), it answers
/// `f(name, args, error)`: kute's function `name` on the arguments when one
/// holds an unknown, else `error` raised again.
#[pyfunction]
fn _symbolic_hook(f: Bound<'_, PyAny>) {
    *SYMBOLIC.lock().unwrap_or_else(|p| p.into_inner()) = Some(f.unbind());
}

/// `f()`, or where it raises a `TypeError`, the symbolic form of kute's
/// function `name` on `args` (those given) by the hook of [`_symbolic_hook`].
fn symbolic(
    py: Python<'_>,
    name: &str,
    args: &[Option<&Bound<'_, PyAny>>],
    f: impl FnOnce() -> PyResult<Py<PyAny>>,
) -> PyResult<Py<PyAny>> {
    match f() {
        Err(e) if e.is_instance_of::<PyTypeError>(py) => {
            let hook = SYMBOLIC.lock().unwrap_or_else(|p| p.into_inner()).as_ref().map(|h| h.clone_ref(py));
            match hook {
                Some(h) => Ok(h.call1(
                    py,
                    (name, PyTuple::new(py, args.iter().flatten().collect::<Vec<_>>())?, e.into_value(py)),
                )?),
                None => Err(e),
            }
        }
        r => r,
    }
}

/// `make_layout(*layouts)`: the layouts as the modes of one; one argument
/// that is not a layout is an iterable of layouts.
#[pyfunction]
#[pyo3(signature = (*layouts))]
fn make_layout(py: Python<'_>, layouts: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
    let items: SmallVec<[Bound<'_, PyAny>; 4]> =
        if layouts.len() == 1 && layouts.get_item(0)?.cast::<PyLayout>().is_err() {
            layouts.get_item(0)?.try_iter()?.collect::<PyResult<_>>()?
        } else {
            layouts.iter().collect()
        };
    // (unknowns and all: the layouts side by side)
    let parts = items.iter().map(|x| layout_any(x, "make_layout")).collect::<PyResult<SmallVec<[_; 4]>>>()?;
    PcLayout::wrap_built(py, |out| {
        if parts.is_empty() {
            // (pycute's error for no layouts)
            alg::make_layout(parts.iter().copied())?;
        }
        Ok(crate::build::concat_into(out, &parts)?)
    })
}

/// `size(a)`: a layout's size, or the product of an integer tuple.
#[pyfunction]
fn size(py: Python<'_>, layout: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    symbolic(py, "size", &[Some(layout)], || {
        if let Ok(l) = layout.cast::<PyLayout>() {
            let l = &l.get().inner;
            if l.has_symbols() {
                return crate::convert::int(py, l.size());
            }
            return Ok(alg::size(l).map_err(perr)?.into_pyobject(py)?.into_any().unbind());
        }
        if layout.cast::<PyTuple>().is_ok() || is_int(layout) {
            return product(py, layout);
        }
        Ok(layout.call_method0("size")?.unbind())
    })
}

/// `cosize(L)`: `L(size(L) - 1) + 1`.
#[pyfunction]
fn cosize(py: Python<'_>, layout: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    symbolic(py, "cosize", &[Some(layout)], || {
        if let Ok(l) = layout.cast::<PyLayout>() {
            let l = &l.get().inner;
            if l.has_symbols() {
                return crate::convert::int(py, l.cosize());
            }
            return Ok(alg::cosize(l).map_err(perr)?.into_pyobject(py)?.into_any().unbind());
        }
        Ok(layout.call_method0("cosize")?.unbind())
    })
}

/// By profile: `f` on the modes the profile names, the other modes kept.
fn by_profile(op: &str, l: &Layout, profile: &Bound<'_, PyAny>, f: fn(&Layout) -> alg::R<Layout>) -> PyResult<Layout> {
    let Ok(p) = profile.cast::<PyTuple>() else {
        return f(l).map_err(perr);
    };
    let n = alg::rank(l);
    if n < p.len() {
        return Err(KuteError::new_err(format!(
            "{op}: pycute's algorithm fails: the profile has {} modes, the layout {} only {n}",
            p.len(),
            layout_text(l)
        )));
    }
    let mut parts = Vec::with_capacity(n);
    for (i, pi) in p.iter().enumerate() {
        parts.push(by_profile(op, &alg::mode(l, i).map_err(perr)?, &pi, f)?);
    }
    for i in p.len()..n {
        parts.push(alg::mode(l, i).map_err(perr)?);
    }
    alg::make_layout(&parts).map_err(perr)
}

/// `coalesce(L, profile=None)`: the fewest modes with the same function; a
/// tuple profile coalesces mode by mode.
#[pyfunction]
#[pyo3(signature = (layout, profile = None))]
fn coalesce(py: Python<'_>, layout: &Bound<'_, PyAny>, profile: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
    symbolic(py, "coalesce", &[Some(layout), profile], || {
        let l = layout_arg(layout, "coalesce")?;
        match profile {
            Some(p) => PcLayout::wrap(py, by_profile("coalesce", l, p, alg::coalesce)?),
            None => PcLayout::wrap_built(py, |out| alg::coalesce_in(l, out)),
        }
    })
}

/// `filter(L, profile=None)`: coalesce without the size-1 and stride-0 modes.
#[pyfunction]
#[pyo3(signature = (layout, profile = None))]
fn filter(py: Python<'_>, layout: &Bound<'_, PyAny>, profile: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
    let l = layout_any(layout, "filter")?;
    let r = match profile {
        Some(p) => by_profile("filter", l, p, filter_any)?,
        None => filter_any(l).map_err(perr)?,
    };
    PcLayout::wrap(py, r)
}

/// pycute's `filter` of one layout; with unknowns, kute's (CuTe's) filter:
/// the same function (pycute's drops the size-1 and stride-0 modes by value,
/// kute's those the facts prove so, keeping an extent that may be 1, as CuTe
/// keeps a run-time one), the same form wherever no unknown extent is 1.
fn filter_any(l: &Layout) -> alg::R<Layout> {
    if l.has_symbols() {
        return Ok(kute::filter(l)?.to_dynamic());
    }
    alg::filter(l)
}

/// `composition(A, B)`: `R(c) = A(B(c))`; B a layout, an int, a tuple (by
/// mode) or None.
#[allow(non_snake_case)]
#[pyfunction]
#[pyo3(name = "composition")]
fn composition_py(py: Python<'_>, layoutA: &Bound<'_, PyAny>, layoutB: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    symbolic(py, "composition", &[Some(layoutA), Some(layoutB)], || {
        let a = layout_arg(layoutA, "composition")?;
        match tile(layoutB, 0)? {
            Tile::Layout(b) => PcLayout::wrap_built(py, |out| alg::composition_in(a, &b.get().inner, out)),
            Tile::Tuple(ts) => {
                let mut out = crate::types::LayoutBox::storage();
                if !composition_by_mode_in(a, &ts, &mut out) {
                    by_mode_in("composition", a, &ts, &mut composition_t, &mut out)?;
                }
                PcLayout::wrap_box(py, out)
            }
            t => PcLayout::wrap(py, composition_t(a, &t)?),
        }
    })
}

/// `complement(L, max_idx=1)`: the layout of L's gaps, up to `max_idx`.
#[pyfunction]
#[pyo3(name = "complement", signature = (layout, max_idx = None), text_signature = "(layout, max_idx=1)")]
fn complement_py(py: Python<'_>, layout: &Bound<'_, PyAny>, max_idx: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
    symbolic(py, "complement", &[Some(layout), max_idx], || {
        let m: i64 = match max_idx {
            None => 1,
            Some(x) if is_int(x) => x.extract()?,
            Some(x) => {
                return Err(PyTypeError::new_err(format!(
                    "complement: max_idx is an int, not {}",
                    x.get_type().name()?
                )))
            }
        };
        if is_int(layout) {
            // pycute: complement(Layout(n)), max_idx dropped
            let l = int_layout(layout.extract()?)?;
            let p = alg::complement(&l, 1).map_err(perr)?;
            if m != 1 {
                let t = alg::complement(&l, m).map_err(perr)?;
                if t.to_dynamic() != p.to_dynamic() {
                    return Err(KuteError::new_err(format!(
                        "complement: pycute's complement of an int n drops max_idx (it answers complement(Layout(n)) = {}); \
                         the complement up to {m} is {}: write complement(Layout(n), {m})",
                        layout_text(&p),
                        layout_text(&t)
                    )));
                }
            }
            return PcLayout::wrap(py, p);
        }
        let l = layout_arg(layout, "complement")?;
        PcLayout::wrap_built(py, |out| alg::complement_in(l, m, out))
    })
}

/// An inverse: `None` for `None`, `Layout(n)` for an int `n`.
fn inverse(
    py: Python<'_>,
    layout: &Bound<'_, PyAny>,
    op: &str,
    f: fn(&Layout) -> alg::R<Layout>,
) -> PyResult<Py<PyAny>> {
    if layout.is_none() {
        return Ok(py.None());
    }
    if is_int(layout) {
        return PcLayout::wrap(py, int_layout(layout.extract()?)?);
    }
    PcLayout::wrap(py, f(layout_arg(layout, op)?).map_err(perr)?)
}

/// `right_inverse(L)`: the largest R with `L(R(i)) == i`.
#[pyfunction]
fn right_inverse(py: Python<'_>, layout: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    symbolic(py, "right_inverse", &[Some(layout)], || inverse(py, layout, "right_inverse", alg::right_inverse))
}

/// `left_inverse(L)`: R with `R(L(i)) == i`.
#[pyfunction]
fn left_inverse(py: Python<'_>, layout: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    symbolic(py, "left_inverse", &[Some(layout)], || inverse(py, layout, "left_inverse", alg::left_inverse))
}

/// `logical_divide(A, B)`: `composition(A, make_layout(B, complement(B, size(A))))`.
#[allow(non_snake_case)]
#[pyfunction]
fn logical_divide(py: Python<'_>, layoutA: &Bound<'_, PyAny>, layoutB: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    symbolic(py, "logical_divide", &[Some(layoutA), Some(layoutB)], || {
        let a = layout_arg(layoutA, "logical_divide")?;
        match tile(layoutB, 0)? {
            Tile::Layout(b) => PcLayout::wrap_built(py, |out| alg::logical_divide_in(a, &b.get().inner, out)),
            Tile::Tuple(ts) => {
                let mut out = crate::types::LayoutBox::storage();
                by_mode_in("logical_divide", a, &ts, &mut logical_divide_t, &mut out)?;
                PcLayout::wrap_box(py, out)
            }
            t => PcLayout::wrap(py, logical_divide_t(a, &t)?),
        }
    })
}

/// `logical_product(A, B)`: `make_layout(A, composition(complement(A, size(A)*cosize(B)), B))`.
#[allow(non_snake_case)]
#[pyfunction]
fn logical_product(py: Python<'_>, layoutA: &Bound<'_, PyAny>, layoutB: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    symbolic(py, "logical_product", &[Some(layoutA), Some(layoutB)], || {
        let a = layout_arg(layoutA, "logical_product")?;
        match tile(layoutB, 0)? {
            Tile::Layout(b) => PcLayout::wrap_built(py, |out| alg::logical_product_in(a, &b.get().inner, out)),
            Tile::Tuple(ts) => {
                let mut out = crate::types::LayoutBox::storage();
                by_mode_in("logical_product", a, &ts, &mut logical_product_t, &mut out)?;
                PcLayout::wrap_box(py, out)
            }
            t => PcLayout::wrap(py, logical_product_t(a, &t)?),
        }
    })
}

/// `hier_unzip(splitter, A, B)`: pycute's zipping of a by-mode split.
#[allow(non_snake_case)]
#[pyfunction]
fn hier_unzip(
    py: Python<'_>,
    splitter: &Bound<'_, PyAny>,
    layoutA: &Bound<'_, PyAny>,
    layoutB: &Bound<'_, PyAny>,
) -> PyResult<Py<PyAny>> {
    let module = splitter.py().import("kute._kute")?.getattr("_pycute")?;
    let sp = if splitter.is(&module.getattr("logical_divide")?) {
        Splitter::Divide
    } else if splitter.is(&module.getattr("logical_product")?) {
        Splitter::Product
    } else {
        Splitter::Python(splitter.clone())
    };
    let known = || -> PyResult<Py<PyAny>> {
        PcLayout::wrap(py, hier_unzip_t(&sp, layout_arg(layoutA, "hier_unzip")?, &tile(layoutB, 0)?)?)
    };
    match known() {
        // unknowns: pycute's algorithm as it is, mode by mode, the splitter called
        // as a Python function (kute.pycute's logical_divide and logical_product
        // answer unknowns with kute's algebra)
        Err(e) if e.is_instance_of::<PyTypeError>(py) && (has_symbols(layoutA) || tile_has_symbols(layoutB)) => {
            let sp = Splitter::Python(splitter.clone());
            PcLayout::wrap(py, hier_unzip_t(&sp, layout_any(layoutA, "hier_unzip")?, &tile_as_given(layoutB, 0)?)?)
        }
        r => r,
    }
}

/// Whether a right operand holds an unknown (a layout of them, in a tuple or not).
fn tile_has_symbols(obj: &Bound<'_, PyAny>) -> bool {
    match obj.cast::<PyTuple>() {
        Ok(t) => t.iter().any(|x| tile_has_symbols(&x)),
        Err(_) => has_symbols(obj),
    }
}

/// `zipped_divide(A, B)`: `((tile), (rest))`.
#[allow(non_snake_case)]
#[pyfunction]
fn zipped_divide(py: Python<'_>, layoutA: &Bound<'_, PyAny>, layoutB: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    symbolic(py, "zipped_divide", &[Some(layoutA), Some(layoutB)], || {
        let a = layout_arg(layoutA, "zipped_divide")?;
        unzipped(py, &Splitter::Divide, a, &tile(layoutB, 0)?, false)
    })
}

/// `tiled_divide(A, B)`: `((tile), rest...)`.
#[allow(non_snake_case)]
#[pyfunction]
fn tiled_divide(py: Python<'_>, layoutA: &Bound<'_, PyAny>, layoutB: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    symbolic(py, "tiled_divide", &[Some(layoutA), Some(layoutB)], || {
        let a = layout_arg(layoutA, "tiled_divide")?;
        unzipped(py, &Splitter::Divide, a, &tile(layoutB, 0)?, true)
    })
}

/// `zipped_product(A, B)`: `((A), (rest))`.
#[allow(non_snake_case)]
#[pyfunction]
fn zipped_product(py: Python<'_>, layoutA: &Bound<'_, PyAny>, layoutB: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    symbolic(py, "zipped_product", &[Some(layoutA), Some(layoutB)], || {
        let a = layout_arg(layoutA, "zipped_product")?;
        unzipped(py, &Splitter::Product, a, &tile(layoutB, 0)?, false)
    })
}

/// `tiled_product(A, B)`: `((A), rest...)`.
#[allow(non_snake_case)]
#[pyfunction]
fn tiled_product(py: Python<'_>, layoutA: &Bound<'_, PyAny>, layoutB: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    symbolic(py, "tiled_product", &[Some(layoutA), Some(layoutB)], || {
        let a = layout_arg(layoutA, "tiled_product")?;
        unzipped(py, &Splitter::Product, a, &tile(layoutB, 0)?, true)
    })
}

/// `blocked_product(A, B)` (CuTe's; pycute has none): B repeats the block A,
/// mode by mode.
#[allow(non_snake_case)]
#[pyfunction]
fn blocked_product(py: Python<'_>, layoutA: &Bound<'_, PyAny>, layoutB: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    symbolic(py, "blocked_product", &[Some(layoutA), Some(layoutB)], || {
        let (a, b) = (layout_arg(layoutA, "blocked_product")?, layout_arg(layoutB, "blocked_product")?);
        PcLayout::wrap(py, kute::blocked_product(a, b).map_err(kerr)?.to_dynamic())
    })
}

/// `raked_product(A, B)` (CuTe's; pycute has none): A's elements
/// interleaved by B, mode by mode.
#[allow(non_snake_case)]
#[pyfunction]
fn raked_product(py: Python<'_>, layoutA: &Bound<'_, PyAny>, layoutB: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    symbolic(py, "raked_product", &[Some(layoutA), Some(layoutB)], || {
        let (a, b) = (layout_arg(layoutA, "raked_product")?, layout_arg(layoutB, "raked_product")?);
        PcLayout::wrap(py, kute::raked_product(a, b).map_err(kerr)?.to_dynamic())
    })
}

/// `slice_and_offset(crd, L)`: `(the slice of L at crd, L(crd with None as 0))`:
/// pycute's `Layout(slice_(crd, L.shape), slice_(crd, L.stride))` (the modes
/// where `crd` is `None`, as a tuple) and `crd2idx(crd, L.shape, L.stride)`,
/// read off the layout (no Python tuples made). With unknowns, the offset
/// where the facts decide it (else an error naming the fact that would).
#[pyfunction]
fn slice_and_offset(py: Python<'_>, crd: &Bound<'_, PyAny>, layout: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let l = layout_any(layout, "slice_and_offset")?;
    let s = sliced(py, crd, l)?;
    let offset = offset_at(crd, l.view())?;
    Ok(PyTuple::new(py, [s, pv_py(py, &offset)?])?.into_any().unbind())
}

/// pycute's `Layout(slice_(crd, L.shape), slice_(crd, L.stride))`: the modes
/// of `L` where `crd` is `None`, as a tuple of dynamic integers, built in
/// `out` (the storage of the Python object that holds it).
fn sliced_in(crd: &Bound<'_, PyAny>, l: &Layout, out: &mut Layout) -> PyResult<()> {
    if l.leaves().iter().any(|m| m.stride.as_int().is_none()) {
        stride_ints(l)?;
    }
    let mut kept = SmallVec::<[_; 8]>::new();
    slice_views(crd, l.view(), &mut kept)?;
    out.try_build_modes_in(|b| {
        b.open();
        for v in &kept {
            push_view_dynamic(b, *v);
        }
        b.close();
        Ok(())
    })
    .map_err(kerr)
}

/// [`sliced_in`] as a new `kute.pycute.Layout`.
fn sliced(py: Python<'_>, crd: &Bound<'_, PyAny>, l: &Layout) -> PyResult<Py<PyAny>> {
    let mut out = crate::types::LayoutBox::storage();
    sliced_in(crd, l, &mut out)?;
    PcLayout::wrap_box(py, out)
}

/// pycute's `slice_(crd, L)` on a layout: the modes where `crd` is `None`.
fn slice_views<'a>(
    crd: &Bound<'_, PyAny>,
    v: kute::LayoutView<'a>,
    out: &mut SmallVec<[kute::LayoutView<'a>; 8]>,
) -> PyResult<()> {
    if let Ok(c) = crd.cast::<PyTuple>() {
        let target = || -> PyResult<String> {
            Ok(crate::convert::int_tuple_py(crd.py(), v.shape().as_ref())?.repr()?.to_string())
        };
        if v.is_leaf() {
            return Err(KuteError::new_err(format!(
                "slice_: the coordinate {} is a tuple where the target is {}",
                crd.repr()?,
                target()?
            )));
        }
        if c.len() != v.rank() {
            return Err(KuteError::new_err(format!(
                "slice_: the coordinate {} and the target {} have different lengths",
                crd.repr()?,
                target()?
            )));
        }
        for (x, m) in c.iter().zip(v.modes()) {
            slice_views(&x, m, out)?;
        }
        return Ok(());
    }
    if crd.is_none() {
        out.push(v);
    }
    Ok(())
}

/// The integer stride of a leaf (a `TypeError` for a basis stride).
fn stride_pv(l: kute::LayoutView<'_>, m: &kute::Mode) -> PyResult<Pv> {
    match m.stride.as_int() {
        Some(d) => Ok(num_pv(d)),
        None => Err(PyTypeError::new_err(format!("{l} has basis strides; pycute's layouts have integer strides"))),
    }
}

/// pycute's `crd2idx(crd, L.shape, L.stride)` read off the layout.
fn offset_at(crd: &Bound<'_, PyAny>, v: kute::LayoutView<'_>) -> PyResult<Pv> {
    if let Ok(c) = crd.cast::<PyTuple>() {
        if v.is_leaf() {
            return Err(fails("crd2idx", "a tuple coordinate for an int shape"));
        }
        if c.len() != v.rank() {
            return Err(fails("crd2idx", "tuples of different lengths"));
        }
        let mut acc = Pv::I(0);
        for (x, m) in c.iter().zip(v.modes()) {
            acc = padd("crd2idx", &acc, &offset_at(&x, m)?)?;
        }
        return Ok(acc);
    }
    let c = if crd.is_none() { Pv::I(0) } else { pv(crd)? };
    offset_of_int(c, v)
}

/// pycute's `crd2idx(c, shape, stride)` of an integer `c` on a layout: split
/// colexicographically, the last mode taking what is left.
fn offset_of_int(mut c: Pv, v: kute::LayoutView<'_>) -> PyResult<Pv> {
    if v.is_leaf() {
        let Some(m) = v.leaves().first() else {
            return Err(fails("crd2idx", "a mode without an extent"));
        };
        return pmul("crd2idx", &c, &stride_pv(v, m)?);
    }
    let n = v.rank();
    if n == 0 {
        return Err(fails("crd2idx", "an empty shape (tuple index out of range)"));
    }
    let mut acc = Pv::I(0);
    for (k, mv) in v.modes().enumerate() {
        if k + 1 == n {
            return padd("crd2idx", &acc, &offset_of_int(c, mv)?);
        }
        let mut p = Pv::I(1);
        for x in mv.leaves() {
            p = pmul("product", &p, &num_pv(x.shape))?;
        }
        acc = padd("crd2idx", &acc, &offset_of_int(pmod("crd2idx", &c, &p)?, mv)?)?;
        c = pfloordiv("crd2idx", &c, &p)?;
    }
    Ok(acc)
}

// --- pycute's integer-tuple functions -------------------------------------------------------

/// An integer tuple of pycute's: Python ints, tuples, and `None` (in
/// coordinates); an unknown (`kute.sym`, a sympy expression) as kute's
/// symbolic integer, which the functions that take unknowns compute with.
#[derive(Clone, Debug)]
enum Pv {
    I(i64),
    /// A symbolic integer (never a concrete one: [`num_pv`] makes those `I`).
    S(Int),
    N,
    T(Vec<Pv>),
}

fn pv(obj: &Bound<'_, PyAny>) -> PyResult<Pv> {
    pv_at(obj, 0)
}

fn pv_at(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<Pv> {
    if is_int(obj) {
        return Ok(Pv::I(obj.extract()?));
    }
    if obj.is_none() {
        return Ok(Pv::N);
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        if depth > kute::limits::MAX_DEPTH {
            return Err(KuteError::new_err("an integer tuple nested too deeply"));
        }
        return Ok(Pv::T(t.iter().map(|x| pv_at(&x, depth + 1)).collect::<PyResult<_>>()?));
    }
    // an unknown: a symbolic kute.IntTuple, a sympy expression (not a string)
    if !obj.is_instance_of::<pyo3::types::PyString>()
        && let Ok(kute::expr::Value::IntTuple(t)) = crate::convert::to_value(obj)
        && t.has_symbols()
    {
        return Ok(pv_of(t.as_ref()));
    }
    Err(PyTypeError::new_err(format!(
        "kute.pycute's integer tuples are Python ints and tuples of them; not {}",
        obj.get_type().name()?
    )))
}

/// An integer tuple of kute's as one of pycute's.
fn pv_of(t: kute::int_tuple::IntTupleRef<'_>) -> Pv {
    match t.as_leaf() {
        Some(x) => num_pv(x),
        None => Pv::T(t.children().map(pv_of).collect()),
    }
}

/// kute's integer as a leaf: `I` where it is concrete, `S` where symbolic.
#[inline]
fn num_pv(x: Int) -> Pv {
    if x.is_symbolic() {
        Pv::S(x)
    } else {
        Pv::I(x.value())
    }
}

fn pv_py(py: Python<'_>, v: &Pv) -> PyResult<Py<PyAny>> {
    Ok(match v {
        Pv::I(x) => x.into_pyobject(py)?.into_any().unbind(),
        Pv::S(x) => crate::convert::int(py, Ok(*x))?,
        Pv::N => py.None(),
        Pv::T(xs) => {
            PyTuple::new(py, xs.iter().map(|x| pv_py(py, x)).collect::<PyResult<Vec<_>>>()?)?.into_any().unbind()
        }
    })
}

fn fails(op: &str, what: impl std::fmt::Display) -> PyErr {
    KuteError::new_err(format!("{op}: pycute's algorithm fails: {what}"))
}

/// A leaf as a known integer: a `TypeError` for an unknown (the functions
/// that answer unknowns symbolically catch it) and for a tuple or `None`.
fn int_of(op: &str, v: &Pv) -> PyResult<i64> {
    match v {
        Pv::I(x) => Ok(*x),
        Pv::S(x) => {
            Err(PyTypeError::new_err(format!("{op}: {x} has unknowns, and pycute's {op} computes with known integers")))
        }
        other => Err(PyTypeError::new_err(format!("{op}: an int, not {other:?}"))),
    }
}

/// A leaf as kute's integer (a known one dynamic): a `TypeError` for a tuple or `None`.
fn num_of(op: &str, v: &Pv) -> PyResult<Int> {
    match v {
        Pv::I(x) => Ok(Int::new_dynamic(*x)),
        Pv::S(x) => Ok(*x),
        other => Err(PyTypeError::new_err(format!("{op}: an int, not {other:?}"))),
    }
}

/// `a <sign> b` of leaves, one of them an unknown, by kute's symbolic
/// integers: the answer for every value of the unknowns, or kute's error
/// naming the fact that would decide it (a divisibility, an order).
#[cold]
#[inline(never)]
fn sym_op(op: &str, sign: &str, a: &Pv, b: &Pv, f: impl FnOnce(Int, Int) -> kute::Result<Int>) -> PyResult<Pv> {
    let (x, y) = (num_of(op, a)?, num_of(op, b)?);
    f(x, y).map(num_pv).map_err(|e| KuteError::new_err(format!("{op}: {x} {sign} {y}: {}", e.message())))
}

/// `a * b` of leaves (pycute's `*`).
#[inline]
fn pmul(op: &str, a: &Pv, b: &Pv) -> PyResult<Pv> {
    match (a, b) {
        (Pv::I(x), Pv::I(y)) => Ok(Pv::I(m(alg::mul(*x, *y))?)),
        _ => sym_op(op, "*", a, b, Int::mul),
    }
}

/// `a + b` of leaves (pycute's `+`).
#[inline]
fn padd(op: &str, a: &Pv, b: &Pv) -> PyResult<Pv> {
    match (a, b) {
        (Pv::I(x), Pv::I(y)) => Ok(Pv::I(m(alg::add(*x, *y))?)),
        _ => sym_op(op, "+", a, b, Int::add),
    }
}

/// `a // b` of leaves (Python's floor division). With an unknown, kute's
/// quotient, which answers only where the facts decide it: an exact
/// quotient, or 0 where `0 <= a < b` (floor and truncation agree there).
#[inline]
fn pfloordiv(op: &str, a: &Pv, b: &Pv) -> PyResult<Pv> {
    match (a, b) {
        (Pv::I(x), Pv::I(y)) => Ok(Pv::I(m(alg::floordiv(op, *x, *y))?)),
        _ => sym_op(op, "//", a, b, Int::div),
    }
}

/// `a % b` of leaves (Python's remainder). With an unknown, kute's
/// remainder, which answers only where the facts decide it: 0 where `b`
/// divides `a`, `a` where `0 <= a < b`.
#[inline]
fn pmod(op: &str, a: &Pv, b: &Pv) -> PyResult<Pv> {
    match (a, b) {
        (Pv::I(x), Pv::I(y)) => Ok(Pv::I(m(alg::pymod(op, *x, *y))?)),
        _ => sym_op(op, "%", a, b, Int::rem),
    }
}

fn m(x: alg::R<i64>) -> PyResult<i64> {
    x.map_err(perr)
}

fn product_pv(v: &Pv) -> PyResult<Pv> {
    match v {
        Pv::T(xs) => {
            let mut acc = Pv::I(1);
            for x in xs {
                acc = pmul("product", &acc, &product_pv(x)?)?;
            }
            Ok(acc)
        }
        other => Ok(other.clone()),
    }
}

/// `product(a)`: the product of the integers of `a`.
#[pyfunction]
fn product(py: Python<'_>, a: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    if let Some(p) = product_of_ints(a, 0) {
        return Ok(p.into_pyobject(py)?.into_any().unbind());
    }
    symbolic(py, "size", &[Some(a)], || pv_py(py, &product_pv(&pv(a)?)?))
}

// The fast paths below read Python ints and tuples in place (no `Pv` made):
// `None` for anything else (an unknown, a depth or a value past 64 bits),
// which the general path answers, the same where both answer.

/// [`product`] of Python ints and tuples of them.
fn product_of_ints(a: &Bound<'_, PyAny>, depth: usize) -> Option<i64> {
    small_int(a).or_else(|| {
        let t = tuple_within(a, depth)?;
        t.iter_borrowed().try_fold(1i64, |p, x| p.checked_mul(product_of_ints(&x, depth + 1)?))
    })
}

/// A Python tuple at a depth the general path takes too.
#[inline]
fn tuple_within<'a, 'py>(a: &'a Bound<'py, PyAny>, depth: usize) -> Option<&'a Bound<'py, PyTuple>> {
    a.cast::<PyTuple>().ok().filter(|_| depth < kute::limits::MAX_DEPTH)
}

/// A Python int (not a bool) that fits in 64 bits.
#[inline]
fn small_int(a: &Bound<'_, PyAny>) -> Option<i64> {
    match a.cast::<PyInt>() {
        Ok(i) if !a.is_instance_of::<PyBool>() => crate::capi::int_value(&i.as_borrowed()),
        _ => None,
    }
}

/// [`inner_product`] of congruent Python ints and tuples of them.
fn inner_product_of_ints(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>, depth: usize) -> Option<i64> {
    if let (Some(x), Some(y)) = (small_int(a), small_int(b)) {
        return x.checked_mul(y);
    }
    let (a, b) = (tuple_within(a, depth)?, b.cast::<PyTuple>().ok()?);
    if a.len() != b.len() {
        return None;
    }
    a.iter_borrowed()
        .zip(b.iter_borrowed())
        .try_fold(0i64, |s, (x, y)| s.checked_add(inner_product_of_ints(&x, &y, depth + 1)?))
}

/// [`crd2idx`] of a coordinate congruent with the shape and the stride
/// (pycute's sum of coordinate times stride), all Python ints.
fn crd2idx_of_ints(
    crd: &Bound<'_, PyAny>,
    shape: &Bound<'_, PyAny>,
    stride: &Bound<'_, PyAny>,
    depth: usize,
) -> Option<i64> {
    if let (Some(c), Some(_), Some(d)) = (small_int(crd), small_int(shape), small_int(stride)) {
        return c.checked_mul(d);
    }
    let (c, s, d) = (tuple_within(crd, depth)?, shape.cast::<PyTuple>().ok()?, stride.cast::<PyTuple>().ok()?);
    if c.len() != s.len() || c.len() != d.len() {
        return None;
    }
    let mut sum = 0i64;
    for ((x, y), z) in c.iter_borrowed().zip(s.iter_borrowed()).zip(d.iter_borrowed()) {
        sum = sum.checked_add(crd2idx_of_ints(&x, &y, &z, depth + 1)?)?;
    }
    Some(sum)
}

fn inner_product_pv(a: &Pv, b: &Pv) -> PyResult<i64> {
    match (a, b) {
        (Pv::T(xs), Pv::T(ys)) => {
            if xs.len() != ys.len() {
                return Err(fails("inner_product", "tuples of different lengths"));
            }
            let mut acc = 0i64;
            for (x, y) in xs.iter().zip(ys) {
                acc = m(alg::add(acc, inner_product_pv(x, y)?))?;
            }
            Ok(acc)
        }
        (Pv::T(_), _) => Err(PyTypeError::new_err("inner_product: a tuple and an int")),
        (_, Pv::T(_)) => Err(fails("inner_product", "an int and a tuple")),
        (x, y) => m(alg::mul(int_of("inner_product", x)?, int_of("inner_product", y)?)),
    }
}

/// `inner_product(a, b)`: the sum of the products of congruent tuples.
#[pyfunction]
fn inner_product(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<i64> {
    if let Some(x) = inner_product_of_ints(a, b, 0) {
        return Ok(x);
    }
    inner_product_pv(&pv(a)?, &pv(b)?)
}

fn tuple_max_pv(a: &Pv) -> PyResult<i64> {
    match a {
        Pv::T(xs) => {
            let mut best: Option<i64> = None;
            for x in xs {
                let v = tuple_max_pv(x)?;
                best = Some(best.map_or(v, |b| b.max(v)));
            }
            best.ok_or_else(|| fails("tuple_max", "max() arg is an empty sequence"))
        }
        x => int_of("tuple_max", x),
    }
}

/// `tuple_max(a)`: the largest integer of `a`.
#[pyfunction]
fn tuple_max(a: &Bound<'_, PyAny>) -> PyResult<i64> {
    tuple_max_pv(&pv(a)?)
}

fn elem_scale_pv(a: &Pv, b: &Pv) -> PyResult<Pv> {
    match (a, b) {
        (Pv::T(xs), Pv::T(ys)) => {
            if xs.len() != ys.len() {
                return Err(fails("elem_scale", "tuples of different lengths"));
            }
            Ok(Pv::T(xs.iter().zip(ys).map(|(x, y)| elem_scale_pv(x, y)).collect::<PyResult<_>>()?))
        }
        (Pv::T(_), _) => Err(fails("elem_scale", "a tuple scaled by an int")),
        (x, y @ Pv::T(_)) => elem_scale_pv(x, &product_pv(y)?),
        (x, y) => Ok(Pv::I(m(alg::mul(int_of("elem_scale", x)?, int_of("elem_scale", y)?))?)),
    }
}

/// `elem_scale(a, b)`: `a` scaled element by element by `b`.
#[pyfunction]
fn elem_scale(py: Python<'_>, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    pv_py(py, &elem_scale_pv(&pv(a)?, &pv(b)?)?)
}

fn shape_div_pv(a: &Pv, b: &Pv) -> PyResult<Pv> {
    match (a, b) {
        (Pv::T(xs), Pv::T(ys)) => {
            if xs.len() != ys.len() {
                return Err(fails("shape_div", "tuples of different lengths"));
            }
            Ok(Pv::T(xs.iter().zip(ys).map(|(x, y)| shape_div_pv(x, y)).collect::<PyResult<_>>()?))
        }
        (Pv::T(xs), y) => {
            let mut b = y.clone();
            let mut r = Vec::with_capacity(xs.len());
            for v in xs {
                r.push(shape_div_pv(v, &b)?);
                b = shape_div_pv(&b, &product_pv(v)?)?;
            }
            Ok(Pv::T(r))
        }
        (x, y @ Pv::T(_)) => shape_div_pv(x, &product_pv(y)?),
        (x, y) => Ok(Pv::I(shape_div_ints(int_of("shape_div", x)?, int_of("shape_div", y)?)?)),
    }
}

/// pycute's `shape_div` of two ints: `a` over `b` rounded up, where one
/// divides the other.
fn shape_div_ints(a: i64, b: i64) -> PyResult<i64> {
    if m(alg::pymod("shape_div", a, b))? != 0 && m(alg::pymod("shape_div", b, a))? != 0 {
        return Err(fails("shape_div", format_args!("neither of {a} and {b} divides the other")));
    }
    m(alg::floordiv("shape_div", m(alg::add(m(alg::add(a, b))?, -1))?, b))
}

/// [`shape_div`] of Python ints and tuples.
fn shape_div_of_ints<'py>(a: &Bound<'py, PyAny>, b: &Bound<'py, PyAny>, depth: usize) -> Option<Bound<'py, PyAny>> {
    let Ok(bs) = b.cast::<PyTuple>() else {
        return shape_div_by_int(a, small_int(b)?, depth);
    };
    let Some(xs) = tuple_within(a, depth) else {
        return shape_div_by_int(a, product_of_ints(b, depth)?, depth);
    };
    if xs.len() != bs.len() {
        return None;
    }
    let out = xs.iter().zip(bs.iter()).map(|(x, y)| shape_div_of_ints(&x, &y, depth + 1));
    PyTuple::new(a.py(), out.collect::<Option<SmallVec<[_; 8]>>>()?).ok().map(|t| t.into_any())
}

/// [`shape_div_of_ints`] by an int `b`: each mode of a tuple `a` divided by
/// what is left of `b` after the modes before it.
fn shape_div_by_int<'py>(a: &Bound<'py, PyAny>, mut b: i64, depth: usize) -> Option<Bound<'py, PyAny>> {
    if let Some(x) = small_int(a) {
        return shape_div_ints(x, b).ok()?.into_pyobject(a.py()).ok().map(|x| x.into_any());
    }
    let mut out = SmallVec::<[_; 8]>::new();
    for v in tuple_within(a, depth)?.iter() {
        out.push(shape_div_by_int(&v, b, depth + 1)?);
        b = shape_div_ints(b, product_of_ints(&v, depth + 1)?).ok()?;
    }
    PyTuple::new(a.py(), out).ok().map(|t| t.into_any())
}

/// `shape_div(a, b)`: `a` divided by `b`, prefix by prefix (each division
/// exact one way or the other, rounded up).
#[pyfunction]
fn shape_div(py: Python<'_>, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    if let Some(r) = shape_div_of_ints(a, b, 0) {
        return Ok(r.unbind());
    }
    symbolic(py, "shape_div", &[Some(a), Some(b)], || pv_py(py, &shape_div_pv(&pv(a)?, &pv(b)?)?))
}

fn prefix_product_pv(a: &Pv, init: &Pv) -> PyResult<Pv> {
    match (a, init) {
        (Pv::T(xs), Pv::T(ys)) => {
            if xs.len() != ys.len() {
                return Err(fails("prefix_product", "tuples of different lengths"));
            }
            Ok(Pv::T(xs.iter().zip(ys).map(|(x, y)| prefix_product_pv(x, y)).collect::<PyResult<_>>()?))
        }
        (Pv::T(xs), y) => {
            let mut init = y.clone();
            let mut r = Vec::with_capacity(xs.len());
            for v in xs {
                r.push(prefix_product_pv(v, &init)?);
                init = pmul("prefix_product", &init, &product_pv(v)?)?;
            }
            Ok(Pv::T(r))
        }
        (_, Pv::T(_)) => Err(fails("prefix_product", "an int with a tuple init")),
        (_, y) => Ok(y.clone()),
    }
}

/// `prefix_product(a, init=1)`: the exclusive prefix products of `a`, congruent to it.
#[pyfunction]
#[pyo3(signature = (a, init = None), text_signature = "(a, init=1)")]
fn prefix_product(py: Python<'_>, a: &Bound<'_, PyAny>, init: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
    if let Some(mut p) = init.map_or(Some(1), small_int)
        && let Some(r) = prefix_product_of_ints(a, &mut p, 0)
    {
        return Ok(r.unbind());
    }
    let init = match init {
        Some(i) => pv(i)?,
        None => Pv::I(1),
    };
    pv_py(py, &prefix_product_pv(&pv(a)?, &init)?)
}

/// [`prefix_product`] of Python ints and tuples with an int `init`: at each
/// leaf the product `prefix` of `init` and the leaves before it.
fn prefix_product_of_ints<'py>(a: &Bound<'py, PyAny>, prefix: &mut i64, depth: usize) -> Option<Bound<'py, PyAny>> {
    let py = a.py();
    if let Some(x) = small_int(a) {
        let p = std::mem::replace(prefix, prefix.checked_mul(x)?);
        return p.into_pyobject(py).ok().map(|p| p.into_any());
    }
    let t = tuple_within(a, depth)?;
    let out = t.iter().map(|x| prefix_product_of_ints(&x, prefix, depth + 1)).collect::<Option<SmallVec<[_; 8]>>>()?;
    PyTuple::new(py, out).ok().map(|t| t.into_any())
}

fn idx2crd_pv(idx: &Pv, shape: &Pv, stride: &Pv) -> PyResult<Pv> {
    match (idx, shape) {
        (Pv::T(is), Pv::T(ss)) => {
            let Pv::T(ds) = stride else {
                return Err(PyTypeError::new_err("idx2crd: a tuple shape with an int stride"));
            };
            if is.len() != ss.len() || is.len() != ds.len() {
                return Err(fails("idx2crd", "tuples of different lengths"));
            }
            Ok(Pv::T(is.iter().zip(ss).zip(ds).map(|((i, s), d)| idx2crd_pv(i, s, d)).collect::<PyResult<_>>()?))
        }
        (Pv::T(_), _) => Err(fails("idx2crd", "a tuple index for an int shape")),
        (i, Pv::T(ss)) => {
            let Pv::T(ds) = stride else {
                return Err(PyTypeError::new_err("idx2crd: a tuple shape with an int stride"));
            };
            if ss.len() != ds.len() {
                return Err(fails("idx2crd", "a shape and a stride of different lengths"));
            }
            Ok(Pv::T(ss.iter().zip(ds).map(|(s, d)| idx2crd_pv(i, s, d)).collect::<PyResult<_>>()?))
        }
        (i, s) => pmod("idx2crd", &pfloordiv("idx2crd", i, stride)?, s),
    }
}

/// A shape and its stride, given or (`None`) the compact one, its prefix
/// products: the arguments of `idx2crd` and `crd2idx`.
fn shape_and_stride(shape: &Bound<'_, PyAny>, stride: Option<&Bound<'_, PyAny>>) -> PyResult<(Pv, Pv)> {
    let shape = pv(shape)?;
    let stride = match stride.filter(|s| !s.is_none()) {
        Some(d) => pv(d)?,
        None => prefix_product_pv(&shape, &Pv::I(1))?,
    };
    Ok((shape, stride))
}

/// `idx2crd(idx, shape, stride=None)`: the coordinate of an index, `(idx //
/// stride) % shape` at each leaf (stride: the prefix products of the shape).
/// With unknowns, each leaf where the facts decide it (else an error naming
/// the fact that would: a divisibility, an order).
#[pyfunction]
#[pyo3(signature = (idx, shape, stride = None))]
fn idx2crd(
    py: Python<'_>,
    idx: &Bound<'_, PyAny>,
    shape: &Bound<'_, PyAny>,
    stride: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    if let Some(i) = small_int(idx)
        && let Some(c) = idx2crd_of_ints(i, shape, stride.filter(|d| !d.is_none()), &mut 1, 0)
    {
        return Ok(c.unbind());
    }
    let (shape, stride) = shape_and_stride(shape, stride)?;
    pv_py(py, &idx2crd_pv(&pv(idx)?, &shape, &stride)?)
}

/// [`idx2crd`] of an int index in Python ints and tuples: `(idx // d) % s`
/// at each leaf, `d` the stride given (congruent with the shape) or else
/// `prefix`, the product of the extents before the leaf.
fn idx2crd_of_ints<'py>(
    idx: i64,
    shape: &Bound<'py, PyAny>,
    stride: Option<&Bound<'py, PyAny>>,
    prefix: &mut i64,
    depth: usize,
) -> Option<Bound<'py, PyAny>> {
    let py = shape.py();
    if let Some(s) = small_int(shape) {
        let d = match stride {
            Some(d) => small_int(d)?,
            None => std::mem::replace(prefix, prefix.checked_mul(s)?),
        };
        let c = m(alg::floordiv("idx2crd", idx, d)).and_then(|q| m(alg::pymod("idx2crd", q, s))).ok()?;
        return c.into_pyobject(py).ok().map(|c| c.into_any());
    }
    let ss = tuple_within(shape, depth)?;
    let ds = match stride {
        Some(d) => Some(d.cast::<PyTuple>().ok().filter(|d| d.len() == ss.len())?),
        None => None,
    };
    let mut out: SmallVec<[Bound<'py, PyAny>; 8]> = SmallVec::new();
    for (k, s) in ss.iter().enumerate() {
        let d = match &ds {
            Some(ds) => Some(ds.get_item(k).ok()?),
            None => None,
        };
        out.push(idx2crd_of_ints(idx, &s, d.as_ref(), prefix, depth + 1)?);
    }
    PyTuple::new(py, out).ok().map(|t| t.into_any())
}

/// A coordinate leaf: `None` is 0.
#[inline]
fn crd_leaf(c: &Pv) -> PyResult<Pv> {
    Ok(match c {
        Pv::N => Pv::I(0),
        Pv::T(_) => return Err(PyTypeError::new_err("crd2idx: an int, not a tuple")),
        x => x.clone(),
    })
}

/// [`crd2idx_pv`] of a tuple coordinate of known integers, in `i64` (the
/// common case, without the leaves' dispatch); `Ok(None)` for the rest (an
/// unknown, an integer split over a tuple shape, what raises), which the
/// general path answers.
fn crd2idx_known(crd: &Pv, shape: &Pv, stride: &Pv) -> PyResult<Option<i64>> {
    match (crd, shape, stride) {
        (Pv::T(cs), Pv::T(ss), Pv::T(ds)) if cs.len() == ss.len() && cs.len() == ds.len() => {
            let mut acc = 0i64;
            for ((c, s), d) in cs.iter().zip(ss).zip(ds) {
                let Some(x) = crd2idx_known(c, s, d)? else { return Ok(None) };
                acc = m(alg::add(acc, x))?;
            }
            Ok(Some(acc))
        }
        (Pv::I(c), Pv::I(_), Pv::I(d)) => Ok(Some(m(alg::mul(*c, *d))?)),
        (Pv::N, Pv::I(_), Pv::I(_)) => Ok(Some(0)),
        // the rest (an int split over a tuple shape, the errors): the general path
        _ => Ok(None),
    }
}

fn crd2idx_pv(crd: &Pv, shape: &Pv, stride: &Pv) -> PyResult<Pv> {
    if let Some(x) = crd2idx_known(crd, shape, stride)? {
        return Ok(Pv::I(x));
    }
    match (crd, shape) {
        (Pv::T(cs), Pv::T(ss)) => {
            let Pv::T(ds) = stride else {
                return Err(PyTypeError::new_err("crd2idx: a tuple shape with an int stride"));
            };
            if cs.len() != ss.len() || cs.len() != ds.len() {
                return Err(fails("crd2idx", "tuples of different lengths"));
            }
            let mut acc = Pv::I(0);
            for ((c, s), d) in cs.iter().zip(ss).zip(ds) {
                acc = padd("crd2idx", &acc, &crd2idx_pv(c, s, d)?)?;
            }
            Ok(acc)
        }
        (Pv::T(_), _) => Err(fails("crd2idx", "a tuple coordinate for an int shape")),
        (c, Pv::T(ss)) => {
            let Pv::T(ds) = stride else {
                return Err(PyTypeError::new_err("crd2idx: a tuple shape with an int stride"));
            };
            if ss.len() != ds.len() {
                return Err(fails("crd2idx", "a shape and a stride of different lengths"));
            }
            let Some(last) = ss.len().checked_sub(1) else {
                return Err(fails("crd2idx", "an empty shape (tuple index out of range)"));
            };
            let mut c = crd_leaf(c)?;
            let mut acc = Pv::I(0);
            for i in 0..last {
                let p = product_pv(&ss[i])?;
                acc = padd("crd2idx", &acc, &crd2idx_pv(&pmod("crd2idx", &c, &p)?, &ss[i], &ds[i])?)?;
                c = pfloordiv("crd2idx", &c, &p)?;
            }
            padd("crd2idx", &acc, &crd2idx_pv(&c, &ss[last], &ds[last])?)
        }
        (c, _) => pmul("crd2idx", &crd_leaf(c)?, stride),
    }
}

/// `crd2idx(crd, shape, stride=None)`: the index of a coordinate (an int
/// coordinate of a tuple shape is split colexicographically, the last mode
/// taking what is left; `None` is 0). With unknowns, as [`idx2crd`].
#[pyfunction]
#[pyo3(signature = (crd, shape, stride = None))]
fn crd2idx(
    py: Python<'_>,
    crd: &Bound<'_, PyAny>,
    shape: &Bound<'_, PyAny>,
    stride: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    if let Some(i) = stride.and_then(|d| crd2idx_of_ints(crd, shape, d, 0)) {
        return Ok(i.into_pyobject(py)?.into_any().unbind());
    }
    let (shape, stride) = shape_and_stride(shape, stride)?;
    pv_py(py, &crd2idx_pv(&pv(crd)?, &shape, &stride)?)
}

fn crd2crd_pv(crd: &Pv, dst: &Pv, src: Option<&Pv>) -> PyResult<Pv> {
    match (crd, dst) {
        (Pv::T(cs), Pv::T(ds)) => {
            if cs.len() != ds.len() {
                return Err(fails("crd2crd", "tuples of different lengths"));
            }
            Ok(Pv::T(cs.iter().zip(ds).map(|(c, d)| crd2crd_pv(c, d, None)).collect::<PyResult<_>>()?))
        }
        (Pv::T(_), _) => {
            let Some(src) = src else {
                return Err(fails("crd2crd", "a tuple coordinate for an int shape needs src_shape"));
            };
            let stride = prefix_product_pv(src, &Pv::I(1))?;
            crd2idx_pv(crd, src, &stride)
        }
        (c, d @ Pv::T(_)) => {
            let stride = prefix_product_pv(d, &Pv::I(1))?;
            idx2crd_pv(c, d, &stride)
        }
        (c, d) => {
            let (c, d) = (int_of("crd2crd", c)?, int_of("crd2crd", d)?);
            if c >= d {
                return Err(fails("crd2crd", format_args!("the coordinate {c} is not below the extent {d}")));
            }
            Ok(Pv::I(c))
        }
    }
}

/// `crd2crd(crd, dst_shape, src_shape=None)`: a coordinate in another shape.
#[pyfunction]
#[pyo3(signature = (crd, dst_shape, src_shape = None))]
fn crd2crd(
    py: Python<'_>,
    crd: &Bound<'_, PyAny>,
    dst_shape: &Bound<'_, PyAny>,
    src_shape: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let src = match src_shape.filter(|s| !s.is_none()) {
        Some(s) => Some(pv(s)?),
        None => None,
    };
    pv_py(py, &crd2crd_pv(&pv(crd)?, &pv(dst_shape)?, src.as_ref())?)
}

/// `slice_(crd, trg)`: the parts of `trg` where `crd` is `None`, as a tuple.
#[pyfunction]
#[pyo3(name = "slice_")]
fn slice_py<'py>(crd: &Bound<'py, PyAny>, trg: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    slice_of(crd, trg)
}

/// `has_none(a)`: whether `None` is a leaf of `a`.
#[pyfunction]
#[pyo3(name = "has_none")]
fn has_none_py(a: &Bound<'_, PyAny>) -> PyResult<bool> {
    has_none(a)
}

fn flatten_into<'py>(t: &Bound<'py, PyAny>, out: &mut Vec<Bound<'py, PyAny>>, depth: usize) -> PyResult<()> {
    if let Ok(tt) = t.cast::<PyTuple>() {
        if depth > kute::limits::MAX_DEPTH + 8 {
            return Err(KuteError::new_err("flatten: a tuple nested too deeply"));
        }
        for x in tt.iter() {
            flatten_into(&x, out, depth + 1)?;
        }
        return Ok(());
    }
    out.push(t.clone());
    Ok(())
}

/// `flatten(t)`: the leaves of `t` as a flat tuple (`(t,)` for a non-tuple).
#[pyfunction]
fn flatten<'py>(t: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
    let mut out = Vec::new();
    flatten_into(t, &mut out, 0)?;
    PyTuple::new(t.py(), out)
}

/// Whether a Python value holds an unknown (a symbolic `kute.IntTuple`, a
/// sympy expression with free symbols, a layout of them); `false` for what
/// is no value of kute.
fn has_symbols(obj: &Bound<'_, PyAny>) -> bool {
    if is_int(obj) || obj.is_none() {
        return false;
    }
    if let Ok(l) = obj.cast::<PyLayout>() {
        return l.get().inner.has_symbols();
    }
    crate::convert::to_value(obj).is_ok_and(|v| v.has_symbols())
}

/// `_has_symbols(x)`: whether `x` holds an unknown (the symbolic path of
/// `kute.pycute`).
#[pyfunction]
fn _has_symbols(x: &Bound<'_, PyAny>) -> bool {
    has_symbols(x)
}

/// `_from_kute(L)`: a `kute.Layout` as a `kute.pycute.Layout` (the answers of
/// the symbolic path, which are kute's).
#[pyfunction]
fn _from_kute(py: Python<'_>, layout: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    match layout.cast::<PyLayout>() {
        Ok(l) => PcLayout::wrap(py, (*l.get().inner).clone()),
        Err(_) => Err(PyTypeError::new_err(format!("_from_kute takes a layout, not {}", layout.get_type().name()?))),
    }
}

/// Adds the submodule `_pycute` (what `kute.pycute` re-exports) to `m`.
pub fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let sub = PyModule::new(m.py(), "_pycute")?;
    sub.add_function(wrap_pyfunction!(_has_symbols, &sub)?)?;
    sub.add_function(wrap_pyfunction!(_from_kute, &sub)?)?;
    sub.add_function(wrap_pyfunction!(_symbolic_hook, &sub)?)?;
    sub.add_class::<PcLayout>()?;
    #[cfg(not(feature = "abi3"))]
    crate::capi::install::<PcLayout>(m.py());
    sub.add_function(wrap_pyfunction!(make_layout, &sub)?)?;
    sub.add_function(wrap_pyfunction!(size, &sub)?)?;
    sub.add_function(wrap_pyfunction!(cosize, &sub)?)?;
    sub.add_function(wrap_pyfunction!(coalesce, &sub)?)?;
    sub.add_function(wrap_pyfunction!(filter, &sub)?)?;
    sub.add_function(wrap_pyfunction!(composition_py, &sub)?)?;
    sub.add_function(wrap_pyfunction!(complement_py, &sub)?)?;
    sub.add_function(wrap_pyfunction!(right_inverse, &sub)?)?;
    sub.add_function(wrap_pyfunction!(left_inverse, &sub)?)?;
    sub.add_function(wrap_pyfunction!(logical_divide, &sub)?)?;
    sub.add_function(wrap_pyfunction!(logical_product, &sub)?)?;
    sub.add_function(wrap_pyfunction!(hier_unzip, &sub)?)?;
    sub.add_function(wrap_pyfunction!(zipped_divide, &sub)?)?;
    sub.add_function(wrap_pyfunction!(tiled_divide, &sub)?)?;
    sub.add_function(wrap_pyfunction!(zipped_product, &sub)?)?;
    sub.add_function(wrap_pyfunction!(tiled_product, &sub)?)?;
    sub.add_function(wrap_pyfunction!(blocked_product, &sub)?)?;
    sub.add_function(wrap_pyfunction!(raked_product, &sub)?)?;
    sub.add_function(wrap_pyfunction!(slice_and_offset, &sub)?)?;
    sub.add_function(wrap_pyfunction!(product, &sub)?)?;
    sub.add_function(wrap_pyfunction!(inner_product, &sub)?)?;
    sub.add_function(wrap_pyfunction!(tuple_max, &sub)?)?;
    sub.add_function(wrap_pyfunction!(elem_scale, &sub)?)?;
    sub.add_function(wrap_pyfunction!(shape_div, &sub)?)?;
    sub.add_function(wrap_pyfunction!(prefix_product, &sub)?)?;
    sub.add_function(wrap_pyfunction!(idx2crd, &sub)?)?;
    sub.add_function(wrap_pyfunction!(crd2idx, &sub)?)?;
    sub.add_function(wrap_pyfunction!(crd2crd, &sub)?)?;
    sub.add_function(wrap_pyfunction!(slice_py, &sub)?)?;
    sub.add_function(wrap_pyfunction!(has_none_py, &sub)?)?;
    sub.add_function(wrap_pyfunction!(flatten, &sub)?)?;
    m.add_submodule(&sub)?;
    Ok(())
}
