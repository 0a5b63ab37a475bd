//! How a function of the registry treats each kind of value that has CuTe
//! overloads of its own: swizzles and composed layouts, tensors, and atoms
//! (MMA and copy atoms, their tiled forms and thread slices). Each registry
//! entry says it for each kind; the registry alone decides where a call goes.

use super::value::Value;
use crate::error::Result;

/// What a function computes from its template arguments and its (evaluated)
/// arguments, once their counts have been checked against the registry entry.
pub(super) type Impl = fn(&[i64], &[Value]) -> Result<Value>;

/// An overload of its own for a kind: the template arguments, the arguments,
/// and the function's whole dispatch (to answer part of the call as usual,
/// e.g. on a composed layout's inner layout).
pub(super) type Overload = fn(&[i64], &[Value], &dyn Fn(&[Value]) -> Result<Value>) -> Result<Value>;

/// A function's treatment of one kind of value among its arguments.
#[derive(Clone, Copy)]
pub(super) enum On {
    /// CuTe has no such overload: a `Type` error naming the function and the kind.
    Nothing,
    /// The implementation takes the kind as it is.
    Native,
    /// Answered on the underlying layout (a composed layout's inner layout,
    /// a tensor's layout) as it is.
    Layout,
    /// Answered on a composed layout's inner layout, the layout answer
    /// composed again with the outer function.
    Recomposed,
    /// An overload of its own.
    Own(Overload),
}

impl On {
    /// Whether the function takes the kind at all.
    pub(super) fn claims(self) -> bool {
        !matches!(self, On::Nothing)
    }
}

impl std::fmt::Debug for On {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            On::Nothing => "Nothing",
            On::Native => "Native",
            On::Layout => "Layout",
            On::Recomposed => "Recomposed",
            On::Own(_) => "Own",
        })
    }
}

/// The kinds of value with overloads, each with how the function treats it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Overloads {
    /// Swizzles and composed layouts.
    pub(super) composed: On,
    /// Tensors.
    pub(super) tensor: On,
    /// MMA and copy atoms, tiled MMAs and copies, thread slices.
    pub(super) atom: On,
}

impl Overloads {
    /// None of the kinds.
    pub(super) const NONE: Overloads = Overloads { composed: On::Nothing, tensor: On::Nothing, atom: On::Nothing };
}

/// The kind of value `v` is, among those with overloads, and its name in errors.
pub(super) fn kind_of(v: &Value) -> Option<Kind> {
    match v {
        Value::Swizzle(_) | Value::Composed(_) => Some(Kind::Composed),
        Value::Tensor(_) => Some(Kind::Tensor),
        Value::MmaAtom(_) | Value::TiledMma(_) | Value::CopyAtom(_) | Value::TiledCopy(_) | Value::ThrSlice(_) => {
            Some(Kind::Atom)
        }
        _ => None,
    }
}

/// A kind of value with overloads of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A swizzle or a composed layout.
    Composed,
    /// A tensor.
    Tensor,
    /// An MMA or copy atom, a tiled MMA or copy, or a thread slice of one.
    Atom,
}

impl Overloads {
    /// How the function treats `kind`.
    pub(super) fn on(&self, kind: Kind) -> On {
        match kind {
            Kind::Composed => self.composed,
            Kind::Tensor => self.tensor,
            Kind::Atom => self.atom,
        }
    }
}
