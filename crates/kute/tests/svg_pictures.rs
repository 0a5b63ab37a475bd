//! Large SVG pictures (`src/print/svg.rs`, `src/print/repeat.rs`): small enough
//! for a notebook, and still exact. Each picture is parsed as XML and painted
//! here — every `<use>` resolved to what it places, every filled path to the
//! cells it covers — and each cell's colour is checked against the layout's
//! value computed in the test (not by kute).

use std::collections::HashMap;

/// CuTe's LaTeX greys (`black!NN` is NN% black) by value modulo 8, as hex.
const GREYS: [&str; 8] = ["#ffffff", "#999999", "#cccccc", "#666666", "#e6e6e6", "#808080", "#b3b3b3", "#4d4d4d"];

/// What a picture paints: filled rectangles `(x, y, w, h, fill)` and texts
/// `(x, y, text, fill)`, in the picture's pixels.
#[derive(Default)]
struct Painted {
    rects: Vec<(f64, f64, f64, f64, String)>,
    texts: Vec<(f64, f64, String, String)>,
}

fn num(s: Option<&str>) -> f64 {
    s.map_or(0.0, |v| v.parse().unwrap_or_else(|_| panic!("not a number: {v}")))
}

/// The rectangles of a path drawn as `M x y h w v h h -w z` (one or more).
fn path_rects(d: &str) -> Vec<(f64, f64, f64, f64)> {
    let mut out = Vec::new();
    for part in d.split('M').filter(|p| !p.is_empty()) {
        let p = part.trim_end_matches('z');
        let (xy, rest) = p.split_once('h').unwrap_or_else(|| panic!("not a rectangle: M{part}"));
        let (x, y) = xy.split_once(' ').unwrap();
        let (w, rest) = rest.split_once('v').unwrap();
        let (h, back) = rest.split_once('h').unwrap();
        assert_eq!(back.parse::<f64>().unwrap(), -w.parse::<f64>().unwrap(), "M{part}");
        out.push((x.parse().unwrap(), y.parse().unwrap(), w.parse().unwrap(), h.parse().unwrap()));
    }
    out
}

fn paint_node(
    node: roxmltree::Node,
    ids: &HashMap<&str, roxmltree::Node>,
    (dx, dy): (f64, f64),
    fill: Option<&str>,
    out: &mut Painted,
    depth: usize,
) {
    assert!(depth < 16, "<use> nested too deep");
    let fill = node.attribute("fill").or(fill);
    match node.tag_name().name() {
        "defs" | "title" => {}
        "use" => {
            let href = node
                .attribute(("http://www.w3.org/1999/xlink", "href"))
                .or(node.attribute("href"))
                .expect("a <use> with an href");
            let target = ids[href.trim_start_matches('#')];
            let at = (dx + num(node.attribute("x")), dy + num(node.attribute("y")));
            paint_node(target, ids, at, fill, out, depth + 1);
        }
        "path" if fill.is_some_and(|f| f != "none") => {
            for (x, y, w, h) in path_rects(node.attribute("d").unwrap()) {
                out.rects.push((dx + x, dy + y, w, h, fill.unwrap().to_string()));
            }
        }
        "rect" if fill.is_some_and(|f| f != "none") && node.attribute("class") == Some("cell") => {
            let a = |k| num(node.attribute(k));
            out.rects.push((dx + a("x"), dy + a("y"), a("width"), a("height"), fill.unwrap().to_string()));
        }
        "text" => {
            let text: String = node.descendants().filter(|n| n.is_text()).map(|n| n.text().unwrap()).collect();
            let at = (dx + num(node.attribute("x")), dy + num(node.attribute("y")));
            out.texts.push((at.0, at.1, text, fill.unwrap_or("#000000").to_string()));
        }
        _ => {
            for c in node.children().filter(|c| c.is_element()) {
                paint_node(c, ids, (dx, dy), fill, out, depth);
            }
        }
    }
}

/// Paint a picture; also its frame `(x, y, width, height)` (`<rect class="frame">`).
fn paint(svg: &str) -> (Painted, (f64, f64, f64, f64)) {
    let doc = roxmltree::Document::parse(svg).expect("well-formed XML");
    let ids: HashMap<&str, roxmltree::Node> =
        doc.descendants().filter_map(|n| n.attribute("id").map(|id| (id, n))).collect();
    let mut out = Painted::default();
    paint_node(doc.root_element(), &ids, (0.0, 0.0), None, &mut out, 0);
    let frame = doc.descendants().find(|n| n.attribute("class") == Some("frame")).expect("a frame");
    let a = |k| num(frame.attribute(k));
    (out, (a("x"), a("y"), a("width"), a("height")))
}

/// The colour of each cell of a `rows x cols` grid: every cell painted exactly once.
fn cell_fills(svg: &str, rows: i64, cols: i64) -> Vec<String> {
    let (p, (x0, y0, w, h)) = paint(svg);
    let (cw, ch) = (w / cols as f64, h / rows as f64);
    let mut fills = vec![None::<String>; (rows * cols) as usize];
    for (x, y, rw, rh, fill) in p.rects.iter().filter(|r| r.0 >= x0 - 0.01 && r.1 >= y0 - 0.01) {
        let (n0, m0) = (((x - x0) / cw).round() as i64, ((y - y0) / ch).round() as i64);
        let (nn, mm) = ((rw / cw).round() as i64, (rh / ch).round() as i64);
        for m in m0..m0 + mm {
            for n in n0..n0 + nn {
                assert!((0..rows).contains(&m) && (0..cols).contains(&n), "a cell ({m},{n}) outside the grid");
                let k = (m * cols + n) as usize;
                assert!(fills[k].is_none(), "cell ({m},{n}) painted twice");
                fills[k] = Some(fill.clone());
            }
        }
    }
    fills.into_iter().enumerate().map(|(k, f)| f.unwrap_or_else(|| panic!("cell {k} not painted"))).collect()
}

/// CuTe's `Swizzle<B, M, S>` of an offset.
fn sw(b: u32, m: u32, s: u32, x: i64) -> i64 {
    let yyy = ((1i64 << b) - 1) << (m + s);
    x ^ ((x & yyy) >> s)
}

fn svg_of(src: &str) -> String {
    let l = kute::expr::eval(src).unwrap().to_any_layout("l").unwrap();
    kute::print::svg(&l).unwrap()
}

#[test]
fn a_256x256_picture_is_small_and_every_cell_has_its_shade() {
    // (source, rows, cols, the value of (m, n), the picture's limit in bytes)
    type Value = fn(i64, i64) -> i64;
    let cases: [(&str, i64, i64, Value, usize); 5] = [
        ("(256,256):(256,1)", 256, 256, |m, n| 256 * m + n, 40_000),
        ("(256,256):(1,256)", 256, 256, |m, n| m + 256 * n, 40_000),
        ("(_256,_256):(_1,_256)", 256, 256, |m, n| m + 256 * n, 40_000),
        ("Sw<3,4,3> o _0 o (_128,_64):(_64,_1)", 128, 64, |m, n| sw(3, 4, 3, 64 * m + n), 40_000),
        // a side of no period (65 cells) and a stride of 67: each row drawn whole
        ("(65,65):(1,67)", 65, 65, |m, n| m + 67 * n, 200_000),
    ];
    for (src, rows, cols, value, limit) in cases {
        let svg = svg_of(src);
        assert!(svg.len() < limit, "{src}: {} bytes, over {limit}", svg.len());
        let fills = cell_fills(&svg, rows, cols);
        for m in 0..rows {
            for n in 0..cols {
                let want = GREYS[value(m, n).rem_euclid(8) as usize];
                assert_eq!(fills[(m * cols + n) as usize], want, "{src}: cell ({m},{n})");
            }
        }
    }
    // up to 4096 cells, every cell is drawn with its number
    let small = svg_of("(64,64):(64,1)");
    assert!(small.contains(">4095</text>"));
}

#[test]
fn a_large_picture_by_bank_gives_each_bank_one_colour() {
    // 4-byte elements of (256,256):(256,1): cell (m, n) is in bank n mod 32
    let l = kute::expr::eval("(256,256):(256,1)").unwrap().to_any_layout("l").unwrap();
    let opts = kute::print::SvgOptions { banks: Some(4), marks: vec![] };
    let svg = kute::print::svg_with(&l, &opts).unwrap();
    assert!(svg.len() < 40_000, "{} bytes", svg.len());
    let fills = cell_fills(&svg, 256, 256);
    let mut colour_of_bank: HashMap<i64, &str> = HashMap::new();
    for m in 0..256 {
        for n in 0..256 {
            let f = fills[(m * 256 + n) as usize].as_str();
            assert_eq!(*colour_of_bank.entry(n % 32).or_insert(f), f, "cell ({m},{n})");
        }
    }
    let mut colours: Vec<&str> = colour_of_bank.values().copied().collect();
    colours.sort_unstable();
    colours.dedup();
    assert_eq!(colours.len(), 32, "32 banks, 32 colours");
}

/// ldmatrix pictures (`kute svg --banks 2 --access column:16`): each thread's
/// label is as large as the picture's font, readable with the picture shown
/// 2000 px wide, inside the cells its thread reads, under the cell's number.
#[test]
fn thread_labels_are_readable() {
    for rows in [8i64, 16] {
        let src = format!("(_{rows},_64):(_64,_1)");
        let l = kute::expr::eval(&src).unwrap().to_any_layout("l").unwrap();
        let access = kute::analysis::Access::parse("column:16").unwrap();
        let opts = kute::analysis::svg_options(&l, 2, &access).unwrap();
        let svg = kute::print::svg_with(&l, &opts).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let size = |class: &str| -> f64 {
            let g = doc.descendants().find(|n| n.attribute("class") == Some(class)).unwrap();
            g.attribute("font-size").unwrap().parse().unwrap()
        };
        let (font, mark_font) = (size("values"), size("marks"));
        assert!(mark_font >= font && mark_font >= 12.0, "{src}: labels {mark_font}px, numbers {font}px");
        let width: f64 = doc.root_element().attribute("width").unwrap().parse().unwrap();
        assert!(mark_font * 2000.0 / width >= 11.0, "{src}: {mark_font}px in a picture {width}px wide");
        // vector t (8 halves) is row t % rows, columns 8 (t / rows) to 8 (t / rows) + 7
        let (p, (x0, y0, w, h)) = paint(&svg);
        let (cw, ch) = (w / 64.0, h / rows as f64);
        let mut labelled = 0;
        for (x, y, text, _) in p.texts.iter().filter(|t| t.2.starts_with('t')) {
            let t: i64 = text[1..].parse().unwrap();
            let (n, m) = (((x - x0) / cw).floor() as i64, ((y - y0) / ch).floor() as i64);
            assert_eq!((m, n / 8), (t % rows, t / rows), "{src}: {text} in cell ({m},{n})");
            // under the cell's number, within the cell
            let number = p.texts.iter().find(|u| (u.0 - x).abs() < 0.1 && u.2 == (64 * m + n).to_string()).unwrap();
            assert!(number.1 < *y && *y < y0 + (m + 1) as f64 * ch, "{src}: {text} at {y}, its number at {}", number.1);
            labelled += 1;
        }
        assert_eq!(labelled, 256, "{src}");
    }
}

/// What CuTe's `print_svg` of a TV picture draws: each `<rect>` (its corner
/// and fill) and each `<text>` (its place and text), sorted.
type Drawn = (Vec<(i64, i64, String)>, Vec<(i64, i64, String)>);

fn cute_drawn(svg: &str) -> Drawn {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let int = |n: roxmltree::Node, k| num(n.attribute(k)).round() as i64;
    let mut rects: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect"))
        .map(|n| (int(n, "x"), int(n, "y"), n.attribute("fill").unwrap().to_string()))
        .collect();
    let mut texts: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| (int(n, "x"), int(n, "y"), n.text().unwrap().to_string()))
        .collect();
    rects.sort();
    texts.sort();
    (rects, texts)
}

fn compact_drawn(svg: &str) -> Drawn {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let ids: HashMap<&str, roxmltree::Node> =
        doc.descendants().filter_map(|n| n.attribute("id").map(|id| (id, n))).collect();
    let mut p = Painted::default();
    paint_node(doc.root_element(), &ids, (0.0, 0.0), None, &mut p, 0);
    let mut rects = Vec::new();
    for (x, y, w, h, fill) in p.rects {
        assert_eq!((w, h), (20.0, 20.0), "one cell per rectangle");
        rects.push((x as i64, y as i64, fill));
    }
    let mut texts: Vec<_> = p.texts.into_iter().map(|(x, y, t, _)| (x as i64, y as i64, t)).collect();
    rects.sort();
    texts.sort();
    (rects, texts)
}

/// The compact TV pictures paint what CuTe's `print_svg` paints (the same
/// cells in the same colours, the same labels at the same places), at a
/// fraction of the size: Hopper's largest wgmma atom under 400 KB (CuTe: 6 MB).
#[test]
fn compact_tv_pictures_draw_what_cute_draws() {
    use kute::atom::{MmaAtom, TiledMma};
    for (atom, limit) in [
        ("SM90_64x256x16_F32F16F16_SS", 400_000),
        ("SM90_64x128x16_F16F16F16_RS", 200_000),
        ("SM80_16x8x16_F16F16F16F16_TN", 150_000),
    ] {
        let m = TiledMma::new(MmaAtom::new(atom).unwrap(), None, None).unwrap();
        let (cute, compact) = (kute::print::svg_mma(&m).unwrap(), kute::print::svg_mma_compact(&m).unwrap());
        assert!(compact.len() < limit, "{atom}: {} bytes", compact.len());
        let (want, got) = (cute_drawn(&cute), compact_drawn(&compact));
        assert!(want.0.len() > 100, "{atom}: {} cells", want.0.len());
        assert!(want.0 == got.0, "{atom}: the cells differ");
        assert!(want.1 == got.1, "{atom}: the labels differ");
    }
    let c = kute::expr::eval(
        "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>,half_t>{},(_32,_4):(_4,_1),(_1,_8):(_8,_1))",
    )
    .unwrap();
    let kute::expr::Value::TiledCopy(c) = c else { panic!("not a copy") };
    let (plain, compact) = (kute::print::svg_copy(&c).unwrap(), kute::print::svg_copy_compact(&c).unwrap());
    assert!(compact.len() * 5 < plain.len(), "{} vs {} bytes", compact.len(), plain.len());
    assert!(cute_drawn(&plain) == compact_drawn(&compact), "the copy's pictures differ");
}
