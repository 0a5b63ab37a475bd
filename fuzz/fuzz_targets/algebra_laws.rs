//! Random layouts and tilers (decoded from the input bytes) through every
//! operation of the algebra, checking laws that hold for any operands:
//! coalesce keeps the values; an answered composition is `A(B(i))`; an
//! answered divide's tile is the composition; an answered product keeps `A`;
//! right and left inverses are (quasi-)inverses. Errors are fine; panics,
//! hangs and wrong answers are bugs.
#![no_main]

use kute::{Layout, Tiler};
use libfuzzer_sys::fuzz_target;

/// Reads small numbers off the input, zeros once it is used up.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    fn below(&mut self, n: u8) -> u8 {
        self.byte() % n
    }
}

/// A layout of 1 to 4 leaves, extents 1..=8, strides -4..=27, some nested.
fn layout(b: &mut Bytes<'_>) -> String {
    let n = 1 + b.below(4) as usize;
    let mut shapes = Vec::new();
    let mut strides = Vec::new();
    for _ in 0..n {
        let stat = if b.below(2) == 0 { "_" } else { "" };
        shapes.push(format!("{stat}{}", 1 + b.below(8)));
        strides.push(format!("{stat}{}", b.below(32) as i64 - 4));
    }
    if n == 1 {
        return format!("{}:{}", shapes[0], strides[0]);
    }
    if n >= 3 && b.below(2) == 0 {
        // nest the last two
        let (s1, s2) = (shapes.pop().unwrap(), shapes.pop().unwrap());
        let (d1, d2) = (strides.pop().unwrap(), strides.pop().unwrap());
        shapes.push(format!("({s2},{s1})"));
        strides.push(format!("({d2},{d1})"));
    }
    format!("({}):({})", shapes.join(","), strides.join(","))
}

fn tiler(b: &mut Bytes<'_>) -> String {
    match b.below(4) {
        0 => format!("{}", 1 + b.below(12)),
        1 => {
            let k = 1 + b.below(3);
            let parts: Vec<String> = (0..k)
                .map(|_| match b.below(3) {
                    0 => "_".to_string(),
                    1 => format!("{}", 1 + b.below(8)),
                    _ => layout(b),
                })
                .collect();
            format!("<{}>", parts.join(","))
        }
        _ => layout(b),
    }
}

fn values(l: &Layout) -> Option<Vec<i64>> {
    let n = l.size().ok()?.value();
    if !(0..=4096).contains(&n) {
        return None;
    }
    (0..n).map(|i| l.eval(i).ok()).collect()
}

fn check(a: &Layout, b: &Layout, t: &Tiler) {
    let va = values(a);
    if let (Ok(c), Some(va)) = (kute::coalesce(a), &va) {
        assert_eq!(values(&c).as_ref(), Some(va), "coalesce({a}) = {c}");
    }
    let comp = kute::composition(a, b);
    if let (Ok(r), Some(vb)) = (&comp, values(b)) {
        let want: Option<Vec<i64>> = vb.iter().map(|&x| a.eval(x).ok()).collect();
        if let Some(want) = want {
            assert_eq!(values(r), Some(want), "composition({a}, {b}) = {r}");
        }
    }
    if let (Ok(d), Ok(r)) = (kute::logical_divide(a, b), &comp) {
        let tile = d.mode(0).expect("a divide has a tile mode");
        assert_eq!(values(&tile), values(r), "logical_divide({a}, {b}) = {d}, composition {r}");
    }
    if let (Ok(p), Some(va)) = (kute::logical_product(a, b), &va) {
        assert_eq!(values(&p.mode(0).expect("a product has a block mode")).as_ref(), Some(va), "logical_product({a}, {b}) = {p}");
    }
    if let (Ok(r), Some(_)) = (kute::right_inverse(a), &va) {
        if let Some(vr) = values(&r) {
            for (i, x) in vr.into_iter().enumerate() {
                assert_eq!(a.eval(x).ok(), Some(i as i64), "right_inverse({a}) = {r}");
            }
        }
    }
    if let (Ok(r), Some(va)) = (kute::left_inverse(a), &va) {
        if a.leaves().iter().all(|m| m.stride.value() >= 0) {
            for &x in va {
                let back = r.eval(x).ok().and_then(|y| a.eval(y).ok());
                assert_eq!(back, Some(x), "left_inverse({a}) = {r}");
            }
        }
    }
    // the rest must answer or err, never panic
    let _ = kute::complement(a, kute::IntTuple::int_static(64));
    let _ = kute::zipped_divide(a, t);
    let _ = kute::tiled_divide(a, t);
    let _ = kute::flat_divide(a, t);
    let _ = kute::logical_divide(a, t);
    let _ = kute::composition_tiler(a, t);
    let _ = kute::zipped_product(a, t);
    let _ = kute::tiled_product(a, t);
    let _ = kute::flat_product(a, t);
    let _ = kute::blocked_product(a, b);
    let _ = kute::raked_product(a, b);
    let _ = kute::max_common_layout(a, b);
    let _ = kute::nullspace(a);
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let (sa, sb, st) = (layout(&mut b), layout(&mut b), tiler(&mut b));
    let (Ok(a), Ok(l), Ok(t)) = (sa.parse::<Layout>(), sb.parse::<Layout>(), kute::expr::parse_tiler(&st)) else {
        return;
    };
    check(&a, &l, &t);
});
