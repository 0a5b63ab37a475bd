//! # kute-py — kute's layout algebra for Python
//!
//! The native part of the Python package `kute` (built with maturin:
//! `pip install ./crates/kute-py`). It wraps kute's own types and functions,
//! so that Python gets CuTe's answers exactly as the `kute` command prints them:
//!
//! - [`types`]: `kute.Layout`, `kute.IntTuple`, `kute.Tiler`, `kute.Swizzle`,
//!   `kute.Value` (every other kind of value of the expression language:
//!   coordinates, composed layouts, atoms, tuples of mixed values) and
//!   `kute.KuteError` (a `ValueError`), raised with kute's message for every
//!   error of kute: nothing a user passes makes this module panic;
//! - [`functions`]: `kute.eval(text)`, the expression language
//!   ([`kute::expr::eval`]); `kute.call(name, *args, targs=())`, every function
//!   of the expression language by its CuTe name ([`kute::expr::call`]); the
//!   Python part of the package (`python/kute/__init__.py`) makes one module
//!   function of each (`kute.logical_divide(a, b)`, ...), so that there is one
//!   implementation;
//! - [`pycute`]: the module `kute.pycute`, pycute's API (NVIDIA's pure-Python
//!   CuTe) answered by kute: pycute's answer wherever it is the true one, an
//!   error saying why where it is not;
//! - [`tensor`]: the native helpers of `kute.Tensor` (tensors over numpy
//!   arrays and DLPack buffers, `python/kute/_tensor.py`);
//! - [`convert`]: Python values to kute's and back;
//! - `capi`: the calls of CPython's C API that PyO3 does not make (the one
//!   module with `unsafe` code): an int's value in one call, and the layout
//!   classes' constructors through CPython's vectorcall protocol (left out of
//!   the stable-ABI build, the `abi3` feature).
//!
//! Python values convert to kute's as CuTe's C++ integers would: a Python
//! `int` is a run-time (dynamic) integer, a `str` is evaluated as an
//! expression (`"_8"` is a static 8, `"(4,8):(8,1)"` a layout), a `tuple` or
//! `list` is an integer tuple, a coordinate (with `None` or `kute._` for `_`)
//! or a by-mode tiler (with layouts in it). Answers come back as plain Python
//! where Python has the value (`kute.size(L)` is an `int`, `L.shape` a tuple
//! of ints); `kute.eval` answers kute's own values, static marks kept.

#![warn(missing_docs)]
#![deny(unsafe_code)]

mod build;
mod capi;
pub mod convert;
pub mod functions;
pub mod pycute;
mod pycute_alg;
mod pycute_fmt;
pub mod tensor;
pub mod types;

use pyo3::prelude::*;
use types::{KuteError, PyIntTuple, PyLayout, PySwizzle, PyTiler, PyUnderscore, PyValue};

/// The native module `kute._kute` (re-exported by the package `kute`).
#[pymodule]
fn _kute(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<PyLayout>()?;
    #[cfg(not(feature = "abi3"))]
    capi::install::<PyLayout>(m.py());
    m.add_class::<PyIntTuple>()?;
    m.add_class::<PyTiler>()?;
    m.add_class::<PySwizzle>()?;
    m.add_class::<PyValue>()?;
    m.add_class::<PyUnderscore>()?;
    m.add("_", PyUnderscore)?;
    m.add("KuteError", m.py().get_type::<KuteError>())?;
    m.add_function(wrap_pyfunction!(functions::eval, m)?)?;
    m.add_function(wrap_pyfunction!(functions::sym, m)?)?;
    m.add_function(wrap_pyfunction!(functions::substitute, m)?)?;
    m.add_function(wrap_pyfunction!(functions::as_dsl, m)?)?;
    m.add_function(wrap_pyfunction!(functions::call, m)?)?;
    m.add_function(wrap_pyfunction!(functions::functions, m)?)?;
    m.add_function(wrap_pyfunction!(functions::_all_static, m)?)?;
    m.add_function(wrap_pyfunction!(functions::_tensor_hooks, m)?)?;
    m.add_function(wrap_pyfunction!(tensor::_positions, m)?)?;
    m.add_function(wrap_pyfunction!(tensor::_print_tensor, m)?)?;
    m.add_function(wrap_pyfunction!(tensor::_relayout, m)?)?;
    m.add_function(wrap_pyfunction!(tensor::_counting_tensor, m)?)?;
    functions::add_direct(m)?;
    pycute::add(m)?;
    Ok(())
}
