//! TMA copies (CuTe's `make_tma_copy` and friends, `cute/atom/copy_traits_sm90_tma.hpp`
//! and `copy_traits_sm100_tma.hpp`): a tiled copy of one TMA instruction per
//! CTA, built from a global-memory tensor and the shared-memory layout of the tile.
//!
//! CuTe finds the largest box TMA can move by inverting the shared-memory
//! layout (smem index → tile coordinate), composing the tile's gmem
//! coordinates with it and keeping the leading modes that step one gmem
//! coordinate at a time; those modes, coalesced into extents of at most 256,
//! are the TMA box (the *gmem basis*: box mode → gmem mode). From it CuTe fills
//! the arguments of the driver's `cuTensorMapEncodeTiled` ([`TmaDescriptor`]),
//! and the strides of the coordinate tensor the copy reads ([`get_tma_tensor`]);
//! [`tma_partition`] splits an smem tile and that tensor's tile by instruction and CTA.
//! kute runs the same steps with its own algebra, static and dynamic integers
//! as CuTe has them (CuTe merges two gmem modes into one box mode only when it
//! knows their strides at compile time), and refuses what CuTe rejects, by
//! name: a smem tile whose majorness differs from the gmem's, a swizzle TMA
//! has no mode for, a box extent over 256, a gmem stride that is no multiple
//! of 16 bytes, an unaligned address, a type TMA has no format for.
//!
//! ```
//! use kute::atom::tma::{make_tma_copy, GmemTensor, TmaOp};
//! let g = GmemTensor::new("half_t", 0, "(4096,4096):(4096,_1)".parse().unwrap()).unwrap();
//! let s = kute::expr::eval("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{},(_64,_64))").unwrap();
//! let c = make_tma_copy(TmaOp::Load, &g, &s.to_any_layout("s").unwrap(), None, None).unwrap();
//! assert_eq!(c.tiler_mn_text(), "(_64,_64)");
//! let tma = c.atom().tma().unwrap();
//! assert_eq!(tma.gbasis().to_string(), "(_64,_64):(_1@1,_1@0)");
//! assert_eq!(tma.descriptor().box_dim, [64, 64]);
//! assert_eq!(tma.descriptor().swizzle, "128B");
//! ```

use super::copy::{CopyAtom, TiledCopy};
use super::mma::TiledMma;
use super::operand::Operand;
pub use super::tma_desc::{TmaDescriptor, TmaOp, TmaParams};
use crate::algebra;
use crate::composed::{ops as cops, AnyLayout};
use crate::error::{Error, ErrorKind, Result};
use crate::int::Int;
use crate::int_tuple::{self, IntTuple};
use crate::layout::slice::{Coord, Crd};
use crate::layout::Layout;
use crate::stride::{Stride, StrideTuple};
use crate::swizzle::Swizzle;
use crate::tensor::{Coords, Tensor};
use crate::tiler::Tiler;
use crate::tree::Tree;
use std::fmt;

/// A tensor in global memory: CuTe's `make_tensor(make_gmem_ptr<T>(address), layout)`.
/// Only its type, address and layout matter to a TMA copy (nothing is read).
///
/// ```
/// use kute::atom::tma::GmemTensor;
/// let g = GmemTensor::new("float", 256, "(1024,256):(256,_1)".parse().unwrap()).unwrap();
/// assert_eq!(g.to_string(), "gmem_ptr[32b](0x100) o (1024,256):(256,_1)");
/// assert!(GmemTensor::new("no_such_t", 0, "8:1".parse().unwrap()).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GmemTensor {
    elem: String,
    bits: i64,
    address: i64,
    layout: Layout,
}

impl GmemTensor {
    /// The tensor of `layout` over elements of type `elem` from byte address `address`.
    ///
    /// Pre: kute knows `elem` (else an `UnknownName` error); `address >= 0`
    /// and the strides are integers (else an `Inadmissible` error).
    /// Post: `elem()`, `address()`, `layout()` are the arguments.
    ///
    /// ```
    /// use kute::atom::tma::GmemTensor;
    /// let g = GmemTensor::new("half_t", 0, "(8,8):(8,_1)".parse().unwrap()).unwrap();
    /// assert_eq!((g.elem(), g.bits(), g.address()), ("half_t", 16, 0));
    /// let bad = GmemTensor::new("half_t", 0, "(8,8):(_1@0,_1@1)".parse().unwrap()).unwrap_err();
    /// assert_eq!(bad.kind(), kute::ErrorKind::Inadmissible);
    /// ```
    pub fn new(elem: &str, address: i64, layout: Layout) -> Result<GmemTensor> {
        let op = "make_gmem_ptr";
        let bits = algebra::sizeof_bits(elem).ok_or_else(|| {
            Error::new(
                ErrorKind::UnknownName,
                op,
                format!("unknown element type '{elem}'{}", super::traits::type_hint(elem)),
            )
        })?;
        if address < 0 {
            return Err(Error::inadmissible(op, format!("the address {address} is negative")));
        }
        crate::sym::refuse("make_tensor", || layout.has_symbols())?;
        if !layout.has_int_strides() {
            return Err(Error::inadmissible(
                "make_tensor",
                format!("a gmem tensor's layout has integer strides, not {layout}"),
            ));
        }
        Ok(GmemTensor { elem: elem.to_string(), bits, address, layout })
    }

    /// The element type's CuTe name.
    ///
    /// Pre: none. Post: as given to [`GmemTensor::new`].
    ///
    /// ```
    /// let g = kute::atom::tma::GmemTensor::new("float", 0, "8:_1".parse().unwrap()).unwrap();
    /// assert_eq!(g.elem(), "float");
    /// ```
    pub fn elem(&self) -> &str {
        &self.elem
    }

    /// The element type's width in bits.
    ///
    /// Pre: none. Post: `sizeof_bits(elem())`.
    ///
    /// ```
    /// let g = kute::atom::tma::GmemTensor::new("float_e4m3_t", 0, "8:_1".parse().unwrap()).unwrap();
    /// assert_eq!(g.bits(), 8);
    /// ```
    pub fn bits(&self) -> i64 {
        self.bits
    }

    /// The byte address of element 0.
    ///
    /// Pre: none. Post: as given to [`GmemTensor::new`].
    ///
    /// ```
    /// let g = kute::atom::tma::GmemTensor::new("float", 64, "8:_1".parse().unwrap()).unwrap();
    /// assert_eq!(g.address(), 64);
    /// ```
    pub fn address(&self) -> i64 {
        self.address
    }

    /// The layout (in elements).
    ///
    /// Pre: none. Post: as given to [`GmemTensor::new`].
    ///
    /// ```
    /// let g = kute::atom::tma::GmemTensor::new("float", 0, "(8,4):(_1,8)".parse().unwrap()).unwrap();
    /// assert_eq!(g.layout().to_string(), "(8,4):(_1,8)");
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Its pointer, the engine of the tensor algorithms' gmem tensors.
    ///
    /// Pre: none. Post: a gmem pointer of this element type and address.
    ///
    /// ```
    /// use kute::atom::tma::GmemTensor;
    /// let g = GmemTensor::new("float", 4096, "(8,8):(8,_1)".parse().unwrap()).unwrap();
    /// assert_eq!((g.pointer().smem, g.pointer().address), (false, 4096));
    /// ```
    pub fn pointer(&self) -> crate::tensor::Pointer {
        crate::tensor::Pointer {
            smem: false,
            elem: self.elem.clone(),
            bits: self.bits,
            address: self.address,
            swizzle: None,
        }
    }
}

/// CuTe's `print` of the tensor of `layout` from the pointer `p`.
fn print_tensor_at(f: &mut fmt::Formatter<'_>, p: &crate::tensor::Pointer, layout: &Layout) -> fmt::Result {
    use crate::tensor::Engine;
    write!(f, "{} o {layout}", p.describe(&crate::layout::point::Point::Scalar(Int::ZERO.into())))
}

impl fmt::Display for GmemTensor {
    /// CuTe's `print` of the tensor (the pointer printed in hexadecimal).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        print_tensor_at(f, &self.pointer(), &self.layout)
    }
}

// ------------------------------------------------------------------ helpers

fn rule(op: &'static str, msg: impl Into<String>) -> Error {
    Error::inadmissible(op, msg)
}

/// CuTe's `is_constant<v, X>`: `x` is static and equals `v`.
fn is_const(x: Int, v: i64) -> bool {
    x.is_static() && x.value() == v
}

/// The shape of a layout as a tuple (a rank-1 layout's shape wrapped: CuTe's `wrap`).
fn wrap_shape(l: &Layout) -> IntTuple {
    let s = l.shape();
    if s.is_leaf() {
        Tree::tuple([s.as_ref()])
    } else {
        s
    }
}

/// The top-level modes of a stride tuple (a leaf is one mode).
fn stride_modes(s: &StrideTuple) -> Vec<StrideTuple> {
    if s.is_leaf() {
        vec![s.clone()]
    } else {
        s.as_ref().children().map(|c| c.to_tree()).collect()
    }
}

/// CuTe's `basis_get(e, t)`: the element of `t` at the basis's path.
fn basis_get(e: Stride, t: &IntTuple, op: &'static str) -> Result<Int> {
    let mut cur = t.clone();
    for i in e.path() {
        cur = cur.get(i).map_err(|_| rule(op, format!("the basis {e} names no mode of {t}")))?;
    }
    cur.as_ref()
        .as_leaf()
        .ok_or_else(|| rule(op, format!("the basis {e} names the tuple {cur}, not an integer of {t}")))
}

/// CuTe's `coalesce_256`: merges flattened modes whose strides line up (known
/// at compile time) while the merged extent stays at most 256, TMA's largest box.
fn coalesce_256(l: &Layout) -> Result<Layout> {
    let leaves = l.leaves();
    let Some(first) = leaves.first() else { return Ok(l.clone()) };
    let mut modes: Vec<(Int, Stride)> = vec![(first.shape, first.stride)];
    let mut scalar = true; // CuTe's NewShape is still the first mode, not a tuple
    for m in &leaves[1..] {
        if is_const(m.shape, 1) {
            continue;
        }
        let (bs, bd) = *modes.last().unwrap_or(&(Int::ONE, Stride::ZERO));
        if scalar && is_const(bs, 1) {
            modes[0] = (m.shape, m.stride);
            continue;
        }
        let next = match (bd.as_int(), m.stride.as_int()) {
            (Some(d0), Some(d1)) => {
                let prod = bs.mul(d0)?;
                let ext = m.shape.mul(bs)?;
                prod.is_static()
                    && d1.is_static()
                    && prod.value() == d1.value()
                    && ext.is_static()
                    && ext.value() <= 256
            }
            _ => false,
        };
        if next {
            let last = modes.len() - 1;
            modes[last].0 = m.shape.mul(bs)?;
        } else {
            modes.push((m.shape, m.stride));
            scalar = false;
        }
    }
    if scalar && is_const(modes[0].0, 1) {
        return Ok(Layout::leaf(Int::ONE, Int::ZERO));
    }
    let shape = IntTuple::tuple_of_leaves(modes.iter().map(|m| m.0));
    let stride = StrideTuple::tuple_of_leaves(modes.iter().map(|m| m.1));
    if scalar {
        return Layout::with_strides(&IntTuple::leaf(modes[0].0), &StrideTuple::leaf(modes[0].1));
    }
    Layout::with_strides(&shape, &stride)
}

/// CuTe's `TMA::to_CUtensorMapDataType<T>()`.
pub(super) fn data_type(elem: &str) -> Option<&'static str> {
    Some(match elem.trim_start_matches("cute::").trim_start_matches("cutlass::") {
        "int8_t" | "uint8_t" | "float_e4m3_t" | "float_e5m2_t" | "float_ue8m0_t" => "UINT8",
        "uint16_t" => "UINT16",
        "uint32_t" => "UINT32",
        "uint64_t" => "UINT64",
        "int32_t" => "INT32",
        "int64_t" => "INT64",
        "half_t" => "FLOAT16",
        "float" => "FLOAT32",
        "double" => "FLOAT64",
        "bfloat16_t" => "BFLOAT16",
        "tfloat32_t" => "TFLOAT32",
        "float_e2m1_t" => "16U4_ALIGN8B",
        "float_e2m3_t" | "float_e3m2_t" => "16U6_ALIGN16B",
        _ => return None,
    })
}

/// The TMA swizzle mode of a smem swizzle (`get_tma_swizzle_bits`,
/// `get_tma_swizzle_base`, `to_CUtensorMapSwizzle`).
pub(super) fn swizzle_mode(sw: Swizzle, op: &'static str) -> Result<&'static str> {
    let (b, m, s) = (sw.bits(), sw.base(), sw.shift());
    let bad = |why: &str| rule(op, format!("the smem swizzle {sw} is not one TMA can do: {why}"));
    match m {
        4 => {
            if !(0..=3).contains(&b) {
                return Err(bad("with M = 4, B must be 0 to 3"));
            }
            if s != 3 {
                return Err(bad("with M = 4, S must be 3"));
            }
            Ok(["NONE", "32B", "64B", "128B"][b as usize])
        }
        5 | 6 => {
            if b != 2 {
                return Err(bad("with M = 5 or 6, B must be 2"));
            }
            if m == 5 && s != 2 {
                return Err(bad("with M = 5, S must be 2"));
            }
            Ok(if m == 5 { "128B_ATOM_32B" } else { "128B_ATOM_64B" })
        }
        _ => Err(bad("its base M must be 4 (16-byte units), 5 or 6")),
    }
}

// ------------------------------------------------------------------ the construction

/// CuTe's `detail::construct_tma_gbasis`: box mode → gmem mode(s).
fn construct_tma_gbasis(g: &GmemTensor, slayout: &Layout, cta_v_map: &Layout, op: &'static str) -> Result<Layout> {
    let (ss, sv) = (slayout.size()?, cta_v_map.size()?);
    if !(ss.is_static() && sv.is_static() && ss.value() == sv.value()) {
        return Err(rule(
            op,
            format!("the smem layout {slayout} (size {ss}) and the CTA tile {cta_v_map} (size {sv}) must have the same static size"),
        ));
    }
    // smem index -> smem coordinate -> gmem mode
    let inv_smem = algebra::right_inverse(slayout)?;
    let full = algebra::coalesce(&algebra::composition(cta_v_map, &inv_smem)?)?;
    // keep the leading modes that step one gmem coordinate at a time
    let strides = stride_modes(&full.stride());
    let smem_rank = strides
        .iter()
        .position(|d| d.as_ref().as_leaf().is_none_or(|e| e.is_int() || !is_const(e.scale_int(), 1)))
        .unwrap_or(strides.len());
    if smem_rank == 0 {
        return Err(rule(
            op,
            format!(
                "no common vector of the smem tile and gmem: the smem layout's contiguous values {full} do not step a gmem mode by 1"
            ),
        ));
    }
    let sidx2gmode = if full.rank() == 1 && strides.len() == 1 { full.clone() } else { full.take(0, smem_rank)? };
    let tile_gstride = algebra::composition(&g.layout, &sidx2gmode)?;
    let tma_gstride = coalesce_256(&tile_gstride)?;
    let gbasis = Layout::identity(&g.layout.shape())?;
    let tile_gbasis_tmp = algebra::composition(&gbasis, &sidx2gmode)?;
    let tile_gbasis = Layout::with_strides(&tile_gstride.shape(), &tile_gbasis_tmp.stride())?;
    let tma_gbasis_tile = algebra::composition(&tile_gbasis, &Layout::from_shape(&wrap_shape(&tma_gstride))?)?;
    // the gmem modes the box does not walk join it with extent 1
    let used: Vec<Stride> = tma_gbasis_tile.leaves().iter().map(|m| m.stride).collect();
    let gs = g.layout.leaves();
    let es = gbasis.leaves();
    let mut rest: Vec<Stride> = Vec::new();
    for (m, e) in gs.iter().zip(es) {
        let d = m.stride.as_int().unwrap_or(Int::ZERO);
        if is_const(m.shape, 1) || is_const(d, 0) {
            continue;
        }
        if !used.iter().any(|u| !u.is_int() && u.path() == e.stride.path() && is_const(u.scale_int(), 1)) {
            rest.push(e.stride);
        }
    }
    let mut parts: Vec<Layout> = (0..tma_gbasis_tile.rank().max(1))
        .map(|i| if tma_gbasis_tile.shape().is_leaf() { Ok(tma_gbasis_tile.clone()) } else { tma_gbasis_tile.mode(i) })
        .collect::<Result<_>>()?;
    for e in rest {
        parts.push(Layout::with_strides(&IntTuple::leaf(Int::ONE), &StrideTuple::leaf(e))?);
    }
    let full = Layout::concat(parts.iter())?;
    let r = full.rank();
    // TMA has at most 5 modes: the trailing ones are grouped
    if r > 4 {
        full.group(4, r)
    } else {
        Ok(full)
    }
}

/// The product of `x` and `y` for the descriptor's unsigned arithmetic.
fn u(x: i64, what: &str, op: &'static str) -> Result<u64> {
    u64::try_from(x).map_err(|_| rule(op, format!("{what} {x} is negative")))
}

/// CuTe's `detail::make_tma_copy_desc`: the descriptor's arguments and the
/// strides of the TMA coordinate tensor.
fn make_tma_desc(
    g: &GmemTensor,
    gbasis: &Layout,
    swizzle: Swizzle,
    num_multicast: i64,
    op: &'static str,
) -> Result<(TmaDescriptor, StrideTuple)> {
    let data_type = data_type(&g.elem)
        .ok_or_else(|| rule(op, format!("TMA has no data format for the element type {}", g.elem)))?;
    let rank = if gbasis.shape().is_leaf() { 1 } else { gbasis.rank() };
    let modes: Vec<Layout> = (0..rank)
        .map(|i| if rank == 1 && gbasis.shape().is_leaf() { Ok(gbasis.clone()) } else { gbasis.mode(i) })
        .collect::<Result<_>>()?;
    let (gshape, gstride) = (
        g.layout.shape(),
        g.layout.stride().try_map(|s| s.as_int().ok_or_else(|| rule(op, "a gmem stride is a basis")))?,
    );
    let mut dim = [1u64; 5];
    let mut stride = [0u64; 5];
    for (i, m) in modes.iter().enumerate() {
        let leaves: Vec<Stride> = m.leaves().iter().map(|x| x.stride).collect();
        let single = m.stride().is_leaf() || m.rank() == 1;
        for (k, e) in leaves.iter().enumerate() {
            if e.is_int() {
                return Err(rule(op, format!("the gmem basis {gbasis} has the integer stride {e}, no gmem mode")));
            }
            let sj = u(basis_get(*e, &gshape, op)?.value(), "the gmem extent", op)?;
            let dj = u(basis_get(*e, &gstride, op)?.value(), "the gmem stride", op)?;
            if single && k == 0 {
                (dim[i], stride[i]) = (sj, dj);
                continue;
            }
            // the gmem modes of one TMA mode: their common stride and the extent it spans
            let old = stride[i];
            stride[i] = crate::arith::gcd_u64(stride[i], dj);
            let big = || rule(op, format!("the TMA extent of the gmem modes of {m} overflows 64 bits"));
            dim[i] = match (old.checked_div(stride[i]), dj.checked_div(stride[i])) {
                (Some(a), Some(b)) => dim[i]
                    .saturating_sub(1)
                    .checked_mul(a)
                    .and_then(|x| sj.saturating_sub(1).checked_mul(b).and_then(|y| x.checked_add(y)))
                    .and_then(|x| x.checked_add(1))
                    .ok_or_else(big)?,
                _ => sj,
            };
        }
    }
    if g.address & 0xf != 0 {
        return Err(rule(op, format!("the gmem address {:#x} is not 16-byte aligned", g.address)));
    }
    if let Some(d) = dim.iter().find(|&&d| !(1..=1u64 << 32).contains(&d)) {
        return Err(rule(op, format!("a TMA extent {d} is outside 1 to 2^32")));
    }
    if stride[0] != 1 {
        return Err(rule(
            op,
            format!(
                "the majorness of the smem tile does not match the gmem's: the box's first mode has gmem stride {} (TMA needs 1)",
                stride[0]
            ),
        ));
    }
    let bytes: Vec<u64> = stride.iter().map(|&s| s.saturating_mul(g.bits as u64) / 8).collect();
    for &b in &bytes[1..] {
        if b >= 1u64 << 40 {
            return Err(rule(op, format!("a gmem stride of {b} bytes is not below 2^40")));
        }
        if b % 16 != 0 {
            return Err(rule(op, format!("a gmem stride of {b} bytes is not a multiple of 16 bytes")));
        }
    }
    let mut boxd = [1u64; 5];
    for (i, m) in modes.iter().enumerate() {
        boxd[i] = u(m.size()?.value(), "the box extent", op)?;
    }
    // a multicast box is split over the CTAs, from its last mode
    let mut mc = u(num_multicast, "the multicast count", op)?;
    let mut i = rank;
    while mc > 1 {
        if i == 0 {
            return Err(rule(op, format!("the box {gbasis} is too small to split over {num_multicast} CTAs")));
        }
        i -= 1;
        if boxd[i] % mc != 0 && mc % boxd[i] != 0 {
            return Err(rule(
                op,
                format!("the box extent {} cannot be split over {mc} CTAs (neither divides the other)", boxd[i]),
            ));
        }
        let next = mc.div_ceil(boxd[i]);
        boxd[i] = boxd[i].div_ceil(mc);
        mc = next;
    }
    if let Some(b) = boxd.iter().find(|&&b| !(1..=256).contains(&b)) {
        return Err(rule(op, format!("a box extent {b} is outside 1 to 256")));
    }
    let swizzle_name = swizzle_mode(swizzle, op)?;
    let desc = TmaDescriptor {
        data_type,
        rank,
        global_dim: dim[..rank].to_vec(),
        global_strides: bytes[1..rank].to_vec(),
        box_dim: boxd[..rank].to_vec(),
        element_strides: vec![1; rank],
        swizzle: swizzle_name,
    };
    // for each gmem mode, the TMA coordinate it steps
    let tma_strides: Vec<StrideTuple> = modes.iter().map(|m| m.stride()).collect();
    let basis = crate::stride::make_basis_like(&gshape)?;
    let g_stride = basis.try_map(|ei| -> Result<Stride> {
        let si = basis_get(ei, &gshape, op)?;
        let di = basis_get(ei, &gstride, op)?;
        if is_const(si, 1) || is_const(di, 0) {
            return Ok(Stride::ZERO);
        }
        let found = tma_strides.iter().position(|t| {
            t.leaves().iter().any(|d| !d.is_int() && d.path() == ei.path() && is_const(d.scale_int(), 1))
        });
        let Some(j) = found else { return Ok(Stride::ZERO) };
        let scale = if j == 0 {
            di
        } else if tma_strides[j].is_leaf() || tma_strides[j].rank() == 1 {
            Int::ONE
        } else {
            // CuTe's run-time scale of a gmem mode merged into a TMA mode
            let q = u(di.value(), "the gmem stride", op)?.saturating_mul(g.bits as u64) / bytes[j].max(16);
            Int::new_dynamic(i64::try_from(q.div_ceil(8)).unwrap_or(i64::MAX))
        };
        Stride::basis(scale, &[j])
    })?;
    Ok((desc, g_stride))
}

/// CuTe's `detail::make_tma_copy_atom`: the atom of one TMA instruction.
fn tma_atom(
    op: TmaOp,
    g: &GmemTensor,
    slayout: &AnyLayout,
    num_multicast: i64,
    cta_v_map: &Layout,
    name: &'static str,
) -> Result<CopyAtom> {
    crate::sym::refuse(name, || slayout.has_symbols() || cta_v_map.has_symbols())?;
    let swizzle = cops::get_swizzle_portion(slayout).map_err(|e| e.in_op(name))?;
    let smem = cops::get_nonswizzle_portion(slayout).map_err(|e| e.in_op(name))?;
    let gbasis = construct_tma_gbasis(g, &smem, cta_v_map, name).map_err(|e| e.within(name))?;
    let (descriptor, g_stride) = make_tma_desc(g, &gbasis, swizzle, num_multicast, name)?;
    let bits = gbasis.size()?.value() * g.bits;
    let params = TmaParams::new(op, gbasis, g_stride, swizzle, descriptor);
    CopyAtom::with_traits(op.traits(bits)?, &g.elem)?.with_tma(params)
}

/// CuTe's `detail::make_tma_copy_tiled`: the atom, and the (CTA, value) →
/// smem coordinate layout of the copy over the CTAs of the multicast.
fn tma_copy_tiled(
    op: TmaOp,
    g: &GmemTensor,
    slayout: &AnyLayout,
    cta_t_map: &Layout,
    cta_v_map: &Layout,
    name: &'static str,
) -> Result<TiledCopy> {
    let mc = cta_t_map.cosize()?;
    if mc.value() < 1 {
        return Err(rule(name, format!("the CTAs of the multicast {cta_t_map} are none")));
    }
    let atom = tma_atom(op, g, slayout, mc.value(), cta_v_map, name)?;
    tiled_tma_copy(atom, g.bits, slayout, cta_t_map, cta_v_map, name)
}

/// The coordinate `(_, (_, ... r times))`: slicing a partitioned fragment
/// by it brings its rest modes up one level, as CuTe's `tma_partition` and
/// the SM100 MMA partitions do.
///
/// Pre: none. Post: the coordinate.
pub(super) fn rest_modes_up(r: usize) -> Result<Coord> {
    Tree::try_build(|b| {
        b.open();
        b.leaf(Crd::Underscore);
        b.open();
        for _ in 0..r {
            b.leaf(Crd::Underscore);
        }
        b.close();
        b.close();
        Ok(())
    })
}

/// The tiled copy of a TMA atom over the CTAs of `cta_t_map` (the tail of
/// CuTe's `make_tma_copy_tiled` and `make_tma_copy_im2col`): the (CTA, value)
/// → smem coordinate layout and the tile.
pub(super) fn tiled_tma_copy(
    atom: CopyAtom,
    bits: i64,
    slayout: &AnyLayout,
    cta_t_map: &Layout,
    cta_v_map: &Layout,
    name: &'static str,
) -> Result<TiledCopy> {
    let mc = cta_t_map.cosize()?;
    let go = || -> Result<TiledCopy> {
        let tiler = int_tuple::product_each(cta_v_map.shape().as_ref())?;
        let per_tma = atom.traits().r#ref.mode(1)?.size()?.value() / bits;
        let inv_smem = algebra::right_inverse(&cops::get_nonswizzle_portion(slayout)?)?;
        let layout_v =
            algebra::composition(&inv_smem, &Layout::from_shape(&IntTuple::leaf(Int::new_static(per_tma)))?)?;
        let layout_vv =
            algebra::tile_to_shape(&Layout::concat([&layout_v])?, &IntTuple::leaf(cta_v_map.size()?), None)?;
        if per_tma % mc.value() != 0 {
            return Err(rule(name, format!("the box of {per_tma} values does not split over {mc} CTAs")));
        }
        let layout_t = Layout::leaf(mc, Int::new(per_tma / mc.value(), mc.is_static()));
        let layout_tt = algebra::composition(&inv_smem, &algebra::composition(&layout_t, cta_t_map)?)?;
        let tv = Layout::concat([&layout_tt, &layout_vv])?;
        let tiler = match tiler.is_leaf() {
            true => Tiler::Tuple(vec![Tiler::Int(tiler.as_ref().as_leaf().unwrap_or(Int::ONE))]),
            false => Tiler::from(&tiler),
        };
        TiledCopy::new(atom.clone(), tv, tiler)
    };
    go().map_err(|e| e.within(name))
}

/// `make_identity_layout(shape(g)).compose(tiler)`: the tile's gmem coordinates.
fn cta_v_tile(g: &GmemTensor, tiler: &Tiler) -> Result<Layout> {
    algebra::composition_tiler(&Layout::identity(&g.layout.shape())?, tiler)
}

/// The cluster's CTAs as CuTe's `make_layout(cluster_size)`.
fn cluster_layout(cluster: Option<&IntTuple>) -> Result<Layout> {
    match cluster {
        Some(c) => Layout::from_shape(c),
        None => Ok(Layout::leaf(Int::ONE, Int::ZERO)),
    }
}

/// The default tile of `make_tma_copy`: `product_each(shape(slayout))`.
fn default_tiler(slayout: &AnyLayout) -> Result<Tiler> {
    let s = int_tuple::product_each(slayout.shape()?.as_ref())?;
    Ok(Tiler::from(&s))
}

/// Whether `op` may be used in the named function (CuTe's static assertions).
fn check_op(op: TmaOp, ok: &[TmaOp], name: &'static str) -> Result<()> {
    if ok.contains(&op) {
        return Ok(());
    }
    Err(Error::new(
        ErrorKind::Inadmissible,
        name,
        format!(
            "{op} is not one of the ops it supports ({})",
            ok.iter().map(|o| o.name()).collect::<Vec<_>>().join(", ")
        ),
    ))
}

const SM90_OPS: [TmaOp; 4] = [TmaOp::Load, TmaOp::LoadMulticast, TmaOp::Store, TmaOp::ReduceAdd];

/// CuTe `make_tma_copy(op, gtensor, slayout[, cta_tiler], cluster_size)`: the
/// TMA copy of a CTA's tile (`cta_tiler`, by default the smem tile's shape)
/// of `gtensor` into or out of smem laid out as `slayout` (plain or swizzled),
/// the box split over `cluster_size` CTAs (multicast; default 1).
///
/// Pre: `op` is an SM90 TMA op; `slayout` is static, of the tile's size, and
/// its contiguous values run along a gmem mode of stride 1; its swizzle is
/// one of TMA's; the box extents are at most 256; the gmem strides but the
/// first are multiples of 16 bytes and below 2^40; the address is 16-byte
/// aligned; TMA has a format for the element type; a multicast count divides
/// (or is divided by) the box's last extents. Else an `Inadmissible` error
/// naming the rule (CuTe's static assertions and asserts).
/// Post: a tiled copy whose atom moves the whole box in one instruction
/// (`ValLayoutSrc` `(_1,box)`), whose `Tiler_MN` is the tile's shape, and
/// whose atom's [`CopyAtom::tma`] holds the gmem basis and the descriptor.
///
/// ```
/// use kute::atom::tma::{make_tma_copy, GmemTensor, TmaOp};
/// let g = GmemTensor::new("half_t", 0, "(4096,4096):(4096,_1)".parse().unwrap()).unwrap();
/// let s = kute::expr::eval("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{},(_128,_64))").unwrap()
///     .to_any_layout("s").unwrap();
/// let four: kute::IntTuple = "_4".parse().unwrap();
/// let c = make_tma_copy(TmaOp::LoadMulticast, &g, &s, None, Some(&four)).unwrap();
/// assert_eq!(c.tiled_layout_tv().to_string(), "(_4,(((_64,_128),_1))):(_32,(((_128,_1),_0)))");
/// assert_eq!(c.atom().tma().unwrap().descriptor().box_dim, [64, 32]); // 128 rows over 4 CTAs
/// // a K-major tile of an MN-major tensor
/// let mn = GmemTensor::new("half_t", 0, "(4096,4096):(_1,4096)".parse().unwrap()).unwrap();
/// let e = make_tma_copy(TmaOp::Load, &mn, &s, None, None).unwrap_err();
/// assert!(e.to_string().contains("majorness"));
/// ```
pub fn make_tma_copy(
    op: TmaOp,
    g: &GmemTensor,
    slayout: &AnyLayout,
    cta_tiler: Option<&Tiler>,
    cluster_size: Option<&IntTuple>,
) -> Result<TiledCopy> {
    let name = "make_tma_copy";
    check_op(op, &SM90_OPS, name)?;
    let tiler = match cta_tiler {
        Some(t) => t.clone(),
        None => default_tiler(slayout)?,
    };
    let v = cta_v_tile(g, &tiler).map_err(|e| e.within(name))?;
    tma_copy_tiled(op, g, slayout, &cluster_layout(cluster_size)?, &v, name)
}

/// CuTe `make_tma_atom(op, gtensor, slayout, cta_tiler[, cluster_size])`:
/// the copy atom alone (the box split over `size(cluster_size)` CTAs).
///
/// Pre: as [`make_tma_copy`]. Post: the atom of that copy.
///
/// ```
/// use kute::atom::tma::{make_tma_atom, GmemTensor, TmaOp};
/// let g = GmemTensor::new("float", 0, "(1024,256):(256,_1)".parse().unwrap()).unwrap();
/// let s = kute::AnyLayout::Layout("(_64,_32):(_32,_1)".parse().unwrap());
/// let a = make_tma_atom(TmaOp::Load, &g, &s, &"(_64,_32)".parse().unwrap(), None).unwrap();
/// assert_eq!(a.val_layout_src().to_string(), "(_1,_2048):(_0,_1)");
/// ```
pub fn make_tma_atom(
    op: TmaOp,
    g: &GmemTensor,
    slayout: &AnyLayout,
    cta_tiler: &Tiler,
    cluster_size: Option<&IntTuple>,
) -> Result<CopyAtom> {
    let name = "make_tma_atom";
    check_op(op, &SM90_OPS, name)?;
    let v = cta_v_tile(g, cta_tiler).map_err(|e| e.within(name))?;
    let mc = match cluster_size {
        Some(c) => c.size()?.value(),
        None => 1,
    };
    tma_atom(op, g, slayout, mc, &v, name)
}

/// The tiler without mode `i` (CuTe's `remove<i>`).
fn remove_mode(t: &Tiler, i: usize, name: &'static str) -> Result<Tiler> {
    match t {
        Tiler::Tuple(ts) if ts.len() > i => {
            Ok(Tiler::Tuple(ts.iter().enumerate().filter(|(k, _)| *k != i).map(|(_, x)| x.clone()).collect()))
        }
        _ => Err(Error::mismatch(name, format!("the tile {t} has no mode {i} (an (M,N,K) tile is expected)"))),
    }
}

/// The size of mode `i` of a cluster shape (CuTe's `size<i>`).
fn cluster_mode(c: &IntTuple, i: usize, name: &'static str) -> Result<Int> {
    c.get(i).and_then(|m| m.size()).map_err(|_| Error::mismatch(name, format!("the cluster shape {c} has no mode {i}")))
}

/// CuTe `make_tma_copy_A_sm90` / `_B_sm90` / `_C_sm90` (`which`): the copy of
/// an MMA operand's tile, `cta_tiler` an (M,N,K) tile, the load multicast
/// over the cluster's N CTAs for A, its M CTAs for B (C: no multicast).
///
/// Pre: as [`make_tma_copy`]; `cta_tiler` has three modes and
/// `cluster_size` (for A and B) at least two (else a `Mismatch` error).
/// Post: `make_tma_copy` of the operand's two modes of the tile.
///
/// ```
/// use kute::atom::{tma::{make_tma_copy_sm90, GmemTensor, TmaOp}, Operand};
/// let g = GmemTensor::new("half_t", 0, "(4096,4096):(4096,_1)".parse().unwrap()).unwrap();
/// let s = kute::expr::eval("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{},(_128,_64))").unwrap()
///     .to_any_layout("s").unwrap();
/// let c = make_tma_copy_sm90(Operand::A, TmaOp::LoadMulticast, &g, &s, &"(_128,_256,_64)".parse().unwrap(),
///                            &"(_2,_2,_1)".parse().unwrap()).unwrap();
/// assert_eq!(c.tiler_mn_text(), "(_128,_64)");
/// assert_eq!(c.atom().tma().unwrap().descriptor().box_dim, [64, 64]);
/// ```
pub fn make_tma_copy_sm90(
    which: Operand,
    op: TmaOp,
    g: &GmemTensor,
    slayout: &AnyLayout,
    cta_tiler: &Tiler,
    cluster_size: &IntTuple,
) -> Result<TiledCopy> {
    let (name, drop, mc) = match which {
        Operand::A => ("make_tma_copy_A_sm90", 1, Some(1)),
        Operand::B => ("make_tma_copy_B_sm90", 0, Some(0)),
        _ => ("make_tma_copy_C_sm90", 2, None),
    };
    check_op(op, &SM90_OPS, name)?;
    let tile = remove_mode(cta_tiler, drop, name)?;
    let v = cta_v_tile(g, &tile).map_err(|e| e.within(name))?;
    let t = match mc {
        Some(i) => Layout::from_shape(&IntTuple::leaf(cluster_mode(cluster_size, i, name)?))?,
        None => Layout::leaf(Int::ONE, Int::ZERO),
    };
    tma_copy_tiled(op, g, slayout, &t, &v, name)
}

/// The CTA value → gmem coordinate map of an SM100 operand: mode 1 of the
/// MMA's `thrfrg` of the operand's tile.
fn sm100_v_map(g: &GmemTensor, tiler: &Tiler, mma: &TiledMma, which: Operand, name: &'static str) -> Result<Layout> {
    let drop = if which == Operand::A { 1 } else { 0 };
    let tile = remove_mode(tiler, drop, name)?;
    let go = || -> Result<Layout> {
        let g_tile = cta_v_tile(g, &tile)?;
        let frg = mma.thrfrg(which, &g_tile)?.mode(1)?;
        // CuTe slices it with (_, (_,...)): the rest modes come up one level
        frg.slice(&rest_modes_up(g_tile.rank())?)
    };
    go().map_err(|e| e.within(name))
}

/// The CTAs of an SM100 TMA copy's multicast (`make_layout(vmnk, compact_col_major(vmnk,
/// strides))`): N's CTAs for A, M's for B, none without multicast.
pub(super) fn sm100_cta_t_map(op: TmaOp, mma: &TiledMma, which: Operand) -> Result<Layout> {
    let vmnk = mma.thr_layout_vmnk().shape();
    let k = if which == Operand::A { 2 } else { 1 };
    let strides: Vec<Int> = (0..4).map(|i| Int::new_static(i64::from(op.is_multicast() && i == k))).collect();
    {
        let modes: Vec<IntTuple> = (0..4).map(|i| vmnk.get(i)).collect::<Result<_>>()?;
        let parts = modes
            .iter()
            .zip(&strides)
            .map(|(s, &d)| {
                let col = Layout::from_shape(s)?;
                let scaled = col.stride().try_map(|x| x.as_int().unwrap_or(Int::ZERO).mul(d).map(Stride::of))?;
                Layout::with_strides(s, &scaled)
            })
            .collect::<Result<Vec<_>>>()?;
        Layout::concat(parts.iter())
    }
}

const SM100_OPS: [TmaOp; 5] =
    [TmaOp::Load, TmaOp::LoadMulticast, TmaOp::Store, TmaOp::Load2Sm, TmaOp::Load2SmMulticast];

/// CuTe `make_tma_copy_A_sm100` / `_B_sm100` (`which`): the copy of a
/// UMMA operand's smem tile (`slayout`, `(MMA, MMA_M, MMA_K)` as
/// `UMMA::tile_to_mma_shape` makes it) from the cluster's `(M,N,K)` tile; a
/// multicast load spans the CTAs of the MMA's N (for A) or M (for B) mode.
///
/// Pre: `op` is `SM90_TMA_LOAD[_MULTICAST]`, `SM90_TMA_STORE` or an SM100
/// 2-SM load (else an `Inadmissible` error); `which` is A or B; as [`make_tma_copy`].
/// Post: a tiled copy over the CTAs of the multicast, its tile the
/// operand's `thrfrg` value mode.
///
/// ```
/// use kute::atom::{tma::{make_tma_copy_sm100, GmemTensor, TmaOp}, MmaAtom, Operand, TiledMma};
/// let m = TiledMma::new(MmaAtom::new(
///     "SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,256,UMMA::Major::K,UMMA::Major::K>").unwrap(), None, None).unwrap();
/// let s = kute::expr::eval("UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<half_t>{},((_128,_16),_1,_4))")
///     .unwrap().to_any_layout("s").unwrap();
/// let g = GmemTensor::new("half_t", 0, "(4096,4096):(4096,_1)".parse().unwrap()).unwrap();
/// let c = make_tma_copy_sm100(Operand::A, TmaOp::Load2Sm, &g, &s, &"(_256,_256,_64)".parse().unwrap(), &m).unwrap();
/// assert_eq!(c.atom().thr_id().to_string(), "_2:_1");
/// ```
pub fn make_tma_copy_sm100(
    which: Operand,
    op: TmaOp,
    g: &GmemTensor,
    slayout: &AnyLayout,
    cluster_tiler: &Tiler,
    mma: &TiledMma,
) -> Result<TiledCopy> {
    let name = if which == Operand::A { "make_tma_copy_A_sm100" } else { "make_tma_copy_B_sm100" };
    check_op(op, &SM100_OPS, name)?;
    let v = sm100_v_map(g, cluster_tiler, mma, which, name)?;
    let t = algebra::coalesce(&sm100_cta_t_map(op, mma, which)?)?;
    tma_copy_tiled(op, g, slayout, &t, &v, name)
}

/// CuTe `make_tma_atom_A_sm100` / `_B_sm100` (`which`): the atom alone, a
/// multicast load split over `size<2>(cluster_shape)` CTAs for A,
/// `size<1>` for B (the cluster shape is (V, M, N, K)).
///
/// Pre: as [`make_tma_copy_sm100`]; `cluster_shape` has the mode read
/// (else a `Mismatch` error).
/// Post: the atom; its `ThrID` is `_2:_1` for the 2-SM loads.
///
/// ```
/// use kute::atom::{tma::{make_tma_atom_sm100, GmemTensor, TmaOp}, MmaAtom, Operand, TiledMma};
/// let m = TiledMma::new(MmaAtom::new(
///     "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K>").unwrap(), None, None).unwrap();
/// let s = kute::expr::eval("UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<half_t>{},((_128,_16),_1,_4))")
///     .unwrap().to_any_layout("s").unwrap();
/// let g = GmemTensor::new("half_t", 0, "(4096,4096):(4096,_1)".parse().unwrap()).unwrap();
/// let a = make_tma_atom_sm100(Operand::A, TmaOp::Load, &g, &s, &"(_128,_256,_64)".parse().unwrap(), &m,
///                             &"(_1,_1,_1,_1)".parse().unwrap()).unwrap();
/// assert_eq!(a.val_layout_src().to_string(), "(_1,_8192):(_0,_1)");
/// ```
pub fn make_tma_atom_sm100(
    which: Operand,
    op: TmaOp,
    g: &GmemTensor,
    slayout: &AnyLayout,
    mma_tiler: &Tiler,
    mma: &TiledMma,
    cluster_shape: &IntTuple,
) -> Result<CopyAtom> {
    let name = if which == Operand::A { "make_tma_atom_A_sm100" } else { "make_tma_atom_B_sm100" };
    check_op(op, &SM100_OPS, name)?;
    let v = sm100_v_map(g, mma_tiler, mma, which, name)?;
    let mc = if op.is_multicast() {
        cluster_mode(cluster_shape, if which == Operand::A { 2 } else { 1 }, name)?
    } else {
        Int::ONE
    };
    tma_atom(op, g, slayout, mc.value(), &v, name)
}

/// CuTe's `get_tma_tensor(shape)` of a TMA atom or copy: the coordinate
/// tensor over the gmem shape whose elements are the TMA coordinates the
/// instruction takes (`ArithTuple(_0,_0) o shape:g_stride`).
///
/// Pre: `atom` is a TMA atom (else a `Type` error); `shape` is congruent with
/// the gmem tensor's shape (else a `Mismatch` error).
/// Post: a tensor of layout `shape:g_stride`.
///
/// ```
/// use kute::atom::tma::{get_tma_tensor, make_tma_copy, GmemTensor, TmaOp};
/// let g = GmemTensor::new("float", 0, "(1024,256):(256,_1)".parse().unwrap()).unwrap();
/// let s = kute::AnyLayout::Layout("(_64,_32):(_32,_1)".parse().unwrap());
/// let c = make_tma_copy(TmaOp::Load, &g, &s, None, None).unwrap();
/// let t = get_tma_tensor(c.atom(), &"(1024,256)".parse().unwrap()).unwrap();
/// assert_eq!(t.layout().to_string(), "(1024,256):(_1@1,_1@0)");
/// assert_eq!(t.at(&"(3,5)".parse().unwrap()).unwrap().to_string(), "(5,3)");
/// ```
pub fn get_tma_tensor(atom: &CopyAtom, shape: &IntTuple) -> Result<Tensor<Coords>> {
    let name = "get_tma_tensor";
    let tma = atom.tma().ok_or_else(|| Error::new(ErrorKind::Type, name, "the copy is not a TMA copy"))?;
    if !shape.as_ref().congruent(tma.g_stride().as_ref()) {
        return Err(Error::mismatch(
            name,
            format!("the shape {shape} is not congruent with the TMA's gmem strides {}", tma.g_stride()),
        ));
    }
    let layout = Layout::with_strides(shape, tma.g_stride())?;
    let prof = layout.coprofile()?;
    let offset = match prof.as_ref().as_leaf() {
        Some(x) => crate::layout::point::Point::Scalar(x.into()),
        None => crate::layout::point::Point::Tuple(prof),
    };
    Ok(Tensor::with_offset(Coords, layout, offset))
}

/// A tensor in shared memory: CuTe's `make_tensor(make_smem_ptr<T>(address),
/// layout)`, the layout plain or swizzled (CuTe moves a layout's swizzle into
/// the pointer: `Sw<3,4,3>_smem_ptr[16b](0x1000) o layout`).
///
/// ```
/// use kute::atom::tma::SmemTensor;
/// let s = kute::expr::eval("group<0,2>(tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{},(_64,_64)))").unwrap();
/// let t = SmemTensor::new("half_t", 4096, &s.to_any_layout("s").unwrap()).unwrap();
/// assert_eq!(t.to_string(), "Sw<3,4,3>_smem_ptr[16b](0x1000) o (((_8,_8),(_64,_1))):(((_64,_512),(_1,_0)))");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmemTensor {
    elem: String,
    bits: i64,
    address: i64,
    swizzle: Option<Swizzle>,
    layout: Layout,
}

impl SmemTensor {
    /// The tensor of `layout` over elements of `elem` from byte `address`.
    ///
    /// Pre: kute knows `elem` (else an `UnknownName` error); `address >= 0`;
    /// `layout` is a plain layout of integer strides or a swizzled one
    /// (`Sw o offset o L`, its offset 0: else an `Inadmissible` error).
    /// Post: `layout()` is the layout under the swizzle; `swizzle()` the swizzle, if any.
    ///
    /// ```
    /// use kute::atom::tma::SmemTensor;
    /// let t = SmemTensor::new("float", 0, &kute::AnyLayout::Layout("(_8,_4):(_1,_8)".parse().unwrap())).unwrap();
    /// assert_eq!(t.to_string(), "smem_ptr[32b](0x0) o (_8,_4):(_1,_8)");
    /// assert!(t.swizzle().is_none());
    /// ```
    pub fn new(elem: &str, address: i64, layout: &AnyLayout) -> Result<SmemTensor> {
        let op = "make_tensor";
        let g = GmemTensor::new(elem, address, Layout::leaf(Int::ONE, Int::ZERO)).map_err(|e| e.in_op(op))?;
        let (swizzle, layout) = match layout {
            AnyLayout::Layout(l) => (None, l.clone()),
            AnyLayout::Composed(c) if c.offset().value() == 0 => {
                let sw = cops::get_swizzle_portion(layout)?;
                (Some(sw).filter(|s| !s.is_identity()), cops::get_nonswizzle_portion(layout)?)
            }
            other => {
                return Err(rule(op, format!("an smem tensor's layout is plain or swizzled at offset 0, not {other}")))
            }
        };
        crate::sym::refuse(op, || layout.has_symbols())?;
        if !layout.has_int_strides() {
            return Err(rule(op, format!("an smem tensor's layout has integer strides, not {layout}")));
        }
        Ok(SmemTensor { elem: g.elem, bits: g.bits, address, swizzle, layout })
    }

    /// The layout (under the swizzle, in elements).
    ///
    /// Pre: none. Post: the layout given, its swizzle taken off.
    ///
    /// ```
    /// use kute::atom::tma::SmemTensor;
    /// let t = SmemTensor::new("float", 0, &kute::AnyLayout::Layout("(_8,_4):(_1,_8)".parse().unwrap())).unwrap();
    /// assert_eq!(t.layout().to_string(), "(_8,_4):(_1,_8)");
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The swizzle of the pointer, if the layout had one.
    ///
    /// Pre: none. Post: `None` for a plain layout.
    ///
    /// ```
    /// use kute::atom::tma::SmemTensor;
    /// let s = kute::expr::eval("tile_to_shape(GMMA::Layout_K_SW64_Atom<half_t>{},(_8,_32))").unwrap();
    /// let t = SmemTensor::new("half_t", 0, &s.to_any_layout("s").unwrap()).unwrap();
    /// assert_eq!(t.swizzle().unwrap().to_string(), "Sw<2,4,3>");
    /// ```
    pub fn swizzle(&self) -> Option<Swizzle> {
        self.swizzle
    }

    /// The element type's CuTe name.
    ///
    /// Pre: none. Post: as given to [`SmemTensor::new`].
    ///
    /// ```
    /// use kute::atom::tma::SmemTensor;
    /// let t = SmemTensor::new("half_t", 0, &kute::AnyLayout::Layout("8:_1".parse().unwrap())).unwrap();
    /// assert_eq!((t.elem(), t.bits()), ("half_t", 16));
    /// ```
    pub fn elem(&self) -> &str {
        &self.elem
    }

    /// The element type's width in bits.
    ///
    /// Pre: none. Post: `sizeof_bits(elem())`.
    ///
    /// ```
    /// use kute::atom::tma::SmemTensor;
    /// let t = SmemTensor::new("float", 0, &kute::AnyLayout::Layout("8:_1".parse().unwrap())).unwrap();
    /// assert_eq!(t.bits(), 32);
    /// ```
    pub fn bits(&self) -> i64 {
        self.bits
    }

    /// The byte address of element 0.
    ///
    /// Pre: none. Post: as given, advanced by [`tma_partition`]'s offsets.
    ///
    /// ```
    /// use kute::atom::tma::SmemTensor;
    /// let t = SmemTensor::new("float", 64, &kute::AnyLayout::Layout("8:_1".parse().unwrap())).unwrap();
    /// assert_eq!(t.address(), 64);
    /// ```
    pub fn address(&self) -> i64 {
        self.address
    }

    /// Its pointer (with its swizzle), the engine of the tensor algorithms'
    /// smem tensors.
    ///
    /// Pre: none. Post: an smem pointer of this element type, address and swizzle.
    ///
    /// ```
    /// use kute::atom::tma::SmemTensor;
    /// let l = kute::expr::eval("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)").unwrap().to_any_layout("s").unwrap();
    /// let p = SmemTensor::new("half_t", 0, &l).unwrap().pointer();
    /// assert_eq!((p.smem, p.swizzle.unwrap().to_string()), (true, "Sw<3,3,3>".to_string()));
    /// ```
    pub fn pointer(&self) -> crate::tensor::Pointer {
        crate::tensor::Pointer {
            smem: true,
            elem: self.elem.clone(),
            bits: self.bits,
            address: self.address,
            swizzle: self.swizzle,
        }
    }
}

impl fmt::Display for SmemTensor {
    /// CuTe's `print` of the tensor.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        print_tensor_at(f, &self.pointer(), &self.layout)
    }
}

/// `layout` composed with `(tile, _, _, ...)` and coalesced with the profile
/// `((_1,_1))`: CuTe's `coalesce(t.compose(append<R>(tile, _)), Shape<Shape<_1,_1>>{})`.
fn partition_layout(layout: &Layout, tile: &Layout) -> Result<Layout> {
    let mut t = vec![Tiler::Layout(tile.clone())];
    t.extend((1..layout.rank()).map(|_| Tiler::Underscore));
    let composed = algebra::composition_tiler(layout, &Tiler::Tuple(t))?;
    let profile: IntTuple = "((_1,_1))".parse()?;
    algebra::coalesce_profile(&composed, &profile)
}

/// `((offset, _0), _0, ...)` of a tensor of rank `rank`.
fn partition_coord(offset: Int, rank: usize) -> Result<IntTuple> {
    Tree::try_build(|b| {
        b.open();
        b.open();
        b.leaf(offset);
        b.leaf(Int::ZERO);
        b.close();
        for _ in 1..rank {
            b.leaf(Int::ZERO);
        }
        b.close();
        Ok(())
    })
}

/// CuTe `tma_partition(atom, cta_coord, cta_layout, stensor, gtensor)`: the
/// smem tensor `(TMATile, Rest...)` and the TMA coordinate tensor
/// `(TMATile, Rest...)` regrouped as `((TMA, TMA_Iter), Rest...)`, one TMA
/// instruction's values first, and moved to the slice of the box the CTA at
/// `cta_coord` of the multicast layout `cta_layout` loads.
///
/// Pre: `atom` is a TMA atom (else a `Type` error); mode 0 of both tensors
/// has one size (else a `Mismatch` error); `stensor`'s mode 0 is invertible
/// and `cta_coord` a coordinate of `cta_layout` (their errors).
/// Post: `(gtensor', stensor')`, the same modes after mode 0; the CTA's
/// offset is `cta_layout(cta_coord) · NumValSrc / cosize(cta_layout)` values into mode 0.
///
/// ```
/// use kute::atom::tma::{get_tma_tensor, make_tma_copy, tma_partition, GmemTensor, SmemTensor, TmaOp};
/// let g = GmemTensor::new("float", 0, "(1024,256):(256,_1)".parse().unwrap()).unwrap();
/// let s = kute::AnyLayout::Layout("(_64,_32):(_32,_1)".parse().unwrap());
/// let c = make_tma_copy(TmaOp::Load, &g, &s, None, None).unwrap();
/// let gt = get_tma_tensor(c.atom(), &"(1024,256)".parse().unwrap()).unwrap()
///     .zipped_divide(&"(_64,_32)".parse().unwrap()).unwrap();
/// let st = SmemTensor::new("float", 0, &kute::AnyLayout::Layout("((_64,_32)):((_32,_1))".parse().unwrap())).unwrap();
/// let (gp, sp) = tma_partition(c.atom(), &"_0".parse().unwrap(), &"_1:_0".parse().unwrap(), &st, &gt).unwrap();
/// assert_eq!(sp.layout().to_string(), "((_2048,_1)):((_1,_0))");
/// assert_eq!(gp.layout().to_string(), "(((_32,_64),_1),(16,8)):(((_1@0,_1@1),_0),(_64@1,_32@0))");
/// assert_eq!(gp.offset().to_string(), "(_0,_0)");
/// ```
pub fn tma_partition(
    atom: &CopyAtom,
    cta_coord: &IntTuple,
    cta_layout: &Layout,
    stensor: &SmemTensor,
    gtensor: &Tensor<Coords>,
) -> Result<(Tensor<Coords>, SmemTensor)> {
    let name = "tma_partition";
    if atom.tma().is_none() {
        return Err(Error::new(ErrorKind::Type, name, "the atom is not a TMA atom (make_tma_atom)"));
    }
    let go = || -> Result<(Tensor<Coords>, SmemTensor)> {
        let glayout = match gtensor.layout() {
            AnyLayout::Layout(l) => l.clone(),
            other => return Err(rule(name, format!("the gmem tensor's layout {other} is not a plain layout"))),
        };
        let s0 = stensor.layout.mode(0)?;
        let (ss, gs) = (s0.size()?, glayout.mode(0)?.size()?);
        if ss.value() != gs.value() {
            return Err(Error::mismatch(name, format!("the smem tile has {ss} values, the gmem tile {gs}")));
        }
        let inv_smem = algebra::right_inverse(&s0)?;
        let layout_v = algebra::tile_to_shape(&Layout::concat([&inv_smem])?, &IntTuple::leaf(ss), None)?;
        let nval = atom.num_val_src()?;
        let layout_vv = algebra::logical_divide(&layout_v, &Tiler::Layout(Layout::leaf(nval, Int::ONE)))?;
        let g_v = partition_layout(&glayout, &layout_vv)?;
        let s_v = partition_layout(&stensor.layout, &layout_vv)?;
        let cosize = cta_layout.cosize()?;
        if cosize.value() < 1 {
            return Err(rule(name, format!("the multicast layout {cta_layout} has no CTAs")));
        }
        let offset = cta_layout.eval_coord(cta_coord)?.mul(nval.div(cosize)?)?;
        let gcoord = partition_coord(offset, g_v.rank())?;
        let scoord = partition_coord(offset, s_v.rank())?;
        let goff = crate::tensor::add_points(gtensor.offset(), &g_v.eval_coord_point(&gcoord)?)?;
        let soff = s_v.eval_coord(&scoord)?.value();
        let bytes = soff
            .checked_mul(stensor.bits)
            .map(|b| b / 8)
            .and_then(|b| stensor.address.checked_add(b))
            .ok_or_else(|| rule(name, "the smem address overflows"))?;
        Ok((Tensor::with_offset(Coords, g_v, goff), SmemTensor { address: bytes, layout: s_v, ..stensor.clone() }))
    };
    go().map_err(|e| e.within(name))
}
