//! `explain`: how a result of the algebra is derived, step by step, the way
//! CuTe's documentation works its examples. Every step is computed with the
//! library (no templated layouts); [`Step`] records each one's inputs and
//! output, so that a test can recompute it.
//!
//! Explained: `composition`, `complement`, `coalesce`, `logical_divide` (and
//! `zipped_divide`, `tiled_divide`, `flat_divide` as its regrouping) and
//! `logical_product` (and `blocked_product`, `raked_product`), with layouts or
//! by-mode tilers as their operands. An inadmissible step is shown with the
//! condition that fails.

use crate::algebra;
use crate::error::{Error, ErrorKind, Result};
use crate::expr::{self, ExprKind, Value};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::tiler::Tiler;
use std::fmt::Write;

/// One computed step (more kinds may come: match with a `_` arm).
// an explanation has a few steps: their layouts stay inline
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Step {
    /// `coalesce(a) = out`.
    Coalesce {
        /// The operand.
        a: Layout,
        /// The result.
        out: Layout,
    },
    /// `complement(b, m) = out`.
    Complement {
        /// The layout complemented.
        b: Layout,
        /// The cotarget.
        m: Int,
        /// The result.
        out: Layout,
    },
    /// `composition(a, b) = out`.
    Composition {
        /// The left operand.
        a: Layout,
        /// The right operand.
        b: Layout,
        /// The result.
        out: Layout,
    },
    /// `make_layout(parts...) = out`.
    Concat {
        /// The parts.
        parts: Vec<Layout>,
        /// The result.
        out: Layout,
    },
    /// The operation's own answer, as the library gives it.
    Result {
        /// The expression explained.
        expr: String,
        /// The answer.
        out: Layout,
    },
}

/// An explanation: the text, and the steps it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The lines to print.
    pub text: String,
    /// Every computed step, in order.
    pub steps: Vec<Step>,
}

struct Writer {
    text: String,
    steps: Vec<Step>,
}

impl Writer {
    fn line(&mut self, depth: usize, s: impl AsRef<str>) {
        let _ = writeln!(self.text, "{}{}", "  ".repeat(depth), s.as_ref());
    }

    /// The first values of a layout, for the intuition lines.
    fn values(l: &Layout) -> String {
        let n = l.size().map(|x| x.value()).unwrap_or(0).clamp(0, 16);
        let mut v: Vec<String> = (0..n).filter_map(|i| l.eval(i).ok()).map(|x| x.to_string()).collect();
        if l.size().map(|x| x.value() > 16).unwrap_or(false) {
            v.push("...".into());
        }
        v.join(" ")
    }

    fn coalesce(&mut self, depth: usize, a: &Layout) -> Result<Layout> {
        let out = algebra::coalesce(a)?;
        self.line(
            depth,
            format!("coalesce({a}) = {out}   (adjacent modes that continue each other merge; size-1 modes drop)"),
        );
        self.steps.push(Step::Coalesce { a: a.clone(), out: out.clone() });
        Ok(out)
    }

    fn complement(&mut self, depth: usize, b: &Layout, m: Int) -> Result<Layout> {
        let out = algebra::complement(b, m)?;
        self.line(
            depth,
            format!(
                "complement({b}, {m}) = {out}   ({b} reaches {}; its complement gives the offsets of its repeats: {})",
                Self::values(b),
                Self::values(&out)
            ),
        );
        self.steps.push(Step::Complement { b: b.clone(), m, out: out.clone() });
        Ok(out)
    }

    /// `a ∘ b`, leaf by leaf of `b`, with CuTe's base case where `a` is one mode.
    fn composition(&mut self, depth: usize, a: &Layout, b: &Layout) -> Result<Layout> {
        let leaves = b.leaves();
        let ahat = algebra::coalesce(a)?;
        if leaves.len() > 1 {
            self.line(depth, format!("{a} ∘ {b}, leaf by leaf of {b}:"));
            for m in leaves {
                let leaf = Layout::leaf(m.shape, m.stride.int_in("explain")?);
                self.composition(depth + 1, a, &leaf)?;
            }
        }
        let out = match algebra::composition(a, b) {
            Ok(out) => out,
            Err(e) => {
                self.line(depth, format!("{a} ∘ {b} fails: {}", e.message()));
                return Err(e);
            }
        };
        let why = match (leaves.len(), ahat.leaves()) {
            (1, [am]) => {
                let (c, d) = (leaves[0].shape, leaves[0].stride.value());
                format!("   (a:b ∘ c:d = c:b·d: {}:{} ∘ {c}:{d} = {c}:{})", am.shape, am.stride, am.stride.value() * d)
            }
            (1, _) => format!(
                "   (stride {} steps over {ahat}'s first modes, then {} elements are taken)",
                leaves[0].stride, leaves[0].shape
            ),
            _ => format!("   (the leaves' results in {b}'s shape)"),
        };
        self.line(depth, format!("{a} ∘ {b} = {out}{why}"));
        self.steps.push(Step::Composition { a: a.clone(), b: b.clone(), out: out.clone() });
        Ok(out)
    }

    fn concat(&mut self, depth: usize, parts: &[Layout]) -> Result<Layout> {
        let out = Layout::concat(parts)?;
        let shown: Vec<String> = parts.iter().map(|p| p.to_string()).collect();
        self.line(depth, format!("make_layout({}) = {out}", shown.join(", ")));
        self.steps.push(Step::Concat { parts: parts.to_vec(), out: out.clone() });
        Ok(out)
    }

    /// `logical_divide(a, t)`: by a layout, or mode by mode for a tiler.
    fn logical_divide(&mut self, depth: usize, a: &Layout, t: &Tiler) -> Result<Layout> {
        match t {
            Tiler::Layout(b) => {
                let n = a.size()?;
                self.line(
                    depth,
                    format!(
                        "logical_divide({a}, {b}): B and its complement in size(A) = {n}, then A ∘ (B, complement)"
                    ),
                );
                let c = self.complement(depth + 1, b, n)?;
                let bc = self.concat(depth + 1, &[b.clone(), c])?;
                let r = self.composition(depth + 1, a, &bc)?;
                Ok(r)
            }
            Tiler::Int(n) => self.logical_divide(depth, a, &Tiler::Layout(Layout::from_shape(&IntTuple::leaf(*n))?)),
            Tiler::Underscore => Ok(a.clone()),
            Tiler::Tuple(ts) => {
                self.line(depth, format!("logical_divide({a}, {}) mode by mode:", show_tiler(t)));
                let mut parts = Vec::new();
                for (i, ti) in ts.iter().enumerate() {
                    parts.push(self.logical_divide(depth + 1, &a.mode(i)?, ti)?);
                }
                for i in ts.len()..a.rank() {
                    parts.push(a.mode(i)?);
                }
                self.concat(depth + 1, &parts)
            }
        }
    }

    /// `logical_product(a, b)`: `(A, complement(A, size(A)·cosize(B)) ∘ B)`.
    fn logical_product(&mut self, depth: usize, a: &Layout, b: &Layout) -> Result<Layout> {
        let m = a.size()?.mul(b.cosize()?)?;
        self.line(depth, format!("logical_product({a}, {b}): (A, complement(A, size(A)·cosize(B) = {m}) ∘ B)"));
        let c = self.complement(depth + 1, a, m)?;
        let r = self.composition(depth + 1, &c, b)?;
        self.concat(depth + 1, &[a.clone(), r])
    }
}

fn show_tiler(t: &Tiler) -> String {
    match t {
        Tiler::Tuple(ts) => format!("<{}>", ts.iter().map(show_tiler).collect::<Vec<_>>().join(",")),
        Tiler::Layout(l) => l.to_string(),
        Tiler::Int(n) => n.to_string(),
        Tiler::Underscore => "_".into(),
    }
}

/// How `src` (one call of an explained operation) is derived.
///
/// Pre: `src` is a call of `composition`, `complement`, `coalesce`,
/// `logical_divide`, `zipped_divide`, `tiled_divide`, `flat_divide`,
/// `logical_product`, `blocked_product` or `raked_product` whose operands
/// evaluate to layouts (or tilers, or a cotarget); else an error. An
/// inadmissible step is part of the explanation (its line says what fails),
/// not an error.
/// Post: the steps, each computed with the library, and the operation's own
/// answer last (a `Result` step), or the failing step's line.
///
/// ```
/// let e = kute::explain::explain("logical_divide(24:2, 4:2)").unwrap();
/// assert!(e.text.contains("complement(4:2, 24) = (2,3):(_1,8)"));
/// assert!(e.text.contains("24:2 ∘ 4:2 = 4:4   (a:b ∘ c:d = c:b·d: 24:2 ∘ 4:2 = 4:4)"));
/// assert!(e.text.ends_with("= (4,(2,3)):(4,(2,16))\n"));
/// ```
pub fn explain(src: &str) -> Result<Explanation> {
    explain_in(src, &expr::Env::new())
}

/// [`explain`] with the names bound in `env` (a session's bindings).
///
/// Pre: as [`explain`], the names used bound in `env`. Post: as [`explain`].
///
/// ```
/// let mut env = kute::expr::Env::new();
/// kute::expr::bind(&mut env, "A", kute::expr::eval("24:2").unwrap()).unwrap();
/// let text = kute::explain::explain_in("logical_divide(A, 4:2)", &env).unwrap().text;
/// assert!(text.contains("= (4,(2,3)):(4,(2,16))"));
/// ```
pub fn explain_in(src: &str, env: &expr::Env) -> Result<Explanation> {
    let e = expr::parse(src)?;
    let ExprKind::Call { name, args, .. } = &e.kind else {
        return Err(Error::new(ErrorKind::Type, "explain", "explain takes one call, e.g. logical_divide(24:2, 4:2)"));
    };
    let vals = args.iter().map(|a| expr::eval_expr(a, env)).collect::<Result<Vec<Value>>>()?;
    let layout = |i: usize| -> Result<Layout> {
        vals.get(i).and_then(|v| v.as_layout().cloned()).ok_or_else(|| {
            Error::new(ErrorKind::Type, "explain", format!("argument {} of {name} must be a layout", i + 1))
        })
    };
    let tiler = |i: usize| -> Result<Tiler> {
        let v = vals.get(i).ok_or_else(|| Error::new(ErrorKind::Type, "explain", format!("{name} needs a tiler")))?;
        v.as_tiler("the tiler")
    };
    let mut w = Writer { text: String::new(), steps: Vec::new() };
    w.line(0, src.trim());
    let out = match name.as_str() {
        "coalesce" => w.coalesce(1, &layout(0)?),
        "complement" => {
            let b = layout(0)?;
            let m = match vals.get(1) {
                Some(v) => v
                    .to_string()
                    .trim_start_matches('_')
                    .parse::<i64>()
                    .map(Int::new_dynamic)
                    .map_err(|_| Error::new(ErrorKind::Type, "explain", "the cotarget must be an integer"))?,
                None => b.cosize()?,
            };
            w.complement(1, &b, m)
        }
        "composition" => match vals.get(1) {
            Some(Value::Layout(b)) => w.composition(1, &layout(0)?, b),
            _ => {
                let a = layout(0)?;
                let t = tiler(1)?;
                w.line(1, format!("{a} ∘ {}: mode by mode", show_tiler(&t)));
                algebra::composition_tiler(&a, &t)
            }
        },
        "logical_divide" | "zipped_divide" | "tiled_divide" | "flat_divide" => {
            let (a, t) = (layout(0)?, tiler(1)?);
            let r = w.logical_divide(1, &a, &t);
            if r.is_ok() && name != "logical_divide" {
                w.line(1, format!("{name} regroups the logical divide's (tile, rest) modes"));
            }
            r
        }
        "logical_product" => w.logical_product(1, &layout(0)?, &layout(1)?),
        "blocked_product" | "raked_product" => {
            let (a, b) = (layout(0)?, layout(1)?);
            let r = a.rank().max(b.rank());
            let (pa, pb) = (a.append_to(r, &Layout::unit())?, b.append_to(r, &Layout::unit())?);
            w.line(
                1,
                format!(
                    "{name}: both padded to rank {r}, one logical product, then its two halves zipped mode by mode"
                ),
            );
            let p = w.logical_product(2, &pa, &pb);
            if p.is_ok() {
                let how = if name == "blocked_product" { "(block, repeats)" } else { "(repeats, block)" };
                w.line(1, format!("mode i of the result is {how} of mode i of each half"));
            }
            p
        }
        other => {
            return Err(Error::new(ErrorKind::Type, "explain", format!("kute does not explain '{other}' yet")));
        }
    };
    if out.is_ok() {
        // the operation's own answer (the regroupings included)
        let answer = expr::eval_in(src, env)?;
        if let Value::Layout(l) = answer {
            w.line(1, format!("= {l}"));
            w.steps.push(Step::Result { expr: src.trim().to_string(), out: l });
        }
    }
    Ok(Explanation { text: w.text, steps: w.steps })
}
