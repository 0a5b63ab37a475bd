//! Conversions between coordinates and indices.

use super::{product, IntTuple, IntTupleRef};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::tree::{Builder, Tree};

/// CuTe `idx2crd(idx, shape)`: the natural (hierarchical) coordinate of `idx`,
/// colexicographic. The last mode at each level is not reduced, so indices past
/// the size extend it. A tuple `idx` converts mode by mode.
///
/// Pre: a tuple `idx` matches `shape`'s structure down to its integers (else a
/// `Mismatch` error); each extent an integer is divided by is not 0 (else a
/// `DivisionByZero` error); sizes fit in `i64` (else an `Overflow` error).
/// Post: a coordinate congruent to `shape` with `crd2idx_compact(result, shape)
/// == idx` (for an integer `idx`).
///
/// ```
/// use kute::{IntTuple, int_tuple::idx2crd};
/// let s: IntTuple = "(3,(2,3))".parse().unwrap();
/// let i: IntTuple = "20".parse().unwrap();
/// assert_eq!(idx2crd(i.as_ref(), s.as_ref()).unwrap().to_string(), "(2,(0,3))");
/// ```
pub fn idx2crd(idx: IntTupleRef<'_>, shape: IntTupleRef<'_>) -> Result<IntTuple> {
    Tree::try_build(|out| {
        idx2crd_into(out, idx, shape).map_err(|e| e.in_op_over_arith("idx2crd"))?;
        Ok(())
    })
}

/// CuTe `idx2crd(idx, shape, stride)`: the coordinate of `idx` under the
/// strides `stride`, mode by mode `(idx / d) % s` (an extent 1 gives 0
/// without dividing, as CuTe for a static one). An integer `stride` with a tuple `shape`
/// stands for `compact_col_major(shape, stride)`; a tuple `idx` converts mode
/// by mode.
///
/// Pre: `idx`, `shape` and `stride` have matching ranks where they are tuples,
/// and `shape` is a tuple where `idx` is (else a `Mismatch` error); no stride
/// or extent divided by is 0 where the extent is not 1 (else a
/// `DivisionByZero` error).
/// Post: a coordinate congruent to `shape`.
///
/// ```
/// use kute::{IntTuple, int_tuple::idx2crd_strided};
/// let [i, s, d]: [IntTuple; 3] = ["8", "(3,4)", "(1,3)"].map(|t| t.parse().unwrap());
/// assert_eq!(idx2crd_strided(i.as_ref(), s.as_ref(), d.as_ref()).unwrap().to_string(), "(2,2)");
/// ```
pub fn idx2crd_strided(idx: IntTupleRef<'_>, shape: IntTupleRef<'_>, stride: IntTupleRef<'_>) -> Result<IntTuple> {
    fn go(out: &mut Builder<'_, Int>, i: IntTupleRef<'_>, s: IntTupleRef<'_>, d: IntTupleRef<'_>) -> Result<()> {
        let ranks = |what: &str| Error::mismatch("idx2crd", format!("{what}: index {i}, shape {s}, stride {d}"));
        match (i.as_leaf(), s.as_leaf(), d.as_leaf()) {
            (None, None, None) => {
                if i.rank() != s.rank() || i.rank() != d.rank() {
                    return Err(ranks("mismatched ranks"));
                }
                out.open();
                for ((a, b), c) in i.children().zip(s.children()).zip(d.children()) {
                    go(out, a, b, c)?;
                }
                out.close();
                Ok(())
            }
            (None, _, _) => Err(ranks("a tuple index needs tuple shape and stride")),
            (Some(_), None, None) => {
                if s.rank() != d.rank() {
                    return Err(ranks("mismatched ranks"));
                }
                out.open();
                for (b, c) in s.children().zip(d.children()) {
                    go(out, i, b, c)?;
                }
                out.close();
                Ok(())
            }
            (Some(_), None, Some(d0)) => {
                let compact = super::compact_col_major(s, d0)?;
                go(out, i, s, compact.as_ref())
            }
            (Some(_), Some(_), None) => Err(ranks("an integer shape needs an integer stride")),
            (Some(x), Some(e), Some(f)) => {
                // an extent 1 is decided by value, as CuTe decides a static one:
                // the coordinate is 0, with no division (its stride may be 0); a
                // symbolic extent divides, as CuTe's run-time one (where the facts
                // decide the quotient and the remainder, else an error naming the fact)
                if !e.is_symbolic() && e.value() == 1 {
                    out.leaf(if e.is_static() { Int::ZERO } else { Int::new_dynamic(0) });
                } else {
                    out.leaf(x.div(f)?.rem(e)?);
                }
                Ok(())
            }
        }
    }
    Tree::try_build(|out| go(out, idx, shape, stride).map_err(|e| e.in_op_over_arith("idx2crd")))
}

fn idx2crd_into(out: &mut Builder<'_, Int>, idx: IntTupleRef<'_>, shape: IntTupleRef<'_>) -> Result<()> {
    match idx.as_leaf() {
        None => {
            if shape.is_leaf() || shape.rank() != idx.rank() {
                return Err(Error::mismatch("", format!("coordinate {idx} does not match shape {shape}")));
            }
            out.open();
            for (c, s) in idx.children().zip(shape.children()) {
                idx2crd_into(out, c, s)?;
            }
            out.close();
        }
        Some(i) => split_index(out, i, shape)?,
    }
    Ok(())
}

fn split_index(out: &mut Builder<'_, Int>, mut i: Int, shape: IntTupleRef<'_>) -> Result<()> {
    if shape.is_leaf() {
        out.leaf(i);
        return Ok(());
    }
    out.open();
    let r = shape.rank();
    for (k, s) in shape.children().enumerate() {
        if k + 1 == r {
            split_index(out, i, s)?;
        } else {
            let n = product(s.leaves())?;
            split_index(out, i.rem(n)?, s)?;
            i = i.div(n)?;
        }
    }
    out.close();
    Ok(())
}

/// CuTe `crd2idx(coord, shape, stride)`: the index of a coordinate. A tuple
/// coordinate sums its modes; an integer coordinate is split colexicographically
/// across the modes (the last mode unreduced), then multiplied by the strides.
///
/// Pre: `shape` and `stride` are congruent, and a tuple `coord` matches
/// `shape`'s structure down to its integers (else a `Mismatch` error); an extent
/// an integer is split by is not 0 (else a `DivisionByZero` error); the
/// arithmetic fits in `i64` (else an `Overflow` error).
/// Post: `Σ c_k · d_k` over the leaves, `c` the natural coordinate of `coord`.
///
/// ```
/// use kute::{IntTuple, int_tuple::crd2idx};
/// let s: IntTuple = "(_3,(_2,_3))".parse().unwrap();
/// let d: IntTuple = "(_3,(_12,_1))".parse().unwrap();
/// let c: IntTuple = "20".parse().unwrap();
/// assert_eq!(crd2idx(c.as_ref(), s.as_ref(), d.as_ref()).unwrap().value(), 9);
/// ```
pub fn crd2idx(coord: IntTupleRef<'_>, shape: IntTupleRef<'_>, stride: IntTupleRef<'_>) -> Result<Int> {
    if !shape.congruent(stride) {
        return Err(Error::mismatch("crd2idx", format!("shape {shape} and stride {stride} are not congruent")));
    }
    crd2idx_rec(coord, shape, stride).map_err(|e| e.in_op_over_arith("crd2idx"))
}

pub(crate) fn crd2idx_rec(coord: IntTupleRef<'_>, shape: IntTupleRef<'_>, stride: IntTupleRef<'_>) -> Result<Int> {
    match coord.as_leaf() {
        None => {
            if shape.is_leaf() || shape.rank() != coord.rank() {
                return Err(Error::mismatch("", format!("coordinate {coord} does not match shape {shape}")));
            }
            let mut acc = Int::ZERO;
            for ((c, s), d) in coord.children().zip(shape.children()).zip(stride.children()) {
                acc = acc.add(crd2idx_rec(c, s, d)?)?;
            }
            Ok(acc)
        }
        Some(c) => index_flat(c, shape.leaves(), stride.leaves()),
    }
}

/// Evaluate an integer coordinate against flattened shape and stride: every
/// leaf but the last is reduced modulo its extent; the last takes the quotient.
/// This equals CuTe's hierarchical splitting.
#[inline]
pub(crate) fn index_flat(mut c: Int, shape: &[Int], stride: &[Int]) -> Result<Int> {
    let n = shape.len();
    // CuTe's crd2idx of a static 0 is a static 0, whatever the shape (its own branch)
    if n == 0 || (c.is_static() && c.value() == 0) {
        return Ok(Int::ZERO);
    }
    let mut acc = Int::ZERO;
    for k in 0..n - 1 {
        let s = shape[k];
        acc = acc.add(c.rem(s)?.mul(stride[k])?)?;
        c = c.div(s)?;
    }
    acc.add(c.mul(stride[n - 1])?)
}

/// CuTe `crd2idx(coord, shape)`: the colexicographic 1-D index of a coordinate
/// (compact column-major strides).
///
/// Pre: as [`crd2idx`] (with the strides `prefix_product(shape)`).
/// Post: `crd2idx(coord, shape, prefix_product(shape))`.
///
/// ```
/// use kute::{IntTuple, int_tuple::crd2idx_compact};
/// let s: IntTuple = "(_3,(_2,_3))".parse().unwrap();
/// let c: IntTuple = "(1,5)".parse().unwrap();
/// assert_eq!(crd2idx_compact(c.as_ref(), s.as_ref()).unwrap().value(), 16);
/// ```
pub fn crd2idx_compact(coord: IntTupleRef<'_>, shape: IntTupleRef<'_>) -> Result<Int> {
    let stride = super::prefix_product(shape)?;
    crd2idx(coord, shape, stride.as_ref())
}

/// CuTe `crd2crd(coord, src_shape, dst_shape)`: re-express a coordinate of one
/// shape as a coordinate of another of the same size.
///
/// Pre: where `coord`, `src` and `dst` are all tuples they have equal ranks
/// (else a `Mismatch` error); otherwise as [`crd2idx_compact`] and [`idx2crd`].
/// Post: `idx2crd(crd2idx_compact(coord, src), dst)`, mode by mode where all
/// three are tuples.
///
/// ```
/// use kute::{IntTuple, int_tuple::crd2crd};
/// let c: IntTuple = "(1,2)".parse().unwrap();
/// let a: IntTuple = "(2,3)".parse().unwrap();
/// let b: IntTuple = "6".parse().unwrap();
/// assert_eq!(crd2crd(c.as_ref(), a.as_ref(), b.as_ref()).unwrap().to_string(), "5");
/// ```
pub fn crd2crd(coord: IntTupleRef<'_>, src: IntTupleRef<'_>, dst: IntTupleRef<'_>) -> Result<IntTuple> {
    if !coord.is_leaf() && !src.is_leaf() && !dst.is_leaf() {
        if coord.rank() != src.rank() || src.rank() != dst.rank() {
            return Err(Error::mismatch("crd2crd", format!("ranks of {coord}, {src} and {dst} differ")));
        }
        return Tree::try_build(|b| {
            b.open();
            for ((c, s), d) in coord.children().zip(src.children()).zip(dst.children()) {
                b.push(crd2crd(c, s, d)?.as_ref());
            }
            b.close();
            Ok(())
        });
    }
    let i = crd2idx_compact(coord, src).map_err(|e| e.in_op("crd2crd"))?;
    idx2crd(IntTuple::leaf(i).as_ref(), dst)
}

/// CuTe's coordinate increment (`detail::increment(coord, shape)`, the step of
/// its coordinate iterators), as a pure function: the next coordinate of `c`
/// in `shape`, colexicographically. The first integer is incremented; each
/// integer that reaches its extent is reset to 0 and carries into the next;
/// the last is never reset (past the end it reaches its extent).
///
/// Pre: `c` is congruent to `shape` (else a `Mismatch` error); no integer
/// overflows (else an `Overflow` error).
/// Post: a run-time coordinate congruent to `shape`; for `c = idx2crd(i, shape)`
/// with `i + 1 < size(shape)`, `idx2crd(i + 1, shape)` (by value).
///
/// ```
/// use kute::{IntTuple, int_tuple::increment};
/// let s: IntTuple = "(2,(2,3))".parse().unwrap();
/// let c: IntTuple = "(1,(1,0))".parse().unwrap();
/// assert_eq!(increment(c.as_ref(), s.as_ref()).unwrap().to_string(), "(0,(0,1))");
/// ```
pub fn increment(c: IntTupleRef<'_>, shape: IntTupleRef<'_>) -> Result<IntTuple> {
    crate::sym::refuse("increment", || c.has_symbols() || shape.has_symbols())?;
    if !c.congruent(shape) {
        return Err(Error::mismatch("increment", format!("coordinate {c} is not congruent to shape {shape}")));
    }
    let mut v: Vec<i64> = c.leaves().iter().map(|x| x.value()).collect();
    let s: Vec<i64> = shape.leaves().iter().map(|x| x.value()).collect();
    let overflow = || Error::overflow(format_args!("incrementing {c} in {shape}")).in_op("increment");
    if let Some(first) = v.first_mut() {
        *first = first.checked_add(1).ok_or_else(overflow)?;
    }
    for i in 1..v.len() {
        if v[i - 1] == s[i - 1] {
            v[i - 1] = 0;
            v[i] = v[i].checked_add(1).ok_or_else(overflow)?;
        }
    }
    Ok(c.to_tree().with_leaves(v.into_iter().map(Int::new_dynamic)))
}
