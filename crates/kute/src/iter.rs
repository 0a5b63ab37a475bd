//! Sequential traversal of a layout's domain: an odometer over the flattened
//! shape that updates the index incrementally (no division per element).

use crate::error::{Error, Result};
use crate::layout::{Layout, Mode};
use smallvec::SmallVec;

/// One digit of the odometer beyond the first three.
#[derive(Clone, Copy, Debug)]
struct Outer {
    shape: i64,
    stride: i64,
    coord: i64,
}

/// The indices `L(0), L(1), ..., L(size-1)` of a layout, in 1-D order.
///
/// The fastest way to consume it is internal iteration (`for_each`, `fold`,
/// `sum`, ...), which runs the first three modes as a loop nest.
///
/// ```
/// use kute::{Layout, iter::Indices};
/// let l: Layout = "(2,3):(3,1)".parse().unwrap();
/// let v: Vec<i64> = Indices::new(&l).unwrap().collect();
/// assert_eq!(v, vec![0, 3, 1, 4, 2, 5]);
/// let mut sum = 0;
/// Indices::new(&l).unwrap().for_each(|i| sum += i);
/// assert_eq!(sum, 15);
/// ```
#[derive(Clone, Debug)]
pub struct Indices {
    // the first three digits (extent, stride, coordinate); missing ones are 1:0
    s0: i64,
    d0: i64,
    c0: i64,
    s1: i64,
    d1: i64,
    c1: i64,
    s2: i64,
    d2: i64,
    c2: i64,
    outer: SmallVec<[Outer; 4]>,
    /// the next index to yield
    index: i64,
    remaining: u64,
    // (every extent is positive: `new` refuses negative ones and leaves nothing
    // to visit for a zero one, so `fold` may always run whole blocks of the
    // first three digits as loop nests)
}

impl Indices {
    // `new` is always inlined: built in the caller's frame, the iterator is not
    // moved through a 200-byte copy before a traversal.

    /// An iterator over the whole domain of `layout`. Errors if an index would
    /// overflow, or if an extent is negative (a zero extent: no indices).
    ///
    /// Pre: every stride is an integer and no extent is negative (else an
    /// `Inadmissible` error); the size and `Σ |(s-1)·d|` over the leaves fit in
    /// `i64` (else an `Overflow` error).
    /// Post: yields `L(0), L(1), ..., L(size-1)` (nothing if an extent is 0).
    ///
    /// ```
    /// use kute::{ErrorKind, Layout, iter::Indices};
    /// let l: Layout = "(2,2):(1,4)".parse().unwrap();
    /// assert_eq!(Indices::new(&l).unwrap().collect::<Vec<_>>(), [0, 1, 4, 5]);
    /// let z: Layout = "(3,0):(1,3)".parse().unwrap();
    /// assert_eq!(Indices::new(&z).unwrap().count(), 0);
    /// let n: Layout = "-2:1".parse().unwrap();
    /// assert_eq!(Indices::new(&n).unwrap_err().kind(), ErrorKind::Inadmissible);
    /// ```
    #[inline(always)]
    pub fn new(layout: &Layout) -> Result<Indices> {
        let leaves = layout.leaves();
        // up to three modes of small extents and integer strides: nothing can
        // overflow, and each mode is a digit of the loop nest
        match *leaves {
            [a] if small(a) => return Ok(Indices::nest([digit(a), (1, 0), (1, 0)])),
            [a, b] if small(a) && small(b) => return Ok(Indices::nest([digit(a), digit(b), (1, 0)])),
            [a, b, c] if small(a) && small(b) && small(c) => {
                return Ok(Indices::nest([digit(a), digit(b), digit(c)]));
            }
            _ => {}
        }
        // the values of basis strides are coordinates, not indices
        layout.int_strides("iterate")?;
        let mut positive = true;
        // the size, and the largest |index|, bounded by the sum of |(s-1)·d|
        let (mut size, mut total): (Option<i64>, i64) = (Some(1), 0);
        for m in leaves {
            let (s, d) = digit(*m);
            positive &= s > 0;
            size = size.and_then(|p| p.checked_mul(s));
            let Some(w) = (s.max(1) - 1).checked_mul(d) else {
                return Err(overflow("the extent of", layout));
            };
            let Some(t) = total.checked_add(w.checked_abs().unwrap_or(i64::MAX)) else {
                return Err(overflow("the indices of", layout));
            };
            total = t;
        }
        let Some(size) = size else {
            return Err(overflow("the size of", layout));
        };
        if !positive {
            return Indices::not_positive(layout);
        }
        // modes of extent 1 never move (every extent is positive): skip them
        let mut digits = [(1i64, 0i64); 3];
        let mut outer = SmallVec::new();
        let mut k = 0;
        for m in leaves {
            let (s, d) = digit(*m);
            if s == 1 {
                continue;
            }
            if k < 3 {
                digits[k] = (s, d);
            } else {
                outer.push(Outer { shape: s, stride: d, coord: 0 });
            }
            k += 1;
        }
        Ok(Indices::from_digits(digits, outer, size))
    }

    /// The iterator over the digits `(extent, stride)` (three, then `outer`),
    /// every extent positive, `size` their product; built in one expression,
    /// in place.
    #[inline(always)]
    fn from_digits(digits: [(i64, i64); 3], outer: SmallVec<[Outer; 4]>, size: i64) -> Indices {
        let [(s0, d0), (s1, d1), (s2, d2)] = digits;
        Indices { s0, d0, c0: 0, s1, d1, c1: 0, s2, d2, c2: 0, outer, index: 0, remaining: size as u64 }
    }

    /// Up to three small digits (see [`small`]): nothing to check.
    #[inline(always)]
    fn nest(digits: [(i64, i64); 3]) -> Indices {
        let size = digits[0].0 * digits[1].0 * digits[2].0;
        Indices::from_digits(digits, SmallVec::new(), size)
    }

    /// [`Indices::new`] for a layout with an extent `<= 0`: a zero extent
    /// leaves nothing to visit; a negative one is refused, since an odometer
    /// cannot count down to it in `L(i)`'s order.
    #[cold]
    #[inline(never)]
    fn not_positive(layout: &Layout) -> Result<Indices> {
        if layout.leaves().iter().any(|m| m.shape.value() < 0) {
            return Err(Error::inadmissible(
                "iterate",
                format!("{layout} has a negative extent; indices are defined for extents >= 0"),
            ));
        }
        Ok(Indices::from_digits([(1, 0); 3], SmallVec::new(), 0))
    }

    /// Step the odometer past the current position (digit 0 first).
    #[inline(always)]
    fn advance(&mut self) {
        self.c0 += 1;
        if self.c0 < self.s0 {
            self.index += self.d0;
        } else {
            self.carry();
        }
    }

    /// Digit 0 wrapped: reset it and carry into the others.
    #[inline(never)]
    fn carry(&mut self) {
        self.index -= (self.c0 - 1) * self.d0;
        self.c0 = 0;
        self.c1 += 1;
        if self.c1 < self.s1 {
            self.index += self.d1;
            return;
        }
        self.index -= (self.c1 - 1) * self.d1;
        self.c1 = 0;
        self.c2 += 1;
        if self.c2 < self.s2 {
            self.index += self.d2;
            return;
        }
        self.index -= (self.c2 - 1) * self.d2;
        self.c2 = 0;
        self.carry_outer();
    }

    /// Advance the digits beyond the first three by one step.
    #[inline]
    fn carry_outer(&mut self) {
        for o in self.outer.iter_mut() {
            o.coord += 1;
            if o.coord < o.shape {
                self.index += o.stride;
                return;
            }
            self.index -= (o.coord - 1) * o.stride;
            o.coord = 0;
        }
    }

    /// Past the current element (`remaining > 0`).
    #[inline(always)]
    fn step(&mut self) {
        self.remaining -= 1;
        if self.remaining > 0 {
            self.advance();
        }
    }

    /// The next index, if any.
    ///
    /// Pre: none. Post: the next of `L(0), ..., L(size-1)`, then `None` for good.
    ///
    /// ```
    /// let l: kute::Layout = "3:2".parse().unwrap();
    /// let mut it = kute::iter::Indices::new(&l).unwrap();
    /// assert_eq!((it.next_index(), it.next_index(), it.next_index()), (Some(0), Some(2), Some(4)));
    /// assert_eq!(it.next_index(), None);
    /// ```
    #[inline]
    pub fn next_index(&mut self) -> Option<i64> {
        if self.remaining == 0 {
            return None;
        }
        let out = self.index;
        self.step();
        Some(out)
    }
}

/// A mode of extent in `[2, 2^20)` and integer stride in `(-2^20, 2^20)`:
/// three of them have fewer than `2^60` indices, all of them below `2^42` in
/// magnitude.
#[inline(always)]
fn small(m: Mode) -> bool {
    const B: i64 = 1 << 20;
    let (s, d) = digit(m);
    (s.wrapping_sub(2) as u64) < (B - 2) as u64
        && (d.wrapping_add(B - 1) as u64) < (2 * B - 1) as u64
        && m.stride.is_int()
}

/// A mode as a digit `(extent, stride)`.
#[inline(always)]
fn digit(m: Mode) -> (i64, i64) {
    (m.shape.value(), m.stride.value())
}

/// The error of [`Indices::new`]: `Layout::size`'s, if the size overflows,
/// else an overflow of `what`.
#[cold]
#[inline(never)]
fn overflow(what: &str, layout: &Layout) -> Error {
    match layout.size() {
        Err(e) => e,
        Ok(_) => Error::overflow(format_args!("{what} {layout}")).in_op("iterate"),
    }
}

impl Iterator for Indices {
    type Item = i64;
    #[inline]
    fn next(&mut self) -> Option<i64> {
        self.next_index()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let r = self.remaining as usize;
        (r, Some(r))
    }

    /// Internal iteration: whole blocks of the first three digits run as a loop nest.
    #[inline]
    fn fold<B, F: FnMut(B, i64) -> B>(mut self, init: B, mut f: F) -> B {
        let mut acc = init;
        // step to the start of a block (the first three digits at 0)
        while self.remaining > 0 && (self.c0 | self.c1 | self.c2) != 0 {
            acc = f(acc, self.index);
            self.step();
        }
        let (s0, d0, s1, d1, s2, d2) = (self.s0 as u64, self.d0, self.s1 as u64, self.d1, self.s2 as u64, self.d2);
        // a product of extents of the domain: fits, since the size does
        let block = s0 * s1 * s2;
        while self.remaining >= block {
            let mut b2 = self.index;
            for _ in 0..s2 {
                let mut b1 = b2;
                for _ in 0..s1 {
                    let mut v = b1;
                    for _ in 0..s0 {
                        acc = f(acc, v);
                        v = v.wrapping_add(d0);
                    }
                    b1 = b1.wrapping_add(d1);
                }
                b2 = b2.wrapping_add(d2);
            }
            self.remaining -= block;
            if self.remaining > 0 {
                self.carry_outer();
            }
        }
        while self.remaining > 0 {
            acc = f(acc, self.index);
            self.step();
        }
        acc
    }
}

impl ExactSizeIterator for Indices {}

impl Layout {
    /// The traversal of the whole domain in 1-D order (CuTe's `for i in
    /// size(L): L(i)`): [`Indices`].
    ///
    /// Pre: the extents are not negative and every index fits `i64` (else an error).
    /// Post: `Indices::new(self)`, yielding `L(0), ..., L(size-1)`.
    ///
    /// ```
    /// let l: kute::Layout = "(2,3):(3,1)".parse().unwrap();
    /// assert_eq!(l.indices().unwrap().collect::<Vec<_>>(), [0, 3, 1, 4, 2, 5]);
    /// ```
    pub fn indices(&self) -> Result<Indices> {
        Indices::new(self)
    }

    /// Evaluate the layout over its whole domain, in 1-D order.
    /// Errors for domains over 2^24 elements.
    ///
    /// Pre: `0 <= size <= 2^24` (else a `Limit` error), and as [`Indices::new`].
    /// Post: `[L(0), L(1), ..., L(size-1)]`.
    ///
    /// ```
    /// let l: kute::Layout = "(2,2):(2,1)".parse().unwrap();
    /// assert_eq!(l.values().unwrap(), vec![0, 2, 1, 3]);
    /// ```
    pub fn values(&self) -> Result<Vec<i64>> {
        let n = self.size()?.value();
        if !(0..=1 << 24).contains(&n) {
            return Err(Error::limit("values", format!("domain of {self} has {n} elements")));
        }
        let mut out = Vec::with_capacity(n as usize);
        let mut it = Indices::new(self)?;
        while let Some(v) = it.next_index() {
            out.push(v);
        }
        Ok(out)
    }
}

/// `for i in &layout`: the indices of the whole domain in 1-D order, each
/// `Ok`; a layout that cannot be traversed (a negative extent, indices past
/// `i64`) gives one `Err` and nothing else.
///
/// ```
/// let l: kute::Layout = "(2,3):(3,1)".parse().unwrap();
/// let v: kute::Result<Vec<i64>> = (&l).into_iter().collect();
/// assert_eq!(v.unwrap(), [0, 3, 1, 4, 2, 5]);
/// for i in &l {
///     assert!(i.unwrap() < 6);
/// }
/// ```
impl IntoIterator for &Layout {
    type Item = Result<i64>;
    type IntoIter = LayoutIter;

    fn into_iter(self) -> LayoutIter {
        match Indices::new(self) {
            Ok(it) => LayoutIter { indices: Some(it), error: None },
            Err(e) => LayoutIter { indices: None, error: Some(e) },
        }
    }
}

/// The iterator of `&Layout`: [`Indices`] with its items wrapped in `Ok`, or
/// the error that keeps the layout from being traversed.
#[derive(Debug)]
pub struct LayoutIter {
    indices: Option<Indices>,
    error: Option<Error>,
}

impl Iterator for LayoutIter {
    type Item = Result<i64>;

    #[inline]
    fn next(&mut self) -> Option<Result<i64>> {
        if let Some(e) = self.error.take() {
            return Some(Err(e));
        }
        self.indices.as_mut()?.next().map(Ok)
    }
}
