//! The functions callable from expressions, by their CuTe names: one registry
//! that both the evaluator and the help screens read, so that a function
//! cannot be callable without being listed, or listed without being callable.

use super::overload::{kind_of, Impl, Kind, On, Overloads};
use super::value::{type_error, Value};
use crate::algebra;
use crate::error::{Error, ErrorKind, Result};
use crate::int::{Bool, Int};
use crate::int_tuple::{self, IntTuple};
use crate::layout::{modes, Layout, Major};
use crate::syntax::TemplateArg;
use crate::tiler::Tiler;

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

/// One function of the expression language: its names, how it is called,
/// what it does, and its implementation.
///
/// The entries are [`FUNCTIONS`]; [`call`] and every help screen read them.
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
    imp: Impl,
    /// How it treats swizzles and composed layouts, tensors and atoms.
    overloads: Overloads,
}

impl FunctionInfo {
    const fn new(name: &'static str, signature: &'static str, summary: &'static str, imp: Impl) -> FunctionInfo {
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
            overloads: Overloads::NONE,
        }
    }
    /// How it treats swizzles and composed layouts among its arguments.
    const fn composed(self, on: On) -> Self {
        FunctionInfo { overloads: Overloads { composed: on, ..self.overloads }, ..self }
    }
    /// How it treats tensors among its arguments.
    const fn tensor(self, on: On) -> Self {
        FunctionInfo { overloads: Overloads { tensor: on, ..self.overloads }, ..self }
    }
    /// How it treats atoms, tiled atoms and thread slices among its arguments.
    const fn atom(self, on: On) -> Self {
        FunctionInfo { overloads: Overloads { atom: on, ..self.overloads }, ..self }
    }

    /// Whether the function takes values of `kind` among its arguments (CuTe
    /// has an overload for them); a call with one it does not take is a
    /// `Type` error.
    ///
    /// Pre: none. Post: what the registry entry says.
    ///
    /// ```
    /// use kute::expr::{lookup, Kind};
    /// assert!(lookup("size").unwrap().takes(Kind::Tensor));
    /// assert!(!lookup("complement").unwrap().takes(Kind::Tensor));
    /// ```
    pub fn takes(&self, kind: Kind) -> bool {
        self.overloads.on(kind).claims()
    }
    /// Marks the entry as taking symbolic operands.
    const fn sym(self) -> Self {
        FunctionInfo { symbolic: true, ..self }
    }
    const fn aliases(self, aliases: &'static [&'static str]) -> Self {
        FunctionInfo { aliases, ..self }
    }
    const fn targs(self, targs: Count) -> Self {
        FunctionInfo { targs, ..self }
    }
    const fn element_type_targs(self) -> Self {
        FunctionInfo { type_targs: true, ..self }
    }
    const fn args(self, args: Count) -> Self {
        FunctionInfo { args, ..self }
    }
    const fn args_without_targs(self, c: Count) -> Self {
        FunctionInfo { plain_args: Some(c), ..self }
    }

    /// The argument counts accepted with `targs` template arguments
    /// (`append(X, Y)` needs both operands; `append<N>(X)` pads X).
    ///
    /// Pre: none. Post: the counts [`call`] checks the arguments against when
    /// given `targs` template arguments.
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

/// The registry entry for `name` (a name or an alias).
///
/// Pre: none. Post: the entry of [`FUNCTIONS`] one of whose
/// [`names`](FunctionInfo::names) is `name`, else `None`.
///
/// ```
/// assert_eq!(kute::expr::lookup("make_stride").unwrap().name, "make_shape");
/// assert!(kute::expr::lookup("frobnicate").is_none());
/// ```
pub fn lookup(name: &str) -> Option<&'static FunctionInfo> {
    FUNCTIONS.iter().find(|f| f.names().any(|n| n == name))
}

/// Call a function by name (or alias) on evaluated arguments.
///
/// An entry with [`type_targs`](FunctionInfo::type_targs) takes its element
/// types as their widths in bits here (`recast_layout<uint8_t,half_t>` is
/// `call("recast_layout", &[8, 16], ...)`).
///
/// Pre: the arguments suit the function (else its own errors, e.g. a `Type`
/// error for a value of the wrong kind).
/// Post: an unknown name, or a count of (template) arguments the entry does
/// not accept, is an [`UnknownName`](ErrorKind::UnknownName) error naming the
/// function as called.
/// ```
/// use kute::expr::{call, eval};
/// let l = eval("(4,6):(6,1)").unwrap();
/// assert_eq!(call("size", &[], &[l.clone()]).unwrap().to_string(), "24");
/// assert_eq!(call("size", &[], &[]).unwrap_err().to_string(), "evaluate: size takes 1 argument(s), got 0");
/// assert_eq!(call("nosuch", &[], &[l]).unwrap_err().kind(), kute::ErrorKind::UnknownName);
/// ```
pub fn call(name: &str, targs: &[i64], args: &[Value]) -> Result<Value> {
    let f = entry(name, targs.len())?;
    invoke(f, name, targs, args)
}

/// [`call`] with the template arguments as written in an expression:
/// integers for most functions, element types for those that take types.
pub(crate) fn call_written(name: &str, targs: &[TemplateArg], args: &[Value]) -> Result<Value> {
    let f = entry(name, targs.len())?;
    let targs = targs.iter().map(|t| template_value(f, name, t)).collect::<Result<Vec<i64>>>()?;
    invoke(f, name, &targs, args)
}

/// The word of `candidates` nearest to `word` by edit distance (at most two
/// edits, or one for words of up to four letters; the first of equals), for a
/// "did you mean" hint.
///
/// Pre: none. Post: a candidate within that distance, or `None` (also for
/// words over 64 bytes).
///
/// ```
/// use kute::expr::nearest;
/// assert_eq!(nearest("tabel", ["eval", "table", "svg"]), Some("table"));
/// assert_eq!(nearest("zzz", ["eval", "table"]), None);
/// ```
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    if word.len() > 64 {
        return None;
    }
    let limit = if word.chars().count() <= 4 { 1 } else { 2 };
    crate::syntax::nearest_within(word, candidates, |n| n, limit)
}

/// The registered function name nearest to `name` (see [`nearest`]).
fn closest_name(name: &str) -> Option<&'static str> {
    nearest(name, FUNCTIONS.iter().flat_map(|f| f.names()))
}

/// The entry of `name`, if it accepts `n_targs` template arguments.
fn entry(name: &str, n_targs: usize) -> Result<&'static FunctionInfo> {
    let Some(f) = lookup(name) else {
        let hint = match closest_name(name) {
            Some(n) => format!("; did you mean '{n}'?"),
            None => String::new(),
        };
        return Err(Error::new(ErrorKind::UnknownName, "evaluate", format!("unknown function '{name}'{hint}")));
    };
    if !f.targs.accepts(n_targs) {
        let Count { min, max } = f.targs;
        return Err(Error::new(
            ErrorKind::UnknownName,
            "evaluate",
            format!("{name} takes {min} to {max} template argument(s), got {n_targs}"),
        ));
    }
    Ok(f)
}

/// A written template argument as the integer the implementation takes.
fn template_value(f: &FunctionInfo, name: &str, t: &TemplateArg) -> Result<i64> {
    match (t, f.type_targs) {
        (TemplateArg::Int(v), false) => Ok(*v),
        (TemplateArg::Type(ty), true) => algebra::sizeof_bits(ty).ok_or_else(|| {
            Error::new(ErrorKind::UnknownName, "evaluate", format!("unknown element type '{ty}' in {name}<...>"))
        }),
        (TemplateArg::Int(v), true) => Err(Error::new(
            ErrorKind::Type,
            "evaluate",
            format!("{name} takes element types as template arguments (uint8_t, half_t, ...), not the integer {v}"),
        )),
        (TemplateArg::Type(ty), false) => Err(Error::new(
            ErrorKind::Type,
            "evaluate",
            format!("{name} takes integers as template arguments, not the type {ty}"),
        )),
    }
}

fn invoke(f: &'static FunctionInfo, name: &str, targs: &[i64], args: &[Value]) -> Result<Value> {
    let c = f.arg_count(targs.len());
    arity(name, args, c.min, c.max)?;
    if !f.symbolic
        && let Some(k) = args.iter().position(Value::has_symbols)
    {
        return Err(Error::new(
            ErrorKind::Undecided,
            f.name,
            format!("takes no symbolic operands yet (argument {} is symbolic: {})", k + 1, args[k]),
        ));
    }
    if f.symbolic && args.iter().any(Value::has_symbols) {
        return super::cases::by_cases(args, &|args| dispatch(f, targs, args));
    }
    dispatch(f, targs, args)
}

/// The call of the entry `f`: where an argument is of a kind with overloads
/// (an atom or thread slice first, then a tensor, then a swizzle or composed
/// layout), as the entry says for that kind; else its implementation.
fn dispatch(f: &FunctionInfo, targs: &[i64], args: &[Value]) -> Result<Value> {
    let run = |a: &[Value]| dispatch(f, targs, a);
    let present = |k: Kind| args.iter().any(|v| kind_of(v) == Some(k));
    let Some(kind) = [Kind::Atom, Kind::Tensor, Kind::Composed].into_iter().find(|&k| present(k)) else {
        return (f.imp)(targs, args);
    };
    match (f.overloads.on(kind), kind) {
        (On::Native, _) => (f.imp)(targs, args),
        (On::Own(overload), _) => overload(targs, args, &run),
        (On::Layout, Kind::Tensor) => super::on_tensor::of_layout(f.name, args, &run),
        (On::Layout, _) => super::on_composed::of_inner(f.name, args, &run),
        (On::Recomposed, _) => super::on_composed::recomposed(f.name, args, &run),
        (On::Nothing, _) => {
            let what = args.iter().find(|v| kind_of(v) == Some(kind)).map_or("it", Value::kind_name);
            Err(Error::new(
                ErrorKind::Type,
                "evaluate",
                format!("{} is not defined on {what} (CuTe has no such overload)", f.name),
            ))
        }
    }
}

const fn n(k: usize) -> Count {
    Count::exactly(k)
}
const fn range(lo: usize, hi: usize) -> Count {
    Count::between(lo, hi)
}
const ANY: Count = Count::ANY;

/// Every function of the expression language: what [`call`] finds, and what
/// help screens list.
#[rustfmt::skip]
pub static FUNCTIONS: &[FunctionInfo] = &[
    FunctionInfo::new("Swizzle", "Swizzle<B,M,S>{} | Sw<B,M,S> | Sw<B,M,S>(x)", "CuTe's xor swizzle: x ^ ((x & (2^B-1) << (M+max(S,0))) >> S)", super::on_composed::swizzle).aliases(&["Sw"]).targs(n(3)).args(range(0, 1)).composed(On::Native),
    FunctionInfo::new("make_composed_layout", "make_composed_layout(A, offset, B) | A o offset o B", "the function x -> A(offset + B(x)) (CuTe's ComposedLayout)", super::on_composed::make_composed_layout).args(n(3)).composed(On::Native),
    FunctionInfo::new("get_swizzle_portion", "get_swizzle_portion(C)", "the swizzle of a swizzled layout (Sw<0,4,3> for a plain one)", super::on_composed::get_swizzle_portion).args(n(1)).composed(On::Native),
    FunctionInfo::new("get_nonswizzle_portion", "get_nonswizzle_portion(C)", "the layout under a swizzle (a plain layout itself)", super::on_composed::get_nonswizzle_portion).args(n(1)).composed(On::Native),
    FunctionInfo::new("make_tiled_mma", "make_tiled_mma(atom[, atom_layout[, permutation]])", "CuTe's TiledMMA: the atom repeated over atom_layout (M,N,K), each mode permuted", super::on_atoms::make_tiled_mma).args(range(1, 3)).atom(On::Native),
    FunctionInfo::new("make_tiled_copy", "make_tiled_copy(copy_atom, thr_layout, val_layout)", "CuTe's TiledCopy from (m,n) -> thread and (m,n) -> value layouts", super::on_atoms::make_tiled_copy).args(n(3)).atom(On::Native),
    FunctionInfo::new("make_tiled_copy_A", "make_tiled_copy_A(copy_atom, mma)", "a TiledCopy over the MMA's A tile, with its TV layout", super::on_atoms::make_tiled_copy_a).args(n(2)).atom(On::Native),
    FunctionInfo::new("make_tiled_copy_B", "make_tiled_copy_B(copy_atom, mma)", "a TiledCopy over the MMA's B tile, with its TV layout", super::on_atoms::make_tiled_copy_b).args(n(2)).atom(On::Native),
    FunctionInfo::new("make_tiled_copy_C", "make_tiled_copy_C(copy_atom, mma)", "a TiledCopy over the MMA's C tile, with its TV layout", super::on_atoms::make_tiled_copy_c).args(n(2)).atom(On::Native),
    FunctionInfo::new("make_tiled_copy_C_atom", "make_tiled_copy_C_atom(copy_atom, mma)", "a TiledCopy of C cut to the copy atom's values per thread", super::on_atoms::make_tiled_copy_c_atom).args(n(2)).atom(On::Native),
    FunctionInfo::new("make_tiled_copy_S", "make_tiled_copy_S(copy_atom, tiled_copy)", "a TiledCopy with the other copy's source TV layout", super::on_atoms::make_tiled_copy_s).args(n(2)).atom(On::Native),
    FunctionInfo::new("make_tiled_copy_D", "make_tiled_copy_D(copy_atom, tiled_copy)", "a TiledCopy with the other copy's destination TV layout", super::on_atoms::make_tiled_copy_d).args(n(2)).atom(On::Native),
    FunctionInfo::new("get_layoutA_TV", "get_layoutA_TV(mma)", "(thread, value) -> (m,k) of the TiledMMA's A tile", super::on_atoms::get_layout_a_tv).args(n(1)).atom(On::Native),
    FunctionInfo::new("get_layoutB_TV", "get_layoutB_TV(mma)", "(thread, value) -> (n,k) of the TiledMMA's B tile", super::on_atoms::get_layout_b_tv).args(n(1)).atom(On::Native),
    FunctionInfo::new("get_layoutC_TV", "get_layoutC_TV(mma)", "(thread, value) -> (m,n) of the TiledMMA's C tile", super::on_atoms::get_layout_c_tv).args(n(1)).atom(On::Native),
    FunctionInfo::new("get_thr_layout_vmnk", "get_thr_layout_vmnk(mma)", "(atom thread, M, N, K) -> thread index", super::on_atoms::get_thr_layout_vmnk).args(n(1)).atom(On::Native),
    FunctionInfo::new("thrfrg_A", "thrfrg_A(mma, L)", "L divided into ((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK)))", super::on_atoms::thrfrg_a).args(n(2)).atom(On::Native),
    FunctionInfo::new("thrfrg_B", "thrfrg_B(mma, L)", "L divided into ((ThrV,(ThrN,ThrK)),(FrgV,(RestN,RestK)))", super::on_atoms::thrfrg_b).args(n(2)).atom(On::Native),
    FunctionInfo::new("thrfrg_C", "thrfrg_C(mma, L)", "L divided into ((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN)))", super::on_atoms::thrfrg_c).args(n(2)).atom(On::Native),
    FunctionInfo::new("partition_shape_A", "partition_shape_A(mma, S)", "the shape of one thread's fragment of an A of shape S", super::on_atoms::partition_shape_a).args(n(2)).atom(On::Native),
    FunctionInfo::new("partition_shape_B", "partition_shape_B(mma, S)", "the shape of one thread's fragment of a B of shape S", super::on_atoms::partition_shape_b).args(n(2)).atom(On::Native),
    FunctionInfo::new("partition_shape_C", "partition_shape_C(mma, S)", "the shape of one thread's fragment of a C of shape S", super::on_atoms::partition_shape_c).args(n(2)).atom(On::Native),
    FunctionInfo::new("permutation_mnk", "permutation_mnk<I>(mma)", "the permutation of M, N or K (the atom's extent times its atoms where none was given)", super::on_atoms::permutation_mnk).targs(n(1)).args(n(1)).atom(On::Native),
    FunctionInfo::new("tile_shape", "tile_shape(mma)", "(tile_size<0>, tile_size<1>, tile_size<2>)", super::on_atoms::tile_shape).args(n(1)).atom(On::Native),
    FunctionInfo::new("thr_size", "thr_size(mma)", "the TiledMMA's threads", super::on_atoms::thr_size).args(n(1)).atom(On::Native),
    FunctionInfo::new("tile_size", "tile_size<I>(mma | tiled_copy)", "the tile's extent in mode I", super::on_atoms::tile_size).targs(n(1)).args(n(1)).atom(On::Native),
    FunctionInfo::new("get_layoutS_TV", "get_layoutS_TV(tiled_copy)", "(thread, value) -> source tile coordinate", super::on_atoms::get_layout_s_tv).args(n(1)).atom(On::Native),
    FunctionInfo::new("get_layoutD_TV", "get_layoutD_TV(tiled_copy)", "(thread, value) -> destination tile coordinate", super::on_atoms::get_layout_d_tv).args(n(1)).atom(On::Native),
    FunctionInfo::new("tidfrg_S", "tidfrg_S(tiled_copy, L)", "L divided into (Thr, Val, Rest...) for the source", super::on_atoms::tidfrg_s).args(n(2)).atom(On::Native),
    FunctionInfo::new("tidfrg_D", "tidfrg_D(tiled_copy, L)", "L divided into (Thr, Val, Rest...) for the destination", super::on_atoms::tidfrg_d).args(n(2)).atom(On::Native),
    FunctionInfo::new("Tiler_MN", "Tiler_MN(tiled_copy)", "the tile a TiledCopy covers", super::on_atoms::tiler_mn).args(n(1)).atom(On::Native),
    FunctionInfo::new("TiledLayout_TV", "TiledLayout_TV(tiled_copy)", "the TiledCopy's (thread, value) -> tile layout", super::on_atoms::tiled_layout_tv).args(n(1)).atom(On::Native),
    FunctionInfo::new("get_slice", "get_slice(mma | tiled_copy, t)", "thread t's slice (CuTe's ThrMMA / ThrCopy)", super::on_atoms::get_slice).args(n(2)).atom(On::Native),
    FunctionInfo::new("partition_A", "partition_A(get_slice(mma, t), T)", "thread t's values of an A tensor: (FrgV, RestM, RestK)", super::on_atoms::partition_a).args(n(2)).atom(On::Native),
    FunctionInfo::new("partition_B", "partition_B(get_slice(mma, t), T)", "thread t's values of a B tensor: (FrgV, RestN, RestK)", super::on_atoms::partition_b).args(n(2)).atom(On::Native),
    FunctionInfo::new("partition_C", "partition_C(get_slice(mma, t), T)", "thread t's values of a C tensor: (FrgV, RestM, RestN)", super::on_atoms::partition_c).args(n(2)).atom(On::Native),
    FunctionInfo::new("partition_S", "partition_S(get_slice(copy, t), T)", "thread t's source values: (CopyV, Rest...)", super::on_atoms::partition_s).args(n(2)).atom(On::Native),
    FunctionInfo::new("partition_D", "partition_D(get_slice(copy, t), T)", "thread t's destination values: (CopyV, Rest...)", super::on_atoms::partition_d).args(n(2)).atom(On::Native),
    FunctionInfo::new("partition_fragment_A", "partition_fragment_A(get_slice(mma, t), T)", "the layout of thread t's register fragment of A", super::on_atoms::partition_fragment_a).args(n(2)).atom(On::Native),
    FunctionInfo::new("partition_fragment_B", "partition_fragment_B(get_slice(mma, t), T)", "the layout of thread t's register fragment of B", super::on_atoms::partition_fragment_b).args(n(2)).atom(On::Native),
    FunctionInfo::new("partition_fragment_C", "partition_fragment_C(get_slice(mma, t), T)", "the layout of thread t's register fragment of C", super::on_atoms::partition_fragment_c).args(n(2)).atom(On::Native),
    FunctionInfo::new("make_layout_tv", "make_layout_tv(thr, val)", "(tiler, layout_tv) of make_tiled_copy with these layouts (CuTe DSL)", super::on_atoms::layout_tv).args(n(2)),
    FunctionInfo::new("make_identity_layout", "make_identity_layout(S)", "the layout mapping each coordinate of S to itself (basis strides)", make_identity_layout).args(n(1)).sym(),
    FunctionInfo::new("make_basis_like", "make_basis_like(S)", "the basis stride E<path> of every leaf of S", make_basis_like).args(n(1)),
    FunctionInfo::new("E", "E<I...>{}", "the basis element of mode I... (CuTe's ScaledBasis), printed _1@...", basis_e).targs(ANY).args(n(0)),
    FunctionInfo::new("make_layout", "make_layout(S) | (S, D) | (S, LayoutLeft{}|LayoutRight{}) | (L0, L1, ...)", "a layout from a shape (and stride or order), or the concatenation of layouts", make_layout).args(range(1, 64)).sym().composed(On::Own(super::on_composed::make_layout)),
    FunctionInfo::new("make_layout_like", "make_layout_like(L)", "compact strides in the order of L's (stride-0 modes kept)", make_layout_like).args(n(1)),
    FunctionInfo::new("make_fragment_like", "make_fragment_like(L)", "the register layout of a fragment shaped like L", make_fragment_like).args(n(1)).composed(On::Own(super::on_composed::make_fragment_like)),
    FunctionInfo::new("make_ordered_layout", "make_ordered_layout(S, order)", "compact strides with modes ordered by `order`", make_ordered_layout).args(n(2)),
    FunctionInfo::new("make_shape", "make_shape(a, b, ...)", "a tuple", make_tuple).aliases(&[ "make_stride", "make_coord", "make_tuple", "make_step", ]),
    FunctionInfo::new("make_tile", "make_tile(T0, T1, ...)", "a by-mode tiler, same as <T0,T1,...>", make_tile),
    FunctionInfo::new("shape", "shape(L) | shape<I...>(L)", "the shape (of a mode)", shape).targs(ANY).args(n(1)).sym().composed(On::Layout).tensor(On::Layout),
    FunctionInfo::new("stride", "stride(L) | stride<I...>(L)", "the stride (of a mode)", stride).targs(ANY).args(n(1)).sym().composed(On::Own(super::on_composed::stride)).tensor(On::Layout),
    FunctionInfo::new("size", "size(X) | size<I...>(X)", "product of the shape (of a mode)", size).targs(ANY).args(n(1)).sym().composed(On::Layout).tensor(On::Layout).atom(On::Own(super::on_atoms::size)),
    FunctionInfo::new("cosize", "cosize(L) | cosize<I...>(L)", "1 + sum (s-1)*|d| over the leaves", cosize).targs(ANY).args(n(1)).sym().composed(On::Layout).tensor(On::Layout),
    FunctionInfo::new("coshape", "coshape(L)", "one past L's largest value in each direction of its codomain", coshape).args(n(1)),
    FunctionInfo::new("coprofile", "coprofile(L)", "the structure of L's codomain (coshape with _0 leaves)", coprofile).args(n(1)),
    FunctionInfo::new("rank", "rank(X) | rank<I...>(X)", "number of top-level modes", rank).targs(ANY).args(n(1)).sym().composed(On::Layout).tensor(On::Layout),
    FunctionInfo::new("depth", "depth(X) | depth<I...>(X)", "nesting depth", depth).targs(ANY).args(n(1)).sym().composed(On::Layout).tensor(On::Layout),
    FunctionInfo::new("get", "get<I...>(X)", "a (nested) mode of a tuple or layout", get).targs(ANY).args(n(1)).sym().composed(On::Recomposed),
    FunctionInfo::new("layout", "layout<I...>(L)", "a (nested) mode of a layout", layout).targs(ANY).args(n(1)).composed(On::Recomposed).tensor(On::Layout),
    FunctionInfo::new("select", "select<I...>(X)", "the chosen modes, as a tuple", select).targs(ANY).args(n(1)).sym(),
    // <B,E> is checked by the implementation, after the operand (as before the registry)
    FunctionInfo::new("take", "take<B,E>(X)", "modes [B,E) as a tuple", take).targs(ANY).args(n(1)).sym().composed(On::Recomposed),
    FunctionInfo::new("append", "append(X, Y) | append<N>(X[, Y])", "add Y as the last mode / pad to rank N", append).targs(range(0, 1)).args(range(1, 2)).args_without_targs(n(2)).composed(On::Recomposed),
    FunctionInfo::new("prepend", "prepend(X, Y) | prepend<N>(X[, Y])", "add Y as the first mode / pad to rank N", prepend).targs(range(0, 1)).args(range(1, 2)).args_without_targs(n(2)),
    FunctionInfo::new("replace", "replace<N>(X, Y)", "replace mode N by Y", replace).targs(n(1)).args(n(2)),
    FunctionInfo::new("group", "group<B,E>(X)", "group modes [B,E) into one", group).targs(ANY).args(n(1)).composed(On::Recomposed),
    FunctionInfo::new("flatten", "flatten(X)", "all leaves as top-level modes", flatten).args(n(1)).sym().composed(On::Recomposed),
    FunctionInfo::new("unflatten", "unflatten(X, profile)", "refold a flat X into the profile's structure", unflatten).args(n(2)),
    FunctionInfo::new("zip", "zip(L) | zip(A, B)", "transpose nested modes", zip).args(range(1, 2)).composed(On::Recomposed),
    FunctionInfo::new("front", "front(X)", "the first leaf (a layout is its own front)", front).args(n(1)),
    FunctionInfo::new("back", "back(X)", "the last leaf (a layout is its own back)", back).args(n(1)),
    FunctionInfo::new("unwrap", "unwrap(X)", "a tuple of one element is that element, repeatedly", unwrap).args(n(1)),
    FunctionInfo::new("wrap", "wrap(X)", "an integer as a tuple of one element; a tuple as it is", wrap).args(n(1)),
    FunctionInfo::new("tuple_cat", "tuple_cat(T0, T1, ...)", "the elements of the tuples, in order", tuple_cat).args(range(1, 64)),
    FunctionInfo::new("insert", "insert<N>(T, X)", "X as the new mode N of the tuple T", insert).targs(n(1)).args(n(2)),
    FunctionInfo::new("remove", "remove<N>(T)", "the tuple T without its mode N", remove).targs(n(1)).args(n(1)),
    FunctionInfo::new("repeat_like", "repeat_like(T, X)", "T's structure with X at every leaf", repeat_like).args(n(2)),
    FunctionInfo::new("repeat", "repeat<N>(X)", "a tuple of N copies of X (X itself for N = 1)", repeat).targs(n(1)).args(n(1)),
    FunctionInfo::new("zip2_by", "zip2_by(T, guide)", "gather the rank-2 modes at the guide's terminals into ((firsts),(seconds))", zip2_by).args(n(2)),
    FunctionInfo::new("tile_unzip", "tile_unzip(L, tiler)", "gather (tile, rest) modes into ((tiles),(rests))", tile_unzip).args(n(2)).composed(On::Recomposed),
    FunctionInfo::new("product", "product(T)", "product of all leaves", product).args(n(1)),
    FunctionInfo::new("product_each", "product_each(T)", "size of each mode", product_each).args(n(1)).sym(),
    FunctionInfo::new("inner_product", "inner_product(A, B)", "sum of products of leaves", inner_product).args(n(2)),
    FunctionInfo::new("congruent", "congruent(A, B)", "same tuple structure", congruent).args(n(2)),
    FunctionInfo::new("elem_less", "elem_less(A, B)", "every element of A below B's at its position", elem_less).args(n(2)),
    FunctionInfo::new("lex_less", "lex_less(A, B)", "lexicographic order, first mode first", lex_less).args(n(2)),
    FunctionInfo::new("colex_less", "colex_less(A, B)", "colexicographic order, last mode first", colex_less).args(n(2)),
    FunctionInfo::new("domain_distribute", "domain_distribute(S, n)", "n elements spread over the modes of S, first to last (gcd by gcd)", domain_distribute).args(n(2)),
    FunctionInfo::new("evenly_divides", "evenly_divides(S, T)", "the tiler T tiles the shape S with no partial tile", evenly_divides).args(n(2)),
    FunctionInfo::new("weakly_congruent", "weakly_congruent(A, B)", "A's structure is a coarsening of B's", weakly_congruent).args(n(2)),
    FunctionInfo::new("compatible", "compatible(A, B)", "A's integers are the sizes of B's modes", compatible).args(n(2)),
    FunctionInfo::new("weakly_compatible", "weakly_compatible(A, B)", "A's integers divide the sizes of B's modes", weakly_compatible).args(n(2)),
    FunctionInfo::new("shape_div", "shape_div(A, B)", "A divided by B where one divides the other", shape_div).args(n(2)).sym(),
    FunctionInfo::new("ceil_div", "ceil_div(A, B)", "rounded-up division (by a layout: the rest shape of a divide)", ceil_div).args(n(2)).sym(),
    FunctionInfo::new("elem_scale", "elem_scale(A, B)", "A's leaves times the sizes of B's modes", elem_scale).args(n(2)),
    FunctionInfo::new("prefix_product", "prefix_product(T)", "exclusive prefix products, congruent to T", prefix_product).args(n(1)),
    FunctionInfo::new("idx2crd", "idx2crd(i, S[, D])", "the natural coordinate of index i (under strides D)", idx2crd).args(range(2, 3)),
    FunctionInfo::new("get_hier_coord", "get_hier_coord(L, i)", "L.get_hier_coord(i): the natural coordinate of index i, idx2crd(i, shape, stride)", get_hier_coord).args(n(2)),
    FunctionInfo::new("get_flat_coord", "get_flat_coord(L, i)", "L.get_flat_coord(i): the 1-D coordinate in each mode of index i", get_flat_coord).args(n(2)),
    FunctionInfo::new("get_1d_coord", "get_1d_coord(L, i)", "L.get_1d_coord(i): the colexicographic 1-D coordinate of index i", get_1d_coord).args(n(2)),
    FunctionInfo::new("increment", "increment(c, S)", "the next coordinate of c in S, colexicographically", increment).args(n(2)),
    FunctionInfo::new("crd2idx", "crd2idx(c, S[, D])", "the index of coordinate c", crd2idx).args(range(2, 3)),
    FunctionInfo::new("crd2crd", "crd2crd(c, S1, S2)", "a coordinate of S1 as a coordinate of S2", crd2crd).args(n(3)),
    FunctionInfo::new("compact_col_major", "compact_col_major(S[, start])", "column-major strides", compact_col_major).aliases(&["compact_major"]).args(range(1, 2)),
    FunctionInfo::new("compact_row_major", "compact_row_major(S[, start])", "row-major strides", compact_row_major).args(range(1, 2)),
    FunctionInfo::new("compact_order", "compact_order(S, order)", "compact strides in the given mode order", compact_order).args(n(2)),
    FunctionInfo::new("coalesce", "coalesce(L[, profile]) | coalesce(S)", "fewest modes with the same function", coalesce).args(range(1, 2)).sym().composed(On::Recomposed),
    FunctionInfo::new("filter_zeros", "filter_zeros(L[, profile])", "stride-0 modes get extent 1", filter_zeros).args(range(1, 2)).sym(),
    FunctionInfo::new("filter", "filter(L[, profile])", "coalesce without stride-0 and size-1 modes", filter).args(range(1, 2)).sym().composed(On::Own(super::on_composed::filter)),
    FunctionInfo::new("bw_coalesce", "bw_coalesce<I>(S, D, NS, ND)", "fold flat modes I..0 of S:D into the front of NS:ND (CuTe's detail::bw_coalesce, coalesce's step)", bw_coalesce).targs(n(1)).args(n(4)),
    FunctionInfo::new("coalesce_z", "coalesce_z(L[, profile])", "coalesce keeping the function past the size: a last size-1 mode stays (PyCuTe; '_' in the profile keeps a mode)", coalesce_z).args(range(1, 2)),
    FunctionInfo::new("common_refinement", "common_refinement(A, B)", "the least shape refining both shapes (PyCuTe)", common_refinement).args(n(2)),
    FunctionInfo::new("common_coarsening", "common_coarsening(A, B)", "the greatest shape both shapes refine (PyCuTe)", common_coarsening).args(n(2)),
    FunctionInfo::new("greatest_common_domain", "greatest_common_domain(A, B)", "the ordered common factorization of two shapes (PyCuTe)", greatest_common_domain).args(n(2)),
    FunctionInfo::new("layout_add", "layout_add(A, B)", "R(i) = A(i) + B(i) (PyCuTe)", layout_add).args(n(2)),
    FunctionInfo::new("composition", "composition(A, B)", "R(c) = A(B(c)); B a layout, a shape or a tiler <...>", composition).args(n(2)).sym().composed(On::Own(super::on_composed::composition)),
    FunctionInfo::new("complement", "complement(A[, M])", "the layout filling A's gaps up to M", complement).args(range(1, 2)).sym().composed(On::Layout),
    FunctionInfo::new("right_inverse", "right_inverse(L)", "R with L(R(i)) = i", right_inverse).args(n(1)).sym().composed(On::Own(super::on_composed::right_inverse)),
    FunctionInfo::new("left_inverse", "left_inverse(L)", "R with R(L(i)) = i", left_inverse).args(n(1)).sym().composed(On::Own(super::on_composed::left_inverse)),
    FunctionInfo::new("logical_divide", "logical_divide(A, T)", "A o (T, complement(T)): (tile, rest)", logical_divide).args(n(2)).sym().composed(On::Recomposed).tensor(On::Own(super::on_tensor::logical_divide)),
    FunctionInfo::new("zipped_divide", "zipped_divide(A, T)", "((tiles),(rests))", zipped_divide).args(n(2)).sym().composed(On::Recomposed).tensor(On::Own(super::on_tensor::zipped_divide)),
    FunctionInfo::new("tiled_divide", "tiled_divide(A, T)", "((tiles),rest0,rest1,...)", tiled_divide).args(n(2)).sym().composed(On::Recomposed).tensor(On::Own(super::on_tensor::tiled_divide)),
    FunctionInfo::new("flat_divide", "flat_divide(A, T)", "(tile0,...,rest0,...)", flat_divide).args(n(2)).sym().composed(On::Recomposed).tensor(On::Own(super::on_tensor::flat_divide)),
    FunctionInfo::new("logical_product", "logical_product(A, B)", "(A, complement(A) o B)", logical_product).args(n(2)).sym().composed(On::Own(super::on_composed::logical_product)),
    FunctionInfo::new("zipped_product", "zipped_product(A, B)", "((blocks),(products))", zipped_product).args(n(2)).sym().composed(On::Recomposed),
    FunctionInfo::new("tiled_product", "tiled_product(A, B)", "((blocks),p0,p1,...)", tiled_product).args(n(2)).sym().composed(On::Recomposed),
    FunctionInfo::new("flat_product", "flat_product(A, B)", "(b0,...,p0,...)", flat_product).args(n(2)).sym().composed(On::Recomposed),
    FunctionInfo::new("blocked_product", "blocked_product(A, B)", "B repeats block A, mode by mode", blocked_product).args(n(2)).sym().composed(On::Recomposed),
    FunctionInfo::new("raked_product", "raked_product(A, B)", "B interleaves copies of A, mode by mode", raked_product).args(n(2)).sym().composed(On::Recomposed),
    FunctionInfo::new("tile_to_shape", "tile_to_shape(A, S[, order])", "repeat A until it has shape S", tile_to_shape).args(range(2, 3)).composed(On::Recomposed),
    FunctionInfo::new("max_common_layout", "max_common_layout(A, B)", "largest R with A(R(i)) = i = B(R(i))", max_common_layout).args(n(2)).sym().composed(On::Own(super::on_composed::max_common_layout)),
    FunctionInfo::new("max_alignment", "max_alignment(L)", "the alignment (in elements) L's static parts guarantee", max_alignment).args(n(1)).composed(On::Own(super::on_composed::max_alignment)),
    FunctionInfo::new("max_common_vector", "max_common_vector(A, B)", "number of common contiguous elements", max_common_vector).args(n(2)).sym().composed(On::Own(super::on_composed::max_common_vector)),
    FunctionInfo::new("nullspace", "nullspace(L)", "the coordinates L maps to 0 (stride-0 modes)", nullspace).args(n(1)).composed(On::Own(super::on_composed::nullspace)),
    FunctionInfo::new("upcast", "upcast<N>(L)", "reinterpret for N-times wider elements", upcast).targs(n(1)).args(n(1)).sym().composed(On::Own(super::on_composed::upcast)),
    FunctionInfo::new("downcast", "downcast<N>(L)", "reinterpret for N-times narrower elements", downcast).targs(n(1)).args(n(1)).sym().composed(On::Own(super::on_composed::downcast)),
    FunctionInfo::new("recast_layout", "recast_layout<Old,New>(L)", "reinterpret elements of type Old as elements of type New (upcast/downcast by their widths)", recast_layout).targs(n(2)).element_type_targs().args(n(1)).sym().composed(On::Own(super::on_composed::recast_layout)),
    FunctionInfo::new("transform_layout", "transform_layout(L, f) | transform_layout(L0, L1, f)", "make_layout(f(mode i)...), f a function name; with two operands f takes pairs, leftover modes kept", transform_layout).args(range(2, 3)),
    FunctionInfo::new("slice", "slice(c, X)", "the modes of a layout or tuple X where c has '_' (also L(c))", slice).args(n(2)).composed(On::Own(super::on_composed::slice)),
    FunctionInfo::new("dice", "dice(c, X)", "the modes of a layout or tuple X where c has an integer", dice).args(n(2)),
    FunctionInfo::new("domain_offset", "domain_offset(c, L)", "the pair (L, L(c))", domain_offset).args(n(2)).composed(On::Own(super::on_composed::domain_offset)),
    FunctionInfo::new("slice_and_offset", "slice_and_offset(c, L)", "(slice, index of c with '_' as 0)", slice_and_offset).args(n(2)).composed(On::Own(super::on_composed::slice_and_offset)),
    // tensors (expr/tensor.rs)
    FunctionInfo::new("make_tensor", "make_tensor(counting, L)", "the tensor of L over a counting engine: the element at c is L(c) (CuTe's counting_iterator)", super::on_tensor::make_tensor).args(n(2)).composed(On::Native).tensor(On::Native),
    FunctionInfo::new("counting", "counting", "the counting engine, an argument of make_tensor", super::on_tensor::counting).args(n(0)).composed(On::Native).tensor(On::Native),
    FunctionInfo::new("make_identity_tensor", "make_identity_tensor(S)", "the coordinate tensor of S: the element at c is c", super::on_tensor::make_identity_tensor).args(n(1)).sym().composed(On::Native).tensor(On::Native),
    FunctionInfo::new("local_tile", "local_tile(T, tiler, coord)", "the tile of T at coord (zipped_divide, then slice the rest mode)", super::on_tensor::local_tile).args(n(3)).sym().composed(On::Native).tensor(On::Native),
    FunctionInfo::new("local_partition", "local_partition(T, thr_layout, thr_idx)", "thread thr_idx's elements of T, one per tile of thr_layout's shape", super::on_tensor::local_partition).args(n(3)).sym().composed(On::Native).tensor(On::Native),
    FunctionInfo::new("inner_partition", "inner_partition(T, tiler, coord)", "zipped_divide(T, tiler) sliced at coord in the rest mode", super::on_tensor::inner_partition).args(n(3)).composed(On::Native).tensor(On::Native),
    FunctionInfo::new("outer_partition", "outer_partition(T, tiler, coord)", "zipped_divide(T, tiler) sliced at coord in the tile mode", super::on_tensor::outer_partition).args(n(3)).composed(On::Native).tensor(On::Native),
    FunctionInfo::new("print_tensor", "print_tensor(T)", "CuTe's print_tensor: the tensor and its elements as a table", super::on_tensor::print_tensor).args(n(1)).composed(On::Native).tensor(On::Native),
];

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

fn tuple(t: IntTuple) -> Value {
    Value::IntTuple(t)
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

// ----- construction ----------------------------------------------------------

fn make_tuple(_: &[i64], a: &[Value]) -> Result<Value> {
    Value::tuple(a.to_vec())
}

fn make_tile(_: &[i64], a: &[Value]) -> Result<Value> {
    let ts = a.iter().map(|v| v.as_tiler("a tile element")).collect::<Result<_>>()?;
    Ok(Value::Tiler(Tiler::Tuple(ts)))
}

fn make_identity_layout(_: &[i64], a: &[Value]) -> Result<Value> {
    Ok(lay(Layout::identity(&a[0].as_int_tuple("the shape")?)?))
}

fn make_basis_like(_: &[i64], a: &[Value]) -> Result<Value> {
    Ok(Value::from_strides(crate::stride::make_basis_like(&a[0].as_int_tuple("the shape")?)?))
}

/// `E<I...>{}` reaches the registry only through `expr::call` (the evaluator
/// reads the literal itself).
fn basis_e(t: &[i64], _: &[Value]) -> Result<Value> {
    let p = path(t, "E")?;
    Ok(Value::from_strides(crate::tree::Tree::leaf(crate::stride::Stride::basis(Int::ONE, &p)?)))
}

fn make_layout(_: &[i64], a: &[Value]) -> Result<Value> {
    if let Value::Layout(_) = &a[0] {
        let ls = a.iter().map(|v| v.to_layout("make_layout's argument")).collect::<Result<Vec<_>>>()?;
        return Ok(lay(Layout::concat(ls.iter())?));
    }
    // layouts concatenate in any number; a shape takes one stride or order at most
    arity("make_layout", a, 1, 2)?;
    let s = a[0].as_int_tuple("the shape")?;
    match a.get(1) {
        None => Ok(lay(Layout::from_shape(&s)?)),
        Some(Value::Major(m)) => Ok(lay(Layout::from_shape_major(&s, *m)?)),
        Some(d) => Ok(lay(Layout::with_strides(&s, &d.as_stride_tuple("the stride")?)?)),
    }
}

fn make_ordered_layout(_: &[i64], a: &[Value]) -> Result<Value> {
    let s = a[0].as_int_tuple("the shape")?;
    match &a[1] {
        Value::Major(m) => Ok(lay(Layout::from_shape_major(&s, *m)?)),
        o => Ok(lay(Layout::ordered(&s, &o.as_int_tuple("the order")?)?)),
    }
}

// ----- modes and measures ----------------------------------------------------

fn shape(t: &[i64], a: &[Value]) -> Result<Value> {
    let p = path(t, "shape")?;
    match &a[0] {
        Value::Layout(l) => Ok(tuple(l.mode_at(&p)?.shape())),
        Value::IntTuple(t) => Ok(tuple(sub_tuple(t, &p, "shape")?)),
        other => Err(type_error("the operand", "a layout", other)),
    }
}

fn stride(t: &[i64], a: &[Value]) -> Result<Value> {
    let p = path(t, "shape")?;
    match &a[0] {
        Value::Layout(l) => Ok(Value::from_strides(l.mode_at(&p)?.stride())),
        other => Err(type_error("the operand", "a layout", other)),
    }
}

fn size(t: &[i64], a: &[Value]) -> Result<Value> {
    let p = path(t, "size")?;
    Ok(match structured(&a[0], "the operand")? {
        Structured::Layout(l) => int(l.mode_at(&p)?.size()?),
        Structured::Tuple(t) => int(sub_tuple(&t, &p, "size")?.size()?),
    })
}

fn cosize(t: &[i64], a: &[Value]) -> Result<Value> {
    let p = path(t, "size")?;
    match structured(&a[0], "the operand")? {
        // a coordinate layout's cosize is its coshape's size, as CuTe defines it
        Structured::Layout(l) if !l.has_int_strides() => Ok(int(l.mode_at(&p)?.coshape()?.size()?)),
        Structured::Layout(l) => Ok(int(l.mode_at(&p)?.cosize()?)),
        Structured::Tuple(_) => Err(type_error("the operand", "a layout", &a[0])),
    }
}

fn rank(t: &[i64], a: &[Value]) -> Result<Value> {
    let p = path(t, "size")?;
    Ok(match structured(&a[0], "the operand")? {
        Structured::Layout(l) => sint(l.mode_at(&p)?.rank()),
        Structured::Tuple(t) => sint(sub_tuple(&t, &p, "rank")?.rank()),
    })
}

fn depth(t: &[i64], a: &[Value]) -> Result<Value> {
    let p = path(t, "size")?;
    Ok(match structured(&a[0], "the operand")? {
        Structured::Layout(l) => sint(l.mode_at(&p)?.depth()),
        Structured::Tuple(t) => sint(sub_tuple(&t, &p, "depth")?.depth()),
    })
}

fn get(t: &[i64], a: &[Value]) -> Result<Value> {
    let p = path(t, "get")?;
    Ok(match structured(&a[0], "the operand")? {
        Structured::Layout(l) => lay(l.mode_at(&p)?),
        Structured::Tuple(t) => tuple(sub_tuple(&t, &p, "get")?),
    })
}

fn layout(t: &[i64], a: &[Value]) -> Result<Value> {
    let p = path(t, "get")?;
    match structured(&a[0], "the operand")? {
        Structured::Layout(l) => Ok(lay(l.mode_at(&p)?)),
        Structured::Tuple(_) => Err(type_error("the operand", "a layout", &a[0])),
    }
}

fn select(t: &[i64], a: &[Value]) -> Result<Value> {
    let p = path(t, "select")?;
    Ok(match structured(&a[0], "the operand")? {
        Structured::Layout(l) => lay(Layout { tree: modes::select(l.as_tree_ref(), &p)? }),
        Structured::Tuple(t) => tuple(modes::select(t.as_ref(), &p)?),
    })
}

/// `take<B,E>` or `group<B,E>`: the operand is checked before the template arguments.
fn begin_end(name: &'static str, t: &[i64], a: &[Value]) -> Result<Value> {
    let p = path(t, "select")?;
    let x = structured(&a[0], "the operand")?;
    let &[b, e] = p.as_slice() else {
        return Err(Error::new(
            ErrorKind::UnknownName,
            "evaluate",
            format!("{name} takes two template arguments <B,E>"),
        ));
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

fn take(t: &[i64], a: &[Value]) -> Result<Value> {
    begin_end("take", t, a)
}

fn group(t: &[i64], a: &[Value]) -> Result<Value> {
    begin_end("group", t, a)
}

/// `append`/`prepend`, with `append<N>` padding to rank N.
fn pend(front: bool, t: &[i64], a: &[Value]) -> Result<Value> {
    let x = structured(&a[0], "the operand")?;
    let y = default_x(a, 1, &x)?;
    let n = t.first().map(|&t| idx(t, "append")).transpose()?;
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

fn append(t: &[i64], a: &[Value]) -> Result<Value> {
    pend(false, t, a)
}

fn prepend(t: &[i64], a: &[Value]) -> Result<Value> {
    pend(true, t, a)
}

fn replace(t: &[i64], a: &[Value]) -> Result<Value> {
    let n = idx(t[0], "replace")?;
    let (x, y) = (structured(&a[0], "the operand")?, structured(&a[1], "the replacement")?);
    Ok(match both(&x, &y, "replace")? {
        Either::L(x, y) => lay(x.replace(n, y)?),
        Either::T(x, y) => tuple(modes::replace(x.as_ref(), n, y.as_ref())?),
    })
}

fn flatten(_: &[i64], a: &[Value]) -> Result<Value> {
    Ok(match structured(&a[0], "the operand")? {
        Structured::Layout(l) => lay(l.flatten()),
        Structured::Tuple(t) => tuple(t.flatten()),
    })
}

fn unflatten(_: &[i64], a: &[Value]) -> Result<Value> {
    let prof = a[1].as_int_tuple("the profile")?;
    Ok(match structured(&a[0], "the operand")? {
        Structured::Layout(l) => lay(l.unflatten(&prof)?),
        Structured::Tuple(t) => tuple(modes::unflatten(t.as_ref(), prof.as_ref())?),
    })
}

fn zip(_: &[i64], a: &[Value]) -> Result<Value> {
    if a.len() == 2 {
        return Ok(lay(a[0].to_layout("zip's operand")?.zip_with(&a[1].to_layout("zip's operand")?)?));
    }
    Ok(match structured(&a[0], "the operand")? {
        Structured::Layout(l) => lay(l.zip()?),
        Structured::Tuple(t) => tuple(modes::zip(t.as_ref())?),
    })
}

/// The tuple operand of a tuple utility: a tuple, or (CuTe: not a tuple) a layout.
fn tuple_arg(v: &Value, name: &'static str) -> Result<Structured> {
    structured(v, "the operand").map_err(|e| e.in_op(name))
}

/// The operand of a tuple utility that builds tuples: an integer tuple (a
/// layout is a `Type` error: kute holds no tuples of layouts).
fn tuple_only(a: &Value, name: &'static str) -> Result<IntTuple> {
    match tuple_arg(a, name)? {
        Structured::Tuple(t) => Ok(t),
        Structured::Layout(l) => {
            Err(Error::new(ErrorKind::Type, name, format!("the operand must be an integer tuple, not the layout {l}")))
        }
    }
}

fn front(_: &[i64], a: &[Value]) -> Result<Value> {
    Ok(match tuple_arg(&a[0], "front")? {
        // a layout is not a tuple: CuTe's front of it is the layout itself
        Structured::Layout(l) => lay(l),
        Structured::Tuple(t) => int(modes::front(t.as_ref())?),
    })
}

fn back(_: &[i64], a: &[Value]) -> Result<Value> {
    Ok(match tuple_arg(&a[0], "back")? {
        Structured::Layout(l) => lay(l),
        Structured::Tuple(t) => int(modes::back(t.as_ref())?),
    })
}

fn unwrap(_: &[i64], a: &[Value]) -> Result<Value> {
    Ok(match tuple_arg(&a[0], "unwrap")? {
        Structured::Layout(l) => lay(l),
        Structured::Tuple(t) => tuple(modes::unwrap(t.as_ref())),
    })
}

fn wrap(_: &[i64], a: &[Value]) -> Result<Value> {
    Ok(tuple(modes::wrap(tuple_only(&a[0], "wrap")?.as_ref())?))
}

fn tuple_cat(_: &[i64], a: &[Value]) -> Result<Value> {
    let ts = a.iter().map(|v| tuple_only(v, "tuple_cat")).collect::<Result<Vec<_>>>()?;
    let refs: Vec<_> = ts.iter().map(|t| t.as_ref()).collect();
    Ok(tuple(modes::tuple_cat(&refs)?))
}

fn insert(t: &[i64], a: &[Value]) -> Result<Value> {
    let n = idx(t[0], "insert")?;
    let x = a[1].as_int_tuple("the inserted element").map_err(|e| e.in_op("insert"))?;
    Ok(tuple(modes::insert(tuple_only(&a[0], "insert")?.as_ref(), n, x.as_ref())?))
}

fn remove(t: &[i64], a: &[Value]) -> Result<Value> {
    let n = idx(t[0], "remove")?;
    Ok(tuple(modes::remove(tuple_only(&a[0], "remove")?.as_ref(), n)?))
}

fn repeat_like(_: &[i64], a: &[Value]) -> Result<Value> {
    let x = a[1].as_int_tuple("the repeated element").map_err(|e| e.in_op("repeat_like"))?;
    Ok(match tuple_arg(&a[0], "repeat_like")? {
        // a layout is not a tuple: CuTe repeats x once, as for an integer
        Structured::Layout(_) => tuple(x),
        Structured::Tuple(t) => tuple(modes::repeat_like(t.as_ref(), x.as_ref())?),
    })
}

fn repeat(t: &[i64], a: &[Value]) -> Result<Value> {
    let n = idx(t[0], "repeat")?;
    let x = a[0].as_int_tuple("the repeated element").map_err(|e| e.in_op("repeat"))?;
    Ok(tuple(modes::repeat(n, x.as_ref())?))
}

fn zip2_by(_: &[i64], a: &[Value]) -> Result<Value> {
    let t = a[0].as_int_tuple("the tuple").map_err(|e| e.in_op("zip2_by"))?;
    let g = a[1].as_tiler("the guide").map_err(|e| e.in_op("zip2_by"))?;
    Ok(tuple(algebra::zip2_by(&t, &g)?))
}

fn tile_unzip(_: &[i64], a: &[Value]) -> Result<Value> {
    Ok(lay(algebra::tile_unzip(&a[0].to_layout("the layout")?, &a[1].as_tiler("the tiler")?)?))
}

// ----- integer tuples --------------------------------------------------------

fn product(_: &[i64], a: &[Value]) -> Result<Value> {
    Ok(int(a[0].as_int_tuple("the operand")?.size()?))
}

fn product_each(_: &[i64], a: &[Value]) -> Result<Value> {
    Ok(tuple(int_tuple::product_each(a[0].as_int_tuple("the operand")?.as_ref())?))
}

/// The two integer-tuple operands of a binary tuple function.
fn pair(
    a: &[Value],
    f: impl FnOnce(crate::tree::TreeRef<'_, Int>, crate::tree::TreeRef<'_, Int>) -> Result<Value>,
) -> Result<Value> {
    let x = a[0].as_int_tuple("the first operand")?;
    let y = a[1].as_int_tuple("the second operand")?;
    f(x.as_ref(), y.as_ref())
}

fn inner_product(_: &[i64], a: &[Value]) -> Result<Value> {
    pair(a, |x, y| Ok(int(int_tuple::inner_product(x, y)?)))
}

fn congruent(_: &[i64], a: &[Value]) -> Result<Value> {
    pair(a, |x, y| Ok(boolean(int_tuple::congruent(x, y))))
}

fn make_layout_like(_: &[i64], a: &[Value]) -> Result<Value> {
    Ok(lay(algebra::make_layout_like(&a[0].to_layout("the layout").map_err(|e| e.in_op("make_layout_like"))?)?))
}

fn make_fragment_like(_: &[i64], a: &[Value]) -> Result<Value> {
    Ok(lay(algebra::make_fragment_like(&a[0].to_layout("the layout").map_err(|e| e.in_op("make_fragment_like"))?)?))
}

fn domain_distribute(_: &[i64], a: &[Value]) -> Result<Value> {
    let s = shape_of(&a[0], "domain_distribute")?;
    let n = a[1].as_int_tuple("the count").map_err(|e| e.in_op("domain_distribute"))?;
    let Some(n) = n.inline_leaf() else {
        return Err(Error::new(ErrorKind::Type, "domain_distribute", format!("the count must be an integer, not {n}")));
    };
    Ok(lay(algebra::domain_distribute(&s, n)?))
}

fn evenly_divides(_: &[i64], a: &[Value]) -> Result<Value> {
    let s = a[0].as_int_tuple("the shape").map_err(|e| e.in_op("evenly_divides"))?;
    let t = a[1].as_tiler("the tiler").map_err(|e| e.in_op("evenly_divides"))?;
    Ok(boolean(algebra::evenly_divides(&s, &t)?))
}

fn max_alignment(_: &[i64], a: &[Value]) -> Result<Value> {
    Ok(int(algebra::max_alignment(&a[0].to_layout("the layout").map_err(|e| e.in_op("max_alignment"))?)?))
}

/// A shape operand: an integer tuple, or a layout's shape.
fn shape_of(v: &Value, name: &'static str) -> Result<IntTuple> {
    match v {
        Value::Layout(l) => Ok(l.shape()),
        v => v.as_int_tuple("the shape").map_err(|e| e.in_op(name)),
    }
}

fn greatest_common_domain(_: &[i64], a: &[Value]) -> Result<Value> {
    let (x, y) = (shape_of(&a[0], "greatest_common_domain")?, shape_of(&a[1], "greatest_common_domain")?);
    Ok(lay(algebra::greatest_common_domain(&x, &y)?))
}

fn layout_add(_: &[i64], a: &[Value]) -> Result<Value> {
    let x = a[0].to_layout("the first layout").map_err(|e| e.in_op("layout_add"))?;
    let y = a[1].to_layout("the second layout").map_err(|e| e.in_op("layout_add"))?;
    Ok(lay(algebra::layout_add(&x, &y)?))
}

fn coshape(_: &[i64], a: &[Value]) -> Result<Value> {
    Ok(tuple(a[0].to_layout("the layout").map_err(|e| e.in_op("coshape"))?.coshape()?))
}

fn coprofile(_: &[i64], a: &[Value]) -> Result<Value> {
    Ok(tuple(a[0].to_layout("the layout").map_err(|e| e.in_op("coprofile"))?.coprofile()?))
}

fn elem_less(_: &[i64], a: &[Value]) -> Result<Value> {
    pair(a, |x, y| Ok(boolean(int_tuple::elem_less(x, y)?)))
}

fn lex_less(_: &[i64], a: &[Value]) -> Result<Value> {
    pair(a, |x, y| Ok(boolean(int_tuple::lex_less(x, y)?)))
}

fn colex_less(_: &[i64], a: &[Value]) -> Result<Value> {
    pair(a, |x, y| Ok(boolean(int_tuple::colex_less(x, y)?)))
}

fn weakly_congruent(_: &[i64], a: &[Value]) -> Result<Value> {
    pair(a, |x, y| Ok(boolean(int_tuple::weakly_congruent(x, y))))
}

fn compatible(_: &[i64], a: &[Value]) -> Result<Value> {
    pair(a, |x, y| Ok(boolean(int_tuple::compatible(x, y)?)))
}

fn weakly_compatible(_: &[i64], a: &[Value]) -> Result<Value> {
    pair(a, |x, y| Ok(boolean(int_tuple::weakly_compatible(x, y)?)))
}

fn shape_div(_: &[i64], a: &[Value]) -> Result<Value> {
    pair(a, |x, y| Ok(tuple(int_tuple::shape_div(x, y)?)))
}

fn elem_scale(_: &[i64], a: &[Value]) -> Result<Value> {
    pair(a, |x, y| Ok(tuple(int_tuple::elem_scale(x, y)?)))
}

fn ceil_div(_: &[i64], a: &[Value]) -> Result<Value> {
    let x = a[0].as_int_tuple("the dividend")?;
    match &a[1] {
        Value::Layout(t) => Ok(tuple(algebra::complement(t, &x).map_err(|e| e.in_op("ceil_div"))?.shape())),
        o => Ok(tuple(int_tuple::ceil_div(x.as_ref(), o.as_int_tuple("the divisor")?.as_ref())?)),
    }
}

fn prefix_product(_: &[i64], a: &[Value]) -> Result<Value> {
    Ok(tuple(int_tuple::prefix_product(a[0].as_int_tuple("the operand")?.as_ref())?))
}

fn idx2crd(_: &[i64], a: &[Value]) -> Result<Value> {
    let i = a[0].as_int_tuple("the index")?;
    let s = a[1].as_int_tuple("the shape")?;
    if let Some(d) = a.get(2) {
        let d = d.as_int_tuple("the stride")?;
        return Ok(tuple(int_tuple::idx2crd_strided(i.as_ref(), s.as_ref(), d.as_ref())?));
    }
    Ok(tuple(int_tuple::idx2crd(i.as_ref(), s.as_ref())?))
}

fn increment(_: &[i64], a: &[Value]) -> Result<Value> {
    let c = a[0].as_int_tuple("the coordinate").map_err(|e| e.in_op("increment"))?;
    let s = a[1].as_int_tuple("the shape").map_err(|e| e.in_op("increment"))?;
    Ok(tuple(int_tuple::increment(c.as_ref(), s.as_ref())?))
}

fn crd2idx(_: &[i64], a: &[Value]) -> Result<Value> {
    let c = a[0].as_int_tuple("the coordinate")?;
    if let (Value::Layout(l), 2) = (&a[1], a.len()) {
        return Ok(int(l.eval_coord(&c)?));
    }
    let s = a[1].as_int_tuple("the shape")?;
    match a.get(2) {
        Some(d) => Ok(int(int_tuple::crd2idx(c.as_ref(), s.as_ref(), d.as_int_tuple("the stride")?.as_ref())?)),
        None => Ok(int(int_tuple::crd2idx_compact(c.as_ref(), s.as_ref())?)),
    }
}

fn crd2crd(_: &[i64], a: &[Value]) -> Result<Value> {
    let c = a[0].as_int_tuple("the coordinate")?;
    let s = a[1].as_int_tuple("the source shape")?;
    let d = a[2].as_int_tuple("the target shape")?;
    Ok(tuple(int_tuple::crd2crd(c.as_ref(), s.as_ref(), d.as_ref())?))
}

/// The shape and the start (default 1) of the compact stride functions.
fn shape_start(a: &[Value]) -> Result<(IntTuple, Int)> {
    let s = a[0].as_int_tuple("the shape")?;
    let cur = match a.get(1) {
        Some(v) => v.as_int("the start")?,
        None => Int::ONE,
    };
    Ok((s, cur))
}

fn compact_col_major(_: &[i64], a: &[Value]) -> Result<Value> {
    let (s, cur) = shape_start(a)?;
    Ok(tuple(int_tuple::compact_col_major(s.as_ref(), cur)?))
}

fn compact_row_major(_: &[i64], a: &[Value]) -> Result<Value> {
    let (s, cur) = shape_start(a)?;
    Ok(tuple(int_tuple::compact_row_major(s.as_ref(), cur)?))
}

fn compact_order(_: &[i64], a: &[Value]) -> Result<Value> {
    let s = a[0].as_int_tuple("the shape")?;
    match &a[1] {
        Value::Major(Major::Left) => Ok(tuple(int_tuple::compact_col_major(s.as_ref(), Int::ONE)?)),
        Value::Major(Major::Right) => Ok(tuple(int_tuple::compact_row_major(s.as_ref(), Int::ONE)?)),
        o => Ok(tuple(int_tuple::compact_order(s.as_ref(), o.as_int_tuple("the order")?.as_ref())?)),
    }
}

// ----- the algebra -----------------------------------------------------------

fn coalesce(_: &[i64], a: &[Value]) -> Result<Value> {
    match &a[0] {
        Value::IntTuple(s) if a.len() == 1 => Ok(tuple(algebra::coalesce_shape(s)?)),
        v => {
            let l = v.to_layout("the operand")?;
            match a.get(1) {
                None => Ok(lay(algebra::coalesce(&l)?)),
                Some(p) => Ok(lay(algebra::coalesce_profile(&l, &p.as_int_tuple("the profile")?)?)),
            }
        }
    }
}

/// `filter` or `filter_zeros`, of the whole layout or mode by mode of a profile.
fn filter_with(name: &'static str, a: &[Value], f: &dyn Fn(&Layout) -> Result<Layout>) -> Result<Value> {
    let l = a[0].to_layout("the operand")?;
    match a.get(1) {
        None => Ok(lay(f(&l)?)),
        Some(p) => Ok(lay(algebra::coalesce_profile_with(&l, &p.as_int_tuple("the profile")?, name, f)?)),
    }
}

fn filter_zeros(_: &[i64], a: &[Value]) -> Result<Value> {
    filter_with("filter_zeros", a, &|l: &Layout| Ok(algebra::filter_zeros(l)))
}

fn filter(_: &[i64], a: &[Value]) -> Result<Value> {
    filter_with("filter", a, &algebra::filter)
}

fn composition(_: &[i64], a: &[Value]) -> Result<Value> {
    let l = a[0].to_layout("the left operand")?;
    match &a[1] {
        Value::Layout(b) => Ok(lay(algebra::composition(&l, b)?)),
        t => Ok(lay(algebra::composition_tiler(&l, &t.as_tiler("the right operand")?)?)),
    }
}

fn complement(_: &[i64], a: &[Value]) -> Result<Value> {
    let l = a[0].to_layout("the operand")?;
    match a.get(1) {
        None => Ok(lay(algebra::complement_self(&l)?)),
        Some(m) => Ok(lay(algebra::complement(&l, &m.as_int_tuple("the cotarget")?)?)),
    }
}

/// A function of one layout; of `_` it is `_` (CuTe's inverses pass `_` through).
fn unary(a: &[Value], f: fn(&Layout) -> Result<Layout>) -> Result<Value> {
    if let Value::Underscore = &a[0] {
        return Ok(Value::Underscore);
    }
    Ok(lay(f(&a[0].to_layout("the operand")?)?))
}

fn right_inverse(_: &[i64], a: &[Value]) -> Result<Value> {
    unary(a, algebra::right_inverse)
}

fn left_inverse(_: &[i64], a: &[Value]) -> Result<Value> {
    unary(a, algebra::left_inverse)
}

fn nullspace(_: &[i64], a: &[Value]) -> Result<Value> {
    unary(a, algebra::nullspace)
}

/// A divide or product of a layout by a tiler.
fn by_tiler(a: &[Value], f: fn(&Layout, &Tiler) -> Result<Layout>) -> Result<Value> {
    let l = a[0].to_layout("the left operand")?;
    let t = a[1].as_tiler("the tiler")?;
    Ok(lay(f(&l, &t)?))
}

fn logical_divide(_: &[i64], a: &[Value]) -> Result<Value> {
    by_tiler(a, algebra::logical_divide)
}

fn zipped_divide(_: &[i64], a: &[Value]) -> Result<Value> {
    by_tiler(a, algebra::zipped_divide)
}

fn tiled_divide(_: &[i64], a: &[Value]) -> Result<Value> {
    by_tiler(a, algebra::tiled_divide)
}

fn flat_divide(_: &[i64], a: &[Value]) -> Result<Value> {
    by_tiler(a, algebra::flat_divide)
}

fn logical_product(_: &[i64], a: &[Value]) -> Result<Value> {
    by_tiler(a, algebra::logical_product)
}

fn zipped_product(_: &[i64], a: &[Value]) -> Result<Value> {
    by_tiler(a, algebra::zipped_product)
}

fn tiled_product(_: &[i64], a: &[Value]) -> Result<Value> {
    by_tiler(a, algebra::tiled_product)
}

fn flat_product(_: &[i64], a: &[Value]) -> Result<Value> {
    by_tiler(a, algebra::flat_product)
}

/// Two layout operands.
fn layouts(a: &[Value]) -> Result<(Layout, Layout)> {
    Ok((a[0].to_layout("the left operand")?, a[1].to_layout("the right operand")?))
}

fn blocked_product(_: &[i64], a: &[Value]) -> Result<Value> {
    let (x, y) = layouts(a)?;
    Ok(lay(algebra::blocked_product(&x, &y)?))
}

fn raked_product(_: &[i64], a: &[Value]) -> Result<Value> {
    let (x, y) = layouts(a)?;
    Ok(lay(algebra::raked_product(&x, &y)?))
}

fn max_common_layout(_: &[i64], a: &[Value]) -> Result<Value> {
    let (x, y) = layouts(a)?;
    Ok(lay(algebra::max_common_layout(&x, &y)?))
}

fn max_common_vector(_: &[i64], a: &[Value]) -> Result<Value> {
    let (x, y) = layouts(a)?;
    Ok(int(algebra::max_common_vector(&x, &y)?))
}

fn tile_to_shape(_: &[i64], a: &[Value]) -> Result<Value> {
    let l = a[0].to_layout("the block")?;
    let s = a[1].as_int_tuple("the target shape")?;
    let o = match a.get(2) {
        None | Some(Value::Major(Major::Left)) => None,
        Some(Value::Major(Major::Right)) => {
            let n = s.rank() as i64;
            Some(IntTuple::tuple_of_leaves((0..n).rev().map(Int::new_static)))
        }
        Some(v) => Some(v.as_int_tuple("the order")?),
    };
    Ok(lay(algebra::tile_to_shape(&l, &s, o.as_ref())?))
}

fn upcast(t: &[i64], a: &[Value]) -> Result<Value> {
    Ok(lay(algebra::upcast(&a[0].to_layout("the operand")?, t[0])?))
}

fn downcast(t: &[i64], a: &[Value]) -> Result<Value> {
    Ok(lay(algebra::downcast(&a[0].to_layout("the operand")?, t[0])?))
}

/// The coordinate and the layout of the slicing functions.
fn coord_layout(a: &[Value]) -> Result<(crate::layout::slice::Coord, Layout)> {
    Ok((a[0].as_coord("the coordinate")?, a[1].to_layout("the layout")?))
}

fn slice(_: &[i64], a: &[Value]) -> Result<Value> {
    if let Value::IntTuple(t) = &a[1] {
        return Ok(tuple(crate::layout::slice::slice_tuple(&a[0].as_coord("the coordinate")?, t.as_ref())?));
    }
    let (c, l) = coord_layout(a)?;
    Ok(lay(l.slice(&c)?))
}

fn dice(_: &[i64], a: &[Value]) -> Result<Value> {
    if let Value::IntTuple(t) = &a[1] {
        return Ok(tuple(crate::layout::slice::dice_tuple(&a[0].as_coord("the coordinate")?, t.as_ref())?));
    }
    let (c, l) = coord_layout(a)?;
    Ok(lay(l.dice(&c)?))
}

fn domain_offset(_: &[i64], a: &[Value]) -> Result<Value> {
    let c = a[0].as_int_tuple("the coordinate").map_err(|e| e.in_op("domain_offset"))?;
    let l = a[1].to_layout("the layout").map_err(|e| e.in_op("domain_offset"))?;
    let off = l.eval_coord_point(&c).map_err(|e| e.in_op("domain_offset"))?;
    Ok(Value::Tuple(vec![lay(l), Value::from_point(off)]))
}

fn slice_and_offset(_: &[i64], a: &[Value]) -> Result<Value> {
    let (c, l) = coord_layout(a)?;
    let (s, off) = l.slice_and_offset(&c)?;
    Ok(Value::Tuple(vec![lay(s), Value::from_point(off)]))
}

// ----- coordinates of an index, recasting, by-mode transforms, PyCuTe's shapes

/// The layout and the integer index of the `get_*_coord` methods.
fn layout_index(a: &[Value], name: &'static str) -> Result<(Layout, Int)> {
    let l = a[0].to_layout("the layout").map_err(|e| e.in_op(name))?;
    let i = a[1].as_int("the index").map_err(|e| e.in_op(name))?;
    Ok((l, i))
}

fn get_hier_coord(_: &[i64], a: &[Value]) -> Result<Value> {
    let (l, i) = layout_index(a, "get_hier_coord")?;
    Ok(tuple(l.get_hier_coord(i)?))
}

fn get_flat_coord(_: &[i64], a: &[Value]) -> Result<Value> {
    let (l, i) = layout_index(a, "get_flat_coord")?;
    Ok(tuple(l.get_flat_coord(i)?))
}

fn get_1d_coord(_: &[i64], a: &[Value]) -> Result<Value> {
    let (l, i) = layout_index(a, "get_1d_coord")?;
    Ok(int(l.get_1d_coord(i)?))
}

fn recast_layout(t: &[i64], a: &[Value]) -> Result<Value> {
    let l = a[0].to_layout("the operand").map_err(|e| e.in_op("recast_layout"))?;
    Ok(lay(algebra::recast_layout(&l, t[0], t[1])?))
}

/// The modes `transform_layout` walks: a layout's, or a tuple's elements (an
/// integer and `_` are their own single mode, as `get<0>` of them in CuTe).
fn mode_values(v: &Value, what: &str) -> Result<Vec<Value>> {
    Ok(match v {
        Value::Layout(l) => l.modes().map(|m| Value::Layout(m.to_layout())).collect(),
        Value::IntTuple(t) if t.is_leaf() => vec![v.clone()],
        Value::IntTuple(t) => t.as_ref().children().map(|c| Value::IntTuple(c.to_tree())).collect(),
        Value::Coord(c) => c.as_ref().children().map(|c| coord_value(&c.to_tree())).collect::<Result<_>>()?,
        Value::Tuple(vs) => vs.clone(),
        Value::Underscore => vec![Value::Underscore],
        other => return Err(type_error(what, "a layout or a tuple", other)),
    })
}

/// A coordinate (with `_`) as the value the evaluator gives it.
fn coord_value(c: &crate::layout::slice::Coord) -> Result<Value> {
    use crate::layout::slice::Crd;
    match c.as_ref().as_leaf() {
        Some(Crd::Underscore) => Ok(Value::Underscore),
        Some(Crd::Int(n)) => Ok(int(n)),
        None => Value::tuple(c.as_ref().children().map(|x| coord_value(&x.to_tree())).collect::<Result<_>>()?),
    }
}

fn transform_layout(_: &[i64], a: &[Value]) -> Result<Value> {
    let op = "transform_layout";
    let Some((Value::Function(f), operands @ [first, ..])) = a.split_last() else {
        let f = a.last().unwrap_or(&Value::Underscore);
        return Err(type_error("the function", "a function name such as coalesce", f).in_op(op));
    };
    let modes0 = mode_values(first, "the first operand").map_err(|e| e.in_op(op))?;
    let parts = match operands.get(1) {
        None => modes0.into_iter().map(|m| call(f, &[], &[m])).collect::<Result<Vec<_>>>()?,
        Some(second) => {
            let modes1 = mode_values(second, "the second operand").map_err(|e| e.in_op(op))?;
            algebra::transform_pairs(modes0, modes1, |x, y| call(f, &[], &[x, y]), Ok, Ok)?
        }
    };
    if parts.is_empty() {
        return Err(Error::mismatch(op, format!("{first} has no modes, and make_layout needs at least one")));
    }
    // CuTe's make_layout of the parts: layouts concatenate; otherwise (f gave
    // integers) its shape and shape-stride forms apply
    if !parts.iter().any(|p| matches!(p, Value::Layout(_))) {
        return call("make_layout", &[], &parts).map_err(|e| e.in_op(op));
    }
    let layouts = parts
        .into_iter()
        .map(|p| match p {
            Value::Layout(l) => Ok(l),
            other => Err(type_error("a mode of the result", "a layout, as the others are", &other).in_op(op)),
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(lay(Layout::concat(&layouts).map_err(|e| e.in_op(op))?))
}

fn bw_coalesce(t: &[i64], a: &[Value]) -> Result<Value> {
    let old = Layout::new(&a[0].as_int_tuple("the shape")?, &a[1].as_int_tuple("the stride")?)?;
    let new = Layout::new(&a[2].as_int_tuple("the new shape")?, &a[3].as_int_tuple("the new stride")?)?;
    let i = isize::try_from(t[0]).map_err(|_| Error::mismatch("bw_coalesce", format!("mode index {}", t[0])))?;
    Ok(lay(algebra::bw_coalesce(&old, i, &new)?))
}

fn coalesce_z(_: &[i64], a: &[Value]) -> Result<Value> {
    let l = a[0].to_layout("the operand").map_err(|e| e.in_op("coalesce_z"))?;
    match a.get(1) {
        None => Ok(lay(algebra::coalesce_z(&l)?)),
        Some(p) => {
            Ok(lay(algebra::coalesce_z_profile(&l, &p.as_coord("the profile").map_err(|e| e.in_op("coalesce_z"))?)?))
        }
    }
}

fn common_refinement(_: &[i64], a: &[Value]) -> Result<Value> {
    let (x, y) = (shape_of(&a[0], "common_refinement")?, shape_of(&a[1], "common_refinement")?);
    Ok(tuple(algebra::common_refinement(&x, &y)?))
}

fn common_coarsening(_: &[i64], a: &[Value]) -> Result<Value> {
    let (x, y) = (shape_of(&a[0], "common_coarsening")?, shape_of(&a[1], "common_coarsening")?);
    Ok(tuple(algebra::common_coarsening(&x, &y)?))
}
