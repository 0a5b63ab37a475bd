//! The syntax of kute's notation: text to a syntax tree, and literals to values.
//!
//! Two layers, each depending only on those below it:
//!
//! - [`parse`] turns text into an [`Expr`] (integers `8`, `_8`, `Int<8>{}`;
//!   scaled bases `_3@1`; tuples; `shape:stride`; tilers `<...>`; `_`; names;
//!   calls; applications). It knows nothing of layouts or of the algebra.
//! - [`literal`] turns the literal part of that syntax into an
//!   [`IntTuple`](crate::IntTuple), a [`Layout`](crate::Layout) or a
//!   [`Tiler`](crate::Tiler), without evaluating anything: this is what
//!   `str::parse` (`FromStr`) uses. A call such as `size((2,3))` is an error
//!   there; the evaluator, [`crate::expr`], gives calls their meaning.
//!
//! ```
//! use kute::syntax::{parse, ExprKind};
//! let e = parse("size((2,3))").unwrap();
//! assert!(matches!(e.kind, ExprKind::Call { ref name, .. } if name == "size"));
//! assert!("size((2,3))".parse::<kute::IntTuple>().is_err());
//! ```

pub mod literal;
mod parse;

pub use parse::{parse, split_binding, Expr, ExprKind};

use crate::error::{Error, ErrorKind};

/// The error for a scaled basis (`_3@1`, `E<1,0>{}`) where a value is needed:
/// the syntax is accepted, the stride type is not there yet.
// One place, so that wiring up the stride type finds every use.
pub(crate) fn basis_unsupported(op: &'static str, span: (usize, usize)) -> Error {
    Error::new(ErrorKind::Type, op, "scaled basis strides are not supported yet").with_span(span.0, span.1)
}

/// Whether `e` is a value-initialised scaled basis type, `E<i...>{}`.
pub(crate) fn is_basis_type(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Call { name, args, .. } if name == "E" && args.is_empty())
}

#[cfg(test)]
mod tests {
    /// The code lines (not comments) of a source file that name a module of the crate.
    fn uses(src: &str) -> Vec<&str> {
        src.lines().map(str::trim).filter(|l| !l.starts_with("//") && l.contains("crate::")).collect()
    }

    #[test]
    fn the_parser_knows_no_values() {
        for l in uses(include_str!("parse.rs")) {
            assert!(l.starts_with("use crate::error::") || l.contains("crate::tree::MAX_DEPTH"), "parse.rs: {l}");
        }
    }

    #[test]
    fn literals_evaluate_nothing() {
        for l in uses(include_str!("literal.rs")) {
            assert!(!l.contains("crate::expr"), "literal.rs: {l}");
            assert!(!l.contains("algebra") || l == "use crate::algebra::Tiler;", "literal.rs: {l}");
        }
    }
}
