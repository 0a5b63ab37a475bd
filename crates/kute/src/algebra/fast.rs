//! Fast paths of the hot operations, for small operands.
//!
//! Each function here runs the general algorithm of its operation (in the
//! sibling modules) step for step, with the same checked [`Int`] operations, so
//! it gives the same values and the same static flags; but it works over
//! fixed-capacity stack buffers and writes straight into the output tree: no
//! growable vectors, no tree builder, no error values on the way. That is most
//! of the cost of the general path on the small layouts kernel generators use.
//!
//! It covers operands of at most [`CAP`] leaves with positive extents (and, for
//! the complement, positive strides). For anything else, and whenever a step
//! fails (an error, an overflow, a composition that needs the point-by-point
//! proof), a function returns `None` and its caller runs the general path, which
//! gives the answer or the exact error, starting over on the output.
//!
//! Coalescing here goes left to right where CuTe's `bw_coalesce` goes right to
//! left. The result is the same: the runs are the same (two neighbours, size-1
//! modes skipped, merge when `s·d` of the left one is the right one's stride), a
//! run's stride is its first mode's either way, and its extent is a product of
//! extents `>= 2`, whose value, static flag and overflow do not depend on the
//! order. The `s·d` products computed here are those the general path computes.
//!
//! The tests at the end check that both paths agree on random operands.

use super::coalesce::{coalesce_leaves, merges};
use super::complement::{complement_leaves, Cot};
use super::divide::Unzip;
use super::out::{Flat, Out, CAP, UNIT};
use super::tiler::Tiler;
use crate::int::Int;
use crate::layout::{leaf_ref, Layout, LayoutRef, Mode};
use crate::policy::Fast;
use crate::stride::Stride;
use crate::tree::LEAF;
use arrayvec::ArrayVec;

/// Whether the fast paths run (always, outside the tests).
#[inline(always)]
fn on() -> bool {
    Fast::enabled()
}

// The entry points of the large fast paths are `#[inline(never)]`: inlined
// into their `*_into` callers (and so into the user's code) they measured up to
// 11% slower; the small ones are inlined: complement `#[inline]`, coalesce
// `#[inline(always)]` (left to the compiler it was a call, whose register saves
// and restores were a seventh of a three-leaf coalesce).

/// Whether every stride is an integer: the fast paths take basis strides only
/// on the left of a composition (where they are only scaled and compared);
/// anywhere else the general path answers (or refuses, as CuTe).
#[inline(always)]
fn ints(l: &[Mode]) -> bool {
    l.iter().all(|m| m.stride.is_int())
}

/// [`ints`] for every layout of a tiler.
fn tiler_ints(t: &Tiler) -> bool {
    match t {
        Tiler::Layout(l) => ints(l.leaves()),
        Tiler::Tuple(ts) => ts.iter().all(tiler_ints),
        Tiler::Int(_) | Tiler::Underscore => true,
    }
}

/// A right operand of a composition (or part of one): a layout, or flat modes
/// (one: that integral layout; several: the tuple of them).
#[derive(Clone, Copy)]
enum Part<'a> {
    Tree(LayoutRef<'a>),
    Flat(&'a [Mode]),
}

/// `s:r` composed with a one-mode left operand of stride `d`.
#[inline(always)]
fn scale(m: Mode, d: Stride) -> Option<Mode> {
    if m.stride.value() == 0 {
        Some(m)
    } else {
        Some(Mode::with_stride(m.shape, d.scale_opt(m.stride.scale_int())?))
    }
}

/// The state of a composition with a left operand of several modes.
struct Compose<'l> {
    lhs: &'l [Mode],
    /// per mode of `lhs`: the sum of the largest digits the B-leaves put there
    digits: [i64; CAP],
    /// whether `digits` is kept: not for a single B-leaf, whose digits always
    /// fit (the largest it puts into mode `i` is `(new_s - 1)·ad` with
    /// `new_s <= ceil(cs / ad)`, which is less than `cs`)
    track: bool,
    /// no B-leaf left an inexact digit decomposition
    clean: bool,
}

impl Compose<'_> {
    /// One B-leaf `rs:rd` (the steps of `composition::compose_leaf`).
    #[inline(always)]
    fn leaf(&mut self, out: &mut Out<'_>, rs: Int, rd: Int) -> Option<()> {
        // a two-mode left operand (the commonest) with its loop unrolled
        if self.lhs.len() == 2 {
            self.leaf_of::<2>(out, rs, rd)
        } else {
            self.leaf_of::<0>(out, rs, rd)
        }
    }

    /// [`Compose::leaf`] for a left operand of `N` modes (`N = 0`: any number).
    #[inline(always)]
    fn leaf_of<const N: usize>(&mut self, out: &mut Out<'_>, rs: Int, rd: Int) -> Option<()> {
        if rd.value() == 0 {
            out.leaf(Mode::new(rs, rd))?;
            return Some(());
        }
        let lhs = self.lhs;
        let n = if N == 0 { lhs.len() } else { N };
        if rd.value() < 0 {
            self.clean = false;
        }
        let p = out.open()?;
        let mut count = 0usize;
        let (mut rest_s, mut rest_d) = (rs, rd);
        for (i, cur) in lhs[..n - 1].iter().enumerate() {
            let cs = cur.shape;
            if cs.value() <= 0 {
                return None;
            }
            let (ad, next_s, next_d);
            if rest_d.value() > 0 {
                // the same values and flags as below, in fewer steps: both
                // ceil_divs are of positive numbers (their sum must not overflow)
                cs.value().checked_add(rest_d.value())?;
                if rest_d.value() >= cs.value() {
                    // cs divides rest_d: this mode is stepped over (next_s = 1)
                    if rest_d.rem_opt(cs)?.value() != 0 {
                        return None;
                    }
                    rest_d = rest_d.div_opt(cs)?;
                    continue;
                }
                ad = rest_d;
                next_s = cs.sub_opt(Int::ONE)?.div_opt(ad)?.add_opt(Int::ONE)?;
                next_d = ad.with(cs, 1);
            } else {
                if !(rest_d.value() < cs.value() || rest_d.rem_opt(cs)?.value() == 0) {
                    return None;
                }
                ad = rest_d.abs_opt()?;
                next_s = cs.ceil_div_opt(ad)?;
                next_d = ad.ceil_div_opt(cs)?.mul_opt(rest_d.signum())?;
            }
            if next_s.value() == 1 || rest_s.value() == 1 {
                rest_d = next_d;
                continue;
            }
            let new_s = next_s.min(rest_s);
            if rest_s.rem_opt(new_s)?.value() != 0 {
                return None;
            }
            // (`cs % ad != 0` without a division: next_s = ceil(cs / ad), so
            // next_s·ad is in [cs, cs + ad); if it wraps it is negative, not cs)
            if rest_s.value() > next_s.value() && next_s.value().wrapping_mul(ad.value()) != cs.value() {
                self.clean = false;
            }
            if self.track {
                let d = self.digits.get_mut(i)?;
                *d = d.saturating_add(new_s.value().saturating_sub(1).saturating_mul(ad.value()));
            }
            out.leaf(Mode::with_stride(new_s, cur.stride.scale_opt(rest_d)?))?;
            count += 1;
            rest_s = rest_s.div_opt(new_s)?;
            rest_d = next_d;
        }
        if count == 0 || rest_s.value() != 1 {
            out.leaf(Mode::with_stride(rest_s, lhs[n - 1].stride.scale_opt(rest_d)?))?;
            count += 1;
        }
        if count == 1 {
            // a tuple of one leaf is that leaf: [.., tuple, leaf] -> [.., leaf]
            out.toks.pop();
            out.toks[p] = LEAF;
        } else {
            out.close(p, count);
        }
        Some(())
    }

    /// A B-layout: its tuples kept, each leaf composed.
    #[inline]
    fn tree(&mut self, out: &mut Out<'_>, b: LayoutRef<'_>) -> Option<()> {
        let mut leaves = b.leaves.iter();
        for &t in b.toks {
            if t == LEAF {
                let m = leaves.next()?;
                self.leaf(out, m.shape, m.stride.scale_int())?;
            } else {
                out.tok(t)?;
            }
        }
        Some(())
    }

    /// No carries between B-leaves (`composition::digits_fit`).
    fn digits_fit(&self) -> bool {
        let n = self.lhs.len();
        self.lhs[..n - 1].iter().zip(&self.digits).all(|(m, &d)| d < m.shape.value())
    }
}

/// `lhs ∘ B` as one element of `out`, where `lhs` is a coalesced left operand
/// and `B` is `parts[0]` or the tuple of the parts (`composition::compose_with`).
/// With `verify`, `None` unless the cheap test proves the result is the composite.
#[inline(always)]
fn compose_parts(out: &mut Out<'_>, lhs: &[Mode], parts: &[Part<'_>], verify: bool) -> Option<()> {
    let one = parts.len() == 1;
    let p = if one { 0 } else { out.open()? };
    if let [l0] = lhs {
        // one mode: every stride is scaled, the structure is B's
        let d = l0.stride;
        for part in parts {
            match *part {
                Part::Tree(t) => {
                    for &x in t.toks {
                        out.tok(x)?;
                    }
                    for &m in t.leaves {
                        out.leaves.try_push(scale(m, d)?).ok()?;
                    }
                }
                Part::Flat([m]) => out.leaf(scale(*m, d)?)?,
                Part::Flat(ms) => {
                    let q = out.open()?;
                    for &m in ms {
                        out.leaf(scale(m, d)?)?;
                    }
                    out.close(q, ms.len());
                }
            }
        }
    } else {
        if lhs.len() > CAP {
            return None;
        }
        let mut c = Compose { lhs, digits: [0; CAP], track: true, clean: true };
        for part in parts {
            match *part {
                Part::Tree(t) => c.tree(out, t)?,
                Part::Flat([m]) => c.leaf(out, m.shape, m.stride.scale_int())?,
                Part::Flat(ms) => {
                    let q = out.open()?;
                    for &m in ms {
                        c.leaf(out, m.shape, m.stride.scale_int())?;
                    }
                    out.close(q, ms.len());
                }
            }
        }
        if verify && !(c.clean && c.digits_fit()) {
            return None;
        }
    }
    if !one {
        out.close(p, parts.len());
    }
    Some(())
}

/// `coalesce_x(A)`, CuTe's left operand of a composition, when `A`'s last
/// extent is not 1 (then it is `coalesce(A)`).
#[inline(always)]
fn lhs_of(dst: &mut Flat, a: LayoutRef<'_>) -> Option<()> {
    if a.leaves.last()?.shape.value() == 1 {
        return None;
    }
    coalesce_leaves::<Fast>(dst, a.leaves, false).ok()
}

/// [`lhs_of`], without the copy where `A`'s leaves are their own coalesced
/// form: two leaves of extents `>= 2` that do not merge.
#[inline(always)]
fn lhs_ref<'a>(buf: &'a mut Flat, a: LayoutRef<'a>) -> Option<&'a [Mode]> {
    if let [x, y] = *a.leaves {
        if x.shape.value() >= 2 && y.shape.value() >= 2 && !merges::<Fast>(x, y).ok()? {
            return Some(a.leaves);
        }
    }
    lhs_of(buf, a)?;
    Some(buf)
}

/// `A ∘ B` as one element of `out`, verified.
#[inline(always)]
fn compose(out: &mut Out<'_>, a: LayoutRef<'_>, b: Part<'_>) -> Option<()> {
    if let Some(am) = a.as_leaf() {
        // a leaf of extent >= 2 is its own coalesced form
        if am.shape.value() >= 2 {
            return compose_parts(out, &[am], &[b], true);
        }
    }
    let mut buf = Flat::new();
    let lhs = lhs_ref(&mut buf, a)?;
    compose_parts(out, lhs, &[b], true)
}

/// [`crate::composition_into`]'s fast path.
#[inline(never)]
pub(crate) fn composition(out: &mut Layout, a: &Layout, b: &Layout) -> Option<()> {
    if !on() {
        return None;
    }
    if !ints(b.leaves()) {
        return None;
    }
    compose(&mut Out::new(out), a.as_tree_ref(), Part::Tree(b.as_tree_ref()))
}

/// [`crate::composition_tiler_into`]'s fast path.
#[inline(never)]
pub(crate) fn composition_tiler(out: &mut Layout, a: &Layout, t: &Tiler) -> Option<()> {
    if !on() || !tiler_ints(t) {
        return None;
    }
    if let Tiler::Tuple(ts) = t {
        if compose_leaf_tiles(&mut Out::new(out), a.as_tree_ref(), ts).is_some() {
            return Some(());
        }
    }
    compose_tiler(&mut Out::new(out), a.as_tree_ref(), t)
}

/// [`compose_tuple`] for the commonest case, walking `A`'s tokens directly:
/// every tile a leaf or an integer, every mode of `A` it meets a leaf or a
/// pair of leaves. `None` for anything else (and wherever `compose_tuple`
/// would decline); the caller then starts over on the general fast path.
#[inline(always)]
fn compose_leaf_tiles(out: &mut Out<'_>, a: LayoutRef<'_>, ts: &[Tiler]) -> Option<()> {
    if a.is_leaf() || ts.len() > a.rank() {
        return None;
    }
    let p = out.open()?;
    let (mut tok, mut leaf) = (1, 0);
    for ti in ts {
        let bm = leaf_tile(ti)?;
        // (a pair's tuple token is arity_tok(2) == 3; the cases are those of
        // `compose` for one B-leaf, where the left operand is its own coalesced form)
        match *a.toks.get(tok..)? {
            [LEAF, ..] => {
                let am = *a.leaves.get(leaf)?;
                if am.shape.value() < 2 {
                    return None;
                }
                out.leaf(scale(bm, am.stride)?)?;
                tok += 1;
                leaf += 1;
            }
            [3, LEAF, LEAF, ..] => {
                let pair = a.leaves.get(leaf..leaf + 2)?;
                if pair[0].shape.value() < 2 || pair[1].shape.value() < 2 || merges::<Fast>(pair[0], pair[1]).ok()? {
                    return None;
                }
                // one B-leaf: its digits always fit, only `clean` is left to check
                let mut c = Compose { lhs: pair, digits: [0; CAP], track: false, clean: true };
                c.leaf_of::<2>(out, bm.shape, bm.stride.scale_int())?;
                if !c.clean {
                    return None;
                }
                tok += 3;
                leaf += 2;
            }
            _ => return None,
        }
    }
    out.close(p, ts.len());
    Some(())
}

/// `A ∘ T` by mode; inlined as [`by_mode`] is.
#[inline(always)]
fn compose_tiler(out: &mut Out<'_>, a: LayoutRef<'_>, t: &Tiler) -> Option<()> {
    match t {
        Tiler::Layout(b) if !b.tree.is_leaf() => compose(out, a, Part::Tree(b.as_tree_ref())),
        // a leaf layout or an integer is one flat part: no walk over a tree
        Tiler::Layout(_) | Tiler::Int(_) => compose(out, a, Part::Flat(std::slice::from_ref(&leaf_tile(t)?))),
        Tiler::Underscore => out.push(a),
        Tiler::Tuple(ts) => compose_tuple(out, a, ts),
    }
}

/// [`compose_tiler`] for a tuple tiler: `A`'s modes beyond it are dropped.
fn compose_tuple(out: &mut Out<'_>, a: LayoutRef<'_>, ts: &[Tiler]) -> Option<()> {
    if ts.len() > a.rank() {
        return None;
    }
    let p = out.open()?;
    for (m, ti) in a.modes().zip(ts) {
        compose_tiler(out, m, ti)?;
    }
    out.close(p, ts.len());
    Some(())
}

/// A tile of a by-mode composition that is one mode: a leaf layout, or an
/// integer `n` (the layout `n:_1`).
#[inline(always)]
fn leaf_tile(t: &Tiler) -> Option<Mode> {
    match t {
        Tiler::Layout(b) if b.tree.is_leaf() => Some(b.leaves()[0]),
        Tiler::Int(n) => Some(Mode::new(*n, Int::ONE)),
        _ => None,
    }
}

/// `coalesce_x(A)` and `complement(B, shape(coalesce(A)))`: the left operand and
/// the rest of a divide.
#[inline(always)]
fn divide_parts(lhs: &mut Flat, rest: &mut Flat, a: LayoutRef<'_>, b: LayoutRef<'_>) -> Option<()> {
    lhs_of(lhs, a)?;
    complement_leaves::<Fast>(rest, b, Cot::Shapes(lhs)).ok()
}

/// `A ∘ (B, complement(B, shape(coalesce(A))))` as one element of `out`.
#[inline(always)]
fn divide(out: &mut Out<'_>, a: LayoutRef<'_>, b: LayoutRef<'_>, verify: bool) -> Option<()> {
    if let Some(d) = LeafDiv::of(a, b) {
        return d.write(out);
    }
    divide_modes(out, a, b, verify)
}

/// [`divide`] beyond a leaf by a leaf; out of line, so that the leaf case
/// does not set up its stack buffers.
#[inline(never)]
fn divide_modes(out: &mut Out<'_>, a: LayoutRef<'_>, b: LayoutRef<'_>, verify: bool) -> Option<()> {
    let (mut lhs, mut rest) = (Flat::new(), Flat::new());
    divide_parts(&mut lhs, &mut rest, a, b)?;
    compose_parts(out, &lhs, &[Part::Tree(b), Part::Flat(&rest)], verify)
}

/// A leaf `A = s:d` (`s >= 2`) divided by a leaf `B = t:e` (`t >= 2`, `e > 0`):
/// the steps of [`divide`] folded. `A` is its own coalesced form, so every
/// stride is scaled by `d`; `complement(B, s)` is the gap `e:_1` (dropped when
/// `e` is 1), then the rest `ceil_div(s, t·e)` at stride `t·e` (dropped when it
/// is 1, `_1:_0` when both are); the two never merge, since `e·1 < t·e`.
#[derive(Clone, Copy)]
struct LeafDiv {
    /// `A ∘ B`
    tile: Mode,
    /// `A ∘ complement(B, s)`: one mode, or a tuple of two
    rest: [Mode; 2],
    two: bool,
}

impl LeafDiv {
    #[inline(always)]
    fn of(a: LayoutRef<'_>, b: LayoutRef<'_>) -> Option<LeafDiv> {
        LeafDiv::of_modes(a.as_leaf()?, b.as_leaf()?)
    }

    #[inline(always)]
    fn of_modes(am: Mode, bm: Mode) -> Option<LeafDiv> {
        if !(am.shape.value() >= 2 && bm.shape.value() >= 2 && bm.stride.value() > 0) {
            return None;
        }
        let d = am.stride;
        let new_stride = bm.stride.scale_int().mul_opt(bm.shape)?;
        let x = am.shape.ceil_div_opt(new_stride)?;
        if x.value() < 1 {
            return None;
        }
        // (the general path's gap extent is e / _1: e itself, flag included)
        let gap = (bm.stride.value() != 1).then(|| Mode::new(bm.stride.scale_int(), Int::ONE));
        let rest = (x.value() != 1).then(|| Mode::new(x, new_stride));
        let tile = scale(bm, d)?;
        Some(match (gap, rest) {
            (Some(g), Some(r)) => LeafDiv { tile, rest: [scale(g, d)?, scale(r, d)?], two: true },
            (Some(m), None) | (None, Some(m)) => LeafDiv { tile, rest: [scale(m, d)?, UNIT], two: false },
            (None, None) => LeafDiv { tile, rest: [UNIT, UNIT], two: false },
        })
    }

    /// The rest as one element of `out`.
    #[inline(always)]
    fn write_rest(&self, out: &mut Out<'_>) -> Option<()> {
        if self.two {
            let q = out.open()?;
            out.leaf(self.rest[0])?;
            out.leaf(self.rest[1])?;
            out.close(q, 2);
            Some(())
        } else {
            out.leaf(self.rest[0])
        }
    }

    /// `(tile, rest)` as one element of `out`.
    #[inline(always)]
    fn write(&self, out: &mut Out<'_>) -> Option<()> {
        let p = out.open()?;
        out.leaf(self.tile)?;
        self.write_rest(out)?;
        out.close(p, 2);
        Some(())
    }
}

/// An operation of two layouts applied by [`by_mode`]: a trait with an
/// always-inlined method rather than a closure, so that the operands stay in
/// registers (a 32-byte [`LayoutRef`] passed to a call goes through memory, and
/// copying it right after it was stored stalls).
trait ModeOp {
    fn apply(&self, out: &mut Out<'_>, a: LayoutRef<'_>, b: LayoutRef<'_>) -> Option<()>;
}

/// `f` applied by mode along a tiler (`divide::by_mode_into`); inlined for the
/// same reason as [`ModeOp`].
#[inline(always)]
fn by_mode(out: &mut Out<'_>, a: LayoutRef<'_>, t: &Tiler, f: &impl ModeOp) -> Option<()> {
    match t {
        Tiler::Layout(b) => f.apply(out, a, b.as_tree_ref()),
        Tiler::Int(n) => f.apply(out, a, leaf_ref(&Tiler::int_mode(*n))),
        Tiler::Underscore => out.push(a),
        Tiler::Tuple(ts) => by_mode_tuple(out, a, ts, f),
    }
}

/// [`by_mode`] for a tuple tiler.
fn by_mode_tuple(out: &mut Out<'_>, a: LayoutRef<'_>, ts: &[Tiler], f: &impl ModeOp) -> Option<()> {
    if ts.len() > a.rank() {
        return None;
    }
    let p = out.open()?;
    let mut k = 0;
    for (i, m) in a.modes().enumerate() {
        match ts.get(i) {
            Some(ti) => by_mode(out, m, ti, f)?,
            None => out.push(m)?,
        }
        k += 1;
    }
    out.close(p, k);
    Some(())
}

/// [`crate::logical_divide_into`]'s fast path.
#[inline(never)]
pub(crate) fn logical_divide(out: &mut Layout, a: &Layout, t: &Tiler) -> Option<()> {
    if !on() || !tiler_ints(t) {
        return None;
    }
    let a = a.as_tree_ref();
    if let Tiler::Tuple(ts) = t {
        let mut folded = ArrayVec::new();
        if fold_flat(&mut folded, a, ts).is_some() {
            return logical_divide_folded(&mut Out::new(out), &folded, &a.leaves[ts.len()..]);
        }
    }
    by_mode(&mut Out::new(out), a, t, &LogicalDivide)
}

/// [`logical_divide`] of a flat `A` whose first modes fold: `((tile, rest),
/// .., extra modes)`.
#[inline(always)]
fn logical_divide_folded(out: &mut Out<'_>, folded: &[LeafDiv], extra: &[Mode]) -> Option<()> {
    let top = out.open()?;
    for d in folded {
        d.write(out)?;
    }
    for &m in extra {
        out.leaf(m)?;
    }
    out.close(top, folded.len() + extra.len());
    Some(())
}

/// [`divide`], verified.
struct LogicalDivide;

impl ModeOp for LogicalDivide {
    #[inline(always)]
    fn apply(&self, out: &mut Out<'_>, a: LayoutRef<'_>, b: LayoutRef<'_>) -> Option<()> {
        divide(out, a, b, true)
    }
}

/// Most modes of a by-mode tiler on the regrouped divides' fast path.
const UNZIP_MODES: usize = 4;

/// The zipped, tiled and flat divides' fast path for a by-mode tiler of
/// layouts and integers (`divide::divide_unzip_direct`): the tiles `A_i ∘ B_i`,
/// then the rests and `A`'s extra modes, written in their final order.
#[inline(never)]
pub(crate) fn divide_unzip(dst: &mut Layout, a: &Layout, t: &Tiler, how: Unzip) -> Option<()> {
    if !on() || !tiler_ints(t) {
        return None;
    }
    let Tiler::Tuple(ts) = t else { return None };
    let a = a.as_tree_ref();
    let k = ts.len();
    if k == 0 || k > UNZIP_MODES || k > a.rank() {
        return None;
    }
    let mut folded = ArrayVec::new();
    if fold_flat(&mut folded, a, ts).is_some() {
        return divide_unzip_folded(&mut Out::new(dst), &folded, &a.leaves[k..], how);
    }
    divide_unzip_modes(dst, a, ts, how)
}

/// For a tuple of leaves `A` (one tuple token and the leaves) and a by-mode
/// tiler of at most [`UNZIP_MODES`] leaves and integers, `A`'s first modes
/// divided by the tiles into `folded`, when every one folds ([`LeafDiv`]);
/// `None` otherwise. (Filled in place: returned, the array would be copied.)
#[inline(always)]
fn fold_flat(folded: &mut ArrayVec<LeafDiv, UNZIP_MODES>, a: LayoutRef<'_>, ts: &[Tiler]) -> Option<()> {
    if a.toks.len() != a.leaves.len() + 1 || ts.len() > a.leaves.len() {
        return None;
    }
    for (ti, &am) in ts.iter().zip(a.leaves) {
        let bm = match ti {
            Tiler::Layout(b) => b.as_tree_ref().as_leaf()?,
            Tiler::Int(n) => Tiler::int_mode(*n),
            _ => return None,
        };
        folded.try_push(LeafDiv::of_modes(am, bm)?).ok()?;
    }
    Some(())
}

/// [`divide_unzip`] of a flat `A` whose first modes fold: the tiles, then the
/// rests and `A`'s `extra` modes.
#[inline(always)]
fn divide_unzip_folded(out: &mut Out<'_>, folded: &[LeafDiv], extra: &[Mode], how: Unzip) -> Option<()> {
    let (k, rank) = (folded.len(), folded.len() + extra.len());
    let top = out.open()?;
    let splice = how == Unzip::Flat && k > 1;
    let p = if splice { 0 } else { out.open()? };
    for d in folded {
        out.leaf(d.tile)?;
    }
    let mut arity = if splice { k } else { 1 };
    if !splice {
        out.close(p, k);
    }
    let splice = how != Unzip::Zipped && rank > 1;
    let p = if splice { 0 } else { out.open()? };
    for d in folded {
        d.write_rest(out)?;
    }
    for &m in extra {
        out.leaf(m)?;
    }
    arity += if splice { rank } else { 1 };
    if !splice {
        out.close(p, rank);
    }
    out.close(top, arity);
    Some(())
}

/// [`divide_unzip`] when some tile does not fold.
#[inline(never)]
fn divide_unzip_modes(dst: &mut Layout, a: LayoutRef<'_>, ts: &[Tiler], how: Unzip) -> Option<()> {
    let k = ts.len();
    let mut ints = [UNIT; UNZIP_MODES];
    for (i, ti) in ts.iter().enumerate() {
        match ti {
            Tiler::Layout(_) => {}
            Tiler::Int(n) => ints[i] = Tiler::int_mode(*n),
            _ => return None,
        }
    }
    let tile = |i: usize| match &ts[i] {
        Tiler::Layout(b) => b.as_tree_ref(),
        _ => leaf_ref(&ints[i]),
    };
    // per mode: folded (a leaf by a leaf), or the left operand and the complement;
    // each tile is written as soon as it is known (read back later, a mode
    // just stored would stall the load)
    let mut folded: [Option<LeafDiv>; UNZIP_MODES] = [None; UNZIP_MODES];
    let mut lhs: [Flat; UNZIP_MODES] = Default::default();
    let mut rest: [Flat; UNZIP_MODES] = Default::default();
    let mut modes = a.modes();
    let mut out = Out::new(dst);
    let top = out.open()?;
    // the tiles: a tuple, or spliced (flat_*) when there is more than one
    let splice = how == Unzip::Flat && k > 1;
    let p = if splice { 0 } else { out.open()? };
    for i in 0..k {
        let (ai, bi) = (modes.next()?, tile(i));
        let f = LeafDiv::of(ai, bi);
        match &f {
            Some(d) => out.leaf(d.tile)?,
            None => {
                divide_parts(&mut lhs[i], &mut rest[i], ai, bi)?;
                compose_parts(&mut out, &lhs[i], &[Part::Tree(bi)], false)?;
            }
        }
        folded[i] = f;
    }
    let mut arity = if splice { k } else { 1 };
    if !splice {
        out.close(p, k);
    }
    // the rests, then the extra modes: a tuple, or spliced (tiled_*, flat_*) when more than one
    let splice = how != Unzip::Zipped && a.rank() > 1;
    let p = if splice { 0 } else { out.open()? };
    for i in 0..k {
        match &folded[i] {
            Some(d) => d.write_rest(&mut out)?,
            None => compose_parts(&mut out, &lhs[i], &[Part::Flat(&rest[i])], false)?,
        }
    }
    for m in modes {
        out.push(m)?;
    }
    arity += if splice { a.rank() } else { 1 };
    if !splice {
        out.close(p, a.rank());
    }
    out.close(top, arity);
    Some(())
}

/// `complement(A, size(A)·cosize(B))` (`product::product_comp`).
#[inline(always)]
fn product_comp(comp: &mut Flat, a: LayoutRef<'_>, b: LayoutRef<'_>) -> Option<()> {
    let mut size = Int::ONE;
    for m in a.leaves {
        size = size.mul_opt(m.shape)?;
    }
    let mut cosize = Int::ONE;
    for m in b.leaves {
        cosize = cosize.add_opt(m.shape.sub_opt(Int::ONE)?.mul_opt(m.stride.scale_int().abs_opt()?)?)?;
    }
    let n = size.mul_opt(cosize)?;
    complement_leaves::<Fast>(comp, a, Cot::Leaf(n)).ok()?;
    // the composition's left operand is coalesce_x(comp): comp itself unless its last extent is 1
    if comp.last()?.shape.value() == 1 {
        return None;
    }
    Some(())
}

/// [`crate::logical_product_into`]'s fast path.
#[inline(never)]
pub(crate) fn logical_product(out: &mut Layout, a: &Layout, t: &Tiler) -> Option<()> {
    if !on() || !ints(a.leaves()) || !tiler_ints(t) {
        return None;
    }
    by_mode(&mut Out::new(out), a.as_tree_ref(), t, &LogicalProduct)
}

/// `(A, complement(A, size(A)·cosize(B)) ∘ B)`.
struct LogicalProduct;

impl ModeOp for LogicalProduct {
    #[inline(always)]
    fn apply(&self, out: &mut Out<'_>, a: LayoutRef<'_>, b: LayoutRef<'_>) -> Option<()> {
        let mut comp = Flat::new();
        product_comp(&mut comp, a, b)?;
        let p = out.open()?;
        out.push(a)?;
        compose_parts(out, &comp, &[Part::Tree(b)], false)?;
        out.close(p, 2);
        Some(())
    }
}

/// The blocked and raked products' fast path for two tuples of the same rank
/// (`product::rank_product_into`): mode `j` is `(A_j, (A* ∘ B)_j)`, or swapped.
#[inline(never)]
pub(crate) fn rank_product(dst: &mut Layout, a: &Layout, b: &Layout, raked: bool) -> Option<()> {
    if !on() || !ints(a.leaves()) || !ints(b.leaves()) {
        return None;
    }
    let (a, b) = (a.as_tree_ref(), b.as_tree_ref());
    // (short token streams: no depth check can fail)
    if a.is_leaf() || b.is_leaf() || a.rank() != b.rank() || a.toks.len() > 16 || b.toks.len() > 16 {
        return None;
    }
    let mut comp = Flat::new();
    product_comp(&mut comp, a, b)?;
    let mut out = Out::new(dst);
    let top = out.open()?;
    for (aj, bj) in a.children().zip(b.children()) {
        let p = out.open()?;
        if !raked {
            out.push(aj)?;
        }
        compose_parts(&mut out, &comp, &[Part::Tree(bj)], false)?;
        if raked {
            out.push(aj)?;
        }
        out.close(p, 2);
    }
    out.close(top, a.rank());
    Some(())
}

#[cfg(test)]
#[path = "fast_tests.rs"]
mod tests;
