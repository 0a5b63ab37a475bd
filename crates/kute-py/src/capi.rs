//! The calls of CPython's C API that PyO3 does not make for us: the package's
//! one `unsafe` module.
//!
//! - [`int_value`]: a Python int's value in one call of the C API.
//! - Layouts made through CPython's vectorcall protocol (PEP 590): `Layout(s, d)`
//!   without the argument tuple, the keyword dict and `type.__call__` that a
//!   class call costs otherwise. Compiled only without the `abi3` feature (the
//!   limited API hides the slot).
//!
//! PyO3 makes a class's constructor a `tp_new`, which CPython reaches through
//! `type.__call__` with the arguments packed in a new tuple. A type object's
//! `tp_vectorcall` slot (documented CPython API since 3.9, outside the limited
//! API; nanobind fills it the same way) is called instead, with the arguments
//! where the caller has them. [`install`] fills it for `kute.Layout` and
//! `kute.pycute.Layout`: plain Python ints and tuples of them are read in
//! place ([`crate::convert::layout_fast`]) and the object made at once;
//! anything else (keywords, strings, unknowns, errors of the general path) is
//! handed to `type.__call__`, the class's ordinary path, so that answers and
//! messages are the constructor's own.
#![allow(unsafe_code)]

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyInt;

/// The value of a Python int (or of an instance of a subclass of int), `None`
/// past 64 bits.
///
/// Pre: none. Post: `Some(v)` exactly where `int(obj)` is `v` and fits an
/// `i64`; no Python error is left set.
#[inline]
#[allow(clippy::useless_conversion, reason = "a C long is 32 bits on Windows")]
pub fn int_value(obj: &Borrowed<'_, '_, PyInt>) -> Option<i64> {
    let mut overflow = 0;
    // SAFETY: `obj` is a live int (its type checked by the cast to `PyInt`), for
    // which `PyLong_AsLongAndOverflow` reads the value without calling Python
    // code and sets no error: `overflow` says when it does not fit.
    let v = unsafe { ffi::PyLong_AsLongAndOverflow(obj.as_ptr(), &mut overflow) };
    (overflow == 0).then_some(i64::from(v))
}

#[cfg(not(feature = "abi3"))]
pub use vectorcall::{install, FastNew};

#[cfg(not(feature = "abi3"))]
mod vectorcall {
    use std::panic::{catch_unwind, AssertUnwindSafe};
    use std::ptr::null_mut;

    use pyo3::exceptions::PySystemError;
    use pyo3::prelude::*;
    use pyo3::types::{PyDict, PyTuple};
    use pyo3::{ffi, PyTypeInfo};

    use crate::types::LayoutBox;

    /// A layout class of constructor `(shape, stride=None)` with a fast path.
    pub trait FastNew: PyTypeInfo {
        /// The layout of `Self(shape, stride)` where the fast path reads the
        /// arguments, `None` for the class's ordinary path.
        ///
        /// Pre: none. Post: `Ok(Some(l))` is the layout the ordinary path makes
        /// for the same arguments; `Err` is the error it raises.
        fn fast_layout(shape: &Bound<'_, PyAny>, stride: Option<&Bound<'_, PyAny>>) -> PyResult<Option<LayoutBox>>;

        /// A new object of the class holding `inner`.
        fn new_object(py: Python<'_>, inner: LayoutBox) -> PyResult<Py<PyAny>>;
    }

    /// Fills the `tp_vectorcall` slot of the class `T` (made ready by PyO3).
    ///
    /// Pre: the interpreter is attached (`py`). Post: `T(...)` calls
    /// [`vectorcall::<T>`]; a subclass of `T` made in Python does not inherit the
    /// slot and takes the ordinary path.
    pub fn install<T: FastNew>(py: Python<'_>) {
        let ty = T::type_object(py);
        // SAFETY: `ty` is a live, ready type object, and the GIL (held through
        // `py`) serialises this write with every reader of the slot.
        unsafe { (*ty.as_type_ptr()).tp_vectorcall = Some(vectorcall::<T>) }
    }

    /// The vectorcall of the class `T`: [`FastNew::fast_layout`] in a
    /// [`FastNew::new_object`], else `type.__call__`.
    ///
    /// # Safety
    /// Called by CPython only, as a `vectorcallfunc` of the type object `callable`,
    /// with the interpreter attached: `args` holds `nargs` positional arguments and
    /// then one per name of the tuple `kwnames` (or NULL).
    unsafe extern "C" fn vectorcall<T: FastNew>(
        callable: *mut ffi::PyObject,
        args: *const *mut ffi::PyObject,
        nargsf: usize,
        kwnames: *mut ffi::PyObject,
    ) -> *mut ffi::PyObject {
        // SAFETY: CPython calls a vectorcall with the interpreter attached.
        let py = unsafe { Python::assume_attached() };
        // SAFETY: the protocol's argument count, with its flag bit cleared.
        let nargs = unsafe { ffi::PyVectorcall_NARGS(nargsf) } as usize;
        let made = catch_unwind(AssertUnwindSafe(|| -> PyResult<*mut ffi::PyObject> {
            if kwnames.is_null() && (nargs == 1 || nargs == 2) {
                // SAFETY: `args` holds `nargs` live borrowed references.
                let arg = |i: usize| unsafe { Borrowed::from_ptr(py, *args.add(i)) };
                let (shape, stride) = (arg(0), (nargs == 2).then(|| arg(1)));
                if let Some(inner) = T::fast_layout(&shape, stride.as_deref())? {
                    return Ok(T::new_object(py, inner)?.into_ptr());
                }
            }
            // SAFETY: as this function's contract.
            unsafe { type_call(py, callable, args, nargs, kwnames) }
        }));
        match made {
            Ok(Ok(obj)) => obj,
            Ok(Err(e)) => {
                e.restore(py);
                null_mut()
            }
            Err(_) => {
                PySystemError::new_err("kute: a layout's construction panicked (a bug of kute)").restore(py);
                null_mut()
            }
        }
    }

    /// `type.__call__(callable, *args, **kwargs)`: the class's ordinary path.
    ///
    /// # Safety
    /// As [`vectorcall`]'s. Post: a new reference, or NULL with the exception set.
    unsafe fn type_call(
        py: Python<'_>,
        callable: *mut ffi::PyObject,
        args: *const *mut ffi::PyObject,
        nargs: usize,
        kwnames: *mut ffi::PyObject,
    ) -> PyResult<*mut ffi::PyObject> {
        // SAFETY: `args` holds `nargs` live borrowed references, then one per keyword.
        let arg = |i: usize| unsafe { Borrowed::from_ptr(py, *args.add(i)) };
        let positional = PyTuple::new(py, (0..nargs).map(arg))?;
        let keywords = if kwnames.is_null() {
            None
        } else {
            // SAFETY: `kwnames` is a live tuple of strings (the protocol's).
            let names = unsafe { Borrowed::from_ptr(py, kwnames) }.cast::<PyTuple>()?.to_owned();
            let d = PyDict::new(py);
            for (i, name) in names.iter().enumerate() {
                d.set_item(name, arg(nargs + i))?;
            }
            Some(d)
        };
        // SAFETY: `callable` is a live type object; its type's `tp_call` is
        // `type.__call__` (the slot the constructor's `tp_new` is reached through).
        let call = unsafe { (*ffi::Py_TYPE(callable)).tp_call };
        let Some(call) = call else {
            return Err(PySystemError::new_err("kute: a layout class without type.__call__"));
        };
        let kw = keywords.as_ref().map_or(null_mut(), |d| d.as_ptr());
        // SAFETY: the arguments are live for the call; NULL kwargs is allowed.
        let obj = unsafe { call(callable, positional.as_ptr(), kw) };
        if obj.is_null() {
            return Err(PyErr::fetch(py));
        }
        Ok(obj)
    }
}
