//! Tensor memory (SM100 TMEM): the accumulator a tcgen05 MMA writes
//! (CuTe's `UMMA::tmem_frg`, what `partition_fragment_C` of a UMMA TiledMMA
//! makes), and the tiled copies between tensor memory and registers
//! (`make_tmem_copy`, `copy_traits_sm100.hpp`).
//!
//! A tensor-memory address is `lane << 16 | column` in 32-bit columns; a
//! tensor of `T` counts in elements of `T`, so a data path (lane) is
//! `TMEM::DP<T>` = 2^16 · (32 / bits(T)) elements apart (2^16 for `float`,
//! 2^17 for `half_t`), and a copy op's value ids count bits, a data path
//! `TMEM::DP_b` = 2^21 bits apart.
//!
//! ```
//! use kute::atom::{tmem, MmaAtom, TiledMma};
//! let atom = MmaAtom::new("SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K>").unwrap();
//! let m = TiledMma::new(atom, None, None).unwrap();
//! let acc = tmem::partition_fragment_c(&m, &"(_128,_256)".parse().unwrap()).unwrap();
//! assert_eq!(acc.layout().to_string(), "((_128,_256),_1,_1):((_65536,_1),_0,_0)");
//! let copy = tmem::make_tmem_copy("SM100_TMEM_LOAD_32dp32b32x", None, &acc).unwrap();
//! assert_eq!(copy.tiled_layout_tv().to_string(), "((_32,_4),(_32,_32)):((_0,_1),(_4,_128))");
//! ```

use super::copy::{CopyAtom, TiledCopy};
use super::mma::MmaAtom;
use super::mma::TiledMma;
use super::operand::Operand;
use super::traits::{TmemFrg, TmemSf};
use crate::algebra;
use crate::error::{Error, ErrorKind, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::tiler::Tiler;
use std::fmt;

/// A tensor in tensor memory: its element type and its layout (coordinate →
/// element offset from the tensor's start, `make_tensor(make_tmem_ptr<T>(0), L)`).
///
/// ```
/// let t = kute::atom::tmem::TmemTensor::new("float", "(_128,_256):(_65536,_1)".parse().unwrap()).unwrap();
/// assert_eq!(t.value_bits(), 32);
/// assert_eq!(t.to_string(), "tmem_[32b](0x0000.0000) o (_128,_256):(_65536,_1)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TmemTensor {
    value_type: String,
    value_bits: i64,
    layout: Layout,
    /// CuTe's print of the width of a sub-byte sparse element (`_1`, `_1/_2`).
    width_text: Option<String>,
}

impl TmemTensor {
    /// A tensor of `value_type` elements at tensor-memory address 0 laid out by `layout`.
    ///
    /// Pre: `value_type` is an element type of at most 32 bits (else an
    /// `UnknownName` or `Inadmissible` error). Post: the tensor.
    ///
    /// ```
    /// assert!(kute::atom::tmem::TmemTensor::new("double", "8:1".parse().unwrap()).is_err());
    /// ```
    pub fn new(value_type: &str, layout: Layout) -> Result<TmemTensor> {
        let op = "make_tmem_ptr";
        let bits = algebra::sizeof_bits(value_type).ok_or_else(|| {
            Error::new(
                ErrorKind::UnknownName,
                op,
                format!("'{value_type}' is not an element type{}", super::traits::type_hint(value_type)),
            )
        })?;
        if bits > 32 {
            return Err(Error::new(
                ErrorKind::Inadmissible,
                op,
                format!("tensor memory holds elements of at most 32 bits; {value_type} has {bits}"),
            ));
        }
        Ok(TmemTensor { value_type: value_type.to_string(), value_bits: bits, layout, width_text: None })
    }

    /// A tensor of CuTe's sparse metadata elements `sparse_elem<s, uint8_t>`
    /// (`8/s` bits each: what a sparse tcgen05 op's `FrgTypeE` makes) at
    /// tensor-memory address 0 laid out by `layout`.
    ///
    /// Pre: `s` is 4, 8 or 16 (else an `Inadmissible` error). Post: the
    /// tensor; its width prints as CuTe's ratio (`_1`, `_1/_2`) and
    /// [`TmemTensor::value_bits`] is 0 where it is not a whole number of bits.
    ///
    /// ```
    /// let t = kute::atom::tmem::TmemTensor::sparse_metadata(16, "(_128,_128):(_4194304,_1)".parse().unwrap()).unwrap();
    /// assert_eq!(t.to_string(), "tmem_[_1/_2b](0x0000.0000) o (_128,_128):(_4194304,_1)");
    /// assert!(kute::atom::tmem::TmemTensor::sparse_metadata(3, "8:1".parse().unwrap()).is_err());
    /// ```
    pub fn sparse_metadata(s: i64, layout: Layout) -> Result<TmemTensor> {
        let (bits, text) = match s {
            4 => (2, "_2"),
            8 => (1, "_1"),
            16 => (0, "_1/_2"),
            _ => {
                return Err(Error::new(
                    ErrorKind::Inadmissible,
                    "tmem_e_frg",
                    format!("the metadata's sparsity must be 4, 8 or 16, not {s}"),
                ))
            }
        };
        Ok(TmemTensor {
            value_type: format!("sparse_elem<{s},uint8_t>"),
            value_bits: bits,
            layout,
            width_text: Some(text.to_string()),
        })
    }

    /// The element type.
    ///
    /// Pre: none. Post: the type the tensor was made with.
    ///
    /// ```
    /// let t = kute::atom::tmem::TmemTensor::new("half_t", "8:1".parse().unwrap()).unwrap();
    /// assert_eq!((t.value_type(), t.value_bits()), ("half_t", 16));
    /// ```
    pub fn value_type(&self) -> &str {
        &self.value_type
    }

    /// The width of an element in bits.
    ///
    /// Pre: none. Post: `sizeof_bits(value_type)`.
    ///
    /// ```
    /// let t = kute::atom::tmem::TmemTensor::new("float_e4m3_t", "8:1".parse().unwrap()).unwrap();
    /// assert_eq!(t.value_bits(), 8);
    /// ```
    pub fn value_bits(&self) -> i64 {
        self.value_bits
    }

    /// The layout.
    ///
    /// Pre: none. Post: coordinate → element offset, as made.
    ///
    /// ```
    /// let t = kute::atom::tmem::TmemTensor::new("float", "(_128,_8):(_65536,_1)".parse().unwrap()).unwrap();
    /// assert_eq!(t.layout().to_string(), "(_128,_8):(_65536,_1)");
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.layout
    }
}

impl fmt::Display for TmemTensor {
    /// CuTe's print of a tensor-memory tensor at address 0.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.width_text {
            Some(w) => write!(f, "tmem_[{w}b](0x0000.0000) o {}", self.layout),
            None => write!(f, "tmem_[{}b](0x0000.0000) o {}", self.value_bits, self.layout),
        }
    }
}

/// CuTe's `TMEM::DP<T>`: the distance between two data paths (lanes) in
/// elements of `bits` bits.
///
/// Pre: none. Post: `2^(16 + shift)`, where `shift` is CuTe's
/// `tmem_ptr<T>::OffsetShift`, `log_2` of the ratio `32 / bits`
/// (`⌊log₂ num⌋ − ⌊log₂ den⌋` of the reduced fraction: 3 for 6-bit types);
/// `2^16` for widths of 32 bits and more (and for a width of 0 or less).
///
/// ```
/// use kute::atom::tmem::dp;
/// assert_eq!((dp(32), dp(16), dp(8), dp(6), dp(4)), (65536, 131072, 262144, 524288, 524288));
/// ```
pub fn dp(bits: i64) -> i64 {
    if bits <= 0 || bits >= 32 {
        return 1 << 16;
    }
    let g = crate::arith::gcd_i64(32, bits);
    let (num, den) = (32 / g, bits / g);
    let shift = num.ilog2() as i64 - den.ilog2() as i64;
    1i64 << (16 + shift.max(0))
}

fn lay(s: &str, op: &'static str) -> Result<Layout> {
    s.parse::<Layout>().map_err(|e| e.in_op(op))
}

/// CuTe's `UMMA::tmem_frg<...>::make(tmem_shape)`: the accumulator of a
/// tcgen05 MMA in tensor memory, for the partitioned shape
/// `((M_MMA, N_MMA), MMA_M, MMA_N, ...)`.
///
/// Pre: `tmem_shape` has that form with an M_MMA the allocation allows (1 SM:
/// 64 or 128; 2 SMs: 32, 64 or 128), else an `Inadmissible` error; no
/// symbolic extents (else an `Undecided` error).
/// Post: coordinate → tensor-memory element offset, `lane · DP<T> + column`.
///
/// ```
/// use kute::atom::{tmem::tmem_frg, traits::TmemFrg};
/// let frg = TmemFrg { n_sm: 2, value_type: "float".into(), value_bits: 32, storage_bits: 32,
///                     non_interleaved: false, duplicated: false };
/// assert_eq!(tmem_frg(&frg, &"((_64,_64),_2,_2)".parse().unwrap()).unwrap().to_string(),
///            "((_64,(_32,_2)),_2,_2):((_65536,(_1,_4194304)),_32,_64)");
/// ```
pub fn tmem_frg(frg: &TmemFrg, tmem_shape: &IntTuple) -> Result<Layout> {
    let op = "tmem_frg";
    crate::sym::refuse(op, || tmem_shape.has_symbols())?;
    let shape = Layout::from_shape(tmem_shape)?;
    let mode0 = shape.mode(0)?;
    if mode0.rank() != 2 || shape.rank() < 2 {
        return Err(Error::new(
            ErrorKind::Inadmissible,
            op,
            format!("expected a post-partitioned shape ((M_MMA,N_MMA),...), got {tmem_shape}"),
        ));
    }
    let (m, n) = (mode0.mode(0)?.size()?.value(), mode0.mode(1)?.size()?.value());
    let capacity_ok = shape.size()?.value().checked_mul(frg.storage_bits).is_some_and(|b| b <= 128 * 512 * 32);
    if !capacity_ok {
        return Err(Error::new(
            ErrorKind::Inadmissible,
            op,
            format!("requesting more TMEM than is available: {tmem_shape}"),
        ));
    }
    let rest_modes: Vec<Layout> = (1..shape.rank()).map(|i| shape.mode(i)).collect::<Result<_>>()?;
    let rest = Layout::from_shape(&Layout::concat(&rest_modes)?.shape())?;
    let bad_m = |allowed: &str| {
        Error::new(ErrorKind::Inadmissible, op, format!("UMMA_{}SM M-mode size should be {allowed}, got {m}", frg.n_sm))
    };
    let atom = match (frg.n_sm, m) {
        (1, 64) => format!("((_16,_4),_{n}):((_1,_32),_128)"),
        (1, 128) | (2, 128) => format!("(_128,_{n}):(_1,_128)"),
        (2, 32) if frg.duplicated => {
            return Err(Error::new(
                ErrorKind::Inadmissible,
                op,
                "only TmemAllocMode::Interleaved is supported for UMMA_2SM M_MMA=32",
            ))
        }
        // duplicated: each SM's 64 rows over all 128 data paths
        (2, 64) if frg.duplicated => format!("(_128,_{n}):(_1,_128)"),
        (2, 32) => format!("(_32,(_{},_4)):(_1,(_128,_32))", n / 4),
        (2, 64) => format!("(_64,(_{},_2)):(_1,(_128,_64))", n / 2),
        (1, _) => return Err(bad_m("64 or 128")),
        _ => return Err(bad_m("32 or 64 or 128")),
    };
    let atom = lay(&atom, op)?;
    // the 1-SM M = 64 atom "skips" every other tile of data paths when not interleaved
    let tiles = if frg.n_sm == 1 && m == 64 && frg.non_interleaved {
        let wide = Layout::leaf(Int::new_static(rest.cosize()?.value().max(1) * 2), Int::new_static(2));
        algebra::composition(&wide, &rest)?
    } else {
        rest
    };
    let logical = algebra::tiled_product(&atom, &tiles)?;
    let col = (frg.storage_bits / frg.value_bits.max(1)).max(1);
    let restride = lay(&format!("(_128,_16384):(_{},_{col})", dp(frg.value_bits)), op)?;
    algebra::composition(&restride, &logical)
}

/// CuTe's `partition_fragment_C(mma, shape)` of a tcgen05 TiledMMA: the
/// accumulator tensor in tensor memory (a [`TmemTensor`] of the op's C type).
///
/// Pre: the MMA is a tcgen05 (UMMA) one (else a `Type` error: its C fragment
/// is in registers, [`crate::atom::ThrMma::partition_fragment`]); `shape`
/// as CuTe's `partition_shape_C`. Post: `tmem_frg(partition_shape_C(mma, shape))`.
///
/// ```
/// use kute::atom::{tmem, MmaAtom, TiledMma};
/// let op = "SM100_MMA_F16BF16_TS<half_t,half_t,float,64,48,UMMA::Major::K,UMMA::Major::MN>";
/// let m = TiledMma::new(MmaAtom::new(op).unwrap(), None, None).unwrap();
/// let acc = tmem::partition_fragment_c(&m, &"(_64,_48)".parse().unwrap()).unwrap();
/// assert_eq!(acc.layout().to_string(), "(((_16,_4),_48),_1,_1):(((_65536,_2097152),_1),_0,_0)");
/// let sm80 = TiledMma::new(MmaAtom::new("SM80_16x8x8_F16F16F16F16_TN").unwrap(), None, None).unwrap();
/// assert!(tmem::partition_fragment_c(&sm80, &"(_16,_8)".parse().unwrap()).is_err());
/// ```
pub fn partition_fragment_c(mma: &TiledMma, shape: &IntTuple) -> Result<TmemTensor> {
    let op = "partition_fragment_C";
    let Some(frg) = &mma.atom().traits().tmem_c else {
        return Err(Error::new(
            ErrorKind::Type,
            op,
            "the accumulator of this MMA is in registers; take a thread's fragment: \
             partition_fragment_C(get_slice(mma, t), T)",
        ));
    };
    let tmem_shape = mma.partition_shape(Operand::C, shape).map_err(|e| e.within(op))?;
    TmemTensor::new(&frg.value_type, tmem_frg(frg, &tmem_shape).map_err(|e| e.within(op))?)
}

/// The rest modes `take<1,R>(tmem_shape)` as a compact layout, and the
/// first mode, checked to be `(M_MMA, N_MMA)` (rank 2).
fn split_frg_shape(tmem_shape: &IntTuple, op: &'static str) -> Result<(Layout, Layout)> {
    crate::sym::refuse(op, || tmem_shape.has_symbols())?;
    let shape = Layout::from_shape(tmem_shape)?;
    let mode0 = if shape.rank() >= 2 { Some(shape.mode(0)?) } else { None };
    let Some(mode0) = mode0.filter(|m| m.rank() == 2) else {
        return Err(Error::new(
            ErrorKind::Inadmissible,
            op,
            format!("expected a post-partitioned shape ((M_MMA,N_MMA),...), got {tmem_shape}"),
        ));
    };
    let rest_modes: Vec<Layout> = (1..shape.rank()).map(|i| shape.mode(i)).collect::<Result<_>>()?;
    let rest = Layout::from_shape(&Layout::concat(&rest_modes)?.shape())?;
    Ok((mode0, rest))
}

/// CuTe's `UMMA::tmem_e_frg<ValueType>::make(tmem_shape)`: the metadata of
/// a sparse tcgen05 MMA in tensor memory, for the partitioned shape
/// `((M_MMA, K_MMA), MMA_M, MMA_K, ...)`, `bits` the width of `ValueType`.
///
/// Pre: M_MMA is 128, and K_MMA is 16, 32, 64 or 128 for `bits` 32, 16, 8
/// or 4 (CuTe's `static_assert`s; else an `Inadmissible` error); no symbolic
/// extents (else an `Undecided` error). Post: a
/// tensor of `sparse_elem<S,uint8_t>` (S = 4, 8, 16): coordinate → address in
/// bits (`TMEM::DP_b` = 2^21 a data path; 2^22 for 4-bit types).
///
/// ```
/// use kute::atom::tmem::tmem_e_frg;
/// let e = tmem_e_frg(8, &"((_128,_64),_1,_2)".parse().unwrap()).unwrap();
/// assert_eq!(e.to_string(), "tmem_[_1b](0x0000.0000) o ((_128,_64),_1,_2):((_2097152,_1),_0,_64)");
/// assert!(tmem_e_frg(8, &"((_64,_64),_1,_2)".parse().unwrap()).is_err());
/// ```
pub fn tmem_e_frg(bits: i64, tmem_shape: &IntTuple) -> Result<TmemTensor> {
    let op = "tmem_e_frg";
    let (mode0, rest) = split_frg_shape(tmem_shape, op)?;
    let (m, n) = (mode0.mode(0)?.size()?.value(), mode0.mode(1)?.size()?.value());
    if m != 128 {
        return Err(Error::new(
            ErrorKind::Inadmissible,
            op,
            format!("M_MMA must be 128 (only 128 implemented), got {m}"),
        ));
    }
    let dp_b = 1i64 << 21;
    let (want_n, atom, restride, s) = match bits {
        32 => (
            16,
            "((_8,_2,_8),(_8,_2)):((_1,_1024,_16),(_128,_8))",
            algebra::upcast(&lay(&format!("(_128,_16384):(_{dp_b},_1)"), op)?, 2)?,
            4,
        ),
        16 => (
            32,
            "((_8,_2,_8),(_16,_2)):((_1,_2048,_16),(_128,_8))",
            lay(&format!("(_128,_16384):(_{dp_b},_1)"), op)?,
            8,
        ),
        8 => (64, "(_128,_64):(_1,_128)", lay(&format!("(_128,_16384):(_{dp_b},_1)"), op)?, 8),
        4 => (128, "(_128,_128):(_1,_128)", lay(&format!("(_128,_32768):(_{},_1)", 1i64 << 22), op)?, 16),
        _ => {
            return Err(Error::new(
                ErrorKind::Inadmissible,
                op,
                format!("the metadata's value type must have 32, 16, 8 or 4 bits, not {bits}"),
            ))
        }
    };
    if n != want_n {
        return Err(Error::new(
            ErrorKind::Inadmissible,
            op,
            format!("K_MMA must be {want_n} for {bits}-bit values, got {n}"),
        ));
    }
    let logical = algebra::tiled_product(&lay(atom, op)?, &rest)?;
    TmemTensor::sparse_metadata(s, algebra::composition(&restride, &logical)?)
}

/// CuTe's `UMMA::tmem_sf_frg<ValueType, SFVecSize, N_SM, Is_SFA, TmemAlloc>::make(tmem_shape)`:
/// the scale factors of A (`is_sfa`) or B of a block-scaled tcgen05 MMA in
/// tensor memory, for the partitioned shape `((MMA_MN, (VS, NSF)), MMA_MN_s, MMA_K_s, ...)`
/// (VS values share a scale factor, NSF scale factors along the MMA's K).
///
/// Pre: that form, of rank 3 or more, MMA_MN a multiple of 32 (64 for the
/// 2×2 data path of SFB), else an `Inadmissible` error (for other MMA_MN,
/// CuTe's integer division gives an atom of fewer rows than MMA_MN, which
/// drops scale factors; kute errs); no symbolic extents (else an
/// `Undecided` error). Post: coordinate → tensor-memory element offset; the
/// scale factors are replicated over the 4 subpartitions, and the VS values of a scale factor share its address (stride 0).
///
/// ```
/// use kute::atom::{tmem::tmem_sf_frg, traits::TmemSf};
/// let sf = TmemSf { value_type: "float_ue8m0_t".into(), value_bits: 8, n_sm: 1, sfb_2by2: false };
/// let t = tmem_sf_frg(&sf, true, &"((_128,(_32,_1)),_1,_4)".parse().unwrap()).unwrap();
/// assert_eq!(t.layout().to_string(), "((((_32,_4),_4),(_32,_1)),_1,_4):((((_262144,_4),_8388608),(_0,_1)),_0,_1)");
/// assert!(tmem_sf_frg(&sf, true, &"((_128,_32),_1,_4)".parse().unwrap()).is_err());
/// ```
pub fn tmem_sf_frg(sf: &TmemSf, is_sfa: bool, tmem_shape: &IntTuple) -> Result<TmemTensor> {
    let op = "tmem_sf_frg";
    let (mode0, rest) = split_frg_shape(tmem_shape, op)?;
    let k_mode = mode0.mode(1)?;
    if rest.rank() < 2 || k_mode.rank() != 2 {
        return Err(Error::new(
            ErrorKind::Inadmissible,
            op,
            format!("expected an MMA-SF partitioned shape ((MMA_MN,(VS,NSF)),MMA_MN_s,MMA_K_s,...), got {tmem_shape}"),
        ));
    }
    let mn = mode0.mode(0)?.size()?.value();
    let (vs, nsf) = (k_mode.mode(0)?.size()?.value(), k_mode.mode(1)?.size()?.value());
    let two_by_two = !is_sfa && sf.sfb_2by2;
    let unit = if two_by_two { 64 } else { 32 };
    if mn <= 0 || mn % unit != 0 {
        // CuTe's atom takes ⌊MMA_MN / unit⌋ blocks of 32 data paths: fewer rows than MMA_MN
        return Err(Error::new(
            ErrorKind::Inadmissible,
            op,
            format!(
                "MMA_MN must be a positive multiple of {unit} for this data path, got {mn} (CuTe's atom would \
                 hold only {} of its rows)",
                mn / unit * unit
            ),
        ));
    }
    let atom = if two_by_two {
        format!("(((_32,_{}),_2,_2),(_{vs},_{nsf})):(((_1,_512),_64,_32),(_0,_128))", mn / 64)
    } else {
        format!("(((_32,_{}),_4),(_{vs},_{nsf})):(((_1,_512),_32),(_0,_128))", mn / 32)
    };
    let logical = algebra::tiled_product(&lay(&atom, op)?, &rest)?;
    let restride = lay(&format!("(_128,_16384):(_{},_1)", dp(sf.value_bits)), op)?;
    TmemTensor::new(&sf.value_type, algebra::composition(&restride, &logical)?)
}

/// CuTe's `make_tensor<FrgTypeX>(tmem_shape)` for a tcgen05 op's fragments
/// in tensor memory, `frg` one of `FrgTypeA` (the `_TS` ops' A), `FrgTypeC`
/// (the accumulator), `FrgTypeE` (the sparse ops' metadata), `FrgTypeSFA`,
/// `FrgTypeSFB` (the block-scaled ops' scale factors).
///
/// Pre: the op has that fragment in tensor memory (else a `Type` error:
/// e.g. the `_SS` ops' A is a shared-memory descriptor); `tmem_shape` as the
/// fragment's `make` demands ([`tmem_frg`], [`tmem_e_frg`], [`tmem_sf_frg`]).
/// Post: the tensor CuTe makes.
///
/// ```
/// use kute::atom::{tmem::make_fragment, MmaAtom};
/// let ts = MmaAtom::new("SM100_MMA_F16BF16_TS<half_t,half_t,float,128,64,UMMA::Major::K,UMMA::Major::K>").unwrap();
/// let a = make_fragment(&ts, "FrgTypeA", &"((_128,_16),_1,_2)".parse().unwrap()).unwrap();
/// assert_eq!(a.to_string(), "tmem_[16b](0x0000.0000) o ((_128,_16),_1,_2):((_131072,_1),_0,_16)");
/// assert!(make_fragment(&ts, "FrgTypeE", &"((_128,_16),_1,_2)".parse().unwrap()).is_err());
/// ```
pub fn make_fragment(atom: &MmaAtom, frg: &str, tmem_shape: &IntTuple) -> Result<TmemTensor> {
    let op = "make_tensor";
    let t = atom.traits();
    let none = || {
        // (the other architectures' MMAs keep their fragments in registers:
        // CuTe's register tensors, with its sparse and scale-factor element
        // types, which kute does not model)
        let why = if t.name.starts_with("SM10") {
            format!("'{}' has no {frg} in tensor memory (FrgTypeA of the _TS ops, FrgTypeC, FrgTypeE of the sparse ops, FrgTypeSFA/SFB of the block-scaled ops)", t.name)
        } else {
            format!("'{}' keeps its {frg} in registers, a register fragment, which kute does not model (it makes the tensor-memory fragments of the SM100 UMMA ops)", t.name)
        };
        Error::new(ErrorKind::Type, op, why)
    };
    let frag = |f: &Option<TmemFrg>| -> Result<TmemTensor> {
        let f = f.as_ref().ok_or_else(none)?;
        TmemTensor::new(&f.value_type, tmem_frg(f, tmem_shape)?)
    };
    match frg {
        "FrgTypeA" => frag(&t.tmem_a),
        "FrgTypeC" => frag(&t.tmem_c),
        "FrgTypeE" => tmem_e_frg(t.tmem_e_bits.ok_or_else(none)?, tmem_shape),
        "FrgTypeSFA" | "FrgTypeSFB" => {
            tmem_sf_frg(t.tmem_sf.as_ref().ok_or_else(none)?, frg == "FrgTypeSFA", tmem_shape)
        }
        _ => Err(none()),
    }
    .map_err(|e| e.within(op))
}

/// CuTe's `thr_mma.partition_fragment_A(tensor)` of a tcgen05 op whose A is
/// in tensor memory (a `_TS` op): `make_tensor<FrgTypeA>` of the partitioned
/// shape, the same for every thread of the MMA.
///
/// Pre: the op is a `_TS` op (else a `Type` error); `shape` (M×K) as
/// CuTe's `partition_shape_A`. Post: `tmem_frg(partition_shape_A(mma, shape))`
/// in A's type.
///
/// ```
/// use kute::atom::{tmem, MmaAtom, TiledMma};
/// let op = "SM100_MMA_F16BF16_TS<half_t,half_t,float,64,128,UMMA::Major::K,UMMA::Major::K>";
/// let m = TiledMma::new(MmaAtom::new(op).unwrap(), None, None).unwrap();
/// let a = tmem::partition_fragment_a(&m, &"(_128,_64)".parse().unwrap()).unwrap();
/// assert_eq!(a.layout().to_string(), "(((_16,_4),_16),_2,_4):(((_131072,_4194304),_1),_16,_32)");
/// ```
pub fn partition_fragment_a(mma: &TiledMma, shape: &IntTuple) -> Result<TmemTensor> {
    let op = "partition_fragment_A";
    let Some(frg) = &mma.atom().traits().tmem_a else {
        return Err(Error::new(
            ErrorKind::Type,
            op,
            "A of this MMA is not in tensor memory (only the _TS tcgen05 ops read A from there)",
        ));
    };
    let tmem_shape = mma.partition_shape(Operand::A, shape).map_err(|e| e.within(op))?;
    TmemTensor::new(&frg.value_type, tmem_frg(frg, &tmem_shape).map_err(|e| e.within(op))?)
}

/// CuTe's `make_tmem_copy(op, tmem)` / `make_tmem_copy(Copy_Atom<op, T>, tmem)`:
/// the tiled copy of 4 warps (128 threads, warp `w` on data paths `32w ..
/// 32w + 31`) that moves the tensor-memory tensor `tmem` with the
/// tensor-memory op `op` (`SM100_TMEM_LOAD_*` / `SM100_TMEM_STORE_*`).
///
/// Pre: `op` is a tensor-memory op (it has a `ValID`, else an `Inadmissible`
/// error); `copy_type`, when given, has the width of the tensor's elements
/// (else `Mismatch`); the op's accesses tile the tensor (else CuTe's errors:
/// "Left inverse divisibility condition", or the memory the atom points to
/// does not exist in the tensor). Post: CuTe's `make_cotiled_copy` of the
/// atom's (thread, value) → address layout and the tensor's layout.
///
/// ```
/// use kute::atom::tmem::{make_tmem_copy, TmemTensor};
/// let acc = TmemTensor::new("float", "((_128,_256),_1,_1):((_65536,_1),_0,_0)".parse().unwrap()).unwrap();
/// let c = make_tmem_copy("SM100_TMEM_LOAD_16dp256b1x", None, &acc).unwrap();
/// assert_eq!(c.tiled_layout_tv().to_string(), "((_32,_4),(_8,_16)):((_0,_1),(_4,_32))");
/// assert!(make_tmem_copy("SM100_TMEM_LOAD_16dp256b1x", Some("half_t"), &acc).is_err());
/// assert!(make_tmem_copy("SM75_U32x4_LDSM_N", None, &acc).is_err());
/// ```
pub fn make_tmem_copy(op: &str, copy_type: Option<&str>, tmem: &TmemTensor) -> Result<TiledCopy> {
    let name = "make_tmem_copy";
    let t = copy_type.unwrap_or(&tmem.value_type);
    let atom = CopyAtom::new(op, t).map_err(|e| e.within(name))?;
    let copy_bits = algebra::sizeof_bits(t).unwrap_or(0);
    if copy_bits != tmem.value_bits {
        return Err(Error::new(
            ErrorKind::Mismatch,
            name,
            format!(
                "expected a Copy_Atom with the same type-width as the tensor: {t} has {copy_bits} bits, {} has {}",
                tmem.value_type, tmem.value_bits
            ),
        ));
    }
    let Some(val_id) = atom.traits().val_id.clone() else {
        return Err(Error::new(
            ErrorKind::Inadmissible,
            name,
            format!("'{op}' is not a tensor-memory copy (it has no ValID)"),
        ));
    };
    let bits = tmem.value_bits;
    // thread -> address: the 4 warps each on their own 32 data paths
    let atom_t = lay(&format!("(_32,_4):(_0,_{})", 32 * dp(bits)), name)?;
    // value -> address: the op's bit ids in elements
    let atom_v = algebra::coalesce(&algebra::upcast(&val_id, bits)?)?;
    let atom_tv = Layout::concat([&atom_t, &atom_v])?;
    make_cotiled_copy(atom, &atom_tv, &tmem.layout).map_err(|e| e.within(name))
}

/// CuTe's `make_utccp_copy(op, tmem)`: the tiled copy of a shared-to-tensor-memory
/// op (`SM100_UTCCP_*`, `tcgen05.cp`) over the tensor-memory tensor `tmem`:
/// its one (or, for the `_2cta` ops, two) issuing threads all address the
/// op's values.
///
/// Pre: `op` is a UTCCP op (else an `Inadmissible` error); the op's values
/// tile the tensor (else as [`make_cotiled_copy`]). Post: CuTe's
/// `make_cotiled_copy` of `(size(ThrID)):0` and the op's `ValID` in elements.
///
/// ```
/// use kute::atom::tmem::{make_utccp_copy, TmemTensor};
/// let t = TmemTensor::new("float", "(_128,_8):(_65536,_1)".parse().unwrap()).unwrap();
/// let c = make_utccp_copy("SM100_UTCCP_128dp256bit_1cta", &t).unwrap();
/// assert_eq!(c.tiled_layout_tv().to_string(), "(_1,(_128,_8)):(_0,(_1,_128))");
/// assert!(make_utccp_copy("SM100_TMEM_LOAD_32dp32b1x", &t).is_err());
/// ```
pub fn make_utccp_copy(op: &str, tmem: &TmemTensor) -> Result<TiledCopy> {
    let name = "make_utccp_copy";
    if !op.contains("_UTCCP_") {
        return Err(Error::new(ErrorKind::Inadmissible, name, format!("'{op}' is not a UTCCP (tcgen05.cp) op")));
    }
    let atom = CopyAtom::new(op, &tmem.value_type).map_err(|e| e.within(name))?;
    let Some(val_id) = atom.traits().val_id.clone() else {
        return Err(Error::new(ErrorKind::Inadmissible, name, format!("'{op}' has no ValID")));
    };
    let threads = atom.thr_id().size()?;
    let atom_t = Layout::leaf(threads, Int::new_static(0));
    let atom_v = algebra::coalesce(&algebra::upcast(&val_id, tmem.value_bits)?)?;
    let atom_tv = Layout::concat([&atom_t, &atom_v])?;
    make_cotiled_copy(atom, &atom_tv, &tmem.layout).map_err(|e| e.within(name))
}

/// CuTe's `make_cotiled_copy(atom, atom_tv_layout, data_layout)`: the tiled
/// copy whose (thread, value) → data address is `atom_tv_layout`, its tile the
/// elements of `data_layout` it reaches, by mode.
///
/// Pre: both static; every address of `atom_tv_layout` is one of
/// `data_layout` (else a `Mismatch` error); `data_layout` has a left inverse.
/// Post: `data_layout(tile(layout_tv(t, v))) == atom_tv_layout(t, v)`.
///
/// ```
/// use kute::atom::{tmem::make_cotiled_copy, CopyAtom};
/// let atom = CopyAtom::new("UniversalCopy<uint32_t>", "float").unwrap();
/// let c = make_cotiled_copy(atom, &"(_4,_1):(_1,_0)".parse().unwrap(), &"(_4,_2):(_1,_4)".parse().unwrap()).unwrap();
/// assert_eq!(c.tiled_layout_tv().to_string(), "(_4,_1):(_1,_0)");
/// ```
pub fn make_cotiled_copy(atom: CopyAtom, atom_tv: &Layout, data: &Layout) -> Result<TiledCopy> {
    let op = "make_cotiled_copy";
    let unit = Layout::leaf(Int::new_static(1), Int::new_static(0));
    // data address -> data coordinate (off-the-end addresses to 0)
    let inv_data = Layout::concat([&algebra::left_inverse(data)?, &unit])?;
    // (thread, value) -> data coordinate
    let tv_data = algebra::composition(&inv_data, atom_tv)?;
    let lhs = algebra::coalesce(&algebra::composition(&Layout::concat([data, &unit])?, &tv_data.mode(1)?)?)?;
    if lhs != algebra::coalesce(&atom_tv.mode(1)?)? {
        return Err(Error::new(
            ErrorKind::Mismatch,
            op,
            format!("the memory pointed to by the atom's layout {atom_tv} does not exist in the data layout {data}"),
        ));
    }
    // the tiler: by mode, the data coordinates the atom reaches
    let flat = crate::int_tuple::product_each(data.shape().as_ref())?;
    let flat_layout = Layout::from_shape(&flat)?;
    let rank = flat_layout.rank();
    let mut tilers = Vec::with_capacity(rank);
    for i in 0..rank {
        let strides = IntTuple::tuple_of_leaves((0..rank).map(|j| Int::new_static(i64::from(i == j))));
        let unit_i = Layout::new(flat.clone(), strides)?;
        tilers.push(algebra::filter(&algebra::composition(&unit_i, &tv_data)?)?);
    }
    let tiler = Tiler::Tuple(tilers.iter().cloned().map(Tiler::Layout).collect());
    // tile coordinate -> data coordinate, and (thread, value) -> tile coordinate
    let tile2data = algebra::composition_tiler(&flat_layout, &tiler)?;
    let layout_tv = algebra::composition(&algebra::left_inverse(&tile2data)?, &tv_data)?;
    let copy = TiledCopy::new(atom, layout_tv, tiler)?;
    // the data's rows (of its first mode), for a picture of a tiler of more than two modes
    match data.mode(0).and_then(|m0| if m0.rank() >= 2 { m0.mode(0) } else { Ok(m0) }) {
        Ok(rows) if !rows.has_symbols() => Ok(copy.with_picture_rows(rows.size()?.value())),
        _ => Ok(copy),
    }
}
