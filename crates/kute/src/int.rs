//! Integers that know whether they are static (CuTe's `Int<N>`, printed `_N`)
//! or dynamic (CuTe's `int`, printed `N`), or symbolic (a [`Sym`]: known only
//! at launch, printed with its names, `M*K`).
//!
//! Values never depend on static-ness: kute computes and simplifies by value,
//! exactly as CuTe does when all inputs are static. The flag only records
//! provenance: a result is static when it was computed from static integers and
//! constants alone. All arithmetic is checked; overflow is an [`Error`].

use crate::error::{Error, Result};
use crate::sym::Sym;
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
    /// The value is the handle of an interned [`Sym`].
    Symbolic = 2,
    /// Never made: the fourth value of the two flag bits, read as symbolic, so
    /// that the two low bits of a [`Stride`](crate::Stride)'s meta word are an
    /// `Int` flag as they are (no test to rebuild one).
    SymbolicToo = 3,
}

/// The bit of the flag word that marks a symbolic integer.
pub(crate) const SYMBOLIC_BIT: u64 = 2;

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
        // (the static bits only: a value the compiler knows is 0 or 1 is
        // the flag's word as it is)
        match self as u64 & o as u64 & 1 {
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

    /// The integer of a symbol: a dynamic integer when `s` is a constant,
    /// else a symbolic one.
    ///
    /// Pre: a constant fits in `i64`; at most [`MAX_SYMBOLS`](crate::sym::MAX_SYMBOLS)
    /// distinct symbols in the process (else a `Limit` error).
    /// Post: `to_sym() == s`.
    ///
    /// ```
    /// use kute::{Int, sym::Sym};
    /// let m = Int::symbolic(Sym::var("M").unwrap()).unwrap();
    /// assert!(m.is_symbolic() && !m.is_static());
    /// assert_eq!(m.mul(Int::new_static(4)).unwrap().to_string(), "4*M");
    /// assert_eq!(Int::symbolic(Sym::constant(3)).unwrap(), Int::new_dynamic(3));
    /// ```
    pub fn symbolic(s: Sym) -> Result<Int> {
        if let Some(c) = s.as_const() {
            return Ok(Int::new_dynamic(c));
        }
        Ok(Int { value: crate::sym::intern(s)?, flag: Flag::Symbolic })
    }

    /// Whether the integer is symbolic (known only at launch).
    ///
    /// Pre: none. Post: true for integers made by [`Int::symbolic`] from a
    /// non-constant symbol, and for results computed from them that are not constant.
    ///
    /// ```
    /// use kute::{Int, sym::Sym};
    /// assert!(Int::symbolic(Sym::var("M").unwrap()).unwrap().is_symbolic());
    /// assert!(!Int::new_dynamic(3).is_symbolic());
    /// ```
    #[inline(always)]
    pub const fn is_symbolic(self) -> bool {
        self.flag as u64 & SYMBOLIC_BIT != 0
    }

    /// The integer as a symbol (a constant for a concrete integer).
    ///
    /// Pre: none. Post: `Int::symbolic(x.to_sym())` has `x`'s value.
    ///
    /// ```
    /// use kute::Int;
    /// assert_eq!(Int::new_static(5).to_sym().as_const(), Some(5));
    /// ```
    pub fn to_sym(self) -> Sym {
        if self.is_symbolic() {
            (*crate::sym::lookup(self.value)).clone()
        } else {
            Sym::constant(self.value)
        }
    }

    /// The value.
    ///
    /// Pre: none. Post: the `i64` value, whatever the static flag. (For a
    /// symbolic integer, a handle: test [`Int::is_symbolic`] first.)
    ///
    /// ```
    /// assert_eq!(kute::Int::new_static(-5).value(), -5);
    /// ```
    #[inline]
    pub const fn value(self) -> i64 {
        // (the tests' builds catch a decision read off a symbol's handle)
        debug_assert!(!self.is_symbolic(), "Int::value of a symbolic integer: a decision must ask its facts");
        self.value
    }

    /// The value word as it is: a symbolic integer's handle (to copy it
    /// into another word, never to decide by).
    #[inline(always)]
    pub(crate) const fn raw(self) -> i64 {
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
        if self.is_symbolic() {
            return self;
        }
        Int::new_dynamic(self.value)
    }

    /// The flag word: bit 0 static, bit 1 symbolic (`0` dynamic).
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
        p == 0 && ((a_bit & 1 != 0 && a == 0) || (b_bit & 1 != 0 && b == 0))
    }

    /// The integer of a value and a flag word ([`Int::flag_bit`]'s: 0, 1 or
    /// [`SYMBOLIC_BIT`]).
    #[inline(always)]
    pub(crate) const fn from_parts(value: i64, word: u64) -> Int {
        // every two-bit word is a flag: this match is the word itself
        let flag = match word & 3 {
            0 => Flag::Dynamic,
            1 => Flag::Static,
            2 => Flag::Symbolic,
            _ => Flag::SymbolicToo,
        };
        Int { value, flag }
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
        if self.either_symbolic(o) {
            return sym_add(self, o);
        }
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
        if self.either_symbolic(o) {
            return sym_sub(self, o);
        }
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
        if self.either_symbolic(o) {
            return sym_mul(self, o);
        }
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
        if self.either_symbolic(o) {
            return sym_div(self, o);
        }
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
        if self.either_symbolic(o) {
            return sym_rem(self, o);
        }
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
        if self.either_symbolic(o) {
            return Int::symbolic(self.to_sym().ceil_div(&o.to_sym())?);
        }
        match self.ceil_div_opt(o) {
            Some(q) => Ok(q),
            // (the error names the operands, not the intermediate `a + b - 1`)
            None if o.value == 0 => Err(Error::div_zero(format_args!("ceil_div({self}, {o})"))),
            None => Err(Error::overflow(format_args!("ceil_div({self}, {o})"))),
        }
    }

    /// Whether `self` or `o` is symbolic (one test of the two flag words).
    #[inline(always)]
    pub(crate) const fn either_symbolic(self, o: Int) -> bool {
        (self.flag as u64 | o.flag as u64) & SYMBOLIC_BIT != 0
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
    /// Pre: for symbolic operands, the facts decide which is smaller (else an
    /// `Undecided` error). Post: the smaller value, static when both operands are.
    ///
    /// ```
    /// use kute::Int;
    /// assert_eq!(Int::new_static(3).min(Int::new_static(5)).unwrap().to_string(), "_3");
    /// assert_eq!(Int::new_static(3).min(Int::new_dynamic(5)).unwrap().to_string(), "3");
    /// ```
    #[inline]
    pub fn min(self, o: Int) -> Result<Int> {
        self.min_in(o, "min")
    }

    /// [`Int::min`], except where the facts do not order one unknown `x` and
    /// an integer `c`: there the symbolic integer `min(x,c)` ([`Sym::min`]).
    ///
    /// Pre: the operands are concrete, or the facts order them, or one is a
    /// single unknown and the other an integer (else an `Undecided` error).
    /// Post: the smaller value at every valuation the facts allow; static
    /// when both operands are.
    ///
    /// ```
    /// use kute::{Int, sym::Sym};
    /// let m = Int::symbolic(Sym::var("M").unwrap()).unwrap();
    /// assert_eq!(m.min_symbolic(Int::new_static(2)).unwrap().to_string(), "min(M,2)");
    /// assert!(m.min(Int::new_static(2)).is_err());
    /// assert_eq!(Int::new_static(3).min_symbolic(Int::new_static(5)).unwrap().to_string(), "_3");
    /// ```
    pub fn min_symbolic(self, o: Int) -> Result<Int> {
        if self.either_symbolic(o) {
            return Int::symbolic(self.to_sym().min(&o.to_sym())?);
        }
        Ok(self.min_concrete(o))
    }

    /// [`Int::min`], an undecided comparison's error naming `op`.
    #[inline(always)]
    pub(crate) fn min_in(self, o: Int, op: &'static str) -> Result<Int> {
        if self.either_symbolic(o) {
            return Ok(if self.decide_lt(o, op)? { self } else { o });
        }
        Ok(self.min_concrete(o))
    }

    /// [`Int::min`] of concrete integers.
    #[inline(always)]
    pub(crate) fn min_concrete(self, o: Int) -> Int {
        self.with(o, self.value.min(o.value))
    }

    /// [`Int::signum`] of a concrete integer.
    #[inline(always)]
    pub(crate) fn signum_concrete(self) -> Int {
        Int { value: self.value.signum(), flag: self.flag }
    }

    /// The larger value; the flag follows both operands.
    ///
    /// Pre: as [`Int::min`]. Post: the larger value, static when both operands are.
    ///
    /// ```
    /// use kute::Int;
    /// assert_eq!(Int::new_static(3).max(Int::new_static(5)).unwrap().to_string(), "_5");
    /// assert_eq!(Int::new_dynamic(3).max(Int::new_static(5)).unwrap().to_string(), "5");
    /// ```
    #[inline]
    pub fn max(self, o: Int) -> Result<Int> {
        if self.either_symbolic(o) {
            return Ok(if self.decide_lt(o, "max")? { o } else { self });
        }
        Ok(self.with(o, self.value.max(o.value)))
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
        if self.is_symbolic() {
            return match self.sign("abs")? {
                -1 => self.neg(),
                _ => Ok(self),
            };
        }
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
        if self.is_symbolic() {
            return Int::symbolic(Sym::ZERO.sub(&self.to_sym())?);
        }
        match self.value.checked_neg() {
            Some(v) => Ok(Int { value: v, flag: self.flag }),
            None => Err(overflow1("-", self)),
        }
    }

    /// -1, 0 or 1.
    ///
    /// Pre: for a symbolic integer, the facts decide its sign (else an
    /// `Undecided` error). Post: the sign of the value (-1, 0 or 1), with the
    /// flag of `self` (dynamic for a symbolic one).
    ///
    /// ```
    /// use kute::Int;
    /// assert_eq!(Int::new_static(-9).signum().unwrap(), Int::new_static(-1));
    /// assert_eq!(Int::new_dynamic(0).signum().unwrap(), Int::new_dynamic(0));
    /// ```
    #[inline]
    pub fn signum(self) -> Result<Int> {
        if self.is_symbolic() {
            return Ok(Int::new_dynamic(self.sign("signum")?));
        }
        Ok(self.signum_concrete())
    }

    /// Greatest common divisor of the absolute values.
    ///
    /// Pre: for symbolic operands, the facts decide it: one divides the other
    /// (else an `Undecided` error). The result is below 2^63 (it is 2^63 only
    /// for `i64::MIN` with `0` or `i64::MIN`, and then `i64::MAX` is returned).
    /// Post: `gcd(|self|, |o|)` (`gcd(0, 0) == 0`), static when both operands are.
    ///
    /// ```
    /// use kute::Int;
    /// assert_eq!(Int::new_static(12).gcd(Int::new_static(-18)).unwrap().to_string(), "_6");
    /// assert_eq!(Int::new_dynamic(0).gcd(Int::new_static(5)).unwrap().to_string(), "5");
    /// ```
    pub fn gcd(self, o: Int) -> Result<Int> {
        if self.either_symbolic(o) {
            if o.decide_divides(self, "gcd")? {
                return o.abs();
            }
            if self.decide_divides(o, "gcd")? {
                return self.abs();
            }
            return Err(crate::sym::undecided("gcd", format!("needs to know gcd({self}, {o})")));
        }
        Ok(self.with(o, crate::arith::gcd_i64(self.value, o.value)))
    }

    /// The integer with values put in for its unknowns (itself when concrete).
    ///
    /// Pre: as [`Sym::eval`]. Post: a concrete (dynamic) integer for a
    /// symbolic one; a concrete one unchanged.
    ///
    /// ```
    /// use kute::{Int, sym::{Sym, Valuation}};
    /// let m = Int::symbolic(Sym::var("M").unwrap()).unwrap();
    /// let v = Valuation::from([("M", 12)]);
    /// assert_eq!(m.mul(Int::new_static(2)).unwrap().substitute(&v).unwrap(), Int::new_dynamic(24));
    /// ```
    pub fn substitute(self, v: &crate::sym::Valuation) -> Result<Int> {
        if self.is_symbolic() {
            if v.is_partial() {
                return Int::symbolic(self.to_sym().replace_atoms(v)?);
            }
            return Ok(Int::new_dynamic(self.to_sym().eval(v)?));
        }
        Ok(self)
    }

    /// The value of a concrete integer; for a symbolic one, an `Undecided`
    /// error naming `op` (an `i64` cannot hold an expression).
    ///
    /// Pre: the integer is concrete (else the error). Post: its value.
    ///
    /// ```
    /// use kute::{Int, sym::Sym};
    /// assert_eq!(Int::new_static(3).concrete("test").unwrap(), 3);
    /// assert!(Int::symbolic(Sym::var("M").unwrap()).unwrap().concrete("test").is_err());
    /// ```
    pub fn concrete(self, op: &'static str) -> Result<i64> {
        if self.is_symbolic() {
            return Err(crate::sym::undecided(
                op,
                format!("the value is the expression {self}; an integer was asked for"),
            ));
        }
        Ok(self.value)
    }

    // Decisions: what the algebra asks of integers. On concrete integers they
    // always answer; on symbols, the facts answer for every value of the
    // unknowns or the answer is an `Undecided` error naming the fact needed.

    /// The sign (-1, 0, 1) of `self`, for every value of the unknowns.
    ///
    /// Pre: the facts decide it (else an `Undecided` error naming `op`).
    /// Post: the sign.
    ///
    /// ```
    /// use kute::{Int, sym::Sym};
    /// let m = Int::symbolic(Sym::var("M").unwrap()).unwrap();
    /// assert_eq!(m.sign("test").unwrap(), 1);
    /// assert!(m.sub(Int::new_static(2)).unwrap().sign("test").is_err());
    /// ```
    pub fn sign(self, op: &'static str) -> Result<i64> {
        if !self.is_symbolic() {
            return Ok(self.value.signum());
        }
        self.to_sym().sign().ok_or_else(|| crate::sym::undecided(op, format!("needs the sign of {self}")))
    }

    /// `self == o` for every value of the unknowns.
    ///
    /// Pre: the facts decide it (else an `Undecided` error naming `op`).
    /// Post: whether they are equal.
    ///
    /// ```
    /// use kute::{Int, sym::Sym};
    /// let m = Int::symbolic(Sym::var_div("M", 8).unwrap()).unwrap();
    /// assert!(m.decide_eq(m, "test").unwrap());
    /// assert!(!m.decide_eq(Int::new_static(4), "test").unwrap());
    /// assert!(m.decide_eq(Int::new_static(8), "test").is_err());
    /// ```
    pub fn decide_eq(self, o: Int, op: &'static str) -> Result<bool> {
        if !self.either_symbolic(o) {
            return Ok(self.value == o.value);
        }
        let (a, b) = (self.to_sym(), o.to_sym());
        match a.compare(&b) {
            Some(c) => Ok(c == 0),
            // one provably greater than the other, or declared unequal
            None if a.at_most(&b) == Some(false)
                || b.at_most(&a) == Some(false)
                || a.sub(&b).is_ok_and(|d| d.declared_nonzero()) =>
            {
                Ok(false)
            }
            None => Err(crate::sym::undecided(
                op,
                format!("needs to know whether {self} equals {o}{}", crate::sym::equality_hint(&a, &b)),
            )),
        }
    }

    /// `self < o` for every value of the unknowns.
    ///
    /// Pre: the facts decide it (else an `Undecided` error naming `op`).
    /// Post: whether `self` is less.
    ///
    /// ```
    /// use kute::{Int, sym::Sym};
    /// let m = Int::symbolic(Sym::var_div("M", 16).unwrap()).unwrap();
    /// assert!(Int::new_static(8).decide_lt(m, "test").unwrap());
    /// assert!(Int::new_static(16).decide_lt(m, "test").is_err()); // M may be 16
    /// ```
    pub fn decide_lt(self, o: Int, op: &'static str) -> Result<bool> {
        if !self.either_symbolic(o) {
            return Ok(self.value < o.value);
        }
        let (a, b) = (self.to_sym(), o.to_sym());
        // integers: a < b exactly when a + 1 <= b
        let decided = a.add(&Sym::constant(1)).ok().and_then(|a1| a1.at_most(&b));
        match decided {
            Some(lt) => Ok(lt),
            None => Err(crate::sym::undecided(
                op,
                format!("needs to know whether {self} < {o}{}", crate::sym::order_hint(&a, &b)),
            )),
        }
    }

    /// Whether `self` divides `o` (`o` a multiple of `self`), for every value
    /// of the unknowns. Zero divides only zero.
    ///
    /// Pre: the facts decide it (else an `Undecided` error naming `op` and the
    /// divisibility needed). Post: the answer.
    ///
    /// ```
    /// use kute::{Int, sym::Sym};
    /// let m = Int::symbolic(Sym::var_div("M", 64).unwrap()).unwrap();
    /// assert!(Int::new_static(32).decide_divides(m, "test").unwrap());
    /// let e = Int::new_static(128).decide_divides(m, "logical_divide").unwrap_err();
    /// assert_eq!(e.to_string(), "logical_divide: needs M divisible by 128 (declare M = ?{div=128})");
    /// ```
    pub fn decide_divides(self, o: Int, op: &'static str) -> Result<bool> {
        if !self.either_symbolic(o) {
            return Ok(if self.value == 0 { o.value == 0 } else { o.value.wrapping_rem(self.value) == 0 });
        }
        let (d, x) = (self.to_sym(), o.to_sym());
        if let Some(c) = d.as_const() {
            return x.divisible_by(c).ok_or_else(|| crate::sym::undecided(op, crate::sym::divisibility_fact(&x, &d)));
        }
        // a symbolic divisor: an exact quotient the facts prove an integer
        if x.div_exact(&d).is_ok() {
            return Ok(true);
        }
        // a positive divisor larger than a positive multiple... is not one of it
        if x.sign() == Some(1) && x.compare(&d) == Some(-1) {
            return Ok(false);
        }
        Err(crate::sym::undecided(op, crate::sym::divisibility_fact(&x, &d)))
    }
}

/// Whether either of two questions holds, where each may be undecided: true
/// when one is known to hold, an undecided one's error when neither is,
/// false when both are known not to.
#[inline(always)]
pub(crate) fn either<E>(
    a: std::result::Result<bool, E>,
    b: std::result::Result<bool, E>,
) -> std::result::Result<bool, E> {
    match (a, b) {
        (Ok(true), _) | (_, Ok(true)) => Ok(true),
        (Err(e), _) | (_, Err(e)) => Err(e),
        _ => Ok(false),
    }
}

/// `a + b` with a symbolic operand.
#[cold]
fn sym_add(a: Int, b: Int) -> Result<Int> {
    Int::symbolic(a.to_sym().add(&b.to_sym())?)
}

#[cold]
fn sym_sub(a: Int, b: Int) -> Result<Int> {
    Int::symbolic(a.to_sym().sub(&b.to_sym())?)
}

#[cold]
fn sym_mul(a: Int, b: Int) -> Result<Int> {
    Int::symbolic(a.to_sym().mul(&b.to_sym())?)
}

/// `a / b` with a symbolic operand: C++'s truncating quotient, where the
/// facts decide it: exact where `b` divides `a`, 0 where `0 <= a < b`, and
/// for a constant `b > 0` and `a >= 0` that is a multiple of `b` plus a
/// constant, that multiple's quotient plus the constant's.
#[cold]
fn sym_div(a: Int, b: Int) -> Result<Int> {
    let (x, y) = (a.to_sym(), b.to_sym());
    if y.as_const() == Some(0) {
        return Err(Error::div_zero(format_args!("{a} / {b}")));
    }
    if let Ok(q) = x.div_exact(&y) {
        return Int::symbolic(q);
    }
    if x.sign().is_some_and(|s| s >= 0) && y.sign() == Some(1) && x.compare(&y) == Some(-1) {
        return Ok(Int::new_dynamic(0));
    }
    // a non-negative multiple of a constant plus a constant: its quotient
    if let Some((q, _)) = by_constant(&x, &y) {
        return Int::symbolic(q);
    }
    // `x = q·y + r` with `0 <= r < y` by the facts (`(M+3)/M` is 1 for M >= 4)
    if let Some((q, _)) = x.div_rem_by(&y) {
        return Int::symbolic(q);
    }
    Err(crate::sym::undecided("/", x.div_rem_fact(&y)))
}

/// `x = q·c + r` (`0 <= r < c`) for a constant divisor `c > 0` and an `x`
/// the facts prove non-negative, where they prove `x - r` a multiple of `c`
/// ([`Sym::split_by`]): C++'s quotient and remainder then.
fn by_constant(x: &Sym, y: &Sym) -> Option<(Sym, i64)> {
    let c = y.as_const()?;
    if c <= 0 || x.sign().is_none_or(|s| s < 0) {
        return None;
    }
    x.split_by(c)
}

/// `a % b` with a symbolic operand, where the facts decide it: 0 where `b`
/// divides `a`, `a` where `0 <= a < b`, and `r` where `a = q·b + r` with
/// `0 <= r < b` ([`Sym::div_rem_by`]); else an error naming the fact that
/// would decide it ([`Sym::div_rem_fact`]).
#[cold]
fn sym_rem(a: Int, b: Int) -> Result<Int> {
    let (x, y) = (a.to_sym(), b.to_sym());
    if y.as_const() == Some(0) {
        return Err(Error::div_zero(format_args!("{a} % {b}")));
    }
    // a non-negative multiple of a constant plus a constant: its remainder
    if let Some((_, r)) = by_constant(&x, &y) {
        return Ok(Int::new_dynamic(r));
    }
    if let Ok(true) = b.decide_divides(a, "%") {
        return Ok(Int::new_dynamic(0));
    }
    if x.sign().is_some_and(|s| s >= 0) && y.sign() == Some(1) && x.compare(&y) == Some(-1) {
        return Ok(a);
    }
    if let Some((_, r)) = x.div_rem_by(&y) {
        return Int::symbolic(r);
    }
    Err(crate::sym::undecided("%", x.div_rem_fact(&y)))
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
        if crate::sym::dsl_printing() {
            return match self.is_symbolic() {
                true => write!(f, "{}", self.to_sym().dsl()),
                false => write!(f, "{}", self.value),
            };
        }
        if self.is_symbolic() {
            return write!(f, "{}", self.to_sym());
        }
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
