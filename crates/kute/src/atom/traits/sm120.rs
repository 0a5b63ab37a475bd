//! The SM120 warp-level MMA ops (`cute/arch/mma_sm120.hpp`,
//! `mma_sm120_sparse.hpp`, `cute/atom/mma_traits_sm120.hpp`,
//! `mma_traits_sm120_sparse.hpp`): fp8/fp6/fp4 `mma.sync`, dense and sparse,
//! plain and block-scaled, as one registry table.

use super::{lay, parse_tuple, strip_ns, AtomFamily, AtomKind, MmaTraits, OpName, MMA};
use crate::error::{Error, ErrorKind, Result};

/// The element types CuTe defines the fp8/fp6/fp4 ops for (A and B).
const F8F6F4: [&str; 5] = ["float_e2m1_t", "float_e3m2_t", "float_e2m3_t", "float_e4m3_t", "float_e5m2_t"];
const FP4: [&str; 1] = ["float_e2m1_t"];

/// CuTe's `SM120_16x8_Row`: the C layout of every SM120 op.
const ROW: &str = "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))";

/// One SM120 op: its name (with its namespaces), its tile, its layouts and
/// the types CuTe specializes it for.
struct Sm120 {
    name: &'static str,
    mnk: &'static str,
    a: &'static str,
    b: &'static str,
    /// `SFALayout`, `SFBLayout` of the block-scaled ops.
    sf: Option<(&'static str, &'static str)>,
    ab_types: &'static [&'static str],
    c_types: &'static [&'static str],
    /// The scale-factor types (block-scaled ops: template arguments `<a, b, c, sf, VS>`).
    sf_types: &'static [&'static str],
    /// `ELayout` of the sparse ops: (thread, value) → metadata index in the M×K tile.
    e: Option<&'static str>,
}

const A_16X8X32: &str = "((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))";
const B_16X8X32: &str = "((_4,_8),(_4,_2)):((_32,_1),(_8,_128))";
const A_16X8X64: &str = "((_4,_8),(_8,_2,_2)):((_128,_1),(_16,_8,_512))";
const SF_32: (&str, &str) = ("((_2,_2,_8),_32):((_8,_0,_1),_16)", "((_4,_8),_32):((_0,_1),_8)");
const SF_64: (&str, &str) = ("((_2,_2,_8),_64):((_8,_0,_1),_16)", "((_4,_8),_64):((_0,_1),_8)");
const SF_128: (&str, &str) = ("((_2,_2,_8),_128):((_8,_0,_1),_16)", "((_4,_8),_128):((_0,_1),_8)");
const E_64: &str = "((_2,_2,_8),_32):((_8,_512,_1),_16)";
const E_128: &str = "((_2,_2,_8),(_64)):((_8,_1024,_1),(_16))";
const UE8M0: &[&str] = &["float_ue8m0_t"];
const UE: &[&str] = &["float_ue4m3_t", "float_ue8m0_t"];

#[rustfmt::skip]
const SM120: &[Sm120] = &[
    Sm120 { name: "SM120_16x8x32_TN", mnk: "(_16,_8,_32)", a: A_16X8X32, b: B_16X8X32, sf: None,
            ab_types: &F8F6F4, c_types: &["float", "half_t"], sf_types: &[], e: None },
    Sm120 { name: "SM120::BLOCKSCALED::SM120_16x8x32_TN_VS", mnk: "(_16,_8,_32)", a: A_16X8X32, b: B_16X8X32,
            sf: Some(SF_32), ab_types: &F8F6F4, c_types: &["float"], sf_types: UE8M0, e: None },
    Sm120 { name: "SM120::BLOCKSCALED::SM120_16x8x64_TN_VS", mnk: "(_16,_8,_64)", a: A_16X8X64,
            b: "((_4,_8),(_8,_2)):((_64,_1),(_8,_256))", sf: Some(SF_64), ab_types: &FP4, c_types: &["float"],
            sf_types: UE, e: None },
    Sm120 { name: "SM120::SPARSE::SM120_SPARSE_16x8x64_TN", mnk: "(_16,_8,_64)", a: A_16X8X64,
            b: "((_4,_8),(_4,_4)):((_32,_1),(_8,_128))", sf: None, ab_types: &F8F6F4,
            c_types: &["float", "half_t"], sf_types: &[], e: Some(E_64) },
    Sm120 { name: "SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x64_TN_VS", mnk: "(_16,_8,_64)", a: A_16X8X64,
            b: "((_4,_8),(_4,_4)):((_32,_1),(_8,_128))", sf: Some(SF_64), ab_types: &F8F6F4, c_types: &["float"],
            sf_types: UE8M0, e: Some(E_64) },
    Sm120 { name: "SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x128_TN_VS", mnk: "(_16,_8,_128)",
            a: "((_4,_8),(_16,_2,_2)):((_256,_1),(_16,_8,_1024))", b: "((_4,_8),(_8,_4)):((_64,_1),(_8,_256))",
            sf: Some(SF_128), ab_types: &FP4, c_types: &["float"], sf_types: UE, e: Some(E_128) },
];

/// The traits of an SM120 op (`SM120_16x8x32_TN<a,b,c>`,
/// `SM120::BLOCKSCALED::..._VS<a,b,c,sf,VS>`, `SM120::SPARSE::...`); `Ok(None)`
/// when the name is none of them.
pub(super) fn sm120(op: &OpName) -> Result<Option<MmaTraits>> {
    let Some(s) = SM120.iter().find(|s| s.name == op.base) else { return Ok(None) };
    let full = &op.full;
    let args: Vec<&str> = op.args.as_deref().unwrap_or(&[]).iter().map(|a| strip_ns(a)).collect();
    let scaled = s.sf.is_some();
    let form = if scaled { "<a_type, b_type, c_type, sf_type, VS>" } else { "<a_type, b_type, c_type>" };
    if args.len() != if scaled { 5 } else { 3 } {
        return Err(Error::new(ErrorKind::Mismatch, MMA, format!("'{full}': takes {form}")));
    }
    let no_match = || {
        let mut why = format!(
            "no MMA matches {} for these data types (A, B: {}; C: {}",
            s.name,
            s.ab_types.join(", "),
            s.c_types.join(", ")
        );
        if scaled {
            why.push_str(&format!("; scale factors: {}", s.sf_types.join(", ")));
        }
        Error::new(ErrorKind::Inadmissible, MMA, format!("'{full}': {why})"))
    };
    if !s.ab_types.contains(&args[0]) || !s.ab_types.contains(&args[1]) || !s.c_types.contains(&args[2]) {
        return Err(no_match());
    }
    let sf_layouts = match s.sf {
        Some((sfa, sfb)) => {
            if !s.sf_types.contains(&args[3]) {
                return Err(no_match());
            }
            if !args[4].parse::<i64>().is_ok_and(|v| v > 0) {
                return Err(Error::new(
                    ErrorKind::Mismatch,
                    MMA,
                    format!("'{full}': the vector size VS must be a positive integer, not '{}'", args[4]),
                ));
            }
            Some((lay(MMA, sfa)?, lay(MMA, sfb)?))
        }
        None => None,
    };
    let c = args[2].to_string();
    Ok(Some(MmaTraits {
        name: full.clone(),
        shape_mnk: parse_tuple(MMA, s.mnk)?,
        thr_id: lay(MMA, "_32:_1")?,
        a: lay(MMA, s.a)?,
        b: lay(MMA, s.b)?,
        c: lay(MMA, ROW)?,
        val_types: [c.clone(), args[0].to_string(), args[1].to_string(), c],
        tmem_c: None,
        sf_layouts,
        tmem_a: None,
        tmem_e_bits: None,
        tmem_sf: None,
        e_layout: s.e.map(|e| lay(MMA, e)).transpose()?,
    }))
}

/// One example name of each SM120 op, for help and "did you mean": each
/// builds with [`super::mma_traits`].
pub(super) fn sm120_op_names() -> Vec<String> {
    SM120
        .iter()
        .map(|s| {
            let (a, c) = (s.ab_types[0], s.c_types[0]);
            match s.sf_types.first() {
                Some(sf) => format!("{}<{a},{a},{c},{sf},32>", s.name),
                None => format!("{}<{a},{a},{c}>", s.name),
            }
        })
        .collect()
}

/// The catalogue's lines of the SM120 ops.
pub(super) fn sm120_catalog() -> Vec<AtomFamily> {
    SM120
        .iter()
        .zip(sm120_op_names())
        .map(|(s, example)| {
            let args = if s.sf.is_some() { "<a,b,c,sf,VS>" } else { "<a,b,c>" };
            let mut note = format!(
                "mma.sync, {}, 32 threads; A, B: {}; C: {}",
                s.mnk,
                s.ab_types.join(", "),
                s.c_types.join(", ")
            );
            if s.sf.is_some() {
                note.push_str(&format!("; scale factors: {}", s.sf_types.join(", ")));
            }
            AtomFamily { kind: AtomKind::Mma, form: format!("{}{args}", s.name), example, note }
        })
        .collect()
}
