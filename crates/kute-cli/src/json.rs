//! `--json`: answers and errors as JSON objects, for scripts. One naming
//! convention (snake_case) for the kinds of values and of errors; layouts
//! and integer tuples also as nested arrays, with their static marks beside.

use crate::session::Failure;
use kute::expr::Value;
use kute::tree::TreeRef;
use kute::{ErrorKind, Int, Stride};
use serde_json::{json, Value as Json};

/// The kind of a value, in snake_case (`layout`, `int_tuple`, `tiled_mma`).
pub fn kind(v: &Value) -> String {
    let id = match v {
        Value::IntTuple(t) if t.is_leaf() => "integer",
        Value::IntTuple(_) => "int_tuple",
        Value::Bool(_) => "bool",
        Value::Layout(_) => "layout",
        Value::Tiler(_) => "tiler",
        Value::Underscore => "underscore",
        Value::Coord(_) => "coordinate",
        Value::Major(_) => "major",
        Value::Tuple(_) => "tuple",
        Value::Strides(_) => "stride_tuple",
        Value::Function(_) => "function",
        Value::Swizzle(_) => "swizzle",
        Value::Composed(_) => "composed_layout",
        Value::MmaAtom(_) => "mma_atom",
        Value::TiledMma(_) => "tiled_mma",
        Value::CopyAtom(_) => "copy_atom",
        Value::TiledCopy(_) => "tiled_copy",
        Value::ThrSlice(_) => "thread_slice",
        Value::Tensor(_) => "tensor",
        Value::Printed(_) => "printed_text",
        #[allow(unreachable_patterns)]
        other => return snake(other.kind_name().trim_start_matches("an ").trim_start_matches("a ")),
    };
    id.to_string()
}

/// `DivisionByZero` as `division_by_zero`, `a TiledMMA` as `a_tiled_mma`.
fn snake(name: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' || c == '-' {
            out.push('_');
        } else if c.is_uppercase() {
            // a new word at an upper case letter after a lower one, or before one
            let prev_lower = i > 0 && chars[i - 1].is_lowercase();
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if i > 0 && !out.ends_with('_') && (prev_lower || next_lower) {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The kind of an error, in snake_case (`parse`, `undecided`, `division_by_zero`).
pub fn error_kind(k: ErrorKind) -> String {
    snake(&format!("{k:?}"))
}

/// An integer: a number, or its text where it is symbolic.
fn int(x: Int) -> Json {
    if x.is_symbolic() {
        Json::String(x.to_string())
    } else {
        json!(x.value())
    }
}

/// A stride: an integer as [`int`], a basis stride as its text (`_1@0`).
fn stride(d: Stride) -> Json {
    match d.as_int() {
        Some(x) => int(x),
        None => Json::String(d.to_string()),
    }
}

/// A tree as nested arrays of its leaves (a leaf on its own is the leaf).
fn tree<L: Copy>(t: TreeRef<'_, L>, leaf: &impl Fn(L) -> Json) -> Json {
    match t.as_leaf() {
        Some(x) => leaf(x),
        None => Json::Array(t.children().map(|c| tree(c, leaf)).collect()),
    }
}

/// One answer as a JSON object: the input, the value printed, its kind,
/// and for integers, tuples and layouts the structure (numbers, nested
/// arrays) with the static marks as booleans of the same structure.
pub fn answer(input: &str, v: &Value) -> Json {
    let mut o = json!({ "input": input, "value": v.to_string(), "kind": kind(v) });
    match v {
        Value::IntTuple(t) => {
            o["int_tuple"] = tree(t.as_ref(), &int);
            o["static"] = tree(t.as_ref(), &|x: Int| json!(x.is_static()));
        }
        Value::Layout(l) => {
            let (s, d) = (l.shape(), l.stride());
            o["shape"] = tree(s.as_ref(), &int);
            o["stride"] = tree(d.as_ref(), &stride);
            o["static"] = json!({
                "shape": tree(s.as_ref(), &|x: Int| json!(x.is_static())),
                "stride": tree(d.as_ref(), &|x: Stride| json!(x.is_static())),
            });
        }
        _ => {}
    }
    o
}

/// A failure as a JSON object: the input and the error (operation, kind,
/// message, and the byte span of the input it points at, if any).
pub fn failure(input: &str, f: &Failure) -> Json {
    json!({
        "input": input,
        "error": {
            "op": f.err.op(),
            "kind": error_kind(f.err.kind()),
            "message": f.err.message(),
            "span": f.span.map(|(a, b)| [f.offset + a, f.offset + b]),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_snake_case() {
        assert_eq!(error_kind(ErrorKind::DivisionByZero), "division_by_zero");
        assert_eq!(error_kind(ErrorKind::Parse), "parse");
        assert_eq!(snake("TiledMMA"), "tiled_mma");
        assert_eq!(snake("an integer tuple"), "an_integer_tuple");
    }
}
