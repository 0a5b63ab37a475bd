//! The traits of CuTe's MMA and copy atoms — `MMA_Traits<Op>` and
//! `Copy_Traits<Op>` — as data: their layouts, in kute's notation, looked up
//! by the operation's C++ name.
//!
//! Every layout is transcribed from CuTe's headers (`cute/atom/mma_traits_sm70.hpp`,
//! `_sm75`, `_sm80`, `_sm90`, `_sm90_gmma(_ext)`, `_sm100`, `_sm120(_sparse)`,
//! `mma_traits.hpp`, `copy_traits.hpp`, `copy_traits_sm75/sm80/sm90/sm100.hpp`),
//! with every integer static, and prints as CuTe prints it. The Blackwell ops
//! have their own modules: the tcgen05 MMAs (`sm100`), the SM120 `mma.sync`
//! ops (`sm120`) and the SM100 copies (`sm100_copy`, a table).
//!
//! ```
//! use kute::atom::traits::{copy_traits, mma_traits};
//! let t = mma_traits("SM80_16x8x16_F16F16F16F16_TN").unwrap();
//! assert_eq!(t.a.to_string(), "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))");
//! let c = copy_traits("SM75_U32x4_LDSM_N").unwrap();
//! assert_eq!(c.src.to_string(), "(_32,_128):(_128,_1)");
//! ```

use crate::algebra::sizeof_bits;
use crate::error::{Error, ErrorKind, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;

mod sm100;
mod sm100_copy;
mod sm120;

pub use sm100::umma_op_names;

/// The traits of an MMA operation (CuTe's `MMA_Traits<Op>`), layouts in kute's notation.
///
/// `a`, `b`, `c` are CuTe's `ALayout`, `BLayout`, `CLayout`: (thread, value) →
/// the column-major index of an element of the M×K, N×K and M×N tile
/// (`m + M·k`, ...). `thr_id` maps a logical thread to its thread index.
///
/// What holds for every op kute knows (tested for each): `size<0>` of `a`, `b`
/// and `c` is `size(thr_id)`; `c` is a bijection onto `[0, M·N)`; `a` and `b`
/// are bijections onto `[0, M·K)` and `[0, N·K)` — except the SM90 GMMA
/// operands read from shared memory (`ALayout` of `_SS`, `BLayout` of every
/// GMMA op, CuTe's `GMMA::ABLayout<M,K>` = `(_128,(M,K)):(_0,(_1,M))`): their
/// thread mode has stride 0 (the warpgroup reads the tile through one smem
/// descriptor), and their value mode alone is the bijection onto the tile.
/// One exception, CuTe's own: the `BLayout` of `SM80_16x8x32_S32{S4,U4}{S4,U4}S32_TN[_SATURATE]`,
/// `((_4,_8),(_8)):((_32,_1),(_8))`, reaches some of the 8×32 positions twice;
/// kute keeps CuTe's layout.
///
/// Pre: none (a plain value). Post: built by [`mma_traits`] from CuTe's tables.
///
/// ```
/// let t = kute::atom::traits::mma_traits("SM70_8x8x4_F32F16F16F32_NT").unwrap();
/// assert_eq!(t.thr_id.to_string(), "(_4,_2):(_1,_16)");
/// assert_eq!(t.shape_mnk.to_string(), "(_8,_8,_4)");
/// assert_eq!(t.val_types, ["float", "half_t", "half_t", "float"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MmaTraits {
    /// The operation's name as given, without whitespace and a leading `cute::`.
    pub name: String,
    /// CuTe's `Shape_MNK`, e.g. `(_16,_8,_16)`.
    pub shape_mnk: IntTuple,
    /// CuTe's `ThrID`: logical thread → thread index.
    pub thr_id: Layout,
    /// CuTe's `ALayout`: (thread, value) → index in the M×K tile.
    pub a: Layout,
    /// CuTe's `BLayout`: (thread, value) → index in the N×K tile.
    pub b: Layout,
    /// CuTe's `CLayout`: (thread, value) → index in the M×N tile.
    pub c: Layout,
    /// `ValTypeD`, `ValTypeA`, `ValTypeB`, `ValTypeC` as CuTe names them
    /// (`half_t`, `float`, `bfloat16_t`, `tfloat32_t`, `int8_t`, `int32_t`, ...).
    pub val_types: [String; 4],
    /// For a tcgen05 (UMMA) op, how its accumulator lies in tensor memory
    /// (CuTe's `FrgTypeC`, a `UMMA::tmem_frg`); `None` for a register accumulator.
    pub tmem_c: Option<TmemFrg>,
    /// For a block-scaled SM120 op, CuTe's `SFALayout` and `SFBLayout`:
    /// (thread, value) → index of a scale factor of the M×K and N×K tiles.
    pub sf_layouts: Option<(Layout, Layout)>,
    /// For a tcgen05 op that reads A from tensor memory (the `_TS` ops), how
    /// A lies there (CuTe's `FrgTypeA`, a `UMMA::tmem_frg` of A's type).
    pub tmem_a: Option<TmemFrg>,
    /// For a sparse tcgen05 op, the width in bits of the `ValueType` of its
    /// metadata fragment in tensor memory (CuTe's `FrgTypeE`,
    /// `UMMA::tmem_e_frg<ValueType>`): 32, 16, 8 or 4.
    pub tmem_e_bits: Option<i64>,
    /// For a block-scaled tcgen05 op, how its scale factors lie in tensor
    /// memory (CuTe's `FrgTypeSFA` / `FrgTypeSFB`, `UMMA::tmem_sf_frg`).
    pub tmem_sf: Option<TmemSf>,
    /// For a sparse SM120 op, CuTe's `ELayout`: (thread, value) → index of
    /// the metadata in the M×K tile.
    pub e_layout: Option<Layout>,
}

impl MmaTraits {
    /// The traits of an op whose operands and accumulator all live in
    /// registers or shared memory: none of the tensor-memory or scale-factor
    /// layouts of the Blackwell ops.
    fn in_registers(
        name: String,
        shape_mnk: IntTuple,
        thr_id: Layout,
        [a, b, c]: [Layout; 3],
        val_types: [String; 4],
    ) -> MmaTraits {
        MmaTraits {
            name,
            shape_mnk,
            thr_id,
            a,
            b,
            c,
            val_types,
            tmem_c: None,
            sf_layouts: None,
            tmem_a: None,
            tmem_e_bits: None,
            tmem_sf: None,
            e_layout: None,
        }
    }
}

/// How a block-scaled tcgen05 op's scale factors are allocated in tensor
/// memory (CuTe's `UMMA::tmem_sf_frg<ValueType, SFVecSize, N_SM, Is_SFA, TmemAlloc>`).
///
/// Pre: none (a plain value). Post: built by [`mma_traits`] for the block-scaled SM100 ops.
///
/// ```
/// let t = kute::atom::traits::mma_traits(
///     "SM100_MMA_MXF4_2x1SM_SS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,128,32,UMMA::Major::K,UMMA::Major::K>").unwrap();
/// let sf = t.tmem_sf.unwrap();
/// assert_eq!((sf.value_type.as_str(), sf.n_sm, sf.sfb_2by2), ("float_ue8m0_t", 2, true));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TmemSf {
    /// The scale factors' element type (the op's `sf_type`).
    pub value_type: String,
    /// Its width in bits.
    pub value_bits: i64,
    /// The number of SMs of the instruction: 1, or 2 for the `2x1SM` ops.
    pub n_sm: i64,
    /// `TmemAllocMode::ScaleFactorDuplicated2by2` (a `2x1SM` op of M = 128):
    /// SFB is laid out over a 2×2 data path; otherwise (and always for SFA) 4×1.
    pub sfb_2by2: bool,
}

/// How a tcgen05 (UMMA) op's accumulator is allocated in tensor memory
/// (CuTe's `UMMA::tmem_frg<ValueType, StorageType, N_SM, TmemAlloc>`).
///
/// Pre: none (a plain value). Post: built by [`mma_traits`] for the SM100 ops.
///
/// ```
/// let t = kute::atom::traits::mma_traits(
///     "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K>").unwrap();
/// let f = t.tmem_c.unwrap();
/// assert_eq!((f.n_sm, f.value_type.as_str(), f.storage_bits, f.non_interleaved), (1, "float", 32, false));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TmemFrg {
    /// The number of SMs of the instruction (CuTe's `N_SM`): 1, or 2 for the `2x1SM` ops.
    pub n_sm: i64,
    /// The accumulator's element type (the op's `c_type`).
    pub value_type: String,
    /// The width in bits of an element of the accumulator.
    pub value_bits: i64,
    /// The width in bits of the storage of an element (`uint32_t`: 32).
    pub storage_bits: i64,
    /// `TmemAllocMode::NonInterleaved` (the 1-SM ops with A in tensor memory)
    /// rather than `Interleaved`.
    pub non_interleaved: bool,
    /// `TmemAllocMode::Duplicated` (A of the 2-SM ops in tensor memory): the
    /// M = 64 half of each SM's tile duplicated over all 128 data paths.
    pub duplicated: bool,
}

/// The traits of a copy operation (CuTe's `Copy_Traits<Op>`): layouts in bits.
///
/// `src`, `dst`, `r#ref` are CuTe's `SrcLayout`, `DstLayout`, `RefLayout`:
/// (thread, value) → bit, in an arbitrary common bit order. `thr_id` maps a
/// logical thread to its thread index.
///
/// What holds for every op kute knows (tested for each): `size<0>` of the
/// three layouts is `size(thr_id)`; `ref` is a bijection onto `[0, cosize(ref))`;
/// `src` and `dst` have the cosize of `ref` (ldmatrix's source layout has
/// stride-0 thread modes: only some threads give an address).
///
/// Pre: none (a plain value). Post: built by [`copy_traits`] from CuTe's tables.
///
/// ```
/// let t = kute::atom::traits::copy_traits("UniversalCopy<uint128_t>").unwrap();
/// assert_eq!(t.thr_id.to_string(), "_1:_0");
/// assert_eq!(t.src.to_string(), "(_1,_128):(_0,_1)");
/// assert_eq!(t.r#ref, t.src);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyTraits {
    /// The operation's name as given, without whitespace and a leading `cute::`.
    pub name: String,
    /// CuTe's `ThrID`: logical thread → thread index.
    pub thr_id: Layout,
    /// CuTe's `SrcLayout`: (thread, value) → bit.
    pub src: Layout,
    /// CuTe's `DstLayout`: (thread, value) → bit.
    pub dst: Layout,
    /// CuTe's `RefLayout`: (thread, value) → bit; `src` or `dst`.
    pub r#ref: Layout,
    /// CuTe's `ValID` of the tensor-memory ops (logical bit → tensor-memory
    /// address bit, `TMEM::DP_b` = 2^21 a data path); `None` for other ops.
    pub val_id: Option<Layout>,
}

const MMA: &str = "MMA_Traits";
const COPY: &str = "Copy_Traits";

/// A table literal as a layout. A literal that fails to parse is a bug of the
/// table (every entry is tested); it is still an error, never a panic.
fn lay(op: &'static str, s: &str) -> Result<Layout> {
    s.parse::<Layout>().map_err(|e| Error::new(e.kind(), op, format!("table literal '{s}' does not parse: {e}")))
}

fn unknown(op: &'static str, name: &str, candidates: &[String]) -> Error {
    // the nearest name, with the template arguments written (`UniversalCopyy<uint32_t>`
    // -> `UniversalCopy<uint32_t>`) where both have some
    let hint = match suggest(name, candidates) {
        Some(s) => match (s.find('<'), name.find('<')) {
            (Some(i), Some(j)) => format!("; did you mean '{}{}'?", &s[..i], &name[j..]),
            _ => format!("; did you mean '{s}'?"),
        },
        None => String::new(),
    };
    Error::new(ErrorKind::UnknownName, op, format!("no traits for '{name}'{hint}"))
}

/// A "did you mean" for an element type [`sizeof_bits`] does not know: the
/// nearest known name within two edits (one for names of up to four
/// letters), as `"; did you mean 'half_t'?"`, or nothing.
pub(crate) fn type_hint(type_name: &str) -> String {
    let limit = if type_name.chars().count() <= 4 { 1 } else { 2 };
    match crate::syntax::nearest_within(type_name, crate::algebra::type_names(), |n| n, limit) {
        Some(n) => format!("; did you mean '{n}'?"),
        None => String::new(),
    }
}

/// The candidate closest to `name` in edit distance, when close enough.
fn suggest<'a>(name: &str, candidates: &'a [String]) -> Option<&'a str> {
    let base = name.split('<').next().unwrap_or(name);
    if base.len() > 64 {
        return None;
    }
    let limit = (base.len() / 4).max(2);
    crate::syntax::nearest_within(base, candidates, |c| c.split('<').next().unwrap_or(c), limit).map(String::as_str)
}

/// An op name split as `base<args>`: whitespace removed, a leading `cute::` dropped.
struct OpName {
    full: String,
    base: String,
    /// `None` without `<...>`; the top-level comma-separated arguments otherwise.
    args: Option<Vec<String>>,
}

fn split_op(op: &'static str, text: &str) -> Result<OpName> {
    let full: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let full = full.strip_prefix("cute::").map(str::to_string).unwrap_or(full);
    let bad = |why: &str| Error::new(ErrorKind::Parse, op, format!("'{full}': {why}"));
    let Some(lt) = full.find('<') else {
        if full.contains('>') || full.contains(',') {
            return Err(bad("unbalanced template arguments"));
        }
        return Ok(OpName { base: full.clone(), full, args: None });
    };
    let base = full[..lt].to_string();
    let Some(inner) = full[lt + 1..].strip_suffix('>') else {
        return Err(bad("the template arguments must end the name with '>'"));
    };
    let mut args = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, ch) in inner.char_indices() {
        match ch {
            '<' | '(' => depth += 1,
            '>' | ')' => depth = depth.checked_sub(1).ok_or_else(|| bad("unbalanced template arguments"))?,
            ',' if depth == 0 => {
                args.push(inner[start..i].to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(bad("unbalanced template arguments"));
    }
    if !inner.is_empty() {
        args.push(inner[start..].to_string());
    }
    if base.is_empty() || args.iter().any(String::is_empty) {
        return Err(bad("an empty name or template argument"));
    }
    Ok(OpName { full, base, args: Some(args) })
}

// ---------------------------------------------------------------------------------------------
// MMA: fixed tables (SM70, SM75, SM80, SM90 mma.sync)

struct Fixed {
    name: String,
    mnk: &'static str,
    thr: &'static str,
    a: &'static str,
    b: &'static str,
    c: &'static str,
    types: [&'static str; 4],
}

const T32: &str = "_32:_1";
const SM80_8X4: &str = "((_4,_8),_1):((_8,_1),_0)";
const SM80_8X8_ROW: &str = "((_4,_8),_2):((_16,_1),_8)";
const SM80_8X16_ROW: &str = "((_4,_8),_4):((_32,_1),_8)";
const SM80_16X8_ROW: &str = "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))";
const SM70_QUADPAIR: &str = "(_4,_2):(_1,_16)";
const SM70_8X4_ROW: &str = "(_8,_4):(_1,_8)";
const SM70_8X4_COL: &str = "((_4,_2),_4):((_8,_4),_1)";
const SM70_8X8_16B: &str = "(_8,_8):(_1,_8)";
const SM70_8X8_32B: &str = "((_2,_2,_2),(_2,_2,_2)):((_1,_16,_4),(_8,_2,_32))";

const H: &str = "half_t";
const F: &str = "float";
const BF: &str = "bfloat16_t";
const TF: &str = "tfloat32_t";
const S32: &str = "int32_t";
const DBL: &str = "double";
const CDBL: &str = "complex<double>";

/// An integer mma.sync shape: (`MxNxK`, `Shape_MNK`, `ALayout`, `BLayout`, `CLayout`).
type IntShape = (&'static str, &'static str, &'static str, &'static str, &'static str);
/// The signedness variants of an integer width: (name part, CuTe type).
type Signs = [(&'static str, &'static str); 2];

/// CuTe's `MMA_Traits` specializations of the warp-level (`mma.sync`) ops, in header order.
fn fixed_mma() -> Vec<Fixed> {
    let mut v = Vec::new();
    let mut push = |name: String, mnk, thr, a, b, c, types| v.push(Fixed { name, mnk, thr, a, b, c, types });

    // mma_traits_sm70.hpp
    for (acc, c, types) in [("F16F16F16F16", SM70_8X8_16B, [H, H, H, H]), ("F32F16F16F32", SM70_8X8_32B, [F, H, H, F])]
    {
        for (tn, a, b) in [
            ("TN", SM70_8X4_ROW, SM70_8X4_ROW),
            ("NT", SM70_8X4_COL, SM70_8X4_COL),
            ("NN", SM70_8X4_COL, SM70_8X4_ROW),
            ("TT", SM70_8X4_ROW, SM70_8X4_COL),
        ] {
            push(format!("SM70_8x8x4_{acc}_{tn}"), "(_8,_8,_4)", SM70_QUADPAIR, a, b, c, types);
        }
    }

    // mma_traits_sm75.hpp
    push(
        "SM75_16x8x8_F32F16F16F32_TN".into(),
        "(_16,_8,_8)",
        T32,
        SM80_16X8_ROW,
        SM80_8X8_ROW,
        SM80_16X8_ROW,
        [F, H, H, F],
    );
    push(
        "SM75_8x8x16_S32S8S8S32_TN".into(),
        "(_8,_8,_16)",
        T32,
        SM80_8X16_ROW,
        SM80_8X16_ROW,
        SM80_8X8_ROW,
        [S32, "int8_t", "int8_t", S32],
    );

    // mma_traits_sm80.hpp: f16 / bf16
    let half_types =
        [("F16F16F16F16", [H, H, H, H]), ("F32F16F16F32", [F, H, H, F]), ("F32BF16BF16F32", [F, BF, BF, F])];
    for (t, types) in half_types {
        push(format!("SM80_16x8x8_{t}_TN"), "(_16,_8,_8)", T32, SM80_16X8_ROW, SM80_8X8_ROW, SM80_16X8_ROW, types);
        push(
            format!("SM80_16x8x16_{t}_TN"),
            "(_16,_8,_16)",
            T32,
            "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))",
            "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))",
            SM80_16X8_ROW,
            types,
        );
    }
    // tf32
    push(
        "SM80_16x8x4_F32TF32TF32F32_TN".into(),
        "(_16,_8,_4)",
        T32,
        "((_4,_8),_2):((_16,_1),_8)",
        SM80_8X4,
        SM80_16X8_ROW,
        [F, TF, TF, F],
    );
    push(
        "SM80_16x8x8_F32TF32TF32F32_TN".into(),
        "(_16,_8,_8)",
        T32,
        "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))",
        "((_4,_8),_2):((_8,_1),_32)",
        SM80_16X8_ROW,
        [F, TF, TF, F],
    );
    // f64 and complex
    let gc = "SM80_8x8x4_GC64C64C64GC64_TN::GaussComplex";
    for (t, types) in
        [("F64F64F64F64", [DBL; 4]), ("C64C64C64C64", [CDBL; 4]), ("GC64C64C64GC64", [gc, CDBL, CDBL, gc])]
    {
        push(format!("SM80_8x8x4_{t}_TN"), "(_8,_8,_4)", T32, SM80_8X4, SM80_8X4, SM80_8X8_ROW, types);
    }
    // 8-bit and 4-bit integers: (shape, mnk, A, B, C) per width, then the signedness variants
    let int8_shapes = [
        ("8x8x16", "(_8,_8,_16)", SM80_8X16_ROW, SM80_8X16_ROW, SM80_8X8_ROW),
        ("16x8x16", "(_16,_8,_16)", "((_4,_8),(_4,_2)):((_64,_1),(_16,_8))", SM80_8X16_ROW, SM80_16X8_ROW),
        (
            "16x8x32",
            "(_16,_8,_32)",
            "((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))",
            "((_4,_8),(_4,_2)):((_32,_1),(_8,_128))",
            SM80_16X8_ROW,
        ),
    ];
    let int4_shapes = [
        ("8x8x32", "(_8,_8,_32)", "((_4,_8),(_8)):((_64,_1),(_8))", "((_4,_8),(_8)):((_64,_1),(_8))", SM80_8X8_ROW),
        (
            "16x8x32",
            "(_16,_8,_32)",
            "((_4,_8),(_8,_2)):((_128,_1),(_16,_8))",
            "((_4,_8),(_8)):((_32,_1),(_8))",
            SM80_16X8_ROW,
        ),
        (
            "16x8x64",
            "(_16,_8,_64)",
            "((_4,_8),(_8,_2,_2)):((_128,_1),(_16,_8,_512))",
            "((_4,_8),(_8,_2)):((_64,_1),(_8,_256))",
            SM80_16X8_ROW,
        ),
    ];
    let widths: [(&[IntShape], Signs); 2] = [
        (&int8_shapes, [("S8", "int8_t"), ("U8", "uint8_t")]),
        (&int4_shapes, [("S4", "int4b_t"), ("U4", "uint4b_t")]),
    ];
    for (shapes, signs) in widths {
        for &(shape, mnk, a, b, c) in shapes {
            for (an, at) in signs {
                for (bn, bt) in signs {
                    for sat in ["", "_SATURATE"] {
                        push(format!("SM80_{shape}_S32{an}{bn}S32_TN{sat}"), mnk, T32, a, b, c, [S32, at, bt, S32]);
                    }
                }
            }
        }
    }
    // 1-bit (SM80_16x8x128_S32U1U1S32_TN_*POPC is left out: CuTe's ALayout there
    // has a stride that is not congruent with its shape)
    let u1 = "uint1b_t";
    for popc in ["XORPOPC", "ANDPOPC"] {
        push(
            format!("SM80_16x8x256_S32U1U1S32_TN_{popc}"),
            "(_16,_8,_256)",
            T32,
            "((_4,_8),(_32,_2,_2)):((_512,_1),(_16,_8,_2048))",
            "((_4,_8),(_32,_2)):((_256,_1),(_8,_1024))",
            SM80_16X8_ROW,
            [S32, u1, u1, S32],
        );
        push(
            format!("SM80_8x8x128_S32U1U1S32_TN_{popc}"),
            "(_8,_8,_128)",
            T32,
            "((_4,_8),_32):((_256,_1),_8)",
            "((_4,_8),_32):((_256,_1),_8)",
            SM80_8X8_ROW,
            [S32, u1, u1, S32],
        );
    }

    // mma_traits_sm90.hpp: f64 and complex mma.sync
    for (t, types) in [("F64F64F64F64", [DBL; 4]), ("C64C64C64C64", [CDBL; 4])] {
        push(
            format!("SM90_16x8x4_{t}_TN"),
            "(_16,_8,_4)",
            T32,
            "((_4,_8),_2):((_16,_1),_8)",
            SM80_8X4,
            SM80_16X8_ROW,
            types,
        );
        push(
            format!("SM90_16x8x8_{t}_TN"),
            "(_16,_8,_8)",
            T32,
            "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))",
            "((_4,_8),_2):((_8,_1),_32)",
            SM80_16X8_ROW,
            types,
        );
        push(
            format!("SM90_16x8x16_{t}_TN"),
            "(_16,_8,_16)",
            T32,
            "((_4,_8),(_2,_4)):((_16,_1),(_8,_64))",
            "((_4,_8),_4):((_8,_1),_32)",
            SM80_16X8_ROW,
            types,
        );
    }
    // mma_traits_sm100.hpp: the vector FMAs
    v.extend(sm100::ffma2_fixed());
    v
}

// ---------------------------------------------------------------------------------------------
// MMA: SM90 GMMA (wgmma), generated from the name

/// How a GMMA family takes template arguments.
#[derive(Clone, Copy, PartialEq, Eq)]
enum GmmaArgs {
    /// `<Major tnspA, Major tnspB, ScaleIn = One, ScaleIn = One>` (16-bit types).
    Majors,
    /// `<ScaleIn = One, ScaleIn = One>` (tf32, fp8: K-major only, `_TN`).
    Scales,
    /// None (8-bit integers: `_TN`, optionally `_SATURATE`).
    Plain,
}

struct Gmma {
    types: String,
    k: i64,
    args: GmmaArgs,
    vals: [&'static str; 4],
}

fn gmma_families() -> Vec<Gmma> {
    let mut v = vec![
        Gmma { types: "F16F16F16".into(), k: 16, args: GmmaArgs::Majors, vals: [H, H, H, H] },
        Gmma { types: "F32F16F16".into(), k: 16, args: GmmaArgs::Majors, vals: [F, H, H, F] },
        Gmma { types: "F32BF16BF16".into(), k: 16, args: GmmaArgs::Majors, vals: [F, BF, BF, F] },
        Gmma { types: "F32TF32TF32".into(), k: 8, args: GmmaArgs::Scales, vals: [F, TF, TF, F] },
    ];
    let ints = [("S8", "int8_t"), ("U8", "uint8_t")];
    for (an, at) in ints {
        for (bn, bt) in ints {
            v.push(Gmma { types: format!("S32{an}{bn}"), k: 32, args: GmmaArgs::Plain, vals: [S32, at, bt, S32] });
        }
    }
    let fp8 = [("E4M3", "float_e4m3_t"), ("E5M2", "float_e5m2_t")];
    for (dn, dt) in [("F16", H), ("F32", F)] {
        for (an, at) in fp8 {
            for (bn, bt) in fp8 {
                v.push(Gmma { types: format!("{dn}{an}{bn}"), k: 32, args: GmmaArgs::Scales, vals: [dt, at, bt, dt] });
            }
        }
    }
    v
}

/// The N CuTe defines a GMMA for: 8..=256 step 8; for 8-bit integers 8, 24 and the multiples of 16.
fn gmma_n_ok(f: &Gmma, n: i64) -> bool {
    (8..=256).contains(&n) && n % 8 == 0 && (f.args != GmmaArgs::Plain || n % 16 == 0 || n == 8 || n == 24)
}

/// `GMMA::ABLayout<M,K>`: the smem-descriptor operand, the same tile for every thread.
fn ab_layout(m: i64, k: i64) -> String {
    format!("(_128,(_{m},_{k})):(_0,(_1,_{m}))")
}

/// `GMMA::ALayout_64xK`: the register-sourced A operand of an RS op.
fn a_rs_layout(k: i64) -> &'static str {
    match k {
        8 => "((_4,_8,_4),(_2,_2)):((_64,_1,_16),(_8,_256))",
        16 => "((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))",
        _ => "((_4,_8,_4),(_4,_2,_2)):((_256,_1,_16),(_64,_8,_1024))",
    }
}

fn strip_ns(s: &str) -> &str {
    let mut s = s;
    for p in ["cute::", "cutlass::", "SM90::"] {
        s = s.strip_prefix(p).unwrap_or(s);
    }
    s
}

/// `Some(true)` for `GMMA::Major::K`, `Some(false)` for `GMMA::Major::MN`.
fn major_k(s: &str) -> Option<bool> {
    match strip_ns(s) {
        "GMMA::Major::K" => Some(true),
        "GMMA::Major::MN" => Some(false),
        _ => None,
    }
}

fn is_scale_in(s: &str) -> bool {
    matches!(strip_ns(s), "GMMA::ScaleIn::One" | "GMMA::ScaleIn::Neg")
}

/// The GMMA traits for a name `SM90_64x{N}x{K}_{types}_{SS|RS}[_TN][_SATURATE]`;
/// `Ok(None)` when the name is not of that form.
fn gmma(op: &OpName) -> Result<Option<MmaTraits>> {
    let Some(rest) = op.base.strip_prefix("SM90_64x") else { return Ok(None) };
    let Some((n_text, rest)) = rest.split_once('x') else { return Ok(None) };
    let Some((k_text, suffix)) = rest.split_once('_') else { return Ok(None) };
    let digits = |t: &str| !t.is_empty() && t.len() <= 4 && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(n_text) || !digits(k_text) {
        return Ok(None);
    }
    let (Ok(n), Ok(k)) = (n_text.parse::<i64>(), k_text.parse::<i64>()) else { return Ok(None) };
    for f in gmma_families() {
        let Some(tail) = suffix.strip_prefix(f.types.as_str()) else { continue };
        let (ss, tail) = match tail {
            t if t.starts_with("_SS") => (true, &t[3..]),
            t if t.starts_with("_RS") => (false, &t[3..]),
            _ => continue,
        };
        let ok_tail = match f.args {
            GmmaArgs::Majors => tail.is_empty(),
            GmmaArgs::Scales => tail == "_TN",
            GmmaArgs::Plain => tail == "_TN" || tail == "_TN_SATURATE",
        };
        if !ok_tail {
            continue;
        }
        let unknown_shape =
            |why: String| Error::new(ErrorKind::UnknownName, MMA, format!("no traits for '{}': {why}", op.full));
        if k != f.k {
            return Err(unknown_shape(format!("a {} GMMA has K = {}", f.types, f.k)));
        }
        if !gmma_n_ok(&f, n) {
            let set = if f.args == GmmaArgs::Plain {
                "8, 24 or a multiple of 16 up to 256"
            } else {
                "a multiple of 8 up to 256"
            };
            return Err(unknown_shape(format!("N = {n} is not one CuTe defines ({set})")));
        }
        let args = op.args.as_deref().unwrap_or(&[]);
        let bad_args = |why: &str| Error::new(ErrorKind::Mismatch, MMA, format!("'{}': {why}", op.full));
        match f.args {
            GmmaArgs::Majors => {
                if args.len() == 1 || args.len() > 4 {
                    return Err(bad_args("takes <GMMA::Major, GMMA::Major[, GMMA::ScaleIn[, GMMA::ScaleIn]]>"));
                }
                if !args.is_empty() {
                    let (Some(a_k), Some(_)) = (major_k(&args[0]), major_k(&args[1])) else {
                        return Err(bad_args("the first two arguments must be GMMA::Major::K or GMMA::Major::MN"));
                    };
                    if !args[2..].iter().all(|s| is_scale_in(s)) {
                        return Err(bad_args("the third and fourth arguments must be GMMA::ScaleIn::One or ::Neg"));
                    }
                    if !ss && !a_k {
                        return Err(Error::new(
                            ErrorKind::Inadmissible,
                            MMA,
                            format!("'{}': register source operand A must have K major layout", op.full),
                        ));
                    }
                }
            }
            GmmaArgs::Scales => {
                if args.len() > 2 || !args.iter().all(|s| is_scale_in(s)) {
                    return Err(bad_args("takes at most <GMMA::ScaleIn, GMMA::ScaleIn> (K-major only)"));
                }
            }
            GmmaArgs::Plain => {
                if op.args.is_some() {
                    return Err(bad_args("takes no template arguments"));
                }
            }
        }
        let a = if ss { lay(MMA, &ab_layout(64, k))? } else { lay(MMA, a_rs_layout(k))? };
        let c = format!("((_4,_8,_4),(_2,_2,_{})):((_128,_1,_16),(_64,_8,_512))", n / 8);
        return Ok(Some(MmaTraits::in_registers(
            op.full.clone(),
            parse_tuple(MMA, &format!("(_64,_{n},_{k})"))?,
            lay(MMA, "_128:_1")?,
            [a, lay(MMA, &ab_layout(n, k))?, lay(MMA, &c)?],
            f.vals.map(String::from),
        )));
    }
    Ok(None)
}

fn parse_tuple(op: &'static str, s: &str) -> Result<IntTuple> {
    s.parse::<IntTuple>().map_err(|e| Error::new(e.kind(), op, format!("table literal '{s}' does not parse: {e}")))
}

/// The op a traits spelling names: `MMA_Traits<Op>` (or `Copy_Traits<Op>`,
/// `kind` saying which) is `Op`; `..._Traits<Op, params...>` is
/// `Op<params...>`, the op whose parameters its traits carry; any other
/// name is itself.
fn traits_of(kind: &'static str, name: OpName) -> Result<OpName> {
    if name.base != kind {
        return Ok(name);
    }
    match name.args.as_deref() {
        Some([inner, params @ ..]) => {
            let text = if params.is_empty() { inner.clone() } else { format!("{inner}<{}>", params.join(",")) };
            let op = split_op(kind, &text)?;
            // CuTe specializes the traits for operations only: the primary
            // template of `MMA_Traits<MMA_Traits<Op>>` static_asserts
            if op.base == kind {
                return Err(Error::new(
                    ErrorKind::Inadmissible,
                    kind,
                    format!("'{}': the traits of a traits type are not defined ({kind} takes an operation)", name.full),
                ));
            }
            Ok(op)
        }
        _ => Ok(name),
    }
}

/// The traits of an MMA operation named as in CuTe C++ (CuTe's `MMA_Traits<Op>`).
///
/// Knows: every `mma.sync` op of `mma_traits_sm70.hpp` (`SM70_8x8x4_*_{TN,NT,NN,TT}`),
/// `_sm75.hpp`, `_sm80.hpp` (f16/bf16/tf32/f64/complex, s8/u8 and s4/u4 with
/// `_SATURATE`, 1-bit `XORPOPC`/`ANDPOPC`; not `SM80_16x8x128_S32U1U1S32_TN_*`,
/// whose CuTe `ALayout` is malformed) and `_sm90.hpp` (f64, complex);
/// `UniversalFMA<D[,A[,B[,C]]]>` for any type names (CuTe's defaults `A = D`,
/// `B = A`, `C = D`); and every SM90 GMMA op of `mma_traits_sm90_gmma(_ext).hpp`,
/// `SM90_64x{N}x{K}_{DAB}_{SS|RS}[_TN][_SATURATE]`: f16/bf16 (K 16; template
/// arguments `<GMMA::Major::K|MN, GMMA::Major::K|MN[, GMMA::ScaleIn, ...]>`,
/// optional: a bare name means K, K), tf32 (K 8, `_TN`), fp8 e4m3/e5m2 (K 32,
/// `_TN`; optional `<GMMA::ScaleIn, ...>`), s8/u8 (K 32, `_TN[_SATURATE]`);
/// the SM100 vector FMAs `SM100_{2x1x1,1x2x1}_F32F32F32F32`; every tcgen05 op of
/// `mma_traits_sm100.hpp` (`SM100_MMA_{TF32,F16BF16,S8,F8F6F4,MXF8F6F4,MXF4,MXF4NVF4}[_2x1SM]_{SS,TS}[_SPARSE|_SCALED]<...>`,
/// `SM103::SM103_MXF4_ULTRA[_2x1SM]_SS_VS<...>`, and the two plain ops whose traits
/// carry the parameters, `MMA_Traits<SM100_MMA_F8F6F4[_2x1SM]_SS, a, b, c, C<M>, C<N>, ...>`),
/// with the M, N, majors, vector sizes and types CuTe's `static_assert`s allow (an
/// `Inadmissible` error naming the rule otherwise); and the SM120 ops
/// (`SM120_16x8x32_TN<a,b,c>`, `SM120::BLOCKSCALED::..._VS<a,b,c,sf,VS>`,
/// `SM120::SPARSE::...`) for the types CuTe specializes them for.
/// Whitespace and a leading `cute::` are ignored.
///
/// Pre: none — any text. Post: the traits, layouts transcribed from CuTe (each
/// prints as CuTe prints it); an `UnknownName` error (with a "did you mean")
/// for an op kute does not know, a `Parse` error for unbalanced template
/// arguments, a `Mismatch` error for template arguments of the wrong kind, an
/// `Inadmissible` error for an RS GMMA with an MN-major A (CuTe's `static_assert`).
///
/// ```
/// use kute::atom::traits::mma_traits;
/// let t = mma_traits("SM90_64x64x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::MN>").unwrap();
/// assert_eq!(t.a.to_string(), "(_128,(_64,_16)):(_0,(_1,_64))");
/// assert_eq!(t.c.to_string(), "((_4,_8,_4),(_2,_2,_8)):((_128,_1,_16),(_64,_8,_512))");
/// assert_eq!(mma_traits("UniversalFMA<float,float,float,float>").unwrap().thr_id.to_string(), "_1:_0");
/// let e = mma_traits("SM80_16x8x16_F16F16F16F16").unwrap_err();
/// assert_eq!(e.kind(), kute::ErrorKind::UnknownName);
/// assert!(e.message().contains("did you mean 'SM80_16x8x16_F16F16F16F16_TN'"));
/// ```
pub fn mma_traits(op: &str) -> Result<MmaTraits> {
    // `MMA_Traits<Op, params...>`: the traits of a plain op struct whose
    // parameters the traits carry (`SM100_MMA_F8F6F4_SS`)
    let name = traits_of(MMA, split_op(MMA, op)?)?;
    if name.base == "UniversalFMA" {
        let args = name.args.as_deref().unwrap_or(&[]);
        if args.is_empty() || args.len() > 4 {
            return Err(Error::new(ErrorKind::Mismatch, MMA, format!("'{}': takes <D[,A[,B[,C]]]>", name.full)));
        }
        let d = args[0].clone();
        let a = args.get(1).cloned().unwrap_or_else(|| d.clone());
        let b = args.get(2).cloned().unwrap_or_else(|| a.clone());
        let c = args.get(3).cloned().unwrap_or_else(|| d.clone());
        return Ok(MmaTraits::in_registers(
            name.full,
            parse_tuple(MMA, "(_1,_1,_1)")?,
            lay(MMA, "_1:_0")?,
            [lay(MMA, "(_1,_1):(_0,_0)")?, lay(MMA, "(_1,_1):(_0,_0)")?, lay(MMA, "(_1,_1):(_0,_0)")?],
            [d, a, b, c],
        ));
    }
    if let Some(t) = gmma(&name)? {
        return Ok(t);
    }
    if let Some(t) = sm100::umma(&name)? {
        return Ok(t);
    }
    if let Some(t) = sm120::sm120(&name)? {
        return Ok(t);
    }
    if let Some(f) = fixed_mma().into_iter().find(|f| f.name == name.base) {
        if name.args.is_some() {
            return Err(Error::new(ErrorKind::Mismatch, MMA, format!("'{}' takes no template arguments", name.base)));
        }
        return Ok(MmaTraits::in_registers(
            name.full,
            parse_tuple(MMA, f.mnk)?,
            lay(MMA, f.thr)?,
            [lay(MMA, f.a)?, lay(MMA, f.b)?, lay(MMA, f.c)?],
            f.types.map(String::from),
        ));
    }
    Err(unknown(MMA, &name.full, &mma_op_names()))
}

/// The names of the MMA operations [`mma_traits`] knows, for help and "did you mean".
///
/// Pre: none. Post: every fixed op; `UniversalFMA<float,float,float,float>`
/// (standing for any types); every GMMA op as its bare name (for f16/bf16
/// meaning K-major A and B). Each name builds with [`mma_traits`].
///
/// ```
/// let names = kute::atom::traits::mma_op_names();
/// assert!(names.iter().any(|n| n == "SM80_16x8x16_F32BF16BF16F32_TN"));
/// assert!(names.iter().any(|n| n == "SM90_64x200x32_F32E4M3E5M2_RS_TN"));
/// assert!(names.iter().all(|n| kute::atom::traits::mma_traits(n).is_ok()));
/// ```
pub fn mma_op_names() -> Vec<String> {
    let mut v: Vec<String> = fixed_mma().into_iter().map(|f| f.name).collect();
    v.push("UniversalFMA<float,float,float,float>".into());
    v.extend(sm100::umma_op_names());
    v.extend(sm120::sm120_op_names());
    for f in gmma_families() {
        for n in (8..=256).step_by(8).filter(|&n| gmma_n_ok(&f, n)) {
            for src in ["SS", "RS"] {
                match f.args {
                    GmmaArgs::Majors => v.push(format!("SM90_64x{n}x{}_{}_{src}", f.k, f.types)),
                    GmmaArgs::Scales => v.push(format!("SM90_64x{n}x{}_{}_{src}_TN", f.k, f.types)),
                    GmmaArgs::Plain => {
                        v.push(format!("SM90_64x{n}x{}_{}_{src}_TN", f.k, f.types));
                        v.push(format!("SM90_64x{n}x{}_{}_{src}_TN_SATURATE", f.k, f.types));
                    }
                }
            }
        }
    }
    v
}

// ---------------------------------------------------------------------------------------------
// Copy

/// ldmatrix (`copy_traits_sm75.hpp`): (name, SrcLayout, DstLayout); RefLayout = DstLayout.
const LDSM: [(&str, &str, &str); 6] = [
    ("U32x1_LDSM_N", "((_8,_4),_128):((_128,_0),_1)", "(_32,_32):(_32,_1)"),
    ("U32x2_LDSM_N", "((_16,_2),_128):((_128,_0),_1)", "(_32,(_32,_2)):(_32,(_1,_1024))"),
    ("U32x4_LDSM_N", "(_32,_128):(_128,_1)", "(_32,(_32,_4)):(_32,(_1,_1024))"),
    ("U16x2_LDSM_T", "((_8,_4),_128):((_128,_0),_1)", "((_4,_8),(_16,_2)):((_256,_16),(_1,_128))"),
    ("U16x4_LDSM_T", "((_16,_2),_128):((_128,_0),_1)", "((_4,_8),(_16,_2,_2)):((_256,_16),(_1,_128,_1024))"),
    ("U16x8_LDSM_T", "(_32,_128):(_128,_1)", "((_4,_8),(_16,_2,_4)):((_256,_16),(_1,_128,_1024))"),
];

/// The element types listed for `UniversalCopy<T>` in [`copy_op_names`].
const COPY_TYPES: [&str; 14] = [
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "uint128_t",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "half_t",
    "bfloat16_t",
    "tfloat32_t",
    "float",
    "double",
];

/// cp.async ops: (name, the byte widths its arch op accepts).
const CP_ASYNC: [(&str, &[i64]); 4] = [
    ("SM80_CP_ASYNC_CACHEALWAYS", &[32, 64, 128]),
    ("SM80_CP_ASYNC_CACHEGLOBAL", &[128]),
    ("SM80_CP_ASYNC_CACHEALWAYS_ZFILL", &[32, 64, 128]),
    ("SM80_CP_ASYNC_CACHEGLOBAL_ZFILL", &[128]),
];

fn copy_of(name: String, thr: &str, src: &str, dst: &str, ref_is_src: bool) -> Result<CopyTraits> {
    let (src, dst) = (lay(COPY, src)?, lay(COPY, dst)?);
    let r#ref = if ref_is_src { src.clone() } else { dst.clone() };
    Ok(CopyTraits { name, thr_id: lay(COPY, thr)?, src, dst, r#ref, val_id: None })
}

/// `Copy_Traits<SM90_BULK_COPY_G2S|S2G, C<NumBitsPerTMA>[, uint64_t*]>`
/// (`copy_traits_sm90_tma.hpp`): one thread moving `NumBitsPerTMA` bits, a
/// whole number of 16 bytes (CuTe's `static_assert`). The store takes no barrier.
fn bulk_copy(name: &OpName) -> Result<CopyTraits> {
    let g2s = name.base == "SM90_BULK_COPY_G2S";
    let form = if g2s { "<C<NumBitsPerTMA>[, uint64_t*]>" } else { "<C<NumBitsPerTMA>>" };
    let bad = || {
        Error::new(
            ErrorKind::Mismatch,
            COPY,
            format!("'{}': the traits take {form} (Copy_Traits<{}, ...>)", name.full, name.base),
        )
    };
    let args = name.args.as_deref().unwrap_or(&[]);
    match args {
        [_] => {}
        [_, b] if g2s && b == "uint64_t*" => {}
        _ => return Err(bad()),
    }
    let n_text = args[0].trim_start_matches("cute::");
    let n = ["C<", "Int<", "_"]
        .iter()
        .find_map(|w| n_text.strip_prefix(w).map(|r| r.strip_suffix('>').unwrap_or(r)))
        .and_then(|v| v.parse::<i64>().ok())
        .ok_or_else(bad)?;
    if n <= 0 || (n / 8) % 16 != 0 {
        return Err(Error::new(
            ErrorKind::Inadmissible,
            COPY,
            format!(
                "'{}': Bulk Copy requires copy vector size align to 16B ({n} bits is not a multiple of 128)",
                name.full
            ),
        ));
    }
    let tv = format!("(_1,_{n}):(_0,_1)");
    copy_of(name.full.clone(), "_1:_0", &tv, &tv, true)
}

/// The width in bits of a type argument (`cute::`/`cutlass::` prefixes ignored).
fn type_bits(name: &OpName, t: &str) -> Result<i64> {
    sizeof_bits(strip_ns(t)).ok_or_else(|| {
        Error::new(
            ErrorKind::UnknownName,
            COPY,
            format!("'{}': '{t}' is not an element type CuTe's sizeof_bits knows{}", name.full, type_hint(strip_ns(t))),
        )
    })
}

/// The traits of a copy operation named as in CuTe C++ (CuTe's `Copy_Traits<Op>`), layouts in bits.
///
/// Knows: `UniversalCopy<S[,D]>` (S, D element types of at least 8 bits; `D = S`
/// by default); `DefaultCopy`, `AutoVectorizingCopy` and
/// `AutoVectorizingCopyWithAssumedAlignment<8|16|32|64|128>`;
/// `SM75_U32x{1,2,4}_LDSM_N`, `SM75_U16x{2,4,8}_LDSM_T`, `SM75_U32x1_MOVM_T`;
/// `SM90_U32x{1,2,4}_STSM_N`, `SM90_U16x{2,4,8}_STSM_T`;
/// `SM80_CP_ASYNC_CACHEALWAYS[_ZFILL]<S[,D]>` (4, 8 or 16 bytes) and
/// `SM80_CP_ASYNC_CACHEGLOBAL[_ZFILL]<S[,D]>` (16 bytes); every op of
/// `copy_traits_sm100.hpp` (`SM100_TMEM_LOAD_*`, `SM100_TMEM_STORE_*`,
/// `SM100_UTCCP_*`, the SM100 `ldmatrix`/`stmatrix`, the 256-bit loads and stores);
/// the SM90 bulk copies `SM90_BULK_COPY_AUTO` (its layouts `(_1,_1):(_0,_0)`
/// like `AutoVectorizingCopy`'s) and `SM90_BULK_COPY_G2S|S2G<C<NumBitsPerTMA>>`
/// (a multiple of 128 bits, `Copy_Traits<SM90_BULK_COPY_G2S, Int<N>>` as CuTe writes it);
/// the SM100 2-SM TMA loads of `copy_traits_sm100_tma.hpp` as their traits take
/// them, `Copy_Traits<SM100_TMA_2SM_LOAD[_MULTICAST]_OP, C<NumBitsPerTMA>>` (the
/// ops without `_OP` also take the TMA's auxiliary parameters).
/// Whitespace and a leading `cute::` are ignored.
///
/// Pre: none — any text. Post: the traits, layouts transcribed from CuTe (each
/// prints as CuTe prints it); an `UnknownName` error (with a "did you mean") for
/// an op or element type kute does not know, a `Parse` error for unbalanced
/// template arguments, a `Mismatch` error for the wrong number of them, an
/// `Inadmissible` error for widths the op's CuTe `static_assert`s reject.
///
/// ```
/// use kute::atom::traits::copy_traits;
/// let t = copy_traits("SM90_U32x4_STSM_N").unwrap();
/// assert_eq!(t.src.to_string(), "(_32,(_32,_4)):(_32,(_1,_1024))");
/// assert_eq!(t.dst.to_string(), "(_32,_128):(_128,_1)");
/// assert_eq!(copy_traits("DefaultCopy").unwrap().src.to_string(), "(_1,_1):(_0,_0)");
/// assert_eq!(copy_traits("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>").unwrap().dst.to_string(), "(_1,_128):(_0,_1)");
/// assert!(copy_traits("SM80_CP_ASYNC_CACHEGLOBAL<uint32_t>").is_err());
/// ```
pub fn copy_traits(op: &str) -> Result<CopyTraits> {
    // `Copy_Traits<Op, params...>`: an op whose traits take parameters (the
    // TMA ops' `NumBitsPerTMA`)
    let name = traits_of(COPY, split_op(COPY, op)?)?;
    let base = name.base.as_str();
    let args = name.args.as_deref();
    let no_args = |t: Result<CopyTraits>| match args {
        None => t,
        Some(_) => Err(Error::new(ErrorKind::Mismatch, COPY, format!("'{base}' takes no template arguments"))),
    };
    // AutoVectorizingCopyWithAssumedAlignment<Bits>, whatever Bits: (_1,_1):(_0,_0)
    let auto = || copy_of(name.full.clone(), "_1:_0", "(_1,_1):(_0,_0)", "(_1,_1):(_0,_0)", true);
    match base {
        "DefaultCopy" | "AutoVectorizingCopy" => return no_args(auto()),
        "AutoVectorizingCopyWithAssumedAlignment" => {
            let bits = match args {
                None | Some([]) => 128,
                Some([b]) => b.parse::<i64>().unwrap_or(0),
                Some(_) => 0,
            };
            if ![8, 16, 32, 64, 128].contains(&bits) {
                return Err(Error::new(
                    ErrorKind::Inadmissible,
                    COPY,
                    format!("'{}': expected MaxVecBits to be 8, 16, 32, 64 or 128", name.full),
                ));
            }
            return auto();
        }
        // SM90_BULK_COPY_AUTO<OpArgs...>: no vector width until `copy` picks one
        "SM90_BULK_COPY_AUTO" => {
            return match args {
                None | Some([]) => auto(),
                Some([a]) if a == "uint64_t*" => auto(),
                Some(_) => Err(Error::new(
                    ErrorKind::Mismatch,
                    COPY,
                    format!("'{}': the traits take no arguments or the barrier's uint64_t*", name.full),
                )),
            }
        }
        "SM90_BULK_COPY_G2S" | "SM90_BULK_COPY_S2G" => return bulk_copy(&name),
        "SM75_U32x1_MOVM_T" => {
            return no_args(copy_of(name.full.clone(), T32, "(_32,_32):(_32,_1)", "(_32,_32):(_32,_1)", false))
        }
        _ => {}
    }
    if let Some(t) = sm100_copy::sm100_copy(&name)? {
        return Ok(t);
    }
    if let Some((_, src, dst)) = LDSM.iter().find(|(n, _, _)| base.strip_prefix("SM75_") == Some(*n)) {
        return no_args(copy_of(name.full.clone(), T32, src, dst, false));
    }
    if let Some((_, ld_src, ld_dst)) =
        LDSM.iter().find(|(n, _, _)| base.strip_prefix("SM90_") == Some(n.replace("LDSM", "STSM").as_str()))
    {
        // STSM's source is LDSM's destination and vice versa; RefLayout = SrcLayout
        return no_args(copy_of(name.full.clone(), T32, ld_dst, ld_src, true));
    }
    let cp_async = CP_ASYNC.iter().find(|(n, _)| *n == base);
    if base == "UniversalCopy" || cp_async.is_some() {
        let (s, d) = match args {
            Some([s]) => (s, s),
            Some([s, d]) => (s, d),
            _ => return Err(Error::new(ErrorKind::Mismatch, COPY, format!("'{}': takes <S[,D]>", name.full))),
        };
        let (sb, db) = (type_bits(&name, s)?, type_bits(&name, d)?);
        let inadmissible = |why: &str| Error::new(ErrorKind::Inadmissible, COPY, format!("'{}': {why}", name.full));
        if let Some((_, widths)) = cp_async {
            if sb != db {
                return Err(inadmissible("cp.async requires sizeof(src_value_type) == sizeof(dst_value_type)"));
            }
            if !widths.contains(&sb) {
                return Err(inadmissible("cp.async sizeof(TS) is not supported"));
            }
        } else if sb < 8 || db < 8 {
            return Err(inadmissible("UniversalCopy needs types of at least 8 bits"));
        }
        return copy_of(
            name.full.clone(),
            "_1:_0",
            &format!("(_1,_{sb}):(_0,_1)"),
            &format!("(_1,_{db}):(_0,_1)"),
            true,
        );
    }
    Err(unknown(COPY, &name.full, &copy_op_names()))
}

/// The names of the copy operations [`copy_traits`] knows, for help and "did you mean".
///
/// Pre: none. Post: every fixed op; `UniversalCopy<T>` for common element types
/// (standing for any type of at least 8 bits); the cp.async ops for every width
/// they accept. Each name builds with [`copy_traits`].
///
/// ```
/// let names = kute::atom::traits::copy_op_names();
/// assert!(names.iter().any(|n| n == "SM75_U16x8_LDSM_T"));
/// assert!(names.iter().all(|n| kute::atom::traits::copy_traits(n).is_ok()));
/// ```
pub fn copy_op_names() -> Vec<String> {
    let mut v: Vec<String> = COPY_TYPES.iter().map(|t| format!("UniversalCopy<{t}>")).collect();
    v.push("DefaultCopy".into());
    v.push("AutoVectorizingCopy".into());
    v.extend([8, 16, 32, 64, 128].map(|b| format!("AutoVectorizingCopyWithAssumedAlignment<{b}>")));
    v.extend(LDSM.iter().map(|(n, _, _)| format!("SM75_{n}")));
    v.push("SM75_U32x1_MOVM_T".into());
    v.extend(LDSM.iter().map(|(n, _, _)| format!("SM90_{}", n.replace("LDSM", "STSM"))));
    for (n, widths) in CP_ASYNC {
        for &w in widths {
            v.push(format!("{n}<uint{w}_t>"));
        }
    }
    v.push("SM90_BULK_COPY_AUTO".into());
    v.extend(["SM90_BULK_COPY_G2S<C<128>>".into(), "SM90_BULK_COPY_S2G<C<128>>".into()]);
    v.extend(sm100_copy::sm100_copy_names());
    v
}

// ---------------------------------------------------------------------------------------------
// The catalogue: every atom kute knows, by family, for help screens

/// Which kind of operation an [`AtomFamily`] names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomKind {
    /// An MMA operation (`Op{}`, `MMA_Atom<Op>{}`).
    Mma,
    /// A copy operation (`Copy_Atom<Op,T>{}`).
    Copy,
}

/// One line of [`atom_catalog`]: an operation, or a family of operations
/// written as a pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtomFamily {
    /// MMA or copy.
    pub kind: AtomKind,
    /// The name, or the pattern of names: `{N}` a number, `{SS,RS}` one of
    /// the choices, `[...]` optional, `<S[,D]>` template arguments.
    pub form: String,
    /// One name of the family, as [`mma_traits`] or [`copy_traits`] takes it.
    pub example: String,
    /// What the family is: its tile and types, or its parameters.
    pub note: String,
}

/// Every MMA and copy operation kute knows, by family, in CuTe's header
/// order: what `kute functions` and the session's `:help atoms` list.
///
/// Pre: none. Post: each fixed MMA operation on its own line (its `Shape_MNK`
/// and `D = A * B + C` types); each SM90 GMMA family as one pattern with its
/// N; `UniversalFMA`; the copy operations (`UniversalCopy<S[,D]>`, cp.async,
/// ldmatrix, stmatrix, movmatrix, the auto-vectorizing copies). Every
/// example builds with [`mma_traits`] or [`copy_traits`], and every name of
/// [`mma_op_names`] and [`copy_op_names`] is covered by a line.
///
/// ```
/// use kute::atom::traits::{atom_catalog, copy_traits, mma_traits, AtomKind};
/// let all = atom_catalog();
/// assert!(all.iter().any(|f| f.form == "SM80_16x8x16_F32F16F16F32_TN"));
/// assert!(all.iter().any(|f| f.form.starts_with("SM90_64x{N}x16_F32F16F16_{SS,RS}")));
/// for f in &all {
///     match f.kind {
///         AtomKind::Mma => assert!(mma_traits(&f.example).is_ok(), "{}", f.example),
///         AtomKind::Copy => assert!(copy_traits(&f.example).is_ok(), "{}", f.example),
///     }
/// }
/// ```
pub fn atom_catalog() -> Vec<AtomFamily> {
    let mma = |form: String, example: String, note: String| AtomFamily { kind: AtomKind::Mma, form, example, note };
    let copy = |form: &str, example: &str, note: &str| AtomFamily {
        kind: AtomKind::Copy,
        form: form.to_string(),
        example: example.to_string(),
        note: note.to_string(),
    };
    let types = |t: [&str; 4]| format!("{} = {} * {} + {}", t[0], t[1], t[2], t[3]);
    let mut v: Vec<AtomFamily> = fixed_mma()
        .into_iter()
        .map(|f| mma(f.name.clone(), f.name, format!("{}, {}", f.mnk, types(f.types))))
        .collect();
    v.push(mma(
        "UniversalFMA<D[,A[,B[,C]]]>".into(),
        "UniversalFMA<float,float,float,float>".into(),
        "one thread, (_1,_1,_1), any types (A = D, B = A, C = D by default)".into(),
    ));
    for f in gmma_families() {
        let ns: Vec<i64> = (8..=256).step_by(8).filter(|&n| gmma_n_ok(&f, n)).collect();
        let n_text = match f.args {
            GmmaArgs::Plain => "N = 8, 16, 24, 32, 48, 64, ..., 256 (8, 24 and the multiples of 16)".to_string(),
            _ => format!("N = 8, 16, ..., {} (the multiples of 8)", ns.last().copied().unwrap_or(256)),
        };
        let (form, suffix, args) = match f.args {
            GmmaArgs::Majors => {
                ("{SS,RS}[<GMMA::Major,GMMA::Major>]", "", "; majors K or MN (RS: A K-major), K,K if omitted")
            }
            GmmaArgs::Scales => ("{SS,RS}_TN", "_TN", "; K-major"),
            GmmaArgs::Plain => ("{SS,RS}_TN[_SATURATE]", "_TN", "; K-major"),
        };
        v.push(mma(
            format!("SM90_64x{{N}}x{}_{}_{form}", f.k, f.types),
            format!("SM90_64x64x{}_{}_SS{suffix}", f.k, f.types),
            format!("wgmma, (_64,N,_{}), {}; {n_text}{args}", f.k, types(f.vals)),
        ));
    }
    v.extend(sm100::umma_catalog());
    v.extend(sm120::sm120_catalog());
    v.push(copy(
        "UniversalCopy<S[,D]>",
        "UniversalCopy<uint128_t>",
        "one thread copies one S (any type of 8 bits or more)",
    ));
    v.push(copy("DefaultCopy", "DefaultCopy", "one thread, one element"));
    v.push(copy("AutoVectorizingCopy", "AutoVectorizingCopy", "one thread, one element (vectorized where aligned)"));
    v.push(copy(
        "AutoVectorizingCopyWithAssumedAlignment<8|16|32|64|128>",
        "AutoVectorizingCopyWithAssumedAlignment<128>",
        "one thread, one element, the alignment assumed in bits",
    ));
    v.push(copy(
        "SM90_BULK_COPY_AUTO",
        "SM90_BULK_COPY_AUTO",
        "bulk copy (cp.async.bulk) global <-> shared, one thread; copy() picks the width",
    ));
    v.push(copy(
        "SM90_BULK_COPY_{G2S,S2G}<C<{N}>>",
        "SM90_BULK_COPY_G2S<C<128>>",
        "bulk copy of N bits (a multiple of 128), one thread",
    ));
    for (n, widths) in CP_ASYNC {
        let bytes: Vec<String> = widths.iter().map(|w| (w / 8).to_string()).collect();
        let bytes = match bytes.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        };
        let form = format!("{n}<S[,D]>");
        let note = format!("cp.async global -> shared, one thread, S of {bytes} bytes");
        v.push(copy(&form, &format!("{n}<uint128_t>"), &note));
    }
    for (n, _, _) in LDSM {
        let name = format!("SM75_{n}");
        v.push(copy(&name, &name, "ldmatrix shared -> registers, 32 threads"));
    }
    v.push(copy("SM75_U32x1_MOVM_T", "SM75_U32x1_MOVM_T", "movmatrix: an 8x8 transpose in registers, 32 threads"));
    for (n, _, _) in LDSM {
        let name = format!("SM90_{}", n.replace("LDSM", "STSM"));
        v.push(copy(&name, &name, "stmatrix registers -> shared, 32 threads"));
    }
    v.extend(sm100_copy::sm100_copy_catalog());
    v
}
