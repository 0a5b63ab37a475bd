//! CuTe's own `print_layout` and `print_latex` output (captured with the CuTe oracle,
//! copied into `data/print.jsonl`): kute must reproduce every
//! byte of it.
//!
//! Each line of the file is a JSON object `{"layout": .., "table": .., "latex": ..}`
//! whose values are strings; the small parser below handles exactly that shape
//! (string escapes included), so the core crate needs no JSON dependency.

use kute::Layout;

const VECTORS: &str = include_str!("data/print.jsonl");

/// Parse a JSON string literal starting at `s[0] == '"'`; returns the decoded
/// string and the rest of the input after the closing quote.
fn json_string(s: &str) -> (String, &str) {
    let mut chars = s.char_indices();
    assert_eq!(chars.next().map(|c| c.1), Some('"'), "expected a string at {s:.40}");
    let mut out = String::new();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return (out, &s[i + 1..]),
            '\\' => {
                let (_, e) = chars.next().expect("escape at end of input");
                match e {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'r' => out.push('\r'),
                    'b' => out.push('\u{8}'),
                    'f' => out.push('\u{c}'),
                    '/' => out.push('/'),
                    '\\' => out.push('\\'),
                    '"' => out.push('"'),
                    'u' => {
                        let hex: String = (0..4).map(|_| chars.next().expect("\\u escape").1).collect();
                        let code = u32::from_str_radix(&hex, 16).expect("\\u escape digits");
                        out.push(char::from_u32(code).expect("no surrogate pairs in the vectors"));
                    }
                    other => panic!("unknown escape \\{other}"),
                }
            }
            c => out.push(c),
        }
    }
    panic!("unterminated string");
}

/// Parse one line `{"k": "v", ...}` into its key/value pairs.
fn json_object(line: &str) -> Vec<(String, String)> {
    let mut rest = line.trim().strip_prefix('{').expect("object").trim_start();
    let mut fields = Vec::new();
    loop {
        if let Some(r) = rest.strip_prefix('}') {
            assert!(r.trim().is_empty(), "text after the object");
            return fields;
        }
        let (k, r) = json_string(rest);
        let r = r.trim_start().strip_prefix(':').expect("':' after a key").trim_start();
        let (v, r) = json_string(r);
        fields.push((k, v));
        rest = r.trim_start();
        if let Some(r) = rest.strip_prefix(',') {
            rest = r.trim_start();
        }
    }
}

struct Vector {
    layout: String,
    table: String,
    latex: String,
}

fn vectors() -> Vec<Vector> {
    VECTORS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f = json_object(line);
            let get = |k: &str| f.iter().find(|(kk, _)| kk == k).map(|(_, v)| v.clone()).expect(k);
            Vector { layout: get("layout"), table: get("table"), latex: get("latex") }
        })
        .collect()
}

/// The first line at which two texts differ, for a readable failure.
fn first_difference(want: &str, got: &str) -> String {
    for (i, (w, g)) in want.split_inclusive('\n').zip(got.split_inclusive('\n')).enumerate() {
        if w != g {
            return format!("line {}: want {w:?}, got {g:?}", i + 1);
        }
    }
    format!("lengths differ: want {} bytes, got {}", want.len(), got.len())
}

#[test]
fn the_parser_reads_escapes() {
    let f = json_object(r#"{"a": "x\n\\y\"z\u0041", "b":"" }"#);
    assert_eq!(f, vec![("a".into(), "x\n\\y\"zA".into()), ("b".into(), String::new())]);
}

#[test]
fn there_are_80_vectors() {
    assert_eq!(vectors().len(), 80);
}

#[test]
fn table_matches_cute_print_layout() {
    let mut failures = Vec::new();
    for v in vectors() {
        let l: Layout = v.layout.parse().unwrap_or_else(|e| panic!("{}: {e}", v.layout));
        match kute::print::table(&l) {
            Ok(got) if got == v.table => {}
            Ok(got) => failures.push(format!("{}: {}", v.layout, first_difference(&v.table, &got))),
            Err(e) => failures.push(format!("{}: error {e}", v.layout)),
        }
    }
    assert!(failures.is_empty(), "{} tables differ from CuTe:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn latex_matches_cute_print_latex() {
    let mut failures = Vec::new();
    for v in vectors() {
        let l: Layout = v.layout.parse().unwrap_or_else(|e| panic!("{}: {e}", v.layout));
        match kute::print::latex(&l) {
            Ok(got) if got == v.latex => {}
            Ok(got) => failures.push(format!("{}: {}", v.layout, first_difference(&v.latex, &got))),
            Err(e) => failures.push(format!("{}: error {e}", v.layout)),
        }
    }
    assert!(failures.is_empty(), "{} LaTeX pictures differ from CuTe:\n{}", failures.len(), failures.join("\n"));
}

/// CuTe's `print_layout` and `print_latex` of swizzled and composed layouts
/// (the `composed` rows of the vector file `print_tv.jsonl`, copied into
/// `data/print_composed.jsonl`): every byte.
#[test]
fn composed_tables_and_latex_match_cute() {
    let rows: Vec<_> = include_str!("data/print_composed.jsonl").lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(rows.len() >= 10);
    for line in rows {
        let f = json_object(line);
        let get = |k: &str| f.iter().find(|(kk, _)| kk == k).map(|(_, v)| v.clone()).expect(k);
        let l = kute::expr::eval(&get("expr")).unwrap().to_any_layout("the layout").unwrap();
        assert_eq!(kute::print::table(&l).unwrap(), get("table"), "table of {}", get("expr"));
        assert_eq!(kute::print::latex(&l).unwrap(), get("latex"), "latex of {}", get("expr"));
    }
}

/// CuTe's `print_latex` of TiledMMAs, MMA atoms and TiledCopies, and its
/// `print_svg` of TiledMMAs (the `mma` and `copy` rows of
/// the vector file `print_tv.jsonl`, copied into `data/print_tv.jsonl`): every byte.
#[test]
fn tv_pictures_match_cute() {
    let rows: Vec<_> = include_str!("data/print_tv.jsonl").lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(rows.len() >= 20);
    let mut svgs = 0;
    for line in rows {
        let f = json_object(line);
        let get = |k: &str| f.iter().find(|(kk, _)| kk == k).map(|(_, v)| v.clone());
        let expr = get("expr").unwrap();
        let v = kute::expr::eval(&expr).unwrap();
        let (latex, svg) = match &v {
            kute::expr::Value::TiledMma(m) => {
                (kute::print::latex_mma(m).unwrap(), Some(kute::print::svg_mma(m).unwrap()))
            }
            kute::expr::Value::MmaAtom(a) => {
                let m = kute::atom::TiledMma::new((**a).clone(), None, None).unwrap();
                (kute::print::latex_mma(&m).unwrap(), Some(kute::print::svg_mma(&m).unwrap()))
            }
            kute::expr::Value::TiledCopy(c) => (kute::print::latex_copy(c).unwrap(), None),
            other => panic!("{expr}: {}", other.kind_name()),
        };
        assert_eq!(latex, get("latex").unwrap(), "latex of {expr}");
        if let Some(want) = get("svg") {
            assert_eq!(svg.unwrap(), want, "svg of {expr}");
            svgs += 1;
        }
        // CuTe ends its print with a newline (the capture adds one more)
        assert_eq!(v.to_string(), get("print").unwrap().trim_end(), "print of {expr}");
    }
    assert!(svgs >= 5);
}

/// FNV-1a, 64 bits: a fingerprint of a picture too large to keep in the repository.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// The pictures of Hopper's wgmma atoms, whole: CuTe's `print_svg` and
/// `print_latex` of each (the oracle's `cute.py print [--svg]`), kept as
/// their length and fingerprint. A picture is as large as the cells drawn
/// (C, A and B panels), not M·N·K.
#[test]
fn hopper_atoms_are_drawn_as_cute_draws_them() {
    let cases: [(&str, bool, usize, u64); 6] = [
        ("SM90_64x128x16_F32F16F16_SS", true, 3214389, 0x3b7a_b682_b821_264d),
        ("SM90_64x128x16_F32F16F16_SS", false, 992088, 0xf9f8_b129_8496_9d6a),
        ("SM90_64x256x16_F32F16F16_SS", true, 6144437, 0x02df_8c7a_51f3_5fdf),
        ("SM90_64x256x16_F32F16F16_SS", false, 1905240, 0xe96a_d5ef_b299_c592),
        ("SM90_64x256x16_F32BF16BF16_RS", true, 6143670, 0xcf22_6903_f3e8_9396),
        ("SM90_64x256x16_F32BF16BF16_RS", false, 1904473, 0xbc0f_3ce6_4b30_a9d5),
    ];
    for (atom, svg, len, digest) in cases {
        let m = kute::atom::TiledMma::new(kute::atom::MmaAtom::new(atom).unwrap(), None, None).unwrap();
        let picture = if svg { kute::print::svg_mma(&m) } else { kute::print::latex_mma(&m) };
        let picture = picture.unwrap_or_else(|e| panic!("{atom}: {e}"));
        assert_eq!((picture.len(), fnv1a(picture.as_bytes())), (len, digest), "{atom} (svg: {svg})");
    }
}

/// CuTe's `print_latex` of TiledCopies whose tile is wider than their
/// `Tiler_MN` (a permuted MMA's C cut to the copy atom: CuTe draws the span of
/// the tiler's layouts, 32 rows for `(_8,_2):(_1,_16)`), and its
/// `print_layout` and `print_latex` of composed layouts whose swizzle is the
/// identity at a run-time offset 0 (CuTe keeps the swizzle in the header):
/// the `copy` and `composed` rows of `data/print_calls.jsonl`, captured with
/// the oracle's `print` (`print --print` for `print`). Every byte.
#[test]
fn wide_copies_and_identity_swizzles_are_drawn_as_cute_draws_them() {
    let mut drawn = 0;
    for line in include_str!("data/print_calls.jsonl").lines().filter(|l| !l.trim().is_empty()) {
        let f = json_object(line);
        let get = |k: &str| f.iter().find(|(kk, _)| kk == k).map(|(_, v)| v.clone());
        let (kind, expr) = (get("kind").unwrap(), get("expr").unwrap());
        let v = kute::expr::eval(&expr).unwrap_or_else(|e| panic!("{expr}: {e}"));
        match (kind.as_str(), &v) {
            ("copy", kute::expr::Value::TiledCopy(c)) => {
                assert_eq!(kute::print::latex_copy(c).unwrap(), get("latex").unwrap(), "latex of {expr}");
                assert_eq!(format!("{v}\n\n"), get("print").unwrap(), "print of {expr}");
            }
            ("mma", kute::expr::Value::TiledMma(m)) => {
                assert_eq!(kute::print::latex_mma(m).unwrap(), get("latex").unwrap(), "latex of {expr}");
            }
            ("layout" | "composed", _) => {
                let l = v.to_any_layout("the layout").unwrap();
                assert_eq!(kute::print::latex(&l).unwrap(), get("latex").unwrap(), "latex of {expr}");
                assert_eq!(kute::print::table(&l).unwrap(), get("table").unwrap(), "table of {expr}");
            }
            ("copy" | "mma", _) => panic!("{expr}: {}", v.kind_name()),
            _ => continue,
        }
        drawn += 1;
    }
    assert!(drawn >= 16, "{drawn}");
}

/// The text a print call of the expression language gives: `call(src)`.
fn printed(call: &str, src: &str) -> String {
    match kute::expr::eval(&format!("{call}({src})")) {
        Ok(kute::expr::Value::Printed(s)) => s,
        other => panic!("{call}({src}): {other:?}"),
    }
}

/// CuTe's `print_layout`, `print_latex` and `print` as calls inside
/// expressions (`data/print_calls.jsonl`, captured with the oracle's `print`,
/// `print --print` and `eval --as-written`): of TiledCopies whose tile is
/// wider than their `Tiler_MN` (a permuted MMA's C, cut to the copy atom), of
/// composed layouts whose swizzle is the identity at a run-time offset 0, and
/// of values of every kind. A row with a `kute` field is written so in kute
/// (a shape for a value layout) and as `expr` in CuTe; both must print CuTe's
/// bytes.
#[test]
fn print_calls_match_cute() {
    let rows: Vec<_> = include_str!("data/print_calls.jsonl").lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(rows.len() >= 20);
    for line in rows {
        let f = json_object(line);
        let get = |k: &str| f.iter().find(|(kk, _)| kk == k).map(|(_, v)| v.clone());
        let expr = get("expr").unwrap();
        let kind = get("kind").unwrap();
        let srcs: Vec<String> = std::iter::once(expr.clone()).chain(get("kute")).collect();
        for src in &srcs {
            if let Some(want) = get("latex") {
                assert_eq!(printed("print_latex", src), want, "print_latex({src})");
            }
            if let Some(want) = get("table") {
                assert_eq!(printed("print_layout", src), want, "print_layout({src})");
            }
            // the capture of `print --print` adds a newline to CuTe's bytes; that of
            // `eval` (the rows of kind `print`) drops the last newline of a multi-line print
            let want = get("print").unwrap();
            match kind.as_str() {
                "print" => assert_eq!(printed("print", src).trim_end(), want.trim_end(), "print({src})"),
                _ => assert_eq!(printed("print", src) + "\n", want, "print({src})"),
            }
        }
    }
}

/// The print calls give the recorded bytes of CuTe's `print_layout` and
/// `print_latex` of every layout of `data/print.jsonl`, and of the TiledMMAs,
/// atoms and TiledCopies of `data/print_tv.jsonl` (`print_latex` and `print`).
#[test]
fn print_calls_reproduce_the_recorded_pictures() {
    for v in vectors() {
        assert_eq!(printed("print_layout", &v.layout), v.table, "print_layout({})", v.layout);
        assert_eq!(printed("print_latex", &v.layout), v.latex, "print_latex({})", v.layout);
    }
    for line in include_str!("data/print_tv.jsonl").lines().filter(|l| !l.trim().is_empty()) {
        let f = json_object(line);
        let get = |k: &str| f.iter().find(|(kk, _)| kk == k).map(|(_, v)| v.clone()).unwrap();
        let expr = get("expr");
        assert_eq!(printed("print_latex", &expr), get("latex"), "print_latex({expr})");
        assert_eq!(printed("print", &expr).trim_end(), get("print").trim_end(), "print({expr})");
    }
}

/// A print call's value is its output, the operand of no other call (CuTe's
/// print functions return nothing); what cannot be drawn is a `Type` error
/// naming the call.
#[test]
fn print_calls_are_no_operands() {
    use kute::ErrorKind;
    for src in ["size(print((_2,_2):(_1,_2)))", "(print_layout((_2,_2):(_1,_2)), 2)", "print(_4)(0)"] {
        let e = kute::expr::eval(src).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Type, "{src}: {e}");
        assert!(e.to_string().contains("printed text"), "{src}: {e}");
    }
    let text = kute::expr::eval("print(_4)").unwrap();
    let e = kute::expr::call("size", &[], &[text]).unwrap_err();
    assert_eq!((e.kind(), e.to_string().contains("size")), (ErrorKind::Type, true), "{e}");
    for (src, op) in [
        ("print_layout((_2,_4))", "print_layout"),
        ("print_latex(Copy_Atom<UniversalCopy<uint32_t>,half_t>{})", "print_latex"),
        ("print_tensor((_2,_4):(_1,_2))", "print_tensor"),
    ] {
        let e = kute::expr::eval(src).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Type, "{src}: {e}");
        assert!(e.to_string().starts_with(op), "{src}: {e}");
    }
}

/// The pictures of Blackwell's tcgen05 MMAs and TMEM copies, whole: CuTe's
/// `print_latex` (and `print_svg` of the MMA) captured with the oracle's
/// `cute.py print [--svg]`, kept as length and fingerprint. A 1-SM UMMA has one
/// "thread" owning the whole tile, a 2-SM one two; a TMEM copy's four warps
/// each own 32 rows. (CuTe's `print_latex` of a TMEM copy over a partitioned
/// accumulator, a rank-3 tensor, does not compile: its tiler has three modes;
/// the rank-2 TMEM tensor of `make_tensor(make_tmem_ptr<float>(0), L)` draws.
/// kute draws the rank-3 one too: `tmem_copy_over_a_partitioned_accumulator_is_drawn`.)
#[test]
fn blackwell_atoms_are_drawn_as_cute_draws_them() {
    let k = "UMMA::Major::K";
    let mma1 = format!("make_tiled_mma(SM100_MMA_F16BF16_SS<half_t,half_t,float,64,8,{k},{k}>{{}})");
    let mma2 = format!("make_tiled_mma(SM100_MMA_TF32_2x1SM_SS<tfloat32_t,tfloat32_t,float,128,16,{k},{k}>{{}})");
    let tmem = "make_tensor(make_tmem_ptr<float>(0),(_128,_8):(_65536,_1))";
    let copy8 = format!("make_tmem_copy(SM100_TMEM_LOAD_32dp32b8x{{}},{tmem})");
    let copy1 = format!("make_tmem_copy(SM100_TMEM_LOAD_32dp32b1x{{}},{tmem})");
    let cases: [(&str, bool, usize, u64); 5] = [
        (&mma1, false, 149005, 0x1f66_c7e6_52ea_dd7a),
        (&mma2, false, 284140, 0x456c_8fc1_cfc5_dae6),
        (&mma2, true, 917105, 0xf52a_88dd_bfd4_ec83),
        (&copy8, false, 188327, 0x29ad_e738_af21_e474),
        (&copy1, false, 32625, 0x1a96_b6e1_073a_f54d),
    ];
    for (expr, svg, len, digest) in cases {
        let picture = match kute::expr::eval(expr).unwrap_or_else(|e| panic!("{expr}: {e}")) {
            kute::expr::Value::TiledMma(m) if svg => kute::print::svg_mma(&m),
            kute::expr::Value::TiledMma(m) => kute::print::latex_mma(&m),
            kute::expr::Value::TiledCopy(c) => kute::print::latex_copy(&c),
            other => panic!("{expr}: {}", other.kind_name()),
        };
        let picture = picture.unwrap_or_else(|e| panic!("{expr}: {e}"));
        assert_eq!((picture.len(), fnv1a(picture.as_bytes())), (len, digest), "{expr} (svg: {svg})");
    }
    // the svg of a TMEM copy renders too (CuTe has print_svg for MMAs only)
    let Ok(kute::expr::Value::TiledCopy(c)) = kute::expr::eval(&copy8) else { panic!("{copy8}") };
    assert!(kute::print::svg_copy(&c).unwrap().contains("<svg"));
}

/// The cells of a copy's SVG picture: `(panel, row, column, thread, value)`,
/// panel 0 the source, 1 the destination (`tn` columns each, two apart).
fn copy_svg_cells(svg: &str, tn: i64) -> Vec<(usize, i64, i64, i64, i64)> {
    let num = |s: &str, key: &str| -> i64 {
        let at = s.find(key).unwrap() + key.len();
        s[at..].split('"').next().unwrap().parse().unwrap()
    };
    let lines: Vec<&str> = svg.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if !l.starts_with("<rect ") {
            continue;
        }
        let (x, y) = (num(l, "x=\""), num(l, "y=\""));
        let label = |j: usize, p: char| -> i64 {
            let t = lines[j];
            let start = t.find('>').unwrap() + 1;
            let text = &t[start..t.find("</text>").unwrap()];
            text.strip_prefix(p).unwrap().parse().unwrap()
        };
        let (t, v) = (label(i + 1, 'T'), label(i + 2, 'V'));
        let (col, row) = (x / 20, y / 20 - 1);
        if col >= tn + 3 {
            out.push((1, row, col - tn - 3, t, v));
        } else {
            out.push((0, row, col - 1, t, v));
        }
    }
    out
}

/// A TMEM copy over a partitioned accumulator `((M,N),MMA_M,MMA_N)` (a tiler
/// of three modes, where CuTe's `print_latex` does not compile) is drawn with
/// its tile's first mode as rows and the rest flattened into columns: for
/// `32dp32b32x` over a 128×64 accumulator, the hardware's picture: thread `t`
/// (lane `t % 32` of warp `t / 32`) loads data path `t`, its value `v` column
/// `v`; its source is the warp's block, addressed by lane 0. (And `16dp256b1x`
/// over a 64-row accumulator: each lane its two rows and two columns.)
#[test]
fn tmem_copy_over_a_partitioned_accumulator_is_drawn() {
    let k = "UMMA::Major::K";
    let mma = format!("make_tiled_mma(SM100_MMA_F16BF16_SS<half_t,half_t,float,128,64,{k},{k}>{{}})");
    let copy = format!("make_tmem_copy(SM100_TMEM_LOAD_32dp32b32x{{}},partition_fragment_C({mma},(_128,_64)))");
    let Ok(kute::expr::Value::TiledCopy(c)) = kute::expr::eval(&copy) else { panic!("{copy}") };
    let svg = kute::print::svg_copy(&c).unwrap();
    assert!(svg.starts_with("<!--  Tile: (128,32)  -->\n"), "{}", &svg[..200]);
    let cells = copy_svg_cells(&svg, 32);
    assert_eq!(cells.len(), 2 * 128 * 32);
    let mut seen = std::collections::HashSet::new();
    for &(panel, row, col, t, v) in &cells {
        assert!((0..128).contains(&row) && (0..32).contains(&col), "{panel}: ({row},{col})");
        assert!(seen.insert((panel, row, col)), "cell ({row},{col}) of panel {panel} drawn twice");
        if panel == 1 {
            assert_eq!((t, v), (row, col), "destination cell ({row},{col})");
        } else {
            assert_eq!(t, 32 * (row / 32), "source cell ({row},{col}): the warp's lane 0");
        }
    }
    // the LaTeX picture has the same cells
    let latex = kute::print::latex_copy(&c).unwrap();
    assert_eq!(latex.matches("\\node[fill=").count(), 2 * 128 * 32);
    // thread 1's value 1 at row 1, column 1 of the destination panel (columns 35..)
    assert!(latex.contains("] at (1,36) {\\shortstack{T1 \\\\ V1}};"), "{}", &latex[..300]);
    // 16dp256b1x over the 64-row accumulator of a 1-SM M = 64 MMA: warp w's data paths are
    // rows 16w..16w+15; lane l holds rows 16w + l/4 and 8 below it, columns 2(l%4) and the next
    let mma64 = format!("make_tiled_mma(SM100_MMA_F16BF16_SS<half_t,half_t,float,64,64,{k},{k}>{{}})");
    let half = format!("make_tmem_copy(SM100_TMEM_LOAD_16dp256b1x{{}},partition_fragment_C({mma64},(_64,_64)))");
    let Ok(kute::expr::Value::TiledCopy(c)) = kute::expr::eval(&half) else { panic!("{half}") };
    let svg = kute::print::svg_copy(&c).unwrap();
    assert!(svg.starts_with("<!--  Tile: (64,8)  -->\n"), "{}", &svg[..100]);
    let mut mine = std::collections::BTreeMap::<i64, Vec<(i64, i64)>>::new();
    for (panel, row, col, t, _) in copy_svg_cells(&svg, 8) {
        if panel == 1 {
            mine.entry(t).or_default().push((row, col));
        }
    }
    assert_eq!(mine.len(), 128);
    for (t, mut cells) in mine {
        let (w, l) = (t / 32, t % 32);
        let (r, c0) = (16 * w + l / 4, 2 * (l % 4));
        cells.sort();
        assert_eq!(cells, [(r, c0), (r, c0 + 1), (r + 8, c0), (r + 8, c0 + 1)], "thread {t}");
    }
    // over four MMA tiles: the copy's tile is one MMA tile's 128 rows by 8 columns
    let wide = format!("make_tmem_copy(SM100_TMEM_LOAD_32dp32b8x{{}},partition_fragment_C({mma},(_256,_128)))");
    let Ok(kute::expr::Value::TiledCopy(c)) = kute::expr::eval(&wide) else { panic!("{wide}") };
    let svg = kute::print::svg_copy(&c).unwrap();
    assert!(svg.starts_with("<!--  Tile: (128,8)  -->\n"), "{}", &svg[..100]);
    assert_eq!(svg.matches("<rect ").count(), 2 * 128 * 8);
}
