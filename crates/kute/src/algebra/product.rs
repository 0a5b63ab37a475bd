//! The product family: `logical_product`, `zipped_product`, `tiled_product`,
//! `flat_product`, `blocked_product`, `raked_product` and `tile_to_shape`.
//!
//! Each is written as CuTe's `layout.hpp` defines it:
//!
//! ```text
//! logical_product(A, B) = make_layout(A, composition(complement(A, size(A)*cosize(B)), B))
//! logical_product(A, T) = transform_layout(A, T, logical_product)     (T by mode)
//! zipped_product(A, T)  = tile_unzip(logical_product(A, T), T)
//! tiled_product(A, T)   = zipped_product(A, T)(_, repeat<R1>(_))
//! flat_product(A, T)    = zipped_product(A, T)(repeat<R0>(_), repeat<R1>(_))
//! blocked_product(A, B) = zip(get<0>(P), get<1>(P))
//! raked_product(A, B)   = zip(get<1>(P), get<0>(P))
//!   where R = max(rank(A), rank(B)), P = logical_product(append<R>(A), append<R>(B))
//! ```
//!
//! with the fast paths as early branches. Each product proves its inner
//! `complement(A) ∘ B` as
//! [`composition`](crate::composition) does: CuTe's answer where it is the
//! true composite, else the layout that is, else an error.

use super::coalesce::coalesce_leaves;
use super::complement::{complement_leaves, Cot};
use super::composition::{compose_parts, compose_parts_with, scale, Part, Proof};
use super::divide::{by_mode, tile_unzip_by_mode, ModeOp, Unzip};
use super::out::{operand, push_built, run, Emit, Grow, Op};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{self, IntTuple};
use crate::layout::{Layout, LayoutRef, Mode};
use crate::policy::Policy;
use crate::tiler::{AsTiler, Tiler};
use crate::tree::{check_depth, Builder, Tree, LEAF, PAIR};

/// `complement(A, size(A)·cosize(B))` into `comp`: the left operand of a
/// product's composition.
#[inline(always)]
fn product_complement<P: Policy>(comp: &mut P::Modes, a: LayoutRef<'_>, b: LayoutRef<'_>) -> Result<(), P::Err> {
    let mut size = Int::ONE;
    for m in a.leaves() {
        size = P::mul(size, m.shape).map_err(|e| P::in_op(e, "size"))?;
    }
    let mut cosize = Int::ONE;
    for m in b.leaves() {
        let d = P::lift(m.stride.int_in("cosize"))?;
        let t = P::mul(P::sub(m.shape, Int::ONE)?, P::abs(d)?)?;
        cosize = P::add(cosize, t).map_err(|e| P::in_op(e, "cosize"))?;
    }
    let n = P::mul(size, cosize)?;
    complement_leaves::<P>(comp, a, Cot::Leaf(n)).map_err(|e| P::in_op(e, "complement"))
}

/// `composition(comp, B)` as one element of `out` (`comp` a complement,
/// coalesced).
#[inline(always)]
fn compose_complement<P: Policy, E: Emit<P>>(out: &mut E, comp: &[Mode], b: LayoutRef<'_>) -> Result<(), P::Err> {
    if comp.last().is_some_and(|m| !P::is_one(m.shape)) {
        // coalesce_x leaves the coalesced complement as it is
        return compose_parts(out, Part::Flat(comp), comp, &[Part::Tree(b)], true);
    }
    let mut lhs = P::Modes::default();
    coalesce_leaves::<P>(&mut lhs, comp, true)?;
    compose_parts(out, Part::Flat(comp), &lhs, &[Part::Tree(b)], true)
}

/// CuTe `logical_product(A, B)` of one mode `A` by a layout `B`:
/// `make_layout(A, composition(complement(A, size(A)·cosize(B)), B))`, for
/// the product named.
struct LogicalProduct(&'static str);

impl ModeOp for LogicalProduct {
    fn name(&self) -> &'static str {
        self.0
    }
    #[inline(always)]
    fn apply<P: Policy, E: Emit<P>>(&self, out: &mut E, a: LayoutRef<'_>, b: LayoutRef<'_>) -> Result<(), P::Err> {
        // comp = complement(A, size(A)·cosize(B))
        let mut comp = P::Modes::default();
        product_complement::<P>(&mut comp, a, b)?;
        // make_layout(A, composition(comp, B))
        let p = out.open()?;
        out.push(a)?;
        compose_complement(out, &comp, b)?;
        out.close(p, 2)?;
        Ok(())
    }
}

/// The product by a tiler: `logical_product(A, T)` ([`by_mode`]) for `None`,
/// else `tile_unzip(logical_product(A, T), T)` spliced as the [`Unzip`] says.
struct ProductBy<'a>(&'a Layout, &'a Tiler, Option<Unzip>, &'static str);

impl Op for ProductBy<'_> {
    fn name(&self) -> &'static str {
        self.3
    }
    fn has_symbols(&self) -> bool {
        self.0.has_symbols() || self.1.has_symbols()
    }
    #[inline(always)]
    fn run<P: Policy, E: Emit<P>>(&self, out: &mut E) -> Result<(), P::Err> {
        let (a, t) = (operand::<P>(self.0)?, self.1);
        // the definitions
        let Some(how) = self.2 else { return by_mode(out, a, t, &LogicalProduct(self.3)) };
        if P::CHECKED {
            return tile_unzip_by_mode(out, a, t, how, &LogicalProduct(self.3));
        }
        // (the regrouped products build a whole tree first: the checked run's work)
        Err(P::decline())
    }
}

/// CuTe `logical_product(A, B)` for a layout `B`:
/// `make_layout(A, composition(complement(A, size(A)·cosize(B)), B))`, rank 2. A by-mode tiler applies
/// mode by mode, keeping `A`'s extra modes.
///
/// Pre: those of [`complement`](crate::complement) and [`composition`](crate::composition).
/// Post: mode 0 of the result is `A`.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(_2,_2):(_1,_2)".parse().unwrap();
/// let b: Layout = "(_3,_4):(_4,_1)".parse().unwrap();
/// assert_eq!(kute::logical_product(&a, &b).unwrap().to_string(), "((_2,_2),(_3,_4)):((_1,_2),(_16,_4))");
/// ```
pub fn logical_product(a: &Layout, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
    Layout::from_into(|out| logical_product_into(out, a, &t.as_tiler()))
}

/// [`logical_product`] written into `out` (the fastest form: no move of the
/// result). On error `out` is `_1:_0`.
///
/// Pre: as [`logical_product`]. Post: `out` is `logical_product(a, t)` on success, `_1:_0` on error.
///
/// ```
/// use kute::{Layout, Tiler};
/// let a: Layout = "(_2,_2):(_1,_2)".parse().unwrap();
/// let b: Layout = "(_3,_4):(_4,_1)".parse().unwrap();
/// let mut out = Layout::default();
/// kute::logical_product_into(&mut out, &a, &Tiler::from(&b)).unwrap();
/// assert_eq!(out.to_string(), "((_2,_2),(_3,_4)):((_1,_2),(_16,_4))");
/// ```
#[inline]
pub fn logical_product_into(out: &mut Layout, a: &Layout, t: &Tiler) -> Result<()> {
    run(out, &ProductBy(a, t, None, "logical_product"))
}

/// CuTe `zipped_product(A, tiler) = tile_unzip(logical_product(A, tiler), tiler)`:
/// `((blocks...), (products..., extra...))`.
///
/// Pre: as [`logical_product`]. Post: `tile_unzip(logical_product(A, tiler), tiler)`.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(_2,_2):(_1,_2)".parse().unwrap();
/// let b: Layout = "(_3,_4):(_4,_1)".parse().unwrap();
/// assert_eq!(kute::zipped_product(&a, &b).unwrap().to_string(), "((_2,_2),(_3,_4)):((_1,_2),(_16,_4))");
/// ```
pub fn zipped_product(a: &Layout, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
    Layout::from_into(|out| zipped_product_into(out, a, &t.as_tiler()))
}

/// [`zipped_product`] written into `out` (the fastest form: no move of the
/// result). On error `out` is `_1:_0`.
///
/// Pre: as [`zipped_product`]. Post: `out` is `zipped_product(a, t)` on success, `_1:_0` on error.
///
/// ```
/// use kute::{Layout, Tiler};
/// let a: Layout = "(_2,_2):(_1,_2)".parse().unwrap();
/// let b: Layout = "(_3,_4):(_4,_1)".parse().unwrap();
/// let mut out = Layout::default();
/// kute::zipped_product_into(&mut out, &a, &Tiler::from(&b)).unwrap();
/// assert_eq!(out.to_string(), "((_2,_2),(_3,_4)):((_1,_2),(_16,_4))");
/// ```
pub fn zipped_product_into(out: &mut Layout, a: &Layout, t: &Tiler) -> Result<()> {
    run(out, &ProductBy(a, t, Some(Unzip::Zipped), "zipped_product"))
}

/// CuTe `tiled_product(A, tiler) = zipped_product(A, tiler)(_, repeat<R1>(_))`:
/// `((blocks...), p0, p1, ...)`.
///
/// Pre: as [`logical_product`]. Post: `zipped_product(A, tiler)` with the modes
/// of its mode 1 spliced into the top level (a mode 1 of rank 1 is kept whole).
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(_2,_2):(_1,_2)".parse().unwrap();
/// let b: Layout = "(_3,_4):(_4,_1)".parse().unwrap();
/// assert_eq!(kute::tiled_product(&a, &b).unwrap().to_string(), "((_2,_2),_3,_4):((_1,_2),_16,_4)");
/// ```
pub fn tiled_product(a: &Layout, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
    Layout::from_into(|out| tiled_product_into(out, a, &t.as_tiler()))
}

/// [`tiled_product`] written into `out` (the fastest form: no move of the
/// result). On error `out` is `_1:_0`.
///
/// Pre: as [`tiled_product`]. Post: `out` is `tiled_product(a, t)` on success, `_1:_0` on error.
///
/// ```
/// use kute::{Layout, Tiler};
/// let a: Layout = "(_2,_2):(_1,_2)".parse().unwrap();
/// let b: Layout = "(_3,_4):(_4,_1)".parse().unwrap();
/// let mut out = Layout::default();
/// kute::tiled_product_into(&mut out, &a, &Tiler::from(&b)).unwrap();
/// assert_eq!(out.to_string(), "((_2,_2),_3,_4):((_1,_2),_16,_4)");
/// ```
pub fn tiled_product_into(out: &mut Layout, a: &Layout, t: &Tiler) -> Result<()> {
    run(out, &ProductBy(a, t, Some(Unzip::Tiled), "tiled_product"))
}

/// CuTe `flat_product(A, tiler) = zipped_product(A, tiler)(repeat<R0>(_), repeat<R1>(_))`:
/// `(b0, b1, ..., p0, p1, ...)`.
///
/// Pre: as [`logical_product`]. Post: `zipped_product(A, tiler)` with the modes
/// of both its modes spliced into the top level (a mode of rank 1 is kept whole).
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(_2,_2):(_1,_2)".parse().unwrap();
/// let b: Layout = "(_3,_4):(_4,_1)".parse().unwrap();
/// assert_eq!(kute::flat_product(&a, &b).unwrap().to_string(), "(_2,_2,_3,_4):(_1,_2,_16,_4)");
/// ```
pub fn flat_product(a: &Layout, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
    Layout::from_into(|out| flat_product_into(out, a, &t.as_tiler()))
}

/// [`flat_product`] written into `out` (the fastest form: no move of the
/// result). On error `out` is `_1:_0`.
///
/// Pre: as [`flat_product`]. Post: `out` is `flat_product(a, t)` on success, `_1:_0` on error.
///
/// ```
/// use kute::{Layout, Tiler};
/// let a: Layout = "(_2,_2):(_1,_2)".parse().unwrap();
/// let b: Layout = "(_3,_4):(_4,_1)".parse().unwrap();
/// let mut out = Layout::default();
/// kute::flat_product_into(&mut out, &a, &Tiler::from(&b)).unwrap();
/// assert_eq!(out.to_string(), "(_2,_2,_3,_4):(_1,_2,_16,_4)");
/// ```
pub fn flat_product_into(out: &mut Layout, a: &Layout, t: &Tiler) -> Result<()> {
    run(out, &ProductBy(a, t, Some(Unzip::Flat), "flat_product"))
}

/// `t` padded to rank `r` with `_1:_0` (CuTe `append<R>(t, Layout<_1,_0>{})`),
/// built in `buf` only when padding is needed.
fn padded<'a>(t: LayoutRef<'a>, r: usize, buf: &'a mut Builder<'_, Mode>) -> Result<LayoutRef<'a>> {
    let rank = t.rank();
    if rank == r {
        check_depth(t, "append")?;
        return Ok(t);
    }
    if rank > r {
        return Err(Error::mismatch("append", format!("cannot append to rank {r}: operand already has rank {rank}")));
    }
    let unit = Tree::leaf(Mode::new(Int::ONE, Int::ZERO));
    buf.open();
    buf.push_modes(t);
    for _ in rank..r {
        buf.push(unit.as_ref());
    }
    buf.close();
    let p = buf.since((0, 0));
    check_depth(p, "append")?;
    Ok(p)
}

/// CuTe's `zip` of the pair `(x, y)`, into `out`.
fn zip_pair_into(out: &mut Builder<'_, Mode>, x: LayoutRef<'_>, y: LayoutRef<'_>) -> Result<()> {
    let mark = out.mark();
    if x.is_leaf() {
        // the first element is not a tuple: zip gives ((x, y))
        out.open();
        out.open();
        out.push(x);
        out.push(y);
        out.close();
        out.close();
    } else {
        let r = x.rank();
        if y.is_leaf() || y.rank() != r {
            return Err(Error::mismatch("zip", "mismatched ranks among the zipped modes"));
        }
        out.open();
        for (xj, yj) in x.children().zip(y.children()) {
            out.open();
            out.push(xj);
            out.push(yj);
            out.close();
        }
        out.close();
    }
    check_depth(out.since(mark), "zip")
}

/// The blocked (or, `raked`, the raked) product of two layouts: CuTe's
/// `zip(get<0>(P), get<1>(P))` (raked: `zip(get<1>(P), get<0>(P))`), where
/// `P = logical_product(append<R>(A), append<R>(B))`, `R = max(rank A, rank B)`.
struct RankProduct<'a>(&'a Layout, &'a Layout, bool);

impl Op for RankProduct<'_> {
    fn has_symbols(&self) -> bool {
        self.0.has_symbols() || self.1.has_symbols()
    }
    fn name(&self) -> &'static str {
        if self.2 {
            "raked_product"
        } else {
            "blocked_product"
        }
    }
    #[inline(always)]
    fn run<P: Policy, E: Emit<P>>(&self, out: &mut E) -> Result<(), P::Err> {
        let (a, b, raked) = (operand::<P>(self.0)?, operand::<P>(self.1)?, self.2);
        let same_rank = !a.is_leaf() && !b.is_leaf() && a.rank() == b.rank();
        if same_rank {
            // fast path: operands of one rank, nothing to pad: each mode's
            // pair written in place, the zip of the definition's pieces
            P::lift(check_depth(a, "append"))?;
            P::lift(check_depth(b, "append"))?;
            if rank_product_pairs(out, a, b, raked)? {
                return Ok(());
            }
        } else if !P::CHECKED {
            return Err(P::decline());
        }
        rank_product(out, a, b, raked, !same_rank)
    }
}

/// The blocked (`raked`: raked) product as CuTe defines it, as one element
/// of `out`:
///
/// ```text
/// R = max(rank(A), rank(B))
/// P = logical_product(append<R>(A), append<R>(B))
/// blocked: zip(get<0>(P), get<1>(P))    raked: zip(get<1>(P), get<0>(P))
/// ```
///
/// `pairs`: padded operands that are tuples first take
/// [`rank_product_pairs`].
#[inline(always)]
fn rank_product<P: Policy, E: Emit<P>>(
    out: &mut E,
    a: LayoutRef<'_>,
    b: LayoutRef<'_>,
    raked: bool,
    pairs: bool,
) -> Result<(), P::Err> {
    // append<R>(A), append<R>(B)
    let r = a.rank().max(b.rank());
    let (mut abuf_tree, mut bbuf_tree) = (Tree::empty(), Tree::empty());
    let (mut abuf, mut bbuf) = (Builder::new(&mut abuf_tree), Builder::new(&mut bbuf_tree));
    let pa = P::lift(padded(a, r, &mut abuf))?;
    let pb = P::lift(padded(b, r, &mut bbuf))?;
    // fast path: as for operands of one rank, now that padding made them so
    if pairs && !pa.is_leaf() && !pb.is_leaf() && rank_product_pairs(out, pa, pb, raked)? {
        return Ok(());
    }
    // get<1>(P) = composition(complement(pa, size(pa)·cosize(pb)), pb),
    // composed (and proven) whole; get<0>(P) is pa
    let mut rest = Tree::empty();
    let mut comp = P::Modes::default();
    product_complement::<P>(&mut comp, pa, pb)?;
    compose_complement::<P, _>(&mut Grow::new(&mut rest), &comp, pb)?;
    let rest = rest.as_ref();
    // zip
    push_built(out, |o| if raked { zip_pair_into(o, rest, pa) } else { zip_pair_into(o, pa, rest) })
}

/// The product of two tuples of the same rank, zipped: mode `j` is
/// `(A_j, (comp ∘ B)_j)`, or swapped when `raked`: [`rank_product`]'s answer,
/// since `comp ∘ B` follows `B`'s structure, so each `B_j` is composed on its
/// own, straight into its zipped pair, and the digit test proves the pieces
/// together. `false` (under [`Fast`](crate::policy::Fast): declined) with
/// nothing written where the digit test cannot prove the composite: the
/// definition then proves it point by point.
#[inline(always)]
fn rank_product_pairs<P: Policy, E: Emit<P>>(
    out: &mut E,
    a: LayoutRef<'_>,
    b: LayoutRef<'_>,
    raked: bool,
) -> Result<bool, P::Err> {
    let mut comp = P::Modes::default();
    product_complement::<P>(&mut comp, a, b)?;
    let mut lhs_buf = P::Modes::default();
    let lhs: &[Mode] = if comp.last().is_some_and(|m| !P::is_one(m.shape)) {
        &comp
    } else {
        coalesce_leaves::<P>(&mut lhs_buf, &comp, true)?;
        &lhs_buf
    };
    if let [l0] = lhs
        && a.toks.len() == a.leaves.len() + 1
        && b.toks.len() == b.leaves.len() + 1
    {
        // fast path: flat operands (their modes are their leaves) and a
        // one-mode left operand, which scales each leaf of B: nothing to
        // prove (no carries), no tree to walk, the depth is 2
        let top = out.open()?;
        for (&am, &bm) in a.leaves.iter().zip(b.leaves) {
            let r = scale::<P>(bm, l0.stride)?;
            let pair = if raked { [r, am] } else { [am, r] };
            out.block(&[PAIR, LEAF, LEAF], &pair)?;
        }
        out.close(top, a.leaves.len())?;
        return Ok(true);
    }
    let mark = out.mark();
    let mut proof = Proof::new(lhs.len());
    let top = out.open()?;
    for (aj, bj) in a.children().zip(b.children()) {
        let p = out.open()?;
        if !raked {
            out.push(aj)?;
        }
        compose_parts_with(out, lhs, &[Part::Tree(bj)], &mut proof)?;
        if raked {
            out.push(aj)?;
        }
        out.close(p, 2)?;
    }
    out.close(top, a.rank())?;
    if !proof.holds_for::<P>(lhs)? {
        if !P::CHECKED {
            return Err(P::decline());
        }
        out.truncate(mark);
        return Ok(false);
    }
    P::lift(check_depth(out.since(mark), "zip"))?;
    Ok(true)
}

/// CuTe `blocked_product(A, B) = zip(get<0>(P), get<1>(P))`, where
/// `P = logical_product(append<R>(A), append<R>(B))` and `R = max(rank A, rank B)`:
/// `B` repeats the block `A`; mode `i` of the result is `(A_i, (A* ∘ B)_i)`.
/// Rank: `max(rank A, rank B)` (both padded with `_1:_0`).
///
/// Pre: as [`logical_product`] (with `A* = complement(A, size(A)·cosize(B))`,
/// integer strides), and the result nested at most
/// [`MAX_DEPTH`](crate::tree::MAX_DEPTH) levels (else a `Limit` error).
/// Post: rank `max(rank A, rank B)`, mode `i` is `(A_i, (A* ∘ B)_i)` of the
/// padded operands.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(_2,_5):(_5,_1)".parse().unwrap();
/// let b: Layout = "(_3,_4):(_1,_3)".parse().unwrap();
/// assert_eq!(kute::blocked_product(&a, &b).unwrap().to_string(), "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))");
/// ```
pub fn blocked_product(a: &Layout, b: &Layout) -> Result<Layout> {
    Layout::from_into(|out| blocked_product_into(out, a, b))
}

/// [`blocked_product`] written into `out` (the fastest form: no move of the
/// result). On error `out` is `_1:_0`.
///
/// Pre: as [`blocked_product`]. Post: `out` is `blocked_product(a, b)` on success, `_1:_0` on error.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(_2,_5):(_5,_1)".parse().unwrap();
/// let b: Layout = "(_3,_4):(_1,_3)".parse().unwrap();
/// let mut out = Layout::default();
/// kute::blocked_product_into(&mut out, &a, &b).unwrap();
/// assert_eq!(out.to_string(), "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))");
/// ```
#[inline]
pub fn blocked_product_into(out: &mut Layout, a: &Layout, b: &Layout) -> Result<()> {
    run(out, &RankProduct(a, b, false))
}

/// CuTe `raked_product(A, B) = zip(get<1>(P), get<0>(P))` (`P` as in
/// [`blocked_product`]): the parts of each mode swapped, interleaving the
/// copies of `A`.
///
/// Pre: as [`blocked_product`]. Post: rank `max(rank A, rank B)`, mode `i` is
/// `((A* ∘ B)_i, A_i)` of the padded operands.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(_2,_5):(_5,_1)".parse().unwrap();
/// let b: Layout = "(_3,_4):(_1,_3)".parse().unwrap();
/// assert_eq!(kute::raked_product(&a, &b).unwrap().to_string(), "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))");
/// ```
pub fn raked_product(a: &Layout, b: &Layout) -> Result<Layout> {
    Layout::from_into(|out| raked_product_into(out, a, b))
}

/// [`raked_product`] written into `out` (the fastest form: no move of the
/// result). On error `out` is `_1:_0`.
///
/// Pre: as [`raked_product`]. Post: `out` is `raked_product(a, b)` on success, `_1:_0` on error.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(_2,_5):(_5,_1)".parse().unwrap();
/// let b: Layout = "(_3,_4):(_1,_3)".parse().unwrap();
/// let mut out = Layout::default();
/// kute::raked_product_into(&mut out, &a, &b).unwrap();
/// assert_eq!(out.to_string(), "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))");
/// ```
#[inline]
pub fn raked_product_into(out: &mut Layout, a: &Layout, b: &Layout) -> Result<()> {
    run(out, &RankProduct(a, b, true))
}

/// CuTe `tile_to_shape(block, target, order)`: repeat `block` (blocked product)
/// until it has shape `target`, stepping through the modes in `order`
/// (column-major when `None`).
///
/// Pre: `rank(block) <= rank(target)` (else a `Mismatch` error), and the size of
/// each mode of `block` divides that of the matching mode of `target` (else an
/// `Inadmissible` error); `order`, if given, is an integer or a flat tuple of
/// rank `rank(target)` (else a `Mismatch` error).
/// Post: `product_each(shape(R)) == product_each(target)`; mode `i` of `R` is
/// `(block_i, grid_i)` (a blocked product).
///
/// ```
/// use kute::{Layout, IntTuple};
/// let a: Layout = "(_2,_4):(_1,_2)".parse().unwrap();
/// let t: IntTuple = "(_8,_16)".parse().unwrap();
/// assert_eq!(kute::tile_to_shape(&a, &t, None).unwrap().to_string(), "((_2,_4),(_4,_4)):((_1,_8),(_2,_32))");
/// ```
pub fn tile_to_shape(block: &Layout, target: &IntTuple, order: Option<&IntTuple>) -> Result<Layout> {
    crate::sym::refuse("tile_to_shape", || block.has_symbols() || target.has_symbols())?;
    let go = || -> Result<Layout> {
        let r = target.rank();
        if block.rank() > r {
            return Err(Error::mismatch(
                "tile_to_shape",
                format!("rank of the block {block} must be <= rank of the target shape {target}"),
            ));
        }
        let padded = block.append_to(r, &Layout::unit())?;
        let bs = int_tuple::product_each(padded.shape().as_ref())?;
        let ts = int_tuple::product_each(target.as_ref())?;
        for (x, y) in ts.leaves().iter().zip(bs.leaves()) {
            if y.value() == 0 || x.value().wrapping_rem(y.value()) != 0 {
                return Err(Error::inadmissible(
                    "tile_to_shape",
                    format!("the block shape {bs} does not divide the target shape {ts}"),
                ));
            }
        }
        let ps = int_tuple::ceil_div(ts.as_ref(), bs.as_ref())?;
        let grid = match order {
            None => Layout::from_shape(&ps)?,
            // by value: CuTe's tile_to_shape takes a static order only (a
            // run-time one does not compile), so its values are what it means
            Some(o) => Layout::ordered(&ps, &o.map(|x| Int::new_static(x.value())))?,
        };
        blocked_product(&padded, &grid)
    };
    go().map_err(|e| e.in_op("tile_to_shape"))
}

/// CuTe `upcast<N>(L)`: reinterpret for elements `N` times wider. A stride `d`
/// becomes `sign(d)·ceil(|d|/N)` and its extent `ceil(s / ceil(N/|d|))`; stride-0
/// modes are unchanged.
///
/// Pre: every stride is an integer and `N > 0` (else an `Inadmissible` error),
/// each non-zero stride divides `N` or is divisible by it (else an
/// `Inadmissible` error); the arithmetic fits in `i64` (else an `Overflow` error).
/// Post: congruent to `L`, each leaf mapped as above.
///
/// ```
/// use kute::Layout;
/// let l: Layout = "(_4,_8):(_1,_4)".parse().unwrap();
/// assert_eq!(kute::upcast(&l, 2).unwrap().to_string(), "(_2,_8):(_1,_2)");
/// ```
pub fn upcast(l: &Layout, n: i64) -> Result<Layout> {
    positive_factor(n, "upcast")?;
    let n = Int::new_static(n);
    l.int_strides("upcast")?;
    let tree = l
        .tree
        .try_map(|m| {
            let d = m.stride.scale_int();
            if d.decide_eq(Int::ZERO, "upcast")? {
                return Ok(m);
            }
            let ad = d.abs()?;
            // one divides the other (for a symbol: the first that the facts decide)
            let ok = crate::int::either(n.decide_divides(ad, "upcast"), ad.decide_divides(n, "upcast"))?;
            if !ok {
                return Err(Error::inadmissible(
                    "upcast",
                    format!("divisibility condition fails: stride {d} and factor {n} do not divide one another"),
                ));
            }
            let s = m.shape.ceil_div(n.ceil_div(ad)?)?;
            let d = d.signum()?.mul(ad.ceil_div(n)?)?;
            Ok(crate::layout::Mode::new(s, d))
        })
        .map_err(|e| e.in_op("upcast"))?;
    Ok(Layout { tree })
}

/// CuTe `downcast<N>(L)`: reinterpret for elements `N` times narrower: modes of
/// stride ±1 grow `N` times, other strides are multiplied by `N`.
///
/// Pre: every stride is an integer and some stride is 1 ("downcast requires
/// adjacent elements"; else an `Inadmissible` error); the products fit in `i64`
/// (else an `Overflow` error); `N > 0` (else an `Inadmissible` error).
/// Post: congruent to `L`; a leaf of stride ±1 has extent `s·N`, any other has
/// stride `d·N`.
///
/// ```
/// use kute::Layout;
/// let l: Layout = "(_4,_8):(_1,_4)".parse().unwrap();
/// assert_eq!(kute::downcast(&l, 2).unwrap().to_string(), "(_8,_8):(_1,_8)");
/// ```
pub fn downcast(l: &Layout, n: i64) -> Result<Layout> {
    positive_factor(n, "downcast")?;
    let n = Int::new_static(n);
    l.int_strides("downcast")?;
    // whether each stride is ±1 (for a symbol: decided by the facts)
    let unit = |m: &crate::layout::Mode| -> Result<bool> {
        let d = m.stride.scale_int().abs()?;
        d.decide_eq(Int::ONE, "downcast")
    };
    let mut any = false;
    for m in l.leaves() {
        if m.stride.scale_int().decide_eq(Int::ONE, "downcast")? {
            any = true;
        }
    }
    if !any {
        return Err(Error::inadmissible(
            "downcast",
            format!("{l} has no stride-1 mode: downcast requires adjacent elements"),
        ));
    }
    let tree = l
        .tree
        .try_map(|m| {
            if unit(&m)? {
                Ok(crate::layout::Mode::with_stride(m.shape.mul(n)?, m.stride))
            } else {
                Ok(crate::layout::Mode::with_stride(m.shape, m.stride.scale(n)?))
            }
        })
        .map_err(|e| e.in_op("downcast"))?;
    Ok(Layout { tree })
}

/// `upcast`'s and `downcast`'s factor: a number of elements, so positive.
fn positive_factor(n: i64, op: &'static str) -> Result<()> {
    if n <= 0 {
        return Err(Error::inadmissible(op, format!("the factor {n} is not positive")));
    }
    Ok(())
}
