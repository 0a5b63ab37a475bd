//! [`Buf`]: the storage of a tree's tokens and leaves — a fixed inline array
//! with a heap vector beyond it.
//!
//! Why not `SmallVec`: its `push` decides between inline and heap storage
//! through the capacity field and is too large to inline; in the algebra's
//! fast paths the call took the element through memory, and reading it back
//! right after it was written stalled (a third of a whole operation). Here the
//! common case (room left inline) is a compare, a store and an increment, the
//! spill is a cold call that does not take the element, and the fast paths
//! write into the inline part directly ([`Buf::cleared_inline`]). Extending
//! by a slice is a loop of stores, not a `memmove` call (the slices are short).

use arrayvec::ArrayVec;
use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};

/// A vector of `Copy` elements holding up to `N` of them without allocating.
///
/// Invariant: the elements are in `spill` when it is non-empty (the buffer
/// outgrew `N` at some point), in `inline` otherwise. Whichever is not in use
/// is empty.
#[derive(Default)]
pub struct Buf<T: Copy, const N: usize> {
    inline: ArrayVec<T, N>,
    spill: Vec<T>,
}

impl<T: Copy, const N: usize> Buf<T, N> {
    /// An empty buffer (no allocation).
    #[inline(always)]
    pub const fn new() -> Self {
        Buf { inline: ArrayVec::new_const(), spill: Vec::new() }
    }

    /// Empty the buffer and hand out its inline storage, to fill with up to
    /// `N` elements (the fast paths write there directly).
    #[inline(always)]
    pub fn cleared_inline(&mut self) -> &mut ArrayVec<T, N> {
        self.clear();
        &mut self.inline
    }

    /// The inline elements: all of them when the buffer never spilled, none
    /// otherwise (then they are on the heap). One load, no test of the spill.
    #[inline(always)]
    pub fn inline_part(&self) -> &[T] {
        &self.inline
    }

    /// A buffer holding a copy of `xs`.
    #[inline]
    pub fn from_slice(xs: &[T]) -> Self {
        let mut b = Buf::new();
        b.extend_from_slice(xs);
        b
    }

    /// Append `x`.
    #[inline(always)]
    pub fn push(&mut self, x: T) {
        if self.spill.is_empty() {
            if !self.inline.is_full() {
                // `is_full` was just checked: this cannot fail
                let _ = self.inline.try_push(x);
                return;
            }
            self.spill_inline();
        }
        // (`x` is written in place on both paths; the cold call does not take
        // it, so it never goes through a stack copy)
        self.spill.push(x);
    }

    /// Move the (full) inline elements to the heap.
    #[cold]
    #[inline(never)]
    fn spill_inline(&mut self) {
        self.spill.reserve(2 * N + 1);
        self.spill.extend_from_slice(&self.inline);
        self.inline.clear();
    }

    /// Append every element of `xs`.
    #[inline]
    pub fn extend_from_slice(&mut self, xs: &[T]) {
        if self.spill.is_empty() && xs.len() <= N - self.inline.len() {
            // all fit inline: one capacity check for the lot
            for &x in xs {
                let _ = self.inline.try_push(x);
            }
            return;
        }
        for &x in xs {
            self.push(x);
        }
    }

    /// Remove and return the last element.
    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        if self.spill.is_empty() {
            self.inline.pop()
        } else {
            self.spill.pop()
        }
    }

    /// Remove every element (a heap buffer keeps its capacity).
    #[inline(always)]
    pub fn clear(&mut self) {
        self.inline.clear();
        if !self.spill.is_empty() {
            self.spill.clear();
        }
    }

    /// Keep the first `n` elements.
    #[inline]
    pub fn truncate(&mut self, n: usize) {
        if self.spill.is_empty() {
            self.inline.truncate(n);
        } else {
            self.spill.truncate(n);
        }
    }

    /// Grow to (or shrink to) `n` elements, new ones equal to `x`.
    #[inline]
    pub fn resize(&mut self, n: usize, x: T) {
        self.truncate(n);
        while self.len() < n {
            self.push(x);
        }
    }
}

// By hand: the derived forms clone the inline part element by element with a
// capacity check each (tens of nanoseconds for a one-leaf layout).
impl<T: Copy, const N: usize> Clone for Buf<T, N> {
    #[inline]
    fn clone(&self) -> Self {
        Buf::from_slice(self)
    }

    #[inline]
    fn clone_from(&mut self, source: &Self) {
        self.clear();
        self.extend_from_slice(source);
    }
}

impl<T: Copy, const N: usize> Deref for Buf<T, N> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        if self.spill.is_empty() {
            &self.inline
        } else {
            &self.spill
        }
    }
}

impl<T: Copy, const N: usize> DerefMut for Buf<T, N> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        if self.spill.is_empty() {
            &mut self.inline
        } else {
            &mut self.spill
        }
    }
}

impl<T: Copy + PartialEq, const N: usize> PartialEq for Buf<T, N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Copy + Eq, const N: usize> Eq for Buf<T, N> {}

impl<T: Copy + Hash, const N: usize> Hash for Buf<T, N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

impl<T: Copy + std::fmt::Debug, const N: usize> std::fmt::Debug for Buf<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

impl<T: Copy, const N: usize> FromIterator<T> for Buf<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut b = Buf::new();
        b.extend(iter);
        b
    }
}

impl<T: Copy, const N: usize> Extend<T> for Buf<T, N> {
    #[inline]
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for x in iter {
            self.push(x);
        }
    }
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a Buf<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
