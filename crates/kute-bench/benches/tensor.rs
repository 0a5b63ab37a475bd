//! Tensors: a 4096x4096 f32 copy and transpose through kute
//! tensors, against `copy_from_slice` (memcpy) and a hand-written blocked
//! transpose, in one run.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kute::tensor::{copy, Borrowed, BorrowedMut, CopyPath, Tensor};
use kute::Layout;
use std::hint::black_box;

const N: usize = 4096;
const B: usize = 32;

fn layout(s: &str) -> Layout {
    s.parse().unwrap()
}

fn bench(c: &mut Criterion) {
    let src: Vec<f32> = (0..N * N).map(|x| x as f32).collect();
    let mut dst = vec![0f32; N * N];
    let mut g = c.benchmark_group("tensor_4096x4096_f32");
    g.throughput(Throughput::Bytes((2 * N * N * 4) as u64));

    g.bench_function("memcpy", |b| b.iter(|| dst.copy_from_slice(black_box(&src))));

    let row = layout("(_4096,_4096):(_4096,_1)");
    g.bench_function("kute_copy", |b| {
        b.iter(|| {
            let s = Tensor::new(Borrowed(&src[..]), row.clone());
            let mut d = Tensor::new(BorrowedMut(&mut dst[..]), row.clone());
            assert!(matches!(copy(black_box(&s), &mut d).unwrap(), CopyPath::Vector { .. }));
        })
    });

    g.bench_function("hand_blocked_transpose", |b| {
        b.iter(|| {
            let (s, d) = (black_box(&src[..]), &mut dst[..]);
            for bi in (0..N).step_by(B) {
                for bj in (0..N).step_by(B) {
                    for i in bi..bi + B {
                        for j in bj..bj + B {
                            d[j * N + i] = s[i * N + j];
                        }
                    }
                }
            }
        })
    });

    // the transpose as layouts: dst(i,j) at j*N+i, src(i,j) at i*N+j, both
    // tiled by (_32,_32) so that one copy walks tile by tile
    let tiler: kute::Tiler = "(_32,_32)".parse().unwrap();
    let src_l = kute::zipped_divide(&row, &tiler).unwrap();
    let dst_l = kute::zipped_divide(&layout("(_4096,_4096):(_1,_4096)"), &tiler).unwrap();
    g.bench_function("kute_transpose", |b| {
        b.iter(|| {
            let s = Tensor::new(Borrowed(&src[..]), src_l.clone());
            let mut d = Tensor::new(BorrowedMut(&mut dst[..]), dst_l.clone());
            assert_eq!(copy(black_box(&s), &mut d).unwrap(), CopyPath::Strided);
        })
    });
    g.finish();
    // the transpose is right
    for (i, j) in [(0, 1), (17, 4000), (4095, 3)] {
        assert_eq!(dst[j * N + i], src[i * N + j]);
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
