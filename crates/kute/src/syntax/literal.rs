//! Literals: the values written directly in CuTe notation, read from a
//! syntax tree without evaluating anything.
//!
//! A literal is built of integers (`8`, `_8`, `Int<8>{}`), tuples, `_`,
//! `shape:stride` and tilers `<...>`. Names, calls and applications are
//! errors (kind [`Parse`](crate::ErrorKind::Parse), pointing at the
//! offending text): evaluating them is [`crate::expr`]'s work. This layer
//! depends on the syntax and on the value types only.
//!
//! ```
//! use kute::syntax::{literal, parse};
//! let l = literal::layout(&parse("(_2,4):(_1,_2)").unwrap()).unwrap();
//! assert_eq!(l.to_string(), "(_2,4):(_1,_2)");
//! let err = literal::int_tuple(&parse("(2,size(3))").unwrap()).unwrap_err();
//! assert_eq!(err.kind(), kute::ErrorKind::Parse);
//! assert_eq!(err.span(), Some((3, 10)));
//! ```

use super::{basis_stride, Expr, ExprKind};
use crate::error::{Error, ErrorKind, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::stride::Stride;
use crate::tiler::Tiler;
use crate::tree::{Builder, Tree};

/// An integer or integer tuple literal: `8`, `_8`, `Int<8>{}`, `(2,(_3,4))`, `()`.
///
/// Pre: `e` is a literal integer tuple. Post: the tuple as written, static
/// marks kept. Errors: [`Parse`](ErrorKind::Parse) for a name, call or
/// application; [`Type`](ErrorKind::Type) for a layout, tiler, `_` or scaled
/// basis. Every error carries the span of the offending node.
///
/// ```
/// use kute::syntax::{literal, parse};
/// let t = literal::int_tuple(&parse("(2,(_3,Int<4>{}))").unwrap()).unwrap();
/// assert_eq!(t.to_string(), "(2,(_3,_4))");
/// assert!(literal::int_tuple(&parse("(2,3):(1,2)").unwrap()).is_err());
/// ```
pub fn int_tuple(e: &Expr) -> Result<IntTuple> {
    Tree::try_build(|b| push_int_tuple(b, e, "an integer tuple"))
}

fn push_int_tuple(b: &mut Builder<'_, Int>, e: &Expr, want: &str) -> Result<()> {
    match &e.kind {
        ExprKind::Int { value, is_static } => b.leaf(Int::new(*value, *is_static)),
        ExprKind::Unknown { .. } => b.leaf(unknown(e)?),
        ExprKind::Tuple(items) => {
            b.open();
            for x in items {
                push_int_tuple(b, x, want)?;
            }
            b.close();
        }
        _ => return Err(not_a(e, want)),
    }
    Ok(())
}

/// A layout literal: `shape:stride`, or a bare shape, which gets compact
/// column-major strides (CuTe's `make_layout(shape)`).
///
/// Pre: `e` is a literal layout or shape. Post: the layout as written.
/// Errors as [`int_tuple`]; a stride not congruent with the shape is
/// [`Mismatch`](ErrorKind::Mismatch) (from [`Layout::new`]).
///
/// ```
/// use kute::syntax::{literal, parse};
/// let l = |s| literal::layout(&parse(s).unwrap());
/// assert_eq!(l("(2,(2,2)):(4,(2,1))").unwrap().to_string(), "(2,(2,2)):(4,(2,1))");
/// assert_eq!(l("(_2,4)").unwrap().to_string(), "(_2,4):(_1,_2)");
/// assert_eq!(l("size(8)").unwrap_err().kind(), kute::ErrorKind::Parse);
/// ```
pub fn layout(e: &Expr) -> Result<Layout> {
    match &e.kind {
        ExprKind::Layout(s, d) => {
            let shape = int_tuple_as(s, "a layout's shape")?;
            let stride = Tree::try_build(|b| push_strides(b, d))?;
            Layout::with_strides(&shape, &stride).map_err(|err| err.with_span(e.span.0, e.span.1))
        }
        ExprKind::Int { .. } | ExprKind::Unknown { .. } | ExprKind::Tuple(_) => {
            let shape = int_tuple_as(e, "a layout")?;
            Layout::from_shape(&shape).map_err(|err| err.with_span(e.span.0, e.span.1))
        }
        _ => Err(not_a(e, "a layout")),
    }
}

/// A stride tuple: integers and scaled basis elements (`_1@0`, `E<1>{}`).
fn push_strides(b: &mut Builder<'_, Stride>, e: &Expr) -> Result<()> {
    if let Some(s) = basis_stride(e) {
        b.leaf(s?);
        return Ok(());
    }
    match &e.kind {
        ExprKind::Int { value, is_static } => b.leaf(Stride::of(Int::new(*value, *is_static))),
        ExprKind::Unknown { .. } => b.leaf(Stride::of(unknown(e)?)),
        ExprKind::Tuple(items) => {
            b.open();
            for x in items {
                push_strides(b, x)?;
            }
            b.close();
        }
        _ => return Err(not_a(e, "a layout's stride")),
    }
    Ok(())
}

fn int_tuple_as(e: &Expr, want: &str) -> Result<IntTuple> {
    Tree::try_build(|b| push_int_tuple(b, e, want))
}

/// A tiler literal: a layout, an integer `n` (the layout `n:_1`), `_`, a tuple
/// of tilers (a shape `(a,b)` is the by-mode tiler of extents `a` and `b`) or
/// a by-mode tiler `<T0,T1,...>`, nested freely.
///
/// Pre: `e` is a literal tiler. Post: the tiler [`crate::expr::parse_tiler`]
/// gives for the same text. Errors as [`layout`].
///
/// ```
/// use kute::syntax::{literal, parse};
/// let t = |s| literal::tiler(&parse(s).unwrap());
/// assert_eq!(t("<_4:_1,(2,_),<3,_>>").unwrap().to_string(), "(_4:_1,(2,_),(3,_))");
/// assert_eq!(t("(2,3)").unwrap(), kute::expr::parse_tiler("(2,3)").unwrap());
/// assert!(t("<make_layout(4),_>").is_err());
/// ```
pub fn tiler(e: &Expr) -> Result<Tiler> {
    match &e.kind {
        ExprKind::Int { value, is_static } => Ok(Tiler::Int(Int::new(*value, *is_static))),
        ExprKind::Unknown { .. } => Ok(Tiler::Int(unknown(e)?)),
        ExprKind::Underscore => Ok(Tiler::Underscore),
        ExprKind::Layout(..) => Ok(Tiler::Layout(layout(e)?)),
        ExprKind::Tuple(items) | ExprKind::Tile(items) => {
            Ok(Tiler::Tuple(items.iter().map(tiler).collect::<Result<_>>()?))
        }
        _ => Err(not_a(e, "a tiler")),
    }
}

/// The integer of `?`, `?{div=N,min=K,ne=X}` (a new unknown) or `?k` (an
/// existing one), where `X` is an integer (names of other unknowns are read
/// by [`unknown_in`]).
///
/// Pre: `e` is an `Unknown` node; `?k` names an unnamed unknown of this
/// process (else an `UnknownName` error with the node's span). Post: a
/// symbolic integer.
///
/// ```
/// use kute::syntax::{literal, parse};
/// let e = parse("?{div=8}").unwrap();
/// assert_eq!(literal::unknown(&e).unwrap().to_sym().divisor(), 8);
/// ```
pub fn unknown(e: &Expr) -> Result<Int> {
    unknown_in(e, &|name| {
        Err(Error::new(
            ErrorKind::UnknownName,
            "parse",
            format!("?{{ne={name}}} names an unknown: write it in an expression where {name} is bound"),
        ))
    })
}

/// [`unknown`], the names in `ne=X` read by `named` (an unknown bound to
/// that name, or an integer).
///
/// Pre: as [`unknown`]; `named` answers each name. Post: a symbolic integer.
///
/// ```
/// use kute::syntax::{literal, parse};
/// let m = kute::sym::Sym::var("M").unwrap();
/// let e = parse("?{ne=M}").unwrap();
/// let ld = literal::unknown_in(&e, &|_| Ok(m.clone())).unwrap().to_sym();
/// assert!(ld.sub(&m).unwrap().declared_nonzero());
/// ```
pub fn unknown_in(e: &Expr, named: &dyn Fn(&str) -> Result<crate::sym::Sym>) -> Result<Int> {
    let ExprKind::Unknown { div, min, id, ne } = &e.kind else { return Err(not_a(e, "an unknown")) };
    let span = |err: Error| err.with_span(e.span.0, e.span.1);
    let s = match id {
        Some(k) => crate::sym::Sym::anonymous(*k).ok_or_else(|| {
            span(Error::new(ErrorKind::UnknownName, "parse", format!("no unknown ?{k} in this process")))
        })?,
        None => {
            let ne = ne
                .iter()
                .map(|x| match x.parse::<i64>() {
                    Ok(c) => Ok(crate::sym::Sym::constant(c)),
                    Err(_) => named(x),
                })
                .collect::<Result<Vec<_>>>()
                .map_err(span)?;
            let facts = crate::sym::Facts { div: *div, min: *min, ne };
            crate::sym::Sym::unknown_with(None, facts).map_err(span)?
        }
    };
    Int::symbolic(s)
}

/// The error for a node that is not the literal wanted.
fn not_a(e: &Expr, want: &str) -> Error {
    let (s, t) = e.span;
    let found = match &e.kind {
        ExprKind::Basis { .. } => "a basis stride",
        ExprKind::Call { name, .. } => {
            return Error::parse(format!("a literal cannot contain the call '{name}'"), s, t)
        }
        ExprKind::Name(n) => return Error::parse(format!("a literal cannot contain the name '{n}'"), s, t),
        ExprKind::Apply(..) => return Error::parse("a literal cannot contain an application", s, t),
        ExprKind::Layout(..) => "a layout",
        ExprKind::Tile(_) => "a tiler",
        ExprKind::Underscore => "'_'",
        ExprKind::Tuple(_) => "a tuple",
        ExprKind::Int { .. } => "an integer",
        ExprKind::Composed(..) => "a composed layout",
        ExprKind::Unknown { .. } => "an unknown",
        ExprKind::Arith(..) => return Error::parse("a literal cannot contain arithmetic", s, t),
    };
    Error::new(ErrorKind::Type, "parse", format!("expected {want}, found {found}")).with_span(s, t)
}

// `str::parse` for the literal types: here, beside the readers they call, so
// that the value modules do not import the syntax (the syntax imports them).

/// Reads a literal: integers `8`, `_8`, `Int<8>{}` and tuples of them. Calls
/// are not evaluated (that is [`crate::expr::parse_int_tuple`]'s work).
///
/// ```
/// use kute::IntTuple;
/// assert_eq!("(2,(_3,Int<4>{}))".parse::<IntTuple>().unwrap().to_string(), "(2,(_3,_4))");
/// let err = "size((2,3))".parse::<IntTuple>().unwrap_err();
/// assert_eq!(err.to_string(), "parse: a literal cannot contain the call 'size'");
/// ```
impl std::str::FromStr for IntTuple {
    type Err = Error;
    fn from_str(s: &str) -> Result<IntTuple> {
        int_tuple(&super::parse(s)?)
    }
}

/// Reads a literal: `shape:stride`, or a bare shape (compact column-major
/// strides). Calls are not evaluated (that is [`crate::expr::parse_layout`]'s work).
///
/// ```
/// use kute::Layout;
/// assert_eq!("(_2,4)".parse::<Layout>().unwrap().to_string(), "(_2,4):(_1,_2)");
/// assert_eq!("make_layout(4)".parse::<Layout>().unwrap_err().kind(), kute::ErrorKind::Parse);
/// ```
impl std::str::FromStr for Layout {
    type Err = Error;
    /// Parse CuTe notation, `shape:stride`, or a bare shape (compact column-major).
    fn from_str(s: &str) -> Result<Layout> {
        layout(&super::parse(s)?)
    }
}

/// Reads a literal: a layout, an integer, `_`, a shape tuple (the by-mode
/// tiler of its extents) or `<T0,T1,...>`, nested freely. Calls are not
/// evaluated (that is [`crate::expr::parse_tiler`]'s work).
///
/// ```
/// use kute::Tiler;
/// let t: Tiler = "<_4:_1,(2,_)>".parse().unwrap();
/// assert_eq!(t.to_string(), "(_4:_1,(2,_))");
/// assert!("<size(4),_>".parse::<Tiler>().is_err());
/// ```
impl std::str::FromStr for Tiler {
    type Err = Error;
    fn from_str(s: &str) -> Result<Tiler> {
        tiler(&super::parse(s)?)
    }
}
