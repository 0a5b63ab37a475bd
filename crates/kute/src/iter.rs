//! Sequential traversal of a layout's domain: an odometer over the flattened
//! shape that updates the index incrementally (no division per element).

use crate::error::{Error, Result};
use crate::layout::Layout;
use smallvec::SmallVec;

/// The indices `L(0), L(1), ..., L(size-1)` of a layout, in 1-D order.
///
/// ```
/// use kute::{Layout, iter::Indices};
/// let l: Layout = "(2,3):(3,1)".parse().unwrap();
/// let v: Vec<i64> = Indices::new(&l).unwrap().collect();
/// assert_eq!(v, vec![0, 3, 1, 4, 2, 5]);
/// ```
#[derive(Clone, Debug)]
pub struct Indices {
    shape: SmallVec<[i64; 16]>,
    stride: SmallVec<[i64; 16]>,
    // stride[k] * (shape[k] - 1): what to subtract when digit k wraps
    wrap: SmallVec<[i64; 16]>,
    coord: SmallVec<[i64; 16]>,
    index: i64,
    remaining: u64,
}

impl Indices {
    /// An iterator over the whole domain of `layout`. Errors if an index would overflow.
    ///
    /// ```
    /// let l: kute::Layout = "(2,2):(0,1)".parse().unwrap();
    /// assert_eq!(kute::iter::Indices::new(&l).unwrap().len(), 4);
    /// ```
    pub fn new(layout: &Layout) -> Result<Indices> {
        let size = layout.size()?.value();
        let n = layout.leaves().len();
        let mut shape = SmallVec::with_capacity(n);
        let mut stride = SmallVec::with_capacity(n);
        let mut wrap = SmallVec::with_capacity(n);
        for m in layout.leaves() {
            let (s, d) = (m.shape.value(), m.stride.value());
            let w = (s.max(1) - 1)
                .checked_mul(d)
                .ok_or_else(|| Error::overflow(format_args!("the extent of {layout}")).in_op("iterate"))?;
            shape.push(s);
            stride.push(d);
            wrap.push(w);
        }
        // The largest |index| is bounded by the sum of |wrap|.
        let mut total: i64 = 0;
        for w in wrap.iter() {
            let w: i64 = *w;
            total = total
                .checked_add(w.checked_abs().unwrap_or(i64::MAX))
                .ok_or_else(|| Error::overflow(format_args!("the indices of {layout}")).in_op("iterate"))?;
        }
        Ok(Indices { shape, stride, wrap, coord: SmallVec::from_elem(0, n), index: 0, remaining: size.max(0) as u64 })
    }

    /// The next index, if any.
    #[inline]
    pub fn next_index(&mut self) -> Option<i64> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let out = self.index;
        if self.remaining > 0 {
            // advance the odometer
            let n = self.shape.len();
            let mut k = 0;
            while k < n {
                self.coord[k] += 1;
                if self.coord[k] < self.shape[k] {
                    self.index += self.stride[k];
                    break;
                }
                self.coord[k] = 0;
                self.index -= self.wrap[k];
                k += 1;
            }
        }
        Some(out)
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
}

impl ExactSizeIterator for Indices {}
