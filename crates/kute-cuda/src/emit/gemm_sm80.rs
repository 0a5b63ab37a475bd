//! The CUDA text of the SM80 `mma.sync` GEMM and of its reference kernel.

use super::epilogue::{finish_kernel, op_fn, op_params};
use super::{args, c, coordinate_sum, device, header, layout_fn, list, mode_calls, plain_fn, ptx_type, unknown_params};
use crate::gemm::{GemmConfig, THREADS};
use crate::plan::gemm_sm80::{Sm80Plan, SplitOffsets};
use crate::plan::{known_multiple, TileModes};
use crate::{Elem, Result};
use kute::Int;

/// The statements defining `var`, the sum of a tile grid's modes at `(i,
/// j[, b])` (its offset, or with `rank` its coordinate's components), each
/// mode a one-mode layout evaluated without a division.
fn by_mode(name: &str, var: &str, f: &str, m: &TileModes, ij: (&str, &str), rank: Option<usize>) -> String {
    let parts = grid_calls(name, f, m, ij);
    match rank {
        None => format!("const long long {var} = {};", parts.join(" + ")),
        Some(rank) => coordinate_sum(var, &parts, rank),
    }
}

/// The calls of the mode functions [`mode_fns`] defines.
fn grid_calls(name: &str, f: &str, m: &TileModes, ij: (&str, &str)) -> Vec<String> {
    mode_calls(name, (&format!("{f}0"), &format!("{f}1"), &format!("{f}2")), m, ij)
}

/// The functions of a tile grid's modes, `NAME_F0`, `NAME_F1`, `NAME_F2`.
fn mode_fns(s: &mut String, name: &str, f: &str, m: &TileModes) -> Result<()> {
    plain_fn(s, &m.first, &format!("{name}_{f}0"))?;
    plain_fn(s, &m.second, &format!("{name}_{f}1"))?;
    if let Some(l) = &m.batch {
        plain_fn(s, l, &format!("{name}_{f}2"))?;
    }
    Ok(())
}

/// The kernel `name(A, B, C[, sizes])` of the plan `p` (see
/// [`crate::gemm`]); for sizes given at launch it takes the unknowns of
/// `M, N, K`, the leading dimensions, the batch and its strides, in that
/// order, and runs on a grid `(M-tiles, N-tiles, L)`.
pub(crate) fn source(name: &str, p: &Sm80Plan) -> Result<String> {
    let (m, n, k) = p.extents.mnk;
    let rank = p.extents.rank();
    let GemmConfig { bm, bn, bk, stages, a_k_major, b_k_major, c_elem } = p.config;
    let elem = p.elem;
    let (plan_a, plan_b, plan_c) = (&p.plan_a, &p.plan_b, &p.plan_c);
    let mut s = String::new();
    header(
        &mut s,
        &format!(
            "gemm C({m},{n}) {c_elem} = A({m},{k}) * B({n},{k})^T, {elem}, tile ({bm},{bn},{bk}), {stages} stages"
        ),
    );
    s.push_str(&format!("// shared A: {}\n// shared B: {}\n", p.smem_a, p.smem_b));
    for (t, f) in [(&plan_a.tiles, "a_tiles"), (&plan_b.tiles, "b_tiles"), (&plan_c.tiles, "c_tiles")] {
        mode_fns(&mut s, name, f, t)?;
    }
    for (l, f) in [
        (&plan_a.gtile, "a_gtile"),
        (&plan_b.gtile, "b_gtile"),
        (&plan_a.scopy, "a_scopy"),
        (&plan_b.scopy, "b_scopy"),
        (&plan_a.ldsm, "a_frag"),
        (&plan_b.ldsm, "b_frag"),
        (&plan_a.rep, "a_rep"),
        (&plan_b.rep, "b_rep"),
        (&plan_c.frag, "c_frag"),
        (&plan_c.rep, "c_rep"),
        (&plan_c.tile, "c_tile"),
    ] {
        plain_fn(&mut s, l, &format!("{name}_{f}"))?;
    }
    layout_fn(&mut s, &p.smem_a, &format!("{name}_sa"))?;
    layout_fn(&mut s, &p.smem_b, &format!("{name}_sb"))?;
    for (t, f) in [(&plan_a.ctiles, "a_ctiles"), (&plan_b.ctiles, "b_ctiles"), (&plan_c.ctiles, "c_ctiles")] {
        if let Some(t) = t {
            mode_fns(&mut s, name, f, t)?;
        }
    }
    for (l, f) in [(&plan_a.ccopy, "a_ccopy"), (&plan_b.ccopy, "b_ccopy"), (&plan_c.ctile, "c_ctile")] {
        if let Some(l) = l {
            plain_fn(&mut s, l, &format!("{name}_{f}"))?;
        }
    }
    let (mc, nc, kc) = (c(m), c(n), c(k));
    let ct = args(&plan_c.tile);
    let (lda, ldb, ldc) = p.extents.ld;
    let mut sizes = vec![m, n, k, lda, ldb, ldc];
    if let Some((l, (sa, sb, sc))) = p.extents.batch {
        sizes.extend([l, sa, sb, sc]);
    }
    let size_params = unknown_params(&sizes);
    // value pairs stored as one access need every pair aligned: C's rows,
    // its leading dimension and batch stride even
    let even = |x: Int| known_multiple(x, 2);
    let pairs = even(n) && even(ldc) && p.extents.batch.is_none_or(|(_, (_, _, sc))| even(sc));
    let predicated = p.predicated;
    let (pa, pb) = p.passes;
    let (mm, mn, mk) = p.repeats;
    let ktiles = c(p.tiles.2);
    let tvv = p.pass_step;
    // Per-thread parts computed once, each access one XOR (shared) or one
    // addition (global) with the plan's constants.
    let mut prelude = String::new();
    for (x, split) in [("a", &p.split_a), ("b", &p.split_b)] {
        prelude.push_str(&format!(
            "  const int s{x}_copy0 = (int){name}_s{x}({name}_{x}_scopy(t));\n  const long long g{x}_copy0 = {name}_{x}_gtile({name}_{x}_scopy(t){});\n  const int s{x}_copy[] = {{{}}};\n  const long long g{x}_copy[] = {{{}}};\n",
            args(if x == "a" { &plan_a.gtile } else { &plan_b.gtile }),
            list(&split.copy_smem),
            split.copy_gmem.iter().map(|&g| c(g)).collect::<Vec<_>>().join(", ")
        ));
    }
    for (x, split) in [("a", &p.split_a), ("b", &p.split_b)] {
        let SplitOffsets { frag, .. } = split;
        prelude.push_str(&format!(
            "  const int s{x}_frag0 = (int){name}_s{x}({name}_{x}_frag(t));\n  const int s{x}_frag[] = {{{}}};\n",
            list(frag)
        ));
    }
    let copy = |x: &str, rows: i64, passes: i64, guarded: bool| -> String {
        let one = rows * bk;
        let store = format!("s{x} + stage * {one} + (s{x}_copy0 ^ s{x}_copy[p])");
        let load = format!("g{x} + g{x}_copy0 + g{x}_copy[p]");
        if guarded {
            let lim = if x == "a" { &mc } else { &nc };
            format!(
                    "#pragma unroll\n    for (int p = 0; p < {passes}; ++p) {{\n      const long long i = t + {tvv}LL * p;\n      const auto at = {name}_{x}_ccopy(i);\n      const bool ok = c{x}.c[0] + at.c[0] < {lim} && c{x}.c[1] + at.c[1] < {kc};\n      kute_cp_async16_zfill({store}, ok ? {load} : g{x}0, ok ? 16 : 0);\n    }}"
                )
        } else {
            format!("#pragma unroll\n    for (int p = 0; p < {passes}; ++p)\n      kute_cp_async16({store}, {load});")
        }
    };
    let fast_load = format!("{}\n{}", copy("a", bm, pa, false), copy("b", bn, pb, false));
    // Only the blocks and the k-tile that cross an edge take the guarded path.
    let load_body = match (&plan_a.ctiles, &plan_b.ctiles) {
        (Some(ta), Some(tb)) => format!(
            "    if (interior && (kt + 1) * {bk}LL <= {kc}) {{\n{fast_load}\n    }} else {{\n    {}\n    {}\n{}\n{}\n    }}",
            by_mode(name, "ca", "a_ctiles", ta, ("bm", "kt"), Some(rank)),
            by_mode(name, "cb", "b_ctiles", tb, ("bn", "kt"), Some(rank)),
            copy("a", bm, pa, true),
            copy("b", bn, pb, true)
        ),
        _ => fast_load,
    };
    // a 16-bit C's conversion
    let cvt = if elem == Elem::Bf16 { "bf16" } else { "f16" };
    let fast_store = format!(
            r#"#pragma unroll
  for (int i = 0; i < {mm}; ++i)
#pragma unroll
    for (int j = 0; j < {mn}; ++j)
#pragma unroll
      for (int r = 0; r < 2; ++r) {{
        const long long at = {name}_c_tile({name}_c_frag(t + {THREADS}LL * (2 * r)) + {name}_c_rep(i + {mm}LL * j){ct});
        {pair}
      }}"#,
            pair = match c_elem {
                Elem::F32 => r#"asm volatile("st.global.v2.f32 [%0], {%1, %2};" :: "l"(gc + at), "f"(acc[i][j][2 * r]), "f"(acc[i][j][2 * r + 1]) : "memory");"#.to_string(),
                // two sums rounded into one 32-bit word, the lower column in the low half
                _ => format!(
                    r#"unsigned int h; asm("cvt.rn.{cvt}x2.f32 %0, %1, %2;" : "=r"(h) : "f"(acc[i][j][2 * r + 1]), "f"(acc[i][j][2 * r]));
        asm volatile("st.global.b32 [%0], %1;" :: "l"(gc + at), "r"(h) : "memory");"#
                ),
            }
        );
    // each element guarded, `one` storing value `acc[i][j][2 * r + e]`,
    // the element `x` of the tile at (row, col) of C
    let guarded_with = |one: &str| -> Option<String> {
        let tc = plan_c.ctiles.as_ref()?;
        Some(format!(
            r#"{cc}
#pragma unroll
  for (int i = 0; i < {mm}; ++i)
#pragma unroll
    for (int j = 0; j < {mn}; ++j)
#pragma unroll
      for (int r = 0; r < 2; ++r)
#pragma unroll
        for (int e = 0; e < 2; ++e) {{
          const long long x = {name}_c_frag(t + {THREADS}LL * (2 * r + e)) + {name}_c_rep(i + {mm}LL * j);
          const auto at = {name}_c_ctile(x);
          const long long row = cc.c[0] + at.c[0], col = cc.c[1] + at.c[1];
          if (row < {mc} && col < {nc}) {{ {one} }}
        }}"#,
            cc = by_mode(name, "cc", "c_ctiles", tc, ("bm", "bn"), Some(rank)),
        ))
    };
    // C's element at `x` from `v` (rounded for a 16-bit C), and C's value
    // there before (where the epilogue reads it)
    let put = |v: &str| match c_elem {
        Elem::F32 => format!("gc[{name}_c_tile(x{ct})] = {v};"),
        _ => format!(
            r#"{{ unsigned short h; asm("cvt.rn.{cvt}.f32 %0, %1;" : "=h"(h) : "f"({v})); gc[{name}_c_tile(x{ct})] = h; }}"#
        ),
    };
    let c_old = match c_elem {
        Elem::F32 => format!("gc[{name}_c_tile(x{ct})]"),
        Elem::Bf16 => format!("__bf162float_bits(gc[{name}_c_tile(x{ct})])"),
        _ => format!("__half2float_bits(gc[{name}_c_tile(x{ct})])"),
    };
    let op = p.extents.op;
    let store_c = if let Some(op) = op {
        // the fused epilogue, element by element
        let c_in = if op.beta { c_old } else { "0.f".to_string() };
        let one = format!(
            "const float v = {name}_op(acc[i][j][2 * r + e], {c_in}, row, col, alpha, {beta}, {bias}, {mc}, {nc});\n          {}",
            put("v"),
            beta = if op.beta { "beta" } else { "0.f" },
            bias = if op.bias == crate::gemm_sm90::BiasMode::None { "nullptr" } else { "bias" },
        );
        guarded_with(&one).unwrap_or_default()
    } else if let (true, Some(guarded)) = (predicated || !pairs, guarded_with(&put("acc[i][j][2 * r + e]"))) {
        // the paired stores need aligned pairs
        if pairs {
            format!("if (interior) {{\n  {fast_store}\n  }} else {{\n  {guarded}\n  }}")
        } else {
            guarded
        }
    } else {
        fast_store
    };
    let ty = ptx_type(elem);
    s.push_str(device::CP_ASYNC);
    s.push_str(device::LDMATRIX);
    s.push_str(device::MMA_SM80);
    if let Some(op) = op {
        if op.beta {
            s.push_str(device::CVT);
        }
        s.push_str(&op_fn(name, op));
    }
    if let Some(x) = &p.split_k {
        for (l, f) in [
            (&x.w_share, "w_share"),
            (&x.w_tile, "w_tile"),
            (&x.finish, "finish_at"),
            (&x.finish_coord, "finish_coord"),
        ] {
            plain_fn(&mut s, l, &format!("{name}_{f}"))?;
        }
        mode_fns(&mut s, name, "w_tiles", &x.w_tiles)?;
    }
    s.push_str(&format!(
        r#"__device__ __forceinline__ void kute_mma(float (&d)[4], const unsigned int (&a)[4], const unsigned int (&b)[2]) {{
  kute_mma_m16n8k16_f32_{ty}(d, a, b);
}}
"#
    ));
    // the GEMM, and with split-K the kernel of the shares (share `split` of
    // S takes every S-th k-tile from its own, its f32 sums into its slice
    // of the workspace W, each element guarded) and the finishing kernel
    let mut variants = vec![(
        name.to_string(),
        format!("{size_params}{}", op_params(op)),
        "const long long b = blockIdx.z;\n  const long long kt0 = 0, kstep = 1, jtiles = ktiles;".to_string(),
        store_c,
    )];
    if let Some(x) = &p.split_k {
        let gw = format!(
            "W + {name}_w_share(split{}) + {}",
            args(&x.w_share),
            grid_calls(name, "w_tiles", &x.w_tiles, ("bm", "bn")).join(" + ")
        );
        let w_store = guarded_with(&format!("gw[{name}_w_tile(x{})] = acc[i][j][2 * r + e];", args(&x.w_tile)))
            .unwrap_or_default();
        variants.push((
            format!("{name}_split"),
            format!("{size_params}, float* __restrict__ W, const long long S"),
            "const long long b = blockIdx.z % L, split = blockIdx.z / L;\n  const long long kt0 = split, kstep = S, jtiles = (ktiles - split + S - 1) / S;".to_string(),
            format!("float* gw = {gw};\n  {w_store}"),
        ));
    }
    for (kernel, params, setup, store_c) in variants {
        s.push_str(&format!(
        r#"extern "C" __global__ void __launch_bounds__({THREADS}) {kernel}(const unsigned short* __restrict__ A, const unsigned short* __restrict__ B, {c_ty}* __restrict__ C{params}) {{
  extern __shared__ __align__(128) unsigned short smem[];
  unsigned short* sa = smem;
  unsigned short* sb = smem + {sa_all};
  const long long t = threadIdx.x;
  const long long bm = blockIdx.x, bn = blockIdx.y;
  const bool interior = (bm + 1) * {bm}LL <= {mc} && (bn + 1) * {bn}LL <= {nc};
  (void)interior;
  float acc[{mm}][{mn}][4];
#pragma unroll
  for (int i = 0; i < {mm}; ++i)
#pragma unroll
    for (int j = 0; j < {mn}; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r) acc[i][j][r] = 0.f;
  const long long ktiles = {ktiles};
  {setup}
  (void)b;
  (void)kstep;
{prelude}  auto load = [&](long long kt, int stage) {{
    {a_at}
    {b_at}
    const unsigned short* ga = A + a_at;
    const unsigned short* gb = B + b_at;
    const unsigned short* ga0 = A;
    const unsigned short* gb0 = B;
    (void)ga0; (void)gb0;
{load_body}
  }};
#pragma unroll
  for (int s = 0; s < {stages} - 1; ++s) {{
    if (s < jtiles) load(kt0 + kstep * s, s);
    asm volatile("cp.async.commit_group;" ::: "memory");
  }}
  // CuTe's sgemm_sm80 pipeline: the fragments of k-block kb + 1 are loaded
  // while k-block kb multiplies, across the k-tiles too; the next k-tile's
  // copies start at k-block 0 into the stage read before the last barrier.
  int rs = 0, ws = {stages} - 1;
  const unsigned short* sas = sa;
  const unsigned short* sbs = sb;
  unsigned int fa[2][{mm}][4], fb[2][{mn}][2];
  auto fragments = [&](int kn, int buf) {{
#pragma unroll
    for (int i = 0; i < {mm}; ++i) kute_ldsm_x4{ta}(fa[buf][i], sas + (sa_frag0 ^ sa_frag[i + {mm} * kn]));
#pragma unroll
    for (int j = 0; j < {mn}; ++j) kute_ldsm_x2{tb}(fb[buf][j], sbs + (sb_frag0 ^ sb_frag[j + {mn} * kn]));
  }};
  asm volatile("cp.async.wait_group {wait};" ::: "memory");
  __syncthreads();
  fragments(0, 0);
  for (long long jt = 0; jt < jtiles; ++jt) {{
#pragma unroll
    for (int kb = 0; kb < {mk}; ++kb) {{
      if (kb == {mk} - 1) {{
        sas = sa + rs * {sa_one};
        sbs = sb + rs * {sb_one};
        asm volatile("cp.async.wait_group {wait};" ::: "memory");
        __syncthreads();
      }}
      fragments((kb + 1) % {mk}, (kb + 1) % 2);
      if (kb == 0) {{
        const long long next = jt + {stages} - 1;
        if (next < jtiles) load(kt0 + kstep * next, ws);
        asm volatile("cp.async.commit_group;" ::: "memory");
        ws = rs;
        rs = rs + 1 == {stages} ? 0 : rs + 1;
      }}
#pragma unroll
      for (int i = 0; i < {mm}; ++i)
#pragma unroll
        for (int j = 0; j < {mn}; ++j) kute_mma(acc[i][j], fa[kb % 2][i], fb[kb % 2][j]);
    }}
  }}
  {c_at}
  {c_ty}* gc = C + c_at;
  {store_c}
}}
"#,
            sa_all = stages * bm * bk,
            c_ty = if c_elem == Elem::F32 { "float" } else { "unsigned short" },
            sa_one = bm * bk,
            sb_one = bn * bk,
            wait = stages - 2,
            ta = if a_k_major { "" } else { "_trans" },
            tb = if b_k_major { "" } else { "_trans" },
            a_at = by_mode(name, "a_at", "a_tiles", &plan_a.tiles, ("bm", "kt"), None),
            b_at = by_mode(name, "b_at", "b_tiles", &plan_b.tiles, ("bn", "kt"), None),
            c_at = by_mode(name, "c_at", "c_tiles", &plan_c.tiles, ("bm", "bn"), None),
        ));
    }
    if let Some(x) = &p.split_k {
        s.push_str(&finish_kernel(name, (c_elem, op), &size_params, x));
    }
    Ok(s)
}

/// The reference kernel `name(A, B, C)`: one thread per element of `C`, f32
/// accumulation in order of K, reading `A` and `B` with the majors of
/// `config` (the Pre and Post of [`crate::gemm::reference_source`]).
pub(crate) fn reference(name: &str, (m, n, k): (i64, i64, i64), elem: Elem, config: &GemmConfig) -> String {
    let cvt = if elem == Elem::Bf16 { "__bf162float_bits" } else { "__half2float_bits" };
    let mut s = String::new();
    header(&mut s, &format!("reference gemm ({m},{n},{k}), {elem}"));
    s.push_str(device::CVT);
    s.push_str(&format!(
        r#"extern "C" __global__ void __launch_bounds__(256) {name}(const unsigned short* __restrict__ A, const unsigned short* __restrict__ B, float* __restrict__ C) {{
  const long long e = (long long)blockIdx.x * 256 + threadIdx.x;
  if (e >= {mn}LL) return;
  const long long i = e / {n}LL, j = e % {n}LL;
  float s = 0.f;
  for (long long l = 0; l < {k}LL; ++l) s += {cvt}(A[{ai}]) * {cvt}(B[{bj}]);
  C[e] = s;
}}
"#,
        mn = m * n,
        ai = if config.a_k_major { format!("i * {k}LL + l") } else { format!("l * {m}LL + i") },
        bj = if config.b_k_major { format!("j * {k}LL + l") } else { format!("l * {n}LL + j") },
    ));
    s
}
