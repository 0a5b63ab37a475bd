//! CuTe's `Swizzle<B,M,S>`: the xor map that shared-memory layouts are
//! composed with so that a warp's accesses spread over the banks.
//!
//! `Swizzle<B,M,S>` keeps the lowest `M` bits of an offset, and xors the `B`
//! bits starting at bit `M + max(S,0)` (the "Y" bits) into the `B` bits
//! starting at bit `M - min(S,0)` (the "Z" bits):
//! `x ^ ((x & yyy_mask) >> S)`, a right shift by a negative `S` being a left
//! shift. It is its own inverse. CuTe prints it `Sw<B,M,S>`.

use crate::error::{Error, Result};
use crate::int::Int;
use std::fmt;

/// The highest bit a swizzle mask may reach: masks stay inside `i64`.
const MAX_MASK_BIT: i32 = 62;

/// CuTe's `Swizzle<B,M,S>` (`B` bits, base `M`, shift `S`).
///
/// ```
/// use kute::swizzle::Swizzle;
/// let sw = Swizzle::new(3, 4, 3).unwrap();
/// assert_eq!(sw.to_string(), "Sw<3,4,3>");
/// assert_eq!(sw.apply(200), 216);
/// assert_eq!(sw.apply(sw.apply(200)), 200); // an involution
/// assert!(Swizzle::new(3, 4, 2).is_err()); // |S| < B
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Swizzle {
    bits: i32,
    base: i32,
    shift: i32,
}

impl Swizzle {
    /// `Swizzle<B,M,S>`.
    ///
    /// Pre: `B >= 0`, `M >= 0`, `|S| >= B` (CuTe's static assertions), and both
    /// masks below bit 62 (else an `Inadmissible` error naming the condition).
    /// Post: the swizzle; `bits() == B`, `base() == M`, `shift() == S`.
    ///
    /// ```
    /// use kute::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, -3).unwrap().to_string(), "Sw<3,4,-3>");
    /// assert!(Swizzle::new(3, 4, 2).is_err()); // CuTe: |S| < B is a static_assert
    /// assert!(Swizzle::new(-1, 4, 3).is_err());
    /// assert!(Swizzle::new(i64::MAX, 1, i64::MIN).is_err()); // an error, not an overflow
    /// ```
    pub fn new(bits: i64, base: i64, shift: i64) -> Result<Swizzle> {
        let bad = |why: &str| Error::inadmissible("Swizzle", format!("Swizzle<{bits},{base},{shift}>: {why}"));
        if bits < 0 {
            return Err(bad("the number of bits B must not be negative"));
        }
        if base < 0 {
            return Err(bad("the base M must not be negative"));
        }
        // (B and M are not negative here; |S| and the sum without overflow)
        let s = shift.unsigned_abs();
        if s < bits.unsigned_abs() {
            return Err(bad("|S| must be at least B (the Y and Z bits would overlap)"));
        }
        if bits.unsigned_abs().saturating_add(base.unsigned_abs()).saturating_add(s) > MAX_MASK_BIT as u64 {
            return Err(bad("the masks reach past bit 62"));
        }
        // each is at most 62 by the check above
        Ok(Swizzle { bits: bits as i32, base: base as i32, shift: shift as i32 })
    }

    /// `B`, the number of bits xored.
    ///
    /// Pre: none. Post: the `B` given to [`Swizzle::new`].
    ///
    /// ```
    /// let sw = kute::Swizzle::new(3, 4, -3).unwrap();
    /// assert_eq!((sw.bits(), sw.base(), sw.shift(), sw.is_identity()), (3, 4, -3, false));
    /// ```
    pub fn bits(self) -> i32 {
        self.bits
    }

    /// `M`, the number of low bits left alone.
    ///
    /// Pre: none. Post: the `M` given to [`Swizzle::new`].
    ///
    /// ```
    /// assert_eq!(kute::Swizzle::new(3, 1, 3).unwrap().base(), 1);
    /// ```
    pub fn base(self) -> i32 {
        self.base
    }

    /// `S`, the distance from the Z bits up to the Y bits.
    ///
    /// Pre: none. Post: the `S` given to [`Swizzle::new`].
    ///
    /// ```
    /// assert_eq!(kute::Swizzle::new(2, 4, -3).unwrap().shift(), -3);
    /// ```
    pub fn shift(self) -> i32 {
        self.shift
    }

    /// Whether the swizzle is the identity (`B == 0`).
    ///
    /// Pre: none. Post: `true` exactly when `B == 0`; then `apply(x) == x` for
    /// every `x`.
    ///
    /// ```
    /// let sw = kute::Swizzle::new(0, 4, 3).unwrap();
    /// assert!(sw.is_identity());
    /// assert_eq!(sw.apply(37), 37); // CuTe: Swizzle<0,4,3>{}(37) == 37
    /// assert!(!kute::Swizzle::new(3, 4, 3).unwrap().is_identity());
    /// ```
    pub fn is_identity(self) -> bool {
        self.bits == 0
    }

    fn bit_mask(self) -> i64 {
        (1i64 << self.bits) - 1
    }

    /// CuTe's `yyy_msk`: the bits read, `(2^B - 1) << (M + max(S,0))`.
    ///
    /// Pre: none. Post: that mask, non-negative, disjoint from [`Swizzle::zzz_mask`].
    ///
    /// ```
    /// let sw = kute::Swizzle::new(3, 4, 3).unwrap();
    /// assert_eq!((sw.yyy_mask(), sw.zzz_mask()), (0b11_1000_0000, 0b111_0000));
    /// ```
    pub fn yyy_mask(self) -> i64 {
        self.bit_mask() << (self.base + self.shift.max(0))
    }

    /// CuTe's `zzz_msk`: the bits flipped, `(2^B - 1) << (M - min(S,0))`.
    ///
    /// Pre: none. Post: that mask, non-negative, disjoint from [`Swizzle::yyy_mask`].
    ///
    /// ```
    /// // CuTe: Swizzle<2,4,-3>::yyy_msk == 48, zzz_msk == 384
    /// let sw = kute::Swizzle::new(2, 4, -3).unwrap();
    /// assert_eq!((sw.yyy_mask(), sw.zzz_mask()), (0b11_0000, 0b1_1000_0000));
    /// ```
    pub fn zzz_mask(self) -> i64 {
        self.bit_mask() << (self.base - self.shift.min(0))
    }

    /// The swizzled offset `x ^ ((x & yyy_mask) >> S)` (two's complement for a
    /// negative `x`, as CuTe's integers).
    ///
    /// Pre: none. Post: `apply(apply(x)) == x`.
    ///
    /// ```
    /// use kute::Swizzle;
    /// // CuTe's answers: Swizzle<3,4,4>{}(1329) == 1377, Swizzle<2,4,-3>{}(100) == 356
    /// assert_eq!(Swizzle::new(3, 4, 4).unwrap().apply(1329), 1377);
    /// let sw = Swizzle::new(2, 4, -3).unwrap();
    /// assert_eq!((sw.apply(100), sw.apply(356)), (356, 100));
    /// ```
    pub fn apply(self, x: i64) -> i64 {
        let y = x & self.yyy_mask();
        let moved = if self.shift >= 0 { y >> self.shift } else { y << -self.shift };
        x ^ moved
    }

    /// [`Swizzle::apply`] of an [`Int`], static when `x` is.
    ///
    /// Pre: none. Post: the value `apply(x.value())`, static exactly when `x` is.
    ///
    /// ```
    /// let sw = kute::Swizzle::new(3, 4, 3).unwrap();
    /// assert_eq!(sw.apply_int(kute::Int::new_static(37)).to_string(), "_37");
    /// ```
    pub fn apply_int(self, x: Int) -> Int {
        Int::new(self.apply(x.value()), x.is_static())
    }

    /// CuTe's `make_swizzle<Y,Z>()`: the swizzle whose Y mask is `y` and Z mask `z`.
    ///
    /// Pre: `y` and `z` have the same number of set bits, and they are the
    /// masks of some `Swizzle<B,M,S>` (else an `Inadmissible` error).
    /// Post: `Swizzle<popcount(y), min(tz(y), tz(z)), tz(y) - tz(z)>` (trailing
    /// zeros counted in 32 bits, as CuTe), with masks `y` and `z`.
    ///
    /// ```
    /// use kute::swizzle::Swizzle;
    /// assert_eq!(Swizzle::from_masks(0x380, 0x70).unwrap(), Swizzle::new(3, 4, 3).unwrap());
    /// assert_eq!(Swizzle::from_masks(0, 0).unwrap().to_string(), "Sw<0,0,0>");
    /// ```
    pub fn from_masks(y: i64, z: i64) -> Result<Swizzle> {
        let bad = |why: String| Error::inadmissible("make_swizzle", format!("make_swizzle<{y},{z}>: {why}"));
        if y < 0 || z < 0 || y > i64::from(u32::MAX) || z > i64::from(u32::MAX) {
            return Err(bad("the masks must be 32-bit unsigned integers".into()));
        }
        let (by, bz) = (y.count_ones(), z.count_ones());
        if by != bz {
            return Err(bad(format!("Y has {by} bits and Z {bz}; a swizzle pairs them one to one")));
        }
        // CuTe counts trailing zeros of a 32-bit value: 32 for zero
        let tz = |v: i64| if v == 0 { 32 } else { i64::from(v.trailing_zeros()) };
        let (ty, tz_) = (tz(y), tz(z));
        let sw = Swizzle::new(i64::from(by), ty.min(tz_) % 32, ty - tz_)
            .map_err(|e| bad(format!("the bits make no swizzle ({})", e.message())))?;
        if (y | z) != (sw.yyy_mask() | sw.zzz_mask()) {
            return Err(bad(format!("the bits are not two runs of {by} bits {} apart", ty - tz_)));
        }
        Ok(sw)
    }

    /// CuTe `composition(Swizzle, Swizzle)`: the swizzle `x -> self(other(x))`.
    ///
    /// Pre: both have the same shift, `self` reads none of the bits `other`
    /// flips, and the xor of their masks is a swizzle's (else an
    /// `Inadmissible` error).
    /// Post: the swizzle with masks `yyy ^ yyy'` and `zzz ^ zzz'`.
    ///
    /// ```
    /// use kute::swizzle::Swizzle;
    /// let (a, b) = (Swizzle::new(3, 4, 3).unwrap(), Swizzle::new(2, 4, 3).unwrap());
    /// assert_eq!(a.compose(b).unwrap().to_string(), "Sw<1,6,3>");
    /// ```
    pub fn compose(self, other: Swizzle) -> Result<Swizzle> {
        if self.shift != other.shift {
            return Err(Error::inadmissible(
                "composition",
                format!("{self} and {other}: only swizzles of the same shift merge"),
            ));
        }
        // The composite is x ^ ((x & (y ^ y')) >> S) when the bits `self`
        // reads are not among those `other` flips; CuTe's merge assumes it.
        if self.yyy_mask() & other.zzz_mask() != 0 {
            return Err(Error::inadmissible(
                "composition",
                format!("{self} reads bits that {other} flips: the composite is not a swizzle"),
            ));
        }
        Swizzle::from_masks(self.yyy_mask() ^ other.yyy_mask(), self.zzz_mask() ^ other.zzz_mask())
            .map_err(|e| e.in_op("composition"))
    }

    /// CuTe `upcast<N>(Swizzle)`: the swizzle of `N`-times wider elements.
    ///
    /// Pre: `N` is a positive power of two (else an `Inadmissible` error).
    /// Post: `Sw<B, M - log2 N, S>`, or `Sw<max(B + M - log2 N, 0), 0, S>` when
    /// that base would be negative.
    ///
    /// ```
    /// let sw = kute::Swizzle::new(3, 4, 3).unwrap();
    /// assert_eq!(sw.upcast(2).unwrap().to_string(), "Sw<3,3,3>");
    /// assert_eq!(sw.upcast(64).unwrap().to_string(), "Sw<1,0,3>");
    /// assert_eq!(sw.downcast(4).unwrap().to_string(), "Sw<3,6,3>");
    /// assert!(sw.upcast(3).is_err());
    /// ```
    pub fn upcast(self, n: i64) -> Result<Swizzle> {
        let k = log2_exact(n, "upcast")?;
        let m = i64::from(self.base) - k;
        if m >= 0 {
            Swizzle::new(self.bits.into(), m, self.shift.into())
        } else {
            Swizzle::new((i64::from(self.bits) + m).max(0), 0, self.shift.into())
        }
    }

    /// CuTe `downcast<N>(Swizzle)`: the swizzle of `N`-times narrower elements.
    ///
    /// Pre: `N` is a positive power of two, the masks stay below bit 62 (else
    /// an `Inadmissible` error). Post: `Sw<B, M + log2 N, S>`.
    ///
    /// ```
    /// use kute::Swizzle;
    /// // CuTe: downcast<4>(Swizzle<3,4,3>{}) == Sw<3,6,3>, downcast<2>(Swizzle<2,4,-3>{}) == Sw<2,5,-3>
    /// assert_eq!(Swizzle::new(3, 4, 3).unwrap().downcast(4).unwrap().to_string(), "Sw<3,6,3>");
    /// assert_eq!(Swizzle::new(2, 4, -3).unwrap().downcast(2).unwrap().to_string(), "Sw<2,5,-3>");
    /// assert!(Swizzle::new(3, 4, 3).unwrap().downcast(6).is_err());
    /// ```
    pub fn downcast(self, n: i64) -> Result<Swizzle> {
        let k = log2_exact(n, "downcast")?;
        Swizzle::new(self.bits.into(), i64::from(self.base) + k, self.shift.into())
    }

    /// CuTe `max_alignment(Swizzle)`: `2^M`, the run of offsets it leaves alone.
    ///
    /// Pre: none. Post: `2^M` (at least 1).
    ///
    /// ```
    /// assert_eq!(kute::Swizzle::new(3, 4, 3).unwrap().max_alignment(), 16);
    /// assert_eq!(kute::Swizzle::new(3, 0, 3).unwrap().max_alignment(), 1); // CuTe: _1
    /// ```
    pub fn max_alignment(self) -> i64 {
        1i64 << self.base
    }
}

/// `log2(n)` for a power of two `n`.
pub(crate) fn log2_exact(n: i64, op: &'static str) -> Result<i64> {
    if n <= 0 || n & (n - 1) != 0 {
        return Err(Error::inadmissible(op, format!("{op}<{n}> of a swizzle: N must be a power of two")));
    }
    Ok(i64::from(n.trailing_zeros()))
}

impl fmt::Display for Swizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sw<{},{},{}>", self.bits, self.base, self.shift)
    }
}
