//! `IntTuple`: an integer or a tuple of `IntTuple`s, nested to any depth.
//!
//! Shapes, strides and coordinates are all `IntTuple`s. This module holds the
//! arithmetic on them (CuTe's `int_tuple.hpp` and `stride.hpp`): size,
//! congruence and compatibility, `shape_div`, `ceil_div`, `elem_scale`,
//! coordinate conversions (`idx2crd`, `crd2idx`, `crd2crd`) and compact strides.

mod compact;
mod convert;
pub(crate) mod coord;
mod ops;

pub(crate) use compact::order_strides;
pub use compact::{compact_col_major, compact_order, compact_row_major, prefix_product};
pub use convert::AsIntTuple;
pub use coord::{crd2crd, crd2idx, crd2idx_compact, idx2crd, idx2crd_strided, increment};
pub use ops::{
    ceil_div, colex_less, compatible, congruent, elem_less, elem_scale, inner_product, lex_less, product_each,
    shape_div, weakly_compatible, weakly_congruent,
};

use crate::error::{Error, Result};
use crate::int::Int;
use crate::tree::{Tree, TreeRef};
use std::fmt;

/// An integer or a (possibly empty) tuple of `IntTuple`s.
///
/// ```
/// use kute::IntTuple;
/// let t: IntTuple = "(_2,(3,_4))".parse().unwrap();
/// assert_eq!(t.rank(), 2);
/// assert_eq!(t.depth(), 2);
/// assert_eq!(t.size().unwrap().value(), 24);
/// assert_eq!(t.to_string(), "(_2,(3,_4))");
/// ```
pub type IntTuple = Tree<Int>;

/// A borrowed `IntTuple`.
pub type IntTupleRef<'a> = TreeRef<'a, Int>;

impl IntTupleRef<'_> {
    /// Whether a leaf is symbolic. Pre: none. Post: the answer.
    ///
    /// ```
    /// let t: kute::IntTuple = "(8,(?,2))".parse().unwrap();
    /// assert!(t.as_ref().has_symbols() && !t.as_ref().mode(0).unwrap().has_symbols());
    /// ```
    pub fn has_symbols(self) -> bool {
        self.leaves().iter().any(|x| x.is_symbolic())
    }
}

impl IntTuple {
    /// The tuple with values put in for its unknowns.
    ///
    /// Pre: as [`Int::substitute`] for every leaf. Post: a concrete tuple of
    /// the same profile.
    ///
    /// ```
    /// use kute::{expr::{eval_line, Env}, sym::Valuation};
    /// let mut env = Env::new();
    /// eval_line(&mut env, "M = ?{div=4}").unwrap();
    /// let kute::expr::Value::IntTuple(t) = eval_line(&mut env, "(M,(8,M/4))").unwrap() else { panic!() };
    /// assert_eq!(t.substitute(&Valuation::from([("M", 12)])).unwrap().to_string(), "(12,(8,3))");
    /// ```
    pub fn substitute(&self, v: &crate::sym::Valuation) -> Result<IntTuple> {
        self.try_map(|x| x.substitute(v))
    }

    /// Whether a leaf is symbolic. Pre: none. Post: the answer.
    ///
    /// ```
    /// let t: kute::IntTuple = "(?{div=4},8)".parse().unwrap();
    /// assert!(t.has_symbols());
    /// ```
    pub fn has_symbols(&self) -> bool {
        self.as_ref().has_symbols()
    }

    /// A single static integer.
    ///
    /// Pre: none. Post: a leaf holding `Int::new_static(v)`.
    ///
    /// ```
    /// assert_eq!(kute::IntTuple::int_static(4).to_string(), "_4");
    /// assert_eq!(kute::IntTuple::int_dynamic(4).to_string(), "4");
    /// ```
    pub fn int_static(v: i64) -> IntTuple {
        Tree::leaf(Int::new_static(v))
    }

    /// A single dynamic integer.
    ///
    /// Pre: none. Post: a leaf holding `Int::new_dynamic(v)`.
    ///
    /// ```
    /// let t = kute::IntTuple::int_dynamic(-3);
    /// assert_eq!(t.as_int(), Some(kute::Int::new_dynamic(-3)));
    /// ```
    pub fn int_dynamic(v: i64) -> IntTuple {
        Tree::leaf(Int::new_dynamic(v))
    }

    /// The product of all leaves (`_1` for the empty tuple). CuTe `size`/`product`.
    ///
    /// Pre: every partial product, left to right, fits in `i64` (else an
    /// `Overflow` error). Post: the product, static when every leaf is static (or
    /// one is a static zero).
    ///
    /// ```
    /// let t: kute::IntTuple = "(_2,(3,_4))".parse().unwrap();
    /// assert_eq!(t.size().unwrap().to_string(), "24");
    /// assert!("(4294967296,4294967296,4)".parse::<kute::IntTuple>().unwrap().size().is_err());
    /// ```
    pub fn size(&self) -> Result<Int> {
        product(self.leaves())
    }

    /// The integer, if this is a single integer.
    ///
    /// Pre: none. Post: `Some(x)` for a leaf `x`, `None` for any tuple.
    ///
    /// ```
    /// assert_eq!("_3".parse::<kute::IntTuple>().unwrap().as_int().unwrap().value(), 3);
    /// assert!("(3)".parse::<kute::IntTuple>().unwrap().as_int().is_none());
    /// ```
    #[inline]
    pub fn as_int(&self) -> Option<Int> {
        self.as_leaf()
    }

    /// Mode `i` as an owned tuple (CuTe `get<i>`).
    ///
    /// Pre: `i < rank()` (a leaf has only mode 0; else a `Mismatch` error).
    /// Post: a copy of mode `i`.
    ///
    /// ```
    /// let t: kute::IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(t.get(1).unwrap().to_string(), "(3,4)");
    /// assert!(t.get(2).is_err());
    /// ```
    pub fn get(&self, i: usize) -> Result<IntTuple> {
        self.as_ref()
            .mode(i)
            .map(TreeRef::to_tree)
            .ok_or_else(|| Error::mismatch("get", format!("index {i} out of range for {self} of rank {}", self.rank())))
    }

    /// Whether every leaf is static.
    ///
    /// Pre: none. Post: `true` iff every leaf is static (`true` for `()`).
    ///
    /// ```
    /// let t: kute::IntTuple = "(_2,(_3,4))".parse().unwrap();
    /// assert!(!t.is_static());
    /// assert!("(_2,(_3,_4))".parse::<kute::IntTuple>().unwrap().is_static());
    /// ```
    pub fn is_static(&self) -> bool {
        self.leaves().iter().all(|x| x.is_static())
    }

    /// The same tuple with every leaf dynamic.
    ///
    /// Pre: none. Post: the same structure and values, every leaf dynamic.
    ///
    /// ```
    /// let t: kute::IntTuple = "(_2,(_3,4))".parse().unwrap();
    /// assert_eq!(t.to_dynamic().to_string(), "(2,(3,4))");
    /// ```
    pub fn to_dynamic(&self) -> IntTuple {
        self.map(Int::to_dynamic)
    }
}

/// Product of integers, `_1` for none.
pub(crate) fn product(xs: &[Int]) -> Result<Int> {
    let mut p = Int::ONE;
    for &x in xs {
        p = p.mul(x)?;
    }
    Ok(p)
}

/// Write a tree of integers in CuTe notation.
pub(crate) fn write_tree<L: Copy>(
    f: &mut dyn fmt::Write,
    t: TreeRef<'_, L>,
    leaf: &dyn Fn(&mut dyn fmt::Write, L) -> fmt::Result,
) -> fmt::Result {
    if let Some(x) = t.as_leaf() {
        return leaf(f, x);
    }
    f.write_char('(')?;
    for (i, c) in t.children().enumerate() {
        if i > 0 {
            f.write_char(',')?;
        }
        write_tree(f, c, leaf)?;
    }
    f.write_char(')')
}

fn write_int(f: &mut dyn fmt::Write, x: Int) -> fmt::Result {
    write!(f, "{x}")
}

impl fmt::Display for Tree<Int> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_tree(f, self.as_ref(), &write_int)
    }
}

impl fmt::Debug for Tree<Int> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for TreeRef<'_, Int> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_tree(f, *self, &write_int)
    }
}
