//! The SM90 bulk copy (`cp.async.bulk`, CuTe's `SM90_BULK_COPY_AUTO` of
//! `cute/atom/copy_traits_sm90_tma.hpp` and its `copy` of `cute/algorithm/copy.hpp`):
//! a copy of contiguous bytes between global and shared memory, no tensor map.
//!
//! `Copy_Atom<SM90_BULK_COPY_AUTO, T>` has no width of its own (its layouts
//! are `(_1,_1):(_0,_0)`, like `AutoVectorizingCopy`'s); CuTe's `copy` of it
//! finds the largest common vector of the source and destination tensors
//! (`max_common_layout`) and issues one `SM90_BULK_COPY_G2S` (a gmem source) or
//! `SM90_BULK_COPY_S2G` (an smem source) per vector. [`bulk_copy_atom`] is that
//! choice: the atom `copy` builds. CuTe finds the vector at compile time, two
//! modes joining it only where their strides are static; kute answers for
//! static layouts and refuses a layout with a run-time integer, whose vector
//! CuTe's compile-time `coalesce` would cut short.
//!
//! ```
//! use kute::atom::{bulk::{bulk_copy_atom, BulkTensor}, tma::{GmemTensor, SmemTensor}, CopyAtom};
//! let auto = CopyAtom::new("SM90_BULK_COPY_AUTO", "half_t").unwrap();
//! assert_eq!(auto.val_layout_src().to_string(), "(_1,_1):(_0,_0)");
//! let g = GmemTensor::new("half_t", 0, "(_64,_8):(_1,_64)".parse().unwrap()).unwrap();
//! let s = SmemTensor::new("half_t", 4096, &kute::AnyLayout::Layout("(_64,_8):(_1,_64)".parse().unwrap())).unwrap();
//! let a = bulk_copy_atom(&auto, BulkTensor::Gmem(&g), BulkTensor::Smem(&s)).unwrap();
//! // column by column: 64 halves, 1024 bits each
//! assert_eq!(a.traits().name, "SM90_BULK_COPY_G2S<C<1024>>");
//! assert_eq!(a.val_layout_src().to_string(), "(_1,_64):(_0,_1)");
//! ```

use super::copy::CopyAtom;
use super::tma::{GmemTensor, SmemTensor};
use crate::algebra;
use crate::error::{Error, ErrorKind, Result};
use crate::layout::Layout;

/// A tensor a bulk copy reads or writes: in global or in shared memory.
#[derive(Clone, Copy, Debug)]
pub enum BulkTensor<'a> {
    /// A gmem tensor (`make_tensor(make_gmem_ptr<T>(a), L)`).
    Gmem(&'a GmemTensor),
    /// An smem tensor (`make_tensor(make_smem_ptr<T>(a), L)`, its layout under any swizzle).
    Smem(&'a SmemTensor),
}

impl BulkTensor<'_> {
    fn elem(&self) -> &str {
        match self {
            BulkTensor::Gmem(g) => g.elem(),
            BulkTensor::Smem(s) => s.elem(),
        }
    }

    fn bits(&self) -> i64 {
        match self {
            BulkTensor::Gmem(g) => g.bits(),
            BulkTensor::Smem(s) => s.bits(),
        }
    }

    fn layout(&self) -> &Layout {
        match self {
            BulkTensor::Gmem(g) => g.layout(),
            BulkTensor::Smem(s) => s.layout(),
        }
    }
}

/// The atom CuTe's `copy(Copy_Atom<SM90_BULK_COPY_AUTO, T>, src, dst)` issues:
/// `Copy_Atom<Copy_Traits<SM90_BULK_COPY_G2S|S2G, Int<bits>>, T>`, `bits` the
/// width of `max_common_layout(src, dst)`'s vector. As CuTe's `copy` with an
/// atom, a tensor is copied column by column (mode 0 the values of one copy,
/// the other modes the columns; a rank-1 tensor `(A)` is one column), so the
/// vector is that of their modes 0; a tensor whose shape is a bare integer has
/// no mode to peel and CuTe rejects it.
///
/// Pre: `atom` is an `SM90_BULK_COPY_AUTO` atom (else a `Type` error); the
/// tensors hold one element type and have one rank (else a `Mismatch` error), one in gmem and
/// one in smem, their layouts static (else an `Inadmissible` error: kute
/// does not model CuTe's compile-time coalescing of run-time strides), their
/// common vector of at least 128 bits, a multiple of 16 bytes (CuTe's
/// `static_assert`s; else an `Inadmissible` error).
/// Post: an atom of one thread moving the whole vector (`ValLayoutSrc`
/// `(_1,_N):(_0,_1)`, `N` the vector's elements); its traits are named
/// `SM90_BULK_COPY_G2S<C<bits>>` for a gmem source, `SM90_BULK_COPY_S2G<C<bits>>` else.
///
/// ```
/// use kute::atom::{bulk::{bulk_copy_atom, BulkTensor}, tma::{GmemTensor, SmemTensor}, CopyAtom};
/// let auto = CopyAtom::new("SM90_BULK_COPY_AUTO", "float").unwrap();
/// let g = GmemTensor::new("float", 0, "(_8,_8):(_8,_1)".parse().unwrap()).unwrap();
/// let s = SmemTensor::new("float", 0, &kute::AnyLayout::Layout("(_8,_8):(_1,_8)".parse().unwrap())).unwrap();
/// // one float in common in mode 0: 32 bits, too few for a bulk copy
/// let e = bulk_copy_atom(&auto, BulkTensor::Smem(&s), BulkTensor::Gmem(&g)).unwrap_err();
/// assert_eq!(e.kind(), kute::ErrorKind::Inadmissible);
/// ```
pub fn bulk_copy_atom(atom: &CopyAtom, src: BulkTensor, dst: BulkTensor) -> Result<CopyAtom> {
    let name = "copy";
    let op = atom.traits().name.trim_start_matches("cute::");
    if !op.starts_with("SM90_BULK_COPY_AUTO") {
        return Err(Error::new(ErrorKind::Type, name, format!("the atom's op {op} is not SM90_BULK_COPY_AUTO")));
    }
    let elem = atom.val_type();
    if src.elem() != elem || dst.elem() != elem {
        return Err(Error::mismatch(
            name,
            format!(
                "a bulk copy moves one type: the atom's {elem}, the source's {}, the destination's {}",
                src.elem(),
                dst.elem()
            ),
        ));
    }
    let g2s = match (src, dst) {
        (BulkTensor::Gmem(_), BulkTensor::Smem(_)) => true,
        (BulkTensor::Smem(_), BulkTensor::Gmem(_)) => false,
        _ => {
            return Err(Error::inadmissible(
                name,
                "Bulk Copy only supports gmem -> smem or smem -> gmem movement: the source and destination are both in one memory",
            ))
        }
    };
    crate::sym::refuse(name, || src.layout().has_symbols() || dst.layout().has_symbols())?;
    for (what, t) in [("source", src), ("destination", dst)] {
        let l = t.layout();
        if l.leaves().iter().any(|m| !m.shape.is_static() || m.stride.as_int().is_none_or(|d| !d.is_static())) {
            return Err(Error::inadmissible(
                name,
                format!("the {what}'s layout {l} has a run-time integer: kute finds a bulk copy's vector for static layouts only"),
            ));
        }
    }
    // CuTe's copy with an atom copies mode 0 of each column of rank > 1 tensors
    let (sl, dl) = (src.layout(), dst.layout());
    let (sr, dr) = (sl.rank(), dl.rank());
    if sr != dr {
        return Err(Error::mismatch(name, format!("CopyAtom rank-mismatch: the source {sl} and the destination {dl}")));
    }
    // a rank-1 tensor is copied through its one mode: ((A)) -> A, which a bare A has not
    if sl.shape().is_leaf() || dl.shape().is_leaf() {
        return Err(Error::inadmissible(
            name,
            format!("CopyAtom: Src/Dst partitioning does not match the instruction requirement: the source {sl} or the destination {dl} has no mode to peel (write ({sl}) for one vector)"),
        ));
    }
    let (sv, dv) = (sl.mode(0)?, dl.mode(0)?);
    if sv.size()?.value() == 1 {
        return Err(Error::inadmissible(name, format!("the bulk copy of one value ({sv}) has no instruction")));
    }
    let tiler = algebra::max_common_layout(&sv, &dv).map_err(|e| e.within(name))?;
    let vec = tiler.size()?;
    if !vec.is_static() {
        return Err(Error::inadmissible(
            name,
            format!("the common vector {tiler} of the source and destination is not static"),
        ));
    }
    let bits =
        vec.value().checked_mul(src.bits()).ok_or_else(|| Error::inadmissible(name, "the vector's width overflows"))?;
    if bits < 128 {
        return Err(Error::inadmissible(
            name,
            format!(
                "Expected at least 128-bits for BLKCP: the common vector {tiler} of the source and destination is {bits} bits"
            ),
        ));
    }
    let op = format!("{}<C<{bits}>>", if g2s { "SM90_BULK_COPY_G2S" } else { "SM90_BULK_COPY_S2G" });
    CopyAtom::new(&op, elem).map_err(|e| e.within(name))
}
