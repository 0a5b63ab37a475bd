//! The error type of every fallible operation in kute.
//!
//! Errors are values, never panics: an [`Error`] names the operation that failed,
//! the operand at fault and the condition that did not hold, so that a kernel
//! generator can report it (or recover) instead of aborting.

use std::borrow::Cow;
use std::fmt;

/// What went wrong, broadly. Match on it to react to a class of failures;
/// read [`Error`]'s `Display` for the whole story.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The expression text could not be parsed.
    Parse,
    /// An operand does not satisfy the operation's precondition (CuTe would
    /// `static_assert`, or would return a layout that is not the true result).
    Inadmissible,
    /// Ranks or profiles of the operands do not fit together.
    Mismatch,
    /// An intermediate value does not fit in `i64`.
    Overflow,
    /// A division or remainder by zero was required.
    DivisionByZero,
    /// A name in an expression is not known (a function, a bound name, a type,
    /// an operation).
    UnknownName,
    /// A value of the wrong kind was passed (e.g. a layout where an integer is
    /// needed), or a call has the wrong number of (template) arguments.
    Type,
    /// The computation would exceed kute's limits (nesting depth, element count).
    Limit,
    /// A question about symbolic integers that the declared facts do not
    /// decide (the message names the fact that would: "needs M divisible by 8").
    Undecided,
}

/// The error of a kute operation: an [`ErrorKind`] plus the operation, the operand
/// and the failed condition, formatted as `op: condition (operand)`.
///
/// ```
/// use kute::{Layout, ErrorKind};
/// let a: Layout = "(6,4):(1,7)".parse().unwrap();
/// let b: Layout = "4:4".parse().unwrap();
/// let err = kute::composition(&a, &b).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Inadmissible);
/// assert!(err.to_string().starts_with("composition"));
/// ```
///
/// An `Error` is one pointer (its details are boxed), so `Result<T>` stays small
/// and the success path of every operation moves no error-sized data.
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<Details>);

#[derive(Clone, PartialEq, Eq)]
struct Details {
    kind: ErrorKind,
    op: Cow<'static, str>,
    message: String,
    span: Option<(usize, usize)>,
}

/// Longest error message kept whole: a message quoting a large operand keeps
/// its first and last parts (an error stays a line, not megabytes).
pub const MAX_MESSAGE: usize = 1000;

/// `m`, cut in its middle to at most about [`MAX_MESSAGE`] bytes.
fn shorten(m: String) -> String {
    if m.len() <= MAX_MESSAGE {
        return m;
    }
    let cut = |i: usize| (0..=i).rev().find(|&j| m.is_char_boundary(j)).unwrap_or(0);
    let head = cut(MAX_MESSAGE * 2 / 3);
    let tail = cut(m.len() - MAX_MESSAGE / 3);
    format!("{} ... ({} bytes left out) ... {}", &m[..head], tail - head, &m[tail..])
}

/// `Result` with kute's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// A new error of `kind` raised by operation `op`, with a message that states
    /// the operand and the condition that failed.
    ///
    /// Pre: none. Post: `kind()`, `op()` and `message()` return the arguments;
    /// `span()` is `None`; `Display` is `op: message` (only `message` when `op` is empty).
    ///
    /// ```
    /// use kute::{Error, ErrorKind};
    /// let e = Error::new(ErrorKind::Mismatch, "my_op", "ranks 2 and 3 differ");
    /// assert_eq!(e.kind(), ErrorKind::Mismatch);
    /// assert_eq!(e.span(), None);
    /// assert_eq!(e.to_string(), "my_op: ranks 2 and 3 differ");
    /// assert_eq!(Error::new(ErrorKind::Limit, "", "too big").to_string(), "too big");
    /// ```
    pub fn new(kind: ErrorKind, op: impl Into<Cow<'static, str>>, message: impl Into<String>) -> Self {
        Error(Box::new(Details { kind, op: op.into(), message: shorten(message.into()), span: None }))
    }

    pub(crate) fn inadmissible(op: &'static str, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Inadmissible, op, message)
    }

    pub(crate) fn mismatch(op: &'static str, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Mismatch, op, message)
    }

    pub(crate) fn overflow(what: impl fmt::Display) -> Self {
        Self::new(ErrorKind::Overflow, "", format!("i64 overflow in {what}"))
    }

    pub(crate) fn div_zero(what: impl fmt::Display) -> Self {
        Self::new(ErrorKind::DivisionByZero, "", format!("division by zero in {what}"))
    }

    pub(crate) fn limit(op: &'static str, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Limit, op, message)
    }

    pub(crate) fn parse(message: impl Into<String>, start: usize, end: usize) -> Self {
        Error(Box::new(Details {
            kind: ErrorKind::Parse,
            op: Cow::Borrowed("parse"),
            message: shorten(message.into()),
            span: Some((start, end)),
        }))
    }

    /// Name the operation, unless an inner operation already named itself.
    pub(crate) fn in_op(mut self, op: impl Into<Cow<'static, str>>) -> Self {
        if self.0.op.is_empty() {
            self.0.op = op.into();
        }
        self
    }

    /// Name the operation the caller called where the error names none, or
    /// only the arithmetic operator (`%`, `/`, ...) of one of its steps: the
    /// remainder that `idx2crd` needs is `idx2crd`'s question, not `%`'s.
    pub(crate) fn in_op_over_arith(mut self, op: impl Into<Cow<'static, str>>) -> Self {
        if matches!(&*self.0.op, "" | "+" | "-" | "*" | "/" | "%") {
            self.0.op = op.into();
        }
        self
    }

    /// Name the operation the caller called: an error of an inner step keeps
    /// that step as context (`logical_product: complement: ...`).
    pub(crate) fn within(mut self, op: &'static str) -> Self {
        if self.0.op.is_empty() {
            self.0.op = Cow::Borrowed(op);
        } else if self.0.op != op {
            self.0.message = format!("{}: {}", self.0.op, self.0.message);
            self.0.op = Cow::Borrowed(op);
        }
        self
    }

    /// The span moved `by` bytes later (the text it points into was a suffix).
    pub(crate) fn shift_span(mut self, by: usize) -> Self {
        if let Some((a, b)) = self.0.span {
            self.0.span = Some((a + by, b + by));
        }
        self
    }

    /// Attach a source span (byte offsets into the expression text).
    pub(crate) fn with_span(mut self, start: usize, end: usize) -> Self {
        if self.0.span.is_none() {
            self.0.span = Some((start, end));
        }
        self
    }

    /// The broad class of the failure.
    ///
    /// Pre: none. Post: the [`ErrorKind`] the error was raised with.
    ///
    /// ```
    /// use kute::{ErrorKind, Layout};
    /// let l: Layout = "(2,3):(1,2)".parse().unwrap();
    /// assert_eq!(l.mode(5).unwrap_err().kind(), ErrorKind::Mismatch);
    /// ```
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }

    /// The operation that failed (`"composition"`, `"parse"`, ...).
    ///
    /// Pre: none. Post: the operation's name; empty when no operation named itself.
    ///
    /// ```
    /// let a: kute::Layout = "(6,4):(1,7)".parse().unwrap();
    /// let b: kute::Layout = "4:4".parse().unwrap();
    /// assert_eq!(kute::composition(&a, &b).unwrap_err().op(), "composition");
    /// assert_eq!("(2,3".parse::<kute::Layout>().unwrap_err().op(), "parse");
    /// ```
    pub fn op(&self) -> &str {
        &self.0.op
    }

    /// The condition that failed, and the operand it concerns.
    ///
    /// Pre: none. Post: the message alone, without the `op: ` prefix of `Display`.
    ///
    /// ```
    /// let e = kute::Int::new_dynamic(7).div(kute::Int::ZERO).unwrap_err();
    /// assert_eq!(e.message(), "division by zero in 7 / _0");
    /// ```
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// Byte range in the expression text this error points at, when known.
    ///
    /// Pre: none. Post: `Some((start, end))`, the byte range `[start, end)` of the
    /// parsed text, for parse and expression errors; `None` otherwise.
    ///
    /// ```
    /// let e = kute::expr::eval("size(foo)").unwrap_err();
    /// assert_eq!(e.span(), Some((5, 8)));
    /// assert_eq!(kute::Int::new_dynamic(1).div(kute::Int::ZERO).unwrap_err().span(), None);
    /// ```
    pub fn span(&self) -> Option<(usize, usize)> {
        self.0.span
    }

    /// The text `src` this error came from (trimmed at the end, tabs as
    /// spaces) and, below it, a line of carets under the span it points at:
    /// for a parse error, or an error about part of the text. An error about
    /// the whole text, or without a span, gives `None`.
    ///
    /// Pre: `src` is the text that was parsed or evaluated. Post: two lines,
    /// the carets counted in characters (not bytes), at least one.
    ///
    /// ```
    /// let e = kute::expr::eval("size(foo)").unwrap_err();
    /// assert_eq!(e.pointer("size(foo)").unwrap(), "size(foo)\n     ^^^");
    /// ```
    pub fn pointer(&self, src: &str) -> Option<String> {
        let (start, end) = self.span()?;
        let lead = src.len() - src.trim_start().len();
        let covers_all = start <= lead && end >= lead + src.trim().len();
        if self.kind() != ErrorKind::Parse && covers_all {
            return None;
        }
        let text = src.trim_end();
        let shown: String = text.chars().map(|c| if c == '\t' { ' ' } else { c }).collect();
        let before = char_count(text, start);
        let width = char_count(text, end.max(start + 1)).saturating_sub(before).max(1);
        Some(format!("{shown}\n{}{}", " ".repeat(before), "^".repeat(width)))
    }
}

/// The number of characters in the first `byte` bytes of `s` (past the end:
/// the length plus the excess, so that a caret can point just after the text).
pub(crate) fn char_count(s: &str, byte: usize) -> usize {
    if byte >= s.len() {
        return s.chars().count() + (byte - s.len());
    }
    let mut b = byte;
    while !s.is_char_boundary(b) {
        b -= 1;
    }
    s[..b].chars().count()
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.op.is_empty() {
            f.write_str(&self.0.message)
        } else {
            write!(f, "{}: {}", self.0.op, self.0.message)
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({:?}, {})", self.0.kind, self)
    }
}

impl std::error::Error for Error {}
