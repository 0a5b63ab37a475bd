//! `composition(A, B)`: the layout `R` with `R(c) = A(B(c))`.
//!
//! Written as CuTe's `layout.hpp` defines it:
//!
//! ```text
//! composition(A, B) = composition_impl(coalesce_x(A, coprofile(B)), B)
//! composition(A, T) = transform_layout(A, T, composition)   (T by mode; A's extra modes dropped)
//! composition(A, n) = composition(A, make_layout(n))
//! composition(A, _) = A
//! ```
//!
//! with the fast paths (left operands that are their own `coalesce_x`, leaf
//! tiles) as early branches. kute runs `composition_impl` deciding every
//! branch by value, then makes sure the answer is the true composite: CuTe
//! checks only divisibility, so for some operands it returns a layout whose
//! values are not `Â(B(i))` (`Â` = `A` coalesced, its last mode unbounded).
//! kute proves the result correct with a cheap digit-overlap test and, when
//! that test is inconclusive, by evaluating both sides point by point; a wrong
//! result is an error, never an answer.

use super::coalesce::{coalesce_leaves, coalesce_modes, merges, Modes};
use super::out::{operand, push_built, run, Emit, Grow, Op, CAP};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::iter::Indices;
use crate::layout::{Layout, LayoutRef, Mode};
use crate::policy::{Checked, Policy};
use crate::stride::Stride;
use crate::tiler::{AsTiler, Tiler};
use crate::tree::{Builder, Tree, LEAF, PAIR};
use smallvec::SmallVec;

/// Largest domain checked point by point when the fast admissibility test is inconclusive.
const BRUTE_FORCE_LIMIT: i64 = crate::limits::MAX_PROOF_POINTS;

/// CuTe `composition(A, B)` for a layout `B`: `R(c) = A(B(c))` for every
/// coordinate `c` of `B`; `R` is compatible with `B`.
///
/// Pre: at every mode of the coalesced `A` that `B`'s strides reach, CuTe's
/// stride divisibility (`r % s == 0` or `r < s`) and shape divisibility hold, and
/// the result is the true composite. Otherwise: an [`Inadmissible`](crate::ErrorKind::Inadmissible) error.
/// Post: `shape(B)` is compatible with `shape(R)`, and `R(i) == A(B(i))` for
/// `0 <= i < size(B)` (`A`'s last mode extended past its size).
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(_20,_2):(_16,_4)".parse().unwrap();
/// let b: Layout = "(_4,_5):(_1,_4)".parse().unwrap();
/// assert_eq!(kute::composition(&a, &b).unwrap().to_string(), "(_4,_5):(_16,_64)");
/// // CuTe answers (2,2):(4,7) here, which is not the composite:
/// let a: Layout = "(6,4):(1,7)".parse().unwrap();
/// let b: Layout = "4:4".parse().unwrap();
/// assert!(kute::composition(&a, &b).is_err());
/// ```
pub fn composition(a: &Layout, b: &Layout) -> Result<Layout> {
    Layout::from_into(|out| composition_into(out, a, b))
}

/// [`composition`] written into `out` (the fastest form: no move of the
/// result). On error `out` is `_1:_0`.
///
/// Pre: as [`composition`]. Post: `out` is `composition(a, b)` on success,
/// `_1:_0` on error.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(20,2):(16,4)".parse().unwrap();
/// let b: Layout = "(4,5):(1,4)".parse().unwrap();
/// let mut out = Layout::default();
/// kute::composition_into(&mut out, &a, &b).unwrap();
/// assert_eq!(out.to_string(), "(4,5):(16,64)");
/// ```
#[inline]
pub fn composition_into(out: &mut Layout, a: &Layout, b: &Layout) -> Result<()> {
    run(out, &Composition(a, b))
}

/// `A ∘ B` for two layouts.
struct Composition<'a>(&'a Layout, &'a Layout);

impl Op for Composition<'_> {
    fn name(&self) -> &'static str {
        "composition"
    }
    fn has_symbols(&self) -> bool {
        self.0.has_symbols() || self.1.has_symbols()
    }
    #[inline(always)]
    fn run<P: Policy, E: Emit<P>>(&self, out: &mut E) -> Result<(), P::Err> {
        compose(out, operand::<P>(self.0)?, &[Part::Tree(operand::<P>(self.1)?)], true)
    }
}

/// CuTe `composition(A, tiler)`: a layout tiler composes as a layout, `_` leaves
/// `A` unchanged, and a by-mode tiler `<T0,T1,...>` composes mode `i` of `A` with
/// `Ti`, dropping the modes of `A` beyond the tiler.
///
/// Pre: `rank(tiler) <= rank(A)` for a by-mode tiler (else a `Mismatch` error),
/// and the preconditions of [`composition`] for each layout.
/// Post: for a by-mode tiler, a tuple whose mode `i` is mode `i` of `A` composed
/// with `Ti`; otherwise as [`composition`] (`A` itself for `_`).
///
/// ```
/// use kute::{Layout, Tiler};
/// let a: Layout = "(_12,(_4,_8)):(_59,(_13,_1))".parse().unwrap();
/// let t: Tiler = kute::expr::parse_tiler("<_3:_4,_8:_2>").unwrap();
/// assert_eq!(kute::composition_tiler(&a, &t).unwrap().to_string(), "(_3,(_2,_4)):(_236,(_26,_1))");
/// ```
pub fn composition_tiler(a: &Layout, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
    Layout::from_into(|out| composition_tiler_into(out, a, &t.as_tiler()))
}

/// [`composition_tiler`] written into `out` (the fastest form: no move of the
/// result). On error `out` is `_1:_0`.
///
/// Pre: as [`composition_tiler`]. Post: `out` is `composition_tiler(a, t)` on
/// success, `_1:_0` on error.
///
/// ```
/// use kute::{Layout, Tiler};
/// let a: Layout = "(12,(4,8)):(59,(13,1))".parse().unwrap();
/// let t: Tiler = kute::expr::parse_tiler("<3:4,8:2>").unwrap();
/// let mut out = Layout::default();
/// kute::composition_tiler_into(&mut out, &a, &t).unwrap();
/// assert_eq!(out.to_string(), "(3,(2,4)):(236,(26,1))");
/// ```
#[inline]
pub fn composition_tiler_into(out: &mut Layout, a: &Layout, t: &Tiler) -> Result<()> {
    run(out, &CompositionTiler(a, t))
}

/// `A ∘ T` for a tiler.
struct CompositionTiler<'a>(&'a Layout, &'a Tiler);

impl Op for CompositionTiler<'_> {
    fn name(&self) -> &'static str {
        "composition"
    }
    fn has_symbols(&self) -> bool {
        self.0.has_symbols() || self.1.has_symbols()
    }
    #[inline(always)]
    fn run<P: Policy, E: Emit<P>>(&self, out: &mut E) -> Result<(), P::Err> {
        let (a, t) = (operand::<P>(self.0)?, self.1);
        if let Tiler::Tuple(ts) = t {
            // fast path: leaf tiles over modes that are leaves or pairs of
            // leaves, their own coalesce_x: compose's steps without the walk
            let mark = out.mark();
            if compose_by_leaf_tiles(out, a, ts).is_some() {
                return Ok(());
            }
            out.truncate(mark);
        }
        // the definition
        compose_tiler(out, a, t)
    }
}

/// `composition(A, T)` as CuTe defines it, as one element of `out`: a tuple
/// `T` composes mode `i` of `A` with `T_i`, dropping `A`'s modes beyond `T`
/// (`transform_layout` over `T`'s modes); an integer `n` is
/// `composition(A, make_layout(n))`; `_` is `A`; a layout composes as one.
#[inline(always)]
fn compose_tiler<P: Policy, E: Emit<P>>(out: &mut E, a: LayoutRef<'_>, t: &Tiler) -> Result<(), P::Err> {
    match t {
        Tiler::Tuple(ts) => {
            P::lift(t.check_rank(a, "composition"))?;
            let p = out.open()?;
            for (m, ti) in a.modes().zip(ts) {
                compose_tiler(out, m, ti)?;
            }
            out.close(p, ts.len())?;
            Ok(())
        }
        _ => compose_tile(out, a, t),
    }
}

/// One tile of [`compose_tiler`], out of line: the composition's buffers
/// stay out of the frame the by-mode recursion repeats at each level.
#[inline(never)]
fn compose_tile<P: Policy, E: Emit<P>>(out: &mut E, a: LayoutRef<'_>, t: &Tiler) -> Result<(), P::Err> {
    match t {
        Tiler::Layout(b) => match leaf_tile(t) {
            // a leaf layout or an integer is one flat part: no walk over a tree
            Some(m) => compose(out, a, &[Part::Flat(std::slice::from_ref(&m))], true),
            None => compose(out, a, &[Part::Tree(operand::<P>(b)?)], true),
        },
        Tiler::Int(n) => compose(out, a, &[Part::Flat(&[Mode::new(*n, Int::ONE)])], true),
        _ => out.push(a),
    }
}

/// A tile of a by-mode composition that is one mode with an integer stride: a
/// leaf layout, or an integer `n` (the layout `n:_1`).
#[inline(always)]
fn leaf_tile(t: &Tiler) -> Option<Mode> {
    match t {
        Tiler::Layout(b) => b.tree.as_leaf().filter(|m| m.stride.is_int()),
        Tiler::Int(n) => Some(Mode::new(*n, Int::ONE)),
        _ => None,
    }
}

/// [`compose_tiler`] of a tuple tiler for the commonest case, walking `A`'s
/// tokens directly: every tile a leaf or an integer, every mode of `A` it
/// meets a leaf or a pair of leaves that is its own coalesced form, and the
/// composition provably exact: [`compose`]'s own fast paths, mode by mode.
/// `None` for anything else (the caller then takes the definition).
#[inline(always)]
fn compose_by_leaf_tiles<P: Policy, E: Emit<P>>(out: &mut E, a: LayoutRef<'_>, ts: &[Tiler]) -> Option<()> {
    if a.is_leaf() || ts.len() > a.rank() || (P::CHECKED && ts.iter().any(Tiler::has_symbols)) {
        return None;
    }
    if P::CHECKED && a.leaves.iter().any(|m| m.shape.is_symbolic() || m.stride.is_symbolic()) {
        return None;
    }
    let p = out.open().ok()?;
    let (mut tok, mut leaf) = (1, 0);
    for ti in ts {
        let bm = leaf_tile(ti)?;
        // (the cases are those of `compose` for one B-leaf, where the left
        // operand is its own coalesced form)
        match *a.toks.get(tok..)? {
            [LEAF, ..] => {
                let am = *a.leaves.get(leaf)?;
                if am.shape.value() < 2 {
                    return None;
                }
                out.leaf(scale::<P>(bm, am.stride).ok()?).ok()?;
                tok += 1;
                leaf += 1;
            }
            [PAIR, LEAF, LEAF, ..] => {
                let pair = a.leaves.get(leaf..leaf + 2)?;
                if pair[0].shape.value() < 2 || pair[1].shape.value() < 2 || merges::<P>(pair[0], pair[1]).ok()? {
                    return None;
                }
                // one B-leaf: its digits always fit, only `clean` is left to check
                let mut c = Compose::new(pair, &mut []);
                c.leaf_of::<P, E, 2>(out, bm.shape, bm.stride.scale_int()).ok()?;
                if !c.clean {
                    return None;
                }
                tok += 3;
                leaf += 2;
            }
            _ => return None,
        }
    }
    out.close(p, ts.len()).ok()?;
    Some(())
}

pub(crate) fn compose_layout(a: &Layout, b: &Layout) -> Result<Layout> {
    compose_checked(a, b, true)
}

/// CuTe's algorithm; with `verify`, also prove the result is the true composite.
pub(crate) fn compose_checked(a: &Layout, b: &Layout, verify: bool) -> Result<Layout> {
    let mut tree = Tree::empty();
    compose::<Checked, _>(&mut Grow::new(&mut tree), a.as_tree_ref(), &[Part::Tree(b.as_tree_ref())], verify)?;
    Ok(Layout { tree })
}

/// A right operand (or part of one) of [`compose`]: a borrowed layout, or
/// flat modes (one mode: that integral layout; several: the tuple of them).
#[derive(Clone, Copy)]
pub(crate) enum Part<'a> {
    Tree(LayoutRef<'a>),
    Flat(&'a [Mode]),
}

impl Part<'_> {
    fn leaf_count(self) -> usize {
        match self {
            Part::Tree(t) => t.leaves.len(),
            Part::Flat(m) => m.len(),
        }
    }

    fn to_layout(self) -> Layout {
        match self {
            Part::Tree(t) => Layout::from_ref(t),
            Part::Flat(m) => Layout::from_flat(m),
        }
    }
}

/// CuTe `composition(A, B) = composition_impl(coalesce_x(A, coprofile(B)), B)`
/// written into `out` as one element, where `B` is `b[0]` if `b` has one
/// element and the tuple of the elements of `b` otherwise. With `verify`, also
/// prove the result is the true composite.
#[inline(always)]
pub(crate) fn compose<P: Policy, E: Emit<P>>(
    out: &mut E,
    a: LayoutRef<'_>,
    b: &[Part<'_>],
    verify: bool,
) -> Result<(), P::Err> {
    // basis strides: coprofile(B) names the modes of A that B's leaves
    // compose with (the checked run only; the fast run declines at the first
    // basis stride it reads)
    if let (true, [Part::Tree(bt)]) = (P::CHECKED, b)
        && !bt.leaves().iter().all(|m| m.stride.is_int())
    {
        if a.leaves().iter().chain(bt.leaves()).any(|m| m.shape.is_symbolic() || m.stride.is_symbolic()) {
            return Err(P::fail(|| crate::sym::refusal("composition with basis strides")));
        }
        return push_built(out, |g| compose_basis_rhs(g, a, *bt, verify));
    }
    if let Some(am) = a.as_leaf() {
        // fast path: a leaf of extent >= 2 is its own coalesce_x
        if P::at_least_two(am.shape) {
            return compose_parts(out, Part::Tree(a), &[am], b, verify);
        }
    }
    if let [x, y] = *a.leaves {
        // fast path: two leaves of extents >= 2 that do not merge are their own coalesce_x
        if P::at_least_two(x.shape) && P::at_least_two(y.shape) && !merges::<P>(x, y)? {
            return compose_parts(out, Part::Tree(a), a.leaves, b, verify);
        }
    }
    // the definition: coalesce_x(A) (a trailing size-1 mode keeps its stride),
    // then composition_impl
    let mut lhs = P::Modes::default();
    coalesce_leaves::<P>(&mut lhs, a.leaves(), true)?;
    compose_parts(out, Part::Tree(a), &lhs, b, verify)
}

/// `s:r` composed with a one-mode left operand of stride `d`: `s:r·d` (`s:r`
/// when `r` is 0). A basis stride `r` declines (it composes by mode).
#[inline(always)]
pub(crate) fn scale<P: Policy>(m: Mode, d: Stride) -> Result<Mode, P::Err> {
    if !m.stride.is_int() {
        return Err(P::decline());
    }
    if P::eq(m.stride.scale_int(), Int::ZERO, "composition")? {
        Ok(m)
    } else {
        Ok(Mode::with_stride(m.shape, P::scale(d, m.stride.scale_int())?))
    }
}

/// CuTe's `composition_impl(lhs, B)` as one element of `out`, where `lhs` is
/// `coalesce_x(A)` and `B` is `b[0]` or the tuple of the parts (`a` is only read by the point-by-point
/// proof). With `verify`, the result is the true composite: CuTe's answer
/// proven by the digit test, else point by point; where CuTe's answer is not
/// the composite, the layout that is ([`true_composite`]), or an error saying
/// why none exists. (Under [`Fast`](crate::policy::Fast), anything but the
/// digit test declines.)
#[inline(always)]
pub(crate) fn compose_parts<P: Policy, E: Emit<P>>(
    out: &mut E,
    a: Part<'_>,
    lhs: &[Mode],
    b: &[Part<'_>],
    verify: bool,
) -> Result<(), P::Err> {
    if let [l0] = lhs {
        // fast path: one mode has no carries, nothing to prove (and no
        // proof to set up)
        return compose_one(out, *l0, b);
    }
    let mark = out.mark();
    let mut proof = Proof::new(if verify { lhs.len() } else { 0 });
    compose_parts_with(out, lhs, b, &mut proof)?;
    if verify && !proof.holds_for::<P>(lhs)? {
        return settle(out, mark, a, lhs, b);
    }
    Ok(())
}

/// What the digit test of a composition has seen: per mode of `lhs`, the sum
/// of the largest digits the B-leaves put there, and whether every B-leaf's
/// digit decomposition was exact. One proof may gather several calls of
/// [`compose_parts_with`] with the same left operand, whose right operands
/// are the parts of one layout composed piece by piece (the regrouped divides
/// and products).
pub(crate) struct Proof {
    /// the digits of up to 16 modes (a plain array: zeroing it is cheaper
    /// than setting up a growable buffer)
    arr: [i64; 16],
    /// the digits of more modes
    vec: Vec<i64>,
    /// modes kept (0: none)
    n: usize,
    clean: bool,
}

/// A digit as its word: a value (never negative: a sum of `(new_s - 1)·|d|`),
/// or, under the checked run with symbols, `-(handle + 1)` of a symbolic sum
/// (so the fast run's words and its test are those it always had).
fn digit_word(x: Int) -> i64 {
    if x.is_symbolic() {
        -(x.raw() + 1)
    } else {
        x.value()
    }
}

/// The digit a word holds ([`digit_word`]'s inverse).
fn digit_int(w: i64) -> Int {
    if w < 0 {
        Int::from_parts(-(w + 1), crate::int::SYMBOLIC_BIT)
    } else {
        Int::new_dynamic(w)
    }
}

impl Proof {
    /// A proof for a left operand of `n` modes (`n = 0`: none kept).
    #[inline(always)]
    pub(crate) fn new(n: usize) -> Proof {
        let vec = if n > 16 { vec![0; n] } else { Vec::new() };
        Proof { arr: [0; 16], vec, n, clean: true }
    }

    /// The digits kept, one per mode of the left operand (empty when none).
    #[inline(always)]
    fn digits(&mut self) -> &mut [i64] {
        if self.n <= 16 {
            &mut self.arr[..self.n]
        } else {
            &mut self.vec
        }
    }

    /// The composite is exact: a one-mode left operand has no carries, and
    /// otherwise every decomposition was exact and the digits fit (no carries
    /// between B-leaves).
    #[inline(always)]
    pub(crate) fn holds(&mut self, lhs: &[Mode]) -> bool {
        lhs.len() <= 1 || (self.clean && digits_fit(lhs, self.digits()))
    }

    /// [`Proof::holds`], where symbolic digits are decided by the facts (an
    /// `Undecided` error naming the comparison needed).
    #[inline(always)]
    pub(crate) fn holds_for<P: Policy>(&mut self, lhs: &[Mode]) -> Result<bool, P::Err> {
        if !P::CHECKED
            || lhs.len() <= 1
            || (!self.digits().iter().any(|&w| w < 0) && !lhs.iter().any(|m| m.shape.is_symbolic()))
        {
            return Ok(self.holds(lhs));
        }
        if !self.clean {
            return Ok(false);
        }
        for (i, m) in lhs[..lhs.len() - 1].iter().enumerate() {
            let d = digit_int(self.digits()[i]);
            if !P::lt(d, m.shape, "composition")? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// CuTe's composition of `lhs` with `B` (`b[0]` or the tuple of the parts) as
/// one element of `out`, its digits recorded in `proof`, nothing proven yet.
#[inline(always)]
pub(crate) fn compose_parts_with<P: Policy, E: Emit<P>>(
    out: &mut E,
    lhs: &[Mode],
    b: &[Part<'_>],
    proof: &mut Proof,
) -> Result<(), P::Err> {
    if let [l0] = lhs {
        return compose_one(out, *l0, b);
    }
    let one = b.len() == 1;
    let p = if one { 0 } else { out.open()? };
    if lhs.len() > CAP && !P::CHECKED {
        return Err(P::decline());
    }
    let mut c = Compose::new(lhs, proof.digits());
    if lhs.len() > CAP && !c.stop_early {
        // (extents below 2: each B-leaf may walk every mode of A)
        let steps = b.iter().map(|p| p.leaf_count()).sum::<usize>().saturating_mul(lhs.len());
        P::lift(crate::limits::take_points(steps as u64, "composition", || {
            format!("composing with a left operand of {} modes (some of extent below 2)", lhs.len())
        }))?;
    }
    for part in b {
        match *part {
            Part::Tree(t) => c.tree(out, t)?,
            Part::Flat([m]) => c.leaf(out, m.shape, m.stride.scale_int())?,
            Part::Flat(ms) => {
                let q = out.open()?;
                for &m in ms {
                    c.leaf(out, m.shape, m.stride.scale_int())?;
                }
                out.close(q, ms.len())?;
            }
        }
    }
    proof.clean &= c.clean;
    if !one {
        out.close(p, b.len())?;
    }
    Ok(())
}

/// [`compose_parts_with`] for a left operand of one mode `l0`: every stride
/// of `B` scaled by `l0`'s, the structure `B`'s, nothing to prove (no carries).
#[inline(always)]
fn compose_one<P: Policy, E: Emit<P>>(out: &mut E, l0: Mode, b: &[Part<'_>]) -> Result<(), P::Err> {
    let one = b.len() == 1;
    let p = if one { 0 } else { out.open()? };
    let d = l0.stride;
    for part in b {
        match *part {
            Part::Tree(t) => {
                for &x in t.toks {
                    out.tok(x)?;
                }
                for &m in t.leaves {
                    out.mode(scale::<P>(m, d)?)?;
                }
            }
            Part::Flat([m]) => out.leaf(scale::<P>(*m, d)?)?,
            Part::Flat(ms) => {
                let q = out.open()?;
                for &m in ms {
                    out.leaf(scale::<P>(m, d)?)?;
                }
                out.close(q, ms.len())?;
            }
        }
    }
    if !one {
        out.close(p, b.len())?;
    }
    Ok(())
}

/// The element written since `mark` (CuTe's answer for `lhs ∘ B`, which the
/// digit test could not prove) checked point by point, and replaced by the
/// true composite where it is not that. Under [`Fast`](crate::policy::Fast): declined.
#[cold]
pub(crate) fn settle<P: Policy, E: Emit<P>>(
    out: &mut E,
    mark: (usize, usize),
    a: Part<'_>,
    lhs: &[Mode],
    b: &[Part<'_>],
) -> Result<(), P::Err> {
    if !P::CHECKED {
        return Err(P::decline());
    }
    if lhs.iter().any(|m| m.shape.is_symbolic() || m.stride.is_symbolic())
        || b.iter().any(|p| p.to_layout().has_symbols())
    {
        return Err(P::fail(|| {
            crate::sym::undecided(
                "composition",
                "cannot prove the composite for every value of the unknowns: the right operand's strides must divide the left operand's extents exactly, and its leaves' digits fit them".to_string(),
            )
        }));
    }
    let bl = match b {
        [b] => b.to_layout(),
        _ => {
            let parts: SmallVec<[Layout; 2]> = b.iter().map(|p| p.to_layout()).collect();
            Layout::concat_unchecked(parts.iter())
        }
    };
    let a = a.to_layout();
    let cute = Layout::from_ref(out.since(mark));
    match verify_pointwise(&a, lhs, &bl, &cute) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == crate::ErrorKind::Inadmissible && lhs.iter().all(|m| m.stride.is_int()) => {
            let r = P::lift(true_composite(&a, lhs, &bl, &cute, e))?;
            out.truncate(mark);
            out.push(r.as_tree_ref())
        }
        Err(e) => Err(P::fail(|| e)),
    }
}

/// The state of a composition with a left operand of several modes.
struct Compose<'l> {
    lhs: &'l [Mode],
    /// per mode of `lhs`: the sum of the largest digits the B-leaves put
    /// there; empty when not kept (a single B-leaf, whose digits always fit:
    /// the largest it puts into mode `i` is `(new_s - 1)·ad` with
    /// `new_s <= ceil(cs / ad)`, which is less than `cs`)
    digits: &'l mut [i64],
    /// no B-leaf left an inexact digit decomposition
    clean: bool,
    /// every bounded mode of `lhs` has an extent of at least 2, so that a
    /// B-leaf whose extent is used up can stop walking them: its stride is
    /// then ±1, which passes every later divisibility check (only set for
    /// long left operands, where the walk would cost)
    stop_early: bool,
}

impl<'l> Compose<'l> {
    /// The state for a left operand `lhs`, digits kept in `digits`.
    #[inline(always)]
    fn new(lhs: &'l [Mode], digits: &'l mut [i64]) -> Self {
        let stop_early =
            lhs.len() > CAP && lhs[..lhs.len() - 1].iter().all(|m| !m.shape.is_symbolic() && m.shape.value() >= 2);
        Compose { lhs, digits, clean: true, stop_early }
    }
}

impl Compose<'_> {
    /// One B-leaf `rs:rd`.
    #[inline(always)]
    fn leaf<P: Policy, E: Emit<P>>(&mut self, out: &mut E, rs: Int, rd: Int) -> Result<(), P::Err> {
        // a two-mode left operand (the commonest) with its loop unrolled
        if self.lhs.len() == 2 {
            self.leaf_of::<P, E, 2>(out, rs, rd)
        } else {
            self.leaf_of::<P, E, 0>(out, rs, rd)
        }
    }

    /// [`Compose::leaf`] for a left operand of `N` modes (`N = 0`: any number):
    /// CuTe's `composition_impl` for one leaf, deciding every branch by value.
    #[inline(always)]
    fn leaf_of<P: Policy, E: Emit<P>, const N: usize>(&mut self, out: &mut E, rs: Int, rd: Int) -> Result<(), P::Err> {
        if P::eq(rd, Int::ZERO, "composition")? {
            return out.leaf(Mode::new(rs, rd));
        }
        let lhs = self.lhs;
        let n = if N == 0 { lhs.len() } else { N };
        if n == 1 {
            return out.leaf(Mode::with_stride(rs, P::scale(lhs[0].stride, rd)?));
        }
        if P::is_negative(rd, "composition")? {
            self.clean = false;
        }
        // the modes go straight into `out`, inside a tuple that becomes its
        // element if it has only one (CuTe returns that element itself)
        let p = out.open()?;
        let mut count = 0usize;
        let (mut rest_s, mut rest_d) = (rs, rd);
        for (i, cur) in lhs[..n - 1].iter().enumerate() {
            let cs = cur.shape;
            if P::eq(cs, Int::ZERO, "composition")? {
                return Err(P::fail(|| {
                    Error::inadmissible("composition", format!("the left operand has an extent 0 mode ({cur:?})"))
                }));
            }
            if !P::CHECKED && cs.value() < 0 {
                return Err(P::decline());
            }
            let symbolic = P::CHECKED && (rest_d.is_symbolic() || cs.is_symbolic() || rest_s.is_symbolic());
            let (ad, next_s, next_d);
            if !symbolic && rest_d.value() > 0 && cs.value() > 0 && cs.value().checked_add(rest_d.value()).is_some() {
                // the values and flags of the steps below, in fewer steps: both
                // ceil_divs are of positive numbers (whose sum does not overflow)
                if rest_d.value() >= cs.value() {
                    // cs divides rest_d: this mode is stepped over (next_s = 1)
                    if P::rem(rest_d, cs)?.value() != 0 {
                        return Err(P::fail(|| stride_divisibility(rest_d, cs, i, lhs)));
                    }
                    rest_d = P::div(rest_d, cs)?;
                    continue;
                }
                ad = rest_d;
                next_s = P::add(P::div(P::sub(cs, Int::ONE)?, ad)?, Int::ONE)?;
                next_d = ad.with(cs, 1);
            } else {
                let fits = if symbolic {
                    // either fact will do; neither known to hold, an undecided
                    // question is the error, unless each value of the extent
                    // up to the stride divides it
                    match crate::int::either(P::lt(rest_d, cs, "composition"), P::divides(cs, rest_d, "composition")) {
                        Err(_) if small_extents_divide(cs, rest_d) => {
                            // (the error's split is moot)
                            let _ = crate::sym::take_split();
                            true
                        }
                        r => r?,
                    }
                } else {
                    rest_d.value() < cs.value() || P::rem(rest_d, cs)?.value() == 0
                };
                if !fits {
                    return Err(P::fail(|| stride_divisibility(rest_d, cs, i, lhs)));
                }
                ad = P::abs(rest_d)?;
                next_s = P::ceil_div(cs, ad)?;
                next_d = P::mul(P::ceil_div(ad, cs)?, P::signum(rest_d)?)?;
            }
            if P::is_one(next_s) || P::is_one(rest_s) {
                rest_d = next_d;
                continue;
            }
            let new_s = match P::min(next_s, rest_s, "composition") {
                Ok(s) => s,
                Err(e) => match symbolic.then(|| min_dividing(next_s, rest_s)).flatten() {
                    Some(s) => s,
                    None => return Err(e),
                },
            };
            // (new_s is at least 1: a quotient of extents at least 2)
            if !P::divides_nonzero(new_s, rest_s, "composition")? {
                return Err(P::fail(|| {
                    Error::inadmissible(
                        "composition",
                        format!(
                            "shape divisibility condition fails: the right operand's extent {} is not divisible by {} (the part of it that fits the coalesced left operand {}'s mode {i} of extent {})",
                            shown(rest_s),
                            shown(new_s),
                            Layout::from_flat(lhs),
                            shown(cs)
                        ),
                    )
                }));
            }
            // Exact digit decomposition? (CuTe accepts a non-dividing stride; it
            // is only right if this B-leaf ends inside this mode.)
            // (`cs % ad != 0` without a division for cs > 0: next_s = ceil(cs / ad),
            // so next_s·ad is in [cs, cs + ad), which the ceil_div computed)
            if symbolic {
                // (the symbolic steps: an inexact decomposition leaves the
                // proof to the facts, which then cannot give it)
                // (either question answers it where the other is open: the
                // extent left at most this mode's, or its decomposition exact)
                let exact = || P::eq(P::mul(next_s, ad)?, cs, "composition");
                match P::lt(next_s, rest_s, "composition") {
                    Ok(false) => {}
                    Ok(true) => self.clean &= exact()?,
                    Err(e) => match exact() {
                        Ok(true) => {}
                        _ => return Err(e),
                    },
                }
            } else if rest_s.value() > next_s.value()
                && if cs.value() > 0 {
                    next_s.value().wrapping_mul(ad.value()) != cs.value()
                } else {
                    cs.value().checked_rem(ad.value()).is_none_or(|r| r != 0)
                }
            {
                self.clean = false;
            }
            // the largest digit value this B-leaf puts into mode i
            if let Some(d) = self.digits.get_mut(i) {
                if P::CHECKED && (new_s.is_symbolic() || ad.is_symbolic() || *d < 0) {
                    let step = P::mul(P::sub(new_s, Int::ONE)?, ad)?;
                    *d = digit_word(P::add(digit_int(*d), step)?);
                } else {
                    *d = d.saturating_add(new_s.value().saturating_sub(1).saturating_mul(ad.value()));
                }
            }
            out.leaf(Mode::with_stride(new_s, P::scale(cur.stride, rest_d)?))?;
            count += 1;
            rest_s = P::div(rest_s, new_s)?;
            rest_d = next_d;
            if P::is_one(rest_s) && self.stop_early {
                break;
            }
        }
        if count == 0 || !P::is_one(rest_s) {
            out.leaf(Mode::with_stride(rest_s, P::scale(lhs[n - 1].stride, rest_d)?))?;
            count += 1;
        }
        if count == 1 {
            out.close_single(p);
        } else {
            out.close(p, count)?;
        }
        Ok(())
    }

    /// A B-layout: its tuples kept, each leaf composed.
    #[inline(always)]
    fn tree<P: Policy, E: Emit<P>>(&mut self, out: &mut E, b: LayoutRef<'_>) -> Result<(), P::Err> {
        let mut leaves = b.leaves.iter();
        for &t in b.toks {
            if t == LEAF {
                let Some(m) = leaves.next().filter(|m| m.stride.is_int()) else { return Err(P::decline()) };
                self.leaf(out, m.shape, m.stride.scale_int())?;
            } else {
                out.tok(t)?;
            }
        }
        Ok(())
    }
}

/// Whether the symbolic extent `cs` (one unknown) divides the integer
/// stride `rest_d >= 1` at each of its values up to `rest_d` (those above it
/// are greater than the stride): CuTe's stride divisibility condition then
/// holds at every value, though the facts order neither.
#[cold]
fn small_extents_divide(cs: Int, rest_d: Int) -> bool {
    if rest_d.is_symbolic() || rest_d.value() < 1 {
        return false;
    }
    let r = rest_d.value();
    crate::sym::values_up_to(&cs.to_sym(), r).is_some_and(|vs| vs.iter().all(|v| r % v == 0))
}

/// CuTe's `min(next_s, rest_s)` of a symbolic extent `next_s` (one unknown
/// `x`) and an integer extent `rest_s = c` the facts do not order: the symbol
/// `min(x,c)`, where the quotient `c / min(x,c)` that follows is exact at
/// every value the facts allow (each value of `x` below `c` divides `c`);
/// `None` otherwise (the comparison's error stands).
#[cold]
fn min_dividing(next_s: Int, rest_s: Int) -> Option<Int> {
    if rest_s.is_symbolic() || !next_s.is_symbolic() {
        return None;
    }
    let c = crate::sym::Sym::constant(rest_s.value());
    let m = next_s.to_sym().min(&c).ok()?;
    c.div_exact(&m).ok()?;
    // the comparison's error offered a split that this answer makes moot
    let _ = crate::sym::take_split();
    Int::symbolic(m).ok()
}

#[cold]
fn stride_divisibility(rest_d: Int, cs: Int, i: usize, lhs: &[Mode]) -> Error {
    // (the modes are numbered as in the coalesced left operand, which
    // composition walks: not as in the operand as written)
    Error::inadmissible(
        "composition",
        format!(
            "stride divisibility condition fails: the right operand's stride {} (in units of the coalesced left operand {}'s mode {i}) neither is a multiple of nor is less than its extent {}",
            shown(rest_d),
            Layout::from_flat(lhs),
            shown(cs)
        ),
    )
}

/// An integer in an error message: its value (a symbol as its expression).
fn shown(x: Int) -> String {
    if x.is_symbolic() {
        x.to_string()
    } else {
        x.value().to_string()
    }
}

/// No carries between B-leaves: at every bounded mode of `A`, the largest digits
/// the leaves put there add up to less than its extent.
fn digits_fit(lhs: &[Mode], digits: &[i64]) -> bool {
    lhs[..lhs.len() - 1].iter().zip(digits).all(|(m, &d)| d < m.shape.value())
}

/// `Â(x)`: `x` split over the flat modes, the last one unbounded. A negative
/// `x` (a right operand with negative strides) splits as CuTe evaluates it,
/// with C++'s truncating `/` and `%`: its digits are those of `-x`, negated
/// (CUTLASS's own composition tests pin this down).
fn eval_ext(lhs: &[Mode], mut x: i64) -> Option<i64> {
    let n = lhs.len();
    let mut acc: i64 = 0;
    for m in &lhs[..n - 1] {
        let s = m.shape.value();
        acc = acc.checked_add(x.checked_rem(s)?.checked_mul(m.stride.value())?)?;
        x = x.checked_div(s)?;
    }
    acc.checked_add(x.checked_mul(lhs[n - 1].stride.value())?)
}

/// Proves `R(i) == Â(B(i))` point by point. With basis strides in `A`, the
/// integer check runs once per basis direction of `A` (the components of `R`
/// and `Â` in that direction), which together are the whole comparison.
fn verify_pointwise(a: &Layout, lhs: &[Mode], b: &Layout, r: &Layout) -> Result<()> {
    if lhs.iter().all(|m| m.stride.is_int()) {
        return verify_ints(a, lhs, b, r, None);
    }
    // A coordinate layout has no values past its domain: where B reaches
    // beyond A's size (a tile that does not divide A), CuTe's answer holds
    // coordinates past A's shape (partial tiles, which predication relies on)
    // and only the points inside the domain are compared.
    let domain = a.size()?.value();
    let mut dirs: SmallVec<[Stride; 8]> = SmallVec::new();
    for m in lhs {
        if !dirs.iter().any(|d| d.same_direction(m.stride)) {
            dirs.push(m.stride);
        }
    }
    for dir in dirs {
        let proj = |m: Mode| {
            let d = if m.stride.same_direction(dir) { m.stride.scale_int() } else { Int::ZERO };
            Mode::new(m.shape, d)
        };
        let lhs_p: Modes = lhs.iter().map(|&m| proj(m)).collect();
        let r_p = Layout { tree: r.tree.map(proj) };
        if verify_ints(a, &lhs_p, b, &r_p, Some(domain)).is_err() {
            return Err(Error::inadmissible(
                "composition",
                format!("no layout is the composite {a} o {b}: CuTe's algorithm gives {r}, which differs from A(B(i)) in the direction of {dir}"),
            ));
        }
    }
    Ok(())
}

/// `domain`: compare only where `B(i)` lies in `[0, domain)` (coordinate layouts).
fn verify_ints(a: &Layout, lhs: &[Mode], b: &Layout, r: &Layout, domain: Option<i64>) -> Result<()> {
    let size = b.size()?.value();
    if size > BRUTE_FORCE_LIMIT {
        return Err(Error::inadmissible(
            "composition",
            format!(
                "cannot prove that the result is the composite {a} o {b}: the modes of the right operand overlap in the left operand's modes and its domain ({size} elements) is too large to check"
            ),
        ));
    }
    match first_difference(a, lhs, b, r, domain)? {
        None => Ok(()),
        Some((i, x, y, want)) => Err(Error::inadmissible(
            "composition",
            format!(
                "no layout is the composite {a} o {b}: CuTe's algorithm gives {r}, whose value at {i} is {y}, but A(B({i})) = A({x}) = {want}"
            ),
        )),
    }
}

/// The first `i` where `R(i) != Â(B(i))`, as `(i, B(i), R(i), Â(B(i)))`
/// (only where `B(i)` lies in `[0, domain)` when `domain` is given).
fn first_difference(
    a: &Layout,
    lhs: &[Mode],
    b: &Layout,
    r: &Layout,
    domain: Option<i64>,
) -> Result<Option<(i64, i64, i64, i64)>> {
    let size = b.size()?.value();
    crate::limits::take_points(size.max(0) as u64, "composition", || format!("proving {a} o {b} point by point"))?;
    if size <= 0 {
        return Ok(None);
    }
    // (both in `L(i)` order, `i` from 0: the traversal is the iterator's)
    for (i, (x, y)) in (0..).zip(Indices::new(b)?.zip(Indices::new(r)?)) {
        if domain.is_some_and(|n| !(0..n).contains(&x)) {
            continue;
        }
        let want = eval_ext(lhs, x).ok_or_else(|| Error::overflow(format_args!("evaluating {a} at {x}")))?;
        if want != y {
            return Ok(Some((i, x, y, want)));
        }
    }
    Ok(None)
}

/// The layout whose values are `Â(B(i))`, found where CuTe's algorithm
/// answered `cute`, which is not that composite (`why` says where). Every
/// layout `R` compatible with `B` is, along each leaf `s:d` of `B`, a layout
/// of size `s` with the values `f(i) = Â(d·i)`; a layout function has one
/// coalesced form, read off its values (its first mode is its longest linear
/// start, and the rest is the same question for `f(t·j)`). So each leaf's
/// form is found or proven not to exist, and `R` is the sum of those forms,
/// which is the composite exactly when it agrees with `Â(B(i))` everywhere.
/// Beyond [`BRUTE_FORCE_LIMIT`] points, `why` is the error.
fn true_composite(a: &Layout, lhs: &[Mode], b: &Layout, cute: &Layout, why: Error) -> Result<Layout> {
    let size = b.size()?.value();
    if size > BRUTE_FORCE_LIMIT {
        return Err(why);
    }
    let along: i64 = b.leaves().iter().map(|m| m.shape.value().max(0)).fold(0i64, i64::saturating_add);
    crate::limits::take_points(along as u64, "composition", || format!("finding the composite {a} o {b}"))?;
    let is_static = lhs.iter().all(|m| m.shape.is_static() && m.stride.is_static());
    let mut forms: Vec<SmallVec<[Mode; 4]>> = Vec::with_capacity(b.leaves().len());
    for (j, m) in b.leaves().iter().enumerate() {
        let (s, d) = (m.shape.value(), m.stride.value());
        let flag = is_static && m.shape.is_static() && m.stride.is_static();
        if s <= 1 {
            forms.push(SmallVec::from_elem(Mode::new(m.shape, Int::new(0, flag)), 1));
            continue;
        }
        let mut values = Vec::with_capacity(s as usize);
        for i in 0..s {
            let x = d.checked_mul(i).ok_or_else(|| Error::overflow(format_args!("{d}·{i}, a value of {b}")))?;
            values.push(eval_ext(lhs, x).ok_or_else(|| Error::overflow(format_args!("evaluating {a} at {x}")))?);
        }
        match layout_of_values(&values) {
            Ok(modes) => forms.push(modes.iter().map(|&(e, r)| Mode::new(Int::new(e, flag), Int::new(r, flag))).collect()),
            Err(i) => {
                return Err(Error::inadmissible(
                    "composition",
                    format!(
                        "no layout is the composite {a} o {b}: along the right operand's leaf {j} ({}:{}), A takes the values {}, which are no layout's (the one coalesced form they could have departs from them at {i}); CuTe's algorithm answers {cute}",
                        m.shape,
                        m.stride,
                        preview(&values)
                    ),
                ))
            }
        }
    }
    fn subst(o: &mut Builder<'_, Mode>, t: LayoutRef<'_>, forms: &mut std::vec::IntoIter<SmallVec<[Mode; 4]>>) {
        if t.is_leaf() {
            let f = forms.next().unwrap_or_default();
            if let [m] = f[..] {
                o.leaf(m);
            } else {
                o.open();
                for &m in &f {
                    o.leaf(m);
                }
                o.close();
            }
        } else {
            o.open();
            for c in t.children() {
                subst(o, c, forms);
            }
            o.close();
        }
    }
    let mut forms = forms.into_iter();
    let tree = Tree::try_build(|o| {
        subst(o, b.as_tree_ref(), &mut forms);
        Ok(())
    })?;
    let r = Layout { tree };
    if let Some((i, x, y, want)) = first_difference(a, lhs, b, &r, None)? {
        return Err(Error::inadmissible(
            "composition",
            format!(
                "no layout is the composite {a} o {b}: each leaf of the right operand composes to a layout alone, giving {r}, but A(B(i)) is not the sum over the leaves: at {i}, A(B({i})) = A({x}) = {want}, while {r} gives {y}; CuTe's algorithm answers {cute}"
            ),
        ));
    }
    Ok(r)
}

/// The first values of a list, for an error message.
fn preview(v: &[i64]) -> String {
    let head: Vec<String> = v.iter().take(12).map(i64::to_string).collect();
    if v.len() > 12 {
        format!("[{}, ...]", head.join(", "))
    } else {
        format!("[{}]", head.join(", "))
    }
}

/// The coalesced layout `(e0,e1,...):(r0,r1,...)` whose values over
/// `0..f.len()` are `f`, or the first point where no layout can have them.
/// The first mode is the longest linear start of `f` (a coalesced layout's
/// first mode ends exactly where its values stop growing by `r0`: the next
/// mode's stride is not `r0·e0`), and must divide the size; the rest is the
/// same question for `f(e0·j)`. The forms found are checked at every point.
///
/// Pre: `f` is not empty. Post: `Ok(modes)`, their extents multiplying to
/// `f.len()`, each at least 2 (one mode `(1, 0)` for a single value 0);
/// `Err(i)`: no layout has the values `f`, and `f[..=i]` shows it.
pub(crate) fn layout_of_values(f: &[i64]) -> std::result::Result<SmallVec<[(i64, i64); 4]>, usize> {
    let n = f.len();
    if f[0] != 0 {
        return Err(0);
    }
    let mut modes: SmallVec<[(i64, i64); 4]> = SmallVec::new();
    if n == 1 {
        modes.push((1, 0));
        return Ok(modes);
    }
    let (mut step, mut left) = (1usize, n);
    while left > 1 {
        let r = f[step];
        let mut t = 2usize;
        while t < left && (t as i64).checked_mul(r) == Some(f[t * step]) {
            t += 1;
        }
        if left % t != 0 {
            return Err(t * step);
        }
        modes.push((t as i64, r));
        step *= t;
        left /= t;
    }
    for (i, &want) in f.iter().enumerate() {
        let (mut x, mut v) = (i as i64, 0i64);
        for &(e, r) in &modes {
            v = v.wrapping_add((x % e).wrapping_mul(r));
            x /= e;
        }
        if v != want {
            return Err(i);
        }
    }
    Ok(modes)
}

/// The basis strides of a right operand name the modes of `A` they select
/// (CuTe's `coprofile`): each path ends at a terminal; a path that goes through
/// another's terminal is an integer added to a tuple, which has no meaning.
#[derive(Clone)]
enum Profile {
    Unset,
    Leaf,
    Tuple(Vec<Profile>),
}

impl Profile {
    fn insert(&mut self, path: &[usize]) -> bool {
        match (path.split_first(), &mut *self) {
            (None, Profile::Unset | Profile::Leaf) => {
                *self = Profile::Leaf;
                true
            }
            (None, Profile::Tuple(_)) | (Some(_), Profile::Leaf) => false,
            (Some((&i, rest)), Profile::Unset) => {
                let mut v = vec![Profile::Unset; i + 1];
                let ok = v[i].insert(rest);
                *self = Profile::Tuple(v);
                ok
            }
            (Some((&i, rest)), Profile::Tuple(v)) => {
                if v.len() <= i {
                    v.resize(i + 1, Profile::Unset);
                }
                v[i].insert(rest)
            }
        }
    }
}

/// `A ∘ B` for a right operand with basis strides (CuTe's `composition_impl`
/// with a `ScaledBasis` stride): each leaf `s:v@p` of `B` composes `s:v` with
/// mode `p` of `A`, coalesced (`coalesce_x` at the terminals of `B`'s
/// coprofile); a zero stride stays `s:0`. With `verify`, the result is proven
/// to be the composite as for integer strides.
fn compose_basis_rhs(out: &mut Builder<'_, Mode>, a: LayoutRef<'_>, b: LayoutRef<'_>, verify: bool) -> Result<()> {
    let mut profile = Profile::Unset;
    let mut has_int = None;
    for m in b.leaves() {
        if m.stride.is_int() {
            if m.stride.value() != 0 {
                has_int = Some(m.stride);
            }
        } else if !profile.insert(&m.stride.path()) {
            return Err(Error::inadmissible(
                "composition",
                format!("the basis strides of the right operand {} do not name modes consistently: one path ends where another continues", Layout::from_ref(b)),
            ));
        }
    }
    if let Some(d) = has_int {
        return Err(Error::inadmissible(
            "composition",
            format!("the right operand {} mixes the integer stride {d} with basis strides", Layout::from_ref(b)),
        ));
    }
    // per distinct basis path: the coalesced mode of A it selects, and the digits of the proof
    struct Sub {
        path: crate::stride::BasisPath,
        lhs: Modes,
        digits: Vec<i64>,
        /// the composed leaf, before it is copied into `out`
        tmp: Tree<Mode>,
    }
    let mut subs: Vec<Sub> = Vec::new();
    let mut clean = true;
    let mark = out.mark();
    fn rec(
        out: &mut Builder<'_, Mode>,
        a: LayoutRef<'_>,
        b: LayoutRef<'_>,
        subs: &mut Vec<Sub>,
        clean: &mut bool,
    ) -> Result<()> {
        let Some(m) = b.as_leaf() else {
            out.open();
            for c in b.children() {
                rec(out, a, c, subs, clean)?;
            }
            out.close();
            return Ok(());
        };
        let path = m.stride.path();
        let k = match subs.iter().position(|s| s.path == path) {
            Some(k) => k,
            None => {
                let mut sub = a;
                for &i in &path {
                    sub = sub.mode(i).ok_or_else(|| {
                        Error::mismatch(
                            "composition",
                            format!(
                                "the stride {} selects a mode that the left operand {} does not have",
                                m.stride,
                                Layout::from_ref(a)
                            ),
                        )
                    })?;
                }
                let mut lhs = Modes::new();
                coalesce_modes(&mut lhs, sub.leaves(), true)?;
                let digits = vec![0; lhs.len()];
                subs.push(Sub { path, lhs, digits, tmp: Tree::empty() });
                subs.len() - 1
            }
        };
        if m.stride.value() == 0 {
            out.leaf(Mode::new(m.shape, m.stride.scale_int()));
            return Ok(());
        }
        let sub = &mut subs[k];
        let mut c = Compose::new(&sub.lhs, &mut sub.digits);
        let mut g = Grow::new(&mut sub.tmp);
        c.leaf::<Checked, _>(&mut g, m.shape, m.stride.scale_int())?;
        *clean &= c.clean;
        out.push(sub.tmp.as_ref());
        Ok(())
    }
    rec(out, a, b, &mut subs, &mut clean)?;
    let proven = clean && subs.iter().all(|s| s.lhs.len() <= 1 || digits_fit(&s.lhs, &s.digits));
    if verify && !proven {
        verify_points(a, b, out.since(mark))?;
    }
    Ok(())
}

/// `R(i) == A(B(i))` for every `i` in `B`'s domain, evaluated as coordinates
/// (the proof for right operands with basis strides).
fn verify_points(a: LayoutRef<'_>, b: LayoutRef<'_>, r: LayoutRef<'_>) -> Result<()> {
    let (a, b, r) = (Layout::from_ref(a), Layout::from_ref(b), Layout::from_ref(r));
    let size = b.size()?.value();
    if size > BRUTE_FORCE_LIMIT {
        return Err(Error::inadmissible(
            "composition",
            format!("cannot prove that the result is the composite {a} o {b}: its domain ({size} elements) is too large to check"),
        ));
    }
    crate::limits::take_points(size.max(0) as u64, "composition", || format!("proving {a} o {b} point by point"))?;
    for i in 0..size {
        let x = b.eval_point(Int::new_dynamic(i))?;
        let want = a.eval_at(&x)?;
        let got = r.eval_point(Int::new_dynamic(i))?;
        if !want.same_values(&got) {
            return Err(Error::inadmissible(
                "composition",
                format!("no layout is the composite {a} o {b}: CuTe's algorithm gives {r}, whose value at {i} is {got}, but A(B({i})) = A({x}) = {want}"),
            ));
        }
    }
    Ok(())
}
