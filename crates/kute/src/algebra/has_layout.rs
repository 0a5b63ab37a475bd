//! [`HasLayout`]: anything that has a layout, with the algebra as methods.

use super::tiler::AsTiler;
use crate::error::Result;
use crate::int_tuple::AsIntTuple;
use crate::layout::{Layout, LayoutView};
use std::borrow::Cow;

/// Anything that has a layout: a [`Layout`], a borrowed [`LayoutView`] (and,
/// as they come, composed layouts and tensors). Each operation of the algebra
/// is written once, as the CuTe-named free function; this trait reaches it
/// from every such type, in method form (`a.compose(&b)` is
/// `composition(&a, &b)`).
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
    fn as_layout(&self) -> Cow<'_, Layout>;

    /// CuTe `coalesce(L)`: see [`coalesce`](crate::coalesce).
    fn coalesce(&self) -> Result<Layout> {
        crate::coalesce(&self.as_layout())
    }

    /// CuTe `filter(L)`: see [`filter`](crate::filter).
    fn filter(&self) -> Result<Layout> {
        crate::filter(&self.as_layout())
    }

    /// CuTe `composition(L, B)`: see [`composition`](crate::composition).
    fn compose(&self, b: &impl HasLayout) -> Result<Layout> {
        crate::composition(&self.as_layout(), &b.as_layout())
    }

    /// CuTe `composition(L, tiler)`: see [`composition_tiler`](crate::composition_tiler).
    fn compose_tiler(&self, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
        crate::composition_tiler(&self.as_layout(), t)
    }

    /// CuTe `complement(L, cotarget)`: see [`complement`](crate::complement).
    fn complement(&self, cotarget: impl AsIntTuple) -> Result<Layout> {
        crate::complement(&self.as_layout(), cotarget)
    }

    /// CuTe `left_inverse(L)`: see [`left_inverse`](crate::left_inverse).
    fn left_inverse(&self) -> Result<Layout> {
        crate::left_inverse(&self.as_layout())
    }

    /// CuTe `right_inverse(L)`: see [`right_inverse`](crate::right_inverse).
    fn right_inverse(&self) -> Result<Layout> {
        crate::right_inverse(&self.as_layout())
    }

    /// CuTe `logical_divide(L, tiler)`: see [`logical_divide`](crate::logical_divide).
    fn logical_divide(&self, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
        crate::logical_divide(&self.as_layout(), t)
    }

    /// CuTe `zipped_divide(L, tiler)`: see [`zipped_divide`](crate::zipped_divide).
    fn zipped_divide(&self, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
        crate::zipped_divide(&self.as_layout(), t)
    }

    /// CuTe `tiled_divide(L, tiler)`: see [`tiled_divide`](crate::tiled_divide).
    fn tiled_divide(&self, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
        crate::tiled_divide(&self.as_layout(), t)
    }

    /// CuTe `flat_divide(L, tiler)`: see [`flat_divide`](crate::flat_divide).
    fn flat_divide(&self, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
        crate::flat_divide(&self.as_layout(), t)
    }

    /// CuTe `logical_product(L, tiler)`: see [`logical_product`](crate::logical_product).
    fn logical_product(&self, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
        crate::logical_product(&self.as_layout(), t)
    }

    /// CuTe `zipped_product(L, tiler)`: see [`zipped_product`](crate::zipped_product).
    fn zipped_product(&self, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
        crate::zipped_product(&self.as_layout(), t)
    }

    /// CuTe `tiled_product(L, tiler)`: see [`tiled_product`](crate::tiled_product).
    fn tiled_product(&self, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
        crate::tiled_product(&self.as_layout(), t)
    }

    /// CuTe `flat_product(L, tiler)`: see [`flat_product`](crate::flat_product).
    fn flat_product(&self, t: &(impl AsTiler + ?Sized)) -> Result<Layout> {
        crate::flat_product(&self.as_layout(), t)
    }

    /// CuTe `blocked_product(L, B)`: see [`blocked_product`](crate::blocked_product).
    fn blocked_product(&self, b: &impl HasLayout) -> Result<Layout> {
        crate::blocked_product(&self.as_layout(), &b.as_layout())
    }

    /// CuTe `raked_product(L, B)`: see [`raked_product`](crate::raked_product).
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
