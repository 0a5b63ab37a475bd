//! Operations of NVIDIA's 2026 reference implementation (PyCuTe): the
//! greatest common domain of two shapes, the sum of two layouts, and the
//! common refinement and coarsening of two shapes.

use crate::arith::gcd_i64 as gcd;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::{Layout, Mode};
use crate::stride::Stride;

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
    crate::sym::refuse("greatest_common_domain", || a.has_symbols() || b.has_symbols())?;
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
    crate::sym::refuse("layout_add", || a.has_symbols() || b.has_symbols())?;
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

/// PyCuTe `common_refinement(A, B)`: the least shape that refines both `A`
/// and `B` (their join under compatibility: `compatible(A, R)` and
/// `compatible(B, R)`, and `R` is compatible with every other such shape). An
/// integer refines to any shape of its size; tuples refine mode by mode.
///
/// Pre: a common refinement exists: where both are tuples their ranks are
/// equal, where both are integers they are equal, and an integer facing a tuple
/// is the tuple's size (else a `Mismatch` error); sizes fit in `i64` (else an
/// `Overflow` error).
/// Post: `compatible(A, R)` and `compatible(B, R)`; symmetric in `A` and `B`;
/// `common_refinement(A, A) == A`. An integer of the result is static when
/// both operands' integers there are; a subtree taken from one operand keeps
/// its marks.
///
/// ```
/// use kute::IntTuple;
/// let (a, b): (IntTuple, IntTuple) = ("((2,3),20)".parse().unwrap(), "(6,(4,5))".parse().unwrap());
/// assert_eq!(kute::common_refinement(&a, &b).unwrap().to_string(), "((2,3),(4,5))");
/// ```
pub fn common_refinement(a: &IntTuple, b: &IntTuple) -> Result<IntTuple> {
    crate::sym::refuse("common_refinement", || a.has_symbols() || b.has_symbols())?;
    let op = "common_refinement";
    let no_refinement = |why: String| Error::mismatch(op, format!("{a} and {b} have no common refinement: {why}"));
    crate::tree::Tree::try_build(|out| refine_into(out, a.as_ref(), b.as_ref(), &no_refinement))
        .map_err(|e| e.in_op(op))
}

fn refine_into(
    out: &mut crate::tree::Builder<'_, Int>,
    a: crate::int_tuple::IntTupleRef<'_>,
    b: crate::int_tuple::IntTupleRef<'_>,
    fail: &dyn Fn(String) -> Error,
) -> Result<()> {
    match (a.as_leaf(), b.as_leaf()) {
        (Some(x), Some(y)) if x.value() == y.value() => out.leaf(Int::new(x.value(), x.is_static() && y.is_static())),
        (Some(x), Some(y)) => return Err(fail(format!("the extents {x} and {y} differ"))),
        (Some(x), None) | (None, Some(x)) => {
            let t = if a.is_leaf() { b } else { a };
            let size = crate::int_tuple::product(t.leaves())?;
            if size.value() != x.value() {
                return Err(fail(format!("{x} is not the size of {} ({size})", t.to_tree())));
            }
            out.push(t);
        }
        (None, None) if a.rank() != b.rank() => {
            return Err(fail(format!("{} and {} have ranks {} and {}", a.to_tree(), b.to_tree(), a.rank(), b.rank())))
        }
        (None, None) => {
            out.open();
            for (x, y) in a.children().zip(b.children()) {
                refine_into(out, x, y, fail)?;
            }
            out.close();
        }
    }
    Ok(())
}

/// PyCuTe `common_coarsening(A, B)`: the greatest shape that both `A` and `B`
/// refine (their meet under compatibility). Tuples of equal rank coarsen mode
/// by mode where every mode has one; otherwise the common coarsening is the
/// common size.
///
/// Pre: `size(A) == size(B)` (else a `Mismatch` error: no coarsening exists);
/// sizes fit in `i64` (else an `Overflow` error).
/// Post: `compatible(R, A)` and `compatible(R, B)`; symmetric in `A` and `B`;
/// `common_coarsening(A, A) == A`. An integer of the result is static when the
/// operands' integers it stands for all are.
///
/// ```
/// use kute::IntTuple;
/// let (a, b): (IntTuple, IntTuple) = ("(4,(3,5))".parse().unwrap(), "((2,2),15)".parse().unwrap());
/// assert_eq!(kute::common_coarsening(&a, &b).unwrap().to_string(), "(4,15)");
/// let (c, d): (IntTuple, IntTuple) = ("(2,(3,5))".parse().unwrap(), "((3,2),5)".parse().unwrap());
/// assert_eq!(kute::common_coarsening(&c, &d).unwrap().to_string(), "30");
/// ```
pub fn common_coarsening(a: &IntTuple, b: &IntTuple) -> Result<IntTuple> {
    crate::sym::refuse("common_coarsening", || a.has_symbols() || b.has_symbols())?;
    let op = "common_coarsening";
    match coarsen(a.as_ref(), b.as_ref()).map_err(|e| e.in_op(op))? {
        Some(c) => Ok(c),
        None => {
            let (sa, sb) = (a.size()?, b.size()?);
            Err(Error::mismatch(op, format!("{a} and {b} have different sizes ({sa} and {sb}): no common coarsening")))
        }
    }
}

/// The common coarsening, `None` where the sizes differ (so that an enclosing
/// pair of tuples falls back to its own size).
fn coarsen(a: crate::int_tuple::IntTupleRef<'_>, b: crate::int_tuple::IntTupleRef<'_>) -> Result<Option<IntTuple>> {
    if !a.is_leaf() && !b.is_leaf() && a.rank() == b.rank() {
        let mut modes = Vec::with_capacity(a.rank());
        for (x, y) in a.children().zip(b.children()) {
            match coarsen(x, y)? {
                Some(m) => modes.push(m),
                None => {
                    modes.clear();
                    break;
                }
            }
        }
        if modes.len() == a.rank() {
            return Ok(Some(crate::tree::Tree::tuple(modes.iter().map(|m| m.as_ref()))));
        }
    }
    let (sa, sb) = (crate::int_tuple::product(a.leaves())?, crate::int_tuple::product(b.leaves())?);
    if sa.value() != sb.value() {
        return Ok(None);
    }
    Ok(Some(IntTuple::leaf(Int::new(sa.value(), sa.is_static() && sb.is_static()))))
}
