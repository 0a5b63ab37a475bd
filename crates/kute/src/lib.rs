//! # kute — CuTe's layouts and layout algebra, in Rust
//!
//! A CuTe *layout* is a function from (hierarchical) coordinates to indices,
//! written `shape:stride`, e.g. `(2,(2,2)):(4,(1,2))`. Its algebra — coalesce,
//! composition, complement, divides, products, inverses — is how GPU kernels
//! tile data and partition it over threads. kute gives CuTe's answers to the
//! character, also for run-time (dynamic) layouts, and returns errors where CuTe
//! would fail to compile or would return a wrong layout.
//!
//! ```
//! use kute::{Layout, expr};
//! // The library API ...
//! let a: Layout = "(_8,_8):(_8,_1)".parse().unwrap();
//! let b: Layout = "_4:_2".parse().unwrap();
//! assert_eq!(kute::logical_divide(&a, &b).unwrap().to_string(), "(_4,(_2,_8)):(_16,(_8,_1))");
//! // ... and the expression language every front end uses:
//! assert_eq!(expr::eval("logical_divide(24:2, 4:2)").unwrap().to_string(), "(4,(2,3)):(4,(2,16))");
//! ```
//!
//! Modules: [`int`] (static/dynamic/symbolic integers), [`sym`] (symbolic
//! integers: unknowns known only at launch), [`int_tuple`], [`layout`],
//! [`tiler`] (the right operands of divides and products), [`algebra`],
//! [`swizzle`] and [`composed`] (swizzles and composed layouts), [`f2`] (bit
//! matrices, Triton's linear layouts), [`analysis`] (bank conflicts, vector
//! widths, swizzle search), [`tensor`], [`atom`] (MMA and copy atoms, tiled
//! MMAs and copies), [`codegen`] (CUDA C++ and static layouts), [`mod@print`]
//! (tables, LaTeX, SVG, TV pictures), [`explain`] (derivations step by step),
//! [`syntax`] (the notation: parser and literals, what `str::parse` reads),
//! [`expr`] (the expression language's evaluator), [`limits`] (the budgets
//! every input is held to) and [`doc`] (guides).
//!
//! The modules are layers. Each one imports only modules named before it in
//! this list (`tests/layers.rs` checks it on the source): `arith` (Euclid's
//! gcd on machine integers; private), [`error`], [`sym`], [`int`],
//! [`limits`], [`swizzle`], [`tree`], [`int_tuple`], [`stride`], [`layout`],
//! [`iter`], [`tiler`], [`syntax`] (text to those values: `str::parse` of
//! `IntTuple`, `Layout` and `Tiler` lives there, so the values know nothing of
//! text), `policy` (the algebra's checked and fast runs; private), [`algebra`],
//! [`evaluator`], [`composed`], [`f2`], [`tensor`], [`codegen`], [`atom`],
//! [`mod@print`], [`expr`], [`explain`], [`analysis`], [`doc`] (guides).

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod algebra;
pub mod analysis;
mod arith;
pub mod atom;
pub mod codegen;
pub mod composed;
pub mod doc;
pub mod error;
pub mod evaluator;
pub mod explain;
pub mod expr;
pub mod f2;
pub mod int;
pub mod int_tuple;
pub mod iter;
pub mod layout;
pub mod limits;
mod policy;

/// Hooks for kute's own tests, built only with the `test-hooks` feature
/// (which kute's tests turn on; not part of the API): run the algebra
/// without its fast paths, count the answers the fast paths gave, and reach
/// the few internals the tests check one by one.
#[cfg(feature = "test-hooks")]
pub mod test_hooks {
    /// Runs `f` with every operation's fast run off (the checked run alone),
    /// on this thread.
    ///
    /// Pre: none. Post: `f`'s result; the fast runs as they were after.
    pub fn without_fast_paths<R>(f: impl FnOnce() -> R) -> R {
        struct Restore(bool);
        impl Drop for Restore {
            fn drop(&mut self) {
                crate::policy::FAST_OFF.with(|c| c.set(self.0));
            }
        }
        let _restore = Restore(crate::policy::FAST_OFF.with(|c| c.replace(true)));
        f()
    }

    /// How many operations the fast runs have answered on this thread.
    ///
    /// Pre: none. Post: the count so far.
    pub fn fast_answers() -> usize {
        crate::policy::FAST_ANSWERS.with(|c| c.get())
    }

    /// The leaf of a tree held inline (no heap), if it is one.
    ///
    /// Pre: none. Post: `Some` only for a leaf.
    pub fn inline_leaf<L: Copy>(t: &crate::tree::Tree<L>) -> Option<L> {
        t.inline_leaf()
    }

    /// The number of characters in the first `byte` bytes of `s` (past the
    /// end: the length plus the excess). Pre: none. Post: the count.
    pub fn char_count(s: &str, byte: usize) -> usize {
        crate::error::char_count(s, byte)
    }

    /// Text escaped for XML. Pre: none. Post: no `<`, `>`, `&` or quote left bare.
    pub fn esc(t: &str) -> String {
        crate::print::svg::esc(t)
    }

    /// A coordinate as the pictures write it, without needless decimals.
    /// Pre: none. Post: the text.
    pub fn f(x: f64) -> String {
        crate::print::svg::f(x)
    }

    /// The fill and text colours of an index in the pictures. Pre: none.
    /// Post: an RGB fill and a text colour.
    pub fn shade(v: i64) -> (String, &'static str) {
        crate::print::svg::shade(v)
    }

    /// Takes `n` points of the current evaluation's budget for `op`.
    /// Pre: none. Post: `Ok` if they fit, else a `Limit` error.
    pub fn take_points(n: u64, op: &'static str, what: impl FnOnce() -> String) -> crate::Result<()> {
        crate::limits::take_points(n, op, what)
    }

    pub use crate::tree::buf::Buf;
}
pub mod print;
pub mod stride;
pub mod swizzle;
pub mod sym;
pub mod syntax;
pub mod tensor;
pub mod tiler;
pub mod tree;

pub use algebra::*;
pub use composed::{AnyLayout, ComposedLayout};
pub use error::{Error, ErrorKind, Result};
pub use int::{Bool, Int};
pub use int_tuple::{AsIntTuple, IntTuple};
pub use layout::slice::{Coord, Crd};
pub use layout::{Layout, LayoutView, Major, Mode};
pub use stride::Stride;
pub use swizzle::Swizzle;
