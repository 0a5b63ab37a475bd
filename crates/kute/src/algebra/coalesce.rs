//! `coalesce`, `filter_zeros` and `filter`.

use super::out::{flat_toks, Sink, CAP, UNIT};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::{Layout, Mode};
use crate::policy::{Checked, Decline, Fast, Policy};
use smallvec::SmallVec;

pub(crate) type Modes = crate::tree::Leaves<Mode>;

/// Coalescing, left to right: modes go in one by one, finished modes go out
/// through a [`Sink`].
///
/// CuTe's `bw_coalesce` goes right to left; the result is the same: the runs
/// are the same (two neighbours, size-1 modes skipped, merge when `s·d` of the
/// left one is the right one's stride, in the same basis direction), a run's
/// stride is its first mode's either way, and its extent is a product of
/// extents whose value and static flag do not depend on the order (nor, for
/// extents other than 0, whether it overflows). The `s·d` products computed
/// are CuTe's.
#[derive(Clone, Copy)]
pub(crate) struct Coalescer {
    /// the run being merged
    run: Mode,
    /// its last mode as given
    last: Mode,
    /// whether a run has started
    open: bool,
}

impl Coalescer {
    pub(crate) const NEW: Coalescer = Coalescer { run: UNIT, last: UNIT, open: false };

    /// Whether some mode of extent other than 1 went in.
    #[inline(always)]
    pub(crate) fn is_open(&self) -> bool {
        self.open
    }

    /// The next mode. (Under [`Fast`], extents below 1 decline: with a zero
    /// extent the order of the products decides whether one overflows.)
    #[inline(always)]
    pub(crate) fn push<P: Policy>(&mut self, m: Mode, emit: &mut impl Sink<P>) -> Result<(), P::Err> {
        if P::is_one(m.shape) {
            return Ok(());
        }
        if !P::CHECKED && m.shape.value() < 1 {
            return Err(P::decline());
        }
        if self.open {
            if merges::<P>(self.last, m)? {
                // (under Fast both extents are at least 2: see above)
                self.run.shape = P::mul_nonzero_fast(self.run.shape, m.shape)?;
                self.last = m;
                return Ok(());
            }
            emit.put(self.run)?;
        }
        *self = Coalescer { run: m, last: m, open: true };
        Ok(())
    }

    /// The last run, or `_1:_0` if every extent was 1.
    #[inline(always)]
    pub(crate) fn finish<P: Policy>(self, emit: &mut impl Sink<P>) -> Result<(), P::Err> {
        emit.put(if self.open { self.run } else { UNIT })
    }
}

/// Whether `y` continues `x` in a coalesce: `x.shape·x.stride == y.stride`
/// (value and basis direction).
#[inline(always)]
pub(crate) fn merges<P: Policy>(x: Mode, y: Mode) -> Result<bool, P::Err> {
    if P::CHECKED && (x.shape.is_symbolic() || x.stride.is_symbolic() || y.stride.is_symbolic()) {
        if !x.stride.same_direction(y.stride) {
            return Ok(false);
        }
        let p = P::lift(x.stride.scale_int().mul(x.shape))?;
        return P::eq(p, y.stride.scale_int(), "coalesce");
    }
    // (the product's value alone: no static flag is needed to compare)
    match x.shape.value().checked_mul(x.stride.value()) {
        Some(v) => Ok(v == y.stride.value() && x.stride.same_direction(y.stride)),
        None => Err(P::failure_of(|| x.stride.scale(x.shape))),
    }
}

/// CuTe's `coalesce` of flat modes into `dst`: `bw_coalesce` of the flat
/// layout, size-1 modes dropped and neighbours merged where `s·d` of one is
/// the next one's stride (left to right here: see [`Coalescer`]).
///
/// `fake_last`: a last extent 1 counts as `_2` (CuTe's `coalesce_x`, the left
/// operand of a composition: its last mode's stride survives and its extent,
/// unbounded there, does not matter).
#[inline(always)]
pub(crate) fn coalesce_leaves<P: Policy>(
    dst: &mut impl Sink<P>,
    leaves: &[Mode],
    fake_last: bool,
) -> Result<(), P::Err> {
    let mut c = Coalescer::NEW;
    // coalesce_x: a last extent 1 counts as _2, its stride kept
    if fake_last
        && let Some((&last, init)) = leaves.split_last()
        && P::is_one(last.shape)
    {
        for &m in init {
            c.push(m, dst)?;
        }
        c.push(Mode::with_stride(Int::new_static(2), last.stride), dst)?;
        return c.finish(dst);
    }
    // fast path: up to three leaves unrolled (no loop control between the
    // merges), the same pushes as the loop
    match *leaves {
        [x] => c.push(x, dst)?,
        [x, y] => {
            c.push(x, dst)?;
            c.push(y, dst)?;
        }
        [x, y, z] => {
            c.push(x, dst)?;
            c.push(y, dst)?;
            c.push(z, dst)?;
        }
        _ => {
            for &m in leaves {
                c.push(m, dst)?;
            }
        }
    }
    c.finish(dst)
}

/// [`coalesce_leaves`], checked, into a new buffer.
pub(crate) fn coalesce_flat(leaves: &[Mode], fake_last: bool) -> Result<Modes> {
    let mut out = Modes::new();
    coalesce_modes(&mut out, leaves, fake_last)?;
    Ok(out)
}

/// [`coalesce_leaves`], checked, into `out` (which must be empty).
#[inline]
pub(crate) fn coalesce_modes(out: &mut Modes, leaves: &[Mode], fake_last: bool) -> Result<()> {
    debug_assert!(out.is_empty());
    coalesce_leaves::<Checked>(out, leaves, fake_last)
}

/// CuTe `coalesce(L)`: the flat layout of fewest modes with the same function on
/// `[0, size(L))` and the same size. Size-1 modes are dropped and adjacent modes
/// with `d[i+1] == s[i]·d[i]` merge; a single mode gives an integral layout.
///
/// Pre: the products `s·d` compared and the merged extents fit in `i64` (else
/// an `Overflow` error).
/// Post: `size(R) == size(L)`, `depth(R) <= 1`, `R(i) == L(i)` for `i < size(L)`.
///
/// ```
/// use kute::Layout;
/// let l: Layout = "(_2,(_1,_6)):(_1,(_6,_2))".parse().unwrap();
/// assert_eq!(kute::coalesce(&l).unwrap().to_string(), "_12:_1");
/// ```
pub fn coalesce(l: &Layout) -> Result<Layout> {
    Layout::from_into(|out| coalesce_into(out, l))
}

/// [`coalesce`] written into `out` (whatever it held): the fastest form, since
/// the result is built in place instead of being moved (see
/// [`doc::performance`](crate::doc::performance)). On error `out` is `_1:_0`.
///
/// Pre: as [`coalesce`]. Post: `out` is `coalesce(l)` on success, `_1:_0` on error.
///
/// ```
/// use kute::Layout;
/// let l: Layout = "(_2,(_1,_6)):(_1,(_6,_2))".parse().unwrap();
/// let mut out = Layout::default();
/// kute::coalesce_into(&mut out, &l).unwrap();
/// assert_eq!(out.to_string(), "_12:_1");
/// ```
#[inline(always)]
pub fn coalesce_into(out: &mut Layout, l: &Layout) -> Result<()> {
    let leaves = l.leaves();
    if Fast::enabled() && !crate::sym::present(|| l.has_symbols()) && coalesce_fast(out, l).is_ok() {
        Fast::answered();
        return Ok(());
    }
    super::general(|| out.flat_in(|m| coalesce_modes(m, leaves, false)).map_err(|e| e.in_op("coalesce")))
}

/// [`coalesce_into`] under [`Fast`]: a small layout is coalesced into the
/// output's inline storage, with no error values; the checked run answers
/// what this declines.
#[inline(always)]
pub(crate) fn coalesce_fast(out: &mut Layout, l: &Layout) -> Result<(), Decline> {
    let leaves = l.leaves();
    if leaves.len() > CAP {
        return Err(Decline);
    }
    let dst = out.tree.leaves.cleared_inline();
    coalesce_leaves::<Fast>(dst, leaves, false)?;
    flat_toks(out.tree.toks.cleared_inline(), dst.len()).ok_or(Decline)
}

/// CuTe `coalesce(L, profile)`: coalesce each mode of `L` at the terminals of
/// `profile`, keeping `L`'s modes beyond the profile's rank. An integer profile
/// coalesces the whole layout.
///
/// Pre: `rank(profile) <= rank(L)` wherever `profile` is a tuple (else a
/// `Mismatch` error), and as [`coalesce`] for each part.
/// Post: the modes of `L` under each integer of `profile` coalesced (the same
/// function on `[0, size(L))`), the other modes kept.
///
/// ```
/// use kute::{Layout, IntTuple};
/// let l: Layout = "(_2,(_1,_6)):(_1,(_6,_2))".parse().unwrap();
/// let p: IntTuple = "(_1,_1)".parse().unwrap();
/// assert_eq!(kute::coalesce_profile(&l, &p).unwrap().to_string(), "(_2,_6):(_1,_2)");
/// ```
pub fn coalesce_profile(l: &Layout, profile: &IntTuple) -> Result<Layout> {
    by_profile(l, profile, "coalesce", &coalesce)
}

pub(crate) fn by_profile(
    l: &Layout,
    profile: &IntTuple,
    op: &'static str,
    f: &dyn Fn(&Layout) -> Result<Layout>,
) -> Result<Layout> {
    if profile.is_leaf() {
        return f(l);
    }
    if profile.rank() > l.rank() {
        return Err(Error::mismatch(op, format!("profile {profile} has more modes than the layout {l}")));
    }
    let mut parts: SmallVec<[Layout; 4]> = SmallVec::new();
    for (i, m) in l.modes().enumerate() {
        match profile.as_ref().mode(i) {
            Some(p) => parts.push(by_profile(&m.to_layout(), &p.to_tree(), op, f)?),
            None => parts.push(m.to_layout()),
        }
    }
    Ok(Layout::concat_unchecked(parts.iter()))
}

/// PyCuTe `coalesce_z(L)` (NVIDIA's 2026 reference implementation): coalesce
/// keeping the function outside the domain too. Left to right, a size-1 mode
/// is dropped when another mode follows it, and a mode merges into the run
/// before it when `s·d` of the run is its stride; so only a last size-1 mode
/// survives (it carries the stride that indices past the size extend along).
/// Merging is by value, as everywhere in kute (PyCuTe's guard against folding
/// a concrete extent into a symbolic one has no counterpart here).
///
/// Pre: the products `s·d` compared and the merged extents fit in `i64` (else
/// an `Overflow` error).
/// Post: `size(R) == size(L)`, `depth(R) <= 1`, `R(i) == L(i)` for every
/// `i >= 0` (not only below the size); `coalesce_z(R) == R`; a single mode
/// gives an integral layout.
///
/// ```
/// use kute::Layout;
/// let l: Layout = "(2,1,6,1):(1,7,8,0)".parse().unwrap();
/// assert_eq!(kute::coalesce_z(&l).unwrap().to_string(), "(2,6,1):(1,8,0)");
/// assert_eq!(kute::coalesce(&l).unwrap().to_string(), "(2,6):(1,8)");
/// ```
pub fn coalesce_z(l: &Layout) -> Result<Layout> {
    crate::sym::refuse("coalesce_z", || l.has_symbols())?;
    let op = "coalesce_z";
    let mut runs: SmallVec<[Mode; 8]> = SmallVec::new();
    for &m in l.leaves() {
        while runs.last().is_some_and(|r| r.shape.value() == 1) {
            runs.pop();
        }
        if let Some(run) = runs.last_mut() {
            // the run's first stride and its whole extent: `s·d` is where it ends
            if merges::<Checked>(*run, m).map_err(|e| e.in_op(op))? {
                run.shape = run.shape.mul(m.shape).map_err(|e| e.in_op(op))?;
                continue;
            }
        }
        runs.push(m);
    }
    if runs.is_empty() {
        // a layout without modes
        return Ok(Layout::unit());
    }
    Ok(Layout::from_flat(&runs))
}

/// PyCuTe `coalesce_z(L, profile)`: [`coalesce_z`] of the modes of `L` at the
/// integers of `profile`; a `_` in the profile (PyCuTe's `None`) keeps its mode
/// as it is, and so do the modes of `L` beyond a tuple's rank.
/// `coalesce_z[1](L)` in PyCuTe is `coalesce_z(L, (_,1))` here.
///
/// Pre: `rank(profile) <= rank(L)` wherever `profile` is a tuple (else a
/// `Mismatch` error), and as [`coalesce_z`] for each part.
/// Post: `L` with each mode under an integer of `profile` coalesced by
/// [`coalesce_z`]; the same function of every `i >= 0`.
///
/// ```
/// use kute::Layout;
/// let l: Layout = "((2,(1,6)),(3,4,1)):((1,(6,2)),(100,300,0))".parse().unwrap();
/// let p = kute::expr::parse_coord("(_,1)").unwrap();
/// assert_eq!(kute::coalesce_z_profile(&l, &p).unwrap().to_string(), "((2,(1,6)),(12,1)):((1,(6,2)),(100,0))");
/// ```
pub fn coalesce_z_profile(l: &Layout, profile: &crate::layout::slice::Coord) -> Result<Layout> {
    crate::sym::refuse("coalesce_z_profile", || l.has_symbols())?;
    coalesce_z_at(l, profile.as_ref())
}

fn coalesce_z_at(l: &Layout, profile: crate::tree::TreeRef<'_, crate::layout::slice::Crd>) -> Result<Layout> {
    use crate::layout::slice::Crd;
    match profile.as_leaf() {
        Some(Crd::Underscore) => Ok(l.clone()),
        Some(Crd::Int(_)) => coalesce_z(l),
        None => {
            if profile.rank() > l.rank() {
                return Err(Error::mismatch(
                    "coalesce_z",
                    format!("profile {} has more modes than the layout {l}", profile.to_tree()),
                ));
            }
            let mut parts: SmallVec<[Layout; 4]> = SmallVec::new();
            for (i, m) in l.modes().enumerate() {
                match profile.mode(i) {
                    Some(p) => parts.push(coalesce_z_at(&m.to_layout(), p)?),
                    None => parts.push(m.to_layout()),
                }
            }
            Layout::concat(parts.iter()).map_err(|e| e.in_op("coalesce_z"))
        }
    }
}

/// CuTe `filter_zeros(L)`: every mode with stride 0 gets extent 1.
///
/// Pre: none. Post: congruent to `L`; each leaf with integer stride 0 has extent
/// `_1` (stride kept), every other leaf is unchanged.
///
/// ```
/// use kute::Layout;
/// let l: Layout = "(_2,_3,_4):(_0,_1,_0)".parse().unwrap();
/// assert_eq!(kute::filter_zeros(&l).to_string(), "(_1,_3,_1):(_0,_1,_0)");
/// ```
pub fn filter_zeros(l: &Layout) -> Layout {
    let tree = l.tree.map(|m| if m.stride.is_int_zero() { Mode::with_stride(Int::ONE, m.stride) } else { m });
    Layout { tree }
}

/// CuTe `filter(L)`: `coalesce(filter_zeros(L))`, i.e. no stride-0 and no size-1
/// modes (`_1:_0` if nothing remains).
///
/// Pre: as [`coalesce`]. Post: `coalesce(filter_zeros(L))`.
///
/// ```
/// use kute::Layout;
/// let l: Layout = "(_2,_3,_4):(_0,_1,_0)".parse().unwrap();
/// assert_eq!(kute::filter(&l).unwrap().to_string(), "_3:_1");
/// ```
pub fn filter(l: &Layout) -> Result<Layout> {
    coalesce(&filter_zeros(l)).map_err(|e| e.in_op("filter"))
}

/// CuTe `coalesce(shape)`: flatten and multiply adjacent extents of the same
/// static-ness.
///
/// Pre: the products fit in `i64` (else an `Overflow` error). Post: the leaves
/// of `s` in order, each run of adjacent leaves with the same static flag
/// multiplied into one; an integer when one remains, else a flat tuple.
///
/// ```
/// use kute::IntTuple;
/// let s: IntTuple = "(_2,(_3,4),5,_6)".parse().unwrap();
/// assert_eq!(kute::algebra::coalesce_shape(&s).unwrap().to_string(), "(_6,20,_6)");
/// ```
pub fn coalesce_shape(s: &IntTuple) -> Result<IntTuple> {
    crate::sym::refuse("coalesce_shape", || s.has_symbols())?;
    let mut out: SmallVec<[Int; 16]> = SmallVec::new();
    for &x in s.leaves() {
        match out.last_mut() {
            Some(b) if b.is_static() == x.is_static() => *b = b.mul(x)?,
            _ => out.push(x),
        }
    }
    if out.len() == 1 {
        return Ok(IntTuple::leaf(out[0]));
    }
    Ok(IntTuple::tuple_of_leaves(out))
}

/// Apply `f` at the terminals of `profile` (CuTe's by-mode `filter(L, profile)` and friends).
///
/// Pre: `rank(profile) <= rank(L)` wherever `profile` is a tuple (else a
/// `Mismatch` error naming `op`: `"filter"`, `"filter_zeros"`, otherwise
/// `"coalesce"`); the errors of `f`. Post: `f` applied to the modes of `L` under
/// each integer of `profile` (to `L` for an integer profile), the other modes kept.
///
/// ```
/// use kute::{Layout, IntTuple};
/// let l: Layout = "((_2,_1),(_3,_1)):((_1,_0),(_0,_2))".parse().unwrap();
/// let p: IntTuple = "(_1,_1)".parse().unwrap();
/// let f = kute::coalesce_profile_with(&l, &p, "filter", &kute::filter).unwrap();
/// assert_eq!(f.to_string(), "(_2,_1):(_1,_0)");
/// ```
pub fn coalesce_profile_with(
    l: &Layout,
    profile: &IntTuple,
    op: &str,
    f: &dyn Fn(&Layout) -> Result<Layout>,
) -> Result<Layout> {
    let op: &'static str = match op {
        "filter" => "filter",
        "filter_zeros" => "filter_zeros",
        _ => "coalesce",
    };
    by_profile(l, profile, op, f)
}

/// CuTe's `detail::bw_coalesce<I>(old_shape, old_stride, new_shape,
/// new_stride)`, the step coalesce is built on: the flat modes `0..=i` of
/// `old`, from the last to the first, folded into the front of the layout
/// `new` (a leaf or a flat tuple of modes): a mode of extent 1 is skipped; a
/// `new` that is the single extent 1 is replaced by the mode; a mode whose
/// `extent·stride` is the front's stride merges into the front; any other
/// mode is prepended. A `new` left at the single extent 1 gives `_1:_0`.
/// CuTe decides the merge only where the front's extent is static; kute
/// decides it by value, as everywhere.
///
/// Pre: `i < rank(old)` (`i = -1`: nothing is folded; else a `Mismatch`
/// error); `new`'s modes are leaves; the products fit in `i64` (else an
/// `Overflow` error).
/// Post: `R(x) == old'(x)` on `old'`'s domain, where `old'` is modes `0..=i`
/// of `old` followed by `new`; `coalesce(L) == bw_coalesce(flat(L), R-2,
/// last mode of L)` for a last extent other than 1.
///
/// ```
/// use kute::{Layout, Mode};
/// let old: Layout = "(_2,_1,_3):(_1,_5,_2)".parse().unwrap();
/// let new: Layout = "_4:_6".parse().unwrap();
/// assert_eq!(kute::bw_coalesce(&old, 2, &new).unwrap().to_string(), "_24:_1");
/// assert_eq!(kute::bw_coalesce(&old, -1, &new).unwrap().to_string(), "_4:_6");
/// ```
pub fn bw_coalesce(old: &Layout, i: isize, new: &Layout) -> Result<Layout> {
    crate::sym::refuse("bw_coalesce", || old.has_symbols() || new.has_symbols())?;
    let op = "bw_coalesce";
    let flat = old.leaves();
    if i >= flat.len() as isize || i < -1 {
        return Err(Error::mismatch(op, format!("mode {i} of the flat {old}, which has {} modes", flat.len())));
    }
    if new.depth() > 1 {
        return Err(Error::mismatch(op, format!("the layout to fold into, {new}, is not flat")));
    }
    // the modes of `new` in reverse, so that prepending is a push
    let mut front: SmallVec<[Mode; 8]> = new.leaves().iter().rev().copied().collect();
    let mut leaf = new.tree.is_leaf();
    for &m in flat[..(i + 1) as usize].iter().rev() {
        let top = *front.last().expect("new has a mode");
        if m.shape.value() == 1 {
            continue;
        }
        if leaf && top.shape.value() == 1 {
            *front.last_mut().expect("new has a mode") = m;
        } else if m.stride.is_int()
            && top.stride.is_int()
            && m.shape.mul(m.stride.scale_int()).map_err(|e| e.in_op(op))?.value() == top.stride.value()
        {
            let merged = Mode::with_stride(m.shape.mul(top.shape).map_err(|e| e.in_op(op))?, m.stride);
            *front.last_mut().expect("new has a mode") = merged;
        } else {
            front.push(m);
            leaf = false;
        }
    }
    front.reverse();
    if leaf && front[0].shape.value() == 1 {
        return Ok(Layout::unit());
    }
    if leaf {
        return Ok(Layout::from_flat(&front));
    }
    Ok(Layout {
        tree: crate::tree::Tree::try_build(|b| {
            b.open();
            for &m in &front {
                b.leaf(m);
            }
            b.close();
            Ok(())
        })?,
    })
}
