//! The CPU reference: what a copy from one layout to another must leave in
//! the destination, computed by walking both layouts with kute.

use crate::{Error, Result};
use kute::Layout;
use std::fmt::Debug;

/// Checks that `out`, the destination buffer after a kernel ran, holds at
/// offset `dst(c)` the element `input[src(c)]` for every coordinate `c`.
///
/// Pre: `src` and `dst` of the same size; their offsets inside `input` and
/// `out` (else an error). Post: `Ok` when every element matches, else a
/// `Wrong` error naming the first coordinate that differs and how many do.
///
/// ```
/// use kute_cuda::reference::check_copy;
/// let src: kute::Layout = "(2,3):(3,1)".parse().unwrap();
/// let dst: kute::Layout = "(2,3):(1,2)".parse().unwrap();
/// let input = [0, 1, 2, 3, 4, 5];
/// assert!(check_copy("t", &src, &dst, &input, &[0, 3, 1, 4, 2, 5]).is_ok());
/// assert!(check_copy("t", &src, &dst, &input, &[0, 1, 2, 3, 4, 5]).is_err());
/// ```
pub fn check_copy<T: Copy + PartialEq + Debug>(
    kernel: &str,
    src: &Layout,
    dst: &Layout,
    input: &[T],
    out: &[T],
) -> Result<()> {
    let wrong = |why: String| Error::Wrong { kernel: kernel.to_string(), why };
    if src.size()? != dst.size()? {
        return Err(wrong(format!("{src} and {dst} differ in size")));
    }
    let (mut first, mut count) = (None, 0u64);
    for (c, (s, d)) in src.indices()?.zip(dst.indices()?).enumerate() {
        let (Some(&a), Some(&b)) =
            (usize::try_from(s).ok().and_then(|s| input.get(s)), usize::try_from(d).ok().and_then(|d| out.get(d)))
        else {
            return Err(wrong(format!("coordinate {c}: offset {s} or {d} is outside the buffers")));
        };
        if a != b {
            count += 1;
            first.get_or_insert(format!(
                "coordinate {c}: destination offset {d} holds {b:?}, source offset {s} holds {a:?}"
            ));
        }
    }
    match first {
        None => Ok(()),
        Some(f) => Err(wrong(format!("{count} elements differ; the first at {f}"))),
    }
}
