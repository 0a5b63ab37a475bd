//! The timing loop shared by every measurement: best of 5 batches.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Number of batches; the best (smallest) time per call is reported.
pub const BATCHES: usize = 5;

/// Nanoseconds per call of `f`, best of [`BATCHES`] batches of about `batch` each.
/// The result of every call goes through `black_box` (by reference, as CuTe C++'s `keep`).
pub fn ns_per_call<R>(batch: Duration, mut f: impl FnMut() -> R) -> f64 {
    let n = calibrate(batch, &mut f);
    (0..BATCHES).map(|_| one_batch(n, &mut f)).fold(f64::INFINITY, f64::min)
}

/// How many calls of `f` make a batch of about `batch`, timed with [`one_batch`]
/// itself: `f` is called from that one loop only, which lets the compiler
/// inline it there, as CuTe C++'s `bench` template inlines its lambda.
pub fn calibrate<R, F: FnMut() -> R>(batch: Duration, f: &mut F) -> u64 {
    let mut n: u64 = 1;
    loop {
        let per_call = one_batch(n, f) * 1e-9;
        if per_call * n as f64 >= batch.as_secs_f64() / 5.0 || n >= 1 << 40 {
            return ((batch.as_secs_f64() / per_call.max(1e-12)) as u64).max(1);
        }
        n *= 2;
    }
}

/// Nanoseconds per call of `f` over one batch of `n` calls.
#[inline(never)]
pub fn one_batch<R, F: FnMut() -> R>(n: u64, f: &mut F) -> f64 {
    let t = Instant::now();
    for _ in 0..n {
        let r = f();
        black_box(&r);
    }
    t.elapsed().as_secs_f64() * 1e9 / n as f64
}

/// Geometric mean of positive numbers (`None` for none).
pub fn geomean(xs: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (mut s, mut n) = (0.0, 0usize);
    for x in xs {
        s += x.ln();
        n += 1;
    }
    (n > 0).then(|| (s / n as f64).exp())
}
