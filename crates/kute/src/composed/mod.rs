//! CuTe's `ComposedLayout`: `A o offset o B`, the function
//! `x -> A(offset + B(x))`, for maps that composition cannot fold into one
//! layout (a swizzle above all: `Sw<3,4,3> o _0 o (_8,_64):(_64,_1)`).
//!
//! `B` (CuTe's `layout_b`, here [`ComposedLayout::inner`]) gives the domain:
//! shape, size, rank and every operation on the domain (divides, products,
//! slicing, coalescing) act on it and keep `A` and the offset. `A` (CuTe's
//! `layout_a`, here [`ComposedLayout::outer`]) is applied last. Each of the
//! three parts is an [`AnyLayout`]: a layout, a swizzle or another composed
//! layout, as in CuTe.
//!
//! The operations with CuTe's special rules for swizzles (slicing that decays
//! into a plain layout, composition of a layout with a swizzle, the inverses,
//! a product by a swizzled layout) are in [`ops`]; each checks its answer
//! point by point against the function it stands for.

pub mod ops;
mod slice;

pub use slice::slice_and_offset;

use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::swizzle::Swizzle;
use std::fmt;

/// A layout-like function: a [`Layout`], a [`Swizzle`] or a [`ComposedLayout`]
/// (what CuTe accepts as either part of a composed layout).
// A layout keeps its first leaves inline (no allocation); composed parts,
// rarer, are boxed.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyLayout {
    /// A plain layout.
    Layout(Layout),
    /// A swizzle (defined on every integer; it has no shape).
    Swizzle(Swizzle),
    /// A composed layout.
    Composed(Box<ComposedLayout>),
}

impl AnyLayout {
    /// Whether an integer of the layout is symbolic. Pre: none. Post: the answer.
    ///
    /// ```
    /// let l: kute::Layout = "(?,_4):(_4,_1)".parse().unwrap();
    /// assert!(kute::AnyLayout::Layout(l).has_symbols());
    /// assert!(!kute::AnyLayout::Layout("(2,4):(4,1)".parse().unwrap()).has_symbols());
    /// ```
    pub fn has_symbols(&self) -> bool {
        match self {
            AnyLayout::Layout(l) => l.has_symbols(),
            AnyLayout::Swizzle(_) => false,
            AnyLayout::Composed(c) => c.has_symbols(),
        }
    }
}

/// CuTe's `ComposedLayout<A, Offset, B>`: `x -> A(offset + B(x))`.
///
/// ```
/// use kute::composed::{AnyLayout, ComposedLayout};
/// use kute::{Int, swizzle::Swizzle};
/// let c = ComposedLayout::new(
///     AnyLayout::Swizzle(Swizzle::new(3, 4, 3).unwrap()),
///     Int::new_static(0),
///     AnyLayout::Layout("(_8,_64):(_64,_1)".parse().unwrap()),
/// );
/// assert_eq!(c.to_string(), "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)");
/// assert_eq!(c.eval_int(Int::new_static(37)).unwrap().to_string(), "_356");
/// assert_eq!(c.size().unwrap().value(), 512);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComposedLayout {
    outer: AnyLayout,
    offset: Int,
    inner: AnyLayout,
    flag: Option<PtrFlag>,
}

/// CuTe's stand-in for an unset shared-memory pointer in the offset of a
/// composed layout (`smem_ptr_flag_bits<B>`, `smem_sparse_ptr_flag_bits<S,B>`):
/// the GMMA and UMMA shared-memory atoms carry it. It acts as the offset 0; it
/// records the width `B` of the elements the swizzle's byte addresses will
/// count (the swizzle stays on bytes under `upcast` and `downcast`), and
/// prints `smem_ptr[16b](unset)` (`smem_sparse<2>_ptr[16b](unset)`).
///
/// ```
/// let v = kute::expr::eval("UMMA::Layout_K_SW128_Atom<half_t>{}").unwrap();
/// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
/// assert_eq!(c.flag(), Some(kute::composed::PtrFlag { bits: 16, sparsity: None }));
/// assert_eq!(c.to_string(), "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PtrFlag {
    /// The width in bits of the elements the pointer will point to.
    pub bits: i64,
    /// `Some(S)` for a sparse pointer of sparsity `S`.
    pub sparsity: Option<i64>,
}

impl fmt::Display for PtrFlag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.sparsity {
            Some(s) => write!(f, "smem_sparse<{s}>_ptr[{}b](unset)", self.bits),
            None => write!(f, "smem_ptr[{}b](unset)", self.bits),
        }
    }
}

impl ComposedLayout {
    /// CuTe `make_composed_layout(A, offset, B)`, kept as written (no
    /// simplification).
    ///
    /// Pre: none (evaluation checks that the parts fit). Post: `outer() == A`,
    /// `offset() == offset`, `inner() == B`.
    ///
    /// ```
    /// use kute::{AnyLayout, ComposedLayout, Int, Layout};
    /// let a: Layout = "(_4,_4):(_4,_1)".parse().unwrap();
    /// let b: Layout = "(_4,_4):(_1,_4)".parse().unwrap();
    /// let c = ComposedLayout::new(a.into(), Int::new_static(0), b.into());
    /// assert_eq!(c.to_string(), "(_4,_4):(_4,_1) o _0 o (_4,_4):(_1,_4)");
    /// assert_eq!(c.eval_int(Int::new_static(6)).unwrap().to_string(), "_9"); // A(B(6)) = A(9)
    /// ```
    pub fn new(outer: AnyLayout, offset: Int, inner: AnyLayout) -> ComposedLayout {
        ComposedLayout { outer, offset, inner, flag: None }
    }

    /// CuTe's `ComposedLayout<A, smem_ptr_flag_bits<B>, L>`: `A o flag o L`,
    /// the offset 0 (see [`PtrFlag`]).
    ///
    /// Pre: none. Post: `flag() == Some(flag)`, `offset() == 0`.
    ///
    /// ```
    /// use kute::composed::{ComposedLayout, PtrFlag};
    /// use kute::swizzle::Swizzle;
    /// let c = ComposedLayout::with_flag(Swizzle::new(3, 4, 3).unwrap().into(),
    ///     PtrFlag { bits: 8, sparsity: None }, "(_8,_128):(_128,_1)".parse::<kute::Layout>().unwrap().into());
    /// assert_eq!(c.to_string(), "Sw<3,4,3> o smem_ptr[8b](unset) o (_8,_128):(_128,_1)");
    /// ```
    pub fn with_flag(outer: AnyLayout, flag: PtrFlag, inner: AnyLayout) -> ComposedLayout {
        ComposedLayout { outer, offset: Int::new_static(0), inner, flag: Some(flag) }
    }

    /// The shared-memory pointer flag of the offset, if any (see [`PtrFlag`]).
    ///
    /// Pre: none. Post: the flag the layout was made with.
    ///
    /// ```
    /// let v = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// assert_eq!(c.flag(), None);
    /// ```
    pub fn flag(&self) -> Option<PtrFlag> {
        self.flag
    }

    /// `A o offset o inner`: this layout with `B` replaced, its flag kept (else
    /// as [`compose3`]).
    ///
    /// Pre: none. Post: the recomposed layout.
    ///
    /// ```
    /// let v = kute::expr::eval("UMMA::Layout_MN_INTER_Atom<float>{}").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// let r = c.recompose(kute::AnyLayout::Layout("(_4,_16):(_1,_4)".parse().unwrap()));
    /// assert_eq!(r.to_string(), "Sw<0,4,3> o smem_ptr[32b](unset) o (_4,_16):(_1,_4)");
    /// ```
    pub fn recompose(&self, inner: AnyLayout) -> AnyLayout {
        match self.flag {
            Some(flag) => AnyLayout::from(ComposedLayout::with_flag(self.outer.clone(), flag, inner)),
            None => compose3(self.outer.clone(), self.offset, inner),
        }
    }

    /// Whether its outer layout, offset or inner layout holds a symbol.
    ///
    /// Pre: none. Post: the answer.
    ///
    /// ```
    /// let c = kute::expr::eval("Sw<1,2,3> o _0 o (_4,_4):(_1,_4)").unwrap().to_any_layout("c").unwrap();
    /// assert!(!c.has_symbols());
    /// ```
    pub fn has_symbols(&self) -> bool {
        self.outer().has_symbols() || self.offset().is_symbolic() || self.inner().has_symbols()
    }

    /// `A`, applied last (CuTe's `layout_a()`).
    ///
    /// Pre: none. Post: the `A` the layout was made with.
    ///
    /// ```
    /// let v = kute::expr::eval("Sw<3,4,3> o _64 o (_8,_64):(_64,_1)").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// assert_eq!((c.outer().to_string(), c.offset().value(), c.inner().to_string()),
    ///            ("Sw<3,4,3>".to_string(), 64, "(_8,_64):(_64,_1)".to_string()));
    /// assert_eq!(c.swizzle(), Some(kute::Swizzle::new(3, 4, 3).unwrap()));
    /// assert_eq!(c.shape().unwrap().to_string(), "(_8,_64)");
    /// assert_eq!((c.leaf_count(), c.depth()), (4, 1));
    /// ```
    pub fn outer(&self) -> &AnyLayout {
        &self.outer
    }

    /// The offset added between `B` and `A`.
    ///
    /// Pre: none. Post: the offset the layout was made with.
    ///
    /// ```
    /// let v = kute::expr::eval("Sw<3,4,3> o _64 o (_8,_64):(_64,_1)").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// assert_eq!(c.offset().to_string(), "_64");
    /// ```
    pub fn offset(&self) -> Int {
        self.offset
    }

    /// `B`, which gives the domain (CuTe's `layout_b()`).
    ///
    /// Pre: none. Post: the `B` the layout was made with.
    ///
    /// ```
    /// let v = kute::expr::eval("Sw<3,4,3> o _64 o (_8,_64):(_64,_1)").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// assert_eq!(c.inner().to_string(), "(_8,_64):(_64,_1)");
    /// ```
    pub fn inner(&self) -> &AnyLayout {
        &self.inner
    }

    /// The swizzle, when `A` is one (CuTe's swizzled layouts).
    ///
    /// Pre: none. Post: `Some(A)` when `A` is a swizzle, `None` when it is a
    /// layout or a composed layout.
    ///
    /// ```
    /// use kute::{AnyLayout, Swizzle};
    /// let v = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap();
    /// let AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// assert_eq!(c.swizzle(), Some(Swizzle::new(3, 4, 3).unwrap()));
    /// let v = kute::expr::eval("make_composed_layout((_4,_4):(_4,_1),_0,(_4,_4):(_1,_4))").unwrap();
    /// let AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// assert_eq!(c.swizzle(), None);
    /// ```
    pub fn swizzle(&self) -> Option<Swizzle> {
        match self.outer {
            AnyLayout::Swizzle(s) => Some(s),
            _ => None,
        }
    }

    /// The value at the 1-D coordinate `x`: `A(offset + B(x))`.
    ///
    /// Pre: as [`AnyLayout::eval_int`] for each part. Post: the value, static
    /// when `x`, the offset and the parts are.
    ///
    /// ```
    /// use kute::{AnyLayout, Int};
    /// let v = kute::expr::eval("Sw<3,4,3> o _64 o (_8,_64):(_64,_1)").unwrap();
    /// let AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// assert_eq!(c.eval_int(Int::new_static(5)).unwrap().to_string(), "_432");
    /// assert_eq!(c.eval_int(Int::new_static(37)).unwrap().to_string(), "_436");
    /// ```
    pub fn eval_int(&self, x: Int) -> Result<Int> {
        let b = self.inner.eval_int(x)?;
        self.outer.eval_int(self.offset.add(b).map_err(|e| e.in_op("evaluate"))?)
    }

    /// The value at a (hierarchical) coordinate of `B`'s shape.
    ///
    /// Pre: as [`AnyLayout::eval_coord`]. Post: `A(offset + B(c))`.
    ///
    /// ```
    /// let v = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// assert_eq!(c.eval_coord(&"(_3,_9)".parse().unwrap()).unwrap().to_string(), "_217");
    /// ```
    pub fn eval_coord(&self, c: &IntTuple) -> Result<Int> {
        let b = self.inner.eval_coord(c)?;
        self.outer.eval_int(self.offset.add(b).map_err(|e| e.in_op("evaluate"))?)
    }

    /// The shape of `B`.
    ///
    /// Pre: `B` has a shape (is not a swizzle; else a `Type` error).
    /// Post: `B`'s shape (the offset and `A` play no part).
    ///
    /// ```
    /// let v = kute::expr::eval("Sw<3,3,3> o _158 o (_8,_64):(_64,_1)").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// assert_eq!(c.shape().unwrap().to_string(), "(_8,_64)");
    /// ```
    pub fn shape(&self) -> Result<IntTuple> {
        self.inner.shape()
    }

    /// The size of `B`'s domain.
    ///
    /// Pre: as [`ComposedLayout::shape`]. Post: the product of the shape.
    ///
    /// ```
    /// let v = kute::expr::eval("Sw<3,0,3> o _0 o ((_8,_4),(_64,_2)):((_64,_512),(_1,_2048))").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// assert_eq!(c.size().unwrap().to_string(), "_4096");
    /// ```
    pub fn size(&self) -> Result<Int> {
        self.inner.size()
    }

    /// The leaves of the layouts among the parts (a swizzle or offset counts 1).
    ///
    /// Pre: none. Post: `1 + A.leaf_count() + B.leaf_count()` (a size measure
    /// for kute's budgets, not a CuTe function).
    ///
    /// ```
    /// let v = kute::expr::eval("Sw<3,4,3> o _0 o ((_8,_1),_64):((_64,_0),_1)").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// assert_eq!(c.leaf_count(), 1 + 1 + 3);
    /// ```
    pub fn leaf_count(&self) -> usize {
        1 + self.outer.leaf_count() + self.inner.leaf_count()
    }

    /// CuTe `depth(C)`: the depth of the domain, `B`'s (CuTe's functions of
    /// the shape read the inner layout).
    ///
    /// Pre: none. Post: `B`'s depth; 0 where `B` is a swizzle.
    ///
    /// ```
    /// // CuTe: depth(Sw<2,2,4> o _0 o (_32,_8):(_1,_32)) is _1
    /// let v = kute::expr::eval("Sw<2,2,4> o _0 o (_32,_8):(_1,_32)").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// assert_eq!(c.depth(), 1);
    /// ```
    pub fn depth(&self) -> usize {
        self.inner.depth()
    }

    /// How deep the value nests, counting each composition as a level: one
    /// more than the deepest of `A` and `B` (kute's budgets measure values
    /// this way; not CuTe's `depth`).
    pub(crate) fn nesting(&self) -> usize {
        let part = |l: &AnyLayout| match l {
            AnyLayout::Composed(c) => c.nesting(),
            l => l.depth(),
        };
        1 + part(&self.outer).max(part(&self.inner))
    }

    /// A copy with `B` replaced by `f(B)`, recomposed by CuTe's
    /// `composition(A, offset, f(B))` (see [`compose3`]): how every operation
    /// on the domain treats a composed layout.
    ///
    /// Pre: `B` is a layout (else a `Type` error naming `op`); as `f`.
    /// Post: `A o offset o f(B)`, or `f(B)` alone where `A` is a swizzle of no
    /// bits and the offset 0.
    ///
    /// ```
    /// let v = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// let r = c.map_inner("flatten", |b| Ok(b.clone())).unwrap();
    /// assert_eq!(r.to_string(), "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)");
    /// ```
    pub fn map_inner(&self, op: &'static str, f: impl FnOnce(&Layout) -> Result<Layout>) -> Result<AnyLayout> {
        let b = self.inner.as_layout(op)?;
        Ok(self.recompose(AnyLayout::Layout(f(b)?)))
    }
}

/// The operations that act on the domain: each runs on the inner layout `B`
/// and keeps `A` and the offset (CuTe's `layout_composed.hpp`), recomposed by
/// [`compose3`].
///
/// Pre: `B` is a plain layout (else a `Type` error); as the operation on `B`.
/// Post: `A o offset o OP(B, ...)`, or `OP(B, ...)` alone where `A` is a
/// swizzle of no bits and the offset 0.
///
/// ```
/// use kute::composed::{AnyLayout, ComposedLayout};
/// let AnyLayout::Composed(c) = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap().to_any_layout("c").unwrap()
/// else { unreachable!() };
/// let t: kute::Tiler = "(_8,_16)".parse().unwrap();
/// assert_eq!(c.zipped_divide(&t).unwrap().to_string(), "Sw<3,4,3> o _0 o ((_8,_16),(_1,_4)):((_64,_1),(_0,_16))");
/// assert_eq!(c.coalesce().unwrap().to_string(), "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)");
/// ```
impl ComposedLayout {
    /// CuTe `coalesce(C)`.
    ///
    /// Pre: `B` is a plain layout (else a `Type` error); as [`coalesce`](crate::coalesce) on `B`.
    /// Post: `A o offset o coalesce(B)`, or that layout alone where `A` is a swizzle
    /// of no bits and the offset 0.
    ///
    /// ```
    /// let v = kute::expr::eval("Sw<1,4,3> o _0 o (_32,_8):(_1,_32)").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// assert_eq!(c.coalesce().unwrap().to_string(), "Sw<1,4,3> o _0 o _256:_1");
    /// ```
    pub fn coalesce(&self) -> Result<AnyLayout> {
        self.map_inner("coalesce", crate::algebra::coalesce)
    }

    /// CuTe `composition(C, tiler)`.
    ///
    /// Pre: `B` is a plain layout (else a `Type` error); as [`composition_tiler`](crate::composition_tiler) on `B`.
    /// Post: `A o offset o composition(B, tiler)`, or that layout alone where `A` is a swizzle
    /// of no bits and the offset 0.
    ///
    /// ```
    /// let v = kute::expr::eval("Sw<2,2,2> o _0 o (_8,_32):(_32,_1)").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// let t: kute::Tiler = "<_4:_2,_16:_1>".parse().unwrap();
    /// assert_eq!(c.compose_tiler(&t).unwrap().to_string(), "Sw<2,2,2> o _0 o (_4,_16):(_64,_1)");
    /// ```
    pub fn compose_tiler(&self, t: &crate::tiler::Tiler) -> Result<AnyLayout> {
        self.map_inner("composition", |b| crate::algebra::composition_tiler(b, t))
    }

    /// CuTe `logical_divide(C, tiler)`.
    ///
    /// Pre: `B` is a plain layout (else a `Type` error); as [`logical_divide`](crate::logical_divide) on `B`.
    /// Post: `A o offset o logical_divide(B, tiler)`, or that layout alone where `A` is a swizzle
    /// of no bits and the offset 0.
    ///
    /// ```
    /// let v = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// let t: kute::Tiler = "<_8:_1,_16:_1>".parse().unwrap();
    /// let want = "Sw<3,4,3> o _0 o ((_8,_1),(_16,_4)):((_64,_0),(_1,_16))";
    /// assert_eq!(c.logical_divide(&t).unwrap().to_string(), want);
    /// ```
    pub fn logical_divide(&self, t: &crate::tiler::Tiler) -> Result<AnyLayout> {
        self.map_inner("logical_divide", |b| crate::algebra::logical_divide(b, t))
    }

    /// CuTe `zipped_divide(C, tiler)`.
    ///
    /// Pre: `B` is a plain layout (else a `Type` error); as [`zipped_divide`](crate::zipped_divide) on `B`.
    /// Post: `A o offset o zipped_divide(B, tiler)`, or that layout alone where `A` is a swizzle
    /// of no bits and the offset 0.
    ///
    /// ```
    /// let v = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// let t: kute::Tiler = "(_8,_16)".parse().unwrap();
    /// let want = "Sw<3,4,3> o _0 o ((_8,_16),(_1,_4)):((_64,_1),(_0,_16))";
    /// assert_eq!(c.zipped_divide(&t).unwrap().to_string(), want);
    /// ```
    pub fn zipped_divide(&self, t: &crate::tiler::Tiler) -> Result<AnyLayout> {
        self.map_inner("zipped_divide", |b| crate::algebra::zipped_divide(b, t))
    }

    /// CuTe `tiled_divide(C, tiler)`.
    ///
    /// Pre: `B` is a plain layout (else a `Type` error); as [`tiled_divide`](crate::tiled_divide) on `B`.
    /// Post: `A o offset o tiled_divide(B, tiler)`, or that layout alone where `A` is a swizzle
    /// of no bits and the offset 0.
    ///
    /// ```
    /// let v = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// let t: kute::Tiler = "(_8,_16)".parse().unwrap();
    /// let want = "Sw<3,4,3> o _0 o ((_8,_16),_1,_4):((_64,_1),_0,_16)";
    /// assert_eq!(c.tiled_divide(&t).unwrap().to_string(), want);
    /// ```
    pub fn tiled_divide(&self, t: &crate::tiler::Tiler) -> Result<AnyLayout> {
        self.map_inner("tiled_divide", |b| crate::algebra::tiled_divide(b, t))
    }

    /// CuTe `flat_divide(C, tiler)`.
    ///
    /// Pre: `B` is a plain layout (else a `Type` error); as [`flat_divide`](crate::flat_divide) on `B`.
    /// Post: `A o offset o flat_divide(B, tiler)`, or that layout alone where `A` is a swizzle
    /// of no bits and the offset 0.
    ///
    /// ```
    /// let v = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// let t: kute::Tiler = "(_8,_16)".parse().unwrap();
    /// let want = "Sw<3,4,3> o _0 o (_8,_16,_1,_4):(_64,_1,_0,_16)";
    /// assert_eq!(c.flat_divide(&t).unwrap().to_string(), want);
    /// ```
    pub fn flat_divide(&self, t: &crate::tiler::Tiler) -> Result<AnyLayout> {
        self.map_inner("flat_divide", |b| crate::algebra::flat_divide(b, t))
    }

    /// CuTe `logical_product(C, tiler)`.
    ///
    /// Pre: `B` is a plain layout (else a `Type` error); as [`logical_product`](crate::logical_product) on `B`.
    /// Post: `A o offset o logical_product(B, tiler)`, or that layout alone where `A` is a swizzle
    /// of no bits and the offset 0.
    ///
    /// ```
    /// let v = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// let t: kute::Tiler = "(_2,_2):(_1,_2)".parse().unwrap();
    /// let want = "Sw<3,4,3> o _0 o ((_8,_64),(_2,_2)):((_64,_1),(_512,_1024))";
    /// assert_eq!(c.logical_product(&t).unwrap().to_string(), want);
    /// ```
    pub fn logical_product(&self, t: &crate::tiler::Tiler) -> Result<AnyLayout> {
        self.map_inner("logical_product", |b| crate::algebra::logical_product(b, t))
    }

    /// CuTe `blocked_product(C, L)`.
    ///
    /// Pre: `B` is a plain layout (else a `Type` error); as [`blocked_product`](crate::blocked_product) on `B`.
    /// Post: `A o offset o blocked_product(B, L)`, or that layout alone where `A` is a swizzle
    /// of no bits and the offset 0.
    ///
    /// ```
    /// let v = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// let l: kute::Layout = "(_2,_2):(_1,_2)".parse().unwrap();
    /// let want = "Sw<3,4,3> o _0 o ((_8,_2),(_64,_2)):((_64,_512),(_1,_1024))";
    /// assert_eq!(c.blocked_product(&l).unwrap().to_string(), want);
    /// ```
    pub fn blocked_product(&self, l: &Layout) -> Result<AnyLayout> {
        self.map_inner("blocked_product", |b| crate::algebra::blocked_product(b, l))
    }

    /// CuTe `raked_product(C, L)`.
    ///
    /// Pre: `B` is a plain layout (else a `Type` error); as [`raked_product`](crate::raked_product) on `B`.
    /// Post: `A o offset o raked_product(B, L)`, or that layout alone where `A` is a swizzle
    /// of no bits and the offset 0.
    ///
    /// ```
    /// let v = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// let l: kute::Layout = "(_2,_2):(_1,_2)".parse().unwrap();
    /// let want = "Sw<3,4,3> o _0 o ((_2,_8),(_2,_64)):((_512,_64),(_1024,_1))";
    /// assert_eq!(c.raked_product(&l).unwrap().to_string(), want);
    /// ```
    pub fn raked_product(&self, l: &Layout) -> Result<AnyLayout> {
        self.map_inner("raked_product", |b| crate::algebra::raked_product(b, l))
    }

    /// CuTe `tile_to_shape(C, shape[, order])`.
    ///
    /// Pre: `B` is a plain layout (else a `Type` error); as [`tile_to_shape`](crate::tile_to_shape) on `B`.
    /// Post: `A o offset o tile_to_shape(B, shape, order)`, or that layout alone where `A` is a swizzle
    /// of no bits and the offset 0.
    ///
    /// ```
    /// let v = kute::expr::eval("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// let (s, o) = ("(_64,_128)".parse().unwrap(), "(_1,_0)".parse().unwrap());
    /// let want = "Sw<3,3,3> o _0 o ((_8,_8),(_64,_2)):((_64,_1024),(_1,_512))";
    /// assert_eq!(c.tile_to_shape(&s, Some(&o)).unwrap().to_string(), want);
    /// ```
    pub fn tile_to_shape(&self, shape: &IntTuple, order: Option<&IntTuple>) -> Result<AnyLayout> {
        self.map_inner("tile_to_shape", |b| crate::algebra::tile_to_shape(b, shape, order))
    }

    /// CuTe `complement(C, cotarget)`: the inner layout's complement.
    ///
    /// Pre: `B` is a plain layout (else a `Type` error); as
    /// [`complement`](crate::complement) on `B`.
    /// Post: `complement(B, cotarget)`, a plain layout (`A` and the offset are dropped, as in CuTe).
    ///
    /// ```
    /// let v = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap();
    /// let kute::AnyLayout::Composed(c) = v.to_any_layout("c").unwrap() else { unreachable!() };
    /// assert_eq!(c.complement(&"_1024".parse().unwrap()).unwrap().to_string(), "_2:_512");
    /// ```
    pub fn complement(&self, cotarget: &IntTuple) -> Result<Layout> {
        crate::algebra::complement(self.inner.as_layout("complement")?, cotarget)
    }
}

/// CuTe's three-argument `composition(A, offset, B)`: the composed layout, or
/// `B` itself when `A` is a swizzle of no bits and the offset 0 (CuTe's
/// "ignore identity case").
///
/// Pre: none. Post: a function equal to `x -> A(offset + B(x))`.
///
/// ```
/// use kute::composed::{compose3, AnyLayout};
/// use kute::{Int, swizzle::Swizzle};
/// let l = AnyLayout::Layout("(_8,_8):(_8,_1)".parse().unwrap());
/// let id = AnyLayout::Swizzle(Swizzle::new(0, 4, 3).unwrap());
/// assert_eq!(compose3(id, Int::new_static(0), l.clone()), l);
/// ```
pub fn compose3(outer: AnyLayout, offset: Int, inner: AnyLayout) -> AnyLayout {
    if let (AnyLayout::Swizzle(s), AnyLayout::Layout(_)) = (&outer, &inner)
        && s.is_identity()
        && offset.value() == 0
    {
        return inner;
    }
    AnyLayout::Composed(Box::new(ComposedLayout::new(outer, offset, inner)))
}

impl AnyLayout {
    /// The value at a 1-D coordinate (a layout's last mode unbounded, as CuTe
    /// evaluates past the size).
    ///
    /// Pre: a layout part has integer strides (else an `Inadmissible` error);
    /// no intermediate value overflows (else an `Overflow` error).
    /// Post: the value, static when `x` and the parts are.
    ///
    /// ```
    /// use kute::{AnyLayout, Int, Swizzle};
    /// let sw = AnyLayout::Swizzle(Swizzle::new(3, 4, 3).unwrap());
    /// assert_eq!(sw.eval_int(Int::new_dynamic(200)).unwrap().value(), 216);
    /// let l = AnyLayout::Layout("(_2,_3):(_3,_1)".parse().unwrap());
    /// assert_eq!(l.eval_int(Int::new_static(7)).unwrap().to_string(), "_6"); // past the size: 3 + 3
    /// assert_eq!((l.leaf_count(), l.depth()), (2, 1));
    /// ```
    pub fn eval_int(&self, x: Int) -> Result<Int> {
        match self {
            AnyLayout::Layout(l) => l.eval_int(x),
            AnyLayout::Swizzle(s) => Ok(s.apply_int(x)),
            AnyLayout::Composed(c) => c.eval_int(x),
        }
    }

    /// The value at a coordinate: an integer, or a tuple of the shape.
    ///
    /// Pre: a tuple coordinate needs a shape (not a swizzle; else a `Type`
    /// error); as [`Layout::eval_coord`]. Post: the value.
    ///
    /// ```
    /// use kute::{AnyLayout, Swizzle};
    /// let sw = AnyLayout::Swizzle(Swizzle::new(3, 4, 3).unwrap());
    /// assert!(sw.eval_coord(&"(1,2)".parse().unwrap()).is_err());
    /// assert!(sw.shape().is_err() && sw.size().is_err() && sw.as_layout("x").is_err());
    /// ```
    pub fn eval_coord(&self, c: &IntTuple) -> Result<Int> {
        if let Some(x) = c.as_ref().as_leaf() {
            return self.eval_int(x);
        }
        match self {
            AnyLayout::Layout(l) => l.eval_coord(c),
            AnyLayout::Swizzle(s) => Err(Error::new(
                crate::ErrorKind::Type,
                "evaluate",
                format!("{s} is a function of one integer, not of the coordinate {c}"),
            )),
            AnyLayout::Composed(k) => k.eval_coord(c),
        }
    }

    /// The leaves of the layouts in it (a swizzle counts 1).
    ///
    /// Pre: none. Post: a layout's number of leaves; 1 for a swizzle; as
    /// [`ComposedLayout::leaf_count`] for a composed layout.
    ///
    /// ```
    /// use kute::{AnyLayout, Swizzle};
    /// assert_eq!(AnyLayout::Layout("((_2,_3),_4):((_1,_2),_6)".parse().unwrap()).leaf_count(), 3);
    /// assert_eq!(AnyLayout::Swizzle(Swizzle::new(3, 4, 3).unwrap()).leaf_count(), 1);
    /// ```
    pub fn leaf_count(&self) -> usize {
        match self {
            AnyLayout::Layout(l) => l.leaves().len(),
            AnyLayout::Swizzle(_) => 1,
            AnyLayout::Composed(c) => c.leaf_count(),
        }
    }

    /// The nesting depth (a layout's depth; 0 for a swizzle).
    ///
    /// Pre: none. Post: a layout's depth; 0 for a swizzle; as
    /// [`ComposedLayout::depth`] for a composed layout.
    ///
    /// ```
    /// use kute::{AnyLayout, Swizzle};
    /// assert_eq!(AnyLayout::Layout("((_2,_3),_4):((_1,_2),_6)".parse().unwrap()).depth(), 2);
    /// assert_eq!(AnyLayout::Swizzle(Swizzle::new(3, 4, 3).unwrap()).depth(), 0);
    /// ```
    pub fn depth(&self) -> usize {
        match self {
            AnyLayout::Layout(l) => l.depth(),
            AnyLayout::Swizzle(_) => 0,
            AnyLayout::Composed(c) => c.depth(),
        }
    }

    /// The layout, or a `Type` error naming `op` for a swizzle or composed layout.
    ///
    /// Pre: a plain layout (else a `Type` error naming `op`). Post: that layout.
    ///
    /// ```
    /// let l = kute::expr::eval("(_8,_64):(_64,_1)").unwrap().to_any_layout("l").unwrap();
    /// assert_eq!(l.as_layout("x").unwrap().to_string(), "(_8,_64):(_64,_1)");
    /// let c = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap().to_any_layout("c").unwrap();
    /// assert_eq!(c.as_layout("x").unwrap_err().kind(), kute::ErrorKind::Type);
    /// ```
    pub fn as_layout(&self, op: &'static str) -> Result<&Layout> {
        match self {
            AnyLayout::Layout(l) => Ok(l),
            other => Err(Error::new(crate::ErrorKind::Type, op, format!("{other} is not a plain layout here"))),
        }
    }

    /// The shape of the domain (a composed layout's is its inner layout's).
    ///
    /// Pre: not a swizzle (it has no shape; else a `Type` error), nor a
    /// composed layout whose `B` is one.
    /// Post: a layout's shape; a composed layout's `B`'s shape.
    ///
    /// ```
    /// let c = kute::expr::eval("make_composed_layout((_4,_4):(_4,_1),_0,(_4,_4):(_1,_4))").unwrap();
    /// assert_eq!(c.to_any_layout("c").unwrap().shape().unwrap().to_string(), "(_4,_4)");
    /// let s = kute::expr::eval("Sw<3,4,3>").unwrap().to_any_layout("s").unwrap();
    /// assert_eq!(s.shape().unwrap_err().kind(), kute::ErrorKind::Type);
    /// ```
    pub fn shape(&self) -> Result<IntTuple> {
        match self {
            AnyLayout::Layout(l) => Ok(l.shape()),
            AnyLayout::Swizzle(s) => Err(no_shape(*s)),
            AnyLayout::Composed(c) => c.shape(),
        }
    }

    /// The size of the domain.
    ///
    /// Pre: as [`AnyLayout::shape`]. Post: the product of the shape.
    ///
    /// ```
    /// let c = kute::expr::eval("make_composed_layout((_2,_8):(_8,_1),_0,(_4,_4):(_1,_4))").unwrap();
    /// assert_eq!(c.to_any_layout("c").unwrap().size().unwrap().to_string(), "_16");
    /// ```
    pub fn size(&self) -> Result<Int> {
        match self {
            AnyLayout::Layout(l) => l.size(),
            AnyLayout::Swizzle(s) => Err(no_shape(*s)),
            AnyLayout::Composed(c) => c.size(),
        }
    }

    /// Every value over the domain, in 1-D order, as plain integers.
    ///
    /// Pre: as [`AnyLayout::size`]; the size is at most
    /// [`MAX_PROOF_POINTS`](crate::limits::MAX_PROOF_POINTS) (else a `Limit`
    /// error naming `op`). Post: `size()` values.
    ///
    /// ```
    /// let c = kute::expr::eval("Sw<2,0,2> o _0 o (_4,_4):(_4,_1)").unwrap().to_any_layout("c").unwrap();
    /// assert_eq!(c.values("values").unwrap()[..8], [0, 5, 10, 15, 1, 4, 11, 14]);
    /// ```
    pub fn values(&self, op: &'static str) -> Result<Vec<i64>> {
        let n = self.size()?.value();
        check_points(op, n)?;
        (0..n).map(|i| Ok(self.eval_int(Int::new_dynamic(i))?.value())).collect()
    }
}

/// A `Limit` error when `n` points are more than one check may enumerate.
pub(crate) fn check_points(op: &'static str, n: i64) -> Result<()> {
    if n > crate::limits::MAX_PROOF_POINTS {
        return Err(Error::limit(
            op,
            format!(
                "checking the answer point by point needs {n} points, past kute's limit of {}",
                crate::limits::MAX_PROOF_POINTS
            ),
        ));
    }
    Ok(())
}

fn no_shape(s: Swizzle) -> Error {
    Error::new(crate::ErrorKind::Type, "shape", format!("{s} is a function on all integers: it has no shape"))
}

impl fmt::Display for AnyLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyLayout::Layout(l) => write!(f, "{l}"),
            AnyLayout::Swizzle(s) => write!(f, "{s}"),
            AnyLayout::Composed(c) => write!(f, "{c}"),
        }
    }
}

impl fmt::Display for ComposedLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.flag {
            Some(flag) => write!(f, "{} o {flag} o {}", self.outer, self.inner),
            None => write!(f, "{} o {} o {}", self.outer, self.offset, self.inner),
        }
    }
}

impl From<Layout> for AnyLayout {
    fn from(l: Layout) -> AnyLayout {
        AnyLayout::Layout(l)
    }
}

impl From<Swizzle> for AnyLayout {
    fn from(s: Swizzle) -> AnyLayout {
        AnyLayout::Swizzle(s)
    }
}

impl From<ComposedLayout> for AnyLayout {
    fn from(c: ComposedLayout) -> AnyLayout {
        AnyLayout::Composed(Box::new(c))
    }
}
