//! Operations of NVIDIA's 2026 reference implementation (PyCuTe): the
//! greatest common domain of two shapes, and the sum of two layouts.

use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::{Layout, Mode};
use crate::stride::Stride;

fn gcd(a: i64, b: i64) -> i64 {
    Int::new_dynamic(a).gcd(Int::new_dynamic(b)).value()
}

/// PyCuTe `greatest_common_domain(A, B)`: the largest ordered factorization
/// that the leaves of `shape(A)` and `shape(B)` share, walked together from
/// the first leaf, as a flat layout whose strides are the offsets (in both
/// domains) where each common factor starts. Leaves of extent 1 are skipped;
/// leaves that share no aligned factor give the singleton `(1):(0)`.
///
/// Pre: positive extents (else an `Inadmissible` error); the offsets fit in
/// `i64` (else an `Overflow` error).
/// Post: a flat layout whose size divides `gcd(size(A), size(B))`; symmetric
/// in `A` and `B`; static when every extent of both is.
///
/// ```
/// use kute::IntTuple;
/// let (a, b): (IntTuple, IntTuple) = ("(6,35)".parse().unwrap(), "(15,14)".parse().unwrap());
/// assert_eq!(kute::greatest_common_domain(&a, &b).unwrap().to_string(), "(3,7):(1,30)");
/// ```
pub fn greatest_common_domain(a: &IntTuple, b: &IntTuple) -> Result<Layout> {
    let op = "greatest_common_domain";
    let all_static = a.leaves().iter().chain(b.leaves()).all(|x| x.is_static());
    let int = |v: i64| Int::new(v, all_static);
    let mut xs: Vec<i64> = a.leaves().iter().map(|x| x.value()).collect();
    let mut ys: Vec<i64> = b.leaves().iter().map(|x| x.value()).collect();
    if xs.iter().chain(&ys).any(|&v| v < 1) {
        return Err(Error::inadmissible(op, format!("the extents of {a} and {b} must be positive")));
    }
    let overflow = || Error::overflow(format_args!("the common domain of {a} and {b}")).in_op(op);
    let (mut shape, mut stride) = (Vec::new(), Vec::new());
    // running prefix products (where the current leaf of each starts)
    let (mut pa, mut pb) = (1i64, 1i64);
    let (mut i, mut j) = (0, 0);
    while i < xs.len() && j < ys.len() {
        if xs[i] == 1 {
            i += 1;
            continue;
        }
        if ys[j] == 1 {
            j += 1;
            continue;
        }
        // the smallest offset both walks reach, and what each leaf must cover to get there
        let lcm = (pa / gcd(pa, pb)).checked_mul(pb).ok_or_else(overflow)?;
        let (ra, rb) = (lcm / pa, lcm / pb);
        if xs[i] % ra == 0 && ys[j] % rb == 0 {
            let g = gcd(xs[i] / ra, ys[j] / rb);
            if g != 1 {
                shape.push(int(g));
                stride.push(int(lcm));
                xs[i] /= ra * g;
                ys[j] /= rb * g;
                pa = lcm.checked_mul(g).ok_or_else(overflow)?;
                pb = pa;
                continue;
            }
        }
        // advance the leaf that ends first (both when neither end divides the other)
        let ea = pa.checked_mul(xs[i]).ok_or_else(overflow)?;
        let eb = pb.checked_mul(ys[j]).ok_or_else(overflow)?;
        let (qa, qb) = (eb % ea == 0, ea % eb == 0);
        if qa || !qb {
            pa = ea;
            i += 1;
        }
        if qb || !qa {
            pb = eb;
            j += 1;
        }
    }
    if shape.is_empty() {
        shape.push(int(1));
        stride.push(int(0));
    }
    Layout::new(IntTuple::tuple_of_leaves(shape), IntTuple::tuple_of_leaves(stride))
}

/// PyCuTe `layout_add(A, B)`: the layout `R` with `R(i) = A(i) + B(i)`, on
/// the greatest common domain of the coalesced operands, coalesced.
///
/// Pre: `size(A) == size(B)` (else a `Mismatch` error); the coalesced shapes
/// have a common refinement of that size (else an `Inadmissible` error); each
/// stride sum is one stride kute can hold (integers, or basis elements of
/// one direction; else an `Inadmissible` error).
/// Post: `R(i) == A(i) + B(i)` for every `i < size(A)`; `layout_add(A, B) ==
/// layout_add(B, A)`.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(4,3):(1,4)".parse().unwrap();
/// let b: Layout = "(4,3):(3,1)".parse().unwrap();
/// assert_eq!(kute::layout_add(&a, &b).unwrap().to_string(), "(4,3):(4,5)");
/// ```
pub fn layout_add(a: &Layout, b: &Layout) -> Result<Layout> {
    let op = "layout_add";
    let go = || -> Result<Layout> {
        let (sa, sb) = (a.size()?, b.size()?);
        if sa.value() != sb.value() {
            return Err(Error::mismatch(op, format!("the sizes of {a} ({sa}) and {b} ({sb}) differ")));
        }
        let (ac, bc) = (super::coalesce(a)?, super::coalesce(b)?);
        let g = greatest_common_domain(&ac.shape(), &bc.shape())?;
        if g.size()?.value() != sa.value() {
            return Err(Error::inadmissible(
                op,
                format!("{ac} and {bc} have no common refinement of size {sa}: their greatest common domain is {g}"),
            ));
        }
        let mut modes = Vec::with_capacity(g.leaves().len());
        for m in g.leaves() {
            let d = Int::new(m.stride.value(), m.stride.is_static());
            let (x, y) = (ac.eval_point(d)?, bc.eval_point(d)?);
            let sum = match (x.as_int(), y.as_int(), x, y) {
                (Some(p), Some(q), _, _) => Stride::of(p.add(q)?),
                (_, _, crate::layout::point::Point::Scalar(p), crate::layout::point::Point::Scalar(q))
                    if p.same_direction(q) || p.is_int_zero() || q.is_int_zero() =>
                {
                    let base = if p.is_int_zero() { q } else { p };
                    base.with_value(p.scale_int().add(q.scale_int())?)
                }
                (_, _, p, q) => {
                    return Err(Error::inadmissible(
                        op,
                        format!("the stride sum {p} + {q} is not one integer or basis stride"),
                    ))
                }
            };
            modes.push(Mode::with_stride(m.shape, sum));
        }
        let shape = IntTuple::tuple_of_leaves(modes.iter().map(|m| m.shape));
        let stride = crate::stride::StrideTuple::tuple_of_leaves(modes.iter().map(|m| m.stride));
        super::coalesce(&Layout::with_strides(&shape, &stride)?)
    };
    go().map_err(|e| e.in_op(op))
}
