//! CuTe's partitions of tensors (`tensor_impl.hpp`): `inner_partition`
//! (`local_tile`) keeps a tile, `outer_partition` (`local_partition`) keeps
//! the elements of one thread across all tiles. Each is a divide followed by a
//! slice: a new layout and offset over the same engine.

use super::{Engine, Tensor};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::layout::slice::{Coord, Crd};
use crate::layout::Layout;
use crate::tiler::Tiler;
use crate::tree::{Builder, Tree};

/// `rank` copies of `_`, as one mode: `_` itself for rank 1 (CuTe `repeat<R>(_)`).
fn push_underscores(b: &mut Builder<'_, Crd>, rank: usize) {
    if rank == 1 {
        b.leaf(Crd::Underscore);
        return;
    }
    b.open();
    for _ in 0..rank {
        b.leaf(Crd::Underscore);
    }
    b.close();
}

/// `coord` as one mode addressing a mode of rank `rank`: a tuple is padded
/// with `_` to that rank (CuTe `append<R>(coord, _)`), an integer is a 1-D
/// coordinate (flat indexing).
fn push_coord(b: &mut Builder<'_, Crd>, coord: &Coord, rank: usize) -> Result<()> {
    if coord.is_leaf() {
        b.push(coord.as_ref());
        return Ok(());
    }
    if coord.rank() > rank {
        return Err(Error::mismatch(
            "partition",
            format!("the coordinate {coord} has more modes than the {rank} mode(s) it indexes"),
        ));
    }
    b.open();
    for c in coord.as_ref().children() {
        b.push(c);
    }
    for _ in coord.rank()..rank {
        b.leaf(Crd::Underscore);
    }
    b.close();
    Ok(())
}

impl<E: Engine> Tensor<E> {
    /// The ranks of the two modes of a zipped divide.
    fn zipped_ranks(&self) -> Result<(usize, usize)> {
        let s = self.shape()?;
        let r = s.as_ref();
        match (r.mode(0), r.mode(1)) {
            (Some(a), Some(b)) if r.rank() == 2 && !r.is_leaf() => Ok((a.rank(), b.rank())),
            _ => Err(Error::mismatch("partition", format!("{s} is not the ((tile),(rest)) shape of a zipped divide"))),
        }
    }

    /// CuTe `inner_partition(tensor, tiler, coord)`: `zipped_divide` by the
    /// tiler, then the tile at `coord` in the rest mode (a tuple `coord` is
    /// padded with `_`, an integer indexes the rest mode 1-D).
    ///
    /// Pre: as [`Tensor::zipped_divide`] and [`Tensor::slice`]. Post: the tile
    /// (modes of the tiler, plus the rest modes at `_` in `coord`).
    ///
    /// ```
    /// let t = kute::tensor::make_counting_tensor("(_8,_12):(_12,_1)".parse::<kute::Layout>().unwrap());
    /// let tile = t.inner_partition(&"(_4,_3)".parse().unwrap(), &kute::expr::parse_coord("(1,2)").unwrap()).unwrap();
    /// assert_eq!((tile.layout().to_string(), tile.get(0).unwrap()), ("(_4,_3):(_12,_1)".to_string(), 54));
    /// ```
    pub fn inner_partition(self, tiler: &Tiler, coord: &Coord) -> Result<Tensor<E>> {
        let tiled = self.zipped_divide(tiler)?;
        let (r0, r1) = tiled.zipped_ranks()?;
        let c = Tree::try_build(|b| {
            b.open();
            push_underscores(b, r0);
            push_coord(b, coord, r1)?;
            b.close();
            Ok(())
        })?;
        tiled.slice(&c)
    }

    /// CuTe `outer_partition(tensor, tiler, coord)`: `zipped_divide` by the
    /// tiler, then the element `coord` of every tile.
    ///
    /// Pre: as [`Tensor::inner_partition`]. Post: the rest modes.
    ///
    /// ```
    /// let t = kute::tensor::make_counting_tensor("(_4,_6):(_1,_4)".parse::<kute::Layout>().unwrap());
    /// let p = t.outer_partition(&"(_2,_3)".parse().unwrap(), &kute::expr::parse_coord("(1,0)").unwrap()).unwrap();
    /// assert_eq!((p.layout().to_string(), p.get(0).unwrap()), ("(_2,_2):(_2,_12)".to_string(), 1));
    /// ```
    pub fn outer_partition(self, tiler: &Tiler, coord: &Coord) -> Result<Tensor<E>> {
        let tiled = self.zipped_divide(tiler)?;
        let (r0, r1) = tiled.zipped_ranks()?;
        let c = Tree::try_build(|b| {
            b.open();
            push_coord(b, coord, r0)?;
            push_underscores(b, r1);
            b.close();
            Ok(())
        })?;
        tiled.slice(&c)
    }

    /// CuTe `local_tile(tensor, tiler, coord)`, the same as
    /// [`Tensor::inner_partition`]: the tile at `coord` (a CTA's tile).
    ///
    /// Pre/Post: as [`Tensor::inner_partition`].
    ///
    /// ```
    /// let t = kute::tensor::make_identity_tensor(&"(_8,_12)".parse().unwrap()).unwrap();
    /// let tile = t.local_tile(&"(_4,_3)".parse().unwrap(), &kute::expr::parse_coord("(1,2)").unwrap()).unwrap();
    /// assert_eq!(tile.get(0).unwrap().to_string(), "(4,6)");
    /// ```
    pub fn local_tile(self, tiler: &Tiler, coord: &Coord) -> Result<Tensor<E>> {
        self.inner_partition(tiler, coord)
    }

    /// CuTe `local_partition(tensor, thr_layout, thr_idx)`:
    /// `outer_partition(tensor, product_each(shape(thr_layout)),
    /// thr_layout.get_flat_coord(thr_idx))`, the elements of thread `thr_idx`.
    ///
    /// Pre: `0 <= thr_idx < size(thr_layout)` (else a `Mismatch` error); as
    /// [`Tensor::outer_partition`]. Post: the thread's elements, one per tile.
    ///
    /// ```
    /// let t = kute::tensor::make_identity_tensor(&"(_8,_12)".parse().unwrap()).unwrap();
    /// let p = t.local_partition(&"(_2,_3):(_3,_1)".parse().unwrap(), 4).unwrap();
    /// assert_eq!(p.layout().to_string(), "(_4,_4):(_2@0,_3@1)");
    /// assert_eq!(p.get(0).unwrap().to_string(), "(1,1)");
    /// ```
    pub fn local_partition(self, thr: &Layout, thr_idx: i64) -> Result<Tensor<E>> {
        let n = thr.size()?.concrete("local_partition")?;
        if !(0..n).contains(&thr_idx) {
            return Err(Error::mismatch(
                "local_partition",
                format!("the thread index {thr_idx} is outside the thread layout {thr} (0 to {})", n - 1),
            ));
        }
        let tiler = Tiler::from(&crate::int_tuple::product_each(thr.shape().as_ref())?);
        let flat = thr.get_flat_coord(Int::new_dynamic(thr_idx))?;
        let coord = flat.map(Crd::Int);
        self.outer_partition(&tiler, &coord)
    }
}
