//! Element types of the kernels.

use std::fmt;
use std::str::FromStr;

/// An element type. Copies and transposes move bits, so each type is carried
/// in an unsigned integer of its width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Elem {
    /// 32-bit float.
    F32,
    /// IEEE half.
    F16,
    /// bfloat16.
    Bf16,
    /// 8-bit float with 4 exponent and 3 mantissa bits, no infinities
    /// (OCP FP8 E4M3, PyTorch's `float8_e4m3fn`): Hopper `wgmma` inputs.
    E4m3,
    /// 8-bit float with 5 exponent and 2 mantissa bits (OCP FP8 E5M2).
    E5m2,
}

impl Elem {
    /// The element types every kernel family moves (copies, transposes,
    /// the SM80 GEMM's outputs).
    pub const ALL: [Elem; 3] = [Elem::F32, Elem::F16, Elem::Bf16];

    /// The 8-bit float inputs of the SM90 GEMM.
    pub const FP8: [Elem; 2] = [Elem::E4m3, Elem::E5m2];

    /// Bytes per element.
    ///
    /// Pre: none. Post: 4, 2 or 1.
    ///
    /// ```
    /// assert_eq!(kute_cuda::Elem::F16.bytes(), 2);
    /// ```
    pub const fn bytes(self) -> i64 {
        match self {
            Elem::F32 => 4,
            Elem::F16 | Elem::Bf16 => 2,
            Elem::E4m3 | Elem::E5m2 => 1,
        }
    }

    /// The C type that carries the element's bits.
    ///
    /// Pre: none. Post: an unsigned integer type of [`Elem::bytes`] bytes.
    ///
    /// ```
    /// assert_eq!(kute_cuda::Elem::F32.carrier(), "unsigned int");
    /// ```
    pub fn carrier(self) -> &'static str {
        match self {
            Elem::F32 => "unsigned int",
            Elem::F16 | Elem::Bf16 => "unsigned short",
            Elem::E4m3 | Elem::E5m2 => "unsigned char",
        }
    }

    /// PyTorch's name of the type.
    ///
    /// Pre: none. Post: `float32`, `float16`, `bfloat16`, `float8_e4m3fn`
    /// or `float8_e5m2`.
    ///
    /// ```
    /// assert_eq!(kute_cuda::Elem::Bf16.torch(), "bfloat16");
    /// ```
    pub fn torch(self) -> &'static str {
        match self {
            Elem::F32 => "float32",
            Elem::F16 => "float16",
            Elem::Bf16 => "bfloat16",
            Elem::E4m3 => "float8_e4m3fn",
            Elem::E5m2 => "float8_e5m2",
        }
    }

    /// Whether the type is one of the 8-bit floats.
    ///
    /// Pre: none. Post: true for [`Elem::E4m3`] and [`Elem::E5m2`].
    ///
    /// ```
    /// assert!(kute_cuda::Elem::E4m3.is_fp8() && !kute_cuda::Elem::F16.is_fp8());
    /// ```
    pub fn is_fp8(self) -> bool {
        matches!(self, Elem::E4m3 | Elem::E5m2)
    }
}

impl fmt::Display for Elem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Elem::F32 => "f32",
            Elem::F16 => "f16",
            Elem::Bf16 => "bf16",
            Elem::E4m3 => "e4m3",
            Elem::E5m2 => "e5m2",
        })
    }
}

impl FromStr for Elem {
    type Err = String;

    /// `f32`, `f16`, `bf16`, `e4m3` or `e5m2`.
    ///
    /// Pre: one of those. Post: the type, else a message listing them.
    fn from_str(s: &str) -> Result<Elem, String> {
        match s {
            "f32" | "float" | "float32" => Ok(Elem::F32),
            "f16" | "half" | "float16" => Ok(Elem::F16),
            "bf16" | "bfloat16" => Ok(Elem::Bf16),
            "e4m3" | "float8_e4m3fn" => Ok(Elem::E4m3),
            "e5m2" | "float8_e5m2" => Ok(Elem::E5m2),
            _ => Err(format!("unknown element type '{s}': f32, f16, bf16, e4m3 or e5m2")),
        }
    }
}

/// The bits of `x` rounded to `elem` (to nearest, ties to even), as the GPU's
/// `cvt.rn.f16x2.f32` and `cvt.rn.bf16x2.f32` round: the host's model of a
/// kernel that stores 16-bit results. `Elem::F32` has no 16-bit form and
/// gives 0; NaN inputs give a quiet NaN.
///
/// Pre: `elem` is F16 or Bf16 (any other gives 0). Post: the 16-bit pattern.
///
/// ```
/// use kute_cuda::{elem::round_to_16, Elem};
/// assert_eq!(round_to_16(1.0, Elem::F16), 0x3C00);
/// assert_eq!(round_to_16(65504.0, Elem::F16), 0x7BFF);
/// assert_eq!(round_to_16(1.0 + 2f32.powi(-11), Elem::F16), 0x3C00); // a tie: to even
/// assert_eq!(round_to_16(1.0 + 3.0 * 2f32.powi(-11), Elem::F16), 0x3C02);
/// assert_eq!(round_to_16(2f32.powi(-24), Elem::F16), 0x0001); // the least subnormal
/// assert_eq!(round_to_16(-2.0, Elem::Bf16), 0xC000);
/// assert_eq!(round_to_16(1.0 + 2f32.powi(-8), Elem::Bf16), 0x3F80); // a tie: to even
/// ```
pub fn round_to_16(x: f32, elem: Elem) -> u16 {
    let bits = x.to_bits();
    match elem {
        Elem::F32 | Elem::E4m3 | Elem::E5m2 => 0,
        Elem::Bf16 => {
            if x.is_nan() {
                return ((bits >> 16) as u16) | 0x0040;
            }
            let round = 0x7FFF + ((bits >> 16) & 1);
            (bits.wrapping_add(round) >> 16) as u16
        }
        Elem::F16 => {
            let sign = ((bits >> 16) & 0x8000) as u16;
            let a = bits & 0x7FFF_FFFF;
            if a > 0x7F80_0000 {
                return sign | 0x7E00;
            }
            if a >= 0x4780_0000 {
                // |x| >= 65536 (rounds to infinity; 65520 and up round there too, below)
                return sign | 0x7C00;
            }
            let exp = (a >> 23) as i32 - 127;
            let mant = (a & 0x7F_FFFF) | 0x80_0000;
            // the value as an integer count of the target's last place
            let shift = if exp >= -14 { 13 } else { 13 + (-14 - exp) };
            if shift > 24 {
                return sign;
            }
            let shift = shift as u32;
            let kept = mant >> shift;
            let rest = mant & ((1 << shift) - 1);
            let half = 1 << (shift - 1);
            let up = rest > half || (rest == half && kept & 1 == 1);
            let q = kept + u32::from(up);
            let h = if exp >= -14 { (((exp + 15) as u32) << 10) + (q - 0x400) } else { q };
            sign | h.min(0x7C00) as u16
        }
    }
}

/// The value of the 16-bit float `bits` of `elem` (f16 or bf16): the
/// inverse of [`round_to_16`] on what it returns. The patterns of the
/// infinities and NaNs give infinity, so that a check comparing with finite
/// values fails on them.
///
/// Pre: `elem` is F16 or Bf16 (any other is read as f16). Post: the value,
/// exactly.
///
/// ```
/// use kute_cuda::{elem::{round_to_16, widen_16}, Elem};
/// assert_eq!(widen_16(0x3C00, Elem::F16), 1.0);
/// assert_eq!(widen_16(0x0001, Elem::F16), 2f32.powi(-24));
/// assert_eq!(widen_16(0xC000, Elem::Bf16), -2.0);
/// assert_eq!(widen_16(round_to_16(0.1, Elem::Bf16), Elem::Bf16), 0.10009765625);
/// ```
pub fn widen_16(bits: u16, elem: Elem) -> f32 {
    if elem == Elem::Bf16 {
        return f32::from_bits(u32::from(bits) << 16);
    }
    let (sign, exp, frac) = (bits >> 15, i32::from((bits >> 10) & 0x1f), f32::from(bits & 0x3ff));
    let v = match exp {
        0 => frac * 2f32.powi(-24),
        31 => f32::INFINITY,
        e => (1.0 + frac / 1024.0) * 2f32.powi(e - 15),
    };
    if sign == 1 {
        -v
    } else {
        v
    }
}

/// The value of the 8-bit float `bits` of `elem` (E4M3: bias 7, no
/// infinities, `S.1111.111` NaN; E5M2: bias 15, IEEE-style infinities and
/// NaNs): the host's model of what `wgmma` reads.
///
/// Pre: `elem` is E4m3 or E5m2 (any other gives NaN). Post: the value,
/// exactly (every 8-bit float is an f32).
///
/// ```
/// use kute_cuda::{elem::fp8_value, Elem};
/// assert_eq!(fp8_value(0x38, Elem::E4m3), 1.0);
/// assert_eq!(fp8_value(0x7E, Elem::E4m3), 448.0); // the largest
/// assert!(fp8_value(0x7F, Elem::E4m3).is_nan());
/// assert_eq!(fp8_value(0x01, Elem::E4m3), 2f32.powi(-9)); // the least subnormal
/// assert_eq!(fp8_value(0x3C, Elem::E5m2), 1.0);
/// assert_eq!(fp8_value(0x7B, Elem::E5m2), 57344.0);
/// assert_eq!(fp8_value(0xFC, Elem::E5m2), f32::NEG_INFINITY);
/// ```
pub fn fp8_value(bits: u8, elem: Elem) -> f32 {
    let (mant_bits, bias) = match elem {
        Elem::E4m3 => (3, 7),
        Elem::E5m2 => (2, 15),
        _ => return f32::NAN,
    };
    let sign = if bits & 0x80 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((bits & 0x7F) >> mant_bits);
    let mant = f32::from(bits & ((1 << mant_bits) - 1));
    let top = (1 << (7 - mant_bits)) - 1;
    match elem {
        Elem::E4m3 if exp == top && mant == 7.0 => return f32::NAN,
        Elem::E5m2 if exp == top => return if mant == 0.0 { sign * f32::INFINITY } else { f32::NAN },
        _ => {}
    }
    let scale = f32::from(1u16 << mant_bits);
    let v = if exp == 0 { mant / scale * 2f32.powi(1 - bias) } else { (1.0 + mant / scale) * 2f32.powi(exp - bias) };
    sign * v
}

/// The 8-bit float of `elem` nearest `x` (ties to the even pattern),
/// saturating at the largest finite value: what a quantizer with a scale
/// of 1 stores. NaN gives the type's NaN.
///
/// Pre: `elem` is E4m3 or E5m2 (any other gives 0). Post: a pattern whose
/// [`fp8_value`] is `x` wherever `x` is representable.
///
/// ```
/// use kute_cuda::{elem::{fp8_from_f32, fp8_value}, Elem};
/// assert_eq!(fp8_from_f32(1.0, Elem::E4m3), 0x38);
/// assert_eq!(fp8_from_f32(-1.75, Elem::E5m2), 0xBF);
/// assert_eq!(fp8_value(fp8_from_f32(1000.0, Elem::E4m3), Elem::E4m3), 448.0); // saturated
/// ```
pub fn fp8_from_f32(x: f32, elem: Elem) -> u8 {
    if !elem.is_fp8() {
        return 0;
    }
    if x.is_nan() {
        return if elem == Elem::E4m3 { 0x7F } else { 0x7E };
    }
    let sign: u8 = if x.is_sign_negative() { 0x80 } else { 0 };
    // the magnitudes' patterns are ordered as their values: take the
    // nearest finite one, the even one at a tie
    let finite = (0u8..0x80).filter(|&b| fp8_value(b, elem).is_finite());
    let mut best = 0u8;
    let mut best_d = f64::INFINITY;
    for b in finite {
        let d = (f64::from(fp8_value(b, elem)) - f64::from(x.abs())).abs();
        if d < best_d || (d == best_d && b & 1 == 0) {
            (best, best_d) = (b, d);
        }
    }
    sign | best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every finite 8-bit float is found again from its value, the values
    /// grow with the patterns, and the E4M3 and E5M2 ranges are OCP's.
    #[test]
    fn every_fp8_pattern_round_trips_and_orders() {
        for elem in Elem::FP8 {
            let mut last = -1.0f32;
            for b in 0u8..0x80 {
                let v = fp8_value(b, elem);
                if !v.is_finite() {
                    continue;
                }
                assert!(v > last || (b == 0 && v == 0.0), "{elem} {b:#04x}");
                last = v;
                assert_eq!(fp8_from_f32(v, elem), b, "{elem} {b:#04x}");
                assert_eq!(fp8_from_f32(-v, elem), b | 0x80, "{elem} -{b:#04x}");
                assert_eq!(fp8_value(b | 0x80, elem), -v);
            }
            let max = if elem == Elem::E4m3 { 448.0 } else { 57344.0 };
            assert_eq!(last, max, "{elem}");
        }
        // a tie between 1.0 (0x38) and 1.125 (0x39) goes to the even pattern
        assert_eq!(fp8_from_f32(1.0625, Elem::E4m3), 0x38);
        assert_eq!(fp8_from_f32(1.1875, Elem::E4m3), 0x3A);
    }

    /// The value of an f16 bit pattern (finite ones).
    fn f16_value(h: u16) -> f64 {
        let (s, e, m) = (h >> 15, (h >> 10) & 0x1F, f64::from(h & 0x3FF));
        let v = if e == 0 { m * 2f64.powi(-24) } else { (1024.0 + m) * 2f64.powi(i32::from(e) - 25) };
        if s == 1 {
            -v
        } else {
            v
        }
    }

    #[test]
    fn every_f16_round_trips_and_midpoints_round_to_even() {
        for h in 0..=u16::MAX {
            if (h >> 10) & 0x1F == 0x1F {
                continue; // infinities and NaNs
            }
            let v = f16_value(h);
            assert_eq!(round_to_16(v as f32, Elem::F16), h, "{h:#06x}");
            // halfway to the next pattern up in magnitude (below the largest finite)
            if h & 0x7FFF < 0x7BFF {
                let mid = (v + f16_value(h + 1)) / 2.0;
                let even = if h & 1 == 0 { h } else { h + 1 };
                assert_eq!(round_to_16(mid as f32, Elem::F16), even, "midpoint above {h:#06x}");
            }
        }
    }
}
