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

    /// The integer, if the value is one (a leaf): read without building a
    /// tree where the value is an integer already.
    ///
    /// Pre: none. Post: `Some(x)` exactly when `as_int_tuple()` is the leaf
    /// `x`, with its static flag.
    ///
    /// ```
    /// use kute::{AsIntTuple, Int, IntTuple};
    /// assert_eq!(24u32.as_int(), Some(Int::new_dynamic(24)));
    /// assert_eq!(Int::new_static(8).as_int(), Some(Int::new_static(8)));
    /// let t: IntTuple = "_6".parse().unwrap();
    /// assert_eq!(AsIntTuple::as_int(&t), Some(Int::new_static(6)));
    /// let u: IntTuple = "(6)".parse().unwrap();
    /// assert_eq!(AsIntTuple::as_int(&u), None);
    /// assert_eq!((2, 3).as_int(), None);
    /// assert_eq!((7,).as_int(), (7,).as_int_tuple().as_int());
    /// ```
    #[inline]
    fn as_int(&self) -> Option<Int> {
        self.as_int_tuple().as_leaf()
    }
}

impl AsIntTuple for IntTuple {
    #[inline]
    fn as_int_tuple(&self) -> Cow<'_, IntTuple> {
        Cow::Borrowed(self)
    }

    #[inline(always)]
    fn as_int(&self) -> Option<Int> {
        IntTuple::as_int(self)
    }
}

impl AsIntTuple for Int {
    #[inline]
    fn as_int_tuple(&self) -> Cow<'_, IntTuple> {
        Cow::Owned(IntTuple::leaf(*self))
    }

    #[inline(always)]
    fn as_int(&self) -> Option<Int> {
        Some(*self)
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

            #[inline(always)]
            fn as_int(&self) -> Option<Int> {
                Some(Int::new_dynamic(i64::from(*self)))
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

    #[inline(always)]
    fn as_int(&self) -> Option<Int> {
        (**self).as_int()
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

            /// `None`: a Rust tuple is a tuple, even of one element (no tree is built).
            #[inline(always)]
            fn as_int(&self) -> Option<Int> {
                None
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
