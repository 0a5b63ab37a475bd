//! `Layout`: a shape and a congruent stride, i.e. a function from coordinates to
//! indices.
//!
//! This module has the vocabulary type and its construction, evaluation and
//! accessors; [`modes`] manipulates layouts like tuples and [`mod@slice`] slices them.

mod coords;
pub mod modes;
pub mod point;
pub mod slice;
mod view;

pub use view::LayoutView;

use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{self, AsIntTuple, IntTuple};
use crate::stride::{Stride, StrideTuple};
use crate::tree::{Tree, TreeRef};
use std::fmt;

/// One leaf of a layout: an extent and its stride.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Mode {
    /// The extent.
    pub shape: Int,
    /// The stride: an integer, or an integer scaled onto a basis direction.
    pub stride: Stride,
}

impl Mode {
    /// A mode from its extent and integer stride.
    ///
    /// Pre: none. Post: `shape == shape` and `stride == Stride::of(stride)`.
    ///
    /// ```
    /// use kute::{Int, Mode, Stride};
    /// let m = Mode::new(Int::new_static(4), Int::new_dynamic(2));
    /// assert_eq!((m.shape.value(), m.stride), (4, Stride::of(Int::new_dynamic(2))));
    /// ```
    #[inline]
    pub const fn new(shape: Int, stride: Int) -> Mode {
        Mode { shape, stride: Stride::of(stride) }
    }

    /// A mode from its extent and any stride.
    ///
    /// Pre: none. Post: the mode `shape:stride`.
    ///
    /// ```
    /// use kute::{Int, Mode, Stride};
    /// let e = Stride::basis(Int::ONE, &[1]).unwrap();
    /// let m = Mode::with_stride(Int::new_static(8), e);
    /// assert_eq!(m.stride.to_string(), "_1@1");
    /// ```
    #[inline]
    pub const fn with_stride(shape: Int, stride: Stride) -> Mode {
        Mode { shape, stride }
    }
}

/// Which compact stride order to generate: CuTe's `LayoutLeft` (column-major,
/// first mode fastest) or `LayoutRight` (row-major).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Major {
    /// Column-major (`LayoutLeft{}`, `GenColMajor`).
    Left,
    /// Row-major (`LayoutRight{}`, `GenRowMajor`).
    Right,
}

/// A CuTe layout `shape:stride`: a map from (hierarchical) coordinates to integers.
///
/// Up to 16 leaves are held inline, without heap allocation.
///
/// ```
/// use kute::Layout;
/// let l: Layout = "(2,(2,2)):(4,(1,2))".parse().unwrap();
/// assert_eq!(l.size().unwrap().value(), 8);
/// assert_eq!(l.eval(5).unwrap(), 6);            // 5 -> (1,(0,1)) -> 4 + 2
/// assert_eq!(l.to_string(), "(2,(2,2)):(4,(1,2))");
/// ```
#[derive(PartialEq, Eq, Hash)]
pub struct Layout {
    pub(crate) tree: Tree<Mode>,
}

// By hand, for `clone_from`: the derived one would build a copy and move it in.
impl Clone for Layout {
    #[inline]
    fn clone(&self) -> Self {
        Layout { tree: self.tree.clone() }
    }

    #[inline]
    fn clone_from(&mut self, source: &Self) {
        self.tree.clone_from(&source.tree);
    }
}

/// `_1:_0`, CuTe's default `Layout<_1,_0>`; also a ready output argument for
/// the `*_into` operations.
///
/// ```
/// assert_eq!(kute::Layout::default().to_string(), "_1:_0");
/// ```
impl Default for Layout {
    fn default() -> Layout {
        Layout { tree: Tree::leaf(Mode::new(Int::ONE, Int::ZERO)) }
    }
}

/// A borrowed layout (a sub-layout of a [`Layout`]).
pub(crate) type LayoutRef<'a> = TreeRef<'a, Mode>;

/// A one-leaf layout borrowed from a mode.
#[inline(always)]
pub(crate) fn leaf_ref(m: &Mode) -> LayoutRef<'_> {
    const LEAF_TOKS: [u16; 1] = [crate::tree::LEAF];
    TreeRef { toks: &LEAF_TOKS, leaves: std::slice::from_ref(m) }
}

impl Layout {
    /// The layout with values put in for its unknowns.
    ///
    /// Pre: as [`Int::substitute`] for every extent and stride. Post: a
    /// concrete layout of the same profile.
    ///
    /// ```
    /// use kute::{expr::{eval_line, Env}, sym::Valuation};
    /// let mut env = Env::new();
    /// eval_line(&mut env, "M = ?").unwrap();
    /// let v = eval_line(&mut env, "(M,_4):(_4,4*M)").unwrap();
    /// let l = v.as_layout().unwrap();
    /// assert_eq!(l.substitute(&Valuation::from([("M", 3)])).unwrap().to_string(), "(3,_4):(_4,12)");
    /// ```
    pub fn substitute(&self, v: &crate::sym::Valuation) -> Result<Layout> {
        Ok(Layout {
            tree: self.tree.try_map(|m| Ok(Mode::with_stride(m.shape.substitute(v)?, m.stride.substitute(v)?)))?,
        })
    }

    /// Whether an extent or a stride is symbolic. Pre: none. Post: the answer.
    ///
    /// ```
    /// let l: kute::Layout = "(?,8):(_1,?)".parse().unwrap();
    /// assert!(l.has_symbols());
    /// assert!(!"(2,8):(_1,2)".parse::<kute::Layout>().unwrap().has_symbols());
    /// ```
    pub fn has_symbols(&self) -> bool {
        self.leaves().iter().any(|m| m.shape.is_symbolic() || m.stride.is_symbolic())
    }

    // ----- construction -----------------------------------------------------

    /// The layout `shape:stride` (CuTe `make_layout(shape, stride)`), from
    /// integer tuples or anything that stands for one ([`AsIntTuple`]: plain
    /// integers are dynamic, as CuTe's `int`).
    ///
    /// Pre: `shape` and `stride` are congruent (else a `Mismatch` error),
    /// nested at most [`MAX_DEPTH`](crate::tree::MAX_DEPTH) levels (else a `Limit`
    /// error), and no extent is negative (else an `Inadmissible` error: an
    /// extent is a size). Post: `shape()` and `stride()` are the operands.
    ///
    /// ```
    /// use kute::{Int, IntTuple, Layout};
    /// let s: IntTuple = "(2,3)".parse().unwrap();
    /// let d: IntTuple = "(3,1)".parse().unwrap();
    /// assert_eq!(Layout::new(&s, &d).unwrap().to_string(), "(2,3):(3,1)");
    /// assert_eq!(Layout::new((4, 8), (8, 1)).unwrap().to_string(), "(4,8):(8,1)");
    /// let _4 = Int::new_static(4);
    /// assert_eq!(Layout::new((_4, (2, 2)), (1, (4, 8))).unwrap().to_string(), "(_4,(2,2)):(1,(4,8))");
    /// assert!(Layout::new((4, 8), 1).is_err());
    /// ```
    pub fn new(shape: impl AsIntTuple, stride: impl AsIntTuple) -> Result<Layout> {
        let stride = stride.as_int_tuple().map(Stride::of);
        Layout::with_strides(&shape.as_int_tuple(), &stride)
    }

    /// The layout `shape:stride` for strides of any kind (integers and basis
    /// elements). Errors unless the two are congruent.
    ///
    /// Pre: `shape` and `stride` are congruent (else a `Mismatch` error) and
    /// nested at most [`MAX_DEPTH`](crate::tree::MAX_DEPTH) levels (else a `Limit`
    /// error). Post: `shape()` and `stride()` are the operands.
    ///
    /// ```
    /// use kute::{Int, IntTuple, Layout, Stride, tree::Tree};
    /// let s: IntTuple = "(4,6)".parse().unwrap();
    /// let (e0, e1) = (Stride::basis(Int::ONE, &[0]).unwrap(), Stride::basis(Int::new_static(2), &[1]).unwrap());
    /// let d = Tree::tuple_of_leaves([e0, e1]);
    /// assert_eq!(Layout::with_strides(&s, &d).unwrap().to_string(), "(4,6):(_1@0,_2@1)");
    /// ```
    pub fn with_strides(shape: &IntTuple, stride: &StrideTuple) -> Result<Layout> {
        crate::tree::check_depth(shape.as_ref(), "make_layout")?;
        if !shape.as_ref().congruent(stride.as_ref()) {
            return Err(Error::mismatch("make_layout", format!("stride {stride} is not congruent with shape {shape}")));
        }
        if let Some(x) = shape.leaves().iter().find(|x| !x.is_symbolic() && x.value() < 0) {
            return Err(Error::inadmissible(
                "make_layout",
                format!("the extent {x} of shape {shape} is negative; an extent is a size, at least 0"),
            ));
        }
        let leaves = shape.leaves().iter().zip(stride.leaves()).map(|(&s, &d)| Mode::with_stride(s, d));
        Ok(Layout { tree: shape.with_leaves(leaves) })
    }

    /// The layout whose modes `f` adds to a [`Builder`](crate::tree::Builder), as
    /// [`Tree::try_build`] builds a tree: a layout made in one pass, without a
    /// shape and a stride tuple first (what a binding builds from its own tuples).
    ///
    /// Pre: `f` adds exactly one element at the top level (as [`Tree::try_build`]);
    /// the tree is within kute's limits (else a `Limit` error) and no extent is
    /// negative (else an `Inadmissible` error, as [`Layout::new`]).
    /// Post: the layout `f` built.
    ///
    /// ```
    /// use kute::{Int, Layout, Mode};
    /// let m = |s, d| Mode::new(Int::new_dynamic(s), Int::new_dynamic(d));
    /// let l = Layout::try_build_modes(|b| {
    ///     b.open();
    ///     b.leaf(m(4, 8));
    ///     b.leaf(m(8, 1));
    ///     b.close();
    ///     Ok(())
    /// })
    /// .unwrap();
    /// assert_eq!(l.to_string(), "(4,8):(8,1)");
    /// assert!(Layout::try_build_modes(|b| Ok(b.leaf(m(-4, 1)))).is_err());
    /// ```
    pub fn try_build_modes(f: impl FnOnce(&mut crate::tree::Builder<'_, Mode>) -> Result<()>) -> Result<Layout> {
        let tree = Tree::try_build(f)?;
        if let Some(x) = tree.leaves().iter().map(|m| m.shape).find(|x| !x.is_symbolic() && x.value() < 0) {
            let l = Layout { tree };
            return Err(Error::inadmissible(
                "make_layout",
                format!("the extent {x} of {l} is negative; an extent is a size, at least 0"),
            ));
        }
        Ok(Layout { tree })
    }

    /// [`Layout::try_build_modes`] into this layout's own storage (no copy of
    /// the result: a layout holds up to 16 leaves inline, hundreds of bytes,
    /// that each move copies; a binding keeping its layouts on the heap builds
    /// them there).
    ///
    /// Pre: as [`Layout::try_build_modes`]. Post: `Ok` and the layout `f`
    /// built, or the error (as [`Layout::try_build_modes`]'s) and `_1:_0`.
    ///
    /// ```
    /// use kute::{Int, Layout, Mode};
    /// let m = |s, d| Mode::new(Int::new_dynamic(s), Int::new_dynamic(d));
    /// let mut l = Box::new(Layout::unit());
    /// l.try_build_modes_in(|b| {
    ///     b.open();
    ///     b.leaf(m(4, 8));
    ///     b.leaf(m(8, 1));
    ///     b.close();
    ///     Ok(())
    /// })
    /// .unwrap();
    /// assert_eq!(l.to_string(), "(4,8):(8,1)");
    /// assert!(l.try_build_modes_in(|b| Ok(b.leaf(m(-4, 1)))).is_err());
    /// assert_eq!(*l, Layout::unit());
    /// ```
    pub fn try_build_modes_in(
        &mut self,
        f: impl FnOnce(&mut crate::tree::Builder<'_, Mode>) -> Result<()>,
    ) -> Result<()> {
        let built = self.tree.try_build_in(f);
        let negative = self.tree.leaves().iter().map(|m| m.shape).find(|x| !x.is_symbolic() && x.value() < 0);
        let r = match (built, negative) {
            (Err(e), _) => Err(e),
            (Ok(()), Some(x)) => Err(Error::inadmissible(
                "make_layout",
                format!("the extent {x} of {self} is negative; an extent is a size, at least 0"),
            )),
            (Ok(()), None) => return Ok(()),
        };
        self.tree.clone_from(&Layout::unit().tree);
        r
    }

    /// CuTe `make_identity_layout(shape)`: the layout mapping each coordinate of
    /// `shape` to itself, `shape:make_basis_like(shape)`.
    ///
    /// Pre: `shape` is within kute's basis paths (at most
    /// [`MAX_BASIS_DEPTH`](crate::stride::MAX_BASIS_DEPTH) levels, mode indices up
    /// to [`MAX_BASIS_INDEX`](crate::stride::MAX_BASIS_INDEX); else a `Limit`
    /// error). Post: `shape()` is `shape`, and the value at every coordinate is
    /// that coordinate.
    ///
    /// ```
    /// use kute::{Int, IntTuple, Layout};
    /// let s: IntTuple = "(_8,_12)".parse().unwrap();
    /// let i = Layout::identity(&s).unwrap();
    /// assert_eq!(i.to_string(), "(_8,_12):(_1@0,_1@1)");
    /// assert_eq!(i.eval_point(Int::new_static(37)).unwrap().to_string(), "(_5,_4)");
    /// ```
    pub fn identity(shape: &IntTuple) -> Result<Layout> {
        let stride = crate::stride::make_basis_like(shape)?;
        Layout::with_strides(shape, &stride).map_err(|e| e.in_op("make_identity_layout"))
    }

    /// A rank-1 layout `shape:stride` of integers.
    #[inline]
    ///
    /// Pre: none. Post: an integral layout (`is_integral()`) with the one mode
    /// `shape:stride`.
    ///
    /// ```
    /// use kute::{Int, Layout};
    /// assert_eq!(Layout::leaf(Int::new_static(8), Int::ONE).to_string(), "_8:_1");
    /// assert_eq!(Layout::unit().to_string(), "_1:_0");
    /// ```
    pub fn leaf(shape: Int, stride: Int) -> Layout {
        Layout { tree: Tree::leaf(Mode::new(shape, stride)) }
    }

    /// CuTe's empty layout `_1:_0`.
    ///
    /// Pre: none. Post: `_1:_0`, equal to `Layout::default()`.
    ///
    /// ```
    /// use kute::Layout;
    /// assert_eq!(Layout::unit(), Layout::default());
    /// assert_eq!(Layout::unit().size().unwrap().value(), 1);
    /// ```
    pub fn unit() -> Layout {
        Layout::leaf(Int::ONE, Int::ZERO)
    }

    /// CuTe `make_layout(shape)`: compact column-major strides.
    ///
    /// Pre: the product of the extents other than 1 fits in `i64` (else an
    /// `Overflow` error); as [`Layout::new`] for the nesting.
    /// Post: `shape()` is `shape`, `stride()` is `compact_col_major(shape, _1)`.
    ///
    /// ```
    /// use kute::{Layout, IntTuple};
    /// let s: IntTuple = "(2,(_3,4))".parse().unwrap();
    /// assert_eq!(Layout::from_shape(&s).unwrap().to_string(), "(2,(_3,4)):(_1,(2,6))");
    /// ```
    pub fn from_shape(shape: &IntTuple) -> Result<Layout> {
        Self::from_shape_major(shape, Major::Left)
    }

    /// CuTe `make_layout(shape, LayoutLeft{})` / `make_layout(shape, LayoutRight{})`.
    ///
    /// Pre: as [`Layout::from_shape`]. Post: `shape()` is `shape`, `stride()` is
    /// `compact_col_major(shape, _1)` for [`Major::Left`], `compact_row_major(shape,
    /// _1)` for [`Major::Right`].
    ///
    /// ```
    /// use kute::{Layout, IntTuple, Major};
    /// let s: IntTuple = "(2,(2,2))".parse().unwrap();
    /// assert_eq!(Layout::from_shape_major(&s, Major::Right).unwrap().to_string(), "(2,(2,2)):(4,(2,_1))");
    /// ```
    pub fn from_shape_major(shape: &IntTuple, major: Major) -> Result<Layout> {
        let stride = match major {
            Major::Left => int_tuple::compact_col_major(shape.as_ref(), Int::ONE)?,
            Major::Right => int_tuple::compact_row_major(shape.as_ref(), Int::ONE)?,
        };
        Layout::new(shape, &stride)
    }

    /// CuTe `make_ordered_layout(shape, order)`: compact strides in the order
    /// given, equal orders left to right (CuTe documents a compact layout; its
    /// C++ gives equal orders overlapping strides: `(_4,_8):(_1,_1)` for
    /// orders `(_5,_5)`, here `(_4,_8):(_1,_4)`, as PyCuTe).
    ///
    /// Pre: as [`compact_order`](crate::int_tuple::compact_order) (a `Mismatch`
    /// error unless `order` is weakly congruent to `shape`).
    /// Post: `shape()` is `shape`, `stride()` is `compact_order(shape, order)`
    /// with ties broken left to right: the layout is compact.
    ///
    /// ```
    /// use kute::{Layout, IntTuple};
    /// let s: IntTuple = "(_2,_3,_4)".parse().unwrap();
    /// let o: IntTuple = "(_1,_0,_2)".parse().unwrap();
    /// assert_eq!(Layout::ordered(&s, &o).unwrap().to_string(), "(_2,_3,_4):(_3,_1,_6)");
    /// let tied: IntTuple = "(_5,_5,_2)".parse().unwrap();
    /// assert_eq!(Layout::ordered(&s, &tied).unwrap().to_string(), "(_2,_3,_4):(_4,_8,_1)");
    /// ```
    pub fn ordered(shape: &IntTuple, order: &IntTuple) -> Result<Layout> {
        let stride = int_tuple::order_strides(shape.as_ref(), order.as_ref(), true)?;
        Layout::new(shape, &stride)
    }

    /// CuTe `make_layout(L0, L1, ...)`: concatenation, a tuple whose modes are the
    /// given layouts (a single layout is wrapped into a rank-1 tuple).
    ///
    /// Pre: the result is nested at most [`MAX_DEPTH`](crate::tree::MAX_DEPTH)
    /// levels (else a `Limit` error). Post: a tuple layout whose mode `i` is the
    /// `i`-th part.
    ///
    /// ```
    /// use kute::Layout;
    /// let a: Layout = "_3:_1".parse().unwrap();
    /// let b: Layout = "_4:_3".parse().unwrap();
    /// assert_eq!(Layout::concat([&a, &b]).unwrap().to_string(), "(_3,_4):(_1,_3)");
    /// assert_eq!(Layout::concat([&a]).unwrap().to_string(), "(_3):(_1)");
    /// ```
    pub fn concat<'a>(parts: impl IntoIterator<Item = &'a Layout>) -> Result<Layout> {
        Layout::concat_unchecked(parts).checked("make_layout")
    }

    pub(crate) fn concat_unchecked<'a>(parts: impl IntoIterator<Item = &'a Layout>) -> Layout {
        Layout { tree: Tree::tuple(parts.into_iter().map(|l| l.tree.as_ref())) }
    }

    /// Reject layouts nested too deeply for the recursive algorithms.
    pub(crate) fn checked(self, op: &'static str) -> Result<Layout> {
        crate::tree::check_depth(self.tree.as_ref(), op)?;
        Ok(self)
    }

    pub(crate) fn from_ref(r: LayoutRef<'_>) -> Layout {
        Layout { tree: r.to_tree() }
    }

    #[inline(always)]
    pub(crate) fn as_tree_ref(&self) -> LayoutRef<'_> {
        self.tree.as_ref()
    }

    /// A flat layout from parallel lists of extents and strides: an integral
    /// layout for one mode, a tuple otherwise.
    #[inline]
    pub(crate) fn from_flat(modes: &[Mode]) -> Layout {
        Layout { tree: Tree::flat(modes) }
    }

    /// The layout `_1:_0`, the value an output argument holds after an error.
    #[inline]
    pub(crate) fn reset(&mut self) {
        *self = Layout::default();
    }

    /// Write flat modes into `self`'s storage with `f`, which pushes them onto
    /// the (emptied) leaves; one mode gives an integral layout. On error `self` is `_1:_0`.
    #[inline]
    pub(crate) fn flat_in(&mut self, f: impl FnOnce(&mut crate::tree::Leaves<Mode>) -> Result<()>) -> Result<()> {
        self.tree.leaves.clear();
        let r = f(&mut self.tree.leaves);
        if r.is_err() {
            self.reset();
        } else {
            self.tree.set_flat_toks();
        }
        r
    }

    /// The by-value form of an `*_into` operation: one move of the result.
    #[inline]
    pub(crate) fn from_into(f: impl FnOnce(&mut Layout) -> Result<()>) -> Result<Layout> {
        let mut out = Layout { tree: Tree::empty() };
        f(&mut out)?;
        Ok(out)
    }

    // ----- accessors --------------------------------------------------------

    /// The shape.
    ///
    /// Pre: none. Post: the extents, as an [`IntTuple`] congruent to the layout.
    ///
    /// ```
    /// let l: kute::Layout = "(2,(_3,4)):(_1,(2,6))".parse().unwrap();
    /// assert_eq!(l.shape().to_string(), "(2,(_3,4))");
    /// assert_eq!(l.stride().to_string(), "(_1,(2,6))");
    /// ```
    pub fn shape(&self) -> IntTuple {
        self.tree.map(|m| m.shape)
    }

    /// The stride: integers, or basis strides for a coordinate layout.
    ///
    /// Pre: none. Post: the strides, as a tuple congruent to `shape()`.
    ///
    /// ```
    /// use kute::{IntTuple, Layout};
    /// let l: Layout = "(2,(_3,4)):(_1,(2,6))".parse().unwrap();
    /// assert_eq!(l.stride().to_string(), "(_1,(2,6))");
    /// let id = Layout::identity(&"(2,3)".parse::<IntTuple>().unwrap()).unwrap();
    /// assert_eq!(id.stride().to_string(), "(_1@0,_1@1)");
    /// ```
    pub fn stride(&self) -> StrideTuple {
        self.tree.map(|m| m.stride)
    }

    /// The stride as integers; errors (naming `op`) for a layout with basis strides.
    pub(crate) fn int_stride(&self, op: &'static str) -> Result<IntTuple> {
        self.tree.try_map(|m| m.stride.int_in(op))
    }

    /// Errors (naming `op`) unless every stride is an integer.
    #[inline]
    pub(crate) fn int_strides(&self, op: &'static str) -> Result<()> {
        int_strides(self.leaves(), op)
    }

    /// Whether every stride is an integer (no basis strides).
    ///
    /// Pre: none. Post: `false` iff some stride is a basis stride.
    ///
    /// ```
    /// let l: kute::Layout = "(2,3):(1,2)".parse().unwrap();
    /// assert!(l.has_int_strides());
    /// let id = kute::expr::parse_layout("make_identity_layout((2,3))").unwrap();
    /// assert!(!id.has_int_strides());
    /// ```
    #[inline]
    pub fn has_int_strides(&self) -> bool {
        self.leaves().iter().all(|m| m.stride.is_int())
    }

    /// The leaves (extent and stride pairs), left to right.
    #[inline]
    ///
    /// Pre: none. Post: one [`Mode`] per leaf of the shape, in order.
    ///
    /// ```
    /// let l: kute::Layout = "(2,(3,4)):(1,(2,6))".parse().unwrap();
    /// assert_eq!(l.leaves().len(), 3);
    /// assert_eq!(l.leaves()[2].stride.value(), 6);
    /// ```
    pub fn leaves(&self) -> &[Mode] {
        self.tree.leaves()
    }

    /// Whether the shape is a single integer (not a tuple).
    #[inline]
    ///
    /// Pre: none. Post: `true` iff the shape is an integer (a rank-1 tuple is not).
    ///
    /// ```
    /// assert!("8:1".parse::<kute::Layout>().unwrap().is_integral());
    /// assert!(!"(8):(1)".parse::<kute::Layout>().unwrap().is_integral());
    /// ```
    pub fn is_integral(&self) -> bool {
        self.tree.is_leaf()
    }

    /// Rank: the number of top-level modes (1 for an integral layout).
    #[inline]
    ///
    /// Pre: none. Post: the rank of the shape (0 for `():()`).
    ///
    /// ```
    /// let l: kute::Layout = "(2,(3,4)):(1,(2,6))".parse().unwrap();
    /// assert_eq!((l.rank(), l.depth()), (2, 2));
    /// ```
    pub fn rank(&self) -> usize {
        self.tree.rank()
    }

    /// Depth of the shape.
    ///
    /// Pre: none. Post: 0 for an integral layout, 1 + the deepest mode's depth for
    /// a tuple.
    ///
    /// ```
    /// let l: kute::Layout = "(2,(3,(4,5))):(1,(2,(6,24)))".parse().unwrap();
    /// assert_eq!(l.depth(), 3);
    /// assert_eq!("8:1".parse::<kute::Layout>().unwrap().depth(), 0);
    /// ```
    pub fn depth(&self) -> usize {
        self.tree.depth()
    }

    /// The number of coordinates, the product of the shape.
    #[inline]
    ///
    /// Pre: every partial product, left to right, fits in `i64` (else an
    /// `Overflow` error). Post: the product of the extents (`_1` for none),
    /// static when every extent is.
    ///
    /// ```
    /// let l: kute::Layout = "(2,(3,4)):(1,(2,6))".parse().unwrap();
    /// assert_eq!(l.size().unwrap().value(), 24);
    /// ```
    pub fn size(&self) -> Result<Int> {
        let mut p = Int::ONE;
        for m in self.leaves() {
            p = p.mul(m.shape).map_err(|e| e.in_op("size"))?;
        }
        Ok(p)
    }

    /// CuTe `cosize`: `1 + Σ (s-1)·|d|` over the leaves, one past the largest
    /// index for non-negative strides.
    ///
    /// Pre: every stride is an integer (else an `Inadmissible` error); the sum
    /// fits in `i64` (else an `Overflow` error). Post: `1 + Σ (s-1)·|d|`.
    ///
    /// ```
    /// let l: kute::Layout = "(4,_3):(_1,_8)".parse().unwrap();
    /// assert_eq!(l.cosize().unwrap().value(), 20);
    /// ```
    pub fn cosize(&self) -> Result<Int> {
        cosize_of(self.leaves())
    }

    /// Mode `i` (CuTe `get<i>` / `layout<i>`); mode 0 of an integral layout is itself.
    ///
    /// Pre: `i < rank()` (else a `Mismatch` error). Post: a copy of mode `i`.
    ///
    /// ```
    /// let l: kute::Layout = "(_2,(_3,_4)):(_1,(_2,_6))".parse().unwrap();
    /// assert_eq!(l.mode(1).unwrap().to_string(), "(_3,_4):(_2,_6)");
    /// assert!(l.mode(2).is_err());
    /// ```
    pub fn mode(&self, i: usize) -> Result<Layout> {
        self.tree.as_ref().mode(i).map(Layout::from_ref).ok_or_else(|| {
            Error::mismatch("layout", format!("mode {i} out of range for {self} of rank {}", self.rank()))
        })
    }

    /// The nested mode at a path (CuTe `layout<I0,I1,...>`); the empty path is the layout.
    ///
    /// Pre: each index is below the rank of the mode it indexes (else a `Mismatch`
    /// error). Post: a copy of the nested mode.
    ///
    /// ```
    /// let l: kute::Layout = "(_2,(_3,_4)):(_1,(_2,_6))".parse().unwrap();
    /// assert_eq!(l.mode_at(&[1, 0]).unwrap().to_string(), "_3:_2");
    /// ```
    pub fn mode_at(&self, path: &[usize]) -> Result<Layout> {
        self.mode_at_in(path, "layout")
    }

    /// [`Layout::mode_at`] for the operation `op` (`size<5>(L)`'s error is
    /// `size`'s).
    pub(crate) fn mode_at_in(&self, path: &[usize], op: &'static str) -> Result<Layout> {
        let mut r = self.tree.as_ref();
        for &i in path {
            r = r.mode(i).ok_or_else(|| Error::mismatch(op, format!("mode path {path:?} out of range for {self}")))?;
        }
        Ok(Layout::from_ref(r))
    }

    // ----- evaluation -------------------------------------------------------

    /// The index of 1-D coordinate `i` (CuTe `L(i)`). Coordinates past the size
    /// extend the last mode.
    ///
    /// Pre: every stride is an integer (else an `Inadmissible` error); no extent
    /// but the last is 0 (else a `DivisionByZero` error); the arithmetic fits in
    /// `i64` (else an `Overflow` error).
    /// Post: `Σ c_k · d_k` over the leaves, where `c_k = (i / Π_{j<k} s_j) % s_k`
    /// (the last leaf's `c_k` not reduced).
    ///
    /// ```
    /// use kute::Layout;
    /// let l: Layout = "(_2,_3):(_1,_2)".parse().unwrap();
    /// assert_eq!(l.eval(7).unwrap(), 7);
    /// ```
    #[inline]
    pub fn eval(&self, i: i64) -> Result<i64> {
        self.eval_int(Int::new_dynamic(i))?.concrete("evaluate")
    }

    /// As [`Layout::eval`], keeping track of static-ness.
    ///
    /// Pre: as [`Layout::eval`]. Post: the value of [`Layout::eval`], static when
    /// `i` and the extents and strides it meets are; a static `_0` gives `_0`.
    ///
    /// ```
    /// use kute::{Int, Layout};
    /// let l: Layout = "(_2,_3):(_3,_1)".parse().unwrap();
    /// assert_eq!(l.eval_int(Int::new_static(3)).unwrap().to_string(), "_4");
    /// ```
    pub fn eval_int(&self, i: Int) -> Result<Int> {
        eval_leaves(self.leaves(), i)
    }

    /// The index of a (hierarchical or partially flat) coordinate (CuTe `crd2idx`).
    ///
    /// Pre: every stride is an integer (else an `Inadmissible` error); a tuple in
    /// `coord` matches the mode it addresses in rank (else a `Mismatch` error); as
    /// [`Layout::eval`] for the integers of `coord`.
    /// Post: the sum over the modes of each integer of `coord` evaluated on its
    /// mode (as [`Layout::eval`]).
    ///
    /// ```
    /// use kute::{Layout, IntTuple};
    /// let l: Layout = "(3,(2,3)):(3,(12,1))".parse().unwrap();
    /// let c: IntTuple = "(2,(1,2))".parse().unwrap();
    /// assert_eq!(l.eval_coord(&c).unwrap().value(), 20);
    /// ```
    pub fn eval_coord(&self, coord: &IntTuple) -> Result<Int> {
        let shape = self.shape();
        let stride = self.int_stride("evaluate")?;
        int_tuple::coord::crd2idx_rec(coord.as_ref(), shape.as_ref(), stride.as_ref())
            .map_err(|e| e.in_op_over_arith("evaluate"))
    }

    /// Whether every integer of shape and stride is static.
    ///
    /// Pre: none. Post: `true` iff every extent and every stride's scale is static.
    ///
    /// ```
    /// let l: kute::Layout = "(_2,_3):(_3,_1)".parse().unwrap();
    /// assert!(l.is_static());
    /// assert!(!"(_2,3):(_3,_1)".parse::<kute::Layout>().unwrap().is_static());
    /// ```
    pub fn is_static(&self) -> bool {
        self.leaves().iter().all(|m| m.shape.is_static() && m.stride.is_static())
    }

    /// The same layout with every integer dynamic.
    ///
    /// Pre: none. Post: the same values and structure; every extent and stride
    /// scale dynamic (basis directions kept).
    ///
    /// ```
    /// let l: kute::Layout = "(_2,_3):(_3,_1)".parse().unwrap();
    /// assert_eq!(l.to_dynamic().to_string(), "(2,3):(3,1)");
    /// ```
    pub fn to_dynamic(&self) -> Layout {
        Layout { tree: self.tree.map(|m| Mode::with_stride(m.shape.to_dynamic(), m.stride.to_dynamic())) }
    }
}

/// [`Layout::eval_int`] over the flat leaves of a layout (or of a view's
/// subtree): `Σ (c_k mod s_k)·d_k` with `c_{k+1} = c_k div s_k`, the last leaf
/// not reduced, and a static `_0` coordinate giving `_0` (as CuTe).
pub(crate) fn eval_leaves(leaves: &[Mode], i: Int) -> Result<Int> {
    let n = leaves.len();
    let mut c = i;
    let mut acc = Int::ZERO;
    let op = |e: Error| e.in_op_over_arith("evaluate");
    for m in &leaves[..n.saturating_sub(1)] {
        let d = m.stride.int_in("evaluate")?;
        acc = acc.add(c.rem(m.shape).map_err(op)?.mul(d).map_err(op)?).map_err(op)?;
        c = c.div(m.shape).map_err(op)?;
    }
    if let Some(m) = leaves.last() {
        acc = acc.add(c.mul(m.stride.int_in("evaluate")?).map_err(op)?).map_err(op)?;
    }
    if i.is_static() && i.value() == 0 {
        // CuTe short-circuits a static _0 coordinate to _0.
        return Ok(Int::ZERO);
    }
    Ok(acc)
}

/// Errors (naming `op`) unless every stride of `leaves` is an integer.
#[inline]
pub(crate) fn int_strides(leaves: &[Mode], op: &'static str) -> Result<()> {
    for m in leaves {
        m.stride.int_in(op)?;
    }
    Ok(())
}

/// [`Layout::cosize`] of flat leaves.
#[inline]
pub(crate) fn cosize_of(leaves: &[Mode]) -> Result<Int> {
    let mut c = Int::ONE;
    for m in leaves {
        let t = m.shape.sub(Int::ONE)?.mul(m.stride.int_in("cosize")?.abs()?)?;
        c = c.add(t).map_err(|e| e.in_op("cosize"))?;
    }
    Ok(c)
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.tree.as_ref();
        int_tuple::write_tree(f, r, &|f, m: Mode| write!(f, "{}", m.shape))?;
        f.write_str(":")?;
        int_tuple::write_tree(f, r, &|f, m: Mode| write!(f, "{}", m.stride))
    }
}

impl fmt::Debug for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
