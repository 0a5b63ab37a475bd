//! The module functions: `eval`, `call` (every function of the expression
//! language by name), the direct paths of the algebra, and the symbolic helpers.

use crate::convert::{from_value, to_py, to_value, to_values};
use crate::types::{kerr, KuteError, LayoutBox, PyIntTuple, PyLayout};
use kute::expr::{self, Value};
use kute::AsTiler;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyString, PyTuple};
use smallvec::SmallVec;

/// `kute.eval(text, **names)`: the value of an expression of kute's
/// language, as a `Layout`, `IntTuple` (static marks kept), `Tiler`,
/// `Swizzle`, `bool` or `Value`; the keyword arguments are names the text may
/// use (`M=kute.sym("M", div=128)`, `L=layout`).
#[pyfunction]
#[pyo3(signature = (src, **names))]
pub fn eval(py: Python<'_>, src: &str, names: Option<&Bound<'_, PyDict>>) -> PyResult<Py<PyAny>> {
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
pub fn sym(py: Python<'_>, name: &str, div: i64, min: i64, ne: Vec<Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
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
pub fn substitute(py: Python<'_>, value: &Bound<'_, PyAny>, values: &Bound<'_, PyDict>) -> PyResult<Py<PyAny>> {
    let mut v = kute::sym::Valuation::new();
    for (k, x) in values.iter() {
        v.set(&k.extract::<String>()?, x.extract::<i64>()?);
    }
    let out = to_value(value)?.substitute(&v).map_err(kerr)?;
    if value.cast::<PyIntTuple>().is_ok() {
        return from_value(py, out);
    }
    to_py(py, out)
}

/// `kute.as_dsl(value)`: the value printed as CuTe DSL prints it (`?`,
/// `?{div=N}`, no static marks).
#[pyfunction]
pub fn as_dsl(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let v = to_value(value)?;
    Ok(kute::sym::as_dsl(|| v.to_string()))
}

/// The template arguments of a call of `f`: an int, a type name, or a
/// tuple or list of them (a type name is read for the entries whose template
/// arguments are element types, as its width in bits).
fn template_args(f: &expr::FunctionInfo, name: &str, targs: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<i64>> {
    let Some(t) = targs else {
        return Ok(Vec::new());
    };
    if t.is_none() {
        return Ok(Vec::new());
    }
    let items: Vec<Bound<'_, PyAny>> = if t.cast::<PyInt>().is_ok() || t.cast::<PyString>().is_ok() {
        vec![t.clone()]
    } else if let Ok(seq) = t.try_iter() {
        seq.collect::<PyResult<_>>()?
    } else {
        return Err(PyTypeError::new_err(format!(
            "{name}: targs takes an int, a type name, or a tuple of them; got {}",
            t.get_type().name()?
        )));
    };
    items
        .iter()
        .map(|x| {
            if let Ok(s) = x.cast::<PyString>() {
                let ty = s.to_cow()?;
                if !f.type_targs {
                    return Err(PyTypeError::new_err(format!(
                        "{name} takes integers as template arguments, not the type '{ty}'"
                    )));
                }
                return kute::sizeof_bits(&ty).ok_or_else(|| {
                    KuteError::new_err(format!(
                        "{name}: unknown element type '{ty}' (CuTe's names: uint8_t, half_t, float, ...)"
                    ))
                });
            }
            if x.cast::<PyInt>().is_ok() {
                return x.extract::<i64>();
            }
            Err(PyTypeError::new_err(format!(
                "{name}: a template argument is an int or a type name, not {}",
                x.get_type().name()?
            )))
        })
        .collect()
}

/// The checks Python makes of a call: the function exists, and takes this
/// many (template) arguments (else `TypeError`, as Python's own functions).
fn checked_call(name: &str, n_args: usize, targs: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<i64>> {
    let Some(f) = expr::lookup(name) else {
        return Err(kerr(expr::call(name, &[], &[]).err().unwrap_or_else(|| {
            kute::Error::new(kute::ErrorKind::UnknownName, "evaluate", format!("unknown function '{name}'"))
        })));
    };
    let targs = template_args(f, name, targs)?;
    if !f.targs.accepts(targs.len()) {
        let expr::Count { min, max } = f.targs;
        let range = if min == max { format!("{min}") } else { format!("{min} to {max}") };
        return Err(PyTypeError::new_err(format!(
            "{name} takes {range} template argument(s) (targs=), got {}",
            targs.len()
        )));
    }
    let c = f.arg_count(targs.len());
    if !c.accepts(n_args) {
        let range = match (c.min, c.max) {
            (a, b) if a == b => format!("{a}"),
            (a, usize::MAX) => format!("at least {a}"),
            (a, b) => format!("{a} to {b}"),
        };
        return Err(PyTypeError::new_err(format!("{name} takes {range} argument(s), got {n_args}")));
    }
    Ok(targs)
}

/// `kute.call(name, *args, targs=())`: the function `name` of the expression
/// language (its CuTe name) on the arguments, answered as plain Python where
/// Python has the value (ints and tuples); `targs` are its template
/// arguments (`size<1>(L)` is `call("size", L, targs=1)`; element types by
/// name or width in bits: `targs=("half_t", "uint128_t")`). A wrong count of
/// arguments is a `TypeError`.
#[pyfunction]
#[pyo3(signature = (name, *args, targs = None))]
pub fn call(
    py: Python<'_>,
    name: &str,
    args: &Bound<'_, PyTuple>,
    targs: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let targs = checked_call(name, args.len(), targs)?;
    to_py(py, expr::call(name, &targs, &to_values(args)?).map_err(kerr)?)
}

/// A direct path to one of kute's algebra functions, taken when the operands
/// are `Layout`s (no conversion, no lookup): the function the expression
/// language calls for layouts, so the answers and messages are the same.
#[derive(Clone, Copy)]
enum Direct {
    /// `f(L)`, written into its first argument (kute's `*_into` form: the
    /// answer is built in the storage of its Python object, not moved there).
    Unary(fn(&mut kute::Layout, &kute::Layout) -> kute::Result<()>),
    /// `f(A, B)`, written into its first argument.
    Binary(fn(&mut kute::Layout, &kute::Layout, &kute::Layout) -> kute::Result<()>),
    /// `f(A, B)` for a layout `B` (the first function), and for a by-mode
    /// tiler (the second): a Python tuple of layouts, ints, `None` and tuples
    /// of them, read as the expression language reads it (a layout as
    /// itself, an int as a dynamic one, `None` as `_`), without the language;
    /// written into its first argument.
    Tiled(
        fn(&mut kute::Layout, &kute::Layout, &kute::Layout) -> kute::Result<()>,
        fn(&mut kute::Layout, &kute::Layout, &kute::Tiler) -> kute::Result<()>,
    ),
    /// `f(A, M)`, `M` an integer tuple: a Python int or tuple of ints, an
    /// `IntTuple`, or a layout's shape (as the expression language reads it);
    /// written into its first argument; `f(A)` (the second function) without one.
    Cotarget(
        fn(&mut kute::Layout, &kute::Layout, &kute::IntTuple) -> kute::Result<()>,
        fn(&mut kute::Layout, &kute::Layout) -> kute::Result<()>,
    ),
    /// `f(L)`, an integer: `None` where the expression language answers
    /// another way (its general path answers then, and any error is its own).
    Integer(fn(&kute::Layout) -> Option<kute::Result<kute::Int>>),
    /// `f(L0, L1, ...)` of one or more layouts, written into its first argument.
    Layouts(fn(&mut kute::Layout, &[&kute::Layout]) -> kute::Result<()>),
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
        // (the layouts are borrowed from their Python objects: no copy)
        let first = args.get_item(0).ok();
        let a = first.as_ref().and_then(|x| x.cast::<PyLayout>().ok());
        if let (Direct::Integer(f), 1, Some(a)) = (direct, args.len(), a)
            && let Some(Ok(n)) = f(&a.get().inner)
        {
            return crate::convert::int(py, Ok(n));
        }
        let mut out = LayoutBox::storage();
        if let Direct::Layouts(f) = direct
            && let Some(ls) = args.iter().map(|x| x.cast_into::<PyLayout>().ok()).collect::<Option<SmallVec<[_; 4]>>>()
            && !ls.is_empty()
        {
            let ls: SmallVec<[&kute::Layout; 4]> = ls.iter().map(|l| &*l.get().inner).collect();
            // (an error: the general path's own)
            if f(&mut out, &ls).is_ok() {
                return Ok(Py::new(py, PyLayout { inner: out })?.into_any());
            }
        }
        let done = match (direct, args.len(), a) {
            (Direct::Unary(f), 1, Some(a)) => Some(f(&mut out, &a.get().inner)),
            (Direct::Binary(f), 2, Some(a)) => match args.get_item(1)?.cast::<PyLayout>() {
                Ok(b) => Some(f(&mut out, &a.get().inner, &b.get().inner)),
                Err(_) => None,
            },
            (Direct::Tiled(f, g), 2, Some(a)) => {
                let b = args.get_item(1)?;
                if let Ok(b) = b.cast::<PyLayout>() {
                    Some(f(&mut out, &a.get().inner, &b.get().inner))
                } else if let Some(t) = by_mode_tiler(&b, 0)?
                    && !a.get().inner.has_symbols()
                {
                    Some(g(&mut out, &a.get().inner, &t))
                } else {
                    None
                }
            }
            (Direct::Cotarget(_, f), 1, Some(a)) => Some(f(&mut out, &a.get().inner)),
            (Direct::Cotarget(f, _), 2, Some(a)) => {
                let a = &a.get().inner;
                let m = args.get_item(1)?;
                if let Ok(i) = m.cast_exact::<PyInt>() {
                    Some(f(&mut out, a, &kute::IntTuple::int_dynamic(i.extract::<i64>()?)))
                } else if let Ok(l) = m.cast::<PyLayout>() {
                    Some(f(&mut out, a, &l.get().inner.shape()))
                } else if let Ok(t) = m.cast::<PyIntTuple>() {
                    Some(f(&mut out, a, &t.get().inner))
                } else if m.cast::<PyInt>().is_ok() {
                    Some(f(&mut out, a, &kute::IntTuple::int_dynamic(m.extract::<i64>()?)))
                } else {
                    None
                }
            }
            _ => None,
        };
        match done {
            Some(Ok(())) => return Ok(Py::new(py, PyLayout { inner: out })?.into_any()),
            Some(Err(e)) => return Err(kerr(e)),
            None => {}
        }
    }
    if let Some(r) = tensor_hook(py, name, args, targs)? {
        return Ok(r);
    }
    call(py, name, args, targs)
}

/// A Python tuple of layouts, ints, `None` and tuples of them as the by-mode
/// tiler the expression language reads from it; `None` for anything else (a
/// symbolic layout, a tensor, an int past 64 bits, nesting past a few levels),
/// which the language reads itself.
fn by_mode_tiler(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<Option<kute::Tiler>> {
    let Ok(t) = obj.cast_exact::<PyTuple>() else { return Ok(None) };
    if depth > 4 || t.len() > kute::limits::MAX_RANK {
        return Ok(None);
    }
    let mut modes = Vec::with_capacity(t.len());
    for x in t.iter() {
        let m = if let Ok(l) = x.cast::<PyLayout>() {
            let l = &l.get().inner;
            if l.has_symbols() {
                return Ok(None);
            }
            kute::Tiler::Layout((**l).clone())
        } else if x.is_none() {
            kute::Tiler::Underscore
        } else if let Ok(i) = x.cast_exact::<PyInt>() {
            match i.extract::<i64>() {
                Ok(n) => kute::Tiler::Int(kute::Int::new_dynamic(n)),
                Err(_) => return Ok(None),
            }
        } else {
            match by_mode_tiler(&x, depth + 1)? {
                Some(m) => m,
                None => return Ok(None),
            }
        };
        modes.push(m);
    }
    Ok(Some(kute::Tiler::Tuple(modes)))
}

/// The tensor classes of the Python part (`kute.Tensor`, `kute.IdentityTensor`)
/// and the tensor-aware forms of the module functions with a direct path, by name.
type TensorHooks = (Py<PyTuple>, Py<PyDict>);

static TENSOR_HOOKS: std::sync::Mutex<Option<TensorHooks>> = std::sync::Mutex::new(None);

/// `_tensor_hooks(types, hooks)`: the functions with a direct path answer a
/// call with an operand of one of `types` (the tensor classes) by `hooks[name]`
/// (the Python part's tensor-aware form of the function), and every other call
/// themselves, without a Python frame in between.
#[pyfunction]
pub fn _tensor_hooks(types: Bound<'_, PyTuple>, hooks: Bound<'_, PyDict>) {
    *TENSOR_HOOKS.lock().unwrap_or_else(|p| p.into_inner()) = Some((types.unbind(), hooks.unbind()));
}

/// The answer of the tensor-aware form of `name` when an operand is a tensor.
fn tensor_hook(
    py: Python<'_>,
    name: &str,
    args: &Bound<'_, PyTuple>,
    targs: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Py<PyAny>>> {
    let hook = {
        let hooks = TENSOR_HOOKS.lock().unwrap_or_else(|p| p.into_inner());
        let Some((types, hooks)) = hooks.as_ref() else {
            return Ok(None);
        };
        let types = types.bind(py);
        if !args.iter().any(|a| a.is_instance(types).unwrap_or(false)) {
            return Ok(None);
        }
        match hooks.bind(py).get_item(name)? {
            Some(h) => h,
            None => return Ok(None),
        }
    };
    let kwargs = PyDict::new(py);
    if let Some(t) = targs {
        kwargs.set_item("targs", t)?;
    }
    Ok(Some(hook.call(args, Some(&kwargs))?.unbind()))
}

macro_rules! direct {
    ($($name:ident: $kind:ident($($f:expr),+), $doc:literal;)*) => {
        $(
            #[doc = $doc]
            #[doc = ""]
            #[doc = "Any operands the expression language takes (tilers, shapes, strings); template arguments as `targs=`."]
            #[pyfunction]
            #[pyo3(signature = (*args, targs = None))]
            fn $name(py: Python<'_>, args: &Bound<'_, PyTuple>, targs: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
                direct_call(py, stringify!($name), Direct::$kind($($f),+), args, targs)
            }
        )*
        /// Adds the functions with a direct path to the module.
        pub fn add_direct(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $(m.add_function(wrap_pyfunction!($name, m)?)?;)*
            Ok(())
        }
    };
}

direct! {
    make_layout: Layouts(crate::build::concat_into), "make_layout(S[, D]) | make_layout(L0, L1, ...): a layout from a shape (and stride or LayoutLeft{}/LayoutRight{}), or the layouts side by side.";
    size: Integer(|l| Some(l.size())), "size(X): the product of the shape (an int; size<I...>(X) with targs= for a mode).";
    cosize: Integer(|l| l.has_int_strides().then(|| l.cosize())), "cosize(L): one past the largest index (an int; cosize<I...>(L) with targs= for a mode).";
    coalesce: Unary(kute::coalesce_into), "coalesce(L[, profile]): the fewest modes with the same function (CuTe's coalesce).";
    filter: Unary(|o, l| {
        o.clone_from(&kute::filter(l)?);
        Ok(())
    }), "filter(L[, profile]): coalesce without the stride-0 and size-1 modes (CuTe's filter).";
    right_inverse: Unary(|o, l| {
        o.clone_from(&kute::right_inverse(l)?);
        Ok(())
    }), "right_inverse(L): R with L(R(i)) = i (CuTe's right_inverse).";
    left_inverse: Unary(|o, l| {
        o.clone_from(&kute::left_inverse(l)?);
        Ok(())
    }), "left_inverse(L): R with R(L(i)) = i (CuTe's left_inverse).";
    composition: Tiled(kute::composition_into, kute::composition_tiler_into), "composition(A, B): R(c) = A(B(c)); B a layout, a shape or a tiler.";
    complement: Cotarget(|o, a, m| kute::complement_into(o, a, m), |o, a| {
        o.clone_from(&kute::complement_self(a)?);
        Ok(())
    }), "complement(A[, M]): the layout filling A's gaps up to M (without M: up to cosize(filter(A))).";
    logical_divide: Tiled(|o, a, b| kute::logical_divide_into(o, a, &b.as_tiler()), kute::logical_divide_into), "logical_divide(A, T): A o (T, complement(T)): (tile, rest).";
    zipped_divide: Tiled(|o, a, b| kute::zipped_divide_into(o, a, &b.as_tiler()), kute::zipped_divide_into), "zipped_divide(A, T): ((tile), (rest)).";
    tiled_divide: Tiled(|o, a, b| kute::tiled_divide_into(o, a, &b.as_tiler()), kute::tiled_divide_into), "tiled_divide(A, T): ((tile), rest...).";
    flat_divide: Tiled(|o, a, b| kute::flat_divide_into(o, a, &b.as_tiler()), kute::flat_divide_into), "flat_divide(A, T): (tile..., rest...).";
    logical_product: Tiled(|o, a, b| kute::logical_product_into(o, a, &b.as_tiler()), kute::logical_product_into), "logical_product(A, B): (A, complement(A) o B).";
    zipped_product: Tiled(|o, a, b| kute::zipped_product_into(o, a, &b.as_tiler()), kute::zipped_product_into), "zipped_product(A, B): ((A), (rest)).";
    tiled_product: Tiled(|o, a, b| kute::tiled_product_into(o, a, &b.as_tiler()), kute::tiled_product_into), "tiled_product(A, B): ((A), rest...).";
    flat_product: Tiled(|o, a, b| kute::flat_product_into(o, a, &b.as_tiler()), kute::flat_product_into), "flat_product(A, B): (A..., rest...).";
    blocked_product: Binary(kute::blocked_product_into), "blocked_product(A, B): B repeats block A, mode by mode.";
    raked_product: Binary(kute::raked_product_into), "raked_product(A, B): A's elements interleaved by B, mode by mode.";
}

/// `kute.functions()`: every function of the expression language, as
/// `(name, aliases, signature, summary)` (what `kute functions` lists).
#[pyfunction]
pub fn functions() -> Vec<(&'static str, Vec<&'static str>, &'static str, &'static str)> {
    expr::FUNCTIONS.iter().map(|f| (f.name, f.aliases.to_vec(), f.signature, f.summary)).collect()
}

/// Whether every integer written in the expression `src` is static (`_8`),
/// as the shared vector files tell exact answers from by-value ones.
#[pyfunction]
pub fn _all_static(src: &str) -> PyResult<bool> {
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
