//! Integer helpers on machine integers, below every other module (they import
//! nothing of the crate, so any layer may use them, the parser included):
//! Euclid's greatest common divisor at each width the crate needs.
//!
//! The signed forms work on absolute values, so `gcd_i64(-4, 6) == 2`, and
//! `gcd(a, 0) == |a|`, so `gcd(0, 0) == 0`. ([`Int::gcd`](crate::Int::gcd) is
//! the form for kute's integers, static, dynamic and symbolic.)

use std::ops::Rem;

/// Euclid's algorithm: the greatest common divisor of two unsigned integers
/// (`a` when `b` is 0).
fn euclid<T: Copy + Default + PartialEq + Rem<Output = T>>(mut a: T, mut b: T) -> T {
    let zero = T::default();
    while b != zero {
        (a, b) = (b, a % b);
    }
    a
}

/// `gcd(a, b)`; `gcd_u64(a, 0) == a`.
pub(crate) fn gcd_u64(a: u64, b: u64) -> u64 {
    euclid(a, b)
}

/// `gcd(|a|, |b|)`, saturating at `i64::MAX`: the one greater value, 2^63,
/// is the gcd of `i64::MIN` with itself or 0.
pub(crate) fn gcd_i64(a: i64, b: i64) -> i64 {
    i64::try_from(euclid(a.unsigned_abs(), b.unsigned_abs())).unwrap_or(i64::MAX)
}

/// `gcd(|a|, |b|)`, saturating at `i128::MAX` (reached only for `i128::MIN`
/// with itself or 0).
pub(crate) fn gcd_i128(a: i128, b: i128) -> i128 {
    i128::try_from(euclid(a.unsigned_abs(), b.unsigned_abs())).unwrap_or(i128::MAX)
}
