//! The functions callable from expressions, by their CuTe names.

use super::value::{type_error, Value};
use crate::algebra::{self, Tiler};
use crate::error::{Error, ErrorKind, Result};
use crate::int::{Bool, Int};
use crate::int_tuple::{self, IntTuple};
use crate::layout::{modes, Layout, Major};
use crate::tree::Tree;

/// One callable function: its name, how it is called and what it does.
#[derive(Clone, Copy, Debug)]
pub struct FunctionInfo {
    /// The CuTe name.
    pub name: &'static str,
    /// Call forms.
    pub signature: &'static str,
    /// One line.
    pub summary: &'static str,
}

macro_rules! fns {
    ($($name:literal, $sig:literal, $sum:literal;)*) => {
        /// Every function of the expression language, for help screens.
        pub const FUNCTIONS: &[FunctionInfo] = &[$(FunctionInfo { name: $name, signature: $sig, summary: $sum }),*];
    };
}

fns! {
    "make_layout", "make_layout(S) | (S, D) | (S, LayoutLeft{}|LayoutRight{}) | (L0, L1, ...)", "a layout from a shape (and stride or order), or the concatenation of layouts";
    "make_ordered_layout", "make_ordered_layout(S, order)", "compact strides with modes ordered by `order`";
    "make_shape", "make_shape(a, b, ...)", "a tuple (also make_stride, make_coord, make_tuple)";
    "make_tile", "make_tile(T0, T1, ...)", "a by-mode tiler, same as <T0,T1,...>";
    "shape", "shape(L) | shape<I...>(L)", "the shape (of a mode)";
    "stride", "stride(L) | stride<I...>(L)", "the stride (of a mode)";
    "size", "size(X) | size<I...>(X)", "product of the shape (of a mode)";
    "cosize", "cosize(L) | cosize<I...>(L)", "1 + sum (s-1)*|d| over the leaves";
    "rank", "rank(X) | rank<I...>(X)", "number of top-level modes";
    "depth", "depth(X) | depth<I...>(X)", "nesting depth";
    "get", "get<I...>(X)", "a (nested) mode of a tuple or layout";
    "layout", "layout<I...>(L)", "a (nested) mode of a layout";
    "select", "select<I...>(X)", "the chosen modes, as a tuple";
    "take", "take<B,E>(X)", "modes [B,E) as a tuple";
    "append", "append(X, Y) | append<N>(X[, Y])", "add Y as the last mode / pad to rank N";
    "prepend", "prepend(X, Y) | prepend<N>(X[, Y])", "add Y as the first mode / pad to rank N";
    "replace", "replace<N>(X, Y)", "replace mode N by Y";
    "group", "group<B,E>(X)", "group modes [B,E) into one";
    "flatten", "flatten(X)", "all leaves as top-level modes";
    "unflatten", "unflatten(X, profile)", "refold a flat X into the profile's structure";
    "zip", "zip(L) | zip(A, B)", "transpose nested modes";
    "tile_unzip", "tile_unzip(L, tiler)", "gather (tile, rest) modes into ((tiles),(rests))";
    "product", "product(T)", "product of all leaves";
    "product_each", "product_each(T)", "size of each mode";
    "inner_product", "inner_product(A, B)", "sum of products of leaves";
    "congruent", "congruent(A, B)", "same tuple structure";
    "weakly_congruent", "weakly_congruent(A, B)", "A's structure is a coarsening of B's";
    "compatible", "compatible(A, B)", "A's integers are the sizes of B's modes";
    "weakly_compatible", "weakly_compatible(A, B)", "A's integers divide the sizes of B's modes";
    "shape_div", "shape_div(A, B)", "A divided by B where one divides the other";
    "ceil_div", "ceil_div(A, B)", "rounded-up division (by a layout: the rest shape of a divide)";
    "elem_scale", "elem_scale(A, B)", "A's leaves times the sizes of B's modes";
    "prefix_product", "prefix_product(T)", "exclusive prefix products, congruent to T";
    "idx2crd", "idx2crd(i, S)", "the natural coordinate of index i";
    "crd2idx", "crd2idx(c, S[, D])", "the index of coordinate c";
    "crd2crd", "crd2crd(c, S1, S2)", "a coordinate of S1 as a coordinate of S2";
    "compact_col_major", "compact_col_major(S[, start])", "column-major strides";
    "compact_row_major", "compact_row_major(S[, start])", "row-major strides";
    "compact_order", "compact_order(S, order)", "compact strides in the given mode order";
    "coalesce", "coalesce(L[, profile]) | coalesce(S)", "fewest modes with the same function";
    "filter_zeros", "filter_zeros(L)", "stride-0 modes get extent 1";
    "filter", "filter(L)", "coalesce without stride-0 and size-1 modes";
    "composition", "composition(A, B)", "R(c) = A(B(c)); B a layout, a shape or a tiler <...>";
    "complement", "complement(A[, M])", "the layout filling A's gaps up to M";
    "right_inverse", "right_inverse(L)", "R with L(R(i)) = i";
    "left_inverse", "left_inverse(L)", "R with R(L(i)) = i";
    "logical_divide", "logical_divide(A, T)", "A o (T, complement(T)): (tile, rest)";
    "zipped_divide", "zipped_divide(A, T)", "((tiles),(rests))";
    "tiled_divide", "tiled_divide(A, T)", "((tiles),rest0,rest1,...)";
    "flat_divide", "flat_divide(A, T)", "(tile0,...,rest0,...)";
    "logical_product", "logical_product(A, B)", "(A, complement(A) o B)";
    "zipped_product", "zipped_product(A, B)", "((blocks),(products))";
    "tiled_product", "tiled_product(A, B)", "((blocks),p0,p1,...)";
    "flat_product", "flat_product(A, B)", "(b0,...,p0,...)";
    "blocked_product", "blocked_product(A, B)", "B repeats block A, mode by mode";
    "raked_product", "raked_product(A, B)", "B interleaves copies of A, mode by mode";
    "tile_to_shape", "tile_to_shape(A, S[, order])", "repeat A until it has shape S";
    "max_common_layout", "max_common_layout(A, B)", "largest R with A(R(i)) = i = B(R(i))";
    "max_common_vector", "max_common_vector(A, B)", "number of common contiguous elements";
    "nullspace", "nullspace(L)", "the coordinates L maps to 0 (stride-0 modes)";
    "upcast", "upcast<N>(L)", "reinterpret for N-times wider elements";
    "downcast", "downcast<N>(L)", "reinterpret for N-times narrower elements";
    "slice", "slice(c, L)", "the modes where c has '_' (also L(c))";
    "dice", "dice(c, L)", "the modes where c has an integer";
    "slice_and_offset", "slice_and_offset(c, L)", "(slice, index of c with '_' as 0)";
}

fn arity(name: &str, args: &[Value], lo: usize, hi: usize) -> Result<()> {
    if args.len() < lo || args.len() > hi {
        let want = if lo == hi { format!("{lo}") } else { format!("{lo} to {hi}") };
        return Err(Error::new(
            ErrorKind::UnknownName,
            "evaluate",
            format!("{name} takes {want} argument(s), got {}", args.len()),
        ));
    }
    Ok(())
}

fn targ_count(name: &str, targs: &[i64], lo: usize, hi: usize) -> Result<()> {
    if targs.len() < lo || targs.len() > hi {
        return Err(Error::new(
            ErrorKind::UnknownName,
            "evaluate",
            format!("{name} takes {lo} to {hi} template argument(s), got {}", targs.len()),
        ));
    }
    Ok(())
}

fn idx(v: i64, name: &'static str) -> Result<usize> {
    usize::try_from(v).map_err(|_| Error::mismatch(name, format!("index {v} is negative")))
}

fn path(targs: &[i64], name: &'static str) -> Result<Vec<usize>> {
    targs.iter().map(|&t| idx(t, name)).collect()
}

fn int(v: Int) -> Value {
    Value::IntTuple(IntTuple::leaf(v))
}

fn sint(v: usize) -> Value {
    int(Int::new_static(v as i64))
}

fn lay(l: Layout) -> Value {
    Value::Layout(l)
}

fn boolean(b: Bool) -> Value {
    Value::Bool(b)
}

/// A tuple-or-layout argument, for the structural functions that work on both.
#[allow(clippy::large_enum_variant)] // short-lived, one per call
enum Structured {
    Tuple(IntTuple),
    Layout(Layout),
}

fn structured(v: &Value, what: &str) -> Result<Structured> {
    match v {
        Value::Layout(l) => Ok(Structured::Layout(l.clone())),
        Value::IntTuple(t) => Ok(Structured::Tuple(t.clone())),
        other => Err(type_error(what, "a tuple or a layout", other)),
    }
}

fn sub_tuple(t: &IntTuple, p: &[usize], name: &'static str) -> Result<IntTuple> {
    let mut r = t.as_ref();
    for &i in p {
        r = r.mode(i).ok_or_else(|| Error::mismatch(name, format!("index path {p:?} out of range for {t}")))?;
    }
    Ok(r.to_tree())
}

fn default_x(args: &[Value], i: usize, like: &Structured) -> Result<Structured> {
    match args.get(i) {
        Some(v) => structured(v, "the appended element"),
        None => Ok(match like {
            Structured::Layout(_) => Structured::Layout(Layout::unit()),
            Structured::Tuple(_) => Structured::Tuple(IntTuple::int_static(1)),
        }),
    }
}

fn both<'a>(a: &'a Structured, b: &'a Structured, name: &'static str) -> Result<Either<'a>> {
    match (a, b) {
        (Structured::Layout(x), Structured::Layout(y)) => Ok(Either::L(x, y)),
        (Structured::Tuple(x), Structured::Tuple(y)) => Ok(Either::T(x, y)),
        _ => Err(Error::new(ErrorKind::Type, name, "both operands must be layouts, or both tuples")),
    }
}

enum Either<'a> {
    L(&'a Layout, &'a Layout),
    T(&'a IntTuple, &'a IntTuple),
}

/// Call a function by name.
pub(super) fn call(name: &str, targs: &[i64], args: &[Value]) -> Result<Value> {
    let a = |i: usize| &args[i];
    let no_targs = |n: &str| targ_count(n, targs, 0, 0);
    match name {
        "make_shape" | "make_stride" | "make_coord" | "make_tuple" | "make_step" => {
            no_targs(name)?;
            Ok(Value::tuple(args.to_vec()))
        }
        "make_tile" => {
            no_targs(name)?;
            let ts = args.iter().map(|v| v.as_tiler("a tile element")).collect::<Result<_>>()?;
            Ok(Value::Tiler(Tiler::Tuple(ts)))
        }
        "make_layout" => {
            no_targs(name)?;
            arity(name, args, 1, 64)?;
            if let Value::Layout(_) = a(0) {
                let ls = args.iter().map(|v| v.to_layout("make_layout's argument")).collect::<Result<Vec<_>>>()?;
                return Ok(lay(Layout::concat(ls.iter())?));
            }
            arity(name, args, 1, 2)?;
            let s = a(0).as_int_tuple("the shape")?;
            match args.get(1) {
                None => Ok(lay(Layout::from_shape(&s)?)),
                Some(Value::Major(m)) => Ok(lay(Layout::from_shape_major(&s, *m)?)),
                Some(d) => Ok(lay(Layout::new(&s, &d.as_int_tuple("the stride")?)?)),
            }
        }
        "make_ordered_layout" => {
            no_targs(name)?;
            arity(name, args, 2, 2)?;
            let s = a(0).as_int_tuple("the shape")?;
            match a(1) {
                Value::Major(m) => Ok(lay(Layout::from_shape_major(&s, *m)?)),
                o => Ok(lay(Layout::ordered(&s, &o.as_int_tuple("the order")?)?)),
            }
        }
        "shape" | "stride" => {
            arity(name, args, 1, 1)?;
            let p = path(targs, "shape")?;
            match a(0) {
                Value::Layout(l) => {
                    let m = l.mode_at(&p)?;
                    Ok(if name == "shape" { Value::IntTuple(m.shape()) } else { Value::from_strides(m.stride()) })
                }
                Value::IntTuple(t) if name == "shape" => Ok(Value::IntTuple(sub_tuple(t, &p, "shape")?)),
                other => Err(type_error("the operand", "a layout", other)),
            }
        }
        "size" | "cosize" | "rank" | "depth" => {
            arity(name, args, 1, 1)?;
            let p = path(targs, "size")?;
            let r = match (name, structured(a(0), "the operand")?) {
                ("cosize", Structured::Layout(l)) => int(l.mode_at(&p)?.cosize()?),
                ("cosize", Structured::Tuple(_)) => return Err(type_error("the operand", "a layout", a(0))),
                ("size", Structured::Layout(l)) => int(l.mode_at(&p)?.size()?),
                ("size", Structured::Tuple(t)) => int(sub_tuple(&t, &p, "size")?.size()?),
                ("rank", Structured::Layout(l)) => sint(l.mode_at(&p)?.rank()),
                ("rank", Structured::Tuple(t)) => sint(sub_tuple(&t, &p, "rank")?.rank()),
                ("depth", Structured::Layout(l)) => sint(l.mode_at(&p)?.depth()),
                (_, Structured::Tuple(t)) => sint(sub_tuple(&t, &p, "depth")?.depth()),
                _ => unreachable!("names matched above"),
            };
            Ok(r)
        }
        "get" | "layout" => {
            arity(name, args, 1, 1)?;
            let p = path(targs, "get")?;
            match structured(a(0), "the operand")? {
                Structured::Layout(l) => Ok(lay(l.mode_at(&p)?)),
                Structured::Tuple(t) if name == "get" => Ok(Value::IntTuple(sub_tuple(&t, &p, "get")?)),
                Structured::Tuple(_) => Err(type_error("the operand", "a layout", a(0))),
            }
        }
        "select" | "take" | "group" => {
            arity(name, args, 1, 1)?;
            let p = path(targs, "select")?;
            let op = |t: crate::tree::TreeRef<'_, _>| -> Result<_> {
                match name {
                    "select" => modes::select(t, &p),
                    _ => {
                        if p.len() != 2 {
                            return Err(Error::new(
                                ErrorKind::UnknownName,
                                "evaluate",
                                format!("{name} takes two template arguments <B,E>"),
                            ));
                        }
                        if name == "take" {
                            modes::take(t, p[0], p[1])
                        } else {
                            modes::group(t, p[0], p[1])
                        }
                    }
                }
            };
            match structured(a(0), "the operand")? {
                Structured::Layout(l) => {
                    let tree = op(l.as_tree_ref())?;
                    Ok(lay(Layout { tree }))
                }
                Structured::Tuple(t) => {
                    let p2 = path(targs, "select")?;
                    let r = match name {
                        "select" => modes::select(t.as_ref(), &p2)?,
                        "take" if p2.len() == 2 => modes::take(t.as_ref(), p2[0], p2[1])?,
                        "group" if p2.len() == 2 => modes::group(t.as_ref(), p2[0], p2[1])?,
                        _ => {
                            return Err(Error::new(
                                ErrorKind::UnknownName,
                                "evaluate",
                                format!("{name} takes two template arguments <B,E>"),
                            ))
                        }
                    };
                    Ok(Value::IntTuple(r))
                }
            }
        }
        "append" | "prepend" => {
            targ_count(name, targs, 0, 1)?;
            arity(name, args, if targs.is_empty() { 2 } else { 1 }, 2)?;
            let x = structured(a(0), "the operand")?;
            let y = default_x(args, 1, &x)?;
            let n = targs.first().map(|&t| idx(t, "append")).transpose()?;
            let front = name == "prepend";
            Ok(match both(&x, &y, if front { "prepend" } else { "append" })? {
                Either::L(x, y) => lay(match (n, front) {
                    (None, false) => x.append(y)?,
                    (None, true) => x.prepend(y)?,
                    (Some(n), false) => x.append_to(n, y)?,
                    (Some(n), true) => x.prepend_to(n, y)?,
                }),
                Either::T(x, y) => Value::IntTuple(match (n, front) {
                    (None, false) => modes::append(x.as_ref(), y.as_ref()),
                    (None, true) => modes::prepend(x.as_ref(), y.as_ref()),
                    (Some(n), false) => modes::append_to(x.as_ref(), n, y.as_ref())?,
                    (Some(n), true) => modes::prepend_to(x.as_ref(), n, y.as_ref())?,
                }),
            })
        }
        "replace" => {
            targ_count(name, targs, 1, 1)?;
            arity(name, args, 2, 2)?;
            let n = idx(targs[0], "replace")?;
            let (x, y) = (structured(a(0), "the operand")?, structured(a(1), "the replacement")?);
            Ok(match both(&x, &y, "replace")? {
                Either::L(x, y) => lay(x.replace(n, y)?),
                Either::T(x, y) => Value::IntTuple(modes::replace(x.as_ref(), n, y.as_ref())?),
            })
        }
        "flatten" => {
            no_targs(name)?;
            arity(name, args, 1, 1)?;
            Ok(match structured(a(0), "the operand")? {
                Structured::Layout(l) => lay(l.flatten()),
                Structured::Tuple(t) => Value::IntTuple(t.flatten()),
            })
        }
        "unflatten" => {
            no_targs(name)?;
            arity(name, args, 2, 2)?;
            let prof = a(1).as_int_tuple("the profile")?;
            Ok(match structured(a(0), "the operand")? {
                Structured::Layout(l) => lay(l.unflatten(&prof)?),
                Structured::Tuple(t) => Value::IntTuple(modes::unflatten(t.as_ref(), prof.as_ref())?),
            })
        }
        "zip" => {
            no_targs(name)?;
            arity(name, args, 1, 2)?;
            if args.len() == 2 {
                return Ok(lay(a(0).to_layout("zip's operand")?.zip_with(&a(1).to_layout("zip's operand")?)?));
            }
            Ok(match structured(a(0), "the operand")? {
                Structured::Layout(l) => lay(l.zip()?),
                Structured::Tuple(t) => Value::IntTuple(modes::zip(t.as_ref())?),
            })
        }
        "tile_unzip" => {
            no_targs(name)?;
            arity(name, args, 2, 2)?;
            Ok(lay(algebra::tile_unzip(&a(0).to_layout("the layout")?, &a(1).as_tiler("the tiler")?)?))
        }
        "product" => {
            no_targs(name)?;
            arity(name, args, 1, 1)?;
            Ok(int(a(0).as_int_tuple("the operand")?.size()?))
        }
        "product_each" => {
            no_targs(name)?;
            arity(name, args, 1, 1)?;
            Ok(Value::IntTuple(int_tuple::product_each(a(0).as_int_tuple("the operand")?.as_ref())?))
        }
        "inner_product" | "congruent" | "weakly_congruent" | "compatible" | "weakly_compatible" | "shape_div"
        | "elem_scale" => {
            no_targs(name)?;
            arity(name, args, 2, 2)?;
            let x = a(0).as_int_tuple("the first operand")?;
            let y = a(1).as_int_tuple("the second operand")?;
            let (x, y) = (x.as_ref(), y.as_ref());
            Ok(match name {
                "inner_product" => int(int_tuple::inner_product(x, y)?),
                "congruent" => boolean(int_tuple::congruent(x, y)),
                "weakly_congruent" => boolean(int_tuple::weakly_congruent(x, y)),
                "compatible" => boolean(int_tuple::compatible(x, y)?),
                "weakly_compatible" => boolean(int_tuple::weakly_compatible(x, y)?),
                "shape_div" => Value::IntTuple(int_tuple::shape_div(x, y)?),
                _ => Value::IntTuple(int_tuple::elem_scale(x, y)?),
            })
        }
        "ceil_div" => {
            no_targs(name)?;
            arity(name, args, 2, 2)?;
            let x = a(0).as_int_tuple("the dividend")?;
            match a(1) {
                Value::Layout(t) => {
                    Ok(Value::IntTuple(algebra::complement(t, &x).map_err(|e| e.in_op("ceil_div"))?.shape()))
                }
                o => Ok(Value::IntTuple(int_tuple::ceil_div(x.as_ref(), o.as_int_tuple("the divisor")?.as_ref())?)),
            }
        }
        "prefix_product" => {
            no_targs(name)?;
            arity(name, args, 1, 1)?;
            Ok(Value::IntTuple(int_tuple::prefix_product(a(0).as_int_tuple("the operand")?.as_ref())?))
        }
        "idx2crd" => {
            no_targs(name)?;
            arity(name, args, 2, 2)?;
            let i = a(0).as_int_tuple("the index")?;
            let s = a(1).as_int_tuple("the shape")?;
            Ok(Value::IntTuple(int_tuple::idx2crd(i.as_ref(), s.as_ref())?))
        }
        "crd2idx" => {
            no_targs(name)?;
            arity(name, args, 2, 3)?;
            let c = a(0).as_int_tuple("the coordinate")?;
            if let (Value::Layout(l), 2) = (a(1), args.len()) {
                return Ok(int(l.eval_coord(&c)?));
            }
            let s = a(1).as_int_tuple("the shape")?;
            match args.get(2) {
                Some(d) => Ok(int(int_tuple::crd2idx(c.as_ref(), s.as_ref(), d.as_int_tuple("the stride")?.as_ref())?)),
                None => Ok(int(int_tuple::crd2idx_compact(c.as_ref(), s.as_ref())?)),
            }
        }
        "crd2crd" => {
            no_targs(name)?;
            arity(name, args, 3, 3)?;
            let c = a(0).as_int_tuple("the coordinate")?;
            let s = a(1).as_int_tuple("the source shape")?;
            let d = a(2).as_int_tuple("the target shape")?;
            Ok(Value::IntTuple(int_tuple::crd2crd(c.as_ref(), s.as_ref(), d.as_ref())?))
        }
        "compact_col_major" | "compact_row_major" | "compact_major" => {
            no_targs(name)?;
            arity(name, args, 1, 2)?;
            let s = a(0).as_int_tuple("the shape")?;
            let cur = match args.get(1) {
                Some(v) => v.as_int("the start")?,
                None => Int::ONE,
            };
            Ok(Value::IntTuple(if name == "compact_row_major" {
                int_tuple::compact_row_major(s.as_ref(), cur)?
            } else {
                int_tuple::compact_col_major(s.as_ref(), cur)?
            }))
        }
        "compact_order" => {
            no_targs(name)?;
            arity(name, args, 2, 2)?;
            let s = a(0).as_int_tuple("the shape")?;
            match a(1) {
                Value::Major(Major::Left) => Ok(Value::IntTuple(int_tuple::compact_col_major(s.as_ref(), Int::ONE)?)),
                Value::Major(Major::Right) => Ok(Value::IntTuple(int_tuple::compact_row_major(s.as_ref(), Int::ONE)?)),
                o => Ok(Value::IntTuple(int_tuple::compact_order(s.as_ref(), o.as_int_tuple("the order")?.as_ref())?)),
            }
        }
        "coalesce" => {
            no_targs(name)?;
            arity(name, args, 1, 2)?;
            match a(0) {
                Value::IntTuple(s) if args.len() == 1 => Ok(Value::IntTuple(algebra::coalesce_shape(s)?)),
                v => {
                    let l = v.to_layout("the operand")?;
                    match args.get(1) {
                        None => Ok(lay(algebra::coalesce(&l)?)),
                        Some(p) => Ok(lay(algebra::coalesce_profile(&l, &p.as_int_tuple("the profile")?)?)),
                    }
                }
            }
        }
        "filter_zeros" | "filter" => {
            no_targs(name)?;
            arity(name, args, 1, 2)?;
            let l = a(0).to_layout("the operand")?;
            let f: &dyn Fn(&Layout) -> Result<Layout> =
                if name == "filter" { &algebra::filter } else { &|l: &Layout| Ok(algebra::filter_zeros(l)) };
            match args.get(1) {
                None => Ok(lay(f(&l)?)),
                Some(p) => Ok(lay(algebra::coalesce_profile_with(&l, &p.as_int_tuple("the profile")?, name, f)?)),
            }
        }
        "composition" => {
            no_targs(name)?;
            arity(name, args, 2, 2)?;
            let l = a(0).to_layout("the left operand")?;
            match a(1) {
                Value::Layout(b) => Ok(lay(algebra::composition(&l, b)?)),
                t => Ok(lay(algebra::composition_tiler(&l, &t.as_tiler("the right operand")?)?)),
            }
        }
        "complement" => {
            no_targs(name)?;
            arity(name, args, 1, 2)?;
            let l = a(0).to_layout("the operand")?;
            match args.get(1) {
                None => Ok(lay(algebra::complement_self(&l)?)),
                Some(m) => Ok(lay(algebra::complement(&l, &m.as_int_tuple("the cotarget")?)?)),
            }
        }
        "right_inverse" | "left_inverse" | "nullspace" => {
            no_targs(name)?;
            arity(name, args, 1, 1)?;
            if let Value::Underscore = a(0) {
                return Ok(Value::Underscore);
            }
            let l = a(0).to_layout("the operand")?;
            Ok(lay(match name {
                "right_inverse" => algebra::right_inverse(&l)?,
                "left_inverse" => algebra::left_inverse(&l)?,
                _ => algebra::nullspace(&l)?,
            }))
        }
        "logical_divide" | "zipped_divide" | "tiled_divide" | "flat_divide" | "logical_product" | "zipped_product"
        | "tiled_product" | "flat_product" => {
            no_targs(name)?;
            arity(name, args, 2, 2)?;
            let l = a(0).to_layout("the left operand")?;
            let t = a(1).as_tiler("the tiler")?;
            Ok(lay(match name {
                "logical_divide" => algebra::logical_divide(&l, &t)?,
                "zipped_divide" => algebra::zipped_divide(&l, &t)?,
                "tiled_divide" => algebra::tiled_divide(&l, &t)?,
                "flat_divide" => algebra::flat_divide(&l, &t)?,
                "logical_product" => algebra::logical_product(&l, &t)?,
                "zipped_product" => algebra::zipped_product(&l, &t)?,
                "tiled_product" => algebra::tiled_product(&l, &t)?,
                _ => algebra::flat_product(&l, &t)?,
            }))
        }
        "blocked_product" | "raked_product" | "max_common_layout" => {
            no_targs(name)?;
            arity(name, args, 2, 2)?;
            let x = a(0).to_layout("the left operand")?;
            let y = a(1).to_layout("the right operand")?;
            Ok(lay(match name {
                "blocked_product" => algebra::blocked_product(&x, &y)?,
                "raked_product" => algebra::raked_product(&x, &y)?,
                _ => algebra::max_common_layout(&x, &y)?,
            }))
        }
        "max_common_vector" => {
            no_targs(name)?;
            arity(name, args, 2, 2)?;
            Ok(int(algebra::max_common_vector(
                &a(0).to_layout("the left operand")?,
                &a(1).to_layout("the right operand")?,
            )?))
        }
        "tile_to_shape" => {
            no_targs(name)?;
            arity(name, args, 2, 3)?;
            let l = a(0).to_layout("the block")?;
            let s = a(1).as_int_tuple("the target shape")?;
            let o = match args.get(2) {
                None | Some(Value::Major(Major::Left)) => None,
                Some(Value::Major(Major::Right)) => {
                    let n = s.rank() as i64;
                    Some(IntTuple::tuple_of_leaves((0..n).rev().map(Int::new_static)))
                }
                Some(v) => Some(v.as_int_tuple("the order")?),
            };
            Ok(lay(algebra::tile_to_shape(&l, &s, o.as_ref())?))
        }
        "upcast" | "downcast" => {
            targ_count(name, targs, 1, 1)?;
            arity(name, args, 1, 1)?;
            let l = a(0).to_layout("the operand")?;
            Ok(lay(if name == "upcast" { algebra::upcast(&l, targs[0])? } else { algebra::downcast(&l, targs[0])? }))
        }
        "slice" | "dice" | "slice_and_offset" => {
            no_targs(name)?;
            arity(name, args, 2, 2)?;
            let c = a(0).as_coord("the coordinate")?;
            let l = a(1).to_layout("the layout")?;
            Ok(match name {
                "slice" => lay(l.slice(&c)?),
                "dice" => lay(l.dice(&c)?),
                _ => {
                    let (s, off) = l.slice_and_offset(&c)?;
                    Value::Tuple(vec![lay(s), Value::from_point(off)])
                }
            })
        }
        _ => Err(Error::new(ErrorKind::UnknownName, "evaluate", format!("unknown function '{name}'"))),
    }
}

#[allow(dead_code)]
fn _unused(_: Tree<Int>) {}
