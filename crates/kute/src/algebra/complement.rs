//! `complement(A, M)`: the layout that fills the gaps of `A` up to `M`.

use super::coalesce::{coalesce_modes, filter_into, Modes};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{product, IntTuple, IntTupleRef};
use crate::layout::{cosize_of, Layout, LayoutRef, Mode};
use smallvec::SmallVec;

/// CuTe `complement(A, cotarget)`: an ordered layout `R` whose image avoids `A`'s
/// (except at 0) so that `(A, R)` covers `[0, size(cotarget))`. `cotarget` may be
/// a shape; its size is what counts.
///
/// kute also complements layouts with run-time strides of any rank (CuTe C++
/// refuses rank > 1), giving the same values as for static strides.
///
/// Pre: the filtered `A`, sorted by stride, has each stride at least the
/// previous extent·stride (else "non-injective" error, as CuTe).
/// Post (for admissible `A`): `R` is sorted and coalesced,
/// `size(A)·size(R) >= size(cotarget)`.
///
/// ```
/// use kute::{Layout, IntTuple};
/// let a: Layout = "4:2".parse().unwrap();
/// let m: IntTuple = "24".parse().unwrap();
/// assert_eq!(kute::complement(&a, &m).unwrap().to_string(), "(2,3):(_1,8)");
/// ```
pub fn complement(a: &Layout, cotarget: &IntTuple) -> Result<Layout> {
    Layout::from_into(|out| complement_into(out, a, cotarget))
}

/// [`complement`] written into `out` (the fastest form: no move of the result).
/// On error `out` is `_1:_0`.
///
/// ```
/// use kute::{Layout, IntTuple};
/// let a: Layout = "(2,2):(4,1)".parse().unwrap();
/// let m: IntTuple = "24".parse().unwrap();
/// let mut out = Layout::default();
/// kute::complement_into(&mut out, &a, &m).unwrap();
/// assert_eq!(out.to_string(), "(2,3):(2,8)");
/// ```
#[inline]
pub fn complement_into(out: &mut Layout, a: &Layout, cotarget: &IntTuple) -> Result<()> {
    if super::fast::complement(out, a, cotarget).is_some() {
        return Ok(());
    }
    super::general(|| {
        out.flat_in(|m| complement_modes(m, a.as_tree_ref(), Cot::Tree(cotarget.as_ref())))
            .map_err(|e| e.in_op("complement"))
    })
}

/// CuTe `complement(A)`: the complement up to `cosize(filter(A))`.
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
    // CuTe has no complement of basis strides (their images are coordinates)
    for m in a.leaves() {
        m.stride.int_in("complement")?;
    }
    // a single leaf (the usual tiler) skips the filtering pass; after it, a
    // layout that filters down to one mode takes the same path
    if let [m] = a.leaves() {
        if let Some(r) = complement_one(out, *m, cot) {
            return r;
        }
    }
    let mut f = Modes::new();
    filter_into(&mut f, a.leaves())?;
    let cot = match cot {
        Cot::Cosize => Cot::Leaf(cosize_of(&f)?),
        c => c,
    };
    if let [m] = f[..] {
        if let Some(r) = complement_one(out, m, cot) {
            return r;
        }
    }
    if f.len() == 1 && f[0].stride.value() == 0 {
        // Only _1:_0 survives filtering with a zero stride: compact over the cotarget.
        // CuTe: make_layout(coalesce(cotarget)); by value, all extents merge.
        let n = match cot {
            Cot::Tree(t) => product(t.leaves())?,
            Cot::Leaf(n) => n,
            Cot::Shapes(s) => {
                let mut p = Int::ONE;
                for m in s {
                    p = p.mul(m.shape)?;
                }
                p
            }
            Cot::Cosize => unreachable!("replaced above"),
        };
        let d = if n.value() == 1 { Int::ZERO } else { Int::ONE };
        out.push(Mode::new(n, d));
        return Ok(());
    }
    // the gaps of A, then the rest up to the cotarget: up to twice as many as A's leaves
    let mut modes: SmallVec<[Mode; 32]> = SmallVec::new();
    let mut last_stride = Int::ONE;
    while f.len() > 1 {
        let Mode { shape, stride: min_stride } = take_min_stride(&mut f);
        let min_stride = min_stride.scale_int();
        f.pop();
        let new_shape = min_stride.div(last_stride)?;
        if new_shape.value() == 0 {
            return Err(non_injective(a));
        }
        modes.push(Mode::new(new_shape, last_stride));
        last_stride = min_stride.mul(shape)?;
    }
    let new_shape = f[0].stride.scale_int().div(last_stride)?;
    if new_shape.value() == 0 {
        return Err(non_injective(a));
    }
    modes.push(Mode::new(new_shape, last_stride));
    let new_stride = f[0].stride.scale_int().mul(f[0].shape)?;
    push_rest(&mut modes, cot, new_stride)?;
    coalesce_modes(out, &modes, false)
}

/// The first mode of smallest stride in `f` (not empty), the next one in the
/// complement's sorted order; the modes after it move one place left, so the
/// caller drops `f`'s last element. Shared by the general and the fast path.
#[inline(always)]
pub(crate) fn take_min_stride(f: &mut [Mode]) -> Mode {
    let n = f.len();
    let mut j = 0;
    for k in 1..n {
        if f[k].stride.value() < f[j].stride.value() {
            j = k;
        }
    }
    let m = f[j];
    // remove(j) without a memmove call for these few elements
    for k in j..n - 1 {
        f[k] = f[k + 1];
    }
    m
}

/// The modes of the rest: `ceil_div(cot, new_stride)` with compact
/// column-major strides from `new_stride` (stride `_0` for an extent 1).
fn push_rest(modes: &mut SmallVec<[Mode; 32]>, cot: Cot<'_>, new_stride: Int) -> Result<()> {
    let mut rest: SmallVec<[Int; 16]> = SmallVec::new();
    match cot {
        Cot::Tree(t) => ceil_div_leaves(&mut rest, t, new_stride),
        Cot::Leaf(n) => n.ceil_div(new_stride).map(|x| rest.push(x)),
        Cot::Shapes([m]) => m.shape.ceil_div(new_stride).map(|x| rest.push(x)),
        Cot::Shapes(s) => (|| {
            let mut r = new_stride;
            for m in s {
                rest.push(m.shape.ceil_div(r)?);
                r = r.ceil_div(Int::ONE.mul(m.shape)?)?;
            }
            Ok(())
        })(),
        Cot::Cosize => unreachable!("replaced by the caller"),
    }
    .map_err(|e| e.in_op("ceil_div"))?;
    let mut cur = new_stride;
    for &s in &rest {
        if s.value() == 1 {
            modes.push(Mode::new(s, Int::ZERO));
        } else {
            modes.push(Mode::new(s, cur));
            cur = cur.mul(s).map_err(|e| e.in_op("compact_col_major"))?;
        }
    }
    Ok(())
}

/// The general algorithm below for one leaf `s:d` with `s > 1`, `d > 0` and an
/// integer cotarget `n` (or any cotarget but `Cosize`), the same steps without
/// most of its buffers: the filtered
/// layout is the leaf itself, the gap below it is `d:_1`, the rest is
/// `ceil_div(n, s·d)` at stride `s·d` (stride `_0` when it is 1), then coalesced.
/// `None` for any other operand.
#[inline]
fn complement_one(out: &mut Modes, m: Mode, cot: Cot<'_>) -> Option<Result<()>> {
    if m.shape.value() <= 1 || m.stride.value() <= 0 {
        return None;
    }
    let n = match cot {
        Cot::Tree(t) => t.as_leaf(),
        Cot::Leaf(n) => Some(n),
        Cot::Shapes([s]) => Some(s.shape),
        Cot::Shapes(_) => None,
        Cot::Cosize => return None,
    };
    let mut go = || {
        // (the general path divides the stride by _1: the same value and flag)
        let gap = Mode::new(m.stride.scale_int(), Int::ONE);
        let new_stride = m.stride.scale_int().mul(m.shape)?;
        match n {
            Some(n) => {
                let x = n.ceil_div(new_stride).map_err(|e| e.in_op("ceil_div"))?;
                let rest = Mode::new(x, if x.value() == 1 { Int::ZERO } else { new_stride });
                coalesce_modes(out, &[gap, rest], false)
            }
            None => {
                let mut modes: SmallVec<[Mode; 32]> = SmallVec::new();
                modes.push(gap);
                push_rest(&mut modes, cot, new_stride)?;
                coalesce_modes(out, &modes, false)
            }
        }
    };
    Some(go())
}

#[cold]
fn non_injective(a: LayoutRef<'_>) -> Error {
    let a = Layout::from_ref(a);
    Error::inadmissible(
        "complement",
        format!("{a} is not injective: after sorting by stride, a stride is smaller than the extent·stride of the mode before it"),
    )
}
