//! Attention through the library call, checked against the CPU.
//!
//! `cargo run --release -p kute-cuda --example run_attention` (a CUDA 13
//! driver and an sm_80 or newer GPU).

use kute_cuda::attention::{attention, reference_row, AttentionOptions, AttentionTensors, Heads, HeadsMut, Lse};
use kute_cuda::elem::{round_to_16, widen_16};
use kute_cuda::gpu::Gpu;
use kute_cuda::{Elem, Error};

fn main() -> Result<(), Error> {
    // 2 batch entries, 8 query heads sharing 2 key heads, 300 queries, 500 keys, d = 128
    let (b, hq, hkv, lq, lk, d) = (2usize, 8usize, 2usize, 300usize, 500usize, 128usize);
    let values = |n: usize, seed: usize| -> Vec<u16> {
        // (251 is prime: no row of 256 elements repeats the one before)
        (0..n).map(|i| round_to_16(((i * 7919 + seed) % 251) as f32 / 125.0 - 1.0, Elem::F16)).collect()
    };
    let (q, k, v) = (values(b * lq * hq * d, 1), values(b * lk * hkv * d, 2), values(b * lk * hkv * d, 3));

    let gpu = Gpu::new(0)?;
    let (dq, dk, dv) = (gpu.upload(&q)?, gpu.upload(&k)?, gpu.upload(&v)?);
    let mut o = gpu.zeros::<u16>(q.len())?;
    let mut lse = gpu.zeros::<f32>(b * hq * lq)?;
    // (seq, dim, heads, batch), stored BSHD: Q[b][s][h][c] at ((b·S + s)·H + h)·D + c
    let bshd = |s: usize, h: usize| -> Result<kute::Layout, Error> {
        Ok(format!("({s},{d},{h},{b}):({},1,{d},{})", h * d, s * h * d).parse()?)
    };
    let lse_layout: kute::Layout = format!("({lq},{hq},{b}):(1,{lq},{})", lq * hq).parse()?;
    attention(
        &gpu,
        Elem::F16,
        AttentionTensors {
            q: Heads { data: &dq, layout: bshd(lq, hq)? },
            k: Heads { data: &dk, layout: bshd(lk, hkv)? },
            v: Heads { data: &dv, layout: bshd(lk, hkv)? },
            o: HeadsMut { data: &mut o, layout: bshd(lq, hq)? },
            lse: Some(Lse { data: &mut lse, layout: lse_layout }),
        },
        &AttentionOptions { causal: true, ..AttentionOptions::default() }, // query i sees keys up to i + 200
    )?;
    let (o, lse) = (gpu.download(&o)?, gpu.download(&lse)?);

    // head 5 of batch entry 1 reads key head 5 / (8 / 2) = 1; three of its rows on the CPU
    let (bb, h, kh) = (1, 5, 1);
    let f = |x: &u16| widen_16(*x, Elem::F16);
    let head = |t: &[u16]| -> Vec<f32> {
        (0..lk).flat_map(|j| t[((bb * lk + j) * hkv + kh) * d..][..d].iter().map(f).collect::<Vec<_>>()).collect()
    };
    let (kh_rows, vh_rows) = (head(&k), head(&v));
    for i in [0, 150, lq - 1] {
        let at = ((bb * lq + i) * hq + h) * d;
        let qrow: Vec<f32> = q[at..at + d].iter().map(f).collect();
        let (want, want_lse) =
            reference_row(&qrow, &kh_rows, &vh_rows, d, 1.0 / (d as f64).sqrt(), (i + lk - lq + 1).min(lk));
        let err = (0..d).map(|c| (f64::from(f(&o[at + c])) - want[c]).abs()).fold(0.0, f64::max);
        let lse_err = (f64::from(lse[(bb * hq + h) * lq + i]) - want_lse).abs();
        assert!(err < 4e-3 && lse_err < 2e-3, "row {i}: O off by {err}, LSE by {lse_err}");
        println!("row {i}: O within {err:.1e} of the CPU, LSE within {lse_err:.1e}");
    }
    Ok(())
}
