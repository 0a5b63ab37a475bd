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
