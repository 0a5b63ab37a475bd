//! Sequential traversal of a layout's domain: an odometer over the flattened
//! shape that updates the index incrementally (no division per element).

use crate::error::{Error, Result};
use crate::layout::{Layout, Mode};

/// The indices `L(0), L(1), ..., L(size-1)` of a layout, in 1-D order.
///
/// The fastest way to consume it is internal iteration (`for_each`, `fold`,
/// `sum`, ...), which runs the first three modes as a loop nest. It borrows
/// the layout's leaves and never allocates, whatever the number of leaves.
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
pub struct Indices<'a> {
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
    // the fourth digit, which a block of the first three carries into
    s3: i64,
    d3: i64,
    c3: i64,
    /// the leaves past the first four digits (extents of 1 included: they
    /// wrap at once)
    outer: &'a [Mode],
    /// the coordinates of the `outer` leaves, packed: leaf `j`'s in the
    /// `bits(s_j - 1)` bits after those of the leaves before it (at most 120
    /// bits in all, since the size is below `2^63` and each of the first four
    /// extents is at least 2)
    outer_coords: u128,
    /// the next index to yield
    index: i64,
    remaining: u64,
    // (every extent is positive: `new` refuses negative ones and leaves nothing
    // to visit for a zero one, so `fold` may always run whole blocks of the
    // first three digits as loop nests)
}

/// What an [`Indices`] starts from: the first four digits `(extent,
/// stride)` with extents above 1 (missing ones `(1, 0)`), the leaves past
/// them, and the size.
struct Start<'a> {
    digits: [(i64, i64); 4],
    outer: &'a [Mode],
    size: i64,
}

impl<'a> Indices<'a> {
    // `new` is always inlined and builds the iterator once, from scalars: the
    // checked path hands back a `Start`, not an `Indices`, so the iterator is
    // written in the caller's frame without a copy out of a `Result`.

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
    /// let n = Layout::leaf(kute::Int::new_dynamic(-2), kute::Int::ONE);
    /// assert_eq!(Indices::new(&n).unwrap_err().kind(), ErrorKind::Inadmissible);
    /// ```
    #[inline(always)]
    pub fn new(layout: &'a Layout) -> Result<Indices<'a>> {
        crate::sym::refuse("iterate", || layout.has_symbols())?;
        let leaves = layout.leaves();
        // up to three modes of small extents and integer strides: nothing can
        // overflow, and each mode is a digit of the loop nest
        let start = match *leaves {
            [a] if small(a) => Start::nest([digit(a), (1, 0), (1, 0)]),
            [a, b] if small(a) && small(b) => Start::nest([digit(a), digit(b), (1, 0)]),
            [a, b, c] if small(a) && small(b) && small(c) => Start::nest([digit(a), digit(b), digit(c)]),
            _ => Start::checked(layout)?,
        };
        let Start { digits: [(s0, d0), (s1, d1), (s2, d2), (s3, d3)], outer, size } = start;
        Ok(Indices {
            s0,
            d0,
            c0: 0,
            s1,
            d1,
            c1: 0,
            s2,
            d2,
            c2: 0,
            s3,
            d3,
            c3: 0,
            outer,
            outer_coords: 0,
            index: 0,
            remaining: size as u64,
        })
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
        if step_digit(self.s1, self.d1, &mut self.c1, &mut self.index)
            || step_digit(self.s2, self.d2, &mut self.c2, &mut self.index)
        {
            return;
        }
        self.carry_outer();
    }

    /// Advance the digits beyond the first three by one step (after a block).
    #[inline(always)]
    fn carry_outer(&mut self) {
        if !step_digit(self.s3, self.d3, &mut self.c3, &mut self.index) {
            self.carry_packed();
        }
    }

    /// Advance the digits beyond the first four by one step.
    #[inline(never)]
    fn carry_packed(&mut self) {
        let mut shift = 0;
        for m in self.outer {
            let (s, d) = digit(*m);
            let (coord, last, width) = self.outer_coord(shift, s);
            if coord < last {
                self.outer_coords += 1 << shift;
                self.index += d;
                return;
            }
            self.set_outer_coord(shift, width, 0);
            self.index -= (s - 1) * d;
            shift += width;
        }
    }

    /// The coordinate of the outer leaf of extent `s` whose bits start at
    /// `shift`, with its largest value `s - 1` and its number of bits.
    #[inline(always)]
    fn outer_coord(&self, shift: u32, s: i64) -> (u64, u64, u32) {
        // every extent is positive (an extent of 1 has no bits)
        let last = (s - 1) as u64;
        let width = u64::BITS - last.leading_zeros();
        let coord = (self.outer_coords >> shift) as u64 & ((1u64 << width) - 1);
        (coord, last, width)
    }

    /// Set the outer coordinate of `width` bits at `shift` to `c`.
    #[inline(always)]
    fn set_outer_coord(&mut self, shift: u32, width: u32, c: u64) {
        let mask = u128::from((1u64 << width) - 1) << shift;
        self.outer_coords = (self.outer_coords & !mask) | u128::from(c) << shift;
    }

    /// Move the odometer `n` positions on (`n < remaining`): add `n` to the
    /// mixed-radix number of its digits, one division per digit it reaches.
    fn jump(&mut self, n: u64) {
        self.remaining -= n;
        let mut carry = n;
        add_carry(self.s0, self.d0, &mut self.c0, &mut carry, &mut self.index);
        add_carry(self.s1, self.d1, &mut self.c1, &mut carry, &mut self.index);
        add_carry(self.s2, self.d2, &mut self.c2, &mut carry, &mut self.index);
        add_carry(self.s3, self.d3, &mut self.c3, &mut carry, &mut self.index);
        let mut shift = 0;
        for m in self.outer {
            if carry == 0 {
                return;
            }
            let (s, d) = digit(*m);
            let (coord, _, width) = self.outer_coord(shift, s);
            let mut c = coord as i64;
            add_carry(s, d, &mut c, &mut carry, &mut self.index);
            self.set_outer_coord(shift, width, c as u64);
            shift += width;
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

impl<'a> Start<'a> {
    /// Up to three small digits (see [`small`]): nothing to check.
    #[inline(always)]
    fn nest([a, b, c]: [(i64, i64); 3]) -> Start<'a> {
        let size = a.0 * b.0 * c.0;
        Start { digits: [a, b, c, (1, 0)], outer: &[], size }
    }

    /// Any layout: the checks of [`Indices::new`], then the first four
    /// leaves of extent above 1 as digits and the leaves past them as `outer`.
    #[inline(never)]
    fn checked(layout: &'a Layout) -> Result<Start<'a>> {
        let leaves = layout.leaves();
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
            return Start::not_positive(layout);
        }
        // leaves of extent 1 never move (every extent is positive): the four
        // digits skip them
        let mut digits = [(1i64, 0i64); 4];
        let mut k = 0;
        for (i, m) in leaves.iter().enumerate() {
            let (s, d) = digit(*m);
            if s == 1 {
                continue;
            }
            if k == 4 {
                return Ok(Start { digits, outer: &leaves[i..], size });
            }
            digits[k] = (s, d);
            k += 1;
        }
        Ok(Start { digits, outer: &[], size })
    }

    /// [`Start::checked`] for a layout with an extent `<= 0`: a zero extent
    /// leaves nothing to visit; a negative one is refused, since an odometer
    /// cannot count down to it in `L(i)`'s order.
    #[cold]
    #[inline(never)]
    fn not_positive(layout: &Layout) -> Result<Start<'a>> {
        if layout.leaves().iter().any(|m| m.shape.value() < 0) {
            return Err(Error::inadmissible(
                "iterate",
                format!("{layout} has a negative extent; indices are defined for extents >= 0"),
            ));
        }
        Ok(Start { digits: [(1, 0); 4], outer: &[], size: 0 })
    }
}

/// One step of the digit `(s, d)` at coordinate `c`, `index` moving with
/// it: `true` if it moved on, `false` if it wrapped to 0 (a carry for the
/// next digit).
#[inline(always)]
fn step_digit(s: i64, d: i64, c: &mut i64, index: &mut i64) -> bool {
    *c += 1;
    if *c < s {
        *index += d;
        return true;
    }
    *index -= (*c - 1) * d;
    *c = 0;
    false
}

/// Add `carry` to the coordinate `c` of a digit `(s, d)` of the odometer:
/// `c` becomes the sum mod `s`, `carry` the sum div `s`, and `index` moves
/// with `c`. (`c < s` and `carry < 2^63`: the sum fits a `u64`.)
#[inline(always)]
fn add_carry(s: i64, d: i64, c: &mut i64, carry: &mut u64, index: &mut i64) {
    let t = *c as u64 + *carry;
    let (q, r) = (t / s as u64, (t % s as u64) as i64);
    *index += (r - *c) * d;
    *c = r;
    *carry = q;
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

impl Iterator for Indices<'_> {
    type Item = i64;
    #[inline]
    fn next(&mut self) -> Option<i64> {
        self.next_index()
    }

    /// Skips `n` indices in one jump (a division per digit), not one by one.
    fn nth(&mut self, n: usize) -> Option<i64> {
        if n as u64 >= self.remaining {
            self.remaining = 0;
            return None;
        }
        if n > 0 {
            self.jump(n as u64);
        }
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

impl ExactSizeIterator for Indices<'_> {}

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
    pub fn indices(&self) -> Result<Indices<'_>> {
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
        crate::sym::refuse("values", || self.has_symbols())?;
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
impl<'a> IntoIterator for &'a Layout {
    type Item = Result<i64>;
    type IntoIter = LayoutIter<'a>;

    fn into_iter(self) -> LayoutIter<'a> {
        match Indices::new(self) {
            Ok(it) => LayoutIter { indices: Some(it), error: None },
            Err(e) => LayoutIter { indices: None, error: Some(e) },
        }
    }
}

/// The iterator of `&Layout`: [`Indices`] with its items wrapped in `Ok`, or
/// the error that keeps the layout from being traversed.
#[derive(Debug)]
pub struct LayoutIter<'a> {
    indices: Option<Indices<'a>>,
    error: Option<Error>,
}

impl Iterator for LayoutIter<'_> {
    type Item = Result<i64>;

    #[inline]
    fn next(&mut self) -> Option<Result<i64>> {
        if let Some(e) = self.error.take() {
            return Some(Err(e));
        }
        self.indices.as_mut()?.next().map(Ok)
    }
}
