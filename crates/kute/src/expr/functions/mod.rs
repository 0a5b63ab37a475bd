//! The functions callable from expressions, by their CuTe names: one registry
//! that both the evaluator and the help screens read, so that a function
//! cannot be callable without being listed, or listed without being callable.
//!
//! An entry says how the function treats each [`Kind`] of value (CuTe's
//! overloads: `.composed(OnComposed::OfInner)`, `.tensor(OnTensor::OfLayout)`,
//! ...); `dispatch` reads that and nothing else. The implementations live
//! one file per concept and read their arguments by type ([`args`]).

mod algebra;
mod args;
mod atoms;
mod composed_layouts;
mod entry;
mod int_tuple;
mod layout;
mod modes;
mod printing;
mod tensors;
mod tma;

use self::args::{typed, Args};
use crate::error::{Error, ErrorKind, Result};
use crate::expr::value::Value;
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::syntax::TemplateArg;
use crate::tiler::Tiler;
pub(crate) use composed_layouts::apply as apply_composed;
pub use entry::{Count, FunctionInfo, Kind};
use entry::{OnAtom, OnComposed, OnTensor};
pub(crate) use tensors::{apply as apply_tensor, as_tensor};
pub(crate) use tma::im2col_unsupported;

/// The registry entry for `name` (a name or an alias).
///
/// Pre: none. Post: the entry of [`FUNCTIONS`] one of whose
/// [`names`](FunctionInfo::names) is `name`, else `None`.
///
/// ```
/// assert_eq!(kute::expr::lookup("make_stride").unwrap().name, "make_shape");
/// assert!(kute::expr::lookup("frobnicate").is_none());
/// ```
pub fn lookup(name: &str) -> Option<&'static FunctionInfo> {
    FUNCTIONS.iter().find(|f| f.names().any(|n| n == name))
}

/// Call a function by name (or alias) on evaluated arguments.
///
/// An entry with [`type_targs`](FunctionInfo::type_targs) takes its element
/// types as their widths in bits here (`recast_layout<uint8_t,half_t>` is
/// `call("recast_layout", &[8, 16], ...)`).
///
/// Pre: the arguments suit the function (else its own errors, e.g. a `Type`
/// error for a value of the wrong kind).
/// Post: an unknown name is an [`UnknownName`](ErrorKind::UnknownName) error,
/// and a count of (template) arguments the entry does not accept a
/// [`Type`](ErrorKind::Type) error, each naming the function as called.
/// ```
/// use kute::expr::{call, eval};
/// let l = eval("(4,6):(6,1)").unwrap();
/// assert_eq!(call("size", &[], &[l.clone()]).unwrap().to_string(), "24");
/// assert_eq!(call("size", &[], &[]).unwrap_err().to_string(), "evaluate: size takes 1 argument(s), got 0");
/// assert_eq!(call("size", &[], &[]).unwrap_err().kind(), kute::ErrorKind::Type);
/// assert_eq!(call("nosuch", &[], &[l]).unwrap_err().kind(), kute::ErrorKind::UnknownName);
/// ```
pub fn call(name: &str, targs: &[i64], args: &[Value]) -> Result<Value> {
    let f = find_entry(name, targs.len())?;
    invoke(f, name, targs, args)
}

/// [`call`] with the template arguments as written in an expression:
/// integers for most functions, element types for those that take types.
pub(crate) fn call_written(name: &str, targs: &[TemplateArg], args: &[Value]) -> Result<Value> {
    // a gmem pointer keeps its element type's name (TMA's data format depends on it, not only its width)
    if let ("make_gmem_ptr" | "make_smem_ptr", [TemplateArg::Type(t)], [addr]) = (name, targs, args) {
        return tma::ptr(name == "make_smem_ptr", t, addr);
    }
    let f = find_entry(name, targs.len())?;
    let targs = targs.iter().map(|t| template_value(f, name, t)).collect::<Result<Vec<i64>>>()?;
    invoke(f, name, &targs, args)
}

/// The word of `candidates` nearest to `word` by edit distance (at most two
/// edits, or one for words of up to four letters; the first of equals), for a
/// "did you mean" hint.
///
/// Pre: none. Post: a candidate within that distance, or `None` (also for
/// words over 64 bytes).
///
/// ```
/// use kute::expr::nearest;
/// assert_eq!(nearest("tabel", ["eval", "table", "svg"]), Some("table"));
/// assert_eq!(nearest("zzz", ["eval", "table"]), None);
/// ```
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    if word.len() > 64 {
        return None;
    }
    let limit = if word.chars().count() <= 4 { 1 } else { 2 };
    crate::syntax::nearest_within(word, candidates, |n| n, limit)
}

/// The registered function name nearest to `name` (see [`nearest`]).
fn closest_name(name: &str) -> Option<&'static str> {
    nearest(name, FUNCTIONS.iter().flat_map(|f| f.names()))
}

/// The entry of `name`, if it accepts `n_targs` template arguments.
fn find_entry(name: &str, n_targs: usize) -> Result<&'static FunctionInfo> {
    let Some(f) = lookup(name) else {
        let hint = match closest_name(name) {
            Some(n) => format!("; did you mean '{n}'?"),
            None => String::new(),
        };
        return Err(Error::new(ErrorKind::UnknownName, "evaluate", format!("unknown function '{name}'{hint}")));
    };
    if !f.targs.accepts(n_targs) {
        let Count { min, max } = f.targs;
        return Err(Error::new(
            ErrorKind::Type,
            "evaluate",
            format!("{name} takes {min} to {max} template argument(s), got {n_targs}"),
        ));
    }
    Ok(f)
}

/// A written template argument as the integer the implementation takes.
fn template_value(f: &FunctionInfo, name: &str, t: &TemplateArg) -> Result<i64> {
    match (t, f.type_targs) {
        (TemplateArg::Int(v), false) => Ok(*v),
        (TemplateArg::Type(ty), true) => crate::algebra::sizeof_bits(ty).ok_or_else(|| {
            let hint = crate::atom::traits::type_hint(ty);
            Error::new(ErrorKind::UnknownName, "evaluate", format!("unknown element type '{ty}' in {name}<...>{hint}"))
        }),
        (TemplateArg::Int(v), true) => Err(Error::new(
            ErrorKind::Type,
            "evaluate",
            format!("{name} takes element types as template arguments (uint8_t, half_t, ...), not the integer {v}"),
        )),
        (TemplateArg::Type(ty), false) => Err(Error::new(
            ErrorKind::Type,
            "evaluate",
            format!("{name} takes integers as template arguments, not the type {ty}"),
        )),
    }
}

fn invoke(f: &'static FunctionInfo, name: &str, targs: &[i64], args: &[Value]) -> Result<Value> {
    let c = f.arg_count(targs.len());
    args::arity(name, args, c.min, c.max)?;
    if let Some(k) = args.iter().position(|v| matches!(v, Value::Printed(_))) {
        return Err(crate::expr::value::printed_operand(&format!("argument {}", k + 1)).in_op(f.name));
    }
    if !f.symbolic
        && let Some(k) = args.iter().position(Value::has_symbols)
    {
        return Err(Error::new(
            ErrorKind::Undecided,
            f.name,
            format!("takes no symbolic operands yet (argument {} is symbolic: {})", k + 1, args[k]),
        ));
    }
    // the name as called, kept for errors (`Sw`, `make_stride`)
    let name = f.names().find(|n| *n == name).unwrap_or(f.name);
    if f.symbolic && args.iter().any(Value::has_symbols) {
        return super::cases::by_cases(args, &|args| dispatch(f, name, targs, args));
    }
    dispatch(f, name, targs, args)
}

/// The call of the entry `f` (called by the name `name`) on `args`: its
/// implementation for a plain call, else what the entry says of the call's
/// [`Kind`] (a `Type` error where it says nothing).
fn dispatch(f: &'static FunctionInfo, name: &'static str, targs: &[i64], args: &[Value]) -> Result<Value> {
    let again = |vs: &[Value]| dispatch(f, name, targs, vs);
    let o = &f.overloads;
    let imp = match Kind::of_call(args) {
        None => f.imp,
        Some(Kind::ThrSlice) if o.thr_slice => f.imp,
        Some(Kind::Tensor) if !matches!(o.tensor, OnTensor::Undefined) => match o.tensor {
            OnTensor::OfLayout => tensors::of_layout,
            OnTensor::Own(g) => g,
            OnTensor::Native | OnTensor::Undefined => f.imp,
        },
        Some(Kind::Composed) if !matches!(o.composed, OnComposed::Undefined) => match o.composed {
            OnComposed::OfInner => composed_layouts::of_inner,
            OnComposed::Recomposed => composed_layouts::recomposed,
            OnComposed::Own(g) => g,
            OnComposed::Native | OnComposed::Undefined => f.imp,
        },
        Some(Kind::Atom) if !matches!(o.atom, OnAtom::Undefined) => match o.atom {
            OnAtom::Own(g) => g,
            OnAtom::Native | OnAtom::Undefined => f.imp,
        },
        Some(kind) => return Err(undefined(name, kind, args)),
    };
    imp(&Args::new(name, targs, args, &again, call))
}

/// The error of a call with a value of a kind the entry is not defined on.
fn undefined(name: &str, kind: Kind, args: &[Value]) -> Error {
    let what = args.iter().find(|v| Kind::of(v) == Some(kind)).map_or("a value", Value::kind_name);
    Error::new(ErrorKind::Type, "evaluate", format!("{name} is not defined on {what} (CuTe has no such overload)"))
}

const fn n(k: usize) -> Count {
    Count::exactly(k)
}
const fn range(lo: usize, hi: usize) -> Count {
    Count::between(lo, hi)
}
const ANY: Count = Count::ANY;

/// Every function of the expression language: what [`call`] finds, and what
/// help screens list.
#[rustfmt::skip]
pub static FUNCTIONS: &[FunctionInfo] = &[
    FunctionInfo::new("Swizzle", "Swizzle<B,M,S>{} | Sw<B,M,S> | Sw<B,M,S>(x)", "CuTe's xor swizzle: x ^ ((x & (2^B-1) << (M+max(S,0))) >> S)", composed_layouts::swizzle).aliases(&["Sw"]).targs(n(3)).args(range(0, 1)).composed(OnComposed::Native),
    FunctionInfo::new("make_composed_layout", "make_composed_layout(A, offset, B) | A o offset o B", "the function x -> A(offset + B(x)) (CuTe's ComposedLayout)", composed_layouts::make_composed_layout).args(n(3)).composed(OnComposed::Native),
    FunctionInfo::new("get_swizzle_portion", "get_swizzle_portion(C)", "the swizzle of a swizzled layout (Sw<0,4,3> for a plain one)", composed_layouts::get_swizzle_portion).args(n(1)).composed(OnComposed::Native),
    FunctionInfo::new("get_nonswizzle_portion", "get_nonswizzle_portion(C)", "the layout under a swizzle (a plain layout itself)", composed_layouts::get_nonswizzle_portion).args(n(1)).composed(OnComposed::Native),
    FunctionInfo::new("make_tiled_mma", "make_tiled_mma(atom[, atom_layout[, permutation]])", "CuTe's TiledMMA: the atom repeated over atom_layout (M,N,K), each mode permuted", atoms::make_tiled_mma).args(range(1, 3)).atom(OnAtom::Native),
    FunctionInfo::new("make_tiled_copy", "make_tiled_copy(copy_atom, thr_layout, val_layout)", "CuTe's TiledCopy from (m,n) -> thread and (m,n) -> value layouts", atoms::make_tiled_copy).args(n(3)).atom(OnAtom::Native),
    FunctionInfo::new("make_tiled_copy_A", "make_tiled_copy_A(copy_atom, mma)", "a TiledCopy over the MMA's A tile, with its TV layout", atoms::make_tiled_copy_a).args(n(2)).atom(OnAtom::Native),
    FunctionInfo::new("make_tiled_copy_B", "make_tiled_copy_B(copy_atom, mma)", "a TiledCopy over the MMA's B tile, with its TV layout", atoms::make_tiled_copy_b).args(n(2)).atom(OnAtom::Native),
    FunctionInfo::new("make_tiled_copy_C", "make_tiled_copy_C(copy_atom, mma)", "a TiledCopy over the MMA's C tile, with its TV layout", atoms::make_tiled_copy_c).args(n(2)).atom(OnAtom::Native),
    FunctionInfo::new("UMMA::tile_to_mma_shape", "UMMA::tile_to_mma_shape(atom, mma_tile_shape[, order])", "a shared-memory atom tiled to a partitioned MMA shape ((MMA_M,MMA_N),M_MMAs,N_MMAs,...)", atoms::tile_to_mma_shape).args(range(2, 3)).composed(OnComposed::Native),
    FunctionInfo::new("umma_desc_K", "umma_desc_K<T>(L)", "the UMMA shared-memory descriptor of a K-major tile of T laid out by L (CuTe's UMMA::make_umma_desc<UMMA::Major::K>), its legality checked", atoms::umma_desc_k).targs(n(1)).element_type_targs().args(n(1)).composed(OnComposed::Native),
    FunctionInfo::new("umma_desc_MN", "umma_desc_MN<T>(L)", "the UMMA shared-memory descriptor of an MN-major tile of T laid out by L (CuTe's UMMA::make_umma_desc<UMMA::Major::MN>), its legality checked", atoms::umma_desc_mn).targs(n(1)).element_type_targs().args(n(1)).composed(OnComposed::Native),
    FunctionInfo::new("gmma_desc_K", "gmma_desc_K<T>(L)", "the GMMA shared-memory descriptor of a K-major tile of T laid out by L (CuTe's GMMA::make_gmma_desc<GMMA::Major::K>, printed as CuTe prints it), its legality checked", atoms::gmma_desc_k).targs(n(1)).element_type_targs().args(n(1)).composed(OnComposed::Native),
    FunctionInfo::new("gmma_desc_MN", "gmma_desc_MN<T>(L)", "the GMMA shared-memory descriptor of an MN-major tile of T laid out by L (CuTe's GMMA::make_gmma_desc<GMMA::Major::MN>), its legality checked", atoms::gmma_desc_mn).targs(n(1)).element_type_targs().args(n(1)).composed(OnComposed::Native),
    FunctionInfo::new("make_utccp_copy", "make_utccp_copy(op, tmem_tensor)", "the tiled copy of a shared-to-tensor-memory op (SM100_UTCCP_*, tcgen05.cp) over a tensor-memory tensor (SM100)", atoms::make_utccp_copy).args(n(2)).atom(OnAtom::Native).tensor(OnTensor::Native),
    FunctionInfo::new("make_tmem_copy", "make_tmem_copy(op | copy_atom, tmem_tensor)", "the tiled copy of 4 warps moving a tensor-memory tensor with a TMEM load or store op (SM100)", atoms::make_tmem_copy).args(n(2)).atom(OnAtom::Native).tensor(OnTensor::Native),
    FunctionInfo::new("make_gmem_ptr", "make_gmem_ptr<T>(address)", "a global-memory pointer to T at a byte address: make_tensor(make_gmem_ptr<half_t>(0), L) is a gmem tensor (tiled and partitioned as any tensor; the source of a TMA copy)", tma::make_gmem_ptr).targs(n(1)).element_type_targs().args(n(1)),
    FunctionInfo::new("make_smem_ptr", "make_smem_ptr<T>(address)", "a shared-memory pointer to T at a byte address: make_tensor(make_smem_ptr<half_t>(0), L) is an smem tensor (L plain or swizzled)", tma::make_smem_ptr).targs(n(1)).element_type_targs().args(n(1)),
    FunctionInfo::new("tma_partition", "tma_partition(tma_atom[, cta_coord, cta_layout], smem_tensor, tma_tensor)", "CuTe's TMA partitioner: the smem and TMA coordinate tensors (TMATile, Rest...) as ((TMA, TMA_Iter), Rest...), moved to the slice the CTA at cta_coord of the multicast layout loads", tma::tma_partition).args(range(3, 5)).atom(OnAtom::Native).tensor(OnTensor::Native).composed(OnComposed::Native),
    FunctionInfo::new("make_tma_copy", "make_tma_copy(op, gmem_tensor, smem_layout[, cta_tiler], cluster_size)", "CuTe's TMA copy (SM90_TMA_LOAD, _MULTICAST, _STORE, _REDUCE_ADD) of a CTA tile of gmem into or out of smem laid out as smem_layout: one instruction moves the largest box the layouts allow; with four arguments the fourth is the cluster size", tma::make_tma_copy).args(range(3, 5)).atom(OnAtom::Native).composed(OnComposed::Native).tensor(OnTensor::Native),
    FunctionInfo::new("make_im2col_tma_copy", "make_im2col_tma_copy(op, gmem_tensor, smem_layout[, cta_tiler[, multicast_size]][, lower_corner_whd, upper_corner_whd, lower_padding_whd, upper_padding_whd, stride_whd, lower_srt, stride_srt])", "CuTe's im2col TMA copy (SM90_TMA_LOAD_IM2COL, _MULTICAST, SM90_TMA_STORE_IM2COL) of a convolution's activation ((W,H,D,N),C): boxes of channels x output pixels, the pixels' windows moved by the filter offsets; the convolution parameters are tuples over (W,H,D) (none: zero corners, unit strides)", tma::make_im2col_tma_copy).args(range(3, 12)).atom(OnAtom::Native).composed(OnComposed::Native).tensor(OnTensor::Native),
    FunctionInfo::new("make_im2col_tma_copy_A_sm100", "make_im2col_tma_copy_A_sm100(op, gmem_tensor, smem_layout, cluster_tiler_mnk, tiled_mma, lower_corner_whd, upper_corner_whd, lower_padding_whd, upper_padding_whd, stride_whd, lower_srt, stride_srt)", "the im2col TMA copy of a UMMA's A operand (SM100_TMA_2SM_LOAD_IM2COL for a 2-SM MMA)", tma::make_im2col_tma_copy_a_sm100).args(n(12)).atom(OnAtom::Native).composed(OnComposed::Native).tensor(OnTensor::Native),
    FunctionInfo::new("make_im2col_tma_copy_B_sm100", "make_im2col_tma_copy_B_sm100(op, gmem_tensor, smem_layout, cluster_tiler_mnk, tiled_mma, lower_corner_whd, upper_corner_whd, lower_padding_whd, upper_padding_whd, stride_whd, lower_srt, stride_srt)", "the im2col TMA copy of a UMMA's B operand (a wgrad's activation)", tma::make_im2col_tma_copy_b_sm100).args(n(12)).atom(OnAtom::Native).composed(OnComposed::Native).tensor(OnTensor::Native),
    FunctionInfo::new("make_im2col_tma_atom_A_sm100", "make_im2col_tma_atom_A_sm100(op, gmem_tensor, smem_layout, mma_tiler_mnk, tiled_mma, cluster_shape_vmnk, lower_corner_whd, upper_corner_whd, lower_padding_whd, upper_padding_whd, stride_whd, lower_srt, stride_srt)", "the im2col TMA atom of a UMMA's A operand, multicast over the cluster's N CTAs", tma::make_im2col_tma_atom_a_sm100).args(n(13)).atom(OnAtom::Native).composed(OnComposed::Native).tensor(OnTensor::Native),
    FunctionInfo::new("make_im2col_tma_atom_B_sm100", "make_im2col_tma_atom_B_sm100(op, gmem_tensor, smem_layout, mma_tiler_mnk, tiled_mma, cluster_shape_vmnk, lower_corner_whd, upper_corner_whd, lower_padding_whd, upper_padding_whd, stride_whd, lower_srt, stride_srt)", "the im2col TMA atom of a UMMA's B operand, multicast over the cluster's M CTAs", tma::make_im2col_tma_atom_b_sm100).args(n(13)).atom(OnAtom::Native).composed(OnComposed::Native).tensor(OnTensor::Native),
    FunctionInfo::new("make_tma_atom", "make_tma_atom(op, gmem_tensor, smem_layout, cta_tiler[, cluster_size])", "the copy atom of make_tma_copy alone", tma::make_tma_atom).args(range(4, 5)).atom(OnAtom::Native).composed(OnComposed::Native).tensor(OnTensor::Native),
    FunctionInfo::new("make_tma_copy_A_sm90", "make_tma_copy_A_sm90(op, gmem_tensor, smem_layout, cta_tiler_mnk, cluster_shape)", "the TMA copy of an MMA's A tile (M,K of the tile), multicast over the cluster's N CTAs", tma::make_tma_copy_a_sm90).args(n(5)).atom(OnAtom::Native).composed(OnComposed::Native).tensor(OnTensor::Native),
    FunctionInfo::new("make_tma_copy_B_sm90", "make_tma_copy_B_sm90(op, gmem_tensor, smem_layout, cta_tiler_mnk, cluster_shape)", "the TMA copy of an MMA's B tile (N,K of the tile), multicast over the cluster's M CTAs", tma::make_tma_copy_b_sm90).args(n(5)).atom(OnAtom::Native).composed(OnComposed::Native).tensor(OnTensor::Native),
    FunctionInfo::new("make_tma_copy_C_sm90", "make_tma_copy_C_sm90(op, gmem_tensor, smem_layout, cta_tiler_mnk)", "the TMA copy of an MMA's C tile (M,N of the tile)", tma::make_tma_copy_c_sm90).args(n(4)).atom(OnAtom::Native).composed(OnComposed::Native).tensor(OnTensor::Native),
    FunctionInfo::new("make_tma_copy_A_sm100", "make_tma_copy_A_sm100(op, gmem_tensor, smem_layout, cluster_tiler_mnk, tiled_mma)", "the TMA copy of a UMMA's A operand (SM100_TMA_2SM_LOAD for a 2-SM MMA)", tma::make_tma_copy_a_sm100).args(n(5)).atom(OnAtom::Native).composed(OnComposed::Native).tensor(OnTensor::Native),
    FunctionInfo::new("make_tma_copy_B_sm100", "make_tma_copy_B_sm100(op, gmem_tensor, smem_layout, cluster_tiler_mnk, tiled_mma)", "the TMA copy of a UMMA's B operand", tma::make_tma_copy_b_sm100).args(n(5)).atom(OnAtom::Native).composed(OnComposed::Native).tensor(OnTensor::Native),
    FunctionInfo::new("make_tma_atom_A_sm100", "make_tma_atom_A_sm100(op, gmem_tensor, smem_layout, mma_tiler_mnk, tiled_mma, cluster_shape_vmnk)", "the TMA atom of a UMMA's A operand, multicast over the cluster's N CTAs", tma::make_tma_atom_a_sm100).args(n(6)).atom(OnAtom::Native).composed(OnComposed::Native).tensor(OnTensor::Native),
    FunctionInfo::new("make_tma_atom_B_sm100", "make_tma_atom_B_sm100(op, gmem_tensor, smem_layout, mma_tiler_mnk, tiled_mma, cluster_shape_vmnk)", "the TMA atom of a UMMA's B operand, multicast over the cluster's M CTAs", tma::make_tma_atom_b_sm100).args(n(6)).atom(OnAtom::Native).composed(OnComposed::Native).tensor(OnTensor::Native),
    FunctionInfo::new("get_tma_tensor", "get_tma_tensor(tma_copy, gmem_shape)", "the coordinate tensor a TMA copy reads: each gmem coordinate's TMA coordinate (CuTe's member get_tma_tensor)", tma::get_tma_tensor).args(n(2)).atom(OnAtom::Native).tensor(OnTensor::Native),
    FunctionInfo::new("tma_gbasis", "tma_gbasis(tma_copy)", "the TMA box as gmem modes: box mode -> gmem mode (CuTe's AuxParams::TmaGmemBasis)", tma::tma_gbasis).args(n(1)).atom(OnAtom::Native).tensor(OnTensor::Native),
    FunctionInfo::new("bulk_copy_atom", "bulk_copy_atom(Copy_Atom<SM90_BULK_COPY_AUTO,T>{}, src_tensor, dst_tensor)", "the atom CuTe's copy of the SM90 bulk copy issues: SM90_BULK_COPY_G2S or _S2G of the widest common vector of a gmem and an smem tensor", tma::bulk_copy_atom).args(n(3)).atom(OnAtom::Native).tensor(OnTensor::Native),
    FunctionInfo::new("tma_descriptor", "tma_descriptor(tma_copy)", "the arguments CuTe gives the driver's cuTensorMapEncodeTiled for a TMA copy: data type, rank, extents, byte strides, box, swizzle", tma::tma_descriptor).args(n(1)).atom(OnAtom::Native).tensor(OnTensor::Native),
    FunctionInfo::new("make_tiled_copy_C_atom", "make_tiled_copy_C_atom(copy_atom, mma)", "a TiledCopy of C cut to the copy atom's values per thread", atoms::make_tiled_copy_c_atom).args(n(2)).atom(OnAtom::Native),
    FunctionInfo::new("make_tiled_copy_S", "make_tiled_copy_S(copy_atom, tiled_copy)", "a TiledCopy with the other copy's source TV layout", atoms::make_tiled_copy_s).args(n(2)).atom(OnAtom::Native),
    FunctionInfo::new("make_tiled_copy_D", "make_tiled_copy_D(copy_atom, tiled_copy)", "a TiledCopy with the other copy's destination TV layout", atoms::make_tiled_copy_d).args(n(2)).atom(OnAtom::Native),
    FunctionInfo::new("get_layoutA_TV", "get_layoutA_TV(mma)", "(thread, value) -> (m,k) of the TiledMMA's A tile", atoms::get_layout_a_tv).args(n(1)).atom(OnAtom::Native),
    FunctionInfo::new("get_layoutB_TV", "get_layoutB_TV(mma)", "(thread, value) -> (n,k) of the TiledMMA's B tile", atoms::get_layout_b_tv).args(n(1)).atom(OnAtom::Native),
    FunctionInfo::new("get_layoutC_TV", "get_layoutC_TV(mma)", "(thread, value) -> (m,n) of the TiledMMA's C tile", atoms::get_layout_c_tv).args(n(1)).atom(OnAtom::Native),
    FunctionInfo::new("get_thr_layout_vmnk", "get_thr_layout_vmnk(mma)", "(atom thread, M, N, K) -> thread index", atoms::get_thr_layout_vmnk).args(n(1)).atom(OnAtom::Native),
    FunctionInfo::new("thrfrg_A", "thrfrg_A(mma, L)", "L divided into ((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK)))", atoms::thrfrg_a).args(n(2)).atom(OnAtom::Native),
    FunctionInfo::new("thrfrg_B", "thrfrg_B(mma, L)", "L divided into ((ThrV,(ThrN,ThrK)),(FrgV,(RestN,RestK)))", atoms::thrfrg_b).args(n(2)).atom(OnAtom::Native),
    FunctionInfo::new("thrfrg_C", "thrfrg_C(mma, L)", "L divided into ((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN)))", atoms::thrfrg_c).args(n(2)).atom(OnAtom::Native),
    FunctionInfo::new("partition_shape_A", "partition_shape_A(mma, S)", "the shape of one thread's fragment of an A of shape S", atoms::partition_shape_a).args(n(2)).atom(OnAtom::Native),
    FunctionInfo::new("partition_shape_B", "partition_shape_B(mma, S)", "the shape of one thread's fragment of a B of shape S", atoms::partition_shape_b).args(n(2)).atom(OnAtom::Native),
    FunctionInfo::new("partition_shape_C", "partition_shape_C(mma, S)", "the shape of one thread's fragment of a C of shape S", atoms::partition_shape_c).args(n(2)).atom(OnAtom::Native),
    FunctionInfo::new("permutation_mnk", "permutation_mnk<I>(mma)", "the permutation of M, N or K (the atom's extent times its atoms where none was given)", atoms::permutation_mnk).targs(n(1)).args(n(1)).atom(OnAtom::Native),
    FunctionInfo::new("tile_shape", "tile_shape(mma)", "(tile_size<0>, tile_size<1>, tile_size<2>)", atoms::tile_shape).args(n(1)).atom(OnAtom::Native),
    FunctionInfo::new("thr_size", "thr_size(mma)", "the TiledMMA's threads", atoms::thr_size).args(n(1)).atom(OnAtom::Native),
    FunctionInfo::new("tile_size", "tile_size<I>(mma | tiled_copy)", "the tile's extent in mode I", atoms::tile_size).targs(n(1)).args(n(1)).atom(OnAtom::Native),
    FunctionInfo::new("get_layoutS_TV", "get_layoutS_TV(tiled_copy)", "(thread, value) -> source tile coordinate", atoms::get_layout_s_tv).args(n(1)).atom(OnAtom::Native),
    FunctionInfo::new("get_layoutD_TV", "get_layoutD_TV(tiled_copy)", "(thread, value) -> destination tile coordinate", atoms::get_layout_d_tv).args(n(1)).atom(OnAtom::Native),
    FunctionInfo::new("tidfrg_S", "tidfrg_S(tiled_copy, L)", "L divided into (Thr, Val, Rest...) for the source", atoms::tidfrg_s).args(n(2)).atom(OnAtom::Native),
    FunctionInfo::new("tidfrg_D", "tidfrg_D(tiled_copy, L)", "L divided into (Thr, Val, Rest...) for the destination", atoms::tidfrg_d).args(n(2)).atom(OnAtom::Native),
    FunctionInfo::new("Tiler_MN", "Tiler_MN(tiled_copy)", "the tile a TiledCopy covers", atoms::tiler_mn).args(n(1)).atom(OnAtom::Native),
    FunctionInfo::new("TiledLayout_TV", "TiledLayout_TV(tiled_copy)", "the TiledCopy's (thread, value) -> tile layout", atoms::tiled_layout_tv).args(n(1)).atom(OnAtom::Native),
    FunctionInfo::new("get_slice", "get_slice(mma | tiled_copy, t)", "thread t's slice (CuTe's ThrMMA / ThrCopy)", atoms::get_slice).args(n(2)).atom(OnAtom::Native),
    FunctionInfo::new("partition_A", "partition_A(get_slice(mma, t), T)", "thread t's values of an A tensor: (FrgV, RestM, RestK)", atoms::partition_a).args(n(2)).thr_slice(),
    FunctionInfo::new("partition_B", "partition_B(get_slice(mma, t), T)", "thread t's values of a B tensor: (FrgV, RestN, RestK)", atoms::partition_b).args(n(2)).thr_slice(),
    FunctionInfo::new("partition_C", "partition_C(get_slice(mma, t), T)", "thread t's values of a C tensor: (FrgV, RestM, RestN)", atoms::partition_c).args(n(2)).thr_slice(),
    FunctionInfo::new("partition_S", "partition_S(get_slice(copy, t), T)", "thread t's source values: (CopyV, Rest...)", atoms::partition_s).args(n(2)).thr_slice(),
    FunctionInfo::new("partition_D", "partition_D(get_slice(copy, t), T)", "thread t's destination values: (CopyV, Rest...)", atoms::partition_d).args(n(2)).thr_slice(),
    FunctionInfo::new("partition_fragment_A", "partition_fragment_A(get_slice(mma, t), T)", "the layout of thread t's register fragment of A", atoms::partition_fragment_a).args(n(2)).thr_slice(),
    FunctionInfo::new("partition_fragment_B", "partition_fragment_B(get_slice(mma, t), T)", "the layout of thread t's register fragment of B", atoms::partition_fragment_b).args(n(2)).thr_slice(),
    FunctionInfo::new("partition_fragment_C", "partition_fragment_C(get_slice(mma, t), T) | partition_fragment_C(mma, shape)", "the layout of thread t's register fragment of C; of a whole tile: a tcgen05 MMA's accumulator in tensor memory, else the register fragment's compact layout", atoms::partition_fragment_c).args(n(2)).thr_slice().atom(OnAtom::Own(atoms::partition_fragment_c_of_mma)),
    FunctionInfo::new("retile_S", "retile_S(get_slice(copy, t), F)", "a thread's fragment F (a layout or tensor, (V, Rest...)) regrouped into the copy's source values ((AtomV, RestV), Rest...)", atoms::retile_s).args(n(2)).thr_slice(),
    FunctionInfo::new("retile_D", "retile_D(get_slice(copy, t), F)", "a thread's fragment F (a layout or tensor, (V, Rest...)) regrouped into the copy's destination values ((AtomV, RestV), Rest...)", atoms::retile_d).args(n(2)).thr_slice(),
    FunctionInfo::new("retile", "retile(tiled_copy, L)", "TiledCopy::retile of a fragment layout, what retile_S and retile_D do to a tensor's layout", atoms::retile).args(n(2)).atom(OnAtom::Native),
    FunctionInfo::new("make_layout_tv", "make_layout_tv(thr, val)", "(tiler, layout_tv) of make_tiled_copy with these layouts (CuTe DSL)", atoms::layout_tv).args(n(2)),
    FunctionInfo::new("make_identity_layout", "make_identity_layout(S)", "the layout mapping each coordinate of S to itself (basis strides)", typed!(layout::make_identity_layout => (S: IntTuple))).args(n(1)).sym(),
    FunctionInfo::new("make_basis_like", "make_basis_like(S)", "the basis stride E<path> of every leaf of S", typed!(layout::make_basis_like => (S: IntTuple))).args(n(1)),
    FunctionInfo::new("E", "E<I...>{}", "the basis element of mode I... (CuTe's ScaledBasis), printed _1@...", layout::basis_e).targs(ANY).args(n(0)),
    FunctionInfo::new("make_layout", "make_layout(S) | (S, D) | (S, LayoutLeft{}|LayoutRight{}) | (L0, L1, ...)", "a layout from a shape (and stride or order), or the concatenation of layouts", layout::make_layout).args(range(1, 64)).sym().composed(OnComposed::Own(composed_layouts::make_layout)),
    FunctionInfo::new("make_layout_like", "make_layout_like(L)", "compact strides in the order of L's (stride-0 modes kept)", typed!(algebra::make_layout_like => (L: Layout))).args(n(1)),
    FunctionInfo::new("make_fragment_like", "make_fragment_like(L)", "the register layout of a fragment shaped like L", typed!(algebra::make_fragment_like => (L: Layout))).args(n(1)).composed(OnComposed::Own(composed_layouts::make_fragment_like)),
    FunctionInfo::new("make_ordered_layout", "make_ordered_layout(S, order)", "compact strides with modes ordered by `order`", layout::make_ordered_layout).args(n(2)),
    FunctionInfo::new("make_shape", "make_shape(a, b, ...)", "a tuple", layout::make_tuple).aliases(&[ "make_stride", "make_coord", "make_tuple", "make_step", ]).atom(OnAtom::Native).thr_slice(),
    FunctionInfo::new("make_tile", "make_tile(T0, T1, ...)", "a by-mode tiler, same as <T0,T1,...>", layout::make_tile),
    FunctionInfo::new("shape", "shape(L) | shape<I...>(L)", "the shape (of a mode)", modes::shape).targs(ANY).args(n(1)).sym().composed(OnComposed::OfInner).tensor(OnTensor::OfLayout),
    FunctionInfo::new("stride", "stride(L) | stride<I...>(L)", "the stride (of a mode)", modes::stride).targs(ANY).args(n(1)).sym().composed(OnComposed::Own(composed_layouts::stride)).tensor(OnTensor::OfLayout),
    FunctionInfo::new("size", "size(X) | size<I...>(X)", "product of the shape (of a mode)", modes::size).targs(ANY).args(n(1)).sym().composed(OnComposed::OfInner).tensor(OnTensor::OfLayout).atom(OnAtom::Own(atoms::size)),
    FunctionInfo::new("cosize", "cosize(L) | cosize<I...>(L)", "1 + sum (s-1)*|d| over the leaves", modes::cosize).targs(ANY).args(n(1)).sym().composed(OnComposed::OfInner).tensor(OnTensor::OfLayout),
    FunctionInfo::new("coshape", "coshape(L)", "one past L's largest value in each direction of its codomain", typed!(Layout::coshape => (L: Layout))).args(n(1)),
    FunctionInfo::new("coprofile", "coprofile(L)", "the structure of L's codomain (coshape with _0 leaves)", typed!(Layout::coprofile => (L: Layout))).args(n(1)),
    FunctionInfo::new("rank", "rank(X) | rank<I...>(X)", "number of top-level modes", modes::rank).targs(ANY).args(n(1)).sym().composed(OnComposed::OfInner).tensor(OnTensor::OfLayout),
    FunctionInfo::new("depth", "depth(X) | depth<I...>(X)", "nesting depth", modes::depth).targs(ANY).args(n(1)).sym().composed(OnComposed::OfInner).tensor(OnTensor::OfLayout),
    FunctionInfo::new("get", "get<I...>(X)", "a (nested) mode of a tuple or layout", modes::get).targs(ANY).args(n(1)).sym().composed(OnComposed::Recomposed),
    FunctionInfo::new("layout", "layout<I...>(L)", "a (nested) mode of a layout", modes::layout).targs(ANY).args(n(1)).composed(OnComposed::Recomposed).tensor(OnTensor::OfLayout),
    FunctionInfo::new("select", "select<I...>(X)", "the chosen modes, as a tuple", modes::select).targs(ANY).args(n(1)).sym(),
    // <B,E> is checked by the implementation, after the operand (as before the registry)
    FunctionInfo::new("take", "take<B,E>(X)", "modes [B,E) as a tuple", modes::take).targs(ANY).args(n(1)).sym().composed(OnComposed::Recomposed),
    FunctionInfo::new("append", "append(X, Y) | append<N>(X[, Y])", "add Y as the last mode / pad to rank N", modes::append).targs(range(0, 1)).args(range(1, 2)).args_without_targs(n(2)).composed(OnComposed::Recomposed),
    FunctionInfo::new("prepend", "prepend(X, Y) | prepend<N>(X[, Y])", "add Y as the first mode / pad to rank N", modes::prepend).targs(range(0, 1)).args(range(1, 2)).args_without_targs(n(2)),
    FunctionInfo::new("replace", "replace<N>(X, Y)", "replace mode N by Y", modes::replace).targs(n(1)).args(n(2)),
    FunctionInfo::new("group", "group<B,E>(X)", "group modes [B,E) into one", modes::group).targs(ANY).args(n(1)).composed(OnComposed::Recomposed),
    FunctionInfo::new("flatten", "flatten(X)", "all leaves as top-level modes", modes::flatten).args(n(1)).sym().composed(OnComposed::Recomposed),
    FunctionInfo::new("unflatten", "unflatten(X, profile)", "refold a flat X into the profile's structure", modes::unflatten).args(n(2)),
    FunctionInfo::new("zip", "zip(L) | zip(A, B)", "transpose nested modes", modes::zip).args(range(1, 2)).composed(OnComposed::Recomposed),
    FunctionInfo::new("front", "front(X)", "the first leaf (a layout is its own front)", modes::front).args(n(1)),
    FunctionInfo::new("back", "back(X)", "the last leaf (a layout is its own back)", modes::back).args(n(1)),
    FunctionInfo::new("unwrap", "unwrap(X)", "a tuple of one element is that element, repeatedly", modes::unwrap).args(n(1)),
    FunctionInfo::new("wrap", "wrap(X)", "an integer as a tuple of one element; a tuple as it is", modes::wrap).args(n(1)),
    FunctionInfo::new("tuple_cat", "tuple_cat(T0, T1, ...)", "the elements of the tuples, in order", modes::tuple_cat).args(range(1, 64)),
    FunctionInfo::new("insert", "insert<N>(T, X)", "X as the new mode N of the tuple T", modes::insert).targs(n(1)).args(n(2)),
    FunctionInfo::new("remove", "remove<N>(T)", "the tuple T without its mode N", modes::remove).targs(n(1)).args(n(1)),
    FunctionInfo::new("repeat_like", "repeat_like(T, X)", "T's structure with X at every leaf", modes::repeat_like).args(n(2)),
    FunctionInfo::new("repeat", "repeat<N>(X)", "a tuple of N copies of X (X itself for N = 1)", modes::repeat).targs(n(1)).args(n(1)),
    FunctionInfo::new("zip2_by", "zip2_by(T, guide)", "gather the rank-2 modes at the guide's terminals into ((firsts),(seconds))", typed!(algebra::zip2_by => (T: IntTuple, guide: Tiler))).args(n(2)),
    FunctionInfo::new("tile_unzip", "tile_unzip(L, tiler)", "gather (tile, rest) modes into ((tiles),(rests))", typed!(algebra::tile_unzip => (L: Layout, tiler: Tiler))).args(n(2)).composed(OnComposed::Recomposed),
    FunctionInfo::new("product", "product(T)", "product of all leaves", typed!(int_tuple::product => (T: IntTuple))).args(n(1)),
    FunctionInfo::new("product_each", "product_each(T)", "size of each mode", typed!(int_tuple::product_each => (T: IntTuple))).args(n(1)).sym(),
    FunctionInfo::new("inner_product", "inner_product(A, B)", "sum of products of leaves", int_tuple::inner_product).args(n(2)),
    FunctionInfo::new("congruent", "congruent(A, B)", "same tuple structure", int_tuple::congruent).args(n(2)),
    FunctionInfo::new("elem_less", "elem_less(A, B)", "every element of A below B's at its position", int_tuple::elem_less).args(n(2)),
    FunctionInfo::new("lex_less", "lex_less(A, B)", "lexicographic order, first mode first", int_tuple::lex_less).args(n(2)),
    FunctionInfo::new("colex_less", "colex_less(A, B)", "colexicographic order, last mode first", int_tuple::colex_less).args(n(2)),
    FunctionInfo::new("domain_distribute", "domain_distribute(S, n)", "n elements spread over the modes of S, first to last (gcd by gcd)", typed!(int_tuple::domain_distribute => (S: IntTuple, n: IntTuple))).args(n(2)),
    FunctionInfo::new("evenly_divides", "evenly_divides(S, T)", "the tiler T tiles the shape S with no partial tile", typed!(algebra::evenly_divides => (S: IntTuple, T: Tiler))).args(n(2)),
    FunctionInfo::new("weakly_congruent", "weakly_congruent(A, B)", "A's structure is a coarsening of B's", int_tuple::weakly_congruent).args(n(2)),
    FunctionInfo::new("compatible", "compatible(A, B)", "A's integers are the sizes of B's modes", int_tuple::compatible).args(n(2)),
    FunctionInfo::new("weakly_compatible", "weakly_compatible(A, B)", "A's integers divide the sizes of B's modes", int_tuple::weakly_compatible).args(n(2)),
    FunctionInfo::new("shape_div", "shape_div(A, B)", "A divided by B where one divides the other", int_tuple::shape_div).args(n(2)).sym(),
    FunctionInfo::new("min", "min(a, b)", "the smaller integer (of an unknown M and an integer c the facts do not order: min(M,c))", int_tuple::min).args(n(2)).sym(),
    FunctionInfo::new("ceil_div", "ceil_div(A, B)", "rounded-up division (by a layout: the rest shape of a divide)", int_tuple::ceil_div).args(n(2)).sym(),
    FunctionInfo::new("elem_scale", "elem_scale(A, B)", "A's leaves times the sizes of B's modes", int_tuple::elem_scale).args(n(2)),
    FunctionInfo::new("prefix_product", "prefix_product(T)", "exclusive prefix products, congruent to T", typed!(int_tuple::prefix_product => (T: IntTuple))).args(n(1)).sym(),
    FunctionInfo::new("idx2crd", "idx2crd(i, S[, D])", "the natural coordinate of index i (under strides D)", int_tuple::idx2crd).args(range(2, 3)).sym(),
    FunctionInfo::new("get_hier_coord", "get_hier_coord(L, i)", "L.get_hier_coord(i): the natural coordinate of index i, idx2crd(i, shape, stride)", typed!(layout::get_hier_coord => (L: Layout, i: Int))).args(n(2)),
    FunctionInfo::new("get_flat_coord", "get_flat_coord(L, i)", "L.get_flat_coord(i): the 1-D coordinate in each mode of index i", typed!(layout::get_flat_coord => (L: Layout, i: Int))).args(n(2)),
    FunctionInfo::new("get_1d_coord", "get_1d_coord(L, i)", "L.get_1d_coord(i): the colexicographic 1-D coordinate of index i", typed!(layout::get_1d_coord => (L: Layout, i: Int))).args(n(2)),
    FunctionInfo::new("increment", "increment(c, S)", "the next coordinate of c in S, colexicographically", typed!(int_tuple::increment => (c: IntTuple, S: IntTuple))).args(n(2)),
    FunctionInfo::new("crd2idx", "crd2idx(c, S[, D])", "the index of coordinate c", int_tuple::crd2idx).args(range(2, 3)).sym(),
    FunctionInfo::new("crd2crd", "crd2crd(c, S1, S2)", "a coordinate of S1 as a coordinate of S2", typed!(int_tuple::crd2crd => (c: IntTuple, S1: IntTuple, S2: IntTuple))).args(n(3)),
    FunctionInfo::new("compact_col_major", "compact_col_major(S[, start])", "column-major strides", int_tuple::compact_col_major).aliases(&["compact_major"]).args(range(1, 2)),
    FunctionInfo::new("compact_row_major", "compact_row_major(S[, start])", "row-major strides", int_tuple::compact_row_major).args(range(1, 2)),
    FunctionInfo::new("compact_order", "compact_order(S, order)", "compact strides in the given mode order", int_tuple::compact_order).args(n(2)),
    FunctionInfo::new("coalesce", "coalesce(L[, profile]) | coalesce(S)", "fewest modes with the same function", algebra::coalesce).args(range(1, 2)).sym().composed(OnComposed::Recomposed),
    FunctionInfo::new("filter_zeros", "filter_zeros(L[, profile])", "stride-0 modes get extent 1", algebra::filter_zeros).args(range(1, 2)).sym(),
    FunctionInfo::new("filter", "filter(L[, profile])", "coalesce without stride-0 and size-1 modes", algebra::filter).args(range(1, 2)).sym().composed(OnComposed::Own(composed_layouts::filter)),
    FunctionInfo::new("bw_coalesce", "bw_coalesce<I>(S, D, NS, ND)", "fold flat modes I..0 of S:D into the front of NS:ND (CuTe's detail::bw_coalesce, coalesce's step)", algebra::bw_coalesce).targs(n(1)).args(n(4)),
    FunctionInfo::new("coalesce_z", "coalesce_z(L[, profile])", "coalesce keeping the function past the size: a last size-1 mode stays (PyCuTe; '_' in the profile keeps a mode)", algebra::coalesce_z).args(range(1, 2)),
    FunctionInfo::new("common_refinement", "common_refinement(A, B)", "the least shape refining both shapes (PyCuTe)", typed!(algebra::common_refinement => (A: IntTuple, B: IntTuple))).args(n(2)),
    FunctionInfo::new("common_coarsening", "common_coarsening(A, B)", "the greatest shape both shapes refine (PyCuTe)", typed!(algebra::common_coarsening => (A: IntTuple, B: IntTuple))).args(n(2)),
    FunctionInfo::new("greatest_common_domain", "greatest_common_domain(A, B)", "the ordered common factorization of two shapes (PyCuTe)", typed!(algebra::greatest_common_domain => (A: IntTuple, B: IntTuple))).args(n(2)),
    FunctionInfo::new("layout_add", "layout_add(A, B)", "R(i) = A(i) + B(i) (PyCuTe)", typed!(algebra::layout_add => (A: Layout, B: Layout))).args(n(2)),
    FunctionInfo::new("composition", "composition(A, B)", "R(c) = A(B(c)); B a layout, a shape or a tiler <...>", algebra::composition).args(n(2)).sym().composed(OnComposed::Own(composed_layouts::composition)),
    FunctionInfo::new("complement", "complement(A[, M])", "the layout filling A's gaps up to M", algebra::complement).args(range(1, 2)).sym().composed(OnComposed::OfInner),
    FunctionInfo::new("right_inverse", "right_inverse(L)", "R with L(R(i)) = i", algebra::right_inverse).args(n(1)).sym().composed(OnComposed::Own(composed_layouts::right_inverse)),
    FunctionInfo::new("left_inverse", "left_inverse(L)", "R with R(L(i)) = i", algebra::left_inverse).args(n(1)).sym().composed(OnComposed::Own(composed_layouts::left_inverse)),
    FunctionInfo::new("logical_divide", "logical_divide(A, T)", "A o (T, complement(T)): (tile, rest)", typed!(algebra::logical_divide => (A: Layout, T: Tiler))).args(n(2)).sym().composed(OnComposed::Recomposed).tensor(OnTensor::Own(tensors::logical_divide)),
    FunctionInfo::new("zipped_divide", "zipped_divide(A, T)", "((tiles),(rests))", typed!(algebra::zipped_divide => (A: Layout, T: Tiler))).args(n(2)).sym().composed(OnComposed::Recomposed).tensor(OnTensor::Own(tensors::zipped_divide)),
    FunctionInfo::new("tiled_divide", "tiled_divide(A, T)", "((tiles),rest0,rest1,...)", typed!(algebra::tiled_divide => (A: Layout, T: Tiler))).args(n(2)).sym().composed(OnComposed::Recomposed).tensor(OnTensor::Own(tensors::tiled_divide)),
    FunctionInfo::new("flat_divide", "flat_divide(A, T)", "(tile0,...,rest0,...)", typed!(algebra::flat_divide => (A: Layout, T: Tiler))).args(n(2)).sym().composed(OnComposed::Recomposed).tensor(OnTensor::Own(tensors::flat_divide)),
    FunctionInfo::new("logical_product", "logical_product(A, B)", "(A, complement(A) o B)", typed!(algebra::logical_product => (A: Layout, B: Tiler))).args(n(2)).sym().composed(OnComposed::Own(composed_layouts::logical_product)),
    FunctionInfo::new("zipped_product", "zipped_product(A, B)", "((blocks),(products))", typed!(algebra::zipped_product => (A: Layout, B: Tiler))).args(n(2)).sym().composed(OnComposed::Recomposed),
    FunctionInfo::new("tiled_product", "tiled_product(A, B)", "((blocks),p0,p1,...)", typed!(algebra::tiled_product => (A: Layout, B: Tiler))).args(n(2)).sym().composed(OnComposed::Recomposed),
    FunctionInfo::new("flat_product", "flat_product(A, B)", "(b0,...,p0,...)", typed!(algebra::flat_product => (A: Layout, B: Tiler))).args(n(2)).sym().composed(OnComposed::Recomposed),
    FunctionInfo::new("blocked_product", "blocked_product(A, B)", "B repeats block A, mode by mode", typed!(algebra::blocked_product => (A: Layout, B: Layout))).args(n(2)).sym().composed(OnComposed::Recomposed),
    FunctionInfo::new("raked_product", "raked_product(A, B)", "B interleaves copies of A, mode by mode", typed!(algebra::raked_product => (A: Layout, B: Layout))).args(n(2)).sym().composed(OnComposed::Recomposed),
    FunctionInfo::new("tile_to_shape", "tile_to_shape(A, S[, order])", "repeat A until it has shape S", algebra::tile_to_shape).args(range(2, 3)).composed(OnComposed::Recomposed),
    FunctionInfo::new("max_common_layout", "max_common_layout(A, B)", "largest R with A(R(i)) = i = B(R(i))", typed!(algebra::max_common_layout => (A: Layout, B: Layout))).args(n(2)).sym().composed(OnComposed::Own(composed_layouts::max_common_layout)),
    FunctionInfo::new("max_alignment", "max_alignment(L)", "the alignment (in elements) L's static parts guarantee", typed!(algebra::max_alignment => (L: Layout))).args(n(1)).composed(OnComposed::Own(composed_layouts::max_alignment)),
    FunctionInfo::new("max_common_vector", "max_common_vector(A, B)", "number of common contiguous elements", typed!(algebra::max_common_vector => (A: Layout, B: Layout))).args(n(2)).sym().composed(OnComposed::Own(composed_layouts::max_common_vector)),
    FunctionInfo::new("nullspace", "nullspace(L)", "the coordinates L maps to 0 (stride-0 modes)", algebra::nullspace).args(n(1)).composed(OnComposed::Own(composed_layouts::nullspace)),
    FunctionInfo::new("upcast", "upcast<N>(L)", "reinterpret for N-times wider elements", algebra::upcast).targs(n(1)).args(n(1)).sym().composed(OnComposed::Own(composed_layouts::upcast)),
    FunctionInfo::new("downcast", "downcast<N>(L)", "reinterpret for N-times narrower elements", algebra::downcast).targs(n(1)).args(n(1)).sym().composed(OnComposed::Own(composed_layouts::downcast)),
    FunctionInfo::new("recast_layout", "recast_layout<Old,New>(L)", "reinterpret elements of type Old as elements of type New (upcast/downcast by their widths)", algebra::recast_layout).targs(n(2)).element_type_targs().args(n(1)).sym().composed(OnComposed::Own(composed_layouts::recast_layout)),
    FunctionInfo::new("transform_layout", "transform_layout(L, f) | transform_layout(L0, L1, f)", "make_layout(f(mode i)...), f a function name; with two operands f takes pairs, leftover modes kept", algebra::transform_layout).args(range(2, 3)),
    FunctionInfo::new("slice", "slice(c, X)", "the modes of a layout or tuple X where c has '_' (also L(c))", algebra::slice).args(n(2)).composed(OnComposed::Own(composed_layouts::slice)),
    FunctionInfo::new("dice", "dice(c, X)", "the modes of a layout or tuple X where c has an integer", algebra::dice).args(n(2)),
    FunctionInfo::new("domain_offset", "domain_offset(c, L)", "the pair (L, L(c))", algebra::domain_offset).args(n(2)).composed(OnComposed::Own(composed_layouts::domain_offset)),
    FunctionInfo::new("slice_and_offset", "slice_and_offset(c, L)", "(slice, index of c with '_' as 0)", algebra::slice_and_offset).args(n(2)).composed(OnComposed::Own(composed_layouts::slice_and_offset)),
    // tensors (tensors.rs)
    FunctionInfo::new("make_tensor", "make_tensor(counting, L) | make_tensor(make_gmem_ptr<T>(a), L) | make_tensor(make_smem_ptr<T>(a), L) | make_tensor(make_tmem_ptr<T>(0), L)", "the tensor of L over a counting engine: the element at c is L(c) (CuTe's counting_iterator); or over a pointer into global, shared or tensor memory (L with unknowns for global memory)", tensors::make_tensor).args(n(2)).sym().composed(OnComposed::Native),
    FunctionInfo::new("make_tmem_ptr", "make_tmem_ptr<T>(0)", "a tensor-memory pointer to T at address 0: make_tensor(make_tmem_ptr<float>(0), L) is a TMEM tensor (SM100)", tensors::make_tmem_ptr).targs(n(1)).element_type_targs().args(n(1)),
    FunctionInfo::new("counting", "counting", "the counting engine, an argument of make_tensor", tensors::counting).args(n(0)),
    FunctionInfo::new("make_identity_tensor", "make_identity_tensor(S)", "the coordinate tensor of S: the element at c is c", tensors::make_identity_tensor).args(n(1)).sym(),
    FunctionInfo::new("local_tile", "local_tile(T, tiler, coord[, proj])", "the tile of T at coord (zipped_divide, then slice the rest mode); proj (Step<_1,X,_1>{}) leaves out the modes marked X", tensors::local_tile).args(range(3, 4)).sym().tensor(OnTensor::Native),
    FunctionInfo::new("local_partition", "local_partition(T, thr_layout, thr_idx)", "thread thr_idx's elements of T, one per tile of thr_layout's shape", tensors::local_partition).args(n(3)).sym().tensor(OnTensor::Native),
    FunctionInfo::new("inner_partition", "inner_partition(T, tiler, coord)", "zipped_divide(T, tiler) sliced at coord in the rest mode", tensors::inner_partition).args(n(3)).tensor(OnTensor::Native),
    FunctionInfo::new("outer_partition", "outer_partition(T, tiler, coord)", "zipped_divide(T, tiler) sliced at coord in the tile mode", tensors::outer_partition).args(n(3)).tensor(OnTensor::Native),
    // printing (printing.rs): a call's value is the text it prints
    FunctionInfo::new("print", "print(X)", "CuTe's print of any value: the text kute shows for it (the call's value is that text)", printing::print).args(n(1)).composed(OnComposed::Native).tensor(OnTensor::Native).atom(OnAtom::Native).thr_slice(),
    FunctionInfo::new("print_layout", "print_layout(L)", "CuTe's print_layout: the layout (or composed layout) and its values as a table (kute table)", printing::print_layout).args(n(1)).composed(OnComposed::Native),
    FunctionInfo::new("print_latex", "print_latex(X)", "CuTe's print_latex: a TikZ picture of a layout, composed layout, MMA atom, TiledMMA or TiledCopy (kute latex)", printing::print_latex).args(n(1)).composed(OnComposed::Native).atom(OnAtom::Native),
    FunctionInfo::new("print_tensor", "print_tensor(T)", "CuTe's print_tensor: the tensor and its elements as a table", printing::print_tensor).args(n(1)).tensor(OnTensor::Native),
];
