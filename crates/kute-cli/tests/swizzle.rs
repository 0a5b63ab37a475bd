//! `kute f2` and pictures of swizzled layouts, run as a user runs them. The
//! bit matrix is checked against the swizzle written out bit by bit here.

use std::process::Command;

fn kute(args: &[&str]) -> (String, String, bool) {
    let o = Command::new(env!("CARGO_BIN_EXE_kute")).args(args).output().expect("run kute");
    (String::from_utf8(o.stdout).unwrap(), String::from_utf8(o.stderr).unwrap(), o.status.success())
}

/// `Sw<B,M,S>` bit by bit.
fn sw(b: i64, m: i64, s: i64, x: i64) -> i64 {
    (0..b).fold(x, |r, k| r ^ (((x >> (m + s.max(0) + k)) & 1) << (m - s.min(0) + k)))
}

#[test]
fn the_bit_matrix_is_the_swizzle() {
    let (out, err, ok) = kute(&["f2", "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"]);
    assert!(ok, "{err}");
    let rows: Vec<Vec<i64>> = out
        .lines()
        .skip(2)
        .take_while(|l| !l.starts_with("linear"))
        .map(|l| l.split_whitespace().skip(1).map(|x| x.parse().unwrap()).collect())
        .collect();
    // input bit k: bits 0-2 are the row (stride 64), 3-8 the column (stride 1)
    let value_of_bit = |k: i64| if k < 3 { sw(3, 4, 3, 64 << k) } else { sw(3, 4, 3, 1 << (k - 3)) };
    assert_eq!(rows.len(), 9);
    for (r, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), 9);
        for (k, &bit) in row.iter().enumerate() {
            assert_eq!(bit, (value_of_bit(k as i64) >> r) & 1, "output bit {r}, input bit {k}");
        }
    }
    assert!(out.contains("linear layout: {dim0: [64, 144, 288], dim1: [1, 2, 4, 8, 16, 32]} -> offset (512)"));
}

#[test]
fn a_linear_layout_reads_back_as_the_same_map() {
    let (out, err, ok) = kute(&["f2", "--from-linear", r#"{"dim0": [64, 144, 288], "dim1": [1, 2, 4, 8, 16, 32]}"#]);
    assert!(ok, "{err}");
    let l = out.trim();
    for r in 0..8i64 {
        for c in 0..64i64 {
            let (v, _, ok) = kute(&["eval", &format!("{l}({r},{c})")]);
            assert!(ok);
            assert_eq!(v.trim().trim_start_matches('_').parse::<i64>().unwrap(), sw(3, 4, 3, r * 64 + c));
            if c > 2 {
                break; // a few columns per row keep the test quick
            }
        }
    }
}

#[test]
fn maps_that_are_not_xor_linear_are_errors() {
    let (_, err, ok) = kute(&["f2", "(_2,_2):(_1,_1)"]);
    assert!(!ok && err.contains("not xor-linear"), "{err}");
    let (_, err, ok) = kute(&["f2", "--from-linear", r#"{"dim0": [3, 5, 6]}"#]);
    assert!(!ok && err.contains("no plain or swizzled layout"), "{err}");
}

/// `kute table` of a swizzled layout is CuTe's print_layout, byte for byte
/// (the first composed row of the oracle's print vectors).
#[test]
fn table_of_a_swizzled_layout_is_cutes() {
    let line = include_str!("../../kute/tests/data/print_composed.jsonl").lines().nth(1).unwrap();
    assert!(line.contains("composition(Swizzle<2,0,2>{},(_4,_4):(_4,_1))"));
    let (out, err, ok) = kute(&["table", "composition(Swizzle<2,0,2>{},(_4,_4):(_4,_1))"]);
    assert!(ok, "{err}");
    let want = "Sw<2,0,2> o _0 o (_4,_4):(_4,_1)\n       0    1    2    3 \n    +----+----+----+----+\n 0  |  0 |  1 |  2 |  3 |\n    +----+----+----+----+\n 1  |  5 |  4 |  7 |  6 |\n    +----+----+----+----+\n 2  | 10 | 11 |  8 |  9 |\n    +----+----+----+----+\n 3  | 15 | 14 | 13 | 12 |\n    +----+----+----+----+\n";
    assert!(line.contains(&want.replace('\n', "\\n")));
    assert_eq!(out, want);
}

/// `kute svg --banks 2`: every cell's tooltip names the bank of its byte
/// address, `(index · 2 / 4) mod 32`, and its fill is that bank's colour.
#[test]
fn svg_colours_cells_by_bank() {
    let (out, err, ok) = kute(&["svg", "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", "--banks", "2"]);
    assert!(ok, "{err}");
    let mut cells = 0;
    for line in out.lines().filter(|l| l.starts_with("<rect class=\"cell\"")) {
        let title = &line[line.find("<title>").unwrap() + 7..line.find("</title>").unwrap()];
        // "(m,n) → v, bank b"
        let (coord, rest) = title.split_once(" \u{2192} ").unwrap();
        let (v, bank) = rest.split_once(", bank ").unwrap();
        let (m, n) = coord.trim_matches(|c| c == '(' || c == ')').split_once(',').unwrap();
        let (m, n): (i64, i64) = (m.parse().unwrap(), n.parse().unwrap());
        assert_eq!(v.parse::<i64>().unwrap(), sw(3, 4, 3, m * 64 + n));
        assert_eq!(bank.parse::<i64>().unwrap(), (sw(3, 4, 3, m * 64 + n) * 2 / 4) % 32);
        cells += 1;
    }
    assert_eq!(cells, 512);
    assert!(out.contains("class=\"legend\""));
    // element sizes are those `kute analyze` takes: 1, 2, 4, 8 or 16 bytes
    for bad in ["0", "3", "5", "1000"] {
        let (out, err, ok) = kute(&["svg", "(4,4):(4,1)", "--banks", bad]);
        assert!(!ok && out.is_empty(), "--banks {bad}: {out}");
        assert!(err.contains(&format!("--banks {bad}")) && err.contains("1, 2, 4, 8 or 16"), "{err}");
        let (_, analyze, ok) = kute(&["analyze", "conflicts", "(4,4):(4,1)", "--elem-bytes", bad, "--access", "row"]);
        assert!(!ok && analyze.contains("1, 2, 4, 8 or 16"), "analyze accepts {bad}: {analyze}");
    }
    for good in ["1", "2", "4", "8", "16"] {
        let (out, err, ok) = kute(&["svg", "(4,4):(4,1)", "--banks", good]);
        assert!(ok && out.contains("class=\"legend\""), "--banks {good}: {err}");
    }
}

/// Options that change nothing in a picture are refused, not ignored: bank
/// colours of an MMA's or a copy's picture (threads, not element offsets), and
/// `--cute` for a layout (it chooses how an MMA's or a copy's picture is written).
#[test]
fn svg_options_that_would_change_nothing_are_errors() {
    let mma = "make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{})";
    let copy = "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>,half_t>{},(_8,_4):(_4,_1),(_1,_8):(_8,_1))";
    for (expr, kind) in [(mma, "TiledMMA"), ("SM80_16x8x8_F16F16F16F16_TN{}", "MMA atom"), (copy, "TiledCopy")] {
        let (out, err, ok) = kute(&["svg", expr, "--banks", "2"]);
        assert!(!ok && out.is_empty(), "{expr}");
        assert!(err.contains("--banks") && err.contains(kind), "{err}");
        // the picture itself is drawn without the option
        let (_, err, ok) = kute(&["svg", expr]);
        assert!(ok, "{err}");
    }
    let (out, err, ok) = kute(&["svg", "(_8,_8):(_8,_1)", "--cute"]);
    assert!(!ok && out.is_empty() && err.contains("--cute") && err.contains("layout"), "{err}");
    let (_, err, ok) = kute(&["svg", mma, "--cute"]);
    assert!(ok, "{err}");
}

/// `kute f2 Sw<B,M,S>`: a swizzle alone is shown on the bits it reads and
/// writes, `B + M + |S|` of them; each column is the swizzle of that bit.
#[test]
fn f2_of_a_swizzle_alone() {
    for (b, m, s) in [(3i64, 4i64, 3i64), (2, 0, 2), (1, 1, -2), (3, 3, 3)] {
        let (out, err, ok) = kute(&["f2", &format!("Sw<{b},{m},{s}>")]);
        assert!(ok, "Sw<{b},{m},{s}>: {err}");
        let n = b + m + s.abs();
        let bases: Vec<String> = (0..n).map(|k| sw(b, m, s, 1 << k).to_string()).collect();
        let want = format!("linear layout: {{dim0: [{}]}} -> offset ({})", bases.join(", "), 1i64 << n);
        assert!(out.contains(&want), "Sw<{b},{m},{s}>: want {want}\n{out}");
        assert!(out.lines().next().unwrap().contains(&format!("bits 0 to {}", n - 1)), "{out}");
    }
}

/// A coordinate layout's values are coordinates, not offsets: f2 says so.
#[test]
fn f2_of_a_coordinate_layout_is_a_clear_error() {
    let (out, err, ok) = kute(&["f2", "make_identity_layout((_4,_4))"]);
    assert!(!ok && out.is_empty(), "{out}");
    assert!(
        err.starts_with("error: f2: ") && err.contains("coordinate layout") && err.contains("no F2-linear"),
        "{err}"
    );
}

/// `kute f2` takes an expression or --from-linear: the usage line of its
/// help and of its missing-argument error are the same.
#[test]
fn f2_usage_agrees_with_its_help() {
    let usage = |text: &str| text.lines().find(|l| l.starts_with("Usage:")).map(str::to_string);
    let (help, _, ok) = kute(&["f2", "--help"]);
    assert!(ok);
    let (_, err, ok) = kute(&["f2"]);
    assert!(!ok);
    assert_eq!(usage(&help), usage(&err), "{help}\n{err}");
    assert!(usage(&err).unwrap().contains("--from-linear"), "{err}");
}

/// `kute svg --banks 2 --access column:16` outlines the 256 halves one warp's
/// ldmatrix reads (8 per thread), red where the bank is shared: all of them on
/// the plain row-major tile (8-way), none through CuTe's 128-byte swizzle.
#[test]
fn svg_outlines_a_warps_access() {
    for (layout, red) in [("(_8,_64):(_64,_1)", 256), ("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", 0)] {
        let (out, err, ok) = kute(&["svg", layout, "--banks", "2", "--access", "column:16"]);
        assert!(ok, "{err}");
        let marks: Vec<&str> = out.lines().filter(|l| l.starts_with("<rect class=\"mark\"")).collect();
        assert_eq!(marks.len(), 256, "{layout}");
        assert_eq!(marks.iter().filter(|l| l.contains("#b0151c")).count(), red, "{layout}");
        for t in 0..32 {
            assert_eq!(
                marks.iter().filter(|l| l.ends_with(&format!(">t{t}</text>"))).count(),
                8,
                "{layout}: thread {t}"
            );
        }
    }
    let (_, err, ok) = kute(&["svg", "(_8,_64):(_64,_1)", "--access", "column:16"]);
    assert!(!ok && err.contains("--banks"), "{err}");
}

/// `kute latex` and `kute svg` of a TiledMMA are CuTe's `print_latex` and
/// `print_svg`, byte for byte (the first MMA row of the oracle's vectors);
/// a TiledCopy's SVG has its two panels.
#[test]
fn tv_pictures_from_the_command_line() {
    let line = include_str!("../../kute/tests/data/print_tv.jsonl").lines().next().unwrap();
    let expr = "make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{})";
    assert!(line.contains(expr));
    let (latex, err, ok) = kute(&["latex", expr]);
    assert!(ok, "{err}");
    let (svg, err, ok) = kute(&["svg", expr]);
    assert!(ok, "{err}");
    let esc = |s: &str| s.replace('\\', "\\\\").replace('\n', "\\n").replace('"', "\\\"");
    assert!(line.contains(&esc(&latex)), "latex differs from CuTe's");
    assert!(line.contains(&esc(&svg)), "svg differs from CuTe's");
    let (svg, err, ok) =
        kute(&["svg", "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>,half_t>{},(_8,_4):(_4,_1),(_1,_8):(_8,_1))"]);
    assert!(ok, "{err}");
    assert_eq!(svg.matches("<rect ").count(), 2 * 8 * 32);
    // above 4096 cells, compact (the same picture: see kute's svg_pictures tests); --cute: CuTe's text
    let big = "make_tiled_mma(SM90_64x256x16_F32F16F16_SS{})";
    let (compact, err, ok) = kute(&["svg", big]);
    assert!(ok, "{err}");
    let (cute, err, ok) = kute(&["svg", "--cute", big]);
    assert!(ok, "{err}");
    assert!(compact.len() < 400_000 && cute.len() > 6_000_000, "{} and {} bytes", compact.len(), cute.len());
    assert_eq!(cute.matches("<rect ").count(), 64 * 256 + 64 * 16 + 256 * 16, "one rect per cell");
    assert!(compact.contains("<use ") && compact.contains(">T127</text>"));
}
