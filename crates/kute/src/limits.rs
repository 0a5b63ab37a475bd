//! kute's budgets: what no value or evaluation may exceed, so that every input
//! gets an answer or an error in bounded time and memory (never a panic, a hang
//! or an exhausted machine).
//!
//! | budget | limit | checked by |
//! |---|---|---|
//! | bytes of one expression's text | [`MAX_SOURCE`] (256 KiB) | the parser |
//! | nesting depth of a value | [`MAX_DEPTH`] (32) | every builder of trees, the evaluator |
//! | leaves of one value | [`MAX_LEAVES`] (4096) | every builder of trees, the evaluator |
//! | elements of one tuple | [`MAX_RANK`] (4096) | every builder of trees |
//! | points enumerated by one evaluation | [`MAX_POINTS`] (2^24) | the proofs that check a result point by point (an operation's proof enumerates at most 2^22 points, a few times over) |
//! | leaves of all the values bound in an environment | [`MAX_BOUND_LEAVES`] (2^20) | [`expr::bind`](crate::expr::bind) |
//! | cells of a picture | [`MAX_CELLS`](crate::print::MAX_CELLS) (2^16) | `table`, `latex`, `svg` |
//!
//! Each is checked before the work it bounds (or as the result grows, for a
//! result whose size is known only while it is built), and exceeding it is an
//! error of kind [`Limit`](crate::ErrorKind::Limit) naming the operation.
//! Layouts in kernels have tens of leaves; the limits are far above that and
//! keep the algorithms, some of which are quadratic in the rank, within
//! milliseconds.
//!
//! The point budget is shared by everything one top-level evaluation does:
//! [`with_point_budget`] opens such an evaluation (the expression evaluator
//! opens one per expression); outside one, each operation has the whole
//! budget to itself.

use crate::error::{Error, Result};
use std::cell::Cell;

/// Deepest nesting accepted (prevents stack exhaustion in recursive algorithms).
pub const MAX_DEPTH: usize = 32;

/// Longest text of one expression, in bytes (its syntax tree takes about 150
/// bytes per byte of text).
pub const MAX_SOURCE: usize = 1 << 18;

/// Most leaves a value (a layout, a tuple, a tiler) may have.
pub const MAX_LEAVES: usize = 4096;

/// Most elements one tuple may have.
pub const MAX_RANK: usize = 4096;

/// Most leaves the values bound in one environment may hold together (a
/// session of bindings stays within tens of megabytes).
pub const MAX_BOUND_LEAVES: usize = 1 << 20;

/// Most points the proofs of one evaluation may enumerate (each point is an
/// evaluation of one or two layouts).
pub const MAX_POINTS: u64 = 1 << 24;

thread_local! {
    /// (open evaluations, points used by the outermost one)
    static POINTS: Cell<(u32, u64)> = const { Cell::new((0, 0)) };
}

/// Run `f` as one evaluation: the operations it calls share [`MAX_POINTS`].
/// Nested calls join the outermost evaluation.
///
/// Pre: none. Post: `f()`; its point-by-point proofs together enumerated at
/// most [`MAX_POINTS`] points (past that, they answered `Limit` errors).
///
/// ```
/// use kute::limits::with_point_budget;
/// let r = with_point_budget(|| kute::expr::eval("composition((6,4):(1,7),2:4)"));
/// assert!(r.is_ok());
/// ```
pub fn with_point_budget<R>(f: impl FnOnce() -> R) -> R {
    struct Close;
    impl Drop for Close {
        fn drop(&mut self) {
            POINTS.with(|c| {
                let (open, used) = c.get();
                c.set((open.saturating_sub(1), if open <= 1 { 0 } else { used }));
            });
        }
    }
    POINTS.with(|c| {
        let (open, used) = c.get();
        c.set((open + 1, if open == 0 { 0 } else { used }));
    });
    let _close = Close;
    f()
}

/// Take `n` points of the current evaluation's budget for `op` (of the
/// operation's own budget outside an evaluation).
///
/// Pre: none. Post: `Ok` if the points fit (they are then used), else a
/// `Limit` error naming `op` and `what` is enumerated.
pub(crate) fn take_points(n: u64, op: &'static str, what: impl FnOnce() -> String) -> Result<()> {
    POINTS.with(|c| {
        let (open, used) = c.get();
        let total = if open == 0 { n } else { used.saturating_add(n) };
        if total > MAX_POINTS {
            let spent = if open == 0 { String::new() } else { format!(" ({used} already used by this evaluation)") };
            return Err(Error::limit(
                op,
                format!("{} would take {n} steps (points evaluated), past the budget of {MAX_POINTS}{spent}", what()),
            ));
        }
        if open > 0 {
            c.set((open, total));
        }
        Ok(())
    })
}

/// Most points the point-by-point proof of one operation may enumerate
/// (composition's, and `left_inverse`'s check of a quasi-inverse).
pub const MAX_PROOF_POINTS: i64 = 1 << 22;

/// A `Limit` error: a value would nest `depth` levels, more than [`MAX_DEPTH`].
#[cold]
pub(crate) fn too_deep(op: &'static str, depth: usize) -> Error {
    Error::limit(op, format!("the value would nest {depth} levels deep, past kute's limit of {MAX_DEPTH}"))
}

/// A `Limit` error: a value would have more than [`MAX_LEAVES`] leaves.
#[cold]
pub(crate) fn too_many_leaves(op: &'static str, n: usize) -> Error {
    Error::limit(op, format!("the result would have {n} leaves, past kute's limit of {MAX_LEAVES}"))
}

/// A `Limit` error: a tuple would have more than [`MAX_RANK`] elements.
#[cold]
pub(crate) fn too_many_modes(op: &'static str, n: usize) -> Error {
    Error::limit(op, format!("a tuple of {n} elements is past kute's limit of {MAX_RANK}"))
}
