//! Pictures of layouts: CuTe's `print_layout` table, `print_latex` TikZ, and SVG.
//!
//! [`table`] and [`latex`] reproduce CuTe's output byte for byte.

mod repeat;
pub(crate) mod svg;
mod tv;

pub use svg::{bank_colour, elem_log2, svg, svg_with, SvgOptions, SVG_DETAIL_CELLS, SVG_MAX_CELLS};
pub use tv::{
    latex_copy, latex_mma, svg_copy, svg_copy_auto, svg_copy_compact, svg_mma, svg_mma_auto, svg_mma_compact,
};

use crate::composed::AnyLayout;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::layout::Layout;
use std::fmt::Write;

/// Largest number of cells a table or LaTeX picture draws (a 256×256 grid: a
/// table of about 1.3 MB, a LaTeX picture of about 3 MB; an empty row or
/// column counts as one, so a `0×10^12` grid is refused before its headers
/// are written).
pub const MAX_CELLS: i64 = 1 << 16;

/// What can be drawn: a layout, or a swizzled or composed layout (whose
/// cells hold `A(offset + B(m, n))`).
pub trait Drawable {
    /// The drawing's layout-like value.
    ///
    /// Pre: none. Post: the same function of the coordinates as `self` (a
    /// layout as [`AnyLayout::Layout`], a composed layout as its
    /// [`AnyLayout`] form).
    ///
    /// ```
    /// use kute::print::Drawable;
    /// use kute::{AnyLayout, Layout};
    /// let l: Layout = "(_2,_4):(_4,_1)".parse().unwrap();
    /// assert_eq!(*l.drawn(), AnyLayout::Layout(l.clone()));
    /// ```
    fn drawn(&self) -> std::borrow::Cow<'_, AnyLayout>;
}

impl Drawable for Layout {
    fn drawn(&self) -> std::borrow::Cow<'_, AnyLayout> {
        std::borrow::Cow::Owned(AnyLayout::Layout(self.clone()))
    }
}

impl Drawable for AnyLayout {
    fn drawn(&self) -> std::borrow::Cow<'_, AnyLayout> {
        std::borrow::Cow::Borrowed(self)
    }
}

impl Drawable for crate::composed::ComposedLayout {
    fn drawn(&self) -> std::borrow::Cow<'_, AnyLayout> {
        std::borrow::Cow::Owned(AnyLayout::from(self.clone()))
    }
}

/// The cells of a picture: a rank-2 view of the layout (of the inner layout
/// of a composed one) and the value of each cell, row-major.
pub(crate) struct Grid {
    pub(crate) rows: i64,
    pub(crate) cols: i64,
    pub(crate) vals: Vec<i64>,
    /// The (inner) layout's modes along the rows and the columns.
    pub(crate) row_mode: Layout,
    pub(crate) col_mode: Layout,
    /// The (inner) layout's cosize (of a coordinate layout, the number of
    /// cells: its values are not indices).
    pub(crate) cosize: Int,
    /// A coordinate layout's cells as `print_tensor` shows them (`(0,1)`),
    /// row-major; `vals` then holds each coordinate's first component, which
    /// picks its shade. `None` for a layout of indices.
    pub(crate) coords: Option<Vec<String>>,
}

impl Grid {
    /// The text of cell `(m, n)`: its index, or its coordinate.
    pub(crate) fn text(&self, m: i64, n: i64) -> String {
        let k = (m * self.cols + n) as usize;
        match &self.coords {
            Some(c) => c[k].clone(),
            None => self.vals[k].to_string(),
        }
    }
}

/// A coordinate as `print_tensor` shows it: the values, no static marks.
fn coordinate_text(p: &crate::layout::point::Point) -> String {
    p.to_int_tuple().to_string().replace('_', "")
}

/// A rank-1 layout as a column: `append<2>(L, _1:_0)`, CuTe's padding.
fn as_column(l: &Layout) -> Layout {
    Layout::concat_unchecked([l, &Layout::unit()])
}

/// The grid of a rank-2 view of `l`. A rank-1 layout is padded with `_1:_0`
/// into a `size × 1` column, as CuTe's `print_latex` does (and as its
/// `print_tensor` lists a rank-1 tensor), so every picture draws it alike.
pub(crate) fn grid(l: &AnyLayout, op: &'static str) -> Result<Grid> {
    let (inner, outer) = match l {
        AnyLayout::Layout(x) => (x, None),
        AnyLayout::Composed(k) => match k.inner() {
            AnyLayout::Layout(x) => (x, Some(k)),
            other => return Err(Error::mismatch(op, format!("{l}: its inner part {other} is not a layout to draw"))),
        },
        AnyLayout::Swizzle(s) => {
            return Err(Error::mismatch(op, format!("{s} has no shape: compose it with a layout to draw it")))
        }
    };
    let view = match inner.rank() {
        1 => as_column(inner),
        2 => inner.clone(),
        r => return Err(Error::mismatch(op, format!("{l} has rank {r}; a table needs rank 1 or 2"))),
    };
    let m0 = view.mode(0)?;
    let m1 = view.mode(1)?;
    let (rows, cols) = (m0.size()?.value(), m1.size()?.value());
    if rows < 0 || cols < 0 {
        return Err(Error::mismatch(
            op,
            format!("{l} has a negative extent ({rows}x{cols}); a table needs sizes >= 0"),
        ));
    }
    if rows.max(1).checked_mul(cols.max(1)).is_none_or(|c| c > MAX_CELLS) {
        return Err(Error::limit(
            op,
            format!("{l} has too many cells to draw ({rows}x{cols}; the limit is {MAX_CELLS}, a 256x256 grid)"),
        ));
    }
    let mut vals = Vec::with_capacity((rows * cols) as usize);
    if outer.is_none() && !view.has_int_strides() {
        // a coordinate layout (basis strides): each cell holds a coordinate
        let mut coords = Vec::with_capacity((rows * cols) as usize);
        for m in 0..rows {
            for n in 0..cols {
                let at = crate::int_tuple::IntTuple::tuple_of_leaves([Int::new_dynamic(m), Int::new_dynamic(n)]);
                let p = view.eval_coord_point(&at).map_err(|e| e.in_op(op))?;
                let first = p.to_int_tuple().leaves().first().map_or(0, |x| x.value());
                vals.push(first);
                coords.push(coordinate_text(&p));
            }
        }
        let (row_mode, col_mode) = if inner.rank() == 1 { (inner.mode(0)?, Layout::unit()) } else { (m0, m1) };
        let cosize = Int::new_dynamic(rows * cols);
        return Ok(Grid { rows, cols, vals, row_mode, col_mode, cosize, coords: Some(coords) });
    }
    for m in 0..rows {
        let a = m0.eval_int(Int::new_dynamic(m))?;
        for n in 0..cols {
            let b = m1.eval_int(Int::new_dynamic(n))?;
            let mut v = a.add(b).map_err(|e| e.in_op(op))?;
            if let Some(k) = outer {
                v = k.outer().eval_int(k.offset().add(v).map_err(|e| e.in_op(op))?)?;
            }
            vals.push(v.value());
        }
    }
    let cosize = inner.cosize().map_err(|e| e.in_op(op))?;
    // a rank-1 layout's own mode labels its cells, not the padded tuple
    let (row_mode, col_mode) = if inner.rank() == 1 { (inner.mode(0)?, Layout::unit()) } else { (m0, m1) };
    Ok(Grid { rows, cols, vals, row_mode, col_mode, cosize, coords: None })
}

fn num_digits(x: i64) -> usize {
    let mut d = 1;
    let mut t = 10i64;
    while d < 19 && x >= t {
        d += 1;
        t = t.saturating_mul(10);
    }
    d
}

/// CuTe's `print_layout(L)`: the layout, then a grid of its values indexed by
/// the row (mode 0) and column (mode 1) coordinates. Byte-identical to CuTe for
/// rank-2 layouts (CuTe's `print_layout` takes only those); a rank-1 layout is
/// shown as one column, as [`latex`] and [`svg`](svg()) draw it.
///
/// Pre: `L` has rank 1 or 2 and modes of non-negative size (else a `Mismatch`
/// error), at most [`MAX_CELLS`] cells (else a `Limit` error) and integer
/// strides (else an `Inadmissible` error); the indices fit in `i64` (else an
/// `Overflow` error).
/// Post: the layout on the first line, then the grid of `L(m, n)`, row `m` for
/// mode 0 and column `n` for mode 1.
///
/// ```
/// use kute::Layout;
/// let l: Layout = "(2,(2,2)):(4,(2,1))".parse().unwrap();
/// let t = kute::print::table(&l).unwrap();
/// assert_eq!(t.lines().nth(3).unwrap(), " 0  | 0 | 2 | 1 | 3 |");
/// ```
pub fn table(l: &(impl Drawable + ?Sized)) -> Result<String> {
    crate::sym::refuse("table", || l.drawn().has_symbols())?;
    let l = l.drawn();
    let g = grid(&l, "table")?;
    let (rows, cols) = (g.rows, g.cols);
    let w = match &g.coords {
        Some(c) => c.iter().map(String::len).max().unwrap_or(1) + 2,
        None => num_digits(g.cosize.value()) + 2,
    };
    let mut s = String::new();
    let _ = writeln!(s, "{l}");
    s.push_str("    ");
    for n in 0..cols {
        let _ = write!(s, "  {:>width$} ", n, width = w - 2);
    }
    s.push('\n');
    let mut sep = String::from("    ");
    for _ in 0..cols {
        sep.push('+');
        sep.push_str(&"-".repeat(w));
    }
    sep.push_str("+\n");
    for m in 0..rows {
        s.push_str(&sep);
        let _ = write!(s, "{m:>2}  ");
        for n in 0..cols {
            let _ = write!(s, "| {:>width$} ", g.text(m, n), width = w - 2);
        }
        s.push_str("|\n");
    }
    s.push_str(&sep);
    Ok(s)
}

/// CuTe's 8-shade grey palette (`TikzColor_BWx8`), by index modulo 8.
pub const BW_PALETTE: [&str; 8] =
    ["black!00", "black!40", "black!20", "black!60", "black!10", "black!50", "black!30", "black!70"];

/// The palette entry of an index (negative indices wrap, where CuTe is undefined).
///
/// Pre: none. Post: `idx` modulo 8, in `0..8` (Euclidean, so `-1` gives 7).
///
/// ```
/// use kute::print::{palette_index, BW_PALETTE};
/// assert_eq!(palette_index(10), 2);
/// assert_eq!(palette_index(-1), 7);
/// assert_eq!(BW_PALETTE[palette_index(3)], "black!60");
/// ```
pub fn palette_index(idx: i64) -> usize {
    idx.rem_euclid(8) as usize
}

/// CuTe's `print_latex(L)`: a standalone TikZ picture of the layout's grid,
/// byte-identical to CuTe. A rank-1 layout is drawn as a column.
///
/// Pre: as [`table`]. Post: a standalone LaTeX document with one TikZ node per
/// coordinate `(m, n)` holding `L(m, n)`, filled from [`BW_PALETTE`].
///
/// ```
/// use kute::Layout;
/// let l: Layout = "(_2,_3):(_3,_1)".parse().unwrap();
/// let t = kute::print::latex(&l).unwrap();
/// assert!(t.starts_with("% Layout: (_2,_3):(_3,_1)\n"));
/// assert!(t.contains("\\node[fill=black!60] at (1,0) {3};"));
/// // a swizzle of no bits stays in the header at a run-time offset of 0
/// let c = kute::expr::eval("Sw<0,4,3> o 0 o (_8,_8):(_8,_1)").unwrap().to_any_layout("c").unwrap();
/// assert!(kute::print::latex(&c).unwrap().starts_with("% Layout: Sw<0,4,3> o 0 o (_8,_8):(_8,_1)\n"));
/// ```
pub fn latex(l: &(impl Drawable + ?Sized)) -> Result<String> {
    crate::sym::refuse("latex", || l.drawn().has_symbols())?;
    let l = l.drawn();
    let g = grid(&l, "latex")?;
    let (rows, cols) = (g.rows, g.cols);
    // CuTe's header is `append<2>(L, _1:_0)`: of a composed layout, its inner
    // layout's, recomposed by CuTe's `composition(A, offset, B)`, where a
    // swizzle of no bits drops out at the static offset `_0` only (decided at
    // compile time: at a run-time offset of 0 CuTe keeps it, and prints it)
    let pad = |x: &Layout| if x.rank() == 1 { as_column(x) } else { x.clone() };
    let shown = match &*l {
        AnyLayout::Layout(x) => AnyLayout::Layout(pad(x)),
        AnyLayout::Composed(k) => {
            let inner = AnyLayout::Layout(pad(k.inner().as_layout("latex")?));
            match k.outer() {
                AnyLayout::Swizzle(s) if s.is_identity() && k.offset().is_static() && k.offset().value() == 0 => inner,
                outer => AnyLayout::from(crate::composed::ComposedLayout::new(outer.clone(), k.offset(), inner)),
            }
        }
        other => other.clone(),
    };
    let mut s = String::new();
    let _ = writeln!(s, "% Layout: {shown}");
    s.push_str("\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\n\\begin{document}\n");
    s.push_str(
        "\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n",
    );
    for m in 0..rows {
        for n in 0..cols {
            let v = g.vals[(m * cols + n) as usize];
            let _ = writeln!(s, "\\node[fill={}] at ({m},{n}) {{{}}};", BW_PALETTE[palette_index(v)], g.text(m, n));
        }
    }
    let _ = writeln!(s, "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,0) grid ({rows},{cols});\n");
    for m in 0..rows {
        let _ = writeln!(s, "\\node at ({m},-1) {{\\Large{{\\texttt{{{m}}}}}}};");
    }
    for n in 0..cols {
        let _ = writeln!(s, "\\node at (-1,{n}) {{\\Large{{\\texttt{{{n}}}}}}};");
    }
    s.push_str("\\end{tikzpicture}\n\\end{document}\n");
    Ok(s)
}
