//! Guides.
//!
//! - [`cute_for_cpp_users`]: CuTe C++ calls and their kute equivalents.
//! - [`differences`]: where kute deliberately differs from CuTe C++.
//! - [`performance`]: how to call kute when speed matters.
//!
//! The repository's `docs/` folder has the longer user documents, linked from
//! its README: a tour of the algebra on CuTe's worked examples (`docs/tour.md`),
//! the full CuTe-to-kute table with the expression language beside the library
//! (`docs/from-cute.md`), the differences with examples (`docs/differences.md`),
//! symbolic layouts (`docs/symbolic.md`), the limits (`docs/limits.md`), and the
//! measurements (`docs/benchmarks/`).

pub mod cute_for_cpp_users {
    //! # CuTe for C++ users
    //!
    //! | CuTe C++ | kute expression | kute library |
    //! |---|---|---|
    //! | `make_layout(make_shape(_4{},8))` | `make_layout((_4,8))` | [`Layout::from_shape`](crate::Layout::from_shape) |
    //! | `make_layout(s, LayoutRight{})` | `make_layout(s, LayoutRight{})` | [`Layout::from_shape_major`](crate::Layout::from_shape_major) |
    //! | `composition(A, B)` | `composition(A, B)` | [`composition`](crate::composition), [`composition_tiler`](crate::composition_tiler) |
    //! | `complement(A, M)` | `complement(A, M)` | [`complement`](crate::complement) |
    //! | `logical_divide(A, make_tile(B0, B1))` | `logical_divide(A, <B0,B1>)` | [`logical_divide`](crate::logical_divide) |
    //! | `zipped_divide`, `tiled_divide`, `flat_divide` | same names | [`zipped_divide`](crate::zipped_divide), ... |
    //! | `logical_product(A, B)` | `logical_product(A, B)` | [`logical_product`](crate::logical_product) |
    //! | `blocked_product`, `raked_product` | same names | [`blocked_product`](crate::blocked_product), [`raked_product`](crate::raked_product) |
    //! | `right_inverse(L)`, `left_inverse(L)` | same names | [`right_inverse`](crate::right_inverse), [`left_inverse`](crate::left_inverse) |
    //! | `take<1,3>(L)`, `layout<1,0>(L)`, `size<1>(L)` | same | [`Layout::take`](crate::Layout::take), [`Layout::mode_at`](crate::Layout::mode_at) |
    //! | `L(5)`, `L(1,(0,1))`, `L(_,1)` | same | [`Layout::eval`](crate::Layout::eval), [`Layout::eval_coord`](crate::Layout::eval_coord), [`Layout::slice`](crate::Layout::slice) |
    //! | `print_layout(L)`, `print_latex(L)` | `kute table`, `kute latex` | [`print::table`](crate::print::table), [`print::latex`](crate::print::latex) |
}

pub mod differences {
    //! # Where kute differs from CuTe C++
    //!
    //! - **Dynamic layouts simplify by value.** CuTe C++ can only simplify what it
    //!   proves at compile time, so `coalesce((2,(1,6)):(1,(6,2)))` with run-time
    //!   integers stays `(2,1,6):(1,6,2)` there. kute computes by value, so every
    //!   expression gives the values of its all-static variant: `12:1`.
    //! - **Errors instead of wrong layouts.** CuTe's `composition` checks only
    //!   divisibility; for some operands it returns a layout that is not the
    //!   composite (`composition((6,4):(1,7), 4:4)` gives `(2,2):(4,7)`, values
    //!   0,4,7,11, where `A(B(i))` is 0,4,9,14, which no layout has). kute proves
    //!   every composition, including those inside the divides and the products;
    //!   where CuTe's answer is wrong it returns the layout that is the composite
    //!   when one exists (`composition((7,6,4):(6,1,42),6:4)` is `(2,3):(24,7)`,
    //!   CuTe answers `(2,3,1):(24,1,42)`) and otherwise an error saying why none does.
    //!   CuTe's divisibility rejections stay errors.
    //! - **`left_inverse` of a non-injective layout** is CuTe's quasi-inverse
    //!   (`L(R(L(i))) == L(i)`) where CuTe's answer is one, an error where it is
    //!   not (`left_inverse((2,3):(2,1))`).
    //! - **`make_ordered_layout` takes equal orders left to right** (a compact
    //!   layout, as CuTe documents and PyCuTe does; CuTe's C++ overlaps them), and
    //!   so do `make_layout_like` and `make_fragment_like`.
    //! - **Errors instead of `static_assert`s**: each names the operation, the
    //!   operand and the condition.
    //! - **Run-time strides everywhere**: `complement` of a rank > 1 layout with
    //!   dynamic strides and `right_inverse`/`left_inverse` of dynamic layouts work
    //!   (CuTe C++ refuses them or returns `_1:_0`).
    //! - **Overflow is an error**, never undefined behaviour.
    //! - **A shared-memory atom is not cut below one bit**: `downcast<N>` of an
    //!   atom whose pointer flag has fewer than `N` bits is an error, where
    //!   CuTe answers a flag of 0 bits (`smem_ptr[0b]`).
    //! - **Scale factors in tensor memory are not dropped**: a block-scaled
    //!   tcgen05 op's `FrgTypeSFA/SFB` of an MMA_MN that is not a multiple of 32
    //!   (64 on SFB's 2×2 data path) is an error, where CuTe's atom holds fewer rows.
    //! - **A TMEM copy over a partitioned accumulator is drawn** (`latex`, `svg`),
    //!   its tile's rest modes flattened into columns; CuTe's `print_latex` does
    //!   not compile there.
}

pub mod performance {
    //! # Performance
    //!
    //! - **Reuse an output layout.** Every hot operation has an `*_into` form,
    //!   e.g. [`composition_into`](crate::composition_into)`(&mut out, &a, &b)`,
    //!   that writes the result into a [`Layout`](crate::Layout) you own.
    //!   A layout keeps up to 16 leaves inline (no heap allocation), so it is a
    //!   few hundred bytes; returning one by value moves it once more, and a copy
    //!   made right after the result was written waits for those writes to
    //!   reach the cache (a store-forwarding stall). That move costs about as
    //!   much as a small operation itself; the `*_into` forms avoid it. After an
    //!   error the output holds `_1:_0`.
    //!
    //!   ```
    //!   use kute::{Layout, Tiler};
    //!   let a: Layout = "(8,8):(8,1)".parse().unwrap();
    //!   let t: Tiler = kute::expr::parse_tiler("<4:1,2:1>").unwrap();
    //!   let mut out = Layout::default();
    //!   for _ in 0..3 {
    //!       kute::logical_divide_into(&mut out, &a, &t).unwrap();
    //!   }
    //!   assert_eq!(out.to_string(), "((4,2),(2,4)):((8,32),(1,2))");
    //!   ```
    //! - **Evaluate through an [`Evaluator`](crate::evaluator::Evaluator)**
    //!   (precomputed fast division) or traverse with
    //!   [`Indices`](crate::iter::Indices) instead of calling
    //!   [`Layout::eval`](crate::Layout::eval) in a loop.
    //! - **Reuse layouts with `clone_from`.** `out.clone_from(&l)` copies into
    //!   `out`'s storage; `l.clone()` builds a new layout (hundreds of bytes,
    //!   moved once more on return).
    //! - **Parse once.** Parsing dominates any single operation; keep layouts
    //!   and tilers as values.
    //! - **Small operands take a fast run.** Each operation is written once
    //!   and runs under two policies: first a fast one (operands of up to 8
    //!   leaves with positive extents, the usual tiles, tilers and thread
    //!   layouts), whose failures are a zero-sized value, so no error message
    //!   is built on the way and the result goes straight into the output's
    //!   inline storage (up to 16 leaves); whatever it declines (an error, an
    //!   overflow, a result that needs the point-by-point proof or does not
    //!   fit) runs again under the checked policy, which gives the answer or
    //!   the exact error. The same code gives the same answers under both,
    //!   static flags included (a test compares the two on random operands),
    //!   and error messages come from the checked run only.
    //! - **The commonest shapes are cheapest.** A leaf divided by a leaf, a
    //!   flat layout divided by a tuple of leaves or integers (e.g.
    //!   `zipped_divide((M,N,K):(..),<bm,bn>)`) and a leaf composed with
    //!   anything skip even the fast run's buffers (about 12–30 ns on the
    //!   2.6 GHz Xeon of the repository's `docs/benchmarks/algebra.md`). So do
    //!   a complement of one or two modes with an integer cotarget (about 12 ns), a by-mode composition
    //!   with leaf tiles over modes that are leaves or pairs of leaves (about
    //!   24 ns for two tiles), and a composition whose left operand coalesces
    //!   to two modes (its per-leaf step unrolled).
    //! - **Traversals of up to three modes start at once.** `Indices::new` on a
    //!   layout of at most three leaves with extents `< 2^20` and strides
    //!   `|d| < 2^20` needs no overflow checks (about 4 ns); its `for_each` runs
    //!   the first three modes as a loop nest, one element per turn of the
    //!   innermost loop, and carries into the fourth after each block. The
    //!   iterator borrows the layout's leaves and never allocates, whatever
    //!   their number; `nth` (and so `skip`) jumps with one division per digit.
    //!
    //! `docs/benchmarks/algebra.md` in the repository has the measurements, side by side with
    //! CuTe C++ and pycute (`cargo run --release -p kute-bench -- compare`).
}
