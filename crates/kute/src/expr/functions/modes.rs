//! Modes and measures of layouts and integer tuples: `shape`, `size`, `rank`,
//! `get`, `take`, `append`, `flatten`, `zip`... (CuTe's `layout.hpp` and
//! `tuple_algorithms.hpp`), each defined on both where CuTe defines it on both.

use super::args::{int, lay, sint, tuple, Args, FromValue};
use crate::error::{Error, ErrorKind, Result};
use crate::expr::value::Value;
use crate::int_tuple::IntTuple;
use crate::layout::{modes, Layout};

/// A tuple-or-layout argument, for the structural functions that work on both.
#[allow(clippy::large_enum_variant)] // short-lived, one per call
enum Structured {
    Tuple(IntTuple),
    Layout(Layout),
}

impl FromValue for Structured {
    const WANT: &'static str = "a tuple or a layout";
    fn from_value(v: &Value) -> Option<Self> {
        match v {
            Value::Layout(l) => Some(Structured::Layout(l.clone())),
            Value::IntTuple(t) => Some(Structured::Tuple(t.clone())),
            _ => None,
        }
    }
}

fn sub_tuple(t: &IntTuple, p: &[usize], name: &'static str) -> Result<IntTuple> {
    let mut r = t.as_ref();
    for &i in p {
        r = r.mode(i).ok_or_else(|| Error::mismatch(name, format!("index path {p:?} out of range for {t}")))?;
    }
    Ok(r.to_tree())
}

/// The appended element `i`, by default a unit like `like`.
fn default_x(a: &Args, i: usize, like: &Structured) -> Result<Structured> {
    match a.opt(i, "the appended element")? {
        Some(x) => Ok(x),
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
pub(super) fn shape(a: &Args) -> Result<Value> {
    let p = a.path()?;
    match &a[0] {
        Value::Layout(l) => Ok(tuple(l.mode_at_in(&p, "shape")?.shape())),
        Value::IntTuple(t) => Ok(tuple(sub_tuple(t, &p, "shape")?)),
        _ => Err(a.wrong(0, "the operand", "a layout")),
    }
}

pub(super) fn stride(a: &Args) -> Result<Value> {
    let p = a.path()?;
    match &a[0] {
        Value::Layout(l) => Ok(Value::from_strides(l.mode_at_in(&p, "stride")?.stride())),
        _ => Err(a.wrong(0, "the operand", "a layout")),
    }
}

pub(super) fn size(a: &Args) -> Result<Value> {
    let p = a.path()?;
    Ok(match a.arg::<Structured>(0, "the operand")? {
        Structured::Layout(l) => int(l.mode_at_in(&p, "size")?.size()?),
        Structured::Tuple(t) => int(sub_tuple(&t, &p, "size")?.size()?),
    })
}

pub(super) fn cosize(a: &Args) -> Result<Value> {
    let p = a.path()?;
    match a.arg::<Structured>(0, "the operand")? {
        // a coordinate layout's cosize is its coshape's size, as CuTe defines it
        Structured::Layout(l) if !l.has_int_strides() => Ok(int(l.mode_at_in(&p, "cosize")?.coshape()?.size()?)),
        Structured::Layout(l) => Ok(int(l.mode_at_in(&p, "cosize")?.cosize()?)),
        Structured::Tuple(_) => Err(a.wrong(0, "the operand", "a layout")),
    }
}

pub(super) fn rank(a: &Args) -> Result<Value> {
    let p = a.path()?;
    Ok(match a.arg::<Structured>(0, "the operand")? {
        Structured::Layout(l) => sint(l.mode_at_in(&p, "rank")?.rank()),
        Structured::Tuple(t) => sint(sub_tuple(&t, &p, "rank")?.rank()),
    })
}

pub(super) fn depth(a: &Args) -> Result<Value> {
    let p = a.path()?;
    Ok(match a.arg::<Structured>(0, "the operand")? {
        Structured::Layout(l) => sint(l.mode_at_in(&p, "depth")?.depth()),
        Structured::Tuple(t) => sint(sub_tuple(&t, &p, "depth")?.depth()),
    })
}

pub(super) fn get(a: &Args) -> Result<Value> {
    let p = a.path()?;
    Ok(match a.arg::<Structured>(0, "the operand")? {
        Structured::Layout(l) => lay(l.mode_at_in(&p, "get")?),
        Structured::Tuple(t) => tuple(sub_tuple(&t, &p, "get")?),
    })
}

pub(super) fn layout(a: &Args) -> Result<Value> {
    let p = a.path()?;
    match a.arg::<Structured>(0, "the operand")? {
        Structured::Layout(l) => Ok(lay(l.mode_at_in(&p, "layout")?)),
        Structured::Tuple(_) => Err(a.wrong(0, "the operand", "a layout")),
    }
}

pub(super) fn select(a: &Args) -> Result<Value> {
    let p = a.path()?;
    Ok(match a.arg::<Structured>(0, "the operand")? {
        Structured::Layout(l) => lay(Layout { tree: modes::select(l.as_tree_ref(), &p)? }),
        Structured::Tuple(t) => tuple(modes::select(t.as_ref(), &p)?),
    })
}

/// `take<B,E>` or `group<B,E>`: the operand is checked before the template arguments.
fn begin_end(a: &Args) -> Result<Value> {
    let name = a.name;
    let p = a.path()?;
    let x = a.arg::<Structured>(0, "the operand")?;
    let &[b, e] = p.as_slice() else {
        return Err(Error::new(ErrorKind::Type, "evaluate", format!("{name} takes two template arguments <B,E>")));
    };
    let is_take = name == "take";
    Ok(match x {
        Structured::Layout(l) => {
            let l = l.as_tree_ref();
            lay(Layout { tree: if is_take { modes::take(l, b, e)? } else { modes::group(l, b, e)? } })
        }
        Structured::Tuple(t) => {
            let t = t.as_ref();
            tuple(if is_take { modes::take(t, b, e)? } else { modes::group(t, b, e)? })
        }
    })
}

pub(super) fn take(a: &Args) -> Result<Value> {
    begin_end(a)
}

pub(super) fn group(a: &Args) -> Result<Value> {
    begin_end(a)
}

/// `append`/`prepend`, with `append<N>` padding to rank N.
fn pend(front: bool, a: &Args) -> Result<Value> {
    let x = a.arg::<Structured>(0, "the operand")?;
    let y = default_x(a, 1, &x)?;
    let n = if a.targs().is_empty() { None } else { Some(a.index(0)?) };
    Ok(match both(&x, &y, if front { "prepend" } else { "append" })? {
        Either::L(x, y) => lay(match (n, front) {
            (None, false) => x.append(y)?,
            (None, true) => x.prepend(y)?,
            (Some(n), false) => x.append_to(n, y)?,
            (Some(n), true) => x.prepend_to(n, y)?,
        }),
        Either::T(x, y) => tuple(match (n, front) {
            (None, false) => modes::append(x.as_ref(), y.as_ref())?,
            (None, true) => modes::prepend(x.as_ref(), y.as_ref())?,
            (Some(n), false) => modes::append_to(x.as_ref(), n, y.as_ref())?,
            (Some(n), true) => modes::prepend_to(x.as_ref(), n, y.as_ref())?,
        }),
    })
}

pub(super) fn append(a: &Args) -> Result<Value> {
    pend(false, a)
}

pub(super) fn prepend(a: &Args) -> Result<Value> {
    pend(true, a)
}

pub(super) fn replace(a: &Args) -> Result<Value> {
    let n = a.index(0)?;
    let (x, y) = (a.arg::<Structured>(0, "the operand")?, a.arg::<Structured>(1, "the replacement")?);
    Ok(match both(&x, &y, "replace")? {
        Either::L(x, y) => lay(x.replace(n, y)?),
        Either::T(x, y) => tuple(modes::replace(x.as_ref(), n, y.as_ref())?),
    })
}

pub(super) fn flatten(a: &Args) -> Result<Value> {
    Ok(match a.arg::<Structured>(0, "the operand")? {
        Structured::Layout(l) => lay(l.flatten()),
        Structured::Tuple(t) => tuple(t.flatten()),
    })
}

pub(super) fn unflatten(a: &Args) -> Result<Value> {
    let prof = a.arg::<IntTuple>(1, "the profile")?;
    Ok(match a.arg::<Structured>(0, "the operand")? {
        Structured::Layout(l) => lay(l.unflatten(&prof)?),
        Structured::Tuple(t) => tuple(modes::unflatten(t.as_ref(), prof.as_ref())?),
    })
}

pub(super) fn zip(a: &Args) -> Result<Value> {
    if a.len() == 2 {
        return Ok(lay(a.arg::<Layout>(0, "zip's operand")?.zip_with(&a.arg::<Layout>(1, "zip's operand")?)?));
    }
    Ok(match a.arg::<Structured>(0, "the operand")? {
        Structured::Layout(l) => lay(l.zip()?),
        Structured::Tuple(t) => tuple(modes::zip(t.as_ref())?),
    })
}

/// The operand of a tuple utility that builds tuples: an integer tuple (a
/// layout is a `Type` error: kute holds no tuples of layouts).
fn tuple_only(a: &Args, i: usize) -> Result<IntTuple> {
    let name = a.name;
    match a.arg::<Structured>(i, "the operand")? {
        Structured::Tuple(t) => Ok(t),
        Structured::Layout(l) => {
            Err(Error::new(ErrorKind::Type, name, format!("the operand must be an integer tuple, not the layout {l}")))
        }
    }
}

pub(super) fn front(a: &Args) -> Result<Value> {
    Ok(match a.arg::<Structured>(0, "the operand")? {
        // a layout is not a tuple: CuTe's front of it is the layout itself
        Structured::Layout(l) => lay(l),
        Structured::Tuple(t) => int(modes::front(t.as_ref())?),
    })
}

pub(super) fn back(a: &Args) -> Result<Value> {
    Ok(match a.arg::<Structured>(0, "the operand")? {
        Structured::Layout(l) => lay(l),
        Structured::Tuple(t) => int(modes::back(t.as_ref())?),
    })
}

pub(super) fn unwrap(a: &Args) -> Result<Value> {
    Ok(match a.arg::<Structured>(0, "the operand")? {
        Structured::Layout(l) => lay(l),
        Structured::Tuple(t) => tuple(modes::unwrap(t.as_ref())),
    })
}

pub(super) fn wrap(a: &Args) -> Result<Value> {
    Ok(tuple(modes::wrap(tuple_only(a, 0)?.as_ref())?))
}

pub(super) fn tuple_cat(a: &Args) -> Result<Value> {
    let ts = (0..a.len()).map(|i| tuple_only(a, i)).collect::<Result<Vec<_>>>()?;
    let refs: Vec<_> = ts.iter().map(|t| t.as_ref()).collect();
    Ok(tuple(modes::tuple_cat(&refs)?))
}

pub(super) fn insert(a: &Args) -> Result<Value> {
    let n = a.index(0)?;
    let x = a.arg::<IntTuple>(1, "the inserted element")?;
    Ok(tuple(modes::insert(tuple_only(a, 0)?.as_ref(), n, x.as_ref())?))
}

pub(super) fn remove(a: &Args) -> Result<Value> {
    let n = a.index(0)?;
    Ok(tuple(modes::remove(tuple_only(a, 0)?.as_ref(), n)?))
}

pub(super) fn repeat_like(a: &Args) -> Result<Value> {
    let x = a.arg::<IntTuple>(1, "the repeated element")?;
    Ok(match a.arg::<Structured>(0, "the operand")? {
        // a layout is not a tuple: CuTe repeats x once, as for an integer
        Structured::Layout(_) => tuple(x),
        Structured::Tuple(t) => tuple(modes::repeat_like(t.as_ref(), x.as_ref())?),
    })
}

pub(super) fn repeat(a: &Args) -> Result<Value> {
    let n = a.index(0)?;
    let x = a.arg::<IntTuple>(0, "the repeated element")?;
    Ok(tuple(modes::repeat(n, x.as_ref())?))
}
