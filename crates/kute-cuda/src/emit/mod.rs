//! The emit layer: CUDA C++ text from a plan of [`crate::plan`] (no layout
//! algebra, no expression parsing: the layouts arrive computed, and each is
//! written as a function by [`kute::codegen::cuda`]).
//!
//! The PTX wrappers the kernels call live once each in `device/*.cuh`; a
//! kernel's source pastes the ones it uses (NVRTC is given no include path,
//! so the generated sources include nothing).

pub(crate) mod attention_sm80;
pub(crate) mod attention_sm90;
pub(crate) mod copy;
pub(crate) mod epilogue;
pub(crate) mod gemm_sm80;
pub(crate) mod gemm_sm90;
pub(crate) mod softmax;
pub(crate) mod transpose;

use crate::{Elem, Result};
use kute::codegen::cuda::{emit, Dynamic};
use kute::{AnyLayout, Int, Layout};
use std::fmt::Write;

/// The device headers, each the wrappers of one family of PTX instructions.
pub(crate) mod device {
    /// `cp.async` 16-byte copies, global to shared (with a zero-filling form).
    pub(crate) const CP_ASYNC: &str = include_str!("device/cp_async.cuh");
    /// `ldmatrix` of 16-bit 8 x 8 matrices (plain and transposed).
    pub(crate) const LDMATRIX: &str = include_str!("device/ldmatrix.cuh");
    /// SM80 `mma.sync` m16n8k16 with f32 accumulators.
    pub(crate) const MMA_SM80: &str = include_str!("device/mma_sm80.cuh");
    /// SM90 `wgmma` with both operands in shared memory, each `N` and
    /// input type the GEMMs use.
    pub(crate) const WGMMA: &str = include_str!("device/wgmma.cuh");
    /// The `wgmma` shared-memory descriptor of a 128-byte-swizzled tile.
    pub(crate) const WGMMA_DESC: &str = include_str!("device/wgmma_desc.cuh");
    /// The tensor-map type and the TMA bulk tensor copies.
    pub(crate) const TMA: &str = include_str!("device/tma.cuh");
    /// Shared-memory barriers: address, wait on a phase, arrive.
    pub(crate) const MBARRIER: &str = include_str!("device/mbarrier.cuh");
    /// A 16-byte global store of four words.
    pub(crate) const ST_GLOBAL: &str = include_str!("device/st_global.cuh");
    /// 16-bit float bits to f32.
    pub(crate) const CVT: &str = include_str!("device/cvt.cuh");
    /// `ex2.approx`: 2^x by the special-function unit.
    pub(crate) const EX2: &str = include_str!("device/ex2.cuh");
    /// Pairs of f32 rounded into 32-bit words of two f16 or bf16.
    pub(crate) const CVT_PACK: &str = include_str!("device/cvt_pack.cuh");
    /// A value pinned where it is computed (not recomputed inside a loop).
    pub(crate) const PIN: &str = include_str!("device/pin.cuh");
}

/// An integer of the plan as C: a literal, or for sizes given at launch the
/// expression of the kernel's parameters (`M`, `N`, `K`, ...).
pub(crate) fn c(x: Int) -> String {
    if x.is_symbolic() {
        x.to_sym().to_c()
    } else {
        format!("{}LL", x.value())
    }
}

/// The arguments after the coordinate of a layout function of the plan:
/// the unknowns a symbolic layout takes (`, M, K`), nothing otherwise.
pub(crate) fn args(l: &Layout) -> String {
    kute::codegen::cuda::parameters(&AnyLayout::Layout(l.clone())).iter().map(|u| format!(", {u}")).collect()
}

/// The calls of a tile grid's mode functions at `(i, j[, b])`:
/// `NAME_F0(i)`, `NAME_F1(j)` and, with a batch, `NAME_FB(b)`, each with the
/// unknowns its layout takes.
pub(crate) fn mode_calls(
    name: &str,
    (f0, f1, fb): (&str, &str, &str),
    m: &crate::plan::TileModes,
    (i, j): (&str, &str),
) -> Vec<String> {
    let mut parts = vec![format!("{name}_{f0}({i}{})", args(&m.first)), format!("{name}_{f1}({j}{})", args(&m.second))];
    if let Some(l) = &m.batch {
        parts.push(format!("{name}_{fb}(b{})", args(l)));
    }
    parts
}

/// The statements defining `var`, a coordinate of `rank` components: the
/// sum of the coordinates the calls `parts` give (a tile grid's modes,
/// each evaluated without a division).
pub(crate) fn coordinate_sum(var: &str, parts: &[String], rank: usize) -> String {
    let mut s = String::new();
    for (k, part) in parts.iter().enumerate() {
        s.push_str(&format!("const auto {var}{k} = {part};\n    "));
    }
    let comps: Vec<String> = (0..rank)
        .map(|d| (0..parts.len()).map(|k| format!("{var}{k}.c[{d}]")).collect::<Vec<_>>().join(" + "))
        .collect();
    s.push_str(&format!("const struct {{ long long c[{rank}]; }} {var} = {{{{{}}}}};", comps.join(", ")));
    s
}

/// The kernel parameters `, const long long U` of the unknowns in `xs`, each
/// once, in order of first appearance.
pub(crate) fn unknown_params(xs: &[Int]) -> String {
    let mut names: Vec<String> = Vec::new();
    for x in xs {
        for (u, _) in x.to_sym().unknowns() {
            if !names.contains(&u) {
                names.push(u);
            }
        }
    }
    names.iter().map(|u| format!(", const long long {u}")).collect()
}

/// The name of the vector type of `n` elements of `elem`.
pub(crate) fn vector_type(elem: Elem, n: i64) -> String {
    format!("kute_{elem}x{n}")
}

/// The definition of [`vector_type`]: `n` carriers, aligned to the vector's
/// bytes so that one access moves it (a 16-byte vector is one 128-bit load or
/// store).
pub(crate) fn vector_struct(elem: Elem, n: i64) -> String {
    format!("struct alignas({}) {} {{ {} x[{n}]; }};\n", n * elem.bytes(), vector_type(elem, n), elem.carrier())
}

/// The CUDA function `name(i)` computing layout `l` (kute's emitter).
pub(crate) fn layout_fn(out: &mut String, l: &AnyLayout, name: &str) -> Result<()> {
    out.push_str(&emit(l, name, Dynamic::Literal)?);
    Ok(())
}

/// Same, for a plain layout.
pub(crate) fn plain_fn(out: &mut String, l: &Layout, name: &str) -> Result<()> {
    layout_fn(out, &AnyLayout::Layout(l.clone()), name)
}

/// The header every generated kernel starts with.
pub(crate) fn header(out: &mut String, what: &str) {
    let _ = writeln!(out, "// generated by kute-cuda: {what}");
}

/// The PTX type name of a `wgmma` or `mma` input (`f16`, `bf16`, `e4m3`,
/// `e5m2`).
pub(crate) fn ptx_type(elem: Elem) -> &'static str {
    match elem {
        Elem::Bf16 => "bf16",
        Elem::E4m3 => "e4m3",
        Elem::E5m2 => "e5m2",
        Elem::F16 | Elem::F32 => "f16",
    }
}

/// `xs` combined by `op` as a balanced binary tree (a row's maximum or sum
/// over a thread's registers: a chain of dependent instructions as long as
/// the tree is deep, not as the row).
///
/// Pre: `xs` not empty. Post: the C expression.
pub(crate) fn tree(op: &dyn Fn(&str, &str) -> String, xs: &[String]) -> String {
    match xs {
        [x] => x.clone(),
        _ => op(&tree(op, &xs[..xs.len() / 2]), &tree(op, &xs[xs.len() / 2..])),
    }
}

/// A C initializer list of `v`.
pub(crate) fn list(v: &[i64]) -> String {
    v.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", ")
}
