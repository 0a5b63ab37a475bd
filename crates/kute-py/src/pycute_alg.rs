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
pub fn flat_ints(l: &Layout) -> R<(Ints, Ints)> {
    let mut s = Ints::new();
    let mut d = Ints::new();
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
    Ok((s, d))
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
pub fn coalesce(l: &Layout) -> R<Layout> {
    let (s, d) = flat_ints(l)?;
    coalesce_flat(&s, &d)
}

fn coalesce_flat(s: &[i64], d: &[i64]) -> R<Layout> {
    let (rs, rd) = coalesce_ints(s, d)?;
    flat_layout(&rs, &rd)
}

/// [`coalesce_flat`]'s modes.
fn coalesce_ints(s: &[i64], d: &[i64]) -> R<(Ints, Ints)> {
    let (mut rs, mut rd): (Ints, Ints) = (smallvec::smallvec![1], smallvec::smallvec![0]);
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
    Ok((rs, rd))
}

/// pycute's `filter(L)` (no profile): size-1 and stride-0 modes dropped,
/// coalesced; `1:0` when none is left.
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
/// of `coalesce(A)` (with only the stride divisibility asserted). The answer
/// is built in one tree.
pub fn composition_algo(a: &Layout, b: &Layout) -> R<Layout> {
    let (a_s, a_d) = flat_ints(a)?;
    let (fs, fd) = coalesce_ints(&a_s, &a_d)?;
    let mut fail = None;
    let built = Layout::try_build_modes(|out| {
        compose_into(out, &fs, &fd, b.view(), &mut fail)
            .map_err(|()| Error::new(ErrorKind::Inadmissible, "composition", "pycute's algorithm fails"))
    });
    match (built, fail) {
        (_, Some(f)) => Err(f),
        (r, None) => Ok(r?),
    }
}

/// Adds pycute's composite of `coalesce(A)` (its modes `fs:fd`) and `b` to `out`.
fn compose_into(
    out: &mut kute::tree::Builder<'_, Mode>,
    fs: &[i64],
    fd: &[i64],
    b: kute::LayoutView<'_>,
    fail: &mut Option<Fail>,
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
            compose_into(out, fs, fd, m, fail)?;
        }
        out.close();
        return Ok(());
    }
    match compose_leaf(fs, fd, b.leaves()[0]) {
        Ok((rs, rd)) => {
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
fn compose_leaf(fs: &[i64], fd: &[i64], m: Mode) -> R<(Ints, Ints)> {
    let (b_shape, b_stride) = match m.stride.as_int() {
        Some(d) if !m.shape.is_symbolic() && !d.is_symbolic() => (m.shape.value(), d.value()),
        _ => return Err(untrue("composition", "pycute's layouts have integer strides".to_string())),
    };
    if b_stride == 0 {
        return Ok((smallvec::smallvec![b_shape], smallvec::smallvec![0]));
    }
    let (mut rs, mut rd) = (Ints::new(), Ints::new());
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
    negative_extent(&rs, &rd)?;
    Ok((rs, rd))
}

/// The most points a check evaluates one by one.
const MAX_CHECKED_POINTS: i64 = 1 << 16;

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
    let truth = kute::composition(a, b);
    match (composition_algo(a, b), truth) {
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
    let (s, d) = flat_ints(l)?;
    let mut ds: SmallVec<[(i64, i64); 16]> = d.into_iter().zip(s).collect();
    ds.sort_unstable();
    let (mut rs, mut rd) = (Ints::new(), Ints::new());
    let mut current = 1i64;
    for (stride, shape) in ds {
        if stride == 0 || shape == 1 {
            continue;
        }
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
    rs.push(floordiv("complement", add(add(max_idx, current)?, -1)?, current)?);
    rd.push(current);
    coalesce_flat(&rs, &rd)
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
    let truth = kute::complement(l, IntTuple::int_dynamic(max_idx));
    match (complement_algo(l, max_idx), truth) {
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
    for (stride, shape, rstride) in dsr {
        if shape == 1 {
            continue;
        }
        if current != stride {
            break;
        }
        rs.push(shape);
        rd.push(rstride);
        current = mul(shape, stride)?;
    }
    coalesce_flat(&rs, &rd)
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
    let p = right_inverse_algo(l)?;
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

/// pycute's left inverse, checked: `R(L(i)) == i` for `i < size(L)`.
pub fn left_inverse(l: &Layout) -> R<Layout> {
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
    let c = complement(b, size(a)?)?;
    composition(a, &make_layout(&[b.clone(), c])?)
}

/// pycute's `logical_product(A, B)` for a layout `B`:
/// `make_layout(A, composition(complement(A, size(A)*cosize(B)), B))`.
pub fn logical_product(a: &Layout, b: &Layout) -> R<Layout> {
    let c = complement(a, mul(size(a)?, cosize(b)?)?)?;
    let r = composition(&c, b)?;
    make_layout(&[a.clone(), r])
}
