//! MMA atoms and tiled MMAs (CuTe's `MMA_Atom` and `TiledMMA`, mma_atom.hpp):
//! how the threads of an MMA instruction, and of a tile of such instructions,
//! own the elements of A, B and C.
//!
//! Every layout here is computed with kute's algebra exactly as CuTe's member
//! functions compute it (`thrfrg_C`, `get_layoutC_TV`, ...), so the answers
//! are CuTe's to the character.

use super::traits::{mma_traits, MmaTraits};
use crate::algebra::{self, Tiler};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::slice::Crd;
use crate::layout::Layout;
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
    /// Pre: kute knows the operation (else an `UnknownName` error).
    pub fn new(op: &str) -> Result<MmaAtom> {
        Ok(MmaAtom { traits: mma_traits(op)? })
    }

    /// The operation's traits.
    pub fn traits(&self) -> &MmaTraits {
        &self.traits
    }

    /// `Shape_MNK`: the instruction's M, N, K.
    pub fn shape_mnk(&self) -> &IntTuple {
        &self.traits.shape_mnk
    }

    /// `ThrID`: the instruction's threads.
    pub fn thr_id(&self) -> &Layout {
        &self.traits.thr_id
    }

    /// `LayoutA_TV`: (thread, value) to the coordinate of A's M×K tile.
    pub fn layout_a_tv(&self) -> &Layout {
        &self.traits.a
    }

    /// `LayoutB_TV`: (thread, value) to the coordinate of B's N×K tile.
    pub fn layout_b_tv(&self) -> &Layout {
        &self.traits.b
    }

    /// `LayoutC_TV`: (thread, value) to the coordinate of C's M×N tile.
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

/// The modes of M, N, K an operand spans (`which` 0 for A: M×K, 1 for B:
/// N×K, 2 for C: M×N).
pub(crate) fn operand_modes(which: usize) -> (usize, usize) {
    match which {
        0 => (0, 2),
        1 => (1, 2),
        _ => (0, 1),
    }
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
    pub fn new(atom: MmaAtom, atom_layout: Option<&Layout>, permutation: Option<&Tiler>) -> Result<TiledMma> {
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
    pub fn atom(&self) -> &MmaAtom {
        &self.atom
    }

    /// `get_thr_layout_vmnk()`: (atom thread, M, N, K) to the thread index.
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
    /// Pre: `i < 3` (else a `Mismatch` error).
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

    /// The tile sizes of an operand's two modes (`which` 0, 1, 2 for A, B, C).
    pub(crate) fn operand_tile(&self, which: usize) -> Result<(Int, Int)> {
        let (m0, m1) = operand_modes(which);
        Ok((self.tile_size(m0)?, self.tile_size(m1)?))
    }

    /// `tile_shape`: `(tile_size<0>, tile_size<1>, tile_size<2>)`.
    pub fn tile_shape(&self) -> Result<IntTuple> {
        Ok(IntTuple::tuple_of_leaves([self.tile_size(0)?, self.tile_size(1)?, self.tile_size(2)?]))
    }

    /// `size(m)`: the number of threads.
    pub fn size(&self) -> Result<Int> {
        self.thr_layout_vmnk.size()
    }

    /// CuTe's `thrfrg_A/B/C`: a layout of the operand tile (`which` = 0 for A
    /// (M×K), 1 for B (N×K), 2 for C (M×N)) as
    /// `((ThrV,(Thr0,Thr1)),(FrgV,(Rest0,Rest1)))`.
    ///
    /// Pre: the layout has rank at least 2 (else a `Mismatch` error); as CuTe's divides.
    ///
    /// ```
    /// use kute::atom::{MmaAtom, TiledMma};
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x8_F16F16F16F16_TN").unwrap(), None, None).unwrap();
    /// let c = m.thrfrg(2, &"(_16,_8):(_1,_16)".parse().unwrap()).unwrap();
    /// assert_eq!(c.to_string(), "(((_4,_8),(_1,_1)),((_2,_2),(_1,_1))):(((_32,_1),(_0,_0)),((_16,_8),(_0,_0)))");
    /// ```
    pub fn thrfrg(&self, which: usize, l: &Layout) -> Result<Layout> {
        let (op, atom_tv) = match which {
            0 => ("thrfrg_A", self.atom.layout_a_tv()),
            1 => ("thrfrg_B", self.atom.layout_b_tv()),
            _ => ("thrfrg_C", self.atom.layout_c_tv()),
        };
        let (m0, m1) = operand_modes(which);
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

    /// CuTe's `get_layoutA_TV` / `B` / `C` (`which` 0, 1, 2): (thread index,
    /// value) to the coordinate of the operand's tile.
    pub fn layout_tv(&self, which: usize) -> Result<Layout> {
        let op = ["get_layoutA_TV", "get_layoutB_TV", "get_layoutC_TV"][which.min(2)];
        let go = || -> Result<Layout> {
            let (t0, t1) = self.operand_tile(which)?;
            let reference = Layout::from_shape(&IntTuple::tuple_of_leaves([t0, t1]))?;
            let mut frg = self.thrfrg(which, &reference)?;
            if which < 2 {
                // the threads along the other operand's mode own the same values
                let (s1, s2) = (self.vmnk_size(1)?, self.vmnk_size(2)?);
                let stride = if which == 0 { [Int::ONE, Int::ZERO] } else { [Int::ZERO, Int::ONE] };
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
    pub fn layout_a_tv(&self) -> Result<Layout> {
        self.layout_tv(0)
    }

    /// `get_layoutB_TV()`.
    pub fn layout_b_tv(&self) -> Result<Layout> {
        self.layout_tv(1)
    }

    /// `get_layoutC_TV()`.
    pub fn layout_c_tv(&self) -> Result<Layout> {
        self.layout_tv(2)
    }

    /// CuTe's `partition_shape_A/B/C(m, shape)` (`which` 0, 1, 2): the shape of
    /// one thread's fragment of an operand of that shape, `(FrgV, Rest...)`.
    ///
    /// ```
    /// use kute::atom::{MmaAtom, TiledMma};
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
    ///                       Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), None).unwrap();
    /// assert_eq!(m.partition_shape(0, &"(_64,_32)".parse().unwrap()).unwrap().to_string(), "((_2,_2,_2),_2,_2)");
    /// ```
    pub fn partition_shape(&self, which: usize, shape: &IntTuple) -> Result<IntTuple> {
        let dummy = Layout::from_shape(shape)?;
        let tv = self.thrfrg(which, &dummy)?;
        // (0, (_, repeat<rank>(_))): thread 0, every value and rest
        let coord = super::thread::fragment_coord(|b| b.leaf(Crd::Int(Int::ZERO)), dummy.rank())?;
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
