//! Integers that know whether they are static (CuTe's `Int<N>`, printed `_N`)
//! or dynamic (CuTe's `int`, printed `N`).
//!
//! Values never depend on static-ness: kute computes and simplifies by value,
//! exactly as CuTe does when all inputs are static. The flag only records
//! provenance: a result is static when it was computed from static integers and
//! constants alone. All arithmetic is checked; overflow is an [`Error`].

use crate::error::{Error, Result};
use std::fmt;

/// An `i64` value with a static/dynamic flag.
///
/// ```
/// use kute::Int;
/// let a = Int::new_static(6);
/// let b = Int::new_dynamic(4);
/// assert_eq!(a.to_string(), "_6");
/// assert_eq!(a.mul(b).unwrap().to_string(), "24"); // mixed: dynamic
/// assert_eq!(a.mul(a).unwrap().to_string(), "_36");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Int {
    value: i64,
    // a full word (no padding bytes, so copies are whole words) with a niche
    // (so `Result<Int>` still fits in two registers)
    flag: Flag,
}

/// The static flag as a whole word.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
#[repr(u64)]
enum Flag {
    #[default]
    Dynamic = 0,
    Static = 1,
}

impl Flag {
    #[inline(always)]
    const fn of(b: bool) -> Flag {
        if b {
            Flag::Static
        } else {
            Flag::Dynamic
        }
    }
    #[inline(always)]
    const fn get(self) -> bool {
        matches!(self, Flag::Static)
    }
    /// Static when both are: the words' bitwise and (one instruction, where
    /// going through `bool`s took a test and a set per operand).
    #[inline(always)]
    const fn and(self, o: Flag) -> Flag {
        match self as u64 & o as u64 {
            0 => Flag::Dynamic,
            _ => Flag::Static,
        }
    }
}

// The arithmetic is checked and returns `Result`, so it cannot be `std::ops`.
#[allow(clippy::should_implement_trait)]
impl Int {
    /// Static zero, `_0`.
    pub const ZERO: Int = Int::new_static(0);
    /// Static one, `_1`.
    pub const ONE: Int = Int::new_static(1);

    /// A static integer (CuTe `Int<v>`).
    ///
    /// Pre: none. Post: `value() == value` and `is_static()`.
    ///
    /// ```
    /// let x = kute::Int::new_static(8);
    /// assert_eq!((x.value(), x.is_static()), (8, true));
    /// assert_eq!(x.to_string(), "_8");
    /// ```
    pub const fn new_static(value: i64) -> Int {
        Int { value, flag: Flag::Static }
    }

    /// A dynamic integer (CuTe `int`).
    ///
    /// Pre: none. Post: `value() == value` and `!is_static()`.
    ///
    /// ```
    /// let x = kute::Int::new_dynamic(8);
    /// assert_eq!((x.value(), x.is_static()), (8, false));
    /// assert_eq!(x.to_string(), "8");
    /// ```
    pub const fn new_dynamic(value: i64) -> Int {
        Int { value, flag: Flag::Dynamic }
    }

    /// An integer with the given flag.
    ///
    /// Pre: none. Post: `value() == value` and `is_static() == is_static`.
    ///
    /// ```
    /// use kute::Int;
    /// assert_eq!(Int::new(3, true), Int::new_static(3));
    /// assert_eq!(Int::new(3, false), Int::new_dynamic(3));
    /// ```
    pub const fn new(value: i64, is_static: bool) -> Int {
        Int { value, flag: Flag::of(is_static) }
    }

    /// The value.
    ///
    /// Pre: none. Post: the `i64` value, whatever the static flag.
    ///
    /// ```
    /// assert_eq!(kute::Int::new_static(-5).value(), -5);
    /// ```
    #[inline]
    pub const fn value(self) -> i64 {
        self.value
    }

    /// Whether the integer is static.
    ///
    /// Pre: none. Post: the static flag.
    ///
    /// ```
    /// assert!(kute::Int::ONE.is_static());
    /// assert!(!kute::Int::new_dynamic(1).is_static());
    /// ```
    #[inline]
    pub const fn is_static(self) -> bool {
        self.flag.get()
    }

    /// The same value, marked dynamic.
    ///
    /// Pre: none. Post: `value()` unchanged, `!is_static()`.
    ///
    /// ```
    /// assert_eq!(kute::Int::new_static(4).to_dynamic(), kute::Int::new_dynamic(4));
    /// ```
    pub const fn to_dynamic(self) -> Int {
        Int::new_dynamic(self.value)
    }

    /// The static flag as the bit `1` (static) or `0` (dynamic).
    #[inline(always)]
    pub(crate) const fn flag_bit(self) -> u64 {
        self.flag as u64
    }

    /// Whether the product `p = a·b` of factors with static bits `a_bit`,
    /// `b_bit` (`1` static, `0` dynamic) has a static zero factor, which
    /// makes it static whatever the other factor (tested on a zero product
    /// only: one test where the factors are not zero).
    #[inline(always)]
    pub(crate) const fn static_zero_factor(a: i64, a_bit: u64, b: i64, b_bit: u64, p: i64) -> bool {
        p == 0 && ((a_bit != 0 && a == 0) || (b_bit != 0 && b == 0))
    }

    /// `value`, static when both `self` and `other` are.
    #[inline(always)]
    pub(crate) fn with(self, other: Int, value: i64) -> Int {
        Int { value, flag: self.flag.and(other.flag) }
    }

    /// Checked sum.
    ///
    /// Pre: `self + o` fits in `i64` (else an `Overflow` error).
    /// Post: the value `self + o`, static when both operands are.
    ///
    /// ```
    /// use kute::{ErrorKind, Int};
    /// assert_eq!(Int::new_static(2).add(Int::new_static(3)).unwrap().to_string(), "_5");
    /// assert_eq!(Int::new_static(2).add(Int::new_dynamic(3)).unwrap().to_string(), "5");
    /// assert_eq!(Int::new_dynamic(i64::MAX).add(Int::ONE).unwrap_err().kind(), ErrorKind::Overflow);
    /// ```
    #[inline]
    pub fn add(self, o: Int) -> Result<Int> {
        self.add_opt(o).ok_or_else(|| overflow2(self, "+", o))
    }

    /// Checked difference.
    ///
    /// Pre: `self - o` fits in `i64` (else an `Overflow` error).
    /// Post: the value `self - o`, static when both operands are.
    ///
    /// ```
    /// use kute::{ErrorKind, Int};
    /// assert_eq!(Int::new_static(2).sub(Int::new_static(5)).unwrap().to_string(), "_-3");
    /// assert_eq!(Int::new_dynamic(i64::MIN).sub(Int::ONE).unwrap_err().kind(), ErrorKind::Overflow);
    /// ```
    #[inline]
    pub fn sub(self, o: Int) -> Result<Int> {
        self.sub_opt(o).ok_or_else(|| overflow2(self, "-", o))
    }

    /// Checked product. A static zero times anything is static zero, as in CuTe.
    ///
    /// Pre: `self · o` fits in `i64` (else an `Overflow` error).
    /// Post: the value `self · o`, static when both operands are or when either
    /// is a static zero.
    ///
    /// ```
    /// use kute::{ErrorKind, Int};
    /// assert_eq!(Int::new_static(6).mul(Int::new_dynamic(4)).unwrap().to_string(), "24");
    /// assert_eq!(Int::ZERO.mul(Int::new_dynamic(7)).unwrap().to_string(), "_0");
    /// assert_eq!(Int::new_dynamic(1 << 62).mul(Int::new_dynamic(2)).unwrap_err().kind(), ErrorKind::Overflow);
    /// ```
    #[inline]
    pub fn mul(self, o: Int) -> Result<Int> {
        self.mul_opt(o).ok_or_else(|| overflow2(self, "*", o))
    }

    /// Checked quotient, truncating toward zero (C++ semantics).
    ///
    /// Pre: `o != 0` (else a `DivisionByZero` error) and not `i64::MIN / -1`
    /// (else an `Overflow` error).
    /// Post: the value `self / o` rounded toward zero, static when both operands are.
    ///
    /// ```
    /// use kute::{ErrorKind, Int};
    /// assert_eq!(Int::new_static(7).div(Int::new_static(2)).unwrap().to_string(), "_3");
    /// assert_eq!(Int::new_dynamic(-7).div(Int::new_static(2)).unwrap().to_string(), "-3");
    /// assert_eq!(Int::new_dynamic(7).div(Int::ZERO).unwrap_err().kind(), ErrorKind::DivisionByZero);
    /// ```
    #[inline]
    pub fn div(self, o: Int) -> Result<Int> {
        self.div_opt(o).ok_or_else(|| div_error(self, "/", o))
    }

    /// Checked remainder with the sign of the dividend (C++ semantics).
    ///
    /// Pre: `o != 0` (else a `DivisionByZero` error) and not `i64::MIN % -1`
    /// (else an `Overflow` error).
    /// Post: the value `self - o·(self / o)` (sign of `self`), static when both operands are.
    ///
    /// ```
    /// use kute::{ErrorKind, Int};
    /// assert_eq!(Int::new_static(7).rem(Int::new_static(3)).unwrap().to_string(), "_1");
    /// assert_eq!(Int::new_dynamic(-7).rem(Int::new_dynamic(3)).unwrap().to_string(), "-1");
    /// assert_eq!(Int::new_dynamic(7).rem(Int::ZERO).unwrap_err().kind(), ErrorKind::DivisionByZero);
    /// ```
    #[inline]
    pub fn rem(self, o: Int) -> Result<Int> {
        self.rem_opt(o).ok_or_else(|| div_error(self, "%", o))
    }

    /// CuTe's `ceil_div(a, b) = (a + b - 1) / b`, literally (also for non-positive inputs).
    ///
    /// Pre: `o != 0` (else a `DivisionByZero` error) and every step fits in
    /// `i64` (else an `Overflow` error).
    /// Post: `(self + o - 1) / o` truncated toward zero (the ceiling of `self / o`
    /// for `self >= 0`, `o > 0`), static when both operands are.
    ///
    /// ```
    /// use kute::{ErrorKind, Int};
    /// assert_eq!(Int::new_static(7).ceil_div(Int::new_static(2)).unwrap().to_string(), "_4");
    /// assert_eq!(Int::new_dynamic(8).ceil_div(Int::new_static(4)).unwrap().to_string(), "2");
    /// assert_eq!(Int::new_dynamic(8).ceil_div(Int::ZERO).unwrap_err().kind(), ErrorKind::DivisionByZero);
    /// ```
    #[inline]
    pub fn ceil_div(self, o: Int) -> Result<Int> {
        self.add(o)?.sub(Int::ONE)?.div(o)
    }

    // The cores of the checked operations: `None` where they fail. They hold
    // the flag rules, and the fast paths use them directly (no error values).

    #[inline(always)]
    pub(crate) fn add_opt(self, o: Int) -> Option<Int> {
        Some(self.with(o, self.value.checked_add(o.value)?))
    }

    #[inline(always)]
    pub(crate) fn sub_opt(self, o: Int) -> Option<Int> {
        Some(self.with(o, self.value.checked_sub(o.value)?))
    }

    #[inline(always)]
    pub(crate) fn mul_opt(self, o: Int) -> Option<Int> {
        let mut r = self.with(o, self.value.checked_mul(o.value)?);
        if Int::static_zero_factor(self.value, self.flag_bit(), o.value, o.flag_bit(), r.value) {
            r.flag = Flag::Static;
        }
        Some(r)
    }

    /// [`Int::mul_opt`] of factors neither of which is 0: the product is then
    /// static exactly when both factors are, with no static zero factor to
    /// look for.
    #[inline(always)]
    pub(crate) fn mul_opt_nonzero(self, o: Int) -> Option<Int> {
        debug_assert!(self.value != 0 && o.value != 0, "mul_opt_nonzero: a zero factor");
        Some(self.with(o, self.value.checked_mul(o.value)?))
    }

    #[inline(always)]
    pub(crate) fn div_opt(self, o: Int) -> Option<Int> {
        Some(self.with(o, quotient(self.value, o.value)?))
    }

    #[inline(always)]
    pub(crate) fn rem_opt(self, o: Int) -> Option<Int> {
        Some(self.with(o, remainder(self.value, o.value)?))
    }

    /// [`Int::ceil_div`]'s core: `(self + o - _1) / o`, each step checked.
    #[inline(always)]
    pub(crate) fn ceil_div_opt(self, o: Int) -> Option<Int> {
        self.add_opt(o)?.sub_opt(Int::ONE)?.div_opt(o)
    }

    #[inline(always)]
    pub(crate) fn abs_opt(self) -> Option<Int> {
        Some(Int { value: self.value.checked_abs()?, flag: self.flag })
    }

    /// The smaller value; the flag follows both operands.
    ///
    /// Pre: none. Post: the smaller value, static when both operands are.
    ///
    /// ```
    /// use kute::Int;
    /// assert_eq!(Int::new_static(3).min(Int::new_static(5)).to_string(), "_3");
    /// assert_eq!(Int::new_static(3).min(Int::new_dynamic(5)).to_string(), "3");
    /// ```
    #[inline]
    pub fn min(self, o: Int) -> Int {
        self.with(o, self.value.min(o.value))
    }

    /// The larger value; the flag follows both operands.
    ///
    /// Pre: none. Post: the larger value, static when both operands are.
    ///
    /// ```
    /// use kute::Int;
    /// assert_eq!(Int::new_static(3).max(Int::new_static(5)).to_string(), "_5");
    /// assert_eq!(Int::new_dynamic(3).max(Int::new_static(5)).to_string(), "5");
    /// ```
    #[inline]
    pub fn max(self, o: Int) -> Int {
        self.with(o, self.value.max(o.value))
    }

    /// Checked absolute value.
    ///
    /// Pre: `self != i64::MIN` (else an `Overflow` error).
    /// Post: `|self|`, with the flag of `self`.
    ///
    /// ```
    /// use kute::{ErrorKind, Int};
    /// assert_eq!(Int::new_static(-4).abs().unwrap().to_string(), "_4");
    /// assert_eq!(Int::new_dynamic(i64::MIN).abs().unwrap_err().kind(), ErrorKind::Overflow);
    /// ```
    #[inline]
    pub fn abs(self) -> Result<Int> {
        self.abs_opt().ok_or_else(|| overflow1("abs", self))
    }

    /// Checked negation.
    ///
    /// Pre: `self != i64::MIN` (else an `Overflow` error).
    /// Post: `-self`, with the flag of `self`.
    ///
    /// ```
    /// use kute::{ErrorKind, Int};
    /// assert_eq!(Int::new_dynamic(4).neg().unwrap().to_string(), "-4");
    /// assert_eq!(Int::new_dynamic(i64::MIN).neg().unwrap_err().kind(), ErrorKind::Overflow);
    /// ```
    #[inline]
    pub fn neg(self) -> Result<Int> {
        match self.value.checked_neg() {
            Some(v) => Ok(Int { value: v, flag: self.flag }),
            None => Err(overflow1("-", self)),
        }
    }

    /// -1, 0 or 1.
    ///
    /// Pre: none. Post: the sign of the value (-1, 0 or 1), with the flag of `self`.
    ///
    /// ```
    /// use kute::Int;
    /// assert_eq!(Int::new_static(-9).signum(), Int::new_static(-1));
    /// assert_eq!(Int::new_dynamic(0).signum(), Int::new_dynamic(0));
    /// ```
    #[inline]
    pub fn signum(self) -> Int {
        Int { value: self.value.signum(), flag: self.flag }
    }

    /// Greatest common divisor of the absolute values.
    ///
    /// Pre: the result is below 2^63 (it is 2^63 only for `i64::MIN` with `0` or
    /// `i64::MIN`, and then `i64::MAX` is returned).
    /// Post: `gcd(|self|, |o|)` (`gcd(0, 0) == 0`), static when both operands are.
    ///
    /// ```
    /// use kute::Int;
    /// assert_eq!(Int::new_static(12).gcd(Int::new_static(-18)).to_string(), "_6");
    /// assert_eq!(Int::new_dynamic(0).gcd(Int::new_static(5)).to_string(), "5");
    /// ```
    pub fn gcd(self, o: Int) -> Int {
        let (mut a, mut b) = (self.value.unsigned_abs(), o.value.unsigned_abs());
        while b != 0 {
            (a, b) = (b, a % b);
        }
        self.with(o, a.min(i64::MAX as u64) as i64)
    }
}

/// `x / d` truncating, `None` on division by zero or overflow; skips the
/// hardware division for the common easy cases (exact, same results).
#[inline(always)]
fn quotient(x: i64, d: i64) -> Option<i64> {
    if x >= 0 && d > 0 {
        if x < d {
            return Some(0);
        }
        if x - d < d {
            return Some(1);
        }
        if d & (d - 1) == 0 {
            return Some(x >> d.trailing_zeros());
        }
        return Some((x as u64 / d as u64) as i64);
    }
    x.checked_div(d)
}

/// `x % d` with the sign of `x`, `None` on division by zero or overflow.
#[inline(always)]
fn remainder(x: i64, d: i64) -> Option<i64> {
    if x >= 0 && d > 0 {
        if x < d {
            return Some(x);
        }
        if x - d < d {
            return Some(x - d);
        }
        if d & (d - 1) == 0 {
            return Some(x & (d - 1));
        }
        return Some((x as u64 % d as u64) as i64);
    }
    x.checked_rem(d)
}

#[cold]
#[inline(never)]
fn overflow2(a: Int, op: &'static str, b: Int) -> Error {
    Error::overflow(format_args!("{a} {op} {b}"))
}

#[cold]
#[inline(never)]
fn overflow1(op: &'static str, a: Int) -> Error {
    if op == "abs" {
        Error::overflow(format_args!("abs({a})"))
    } else {
        Error::overflow(format_args!("{op}{a}"))
    }
}

#[cold]
#[inline(never)]
fn div_error(a: Int, op: &'static str, b: Int) -> Error {
    if b.value == 0 {
        Error::div_zero(format_args!("{a} {op} {b}"))
    } else {
        Error::overflow(format_args!("{a} {op} {b}"))
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_static() {
            write!(f, "_{}", self.value)
        } else {
            write!(f, "{}", self.value)
        }
    }
}

impl fmt::Debug for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A boolean with a static/dynamic flag, as CuTe's `true_type`/`false_type` vs `bool`.
/// kute prints booleans as `true`/`false`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Bool {
    /// The value.
    pub value: bool,
    /// Whether it is known statically.
    pub is_static: bool,
}

impl fmt::Display for Bool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.value { "true" } else { "false" })
    }
}

// `Result<Int>` must come back in two registers (the flag's niche holds the tag).
const _: () = assert!(std::mem::size_of::<Int>() == 16 && std::mem::size_of::<Result<Int>>() == 16);
