//! [`HasLayout`]: anything that has a layout, with the algebra as methods.

use crate::error::Result;
use crate::int_tuple::AsIntTuple;
use crate::layout::{Layout, LayoutView};
use crate::tiler::AsTiler;
use std::borrow::Cow;

/// Anything that has a layout: a [`Layout`] or a borrowed [`LayoutView`].
/// Each operation of the algebra is written once, as the CuTe-named free
/// function; this trait reaches it from every such type, in method form
/// (`a.compose(&b)` is `composition(&a, &b)`).
///
/// Composed layouts and tensors do not implement it: their operations answer
/// a composed layout or a tensor, as CuTe's do, not a [`Layout`]. Their
/// methods ([`ComposedLayout::logical_divide`](crate::ComposedLayout::logical_divide),
/// [`Tensor::tiled_divide`](crate::tensor::Tensor::tiled_divide), ...) call
/// the same free functions on their inner layout.
///
/// ```
/// use kute::{HasLayout, Layout};
/// let a: Layout = "(_4,_8):(_8,_1)".parse().unwrap();
/// let b: Layout = "(_2,_4):(_1,_2)".parse().unwrap();
/// assert_eq!(a.compose(&b).unwrap(), kute::composition(&a, &b).unwrap());
/// assert_eq!(a.logical_divide(&b).unwrap().to_string(), "((_2,(_2,_2)),_4):((_8,(_16,_1)),_2)");
/// // a view (here mode 1 of `a`) has the same methods
/// let m = a.view().mode(1).unwrap();
/// assert_eq!(m.complement(32).unwrap().to_string(), "4:_8");
/// ```
pub trait HasLayout {
    /// The layout: borrowed from a [`Layout`], copied from a view.
    ///
    /// Pre: none. Post: a layout equal to `self` (same modes, strides and
    /// static flags); no allocation for a [`Layout`], nor for a view of up to
    /// 16 leaves.
    ///
    /// ```
    /// use kute::{HasLayout, Layout};
    /// let a: Layout = "((_2,_3),_4):((_1,_2),_6)".parse().unwrap();
    /// assert_eq!(*a.as_layout(), a);
    /// // mode 0 of `a`, copied out of the view
    /// assert_eq!(a.view().mode(0).unwrap().as_layout().to_string(), "(_2,_3):(_1,_2)");
    /// ```
    fn as_layout(&self) -> Cow<'_, Layout>;

    /// CuTe `coalesce(L)`: see [`coalesce`](crate::coalesce).
    ///
    /// Pre: as [`coalesce`](crate::coalesce). Post: `coalesce(L)` (CuTe's answer below).
    ///
    /// ```
    /// use kute::{HasLayout, Layout};
    /// let l: Layout = "(_2,(_1,_6)):(_1,(_6,_2))".parse().unwrap();
    /// assert_eq!(l.coalesce().unwrap().to_string(), "_12:_1");
    /// ```
    fn coalesce(&self) -> Result<Layout> {
        crate::coalesce(&self.as_layout())
    }

    /// CuTe `filter(L)`: see [`filter`](crate::filter).
    ///
    /// Pre: as [`filter`](crate::filter). Post: `filter(L)` (CuTe's answer below).
    ///
    /// ```
    /// use kute::{HasLayout, Layout};
    /// let l: Layout = "(_2,_1,_3):(_1,_4,_0)".parse().unwrap();
    /// assert_eq!(l.filter().unwrap().to_string(), "_2:_1");
    /// ```
    fn filter(&self) -> Result<Layout> {
        crate::filter(&self.as_layout())
    }

    /// CuTe `composition(L, B)`: see [`composition`](crate::composition).
    ///
    /// Pre: as [`composition`](crate::composition). Post: `composition(L, B)` (CuTe's answer below).
    ///
    /// ```
    /// use kute::{HasLayout, Layout};
    /// let l: Layout = "(_4,_8):(_8,_1)".parse().unwrap();
    /// let b: Layout = "(_2,_4):(_1,_2)".parse().unwrap();
    /// assert_eq!(l.compose(&b).unwrap().to_string(), "(_2,(_2,_2)):(_8,(_16,_1))");
    /// ```
    fn compose(&self, b: &impl HasLayout) -> Result<Layout> {
        crate::composition(&self.as_layout(), &b.as_layout())
    }

    /// CuTe `composition(L, tiler)`: see [`composition_tiler`](crate::composition_tiler).
    ///
    /// Pre: as [`composition_tiler`](crate::composition_tiler). Post: `composition(L, tiler)` (CuTe's answer below).
    ///
    /// ```
    /// use kute::{HasLayout, Layout, Tiler};
    /// let l: Layout = "(_12,(_4,_8)):(_59,(_13,_1))".parse().unwrap();
    /// let t: Tiler = kute::expr::parse_tiler("<_3:_4,_8:_2>").unwrap();
    /// assert_eq!(l.compose_tiler(&t).unwrap().to_string(), "(_3,(_2,_4)):(_236,(_26,_1))");
    /// ```
    fn compose_tiler(&self, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
        crate::composition_tiler(&self.as_layout(), t)
    }

    /// CuTe `complement(L, cotarget)`: see [`complement`](crate::complement).
    ///
    /// Pre: as [`complement`](crate::complement). Post: `complement(L, cotarget)` (CuTe's answer below).
    ///
    /// ```
    /// use kute::{HasLayout, Layout};
    /// let l: Layout = "(_2,_2):(_1,_6)".parse().unwrap();
    /// assert_eq!(l.complement(kute::Int::new_static(24)).unwrap().to_string(), "(_3,_2):(_2,_12)");
    /// ```
    fn complement(&self, cotarget: impl AsIntTuple) -> Result<Layout> {
        crate::complement(&self.as_layout(), cotarget)
    }

    /// CuTe `left_inverse(L)`: see [`left_inverse`](crate::left_inverse).
    ///
    /// Pre: as [`left_inverse`](crate::left_inverse). Post: `left_inverse(L)` (CuTe's answer below).
    ///
    /// ```
    /// use kute::{HasLayout, Layout};
    /// let l: Layout = "(_2,_4):(_4,_1)".parse().unwrap();
    /// assert_eq!(l.left_inverse().unwrap().to_string(), "(_4,_2):(_2,_1)");
    /// ```
    fn left_inverse(&self) -> Result<Layout> {
        crate::left_inverse(&self.as_layout())
    }

    /// CuTe `right_inverse(L)`: see [`right_inverse`](crate::right_inverse).
    ///
    /// Pre: as [`right_inverse`](crate::right_inverse). Post: `right_inverse(L)` (CuTe's answer below).
    ///
    /// ```
    /// use kute::{HasLayout, Layout};
    /// let l: Layout = "(_2,_4):(_4,_1)".parse().unwrap();
    /// assert_eq!(l.right_inverse().unwrap().to_string(), "(_4,_2):(_2,_1)");
    /// ```
    fn right_inverse(&self) -> Result<Layout> {
        crate::right_inverse(&self.as_layout())
    }

    /// CuTe `logical_divide(L, tiler)`: see [`logical_divide`](crate::logical_divide).
    ///
    /// Pre: as [`logical_divide`](crate::logical_divide). Post: `logical_divide(L, tiler)` (CuTe's answer below).
    ///
    /// ```
    /// use kute::{HasLayout, Layout, Tiler};
    /// let l: Layout = "(_8,_8):(_8,_1)".parse().unwrap();
    /// let t: Tiler = kute::expr::parse_tiler("<_4:_1,_2:_1>").unwrap();
    /// assert_eq!(l.logical_divide(&t).unwrap().to_string(), "((_4,_2),(_2,_4)):((_8,_32),(_1,_2))");
    /// ```
    fn logical_divide(&self, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
        crate::logical_divide(&self.as_layout(), t)
    }

    /// CuTe `zipped_divide(L, tiler)`: see [`zipped_divide`](crate::zipped_divide).
    ///
    /// Pre: as [`zipped_divide`](crate::zipped_divide). Post: `zipped_divide(L, tiler)` (CuTe's answer below).
    ///
    /// ```
    /// use kute::{HasLayout, Layout, Tiler};
    /// let l: Layout = "(_8,_8):(_8,_1)".parse().unwrap();
    /// let t: Tiler = kute::expr::parse_tiler("<_4:_1,_2:_1>").unwrap();
    /// assert_eq!(l.zipped_divide(&t).unwrap().to_string(), "((_4,_2),(_2,_4)):((_8,_1),(_32,_2))");
    /// ```
    fn zipped_divide(&self, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
        crate::zipped_divide(&self.as_layout(), t)
    }

    /// CuTe `tiled_divide(L, tiler)`: see [`tiled_divide`](crate::tiled_divide).
    ///
    /// Pre: as [`tiled_divide`](crate::tiled_divide). Post: `tiled_divide(L, tiler)` (CuTe's answer below).
    ///
    /// ```
    /// use kute::{HasLayout, Layout, Tiler};
    /// let l: Layout = "(_8,_8):(_8,_1)".parse().unwrap();
    /// let t: Tiler = kute::expr::parse_tiler("<_4:_1,_2:_1>").unwrap();
    /// assert_eq!(l.tiled_divide(&t).unwrap().to_string(), "((_4,_2),_2,_4):((_8,_1),_32,_2)");
    /// ```
    fn tiled_divide(&self, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
        crate::tiled_divide(&self.as_layout(), t)
    }

    /// CuTe `flat_divide(L, tiler)`: see [`flat_divide`](crate::flat_divide).
    ///
    /// Pre: as [`flat_divide`](crate::flat_divide). Post: `flat_divide(L, tiler)` (CuTe's answer below).
    ///
    /// ```
    /// use kute::{HasLayout, Layout, Tiler};
    /// let l: Layout = "(_8,_8):(_8,_1)".parse().unwrap();
    /// let t: Tiler = kute::expr::parse_tiler("<_4:_1,_2:_1>").unwrap();
    /// assert_eq!(l.flat_divide(&t).unwrap().to_string(), "(_4,_2,_2,_4):(_8,_1,_32,_2)");
    /// ```
    fn flat_divide(&self, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
        crate::flat_divide(&self.as_layout(), t)
    }

    /// CuTe `logical_product(L, tiler)`: see [`logical_product`](crate::logical_product).
    ///
    /// Pre: as [`logical_product`](crate::logical_product). Post: `logical_product(L, tiler)` (CuTe's answer below).
    ///
    /// ```
    /// use kute::{HasLayout, Layout};
    /// let l: Layout = "(_2,_2):(_1,_2)".parse().unwrap();
    /// let b: Layout = "(_3,_4):(_4,_1)".parse().unwrap();
    /// assert_eq!(l.logical_product(&b).unwrap().to_string(), "((_2,_2),(_3,_4)):((_1,_2),(_16,_4))");
    /// ```
    fn logical_product(&self, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
        crate::logical_product(&self.as_layout(), t)
    }

    /// CuTe `zipped_product(L, tiler)`: see [`zipped_product`](crate::zipped_product).
    ///
    /// Pre: as [`zipped_product`](crate::zipped_product). Post: `zipped_product(L, tiler)` (CuTe's answer below).
    ///
    /// ```
    /// use kute::{HasLayout, Layout, Tiler};
    /// let l: Layout = "(_2,_2):(_1,_2)".parse().unwrap();
    /// let t: Tiler = kute::expr::parse_tiler("<_3:_1,_4:_1>").unwrap();
    /// assert_eq!(l.zipped_product(&t).unwrap().to_string(), "((_2,_2),(_3,(_2,_2))):((_1,_2),(_2,(_1,_4)))");
    /// ```
    fn zipped_product(&self, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
        crate::zipped_product(&self.as_layout(), t)
    }

    /// CuTe `tiled_product(L, tiler)`: see [`tiled_product`](crate::tiled_product).
    ///
    /// Pre: as [`tiled_product`](crate::tiled_product). Post: `tiled_product(L, tiler)` (CuTe's answer below).
    ///
    /// ```
    /// use kute::{HasLayout, Layout, Tiler};
    /// let l: Layout = "(_2,_2):(_1,_2)".parse().unwrap();
    /// let t: Tiler = kute::expr::parse_tiler("<_3:_1,_4:_1>").unwrap();
    /// assert_eq!(l.tiled_product(&t).unwrap().to_string(), "((_2,_2),_3,(_2,_2)):((_1,_2),_2,(_1,_4))");
    /// ```
    fn tiled_product(&self, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
        crate::tiled_product(&self.as_layout(), t)
    }

    /// CuTe `flat_product(L, tiler)`: see [`flat_product`](crate::flat_product).
    ///
    /// Pre: as [`flat_product`](crate::flat_product). Post: `flat_product(L, tiler)` (CuTe's answer below).
    ///
    /// ```
    /// use kute::{HasLayout, Layout, Tiler};
    /// let l: Layout = "(_2,_2):(_1,_2)".parse().unwrap();
    /// let t: Tiler = kute::expr::parse_tiler("<_3:_1,_4:_1>").unwrap();
    /// assert_eq!(l.flat_product(&t).unwrap().to_string(), "(_2,_2,_3,(_2,_2)):(_1,_2,_2,(_1,_4))");
    /// ```
    fn flat_product(&self, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
        crate::flat_product(&self.as_layout(), t)
    }

    /// CuTe `blocked_product(L, B)`: see [`blocked_product`](crate::blocked_product).
    ///
    /// Pre: as [`blocked_product`](crate::blocked_product). Post: `blocked_product(L, B)` (CuTe's answer below).
    ///
    /// ```
    /// use kute::{HasLayout, Layout};
    /// let l: Layout = "(_2,_5):(_5,_1)".parse().unwrap();
    /// let b: Layout = "(_3,_4):(_1,_3)".parse().unwrap();
    /// assert_eq!(l.blocked_product(&b).unwrap().to_string(), "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))");
    /// ```
    fn blocked_product(&self, b: &impl HasLayout) -> Result<Layout> {
        crate::blocked_product(&self.as_layout(), &b.as_layout())
    }

    /// CuTe `raked_product(L, B)`: see [`raked_product`](crate::raked_product).
    ///
    /// Pre: as [`raked_product`](crate::raked_product). Post: `raked_product(L, B)` (CuTe's answer below).
    ///
    /// ```
    /// use kute::{HasLayout, Layout};
    /// let l: Layout = "(_2,_5):(_5,_1)".parse().unwrap();
    /// let b: Layout = "(_3,_4):(_1,_3)".parse().unwrap();
    /// assert_eq!(l.raked_product(&b).unwrap().to_string(), "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))");
    /// ```
    fn raked_product(&self, b: &impl HasLayout) -> Result<Layout> {
        crate::raked_product(&self.as_layout(), &b.as_layout())
    }
}

impl HasLayout for Layout {
    #[inline]
    fn as_layout(&self) -> Cow<'_, Layout> {
        Cow::Borrowed(self)
    }
}

impl HasLayout for LayoutView<'_> {
    #[inline]
    fn as_layout(&self) -> Cow<'_, Layout> {
        Cow::Owned(self.to_layout())
    }
}

impl<T: HasLayout + ?Sized> HasLayout for &T {
    #[inline]
    fn as_layout(&self) -> Cow<'_, Layout> {
        (**self).as_layout()
    }
}
