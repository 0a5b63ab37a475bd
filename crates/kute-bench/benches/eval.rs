//! Layout evaluation, per layout: `Evaluator::for_each` over every 1-D
//! coordinate, `Evaluator::eval` per call, `Layout::eval` per call, the
//! `Indices` traversal, a hand-written loop nest over the same flat shape
//! and strides, and a hand-written evaluation of every `L(i)` on its own (the
//! `i % s * d`, `i / s` chain over the flat leaves, extents read at run time).
//! Every index is consumed as `acc = acc.wrapping_add(black_box(i))`.
//!
//! `cargo bench -p kute-bench --features criterion --bench eval`; `cargo run --release -p kute-bench -- compare`
//! prints the ratios.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kute::iter::Indices;
use kute::Layout;
use std::hint::black_box;

const LAYOUTS: [&str; 4] = [
    "(128,128):(1,128)",
    "((8,16),(4,32)):((1,256),(8,32))",
    "(_4,(_8,_4)):(_32,(_1,_8))",
    "((3,4),5,(6,2),7):((1,180),3,(30,15),720)",
];

#[inline(always)]
fn sink(acc: &mut i64, v: i64) {
    *acc = acc.wrapping_add(black_box(v));
}

/// The loop nest over the flat leaves (as many loops as leaves), innermost first.
fn loop_nest(s: &[i64], d: &[i64], base: i64, acc: &mut i64) {
    match s.len() {
        0 => sink(acc, base),
        1 => {
            for i in 0..s[0] {
                sink(acc, base + i * d[0]);
            }
        }
        n => {
            for i in 0..s[n - 1] {
                loop_nest(&s[..n - 1], &d[..n - 1], base + i * d[n - 1], acc);
            }
        }
    }
}

/// Every `L(i)` on its own, as a programmer would write it for run-time extents
/// and strides: `%` and `/` by each leaf's extent, the last leaf not divided.
fn div_chain(s: &[i64], d: &[i64], size: i64, acc: &mut i64) {
    let n = s.len().min(d.len());
    let Some(last) = n.checked_sub(1) else { return };
    for i in 0..size {
        let mut c = i;
        let mut idx = 0;
        for (&sk, &dk) in s[..last].iter().zip(&d[..last]) {
            idx += c % sk * dk;
            c /= sk;
        }
        idx += c * d[last];
        sink(acc, idx);
    }
}

fn eval(c: &mut Criterion) {
    for src in LAYOUTS {
        let l: Layout = src.parse().unwrap();
        let size = l.size().unwrap().value();
        let s: Vec<i64> = l.leaves().iter().map(|m| m.shape.value()).collect();
        let d: Vec<i64> = l.leaves().iter().map(|m| m.stride.value()).collect();
        let e = l.evaluator().unwrap();
        let mut g = c.benchmark_group(format!("eval {src}"));
        g.throughput(Throughput::Elements(size as u64));
        g.bench_function("Evaluator::for_each", |b| {
            b.iter(|| {
                let mut acc = 0;
                black_box(&e).for_each(0..size, |v| sink(&mut acc, v)).unwrap();
                acc
            })
        });
        g.bench_function("Evaluator::eval", |b| {
            b.iter(|| {
                let mut acc = 0;
                for i in 0..size {
                    sink(&mut acc, black_box(&e).eval(i).unwrap());
                }
                acc
            })
        });
        g.bench_function("Layout::eval", |b| {
            b.iter(|| {
                let mut acc = 0;
                for i in 0..size {
                    sink(&mut acc, black_box(&l).eval(i).unwrap());
                }
                acc
            })
        });
        g.bench_function("Indices", |b| {
            b.iter(|| {
                let mut acc = 0;
                Indices::new(black_box(&l)).unwrap().for_each(|v| sink(&mut acc, v));
                acc
            })
        });
        g.bench_function("loop nest", |b| {
            b.iter(|| {
                let mut acc = 0;
                loop_nest(black_box(&s), black_box(&d), 0, &mut acc);
                acc
            })
        });
        g.bench_function("div chain", |b| {
            b.iter(|| {
                let mut acc = 0;
                div_chain(black_box(&s), black_box(&d), black_box(size), &mut acc);
                acc
            })
        });
        g.finish();
    }
}

criterion_group!(benches, eval);
criterion_main!(benches);
