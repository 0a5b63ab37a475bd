//! TMA copies in the expression language: a gmem tensor
//! (`make_tensor(make_gmem_ptr<half_t>(0), (M,K):(K,_1))`), CuTe's
//! `make_tma_copy` family over it, and what a TMA copy holds: its gmem basis
//! (`tma_gbasis`), the driver arguments (`tma_descriptor`) and its coordinate
//! tensor (`get_tma_tensor`). See [`crate::atom::tma`].
//!
//! ```
//! use kute::expr::eval;
//! let c = "make_tma_copy(SM90_TMA_LOAD{},make_tensor(make_gmem_ptr<half_t>(0),(4096,4096):(4096,_1)),\
//!          tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{},(_64,_64)))";
//! assert_eq!(eval(&format!("tma_gbasis({c})")).unwrap().to_string(), "(_64,_64):(_1@1,_1@0)");
//! assert_eq!(eval(&format!("get_tma_tensor({c},(4096,4096))")).unwrap().to_string(),
//!            "ArithTuple(_0,_0) o (4096,4096):(_1@1,_1@0)");
//! ```

use super::args::Args;
use crate::atom::tma::{self, GmemTensor, SmemTensor, TmaOp};
use crate::atom::{CopyAtom, Operand, TiledMma};
use crate::composed::AnyLayout;
use crate::error::{Error, ErrorKind, Result};
use crate::expr::tensor_value::TensorValue;
use crate::expr::value::{type_error, Value};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::tensor::{Engine, Pointer, Tensor};
use crate::tiler::Tiler;
use std::borrow::Cow;

/// `make_gmem_ptr<T>(address)` / `make_smem_ptr<T>(address)` (built by the
/// evaluator, which keeps the type's name).
pub(crate) fn ptr(smem: bool, elem: &str, address: &Value) -> Result<Value> {
    let name = if smem { "make_smem_ptr" } else { "make_gmem_ptr" };
    let a = match address {
        Value::IntTuple(t) => t.as_ref().as_leaf(),
        _ => None,
    }
    .ok_or_else(|| type_error("the address", "an integer", address).in_op(name))?;
    // (a pointer's address is a number: an unknown one cannot be aligned or offset)
    if a.is_symbolic() {
        return Err(crate::sym::undecided(
            name,
            format!("the address {a} is unknown; a pointer needs a known address"),
        ));
    }
    let a = a.value();
    // the type is checked here, where its name is known
    GmemTensor::new(elem, a, Layout::leaf(Int::ONE, Int::ZERO)).map_err(|e| e.in_op(name))?;
    let p = Box::new((elem.to_string(), a));
    Ok(if smem { Value::SmemPtr(p) } else { Value::GmemPtr(p) })
}

/// `make_gmem_ptr` reached by [`crate::expr::call`], whose type arguments are widths.
pub(super) fn make_gmem_ptr(a: &Args) -> Result<Value> {
    Err(Error::new(
        ErrorKind::Type,
        a.name,
        format!("{}<T>(address) needs its element type by name: write it in an expression", a.name),
    ))
}

/// `make_smem_ptr` reached by [`crate::expr::call`], whose type arguments are widths.
pub(super) fn make_smem_ptr(a: &Args) -> Result<Value> {
    make_gmem_ptr(a)
}

/// `make_tensor(make_smem_ptr<T>(a), L)`, `L` plain or swizzled.
pub(super) fn make_smem_tensor(elem: &str, address: i64, a: &Args) -> Result<Value> {
    let l: AnyLayout = match &a[1] {
        Value::IntTuple(s) => AnyLayout::Layout(Layout::from_shape(s)?),
        _ => a.arg(1, "the layout")?,
    };
    Ok(Value::SmemTensor(Box::new(SmemTensor::new(elem, address, &l)?)))
}

/// `make_tensor(make_gmem_ptr<T>(a), L)`; with unknowns in `L` (a kernel's
/// operand, `(M,K):(K,_1)`), the tensor the tensor algorithms take (the TMA
/// copies need known extents).
pub(super) fn make_gmem_tensor(elem: &str, address: i64, a: &Args) -> Result<Value> {
    let l = a.layout_or_shape(1, "the layout")?;
    if l.has_symbols() {
        let p = GmemTensor::new(elem, address, Layout::leaf(Int::ONE, Int::ZERO))?.pointer();
        return Ok(Value::Tensor(Box::new(TensorValue::Pointer(Tensor::new(p, l)))));
    }
    Ok(Value::GmemTensor(Box::new(GmemTensor::new(elem, address, l).map_err(|e| e.within("make_tensor"))?)))
}

fn op(a: &Args) -> Result<TmaOp> {
    match &a[0] {
        Value::CopyOp(name) => TmaOp::from_name(name).ok_or_else(|| {
            Error::new(ErrorKind::Inadmissible, a.name, format!("{name} is not a TMA op (SM90_TMA_LOAD{{}}, ...)"))
        }),
        other => Err(type_error("the copy operation", "a TMA op (SM90_TMA_LOAD{}, ...)", other).in_op(a.name)),
    }
}

/// A gmem or smem tensor: as made (`make_tensor(make_gmem_ptr<T>(a), L)`),
/// or as the tensor algorithms give it (a tile, a partition: a pointer
/// tensor at its moved address).
enum PointerTensor<'a> {
    Gmem(Cow<'a, GmemTensor>),
    Smem(Cow<'a, SmemTensor>),
}

impl PointerTensor<'_> {
    /// The tensor as the bulk copy takes it.
    fn bulk(&self) -> crate::atom::bulk::BulkTensor<'_> {
        match self {
            PointerTensor::Gmem(g) => crate::atom::bulk::BulkTensor::Gmem(g),
            PointerTensor::Smem(s) => crate::atom::bulk::BulkTensor::Smem(s),
        }
    }
}

/// The gmem or smem tensor `v` holds, if it holds one.
fn pointer_tensor(v: &Value) -> Option<Result<PointerTensor<'_>>> {
    match v {
        Value::GmemTensor(g) => Some(Ok(PointerTensor::Gmem(Cow::Borrowed(g)))),
        Value::SmemTensor(s) => Some(Ok(PointerTensor::Smem(Cow::Borrowed(s)))),
        Value::Tensor(t) => match &**t {
            TensorValue::Pointer(t) => Some(from_pointer(t)),
            _ => None,
        },
        _ => None,
    }
}

/// A pointer tensor as the TMA and bulk copies take it: its layout from the
/// byte its offset moved the pointer to (with its swizzle, for smem).
fn from_pointer(t: &Tensor<Pointer>) -> Result<PointerTensor<'static>> {
    let p = t.engine();
    crate::sym::refuse("make_tensor", || t.has_symbols())?;
    let bits = p.bit_address_of(t.offset()).filter(|b| b % 8 == 0);
    let Some(address) = bits.and_then(|b| i64::try_from(b / 8).ok()) else {
        return Err(Error::inadmissible(
            "make_tensor",
            format!("{} o {} does not start at a whole byte", p.describe(t.offset()), t.layout()),
        ));
    };
    if !p.smem {
        let l = t.layout().as_layout("make_tensor")?;
        return Ok(PointerTensor::Gmem(Cow::Owned(GmemTensor::new(&p.elem, address, l.clone())?)));
    }
    let l = match p.swizzle {
        Some(sw) => crate::composed::compose3(AnyLayout::Swizzle(sw), Int::ZERO, t.layout().clone()),
        None => t.layout().clone(),
    };
    Ok(PointerTensor::Smem(Cow::Owned(SmemTensor::new(&p.elem, address, &l)?)))
}

fn gmem<'a>(a: &Args<'a>) -> Result<Cow<'a, GmemTensor>> {
    match pointer_tensor(&a.values()[1]) {
        Some(Ok(PointerTensor::Gmem(g))) => Ok(g),
        Some(Err(e)) => Err(e.within(a.name)),
        _ => Err(type_error(
            "the gmem tensor",
            "a gmem tensor (make_tensor(make_gmem_ptr<T>(0), layout))",
            &a.values()[1],
        )
        .in_op(a.name)),
    }
}

fn smem(a: &Args) -> Result<AnyLayout> {
    a.arg(2, "the smem layout")
}

fn mma<'a>(a: &Args<'a>, i: usize) -> Result<&'a TiledMma> {
    match &a.values()[i] {
        Value::TiledMma(m) => Ok(m),
        other => Err(type_error("the MMA", "a TiledMMA", other).in_op(a.name)),
    }
}

fn copy(c: crate::atom::TiledCopy) -> Value {
    Value::TiledCopy(Box::new(c))
}

/// `make_tma_copy(op, g, s[, cluster_size])` / `(op, g, s, cta_tiler, cluster_size)`,
/// as CuTe's overloads: with four arguments the fourth is the cluster size.
pub(super) fn make_tma_copy(a: &Args) -> Result<Value> {
    let (op, g, s) = (op(a)?, gmem(a)?, smem(a)?);
    let g = &*g;
    let (tiler, cluster): (Option<Tiler>, Option<IntTuple>) = match a.len() {
        3 => (None, None),
        4 => (None, Some(a.arg(3, "the cluster size")?)),
        _ => (Some(a.arg(3, "the CTA tile")?), Some(a.arg(4, "the cluster size")?)),
    };
    Ok(copy(tma::make_tma_copy(op, g, &s, tiler.as_ref(), cluster.as_ref())?))
}

/// `make_tma_atom(op, g, s, cta_tiler[, cluster_size])`.
pub(super) fn make_tma_atom(a: &Args) -> Result<Value> {
    let (op, g, s) = (op(a)?, gmem(a)?, smem(a)?);
    let g = &*g;
    let tiler: Tiler = a.arg(3, "the CTA tile")?;
    let cluster: Option<IntTuple> = a.opt(4, "the cluster size")?;
    Ok(Value::CopyAtom(Box::new(tma::make_tma_atom(op, g, &s, &tiler, cluster.as_ref())?)))
}

fn sm90(a: &Args, which: Operand) -> Result<Value> {
    let (op, g, s) = (op(a)?, gmem(a)?, smem(a)?);
    let g = &*g;
    let tiler: Tiler = a.arg(3, "the (M,N,K) CTA tile")?;
    let cluster: IntTuple = match a.opt(4, "the cluster shape")? {
        Some(c) => c,
        None => IntTuple::leaf(Int::ONE),
    };
    Ok(copy(tma::make_tma_copy_sm90(which, op, g, &s, &tiler, &cluster)?))
}

/// `make_tma_copy_A_sm90(op, g, s, cta_tiler, cluster_shape)`.
pub(super) fn make_tma_copy_a_sm90(a: &Args) -> Result<Value> {
    sm90(a, Operand::A)
}

/// `make_tma_copy_B_sm90(op, g, s, cta_tiler, cluster_shape)`.
pub(super) fn make_tma_copy_b_sm90(a: &Args) -> Result<Value> {
    sm90(a, Operand::B)
}

/// `make_tma_copy_C_sm90(op, g, s, cta_tiler)`.
pub(super) fn make_tma_copy_c_sm90(a: &Args) -> Result<Value> {
    sm90(a, Operand::C)
}

fn sm100_copy(a: &Args, which: Operand) -> Result<Value> {
    let (op, g, s) = (op(a)?, gmem(a)?, smem(a)?);
    let g = &*g;
    let tiler: Tiler = a.arg(3, "the (M,N,K) cluster tile")?;
    Ok(copy(tma::make_tma_copy_sm100(which, op, g, &s, &tiler, mma(a, 4)?)?))
}

/// `make_tma_copy_A_sm100(op, g, s, cluster_tiler, mma)`.
pub(super) fn make_tma_copy_a_sm100(a: &Args) -> Result<Value> {
    sm100_copy(a, Operand::A)
}

/// `make_tma_copy_B_sm100(op, g, s, cluster_tiler, mma)`.
pub(super) fn make_tma_copy_b_sm100(a: &Args) -> Result<Value> {
    sm100_copy(a, Operand::B)
}

fn sm100_atom(a: &Args, which: Operand) -> Result<Value> {
    let (op, g, s) = (op(a)?, gmem(a)?, smem(a)?);
    let g = &*g;
    let tiler: Tiler = a.arg(3, "the (M,N,K) MMA tile")?;
    let cluster: IntTuple = a.arg(5, "the (V,M,N,K) cluster shape")?;
    Ok(Value::CopyAtom(Box::new(tma::make_tma_atom_sm100(which, op, g, &s, &tiler, mma(a, 4)?, &cluster)?)))
}

/// `make_tma_atom_A_sm100(op, g, s, mma_tiler, mma, cluster_shape)`.
pub(super) fn make_tma_atom_a_sm100(a: &Args) -> Result<Value> {
    sm100_atom(a, Operand::A)
}

/// `make_tma_atom_B_sm100(op, g, s, mma_tiler, mma, cluster_shape)`.
pub(super) fn make_tma_atom_b_sm100(a: &Args) -> Result<Value> {
    sm100_atom(a, Operand::B)
}

/// The atom of a copy or atom argument.
fn any_atom<'a>(a: &Args<'a>) -> Result<&'a CopyAtom> {
    match &a.values()[0] {
        Value::CopyAtom(c) => Ok(&**c),
        Value::TiledCopy(c) => Ok(c.atom()),
        other => Err(type_error("the copy", "a TMA copy or atom (make_tma_copy)", other).in_op(a.name)),
    }
}

/// The TMA atom of a TMA copy or atom argument.
fn tma_atom<'a>(a: &Args<'a>) -> Result<&'a CopyAtom> {
    let atom = any_atom(a)?;
    if atom.im2col().is_some() {
        return Err(Error::new(
            ErrorKind::Type,
            a.name,
            "the copy is an im2col TMA copy, which has no gmem basis nor tiled partitioning here (make_tma_copy)",
        ));
    }
    if atom.tma().is_none() {
        return Err(Error::new(ErrorKind::Type, a.name, "the copy is not a TMA copy (make_tma_copy)"));
    }
    Ok(atom)
}

/// `get_tma_tensor(c, shape)`: CuTe's `c.get_tma_tensor(shape)` (an im2col
/// copy's tensor whatever the shape, as CuTe's).
pub(super) fn get_tma_tensor(a: &Args) -> Result<Value> {
    if let Some(i) = any_atom(a)?.im2col() {
        return Ok(Value::Tensor(Box::new(crate::expr::tensor_value::TensorValue::Im2col(Box::new(
            i.tensor().clone(),
        )))));
    }
    let atom = tma_atom(a)?;
    let shape: IntTuple = a.arg(1, "the gmem shape")?;
    let t = tma::get_tma_tensor(atom, &shape)?;
    Ok(Value::Tensor(Box::new(crate::expr::tensor_value::TensorValue::Identity(t))))
}

/// `tma_gbasis(c)`: the copy's `AuxParams::TmaGmemBasis`.
pub(super) fn tma_gbasis(a: &Args) -> Result<Value> {
    let atom = tma_atom(a)?;
    Ok(Value::Layout(atom.tma().map(|t| t.gbasis().clone()).unwrap_or_default()))
}

/// `tma_descriptor(c)`: the arguments of `cuTensorMapEncodeTiled` (of
/// `cuTensorMapEncodeIm2col` for an im2col copy), printed.
pub(super) fn tma_descriptor(a: &Args) -> Result<Value> {
    if let Some(i) = any_atom(a)?.im2col() {
        return Ok(Value::Printed(i.descriptor().to_string()));
    }
    let atom = tma_atom(a)?;
    Ok(Value::Printed(atom.tma().map(|t| t.descriptor().to_string()).unwrap_or_default()))
}

/// `tma_partition(atom[, cta_coord, cta_layout], stensor, gtensor)`: the pair
/// (gmem coordinate tensor, smem tensor), as CuTe returns it.
pub(super) fn tma_partition(a: &Args) -> Result<Value> {
    let atom = tma_atom(a)?;
    let (coord, layout, k): (IntTuple, Layout, usize) = match a.len() {
        3 => (IntTuple::leaf(Int::ZERO), Layout::leaf(Int::ONE, Int::ZERO), 1),
        5 => (a.arg(1, "the CTA coordinate")?, a.layout_or_shape(2, "the multicast layout")?, 3),
        n => return Err(Error::new(ErrorKind::Type, a.name, format!("takes 3 or 5 arguments, not {n}"))),
    };
    let s = match pointer_tensor(&a.values()[k]) {
        Some(Ok(PointerTensor::Smem(s))) => s,
        Some(Err(e)) => return Err(e.within(a.name)),
        _ => {
            return Err(
                type_error("the smem tensor", "make_tensor(make_smem_ptr<T>(0), L)", &a.values()[k]).in_op(a.name)
            )
        }
    };
    let g = match &a.values()[k + 1] {
        Value::Tensor(t) => match &**t {
            crate::expr::tensor_value::TensorValue::Identity(t) => t,
            _ => return Err(Error::new(ErrorKind::Type, a.name, "the gmem tensor must be a TMA coordinate tensor")),
        },
        other => {
            return Err(type_error("the gmem tensor", "a TMA coordinate tensor (get_tma_tensor)", other).in_op(a.name))
        }
    };
    let (gp, sp) = tma::tma_partition(atom, &coord, &layout, &s, g)?;
    Ok(Value::Tuple(vec![
        Value::Tensor(Box::new(crate::expr::tensor_value::TensorValue::Identity(gp))),
        Value::SmemTensor(Box::new(sp)),
    ]))
}

/// `bulk_copy_atom(Copy_Atom<SM90_BULK_COPY_AUTO,T>{}, src, dst)`: the atom
/// CuTe's `copy` of the bulk copy issues for these tensors.
pub(super) fn bulk_copy_atom(a: &Args) -> Result<Value> {
    use crate::atom::bulk;
    let atom = match &a.values()[0] {
        Value::CopyAtom(c) => &**c,
        other => return Err(type_error("the copy atom", "Copy_Atom<SM90_BULK_COPY_AUTO,T>{}", other).in_op(a.name)),
    };
    let side = |i: usize, what: &'static str| -> Result<PointerTensor> {
        pointer_tensor(&a.values()[i]).unwrap_or_else(|| {
            Err(type_error(what, "a gmem or smem tensor (make_tensor(make_gmem_ptr<T>(a), L))", &a.values()[i]))
        })
    };
    let (src, dst) = (
        side(1, "the source").map_err(|e| e.within(a.name))?,
        side(2, "the destination").map_err(|e| e.within(a.name))?,
    );
    Ok(Value::CopyAtom(Box::new(bulk::bulk_copy_atom(atom, src.bulk(), dst.bulk())?)))
}

/// The error of a tensor operation on an im2col coordinate tensor.
pub(crate) fn im2col_unsupported() -> Error {
    Error::new(
        ErrorKind::Type,
        "evaluate",
        "this operation is not defined on an im2col TMA coordinate tensor (evaluate it at a coordinate)",
    )
}

/// The seven convolution parameters from argument `k` on.
fn conv_params(a: &Args, k: usize) -> Result<crate::atom::tma_im2col::ConvParams> {
    let t = |j: usize, what: &str| -> Result<IntTuple> { a.arg(k + j, what) };
    Ok(crate::atom::tma_im2col::ConvParams {
        lower_corner_whd: t(0, "lower_corner_whd")?,
        upper_corner_whd: t(1, "upper_corner_whd")?,
        lower_padding_whd: t(2, "lower_padding_whd")?,
        upper_padding_whd: t(3, "upper_padding_whd")?,
        stride_whd: t(4, "stride_whd")?,
        lower_srt: t(5, "lower_srt")?,
        stride_srt: t(6, "stride_srt")?,
    })
}

fn im2col_sm100_copy(a: &Args, which: Operand) -> Result<Value> {
    let (op, g, s) = (op(a)?, gmem(a)?, smem(a)?);
    let g = &*g;
    let tile: IntTuple = a.arg(3, "the (M,N,K) cluster tile")?;
    let conv = conv_params(a, 5)?;
    Ok(copy(crate::atom::tma_im2col::make_im2col_tma_copy_sm100(which, op, g, &s, &tile, mma(a, 4)?, Some(&conv))?))
}

/// `make_im2col_tma_copy_A_sm100(op, g, s, cluster_tile, mma, conv...)`.
pub(super) fn make_im2col_tma_copy_a_sm100(a: &Args) -> Result<Value> {
    im2col_sm100_copy(a, Operand::A)
}

/// `make_im2col_tma_copy_B_sm100(op, g, s, cluster_tile, mma, conv...)`.
pub(super) fn make_im2col_tma_copy_b_sm100(a: &Args) -> Result<Value> {
    im2col_sm100_copy(a, Operand::B)
}

fn im2col_sm100_atom(a: &Args, which: Operand) -> Result<Value> {
    let (op, g, s) = (op(a)?, gmem(a)?, smem(a)?);
    let g = &*g;
    let tile: IntTuple = a.arg(3, "the (M,N,K) MMA tile")?;
    let cluster: IntTuple = a.arg(5, "the (V,M,N,K) cluster shape")?;
    let conv = conv_params(a, 6)?;
    let atom = crate::atom::tma_im2col::make_im2col_tma_atom_sm100(
        which,
        op,
        g,
        &s,
        &tile,
        mma(a, 4)?,
        &cluster,
        Some(&conv),
    )?;
    Ok(Value::CopyAtom(Box::new(atom)))
}

/// `make_im2col_tma_atom_A_sm100(op, g, s, mma_tiler, mma, cluster_shape, conv...)`.
pub(super) fn make_im2col_tma_atom_a_sm100(a: &Args) -> Result<Value> {
    im2col_sm100_atom(a, Operand::A)
}

/// `make_im2col_tma_atom_B_sm100(op, g, s, mma_tiler, mma, cluster_shape, conv...)`.
pub(super) fn make_im2col_tma_atom_b_sm100(a: &Args) -> Result<Value> {
    im2col_sm100_atom(a, Operand::B)
}

/// `make_im2col_tma_copy(op, g, s[, cta_tiler[, multicast_size]][, lower_corner_whd,
/// upper_corner_whd, lower_padding_whd, upper_padding_whd, stride_whd, lower_srt,
/// stride_srt])`, as CuTe's overloads (3, 4, 5, 10, 11 or 12 arguments).
pub(super) fn make_im2col_tma_copy(a: &Args) -> Result<Value> {
    use crate::atom::tma_im2col;
    let (op, g, s) = (op(a)?, gmem(a)?, smem(a)?);
    let g = &*g;
    let n = a.len();
    let (tiler_at, mc_at, conv_at) = match n {
        3 => (None, None, None),
        4 => (Some(3), None, None),
        5 => (Some(3), Some(4), None),
        10 => (None, None, Some(3)),
        11 => (Some(3), None, Some(4)),
        12 => (Some(3), Some(4), Some(5)),
        _ => {
            return Err(Error::new(ErrorKind::Type, a.name, format!("takes 3, 4, 5, 10, 11 or 12 arguments, not {n}")))
        }
    };
    let tiler: Option<Tiler> = tiler_at.map(|i| a.arg(i, "the CTA tile")).transpose()?;
    let mc: Option<Int> = mc_at.map(|i| a.arg(i, "the multicast size")).transpose()?;
    let conv = conv_at.map(|k| conv_params(a, k)).transpose()?;
    Ok(copy(tma_im2col::make_im2col_tma_copy(op, g, &s, tiler.as_ref(), mc, conv.as_ref())?))
}
