//! Generate a GEMM from kute's layouts, run it on the GPU and check it.
//!
//! `cargo run --release -p kute-cuda --example run_gemm` (a CUDA 13 driver and
//! an sm_80 or newer GPU; on Hopper the warp-specialized SM90 kernel runs too).

use kute_cuda::elem::round_to_16;
use kute_cuda::gemm::{GemmConfig, GemmKernel, THREADS};
use kute_cuda::gemm_sm90::Sm90Gemm;
use kute_cuda::gpu::Gpu;
use kute_cuda::library::{gemm, Matrix, MatrixMut};
use kute_cuda::{Elem, Error};

fn main() -> Result<(), Error> {
    let (m, n, k) = (512, 256, 192);
    // C = A·Bᵀ: A is M x K and B is N x K, both K-major ("TN"); C is f32, row-major.
    let sm80 = GemmKernel::new("my_gemm", (m, n, k), Elem::F16, GemmConfig::default())?;
    println!("shared tiles: A {}, B {}", sm80.smem_a, sm80.smem_b);

    // Small integers are exact in f16, so every sum below is exact.
    let a: Vec<f32> = (0..m * k).map(|i| (i % 7 - 3) as f32).collect();
    let b: Vec<f32> = (0..n * k).map(|i| (i % 5 - 2) as f32).collect();
    let bits = |v: &[f32]| v.iter().map(|x| round_to_16(*x, Elem::F16)).collect::<Vec<u16>>();

    let gpu = Gpu::new(0)?;
    let kernel = gpu.kernel(&sm80.name, &sm80.source)?; // NVRTC, for this GPU
    let (da, db) = (gpu.upload(&bits(&a))?, gpu.upload(&bits(&b))?);
    let mut dc = gpu.zeros::<f32>((m * n) as usize)?;
    gpu.launch3_smem(&kernel, sm80.blocks(), THREADS as u32, sm80.smem_bytes, &da, &db, &mut dc)?;
    let c = gpu.download(&dc)?;

    // The product on the CPU, through the plan's own operand layouts.
    let (la, lb) = (&sm80.a, &sm80.b);
    let at = |l: &kute::Layout, row: i64, col: i64, rows: i64| l.eval(row + rows * col).map(|i| i as usize);
    for i in 0..m {
        for j in 0..n {
            let mut want = 0.0;
            for l in 0..k {
                want += a[at(la, i, l, m)?] * b[at(lb, j, l, n)?];
            }
            assert_eq!(c[(i * n + j) as usize], want, "C[{i}][{j}]");
        }
    }
    println!("SM80 kernel: C equals the CPU product");

    if gpu.arch()? == "sm_90" {
        // Hopper: wgmma + TMA, a producer warpgroup, persistent blocks, an f16 C stored by TMA.
        let sm90 = Sm90Gemm::warp_specialized("my_gemm90", (m, n, k), Elem::F16, Elem::F16)?;
        let kernel = gpu.kernel_for(&sm90.name, &sm90.source, "sm_90a")?;
        let mut dc16 = gpu.zeros::<u16>((m * n) as usize)?;
        gpu.launch_sm90(&kernel, &sm90, &da, &db, &mut dc16)?; // TMA maps, grid, shared memory from the plan
        let c16 = gpu.download(&dc16)?;
        assert!(c16.iter().zip(&c).all(|(h, x)| *h == round_to_16(*x, Elem::F16)));
        println!("SM90 kernel: C equals the SM80 result rounded to f16");

        // The library call: each operand a buffer and the kute layout it is stored by.
        // The kernel is planned once on symbolic sizes and compiled once (kept in memory
        // and on disk); a new M, N or K compiles nothing.
        let lay = |s: String| s.parse::<kute::Layout>().map_err(Error::from);
        let mut dc_any = gpu.zeros::<u16>((m * n) as usize)?;
        let (a_rows, b_rows) = (lay(format!("({m},{k}):({k},1)"))?, lay(format!("({n},{k}):({k},1)"))?);
        let c_rows = lay(format!("({m},{n}):({n},1)"))?;
        gemm(
            &gpu,
            Elem::F16,
            Matrix { data: &da, layout: a_rows },
            Matrix { data: &db, layout: b_rows },
            MatrixMut { data: &mut dc_any, layout: c_rows },
        )?;
        assert_eq!(gpu.download(&dc_any)?, c16);
        // the first 100 rows of A and 40 of B, C's rows 64 apart: the same kernel
        let (m2, n2) = (100, 40);
        let mut dc_small = gpu.zeros::<u16>((m2 * 64) as usize)?;
        let (a2, b2, c2) = (
            lay(format!("({m2},{k}):({k},1)"))?,
            lay(format!("({n2},{k}):({k},1)"))?,
            lay(format!("({m2},{n2}):(64,1)"))?,
        );
        gemm(
            &gpu,
            Elem::F16,
            Matrix { data: &da, layout: a2 },
            Matrix { data: &db, layout: b2 },
            MatrixMut { data: &mut dc_small, layout: c2 },
        )?;
        let small = gpu.download(&dc_small)?;
        assert!((0..m2 * n2).all(|x| small[(x / n2 * 64 + x % n2) as usize] == c16[(x / n2 * n + x % n2) as usize]));
        println!("kute_cuda::library::gemm: C equals the SM90 kernel's on ({m},{n},{k}) and ({m2},{n2},{k})");
    }
    Ok(())
}
