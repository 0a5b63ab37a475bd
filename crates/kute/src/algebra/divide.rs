//! The divide family: `logical_divide` and its regroupings `zipped_divide`,
//! `tiled_divide`, `flat_divide`; also `tile_unzip`.
//!
//! `logical_divide` is checked like [`composition`](crate::composition): a
//! result that is not the true composite is an error. The regroupings
//! (`zipped`/`tiled`/`flat_divide`) return CuTe's answer as it is, since that is
//! what CuTe's reference answers for them pin down (see
//! [`doc::differences`](crate::doc::differences)); check a tiler with
//! `logical_divide` first when in doubt.

use super::coalesce::{coalesce_modes, Modes};
use super::complement::{complement_modes, Cot};
use super::composition::{compose_into, compose_with, Part};
use super::tiler::Tiler;
use crate::error::{Error, Result};
use crate::layout::{leaf_ref, Layout, LayoutRef, Mode};
use crate::tree::{Builder, Tree};

/// CuTe `logical_divide(A, B)` for a layout `B`:
/// `A ∘ (B, complement(B, shape(coalesce(A))))`, a rank-2 `(tile, rest)` layout.
/// A tile that does not divide `A` rounds the rest mode up (the domain grows),
/// exactly as CuTe.
///
/// Pre: those of [`complement`](crate::complement) and [`composition`](crate::composition).
///
/// ```
/// use kute::Layout;
/// let a: Layout = "24:2".parse().unwrap();
/// let b: Layout = "4:2".parse().unwrap();
/// assert_eq!(kute::logical_divide(&a, &b.into()).unwrap().to_string(), "(4,(2,3)):(4,(2,16))");
/// ```
pub fn logical_divide(a: &Layout, t: &Tiler) -> Result<Layout> {
    Layout::from_into(|out| logical_divide_into(out, a, t))
}

/// [`logical_divide`] written into `out` (the fastest form: no move of the
/// result). On error `out` is `_1:_0`.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "24:2".parse().unwrap();
/// let b: Layout = "4:2".parse().unwrap();
/// let mut out = Layout::default();
/// kute::logical_divide_into(&mut out, &a, &b.into()).unwrap();
/// assert_eq!(out.to_string(), "(4,(2,3)):(4,(2,16))");
/// ```
#[inline]
pub fn logical_divide_into(out: &mut Layout, a: &Layout, t: &Tiler) -> Result<()> {
    if super::fast::logical_divide(out, a, t).is_some() {
        return Ok(());
    }
    super::general(|| {
        out.build_in(|out| divide_tiler_into(out, a.as_tree_ref(), t, true)).map_err(|e| e.in_op("logical_divide"))
    })
}

/// `A ∘ (B, complement(B, shape(coalesce(A))))` into `out`.
fn divide_into(out: &mut Builder<'_, Mode>, a: LayoutRef<'_>, b: LayoutRef<'_>, verify: bool) -> Result<()> {
    // coalesce(A) gives the cotarget; coalesce_x(A) is the composition's left
    // operand: the same unless A's last extent is 1
    let mut ca = Modes::new();
    coalesce_modes(&mut ca, a.leaves(), false).map_err(|e| e.in_op("coalesce"))?;
    let mut rest = Modes::new();
    complement_modes(&mut rest, b, Cot::Shapes(&ca)).map_err(|e| e.in_op("complement"))?;
    let parts = [Part::Tree(b), Part::Flat(&rest)];
    // A tile that does not divide a coordinate layout's modes gives partial
    // tiles: the rest is rounded up mode by mode, and its indices count in that
    // padded space, not in A's 1-D domain. CuTe's answer (coordinates past the
    // shape, which predication relies on) is then the meaning, and there is no
    // 1-D composite to prove it against.
    let verify = verify && (ca.len() == 1 || ca.iter().all(|m| m.stride.is_int()) || !pads(b, &rest, &ca)?);
    if a.leaves().last().is_some_and(|m| m.shape.value() != 1) {
        compose_with(out, Part::Tree(a), &ca, &parts, verify)
    } else {
        compose_into(out, a, &parts, verify)
    }
}

/// Whether the tile and its rest cover more than the cotarget (rounded up).
fn pads(b: LayoutRef<'_>, rest: &[Mode], ca: &[Mode]) -> Result<bool> {
    let mut covered = crate::int::Int::ONE;
    for m in b.leaves().iter().chain(rest) {
        covered = covered.mul(m.shape)?;
    }
    let mut size = crate::int::Int::ONE;
    for m in ca {
        size = size.mul(m.shape)?;
    }
    Ok(covered.value() != size.value())
}

/// The divide by a tiler, into `out`; `verify` proves the compositions (the
/// regroupings return CuTe's answer as is, see the module docs).
fn divide_tiler_into(out: &mut Builder<'_, Mode>, a: LayoutRef<'_>, t: &Tiler, verify: bool) -> Result<()> {
    by_mode_into(out, a, t, "logical_divide", &|out, a, b| divide_into(out, a, b, verify))
}

/// Apply `f` by mode along a tiler (CuTe's `transform_layout(A, tiler, f)`),
/// writing into `out`: extra modes of `A` are kept.
pub(crate) fn by_mode_into<F>(
    out: &mut Builder<'_, Mode>,
    a: LayoutRef<'_>,
    t: &Tiler,
    op: &'static str,
    f: &F,
) -> Result<()>
where
    F: Fn(&mut Builder<'_, Mode>, LayoutRef<'_>, LayoutRef<'_>) -> Result<()>,
{
    match t {
        Tiler::Layout(b) => f(out, a, b.as_tree_ref()),
        Tiler::Int(n) => f(out, a, Tiler::int_layout(*n).as_tree_ref()),
        Tiler::Underscore => {
            out.push(a);
            Ok(())
        }
        Tiler::Tuple(ts) => {
            t.check_rank(a, op)?;
            out.open();
            for (i, m) in a.modes().enumerate() {
                match ts.get(i) {
                    Some(ti) => by_mode_into(out, m, ti, op, f)?,
                    None => out.push(m),
                }
            }
            out.close();
            Ok(())
        }
    }
}

/// How [`unzip_into`] lays out the tiles and the rests.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unzip {
    /// `((tiles...), (rests..., extra...))` (`tile_unzip`, zipped_*).
    Zipped,
    /// `((tiles...), rest0, rest1, ...)` (tiled_*).
    Tiled,
    /// `(tile0, tile1, ..., rest0, rest1, ...)` (flat_*).
    Flat,
}

/// CuTe's `tile_unzip(L, tiler)`, then for `Tiled`/`Flat` the splicing of the
/// rests (and tiles) into the top level (`Z(_, repeat<R1>(_))`), into `out`. A
/// part of rank 1 is kept whole, since `repeat<1>(_)` is `_` itself.
pub(crate) fn unzip_into(out: &mut Builder<'_, Mode>, l: LayoutRef<'_>, t: &Tiler, how: Unzip) -> Result<()> {
    out.open();
    emit_part(out, l, t, 0, how == Unzip::Flat)?;
    emit_part(out, l, t, 1, how != Unzip::Zipped)?;
    out.close();
    Ok(())
}

/// Part `which` (0: tiles, 1: rests) of `tile_unzip(l, t)`; with `splice`, its
/// modes one by one when it has more than one.
fn emit_part(out: &mut Builder<'_, Mode>, l: LayoutRef<'_>, t: &Tiler, which: usize, splice: bool) -> Result<()> {
    match t {
        Tiler::Tuple(ts) => {
            if l.is_leaf() || l.rank() < ts.len() {
                return Err(Error::mismatch("tile_unzip", "the tiler has more modes than the layout"));
            }
            // the part is a tuple: the parts of the first ts.len() modes, then (for
            // the rests) the extra modes of l
            let rank = if which == 0 { ts.len() } else { l.rank() };
            let open = !(splice && rank > 1);
            if open {
                out.open();
            }
            let mut kids = l.children();
            for ti in ts {
                let c = kids.next().expect("rank checked");
                emit_part(out, c, ti, which, false)?;
            }
            if which == 1 {
                for c in kids {
                    out.push(c);
                }
            }
            if open {
                out.close();
            }
            Ok(())
        }
        _ => {
            if l.is_leaf() || l.rank() != 2 {
                return Err(Error::mismatch("tile_unzip", "a tiled mode is not rank 2 (tile, rest)"));
            }
            let part = l.children().nth(which).expect("rank 2");
            if splice && part.rank() > 1 {
                out.push_modes(part);
            } else {
                out.push(part);
            }
            Ok(())
        }
    }
}

/// CuTe `tile_unzip(L, tiler)`: at each terminal of the tiler, `L` has a rank-2
/// mode `(tile, rest)`; gather the tiles into mode 0 and the rests (then `L`'s
/// extra modes) into mode 1.
///
/// ```
/// use kute::{Layout, Tiler};
/// let l: Layout = "((_2,_3),(_4,_5),_6):((_1,_2),(_6,_24),_120)".parse().unwrap();
/// let t: Tiler = kute::expr::parse_tiler("<_2,_4>").unwrap();
/// assert_eq!(kute::tile_unzip(&l, &t).unwrap().to_string(), "((_2,_4),(_3,_5,_6)):((_1,_6),(_2,_24,_120))");
/// ```
pub fn tile_unzip(l: &Layout, t: &Tiler) -> Result<Layout> {
    Ok(Layout {
        tree: Tree::try_build(|out| {
            unzip_into(out, l.as_tree_ref(), t, Unzip::Zipped).map_err(|e| e.in_op("tile_unzip"))?;
            Ok(())
        })?,
    })
}

/// Most modes a by-mode tiler may have for [`divide_unzip_direct`].
const DIRECT_MODES: usize = 4;

/// The regrouped divide by a by-mode tiler of 1 to [`DIRECT_MODES`] layouts or
/// integers, written straight into its final order: the tiles `A_i ∘ B_i`, then
/// the rests `A_i ∘ complement(B_i, shape(coalesce(A_i)))` and `A`'s extra modes.
/// Each piece is computed exactly as [`divide_into`] computes it (the regroupings
/// do not verify, so the compositions are independent), without building the
/// `(tile, rest)` divide and walking it again. `None`: the tiler is of another
/// kind, or some step failed (the general path then gives the exact error).
fn divide_unzip_direct(dst: &mut Layout, a: LayoutRef<'_>, ts: &[Tiler], how: Unzip) -> Option<()> {
    let k = ts.len();
    if k == 0 || k > DIRECT_MODES || k > a.rank() {
        return None;
    }
    // the tiles as layouts (an integer n stands for make_layout(n))
    let mut ints = [Mode::default(); DIRECT_MODES];
    for (i, ti) in ts.iter().enumerate() {
        match ti {
            Tiler::Layout(_) => {}
            Tiler::Int(n) => ints[i] = Tiler::int_mode(*n),
            _ => return None,
        }
    }
    let tile = |i: usize| -> LayoutRef<'_> {
        match &ts[i] {
            Tiler::Layout(b) => b.as_tree_ref(),
            _ => leaf_ref(&ints[i]),
        }
    };
    // per mode: the composition's left operand (coalesce_x(A_i)) and the rest's modes
    let mut lhs: [Modes; DIRECT_MODES] = Default::default();
    let mut rest: [Modes; DIRECT_MODES] = Default::default();
    let mut modes = a.modes();
    let mut ams: [Option<LayoutRef<'_>>; DIRECT_MODES] = [None; DIRECT_MODES];
    for i in 0..k {
        let ai = modes.next()?;
        ams[i] = Some(ai);
        coalesce_modes(&mut lhs[i], ai.leaves(), false).ok()?;
        complement_modes(&mut rest[i], tile(i), Cot::Shapes(&lhs[i])).ok()?;
        if ai.leaves().last().is_some_and(|m| m.shape.value() == 1) {
            lhs[i].clear();
            coalesce_modes(&mut lhs[i], ai.leaves(), true).ok()?;
        }
    }
    let mut out = Builder::new(&mut dst.tree);
    out.open();
    // the tiles: a tuple, or spliced (flat_*) when there is more than one
    let open = !(how == Unzip::Flat && k > 1);
    if open {
        out.open();
    }
    for i in 0..k {
        compose_with(&mut out, Part::Tree(ams[i]?), &lhs[i], &[Part::Tree(tile(i))], false).ok()?;
    }
    if open {
        out.close();
    }
    // the rests, then the extra modes: a tuple, or spliced (tiled_*, flat_*) when more than one
    let open = !(how != Unzip::Zipped && a.rank() > 1);
    if open {
        out.open();
    }
    for i in 0..k {
        compose_with(&mut out, Part::Tree(ams[i]?), &lhs[i], &[Part::Flat(&rest[i])], false).ok()?;
    }
    for m in modes {
        out.push(m);
    }
    if open {
        out.close();
    }
    out.close();
    Some(())
}

/// The unchecked divide regrouped: the shared body of the zipped, tiled and flat
/// divides, into `out` (`_1:_0` after an error).
#[inline(always)]
fn divide_unzip(out: &mut Layout, a: &Layout, t: &Tiler, how: Unzip, op: &'static str) -> Result<()> {
    if super::fast::divide_unzip(out, a, t, how).is_some() {
        return Ok(());
    }
    super::general(|| {
        if let Tiler::Tuple(ts) = t {
            if divide_unzip_direct(out, a.as_tree_ref(), ts, how).is_some() {
                return Ok(());
            }
        }
        unzip_built(out, t, how, op, |d| divide_tiler_into(d, a.as_tree_ref(), t, false))
    })
}

/// The tree `f` builds, regrouped along `t` (`tile_unzip`, then the splicing of
/// `how`) into `out`; on error `out` is `_1:_0` and the error is placed in `op`.
pub(crate) fn unzip_built(
    out: &mut Layout,
    t: &Tiler,
    how: Unzip,
    op: &'static str,
    f: impl FnOnce(&mut Builder<'_, Mode>) -> Result<()>,
) -> Result<()> {
    let r = Tree::try_build(f)
        .and_then(|d| out.build_in(|out| unzip_into(out, d.as_ref(), t, how)).map_err(|e| e.in_op("tile_unzip")));
    r.map_err(|e: Error| {
        out.reset();
        e.in_op(op)
    })
}

/// CuTe `zipped_divide(A, tiler)`: `((tiles...), (rests..., extra modes...))`.
///
/// ```
/// use kute::{Layout, Tiler};
/// let a: Layout = "(_12,_32,_6):(_1,_128,_0)".parse().unwrap();
/// let t: Tiler = kute::expr::parse_tiler("(_4,_8)").unwrap();
/// assert_eq!(kute::zipped_divide(&a, &t).unwrap().to_string(), "((_4,_8),(_3,_4,_6)):((_1,_128),(_4,_1024,_0))");
/// ```
pub fn zipped_divide(a: &Layout, t: &Tiler) -> Result<Layout> {
    Layout::from_into(|out| zipped_divide_into(out, a, t))
}

/// [`zipped_divide`] written into `out` (the fastest form: no move of the
/// result). On error `out` is `_1:_0`.
#[inline]
pub fn zipped_divide_into(out: &mut Layout, a: &Layout, t: &Tiler) -> Result<()> {
    divide_unzip(out, a, t, Unzip::Zipped, "zipped_divide")
}

/// CuTe `tiled_divide(A, tiler)`: `((tiles...), rest0, rest1, ...)`.
///
/// ```
/// use kute::{Layout, Tiler};
/// let a: Layout = "(_12,_32,_6):(_1,_128,_0)".parse().unwrap();
/// let t: Tiler = kute::expr::parse_tiler("(_4,_8)").unwrap();
/// assert_eq!(kute::tiled_divide(&a, &t).unwrap().to_string(), "((_4,_8),_3,_4,_6):((_1,_128),_4,_1024,_0)");
/// ```
pub fn tiled_divide(a: &Layout, t: &Tiler) -> Result<Layout> {
    Layout::from_into(|out| tiled_divide_into(out, a, t))
}

/// [`tiled_divide`] written into `out` (the fastest form: no move of the
/// result). On error `out` is `_1:_0`.
#[inline]
pub fn tiled_divide_into(out: &mut Layout, a: &Layout, t: &Tiler) -> Result<()> {
    divide_unzip(out, a, t, Unzip::Tiled, "tiled_divide")
}

/// CuTe `flat_divide(A, tiler)`: `(tile0, tile1, ..., rest0, rest1, ...)`.
///
/// ```
/// use kute::{Layout, Tiler};
/// let a: Layout = "(_12,_32,_6):(_1,_128,_0)".parse().unwrap();
/// let t: Tiler = kute::expr::parse_tiler("(_4,_8)").unwrap();
/// assert_eq!(kute::flat_divide(&a, &t).unwrap().to_string(), "(_4,_8,_3,_4,_6):(_1,_128,_4,_1024,_0)");
/// ```
pub fn flat_divide(a: &Layout, t: &Tiler) -> Result<Layout> {
    Layout::from_into(|out| flat_divide_into(out, a, t))
}

/// [`flat_divide`] written into `out` (the fastest form: no move of the
/// result). On error `out` is `_1:_0`.
#[inline]
pub fn flat_divide_into(out: &mut Layout, a: &Layout, t: &Tiler) -> Result<()> {
    divide_unzip(out, a, t, Unzip::Flat, "flat_divide")
}
