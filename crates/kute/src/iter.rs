//! Sequential traversal of a layout's domain: an odometer over the flattened
//! (and, for positive extents, coalesced) shape that updates the index
//! incrementally (no division per element).

use crate::error::{Error, Result};
use crate::layout::{Layout, Mode};
use smallvec::SmallVec;

/// The indices `L(0), L(1), ..., L(size-1)` of a layout, in 1-D order.
///
/// The fastest way to consume it is internal iteration (`for_each`, `fold`,
/// `sum`, ...), which runs the innermost mode as a plain counted loop.
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
    // the innermost (first) mode, kept apart for the fast step
    c0: i64,
    s0: i64,
    d0: i64,
    // stride * (shape - 1) of the first mode: what to subtract when it wraps
    w0: i64,
    // the outer modes (1..)
    shape: SmallVec<[i64; 8]>,
    stride: SmallVec<[i64; 8]>,
    // stride[k] * (shape[k] - 1): what to subtract when digit k wraps
    wrap: SmallVec<[i64; 8]>,
    coord: SmallVec<[i64; 8]>,
    /// the next index to yield
    index: i64,
    remaining: u64,
    /// all extents positive: `fold` may run whole blocks of modes 0..3 as loop nests
    blocks: bool,
}

impl Indices {
    /// An iterator over the whole domain of `layout`. Errors if an index would overflow.
    pub fn new(layout: &Layout) -> Result<Indices> {
        let size = layout.size()?.value();
        let leaves = layout.leaves();
        // Coalescing keeps L(i) for every i < size when the extents are
        // positive, and gives fewer, longer runs.
        let mut merged: SmallVec<[Mode; 16]> = SmallVec::new();
        let positive = leaves.iter().all(|m| m.shape.value() > 0);
        let modes: &[Mode] = if positive && crate::algebra::coalesce_into(&mut merged, leaves, false).is_ok() {
            &merged
        } else {
            leaves
        };
        let overflow = || Error::overflow(format_args!("the extent of {layout}")).in_op("iterate");
        // The largest |index| is bounded by the sum of |wrap|.
        let mut total: i64 = 0;
        let wrap_of = |m: &Mode| -> Option<i64> { (m.shape.value().max(1) - 1).checked_mul(m.stride.value()) };
        for m in modes {
            let w = wrap_of(m).ok_or_else(overflow)?;
            total = total
                .checked_add(w.checked_abs().unwrap_or(i64::MAX))
                .ok_or_else(|| Error::overflow(format_args!("the indices of {layout}")).in_op("iterate"))?;
        }
        let (first, rest) = match modes.split_first() {
            Some((f, r)) => (*f, r),
            None => (Mode::default(), &[][..]),
        };
        // outer modes padded with 1:0 to at least two (modes 1 and 2 of a block)
        let n = rest.len().max(2);
        let mut it = Indices {
            c0: 0,
            s0: first.shape.value(),
            d0: first.stride.value(),
            w0: wrap_of(&first).ok_or_else(overflow)?,
            shape: SmallVec::with_capacity(n),
            stride: SmallVec::with_capacity(n),
            wrap: SmallVec::with_capacity(n),
            coord: SmallVec::from_elem(0, n),
            index: 0,
            remaining: size.max(0) as u64,
            blocks: positive,
        };
        for m in rest {
            it.shape.push(m.shape.value());
            it.stride.push(m.stride.value());
            it.wrap.push(wrap_of(m).ok_or_else(overflow)?);
        }
        while it.shape.len() < n {
            it.shape.push(1);
            it.stride.push(0);
            it.wrap.push(0);
        }
        Ok(it)
    }

    /// Step the odometer past the current position (mode 0 first).
    #[inline(always)]
    fn advance(&mut self) {
        self.c0 += 1;
        if self.c0 < self.s0 {
            self.index += self.d0;
        } else {
            self.carry();
        }
    }

    /// Mode 0 wrapped: reset it and carry into the outer modes.
    #[inline(never)]
    fn carry(&mut self) {
        self.c0 = 0;
        self.index -= self.w0;
        self.carry_from(0);
    }

    /// Advance the outer modes `k..` (modes `k+1..` of the layout) by one step.
    #[inline(always)]
    fn carry_from(&mut self, from: usize) {
        for k in from..self.shape.len() {
            self.coord[k] += 1;
            if self.coord[k] < self.shape[k] {
                self.index += self.stride[k];
                return;
            }
            self.coord[k] = 0;
            self.index -= self.wrap[k];
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
    #[inline]
    pub fn next_index(&mut self) -> Option<i64> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let out = self.index;
        if self.remaining > 0 {
            self.advance();
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

    /// Internal iteration: whole blocks of the first three modes run as a loop nest.
    #[inline]
    fn fold<B, F: FnMut(B, i64) -> B>(mut self, init: B, mut f: F) -> B {
        let mut acc = init;
        if self.blocks {
            // step to the start of a block (all of modes 0..3 at 0)
            while self.remaining > 0 && (self.c0 != 0 || self.coord[0] != 0 || self.coord[1] != 0) {
                acc = f(acc, self.index);
                self.step();
            }
            let (s0, d0) = (self.s0 as u64, self.d0);
            let (s1, d1) = (self.shape[0] as u64, self.stride[0]);
            let (s2, d2) = (self.shape[1] as u64, self.stride[1]);
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
                    self.carry_from(2);
                }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(l: &Layout) -> Vec<i64> {
        let n = l.size().unwrap().value().max(0);
        (0..n).map(|i| l.eval(i).unwrap()).collect()
    }

    #[test]
    fn next_and_fold_agree_with_eval() {
        for s in [
            "(2,3):(3,1)",
            "(128,128):(1,128)",
            "((8,16),(4,32)):((1,256),(8,32))",
            "(_4,(_8,_4)):(_32,(_1,_8))",
            "((3,1),(1,5)):((7,0),(0,-2))",
            "(1,1):(0,0)",
            "():()",
            "5:0",
            "(3,0):(1,3)",
        ] {
            let l: Layout = s.parse().unwrap();
            let want = reference(&l);
            let got: Vec<i64> = Indices::new(&l).unwrap().collect();
            assert_eq!(got, want, "next() on {s}");
            let mut folded = Vec::new();
            Indices::new(&l).unwrap().for_each(|i| folded.push(i));
            assert_eq!(folded, want, "fold() on {s}");
            // fold after partial external iteration
            for skip in 0..want.len().min(7) {
                let mut it = Indices::new(&l).unwrap();
                let mut v: Vec<i64> = it.by_ref().take(skip).collect();
                it.for_each(|i| v.push(i));
                assert_eq!(v, want, "take({skip}) then fold on {s}");
            }
        }
    }
}
