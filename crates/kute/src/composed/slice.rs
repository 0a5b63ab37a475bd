//! Slicing a composed layout, and CuTe's decay of a sliced swizzled layout
//! into a plain layout where the swizzle acts on the slice as a layout does.

use super::{compose3, AnyLayout, ComposedLayout};
use crate::algebra;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::slice::{Coord, Crd};
use crate::layout::Layout;
use crate::swizzle::Swizzle;

/// The extents of CuTe's projection layouts of a swizzle: the `M` kept bits,
/// the `B` Z bits, the `|S|-B` bits between, the `B` Y bits, and a last mode
/// of extent 1; with their column-major strides.
fn projection(sw: Swizzle) -> ([i64; 5], [i64; 5]) {
    let (b, m, s) = (sw.bits(), sw.base(), sw.shift().abs());
    let shape = [1i64 << m, 1 << b, 1 << (s - b), 1 << b, 1];
    let stride = [1i64, 1 << m, 1 << (m + b), 1 << (m + s), 1 << (m + b + s)];
    (shape, stride)
}

fn flat_layout(shape: [i64; 5], stride: [i64; 5]) -> Result<Layout> {
    let s = IntTuple::tuple_of_leaves(shape.into_iter().map(Int::new_static));
    let d = IntTuple::tuple_of_leaves(stride.into_iter().map(Int::new_static));
    Layout::new(&s, &d)
}

/// CuTe's `swizzle_only_zy`: the projection onto the Z and Y bits.
pub(crate) fn only_zy(sw: Swizzle) -> Result<Layout> {
    let (s, d) = projection(sw);
    flat_layout(s, [0, d[1], 0, d[3], 0])
}

/// CuTe's `swizzle_anti_zy`: the projection onto every other bit.
fn anti_zy(sw: Swizzle) -> Result<Layout> {
    let (s, d) = projection(sw);
    flat_layout(s, [d[0], 0, d[2], 0, d[4]])
}

/// Whether `c` is `_` everywhere.
fn all_underscore(c: &Coord) -> bool {
    c.leaves().iter().all(|x| matches!(x, Crd::Underscore))
}

/// CuTe's `to_mixed_bits(L, c)` with every bit known: the xor over `L`'s
/// leaves of `c_k · d_k` (masked to the leaf's `(s_k - 1) · d_k`), with `c`
/// converted to `L`'s natural coordinate.
fn xor_bits(l: &Layout, c: &IntTuple) -> Result<i64> {
    let op = "slice_and_offset";
    let nat = crate::int_tuple::idx2crd(c.as_ref(), l.shape().as_ref()).map_err(|e| e.in_op(op))?;
    let mut acc = 0i64;
    for (m, x) in l.leaves().iter().zip(nat.leaves()) {
        let d = m.stride.int_in(op)?.value();
        let s = m.shape.value();
        let span = s.checked_mul(d).ok_or_else(|| Error::overflow(format!("{op}: {s}·{d}")))?;
        if span != 0 && (span < 0 || span & (span - 1) != 0) {
            return Err(Error::inadmissible(
                op,
                format!("the sliced modes {l} reach the swizzle bits with extent·stride {span}, not a power of two"),
            ));
        }
        let at = x.value().checked_mul(d).ok_or_else(|| Error::overflow(format!("{op}: {x}·{d}")))?;
        acc ^= at & (s - 1).saturating_mul(d);
    }
    Ok(acc)
}

/// The strides CuTe gives the `B` unit steps of the lower (`low`) or higher
/// bit group of a decayed swizzle at `offset` (its `make_swizzle_strides`).
fn swizzle_strides(low_is_z: bool, z: i64, y: i64, offset: i64, b: i32) -> Vec<i64> {
    (0..b)
        .map(|i| {
            if low_is_z {
                if offset & (y << i) == 0 {
                    z << i
                } else {
                    -(z << i)
                }
            } else if offset & (z << i) == 0 {
                (y + z) << i
            } else {
                (y - z) << i
            }
        })
        .collect()
}

/// One mode of the decayed layout: `(extent, stride)` as text, with CuTe's
/// `repeat<B>` of unit steps: a size-1 mode for none (CuTe's empty tuple, the
/// same once coalesced), a leaf for one, a tuple for more.
fn unit_steps(vals: &[i64]) -> (String, String) {
    match vals {
        [] => ("_1".into(), "_0".into()),
        [v] => ("_2".into(), format!("_{v}")),
        vs => (
            format!("({})", vs.iter().map(|_| "_2").collect::<Vec<_>>().join(",")),
            format!("({})", vs.iter().map(|v| format!("_{v}")).collect::<Vec<_>>().join(",")),
        ),
    }
}

/// The decayed swizzle layout of CuTe's slice: extents
/// `(2^M, (2,..,2), 2^(|S|-B), (2,..,2), 1)`, strides
/// `(1, lo, 2^(M+B), hi, 2^(M+B+|S|))`.
fn decayed(sw: Swizzle, lo: &[i64], hi: &[i64]) -> Result<Layout> {
    let (ext, d) = projection(sw);
    let (lo_s, lo_d) = unit_steps(lo);
    let (hi_s, hi_d) = unit_steps(hi);
    let text = format!("(_{},{lo_s},_{},{hi_s},_1):(_1,{lo_d},_{},{hi_d},_{})", ext[0], ext[2], d[2], d[4]);
    text.parse()
}

/// CuTe `slice_and_offset(c, C)` of a composed layout: the slice and the
/// offset to add to it.
///
/// - A composed layout whose outer part is not a swizzle: the inner layout's
///   slice, with its offset folded into the composed layout's (offset 0
///   returned).
/// - A swizzled layout (`Sw o off o B`), as CuTe: where `c` is all `_`, the
///   slice of `B` recomposed; otherwise the bits the fixed coordinates set are
///   split into those the swizzle reads or flips and the rest, and where the
///   free modes do not reach both a Y bit and its Z bit the slice decays into
///   a plain layout (strides that flip sign with the fixed bits) plus an offset.
///
/// Where CuTe's answer is not the slice of the function (an offset that
/// carries into the swizzle bits: CuTe xors it with the sliced bits), the
/// slice is returned composed instead,
/// `Sw o (off + B(c with _ as 0)) o slice(c, B)` with offset 0: the true slice.
///
/// Pre: `c` fits `B`'s shape (else a `Mismatch` error); for a swizzled
/// layout `c` has a `_` (else an `Inadmissible` error, as CuTe); as CuTe's
/// compositions of the projections (else their error).
/// Post: `(R, k)` with `C(c_j) == R(j) + k` for every coordinate `j` of the slice.
///
/// ```
/// use kute::composed::{slice_and_offset, AnyLayout};
/// let c = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap().to_any_layout("c").unwrap();
/// let AnyLayout::Composed(k) = c else { unreachable!() };
/// let coord = kute::expr::parse_coord("(_3,_)").unwrap();
/// let (r, off) = slice_and_offset(&coord, &k).unwrap();
/// assert_eq!((r.to_string(), off.to_string()), ("((_16,_2,_2)):((_1,_-16,_32))".to_string(), "_208".to_string()));
/// ```
pub fn slice_and_offset(c: &Coord, k: &ComposedLayout) -> Result<(AnyLayout, Int)> {
    let op = "slice_and_offset";
    let b = match k.inner() {
        AnyLayout::Layout(b) => b,
        AnyLayout::Composed(inner) => {
            let (s, off) = slice_and_offset(c, inner)?;
            let o = k.offset().add(off).map_err(|e| e.in_op(op))?;
            return Ok((AnyLayout::from(ComposedLayout::new(k.outer().clone(), o, s)), Int::ZERO));
        }
        AnyLayout::Swizzle(s) => {
            return Err(Error::new(crate::ErrorKind::Type, op, format!("{s} has no modes to slice")));
        }
    };
    let generic = || -> Result<(AnyLayout, Int)> {
        let (s, off) = b.slice_and_offset(c)?;
        let off = off.as_int().ok_or_else(|| {
            Error::inadmissible(op, format!("the inner layout {b} of a composed layout must have integer strides"))
        })?;
        let o = k.offset().add(off).map_err(|e| e.in_op(op))?;
        Ok((AnyLayout::from(ComposedLayout::new(k.outer().clone(), o, AnyLayout::Layout(s))), Int::ZERO))
    };
    let Some(sw) = k.swizzle() else { return generic() };
    if all_underscore(c) {
        return Ok((compose3(k.outer().clone(), k.offset(), AnyLayout::Layout(b.slice(c)?)), Int::ZERO));
    }
    if !c.leaves().iter().any(|x| matches!(x, Crd::Underscore)) {
        // CuTe's decay composes with the empty slice, which does not compile
        return Err(Error::inadmissible(
            op,
            format!("slicing the swizzled layout {k} at {c}, a coordinate without '_': evaluate it instead"),
        ));
    }
    let (only, anti) = (only_zy(sw)?, anti_zy(sw)?);
    let sliced = b.slice(c)?;
    let diced = b.dice(c)?;
    let all_static = k.offset().is_static()
        && b.is_static()
        && c.leaves().iter().all(|x| match x {
            Crd::Int(i) => i.is_static(),
            Crd::Underscore => true,
        });
    let zeros = c.map(|x| match x {
        Crd::Int(i) => i,
        Crd::Underscore => Int::ZERO,
    });
    let diced_coord = crate::layout::slice::dice_tuple(c, zeros.as_ref())?;
    let diced_only = algebra::composition(&only, &diced).map_err(|e| e.within(op))?;
    let diced_anti = algebra::composition(&anti, &diced).map_err(|e| e.within(op))?;
    let off_zy = k.offset().value() ^ xor_bits(&diced_only, &diced_coord)?;
    let off_anti = diced_anti.eval_coord(&diced_coord)?.value();
    let sliced_only = algebra::composition(&only, &sliced).map_err(|e| e.within(op))?;
    let active = sliced_only.eval_int(Int::new_static(sliced_only.size()?.value() - 1))?.value();
    let int = |v: i64| Int::new(v, all_static);
    if active & !sw.apply(active) != 0 {
        // the free modes reach a Y bit and its Z bit: no decay
        let r = compose3(AnyLayout::Swizzle(sw), int(off_zy), AnyLayout::Layout(sliced));
        if slice_holds(k, c, &r, off_anti)? {
            return Ok((r, int(off_anti)));
        }
        return generic();
    }
    let z = sw.zzz_mask() & -sw.zzz_mask();
    let y = sw.yyy_mask() & -sw.yyy_mask();
    let lo = swizzle_strides(z < y, z, y, off_zy, sw.bits());
    let hi = swizzle_strides(z > y, z, y, off_zy, sw.bits());
    let layout = algebra::composition(&decayed(sw, &lo, &hi)?, &sliced).map_err(|e| e.within(op))?;
    let off =
        sw.apply(off_zy).checked_add(off_anti).ok_or_else(|| Error::overflow(format!("{op}: the offset of {c}")))?;
    let r = AnyLayout::Layout(layout);
    if slice_holds(k, c, &r, off)? {
        return Ok((r, int(off)));
    }
    generic()
}

/// Whether `C(c_j) == R(j) + off` for every coordinate `j` of the slice.
fn slice_holds(k: &ComposedLayout, c: &Coord, r: &AnyLayout, off: i64) -> Result<bool> {
    let n = r.size()?.value();
    super::check_points("slice_and_offset", n)?;
    let free = k.inner().as_layout("slice_and_offset")?.slice(c)?.shape();
    for j in 0..n {
        let jc = crate::int_tuple::idx2crd(IntTuple::leaf(Int::new_dynamic(j)).as_ref(), free.as_ref())?;
        let full = fill_underscores(c, &jc)?;
        if k.eval_coord(&full)?.value() != r.eval_int(Int::new_dynamic(j))?.value() + off {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `c` with its `_` replaced, in order, by the top-level elements of `free`
/// (the coordinate of a slice, whose modes are `c`'s `_` positions in order).
pub(crate) fn fill_underscores(c: &Coord, free: &IntTuple) -> Result<IntTuple> {
    let parts: Vec<IntTuple> = match free.as_ref().as_leaf() {
        Some(_) => vec![free.clone()],
        None => free.as_ref().children().map(|x| x.to_tree()).collect(),
    };
    let mut next = parts.into_iter();
    let mut err = None;
    let t = crate::tree::Tree::try_build(|out| {
        fill(out, c.as_ref(), &mut next, &mut err);
        Ok(())
    })?;
    match err {
        Some(e) => Err(e),
        None => Ok(t),
    }
}

fn fill(
    out: &mut crate::tree::Builder<'_, Int>,
    c: crate::tree::TreeRef<'_, Crd>,
    next: &mut impl Iterator<Item = IntTuple>,
    err: &mut Option<Error>,
) {
    match c.as_leaf() {
        Some(Crd::Int(i)) => out.leaf(i),
        Some(Crd::Underscore) => match next.next() {
            Some(t) => out.push(t.as_ref()),
            None => *err = Some(Error::mismatch("slice", "more '_' than free modes")),
        },
        None => {
            out.open();
            for x in c.children() {
                fill(out, x, next, err);
            }
            out.close();
        }
    }
}
