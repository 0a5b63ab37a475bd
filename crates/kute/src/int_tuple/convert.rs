//! [`AsIntTuple`]: what the API accepts where CuTe takes an integer tuple.

use super::IntTuple;
use crate::int::Int;
use std::borrow::Cow;

/// A value that stands for an integer tuple: an [`IntTuple`] (borrowed, no
/// copy), an [`Int`], a plain integer (a dynamic integer, as CuTe's `int`), or
/// a Rust tuple of such values, nested freely (`(4, (2, 8))`).
///
/// ```
/// use kute::{int_tuple::AsIntTuple, Int, Layout};
/// assert_eq!((4, (2, Int::new_static(8))).as_int_tuple().to_string(), "(4,(2,_8))");
/// // so that these read as in CuTe:
/// let a = Layout::new((4, 8), (8, 1)).unwrap();
/// assert_eq!(a.to_string(), "(4,8):(8,1)");
/// let b: Layout = "4:2".parse().unwrap();
/// assert_eq!(kute::complement(&b, 24).unwrap().to_string(), "(2,3):(_1,8)");
/// ```
pub trait AsIntTuple {
    /// The integer tuple, borrowed where it already is one.
    ///
    /// Pre: none. Post: the same integers in the same nesting; an [`Int`]
    /// keeps its static flag, a plain Rust integer is dynamic.
    ///
    /// ```
    /// use kute::{AsIntTuple, Int, IntTuple};
    /// let t: IntTuple = "(2,(_3,4))".parse().unwrap();
    /// assert_eq!(*t.as_int_tuple(), t);
    /// assert_eq!(Int::new_static(8).as_int_tuple().to_string(), "_8");
    /// assert_eq!(8u32.as_int_tuple().to_string(), "8");
    /// ```
    fn as_int_tuple(&self) -> Cow<'_, IntTuple>;
}

impl AsIntTuple for IntTuple {
    #[inline]
    fn as_int_tuple(&self) -> Cow<'_, IntTuple> {
        Cow::Borrowed(self)
    }
}

impl AsIntTuple for Int {
    #[inline]
    fn as_int_tuple(&self) -> Cow<'_, IntTuple> {
        Cow::Owned(IntTuple::leaf(*self))
    }
}

macro_rules! plain_int {
    ($($t:ty),*) => {$(
        /// A dynamic integer (CuTe's `int`).
        impl AsIntTuple for $t {
            #[inline]
            fn as_int_tuple(&self) -> Cow<'_, IntTuple> {
                Cow::Owned(IntTuple::leaf(Int::new_dynamic(i64::from(*self))))
            }
        }
    )*};
}
plain_int!(i64, i32, u32, i16, u16, i8, u8);

impl<T: AsIntTuple + ?Sized> AsIntTuple for &T {
    #[inline]
    fn as_int_tuple(&self) -> Cow<'_, IntTuple> {
        (**self).as_int_tuple()
    }
}

macro_rules! tuple {
    ($($n:ident),+) => {
        /// The tuple of the elements' integer tuples.
        impl<$($n: AsIntTuple),+> AsIntTuple for ($($n,)+) {
            #[allow(non_snake_case)]
            fn as_int_tuple(&self) -> Cow<'_, IntTuple> {
                let ($($n,)+) = self;
                let parts = [$($n.as_int_tuple()),+];
                Cow::Owned(IntTuple::tuple(parts.iter().map(|p| IntTuple::as_ref(p))))
            }
        }
    };
}
tuple!(A);
tuple!(A, B);
tuple!(A, B, C);
tuple!(A, B, C, D);
tuple!(A, B, C, D, E);
tuple!(A, B, C, D, E, F);
