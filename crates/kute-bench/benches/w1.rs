//! Workload W1 (docs/benchmarks/algebra.md): the 11 algebra operations with every
//! integer dynamic. Operands are built (parsed) outside the timed region.
//!
//! `cargo bench -p kute-bench --features criterion --bench w1`; `cargo run --release -p kute-bench -- compare`
//! puts the same operations side by side with CuTe C++ and pycute.

use criterion::{criterion_group, criterion_main, Criterion};
use kute::{Layout, Tiler};
use std::hint::black_box;

fn layout(s: &str) -> Layout {
    s.parse::<Layout>().unwrap().to_dynamic()
}

fn tiler(s: &str) -> Tiler {
    kute::expr::parse_tiler(s).unwrap().to_dynamic()
}

fn w1(c: &mut Criterion) {
    let mut g = c.benchmark_group("w1");
    // each operation twice: by value, and its *_into form into a reused output
    macro_rules! op {
        ($name:expr, $f:path, $fi:path, $a:expr) => {{
            let a = $a;
            g.bench_function($name, |bch| bch.iter(|| $f(black_box(&a))));
            let mut out = Layout::default();
            g.bench_function(format!("into: {}", $name), |bch| {
                bch.iter(|| {
                    let r = $fi(&mut out, black_box(&a));
                    black_box(&out);
                    r
                })
            });
        }};
        ($name:expr, $f:path, $fi:path, $a:expr, $b:expr) => {{
            let (a, b) = ($a, $b);
            assert!($f(&a, &b).is_ok(), "{}", $name);
            g.bench_function($name, |bch| bch.iter(|| $f(black_box(&a), black_box(&b))));
            let mut out = Layout::default();
            g.bench_function(format!("into: {}", $name), |bch| {
                bch.iter(|| {
                    let r = $fi(&mut out, black_box(&a), black_box(&b));
                    black_box(&out);
                    r
                })
            });
        }};
    }
    op!(
        "composition((20,2):(16,4),(4,5):(1,4))",
        kute::composition,
        kute::composition_into,
        layout("(20,2):(16,4)"),
        layout("(4,5):(1,4)")
    );
    op!("logical_divide(24:2,4:2)", kute::logical_divide, kute::logical_divide_into, layout("24:2"), tiler("4:2"));
    op!(
        "complement((2,2):(4,1),24)",
        kute::complement,
        kute::complement_into,
        layout("(2,2):(4,1)"),
        kute::Int::new_dynamic(24)
    );
    op!(
        "logical_product((2,2):(1,2),(3,4):(4,1))",
        kute::logical_product,
        kute::logical_product_into,
        layout("(2,2):(1,2)"),
        tiler("(3,4):(4,1)")
    );
    op!(
        "zipped_divide((12,32,6):(1,128,0),<4:1,8:1>)",
        kute::zipped_divide,
        kute::zipped_divide_into,
        layout("(12,32,6):(1,128,0)"),
        tiler("<4:1,8:1>")
    );
    op!("coalesce((2,(1,6)):(1,(6,2)))", kute::coalesce, kute::coalesce_into, layout("(2,(1,6)):(1,(6,2))"));
    op!(
        "tiled_divide((12,(4,8),6):(1,(32,512),0),<4:1,8:1>)",
        kute::tiled_divide,
        kute::tiled_divide_into,
        layout("(12,(4,8),6):(1,(32,512),0)"),
        tiler("<4:1,8:1>")
    );
    op!(
        "blocked_product((2,5):(5,1),(3,4):(1,3))",
        kute::blocked_product,
        kute::blocked_product_into,
        layout("(2,5):(5,1)"),
        layout("(3,4):(1,3)")
    );
    op!(
        "raked_product((2,2):(1,2),(3,4):(4,1))",
        kute::raked_product,
        kute::raked_product_into,
        layout("(2,2):(1,2)"),
        layout("(3,4):(4,1)")
    );
    op!(
        "composition((12,(4,8)):(59,(13,1)),<3:4,8:2>)",
        kute::composition_tiler,
        kute::composition_tiler_into,
        layout("(12,(4,8)):(59,(13,1))"),
        tiler("<3:4,8:2>")
    );
    op!(
        "logical_divide((8,8):(8,1),<4:1,2:1>)",
        kute::logical_divide,
        kute::logical_divide_into,
        layout("(8,8):(8,1)"),
        tiler("<4:1,2:1>")
    );
    g.finish();
}

criterion_group!(benches, w1);
criterion_main!(benches);
