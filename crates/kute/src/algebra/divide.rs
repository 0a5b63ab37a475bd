//! The divide family: `logical_divide` and its regroupings `zipped_divide`,
//! `tiled_divide`, `flat_divide`; also `tile_unzip`.
//!
//! Each is written as CuTe's `layout.hpp` defines it:
//!
//! ```text
//! logical_divide(A, B) = composition(A, make_layout(B, complement(B, shape(coalesce(A)))))
//! logical_divide(A, T) = transform_layout(A, T, logical_divide)       (T by mode)
//! zipped_divide(A, T)  = tile_unzip(logical_divide(A, T), T)
//! tiled_divide(A, T)   = zipped_divide(A, T)(_, repeat<R1>(_))
//! flat_divide(A, T)    = zipped_divide(A, T)(repeat<R0>(_), repeat<R1>(_))
//! ```
//!
//! with the fast paths (the commonest tiles, folded) as early branches, each
//! giving the elements the definition gives. Every divide is checked like
//! [`composition`](crate::composition): its composition is proven to be the
//! true composite, or replaced by the layout that is (where CuTe's answer is
//! not), or it is an error.

use super::coalesce::{coalesce_leaves, merges};
use super::complement::{complement_leaves, Cot};
use super::composition::{compose, compose_parts, compose_parts_with, Part, Proof};
use super::out::{operand, push_built, run, Emit, Grow, Op, CAP, UNIT};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::layout::{leaf_ref, Layout, LayoutRef, Mode};
use crate::policy::{ModeBuf, Policy};
use crate::tiler::{AsTiler, Tiler};
use crate::tree::{Builder, Tree, TreeRef, LEAF, PAIR};

/// CuTe `logical_divide(A, B)` for a layout `B`:
/// `composition(A, make_layout(B, complement(B, shape(coalesce(A)))))`, a
/// rank-2 `(tile, rest)` layout.
/// A tile that does not divide `A` rounds the rest mode up (the domain grows),
/// exactly as CuTe.
///
/// Pre: those of [`complement`](crate::complement) and [`composition`](crate::composition),
/// and `rank(tiler) <= rank(A)` for a by-mode tiler (else a `Mismatch` error).
/// Post: for a layout `B`, `(A ∘ B, A ∘ complement(B, shape(coalesce(A))))`,
/// mode 0 of size `size(B)`; a by-mode tiler divides mode by mode, keeping `A`'s
/// extra modes.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "24:2".parse().unwrap();
/// let b: Layout = "4:2".parse().unwrap();
/// assert_eq!(kute::logical_divide(&a, &b).unwrap().to_string(), "(4,(2,3)):(4,(2,16))");
/// ```
pub fn logical_divide(a: &Layout, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
    Layout::from_into(|out| logical_divide_into(out, a, &t.as_tiler()))
}

/// [`logical_divide`] written into `out` (the fastest form: no move of the
/// result). On error `out` is `_1:_0`.
///
/// Pre: as [`logical_divide`]. Post: `out` is `logical_divide(a, t)` on
/// success, `_1:_0` on error.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "24:2".parse().unwrap();
/// let b: Layout = "4:2".parse().unwrap();
/// let mut out = Layout::default();
/// kute::logical_divide_into(&mut out, &a, &b.into()).unwrap();
/// assert_eq!(out.to_string(), "(4,(2,3)):(4,(2,16))");
/// ```
#[inline]
pub fn logical_divide_into(out: &mut Layout, a: &Layout, t: &Tiler) -> Result<()> {
    run(out, &LogicalDivideBy(a, t))
}

/// `logical_divide(A, T)`: CuTe's `transform_layout(A, T, logical_divide)`
/// ([`by_mode`]), [`LogicalDivide`] at each layout or integer of `T`.
struct LogicalDivideBy<'a>(&'a Layout, &'a Tiler);

impl Op for LogicalDivideBy<'_> {
    fn name(&self) -> &'static str {
        "logical_divide"
    }
    fn has_symbols(&self) -> bool {
        self.0.has_symbols() || self.1.has_symbols()
    }
    #[inline(always)]
    fn run<P: Policy, E: Emit<P>>(&self, out: &mut E) -> Result<(), P::Err> {
        let (a, t) = (operand::<P>(self.0)?, self.1);
        let Tiler::Tuple(ts) = t else {
            // the definition
            return by_mode(out, a, t, &LogicalDivide);
        };
        // fast path: a flat A by leaf tiles, each mode a leaf by a leaf
        // (LeafByLeaf), written in place: the elements by_mode writes
        let mark = out.mark();
        if logical_divide_flat_by_leaves(out, a, ts).is_some() {
            return Ok(());
        }
        out.truncate(mark);
        // the definition (by_mode's tuple arm)
        by_mode_tuple(out, a, t, ts, &LogicalDivide)
    }
}

/// CuTe `logical_divide(A, B)` of one mode `A` by a layout `B`:
/// `composition(A, make_layout(B, complement(B, shape(coalesce(A)))))`.
pub(crate) struct LogicalDivide;

impl ModeOp for LogicalDivide {
    fn name(&self) -> &'static str {
        "logical_divide"
    }
    #[inline(always)]
    fn apply<P: Policy, E: Emit<P>>(&self, out: &mut E, a: LayoutRef<'_>, b: LayoutRef<'_>) -> Result<(), P::Err> {
        // fast path: a leaf by a leaf, the definition's steps folded (LeafByLeaf)
        if let Some(d) = LeafByLeaf::of::<P>(a, b) {
            return d.write(out);
        }
        logical_divide_layout(out, a, b)
    }
}

/// `composition(A, make_layout(B, complement(B, shape(coalesce(A)))))` as one
/// element of `out`: CuTe's definition, step by step. (Out of line: the leaf
/// by leaf fast path does not set up its buffers.)
#[inline(never)]
fn logical_divide_layout<P: Policy, E: Emit<P>>(out: &mut E, a: LayoutRef<'_>, b: LayoutRef<'_>) -> Result<(), P::Err> {
    // ca = coalesce(A), rest = complement(B, shape(ca))
    let (mut ca, mut rest) = (P::Modes::default(), P::Modes::default());
    coalesce_and_complement::<P>(&mut ca, &mut rest, a, b)?;
    // make_layout(B, rest)
    let tiler = [Part::Tree(b), Part::Flat(&rest)];
    // composition(A, tiler), proven to be the composite; except where a tile
    // does not divide a coordinate layout's modes: the rest is then rounded
    // up mode by mode and its indices count in that padded space, not in A's
    // 1-D domain, so CuTe's answer (coordinates past the shape, which
    // predication relies on) is the meaning, with no composite to prove
    let verify = ca.len() == 1 || ca.iter().all(|m| m.stride.is_int()) || !P::lift(pads(b, &rest, &ca))?;
    if a.leaves().last().is_some_and(|m| !P::is_one(m.shape)) {
        // (coalesce(A) is then coalesce_x(A), composition's left operand:
        // not coalesced twice)
        compose_parts(out, Part::Tree(a), &ca, &tiler, verify)
    } else {
        compose(out, a, &tiler, verify)
    }
}

/// `coalesce(A)` into `ca` and `complement(B, shape(coalesce(A)))` into
/// `rest`: the pieces of a divide.
#[inline(always)]
fn coalesce_and_complement<P: Policy>(
    ca: &mut P::Modes,
    rest: &mut P::Modes,
    a: LayoutRef<'_>,
    b: LayoutRef<'_>,
) -> Result<(), P::Err> {
    coalesce_leaves::<P>(ca, a.leaves(), false).map_err(|e| P::in_op(e, "coalesce"))?;
    complement_leaves::<P>(rest, b, Cot::Shapes(ca)).map_err(|e| P::in_op(e, "complement"))
}

/// Whether the tile and its rest cover more than the cotarget (rounded up).
fn pads(b: LayoutRef<'_>, rest: &[Mode], ca: &[Mode]) -> Result<bool> {
    let mut covered = crate::int::Int::ONE;
    for m in b.leaves().iter().chain(rest) {
        covered = covered.mul(m.shape)?;
    }
    let mut size = crate::int::Int::ONE;
    for m in ca {
        size = size.mul(m.shape)?;
    }
    Ok(!covered.decide_eq(size, "logical_divide")?)
}

/// CuTe `zipped_divide(A, tiler) = tile_unzip(logical_divide(A, tiler), tiler)`:
/// `((tiles...), (rests..., extra modes...))`.
///
/// Pre: as [`logical_divide`] (its composition proven, or replaced by the true
/// composite where CuTe's answer is not that).
/// Post: `tile_unzip(logical_divide(A, tiler), tiler)`.
///
/// ```
/// use kute::{Layout, Tiler};
/// let a: Layout = "(_12,_32,_6):(_1,_128,_0)".parse().unwrap();
/// let t: Tiler = kute::expr::parse_tiler("(_4,_8)").unwrap();
/// assert_eq!(kute::zipped_divide(&a, &t).unwrap().to_string(), "((_4,_8),(_3,_4,_6)):((_1,_128),(_4,_1024,_0))");
/// ```
pub fn zipped_divide(a: &Layout, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
    Layout::from_into(|out| zipped_divide_into(out, a, &t.as_tiler()))
}

/// [`zipped_divide`] written into `out` (the fastest form: no move of the
/// result). On error `out` is `_1:_0`.
///
/// Pre: as [`zipped_divide`]. Post: `out` is `zipped_divide(a, t)` on success,
/// `_1:_0` on error.
///
/// ```
/// use kute::{Layout, Tiler};
/// let a: Layout = "(_12,_32,_6):(_1,_128,_0)".parse().unwrap();
/// let t: Tiler = kute::expr::parse_tiler("(_4,_8)").unwrap();
/// let mut out = Layout::default();
/// kute::zipped_divide_into(&mut out, &a, &t).unwrap();
/// assert_eq!(out.to_string(), "((_4,_8),(_3,_4,_6)):((_1,_128),(_4,_1024,_0))");
/// ```
#[inline]
pub fn zipped_divide_into(out: &mut Layout, a: &Layout, t: &Tiler) -> Result<()> {
    divide_unzip(out, a, t, Unzip::Zipped, "zipped_divide")
}

/// CuTe `tiled_divide(A, tiler) = zipped_divide(A, tiler)(_, repeat<R1>(_))`:
/// `((tiles...), rest0, rest1, ...)`.
///
/// Pre: as [`zipped_divide`]. Post: `zipped_divide(A, tiler)` with the modes of
/// its mode 1 spliced into the top level (a mode 1 of rank 1 is kept whole).
///
/// ```
/// use kute::{Layout, Tiler};
/// let a: Layout = "(_12,_32,_6):(_1,_128,_0)".parse().unwrap();
/// let t: Tiler = kute::expr::parse_tiler("(_4,_8)").unwrap();
/// assert_eq!(kute::tiled_divide(&a, &t).unwrap().to_string(), "((_4,_8),_3,_4,_6):((_1,_128),_4,_1024,_0)");
/// ```
pub fn tiled_divide(a: &Layout, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
    Layout::from_into(|out| tiled_divide_into(out, a, &t.as_tiler()))
}

/// [`tiled_divide`] written into `out` (the fastest form: no move of the
/// result). On error `out` is `_1:_0`.
///
/// Pre: as [`tiled_divide`]. Post: `out` is `tiled_divide(a, t)` on success,
/// `_1:_0` on error.
///
/// ```
/// use kute::{Layout, Tiler};
/// let a: Layout = "(_12,_32,_6):(_1,_128,_0)".parse().unwrap();
/// let t: Tiler = kute::expr::parse_tiler("(_4,_8)").unwrap();
/// let mut out = Layout::default();
/// kute::tiled_divide_into(&mut out, &a, &t).unwrap();
/// assert_eq!(out.to_string(), "((_4,_8),_3,_4,_6):((_1,_128),_4,_1024,_0)");
/// ```
#[inline]
pub fn tiled_divide_into(out: &mut Layout, a: &Layout, t: &Tiler) -> Result<()> {
    divide_unzip(out, a, t, Unzip::Tiled, "tiled_divide")
}

/// CuTe `flat_divide(A, tiler) = zipped_divide(A, tiler)(repeat<R0>(_), repeat<R1>(_))`:
/// `(tile0, tile1, ..., rest0, rest1, ...)`.
///
/// Pre: as [`zipped_divide`]. Post: `zipped_divide(A, tiler)` with the modes of
/// both its modes spliced into the top level (a mode of rank 1 is kept whole).
///
/// ```
/// use kute::{Layout, Tiler};
/// let a: Layout = "(_12,_32,_6):(_1,_128,_0)".parse().unwrap();
/// let t: Tiler = kute::expr::parse_tiler("(_4,_8)").unwrap();
/// assert_eq!(kute::flat_divide(&a, &t).unwrap().to_string(), "(_4,_8,_3,_4,_6):(_1,_128,_4,_1024,_0)");
/// ```
pub fn flat_divide(a: &Layout, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
    Layout::from_into(|out| flat_divide_into(out, a, &t.as_tiler()))
}

/// [`flat_divide`] written into `out` (the fastest form: no move of the
/// result). On error `out` is `_1:_0`.
///
/// Pre: as [`flat_divide`]. Post: `out` is `flat_divide(a, t)` on success,
/// `_1:_0` on error.
///
/// ```
/// use kute::{Layout, Tiler};
/// let a: Layout = "(_12,_32,_6):(_1,_128,_0)".parse().unwrap();
/// let t: Tiler = kute::expr::parse_tiler("(_4,_8)").unwrap();
/// let mut out = Layout::default();
/// kute::flat_divide_into(&mut out, &a, &t).unwrap();
/// assert_eq!(out.to_string(), "(_4,_8,_3,_4,_6):(_1,_128,_4,_1024,_0)");
/// ```
#[inline]
pub fn flat_divide_into(out: &mut Layout, a: &Layout, t: &Tiler) -> Result<()> {
    divide_unzip(out, a, t, Unzip::Flat, "flat_divide")
}

/// The zipped, tiled and flat divides: CuTe's
/// `tile_unzip(logical_divide(A, T), T)`, spliced as [`Unzip`] says.
struct DivideUnzip<'a>(&'a Layout, &'a Tiler, Unzip, &'static str);

impl Op for DivideUnzip<'_> {
    fn name(&self) -> &'static str {
        self.3
    }
    fn has_symbols(&self) -> bool {
        self.0.has_symbols() || self.1.has_symbols()
    }
    #[inline(always)]
    fn run<P: Policy, E: Emit<P>>(&self, out: &mut E) -> Result<(), P::Err> {
        let (a, t, how) = (operand::<P>(self.0)?, self.1, self.2);
        if P::CHECKED {
            // the definition
            return tile_unzip_by_mode(out, a, t, how, &LogicalDivide);
        }
        // (the fast run takes a by-mode tiler only, and declines the rest)
        let Tiler::Tuple(ts) = t else { return Err(P::decline()) };
        if ts.is_empty() {
            return Err(P::decline());
        }
        // fast path: a flat A by leaf tiles, each mode a leaf by a leaf
        // (LeafByLeaf), written straight into its unzipped place
        let mark = out.mark();
        if zipped_divide_flat_by_leaves(out, a, ts, how).is_some() {
            return Ok(());
        }
        out.truncate(mark);
        // fast path: each mode divided as logical_divide divides it, its tile
        // and rest written straight into their unzipped places
        zipped_divide_direct(out, a, ts, how)
    }
}

/// The shared body of the zipped, tiled and flat divides' `*_into` forms, into
/// `out` (`_1:_0` after an error).
#[inline(always)]
fn divide_unzip(out: &mut Layout, a: &Layout, t: &Tiler, how: Unzip, op: &'static str) -> Result<()> {
    run(out, &DivideUnzip(a, t, how, op))
}

/// `tile_unzip(f(A, T), T)`, spliced as `how` says, where `f` applies by mode
/// along `T` ([`by_mode`]): CuTe's definition of the regrouped divides and
/// products, the whole `f(A, T)` built and then rearranged.
pub(crate) fn tile_unzip_by_mode<P: Policy, E: Emit<P>, F: ModeOp>(
    out: &mut E,
    a: LayoutRef<'_>,
    t: &Tiler,
    how: Unzip,
    f: &F,
) -> Result<(), P::Err> {
    // f(A, T)
    let mut d = Tree::empty();
    by_mode::<P, _, _>(&mut Grow::new(&mut d), a, t, f)?;
    // tile_unzip(f(A, T), T), spliced
    push_built(out, |b| unzip_into(b, d.as_ref(), t, how).map_err(|e| e.in_op("tile_unzip")))
}

/// How [`unzip_into`] lays out the tiles and the rests.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unzip {
    /// `((tiles...), (rests..., extra...))` (`tile_unzip`, zipped_*).
    Zipped,
    /// `((tiles...), rest0, rest1, ...)` (tiled_*).
    Tiled,
    /// `(tile0, tile1, ..., rest0, rest1, ...)` (flat_*).
    Flat,
}

/// CuTe's `tile_unzip(L, tiler)`, then for `Tiled`/`Flat` the splicing of the
/// rests (and tiles) into the top level (`Z(_, repeat<R1>(_))`), into `out`. A
/// part of rank 1 is kept whole, since `repeat<1>(_)` is `_` itself.
pub(crate) fn unzip_into<L: Copy>(out: &mut Builder<'_, L>, l: TreeRef<'_, L>, t: &Tiler, how: Unzip) -> Result<()> {
    out.open();
    emit_part(out, l, t, 0, how == Unzip::Flat)?;
    emit_part(out, l, t, 1, how != Unzip::Zipped)?;
    out.close();
    Ok(())
}

/// Part `which` (0: tiles, 1: rests) of `tile_unzip(l, t)`; with `splice`, its
/// modes one by one when it has more than one.
fn emit_part<L: Copy>(
    out: &mut Builder<'_, L>,
    l: TreeRef<'_, L>,
    t: &Tiler,
    which: usize,
    splice: bool,
) -> Result<()> {
    match t {
        Tiler::Tuple(ts) => {
            if l.is_leaf() || l.rank() < ts.len() {
                return Err(Error::mismatch("tile_unzip", "the tiler has more modes than the layout"));
            }
            // the part is a tuple: the parts of the first ts.len() modes, then (for
            // the rests) the extra modes of l
            let rank = if which == 0 { ts.len() } else { l.rank() };
            let open = !(splice && rank > 1);
            if open {
                out.open();
            }
            let mut kids = l.children();
            for ti in ts {
                let c = kids.next().expect("rank checked");
                emit_part(out, c, ti, which, false)?;
            }
            if which == 1 {
                for c in kids {
                    out.push(c);
                }
            }
            if open {
                out.close();
            }
            Ok(())
        }
        _ => {
            if l.is_leaf() || l.rank() != 2 {
                return Err(Error::mismatch("tile_unzip", "a tiled mode is not rank 2 (tile, rest)"));
            }
            let part = l.children().nth(which).expect("rank 2");
            if splice && part.rank() > 1 {
                out.push_modes(part);
            } else {
                out.push(part);
            }
            Ok(())
        }
    }
}

/// CuTe `tile_unzip(L, tiler)`: at each terminal of the tiler, `L` has a rank-2
/// mode `(tile, rest)`; gather the tiles into mode 0 and the rests (then `L`'s
/// extra modes) into mode 1.
///
/// Pre: at each terminal of the tiler, the mode of `L` it meets is a rank-2
/// `(tile, rest)`, and a by-mode tiler has no more modes than the mode it meets
/// (else a `Mismatch` error). Post: `((tiles...), (rests..., extra modes...))`.
///
/// ```
/// use kute::{Layout, Tiler};
/// let l: Layout = "((_2,_3),(_4,_5),_6):((_1,_2),(_6,_24),_120)".parse().unwrap();
/// let t: Tiler = kute::expr::parse_tiler("<_2,_4>").unwrap();
/// assert_eq!(kute::tile_unzip(&l, &t).unwrap().to_string(), "((_2,_4),(_3,_5,_6)):((_1,_6),(_2,_24,_120))");
/// ```
pub fn tile_unzip(l: &Layout, t: &Tiler) -> Result<Layout> {
    crate::sym::refuse("tile_unzip", || l.has_symbols() || t.has_symbols())?;
    Ok(Layout {
        tree: Tree::try_build(|out| {
            unzip_into(out, l.as_tree_ref(), t, Unzip::Zipped).map_err(|e| e.in_op("tile_unzip"))?;
            Ok(())
        })?,
    })
}

/// CuTe `zip2_by(t, guide)` of an integer tuple: at each terminal of `guide`,
/// `t` has a rank-2 mode `(a, b)`; the result gathers the first elements into
/// mode 0 and the second ones (then `t`'s modes beyond the guide) into mode 1.
/// ([`tile_unzip`] is this on a layout.)
///
/// Pre: `t` has a rank-2 mode at each terminal of `guide`, and at least as
/// many modes as `guide` where `guide` is a tuple (else a `Mismatch` error).
/// Post: a rank-2 tuple.
///
/// ```
/// use kute::{IntTuple, Tiler};
/// let t: IntTuple = "((1,2),((3,4),(5,6)),7)".parse().unwrap();
/// let g: Tiler = "<_,<_,_>>".parse().unwrap();
/// assert_eq!(kute::zip2_by(&t, &g).unwrap().to_string(), "((1,(3,5)),(2,(4,6),7))");
/// ```
pub fn zip2_by(t: &crate::int_tuple::IntTuple, guide: &Tiler) -> Result<crate::int_tuple::IntTuple> {
    crate::sym::refuse("zip2_by", || t.has_symbols() || guide.has_symbols())?;
    Tree::try_build(|out| unzip_into(out, t.as_ref(), guide, Unzip::Zipped).map_err(|e| e.in_op("zip2_by")))
}

/// An operation of two layouts applied by [`by_mode`]. (A trait with an
/// always-inlined method rather than a closure: the operands stay in
/// registers, where a call would pass them through memory.)
pub(crate) trait ModeOp {
    /// The operation's name, for a tiler of too many modes.
    fn name(&self) -> &'static str;
    /// `a` with `b`, as one element of `out`.
    fn apply<P: Policy, E: Emit<P>>(&self, out: &mut E, a: LayoutRef<'_>, b: LayoutRef<'_>) -> Result<(), P::Err>;
}

/// `f(A, T)` as CuTe's tiler operations define it, as one element of `out`:
/// a tuple `T` applies by mode (`transform_layout(A, T, f)`, `A`'s extra modes
/// kept), `_` is `A` itself, an integer `n` is `f(A, make_layout(n))`, a
/// layout is `f(A, T)`.
#[inline(always)]
pub(crate) fn by_mode<P: Policy, E: Emit<P>, F: ModeOp>(
    out: &mut E,
    a: LayoutRef<'_>,
    t: &Tiler,
    f: &F,
) -> Result<(), P::Err> {
    match t {
        Tiler::Layout(b) => f.apply(out, a, operand::<P>(b)?),
        Tiler::Int(n) => f.apply(out, a, leaf_ref(&int_mode::<P>(*n))),
        Tiler::Underscore => out.push(a),
        Tiler::Tuple(ts) => by_mode_tuple(out, a, t, ts, f),
    }
}

/// [`by_mode`] for a tuple tiler.
fn by_mode_tuple<P: Policy, E: Emit<P>, F: ModeOp>(
    out: &mut E,
    a: LayoutRef<'_>,
    t: &Tiler,
    ts: &[Tiler],
    f: &F,
) -> Result<(), P::Err> {
    P::lift(t.check_rank(a, f.name()))?;
    let p = out.open()?;
    let mut k = 0;
    for (i, m) in a.modes().enumerate() {
        match ts.get(i) {
            Some(ti) => by_mode(out, m, ti, f)?,
            None => out.push(m)?,
        }
        k += 1;
    }
    out.close(p, k)?;
    Ok(())
}

/// A tile that is one mode: a leaf layout, or an integer.
#[inline(always)]
fn leaf_tiler<P: Policy>(t: &Tiler) -> Option<Mode> {
    match t {
        Tiler::Layout(b) => b.tree.as_leaf(),
        Tiler::Int(n) => Some(int_mode::<P>(*n)),
        _ => None,
    }
}

/// [`Tiler::int_mode`]: under [`Fast`](crate::policy::Fast), which is never
/// given a symbol, without the test for one.
#[inline(always)]
fn int_mode<P: Policy>(n: Int) -> Mode {
    if P::CHECKED {
        Tiler::int_mode(n)
    } else {
        Tiler::int_mode_concrete(n)
    }
}

// The fast paths: the commonest divides with the definition's steps
// folded, each writing the elements the definition writes.

/// A leaf `A = s:d` (`s >= 2`) divided by a leaf `B = t:e` (`t >= 2`, `e > 0`
/// an integer): the steps of [`logical_divide_layout`] folded. `A` is its own coalesced form,
/// so every stride is scaled by `d`; `complement(B, s)` is the gap `e:_1`
/// (dropped when `e` is 1), then the rest `ceil_div(s, t·e)` at stride `t·e`
/// (dropped when it is 1, `_1:_0` when both are); the two never merge, since
/// `e·1 < t·e`. Always exact: no proof needed.
#[derive(Clone, Copy)]
struct LeafByLeaf {
    /// `A ∘ B`
    tile: Mode,
    /// `A ∘ complement(B, s)`
    rest: LeafRest,
}

/// The rest of a [`LeafByLeaf`]: one mode, or a tuple of two.
#[derive(Clone, Copy)]
struct LeafRest {
    modes: [Mode; 2],
    two: bool,
}

impl LeafRest {
    /// The rest as one element of `out`.
    #[inline(always)]
    fn write<P: Policy, E: Emit<P>>(&self, out: &mut E) -> Result<(), P::Err> {
        if self.two {
            let q = out.open()?;
            out.leaf(self.modes[0])?;
            out.leaf(self.modes[1])?;
            out.close(q, 2)?;
            Ok(())
        } else {
            out.leaf(self.modes[0])
        }
    }
}

impl LeafByLeaf {
    #[inline(always)]
    fn of<P: Policy>(a: LayoutRef<'_>, b: LayoutRef<'_>) -> Option<LeafByLeaf> {
        LeafByLeaf::of_modes::<P>(a.as_leaf()?, b.as_leaf()?)
    }

    /// `None` where it does not apply or a step overflows (the definition's
    /// steps then give the answer or the error).
    #[inline(always)]
    fn of_modes<P: Policy>(am: Mode, bm: Mode) -> Option<LeafByLeaf> {
        // (symbols take the definition's steps, which ask the facts)
        if P::CHECKED
            && (am.shape.is_symbolic() || am.stride.is_symbolic() || bm.shape.is_symbolic() || bm.stride.is_symbolic())
        {
            return None;
        }
        if !(am.shape.value() >= 2 && bm.shape.value() >= 2 && bm.stride.value() > 0 && bm.stride.is_int()) {
            return None;
        }
        let d = am.stride;
        let new_stride = bm.stride.scale_int().mul_opt_nonzero(bm.shape)?;
        let x = am.shape.ceil_div_opt(new_stride)?;
        if x.value() < 1 {
            return None;
        }
        let scale = |m: Mode| -> Option<Mode> {
            if m.stride.value() == 0 {
                Some(m)
            } else {
                Some(Mode::with_stride(m.shape, d.scale_opt(m.stride.scale_int())?))
            }
        };
        // (the definition's gap extent is e / _1: e itself, flag included)
        let gap = (bm.stride.value() != 1).then(|| Mode::new(bm.stride.scale_int(), Int::ONE));
        let rest = (x.value() != 1).then(|| Mode::new(x, new_stride));
        let tile = scale(bm)?;
        let rest = match (gap, rest) {
            (Some(g), Some(r)) => LeafRest { modes: [scale(g)?, scale(r)?], two: true },
            (Some(m), None) | (None, Some(m)) => LeafRest { modes: [scale(m)?, UNIT], two: false },
            (None, None) => LeafRest { modes: [UNIT, UNIT], two: false },
        };
        Some(LeafByLeaf { tile, rest })
    }

    /// `(tile, rest)` as one element of `out`.
    #[inline(always)]
    fn write<P: Policy, E: Emit<P>>(&self, out: &mut E) -> Result<(), P::Err> {
        // (whole: `(tile, (gap, rest))` or `(tile, rest)`, one capacity check
        // for its leaves and one for its tokens, or one for both; the leaves
        // first: measured fewer instructions)
        let [m0, m1] = self.rest.modes;
        if self.rest.two {
            out.block(&[], &[self.tile, m0, m1])?;
            out.block(&[PAIR, LEAF, PAIR, LEAF, LEAF], &[])
        } else {
            out.block(&[PAIR, LEAF, LEAF], &[self.tile, m0])
        }
    }
}

/// [`logical_divide`] of a flat `A` by leaf tiles, every mode a leaf by a
/// leaf ([`LeafByLeaf`]): `((tile, rest), .., extra modes)`, the elements
/// [`by_mode`] writes, each mode written as soon as it is divided (not kept
/// and copied). `None` where a mode is not a leaf by a leaf or a write fails,
/// part of the result written: the caller truncates it and takes the
/// definition, which writes the same elements (and fails as these writes did).
#[inline(always)]
fn logical_divide_flat_by_leaves<P: Policy, E: Emit<P>>(out: &mut E, a: LayoutRef<'_>, ts: &[Tiler]) -> Option<()> {
    if a.toks.len() != a.leaves.len() + 1 || ts.len() > a.leaves.len() {
        return None;
    }
    let top = out.open().ok()?;
    for (ti, &am) in ts.iter().zip(a.leaves) {
        LeafByLeaf::of_modes::<P>(am, leaf_tiler::<P>(ti)?)?.write(out).ok()?;
    }
    for &m in &a.leaves[ts.len()..] {
        out.leaf(m).ok()?;
    }
    out.close(top, a.leaves.len()).ok()
}

/// [`DivideUnzip`] of a flat `A` by leaf tiles, every mode a leaf by a leaf
/// ([`LeafByLeaf`]): the tiles, then the rests and `A`'s extra modes, the
/// elements `tile_unzip` moves there. Each tile is one leaf, so its place is
/// known ahead: it is reserved, and filled as soon as its mode is divided,
/// whose rest is then written (nothing kept and copied). `None` where a mode
/// is not a leaf by a leaf or a write fails, part of the result written: the
/// caller truncates it and takes the next path, which writes the same
/// elements (and fails as these writes did).
#[inline(always)]
fn zipped_divide_flat_by_leaves<P: Policy, E: Emit<P>>(
    out: &mut E,
    a: LayoutRef<'_>,
    ts: &[Tiler],
    how: Unzip,
) -> Option<()> {
    let (k, rank) = (ts.len(), a.leaves.len());
    if a.toks.len() != rank + 1 || k > rank {
        return None;
    }
    let top = out.open().ok()?;
    let splice = how == Unzip::Flat && k > 1;
    let p = if splice { 0 } else { out.open().ok()? };
    let first = out.mark().1;
    match k {
        1 => out.block(&[LEAF], &[UNIT]),
        2 => out.block(&[LEAF; 2], &[UNIT; 2]),
        3 => out.block(&[LEAF; 3], &[UNIT; 3]),
        _ => (0..k).try_for_each(|_| out.leaf(UNIT)),
    }
    .ok()?;
    let mut arity = if splice { k } else { 1 };
    if !splice {
        out.close(p, k).ok()?;
    }
    let splice = how != Unzip::Zipped && rank > 1;
    let p = if splice { 0 } else { out.open().ok()? };
    for (i, (ti, &am)) in ts.iter().zip(a.leaves).enumerate() {
        let d = LeafByLeaf::of_modes::<P>(am, leaf_tiler::<P>(ti)?)?;
        out.set_mode(first + i, d.tile);
        d.rest.write(out).ok()?;
    }
    for &m in &a.leaves[k..] {
        out.leaf(m).ok()?;
    }
    arity += if splice { rank } else { 1 };
    if !splice {
        out.close(p, rank).ok()?;
    }
    out.close(top, arity).ok()
}

/// A mode `A` of `n >= 2` leaves `s_i:d_i` (extents at least 2, integer
/// strides, no two neighbours that merge: its own coalesced form, size at
/// most `i64::MAX / 2`) divided by a tile `t:e` (`e` the integer 1, `t >= 2`)
/// that splits `A`'s extents: `t = s_0·…·s_{k-1}·u` with `u` dividing `s_k`,
/// `u < s_k`, `k < n`. The tile is `A`'s domain prefix of size `t`,
/// `(s_0,…,s_{k-1},u):(d_0,…,d_{k-1},d_k)` (`u` left out when 1), and the
/// rest the remainder, `(s_k/u,s_{k+1},…):(d_k·u,d_{k+1},…)`: the elements
/// the definition's steps ([`logical_divide_layout`]) give (coalesce,
/// complement, the two compositions, whose digit test always holds here: mode `k` gets the digits `u-1` and
/// `s_k-u`, every other mode one full digit), static flags included, without
/// their buffers and loops. Each flag is the one those steps compute: `G_i`
/// below is static when `t`, `e` and `s_0..=s_i` are.
#[derive(Clone, Copy)]
struct PrefixTile<'a> {
    /// `A`'s leaves
    a: &'a [Mode],
    /// the tile's extent and stride (the stride's value is 1)
    t: Int,
    e: Int,
    /// where the tile ends: all of modes `..k`, `u` of mode `k`
    k: usize,
    u: i64,
}

impl<'a> PrefixTile<'a> {
    /// `None` where it does not apply (then [`logical_divide_layout`]'s steps answer, or
    /// fail as they do).
    #[inline(always)]
    fn of<P: Policy>(a: &'a [Mode], bm: Mode) -> Option<PrefixTile<'a>> {
        let n = a.len();
        if !(2..=CAP).contains(&n) || !bm.stride.is_int() || bm.stride.value() != 1 || bm.shape.value() < 2 {
            return None;
        }
        let mut size: i64 = 1;
        for (i, &m) in a.iter().enumerate() {
            if m.shape.value() < 2 || !m.stride.is_int() || (i > 0 && merges::<P>(a[i - 1], m).ok()?) {
                return None;
            }
            size = size.checked_mul(m.shape.value())?;
        }
        // (every step's sums and products are then below i64::MAX: the
        // complement's strides reach size(A), its ceil_divs add an extent to
        // at most t)
        if size > i64::MAX / 2 {
            return None;
        }
        let (t, e) = (bm.shape, bm.stride.scale_int());
        let mut rest = Int::new_dynamic(t.value());
        for (i, m) in a.iter().enumerate() {
            let s = m.shape;
            if rest.value() >= s.value() && i + 1 < n {
                if rest.rem_opt(s)?.value() != 0 {
                    return None;
                }
                rest = rest.div_opt(s)?;
                if rest.value() == 1 {
                    return Some(PrefixTile { a, t, e, k: i + 1, u: 1 });
                }
            } else {
                if rest.value() >= s.value() || s.rem_opt(rest)?.value() != 0 {
                    return None;
                }
                return Some(PrefixTile { a, t, e, k: i, u: rest.value() });
            }
        }
        None
    }

    /// The tile as one element of `out`: `(s_i:d_i·1)` for `i < k` (extent
    /// flag `G_i`, the `1`'s flag `e`'s and `s_0..s_{i-1}`'s), then
    /// `u:d_k·1` if `u > 1` (flag `G_k`, or `G_{k-1}` when mode `k` is the
    /// last, whose extent is unbounded in a composition).
    #[inline(always)]
    fn write_tile<P: Policy, E: Emit<P>>(&self, out: &mut E) -> Result<(), P::Err> {
        let (a, k) = (self.a, self.k);
        let count = k + usize::from(self.u > 1);
        let p = if count == 1 { 0 } else { out.open()? };
        let mut g = self.t.with(self.e, 0);
        let mut rd = self.e;
        for m in &a[..k] {
            g = g.with(m.shape, 0);
            out.leaf(Mode::with_stride(Int::new(m.shape.value(), g.is_static()), P::scale(m.stride, rd)?))?;
            rd = rd.with(m.shape, 1);
        }
        if self.u > 1 {
            let m = a[k];
            if k + 1 < a.len() {
                g = g.with(m.shape, 0);
            }
            out.leaf(Mode::with_stride(Int::new(self.u, g.is_static()), P::scale(m.stride, rd)?))?;
        }
        if count != 1 {
            out.close(p, count)?;
        }
        Ok(())
    }

    /// The rest as one element of `out`: `s_k/u:d_k·u`, then `s_i:d_i·1`
    /// for `i > k` (every extent flag `G_{n-1}`; the `u`'s flag `G_{k-1}`,
    /// each `1`'s `G_{i-1}`).
    #[inline(always)]
    fn write_rest<P: Policy, E: Emit<P>>(&self, out: &mut E) -> Result<(), P::Err> {
        let (a, k) = (self.a, self.k);
        let count = a.len() - k;
        let mut all = self.t.with(self.e, 0);
        let mut g = all;
        for (i, m) in a.iter().enumerate() {
            all = all.with(m.shape, 0);
            if i < k {
                g = g.with(m.shape, 0);
            }
        }
        let all = all.is_static();
        let p = if count == 1 { 0 } else { out.open()? };
        let m = a[k];
        let q = P::div(m.shape, Int::new(self.u, true))?;
        out.leaf(Mode::with_stride(Int::new(q.value(), all), P::scale(m.stride, Int::new(self.u, g.is_static()))?))?;
        let mut prev = m.shape;
        for m in &a[k + 1..] {
            g = g.with(prev, 0);
            let rd = Int::new(1, g.is_static());
            out.leaf(Mode::with_stride(Int::new(m.shape.value(), all), P::scale(m.stride, rd)?))?;
            prev = m.shape;
        }
        if count != 1 {
            out.close(p, count)?;
        }
        Ok(())
    }
}

/// Most modes of a by-mode tiler on the regrouped divides' direct path.
const UNZIP_MODES: usize = 4;

/// How [`zipped_divide_direct`] divided one mode: what its rest needs.
#[derive(Clone, Copy)]
enum Piece<'a> {
    /// a leaf by a leaf ([`LeafByLeaf`]): the rest
    LeafByLeaf(LeafRest),
    /// a unit-stride tile that is a prefix of the mode's domain ([`PrefixTile`])
    PrefixTile(PrefixTile<'a>),
    /// the definition's steps: the left operand, complement and proof in
    /// [`DefinitionBuffers`]
    Definition,
}

/// The buffers of [`zipped_divide_direct`]'s definition steps, per mode.
struct DefinitionBuffers<P: Policy> {
    lhs: [P::Modes; UNZIP_MODES],
    rest: [P::Modes; UNZIP_MODES],
    /// the digit proof of a mode's tile and rest together (one composite)
    proofs: [Option<Proof>; UNZIP_MODES],
}

impl<P: Policy> Default for DefinitionBuffers<P> {
    fn default() -> Self {
        DefinitionBuffers { lhs: Default::default(), rest: Default::default(), proofs: [None, None, None, None] }
    }
}

/// [`DivideUnzip`] by a by-mode tiler of 1 to [`UNZIP_MODES`] layouts or
/// integers, written straight into its final order: the tiles `A_i ∘ B_i`,
/// then the rests `A_i ∘ complement(B_i, shape(coalesce(A_i)))` and `A`'s
/// extra modes: the elements `tile_unzip` moves there. Each piece is computed
/// as [`logical_divide_layout`] computes it (the digit proof of a mode's tile
/// and rest is gathered across both), or by a fast path of its own
/// ([`LeafByLeaf`], [`PrefixTile`]), without building the `(tile, rest)`
/// divide and walking it again.
#[inline(never)]
fn zipped_divide_direct<P: Policy, E: Emit<P>>(
    out: &mut E,
    a: LayoutRef<'_>,
    ts: &[Tiler],
    how: Unzip,
) -> Result<(), P::Err> {
    let k = ts.len();
    if k == 0 || k > UNZIP_MODES || k > a.rank() {
        return Err(P::decline());
    }
    let mut ints = [UNIT; UNZIP_MODES];
    for (i, ti) in ts.iter().enumerate() {
        match ti {
            Tiler::Layout(_) => {}
            Tiler::Int(n) => ints[i] = int_mode::<P>(*n),
            _ => return Err(P::decline()),
        }
    }
    let tile = |i: usize| match &ts[i] {
        Tiler::Layout(b) => b.as_tree_ref(),
        _ => leaf_ref(&ints[i]),
    };
    // per mode: how it was divided, its rest written after all the tiles;
    // each tile is written as soon as it is known (measured faster than
    // keeping it)
    let mut pieces: [Piece<'_>; UNZIP_MODES] = [Piece::Definition; UNZIP_MODES];
    // the definition steps' buffers, set up only when a mode takes them
    let mut general: Option<DefinitionBuffers<P>> = None;
    let mut modes = a.modes();
    let top = out.open()?;
    // the tiles: a tuple, or spliced (flat_*) when there is more than one
    let splice = how == Unzip::Flat && k > 1;
    let p = if splice { 0 } else { out.open()? };
    for (i, piece) in pieces[..k].iter_mut().enumerate() {
        let Some(ai) = modes.next() else { return Err(P::decline()) };
        let bi = tile(i);
        if let Some(d) = LeafByLeaf::of::<P>(ai, bi) {
            out.leaf(d.tile)?;
            *piece = Piece::LeafByLeaf(d.rest);
        } else if let Some(s) = bi.as_leaf().and_then(|bm| PrefixTile::of::<P>(ai.leaves(), bm)) {
            s.write_tile(out)?;
            *piece = Piece::PrefixTile(s);
        } else {
            let g = general.get_or_insert_with(Default::default);
            let (lhs, rest) = (&mut g.lhs[i], &mut g.rest[i]);
            coalesce_and_complement::<P>(lhs, rest, ai, bi)?;
            if ai.leaves().last().is_some_and(|m| m.shape.value() == 1) {
                // coalesce_x(A_i): the composition's left operand
                lhs.clear();
                coalesce_leaves::<P>(lhs, ai.leaves(), true)?;
            }
            let proof = g.proofs[i].insert(Proof::new(lhs.len()));
            compose_parts_with(out, lhs, &[Part::Tree(bi)], proof)?;
        }
    }
    let mut arity = if splice { k } else { 1 };
    if !splice {
        out.close(p, k)?;
    }
    // the rests, then the extra modes: a tuple, or spliced (tiled_*, flat_*) when more than one
    let splice = how != Unzip::Zipped && a.rank() > 1;
    let p = if splice { 0 } else { out.open()? };
    for (i, piece) in pieces[..k].iter().enumerate() {
        match piece {
            Piece::LeafByLeaf(r) => r.write(out)?,
            Piece::PrefixTile(s) => s.write_rest(out)?,
            Piece::Definition => {
                let Some(g) = general.as_mut() else { return Err(P::decline()) };
                let Some(proof) = g.proofs[i].as_mut() else { return Err(P::decline()) };
                compose_parts_with(out, &g.lhs[i], &[Part::Flat(&g.rest[i])], proof)?;
                if !proof.holds(&g.lhs[i]) {
                    return Err(P::decline());
                }
            }
        }
    }
    for m in modes {
        out.push(m)?;
    }
    arity += if splice { a.rank() } else { 1 };
    if !splice {
        out.close(p, a.rank())?;
    }
    out.close(top, arity)?;
    Ok(())
}

/// CuTe `evenly_divides(shape, tiler)`: whether the tiler tiles `shape` with
/// no partial tile. A by-mode tiler answers mode by mode (and is false when it
/// has more modes than `shape`); a layout or an integer `b` answers
/// `size(shape) == size(b) · size(ceil_div(shape, b))`.
///
/// Pre: the sizes fit in `i64` (else an `Overflow` error), and a layout tiler
/// has integer strides (else an `Inadmissible` error).
/// Post: a [`Bool`](crate::Bool), static when every integer involved is.
///
/// ```
/// use kute::{IntTuple, Tiler};
/// let s: IntTuple = "(_8,_6)".parse().unwrap();
/// assert!(kute::evenly_divides(&s, &"(_4,_3)".parse::<Tiler>().unwrap()).unwrap().value);
/// assert!(!kute::evenly_divides(&s, &"(_3,_3)".parse::<Tiler>().unwrap()).unwrap().value);
/// ```
pub fn evenly_divides(shape: &crate::int_tuple::IntTuple, t: &Tiler) -> Result<crate::int::Bool> {
    crate::sym::refuse("evenly_divides", || shape.has_symbols() || t.has_symbols())?;
    use crate::int::Bool;
    use crate::int_tuple::IntTuple;
    fn go(a: crate::int_tuple::IntTupleRef<'_>, t: &Tiler) -> Result<Bool> {
        let static_a = a.leaves().iter().all(|x| x.is_static());
        match t {
            Tiler::Tuple(ts) => {
                let rank = if a.is_leaf() { 1 } else { a.rank() };
                if ts.len() > rank {
                    return Ok(Bool { value: false, is_static: true });
                }
                let mut out = Bool { value: true, is_static: true };
                for (i, ti) in ts.iter().enumerate() {
                    let ai = if a.is_leaf() { a } else { a.mode(i).unwrap_or(a) };
                    let r = go(ai, ti)?;
                    out = Bool { value: out.value && r.value, is_static: out.is_static && r.is_static };
                }
                Ok(out)
            }
            Tiler::Underscore => Ok(Bool { value: true, is_static: true }),
            Tiler::Int(n) => {
                let size = crate::int_tuple::product(a.leaves())?;
                let rest = crate::int_tuple::ceil_div(a, IntTuple::leaf(*n).as_ref())?;
                let covered = n.mul(crate::int_tuple::product(rest.leaves())?)?;
                Ok(Bool { value: size.value() == covered.value(), is_static: static_a && n.is_static() })
            }
            Tiler::Layout(b) => {
                let size = crate::int_tuple::product(a.leaves())?;
                let rest = crate::algebra::complement(b, a.to_tree())?.shape();
                let covered = b.size()?.mul(crate::int_tuple::product(rest.leaves())?)?;
                let static_b = b.leaves().iter().all(|m| m.shape.is_static() && m.stride.is_static());
                Ok(Bool { value: size.value() == covered.value(), is_static: static_a && static_b })
            }
        }
    }
    go(shape.as_ref(), t).map_err(|e| e.in_op("evenly_divides"))
}

/// CuTe `domain_distribute(shape, n)`: a layout of `n` elements (or as many as
/// the extents allow) spread over `shape`'s flat modes first to last — each
/// mode takes `gcd(extent, what is left of n)` — with `shape`'s compact
/// column-major strides, coalesced. Its size divides `n`, and `shape`
/// divided by it has no partial tile (CuTe's example: `(15,14)` by 6 gives
/// `(3,2):(1,15)`).
///
/// Pre: the arithmetic fits in `i64` (else an `Overflow` error).
/// Post: a coalesced layout whose size divides `n`.
///
/// ```
/// use kute::{IntTuple, Int};
/// let s: IntTuple = "(_15,_14)".parse().unwrap();
/// assert_eq!(kute::domain_distribute(&s, Int::new_static(6)).unwrap().to_string(), "(_3,_2):(_1,_15)");
/// ```
pub fn domain_distribute(shape: &crate::int_tuple::IntTuple, n: crate::int::Int) -> Result<Layout> {
    crate::sym::refuse("domain_distribute", || shape.has_symbols() || n.is_symbolic())?;
    let go = || -> Result<Layout> {
        let flat: Vec<crate::int::Int> = shape.leaves().to_vec();
        let mut rest = n;
        let mut taken = Vec::with_capacity(flat.len());
        for &a in &flat {
            let g = a.gcd(rest)?;
            taken.push(g);
            rest = rest.div(g)?;
        }
        let flat_shape = crate::int_tuple::IntTuple::tuple_of_leaves(flat);
        let stride = crate::int_tuple::compact_col_major(flat_shape.as_ref(), crate::int::Int::ONE)?;
        let l = Layout::new(crate::int_tuple::IntTuple::tuple_of_leaves(taken), &stride)?;
        super::coalesce(&l)
    };
    go().map_err(|e| e.in_op("domain_distribute"))
}
