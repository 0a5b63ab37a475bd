//! MMA atoms and tiled MMAs (CuTe's `MMA_Atom` and `TiledMMA`, mma_atom.hpp):
//! how the threads of an MMA instruction, and of a tile of such instructions,
//! own the elements of A, B and C.
//!
//! Every layout here is computed with kute's algebra exactly as CuTe's member
//! functions compute it (`thrfrg_C`, `get_layoutC_TV`, ...), so the answers
//! are CuTe's to the character.

use super::operand::Operand;
use super::traits::{mma_traits, MmaTraits};
use crate::algebra;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::slice::Crd;
use crate::layout::Layout;
use crate::tiler::Tiler;
use std::fmt;

/// CuTe's `MMA_Atom<Op>`: one MMA instruction's threads and their values of
/// A, B and C.
///
/// ```
/// let atom = kute::atom::MmaAtom::new("SM80_16x8x8_F16F16F16F16_TN").unwrap();
/// assert_eq!(atom.layout_c_tv().to_string(), "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))");
/// assert_eq!(atom.shape_mnk().to_string(), "(_16,_8,_8)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MmaAtom {
    traits: MmaTraits,
}

impl MmaAtom {
    /// The atom of the operation named `op` as CuTe spells it
    /// (`SM80_16x8x16_F16F16F16F16_TN`, `SM90_64x64x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>`).
    ///
    /// Pre: kute knows the operation (else an `UnknownName` error) and its
    /// template arguments are well formed and of the right kind (else the other
    /// errors of [`mma_traits`]).
    /// Post: the atom's traits are `mma_traits(op)`, CuTe's `MMA_Traits<Op>`.
    ///
    /// ```
    /// use kute::atom::MmaAtom;
    /// let atom = MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap();
    /// assert_eq!(atom.layout_a_tv().to_string(), "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))");
    /// let e = MmaAtom::new("SM80_16x8x16_F16F16F16F16").unwrap_err();
    /// assert_eq!(e.kind(), kute::ErrorKind::UnknownName);
    /// ```
    pub fn new(op: &str) -> Result<MmaAtom> {
        Ok(MmaAtom { traits: mma_traits(op)? })
    }

    /// The operation's traits.
    ///
    /// Pre: none. Post: the traits the atom was built from; the accessors below
    /// return its fields.
    ///
    /// ```
    /// let atom = kute::atom::MmaAtom::new("SM70_8x8x4_F32F16F16F32_NT").unwrap();
    /// assert_eq!(atom.traits().c.to_string(), "((_2,_2,_2),(_2,_2,_2)):((_1,_16,_4),(_8,_2,_32))");
    /// assert_eq!(&atom.traits().thr_id, atom.thr_id());
    /// ```
    pub fn traits(&self) -> &MmaTraits {
        &self.traits
    }

    /// `Shape_MNK`: the instruction's M, N, K.
    ///
    /// Pre: none. Post: CuTe's `MMA_Traits<Op>::Shape_MNK`, a triple.
    ///
    /// ```
    /// let atom = kute::atom::MmaAtom::new("SM90_64x64x16_F32F16F16_SS").unwrap();
    /// assert_eq!(atom.shape_mnk().to_string(), "(_64,_64,_16)");
    /// ```
    pub fn shape_mnk(&self) -> &IntTuple {
        &self.traits.shape_mnk
    }

    /// `ThrID`: the instruction's threads.
    ///
    /// Pre: none. Post: CuTe's `MMA_Traits<Op>::ThrID` (logical thread to thread index).
    ///
    /// ```
    /// use kute::atom::MmaAtom;
    /// assert_eq!(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap().thr_id().to_string(), "_32:_1");
    /// assert_eq!(MmaAtom::new("SM70_8x8x4_F32F16F16F32_NT").unwrap().thr_id().to_string(), "(_4,_2):(_1,_16)");
    /// ```
    pub fn thr_id(&self) -> &Layout {
        &self.traits.thr_id
    }

    /// `LayoutA_TV`: (thread, value) to the coordinate of A's M×K tile.
    ///
    /// Pre: none. Post: CuTe's `MMA_Traits<Op>::ALayout`.
    ///
    /// ```
    /// let atom = kute::atom::MmaAtom::new("SM90_64x64x16_F32F16F16_SS").unwrap();
    /// assert_eq!(atom.layout_a_tv().to_string(), "(_128,(_64,_16)):(_0,(_1,_64))");
    /// ```
    pub fn layout_a_tv(&self) -> &Layout {
        &self.traits.a
    }

    /// `LayoutB_TV`: (thread, value) to the coordinate of B's N×K tile.
    ///
    /// Pre: none. Post: CuTe's `MMA_Traits<Op>::BLayout`.
    ///
    /// ```
    /// let atom = kute::atom::MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap();
    /// assert_eq!(atom.layout_b_tv().to_string(), "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))");
    /// ```
    pub fn layout_b_tv(&self) -> &Layout {
        &self.traits.b
    }

    /// `LayoutC_TV`: (thread, value) to the coordinate of C's M×N tile.
    ///
    /// Pre: none. Post: CuTe's `MMA_Traits<Op>::CLayout`.
    ///
    /// ```
    /// let atom = kute::atom::MmaAtom::new("SM90_64x64x16_F32F16F16_SS").unwrap();
    /// assert_eq!(atom.layout_c_tv().to_string(), "((_4,_8,_4),(_2,_2,_8)):((_128,_1,_16),(_64,_8,_512))");
    /// ```
    pub fn layout_c_tv(&self) -> &Layout {
        &self.traits.c
    }

    /// The size of mode `i` of `Shape_MNK`.
    fn extent(&self, i: usize) -> Result<Int> {
        self.traits.shape_mnk.get(i)?.size()
    }
}

impl fmt::Display for MmaAtom {
    /// CuTe's `print(MMA_Atom)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "MMA_Atom")?;
        writeln!(f, "  ThrID:      {}", self.thr_id())?;
        writeln!(f, "  Shape_MNK:  {}", self.shape_mnk())?;
        writeln!(f, "  LayoutA_TV: {}", self.layout_a_tv())?;
        writeln!(f, "  LayoutB_TV: {}", self.layout_b_tv())?;
        write!(f, "  LayoutC_TV: {}", self.layout_c_tv())
    }
}

/// CuTe's `TiledMMA`: an atom repeated over a layout of atoms (`AtomLayoutMNK`)
/// and a permutation of each of M, N, K (`PermutationMNK`).
///
/// ```
/// use kute::atom::{MmaAtom, TiledMma};
/// let atom = MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap();
/// let m = TiledMma::new(atom, Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), None).unwrap();
/// assert_eq!(m.layout_c_tv().unwrap().to_string(),
///            "((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_64,_1,_16,_256),((_32,_8),(_0,_0)))");
/// assert_eq!(m.tile_shape().unwrap().to_string(), "(_32,_16,_16)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiledMma {
    atom: MmaAtom,
    thr_layout_vmnk: Layout,
    permutation: Vec<Tiler>,
}

/// CuTe's `make_layout(n)`: `n:_1`, and `_1:_0` for `n = 1`.
fn line(n: Int) -> Layout {
    if n.value() == 1 {
        Layout::leaf(n, Int::ZERO)
    } else {
        Layout::leaf(n, Int::ONE)
    }
}

/// A by-mode tiler of the given elements.
fn tile(items: impl IntoIterator<Item = Tiler>) -> Tiler {
    Tiler::Tuple(items.into_iter().collect())
}

impl TiledMma {
    /// CuTe `make_tiled_mma(atom, atom_layout, permutation)`: the atom layout
    /// padded to rank 3 with `_1:_0`, the permutation padded with `_`.
    ///
    /// Pre: the atom layout has rank at most 3 and the permutation at most 3
    /// modes (else a `Mismatch` error); as CuTe's `tiled_product`.
    /// Post: `get_thr_layout_vmnk() == tiled_product(ThrID, atom_layout)`.
    ///
    /// ```
    /// use kute::atom::{MmaAtom, TiledMma};
    /// let atom = MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap();
    /// let m = TiledMma::new(atom.clone(), Some(&"(_2,_2):(_1,_2)".parse().unwrap()), None).unwrap();
    /// assert_eq!(m.thr_layout_vmnk().to_string(), "(_32,_2,_2,_1):(_1,_32,_64,_0)");
    /// let e = TiledMma::new(atom, Some(&"(_2,_1,_1,_1):(_1,_0,_0,_0)".parse().unwrap()), None).unwrap_err();
    /// assert_eq!(e.kind(), kute::ErrorKind::Mismatch);
    /// ```
    pub fn new(atom: MmaAtom, atom_layout: Option<&Layout>, permutation: Option<&Tiler>) -> Result<TiledMma> {
        crate::sym::refuse("make_tiled_mma", || {
            atom_layout.is_some_and(Layout::has_symbols) || permutation.is_some_and(Tiler::has_symbols)
        })?;
        let op = "make_tiled_mma";
        let unit = Layout::unit();
        let layout = match atom_layout {
            Some(l) => l.clone(),
            None => Layout::from_shape(&IntTuple::tuple_of_leaves([Int::ONE, Int::ONE, Int::ONE]))?,
        };
        if layout.rank() > 3 {
            return Err(Error::mismatch(op, format!("the atom layout {layout} has rank {} > 3", layout.rank())));
        }
        let layout_mnk = layout.append_to(3, &unit)?;
        let mut permutation = match permutation {
            None => Vec::new(),
            Some(Tiler::Tuple(ts)) => ts.clone(),
            Some(t) => vec![t.clone()],
        };
        if permutation.len() > 3 {
            return Err(Error::mismatch(op, format!("the permutation has {} modes > 3", permutation.len())));
        }
        permutation.resize(3, Tiler::Underscore);
        let thr_layout_vmnk = algebra::tiled_product(atom.thr_id(), &layout_mnk).map_err(|e| e.within(op))?;
        Ok(TiledMma { atom, thr_layout_vmnk, permutation })
    }

    /// The atom.
    ///
    /// Pre: none. Post: the atom given to [`TiledMma::new`].
    ///
    /// ```
    /// use kute::atom::{MmaAtom, TiledMma};
    /// let atom = MmaAtom::new("SM80_16x8x8_F16F16F16F16_TN").unwrap();
    /// let m = TiledMma::new(atom.clone(), Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), None).unwrap();
    /// assert_eq!(m.atom(), &atom);
    /// ```
    pub fn atom(&self) -> &MmaAtom {
        &self.atom
    }

    /// `get_thr_layout_vmnk()`: (atom thread, M, N, K) to the thread index.
    ///
    /// Pre: none. Post: a rank-4 layout, `tiled_product(ThrID, atom_layout)` with
    /// the atom layout padded to rank 3; its size is [`TiledMma::size`].
    ///
    /// ```
    /// use kute::atom::{MmaAtom, TiledMma};
    /// let atom = MmaAtom::new("SM70_8x8x4_F32F16F16F32_NT").unwrap();
    /// let m = TiledMma::new(atom, Some(&"(_2,_1,_1):(_1,_0,_0)".parse().unwrap()), None).unwrap();
    /// assert_eq!(m.thr_layout_vmnk().to_string(), "((_4,_2),_2,_1,_1):((_1,_16),_4,_0,_0)");
    /// ```
    pub fn thr_layout_vmnk(&self) -> &Layout {
        &self.thr_layout_vmnk
    }

    fn vmnk_size(&self, i: usize) -> Result<Int> {
        self.thr_layout_vmnk.mode(i)?.size()
    }

    /// `permutation_mnk<I>()`: the permutation of mode `i` (0 = M, 1 = N,
    /// 2 = K), or the atom's extent times the atoms along it where none was given.
    ///
    /// Pre: `i < 3` (else a `Mismatch` error).
    /// Post: the permutation given for mode `i`, unchanged; for `_` (or none
    /// given) the integer `Shape_MNK[i]·size<i+1>(thr_layout_vmnk())`.
    ///
    /// ```
    /// use kute::atom::{MmaAtom, TiledMma};
    /// let p: kute::Tiler = "<_32,(_8,_2,_2):(_1,_16,_8),_16>".parse().unwrap();
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F32F16F16F32_TN").unwrap(),
    ///                       Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), Some(&p)).unwrap();
    /// assert_eq!(m.permutation_mnk(1).unwrap().to_string(), "(_8,_2,_2):(_1,_16,_8)");
    /// assert_eq!((m.tile_size(0).unwrap().value(), m.tile_size(1).unwrap().value()), (32, 32));
    /// assert!(m.permutation_mnk(3).is_err());
    /// ```
    pub fn permutation_mnk(&self, i: usize) -> Result<Tiler> {
        let p = self
            .permutation
            .get(i)
            .ok_or_else(|| Error::mismatch("permutation_mnk", format!("mode {i} of M, N, K")))?;
        Ok(match p {
            Tiler::Underscore => Tiler::Int(self.atom.extent(i)?.mul(self.vmnk_size(i + 1)?)?),
            other => other.clone(),
        })
    }

    /// `tile_size<I>`: the size of mode `i`'s permutation.
    ///
    /// Pre: `i < 3`, and the permutation of mode `i` is not a tuple holding
    /// tuples (else a `Mismatch` error).
    /// Post: `size(permutation_mnk(i))`.
    ///
    /// ```
    /// use kute::atom::{MmaAtom, TiledMma};
    /// let p: kute::Tiler = "<_32,_32,_16>".parse().unwrap();
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
    ///                       Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), Some(&p)).unwrap();
    /// let sizes: Vec<i64> = (0..3).map(|i| m.tile_size(i).unwrap().value()).collect();
    /// assert_eq!(sizes, [32, 32, 16]);
    /// assert!(m.tile_size(3).is_err());
    /// ```
    pub fn tile_size(&self, i: usize) -> Result<Int> {
        match self.permutation_mnk(i)? {
            Tiler::Int(n) => Ok(n),
            Tiler::Layout(l) => l.size(),
            Tiler::Tuple(ts) => {
                let mut n = Int::ONE;
                for t in ts {
                    n = n.mul(match t {
                        Tiler::Int(k) => k,
                        Tiler::Layout(l) => l.size()?,
                        _ => return Err(Error::mismatch("tile_size", "a permutation of nested tuples")),
                    })?;
                }
                Ok(n)
            }
            Tiler::Underscore => Err(Error::mismatch("tile_size", "an unresolved permutation")),
        }
    }

    /// The tile sizes of an operand's two modes.
    pub(crate) fn operand_tile(&self, which: Operand) -> Result<(Int, Int)> {
        let (m0, m1) = which.modes();
        Ok((self.tile_size(m0)?, self.tile_size(m1)?))
    }

    /// `tile_shape`: `(tile_size<0>, tile_size<1>, tile_size<2>)`.
    ///
    /// Pre: as [`TiledMma::tile_size`] for each mode.
    /// Post: the triple of the three tile sizes.
    ///
    /// ```
    /// use kute::atom::{MmaAtom, TiledMma};
    /// let p: kute::Tiler = "<_32,_32,_16>".parse().unwrap();
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
    ///                       Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), Some(&p)).unwrap();
    /// assert_eq!(m.tile_shape().unwrap().to_string(), "(_32,_32,_16)");
    /// ```
    pub fn tile_shape(&self) -> Result<IntTuple> {
        Ok(IntTuple::tuple_of_leaves([self.tile_size(0)?, self.tile_size(1)?, self.tile_size(2)?]))
    }

    /// `size(m)`: the number of threads.
    ///
    /// Pre: none. Post: `size(thr_layout_vmnk())`: `size(ThrID)` times the
    /// number of atoms.
    ///
    /// ```
    /// use kute::atom::{MmaAtom, TiledMma};
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
    ///                       Some(&"(_1,_3,_1):(_0,_1,_0)".parse().unwrap()), None).unwrap();
    /// assert_eq!(m.size().unwrap().value(), 96);
    /// ```
    pub fn size(&self) -> Result<Int> {
        self.thr_layout_vmnk.size()
    }

    /// CuTe's `thrfrg_A/B/C`: a layout of the operand `which`'s tile as
    /// `((ThrV,(Thr0,Thr1)),(FrgV,(Rest0,Rest1)))`.
    ///
    /// Pre: the layout has rank at least 2 (else a `Mismatch` error); as
    /// CuTe's divides.
    /// Post: mode 0 (the threads) has the size of mode 0 of the atom's TV layout
    /// of the operand times the atoms along the operand's two modes; mode 1
    /// starts with `FrgV`, mode 1 of that TV layout.
    ///
    /// ```
    /// use kute::atom::{MmaAtom, Operand, TiledMma};
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x8_F16F16F16F16_TN").unwrap(), None, None).unwrap();
    /// let c = m.thrfrg(Operand::C, &"(_16,_8):(_1,_16)".parse().unwrap()).unwrap();
    /// assert_eq!(c.to_string(), "(((_4,_8),(_1,_1)),((_2,_2),(_1,_1))):(((_32,_1),(_0,_0)),((_16,_8),(_0,_0)))");
    /// ```
    pub fn thrfrg(&self, which: Operand, l: &Layout) -> Result<Layout> {
        let (op, (m0, m1)) = (which.pick(["thrfrg_A", "thrfrg_B", "thrfrg_C"]), which.modes());
        let atom_tv = which.pick([self.atom.layout_a_tv(), self.atom.layout_b_tv(), self.atom.layout_c_tv()]);
        let go = || -> Result<Layout> {
            if l.rank() < 2 {
                return Err(Error::mismatch(op, format!("{l} has rank {}; the operand needs rank 2", l.rank())));
            }
            let t_tile = tile([self.permutation_mnk(m0)?, self.permutation_mnk(m1)?]);
            let t = algebra::logical_divide(l, &t_tile)?;
            let a_tile = tile([Tiler::Layout(line(self.atom.extent(m0)?)), Tiler::Layout(line(self.atom.extent(m1)?))]);
            let a = algebra::zipped_divide(&t, &a_tile)?;
            let tv = algebra::composition_tiler(&a, &tile([Tiler::Layout(atom_tv.clone()), Tiler::Underscore]))?;
            let thr_tile = tile([
                Tiler::Underscore,
                tile([Tiler::Layout(line(self.vmnk_size(m0 + 1)?)), Tiler::Layout(line(self.vmnk_size(m1 + 1)?))]),
            ]);
            algebra::zipped_divide(&tv, &thr_tile)
        };
        go().map_err(|e| e.within(op))
    }

    /// `thridx_2_thrid`: the thread index to the (V,M,N,K) thread id.
    fn thridx_to_thrid(&self) -> Result<Layout> {
        let v = &self.thr_layout_vmnk;
        let n = v.size()?;
        let full = Layout::concat([v, &algebra::complement_self(v)?])?;
        let pick =
            Layout::new(IntTuple::tuple_of_leaves([n, Int::ONE]), IntTuple::tuple_of_leaves([Int::ONE, Int::ZERO]))?;
        algebra::composition(&pick, &algebra::right_inverse(&full)?)
    }

    /// CuTe's `get_layoutA_TV` / `B` / `C` (`which`): (thread index, value)
    /// to the coordinate of the operand's tile.
    ///
    /// Pre: the permutation admits CuTe's divides (else the algebra's error,
    /// within `get_layoutX_TV`).
    /// Post: `((threads),(values))`; mode 0 has size [`TiledMma::size`], and
    /// `R(t, v)` is the column-major index of thread `t`'s value `v` in the
    /// operand's `tile_size × tile_size` tile.
    ///
    /// ```
    /// use kute::atom::{MmaAtom, Operand, TiledMma};
    /// let p: kute::Tiler = "<_32,_32,_16>".parse().unwrap();
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
    ///                       Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), Some(&p)).unwrap();
    /// let b = m.layout_tv(Operand::B).unwrap();
    /// assert_eq!(b.to_string(), "((_4,_8,_2,_2),((_2,_2),(_2,_1))):((_64,_1,_0,_8),((_32,_256),(_16,_0)))");
    /// assert_eq!(b.mode(0).unwrap().size().unwrap(), m.size().unwrap());
    /// ```
    pub fn layout_tv(&self, which: Operand) -> Result<Layout> {
        let op = which.pick(["get_layoutA_TV", "get_layoutB_TV", "get_layoutC_TV"]);
        let go = || -> Result<Layout> {
            let (t0, t1) = self.operand_tile(which)?;
            let reference = Layout::from_shape(&IntTuple::tuple_of_leaves([t0, t1]))?;
            let mut frg = self.thrfrg(which, &reference)?;
            if which != Operand::C {
                // the threads along the other operand's mode own the same values
                let (s1, s2) = (self.vmnk_size(1)?, self.vmnk_size(2)?);
                let stride = if which == Operand::A { [Int::ONE, Int::ZERO] } else { [Int::ZERO, Int::ONE] };
                let bcast = Layout::new(IntTuple::tuple_of_leaves([s1, s2]), IntTuple::tuple_of_leaves(stride))?;
                // CuTe's `.compose(atile, _)`: atile = (_, (bcast, _)) on the thread mode
                let atile = tile([Tiler::Underscore, tile([Tiler::Layout(bcast), Tiler::Underscore])]);
                frg = algebra::composition_tiler(&frg, &tile([atile, Tiler::Underscore]))?;
            }
            let t = tile([Tiler::Layout(self.thridx_to_thrid()?), Tiler::Underscore]);
            algebra::composition_tiler(&frg, &t)
        };
        go().map_err(|e| e.within(op))
    }

    /// `get_layoutA_TV()`.
    ///
    /// Pre: as [`TiledMma::layout_tv`]. Post: `layout_tv(0)`: (thread, value) to
    /// the M×K tile of A.
    ///
    /// ```
    /// use kute::atom::{MmaAtom, TiledMma};
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
    ///                       Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), None).unwrap();
    /// assert_eq!(m.layout_a_tv().unwrap().to_string(),
    ///            "((_4,_8,_2,_2),((_2,_2,_2),(_1,_1))):((_64,_1,_16,_0),((_32,_8,_256),(_0,_0)))");
    /// ```
    pub fn layout_a_tv(&self) -> Result<Layout> {
        self.layout_tv(Operand::A)
    }

    /// `get_layoutB_TV()`.
    ///
    /// Pre: as [`TiledMma::layout_tv`]. Post: `layout_tv(1)`: (thread, value) to
    /// the N×K tile of B.
    ///
    /// ```
    /// use kute::atom::{MmaAtom, TiledMma};
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
    ///                       Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), None).unwrap();
    /// assert_eq!(m.layout_b_tv().unwrap().to_string(),
    ///            "((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_32,_1,_0,_8),((_16,_128),(_0,_0)))");
    /// ```
    pub fn layout_b_tv(&self) -> Result<Layout> {
        self.layout_tv(Operand::B)
    }

    /// `get_layoutC_TV()`.
    ///
    /// Pre: as [`TiledMma::layout_tv`]. Post: `layout_tv(2)`: (thread, value) to
    /// the M×N tile of C.
    ///
    /// ```
    /// use kute::atom::{MmaAtom, TiledMma};
    /// let p: kute::Tiler = "<_32,_32,_16>".parse().unwrap();
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
    ///                       Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), Some(&p)).unwrap();
    /// assert_eq!(m.layout_c_tv().unwrap().to_string(),
    ///            "((_4,_8,_2,_2),((_2,_2),(_1,_2))):((_64,_1,_16,_256),((_32,_8),(_0,_512)))");
    /// ```
    pub fn layout_c_tv(&self) -> Result<Layout> {
        self.layout_tv(Operand::C)
    }

    /// CuTe's `partition_shape_A/B/C(m, shape)` (`which`): the shape of one
    /// thread's fragment of an operand of that shape, `(FrgV, Rest...)`.
    ///
    /// Pre: the shape has rank at least 2 (else a `Mismatch` error); as
    /// [`TiledMma::thrfrg`].
    /// Post: `FrgV` is the shape of mode 1 of the atom's TV layout of the
    /// operand; where the tile sizes divide the shape, the fragment's size times
    /// the threads along the operand's two modes is `size(shape)`.
    ///
    /// ```
    /// use kute::atom::{MmaAtom, Operand, TiledMma};
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
    ///                       Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), None).unwrap();
    /// assert_eq!(m.partition_shape(Operand::A, &"(_64,_32)".parse().unwrap()).unwrap().to_string(), "((_2,_2,_2),_2,_2)");
    /// assert_eq!(m.partition_shape(Operand::C, &"(_128,_128)".parse().unwrap()).unwrap().to_string(), "((_2,_2),_4,_8)");
    /// ```
    pub fn partition_shape(&self, which: Operand, shape: &IntTuple) -> Result<IntTuple> {
        let dummy = Layout::from_shape(shape)?;
        let tv = self.thrfrg(which, &dummy)?;
        // (0, (_, repeat<rank>(_))): thread 0, every value and rest
        let coord = super::operand::fragment_coord(|b| b.leaf(Crd::Int(Int::ZERO)), dummy.rank())?;
        Ok(tv.slice(&coord)?.shape())
    }
}

impl fmt::Display for TiledMma {
    /// CuTe's `print(TiledMMA)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "TiledMMA")?;
        writeln!(f, "  ThrLayoutVMNK:  {}", self.thr_layout_vmnk)?;
        // a tile prints as CuTe prints it: `(_,_,_)`, `(_32,_32,_16)`
        writeln!(f, "  PermutationMNK: {}", Tiler::Tuple(self.permutation.clone()))?;
        write!(f, "{}", self.atom)
    }
}
