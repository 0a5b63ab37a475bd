//! The hierarchical container behind [`IntTuple`](crate::IntTuple) and
//! [`Layout`](crate::Layout): a tree stored flat, without heap allocation for
//! up to 16 leaves.
//!
//! A tree is a pre-order token stream plus its leaves in order. A token is `0`
//! for a leaf and `arity + 1` for a tuple. A subtree is a contiguous run of
//! tokens and a contiguous run of leaves, so sub-trees are borrowed as slices
//! ([`TreeRef`]) and flattening is free.

use crate::error::{Error, Result};
use smallvec::SmallVec;

pub(crate) mod buf;
pub(crate) use buf::Buf;

/// Storage of a tree's tokens.
pub(crate) type Toks = Buf<u16, INLINE_TOKS>;
/// Storage of a tree's leaves.
pub(crate) type Leaves<L> = Buf<L, INLINE_LEAVES>;

/// Inline capacity for leaves: layouts up to this many leaves never allocate.
pub const INLINE_LEAVES: usize = 16;
pub(crate) const INLINE_TOKS: usize = 40;

pub use crate::limits::MAX_DEPTH;

pub(crate) const LEAF: u16 = 0;
/// The token of a pair.
pub(crate) const PAIR: u16 = arity_tok(2);

/// An owned hierarchical tuple whose leaves are `L`.
#[derive(PartialEq, Eq, Hash)]
pub struct Tree<L: Copy> {
    pub(crate) toks: Toks,
    pub(crate) leaves: Leaves<L>,
}

// By hand: built in place (a tree is hundreds of bytes, and a derived clone
// moves each part once more), and `clone_from` reuses the storage.
impl<L: Copy> Clone for Tree<L> {
    #[inline]
    fn clone(&self) -> Self {
        let mut t = Tree::empty();
        t.clone_from(self);
        t
    }

    #[inline]
    fn clone_from(&mut self, source: &Self) {
        self.toks.clone_from(&source.toks);
        self.leaves.clone_from(&source.leaves);
    }
}

/// A borrowed subtree.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TreeRef<'a, L: Copy> {
    pub(crate) toks: &'a [u16],
    pub(crate) leaves: &'a [L],
}

/// The token of a tuple of `n` children.
#[inline]
pub(crate) const fn arity_tok(n: usize) -> u16 {
    assert!(n < u16::MAX as usize, "tuple arity exceeds u16::MAX - 1");
    (n + 1) as u16
}

/// Number of tokens and of leaves in the first subtree of `toks`.
#[inline]
fn span(toks: &[u16]) -> (usize, usize) {
    if toks[0] == LEAF {
        return (1, 1);
    }
    let mut pending = 1usize;
    let mut i = 0;
    let mut leaves = 0;
    while pending > 0 {
        let t = toks[i];
        if t == LEAF {
            leaves += 1;
        }
        // this node is done; a tuple opens `arity = t - 1` pending children
        pending = pending - 1 + (t as usize).saturating_sub(1);
        i += 1;
    }
    (i, leaves)
}

/// Iterator over the children of a tuple.
#[derive(Clone)]
pub struct Children<'a, L: Copy> {
    toks: &'a [u16],
    leaves: &'a [L],
    left: usize,
}

impl<'a, L: Copy> Iterator for Children<'a, L> {
    type Item = TreeRef<'a, L>;
    #[inline]
    fn next(&mut self) -> Option<TreeRef<'a, L>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        // the last child is the rest: a `TreeRef` holds exactly one tree
        let (nt, nl) = if self.left == 0 { (self.toks.len(), self.leaves.len()) } else { span(self.toks) };
        let r = TreeRef { toks: &self.toks[..nt], leaves: &self.leaves[..nl] };
        self.toks = &self.toks[nt..];
        self.leaves = &self.leaves[nl..];
        Some(r)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl<L: Copy> ExactSizeIterator for Children<'_, L> {}

impl<'a, L: Copy> TreeRef<'a, L> {
    /// Whether this is a single leaf (an integer, not a tuple).
    ///
    /// Pre: none. Post: `true` for a leaf; `false` for any tuple, including `()`
    /// and rank-1 tuples.
    ///
    /// ```
    /// let t: kute::IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert!(!t.as_ref().is_leaf());
    /// assert!(t.as_ref().mode(0).unwrap().is_leaf());
    /// let one: kute::IntTuple = "(5)".parse().unwrap();
    /// assert!(!one.as_ref().is_leaf());
    /// ```
    #[inline]
    pub fn is_leaf(self) -> bool {
        self.toks[0] == LEAF
    }

    /// The leaf value, if this is a leaf.
    ///
    /// Pre: none. Post: `Some(x)` for a leaf `x`, `None` for a tuple.
    ///
    /// ```
    /// use kute::{Int, IntTuple};
    /// let t: IntTuple = "_3".parse().unwrap();
    /// assert_eq!(t.as_ref().as_leaf(), Some(Int::new_static(3)));
    /// let u: IntTuple = "(3)".parse().unwrap();
    /// assert_eq!(u.as_ref().as_leaf(), None);
    /// ```
    #[inline]
    pub fn as_leaf(self) -> Option<L> {
        if self.is_leaf() {
            Some(self.leaves[0])
        } else {
            None
        }
    }

    /// All leaves, left to right.
    ///
    /// Pre: none. Post: the leaves in pre-order, borrowed (no copy).
    ///
    /// ```
    /// use kute::tree::Tree;
    /// let t: Tree<i32> = Tree::tuple([Tree::leaf(1).as_ref(), Tree::tuple_of_leaves([2, 3]).as_ref()]);
    /// assert_eq!(t.as_ref().leaves(), &[1, 2, 3]);
    /// ```
    #[inline]
    pub fn leaves(self) -> &'a [L] {
        self.leaves
    }

    /// Rank: the number of children of a tuple, 1 for a leaf.
    ///
    /// Pre: none. Post: the number of children of a tuple (0 for `()`), 1 for a leaf.
    ///
    /// ```
    /// let t: kute::IntTuple = "(2,(3,4),5)".parse().unwrap();
    /// assert_eq!(t.as_ref().rank(), 3);
    /// assert_eq!(t.as_ref().mode(1).unwrap().rank(), 2);
    /// assert_eq!(t.as_ref().mode(0).unwrap().rank(), 1);
    /// ```
    #[inline]
    pub fn rank(self) -> usize {
        match self.toks[0] {
            LEAF => 1,
            t => t as usize - 1,
        }
    }

    /// Depth: 0 for a leaf, 1 + the deepest child for a tuple (1 for `()`).
    ///
    /// Pre: none. Post: the nesting depth as above.
    ///
    /// ```
    /// let t: kute::IntTuple = "(2,((3),4))".parse().unwrap();
    /// assert_eq!(t.as_ref().depth(), 3);
    /// assert_eq!(t.as_ref().mode(0).unwrap().depth(), 0);
    /// assert_eq!("()".parse::<kute::IntTuple>().unwrap().as_ref().depth(), 1);
    /// ```
    pub fn depth(self) -> usize {
        let mut best = 0usize;
        // remaining children of each open tuple
        let mut stack: SmallVec<[usize; 16]> = SmallVec::new();
        for &t in self.toks {
            if t != LEAF && t > 1 {
                stack.push(t as usize - 1);
                best = best.max(stack.len());
                continue;
            }
            if t == 1 {
                best = best.max(stack.len() + 1);
            }
            // a node finished: it completes its parent's count, perhaps recursively
            while let Some(top) = stack.last_mut() {
                *top -= 1;
                if *top == 0 {
                    stack.pop();
                } else {
                    break;
                }
            }
        }
        best
    }

    /// Children of a tuple; a leaf has no children (use [`TreeRef::modes`] to
    /// treat a leaf as rank 1).
    ///
    /// Pre: none. Post: the `rank()` children of a tuple, in order; nothing for a leaf.
    ///
    /// ```
    /// let t: kute::IntTuple = "(2,(3,4))".parse().unwrap();
    /// let kids: Vec<String> = t.as_ref().children().map(|c| c.to_string()).collect();
    /// assert_eq!(kids, ["2", "(3,4)"]);
    /// assert_eq!(t.as_ref().mode(0).unwrap().children().len(), 0);
    /// ```
    #[inline]
    pub fn children(self) -> Children<'a, L> {
        let left = if self.is_leaf() { 0 } else { self.rank() };
        Children { toks: &self.toks[1..], leaves: self.leaves, left }
    }

    /// The modes: the children of a tuple, or the leaf itself (CuTe's `get<I>` on an integer).
    ///
    /// Pre: none. Post: `rank()` items: the children of a tuple, or the leaf once.
    ///
    /// ```
    /// let t: kute::IntTuple = "7".parse().unwrap();
    /// let m: Vec<String> = t.as_ref().modes().map(|c| c.to_string()).collect();
    /// assert_eq!(m, ["7"]);
    /// ```
    #[inline]
    pub fn modes(self) -> Children<'a, L> {
        if self.is_leaf() {
            Children { toks: self.toks, leaves: self.leaves, left: 1 }
        } else {
            self.children()
        }
    }

    /// Mode `i` (CuTe `get<i>`); for a leaf only `i == 0` exists.
    ///
    /// Pre: none. Post: `Some(mode i)` for `i < rank()`, `None` otherwise.
    ///
    /// ```
    /// let t: kute::IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(t.as_ref().mode(1).unwrap().to_string(), "(3,4)");
    /// assert!(t.as_ref().mode(2).is_none());
    /// ```
    #[inline]
    pub fn mode(self, i: usize) -> Option<TreeRef<'a, L>> {
        self.modes().nth(i)
    }

    /// An owned copy.
    ///
    /// Pre: none. Post: a [`Tree`] equal to the borrowed subtree.
    ///
    /// ```
    /// let t: kute::IntTuple = "(2,(3,4))".parse().unwrap();
    /// let sub = t.as_ref().mode(1).unwrap().to_tree();
    /// assert_eq!(sub, "(3,4)".parse::<kute::IntTuple>().unwrap());
    /// ```
    pub fn to_tree(self) -> Tree<L> {
        Tree { toks: Buf::from_slice(self.toks), leaves: Buf::from_slice(self.leaves) }
    }

    /// Same structure (profile) as `other`.
    ///
    /// Pre: none. Post: `true` iff both have the same tuple structure; the leaf
    /// values (and types) are not compared.
    ///
    /// ```
    /// let a: kute::IntTuple = "(2,(3,4))".parse().unwrap();
    /// let b: kute::IntTuple = "(9,(9,9))".parse().unwrap();
    /// let c: kute::IntTuple = "(2,3,4)".parse().unwrap();
    /// assert!(a.as_ref().congruent(b.as_ref()));
    /// assert!(!a.as_ref().congruent(c.as_ref()));
    /// ```
    pub fn congruent<M: Copy>(self, other: TreeRef<'_, M>) -> bool {
        self.toks == other.toks
    }
}

impl<L: Copy> Tree<L> {
    /// A single leaf.
    ///
    /// Pre: none. Post: `is_leaf()` and `leaves() == [x]`.
    ///
    /// ```
    /// let t = kute::tree::Tree::leaf(7);
    /// assert!(t.is_leaf());
    /// assert_eq!(t.leaves(), &[7]);
    /// ```
    #[inline]
    pub fn leaf(x: L) -> Self {
        let mut toks = Buf::new();
        toks.push(LEAF);
        let mut leaves = Buf::new();
        leaves.push(x);
        Tree { toks, leaves }
    }

    /// A tuple of the given elements.
    ///
    /// Pre: at most `u16::MAX - 1` elements (else a panic). Post: a tuple (never a
    /// leaf, `()` for no elements) whose mode `i` is the `i`-th element.
    ///
    /// ```
    /// use kute::IntTuple;
    /// let a: IntTuple = "2".parse().unwrap();
    /// let b: IntTuple = "(3,4)".parse().unwrap();
    /// assert_eq!(IntTuple::tuple([a.as_ref(), b.as_ref()]).to_string(), "(2,(3,4))");
    /// assert_eq!(IntTuple::tuple([a.as_ref()]).to_string(), "(2)");
    /// ```
    pub fn tuple<'b, I>(items: I) -> Self
    where
        I: IntoIterator<Item = TreeRef<'b, L>>,
        L: 'b,
    {
        Tree::build(|b| {
            b.open();
            for it in items {
                b.push(it);
            }
            b.close();
        })
    }

    /// A tuple of leaves.
    ///
    /// Pre: at most `u16::MAX - 1` leaves (else a panic). Post: a flat tuple (never
    /// a leaf) whose leaves are the items, in order.
    ///
    /// ```
    /// use kute::tree::Tree;
    /// let t = Tree::tuple_of_leaves([1, 2, 3]);
    /// assert_eq!((t.rank(), t.depth()), (3, 1));
    /// assert_eq!(t.leaves(), &[1, 2, 3]);
    /// ```
    pub fn tuple_of_leaves(items: impl IntoIterator<Item = L>) -> Self {
        Tree::build(|b| {
            b.open();
            for x in items {
                b.leaf(x);
            }
            b.close();
        })
    }

    /// A flat tree: the leaf itself for one element, else the tuple of the elements.
    #[inline]
    pub(crate) fn flat(items: &[L]) -> Self {
        let n = items.len();
        let mut toks = Toks::new();
        if n != 1 {
            toks.push(arity_tok(n));
        }
        toks.resize(toks.len() + n, LEAF);
        Tree { toks, leaves: Buf::from_slice(items) }
    }

    /// Tokens of a flat tree over the current leaves (a leaf for one, a tuple otherwise).
    #[inline(always)]
    pub(crate) fn set_flat_toks(&mut self) {
        let n = self.leaves.len();
        self.set_flat_toks_n(n);
    }

    /// [`Tree::set_flat_toks`] for `n` leaves.
    #[inline(always)]
    pub(crate) fn set_flat_toks_n(&mut self, n: usize) {
        self.toks.clear();
        if n != 1 {
            self.toks.push(arity_tok(n));
        }
        for _ in 0..n {
            self.toks.push(LEAF);
        }
    }

    /// Borrow as a [`TreeRef`].
    ///
    /// Pre: none. Post: a view of the whole tree; `t.as_ref().to_tree() == t`.
    ///
    /// ```
    /// let t: kute::IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(t.as_ref().rank(), 2);
    /// assert_eq!(t.as_ref().to_tree(), t);
    /// ```
    #[inline(always)]
    pub fn as_ref(&self) -> TreeRef<'_, L> {
        TreeRef { toks: &self.toks, leaves: &self.leaves }
    }

    /// Whether this is a single leaf.
    ///
    /// Pre: none. Post: as [`TreeRef::is_leaf`].
    ///
    /// ```
    /// assert!("4".parse::<kute::IntTuple>().unwrap().is_leaf());
    /// assert!(!"(4)".parse::<kute::IntTuple>().unwrap().is_leaf());
    /// ```
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.toks[0] == LEAF
    }

    /// The leaf value, if this is a leaf held inline; `None` for anything else.
    ///
    /// For choosing a fast path only: it reads the inline parts alone, with no
    /// test for a spill (a spilled buffer's inline part is empty). A leaf is
    /// always inline except where a spilled tree was truncated to one, and
    /// then this declines (the caller takes its general path), never misreads.
    #[inline(always)]
    pub(crate) fn inline_leaf(&self) -> Option<L> {
        match (self.toks.inline_part(), self.leaves.inline_part()) {
            ([LEAF], [x]) => Some(*x),
            _ => None,
        }
    }

    /// The leaf value, if this is a leaf: [`Tree::inline_leaf`] first (no test
    /// of the spilled storage), the whole tree where that declines.
    #[inline(always)]
    pub(crate) fn as_leaf(&self) -> Option<L> {
        self.inline_leaf().or_else(|| self.as_ref().as_leaf())
    }

    /// The whole tree when both its parts are held inline and it has a leaf;
    /// `None` otherwise (a spilled part's inline part is empty).
    ///
    /// For the fast paths only: it reads the inline parts alone, with no test
    /// for a spill; a tree it declines takes its caller's general path.
    #[inline(always)]
    pub(crate) fn inline_ref(&self) -> Option<TreeRef<'_, L>> {
        let (toks, leaves) = (self.toks.inline_part(), self.leaves.inline_part());
        if toks.is_empty() || leaves.is_empty() {
            return None;
        }
        Some(TreeRef { toks, leaves })
    }

    /// All leaves, left to right.
    ///
    /// Pre: none. Post: the leaves in pre-order.
    ///
    /// ```
    /// use kute::tree::Tree;
    /// let t: Tree<i32> = Tree::tuple([Tree::tuple_of_leaves([1, 2]).as_ref(), Tree::leaf(3).as_ref()]);
    /// assert_eq!(t.leaves(), &[1, 2, 3]);
    /// ```
    #[inline]
    pub fn leaves(&self) -> &[L] {
        &self.leaves
    }

    /// Mutable leaves, left to right (the structure cannot change).
    ///
    /// Pre: none. Post: the leaves in pre-order, writable in place.
    ///
    /// ```
    /// use kute::tree::Tree;
    /// let mut t = Tree::tuple_of_leaves([1, 2, 3]);
    /// t.leaves_mut()[1] = 20;
    /// assert_eq!(t.leaves(), &[1, 20, 3]);
    /// ```
    #[inline]
    pub fn leaves_mut(&mut self) -> &mut [L] {
        &mut self.leaves
    }

    /// Rank (1 for a leaf).
    ///
    /// Pre: none. Post: as [`TreeRef::rank`].
    ///
    /// ```
    /// let t: kute::IntTuple = "(2,(3,4),5)".parse().unwrap();
    /// assert_eq!(t.rank(), 3);
    /// assert_eq!("5".parse::<kute::IntTuple>().unwrap().rank(), 1);
    /// ```
    #[inline]
    pub fn rank(&self) -> usize {
        self.as_ref().rank()
    }

    /// Depth (0 for a leaf).
    ///
    /// Pre: none. Post: as [`TreeRef::depth`].
    ///
    /// ```
    /// let t: kute::IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(t.depth(), 2);
    /// assert_eq!("5".parse::<kute::IntTuple>().unwrap().depth(), 0);
    /// ```
    pub fn depth(&self) -> usize {
        self.as_ref().depth()
    }

    /// The same structure with every leaf mapped.
    ///
    /// Pre: none. Post: a tree congruent to `self` whose leaf `k` is `f(leaf k)`;
    /// `f` is called once per leaf, left to right.
    ///
    /// ```
    /// use kute::tree::Tree;
    /// let t: Tree<i32> = Tree::tuple([Tree::leaf(1).as_ref(), Tree::tuple_of_leaves([2, 3]).as_ref()]);
    /// let u = t.map(|x| x * 10);
    /// assert_eq!(u.leaves(), &[10, 20, 30]);
    /// assert!(u.as_ref().congruent(t.as_ref()));
    /// ```
    pub fn map<M: Copy>(&self, mut f: impl FnMut(L) -> M) -> Tree<M> {
        Tree { toks: self.toks.clone(), leaves: self.leaves.iter().map(|&x| f(x)).collect() }
    }

    /// The same structure with every leaf mapped by a fallible function.
    ///
    /// Pre: none. Post: the first error `f` returns (leaves are mapped left to
    /// right), else the tree as [`Tree::map`] gives it.
    ///
    /// ```
    /// use kute::{Int, IntTuple};
    /// let t: IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(t.try_map(|x| x.mul(Int::new_static(2))).unwrap().to_string(), "(4,(6,8))");
    /// assert!(t.try_map(|x| Int::new_dynamic(12).div(x.sub(Int::new_dynamic(3))?)).is_err());
    /// ```
    pub fn try_map<M: Copy>(&self, mut f: impl FnMut(L) -> Result<M>) -> Result<Tree<M>> {
        let mut leaves = Buf::new();
        for &x in &self.leaves {
            leaves.push(f(x)?);
        }
        Ok(Tree { toks: self.toks.clone(), leaves })
    }

    /// A structure-preserving copy with new leaves (same count).
    pub(crate) fn with_leaves<M: Copy>(&self, leaves: impl IntoIterator<Item = M>) -> Tree<M> {
        let leaves: Leaves<M> = leaves.into_iter().collect();
        debug_assert_eq!(leaves.len(), self.leaves.len());
        Tree { toks: self.toks.clone(), leaves }
    }

    /// Flattened: a leaf stays a leaf, a tuple becomes the tuple of its leaves.
    ///
    /// Pre: none. Post: the same leaves in the same order; depth 0 for a leaf, 1
    /// for a tuple.
    ///
    /// ```
    /// let t: kute::IntTuple = "(2,((3),4))".parse().unwrap();
    /// assert_eq!(t.flatten().to_string(), "(2,3,4)");
    /// assert_eq!("5".parse::<kute::IntTuple>().unwrap().flatten().to_string(), "5");
    /// ```
    pub fn flatten(&self) -> Self {
        if self.is_leaf() {
            return self.clone();
        }
        Self::tuple_of_leaves(self.leaves.iter().copied())
    }
}

/// Builds a tree element by element (`open`, `leaf`/`push`, `close`), writing
/// straight into a borrowed [`Tree`].
///
/// Building in place matters for speed: a tree holds up to 16 leaves inline
/// (hundreds of bytes), and moving one right after writing it costs more than
/// most algebra operations (the copy's wide loads wait for the narrow stores).
///
/// ```
/// use kute::tree::{Builder, Tree};
/// let t: Tree<i32> = Tree::build(|b| {
///     b.open();
///     b.leaf(1);
///     b.open();
///     b.leaf(2);
///     b.leaf(3);
///     b.close();
///     b.close();
/// });
/// assert_eq!(t.leaves(), &[1, 2, 3]);
/// assert_eq!(t.rank(), 2);
/// ```
pub struct Builder<'t, L: Copy> {
    tree: &'t mut Tree<L>,
    /// the enclosing tuples' (token position, children so far)
    stack: SmallVec<[(usize, usize); 16]>,
    /// the innermost open tuple's token position (`usize::MAX` at the top level)
    cur: usize,
    /// children added to it so far
    cur_n: usize,
    /// the first limit of [`crate::limits`] the tree grew past (it is still
    /// built whole; [`Tree::try_build`] then answers a `Limit` error)
    over: Option<Over>,
    /// a tuple too wide for its token (the tree is not valid)
    wide: bool,
}

/// Which limit a [`Builder`] ran past.
#[derive(Clone, Copy, Debug)]
enum Over {
    Leaves(usize),
    Rank(usize),
    Depth(usize),
}

impl Over {
    fn error(self) -> Error {
        match self {
            Over::Leaves(n) => crate::limits::too_many_leaves("", n),
            Over::Rank(n) => crate::limits::too_many_modes("", n),
            Over::Depth(d) => crate::limits::too_deep("", d),
        }
    }
}

impl<L: Copy> Tree<L> {
    /// A tree with no elements yet: the target of a [`Builder`] (not a valid
    /// tree until one element is added).
    #[inline]
    pub(crate) fn empty() -> Self {
        Tree { toks: Buf::new(), leaves: Buf::new() }
    }

    /// The tree built by `f`, which must add exactly one root element.
    ///
    /// Pre: `f` adds exactly one element at the top level (a leaf, a pushed
    /// subtree, or one tuple whose `open`s and `close`s balance); otherwise the
    /// result is not a valid tree and its accessors may panic. No tuple has
    /// more than `u16::MAX - 1` elements (else a panic); the limits of
    /// [`crate::limits`] are not checked (build a tree of unbounded size with
    /// [`Tree::try_build`], which checks them).
    /// Post: the tree `f` built.
    ///
    /// ```
    /// use kute::tree::Tree;
    /// let t: Tree<i32> = Tree::build(|b| {
    ///     b.open();
    ///     b.leaf(1);
    ///     b.leaf(2);
    ///     b.close();
    /// });
    /// assert_eq!((t.rank(), t.leaves()), (2, &[1, 2][..]));
    /// ```
    #[inline]
    pub fn build(f: impl FnOnce(&mut Builder<'_, L>)) -> Self {
        let mut t = Tree::empty();
        let mut b = Builder::new(&mut t);
        f(&mut b);
        if b.wide {
            panic!("Tree::build: a tuple too wide for its token; use Tree::try_build");
        }
        t
    }

    /// [`Tree::build`] for a builder that may fail.
    ///
    /// Pre: as [`Tree::build`], when `f` succeeds, except that a tree past
    /// the limits of [`crate::limits`] is a `Limit` error. Post: the error of
    /// `f` (or of the limit), or the tree it built.
    ///
    /// ```
    /// use kute::{Error, ErrorKind, tree::Tree};
    /// let t: Tree<i32> = Tree::try_build(|b| {
    ///     b.leaf(5);
    ///     Ok(())
    /// })
    /// .unwrap();
    /// assert_eq!(t.leaves(), &[5]);
    /// let r = Tree::<i32>::try_build(|_| Err(Error::new(ErrorKind::Limit, "demo", "no")));
    /// assert_eq!(r.err().map(|e| e.kind()), Some(ErrorKind::Limit));
    /// ```
    #[inline]
    pub fn try_build(f: impl FnOnce(&mut Builder<'_, L>) -> Result<()>) -> Result<Self> {
        let mut t = Tree::empty();
        let mut b = Builder::new(&mut t);
        f(&mut b)?;
        if let Some(o) = b.over {
            return Err(o.error());
        }
        Ok(t)
    }

    /// [`Tree::try_build`] into this tree's own storage, which is emptied
    /// first (no copy of the result: a tree holds its first leaves inline,
    /// hundreds of bytes, that a move would copy).
    ///
    /// Pre: as [`Tree::try_build`]. Post: `Ok` and the tree `f` built, or
    /// the error of `f` (or of the limit) and a tree that is not valid until
    /// it is built again.
    ///
    /// ```
    /// use kute::tree::Tree;
    /// let mut t = Box::new(Tree::leaf(0));
    /// t.try_build_in(|b| {
    ///     b.open();
    ///     b.leaf(1);
    ///     b.leaf(2);
    ///     b.close();
    ///     Ok(())
    /// })
    /// .unwrap();
    /// assert_eq!((t.rank(), t.leaves()), (2, &[1, 2][..]));
    /// ```
    #[inline]
    pub fn try_build_in(&mut self, f: impl FnOnce(&mut Builder<'_, L>) -> Result<()>) -> Result<()> {
        let mut b = Builder::new(self);
        f(&mut b)?;
        if let Some(o) = b.over {
            return Err(o.error());
        }
        Ok(())
    }
}

impl<'t, L: Copy> Builder<'t, L> {
    /// A builder writing into `tree`, which it empties first.
    ///
    /// Pre: none. Post: `tree` is emptied; it is a valid tree again once exactly
    /// one top-level element has been added (see [`Tree::build`]).
    ///
    /// ```
    /// use kute::tree::{Builder, Tree};
    /// let mut t = Tree::leaf(0);
    /// let mut b = Builder::new(&mut t);
    /// b.open();
    /// b.leaf(1);
    /// b.leaf(2);
    /// b.close();
    /// assert_eq!(t.leaves(), &[1, 2]);
    /// ```
    #[inline]
    pub fn new(tree: &'t mut Tree<L>) -> Self {
        tree.toks.clear();
        tree.leaves.clear();
        Builder { tree, stack: SmallVec::new(), cur: usize::MAX, cur_n: 0, over: None, wide: false }
    }

    /// Start a tuple.
    ///
    /// Pre: none. Post: a tuple is the next element; the elements added until the
    /// matching [`Builder::close`] are its children.
    ///
    /// ```
    /// use kute::tree::Tree;
    /// let t: Tree<i32> = Tree::build(|b| {
    ///     b.open();
    ///     b.open();
    ///     b.close();
    ///     b.leaf(1);
    ///     b.close();
    /// });
    /// assert_eq!((t.rank(), t.depth()), (2, 2));
    /// ```
    #[inline(always)]
    pub fn open(&mut self) {
        if self.stack.len() >= MAX_DEPTH {
            self.over.get_or_insert(Over::Depth(self.stack.len() + 1));
        }
        self.stack.push((self.cur, self.cur_n + 1));
        self.cur = self.tree.toks.len();
        self.cur_n = 0;
        self.tree.toks.push(1);
    }

    /// End the innermost tuple.
    ///
    /// Pre: a tuple is open (else nothing happens). Post: the innermost open
    /// tuple holds the elements added since its `open`, and is closed (a tuple
    /// of more than [`MAX_RANK`](crate::limits::MAX_RANK) elements makes the
    /// build a `Limit` error).
    ///
    /// ```
    /// use kute::tree::Tree;
    /// let t: Tree<i32> = Tree::build(|b| {
    ///     b.open();
    ///     b.leaf(1);
    ///     b.open();
    ///     b.leaf(2);
    ///     b.close();
    ///     b.close();
    /// });
    /// assert_eq!(t.as_ref().mode(1).unwrap().leaves(), &[2]);
    /// ```
    #[inline(always)]
    pub fn close(&mut self) {
        if let Some((p, n)) = self.stack.pop() {
            if self.cur_n > crate::limits::MAX_RANK {
                self.over.get_or_insert(Over::Rank(self.cur_n));
            }
            const WIDEST: usize = u16::MAX as usize - 1;
            self.wide |= self.cur_n > WIDEST;
            // the token of a tuple is its arity + 1
            self.tree.toks[self.cur] = arity_tok(self.cur_n.min(WIDEST));
            self.cur = p;
            self.cur_n = n;
        }
    }

    /// Add a leaf.
    ///
    /// Pre: none. Post: `x` is the next element.
    ///
    /// ```
    /// let t = kute::tree::Tree::build(|b| b.leaf(9));
    /// assert!(t == kute::tree::Tree::leaf(9));
    /// ```
    #[inline(always)]
    pub fn leaf(&mut self, x: L) {
        self.cur_n += 1;
        if self.tree.leaves.len() >= crate::limits::MAX_LEAVES {
            self.over.get_or_insert(Over::Leaves(self.tree.leaves.len() + 1));
        }
        self.tree.toks.push(LEAF);
        self.tree.leaves.push(x);
    }

    /// Add a whole subtree as one element.
    ///
    /// Pre: none. Post: a copy of `t` is the next element.
    ///
    /// ```
    /// use kute::IntTuple;
    /// let x: IntTuple = "(3,4)".parse().unwrap();
    /// let t = IntTuple::build(|b| {
    ///     b.open();
    ///     b.push(x.as_ref());
    ///     b.push(x.as_ref());
    ///     b.close();
    /// });
    /// assert_eq!(t.to_string(), "((3,4),(3,4))");
    /// ```
    #[inline(always)]
    pub fn push(&mut self, t: TreeRef<'_, L>) {
        self.cur_n += 1;
        if self.tree.leaves.len() + t.leaves.len() > crate::limits::MAX_LEAVES {
            self.over.get_or_insert(Over::Leaves(self.tree.leaves.len() + t.leaves.len()));
        }
        self.tree.toks.extend_from_slice(t.toks);
        self.tree.leaves.extend_from_slice(t.leaves);
    }

    /// Add each mode of `t` as an element (a leaf adds itself).
    ///
    /// Pre: none. Post: the `rank(t)` modes of `t` are the next elements.
    ///
    /// ```
    /// use kute::IntTuple;
    /// let x: IntTuple = "(3,(4,5))".parse().unwrap();
    /// let t = IntTuple::build(|b| {
    ///     b.open();
    ///     b.push_modes(x.as_ref());
    ///     b.leaf(kute::Int::new_dynamic(6));
    ///     b.close();
    /// });
    /// assert_eq!(t.to_string(), "(3,(4,5),6)");
    /// ```
    #[inline]
    pub fn push_modes(&mut self, t: TreeRef<'_, L>) {
        if t.is_leaf() {
            self.push(t);
        } else {
            // the children are the subtree's tokens after its own, in order
            self.cur_n += t.rank();
            if self.tree.leaves.len() + t.leaves.len() > crate::limits::MAX_LEAVES {
                self.over.get_or_insert(Over::Leaves(self.tree.leaves.len() + t.leaves.len()));
            }
            self.tree.toks.extend_from_slice(&t.toks[1..]);
            self.tree.leaves.extend_from_slice(t.leaves);
        }
    }

    /// Where the next element will start (for [`Builder::since`]).
    #[inline]
    pub(crate) fn mark(&self) -> (usize, usize) {
        (self.tree.toks.len(), self.tree.leaves.len())
    }

    /// The element added since `mark` (exactly one must have been added).
    #[inline]
    pub(crate) fn since(&self, mark: (usize, usize)) -> TreeRef<'_, L> {
        TreeRef { toks: &self.tree.toks[mark.0..], leaves: &self.tree.leaves[mark.1..] }
    }
}

/// Reject trees nested too deeply for the recursive algorithms.
#[inline(always)]
pub(crate) fn check_depth<L: Copy>(t: TreeRef<'_, L>, op: &'static str) -> Result<()> {
    // each level of nesting takes at least one token: short trees need no walk
    if t.toks.len() > MAX_DEPTH {
        return check_depth_walk(t, op);
    }
    Ok(())
}

/// [`check_depth`] of a tree of many tokens.
#[inline(never)]
fn check_depth_walk<L: Copy>(t: TreeRef<'_, L>, op: &'static str) -> Result<()> {
    let depth = t.depth();
    if depth > MAX_DEPTH {
        return Err(crate::limits::too_deep(op, depth));
    }
    Ok(())
}

/// `items` in CuTe's tuple notation, `(a,b,...)` (for values that hold their
/// elements in a list rather than a tree: tilers, expression tuples).
pub(crate) fn write_tuple<T: std::fmt::Display>(
    f: &mut std::fmt::Formatter<'_>,
    items: impl IntoIterator<Item = T>,
) -> std::fmt::Result {
    f.write_str("(")?;
    for (i, x) in items.into_iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{x}")?;
    }
    f.write_str(")")
}
