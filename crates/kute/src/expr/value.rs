//! Values of the expression language.

use crate::composed::AnyLayout;
use crate::error::{Error, Result};
use crate::int::{Bool, Int};
use crate::int_tuple::IntTuple;
use crate::layout::point::Point;
use crate::layout::slice::{Coord, Crd};
use crate::layout::{Layout, Major};
use crate::stride::{Stride, StrideTuple};
use crate::tiler::Tiler;
use crate::tree::Tree;
use std::fmt;

/// The result of evaluating an expression.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// An integer (or an integer tuple: see [`Value::IntTuple`]).
    IntTuple(IntTuple),
    /// A boolean.
    Bool(Bool),
    /// A layout.
    Layout(Layout),
    /// A by-mode tiler `<...>`.
    Tiler(Tiler),
    /// `_`.
    Underscore,
    /// A coordinate with `_` in it.
    Coord(Coord),
    /// `LayoutLeft{}` / `LayoutRight{}`.
    Major(Major),
    /// A tuple of mixed values (e.g. the result of `slice_and_offset`).
    Tuple(Vec<Value>),
    /// A stride with basis elements (`_1@0`), or a tuple of strides of which at
    /// least one is a basis element (the stride of a coordinate layout).
    Strides(StrideTuple),
    /// A function of the expression language named without a call
    /// (`coalesce` in `transform_layout(L, coalesce)`), by the name written.
    Function(&'static str),
    /// A swizzle `Sw<B,M,S>`.
    Swizzle(crate::swizzle::Swizzle),
    /// A composed layout `A o offset o B`.
    Composed(Box<crate::composed::ComposedLayout>),
    /// An MMA atom (`MMA_Atom<Op>`, or an operation named on its own).
    MmaAtom(Box<crate::atom::MmaAtom>),
    /// A tiled MMA.
    TiledMma(Box<crate::atom::TiledMma>),
    /// A copy atom (`Copy_Atom<Op,T>`).
    CopyAtom(Box<crate::atom::CopyAtom>),
    /// A tiled copy.
    TiledCopy(Box<crate::atom::TiledCopy>),
    /// One thread of a tiled MMA or copy (`get_slice(X, t)`).
    ThrSlice(Box<super::thr_slice::ThrSlice>),
    /// A tensor (counting or identity).
    Tensor(Box<super::tensor_value::TensorValue>),
    /// What a print call printed (`print`, `print_layout`, `print_latex`,
    /// `print_tensor`): CuTe's print functions return nothing, so the call's
    /// value is its output, shown as it is and the operand of no other call.
    Printed(String),
    /// A copy operation written as a value without its element type
    /// (`SM100_TMEM_LOAD_32dp32b32x{}`): what `make_tmem_copy` takes, the
    /// type coming from the tensor.
    CopyOp(String),
    /// A tensor-memory pointer at address 0 to elements of this many bits
    /// (`make_tmem_ptr<float>(0)`): what `make_tensor` makes a TMEM tensor of.
    TmemPtr(i64),
    /// A global-memory pointer to elements of a type, at a byte address
    /// (`make_gmem_ptr<half_t>(0)`): what `make_tensor` makes a gmem tensor of.
    GmemPtr(Box<(String, i64)>),
    /// A tensor in global memory (`make_tensor(make_gmem_ptr<T>(0), L)`): the
    /// source or destination of a TMA copy.
    GmemTensor(Box<crate::atom::tma::GmemTensor>),
    /// A shared-memory pointer to elements of a type, at a byte address (`make_smem_ptr<half_t>(0)`).
    SmemPtr(Box<(String, i64)>),
    /// A tensor in shared memory (`make_tensor(make_smem_ptr<T>(0), L)`), its layout plain or swizzled.
    SmemTensor(Box<crate::atom::tma::SmemTensor>),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::IntTuple(t) => write!(f, "{t}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Layout(l) => write!(f, "{l}"),
            Value::Tiler(t) => write!(f, "{t}"),
            Value::Underscore => f.write_str("_"),
            Value::Coord(c) => write!(f, "{c}"),
            Value::Major(Major::Left) => f.write_str("LayoutLeft{}"),
            Value::Major(Major::Right) => f.write_str("LayoutRight{}"),
            Value::Strides(t) => write!(f, "{t}"),
            Value::Function(name) => f.write_str(name),
            Value::Swizzle(sw) => write!(f, "{sw}"),
            Value::Composed(c) => write!(f, "{c}"),
            Value::MmaAtom(a) => write!(f, "{a}"),
            Value::TiledMma(m) => write!(f, "{m}"),
            Value::CopyAtom(a) => write!(f, "{a}"),
            Value::TiledCopy(c) => write!(f, "{c}"),
            Value::ThrSlice(t) => write!(f, "{t}"),
            Value::Tensor(t) => write!(f, "{t}"),
            // (without its last newline: a line of output ends it)
            Value::Printed(s) => f.write_str(s.strip_suffix('\n').unwrap_or(s)),
            Value::CopyOp(op) => write!(f, "{op}{{}}"),
            Value::TmemPtr(bits) => write!(f, "tmem_[{bits}b](0x0000.0000)"),
            Value::GmemPtr(p) => {
                write!(f, "gmem_ptr[{}b]({:#x})", crate::algebra::sizeof_bits(&p.0).unwrap_or(0), p.1)
            }
            Value::GmemTensor(t) => write!(f, "{t}"),
            Value::SmemPtr(p) => {
                write!(f, "smem_ptr[{}b]({:#x})", crate::algebra::sizeof_bits(&p.0).unwrap_or(0), p.1)
            }
            Value::SmemTensor(t) => write!(f, "{t}"),
            Value::Tuple(vs) => crate::tree::write_tuple(f, vs),
        }
    }
}

impl Value {
    /// A short name of the value's kind, for error messages.
    ///
    /// Pre: none. Post: a noun phrase with its article (`"an integer"`,
    /// `"a layout"`, ...).
    ///
    /// ```
    /// use kute::expr::eval;
    /// assert_eq!(eval("4").unwrap().kind_name(), "an integer");
    /// assert_eq!(eval("(4,2)").unwrap().kind_name(), "an integer tuple");
    /// assert_eq!(eval("4:2").unwrap().kind_name(), "a layout");
    /// ```
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::IntTuple(t) if t.is_leaf() => "an integer",
            Value::IntTuple(_) => "an integer tuple",
            Value::Bool(_) => "a boolean",
            Value::Layout(_) => "a layout",
            Value::Tiler(_) => "a tiler",
            Value::Underscore => "'_'",
            Value::Coord(_) => "a coordinate",
            Value::Major(_) => "a stride order tag",
            Value::Tuple(_) => "a tuple",
            Value::Strides(t) if t.is_leaf() => "a basis stride",
            Value::Strides(_) => "a stride tuple",
            Value::Function(_) => "a function",
            Value::Swizzle(_) => "a swizzle",
            Value::Composed(_) => "a composed layout",
            Value::MmaAtom(_) => "an MMA atom",
            Value::TiledMma(_) => "a TiledMMA",
            Value::CopyAtom(_) => "a copy atom",
            Value::TiledCopy(_) => "a TiledCopy",
            Value::ThrSlice(_) => "a thread slice",
            Value::Tensor(_) => "a tensor",
            Value::Printed(_) => "printed text",
            Value::CopyOp(_) => "a copy operation",
            Value::TmemPtr(_) => "a tensor-memory pointer",
            Value::GmemPtr(_) => "a gmem pointer",
            Value::GmemTensor(_) => "a gmem tensor",
            Value::SmemPtr(_) => "an smem pointer",
            Value::SmemTensor(_) => "an smem tensor",
        }
    }

    /// Build a tuple value from elements, choosing the most specific kind (a
    /// `Limit` error past the limits of [`crate::limits`]).
    ///
    /// Pre: none. Post: an integer tuple when every element is an integer
    /// (tuple), strides when some element is a basis stride, a coordinate when
    /// some element is `_`, else a [`Value::Tuple`] of the elements.
    ///
    /// ```
    /// use kute::expr::{eval, Value};
    /// let t = Value::tuple(vec![eval("4").unwrap(), eval("(_2,3)").unwrap()]).unwrap();
    /// assert_eq!((t.kind_name(), t.to_string().as_str()), ("an integer tuple", "(4,(_2,3))"));
    /// let c = Value::tuple(vec![eval("_").unwrap(), eval("1").unwrap()]).unwrap();
    /// assert_eq!(c.to_string(), "(_,1)");
    /// ```
    pub fn tuple(items: Vec<Value>) -> Result<Value> {
        if items.iter().all(|v| matches!(v, Value::IntTuple(_) | Value::Strides(_))) {
            // (an integer tuple when no element has a basis stride)
            return Ok(Value::from_strides(Tree::try_build(|b| {
                b.open();
                for v in &items {
                    match v {
                        Value::IntTuple(t) => b.push(t.map(Stride::of).as_ref()),
                        Value::Strides(t) => b.push(t.as_ref()),
                        _ => {}
                    }
                }
                b.close();
                Ok(())
            })?));
        }
        if items.iter().all(|v| matches!(v, Value::IntTuple(_) | Value::Underscore | Value::Coord(_))) {
            return Ok(Value::Coord(Tree::try_build(|b| {
                b.open();
                for v in &items {
                    match v {
                        Value::IntTuple(t) => b.push(t.map(Crd::Int).as_ref()),
                        Value::Coord(c) => b.push(c.as_ref()),
                        _ => b.leaf(Crd::Underscore),
                    }
                }
                b.close();
                Ok(())
            })?));
        }
        Ok(Value::Tuple(items))
    }

    pub(crate) fn as_int(&self, what: &str) -> Result<Int> {
        match self {
            Value::IntTuple(t) if t.is_leaf() => Ok(t.leaves()[0]),
            Value::Bool(b) => Ok(Int::new(b.value as i64, b.is_static)),
            other => Err(type_error(what, "an integer", other)),
        }
    }

    pub(crate) fn as_int_tuple(&self, what: &str) -> Result<IntTuple> {
        match self {
            Value::IntTuple(t) => Ok(t.clone()),
            Value::Layout(l) => Ok(l.shape()),
            other => Err(type_error(what, "an integer or integer tuple", other)),
        }
    }

    /// Strides: an integer tuple, or a tuple with basis elements.
    pub(crate) fn as_stride_tuple(&self, what: &str) -> Result<StrideTuple> {
        match self {
            Value::IntTuple(t) => Ok(t.map(Stride::of)),
            Value::Strides(t) => Ok(t.clone()),
            other => Err(type_error(what, "an integer, a basis stride or a tuple of them", other)),
        }
    }

    /// A stride tuple as a value: an integer tuple when it has no basis element.
    pub(crate) fn from_strides(t: StrideTuple) -> Value {
        if t.leaves().iter().all(|s| s.is_int()) {
            Value::IntTuple(t.map(|s| s.scale_int()))
        } else {
            Value::Strides(t)
        }
    }

    /// The value of a layout at a point: an integer, a basis element or a coordinate tuple.
    pub(crate) fn from_point(p: Point) -> Value {
        match p {
            Point::Scalar(s) => Value::from_strides(Tree::leaf(s)),
            Point::Tuple(t) => Value::IntTuple(t),
        }
    }

    /// Whether the value holds a symbolic integer (in an integer tuple, a
    /// layout, a tiler or a tuple of those).
    ///
    /// Pre: none. Post: the answer (false for the other kinds of value).
    ///
    /// ```
    /// assert!(kute::expr::eval("(?{div=8},_4)").unwrap().has_symbols());
    /// assert!(!kute::expr::eval("(8,_4)").unwrap().has_symbols());
    /// ```
    pub fn has_symbols(&self) -> bool {
        match self {
            Value::IntTuple(t) => t.has_symbols(),
            Value::Layout(l) => l.has_symbols(),
            Value::Tiler(t) => t.has_symbols(),
            Value::Tuple(vs) => vs.iter().any(Value::has_symbols),
            Value::Strides(d) => d.leaves().iter().any(|x| x.is_symbolic()),
            Value::Tensor(t) => t.has_symbols(),
            Value::Composed(c) => c.has_symbols(),
            _ => false,
        }
    }

    /// The value with values put in for its unknowns (integer tuples,
    /// layouts, tilers and tuples of them; other values unchanged).
    ///
    /// Pre: as [`Layout::substitute`]. Post: a value with no symbol left in those.
    ///
    /// ```
    /// use kute::{expr::{eval_line, Env}, sym::Valuation};
    /// let mut env = Env::new();
    /// eval_line(&mut env, "M = ?{div=8}").unwrap();
    /// let v = eval_line(&mut env, "(M,_8):(_1,M)").unwrap();
    /// assert_eq!(v.substitute(&Valuation::from([("M", 16)])).unwrap().to_string(), "(16,_8):(_1,16)");
    /// ```
    pub fn substitute(&self, v: &crate::sym::Valuation) -> Result<Value> {
        Ok(match self {
            Value::IntTuple(t) => Value::IntTuple(t.substitute(v)?),
            Value::Layout(l) => Value::Layout(l.substitute(v)?),
            Value::Tiler(t) => Value::Tiler(t.substitute(v)?),
            Value::Tuple(vs) => Value::Tuple(vs.iter().map(|x| x.substitute(v)).collect::<Result<_>>()?),
            Value::Strides(d) => Value::Strides(d.try_map(|x| x.substitute(v))?),
            Value::Tensor(t) => Value::Tensor(Box::new(t.substitute(v)?)),
            other => other.clone(),
        })
    }

    /// The layout, if this is one.
    ///
    /// Pre: none. Post: `Some` for [`Value::Layout`], `None` for any other value.
    ///
    /// ```
    /// let v = kute::expr::eval("(2,3):(1,2)").unwrap();
    /// assert_eq!(v.as_layout().unwrap().to_string(), "(2,3):(1,2)");
    /// ```
    pub fn as_layout(&self) -> Option<&Layout> {
        match self {
            Value::Layout(l) => Some(l),
            _ => None,
        }
    }

    /// The value as a layout, swizzle or composed layout (an integer `n` is
    /// the layout `n:1`).
    ///
    /// Pre: one of those (else a `Type` error naming `what`).
    /// Post: the same layout, swizzle or composed layout (`n:1` for an integer `n`).
    ///
    /// ```
    /// let v = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap();
    /// assert_eq!(v.to_any_layout("c").unwrap().size().unwrap().value(), 512);
    /// ```
    pub fn to_any_layout(&self, what: &str) -> Result<AnyLayout> {
        match self {
            Value::Swizzle(s) => Ok(AnyLayout::Swizzle(*s)),
            Value::Composed(c) => Ok(AnyLayout::Composed(c.clone())),
            other => Ok(AnyLayout::Layout(other.to_layout(what)?)),
        }
    }

    /// A layout, swizzle or composed layout as a value.
    ///
    /// Pre: none. Post: [`Value::Layout`], [`Value::Swizzle`] or
    /// [`Value::Composed`] holding `l`; the inverse of [`Value::to_any_layout`] on those.
    ///
    /// ```
    /// use kute::expr::{eval, Value};
    /// let v = eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap();
    /// assert_eq!(Value::from_any(v.to_any_layout("c").unwrap()), v);
    /// let s = Value::from_any(kute::Swizzle::new(3, 4, 3).unwrap().into());
    /// assert_eq!((s.to_string(), s), ("Sw<3,4,3>".to_string(), eval("Swizzle<3,4,3>{}").unwrap()));
    /// ```
    pub fn from_any(l: AnyLayout) -> Value {
        match l {
            AnyLayout::Layout(l) => Value::Layout(l),
            AnyLayout::Swizzle(s) => Value::Swizzle(s),
            AnyLayout::Composed(c) => Value::Composed(c),
        }
    }

    /// The value as a plain layout (an integer `n` is the layout `n:1`).
    ///
    /// Pre: a layout or an integer (else a `Type` error naming `what`).
    /// Post: the layout.
    ///
    /// ```
    /// let v = kute::expr::eval("logical_divide(24:2, 4:2)").unwrap();
    /// assert_eq!(v.to_layout("l").unwrap().to_string(), "(4,(2,3)):(4,(2,16))");
    /// assert!(kute::expr::eval("Sw<1,2,3>").unwrap().to_layout("l").is_err());
    /// ```
    pub fn to_layout(&self, what: &str) -> Result<Layout> {
        match self {
            Value::Layout(l) => Ok(l.clone()),
            Value::IntTuple(t) if t.is_leaf() => Ok(Layout::leaf(t.leaves()[0], Int::ONE)),
            other => Err(type_error(what, "a layout", other)),
        }
    }

    pub(crate) fn as_coord(&self, what: &str) -> Result<Coord> {
        match self {
            Value::IntTuple(t) => Ok(t.map(Crd::Int)),
            Value::Coord(c) => Ok(c.clone()),
            Value::Underscore => Ok(Tree::leaf(Crd::Underscore)),
            other => Err(type_error(what, "a coordinate", other)),
        }
    }

    pub(crate) fn as_tiler(&self, what: &str) -> Result<Tiler> {
        Ok(match self {
            Value::Layout(l) => Tiler::Layout(l.clone()),
            Value::Tiler(t) => t.clone(),
            Value::Underscore => Tiler::Underscore,
            Value::IntTuple(t) => int_tuple_tiler(t.as_ref()),
            Value::Coord(c) => coord_tiler(c.as_ref()),
            Value::Tuple(vs) => Tiler::Tuple(vs.iter().map(|v| v.as_tiler(what)).collect::<Result<_>>()?),
            other => return Err(type_error(what, "a tiler", other)),
        })
    }
}

fn int_tuple_tiler(t: crate::tree::TreeRef<'_, Int>) -> Tiler {
    match t.as_leaf() {
        Some(n) => Tiler::Int(n),
        None => Tiler::Tuple(t.children().map(int_tuple_tiler).collect()),
    }
}

fn coord_tiler(t: crate::tree::TreeRef<'_, Crd>) -> Tiler {
    match t.as_leaf() {
        Some(Crd::Int(n)) => Tiler::Int(n),
        Some(Crd::Underscore) => Tiler::Underscore,
        None => Tiler::Tuple(t.children().map(coord_tiler).collect()),
    }
}

pub(crate) fn type_error(what: &str, want: &str, got: &Value) -> Error {
    type_error_hinted(what, want, got, "")
}

/// [`type_error`], its message ending with `hint` (`"; make_tensor(...)"`).
pub(crate) fn type_error_hinted(what: &str, want: &str, got: &Value, hint: &str) -> Error {
    Error::new(
        crate::error::ErrorKind::Type,
        "",
        format!("{what} must be {want}, not {} ({got}){hint}", got.kind_name()),
    )
}

/// The error of printed text used as an operand (`what`: which one).
pub(crate) fn printed_operand(what: &str) -> Error {
    Error::new(
        crate::error::ErrorKind::Type,
        "",
        format!("{what} is printed text: CuTe's print functions return nothing, so a print call is the operand of no other call"),
    )
}
