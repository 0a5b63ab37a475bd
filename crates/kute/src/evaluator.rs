//! Fast repeated evaluation of one layout: [`Evaluator`] precomputes, per mode,
//! a division by multiplication ([`FastDivmod`], as CuTe DSL's `FastDivmod`:
//! multiply-high and shift instead of `/` and `%`).

use crate::error::Result;
use crate::layout::{Layout, Mode};
use smallvec::SmallVec;

/// Division of non-negative integers below 2^62 by a fixed divisor `d >= 2`:
/// `n / d == mulhi(n, m) >> s` for a precomputed `m` (Granlund–Montgomery,
/// round-up variant), exact for every `n < 2^62`.
///
/// ```
/// use kute::evaluator::FastDivmod;
/// let f = FastDivmod::new(7).unwrap();
/// assert_eq!(f.divmod(100), (14, 2));
/// assert_eq!(f.quotient((1 << 62) - 1), ((1u64 << 62) - 1) / 7);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FastDivmod {
    divisor: u64,
    multiplier: u64,
    shift: u32,
}

impl FastDivmod {
    /// Largest dividend (exclusive) for which the division is exact.
    pub const LIMIT: u64 = 1 << 62;

    /// The divider for `d`; `None` unless `2 <= d < 2^62`.
    ///
    /// Pre: none. Post: `Some` iff `2 <= d < 2^62`; then `quotient(n) == n / d`
    /// for every `n < 2^62`.
    ///
    /// ```
    /// use kute::evaluator::FastDivmod;
    /// assert!(FastDivmod::new(1).is_none());
    /// assert!(FastDivmod::new(1 << 62).is_none());
    /// assert_eq!(FastDivmod::new(10).unwrap().quotient(12345), 1234);
    /// ```
    pub fn new(d: u64) -> Option<FastDivmod> {
        if !(2..Self::LIMIT).contains(&d) {
            return None;
        }
        // l = ceil(log2 d) >= 1; total shift t = max(62 + l, 64) so that
        // n < 2^(t - l) covers every n < 2^62, and m = ceil(2^t / d) <= 2^63.
        let l = 64 - (d - 1).leading_zeros();
        let t = (62 + l).max(64);
        let m = (1u128 << t).div_ceil(d as u128);
        let multiplier = u64::try_from(m).ok()?;
        Some(FastDivmod { divisor: d, multiplier, shift: t - 64 })
    }

    /// The divisor.
    ///
    /// Pre: none. Post: the `d` given to [`FastDivmod::new`].
    ///
    /// ```
    /// assert_eq!(kute::evaluator::FastDivmod::new(7).unwrap().divisor(), 7);
    /// ```
    #[inline]
    pub fn divisor(self) -> u64 {
        self.divisor
    }

    /// `n / d` for `n < 2^62` (larger `n` give unspecified results).
    ///
    /// Pre: `n < 2^62` (else the result is unspecified; no panic).
    /// Post: `n / d`, rounded down.
    ///
    /// ```
    /// let f = kute::evaluator::FastDivmod::new(3).unwrap();
    /// assert_eq!(f.quotient(10), 3);
    /// assert_eq!(f.quotient(0), 0);
    /// ```
    #[inline(always)]
    pub fn quotient(self, n: u64) -> u64 {
        (((n as u128) * (self.multiplier as u128)) >> 64) as u64 >> self.shift
    }

    /// `(n / d, n % d)` for `n < 2^62`.
    ///
    /// Pre: `n < 2^62` (else the result is unspecified; no panic).
    /// Post: `(n / d, n % d)`.
    ///
    /// ```
    /// assert_eq!(kute::evaluator::FastDivmod::new(6).unwrap().divmod(45), (7, 3));
    /// ```
    #[inline(always)]
    pub fn divmod(self, n: u64) -> (u64, u64) {
        let q = self.quotient(n);
        (q, n - q * self.divisor)
    }
}

/// Entries of one digit table (2 KiB): a group of consecutive coalesced modes
/// whose extents multiply to at most this is evaluated by one table lookup.
const TABLE: usize = 256;

type Table = Box<[i64; TABLE]>;

/// Division by a digit's extent: shift and mask for a power of two, else [`FastDivmod`].
#[derive(Clone, Copy, Debug)]
struct Div {
    fast: FastDivmod,
    shift: u32,
    mask: u64,
    pow2: bool,
}

impl Div {
    fn new(b: u64) -> Option<Div> {
        Some(Div {
            fast: FastDivmod::new(b)?,
            shift: b.trailing_zeros(),
            mask: b.wrapping_sub(1),
            pow2: b.is_power_of_two(),
        })
    }

    #[inline(always)]
    fn divmod(&self, n: u64) -> (u64, u64) {
        if self.pow2 {
            (n >> self.shift, n & self.mask)
        } else {
            self.fast.divmod(n)
        }
    }
}

/// One digit's contribution `L_group(r)`: a table, or `r * stride` for a single mode too long for one.
#[derive(Clone, Debug)]
struct Contrib {
    table: Option<Table>,
    stride: i64,
}

impl Contrib {
    #[inline(always)]
    fn get(&self, r: u64) -> i64 {
        match &self.table {
            // r < TABLE by construction; the mask only spares the bounds check
            Some(t) => t[r as usize & (TABLE - 1)],
            None => (r as i64).wrapping_mul(self.stride),
        }
    }
}

#[derive(Clone, Debug)]
struct Digit {
    div: Div,
    contrib: Contrib,
}

/// How the in-domain coordinates are evaluated.
#[derive(Clone, Debug)]
enum Plan {
    /// No fast path: every coordinate goes to [`Layout::eval`].
    Slow,
    /// `L(i) = last(i)`.
    One(Contrib),
    /// `L(i) = lo(i % B) + last(i / B)`.
    Two(Digit, Contrib),
    /// Mixed radix over several digits.
    Many(SmallVec<[Digit; 4]>, Contrib),
}

/// A layout prepared for fast evaluation of `L(i)` at many 1-D coordinates.
///
/// Every answer is exactly [`Layout::eval`]'s (value or error). The fast path
/// covers the coordinates `0 <= i < size(L)` of a layout with positive
/// extents, `size(L) < 2^62` and `sum (s-1)|d| <= i64::MAX` over its leaves
/// (so that no index there, nor any partial sum, overflows; checked once, at
/// construction). There it evaluates the coalesced layout (the same function
/// on the domain), split into mixed-radix digits: consecutive modes whose
/// extents multiply to at most 256 share one digit, looked up in a precomputed
/// table; the digits are separated with one [`FastDivmod`] (multiply-high and
/// shift, exact below `2^62`) or a shift and a mask for powers of two each, and
/// the last digit is not divided. Every other coordinate (negative, past the
/// size), and every coordinate of a layout outside those bounds, goes to
/// [`Layout::eval`], checked.
///
/// ```
/// use kute::Layout;
/// let l: Layout = "((8,3),(4,5)):((1,96),(8,32))".parse().unwrap();
/// let e = l.evaluator().unwrap();
/// for i in -3..130 {
///     assert_eq!(e.eval(i).unwrap(), l.eval(i).unwrap());
/// }
/// ```
#[derive(Clone, Debug)]
pub struct Evaluator {
    /// fast path for `0 <= i < size` (0 when the fast path is unavailable)
    size: u64,
    plan: Plan,
    layout: Layout,
}

/// A flat leaf's extent and stride as plain integers: the one place this file
/// reads a [`Mode`], so that a change of its field types touches
/// nothing else here.
#[inline]
fn leaf(m: &Mode) -> (i64, i64) {
    (m.shape.value(), m.stride.value())
}

/// The table of a group of flat modes `(extent, stride)` (product of extents
/// `<= TABLE`), colexicographic.
fn table_of(modes: &[(u64, i64)]) -> Table {
    let mut t: Table = Box::new([0; TABLE]);
    let mut n = 1usize;
    for &(s, d) in modes {
        let s = s as usize;
        // t[j + n*k] = t[j] + k*d, filled from the top so t[j] is read before it is overwritten
        for k in (0..s).rev() {
            for j in 0..n {
                t[j + n * k] = t[j].wrapping_add((k as i64).wrapping_mul(d));
            }
        }
        n *= s;
    }
    t
}

/// Whether the fast path may evaluate `layout` in `0 <= i < size`: positive
/// extents, `0 < size < 2^62` (the range of [`FastDivmod`]) and the largest
/// `|L(i)|` there, bounded by `sum (s-1)|d|`, an `i64`. Under this bound every
/// partial sum of the evaluation fits, so the fast path's unchecked arithmetic
/// is exact and [`Layout::eval`] succeeds on the whole domain.
fn fast_path_fits(layout: &Layout, size: i64) -> bool {
    let mut bound: i64 = 0;
    for m in layout.leaves() {
        let (s, d) = leaf(m);
        let w = if s > 0 { (s - 1).checked_mul(d).and_then(i64::checked_abs) } else { None };
        match w.and_then(|w| bound.checked_add(w)) {
            Some(b) => bound = b,
            None => return false,
        }
    }
    size > 0 && (size as u64) < FastDivmod::LIMIT
}

impl Evaluator {
    /// Prepare `layout` for evaluation. Fails only for basis strides, or when
    /// the size does not fit in `i64` (as [`Layout::size`]). Layouts outside the
    /// fast path (size `0` or `>= 2^62`, a non-positive extent, or indices whose
    /// magnitude could exceed `i64`) are evaluated with [`Layout::eval`] everywhere.
    ///
    /// Pre: every stride is an integer (else an `Inadmissible` error) and the
    /// size fits in `i64` (else an `Overflow` error).
    /// Post: `eval(i) == layout.eval(i)` for every `i` (values and errors).
    ///
    /// ```
    /// use kute::Layout;
    /// let l: Layout = "(4,1152921504606846976):(1,4)".parse().unwrap(); // size 2^62
    /// let e = l.evaluator().unwrap(); // beyond the fast path; still exact
    /// assert_eq!(e.eval(3 << 40).unwrap(), 3 << 40);
    /// assert!("(4611686018427387904,2):(1,1)".parse::<Layout>().unwrap().evaluator().is_err()); // size 2^63
    /// ```
    pub fn new(layout: &Layout) -> Result<Evaluator> {
        crate::sym::refuse("evaluator", || layout.has_symbols())?;
        layout.int_strides("evaluate")?;
        let size = layout.size()?.value();
        let slow = || Evaluator { size: 0, plan: Plan::Slow, layout: layout.clone() };
        if !fast_path_fits(layout, size) {
            return Ok(slow());
        }
        // Coalescing keeps the function on the domain and merges the leaves
        // that need no division between them. It cannot overflow under the
        // bound above; should it fail anyway, the slow path is still exact.
        let Ok(coalesced) = crate::algebra::coalesce(layout) else { return Ok(slow()) };
        // extents are positive and multiply to `size` (< 2^62), so no product
        // of some of them below overflows
        let cm: SmallVec<[(u64, i64); 8]> = coalesced
            .leaves()
            .iter()
            .map(|m| {
                let (s, d) = leaf(m);
                (s as u64, d)
            })
            .collect();
        if cm.iter().try_fold(1u64, |p, m| p.checked_mul(m.0)) != Some(size as u64) {
            return Ok(slow());
        }
        // Group the coalesced modes into digits.
        let k = cm.len();
        let mut digits: SmallVec<[Digit; 4]> = SmallVec::new();
        let mut start = 0;
        let last = loop {
            let rest: u64 = cm[start..].iter().map(|m| m.0).product();
            if rest as usize <= TABLE {
                // the rest of the domain fits one table (the last mode is bounded in the domain)
                break Contrib { table: Some(table_of(&cm[start..])), stride: 0 };
            }
            if start == k - 1 {
                // the last digit needs no division: its quotient is below its extent
                break Contrib { table: None, stride: cm[k - 1].1 };
            }
            let mut end = start + 1;
            let mut b = cm[start].0;
            while end < k - 1 && b * cm[end].0 <= TABLE as u64 {
                b *= cm[end].0;
                end += 1;
            }
            let contrib = if b as usize <= TABLE {
                Contrib { table: Some(table_of(&cm[start..end])), stride: 0 }
            } else {
                Contrib { table: None, stride: cm[start].1 }
            };
            let Some(div) = Div::new(b) else { return Ok(slow()) };
            digits.push(Digit { div, contrib });
            start = end;
        };
        let plan = match digits.len() {
            0 => Plan::One(last),
            1 => Plan::Two(digits.pop().expect("one digit"), last),
            _ => Plan::Many(digits, last),
        };
        Ok(Evaluator { size: size as u64, plan, layout: layout.clone() })
    }

    /// The layout.
    ///
    /// Pre: none. Post: the layout the evaluator was built for.
    ///
    /// ```
    /// let l: kute::Layout = "(4,2):(2,1)".parse().unwrap();
    /// assert_eq!(l.evaluator().unwrap().layout(), &l);
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// `L(i)`, exactly as [`Layout::eval`].
    ///
    /// Pre: as [`Layout::eval`] (its errors are returned).
    /// Post: `self.layout().eval(i)`.
    ///
    /// ```
    /// let l: kute::Layout = "(4,2):(2,1)".parse().unwrap();
    /// let e = l.evaluator().unwrap();
    /// assert_eq!(e.eval(5).unwrap(), 3); // 5 -> (1,1) -> 2 + 1
    /// assert_eq!(e.eval(9).unwrap(), l.eval(9).unwrap()); // past the size
    /// ```
    #[inline(always)]
    pub fn eval(&self, i: i64) -> Result<i64> {
        if (i as u64) < self.size {
            Ok(self.eval_in_domain(i as u64))
        } else {
            self.layout.eval(i)
        }
    }

    /// `L(i)` for every coordinate `i` of `coords`, in order, passed to `f`: the
    /// same values as [`Evaluator::eval`], with the choice of method made once for
    /// the whole loop rather than at every coordinate. Stops at the first error.
    ///
    /// Pre: as [`Layout::eval`] for each coordinate.
    /// Post: `f` got `L(i)` for every `i`, in order, up to the first error, which
    /// is returned.
    ///
    /// ```
    /// use kute::Layout;
    /// let l: Layout = "(3,(2,4)):(8,(1,2))".parse().unwrap();
    /// let mut v = Vec::new();
    /// l.evaluator().unwrap().for_each([0, 1, 5, 23, 24, -1], |x| v.push(x)).unwrap();
    /// assert_eq!(v, [0, 8, 17, 23, 8, -8]);
    /// ```
    #[inline]
    pub fn for_each<I: IntoIterator<Item = i64>>(&self, coords: I, f: impl FnMut(i64)) -> Result<()> {
        self.dispatch(EachOf { ev: self, coords, f })
    }

    /// [`Evaluator::for_each`] over a range of coordinates: each `L(i)` is still
    /// evaluated on its own, but the domain check is made once for the range and
    /// the loop is unrolled.
    ///
    /// Pre: as [`Evaluator::for_each`]. Post: as [`Evaluator::for_each`] over
    /// `coords` (nothing for an empty range).
    ///
    /// ```
    /// use kute::Layout;
    /// let l: Layout = "(3,(2,4)):(8,(1,2))".parse().unwrap();
    /// let mut v = Vec::new();
    /// l.evaluator().unwrap().for_each_in(-1..26, |x| v.push(x)).unwrap();
    /// let want: Vec<i64> = (-1..26).map(|i| l.eval(i).unwrap()).collect();
    /// assert_eq!(v, want);
    /// ```
    #[inline]
    pub fn for_each_in(&self, coords: std::ops::Range<i64>, f: impl FnMut(i64)) -> Result<()> {
        self.dispatch(EachIn { ev: self, coords, f })
    }

    /// Run `body` with the in-domain evaluation chosen for the plan, as a
    /// monomorphic function.
    #[inline(always)]
    fn dispatch<B: Body>(&self, body: B) -> B::Out {
        match &self.plan {
            Plan::One(last) => {
                let (t, s) = (last.table.as_deref(), last.stride);
                match t {
                    Some(_) => body.run(move |n| Tab::get(t, s, n)),
                    None => body.run(move |n| Mul::get(t, s, n)),
                }
            }
            Plan::Two(d, last) => match (d.div.pow2, d.contrib.table.is_some(), last.table.is_some()) {
                // table digits of a power-of-two extent: shift by a constant
                (true, true, true) => match d.div.shift {
                    1 => body.run(two::<Pow2K<1>, Tab, Tab>(d, last)),
                    2 => body.run(two::<Pow2K<2>, Tab, Tab>(d, last)),
                    3 => body.run(two::<Pow2K<3>, Tab, Tab>(d, last)),
                    4 => body.run(two::<Pow2K<4>, Tab, Tab>(d, last)),
                    5 => body.run(two::<Pow2K<5>, Tab, Tab>(d, last)),
                    6 => body.run(two::<Pow2K<6>, Tab, Tab>(d, last)),
                    7 => body.run(two::<Pow2K<7>, Tab, Tab>(d, last)),
                    8 => body.run(two::<Pow2K<8>, Tab, Tab>(d, last)),
                    _ => body.run(two::<Pow2, Tab, Tab>(d, last)),
                },
                (true, true, false) => body.run(two::<Pow2, Tab, Mul>(d, last)),
                (true, false, true) => body.run(two::<Pow2, Mul, Tab>(d, last)),
                (true, false, false) => body.run(two::<Pow2, Mul, Mul>(d, last)),
                (false, true, true) => body.run(two::<Fast, Tab, Tab>(d, last)),
                (false, true, false) => body.run(two::<Fast, Tab, Mul>(d, last)),
                (false, false, true) => body.run(two::<Fast, Mul, Tab>(d, last)),
                (false, false, false) => body.run(two::<Fast, Mul, Mul>(d, last)),
            },
            Plan::Many(..) | Plan::Slow => body.run(|n| self.eval_in_domain(n)),
        }
    }

    #[inline(always)]
    fn eval_in_domain(&self, n: u64) -> i64 {
        match &self.plan {
            Plan::One(last) => last.get(n),
            Plan::Two(d, last) => {
                let (q, r) = d.div.divmod(n);
                d.contrib.get(r).wrapping_add(last.get(q))
            }
            Plan::Many(ds, last) => {
                let mut n = n;
                let mut acc: i64 = 0;
                for d in ds {
                    let (q, r) = d.div.divmod(n);
                    acc = acc.wrapping_add(d.contrib.get(r));
                    n = q;
                }
                acc.wrapping_add(last.get(n))
            }
            Plan::Slow => unreachable_slow(),
        }
    }
}

/// `L(n) = lo(n % B) + hi(n / B)` with the methods fixed by the types.
#[inline(always)]
fn two<'a, D: DivKind, C: ContribKind, L: ContribKind>(d: &'a Digit, last: &'a Contrib) -> impl Fn(u64) -> i64 + 'a {
    let div = d.div;
    let (lo, lo_stride) = (d.contrib.table.as_deref(), d.contrib.stride);
    let (hi, hi_stride) = (last.table.as_deref(), last.stride);
    move |n| {
        let (q, r) = D::divmod(&div, n);
        C::get(lo, lo_stride, r).wrapping_add(L::get(hi, hi_stride, q))
    }
}

/// A loop that uses an in-domain evaluation `get(n)` (for `0 <= n < size`).
trait Body {
    type Out;
    fn run<G: Fn(u64) -> i64>(self, get: G) -> Self::Out;
}

struct EachOf<'a, I, F> {
    ev: &'a Evaluator,
    coords: I,
    f: F,
}

impl<I: IntoIterator<Item = i64>, F: FnMut(i64)> Body for EachOf<'_, I, F> {
    type Out = Result<()>;
    #[inline(always)]
    fn run<G: Fn(u64) -> i64>(mut self, get: G) -> Result<()> {
        let size = self.ev.size;
        for i in self.coords {
            if (i as u64) < size {
                (self.f)(get(i as u64));
            } else {
                (self.f)(self.ev.layout.eval(i)?);
            }
        }
        Ok(())
    }
}

struct EachIn<'a, F> {
    ev: &'a Evaluator,
    coords: std::ops::Range<i64>,
    f: F,
}

impl<F: FnMut(i64)> Body for EachIn<'_, F> {
    type Out = Result<()>;
    #[inline(always)]
    fn run<G: Fn(u64) -> i64>(mut self, get: G) -> Result<()> {
        let std::ops::Range { start, end } = self.coords;
        if start >= end {
            return Ok(());
        }
        let size = self.ev.size as i64;
        // below the domain, [lo, hi) in it, then above it
        let lo = start.max(0).min(size);
        let hi = end.min(size).max(lo);
        for i in start..end.min(lo) {
            (self.f)(self.ev.layout.eval(i)?);
        }
        let (mut n, hi_n) = (lo as u64, hi as u64);
        while n + 4 <= hi_n {
            let (a, b, c, d) = (get(n), get(n + 1), get(n + 2), get(n + 3));
            (self.f)(a);
            (self.f)(b);
            (self.f)(c);
            (self.f)(d);
            n += 4;
        }
        while n < hi_n {
            (self.f)(get(n));
            n += 1;
        }
        for i in start.max(hi)..end {
            (self.f)(self.ev.layout.eval(i)?);
        }
        Ok(())
    }
}

/// A digit separation chosen once for a loop.
trait DivKind {
    fn divmod(d: &Div, n: u64) -> (u64, u64);
}
struct Pow2;
struct Pow2K<const K: u32>;
struct Fast;
impl<const K: u32> DivKind for Pow2K<K> {
    #[inline(always)]
    fn divmod(_: &Div, n: u64) -> (u64, u64) {
        (n >> K, n & ((1 << K) - 1))
    }
}
impl DivKind for Pow2 {
    #[inline(always)]
    fn divmod(d: &Div, n: u64) -> (u64, u64) {
        (n >> d.shift, n & d.mask)
    }
}
impl DivKind for Fast {
    #[inline(always)]
    fn divmod(d: &Div, n: u64) -> (u64, u64) {
        d.fast.divmod(n)
    }
}

/// A digit contribution chosen once for a loop.
trait ContribKind {
    fn get(table: Option<&[i64; TABLE]>, stride: i64, r: u64) -> i64;
}
struct Tab;
struct Mul;
impl ContribKind for Tab {
    #[inline(always)]
    fn get(table: Option<&[i64; TABLE]>, _: i64, r: u64) -> i64 {
        match table {
            Some(t) => t[r as usize & (TABLE - 1)],
            None => 0,
        }
    }
}
impl ContribKind for Mul {
    #[inline(always)]
    fn get(_: Option<&[i64; TABLE]>, stride: i64, r: u64) -> i64 {
        (r as i64).wrapping_mul(stride)
    }
}

#[cold]
fn unreachable_slow() -> i64 {
    // size == 0 for Plan::Slow, so eval never gets here
    0
}

impl Layout {
    /// An [`Evaluator`] for many evaluations of this layout.
    ///
    /// Pre: as [`Evaluator::new`]. Post: `Evaluator::new(self)`.
    ///
    /// ```
    /// use kute::{ErrorKind, Layout};
    /// let l: Layout = "(3,4):(4,1)".parse().unwrap();
    /// assert_eq!(l.evaluator().unwrap().eval(7).unwrap(), 6);
    /// let id = kute::expr::parse_layout("make_identity_layout((2,3))").unwrap();
    /// assert_eq!(id.evaluator().unwrap_err().kind(), ErrorKind::Inadmissible);
    /// ```
    pub fn evaluator(&self) -> Result<Evaluator> {
        Evaluator::new(self)
    }
}
