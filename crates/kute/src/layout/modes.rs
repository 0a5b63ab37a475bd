//! Manipulating layouts (and tuples) like tuples: `get`, `select`, `take`,
//! `append`, `prepend`, `replace`, `group`, `flatten`, `unflatten`, `zip`,
//! `zip2_by` and `tile_unzip`; and CuTe's tuple utilities `front`, `back`,
//! `unwrap`, `wrap`, `tuple_cat`, `insert`, `remove`, `repeat_like`, `repeat`.
//!
//! The generic versions work on any [`Tree`], so they serve both [`IntTuple`]
//! and [`Layout`] (whose shape and stride share one structure).

use super::Layout;
use crate::error::{Error, Result};
use crate::int_tuple::IntTuple;
use crate::tree::{Buf, Tree, TreeRef};
use std::fmt::Display;

pub use crate::limits::{MAX_LEAVES, MAX_RANK};

fn check_leaves(op: &'static str, copies: usize, each: usize) -> Result<()> {
    if copies.saturating_mul(each) > MAX_LEAVES {
        return Err(Error::limit(
            op,
            format!("{copies} copies of {each} leaves exceed kute's limit of {MAX_LEAVES} leaves"),
        ));
    }
    Ok(())
}

fn check_rank(op: &'static str, n: usize) -> Result<()> {
    if n > MAX_RANK {
        return Err(Error::limit(op, format!("rank {n} exceeds kute's limit of {MAX_RANK} modes")));
    }
    Ok(())
}

fn out_of_range<T: Display>(op: &'static str, what: T, i: usize, rank: usize) -> Error {
    Error::mismatch(op, format!("index {i} out of range for {what} of rank {rank}"))
}

/// `select<I...>(t)`: the chosen modes, always as a tuple.
///
/// Pre: every index is below `rank(t)` (else a `Mismatch` error).
/// Post: a tuple of rank `idx.len()` whose mode `j` is mode `idx[j]` of `t`.
///
/// ```
/// use kute::{IntTuple, layout::modes};
/// let t: IntTuple = "(2,3,5)".parse().unwrap();
/// assert_eq!(modes::select(t.as_ref(), &[2, 0]).unwrap().to_string(), "(5,2)");
/// assert_eq!(modes::take(t.as_ref(), 1, 3).unwrap().to_string(), "(3,5)");
/// ```
pub fn select<L: Copy>(t: TreeRef<'_, L>, idx: &[usize]) -> Result<Tree<L>> {
    Tree::try_build(|b| {
        b.open();
        for &i in idx {
            let m = t.mode(i).ok_or_else(|| out_of_range("select", "operand", i, t.rank()))?;
            b.push(m);
        }
        b.close();
        Ok(())
    })
}

/// `take<B,E>(t)`: modes `[B, E)` as a tuple.
///
/// Pre: `begin <= end <= rank(t)` (else a `Mismatch` error).
/// Post: a tuple of rank `end - begin` holding modes `begin..end` of `t`.
///
/// ```
/// use kute::{IntTuple, layout::modes};
/// let t: IntTuple = "(2,3,5)".parse().unwrap();
/// assert!(modes::take(t.as_ref(), 1, 4).is_err());
/// ```
pub fn take<L: Copy>(t: TreeRef<'_, L>, begin: usize, end: usize) -> Result<Tree<L>> {
    if begin > end {
        return Err(Error::mismatch("take", format!("empty range [{begin},{end})")));
    }
    if end > t.rank() {
        return Err(Error::mismatch("take", format!("range [{begin},{end}) out of bounds for rank {}", t.rank())));
    }
    Tree::try_build(|b| {
        b.open();
        for m in t.modes().skip(begin).take(end - begin) {
            b.push(m);
        }
        b.close();
        Ok(())
    })
}

/// `append(t, x)`: `x` added as a new last mode (an integer `t` becomes `(t, x)`).
///
/// Pre: the result is within the limits of [`crate::limits`] (else a `Limit`
/// error). Post: a tuple of rank `rank(t) + 1`: the modes of `t`, then `x`.
///
/// ```
/// use kute::{IntTuple, layout::modes};
/// let t: IntTuple = "(2,3)".parse().unwrap();
/// let x: IntTuple = "(4,5)".parse().unwrap();
/// assert_eq!(modes::append(t.as_ref(), x.as_ref()).unwrap().to_string(), "(2,3,(4,5))");
/// assert_eq!(modes::prepend(t.as_ref(), x.as_ref()).unwrap().to_string(), "((4,5),2,3)");
/// ```
pub fn append<L: Copy>(t: TreeRef<'_, L>, x: TreeRef<'_, L>) -> Result<Tree<L>> {
    Tree::try_build(|b| {
        b.open();
        b.push_modes(t);
        b.push(x);
        b.close();
        Ok(())
    })
    .map_err(|e| e.in_op("append"))
}

/// `append<N>(t, x)`: pad `t` to rank `n` with copies of `x`; unchanged if already rank `n`.
///
/// Pre: `rank(t) <= n` (else a `Mismatch` error) and `n <= MAX_RANK` (else a
/// `Limit` error). Post: `t` itself when `n == rank(t)`, else a tuple of rank
/// `n`: the modes of `t`, then copies of `x`.
///
/// ```
/// use kute::{IntTuple, layout::modes};
/// let t: IntTuple = "2".parse().unwrap();
/// let one: IntTuple = "_1".parse().unwrap();
/// assert_eq!(modes::append_to(t.as_ref(), 3, one.as_ref()).unwrap().to_string(), "(2,_1,_1)");
/// assert_eq!(modes::prepend_to(t.as_ref(), 2, one.as_ref()).unwrap().to_string(), "(_1,2)");
/// ```
pub fn append_to<L: Copy>(t: TreeRef<'_, L>, n: usize, x: TreeRef<'_, L>) -> Result<Tree<L>> {
    pad_to(t, n, x, "append")
}

/// Pad `t` to rank `n` with copies of `x`, after its modes (`append`) or before them (`prepend`).
fn pad_to<L: Copy>(t: TreeRef<'_, L>, n: usize, x: TreeRef<'_, L>, op: &'static str) -> Result<Tree<L>> {
    check_rank(op, n)?;
    let r = t.rank();
    if n == r {
        return Ok(t.to_tree());
    }
    if n < r {
        return Err(Error::mismatch(op, format!("cannot {op} to rank {n}: operand already has rank {r}")));
    }
    check_leaves(op, n - r, x.leaves().len())?;
    let front = op == "prepend";
    Tree::try_build(|b| {
        b.open();
        if !front {
            b.push_modes(t);
        }
        for _ in r..n {
            b.push(x);
        }
        if front {
            b.push_modes(t);
        }
        b.close();
        Ok(())
    })
    .map_err(|e| e.in_op(op))
}

/// `prepend(t, x)`: `x` added as a new first mode (an integer `t` becomes `(x, t)`).
///
/// Pre: the result is within the limits of [`crate::limits`] (else a `Limit`
/// error). Post: a tuple of rank `rank(t) + 1`: `x`, then the modes of `t`.
///
/// ```
/// use kute::{IntTuple, layout::modes};
/// let t: IntTuple = "5".parse().unwrap();
/// let x: IntTuple = "(1,2)".parse().unwrap();
/// assert_eq!(modes::prepend(t.as_ref(), x.as_ref()).unwrap().to_string(), "((1,2),5)");
/// ```
pub fn prepend<L: Copy>(t: TreeRef<'_, L>, x: TreeRef<'_, L>) -> Result<Tree<L>> {
    Tree::try_build(|b| {
        b.open();
        b.push(x);
        b.push_modes(t);
        b.close();
        Ok(())
    })
    .map_err(|e| e.in_op("prepend"))
}

/// `prepend<N>(t, x)`: pad `t` to rank `n` with copies of `x` in front;
/// unchanged if already rank `n`.
///
/// Pre: `rank(t) <= n` (else a `Mismatch` error) and `n <= MAX_RANK` (else a
/// `Limit` error). Post: `t` itself when `n == rank(t)`, else a tuple of rank
/// `n`: copies of `x`, then the modes of `t`.
///
/// ```
/// use kute::{IntTuple, layout::modes};
/// let t: IntTuple = "(2,3)".parse().unwrap();
/// let z: IntTuple = "_0".parse().unwrap();
/// assert_eq!(modes::prepend_to(t.as_ref(), 4, z.as_ref()).unwrap().to_string(), "(_0,_0,2,3)");
/// assert!(modes::prepend_to(t.as_ref(), 1, z.as_ref()).is_err());
/// ```
pub fn prepend_to<L: Copy>(t: TreeRef<'_, L>, n: usize, x: TreeRef<'_, L>) -> Result<Tree<L>> {
    pad_to(t, n, x, "prepend")
}

/// `replace<N>(t, x)`: mode `n` replaced by `x` (on an integer only `n == 0`, giving `x`).
///
/// Pre: `n < rank(t)` (else a `Mismatch` error). Post: `t` with mode `n`
/// replaced by `x` (`x` itself for an integer `t`).
///
/// ```
/// use kute::{IntTuple, layout::modes};
/// let t: IntTuple = "(2,3,5)".parse().unwrap();
/// let x: IntTuple = "(7,7)".parse().unwrap();
/// assert_eq!(modes::replace(t.as_ref(), 1, x.as_ref()).unwrap().to_string(), "(2,(7,7),5)");
/// ```
pub fn replace<L: Copy>(t: TreeRef<'_, L>, n: usize, x: TreeRef<'_, L>) -> Result<Tree<L>> {
    if t.is_leaf() {
        if n == 0 {
            return Ok(x.to_tree());
        }
        return Err(out_of_range("replace", "operand", n, 1));
    }
    if n >= t.rank() {
        return Err(out_of_range("replace", "operand", n, t.rank()));
    }
    Tree::try_build(|b| {
        b.open();
        for (i, m) in t.children().enumerate() {
            b.push(if i == n { x } else { m });
        }
        b.close();
        Ok(())
    })
}

/// `group<B,E>(t)`: modes `[B, E)` grouped into one mode (`B == E` changes nothing).
///
/// Pre: `begin <= end <= rank(t)` (else a `Mismatch` error). Post: a tuple of
/// the modes of `t` with modes `begin..end` gathered into one tuple mode when
/// `begin < end` (rank `rank(t) - (end - begin) + 1`).
///
/// ```
/// use kute::{IntTuple, layout::modes};
/// let t: IntTuple = "(2,3,5,7)".parse().unwrap();
/// assert_eq!(modes::group(t.as_ref(), 1, 3).unwrap().to_string(), "(2,(3,5),7)");
/// assert_eq!(modes::group(t.as_ref(), 1, 1).unwrap().to_string(), "(2,3,5,7)");
/// ```
pub fn group<L: Copy>(t: TreeRef<'_, L>, begin: usize, end: usize) -> Result<Tree<L>> {
    let r = t.rank();
    if begin > end || end > r {
        return Err(Error::mismatch("group", format!("range [{begin},{end}) invalid for rank {r}")));
    }
    Tree::try_build(|b| {
        b.open();
        for (i, m) in t.modes().enumerate() {
            if i == begin && begin < end {
                b.open();
            }
            b.push(m);
            if i + 1 == end && begin < end {
                b.close();
            }
        }
        b.close();
        Ok(())
    })
}

/// `unflatten(flat, profile)`: refold the leaves of `flat` into the structure of `profile`.
///
/// Pre: `flat` is an integer or a flat tuple, with as many leaves as `profile`
/// (else a `Mismatch` error). Post: a tree congruent to `profile` whose leaves
/// are those of `flat`, in order.
///
/// ```
/// use kute::{IntTuple, layout::modes};
/// let t: IntTuple = "(2,3,5,7)".parse().unwrap();
/// let p: IntTuple = "(0,(0,0),0)".parse().unwrap();
/// assert_eq!(modes::unflatten(t.as_ref(), p.as_ref()).unwrap().to_string(), "(2,(3,5),7)");
/// ```
pub fn unflatten<L: Copy, M: Copy>(flat: TreeRef<'_, L>, profile: TreeRef<'_, M>) -> Result<Tree<L>> {
    if flat.leaves().len() != profile.leaves().len() || (!flat.is_leaf() && flat.depth() > 1) {
        return Err(Error::mismatch(
            "unflatten",
            format!(
                "a flat operand of {} leaves cannot take a profile of {} leaves",
                flat.leaves().len(),
                profile.leaves().len()
            ),
        ));
    }
    Ok(Tree { toks: Buf::from_slice(profile.toks), leaves: Buf::from_slice(flat.leaves()) })
}

/// `zip(t)`: transpose `((a0,a1),(b0,b1))` into `((a0,b0),(a1,b1))`. If the first
/// element is not a tuple, the result is `(t)`.
///
/// Pre: when the first mode of `t` is a tuple, every mode is a tuple of that
/// rank (else a `Mismatch` error). Post: the transpose, whose mode `j` gathers
/// mode `j` of each mode of `t`; `t` itself for an integer or `()`.
///
/// ```
/// use kute::{IntTuple, layout::modes};
/// let t: IntTuple = "((1,2),(3,4))".parse().unwrap();
/// assert_eq!(modes::zip(t.as_ref()).unwrap().to_string(), "((1,3),(2,4))");
/// ```
pub fn zip<L: Copy>(t: TreeRef<'_, L>) -> Result<Tree<L>> {
    if t.is_leaf() {
        return Ok(t.to_tree());
    }
    let first = match t.children().next() {
        Some(f) => f,
        None => return Ok(t.to_tree()),
    };
    if first.is_leaf() {
        return Ok(Tree::tuple([t]));
    }
    let r = first.rank();
    for c in t.children() {
        if c.is_leaf() || c.rank() != r {
            return Err(Error::mismatch("zip", "mismatched ranks among the zipped modes"));
        }
    }
    Tree::try_build(|b| {
        b.open();
        for j in 0..r {
            b.open();
            for c in t.children() {
                b.push(c.mode(j).expect("rank checked"));
            }
            b.close();
        }
        b.close();
        Ok(())
    })
}

/// CuTe `front(t)`: the first leaf, descending through first modes (a leaf is
/// its own front).
///
/// Pre: no tuple on the way is empty (else a `Mismatch` error).
/// Post: the leaf at path `(0, 0, ...)`.
///
/// ```
/// use kute::{IntTuple, layout::modes};
/// let t: IntTuple = "((2,3),(4,5))".parse().unwrap();
/// assert_eq!(modes::front(t.as_ref()).unwrap().to_string(), "2");
/// assert_eq!(modes::back(t.as_ref()).unwrap().to_string(), "5");
/// ```
pub fn front<L: Copy>(t: TreeRef<'_, L>) -> Result<L> {
    // the leaves are stored in order: the first one is the front, unless an
    // empty tuple comes first on the path
    let mut r = t;
    while !r.is_leaf() {
        r = r.children().next().ok_or_else(|| Error::mismatch("front", "an empty tuple has no front"))?;
    }
    r.as_leaf().ok_or_else(|| Error::mismatch("front", "an empty tuple has no front"))
}

/// CuTe `back(t)`: the last leaf, descending through last modes (a leaf is its
/// own back).
///
/// Pre: no tuple on the way is empty (else a `Mismatch` error).
/// Post: the leaf at path `(rank-1, ...)`.
///
/// ```
/// use kute::{IntTuple, layout::modes};
/// let t: IntTuple = "(2,(3,4))".parse().unwrap();
/// assert_eq!(modes::back(t.as_ref()).unwrap().to_string(), "4");
/// ```
pub fn back<L: Copy>(t: TreeRef<'_, L>) -> Result<L> {
    let mut r = t;
    while !r.is_leaf() {
        r = r.children().last().ok_or_else(|| Error::mismatch("back", "an empty tuple has no back"))?;
    }
    r.as_leaf().ok_or_else(|| Error::mismatch("back", "an empty tuple has no back"))
}

/// CuTe `unwrap(t)`: a tuple of one element is that element, repeatedly.
///
/// Pre: none. Post: `t` without its enclosing tuples of rank 1; not itself a
/// tuple of rank 1.
///
/// ```
/// use kute::{IntTuple, layout::modes};
/// let t: IntTuple = "(((3,4)))".parse().unwrap();
/// assert_eq!(modes::unwrap(t.as_ref()).to_string(), "(3,4)");
/// ```
pub fn unwrap<L: Copy>(t: TreeRef<'_, L>) -> Tree<L> {
    let mut r = t;
    while !r.is_leaf() && r.rank() == 1 {
        match r.children().next() {
            Some(c) => r = c,
            None => break,
        }
    }
    r.to_tree()
}

/// CuTe `wrap(t)`: a leaf becomes a tuple of one element; a tuple stays.
///
/// Pre: `t` is not nested deeper than kute's limit (else a `Limit` error).
/// Post: a tuple.
///
/// ```
/// use kute::{IntTuple, layout::modes};
/// let t: IntTuple = "3".parse().unwrap();
/// assert_eq!(modes::wrap(t.as_ref()).unwrap().to_string(), "(3)");
/// let u: IntTuple = "(3,4)".parse().unwrap();
/// assert_eq!(modes::wrap(u.as_ref()).unwrap(), u);
/// ```
pub fn wrap<L: Copy>(t: TreeRef<'_, L>) -> Result<Tree<L>> {
    if !t.is_leaf() {
        return Ok(t.to_tree());
    }
    let r = Tree::tuple([t]);
    crate::tree::check_depth(r.as_ref(), "wrap")?;
    Ok(r)
}

/// CuTe `tuple_cat(t0, t1, ...)`: the elements of the tuples, in order.
///
/// Pre: every part is a tuple (else a `Type` error).
/// Post: a tuple of rank `sum(rank(ti))`.
///
/// ```
/// use kute::{IntTuple, layout::modes};
/// let (a, b): (IntTuple, IntTuple) = ("(1,2)".parse().unwrap(), "(3,(4,5))".parse().unwrap());
/// assert_eq!(modes::tuple_cat(&[a.as_ref(), b.as_ref()]).unwrap().to_string(), "(1,2,3,(4,5))");
/// ```
pub fn tuple_cat<L: Copy>(parts: &[TreeRef<'_, L>]) -> Result<Tree<L>> {
    if parts.iter().any(|p| p.is_leaf()) {
        return Err(Error::new(crate::error::ErrorKind::Type, "tuple_cat", "every operand must be a tuple"));
    }
    Tree::try_build(|b| {
        b.open();
        for p in parts {
            b.push_modes(*p);
        }
        b.close();
        Ok(())
    })
    .map_err(|e| e.in_op("tuple_cat"))
}

/// CuTe `insert<N>(t, x)`: `x` as the new mode `N` of the tuple `t`.
///
/// Pre: `t` is a tuple (else a `Type` error) and `n <= rank(t)` (else a
/// `Mismatch` error); the result is not nested deeper than kute's limit.
/// Post: a tuple of rank `rank(t) + 1` whose mode `n` is `x`.
///
/// ```
/// use kute::{IntTuple, layout::modes};
/// let (t, x): (IntTuple, IntTuple) = ("(1,2,3)".parse().unwrap(), "9".parse().unwrap());
/// assert_eq!(modes::insert(t.as_ref(), 1, x.as_ref()).unwrap().to_string(), "(1,9,2,3)");
/// ```
pub fn insert<L: Copy>(t: TreeRef<'_, L>, n: usize, x: TreeRef<'_, L>) -> Result<Tree<L>> {
    if t.is_leaf() {
        return Err(Error::new(crate::error::ErrorKind::Type, "insert", "the operand must be a tuple"));
    }
    if n > t.rank() {
        return Err(out_of_range("insert", "a tuple", n, t.rank()));
    }
    let r = Tree::try_build(|b| {
        b.open();
        for (i, c) in t.children().enumerate() {
            if i == n {
                b.push(x);
            }
            b.push(c);
        }
        if n == t.rank() {
            b.push(x);
        }
        b.close();
        Ok(())
    })
    .map_err(|e| e.in_op("insert"))?;
    crate::tree::check_depth(r.as_ref(), "insert")?;
    Ok(r)
}

/// CuTe `remove<N>(t)`: the tuple `t` without its mode `N` (unchanged for
/// `N == rank(t)`, as in CuTe).
///
/// Pre: `t` is a tuple (else a `Type` error) and `n <= rank(t)` (else a
/// `Mismatch` error).
/// Post: a tuple of rank `rank(t) - 1`, or `t` when `n == rank(t)`.
///
/// ```
/// use kute::{IntTuple, layout::modes};
/// let t: IntTuple = "(1,2,3)".parse().unwrap();
/// assert_eq!(modes::remove(t.as_ref(), 1).unwrap().to_string(), "(1,3)");
/// assert_eq!(modes::remove(t.as_ref(), 3).unwrap(), t);
/// assert!(modes::remove(t.as_ref(), 4).is_err());
/// ```
pub fn remove<L: Copy>(t: TreeRef<'_, L>, n: usize) -> Result<Tree<L>> {
    if t.is_leaf() {
        return Err(Error::new(crate::error::ErrorKind::Type, "remove", "the operand must be a tuple"));
    }
    if n > t.rank() {
        return Err(out_of_range("remove", "a tuple", n, t.rank()));
    }
    Ok(Tree::build(|b| {
        b.open();
        for (i, c) in t.children().enumerate() {
            if i != n {
                b.push(c);
            }
        }
        b.close();
    }))
}

/// CuTe `repeat_like(t, x)`: `t`'s structure with `x` at every leaf.
///
/// Pre: the result is not nested deeper than kute's limit, and has at most
/// [`MAX_LEAVES`] leaves (else a `Limit` error).
/// Post: `t` with each leaf replaced by (a copy of) `x`.
///
/// ```
/// use kute::{IntTuple, layout::modes};
/// let (t, x): (IntTuple, IntTuple) = ("(2,(3,4))".parse().unwrap(), "7".parse().unwrap());
/// assert_eq!(modes::repeat_like(t.as_ref(), x.as_ref()).unwrap().to_string(), "(7,(7,7))");
/// ```
pub fn repeat_like<L: Copy, M: Copy>(t: TreeRef<'_, L>, x: TreeRef<'_, M>) -> Result<Tree<M>> {
    fn go<L: Copy, M: Copy>(b: &mut crate::tree::Builder<'_, M>, t: TreeRef<'_, L>, x: TreeRef<'_, M>) {
        if t.is_leaf() {
            b.push(x);
            return;
        }
        b.open();
        for c in t.children() {
            go(b, c, x);
        }
        b.close();
    }
    crate::tree::check_depth(t, "repeat_like")?;
    check_leaves("repeat_like", t.leaves().len(), x.leaves().len())?;
    let r = Tree::try_build(|b| {
        go(b, t, x);
        Ok(())
    })
    .map_err(|e| e.in_op("repeat_like"))?;
    crate::tree::check_depth(r.as_ref(), "repeat_like")?;
    Ok(r)
}

/// CuTe `repeat<N>(x)`: a tuple of `N` copies of `x` (`x` itself for `N = 1`).
///
/// Pre: `n` is at most [`MAX_RANK`], and the result has at most [`MAX_LEAVES`]
/// leaves (else a `Limit` error).
/// Post: `x` for `n == 1`, else a tuple of rank `n`.
///
/// ```
/// use kute::{IntTuple, layout::modes};
/// let x: IntTuple = "7".parse().unwrap();
/// assert_eq!(modes::repeat(3, x.as_ref()).unwrap().to_string(), "(7,7,7)");
/// assert_eq!(modes::repeat(1, x.as_ref()).unwrap(), x);
/// ```
pub fn repeat<L: Copy>(n: usize, x: TreeRef<'_, L>) -> Result<Tree<L>> {
    check_rank("repeat", n)?;
    check_leaves("repeat", n, x.leaves().len())?;
    if n == 1 {
        return Ok(x.to_tree());
    }
    let r = Tree::try_build(|b| {
        b.open();
        for _ in 0..n {
            b.push(x);
        }
        b.close();
        Ok(())
    })
    .map_err(|e| e.in_op("repeat"))?;
    crate::tree::check_depth(r.as_ref(), "repeat")?;
    Ok(r)
}

impl Layout {
    /// CuTe `select<I...>(L)`: the chosen modes, as a tuple layout.
    ///
    /// Pre: every index is below `rank()` (else a `Mismatch` error). Post: a
    /// tuple layout of rank `idx.len()` whose mode `j` is mode `idx[j]`.
    ///
    /// ```
    /// use kute::Layout;
    /// let l: Layout = "(_2,_3,_5,_7):(_1,_2,_6,_30)".parse().unwrap();
    /// assert_eq!(l.select(&[3, 0]).unwrap().to_string(), "(_7,_2):(_30,_1)");
    /// ```
    pub fn select(&self, idx: &[usize]) -> Result<Layout> {
        Ok(Layout { tree: select(self.tree.as_ref(), idx)? })
    }

    /// CuTe `take<B,E>(L)`: modes `[B, E)` as a tuple layout.
    ///
    /// Pre: `begin <= end <= rank()` (else a `Mismatch` error). Post: a tuple
    /// layout of rank `end - begin` holding modes `begin..end`.
    ///
    /// ```
    /// use kute::Layout;
    /// let l: Layout = "(_2,_3,_5,_7):(_1,_2,_6,_30)".parse().unwrap();
    /// assert_eq!(l.take(1, 3).unwrap().to_string(), "(_3,_5):(_2,_6)");
    /// ```
    pub fn take(&self, begin: usize, end: usize) -> Result<Layout> {
        Ok(Layout { tree: take(self.tree.as_ref(), begin, end)? })
    }

    /// CuTe `append(L, X)`.
    ///
    /// Pre: the result is nested at most [`MAX_DEPTH`](crate::tree::MAX_DEPTH)
    /// levels (else a `Limit` error). Post: the modes of `L`, then `X`.
    ///
    /// ```
    /// use kute::Layout;
    /// let a: Layout = "_3:_1".parse().unwrap();
    /// let x: Layout = "_4:_3".parse().unwrap();
    /// assert_eq!(a.append(&x).unwrap().to_string(), "(_3,_4):(_1,_3)");
    /// ```
    pub fn append(&self, x: &Layout) -> Result<Layout> {
        Layout { tree: append(self.tree.as_ref(), x.tree.as_ref())? }.checked("append")
    }

    /// CuTe `append<N>(L, X)`: pad to rank `n` with `x` (CuTe's default `x` is `_1:_0`).
    ///
    /// Pre: as [`append_to`]; the result is nested at most
    /// [`MAX_DEPTH`](crate::tree::MAX_DEPTH) levels (else a `Limit` error).
    /// Post: `L` itself at rank `n`, else the modes of `L` then copies of `x`, rank `n`.
    ///
    /// ```
    /// use kute::Layout;
    /// let a: Layout = "_3:_1".parse().unwrap();
    /// assert_eq!(a.append_to(3, &Layout::unit()).unwrap().to_string(), "(_3,_1,_1):(_1,_0,_0)");
    /// ```
    pub fn append_to(&self, n: usize, x: &Layout) -> Result<Layout> {
        Layout { tree: append_to(self.tree.as_ref(), n, x.tree.as_ref())? }.checked("append")
    }

    /// CuTe `prepend(L, X)`.
    ///
    /// Pre: the result is nested at most [`MAX_DEPTH`](crate::tree::MAX_DEPTH)
    /// levels (else a `Limit` error). Post: `X`, then the modes of `L`.
    ///
    /// ```
    /// use kute::Layout;
    /// let a: Layout = "_3:_1".parse().unwrap();
    /// let x: Layout = "_4:_3".parse().unwrap();
    /// assert_eq!(a.prepend(&x).unwrap().to_string(), "(_4,_3):(_3,_1)");
    /// ```
    pub fn prepend(&self, x: &Layout) -> Result<Layout> {
        Layout { tree: prepend(self.tree.as_ref(), x.tree.as_ref())? }.checked("prepend")
    }

    /// CuTe `prepend<N>(L, X)`.
    ///
    /// Pre: as [`prepend_to`]; the result is nested at most
    /// [`MAX_DEPTH`](crate::tree::MAX_DEPTH) levels (else a `Limit` error).
    /// Post: `L` itself at rank `n`, else copies of `x` then the modes of `L`, rank `n`.
    ///
    /// ```
    /// use kute::Layout;
    /// let a: Layout = "_3:_1".parse().unwrap();
    /// assert_eq!(a.prepend_to(3, &Layout::unit()).unwrap().to_string(), "(_1,_1,_3):(_0,_0,_1)");
    /// ```
    pub fn prepend_to(&self, n: usize, x: &Layout) -> Result<Layout> {
        Layout { tree: prepend_to(self.tree.as_ref(), n, x.tree.as_ref())? }.checked("prepend")
    }

    /// CuTe `replace<N>(L, X)`.
    ///
    /// Pre: `n < rank()` (else a `Mismatch` error); the result is nested at most
    /// [`MAX_DEPTH`](crate::tree::MAX_DEPTH) levels (else a `Limit` error).
    /// Post: `L` with mode `n` replaced by `X`.
    ///
    /// ```
    /// use kute::Layout;
    /// let a: Layout = "(_3,_4,(_3,_4)):(_1,_3,(_1,_3))".parse().unwrap();
    /// let x: Layout = "_4:_3".parse().unwrap();
    /// assert_eq!(a.replace(2, &x).unwrap().to_string(), "(_3,_4,_4):(_1,_3,_3)");
    /// ```
    pub fn replace(&self, n: usize, x: &Layout) -> Result<Layout> {
        Layout { tree: replace(self.tree.as_ref(), n, x.tree.as_ref())? }.checked("replace")
    }

    /// CuTe `group<B,E>(L)`.
    ///
    /// Pre: `begin <= end <= rank()` (else a `Mismatch` error); the result is
    /// nested at most [`MAX_DEPTH`](crate::tree::MAX_DEPTH) levels (else a `Limit`
    /// error). Post: as [`group`] on the layout's modes.
    ///
    /// ```
    /// use kute::Layout;
    /// let a: Layout = "(_2,_3,_5,_7):(_1,_2,_6,_30)".parse().unwrap();
    /// assert_eq!(a.group(0, 2).unwrap().to_string(), "((_2,_3),_5,_7):((_1,_2),_6,_30)");
    /// ```
    pub fn group(&self, begin: usize, end: usize) -> Result<Layout> {
        Layout { tree: group(self.tree.as_ref(), begin, end)? }.checked("group")
    }

    /// CuTe `flatten(L)`: every leaf becomes a top-level mode (an integral layout stays integral).
    ///
    /// Pre: none. Post: the same leaves in order, depth at most 1; the same function.
    ///
    /// ```
    /// use kute::Layout;
    /// let a: Layout = "((_2,_3),(_5,_7)):((_1,_2),(_6,_30))".parse().unwrap();
    /// assert_eq!(a.flatten().to_string(), "(_2,_3,_5,_7):(_1,_2,_6,_30)");
    /// ```
    pub fn flatten(&self) -> Layout {
        Layout { tree: self.tree.flatten() }
    }

    /// CuTe `unflatten(L, profile)`: refold a flat layout into the structure of `profile`.
    ///
    /// Pre: `L` is integral or flat, with as many leaves as `profile` (else a
    /// `Mismatch` error). Post: a layout congruent to `profile` with the leaves of
    /// `L` in order.
    ///
    /// ```
    /// use kute::{Layout, IntTuple};
    /// let a: Layout = "(_2,_3,_5,_7):(_1,_2,_6,_30)".parse().unwrap();
    /// let p: IntTuple = "(0,(0,0),0)".parse().unwrap();
    /// assert_eq!(a.unflatten(&p).unwrap().to_string(), "(_2,(_3,_5),_7):(_1,(_2,_6),_30)");
    /// ```
    pub fn unflatten(&self, profile: &IntTuple) -> Result<Layout> {
        Ok(Layout { tree: unflatten(self.tree.as_ref(), profile.as_ref())? })
    }

    /// CuTe `zip(L)`: transpose the modes of a rank-2-of-rank-k layout.
    ///
    /// Pre: as [`zip`]; the result is nested at most
    /// [`MAX_DEPTH`](crate::tree::MAX_DEPTH) levels (else a `Limit` error).
    /// Post: as [`zip`] on the layout's modes.
    ///
    /// ```
    /// use kute::Layout;
    /// let a: Layout = "((_2,_3),(_4,_5)):((_1,_2),(_6,_24))".parse().unwrap();
    /// assert_eq!(a.zip().unwrap().to_string(), "((_2,_4),(_3,_5)):((_1,_6),(_2,_24))");
    /// ```
    pub fn zip(&self) -> Result<Layout> {
        Layout { tree: zip(self.tree.as_ref())? }.checked("zip")
    }

    /// CuTe `zip(A, B)`.
    ///
    /// Pre: when `A` is a tuple, `B` is a tuple of the same rank (else a
    /// `Mismatch` error); nesting as [`Layout::zip`]. Post: `zip((A, B))`: mode
    /// `j` is `(A_j, B_j)`; `((A, B))` for an integral `A`.
    ///
    /// ```
    /// let a: kute::Layout = "_2:_1".parse().unwrap();
    /// let b: kute::Layout = "_3:_1".parse().unwrap();
    /// assert_eq!(a.zip_with(&b).unwrap().to_string(), "((_2,_3)):((_1,_1))");
    /// ```
    pub fn zip_with(&self, other: &Layout) -> Result<Layout> {
        let pair = Tree::tuple([self.tree.as_ref(), other.tree.as_ref()]);
        Layout { tree: zip(pair.as_ref())? }.checked("zip")
    }
}
