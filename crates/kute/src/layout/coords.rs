//! The coordinates of an index: CuTe's `Layout::get_hier_coord`,
//! `get_flat_coord` and `get_1d_coord`, the inverses of evaluation for
//! compact layouts.

use super::Layout;
use crate::error::Result;
use crate::int::Int;
use crate::int_tuple::{self, IntTuple};

impl Layout {
    /// CuTe `L.get_hier_coord(idx)`: `idx2crd(idx, shape, stride)`, the
    /// natural coordinate whose index is `idx` (mode by mode `(idx / d) % s`;
    /// an extent 1 gives 0). It inverts `L` for compact layouts only.
    ///
    /// Pre: integer strides (else an `Inadmissible` error, where CuTe does not
    /// compile); no stride divided by is 0 where its extent is not 1 (else a
    /// `DivisionByZero` error, where CuTe divides by zero).
    /// Post: a coordinate congruent to the shape; `L(result) == idx` when `L`
    /// is compact and `0 <= idx < size(L)`.
    ///
    /// ```
    /// use kute::{Int, Layout};
    /// let l: Layout = "(_2,(_3,_4)):(_12,(_1,_3))".parse().unwrap();
    /// assert_eq!(l.get_hier_coord(Int::new_static(17)).unwrap().to_string(), "(_1,(_2,_1))");
    /// ```
    pub fn get_hier_coord(&self, idx: Int) -> Result<IntTuple> {
        let op = "get_hier_coord";
        let stride = self.int_stride(op)?;
        let shape = self.shape();
        int_tuple::idx2crd_strided(IntTuple::leaf(idx).as_ref(), shape.as_ref(), stride.as_ref())
            .map_err(|e| e.in_op(op))
    }

    /// CuTe `L.get_flat_coord(idx)`: the hierarchical coordinate of `idx` with
    /// each mode's part turned into that mode's 1-D coordinate
    /// (`crd2crd(get_hier_coord(idx), shape, repeat<rank>(_1))`).
    ///
    /// Pre: as [`Layout::get_hier_coord`].
    /// Post: a flat tuple of `rank(L)` integers for a tuple shape, an integer
    /// for an integral one; `crd2idx(result, shape, stride) == idx` when `L` is
    /// compact and `0 <= idx < size(L)`.
    ///
    /// ```
    /// use kute::{Int, Layout};
    /// let l: Layout = "(_2,(_3,_4)):(_12,(_1,_3))".parse().unwrap();
    /// assert_eq!(l.get_flat_coord(Int::new_static(17)).unwrap().to_string(), "(_1,_5)");
    /// ```
    pub fn get_flat_coord(&self, idx: Int) -> Result<IntTuple> {
        let op = "get_flat_coord";
        let hier = self.get_hier_coord(idx).map_err(|e| e.in_op(op))?;
        let shape = self.shape();
        let ones = super::modes::repeat(self.rank(), IntTuple::int_static(1).as_ref())?;
        int_tuple::crd2crd(hier.as_ref(), shape.as_ref(), ones.as_ref()).map_err(|e| e.in_op(op))
    }

    /// CuTe `L.get_1d_coord(idx)`: the colexicographic 1-D coordinate of the
    /// hierarchical coordinate of `idx` (`crd2idx(get_hier_coord(idx), shape)`).
    ///
    /// Pre: as [`Layout::get_hier_coord`]; the index fits in `i64` (else an
    /// `Overflow` error).
    /// Post: an integer; `L(result) == idx` when `L` is compact and
    /// `0 <= idx < size(L)`.
    ///
    /// ```
    /// use kute::{Int, Layout};
    /// let l: Layout = "(_2,(_3,_4)):(_12,(_1,_3))".parse().unwrap();
    /// assert_eq!(l.get_1d_coord(Int::new_static(17)).unwrap().to_string(), "_11");
    /// ```
    pub fn get_1d_coord(&self, idx: Int) -> Result<Int> {
        let op = "get_1d_coord";
        let hier = self.get_hier_coord(idx).map_err(|e| e.in_op(op))?;
        let shape = self.shape();
        int_tuple::crd2idx_compact(hier.as_ref(), shape.as_ref()).map_err(|e| e.in_op(op))
    }
}
