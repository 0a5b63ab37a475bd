//! How an algebra operation fails: the one implementation of each operation
//! runs under one of two policies.
//!
//! - [`Checked`]: every failure is an [`Error`] naming the operation, the operand
//!   and the condition (what the caller gets).
//! - [`Fast`]: every failure is [`Decline`], a zero-sized value, so that the
//!   success path carries no error data and builds no message; the operation's
//!   entry point then runs the same code under [`Checked`], which gives the
//!   answer or the exact error. Under `Fast`, an operation also declines what it
//!   would rather not do in a small fixed buffer (an output that does not fit
//!   inline, an operand shape its early branches do not expect).
//!
//! The checked integer arithmetic of the algebra goes through the policy
//! ([`Policy::mul`] and friends): the same [`Int`] values and static flags
//! under both, an error only where it is kept.

use crate::error::{Error, Result};
use crate::int::Int;
use crate::layout::Mode;
use crate::stride::Stride;
use crate::tree::Buf;
use arrayvec::ArrayVec;
use std::ops::DerefMut;

/// The failure of an operation under [`Fast`]: nothing to report, the checked
/// run will say what went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Decline;

/// How failures are represented (see the module docs).
pub(crate) trait Policy: Sized {
    /// The failure value: [`Decline`] or [`Error`].
    type Err;
    /// A scratch buffer of flat modes: fixed on the stack under [`Fast`]
    /// (full is a decline), growable under [`Checked`].
    type Modes: ModeBuf + Sink<Self>;
    /// Whether failures are errors to report ([`Checked`]); a constant, so a
    /// branch on it costs nothing.
    const CHECKED: bool;

    /// A failure, with the error `e` builds (called only under [`Checked`]).
    fn fail(e: impl FnOnce() -> Error) -> Self::Err;

    /// Names the operation of a failure unless an inner step named itself.
    fn in_op(e: Self::Err, op: &'static str) -> Self::Err;

    /// The failure with its error rewritten by `f` (under [`Checked`]; a
    /// decline stays one).
    fn map_error(e: Self::Err, f: impl FnOnce(Error) -> Error) -> Self::Err;

    /// A failure under [`Fast`] for what only the checked run handles; under
    /// [`Checked`] callers never take the branch that produces it.
    #[inline(always)]
    fn decline() -> Self::Err {
        Self::fail(|| Error::limit("algebra", "a fast-path restriction reached the checked path"))
    }

    /// `x`, or the failure that `checked` reports (the same step, with its error).
    #[inline(always)]
    fn ok<T, U>(x: Option<T>, checked: impl FnOnce() -> Result<U>) -> Result<T, Self::Err> {
        match x {
            Some(v) => Ok(v),
            None => Err(Self::failure_of(checked)),
        }
    }

    /// The failure that `checked` (a step that failed) reports.
    #[inline(always)]
    fn failure_of<U>(checked: impl FnOnce() -> Result<U>) -> Self::Err {
        Self::fail(|| match checked() {
            Err(e) => e,
            Ok(_) => Error::overflow("an intermediate step"),
        })
    }

    /// A checked result under this policy.
    #[inline(always)]
    fn lift<T>(r: Result<T>) -> Result<T, Self::Err> {
        r.map_err(|e| Self::fail(|| e))
    }

    // (The arithmetic below is spelled out per operation: one helper taking
    // the operation's core and its checked form as closures measured 5-8%
    // more instructions on the products' W1 rows.)

    /// Checked `a + b`.
    #[inline(always)]
    fn add(a: Int, b: Int) -> Result<Int, Self::Err> {
        if Self::CHECKED && a.either_symbolic(b) {
            return Self::lift(a.add(b));
        }
        Self::ok(a.add_opt(b), || a.add(b))
    }

    /// Checked `a - b`.
    #[inline(always)]
    fn sub(a: Int, b: Int) -> Result<Int, Self::Err> {
        if Self::CHECKED && a.either_symbolic(b) {
            return Self::lift(a.sub(b));
        }
        Self::ok(a.sub_opt(b), || a.sub(b))
    }

    /// Checked `a · b`.
    #[inline(always)]
    fn mul(a: Int, b: Int) -> Result<Int, Self::Err> {
        if Self::CHECKED && a.either_symbolic(b) {
            return Self::lift(a.mul(b));
        }
        Self::ok(a.mul_opt(b), || a.mul(b))
    }

    /// Checked `a · b` of two extents or an extent and a stride, where under
    /// [`Fast`] neither is 0 (its runs decline extents below 1 and drop zero
    /// strides before they multiply): there the static-zero rule of
    /// [`Policy::mul`] has nothing to find and is not tested. Under
    /// [`Checked`], [`Policy::mul`].
    #[inline(always)]
    fn mul_nonzero_fast(a: Int, b: Int) -> Result<Int, Self::Err> {
        if Self::CHECKED {
            return Self::mul(a, b);
        }
        Self::ok(a.mul_opt_nonzero(b), || a.mul(b))
    }

    /// Checked `a / b` (truncating).
    #[inline(always)]
    fn div(a: Int, b: Int) -> Result<Int, Self::Err> {
        if Self::CHECKED && a.either_symbolic(b) {
            return Self::lift(a.div(b));
        }
        Self::ok(a.div_opt(b), || a.div(b))
    }

    /// Checked `a % b`.
    #[inline(always)]
    fn rem(a: Int, b: Int) -> Result<Int, Self::Err> {
        if Self::CHECKED && a.either_symbolic(b) {
            return Self::lift(a.rem(b));
        }
        Self::ok(a.rem_opt(b), || a.rem(b))
    }

    /// Checked `ceil_div(a, b)`.
    #[inline(always)]
    fn ceil_div(a: Int, b: Int) -> Result<Int, Self::Err> {
        if Self::CHECKED && a.either_symbolic(b) {
            return Self::lift(a.ceil_div(b));
        }
        Self::ok(a.ceil_div_opt(b), || a.ceil_div(b))
    }

    // Decisions. Under `Fast` (never given a symbol) each is the comparison
    // of values it always was; under `Checked`, a symbol's question is
    // answered by the facts or is an `Undecided` error naming the fact.

    /// Whether the extent `x` is 1. A symbolic extent is not taken for 1: it
    /// stays a mode, as CuTe keeps a run-time extent (where its value is 1,
    /// the answer differs only by that mode of extent 1).
    #[inline(always)]
    fn is_one(x: Int) -> bool {
        !(Self::CHECKED && x.is_symbolic()) && x.value() == 1
    }

    /// Whether the extent `x` is at least 2 (a symbolic extent is, as
    /// [`Policy::is_one`] says it is not 1).
    #[inline(always)]
    fn at_least_two(x: Int) -> bool {
        (Self::CHECKED && x.is_symbolic()) || x.value() >= 2
    }

    /// `a == b`.
    #[inline(always)]
    fn eq(a: Int, b: Int, op: &'static str) -> Result<bool, Self::Err> {
        if Self::CHECKED && a.either_symbolic(b) {
            return Self::lift(a.decide_eq(b, op));
        }
        Ok(a.value() == b.value())
    }

    /// `a < b`.
    #[inline(always)]
    fn lt(a: Int, b: Int, op: &'static str) -> Result<bool, Self::Err> {
        if Self::CHECKED && a.either_symbolic(b) {
            return Self::lift(a.decide_lt(b, op));
        }
        Ok(a.value() < b.value())
    }

    /// Whether `d` divides `x` (zero divides only zero).
    #[inline(always)]
    fn divides(d: Int, x: Int, op: &'static str) -> Result<bool, Self::Err> {
        if !(Self::CHECKED && d.either_symbolic(x)) && d.value() == 0 {
            return Ok(x.value() == 0);
        }
        Self::divides_nonzero(d, x, op)
    }

    /// Whether `d` (not zero) divides `x`.
    #[inline(always)]
    fn divides_nonzero(d: Int, x: Int, op: &'static str) -> Result<bool, Self::Err> {
        if Self::CHECKED && d.either_symbolic(x) {
            return Self::lift(d.decide_divides(x, op));
        }
        Ok(Self::rem(x, d)?.value() == 0)
    }

    /// Whether `x` is negative.
    #[inline(always)]
    fn is_negative(x: Int, op: &'static str) -> Result<bool, Self::Err> {
        if Self::CHECKED && x.is_symbolic() {
            return Self::lift(x.sign(op)).map(|s| s < 0);
        }
        Ok(x.value() < 0)
    }

    /// The smaller of `a` and `b` (for symbols, where the facts decide it).
    #[inline(always)]
    fn min(a: Int, b: Int, op: &'static str) -> Result<Int, Self::Err> {
        if Self::CHECKED && a.either_symbolic(b) {
            return Self::lift(a.min_in(b, op));
        }
        Ok(a.min_concrete(b))
    }

    /// The sign of `a` (for a symbol, where the facts decide it).
    #[inline(always)]
    fn signum(a: Int) -> Result<Int, Self::Err> {
        if Self::CHECKED && a.is_symbolic() {
            return Self::lift(a.signum());
        }
        Ok(a.signum_concrete())
    }

    /// Checked `|a|`.
    #[inline(always)]
    fn abs(a: Int) -> Result<Int, Self::Err> {
        if Self::CHECKED && a.is_symbolic() {
            return Self::lift(a.abs());
        }
        Self::ok(a.abs_opt(), || a.abs())
    }

    /// Checked `k · d`.
    #[inline(always)]
    fn scale(d: Stride, k: Int) -> Result<Stride, Self::Err> {
        if Self::CHECKED && d.scale_int().either_symbolic(k) {
            return Self::lift(d.scale(k));
        }
        Self::ok(d.scale_opt(k), || d.scale(k))
    }
}

/// Failures are [`Decline`]: the fast run of an operation.
pub(crate) struct Fast;

/// Failures are [`Error`]s: the run whose answer or error the caller gets.
pub(crate) struct Checked;

impl Policy for Fast {
    type Err = Decline;
    type Modes = ArrayVec<Mode, 8>;
    const CHECKED: bool = false;

    #[inline(always)]
    fn fail(_: impl FnOnce() -> Error) -> Decline {
        Decline
    }

    #[inline(always)]
    fn in_op(e: Decline, _: &'static str) -> Decline {
        e
    }

    #[inline(always)]
    fn map_error(e: Decline, _: impl FnOnce(Error) -> Error) -> Decline {
        e
    }
}

impl Policy for Checked {
    type Err = Error;
    type Modes = Buf<Mode, 16>;
    const CHECKED: bool = true;

    #[inline(always)]
    fn fail(e: impl FnOnce() -> Error) -> Error {
        e()
    }

    #[inline(always)]
    fn in_op(e: Error, op: &'static str) -> Error {
        e.in_op(op)
    }

    #[inline(always)]
    fn map_error(e: Error, f: impl FnOnce(Error) -> Error) -> Error {
        f(e)
    }
}

/// Where finished modes go: a stack buffer, an output's inline leaves (a
/// failure once full), or a growable buffer. A trait with always-inlined
/// methods rather than a closure: a closure call that is not inlined takes its
/// 32-byte mode through memory, and reading it back right after it was written
/// stalls.
pub(crate) trait Sink<P: Policy> {
    /// Append `m`.
    fn put(&mut self, m: Mode) -> Result<(), P::Err>;
}

impl<P: Policy, const N: usize> Sink<P> for ArrayVec<Mode, N> {
    #[inline(always)]
    fn put(&mut self, m: Mode) -> Result<(), P::Err> {
        self.try_push(m).map_err(|_| P::decline())
    }
}

impl<P: Policy, const N: usize> Sink<P> for Buf<Mode, N> {
    #[inline(always)]
    fn put(&mut self, m: Mode) -> Result<(), P::Err> {
        self.push(m);
        Ok(())
    }
}

/// A scratch buffer of flat modes ([`Policy::Modes`]).
pub(crate) trait ModeBuf: Default + DerefMut<Target = [Mode]> {
    /// Empty it.
    fn clear(&mut self);
}

impl<const N: usize> ModeBuf for ArrayVec<Mode, N> {
    #[inline(always)]
    fn clear(&mut self) {
        ArrayVec::clear(self);
    }
}

impl<const N: usize> ModeBuf for Buf<Mode, N> {
    #[inline(always)]
    fn clear(&mut self) {
        Buf::clear(self);
    }
}

// Test hooks, in the tests' builds only (the `test-hooks` feature): any other
// build's fast run reads no thread-local.
#[cfg(feature = "test-hooks")]
thread_local! {
    /// Set by the tests to run the checked path alone.
    pub(crate) static FAST_OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// How many operations the fast run answered (the tests check both runs are exercised).
    pub(crate) static FAST_ANSWERS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl Fast {
    /// Counts a fast answer (in the tests; nothing otherwise).
    #[inline(always)]
    pub(crate) fn answered() {
        #[cfg(feature = "test-hooks")]
        FAST_ANSWERS.with(|c| c.set(c.get() + 1));
    }

    /// Whether the fast run is tried first (always, outside the tests that
    /// compare it with the checked run). The fast runs read integers by
    /// value: symbolic operands never reach them (each operation's entry
    /// refuses those it does not take).
    #[inline(always)]
    pub(crate) fn enabled() -> bool {
        #[cfg(feature = "test-hooks")]
        {
            !FAST_OFF.with(|c| c.get())
        }
        #[cfg(not(feature = "test-hooks"))]
        {
            true
        }
    }
}
