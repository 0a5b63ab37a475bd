//! The syntax of kute's notation: text to a syntax tree, and literals to values.
//!
//! Two layers, each depending only on those below it:
//!
//! - [`parse`] turns text into an [`Expr`] (integers `8`, `_8`, `Int<8>{}`;
//!   scaled bases `_3@1`; tuples; `shape:stride`; tilers `<...>`; `_`; names;
//!   calls; applications). It knows nothing of layouts or of the algebra.
//! - [`literal`] turns the literal part of that syntax into an
//!   [`IntTuple`](crate::IntTuple), a [`Layout`](crate::Layout) or a
//!   [`Tiler`](crate::Tiler), without evaluating anything. The `FromStr`
//!   impls of those three types live there (`str::parse`), so the value
//!   modules import nothing of the syntax. A call such as `size((2,3))` is an
//!   error there; the evaluator, [`crate::expr`], gives calls their meaning.
//!
//! ```
//! use kute::syntax::{parse, ExprKind};
//! let e = parse("size((2,3))").unwrap();
//! assert!(matches!(e.kind, ExprKind::Call { ref name, .. } if name == "size"));
//! assert!("size((2,3))".parse::<kute::IntTuple>().is_err());
//! ```

pub mod literal;
mod parse;

pub use parse::{parse, split_binding, Expr, ExprKind, TemplateArg};

use crate::error::{Error, ErrorKind};
use smallvec::SmallVec;

/// The stride of a scaled basis literal (`_3@1`, `E<1,0>{}`): `None` for any
/// other expression. The `@` indices are written innermost first, the
/// template arguments of `E` outermost first.
pub(crate) fn basis_stride(e: &Expr) -> Option<crate::error::Result<crate::stride::Stride>> {
    use crate::int::Int;
    use crate::stride::Stride;
    let at = |r: crate::error::Result<Stride>| r.map_err(|err| err.with_span(e.span.0, e.span.1));
    match &e.kind {
        ExprKind::Basis { value, is_static, path } => {
            let p: Vec<usize> = path.iter().rev().map(|&i| i as usize).collect();
            Some(at(Stride::basis(Int::new(*value, *is_static), &p)))
        }
        ExprKind::Call { name, targs, args } if name == "E" && args.is_empty() => {
            let mut p = Vec::with_capacity(targs.len());
            for t in targs {
                let index = match t {
                    TemplateArg::Int(t) => usize::try_from(*t).map_err(|_| format!("basis index {t} is negative")),
                    TemplateArg::Type(t) => Err(format!("basis index {t} is not an integer")),
                };
                match index {
                    Ok(i) => p.push(i),
                    Err(why) => return Some(Err(Error::new(ErrorKind::Type, "E", why).with_span(e.span.0, e.span.1))),
                }
            }
            Some(at(Stride::basis(Int::ONE, &p)))
        }
        _ => None,
    }
}

/// The Levenshtein distance between two texts, in characters (for "did you
/// mean" hints).
///
/// Pre: none. Post: the fewest insertions, deletions and substitutions that
/// turn `a` into `b`.
///
/// ```
/// assert_eq!(kute::syntax::edit_distance("tabel", "table"), 2);
/// assert_eq!(kute::syntax::edit_distance("", "abc"), 3);
/// ```
pub fn edit_distance(a: &str, b: &str) -> usize {
    // (with no limit the band is the whole table: always `Some`)
    edit_distance_within(a, b, usize::MAX).unwrap_or(usize::MAX)
}

/// [`edit_distance`] when it is at most `limit`, else `None`, in time that
/// grows with `limit` rather than with the texts' lengths: texts whose
/// lengths differ by more than `limit` are not compared, only the cells of
/// the table within `limit` of its diagonal are computed (the others exceed
/// `limit`), and it stops at the first row whose cells all exceed `limit` (a
/// row's smallest cell never decreases). For "did you mean" over long lists
/// of similar names, such as the MMA and copy operations.
///
/// Pre: none. Post: `Some(edit_distance(a, b))` when that is at most `limit`,
/// `None` otherwise.
///
/// ```
/// use kute::syntax::edit_distance_within;
/// assert_eq!(edit_distance_within("tabel", "table", 2), Some(2));
/// assert_eq!(edit_distance_within("tabel", "table", 1), None);
/// assert_eq!(edit_distance_within("", "abc", 3), Some(3));
/// ```
pub fn edit_distance_within(a: &str, b: &str, limit: usize) -> Option<usize> {
    let b: SmallVec<[char; 72]> = b.chars().collect();
    let (la, lb) = (a.chars().count(), b.len());
    if la.abs_diff(lb) > limit {
        return None;
    }
    // `inf` stands for every value above `limit`; the cells outside the band
    // `|i - j| <= limit` hold it from the start (row 0) or are never read
    let inf = limit.saturating_add(1);
    let mut row: SmallVec<[usize; 73]> = (0..=lb).map(|j| j.min(inf)).collect();
    for (i, ca) in (1usize..).zip(a.chars()) {
        let lo = i.saturating_sub(limit);
        let hi = i.saturating_add(limit).min(lb);
        // `diag`: the cell above-left of the next one; `left`: the one before it
        let (mut diag, mut left, first) = if lo == 0 {
            let d = row[0];
            row[0] = i.min(inf);
            (d, row[0], 1)
        } else {
            (row[lo - 1], inf, lo)
        };
        let mut least = if lo == 0 { row[0] } else { inf };
        for j in first..=hi {
            let up = row[j];
            let v = (diag + usize::from(ca != b[j - 1])).min(left + 1).min(up + 1).min(inf);
            row[j] = v;
            least = least.min(v);
            diag = up;
            left = v;
        }
        if least > limit {
            return None;
        }
    }
    Some(row[lb]).filter(|&d| d <= limit)
}

/// The candidate nearest to `word` by [`edit_distance`], at most `limit` edits
/// away (the first of equals), `name` giving the text each candidate is
/// compared by. A candidate found tightens the limit for those after it, so
/// that a long list of similar names is mostly passed over after a few rows.
pub(crate) fn nearest_within<T>(
    word: &str,
    candidates: impl IntoIterator<Item = T>,
    name: impl Fn(&T) -> &str,
    limit: usize,
) -> Option<T> {
    let mut best: Option<(usize, T)> = None;
    for c in candidates {
        let bound = match &best {
            Some((0, _)) => break,
            Some((d, _)) => d - 1,
            None => limit,
        };
        if let Some(d) = edit_distance_within(word, name(&c), bound) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// The statements of a text: split at `;` and new lines (neither occurs
/// inside an expression), blank ones left out, each with its byte offset.
///
/// Pre: none. Post: the non-blank pieces between separators, in order.
///
/// ```
/// let s = kute::syntax::statements("M = ?{div=8}; (M,2):(1,M)\n\nsize(M)");
/// assert_eq!(s, vec![(0, "M = ?{div=8}"), (13, " (M,2):(1,M)"), (27, "size(M)")]);
/// ```
pub fn statements(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices().chain(std::iter::once((text.len(), ';'))) {
        if c == ';' || c == '\n' || c == '\r' {
            let s = &text[start..i];
            if !s.trim().is_empty() {
                out.push((start, s));
            }
            start = i + c.len_utf8();
        }
    }
    out
}

/// Whether `text` has `name` as a whole word (letters, digits and `_`), as
/// printed values show the unknowns they hold.
///
/// Pre: none. Post: true when a maximal run of word characters is `name`.
///
/// ```
/// assert!(kute::syntax::mentions("(M_1,_4):(_1,2*M)", "M"));
/// assert!(!kute::syntax::mentions("(M_1,_4):(_1,MN)", "M"));
/// ```
pub fn mentions(text: &str, name: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|w| w == name)
}
