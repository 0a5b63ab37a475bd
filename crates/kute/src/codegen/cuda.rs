//! CUDA C++ from layouts: a self-contained snippet (no includes) of
//! `__host__ __device__ __forceinline__` functions computing a layout's
//! function of a 1-D coordinate, every extent and stride a literal (or, on
//! request, the expression's dynamic integers as parameters), divisions and
//! remainders by powers of two written as shifts and masks.
//!
//! What each kind of layout gives:
//! - integer strides: `long long NAME(long long i)`, the index, CuTe's
//!   evaluation (the last mode not reduced, so `i` past the size extends it);
//! - basis strides (a coordinate layout): `NAME_coord NAME(long long i)`, a
//!   struct of the coordinate's components (the codomain's leaves in order);
//! - a swizzled or composed layout `A o off o B`: `NAME(i) = A(off + B(i))`,
//!   with `NAME_inner` (B) and, for a layout A, `NAME_outer`.
//!
//! The coordinate is expected to be non-negative (a shift and a mask are C++'s
//! `/` and `%` only there).

use crate::composed::AnyLayout;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::swizzle::Swizzle;
use std::fmt::Write;

/// How dynamic integers are emitted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dynamic {
    /// Every integer a literal (the layout's values).
    #[default]
    Literal,
    /// The expression's dynamic integers (extents and strides written
    /// without `_`) as `long long` parameters after the coordinate, named by
    /// their place: `s<k>` for leaf `k`'s extent, `d<k>` for its stride (the
    /// last leaf's extent is never read, so it is not a parameter).
    Parameters,
}

/// A C identifier: ASCII letters, digits and `_`, not starting with a digit.
fn check_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= 128
        && !name.as_bytes()[0].is_ascii_digit()
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if !ok {
        return Err(Error::inadmissible("emit", format!("'{name}' is not a C identifier")));
    }
    Ok(())
}

/// One flat leaf as the emitted code reads it: its extent and stride as C
/// expressions, their values where they are literals, and what its term is
/// added to (`r`, or a coordinate's component `r.c[k]`).
struct Leaf {
    ext: String,
    ext_value: Option<i64>,
    stride: String,
    stride_value: Option<i64>,
    target: String,
}

/// The leaves of `l`, with dynamic integers as parameters when asked; the
/// parameters in order. A basis stride's scale is added to the component of
/// its direction, the component's index its place among `components` (the
/// codomain's leaf paths); with `components` `None` every stride is an integer.
fn leaves(
    l: &Layout,
    dynamic: Dynamic,
    components: Option<&[Vec<usize>]>,
    params: &mut Vec<String>,
) -> Result<Vec<Leaf>> {
    let mut out = Vec::new();
    let n = l.leaves().len();
    for (k, m) in l.leaves().iter().enumerate() {
        let target = match components {
            None => {
                m.stride.int_in("emit")?;
                "r".to_string()
            }
            Some(paths) => {
                let path: Vec<usize> = m.stride.path().iter().copied().collect();
                format!("r.c[{}]", paths.iter().position(|p| *p == path).unwrap_or(0))
            }
        };
        let param = |p: &str, x: crate::int::Int, is_static: bool, params: &mut Vec<String>| -> (String, Option<i64>) {
            if x.is_symbolic() {
                // a symbol: its expression of the unknowns (parameters of their own, see `unknowns`)
                return (x.to_sym().to_c(), None);
            }
            let v = x.value();
            if dynamic == Dynamic::Parameters && !is_static {
                params.push(p.to_string());
                (p.to_string(), None)
            } else {
                (format!("{v}LL"), Some(v))
            }
        };
        // the last extent is never read (the last mode is not reduced)
        let (ext, ext_value) = param(&format!("s{k}"), m.shape, m.shape.is_static() || k + 1 == n, params);
        let (stride, stride_value) = param(&format!("d{k}"), m.stride.scale_int(), m.stride.is_static(), params);
        out.push(Leaf { ext, ext_value, stride, stride_value, target });
    }
    Ok(out)
}

/// The statements adding `(c_k % s_k) * d_k` to each leaf's target, from the
/// coordinate in `i` (the last leaf unreduced).
fn digits_body(s: &mut String, leaves: &[Leaf]) {
    let n = leaves.len();
    for (k, leaf) in leaves.iter().enumerate() {
        let last = k + 1 == n;
        let pow2 = leaf.ext_value.filter(|&e| e > 0 && e & (e - 1) == 0);
        if leaf.ext_value == Some(1) && !last {
            continue; // a size-1 leaf: coordinate 0 and no division
        }
        if leaf.ext_value.is_none() && !last {
            // a run-time extent: one division for the digit and the rest, in
            // 32 bits where both fit (a 64-bit division is a long subroutine
            // on the GPU; a constant one the compiler turns into a multiply)
            let _ = writeln!(
                s,
                "  {{
    const long long e = {};",
                leaf.ext
            );
            let _ = writeln!(
                s,
                "    const long long q = (i >= 0 && i <= 0xffffffffLL && e > 0 && e <= 0xffffffffLL) ? (long long)((unsigned int)i / (unsigned int)e) : i / e;"
            );
            if leaf.stride_value != Some(0) {
                let _ = writeln!(s, "    {} += (i - q * e) * {};", leaf.target, leaf.stride);
            }
            let _ = writeln!(s, "    i = q;\n  }}");
            continue;
        }
        let term = if last {
            "i".to_string()
        } else {
            match pow2 {
                Some(e) => format!("(i & {}LL)", e - 1),
                None => format!("(i % {})", leaf.ext),
            }
        };
        if leaf.stride_value != Some(0) {
            let _ = writeln!(s, "  {} += {term} * {};", leaf.target, leaf.stride);
        }
        if !last {
            match pow2 {
                Some(e) => {
                    let _ = writeln!(s, "  i >>= {};", e.trailing_zeros());
                }
                None => {
                    let _ = writeln!(s, "  i /= {};", leaf.ext);
                }
            }
        }
    }
}

const QUALIFIERS: &str = "__host__ __device__ __forceinline__";

/// The snippet of one integer-stride layout as the function `name`.
fn layout_fn(s: &mut String, name: &str, l: &Layout, dynamic: Dynamic) -> Result<()> {
    let mut params = Vec::new();
    let ls = leaves(l, dynamic, None, &mut params)?;
    let extra: String =
        unknowns(l).into_iter().map(|(_, u, _)| u).chain(params).map(|p| format!(", long long {p}")).collect();
    let _ = writeln!(s, "// {l}");
    let _ = writeln!(s, "{QUALIFIERS} long long {name}(long long i{extra}) {{");
    assume_facts(s, l);
    let _ = writeln!(s, "  long long r = 0;");
    digits_body(s, &ls);
    let _ = writeln!(s, "  return r;\n}}");
    Ok(())
}

/// The unknowns a symbolic layout's emitted function takes after the
/// coordinate, in order (the names its caller passes values for); empty for a
/// concrete layout and for composed layouts and swizzles.
///
/// Pre: none. Post: the C names of `l`'s unknowns, each once, in the order
/// they were made (the order of [`emit`]'s parameters).
///
/// ```
/// use kute::expr::{eval_line, Env};
/// let mut env = Env::new();
/// eval_line(&mut env, "K = ?{div=8}").unwrap();
/// eval_line(&mut env, "M = ?").unwrap();
/// let l = eval_line(&mut env, "zipped_divide(make_identity_layout((M,K)),(_128,_64))").unwrap();
/// let l = l.to_any_layout("l").unwrap();
/// assert_eq!(kute::codegen::cuda::parameters(&l), ["K", "M"]);
/// let code = kute::codegen::cuda::emit(&l, "tiles", kute::codegen::cuda::Dynamic::Literal).unwrap();
/// assert!(code.contains("tiles(long long i, long long K, long long M)"));
/// ```
pub fn parameters(l: &AnyLayout) -> Vec<String> {
    match l {
        AnyLayout::Layout(x) => unknowns(x).into_iter().map(|(_, u, _)| u).collect(),
        _ => Vec::new(),
    }
}

/// The unknowns of a layout's extents and strides, in the order they were
/// made: (order, C name, divisibility).
fn unknowns(l: &Layout) -> Vec<(u32, String, i64)> {
    let mut us = Vec::new();
    for m in l.leaves() {
        m.shape.to_sym().c_unknowns(&mut us);
        m.stride.scale_int().to_sym().c_unknowns(&mut us);
    }
    us.sort();
    us
}

/// The facts of a symbolic layout's unknowns, told to the device compiler
/// (`__builtin_assume`, where divisibility lets it fold divisions and
/// remainders); nothing for a concrete layout.
fn assume_facts(s: &mut String, l: &Layout) {
    let us = unknowns(l);
    if us.is_empty() {
        return;
    }
    let _ = writeln!(s, "#if defined(__CUDA_ARCH__)");
    for (_, u, div) in us {
        if div > 1 {
            let _ = writeln!(s, "  __builtin_assume({u} > 0 && {u} % {div}LL == 0);");
        } else {
            let _ = writeln!(s, "  __builtin_assume({u} > 0);");
        }
    }
    let _ = writeln!(s, "#endif");
}

/// The snippet of a coordinate layout: a struct of the components and the
/// function filling it (each leaf's basis stride adds its scale to one
/// component).
fn coord_fn(s: &mut String, name: &str, l: &Layout, dynamic: Dynamic) -> Result<()> {
    let prof = l.coprofile()?;
    let paths = leaf_paths(prof.as_ref());
    let mut params = Vec::new();
    let ls = leaves(l, dynamic, Some(&paths), &mut params)?;
    let extra: String =
        unknowns(l).into_iter().map(|(_, u, _)| u).chain(params).map(|p| format!(", long long {p}")).collect();
    let _ = writeln!(s, "// {l}");
    let _ = writeln!(s, "struct {name}_coord {{ long long c[{}]; }};", paths.len());
    let _ = writeln!(s, "{QUALIFIERS} {name}_coord {name}(long long i{extra}) {{");
    assume_facts(s, l);
    let _ = writeln!(s, "  {name}_coord r = {{}};");
    digits_body(s, &ls);
    let _ = writeln!(s, "  return r;\n}}");
    Ok(())
}

/// The paths (outermost index first) of a tuple's leaves, in order.
fn leaf_paths(t: crate::int_tuple::IntTupleRef<'_>) -> Vec<Vec<usize>> {
    fn go(t: crate::int_tuple::IntTupleRef<'_>, at: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if t.is_leaf() {
            out.push(at.clone());
            return;
        }
        for (i, c) in t.children().enumerate() {
            at.push(i);
            go(c, at, out);
            at.pop();
        }
    }
    let mut out = Vec::new();
    go(t, &mut Vec::new(), &mut out);
    out
}

/// The swizzle `x ^ ((x & yyy) >> S)` as a C expression of `x`.
fn swizzle_expr(sw: Swizzle, x: &str) -> String {
    if sw.is_identity() {
        return x.to_string();
    }
    let shift = sw.shift();
    let moved = if shift >= 0 {
        format!("(({x} & {}LL) >> {shift})", sw.yyy_mask())
    } else {
        format!("(({x} & {}LL) << {})", sw.yyy_mask(), -shift)
    };
    format!("({x} ^ {moved})")
}

/// CuTe's layout `l` as CUDA C++: the snippet defining `name` (see the
/// [module docs](self)).
///
/// Pre: `name` is a C identifier (else an `Inadmissible` error); a layout
/// (part) has integer or basis strides; a composed layout's inner part is a
/// plain layout of integer strides and its outer part a swizzle or such a
/// layout (else an `Inadmissible` error).
/// Post: a snippet with no `#include`, whose function gives the layout's
/// value at every non-negative 1-D coordinate (compiled as host C++ with
/// the qualifiers defined empty, it prints what kute evaluates). A symbolic
/// layout's function (of integer or basis strides) takes its unknowns as
/// `long long` parameters after the coordinate, in the order [`parameters`]
/// gives, and tells the device compiler their facts (`__builtin_assume`).
///
/// ```
/// use kute::codegen::cuda::{emit, Dynamic};
/// let l = kute::expr::eval("(_4,_8):(_8,_1)").unwrap().to_any_layout("l").unwrap();
/// let code = emit(&l, "idx", Dynamic::Literal).unwrap();
/// assert!(code.contains("long long idx(long long i)"));
/// assert!(code.contains("(i & 3LL) * 8LL") && code.contains("i >>= 2;"));
/// ```
pub fn emit(l: &AnyLayout, name: &str, dynamic: Dynamic) -> Result<String> {
    // a symbolic layout (of integer or basis strides) takes its unknowns as parameters
    let symbolic_ok = matches!(l, AnyLayout::Layout(_));
    if !symbolic_ok {
        crate::sym::refuse("emit", || l.has_symbols())?;
    }
    check_name(name)?;
    if let AnyLayout::Layout(x) = l {
        // the unknowns become parameters: C names, not the code's own `i` and `r`
        for (_, u, _) in unknowns(x) {
            check_name(&u)?;
            if u == "i" || u == "r" {
                return Err(Error::inadmissible(
                    "emit",
                    format!("the unknown '{u}' is named like the code's own variables"),
                ));
            }
        }
    }
    let mut s = String::new();
    let _ = writeln!(s, "// generated by kute: {l}");
    match l {
        AnyLayout::Layout(x) if x.has_int_strides() => layout_fn(&mut s, name, x, dynamic)?,
        AnyLayout::Layout(x) => coord_fn(&mut s, name, x, dynamic)?,
        AnyLayout::Swizzle(sw) => {
            let _ = writeln!(s, "{QUALIFIERS} long long {name}(long long x) {{ return {}; }}", swizzle_expr(*sw, "x"));
        }
        AnyLayout::Composed(k) => {
            let inner = k.inner().as_layout("emit")?;
            if !inner.has_int_strides() {
                return Err(Error::inadmissible("emit", format!("the inner layout {inner} needs integer strides")));
            }
            let inner_name = format!("{name}_inner");
            layout_fn(&mut s, &inner_name, inner, Dynamic::Literal)?;
            let off = k.offset().value();
            let x = format!("({off}LL + {inner_name}(i))");
            match k.outer() {
                AnyLayout::Swizzle(sw) => {
                    let _ = writeln!(
                        s,
                        "{QUALIFIERS} long long {name}(long long i) {{\n  long long x = {x};\n  return {};\n}}",
                        swizzle_expr(*sw, "x")
                    );
                }
                AnyLayout::Layout(a) if a.has_int_strides() => {
                    let outer_name = format!("{name}_outer");
                    layout_fn(&mut s, &outer_name, a, Dynamic::Literal)?;
                    let _ = writeln!(s, "{QUALIFIERS} long long {name}(long long i) {{ return {outer_name}{x}; }}");
                }
                other => {
                    return Err(Error::inadmissible(
                        "emit",
                        format!("the outer part {other} of a composed layout must be a swizzle or an integer layout"),
                    ))
                }
            }
        }
    }
    Ok(s)
}
