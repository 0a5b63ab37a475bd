//! The fused epilogue's device functions and split-K's finishing kernel,
//! shared by the SM90 and SM80 GEMMs.

use super::args;
use crate::gemm_sm90::{Activation, BiasMode, EpilogueOp};
use crate::plan::SplitK;
use crate::Elem;

/// The fused epilogue's parameters (`alpha`, and the bias's pointer), or
/// nothing.
pub(crate) fn op_params(op: Option<EpilogueOp>) -> String {
    match op {
        None => String::new(),
        Some(op) => {
            let beta = if op.beta { ", const float beta" } else { "" };
            let bias = if op.bias == BiasMode::None { "" } else { ", const float* __restrict__ bias" };
            format!(", const float alpha{beta}{bias}")
        }
    }
}

/// The fused epilogue as a device function `NAME_op(v, c, row, col, alpha,
/// beta, bias, M, N)`: `activation(alpha · v + beta · c + bias)`, the bias
/// read where its row or column is inside `C` (edge tiles hold elements
/// past it).
pub(crate) fn op_fn(name: &str, op: EpilogueOp) -> String {
    let bias = match op.bias {
        BiasMode::None => "",
        BiasMode::PerRow => " + (row < M ? bias[row] : 0.f)",
        BiasMode::PerColumn => " + (col < N ? bias[col] : 0.f)",
    };
    let c = if op.beta { " + beta * c" } else { "" };
    let act = match op.activation {
        Activation::None => "return t;".to_string(),
        Activation::Relu => "return fmaxf(t, 0.f);".to_string(),
        Activation::Gelu => {
            // erf(t/√2) without a branch (erff's two ranges diverge within
            // a warp): Abramowitz and Stegun 7.1.26, within 6e-7 in f32
            let [p, a1, a2, a3, a4, a5] = crate::gemm_sm90::ERF_AS_7_1_26.map(|c| format!("{c:e}f"));
            format!(
                "const float x = fabsf(t) * 0.70710678118654752f;\n  const float u = __fdividef(1.f, 1.f + {p} * x);\n  const float q = u * ({a1} + u * ({a2} + u * ({a3} + u * ({a4} + u * {a5}))));\n  const float erf = 1.f - q * __expf(-x * x);\n  return 0.5f * t * (1.f + copysignf(erf, t));"
            )
        }
        Activation::Silu => "return __fdividef(t, 1.f + __expf(-t));".to_string(),
    };
    format!(
        "// the fused epilogue: activation(alpha * v + beta * c + bias)\n__device__ __forceinline__ float {name}_act(float t) {{\n  {act}\n}}\n__device__ __forceinline__ float {name}_op(float v, float c, long long row, long long col, float alpha, float beta, const float* bias, long long M, long long N) {{\n  (void)c; (void)row; (void)col; (void)beta; (void)bias; (void)M; (void)N;\n  return {name}_act(alpha * v{c}{bias});\n}}\n"
    )
}

/// Split-K's last kernel `NAME_finish(W, C, sizes, op, S)` (`sizes` the
/// GEMM's size parameters, which name `M`, `N` and `L`): each element's
/// shares summed in order (the result does not depend on the schedule) into
/// C at the offset `x.finish` gives, converted.
pub(crate) fn finish_kernel(
    name: &str,
    (c_elem, op): (Elem, Option<EpilogueOp>),
    size_params: &str,
    x: &SplitK,
) -> String {
    let c_type = if c_elem == Elem::F32 { "float" } else { "unsigned short" };
    let cvt = if c_elem == Elem::Bf16 { "bf16" } else { "f16" };
    let put = if c_elem == Elem::F32 {
        "C[at] = sum;".to_string()
    } else {
        format!(r#"unsigned short h; asm("cvt.rn.{cvt}.f32 %0, %1;" : "=h"(h) : "f"(sum)); C[at] = h;"#)
    };
    let (sizes, l, ws) = (format!("{size_params}{}", op_params(op)), args(&x.finish), args(&x.w_share));
    // C's value before the call, where the epilogue reads it
    let (c_in, beta) = match op {
        Some(op) if op.beta => (
            match c_elem {
                Elem::F32 => "C[at]".to_string(),
                Elem::Bf16 => "__bf162float_bits(C[at])".to_string(),
                _ => "__half2float_bits(C[at])".to_string(),
            },
            "beta",
        ),
        _ => ("0.f".to_string(), "0.f"),
    };
    let apply = match op {
        None => String::new(),
        Some(op) if op.bias == BiasMode::None => format!("sum = {name}_op(sum, {c_in}, 0, 0, alpha, {beta}, nullptr, 0, 0);"),
        Some(_) => format!(
            "const auto e = {name}_finish_coord(i{});\n    sum = {name}_op(sum, {c_in}, e.c[1], e.c[0], alpha, {beta}, bias, M, N);",
            args(&x.finish_coord)
        ),
    };
    format!(
        r#"// split-K's third kernel: the shares' f32 sums, added in order, into C
extern "C" __global__ void {name}_finish(const float* __restrict__ W, {c_type}* __restrict__ C{sizes}, const long long S) {{
  const long long total = M * N * L;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total; i += (long long)gridDim.x * blockDim.x) {{
    float sum = 0.f;
    for (long long s = 0; s < S; ++s) sum += W[{name}_w_share(s{ws}) + i];
    const long long at = {name}_finish_at(i{l});
    {apply}
    {put}
  }}
}}
"#
    )
}
