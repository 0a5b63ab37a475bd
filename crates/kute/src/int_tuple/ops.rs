//! Arithmetic and comparison of `IntTuple`s.

use super::{product, IntTuple, IntTupleRef};
use crate::error::{Error, Result};
use crate::int::{Bool, Int};
use crate::tree::{Builder, Tree};

fn sbool(value: bool) -> Bool {
    Bool { value, is_static: true }
}

/// Same profile (tuple structure) — CuTe `congruent`. Always static.
///
/// Pre: none. Post: a static [`Bool`], `true` iff `a` and `b` have the same
/// tuple structure (values are not compared).
///
/// ```
/// use kute::{IntTuple, int_tuple::congruent};
/// let a: IntTuple = "(2,(3,4))".parse().unwrap();
/// let b: IntTuple = "(5,(6,7))".parse().unwrap();
/// assert!(congruent(a.as_ref(), b.as_ref()).value);
/// ```
pub fn congruent(a: IntTupleRef<'_>, b: IntTupleRef<'_>) -> Bool {
    sbool(a.congruent(b))
}

/// CuTe `weakly_congruent(a, b)`: an integer in `a` matches any subtree of `b`;
/// tuples must have equal rank and be weakly congruent mode by mode.
///
/// Pre: none. Post: a static [`Bool`] with the answer.
///
/// ```
/// use kute::{IntTuple, int_tuple::weakly_congruent};
/// let a: IntTuple = "(2,3)".parse().unwrap();
/// let b: IntTuple = "((2,2),(3,1))".parse().unwrap();
/// assert!(weakly_congruent(a.as_ref(), b.as_ref()).value);
/// assert!(!weakly_congruent(b.as_ref(), a.as_ref()).value);
/// ```
pub fn weakly_congruent(a: IntTupleRef<'_>, b: IntTupleRef<'_>) -> Bool {
    fn go(a: IntTupleRef<'_>, b: IntTupleRef<'_>) -> bool {
        if a.is_leaf() {
            return true;
        }
        if b.is_leaf() || a.rank() != b.rank() {
            return false;
        }
        a.children().zip(b.children()).all(|(x, y)| go(x, y))
    }
    sbool(go(a, b))
}

/// CuTe `compatible(a, b)`: every integer of `a` equals the size of the matching
/// subtree of `b`, and tuples pair with tuples of equal rank.
///
/// Pre: the sizes of the subtrees of `b` compared fit in `i64` (else an
/// `Overflow` error). Post: the answer; static when it is `false`, or when every
/// integer compared (and every size) is static.
///
/// ```
/// use kute::{IntTuple, int_tuple::compatible};
/// let a: IntTuple = "24".parse().unwrap();
/// let b: IntTuple = "(4,6)".parse().unwrap();
/// assert!(compatible(a.as_ref(), b.as_ref()).unwrap().value);
/// ```
pub fn compatible(a: IntTupleRef<'_>, b: IntTupleRef<'_>) -> Result<Bool> {
    crate::sym::refuse("compatible", || a.has_symbols() || b.has_symbols())?;
    let mut is_static = true;
    fn go(a: IntTupleRef<'_>, b: IntTupleRef<'_>, st: &mut bool) -> Result<bool> {
        if let Some(x) = a.as_leaf() {
            let s = product(b.leaves())?;
            *st &= x.is_static() && s.is_static();
            return Ok(x.value() == s.value());
        }
        if b.is_leaf() || a.rank() != b.rank() {
            return Ok(false);
        }
        for (x, y) in a.children().zip(b.children()) {
            if !go(x, y, st)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
    let value = go(a, b, &mut is_static).map_err(|e| e.in_op("compatible"))?;
    Ok(Bool { value, is_static: is_static || !value })
}

/// CuTe's (pre-3.6) `weakly_compatible(a, b)`: each integer of `a` divides the
/// size of the matching subtree of `b`.
///
/// Pre: the sizes of the subtrees of `b` compared fit in `i64` (else an
/// `Overflow` error). Post: the answer (`false` where an integer of `a` is 0),
/// static when every leaf of `a` and `b` is.
///
/// ```
/// use kute::{IntTuple, int_tuple::weakly_compatible};
/// let a: IntTuple = "(2,3)".parse().unwrap();
/// let b: IntTuple = "(4,(3,2))".parse().unwrap();
/// assert!(weakly_compatible(a.as_ref(), b.as_ref()).unwrap().value);
/// ```
pub fn weakly_compatible(a: IntTupleRef<'_>, b: IntTupleRef<'_>) -> Result<Bool> {
    crate::sym::refuse("weakly_compatible", || a.has_symbols() || b.has_symbols())?;
    fn go(a: IntTupleRef<'_>, b: IntTupleRef<'_>) -> Result<bool> {
        if let Some(x) = a.as_leaf() {
            let s = product(b.leaves())?;
            if x.value() == 0 {
                return Ok(false);
            }
            return Ok(s.value().wrapping_rem(x.value()) == 0);
        }
        if b.is_leaf() || a.rank() != b.rank() {
            return Ok(false);
        }
        for (x, y) in a.children().zip(b.children()) {
            if !go(x, y)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
    let value = go(a, b).map_err(|e| e.in_op("weakly_compatible"))?;
    let is_static = a.leaves().iter().chain(b.leaves()).all(|x| x.is_static());
    Ok(Bool { value, is_static })
}

/// CuTe `inner_product(a, b)`: sum of products of matching leaves.
///
/// Pre: `a` and `b` are congruent (else a `Mismatch` error); the products and
/// the sum fit in `i64` (else an `Overflow` error). Post: `Σ a_k · b_k`.
///
/// ```
/// use kute::{IntTuple, int_tuple::inner_product};
/// let a: IntTuple = "(2,(3,4))".parse().unwrap();
/// let b: IntTuple = "(1,(2,3))".parse().unwrap();
/// assert_eq!(inner_product(a.as_ref(), b.as_ref()).unwrap().value(), 20);
/// ```
pub fn inner_product(a: IntTupleRef<'_>, b: IntTupleRef<'_>) -> Result<Int> {
    if !a.congruent(b) {
        return Err(Error::mismatch("inner_product", format!("operands {a} and {b} are not congruent")));
    }
    let mut s = Int::ZERO;
    for (x, y) in a.leaves().iter().zip(b.leaves()) {
        s = s.add(x.mul(*y)?)?;
    }
    Ok(s)
}

/// CuTe `product_each(t)`: the size of each mode, as a tuple (an integer becomes `(n)`).
///
/// Pre: each mode's size fits in `i64` (else an `Overflow` error).
/// Post: a flat tuple of rank `rank(t)` whose leaf `i` is the size of mode `i`.
///
/// ```
/// use kute::{IntTuple, int_tuple::product_each};
/// let t: IntTuple = "(_2,(_3,4))".parse().unwrap();
/// assert_eq!(product_each(t.as_ref()).unwrap().to_string(), "(_2,12)");
/// ```
pub fn product_each(t: IntTupleRef<'_>) -> Result<IntTuple> {
    Tree::try_build(|b| {
        b.open();
        for m in t.modes() {
            b.leaf(product(m.leaves())?);
        }
        b.close();
        Ok(())
    })
}

fn shape_div_int(a: Int, b: Int) -> Result<Int> {
    // one must divide the other (for symbols: decided by the facts, or an
    // error naming the divisibility needed)
    let zero = Int::ZERO;
    if b.decide_eq(zero, "shape_div")? {
        return Err(Error::inadmissible("shape_div", format!("division of {a} by zero")));
    }
    let b_divides_a = b.decide_divides(a, "shape_div");
    let a_divides_b = a.decide_eq(zero, "shape_div").and_then(|z| Ok(!z && a.decide_divides(b, "shape_div")?));
    let ok = crate::int::either(b_divides_a, a_divides_b)?;
    if !ok {
        return Err(Error::inadmissible(
            "shape_div",
            format!("{a} and {b} fail the divisibility condition (one must divide the other)"),
        ));
    }
    a.ceil_div(b)
}

/// CuTe `shape_div(a, b)`: `a` divided by `b` where one divides the other,
/// folding an integer divisor across a tuple left to right.
///
/// Errors when neither of a pair of integers divides the other (CuTe's
/// "Divisibility Condition").
///
/// Pre: each pair of integers divided has a non-zero divisor and one of them
/// divides the other (else an `Inadmissible` error); two tuples have equal
/// ranks (else a `Mismatch` error); sizes fit in `i64` (else an `Overflow`
/// error).
/// Post: a tuple congruent to `a` (an integer for an integer `a`); a pair of
/// integers gives `ceil_div(x, y)`, for positive integers `x / y` where `y`
/// divides `x` and 1 where `x` divides `y`.
///
/// ```
/// use kute::{IntTuple, int_tuple::shape_div};
/// let a: IntTuple = "(4,5,6)".parse().unwrap();
/// let b: IntTuple = "40".parse().unwrap();
/// assert_eq!(shape_div(a.as_ref(), b.as_ref()).unwrap().to_string(), "(1,1,3)");
/// ```
pub fn shape_div(a: IntTupleRef<'_>, b: IntTupleRef<'_>) -> Result<IntTuple> {
    div_like(a, b, shape_div_int, true).map_err(|e| e.in_op("shape_div"))
}

/// CuTe `ceil_div(a, b)` on tuples: elementwise for tuples (missing modes of `b`
/// count as 1), a fold across `a` for an integer `b`, `ceil_div(a, size(b))` for
/// an integer `a`.
///
/// Pre: `rank(b) <= rank(a)` for two tuples (else a `Mismatch` error); no
/// divisor is 0 (else a `DivisionByZero` error); the arithmetic fits in `i64`
/// (else an `Overflow` error). Post: a tuple congruent to `a` (an integer for an
/// integer `a`).
///
/// ```
/// use kute::{IntTuple, int_tuple::ceil_div};
/// let a: IntTuple = "(_4,_5,_6)".parse().unwrap();
/// let b: IntTuple = "_7".parse().unwrap();
/// assert_eq!(ceil_div(a.as_ref(), b.as_ref()).unwrap().to_string(), "(_1,_3,_6)");
/// ```
pub fn ceil_div(a: IntTupleRef<'_>, b: IntTupleRef<'_>) -> Result<IntTuple> {
    div_like(a, b, |x, y| x.ceil_div(y), false).map_err(|e| e.in_op("ceil_div"))
}

fn div_like(
    a: IntTupleRef<'_>,
    b: IntTupleRef<'_>,
    f: fn(Int, Int) -> Result<Int>,
    equal_rank: bool,
) -> Result<IntTuple> {
    Tree::try_build(|out| {
        div_into(out, a, b, f, equal_rank)?;
        Ok(())
    })
}

fn div_into(
    out: &mut Builder<'_, Int>,
    a: IntTupleRef<'_>,
    b: IntTupleRef<'_>,
    f: fn(Int, Int) -> Result<Int>,
    equal_rank: bool,
) -> Result<()> {
    match (a.as_leaf(), b.as_leaf()) {
        (Some(x), Some(y)) => {
            out.leaf(f(x, y)?);
        }
        (Some(x), None) => {
            out.leaf(f(x, product(b.leaves())?)?);
        }
        (None, Some(mut rest)) => {
            out.open();
            for m in a.children() {
                let sub = div_like(m, Tree::leaf(rest).as_ref(), f, equal_rank)?;
                out.push(sub.as_ref());
                let sm = product(m.leaves())?;
                rest = f(rest, sm)?;
            }
            out.close();
        }
        (None, None) => {
            if (equal_rank && a.rank() != b.rank()) || a.rank() < b.rank() {
                return Err(Error::mismatch("", format!("ranks of {a} and {b} do not match")));
            }
            out.open();
            let mut bs = b.children();
            for m in a.children() {
                match bs.next() {
                    Some(y) => div_into(out, m, y, f, equal_rank)?,
                    None => out.push(m),
                }
            }
            out.close();
        }
    }
    Ok(())
}

/// CuTe `elem_scale(a, b)`: each leaf of `a` times the size of the matching mode of `b`.
///
/// Pre: `a` is weakly congruent to `b` (else a `Mismatch` error); the products
/// fit in `i64` (else an `Overflow` error). Post: a tuple congruent to `a`.
///
/// ```
/// use kute::{IntTuple, int_tuple::elem_scale};
/// let a: IntTuple = "((_2,3),(_4,(2,_5)))".parse().unwrap();
/// let a0 = a.get(0).unwrap();
/// let b: IntTuple = "(2,3)".parse().unwrap();
/// assert_eq!(elem_scale(a0.as_ref(), b.as_ref()).unwrap().to_string(), "(4,9)");
/// ```
pub fn elem_scale(a: IntTupleRef<'_>, b: IntTupleRef<'_>) -> Result<IntTuple> {
    fn go(out: &mut Builder<'_, Int>, a: IntTupleRef<'_>, b: IntTupleRef<'_>) -> Result<()> {
        if let Some(x) = a.as_leaf() {
            out.leaf(x.mul(product(b.leaves())?)?);
            return Ok(());
        }
        if b.is_leaf() || a.rank() != b.rank() {
            return Err(Error::mismatch("elem_scale", format!("{a} and {b} are not weakly congruent")));
        }
        out.open();
        for (x, y) in a.children().zip(b.children()) {
            go(out, x, y)?;
        }
        out.close();
        Ok(())
    }
    Tree::try_build(|out| {
        go(out, a, b).map_err(|e| e.in_op("elem_scale"))?;
        Ok(())
    })
}

/// The pairs of modes of two tuples at the positions both have, counted from
/// the front, or from the back (`from_back`, as the colexicographic order pairs them).
fn mode_pairs<'a>(a: IntTupleRef<'a>, b: IntTupleRef<'a>, from_back: bool) -> Vec<(IntTupleRef<'a>, IntTupleRef<'a>)> {
    if !from_back {
        return a.children().zip(b.children()).collect();
    }
    let (xs, ys): (Vec<_>, Vec<_>) = (a.children().collect(), b.children().collect());
    xs.into_iter().rev().zip(ys.into_iter().rev()).collect()
}

/// Whether `a` and `b` can be compared as CuTe compares them: two integers, or
/// two tuples whose modes can be compared at every position both have (paired
/// as [`mode_pairs`] pairs them). (CuTe instantiates every such comparison, so
/// a mismatch anywhere is an error, even where the answer is decided earlier.)
fn comparable(a: IntTupleRef<'_>, b: IntTupleRef<'_>, from_back: bool, op: &'static str) -> Result<()> {
    match (a.is_leaf(), b.is_leaf()) {
        (true, true) => Ok(()),
        (false, false) => {
            mode_pairs(a, b, from_back).into_iter().try_for_each(|(x, y)| comparable(x, y, from_back, op))
        }
        _ => Err(Error::mismatch(op, format!("cannot compare the integer and the tuple in {a} and {b}"))),
    }
}

/// The lexicographic (or, `from_back`, colexicographic) order of CuTe's
/// `lex_less`/`colex_less`: the first pair of modes that differs decides; a
/// tuple whose modes all equal the other's is less when it has fewer.
fn ordered_less(a: IntTupleRef<'_>, b: IntTupleRef<'_>, from_back: bool, op: &'static str) -> Result<Bool> {
    comparable(a, b, from_back, op)?;
    fn go(a: IntTupleRef<'_>, b: IntTupleRef<'_>, from_back: bool) -> bool {
        if let (Some(x), Some(y)) = (a.as_leaf(), b.as_leaf()) {
            return x.value() < y.value();
        }
        for (x, y) in mode_pairs(a, b, from_back) {
            if go(x, y, from_back) {
                return true;
            }
            if !tuple_eq(x, y) {
                return false;
            }
        }
        a.rank() < b.rank()
    }
    Ok(Bool { value: go(a, b, from_back), is_static: all_static(a) && all_static(b) })
}

/// CuTe's `==` on integer tuples: equal integers, or tuples of equal rank whose
/// modes are equal.
fn tuple_eq(a: IntTupleRef<'_>, b: IntTupleRef<'_>) -> bool {
    match (a.as_leaf(), b.as_leaf()) {
        (Some(x), Some(y)) => x.value() == y.value(),
        (None, None) => a.rank() == b.rank() && a.children().zip(b.children()).all(|(x, y)| tuple_eq(x, y)),
        _ => false,
    }
}

/// Whether every integer is static.
fn all_static(a: IntTupleRef<'_>) -> bool {
    a.leaves().iter().all(|x| x.is_static())
}

/// CuTe `elem_less(a, b)`: every element of `a` is less than the element of
/// `b` at its position, recursively; `b` may have more modes than `a` (they
/// are not compared), `a` may not.
///
/// Pre: `a` and `b` are both integers or both tuples, and so at every
/// position both have (else a `Mismatch` error).
/// Post: a [`Bool`], static when every integer of both is.
///
/// ```
/// use kute::{IntTuple, int_tuple::elem_less};
/// let (a, b): (IntTuple, IntTuple) = ("(1,(2,3))".parse().unwrap(), "(2,(3,4),9)".parse().unwrap());
/// assert!(elem_less(a.as_ref(), b.as_ref()).unwrap().value);
/// assert!(!elem_less(b.as_ref(), a.as_ref()).unwrap().value);
/// ```
pub fn elem_less(a: IntTupleRef<'_>, b: IntTupleRef<'_>) -> Result<Bool> {
    crate::sym::refuse("elem_less", || a.has_symbols() || b.has_symbols())?;
    comparable(a, b, false, "elem_less")?;
    fn go(a: IntTupleRef<'_>, b: IntTupleRef<'_>) -> bool {
        match (a.as_leaf(), b.as_leaf()) {
            (Some(x), Some(y)) => x.value() < y.value(),
            _ => a.rank() <= b.rank() && a.children().zip(b.children()).all(|(x, y)| go(x, y)),
        }
    }
    Ok(Bool { value: go(a, b), is_static: all_static(a) && all_static(b) })
}

/// CuTe `lex_less(a, b)`: lexicographic order, first mode first; a tuple that
/// is a prefix of the other is less.
///
/// Pre: as [`elem_less`]'s.
/// Post: a [`Bool`], static when every integer of both is.
///
/// ```
/// use kute::{IntTuple, int_tuple::{colex_less, lex_less}};
/// let (a, b): (IntTuple, IntTuple) = ("(1,2)".parse().unwrap(), "(2,1)".parse().unwrap());
/// assert!(lex_less(a.as_ref(), b.as_ref()).unwrap().value);
/// assert!(colex_less(b.as_ref(), a.as_ref()).unwrap().value);
/// ```
pub fn lex_less(a: IntTupleRef<'_>, b: IntTupleRef<'_>) -> Result<Bool> {
    crate::sym::refuse("lex_less", || a.has_symbols() || b.has_symbols())?;
    ordered_less(a, b, false, "lex_less")
}

/// CuTe `colex_less(a, b)`: colexicographic order, last mode first (the modes
/// are paired from the back); a tuple that is a suffix of the other is less.
///
/// Pre: `a` and `b` are both integers or both tuples, and so at every pair of
/// positions counted from the back (else a `Mismatch` error).
/// Post: a [`Bool`], static when every integer of both is.
///
/// ```
/// use kute::{IntTuple, int_tuple::colex_less};
/// let (a, b): (IntTuple, IntTuple) = ("(2,1)".parse().unwrap(), "(1,2)".parse().unwrap());
/// assert!(colex_less(a.as_ref(), b.as_ref()).unwrap().value);
/// ```
pub fn colex_less(a: IntTupleRef<'_>, b: IntTupleRef<'_>) -> Result<Bool> {
    crate::sym::refuse("colex_less", || a.has_symbols() || b.has_symbols())?;
    ordered_less(a, b, true, "colex_less")
}
