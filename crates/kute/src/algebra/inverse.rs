//! Inverses and related: `right_inverse`, `left_inverse`, `max_common_layout`,
//! `max_common_vector`, `nullspace`.

use super::coalesce::{coalesce, coalesce_flat};
use super::composition::compose_layout;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::layout::{Layout, Mode};
use smallvec::SmallVec;

/// CuTe's exchange sort of indices by key (not stable; replicated exactly because
/// ties decide the result). Its cost is quadratic, so beyond 64 keys with no
/// two equal (where every sort gives the same order) it is an n log n sort.
/// [`exchange_sort_by_key`] of integers that may be symbolic: CuTe's
/// exchange sort, each comparison decided by the facts (or an `Undecided`
/// error naming it).
fn exchange_sort(keys: &[Int], op: &'static str) -> Result<SmallVec<[usize; 16]>> {
    if !keys.iter().any(|k| k.is_symbolic()) {
        let values: SmallVec<[i64; 16]> = keys.iter().map(|k| k.value()).collect();
        return Ok(exchange_sort_by_key(&values));
    }
    let mut kv: SmallVec<[(Int, usize); 16]> = keys.iter().copied().zip(0..).collect();
    let n = kv.len();
    for i in 0..n {
        for j in i + 1..n {
            if kv[j].0.decide_lt(kv[i].0, op)? {
                kv.swap(i, j);
            }
        }
    }
    Ok(kv.into_iter().map(|(_, v)| v).collect())
}

fn exchange_sort_by_key(keys: &[i64]) -> SmallVec<[usize; 16]> {
    let mut kv: SmallVec<[(i64, usize); 16]> = keys.iter().copied().zip(0..).collect();
    let n = kv.len();
    if n > 64 {
        kv.sort_unstable();
        if kv.windows(2).all(|w| w[0].0 != w[1].0) {
            return kv.into_iter().map(|(_, v)| v).collect();
        }
        kv = keys.iter().copied().zip(0..).collect();
    }
    for i in 0..n {
        for j in i + 1..n {
            if kv[j].0 < kv[i].0 {
                kv.swap(i, j);
            }
        }
    }
    kv.into_iter().map(|(_, v)| v).collect()
}

struct Flat {
    shape: SmallVec<[Int; 16]>,
    stride: SmallVec<[Int; 16]>,
    pre: SmallVec<[Int; 17]>,
}

fn flat_coalesced(l: &Layout, op: &'static str) -> Result<Flat> {
    l.int_strides(op)?;
    let c = coalesce_flat(l.leaves(), false)?;
    let shape: SmallVec<[Int; 16]> = c.iter().map(|m| m.shape).collect();
    let stride: SmallVec<[Int; 16]> = c.iter().map(|m| m.stride.scale_int()).collect();
    let mut pre: SmallVec<[Int; 17]> = SmallVec::new();
    pre.push(Int::ONE);
    for &s in &shape {
        let p = pre.last().expect("non-empty").mul(s)?;
        pre.push(p);
    }
    Ok(Flat { shape, stride, pre })
}

/// CuTe `right_inverse(L)`: the layout `R` with `L(R(i)) == i` for `i < size(R)`,
/// as large as possible (the contiguous run of `L`'s image starting at 0).
///
/// kute handles run-time strides like static ones (CuTe C++ drops them and
/// returns `_1:_0`).
///
/// Pre: every stride is an integer (else an `Inadmissible` error); the
/// arithmetic fits in `i64` (else an `Overflow` error).
/// Post: `L(R(i)) == i` for all `i < size(R)`.
///
/// ```
/// use kute::Layout;
/// let l: Layout = "(_4,_8):(_8,_1)".parse().unwrap();
/// assert_eq!(kute::right_inverse(&l).unwrap().to_string(), "(_8,_4):(_4,_1)");
/// ```
pub fn right_inverse(l: &Layout) -> Result<Layout> {
    right_inverse_impl(l).map_err(|e| e.in_op("right_inverse"))
}

fn right_inverse_impl(l: &Layout) -> Result<Layout> {
    let f = flat_coalesced(l, "right_inverse")?;
    let order = exchange_sort(&f.stride, "right_inverse")?;
    let mut modes: SmallVec<[Mode; 16]> = SmallVec::new();
    modes.push(Mode::new(Int::ONE, Int::ZERO));
    let mut cur = Int::ONE;
    for i in order {
        if f.stride[i].decide_eq(cur, "right_inverse")? {
            modes.push(Mode::new(f.shape[i], f.pre[i]));
            cur = f.shape[i].mul(f.stride[i])?;
        }
    }
    Ok(Layout::from_flat(&coalesce_flat(&modes, false)?))
}

/// CuTe `left_inverse(L)`: for an injective `L`, a layout `R` with
/// `R(L(i)) == i` for `i < size(L)`, defined on `[0, cosize(L))`. For a
/// non-injective `L`, CuTe's quasi-inverse: `L(R(L(i))) == L(i)` (as for
/// stride-0 modes, whose coordinates come back as 0). Where CuTe's answer is
/// not that either (`(2,3):(2,1)` below), kute errs.
///
/// Pre: every stride is an integer; the non-zero strides of the coalesced
/// `L`, sorted, are each divisible by the product of the extents of the result
/// so far (CuTe's "left inverse divisibility condition"), and, where two
/// modes overlap, the result is a quasi-inverse (checked point by point); else
/// an `Inadmissible` error (a `Limit` error past 2^22 points).
/// Post: `L(R(L(i))) == L(i)` for `i < size(L)`, and `R(L(i)) == i` when `L` is
/// injective.
///
/// ```
/// use kute::Layout;
/// let inj: Layout = "(_4,_2):(_1,_8)".parse().unwrap();
/// let r = kute::left_inverse(&inj).unwrap();
/// assert_eq!(r.to_string(), "(_8,_2):(_1,_4)");
/// assert!((0..8).all(|i| r.eval(inj.eval(i).unwrap()).unwrap() == i));
/// // a zero stride: the quasi-inverse
/// let l: Layout = "(_2,_3):(_0,_1)".parse().unwrap();
/// assert_eq!(kute::left_inverse(&l).unwrap().to_string(), "_3:_2");
/// // overlapping modes (L(2) == L(1·3) == 2), and CuTe's answer (2,2):(2,1)
/// // gives L(R(L(5))) = 1, not L(5) = 4: no left inverse
/// let l: Layout = "(2,3):(2,1)".parse().unwrap();
/// assert!(kute::left_inverse(&l).is_err());
/// ```
pub fn left_inverse(l: &Layout) -> Result<Layout> {
    left_inverse_impl(l).map_err(|e| e.in_op("left_inverse"))
}

fn left_inverse_impl(l: &Layout) -> Result<Layout> {
    let f = flat_coalesced(l, "left_inverse")?;
    let order = exchange_sort(&f.stride, "left_inverse")?;
    let symbolic = l.has_symbols();
    let mut shapes: SmallVec<[Int; 16]> = SmallVec::new();
    let mut strides: SmallVec<[Int; 17]> = SmallVec::new();
    strides.push(Int::ZERO);
    let mut q = Int::ONE;
    // where the previous mode's indices end (its extent·stride): the next
    // stride must not be below it, or two coordinates share an index
    let mut end: Option<(usize, i64)> = None;
    let mut overlap: Option<(usize, usize)> = None;
    for &i in &order {
        let d = f.stride[i];
        if d.decide_eq(Int::ZERO, "left_inverse")? {
            // a stride-0 mode: CuTe's quasi-inverse leaves its coordinate at 0
            continue;
        }
        if q.decide_eq(Int::ZERO, "left_inverse")? || !q.decide_divides(d, "left_inverse")? {
            return Err(Error::inadmissible(
                "left_inverse",
                format!(
                    "left inverse divisibility condition fails for {l}: stride {} is not a multiple of {}, the size of the inverse built so far",
                    d,
                    q
                ),
            ));
        }
        // two non-zero modes overlap (the previous stride divides d, so
        // coordinate d / d_j of mode j is index d, as coordinate 1 of this
        // one): L is not injective, and CuTe's answer is checked below
        if symbolic {
            // the overlap test on symbols: d below the previous mode's end
            if overlap.is_none()
                && let Some((j, _)) = end
                && d.sign("left_inverse")? > 0
                && d.decide_lt(f.shape[j].mul(f.stride[j])?, "left_inverse")?
            {
                overlap = Some((j, i));
            }
            end = Some((i, 0));
        } else {
            if overlap.is_none() && d.value() > 0 && end.is_some_and(|(_, e)| d.value() < e) {
                overlap = end.map(|(j, _)| (j, i));
            }
            end = Some((i, f.shape[i].value().saturating_mul(d.value())));
        }
        let s = d.div(q)?;
        shapes.push(s);
        q = q.mul(s)?;
        strides.push(f.pre[i]);
    }
    let last = *order.last().expect("at least one mode");
    shapes.push(f.shape[last]);
    let modes: SmallVec<[Mode; 16]> = shapes.iter().zip(&strides).map(|(&s, &d)| Mode::new(s, d)).collect();
    let r = Layout::from_flat(&coalesce_flat(&modes, false)?);
    if let Some((j, i)) = overlap {
        if symbolic {
            return Err(crate::sym::undecided(
                "left_inverse",
                format!(
                    "{l} is not injective (its modes {}:{} and {}:{} overlap), and a quasi-inverse cannot be proven for every value of the unknowns",
                    f.shape[j], f.stride[j], f.shape[i], f.stride[i]
                ),
            ));
        }
        check_quasi_inverse(l, &r, (f.shape[j], f.stride[j]), (f.shape[i], f.stride[i]))?;
    }
    Ok(r)
}

/// Largest domain on which a left inverse of a non-injective layout is checked.
const QUASI_INVERSE_LIMIT: i64 = crate::limits::MAX_PROOF_POINTS;

/// `L(R(L(i))) == L(i)` for every `i < size(L)` (CuTe's quasi-inverse), for
/// an `L` whose modes `x` and `y` overlap; else an error naming the point.
fn check_quasi_inverse(l: &Layout, r: &Layout, x: (Int, Int), y: (Int, Int)) -> Result<()> {
    let why = || format!("its modes {}:{} and {}:{} overlap", x.0, x.1, y.0, y.1);
    let n = l.size()?.value();
    if n > QUASI_INVERSE_LIMIT {
        return Err(Error::limit(
            "left_inverse",
            format!("{l} is not injective ({}), and checking CuTe's quasi-inverse {r} over its {n} points is past the limit of {QUASI_INVERSE_LIMIT}", why()),
        ));
    }
    crate::limits::take_points(n.max(0) as u64, "left_inverse", || format!("checking the quasi-inverse {r} of {l}"))?;
    for i in 0..n {
        let v = l.eval(i)?;
        let back = l.eval(r.eval(v)?)?;
        if back != v {
            return Err(Error::inadmissible(
                "left_inverse",
                format!(
                    "{l} is not injective ({}), and no layout R has L(R(L(i))) == L(i): CuTe's algorithm answers {r}, but L(R(L({i}))) = L(R({v})) = {back}",
                    why()
                ),
            ));
        }
    }
    Ok(())
}

fn common(a: &Layout, b: &Layout) -> Result<(Layout, Layout)> {
    a.int_strides("max_common_layout")?;
    let inv_b = right_inverse(b)?;
    let c = coalesce(&compose_layout(a, &inv_b)?)?;
    Ok((inv_b, c))
}

/// CuTe `max_common_layout(A, B)`: the largest layout `R` with
/// `A(R(i)) == i == B(R(i))` for all `i < size(R)` (`_1:_0` if none).
///
/// Pre: every stride of `A` and `B` is an integer (else an `Inadmissible`
/// error), and `A ∘ right_inverse(B)` is admissible (see
/// [`composition`](crate::composition)).
/// Post: `A(R(i)) == i == B(R(i))` for `i < size(R)`.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(_4,_8):(_8,_1)".parse().unwrap();
/// assert_eq!(kute::max_common_layout(&a, &a).unwrap().to_string(), "(_8,_4):(_4,_1)");
/// ```
pub fn max_common_layout(a: &Layout, b: &Layout) -> Result<Layout> {
    let go = || -> Result<Layout> {
        let (inv_b, c) = common(a, b)?;
        let c0 = c.mode(0)?;
        let first = c0.leaves()[0];
        if c0.is_integral() && first.stride.scale_int().decide_eq(Int::ONE, "max_common_layout")? {
            compose_layout(&inv_b, &c0)
        } else {
            Ok(Layout::unit())
        }
    };
    go().map_err(|e| e.in_op("max_common_layout"))
}

/// CuTe `max_common_vector(A, B)`: the number of leading elements that are
/// contiguous in both `A` and `B` (at least 1).
///
/// Pre: as [`max_common_layout`]. Post: `size(max_common_layout(A, B))`, at least 1.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(_4,8):(_1,4)".parse().unwrap();
/// assert_eq!(kute::max_common_vector(&a, &a).unwrap().value(), 32);
/// ```
pub fn max_common_vector(a: &Layout, b: &Layout) -> Result<Int> {
    let go = || -> Result<Int> {
        let (_, c) = common(a, b)?;
        let c0 = c.mode(0)?;
        let first = c0.leaves()[0];
        if c0.is_integral() && first.stride.scale_int().decide_eq(Int::ONE, "max_common_vector")? {
            Ok(first.shape)
        } else {
            Ok(Int::ONE)
        }
    };
    go().map_err(|e| e.in_op("max_common_vector"))
}

/// CuTe `nullspace(L)`: the 1-D coordinates that `L` maps to 0 through its
/// stride-0 modes, as a layout into `L`'s domain (`_1:_0` if none).
///
/// Pre: every stride is an integer (else an `Inadmissible` error); the size
/// fits in `i64` (else an `Overflow` error).
/// Post: `L(R(i)) == 0` for `i < size(R)`; `size(R)` is the product of the
/// extents of `L`'s stride-0 leaves.
///
/// ```
/// use kute::Layout;
/// let l: Layout = "(_2,_3,_4):(_0,_1,_0)".parse().unwrap();
/// assert_eq!(kute::nullspace(&l).unwrap().to_string(), "(_2,_4):(_1,_6)");
/// ```
pub fn nullspace(l: &Layout) -> Result<Layout> {
    crate::sym::refuse("nullspace", || l.has_symbols())?;
    l.int_strides("nullspace")?;
    let leaves = l.leaves();
    let mut modes: SmallVec<[Mode; 16]> = SmallVec::new();
    let mut cur = Int::ONE;
    for m in leaves {
        let d = if m.shape.value() == 1 { Int::ZERO } else { cur };
        if m.shape.value() != 1 {
            cur = cur.mul(m.shape).map_err(|e| e.in_op("nullspace"))?;
        }
        if m.stride.value() == 0 {
            modes.push(Mode::new(m.shape, d));
        }
    }
    if modes.is_empty() {
        return Ok(Layout::unit());
    }
    Ok(Layout::from_flat(&modes))
}

/// CuTe `max_alignment(L)`: the largest number of elements whose alignment
/// `L` guarantees from its static parts alone — `L` coalesced, its run-time
/// extents read as 1 and run-time strides as 0, divided by its own right
/// inverse; the gcd of that divide's tile size and its rest's strides.
///
/// Pre: integer strides (else an `Inadmissible` error), and those of
/// [`right_inverse`] and [`logical_divide`](crate::logical_divide).
/// Post: a static integer `>= 1` for a layout with a static stride-1 mode.
///
/// ```
/// use kute::Layout;
/// let l: Layout = "(_4,_3):(_1,_8)".parse().unwrap();
/// assert_eq!(kute::max_alignment(&l).unwrap().to_string(), "_4");
/// let c: Layout = "(_2,_3):(_1,_2)".parse().unwrap();
/// assert_eq!(kute::max_alignment(&c).unwrap().to_string(), "_6");
/// ```
pub fn max_alignment(l: &Layout) -> Result<Int> {
    crate::sym::refuse("max_alignment", || l.has_symbols())?;
    let go = || -> Result<Int> {
        l.int_strides("max_alignment")?;
        let flat = coalesce(l)?;
        let known = Layout {
            tree: flat.tree.map(|m| {
                let s = if m.shape.is_static() { m.shape } else { Int::ONE };
                let d = if m.stride.is_static() { m.stride.scale_int() } else { Int::ZERO };
                Mode::new(s, d)
            }),
        };
        let permuted = super::logical_divide(&known, &right_inverse(&known)?)?;
        let mut g = permuted.mode(0)?.size()?;
        for m in permuted.mode(1)?.leaves() {
            g = g.gcd(m.stride.scale_int())?;
        }
        Ok(Int::new_static(g.value()))
    };
    go().map_err(|e| e.in_op("max_alignment"))
}
