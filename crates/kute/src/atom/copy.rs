//! Copy atoms and tiled copies (CuTe's `Copy_Atom` and `TiledCopy`,
//! copy_atom.hpp): which thread moves which values of a tile, for an
//! instruction (`ldmatrix`, `cp.async`, a plain vector copy) and for a tile of
//! such instructions.
//!
//! As in [`super::mma`], every layout is CuTe's member function computed with
//! kute's algebra.

use super::mma::TiledMma;
use super::operand::{Operand, Side};
use super::traits::{copy_traits, CopyTraits};
use crate::algebra;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{self, IntTuple};
use crate::layout::slice::{Coord, Crd};
use crate::layout::Layout;
use crate::tiler::Tiler;
use crate::tree::Tree;
use std::fmt;

/// CuTe's `Copy_Atom<Op, T>`: a copy instruction moving values of type `T`.
///
/// ```
/// let a = kute::atom::CopyAtom::new("SM75_U32x4_LDSM_N", "half_t").unwrap();
/// assert_eq!(a.val_layout_src().to_string(), "(_32,_8):(_8,_1)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyAtom {
    traits: CopyTraits,
    val_type: String,
    val_bits: i64,
    src: Layout,
    dst: Layout,
    reference: Layout,
    /// A TMA atom's descriptor and gmem basis (`make_tma_copy`).
    tma: Option<Box<super::tma_desc::TmaParams>>,
    /// An im2col TMA atom's descriptor and coordinate tensor (`make_im2col_tma_copy`).
    im2col: Option<Box<super::tma_im2col_desc::Im2colParams>>,
}

impl CopyAtom {
    /// The atom of operation `op` moving values of type `val_type` (CuTe's
    /// names: `half_t`, `float`, `uint128_t`, ...).
    ///
    /// Pre: kute knows the operation and the type (else an `UnknownName`
    /// error); the bit layouts recast to `val_type` keep the atom's threads
    /// (CuTe's static assertions; else an `Inadmissible` error).
    /// Post: `ValLayoutSrc/Dst/Ref` are the traits' bit layouts in units of `val_type`.
    ///
    /// ```
    /// use kute::{atom::CopyAtom, ErrorKind};
    /// let a = CopyAtom::new("SM75_U32x4_LDSM_N", "half_t").unwrap();
    /// assert_eq!(a.val_layout_dst().to_string(), "(_32,(_2,_4)):(_2,(_1,_64))");
    /// assert_eq!(CopyAtom::new("SM75_U32x4_LDSM_N", "no_such_t").unwrap_err().kind(), ErrorKind::UnknownName);
    /// // CuTe rejects it too: the destination recast to 64 bits has 16 threads, not 32
    /// assert_eq!(CopyAtom::new("SM75_U32x4_LDSM_N", "double").unwrap_err().kind(), ErrorKind::Inadmissible);
    /// ```
    pub fn new(op: &str, val_type: &str) -> Result<CopyAtom> {
        CopyAtom::with_traits(copy_traits(op)?, val_type)
    }

    /// The atom of the given traits moving values of type `val_type`.
    pub(crate) fn with_traits(traits: CopyTraits, val_type: &str) -> Result<CopyAtom> {
        let op = traits.name.clone();
        let bits = algebra::sizeof_bits(val_type).ok_or_else(|| {
            let hint = super::traits::type_hint(val_type);
            Error::new(crate::ErrorKind::UnknownName, "Copy_Atom", format!("unknown value type '{val_type}'{hint}"))
        })?;
        let recast = |l: &Layout| algebra::recast_layout(l, 1, bits).map_err(|e| e.within("Copy_Atom"));
        let (src, dst, reference) = (recast(&traits.src)?, recast(&traits.dst)?, recast(&traits.r#ref)?);
        let threads = traits.thr_id.size()?;
        for (what, l) in [("source", &src), ("destination", &dst), ("reference", &reference)] {
            if l.mode(0)?.size()? != threads {
                return Err(Error::inadmissible(
                    "Copy_Atom",
                    format!("{op} is not valid for the {what} of {val_type}: {l} does not have {threads} threads"),
                ));
            }
        }
        Ok(CopyAtom {
            traits,
            val_type: val_type.to_string(),
            val_bits: bits,
            src,
            dst,
            reference,
            tma: None,
            im2col: None,
        })
    }

    /// The same atom carrying a TMA descriptor.
    pub(crate) fn with_tma(self, params: super::tma_desc::TmaParams) -> Result<CopyAtom> {
        Ok(CopyAtom { tma: Some(Box::new(params)), ..self })
    }

    /// The same atom carrying an im2col TMA descriptor and coordinate tensor.
    pub(crate) fn with_im2col(self, params: super::tma_im2col_desc::Im2colParams) -> Result<CopyAtom> {
        Ok(CopyAtom { im2col: Some(Box::new(params)), ..self })
    }

    /// An im2col TMA atom's descriptor and coordinate tensor (made by
    /// [`make_im2col_tma_copy`](super::tma_im2col::make_im2col_tma_copy)).
    ///
    /// Pre: none. Post: `Some` for an im2col TMA atom, `None` for any other
    /// (a tiled TMA atom's are in [`CopyAtom::tma`]).
    ///
    /// ```
    /// assert!(kute::atom::CopyAtom::new("SM75_U32x4_LDSM_N", "half_t").unwrap().im2col().is_none());
    /// ```
    pub fn im2col(&self) -> Option<&super::tma_im2col_desc::Im2colParams> {
        self.im2col.as_deref()
    }

    /// A TMA atom's gmem basis, coordinate strides and descriptor (made by
    /// [`make_tma_copy`](super::tma::make_tma_copy) and its kin).
    ///
    /// Pre: none. Post: `Some` for a TMA atom, `None` for any other.
    ///
    /// ```
    /// use kute::atom::{tma::{make_tma_atom, GmemTensor, TmaOp}, CopyAtom};
    /// assert!(CopyAtom::new("SM75_U32x4_LDSM_N", "half_t").unwrap().tma().is_none());
    /// let g = GmemTensor::new("float", 0, "(64,64):(64,_1)".parse().unwrap()).unwrap();
    /// let s = kute::AnyLayout::Layout("(_8,_32):(_32,_1)".parse().unwrap());
    /// let a = make_tma_atom(TmaOp::Load, &g, &s, &"(_8,_32)".parse().unwrap(), None).unwrap();
    /// assert_eq!(a.tma().unwrap().descriptor().box_dim, [32, 8]);
    /// ```
    pub fn tma(&self) -> Option<&super::tma_desc::TmaParams> {
        self.tma.as_deref()
    }

    /// The operation's traits (layouts in bits).
    ///
    /// Pre: none. Post: CuTe's `Copy_Traits<Op>` of the operation given to [`CopyAtom::new`].
    ///
    /// ```
    /// let a = kute::atom::CopyAtom::new("SM75_U32x4_LDSM_N", "half_t").unwrap();
    /// assert_eq!(a.traits().src.to_string(), "(_32,_128):(_128,_1)");
    /// assert_eq!(a.traits().dst.to_string(), "(_32,(_32,_4)):(_32,(_1,_1024))");
    /// ```
    pub fn traits(&self) -> &CopyTraits {
        &self.traits
    }

    /// `ThrID`.
    ///
    /// Pre: none. Post: the traits' `ThrID` (logical thread to thread index).
    ///
    /// ```
    /// let a = kute::atom::CopyAtom::new("SM75_U32x4_LDSM_N", "half_t").unwrap();
    /// assert_eq!(a.thr_id().to_string(), "_32:_1");
    /// ```
    pub fn thr_id(&self) -> &Layout {
        &self.traits.thr_id
    }

    /// `ValLayoutSrc`: (thread, value) to the source offset, in values.
    ///
    /// Pre: none. Post: the traits' `SrcLayout` recast from bits to the value
    /// type; mode 0 has `size(ThrID)` threads.
    ///
    /// ```
    /// let a = kute::atom::CopyAtom::new("UniversalCopy<uint128_t>", "half_t").unwrap();
    /// assert_eq!(a.val_layout_src().to_string(), "(_1,_8):(_0,_1)");
    /// ```
    pub fn val_layout_src(&self) -> &Layout {
        &self.src
    }

    /// `ValLayoutDst`: (thread, value) to the destination offset, in values.
    ///
    /// Pre: none. Post: the traits' `DstLayout` recast from bits to the value
    /// type; mode 0 has `size(ThrID)` threads.
    ///
    /// ```
    /// let a = kute::atom::CopyAtom::new("SM75_U32x4_LDSM_N", "half_t").unwrap();
    /// assert_eq!(a.val_layout_dst().to_string(), "(_32,(_2,_4)):(_2,(_1,_64))");
    /// ```
    pub fn val_layout_dst(&self) -> &Layout {
        &self.dst
    }

    /// `ValLayoutRef`: the (thread, value) layout the tiled copy's TV layout is
    /// given in (the source's or the destination's).
    ///
    /// Pre: none. Post: the traits' `RefLayout` recast from bits to the value
    /// type; mode 0 has `size(ThrID)` threads.
    ///
    /// ```
    /// let a = kute::atom::CopyAtom::new("SM75_U32x4_LDSM_N", "half_t").unwrap();
    /// assert_eq!(a.val_layout_ref().to_string(), "(_32,(_2,_4)):(_2,(_1,_64))");
    /// assert_eq!(a.val_layout_ref(), a.val_layout_dst());
    /// ```
    pub fn val_layout_ref(&self) -> &Layout {
        &self.reference
    }

    /// The value type's name.
    ///
    /// Pre: none. Post: the `val_type` given to [`CopyAtom::new`].
    ///
    /// ```
    /// let a = kute::atom::CopyAtom::new("UniversalCopy<uint128_t>", "float").unwrap();
    /// assert_eq!(a.val_type(), "float");
    /// ```
    pub fn val_type(&self) -> &str {
        &self.val_type
    }

    /// The values one thread moves in one instruction (`NumValSrc`).
    ///
    /// Pre: none. Post: `size<1>(ValLayoutSrc)`.
    ///
    /// ```
    /// use kute::atom::CopyAtom;
    /// assert_eq!(CopyAtom::new("SM75_U32x4_LDSM_N", "half_t").unwrap().num_val_src().unwrap().value(), 8);
    /// assert_eq!(CopyAtom::new("UniversalCopy<uint64_t>", "half_t").unwrap().num_val_src().unwrap().value(), 4);
    /// ```
    pub fn num_val_src(&self) -> Result<Int> {
        self.src.mode(1)?.size()
    }
}

impl fmt::Display for CopyAtom {
    /// CuTe's `print(Copy_Atom)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Copy_Atom")?;
        writeln!(f, "  ThrID:        {}", self.thr_id())?;
        writeln!(f, "  ValLayoutSrc: {}", self.src)?;
        writeln!(f, "  ValLayoutDst: {}", self.dst)?;
        writeln!(f, "  ValLayoutRef: {}", self.reference)?;
        write!(f, "  ValueType:    {}b", self.val_bits)
    }
}

/// CuTe's `TiledCopy`: an atom, the tile's (thread, value) layout
/// `TiledLayout_TV` and the tile `Tiler_MN` it covers.
///
/// ```
/// use kute::atom::{CopyAtom, TiledCopy};
/// let atom = CopyAtom::new("UniversalCopy<uint128_t>", "half_t").unwrap();
/// let c = TiledCopy::make(atom, &"(_32,_4):(_4,_1)".parse().unwrap(), &"(_1,_8):(_8,_1)".parse().unwrap()).unwrap();
/// assert_eq!(c.layout_s_tv().unwrap().to_string(), "((_4,_32),(_8,_1)):((_256,_1),(_32,_0))");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiledCopy {
    atom: CopyAtom,
    layout_tv: Layout,
    tiler: Tiler,
    /// For a copy made over a data tensor (`make_cotiled_copy`), the extent of
    /// the first mode of the data's first mode: the rows its picture draws
    /// when the tiler has more than two modes.
    picture_rows: Option<i64>,
}

/// A coordinate of `_` and integers, as a tree.
fn coord(build: impl FnOnce(&mut crate::tree::Builder<'_, Crd>)) -> Result<Coord> {
    Tree::try_build(|b| {
        build(b);
        Ok(())
    })
}

/// The shape of a `Tiler_MN` (each layout's shape, or the integer); a tiler
/// that is not a tuple of integers and layouts is a `Mismatch` error naming `op`.
fn tiler_mn_shape(tiler: &Tiler, op: &'static str) -> Result<IntTuple> {
    let why = || Error::mismatch(op, format!("the tile {tiler}: Tiler_MN is a tuple of integers and layouts"));
    let Tiler::Tuple(ts) = tiler else { return Err(why()) };
    let parts = ts
        .iter()
        .map(|t| match t {
            Tiler::Int(n) => Ok(IntTuple::leaf(*n)),
            Tiler::Layout(l) => Ok(l.shape()),
            _ => Err(why()),
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Tree::tuple(parts.iter().map(|p| p.as_ref())))
}

impl TiledCopy {
    /// CuTe's `make_tiled_copy_impl(atom, layout_tv, tiler)`.
    ///
    /// Pre: `tiler` is a tuple of integers and layouts, as CuTe's `Tiler_MN`
    /// (else a `Mismatch` error); the tile's threads and values are multiples
    /// of the atom's (CuTe's static assertions; else an `Inadmissible` error).
    /// Post: `atom()`, `tiled_layout_tv()` and `tiler_mn()` return the arguments.
    ///
    /// ```
    /// use kute::atom::{make_layout_tv, CopyAtom, TiledCopy};
    /// let atom = CopyAtom::new("UniversalCopy<uint128_t>", "half_t").unwrap();
    /// let lay = |s: &str| s.parse::<kute::Layout>().unwrap();
    /// let (tiler, tv) = make_layout_tv(&lay("(_32,_4):(_4,_1)"), &lay("(_1,_8):(_8,_1)")).unwrap();
    /// let c = TiledCopy::new(atom.clone(), tv, kute::Tiler::from(&tiler)).unwrap();
    /// assert_eq!(c.layout_s_tv().unwrap().to_string(), "((_4,_32),(_8,_1)):((_256,_1),(_32,_0))");
    /// // 4 values per thread are too few for the atom's 8
    /// let (tiler, tv) = make_layout_tv(&lay("(_32,_4):(_4,_1)"), &lay("(_1,_4):(_4,_1)")).unwrap();
    /// assert!(TiledCopy::new(atom.clone(), tv.clone(), kute::Tiler::from(&tiler)).is_err());
    /// // a tiler of a `_` mode is no tile
    /// let t: kute::Tiler = "<_32,_>".parse().unwrap();
    /// assert_eq!(TiledCopy::new(atom, tv, t).unwrap_err().kind(), kute::ErrorKind::Mismatch);
    /// ```
    pub fn new(atom: CopyAtom, layout_tv: Layout, tiler: Tiler) -> Result<TiledCopy> {
        crate::sym::refuse("make_tiled_copy", || layout_tv.has_symbols() || tiler.has_symbols())?;
        let op = "make_tiled_copy";
        tiler_mn_shape(&tiler, op)?;
        let (thr, val) = (layout_tv.mode(0)?.size()?, layout_tv.mode(1)?.size()?);
        let (athr, aval) = (atom.reference.mode(0)?.size()?, atom.reference.mode(1)?.size()?);
        if athr.value() == 0 || thr.value() % athr.value() != 0 {
            return Err(Error::inadmissible(op, format!("{thr} threads are too few for the atom's {athr}")));
        }
        if aval.value() == 0 || val.value() % aval.value() != 0 {
            return Err(Error::inadmissible(op, format!("{val} values are too few for the atom's {aval}")));
        }
        Ok(TiledCopy { atom, layout_tv, tiler, picture_rows: None })
    }

    /// The same copy, drawn with `rows` rows when its tiler has more than two modes.
    pub(crate) fn with_picture_rows(self, rows: i64) -> TiledCopy {
        TiledCopy { picture_rows: Some(rows), ..self }
    }

    /// The rows of the copy's picture over a tiler of more than two modes, if known.
    pub(crate) fn picture_rows(&self) -> Option<i64> {
        self.picture_rows
    }

    /// CuTe `make_tiled_copy(atom, thr_layout, val_layout)`: the raked product
    /// of the thread and value layouts, inverted into (thread, value) to the tile.
    ///
    /// Pre: as [`make_layout_tv`] and [`TiledCopy::new`] (`val` has at least
    /// the atom's values, else an `Inadmissible` error).
    /// Post: `(tiler_mn(), tiled_layout_tv()) == make_layout_tv(thr, val)`.
    ///
    /// ```
    /// use kute::atom::{CopyAtom, TiledCopy};
    /// let atom = CopyAtom::new("UniversalCopy<uint128_t>", "half_t").unwrap();
    /// let thr = "(_32,_4):(_4,_1)".parse().unwrap();
    /// let c = TiledCopy::make(atom.clone(), &thr, &"(_1,_8):(_8,_1)".parse().unwrap()).unwrap();
    /// assert_eq!(c.tiled_layout_tv().to_string(), "((_4,_32),_8):((_256,_1),_32)");
    /// assert_eq!(c.tiler_mn_text(), "(_32,_32)");
    /// assert!(TiledCopy::make(atom, &thr, &"(_1,_4):(_4,_1)".parse().unwrap()).is_err());
    /// ```
    pub fn make(atom: CopyAtom, thr: &Layout, val: &Layout) -> Result<TiledCopy> {
        crate::sym::refuse("make_tiled_copy", || thr.has_symbols() || val.has_symbols())?;
        let op = "make_tiled_copy";
        let (tiler, layout_tv) = make_layout_tv(thr, val).map_err(|e| e.in_op(op))?;
        TiledCopy::new(atom, layout_tv, Tiler::from(&tiler))
    }

    /// CuTe `make_tiled_copy_A/B/C(atom, mma)` (`which`): the MMA's operand
    /// TV layout over its tile.
    ///
    /// Pre: the operand's threads and values per thread are multiples of the
    /// atom's (else an
    /// `Inadmissible` error, as CuTe's static assertions: `SM75_U32x4_LDSM_N`
    /// for B of the MMA below).
    /// Post: `tiled_layout_tv() == mma.layout_tv(which)`, and `Tiler_MN` is the
    /// operand's (M, K), (N, K) or (M, N) tile sizes.
    ///
    /// ```
    /// use kute::atom::{CopyAtom, MmaAtom, Operand, Side, TiledCopy, TiledMma};
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
    ///                       Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), None).unwrap();
    /// let c = TiledCopy::for_mma(CopyAtom::new("SM75_U32x4_LDSM_N", "half_t").unwrap(), &m, Operand::A).unwrap();
    /// assert_eq!(c.layout_s_tv().unwrap().to_string(), "((_16,_2,_2,_2),(_8,_1)):((_1,_256,_16,_0),(_32,_0))");
    /// assert_eq!(c.tiler_mn_text(), "(_32,_16)");
    /// let c2 = TiledCopy::for_mma_c_atom(CopyAtom::new("UniversalCopy<uint32_t>", "half_t").unwrap(), &m).unwrap();
    /// assert_eq!(c2.tiler_mn_text(), "((_8,_2):(_1,_16),(_8,_2):(_2,_1))");
    /// let c3 = TiledCopy::for_copy(CopyAtom::new("UniversalCopy<uint128_t>", "half_t").unwrap(), &c, Side::Source).unwrap();
    /// assert_eq!(c3.tiled_layout_tv(), &c.layout_s_tv().unwrap());
    /// ```
    pub fn for_mma(atom: CopyAtom, mma: &TiledMma, which: Operand) -> Result<TiledCopy> {
        let (t0, t1) = mma.operand_tile(which)?;
        let tiler = Tiler::Tuple(vec![Tiler::Int(t0), Tiler::Int(t1)]);
        TiledCopy::new(atom, mma.layout_tv(which)?, tiler)
    }

    /// CuTe `make_tiled_copy_C_atom(atom, mma)`: the C layout cut to the atom's
    /// values per thread, over the smallest tile that holds them.
    ///
    /// Pre: the atom moves at most C's values per thread (else an
    /// `Inadmissible` error, as CuTe); as [`TiledCopy::new`].
    /// Post: `Tiler_MN` is a tuple of two layouts (the M and N coordinates the
    /// cut C layout reaches) and `TiledLayout_TV` has the atom's values per thread.
    ///
    /// ```
    /// use kute::atom::{CopyAtom, MmaAtom, Operand, Side, TiledCopy, TiledMma};
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
    ///                       Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), None).unwrap();
    /// let c = TiledCopy::for_mma_c_atom(CopyAtom::new("UniversalCopy<uint32_t>", "half_t").unwrap(), &m).unwrap();
    /// assert_eq!(c.tiled_layout_tv().to_string(), "((_4,_8,_2,_2),_2):((_16,_1,_8,_64),_128)");
    /// assert_eq!(c.layout_s_tv().unwrap().to_string(), "((_4,_16,_2),(_2,_1)):((_16,_1,_64),(_128,_0))");
    /// // 8 values per thread exceed C's 4
    /// assert!(TiledCopy::for_mma_c_atom(CopyAtom::new("UniversalCopy<uint128_t>", "half_t").unwrap(), &m).is_err());
    /// ```
    pub fn for_mma_c_atom(atom: CopyAtom, mma: &TiledMma) -> Result<TiledCopy> {
        let op = "make_tiled_copy_C_atom";
        let go = |atom: CopyAtom| -> Result<TiledCopy> {
            let c = mma.layout_c_tv()?;
            let v = atom.num_val_src()?;
            if v.value() > c.mode(1)?.size()?.value() {
                return Err(Error::inadmissible(op, format!("the atom's {v} values exceed C's values per thread")));
            }
            let tv =
                algebra::composition(&c, &Layout::from_shape(&IntTuple::tuple_of_leaves([c.mode(0)?.size()?, v]))?)?;
            let (tm, tn) = mma.operand_tile(Operand::C)?;
            let mn = IntTuple::tuple_of_leaves([tm, tn]);
            let mut parts = Vec::new();
            for i in 0..2 {
                let mut d = [Int::ZERO, Int::ZERO];
                d[i] = Int::ONE;
                let proj = Layout::new(&mn, IntTuple::tuple_of_leaves(d))?;
                parts.push(Tiler::Layout(algebra::filter(&algebra::composition(&proj, &tv)?)?));
            }
            let tiler = Tiler::Tuple(parts);
            let tile2mma = algebra::composition_tiler(&Layout::from_shape(&mn)?, &tiler)?;
            let layout_tv = algebra::composition(&algebra::left_inverse(&tile2mma)?, &tv)?;
            TiledCopy::new(atom, layout_tv, tiler)
        };
        go(atom).map_err(|e| e.within(op))
    }

    /// CuTe `make_tiled_copy_S/D(atom, tiled_copy)` (`side`): the other
    /// copy's source or destination TV layout over its tile.
    ///
    /// Pre: as [`TiledCopy::layout_tv`] of `other` and [`TiledCopy::new`].
    /// Post: `tiled_layout_tv() == other.layout_tv(side)` and
    /// `tiler_mn() == other.tiler_mn()`.
    ///
    /// ```
    /// use kute::atom::{CopyAtom, MmaAtom, Operand, Side, TiledCopy, TiledMma};
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
    ///                       Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), None).unwrap();
    /// let ldsm = TiledCopy::for_mma(CopyAtom::new("SM75_U32x4_LDSM_N", "half_t").unwrap(), &m, Operand::A).unwrap();
    /// // make_tiled_copy_D(Copy_Atom<UniversalCopy<uint32_t>,half_t>{}, ldsm)
    /// let c = TiledCopy::for_copy(CopyAtom::new("UniversalCopy<uint32_t>", "half_t").unwrap(), &ldsm, Side::Destination).unwrap();
    /// assert_eq!(c.layout_s_tv().unwrap().to_string(),
    ///            "((_4,_8,_2,_2),(_2,(_2,_2))):((_64,_1,_16,_0),(_32,(_8,_256)))");
    /// assert_eq!(c.tiler_mn_text(), "(_32,_16)");
    /// ```
    pub fn for_copy(atom: CopyAtom, other: &TiledCopy, side: Side) -> Result<TiledCopy> {
        let tv = other.layout_tv(side)?;
        TiledCopy::new(atom, tv, other.tiler.clone())
    }

    /// The atom.
    ///
    /// Pre: none. Post: the atom the copy was made with.
    ///
    /// ```
    /// use kute::atom::{CopyAtom, TiledCopy};
    /// let atom = CopyAtom::new("UniversalCopy<uint128_t>", "half_t").unwrap();
    /// let lay = |s: &str| s.parse::<kute::Layout>().unwrap();
    /// let c = TiledCopy::make(atom.clone(), &lay("(_32,_4):(_4,_1)"), &lay("(_1,_8):(_8,_1)")).unwrap();
    /// assert_eq!(c.atom(), &atom);
    /// ```
    pub fn atom(&self) -> &CopyAtom {
        &self.atom
    }

    /// `TiledLayout_TV`: (thread, value) to the coordinate in the tile, in the
    /// atom's reference layout.
    ///
    /// Pre: none. Post: the layout the copy was made with.
    ///
    /// ```
    /// use kute::atom::{CopyAtom, MmaAtom, Operand, Side, TiledCopy, TiledMma};
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
    ///                       Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), None).unwrap();
    /// let c = TiledCopy::for_mma(CopyAtom::new("SM75_U32x4_LDSM_N", "half_t").unwrap(), &m, Operand::A).unwrap();
    /// assert_eq!(c.tiled_layout_tv().to_string(),
    ///            "((_4,_8,_2,_2),((_2,_2,_2),(_1,_1))):((_64,_1,_16,_0),((_32,_8,_256),(_0,_0)))");
    /// ```
    pub fn tiled_layout_tv(&self) -> &Layout {
        &self.layout_tv
    }

    /// `Tiler_MN`: a shape, or a tile of layouts.
    ///
    /// Pre: none. Post: the tiler the copy was made with.
    ///
    /// ```
    /// use kute::atom::{CopyAtom, TiledCopy};
    /// let atom = CopyAtom::new("UniversalCopy<uint128_t>", "half_t").unwrap();
    /// let lay = |s: &str| s.parse::<kute::Layout>().unwrap();
    /// let c = TiledCopy::make(atom, &lay("(_16,_8):(_8,_1)"), &lay("(_1,_8):(_8,_1)")).unwrap();
    /// assert_eq!(c.tiler_mn(), &"<_16,_64>".parse::<kute::Tiler>().unwrap());
    /// ```
    pub fn tiler_mn(&self) -> &Tiler {
        &self.tiler
    }

    /// `Tiler_MN` as CuTe prints it.
    ///
    /// Pre: none. Post: `tiler_mn().to_string()`.
    ///
    /// ```
    /// use kute::atom::{CopyAtom, TiledCopy};
    /// let atom = CopyAtom::new("UniversalCopy<uint128_t>", "half_t").unwrap();
    /// let lay = |s: &str| s.parse::<kute::Layout>().unwrap();
    /// let c = TiledCopy::make(atom, &lay("(_16,_8):(_8,_1)"), &lay("(_1,_8):(_8,_1)")).unwrap();
    /// assert_eq!(c.tiler_mn_text(), "(_16,_64)");
    /// ```
    pub fn tiler_mn_text(&self) -> String {
        self.tiler.to_string()
    }

    /// `size(c)`: the number of threads.
    ///
    /// Pre: none. Post: `size<0>(TiledLayout_TV)`.
    ///
    /// ```
    /// use kute::atom::{CopyAtom, TiledCopy};
    /// let atom = CopyAtom::new("UniversalCopy<uint128_t>", "half_t").unwrap();
    /// let lay = |s: &str| s.parse::<kute::Layout>().unwrap();
    /// let c = TiledCopy::make(atom, &lay("(_32,_4):(_4,_1)"), &lay("(_1,_8):(_8,_1)")).unwrap();
    /// assert_eq!(c.size().unwrap().value(), 128);
    /// ```
    pub fn size(&self) -> Result<Int> {
        self.layout_tv.mode(0)?.size()
    }

    /// `tile_size<I>(c)`: the size of `Tiler_MN`'s mode `i`.
    ///
    /// Pre: `Tiler_MN` is a tuple whose mode `i` exists and is an integer or a
    /// layout (else a `Mismatch` error).
    /// Post: that integer, or that layout's size.
    ///
    /// ```
    /// use kute::atom::{CopyAtom, MmaAtom, Operand, Side, TiledCopy, TiledMma};
    /// let atom = CopyAtom::new("UniversalCopy<uint128_t>", "half_t").unwrap();
    /// let lay = |s: &str| s.parse::<kute::Layout>().unwrap();
    /// let c = TiledCopy::make(atom, &lay("(_32,_4):(_4,_1)"), &lay("(_1,_8):(_8,_1)")).unwrap();
    /// assert_eq!(c.tile_size(0).unwrap().value(), 32);
    /// assert!(c.tile_size(2).is_err());
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
    ///                       Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), None).unwrap();
    /// let c = TiledCopy::for_mma_c_atom(CopyAtom::new("UniversalCopy<uint32_t>", "half_t").unwrap(), &m).unwrap();
    /// assert_eq!(c.tile_size(0).unwrap().value(), 16); // the size of (_8,_2):(_1,_16)
    /// ```
    pub fn tile_size(&self, i: usize) -> Result<Int> {
        match &self.tiler {
            Tiler::Tuple(ts) => match ts.get(i) {
                Some(Tiler::Int(n)) => Ok(*n),
                Some(Tiler::Layout(l)) => l.size(),
                _ => Err(Error::mismatch("tile_size", format!("mode {i} of {}", self.tiler_mn_text()))),
            },
            _ => Err(Error::mismatch("tile_size", format!("mode {i} of {}", self.tiler_mn_text()))),
        }
    }

    /// The shape of `Tiler_MN` (each layout's shape, or the integer).
    fn tiler_shape(&self) -> Result<IntTuple> {
        tiler_mn_shape(&self.tiler, "Tiler_MN")
    }

    /// `right_inverse(AtomLayoutRef).compose(AtomLayoutSrc or Dst)`.
    fn ref_to(&self, side: Side) -> Result<Layout> {
        let trg = match side {
            Side::Source => &self.atom.src,
            Side::Destination => &self.atom.dst,
        };
        algebra::composition(&algebra::right_inverse(&self.atom.reference)?, trg)
    }

    /// CuTe's `tile2thrfrg(tensor, ref2trg)`.
    fn tile2thrfrg(&self, tensor: &Layout, ref2trg: &Layout) -> Result<Layout> {
        let (athr, aval) = (self.atom.reference.mode(0)?.size()?, self.atom.reference.mode(1)?.size()?);
        let atom_tv = algebra::zipped_divide(&self.layout_tv, &Tiler::Tuple(vec![Tiler::Int(athr), Tiler::Int(aval)]))?;
        let trg_tv = algebra::composition_tiler(
            &atom_tv,
            &Tiler::Tuple(vec![Tiler::Layout(ref2trg.clone()), Tiler::Underscore]),
        )?;
        let profile: IntTuple = Tree::try_build(|b| {
            b.open();
            b.leaf(Int::ONE);
            b.open();
            b.leaf(Int::ONE);
            b.leaf(Int::ONE);
            b.close();
            b.close();
            Ok(())
        })?;
        let thrval2mn = algebra::coalesce_profile(&trg_tv.zip()?, &profile)?;
        let tv = algebra::composition_tiler(tensor, &Tiler::Tuple(vec![Tiler::Layout(thrval2mn), Tiler::Underscore]))?;
        let c = coord(|b| {
            b.open();
            b.open();
            b.leaf(Crd::Underscore);
            b.leaf(Crd::Underscore);
            b.close();
            b.leaf(Crd::Underscore);
            b.close();
        })?;
        tv.slice(&c)
    }

    /// CuTe's `tidfrg_S` / `tidfrg_D` (`side`): a tensor's layout divided
    /// into `(Thr, Val, Rest...)` of this copy.
    ///
    /// Pre: `l` has at least the rank of `Tiler_MN` (else a `Mismatch` error);
    /// as CuTe's `zipped_divide` and composition (their errors).
    /// Post: `R(t, v, r) == zipped_divide(l, Tiler_MN)(layout_tv(side)(t, v), r)`:
    /// mode 0 has `size(c)` threads, mode 1 the values of one thread, mode 2 the tiles.
    ///
    /// ```
    /// use kute::atom::{CopyAtom, Side, TiledCopy};
    /// let atom = CopyAtom::new("UniversalCopy<uint128_t>", "half_t").unwrap();
    /// let c = TiledCopy::make(atom, &"(_16,_8):(_8,_1)".parse().unwrap(), &"(_1,_8):(_8,_1)".parse().unwrap()).unwrap();
    /// let t = c.tidfrg(&"(_32,_128):(_128,_1)".parse().unwrap(), Side::Source).unwrap();
    /// assert_eq!(t.rank(), 3); // (thread, value, rest)
    /// assert_eq!(t.mode(0).unwrap().size().unwrap().value(), 128);
    /// ```
    pub fn tidfrg(&self, l: &Layout, side: Side) -> Result<Layout> {
        let op = match side {
            Side::Source => "tidfrg_S",
            Side::Destination => "tidfrg_D",
        };
        let go = || -> Result<Layout> {
            let z = algebra::zipped_divide(l, &self.tiler)?;
            self.tile2thrfrg(&z, &self.ref_to(side)?)
        };
        go().map_err(|e| e.within(op))
    }

    /// CuTe's `get_layoutS_TV` / `get_layoutD_TV` (`side`): (thread, value)
    /// to the coordinate in the tile.
    ///
    /// Pre: `Tiler_MN` is a tuple of integers and layouts (else a `Mismatch`
    /// error; every constructor but [`TiledCopy::new`] makes one).
    /// Post: mode 0 has `size(c)` threads; `R(t, v)` is the column-major index
    /// in the `Tiler_MN` tile of thread `t`'s value `v` of that side.
    ///
    /// ```
    /// use kute::atom::{CopyAtom, MmaAtom, Operand, Side, TiledCopy, TiledMma};
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
    ///                       Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), None).unwrap();
    /// let c = TiledCopy::for_mma(CopyAtom::new("SM75_U32x4_LDSM_N", "half_t").unwrap(), &m, Operand::A).unwrap();
    /// assert_eq!(c.layout_tv(Side::Source).unwrap().to_string(), "((_16,_2,_2,_2),(_8,_1)):((_1,_256,_16,_0),(_32,_0))");
    /// assert_eq!(c.layout_tv(Side::Destination).unwrap().to_string(),
    ///            "((_4,_8,_2,_2),((_2,_2,_2),_1)):((_64,_1,_16,_0),((_32,_8,_256),_0))");
    /// ```
    pub fn layout_tv(&self, side: Side) -> Result<Layout> {
        let op = match side {
            Side::Source => "get_layoutS_TV",
            Side::Destination => "get_layoutD_TV",
        };
        let go = || -> Result<Layout> {
            let reference =
                Layout::from_shape(&Tree::tuple([self.tiler_shape()?.as_ref(), IntTuple::leaf(Int::ONE).as_ref()]))?;
            let frg = self.tile2thrfrg(&reference, &self.ref_to(side)?)?;
            let c = coord(|b| {
                b.open();
                b.leaf(Crd::Underscore);
                b.leaf(Crd::Underscore);
                b.leaf(Crd::Int(Int::ZERO));
                b.close();
            })?;
            frg.slice(&c)
        };
        go().map_err(|e| e.within(op))
    }

    /// CuTe's `TiledCopy::retile(L)`: a thread's fragment `(V, Rest...)`
    /// (of the register tensor of `partition_fragment_C`, say) regrouped into
    /// `((atom values, rest values), Rest...)` of this copy, so that each
    /// copy atom's values are mode 0's first: what `ThrCopy::retile_S` and
    /// `retile_D` do to a tensor's layout (the two are the same; CuTe assumes
    /// the atom's source and destination layouts are its reference layout).
    ///
    /// As in CuTe: `frg_mn = upcast<size(c)·V>(right_inverse(TiledLayout_TV)
    /// ∘ make_layout(shape(Tiler_MN)))`, `frg_v = zipped_divide(logical_product(
    /// V:_1, right_inverse(frg_mn)), AtomNumVal:_1)`, then `L` zipped-divided by
    /// `(V, product_each(shape(frg_mn))...)`, its tile mode composed with `frg_v`,
    /// sliced at `(_, (0, _, ...))`.
    ///
    /// Pre: `l` is a layout of rank at least `1 + rank(Tiler_MN)` with
    /// integer strides (else an error); as CuTe's `upcast`, products and
    /// divides (their errors, within `retile`).
    /// Post: a layout of the same size as `l`, whose mode 0 is
    /// `((AtomNumVal, V / AtomNumVal), ...)`.
    ///
    /// ```
    /// use kute::atom::{CopyAtom, MmaAtom, Operand, TiledCopy, TiledMma};
    /// let m = TiledMma::new(MmaAtom::new("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
    ///                       Some(&"(_2,_2,_1):(_1,_2,_0)".parse().unwrap()), None).unwrap();
    /// let c = TiledCopy::for_mma(CopyAtom::new("SM75_U32x4_LDSM_N", "half_t").unwrap(), &m, Operand::A).unwrap();
    /// // the A fragment of a (_64,_32) tile: ((_2,_2,_2),_2,_2)
    /// let frag = "((_2,_2,_2),_2,_2):((_1,_2,_4),_8,_16)".parse().unwrap();
    /// assert_eq!(c.retile(&frag).unwrap().to_string(), "((_8,_1),_2,_2):((_1,_0),_8,_16)");
    /// ```
    pub fn retile(&self, l: &Layout) -> Result<Layout> {
        let go = || -> Result<Layout> {
            let v = l.mode(0)?.size()?;
            let by = self.size()?.mul(v)?.value();
            let shape_mn = Layout::from_shape(&self.tiler_shape()?)?;
            let frg_mn =
                algebra::upcast(&algebra::composition(&algebra::right_inverse(&self.layout_tv)?, &shape_mn)?, by)?;
            let atom_vals = Layout::from_shape(&IntTuple::leaf(self.atom.reference.mode(1)?.size()?))?;
            let values = Layout::from_shape(&IntTuple::leaf(v))?;
            let frg_v = algebra::zipped_divide(
                &algebra::logical_product(&values, &algebra::right_inverse(&frg_mn)?)?,
                &atom_vals,
            )?;
            let tile: IntTuple = Tree::try_build(|b| {
                b.open();
                b.leaf(v);
                let each = int_tuple::product_each(frg_mn.shape().as_ref())?;
                match each.is_leaf() {
                    true => b.push(each.as_ref()),
                    false => each.as_ref().children().for_each(|m| b.push(m)),
                }
                b.close();
                Ok(())
            })?;
            let t = algebra::zipped_divide(l, &tile)?;
            let vt = algebra::composition_tiler(&t, &Tiler::Tuple(vec![Tiler::Layout(frg_v), Tiler::Underscore]))?;
            let rank = l.rank();
            let c = coord(|b| {
                b.open();
                b.leaf(Crd::Underscore);
                b.open();
                b.leaf(Crd::Int(Int::ZERO));
                for _ in 1..rank {
                    b.leaf(Crd::Underscore);
                }
                b.close();
                b.close();
            })?;
            vt.slice(&c)
        };
        go().map_err(|e| e.within("retile"))
    }

    /// `get_layoutS_TV()`.
    ///
    /// Pre: as [`TiledCopy::layout_tv`]. Post: `layout_tv(Side::Source)`.
    ///
    /// ```
    /// use kute::atom::{CopyAtom, TiledCopy};
    /// let atom = CopyAtom::new("SM75_U32x4_LDSM_N", "half_t").unwrap();
    /// let lay = |s: &str| s.parse::<kute::Layout>().unwrap();
    /// let c = TiledCopy::make(atom, &lay("(_4,_8):(_8,_1)"), &lay("(_1,_16):(_16,_1)")).unwrap();
    /// assert_eq!(c.layout_s_tv().unwrap().to_string(), "((_2,_4,_4),((_2,_4),_2)):((_256,_1,_8),((_4,_64),_32))");
    /// ```
    pub fn layout_s_tv(&self) -> Result<Layout> {
        self.layout_tv(Side::Source)
    }

    /// `get_layoutD_TV()`.
    ///
    /// Pre: as [`TiledCopy::layout_tv`]. Post: `layout_tv(Side::Destination)`.
    ///
    /// ```
    /// use kute::atom::{CopyAtom, TiledCopy};
    /// let atom = CopyAtom::new("SM75_U32x4_LDSM_N", "half_t").unwrap();
    /// let lay = |s: &str| s.parse::<kute::Layout>().unwrap();
    /// let c = TiledCopy::make(atom, &lay("(_4,_8):(_8,_1)"), &lay("(_1,_16):(_16,_1)")).unwrap();
    /// assert_eq!(c.layout_d_tv().unwrap().to_string(), "((_8,_4),(_8,_2)):((_64,_1),(_4,_32))");
    /// ```
    pub fn layout_d_tv(&self) -> Result<Layout> {
        self.layout_tv(Side::Destination)
    }
}

impl fmt::Display for TiledCopy {
    /// CuTe's `print(TiledCopy)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "TiledCopy")?;
        writeln!(f, "  Tiler_MN:       {}", self.tiler_mn_text())?;
        writeln!(f, "  TiledLayout_TV: {}", self.layout_tv)?;
        write!(f, "{}", self.atom)
    }
}

/// CuTe DSL's `make_layout_tv(thr, val)`: `(tiler, layout_tv)` of
/// `make_tiled_copy` with these layouts.
///
/// Pre: as CuTe's `raked_product`, `right_inverse` and composition (their
/// errors, within `make_layout_tv`).
/// Post: `tiler == product_each(shape(raked_product(thr, val)))` and
/// `tv == right_inverse(raked_product(thr, val)) ∘ (size(thr), size(val))`.
///
/// ```
/// let (thr, val) = ("(_32,_4):(_4,_1)".parse().unwrap(), "(_1,_8):(_8,_1)".parse().unwrap());
/// let (tiler, tv) = kute::atom::make_layout_tv(&thr, &val).unwrap();
/// assert_eq!(tiler.to_string(), "(_32,_32)");
/// assert_eq!(tv.to_string(), "((_4,_32),_8):((_256,_1),_32)");
/// ```
pub fn make_layout_tv(thr: &Layout, val: &Layout) -> Result<(IntTuple, Layout)> {
    crate::sym::refuse("make_layout_tv", || thr.has_symbols() || val.has_symbols())?;
    let op = "make_layout_tv";
    let go = || -> Result<(IntTuple, Layout)> {
        let layout_mn = algebra::raked_product(thr, val)?;
        let shape = IntTuple::tuple_of_leaves([thr.size()?, val.size()?]);
        let layout_tv = algebra::composition(&algebra::right_inverse(&layout_mn)?, &Layout::from_shape(&shape)?)?;
        Ok((int_tuple::product_each(layout_mn.shape().as_ref())?, layout_tv))
    };
    go().map_err(|e| e.within(op))
}
