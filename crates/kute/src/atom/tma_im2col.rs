//! CuTe's im2col TMA copies (`cute/atom/copy_traits_sm90_im2col.hpp`):
//! `make_im2col_tma_copy` of `SM90_TMA_LOAD_IM2COL`, `_MULTICAST` and
//! `SM90_TMA_STORE_IM2COL`, the copies of an implicit-GEMM convolution; and
//! their SM100 forms for a UMMA's operands (`copy_traits_sm100_im2col.hpp`:
//! [`make_im2col_tma_copy_sm100`], [`make_im2col_tma_atom_sm100`], with the
//! 2-SM `SM100_TMA_2SM_LOAD_IM2COL` ops).
//!
//! The gmem tensor is a convolution's activation, `((W,H,D,N),C)` as CUTLASS
//! makes it. The TMA unit reads it in im2col mode: a box of `C` channels of a
//! column of output pixels, each pixel's window moved by the filter offset the
//! coordinate names. CuTe builds the copy as its tiled TMA copy does
//! ([`super::tma`]), but keeps at most two smem modes (channels and pixels);
//! the descriptor is encoded with the driver's `cuTensorMapEncodeIm2col`
//! ([`Im2colDescriptor`]), and the coordinate tensor the copy reads is an
//! [`Im2colTensor`]: GEMM coordinates `(pixel, (c, s, r, t))` → TMA
//! coordinates `(c, (w, h, d), n, (s, r, t))`, with the output extents
//! computed from the convolution's corners, padding, strides and dilation
//! ([`ConvParams`]).
//!
//! ```
//! use kute::atom::tma::{GmemTensor, TmaOp};
//! use kute::atom::tma_im2col::{make_im2col_tma_copy, ConvParams};
//! // NHWC half activation, N=2, H=W=8, C=64; a 3x3 filter with padding 1
//! let g = GmemTensor::new("half_t", 0, "((8,8,2),64):((64,512,4096),_1)".parse().unwrap()).unwrap();
//! let s = kute::expr::eval("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{},(_128,_64))").unwrap()
//!     .to_any_layout("s").unwrap();
//! let p = ConvParams::parse("(-1,-1)", "(-1,-1)", "(1,1)", "(1,1)", "(1,1)", "(0,0)", "(1,1)").unwrap();
//! let c = make_im2col_tma_copy(TmaOp::LoadIm2col, &g, &s, None, None, Some(&p)).unwrap();
//! let i = c.atom().im2col().unwrap();
//! assert_eq!((i.descriptor().channels_per_pixel, i.descriptor().pixels_per_column), (64, 128));
//! assert_eq!(i.tensor().multimode().to_string(),
//!            "((8,8,2),(64,3,3)):((1@0@1,1@1@1,_1@2),(_1@0,1@0@3,1@1@3))");
//! ```

use super::copy::{CopyAtom, TiledCopy};
use super::mma::TiledMma;
use super::operand::Operand;
use super::tma::{self, GmemTensor, TmaOp};
pub use super::tma_im2col_desc::{Im2colDescriptor, Im2colParams, Im2colTensor};
use crate::algebra;
use crate::composed::{ops as cops, AnyLayout};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{self, IntTuple};
use crate::layout::Layout;
use crate::stride::{Stride, StrideTuple};
use crate::tiler::Tiler;
use crate::tree::Tree;

fn rule(op: &'static str, msg: impl Into<String>) -> Error {
    Error::inadmissible(op, msg)
}

/// The convolution parameters of CuTe's `make_im2col_tma_copy`, each a tuple
/// over the spatial modes in `(W,H,D)` order, as CUTLASS's convolutions
/// compute them (`conv/collective/detail.hpp`): for an fprop with padding
/// `p`, filter extent `f` and dilation `d`, the lower corner is `-p`, the
/// upper corner `p - (f-1)·d`, the filter's lower corner 0 and `stride_srt` the dilation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvParams {
    /// `lower_corner_whd`: the pixel box's lower corner (the TMA's `pixelBoxLowerCorner`).
    pub lower_corner_whd: IntTuple,
    /// `upper_corner_whd`: the pixel box's upper corner (`pixelBoxUpperCorner`).
    pub upper_corner_whd: IntTuple,
    /// `lower_padding_whd`.
    pub lower_padding_whd: IntTuple,
    /// `upper_padding_whd`.
    pub upper_padding_whd: IntTuple,
    /// `stride_whd`: the traversal strides (the TMA's element strides of the spatial modes).
    pub stride_whd: IntTuple,
    /// `lower_srt`: the filter offsets' lower corner.
    pub lower_srt: IntTuple,
    /// `stride_srt`: the dilation (negated for a dgrad).
    pub stride_srt: IntTuple,
}

impl ConvParams {
    /// The parameters from their texts, in CuTe's argument order.
    ///
    /// Pre: each text is an integer tuple (else the parser's error).
    /// Post: the parameters as written (checked by [`make_im2col_tma_copy`]).
    ///
    /// ```
    /// let p = kute::atom::tma_im2col::ConvParams::parse("(0)", "(0)", "(0)", "(0)", "(2)", "(0)", "(1)").unwrap();
    /// assert_eq!(p.stride_whd.to_string(), "(2)");
    /// ```
    pub fn parse(
        lower_corner_whd: &str,
        upper_corner_whd: &str,
        lower_padding_whd: &str,
        upper_padding_whd: &str,
        stride_whd: &str,
        lower_srt: &str,
        stride_srt: &str,
    ) -> Result<ConvParams> {
        Ok(ConvParams {
            lower_corner_whd: lower_corner_whd.parse()?,
            upper_corner_whd: upper_corner_whd.parse()?,
            lower_padding_whd: lower_padding_whd.parse()?,
            upper_padding_whd: upper_padding_whd.parse()?,
            stride_whd: stride_whd.parse()?,
            lower_srt: lower_srt.parse()?,
            stride_srt: stride_srt.parse()?,
        })
    }

    /// The parameters of a copy with no offsets (CuTe's overloads without
    /// them): static zero corners and paddings, static unit strides.
    ///
    /// Pre: none. Post: seven tuples of `spatial` static integers.
    ///
    /// ```
    /// let p = kute::atom::tma_im2col::ConvParams::no_offsets(2);
    /// assert_eq!((p.lower_corner_whd.to_string(), p.stride_srt.to_string()), ("(_0,_0)".into(), "(_1,_1)".into()));
    /// ```
    pub fn no_offsets(spatial: usize) -> ConvParams {
        let t = |v: i64| IntTuple::tuple_of_leaves(std::iter::repeat_n(Int::new_static(v), spatial));
        ConvParams {
            lower_corner_whd: t(0),
            upper_corner_whd: t(0),
            lower_padding_whd: t(0),
            upper_padding_whd: t(0),
            stride_whd: t(1),
            lower_srt: t(0),
            stride_srt: t(1),
        }
    }

    fn all(&self) -> [(&'static str, &IntTuple); 7] {
        [
            ("lower_corner_whd", &self.lower_corner_whd),
            ("upper_corner_whd", &self.upper_corner_whd),
            ("lower_padding_whd", &self.lower_padding_whd),
            ("upper_padding_whd", &self.upper_padding_whd),
            ("stride_whd", &self.stride_whd),
            ("lower_srt", &self.lower_srt),
            ("stride_srt", &self.stride_srt),
        ]
    }
}

// ------------------------------------------------------------------ the construction

/// The tuple's leaves, checked to be `n` integers.
fn spatial(t: &IntTuple, what: &str, n: usize, op: &'static str) -> Result<Vec<Int>> {
    let xs: Vec<Int> = if t.is_leaf() {
        t.leaves().to_vec()
    } else {
        (0..t.rank())
            .map(|i| t.get(i).ok().and_then(|m| m.as_ref().as_leaf()))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| rule(op, format!("{what} {t} is not a flat tuple of integers")))?
    };
    if xs.len() != n {
        return Err(rule(op, format!("{what} {t} has {} entries; the activation has {n} spatial modes", xs.len())));
    }
    if xs.iter().any(|x| x.is_symbolic()) {
        return Err(rule(op, format!("{what} {t} holds a symbol")));
    }
    Ok(xs)
}

/// The mode of `l` a basis element names (CuTe's `basis_get` on a layout's shape and stride).
fn layout_at(l: &Layout, e: Stride, op: &'static str) -> Result<Layout> {
    let path = e.path();
    l.mode_at(&path).map_err(|_| rule(op, format!("the basis {e} names no mode of the gmem layout {l}")))
}

/// The tuple of `modes` of `t` a path names (`basis_get` on a tuple).
fn pick<L: Copy>(t: &[Tree<L>], e: Stride) -> Option<Tree<L>> {
    let p = e.path();
    (p.len() == 1).then(|| t.get(p[0]).cloned()).flatten()
}

/// CuTe's `conditional_return(b, x, y)` where `b` may be known only at run time.
fn cond(b: Int, yes: Int, no: Int, op: &'static str) -> Result<Int> {
    let pick = if b.value() > 0 { yes } else { no };
    if b.is_static() {
        return Ok(pick);
    }
    match (yes.is_static(), no.is_static()) {
        (true, true) if yes.value() != no.value() => Err(rule(
            op,
            format!("the padding of a filter mode is {yes} or {no}, two compile-time values, by a run-time dilation"),
        )),
        (true, true) => Ok(pick),
        _ => Ok(pick.to_dynamic()),
    }
}

/// CuTe's `make_tma_atom_im2col` and `make_im2col_tma_copy_desc`.
fn im2col_atom(
    op: TmaOp,
    g: &GmemTensor,
    slayout: &AnyLayout,
    num_multicast: i64,
    cta_v_map: &Layout,
    conv: Option<&ConvParams>,
    name: &'static str,
) -> Result<CopyAtom> {
    crate::sym::refuse(name, || slayout.has_symbols() || cta_v_map.has_symbols() || g.layout().has_symbols())?;
    let ps = int_tuple::product_each(slayout.shape()?.as_ref())?;
    let pv = int_tuple::product_each(cta_v_map.shape().as_ref())?;
    let same = ps.as_ref().congruent(pv.as_ref())
        && ps.leaves().iter().zip(pv.leaves()).all(|(a, b)| a.is_static() && b.is_static() && a.value() == b.value());
    if !same {
        return Err(rule(
            name,
            format!("the smem layout's shape {ps} and the CTA tile's {pv} differ (TMA needs them equal)"),
        ));
    }
    let swizzle = cops::get_swizzle_portion(slayout).map_err(|e| e.in_op(name))?;
    let smem = cops::get_nonswizzle_portion(slayout).map_err(|e| e.in_op(name))?;
    let swizzle_name = tma::swizzle_mode(swizzle, name)?;
    let data_type = tma::data_type(g.elem())
        .ok_or_else(|| rule(name, format!("TMA has no data format for the element type {}", g.elem())))?;
    // smem index -> gmem mode, the leading modes that step a gmem mode by 1 (at most 2)
    let inv_smem = algebra::right_inverse(&smem)?;
    let sidx = algebra::coalesce(&algebra::composition(cta_v_map, &inv_smem)?)?;
    let gbasis = Layout::identity(&int_tuple::product_each(g.layout().shape().as_ref())?)?;
    let full = algebra::composition(&gbasis, &sidx)?.flatten();
    let unit = |d: &Stride| !d.is_int() && d.scale_int().is_static() && d.scale_int().value() == 1;
    let strides: Vec<Stride> = full.leaves().iter().map(|m| m.stride).collect();
    let smem_rank = if full.shape().is_leaf() { 0 } else { strides.iter().take_while(|d| unit(d)).count() };
    if smem_rank < 2 {
        return Err(rule(
            name,
            format!("im2col needs two smem modes that step a gmem mode by 1 (channels and pixels); the smem tile walks gmem as {full}"),
        ));
    }
    let trunc = full.take(0, 2)?;
    let box_size = trunc.size()?;
    let vt =
        algebra::logical_divide(&trunc, &Layout::leaf(Int::new_dynamic(box_size.value() / num_multicast), Int::ONE))?;
    let v0 = vt.mode(0)?;
    if v0.shape().is_leaf() || v0.rank() != 2 || !v0.mode(0)?.shape().is_leaf() || !v0.mode(1)?.shape().is_leaf() {
        return Err(rule(
            name,
            format!("the box {trunc} split over {num_multicast} CTAs ({vt}) does not keep its channel and pixel modes"),
        ));
    }
    let (mc, mp) = (v0.mode(0)?, v0.mode(1)?);
    let (ec, ep) = (mc.leaves()[0].stride, mp.leaves()[0].stride);
    let (range_c, range_p) = (mc.size()?, mp.size()?);
    // the activation as (C, W, H, D, N): the channel mode first
    let cw = Layout::concat([&layout_at(g.layout(), ec, name)?, &layout_at(g.layout(), ep, name)?])?.flatten();
    let rank = cw.leaves().len();
    if !(3..=5).contains(&rank) {
        return Err(rule(
            name,
            format!(
                "the activation {cw} has {rank} modes; im2col TMA takes 3 to 5 (channels, 1 to 3 spatial modes, batch)"
            ),
        ));
    }
    let ns = rank - 2;
    let shape: Vec<Int> = cw.leaves().iter().map(|m| m.shape).collect();
    let gstride: Vec<Int> = cw
        .leaves()
        .iter()
        .map(|m| m.stride.as_int().ok_or_else(|| rule(name, "a gmem stride is a basis")))
        .collect::<Result<_>>()?;
    let no_offsets = ConvParams::no_offsets(ns);
    let conv = conv.unwrap_or(&no_offsets);
    let [lo, up, lpad, upad, st, lsrt, dil] = conv.all().map(|(what, t)| spatial(t, what, ns, name));
    let (lo, up, lpad, upad, st, lsrt, dil) = (lo?, up?, lpad?, upad?, st?, lsrt?, dil?);
    for (what, xs) in [("stride_whd", &st), ("stride_srt", &dil)] {
        if let Some(i) = xs.iter().position(|x| x.value() == 0) {
            return Err(Error::new(
                crate::error::ErrorKind::DivisionByZero,
                name,
                format!("{what} is 0 in spatial mode {i} (CuTe divides the extents by it)"),
            ));
        }
    }
    let bytes = (g.bits() / 8).max(1) as u64;
    let mut element_strides = vec![1u32; rank];
    for i in 0..ns {
        element_strides[i + 1] = st[i].value() as i32 as u32;
    }
    let descriptor = Im2colDescriptor {
        data_type,
        rank,
        global_dim: shape.iter().map(|s| s.value() as u64).collect(),
        global_strides: gstride[1..].iter().map(|d| bytes.wrapping_mul(d.value() as u64)).collect(),
        lower_corner: lo.iter().map(|x| x.value() as i32).collect(),
        upper_corner: up.iter().map(|x| x.value() as i32).collect(),
        channels_per_pixel: range_c.value() as u32,
        pixels_per_column: range_p.value() as u32,
        element_strides,
        swizzle: swizzle_name,
    };
    // the GEMM extents: output pixels ((Q,P,Z),N) and filter ((C),(S,R,T))
    let one = Int::ONE;
    let mut gemm_mn = Vec::with_capacity(ns + 1);
    for i in 0..ns {
        let q = shape[i + 1].add(up[i])?.sub(lo[i])?.sub(one)?.div(st[i]).map_err(|e| e.in_op(name))?.add(one)?;
        gemm_mn.push(q);
    }
    gemm_mn.push(shape[ns + 1]);
    let mut gemm_k = vec![shape[0]];
    for i in 0..ns {
        let pad = cond(dil[i], upad[i].sub(up[i])?, lo[i].sub(lpad[i])?, name)?;
        gemm_k.push(one.add(pad.div(dil[i]).map_err(|e| e.in_op(name))?)?);
    }
    let mn_t = IntTuple::tuple_of_leaves(gemm_mn.iter().copied());
    let k_t = IntTuple::tuple_of_leaves(gemm_k.iter().copied());
    let pixels = gemm_mn.iter().try_fold(Int::ONE, |a, &b| a.mul(b))?;
    let common = [mn_t, k_t.clone()];
    let linear_common = [IntTuple::leaf(pixels), k_t];
    // the TMA coordinate each GEMM mode steps
    let b = |v: Int, path: &[usize]| Stride::basis(v, path);
    let mut mn_strides: Vec<Stride> = (0..ns).map(|i| b(st[i], &[1, i])).collect::<Result<_>>()?;
    mn_strides.push(b(one, &[2])?);
    let mut k_strides = vec![b(one, &[0])?];
    for (i, &d) in dil.iter().enumerate() {
        k_strides.push(b(d, &[3, i])?);
    }
    let stride_common = [StrideTuple::tuple_of_leaves(mn_strides), StrideTuple::tuple_of_leaves(k_strides)];
    let both = |t: &[IntTuple]| -> Result<IntTuple> {
        let (p, c) = (pick(t, ep), pick(t, ec));
        match (p, c) {
            (Some(p), Some(c)) => Ok(Tree::tuple([p.as_ref(), c.as_ref()])),
            _ => Err(rule(name, format!("the smem modes' bases {ep}, {ec} name no GEMM modes"))),
        }
    };
    let gemm_shapes = both(&common)?;
    let linear_shapes = both(&linear_common)?;
    let gbasis_strides = match (pick(&stride_common, ep), pick(&stride_common, ec)) {
        (Some(p), Some(c)) => Tree::tuple([p.as_ref(), c.as_ref()]),
        _ => return Err(rule(name, format!("the smem modes' bases {ep}, {ec} name no GEMM modes"))),
    };
    let multimode = Layout::with_strides(&gemm_shapes, &gbasis_strides)?;
    let linear = Layout::identity(&linear_shapes)?;
    let offset = linear_shapes.map(|_| Int::ZERO);
    let z = IntTuple::leaf(Int::ZERO);
    let lo_t = IntTuple::tuple_of_leaves(lo.iter().copied());
    let lsrt_t = IntTuple::tuple_of_leaves(lsrt.iter().copied());
    let lower = Tree::tuple([z.as_ref(), lo_t.as_ref(), z.as_ref(), lsrt_t.as_ref()]);
    let tensor = Im2colTensor::new(lower, multimode, offset, linear);
    let bits = box_size.value() * g.bits();
    let params = Im2colParams::new(op, descriptor, tensor);
    CopyAtom::with_traits(op.traits(bits)?, g.elem())?.with_im2col(params)
}

/// CuTe `make_im2col_tma_copy(op, gtensor, slayout[, cta_tiler[, multicast_size]][, conv...])`:
/// the im2col TMA copy of a CTA's tile (`cta_tiler`, by default the smem
/// tile's shape) of the activation `gtensor` into or out of smem laid out as
/// `slayout`, the box's pixels split over `multicast_size` CTAs (default 1);
/// without `conv`, CuTe's copy with no offsets (zero corners, unit strides).
///
/// Pre: `op` is an im2col op; `slayout` is static, of the tile's shape, and its
/// two leading contiguous modes step gmem modes by 1 (the channels, then the
/// pixels); its swizzle is one of TMA's; the multicast size is static and
/// divides the tile; TMA has a format for the element type; the activation,
/// channel mode first, has 3 to 5 modes, and each convolution parameter has
/// one integer per spatial mode; no traversal stride or dilation is 0. Else an
/// `Inadmissible` error naming the rule (CuTe's static assertions), or a
/// `DivisionByZero` error.
/// Post: a tiled copy whose atom moves the whole box in one instruction,
/// whose `Tiler_MN` is the tile's shape, and whose atom's [`CopyAtom::im2col`]
/// holds the descriptor's arguments and the coordinate tensor.
///
/// ```
/// use kute::atom::tma::{GmemTensor, TmaOp};
/// use kute::atom::tma_im2col::make_im2col_tma_copy;
/// let g = GmemTensor::new("half_t", 0, "((8,8,2),64):((64,512,4096),_1)".parse().unwrap()).unwrap();
/// let s = kute::AnyLayout::Layout("(_64,_32):(_32,_1)".parse().unwrap());
/// let c = make_im2col_tma_copy(TmaOp::StoreIm2col, &g, &s, None, None, None).unwrap();
/// assert_eq!(c.atom().im2col().unwrap().descriptor().element_strides, [1, 1, 1, 1]);
/// // a tile of another shape than the smem layout's
/// let t: kute::Tiler = "(_32,_32)".parse().unwrap();
/// assert!(make_im2col_tma_copy(TmaOp::StoreIm2col, &g, &s, Some(&t), None, None).is_err());
/// ```
pub fn make_im2col_tma_copy(
    op: TmaOp,
    g: &GmemTensor,
    slayout: &AnyLayout,
    cta_tiler: Option<&Tiler>,
    multicast_size: Option<Int>,
    conv: Option<&ConvParams>,
) -> Result<TiledCopy> {
    let name = "make_im2col_tma_copy";
    if !matches!(op, TmaOp::LoadIm2col | TmaOp::LoadIm2colMulticast | TmaOp::StoreIm2col) {
        return Err(rule(
            name,
            format!("{op} is not an im2col op (SM90_TMA_LOAD_IM2COL, _MULTICAST, SM90_TMA_STORE_IM2COL)"),
        ));
    }
    let tiler = match cta_tiler {
        Some(t) => t.clone(),
        None => Tiler::from(&int_tuple::product_each(slayout.shape()?.as_ref())?),
    };
    let ident = Layout::identity(&int_tuple::product_each(g.layout().shape().as_ref())?)?;
    let cta_v_map = algebra::composition_tiler(&ident, &tiler).map_err(|e| e.within(name))?;
    let mc = multicast_size.unwrap_or(Int::ONE);
    if !mc.is_static() || mc.value() < 1 {
        return Err(rule(name, format!("the multicast size {mc} must be a positive compile-time integer")));
    }
    let size = slayout.size()?;
    if !size.is_static() || size.value() % mc.value() != 0 {
        return Err(rule(name, format!("the multicast size {mc} does not divide the smem tile's size {size}")));
    }
    let cta_t_map = Layout::from_shape(&IntTuple::leaf(mc))?;
    let atom = im2col_atom(op, g, slayout, mc.value(), &cta_v_map, conv, name)?;
    tma::tiled_tma_copy(atom, g.bits(), slayout, &cta_t_map, &cta_v_map, name)
}

/// The cta value map of an SM100 im2col copy: CuTe's
/// `layout<1>(mma.thrfrg_A(make_identity_layout(append<R>((TILE_M,TILE_K),_1))))(_, repeat<R>(_))`
/// (`(TILE_N,TILE_K)` and `thrfrg_B` for B), `R` the activation's rank.
fn sm100_v_map(g: &GmemTensor, tile: &IntTuple, mma: &TiledMma, which: Operand, name: &'static str) -> Result<Layout> {
    let go = || -> Result<Layout> {
        let mn = if which == Operand::A { 0 } else { 1 };
        if tile.is_leaf() || tile.rank() < 3 {
            return Err(rule(name, format!("the tile {tile} is not an (M,N,K) tile")));
        }
        let r = g.layout().rank().max(2);
        let mut modes = vec![tile.get(mn)?, tile.get(2)?];
        while modes.len() < r {
            modes.push(IntTuple::leaf(Int::ONE));
        }
        let shape = Tree::tuple(modes.iter().map(|m| m.as_ref()));
        let frg = mma.thrfrg(which, &Layout::identity(&shape)?)?.mode(1)?;
        frg.slice(&super::tma::rest_modes_up(r)?)
    };
    go().map_err(|e| e.within(name))
}

fn sm100_name(which: Operand, copy: bool) -> &'static str {
    match (which, copy) {
        (Operand::A, true) => "make_im2col_tma_copy_A_sm100",
        (_, true) => "make_im2col_tma_copy_B_sm100",
        (Operand::A, false) => "make_im2col_tma_atom_A_sm100",
        (_, false) => "make_im2col_tma_atom_B_sm100",
    }
}

const SM100_LOADS: [TmaOp; 4] =
    [TmaOp::LoadIm2col, TmaOp::LoadIm2colMulticast, TmaOp::Load2SmIm2col, TmaOp::Load2SmIm2colMulticast];

fn check_sm100_op(op: TmaOp, store_too: bool, name: &'static str) -> Result<()> {
    if SM100_LOADS.contains(&op) || (store_too && op == TmaOp::StoreIm2col) {
        return Ok(());
    }
    Err(rule(name, format!("{op} is not an im2col op it supports (SM90_TMA_LOAD_IM2COL[_MULTICAST], SM100_TMA_2SM_LOAD_IM2COL[_MULTICAST])")))
}

/// CuTe `make_im2col_tma_copy_A_sm100` / `_B_sm100` (`which`): the im2col
/// copy of a UMMA operand's smem tile (`slayout`, `(MMA, MMA_M, MMA_K)` as
/// `UMMA::tile_to_mma_shape` makes it) from the cluster's `(M,N,K)` tile of
/// the activation; a multicast load spans the CTAs of the MMA's N (for A) or
/// M (for B) mode.
///
/// Pre: `op` is `SM90_TMA_LOAD_IM2COL[_MULTICAST]` or
/// `SM100_TMA_2SM_LOAD_IM2COL[_MULTICAST]`; as [`make_im2col_tma_copy`]
/// otherwise. Post: as [`make_im2col_tma_copy`]; the copy's CTAs are the
/// MMA's `(V,M,N,K)` CTAs.
///
/// ```
/// use kute::atom::{tma::{GmemTensor, TmaOp}, tma_im2col::make_im2col_tma_copy_sm100, Operand};
/// let g = GmemTensor::new("half_t", 0, "((8,8,2),64):((64,512,4096),_1)".parse().unwrap()).unwrap();
/// let mma = "make_tiled_mma(SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K>{})";
/// let s = kute::expr::eval(&format!(
///     "UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<half_t>{{}},partition_shape_A({mma},(_128,_64)))"))
///     .unwrap().to_any_layout("s").unwrap();
/// let m = match kute::expr::eval(mma).unwrap() { kute::expr::Value::TiledMma(m) => m, _ => unreachable!() };
/// let c = make_im2col_tma_copy_sm100(Operand::A, TmaOp::LoadIm2col, &g, &s, &"(_128,_256,_64)".parse().unwrap(), &m, None)
///     .unwrap();
/// assert_eq!(c.tiler_mn_text(), "(_2048,_1,_4)");
/// ```
pub fn make_im2col_tma_copy_sm100(
    which: Operand,
    op: TmaOp,
    g: &GmemTensor,
    slayout: &AnyLayout,
    cluster_tile: &IntTuple,
    mma: &TiledMma,
    conv: Option<&ConvParams>,
) -> Result<TiledCopy> {
    let name = sm100_name(which, true);
    check_sm100_op(op, false, name)?;
    let v = sm100_v_map(g, cluster_tile, mma, which, name)?;
    let t = tma::sm100_cta_t_map(op, mma, which).map_err(|e| e.within(name))?;
    let mc = t.cosize()?;
    let size = slayout.size()?;
    if !(size.is_static() && mc.is_static() && mc.value() >= 1 && size.value() % mc.value() == 0) {
        return Err(rule(name, format!("the multicast CTAs {t} do not divide the smem tile's size {size}")));
    }
    let atom = im2col_atom(op, g, slayout, mc.value(), &v, conv, name)?;
    tma::tiled_tma_copy(atom, g.bits(), slayout, &t, &v, name)
}

/// CuTe `make_im2col_tma_atom_A_sm100` / `_B_sm100` (`which`): the atom alone,
/// the box split over the cluster's N (for A) or M (for B) CTAs for a multicast op.
///
/// Pre: as [`make_im2col_tma_copy_sm100`] (`SM90_TMA_STORE_IM2COL` allowed too);
/// `cluster_shape` is `(V,M,N,K)`. Post: the atom of that copy.
///
/// ```
/// use kute::atom::{tma::{GmemTensor, TmaOp}, tma_im2col::make_im2col_tma_atom_sm100, Operand};
/// let g = GmemTensor::new("half_t", 0, "((8,8,2),64):((64,512,4096),_1)".parse().unwrap()).unwrap();
/// let mma = "make_tiled_mma(SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K>{})";
/// let s = kute::expr::eval(&format!(
///     "UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<half_t>{{}},partition_shape_A({mma},(_128,_64)))"))
///     .unwrap().to_any_layout("s").unwrap();
/// let m = match kute::expr::eval(mma).unwrap() { kute::expr::Value::TiledMma(m) => m, _ => unreachable!() };
/// let a = make_im2col_tma_atom_sm100(Operand::A, TmaOp::LoadIm2colMulticast, &g, &s,
///     &"(_128,_256,_64)".parse().unwrap(), &m, &"(_1,_2,_2,_1)".parse().unwrap(), None).unwrap();
/// assert_eq!(a.im2col().unwrap().descriptor().pixels_per_column, 64); // 128 pixels over 2 CTAs
/// ```
#[allow(clippy::too_many_arguments)]
pub fn make_im2col_tma_atom_sm100(
    which: Operand,
    op: TmaOp,
    g: &GmemTensor,
    slayout: &AnyLayout,
    mma_tiler: &IntTuple,
    mma: &TiledMma,
    cluster_shape: &IntTuple,
    conv: Option<&ConvParams>,
) -> Result<CopyAtom> {
    let name = sm100_name(which, false);
    check_sm100_op(op, true, name)?;
    let v = sm100_v_map(g, mma_tiler, mma, which, name)?;
    let mc = if op.is_multicast() {
        let k = if which == Operand::A { 2 } else { 1 };
        let m = cluster_shape
            .get(k)
            .map_err(|_| rule(name, format!("the cluster shape {cluster_shape} has no mode {k}")))?;
        int_tuple::product(m.leaves())?
    } else {
        Int::ONE
    };
    if mc.value() < 1 {
        return Err(rule(name, format!("the multicast size {mc} is not positive")));
    }
    im2col_atom(op, g, slayout, mc.value(), &v, conv, name)
}

/// `TmaOp` helpers for the im2col ops.
impl TmaOp {
    /// Whether the op is an im2col op.
    ///
    /// Pre: none. Post: true for `SM90_TMA_LOAD_IM2COL`, `_MULTICAST`, `SM90_TMA_STORE_IM2COL`
    /// and the two `SM100_TMA_2SM_LOAD_IM2COL` ops.
    ///
    /// ```
    /// assert!(kute::atom::tma::TmaOp::StoreIm2col.is_im2col());
    /// ```
    pub fn is_im2col(self) -> bool {
        matches!(
            self,
            TmaOp::LoadIm2col
                | TmaOp::LoadIm2colMulticast
                | TmaOp::StoreIm2col
                | TmaOp::Load2SmIm2col
                | TmaOp::Load2SmIm2colMulticast
        )
    }
}
