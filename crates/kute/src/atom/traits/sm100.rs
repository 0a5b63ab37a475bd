//! The SM100 tcgen05 MMA ops (UMMA, `cute/arch/mma_sm100_umma.hpp`,
//! `cute/atom/mma_traits_sm100.hpp`) and the SM100 vector FMAs, as one
//! registry table: each op's K, the M and N its `static_assert`s allow, the
//! types it takes and the form of its template arguments.
//!
//! Every UMMA op has the same traits, up to its M, N, K and number of SMs:
//! one "thread" per SM (`ThrID` `_1:_0`, or `_2:_1` for the `2x1SM` ops, one
//! CTA of the pair each), and the tiles of A, B and C read column-major
//! (`ALayout` `(_1,(M,K)):(_0,(_1,M))`; the `2x1SM` ops split M and N
//! between the two SMs: `(_2,(M/2,K)):(M/2,(_1,M))`).

use super::{
    lay, parse_tuple, strip_ns, type_hint, AtomFamily, AtomKind, Fixed, MmaTraits, OpName, TmemFrg, TmemSf, MMA,
};
use crate::algebra::sizeof_bits;
use crate::error::{Error, ErrorKind, Result};

/// Which N an op allows (for its M and B's major).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum NRule {
    /// A multiple of `s` from `s` to 256.
    Mult(i64),
    /// 8, or a multiple of 16 from 16 to 256 (the 1-SM 8-bit integer ops).
    EightOr16,
    /// A multiple of 8 up to 256 for M = 64, of 16 for M = 128 (the 1-SM TS ops).
    ByM,
    /// A multiple of `k` from `k` to 256 when B is K-major, of `mn` when B is MN-major.
    ByBMajor(i64, i64),
}

impl NRule {
    fn allows(self, m: i64, n: i64, b_k_major: bool) -> bool {
        let mult = |s: i64| n % s == 0 && (s..=256).contains(&n);
        match self {
            NRule::Mult(s) => mult(s),
            NRule::EightOr16 => n == 8 || mult(16),
            NRule::ByM => (m == 64 && mult(8)) || (m == 128 && mult(16)),
            NRule::ByBMajor(k, mn) => mult(if b_k_major { k } else { mn }),
        }
    }

    fn describe(self) -> String {
        let mult = |s: i64| format!("a multiple of {s} between {s} and 256");
        match self {
            NRule::Mult(s) => mult(s),
            NRule::EightOr16 => "8 or a multiple of 16 between 16 and 256".into(),
            NRule::ByM => format!("{} for M=64, or {} for M=128", mult(8), mult(16)),
            NRule::ByBMajor(k, mn) => format!("{} when B is K major, {} when B is MN major", mult(k), mult(mn)),
        }
    }
}

/// The element types an op takes for A and B.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Types {
    /// Both exactly this many bits.
    Bits(i64),
    /// Both of at most 8 bits (fp8, fp6, fp4).
    AtMost8,
}

/// The form of an op's template arguments after `a, b, c`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Params {
    /// `M, N, a_major, b_major[, a_neg, b_neg[, c_sat]]`.
    Plain,
    /// `M, N, a_major, b_major, ScaleC[, ...]` (the `_SCALED` ops).
    Scaled,
    /// `sf, M, N, a_major, b_major[, ...]` (block-scaled, the vector size fixed).
    Sf,
    /// `sf, M, N, VS, a_major, b_major[, ...]`: VS `small`, or `large` with
    /// fp4 (`float_e2m1_t`) A and B and `float_ue8m0_t` scale factors only.
    SfVs { small: i64, large: i64 },
    /// A plain op struct whose parameters are template arguments of its
    /// traits: `MMA_Traits<Op, a, b, c, C<M>, C<N>, integral_constant<UMMA::Major, ..>, ...>`.
    OnTraits,
}

/// One tcgen05 op of the registry.
struct Umma {
    name: &'static str,
    /// The instruction's K in elements of A.
    k: i64,
    ms: &'static [i64],
    n: NRule,
    types: Types,
    params: Params,
    /// A is read from tensor memory (the `_TS` ops): A must be K-major.
    ts: bool,
    two_sm: bool,
    /// Both operands K-major only (the SM103 ops).
    k_major_only: bool,
    /// The accumulator must be `int32_t` (the SS 8-bit integer ops).
    c_int32: bool,
}

const M1: &[i64] = &[64, 128];
const M2: &[i64] = &[128, 256];
const M128: &[i64] = &[128];
const M256: &[i64] = &[256];

/// Every tcgen05 MMA op CuTe defines, in the header's order.
#[rustfmt::skip]
const UMMA: &[Umma] = &{
    use NRule::*;
    use Params::*;
    use Types::*;
    const fn op(name: &'static str, k: i64, ms: &'static [i64], n: NRule, types: Types, params: Params) -> Umma {
        let b = name.as_bytes();
        Umma { name, k, ms, n, types, params, ts: contains(b, b"_TS"), two_sm: contains(b, b"2x1SM"),
               k_major_only: contains(b, b"ULTRA"), c_int32: false }
    }
    const fn int32(u: Umma) -> Umma {
        Umma { c_int32: true, ..u }
    }
    [
        op("SM100_MMA_TF32_SS", 8, M1, Mult(8), Bits(32), Plain),
        op("SM100_MMA_F16BF16_SS", 16, M1, Mult(8), Bits(16), Plain),
        op("SM100_MMA_TF32_TS", 8, M1, ByM, Bits(32), Plain),
        op("SM100_MMA_F16BF16_TS", 16, M1, ByM, Bits(16), Plain),
        op("SM100_MMA_F16BF16_SS_SCALED", 16, M1, Mult(8), Bits(16), Scaled),
        op("SM100_MMA_F16BF16_TS_SCALED", 16, M1, ByM, Bits(16), Scaled),
        op("SM100_MMA_TF32_SS_SPARSE", 16, M1, Mult(8), Bits(32), Plain),
        op("SM100_MMA_F16BF16_SS_SPARSE", 32, M1, Mult(8), Bits(16), Plain),
        op("SM100_MMA_TF32_2x1SM_SS", 8, M2, Mult(16), Bits(32), Plain),
        op("SM100_MMA_F16BF16_2x1SM_SS", 16, M2, Mult(16), Bits(16), Plain),
        op("SM100_MMA_TF32_2x1SM_TS", 8, M2, Mult(32), Bits(32), Plain),
        op("SM100_MMA_F16BF16_2x1SM_TS", 16, M2, Mult(32), Bits(16), Plain),
        op("SM100_MMA_F16BF16_2x1SM_SS_SCALED", 16, M2, Mult(16), Bits(16), Scaled),
        op("SM100_MMA_F16BF16_2x1SM_TS_SCALED", 16, M2, Mult(32), Bits(16), Scaled),
        op("SM100_MMA_TF32_2x1SM_SS_SPARSE", 16, M2, Mult(16), Bits(32), Plain),
        op("SM100_MMA_F16BF16_2x1SM_SS_SPARSE", 32, M2, Mult(16), Bits(16), Plain),
        int32(op("SM100_MMA_S8_SS", 32, M1, EightOr16, Bits(8), Plain)),
        op("SM100_MMA_S8_TS", 32, M1, EightOr16, Bits(8), Plain),
        int32(op("SM100_MMA_S8_SS_SPARSE", 64, M1, EightOr16, Bits(8), Plain)),
        op("SM100_MMA_S8_2x1SM_SS", 32, M2, Mult(32), Bits(8), Plain),
        op("SM100_MMA_S8_2x1SM_TS", 32, M2, Mult(32), Bits(8), Plain),
        op("SM100_MMA_S8_2x1SM_SS_SPARSE", 64, M2, Mult(32), Bits(8), Plain),
        op("SM100_MMA_F8F6F4_SS", 32, M1, ByBMajor(8, 16), AtMost8, OnTraits),
        op("SM100_MMA_MXF8F6F4_SS", 32, M128, Mult(8), AtMost8, Sf),
        op("SM100_MMA_MXF8F6F4_SS_SPARSE", 64, M128, Mult(8), AtMost8, Sf),
        op("SM100_MMA_F8F6F4_TS", 32, M1, ByM, AtMost8, Plain),
        op("SM100_MMA_F8F6F4_SS_SPARSE", 64, M1, ByM, AtMost8, Plain),
        op("SM100_MMA_F8F6F4_2x1SM_SS", 32, M2, ByBMajor(16, 32), AtMost8, OnTraits),
        op("SM100_MMA_F8F6F4_2x1SM_TS", 32, M2, Mult(32), AtMost8, Plain),
        op("SM100_MMA_F8F6F4_2x1SM_SS_SPARSE", 64, M2, Mult(32), AtMost8, Plain),
        op("SM100_MMA_MXF8F6F4_2x1SM_SS", 32, M256, Mult(16), AtMost8, Sf),
        op("SM100_MMA_MXF8F6F4_2x1SM_SS_SPARSE", 64, M256, Mult(16), AtMost8, Sf),
        op("SM100_MMA_MXF4_SS", 64, M128, Mult(8), Bits(4), SfVs { small: 16, large: 32 }),
        op("SM100_MMA_MXF4NVF4_SS_SPARSE", 128, M128, Mult(8), Bits(4), SfVs { small: 32, large: 64 }),
        op("SM100_MMA_MXF4_2x1SM_SS", 64, M2, Mult(16), Bits(4), SfVs { small: 16, large: 32 }),
        op("SM100_MMA_MXF4NVF4_2x1SM_SS_SPARSE", 128, M2, Mult(16), Bits(4), SfVs { small: 32, large: 64 }),
        op("SM103_MXF4_ULTRA_SS_VS", 96, M128, Mult(16), Bits(4), SfVs { small: 16, large: 32 }),
        op("SM103_MXF4_ULTRA_2x1SM_SS_VS", 96, M2, Mult(16), Bits(4), SfVs { small: 16, large: 32 }),
    ]
};

const fn contains(hay: &[u8], needle: &[u8]) -> bool {
    let mut i = 0;
    while i + needle.len() <= hay.len() {
        let mut j = 0;
        while j < needle.len() && hay[i + j] == needle[j] {
            j += 1;
        }
        if j == needle.len() {
            return true;
        }
        i += 1;
    }
    false
}

/// A template argument with CuTe's wrappers taken off: `C<128>` and `Int<128>`
/// are `128`, `integral_constant<UMMA::Major,UMMA::Major::K>` is `UMMA::Major::K`.
fn unwrap_arg(s: &str) -> &str {
    let s = strip_ns(s);
    for w in ["C<", "Int<", "cute::C<", "cute::Int<"] {
        if let Some(inner) = s.strip_prefix(w).and_then(|r| r.strip_suffix('>')) {
            return inner;
        }
    }
    for w in ["integral_constant<", "cute::integral_constant<", "std::integral_constant<"] {
        if let Some(inner) = s.strip_prefix(w).and_then(|r| r.strip_suffix('>')) {
            return inner.rsplit_once(',').map(|x| x.1).unwrap_or(inner);
        }
    }
    s
}

/// `Some(true)` for `UMMA::Major::K`, `Some(false)` for `UMMA::Major::MN`.
fn umma_major_k(s: &str) -> Option<bool> {
    match strip_ns(unwrap_arg(s)) {
        "UMMA::Major::K" => Some(true),
        "UMMA::Major::MN" => Some(false),
        _ => None,
    }
}

/// An op name with the namespaces CuTe puts it in (`SM103::`) taken off.
fn base_name(op: &OpName) -> &str {
    op.base.strip_prefix("SM103::").unwrap_or(&op.base)
}

/// The traits of a tcgen05 op `SM100_MMA_*<...>` / `SM103::SM103_MXF4_ULTRA_*<...>`;
/// `Ok(None)` when the name is none of them.
pub(super) fn umma(op: &OpName) -> Result<Option<MmaTraits>> {
    let base = base_name(op);
    let Some(u) = UMMA.iter().find(|u| u.name == base) else { return Ok(None) };
    let full = &op.full;
    let args: Vec<&str> = op.args.as_deref().unwrap_or(&[]).iter().map(|s| unwrap_arg(s)).collect();
    let mismatch = |why: String| Error::new(ErrorKind::Mismatch, MMA, format!("'{full}': {why}"));
    let illegal = |why: String| Error::new(ErrorKind::Inadmissible, MMA, format!("'{full}': {why}"));
    let form = match u.params {
        Params::Plain => "<a_type, b_type, c_type, M, N, UMMA::Major, UMMA::Major[, UMMA::ScaleIn, UMMA::ScaleIn]>",
        Params::Scaled => "<a_type, b_type, c_type, M, N, UMMA::Major, UMMA::Major, ScaleC[, ...]>",
        Params::Sf => "<a_type, b_type, c_type, sf_type, M, N, UMMA::Major, UMMA::Major[, ...]>",
        Params::SfVs { .. } => "<a_type, b_type, c_type, sf_type, M, N, VS, UMMA::Major, UMMA::Major[, ...]>",
        Params::OnTraits => {
            "MMA_Traits<Op, a_type, b_type, c_type, C<M>, C<N>, integral_constant<UMMA::Major, ..>, \
             integral_constant<UMMA::Major, ..>[, integral_constant<UMMA::ScaleIn, ..> x2]>"
        }
    };
    // the positions of M, N (and VS, sf) and the majors
    let sf = matches!(u.params, Params::Sf | Params::SfVs { .. });
    let m_at = if sf { 4 } else { 3 };
    let vs_at = matches!(u.params, Params::SfVs { .. }).then_some(m_at + 2);
    let major_at = m_at + 2 + usize::from(vs_at.is_some());
    let required = major_at + 2 + usize::from(u.params == Params::Scaled);
    if args.len() < required || args.len() > required + 3 {
        return Err(mismatch(format!("takes {form}")));
    }
    let int_arg = |i: usize, what: &str| -> Result<i64> {
        args[i].parse::<i64>().map_err(|_| mismatch(format!("{what} must be an integer, not '{}'", args[i])))
    };
    let (m, n) = (int_arg(m_at, "M")?, int_arg(m_at + 1, "N")?);
    let (Some(a_k), Some(b_k)) = (umma_major_k(args[major_at]), umma_major_k(args[major_at + 1])) else {
        return Err(mismatch("the majors must be UMMA::Major::K or UMMA::Major::MN".into()));
    };
    if u.params == Params::Scaled {
        int_arg(major_at + 2, "ScaleC")?;
    }
    for s in &args[required..] {
        let t = strip_ns(s);
        if !(t.starts_with("UMMA::ScaleIn::") || t.starts_with("UMMA::Saturate::")) {
            return Err(mismatch(format!("'{s}' is not a UMMA::ScaleIn or UMMA::Saturate")));
        }
    }
    // the types
    let ty = |i: usize| strip_ns(args[i]);
    let bits = |i: usize| -> Result<i64> {
        sizeof_bits(ty(i)).ok_or_else(|| {
            Error::new(
                ErrorKind::UnknownName,
                MMA,
                format!("'{full}': '{}' is not an element type CuTe's sizeof_bits knows{}", ty(i), type_hint(ty(i))),
            )
        })
    };
    let (a_bits, b_bits, c_bits) = (bits(0)?, bits(1)?, bits(2)?);
    if sf {
        bits(3)?;
    }
    match u.types {
        Types::Bits(w) if a_bits != w || b_bits != w => {
            return Err(illegal(format!("{} supports {w}bit types (A and B)", u.name)))
        }
        Types::AtMost8 if a_bits > 8 || b_bits > 8 => {
            return Err(illegal(format!("{} supports types with leq 8bit types", u.name)))
        }
        _ => {}
    }
    if u.c_int32 && ty(2) != "int32_t" {
        return Err(illegal(format!("{} result type can only be int32_t", u.name)));
    }
    // M, N, VS, the majors
    if !u.ms.contains(&m) {
        let ms: Vec<String> = u.ms.iter().map(i64::to_string).collect();
        return Err(illegal(format!("{} M-mode size is {m}; it should be {}", u.name, ms.join(" or "))));
    }
    if !u.n.allows(m, n, b_k) {
        return Err(illegal(format!("{} N-mode size is {n}; it should be {}", u.name, u.n.describe())));
    }
    if let (Some(i), Params::SfVs { small, large }) = (vs_at, u.params) {
        let vs = int_arg(i, "VS")?;
        let fp4_ue8m0 = ty(0) == "float_e2m1_t" && ty(1) == "float_e2m1_t" && ty(3) == "float_ue8m0_t";
        if !(vs == small || (vs == large && fp4_ue8m0)) {
            return Err(illegal(format!(
                "{} vector size is {vs}; it can only be {small}, or {large} with float_e2m1_t A and B and \
                 float_ue8m0_t scale factors",
                u.name
            )));
        }
    }
    if u.ts && !a_k {
        return Err(illegal(format!("{}: A from TMEM can't be transposed (A must be UMMA::Major::K)", u.name)));
    }
    if u.k_major_only && !(a_k && b_k) {
        return Err(illegal(format!("{}: this MMA does not support transpose (A and B must be K-major)", u.name)));
    }
    let sf_type = sf.then(|| (ty(3), bits(3))).map(|(t, b)| b.map(|b| (t, b))).transpose()?;
    Ok(Some(traits_of(u, full, m, n, [ty(2), ty(0), ty(1), ty(2)], [c_bits, a_bits], sf_type)?))
}

fn traits_of(
    u: &Umma,
    full: &str,
    m: i64,
    n: i64,
    types: [&str; 4],
    [c_bits, a_bits]: [i64; 2],
    sf_type: Option<(&str, i64)>,
) -> Result<MmaTraits> {
    let k = u.k;
    let (thr, a, b, c) = if u.two_sm {
        let (hm, hn) = (m / 2, n / 2);
        (
            "_2:_1".to_string(),
            format!("(_2,(_{hm},_{k})):(_{hm},(_1,_{m}))"),
            format!("(_2,(_{hn},_{k})):(_{hn},(_1,_{n}))"),
            format!("(_2,(_{hm},_{n})):(_{hm},(_1,_{m}))"),
        )
    } else {
        (
            "_1:_0".to_string(),
            format!("(_1,(_{m},_{k})):(_0,(_1,_{m}))"),
            format!("(_1,(_{n},_{k})):(_0,(_1,_{n}))"),
            format!("(_1,(_{m},_{n})):(_0,(_1,_{m}))"),
        )
    };
    Ok(MmaTraits {
        name: full.to_string(),
        shape_mnk: parse_tuple(MMA, &format!("(_{m},_{n},_{k})"))?,
        thr_id: lay(MMA, &thr)?,
        a: lay(MMA, &a)?,
        b: lay(MMA, &b)?,
        c: lay(MMA, &c)?,
        val_types: types.map(String::from),
        tmem_c: Some(TmemFrg {
            n_sm: if u.two_sm { 2 } else { 1 },
            value_type: types[0].to_string(),
            value_bits: c_bits,
            storage_bits: 32,
            non_interleaved: u.ts && !u.two_sm,
            duplicated: false,
        }),
        sf_layouts: None,
        // A in tensor memory: stored in its own type, not interleaved (1 SM) or duplicated (2 SMs)
        tmem_a: u.ts.then(|| TmemFrg {
            n_sm: if u.two_sm { 2 } else { 1 },
            value_type: types[1].to_string(),
            value_bits: a_bits,
            storage_bits: a_bits,
            non_interleaved: !u.two_sm,
            duplicated: u.two_sm,
        }),
        // the metadata's ValueType: uint8_t for the fp8/fp6/fp4 ops, else A's type
        tmem_e_bits: u.name.contains("SPARSE").then(|| if u.name.contains("F8F6F4") { 8 } else { a_bits }),
        tmem_sf: sf_type.map(|(t, bits)| TmemSf {
            value_type: t.to_string(),
            value_bits: bits,
            n_sm: if u.two_sm { 2 } else { 1 },
            sfb_2by2: u.two_sm && m == 128,
        }),
        e_layout: None,
    })
}

/// The SM100 vector FMAs `SM100_2x1x1_F32F32F32F32` and `SM100_1x2x1_F32F32F32F32`
/// (one thread, two results), as entries of the fixed table.
pub(super) fn ffma2_fixed() -> Vec<Fixed> {
    let f = "float";
    vec![
        Fixed {
            name: "SM100_2x1x1_F32F32F32F32".into(),
            mnk: "(_2,_1,_1)",
            thr: "_1:_0",
            a: "(_1,_2):(_0,_1)",
            b: "(_1,_1):(_0,_0)",
            c: "(_1,_2):(_0,_1)",
            types: [f; 4],
        },
        Fixed {
            name: "SM100_1x2x1_F32F32F32F32".into(),
            mnk: "(_1,_2,_1)",
            thr: "_1:_0",
            a: "(_1,_1):(_0,_0)",
            b: "(_1,_2):(_0,_1)",
            c: "(_1,_2):(_0,_1)",
            types: [f; 4],
        },
    ]
}

/// One example name of each tcgen05 op (legal M, N, types, K-major), for
/// help and "did you mean": each builds with [`super::mma_traits`].
///
/// Pre: none. Post: one name per op of CuTe's `mma_sm100_umma.hpp`.
///
/// ```
/// let names = kute::atom::traits::umma_op_names();
/// assert!(names.iter().any(|n| n.starts_with("SM100_MMA_F16BF16_2x1SM_SS<")));
/// assert!(names.iter().all(|n| kute::atom::traits::mma_traits(n).is_ok()));
/// ```
pub fn umma_op_names() -> Vec<String> {
    UMMA.iter().map(example).collect()
}

fn example(u: &Umma) -> String {
    let (a, c) = match u.types {
        Types::Bits(32) => ("tfloat32_t", "float"),
        Types::Bits(16) => ("half_t", "float"),
        Types::Bits(8) => ("int8_t", "int32_t"),
        Types::Bits(_) => ("float_e2m1_t", "float"),
        Types::AtMost8 => ("float_e4m3_t", "float"),
    };
    let (m, n) = (u.ms[u.ms.len() - 1], 128);
    let k = "UMMA::Major::K";
    let ns = if u.name.starts_with("SM103") { "SM103::" } else { "" };
    match u.params {
        Params::Plain => format!("{ns}{}<{a},{a},{c},{m},{n},{k},{k}>", u.name),
        Params::Scaled => format!("{ns}{}<{a},{a},{c},{m},{n},{k},{k},1>", u.name),
        Params::Sf => format!("{ns}{}<{a},{a},{c},float_ue8m0_t,{m},{n},{k},{k}>", u.name),
        Params::SfVs { large, .. } => format!("{ns}{}<{a},{a},{c},float_ue8m0_t,{m},{n},{large},{k},{k}>", u.name),
        Params::OnTraits => format!(
            "MMA_Traits<{},{a},{a},{c},C<{m}>,C<{n}>,integral_constant<UMMA::Major,{k}>,\
             integral_constant<UMMA::Major,{k}>>",
            u.name
        ),
    }
}

/// The catalogue's lines of the tcgen05 ops: one per op, its parameters and rules.
pub(super) fn umma_catalog() -> Vec<AtomFamily> {
    UMMA.iter()
        .map(|u| {
            let example = example(u);
            let params = match u.params {
                Params::Plain => "<a,b,c,M,N,a_major,b_major>",
                Params::Scaled => "<a,b,c,M,N,a_major,b_major,ScaleC>",
                Params::Sf => "<a,b,c,sf,M,N,a_major,b_major>",
                Params::SfVs { .. } => "<a,b,c,sf,M,N,VS,a_major,b_major>",
                Params::OnTraits => "",
            };
            let form = match u.params {
                Params::OnTraits => {
                    format!("MMA_Traits<{},a,b,c,C<M>,C<N>,integral_constant<UMMA::Major,..>,..>", u.name)
                }
                _ if u.name.starts_with("SM103") => format!("SM103::{}{params}", u.name),
                _ => format!("{}{params}", u.name),
            };
            let ms: Vec<String> = u.ms.iter().map(i64::to_string).collect();
            let types = match u.types {
                Types::Bits(w) => format!("{w}-bit A and B"),
                Types::AtMost8 => "A and B of at most 8 bits".to_string(),
            };
            let note = format!(
                "tcgen05{}, {} SM{}, K = {}; M = {}; N: {}; {types}{}",
                if u.ts { " (A in tensor memory)" } else { "" },
                if u.two_sm { 2 } else { 1 },
                if u.two_sm { "s" } else { "" },
                u.k,
                ms.join(" or "),
                u.n.describe(),
                if u.ts || u.k_major_only { "; A K-major" } else { "" },
            );
            AtomFamily { kind: AtomKind::Mma, form, example, note }
        })
        .collect()
}
