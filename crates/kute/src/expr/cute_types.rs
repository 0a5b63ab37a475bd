//! CuTe's C++ spellings of its values as types: `Shape<_2,_4>{}`,
//! `Stride<_4,_1>{}`, `Coord<...>{}`, `Step<_1,X,_1>{}`, `Tile<...>{}`,
//! `Layout<Shape<...>,Stride<...>>{}`, `C<4>{}` and `Int<4>{}` (the last two
//! read by the lexer), nested as CuTe nests them.

use super::value::Value;
use crate::error::{Error, ErrorKind, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::syntax::TemplateArg;

/// The value a template argument spells: an integer is static (a template
/// argument is known at compile time), `X` or `_` is CuTe's `Underscore`, a
/// type is evaluated as the value `T{}`.
fn argument(t: &TemplateArg, eval: &dyn Fn(&str) -> Result<Value>) -> Result<Value> {
    match t {
        TemplateArg::Int(v) => Ok(Value::IntTuple(IntTuple::leaf(Int::new_static(*v)))),
        TemplateArg::Type(s) if s == "X" || s == "_" || s == "Underscore" => Ok(Value::Underscore),
        TemplateArg::Type(s) => eval(&format!("{s}{{}}")),
    }
}

/// The value of the CuTe type `name<targs...>{}`, if `name` is one of the
/// spellings above; `eval` evaluates a nested type's text.
///
/// Pre: none. Post: `None` for another name; else the value CuTe's type
/// default-constructs, or the error of the arguments (named by the type).
pub(super) fn type_value(
    name: &str,
    targs: &[TemplateArg],
    eval: &dyn Fn(&str) -> Result<Value>,
) -> Option<Result<Value>> {
    let function = match name {
        "Shape" | "Stride" | "Coord" | "Step" => "make_shape",
        "Tile" => "make_tile",
        "Layout" => "make_layout",
        "Int" | "C" => "",
        _ => return None,
    };
    let run = || -> Result<Value> {
        let args = targs.iter().map(|t| argument(t, eval)).collect::<Result<Vec<Value>>>()?;
        if function.is_empty() {
            return match &args[..] {
                [v @ Value::IntTuple(t)] if t.is_leaf() => Ok(v.clone()),
                _ => Err(Error::new(ErrorKind::Type, name.to_string(), format!("{name}<N> takes one integer"))),
            };
        }
        if name == "Layout" && !(1..=2).contains(&args.len()) {
            return Err(Error::new(ErrorKind::Type, "Layout", "Layout<Shape[, Stride]> takes one or two types"));
        }
        super::functions::call(function, &[], &args).map_err(|e| e.in_op(name.to_string()))
    };
    Some(run())
}
