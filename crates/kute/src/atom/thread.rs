//! One thread's view of a tiled MMA or copy (CuTe's `ThrMMA` and `ThrCopy`):
//! the part of a tensor that thread owns, as a tensor over the same engine.

use super::{TiledCopy, TiledMma};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::layout::slice::{Coord, Crd};
use crate::layout::Layout;
use crate::tensor::{Engine, Owned, Tensor};
use crate::tree::{Builder, Tree};

/// CuTe's `ThrMMA`: thread `thr_vmnk` of a tiled MMA (`mma.get_slice(t)`).
///
/// ```
/// use kute::atom::{MmaAtom, TiledMma};
/// let m = TiledMma::new(MmaAtom::new("SM80_16x8x8_F16F16F16F16_TN").unwrap(), None, None).unwrap();
/// let c = kute::tensor::make_identity_tensor(&"(_16,_8)".parse().unwrap()).unwrap();
/// let mine = m.get_slice(5).unwrap().partition_c(c).unwrap();
/// // thread 5 owns C(1,2), C(1,3), C(9,2), C(9,3)
/// let owned: Vec<String> = (0..4).map(|i| mine.get(i).unwrap().to_string()).collect();
/// assert_eq!(owned, ["(1,2)", "(1,3)", "(9,2)", "(9,3)"]);
/// ```
#[derive(Clone, Debug)]
pub struct ThrMma<'a> {
    mma: &'a TiledMma,
    vmnk: [i64; 4],
}

impl TiledMma {
    /// CuTe `mma.get_slice(t)`: thread `t`'s view.
    ///
    /// Pre: `0 <= t < size(mma)` (else a `Mismatch` error).
    /// Post: the thread's (V, M, N, K) coordinate is `get_flat_coord(t)` of
    /// the thread layout.
    pub fn get_slice(&self, t: i64) -> Result<ThrMma<'_>> {
        let n = self.size()?.value();
        if !(0..n).contains(&t) {
            return Err(Error::mismatch("get_slice", format!("thread {t} of a TiledMMA of {n} threads")));
        }
        let c = self.thr_layout_vmnk().get_flat_coord(Int::new_dynamic(t))?;
        let mut vmnk = [0i64; 4];
        for (i, x) in vmnk.iter_mut().enumerate() {
            *x = c.get(i)?.as_int().map(|v| v.value()).unwrap_or(0);
        }
        Ok(ThrMma { mma: self, vmnk })
    }
}

/// CuTe's `repeat<rank>(_)`: `_` for rank 1, else a tuple of `rank` of them.
fn push_rest(b: &mut Builder<'_, Crd>, rank: usize) {
    if rank == 1 {
        b.leaf(Crd::Underscore);
    } else {
        b.open();
        for _ in 0..rank {
            b.leaf(Crd::Underscore);
        }
        b.close();
    }
}

/// `(thread, (_, repeat<rank>(_)))`: the coordinate slicing one thread's
/// fragment out of a `thrfrg` (the thread part pushed by `thread`).
pub(crate) fn fragment_coord(thread: impl FnOnce(&mut Builder<'_, Crd>), rank: usize) -> Result<Coord> {
    Tree::try_build(|b| {
        b.open();
        thread(b);
        b.open();
        b.leaf(Crd::Underscore);
        push_rest(b, rank);
        b.close();
        b.close();
        Ok(())
    })
}

fn int(x: i64) -> Crd {
    Crd::Int(Int::new_dynamic(x))
}

impl ThrMma<'_> {
    /// The thread's (V, M, N, K) coordinate.
    pub fn thr_vmnk(&self) -> [i64; 4] {
        self.vmnk
    }

    fn partition<E: Engine>(&self, which: usize, t: Tensor<E>) -> Result<Tensor<E>> {
        let op = ["partition_A", "partition_B", "partition_C"][which.min(2)];
        let (engine, layout, offset) = t.into_parts();
        let l = layout.as_layout(op)?;
        let frg = self.mma.thrfrg(which, l).map_err(|e| e.within(op))?;
        // the thread's coordinates along the operand's two modes of (M, N, K)
        let v = self.vmnk[0];
        let (m0, m1) = super::mma::operand_modes(which);
        let (a, b) = (self.vmnk[1 + m0], self.vmnk[1 + m1]);
        let c = fragment_coord(
            |bld| {
                bld.open();
                bld.leaf(int(v));
                bld.open();
                bld.leaf(int(a));
                bld.leaf(int(b));
                bld.close();
                bld.close();
            },
            l.rank(),
        )?;
        Tensor::with_offset(engine, frg, offset).slice(&c).map_err(|e| e.within(op))
    }

    /// CuTe `thr_mma.partition_A(tensor)`: the thread's values of an A tensor
    /// (M×K), shaped `(FrgV, RestM, RestK)`.
    ///
    /// Pre: the tensor has a plain layout of rank at least 2 (else a `Type` or
    /// `Mismatch` error); as [`TiledMma::thrfrg`].
    pub fn partition_a<E: Engine>(&self, t: Tensor<E>) -> Result<Tensor<E>> {
        self.partition(0, t)
    }

    /// CuTe `thr_mma.partition_B(tensor)` (N×K).
    pub fn partition_b<E: Engine>(&self, t: Tensor<E>) -> Result<Tensor<E>> {
        self.partition(1, t)
    }

    /// CuTe `thr_mma.partition_C(tensor)` (M×N).
    pub fn partition_c<E: Engine>(&self, t: Tensor<E>) -> Result<Tensor<E>> {
        self.partition(2, t)
    }

    /// CuTe `thr_mma.partition_fragment_A/B/C(tensor)` (`which` 0, 1, 2): a
    /// register tensor (owned, `T::default()` everywhere) shaped like the
    /// thread's partition (CuTe's `make_fragment_like`).
    ///
    /// Pre: as the partition. Post: an owned tensor of the partition's shape
    /// with a compact layout (`make_fragment_like` of the partition of a
    /// compact tensor of `t`'s shape, so that a coordinate tensor also has one).
    pub fn partition_fragment<E: Engine, T: Clone + Default>(
        &self,
        which: usize,
        t: Tensor<E>,
    ) -> Result<Tensor<Owned<T>>> {
        // the partition of a compact tensor of the same shape: the fragment's
        // modes in the order of its integer strides (a coordinate tensor has none)
        let shape = t.shape()?;
        let compact = crate::tensor::make_counting_tensor(Layout::from_shape(&shape)?);
        let p = self.partition(which, compact)?;
        let l = crate::algebra::make_fragment_like(p.layout().as_layout("partition_fragment")?)?;
        let n = usize::try_from(l.cosize()?.value())
            .map_err(|_| Error::mismatch("partition_fragment", format!("a fragment of cosize {}", l)))?;
        Ok(Tensor::new(Owned(vec![T::default(); n]), l))
    }
}

/// CuTe's `ThrCopy`: thread `t` of a tiled copy (`copy.get_slice(t)`).
#[derive(Clone, Debug)]
pub struct ThrCopy<'a> {
    copy: &'a TiledCopy,
    thr: i64,
}

impl TiledCopy {
    /// CuTe `copy.get_slice(t)`.
    ///
    /// Pre: `0 <= t < size(copy)` (else a `Mismatch` error).
    pub fn get_slice(&self, t: i64) -> Result<ThrCopy<'_>> {
        let n = self.size()?.value();
        if !(0..n).contains(&t) {
            return Err(Error::mismatch("get_slice", format!("thread {t} of a TiledCopy of {n} threads")));
        }
        Ok(ThrCopy { copy: self, thr: t })
    }
}

impl ThrCopy<'_> {
    fn partition<E: Engine>(&self, t: Tensor<E>, source: bool) -> Result<Tensor<E>> {
        let op = if source { "partition_S" } else { "partition_D" };
        let (engine, layout, offset) = t.into_parts();
        let l: &Layout = layout.as_layout(op)?;
        let frg = self.copy.tidfrg(l, source)?;
        // (thr, _, repeat<rank>(_))
        let rank = l.rank();
        let c: Coord = Tree::try_build(|b| {
            b.open();
            b.leaf(int(self.thr));
            b.leaf(Crd::Underscore);
            push_rest(b, rank);
            b.close();
            Ok(())
        })?;
        Tensor::with_offset(engine, frg, offset).slice(&c).map_err(|e| e.within(op))
    }

    /// CuTe `thr_copy.partition_S(tensor)`: the thread's source values,
    /// `(CopyV, Rest...)`.
    ///
    /// Pre: the tensor has a plain layout whose rank is at least the tile's
    /// (else an error); as [`TiledCopy::tidfrg`].
    ///
    /// ```
    /// use kute::atom::{CopyAtom, TiledCopy};
    /// let atom = CopyAtom::new("UniversalCopy<uint128_t>", "half_t").unwrap();
    /// let c = TiledCopy::make(atom, &"(_32,_4):(_4,_1)".parse().unwrap(), &"(_1,_8):(_8,_1)".parse().unwrap()).unwrap();
    /// let g = kute::tensor::make_identity_tensor(&"(_64,_64)".parse().unwrap()).unwrap();
    /// let mine = c.get_slice(1).unwrap().partition_s(g).unwrap();
    /// assert_eq!(mine.layout().to_string(), "((_8,_1),_2,_2):((_1@1,_0),_32@0,_32@1)");
    /// assert_eq!(mine.get(0).unwrap().to_string(), "(0,8)");
    /// ```
    pub fn partition_s<E: Engine>(&self, t: Tensor<E>) -> Result<Tensor<E>> {
        self.partition(t, true)
    }

    /// CuTe `thr_copy.partition_D(tensor)`.
    pub fn partition_d<E: Engine>(&self, t: Tensor<E>) -> Result<Tensor<E>> {
        self.partition(t, false)
    }
}
