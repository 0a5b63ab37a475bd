//! CuTe's print functions as calls: `print(X)`, `print_layout(L)`,
//! `print_latex(X)` and `print_tensor(T)`, each giving CuTe's text byte for
//! byte (the printers of [`crate::print`] and [`crate::tensor::print_tensor`],
//! as `kute table` and `kute latex` print them).
//!
//! CuTe's print functions return nothing; a print call's value is what it
//! printed ([`Value::Printed`]): `kute eval` and the interactive session show
//! it as it is, and it is the operand of no other call.
//!
//! ```
//! use kute::expr::eval;
//! let t = eval("print_layout((_2,_2):(_1,_2))").unwrap().to_string();
//! assert_eq!(t.lines().nth(3), Some(" 0  | 0 | 2 |"));
//! assert_eq!(eval("print(make_layout((_2,_4)))").unwrap().to_string(), "(_2,_4):(_1,_2)");
//! assert!(eval("size(print((_2,_4):(_1,_2)))").is_err());
//! ```

use super::args::Args;
use super::tensors::as_tensor;
use crate::composed::AnyLayout;
use crate::error::{Error, ErrorKind, Result};
use crate::expr::tensor_value::TensorValue;
use crate::expr::value::Value;

/// `print(X)`: CuTe's `print` of any value (what the value shows), byte for
/// byte: CuTe ends the description of an atom, a tiled MMA or copy and a
/// thread slice with a newline, and a layout or tuple without one.
pub(super) fn print(a: &Args) -> Result<Value> {
    let text = a[0].to_string();
    Ok(Value::Printed(match &a[0] {
        Value::MmaAtom(_) | Value::TiledMma(_) | Value::CopyAtom(_) | Value::TiledCopy(_) | Value::ThrSlice(_) => {
            text + "\n"
        }
        _ => text,
    }))
}

/// The layout a picture draws, else a `Type` error naming `a.name` (a shape
/// gets the hint of `make_layout`).
fn drawn(a: &Args) -> Result<AnyLayout> {
    match &a[0] {
        Value::IntTuple(_) => Err(a.wrong(0, "the layout", "a layout (make_layout(S) makes one from a shape)")),
        v => v.to_any_layout("").map_err(|_| a.wrong(0, "the layout", "a layout or composed layout")),
    }
}

/// `print_layout(L)`: CuTe's table of a layout or composed layout (`kute table`).
pub(super) fn print_layout(a: &Args) -> Result<Value> {
    Ok(Value::Printed(crate::print::table(&drawn(a)?).map_err(|e| e.within(a.name))?))
}

/// `print_latex(X)`: CuTe's TikZ picture of a layout or composed layout, an
/// MMA atom or TiledMMA (its C, A and B panels) or a TiledCopy (its source
/// and destination panels), as `kute latex` prints it.
pub(super) fn print_latex(a: &Args) -> Result<Value> {
    let text = match &a[0] {
        Value::TiledMma(m) => crate::print::latex_mma(m),
        Value::MmaAtom(x) => {
            crate::atom::TiledMma::new((**x).clone(), None, None).and_then(|m| crate::print::latex_mma(&m))
        }
        Value::TiledCopy(c) => crate::print::latex_copy(c),
        Value::CopyAtom(_) => {
            return Err(Error::new(
                ErrorKind::Type,
                a.name,
                "CuTe draws a TiledCopy, not a copy atom: make_tiled_copy(atom, thr, val) makes one",
            ))
        }
        _ => crate::print::latex(&drawn(a)?),
    };
    Ok(Value::Printed(text.map_err(|e| e.within(a.name))?))
}

/// `print_tensor(T)`: CuTe's `print_tensor` of a counting or identity tensor.
pub(super) fn print_tensor(a: &Args) -> Result<Value> {
    let s = match &*as_tensor(&a[0], "the tensor").map_err(|e| e.in_op(a.name))? {
        TensorValue::Counting(t) => crate::tensor::print_tensor(t)?,
        TensorValue::Identity(t) => crate::tensor::print_tensor(t)?,
        TensorValue::Pointer(t) => {
            use crate::tensor::Engine;
            return Err(Error::new(
                ErrorKind::Type,
                a.name,
                format!("{} o {} points into memory kute does not hold: print(T) shows its pointer and layout, print_tensor(make_tensor(counting, layout(T))) its offsets", t.engine().describe(t.offset()), t.layout()),
            ));
        }
        TensorValue::Tmem(..) => return Err(super::tensors::tmem_unsupported().in_op(a.name)),
        TensorValue::Im2col(_) => return Err(super::im2col_unsupported().in_op(a.name)),
    };
    Ok(Value::Printed(s))
}
