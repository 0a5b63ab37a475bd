//! The CUDA text of the SM80 attention forward kernel from its plan (see
//! [`crate::attention`] for the steps).
//!
//! The registers' work (masks, row maxima, exponentials, the rescaling of
//! `O`, `P`'s re-layout, the stores) is written out register by register
//! from the plan's constants, and so are the copies and `ldmatrix` loads:
//! each address is one of a few per-thread bases computed once plus an
//! immediate (the shared tiles' swizzle split by the plan into an XOR
//! on the bits a thread's part may hold, which picks the base, and an
//! addition).

use super::softmax::Rows;
use super::{device, header, layout_fn, plain_fn, ptx_type};
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

/// The shared-window address of entry `i` of `at` (each a per-thread
/// base's name and a byte offset) in the tile `stage` bytes on: the base
/// plus an immediate.
fn address(at: &[(String, i64)], i: usize, stage: i64) -> String {
    let (base, off) = &at[i];
    format!("{base} + {}u", off + stage)
}

/// The kernel `name(Q, K, V, O, LSE, params)` of the plan `p`.
pub(crate) fn source(name: &str, p: &AttentionSm80Plan) -> Result<String> {
    let AttentionConfig { head_dim: d, block_m: bm, block_n: bn, warps, causal, kv_x4, frag_prefetch, kv_stages } =
        p.config;
    let double = kv_stages == 2;
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
            "attention forward, {elem}, d = {d}, {bm} query rows x {bn} keys per step, {warps} warps{}{}, K and V by ldmatrix.{}, fragments loaded {frag_prefetch} MMA groups ahead{}",
            if causal { ", causal" } else { "" },
            if p.q_in_registers { ", Q in registers" } else { "" },
            if kv_x4 { "x4" } else { "x2" },
            if double { ", K and V double-buffered" } else { "" }
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
    // with two stages, the second stage's tiles `stage_bytes` after the
    // first's (the loop runs two key blocks a turn, one in each, so that the
    // stage is an immediate of every address)
    let stage_bytes = bn * d * elem.bytes();

    // the per-thread bases, computed once: each tile's shared-window byte
    // addresses of the thread's copies and ldmatrix rows, one per distinct
    // XOR constant (the swizzle's bits the thread's part may hold), so that
    // an instruction's address is a base plus an immediate
    let tile_at = [0, bm * d, bm * d + kv_stages * bn * d];
    let mut prelude = String::from("  const unsigned int sm = (unsigned int)__cvta_generic_to_shared(smem);\n");
    // per tile: each copy pass's and each MMA repeat's (base, byte offset)
    let mut copy_at = Vec::new();
    let mut frag_at = Vec::new();
    for (i, x) in ["q", "k", "v"].into_iter().enumerate() {
        let t = &p.tiles[i];
        let _ = writeln!(
            prelude,
            "  const int {x}_s0 = (int){name}_s{x}({name}_{x}_copy(t)), {x}_f0 = (int){name}_s{x}({name}_{x}_ldsm(t));\n  const int {x}_g0 = (int){name}_{x}_seq(t) * (int)prm.{x}[1] + (int){name}_{x}_dim(t);"
        );
        let mut bases = |what: &str, base: &str, consts: &[(i64, i64)]| -> Vec<(String, i64)> {
            let mut distinct: Vec<i64> = Vec::new();
            consts
                .iter()
                .map(|&(xor, add)| {
                    let j = distinct.iter().position(|&v| v == xor).unwrap_or_else(|| {
                        distinct.push(xor);
                        let _ = writeln!(
                            prelude,
                            "  const unsigned int {x}_{what}{} = kute_pin_u32(sm + {}u + {}u * (unsigned int)({base} ^ {xor}));",
                            distinct.len() - 1,
                            tile_at[i] * elem.bytes(),
                            elem.bytes()
                        );
                        distinct.len() - 1
                    });
                    (format!("{x}_{what}{j}"), add * elem.bytes())
                })
                .collect()
        };
        copy_at.push(bases("c", &format!("{x}_s0"), &t.pass_smem));
        frag_at.push(bases("l", &format!("{x}_f0"), &t.frag_smem));
    }
    // a tile's cp.async copies from the tensor at `g` (its first row at
    // sequence position `first`, `len` positions in all, `stride` elements
    // apart), into the tile `stage` bytes on: without a bound where the
    // tile's rows are all in, else rows past the end zero-filled (no byte
    // read)
    let copy = |x: &str, tile: usize, stride: &str, stage: i64| -> String {
        let t = &p.tiles[tile];
        let rows = [bm, bn, bn][tile];
        let at = |i: usize| address(&copy_at[tile], i, stage);
        // (a row's pointer, shared by its passes, plus the offset along d)
        let src = |i: usize| format!("(g + {} * {stride}) + {}", t.pass_seq[i], t.pass_dim[i]);
        let mut whole = String::new();
        let mut cut = String::new();
        for i in 0..t.passes as usize {
            let _ = writeln!(whole, "        kute_cp_async16_at({}, {});", at(i), src(i));
            let _ = writeln!(
                cut,
                "        kute_cp_async16_zfill_at({}, {}, {} < rem ? 16 : 0);",
                at(i),
                src(i),
                t.pass_seq[i]
            );
        }
        format!(
            "{{\n      if (first + {rows} <= len) {{\n{whole}      }} else {{\n        const int rem = len - first - (int){name}_{x}_seq(t);\n{cut}      }}\n    }}"
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
    let [head, _, tail] = rows.softmax(false);
    let softmax = format!("{head}{}{tail}", rows.rescale_where_moved());
    let to_p = rows.to_p(&p.p_src, pack);
    let store = rows.store(pack, "t");

    // an ldmatrix row address: repeat `r` of a tile `stage` bytes on
    let frag = |tile: usize, r: usize, stage: i64| address(&frag_at[tile], r, stage);
    // Q's fragments: loaded once into registers, or at each k-step with K's
    let q_resident = if p.q_in_registers {
        let mut o = format!("  unsigned int qr[{}][4];\n", p.q.repeats);
        for r in 0..p.q.repeats as usize {
            let _ = writeln!(o, "  kute_ldsm_x4_at(qr[{r}], {});", frag(0, r, 0));
        }
        o
    } else {
        String::new()
    };
    // S = Q · K(n)^T and O += P · V(n), group by group, from the tiles
    // `stage` bytes on
    let s_gemm = |stage: i64| {
        let mut groups = Vec::new();
        for kk in 0..kd {
            for j in 0..kt {
                let mut loads = String::new();
                if !p.q_in_registers && j == 0 {
                    let _ = writeln!(loads, "    unsigned int qa{kk}[{mm}][4];");
                    for im in 0..mm {
                        let at = frag(0, (im + mm * kk) as usize, 0);
                        let _ = writeln!(loads, "    kute_ldsm_x4_at(qa{kk}[{im}], {at});");
                    }
                }
                let at = frag(1, (j + kt * kk) as usize, stage);
                let _ = writeln!(loads, "    unsigned int kb{kk}_{j}[{x}];\n    kute_ldsm_x{x}_at(kb{kk}_{j}, {at});");
                let a = |im: &str| {
                    if p.q_in_registers {
                        format!("qr[{im} + {}]", mm * kk)
                    } else {
                        format!("qa{kk}[{im}]")
                    }
                };
                groups.push((loads, b_mmas(&format!("kb{kk}_{j}"), j, "acc_s", &a)));
            }
        }
        pipeline(&groups)
    };
    let v_gemm = |stage: i64| {
        let mut groups = Vec::new();
        for kk in 0..kn {
            for j in 0..vt {
                let at = frag(2, (j + vt * kk) as usize, stage);
                let loads =
                    format!("    unsigned int vb{kk}_{j}[{x}];\n    kute_ldsm_x{x}_trans_at(vb{kk}_{j}, {at});\n");
                let a = |im: &str| format!("pf[{im} + {}]", mm * kk);
                groups.push((loads, b_mmas(&format!("vb{kk}_{j}"), j, "acc_o", &a)));
            }
        }
        pipeline(&groups)
    };
    let q_copy = copy("q", 0, "(int)prm.q[1]", 0);
    let (k_copy, v_copy) = (copy("k", 1, "k_ss", 0), copy("v", 2, "v_ss", 0));
    let block = if causal { "gridDim.x - 1 - blockIdx.x" } else { "blockIdx.x" };
    let n_end = if causal {
        format!("  n_end = min(n_end, (max(0, m0 + {bm} + off) + {bn} - 1) / {bn});\n")
    } else {
        String::new()
    };
    let masked = if causal { format!("n0 + {bn} > lk || n0 + {bn} - 1 > m0 + off") } else { format!("n0 + {bn} > lk") };
    // S = Q · K(n)^T, the mask, the softmax and P from S's registers, from
    // the tiles `stage` bytes on
    let s_step = |stage: i64| {
        format!(
            "    // S = Q · K(n)^T\n    float acc_s[{s_reps}][4];\n#pragma unroll\n    for (int r = 0; r < {s_reps}; ++r)\n#pragma unroll\n      for (int v = 0; v < 4; ++v) acc_s[r][v] = 0.f;\n{}    if ({masked}) {{\n{mask}    }}\n{softmax}    // P converted in place from S's registers (half the registers S held)\n    unsigned int pf[{p_reps}][4];\n{to_p}",
            s_gemm(stage),
            s_reps = p.s.repeats,
            p_reps = p.p.repeats,
        )
    };
    let o_step = |stage: i64| format!("    // O += P · V(n)\n{}", v_gemm(stage));
    let commit = "    asm volatile(\"cp.async.commit_group;\" ::: \"memory\");\n";
    let (first_copies, main_loop) = if double {
        // block n's K and V in the first tiles where n_end - 1 - n is even,
        // else in the second; block n - 1 copied into the others while
        // block n is computed
        let first = format!(
            "    {{\n      const unsigned short* g = gk + (long long)first * k_ss;\n      {k_copy}\n    }}\n    {{\n      const unsigned short* g = gv + (long long)first * v_ss;\n      {v_copy}\n    }}\n"
        );
        let step = |cur: i64| {
            let next = stage_bytes - cur;
            let (k_next, v_next) = (copy("k", 1, "k_ss", next), copy("v", 2, "v_ss", next));
            format!(
                "    {{\n    const int n0 = n * {bn};\n    if (n != n_end - 1) {{\n      // K(n) and V(n) landed; every thread is done with block n + 1's tiles\n      asm volatile(\"cp.async.wait_group 0;\" ::: \"memory\");\n      __syncthreads();\n    }}\n    if (n > 0) {{\n      const int first = n0 - {bn}, len = lk;\n      {{\n        const unsigned short* g = gk + (long long)first * k_ss;\n        {k_next}\n      }}\n      {{\n        const unsigned short* g = gv + (long long)first * v_ss;\n        {v_next}\n      }}\n    }}\n{commit}{}{}    }}\n",
                s_step(cur),
                o_step(cur)
            )
        };
        let main_loop = format!(
            "  for (int n = n_end - 1; n >= 0; --n) {{\n{}    if (--n < 0) break;\n{}  }}\n",
            step(0),
            step(stage_bytes)
        );
        (first, main_loop)
    } else {
        let first = format!("    const unsigned short* g = gk + (long long)first * k_ss;\n    {k_copy}\n");
        let main_loop = format!(
            "  for (int n = n_end - 1; n >= 0; --n) {{\n    const int n0 = n * {bn};\n    if (n != n_end - 1) {{\n      // K(n) landed; every thread is done reading V(n + 1)\n      asm volatile(\"cp.async.wait_group 0;\" ::: \"memory\");\n      __syncthreads();\n    }}\n    {{\n      const int first = n0, len = lk;\n      const unsigned short* g = gv + (long long)first * v_ss;\n      {v_copy}\n    }}\n{commit}{}    // V(n) landed; every thread is done reading K(n)\n    asm volatile(\"cp.async.wait_group 0;\" ::: \"memory\");\n    __syncthreads();\n    if (n > 0) {{\n      const int first = n0 - {bn}, len = lk;\n      const unsigned short* g = gk + (long long)first * k_ss;\n      {k_copy}\n    }}\n{commit}{}  }}\n",
            s_step(0),
            o_step(0)
        );
        (first, main_loop)
    };
    let _ = write!(
        s,
        r#"extern "C" __global__ void __launch_bounds__({threads}, 1) {name}(const unsigned short* __restrict__ Q, const unsigned short* __restrict__ K, const unsigned short* __restrict__ V, unsigned short* __restrict__ O, float* __restrict__ LSE, const kute_attention_params prm) {{
  extern __shared__ __align__(128) unsigned short smem[];
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
  int n_end = (lk + {bn} - 1) / {bn};
{n_end}{prelude}  // (each thread's K and V from its first vector's place in the tiles)
  const unsigned short* gk = kute_pin_ptr(K + batch * prm.k[0] + kv_head * prm.k[2] + k_g0);
  const unsigned short* gv = kute_pin_ptr(V + batch * prm.v[0] + kv_head * prm.v[2] + v_g0);
  const int s_row0 = (int){name}_s_row(t), s_col0 = (int){name}_s_col(t);
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
    const unsigned short* g = Q + batch * prm.q[0] + head * prm.q[2] + (long long)m0 * prm.q[1] + q_g0;
    const int first = m0, len = lq;
    {q_copy}
  }}
  if (n_end > 0) {{
    const int first = (n_end - 1) * {bn}, len = lk;
{first_copies}  }}
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  __syncthreads();
{q_resident}{main_loop}  asm volatile("cp.async.wait_group 0;" ::: "memory");
  // (the output's pointers made here: nothing of them lives through the loop)
  const int o_row0 = (int){name}_o_row(t), o_col0 = (int){name}_o_col(t);
  unsigned short* go = O + batch * prm.o[0] + head * prm.o[2];
  float* glse = LSE + batch * prm.lse[0] + head * prm.lse[2];
{store}}}
"#,
        o_reps = p.o.repeats,
    );
    Ok(s)
}
