//! Swizzled layouts against an independent model: `Sw<B,M,S> o off o L` is
//! `x -> sw(off + L(x))` with the swizzle written out here bit by bit. Random
//! swizzles, offsets, layouts and coordinates; every answer kute gives must
//! be that function (CuTe's vectors are in `vectors.rs`).

use kute::expr::{eval, Value};

/// A small xorshift generator (deterministic).
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> i64 {
        (self.next() % n) as i64
    }
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
    let (r, c) = (1i64 << g.below(4), 1i64 << (1 + g.below(5)));
    let text = if g.below(2) == 0 { format!("(_{r},_{c}):(_{c},_1)") } else { format!("(_{r},_{c}):(_1,_{r})") };
    (r, c, text)
}

fn swizzle(g: &mut Gen) -> (i64, i64, i64) {
    let b = g.below(4);
    let s = b.max(1) + g.below(3);
    let s = if g.below(4) == 0 { -s } else { s };
    (b, g.below(5), s)
}

#[test]
fn evaluation_and_slices_are_the_function() {
    let mut g = Gen(0x9e3779b97f4a7c15);
    let (mut sliced, mut decayed) = (0, 0);
    for _ in 0..400 {
        let (r, c, l) = layout(&mut g);
        let (b, m, s) = swizzle(&mut g);
        let off = if g.below(3) == 0 { 0 } else { g.below(256) };
        let src = format!("Sw<{b},{m},{s}> o _{off} o {l}");
        let plain: kute::Layout = l.parse().unwrap();
        let f = |i: i64, j: i64| {
            let x = plain.eval_coord(&format!("({i},{j})").parse().unwrap()).unwrap().value();
            sw(b, m, s, off + x)
        };
        for _ in 0..8 {
            let (i, j) = (g.below(r as u64), g.below(c as u64));
            assert_eq!(int(&eval(&format!("{src}({i},{j})")).unwrap()), f(i, j), "{src}({i},{j})");
        }
        // a row or a column fixed: the slice plus its offset is the function
        let fixed_row = g.below(2) == 0;
        let k = if fixed_row { g.below(r as u64) } else { g.below(c as u64) };
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
    let mut g = Gen(0x2545f4914f6cdd1d);
    let mut answered = 0;
    for _ in 0..400 {
        let (_, _, l) = layout(&mut g);
        let (b, m, s) = swizzle(&mut g);
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
