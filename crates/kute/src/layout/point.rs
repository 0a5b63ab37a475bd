//! Evaluation of layouts with any strides: the value at a coordinate is a
//! [`Point`], an integer for integer strides and a coordinate (CuTe's
//! `ScaledBasis` or `ArithmeticTuple`) for basis strides.
//!
//! CuTe sums the terms `c_k · d_k` left to right starting from `_0`: a static
//! zero disappears into the sum, one basis term stays a `ScaledBasis` (printed
//! `_3@1`), and two or more are added as tuples, the shorter padded with `_0`
//! (so `_0@2` still makes the result rank 3). An integer other than zero plus
//! a basis term has no meaning (CuTe does not compile it): an error here.

use super::{Layout, LayoutRef, Mode};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{IntTuple, IntTupleRef};
use crate::stride::Stride;
use crate::tree::{Builder, Tree};
use std::fmt;

/// The value of a layout at a coordinate: an integer index, one scaled basis
/// element (`_3@1`), or a coordinate tuple (CuTe's `ArithmeticTuple`, printed
/// as a tuple).
///
/// ```
/// use kute::{Int, Layout, layout::point::Point};
/// let l: Layout = kute::expr::eval("make_identity_layout((_8,_12))").unwrap().as_layout().unwrap().clone();
/// assert_eq!(l.eval_point(Int::new_static(37)).unwrap().to_string(), "(_5,_4)");
/// let i: Layout = "(_4,_6):(_6,_1)".parse().unwrap();
/// assert_eq!(i.eval_point(Int::new_static(7)).unwrap(), Point::Scalar(Int::new_static(19).into()));
/// ```
// short-lived results, like `Layout` values (an inline tree)
#[allow(clippy::large_enum_variant)]
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Point {
    /// An integer, or a single scaled basis element.
    Scalar(Stride),
    /// A coordinate tuple (a sum of two or more basis elements).
    Tuple(IntTuple),
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Point::Scalar(s) => write!(f, "{s}"),
            Point::Tuple(t) => write!(f, "{t}"),
        }
    }
}

impl Point {
    /// The integer, for an integer point.
    ///
    /// Pre: none. Post: `Some(x)` for an integer `x`, `None` for a basis element
    /// or a coordinate tuple.
    ///
    /// ```
    /// use kute::{Int, layout::point::Point};
    /// assert_eq!(Point::Scalar(Int::new_static(3).into()).as_int(), Some(Int::new_static(3)));
    /// ```
    pub fn as_int(&self) -> Option<Int> {
        match self {
            Point::Scalar(s) => s.as_int(),
            Point::Tuple(_) => None,
        }
    }

    /// The coordinate as an integer tuple: an integer stays one, a basis
    /// element becomes its tuple (`_3@1` is `(_0,_3)`).
    ///
    /// Pre: none. Post: an integer for an integer point; for `v@path`, `v` at
    /// that path with static zeros before it at each level; a tuple as it is.
    ///
    /// ```
    /// use kute::{Int, Stride, layout::point::Point};
    /// let p = Point::Scalar(Stride::basis(Int::new_static(3), &[1, 0]).unwrap());
    /// assert_eq!(p.to_int_tuple().to_string(), "(_0,(_3))");
    /// ```
    pub fn to_int_tuple(&self) -> IntTuple {
        match self {
            Point::Scalar(s) => basis_tuple(*s),
            Point::Tuple(t) => t.clone(),
        }
    }

    /// The non-zero components, as (basis path, value) pairs in path order: two
    /// points with the same components are the same coordinate (whatever their
    /// static flags and zero padding).
    pub(crate) fn components(&self) -> Vec<(Vec<usize>, i64)> {
        fn go(t: IntTupleRef<'_>, path: &mut Vec<usize>, out: &mut Vec<(Vec<usize>, i64)>) {
            match t.as_leaf() {
                Some(x) if x.value() != 0 => out.push((path.clone(), x.value())),
                Some(_) => {}
                None => {
                    for (i, c) in t.children().enumerate() {
                        path.push(i);
                        go(c, path, out);
                        path.pop();
                    }
                }
            }
        }
        let mut out = Vec::new();
        match self {
            Point::Scalar(s) if s.value() != 0 => out.push((s.path().to_vec(), s.value())),
            Point::Scalar(_) => {}
            Point::Tuple(t) => go(t.as_ref(), &mut Vec::new(), &mut out),
        }
        out.sort();
        out
    }

    /// Whether both are the same coordinate (see [`Point::components`]).
    pub(crate) fn same_values(&self, o: &Point) -> bool {
        self.components() == o.components()
    }

    /// `self + t` as CuTe adds a term to a partial sum.
    fn add_term(self, t: Stride, op: &'static str) -> Result<Point> {
        if t.is_int_zero() {
            return Ok(self);
        }
        match self {
            Point::Scalar(a) if a.is_int() && t.is_int() => Ok(Point::Scalar(a.scale_int().add(t.scale_int())?.into())),
            // CuTe's `_0 + x` is `x`; a run-time zero plus a basis element is that element, too
            Point::Scalar(a) if a.is_int() && !a.is_symbolic() && a.value() == 0 => Ok(Point::Scalar(t)),
            Point::Scalar(a) => {
                if a.is_int() || t.is_int() {
                    return Err(mixed(a, t, op));
                }
                Ok(Point::Tuple(add_tuples(basis_tuple(a).as_ref(), basis_tuple(t).as_ref(), op)?))
            }
            Point::Tuple(x) => {
                if t.is_int() {
                    return Err(Error::inadmissible(
                        op,
                        format!("cannot add the integer {t} to the coordinate {x}: the layout mixes integer and basis strides"),
                    ));
                }
                Ok(Point::Tuple(add_tuples(x.as_ref(), basis_tuple(t).as_ref(), op)?))
            }
        }
    }
}

#[cold]
fn mixed(a: Stride, t: Stride, op: &'static str) -> Error {
    Error::inadmissible(op, format!("cannot add {a} and {t}: the layout mixes integer and basis strides"))
}

/// The tuple of a basis element: `v@i` is `(_0,...,_0,v)` with `i` zeros, nested
/// along the path; an integer is itself.
pub(crate) fn basis_tuple(s: Stride) -> IntTuple {
    Tree::build(|b| push_basis(b, s))
}

fn push_basis(b: &mut Builder<'_, Int>, s: Stride) {
    let path = s.path();
    fn go(b: &mut Builder<'_, Int>, path: &[usize], v: Int) {
        match path.split_first() {
            None => b.leaf(v),
            Some((&i, rest)) => {
                b.open();
                for _ in 0..i {
                    b.leaf(Int::ZERO);
                }
                go(b, rest, v);
                b.close();
            }
        }
    }
    go(b, &path, s.scale_int());
}

/// CuTe's `ArithmeticTuple` sum: mode by mode, the shorter padded with `_0`; an
/// integer and a tuple add only when the integer is zero.
fn add_tuples(x: IntTupleRef<'_>, y: IntTupleRef<'_>, op: &'static str) -> Result<IntTuple> {
    Tree::try_build(|b| add_into(b, x, y, op))
}

fn add_into(b: &mut Builder<'_, Int>, x: IntTupleRef<'_>, y: IntTupleRef<'_>, op: &'static str) -> Result<()> {
    match (x.as_leaf(), y.as_leaf()) {
        (Some(p), Some(q)) => {
            b.leaf(p.add(q).map_err(|e| e.in_op(op))?);
            Ok(())
        }
        (Some(p), None) if !p.is_symbolic() && p.value() == 0 => {
            b.push(y);
            Ok(())
        }
        (None, Some(q)) if !q.is_symbolic() && q.value() == 0 => {
            b.push(x);
            Ok(())
        }
        (None, None) => {
            b.open();
            let (mut xs, mut ys) = (x.children(), y.children());
            loop {
                match (xs.next(), ys.next()) {
                    (Some(p), Some(q)) => add_into(b, p, q, op)?,
                    (Some(p), None) => b.push(p),
                    (None, Some(q)) => b.push(q),
                    (None, None) => break,
                }
            }
            b.close();
            Ok(())
        }
        _ => Err(Error::inadmissible(op, format!("cannot add the coordinates {x} and {y}: an integer and a tuple"))),
    }
}

impl Layout {
    /// The value at 1-D coordinate `i`: for integer strides the index (as
    /// [`Layout::eval_int`]), for basis strides a coordinate.
    ///
    /// Pre: the layout does not add a non-zero integer term to a basis term
    /// (CuTe does not compile it; else an `Inadmissible` error); no extent but the
    /// last is 0 (else a `DivisionByZero` error); the arithmetic fits in `i64`
    /// (else an `Overflow` error).
    /// Post: for integer strides, [`Layout::eval_int`]; else the sum of the terms
    /// `c_k · d_k` as CuTe adds them (a scalar for one basis term, a tuple for more).
    ///
    /// ```
    /// use kute::{Int, Layout};
    /// let l = kute::expr::eval("(_4,_6):(_1@0@1,_1@1@1)").unwrap().as_layout().unwrap().clone();
    /// assert_eq!(l.eval_point(Int::new_static(7)).unwrap().to_string(), "(_0,(_3,_1))");
    /// ```
    pub fn eval_point(&self, i: Int) -> Result<Point> {
        if self.has_int_strides() {
            return Ok(Point::Scalar(self.eval_int(i)?.into()));
        }
        let mut acc = Point::Scalar(Stride::ZERO);
        split_index(self.as_tree_ref().leaves(), i, &mut acc).map_err(|e| e.in_op_over_arith("evaluate"))?;
        Ok(acc)
    }

    /// The value at a (hierarchical or partially flat) coordinate (CuTe
    /// `crd2idx`): for integer strides the index (as [`Layout::eval_coord`]),
    /// for basis strides a coordinate.
    ///
    /// Pre: as [`Layout::eval_coord`] for integer strides; else a tuple in
    /// `coord` matches the mode it addresses in rank (else a `Mismatch` error) and
    /// as [`Layout::eval_point`]. Post: for integer strides,
    /// [`Layout::eval_coord`]; else the sum of the terms of each mode.
    ///
    /// ```
    /// use kute::{IntTuple, Layout};
    /// let l = kute::expr::eval("make_identity_layout((_4,(_2,_3),_2))").unwrap().as_layout().unwrap().clone();
    /// let c: IntTuple = "(1,(1,2),1)".parse().unwrap();
    /// assert_eq!(l.eval_coord_point(&c).unwrap().to_string(), "(1,(1,2),1)");
    /// ```
    pub fn eval_coord_point(&self, coord: &IntTuple) -> Result<Point> {
        if self.has_int_strides() {
            return Ok(Point::Scalar(self.eval_coord(coord)?.into()));
        }
        let mut acc = Point::Scalar(Stride::ZERO);
        coord_terms(coord.as_ref(), self.as_tree_ref(), &mut acc).map_err(|e| e.in_op_over_arith("evaluate"))?;
        Ok(acc)
    }
}

impl Layout {
    /// CuTe `coshape(L)`: one past the largest value of `L` in each direction
    /// of its codomain, `sum((s-1)·|d|) + 1` (for basis strides, per basis
    /// direction, as a coordinate tuple).
    ///
    /// Pre: the strides are all integers or all basis elements (else an
    /// `Inadmissible` error); the sums fit in `i64` (else an `Overflow` error).
    /// Post: an integer (`cosize(L)`) for integer strides; for basis strides,
    /// a tuple with `1 + sum` at each position the strides reach (and `1`
    /// elsewhere), shaped like the basis paths.
    ///
    /// ```
    /// use kute::Layout;
    /// let l: Layout = "(_2,(_3,_4)):(_1,(_2,_6))".parse().unwrap();
    /// assert_eq!(l.coshape().unwrap().to_string(), "_24");
    /// let i: Layout = "(_4,(_2,_3)):(_1@0,(_1@0@1,_1@1@1))".parse().unwrap();
    /// assert_eq!(i.coshape().unwrap().to_string(), "(_4,(_2,_3))");
    /// assert_eq!(i.coprofile().unwrap().to_string(), "(_0,(_0,_0))");
    /// ```
    pub fn coshape(&self) -> Result<IntTuple> {
        let go = || -> Result<IntTuple> {
            let mut co = Point::Scalar(Stride::of(Int::ZERO));
            for m in self.leaves() {
                let span = m.shape.sub(Int::ONE)?;
                let d = m.stride.with_value(m.stride.scale_int().abs()?);
                co = co.add_term(d.scale(span)?, "coshape")?;
            }
            co.to_int_tuple().try_map(|x| x.add(Int::ONE))
        };
        go().map_err(|e| e.in_op("coshape"))
    }

    /// CuTe `coprofile(L)`: the structure of `L`'s codomain, [`Layout::coshape`]
    /// with every integer `_0`.
    ///
    /// Pre: as [`Layout::coshape`]. Post: congruent to `coshape(L)`, every leaf `_0`.
    ///
    /// ```
    /// let l: kute::Layout = "(_2,_3):(_3,_1)".parse().unwrap();
    /// assert_eq!(l.coprofile().unwrap().to_string(), "_0");
    /// ```
    pub fn coprofile(&self) -> Result<IntTuple> {
        Ok(self.coshape().map_err(|e| e.in_op("coprofile"))?.map(|_| Int::ZERO))
    }
}

impl Layout {
    /// The value at a point of the domain given as a coordinate: an integer is
    /// a 1-D coordinate, a basis element `v@p` is `v` in mode `p` (0 in the
    /// others), a tuple gives each mode its coordinate (modes it does not
    /// reach, 0). This is `A(B(i))` when `B` has basis strides.
    pub(crate) fn eval_at(&self, x: &Point) -> Result<Point> {
        let mut acc = Point::Scalar(Stride::ZERO);
        match x {
            Point::Scalar(s) if s.is_int() => return self.eval_point(s.scale_int()),
            Point::Scalar(s) => {
                let mut l = self.as_tree_ref();
                for i in s.path() {
                    l = l.mode(i).ok_or_else(|| no_mode(x, self))?;
                }
                split_index(l.leaves(), s.scale_int(), &mut acc)?;
            }
            Point::Tuple(t) => partial_terms(t.as_ref(), self.as_tree_ref(), &mut acc, x, self)?,
        }
        Ok(acc)
    }
}

#[cold]
fn no_mode(x: &Point, l: &Layout) -> Error {
    Error::mismatch("evaluate", format!("the coordinate {x} names a mode that {l} does not have"))
}

fn partial_terms(c: IntTupleRef<'_>, l: LayoutRef<'_>, acc: &mut Point, x: &Point, whole: &Layout) -> Result<()> {
    match c.as_leaf() {
        Some(i) => split_index(l.leaves(), i, acc),
        None => {
            for (k, ck) in c.children().enumerate() {
                if ck.leaves().iter().all(|v| !v.is_symbolic() && v.value() == 0) {
                    continue;
                }
                let lk = l.mode(k).filter(|_| !l.is_leaf() || k == 0).ok_or_else(|| no_mode(x, whole))?;
                partial_terms(ck, lk, acc, x, whole)?;
            }
            Ok(())
        }
    }
}

/// Adds the terms of index `i` split colexicographically over flat leaves (the
/// last one unbounded).
fn split_index(leaves: &[Mode], i: Int, acc: &mut Point) -> Result<()> {
    let n = leaves.len();
    let mut c = i;
    // CuTe's crd2idx of a static 0: every term a static 0, whatever the shape
    let zero = i.is_static() && i.value() == 0;
    for (k, m) in leaves.iter().enumerate() {
        let ck = if zero || k + 1 == n { c } else { c.rem(m.shape)? };
        let term = m.stride.scale(ck)?;
        *acc = std::mem::replace(acc, Point::Scalar(Stride::ZERO)).add_term(term, "evaluate")?;
        if k + 1 < n && !zero {
            c = c.div(m.shape)?;
        }
    }
    Ok(())
}

fn coord_terms(c: IntTupleRef<'_>, l: LayoutRef<'_>, acc: &mut Point) -> Result<()> {
    match c.as_leaf() {
        Some(i) => split_index(l.leaves(), i, acc),
        None => {
            if l.is_leaf() || l.rank() != c.rank() {
                return Err(Error::mismatch(
                    "evaluate",
                    format!("coordinate {c} does not match the layout {}", Layout::from_ref(l)),
                ));
            }
            for (a, m) in c.children().zip(l.children()) {
                coord_terms(a, m, acc)?;
            }
            Ok(())
        }
    }
}
