//! The arguments of one call, as an implementation receives them: read by
//! type, once, with an error that names the function, the argument's position
//! and name, and what it must be against what it is.

use crate::composed::AnyLayout;
use crate::error::{Error, ErrorKind, Result};
use crate::expr::value::Value;
use crate::int::{Bool, Int};
use crate::int_tuple::IntTuple;
use crate::layout::slice::Coord;
use crate::layout::Layout;
use crate::stride::StrideTuple;
use crate::tiler::Tiler;

/// What a registry entry (or one of its overloads) computes from a call.
pub(crate) type Impl = fn(&Args<'_>) -> Result<Value>;

/// One call of a registry entry: its template arguments and (evaluated)
/// arguments, their counts already checked against the entry.
pub(crate) struct Args<'a> {
    /// The function's name as called (an alias stays an alias in errors).
    pub name: &'static str,
    targs: &'a [i64],
    values: &'a [Value],
    /// The same entry on other arguments, every overload considered: how an
    /// overload answers from a composed layout's inner layout or a tensor's
    /// layout (which may itself be composed).
    again: &'a dyn Fn(&[Value]) -> Result<Value>,
    /// Any function of the registry, by name (`transform_layout` calls the
    /// function it is given).
    by_name: fn(&str, &[i64], &[Value]) -> Result<Value>,
}

impl<'a> Args<'a> {
    pub(super) fn new(
        name: &'static str,
        targs: &'a [i64],
        values: &'a [Value],
        again: &'a dyn Fn(&[Value]) -> Result<Value>,
        by_name: fn(&str, &[i64], &[Value]) -> Result<Value>,
    ) -> Args<'a> {
        Args { name, targs, values, again, by_name }
    }

    /// The template arguments (element types as their widths in bits).
    pub(crate) fn targs(&self) -> &'a [i64] {
        self.targs
    }

    /// The arguments as values.
    pub(crate) fn values(&self) -> &'a [Value] {
        self.values
    }

    /// How many arguments.
    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }

    /// Argument `i` as a value, if given (an optional argument).
    pub(crate) fn extra(&self, i: usize) -> Option<&'a Value> {
        self.values.get(i)
    }

    /// Argument `i` read as a `T`.
    ///
    /// Pre: argument `i` is given (the entry's count says so). Post: the
    /// argument as a `T`, else a `Type` error naming the function, the
    /// argument (its position and `what`) and what it must be.
    pub(crate) fn arg<T: FromValue>(&self, i: usize, what: &str) -> Result<T> {
        T::from_value(&self.values[i]).ok_or_else(|| self.wrong(i, what, T::WANT))
    }

    /// Argument `i` as an integer whose value is known (a thread index, an
    /// address: a number the call computes with, which an unknown cannot be).
    ///
    /// Pre: argument `i` is given. Post: its value, else a `Type` error for a
    /// value that is no integer, or an `Undecided` error naming the function
    /// and the argument for an unknown one.
    pub(crate) fn known(&self, i: usize, what: &str) -> Result<i64> {
        let v = self.arg::<Int>(i, what)?;
        if v.is_symbolic() {
            return Err(crate::sym::undecided(
                self.name,
                format!("argument {} ({what}) is the unknown {v}; it needs a known integer", i + 1),
            ));
        }
        Ok(v.value())
    }

    /// The error of argument `i` (`what`), which must be `want` and is not.
    ///
    /// Pre: argument `i` is given. Post: a `Type` error naming the function,
    /// the argument, `want` and the value given.
    pub(crate) fn wrong(&self, i: usize, what: &str, want: &str) -> Error {
        let v = &self.values[i];
        Error::new(
            ErrorKind::Type,
            self.name,
            format!("argument {} ({what}) must be {want}, not {} ({v})", i + 1, v.kind_name()),
        )
    }

    /// Argument `i` as a layout, where a shape stands for its compact
    /// column-major layout (`make_layout(S)`): how an atom, thread or value
    /// layout is read, as CuTe DSL takes one (CuTe C++ wants the layout).
    ///
    /// Pre: argument `i` is given. Post: the layout, `make_layout(S)` of a
    /// shape `S`, else a `Type` error naming the function, the argument and
    /// what it must be.
    pub(crate) fn layout_or_shape(&self, i: usize, what: &str) -> Result<Layout> {
        match &self.values[i] {
            Value::IntTuple(s) => Layout::from_shape(s).map_err(|e| e.within(self.name)),
            v => Layout::from_value(v).ok_or_else(|| self.wrong(i, what, "a layout or a shape")),
        }
    }

    /// Argument `i` read as a `T` where given; `None` where not.
    pub(crate) fn opt<T: FromValue>(&self, i: usize, what: &str) -> Result<Option<T>> {
        if i < self.values.len() {
            self.arg(i, what).map(Some)
        } else {
            Ok(None)
        }
    }

    /// Template argument `i` as an index (a mode, a rank).
    ///
    /// Pre: template argument `i` is given. Post: it, else a `Mismatch` error
    /// for a negative one.
    pub(crate) fn index(&self, i: usize) -> Result<usize> {
        index(self.targs[i], self.name)
    }

    /// The template arguments as a path of mode indices (`get<1,0>`).
    pub(crate) fn path(&self) -> Result<Vec<usize>> {
        self.targs.iter().map(|&t| index(t, self.name)).collect()
    }

    /// The same entry on `values`, every overload considered.
    pub(crate) fn again(&self, values: &[Value]) -> Result<Value> {
        (self.again)(values)
    }

    /// The registry's function `name` on `values`.
    pub(crate) fn call(&self, name: &str, targs: &[i64], values: &[Value]) -> Result<Value> {
        (self.by_name)(name, targs, values)
    }
}

impl std::ops::Index<usize> for Args<'_> {
    type Output = Value;
    /// Argument `i` as a value. Pre: it is given (the entry's count says so).
    fn index(&self, i: usize) -> &Value {
        &self.values[i]
    }
}

/// That `args` holds `lo..=hi` values, else a `Type` error naming the
/// function, the count it takes and the count it got.
pub(crate) fn arity(name: &str, args: &[Value], lo: usize, hi: usize) -> Result<()> {
    if args.len() < lo || args.len() > hi {
        let want = if lo == hi { format!("{lo}") } else { format!("{lo} to {hi}") };
        return Err(Error::new(
            ErrorKind::Type,
            "evaluate",
            format!("{name} takes {want} argument(s), got {}", args.len()),
        ));
    }
    Ok(())
}

fn index(v: i64, name: &'static str) -> Result<usize> {
    usize::try_from(v).map_err(|_| Error::mismatch(name, format!("index {v} is negative")))
}

/// A kind of argument an implementation reads.
pub(crate) trait FromValue: Sized {
    /// What the argument must be, with its article ("a layout").
    const WANT: &'static str;
    /// The value as this kind, if it is one.
    fn from_value(v: &Value) -> Option<Self>;
}

impl FromValue for Layout {
    const WANT: &'static str = "a layout";
    fn from_value(v: &Value) -> Option<Self> {
        v.to_layout("").ok()
    }
}

impl FromValue for AnyLayout {
    const WANT: &'static str = "a layout, swizzle or composed layout";
    fn from_value(v: &Value) -> Option<Self> {
        v.to_any_layout("").ok()
    }
}

impl FromValue for IntTuple {
    const WANT: &'static str = "an integer or integer tuple";
    fn from_value(v: &Value) -> Option<Self> {
        v.as_int_tuple("").ok()
    }
}

impl FromValue for Int {
    const WANT: &'static str = "an integer";
    fn from_value(v: &Value) -> Option<Self> {
        v.as_int("").ok()
    }
}

impl FromValue for Tiler {
    const WANT: &'static str = "a tiler";
    fn from_value(v: &Value) -> Option<Self> {
        v.as_tiler("").ok()
    }
}

impl FromValue for Coord {
    const WANT: &'static str = "a coordinate";
    fn from_value(v: &Value) -> Option<Self> {
        v.as_coord("").ok()
    }
}

impl FromValue for StrideTuple {
    const WANT: &'static str = "an integer, a basis stride or a tuple of them";
    fn from_value(v: &Value) -> Option<Self> {
        v.as_stride_tuple("").ok()
    }
}

/// What an implementation answers, as a value.
pub(crate) trait IntoValue {
    /// The value.
    fn into_value(self) -> Value;
}

impl IntoValue for Value {
    fn into_value(self) -> Value {
        self
    }
}

impl IntoValue for Layout {
    fn into_value(self) -> Value {
        Value::Layout(self)
    }
}

impl IntoValue for AnyLayout {
    fn into_value(self) -> Value {
        Value::from_any(self)
    }
}

impl IntoValue for IntTuple {
    fn into_value(self) -> Value {
        Value::IntTuple(self)
    }
}

impl IntoValue for Int {
    fn into_value(self) -> Value {
        Value::IntTuple(IntTuple::leaf(self))
    }
}

impl IntoValue for Bool {
    fn into_value(self) -> Value {
        Value::Bool(self)
    }
}

impl IntoValue for StrideTuple {
    fn into_value(self) -> Value {
        Value::from_strides(self)
    }
}

/// A count (a rank, a depth): a static integer.
impl IntoValue for usize {
    fn into_value(self) -> Value {
        Value::IntTuple(IntTuple::leaf(Int::new_static(self as i64)))
    }
}

/// An implementation from a function of typed arguments: each argument is
/// read as its type, in order (an error names the function, the argument and
/// what it must be), and the function's answer becomes a value. The names are
/// those of the entry's signature (`logical_divide(A, T)`).
///
/// `typed!(algebra::logical_divide => (A: Layout, T: Tiler))` is the
/// implementation `|a| Ok(algebra::logical_divide(&A, &T)?.into_value())`.
macro_rules! typed {
    ($f:path => ($($arg:ident : $ty:ty),*)) => {{
        #[allow(non_snake_case, unused_assignments, unused_mut)]
        fn imp(a: &$crate::expr::functions::args::Args<'_>) -> $crate::error::Result<$crate::expr::value::Value> {
            let mut k = 0;
            $(let $arg: $ty = a.arg(k, stringify!($arg))?; k += 1;)*
            Ok($crate::expr::functions::args::IntoValue::into_value($f($(&$arg),*)?))
        }
        imp as $crate::expr::functions::args::Impl
    }};
}
pub(crate) use typed;

/// An integer as a value.
pub(crate) fn int(v: Int) -> Value {
    Value::IntTuple(IntTuple::leaf(v))
}

/// A count (a rank, a depth) as a static integer value.
pub(crate) fn sint(n: usize) -> Value {
    n.into_value()
}

/// A layout as a value.
pub(crate) fn lay(l: Layout) -> Value {
    Value::Layout(l)
}

/// An integer tuple as a value.
pub(crate) fn tuple(t: IntTuple) -> Value {
    Value::IntTuple(t)
}

/// A boolean as a value.
pub(crate) fn boolean(b: Bool) -> Value {
    Value::Bool(b)
}
