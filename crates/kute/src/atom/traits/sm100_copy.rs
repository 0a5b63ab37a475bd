//! The SM100 copy ops (`cute/atom/copy_traits_sm100.hpp`): the 256-bit loads
//! and stores, the SM100 `ldmatrix` / `stmatrix` (8-bit, 4- and 6-bit source
//! unpacking), the tensor-memory loads and stores (`SM100_TMEM_LOAD_*`,
//! `SM100_TMEM_STORE_*`: 16 or 32 data paths, 32 to 256 bits, 1x to 128x,
//! `_16b` packing) and the shared-to-tensor-memory copies (`SM100_UTCCP_*`).
//!
//! CuTe writes every one of them out; their layouts are transcribed into
//! `sm100_copy.tsv` (by `scripts/extract_sm100_copy.py` from the header), one
//! op a line: name, `ThrID`, `ValID` (`-` where the op has none), `SrcLayout`,
//! `DstLayout`, `RefLayout`, in bits.

use super::{lay, CopyTraits, OpName, COPY};
use crate::error::{Error, ErrorKind, Result};

const TABLE: &str = include_str!("sm100_copy.tsv");

/// The table's lines that are ops: `[name, thr, val_id, src, dst, ref]`.
fn rows() -> impl Iterator<Item = Vec<&'static str>> {
    TABLE.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).map(|l| l.split('\t').collect())
}

/// The traits of an SM100 copy op; `Ok(None)` when the name is none of them.
pub(super) fn sm100_copy(op: &OpName) -> Result<Option<CopyTraits>> {
    let Some(row) = rows().find(|r| r.first() == Some(&op.base.as_str())) else { return Ok(None) };
    let [_, thr, val_id, src, dst, r#ref] = row[..] else {
        return Err(Error::new(ErrorKind::Parse, COPY, format!("the table line of '{}' is malformed", op.base)));
    };
    if op.args.is_some() {
        return Err(Error::new(ErrorKind::Mismatch, COPY, format!("'{}' takes no template arguments", op.base)));
    }
    Ok(Some(CopyTraits {
        name: op.full.clone(),
        thr_id: lay(COPY, thr)?,
        src: lay(COPY, src)?,
        dst: lay(COPY, dst)?,
        r#ref: lay(COPY, r#ref)?,
        val_id: if val_id == "-" { None } else { Some(lay(COPY, val_id)?) },
    }))
}

/// The names of the SM100 copy ops, in the header's order.
pub(super) fn sm100_copy_names() -> Vec<String> {
    rows().filter_map(|r| r.first().map(|s| s.to_string())).collect()
}
