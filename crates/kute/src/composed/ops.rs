//! The operations where a composed layout or a swizzle needs more than "act on
//! the inner layout": composition on either side, the inverses, recasting,
//! alignment and common vectors, and a product by a swizzled layout.
//!
//! CuTe computes several of these with rules that hold "in simple cases"
//! (its own comment on `composition(Layout, Swizzle)`). kute follows CuTe's
//! rule, then checks the answer point by point against the function it
//! stands for, and returns an `Inadmissible` error where they differ.

use super::{check_points, compose3, AnyLayout, ComposedLayout};
use crate::algebra;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::swizzle::Swizzle;

/// The first `i` in `[0, n)` where `holds(i)` is false, if any.
fn first_failure(op: &'static str, n: i64, holds: impl Fn(Int) -> Result<bool>) -> Result<Option<i64>> {
    check_points(op, n)?;
    for i in 0..n {
        if !holds(Int::new_dynamic(i))? {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

/// Whether `got(i) == want(i)` for every `i` in `[0, n)`.
fn agrees(op: &'static str, got: &AnyLayout, n: i64, want: impl Fn(Int) -> Result<Int>) -> Result<bool> {
    Ok(first_failure(op, n, |x| Ok(got.eval_int(x)?.value() == want(x)?.value()))?.is_none())
}

fn not_the_composite(op: &'static str, what: String) -> Error {
    Error::inadmissible(op, what)
}

/// CuTe `composition(A, B)` of layouts, swizzles and composed layouts:
/// `x -> A(B(x))` on `B`'s domain.
///
/// - two layouts: [`composition`](crate::composition);
/// - two swizzles: [`Swizzle::compose`];
/// - a swizzle and a layout: `Sw o 0 o L` (the layout itself for a swizzle of
///   no bits);
/// - a layout and a swizzle: CuTe's `Sw' o 0 o A` with `Sw'` made from
///   `A(yyy_mask)` and `A(zzz_mask)`;
/// - a layout and a composed layout of offset 0:
///   `composition(composition(A, B.outer), B.inner)`;
/// - a composed layout and anything: the composition on its inner layout.
///
/// Pre: the pair is one of those (else a `Type` error); the rule's answer is
/// the composite at every point of the domain (else an `Inadmissible` error:
/// CuTe answers something else there); as each step.
/// Post: a function equal to `A(B(x))` for every `x` of `B`'s domain.
///
/// ```
/// use kute::composed::{ops::composition, AnyLayout};
/// use kute::swizzle::Swizzle;
/// let a = AnyLayout::Layout("(_4,_4):(_4,_1)".parse().unwrap());
/// let sw = AnyLayout::Swizzle(Swizzle::new(2, 0, 2).unwrap());
/// assert_eq!(composition(&a, &sw).unwrap().to_string(), "Sw<2,0,-2> o _0 o (_4,_4):(_4,_1)");
/// // CuTe moves the swizzle left even where that is not the composite
/// let t = AnyLayout::Layout("(_8,_64):(_64,_1)".parse().unwrap());
/// assert!(composition(&t, &AnyLayout::Swizzle(Swizzle::new(3, 4, 3).unwrap())).is_err());
/// ```
pub fn composition(a: &AnyLayout, b: &AnyLayout) -> Result<AnyLayout> {
    let op = "composition";
    match (a, b) {
        (AnyLayout::Layout(x), AnyLayout::Layout(y)) => Ok(AnyLayout::Layout(algebra::composition(x, y)?)),
        (AnyLayout::Swizzle(x), AnyLayout::Swizzle(y)) => Ok(AnyLayout::Swizzle(x.compose(*y)?)),
        (AnyLayout::Swizzle(_), AnyLayout::Layout(_)) => Ok(compose3(a.clone(), Int::ZERO, b.clone())),
        (AnyLayout::Layout(x), AnyLayout::Swizzle(s)) => compose_layout_swizzle(x, *s),
        (AnyLayout::Layout(x), AnyLayout::Composed(c)) => {
            if c.offset().value() != 0 {
                return Err(Error::inadmissible(
                    op,
                    format!("composition({x}, {c}): CuTe requires the composed layout's offset to be 0"),
                ));
            }
            let left = composition(a, c.outer())?;
            let r = composition(&left, c.inner())?;
            let n = c.size()?.value();
            if !agrees(op, &r, n, |i| x.eval_int(c.eval_int(i)?))? {
                return Err(not_the_composite(
                    op,
                    format!("composition({x}, {c}): CuTe's answer {r} is not the composite (the swizzle does not pass through {x})"),
                ));
            }
            Ok(r)
        }
        (AnyLayout::Composed(c), _) => {
            let inner = composition(c.inner(), b)?;
            Ok(c.recompose(inner))
        }
        (AnyLayout::Swizzle(_), AnyLayout::Composed(_)) => Err(Error::new(
            crate::ErrorKind::Type,
            op,
            format!("composition({a}, {b}): CuTe composes a swizzle with a plain layout or a swizzle only"),
        )),
    }
}

/// CuTe `composition(Layout, Swizzle)`: the swizzle moved to the left,
/// `make_swizzle<A(yyy), A(zzz)>() o 0 o A`, checked on `A`'s domain.
fn compose_layout_swizzle(a: &Layout, s: Swizzle) -> Result<AnyLayout> {
    let op = "composition";
    let y = a.eval_int(Int::new_static(s.yyy_mask())).map_err(|e| e.in_op(op))?;
    let z = a.eval_int(Int::new_static(s.zzz_mask())).map_err(|e| e.in_op(op))?;
    let moved = Swizzle::from_masks(y.value(), z.value()).map_err(|e| {
        Error::inadmissible(
            op,
            format!("composition({a}, {s}): the swizzle does not pass through the layout ({})", e.message()),
        )
    })?;
    let r = compose3(AnyLayout::Swizzle(moved), Int::ZERO, AnyLayout::Layout(a.clone()));
    let n = a.size()?.value();
    if !agrees(op, &r, n, |i| a.eval_int(s.apply_int(i)))? {
        return Err(not_the_composite(
            op,
            format!(
                "composition({a}, {s}): CuTe's answer {r} is not the composite: the swizzle does not pass through {a}"
            ),
        ));
    }
    Ok(r)
}

/// Which inverse.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Right,
    Left,
}

impl Side {
    fn name(self) -> &'static str {
        match self {
            Side::Right => "right_inverse",
            Side::Left => "left_inverse",
        }
    }
}

/// CuTe's inverse of any part: a layout's, a swizzle is its own, an offset
/// is its negation, and a composed layout's is the composition of its parts'
/// inverses in reverse order (the swizzle moved left through `B`'s inverse
/// when the offset is 0).
fn inverse(c: &AnyLayout, side: Side) -> Result<AnyLayout> {
    let f = match side {
        Side::Right => algebra::right_inverse,
        Side::Left => algebra::left_inverse,
    };
    match c {
        AnyLayout::Layout(l) => Ok(AnyLayout::Layout(f(l)?)),
        AnyLayout::Swizzle(s) => Ok(AnyLayout::Swizzle(*s)),
        AnyLayout::Composed(k) => {
            let b = inverse(k.inner(), side)?;
            if k.swizzle().is_some() && k.offset().value() == 0 {
                return composition(&b, k.outer()).map_err(|e| e.within(side.name()));
            }
            let off = k.offset().neg().map_err(|e| e.in_op(side.name()))?;
            Ok(compose3(b, off, inverse(k.outer(), side)?))
        }
    }
}

/// CuTe `right_inverse` of a layout, swizzle or composed layout.
///
/// Pre: as CuTe's rule (a layout's right inverse; for a swizzled layout the
/// swizzle must pass through that inverse, else an `Inadmissible` error);
/// where the answer has a domain, `C(R(j)) == j` on it (else an
/// `Inadmissible` error).
/// Post: `R` with `C(R(j)) == j` for every `j` of `R`'s domain (a composed
/// answer whose inner part is a swizzle has no domain, and is CuTe's rule
/// applied to exact parts).
///
/// ```
/// use kute::composed::ops::right_inverse;
/// let c = kute::expr::eval("Sw<2,0,2> o _0 o _16:_1").unwrap().to_any_layout("c").unwrap();
/// assert_eq!(right_inverse(&c).unwrap().to_string(), "Sw<2,0,2> o _0 o _16:_1");
/// ```
pub fn right_inverse(c: &AnyLayout) -> Result<AnyLayout> {
    let op = "right_inverse";
    let r = inverse(c, Side::Right)?;
    if let (Ok(n), AnyLayout::Composed(_)) = (r.size(), c)
        && let Some(j) = first_failure(op, n.value(), |x| Ok(c.eval_int(r.eval_int(x)?)?.value() == x.value()))?
    {
        return Err(Error::inadmissible(op, format!("{r} is not a right inverse of {c}: it fails at {j}")));
    }
    Ok(r)
}

/// CuTe `left_inverse` of a layout, swizzle or composed layout.
///
/// Pre: as [`right_inverse`]; `R(C(i)) == i` on `C`'s domain (else an
/// `Inadmissible` error). Post: `R` with `R(C(i)) == i` for every `i` of `C`'s domain.
///
/// ```
/// use kute::composed::ops::left_inverse;
/// let c = kute::expr::eval("Sw<3,3,4> o _220 o ((_4,_4),_16):((_4,_1),_16)").unwrap().to_any_layout("c").unwrap();
/// assert_eq!(left_inverse(&c).unwrap().to_string(), "(_4,_4,_16):(_4,_1,_16) o _-220 o Sw<3,3,4>");
/// ```
pub fn left_inverse(c: &AnyLayout) -> Result<AnyLayout> {
    let op = "left_inverse";
    let r = inverse(c, Side::Left)?;
    if let (Ok(n), AnyLayout::Composed(_)) = (c.size(), c)
        && let Some(i) = first_failure(op, n.value(), |x| Ok(r.eval_int(c.eval_int(x)?)?.value() == x.value()))?
    {
        return Err(Error::inadmissible(op, format!("{r} is not a left inverse of {c}: it fails at {i}")));
    }
    Ok(r)
}

/// An offset in `N`-times wider elements (CuTe's `upcast<N>` of an integer).
fn upcast_offset(o: Int, n: i64) -> Result<Int> {
    if n <= 0 {
        return Err(Error::inadmissible("upcast", format!("upcast<{n}>: N must be positive")));
    }
    if o.value() % n != 0 {
        return Err(Error::inadmissible("upcast", format!("the offset {o} is not a multiple of {n}")));
    }
    Ok(Int::new(o.value() / n, o.is_static()))
}

/// CuTe `upcast<N>` (`up`) or `downcast<N>` of any part, a composed layout
/// part by part (kept composed: CuTe's recast offset is not an `Int<0>`, so its
/// identity rule does not fire).
///
/// Pre: `N` a positive power of two for a swizzle; an offset a multiple of `N`
/// for `upcast`; as [`upcast`](crate::upcast) / [`downcast`](crate::downcast).
/// Post: the same map on `N`-times wider (narrower) elements.
///
/// ```
/// use kute::composed::ops::recast;
/// let c = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap().to_any_layout("c").unwrap();
/// assert_eq!(recast(&c, 2, true).unwrap().to_string(), "Sw<3,3,3> o _0 o (_8,_32):(_32,_1)");
/// ```
pub fn recast(c: &AnyLayout, n: i64, up: bool) -> Result<AnyLayout> {
    Ok(match c {
        AnyLayout::Layout(l) => AnyLayout::Layout(if up { algebra::upcast(l, n)? } else { algebra::downcast(l, n)? }),
        AnyLayout::Swizzle(s) => AnyLayout::Swizzle(if up { s.upcast(n)? } else { s.downcast(n)? }),
        AnyLayout::Composed(k) if k.flag().is_some() => {
            // CuTe's upcast / downcast of a flagged atom: the swizzle stays on
            // byte addresses, the flag's width scales
            let flag = k.flag().unwrap_or(super::PtrFlag { bits: 1, sparsity: None });
            let op = if up { "upcast" } else { "downcast" };
            if flag.sparsity.is_some() {
                return Err(crate::Error::new(
                    crate::ErrorKind::Inadmissible,
                    op,
                    format!("{k}: CuTe does not recast a sparse shared-memory atom (not implemented for safety)"),
                ));
            }
            let bits = if up { flag.bits.checked_mul(n) } else { (n > 0 && flag.bits % n == 0).then(|| flag.bits / n) }
                .ok_or_else(|| {
                    crate::Error::mismatch(
                        op,
                        format!(
                            "{k}: the pointer width {}b by {n} is not a whole number of bits (CuTe's integer \
                             division answers smem_ptr[{}b]{})",
                            flag.bits,
                            if n > 0 { flag.bits / n } else { 0 },
                            if n > flag.bits { ", whose elements would all lie at the same byte" } else { "" }
                        ),
                    )
                })?;
            AnyLayout::from(ComposedLayout::with_flag(
                k.outer().clone(),
                super::PtrFlag { bits, ..flag },
                recast(k.inner(), n, up)?,
            ))
        }
        AnyLayout::Composed(k) => {
            let off = if up {
                upcast_offset(k.offset(), n)?
            } else {
                k.offset().mul(Int::new_static(n)).map_err(|e| e.in_op("downcast"))?
            };
            AnyLayout::from(ComposedLayout::new(recast(k.outer(), n, up)?, off, recast(k.inner(), n, up)?))
        }
    })
}

/// CuTe `recast_layout<Old, New>` of any part, by the widths in bits: as
/// [`recast_layout`](crate::recast_layout), through [`recast`].
///
/// Pre: both widths positive; as [`recast`]. Post: as [`recast_layout`](crate::recast_layout).
///
/// ```
/// use kute::composed::ops::recast_layout;
/// let c = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap().to_any_layout("c").unwrap();
/// // half_t -> uint128_t: eight halves per element
/// assert_eq!(recast_layout(&c, 16, 128).unwrap().to_string(), "Sw<3,1,3> o _0 o (_8,_8):(_8,_1)");
/// ```
pub fn recast_layout(c: &AnyLayout, old_bits: i64, new_bits: i64) -> Result<AnyLayout> {
    let op = "recast_layout";
    let (n, d) = algebra::recast_factors(old_bits, new_bits)?;
    let up = if n == 1 { c.clone() } else { recast(c, n, true).map_err(|e| e.within(op))? };
    if d == 1 {
        return Ok(up);
    }
    recast(&up, d, false).map_err(|e| e.within(op))
}

/// CuTe `max_alignment`: a layout's; `2^M` for a swizzle; for a swizzled
/// layout the gcd of the swizzle's, the offset's and the inner layout's; 1
/// for any other composed layout (CuTe does not attempt it).
///
/// Pre: as [`max_alignment`](crate::max_alignment). Post: as above.
///
/// ```
/// use kute::composed::ops::max_alignment;
/// let c = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap().to_any_layout("c").unwrap();
/// assert_eq!(max_alignment(&c).unwrap().value(), 16);
/// ```
pub fn max_alignment(c: &AnyLayout) -> Result<Int> {
    match c {
        AnyLayout::Layout(l) => algebra::max_alignment(l),
        AnyLayout::Swizzle(s) => Ok(Int::new_static(s.max_alignment())),
        AnyLayout::Composed(k) => match (k.swizzle(), k.inner()) {
            (Some(s), AnyLayout::Layout(b)) => {
                let g = Int::new_static(s.max_alignment()).gcd(k.offset())?;
                g.gcd(algebra::max_alignment(b)?)
            }
            _ => Ok(Int::ONE),
        },
    }
}

/// The swizzle and inner layout of a swizzled layout, or of a plain layout
/// (whose swizzle is CuTe's identity `Sw<0,4,3>`).
fn swizzled_parts<'a>(c: &'a AnyLayout, op: &'static str) -> Result<(Swizzle, &'a Layout)> {
    match c {
        AnyLayout::Layout(l) => Ok((identity_swizzle(), l)),
        AnyLayout::Composed(k) => match (k.swizzle(), k.inner()) {
            (Some(s), AnyLayout::Layout(b)) => Ok((s, b)),
            _ => Err(Error::new(
                crate::ErrorKind::Type,
                op,
                format!("{k} is not a swizzled layout (Sw o offset o layout)"),
            )),
        },
        AnyLayout::Swizzle(s) => {
            Err(Error::new(crate::ErrorKind::Type, op, format!("{s} is a swizzle, not a layout (compose it with one)")))
        }
    }
}

/// CuTe's `get_swizzle_t` of a plain layout: `Swizzle<0,4,3>`.
fn identity_swizzle() -> Swizzle {
    // 0 bits, base 4, shift 3: always valid
    Swizzle::new(0, 4, 3).unwrap_or_else(|_| unreachable!())
}

/// CuTe `get_swizzle_portion`: the swizzle of a swizzled layout, `Sw<0,4,3>`
/// for a plain layout.
///
/// Pre: a plain or swizzled layout (else a `Type` error).
/// Post: `A` of `Sw o offset o B`; `Sw<0,4,3>` (no bits) for a plain layout.
///
/// ```
/// use kute::composed::ops::{get_nonswizzle_portion, get_swizzle_portion};
/// let c = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap().to_any_layout("c").unwrap();
/// assert_eq!(get_swizzle_portion(&c).unwrap().to_string(), "Sw<3,4,3>");
/// assert_eq!(get_nonswizzle_portion(&c).unwrap().to_string(), "(_8,_64):(_64,_1)");
/// ```
pub fn get_swizzle_portion(c: &AnyLayout) -> Result<Swizzle> {
    Ok(swizzled_parts(c, "get_swizzle_portion")?.0)
}

/// CuTe `get_nonswizzle_portion`: the inner layout of a swizzled layout, a
/// plain layout itself.
///
/// Pre: a plain or swizzled layout (else a `Type` error).
/// Post: `B` of `Sw o offset o B` (the offset is dropped, as in CuTe); a plain layout unchanged.
///
/// ```
/// use kute::composed::ops::get_nonswizzle_portion;
/// let c = kute::expr::eval("Sw<3,1,3> o _0 o (_32,_16):(_1,_32)").unwrap().to_any_layout("c").unwrap();
/// assert_eq!(get_nonswizzle_portion(&c).unwrap().to_string(), "(_32,_16):(_1,_32)");
/// let l = kute::expr::eval("(_8,_64):(_64,_1)").unwrap().to_any_layout("l").unwrap();
/// assert_eq!(get_nonswizzle_portion(&l).unwrap().to_string(), "(_8,_64):(_64,_1)");
/// ```
pub fn get_nonswizzle_portion(c: &AnyLayout) -> Result<Layout> {
    Ok(swizzled_parts(c, "get_nonswizzle_portion")?.1.clone())
}

/// CuTe `max_common_vector(A, B)` where either is swizzled: the inner
/// layouts' common vector, capped at `2^M` of each swizzle (not capped when
/// both have the same swizzle).
///
/// Pre: plain or swizzled layouts (else a `Type` error); as
/// [`max_common_vector`](crate::max_common_vector).
/// Post: `max_common_vector` of the inner layouts, at most `2^M` of each
/// swizzled argument's swizzle unless both have the same swizzle.
///
/// ```
/// use kute::composed::ops::max_common_vector;
/// let c = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap().to_any_layout("c").unwrap();
/// let l = kute::expr::eval("(_8,_64):(_64,_1)").unwrap().to_any_layout("l").unwrap();
/// assert_eq!(max_common_vector(&c, &l).unwrap().value(), 16); // capped at 2^M
/// assert_eq!(max_common_vector(&c, &c).unwrap().value(), 512); // the same swizzle
/// ```
pub fn max_common_vector(a: &AnyLayout, b: &AnyLayout) -> Result<Int> {
    let op = "max_common_vector";
    let (sa, la) = swizzled_parts(a, op)?;
    let (sb, lb) = swizzled_parts(b, op)?;
    let v = algebra::max_common_vector(la, lb)?;
    let (za, zb) = (matches!(a, AnyLayout::Composed(_)), matches!(b, AnyLayout::Composed(_)));
    if za && zb && sa == sb {
        return Ok(v);
    }
    let mut r = v;
    if za {
        r = r.min(Int::new_static(sa.max_alignment()))?;
    }
    if zb {
        r = r.min(Int::new_static(sb.max_alignment()))?;
    }
    Ok(r)
}

/// CuTe `max_common_layout(A, B)` of a swizzled and a plain layout: the inner
/// layouts' common layout, cut to its first `2^M` elements.
///
/// Pre: one swizzled and one plain layout (else a `Type` error); as
/// [`max_common_layout`](crate::max_common_layout).
/// Post: `max_common_layout` of the inner and the plain layout, composed with
/// `2^M:1` where that common layout is larger than `2^M`.
///
/// ```
/// use kute::composed::ops::max_common_layout;
/// let c = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap().to_any_layout("c").unwrap();
/// let l = kute::expr::eval("(_8,_64):(_64,_1)").unwrap().to_any_layout("l").unwrap();
/// assert_eq!(max_common_layout(&c, &l).unwrap().to_string(), "_16:_8"); // coordinates 0, 8, ...
/// ```
pub fn max_common_layout(a: &AnyLayout, b: &AnyLayout) -> Result<Layout> {
    let op = "max_common_layout";
    let (sw, la, lb) = match (a, b) {
        (AnyLayout::Composed(_), AnyLayout::Layout(l)) => {
            let (s, la) = swizzled_parts(a, op)?;
            (s, la, l)
        }
        (AnyLayout::Layout(l), AnyLayout::Composed(_)) => {
            let (s, lb) = swizzled_parts(b, op)?;
            (s, lb, l)
        }
        _ => {
            return Err(Error::new(
                crate::ErrorKind::Type,
                op,
                format!("max_common_layout({a}, {b}): one swizzled and one plain layout"),
            ))
        }
    };
    let common = algebra::max_common_layout(la, lb)?;
    let base = sw.max_alignment();
    if base < common.size()?.value() {
        return algebra::composition(&common, &Layout::leaf(Int::new_static(base), Int::ONE));
    }
    Ok(common)
}

/// CuTe `make_layout(Swizzle<B,M,S>)`: the swizzle composed with
/// `_(M+B+|S|):_1` (CuTe's size, reproduced as it is).
///
/// Pre: none. Post: `Sw o _0 o _(M+B+|S|):_1`, or the layout `_(M+B+|S|):_1`
/// alone for a swizzle of no bits.
///
/// ```
/// let sw = kute::Swizzle::new(3, 4, 3).unwrap();
/// assert_eq!(kute::composed::ops::make_layout_of_swizzle(sw).to_string(), "Sw<3,4,3> o _0 o _10:_1");
/// ```
pub fn make_layout_of_swizzle(s: Swizzle) -> AnyLayout {
    let n = i64::from(s.base() + s.bits() + s.shift().abs());
    compose3(AnyLayout::Swizzle(s), Int::ZERO, AnyLayout::Layout(Layout::leaf(Int::new_static(n), Int::ONE)))
}

/// CuTe `domain_offset(c, C)` of a composed layout: `C` with `B(c)` added to
/// its offset, and the pointer offset 0.
///
/// Pre: as [`ComposedLayout::eval_coord`] of the inner layout at `c`; the
/// new offset does not overflow (else an `Overflow` error).
/// Post: `(A o (offset + B(c)) o B, _0)`: the same parts, the offset moved by `B(c)`.
///
/// ```
/// let v = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap();
/// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
/// let (r, off) = kute::composed::ops::domain_offset(&"(_1,_2)".parse().unwrap(), &c).unwrap();
/// assert_eq!((r.to_string(), off.value()), ("Sw<3,4,3> o _66 o (_8,_64):(_64,_1)".to_string(), 0));
/// ```
pub fn domain_offset(c: &IntTuple, k: &ComposedLayout) -> Result<(ComposedLayout, Int)> {
    let op = "domain_offset";
    let b = k.inner().eval_coord(c).map_err(|e| e.in_op(op))?;
    let off = k.offset().add(b).map_err(|e| e.in_op(op))?;
    Ok((ComposedLayout::new(k.outer().clone(), off, k.inner().clone()), Int::ZERO))
}

/// CuTe `logical_product(L, Sw o 0 o B)`: `logical_product(L, B)` with the
/// swizzle carried onto the new strides (CuTe's identifiers of the active Y
/// and Z bits passed through `B` and the product), checked against the true
/// product `(a, b) -> L(a) + K(Sw(B(b)))`, `K = complement(L, size(L)·cosize(B))`.
///
/// Pre: the offset is 0 and the swizzle's outer part a swizzle (else an
/// `Inadmissible` or `Type` error); the carried swizzle is one and gives the
/// true product (else an `Inadmissible` error); as
/// [`logical_product`](crate::logical_product).
/// Post: a function equal to the true product on its domain.
///
/// ```
/// let v = kute::expr::eval("Sw<2,4,3> o _0 o ((_8,_1),(_32,_1)):((_32,_256),(_1,_256))").unwrap();
/// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
/// let l: kute::Layout = "_4:_1".parse().unwrap();
/// // CuTe carries the swizzle wrongly here (Sw<2,7,3>): kute says so
/// let v2 = kute::expr::eval("Sw<2,1,3> o _0 o ((_8,_1),(_128,_2)):((_128,_1024),(_1,_1024))").unwrap();
/// let kute::AnyLayout::Composed(c2) = v2.to_any_layout("c").unwrap() else { unreachable!() };
/// assert!(kute::composed::ops::logical_product(&l, &c2).is_err());
/// let _ = c;
/// ```
pub fn logical_product(l: &Layout, c: &ComposedLayout) -> Result<AnyLayout> {
    let op = "logical_product";
    let whole = AnyLayout::Composed(Box::new(c.clone()));
    let (sw, b) = swizzled_parts(&whole, op)?;
    if c.offset().value() != 0 {
        return Err(Error::inadmissible(
            op,
            format!("logical_product({l}, {c}): CuTe requires the swizzle's offset to be 0"),
        ));
    }
    let new_layout = algebra::logical_product(l, b)?;
    let only_zy = super::slice::only_zy(sw)?;
    let zy = algebra::composition(&only_zy, b)?;
    let active = zy.eval_int(Int::new_static(zy.size()?.value() - 1))?.value();
    let (az, ay) = (active & sw.zzz_mask(), active & sw.yyy_mask());
    let second = new_layout.mode(1)?;
    let through = |x: i64| -> Result<i64> { Ok(second.eval_int(b.eval_int(Int::new_static(x))?)?.value()) };
    let moved = Swizzle::from_masks(through(ay)?, through(az)?).map_err(|e| {
        Error::inadmissible(op, format!("logical_product({l}, {c}): the swizzle does not carry over ({})", e.message()))
    })?;
    let r = compose3(AnyLayout::Swizzle(moved), Int::ZERO, AnyLayout::Layout(new_layout.clone()));
    let k = algebra::complement(l, l.size()?.mul(b.cosize()?)?)?;
    let n = r.size()?.value();
    let la = l.size()?.value();
    let want = |i: Int| -> Result<Int> {
        let (x, y) = (i.value() % la, i.value() / la);
        let inner = sw.apply(b.eval_int(Int::new_dynamic(y))?.value());
        let v = l.eval(x)?.checked_add(k.eval(inner)?).ok_or_else(|| Error::overflow("logical_product: a value"))?;
        Ok(Int::new_dynamic(v))
    };
    if !agrees(op, &r, n, want)? {
        return Err(Error::inadmissible(
            op,
            format!("logical_product({l}, {c}): CuTe's answer {r} is not the product (its carried swizzle is wrong)"),
        ));
    }
    Ok(r)
}
