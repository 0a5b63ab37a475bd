//! The CUDA text of a copy kernel.

use super::{header, plain_fn, vector_struct, vector_type};
use crate::copy::CopyConfig;
use crate::plan::copy::CopyPlan;
use crate::{Elem, Result};
use kute::Layout;
use std::fmt::Write;

/// The kernel `name(src, dst)`: thread `t` of block `b` loads its vectors
/// `b·T·I + k·T + t` (all loads in flight), then stores them.
pub(crate) fn source(
    name: &str,
    elem: Elem,
    (src, dst): (&Layout, &Layout),
    p: &CopyPlan,
    config: CopyConfig,
) -> Result<String> {
    let (vec, units) = (p.vector_elems, p.units);
    let mut s = String::new();
    header(&mut s, &format!("copy {src} -> {dst}, {elem}, {vec}-element vectors"));
    s.push_str(&vector_struct(elem, vec));
    plain_fn(&mut s, &p.src_units, &format!("{name}_src"))?;
    plain_fn(&mut s, &p.dst_units, &format!("{name}_dst"))?;
    let (t, i, c, vt) = (config.threads, config.units_per_thread, elem.carrier(), vector_type(elem, vec));
    let _ = write!(
        s,
        r#"extern "C" __global__ void __launch_bounds__({t}) {name}(const {c}* __restrict__ src, {c}* __restrict__ dst) {{
  const long long u0 = (long long)blockIdx.x * {per}LL + threadIdx.x;
  {vt} r[{i}];
#pragma unroll
  for (int k = 0; k < {i}; ++k) {{
    const long long u = u0 + k * {t}LL;
    if (u < {units}LL) r[k] = *reinterpret_cast<const {vt}*>(src + {name}_src(u));
  }}
#pragma unroll
  for (int k = 0; k < {i}; ++k) {{
    const long long u = u0 + k * {t}LL;
    if (u < {units}LL) *reinterpret_cast<{vt}*>(dst + {name}_dst(u)) = r[k];
  }}
}}
"#,
        per = i64::from(t) * i64::from(i)
    );
    Ok(s)
}
