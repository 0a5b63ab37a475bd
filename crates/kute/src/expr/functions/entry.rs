//! What the registry holds of one function: its names, how it is called, and
//! how it treats each kind of value (CuTe's overloads), so that the registry
//! alone decides what a call does.

use super::args::Impl;
use crate::expr::value::Value;

/// How many (template) arguments a function accepts: `min..=max`.
///
/// ```
/// use kute::expr::Count;
/// assert!(Count::between(1, 2).accepts(2) && !Count::between(1, 2).accepts(3));
/// assert!(Count::ANY.accepts(1000));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// The fewest.
    pub min: usize,
    /// The most (`usize::MAX`: no limit).
    pub max: usize,
}

impl Count {
    /// Any number.
    pub const ANY: Count = Count { min: 0, max: usize::MAX };
    /// None at all.
    pub const NONE: Count = Count { min: 0, max: 0 };

    /// Exactly `n`.
    ///
    /// Pre: none. Post: `min == max == n`.
    ///
    /// ```
    /// assert_eq!(kute::expr::Count::exactly(2), kute::expr::Count::between(2, 2));
    /// ```
    pub const fn exactly(n: usize) -> Count {
        Count { min: n, max: n }
    }

    /// From `min` to `max`, both included.
    ///
    /// Pre: none (with `min > max` nothing is accepted). Post: the given bounds.
    ///
    /// ```
    /// assert!(kute::expr::Count::between(2, 3).accepts(3));
    /// ```
    pub const fn between(min: usize, max: usize) -> Count {
        Count { min, max }
    }

    /// Whether `n` is accepted.
    ///
    /// Pre: none. Post: `min <= n && n <= max`.
    ///
    /// ```
    /// assert!(!kute::expr::Count::NONE.accepts(1));
    /// ```
    pub const fn accepts(self, n: usize) -> bool {
        self.min <= n && n <= self.max
    }
}

/// The kinds of value a function may or may not be defined on, besides
/// layouts, integer tuples, tilers and the other plain values (which every
/// implementation reads for itself).
///
/// A call's kind is that of its most special argument: a thread slice, else a
/// tensor, else a swizzle or composed layout, else an atom; a call of none of
/// these is plain and goes to the implementation.
///
/// ```
/// use kute::expr::{eval, lookup, Kind};
/// assert_eq!(Kind::of(&eval("Sw<3,4,3>").unwrap()), Some(Kind::Composed));
/// assert_eq!(Kind::of(&eval("4:1").unwrap()), None);
/// assert!(lookup("size").unwrap().claims(Kind::Tensor));
/// assert!(!lookup("stride").unwrap().claims(Kind::Atom));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// An MMA or copy atom, a tiled MMA or a tiled copy.
    Atom,
    /// A swizzle, or a composed layout `A o offset o B`.
    Composed,
    /// A tensor (or the text of `print_tensor`).
    Tensor,
    /// One thread of a tiled MMA or copy (`get_slice(X, t)`).
    ThrSlice,
}

impl Kind {
    /// Every kind, least special first.
    pub const ALL: [Kind; 4] = [Kind::Atom, Kind::Composed, Kind::Tensor, Kind::ThrSlice];

    /// The kind of a value; `None` for a plain value.
    ///
    /// Pre: none. Post: the kind whose values `v` is one of.
    ///
    /// ```
    /// use kute::expr::{eval, Kind};
    /// assert_eq!(Kind::of(&eval("make_identity_tensor((_4,_8))").unwrap()), Some(Kind::Tensor));
    /// assert_eq!(Kind::of(&eval("(_4,_8)").unwrap()), None);
    /// ```
    pub fn of(v: &Value) -> Option<Kind> {
        match v {
            Value::MmaAtom(_) | Value::TiledMma(_) | Value::CopyAtom(_) | Value::TiledCopy(_) | Value::CopyOp(_) => {
                Some(Kind::Atom)
            }
            Value::Swizzle(_) | Value::Composed(_) => Some(Kind::Composed),
            Value::Tensor(_) | Value::GmemTensor(_) | Value::SmemTensor(_) => Some(Kind::Tensor),
            Value::ThrSlice(_) => Some(Kind::ThrSlice),
            _ => None,
        }
    }

    /// The kind of a call: its most special argument's; `None` for a plain call.
    ///
    /// Pre: none. Post: the greatest [`Kind::of`] of `args`.
    ///
    /// ```
    /// use kute::expr::{eval, Kind};
    /// let (t, s) = (eval("make_tensor(counting, 8:1)").unwrap(), eval("Sw<1,2,3>").unwrap());
    /// assert_eq!(Kind::of_call(&[s, t]), Some(Kind::Tensor));
    /// ```
    pub fn of_call(args: &[Value]) -> Option<Kind> {
        args.iter().filter_map(Kind::of).max()
    }
}

/// How a function treats a swizzle or composed layout among its arguments
/// (CuTe's `layout_composed.hpp` and `swizzle_layout.hpp`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum OnComposed {
    /// Not defined (CuTe has no such overload): a `Type` error.
    Undefined,
    /// The implementation takes them as they are.
    Native,
    /// Of a composed layout first, the answer of its inner layout (`size`).
    OfInner,
    /// Of a composed layout first, the layout answer of its inner layout,
    /// composed again with the outer function (`logical_divide`).
    Recomposed,
    /// An overload of its own.
    Own(Impl),
}

/// How a function treats a tensor among its arguments.
#[derive(Clone, Copy, Debug)]
pub(crate) enum OnTensor {
    /// Not defined: a `Type` error.
    Undefined,
    /// The implementation takes tensors as they are.
    Native,
    /// Of a tensor alone, the answer of its layout (`shape`, `size`).
    OfLayout,
    /// An overload of its own (the divides: the layout divided, same engine).
    Own(Impl),
}

/// How a function treats an atom, tiled MMA or tiled copy among its arguments.
#[derive(Clone, Copy, Debug)]
pub(crate) enum OnAtom {
    /// Not defined: a `Type` error.
    Undefined,
    /// The implementation takes them as they are.
    Native,
    /// An overload of its own (`size` of a tiled MMA: its threads).
    Own(Impl),
}

/// How a function treats each kind of value: what [`FunctionInfo::claims`] reads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Overloads {
    pub(crate) composed: OnComposed,
    pub(crate) tensor: OnTensor,
    pub(crate) atom: OnAtom,
    /// Whether the implementation takes thread slices (the partitions).
    pub(crate) thr_slice: bool,
}

/// One function of the expression language: its names, how it is called,
/// what it does, its implementation, and its overloads for each [`Kind`].
///
/// The entries are [`FUNCTIONS`](crate::expr::FUNCTIONS); [`call`](crate::expr::call)
/// and every help screen read them.
#[derive(Clone, Copy, Debug)]
pub struct FunctionInfo {
    /// The CuTe name.
    pub name: &'static str,
    /// Other names of the same function (`make_stride` for `make_shape`).
    pub aliases: &'static [&'static str],
    /// Call forms.
    pub signature: &'static str,
    /// One line.
    pub summary: &'static str,
    /// The template argument counts accepted (checked first).
    pub targs: Count,
    /// Whether the template arguments are element types (`recast_layout<uint8_t,half_t>`),
    /// which reach the implementation as their widths in bits; else they are integers.
    pub type_targs: bool,
    /// The argument counts accepted (see [`FunctionInfo::arg_count`]).
    pub args: Count,
    /// The argument counts without template arguments, where they differ.
    plain_args: Option<Count>,
    /// Whether it takes symbolic operands (its answer then holds for every
    /// value of the unknowns; the law tests check each such entry).
    pub symbolic: bool,
    pub(crate) imp: Impl,
    pub(crate) overloads: Overloads,
}

impl FunctionInfo {
    /// An entry defined on plain values only, until its builders say more.
    pub(crate) const fn new(name: &'static str, signature: &'static str, summary: &'static str, imp: Impl) -> Self {
        FunctionInfo {
            name,
            aliases: &[],
            signature,
            summary,
            targs: Count::NONE,
            type_targs: false,
            args: Count::ANY,
            plain_args: None,
            symbolic: false,
            imp,
            overloads: Overloads {
                composed: OnComposed::Undefined,
                tensor: OnTensor::Undefined,
                atom: OnAtom::Undefined,
                thr_slice: false,
            },
        }
    }
    /// Marks the entry as taking symbolic operands.
    pub(crate) const fn sym(self) -> Self {
        FunctionInfo { symbolic: true, ..self }
    }
    pub(crate) const fn aliases(self, aliases: &'static [&'static str]) -> Self {
        FunctionInfo { aliases, ..self }
    }
    pub(crate) const fn targs(self, targs: Count) -> Self {
        FunctionInfo { targs, ..self }
    }
    pub(crate) const fn element_type_targs(self) -> Self {
        FunctionInfo { type_targs: true, ..self }
    }
    pub(crate) const fn args(self, args: Count) -> Self {
        FunctionInfo { args, ..self }
    }
    pub(crate) const fn args_without_targs(self, c: Count) -> Self {
        FunctionInfo { plain_args: Some(c), ..self }
    }
    /// How it treats swizzles and composed layouts.
    pub(crate) const fn composed(self, composed: OnComposed) -> Self {
        FunctionInfo { overloads: Overloads { composed, ..self.overloads }, ..self }
    }
    /// How it treats tensors.
    pub(crate) const fn tensor(self, tensor: OnTensor) -> Self {
        FunctionInfo { overloads: Overloads { tensor, ..self.overloads }, ..self }
    }
    /// How it treats atoms, tiled MMAs and tiled copies.
    pub(crate) const fn atom(self, atom: OnAtom) -> Self {
        FunctionInfo { overloads: Overloads { atom, ..self.overloads }, ..self }
    }
    /// Takes thread slices (its implementation reads them).
    pub(crate) const fn thr_slice(self) -> Self {
        FunctionInfo { overloads: Overloads { thr_slice: true, ..self.overloads }, ..self }
    }

    /// Whether the function is defined on values of `kind` (a call with one
    /// among its arguments reaches an implementation or overload; otherwise it
    /// is a `Type` error naming the function and the kind).
    ///
    /// Pre: none. Post: the registry's answer.
    ///
    /// ```
    /// use kute::expr::{lookup, Kind};
    /// let f = lookup("logical_divide").unwrap();
    /// assert!(f.claims(Kind::Composed) && f.claims(Kind::Tensor) && !f.claims(Kind::Atom));
    /// ```
    pub fn claims(&self, kind: Kind) -> bool {
        let o = &self.overloads;
        match kind {
            Kind::Atom => !matches!(o.atom, OnAtom::Undefined),
            Kind::Composed => !matches!(o.composed, OnComposed::Undefined),
            Kind::Tensor => !matches!(o.tensor, OnTensor::Undefined),
            Kind::ThrSlice => o.thr_slice,
        }
    }

    /// The argument counts accepted with `targs` template arguments
    /// (`append(X, Y)` needs both operands; `append<N>(X)` pads X).
    ///
    /// Pre: none. Post: the counts [`call`](crate::expr::call) checks the
    /// arguments against when given `targs` template arguments.
    ///
    /// ```
    /// let f = kute::expr::lookup("append").unwrap();
    /// assert_eq!(f.arg_count(0), kute::expr::Count::exactly(2));
    /// assert_eq!(f.arg_count(1), kute::expr::Count::between(1, 2));
    /// ```
    pub fn arg_count(&self, targs: usize) -> Count {
        match self.plain_args {
            Some(c) if targs == 0 => c,
            _ => self.args,
        }
    }

    /// The name, then the aliases.
    ///
    /// Pre: none. Post: `name` first, then each alias in order.
    ///
    /// ```
    /// let f = kute::expr::lookup("make_coord").unwrap();
    /// assert_eq!(f.names().next(), Some("make_shape"));
    /// assert!(f.names().any(|n| n == "make_coord"));
    /// ```
    pub fn names(&self) -> impl Iterator<Item = &'static str> + use<> {
        std::iter::once(self.name).chain(self.aliases.iter().copied())
    }
}
