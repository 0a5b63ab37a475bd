//! The two policies against each other: on random operands (static and
//! dynamic integers, nested and flat, admissible and not), every public
//! operation gives the same answer with and without its fast run (the
//! operation under the fast policy, with its early branches
//! for common shapes): the same layout (static flags included), or the same
//! error.

//!
//! The fast runs are turned off through `kute::test_hooks`, which the tests'
//! build of the library has.

use kute::test_hooks::{fast_answers, without_fast_paths};
use kute::{IntTuple, Layout, Result, Tiler};

/// xorshift64*
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
    /// An integer, `_` prefixed when static.
    fn int(&mut self, v: i64, static_p: f64) -> String {
        if self.chance(static_p) {
            format!("_{v}")
        } else {
            v.to_string()
        }
    }
}

/// A random layout: up to `max_leaves` leaves in up to 3 top-level modes, often
/// nested; strides mostly compact with gaps (so that compositions are often
/// admissible), sometimes arbitrary, zero or negative.
fn layout(g: &mut Gen, max_leaves: u64) -> String {
    let n = 1 + g.below(max_leaves) as usize;
    let st = [0.0, 0.5, 1.0][g.below(3) as usize];
    let mut shapes = Vec::new();
    let mut strides = Vec::new();
    let mut next = 1 + g.below(3) as i64;
    for _ in 0..n {
        let s = match g.below(10) {
            0 => 1,
            1 => 0,
            _ => 2 + g.below(7) as i64,
        };
        let d = match g.below(12) {
            0 => 0,
            1 => -(1 + g.below(8) as i64),
            2 | 3 => 1 + g.below(40) as i64,
            _ => {
                let d = next;
                next = next.saturating_mul(s.max(1)).saturating_mul(1 + g.below(2) as i64);
                d
            }
        };
        shapes.push(g.int(s, st));
        strides.push(g.int(d, st));
    }
    if g.chance(0.3) {
        // scramble the order (strides no longer increasing)
        for i in (1..n).rev() {
            let j = g.below(i as u64 + 1) as usize;
            shapes.swap(i, j);
            strides.swap(i, j);
        }
    }
    // group the leaves into modes, some nested
    let mut s_parts = Vec::new();
    let mut d_parts = Vec::new();
    let mut i = 0;
    while i < n {
        let k = (1 + g.below(3) as usize).min(n - i);
        if k == 1 && g.chance(0.7) {
            s_parts.push(shapes[i].clone());
            d_parts.push(strides[i].clone());
        } else {
            s_parts.push(format!("({})", shapes[i..i + k].join(",")));
            d_parts.push(format!("({})", strides[i..i + k].join(",")));
        }
        i += k;
    }
    if s_parts.len() == 1 && g.chance(0.6) {
        format!("{}:{}", s_parts[0], d_parts[0])
    } else {
        format!("({}):({})", s_parts.join(","), d_parts.join(","))
    }
}

fn parse(s: &str) -> Layout {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// A random tiler: a layout, an integer, or a by-mode tuple of those and `_`.
fn tiler(g: &mut Gen) -> Tiler {
    let part = |g: &mut Gen| match g.below(5) {
        0 => "_".to_string(),
        1 => {
            let v = 1 + g.below(8) as i64;
            g.int(v, 0.5)
        }
        _ => layout(g, 2),
    };
    let src = match g.below(4) {
        0 => layout(g, 3),
        1 => {
            let v = 1 + g.below(12) as i64;
            g.int(v, 0.5)
        }
        _ => {
            let k = 1 + g.below(3);
            let parts: Vec<String> = (0..k).map(|_| part(g)).collect();
            format!("<{}>", parts.join(","))
        }
    };
    kute::expr::parse_tiler(&src).unwrap_or_else(|e| panic!("{src}: {e}"))
}

/// Run `f` with the fast paths on and off; the answers must be identical.
/// Returns whether the answer is a layout.
fn same(what: &str, f: impl Fn(&mut Layout) -> Result<()>) -> bool {
    same_taken(what, f).0
}

/// [`same`], and whether the fast run gave the answer.
fn same_taken(what: &str, f: impl Fn(&mut Layout) -> Result<()>) -> (bool, bool) {
    let (mut fast, mut general) = (Layout::default(), Layout::default());
    let before = fast_answers();
    let r1 = f(&mut fast);
    let taken = fast_answers() > before;
    let r2 = without_fast_paths(|| f(&mut general));
    match (&r1, &r2) {
        (Ok(()), Ok(())) => assert_eq!(fast.to_string(), general.to_string(), "{what}"),
        (Err(e1), Err(e2)) => {
            assert_eq!(e1.to_string(), e2.to_string(), "{what}");
            assert_eq!(fast.to_string(), "_1:_0", "{what}: output after an error");
        }
        _ => panic!("{what}: fast path {r1:?} {fast}, general path {r2:?} {general}"),
    }
    (r1.is_ok(), taken)
}

/// The logical, zipped, tiled and flat divides of `a` by the tiler written
/// `src` (parsed as `t`), each checked with [`same`]: whether each answer is
/// a layout.
fn divides_agree(a: &Layout, src: &str, t: &Tiler) -> [bool; 4] {
    let w = |op: &str| format!("{op}({a}, {src})");
    [
        same(&w("logical_divide"), |o| kute::logical_divide_into(o, a, t)),
        same(&w("zipped_divide"), |o| kute::zipped_divide_into(o, a, t)),
        same(&w("tiled_divide"), |o| kute::tiled_divide_into(o, a, t)),
        same(&w("flat_divide"), |o| kute::flat_divide_into(o, a, t)),
    ]
}

/// The three regroupings of a divide.
#[derive(Clone, Copy)]
enum Unzip {
    Zipped,
    Tiled,
    Flat,
}

#[test]
fn fast_paths_agree_with_the_general_path() {
    let mut g = Gen(0x9e37_79b9_7f4a_7c15);
    // per operation: answers that are layouts, and of those the ones the fast path gave
    let mut ok = [0usize; 11];
    let mut taken = [0usize; 11];
    for _ in 0..10_000 {
        let a = parse(&layout(&mut g, 6));
        let b = parse(&layout(&mut g, 4));
        let t = tiler(&mut g);
        let v = 1 + g.below(300) as i64;
        // (a tuple cotarget takes the checked run)
        let cot: IntTuple = if g.chance(0.2) {
            let w = 1 + g.below(8) as i64;
            format!("({},{})", g.int(v, 0.5), g.int(w, 0.5))
        } else {
            g.int(v, 0.5)
        }
        .parse()
        .unwrap();
        let mut check = |i: usize, what: String, f: &dyn Fn(&mut Layout) -> Result<()>| {
            let (is_ok, fast) = same_taken(&what, f);
            if is_ok {
                ok[i] += 1;
                taken[i] += usize::from(fast);
            }
        };
        let w = |op: &str, x: &dyn std::fmt::Display| format!("{op}({a}, {x})");
        check(0, format!("coalesce({a})"), &|o| kute::coalesce_into(o, &a));
        check(1, w("complement", &cot), &|o| kute::complement_into(o, &a, &cot));
        check(2, w("composition", &b), &|o| kute::composition_into(o, &a, &b));
        check(3, w("composition", &t), &|o| kute::composition_tiler_into(o, &a, &t));
        check(4, w("logical_divide", &t), &|o| kute::logical_divide_into(o, &a, &t));
        for (i, how, op) in
            [(5, Unzip::Zipped, "zipped_divide"), (6, Unzip::Tiled, "tiled_divide"), (7, Unzip::Flat, "flat_divide")]
        {
            let f = |o: &mut Layout| match how {
                Unzip::Zipped => kute::zipped_divide_into(o, &a, &t),
                Unzip::Tiled => kute::tiled_divide_into(o, &a, &t),
                Unzip::Flat => kute::flat_divide_into(o, &a, &t),
            };
            check(i, w(op, &t), &f);
        }
        check(8, w("logical_product", &t), &|o| kute::logical_product_into(o, &a, &t));
        check(9, w("blocked_product", &b), &|o| kute::blocked_product_into(o, &a, &b));
        check(10, w("raked_product", &b), &|o| kute::raked_product_into(o, &a, &b));
    }
    // the comparison means something only if both paths ran often
    for i in 0..11 {
        assert!(
            taken[i] * 10 >= ok[i] && ok[i] > taken[i] + 50,
            "op {i}: {} of {} answers on the fast path",
            taken[i],
            ok[i]
        );
    }
}

/// The small paths for a flat layout divided by leaves (every tile a leaf by a
/// leaf) and for a leaf composed with anything: operands drawn to hit them
/// (and their edges: extent 1, stride 0 or negative, a tile larger than its mode).
#[test]
fn flat_and_leaf_paths_agree_with_the_general_path() {
    let mut g = Gen(0x2545_f491_4f6c_dd1d);
    let mut folded = 0;
    for _ in 0..10_000 {
        let rank = 1 + g.below(4) as usize;
        let st = [0.0, 0.5, 1.0][g.below(3) as usize];
        let leaf = |g: &mut Gen| {
            let s = [1, 2, 3, 4, 6, 8, 12, 32][g.below(8) as usize];
            let d = [0, 1, 2, 4, 8, 128, -2][g.below(7) as usize];
            (g.int(s, st), g.int(d, st))
        };
        let modes: Vec<(String, String)> = (0..rank).map(|_| leaf(&mut g)).collect();
        let a = parse(&format!(
            "({}):({})",
            modes.iter().map(|m| m.0.as_str()).collect::<Vec<_>>().join(","),
            modes.iter().map(|m| m.1.as_str()).collect::<Vec<_>>().join(",")
        ));
        let k = 1 + g.below(rank as u64) as usize;
        let tiles: Vec<String> = (0..k)
            .map(|_| {
                let (s, d) = leaf(&mut g);
                if g.chance(0.3) {
                    s
                } else {
                    format!("{s}:{d}")
                }
            })
            .collect();
        let src = format!("<{}>", tiles.join(","));
        let t = kute::expr::parse_tiler(&src).unwrap_or_else(|e| panic!("{src}: {e}"));
        if divides_agree(&a, &src, &t)[0] {
            folded += 1;
        }
        // a leaf on the left of a composition
        let (s, d) = leaf(&mut g);
        let l = parse(&format!("{s}:{d}"));
        let b = parse(&layout(&mut g, 3));
        same(&format!("composition({l}, {b})"), |o| kute::composition_into(o, &l, &b));
        same(&format!("composition({l}, {src})"), |o| kute::composition_tiler_into(o, &l, &t));
    }
    assert!(folded > 2_500, "{folded} divides gave a layout");
}

/// Operands near `i64::MAX` (and the small values they combine with): where a
/// fast path skips a step of the general algorithm, it must still decline
/// exactly where that step would overflow.
#[test]
fn extreme_values_agree_with_the_general_path() {
    const M: i64 = i64::MAX;
    let values = [1, 2, 3, 4, 1 << 31, 1 << 62, (1 << 62) + 2, M / 3, M - 1, M, -(M - 1)];
    let mut g = Gen(0x6a09_e667_f3bc_c909);
    let mut layouts = 0;
    for _ in 0..10_000 {
        let draw = |g: &mut Gen, max: u64| {
            let n = 1 + g.below(max) as usize;
            let st = [0.0, 1.0][g.below(2) as usize];
            let mut sh = Vec::new();
            let mut sd = Vec::new();
            for _ in 0..n {
                let s = values[g.below(values.len() as u64 - 1) as usize].max(1);
                let d = values[g.below(values.len() as u64) as usize];
                sh.push(g.int(s, st));
                sd.push(g.int(d, st));
            }
            parse(&format!("({}):({})", sh.join(","), sd.join(",")))
        };
        let a = draw(&mut g, 3);
        let b = draw(&mut g, 2);
        let v = values[g.below(values.len() as u64 - 1) as usize].max(1);
        let cot: IntTuple = v.to_string().parse().unwrap();
        let t = Tiler::Layout(b.clone());
        let w = |op: &str, x: &dyn std::fmt::Display| format!("{op}({a}, {x})");
        let mut ok = same(&format!("coalesce({a})"), |o| kute::coalesce_into(o, &a));
        ok |= same(&w("complement", &cot), |o| kute::complement_into(o, &a, &cot));
        ok |= same(&w("composition", &b), |o| kute::composition_into(o, &a, &b));
        ok |= same(&w("logical_divide", &b), |o| kute::logical_divide_into(o, &a, &t));
        ok |= same(&w("zipped_divide", &b), |o| kute::zipped_divide_into(o, &a, &t));
        ok |= same(&w("logical_product", &b), |o| kute::logical_product_into(o, &a, &t));
        ok |= same(&w("blocked_product", &b), |o| kute::blocked_product_into(o, &a, &b));
        ok |= same(&w("raked_product", &b), |o| kute::raked_product_into(o, &a, &b));
        layouts += usize::from(ok);
    }
    assert!(layouts > 500, "{layouts} operand pairs gave a layout");
}

/// By-mode compositions with leaf and integer tiles (the token-walking small
/// path) on left operands whose modes are leaves, pairs, and the shapes it must
/// leave to the general fast path: a one-mode tuple, nested pairs, triples.
#[test]
fn leaf_tiles_agree_with_the_general_path() {
    let mut g = Gen(0xbb67_ae85_84ca_a73b);
    let shapes = ["{}", "({})", "({},{})", "({},({},{}))", "(({},{}),{})", "({},{},{})"];
    let mut layouts = 0;
    for _ in 0..10_000 {
        let st = [0.0, 0.5, 1.0][g.below(3) as usize];
        let rank = 1 + g.below(3) as usize;
        let (mut sh, mut sd) = (Vec::new(), Vec::new());
        for _ in 0..rank {
            let pat = shapes[g.below(shapes.len() as u64) as usize];
            let (mut s, mut d) = (pat.to_string(), pat.to_string());
            while s.contains("{}") {
                let e = [1, 2, 3, 4, 6, 8, 12][g.below(7) as usize];
                let st_ = [0, 1, 2, 4, 13, 59, -2][g.below(7) as usize];
                s = s.replacen("{}", &g.int(e, st), 1);
                d = d.replacen("{}", &g.int(st_, st), 1);
            }
            sh.push(s);
            sd.push(d);
        }
        let a = parse(&format!("({}):({})", sh.join(","), sd.join(",")));
        let k = 1 + g.below(rank as u64) as usize;
        let tiles: Vec<String> = (0..k)
            .map(|_| {
                let s = [1, 2, 3, 4, 8][g.below(5) as usize];
                let d = [0, 1, 2, 4, -1, 3][g.below(6) as usize];
                if g.chance(0.3) {
                    g.int(s, st)
                } else {
                    format!("{}:{}", g.int(s, st), g.int(d, st))
                }
            })
            .collect();
        let src = format!("<{}>", tiles.join(","));
        let t = kute::expr::parse_tiler(&src).unwrap_or_else(|e| panic!("{src}: {e}"));
        if same(&format!("composition({a}, {src})"), |o| kute::composition_tiler_into(o, &a, &t)) {
            layouts += 1;
        }
    }
    assert!(layouts > 1_000, "{layouts} compositions gave a layout");
}

/// The regrouped divides of modes that are tuples of leaves by tiles `t:1` (or
/// an integer `t`), drawn so that the tile often splits the mode's extents
/// (the early branch for a unit-stride tile over a coalesced mode) and often
/// does not; static flags mixed leaf by leaf, so that every flag the branch
/// computes is compared with the general steps'.
#[test]
fn unit_tiles_over_flat_modes_agree_with_the_general_path() {
    let mut g = Gen(0x3c6e_f372_fe94_f82b);
    let mut layouts = 0;
    for _ in 0..8_000 {
        let rank = 1 + g.below(3) as usize;
        let (mut sh, mut sd) = (Vec::new(), Vec::new());
        for _ in 0..rank {
            let n = 1 + g.below(4) as usize;
            let (mut s, mut d) = (Vec::new(), Vec::new());
            let mut next = 1 + g.below(3) as i64;
            for _ in 0..n {
                let e = [1, 2, 3, 4, 6, 8, 12][g.below(7) as usize];
                let st = match g.below(8) {
                    0 => 0,
                    1 => -2,
                    2 => 1 + g.below(20) as i64,
                    _ => next,
                };
                next = next * e * (1 + g.below(2) as i64);
                let p = [0.0, 0.5, 1.0][g.below(3) as usize];
                s.push(g.int(e, p));
                d.push(g.int(st, p));
            }
            if n == 1 && g.chance(0.5) {
                sh.push(s[0].clone());
                sd.push(d[0].clone());
            } else {
                sh.push(format!("({})", s.join(",")));
                sd.push(format!("({})", d.join(",")));
            }
        }
        let a = parse(&format!("({}):({})", sh.join(","), sd.join(",")));
        let k = 1 + g.below(rank as u64) as usize;
        let tiles: Vec<String> = (0..k)
            .map(|_| {
                let t = [1, 2, 3, 4, 6, 8, 12, 16, 24, 48, 96][g.below(11) as usize];
                let p = [0.0, 0.5, 1.0][g.below(3) as usize];
                match g.below(4) {
                    0 => g.int(t, p),
                    1 => format!("{}:{}", g.int(t, p), g.int(2, p)),
                    _ => format!("{}:{}", g.int(t, p), g.int(1, p)),
                }
            })
            .collect();
        let src = format!("<{}>", tiles.join(","));
        let t = kute::expr::parse_tiler(&src).unwrap_or_else(|e| panic!("{src}: {e}"));
        if divides_agree(&a, &src, &t)[1] {
            layouts += 1;
        }
    }
    assert!(layouts > 2_000, "{layouts} divides gave a layout");
}

/// Operands whose tokens or leaves are held on the heap (more tokens or
/// leaves than a tree holds inline): the fast runs read operands' inline
/// storage only and must decline these, so every operation answers as the
/// general path does, and the answers are layouts where they should be.
#[test]
fn spilled_operands_agree_with_the_general_path() {
    // 20 leaves (beyond the 16 held inline), compact: admissible everywhere
    let many = {
        let (mut sh, mut sd, mut d) = (Vec::new(), Vec::new(), 1i64);
        for i in 0..20 {
            let s = 2 + (i % 2);
            sh.push(s.to_string());
            sd.push(d.to_string());
            d *= s;
        }
        parse(&format!("(({}),2):(({}),0)", sh.join(","), sd.join(",")))
    };
    // 4 leaves under 24 levels of one-element tuples (beyond the 40 tokens
    // held inline)
    let deep = {
        let w = |x: &str| format!("{}{x}{}", "(".repeat(24), ")".repeat(24));
        parse(&format!("({},4):({},6)", w("2,3"), w("1,2")))
    };
    let small = parse("(4,2):(1,8)");
    let mut layouts = 0;
    for (name, a) in [("many", &many), ("deep", &deep)] {
        for src in ["8:1", "<4:1,2:1>", "<2,_>", "(2,2):(1,4)"] {
            let t = kute::expr::parse_tiler(src).unwrap_or_else(|e| panic!("{src}: {e}"));
            let w = |op: &str| format!("{op}({name}, {src})");
            layouts += divides_agree(a, src, &t).iter().filter(|&&x| x).count();
            layouts += usize::from(same(&w("composition"), |o| kute::composition_tiler_into(o, a, &t)));
            layouts += usize::from(same(&w("logical_product"), |o| kute::logical_product_into(o, a, &t)));
        }
        for (x, y) in [(a, &small), (&small, a)] {
            let w = |op: &str| format!("{op}({x}, {y})");
            layouts += usize::from(same(&w("composition"), |o| kute::composition_into(o, x, y)));
            layouts += usize::from(same(&w("blocked_product"), |o| kute::blocked_product_into(o, x, y)));
            layouts += usize::from(same(&w("raked_product"), |o| kute::raked_product_into(o, x, y)));
        }
        let n: IntTuple = "1099511627776".parse().unwrap();
        layouts += usize::from(same(&format!("complement({name})"), |o| kute::complement_into(o, a, &n)));
        layouts += usize::from(same(&format!("coalesce({name})"), |o| kute::coalesce_into(o, a)));
    }
    assert!(layouts > 40, "{layouts} answers were layouts");
}
