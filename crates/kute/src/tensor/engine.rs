//! Engines: where a tensor's elements come from.
//!
//! A tensor is an engine plus a layout (CuTe's iterator plus layout). The
//! layout maps a coordinate to a *position* (a [`Point`]: an integer for
//! integer strides, a coordinate for basis strides); the engine turns the
//! position, plus the tensor's offset, into an element:
//!
//! | engine | element at position `p` | CuTe |
//! |---|---|---|
//! | [`Owned`], [`Borrowed`], [`BorrowedMut`] | `data[p]` | a pointer |
//! | [`Counting`] | `p` itself (an `i64`) | `counting_iterator` |
//! | [`Coords`] | `p` as a coordinate ([`IntTuple`]) | `ArithmeticTupleIterator` (identity tensors) |
//! | [`Pointer`] | none: memory kute does not hold (its layout gives the offsets) | `gmem_ptr`, `smem_ptr` |

use crate::error::{Error, ErrorKind, Result};
use crate::int_tuple::IntTuple;
use crate::layout::point::Point;

/// Where a tensor's elements come from.
///
/// ```
/// use kute::tensor::{Counting, Engine};
/// use kute::layout::point::Point;
/// let p = Point::Scalar(kute::Int::new_dynamic(7).into());
/// assert_eq!(Counting.read(&p).unwrap(), 7);
/// ```
pub trait Engine {
    /// The element type.
    type Elem;

    /// The element at the position `at` (the tensor's offset plus the
    /// layout's value).
    ///
    /// Pre: `at` is a position this engine holds: for storage an integer
    /// (else a `Type` error) in `[0, len)` (else a `Mismatch` error), an
    /// integer for [`Counting`] (else a `Type` error), anything for
    /// [`Coords`]. Post: the element.
    ///
    /// ```
    /// use kute::tensor::{Coords, Counting, Engine, Owned};
    /// use kute::layout::point::Point;
    /// let at = |v| Point::Scalar(kute::Int::new_dynamic(v).into());
    /// assert_eq!((Owned(vec![5, 6, 7]).read(&at(2)).unwrap(), Counting.read(&at(2)).unwrap()), (7, 2));
    /// assert_eq!(Owned(vec![5, 6, 7]).read(&at(3)).unwrap_err().kind(), kute::ErrorKind::Mismatch);
    /// let crd = Point::Tuple("(1,2)".parse().unwrap());
    /// assert_eq!(Owned(vec![5, 6, 7]).read(&crd).unwrap_err().kind(), kute::ErrorKind::Type);
    /// assert_eq!(Counting.read(&crd).unwrap_err().kind(), kute::ErrorKind::Type);
    /// assert_eq!(Coords.read(&crd).unwrap().to_string(), "(1,2)");
    /// ```
    fn read(&self, at: &Point) -> Result<Self::Elem>;

    /// CuTe's `print` of the iterator at `offset` (`counting_iter(0)`,
    /// `ArithTuple(_0,_0)`, `ptr[32b](0x...)`).
    ///
    /// Pre: none. Post: one line.
    ///
    /// ```
    /// use kute::tensor::{Coords, Counting, Engine};
    /// use kute::layout::point::Point;
    /// assert_eq!(Counting.describe(&Point::Scalar(kute::Int::new_dynamic(54).into())), "counting_iter(54)");
    /// assert_eq!(Coords.describe(&Point::Tuple("(4,6)".parse().unwrap())), "ArithTuple(4,6)");
    /// ```
    fn describe(&self, offset: &Point) -> String;

    /// The elements, for an engine with storage (the fast paths of the
    /// algorithms use it).
    ///
    /// Pre: none. Post: `Some(slice)` for storage engines, else `None`.
    ///
    /// ```
    /// use kute::tensor::{Counting, Engine, Owned};
    /// assert_eq!(Owned(vec![1, 2]).data(), Some(&[1, 2][..]));
    /// assert_eq!(Counting.data(), None);
    /// ```
    fn data(&self) -> Option<&[Self::Elem]> {
        None
    }
}

/// An engine whose elements can be written.
///
/// ```
/// use kute::tensor::{EngineMut, Owned};
/// let mut e = Owned(vec![1, 2, 3]);
/// e.data_mut()[1] = 5;
/// assert_eq!(e.0, vec![1, 5, 3]);
/// ```
pub trait EngineMut: Engine {
    /// The elements, writable.
    ///
    /// Pre: none. Post: the whole storage.
    ///
    /// ```
    /// use kute::tensor::{BorrowedMut, EngineMut};
    /// let mut v = [1, 2, 3];
    /// let mut e = BorrowedMut(&mut v[..]);
    /// assert_eq!(e.data_mut().len(), 3);
    /// e.data_mut()[0] = 4;
    /// assert_eq!(v, [4, 2, 3]);
    /// ```
    fn data_mut(&mut self) -> &mut [Self::Elem];
}

/// Owned storage (CuTe's `ArrayEngine`, here of any length).
#[derive(Clone, Debug, PartialEq)]
pub struct Owned<T>(pub Vec<T>);

/// Borrowed read-only storage (a view).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Borrowed<'a, T>(pub &'a [T]);

/// Borrowed writable storage (a mutable view).
#[derive(Debug, PartialEq)]
pub struct BorrowedMut<'a, T>(pub &'a mut [T]);

/// CuTe's `counting_iterator`: the element at a position is the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Counting;

/// The engine of coordinate (identity) tensors, CuTe's
/// `ArithmeticTupleIterator`: the element at a position is the position, a
/// coordinate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Coords;

/// A pointer into memory kute does not hold (CuTe's `gmem_ptr<T>` and
/// `smem_ptr<T>`, the latter perhaps swizzled): its tensors have layouts and
/// addresses, which the tensor algorithms move, but no elements to read.
///
/// ```
/// use kute::tensor::{Engine, Pointer};
/// use kute::layout::point::Point;
/// let p = Pointer { smem: false, elem: "half_t".into(), bits: 16, address: 0, swizzle: None };
/// let at = |v| Point::Scalar(kute::Int::new_dynamic(v).into());
/// assert_eq!(p.describe(&at(64)), "gmem_ptr[16b](0x80)");
/// assert_eq!(p.read(&at(0)).unwrap_err().kind(), kute::ErrorKind::Type);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pointer {
    /// Shared memory (`smem_ptr`), else global memory (`gmem_ptr`).
    pub smem: bool,
    /// The element type's name (`half_t`).
    pub elem: String,
    /// The element type's width in bits.
    pub bits: i64,
    /// The byte address of position 0.
    pub address: i64,
    /// The swizzle of the address's bits (an smem pointer's `Sw<B,M,S>_`).
    pub swizzle: Option<crate::swizzle::Swizzle>,
}

impl Pointer {
    /// The bit address of position `at`.
    ///
    /// Pre: none. Post: `8·address + at·bits`; `None` where `at` is not a
    /// known integer, or the address is past `i64` bytes.
    ///
    /// ```
    /// use kute::{tensor::Pointer, layout::point::Point, Int};
    /// let p = Pointer { smem: true, elem: "float_e2m1_t".into(), bits: 4, address: 16, swizzle: None };
    /// assert_eq!(p.bit_address_of(&Point::Scalar(Int::new_dynamic(3).into())), Some(16 * 8 + 12));
    /// ```
    pub fn bit_address_of(&self, at: &Point) -> Option<i128> {
        let i = at.as_int().filter(|i| !i.is_symbolic())?;
        let bits = (self.address as i128 * 8).checked_add((i.value() as i128).checked_mul(self.bits as i128)?)?;
        i64::try_from(bits / 8).ok().map(|_| bits)
    }

    /// `smem` or `gmem`, as CuTe's print names the memory.
    fn space(&self) -> &'static str {
        if self.smem {
            "smem"
        } else {
            "gmem"
        }
    }
}

impl Engine for Pointer {
    type Elem = ();
    fn read(&self, at: &Point) -> Result<()> {
        let space = self.space();
        Err(Error::new(
            ErrorKind::Type,
            "tensor",
            format!("the element at {at} of a {space} tensor is in memory kute does not hold (its layout gives the element's offset)"),
        ))
    }
    fn describe(&self, offset: &Point) -> String {
        let sw = self.swizzle.map(|s| format!("{s}_")).unwrap_or_default();
        let space = self.space();
        let bits = self.bits;
        match self.bit_address_of(offset) {
            // (CuTe's subbyte_iterator: the byte, and the element within it)
            Some(a) if bits < 8 => {
                format!("{sw}{space}_subptr[{bits}b]({:#x}.{})", a / 8, a % 8 / i128::from(bits.max(1)))
            }
            Some(a) => format!("{sw}{space}_ptr[{bits}b]({:#x})", a / 8),
            // an unknown offset: the bytes it adds, as an expression
            None => match offset.as_int().map(|i| i.mul(crate::Int::new_dynamic(bits / 8))) {
                Some(Ok(bytes)) if bits % 8 == 0 => format!("{sw}{space}_ptr[{bits}b]({:#x}+{bytes})", self.address),
                _ => format!("{sw}{space}_subptr[{bits}b]({:#x}+{offset}*{bits}b)", self.address),
            },
        }
    }
}

/// The index of an integer position in storage of `len` elements.
pub(crate) fn storage_index(len: usize, at: &Point) -> Result<usize> {
    let i = at.as_int().ok_or_else(|| {
        Error::new(ErrorKind::Type, "tensor", format!("the position {at} is a coordinate, not an index into storage"))
    })?;
    let v = i.value();
    if v < 0 || v as u128 >= len as u128 {
        return Err(Error::mismatch("tensor", format!("the index {v} is outside the storage of {len} element(s)")));
    }
    Ok(v as usize)
}

fn ptr_header<T>(data: &[T], offset: &Point) -> String {
    let off = offset.as_int().map(|i| i.value()).unwrap_or(0);
    let p = data.as_ptr().wrapping_offset(off as isize);
    format!("ptr[{}b]({:p})", 8 * std::mem::size_of::<T>(), p)
}

macro_rules! storage {
    ($t:ty, $($lt:lifetime)?) => {
        impl<$($lt,)? T: Clone> Engine for $t {
            type Elem = T;
            fn read(&self, at: &Point) -> Result<T> {
                Ok(self.0[storage_index(self.0.len(), at)?].clone())
            }
            fn describe(&self, offset: &Point) -> String {
                ptr_header(&self.0, offset)
            }
            fn data(&self) -> Option<&[T]> {
                Some(&self.0)
            }
        }
    };
}
storage!(Owned<T>,);
storage!(Borrowed<'a, T>, 'a);
storage!(BorrowedMut<'a, T>, 'a);

impl<T: Clone> EngineMut for Owned<T> {
    fn data_mut(&mut self) -> &mut [T] {
        &mut self.0
    }
}

impl<T: Clone> EngineMut for BorrowedMut<'_, T> {
    fn data_mut(&mut self) -> &mut [T] {
        self.0
    }
}

impl Engine for Counting {
    type Elem = i64;
    fn read(&self, at: &Point) -> Result<i64> {
        at.as_int().map(|i| i.value()).ok_or_else(|| {
            Error::new(ErrorKind::Type, "tensor", format!("a counting tensor's position {at} must be an integer"))
        })
    }
    fn describe(&self, offset: &Point) -> String {
        format!("counting_iter({offset})")
    }
}

impl Engine for Coords {
    type Elem = IntTuple;
    fn read(&self, at: &Point) -> Result<IntTuple> {
        Ok(at.to_int_tuple())
    }
    fn describe(&self, offset: &Point) -> String {
        format!("ArithTuple{offset}")
    }
}
