//! Compact strides: column-major, row-major, ordered, and prefix products.

use super::{product, IntTuple, IntTupleRef};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::tree::Tree;
use smallvec::SmallVec;

type Leaves = SmallVec<[Int; 16]>;

/// CuTe `compact_col_major(shape, current)`: exclusive prefix products of the
/// flattened leaves, left to right, starting at `current`. A leaf of size 1 gets
/// stride `_0` and does not advance the product.
///
/// Pre: the product of `current` and every extent other than 1 fits in `i64`
/// (else an `Overflow` error). Post: a tuple congruent to `shape` whose leaf `k`
/// is `current` times the extents (other than 1) before it, or `_0` where the
/// extent is 1.
///
/// ```
/// use kute::{IntTuple, Int, int_tuple::compact_col_major};
/// let s: IntTuple = "((_1,_2),_8,_2)".parse().unwrap();
/// assert_eq!(compact_col_major(s.as_ref(), Int::ONE).unwrap().to_string(), "((_0,_1),_2,_16)");
/// ```
pub fn compact_col_major(shape: IntTupleRef<'_>, current: Int) -> Result<IntTuple> {
    let mut cur = current;
    let mut out: Leaves = SmallVec::with_capacity(shape.leaves().len());
    for &s in shape.leaves() {
        // (a symbolic extent takes a stride: where it is 1 the stride is not
        // observed, and the layout is the same function)
        if !s.is_symbolic() && s.value() == 1 {
            out.push(Int::ZERO);
        } else {
            out.push(cur);
            cur = cur.mul(s).map_err(|e| e.in_op("compact_col_major"))?;
        }
    }
    Ok(shape.to_tree().with_leaves(out))
}

/// CuTe `compact_row_major(shape, current)`: as [`compact_col_major`], right to left.
///
/// Pre: as [`compact_col_major`]. Post: a tuple congruent to `shape` whose leaf
/// `k` is `current` times the extents (other than 1) after it, or `_0` where the
/// extent is 1.
///
/// ```
/// use kute::{IntTuple, Int, int_tuple::compact_row_major};
/// let s: IntTuple = "(_2,(_1,3),_4)".parse().unwrap();
/// assert_eq!(compact_row_major(s.as_ref(), Int::ONE).unwrap().to_string(), "(12,(_0,_4),_1)");
/// ```
pub fn compact_row_major(shape: IntTupleRef<'_>, current: Int) -> Result<IntTuple> {
    let mut cur = current;
    let n = shape.leaves().len();
    let mut out: Leaves = SmallVec::from_elem(Int::ZERO, n);
    for i in (0..n).rev() {
        let s = shape.leaves()[i];
        if s.is_symbolic() || s.value() != 1 {
            out[i] = cur;
            cur = cur.mul(s).map_err(|e| e.in_op("compact_row_major"))?;
        }
    }
    Ok(shape.to_tree().with_leaves(out))
}

/// Exclusive prefix products congruent to `t`, starting at `_1`:
/// `prefix_product((2,(3,4))) = (_1,(2,6))`. Unlike [`compact_col_major`], size-1
/// leaves get the running product.
///
/// Pre: the product of all leaves fits in `i64` (else an `Overflow` error).
/// Post: a tuple congruent to `t` whose leaf `k` is the product of the leaves
/// before it (`_1` for the first).
///
/// ```
/// use kute::{IntTuple, int_tuple::prefix_product};
/// let s: IntTuple = "(_2,(_3,_4))".parse().unwrap();
/// assert_eq!(prefix_product(s.as_ref()).unwrap().to_string(), "(_1,(_2,_6))");
/// ```
pub fn prefix_product(t: IntTupleRef<'_>) -> Result<IntTuple> {
    let mut cur = Int::ONE;
    let mut out: Leaves = SmallVec::with_capacity(t.leaves().len());
    for &s in t.leaves() {
        out.push(cur);
        cur = cur.mul(s).map_err(|e| e.in_op("prefix_product"))?;
    }
    Ok(t.to_tree().with_leaves(out))
}

/// CuTe `compact_order(shape, order)`: compact strides where modes with a smaller
/// order get smaller strides. `order` must be weakly congruent to `shape`.
/// Equal orders give overlapping strides, as in CuTe (`(_1,_1)` for `(4,8)`
/// with orders `(_5,_5)`); the compact layouts built from an order
/// ([`Layout::ordered`](crate::Layout::ordered), `make_layout_like`,
/// `make_fragment_like`) take equal orders left to right instead.
///
/// Pre: `order` is weakly congruent to `shape` (else a `Mismatch` error); the
/// products fit in `i64` (else an `Overflow` error).
/// Post: a tuple congruent to `shape`: the part of `shape` under each leaf of
/// `order` gets compact column-major strides starting at the product of the
/// sizes of the parts with a smaller order (dynamic order values count as
/// larger than every static one, left to right).
///
/// ```
/// use kute::{IntTuple, int_tuple::compact_order};
/// let s: IntTuple = "(_2,_3,_4)".parse().unwrap();
/// let o: IntTuple = "(_1,_0,_2)".parse().unwrap();
/// assert_eq!(compact_order(s.as_ref(), o.as_ref()).unwrap().to_string(), "(_3,_1,_6)");
/// ```
pub fn compact_order(shape: IntTupleRef<'_>, order: IntTupleRef<'_>) -> Result<IntTuple> {
    crate::sym::refuse("compact_order", || shape.has_symbols() || order.has_symbols())?;
    order_strides(shape, order, false)
}

/// [`compact_order`] with equal orders taken left to right (`distinct`), so
/// that the strides are compact: CuTe documents `make_ordered_layout` as "a
/// compact layout", and PyCuTe breaks ties this way.
///
/// Pre: as [`compact_order`]. Post: as [`compact_order`]; with `distinct`,
/// the layout of `shape` with these strides is compact (a bijection onto
/// `[0, size)`).
pub(crate) fn order_strides(shape: IntTupleRef<'_>, order: IntTupleRef<'_>, distinct: bool) -> Result<IntTuple> {
    let op = "compact_order";
    // Each leaf of `order` owns a subtree of `shape`.
    let mut groups: SmallVec<[(IntTupleRef<'_>, Int); 16]> = SmallVec::new();
    fn pair<'a>(
        s: IntTupleRef<'a>,
        o: IntTupleRef<'_>,
        out: &mut SmallVec<[(IntTupleRef<'a>, Int); 16]>,
    ) -> Result<()> {
        if let Some(x) = o.as_leaf() {
            out.push((s, x));
            return Ok(());
        }
        if s.is_leaf() || s.rank() != o.rank() {
            return Err(Error::mismatch("compact_order", format!("order {o} is not weakly congruent to shape {s}")));
        }
        for (a, b) in s.children().zip(o.children()) {
            pair(a, b, out)?;
        }
        Ok(())
    }
    pair(shape, order, &mut groups)?;
    // Dynamic order values rank after all static ones, left to right.
    let max_static = groups.iter().filter(|g| g.1.is_static()).map(|g| g.1.value()).max().unwrap_or(0).max(0);
    let keys: SmallVec<[i64; 16]> = groups
        .iter()
        .enumerate()
        .map(|(j, g)| match g.1.is_static() {
            true => Ok(g.1.value()),
            false => max_static.checked_add(1 + j as i64).ok_or_else(|| {
                Error::overflow(format_args!("ranking the order {order} after its largest value")).in_op(op)
            }),
        })
        .collect::<Result<_>>()?;
    let sizes: Leaves = groups.iter().map(|g| product(g.0.leaves())).collect::<Result<_>>()?;
    // the parts in increasing order, equal orders left to right: each starts
    // at the product of the sizes before it (of those with a smaller order,
    // unless `distinct`); a sort, n log n in the rank
    let mut by_order: SmallVec<[usize; 16]> = (0..groups.len()).collect();
    by_order.sort_by_key(|&j| (keys[j], j));
    let mut starts: Leaves = SmallVec::from_elem(Int::ONE, groups.len());
    let (mut cur, mut tied) = (Int::ONE, Int::ONE);
    for (n, &j) in by_order.iter().enumerate() {
        let tie = n > 0 && keys[by_order[n - 1]] == keys[j];
        if !distinct && tie {
            // a tie starts where the first of its equals started
            starts[j] = tied;
        } else {
            starts[j] = cur;
            tied = cur;
        }
        if n + 1 < by_order.len() {
            cur = cur.mul(sizes[j]).map_err(|e| e.in_op(op))?;
        }
    }
    let mut leaves: Leaves = SmallVec::with_capacity(shape.leaves().len());
    for (g, &start) in groups.iter().zip(&starts) {
        let strides = compact_col_major(g.0, start)?;
        leaves.extend_from_slice(strides.leaves());
    }
    Ok(shape.to_tree().with_leaves(leaves))
}

impl Tree<Int> {
    /// Compact column-major strides for this shape (CuTe `LayoutLeft`).
    ///
    /// Pre: as [`compact_col_major`]. Post: `compact_col_major(self, _1)`.
    ///
    /// ```
    /// let s: kute::IntTuple = "(2,3)".parse().unwrap();
    /// assert_eq!(s.col_major().unwrap().to_string(), "(_1,2)");
    /// ```
    pub fn col_major(&self) -> Result<IntTuple> {
        compact_col_major(self.as_ref(), Int::ONE)
    }
}
