//! Code from layouts: source text that computes a layout's function with
//! every value baked in ([`cuda`]), and [`StaticLayout`], the trait of the
//! zero-sized layouts `kute_macros::static_layout!` generates for Rust.

pub mod cuda;

/// A layout known when the program is compiled, as a zero-sized value whose
/// evaluation is plain integer arithmetic on literals (what
/// `kute_macros::static_layout!("...")` generates): the same instructions a
/// programmer would write by hand.
///
/// ```
/// use kute::codegen::StaticLayout;
/// // what static_layout!("(_4,_8):(_8,_1)") generates, by hand
/// #[derive(Clone, Copy)]
/// struct L;
/// impl StaticLayout for L {
///     const SIZE: i64 = 32;
///     const TEXT: &'static str = "(_4,_8):(_8,_1)";
///     fn eval(self, i: i64) -> i64 { (i & 3) * 8 + (i >> 2) }
///     fn for_each(self, mut f: impl FnMut(i64)) { for c1 in 0..8 { for c0 in 0..4 { f(c0 * 8 + c1) } } }
/// }
/// assert_eq!(L.eval(5), 9);
/// let mut v = Vec::new();
/// L.for_each(|x| v.push(x));
/// assert_eq!(v[..3], [0, 8, 16]);
/// ```
pub trait StaticLayout: Copy {
    /// The size of the domain.
    const SIZE: i64;
    /// The layout in CuTe's notation.
    const TEXT: &'static str;

    /// The value at the 1-D coordinate `i` (CuTe's evaluation, the last mode
    /// extending past the size; wrapping on `i64` overflow).
    ///
    /// Pre: `i >= 0` (a shift and a mask stand for `/` and `%` there).
    /// Post: the layout's value at `i`.
    ///
    /// ```
    /// use kute::codegen::StaticLayout;
    /// // L: the hand-written `(_4,_8):(_8,_1)` of the trait's example
    /// # #[derive(Clone, Copy)]
    /// # struct L;
    /// # impl StaticLayout for L {
    /// #     const SIZE: i64 = 32;
    /// #     const TEXT: &'static str = "(_4,_8):(_8,_1)";
    /// #     fn eval(self, i: i64) -> i64 { (i & 3) * 8 + (i >> 2) }
    /// #     fn for_each(self, mut f: impl FnMut(i64)) { for c1 in 0..8 { for c0 in 0..4 { f(c0 * 8 + c1) } } }
    /// # }
    /// assert_eq!((L.eval(5), L.eval(33)), (9, 16)); // CuTe: (1,1) -> 9; past the size (1,8) -> 16
    /// let l = L.to_layout().unwrap();
    /// assert!((0..40).all(|i| L.eval(i) == l.eval(i).unwrap()));
    /// ```
    fn eval(self, i: i64) -> i64;

    /// `f` of the value at each coordinate of the domain, in order (a loop
    /// nest, innermost over the first mode).
    ///
    /// Pre: none. Post: `f` called `SIZE` times, with `eval(0)`, `eval(1)`, ...
    ///
    /// ```
    /// use kute::codegen::StaticLayout;
    /// // L: the hand-written `(_4,_8):(_8,_1)` of the trait's example
    /// # #[derive(Clone, Copy)]
    /// # struct L;
    /// # impl StaticLayout for L {
    /// #     const SIZE: i64 = 32;
    /// #     const TEXT: &'static str = "(_4,_8):(_8,_1)";
    /// #     fn eval(self, i: i64) -> i64 { (i & 3) * 8 + (i >> 2) }
    /// #     fn for_each(self, mut f: impl FnMut(i64)) { for c1 in 0..8 { for c0 in 0..4 { f(c0 * 8 + c1) } } }
    /// # }
    /// let mut v = Vec::new();
    /// L.for_each(|x| v.push(x));
    /// assert_eq!(v[..5], [0, 8, 16, 24, 1]); // the column-major walk of (_4,_8):(_8,_1)
    /// assert_eq!(v, (0..L::SIZE).map(|i| L.eval(i)).collect::<Vec<_>>());
    /// ```
    fn for_each(self, f: impl FnMut(i64));

    /// The layout as a run-time [`Layout`](crate::Layout).
    ///
    /// Pre: none (the text was checked when the program was built).
    /// Post: a layout that prints as [`StaticLayout::TEXT`] parses.
    ///
    /// ```
    /// use kute::codegen::StaticLayout;
    /// // L: the hand-written `(_4,_8):(_8,_1)` of the trait's example
    /// # #[derive(Clone, Copy)]
    /// # struct L;
    /// # impl StaticLayout for L {
    /// #     const SIZE: i64 = 32;
    /// #     const TEXT: &'static str = "(_4,_8):(_8,_1)";
    /// #     fn eval(self, i: i64) -> i64 { (i & 3) * 8 + (i >> 2) }
    /// #     fn for_each(self, mut f: impl FnMut(i64)) { for c1 in 0..8 { for c0 in 0..4 { f(c0 * 8 + c1) } } }
    /// # }
    /// let l = L.to_layout().unwrap();
    /// assert_eq!((l.to_string(), l.size().unwrap().value()), ("(_4,_8):(_8,_1)".to_string(), L::SIZE));
    /// ```
    fn to_layout(self) -> crate::Result<crate::Layout> {
        Self::TEXT.parse()
    }
}
