//! One thread's view of a tiled MMA or copy (CuTe's `ThrMMA` and `ThrCopy`):
//! the part of a tensor that thread owns, as a tensor over the same engine.

use super::operand::{fragment_coord, push_rest, Operand, Side};
use super::{TiledCopy, TiledMma};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::layout::slice::{Coord, Crd};
use crate::layout::Layout;
use crate::tensor::{Engine, Owned, Tensor};
use crate::tree::Tree;

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
    ///
    /// ```
    /// use kute::atom::{MmaAtom, TiledMma};
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
    ///                       Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), None).unwrap();
    /// // get_thr_layout_vmnk is (_32,_2,_2,_1):(_1,_32,_64,_0): 100 = 4 + 32·1 + 64·1
    /// assert_eq!(m.get_slice(100).unwrap().thr_vmnk(), [4, 1, 1, 0]);
    /// assert!(m.get_slice(128).is_err());
    /// ```
    pub fn get_slice(&self, t: i64) -> Result<ThrMma<'_>> {
        let n = self.size()?.value();
        if !(0..n).contains(&t) {
            return Err(Error::mismatch("get_slice", format!("thread {t} of a TiledMMA of {n} threads")));
        }
        let c = self.thr_layout_vmnk().get_flat_coord(Int::new_dynamic(t))?;
        let mut vmnk = [0i64; 4];
        for (i, x) in vmnk.iter_mut().enumerate() {
            // (a flat coordinate of a rank-4 layout: four integers)
            *x = c.get(i)?.as_int().map(|v| v.value()).ok_or_else(|| {
                Error::mismatch("get_slice", format!("the thread coordinate {c} of thread {t} is not flat"))
            })?;
        }
        Ok(ThrMma { mma: self, vmnk })
    }
}

fn int(x: i64) -> Crd {
    Crd::Int(Int::new_dynamic(x))
}

impl ThrMma<'_> {
    /// The thread's (V, M, N, K) coordinate.
    ///
    /// Pre: none. Post: `get_thr_layout_vmnk()(thr_vmnk()) == t`, each
    /// coordinate within its mode's extent.
    ///
    /// ```
    /// use kute::atom::{MmaAtom, TiledMma};
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
    ///                       Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), None).unwrap();
    /// // get_thr_layout_vmnk is (_32,_2,_2,_1):(_1,_32,_64,_0): 37 = 5 + 32·1
    /// assert_eq!(m.get_slice(37).unwrap().thr_vmnk(), [5, 1, 0, 0]);
    /// ```
    pub fn thr_vmnk(&self) -> [i64; 4] {
        self.vmnk
    }

    fn partition<E: Engine>(&self, which: Operand, t: Tensor<E>) -> Result<Tensor<E>> {
        let (op, (m0, m1)) = (which.pick(["partition_A", "partition_B", "partition_C"]), which.modes());
        let (engine, layout, offset) = t.into_parts();
        let l = layout.as_layout(op)?;
        let frg = self.mma.thrfrg(which, l).map_err(|e| e.within(op))?;
        // the thread's coordinates along the operand's two modes of (M, N, K)
        let v = self.vmnk[0];
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
    /// Post: a tensor over the same engine, of shape
    /// [`TiledMma::partition_shape`]`(0, shape(t))`; its value `v` of the
    /// first tile is the element of `t` at `get_layoutA_TV(thread, v)`.
    ///
    /// ```
    /// use kute::atom::{MmaAtom, TiledMma};
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(), None, None).unwrap();
    /// let a = kute::tensor::make_identity_tensor(&"(_16,_16)".parse().unwrap()).unwrap();
    /// let mine = m.get_slice(5).unwrap().partition_a(a).unwrap();
    /// let owned: Vec<String> = (0..8).map(|i| mine.get(i).unwrap().to_string()).collect();
    /// assert_eq!(owned, ["(1,2)", "(1,3)", "(9,2)", "(9,3)", "(1,10)", "(1,11)", "(9,10)", "(9,11)"]);
    /// ```
    pub fn partition_a<E: Engine>(&self, t: Tensor<E>) -> Result<Tensor<E>> {
        self.partition(Operand::A, t)
    }

    /// CuTe `thr_mma.partition_B(tensor)` (N×K).
    ///
    /// Pre: as [`ThrMma::partition_a`].
    /// Post: a tensor over the same engine, of shape
    /// [`TiledMma::partition_shape`]`(1, shape(t))`; its value `v` of the
    /// first tile is the element of `t` at `get_layoutB_TV(thread, v)`.
    ///
    /// ```
    /// use kute::atom::{MmaAtom, TiledMma};
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(), None, None).unwrap();
    /// let b = kute::tensor::make_identity_tensor(&"(_8,_16)".parse().unwrap()).unwrap();
    /// let mine = m.get_slice(5).unwrap().partition_b(b).unwrap();
    /// let owned: Vec<String> = (0..4).map(|i| mine.get(i).unwrap().to_string()).collect();
    /// assert_eq!(owned, ["(1,2)", "(1,3)", "(1,10)", "(1,11)"]);
    /// ```
    pub fn partition_b<E: Engine>(&self, t: Tensor<E>) -> Result<Tensor<E>> {
        self.partition(Operand::B, t)
    }

    /// CuTe `thr_mma.partition_C(tensor)` (M×N).
    ///
    /// Pre: as [`ThrMma::partition_a`].
    /// Post: a tensor over the same engine, of shape
    /// [`TiledMma::partition_shape`]`(2, shape(t))`; its value `v` of the
    /// first tile is the element of `t` at `get_layoutC_TV(thread, v)`.
    ///
    /// ```
    /// use kute::atom::{MmaAtom, TiledMma};
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
    ///                       Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), None).unwrap();
    /// let c = kute::tensor::make_identity_tensor(&"(_32,_16)".parse().unwrap()).unwrap();
    /// let mine = m.get_slice(100).unwrap().partition_c(c).unwrap();
    /// let owned: Vec<String> = (0..4).map(|i| mine.get(i).unwrap().to_string()).collect();
    /// assert_eq!(owned, ["(17,8)", "(17,9)", "(25,8)", "(25,9)"]);
    /// ```
    pub fn partition_c<E: Engine>(&self, t: Tensor<E>) -> Result<Tensor<E>> {
        self.partition(Operand::C, t)
    }

    /// CuTe `thr_mma.partition_fragment_A/B/C(tensor)` (`which`): a
    /// register tensor (owned, `T::default()` everywhere) shaped like the
    /// thread's partition (CuTe's `make_fragment_like`).
    ///
    /// Pre: as the partition.
    /// Post: an owned tensor of the partition's shape
    /// with a compact layout (`make_fragment_like` of the partition of a
    /// compact tensor of `t`'s shape, so that a coordinate tensor also has one).
    ///
    /// ```
    /// use kute::atom::{MmaAtom, Operand, TiledMma};
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x8_F16F16F16F16_TN").unwrap(), None, None).unwrap();
    /// let c = kute::tensor::make_identity_tensor(&"(_16,_8)".parse().unwrap()).unwrap();
    /// let frag = m.get_slice(5).unwrap().partition_fragment::<_, f32>(Operand::C, c).unwrap();
    /// assert_eq!(frag.layout().to_string(), "((_2,_2),_1,_1):((_1,_2),_0,_0)");
    /// assert_eq!(frag.engine().0, vec![0.0f32; 4]);
    /// ```
    pub fn partition_fragment<E: Engine, T: Clone + Default>(
        &self,
        which: Operand,
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
    /// Post: thread `t`'s view of the copy.
    ///
    /// ```
    /// use kute::atom::{CopyAtom, TiledCopy};
    /// let atom = CopyAtom::new("UniversalCopy<uint128_t>", "half_t").unwrap();
    /// let lay = |s: &str| s.parse::<kute::Layout>().unwrap();
    /// let c = TiledCopy::make(atom, &lay("(_32,_4):(_4,_1)"), &lay("(_1,_8):(_8,_1)")).unwrap();
    /// assert!(c.get_slice(127).is_ok()); // size(c) is 128
    /// assert!(c.get_slice(128).is_err() && c.get_slice(-1).is_err());
    /// ```
    pub fn get_slice(&self, t: i64) -> Result<ThrCopy<'_>> {
        let n = self.size()?.value();
        if !(0..n).contains(&t) {
            return Err(Error::mismatch("get_slice", format!("thread {t} of a TiledCopy of {n} threads")));
        }
        Ok(ThrCopy { copy: self, thr: t })
    }
}

impl ThrCopy<'_> {
    fn partition<E: Engine>(&self, t: Tensor<E>, side: Side) -> Result<Tensor<E>> {
        let op = match side {
            Side::Source => "partition_S",
            Side::Destination => "partition_D",
        };
        let (engine, layout, offset) = t.into_parts();
        let l: &Layout = layout.as_layout(op)?;
        let frg = self.copy.tidfrg(l, side)?;
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
    /// Post: a tensor over the same engine; its value `v` of the first tile is
    /// the element of `t` at `get_layoutS_TV(thread, v)` in the `Tiler_MN` tile.
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
        self.partition(t, Side::Source)
    }

    /// CuTe `thr_copy.partition_D(tensor)`: the thread's destination values,
    /// `(CopyV, Rest...)`.
    ///
    /// Pre: as [`ThrCopy::partition_s`].
    /// Post: a tensor over the same engine; its value `v` of the first tile is
    /// the element of `t` at `get_layoutD_TV(thread, v)` in the `Tiler_MN` tile.
    ///
    /// ```
    /// use kute::atom::{CopyAtom, MmaAtom, TiledCopy, TiledMma};
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
    ///                       Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), None).unwrap();
    /// let c = TiledCopy::for_mma(CopyAtom::new("SM75_U32x4_LDSM_N", "half_t").unwrap(), &m, kute::atom::Operand::A).unwrap();
    /// let a = || kute::tensor::make_identity_tensor(&"(_32,_16)".parse().unwrap()).unwrap();
    /// let thr = c.get_slice(1).unwrap();
    /// let (src, dst) = (thr.partition_s(a()).unwrap(), thr.partition_d(a()).unwrap());
    /// assert_eq!(src.get(1).unwrap().to_string(), "(1,1)"); // ldmatrix: thread 1 reads row 1
    /// let owned: Vec<String> = (0..5).map(|i| dst.get(i).unwrap().to_string()).collect();
    /// assert_eq!(owned, ["(0,2)", "(0,3)", "(8,2)", "(8,3)", "(0,10)"]); // and receives A's fragment
    /// ```
    pub fn partition_d<E: Engine>(&self, t: Tensor<E>) -> Result<Tensor<E>> {
        self.partition(t, Side::Destination)
    }

    /// CuTe `thr_copy.retile_S(tensor)`: the tensor over the same engine,
    /// its layout [`TiledCopy::retile`]d (a register fragment seen as this
    /// copy's source values).
    ///
    /// Pre: the tensor has a plain layout (else a `Type` error); as
    /// [`TiledCopy::retile`]. Post: same engine and offset, layout `retile(layout)`.
    ///
    /// ```
    /// use kute::atom::{CopyAtom, MmaAtom, Operand, TiledCopy, TiledMma};
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(), None, None).unwrap();
    /// let c = TiledCopy::for_mma(CopyAtom::new("SM75_U32x4_LDSM_N", "half_t").unwrap(), &m, Operand::A).unwrap();
    /// let frag = kute::tensor::make_counting_tensor("((_2,_2,_2),_1,_2):((_1,_2,_4),_0,_8)".parse::<kute::Layout>().unwrap());
    /// let r = c.get_slice(0).unwrap().retile_s(frag).unwrap();
    /// assert_eq!(r.layout().to_string(), c.retile(&"((_2,_2,_2),_1,_2):((_1,_2,_4),_0,_8)".parse().unwrap()).unwrap().to_string());
    /// ```
    pub fn retile_s<E: Engine>(&self, t: Tensor<E>) -> Result<Tensor<E>> {
        self.retile(t, "retile_S")
    }

    /// CuTe `thr_copy.retile_D(tensor)`: the same as [`ThrCopy::retile_s`]
    /// (CuTe's two are one function), named for the destination.
    ///
    /// Pre: as [`ThrCopy::retile_s`]. Post: as [`ThrCopy::retile_s`].
    ///
    /// ```
    /// use kute::atom::{CopyAtom, TiledCopy};
    /// let atom = CopyAtom::new("UniversalCopy<uint32_t>", "half_t").unwrap();
    /// let c = TiledCopy::make(atom, &"(_32,_4):(_4,_1)".parse().unwrap(), &"(_1,_2):(_2,_1)".parse().unwrap()).unwrap();
    /// let frag = || kute::tensor::make_counting_tensor("(_2,_4,_2):(_1,_2,_8)".parse::<kute::Layout>().unwrap());
    /// let thr = c.get_slice(5).unwrap();
    /// assert_eq!(thr.retile_d(frag()).unwrap().layout(), thr.retile_s(frag()).unwrap().layout());
    /// ```
    pub fn retile_d<E: Engine>(&self, t: Tensor<E>) -> Result<Tensor<E>> {
        self.retile(t, "retile_D")
    }

    fn retile<E: Engine>(&self, t: Tensor<E>, op: &'static str) -> Result<Tensor<E>> {
        let (engine, layout, offset) = t.into_parts();
        let l = self.copy.retile(layout.as_layout(op)?).map_err(|e| e.within(op))?;
        Ok(Tensor::with_offset(engine, crate::AnyLayout::Layout(l), offset))
    }
}
