//! Slicing and dicing layouts with coordinates that contain `_`.
//!
//! `slice(c, L)` keeps the modes of `L` where `c` has `_`; `dice(c, L)` keeps
//! the others. Nested results are flattened one level, exactly as CuTe does:
//! `L(_,5)` keeps mode 0 as a rank-1 tuple, `L((_,_),5)` gives its two sub-modes.

use super::point::Point;
use super::{Layout, LayoutRef};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::tree::{Builder, Tree, TreeRef};
use std::fmt;

/// A coordinate leaf: an integer or `_` ("keep this mode").
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Crd {
    /// An integer coordinate.
    Int(Int),
    /// CuTe's `_` (Underscore).
    Underscore,
}

/// A coordinate that may contain `_`.
pub type Coord = Tree<Crd>;

impl fmt::Display for Tree<Crd> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::int_tuple::write_tree(f, self.as_ref(), &|f, c: Crd| match c {
            Crd::Int(i) => write!(f, "{i}"),
            Crd::Underscore => f.write_str("_"),
        })
    }
}

impl fmt::Debug for Tree<Crd> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

fn mismatch(c: TreeRef<'_, Crd>, op: &'static str, what: &dyn Fn() -> String) -> Error {
    let c = c.to_tree();
    Error::mismatch(op, format!("coordinate {c} does not match {}", what()))
}

fn lift<L: Copy>(
    out: &mut Builder<'_, L>,
    c: TreeRef<'_, Crd>,
    l: TreeRef<'_, L>,
    keep_underscore: bool,
    what: &dyn Fn() -> String,
) -> Result<()> {
    match c.as_leaf() {
        Some(Crd::Underscore) => {
            if keep_underscore {
                out.push(l);
            }
        }
        Some(Crd::Int(_)) => {
            if !keep_underscore {
                out.push(l);
            }
        }
        None => {
            if l.is_leaf() || l.rank() != c.rank() {
                return Err(mismatch(c, if keep_underscore { "slice" } else { "dice" }, what));
            }
            for (a, b) in c.children().zip(l.children()) {
                lift(out, a, b, keep_underscore, what)?;
            }
        }
    }
    Ok(())
}

/// CuTe's `slice` (`keep_underscore`) or `dice` of any tree: the elements
/// where `c` has `_` (or an integer), flattened one level; `what` names the
/// operand in an error.
fn slice_or_dice<L: Copy>(
    c: TreeRef<'_, Crd>,
    t: TreeRef<'_, L>,
    keep_underscore: bool,
    what: &dyn Fn() -> String,
) -> Result<Tree<L>> {
    match c.as_leaf() {
        Some(Crd::Underscore) => {
            return Ok(if keep_underscore { t.to_tree() } else { Tree::tuple(std::iter::empty()) })
        }
        Some(Crd::Int(_)) => return Ok(if keep_underscore { Tree::tuple(std::iter::empty()) } else { t.to_tree() }),
        None => {}
    }
    if t.is_leaf() || t.rank() != c.rank() {
        return Err(mismatch(c, if keep_underscore { "slice" } else { "dice" }, what));
    }
    Tree::try_build(|b| {
        b.open();
        for (a, m) in c.children().zip(t.children()) {
            lift(b, a, m, keep_underscore, what)?;
        }
        b.close();
        Ok(())
    })
}

/// CuTe `slice(c, t)` of an integer tuple: the elements where `c` has `_`,
/// flattened one level (`t` itself for `c = _`, `()` for an integer `c`).
///
/// Pre: each tuple of `c` matches the element it addresses in rank (else a
/// `Mismatch` error).
/// Post: a tuple of the elements of `t` where `c` has `_`, in order.
///
/// ```
/// use kute::{Coord, IntTuple, layout::slice};
/// let t: IntTuple = "(3,(4,5))".parse().unwrap();
/// let c: Coord = kute::expr::parse_coord("(_,(1,_))").unwrap();
/// assert_eq!(slice::slice_tuple(&c, t.as_ref()).unwrap().to_string(), "(3,5)");
/// assert_eq!(slice::dice_tuple(&c, t.as_ref()).unwrap().to_string(), "(4)");
/// ```
pub fn slice_tuple(c: &Coord, t: crate::int_tuple::IntTupleRef<'_>) -> Result<crate::int_tuple::IntTuple> {
    slice_or_dice(c.as_ref(), t, true, &|| format!("the tuple {t}"))
}

/// CuTe `dice(c, t)` of an integer tuple: the elements where `c` has an
/// integer, flattened one level (`t` itself for an integer `c`, `()` for `_`).
///
/// Pre: as [`slice_tuple`]. Post: a tuple of the elements of `t` where `c`
/// has an integer, in order.
///
/// ```
/// use kute::{Coord, IntTuple, layout::slice};
/// let t: IntTuple = "(3,4)".parse().unwrap();
/// let c: Coord = kute::expr::parse_coord("(1,_)").unwrap();
/// assert_eq!(slice::dice_tuple(&c, t.as_ref()).unwrap().to_string(), "(3)");
/// ```
pub fn dice_tuple(c: &Coord, t: crate::int_tuple::IntTupleRef<'_>) -> Result<crate::int_tuple::IntTuple> {
    slice_or_dice(c.as_ref(), t, false, &|| format!("the tuple {t}"))
}

impl Layout {
    /// CuTe `slice(c, L)`: the sub-layout of the modes where `c` has `_`.
    ///
    /// Pre: each tuple of `c` matches the mode it addresses in rank (else a
    /// `Mismatch` error). Post: the modes where `c` has `_`, in order, as one
    /// tuple (`L` itself for `c = _`, `():()` for an integer `c`).
    ///
    /// ```
    /// use kute::{Layout, Coord};
    /// let l: Layout = "((_3,2),(2,_5,_2)):((4,1),(_2,13,100))".parse().unwrap();
    /// let c: Coord = kute::expr::parse_coord("((2,_),(_,3,_))").unwrap();
    /// assert_eq!(l.slice(&c).unwrap().to_string(), "(2,2,_2):(1,_2,100)");
    /// ```
    pub fn slice(&self, c: &Coord) -> Result<Layout> {
        let l = self.as_tree_ref();
        Ok(Layout { tree: slice_or_dice(c.as_ref(), l, true, &|| format!("the layout {self}"))? })
    }

    /// CuTe `dice(c, L)`: the sub-layout of the modes where `c` has an integer.
    ///
    /// Pre: as [`Layout::slice`]. Post: the modes where `c` has an integer, in
    /// order, as one tuple (`L` itself for an integer `c`, `():()` for `c = _`).
    ///
    /// ```
    /// use kute::{Layout, Coord};
    /// let l: Layout = "(_2,_3,_4):(_1,_2,_6)".parse().unwrap();
    /// let c: Coord = kute::expr::parse_coord("(_,1,_)").unwrap();
    /// assert_eq!(l.dice(&c).unwrap().to_string(), "(_3):(_2)");
    /// ```
    pub fn dice(&self, c: &Coord) -> Result<Layout> {
        let l = self.as_tree_ref();
        Ok(Layout { tree: slice_or_dice(c.as_ref(), l, false, &|| format!("the layout {self}"))? })
    }

    /// CuTe `slice_and_offset(c, L)`: the slice and the value at `c` with `_`
    /// read as 0 (an index, or a coordinate for basis strides).
    ///
    /// Pre: as [`Layout::slice`] and [`Layout::offset_point`].
    /// Post: `(self.slice(c), self.offset_point(c))`.
    ///
    /// ```
    /// use kute::{Layout, Coord};
    /// let l: Layout = "((_3,2),(2,_5,_2)):((4,1),(_2,13,100))".parse().unwrap();
    /// let c: Coord = kute::expr::parse_coord("((2,_),(_,3,_))").unwrap();
    /// let (s, off) = l.slice_and_offset(&c).unwrap();
    /// assert_eq!((s.to_string(), off.to_string()), ("(2,2,_2):(1,_2,100)".to_string(), "47".to_string()));
    /// ```
    pub fn slice_and_offset(&self, c: &Coord) -> Result<(Layout, Point)> {
        let s = self.slice(c)?;
        let off = self.offset_point(c)?;
        Ok((s, off))
    }

    /// The value at a coordinate whose `_` entries count as 0: an index, or a
    /// coordinate for basis strides.
    ///
    /// Pre: as [`Layout::offset_of`] for integer strides, else as
    /// [`Layout::eval_coord_point`]. Post: the value at `c` with every `_` read as `_0`.
    ///
    /// ```
    /// let l = kute::expr::eval("make_identity_layout((_8,_12))").unwrap().as_layout().unwrap().clone();
    /// let c = kute::expr::parse_coord("(_,3)").unwrap();
    /// assert_eq!(l.offset_point(&c).unwrap().to_string(), "(_0,3)");
    /// ```
    pub fn offset_point(&self, c: &Coord) -> Result<Point> {
        if self.has_int_strides() {
            return Ok(Point::Scalar(self.offset_of(c)?.into()));
        }
        // `_` counts as a static 0
        let ints = c.map(|x| match x {
            Crd::Int(i) => i,
            Crd::Underscore => Int::ZERO,
        });
        self.eval_coord_point(&ints).map_err(|e| e.in_op("slice_and_offset"))
    }

    /// The index of a coordinate whose `_` entries count as 0.
    ///
    /// Pre: as [`Layout::slice`]; the modes addressed by integers of `c` have
    /// integer strides (else an `Inadmissible` error); as [`Layout::eval`] for each
    /// integer on its mode. Post: the sum, over the integers of `c`, of the mode
    /// each addresses evaluated there.
    ///
    /// ```
    /// let l: kute::Layout = "(_4,_8):(_1,_4)".parse().unwrap();
    /// let c = kute::expr::parse_coord("(1,_)").unwrap();
    /// assert_eq!(l.offset_of(&c).unwrap().value(), 1);
    /// ```
    pub fn offset_of(&self, c: &Coord) -> Result<Int> {
        fn go(c: TreeRef<'_, Crd>, l: LayoutRef<'_>) -> Result<Int> {
            match c.as_leaf() {
                Some(Crd::Underscore) => Ok(Int::ZERO),
                Some(Crd::Int(i)) => Layout::from_ref(l).eval_int(i),
                None => {
                    if l.is_leaf() || l.rank() != c.rank() {
                        return Err(mismatch(c, "slice", &|| format!("the layout {}", Layout::from_ref(l))));
                    }
                    let mut acc = Int::ZERO;
                    for (a, m) in c.children().zip(l.children()) {
                        acc = acc.add(go(a, m)?)?;
                    }
                    Ok(acc)
                }
            }
        }
        go(c.as_ref(), self.as_tree_ref()).map_err(|e| e.in_op("slice_and_offset"))
    }
}

/// A multi-dimensional coordinate must lie inside the shape: each integer in
/// `[0, size)` of the part of the shape it indexes (a 1-D coordinate past the
/// size extends the last mode, as in CuTe, and is not checked here).
/// Incongruent coordinates are left to the evaluation's own error.
pub(crate) fn coord_in_range(
    c: crate::int_tuple::IntTupleRef<'_>,
    s: crate::int_tuple::IntTupleRef<'_>,
    l: &dyn std::fmt::Display,
) -> Result<()> {
    match (c.as_leaf(), s.is_leaf()) {
        (Some(x), _) => {
            let n = crate::int_tuple::product(s.leaves())?;
            // (for symbols: decided by the facts, or an error naming the comparison)
            if x.sign("evaluate")? < 0 || !x.decide_lt(n, "evaluate")? {
                return Err(Error::new(
                    crate::ErrorKind::Mismatch,
                    "evaluate",
                    format!("the coordinate {x} is outside the mode {s} of {l} (0 to {})", n.sub(Int::ONE)?),
                ));
            }
            Ok(())
        }
        (None, false) if c.rank() == s.rank() => {
            for (ci, si) in c.children().zip(s.children()) {
                coord_in_range(ci, si, l)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// [`coord_in_range`] of a whole coordinate and shape, for the layout-like value `what`.
pub(crate) fn check_coord_range(
    c: &crate::int_tuple::IntTuple,
    s: &crate::int_tuple::IntTuple,
    what: &str,
) -> Result<()> {
    coord_in_range(c.as_ref(), s.as_ref(), &what)
}
