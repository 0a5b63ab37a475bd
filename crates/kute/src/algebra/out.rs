//! Where the algebra writes its results: straight into a layout's inline
//! storage ([`Out`], [`flat_toks`]), or into any [`Sink`] of flat modes.

use crate::error::Result;
use crate::int::Int;
use crate::layout::{Layout, LayoutRef, Mode};
pub(crate) use crate::policy::Sink;
use crate::policy::{Checked, Decline, Fast, Policy};
use crate::tree::{arity_tok, Builder, Tree, TreeRef, INLINE_LEAVES, INLINE_TOKS, LEAF, PAIR};
use arrayvec::ArrayVec;

/// Most leaves an operand (or a coalesced or complemented intermediate) may
/// have on the fast path.
pub(crate) const CAP: usize = 8;

/// `_1:_0`.
pub(crate) const UNIT: Mode = Mode::new(Int::ONE, Int::ZERO);

/// Where an operation writes its result tree, token by token: [`Out`] (a
/// layout's inline storage, a failure once full) or [`Grow`] (its growable
/// storage). Tuples are written as a token holding the arity, set when the
/// tuple is closed.
pub(crate) trait Emit<P: Policy> {
    /// A raw token (copying a tree's structure).
    fn tok(&mut self, t: u16) -> Result<(), P::Err>;
    /// A leaf's mode, its token written separately.
    fn mode(&mut self, m: Mode) -> Result<(), P::Err>;
    /// The number of tokens so far.
    fn toks_len(&self) -> usize;
    /// Overwrite the token at `p`.
    fn set_tok(&mut self, p: usize, t: u16);
    /// Overwrite the leaf at `p` (a place written before).
    fn set_mode(&mut self, p: usize, m: Mode);
    /// Drop the last token.
    fn pop_tok(&mut self);
    /// Where the next element starts (tokens, leaves), for [`Emit::since`].
    fn mark(&self) -> (usize, usize);
    /// The element written since `mark`.
    fn since(&self, mark: (usize, usize)) -> LayoutRef<'_>;
    /// Drop what was written since `mark`.
    fn truncate(&mut self, mark: (usize, usize));

    /// A leaf.
    #[inline(always)]
    fn leaf(&mut self, m: Mode) -> Result<(), P::Err> {
        self.tok(LEAF)?;
        self.mode(m)
    }

    /// Start a tuple; [`Emit::close`] gives it its arity.
    #[inline(always)]
    fn open(&mut self) -> Result<usize, P::Err> {
        let p = self.toks_len();
        self.tok(1)?;
        Ok(p)
    }

    /// End the tuple started at `p`, of `arity` elements (past
    /// [`MAX_RANK`](crate::limits::MAX_RANK), a `Limit` failure).
    #[inline(always)]
    fn close(&mut self, p: usize, arity: usize) -> Result<(), P::Err> {
        if arity > crate::limits::MAX_RANK {
            return Err(P::fail(|| crate::limits::too_many_modes("", arity)));
        }
        self.set_tok(p, arity_tok(arity));
        Ok(())
    }

    /// End the tuple started at `p`, whose only element is a leaf: the tuple
    /// becomes that leaf (`[.., tuple, leaf]` -> `[.., leaf]`).
    #[inline(always)]
    fn close_single(&mut self, p: usize) {
        self.pop_tok();
        self.set_tok(p, LEAF);
    }

    /// Raw tokens and the modes of their leaves, written at once (where the
    /// shape of an element is known: one capacity check for the lot).
    #[inline(always)]
    fn block(&mut self, toks: &[u16], modes: &[Mode]) -> Result<(), P::Err> {
        for &t in toks {
            self.tok(t)?;
        }
        for &m in modes {
            self.mode(m)?;
        }
        Ok(())
    }

    /// A whole subtree as one element.
    #[inline(always)]
    fn push(&mut self, t: LayoutRef<'_>) -> Result<(), P::Err> {
        for &x in t.toks {
            self.tok(x)?;
        }
        for &m in t.leaves {
            self.mode(m)?;
        }
        Ok(())
    }
}

/// Writes straight into a layout's tree (emptied first), within its inline
/// storage: a write fails once that is full (the checked run then builds the
/// large result).
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
}

impl<P: Policy> Emit<P> for Out<'_> {
    #[inline(always)]
    fn tok(&mut self, t: u16) -> Result<(), P::Err> {
        self.toks.try_push(t).map_err(|_| P::decline())
    }
    #[inline(always)]
    fn mode(&mut self, m: Mode) -> Result<(), P::Err> {
        self.leaves.try_push(m).map_err(|_| P::decline())
    }
    #[inline(always)]
    fn toks_len(&self) -> usize {
        self.toks.len()
    }
    #[inline(always)]
    fn block(&mut self, toks: &[u16], modes: &[Mode]) -> Result<(), P::Err> {
        self.toks.try_extend_from_slice(toks).map_err(|_| P::decline())?;
        self.leaves.try_extend_from_slice(modes).map_err(|_| P::decline())
    }
    #[inline(always)]
    fn push(&mut self, t: LayoutRef<'_>) -> Result<(), P::Err> {
        // (a leaf as a leaf; a tuple at once, one capacity check each)
        if let [m] = *t.leaves
            && t.toks.len() == 1
        {
            return <Self as Emit<P>>::leaf(self, m);
        }
        <Self as Emit<P>>::block(self, t.toks, t.leaves)
    }
    #[inline(always)]
    fn set_tok(&mut self, p: usize, t: u16) {
        self.toks[p] = t;
    }
    #[inline(always)]
    fn set_mode(&mut self, p: usize, m: Mode) {
        self.leaves[p] = m;
    }
    #[inline(always)]
    fn pop_tok(&mut self) {
        self.toks.pop();
    }
    #[inline(always)]
    fn mark(&self) -> (usize, usize) {
        (self.toks.len(), self.leaves.len())
    }
    #[inline(always)]
    fn since(&self, mark: (usize, usize)) -> LayoutRef<'_> {
        TreeRef { toks: &self.toks[mark.0..], leaves: &self.leaves[mark.1..] }
    }
    #[inline(always)]
    fn truncate(&mut self, mark: (usize, usize)) {
        self.toks.truncate(mark.0);
        self.leaves.truncate(mark.1);
    }
}

/// Writes into a layout's tree (emptied first), growing it as needed.
pub(crate) struct Grow<'t> {
    tree: &'t mut Tree<Mode>,
}

impl<'t> Grow<'t> {
    #[inline]
    pub(crate) fn new(tree: &'t mut Tree<Mode>) -> Self {
        tree.toks.clear();
        tree.leaves.clear();
        Grow { tree }
    }
}

impl<P: Policy> Emit<P> for Grow<'_> {
    #[inline(always)]
    fn tok(&mut self, t: u16) -> Result<(), P::Err> {
        self.tree.toks.push(t);
        Ok(())
    }
    #[inline(always)]
    fn mode(&mut self, m: Mode) -> Result<(), P::Err> {
        if self.tree.leaves.len() >= crate::limits::MAX_LEAVES {
            return Err(P::fail(|| crate::limits::too_many_leaves("", self.tree.leaves.len() + 1)));
        }
        self.tree.leaves.push(m);
        Ok(())
    }
    #[inline(always)]
    fn toks_len(&self) -> usize {
        self.tree.toks.len()
    }
    #[inline(always)]
    fn set_tok(&mut self, p: usize, t: u16) {
        self.tree.toks[p] = t;
    }
    #[inline(always)]
    fn set_mode(&mut self, p: usize, m: Mode) {
        self.tree.leaves[p] = m;
    }
    #[inline(always)]
    fn pop_tok(&mut self) {
        self.tree.toks.pop();
    }
    #[inline(always)]
    fn mark(&self) -> (usize, usize) {
        (self.tree.toks.len(), self.tree.leaves.len())
    }
    #[inline(always)]
    fn since(&self, mark: (usize, usize)) -> LayoutRef<'_> {
        TreeRef { toks: &self.tree.toks[mark.0..], leaves: &self.tree.leaves[mark.1..] }
    }
    #[inline(always)]
    fn truncate(&mut self, mark: (usize, usize)) {
        self.tree.toks.truncate(mark.0);
        self.tree.leaves.truncate(mark.1);
    }
}

/// The element `f` writes with a growable [`Builder`], pushed into `out` (for
/// the checked run's rare cases written that way; under [`Fast`] a result
/// that does not fit inline declines).
pub(crate) fn push_built<P: Policy, E: Emit<P>>(
    out: &mut E,
    f: impl FnOnce(&mut Builder<'_, Mode>) -> Result<()>,
) -> Result<(), P::Err> {
    let tree = P::lift(Tree::try_build(f))?;
    out.push(tree.as_ref())
}

/// An operand's tree: under [`Fast`] its inline parts, read without a test
/// for a spill (a spilled or leafless operand declines), under [`Checked`]
/// the whole tree.
#[inline(always)]
pub(crate) fn operand<P: Policy>(l: &Layout) -> Result<LayoutRef<'_>, P::Err> {
    if P::CHECKED {
        return Ok(l.as_tree_ref());
    }
    l.tree.inline_ref().ok_or_else(P::decline)
}

/// An operation that writes one tree, written once for both policies.
pub(crate) trait Op {
    /// The operation's name, for its errors.
    fn name(&self) -> &'static str;
    /// Write the result into `out`.
    fn run<P: Policy, E: Emit<P>>(&self, out: &mut E) -> Result<(), P::Err>;
    /// Whether an operand holds a symbol (the fast run is skipped then: it
    /// reads integers by value).
    fn has_symbols(&self) -> bool;
}

/// `op` into `out`: first under [`Fast`] into the inline storage (no error
/// values, no growable buffers); if that declines, under [`Checked`], whose
/// answer or error the caller gets. On error `out` is `_1:_0`.
#[inline(always)]
pub(crate) fn run(out: &mut Layout, op: &impl Op) -> Result<()> {
    if Fast::enabled() && !crate::sym::present(|| op.has_symbols()) && run_fast(out, op).is_ok() {
        Fast::answered();
        return Ok(());
    }
    run_checked(out, op)
}

/// [`run`] under [`Fast`] only. (Out of line: inlined into the `*_into`
/// callers, and so into the user's code, the large bodies were slower.)
#[inline(never)]
pub(crate) fn run_fast(out: &mut Layout, op: &impl Op) -> Result<(), Decline> {
    op.run::<Fast, _>(&mut Out::new(out))
}

/// [`run`] under [`Checked`] only.
#[inline(never)]
pub(crate) fn run_checked(out: &mut Layout, op: &impl Op) -> Result<()> {
    let r = op.run::<Checked, _>(&mut Grow::new(&mut out.tree));
    if r.is_err() {
        out.reset();
    }
    r.map_err(|e| e.within(op.name()))
}

/// The tokens of `n` flat leaves (a leaf for one, a tuple otherwise), written
/// into a tree's inline tokens.
#[inline(always)]
pub(crate) fn flat_toks(toks: &mut ArrayVec<u16, INLINE_TOKS>, n: usize) -> Option<()> {
    // (the first arities as constant slices: no loop; `toks` is empty)
    const T2: [u16; 3] = [PAIR, LEAF, LEAF];
    const T3: [u16; 4] = [arity_tok(3), LEAF, LEAF, LEAF];
    debug_assert!(toks.is_empty());
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
