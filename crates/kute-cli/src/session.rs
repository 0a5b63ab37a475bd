//! Evaluation shared by every mode of the command: named bindings, and errors
//! that remember the text they point into.

use kute::expr::{self, Env, Value};
use kute::{AnyLayout, Error, ErrorKind};
use std::fmt::Write as _;

/// A failed line: the library's error and the text it refers to, with the
/// error's span made relative to that whole text.
#[derive(Debug)]
pub struct Failure {
    /// The text that was evaluated (a binding line included).
    pub src: String,
    /// The error (boxed: it is large, and failures are rare).
    pub err: Box<Error>,
    /// Byte range of `src` the error points at.
    pub span: Option<(usize, usize)>,
    /// Where `src` starts in the line it came from (a statement after `;`).
    pub offset: usize,
}

impl Failure {
    /// The failure of `src` with `err`, pointing at the span the error names.
    pub fn new(src: &str, err: Error) -> Failure {
        let span = err.span();
        Failure { src: src.to_string(), err: Box::new(err), span, offset: 0 }
    }

    /// The message on one line (for batch output).
    pub fn one_line(&self) -> String {
        self.err.to_string().replace(['\n', '\r'], " ")
    }

    /// The message, then — for a parse error, or any error that points at part of
    /// the text — the text and a line of carets under the offending span.
    pub fn render(&self) -> String {
        let mut s = format!("error: {}", self.one_line());
        // a failure without a span (an error about another text) shows none
        if let Some(p) = self.span.and_then(|_| self.err.pointer(&self.src)) {
            for line in p.lines() {
                let _ = write!(s, "\n  {line}");
            }
        }
        s
    }
}

/// A bound value as `:env` lists it: an unknown bound to its own name as
/// its declaration with its facts (`M = ?{div=8}`, which declares it again),
/// anything else as it prints.
pub fn declared(name: &str, v: &Value) -> String {
    if let Value::IntTuple(t) = v
        && t.is_leaf()
        && t.leaves()[0].is_symbolic()
    {
        let s = t.leaves()[0].to_sym();
        if s.to_string() == name
            && let Some(d) = s.declaration()
        {
            return d;
        }
    }
    v.to_string()
}

/// The bindings of `env` as `:env` lists them, one `NAME = value` line each,
/// in an order that reads back line by line: the unknowns' declarations
/// first (each after the unknowns its facts name), then the other values
/// (which, evaluated, name only unknowns), each group by name.
pub fn listing(env: &Env) -> Vec<String> {
    let mut lines: Vec<(&String, String)> = env.iter().map(|(k, v)| (k, declared(k, v))).collect();
    lines.sort();
    let (mut pending, values): (Vec<_>, Vec<_>) = lines.into_iter().partition(|(_, d)| d.starts_with('?'));
    let mut out = Vec::with_capacity(env.len());
    while !pending.is_empty() {
        let names_pending = |d: &str| pending.iter().any(|(k, _)| kute::syntax::mentions(d, k));
        // (facts cannot name each other in a cycle: a fact names an unknown declared before)
        let next = pending.iter().position(|(_, d)| !names_pending(d)).unwrap_or(0);
        let (k, d) = pending.remove(next);
        out.push(format!("{k} = {d}"));
    }
    out.extend(values.into_iter().map(|(k, d)| format!("{k} = {d}")));
    out
}

/// An evaluation session: the names bound so far.
#[derive(Default)]
pub struct Session {
    /// Bound names.
    pub env: Env,
    /// What the last lines did besides their values, to tell the reader
    /// (an unknown renamed when its name was bound anew); taken by the caller.
    pub notes: Vec<String>,
}

/// Longest value text a picture command's type error quotes.
const SHOWN_VALUE: usize = 80;

/// What a picture command draws (one per command: its size does not matter).
#[allow(clippy::large_enum_variant)]
pub enum Drawn {
    /// A plain or composed layout.
    Layout(AnyLayout),
    /// A TiledMMA (an MMA atom is drawn as its TiledMMA).
    Mma(Box<kute::atom::TiledMma>),
    /// A TiledCopy.
    Copy(Box<kute::atom::TiledCopy>),
}

impl Session {
    /// Evaluate a line: statements separated by `;` (as in the playground),
    /// each `NAME = expr`, which binds, or an expression; the last one's value.
    pub fn eval_line(&mut self, line: &str) -> Result<Value, Failure> {
        let mut last = None;
        for (offset, statement) in kute::syntax::statements(line) {
            let (value, renamed) = expr::eval_line_renaming(&mut self.env, statement)
                .map_err(|e| Failure { offset, ..Failure::new(statement, e) })?;
            self.notes.extend(renamed.map(|r| format!("note: {r}")));
            last = Some(value);
        }
        match last {
            Some(v) => Ok(v),
            // nothing but blanks: the parser's own error
            None => expr::eval_line(&mut self.env, line).map_err(|e| Failure::new(line, e)),
        }
    }

    /// Evaluate an expression that must give something `op` draws: a layout
    /// (plain or composed), or, for `latex` and `svg`, a TiledMMA, an MMA atom
    /// or a TiledCopy.
    /// Bindings before the expression, separated by `;`, bind first.
    pub fn drawn(&mut self, src: &str, op: &'static str) -> Result<Drawn, Failure> {
        let statements = kute::syntax::statements(src);
        let src = match statements.split_last() {
            Some(((_, last), bindings)) => {
                for (_, b) in bindings {
                    self.eval_line(b)?;
                }
                *last
            }
            None => src,
        };
        let fail = |e: Error| Failure::new(src, e);
        let tv = op != "table";
        match expr::eval_in(src, &self.env).map_err(fail)? {
            Value::Layout(l) => Ok(Drawn::Layout(AnyLayout::Layout(l))),
            v @ Value::Composed(_) => v.to_any_layout("the drawing").map(Drawn::Layout).map_err(fail),
            Value::TiledMma(m) if tv => Ok(Drawn::Mma(m)),
            Value::MmaAtom(a) if tv => {
                Ok(Drawn::Mma(Box::new(kute::atom::TiledMma::new(*a, None, None).map_err(fail)?)))
            }
            Value::TiledCopy(c) if tv => Ok(Drawn::Copy(c)),
            other => {
                let hint = match other {
                    Value::IntTuple(_) => "; make_layout(S) makes one from a shape",
                    // what latex and svg draw (the session's :latex and :svg)
                    Value::TiledMma(_) | Value::MmaAtom(_) | Value::TiledCopy(_) => {
                        "; `kute latex` and `kute svg` draw it (:latex and :svg in a session)"
                    }
                    _ => "",
                };
                // the value itself where it is short (a TiledMMA's text is many lines)
                let text = other.to_string();
                let shown = if text.len() <= SHOWN_VALUE && !text.contains('\n') {
                    format!("{} ({text})", other.kind_name())
                } else {
                    other.kind_name().to_string()
                };
                Err(fail(Error::new(
                    ErrorKind::Type,
                    op,
                    format!("needs a layout, but the expression gives {shown}{hint}"),
                )))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_are_remembered() {
        let mut s = Session::default();
        assert_eq!(s.eval_line("A = (4,6):(6,1)").unwrap().to_string(), "(4,6):(6,1)");
        assert_eq!(s.eval_line("size(A)").unwrap().to_string(), "24");
    }

    #[test]
    fn statements_are_separated_by_semicolons() {
        let mut s = Session::default();
        assert_eq!(s.eval_line("A = (4,6):(6,1); B = size(A);  B").unwrap().to_string(), "24");
        assert_eq!(s.eval_line("size(A)").unwrap().to_string(), "24");
        let f = s.eval_line("C = 2; (C,3").unwrap_err();
        assert_eq!(f.src.trim(), "(C,3");
        assert!(matches!(s.drawn("D = (2,2):(1,2); D", "table"), Ok(Drawn::Layout(_))));
    }

    #[test]
    fn carets_point_into_the_line() {
        let mut s = Session::default();
        let f = s.eval_line("B = (2,3").unwrap_err();
        let r = f.render();
        let lines: Vec<&str> = r.lines().collect();
        assert_eq!(lines.len(), 3, "{r}");
        assert_eq!(lines[1], "  B = (2,3");
        let col = lines[2].find('^').unwrap();
        assert!(col >= 2 + 4, "{r}");
    }
}
