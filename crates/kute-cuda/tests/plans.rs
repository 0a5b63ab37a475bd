//! The kernel plans run on the CPU: each plan's layouts, executed as the
//! generated kernel executes them (unit by unit for a copy; block by block,
//! through a shared tile, for a transpose), must give what the CPU reference
//! (`check_copy`, which walks both layouts with kute) says a copy gives.

use kute::Layout;
use kute_cuda::copy::{CopyConfig, CopyKernel};
use kute_cuda::reference::check_copy;
use kute_cuda::transpose::{TransposeConfig, TransposeKernel};
use kute_cuda::Elem;

fn lay(s: &str) -> Layout {
    s.parse().unwrap()
}

fn input(n: i64) -> Vec<u32> {
    (0..n as u32).map(|x| x.wrapping_mul(2654435761) >> 7).collect()
}

/// What the copy kernel does: vector `u` moves `V` elements from
/// `src_units(u)` to `dst_units(u)`.
fn run_copy(k: &CopyKernel, inp: &[u32]) -> Vec<u32> {
    let mut out = vec![u32::MAX; k.dst.cosize().unwrap().value() as usize];
    for u in 0..k.units {
        let (s, d) = (k.src_units.eval(u).unwrap(), k.dst_units.eval(u).unwrap());
        assert_eq!(s % k.vector_elems, 0, "unaligned source vector");
        assert_eq!(d % k.vector_elems, 0, "unaligned destination vector");
        for e in 0..k.vector_elems {
            out[(d + e) as usize] = inp[(s + e) as usize];
        }
    }
    out
}

/// What the transpose kernel does, block by block: every thread's vectors
/// into the shared tile, then every thread's gathered vectors out of it.
fn run_transpose(k: &TransposeKernel, inp: &[u32]) -> Vec<u32> {
    let mut out = vec![u32::MAX; k.dst.cosize().unwrap().value() as usize];
    let (t, v) = (i64::from(k.threads), k.vector_elems);
    let smem_at = |c: i64| k.smem.eval_int(kute::Int::new_dynamic(c)).unwrap().value() as usize;
    for b in 0..k.blocks {
        let mut smem = vec![u32::MAX; (k.tile.0 * k.tile.1) as usize];
        let (s0, d0) = (k.src_tiles.eval(b).unwrap(), k.dst_tiles.eval(b).unwrap());
        for th in 0..t {
            for p in 0..k.passes {
                for e in 0..v {
                    let i = th + t * (e + v * p);
                    smem[smem_at(k.tv_read.eval(i).unwrap())] = inp[(s0 + k.src_read.eval(i).unwrap()) as usize];
                }
            }
        }
        for th in 0..t {
            for p in 0..k.passes {
                for e in 0..v {
                    let i = th + t * (e + v * p);
                    out[(d0 + k.dst_write.eval(i).unwrap()) as usize] = smem[smem_at(k.tv_write.eval(i).unwrap())];
                }
            }
        }
    }
    out
}

#[test]
fn copy_plans_move_every_element_where_the_layouts_say() {
    // (source, destination, vector elements for f32, for f16)
    let cases = [
        ("(32,40):(40,1)", "(32,40):(40,1)", 4, 8),
        ("(96,64):(1,96)", "(96,64):(1,96)", 4, 8),
        ("(64,48):(48,1)", "(64,48):(1,64)", 1, 1), // a transpose: nothing in common
        ("(64,60):(64,1)", "(64,60):(60,1)", 4, 4), // rows of 60: 4 in common
        ("((8,16),(8,16)):((8,1024),(1,64))", "((8,16),(8,16)):((16,1),(128,1024))", 1, 1),
        ("(100,33):(40,1)", "(100,33):(1,100)", 1, 1),
        ("1001:1", "1001:1", 1, 1), // odd: no power of two divides it
        ("(4,(2,64)):(2,(1,8))", "(4,(2,64)):(2,(1,8))", 4, 8),
        ("(8,8):(0,1)", "(8,8):(8,1)", 4, 8),     // a broadcast source
        ("(6,64):(64,1)", "(6,64):(66,1)", 2, 2), // rows 66 apart: 8-byte (4-byte) alignment
    ];
    for (s, d, v32, v16) in cases {
        let (src, dst) = (lay(s), lay(d));
        for (elem, want) in [(Elem::F32, v32), (Elem::F16, v16)] {
            let k = CopyKernel::new("c", &src, &dst, elem, CopyConfig::default()).unwrap();
            assert_eq!(k.vector_elems, want, "{s} -> {d} ({elem})");
            let inp = input(src.cosize().unwrap().value());
            check_copy("c", &src, &dst, &inp, &run_copy(&k, &inp)).unwrap_or_else(|e| panic!("{s} -> {d}: {e}"));
        }
    }
}

#[test]
fn copy_vectors_are_sixteen_bytes_when_both_layouts_allow() {
    let row = lay("(64,64):(64,1)");
    assert_eq!(CopyKernel::new("c", &row, &row, Elem::F32, CopyConfig::default()).unwrap().vector_elems, 4);
    assert_eq!(CopyKernel::new("c", &row, &row, Elem::F16, CopyConfig::default()).unwrap().vector_elems, 8);
    // consecutive vectors are neighbours in memory: unit u starts at u * V
    let k = CopyKernel::new("c", &row, &row, Elem::F32, CopyConfig::default()).unwrap();
    assert!((0..k.units).all(|u| k.src_units.eval(u).unwrap() == 4 * u));
}

#[test]
fn copy_refuses_what_would_race_or_mismatch() {
    let e = |s: &str, d: &str| {
        CopyKernel::new("c", &lay(s), &lay(d), Elem::F32, CopyConfig::default()).unwrap_err().to_string()
    };
    assert!(e("(4,4):(4,1)", "(4,4):(1,2)").contains("not injective"));
    assert!(e("(4,4):(4,1)", "(4,5):(5,1)").contains("elements"));
    let bad = CopyConfig { threads: 100, ..CopyConfig::default() };
    assert!(CopyKernel::new("c", &lay("8:1"), &lay("8:1"), Elem::F32, bad).is_err());
    assert!(CopyKernel::new("1c", &lay("8:1"), &lay("8:1"), Elem::F32, CopyConfig::default()).is_err());
}

#[test]
fn transpose_plans_are_conflict_free_and_move_every_element() {
    for (s, d, elem) in
        [("(128,256):(256,1)", "(128,256):(1,128)", Elem::F32), ("(64,128):(1,64)", "(64,128):(128,1)", Elem::F16)]
    {
        let (src, dst) = (lay(s), lay(d));
        for swizzle in [true, false] {
            let cfg = TransposeConfig { swizzle, ..TransposeConfig::default() };
            let k = TransposeKernel::new("t", &src, &dst, elem, cfg).unwrap();
            if swizzle {
                assert_eq!((k.cost.store_conflicts(), k.cost.load_conflicts()), (0, 0), "{s} {elem}: {}", k.smem);
            }
            let inp = input(src.cosize().unwrap().value());
            check_copy("t", &src, &dst, &inp, &run_transpose(&k, &inp))
                .unwrap_or_else(|e| panic!("{s} {elem} {swizzle}: {e}"));
        }
    }
}

#[test]
fn transpose_refuses_layouts_it_cannot_stage() {
    let e = |s: &str, d: &str| {
        TransposeKernel::new("t", &lay(s), &lay(d), Elem::F32, TransposeConfig::default()).unwrap_err().to_string()
    };
    assert!(e("(64,64):(64,1)", "(64,64):(64,1)").contains("contiguous"));
    assert!(e("(64,64,2):(64,1,4096)", "(64,64):(1,64)").contains("rank 2"));
    assert!(e("(60,64):(64,1)", "(60,64):(1,60)").contains("does not divide"));
}

/// Which documents (README.md and every `docs/*.md`, read when the test
/// runs) show `example` verbatim as a rust block.
fn documents_showing(example: &str) -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut docs = vec![root.join("README.md")];
    for e in std::fs::read_dir(root.join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            docs.push(p);
        }
    }
    let block = format!("```rust\n{example}```");
    docs.iter()
        .filter(|p| std::fs::read_to_string(p).unwrap().contains(&block))
        .map(|p| p.display().to_string())
        .collect()
}

/// The GPU guide's GEMM walk-through is `examples/run_gemm.rs`, verbatim (the
/// example is compiled by `cargo test`, and was run on an H100); exactly one
/// document shows it.
#[test]
fn the_gpu_guide_shows_the_gemm_example_verbatim() {
    let showing = documents_showing(include_str!("../examples/run_gemm.rs"));
    assert_eq!(showing.len(), 1, "examples/run_gemm.rs verbatim in {showing:?} (docs/gpu.md expected)");
    assert!(showing[0].ends_with("docs/gpu.md"), "{showing:?}");
}

/// The GPU guide's attention call is `examples/run_attention.rs`, verbatim
/// (compiled by `cargo test`).
#[test]
fn the_gpu_guide_shows_the_attention_example_verbatim() {
    let showing = documents_showing(include_str!("../examples/run_attention.rs"));
    assert_eq!(showing.len(), 1, "examples/run_attention.rs verbatim in {showing:?} (docs/gpu.md expected)");
    assert!(showing[0].ends_with("docs/gpu.md"), "{showing:?}");
}
