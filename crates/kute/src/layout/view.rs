//! [`LayoutView`]: a borrowed layout, whole or one of its modes, without a copy.

use super::{Layout, LayoutRef, Mode};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::stride::StrideTuple;
use std::fmt;

/// A borrowed layout: a whole [`Layout`] ([`Layout::view`]) or one of its
/// modes ([`LayoutView::mode`], [`Layout::modes`]). Two slices, copied freely;
/// nothing of the layout is copied until [`LayoutView::to_layout`].
///
/// ```
/// use kute::Layout;
/// let l: Layout = "(_2,(_3,_4)):(_1,(_2,_6))".parse().unwrap();
/// let m = l.view().mode(1).unwrap();
/// assert_eq!(m.to_string(), "(_3,_4):(_2,_6)");
/// assert_eq!(m.size().unwrap().value(), 12);
/// assert_eq!(m.modes().map(|x| x.to_string()).collect::<Vec<_>>(), ["_3:_2", "_4:_6"]);
/// assert_eq!(m.to_layout(), l.mode(1).unwrap());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct LayoutView<'a> {
    pub(crate) tree: LayoutRef<'a>,
}

impl<'a> LayoutView<'a> {
    /// The number of top-level modes (1 for a leaf).
    ///
    /// Pre: none. Post: as [`Layout::rank`] of the viewed layout.
    ///
    /// ```
    /// let l: kute::Layout = "(_2,(_3,_4)):(_1,(_2,_6))".parse().unwrap();
    /// assert_eq!(l.view().rank(), 2);
    /// assert_eq!(l.view().mode(0).unwrap().rank(), 1);
    /// ```
    #[inline]
    pub fn rank(self) -> usize {
        self.tree.rank()
    }

    /// The nesting depth (0 for a leaf).
    ///
    /// Pre: none. Post: as [`Layout::depth`] of the viewed layout.
    ///
    /// ```
    /// let l: kute::Layout = "(_2,(_3,_4)):(_1,(_2,_6))".parse().unwrap();
    /// assert_eq!(l.view().depth(), 2);
    /// assert_eq!(l.view().mode(1).unwrap().depth(), 1);
    /// ```
    #[inline]
    pub fn depth(self) -> usize {
        self.tree.depth()
    }

    /// Whether this is a single mode `s:d`.
    ///
    /// Pre: none. Post: `true` iff the shape is an integer.
    ///
    /// ```
    /// let l: kute::Layout = "(_2,(_3,_4)):(_1,(_2,_6))".parse().unwrap();
    /// assert!(!l.view().is_leaf());
    /// assert!(l.view().mode(0).unwrap().is_leaf());
    /// ```
    #[inline]
    pub fn is_leaf(self) -> bool {
        self.tree.is_leaf()
    }

    /// The leaves, in order.
    ///
    /// Pre: none. Post: the viewed modes' leaves, borrowed from the layout.
    ///
    /// ```
    /// let l: kute::Layout = "(_2,(_3,_4)):(_1,(_2,_6))".parse().unwrap();
    /// let m = l.view().mode(1).unwrap();
    /// assert_eq!(m.leaves().iter().map(|x| x.stride.value()).collect::<Vec<_>>(), [2, 6]);
    /// ```
    #[inline]
    pub fn leaves(self) -> &'a [Mode] {
        self.tree.leaves()
    }

    /// Mode `i` (a leaf's mode 0 is itself); `None` past the rank.
    ///
    /// Pre: none. Post: `Some(view of mode i)` for `i < rank()`, else `None`.
    ///
    /// ```
    /// let l: kute::Layout = "(_2,(_3,_4)):(_1,(_2,_6))".parse().unwrap();
    /// assert_eq!(l.view().mode(1).unwrap().mode(0).unwrap().to_string(), "_3:_2");
    /// assert!(l.view().mode(2).is_none());
    /// ```
    #[inline]
    pub fn mode(self, i: usize) -> Option<LayoutView<'a>> {
        self.tree.mode(i).map(|tree| LayoutView { tree })
    }

    /// The top-level modes (a leaf is its own only mode).
    ///
    /// Pre: none. Post: `rank()` views, mode 0 first.
    ///
    /// ```
    /// let l: kute::Layout = "(_2,(_3,_4)):(_1,(_2,_6))".parse().unwrap();
    /// let m: Vec<String> = l.view().modes().map(|v| v.to_string()).collect();
    /// assert_eq!(m, ["_2:_1", "(_3,_4):(_2,_6)"]);
    /// ```
    #[inline]
    pub fn modes(self) -> impl ExactSizeIterator<Item = LayoutView<'a>> + Clone + 'a {
        self.tree.modes().map(|tree| LayoutView { tree })
    }

    /// The shape.
    ///
    /// Pre: none. Post: the extents, as an owned [`IntTuple`].
    ///
    /// ```
    /// let l: kute::Layout = "(_2,(_3,_4)):(_1,(_2,_6))".parse().unwrap();
    /// assert_eq!(l.view().mode(1).unwrap().shape().to_string(), "(_3,_4)");
    /// ```
    pub fn shape(self) -> IntTuple {
        self.tree.to_tree().map(|m| m.shape)
    }

    /// The stride.
    ///
    /// Pre: none. Post: the strides, as an owned tuple congruent to `shape()`.
    ///
    /// ```
    /// let l: kute::Layout = "(_2,(_3,_4)):(_1,(_2,_6))".parse().unwrap();
    /// assert_eq!(l.view().mode(1).unwrap().stride().to_string(), "(_2,_6)");
    /// ```
    pub fn stride(self) -> StrideTuple {
        self.tree.to_tree().map(|m| m.stride)
    }

    /// The product of the extents.
    ///
    /// Pre: every partial product, left to right, fits in `i64` (else an
    /// `Overflow` error). Post: as [`Layout::size`] of the viewed layout.
    ///
    /// ```
    /// let l: kute::Layout = "(_2,(_3,4)):(_1,(_2,6))".parse().unwrap();
    /// assert_eq!(l.view().mode(1).unwrap().size().unwrap().to_string(), "12");
    /// ```
    pub fn size(self) -> Result<Int> {
        let mut p = Int::ONE;
        for m in self.leaves() {
            p = p.mul(m.shape).map_err(|e| e.in_op("size"))?;
        }
        Ok(p)
    }

    /// An owned copy.
    ///
    /// Pre: none. Post: a [`Layout`] equal to the viewed one.
    ///
    /// ```
    /// let l: kute::Layout = "(_2,(_3,_4)):(_1,(_2,_6))".parse().unwrap();
    /// assert_eq!(l.view().to_layout(), l);
    /// assert_eq!(l.view().mode(1).unwrap().to_layout(), l.mode(1).unwrap());
    /// ```
    #[inline]
    pub fn to_layout(self) -> Layout {
        Layout::from_ref(self.tree)
    }

    /// The index of 1-D coordinate `i` (as [`Layout::eval`]).
    ///
    /// Pre: as [`Layout::eval`]. Post: `self.to_layout().eval(i)`, computed on
    /// the view's leaves in place (no copy of the layout).
    ///
    /// ```
    /// let l: kute::Layout = "(_2,(_3,_4)):(_1,(_2,_6))".parse().unwrap();
    /// let m = l.view().mode(1).unwrap();
    /// assert_eq!(m.eval(4).unwrap(), 8); // 4 -> (1,1) -> 2 + 6
    /// ```
    pub fn eval(self, i: i64) -> Result<i64> {
        super::eval_leaves(self.leaves(), Int::new_dynamic(i))?.concrete("evaluate")
    }
}

impl From<LayoutView<'_>> for Layout {
    fn from(v: LayoutView<'_>) -> Layout {
        v.to_layout()
    }
}

impl fmt::Display for LayoutView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::int_tuple::write_tree(f, self.tree, &|f, m: Mode| write!(f, "{}", m.shape))?;
        f.write_str(":")?;
        crate::int_tuple::write_tree(f, self.tree, &|f, m: Mode| write!(f, "{}", m.stride))
    }
}

impl fmt::Debug for LayoutView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Layout {
    /// The whole layout, borrowed.
    ///
    /// Pre: none. Post: a view equal to the layout (`l.view().to_layout() == l`).
    ///
    /// ```
    /// let l: kute::Layout = "(4,8):(8,1)".parse().unwrap();
    /// assert_eq!(l.view().rank(), 2);
    /// ```
    #[inline]
    pub fn view(&self) -> LayoutView<'_> {
        LayoutView { tree: self.as_tree_ref() }
    }

    /// The top-level modes, borrowed (a leaf is its own only mode).
    ///
    /// Pre: none. Post: `rank()` views, mode 0 first.
    ///
    /// ```
    /// let l: kute::Layout = "(_2,_3):(_1,_2)".parse().unwrap();
    /// assert_eq!(l.modes().map(|m| m.to_string()).collect::<Vec<_>>(), ["_2:_1", "_3:_2"]);
    /// ```
    #[inline]
    pub fn modes(&self) -> impl ExactSizeIterator<Item = LayoutView<'_>> + Clone + '_ {
        self.view().modes()
    }

    /// Mode `i`, borrowed; an error past the rank.
    ///
    /// Pre: `i < rank()` (else a `Mismatch` error). Post: a view of mode `i`.
    ///
    /// ```
    /// let l: kute::Layout = "(_2,(_3,_4)):(_1,(_2,_6))".parse().unwrap();
    /// assert_eq!(l.mode_view(1).unwrap().to_string(), "(_3,_4):(_2,_6)");
    /// ```
    pub fn mode_view(&self, i: usize) -> Result<LayoutView<'_>> {
        self.view().mode(i).ok_or_else(|| {
            Error::mismatch("layout", format!("mode {i} out of range for {self} of rank {}", self.rank()))
        })
    }
}
