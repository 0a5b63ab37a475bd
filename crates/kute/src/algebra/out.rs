//! Where the algebra writes its results: straight into a layout's inline
//! storage ([`Out`], [`flat_toks`]), or into any [`Sink`] of flat modes.

use crate::int::Int;
use crate::layout::{Layout, LayoutRef, Mode};
use crate::policy::Policy;
use crate::tree::{arity_tok, Buf, INLINE_LEAVES, INLINE_TOKS, LEAF};
use arrayvec::ArrayVec;

/// Most leaves an operand (or a coalesced or complemented intermediate) may
/// have on the fast path.
pub(crate) const CAP: usize = 8;

/// Flat modes on the stack.
pub(crate) type Flat = ArrayVec<Mode, CAP>;

/// `_1:_0`.
pub(crate) const UNIT: Mode = Mode::new(Int::ONE, Int::ZERO);

/// Writes tokens and leaves straight into a layout's tree (emptied first),
/// within its inline storage: every write is `None` once that is full (the
/// general path then builds the large result).
pub(crate) struct Out<'t> {
    pub(crate) toks: &'t mut ArrayVec<u16, INLINE_TOKS>,
    pub(crate) leaves: &'t mut ArrayVec<Mode, INLINE_LEAVES>,
}

impl<'t> Out<'t> {
    #[inline(always)]
    pub(crate) fn new(l: &'t mut Layout) -> Self {
        let t = &mut l.tree;
        Out { toks: t.toks.cleared_inline(), leaves: t.leaves.cleared_inline() }
    }

    #[inline(always)]
    pub(crate) fn tok(&mut self, t: u16) -> Option<()> {
        self.toks.try_push(t).ok()
    }

    #[inline(always)]
    pub(crate) fn leaf(&mut self, m: Mode) -> Option<()> {
        self.tok(LEAF)?;
        self.leaves.try_push(m).ok()
    }

    /// Start a tuple; [`Out::close`] gives it its arity.
    #[inline(always)]
    pub(crate) fn open(&mut self) -> Option<usize> {
        let p = self.toks.len();
        self.tok(1)?;
        Some(p)
    }

    #[inline(always)]
    pub(crate) fn close(&mut self, p: usize, arity: usize) {
        self.toks[p] = arity_tok(arity);
    }

    /// A whole subtree as one element.
    #[inline(always)]
    pub(crate) fn push(&mut self, t: LayoutRef<'_>) -> Option<()> {
        for &x in t.toks {
            self.tok(x)?;
        }
        for &m in t.leaves {
            self.leaves.try_push(m).ok()?;
        }
        Some(())
    }
}

/// Where finished modes go: a stack buffer, an output's inline leaves (a
/// failure once full), or a growable buffer. A trait with always-inlined
/// methods rather than a closure: a closure call that is not inlined takes its
/// 32-byte mode through memory, and reading it back right after it was written
/// stalls.
pub(crate) trait Sink<P: Policy> {
    /// Append `m`.
    fn put(&mut self, m: Mode) -> Result<(), P::Err>;
}

impl<P: Policy, const N: usize> Sink<P> for ArrayVec<Mode, N> {
    #[inline(always)]
    fn put(&mut self, m: Mode) -> Result<(), P::Err> {
        self.try_push(m).map_err(|_| P::decline())
    }
}

impl<P: Policy, const N: usize> Sink<P> for Buf<Mode, N> {
    #[inline(always)]
    fn put(&mut self, m: Mode) -> Result<(), P::Err> {
        self.push(m);
        Ok(())
    }
}

/// The tokens of `n` flat leaves (a leaf for one, a tuple otherwise), written
/// into a tree's inline tokens.
#[inline(always)]
pub(crate) fn flat_toks(toks: &mut ArrayVec<u16, INLINE_TOKS>, n: usize) -> Option<()> {
    // (the first arities as constant slices: no loop; `toks` is empty)
    const T2: [u16; 3] = [3, LEAF, LEAF];
    const T3: [u16; 4] = [4, LEAF, LEAF, LEAF];
    debug_assert!(toks.is_empty() && arity_tok(2) == T2[0] && arity_tok(3) == T3[0]);
    match n {
        1 => return toks.try_push(LEAF).ok(),
        2 => return toks.try_extend_from_slice(&T2).ok(),
        3 => return toks.try_extend_from_slice(&T3).ok(),
        _ => {}
    }
    toks.try_push(arity_tok(n)).ok()?;
    for _ in 0..n {
        toks.try_push(LEAF).ok()?;
    }
    Some(())
}
