//! The expression language shared by every front end: the evaluator.
//!
//! Its syntax is [`crate::syntax`]'s (parsed by [`parse`], re-exported here);
//! this module gives names, calls and applications their meaning. The
//! functions it calls are the entries of one registry, [`FUNCTIONS`].
//!
//! Integers `8` (dynamic) and `_8` or `Int<8>{}` (static); tuples `(a,(b,c))`
//! (`(8)` is a rank-1 tuple); layouts `shape:stride`; tilers `<A,_,(2,2)>`;
//! `_`; calls with CuTe's names and template arguments (`take<1,3>(L)`,
//! `size<1>(L)`, element types in `recast_layout<uint8_t,half_t>(L)`);
//! `LayoutLeft{}`/`LayoutRight{}`; a function named without a call, as the
//! argument of `transform_layout(L, coalesce)`; application `L(5)`,
//! `L(1,(0,1))` and slicing `L(_,1)`. CuTe's member functions are written as
//! functions of the object: `L.get_hier_coord(i)` is `get_hier_coord(L, i)`.
//! Whitespace is allowed anywhere.
//!
//! ```
//! use kute::expr::eval;
//! let c = eval("composition((_6,_2):(_8,_2), (_4,_3):(_3,_1))").unwrap();
//! assert_eq!(c.to_string(), "((_2,_2),_3):((_24,_2),_8)");
//! assert_eq!(eval("size<1>((2,(2,2)):(4,(1,2)))").unwrap().to_string(), "4");
//! assert_eq!(eval("(_2,_3):(_3,_1)(_1,_1)").unwrap().to_string(), "_4");
//! ```

mod cases;
mod functions;
mod tensor_value;
mod thr_slice;
mod type_names;
mod value;

pub use crate::syntax::{parse, split_binding, Expr, ExprKind};
pub use functions::{call, lookup, nearest, Count, FunctionInfo, Kind, FUNCTIONS};
pub use tensor_value::TensorValue;
pub use thr_slice::ThrSlice;
pub use value::Value;

use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::slice::Coord;
use crate::layout::{Layout, Major};
use crate::tiler::Tiler;
use std::collections::HashMap;

/// Named values of an interactive session (`A = (4,6):(6,1)`).
pub type Env = HashMap<String, Value>;

/// Bind `name` to `value` in `env` (replacing an earlier binding), within
/// the budget of [`MAX_BOUND_LEAVES`](crate::limits::MAX_BOUND_LEAVES) leaves
/// for all the bound values together.
///
/// Pre: the bound values, with `value` in place of any earlier value of
/// `name`, hold at most `MAX_BOUND_LEAVES` leaves (else a `Limit` error and
/// `env` unchanged). Post: `env[name] == value`.
///
/// ```
/// use kute::expr::{bind, eval, eval_in, Env};
/// let mut env = Env::new();
/// bind(&mut env, "A", eval("(4,6):(6,1)").unwrap()).unwrap();
/// assert_eq!(eval_in("size(A)", &env).unwrap().to_string(), "24");
/// ```
pub fn bind(env: &mut Env, name: &str, value: Value) -> Result<()> {
    let held: usize = env.iter().filter(|(k, _)| k.as_str() != name).map(|(_, v)| weight(v)).sum();
    let total = held + weight(&value);
    if total > crate::limits::MAX_BOUND_LEAVES {
        return Err(Error::limit(
            "bind",
            format!(
                "the bound values would hold {total} leaves, past kute's limit of {}",
                crate::limits::MAX_BOUND_LEAVES
            ),
        ));
    }
    env.insert(name.to_string(), value);
    Ok(())
}

/// One line of a session, as `kute eval -` reads it: `NAME = expr` evaluates
/// `expr` and binds `NAME` to it (through [`bind`]); anything else is an
/// expression.
///
/// Pre: as [`eval_in`] for the expression, and as [`bind`] for a binding.
/// Post: the value; an error's span points into `line`.
///
/// ```
/// use kute::expr::{eval_line, Env};
/// let mut env = Env::new();
/// assert_eq!(eval_line(&mut env, "A = (4,6):(6,1)").unwrap().to_string(), "(4,6):(6,1)");
/// assert_eq!(eval_line(&mut env, "size(A)").unwrap().to_string(), "24");
/// assert_eq!(eval_line(&mut env, "B = (2,3").unwrap_err().span(), Some((8, 9)));
/// ```
pub fn eval_line(env: &mut Env, line: &str) -> Result<Value> {
    eval_line_renaming(env, line).map(|(v, _)| v)
}

/// An unknown renamed when its name was bound anew (`M = ?`, `L = (M,_4)`,
/// then `M = M*2`: the unknown `L` shows is now `M_1`); it displays as the
/// note a session shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Renamed {
    /// The name bound anew.
    pub name: String,
    /// The unknown's new name, bound to it.
    pub now: String,
}

impl std::fmt::Display for Renamed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Renamed { name, now } = self;
        write!(f, "the unknown {name} is renamed {now}, as the earlier values now print it; {name} names the new value")
    }
}

/// [`eval_line`], and the unknown it renamed, if any: binding the name of
/// an unknown that values bound before show renames that unknown (to the
/// first of `M_1`, `M_2`, ... free) and binds the new name to it, so that
/// every value printed reads back as itself.
///
/// Pre: as [`eval_line`]. Post: as [`eval_line`]; the renamed unknown is
/// bound to [`Renamed::now`].
///
/// ```
/// use kute::expr::{eval_line, eval_line_renaming, Env};
/// let mut env = Env::new();
/// eval_line(&mut env, "M = ?").unwrap();
/// eval_line(&mut env, "L = (M,_4):(_1,M)").unwrap();
/// let (v, renamed) = eval_line_renaming(&mut env, "M = M*2").unwrap();
/// assert_eq!((v.to_string(), renamed.unwrap().now), ("2*M_1".to_string(), "M_1".to_string()));
/// assert_eq!(env["L"].to_string(), "(M_1,_4):(_1,M_1)");
/// ```
pub fn eval_line_renaming(env: &mut Env, line: &str) -> Result<(Value, Option<Renamed>)> {
    match split_binding(line) {
        Some((name, rest)) => {
            let v = eval_in(rest, env).map_err(|e| e.shift_span(line.len() - rest.len()))?;
            let before = env.get(name).cloned();
            // `M = ?{div=8}` names the new unknown
            if let Value::IntTuple(t) = &v
                && let Some(x) = t.as_int()
                && x.is_symbolic()
            {
                x.to_sym().name_if_anonymous(name);
            }
            bind(env, name, v.clone())?;
            let renamed = before.and_then(|before| keep_unknown_readable(env, name, before));
            Ok((v, renamed.map(|now| Renamed { name: name.to_string(), now })))
        }
        None => Ok((eval_in(line, env)?, None)),
    }
}

/// After `name` is bound anew: where it held the unknown of that name
/// (`before`) and a value still shows it (`M = ?`, `L = (M,_4)`, then
/// `M = M*2`), the unknown is renamed `name_1` (or `_2`, ...: the first name
/// free) and bound to that name, so that every answer printed from now on
/// reads back. The new name, where it renamed.
fn keep_unknown_readable(env: &mut Env, name: &str, before: Value) -> Option<String> {
    let Value::IntTuple(old) = &before else { return None };
    let x = old.as_int().filter(|x| x.is_symbolic())?.to_sym();
    if x.to_string() != name || env.get(name) == Some(&before) {
        return None;
    }
    // (the new value shows the name as itself where it is a new unknown of
    // that name, `M = ?{div=8}`)
    let shown = |v: &Value| v.has_symbols() && crate::syntax::mentions(&v.to_string(), name);
    let new_unknown = |v: &Value| matches!(v, Value::IntTuple(t) if t.as_int().is_some_and(|x| x.is_symbolic() && x.to_sym().declaration().is_some()));
    if !env.iter().any(|(k, v)| shown(v) && !(k == name && new_unknown(v))) {
        return None;
    }
    let fresh = (1..).map(|k| format!("{name}_{k}")).find(|n| !env.contains_key(n) && lookup(n).is_none())?;
    x.rename(&fresh);
    // (one leaf past the budget at most: the binding replaces a name's
    // meaning, which must not fail halfway)
    env.insert(fresh.clone(), before);
    Some(fresh)
}

/// Parse and evaluate an expression.
///
/// Pre: `src` parses (else a `Parse` error) and evaluates: names and calls are
/// known and called with accepted argument counts (else an `UnknownName`
/// error), values are of the kinds expected (else a `Type` error), and the
/// functions called succeed (else their errors).
/// Post: the value; an error carries the byte span of the failing subexpression.
///
/// ```
/// assert_eq!(kute::expr::eval("coalesce((_2,_4):(_1,_2))").unwrap().to_string(), "_8:_1");
/// assert!(kute::expr::eval("composition((6,4):(1,7),4:4)").is_err());
/// ```
pub fn eval(src: &str) -> Result<Value> {
    eval_in(src, &Env::new())
}

/// Parse and evaluate an expression in which the names of `env` are bound.
///
/// Pre: as [`eval`], with the names of `env` known. Post: as [`eval`].
///
/// ```
/// use kute::expr::{eval, eval_in, Env};
/// let mut env = Env::new();
/// env.insert("A".into(), eval("(4,6):(6,1)").unwrap());
/// assert_eq!(eval_in("size(A)", &env).unwrap().to_string(), "24");
/// ```
pub fn eval_in(src: &str, env: &Env) -> Result<Value> {
    let e = parse(src)?;
    eval_expr(&e, env)
}

/// Evaluate a parsed expression.
///
/// Pre: as [`eval_in`], for an expression already parsed (nested at most 256
/// levels, else a `Limit` error). Post: as [`eval`].
///
/// ```
/// use kute::expr::{parse, eval_expr, Env};
/// let e = parse("rank((2,3,4))").unwrap();
/// assert_eq!(eval_expr(&e, &Env::new()).unwrap().to_string(), "_3");
/// ```
pub fn eval_expr(e: &Expr, env: &Env) -> Result<Value> {
    let r = crate::limits::with_point_budget(|| eval_node(e, env, 0));
    // (an error no operation named is the evaluator's: a tuple literal past
    // the limits, say)
    r.map_err(|err| err.in_op("evaluate").with_span(e.span.0, e.span.1))
}

/// The leaves a value counts for the budgets of [`crate::limits`]: its leaves,
/// where an element of a mixed tuple (a layout, say, which keeps 16 leaves
/// inline) counts at least 16.
fn weight(v: &Value) -> usize {
    fn tiler(t: &Tiler) -> usize {
        match t {
            Tiler::Layout(l) => l.leaves().len().max(16),
            Tiler::Int(_) | Tiler::Underscore => 1,
            Tiler::Tuple(ts) => ts.iter().map(tiler).sum(),
        }
    }
    match v {
        Value::IntTuple(t) => t.leaves().len(),
        Value::Layout(l) => l.leaves().len(),
        Value::Strides(t) => t.leaves().len(),
        Value::Coord(t) => t.leaves().len(),
        Value::Tiler(t) => tiler(t),
        Value::Tuple(vs) => vs.iter().map(|v| weight(v).max(16)).sum(),
        Value::Composed(c) => c.leaf_count(),
        Value::Tensor(t) => t.leaf_count(),
        Value::Bool(_) | Value::Underscore | Value::Major(_) | Value::Function(_) | Value::Swizzle(_) => 1,
        Value::Printed(_) | Value::CopyOp(_) | Value::TmemPtr(_) | Value::GmemPtr(_) | Value::SmemPtr(_) => 1,
        Value::GmemTensor(t) => t.layout().leaves().len(),
        Value::SmemTensor(t) => t.layout().leaves().len(),
        Value::MmaAtom(_) | Value::TiledMma(_) | Value::CopyAtom(_) | Value::TiledCopy(_) | Value::ThrSlice(_) => 16,
    }
}

/// The nesting depth of a value.
fn depth_of(v: &Value) -> usize {
    fn tiler(t: &Tiler) -> usize {
        match t {
            Tiler::Layout(l) => l.depth(),
            Tiler::Int(_) | Tiler::Underscore => 0,
            Tiler::Tuple(ts) => 1 + ts.iter().map(tiler).max().unwrap_or(0),
        }
    }
    match v {
        Value::IntTuple(t) => t.depth(),
        Value::Layout(l) => l.depth(),
        Value::Strides(t) => t.depth(),
        Value::Coord(t) => t.depth(),
        Value::Tiler(t) => tiler(t),
        Value::Tuple(vs) => 1 + vs.iter().map(depth_of).max().unwrap_or(0),
        Value::Composed(c) => c.nesting(),
        Value::Tensor(t) => t.depth(),
        Value::Bool(_) | Value::Underscore | Value::Major(_) | Value::Function(_) | Value::Swizzle(_) => 0,
        Value::Printed(_) | Value::CopyOp(_) | Value::TmemPtr(_) | Value::GmemPtr(_) | Value::SmemPtr(_) => 0,
        Value::GmemTensor(t) => t.layout().depth(),
        Value::SmemTensor(t) => t.layout().depth(),
        Value::MmaAtom(_) | Value::TiledMma(_) | Value::CopyAtom(_) | Value::TiledCopy(_) | Value::ThrSlice(_) => 4,
    }
}

/// The value of a node, within the budgets of [`crate::limits`] (a value
/// built by the evaluator, a tuple literal say, is checked here; the library's
/// operations check their own results).
fn within_limits(v: Value) -> Result<Value> {
    let leaves = weight(&v);
    if leaves > crate::limits::MAX_LEAVES {
        return Err(crate::limits::too_many_leaves("evaluate", leaves));
    }
    let depth = depth_of(&v);
    if depth > crate::limits::MAX_DEPTH {
        return Err(crate::limits::too_deep("evaluate", depth));
    }
    Ok(v)
}

/// The values of the sub-expressions `xs`, which together may hold at most
/// four times [`MAX_LEAVES`](crate::limits::MAX_LEAVES) leaves (so that a
/// line naming a large value many times is refused before it is copied).
fn eval_all(xs: &[Expr], sub: impl Fn(&Expr) -> Result<Value>) -> Result<Vec<Value>> {
    let mut total = 0usize;
    let mut out = Vec::with_capacity(xs.len());
    for x in xs {
        let v = sub(x)?;
        total += weight(&v);
        if total > 4 * crate::limits::MAX_LEAVES {
            return Err(Error::limit(
                "evaluate",
                format!("the operands hold more than {} leaves together (kute's limit)", 4 * crate::limits::MAX_LEAVES),
            )
            .with_span(x.span.0, x.span.1));
        }
        out.push(v);
    }
    Ok(out)
}

fn eval_node(e: &Expr, env: &Env, depth: usize) -> Result<Value> {
    eval_node_unchecked(e, env, depth).and_then(within_limits)
}

fn eval_node_unchecked(e: &Expr, env: &Env, depth: usize) -> Result<Value> {
    if depth > 256 {
        return Err(Error::limit("evaluate", "expression nested too deeply"));
    }
    let sub = |x: &Expr| match eval_node(x, env, depth + 1) {
        Ok(Value::Printed(_)) => {
            Err(value::printed_operand("the operand").in_op("evaluate").with_span(x.span.0, x.span.1))
        }
        r => r.map_err(|err| err.with_span(x.span.0, x.span.1)),
    };
    match &e.kind {
        ExprKind::Int { value, is_static } => Ok(Value::IntTuple(IntTuple::leaf(Int::new(*value, *is_static)))),
        ExprKind::Basis { .. } => {
            let s = crate::syntax::basis_stride(e).expect("a basis literal")?;
            Ok(Value::from_strides(crate::tree::Tree::leaf(s)))
        }
        ExprKind::Call { .. } if crate::syntax::basis_stride(e).is_some() => {
            let s = crate::syntax::basis_stride(e).expect("a basis type")?;
            Ok(Value::from_strides(crate::tree::Tree::leaf(s)))
        }
        ExprKind::Underscore => Ok(Value::Underscore),
        ExprKind::Tuple(items) => Value::tuple(eval_all(items, sub)?),
        ExprKind::Tile(items) => {
            let vs = eval_all(items, sub)?;
            let ts = vs.iter().map(|v| v.as_tiler("a tiler element")).collect::<Result<Vec<_>>>()?;
            Ok(Value::Tiler(Tiler::Tuple(ts)))
        }
        ExprKind::Layout(s, d) => layout_node(s, d, &sub),
        ExprKind::Name(n) => match n.as_str() {
            "LayoutLeft" | "GenColMajor" => Ok(Value::Major(Major::Left)),
            "LayoutRight" | "GenRowMajor" => Ok(Value::Major(Major::Right)),
            _ => match env.get(n).cloned().or_else(|| function_value(n)) {
                Some(v) => Ok(v),
                // a CuTe type named on its own: an MMA operation `SM80_..._TN{}`
                None => type_names::atom_type_value(n, &[]).unwrap_or_else(|| {
                    Err(Error::new(
                        crate::ErrorKind::UnknownName,
                        "evaluate",
                        format!("unknown name '{n}'{}", did_you_mean(n, env)),
                    ))
                }),
            }
            .map_err(|err| err.with_span(e.span.0, e.span.1)),
        },
        ExprKind::Call { name, targs, args }
            if targs.is_empty() && lookup(name).is_none() && env.contains_key(name) =>
        {
            // a bound name applied to a coordinate: `A(1,3)`, `A(_,1)`
            let vs = eval_all(args, sub)?;
            apply(&env[name], &vs).map_err(|err| err.in_op("evaluate"))
        }
        ExprKind::Call { name, targs, args } if args.is_empty() && lookup(name).is_none() => {
            // a CuTe type: `MMA_Traits<Op>::ALayout{}`, `Copy_Atom<Op,T>{}`
            let nested = |text: &str| eval_in(text, env);
            match type_names::type_value(name, targs, &nested) {
                Some(v) => v.map_err(|err| err.with_span(e.span.0, e.span.1)),
                None => functions::call_written(name, targs, &[])
                    .map_err(|err| err.in_op(name.clone()).with_span(e.span.0, e.span.1)),
            }
        }
        ExprKind::Call { name, targs, args } if name == "make_tensor" && targs.len() == 1 && args.len() == 1 => {
            // `make_tensor<MMA_Traits<Op>::FrgTypeA>(shape)`: a tcgen05 op's fragment in tensor memory
            let vs = eval_all(args, sub)?;
            let Some(frg) = type_names::frg_type(&targs[0]) else {
                return functions::call_written(name, targs, &vs)
                    .map_err(|err| err.in_op(name.clone()).with_span(e.span.0, e.span.1));
            };
            let run = || -> crate::Result<Value> {
                let (atom, member) = frg?;
                let shape = vs[0].as_int_tuple("the fragment's shape")?;
                let t = crate::atom::tmem::make_fragment(&atom, &member, &shape)?;
                let l = crate::AnyLayout::Layout(t.layout().clone());
                Ok(Value::Tensor(Box::new(tensor_value::TensorValue::Tmem(Box::new((t, l))))))
            };
            run().map_err(|err| err.in_op("make_tensor").with_span(e.span.0, e.span.1))
        }
        ExprKind::Call { name, targs, args } => {
            let vs = eval_all(args, sub)?;
            functions::call_written(name, targs, &vs)
                .map_err(|err| err.in_op(name.clone()).with_span(e.span.0, e.span.1))
        }
        ExprKind::Apply(f, args) => {
            let fv = sub(f)?;
            let vs = eval_all(args, sub)?;
            apply(&fv, &vs).map_err(|err| err.in_op("evaluate"))
        }
        ExprKind::Composed(a, o, b) => composed_node(e, [a, o, b], &sub),
        ExprKind::Unknown { .. } => {
            // `?{ne=M}`: M is an unknown bound in the session
            let named = |name: &str| -> Result<crate::sym::Sym> {
                let v = env.get(name).ok_or_else(|| {
                    Error::new(
                        crate::ErrorKind::UnknownName,
                        "evaluate",
                        format!("unknown name '{name}' in ?{{ne={name}}}"),
                    )
                })?;
                Ok(v.as_int(&format!("the {name} of ?{{ne={name}}}"))?.to_sym())
            };
            Ok(Value::IntTuple(IntTuple::leaf(crate::syntax::literal::unknown_in(e, &named)?)))
        }
        ExprKind::Arith(op, a, b) => arith_node(e, *op, [a, b], &sub),
    }
}

/// `S:D`, out of line (as [`composed_node`]): `make_layout(S, D)`, whose
/// errors name it.
#[inline(never)]
fn layout_node(s: &Expr, d: &Expr, sub: &dyn Fn(&Expr) -> Result<Value>) -> Result<Value> {
    let made = |err: Error| err.in_op("make_layout");
    let s = sub(s)?.as_int_tuple("a layout's shape").map_err(made)?;
    let d = sub(d)?.as_stride_tuple("a layout's stride").map_err(made)?;
    Ok(Value::Layout(Layout::with_strides(&s, &d).map_err(made)?))
}

/// `a + b`, `a - b`, `a * b`, `a / b`, out of line (as [`composed_node`]):
/// errors name the operator (`/: division by zero in 7 / 0`).
#[inline(never)]
fn arith_node(e: &Expr, op: char, [a, b]: [&Expr; 2], sub: &dyn Fn(&Expr) -> Result<Value>) -> Result<Value> {
    let name = match op {
        '+' => "+",
        '-' => "-",
        '*' => "*",
        _ => "/",
    };
    // (a parenthesized operand, `(M+1)*2`, is a rank-1 tuple: its integer)
    let operand = |x: &Expr| -> Result<Int> {
        let v = match sub(x)? {
            Value::Tuple(vs) if vs.len() == 1 => vs[0].clone(),
            Value::IntTuple(t) if t.rank() == 1 && t.depth() == 1 => Value::IntTuple(IntTuple::leaf(t.leaves()[0])),
            v => v,
        };
        v.as_int("an operand of arithmetic").map_err(|err| err.in_op(name).with_span(x.span.0, x.span.1))
    };
    let (x, y) = (operand(a)?, operand(b)?);
    let r = match op {
        '+' => x.add(y),
        '-' => x.sub(y),
        '*' => x.mul(y),
        _ => x.div(y),
    };
    Ok(Value::IntTuple(IntTuple::leaf(r.map_err(|err| err.in_op(name).with_span(e.span.0, e.span.1))?)))
}

/// `A o offset o B`, out of line: its three values would otherwise sit in
/// every frame of the evaluator's recursion.
#[inline(never)]
fn composed_node(e: &Expr, parts: [&Expr; 3], sub: &dyn Fn(&Expr) -> Result<Value>) -> Result<Value> {
    let vs = [sub(parts[0])?, sub(parts[1])?, sub(parts[2])?];
    functions::call("make_composed_layout", &[], &vs).map_err(|err| err.with_span(e.span.0, e.span.1))
}

/// A function of the registry named on its own (an argument of `transform_layout`).
fn function_value(name: &str) -> Option<Value> {
    let f = lookup(name)?;
    f.names().find(|n| *n == name).map(Value::Function)
}

/// `L(args...)`: evaluate at a coordinate, or slice when it contains `_`.
///
/// Pre: `f` is a layout and the arguments are integers, tuples of them and `_`
/// (else a `Type` error); as [`Layout::eval_coord_point`] or [`Layout::slice`].
/// Post: the value of `f` at the coordinate (an integer, or a coordinate for
/// basis strides); the slice (a layout) when the coordinate contains `_`.
///
/// ```
/// use kute::expr::{apply, eval};
/// let l = eval("(_4,_8):(_1,_4)").unwrap();
/// assert_eq!(apply(&l, &[eval("_5").unwrap()]).unwrap().to_string(), "_5");
/// assert_eq!(apply(&l, &[eval("_").unwrap(), eval("2").unwrap()]).unwrap().to_string(), "(_4):(_1)");
/// ```
pub fn apply(f: &Value, args: &[Value]) -> Result<Value> {
    // with unknowns, by cases where one question is undecided (`(M,_4):(_1,M)(1)`
    // is 1 whether M is 1 or more), as the functions are
    if matches!(f, Value::Layout(_)) && (f.has_symbols() || args.iter().any(Value::has_symbols)) {
        let all: Vec<Value> = std::iter::once(f.clone()).chain(args.iter().cloned()).collect();
        return cases::by_cases(&all, &|a| apply_once(&a[0], &a[1..]));
    }
    apply_once(f, args)
}

/// [`apply`] without the cases.
fn apply_once(f: &Value, args: &[Value]) -> Result<Value> {
    let l = match f {
        Value::Layout(l) => l,
        Value::Swizzle(_) | Value::Composed(_) => return functions::apply_composed(f, args),
        Value::Tensor(t) => return functions::apply_tensor(t, args),
        Value::GmemTensor(_) | Value::SmemTensor(_) => {
            return functions::apply_tensor(&*functions::as_tensor(f, "the tensor")?, args)
        }
        other => return Err(value::type_error("the applied value", "a layout", other)),
    };
    let coord = if args.len() == 1 { args[0].clone() } else { Value::tuple(args.to_vec())? };
    // symbols: a layout with integer strides at an integer coordinate (the
    // index an expression), or sliced (the modes kept, which reads no value);
    // basis strides do not take them yet
    let symbolic = l.has_symbols() || coord.has_symbols();
    let slicing = matches!(coord, Value::Coord(_) | Value::Underscore);
    if symbolic && !(l.has_int_strides() && (slicing || matches!(coord, Value::IntTuple(_)))) {
        return Err(crate::sym::refusal("evaluate"));
    }
    if let Value::IntTuple(c) = &coord
        && !c.is_leaf()
    {
        crate::layout::slice::coord_in_range(c.as_ref(), l.shape().as_ref(), l)?;
    }
    match coord {
        Value::IntTuple(c) if c.is_leaf() && l.has_int_strides() => {
            Ok(Value::IntTuple(IntTuple::leaf(l.eval_int(c.leaves()[0])?)))
        }
        Value::IntTuple(c) if l.has_int_strides() => Ok(Value::IntTuple(IntTuple::leaf(l.eval_coord(&c)?))),
        Value::IntTuple(c) if c.is_leaf() => Ok(Value::from_point(l.eval_point(c.leaves()[0])?)),
        Value::IntTuple(c) => Ok(Value::from_point(l.eval_coord_point(&c)?)),
        Value::Coord(_) | Value::Underscore => Ok(Value::Layout(l.slice(&coord.as_coord("the coordinate")?)?)),
        other => Err(value::type_error("the coordinate", "integers and '_'", &other)),
    }
}

/// Evaluate an expression whose value is a layout (a bare shape gets compact
/// column-major strides). Unlike `str::parse::<Layout>`, which reads literals
/// only, the text may contain calls.
///
/// Pre: as [`eval`]; the value is a layout or an integer tuple (else a `Type`
/// error). Post: the layout, or `make_layout(shape)` for a shape.
///
/// ```
/// assert_eq!(kute::expr::parse_layout("(2,3)").unwrap().to_string(), "(2,3):(_1,2)");
/// assert_eq!(kute::expr::parse_layout("make_layout((2,3),LayoutRight{})").unwrap().to_string(), "(2,3):(3,_1)");
/// ```
pub fn parse_layout(src: &str) -> Result<Layout> {
    match eval(src)? {
        Value::Layout(l) => Ok(l),
        Value::IntTuple(s) => Layout::from_shape(&s),
        other => Err(value::type_error("the text", "a layout", &other)),
    }
}

/// Evaluate an expression whose value is an integer tuple (of a layout: its
/// shape). Unlike `str::parse::<IntTuple>`, which reads literals only, the
/// text may contain calls.
///
/// Pre: as [`eval`]; the value is an integer tuple or a layout (else a `Type`
/// error). Post: the tuple, or the layout's shape.
///
/// ```
/// assert_eq!(kute::expr::parse_int_tuple("(2,(3))").unwrap().to_string(), "(2,(3))");
/// assert_eq!(kute::expr::parse_int_tuple("size((2,3))").unwrap().to_string(), "6");
/// ```
pub fn parse_int_tuple(src: &str) -> Result<IntTuple> {
    eval(src)?.as_int_tuple("the text")
}

/// Evaluate an expression whose value is a coordinate, which may contain `_`.
///
/// Pre: as [`eval`]; the value is an integer tuple, `_`, or a tuple of integers
/// and `_` (else a `Type` error). Post: the coordinate.
///
/// ```
/// assert_eq!(kute::expr::parse_coord("(_,(1,_))").unwrap().to_string(), "(_,(1,_))");
/// ```
pub fn parse_coord(src: &str) -> Result<Coord> {
    eval(src)?.as_coord("the text")
}

/// Evaluate an expression whose value is a tiler: a layout, `_`, a shape, or
/// `<...>`. Unlike `str::parse::<Tiler>`, which reads literals only, the text
/// may contain calls.
///
/// Pre: as [`eval`]; the value is a layout, `_`, an integer tuple, a tiler, a
/// coordinate, or a tuple of these (else a `Type` error). Post: the tiler (an
/// integer tuple as the by-mode tiler of its integers).
///
/// ```
/// assert_eq!(kute::expr::parse_tiler("<4:1,_>").unwrap().to_string(), "(4:1,_)");
/// assert_eq!(kute::expr::parse_tiler("<make_layout(4),_>").unwrap().to_string(), "(4:_1,_)");
/// ```
pub fn parse_tiler(src: &str) -> Result<Tiler> {
    eval(src)?.as_tiler("the text")
}

/// "; did you mean 'X'?" for an unknown name `n` of four letters or more:
/// the nearest bound name, function, or MMA or copy operation
/// (`SM80_16x8x16_F16F16F16F16_TM`), if one is near; else nothing.
fn did_you_mean(n: &str, env: &Env) -> String {
    // (a name of a few letters is near too many others to guess: a short name
    // is most often an extent not yet given, `(M,_4):(_1,M)`)
    if n.chars().count() < 4 {
        return format!("; bind it first: {n} = 128, or {n} = ? for an unknown extent");
    }
    let mut names: Vec<String> = env.keys().cloned().collect();
    names.extend(FUNCTIONS.iter().flat_map(|f| f.names()).map(str::to_string));
    names.extend(crate::atom::traits::mma_op_names());
    names.extend(crate::atom::traits::copy_op_names());
    nearest(n, names.iter().map(String::as_str)).map(|m| format!("; did you mean '{m}'?")).unwrap_or_default()
}
