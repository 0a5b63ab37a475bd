//! `coalesce`, `filter_zeros` and `filter`.

use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::{Layout, Mode};
use smallvec::SmallVec;

pub(crate) type Modes = crate::tree::Leaves<Mode>;

/// Merge flat modes right to left (CuTe's `bw_coalesce`), deciding by value.
///
/// `fake_last`: start from a size-2 stand-in when the last extent is 1, so the
/// stride of the trailing mode survives (CuTe's `coalesce_x`).
pub(crate) fn coalesce_flat(leaves: &[Mode], fake_last: bool) -> Result<Modes> {
    let mut out = Modes::new();
    coalesce_modes(&mut out, leaves, fake_last)?;
    Ok(out)
}

/// [`coalesce_flat`] into `out` (which must be empty).
///
/// Two passes over the modes: the first counts the merged modes (the same
/// decisions with wrapping arithmetic, no stores), the second computes them with
/// checked arithmetic and writes each straight into its final slot. Reversing
/// modes just pushed would load whole modes that were stored field by field, which
/// stalls store-to-load forwarding (it cost more than the whole merge).
#[inline]
pub(crate) fn coalesce_modes(out: &mut Modes, leaves: &[Mode], fake_last: bool) -> Result<()> {
    debug_assert!(out.is_empty());
    let r = leaves.len();
    if r == 0 {
        out.push(Mode::new(Int::ONE, Int::ZERO));
        return Ok(());
    }
    if r == 1 && !fake_last {
        // one mode stays as it is, except that extent 1 becomes _1:_0
        let m = leaves[0];
        out.push(if m.shape.value() == 1 { Mode::new(Int::ONE, Int::ZERO) } else { m });
        return Ok(());
    }
    let last = leaves[r - 1];
    let first_front =
        if fake_last && last.shape.value() == 1 { Mode::with_stride(Int::new_static(2), last.stride) } else { last };
    if r == 2 {
        // the two passes below for two modes, without the counting pass
        let m = leaves[0];
        let mut front = first_front;
        if m.shape.value() != 1 {
            if front.shape.value() == 1 {
                front = m;
            } else if m.stride.scale(m.shape)?.same(front.stride) {
                front.shape = m.shape.mul(front.shape)?;
                front.stride = m.stride;
            } else {
                out.push(m);
                out.push(front);
                return Ok(());
            }
        }
        out.push(if front.shape.value() == 1 { Mode::new(Int::ONE, Int::ZERO) } else { front });
        return Ok(());
    }
    // pass 1: how many modes come out (until the first overflow, the decisions are
    // those of pass 2; after it pass 2 stops with the error)
    let mut n = 1usize;
    {
        let mut scalar = true;
        let (mut fs, mut fd) = (first_front.shape.value(), first_front.stride.value());
        let mut fdir = first_front.stride;
        for m in leaves[..r - 1].iter().rev() {
            let (s, d) = (m.shape.value(), m.stride.value());
            if s == 1 {
                continue;
            }
            if scalar && fs == 1 {
                (fs, fd) = (s, d);
                fdir = m.stride;
            } else if s.wrapping_mul(d) == fd && m.stride.same_direction(fdir) {
                fs = s.wrapping_mul(fs);
                fd = d;
            } else {
                n += 1;
                (fs, fd) = (s, d);
                fdir = m.stride;
                scalar = false;
            }
        }
    }
    for _ in 0..n {
        out.push(Mode::default());
    }
    // pass 2: right to left (CuTe's bw_coalesce), each finished mode into its slot
    let slots = &mut out[..];
    let mut k = n;
    let mut scalar = true;
    let mut front = first_front;
    for m in leaves[..r - 1].iter().rev() {
        if m.shape.value() == 1 {
            continue;
        }
        if scalar && front.shape.value() == 1 {
            front = *m;
        } else if m.stride.scale(m.shape)?.same(front.stride) {
            front.shape = m.shape.mul(front.shape)?;
            front.stride = m.stride;
        } else {
            k = k.wrapping_sub(1);
            if let Some(slot) = slots.get_mut(k) {
                *slot = front;
            }
            front = *m;
            scalar = false;
        }
    }
    if scalar && front.shape.value() == 1 {
        front = Mode::new(Int::ONE, Int::ZERO);
    }
    if let Some(slot) = slots.get_mut(k.wrapping_sub(1)) {
        *slot = front;
    }
    debug_assert_eq!(k, 1);
    Ok(())
}

/// CuTe `filter(L)` into `out` (empty): `coalesce(filter_zeros(L))` of the leaves.
#[inline]
pub(crate) fn filter_into(out: &mut Modes, leaves: &[Mode]) -> Result<()> {
    if leaves.iter().all(|m| m.stride.value() != 0) {
        return coalesce_modes(out, leaves, false).map_err(|e| e.in_op("coalesce"));
    }
    let mut zeroed = Modes::new();
    zeroed
        .extend(leaves.iter().map(|m| if m.stride.value() == 0 { Mode::with_stride(Int::ONE, m.stride) } else { *m }));
    coalesce_modes(out, &zeroed, false).map_err(|e| e.in_op("coalesce"))
}

/// CuTe `coalesce(L)`: the flat layout of fewest modes with the same function on
/// `[0, size(L))` and the same size. Size-1 modes are dropped and adjacent modes
/// with `d[i+1] == s[i]·d[i]` merge; a single mode gives an integral layout.
///
/// Pre: none. Post: `size(R) == size(L)`, `depth(R) <= 1`, `R(i) == L(i)` for `i < size(L)`.
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
/// ```
/// use kute::Layout;
/// let l: Layout = "(_2,(_1,_6)):(_1,(_6,_2))".parse().unwrap();
/// let mut out = Layout::default();
/// kute::coalesce_into(&mut out, &l).unwrap();
/// assert_eq!(out.to_string(), "_12:_1");
/// ```
#[inline]
pub fn coalesce_into(out: &mut Layout, l: &Layout) -> Result<()> {
    if super::fast::coalesce(out, l).is_some() {
        return Ok(());
    }
    super::general(|| out.flat_in(|m| coalesce_modes(m, l.leaves(), false)).map_err(|e| e.in_op("coalesce")))
}

/// CuTe `coalesce(L, profile)`: coalesce each mode of `L` at the terminals of
/// `profile`, keeping `L`'s modes beyond the profile's rank. An integer profile
/// coalesces the whole layout.
///
/// Pre: `rank(profile) <= rank(L)` where `profile` is a tuple.
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
            Some(p) => parts.push(by_profile(&m, &p.to_tree(), op, f)?),
            None => parts.push(m),
        }
    }
    Ok(Layout::concat_unchecked(parts.iter()))
}

/// CuTe `filter_zeros(L)`: every mode with stride 0 gets extent 1.
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
/// ```
/// use kute::IntTuple;
/// let s: IntTuple = "(_2,(_3,4),5,_6)".parse().unwrap();
/// assert_eq!(kute::algebra::coalesce_shape(&s).unwrap().to_string(), "(_6,20,_6)");
/// ```
pub fn coalesce_shape(s: &IntTuple) -> Result<IntTuple> {
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
