//! Layout evaluation: per element, (a) `L(i)` at every 1-D coordinate with
//! kute's fastest random-access API ([`kute::evaluator::Evaluator`]), (b) a
//! sequential traversal with [`kute::iter::Indices`], (c) a hand-written loop
//! nest over the same flat shape and strides, (d) a hand-written evaluation of
//! every `L(i)` on its own (the `i % s * d`, `i / s` chain over the flat leaves,
//! extents and strides read at run time). All four consume every index the same
//! way: `acc = acc.wrapping_add(black_box(index))`.
//!
//! (c) is the sequential bound, which no random-access evaluation can match on
//! deep layouts; (d) is the random-access baseline that (a) is held to.

use crate::timing::{calibrate, one_batch};
use kute::iter::Indices;
use kute::Layout;
use std::hint::black_box;
use std::time::Duration;

/// Batches per measurement (of a third of the W1 batch each: the same time).
const BATCHES: usize = 3 * crate::timing::BATCHES;

/// The layouts measured, with a hand-written loop nest for each one's flat rank.
pub const LAYOUTS: [&str; 4] = [
    "(128,128):(1,128)",
    "((8,16),(4,32)):((1,256),(8,32))",
    "(_4,(_8,_4)):(_32,(_1,_8))",
    // rank 4, depth 2, six leaves, no power-of-two extents, nothing coalesces:
    // a permutation of [0, 5040)
    "((3,4),5,(6,2),7):((1,180),3,(30,15),720)",
];

#[inline(always)]
fn sink(acc: &mut i64, v: i64) {
    *acc = acc.wrapping_add(black_box(v));
}

fn nest2(s: &[i64], d: &[i64]) -> i64 {
    let mut acc = 0;
    for i1 in 0..s[1] {
        let b1 = i1 * d[1];
        for i0 in 0..s[0] {
            sink(&mut acc, b1 + i0 * d[0]);
        }
    }
    acc
}

fn nest3(s: &[i64], d: &[i64]) -> i64 {
    let mut acc = 0;
    for i2 in 0..s[2] {
        let b2 = i2 * d[2];
        for i1 in 0..s[1] {
            let b1 = b2 + i1 * d[1];
            for i0 in 0..s[0] {
                sink(&mut acc, b1 + i0 * d[0]);
            }
        }
    }
    acc
}

fn nest4(s: &[i64], d: &[i64]) -> i64 {
    let mut acc = 0;
    for i3 in 0..s[3] {
        let b3 = i3 * d[3];
        for i2 in 0..s[2] {
            let b2 = b3 + i2 * d[2];
            for i1 in 0..s[1] {
                let b1 = b2 + i1 * d[1];
                for i0 in 0..s[0] {
                    sink(&mut acc, b1 + i0 * d[0]);
                }
            }
        }
    }
    acc
}

fn nest6(s: &[i64], d: &[i64]) -> i64 {
    let mut acc = 0;
    for i5 in 0..s[5] {
        let b5 = i5 * d[5];
        for i4 in 0..s[4] {
            let b4 = b5 + i4 * d[4];
            for i3 in 0..s[3] {
                let b3 = b4 + i3 * d[3];
                for i2 in 0..s[2] {
                    let b2 = b3 + i2 * d[2];
                    for i1 in 0..s[1] {
                        let b1 = b2 + i1 * d[1];
                        for i0 in 0..s[0] {
                            sink(&mut acc, b1 + i0 * d[0]);
                        }
                    }
                }
            }
        }
    }
    acc
}

/// The extents and strides of a layout's flat leaves: the run-time inputs of
/// (c) and (d).
pub fn flat_digits(l: &Layout) -> (Vec<i64>, Vec<i64>) {
    l.leaves().iter().map(|m| (m.shape.value(), m.stride.value())).unzip()
}

/// (c): the loop nest for the layout's number of leaves.
///
/// Panics for a number of leaves with no hand-written nest.
pub fn loop_nest(s: &[i64], d: &[i64]) -> i64 {
    match s.len() {
        2 => nest2(s, d),
        3 => nest3(s, d),
        4 => nest4(s, d),
        6 => nest6(s, d),
        n => panic!("no hand-written loop nest for {n} leaves"),
    }
}

/// (d): every `L(i)` on its own, written as a programmer would without knowing
/// the layout at compile time: one generic loop over the flat leaves, `%` and
/// `/` by the run-time extents (the caller passes the slices through
/// `black_box`, so nothing is constant-folded), the last leaf not divided.
fn div_chain(s: &[i64], d: &[i64], size: i64) -> i64 {
    let n = s.len().min(d.len());
    let mut acc = 0;
    let Some(last) = n.checked_sub(1) else { return acc };
    for i in 0..size {
        let mut c = i;
        let mut idx = 0;
        for (&sk, &dk) in s[..last].iter().zip(&d[..last]) {
            idx += c % sk * dk;
            c /= sk;
        }
        idx += c * d[last];
        sink(&mut acc, idx);
    }
    acc
}

/// (a): every 1-D coordinate through the evaluator, each evaluated on its own
/// (no incremental update between coordinates).
fn eval_all(e: &kute::evaluator::Evaluator, size: i64) -> i64 {
    let mut acc = 0;
    e.for_each_in(0..size, |v| sink(&mut acc, v)).expect("in the domain");
    acc
}

/// (b): the whole domain with the iterator (internal iteration).
pub fn traverse(l: &Layout) -> i64 {
    let mut acc = 0;
    Indices::new(l).expect("small layout").for_each(|v| sink(&mut acc, v));
    acc
}

/// Worst ratios over the layouts.
pub struct Summary {
    /// max (a)/(d)
    pub worst_ad: Option<f64>,
    /// max (b)/(c)
    pub worst_b: Option<f64>,
}

/// Measure every layout and print the table.
pub fn section(batch: Duration) -> Summary {
    eprintln!("timing layout evaluation ...");
    println!(
        "== Layout evaluation, ns/element (best of {} interleaved batches, each a third of W1's): (a) Evaluator::for_each_in(0..size) (L(i) for every i, each on its own), (b) Indices traversal, (c) hand-written loop nest, (d) hand-written L(i) for every i, each on its own (i % s * d, i / s over the flat leaves, run-time extents) ==",
        BATCHES
    );
    println!("every index is consumed as acc = acc.wrapping_add(black_box(index)); the four sums are checked equal");
    println!();
    println!(
        "{:<46} {:>6} {:>8} {:>8} {:>8} {:>8} {:>7} {:>7} {:>7}",
        "layout", "elems", "(a)", "(b)", "(c)", "(d)", "a/c", "a/d", "b/c"
    );
    let (mut worst_ad, mut worst_b) = (0.0f64, 0.0f64);
    for src in LAYOUTS {
        let l: Layout = src.parse().unwrap_or_else(|e| panic!("{src}: {e}"));
        let size = l.size().expect("size").value();
        let (s, d) = flat_digits(&l);
        let e = l.evaluator().expect("evaluator");
        let (ra, rb, rc, rd) = (eval_all(&e, size), traverse(&l), loop_nest(&s, &d), div_chain(&s, &d, size));
        assert!(ra == rc && rb == rc && rd == rc, "{src}: sums differ: (a) {ra}, (b) {rb}, (c) {rc}, (d) {rd}");
        let per = size as f64;
        // (a), (b), (c), (d) take turns, batch by batch, so that a busy spell of
        // the machine hits all four; each keeps its best batch (more, shorter
        // batches than W1's: the four are compared with each other, and on a
        // noisy machine the best of a few long batches varied by half)
        let batch = batch / 3;
        let na = calibrate(batch, &mut || eval_all(black_box(&e), black_box(size)));
        let nb = calibrate(batch, &mut || traverse(black_box(&l)));
        let nc = calibrate(batch, &mut || loop_nest(black_box(&s), black_box(&d)));
        let nd = calibrate(batch, &mut || div_chain(black_box(&s), black_box(&d), black_box(size)));
        let (mut ta, mut tb, mut tc, mut td) = (f64::INFINITY, f64::INFINITY, f64::INFINITY, f64::INFINITY);
        for _ in 0..BATCHES {
            ta = ta.min(one_batch(na, &mut || eval_all(black_box(&e), black_box(size))) / per);
            tb = tb.min(one_batch(nb, &mut || traverse(black_box(&l))) / per);
            tc = tc.min(one_batch(nc, &mut || loop_nest(black_box(&s), black_box(&d))) / per);
            td = td.min(one_batch(nd, &mut || div_chain(black_box(&s), black_box(&d), black_box(size))) / per);
        }
        let (a_c, a_d, b_c) = (ta / tc, ta / td, tb / tc);
        worst_ad = worst_ad.max(a_d);
        worst_b = worst_b.max(b_c);
        println!("{src:<46} {size:>6} {ta:>8.3} {tb:>8.3} {tc:>8.3} {td:>8.3} {a_c:>7.2} {a_d:>7.2} {b_c:>7.2}");
    }
    Summary { worst_ad: Some(worst_ad), worst_b: Some(worst_b) }
}
