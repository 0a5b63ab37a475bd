//! The CUDA text of the SM90 `wgmma` GEMMs: a block per tile with
//! `cp.async` or TMA loads, or the warp-specialized persistent kernel.

use super::epilogue::{finish_kernel, op_fn, op_params};
use super::{args, c, coordinate_sum, device, header, layout_fn, mode_calls, plain_fn, ptx_type, unknown_params};
use crate::gemm_sm90::{wgmma_k, BiasMode, Sm90Config, Sm90Loader, THREADS};
use crate::plan::gemm_sm90::Sm90Plan;
use crate::plan::known_multiple;
use crate::{Elem, Result};
use kute::Int;

/// The kernel's parameters for sizes given at launch (the unknowns of
/// `M`, `N`, `K`, `C`'s leading dimension, the batch and `C`'s batch
/// stride, in that order), or nothing.
fn size_params(p: &Sm90Plan) -> String {
    let (m, n, k) = p.mnk();
    let (l, sc) = p.extents.batch.unzip();
    let xs: Vec<Int> = [Some(m), Some(n), Some(k), Some(p.extents.ldc), l, sc].into_iter().flatten().collect();
    unknown_params(&xs)
}

/// The kernel `name` of the plan `p` (see [`crate::gemm_sm90`]).
pub(crate) fn source(name: &str, p: &Sm90Plan) -> Result<String> {
    let (m, n, k) = p.mnk();
    let Sm90Config { loader, c_elem, k_major: (a_k, b_k), .. } = p.config;
    let elem = p.elem;
    let (_, bn, bk) = p.tile;
    let stages = p.stages;
    let (et, kw) = (elem.carrier(), wgmma_k(elem));
    let tma = loader != Sm90Loader::CpAsync;
    let (smem, atom) = (&p.smem, &p.atom);
    let mut s = String::new();
    header(&mut s, &format!("sm90 gemm TN C({m},{n}) {c_elem} = A({m},{k}) * B({n},{k})^T, {elem}, wgmma m64n{bn}k{kw}, shared {smem} ({atom})"));
    for (l, f) in [
        (&p.a_tiles, "a_tiles"),
        (&p.b_tiles, "b_tiles"),
        (&p.c_tiles, "c_tiles"),
        (&p.a_scopy, "a_scopy"),
        (&p.b_scopy, "b_scopy"),
        (&p.c_frag, "c_frag"),
        (&p.c_rep, "c_rep"),
        (&p.c_tile, "c_tile"),
    ] {
        plain_fn(&mut s, l, &format!("{name}_{f}"))?;
    }
    // the warp-specialized kernel evaluates the tile layouts by mode
    if loader == Sm90Loader::WarpSpecialized {
        let modes = [
            (Some(&p.c_tiles_modes), ["c_tiles_m", "c_tiles_n", "c_tiles_b"]),
            (p.a_ctiles_modes.as_ref(), ["a_rows", "a_ks", "a_batch"]),
            (p.b_ctiles_modes.as_ref(), ["b_rows", "b_ks", "b_batch"]),
            (p.c_ctiles_modes.as_ref(), ["c_rows", "c_cols", "c_batch"]),
        ];
        let w_tiles = p.split_k.as_ref().map(|x| &x.w_tiles);
        let modes = modes.into_iter().chain([(w_tiles, ["w_tiles_m", "w_tiles_n", "w_tiles_b"])]);
        if let Some(op) = p.extents.op {
            s.push_str(&op_fn(name, op));
        }
        if let Some(x) = &p.split_k {
            plain_fn(&mut s, &x.finish_coord, &format!("{name}_finish_coord"))?;
            plain_fn(&mut s, &x.w_tile, &format!("{name}_w_tile"))?;
            plain_fn(&mut s, &x.w_share, &format!("{name}_w_share"))?;
            plain_fn(&mut s, &x.finish, &format!("{name}_finish_at"))?;
        }
        for (m, [f0, f1, fb]) in modes {
            let Some(m) = m else { continue };
            plain_fn(&mut s, &m.first, &format!("{name}_{f0}"))?;
            plain_fn(&mut s, &m.second, &format!("{name}_{f1}"))?;
            if let Some(b) = &m.batch {
                plain_fn(&mut s, b, &format!("{name}_{fb}"))?;
            }
        }
    }
    for (l, f) in [
        (&p.a_gcopy, "a_gcopy"),
        (&p.b_gcopy, "b_gcopy"),
        (&p.a_ctiles, "a_ctiles"),
        (&p.b_ctiles, "b_ctiles"),
        (&p.c_ctiles, "c_ctiles"),
        (&p.c_ctile, "c_ctile"),
    ] {
        if let Some(l) = l {
            plain_fn(&mut s, l, &format!("{name}_{f}"))?;
        }
    }
    if let Some(l) = &p.c_stage {
        layout_fn(&mut s, l, &format!("{name}_c_stage"))?;
    }
    if let Some([thr, val, wg]) = &p.c_coord_parts {
        plain_fn(&mut s, thr, &format!("{name}_c_thr"))?;
        plain_fn(&mut s, val, &format!("{name}_c_val"))?;
        plain_fn(&mut s, wg, &format!("{name}_c_wg"))?;
    }
    layout_fn(&mut s, &p.smem, &format!("{name}_sa"))?;
    layout_fn(&mut s, &p.smem_b, &format!("{name}_sb"))?;
    let (a_elems, b_elems) = p.stage_elems;
    let acc = bn / 2; // m64nN: N/2 f32 accumulators per thread
    let (tm, tn, ktiles) = (c(p.tiles.0), c(p.tiles.1), c(p.tiles.2));
    let (pa, pb) = p.passes;
    let tvv = p.pass_step;
    let cp_load = format!(
        r#"  auto load = [&](long long kt, int stage) {{
    const {et}* ga = A + {name}_a_tiles(bm + {tm} * kt);
    const {et}* gb = B + {name}_b_tiles(bn + {tn} * kt);
#pragma unroll
    for (int p = 0; p < {pa}; ++p) {{
      const long long i = t + {tvv}LL * p;
      kute_cp_async16(sa + stage * {a_elems} + {name}_sa({name}_a_scopy(i)), ga + {name}_a_gcopy(i));
    }}
#pragma unroll
    for (int p = 0; p < {pb}; ++p) {{
      const long long i = t + {tvv}LL * p;
      kute_cp_async16(sb + stage * {b_elems} + {name}_sb({name}_b_scopy(i)), gb + {name}_b_gcopy(i));
    }}
  }};
"#,
    );
    let tma_load = format!(
        r#"  __shared__ alignas(8) unsigned long long full[{stages}];
  if (t == 0) {{
    for (int s = 0; s < {stages}; ++s) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(kute_bar(&full[s])));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }}
  __syncthreads();
  auto load = [&](long long kt, int stage) {{
    if (t != 0) return;
    const unsigned int bar = kute_bar(&full[stage]);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"({tile_bytes}) : "memory");
    const auto ca = {name}_a_ctiles(bm + {tm} * kt);
    const auto cb = {name}_b_ctiles(bn + {tn} * kt);
    {copy_a}
    {copy_b}
  }};
"#,
        copy_a = tma_copy("a", &format!("stage * {a_elems}"), "ca.c[1]", "ca.c[0]", None, false),
        copy_b = tma_copy("b", &format!("stage * {b_elems}"), "cb.c[1]", "cb.c[0]", None, false),
        tile_bytes = (a_elems + b_elems) * elem.bytes(),
    );
    let (tma_decl, params, load_fn, commit, wait_tile) = if tma {
        (
            format!("{}{}", device::TMA, device::MBARRIER),
            "const __grid_constant__ kute_tmap tma_a, const __grid_constant__ kute_tmap tma_b".to_string(),
            tma_load,
            String::new(),
            format!("kute_wait(kute_bar(&full[kt % {stages}]), (unsigned int)((kt / {stages}) & 1));"),
        )
    } else {
        (
                String::new(),
                format!("const {et}* __restrict__ A, const {et}* __restrict__ B"),
                cp_load,
                "asm volatile(\"cp.async.commit_group;\" ::: \"memory\");".to_string(),
                format!("asm volatile(\"cp.async.wait_group {};\" ::: \"memory\");\n    asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\");", stages - 3),
            )
    };
    if !tma {
        s.push_str(device::CP_ASYNC);
    }
    s.push_str(device::WGMMA_DESC);
    s.push_str(device::WGMMA);
    if p.extents.op.is_some_and(|o| o.beta) {
        s.push_str(device::CVT);
    }
    let ty = ptx_type(elem);
    let (da, db) = (p.desc_a, p.desc_b);
    // 16-bit wgmma takes the operands' transpose bits; 8-bit reads K-major only
    let targs = if elem.is_fp8() { String::new() } else { format!("<{}, {}>", u8::from(!a_k), u8::from(!b_k)) };
    s.push_str(&format!(
        r#"// the shared tiles' descriptors, their byte offsets read off the layouts
__device__ __forceinline__ unsigned long long kute_desc_a(const void* p) {{
  return kute_wgmma_desc_sw128<{}, {}>(p);
}}
__device__ __forceinline__ unsigned long long kute_desc_b(const void* p) {{
  return kute_wgmma_desc_sw128<{}, {}>(p);
}}
// A and B transposed (imm-trans) where they are M- or N-major
__device__ __forceinline__ void kute_wgmma(float (&d)[{acc}], unsigned long long da, unsigned long long db) {{
  kute_wgmma_m64n{bn}k{kw}_f32_{ty}{targs}(d, da, db);
}}
"#,
        da.lbo, da.sbo, db.lbo, db.sbo,
    ));
    if loader == Sm90Loader::WarpSpecialized {
        s.push_str(&warp_specialized_kernel(name, &tma_decl, p, false)?);
        // split-K: a second kernel adding each share's sums into a workspace,
        // and a third converting the workspace into C
        if let Some(x) = &p.split_k {
            s.push_str(&warp_specialized_kernel(name, "", p, true)?);
            s.push_str(&finish_kernel(name, (p.config.c_elem, p.extents.op), &size_params(p), x));
        }
    } else {
        s.push_str(&format!(
                r#"{tma_decl}extern "C" __global__ void __launch_bounds__({THREADS}) {name}({params}, float* __restrict__ C) {{
  extern __shared__ unsigned char smem_raw[];
  // 1024-byte aligned, as the 128-byte swizzle needs
  {et}* sm = reinterpret_cast<{et}*>((reinterpret_cast<unsigned long long>(smem_raw) + 1023ULL) & ~1023ULL);
  {et}* sa = sm;
  {et}* sb = sm + {stages} * {a_elems};
  const long long t = threadIdx.x;
  const long long wg = t / 128;
  const long long bm = blockIdx.x, bn = blockIdx.y;
  float d[{acc}];
#pragma unroll
  for (int r = 0; r < {acc}; ++r) d[r] = 0.f;
  const long long ktiles = {ktiles};
{load_fn}#pragma unroll
  for (int s = 0; s < {stages} - 2; ++s) {{
    if (s < ktiles) load(s, s);
    {commit}
  }}
  for (long long kt = 0; kt < ktiles; ++kt) {{
    // tile kt has landed; every thread's wgmma of tile kt-2 has finished
    {wait_tile}
    __syncthreads();
    // refill the stage of tile kt-2
    const long long next = kt + {stages} - 2;
    if (next < ktiles) load(next, (int)(next % {stages}));
    {commit}
    const {et}* sas = sa + (kt % {stages}) * {a_elems} + wg * {wg_rows};
    const {et}* sbs = sb + (kt % {stages}) * {b_elems};
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int ks = 0; ks < {ksteps}; ++ks) kute_wgmma(d, kute_desc_a(sas + {a_kstep} * ks), kute_desc_b(sbs + {b_kstep} * ks));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    // keep one tile's wgmma in flight
    asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
  }}
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  float* gc = C + {name}_c_tiles(bm + {tm} * bn);
#pragma unroll
  for (int r = 0; r < {acc}; r += 2) {{
    const long long at = {name}_c_tile({name}_c_frag(t % 128 + 128LL * r) + {name}_c_rep(wg));
    asm volatile("st.global.v2.f32 [%0], {{%1, %2}};" :: "l"(gc + at), "f"(d[r]), "f"(d[r + 1]) : "memory");
  }}
}}
"#,
                wg_rows = 64 * bk,
                ksteps = bk / wgmma_k(elem),
                a_kstep = p.desc_a.kstep,
                b_kstep = p.desc_b.kstep,
            ));
    }
    Ok(s)
}

/// The warp-specialized persistent kernel (see [`crate::gemm_sm90`]): the
/// layout functions, `kute_desc_a`, `kute_desc_b` and `kute_wgmma` are
/// already in the source, and `tma_decl` holds the TMA and mbarrier headers.
fn warp_specialized_kernel(name: &str, tma_decl: &str, p: &Sm90Plan, split: bool) -> Result<String> {
    let kernel = if split { format!("{name}_split") } else { name.to_string() };
    let (elem, c_elem) = (p.elem, p.config.c_elem);
    let et = elem.carrier();
    let (_, tn, ktiles) = p.tiles;
    // the persistent loop's rows of tiles: M-tiles, or a cluster's pairs
    let tm = p.sched_tm;
    let cluster = p.config.cluster;
    let per_batch = tm.mul(tn)?;
    let tiles = c(match p.extents.batch {
        Some((l, _)) => per_batch.mul(l)?,
        None => per_batch,
    });
    let per_batch = c(per_batch);
    let group_tiles = c(Int::new_dynamic(p.group).mul(tn)?);
    let (tm, ktiles) = (c(tm), c(ktiles));
    let rank = p.rank();
    let (a_elems, b_elems) = p.stage_elems;
    // per operand: (tile rows, K-major), offsets in elements: the k steps',
    // and the second warpgroup's in A
    let (bm, bn, bk) = p.tile;
    let stages = p.stages;
    let operands = [(bm, p.config.k_major.0), (bn, p.config.k_major.1)];
    let (a_kstep, b_kstep, a_wg) = (p.desc_a.kstep, p.desc_b.kstep, p.wg_offset);
    let (m_c, n_c) = (c(p.mnk().0), c(p.mnk().1));
    let edges = p.predicated.then(|| (m_c.clone(), n_c.clone()));
    // value pairs are stored together where every pair is aligned: N and
    // C's row and batch strides even
    let even = |x: Int| known_multiple(x, 2);
    let n_even = even(p.mnk().1) && even(p.extents.ldc) && p.extents.batch.is_none_or(|(_, sc)| even(sc));
    let c_tile = args(&p.c_tile);
    // the tile's first offset in C and first coordinate, by mode
    let m = &p.c_tiles_modes;
    let mut gc = format!("C + {name}_c_tiles_m(bm{}) + {name}_c_tiles_n(bn{})", args(&m.first), args(&m.second));
    if let Some(l) = &m.batch {
        gc.push_str(&format!(" + {name}_c_tiles_b(b{})", args(l)));
    }
    let cc = p
        .c_ctiles_modes
        .as_ref()
        .map(|m| coordinate_sum("cc", &mode_calls(name, ("c_rows", "c_cols", "c_batch"), m, ("bm", "bn")), rank))
        .unwrap_or_default();
    let c_ctile = p.c_ctile.as_ref().map(args).unwrap_or_default();
    // the producer's coordinates: per tile its rows' (and batch's), per
    // k-tile the k-tile's added
    let (mut per_tile, mut per_ktile) = (String::new(), String::new());
    for (x, i) in [("a", "bm"), ("b", "bn")] {
        let Some(m) = (if x == "a" { &p.a_ctiles_modes } else { &p.b_ctiles_modes }) else { continue };
        per_tile.push_str(&format!("const auto c{x}r = {name}_{x}_rows({i}{});\n      ", args(&m.first)));
        let mut terms = vec![format!("c{x}r"), format!("c{x}k")];
        if let Some(l) = &m.batch {
            per_tile.push_str(&format!("const auto c{x}b = {name}_{x}_batch(b{});\n      ", args(l)));
            terms.push(format!("c{x}b"));
        }
        per_ktile.push_str(&format!("const auto c{x}k = {name}_{x}_ks(kt{});\n        ", args(&m.second)));
        let comps: Vec<String> =
            (0..rank).map(|d| terms.iter().map(|t| format!("{t}.c[{d}]")).collect::<Vec<_>>().join(" + ")).collect();
        per_ktile.push_str(&format!(
            "const struct {{ long long c[{rank}]; }} c{x} = {{{{{}}}}};\n        ",
            comps.join(", ")
        ));
    }
    let group = p.group;
    // the tile's (bm, bn): groups of `group` M-tiles (the last one smaller
    // where `group` does not divide the M-tiles)
    // the group and the tile in it (32-bit divisions by a run-time count:
    // the problem's tiles are fewer than 2^31)
    let mut tile_split = if p.extents.batch.is_some() {
        format!("const long long b = (unsigned int)tile / (unsigned int){per_batch}, t = (unsigned int)tile % (unsigned int){per_batch};\n    ")
    } else {
        "const long long t = tile;\n    ".to_string()
    };
    tile_split.push_str(&if p.group_divides {
        format!("const long long g = t / {group_tiles}, w = t % {group_tiles};")
    } else {
        format!(
            "const long long g = (unsigned int)t / (unsigned int){group_tiles}, w = (unsigned int)t % (unsigned int){group_tiles};"
        )
    });
    let tile_order = if p.group_divides {
        format!("const long long bm = g * {group} + w % {group}, bn = w / {group};")
    } else {
        format!(
            "const long long gs = {tm} - g * {group} < {group} ? {tm} - g * {group} : {group};\n    const long long bm = g * {group} + (unsigned int)w % (unsigned int)gs, bn = (unsigned int)w / (unsigned int)gs;"
        )
    };
    let tile_order = if cluster == 1 {
        tile_order
    } else {
        format!(
            "{}\n    const long long bm = {cluster} * pm + crank;",
            tile_order.replace("const long long bm = ", "const long long pm = ")
        )
    };
    let mut sizes = size_params(p);
    // split-K: S shares of each tile's k-tiles, unit = share · tiles + tile
    let (units, unit_split, kt0, kt1) = if split {
        sizes.push_str(", float* __restrict__ W, const long long S");
        (
            "tiles * S".to_string(),
            "const long long tile = (unsigned int)unit % (unsigned int)tiles, split = (unsigned int)unit / (unsigned int)tiles;".to_string(),
            "split".to_string(),
            ktiles.clone(),
        )
    } else {
        sizes.push_str(&op_params(p.extents.op));
        ("tiles".to_string(), "const long long tile = unit;".to_string(), "0".to_string(), ktiles.clone())
    };
    // share `split` of S takes every S-th k-tile from its own: the shares of
    // a tile, at work together, read neighbouring 128-byte pieces of the
    // same rows (one stretch of DRAM) rather than S stretches far apart
    let kstep = if split { "S" } else { "1" };
    // the fused epilogue on the accumulators, one pair at a time as each is
    // stored (the split kernel's shares get it in the finishing kernel,
    // after their sum): applied in the store loops, so that no pass over
    // all the accumulators holds their transformed values and the bias's
    // beside them (which spilled)
    // (`@C0@` and `@C1@` stand for the pair's values of C where the
    // epilogue reads C: each store path says where it reads them)
    let reads_c = p.extents.op.is_some_and(|o| o.beta) && !split;
    let c_terms = if reads_c { (" + beta * (@C0@)", " + beta * (@C1@)") } else { ("", "") };
    let (stage_bias, on_pair, release_bias) = match (p.extents.op, split) {
        (Some(op), false) if op.bias == BiasMode::None => (
            String::new(),
            format!(
                "d[r] = {name}_act(alpha * d[r]{c0}); d[r + 1] = {name}_act(alpha * d[r + 1]{c1});",
                c0 = c_terms.0,
                c1 = c_terms.1
            ),
            String::new(),
        ),
        (Some(op), false) => {
            // the tile's bias values, staged in shared memory by both
            // consumer warpgroups (coalesced), then read per accumulator
            // (scattered global loads cost 0.06 ms on 4096³)
            let per_row = op.bias == BiasMode::PerRow;
            let (extent, first, inside) =
                if per_row { (bm, "cc.c[0]", m_c.clone()) } else { (bn, "cc.c[1]", n_c.clone()) };
            let bias_at = p.bias_offset.unwrap_or_default();
            // the accumulator pair's row or column in the tile: the
            // thread's and warpgroup's part once per tile, each value's a
            // constant (the plan's parts add without carry); else the
            // coordinate of the whole index
            let k = if per_row { 0 } else { 1 };
            let (base, at) = if p.c_coord_parts.is_some() {
                (
                    format!("const long long bias_base = {name}_c_thr(ct % 128).c[{k}] + {name}_c_wg(cw).c[{k}];\n"),
                    format!("bias_base + {name}_c_val(r).c[{k}]"),
                )
            } else {
                (
                    String::new(),
                    format!("{name}_c_ctile({name}_c_frag(ct % 128 + 128LL * r) + {name}_c_rep(cw){c_ctile}).c[{k}]"),
                )
            };
            let second = if per_row { "0" } else { "1" };
            (
                format!(
                    r#"    // (one buffer for both consumer warpgroups, which multiply the same tile:
    // named barrier 3 over their 256 threads)
    float* sbias = reinterpret_cast<float*>(reinterpret_cast<unsigned char*>(sm) + {bias_at});
    {{
    {cc}
    for (long long j = ct; j < {extent}; j += 256) sbias[j] = {first} + j < {inside} ? bias[{first} + j] : 0.f;
    }}
    {base}    asm volatile("bar.sync 3, 256;" ::: "memory");
"#
                ),
                format!(
                    "{{ const long long bi = {at}; d[r] = {name}_act(alpha * d[r]{c0} + sbias[bi]); d[r + 1] = {name}_act(alpha * d[r + 1]{c1} + sbias[bi + {second}]); }}",
                    c0 = c_terms.0,
                    c1 = c_terms.1
                ),
                // every thread has read the tile's values before the next
                // tile's overwrite them
                "    asm volatile(\"bar.sync 3, 256;\" ::: \"memory\");\n".to_string(),
            )
        }
        _ => (String::new(), String::new(), String::new()),
    };
    // C's value of element `e` of the pair from 16-bit bits or f32
    let widen = |bits: &str| match c_elem {
        Elem::F32 => bits.to_string(),
        Elem::Bf16 => format!("__bf162float_bits({bits})"),
        _ => format!("__half2float_bits({bits})"),
    };
    let with_c = |c0: String, c1: String| on_pair.replace("@C0@", &c0).replace("@C1@", &c1);
    let tma_store = p.c_boxes;
    let tma_store_call = match (rank, tma_store) {
        (3, Some((box_cols, _))) => {
            format!("kute_tma_store_3d(&tma_c, col0 + {box_cols} * j, row0, (int)cc.c[2], sbuf);")
        }
        (_, Some((box_cols, _))) => format!("kute_tma_store_2d(&tma_c, col0 + {box_cols} * j, row0, sbuf);"),
        _ => String::new(),
    };
    let bytes = elem.bytes();
    // per operand: (tile rows, K-major, the k step's offset, the second
    // warpgroup's offset), offsets in elements
    // one TMA box per K-major tile, one per 64-row slab of an MN-major one
    let w = 128 / bytes;
    let mut copies = String::new();
    for (x, elems, (rows, k_major)) in [("a", a_elems, operands[0]), ("b", b_elems, operands[1])] {
        let batch = (rank == 3).then(|| format!("c{x}.c[2]"));
        // a cluster's block loads its half of B's tile into both blocks
        if let (Some((half, second)), "b") = (p.b_half, x) {
            let (inner, outer, offset) = if k_major {
                (
                    "cb.c[1]".to_string(),
                    format!("cb.c[0] + crank * {half}"),
                    format!("stage * {elems} + crank * {second}"),
                )
            } else {
                let j = format!("(j + crank * {second})");
                (format!("cb.c[0] + {j} * {w}"), "cb.c[1]".to_string(), format!("stage * {elems} + {j} * {}", w * bk))
            };
            let call = tma_copy(x, &offset, &inner, &outer, batch.as_deref(), true);
            let slabs = if k_major { 1 } else { half };
            copies.push_str(&format!("        for (int j = 0; j < {slabs}; ++j) {call}\n"));
            continue;
        }
        for j in 0..if k_major { 1 } else { rows / w } {
            let (inner, outer) = if k_major {
                (format!("c{x}.c[1]"), format!("c{x}.c[0]"))
            } else {
                (format!("c{x}.c[0] + {}", j * w), format!("c{x}.c[1]"))
            };
            let offset = format!("stage * {elems} + {}", j * w * bk);
            copies.push_str(&format!("        {}\n", tma_copy(x, &offset, &inner, &outer, batch.as_deref(), false)));
        }
    }
    // the 16-bit C's conversion (cvt.rn.f16 / cvt.rn.bf16)
    let cvt = if c_elem == Elem::Bf16 { "bf16" } else { "f16" };
    // one element at a time, for the edge tiles
    let store_one = match c_elem {
        Elem::F32 => "gc[at + e] = d[r + e];".to_string(),
        _ => format!(
            r#"{{ unsigned short h; asm("cvt.rn.{cvt}.f32 %0, %1;" : "=h"(h) : "f"(d[r + e])); gc[at + e] = h; }}"#
        ),
    };
    let (c_type, store) = match c_elem {
        Elem::F32 => (
            "float",
            r#"asm volatile("st.global.v2.f32 [%0], {%1, %2};" :: "l"(gc + at), "f"(d[r]), "f"(d[r + 1]) : "memory");"#
                .to_string(),
        ),
        _ => (
            "unsigned short",
            // d[r] to the low half: the lower address
            format!(
                r#"unsigned int h; asm("cvt.rn.{cvt}x2.f32 %0, %1, %2;" : "=r"(h) : "f"(d[r + 1]), "f"(d[r]));
      asm volatile("st.global.b32 [%0], %1;" :: "l"(gc + at), "r"(h) : "memory");"#
            ),
        ),
    };
    let acc = bn / 2;
    let consumer_warps = 8;
    // a cluster of two blocks along M: both blocks' barriers initialized
    // before either multicasts into the other; each stage released by the
    // consumers of both (B's halves land in both); the producer stays until
    // every stage's last round is released, so that no arrival reaches a
    // block that has exited
    let (cluster_dims, init_sync, release, producer_tail) = if cluster == 1 {
        (
            String::new(),
            "  __syncthreads();\n  const long long first_unit = blockIdx.x, unit_step = gridDim.x;\n".to_string(),
            "kute_arrive",
            String::new(),
        )
    } else {
        (
            format!(" __cluster_dims__({cluster}, 1, 1)"),
            format!(
                r#"  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
  // this block's place in its cluster; the clusters take the units in turn
  unsigned int crank;
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(crank));
  const long long first_unit = blockIdx.x / {cluster}, unit_step = gridDim.x / {cluster};
"#
            ),
            "kute_arrive_pair",
            format!(
                "    for (int s = 0; s < {stages}; ++s, ++it)\n      if (it >= {stages}) kute_wait(kute_bar(&empty[it % {stages}]), (unsigned int)(((it / {stages}) + 1) & 1));\n"
            ),
        )
    };
    let fast = format!(
        r#"    {c_type}* gc = {gc};
#pragma unroll
    for (int r = 0; r < {acc}; r += 2) {{
      const long long at = {name}_c_tile({name}_c_frag(ct % 128 + 128LL * r) + {name}_c_rep(cw){c_tile});
      {fast_pair}
      {store}
    }}
"#,
        fast_pair = with_c(widen("gc[at]"), widen("gc[at + 1]"))
    );
    let direct = match edges.clone() {
        None => fast,
        Some((m, n)) => {
            // a value pair is two adjacent columns; paired stores need
            // rows of an even length
            let pair = if n_even {
                format!("if (col + 1 < {n}) {{ {store} }} else if (col < {n}) {{ const int e = 0; {store_one} }}")
            } else {
                format!(
                    "if (col < {n}) {{ const int e = 0; {store_one} }}\n        if (col + 1 < {n}) {{ const int e = 1; {store_one} }}"
                )
            };
            format!(
                r#"    {c_type}* gc = {gc};
    {cc}
#pragma unroll
    for (int r = 0; r < {acc}; r += 2) {{
      const long long x = {name}_c_frag(ct % 128 + 128LL * r) + {name}_c_rep(cw);
      const auto in = {name}_c_ctile(x{c_ctile});
      const long long at = {name}_c_tile(x{c_tile});
      const long long row = cc.c[0] + in.c[0], col = cc.c[1] + in.c[1];
      {edge_pair}
      if (row < {m}) {{
        {pair}
      }}
    }}
"#,
                edge_pair = with_c(
                    format!("row < {m} && col < {n} ? {} : 0.f", widen("gc[at]")),
                    format!("row < {m} && col + 1 < {n} ? {} : 0.f", widen("gc[at + 1]"))
                )
            )
        }
    };
    let (c_param, epilogue, drain) = match tma_store {
        None => (String::new(), direct, String::new()),
        Some((box_cols, boxes)) => {
            let box_bytes = 64 * 128;
            // one thread and a named barrier (1 + cw) per consumer warpgroup
            let per = acc / boxes; // accumulators of one box per thread
            let stage_store = match c_elem {
                Elem::F32 => r#"asm volatile("st.shared.v2.f32 [%0], {%1, %2};" :: "r"(sbuf + (unsigned int)at * 4u), "f"(d[r]), "f"(d[r + 1]) : "memory");"#.to_string(),
                _ => format!(
                    r#"unsigned int h; asm("cvt.rn.{cvt}x2.f32 %0, %1, %2;" : "=r"(h) : "f"(d[r + 1]), "f"(d[r]));
        asm volatile("st.shared.b32 [%0], %1;" :: "r"(sbuf + (unsigned int)at * 2u), "r"(h) : "memory");"#
                ),
            };
            // boxes entirely outside C (edge tiles) are not stored, but their
            // (empty) bulk groups are committed all the same, so that the
            // groups still count boxes
            let inside = match edges {
                None => String::new(),
                Some((m, n)) => format!(" && row0 < {m} && col0 + {box_cols} * j < {n}"),
            };
            // with beta, C's box first comes in by TMA (zeros past C's
            // edges) into the buffer the results then overwrite, on the
            // warpgroup's mbarrier `cin` (one completion per box)
            let box_in = if reads_c {
                // (the generic address of `sbuf`, which the TMA wrappers take)
                let at = format!("scg + cw * {} + (j % 2) * {box_bytes}", 2 * box_bytes);
                let call = match rank {
                    3 => format!("kute_tma_load_3d({at}, &tma_c, col0 + {box_cols} * j, row0, (int)cc.c[2], cbar);"),
                    _ => format!("kute_tma_load_2d({at}, &tma_c, col0 + {box_cols} * j, row0, cbar);"),
                };
                format!(
                    r#"      if (ct % 128 == 0) {{
        // the box stored from this buffer two boxes ago has been read
        asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(cbar), "r"({box_bytes}) : "memory");
        {call}
      }}
      kute_wait(cbar, (unsigned int)((ep * {boxes} + j) & 1));
"#
                )
            } else {
                r#"      // the box stored from this buffer two boxes ago has been read
      if (ct % 128 == 0) asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
      asm volatile("bar.sync %0, 128;" :: "r"(1 + (int)cw) : "memory");
"#
                .to_string()
            };
            let ep = if reads_c {
                "    // (this warpgroup's tiles so far: the parity of its C boxes)\n    const unsigned int ep = (unsigned int)((unit - first_unit) / unit_step);\n    const unsigned int cbar = kute_bar(&cin[cw]);\n"
            } else {
                ""
            };
            // (the pair of C's values at `at`, one shared load)
            let stage_pair = if reads_c {
                let load = match c_elem {
                    Elem::F32 => r#"float c0, c1; asm volatile("ld.shared.v2.f32 {%0, %1}, [%2];" : "=f"(c0), "=f"(c1) : "r"(sbuf + (unsigned int)at * 4u) : "memory");"#.to_string(),
                    _ => format!(
                        r#"unsigned int cb; asm volatile("ld.shared.b32 %0, [%1];" : "=r"(cb) : "r"(sbuf + (unsigned int)at * 2u) : "memory");
        const float c0 = {}, c1 = {};"#,
                        widen("(unsigned short)(cb & 0xffffu)"),
                        widen("(unsigned short)(cb >> 16)")
                    ),
                };
                format!("{load}\n        {}", with_c("c0".into(), "c1".into()))
            } else {
                on_pair.clone()
            };
            (
                ", const __grid_constant__ kute_tmap tma_c".to_string(),
                format!(
                    r#"    // C by TMA: box j (64 rows by 128 bytes) of this warpgroup's rows through
    // buffer j % 2; the TMA engine drains it while the warpgroup fills the
    // other one and, after the last box, multiplies the next tile
    {cc}
    const int row0 = (int)cc.c[0] + 64 * (int)cw, col0 = (int)cc.c[1];
{ep}#pragma unroll
    for (int j = 0; j < {boxes}; ++j) {{
      const unsigned int sbuf = sc + (unsigned int)(cw * {wg_bytes} + (j % 2) * {box_bytes});
{box_in}#pragma unroll
      for (int r = {per} * j; r < {per} * (j + 1); r += 2) {{
        const long long at = {name}_c_stage({name}_c_frag(ct % 128 + 128LL * r));
        {stage_pair}
        {stage_store}
      }}
      // the writes, made visible to the async proxy, are all in
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      asm volatile("bar.sync %0, 128;" :: "r"(1 + (int)cw) : "memory");
      if (ct % 128 == 0) {{
        if (true{inside})
          {tma_store_call}
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      }}
    }}
"#,
                    wg_bytes = 2 * box_bytes,
                ),
                // the last boxes have left shared memory and reached C
                r#"  if (ct % 128 == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
"#
                .to_string(),
            )
        }
    };
    let (cin_decl, cin_init) = if reads_c && tma_store.is_some() {
        (
            format!(
                "  // cin: C's box has landed (one barrier per consumer warpgroup; with beta)\n  __shared__ alignas(8) unsigned long long cin[2];\n  unsigned char* scg = reinterpret_cast<unsigned char*>(sm + {stages} * ({a_elems} + {b_elems}));\n"
            ),
            "\n    for (int w = 0; w < 2; ++w) asm volatile(\"mbarrier.init.shared::cta.b64 [%0], 1;\" :: \"r\"(kute_bar(&cin[w])));".to_string(),
        )
    } else {
        (String::new(), String::new())
    };
    // split-K: the sums go into the workspace, added (C by the finishing kernel)
    let (c_param, drain) = if split { (String::new(), String::new()) } else { (c_param, drain) };
    let epilogue = match (&p.split_k, split) {
        (Some(x), true) => {
            let w = &x.w_tiles;
            let mut gw = format!(
                "W + {name}_w_share(split{}) + {name}_w_tiles_m(bm{}) + {name}_w_tiles_n(bn{})",
                args(&x.w_share),
                args(&w.first),
                args(&w.second)
            );
            if let Some(l) = &w.batch {
                gw.push_str(&format!(" + {name}_w_tiles_b(b{})", args(l)));
            }
            let wt = args(&x.w_tile);
            format!(
                r#"    {{
    {cc}
    float* gw = {gw};
#pragma unroll
    for (int r = 0; r < {acc}; r += 2) {{
      const long long x = {name}_c_frag(ct % 128 + 128LL * r) + {name}_c_rep(cw);
      const auto in = {name}_c_ctile(x{c_ctile});
      const long long at = {name}_w_tile(x{wt});
      const long long row = cc.c[0] + in.c[0], col = cc.c[1] + in.c[1];
      if (row < {m_c}) {{
        if (col < {n_c}) gw[at] = d[r];
        if (col + 1 < {n_c}) gw[at + 1] = d[r + 1];
      }}
    }}
    }}
"#
            )
        }
        _ => epilogue,
    };
    Ok(format!(
        r#"{tma_decl}extern "C" __global__ void __launch_bounds__(384, 1){cluster_dims} {kernel}(const __grid_constant__ kute_tmap tma_a, const __grid_constant__ kute_tmap tma_b, {c_type}* __restrict__ C{c_param}{sizes}) {{
  extern __shared__ unsigned char smem_raw[];
  // 1024-byte aligned, as the 128-byte swizzle needs
  {et}* sm = reinterpret_cast<{et}*>((reinterpret_cast<unsigned long long>(smem_raw) + 1023ULL) & ~1023ULL);
  {et}* sa = sm;
  {et}* sb = sm + {stages} * {a_elems};
  // C's staging buffers (TMA store), after the stages
  const unsigned int sc = (unsigned int)__cvta_generic_to_shared(sm + {stages} * ({a_elems} + {b_elems}));
  // full: the stage's bytes have landed; empty: both consumers are done with it
  __shared__ alignas(8) unsigned long long full[{stages}], empty[{stages}];
{cin_decl}  const int t = threadIdx.x;
  const int wg = t / 128;
  if (t == 0) {{
    for (int s = 0; s < {stages}; ++s) {{
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(kute_bar(&full[s])));
      asm volatile("mbarrier.init.shared::cta.b64 [%0], {empty_count};" :: "r"(kute_bar(&empty[s])));
    }}{cin_init}
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }}
{init_sync}  const long long tiles = {tiles};
  if (wg == 0) {{
    // the producer: few registers, one thread issuing every copy
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    if (t != 0) return;
    long long it = 0;
    for (long long unit = first_unit; unit < {units}; unit += unit_step) {{
      {unit_split}
      {tile_split}
      {tile_order}
      // the tiles' first coordinates; a k-tile adds its offset (no division)
      {per_tile}
      for (long long kt = {kt0}; kt < {kt1}; kt += {kstep}, ++it) {{
        const int stage = (int)(it % {stages});
        // the consumers released this stage's previous round
        if (it >= {stages}) kute_wait(kute_bar(&empty[stage]), (unsigned int)(((it / {stages}) + 1) & 1));
        const unsigned int bar = kute_bar(&full[stage]);
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"({tile_bytes}) : "memory");
        {per_ktile}
{copies}      }}
    }}
{producer_tail}    return;
  }}
  // the consumers: warpgroup cw multiplies rows 64 cw .. 64 cw + 63 of each tile
  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
  const long long ct = t - 128;
  const long long cw = ct / 128;
  long long it = 0;
  for (long long unit = first_unit; unit < {units}; unit += unit_step) {{
    {unit_split}
    {tile_split}
    {tile_order}
    float d[{acc}];
#pragma unroll
    for (int r = 0; r < {acc}; ++r) d[r] = 0.f;
    for (long long kt = {kt0}; kt < {kt1}; kt += {kstep}, ++it) {{
      const int stage = (int)(it % {stages});
      kute_wait(kute_bar(&full[stage]), (unsigned int)((it / {stages}) & 1));
      const {et}* sas = sa + stage * {a_elems} + cw * {a_wg};
      const {et}* sbs = sb + stage * {b_elems};
      asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
      for (int ks = 0; ks < {ksteps}; ++ks) kute_wgmma(d, kute_desc_a(sas + {a_kstep} * ks), kute_desc_b(sbs + {b_kstep} * ks));
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
      // the previous k-tile's wgmma have finished: release its stage
      asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
      if (kt > {kt0} && ct % 32 == 0) {release}(kute_bar(&empty[(it - 1) % {stages}]));
    }}
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    if (ct % 32 == 0) {release}(kute_bar(&empty[(it - 1) % {stages}]));
{stage_bias}{epilogue}{release_bias}  }}
{drain}}}
"#,
        tile_bytes = (a_elems + b_elems) * bytes,
        ksteps = bk / wgmma_k(elem),
        empty_count = consumer_warps * cluster,
    ))
}

/// One TMA bulk copy of operand `x` (`a` or `b`) into `s{x} + offset`, at the
/// tensor-map coordinate `(inner, outer)`, completing on the mbarrier `bar`
/// (`multicast`: into the same place of both blocks of the cluster, on each
/// one's `bar`).
fn tma_copy(x: &str, offset: &str, inner: &str, outer: &str, batch: Option<&str>, multicast: bool) -> String {
    let (mc, mask) = if multicast { ("_multicast", ", 3") } else { ("", "") };
    match batch {
        None => format!("kute_tma_load_2d{mc}(s{x} + {offset}, &tma_{x}, (int)({inner}), (int)({outer}), bar{mask});"),
        Some(b) => format!(
            "kute_tma_load_3d{mc}(s{x} + {offset}, &tma_{x}, (int)({inner}), (int)({outer}), (int)({b}), bar{mask});"
        ),
    }
}
