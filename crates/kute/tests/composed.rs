//! Swizzled layouts against an independent model: `Sw<B,M,S> o off o L` is
//! `x -> sw(off + L(x))` with the swizzle written out here bit by bit. Random
//! swizzles, offsets, layouts and coordinates; every answer kute gives must
//! be that function (CuTe's vectors are in `vectors.rs`).

use kute::expr::{eval, Value};

use crate::common;

use common::Gen;

/// Uniform in `[0, n)`.
fn below(g: &mut Gen, n: i64) -> i64 {
    g.range(0, n - 1)
}

/// The swizzle, bit by bit: bit `M+max(S,0)+k` is xored into bit `M-min(S,0)+k`.
fn sw(b: i64, m: i64, s: i64, x: i64) -> i64 {
    let mut r = x;
    for k in 0..b {
        let y = m + s.max(0) + k;
        let z = m - s.min(0) + k;
        r ^= ((x >> y) & 1) << z;
    }
    r
}

fn int(v: &Value) -> i64 {
    v.to_string().replace('_', "").parse().unwrap()
}

/// A random rank-2 layout of power-of-two extents, row- or column-major.
fn layout(g: &mut Gen) -> (i64, i64, String) {
    let (r, c) = (1i64 << below(g, 4), 1i64 << (1 + below(g, 5)));
    let text = if below(g, 2) == 0 { format!("(_{r},_{c}):(_{c},_1)") } else { format!("(_{r},_{c}):(_1,_{r})") };
    (r, c, text)
}

fn swizzle(g: &mut Gen) -> (i64, i64, i64) {
    let b = below(g, 4);
    let s = b.max(1) + below(g, 3);
    let s = if below(g, 4) == 0 { -s } else { s };
    (b, below(g, 5), s)
}

#[test]
fn evaluation_and_slices_are_the_function() {
    let g = &mut Gen::new(1);
    let (mut sliced, mut decayed) = (0, 0);
    for _ in 0..400 {
        let (r, c, l) = layout(g);
        let (b, m, s) = swizzle(g);
        let off = if below(g, 3) == 0 { 0 } else { below(g, 256) };
        let src = format!("Sw<{b},{m},{s}> o _{off} o {l}");
        let plain: kute::Layout = l.parse().unwrap();
        let f = |i: i64, j: i64| {
            let x = plain.eval_coord(&format!("({i},{j})").parse().unwrap()).unwrap().value();
            sw(b, m, s, off + x)
        };
        for _ in 0..8 {
            let (i, j) = (below(g, r), below(g, c));
            assert_eq!(int(&eval(&format!("{src}({i},{j})")).unwrap()), f(i, j), "{src}({i},{j})");
        }
        // a row or a column fixed: the slice plus its offset is the function
        let fixed_row = below(g, 2) == 0;
        let k = if fixed_row { below(g, r) } else { below(g, c) };
        let coord = if fixed_row { format!("({k},_)") } else { format!("(_,{k})") };
        let Ok(Value::Tuple(p)) = eval(&format!("slice_and_offset({coord},{src})")) else { continue };
        sliced += 1;
        let (rs, o) = (p[0].to_string(), int(&p[1]));
        decayed += usize::from(!rs.contains("Sw<"));
        let n = if fixed_row { c } else { r };
        for t in 0..n {
            let want = if fixed_row { f(k, t) } else { f(t, k) };
            let got = int(&eval(&format!("{rs}({t})")).unwrap()) + o;
            assert_eq!(got, want, "slice_and_offset({coord},{src}) = ({rs},{o}) at {t}");
        }
    }
    // the checks are not vacuous: most slices answer, and many decay to plain layouts
    assert!(sliced > 300 && decayed > 50, "{sliced} slices, {decayed} decayed");
}

#[test]
fn layout_of_swizzle_is_the_composite_or_an_error() {
    let g = &mut Gen::new(2);
    let mut answered = 0;
    for _ in 0..400 {
        let (_, _, l) = layout(g);
        let (b, m, s) = swizzle(g);
        let plain: kute::Layout = l.parse().unwrap();
        let Ok(v) = eval(&format!("composition({l},Swizzle<{b},{m},{s}>{{}})")) else { continue };
        answered += 1;
        let rs = v.to_string();
        for i in 0..plain.size().unwrap().value() {
            let want = plain.eval(sw(b, m, s, i)).unwrap();
            assert_eq!(
                int(&eval(&format!("{rs}({i})")).unwrap()),
                want,
                "composition({l},Sw<{b},{m},{s}>) = {rs} at {i}"
            );
        }
    }
    assert!(answered > 100, "{answered}");
}
