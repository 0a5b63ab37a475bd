//! CuTe's types written as values: `Shape<_2,_4>{}`, `Stride<...>{}`,
//! `Coord<...>{}`, `Step<_1,X,_1>{}`, `Tile<...>{}`,
//! `Layout<Shape<...>,Stride<...>>{}`, `C<N>{}` and `Int<N>{}` (the last two
//! read by the lexer), nested as CuTe nests them; and the atoms'
//! `MMA_Traits<Op>::ALayout{}`, `Copy_Atom<Op,T>{}`, a bare operation name
//! `SM80_16x8x16_F16F16F16F16_TN{}`.

use super::value::Value;
use crate::atom::{CopyAtom, MmaAtom};
use crate::error::{Error, ErrorKind, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::syntax::TemplateArg;

fn unknown(name: &str) -> Error {
    Error::new(ErrorKind::UnknownName, "evaluate", format!("unknown type '{name}'"))
}

fn type_text(t: &TemplateArg) -> String {
    t.to_string()
}

fn one_type(name: &str, targs: &[TemplateArg]) -> Result<String> {
    match targs {
        [t] => Ok(type_text(t)),
        _ => Err(Error::new(ErrorKind::Type, "evaluate", format!("{name} takes one operation type"))),
    }
}

fn two_types(name: &str, targs: &[TemplateArg]) -> Result<(String, String)> {
    match targs {
        [a, b] => Ok((type_text(a), type_text(b))),
        _ => Err(Error::new(
            ErrorKind::Type,
            "evaluate",
            format!("{name} takes an operation and a value type: {name}<Op,T>"),
        )),
    }
}

/// The op of `MMA_Traits<Op>` / `MMA_Atom<Op>`, or of `MMA_Traits<Op, params...>`
/// (written back as that text, which [`crate::atom::traits::mma_traits`] reads).
fn traits_op(name: &str, targs: &[TemplateArg]) -> Result<String> {
    match targs {
        [_, _, ..] => Ok(format!("MMA_Traits<{}>", targs.iter().map(type_text).collect::<Vec<_>>().join(","))),
        // kept whole, so that the traits of a traits type are refused as CuTe refuses them
        _ if name.starts_with("MMA_Traits") => Ok(format!("MMA_Traits<{}>", one_type(name, targs)?)),
        _ => one_type(name, targs),
    }
}

fn lay(l: &Layout) -> Value {
    Value::Layout(l.clone())
}

/// A CuTe type written as a value (`name<targs>{}` or a bare name), if it is
/// one of the atom types or an operation kute knows; `None` for any other name.
pub(crate) fn atom_type_value(name: &str, targs: &[TemplateArg]) -> Option<Result<Value>> {
    if crate::atom::smem::is_smem_atom(name) {
        // `UMMA::Layout_K_SW128_Atom<half_t>{}`, `GMMA::Layout_MN_SW64_SpAtom<half_t,2>{}`
        let args: Vec<String> = targs.iter().map(type_text).collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        return Some(
            crate::atom::smem::smem_atom(name, &args)
                .map(|c| Value::Composed(Box::new(c)))
                .map_err(|e| e.in_op("evaluate")),
        );
    }
    let r = match name {
        "MMA_Atom" => one_type(name, targs).and_then(|op| Ok(Value::MmaAtom(Box::new(MmaAtom::new(&op)?)))),
        // `MMA_Traits<Op, params...>{}`: the traits of a plain op struct that carry its
        // parameters (`SM100_MMA_F8F6F4_SS`), taken as the op
        "MMA_Traits" => traits_op(name, targs).and_then(|op| Ok(Value::MmaAtom(Box::new(MmaAtom::new(&op)?)))),
        "Copy_Atom" => {
            two_types(name, targs).and_then(|(op, t)| Ok(Value::CopyAtom(Box::new(CopyAtom::new(&op, &t)?))))
        }
        _ if name.starts_with("MMA_Traits::") || name.starts_with("MMA_Atom::") => {
            let member = name.split_once("::").map(|x| x.1).unwrap_or_default();
            traits_op(name, targs).and_then(|op| {
                let a = MmaAtom::new(&op)?;
                let sf = |i: usize| match &a.traits().sf_layouts {
                    Some((sfa, sfb)) => Ok(lay(if i == 0 { sfa } else { sfb })),
                    None => Err(Error::new(
                        ErrorKind::UnknownName,
                        "evaluate",
                        format!("'{op}' is not a block-scaled op: it has no {member}"),
                    )),
                };
                Ok(match member {
                    "ALayout" | "LayoutA_TV" => lay(a.layout_a_tv()),
                    "BLayout" | "LayoutB_TV" => lay(a.layout_b_tv()),
                    "CLayout" | "LayoutC_TV" => lay(a.layout_c_tv()),
                    "ThrID" => lay(a.thr_id()),
                    "Shape_MNK" => Value::IntTuple(a.shape_mnk().clone()),
                    "SFALayout" => sf(0)?,
                    "SFBLayout" => sf(1)?,
                    "ELayout" => match &a.traits().e_layout {
                        Some(e) => lay(e),
                        None => {
                            return Err(Error::new(
                                ErrorKind::UnknownName,
                                "evaluate",
                                format!("'{op}' is not a sparse SM120 op: it has no ELayout"),
                            ))
                        }
                    },
                    _ => return Err(unknown(name)),
                })
            })
        }
        _ if name.starts_with("Copy_Traits::") => {
            let member = name.split_once("::").map(|x| x.1).unwrap_or_default();
            let op = match targs {
                [_, _, ..] => Ok(format!("Copy_Traits<{}>", targs.iter().map(type_text).collect::<Vec<_>>().join(","))),
                _ => one_type(name, targs),
            };
            op.and_then(|op| {
                let t = crate::atom::traits::copy_traits(&op)?;
                Ok(match member {
                    "SrcLayout" => lay(&t.src),
                    "DstLayout" => lay(&t.dst),
                    "RefLayout" => lay(&t.r#ref),
                    "ThrID" => lay(&t.thr_id),
                    "ValID" => match &t.val_id {
                        Some(v) => lay(v),
                        None => return Err(unknown(name)),
                    },
                    _ => return Err(unknown(name)),
                })
            })
        }
        _ if name.starts_with("Copy_Atom::") => {
            let member = name.split_once("::").map(|x| x.1).unwrap_or_default();
            two_types(name, targs).and_then(|(op, t)| {
                let a = CopyAtom::new(&op, &t)?;
                Ok(match member {
                    "ValLayoutSrc" => lay(a.val_layout_src()),
                    "ValLayoutDst" => lay(a.val_layout_dst()),
                    "ValLayoutRef" => lay(a.val_layout_ref()),
                    "ThrID" => lay(a.thr_id()),
                    _ => return Err(unknown(name)),
                })
            })
        }
        _ => {
            // a bare MMA operation, `SM80_16x8x16_F16F16F16F16_TN{}` or
            // `SM90_64x64x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{}`
            if !(name.starts_with("SM") || name.starts_with("UniversalFMA")) {
                return None;
            }
            if targs.is_empty() && crate::atom::tma::TmaOp::from_name(name).is_some() {
                return Some(Ok(Value::CopyOp(name.to_string())));
            }
            let op = if targs.is_empty() {
                name.to_string()
            } else {
                format!("{name}<{}>", targs.iter().map(type_text).collect::<Vec<_>>().join(","))
            };
            return match MmaAtom::new(&op) {
                Ok(a) => Some(Ok(Value::MmaAtom(Box::new(a)))),
                // a copy operation written as a value (`SM100_TMEM_LOAD_32dp32b32x{}`)
                Err(_) if crate::atom::traits::copy_traits(&op).is_ok() => Some(Ok(Value::CopyOp(op))),
                // an MMA op kute knows, with parameters CuTe's static_asserts reject
                Err(e) if e.kind() != ErrorKind::UnknownName => Some(Err(e)),
                Err(_) => None,
            };
        }
    };
    Some(r)
}

/// The value a template argument spells: an integer is static (a template
/// argument is known at compile time), `X` or `_` is CuTe's `Underscore`, a
/// type is evaluated as the value `T{}`.
fn argument(t: &TemplateArg, eval: &dyn Fn(&str) -> Result<Value>) -> Result<Value> {
    match t {
        TemplateArg::Int(v) => Ok(Value::IntTuple(IntTuple::leaf(Int::new_static(*v)))),
        TemplateArg::Type(s) if s == "X" || s == "_" || s == "Underscore" => Ok(Value::Underscore),
        TemplateArg::Type(s) => eval(&format!("{s}{{}}")),
    }
}

/// The value of the CuTe type `name<targs...>{}` of a shape, stride,
/// coordinate, step, tile, layout or integer; `eval` evaluates a nested type's text.
///
/// Pre: none. Post: `None` for another name; else the value CuTe's type
/// default-constructs, or the error of the arguments (named by the type).
fn layout_type_value(name: &str, targs: &[TemplateArg], eval: &dyn Fn(&str) -> Result<Value>) -> Option<Result<Value>> {
    let function = match name {
        "Shape" | "Stride" | "Coord" | "Step" => "make_shape",
        "Tile" => "make_tile",
        "Layout" => "make_layout",
        "Int" | "C" => "",
        _ => return None,
    };
    let run = || -> Result<Value> {
        let args = targs.iter().map(|t| argument(t, eval)).collect::<Result<Vec<Value>>>()?;
        if function.is_empty() {
            return match &args[..] {
                [v @ Value::IntTuple(t)] if t.is_leaf() => Ok(v.clone()),
                _ => Err(Error::new(ErrorKind::Type, name.to_string(), format!("{name}<N> takes one integer"))),
            };
        }
        if name == "Layout" && !(1..=2).contains(&args.len()) {
            return Err(Error::new(ErrorKind::Type, "Layout", "Layout<Shape[, Stride]> takes one or two types"));
        }
        super::functions::call(function, &[], &args).map_err(|e| e.in_op(name.to_string()))
    };
    Some(run())
}

/// The value of the CuTe type `name<targs...>{}`, if `name` is one of the
/// spellings above; `eval` evaluates a nested type's text.
///
/// Pre: none. Post: `None` for another name; else the value CuTe's type
/// default-constructs, or the error of the arguments (named by the type).
pub(crate) fn type_value(
    name: &str,
    targs: &[TemplateArg],
    eval: &dyn Fn(&str) -> Result<Value>,
) -> Option<Result<Value>> {
    layout_type_value(name, targs, eval).or_else(|| atom_type_value(name, targs))
}

/// `make_tensor<MMA_Traits<Op>::FrgTypeX>(shape)` (also `MMA_Atom<Op>::FrgTypeX`):
/// the op and the member named by the template argument's text, if it has that form.
///
/// Pre: none. Post: `None` when `targ` is not such a member type.
pub(crate) fn frg_type(targ: &TemplateArg) -> Option<Result<(MmaAtom, String)>> {
    let TemplateArg::Type(text) = targ else { return None };
    let (head, member) = text.rsplit_once("::")?;
    if !member.starts_with("FrgType") {
        return None;
    }
    let inner = head
        .strip_prefix("MMA_Traits<")
        .or_else(|| head.strip_prefix("MMA_Atom<"))
        .and_then(|r| r.strip_suffix('>'))?;
    // `MMA_Traits<Op, params...>`: the traits carry the parameters; the text is the op
    let mut depth = 0;
    let top_comma = inner.chars().any(|c| {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ => {}
        }
        c == ',' && depth == 0
    });
    let op = if top_comma { head.to_string() } else { inner.to_string() };
    Some(MmaAtom::new(&op).map(|a| (a, member.to_string())))
}
