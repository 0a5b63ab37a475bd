//! The instructions of a `static_layout!` beside hand-written index
//! arithmetic: build with
//! `cargo rustc --release -p kute-macros --example static_asm -- --emit asm`
//! and compare `static_eval` with `hand_eval`, `static_sum` with `hand_sum`
//! (docs/benchmarks/tensors.md shows them).

use kute::codegen::StaticLayout;
use kute_macros::static_layout;

/// The row-major 4x8 layout's value at `i`, through `static_layout!`.
#[inline(never)]
#[unsafe(no_mangle)]
pub fn static_eval(i: i64) -> i64 {
    static_layout!("(_4,_8):(_8,_1)").eval(i)
}

/// The same, written by hand.
#[inline(never)]
#[unsafe(no_mangle)]
pub fn hand_eval(i: i64) -> i64 {
    (i & 3) * 8 + (i >> 2)
}

/// A sum over a tile in the order of a mma.sync C layout, through `static_layout!`.
#[inline(never)]
#[unsafe(no_mangle)]
pub fn static_sum(buf: &[f32; 128]) -> f32 {
    let mut s = 0.0;
    static_layout!("((_4,_8),(_2,_2)):((_32,_1),(_16,_8))").for_each(|x| s += buf[x as usize]);
    s
}

/// The same loop nest, written by hand.
#[inline(never)]
#[unsafe(no_mangle)]
pub fn hand_sum(buf: &[f32; 128]) -> f32 {
    let mut s = 0.0;
    for v1 in 0..2i64 {
        for v0 in 0..2i64 {
            for t1 in 0..8i64 {
                for t0 in 0..4i64 {
                    s += buf[(t0 * 32 + t1 + v0 * 16 + v1 * 8) as usize];
                }
            }
        }
    }
    s
}

fn main() {
    let buf = [1.0f32; 128];
    let i = std::env::args().count() as i64;
    println!("{} {} {} {}", static_eval(i), hand_eval(i), static_sum(&buf), hand_sum(&buf));
}
