//! SVG pictures of layouts.
//!
//! The picture is the grid of [`table`](super::table): one cell per coordinate
//! `(m, n)`, showing the index `L(m, n)` and filled with the grey of CuTe's
//! LaTeX palette ([`BW_PALETTE`](super::BW_PALETTE)), so that it looks like
//! `print_latex` rendered. Rows and columns are labelled with their 1-D index
//! and, when the mode is nested, with the natural (hierarchical) coordinate.
//! Text is sized from the grid's dimensions and its widest number, so layouts up
//! to 64×64 stay readable; larger ones draw the shades alone, each repeated row
//! once ([`SVG_DETAIL_CELLS`]).

use super::{grid, palette_index, Drawable, BW_PALETTE};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{idx2crd, IntTuple};
use crate::layout::Layout;
use std::fmt::Write;

/// Largest number of cells an SVG picture draws (a 256×256 grid), the same as
/// [`MAX_CELLS`](super::MAX_CELLS).
pub const SVG_MAX_CELLS: usize = 1 << 16;

/// Above this many cells an SVG picture draws the shades alone, without the
/// numbers and the per-cell tooltips: each distinct row of shades defined once
/// (as its shortest period repeated, where that is much shorter) and placed
/// with `<use>`, the grid as one path (a 256x256 picture of `(256,256):(256,1)`
/// is about 27 KB, swizzled ones up to about 80 KB; at worst, every row
/// different, about a megabyte).
/// A TV picture (an MMA's, a copy's) of more cells is drawn compactly
/// ([`svg_mma_auto`](super::svg_mma_auto)).
pub const SVG_DETAIL_CELLS: usize = 1 << 12;
/// Width of one character of a monospace font, as a fraction of the font size.
const CHAR_W: f64 = 0.6;
/// Space around the picture.
const MARGIN: f64 = 12.0;
/// Colour of the hierarchical-coordinate labels.
const COORD_COLOUR: &str = "#1f5fa8";
/// Colour of the 1-D index labels.
const INDEX_COLOUR: &str = "#333333";

/// An SVG picture of the layout's grid (see [`table`](super::table)): the layout
/// as a title, then a cell per coordinate holding its index, coloured by index
/// modulo 8 with CuTe's grey palette (white text on the dark greys). Rows are
/// mode 0 and columns mode 1; a rank-1 layout is drawn as one column. Each row and
/// column is labelled with its index and, for a nested mode, its natural
/// coordinate; hovering a cell shows its coordinate in a tooltip.
///
/// Pre: as [`table`](super::table), and at most [`SVG_MAX_CELLS`] cells (else a
/// `Limit` error). Post: an SVG document with one cell per coordinate.
///
/// ```
/// use kute::Layout;
/// let l: Layout = "(2,(2,2)):(4,(2,1))".parse().unwrap();
/// let s = kute::print::svg(&l).unwrap();
/// assert!(s.starts_with("<svg "));
/// assert_eq!(s.matches("<rect class=\"cell\"").count(), 8);
/// assert!(s.contains(">(1,1)</text>")); // column 3's natural coordinate
/// ```
pub fn svg(l: &(impl Drawable + ?Sized)) -> Result<String> {
    svg_with(l, &SvgOptions::default())
}

/// What an SVG picture shows besides the indices.
#[derive(Clone, Debug, Default)]
pub struct SvgOptions {
    /// Colour each cell by its shared-memory bank, for elements of this many
    /// bytes: bank `(index · bytes / 4) mod 32` (32 banks of 4 bytes), with a
    /// legend of the 32 bank colours.
    pub banks: Option<i64>,
    /// Cells to outline, by 1-D coordinate (row-major in the grid: `m · cols + n`),
    /// each with a label (a thread number, say) and whether to mark it as a
    /// conflict (red) rather than an access (blue).
    pub marks: Vec<(i64, String, bool)>,
}

/// The colour of bank `b` of 32: hues around the wheel, alternating light and
/// dark so that neighbouring banks differ.
///
/// Pre: none. Post: an SVG colour; `b` is taken modulo 32.
///
/// ```
/// use kute::print::bank_colour;
/// assert_eq!(bank_colour(0), "#eea0a0"); // light red: hue 0, 70% saturation, 78% lightness
/// assert_eq!(bank_colour(33), bank_colour(1));
/// assert_ne!(bank_colour(1), bank_colour(2));
/// ```
pub fn bank_colour(b: i64) -> String {
    let b = b.rem_euclid(32);
    let hue = ((b * 360 / 32 * 7) % 360) as f64; // a stride of 7 scatters neighbours across the wheel
    let light = if b % 2 == 0 { 0.78 } else { 0.62 };
    let (r, g, bl) = hsl_to_rgb(hue, 0.7, light);
    format!("#{r:02x}{g:02x}{bl:02x}")
}

/// An HSL colour (hue in degrees, saturation and lightness in `[0, 1]`) as
/// 8-bit RGB: SVG 1.1 renderers read hex colours, not `hsl()`.
fn hsl_to_rgb(h: f64, s: f64, l: f64) -> (u8, u8, u8) {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let hp = h / 60.0;
    let x = c * (1.0 - (hp % 2.0 - 1.0).abs());
    let (r, g, b) = match hp as i64 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let to = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    (to(r), to(g), to(b))
}

/// `log2(elem_bytes)`, checking the element size: the sizes the bank model
/// takes (the analyses, and the bank colours of `svg`).
///
/// Pre: `elem_bytes` is 1, 2, 4, 8 or 16 (else an `Inadmissible` error
/// naming `op`). Post: its base-2 logarithm.
///
/// ```
/// assert_eq!(kute::print::elem_log2(8, "svg").unwrap(), 3);
/// assert!(kute::print::elem_log2(3, "svg").unwrap_err().to_string().starts_with("svg: "));
/// ```
pub fn elem_log2(elem_bytes: i64, op: &'static str) -> Result<u32> {
    match elem_bytes {
        1 | 2 | 4 | 8 | 16 => Ok(elem_bytes.trailing_zeros()),
        _ => Err(Error::inadmissible(op, format!("element size {elem_bytes}: it must be 1, 2, 4, 8 or 16 bytes"))),
    }
}

/// [`svg`], with cells coloured by bank and outlined as `opts` asks.
///
/// Pre: as [`svg`]; `opts.banks` 1, 2, 4, 8 or 16 (else an `Inadmissible` error); each
/// mark inside the grid (else a `Mismatch` error). Post: as [`svg`], each cell's
/// fill its bank's [`bank_colour`] when `banks` is set (the cell's tooltip
/// names the bank), a legend of the banks below the grid, and one outline per mark.
///
/// ```
/// use kute::print::{svg_with, SvgOptions};
/// let l = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap().to_any_layout("l").unwrap();
/// let opts = SvgOptions { banks: Some(2), marks: vec![(0, "t0".into(), false)] };
/// let s = svg_with(&l, &opts).unwrap();
/// assert!(s.contains("bank 0") && s.contains("class=\"legend\"") && s.contains("class=\"mark\""));
/// ```
pub fn svg_with(l: &(impl Drawable + ?Sized), opts: &SvgOptions) -> Result<String> {
    crate::sym::refuse("svg", || l.drawn().has_symbols())?;
    let l = l.drawn();
    let g = grid(&l, "svg")?;
    if g.coords.is_some() && opts.banks.is_some() {
        return Err(Error::mismatch("svg", format!("{l} holds coordinates, not indices: no banks to colour")));
    }
    let (rows, cols, vals) = (g.rows, g.cols, &g.vals);
    let (row_mode, col_mode) = (g.row_mode.clone(), g.col_mode.clone());
    if vals.len() > SVG_MAX_CELLS {
        return Err(Error::limit(
            "svg",
            format!("{l} has {rows}x{cols} cells; an SVG picture is limited to {SVG_MAX_CELLS} (256x256)"),
        ));
    }
    let row_labels = labels(&row_mode, rows)?;
    let col_labels = labels(&col_mode, cols)?;
    let title = l.to_string();

    // Sizes: a smaller font for big grids; cells fit the widest number.
    let font = match rows.max(cols) {
        0..=16 => 16.0,
        17..=32 => 14.0,
        _ => 12.0,
    };
    let cw = CHAR_W * font;
    let widest = match &g.coords {
        Some(c) => c.iter().map(String::len).max().unwrap_or(1),
        None => vals.iter().map(|v| v.to_string().len()).max().unwrap_or(1),
    };
    // a summarised picture's cells hold no numbers: a font's height each
    let summarised = vals.len() > SVG_DETAIL_CELLS;
    // with a warp's access outlined, a cell holds two lines: its index, a
    // little smaller, above its thread's label at the font's size (readable
    // with the picture shrunk to a page's width)
    let marked_picture = !opts.marks.is_empty() && !summarised;
    let value_font = if marked_picture { 0.8 * font } else { font };
    let cell = if summarised {
        font
    } else if marked_picture {
        (2.4 * font).max((widest as f64 * CHAR_W * value_font + 0.6 * font).ceil())
    } else {
        (2.0 * font).max((widest as f64 * cw + font).ceil())
    };
    // (and its labels every 8th row and column)
    let label_every = if summarised { 8 } else { 1 };
    let text_dy = 0.35 * font; // baseline offset that centres digits vertically
    let gap = 0.5 * font;

    // Row labels: a column of coordinates (if nested), then a column of indices.
    let row_idx_w = text_width(row_labels.iter().map(|(i, _)| i.len()), cw);
    let row_crd_w = text_width(row_labels.iter().filter_map(|(_, c)| c.as_ref().map(String::len)), cw);
    // Column labels: a row of coordinates (if nested, turned upright when they
    // are wider than a cell), then a row of indices.
    let col_crd_w = text_width(col_labels.iter().filter_map(|(_, c)| c.as_ref().map(String::len)), cw);
    // Widen the cells (up to twice) to keep coordinates level; else turn them upright.
    let cell = if col_crd_w + 8.0 > cell && col_crd_w + 8.0 <= 2.0 * cell { col_crd_w + 8.0 } else { cell };
    let col_crd_upright = col_crd_w > cell - 4.0;
    let col_crd_h = match (col_crd_w > 0.0, col_crd_upright) {
        (false, _) => 0.0,
        (true, true) => col_crd_w + gap,
        (true, false) => font + gap,
    };
    let title_font = font + 2.0;
    let title_h = title_font * 1.6;

    let left = MARGIN + if row_crd_w > 0.0 { row_crd_w + gap } else { 0.0 } + row_idx_w + gap;
    let top = MARGIN + title_h + col_crd_h + font + gap;
    let grid_w = cols as f64 * cell;
    let grid_h = rows as f64 * cell;
    let title_w = title.chars().count() as f64 * (CHAR_W + 0.05) * title_font; // bold is a little wider
    let width = (left + grid_w + MARGIN).max(2.0 * MARGIN + title_w).ceil();
    let height = (top + grid_h + MARGIN).ceil();

    if let Some(b) = opts.banks {
        // (the sizes the bank analysis models, so that a picture and its analysis agree)
        elem_log2(b, "svg")?;
    }
    for (k, _, _) in &opts.marks {
        if !(0..rows * cols).contains(k) {
            return Err(Error::mismatch("svg", format!("a marked cell {k} is outside the {rows}x{cols} grid")));
        }
    }
    let bank_of = |v: i64| -> Result<Option<i64>> {
        match opts.banks {
            None => Ok(None),
            Some(b) => {
                let byte = v.checked_mul(b).ok_or_else(|| Error::overflow(format!("svg: the byte address of {v}")))?;
                Ok(Some(byte.div_euclid(4).rem_euclid(32)))
            }
        }
    };
    // the legend: two rows of 16 swatches below the grid
    let swatch = (1.6 * font).ceil();
    let legend_h = if opts.banks.is_some() { gap + font + 2.0 * swatch + gap } else { 0.0 };
    let height = (height + legend_h).ceil();
    let width = if opts.banks.is_some() { width.max(left + 16.0 * swatch + MARGIN).ceil() } else { width };
    let mut s = String::with_capacity(512 + vals.len() * 160);
    // (a summarised picture places its rows with <use>: SVG 1.1 renderers read xlink:href)
    let xlink = if summarised { " xmlns:xlink=\"http://www.w3.org/1999/xlink\"" } else { "" };
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\"{xlink} width=\"{width}\" height=\"{height}\" viewBox=\"0 0 \
         {width} {height}\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">"
    );
    let _ = writeln!(s, "<title>Layout {}</title>", esc(&title));
    let _ = writeln!(s, "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>");
    let _ = writeln!(
        s,
        "<text class=\"layout\" x=\"{MARGIN}\" y=\"{}\" font-size=\"{title_font}\" font-weight=\"bold\">{}</text>",
        f(MARGIN + title_font),
        esc(&title)
    );

    if summarised {
        // the shades alone: each distinct row of shades defined once (as its
        // shortest period repeated) and placed by a <use> per row; the grid one path
        let step = cell.round() as i64;
        let mut defs = super::repeat::Rows::new("r", 240);
        let mut uses = String::new();
        let mut row = Vec::with_capacity(cols as usize);
        for m in 0..rows {
            row.clear();
            for n in 0..cols {
                let v = vals[(m * cols + n) as usize];
                row.push(match bank_of(v)? {
                    Some(b) => bank_colour(b),
                    None => shade(v).0,
                });
            }
            let id = defs.id(&row, step, &|out, run| super::repeat::fills(out, run, step, step));
            super::repeat::place(&mut uses, &id, &f(left), &f(top + (m * step) as f64));
        }
        let _ = writeln!(s, "<defs>\n{}</defs>", defs.defs);
        let _ = writeln!(
            s,
            "<g class=\"cells\"><title>{rows}x{cols} cells: the shades of their values (above {SVG_DETAIL_CELLS} \
             cells the numbers are left out)</title>\n{uses}</g>"
        );
        let mut grid = String::new();
        let (gw, gh) = (cols * step, rows * step);
        for m in 0..=rows {
            let _ = write!(grid, "M{} {}h{gw}", f(left), f(top + (m * step) as f64));
        }
        for n in 0..=cols {
            let _ = write!(grid, "M{} {}v{gh}", f(left + (n * step) as f64), f(top));
        }
        let _ = writeln!(s, "<path class=\"grid\" d=\"{grid}\" fill=\"none\" stroke=\"#000000\" stroke-width=\"1\"/>");
    } else {
        let sizes = (left, top, cell, 0.35 * value_font, value_font, font);
        detailed_cells(&mut s, &g, &row_labels, &col_labels, sizes, opts, &bank_of)?;
    }
    let _ = writeln!(
        s,
        "<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#000000\" \
         stroke-width=\"2\"/>",
        f(left),
        f(top),
        f(grid_w),
        f(grid_h)
    );

    // Row labels, right-aligned against the grid.
    let _ = writeln!(s, "<g class=\"row-labels\" font-size=\"{font}\" text-anchor=\"end\">");
    for (m, (idx, crd)) in row_labels.iter().enumerate().step_by(label_every) {
        let y = f(top + (m as f64 + 0.5) * cell + text_dy);
        let _ = writeln!(s, "<text x=\"{}\" y=\"{y}\" fill=\"{INDEX_COLOUR}\">{idx}</text>", f(left - gap));
        if let Some(c) = crd {
            let x = f(left - gap - row_idx_w - gap);
            let _ = writeln!(s, "<text x=\"{x}\" y=\"{y}\" fill=\"{COORD_COLOUR}\">{}</text>", esc(c));
        }
    }
    s.push_str("</g>\n");

    // Column labels above the grid.
    let _ = writeln!(s, "<g class=\"col-labels\" font-size=\"{font}\" text-anchor=\"middle\">");
    for (n, (idx, crd)) in col_labels.iter().enumerate().step_by(label_every) {
        let x = left + (n as f64 + 0.5) * cell;
        let _ = writeln!(s, "<text x=\"{}\" y=\"{}\" fill=\"{INDEX_COLOUR}\">{idx}</text>", f(x), f(top - gap));
        if let Some(c) = crd {
            let base = top - gap - font - gap;
            if col_crd_upright {
                let (tx, ty) = (f(x + text_dy), f(base));
                let _ = writeln!(
                    s,
                    "<text x=\"{tx}\" y=\"{ty}\" fill=\"{COORD_COLOUR}\" text-anchor=\"start\" \
                     transform=\"rotate(-90 {tx} {ty})\">{}</text>",
                    esc(c)
                );
            } else {
                let _ = writeln!(s, "<text x=\"{}\" y=\"{}\" fill=\"{COORD_COLOUR}\">{}</text>", f(x), f(base), esc(c));
            }
        }
    }
    s.push_str("</g>\n");
    if !opts.marks.is_empty() {
        // the thread under the index, as large as the index (readable where the
        // picture is shrunk to a page's width); the index moved up (see detailed_cells)
        let _ = writeln!(
            s,
            "<g class=\"marks\" font-size=\"{font}\" font-weight=\"bold\" fill=\"none\" text-anchor=\"middle\">"
        );
        for (k, label, conflict) in &opts.marks {
            let (m, n) = (k / cols, k % cols);
            let colour = if *conflict { "#b0151c" } else { "#174a85" };
            let (x, y) = (left + n as f64 * cell, top + m as f64 * cell);
            let _ = writeln!(
                s,
                "<rect class=\"mark\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" stroke=\"{colour}\" \
                 stroke-width=\"3\"/><text x=\"{}\" y=\"{}\" fill=\"{colour}\">{}</text>",
                f(x + 2.0),
                f(y + 2.0),
                f(cell - 4.0),
                f(cell - 4.0),
                f(x + cell / 2.0),
                f(y + marked_index_y(cell, font) + 1.1 * font),
                esc(label)
            );
        }
        s.push_str("</g>\n");
    }
    if opts.banks.is_some() {
        let y0 = top + grid_h + gap;
        let _ = writeln!(s, "<g class=\"legend\" font-size=\"{}\" text-anchor=\"middle\">", f(0.6 * font));
        let _ = writeln!(s, "<text x=\"{}\" y=\"{}\" text-anchor=\"start\">banks</text>", f(left), f(y0 + font));
        for b in 0..32i64 {
            let (x, y) = (left + (b % 16) as f64 * swatch, y0 + font + 4.0 + (b / 16) as f64 * swatch);
            let _ = writeln!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"{swatch}\" height=\"{swatch}\" fill=\"{}\" stroke=\"#000000\"/>\
                 <text x=\"{}\" y=\"{}\">{b}</text>",
                f(x),
                f(y),
                bank_colour(b),
                f(x + swatch / 2.0),
                f(y + swatch / 2.0 + 0.2 * font)
            );
        }
        s.push_str("</g>\n");
    }
    s.push_str("</svg>\n");
    Ok(s)
}

/// The cells one by one: a rectangle with a tooltip per coordinate, then
/// the numbers (pictures of up to [`SVG_DETAIL_CELLS`] cells).
fn detailed_cells(
    s: &mut String,
    g: &super::Grid,
    row_labels: &[(String, Option<String>)],
    col_labels: &[(String, Option<String>)],
    (left, top, cell, text_dy, font, label_font): (f64, f64, f64, f64, f64, f64),
    opts: &SvgOptions,
    bank_of: &dyn Fn(i64) -> Result<Option<i64>>,
) -> Result<()> {
    let (rows, cols, vals) = (g.rows, g.cols, &g.vals);
    let _ = writeln!(s, "<g class=\"cells\" stroke=\"#000000\" stroke-width=\"1\">");
    for m in 0..rows {
        for n in 0..cols {
            let v = vals[(m * cols + n) as usize];
            let (fill, bank) = match bank_of(v)? {
                Some(b) => (bank_colour(b), format!(", bank {b}")),
                None => (shade(v).0, String::new()),
            };
            let _ = writeln!(
                s,
                "<rect class=\"cell\" x=\"{}\" y=\"{}\" width=\"{cell}\" height=\"{cell}\" fill=\"{fill}\">\
                 <title>{} \u{2192} {}{bank}</title></rect>",
                f(left + n as f64 * cell),
                f(top + m as f64 * cell),
                esc(&tooltip(&row_labels[m as usize], &col_labels[n as usize])),
                g.text(m, n),
            );
        }
    }
    s.push_str("</g>\n");
    let mut marked = vec![false; vals.len()];
    for (k, _, _) in &opts.marks {
        marked[*k as usize] = true;
    }
    let _ = writeln!(s, "<g class=\"values\" font-size=\"{font}\" text-anchor=\"middle\">");
    for m in 0..rows {
        for n in 0..cols {
            let v = vals[(m * cols + n) as usize];
            let ink = if opts.banks.is_some() { "#000000" } else { shade(v).1 };
            let dy =
                if marked[(m * cols + n) as usize] { marked_index_y(cell, label_font) } else { 0.5 * cell + text_dy };
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{}\" fill=\"{ink}\">{}</text>",
                f(left + (n as f64 + 0.5) * cell),
                f(top + m as f64 * cell + dy),
                g.text(m, n)
            );
        }
    }
    s.push_str("</g>\n");
    Ok(())
}

/// The baseline of a marked cell's index (at 0.8 of the font's size), from
/// the cell's top: the upper of its two lines (the thread's label, at the
/// font's size, is the lower, 1.1 fonts further down).
fn marked_index_y(cell: f64, font: f64) -> f64 {
    (cell - 1.95 * font) / 2.0 + 0.7 * font
}

/// The labels of the `n` coordinates of a mode: the 1-D index, and the natural
/// coordinate when the mode's shape is nested.
fn labels(mode: &Layout, n: i64) -> Result<Vec<(String, Option<String>)>> {
    let shape = mode.shape();
    let nested = !shape.is_leaf();
    (0..n)
        .map(|i| {
            let crd = if nested {
                let c = idx2crd(IntTuple::leaf(Int::new_dynamic(i)).as_ref(), shape.as_ref())
                    .map_err(|e| Error::new(e.kind(), "svg", e.to_string()))?;
                Some(c.to_dynamic().to_string())
            } else {
                None
            };
            Ok((i.to_string(), crd))
        })
        .collect()
}

/// A cell's tooltip: its (natural) coordinate.
fn tooltip(row: &(String, Option<String>), col: &(String, Option<String>)) -> String {
    let pick = |l: &(String, Option<String>)| l.1.clone().unwrap_or_else(|| l.0.clone());
    format!("({},{})", pick(row), pick(col))
}

/// The fill and text colours of an index: the palette's `black!NN` is NN% black
/// on white; text is white where the grey is darker than the middle.
pub(crate) fn shade(v: i64) -> (String, &'static str) {
    let name = BW_PALETTE[palette_index(v)];
    let pct: u32 = name.strip_prefix("black!").and_then(|p| p.parse().ok()).unwrap_or(0);
    let g = ((255 * (100 - pct.min(100)) + 50) / 100) as u8;
    (format!("#{g:02x}{g:02x}{g:02x}"), if pct > 50 { "#ffffff" } else { "#000000" })
}

/// Width of the widest of some texts of `lens` characters (0 when there are none).
fn text_width(lens: impl Iterator<Item = usize>, cw: f64) -> f64 {
    (lens.max().unwrap_or(0) as f64 * cw).ceil()
}

/// A coordinate, without needless decimals.
pub(crate) fn f(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    if r.fract() == 0.0 {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// Escape text for XML.
pub(crate) fn esc(t: &str) -> String {
    let mut o = String::with_capacity(t.len());
    for c in t.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            c => o.push(c),
        }
    }
    o
}
