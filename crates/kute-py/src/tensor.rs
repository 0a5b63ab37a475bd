//! The native helpers of `kute.Tensor` (python/kute/_tensor.py): a tensor
//! over a Python buffer is a numpy array of the buffer's elements plus kute's
//! counting tensor of the same layout and offset (`make_tensor(counting, L)`),
//! whose element at a coordinate is the position of that element in the
//! buffer. Slices, divides and partitions are kute's, on the counting tensor;
//! these helpers give every position at once, and CuTe's `print_tensor` of
//! the buffer's elements.

use crate::types::{kerr, PyValue};
use kute::expr::{TensorValue, Value};
use kute::layout::point::Point;
use kute::tensor::{print_tensor, Coords, Counting, Engine, PrettyPrint, Tensor};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

/// The counting tensor of a `kute.Value`, or `TypeError`.
fn counting(t: &Bound<'_, PyAny>) -> PyResult<Tensor<Counting>> {
    let v = t.cast::<PyValue>().map_err(|_| PyTypeError::new_err("expected a kute counting tensor"))?;
    match &v.get().inner {
        Value::Tensor(b) => match &**b {
            TensorValue::Counting(c) => Ok(c.clone()),
            TensorValue::Identity(_) => {
                Err(PyTypeError::new_err("expected a counting tensor, not a coordinate tensor"))
            }
            TensorValue::Tmem(_) => Err(PyTypeError::new_err("expected a counting tensor, not a tensor-memory tensor")),
            TensorValue::Pointer(_) => {
                Err(PyTypeError::new_err("expected a counting tensor, not a gmem or smem tensor"))
            }
            TensorValue::Im2col(_) => {
                Err(PyTypeError::new_err("expected a counting tensor, not an im2col TMA coordinate tensor"))
            }
        },
        other => Err(PyTypeError::new_err(format!("expected a counting tensor, not {}", other.kind_name()))),
    }
}

/// `_positions(T)`: the position (offset plus layout value) of each element
/// of the counting tensor `T`, in the order of its 1-D coordinates.
#[pyfunction]
pub fn _positions(t: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    let t = counting(t)?;
    let n = t.size().map_err(kerr)?;
    (0..n).map(|i| t.get(i).map_err(kerr)).collect()
}

/// Elements read from a window of the buffer: positions `base..base+len`.
struct Window<T> {
    data: Vec<T>,
    base: i64,
    header: String,
}

impl<T: Clone> Engine for Window<T> {
    type Elem = T;

    fn read(&self, at: &Point) -> kute::Result<T> {
        let p = at.as_int().map(|i| i.value()).unwrap_or(-1);
        p.checked_sub(self.base)
            .and_then(|k| usize::try_from(k).ok())
            .and_then(|k| self.data.get(k).cloned())
            .ok_or_else(|| {
                kute::Error::new(
                    kute::ErrorKind::Mismatch,
                    "print_tensor",
                    format!("the position {at} is outside the buffer"),
                )
            })
    }

    fn describe(&self, _offset: &Point) -> String {
        self.header.clone()
    }
}

fn print_window<T: Clone + PrettyPrint>(
    t: &Tensor<Counting>,
    data: Vec<T>,
    base: i64,
    header: String,
) -> PyResult<String> {
    let w = Tensor::with_offset(Window { data, base, header }, t.layout().clone(), t.offset().clone());
    print_tensor(&w).map_err(kerr)
}

/// `_print_tensor(T, values, base, kind, header)`: CuTe's `print_tensor` of
/// the tensor whose positions are those of the counting tensor `T` and whose
/// element at position `p` is `values[p - base]`; `kind` is how CuTe prints
/// the elements (`"f32"`, `"f64"`, `"int"`, `"uint"`, `"bool"`), `header` the
/// pointer CuTe prints before the layout (`ptr[32b](0x...)`).
#[pyfunction]
pub fn _print_tensor(
    t: &Bound<'_, PyAny>,
    values: &Bound<'_, PyAny>,
    base: i64,
    kind: &str,
    header: String,
) -> PyResult<String> {
    let t = counting(t)?;
    match kind {
        "f32" => {
            let v: Vec<f64> = values.extract()?;
            // (the values came from 16- or 32-bit floats: exact in f32)
            print_window(&t, v.into_iter().map(|x| x as f32).collect(), base, header)
        }
        "f64" => print_window(&t, values.extract::<Vec<f64>>()?, base, header),
        "int" => print_window(&t, values.extract::<Vec<i64>>()?, base, header),
        "uint" => print_window(&t, values.extract::<Vec<u64>>()?, base, header),
        "bool" => print_window(&t, values.extract::<Vec<bool>>()?, base, header),
        other => Err(PyValueError::new_err(format!("print_tensor: no printing of elements of kind {other:?}"))),
    }
}

/// A layout or composed layout of a Python argument, or `TypeError`.
fn any_layout(layout: &Bound<'_, PyAny>) -> PyResult<kute::AnyLayout> {
    match crate::convert::to_value(layout)? {
        Value::Layout(l) => Ok(kute::AnyLayout::Layout(l)),
        Value::Composed(c) => Ok(kute::AnyLayout::Composed(c)),
        other => Err(PyTypeError::new_err(format!("expected a layout, not {}", other.kind_name()))),
    }
}

/// `_counting_tensor(L, offset)`: kute's counting tensor of `L` at `offset`
/// (CuTe's `make_tensor(counting_iterator(offset), L)`): the position of
/// each element of a tensor whose origin is the buffer's element `offset`.
#[pyfunction]
pub fn _counting_tensor(py: Python<'_>, layout: &Bound<'_, PyAny>, offset: i64) -> PyResult<Py<PyAny>> {
    let at = Point::Scalar(kute::Int::new_dynamic(offset).into());
    let v = Tensor::with_offset(Counting, any_layout(layout)?, at);
    crate::convert::to_py(py, Value::Tensor(Box::new(TensorValue::Counting(v))))
}

/// `_relayout(T, L)`: the counting or coordinate tensor with `T`'s offset
/// and the layout `L` (a layout or composed layout): CuTe's
/// `make_tensor(T.data(), L)`, as `composition(T, L')` or `coalesce(T)` make it.
#[pyfunction]
pub fn _relayout(py: Python<'_>, t: &Bound<'_, PyAny>, layout: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let v = t.cast::<PyValue>().map_err(|_| PyTypeError::new_err("expected a kute tensor"))?;
    let layout = any_layout(layout)?;
    let out = match &v.get().inner {
        Value::Tensor(b) => match &**b {
            TensorValue::Counting(c) => {
                TensorValue::Counting(Tensor::with_offset(Counting, layout, c.offset().clone()))
            }
            TensorValue::Identity(c) => TensorValue::Identity(Tensor::with_offset(Coords, layout, c.offset().clone())),
            TensorValue::Pointer(c) => {
                TensorValue::Pointer(Tensor::with_offset(c.engine().clone(), layout, c.offset().clone()))
            }
            TensorValue::Tmem(_) => {
                return Err(PyTypeError::new_err(
                    "expected a counting or coordinate tensor, not a tensor-memory tensor",
                ))
            }
            TensorValue::Im2col(_) => {
                return Err(PyTypeError::new_err(
                    "expected a counting or coordinate tensor, not an im2col TMA coordinate tensor",
                ))
            }
        },
        other => return Err(PyTypeError::new_err(format!("expected a tensor, not {}", other.kind_name()))),
    };
    crate::convert::to_py(py, Value::Tensor(Box::new(out)))
}
