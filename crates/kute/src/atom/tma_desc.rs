//! The parts of a TMA atom ([`super::tma`]): the op, the descriptor's
//! arguments and the gmem basis. Apart from the construction, so that a copy
//! atom can hold them without its module importing the construction.

use super::traits::CopyTraits;
use crate::error::Result;
use crate::layout::Layout;
use crate::stride::StrideTuple;
use crate::swizzle::Swizzle;
use std::fmt;

/// The TMA operations `make_tma_copy` builds copies of (CuTe's op structs).
///
/// ```
/// use kute::atom::tma::TmaOp;
/// assert_eq!(TmaOp::from_name("SM90_TMA_LOAD_MULTICAST"), Some(TmaOp::LoadMulticast));
/// assert_eq!(TmaOp::Load2Sm.name(), "SM100_TMA_2SM_LOAD");
/// assert_eq!(TmaOp::from_name("SM90_TMA_LOAD_IM2COL"), Some(TmaOp::LoadIm2col));
/// assert_eq!(TmaOp::from_name("SM90_TMA_LOAD_IM2COL_NO_SUCH"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TmaOp {
    /// `SM90_TMA_LOAD`: gmem → smem of one CTA.
    Load,
    /// `SM90_TMA_LOAD_MULTICAST`: gmem → smem of several CTAs of a cluster, each loading a slice.
    LoadMulticast,
    /// `SM90_TMA_STORE`: smem → gmem.
    Store,
    /// `SM90_TMA_REDUCE_ADD`: smem added into gmem.
    ReduceAdd,
    /// `SM100_TMA_2SM_LOAD`: gmem → smem of a CTA pair (the 2-SM UMMA's operands).
    Load2Sm,
    /// `SM100_TMA_2SM_LOAD_MULTICAST`.
    Load2SmMulticast,
    /// `SM90_TMA_LOAD_IM2COL`: an im2col box of a convolution's activation → smem
    /// ([`make_im2col_tma_copy`](super::tma_im2col::make_im2col_tma_copy)).
    LoadIm2col,
    /// `SM90_TMA_LOAD_IM2COL_MULTICAST`: the same, the box's pixels split over several CTAs.
    LoadIm2colMulticast,
    /// `SM90_TMA_STORE_IM2COL`: smem → an im2col box of gmem.
    StoreIm2col,
    /// `SM100_TMA_2SM_LOAD_IM2COL`: an im2col box → smem of a CTA pair (a 2-SM UMMA's operand).
    Load2SmIm2col,
    /// `SM100_TMA_2SM_LOAD_IM2COL_MULTICAST`.
    Load2SmIm2colMulticast,
}

const OPS: [(TmaOp, &str); 11] = [
    (TmaOp::Load, "SM90_TMA_LOAD"),
    (TmaOp::LoadMulticast, "SM90_TMA_LOAD_MULTICAST"),
    (TmaOp::Store, "SM90_TMA_STORE"),
    (TmaOp::ReduceAdd, "SM90_TMA_REDUCE_ADD"),
    (TmaOp::Load2Sm, "SM100_TMA_2SM_LOAD"),
    (TmaOp::Load2SmMulticast, "SM100_TMA_2SM_LOAD_MULTICAST"),
    (TmaOp::LoadIm2col, "SM90_TMA_LOAD_IM2COL"),
    (TmaOp::LoadIm2colMulticast, "SM90_TMA_LOAD_IM2COL_MULTICAST"),
    (TmaOp::StoreIm2col, "SM90_TMA_STORE_IM2COL"),
    (TmaOp::Load2SmIm2col, "SM100_TMA_2SM_LOAD_IM2COL"),
    (TmaOp::Load2SmIm2colMulticast, "SM100_TMA_2SM_LOAD_IM2COL_MULTICAST"),
];

impl TmaOp {
    /// The op of a CuTe name (a leading `cute::` allowed).
    ///
    /// Pre: none. Post: `Some(op)` with `op.name() == name`, else `None`.
    ///
    /// ```
    /// assert_eq!(kute::atom::tma::TmaOp::from_name("cute::SM90_TMA_STORE").unwrap().name(), "SM90_TMA_STORE");
    /// ```
    pub fn from_name(name: &str) -> Option<TmaOp> {
        let name = name.trim().trim_start_matches("cute::");
        OPS.iter().find(|(_, n)| *n == name).map(|(op, _)| *op)
    }

    /// CuTe's name of the op.
    ///
    /// Pre: none. Post: the struct's name in CuTe.
    ///
    /// ```
    /// assert_eq!(kute::atom::tma::TmaOp::ReduceAdd.name(), "SM90_TMA_REDUCE_ADD");
    /// ```
    pub fn name(self) -> &'static str {
        OPS.iter().find(|(op, _)| *op == self).map(|(_, n)| *n).unwrap_or("SM90_TMA_LOAD")
    }

    /// Whether the op loads into several CTAs at once.
    ///
    /// Pre: none. Post: true for the four `_MULTICAST` ops.
    ///
    /// ```
    /// assert!(kute::atom::tma::TmaOp::Load2SmMulticast.is_multicast());
    /// ```
    pub fn is_multicast(self) -> bool {
        matches!(
            self,
            TmaOp::LoadMulticast | TmaOp::Load2SmMulticast | TmaOp::LoadIm2colMulticast | TmaOp::Load2SmIm2colMulticast
        )
    }

    /// The traits of the op moving `bits` bits per instruction:
    /// `Copy_Traits<Op, C<bits>, AuxParams>`.
    pub(crate) fn traits(self, bits: i64) -> Result<CopyTraits> {
        let (thr, tv) = match self {
            TmaOp::Load2Sm | TmaOp::Load2SmMulticast | TmaOp::Load2SmIm2col | TmaOp::Load2SmIm2colMulticast => {
                ("_2:_1".to_string(), format!("(_2,_{bits}):(_{bits},_1)"))
            }
            _ => ("_1:_0".to_string(), format!("(_1,_{bits}):(_0,_1)")),
        };
        let tv: Layout = tv.parse()?;
        Ok(CopyTraits {
            name: format!("{}<C<{bits}>>", self.name()),
            thr_id: thr.parse()?,
            src: tv.clone(),
            dst: tv.clone(),
            r#ref: tv,
            val_id: None,
        })
    }
}

impl fmt::Display for TmaOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The arguments CuTe passes to the driver's `cuTensorMapEncodeTiled` for a
/// TMA copy: what the TMA unit is told of the tensor and the box.
///
/// `global_strides` are in bytes and leave out the first mode's (TMA takes it
/// to be one element); `box_dim` is the box one CTA loads (a multicast box is
/// split over the CTAs, from the last mode). CuTe always passes no
/// interleave, L2 promotion of 128 bytes and no out-of-bounds fill.
///
/// ```
/// use kute::atom::tma::{make_tma_copy, GmemTensor, TmaOp};
/// let g = GmemTensor::new("float", 0, "(1024,256):(256,_1)".parse().unwrap()).unwrap();
/// let s = kute::AnyLayout::Layout("(_64,_32):(_32,_1)".parse().unwrap());
/// let c = make_tma_copy(TmaOp::Load, &g, &s, None, None).unwrap();
/// let d = c.atom().tma().unwrap().descriptor();
/// assert_eq!((d.data_type, d.rank), ("FLOAT32", 2));
/// assert_eq!(d.global_dim, [256, 1024]);
/// assert_eq!(d.global_strides, [1024]);
/// assert_eq!(d.box_dim, [32, 64]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TmaDescriptor {
    /// `CUtensorMapDataType` without its prefix (`FLOAT16`, `UINT8`, ...).
    pub data_type: &'static str,
    /// `tensorRank`: the TMA modes, 1 to 5.
    pub rank: usize,
    /// `globalDim`: the extent of each TMA mode.
    pub global_dim: Vec<u64>,
    /// `globalStrides`: the byte stride of each TMA mode but the first.
    pub global_strides: Vec<u64>,
    /// `boxDim`: the box's extent in each mode.
    pub box_dim: Vec<u64>,
    /// `elementStrides`: always 1 in CuTe.
    pub element_strides: Vec<u64>,
    /// `CUtensorMapSwizzle` without its prefix (`NONE`, `32B`, `64B`, `128B`, `128B_ATOM_32B`, ...).
    pub swizzle: &'static str,
}

impl fmt::Display for TmaDescriptor {
    /// One argument a line, as the test data's generator prints them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: &[u64]| format!("({})", v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(","));
        writeln!(f, "cuTensorMapEncodeTiled")?;
        writeln!(f, "  dataType:       {}", self.data_type)?;
        writeln!(f, "  tensorRank:     {}", self.rank)?;
        writeln!(f, "  globalDim:      {}", list(&self.global_dim))?;
        writeln!(f, "  globalStrides:  {}", list(&self.global_strides))?;
        writeln!(f, "  boxDim:         {}", list(&self.box_dim))?;
        writeln!(f, "  elementStrides: {}", list(&self.element_strides))?;
        writeln!(f, "  interleave:     NONE")?;
        writeln!(f, "  swizzle:        {}", self.swizzle)?;
        writeln!(f, "  l2Promotion:    L2_128B")?;
        write!(f, "  oobFill:        NONE")
    }
}

/// What a TMA copy atom carries beside its layouts (CuTe's `AuxTmaParams` and
/// the descriptor): the op, the gmem basis, the strides of its coordinate
/// tensor, the smem swizzle and the descriptor's arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TmaParams {
    op: TmaOp,
    gbasis: Layout,
    g_stride: StrideTuple,
    swizzle: Swizzle,
    descriptor: TmaDescriptor,
}

impl TmaParams {
    pub(crate) fn new(
        op: TmaOp,
        gbasis: Layout,
        g_stride: StrideTuple,
        swizzle: Swizzle,
        descriptor: TmaDescriptor,
    ) -> TmaParams {
        TmaParams { op, gbasis, g_stride, swizzle, descriptor }
    }

    /// The TMA op.
    ///
    /// Pre: none. Post: the op the copy was made for.
    ///
    /// ```
    /// # use kute::atom::tma::*;
    /// # let g = GmemTensor::new("float", 0, "(1024,256):(256,_1)".parse().unwrap()).unwrap();
    /// # let s = kute::AnyLayout::Layout("(_64,_32):(_32,_1)".parse().unwrap());
    /// let c = make_tma_copy(TmaOp::Store, &g, &s, None, None).unwrap();
    /// assert_eq!(c.atom().tma().unwrap().op(), TmaOp::Store);
    /// ```
    pub fn op(&self) -> TmaOp {
        self.op
    }

    /// CuTe's `TmaGmemBasis`: box mode → the gmem mode(s) it walks (`_1@i`).
    ///
    /// Pre: none. Post: a static layout of rank at most 5 whose size is the
    /// box's (before a multicast splits it).
    ///
    /// ```
    /// # use kute::atom::tma::*;
    /// # let g = GmemTensor::new("float", 0, "(1024,256):(256,_1)".parse().unwrap()).unwrap();
    /// # let s = kute::AnyLayout::Layout("(_64,_32):(_32,_1)".parse().unwrap());
    /// let c = make_tma_copy(TmaOp::Load, &g, &s, None, None).unwrap();
    /// assert_eq!(c.atom().tma().unwrap().gbasis().to_string(), "(_32,_64):(_1@1,_1@0)");
    /// ```
    pub fn gbasis(&self) -> &Layout {
        &self.gbasis
    }

    /// CuTe's `g_stride_`: for each gmem mode, the TMA coordinate it steps (`_1@j`), `_0` where none.
    ///
    /// Pre: none. Post: congruent with the gmem tensor's shape.
    ///
    /// ```
    /// # use kute::atom::tma::*;
    /// # let g = GmemTensor::new("float", 0, "(1024,256):(256,_1)".parse().unwrap()).unwrap();
    /// # let s = kute::AnyLayout::Layout("(_64,_32):(_32,_1)".parse().unwrap());
    /// let c = make_tma_copy(TmaOp::Load, &g, &s, None, None).unwrap();
    /// assert_eq!(c.atom().tma().unwrap().g_stride().to_string(), "(_1@1,_1@0)");
    /// ```
    pub fn g_stride(&self) -> &StrideTuple {
        &self.g_stride
    }

    /// The smem layout's swizzle (`Sw<0,4,3>` for none).
    ///
    /// Pre: none. Post: the swizzle the descriptor's mode was read from.
    ///
    /// ```
    /// # use kute::atom::tma::*;
    /// # let g = GmemTensor::new("float", 0, "(1024,256):(256,_1)".parse().unwrap()).unwrap();
    /// # let s = kute::AnyLayout::Layout("(_64,_32):(_32,_1)".parse().unwrap());
    /// let c = make_tma_copy(TmaOp::Load, &g, &s, None, None).unwrap();
    /// assert_eq!(c.atom().tma().unwrap().swizzle().to_string(), "Sw<0,4,3>");
    /// ```
    pub fn swizzle(&self) -> Swizzle {
        self.swizzle
    }

    /// The arguments of `cuTensorMapEncodeTiled`.
    ///
    /// Pre: none. Post: see [`TmaDescriptor`].
    ///
    /// ```
    /// # use kute::atom::tma::*;
    /// # let g = GmemTensor::new("float", 0, "(1024,256):(256,_1)".parse().unwrap()).unwrap();
    /// # let s = kute::AnyLayout::Layout("(_64,_32):(_32,_1)".parse().unwrap());
    /// let c = make_tma_copy(TmaOp::Load, &g, &s, None, None).unwrap();
    /// assert_eq!(c.atom().tma().unwrap().descriptor().swizzle, "NONE");
    /// ```
    pub fn descriptor(&self) -> &TmaDescriptor {
        &self.descriptor
    }
}
