//! The CUDA text of a transpose kernel and of its shared-memory-only twin.

use super::{device, header, layout_fn, plain_fn, vector_struct, vector_type};
use crate::plan::transpose::TransposePlan;
use crate::{Elem, Result};

/// The body that fills word `k` of the destination vector from shared
/// memory: one element per word for 4-byte elements, two (the lower first)
/// for 2-byte ones.
fn gather(name: &str, elem: Elem, t: i64, tv: i64) -> String {
    let at = |e: &str| format!("smem[{name}_smem({name}_tv_write(t + {t}LL * ({e}) + {tv}LL * p))]");
    match elem.bytes() {
        4 => format!("      w[k] = {};", at("k")),
        _ => format!("      w[k] = (unsigned int){} | ((unsigned int){} << 16);", at("2 * k"), at("2 * k + 1")),
    }
}

/// The kernel `name(src, dst)` and its twin `name_shared_only` (the same
/// shared-memory accesses with no global memory traffic), as two sources.
///
/// Thread `t` reads its `P` source vectors (all loads in flight), stores them
/// to shared memory, waits for the block, then gathers each destination
/// vector element by element from shared memory and stores it.
pub(crate) fn sources(name: &str, elem: Elem, p: &TransposePlan) -> Result<(String, String)> {
    let (tm, tn) = p.tile;
    let (t, vec, passes) = (p.threads, p.vector_elems, p.passes);
    let mut s = String::new();
    header(&mut s, &format!("transpose-copy {} -> {}, {elem}, tile ({tm},{tn}), shared {}", p.src, p.dst, p.smem));
    s.push_str(&vector_struct(elem, vec));
    plain_fn(&mut s, &p.src_tiles, &format!("{name}_src_tiles"))?;
    plain_fn(&mut s, &p.dst_tiles, &format!("{name}_dst_tiles"))?;
    plain_fn(&mut s, &p.src_read, &format!("{name}_src_read"))?;
    plain_fn(&mut s, &p.dst_write, &format!("{name}_dst_write"))?;
    plain_fn(&mut s, &p.tv_read, &format!("{name}_tv_read"))?;
    plain_fn(&mut s, &p.tv_write, &format!("{name}_tv_write"))?;
    layout_fn(&mut s, &p.smem, &format!("{name}_smem"))?;
    let (c, vt, tv) = (elem.carrier(), vector_type(elem, vec), t * vec);
    // the gathered vector is built word by word, and a plain store of it may be split into four
    s.push_str(device::ST_GLOBAL);
    let body = |shared_only: bool| -> String {
        let (kname, load, store) = if shared_only {
            (
                format!("{name}_shared_only"),
                format!("{{ {vt} x; for (int k = 0; k < {vec}; ++k) x.x[k] = ({c})(t * 7 + p * 3 + k); r[p] = x; }}"),
                // never true (the values are small), but the compiler cannot
                // know, and every word is needed to decide
                format!(
                    "if ((w[0] ^ w[1] ^ w[2] ^ w[3]) == 0xffffffffu) kute_st_global_v4(d + {name}_dst_write(t + {tv}LL * p), w);"
                ),
            )
        } else {
            (
                name.to_string(),
                format!("r[p] = *reinterpret_cast<const {vt}*>(s + {name}_src_read(t + {tv}LL * p));"),
                format!("kute_st_global_v4(d + {name}_dst_write(t + {tv}LL * p), w);"),
            )
        };
        format!(
            r#"extern "C" __global__ void __launch_bounds__({t}) {kname}(const {c}* __restrict__ src, {c}* __restrict__ dst) {{
  __shared__ {vt} smem_v[{smem_vecs}];
  {c}* smem = reinterpret_cast<{c}*>(smem_v);
  const long long b = blockIdx.x;
  const long long t = threadIdx.x;
  const {c}* s = src + {name}_src_tiles(b);
  {c}* d = dst + {name}_dst_tiles(b);
  {vt} r[{passes}];
#pragma unroll
  for (int p = 0; p < {passes}; ++p) {load}
#pragma unroll
  for (int p = 0; p < {passes}; ++p) *reinterpret_cast<{vt}*>(smem + {name}_smem({name}_tv_read(t + {tv}LL * p))) = r[p];
  __syncthreads();
#pragma unroll
  for (int p = 0; p < {passes}; ++p) {{
    unsigned int w[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {{
{gather}
    }}
    {store}
  }}
}}
"#,
            smem_vecs = tm * tn / vec,
            gather = gather(name, elem, t, tv)
        )
    };
    let shared_only = format!("{s}{}", body(true));
    s.push_str(&body(false));
    Ok((s, shared_only))
}
