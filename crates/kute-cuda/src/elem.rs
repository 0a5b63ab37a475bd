//! Element types of the kernels.

use std::fmt;
use std::str::FromStr;

/// An element type. Copies and transposes move bits, so each type is carried
/// in an unsigned integer of its width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Elem {
    /// 32-bit float.
    F32,
    /// IEEE half.
    F16,
    /// bfloat16.
    Bf16,
}

impl Elem {
    /// Every element type.
    pub const ALL: [Elem; 3] = [Elem::F32, Elem::F16, Elem::Bf16];

    /// Bytes per element.
    ///
    /// Pre: none. Post: 4 or 2.
    ///
    /// ```
    /// assert_eq!(kute_cuda::Elem::F16.bytes(), 2);
    /// ```
    pub fn bytes(self) -> i64 {
        match self {
            Elem::F32 => 4,
            Elem::F16 | Elem::Bf16 => 2,
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
        }
    }

    /// PyTorch's name of the type.
    ///
    /// Pre: none. Post: `float32`, `float16` or `bfloat16`.
    ///
    /// ```
    /// assert_eq!(kute_cuda::Elem::Bf16.torch(), "bfloat16");
    /// ```
    pub fn torch(self) -> &'static str {
        match self {
            Elem::F32 => "float32",
            Elem::F16 => "float16",
            Elem::Bf16 => "bfloat16",
        }
    }
}

impl fmt::Display for Elem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Elem::F32 => "f32",
            Elem::F16 => "f16",
            Elem::Bf16 => "bf16",
        })
    }
}

impl FromStr for Elem {
    type Err = String;

    /// `f32`, `f16` or `bf16`.
    ///
    /// Pre: one of those. Post: the type, else a message listing them.
    fn from_str(s: &str) -> Result<Elem, String> {
        match s {
            "f32" | "float" | "float32" => Ok(Elem::F32),
            "f16" | "half" | "float16" => Ok(Elem::F16),
            "bf16" | "bfloat16" => Ok(Elem::Bf16),
            _ => Err(format!("unknown element type '{s}': f32, f16 or bf16")),
        }
    }
}

/// The bits of `x` rounded to `elem` (to nearest, ties to even), as the GPU's
/// `cvt.rn.f16x2.f32` and `cvt.rn.bf16x2.f32` round: the host's model of a
/// kernel that stores 16-bit results. `Elem::F32` has no 16-bit form and
/// gives 0; NaN inputs give a quiet NaN.
///
/// Pre: `elem` is F16 or Bf16. Post: the 16-bit pattern.
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
        Elem::F32 => 0,
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

#[cfg(test)]
mod tests {
    use super::*;

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
