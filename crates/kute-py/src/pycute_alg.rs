//! pycute's algorithms on kute's layouts, each answer checked by kute.
//!
//! pycute (NVIDIA's pure-Python CuTe) computes CuTe's algorithms on the
//! values of its integers, without CuTe's preconditions. `kute.pycute` must
//! answer what pycute answers, in pycute's form (which mode keeps which
//! stride, what stays a tuple), wherever that answer is the true one. So each
//! operation here runs pycute's algorithm as pycute writes it (`*_algo`), and
//! the operations whose answer can be untrue (composition, complement, the
//! inverses) then check it against kute's own algebra (`*_checked`):
//!
//! - both answer the same function: pycute's answer, in pycute's form;
//! - they differ, or kute refuses: an error that says why (kute's message,
//!   or the point where pycute's answer departs from the true one);
//! - pycute's algorithm fails (its assertion, a division by zero) and kute
//!   answers: kute's answer (pycute would raise).
//!
//! Where a sufficient condition, checked as the algorithm runs, proves that
//! the check would accept pycute's answer (composition: each leaf of B exact
//! under the divisibility conditions, no carry between the leaves; complement:
//! the modes and gaps a mixed radix), the answer is given without running
//! kute's algebra: the same answer, at a fraction of the cost
//! ([`composition_algo_exact`], [`complement_algo_exact`]).
//!
//! Integers are Python's (floor division, a remainder with the sign of the
//! divisor), in 64 bits: past them an overflow error, where Python would go on.

use crate::pycute_fmt::layout_text;
use kute::{Error, ErrorKind, Int, IntTuple, Layout, Mode};
use smallvec::SmallVec;

/// Flat integers, inline up to the leaves a layout holds inline.
pub type Ints = SmallVec<[i64; 16]>;

/// Why an operation gave no layout.
pub enum Fail {
    /// pycute's own algorithm fails here (an `assert`, a division by zero):
    /// what failed.
    Pycute(String),
    /// kute's error: the true answer does not exist or is not pycute's (the
    /// message says why), or a limit.
    Kute(Error),
}

impl From<Error> for Fail {
    fn from(e: Error) -> Fail {
        Fail::Kute(e)
    }
}

/// The result of an operation of this module.
pub type R<T> = Result<T, Fail>;

/// A failure of pycute's algorithm in `op`.
fn assert_fails(op: &str, what: impl std::fmt::Display) -> Fail {
    Fail::Pycute(format!("{op}: pycute's algorithm fails: {what}"))
}

/// An error of kute's in `op` (a `Mismatch`: the answer is not the true one).
fn untrue(op: &'static str, message: String) -> Fail {
    Fail::Kute(Error::new(ErrorKind::Inadmissible, op, message))
}

fn overflow(what: &str) -> Fail {
    Fail::Kute(Error::new(ErrorKind::Overflow, "", format!("i64 overflow in {what} (kute's integers are 64-bit)")))
}

/// `a * b`, checked.
pub fn mul(a: i64, b: i64) -> R<i64> {
    a.checked_mul(b).ok_or_else(|| overflow("a product"))
}

/// `a + b`, checked.
pub fn add(a: i64, b: i64) -> R<i64> {
    a.checked_add(b).ok_or_else(|| overflow("a sum"))
}

/// Python's `a // b` (rounded down).
pub fn floordiv(op: &str, a: i64, b: i64) -> R<i64> {
    if b == 0 {
        return Err(assert_fails(op, "integer division or modulo by zero"));
    }
    let q = a.checked_div(b).ok_or_else(|| overflow("a quotient"))?;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q.checked_sub(1).ok_or_else(|| overflow("a quotient"))
    } else {
        Ok(q)
    }
}

/// Python's `a % b` (the sign of `b`).
pub fn pymod(op: &str, a: i64, b: i64) -> R<i64> {
    let q = floordiv(op, a, b)?;
    b.checked_mul(q).and_then(|x| a.checked_sub(x)).ok_or_else(|| overflow("a remainder"))
}

/// The flat integer shapes and strides of `l`.
#[inline]
pub fn flat_ints(l: &Layout) -> R<(Ints, Ints)> {
    let (mut s, mut d) = (Ints::new(), Ints::new());
    flat_ints_into(l, &mut s, &mut d)?;
    Ok((s, d))
}

/// [`flat_ints`] into `s` and `d` (emptied first): the hot paths keep them
/// in place (a pair of them is hundreds of bytes, copied at each move).
fn flat_ints_into(l: &Layout, s: &mut Ints, d: &mut Ints) -> R<()> {
    flat_view_ints_into(l.view(), s, d)
}

/// [`flat_ints_into`] of a view (a mode read in place).
fn flat_view_ints_into(l: kute::LayoutView<'_>, s: &mut Ints, d: &mut Ints) -> R<()> {
    s.clear();
    d.clear();
    for m in l.leaves() {
        let Some(x) = m.stride.as_int() else {
            return Err(Fail::Kute(Error::new(
                ErrorKind::Type,
                "pycute",
                format!("{l} has basis strides; pycute's layouts have integer strides"),
            )));
        };
        if m.shape.is_symbolic() || x.is_symbolic() {
            return Err(Fail::Kute(Error::new(
                ErrorKind::Type,
                "pycute",
                format!("{l} is symbolic; kute.pycute takes Python ints (kute's own functions take unknowns)"),
            )));
        }
        s.push(m.shape.value());
        d.push(x.value());
    }
    Ok(())
}

/// pycute's flat form `flat_layout(s, d)` built in `out` (the storage of the
/// Python object that holds it): one mode, or a flat tuple.
pub fn build_flat(out: &mut Layout, s: &[i64], d: &[i64]) -> R<()> {
    negative_extent(s, d)?;
    out.try_build_modes_in(|b| {
        if s.len() == 1 {
            b.leaf(Mode::new(dy(s[0]), dy(d[0])));
        } else {
            b.open();
            s.iter().zip(d).for_each(|(&x, &y)| b.leaf(Mode::new(dy(x), dy(y))));
            b.close();
        }
        Ok(())
    })?;
    Ok(())
}

fn dy(v: i64) -> Int {
    Int::new_dynamic(v)
}

/// A flat tuple of ints as Python prints it.
fn py_tuple(xs: &[i64]) -> String {
    let items: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
    if xs.len() == 1 {
        format!("({},)", items[0])
    } else {
        format!("({})", items.join(", "))
    }
}

/// The error of pycute's algorithm making an extent no layout has.
fn negative_extent(s: &[i64], d: &[i64]) -> R<()> {
    if let Some(x) = s.iter().find(|&&x| x < 0) {
        return Err(untrue(
            "pycute",
            format!(
                "pycute's algorithm makes the layout {}:{}, whose extent {x} is negative; an extent is a size",
                py_tuple(s),
                py_tuple(d)
            ),
        ));
    }
    Ok(())
}

/// pycute's `Layout(tuple(shape), tuple(stride))`: always a tuple (of any rank).
#[inline]
pub fn tuple_layout(s: &[i64], d: &[i64]) -> R<Layout> {
    negative_extent(s, d)?;
    Ok(Layout::try_build_modes(|b| {
        b.open();
        s.iter().zip(d).for_each(|(&x, &y)| b.leaf(Mode::new(dy(x), dy(y))));
        b.close();
        Ok(())
    })?)
}

/// pycute's result form: `Layout(s, d)` for one mode, else the tuple.
#[inline]
pub fn flat_layout(s: &[i64], d: &[i64]) -> R<Layout> {
    if s.len() == 1 {
        negative_extent(s, d)?;
        return Ok(Layout::leaf(dy(s[0]), dy(d[0])));
    }
    tuple_layout(s, d)
}

/// pycute's `make_layout(*layouts)`: the tuple of the layouts (an error for none).
pub fn make_layout<'a>(parts: impl IntoIterator<Item = &'a Layout>) -> R<Layout> {
    let mut parts = parts.into_iter().peekable();
    if parts.peek().is_none() {
        return Err(assert_fails("make_layout", "no layouts (not enough values to unpack)"));
    }
    Ok(Layout::concat(parts)?)
}

/// pycute's `len(L)`: the rank (1 for a single mode).
pub fn rank(l: &Layout) -> usize {
    l.rank()
}

/// pycute's `L[i]`: mode `i` of a tuple layout; a single mode is its own mode 0.
pub fn mode(l: &Layout, i: usize) -> R<Layout> {
    if l.view().is_leaf() {
        if i == 0 {
            return Ok(l.clone());
        }
        return Err(assert_fails("Layout[i]", format_args!("mode {i} of the single mode {}", layout_text(l))));
    }
    if i >= l.rank() {
        return Err(assert_fails(
            "Layout[i]",
            format_args!("mode {i} of {} (tuple index out of range)", layout_text(l)),
        ));
    }
    Ok(l.mode(i)?)
}

/// pycute's `size`: the product of the shape.
pub fn size(l: &Layout) -> R<i64> {
    l.leaves().iter().try_fold(1i64, |a, m| mul(a, m.shape.value()))
}

/// pycute's `crd2idx(i, shape, stride)` of an integer `i`: the last mode
/// takes what is left (Python's `%` and `//`).
pub fn index_at(l: &Layout, i: i64) -> R<i64> {
    let (s, d) = flat_ints(l)?;
    // a flat walk is the nested one: each mode takes `i % product(mode)`
    let mut idx = i;
    let mut out = 0i64;
    for k in 0..s.len() {
        if k + 1 == s.len() {
            out = add(out, mul(idx, d[k])?)?;
        } else {
            let c = pymod("crd2idx", idx, s[k])?;
            out = add(out, mul(c, d[k])?)?;
            idx = floordiv("crd2idx", idx, s[k])?;
        }
    }
    Ok(out)
}

/// pycute's `cosize`: `L(size(L) - 1) + 1`.
pub fn cosize(l: &Layout) -> R<i64> {
    add(index_at(l, size(l)? - 1)?, 1)
}

/// pycute's `coalesce(L)` (no profile): the flat modes, size-1 modes dropped,
/// each merged into the one before when `shape * stride` continues it.
#[inline]
pub fn coalesce(l: &Layout) -> R<Layout> {
    let (s, d) = flat_ints(l)?;
    coalesce_flat(&s, &d)
}

/// [`coalesce`], built in `out` ([`build_flat`]).
pub fn coalesce_in(l: &Layout, out: &mut Layout) -> R<()> {
    // a layout of known integers and up to 16 leaves: one pass over its leaves
    // into arrays (what coalesce_into does, without the lists)
    const N: usize = 16;
    let leaves = l.leaves();
    if leaves.len() <= N {
        let (mut rs, mut rd, mut n) = ([1i64; N], [0i64; N], 1usize);
        let mut known = true;
        for m in leaves {
            let Some(y) = m.stride.as_int().filter(|y| !y.is_symbolic() && !m.shape.is_symbolic()) else {
                known = false;
                break;
            };
            let (x, y) = (m.shape.value(), y.value());
            let k = n - 1;
            if x == 1 {
                continue;
            } else if rs[k] == 1 {
                rs[k] = x;
                rd[k] = y;
            } else if rs[k].checked_mul(rd[k]) == Some(y) {
                rs[k] = mul(rs[k], x)?;
            } else {
                rs[n] = x;
                rd[n] = y;
                n += 1;
            }
        }
        if known {
            return build_flat(out, &rs[..n], &rd[..n]);
        }
    }
    let (mut s, mut d, mut rs, mut rd) = (Ints::new(), Ints::new(), Ints::new(), Ints::new());
    flat_ints_into(l, &mut s, &mut d)?;
    coalesce_into(&s, &d, &mut rs, &mut rd)?;
    build_flat(out, &rs, &rd)
}

#[inline]
fn coalesce_flat(s: &[i64], d: &[i64]) -> R<Layout> {
    let (rs, rd) = coalesce_ints(s, d)?;
    flat_layout(&rs, &rd)
}

/// [`coalesce_flat`]'s modes.
#[inline]
fn coalesce_ints(s: &[i64], d: &[i64]) -> R<(Ints, Ints)> {
    let (mut rs, mut rd) = (Ints::new(), Ints::new());
    coalesce_into(s, d, &mut rs, &mut rd)?;
    Ok((rs, rd))
}

/// [`coalesce_ints`] into `rs` and `rd` (emptied first).
fn coalesce_into(s: &[i64], d: &[i64], rs: &mut Ints, rd: &mut Ints) -> R<()> {
    rs.clear();
    rd.clear();
    rs.push(1);
    rd.push(0);
    for (&x, &y) in s.iter().zip(d) {
        let k = rs.len() - 1;
        let (ls, ld) = (rs[k], rd[k]);
        if x == 1 {
            continue;
        } else if ls == 1 {
            rs[k] = x;
            rd[k] = y;
        } else if ls.checked_mul(ld) == Some(y) {
            rs[k] = mul(ls, x)?;
        } else {
            rs.push(x);
            rd.push(y);
        }
    }
    Ok(())
}

/// pycute's `filter(L)` (no profile): size-1 and stride-0 modes dropped,
/// coalesced; `1:0` when none is left.
#[inline]
pub fn filter(l: &Layout) -> R<Layout> {
    let (s, d) = flat_ints(l)?;
    let (fs, fd): (Ints, Ints) =
        s.iter().zip(&d).filter(|(x, y)| !(**x == 1 || **y == 0)).map(|(x, y)| (*x, *y)).unzip();
    if fs.is_empty() {
        return flat_layout(&[1], &[0]);
    }
    coalesce_flat(&fs, &fd)
}

/// Whether `p` and `k` are the same function of the 1-D index on the same
/// domain: the same size and the same coalesced form (coalescing by value
/// is canonical: each mode's extent is where the run of its stride ends).
fn same_function(p: &Layout, k: &Layout) -> R<bool> {
    let (ps, pd) = flat_ints(p)?;
    let (ks, kd) = flat_ints(k)?;
    let product = |xs: &[i64]| xs.iter().try_fold(1i64, |a, &x| mul(a, x));
    if product(&ps)? != product(&ks)? {
        return Ok(false);
    }
    Ok(coalesce_ints(&ps, &pd)? == coalesce_ints(&ks, &kd)?)
}

/// pycute's `composition(A, B)` for a layout `B`, as pycute computes it: by
/// mode of `B` when its shape is a tuple, else CuTe's algorithm on the values
/// of `coalesce(A)` (with only the stride divisibility asserted); the answer
/// is built in one tree. With it, whether the answer is proved to be `A(B(i))`
/// for every `i < size(B)`, as pycute evaluates `A` (its last mode extending
/// past its size), without evaluating a point: each leaf of `B` meets the
/// divisibility under which the algorithm is exact ([`Exact`]), the leaves'
/// digits of `coalesce(A)` add without a carry, and `A`'s last mode extends
/// as `coalesce(A)`'s does wherever `B` reaches past `size(A)`.
pub fn composition_algo_exact(a: &Layout, b: &Layout) -> R<(Layout, bool)> {
    let mut r = Layout::unit();
    let holds = composition_algo_in(a, b, &mut r)?;
    Ok((r, holds))
}

/// [`composition_algo_exact`], the answer built in `r`.
fn composition_algo_in(a: &Layout, b: &Layout, r: &mut Layout) -> R<bool> {
    let mut composer = Composer::default();
    composer.start(a.view())?;
    let mut fail = None;
    let built = r.try_build_modes_in(|out| composer.compose(out, b.view(), &mut fail));
    match (built, fail) {
        (_, Some(f)) => Err(f),
        (r, None) => r.map(|()| composer.holds()).map_err(Fail::from),
    }
}

/// pycute's composition of one `A` with any number of `B`s, each written
/// into a builder, proving as it goes whether every composite so far is the
/// true one ([`Composer::holds`]).
#[derive(Default)]
pub struct Composer {
    /// A's flat extents.
    a_s: Ints,
    /// `coalesce(A)`'s extents and strides.
    fs: Ints,
    fd: Ints,
    exact: Exact,
}

impl Composer {
    /// The composer of `a` (its buffers kept in place: a composer is
    /// hundreds of bytes, copied at each move).
    ///
    /// Pre: none (a symbolic `a`, or one with basis strides, is an error).
    pub fn start(&mut self, a: kute::LayoutView<'_>) -> R<()> {
        let mut a_d = Ints::new();
        flat_view_ints_into(a, &mut self.a_s, &mut a_d)?;
        coalesce_into(&self.a_s, &a_d, &mut self.fs, &mut self.fd)?;
        self.exact.holds = self.fs.iter().all(|&x| x >= 1);
        self.exact.digits.clear();
        self.exact.digits.resize(self.fs.len(), 0);
        self.exact.reach = 0;
        Ok(())
    }

    /// Adds pycute's composite of A and `b` to `out`: an error (with the
    /// failure in `fail`) where pycute's algorithm fails.
    pub fn compose(
        &mut self,
        out: &mut kute::tree::Builder<'_, Mode>,
        b: kute::LayoutView<'_>,
        fail: &mut Option<Fail>,
    ) -> Result<(), Error> {
        compose_into(out, &self.fs, &self.fd, b, fail, &mut self.exact)
            .map_err(|()| Error::new(ErrorKind::Inadmissible, "composition", "pycute's algorithm fails"))
    }

    /// Whether each composite [`Composer::compose`] added is proved to be
    /// `A(B(i))` at every `i` (what [`composition`]'s check accepts).
    pub fn holds(&self) -> bool {
        let fs = &self.fs;
        // no carry between the leaves' digits (the last mode of coalesce(A) takes any value)
        let last = fs.len() - 1;
        let mut holds = self.exact.holds && (0..last).all(|k| self.exact.digits[k] < fs[k]);
        // past size(A), A's last mode extends as coalesce(A)'s only if it is kept (extent 2 or more)
        if holds && self.a_s.last().is_none_or(|&x| x < 2) {
            holds = self.a_s.iter().try_fold(1i64, |p, &x| p.checked_mul(x)).is_some_and(|n| self.exact.reach < n);
        }
        holds
    }
}

/// What [`compose_leaf`] proves of pycute's composite: `holds` while every
/// leaf of B so far is exact (its composite is `A(B(i))` on its own); the
/// largest value each leaf adds to each digit of `coalesce(A)`'s mixed radix,
/// summed over the leaves (`digits`); the largest index of B so far (`reach`).
#[derive(Default)]
struct Exact {
    holds: bool,
    digits: Ints,
    reach: i64,
}

/// Adds pycute's composite of `coalesce(A)` (its modes `fs:fd`) and `b` to `out`.
fn compose_into(
    out: &mut kute::tree::Builder<'_, Mode>,
    fs: &[i64],
    fd: &[i64],
    b: kute::LayoutView<'_>,
    fail: &mut Option<Fail>,
    exact: &mut Exact,
) -> Result<(), ()> {
    let mut failed = |f: Fail| {
        *fail = Some(f);
        Err(())
    };
    if !b.is_leaf() {
        if b.rank() == 0 {
            return failed(assert_fails("composition", "a B of no modes (make_layout of nothing)"));
        }
        out.open();
        for m in b.modes() {
            compose_into(out, fs, fd, m, fail, exact)?;
        }
        out.close();
        return Ok(());
    }
    let (mut rs, mut rd) = (Ints::new(), Ints::new());
    match compose_leaf(fs, fd, b.leaves()[0], exact, &mut rs, &mut rd) {
        Ok(()) => {
            if rs.len() == 1 {
                out.leaf(Mode::new(dy(rs[0]), dy(rd[0])));
            } else {
                out.open();
                rs.iter().zip(&rd).for_each(|(&x, &y)| out.leaf(Mode::new(dy(x), dy(y))));
                out.close();
            }
            Ok(())
        }
        Err(f) => failed(f),
    }
}

/// pycute's composite of `coalesce(A)` (its modes `fs:fd`) and one mode of B.
///
/// The composite is `A(B(i))` for every `i` below B's extent when B's extent
/// is at least 1, its stride at least 0, and at each mode `k` of
/// `coalesce(A)` but the last, the rest of B's stride `r` is a multiple of
/// the extent `S_k` (the mode adds nothing), or `S_k` is a multiple `q * r`
/// and the rest of B's extent `t` is at most `q` or a multiple of it (the
/// mode takes `min(q, t)` values `r * c` exactly; the index goes on with
/// stride 1 and extent `t / q`); the last mode takes what is left, as A's
/// last mode extends. `exact` records whether that holds, and the digits.
fn compose_leaf(fs: &[i64], fd: &[i64], m: Mode, exact: &mut Exact, rs: &mut Ints, rd: &mut Ints) -> R<()> {
    let (b_shape, b_stride) = match m.stride.as_int() {
        Some(d) if !m.shape.is_symbolic() && !d.is_symbolic() => (m.shape.value(), d.value()),
        _ => return Err(untrue("composition", "pycute's layouts have integer strides".to_string())),
    };
    if b_shape < 1 || b_stride < 0 {
        exact.holds = false;
    } else {
        exact.reach = exact.reach.saturating_add((b_shape - 1).saturating_mul(b_stride));
    }
    if b_stride == 0 {
        rs.push(b_shape);
        rd.push(0);
        return Ok(());
    }
    let (mut rest_shape, mut rest_stride) = (b_shape, b_stride);
    for k in 0..fs.len() - 1 {
        let (cs, cd) = (fs[k], fd[k]);
        if pymod("composition", cs, rest_stride)? != 0 && pymod("composition", rest_stride, cs)? != 0 {
            return Err(assert_fails(
                "composition",
                format_args!(
                    "the stride {rest_stride} and the extent {cs} of coalesce(A)'s mode {k} do not divide one another"
                ),
            ));
        }
        let new_shape = floordiv("composition", cs, rest_stride)?.max(1).min(rest_shape);
        if exact.holds && rest_stride > 0 && rest_stride % cs != 0 {
            // cs = q * r: this mode takes new_shape = min(q, t) values exactly if t <= q or q | t
            let q = cs / rest_stride;
            if rest_shape > q && rest_shape % q != 0 {
                exact.holds = false;
            } else {
                exact.digits[k] = exact.digits[k].saturating_add(rest_stride.saturating_mul(new_shape - 1));
            }
        }
        if new_shape != 1 {
            rs.push(new_shape);
            rd.push(mul(rest_stride, cd)?);
        }
        rest_shape = floordiv("composition", rest_shape, new_shape)?;
        rest_stride = -floordiv("composition", rest_stride.checked_neg().ok_or_else(|| overflow("a negation"))?, cs)?;
    }
    if rest_shape != 1 || rs.is_empty() {
        rs.push(rest_shape);
        rd.push(mul(rest_stride, *fd.last().unwrap_or(&0))?);
    }
    negative_extent(rs, rd)
}

/// The most points a check evaluates one by one.
pub const MAX_CHECKED_POINTS: i64 = 1 << 16;

/// Whether `r` is the composite `A o B` point by point, as pycute evaluates
/// layouts (A's last mode extending past its size, Python's `//` and `%`):
/// `None` if it is, else why not; an error past [`MAX_CHECKED_POINTS`].
fn composite_holds(a: &Layout, b: &Layout, r: &Layout) -> R<Option<String>> {
    if let Some(x) = r.leaves().iter().find(|m| m.shape.value() < 0) {
        return Ok(Some(format!("its extent {} is negative", x.shape)));
    }
    let n = size(b)?;
    if size(r)? != n {
        return Ok(Some(format!("its size is {}, B's is {n}", size(r)?)));
    }
    if n > MAX_CHECKED_POINTS {
        return Err(untrue("composition", format!("cannot check a composite of {n} points")));
    }
    for i in 0..n {
        let bi = index_at(b, i)?;
        let (want, got) = (index_at(a, bi)?, index_at(r, i)?);
        if want != got {
            return Ok(Some(format!("at {i}, A(B({i})) = A({bi}) = {want}, while it gives {got}")));
        }
    }
    Ok(None)
}

/// pycute's composition, checked: pycute's answer where it is the composite
/// (the same function as kute's, or, where they differ, `A(B(i))` point by
/// point as pycute evaluates it), else an error saying where it departs.
pub fn composition(a: &Layout, b: &Layout) -> R<Layout> {
    let algo = composition_algo_exact(a, b);
    if let Ok((_, true)) = &algo
        && size(b).is_ok_and(|n| n <= MAX_CHECKED_POINTS)
        && let Ok((p, _)) = algo
    {
        // proved to be the composite at every point: what the check below answers
        return Ok(p);
    }
    let truth = kute::composition(a, b);
    match (algo.map(|(p, _)| p), truth) {
        (Ok(p), Ok(k)) => {
            if same_function(&p, &k)? {
                return Ok(p);
            }
            match composite_holds(a, b, &p) {
                Ok(None) => Ok(p),
                Ok(Some(why)) => Err(untrue(
                    "composition",
                    format!(
                        "pycute's algorithm answers {}, which is not the composite {} o {}: {why} (A's last mode \
                         extends past its size, as in CuTe; kute's answer is {})",
                        layout_text(&p),
                        layout_text(a),
                        layout_text(b),
                        layout_text(&k.to_dynamic())
                    ),
                )),
                Err(_) => Err(untrue(
                    "composition",
                    format!(
                        "pycute's algorithm answers {}, which is not the composite {} o {} (kute's answer is {})",
                        layout_text(&p),
                        layout_text(a),
                        layout_text(b),
                        layout_text(&k.to_dynamic())
                    ),
                )),
            }
        }
        (Ok(p), Err(e)) => match composite_holds(a, b, &p) {
            Ok(None) => Ok(p),
            _ => Err(Fail::Kute(noted(e, &p))),
        },
        (Err(Fail::Pycute(m)), Ok(k)) => {
            let k = k.to_dynamic();
            match composite_holds(a, b, &k) {
                Ok(None) => Ok(k),
                _ => Err(Fail::Pycute(m)),
            }
        }
        (Err(Fail::Pycute(_)), Err(e)) => Err(Fail::Kute(e)),
        (Err(f), _) => Err(f),
    }
}

/// [`composition`], built in `out`: pycute's answer where it is proved
/// ([`composition_algo_exact`]), else the checked one.
pub fn composition_in(a: &Layout, b: &Layout, out: &mut Layout) -> R<()> {
    if let Ok(true) = composition_algo_in(a, b, out)
        && size(b).is_ok_and(|n| n <= MAX_CHECKED_POINTS)
    {
        return Ok(());
    }
    out.clone_from(&composition(a, b)?);
    Ok(())
}

/// kute's error `e`, with pycute's answer `p` named.
fn noted(e: Error, p: &Layout) -> Error {
    let op = e.op().to_string();
    Error::new(
        e.kind(),
        op,
        format!("{} (pycute's algorithm answers {}, which is not the true result)", e.message(), layout_text(p)),
    )
}

/// pycute's `complement(L, max_idx)`: the gaps between the sorted
/// `(stride, shape)` modes, then `ceil_div(max_idx, current)`, coalesced.
pub fn complement_algo(l: &Layout, max_idx: i64) -> R<Layout> {
    complement_algo_exact(l, max_idx).map(|(c, _)| c)
}

/// [`complement_algo`], and whether its answer is proved to be a complement
/// that [`complement_holds`] accepts, without enumerating the points: each
/// mode taken (stride not 0, extent not 1) has an extent of at least 2 and a
/// positive stride that is a multiple of the index reached before it, and
/// `max_idx` is at least 1. Then the modes and the gaps, in stride order,
/// are a mixed radix (each stride the product of the extents below it): one
/// to one onto `[0, n)`, `n >= max_idx`, with positive extents; proved only
/// for `n` up to [`MAX_CHECKED_POINTS`], which the check enumerates.
pub fn complement_algo_exact(l: &Layout, max_idx: i64) -> R<(Layout, bool)> {
    let (mut cs, mut cd) = (Ints::new(), Ints::new());
    let holds = complement_modes(l, max_idx, &mut cs, &mut cd)?;
    Ok((flat_layout(&cs, &cd)?, holds))
}

/// [`complement_algo_exact`]'s answer as its coalesced flat modes, in `cs` and `cd`.
fn complement_modes(l: &Layout, max_idx: i64, cs: &mut Ints, cd: &mut Ints) -> R<bool> {
    let (mut s, mut d) = (Ints::new(), Ints::new());
    flat_ints_into(l, &mut s, &mut d)?;
    let mut ds: SmallVec<[(i64, i64); 16]> = d.iter().copied().zip(s.iter().copied()).collect();
    ds.sort_unstable();
    let (mut rs, mut rd) = (s, d);
    rs.clear();
    rd.clear();
    let mut current = 1i64;
    let mut holds = max_idx >= 1;
    for (stride, shape) in ds {
        if stride == 0 || shape == 1 {
            continue;
        }
        holds &= shape >= 2 && stride >= 1 && stride % current == 0;
        let end = mul(shape, stride)?;
        if current > end {
            return Err(assert_fails(
                "complement",
                format_args!("the mode {shape}:{stride} ends at {end}, before the index {current} reached"),
            ));
        }
        rs.push(floordiv("complement", stride, current)?);
        rd.push(current);
        current = end;
    }
    let last = floordiv("complement", add(add(max_idx, current)?, -1)?, current)?;
    holds &= current.checked_mul(last).is_some_and(|n| n <= MAX_CHECKED_POINTS);
    rs.push(last);
    rd.push(current);
    coalesce_into(&rs, &rd, cs, cd)?;
    Ok(holds)
}

/// [`complement`], built in `out`: its flat modes where the answer is proved
/// ([`complement_algo_exact`]), else the checked layout.
pub fn complement_in(l: &Layout, max_idx: i64, out: &mut Layout) -> R<()> {
    let (mut cs, mut cd) = (Ints::new(), Ints::new());
    if let Ok(true) = complement_modes(l, max_idx, &mut cs, &mut cd) {
        return build_flat(out, &cs, &cd);
    }
    out.clone_from(&complement(l, max_idx)?);
    Ok(())
}

/// Whether `c` is a complement of `l` up to `m`: positive extents,
/// non-negative strides, `(l without its stride-0 and size-1 modes, c)`
/// one-to-one and reaching `m`. `None` past [`MAX_CHECKED_POINTS`] points.
fn complement_holds(l: &Layout, m: i64, c: &Layout) -> R<Option<bool>> {
    let (ls, ld) = flat_ints(l)?;
    let (cs, cd) = flat_ints(c)?;
    if cs.iter().any(|&x| x < 1) || cd.iter().any(|&x| x < 0) {
        return Ok(Some(false));
    }
    let modes: Vec<(i64, i64)> = ls
        .iter()
        .zip(&ld)
        .filter(|(s, d)| **d != 0 && **s != 1)
        .map(|(s, d)| (*s, *d))
        .chain(cs.into_iter().zip(cd))
        .collect();
    // how far the modes reach: the largest extent * stride
    let mut reach = 1i64;
    for (s, d) in &modes {
        reach = reach.max(s.saturating_mul(*d));
    }
    let mut n = 1i64;
    for (s, _) in &modes {
        n = n.saturating_mul(*s);
        if n > MAX_CHECKED_POINTS {
            return Ok(None);
        }
    }
    let mut values: Vec<i64> = vec![0];
    for (s, d) in modes {
        let mut next = Vec::with_capacity(values.len() * s as usize);
        for k in 0..s {
            for v in &values {
                next.push(add(*v, mul(k, d)?)?);
            }
        }
        values = next;
    }
    values.sort_unstable();
    let distinct = values.windows(2).all(|w| w[0] != w[1]);
    Ok(Some(distinct && reach >= m))
}

/// pycute's complement, checked: pycute's answer where it is a complement
/// (kute's, or one by [`complement_holds`]), else an error saying why.
pub fn complement(l: &Layout, max_idx: i64) -> R<Layout> {
    let algo = complement_algo_exact(l, max_idx);
    if let Ok((p, true)) = algo {
        // proved a complement that the check below accepts
        return Ok(p);
    }
    let truth = kute::complement(l, IntTuple::int_dynamic(max_idx));
    match (algo.map(|(p, _)| p), truth) {
        (Ok(p), Ok(k)) => {
            if same_function(&p, &k)? || complement_holds(l, max_idx, &p)? == Some(true) {
                return Ok(p);
            }
            Err(untrue(
                "complement",
                format!(
                    "pycute's algorithm answers {} for the complement of {} up to {max_idx}; the complement is {}",
                    layout_text(&p),
                    layout_text(l),
                    layout_text(&k.to_dynamic())
                ),
            ))
        }
        (Ok(p), Err(e)) => match complement_holds(l, max_idx, &p)? {
            Some(true) => Ok(p),
            _ => Err(Fail::Kute(noted(e, &p))),
        },
        (Err(Fail::Pycute(m)), Ok(k)) => {
            let k = k.to_dynamic();
            match complement_holds(l, max_idx, &k)? {
                Some(false) => Err(Fail::Pycute(m)),
                _ => Ok(k),
            }
        }
        (Err(Fail::Pycute(_)), Err(e)) => Err(Fail::Kute(e)),
        (Err(f), _) => Err(f),
    }
}

/// pycute's `right_inverse(L)`: from stride 1, the modes (sorted by stride)
/// that continue one another, each taking its place in L's domain; it stops
/// at the first that does not.
pub fn right_inverse_algo(l: &Layout) -> R<Layout> {
    Ok(right_inverse_algo_exact(l)?.0)
}

/// [`right_inverse_algo`], and whether its answer is proved to be what the
/// check of [`right_inverse`] accepts, without evaluating a point: the
/// algorithm took every mode of extent other than 1, each of extent at least
/// 2. The taken modes' strides are then 1, `s1`, `s1*s2`, ... (each the
/// product of the extents before it): a mixed radix, so `L` is a bijection of
/// `[0, n)`, `n` its size, and `R`, which sends each digit to its mode's place
/// in `L`'s domain, is its inverse there: `L(R(i)) == i` for `i < n`, and no
/// right inverse is larger than `n` (`L` takes at most `n` values).
pub fn right_inverse_algo_exact(l: &Layout) -> R<(Layout, bool)> {
    let (s, d) = flat_ints(l)?;
    let mut prefix = Ints::new();
    let mut acc = 1i64;
    for &x in &s {
        prefix.push(acc);
        acc = mul(acc, x)?;
    }
    let mut dsr: SmallVec<[(i64, i64, i64); 16]> =
        d.iter().zip(&s).zip(&prefix).map(|((&a, &b), &c)| (a, b, c)).collect();
    dsr.sort_unstable();
    let (mut rs, mut rd) = (Ints::new(), Ints::new());
    let mut current = 1i64;
    let mut all = true;
    for (stride, shape, rstride) in dsr {
        if shape == 1 {
            continue;
        }
        if current != stride {
            all = false;
            break;
        }
        all &= shape >= 2;
        rs.push(shape);
        rd.push(rstride);
        current = mul(shape, stride)?;
    }
    Ok((coalesce_flat(&rs, &rd)?, all))
}

/// Whether `outer o inner` is the identity on `[0, n)`: by kute's
/// composition, else point by point (up to 2^16 points); the first point
/// where it is not, if any.
fn identity_on(outer: &Layout, inner: &Layout, n: i64) -> R<Option<(i64, i64)>> {
    let (_, inner_strides) = flat_ints(inner)?;
    if inner_strides.iter().all(|&d| d >= 0)
        && let Ok(c) = kute::composition(outer, inner)
        && same_function(&c, &flat_layout(&[n], &[1])?)?
    {
        return Ok(None);
    }
    if n > MAX_CHECKED_POINTS {
        return Err(untrue("pycute", format!("cannot check {outer} o {inner} against the identity on {n} points")));
    }
    for i in 0..n {
        let v = index_at(outer, index_at(inner, i)?)?;
        if v != i {
            return Ok(Some((i, v)));
        }
    }
    Ok(None)
}

/// pycute's right inverse, checked: `L(R(i)) == i` for `i < size(R)`, and
/// `R` as large as kute's (the largest right inverse).
pub fn right_inverse(l: &Layout) -> R<Layout> {
    let (p, proved) = right_inverse_algo_exact(l)?;
    if proved {
        return Ok(p);
    }
    let n = size(&p)?;
    if let Some((i, v)) = identity_on(l, &p, n)? {
        return Err(untrue(
            "right_inverse",
            format!("pycute's algorithm answers {}, but L(R({i})) = {v}, not {i}", layout_text(&p)),
        ));
    }
    if let Ok(k) = kute::right_inverse(l)
        && size(&k)? > n
        && identity_on(l, &k.to_dynamic(), size(&k)?)?.is_none()
    {
        return Err(untrue(
            "right_inverse",
            format!(
                "pycute's algorithm answers {} (size {n}), a right inverse of {} but not the largest: {} (size {}); \
                 pycute stops at the first mode, in stride order, that does not continue the ones before (a stride-0 or \
                 size-1 mode, a gap)",
                layout_text(&p),
                layout_text(l),
                layout_text(&k.to_dynamic()),
                size(&k)?
            ),
        ));
    }
    Ok(p)
}

/// pycute's `left_inverse(L)`: `right_inverse(make_layout(L, complement(L)))`.
pub fn left_inverse_algo(l: &Layout) -> R<Layout> {
    let c = complement_algo(l, 1)?;
    right_inverse_algo(&make_layout(&[l.clone(), c])?)
}

/// [`left_inverse_algo`], and whether its answer is proved to be a left
/// inverse: [`right_inverse_algo_exact`] proves `R` the inverse of the
/// bijection `M = (L, complement(L))` of `[0, size(M))`, so `R(M(x)) == x`
/// there, and `L(i) == M(i)` for `i < size(L)` (the complement's coordinate
/// 0): `R(L(i)) == i`.
pub fn left_inverse_algo_exact(l: &Layout) -> R<(Layout, bool)> {
    let c = complement_algo(l, 1)?;
    right_inverse_algo_exact(&make_layout(&[l.clone(), c])?)
}

/// pycute's left inverse, checked: `R(L(i)) == i` for `i < size(L)`
/// (without evaluating a point where [`left_inverse_algo_exact`] proves it).
pub fn left_inverse(l: &Layout) -> R<Layout> {
    if let Ok((p, true)) = left_inverse_algo_exact(l) {
        return Ok(p);
    }
    match left_inverse_algo(l) {
        Ok(p) => {
            let n = size(l)?;
            match identity_on(&p, l, n)? {
                None => Ok(p),
                Some((i, v)) => {
                    let why = match kute::left_inverse(l) {
                        Err(e) => format!(" ({})", e.message()),
                        Ok(_) => String::new(),
                    };
                    Err(untrue(
                        "left_inverse",
                        format!(
                            "pycute's algorithm answers {}, but R(L({i})) = {v}, not {i}: it is no left inverse of {}{why}",
                            layout_text(&p),
                            layout_text(l)
                        ),
                    ))
                }
            }
        }
        Err(Fail::Pycute(m)) => {
            let k = kute::left_inverse(l)?.to_dynamic();
            if k.leaves().iter().any(|m| m.shape.value() < 0) {
                return Err(Fail::Pycute(m));
            }
            match identity_on(&k, l, size(l)?) {
                Ok(None) => Ok(k),
                _ => Err(Fail::Pycute(m)),
            }
        }
        Err(f) => Err(f),
    }
}

/// pycute's `logical_divide(A, B)` for a layout `B`:
/// `composition(A, make_layout(B, complement(B, size(A))))`.
pub fn logical_divide(a: &Layout, b: &Layout) -> R<Layout> {
    let mut out = Layout::unit();
    logical_divide_in(a, b, &mut out)?;
    Ok(out)
}

/// [`logical_divide`], built in `out`.
pub fn logical_divide_in(a: &Layout, b: &Layout, out: &mut Layout) -> R<()> {
    let c = complement(b, size(a)?)?;
    composition_in(a, &make_layout([b, &c])?, out)
}

/// pycute's `logical_product(A, B)` for a layout `B`:
/// `make_layout(A, composition(complement(A, size(A)*cosize(B)), B))`.
pub fn logical_product(a: &Layout, b: &Layout) -> R<Layout> {
    let mut out = Layout::unit();
    logical_product_in(a, b, &mut out)?;
    Ok(out)
}

/// [`logical_product`], built in `out`.
pub fn logical_product_in(a: &Layout, b: &Layout, out: &mut Layout) -> R<()> {
    let c = complement(a, mul(size(a)?, cosize(b)?)?)?;
    let mut r = Layout::unit();
    composition_in(&c, b, &mut r)?;
    out.clone_from(&make_layout([a, &r])?);
    Ok(())
}
