//! `complement(A, M)`: the layout that fills the gaps of `A` up to `M`.

use super::coalesce::{merges, Coalescer, Modes};
use super::out::{flat_toks, operand, Sink, CAP, UNIT};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{product, AsIntTuple, IntTuple, IntTupleRef};
use crate::layout::{cosize_of, Layout, LayoutRef, Mode};
use crate::policy::{Checked, Decline, Fast, Policy};
use smallvec::SmallVec;

/// CuTe `complement(A, cotarget)`: an ordered layout `R` whose image avoids `A`'s
/// (except at 0) so that `(A, R)` covers `[0, size(cotarget))`. `cotarget` may be
/// a shape; its size is what counts.
///
/// kute also complements layouts with run-time strides of any rank (CuTe C++
/// refuses rank > 1), giving the same values as for static strides.
///
/// Pre: every stride of `A` is an integer, and the filtered `A`, sorted by
/// stride, has each stride at least the previous extent·stride (else an
/// `Inadmissible` error, "non-injective" as in CuTe); the arithmetic fits in
/// `i64` (else an `Overflow` error).
/// Post (for admissible `A`): `R` is sorted and coalesced,
/// `size(A)·size(R) >= size(cotarget)`.
///
/// ```
/// use kute::{Layout, IntTuple};
/// let a: Layout = "4:2".parse().unwrap();
/// let m: IntTuple = "24".parse().unwrap();
/// assert_eq!(kute::complement(&a, &m).unwrap().to_string(), "(2,3):(_1,8)");
/// ```
pub fn complement(a: &Layout, cotarget: impl AsIntTuple) -> Result<Layout> {
    Layout::from_into(|out| complement_into(out, a, cotarget))
}

/// [`complement`] written into `out` (the fastest form: no move of the result).
/// On error `out` is `_1:_0`.
///
/// Pre: as [`complement`]. Post: `out` is `complement(a, cotarget)` on success,
/// `_1:_0` on error.
///
/// ```
/// use kute::{Layout, IntTuple};
/// let a: Layout = "(2,2):(4,1)".parse().unwrap();
/// let m: IntTuple = "(4,6)".parse().unwrap();
/// let mut out = Layout::default();
/// kute::complement_into(&mut out, &a, &m).unwrap();
/// assert_eq!(out.to_string(), "(2,3):(2,8)");
/// kute::complement_into(&mut out, &a, 24).unwrap(); // an integer cotarget
/// assert_eq!(out.to_string(), "(2,3):(2,8)");
/// ```
#[inline(always)]
pub fn complement_into(out: &mut Layout, a: &Layout, cotarget: impl AsIntTuple) -> Result<()> {
    if Fast::enabled()
        && !crate::sym::present(|| a.has_symbols() || cotarget.as_int_tuple().has_symbols())
        && let Some(n) = cotarget.as_int()
        && complement_fast(out, a, n).is_ok()
    {
        Fast::answered();
        return Ok(());
    }
    let cotarget = cotarget.as_int_tuple();
    super::general(|| {
        out.flat_in(|m| complement_modes(m, a.as_tree_ref(), Cot::Tree(IntTuple::as_ref(&cotarget))))
            .map_err(|e| e.in_op("complement"))
    })
}

/// [`complement_into`] under [`Fast`] for an integer cotarget `n`: a small
/// result, written into the output's inline storage with no error values; the
/// checked run answers what this declines. (Inlined into its caller, as
/// [`complement_into`] is: its common case is short, and a call of its own
/// would save and restore the registers it uses each time.)
#[inline(always)]
pub(crate) fn complement_fast(out: &mut Layout, a: &Layout, n: Int) -> Result<(), Decline> {
    let a = operand::<Fast>(a)?;
    if a.leaves.len() > CAP {
        return Err(Decline);
    }
    let dst = out.tree.leaves.cleared_inline();
    complement_leaves::<Fast>(dst, a, Cot::Leaf(n))?;
    flat_toks(out.tree.toks.cleared_inline(), dst.len()).ok_or(Decline)
}

/// CuTe `complement(A)`: the complement up to `cosize(filter(A))`.
///
/// Pre: as [`complement`]. Post: `complement(A, cosize(filter(A)))`.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(_2,_2):(_1,_6)".parse().unwrap();
/// assert_eq!(kute::complement_self(&a).unwrap().to_string(), "_3:_2");
/// ```
pub fn complement_self(a: &Layout) -> Result<Layout> {
    Layout::from_into(|out| {
        out.flat_in(|m| complement_modes(m, a.as_tree_ref(), Cot::Cosize)).map_err(|e| e.in_op("complement"))
    })
}

/// The cotarget of a complement.
#[derive(Clone, Copy)]
pub(crate) enum Cot<'a> {
    /// A shape (only its size counts, but its structure decides the rounding).
    Tree(IntTupleRef<'a>),
    /// An integer.
    Leaf(Int),
    /// The shape of flat modes: their extent if there is one, else the tuple of extents.
    Shapes(&'a [Mode]),
    /// `cosize(filter(A))`.
    Cosize,
}

/// CuTe `ceil_div(cot, d)` (an integer divisor folds across a tuple, left to
/// right), leaves only, appended to `out`.
fn ceil_div_leaves(out: &mut SmallVec<[Int; 16]>, cot: IntTupleRef<'_>, d: Int) -> Result<()> {
    match cot.as_leaf() {
        Some(x) => out.push(x.ceil_div(d)?),
        None => {
            let mut rest = d;
            for m in cot.children() {
                ceil_div_leaves(out, m, rest)?;
                rest = rest.ceil_div(product(m.leaves())?)?;
            }
        }
    }
    Ok(())
}

/// The filtered `A`'s complement up to `cot`, coalesced, into `out` (empty).
pub(crate) fn complement_modes(out: &mut Modes, a: LayoutRef<'_>, cot: Cot<'_>) -> Result<()> {
    complement_leaves::<Checked>(out, a, cot)
}

/// CuTe's `complement(A, cot)`, through `emit`, as `layout.hpp` defines it:
///
/// ```text
/// F = filter(A)                      (_1:_0 left: make_layout(coalesce(cot)))
/// sort F's modes by stride; last = 1
/// each mode s:d in that order:       gap (d / last):last, then last = d·s
/// rest = coalesce(ceil_div(cot, last)), compact (column-major) from last
/// complement = coalesce((gaps, rest))
/// ```
///
/// with a fast path for one or two modes that need no filtering.
#[inline(always)]
pub(crate) fn complement_leaves<P: Policy>(
    emit: &mut impl Sink<P>,
    a: LayoutRef<'_>,
    cot: Cot<'_>,
) -> Result<(), P::Err> {
    complement_steps::<P>(emit, a, cot).map_err(|e| P::map_error(e, |e| of_size_zero(e, a)))
}

/// A division by zero in [`complement_leaves`] comes of a mode of extent 0
/// (with a stride that is not 0): the gap after it would start at its
/// extent·stride, 0. The error names that, not the intermediate division.
#[cold]
fn of_size_zero(e: Error, a: LayoutRef<'_>) -> Error {
    if e.kind() != crate::ErrorKind::DivisionByZero {
        return e;
    }
    let zero = |x: Int| !x.is_symbolic() && x.value() == 0;
    let Some(m) = a.leaves().iter().find(|m| zero(m.shape) && !zero(m.stride.scale_int())) else { return e };
    Error::new(
        crate::ErrorKind::DivisionByZero,
        "complement",
        format!(
            "the layout {} has size 0 (its mode {}:{} has extent 0): the complement's next gap would start at that mode's extent·stride, 0, and CuTe's algorithm divides by it",
            Layout::from_ref(a),
            m.shape,
            m.stride
        ),
    )
}

/// [`complement_leaves`]' steps.
#[inline(always)]
fn complement_steps<P: Policy>(emit: &mut impl Sink<P>, a: LayoutRef<'_>, cot: Cot<'_>) -> Result<(), P::Err> {
    let leaves = a.leaves();
    // (CuTe has no complement of basis strides, their images being coordinates:
    // the fast path takes integer strides only, the filter below refuses them)
    // an integer cotarget: the rest is one mode
    let one_rest = match cot {
        Cot::Leaf(n) => Some(n),
        Cot::Shapes([m]) => Some(m.shape),
        Cot::Tree(t) => t.as_leaf(),
        Cot::Shapes(_) | Cot::Cosize => None,
    };
    // fast path: one or two modes that filter(A) keeps as they are (or
    // merges into one) give the first gap (extent 1 if there is none), the
    // last mode in stride order and the stride where its gap starts, with no
    // sorting loop
    let front = match *leaves {
        _ if matches!(cot, Cot::Cosize) => None,
        [x] if plain::<P>(x) => Some((UNIT, x, Int::ONE)),
        [x, y] if plain::<P>(x) && plain::<P>(y) => {
            if merges::<P>(x, y)? {
                Some((UNIT, Mode::new(P::mul_nonzero_fast(x.shape, y.shape)?, x.stride.scale_int()), Int::ONE))
            } else {
                let (lo, hi) = if y.stride.value() < x.stride.value() { (y, x) } else { (x, y) };
                // the first gap: lo.stride / _1, which is lo.stride (value and flag)
                let lo_d = lo.stride.scale_int();
                Some((Mode::new(lo_d, Int::ONE), hi, P::mul_nonzero_fast(lo_d, lo.shape)?))
            }
        }
        _ => None,
    };
    // fast path: that front and a one-mode rest, where nothing merges, so
    // the final coalesce has nothing to do
    if let (Some((first, m0, last)), Some(n)) = (front, one_rest) {
        return complement_unmerged(first, m0, last, n, emit, a);
    }
    let mut c = Coalescer::NEW;
    let (m0, last_stride, cot) = match front {
        Some((first, m0, last)) => {
            c.push(first, emit)?;
            (m0, last, cot)
        }
        None => {
            // the definition: F = filter(A), zero strides dropped, then coalesced
            let mut f = P::Modes::default();
            let mut fc = Coalescer::NEW;
            for &m in leaves {
                P::lift(m.stride.int_in("complement"))?;
                if !P::eq(m.stride.scale_int(), Int::ZERO, "complement")? {
                    fc.push::<P>(m, &mut f).map_err(|e| P::in_op(e, "coalesce"))?;
                }
            }
            // (f is _1:_0 when nothing is left)
            fc.finish::<P>(&mut f).map_err(|e| P::in_op(e, "coalesce"))?;
            let cot = match cot {
                Cot::Cosize => Cot::Leaf(P::lift(cosize_of(&f))?),
                c => c,
            };
            if !fc.is_open() {
                // only _1:_0 survives filtering: compact over the cotarget.
                // CuTe: make_layout(coalesce(cotarget)); by value, all extents merge.
                let n = match cot {
                    Cot::Tree(t) => P::lift(product(t.leaves()))?,
                    Cot::Leaf(n) => n,
                    Cot::Shapes(s) => {
                        let mut p = Int::ONE;
                        for m in s {
                            p = P::mul(p, m.shape)?;
                        }
                        p
                    }
                    Cot::Cosize => Int::ONE,
                };
                let d = if P::is_one(n) { Int::ZERO } else { Int::ONE };
                return emit.put(Mode::new(n, d));
            }
            let mut negative = None;
            for m in f.iter() {
                if P::is_negative(m.stride.scale_int(), "complement")? {
                    negative = Some(*m);
                    break;
                }
            }
            if let Some(m) = negative {
                // CuTe's algorithm divides by it and answers negative extents
                return Err(P::fail(|| {
                    Error::inadmissible(
                        "complement",
                        format!(
                            "the stride {} of {} is negative: a complement fills the gaps between positive strides (CuTe's algorithm answers negative extents here)",
                            m.stride,
                            Layout::from_ref(a)
                        ),
                    )
                }));
            }
            // the gaps of A in increasing stride order (a stable sort: equal
            // strides first to last, as CuTe's selection takes them), all but
            // the last one's
            sort_by_stride::<P>(&mut f)?;
            let n = f.len();
            let mut last_stride = Int::ONE;
            for &m in &f[..n - 1] {
                let min_stride = m.stride.scale_int();
                let new_shape = P::div(min_stride, last_stride)?;
                if P::eq(new_shape, Int::ZERO, "complement")? {
                    return Err(P::fail(|| non_injective(a)));
                }
                c.push(Mode::new(new_shape, last_stride), emit)?;
                last_stride = P::mul_nonzero_fast(min_stride, m.shape)?;
            }
            (f[n - 1], last_stride, cot)
        }
    };
    let (gap, new_stride) = last_gap::<P>(m0, last_stride, a)?;
    c.push(gap, emit)?;
    // the rest: ceil_div(cot, new_stride), compact from new_stride (_0 for an extent 1)
    let mut cur = new_stride;
    let ceil_div = |n: Int, d: Int| P::ceil_div(n, d).map_err(|e| P::in_op(e, "ceil_div"));
    match cot {
        Cot::Leaf(n) | Cot::Shapes(&[Mode { shape: n, .. }]) => {
            rest_mode(&mut c, emit, ceil_div(n, new_stride)?, &mut cur)?
        }
        Cot::Shapes(s) => {
            let mut r = new_stride;
            for m in s {
                rest_mode(&mut c, emit, ceil_div(m.shape, r)?, &mut cur)?;
                r = ceil_div(r, m.shape)?;
            }
        }
        Cot::Tree(t) => {
            let mut rest: SmallVec<[Int; 16]> = SmallVec::new();
            P::lift(ceil_div_leaves(&mut rest, t, new_stride).map_err(|e| e.in_op("ceil_div")))?;
            for x in rest {
                rest_mode(&mut c, emit, x, &mut cur)?;
            }
        }
        Cot::Cosize => return Err(P::decline()),
    }
    c.finish(emit)
}

/// The gap before the last mode `m0` of filter(A) in stride order, which
/// starts at `last`: `(m0.stride / last):last` (an extent 0 means `A` is not
/// injective), and the stride where the rest starts, `m0.stride·m0.shape`.
#[inline(always)]
fn last_gap<P: Policy>(m0: Mode, last: Int, a: LayoutRef<'_>) -> Result<(Mode, Int), P::Err> {
    let d = m0.stride.scale_int();
    let q = P::div(d, last)?;
    if P::eq(q, Int::ZERO, "complement")? {
        return Err(P::fail(|| non_injective(a)));
    }
    Ok((Mode::new(q, last), P::mul_nonzero_fast(d, m0.shape)?))
}

/// The end of [`complement_leaves`] for the modes of its small front and a
/// single rest: the gaps and the rest go out as they are, extents 1 dropped.
/// None of them can merge with the next: every extent of filter(A) is at least
/// 2, so each gap ends strictly below the next mode's stride (`lo.stride <
/// lo.stride·lo.shape <= last`, `q·last <= m0.stride < new_stride`).
#[inline(always)]
fn complement_unmerged<P: Policy>(
    first: Mode,
    m0: Mode,
    last: Int,
    n: Int,
    emit: &mut impl Sink<P>,
    a: LayoutRef<'_>,
) -> Result<(), P::Err> {
    let mut any = false;
    if !P::is_one(first.shape) {
        emit.put(first)?;
        any = true;
    }
    let (gap, new_stride) = last_gap::<P>(m0, last, a)?;
    if !P::is_one(gap.shape) {
        emit.put(gap)?;
        any = true;
    }
    let r = P::ceil_div(n, new_stride).map_err(|e| P::in_op(e, "ceil_div"))?;
    // (an extent below 1 is kept as it is, as coalesce keeps it)
    if !P::CHECKED && r.value() <= 0 {
        return Err(P::decline());
    }
    if !P::is_one(r) {
        emit.put(Mode::new(r, new_stride))?;
        any = true;
    }
    if !any {
        emit.put(UNIT)?;
    }
    Ok(())
}

/// A mode that filter(A) keeps: extent above 1, positive integer stride (one
/// or two such modes are complemented without the general loop; symbolic
/// ones go through it, whose steps ask the facts).
#[inline(always)]
fn plain<P: Policy>(m: Mode) -> bool {
    if P::CHECKED && (m.shape.is_symbolic() || m.stride.is_symbolic()) {
        return false;
    }
    m.shape.value() > 1 && m.stride.value() > 0 && m.stride.is_int()
}

/// One mode of a complement's rest, extent `s`: `s:cur` (then `cur·s`), or
/// `s:_0` for an extent 1.
#[inline(always)]
fn rest_mode<P: Policy>(c: &mut Coalescer, emit: &mut impl Sink<P>, s: Int, cur: &mut Int) -> Result<(), P::Err> {
    if P::is_one(s) {
        c.push(Mode::new(s, Int::ZERO), emit)
    } else {
        c.push(Mode::new(s, *cur), emit)?;
        *cur = P::mul(*cur, s).map_err(|e| P::in_op(e, "compact_col_major"))?;
        Ok(())
    }
}

/// The modes in increasing stride order, stable (equal strides first to
/// last, as CuTe's selection takes them); symbolic strides ordered by the
/// facts, or an `Undecided` error naming the comparison needed.
#[inline(always)]
fn sort_by_stride<P: Policy>(f: &mut [Mode]) -> Result<(), P::Err> {
    if !P::CHECKED || !f.iter().any(|m| m.stride.is_symbolic()) {
        f.sort_by_key(|m| m.stride.value());
        return Ok(());
    }
    for i in 1..f.len() {
        let mut j = i;
        while j > 0 && P::lt(f[j].stride.scale_int(), f[j - 1].stride.scale_int(), "complement")? {
            f.swap(j, j - 1);
            j -= 1;
        }
    }
    Ok(())
}

#[cold]
fn non_injective(a: LayoutRef<'_>) -> Error {
    let a = Layout::from_ref(a);
    Error::inadmissible(
        "complement",
        format!("{a} is not injective: after sorting by stride, a stride is smaller than the extent·stride of the mode before it"),
    )
}
