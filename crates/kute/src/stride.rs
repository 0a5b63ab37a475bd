//! Strides: integers, and integers scaled onto a basis direction (CuTe's
//! `ScaledBasis`, the strides of coordinate layouts such as
//! `make_identity_layout`).
//!
//! A [`Stride`] is `value · E<i0,i1,...>`: an [`Int`] scale and a basis path,
//! the mode indices of the codomain it points into, outermost first (CuTe's
//! template arguments). The empty path is the plain integer stride (CuTe's
//! `E<>` is `_1`), so an integer layout is the special case of a layout whose
//! every path is empty, and the algebra is written once for both: it scales
//! strides by integers, compares them and adds them (evaluation), which is
//! all a basis stride needs. Operations that need integer strides
//! (complement, the inverses, the products) say so and refuse basis strides,
//! as CuTe does.
//!
//! CuTe prints a basis stride as its scale followed by the path innermost
//! first: `E<1,0>{}` (mode 0 of mode 1) prints `_1@0@1`.
//!
//! A stride is two words, as an [`Int`] is: the value, and a word holding the
//! static flag and the path (up to [`MAX_BASIS_DEPTH`] indices below 256). An
//! integer stride has the same two words as the `Int` it holds, so reading it
//! back is a comparison.

use crate::error::{Error, Result};
use crate::int::Int;
use std::fmt;

/// Deepest basis path a stride may have (`E<i0,...,i6>`).
pub const MAX_BASIS_DEPTH: usize = 7;

/// Largest mode index in a basis path.
pub const MAX_BASIS_INDEX: usize = 255;

const STATIC_BIT: u64 = 1;
/// The flag bits an [`Int`] scale brings: static, symbolic.
const FLAG_BITS: u64 = STATIC_BIT | crate::int::SYMBOLIC_BIT;
const LEN_SHIFT: u32 = 2;
const LEN_MASK: u64 = 0b11100;
const PATH_SHIFT: u32 = 8;

/// A stride: an integer, or an integer scaled onto a basis direction of the
/// codomain (CuTe's `ScaledBasis<T, Ns...>`).
///
/// ```
/// use kute::{Int, Stride};
/// let e = Stride::basis(Int::new_static(3), &[1, 0]).unwrap();
/// assert_eq!(e.to_string(), "_3@0@1");
/// assert_eq!(e.path().as_slice(), &[1, 0]);
/// assert_eq!(e.scale(Int::new_static(2)).unwrap().to_string(), "_6@0@1");
/// let d = Stride::from(Int::new_dynamic(4));
/// assert_eq!((d.to_string(), d.as_int()), ("4".to_string(), Some(Int::new_dynamic(4))));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Stride {
    value: i64,
    /// bits 0-1: the scale's `Int` flag (bit 0 static, bit 1 symbolic); bits
    /// 2-4: path length; bits 8..: the path, 8 bits an index, outermost first
    meta: u64,
}

/// A tuple of strides (the stride of a layout).
pub type StrideTuple = crate::tree::Tree<Stride>;

/// A basis path, outermost index first (CuTe's `E<...>` template arguments).
pub type BasisPath = arrayvec::ArrayVec<usize, MAX_BASIS_DEPTH>;

impl From<Int> for Stride {
    #[inline(always)]
    fn from(x: Int) -> Stride {
        Stride::of(x)
    }
}

// The arithmetic is checked and returns `Result`, so it cannot be `std::ops`.
impl Stride {
    /// Static zero, `_0`.
    pub const ZERO: Stride = Stride { value: 0, meta: STATIC_BIT };
    /// Static one, `_1`.
    pub const ONE: Stride = Stride { value: 1, meta: STATIC_BIT };

    /// The integer stride `x`.
    ///
    /// Pre: none. Post: `as_int() == Some(x)`.
    ///
    /// ```
    /// use kute::{Int, Stride};
    /// let d = Stride::of(Int::new_static(4));
    /// assert_eq!((d.as_int(), d.to_string()), (Some(Int::new_static(4)), "_4".to_string()));
    /// ```
    #[inline(always)]
    pub const fn of(x: Int) -> Stride {
        Stride { value: x.raw(), meta: x.flag_bit() }
    }

    /// `value · E<path...>`, the path outermost first; the empty path is the
    /// integer `value`.
    ///
    /// Pre: `path.len() <= MAX_BASIS_DEPTH` and every index `<= MAX_BASIS_INDEX`
    /// (else a [`Limit`](crate::ErrorKind::Limit) error).
    /// Post: `scale_int() == value` and `path() == path`.
    ///
    /// ```
    /// use kute::{Int, Stride};
    /// assert_eq!(Stride::basis(Int::ONE, &[2, 0, 1]).unwrap().to_string(), "_1@1@0@2");
    /// assert_eq!(Stride::basis(Int::new_dynamic(3), &[]).unwrap().to_string(), "3");
    /// assert!(Stride::basis(Int::ONE, &[256]).is_err());
    /// ```
    pub fn basis(value: Int, path: &[usize]) -> Result<Stride> {
        if path.len() > MAX_BASIS_DEPTH || path.iter().any(|&i| i > MAX_BASIS_INDEX) {
            return Err(Error::limit(
                "E",
                format!(
                    "basis path {path:?} exceeds kute's limits ({MAX_BASIS_DEPTH} levels, indices up to {MAX_BASIS_INDEX})"
                ),
            ));
        }
        let mut meta = value.flag_bit() | ((path.len() as u64) << LEN_SHIFT);
        for (k, &i) in path.iter().enumerate() {
            meta |= (i as u64) << (PATH_SHIFT + 8 * k as u32);
        }
        Ok(Stride { value: value.raw(), meta })
    }

    /// The scale: the integer itself for an integer stride, `v` for `v@...`.
    ///
    /// Pre: none. Post: the scale's value, without its flag or direction.
    ///
    /// ```
    /// use kute::{Int, Stride};
    /// assert_eq!(Stride::basis(Int::new_static(3), &[1]).unwrap().value(), 3);
    /// assert_eq!(Stride::of(Int::new_dynamic(-2)).value(), -2);
    /// ```
    #[inline(always)]
    pub const fn value(self) -> i64 {
        self.value
    }

    /// The scale as an [`Int`] (with its static flag).
    ///
    /// Pre: none. Post: the scale with its flag; the direction is dropped.
    ///
    /// ```
    /// use kute::{Int, Stride};
    /// let e = Stride::basis(Int::new_static(3), &[1]).unwrap();
    /// assert_eq!(e.scale_int(), Int::new_static(3));
    /// ```
    #[inline(always)]
    pub const fn scale_int(self) -> Int {
        Int::from_parts(self.value, self.meta & FLAG_BITS)
    }

    /// Whether the scale is static.
    ///
    /// Pre: none. Post: the scale's static flag.
    ///
    /// ```
    /// use kute::{Int, Stride};
    /// assert!(Stride::ONE.is_static());
    /// assert!(!Stride::of(Int::new_dynamic(1)).is_static());
    /// ```
    #[inline(always)]
    pub const fn is_static(self) -> bool {
        self.meta & STATIC_BIT != 0
    }

    /// Whether the scale is symbolic.
    ///
    /// Pre: none. Post: the scale's [`Int::is_symbolic`].
    ///
    /// ```
    /// use kute::{Int, Stride, sym::Sym};
    /// assert!(Stride::of(Int::symbolic(Sym::var("LD").unwrap()).unwrap()).is_symbolic());
    /// ```
    #[inline(always)]
    pub const fn is_symbolic(self) -> bool {
        self.meta & crate::int::SYMBOLIC_BIT != 0
    }

    /// Whether this is a plain integer stride (an empty basis path).
    ///
    /// Pre: none. Post: `true` iff `path()` is empty (a symbolic scale too).
    ///
    /// ```
    /// use kute::{Int, Stride};
    /// assert!(Stride::of(Int::new_dynamic(5)).is_int());
    /// assert!(!Stride::basis(Int::ONE, &[0]).unwrap().is_int());
    /// ```
    #[inline(always)]
    pub const fn is_int(self) -> bool {
        self.meta & !FLAG_BITS == 0
    }

    /// The integer, for an integer stride; `None` for a basis stride.
    ///
    /// Pre: none. Post: `Some(scale_int())` iff `is_int()`.
    ///
    /// ```
    /// use kute::{Int, Stride};
    /// assert_eq!(Stride::of(Int::new_dynamic(5)).as_int(), Some(Int::new_dynamic(5)));
    /// assert_eq!(Stride::basis(Int::ONE, &[0]).unwrap().as_int(), None);
    /// ```
    #[inline(always)]
    pub const fn as_int(self) -> Option<Int> {
        if self.is_int() {
            Some(self.scale_int())
        } else {
            None
        }
    }

    /// Whether this is the integer 0 (a basis stride with scale 0, `_0@1`, is
    /// not: it still names a mode of the codomain).
    ///
    /// Pre: none. Post: `true` iff `is_int()` and `value() == 0` (either flag).
    ///
    /// ```
    /// use kute::{Int, Stride};
    /// assert!(Stride::ZERO.is_int_zero() && Stride::of(Int::new_dynamic(0)).is_int_zero());
    /// assert!(!Stride::basis(Int::ZERO, &[1]).unwrap().is_int_zero());
    /// ```
    #[inline(always)]
    pub const fn is_int_zero(self) -> bool {
        // (a symbolic scale is never the integer 0: symbols are not constants)
        self.value == 0 && self.meta <= STATIC_BIT
    }

    /// The length of the basis path (0 for an integer).
    ///
    /// Pre: none. Post: `path().len()`, at most [`MAX_BASIS_DEPTH`].
    ///
    /// ```
    /// use kute::{Int, Stride};
    /// assert_eq!(Stride::basis(Int::ONE, &[1, 0]).unwrap().depth(), 2);
    /// assert_eq!(Stride::ONE.depth(), 0);
    /// ```
    #[inline]
    pub const fn depth(self) -> usize {
        ((self.meta & LEN_MASK) >> LEN_SHIFT) as usize
    }

    /// The basis path, outermost index first (empty for an integer).
    ///
    /// Pre: none. Post: the path given to [`Stride::basis`] (CuTe's `E<...>`
    /// template arguments, the reverse of the printed `@` order).
    ///
    /// ```
    /// use kute::{Int, Stride};
    /// let e = Stride::basis(Int::ONE, &[2, 0]).unwrap();
    /// assert_eq!(e.path().as_slice(), &[2, 0]);
    /// assert_eq!(e.to_string(), "_1@0@2");
    /// assert!(Stride::ONE.path().is_empty());
    /// ```
    pub fn path(self) -> BasisPath {
        (0..self.depth()).map(|k| ((self.meta >> (PATH_SHIFT + 8 * k as u32)) & 0xff) as usize).collect()
    }

    /// The same basis direction with another scale.
    ///
    /// Pre: none. Post: `scale_int() == x`, `path()` unchanged.
    ///
    /// ```
    /// use kute::{Int, Stride};
    /// let e = Stride::basis(Int::ONE, &[1]).unwrap();
    /// assert_eq!(e.with_value(Int::new_dynamic(4)).to_string(), "4@1");
    /// ```
    #[inline(always)]
    pub const fn with_value(self, x: Int) -> Stride {
        Stride { value: x.raw(), meta: (self.meta & !FLAG_BITS) | x.flag_bit() }
    }

    /// Same value and same basis direction (the static flags may differ).
    ///
    /// Pre: none. Post: `true` iff `value()` and `path()` are equal.
    ///
    /// ```
    /// use kute::{Int, Stride};
    /// assert!(Stride::ONE.same(Stride::of(Int::new_dynamic(1))));
    /// assert!(!Stride::ONE.same(Stride::basis(Int::ONE, &[0]).unwrap()));
    /// ```
    #[inline(always)]
    pub const fn same(self, o: Stride) -> bool {
        self.value == o.value && (self.meta | STATIC_BIT) == (o.meta | STATIC_BIT)
    }

    /// Same basis direction (any scale).
    ///
    /// Pre: none. Post: `true` iff `path()` is equal (two integers always are).
    ///
    /// ```
    /// use kute::{Int, Stride};
    /// let e = Stride::basis(Int::ONE, &[1]).unwrap();
    /// assert!(e.same_direction(Stride::basis(Int::new_dynamic(7), &[1]).unwrap()));
    /// assert!(!e.same_direction(Stride::ONE));
    /// ```
    #[inline(always)]
    pub const fn same_direction(self, o: Stride) -> bool {
        (self.meta | FLAG_BITS) == (o.meta | FLAG_BITS)
    }

    /// `k · self`: the scale multiplied, the direction kept. As for [`Int::mul`],
    /// a static zero factor gives a static zero scale.
    ///
    /// Pre: the product fits in `i64` (else an `Overflow` error).
    /// Post: `scale_int() == self.scale_int() · k` (as [`Int::mul`]), `path()` unchanged.
    ///
    /// ```
    /// use kute::{Int, Stride};
    /// let e = Stride::basis(Int::ONE, &[1]).unwrap();
    /// assert_eq!(e.scale(Int::ZERO).unwrap().to_string(), "_0@1");
    /// assert!(Stride::from(Int::new_static(i64::MAX)).scale(Int::new_static(2)).is_err());
    /// ```
    #[inline(always)]
    pub fn scale(self, k: Int) -> Result<Stride> {
        Ok(self.with_value(self.scale_int().mul(k)?))
    }

    /// [`Stride::scale`], `None` on overflow.
    #[inline(always)]
    pub(crate) fn scale_opt(self, k: Int) -> Option<Stride> {
        // `with_value(scale_int().mul_opt(k))` on the words: the static bit
        // computed as bits, not through a `bool` the compiler branches on
        let value = self.value.checked_mul(k.value())?;
        let (a, b) = (self.meta & STATIC_BIT, k.flag_bit() & STATIC_BIT);
        let mut bit = a & b;
        if Int::static_zero_factor(self.value, a, k.value(), b, value) {
            bit = STATIC_BIT;
        }
        Some(Stride { value, meta: (self.meta & !STATIC_BIT) | bit })
    }

    /// The same stride with a dynamic scale.
    ///
    /// Pre: none. Post: the same value and path, `!is_static()`.
    ///
    /// ```
    /// use kute::{Int, Stride};
    /// let e = Stride::basis(Int::new_static(2), &[0]).unwrap();
    /// assert_eq!(e.to_dynamic().to_string(), "2@0");
    /// ```
    pub const fn to_dynamic(self) -> Stride {
        Stride { value: self.value, meta: self.meta & !STATIC_BIT }
    }

    /// The integer, or an error naming `op` for a basis stride.
    /// The stride with values put in for its unknowns ([`Int::substitute`]
    /// of its scale, the basis path kept).
    ///
    /// Pre: as [`Int::substitute`]. Post: a stride with a concrete scale.
    ///
    /// ```
    /// use kute::{Int, Stride, sym::{Sym, Valuation}};
    /// let d = Stride::of(Int::symbolic(Sym::var("LD").unwrap()).unwrap());
    /// assert_eq!(d.substitute(&Valuation::from([("LD", 96)])).unwrap().to_string(), "96");
    /// ```
    pub fn substitute(self, v: &crate::sym::Valuation) -> Result<Stride> {
        Ok(self.with_value(self.scale_int().substitute(v)?))
    }

    #[inline]
    pub(crate) fn int_in(self, op: &'static str) -> Result<Int> {
        match self.as_int() {
            Some(x) => Ok(x),
            None => {
                Err(Error::inadmissible(op, format!("the stride {self} is a basis stride; {op} needs integer strides")))
            }
        }
    }
}

impl fmt::Display for Stride {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.scale_int())?;
        for i in self.path().iter().rev() {
            write!(f, "@{i}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Stride {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// CuTe `make_basis_like(shape)`: the basis element of every leaf of
/// `shape`, its path the leaf's position (an integer shape gives `E<>`, `_1`).
///
/// Pre: `shape` is nested at most [`MAX_BASIS_DEPTH`] levels with ranks up to
/// `MAX_BASIS_INDEX + 1` (else a [`Limit`](crate::ErrorKind::Limit) error).
/// Post: a stride tuple congruent to `shape` whose leaf at path `p` is `_1@p`
/// (`_1` for an integer `shape`).
///
/// ```
/// let s: kute::IntTuple = "(_4,(_2,_3))".parse().unwrap();
/// assert_eq!(kute::stride::make_basis_like(&s).unwrap().to_string(), "(_1@0,(_1@0@1,_1@1@1))");
/// ```
pub fn make_basis_like(shape: &crate::IntTuple) -> Result<StrideTuple> {
    fn go(
        b: &mut crate::tree::Builder<'_, Stride>,
        t: crate::int_tuple::IntTupleRef<'_>,
        path: &mut Vec<usize>,
    ) -> Result<()> {
        if t.is_leaf() {
            b.leaf(Stride::basis(Int::ONE, path)?);
            return Ok(());
        }
        b.open();
        for (i, c) in t.children().enumerate() {
            path.push(i);
            go(b, c, path)?;
            path.pop();
        }
        b.close();
        Ok(())
    }
    crate::tree::Tree::try_build(|b| go(b, shape.as_ref(), &mut Vec::new())).map_err(|e| e.in_op("make_basis_like"))
}

impl fmt::Display for StrideTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::int_tuple::write_tree(f, self.as_ref(), &|f, s: Stride| write!(f, "{s}"))
    }
}

impl fmt::Debug for StrideTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

const _: () = assert!(std::mem::size_of::<Stride>() == 16);
