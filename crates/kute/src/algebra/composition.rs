//! `composition(A, B)`: the layout `R` with `R(c) = A(B(c))`.
//!
//! kute runs CuTe's algorithm (`composition_impl`) deciding every branch by
//! value, then makes sure the answer is the true composite: CuTe checks only
//! divisibility, so for some operands it returns a layout whose values are not
//! `Â(B(i))` (`Â` = `A` coalesced, its last mode unbounded). kute proves the
//! result correct with a cheap digit-overlap test and, when that test is
//! inconclusive, by evaluating both sides point by point; a wrong result is an
//! error, never an answer.

use super::coalesce::{coalesce_modes, Modes};
use super::tiler::Tiler;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::layout::{Layout, LayoutRef, Mode};
use crate::stride::Stride;
use crate::tree::{Builder, Tree};
use smallvec::SmallVec;

/// Per mode of the coalesced `A`: the sum of the largest digits the B-leaves put there.
type Digits = SmallVec<[i64; 16]>;

/// Largest domain checked point by point when the fast admissibility test is inconclusive.
const BRUTE_FORCE_LIMIT: i64 = 1 << 22;

/// CuTe `composition(A, B)` for a layout `B`: `R(c) = A(B(c))` for every
/// coordinate `c` of `B`; `R` is compatible with `B`.
///
/// Pre: at every mode of the coalesced `A` that `B`'s strides reach, CuTe's
/// stride divisibility (`r % s == 0` or `r < s`) and shape divisibility hold, and
/// the result is the true composite. Otherwise: an [`Inadmissible`](crate::ErrorKind::Inadmissible) error.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(_20,_2):(_16,_4)".parse().unwrap();
/// let b: Layout = "(_4,_5):(_1,_4)".parse().unwrap();
/// assert_eq!(kute::composition(&a, &b).unwrap().to_string(), "(_4,_5):(_16,_64)");
/// // CuTe answers (2,2):(4,7) here, which is not the composite:
/// let a: Layout = "(6,4):(1,7)".parse().unwrap();
/// let b: Layout = "4:4".parse().unwrap();
/// assert!(kute::composition(&a, &b).is_err());
/// ```
pub fn composition(a: &Layout, b: &Layout) -> Result<Layout> {
    Layout::from_into(|out| composition_into(out, a, b))
}

/// [`composition`] written into `out` (the fastest form: no move of the
/// result). On error `out` is `_1:_0`.
///
/// ```
/// use kute::Layout;
/// let a: Layout = "(20,2):(16,4)".parse().unwrap();
/// let b: Layout = "(4,5):(1,4)".parse().unwrap();
/// let mut out = Layout::default();
/// kute::composition_into(&mut out, &a, &b).unwrap();
/// assert_eq!(out.to_string(), "(4,5):(16,64)");
/// ```
#[inline]
pub fn composition_into(out: &mut Layout, a: &Layout, b: &Layout) -> Result<()> {
    if super::fast::composition(out, a, b).is_some() {
        return Ok(());
    }
    super::general(|| {
        out.build_in(|out| compose_into(out, a.as_tree_ref(), &[Part::Tree(b.as_tree_ref())], true))
            .map_err(|e| e.in_op("composition"))
    })
}

/// CuTe `composition(A, tiler)`: a layout tiler composes as a layout, `_` leaves
/// `A` unchanged, and a by-mode tiler `<T0,T1,...>` composes mode `i` of `A` with
/// `Ti`, dropping the modes of `A` beyond the tiler.
///
/// Pre: `rank(tiler) <= rank(A)` for a by-mode tiler, and the preconditions of
/// [`composition`] for each layout.
///
/// ```
/// use kute::{Layout, Tiler};
/// let a: Layout = "(_12,(_4,_8)):(_59,(_13,_1))".parse().unwrap();
/// let t: Tiler = kute::expr::parse_tiler("<_3:_4,_8:_2>").unwrap();
/// assert_eq!(kute::composition_tiler(&a, &t).unwrap().to_string(), "(_3,(_2,_4)):(_236,(_26,_1))");
/// ```
pub fn composition_tiler(a: &Layout, t: &Tiler) -> Result<Layout> {
    Layout::from_into(|out| composition_tiler_into(out, a, t))
}

/// [`composition_tiler`] written into `out` (the fastest form: no move of the
/// result). On error `out` is `_1:_0`.
///
/// ```
/// use kute::{Layout, Tiler};
/// let a: Layout = "(12,(4,8)):(59,(13,1))".parse().unwrap();
/// let t: Tiler = kute::expr::parse_tiler("<3:4,8:2>").unwrap();
/// let mut out = Layout::default();
/// kute::composition_tiler_into(&mut out, &a, &t).unwrap();
/// assert_eq!(out.to_string(), "(3,(2,4)):(236,(26,1))");
/// ```
#[inline]
pub fn composition_tiler_into(out: &mut Layout, a: &Layout, t: &Tiler) -> Result<()> {
    if super::fast::composition_tiler(out, a, t).is_some() {
        return Ok(());
    }
    super::general(|| {
        out.build_in(|out| compose_tiler_into(out, a.as_tree_ref(), t)).map_err(|e| e.in_op("composition"))
    })
}

fn compose_tiler_into(out: &mut Builder<'_, Mode>, a: LayoutRef<'_>, t: &Tiler) -> Result<()> {
    match t {
        Tiler::Layout(b) => compose_into(out, a, &[Part::Tree(b.as_tree_ref())], true),
        Tiler::Int(n) => compose_into(out, a, &[Part::Flat(&[Mode::new(*n, Int::ONE)])], true),
        Tiler::Underscore => {
            out.push(a);
            Ok(())
        }
        Tiler::Tuple(ts) => {
            t.check_rank(a, "composition")?;
            out.open();
            for (m, ti) in a.modes().zip(ts) {
                compose_tiler_into(out, m, ti)?;
            }
            out.close();
            Ok(())
        }
    }
}

pub(crate) fn compose_layout(a: &Layout, b: &Layout) -> Result<Layout> {
    compose_checked(a, b, true)
}

/// CuTe's algorithm; with `verify`, also prove the result is the true composite.
pub(crate) fn compose_checked(a: &Layout, b: &Layout, verify: bool) -> Result<Layout> {
    Ok(Layout {
        tree: Tree::try_build(|out| {
            compose_into(out, a.as_tree_ref(), &[Part::Tree(b.as_tree_ref())], verify)?;
            Ok(())
        })?,
    })
}

/// A right operand (or part of one) of [`compose_into`]: a borrowed layout, or
/// flat modes (one mode: that integral layout; several: the tuple of them).
#[derive(Clone, Copy)]
pub(crate) enum Part<'a> {
    Tree(LayoutRef<'a>),
    Flat(&'a [Mode]),
}

impl Part<'_> {
    fn to_layout(self) -> Layout {
        match self {
            Part::Tree(t) => Layout::from_ref(t),
            Part::Flat(m) => Layout::from_flat(m),
        }
    }
}

/// `A ∘ B` written into `out` as one element, where `B` is `b[0]` if `b` has one
/// element and the tuple of the elements of `b` otherwise. With `verify`, also
/// prove the result is the true composite.
pub(crate) fn compose_into(out: &mut Builder<'_, Mode>, a: LayoutRef<'_>, b: &[Part<'_>], verify: bool) -> Result<()> {
    if let [Part::Tree(bt)] = b {
        if !bt.leaves().iter().all(|m| m.stride.is_int()) {
            return compose_basis_rhs(out, a, *bt, verify);
        }
    }
    // CuTe's coalesce_x: the trailing size-1 mode keeps its stride
    let mut lhs = Modes::new();
    coalesce_modes(&mut lhs, a.leaves(), true)?;
    compose_with(out, Part::Tree(a), &lhs[..], b, verify)
}

/// [`compose_into`] with `lhs = coalesce_x(a)` already computed (`a` is only
/// read by the point-by-point proof).
pub(crate) fn compose_with(
    out: &mut Builder<'_, Mode>,
    a: Part<'_>,
    lhs: &[Mode],
    b: &[Part<'_>],
    verify: bool,
) -> Result<()> {
    if let [l0] = lhs {
        return compose_one(out, l0.stride, b);
    }
    // for the correctness proof: per mode of A, the sum of the largest digits the B-leaves put there
    // (a plain array up to 16 modes: zeroing it is cheaper than growing a SmallVec)
    let mut digits_arr = [0i64; 16];
    let mut digits_vec: Digits = SmallVec::new();
    let digits: &mut [i64] = match digits_arr.get_mut(..lhs.len()) {
        Some(d) => d,
        None => {
            digits_vec.resize(lhs.len(), 0);
            &mut digits_vec[..]
        }
    };
    let mut clean = true;
    let mark = out.mark();
    let one = b.len() == 1;
    if !one {
        out.open();
    }
    for p in b {
        match *p {
            Part::Tree(t) => compose_rec(out, lhs, t, digits, &mut clean)?,
            Part::Flat([m]) => compose_leaf(out, lhs, m.shape, m.stride.scale_int(), digits, &mut clean)?,
            Part::Flat(ms) => {
                out.open();
                for m in ms {
                    compose_leaf(out, lhs, m.shape, m.stride.scale_int(), digits, &mut clean)?;
                }
                out.close();
            }
        }
    }
    if !one {
        out.close();
    }
    if verify && lhs.len() > 1 && !(clean && digits_fit(lhs, digits)) {
        let b = match b {
            [b] => b.to_layout(),
            _ => {
                let parts: SmallVec<[Layout; 2]> = b.iter().map(|p| p.to_layout()).collect();
                Layout::concat_unchecked(parts.iter())
            }
        };
        verify_pointwise(&a.to_layout(), lhs, &b, &Layout::from_ref(out.since(mark)))?;
    }
    Ok(())
}

/// [`compose_with`] for a left operand that coalesces to one mode of stride
/// `d`: every leaf `s:r` of `B` becomes `s:r·d` (`s:r` when `r` is 0), the
/// structure of `B` is kept, and there is nothing to prove (no carries).
///
/// (It repeats [`compose_with`]'s walk over the parts on purpose: one walker
/// taking a callback for both was 5–18% slower on the divides and products.)
#[inline]
fn compose_one(out: &mut Builder<'_, Mode>, d: Stride, b: &[Part<'_>]) -> Result<()> {
    let f = |m: Mode| -> Result<Mode> {
        if m.stride.value() == 0 {
            Ok(m)
        } else {
            Ok(Mode::with_stride(m.shape, d.scale(m.stride.scale_int())?))
        }
    };
    let one = b.len() == 1;
    if !one {
        out.open();
    }
    for p in b {
        match *p {
            Part::Tree(t) => out.push_mapped(t, f)?,
            Part::Flat([m]) => out.leaf(f(*m)?),
            Part::Flat(ms) => {
                out.open();
                for m in ms {
                    out.leaf(f(*m)?);
                }
                out.close();
            }
        }
    }
    if !one {
        out.close();
    }
    Ok(())
}

fn compose_rec(
    out: &mut Builder<'_, Mode>,
    lhs: &[Mode],
    b: LayoutRef<'_>,
    digits: &mut [i64],
    clean: &mut bool,
) -> Result<()> {
    match b.as_leaf() {
        None => {
            out.open();
            for c in b.children() {
                compose_rec(out, lhs, c, digits, clean)?;
            }
            out.close();
            Ok(())
        }
        Some(m) => compose_leaf(out, lhs, m.shape, m.stride.scale_int(), digits, clean),
    }
}

fn compose_leaf(
    out: &mut Builder<'_, Mode>,
    lhs: &[Mode],
    rs: Int,
    rd: Int,
    digits: &mut [i64],
    clean: &mut bool,
) -> Result<()> {
    if rd.value() == 0 {
        out.leaf(Mode::new(rs, rd));
        return Ok(());
    }
    let n = lhs.len();
    if n == 1 {
        out.leaf(Mode::with_stride(rs, lhs[0].stride.scale(rd)?));
        return Ok(());
    }
    if rd.value() < 0 {
        *clean = false;
    }
    // the modes go straight into `out`, inside a tuple that is dropped at the end
    // if it has a single element (CuTe returns that element itself)
    out.open();
    let mut count = 0usize;
    let (mut rest_s, mut rest_d) = (rs, rd);
    for (i, cur) in lhs[..n - 1].iter().enumerate() {
        let cs = cur.shape;
        if cs.value() == 0 {
            return Err(Error::inadmissible("composition", format!("the left operand has an extent 0 mode ({cur:?})")));
        }
        // (for a positive extent, rest_d < cs decides without the remainder, which cannot fail)
        let fits = cs.value() > 0 && rest_d.value() < cs.value();
        if !(fits || rest_d.rem(cs)?.value() == 0 || rest_d.value() < cs.value()) {
            return Err(Error::inadmissible(
                "composition",
                format!(
                    "stride divisibility condition fails: the right operand's stride {} (in units of the left operand's mode {i}) neither is a multiple of nor is less than its extent {}",
                    rest_d.value(),
                    cs.value()
                ),
            ));
        }
        let ad = rest_d.abs()?;
        let next_s = cs.ceil_div(ad)?;
        let next_d = ad.ceil_div(cs)?.mul(rest_d.signum())?;
        if next_s.value() == 1 || rest_s.value() == 1 {
            rest_d = next_d;
            continue;
        }
        let new_s = next_s.min(rest_s);
        if rest_s.rem(new_s)?.value() != 0 {
            return Err(Error::inadmissible(
                "composition",
                format!(
                    "shape divisibility condition fails: the right operand's extent {} is not divisible by {} (the part of it that fits the left operand's mode {i} of extent {})",
                    rest_s.value(),
                    new_s.value(),
                    cs.value()
                ),
            ));
        }
        // Exact digit decomposition? (CuTe accepts a non-dividing stride; it is
        // only right if this B-leaf ends inside this mode.)
        if rest_s.value() > next_s.value() && cs.value() % ad.value() != 0 {
            *clean = false;
        }
        // the largest digit value this B-leaf puts into mode i
        digits[i] = digits[i].saturating_add(new_s.value().saturating_sub(1).saturating_mul(ad.value()));
        out.leaf(Mode::with_stride(new_s, cur.stride.scale(rest_d)?));
        count += 1;
        rest_s = rest_s.div(new_s)?;
        rest_d = next_d;
    }
    if count == 0 || rest_s.value() != 1 {
        out.leaf(Mode::with_stride(rest_s, lhs[n - 1].stride.scale(rest_d)?));
        count += 1;
    }
    if count == 1 {
        out.close_unwrapping_leaf();
    } else {
        out.close();
    }
    Ok(())
}

/// No carries between B-leaves: at every bounded mode of `A`, the largest digits
/// the leaves put there add up to less than its extent.
fn digits_fit(lhs: &[Mode], digits: &[i64]) -> bool {
    (0..lhs.len() - 1).all(|k| digits[k] < lhs[k].shape.value())
}

/// `Â(x)`: `x` split over the flat modes, the last one unbounded.
fn eval_ext(lhs: &[Mode], mut x: i64) -> Option<i64> {
    let n = lhs.len();
    let mut acc: i64 = 0;
    for m in &lhs[..n - 1] {
        let s = m.shape.value();
        acc = acc.checked_add(x.checked_rem(s)?.checked_mul(m.stride.value())?)?;
        x = x.checked_div(s)?;
    }
    acc.checked_add(x.checked_mul(lhs[n - 1].stride.value())?)
}

/// `L(0), L(1), ...` over the flat leaves, without heap allocation for up to
/// 16 leaves (the proof runs on the success path, too).
struct Odometer {
    /// per leaf: extent, stride, coordinate
    digits: SmallVec<[(i64, i64, i64); 16]>,
    index: i64,
}

impl Odometer {
    fn new(l: &Layout) -> Result<Odometer> {
        // the iterator's overflow check: every index is bounded by the sum of |(s-1)·d|
        let mut bound: i64 = 0;
        for m in l.leaves() {
            let w = (m.shape.value().max(1) - 1).checked_mul(m.stride.value()).and_then(i64::checked_abs);
            bound = w
                .and_then(|w| bound.checked_add(w))
                .ok_or_else(|| Error::overflow(format_args!("the indices of {l}")).in_op("iterate"))?;
        }
        let digits = l.leaves().iter().map(|m| (m.shape.value(), m.stride.value(), 0)).collect();
        Ok(Odometer { digits, index: 0 })
    }

    /// The current index, then step to the next coordinate.
    #[inline]
    fn next_index(&mut self) -> Option<i64> {
        let out = self.index;
        for (s, d, c) in self.digits.iter_mut() {
            *c += 1;
            if *c < *s {
                self.index += *d;
                return Some(out);
            }
            self.index -= (*c - 1) * *d;
            *c = 0;
        }
        Some(out)
    }
}

/// Proves `R(i) == Â(B(i))` point by point. With basis strides in `A`, the
/// integer check runs once per basis direction of `A` (the components of `R`
/// and `Â` in that direction), which together are the whole comparison.
fn verify_pointwise(a: &Layout, lhs: &[Mode], b: &Layout, r: &Layout) -> Result<()> {
    if lhs.iter().all(|m| m.stride.is_int()) {
        return verify_ints(a, lhs, b, r, None);
    }
    // A coordinate layout has no values past its domain: where B reaches
    // beyond A's size (a tile that does not divide A), CuTe's answer holds
    // coordinates past A's shape (partial tiles, which predication relies on)
    // and only the points inside the domain are compared.
    let domain = a.size()?.value();
    let mut dirs: SmallVec<[Stride; 8]> = SmallVec::new();
    for m in lhs {
        if !dirs.iter().any(|d| d.same_direction(m.stride)) {
            dirs.push(m.stride);
        }
    }
    for dir in dirs {
        let proj = |m: Mode| {
            let d = if m.stride.same_direction(dir) { m.stride.scale_int() } else { Int::ZERO };
            Mode::new(m.shape, d)
        };
        let lhs_p: Modes = lhs.iter().map(|&m| proj(m)).collect();
        let r_p = Layout { tree: r.tree.map(proj) };
        if verify_ints(a, &lhs_p, b, &r_p, Some(domain)).is_err() {
            return Err(Error::inadmissible(
                "composition",
                format!("no layout is the composite {a} o {b}: CuTe's algorithm gives {r}, which differs from A(B(i)) in the direction of {dir}"),
            ));
        }
    }
    Ok(())
}

/// `domain`: compare only where `B(i)` lies in `[0, domain)` (coordinate layouts).
fn verify_ints(a: &Layout, lhs: &[Mode], b: &Layout, r: &Layout, domain: Option<i64>) -> Result<()> {
    let size = b.size()?.value();
    if size > BRUTE_FORCE_LIMIT {
        return Err(Error::inadmissible(
            "composition",
            format!(
                "cannot prove that the result is the composite {a} o {b}: the modes of the right operand overlap in the left operand's modes and its domain ({size} elements) is too large to check"
            ),
        ));
    }
    let mut bi = Odometer::new(b)?;
    let mut ri = Odometer::new(r)?;
    for i in 0..size.min(r.size()?.value()) {
        let (x, y) = (bi.next_index(), ri.next_index());
        let (Some(x), Some(y)) = (x, y) else { break };
        if domain.is_some_and(|n| !(0..n).contains(&x)) {
            continue;
        }
        let want = eval_ext(lhs, x).ok_or_else(|| Error::overflow(format_args!("evaluating {a} at {x}")))?;
        if want != y {
            return Err(Error::inadmissible(
                "composition",
                format!(
                    "no layout is the composite {a} o {b}: CuTe's algorithm gives {r}, whose value at {i} is {y}, but A(B({i})) = A({x}) = {want}"
                ),
            ));
        }
    }
    Ok(())
}

/// The basis strides of a right operand name the modes of `A` they select
/// (CuTe's `coprofile`): each path ends at a terminal; a path that goes through
/// another's terminal is an integer added to a tuple, which has no meaning.
#[derive(Clone)]
enum Profile {
    Unset,
    Leaf,
    Tuple(Vec<Profile>),
}

impl Profile {
    fn insert(&mut self, path: &[usize]) -> bool {
        match (path.split_first(), &mut *self) {
            (None, Profile::Unset | Profile::Leaf) => {
                *self = Profile::Leaf;
                true
            }
            (None, Profile::Tuple(_)) | (Some(_), Profile::Leaf) => false,
            (Some((&i, rest)), Profile::Unset) => {
                let mut v = vec![Profile::Unset; i + 1];
                let ok = v[i].insert(rest);
                *self = Profile::Tuple(v);
                ok
            }
            (Some((&i, rest)), Profile::Tuple(v)) => {
                if v.len() <= i {
                    v.resize(i + 1, Profile::Unset);
                }
                v[i].insert(rest)
            }
        }
    }
}

/// `A ∘ B` for a right operand with basis strides (CuTe's `composition_impl`
/// with a `ScaledBasis` stride): each leaf `s:v@p` of `B` composes `s:v` with
/// mode `p` of `A`, coalesced (`coalesce_x` at the terminals of `B`'s
/// coprofile); a zero stride stays `s:0`. With `verify`, the result is proven
/// to be the composite as for integer strides.
fn compose_basis_rhs(out: &mut Builder<'_, Mode>, a: LayoutRef<'_>, b: LayoutRef<'_>, verify: bool) -> Result<()> {
    let mut profile = Profile::Unset;
    let mut has_int = None;
    for m in b.leaves() {
        if m.stride.is_int() {
            if m.stride.value() != 0 {
                has_int = Some(m.stride);
            }
        } else if !profile.insert(&m.stride.path()) {
            return Err(Error::inadmissible(
                "composition",
                format!("the basis strides of the right operand {} do not name modes consistently: one path ends where another continues", Layout::from_ref(b)),
            ));
        }
    }
    if let Some(d) = has_int {
        return Err(Error::inadmissible(
            "composition",
            format!("the right operand {} mixes the integer stride {d} with basis strides", Layout::from_ref(b)),
        ));
    }
    // per distinct basis path: the coalesced mode of A it selects, and the digits of the proof
    struct Sub {
        path: crate::stride::BasisPath,
        lhs: Modes,
        digits: Vec<i64>,
    }
    let mut subs: Vec<Sub> = Vec::new();
    let mut clean = true;
    let mark = out.mark();
    fn rec(
        out: &mut Builder<'_, Mode>,
        a: LayoutRef<'_>,
        b: LayoutRef<'_>,
        subs: &mut Vec<Sub>,
        clean: &mut bool,
    ) -> Result<()> {
        let Some(m) = b.as_leaf() else {
            out.open();
            for c in b.children() {
                rec(out, a, c, subs, clean)?;
            }
            out.close();
            return Ok(());
        };
        let path = m.stride.path();
        let k = match subs.iter().position(|s| s.path == path) {
            Some(k) => k,
            None => {
                let mut sub = a;
                for &i in &path {
                    sub = sub.mode(i).ok_or_else(|| {
                        Error::mismatch(
                            "composition",
                            format!(
                                "the stride {} selects a mode that the left operand {} does not have",
                                m.stride,
                                Layout::from_ref(a)
                            ),
                        )
                    })?;
                }
                let mut lhs = Modes::new();
                coalesce_modes(&mut lhs, sub.leaves(), true)?;
                let digits = vec![0; lhs.len()];
                subs.push(Sub { path, lhs, digits });
                subs.len() - 1
            }
        };
        if m.stride.value() == 0 {
            out.leaf(Mode::new(m.shape, m.stride.scale_int()));
            return Ok(());
        }
        let sub = &mut subs[k];
        compose_leaf(out, &sub.lhs, m.shape, m.stride.scale_int(), &mut sub.digits, clean)
    }
    rec(out, a, b, &mut subs, &mut clean)?;
    let proven = clean && subs.iter().all(|s| s.lhs.len() <= 1 || digits_fit(&s.lhs, &s.digits));
    if verify && !proven {
        verify_points(a, b, out.since(mark))?;
    }
    Ok(())
}

/// `R(i) == A(B(i))` for every `i` in `B`'s domain, evaluated as coordinates
/// (the proof for right operands with basis strides).
fn verify_points(a: LayoutRef<'_>, b: LayoutRef<'_>, r: LayoutRef<'_>) -> Result<()> {
    let (a, b, r) = (Layout::from_ref(a), Layout::from_ref(b), Layout::from_ref(r));
    let size = b.size()?.value();
    if size > BRUTE_FORCE_LIMIT {
        return Err(Error::inadmissible(
            "composition",
            format!("cannot prove that the result is the composite {a} o {b}: its domain ({size} elements) is too large to check"),
        ));
    }
    for i in 0..size {
        let x = b.eval_point(Int::new_dynamic(i))?;
        let want = a.eval_at(&x)?;
        let got = r.eval_point(Int::new_dynamic(i))?;
        if !want.same_values(&got) {
            return Err(Error::inadmissible(
                "composition",
                format!("no layout is the composite {a} o {b}: CuTe's algorithm gives {r}, whose value at {i} is {got}, but A(B({i})) = A({x}) = {want}"),
            ));
        }
    }
    Ok(())
}
