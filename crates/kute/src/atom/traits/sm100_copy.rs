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

use super::{lay, AtomFamily, AtomKind, CopyTraits, OpName, COPY};
use crate::error::{Error, ErrorKind, Result};

const TABLE: &str = include_str!("sm100_copy.tsv");

/// The table's lines that are ops: `[name, thr, val_id, src, dst, ref]`.
fn rows() -> impl Iterator<Item = Vec<&'static str>> {
    TABLE.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).map(|l| l.split('\t').collect())
}

/// The traits of an SM100 copy op; `Ok(None)` when the name is none of them.
pub(super) fn sm100_copy(op: &OpName) -> Result<Option<CopyTraits>> {
    if let Some(t) = tma_2sm(op)? {
        return Ok(Some(t));
    }
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

/// The catalogue's lines of the SM100 copy ops: the tensor-memory loads and
/// stores by family (`SM100_TMEM_LOAD_16dp256b{N}x[_16b]`), the others one a line.
pub(super) fn sm100_copy_catalog() -> Vec<AtomFamily> {
    let mut v: Vec<AtomFamily> = Vec::new();
    for name in sm100_copy_names() {
        let (form, note) = match name.strip_prefix("SM100_TMEM_") {
            Some(rest) => {
                let (dir, shape) = rest.split_once('_').unwrap_or((rest, ""));
                let cut =
                    shape.trim_end_matches("_16b").trim_end_matches('x').trim_end_matches(|c: char| c.is_ascii_digit());
                let what = if dir == "LOAD" { "tensor memory -> registers" } else { "registers -> tensor memory" };
                (
                    format!("SM100_TMEM_{dir}_{cut}{{N}}x[_16b]"),
                    format!("tcgen05.{}, {what}, a warp", dir.to_lowercase()),
                )
            }
            None => {
                let note = if name.contains("UTCCP") {
                    "tcgen05.cp shared memory -> tensor memory"
                } else if name.contains("LDSM") {
                    "ldmatrix shared -> registers, 32 threads"
                } else if name.contains("STSM") {
                    "stmatrix registers -> shared, 32 threads"
                } else {
                    "one thread, 256 bits, no L1 allocation"
                };
                (name.clone(), note.to_string())
            }
        };
        if !v.iter().any(|f| f.form == form) {
            v.push(AtomFamily { kind: AtomKind::Copy, form, example: name, note });
        }
    }
    v
}

/// The 2-SM TMA loads (`copy_traits_sm100_tma.hpp`), traits parameterized by
/// the bits one TMA moves: `ThrID` `_2:_1` (the CTA pair), source and
/// destination `(_2,N):(N,_1)`.
const TMA_2SM: [&str; 4] =
    ["SM100_TMA_2SM_LOAD", "SM100_TMA_2SM_LOAD_OP", "SM100_TMA_2SM_LOAD_MULTICAST", "SM100_TMA_2SM_LOAD_MULTICAST_OP"];

fn tma_2sm(op: &OpName) -> Result<Option<CopyTraits>> {
    if !TMA_2SM.contains(&op.base.as_str()) {
        return Ok(None);
    }
    let is_op = op.base.ends_with("_OP");
    let args = op.args.as_deref().unwrap_or(&[]);
    let form = if is_op { "<C<NumBitsPerTMA>>" } else { "<C<NumBitsPerTMA>, AuxParams>" };
    let bad = || {
        Error::new(
            ErrorKind::Mismatch,
            COPY,
            format!("'{}': the traits take {form} (Copy_Traits<{}, ...>)", op.full, op.base),
        )
    };
    if args.len() != if is_op { 1 } else { 2 } {
        return Err(bad());
    }
    let n_text = args[0].trim_start_matches("cute::");
    let n = ["C<", "Int<"]
        .iter()
        .find_map(|w| n_text.strip_prefix(w).and_then(|r| r.strip_suffix('>')))
        .and_then(|v| v.parse::<i64>().ok())
        .filter(|&v| v > 0)
        .ok_or_else(bad)?;
    let tv = format!("(_2,_{n}):(_{n},_1)");
    Ok(Some(CopyTraits {
        name: op.full.clone(),
        thr_id: lay(COPY, "_2:_1")?,
        src: lay(COPY, &tv)?,
        dst: lay(COPY, &tv)?,
        r#ref: lay(COPY, &tv)?,
        val_id: None,
    }))
}
