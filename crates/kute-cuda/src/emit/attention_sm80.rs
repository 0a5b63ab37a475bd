//! The CUDA text of the SM80 attention forward kernel from its plan (see
//! [`crate::attention`] for the steps).
//!
//! The registers' work (masks, row maxima, exponentials, the rescaling of
//! `O`, `P`'s re-layout, the stores) is written out register by register
//! from the plan's constants; the copies, `ldmatrix` and MMA loops are
//! unrolled loops over the plan's constant tables. Either way every index
//! folds to a per-thread base computed once and a constant.

use super::softmax::Rows;
use super::{device, header, layout_fn, list, plain_fn, ptx_type};
use crate::attention::AttentionConfig;
use crate::plan::attention_sm80::{AttentionSm80Plan, Fragments};
use crate::{Elem, Error, Result};
use std::fmt::Write;

/// The kernel's sizes and strides, passed by value: the CUDA side of
/// `crate::attention::Params` (the same fields in the same order: five
/// tensors' `(batch, seq, head)` strides in elements, then the lengths,
/// the query heads per key head, `scale · log2(e)`, the query heads and
/// the batch entries).
pub(crate) const PARAMS: &str = "struct kute_attention_params {\n  long long q[3], k[3], v[3], o[3], lse[3];\n  int lq, lk, group;\n  float scale_log2;\n  int heads, batch;\n};\n";

const OP: &str = "attention emit";

/// `f`'s values per MMA tile must be the `mma.sync` m16n8k16 operand's.
fn values(what: &str, f: &Fragments, want: i64) -> Result<()> {
    if f.values != want {
        return Err(Error::unsupported(OP, format!("{what} has {} values per MMA tile, not {want}", f.values)));
    }
    Ok(())
}

/// The kernel `name(Q, K, V, O, LSE, params)` of the plan `p`.
pub(crate) fn source(name: &str, p: &AttentionSm80Plan) -> Result<String> {
    let AttentionConfig { head_dim: d, block_m: bm, block_n: bn, warps, causal, kv_x4, frag_prefetch } = p.config;
    let elem = p.elem;
    let threads = p.threads;
    for (what, f, want) in
        [("Q", &p.q, 8), ("K", &p.k, 4), ("S", &p.s, 4), ("P", &p.p, 8), ("V", &p.v, 4), ("O", &p.o, 4)]
    {
        values(what, f, want)?;
    }
    let ratio = p.k.grid.0 / p.k_load.grid.0;
    values("K's loads", &p.k_load, 4 * ratio)?;
    values("V's loads", &p.v_load, 4 * ratio)?;
    let mut s = String::new();
    header(
        &mut s,
        &format!(
            "attention forward, {elem}, d = {d}, {bm} query rows x {bn} keys per step, {warps} warps{}{}, K and V by ldmatrix.{}, fragments loaded {frag_prefetch} MMA groups ahead",
            if causal { ", causal" } else { "" },
            if p.q_in_registers { ", Q in registers" } else { "" },
            if kv_x4 { "x4" } else { "x2" }
        ),
    );
    for (i, x) in ["q", "k", "v"].into_iter().enumerate() {
        let t = &p.tiles[i];
        let _ = writeln!(s, "// shared {x}: {}", p.smem[i].layout);
        layout_fn(&mut s, &p.smem[i].layout, &format!("{name}_s{x}"))?;
        plain_fn(&mut s, &t.copy, &format!("{name}_{x}_copy"))?;
        plain_fn(&mut s, &t.seq, &format!("{name}_{x}_seq"))?;
        plain_fn(&mut s, &t.dim, &format!("{name}_{x}_dim"))?;
        plain_fn(&mut s, &p.smem[i].ldsm, &format!("{name}_{x}_ldsm"))?;
    }
    plain_fn(&mut s, &p.s_regs.row, &format!("{name}_s_row"))?;
    plain_fn(&mut s, &p.s_regs.col, &format!("{name}_s_col"))?;
    plain_fn(&mut s, &p.o_regs.row, &format!("{name}_o_row"))?;
    plain_fn(&mut s, &p.o_regs.col, &format!("{name}_o_col"))?;
    s.push_str(device::CP_ASYNC);
    s.push_str(device::LDMATRIX);
    s.push_str(device::MMA_SM80);
    s.push_str(device::EX2);
    s.push_str(device::CVT_PACK);
    s.push_str(device::PIN);
    s.push_str(PARAMS);

    let ty = ptx_type(elem);
    let pack = if elem == Elem::Bf16 { "kute_pack_bf16x2" } else { "kute_pack_f16x2" };
    // MMA tiles: S and O (im, j) at im + mm · j, Q and P (im, kk) at
    // im + mm · kk, K (j, kk) at j + nt · kk, V (j, kk) at j + dt · kk
    let mm = p.s.grid.0;
    let kd = p.q.grid.1;
    let kn = p.p.grid.1;
    // K and V loads: repeat (a, b) at a + grid.0 · b, each `ratio` MMA
    // tiles along N (2 with ldmatrix.x4)
    let (kt, vt) = (p.k_load.grid.0, p.v_load.grid.0);
    let x = 2 * ratio;
    // the MMAs of one load `l` into the tiles `ratio · j + sub`: each its B
    // registers picked from the load's (the plan's kv_regs)
    let b_mmas = |l: &str, j: i64, acc: &str, a: &dyn Fn(&str) -> String| -> String {
        let mut o = String::new();
        for sub in 0..ratio {
            let regs: Vec<String> = (0..2)
                .map(|q| {
                    let i = p.kv_regs.iter().position(|&r| r == (sub, q)).unwrap_or(0);
                    format!("{l}[{i}]")
                })
                .collect();
            let _ = writeln!(
                o,
                "    {{\n      const unsigned int b[2] = {{{}}};\n#pragma unroll\n      for (int im = 0; im < {mm}; ++im) kute_mma_m16n8k16_f32_{ty}({acc}[im + {mm} * {}], {}, b);\n    }}",
                regs.join(", "),
                ratio * j + sub,
                a("im")
            );
        }
        o
    };
    // a GEMM as a sequence of groups (k-step kk, load j), each its loads and
    // its MMAs: the loads of group g + prefetch are issued before the MMAs
    // of group g, so an ldmatrix's latency hides behind the MMAs before its
    // own (0: each group's loads right before its MMAs)
    let prefetch = p.config.frag_prefetch as usize;
    let pipeline = |groups: &[(String, String)]| -> String {
        let mut o = String::new();
        for (loads, _) in groups.iter().take(prefetch) {
            o.push_str(loads);
        }
        for (g, (_, mmas)) in groups.iter().enumerate() {
            if let Some((loads, _)) = groups.get(g + prefetch) {
                o.push_str(loads);
            }
            o.push_str(mmas);
        }
        o
    };
    let slots = p.slot_rows.len();

    // the per-thread bases, computed once
    let mut prelude = String::new();
    for x in ["q", "k", "v"] {
        let _ = writeln!(
            prelude,
            "  const int {x}_s0 = kute_pin((int){name}_s{x}({name}_{x}_copy(t)));\n  const int {x}_seq0 = kute_pin((int){name}_{x}_seq(t)), {x}_dim0 = kute_pin((int){name}_{x}_dim(t));\n  const int {x}_f0 = kute_pin((int){name}_s{x}({name}_{x}_ldsm(t)));"
        );
    }
    for (i, x) in ["q", "k", "v"].into_iter().enumerate() {
        let t = &p.tiles[i];
        let _ = writeln!(
            prelude,
            "  const int {x}_pass_sx[] = {{{}}};\n  const int {x}_pass_sa[] = {{{}}};\n  const int {x}_pass_seq[] = {{{}}};\n  const int {x}_pass_dim[] = {{{}}};\n  const int {x}_fx[] = {{{}}};\n  const int {x}_fa[] = {{{}}};",
            list(&t.pass_smem.iter().map(|c| c.0).collect::<Vec<_>>()),
            list(&t.pass_smem.iter().map(|c| c.1).collect::<Vec<_>>()),
            list(&t.pass_seq),
            list(&t.pass_dim),
            list(&t.frag_smem.iter().map(|c| c.0).collect::<Vec<_>>()),
            list(&t.frag_smem.iter().map(|c| c.1).collect::<Vec<_>>())
        );
    }
    // a tile's cp.async copies from the tensor at `g` (its first row at
    // sequence position `first`, `len` positions in all): rows past the
    // end are zero-filled (no byte read)
    let copy = |x: &str, tile: usize, stride: &str| -> String {
        let passes = p.tiles[tile].passes;
        format!(
            "#pragma unroll\n    for (int i = 0; i < {passes}; ++i) {{\n      const int r = {x}_seq0 + {x}_pass_seq[i];\n      kute_cp_async16_zfill(s{x} + (({x}_s0 ^ {x}_pass_sx[i]) + {x}_pass_sa[i]), g + (r * {stride} + {x}_dim0 + {x}_pass_dim[i]), first + r < len ? 16 : 0);\n    }}"
        )
    };

    // the masks, the online softmax (O rescaled between its maxima and its
    // exponentials), P from S's registers, and the end
    let (s_reg, o_reg) =
        (|i: usize| format!("acc_s[{}][{}]", i / 4, i % 4), |i: usize| format!("acc_o[{}][{}]", i / 4, i % 4));
    let rows = Rows {
        s: &p.s_regs,
        o: &p.o_regs,
        slot_rows: &p.slot_rows,
        row_masks: &p.row_masks,
        s_reg: &s_reg,
        o_reg: &o_reg,
    };
    let mask = rows.mask(causal);
    let softmax = rows.softmax(false).concat();
    let to_p = rows.to_p(&p.p_src, pack);
    let store = rows.store(pack, "t");

    // Q's fragments: loaded once into registers, or at each step of d
    // Q's fragments: loaded once into registers, or at each k-step with K's
    let q_resident = if p.q_in_registers {
        format!(
            "  unsigned int qr[{}][4];\n#pragma unroll\n  for (int r = 0; r < {}; ++r) kute_ldsm_x4(qr[r], sq + ((q_f0 ^ q_fx[r]) + q_fa[r]));\n",
            p.q.repeats, p.q.repeats
        )
    } else {
        String::new()
    };
    // S = Q · K(n)^T and O += P · V(n), group by group
    let mut s_groups = Vec::new();
    for kk in 0..kd {
        for j in 0..kt {
            let mut loads = String::new();
            if !p.q_in_registers && j == 0 {
                let _ = writeln!(
                    loads,
                    "    unsigned int qa{kk}[{mm}][4];\n#pragma unroll\n    for (int im = 0; im < {mm}; ++im) kute_ldsm_x4(qa{kk}[im], sq + ((q_f0 ^ q_fx[im + {}]) + q_fa[im + {}]));",
                    mm * kk,
                    mm * kk
                );
            }
            let r = j + kt * kk;
            let _ = writeln!(
                loads,
                "    unsigned int kb{kk}_{j}[{x}];\n    kute_ldsm_x{x}(kb{kk}_{j}, sk + ((k_f0 ^ k_fx[{r}]) + k_fa[{r}]));"
            );
            let a = |im: &str| {
                if p.q_in_registers {
                    format!("qr[{im} + {}]", mm * kk)
                } else {
                    format!("qa{kk}[{im}]")
                }
            };
            s_groups.push((loads, b_mmas(&format!("kb{kk}_{j}"), j, "acc_s", &a)));
        }
    }
    let mut v_groups = Vec::new();
    for kk in 0..kn {
        for j in 0..vt {
            let r = j + vt * kk;
            let loads = format!(
                "    unsigned int vb{kk}_{j}[{x}];\n    kute_ldsm_x{x}_trans(vb{kk}_{j}, sv + ((v_f0 ^ v_fx[{r}]) + v_fa[{r}]));\n"
            );
            let a = |im: &str| format!("pf[{im} + {}]", mm * kk);
            v_groups.push((loads, b_mmas(&format!("vb{kk}_{j}"), j, "acc_o", &a)));
        }
    }
    let q_copy = copy("q", 0, "(int)prm.q[1]");
    let k_copy = copy("k", 1, "k_ss");
    let v_copy = copy("v", 2, "v_ss");
    let block = if causal { "gridDim.x - 1 - blockIdx.x" } else { "blockIdx.x" };
    let n_end = if causal {
        format!("  n_end = min(n_end, (max(0, m0 + {bm} + off) + {bn} - 1) / {bn});\n")
    } else {
        String::new()
    };
    let masked = if causal { format!("n0 + {bn} > lk || n0 + {bn} - 1 > m0 + off") } else { format!("n0 + {bn} > lk") };
    let _ = write!(
        s,
        r#"extern "C" __global__ void __launch_bounds__({threads}, 1) {name}(const unsigned short* __restrict__ Q, const unsigned short* __restrict__ K, const unsigned short* __restrict__ V, unsigned short* __restrict__ O, float* __restrict__ LSE, const kute_attention_params prm) {{
  extern __shared__ __align__(128) unsigned short smem[];
  unsigned short* sq = smem;
  unsigned short* sk = smem + {q_cells};
  unsigned short* sv = sk + {k_cells};
  const float kute_neg_inf = __int_as_float(0xff800000u);
  const int t = threadIdx.x;
  const int m0 = ({block}) * {bm};
  const long long head = blockIdx.y, batch = blockIdx.z, kv_head = blockIdx.y / prm.group;
  const int lq = prm.lq, lk = prm.lk, off = lk - lq;
  const float sl2 = prm.scale_log2;
  (void)off;
  // (a tile's offsets from its first row fit 32 bits: the library checks
  // the sequence strides; the tiles' first rows are 64-bit)
  const int k_ss = (int)prm.k[1], v_ss = (int)prm.v[1];
  const unsigned short* gk = kute_pin_ptr(K + batch * prm.k[0] + kv_head * prm.k[2]);
  const unsigned short* gv = kute_pin_ptr(V + batch * prm.v[0] + kv_head * prm.v[2]);
  int n_end = (lk + {bn} - 1) / {bn};
{n_end}{prelude}  const int s_row0 = kute_pin((int){name}_s_row(t)), s_col0 = kute_pin((int){name}_s_col(t));
  (void)s_row0;
  float acc_o[{o_reps}][4];
#pragma unroll
  for (int r = 0; r < {o_reps}; ++r)
#pragma unroll
    for (int v = 0; v < 4; ++v) acc_o[r][v] = 0.f;
  float row_max[{slots}], row_sum[{slots}];
#pragma unroll
  for (int r = 0; r < {slots}; ++r) {{ row_max[r] = kute_neg_inf; row_sum[r] = 0.f; }}
  // Q, then the last key block's K (the blocks run backwards, so that the
  // masked ones come first)
  {{
    const unsigned short* g = Q + batch * prm.q[0] + head * prm.q[2] + (long long)m0 * prm.q[1];
    const int first = m0, len = lq;
    {q_copy}
  }}
  if (n_end > 0) {{
    const int first = (n_end - 1) * {bn}, len = lk;
    const unsigned short* g = gk + (long long)first * k_ss;
    {k_copy}
  }}
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  __syncthreads();
{q_resident}  for (int n = n_end - 1; n >= 0; --n) {{
    const int n0 = n * {bn};
    if (n != n_end - 1) {{
      // K(n) landed; every thread is done reading V(n + 1)
      asm volatile("cp.async.wait_group 0;" ::: "memory");
      __syncthreads();
    }}
    {{
      const int first = n0, len = lk;
      const unsigned short* g = gv + (long long)first * v_ss;
      {v_copy}
    }}
    asm volatile("cp.async.commit_group;" ::: "memory");
    // S = Q · K(n)^T
    float acc_s[{s_reps}][4];
#pragma unroll
    for (int r = 0; r < {s_reps}; ++r)
#pragma unroll
      for (int v = 0; v < 4; ++v) acc_s[r][v] = 0.f;
{s_gemm}    if ({masked}) {{
{mask}    }}
{softmax}    // P converted in place from S's registers (before K(n - 1)'s copies:
    // half the registers S held)
    unsigned int pf[{p_reps}][4];
{to_p}    // V(n) landed; every thread is done reading K(n)
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    if (n > 0) {{
      const int first = n0 - {bn}, len = lk;
      const unsigned short* g = gk + (long long)first * k_ss;
      {k_copy}
    }}
    asm volatile("cp.async.commit_group;" ::: "memory");
    // O += P · V(n)
{v_gemm}  }}
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  // (the output's pointers made here: nothing of them lives through the loop)
  const int o_row0 = (int){name}_o_row(t), o_col0 = (int){name}_o_col(t);
  unsigned short* go = O + batch * prm.o[0] + head * prm.o[2];
  float* glse = LSE + batch * prm.lse[0] + head * prm.lse[2];
{store}}}
"#,
        q_cells = bm * d,
        k_cells = bn * d,
        o_reps = p.o.repeats,
        s_reps = p.s.repeats,
        p_reps = p.p.repeats,
        s_gemm = pipeline(&s_groups),
        v_gemm = pipeline(&v_groups),
    );
    Ok(s)
}
