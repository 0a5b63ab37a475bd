//! `recast_layout<OldType, NewType>`: a layout of elements of one type seen
//! as a layout of elements of another.

use crate::error::{Error, Result};
use crate::int::Int;
use crate::layout::Layout;

/// The element types CuTe's `sizeof_bits` knows, by the names CuTe C++ (and
/// the oracle) spells them, with their widths in bits.
const TYPE_BITS: &[(&str, i64)] = &[
    ("bool", 1),
    ("bin1_t", 1),
    ("uint1_t", 1),
    ("uint1b_t", 1),
    ("int2_t", 2),
    ("uint2_t", 2),
    ("int2b_t", 2),
    ("uint2b_t", 2),
    ("int4_t", 4),
    ("uint4_t", 4),
    ("int4b_t", 4),
    ("uint4b_t", 4),
    ("float_e2m1_t", 4),
    ("int6_t", 6),
    ("uint6_t", 6),
    ("int6b_t", 6),
    ("uint6b_t", 6),
    ("float_e2m3_t", 6),
    ("float_e3m2_t", 6),
    ("char", 8),
    ("int8_t", 8),
    ("uint8_t", 8),
    ("float_e4m3_t", 8),
    ("float_e5m2_t", 8),
    ("float_ue4m3_t", 8),
    ("float_ue8m0_t", 8),
    ("short", 16),
    ("int16_t", 16),
    ("uint16_t", 16),
    ("half_t", 16),
    ("bfloat16_t", 16),
    ("int", 32),
    ("unsigned", 32),
    ("int32_t", 32),
    ("uint32_t", 32),
    ("float", 32),
    ("tfloat32_t", 32),
    ("long", 64),
    ("int64_t", 64),
    ("uint64_t", 64),
    ("double", 64),
    ("uint128_t", 128),
    ("uint256_t", 256),
];

/// CuTe `sizeof_bits<T>::value` for an element type named as in CuTe C++
/// (`uint8_t`, `half_t`, `float`, `uint128_t`, the sub-byte `int4_t`,
/// `float_e2m1_t`, ...; `bool` is 1 bit there).
///
/// Pre: none. Post: the width in bits of the named type, `None` for a name
/// that is not one of CuTe's element types.
///
/// ```
/// assert_eq!(kute::sizeof_bits("half_t"), Some(16));
/// assert_eq!(kute::sizeof_bits("uint4_t"), Some(4));
/// assert_eq!(kute::sizeof_bits("void"), None);
/// ```
pub fn sizeof_bits(type_name: &str) -> Option<i64> {
    TYPE_BITS.iter().find(|(n, _)| *n == type_name).map(|&(_, b)| b)
}

/// The element type names [`sizeof_bits`] knows (for "did you mean").
pub(crate) fn type_names() -> impl Iterator<Item = &'static str> {
    TYPE_BITS.iter().map(|&(n, _)| n)
}

/// `(n, d)` with `new_bits / old_bits = n / d` in lowest terms: `recast_layout`
/// is `upcast<n>` then `downcast<d>` (of a layout, a swizzle or a composed layout).
///
/// Pre: both widths positive (else an `Inadmissible` error naming `recast_layout`).
pub(crate) fn recast_factors(old_bits: i64, new_bits: i64) -> Result<(i64, i64)> {
    if old_bits < 1 || new_bits < 1 {
        return Err(Error::inadmissible(
            "recast_layout",
            format!("the element widths {old_bits} and {new_bits} must be positive"),
        ));
    }
    let g = Int::new_static(old_bits).gcd(Int::new_static(new_bits))?.value();
    Ok((new_bits / g, old_bits / g))
}

/// CuTe `recast_layout<OldType, NewType>(L)`, with the types given by their
/// widths in bits: `L` re-expressed in elements of `new_bits` where it
/// addresses elements of `old_bits`. With `new_bits / old_bits = n / d` in
/// lowest terms: `L` itself when `n == d`, `downcast<d>(L)` when `n == 1`,
/// `upcast<n>(L)` when `d == 1`, else `downcast<d>(upcast<n>(L))`.
///
/// Pre: both widths positive (else an `Inadmissible` error); `L` satisfies
/// [`upcast`](super::upcast)'s and [`downcast`](super::downcast)'s conditions
/// for the factors used (else their error, naming the factor).
/// Post: as above; `recast_layout(L, b, b) == L`.
///
/// ```
/// use kute::Layout;
/// let l: Layout = "(_4,_8):(_1,_4)".parse().unwrap();
/// // uint8_t -> uint32_t: four bytes per element
/// assert_eq!(kute::recast_layout(&l, 8, 32).unwrap().to_string(), "(_1,_8):(_1,_1)");
/// // half_t -> uint8_t: two bytes per element
/// assert_eq!(kute::recast_layout(&l, 16, 8).unwrap().to_string(), "(_8,_8):(_1,_8)");
/// ```
pub fn recast_layout(l: &Layout, old_bits: i64, new_bits: i64) -> Result<Layout> {
    let op = "recast_layout";
    let (n, d) = recast_factors(old_bits, new_bits)?;
    // the inner operation's own failure, said to be recast_layout's
    let step = |name: &str, factor: i64, r: Result<Layout>| {
        r.map_err(|e| Error::new(e.kind(), op, format!("{name}<{factor}>: {}", e.message())))
    };
    let up = if n == 1 { l.clone() } else { step("upcast", n, super::upcast(l, n))? };
    if d == 1 {
        return Ok(up);
    }
    step("downcast", d, super::downcast(&up, d))
}
