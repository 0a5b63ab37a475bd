//! The parts of an im2col TMA atom ([`super::tma_im2col`]): the descriptor's
//! arguments and the coordinate tensor. Apart from the construction, so that a
//! copy atom can hold them without its module importing the construction.

use super::tma_desc::TmaOp;
use crate::error::Result;
use crate::int_tuple::IntTuple;
use crate::layout::point::Point;
use crate::layout::Layout;
use std::fmt;

/// The arguments CuTe passes to the driver's `cuTensorMapEncodeIm2col` for an
/// im2col TMA copy.
///
/// The modes are the activation's `(C,W,H,D,N)` (or however the smem's
/// contiguous mode orders them); `global_strides` are in bytes and leave out
/// the first mode's; the corners have one entry per spatial mode; the box is
/// `channels_per_pixel` × `pixels_per_column`; `element_strides` are the
/// traversal strides (1 for the channel and batch modes). CuTe passes no
/// interleave, its default L2 promotion and no out-of-bounds fill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Im2colDescriptor {
    /// `CUtensorMapDataType` without its prefix.
    pub data_type: &'static str,
    /// `tensorRank`: 3 to 5.
    pub rank: usize,
    /// `globalDim`.
    pub global_dim: Vec<u64>,
    /// `globalStrides`: byte strides of the modes but the first.
    pub global_strides: Vec<u64>,
    /// `pixelBoxLowerCorner`.
    pub lower_corner: Vec<i32>,
    /// `pixelBoxUpperCorner`.
    pub upper_corner: Vec<i32>,
    /// `channelsPerPixel`: the box's extent in the contiguous mode.
    pub channels_per_pixel: u32,
    /// `pixelsPerColumn`: the box's extent in pixels (one CTA's share under multicast).
    pub pixels_per_column: u32,
    /// `elementStrides`: the traversal strides.
    pub element_strides: Vec<u32>,
    /// `CUtensorMapSwizzle` without its prefix.
    pub swizzle: &'static str,
}

impl fmt::Display for Im2colDescriptor {
    /// One argument a line, as the test data's generator prints them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn list<T: ToString>(v: &[T]) -> String {
            format!("({})", v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(","))
        }
        writeln!(f, "cuTensorMapEncodeIm2col")?;
        writeln!(f, "  dataType:            {}", self.data_type)?;
        writeln!(f, "  tensorRank:          {}", self.rank)?;
        writeln!(f, "  globalDim:           {}", list(&self.global_dim))?;
        writeln!(f, "  globalStrides:       {}", list(&self.global_strides))?;
        writeln!(f, "  pixelBoxLowerCorner: {}", list(&self.lower_corner))?;
        writeln!(f, "  pixelBoxUpperCorner: {}", list(&self.upper_corner))?;
        writeln!(f, "  channelsPerPixel:    {}", self.channels_per_pixel)?;
        writeln!(f, "  pixelsPerColumn:     {}", self.pixels_per_column)?;
        writeln!(f, "  elementStrides:      {}", list(&self.element_strides))?;
        writeln!(f, "  interleave:          NONE")?;
        writeln!(f, "  swizzle:             {}", self.swizzle)?;
        writeln!(f, "  l2Promotion:         {L2_PROMOTION}")?;
        write!(f, "  oobFill:             NONE")
    }
}

/// CuTe's default `TMA::DescriptorAuxParams` L2 promotion.
const L2_PROMOTION: &str = "NONE";

/// The coordinate tensor of an im2col TMA copy (what CuTe's `get_tma_tensor`
/// returns, whatever the shape asked): `ArithTuple(lower) o multimode o offset o linear`.
///
/// `linear` is the identity of the GEMM view `(pixels, (C,S,R,T))` (the
/// pixels linearized), `multimode` maps the hierarchical GEMM coordinate
/// `((Q,P,Z,N),(C,S,R,T))` to the TMA's im2col coordinate `(c,(w,h,d),n,(s,r,t))`
/// (output pixels scaled by the traversal strides, filter offsets by the
/// dilation), and `lower` is the coordinate of the origin `(_0, lower_corner_whd, _0, lower_srt)`.
/// CuTe keeps run-time output extents as `cutlass::FastDivmod`; kute keeps them
/// as run-time integers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Im2colTensor {
    lower: IntTuple,
    multimode: Layout,
    offset: IntTuple,
    linear: Layout,
}

impl Im2colTensor {
    pub(crate) fn new(lower: IntTuple, multimode: Layout, offset: IntTuple, linear: Layout) -> Im2colTensor {
        Im2colTensor { lower, multimode, offset, linear }
    }

    /// The TMA coordinate of the origin.
    ///
    /// Pre: none. Post: `(_0, lower_corner_whd, _0, lower_srt)`.
    ///
    /// ```
    /// # use kute::atom::tma::{GmemTensor, TmaOp};
    /// # use kute::atom::tma_im2col::{make_im2col_tma_copy, ConvParams};
    /// # let g = GmemTensor::new("half_t", 0, "((8,8,2),64):((64,512,4096),_1)".parse().unwrap()).unwrap();
    /// # let s = kute::AnyLayout::Layout("(_64,_32):(_32,_1)".parse().unwrap());
    /// # let p = ConvParams::parse("(-1,-1)", "(-1,-1)", "(1,1)", "(1,1)", "(2,2)", "(0,0)", "(1,1)").unwrap();
    /// let c = make_im2col_tma_copy(TmaOp::LoadIm2col, &g, &s, None, None, Some(&p)).unwrap();
    /// let i = c.atom().im2col().unwrap();
    /// assert_eq!(i.tensor().lower().to_string(), "(_0,(-1,-1),_0,(0,0))");
    /// ```
    pub fn lower(&self) -> &IntTuple {
        &self.lower
    }

    /// The layout from the hierarchical GEMM coordinate to the TMA coordinate.
    ///
    /// Pre: none. Post: basis strides into `(c,(w,h,d),n,(s,r,t))`.
    ///
    /// ```
    /// # use kute::atom::tma::{GmemTensor, TmaOp};
    /// # use kute::atom::tma_im2col::{make_im2col_tma_copy, ConvParams};
    /// # let g = GmemTensor::new("half_t", 0, "((8,8,2),64):((64,512,4096),_1)".parse().unwrap()).unwrap();
    /// # let s = kute::AnyLayout::Layout("(_64,_32):(_32,_1)".parse().unwrap());
    /// # let p = ConvParams::parse("(-1,-1)", "(-1,-1)", "(1,1)", "(1,1)", "(2,2)", "(0,0)", "(1,1)").unwrap();
    /// let c = make_im2col_tma_copy(TmaOp::LoadIm2col, &g, &s, None, None, Some(&p)).unwrap();
    /// let i = c.atom().im2col().unwrap();
    /// // 4x4 output pixels (stride 2) of 2 images; 64 channels at 3x3 filter offsets
    /// assert_eq!(i.tensor().multimode().to_string(), "((4,4,2),(64,3,3)):((2@0@1,2@1@1,_1@2),(_1@0,1@0@3,1@1@3))");
    /// ```
    pub fn multimode(&self) -> &Layout {
        &self.multimode
    }

    /// The identity layout of the linearized GEMM view.
    ///
    /// Pre: none. Post: `make_identity_layout((pixels, (C,S,R,T)))` (the modes
    /// in the order of the smem's, as CuTe orders them).
    ///
    /// ```
    /// # use kute::atom::tma::{GmemTensor, TmaOp};
    /// # use kute::atom::tma_im2col::{make_im2col_tma_copy, ConvParams};
    /// # let g = GmemTensor::new("half_t", 0, "((8,8,2),64):((64,512,4096),_1)".parse().unwrap()).unwrap();
    /// # let s = kute::AnyLayout::Layout("(_64,_32):(_32,_1)".parse().unwrap());
    /// # let p = ConvParams::parse("(-1,-1)", "(-1,-1)", "(1,1)", "(1,1)", "(2,2)", "(0,0)", "(1,1)").unwrap();
    /// let c = make_im2col_tma_copy(TmaOp::LoadIm2col, &g, &s, None, None, Some(&p)).unwrap();
    /// let i = c.atom().im2col().unwrap();
    /// assert_eq!(i.tensor().linear().to_string(), "(32,(64,3,3)):(_1@0,(_1@0@1,_1@1@1,_1@2@1))");
    /// ```
    pub fn linear(&self) -> &Layout {
        &self.linear
    }

    /// The TMA coordinate at a GEMM coordinate (an integer, or a coordinate of `linear`).
    ///
    /// Pre: `c` lies in the linear view (else a `Mismatch` error).
    /// Post: `lower + multimode(offset + linear(c))`, with CuTe's static marks.
    ///
    /// ```
    /// # use kute::atom::tma::{GmemTensor, TmaOp};
    /// # use kute::atom::tma_im2col::{make_im2col_tma_copy, ConvParams};
    /// # let g = GmemTensor::new("half_t", 0, "((8,8,2),64):((64,512,4096),_1)".parse().unwrap()).unwrap();
    /// # let s = kute::AnyLayout::Layout("(_64,_32):(_32,_1)".parse().unwrap());
    /// let p = ConvParams::parse("(-1,-1)", "(-1,-1)", "(1,1)", "(1,1)", "(1,1)", "(0,0)", "(1,1)").unwrap();
    /// let c = make_im2col_tma_copy(TmaOp::LoadIm2col, &g, &s, None, None, Some(&p)).unwrap();
    /// let t = c.atom().im2col().unwrap().tensor();
    /// // pixel 70 = (w 6, h 0, n 1), channel 63, filter offset (s 2, r 2)
    /// assert_eq!(t.at(&"(70,(63,2,2))".parse().unwrap()).unwrap().to_string(), "(63,(5,-1),1,(2,2))");
    /// ```
    pub fn at(&self, c: &IntTuple) -> Result<Point> {
        let go = || -> Result<Point> {
            let lin = match c.as_ref().as_leaf() {
                Some(i) => self.linear.eval_point(i)?,
                None => {
                    crate::layout::slice::check_coord_range(c, &self.linear.shape(), &self.linear.to_string())?;
                    self.linear.eval_coord_point(c)?
                }
            };
            let p = crate::tensor::add_points(&Point::Tuple(self.offset.clone()), &lin)?;
            let q = self.multimode.eval_coord_point(&p.to_int_tuple())?;
            crate::tensor::add_points(&Point::Tuple(self.lower.clone()), &q)
        };
        go().map_err(|e| e.in_op("evaluate"))
    }
}

impl fmt::Display for Im2colTensor {
    /// CuTe's print of the tensor.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ArithTuple{} o {} o {} o {}", self.lower, self.multimode, self.offset, self.linear)
    }
}

/// What an im2col TMA atom carries beside its layouts: the op, the
/// descriptor's arguments and the coordinate tensor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Im2colParams {
    op: TmaOp,
    descriptor: Im2colDescriptor,
    tensor: Im2colTensor,
}

impl Im2colParams {
    pub(crate) fn new(op: TmaOp, descriptor: Im2colDescriptor, tensor: Im2colTensor) -> Im2colParams {
        Im2colParams { op, descriptor, tensor }
    }

    /// The TMA op. Pre: none. Post: one of the im2col ops.
    ///
    /// ```
    /// # use kute::atom::tma::{GmemTensor, TmaOp};
    /// # use kute::atom::tma_im2col::{make_im2col_tma_copy, ConvParams};
    /// # let g = GmemTensor::new("half_t", 0, "((8,8,2),64):((64,512,4096),_1)".parse().unwrap()).unwrap();
    /// # let s = kute::AnyLayout::Layout("(_64,_32):(_32,_1)".parse().unwrap());
    /// # let p = ConvParams::parse("(-1,-1)", "(-1,-1)", "(1,1)", "(1,1)", "(2,2)", "(0,0)", "(1,1)").unwrap();
    /// let c = make_im2col_tma_copy(TmaOp::LoadIm2col, &g, &s, None, None, Some(&p)).unwrap();
    /// let i = c.atom().im2col().unwrap();
    /// assert_eq!(i.op(), TmaOp::LoadIm2col);
    /// ```
    pub fn op(&self) -> TmaOp {
        self.op
    }

    /// The arguments of `cuTensorMapEncodeIm2col`. Pre: none. Post: see [`Im2colDescriptor`].
    ///
    /// ```
    /// # use kute::atom::tma::{GmemTensor, TmaOp};
    /// # use kute::atom::tma_im2col::{make_im2col_tma_copy, ConvParams};
    /// # let g = GmemTensor::new("half_t", 0, "((8,8,2),64):((64,512,4096),_1)".parse().unwrap()).unwrap();
    /// # let s = kute::AnyLayout::Layout("(_64,_32):(_32,_1)".parse().unwrap());
    /// # let p = ConvParams::parse("(-1,-1)", "(-1,-1)", "(1,1)", "(1,1)", "(2,2)", "(0,0)", "(1,1)").unwrap();
    /// let c = make_im2col_tma_copy(TmaOp::LoadIm2col, &g, &s, None, None, Some(&p)).unwrap();
    /// let i = c.atom().im2col().unwrap();
    /// assert_eq!(i.descriptor().element_strides, [1, 2, 2, 1]);
    /// assert_eq!((i.descriptor().channels_per_pixel, i.descriptor().pixels_per_column), (32, 64));
    /// ```
    pub fn descriptor(&self) -> &Im2colDescriptor {
        &self.descriptor
    }

    /// The coordinate tensor (CuTe's `get_tma_tensor`). Pre: none. Post: see [`Im2colTensor`].
    ///
    /// ```
    /// # use kute::atom::tma::{GmemTensor, TmaOp};
    /// # use kute::atom::tma_im2col::{make_im2col_tma_copy, ConvParams};
    /// # let g = GmemTensor::new("half_t", 0, "((8,8,2),64):((64,512,4096),_1)".parse().unwrap()).unwrap();
    /// # let s = kute::AnyLayout::Layout("(_64,_32):(_32,_1)".parse().unwrap());
    /// # let p = ConvParams::parse("(-1,-1)", "(-1,-1)", "(1,1)", "(1,1)", "(2,2)", "(0,0)", "(1,1)").unwrap();
    /// let c = make_im2col_tma_copy(TmaOp::LoadIm2col, &g, &s, None, None, Some(&p)).unwrap();
    /// let i = c.atom().im2col().unwrap();
    /// assert_eq!(i.tensor().to_string(), "ArithTuple(_0,(-1,-1),_0,(0,0)) o ((4,4,2),(64,3,3)):((2@0@1,2@1@1,_1@2),(_1@0,1@0@3,1@1@3)) o (_0,(_0,_0,_0)) o (32,(64,3,3)):(_1@0,(_1@0@1,_1@1@1,_1@2@1))");
    /// ```
    pub fn tensor(&self) -> &Im2colTensor {
        &self.tensor
    }
}
