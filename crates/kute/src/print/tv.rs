//! Pictures of thread-value layouts: CuTe's `print_latex` of a TiledMMA (C,
//! A and B panels) and of a TiledCopy (S and D panels), and `print_svg` of a
//! TiledMMA, byte for byte; each cell `T<thread> V<value>`, coloured by thread.

use crate::atom::{TiledCopy, TiledMma};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::tiler::Tiler;
use std::fmt::Write;

/// CuTe's `TikzColor_TV`, by thread modulo 8.
const TIKZ_TV: [&str; 8] = [
    "{rgb,255:red,175;green,175;blue,255}",
    "{rgb,255:red,175;green,255;blue,175}",
    "{rgb,255:red,255;green,255;blue,175}",
    "{rgb,255:red,255;green,175;blue,175}",
    "{rgb,255:red,210;green,210;blue,255}",
    "{rgb,255:red,210;green,255;blue,210}",
    "{rgb,255:red,255;green,255;blue,210}",
    "{rgb,255:red,255;green,210;blue,210}",
];

/// CuTe's `SVGColor_TV`, by thread modulo 8.
const SVG_TV: [&str; 8] = [
    "175,175,255",
    "175,255,175",
    "255,255,175",
    "255,175,175",
    "210,210,255",
    "210,255,210",
    "255,255,210",
    "255,210,210",
];

/// Largest tile a TV picture draws, in cells.
const MAX_TV_CELLS: i64 = 1 << 16;

/// A `(thread, value) -> (row, column)` map, and its layout as CuTe prints
/// the tensor behind it (`ArithTuple(_0,_0) o (T,V):(coordinate strides)`).
struct Tv {
    coords: Layout,
}

impl Tv {
    /// The identity tensor of `(rows, cols)` composed with `tv` (an index of
    /// the column-major tile), as CuTe's `composition(make_identity_tensor, tv)`.
    fn of_index(tv: &Layout, rows: Int, cols: Int) -> Result<Tv> {
        let id = Layout::identity(&IntTuple::tuple_of_leaves([rows, cols]))?;
        Ok(Tv { coords: crate::algebra::composition(&id, tv)? })
    }

    /// A layout whose values are already coordinates.
    fn of_coords(coords: Layout) -> Tv {
        Tv { coords }
    }

    fn threads(&self) -> Result<i64> {
        Ok(self.coords.mode(0)?.size()?.value())
    }

    fn values(&self) -> Result<i64> {
        Ok(self.coords.mode(1)?.size()?.value())
    }

    /// `(row, column)` of thread `t`'s value `v`.
    fn at(&self, t: i64, v: i64) -> Result<(i64, i64)> {
        let p = self.coords.eval_point(Int::new_dynamic(t + self.threads()? * v))?;
        let c = p.to_int_tuple();
        // (a coordinate no stride reaches is 0: `(_1@0,_0)` gives the point `(m)`)
        let get = |i: usize| -> Result<i64> {
            if i >= c.rank() {
                return Ok(0);
            }
            Ok(c.get(i)?.as_int().map(|x| x.value()).unwrap_or(0))
        };
        Ok((get(0)?, get(1)?))
    }

    /// The tensor as CuTe prints it.
    fn header(&self) -> String {
        format!("ArithTuple(_0,_0) o {}", self.coords)
    }

    /// Every `(row, column)`, by index `t + threads · v`. Where each leaf's
    /// stride is a scale of the first or second basis direction (or zero),
    /// by integer arithmetic over the leaves; else each through
    /// [`Tv::at`] (a 64 x 256 MMA's panels took 0.4 s that way).
    fn all_coords(&self) -> Result<Vec<(i64, i64)>> {
        let (threads, n) = (self.threads()?, self.coords.size()?.value());
        let flat: Option<Vec<(i64, i64, usize)>> = self
            .coords
            .leaves()
            .iter()
            .map(|l| {
                let (scale, path) = (l.stride.scale_int(), l.stride.path());
                let dim = match path.as_slice() {
                    [] if scale.value() == 0 => 0,
                    [d] if *d < 2 => *d,
                    _ => return None,
                };
                (!l.shape.is_symbolic() && !scale.is_symbolic() && l.shape.value() > 0)
                    .then(|| (l.shape.value(), scale.value(), dim))
            })
            .collect();
        let Some(flat) = flat else {
            return (0..n).map(|i| self.at(i % threads.max(1), i / threads.max(1))).collect();
        };
        Ok((0..n)
            .map(|i| {
                let (mut rest, mut c) = (i, [0i64; 2]);
                for (k, &(extent, scale, dim)) in flat.iter().enumerate() {
                    // (the last leaf's coordinate is not reduced)
                    let x = if k + 1 == flat.len() { rest } else { rest % extent };
                    rest /= extent;
                    c[dim] += x * scale;
                }
                (c[0], c[1])
            })
            .collect())
    }

    /// Each cell once: `(thread, value, row, column)` of its first owner, in
    /// CuTe's order (threads outer, values inner).
    fn cells(&self, rows: i64, cols: i64, op: &'static str) -> Result<Vec<(i64, i64, i64, i64)>> {
        let mut filled = vec![false; (rows * cols) as usize];
        let mut out = Vec::new();
        let (threads, coords) = (self.threads()?, self.all_coords()?);
        for t in 0..threads {
            for v in 0..self.values()? {
                let (m, n) = coords[(t + threads * v) as usize];
                if !(0..rows).contains(&m) || !(0..cols).contains(&n) {
                    return Err(Error::mismatch(
                        op,
                        format!("thread {t} value {v} is at ({m},{n}), outside {rows}x{cols}"),
                    ));
                }
                let k = (m + rows * n) as usize;
                if !filled[k] {
                    filled[k] = true;
                    out.push((t, v, m, n));
                }
            }
        }
        Ok(out)
    }
}

/// The panels drawn, each `rows x columns`, within the picture's budget of
/// cells (what is drawn: an MMA's C, A and B panels, not M·N·K).
fn check_panels(op: &'static str, panels: &[(i64, i64)]) -> Result<()> {
    let cells = panels.iter().try_fold(0i64, |a, &(r, c)| a.checked_add(r.max(1).checked_mul(c.max(1))?));
    if cells.is_none_or(|c| c > MAX_TV_CELLS) {
        let dims: Vec<String> = panels.iter().map(|(r, c)| format!("{r}x{c}")).collect();
        return Err(Error::limit(
            op,
            format!("panels of {} cells are too large to draw (limit {MAX_TV_CELLS} cells)", dims.join(" + ")),
        ));
    }
    Ok(())
}

fn latex_head(s: &mut String) {
    s.push_str("\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\n\\begin{document}\n");
    s.push_str(
        "\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n",
    );
}

fn latex_cell(s: &mut String, t: i64, v: i64, x: i64, y: i64) {
    let _ = writeln!(s, "\\node[fill={}] at ({x},{y}) {{\\shortstack{{T{t} \\\\ V{v}}}}};", TIKZ_TV[(t % 8) as usize]);
}

fn latex_label(s: &mut String, x: i64, y: i64, text: i64) {
    let _ = writeln!(s, "\\node at ({x},{y}) {{\\Large{{\\texttt{{{text}}}}}}};");
}

/// The (M, N, K) of a TiledMMA, and the maps of its C, A, B panels.
type Panels = ((i64, i64, i64), Tv, Tv, Tv);

/// The panels of a TiledMMA's picture.
/// CuTe's `print_svg` comment lines of an MMA: its tile, then the A, B
/// and C tensors.
fn mma_comments(m: &TiledMma, [a, b, c]: [&Tv; 3]) -> Result<String> {
    let mut s = String::new();
    let _ = writeln!(s, "<!--  Tile: {}  -->", m.tile_shape()?);
    for (name, tv) in [("A", a), ("B", b), ("C", c)] {
        let _ = writeln!(s, "<!--     {name}: {}  -->", tv.header());
    }
    Ok(s)
}

/// The same of a copy: its tile, then the source and destination tensors.
fn copy_comments((tm, tn): (i64, i64), s_tv: &Tv, d_tv: &Tv) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "<!--  Tile: ({tm},{tn})  -->");
    for (name, tv) in [("S", s_tv), ("D", d_tv)] {
        let _ = writeln!(s, "<!--     {name}: {}  -->", tv.header());
    }
    s
}

fn mma_parts(m: &TiledMma) -> Result<Panels> {
    let (tm, tn, tk) = (m.tile_size(0)?, m.tile_size(1)?, m.tile_size(2)?);
    let c = Tv::of_index(&m.layout_c_tv()?, tm, tn)?;
    let a = Tv::of_index(&m.layout_a_tv()?, tm, tk)?;
    let b = Tv::of_index(&m.layout_b_tv()?, tn, tk)?;
    Ok(((tm.value(), tn.value(), tk.value()), c, a, b))
}

/// CuTe's `print_latex(TiledMMA)` (and of an `MMA_Atom`, through
/// `make_tiled_mma`): C in the middle, A to its left, B above.
///
/// Pre: the panels have at most 65536 cells together (else a `Limit` error); as
/// the TiledMMA's layouts. Post: CuTe's TikZ document, byte for byte.
///
/// ```
/// use kute::atom::{MmaAtom, TiledMma};
/// let m = TiledMma::new(MmaAtom::new("SM80_16x8x8_F16F16F16F16_TN").unwrap(), None, None).unwrap();
/// let t = kute::print::latex_mma(&m).unwrap();
/// let c = "((_4,_8),((_2,_2),(_1,_1))):((_2@1,_1@0),((_1@1,_8@0),(_0,_0)))";
/// assert!(t.starts_with(&format!("% LayoutC: ArithTuple(_0,_0) o {c}\n")));
/// assert!(t.contains("\\node[fill={rgb,255:red,175;green,175;blue,255}] at (0,0) {\\shortstack{T0 \\\\ V0}};"));
/// ```
pub fn latex_mma(m: &TiledMma) -> Result<String> {
    let op = "latex";
    let ((tm, tn, tk), c, a, b) = mma_parts(m)?;
    check_panels(op, &[(tm, tn), (tm, tk), (tn, tk)])?;
    let mut s = String::new();
    let _ = writeln!(s, "% LayoutC: {}", c.header());
    let _ = writeln!(s, "% LayoutA: {}", a.header());
    let _ = writeln!(s, "% LayoutB: {}", b.header());
    latex_head(&mut s);
    for (t, v, x, y) in c.cells(tm, tn, op)? {
        latex_cell(&mut s, t, v, x, y);
    }
    let _ = writeln!(s, "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,0) grid ({tm},{tn});\n");
    for (t, v, x, k) in a.cells(tm, tk, op)? {
        latex_cell(&mut s, t, v, x, k - tk - 1);
    }
    let _ = writeln!(s, "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,{}) grid ({tm},-1);\n", -tk - 1);
    for i in 0..tm {
        latex_label(&mut s, i, -1 - tk - 1, i);
    }
    for k in 0..tk {
        latex_label(&mut s, -1, k - tk - 1, k);
    }
    for (t, v, n, k) in b.cells(tn, tk, op)? {
        latex_cell(&mut s, t, v, k - tk - 1, n);
    }
    let _ = writeln!(s, "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] ({},0) grid (-1,{tn});\n", -tk - 1);
    for n in 0..tn {
        latex_label(&mut s, -1 - tk - 1, n, n);
    }
    for k in 0..tk {
        latex_label(&mut s, k - tk - 1, -1, k);
    }
    s.push_str("\\end{tikzpicture}\n\\end{document}\n");
    Ok(s)
}

/// One cell of a TV picture in SVG: the square in its thread's colour and
/// the `T<thread>` / `V<value>` labels (CuTe's `print_svg`; `space` is what
/// CuTe writes before `/>`, which differs between its panels).
fn svg_cell(s: &mut String, (x, y): (i64, i64), cell: i64, (t, v): (i64, i64), space: &str) {
    let _ = writeln!(
        s,
        "<rect x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" fill=\"rgb({})\" stroke=\"black\"{space}/>",
        SVG_TV[(t % 8) as usize]
    );
    for (text, dy) in [(format!("T{t}"), cell / 4), (format!("V{v}"), 3 * cell / 4)] {
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" alignment-baseline=\"central\" font-size=\"8\">{text}</text>",
            x + cell / 2,
            y + dy
        );
    }
}

/// A row or column label of a TV picture in SVG, centred in the cell at `(x, y)`.
fn svg_label(s: &mut String, (x, y): (i64, i64), cell: i64, text: &str) {
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" alignment-baseline=\"central\" font-size=\"12\">{text}</text>",
        x + cell / 2,
        y + cell / 2
    );
}

/// CuTe's `print_svg(TiledMMA)`: the same three panels as an SVG picture,
/// byte for byte.
///
/// Pre: as [`latex_mma`]. Post: CuTe's SVG document.
///
/// ```
/// use kute::atom::{MmaAtom, TiledMma};
/// let m = TiledMma::new(MmaAtom::new("SM80_16x8x8_F16F16F16F16_TN").unwrap(), None, None).unwrap();
/// let s = kute::print::svg_mma(&m).unwrap();
/// assert!(s.starts_with("<!--  Tile: (_16,_8,_8)  -->\n"));
/// assert!(s.ends_with("</svg>\n"));
/// ```
pub fn svg_mma(m: &TiledMma) -> Result<String> {
    let op = "svg";
    let ((tm, tn, tk), c, a, b) = mma_parts(m)?;
    check_panels(op, &[(tm, tn), (tm, tk), (tn, tk)])?;
    let cell = 20i64;
    let (width, height) = ((tk + tn + 2) * cell, (tk + tm + 2) * cell);
    let mut s = mma_comments(m, [&a, &b, &c])?;
    let _ = writeln!(
        s,
        "<svg width=\"100%\" height=\"100%\" viewBox=\"0 0 {width} {height}\" preserveAspectRatio=\"xMidYMid meet\" \
         xmlns=\"http://www.w3.org/2000/svg\">"
    );
    for (t, v, m_, n) in c.cells(tm, tn, op)? {
        svg_cell(&mut s, ((n + tk + 2) * cell, (m_ + tk + 2) * cell), cell, (t, v), "");
    }
    for (t, v, m_, k) in a.cells(tm, tk, op)? {
        svg_cell(&mut s, ((k + 1) * cell, (m_ + tk + 2) * cell), cell, (t, v), " ");
    }
    for i in 0..tm {
        svg_label(&mut s, (0, (i + tk + 2) * cell), cell, &i.to_string());
    }
    for k in 0..tk {
        svg_label(&mut s, ((k + 1) * cell, (tk + 1) * cell), cell, &k.to_string());
    }
    for (t, v, n, k) in b.cells(tn, tk, op)? {
        svg_cell(&mut s, ((n + tk + 2) * cell, (k + 1) * cell), cell, (t, v), " ");
    }
    for n in 0..tn {
        svg_label(&mut s, ((n + tk + 2) * cell, 0), cell, &n.to_string());
    }
    for k in 0..tk {
        svg_label(&mut s, ((tk + 1) * cell, (k + 1) * cell), cell, &k.to_string());
    }
    s.push_str("</svg>\n");
    Ok(s)
}

/// The tile a TiledCopy's picture spans, as CuTe's `print_latex` takes it:
/// `product_each(shape(logical_divide(make_layout((_1,_1)), Tiler_MN)))`,
/// each mode's extent with the gaps of a tiler of layouts filled (the
/// `Tiler_MN` `(_8,_2):(_1,_16)` of a permuted MMA spans 32 rows, not 16).
fn copy_tile(c: &TiledCopy) -> Result<(Int, Int)> {
    let unit = Layout::from_shape(&IntTuple::tuple_of_leaves([Int::ONE, Int::ONE]))?;
    let tile = crate::int_tuple::product_each(crate::algebra::logical_divide(&unit, c.tiler_mn())?.shape().as_ref())?;
    let extent = |i: usize| -> Result<Int> {
        let m = tile.get(i)?;
        m.as_int().ok_or_else(|| Error::mismatch("latex", format!("mode {i} of the tile {tile}")))
    };
    Ok((extent(0)?, extent(1)?))
}

/// The tile of a TiledCopy's picture and its source and destination maps:
/// CuTe's `tidfrg_S/D(identity tensor)(_,_,0)`, (thread, value) of the first rest.
fn copy_panels(c: &TiledCopy, op: &'static str) -> Result<(i64, i64, Tv, Tv)> {
    if let Tiler::Tuple(modes) = c.tiler_mn()
        && modes.len() > 2
    {
        return copy_panels_flat(c, modes, op);
    }
    let (tm, tn) = copy_tile(c).map_err(|e| e.within(op))?;
    check_panels(op, &[(tm.value(), tn.value())])?;
    let id = Layout::identity(&IntTuple::tuple_of_leaves([tm, tn]))?;
    let first = |l: Layout| -> Result<Tv> { Ok(Tv::of_coords(Layout::concat([&l.mode(0)?, &l.mode(1)?])?)) };
    Ok((
        tm.value(),
        tn.value(),
        first(c.tidfrg(&id, crate::atom::Side::Source)?)?,
        first(c.tidfrg(&id, crate::atom::Side::Destination)?)?,
    ))
}

/// The panels of a copy whose `Tiler_MN` has more than two modes (a TMEM
/// copy over a partitioned accumulator `((M,N),MMA_M,MMA_N)`; CuTe's
/// `print_latex` does not compile there): the tile's first mode drawn as
/// rows by columns (the rows of the data's first mode where the copy knows
/// them, else the tiler's first mode without its last mode), then the
/// other modes after it as more columns, column-major.
fn copy_panels_flat(c: &TiledCopy, modes: &[Tiler], op: &'static str) -> Result<(i64, i64, Tv, Tv)> {
    let ones = IntTuple::tuple_of_leaves(modes.iter().map(|_| Int::ONE));
    let unit = Layout::from_shape(&ones)?;
    let spans = crate::int_tuple::product_each(crate::algebra::logical_divide(&unit, c.tiler_mn())?.shape().as_ref())
        .map_err(|e| e.within(op))?;
    let span = |i: usize| -> Result<i64> {
        spans
            .get(i)?
            .as_int()
            .map(|x| x.value())
            .ok_or_else(|| Error::mismatch(op, format!("mode {i} of the tile {spans}")))
    };
    let s0 = span(0)?;
    // columns: the last mode of the tiler's first mode (a TMEM tile's columns), rows: the rest of it
    let rows = match &modes[0] {
        // the data's rows, where the copy was made over a tensor
        _ if c.picture_rows().is_some_and(|r| r > 0 && s0 % r == 0) => c.picture_rows().unwrap_or(s0),
        Tiler::Layout(l) if l.rank() >= 2 => {
            let last = l.mode(l.rank() - 1)?.size()?.value();
            if last > 0 && s0 % last == 0 {
                s0 / last
            } else {
                s0
            }
        }
        _ => s0,
    };
    if rows <= 0 || s0 % rows != 0 {
        return Err(Error::mismatch(op, format!("the tile's first mode spans {s0}, not a multiple of {rows} rows")));
    }
    // tile coordinate -> (row, column): mode 0 as (rows, s0/rows), the rest after it
    let mut shape = format!("((_{rows},_{})", s0 / rows);
    let mut stride = "((_1@0,_1@1)".to_string();
    let mut col = s0 / rows;
    for i in 1..modes.len() {
        let si = span(i)?;
        shape.push_str(&format!(",_{si}"));
        stride.push_str(&format!(",_{col}@1"));
        col = col.checked_mul(si).ok_or_else(|| Error::limit(op, "the tile is too large to draw"))?;
    }
    let cols = col;
    check_panels(op, &[(rows, cols)])?;
    let id: Layout = format!("{shape}):{stride})").parse()?;
    let first = |l: Layout| -> Result<Tv> { Ok(Tv::of_coords(Layout::concat([&l.mode(0)?, &l.mode(1)?])?)) };
    Ok((
        rows,
        cols,
        first(c.tidfrg(&id, crate::atom::Side::Source)?)?,
        first(c.tidfrg(&id, crate::atom::Side::Destination)?)?,
    ))
}

/// CuTe's `print_latex(TiledCopy)`: the source panel, and the destination
/// panel to its right.
///
/// Pre: the tile has at most 65536 cells (else a `Limit` error); as the
/// copy's `tidfrg_S/D`. Post: CuTe's TikZ document, byte for byte. Beyond
/// CuTe: a `Tiler_MN` of more than two modes (a TMEM copy over a partitioned
/// accumulator `((M,N),MMA_M,MMA_N)`, where CuTe's `print_latex` does not
/// compile) is drawn with the tile's first mode as rows by columns (the rows
/// of the data's first mode: a TMEM tensor's `M`), the other modes
/// flattened, column-major, into more columns.
///
/// ```
/// use kute::atom::{CopyAtom, TiledCopy};
/// let atom = CopyAtom::new("UniversalCopy<uint128_t>", "half_t").unwrap();
/// let c = TiledCopy::make(atom, &"(_8,_4):(_4,_1)".parse().unwrap(), &"(_1,_8):(_8,_1)".parse().unwrap()).unwrap();
/// let t = kute::print::latex_copy(&c).unwrap();
/// assert!(t.starts_with("% Layout S TV: ArithTuple(_0,_0) o ((_4,_8),(_8,_1)):((_8@1,_1@0),(_1@1,_0))\n"));
/// ```
pub fn latex_copy(c: &TiledCopy) -> Result<String> {
    let op = "latex";
    let (tm, tn, s_tv, d_tv) = copy_panels(c, op)?;
    let mut s = String::new();
    let _ = writeln!(s, "% Layout S TV: {}", s_tv.header());
    let _ = writeln!(s, "% Layout D TV: {}", d_tv.header());
    latex_head(&mut s);
    for (t, v, m_, n) in s_tv.cells(tm, tn, op)? {
        latex_cell(&mut s, t, v, m_, n);
    }
    let _ = writeln!(s, "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,0) grid ({tm},{tn});\n");
    for i in 0..tm {
        latex_label(&mut s, i, -1, i);
    }
    for n in 0..tn {
        latex_label(&mut s, -1, n, n);
    }
    for (t, v, m_, n) in d_tv.cells(tm, tn, op)? {
        latex_cell(&mut s, t, v, m_, n + tn + 3);
    }
    let _ = writeln!(s, "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,{}) grid ({tm},{});\n", tn + 3, 2 * tn + 3);
    for i in 0..tm {
        latex_label(&mut s, i, tn + tn + 3, i);
    }
    for n in 0..tn {
        latex_label(&mut s, -1, n + tn + 3, n);
    }
    s.push_str("\\end{tikzpicture}\n\\end{document}\n");
    Ok(s)
}

/// An SVG picture of a TiledCopy in the style of CuTe's `print_svg` of a
/// TiledMMA (CuTe has none for copies): the source panel, and the destination
/// panel to its right, each cell `T<thread> V<value>` coloured by thread.
///
/// Pre: as [`latex_copy`]. Post: an SVG document with one cell per
/// coordinate of each panel (a tiler of more than two modes flattened as in
/// [`latex_copy`]).
///
/// ```
/// use kute::atom::{CopyAtom, TiledCopy};
/// let atom = CopyAtom::new("UniversalCopy<uint128_t>", "half_t").unwrap();
/// let c = TiledCopy::make(atom, &"(_8,_4):(_4,_1)".parse().unwrap(), &"(_1,_8):(_8,_1)".parse().unwrap()).unwrap();
/// let s = kute::print::svg_copy(&c).unwrap();
/// assert_eq!(s.matches("<rect ").count(), 2 * 8 * 32);
/// ```
pub fn svg_copy(c: &TiledCopy) -> Result<String> {
    let op = "svg";
    let (tm, tn, s_tv, d_tv) = copy_panels(c, op)?;
    let cell = 20i64;
    let (width, height) = ((2 * tn + 4) * cell, (tm + 2) * cell);
    let mut s = copy_comments((tm, tn), &s_tv, &d_tv);
    let _ = writeln!(
        s,
        "<svg width=\"100%\" height=\"100%\" viewBox=\"0 0 {width} {height}\" preserveAspectRatio=\"xMidYMid meet\" \
         xmlns=\"http://www.w3.org/2000/svg\">"
    );
    for (panel, tv, x0) in [("S", &s_tv, 1), ("D", &d_tv, tn + 3)] {
        svg_label(&mut s, ((x0 - 1) * cell, 0), cell, panel);
        for (t, v, m_, n) in tv.cells(tm, tn, op)? {
            svg_cell(&mut s, ((n + x0) * cell, (m_ + 1) * cell), cell, (t, v), "");
        }
        for n in 0..tn {
            svg_label(&mut s, ((n + x0) * cell, 0), cell, &n.to_string());
        }
    }
    for m_ in 0..tm {
        svg_label(&mut s, (0, (m_ + 1) * cell), cell, &m_.to_string());
    }
    s.push_str("</svg>\n");
    Ok(s)
}

/// One panel of a compact TV picture: who owns each cell (`(thread, value)`,
/// row-major, `None` where no thread does) and where its top-left corner is.
struct Panel {
    rows: i64,
    cols: i64,
    owners: Vec<Option<(i64, i64)>>,
    origin: (i64, i64),
}

impl Panel {
    fn new(rows: i64, cols: i64, origin: (i64, i64)) -> Panel {
        Panel { rows, cols, owners: vec![None; (rows * cols) as usize], origin }
    }

    fn set(&mut self, row: i64, col: i64, tv: (i64, i64)) {
        self.owners[(row * self.cols + col) as usize] = Some(tv);
    }
}

/// What a `<use>` of a row of a TV picture is worth (see `repeat::Rows`).
const TV_USE_COST: usize = 60;

/// A TV picture drawn compactly: the same cells as CuTe's `print_svg` (each a
/// 20-pixel square in its thread's colour, outlined in black, `T<thread>`
/// above `V<value>`), at the same places, with each distinct row of colours,
/// of thread labels and of value labels defined once and placed by `<use>`.
fn compact_tv(comments: &str, (width, height): (i64, i64), panels: &[Panel], labels: &str) -> String {
    let cell = 20i64;
    let mut fills = super::repeat::Rows::new("f", TV_USE_COST);
    let mut threads = super::repeat::Rows::new("t", TV_USE_COST);
    let mut values = super::repeat::Rows::new("v", TV_USE_COST);
    let (mut fill_uses, mut text_uses) = (String::new(), String::new());
    let label = |dy: i64, prefix: char| {
        move |out: &mut String, run: &[Option<i64>]| {
            for (i, x) in run.iter().enumerate() {
                if let Some(x) = x {
                    let _ = write!(out, "<text x=\"{}\" y=\"{dy}\">{prefix}{x}</text>", i as i64 * cell + cell / 2);
                }
            }
        }
    };
    let (draw_t, draw_v) = (label(cell / 4, 'T'), label(3 * cell / 4, 'V'));
    for p in panels {
        for r in 0..p.rows {
            let row = &p.owners[(r * p.cols) as usize..((r + 1) * p.cols) as usize];
            let (x, y) = (p.origin.0.to_string(), (p.origin.1 + r * cell).to_string());
            let colours: Vec<String> = row
                .iter()
                .map(|o| o.map_or(String::new(), |(t, _)| format!("rgb({})", SVG_TV[(t % 8) as usize])))
                .collect();
            let id = fills.id(&colours, cell, &|out, run| {
                super::repeat::fills_with(out, run, cell, cell, " stroke=\"black\"", false)
            });
            super::repeat::place(&mut fill_uses, &id, &x, &y);
            let ts: Vec<Option<i64>> = row.iter().map(|o| o.map(|(t, _)| t)).collect();
            let id = threads.id(&ts, cell, &draw_t);
            super::repeat::place(&mut text_uses, &id, &x, &y);
            let vs: Vec<Option<i64>> = row.iter().map(|o| o.map(|(_, v)| v)).collect();
            let id = values.id(&vs, cell, &draw_v);
            super::repeat::place(&mut text_uses, &id, &x, &y);
        }
    }
    let mut s = String::with_capacity(fills.defs.len() + threads.defs.len() + values.defs.len() + 4096);
    s.push_str(comments);
    let _ = writeln!(
        s,
        "<svg width=\"100%\" height=\"100%\" viewBox=\"0 0 {width} {height}\" preserveAspectRatio=\"xMidYMid meet\" \
         xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">"
    );
    let _ = writeln!(s, "<defs>\n{}{}{}</defs>", fills.defs, threads.defs, values.defs);
    let _ = writeln!(s, "<g class=\"cells\">\n{fill_uses}</g>");
    let _ = writeln!(
        s,
        "<g class=\"labels\" text-anchor=\"middle\" dominant-baseline=\"central\" font-size=\"8\">\n{text_uses}</g>"
    );
    s.push_str(labels);
    s.push_str("</svg>\n");
    s
}

/// [`svg_mma`]'s picture drawn compactly: the same panels, cells, colours and
/// labels at the same places, each distinct row of cells defined once and
/// placed by `<use>` (Hopper's 64x256x16 atoms: about 6 MB from CuTe, a
/// fraction of it here). kute's own, not CuTe's text.
///
/// Pre: as [`svg_mma`]. Post: an SVG document with the cells of [`svg_mma`].
///
/// ```
/// use kute::atom::{MmaAtom, TiledMma};
/// let m = TiledMma::new(MmaAtom::new("SM90_64x256x16_F32F16F16_SS").unwrap(), None, None).unwrap();
/// let s = kute::print::svg_mma_compact(&m).unwrap();
/// assert!(s.len() < kute::print::svg_mma(&m).unwrap().len() / 10);
/// ```
pub fn svg_mma_compact(m: &TiledMma) -> Result<String> {
    let op = "svg";
    let ((tm, tn, tk), c, a, b) = mma_parts(m)?;
    check_panels(op, &[(tm, tn), (tm, tk), (tn, tk)])?;
    let cell = 20i64;
    let (width, height) = ((tk + tn + 2) * cell, (tk + tm + 2) * cell);
    let comments = mma_comments(m, [&a, &b, &c])?;
    let mut pc = Panel::new(tm, tn, ((tk + 2) * cell, (tk + 2) * cell));
    for (t, v, m_, n) in c.cells(tm, tn, op)? {
        pc.set(m_, n, (t, v));
    }
    let mut pa = Panel::new(tm, tk, (cell, (tk + 2) * cell));
    for (t, v, m_, k) in a.cells(tm, tk, op)? {
        pa.set(m_, k, (t, v));
    }
    let mut pb = Panel::new(tk, tn, ((tk + 2) * cell, cell));
    for (t, v, n, k) in b.cells(tn, tk, op)? {
        pb.set(k, n, (t, v));
    }
    let mut labels = String::new();
    for i in 0..tm {
        svg_label(&mut labels, (0, (i + tk + 2) * cell), cell, &i.to_string());
    }
    for k in 0..tk {
        svg_label(&mut labels, ((k + 1) * cell, (tk + 1) * cell), cell, &k.to_string());
    }
    for n in 0..tn {
        svg_label(&mut labels, ((n + tk + 2) * cell, 0), cell, &n.to_string());
    }
    for k in 0..tk {
        svg_label(&mut labels, ((tk + 1) * cell, (k + 1) * cell), cell, &k.to_string());
    }
    Ok(compact_tv(&comments, (width, height), &[pc, pa, pb], &labels))
}

/// [`svg_copy`]'s picture drawn compactly, as [`svg_mma_compact`] draws an MMA's.
///
/// Pre: as [`svg_copy`]. Post: an SVG document with the cells of [`svg_copy`].
///
/// ```
/// use kute::atom::{CopyAtom, TiledCopy};
/// let atom = CopyAtom::new("UniversalCopy<uint128_t>", "half_t").unwrap();
/// let c = TiledCopy::make(atom, &"(_8,_4):(_4,_1)".parse().unwrap(), &"(_1,_8):(_8,_1)".parse().unwrap()).unwrap();
/// let s = kute::print::svg_copy_compact(&c).unwrap();
/// assert!(s.contains(">T31</text>") && s.contains("<use "));
/// ```
pub fn svg_copy_compact(c: &TiledCopy) -> Result<String> {
    let op = "svg";
    let (tm, tn, s_tv, d_tv) = copy_panels(c, op)?;
    let cell = 20i64;
    let (width, height) = ((2 * tn + 4) * cell, (tm + 2) * cell);
    let comments = copy_comments((tm, tn), &s_tv, &d_tv);
    let mut panels = Vec::new();
    let mut labels = String::new();
    for (panel, tv, x0) in [("S", &s_tv, 1), ("D", &d_tv, tn + 3)] {
        svg_label(&mut labels, ((x0 - 1) * cell, 0), cell, panel);
        let mut p = Panel::new(tm, tn, (x0 * cell, cell));
        for (t, v, m_, n) in tv.cells(tm, tn, op)? {
            p.set(m_, n, (t, v));
        }
        panels.push(p);
        for n in 0..tn {
            svg_label(&mut labels, ((n + x0) * cell, 0), cell, &n.to_string());
        }
    }
    for m_ in 0..tm {
        svg_label(&mut labels, (0, (m_ + 1) * cell), cell, &m_.to_string());
    }
    Ok(compact_tv(&comments, (width, height), &panels, &labels))
}

/// The TV picture `kute svg` draws of an MMA: CuTe's [`svg_mma`] when its
/// panels have at most [`SVG_DETAIL_CELLS`](super::SVG_DETAIL_CELLS)
/// cells together, else [`svg_mma_compact`] (the same picture, a fraction of
/// the size).
///
/// Pre: as [`svg_mma`]. Post: one of those two.
///
/// ```
/// use kute::atom::{MmaAtom, TiledMma};
/// let small = TiledMma::new(MmaAtom::new("SM80_16x8x8_F16F16F16F16_TN").unwrap(), None, None).unwrap();
/// assert_eq!(kute::print::svg_mma_auto(&small).unwrap(), kute::print::svg_mma(&small).unwrap());
/// let big = TiledMma::new(MmaAtom::new("SM90_64x256x16_F32F16F16_SS").unwrap(), None, None).unwrap();
/// assert_eq!(kute::print::svg_mma_auto(&big).unwrap(), kute::print::svg_mma_compact(&big).unwrap());
/// ```
pub fn svg_mma_auto(m: &TiledMma) -> Result<String> {
    let (tm, tn, tk) = (m.tile_size(0)?.value(), m.tile_size(1)?.value(), m.tile_size(2)?.value());
    let cells = tm.saturating_mul(tn).saturating_add(tm.saturating_mul(tk)).saturating_add(tn.saturating_mul(tk));
    if cells as u64 > super::SVG_DETAIL_CELLS as u64 {
        svg_mma_compact(m)
    } else {
        svg_mma(m)
    }
}

/// The TV picture `kute svg` draws of a copy: [`svg_copy`] when its two panels
/// have at most [`SVG_DETAIL_CELLS`](super::SVG_DETAIL_CELLS) cells
/// together, else [`svg_copy_compact`].
///
/// Pre: as [`svg_copy`]. Post: one of those two.
///
/// ```
/// use kute::atom::{CopyAtom, TiledCopy};
/// let atom = CopyAtom::new("UniversalCopy<uint128_t>", "half_t").unwrap();
/// let c = TiledCopy::make(atom, &"(_8,_4):(_4,_1)".parse().unwrap(), &"(_1,_8):(_8,_1)".parse().unwrap()).unwrap();
/// assert_eq!(kute::print::svg_copy_auto(&c).unwrap(), kute::print::svg_copy(&c).unwrap());
/// ```
pub fn svg_copy_auto(c: &TiledCopy) -> Result<String> {
    let (tm, tn) = copy_tile(c)?;
    let cells = tm.value().saturating_mul(tn.value()).saturating_mul(2);
    if cells as u64 > super::SVG_DETAIL_CELLS as u64 {
        svg_copy_compact(c)
    } else {
        svg_copy(c)
    }
}
