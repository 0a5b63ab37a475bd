//! The CUDA text of the SM90 attention forward kernel from its plan
//! (FlashAttention-3's structure, see [`crate::attention`]).
//!
//! A producer warpgroup's first thread copies `Q` once and each key
//! block's `K` and `V` by TMA, a box per 128-byte slab of the plan's tiles,
//! into a ring of stages (`full` barriers count the bytes in; `empty` ones
//! the consumer warps' releases). Each consumer warpgroup owns 64 query
//! rows: `S = Q·Kᵀ` by `wgmma` from shared memory, the mask and the online
//! softmax register by register from the plan's constants (row maxima and
//! sums over the lanes the plan's row masks reach), `P` packed from `S`'s
//! registers by the plan's `p_src`, and `O += P·V` by `wgmma` with `P` in
//! registers. With `overlap`, the next block's `S` is multiplied while the
//! softmax of the current one runs (FlashAttention-3's overlap within a
//! warpgroup): `S(n - 1)` and `P(n)·V(n)` are issued together, and the
//! softmax of `S(n - 1)` waits only for the first.

use super::attention_sm80::PARAMS;
use super::softmax::Rows;
use super::{device, header, plain_fn, ptx_type};
use crate::attention::Sm90AttentionConfig;
use crate::plan::attention_sm90::{AttentionSm90Plan, Sm90Tile};
use crate::{Elem, Result};
use std::fmt::Write;

/// A `wgmma` m64nNk16 wrapper, f32 accumulators `d`: with `ss`, `A` and
/// `B` from shared memory, both K-major, `d` overwritten where `acc` is 0
/// (else added to); otherwise `A` from four registers of 16-bit pairs and
/// `B` N-major (transposed), added to `d`.
fn wgmma_fn(name: &str, n: i64, ty: &str, ss: bool) -> String {
    let acc = n / 2;
    let regs = (0..acc).map(|i| format!("%{i}")).collect::<Vec<_>>().join(",");
    let outs = (0..acc).map(|i| format!("\"+f\"(d[{i}])")).collect::<Vec<_>>().join(", ");
    let op = format!("wgmma.mma_async.sync.aligned.m64n{n}k16.f32.{ty}.{ty}");
    if ss {
        format!(
            "__device__ __forceinline__ void {name}(float (&d)[{acc}], unsigned long long da, unsigned long long db, int acc) {{\n  asm volatile(\"{{\\n.reg .pred p;\\nsetp.ne.b32 p, %{}, 0;\\n{op} {{{regs}}}, %{}, %{}, p, 1, 1, 0, 0;\\n}}\"\n               : {outs}\n               : \"l\"(da), \"l\"(db), \"r\"(acc));\n}}\n",
            acc + 2,
            acc,
            acc + 1
        )
    } else {
        format!(
            "__device__ __forceinline__ void {name}(float (&d)[{acc}], const unsigned int (&a)[4], unsigned long long db) {{\n  asm volatile(\"{op} {{{regs}}}, {{%{}, %{}, %{}, %{}}}, %{}, 1, 1, 1, 1;\"\n               : {outs}\n               : \"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3]), \"l\"(db));\n}}\n",
            acc,
            acc + 1,
            acc + 2,
            acc + 3,
            acc + 4
        )
    }
}

/// The TMA copies of tile `t` of a stage at `base` (a C expression of the
/// shared pointer), one per box, at tensor-map coordinate `(64 j, row,
/// head, batch)` (`row` a C expression), completing on the barrier `bar`.
fn boxes(t: &Sm90Tile, map: &str, base: &str, row: &str, head: &str, bar: &str, w: i64) -> String {
    let mut s = String::new();
    for (j, off) in t.boxes.iter().enumerate() {
        let _ =
            writeln!(s, "    kute_tma_load_4d({base} + {off}, &{map}, {}, {row}, {head}, batch, {bar});", w * j as i64);
    }
    s
}

/// The kernel `name(tma_q, tma_k, tma_v, O, LSE, params)` of the plan `p`.
pub(crate) fn source(name: &str, p: &AttentionSm90Plan) -> Result<String> {
    let Sm90AttentionConfig { head_dim: d, block_n: bn, warpgroups, stages, causal, overlap, pingpong, .. } = p.config;
    let pingpong = pingpong && warpgroups > 1;
    let elem = p.elem;
    let (bm, threads) = (p.block_m, p.threads);
    let ty = ptx_type(elem);
    let pack = if elem == Elem::Bf16 { "kute_pack_bf16x2" } else { "kute_pack_f16x2" };
    let w = 128 / elem.bytes();
    let mut s = String::new();
    header(
        &mut s,
        &format!(
            "sm90 attention forward, {elem}, d = {d}, {bm} query rows x {bn} keys per step, {warpgroups} consumer warpgroup(s), {stages} stages{}{}, S by {}, O by {}",
            if causal { ", causal" } else { "" },
            if overlap { ", S(n - 1) overlapped with the softmax" } else { "" },
            p.atoms[0],
            p.atoms[1]
        ),
    );
    for (what, t) in ["q", "k", "v"].iter().zip(&p.smem) {
        let _ = writeln!(s, "// shared {what}: {} ({})", t.layout, t.atom);
    }
    plain_fn(&mut s, &p.s_regs.row, &format!("{name}_s_row"))?;
    plain_fn(&mut s, &p.s_regs.col, &format!("{name}_s_col"))?;
    plain_fn(&mut s, &p.o_regs.row, &format!("{name}_o_row"))?;
    plain_fn(&mut s, &p.o_regs.col, &format!("{name}_o_col"))?;
    s.push_str(device::TMA);
    s.push_str(device::MBARRIER);
    s.push_str(device::EX2);
    s.push_str(device::CVT_PACK);
    s.push_str(PARAMS);
    // the descriptors of the three tiles, their fields read off the layouts
    let desc = |x: &str, t: &Sm90Tile| {
        format!(
            "__device__ __forceinline__ unsigned long long kute_desc_{x}(const void* p) {{\n  return kute_wgmma_desc_sw128<{}, {}>(p);\n}}\n",
            t.desc.lbo, t.desc.sbo
        )
    };
    s.push_str(device::WGMMA_DESC);
    for (x, t) in ["q", "k", "v"].iter().zip(&p.smem) {
        s.push_str(&desc(x, t));
    }
    s.push_str(&wgmma_fn("kute_wgmma_s", bn, ty, true));
    s.push_str(&wgmma_fn("kute_wgmma_o", d, ty, false));

    let (s_acc, o_acc) = (p.s.values * p.s.repeats, p.o.values * p.o.repeats);
    let p_regs = p.p.values * p.p.repeats / 2; // 16-bit pairs
    let slots = p.slot_rows.len();
    let (q_cells, k_cells) = (bm * d, bn * d);
    let bytes = elem.bytes();

    // S = Q · K(stage)ᵀ into `acc`, the first k step overwriting it
    let mut s_gemm = String::new();
    for (ks, (qo, ko)) in p.smem[0].ksteps.iter().zip(&p.smem[1].ksteps).enumerate() {
        let _ = writeln!(
            s_gemm,
            "    kute_wgmma_s(acc, kute_desc_q(sqw + {qo}), kute_desc_k(sks + {ko}), {});",
            i32::from(ks > 0)
        );
    }
    // O += P · V(stage), k step j from P's registers pf[j]
    let mut o_gemm = String::new();
    for (j, vo) in p.smem[2].ksteps.iter().enumerate() {
        let _ = writeln!(o_gemm, "    kute_wgmma_o(acc_o, pf[{j}], kute_desc_v(svs + {vo}));");
    }
    // the masks, the online softmax (O rescaled once the P·V in flight is
    // in), P from S's registers, and the end
    let (s_reg, o_reg) = (|i: usize| format!("acc_s[{i}]"), |i: usize| format!("acc_o[{i}]"));
    let rows = Rows {
        s: &p.s_regs,
        o: &p.o_regs,
        slot_rows: &p.slot_rows,
        row_masks: &p.row_masks,
        s_reg: &s_reg,
        o_reg: &o_reg,
    };
    let mask = rows.mask(causal);
    let masked = if causal { format!("n0 + {bn} > lk || n0 + {bn} - 1 > m0 + off") } else { format!("n0 + {bn} > lk") };
    let [head, rescale, tail] = rows.softmax(true);
    let softmax = head + &tail;
    let to_p = rows.to_p(&p.p_src, pack);
    // the registers in flight in a wgmma are kept where they are until it
    // has finished (the compiler sees the asm's operands used at its issue)
    let fence = |n: i64, c: &str, reg: &dyn Fn(i64) -> String| -> String {
        let mut f = String::new();
        for i in 0..n {
            let _ = writeln!(f, "    asm volatile(\"\" : \"+{c}\"({}) :: \"memory\");", reg(i));
        }
        f
    };
    let fence_o = fence(o_acc, "f", &|i| format!("acc_o[{i}]"));
    let fence_p = fence(p_regs, "r", &|i| format!("pf[{}][{}]", i / 4, i % 4));
    let fence_s = fence(s_acc, "f", &|i| format!("acc_s[{i}]"));
    // a stage's K is released once its S is in, its V once its P·V is
    let release =
        |x: &str, it: &str| format!("if (ct % 32 == 0) kute_arrive(kute_bar(&{x}_empty[({it}) % {stages}]));\n");
    // the warpgroups take turns issuing their wgmma (FlashAttention-3's
    // ping-pong: one's softmax runs while the other's products do): each
    // waits on its named barrier (1 + w) before issuing and lets the next
    // one go after
    let (turn, pass) = if pingpong {
        (
            "    asm volatile(\"bar.sync %0, 256;\" :: \"r\"(1 + cw) : \"memory\");\n".to_string(),
            format!("    asm volatile(\"bar.arrive %0, 256;\" :: \"r\"(1 + (cw + 1) % {warpgroups}) : \"memory\");\n"),
        )
    } else {
        (String::new(), String::new())
    };
    // one product of key block `it`: its stage's tile `x` (K or V) has
    // landed, then the wgmma `gemm` reading it from `s{x}s`
    let step = |x: &str, it: &str, gemm: &str| {
        let acc = if x == "k" { format!("    float (&acc)[{s_acc}] = acc_s;\n") } else { String::new() };
        format!(
            "    {{\n    const int st = {it} % {stages};\n    kute_wait(kute_bar(&{x}_full[st]), (unsigned int)(({it} / {stages}) & 1));\n    const unsigned short* s{x}s = s{x} + st * {k_cells};\n{acc}    asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\");\n{gemm}    asm volatile(\"wgmma.commit_group.sync.aligned;\" ::: \"memory\");\n    }}\n"
        )
    };
    let s_step = |it: &str| step("k", it, &s_gemm);
    let o_step = |it: &str| step("v", it, &o_gemm);
    let mask_block = format!("    if ({masked}) {{\n{mask}    }}\n");
    let body = if overlap {
        // S(n_end - 1) alone, then per block: S(n - 1) and P(n)·V(n) issued
        // together, the softmax of S(n - 1) once it is in, O rescaled and
        // P(n - 1) made once P(n)·V(n) is; finally P(0)·V(0)
        format!(
            r#"  if (n_end > 0) {{
    int n = n_end - 1, n0 = n * {bn};
{turn}{s0}{pass}    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
{fence_s}    {rel_k0}{mask_block}{softmax}{rescale}{to_p}    for (; n > 0; ++it) {{
      --n;
      n0 = n * {bn};
{turn}{s1}{o1}{pass}      // S(n) is in (P(n + 1)·V(n + 1) may still run)
      asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
{fence_s}      {rel_k1}{mask_block}{softmax}      asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
{fence_o}{fence_p}      {rel_v1}{rescale}{to_p}    }}
{turn}{o_last}{pass}    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
{fence_o}{fence_p}    {rel_v1}    ++it;
  }}
"#,
            s0 = s_step("it"),
            s1 = s_step("(it + 1)"),
            o1 = o_step("it"),
            o_last = o_step("it"),
            rel_k0 = release("k", "it"),
            rel_k1 = release("k", "it + 1"),
            rel_v1 = release("v", "it"),
        )
    } else {
        format!(
            r#"  for (int n = n_end - 1; n >= 0; --n, ++it) {{
    const int n0 = n * {bn};
{turn}{s1}{pass}    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
{fence_s}    {rel_k}{mask_block}{softmax}{rescale}{to_p}{turn}{o1}{pass}    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
{fence_o}{fence_p}    {rel_v}  }}
"#,
            s1 = s_step("it"),
            o1 = o_step("it"),
            rel_k = release("k", "it"),
            rel_v = release("v", "it"),
        )
    };
    // (the first warpgroup goes first; the turn the last one passes it at
    // the end is taken, so that no arrival is left on a barrier)
    let (turn_first, turn_last) = if pingpong {
        (
            format!("  if (cw == {}) asm volatile(\"bar.arrive 1, 256;\" ::: \"memory\");\n", warpgroups - 1),
            "  if (cw == 0) asm volatile(\"bar.sync 1, 256;\" ::: \"memory\");\n".to_string(),
        )
    } else {
        (String::new(), String::new())
    };
    let store = rows.store(pack, "ct");

    // a tile's query block, head and batch entry: the query blocks of a
    // head one after the other (the last first when causal: the most keys)
    let m_block = if causal { "m_blocks - 1 - mb" } else { "mb" };
    let causal_end = if causal {
        format!("\n    n_end = min(n_end, (max(0, m0 + {bm} + off) + {bn} - 1) / {bn});")
    } else {
        String::new()
    };
    let place = format!(
        "const int mb = (int)(tile % m_blocks);\n    const long long hb = tile / m_blocks;\n    const int m0 = ({m_block}) * {bm};\n    const int head = (int)(hb % prm.heads), batch = (int)(hb / prm.heads), kv_head = head / prm.group;\n    int n_end = (lk + {bn} - 1) / {bn};{causal_end}"
    );
    // registers: the producer gives back what the consumers take (two
    // consumer warpgroups: 24 + 2 · 240 of 3 · 168; three: 24 + 3 · 160 of
    // 4 · 128; one has 255 a thread without)
    let (dec, inc) = match warpgroups {
        1 => (String::new(), String::new()),
        w => (
            "asm volatile(\"setmaxnreg.dec.sync.aligned.u32 24;\");".to_string(),
            format!("asm volatile(\"setmaxnreg.inc.sync.aligned.u32 {};\");", if w == 2 { 240 } else { 160 }),
        ),
    };
    let q_boxes = boxes(&p.smem[0], "tma_q", "sq", "m0", "head", "qb", w);
    let k_boxes =
        boxes(&p.smem[1], "tma_k", &format!("(sk + st * {k_cells})"), &format!("n * {bn}"), "kv_head", "kb", w);
    let v_boxes =
        boxes(&p.smem[2], "tma_v", &format!("(sv + st * {k_cells})"), &format!("n * {bn}"), "kv_head", "vb", w);
    let _ = write!(
        s,
        r#"extern "C" __global__ void __launch_bounds__({threads}, 1) {name}(const __grid_constant__ kute_tmap tma_q, const __grid_constant__ kute_tmap tma_k, const __grid_constant__ kute_tmap tma_v, unsigned short* __restrict__ O, float* __restrict__ LSE, const kute_attention_params prm) {{
  extern __shared__ unsigned char smem_raw[];
  // 1024-byte aligned, as the 128-byte swizzle needs
  unsigned short* sm = reinterpret_cast<unsigned short*>((reinterpret_cast<unsigned long long>(smem_raw) + 1023ULL) & ~1023ULL);
  unsigned short* sq = sm;
  unsigned short* sk = sm + {q_cells};
  unsigned short* sv = sk + {stages} * {k_cells};
  // q_full, k_full, v_full: the tile's bytes have landed; q_empty,
  // k_empty, v_empty: every consumer warp is done with Q or the stage's K
  // or V
  __shared__ alignas(8) unsigned long long q_full, q_empty, k_full[{stages}], v_full[{stages}], k_empty[{stages}], v_empty[{stages}];
  const float kute_neg_inf = __int_as_float(0xff800000u);
  const int t = threadIdx.x;
  const int lq = prm.lq, lk = prm.lk, off = lk - lq;
  (void)off;
  // the tiles: each block takes tiles first, first + step, ... (one each
  // where the grid has a block per tile, in turn where it is persistent)
  const int m_blocks = (lq + {bm} - 1) / {bm};
  const long long tiles = (long long)m_blocks * prm.heads * prm.batch;
  const long long first = blockIdx.x, step = gridDim.x;
  if (t == 0) {{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(kute_bar(&q_full)));
    asm volatile("mbarrier.init.shared::cta.b64 [%0], {consumer_warps};" :: "r"(kute_bar(&q_empty)));
    for (int s = 0; s < {stages}; ++s) {{
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(kute_bar(&k_full[s])));
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(kute_bar(&v_full[s])));
      asm volatile("mbarrier.init.shared::cta.b64 [%0], {consumer_warps};" :: "r"(kute_bar(&k_empty[s])));
      asm volatile("mbarrier.init.shared::cta.b64 [%0], {consumer_warps};" :: "r"(kute_bar(&v_empty[s])));
    }}
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }}
  __syncthreads();
  if (t < 128) {{
    // the producer: one thread issues every copy, each tile's Q once the
    // consumers are done with the last one's, its key blocks from the last
    // to the first (the masked ones first)
    {dec}
    if (t != 0) return;
    int it = 0, j = 0;
    for (long long tile = first; tile < tiles; tile += step, ++j) {{
    {place}
    const unsigned int qb = kute_bar(&q_full);
    if (j > 0) kute_wait(kute_bar(&q_empty), (unsigned int)((j - 1) & 1));
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(qb), "r"({q_bytes}) : "memory");
{q_boxes}    for (int n = n_end - 1; n >= 0; --n, ++it) {{
      const int st = it % {stages};
      // the consumers released this stage's previous round of K, then of V
      const unsigned int kb = kute_bar(&k_full[st]), vb = kute_bar(&v_full[st]);
      if (it >= {stages}) kute_wait(kute_bar(&k_empty[st]), (unsigned int)(((it / {stages}) + 1) & 1));
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(kb), "r"({k_bytes}) : "memory");
{k_boxes}      if (it >= {stages}) kute_wait(kute_bar(&v_empty[st]), (unsigned int)(((it / {stages}) + 1) & 1));
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(vb), "r"({k_bytes}) : "memory");
{v_boxes}    }}
    }}
    return;
  }}
  // the consumers: warpgroup cw owns query rows 64 cw .. 64 cw + 63
  {inc}
  const int ct = t - 128;
  const int cw = ct / 128;
  const int s_row0 = (int){name}_s_row(ct), s_col0 = (int){name}_s_col(ct);
  const int o_row0 = (int){name}_o_row(ct), o_col0 = (int){name}_o_col(ct);
  (void)s_row0;
  (void)s_col0;
  const float sl2 = prm.scale_log2;
  const unsigned short* sqw = sq + cw * {q_wg};
  float acc_o[{o_acc}];
  float acc_s[{s_acc}];
  unsigned int pf[{p_steps}][4];
  float row_max[{slots}], row_sum[{slots}];
  int it = 0, j = 0;
{turn_first}  for (long long tile = first; tile < tiles; tile += step, ++j) {{
  {place}
#pragma unroll
  for (int r = 0; r < {o_acc}; ++r) acc_o[r] = 0.f;
#pragma unroll
  for (int r = 0; r < {slots}; ++r) {{ row_max[r] = kute_neg_inf; row_sum[r] = 0.f; }}
  // the tile's Q has landed (waited for even where no key is seen: each
  // round of the barrier is taken)
  kute_wait(kute_bar(&q_full), (unsigned int)(j & 1));
{body}  // Q is free for the next tile's
  if (ct % 32 == 0) kute_arrive(kute_bar(&q_empty));
  unsigned short* go = O + batch * prm.o[0] + head * prm.o[2];
  float* glse = LSE + batch * prm.lse[0] + head * prm.lse[2];
{store}  }}
{turn_last}}}
"#,
        consumer_warps = 4 * warpgroups,
        q_bytes = q_cells * bytes,
        k_bytes = k_cells * bytes,
        q_wg = p.q_wg,
        p_steps = p_regs / 4,
    );
    Ok(s)
}
