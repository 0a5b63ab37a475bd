//! Tensors: an engine (where the elements are) plus a layout of any kind
//! (CuTe's `Tensor<Engine, Layout>`).
//!
//! The layout may have integer strides, basis strides (coordinate tensors) or
//! a swizzle ([`AnyLayout`]); the tensor also keeps an offset (CuTe's
//! iterator position), so that a slice or a tile is a new layout and offset
//! over the same engine, never a copy.
//!
//! ```
//! use kute::tensor::{make_identity_tensor, make_counting_tensor, print_tensor};
//! let c = make_identity_tensor(&"(_4,_8)".parse().unwrap()).unwrap();
//! assert_eq!(c.at(&"(1,2)".parse().unwrap()).unwrap().to_string(), "(1,2)");
//! let t = make_counting_tensor("(_2,_3):(_3,_1)".parse::<kute::Layout>().unwrap());
//! assert_eq!(print_tensor(&t).unwrap(), "counting_iter(0) o (_2,_3):(_3,_1):\n    0    1    2\n    3    4    5\n");
//! ```
//!
//! Modules: [`engine`] (owned, borrowed, counting and coordinate engines),
//! [`partition`] (`local_tile`, `local_partition`, ...), [`algorithm`]
//! (`copy`, `fill`, `axpby`, `gemm`, ...), [`mod@print`] (`print_tensor`).

pub mod algorithm;
pub mod engine;
pub mod partition;
pub mod print;

pub use algorithm::{axpby, clear, copy, copy_scalar, fill, gemm, transform, transform_into, CopyPath};
pub use engine::{Borrowed, BorrowedMut, Coords, Counting, Engine, EngineMut, Owned, Pointer};
pub use print::{print_tensor, PrettyPrint};

use crate::composed::{AnyLayout, ComposedLayout};
use crate::error::{Error, ErrorKind, Result};
use crate::int::Int;
use crate::int_tuple::{IntTuple, IntTupleRef};
use crate::layout::point::Point;
use crate::layout::slice::{Coord, Crd};
use crate::layout::Layout;
use crate::stride::Stride;
use crate::tiler::Tiler;
use crate::tree::{Builder, Tree};

/// A tensor: an engine, a layout and an offset (CuTe's `Tensor`).
///
/// The element at the 1-D or multi-dimensional coordinate `c` is the
/// engine's element at `offset + layout(c)`.
///
/// ```
/// use kute::tensor::{Tensor, Owned};
/// let data: Vec<i32> = (0..6).map(|x| x * 10).collect();
/// let t = Tensor::new(Owned(data), "(2,3):(3,1)".parse::<kute::Layout>().unwrap());
/// assert_eq!(t.at(&"(1,2)".parse().unwrap()).unwrap(), 50);
/// assert_eq!(t.get(1).unwrap(), 30);
/// assert!(t.get(6).is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor<E> {
    engine: E,
    layout: AnyLayout,
    offset: Point,
}

/// The zero offset (`_0`).
fn zero() -> Point {
    Point::Scalar(Stride::ZERO)
}

/// A tensor of `layout` over a counting engine starting at 0
/// (CuTe `make_tensor(counting_iterator<int>(0), layout)`).
///
/// Pre: none. Post: the element at `c` is `layout(c)`.
///
/// ```
/// let t = kute::tensor::make_counting_tensor("6:2".parse::<kute::Layout>().unwrap());
/// assert_eq!(t.get(4).unwrap(), 8);
/// ```
pub fn make_counting_tensor(layout: impl Into<AnyLayout>) -> Tensor<Counting> {
    Tensor { engine: Counting, layout: layout.into(), offset: Point::Scalar(Int::new_dynamic(0).into()) }
}

/// CuTe `make_identity_tensor(shape)`: the element at each coordinate is the
/// coordinate (the layout is `make_identity_layout(shape)`, the offset the
/// zero coordinate, CuTe's `ArithTuple(_0,...)`).
///
/// Pre: as [`Layout::identity`]. Post: `at(c) == c` (with 1-D coordinates per
/// mode converted to the natural coordinate).
///
/// ```
/// let t = kute::tensor::make_identity_tensor(&"(_4,(_2,_3))".parse().unwrap()).unwrap();
/// assert_eq!(t.get(13).unwrap().to_string(), "(1,(1,1))");
/// ```
pub fn make_identity_tensor(shape: &IntTuple) -> Result<Tensor<Coords>> {
    let layout = Layout::identity(shape)?;
    let prof = layout.coprofile()?;
    let offset = match prof.as_ref().as_leaf() {
        Some(x) => Point::Scalar(x.into()),
        None => Point::Tuple(prof),
    };
    Ok(Tensor { engine: Coords, layout: AnyLayout::Layout(layout), offset })
}

impl<E: Clone> Tensor<E> {
    /// The tensor with values put in for its unknowns (its layout and offset).
    ///
    /// Pre: as [`Layout::substitute`]. Post: a concrete tensor, the same engine.
    ///
    /// ```
    /// use kute::{sym::{Sym, Valuation}, Int, IntTuple};
    /// let m = Int::symbolic(Sym::var("M").unwrap()).unwrap();
    /// let t = kute::tensor::make_identity_tensor(&IntTuple::tuple_of_leaves([m, Int::new_static(4)])).unwrap();
    /// let c = t.substitute(&Valuation::from([("M", 3)])).unwrap();
    /// assert_eq!(c.layout().to_string(), "(3,_4):(_1@0,_1@1)");
    /// ```
    pub fn substitute(&self, v: &crate::sym::Valuation) -> Result<Tensor<E>> {
        let layout = match &self.layout {
            AnyLayout::Layout(l) => AnyLayout::Layout(l.substitute(v)?),
            other => other.clone(),
        };
        let offset = match &self.offset {
            Point::Scalar(s) => Point::Scalar(s.substitute(v)?),
            Point::Tuple(t) => Point::Tuple(t.substitute(v)?),
        };
        Ok(Tensor { engine: self.engine.clone(), layout, offset })
    }

    /// Whether its layout or offset holds a symbol. Pre: none. Post: the answer.
    ///
    /// ```
    /// let t = kute::tensor::make_identity_tensor(&"(?,_4)".parse().unwrap()).unwrap();
    /// assert!(t.has_symbols());
    /// ```
    pub fn has_symbols(&self) -> bool {
        self.layout.has_symbols()
            || match &self.offset {
                Point::Scalar(s) => s.is_symbolic(),
                Point::Tuple(t) => t.has_symbols(),
            }
    }
}

impl<E> Tensor<E> {
    /// The engine.
    ///
    /// Pre: none. Post: the engine the tensor reads (a view's borrowed storage).
    ///
    /// ```
    /// use kute::tensor::{Tensor, Owned};
    /// let t = Tensor::new(Owned(vec![1, 2, 3]), "3:1".parse::<kute::Layout>().unwrap());
    /// assert_eq!(t.engine().0, vec![1, 2, 3]);
    /// ```
    pub fn engine(&self) -> &E {
        &self.engine
    }

    /// The engine, writable.
    ///
    /// Pre: none. Post: writes through it change the elements the tensor reads.
    ///
    /// ```
    /// use kute::tensor::{Tensor, Owned};
    /// let mut t = Tensor::new(Owned(vec![1, 2, 3]), "2:2".parse::<kute::Layout>().unwrap());
    /// t.engine_mut().0[2] = 9;
    /// assert_eq!(t.get(1).unwrap(), 9); // the element at 0 + L(1) = 2
    /// ```
    pub fn engine_mut(&mut self) -> &mut E {
        &mut self.engine
    }

    /// The engine, the layout and the offset, taken apart.
    ///
    /// Pre: none. Post: `(engine(), layout(), offset())`, moved out.
    ///
    /// ```
    /// use kute::tensor::{Tensor, Owned};
    /// let t = Tensor::new(Owned(vec![1, 2, 3, 4]), "(2,2):(2,1)".parse::<kute::Layout>().unwrap());
    /// let (e, l, o) = t.into_parts();
    /// assert_eq!(e.0, vec![1, 2, 3, 4]);
    /// assert_eq!((l.to_string(), o.to_string()), ("(2,2):(2,1)".to_string(), "_0".to_string()));
    /// ```
    pub fn into_parts(self) -> (E, AnyLayout, Point) {
        (self.engine, self.layout, self.offset)
    }

    /// The layout.
    ///
    /// Pre: none. Post: the layout the tensor was built with, or the one a
    /// slice, divide or recast made.
    ///
    /// ```
    /// let t = kute::tensor::make_identity_tensor(&"(_4,_8)".parse().unwrap()).unwrap();
    /// assert_eq!(t.layout().to_string(), "(_4,_8):(_1@0,_1@1)");
    /// ```
    pub fn layout(&self) -> &AnyLayout {
        &self.layout
    }

    /// The offset into the engine (CuTe's iterator position).
    ///
    /// Pre: none. Post: `_0` for [`Tensor::new`], the given one for
    /// [`Tensor::with_offset`]; a slice adds the position of its integers.
    ///
    /// ```
    /// use kute::{expr::parse_coord, tensor::{make_counting_tensor, make_identity_tensor}};
    /// let t = make_counting_tensor("(_4,_6):(_6,_1)".parse::<kute::Layout>().unwrap());
    /// assert_eq!(t.slice(&parse_coord("(1,_)").unwrap()).unwrap().offset().to_string(), "6");
    /// let c = make_identity_tensor(&"(_4,_6)".parse().unwrap()).unwrap();
    /// assert_eq!(c.slice(&parse_coord("(_,2)").unwrap()).unwrap().offset().to_string(), "(_0,2)");
    /// ```
    pub fn offset(&self) -> &Point {
        &self.offset
    }
}

impl<E: Engine> Tensor<E> {
    /// CuTe `make_tensor(engine, layout)`, at offset 0.
    ///
    /// Pre: none (each access checks that its position is in the engine).
    /// Post: `layout() == layout`, `offset()` is `_0`.
    ///
    /// ```
    /// use kute::tensor::{Tensor, Borrowed};
    /// let v = [1.0f32, 2.0, 3.0, 4.0];
    /// let t = Tensor::new(Borrowed(&v[..]), "(2,2):(2,1)".parse::<kute::Layout>().unwrap());
    /// assert_eq!(t.get(1).unwrap(), 3.0);
    /// ```
    pub fn new(engine: E, layout: impl Into<AnyLayout>) -> Tensor<E> {
        Tensor { engine, layout: layout.into(), offset: zero() }
    }

    /// A tensor with an explicit offset (CuTe's iterator moved by `offset`).
    ///
    /// Pre: none. Post: the element at `c` is the engine's at `offset + layout(c)`.
    ///
    /// ```
    /// use kute::{tensor::{Tensor, Counting}, layout::point::Point, Int};
    /// let ten = Point::Scalar(Int::new_dynamic(10).into());
    /// let t = Tensor::with_offset(Counting, "4:1".parse::<kute::Layout>().unwrap(), ten);
    /// assert_eq!(t.get(3).unwrap(), 13);
    /// ```
    pub fn with_offset(engine: E, layout: impl Into<AnyLayout>, offset: Point) -> Tensor<E> {
        Tensor { engine, layout: layout.into(), offset }
    }

    /// The shape of the layout.
    ///
    /// Pre: the layout is not a bare swizzle (else a `Type` error).
    /// Post: the shape of the layout (of the inner layout of a composed one).
    ///
    /// ```
    /// use kute::tensor::{Tensor, Counting};
    /// let t = kute::tensor::make_counting_tensor("(4,(2,3)):(1,(4,8))".parse::<kute::Layout>().unwrap());
    /// assert_eq!(t.shape().unwrap().to_string(), "(4,(2,3))");
    /// let s = Tensor::new(Counting, kute::swizzle::Swizzle::new(3, 4, 3).unwrap());
    /// assert_eq!(s.shape().unwrap_err().kind(), kute::ErrorKind::Type);
    /// ```
    pub fn shape(&self) -> Result<IntTuple> {
        self.layout.shape()
    }

    /// The number of elements.
    ///
    /// Pre: as [`Tensor::shape`]. Post: the product of the shape.
    ///
    /// ```
    /// let t = kute::tensor::make_counting_tensor("(4,(2,3)):(1,(4,8))".parse::<kute::Layout>().unwrap());
    /// assert_eq!((t.size().unwrap(), t.rank().unwrap()), (24, 2));
    /// ```
    pub fn size(&self) -> Result<i64> {
        self.layout.size()?.concrete("size")
    }

    /// The number of top-level modes.
    ///
    /// Pre: as [`Tensor::shape`]. Post: the rank of the shape (1 for an integral shape).
    ///
    /// ```
    /// use kute::tensor::make_counting_tensor;
    /// let t = make_counting_tensor("(4,(2,3),2):(1,(4,8),24)".parse::<kute::Layout>().unwrap());
    /// assert_eq!(t.rank().unwrap(), 3);
    /// assert_eq!(make_counting_tensor("6:2".parse::<kute::Layout>().unwrap()).rank().unwrap(), 1);
    /// ```
    pub fn rank(&self) -> Result<usize> {
        Ok(self.shape()?.rank())
    }

    /// The position (offset plus layout value) of the 1-D coordinate `i`.
    ///
    /// Pre: `0 <= i < size()` (else a `Mismatch` error). Post: the position.
    ///
    /// ```
    /// use kute::{tensor::{Tensor, Counting, make_identity_tensor}, layout::point::Point, Int};
    /// let l: kute::Layout = "(2,3):(3,1)".parse().unwrap();
    /// let t = Tensor::with_offset(Counting, l, Point::Scalar(Int::new_dynamic(10).into()));
    /// assert_eq!(t.position(3).unwrap().as_int().unwrap().value(), 14); // 10 + L(1,1)
    /// assert!(t.position(6).is_err());
    /// let c = make_identity_tensor(&"(_4,_6)".parse().unwrap()).unwrap();
    /// assert_eq!(c.position(9).unwrap().to_int_tuple().to_string(), "(1,2)");
    /// ```
    pub fn position(&self, i: i64) -> Result<Point> {
        let n = self.size()?;
        if !(0..n).contains(&i) {
            return Err(Error::mismatch(
                "tensor",
                format!("the index {i} is outside the tensor of layout {} (0 to {})", self.layout, n - 1),
            ));
        }
        let p = match &self.layout {
            AnyLayout::Layout(l) => l.eval_point(Int::new_dynamic(i))?,
            other => Point::Scalar(other.eval_int(Int::new_dynamic(i))?.into()),
        };
        add_points(&self.offset, &p)
    }

    /// The position of a coordinate: 1-D (an integer), R-D (one integer per
    /// mode) or natural (the shape's structure), or any mix.
    ///
    /// Pre: every integer lies in the mode it addresses (else a `Mismatch`
    /// error); the coordinate fits the shape (else the layout's error).
    /// Post: the position.
    ///
    /// ```
    /// let t = kute::tensor::make_counting_tensor("(_4,(_2,_2)):(_2,(_1,_8))".parse::<kute::Layout>().unwrap());
    /// let p = |c: &str| t.position_at(&c.parse().unwrap()).unwrap().as_int().unwrap().value();
    /// assert_eq!((p("(2,(0,1))"), p("(2,2)"), p("10")), (12, 12, 12)); // natural, R-D, 1-D
    /// let e = t.position_at(&"(1,(2,0))".parse().unwrap()).unwrap_err();
    /// assert_eq!(e.kind(), kute::ErrorKind::Mismatch);
    /// ```
    pub fn position_at(&self, c: &IntTuple) -> Result<Point> {
        if let Some(x) = c.as_ref().as_leaf() {
            return self.position(x.value());
        }
        let shape = self.shape()?;
        crate::layout::slice::check_coord_range(c, &shape, &self.layout.to_string())?;
        let p = match &self.layout {
            AnyLayout::Layout(l) => l.eval_coord_point(c)?,
            other => Point::Scalar(other.eval_coord(c)?.into()),
        };
        add_points(&self.offset, &p)
    }

    /// The element at the 1-D coordinate `i` (CuTe `tensor(i)`).
    ///
    /// Pre: as [`Tensor::position`] and [`Engine::read`]. Post: the element.
    ///
    /// ```
    /// use kute::{tensor::{Tensor, Owned}, layout::point::Point, Int};
    /// let l: kute::Layout = "(2,3):(3,1)".parse().unwrap();
    /// let data: Vec<i32> = (0..10).map(|x| x * 10).collect();
    /// let t = Tensor::with_offset(Owned(data), l.clone(), Point::Scalar(Int::new_dynamic(2).into()));
    /// assert_eq!(t.get(3).unwrap(), 60); // data[2 + L(1,1)]
    /// assert!(t.get(6).is_err());
    /// let short = Tensor::new(Owned(vec![0; 4]), l); // L(5) = 5 is outside the storage
    /// assert_eq!(short.get(5).unwrap_err().kind(), kute::ErrorKind::Mismatch);
    /// ```
    pub fn get(&self, i: i64) -> Result<E::Elem> {
        self.engine.read(&self.position(i)?)
    }

    /// The element at a coordinate (CuTe `tensor(c)`), see [`Tensor::position_at`].
    ///
    /// Pre: as [`Tensor::position_at`] and [`Engine::read`]. Post: the element.
    ///
    /// ```
    /// let t = kute::tensor::make_counting_tensor("(_4,(_2,_2)):(_2,(_1,_8))".parse::<kute::Layout>().unwrap());
    /// assert_eq!(t.at(&"(3,(1,1))".parse().unwrap()).unwrap(), 15); // natural
    /// assert_eq!(t.at(&"(3,3)".parse().unwrap()).unwrap(), 15);     // R-D
    /// assert!(t.at(&"(4,0)".parse().unwrap()).is_err());
    /// ```
    pub fn at(&self, c: &IntTuple) -> Result<E::Elem> {
        self.engine.read(&self.position_at(c)?)
    }

    /// CuTe `tensor(c)` with `_` in `c`: the modes at `_`, over the same
    /// engine, with the offset moved to the integers of `c` (a view: nothing
    /// is copied).
    ///
    /// Pre: the integers of `c` lie in their modes (else a `Mismatch` error);
    /// as [`Layout::slice_and_offset`] or
    /// [`slice_and_offset`](crate::composed::slice_and_offset).
    /// Post: `slice(c).at(j) == at(c with j at the '_')`.
    ///
    /// ```
    /// let t = kute::tensor::make_counting_tensor("(_4,_6):(_6,_1)".parse::<kute::Layout>().unwrap());
    /// let row = t.slice(&kute::expr::parse_coord("(1,_)").unwrap()).unwrap();
    /// assert_eq!(row.layout().to_string(), "(_6):(_1)");
    /// assert_eq!(row.get(2).unwrap(), 8);
    /// ```
    pub fn slice(self, c: &Coord) -> Result<Tensor<E>> {
        let shape = self.shape()?;
        let ints = c.map(|x| match x {
            Crd::Int(i) => i,
            Crd::Underscore => Int::ZERO,
        });
        crate::layout::slice::check_coord_range(&ints, &shape, &self.layout.to_string())?;
        let (layout, off) = slice_layout(&self.layout, c)?;
        let offset = add_points(&self.offset, &off)?;
        Ok(Tensor { engine: self.engine, layout, offset })
    }

    /// The tensor with `f` applied to its layout, the same engine and offset.
    fn relayout(self, f: impl FnOnce(&AnyLayout) -> Result<AnyLayout>) -> Result<Tensor<E>> {
        let layout = f(&self.layout)?;
        Ok(Tensor { engine: self.engine, layout, offset: self.offset })
    }

    /// CuTe `logical_divide(tensor, tiler)`: the divide of the layout, the
    /// same engine.
    ///
    /// Pre: as [`logical_divide`](crate::logical_divide) (a swizzle alone has
    /// no shape: a `Type` error). Post: the layout is the divide's.
    ///
    /// ```
    /// let t = kute::tensor::make_counting_tensor("(_8,_12):(_12,_1)".parse::<kute::Layout>().unwrap());
    /// let d = t.logical_divide(&"(_4,_3)".parse().unwrap()).unwrap();
    /// assert_eq!(d.layout().to_string(), "((_4,_2),(_3,_4)):((_12,_48),(_1,_3))");
    /// ```
    pub fn logical_divide(self, t: &Tiler) -> Result<Tensor<E>> {
        self.relayout(|l| divide(l, t, crate::logical_divide, ComposedLayout::logical_divide))
    }

    /// CuTe `zipped_divide(tensor, tiler)`: `((tile),(rest))`, same engine.
    ///
    /// Pre: as [`Tensor::logical_divide`]. Post: the layout is the divide's.
    ///
    /// ```
    /// let t = kute::tensor::make_counting_tensor("(_4,_6):(_1,_4)".parse::<kute::Layout>().unwrap());
    /// let z = t.zipped_divide(&"(_2,_3)".parse().unwrap()).unwrap();
    /// assert_eq!(z.layout().to_string(), "((_2,_3),(_2,_2)):((_1,_4),(_2,_12))");
    /// ```
    pub fn zipped_divide(self, t: &Tiler) -> Result<Tensor<E>> {
        self.relayout(|l| divide(l, t, crate::zipped_divide, ComposedLayout::zipped_divide))
    }

    /// CuTe `tiled_divide(tensor, tiler)`: `((tile),rest0,rest1,...)`, same engine.
    ///
    /// Pre: as [`Tensor::logical_divide`]. Post: the layout is the divide's.
    ///
    /// ```
    /// let t = kute::tensor::make_counting_tensor("(_4,_6):(_1,_4)".parse::<kute::Layout>().unwrap());
    /// let d = t.tiled_divide(&"(_2,_3)".parse().unwrap()).unwrap();
    /// assert_eq!(d.layout().to_string(), "((_2,_3),_2,_2):((_1,_4),_2,_12)");
    /// ```
    pub fn tiled_divide(self, t: &Tiler) -> Result<Tensor<E>> {
        self.relayout(|l| divide(l, t, crate::tiled_divide, ComposedLayout::tiled_divide))
    }

    /// CuTe `flat_divide(tensor, tiler)`: `(tile0,...,rest0,...)`, same engine.
    ///
    /// Pre: as [`Tensor::logical_divide`]. Post: the layout is the divide's.
    ///
    /// ```
    /// let t = kute::tensor::make_counting_tensor("(_4,_6):(_1,_4)".parse::<kute::Layout>().unwrap());
    /// let d = t.flat_divide(&"(_2,_3)".parse().unwrap()).unwrap();
    /// assert_eq!(d.layout().to_string(), "(_2,_3,_2,_2):(_1,_4,_2,_12)");
    /// ```
    pub fn flat_divide(self, t: &Tiler) -> Result<Tensor<E>> {
        self.relayout(|l| divide(l, t, crate::flat_divide, ComposedLayout::flat_divide))
    }
}

impl<E: Engine> Tensor<E> {
    /// A read-only view of a tensor with storage (same layout and offset).
    ///
    /// Pre: the engine has storage (else a `Type` error). Post: the view reads
    /// the same elements.
    ///
    /// ```
    /// use kute::tensor::{Tensor, Owned};
    /// let t = Tensor::new(Owned(vec![1, 2, 3, 4]), "(2,2):(2,1)".parse::<kute::Layout>().unwrap());
    /// let col = t.view().unwrap().slice(&kute::expr::parse_coord("(_,1)").unwrap()).unwrap();
    /// assert_eq!((col.get(0).unwrap(), col.get(1).unwrap()), (2, 4));
    /// ```
    pub fn view(&self) -> Result<Tensor<Borrowed<'_, E::Elem>>> {
        let data = self.engine.data().ok_or_else(|| {
            Error::new(
                ErrorKind::Type,
                "view",
                format!("{} has no storage to view", self.engine.describe(&self.offset)),
            )
        })?;
        Ok(Tensor { engine: Borrowed(data), layout: self.layout.clone(), offset: self.offset.clone() })
    }
}

impl<E: EngineMut> Tensor<E> {
    /// A writable view (same layout and offset).
    ///
    /// Pre: none. Post: writes through the view change this tensor's elements.
    ///
    /// ```
    /// use kute::tensor::{Tensor, Owned};
    /// let mut t = Tensor::new(Owned(vec![0; 4]), "(2,2):(2,1)".parse::<kute::Layout>().unwrap());
    /// let mut row = t.view_mut().slice(&kute::expr::parse_coord("(1,_)").unwrap()).unwrap();
    /// row.set(1, 7).unwrap();
    /// assert_eq!(t.engine().0, vec![0, 0, 0, 7]);
    /// ```
    pub fn view_mut(&mut self) -> Tensor<BorrowedMut<'_, E::Elem>> {
        Tensor { engine: BorrowedMut(self.engine.data_mut()), layout: self.layout.clone(), offset: self.offset.clone() }
    }

    /// The element at the 1-D coordinate `i`, writable.
    ///
    /// Pre: as [`Tensor::get`]. Post: a reference to the storage's element at
    /// `offset + layout(i)`.
    ///
    /// ```
    /// use kute::tensor::{Tensor, Owned};
    /// let mut t = Tensor::new(Owned(vec![0; 6]), "(2,3):(3,1)".parse::<kute::Layout>().unwrap());
    /// *t.get_mut(1).unwrap() = 7; // L(1) = L(1,0) = 3
    /// assert_eq!(t.engine().0, vec![0, 0, 0, 7, 0, 0]);
    /// ```
    pub fn get_mut(&mut self, i: i64) -> Result<&mut E::Elem> {
        let p = self.position(i)?;
        let data = self.engine.data_mut();
        let k = engine::storage_index(data.len(), &p)?;
        Ok(&mut data[k])
    }

    /// The element at a coordinate, writable (see [`Tensor::position_at`]).
    ///
    /// Pre: as [`Tensor::at`]. Post: a reference to the storage's element at
    /// `offset + layout(c)`.
    ///
    /// ```
    /// use kute::tensor::{Tensor, Owned};
    /// let mut t = Tensor::new(Owned(vec![0; 6]), "(2,3):(3,1)".parse::<kute::Layout>().unwrap());
    /// *t.at_mut(&"(1,2)".parse().unwrap()).unwrap() = 5; // L(1,2) = 5
    /// assert_eq!(t.engine().0, vec![0, 0, 0, 0, 0, 5]);
    /// assert!(t.at_mut(&"(2,0)".parse().unwrap()).is_err());
    /// ```
    pub fn at_mut(&mut self, c: &IntTuple) -> Result<&mut E::Elem> {
        let p = self.position_at(c)?;
        let data = self.engine.data_mut();
        let k = engine::storage_index(data.len(), &p)?;
        Ok(&mut data[k])
    }

    /// Write `v` at the 1-D coordinate `i`.
    ///
    /// Pre: as [`Tensor::get`]. Post: `get(i) == v`.
    ///
    /// ```
    /// use kute::tensor::{Tensor, Owned};
    /// let mut t = Tensor::new(Owned(vec![0; 6]), "(2,3):(3,1)".parse::<kute::Layout>().unwrap());
    /// t.set(4, 9).unwrap(); // L(4) = L(0,2) = 2
    /// assert_eq!((t.get(4).unwrap(), t.engine().0.clone()), (9, vec![0, 0, 9, 0, 0, 0]));
    /// assert!(t.set(6, 1).is_err());
    /// ```
    pub fn set(&mut self, i: i64, v: E::Elem) -> Result<()> {
        *self.get_mut(i)? = v;
        Ok(())
    }
}

/// Element types [`Tensor::recast`] reinterprets: plain old data.
pub trait Pod: zerocopy::FromBytes + zerocopy::IntoBytes + zerocopy::Immutable + zerocopy::KnownLayout + Clone {}
impl<T: zerocopy::FromBytes + zerocopy::IntoBytes + zerocopy::Immutable + zerocopy::KnownLayout + Clone> Pod for T {}

fn recast_parts<T, U>(layout: &AnyLayout, offset: &Point) -> Result<(Layout, i64)> {
    let op = "recast";
    let (old, new) = (8 * std::mem::size_of::<T>() as i64, 8 * std::mem::size_of::<U>() as i64);
    let l = layout.as_layout(op)?;
    let nl = crate::recast_layout(l, old, new)?;
    let off = offset.as_int().map(|i| i.value()).unwrap_or(0);
    let bits = off.checked_mul(old).ok_or_else(|| Error::overflow("recast"))?;
    if bits % new != 0 {
        return Err(Error::inadmissible(op, format!("the offset {off} is not a whole number of {new}-bit elements")));
    }
    Ok((nl, bits / new))
}

fn cast_error(e: impl std::fmt::Display) -> Error {
    Error::inadmissible("recast", format!("the storage cannot be reinterpreted: {e}"))
}

impl<E: Engine> Tensor<E>
where
    E::Elem: Pod,
{
    /// CuTe `recast<U>(tensor)`: the same bytes seen as elements of type `U`,
    /// the layout recast by [`recast_layout`](crate::recast_layout) (a view).
    ///
    /// Pre: the engine has storage; the layout is a plain layout with integer
    /// strides that `upcast`/`downcast` accept; the storage's length in bytes and
    /// alignment suit `U`, and the offset is a whole number of `U`s (else an
    /// error). Post: the view's elements are the same bytes.
    ///
    /// ```
    /// use kute::tensor::{Tensor, Borrowed};
    /// let v: Vec<u8> = (0..8).collect();
    /// let t = Tensor::new(Borrowed(&v[..]), "8:1".parse::<kute::Layout>().unwrap());
    /// let w = t.recast::<u16>().unwrap();
    /// assert_eq!(w.layout().to_string(), "4:1");
    /// assert_eq!(w.get(1).unwrap(), u16::from_ne_bytes([2, 3]));
    /// ```
    pub fn recast<U: Pod>(&self) -> Result<Tensor<Borrowed<'_, U>>> {
        let data =
            self.engine.data().ok_or_else(|| Error::new(ErrorKind::Type, "recast", "the tensor has no storage"))?;
        let (l, off) = recast_parts::<E::Elem, U>(&self.layout, &self.offset)?;
        let bytes = zerocopy::IntoBytes::as_bytes(data);
        let usable = bytes.len() - bytes.len() % std::mem::size_of::<U>().max(1);
        let us = <[U] as zerocopy::FromBytes>::ref_from_bytes(&bytes[..usable]).map_err(cast_error)?;
        Ok(Tensor::with_offset(Borrowed(us), l, Point::Scalar(Int::new_dynamic(off).into())))
    }
}

impl<E: EngineMut> Tensor<E>
where
    E::Elem: Pod,
{
    /// [`Tensor::recast`], writable.
    ///
    /// Pre: as [`Tensor::recast`]. Post: writes change this tensor's bytes.
    ///
    /// ```
    /// use kute::tensor::{Tensor, Owned};
    /// let mut t = Tensor::new(Owned(vec![0u32; 2]), "2:1".parse::<kute::Layout>().unwrap());
    /// t.recast_mut::<u8>().unwrap().set(4, 1).unwrap();
    /// assert_eq!(t.engine().0, vec![0, u32::from_ne_bytes([1, 0, 0, 0])]);
    /// ```
    pub fn recast_mut<U: Pod + zerocopy::FromZeros>(&mut self) -> Result<Tensor<BorrowedMut<'_, U>>> {
        let (l, off) = recast_parts::<E::Elem, U>(&self.layout, &self.offset)?;
        let bytes = zerocopy::IntoBytes::as_mut_bytes(self.engine.data_mut());
        let usable = bytes.len() - bytes.len() % std::mem::size_of::<U>().max(1);
        let us = <[U] as zerocopy::FromBytes>::mut_from_bytes(&mut bytes[..usable]).map_err(cast_error)?;
        Ok(Tensor::with_offset(BorrowedMut(us), l, Point::Scalar(Int::new_dynamic(off).into())))
    }
}

/// The slice of a layout of any kind at `c`, and the offset of `c`'s integers.
fn slice_layout(l: &AnyLayout, c: &Coord) -> Result<(AnyLayout, Point)> {
    match l {
        AnyLayout::Layout(l) => {
            let (s, p) = l.slice_and_offset(c)?;
            Ok((AnyLayout::Layout(s), p))
        }
        AnyLayout::Composed(k) => {
            let (s, o) = crate::composed::slice_and_offset(c, k)?;
            Ok((s, Point::Scalar(o.into())))
        }
        AnyLayout::Swizzle(s) => Err(Error::new(ErrorKind::Type, "slice", format!("{s} has no modes to slice"))),
    }
}

type LayoutDivide = fn(&Layout, &Tiler) -> Result<Layout>;
type ComposedDivide = fn(&ComposedLayout, &Tiler) -> Result<AnyLayout>;

fn divide(l: &AnyLayout, t: &Tiler, f: LayoutDivide, g: ComposedDivide) -> Result<AnyLayout> {
    match l {
        AnyLayout::Layout(l) => Ok(AnyLayout::Layout(f(l, t)?)),
        AnyLayout::Composed(k) => g(k, t),
        AnyLayout::Swizzle(s) => Err(Error::new(ErrorKind::Type, "divide", format!("{s} has no shape to divide"))),
    }
}

/// `a + b` as CuTe adds an iterator position and a layout value: integers
/// add; coordinates add mode by mode, the shorter padded with zeros.
///
/// Pre: not an integer other than zero plus a coordinate (else an
/// `Inadmissible` error); no overflow (else an `Overflow` error).
/// Post: the sum (a `Scalar` when it is an integer).
///
/// ```
/// use kute::{tensor::add_points, layout::point::Point, Int};
/// let int = |v| Point::Scalar(Int::new_dynamic(v).into());
/// let crd = |s: &str| Point::Tuple(s.parse().unwrap());
/// assert_eq!(add_points(&int(54), &int(13)).unwrap().as_int().unwrap().value(), 67);
/// assert_eq!(add_points(&crd("(4,6)"), &crd("(1,2,5)")).unwrap().to_string(), "(5,8,5)");
/// assert_eq!(add_points(&int(0), &crd("(1,2)")).unwrap().to_string(), "(1,2)");
/// assert_eq!(add_points(&int(3), &crd("(1,2)")).unwrap_err().kind(), kute::ErrorKind::Inadmissible);
/// ```
pub fn add_points(a: &Point, b: &Point) -> Result<Point> {
    if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
        return Ok(Point::Scalar(x.add(y)?.into()));
    }
    let (x, y) = (a.to_int_tuple(), b.to_int_tuple());
    let t = Tree::try_build(|bld| add_into(bld, x.as_ref(), y.as_ref()))?;
    Ok(match t.as_ref().as_leaf() {
        Some(v) => Point::Scalar(v.into()),
        None => Point::Tuple(t),
    })
}

fn add_into(b: &mut Builder<'_, Int>, x: IntTupleRef<'_>, y: IntTupleRef<'_>) -> Result<()> {
    match (x.as_leaf(), y.as_leaf()) {
        (Some(p), Some(q)) => b.leaf(p.add(q)?),
        (Some(p), None) if !p.is_symbolic() && p.value() == 0 => b.push(y),
        (None, Some(q)) if !q.is_symbolic() && q.value() == 0 => b.push(x),
        (None, None) => {
            b.open();
            let (mut xs, mut ys) = (x.children(), y.children());
            loop {
                match (xs.next(), ys.next()) {
                    (Some(p), Some(q)) => add_into(b, p, q)?,
                    (Some(p), None) => b.push(p),
                    (None, Some(q)) => b.push(q),
                    (None, None) => break,
                }
            }
            b.close();
        }
        _ => {
            return Err(Error::inadmissible("tensor", format!("cannot add the position {x} and the coordinate {y}")));
        }
    }
    Ok(())
}
