//! Tilers: what divides and products accept on the right.

use crate::int::Int;
use crate::int_tuple::{IntTuple, IntTupleRef};
use crate::layout::{Layout, LayoutView};
use std::borrow::Cow;
use std::fmt;

/// The right operand of composition, divides and products: a layout, `_`
/// (leave the mode alone), or a by-mode tuple `<T0, T1, ...>` of tilers.
/// An integer `n` means the layout `n:_1`; a shape tuple `(a, b)` is the
/// by-mode tiler `<a:_1, b:_1>`.
// A layout is held inline (no allocation): tilers are small and short-lived.
// An explicit tag (`repr(u8)`): telling the variants apart is one compare,
// where the niche in the layout's storage took a decoding of several steps.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Tiler {
    /// A layout applied to the whole (sub-)layout.
    Layout(Layout),
    /// An integer `n`: `n:_1` in composition, `make_layout(n)` (so `_1:_0` for
    /// `n = 1`) in divides and products, exactly as CuTe.
    Int(crate::int::Int),
    /// CuTe's `_`: keep this mode as it is.
    Underscore,
    /// By-mode: element `i` applies to mode `i`.
    Tuple(Vec<Tiler>),
}

impl Tiler {
    /// Whether an integer of the tiler is symbolic. Pre: none. Post: the answer.
    ///
    /// ```
    /// let t: kute::Tiler = "<?:_1,_>".parse().unwrap();
    /// assert!(t.has_symbols());
    /// ```
    pub fn has_symbols(&self) -> bool {
        match self {
            Tiler::Layout(l) => l.has_symbols(),
            Tiler::Int(x) => x.is_symbolic(),
            Tiler::Underscore => false,
            Tiler::Tuple(ts) => ts.iter().any(Tiler::has_symbols),
        }
    }

    /// The tiler with values put in for its unknowns.
    ///
    /// Pre: as [`Layout::substitute`]. Post: a concrete tiler of the same form.
    ///
    /// ```
    /// use kute::{expr::{eval_line, Env, Value}, sym::Valuation};
    /// let mut env = Env::new();
    /// eval_line(&mut env, "T = ?").unwrap();
    /// let Value::Tiler(t) = eval_line(&mut env, "<T:_1,_>").unwrap() else { panic!() };
    /// assert_eq!(t.substitute(&Valuation::from([("T", 4)])).unwrap().to_string(), "(4:_1,_)");
    /// ```
    pub fn substitute(&self, v: &crate::sym::Valuation) -> crate::error::Result<Tiler> {
        Ok(match self {
            Tiler::Layout(l) => Tiler::Layout(l.substitute(v)?),
            Tiler::Int(x) => Tiler::Int(x.substitute(v)?),
            Tiler::Underscore => Tiler::Underscore,
            Tiler::Tuple(ts) => Tiler::Tuple(ts.iter().map(|t| t.substitute(v)).collect::<crate::error::Result<_>>()?),
        })
    }
}

impl From<Layout> for Tiler {
    fn from(l: Layout) -> Tiler {
        Tiler::Layout(l)
    }
}

impl From<&Layout> for Tiler {
    fn from(l: &Layout) -> Tiler {
        Tiler::Layout(l.clone())
    }
}

impl From<LayoutView<'_>> for Tiler {
    fn from(l: LayoutView<'_>) -> Tiler {
        Tiler::Layout(l.to_layout())
    }
}

/// A shape as a tiler: the by-mode tiler of its extents (`(4,8)` is `<4,8>`),
/// an integer `n` as itself.
impl From<&IntTuple> for Tiler {
    fn from(s: &IntTuple) -> Tiler {
        fn of(t: IntTupleRef<'_>) -> Tiler {
            match t.as_leaf() {
                Some(n) => Tiler::Int(n),
                None => Tiler::Tuple(t.children().map(of).collect()),
            }
        }
        of(s.as_ref())
    }
}

impl From<Int> for Tiler {
    fn from(n: Int) -> Tiler {
        Tiler::Int(n)
    }
}

/// What composition, the divides and the products accept on the right, as
/// CuTe does: a [`Tiler`] (borrowed, no copy), a layout, a shape (the by-mode
/// tiler of its extents) or an integer (a plain one is dynamic, as CuTe's `int`).
///
/// ```
/// use kute::{IntTuple, Layout, Tiler};
/// let a: Layout = "(8,8):(8,1)".parse().unwrap();
/// let b: Layout = "4:2".parse().unwrap();
/// let shape: IntTuple = "(4,2)".parse().unwrap();
/// let t: Tiler = "<4:1,2:1>".parse().unwrap();
/// assert_eq!(kute::logical_divide(&a, &b).unwrap().to_string(), "(4,(2,8)):(16,(8,1))");
/// assert_eq!(kute::logical_divide(&a, &shape).unwrap(), kute::logical_divide(&a, &t).unwrap());
/// let four = Tiler::Int(kute::Int::new_dynamic(4));
/// assert_eq!(kute::logical_divide(&a, &4).unwrap(), kute::logical_divide(&a, &four).unwrap());
/// ```
pub trait AsTiler {
    /// The tiler, borrowed where it already is one.
    ///
    /// Pre: none. Post: a [`Tiler`] itself as it is; a layout (or a view) as
    /// a layout tiler; a shape as the by-mode tiler of its modes (CuTe reads a
    /// shape `(s0,s1,..)` as `<s0:_1,s1:_1,..>`); an integer as an integer
    /// tiler.
    ///
    /// ```
    /// use kute::{AsTiler, IntTuple, Layout, Tiler};
    /// let t: Tiler = "<4:2,_>".parse().unwrap();
    /// assert_eq!(*t.as_tiler(), t);
    /// let b: Layout = "(2,4):(1,2)".parse().unwrap();
    /// assert_eq!(*b.as_tiler(), Tiler::Layout(b.clone()));
    /// // a shape divides as the layouts of its modes, each with stride 1
    /// let a: Layout = "(8,8):(8,1)".parse().unwrap();
    /// let s: IntTuple = "(4,2)".parse().unwrap();
    /// assert_eq!(
    ///     kute::logical_divide(&a, &*s.as_tiler()).unwrap(),
    ///     kute::logical_divide(&a, &"<4:_1,2:_1>".parse::<Tiler>().unwrap()).unwrap()
    /// );
    /// ```
    fn as_tiler(&self) -> Cow<'_, Tiler>;
}

impl AsTiler for Tiler {
    #[inline]
    fn as_tiler(&self) -> Cow<'_, Tiler> {
        Cow::Borrowed(self)
    }
}

impl AsTiler for Layout {
    #[inline]
    fn as_tiler(&self) -> Cow<'_, Tiler> {
        Cow::Owned(Tiler::Layout(self.clone()))
    }
}

impl AsTiler for LayoutView<'_> {
    #[inline]
    fn as_tiler(&self) -> Cow<'_, Tiler> {
        Cow::Owned((*self).into())
    }
}

impl AsTiler for IntTuple {
    #[inline]
    fn as_tiler(&self) -> Cow<'_, Tiler> {
        Cow::Owned(self.into())
    }
}

impl AsTiler for Int {
    #[inline]
    fn as_tiler(&self) -> Cow<'_, Tiler> {
        Cow::Owned(Tiler::Int(*self))
    }
}

macro_rules! plain_int {
    ($($t:ty),*) => {$(
        /// A dynamic integer (CuTe's `int`).
        impl AsTiler for $t {
            #[inline]
            fn as_tiler(&self) -> Cow<'_, Tiler> {
                Cow::Owned(Tiler::Int(Int::new_dynamic(i64::from(*self))))
            }
        }
    )*};
}
plain_int!(i64, i32, u32, i16, u16, i8, u8);

impl<T: AsTiler + ?Sized> AsTiler for &T {
    #[inline]
    fn as_tiler(&self) -> Cow<'_, Tiler> {
        (**self).as_tiler()
    }
}

impl fmt::Display for Tiler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tiler::Layout(l) => write!(f, "{l}"),
            Tiler::Int(n) => write!(f, "{n}"),
            Tiler::Underscore => f.write_str("_"),
            // CuTe prints a tile as a tuple.
            Tiler::Tuple(ts) => crate::tree::write_tuple(f, ts),
        }
    }
}

impl Tiler {
    /// The same tiler with every integer dynamic (as [`Layout::to_dynamic`]).
    ///
    /// Pre: none. Post: the same structure and values, every integer dynamic.
    ///
    /// ```
    /// let t = kute::expr::parse_tiler("<_4:_1,_>").unwrap();
    /// assert_eq!(t.to_dynamic().to_string(), "(4:1,_)");
    /// ```
    pub fn to_dynamic(&self) -> Tiler {
        match self {
            Tiler::Layout(l) => Tiler::Layout(l.to_dynamic()),
            Tiler::Int(n) => Tiler::Int(n.to_dynamic()),
            Tiler::Underscore => Tiler::Underscore,
            Tiler::Tuple(ts) => Tiler::Tuple(ts.iter().map(Tiler::to_dynamic).collect()),
        }
    }

    /// A by-mode tiler may not have more modes than the layout it applies to.
    pub(crate) fn check_rank(&self, a: crate::layout::LayoutRef<'_>, op: &'static str) -> crate::error::Result<()> {
        if let Tiler::Tuple(ts) = self
            && ts.len() > a.rank()
        {
            let a = Layout::from_ref(a);
            return Err(crate::error::Error::mismatch(
                op,
                format!(
                    "too many modes in the tiler: {self} has {} but the layout {a} has rank {}",
                    ts.len(),
                    a.rank()
                ),
            ));
        }
        Ok(())
    }

    /// The layout an integer tiler stands for in divides and products
    /// (`make_layout(n)`), one mode: `n:_1`, or `_1:_0` for `n = 1`.
    #[inline(always)]
    pub(crate) fn int_mode(n: crate::int::Int) -> crate::layout::Mode {
        // (a symbolic extent is not taken for 1: it stays a mode; the fast
        // runs, never given a symbol, use `int_mode_concrete`)
        if n.is_symbolic() {
            return crate::layout::Mode::new(n, crate::int::Int::ONE);
        }
        Self::int_mode_concrete(n)
    }

    /// [`Tiler::int_mode`] of a concrete integer.
    #[inline(always)]
    pub(crate) fn int_mode_concrete(n: crate::int::Int) -> crate::layout::Mode {
        let d = if n.value() == 1 { crate::int::Int::ZERO } else { crate::int::Int::ONE };
        crate::layout::Mode::new(n, d)
    }
}
