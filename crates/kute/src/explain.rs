//! `explain`: how a result of the algebra is derived, step by step, the way
//! CuTe's documentation works its examples. Every step is computed with the
//! library (no templated layouts); [`Step`] records each one's inputs and
//! output, so that a test can recompute it.
//!
//! Explained: `composition`, `complement`, `coalesce`, `logical_divide` (and
//! `zipped_divide`, `tiled_divide`, `flat_divide` as its regrouping),
//! `logical_product` (and `zipped_product`, `tiled_product`, `flat_product`,
//! `blocked_product`, `raked_product`), `right_inverse`, `left_inverse` and
//! `make_layout`, with layouts or by-mode tilers as their operands. An
//! inadmissible step is shown with the condition that fails, and the
//! operation's own error ends the explanation.

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
    /// `right_inverse(a) = out`.
    RightInverse {
        /// The operand.
        a: Layout,
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
    /// The operation's own error where it fails (the text shows the step
    /// that fails and ends with this error); `None` where it answers (the
    /// text ends with the answer, the last step).
    pub error: Option<Error>,
}

struct Writer {
    text: String,
    steps: Vec<Step>,
    /// The failure a step's line already shows (its message).
    failure_shown: Option<String>,
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

    /// `coalesce(a, profile)`: each mode under an integer of the profile
    /// coalesced on its own, the modes past the profile's rank kept.
    fn coalesce_profile(&mut self, depth: usize, a: &Layout, profile: &IntTuple) -> Result<Layout> {
        if profile.is_leaf() {
            return self.coalesce(depth, a);
        }
        if profile.rank() > a.rank() {
            // (the library's error says why)
            return algebra::coalesce_profile(a, profile);
        }
        self.line(depth, format!("coalesce({a}, {profile}) mode by mode (the modes past the profile's rank kept):"));
        let mut parts = Vec::new();
        for i in 0..a.rank() {
            let m = a.mode(i)?;
            parts.push(match profile.as_ref().mode(i) {
                Some(p) => self.coalesce_profile(depth + 1, &m, &p.to_tree())?,
                None => m,
            });
        }
        self.concat(depth + 1, &parts)
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
                self.failure_shown = Some(e.message().to_string());
                return Err(e);
            }
        };
        let why = match (leaves.len(), ahat.leaves()) {
            (1, [am]) => {
                let (c, d) = (leaves[0].shape, leaves[0].stride);
                let bd = am.stride.scale_int().mul(d.scale_int())?;
                format!("   (a:b ∘ c:d = c:b·d: {}:{} ∘ {c}:{d} = {c}:{bd})", am.shape, am.stride)
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
            Tiler::Tuple(ts) => self.by_mode(depth, "logical_divide", a, t, ts, Self::logical_divide),
        }
    }

    /// `name(a, t)` of a by-mode tiler `t` (its parts `ts`): `op` on each mode
    /// of `a` with its part, the modes past the tiler's rank kept.
    fn by_mode(
        &mut self,
        depth: usize,
        name: &str,
        a: &Layout,
        t: &Tiler,
        ts: &[Tiler],
        op: fn(&mut Self, usize, &Layout, &Tiler) -> Result<Layout>,
    ) -> Result<Layout> {
        self.line(depth, format!("{name}({a}, {}) mode by mode:", show_tiler(t)));
        let mut parts = Vec::new();
        for (i, ti) in ts.iter().enumerate() {
            parts.push(op(self, depth + 1, &a.mode(i)?, ti)?);
        }
        for i in ts.len()..a.rank() {
            parts.push(a.mode(i)?);
        }
        self.concat(depth + 1, &parts)
    }

    /// The modes of `coalesce(a)` by increasing stride, each with its
    /// position in `a`'s domain (the product of the extents before it), shown.
    fn modes_by_stride(&mut self, depth: usize, a: &Layout) -> Result<Vec<(Int, Int, Int)>> {
        let c = self.coalesce(depth, a)?;
        let mut modes = Vec::new();
        let mut position = Int::ONE;
        for m in c.leaves() {
            modes.push((m.shape, m.stride.int_in("explain")?, position));
            position = position.mul(m.shape)?;
        }
        modes.sort_by_key(|&(_, d, _)| d.value());
        let shown: Vec<String> = modes.iter().map(|(s, d, p)| format!("{s}:{d} at {p}")).collect();
        self.line(depth, format!("its modes by stride, each at its position: {}", shown.join(", ")));
        Ok(modes)
    }

    /// `right_inverse(a)`: the modes of `coalesce(a)` by increasing stride,
    /// each kept where its stride is the size taken so far (the others
    /// skipped), each mapped back to its position in `a`'s domain.
    fn right_inverse(&mut self, depth: usize, a: &Layout) -> Result<Layout> {
        self.line(depth, format!("right_inverse({a}): the run of {a}'s image that starts at 0, mapped back"));
        let modes = self.modes_by_stride(depth + 1, a)?;
        let (mut kept, mut size) = (Vec::new(), Int::ONE);
        for &(s, d, p) in &modes {
            if d.value() != size.value() {
                self.line(depth + 1, format!("{s}:{d} is skipped: its stride is not the size so far, {size}"));
                continue;
            }
            kept.push(Layout::leaf(s, p));
            size = size.mul(s)?;
        }
        let out = algebra::right_inverse(a)?;
        let shown: Vec<String> = kept.iter().map(|l| l.to_string()).collect();
        self.line(depth + 1, format!("the kept modes as extent:position, coalesced: ({}) = {out}", shown.join(", ")));
        self.steps.push(Step::RightInverse { a: a.clone(), out: out.clone() });
        Ok(out)
    }

    /// `left_inverse(a)`: the modes of `coalesce(a)` by increasing stride,
    /// each reaching from its stride to the next one's, mapped back to its
    /// position in `a`'s domain; the last keeps its extent.
    fn left_inverse(&mut self, depth: usize, a: &Layout) -> Result<Layout> {
        self.line(depth, format!("left_inverse({a}): each index of {a}'s image mapped back to its coordinate"));
        let modes = self.modes_by_stride(depth + 1, a)?;
        let out = algebra::left_inverse(a)?;
        // the plain case: positive strides, each dividing the next
        let plain = modes.iter().all(|&(_, d, _)| d.value() > 0)
            && modes.windows(2).all(|w| w[1].1.value() % w[0].1.value() == 0);
        if plain {
            // below the first stride, the indices map to 0
            let mut parts = Vec::new();
            if let Some(&(_, d0, _)) = modes.first()
                && d0.value() > 1
            {
                parts.push(Layout::leaf(d0, Int::ZERO));
            }
            for (k, &(s, d, p)) in modes.iter().enumerate() {
                let extent = match modes.get(k + 1) {
                    Some(&(_, next, _)) => next.div(d)?,
                    None => s,
                };
                parts.push(Layout::leaf(extent, p));
            }
            let derived = Layout::concat(&parts)?;
            let same = |x: &Layout| algebra::coalesce(x).map(|c| c.to_string().replace('_', ""));
            let parts: Vec<String> = parts.iter().map(|l| l.to_string()).collect();
            (same(&derived)? == same(&out)?).then(|| {
                self.line(
                    depth + 1,
                    format!(
                    "each mode reaches from its stride to the next one's (the last keeps its extent), mapped back to \
                     its position: ({}) = {out}",
                    parts.join(", ")
                ),
                )
            });
        }
        Ok(out)
    }

    /// `make_layout(...)`: of layouts, their concatenation; of a shape,
    /// compact strides (column-major unless `LayoutRight`).
    fn make_layout(&mut self, depth: usize, vals: &[Value]) -> Result<Layout> {
        if vals.iter().all(|v| matches!(v, Value::Layout(_))) && !vals.is_empty() {
            let parts: Vec<Layout> = vals.iter().filter_map(|v| v.as_layout().cloned()).collect();
            self.line(depth, "make_layout of layouts: each one a mode of the result");
            return self.concat(depth + 1, &parts);
        }
        let shape = vals
            .first()
            .ok_or_else(|| Error::new(ErrorKind::Type, "explain", "make_layout needs a shape"))?
            .as_int_tuple("the shape")?;
        let right = matches!(vals.get(1), Some(Value::Major(crate::layout::Major::Right)));
        let out = match vals.get(1) {
            None | Some(Value::Major(_)) => {
                let order = if right { "right to left (row-major)" } else { "left to right (column-major)" };
                self.line(depth, format!("make_layout({shape}): compact strides, {order}: each stride the product of the extents before it"));
                let major = if right { crate::layout::Major::Right } else { crate::layout::Major::Left };
                let out = Layout::from_shape_major(&shape, major)?;
                let mut run = Int::ONE;
                let leaves: Vec<Int> = shape.leaves().to_vec();
                let order: Vec<usize> =
                    if right { (0..leaves.len()).rev().collect() } else { (0..leaves.len()).collect() };
                let mut steps = Vec::new();
                for i in order {
                    steps.push(format!("{}:{}", leaves[i], out.leaves()[i].stride));
                    run = run.mul(leaves[i])?;
                }
                self.line(depth + 1, format!("extent:stride in that order: {} (size {run})", steps.join(", ")));
                out
            }
            Some(v) => {
                let d = v.as_stride_tuple("the stride")?;
                self.line(depth, format!("make_layout({shape}, {d}): the shape with congruent strides"));
                Layout::with_strides(&shape, &d)?
            }
        };
        Ok(out)
    }

    /// `logical_product(a, t)` of a tiler: mode by mode for a tuple (a shape's
    /// integers their compact layouts), else of the layout.
    fn logical_product_tiler(&mut self, depth: usize, a: &Layout, t: &Tiler) -> Result<Layout> {
        match t {
            Tiler::Layout(b) => self.logical_product(depth, a, b),
            Tiler::Int(n) => self.logical_product(depth, a, &Layout::from_shape(&IntTuple::leaf(*n))?),
            Tiler::Underscore => Ok(a.clone()),
            Tiler::Tuple(ts) => self.by_mode(depth, "logical_product", a, t, ts, Self::logical_product_tiler),
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

/// How `src` (one call of an explained operation, after any `NAME = expr;`
/// bindings) is derived.
///
/// Pre: the call is one of `composition`, `complement`, `coalesce` (with or
/// without a profile), `logical_divide`, `zipped_divide`, `tiled_divide`,
/// `flat_divide`, `logical_product`, `zipped_product`, `tiled_product`,
/// `flat_product`, `blocked_product`, `raked_product`, `right_inverse`,
/// `left_inverse` or `make_layout`, its operands concrete layouts (or tilers,
/// a cotarget, a profile); else an error. An operation that fails is not an
/// error: the explanation shows the step that fails and ends with the
/// operation's own error (where the failing step's line, last, does not
/// already say it), which [`Explanation::error`] holds.
/// Post: the steps, each computed with the library, and the operation's own
/// answer last (a `Result` step, `error` `None`), or its error's message
/// last.
///
/// ```
/// let e = kute::explain::explain("logical_divide(24:2, 4:2)").unwrap();
/// assert!(e.text.contains("complement(4:2, 24) = (2,3):(_1,8)"));
/// assert!(e.text.contains("24:2 ∘ 4:2 = 4:4   (a:b ∘ c:d = c:b·d: 24:2 ∘ 4:2 = 4:4)"));
/// assert!(e.text.ends_with("= (4,(2,3)):(4,(2,16))\n") && e.error.is_none());
/// // a failing operation: the failing step, and its error last
/// let e = kute::explain::explain("complement(4:-2, 8)").unwrap();
/// assert!(e.text.ends_with(&format!("= error: {}\n", e.error.unwrap())));
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
    // `NAME = expr; ...; call`: the bindings first, then the call explained
    let mut parts: Vec<(usize, &str)> = crate::syntax::statements(src);
    let Some((at, last)) = parts.pop() else {
        return Err(not_a_call());
    };
    if parts.is_empty() {
        return explain_call(src, env);
    }
    let mut env = env.clone();
    for (offset, p) in parts {
        expr::eval_line(&mut env, p).map_err(|e| e.shift_span(offset))?;
    }
    let mut e = explain_call(last, &env).map_err(|e| e.shift_span(at))?;
    e.text = format!("{}\n{}", src[..at].trim_end_matches([';', ' ', '\n', '\r']).trim(), e.text);
    Ok(e)
}

fn not_a_call() -> Error {
    Error::new(ErrorKind::Type, "explain", "explain takes one call, e.g. logical_divide(24:2, 4:2)")
}

/// [`explain_in`] of one call.
fn explain_call(src: &str, env: &expr::Env) -> Result<Explanation> {
    let e = expr::parse(src)?;
    let ExprKind::Call { name, args, .. } = &e.kind else {
        return Err(not_a_call());
    };
    let vals = args.iter().map(|a| expr::eval_expr(a, env)).collect::<Result<Vec<Value>>>()?;
    crate::sym::refuse("explain", || vals.iter().any(Value::has_symbols))?;
    // an operand outside what the derivations cover (a composed layout, a
    // swizzle, a tensor): said so, the operation's own answer being `eval`'s
    let not_covered = |i: usize, want: &str| {
        let got = vals.get(i).map_or("nothing".to_string(), |v| format!("{} ({v})", v.kind_name()));
        Error::new(
            ErrorKind::Type,
            "explain",
            format!("explain derives {name} of {want}; argument {} is {got} (`eval` computes it)", i + 1),
        )
    };
    let layout = |i: usize| -> Result<Layout> {
        vals.get(i).and_then(|v| v.as_layout().cloned()).ok_or_else(|| not_covered(i, "layouts"))
    };
    let tiler = |i: usize| -> Result<Tiler> {
        vals.get(i).and_then(|v| v.as_tiler("").ok()).ok_or_else(|| not_covered(i, "a layout by a layout or a tiler"))
    };
    let mut w = Writer { text: String::new(), steps: Vec::new(), failure_shown: None };
    w.line(0, src.trim());
    let out = match name.as_str() {
        "coalesce" => match vals.get(1) {
            None => w.coalesce(1, &layout(0)?),
            Some(p) => {
                let p = p.as_int_tuple("the profile").map_err(|e| e.in_op("explain"))?;
                w.coalesce_profile(1, &layout(0)?, &p)
            }
        },
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
        "logical_product" | "zipped_product" | "tiled_product" | "flat_product" => {
            let r = w.logical_product_tiler(1, &layout(0)?, &tiler(1)?);
            if r.is_ok() && name != "logical_product" {
                w.line(1, format!("{name} regroups the logical product's (block, repeats) modes"));
            }
            r
        }
        "right_inverse" => w.right_inverse(1, &layout(0)?),
        "left_inverse" => w.left_inverse(1, &layout(0)?),
        "make_layout" => w.make_layout(1, &vals),
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
    // the operation's own answer (the regroupings included), or its error
    let answer = expr::eval_in(src, env);
    if let Err(step) = &out
        && w.failure_shown.is_none()
        && answer.as_ref().err().map(Error::to_string) != Some(step.to_string())
    {
        w.line(1, format!("fails: {step}"));
    }
    let error = match answer {
        Ok(Value::Layout(l)) => {
            if out.is_err() {
                w.line(1, "(the derivation above stops where the operation itself goes on; its answer:)");
            }
            w.line(1, format!("= {l}"));
            w.steps.push(Step::Result { expr: src.trim().to_string(), out: l });
            None
        }
        Ok(other) => {
            w.line(1, format!("= {other}"));
            None
        }
        Err(e) => {
            // (unless the failing step's line, last, says it already)
            if w.failure_shown.as_deref() != Some(e.message()) {
                w.line(1, format!("= error: {e}"));
            }
            Some(e)
        }
    };
    Ok(Explanation { text: w.text, steps: w.steps, error })
}
