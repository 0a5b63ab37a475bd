//! MMA and copy atoms, tiled MMAs and tiled copies in the expression
//! language: the functions of CuTe's `mma_atom.hpp` and `copy_atom.hpp`, the
//! partitions of a thread slice, and `size` of a tiled MMA or copy (the
//! registry names which functions take these values).

use super::args::{int, Args};
use crate::atom::{make_layout_tv, CopyAtom, Operand, Side, TiledCopy, TiledMma};
use crate::error::{Error, ErrorKind, Result};
use crate::expr::thr_slice::ThrSlice;
use crate::expr::value::{type_error, Value};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::tiler::Tiler;

fn mma<'a>(v: &'a Value, name: &str) -> Result<std::borrow::Cow<'a, TiledMma>> {
    match v {
        Value::TiledMma(m) => Ok(std::borrow::Cow::Borrowed(m)),
        Value::MmaAtom(a) => Ok(std::borrow::Cow::Owned(TiledMma::new((**a).clone(), None, None)?)),
        other => Err(type_error("the operand", "a TiledMMA", other).in_op(name.to_string())),
    }
}

fn copy<'a>(v: &'a Value, name: &str) -> Result<&'a TiledCopy> {
    match v {
        Value::TiledCopy(c) => Ok(c),
        other => Err(type_error("the operand", "a TiledCopy", other).in_op(name.to_string())),
    }
}

fn copy_atom(v: &Value, name: &str) -> Result<CopyAtom> {
    match v {
        Value::CopyAtom(a) => Ok((**a).clone()),
        other => Err(type_error("the copy atom", "a Copy_Atom", other).in_op(name.to_string())),
    }
}

/// `make_tiled_mma(atom[, atom_layout[, permutation]])`.
pub(super) fn make_tiled_mma(a: &Args) -> Result<Value> {
    let atom = match &a[0] {
        Value::MmaAtom(x) => (**x).clone(),
        other => return Err(type_error("the atom", "an MMA atom or operation", other).in_op(a.name)),
    };
    // (an atom layout given as a shape is its compact layout, as CuTe DSL takes it)
    let layout = (a.len() > 1).then(|| a.layout_or_shape(1, "the atom layout")).transpose()?;
    let perm: Option<Tiler> = a.opt(2, "the permutation")?;
    Ok(Value::TiledMma(Box::new(TiledMma::new(atom, layout.as_ref(), perm.as_ref())?)))
}

/// `make_tiled_copy(atom, thr_layout, val_layout)`: either layout may be
/// given as a shape, its compact column-major layout.
pub(super) fn make_tiled_copy(a: &Args) -> Result<Value> {
    let atom = copy_atom(&a[0], a.name)?;
    let thr = a.layout_or_shape(1, "the thread layout")?;
    let val = a.layout_or_shape(2, "the value layout")?;
    Ok(Value::TiledCopy(Box::new(TiledCopy::make(atom, &thr, &val)?)))
}

/// `make_tiled_copy_A/B/C(atom, mma)`.
fn make_tiled_copy_abc(a: &Args, which: Operand) -> Result<Value> {
    let (atom, m) = (copy_atom(&a[0], a.name)?, mma(&a[1], a.name)?);
    let c = TiledCopy::for_mma(atom, &m, which).map_err(|e| e.within(a.name))?;
    Ok(Value::TiledCopy(Box::new(c)))
}

/// `make_tiled_copy_C_atom(atom, mma)`.
pub(super) fn make_tiled_copy_c_atom(a: &Args) -> Result<Value> {
    let (atom, m) = (copy_atom(&a[0], a.name)?, mma(&a[1], a.name)?);
    Ok(Value::TiledCopy(Box::new(TiledCopy::for_mma_c_atom(atom, &m)?)))
}

/// `make_tiled_copy_S/D(atom, tiled_copy)`.
fn make_tiled_copy_sd(a: &Args, side: Side) -> Result<Value> {
    let (atom, c) = (copy_atom(&a[0], a.name)?, copy(&a[1], a.name)?);
    Ok(Value::TiledCopy(Box::new(TiledCopy::for_copy(atom, c, side).map_err(|e| e.within(a.name))?)))
}

/// `get_layoutA/B/C_TV(m)`.
fn mma_layout_tv(a: &Args, which: Operand) -> Result<Value> {
    Ok(Value::Layout(mma(&a[0], a.name)?.layout_tv(which)?))
}

/// `thrfrg_A/B/C(m, L)`.
fn mma_thrfrg(a: &Args, which: Operand) -> Result<Value> {
    let l: Layout = a.arg(1, "the layout")?;
    Ok(Value::Layout(mma(&a[0], a.name)?.thrfrg(which, &l)?))
}

/// `partition_shape_A/B/C(m, shape)`.
fn mma_partition_shape(a: &Args, which: Operand) -> Result<Value> {
    let s: IntTuple = a.arg(1, "the shape")?;
    Ok(Value::IntTuple(mma(&a[0], a.name)?.partition_shape(which, &s).map_err(|e| e.within(a.name))?))
}

/// `get_thr_layout_vmnk(m)`.
pub(super) fn get_thr_layout_vmnk(a: &Args) -> Result<Value> {
    Ok(Value::Layout(mma(&a[0], a.name)?.thr_layout_vmnk().clone()))
}

/// `permutation_mnk<I>(m)`: the permutation of mode `I` of (M, N, K).
pub(super) fn permutation_mnk(a: &Args) -> Result<Value> {
    let i = a.targs().first().copied().unwrap_or(-1);
    let i = usize::try_from(i).map_err(|_| Error::mismatch(a.name, format!("mode {i} of M, N, K")))?;
    Ok(match mma(&a[0], a.name)?.permutation_mnk(i)? {
        Tiler::Layout(l) => Value::Layout(l),
        Tiler::Int(n) => int(n),
        other => Value::Tiler(other),
    })
}

/// `tile_shape(m)`.
pub(super) fn tile_shape(a: &Args) -> Result<Value> {
    Ok(Value::IntTuple(mma(&a[0], a.name)?.tile_shape()?))
}

/// `thr_size(m)`: the threads of a TiledMMA.
pub(super) fn thr_size(a: &Args) -> Result<Value> {
    Ok(int(mma(&a[0], a.name)?.size()?))
}

/// `get_layoutS/D_TV(c)`.
fn copy_layout_tv(a: &Args, side: Side) -> Result<Value> {
    Ok(Value::Layout(copy(&a[0], a.name)?.layout_tv(side)?))
}

/// `tidfrg_S/D(c, L)`.
fn copy_tidfrg(a: &Args, side: Side) -> Result<Value> {
    let l: Layout = a.arg(1, "the layout")?;
    Ok(Value::Layout(copy(&a[0], a.name)?.tidfrg(&l, side)?))
}

/// `TiledLayout_TV(c)`.
pub(super) fn tiled_layout_tv(a: &Args) -> Result<Value> {
    Ok(Value::Layout(copy(&a[0], a.name)?.tiled_layout_tv().clone()))
}

/// `Tiler_MN(c)`: a shape of integers, or a tile of layouts.
pub(super) fn tiler_mn(a: &Args) -> Result<Value> {
    Ok(match copy(&a[0], a.name)?.tiler_mn() {
        Tiler::Tuple(ts) if ts.iter().all(|t| matches!(t, Tiler::Int(_))) => {
            Value::IntTuple(IntTuple::tuple_of_leaves(ts.iter().map(|t| match t {
                Tiler::Int(n) => *n,
                _ => Int::ZERO,
            })))
        }
        Tiler::Tuple(ts) => Value::Tuple(
            ts.iter()
                .map(|t| match t {
                    Tiler::Layout(l) => Value::Layout(l.clone()),
                    Tiler::Int(n) => int(*n),
                    other => Value::Tiler(other.clone()),
                })
                .collect(),
        ),
        other => Value::Tiler(other.clone()),
    })
}

/// `make_layout_tv(thr, val)`: `(tiler, layout_tv)`.
pub(super) fn layout_tv(a: &Args) -> Result<Value> {
    let thr = a.layout_or_shape(0, "the thread layout")?;
    let val = a.layout_or_shape(1, "the value layout")?;
    let (tiler, tv) = make_layout_tv(&thr, &val)?;
    Ok(Value::Tuple(vec![Value::IntTuple(tiler), Value::Layout(tv)]))
}

/// Template argument 0 as a mode index.
fn mode(a: &Args) -> Result<usize> {
    let i = a.targs().first().copied().unwrap_or(-1);
    usize::try_from(i).map_err(|_| Error::mismatch(a.name, format!("mode {i}")))
}

/// `size(X)` (and `size<I>(X)`) of a TiledMMA or TiledCopy: its threads.
pub(super) fn size(a: &Args) -> Result<Value> {
    match &a[0] {
        Value::TiledMma(m) if a.targs().is_empty() => Ok(int(m.size()?)),
        Value::TiledMma(m) => Ok(int(m.thr_layout_vmnk().mode(mode(a)?)?.size()?)),
        Value::TiledCopy(c) if a.targs().is_empty() => Ok(int(c.size()?)),
        v => Err(Error::new(ErrorKind::Type, "evaluate", format!("size is not defined on {}", v.kind_name()))),
    }
}

/// `tile_size<I>(X)` of a TiledMMA or TiledCopy: the tile's extent in mode `I`.
pub(super) fn tile_size(a: &Args) -> Result<Value> {
    match &a[0] {
        Value::TiledMma(m) => Ok(int(m.tile_size(mode(a)?)?)),
        Value::TiledCopy(c) => Ok(int(c.tile_size(mode(a)?)?)),
        v => Err(Error::new(ErrorKind::Type, "evaluate", format!("tile_size is not defined on {}", v.kind_name()))),
    }
}

/// One registry implementation per operand or side of a typed accessor.
macro_rules! per_operand {
    ($($f:ident => $body:ident($which:expr);)*) => {
        $(pub(super) fn $f(a: &Args) -> Result<Value> {
            $body(a, $which)
        })*
    };
}

per_operand! {
    make_tiled_copy_a => make_tiled_copy_abc(Operand::A);
    make_tiled_copy_b => make_tiled_copy_abc(Operand::B);
    make_tiled_copy_c => make_tiled_copy_abc(Operand::C);
    make_tiled_copy_s => make_tiled_copy_sd(Side::Source);
    make_tiled_copy_d => make_tiled_copy_sd(Side::Destination);
    get_layout_a_tv => mma_layout_tv(Operand::A);
    get_layout_b_tv => mma_layout_tv(Operand::B);
    get_layout_c_tv => mma_layout_tv(Operand::C);
    thrfrg_a => mma_thrfrg(Operand::A);
    thrfrg_b => mma_thrfrg(Operand::B);
    thrfrg_c => mma_thrfrg(Operand::C);
    partition_shape_a => mma_partition_shape(Operand::A);
    partition_shape_b => mma_partition_shape(Operand::B);
    partition_shape_c => mma_partition_shape(Operand::C);
    get_layout_s_tv => copy_layout_tv(Side::Source);
    get_layout_d_tv => copy_layout_tv(Side::Destination);
    tidfrg_s => copy_tidfrg(Side::Source);
    tidfrg_d => copy_tidfrg(Side::Destination);
}

/// `get_slice(mma | tiled_copy, t)`.
pub(super) fn get_slice(a: &Args) -> Result<Value> {
    let name = a.name;
    let t = a.known(1, "the thread")?;
    let s = match &a[0] {
        Value::TiledMma(m) => {
            m.get_slice(t)?;
            ThrSlice::Mma((**m).clone(), t)
        }
        Value::MmaAtom(x) => {
            let m = TiledMma::new((**x).clone(), None, None)?;
            m.get_slice(t)?;
            ThrSlice::Mma(m, t)
        }
        Value::TiledCopy(c) => {
            c.get_slice(t)?;
            ThrSlice::Copy((**c).clone(), t)
        }
        other => return Err(type_error("the operand", "a TiledMMA or TiledCopy", other).in_op(name)),
    };
    Ok(Value::ThrSlice(Box::new(s)))
}

/// `partition_A/B/C(thr_mma, T)` of a counting or identity tensor.
fn partition_mma(a: &Args, which: Operand) -> Result<Value> {
    match &a[0] {
        Value::ThrSlice(s) => match &**s {
            ThrSlice::Mma(m, thr) => super::tensors::partition_mma(&a[1], &m.get_slice(*thr)?, which),
            _ => Err(Error::new(ErrorKind::Type, a.name, format!("{} takes a thread slice of a TiledMMA", a.name))),
        },
        other => Err(type_error("the thread slice", "get_slice(...)", other).in_op(a.name)),
    }
}

/// `partition_fragment_A/B/C(thr_mma, T)`: the layout of the register
/// fragment (CuTe makes a register tensor of it).
fn partition_fragment(a: &Args, which: Operand) -> Result<Value> {
    match &a[0] {
        Value::ThrSlice(s) => match &**s {
            ThrSlice::Mma(m, thr) => {
                let shape = super::tensors::tensor_shape(&a[1]).map_err(|e| e.in_op(a.name))?;
                let traits = m.atom().traits();
                if traits.tmem_c.is_some() {
                    // a tcgen05 op: C (and A of the _TS ops) in tensor memory, the same for
                    // every thread; the other operands are read through shared-memory descriptors
                    m.get_slice(*thr)?;
                    let t = match which {
                        Operand::C => crate::atom::tmem::partition_fragment_c(m, &shape)?,
                        Operand::A if traits.tmem_a.is_some() => crate::atom::tmem::partition_fragment_a(m, &shape)?,
                        _ => {
                            return Err(Error::new(
                                ErrorKind::Type,
                                a.name,
                                format!(
                                    "{} of a tcgen05 MMA is read through a shared-memory descriptor \
                                     (CuTe's UMMA::smem_desc): it has no fragment of its own; partition \
                                     its shared-memory tensor",
                                    if which == Operand::A { "A" } else { "B" }
                                ),
                            ))
                        }
                    };
                    let l = crate::AnyLayout::Layout(t.layout().clone());
                    return Ok(Value::Tensor(Box::new(crate::expr::tensor_value::TensorValue::Tmem(Box::new((t, l))))));
                }
                let t = crate::tensor::make_counting_tensor(Layout::from_shape(&shape)?);
                let frag = m.get_slice(*thr)?.partition_fragment::<_, f32>(which, t)?;
                Ok(Value::Layout(frag.layout().as_layout(a.name)?.clone()))
            }
            _ => Err(Error::new(ErrorKind::Type, a.name, format!("{} takes a thread slice of a TiledMMA", a.name))),
        },
        other => Err(type_error("the thread slice", "get_slice(...)", other).in_op(a.name)),
    }
}

/// `partition_fragment_C(mma, shape)`: the whole tile's accumulator. For a
/// tcgen05 MMA, the accumulator in tensor memory (a tensor); for a register
/// MMA, the compact layout of `partition_shape_C(mma, shape)` (the layout of
/// CuTe's register tensor). (CuTe has no such free `partition_fragment_A/B`.)
pub(super) fn partition_fragment_c_of_mma(a: &Args) -> Result<Value> {
    let m = mma(&a[0], a.name)?;
    let shape: IntTuple = a.arg(1, "the shape")?;
    if m.atom().traits().tmem_c.is_some() {
        let t = crate::atom::tmem::partition_fragment_c(&m, &shape).map_err(|e| e.within(a.name))?;
        let l = crate::AnyLayout::Layout(t.layout().clone());
        return Ok(Value::Tensor(Box::new(crate::expr::tensor_value::TensorValue::Tmem(Box::new((t, l))))));
    }
    let s = m.partition_shape(Operand::C, &shape).map_err(|e| e.within(a.name))?;
    Ok(Value::Layout(Layout::from_shape(&s)?))
}

/// `make_tmem_copy(op | Copy_Atom<op,T>, tmem)`: see [`crate::atom::tmem::make_tmem_copy`].
pub(super) fn make_tmem_copy(a: &Args) -> Result<Value> {
    let (op, t) = match &a[0] {
        Value::CopyOp(op) => (op.clone(), None),
        Value::CopyAtom(c) => (c.traits().name.clone(), Some(c.val_type().to_string())),
        other => return Err(type_error("the copy operation", "a TMEM copy op or Copy_Atom", other).in_op(a.name)),
    };
    let tmem = match &a[1] {
        Value::Tensor(t) => match &**t {
            crate::expr::tensor_value::TensorValue::Tmem(t) => t.0.clone(),
            _ => return Err(Error::new(ErrorKind::Type, a.name, "expected a tensor-memory tensor")),
        },
        other => return Err(type_error("the tensor", "a tensor-memory tensor", other).in_op(a.name)),
    };
    Ok(Value::TiledCopy(Box::new(crate::atom::tmem::make_tmem_copy(&op, t.as_deref(), &tmem)?)))
}

/// `make_utccp_copy(op, tmem)`: see [`crate::atom::tmem::make_utccp_copy`].
pub(super) fn make_utccp_copy(a: &Args) -> Result<Value> {
    let Value::CopyOp(op) = &a[0] else {
        return Err(type_error("the copy operation", "a UTCCP op (SM100_UTCCP_...{})", &a[0]).in_op(a.name));
    };
    let tmem = match &a[1] {
        Value::Tensor(t) => match &**t {
            crate::expr::tensor_value::TensorValue::Tmem(t) => t.0.clone(),
            _ => return Err(Error::new(ErrorKind::Type, a.name, "expected a tensor-memory tensor")),
        },
        other => return Err(type_error("the tensor", "a tensor-memory tensor", other).in_op(a.name)),
    };
    Ok(Value::TiledCopy(Box::new(crate::atom::tmem::make_utccp_copy(op, &tmem)?)))
}

/// `partition_S/D(thr_copy, T)` of a counting or identity tensor.
fn partition_copy(a: &Args, side: Side) -> Result<Value> {
    match &a[0] {
        Value::ThrSlice(s) => match &**s {
            ThrSlice::Copy(c, thr) => super::tensors::partition_copy(&a[1], &c.get_slice(*thr)?, side),
            _ => Err(Error::new(ErrorKind::Type, a.name, format!("{} takes a thread slice of a TiledCopy", a.name))),
        },
        other => Err(type_error("the thread slice", "get_slice(...)", other).in_op(a.name)),
    }
}

/// `retile_S/D(thr_copy, F)`: the fragment `F` (a layout, or a tensor over
/// its engine) regrouped by [`TiledCopy::retile`].
fn retile_slice(a: &Args, side: Side) -> Result<Value> {
    let (c, thr) = match &a[0] {
        Value::ThrSlice(s) => match &**s {
            ThrSlice::Copy(c, thr) => (c, *thr),
            _ => {
                return Err(Error::new(
                    ErrorKind::Type,
                    a.name,
                    "takes a thread slice of a TiledCopy (get_slice(tiled_copy, t)), not one of a TiledMMA",
                ))
            }
        },
        other => return Err(type_error("the thread slice", "get_slice(tiled_copy, t)", other).in_op(a.name)),
    };
    match &a[1] {
        Value::Tensor(_) => super::tensors::retile_copy(&a[1], &c.get_slice(thr)?, side),
        _ => {
            let l: Layout = a.arg(1, "the fragment")?;
            Ok(Value::Layout(c.retile(&l).map_err(|e| e.within(a.name))?))
        }
    }
}

/// `retile(tiled_copy, L)`: CuTe's static member `TiledCopy::retile` of a layout.
pub(super) fn retile(a: &Args) -> Result<Value> {
    let c = copy(&a[0], a.name)?;
    let l: Layout = a.arg(1, "the fragment")?;
    Ok(Value::Layout(c.retile(&l)?))
}

per_operand! {
    partition_a => partition_mma(Operand::A);
    partition_b => partition_mma(Operand::B);
    partition_c => partition_mma(Operand::C);
    partition_s => partition_copy(Side::Source);
    partition_d => partition_copy(Side::Destination);
    partition_fragment_a => partition_fragment(Operand::A);
    partition_fragment_b => partition_fragment(Operand::B);
    partition_fragment_c => partition_fragment(Operand::C);
    retile_s => retile_slice(Side::Source);
    retile_d => retile_slice(Side::Destination);
}

/// `UMMA::tile_to_mma_shape(atom, mma_tile_shape[, order])`: CuTe's tiling of
/// an (M,N)-logical layout atom (a shared-memory atom) to a partitioned MMA
/// shape `((MMA_M,MMA_N),M_MMAs,N_MMAs,...)`: `tile_to_shape(atom, ((MMA_M,
/// M_MMAs),(MMA_N,N_MMAs),...), order)` then `tiled_divide` by `(MMA_M,MMA_N)`.
pub(super) fn tile_to_mma_shape(a: &Args) -> Result<Value> {
    let s: IntTuple = a.arg(1, "the MMA tile shape")?;
    let s0 = s.get(0)?;
    if s.rank() < 3 || s0.rank() != 2 {
        return Err(Error::mismatch(
            a.name,
            format!("the MMA tile shape must be ((MMA_M,MMA_N),M_MMAs,N_MMAs,...), got {s}"),
        ));
    }
    let (m, n) = (s0.get(0)?, s0.get(1)?);
    let (mm, nn) = (s.get(1)?, s.get(2)?);
    let mut modes = vec![IntTuple::tuple([m.as_ref(), mm.as_ref()]), IntTuple::tuple([n.as_ref(), nn.as_ref()])];
    for i in 3..s.rank() {
        modes.push(s.get(i)?);
    }
    let mn_shape = IntTuple::tuple(modes.iter().map(IntTuple::as_ref));
    let mut args = vec![a[0].clone(), Value::IntTuple(mn_shape)];
    if let Some(order) = a.extra(2) {
        args.push(order.clone());
    }
    let tiled = a.call("tile_to_shape", &[], &args).map_err(|e| e.within(a.name))?;
    let tile = crate::int_tuple::product_each(s0.as_ref())?;
    a.call("tiled_divide", &[], &[tiled, Value::IntTuple(tile)]).map_err(|e| e.within(a.name))
}

/// `umma_desc_K<T>(L)` / `umma_desc_MN<T>(L)` / `gmma_desc_K<T>(L)` /
/// `gmma_desc_MN<T>(L)`: the shared-memory descriptor CuTe's
/// `UMMA::make_umma_desc` / `GMMA::make_gmma_desc` makes of a tensor of `T`
/// laid out by `L` (see [`crate::atom::smem::make_umma_desc`]).
fn smem_desc(a: &Args, k_major: bool, gmma: bool) -> Result<Value> {
    let bits = a.targs().first().copied().unwrap_or(0);
    let l = a[0].to_any_layout("the layout").map_err(|e| e.in_op(a.name))?;
    let d = if gmma {
        crate::atom::smem::make_gmma_desc(&l, bits, k_major)
    } else {
        crate::atom::smem::make_umma_desc(&l, bits, k_major)
    };
    Ok(Value::Printed(d.map_err(|e| e.within(a.name))?.to_string()))
}

pub(super) fn umma_desc_k(a: &Args) -> Result<Value> {
    smem_desc(a, true, false)
}

pub(super) fn umma_desc_mn(a: &Args) -> Result<Value> {
    smem_desc(a, false, false)
}

pub(super) fn gmma_desc_k(a: &Args) -> Result<Value> {
    smem_desc(a, true, true)
}

pub(super) fn gmma_desc_mn(a: &Args) -> Result<Value> {
    smem_desc(a, false, true)
}
