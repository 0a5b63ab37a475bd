//! `kute-bench`: kute side by side with CuTe C++ and pycute.
//!
//! ```text
//! cargo run --release -p kute-bench -- compare   # W1 + layout evaluation, one table, summary line last
//! cargo run --release -p kute-bench -- w1        # kute's W1 timings only
//! cargo run --release -p kute-bench -- eval      # the evaluation benchmark only
//! ```
//!
//! Environment: `KUTE_BENCH_DIR` (the folder with `cute_runtime_bench.cpp` and
//! `pycute_bench.py`; default: see `ext.rs`),
//! `KUTE_CUTE_INCLUDES` (the `-I` flags; default: `../oracle/includes.sh` from that
//! folder), `CXX`, `PYTHON`, `KUTE_PYCUTE_DIR`, `KUTE_BENCH_REBUILD` (rebuild the C++).

mod eval;
mod ext;
mod timing;
mod w1;

use std::time::Duration;
use timing::geomean;

fn fmt_opt(x: Option<f64>, prec: usize) -> String {
    match x {
        Some(v) => format!("{v:.prec$}"),
        None => "n/a".to_string(),
    }
}

struct W1Summary {
    geomean_cpp: Option<f64>,
    min_pycute: Option<f64>,
}

fn w1_section(batch: Duration, with_refs: bool) -> W1Summary {
    let bench = ext::bench_dir();
    let (cpp, py) = if with_refs {
        match &bench {
            Some(dir) => (ext::run_cpp(dir), ext::run_pycute(dir)),
            None => {
                let why = "shared/bench not found (set KUTE_BENCH_DIR)".to_string();
                (Err(why.clone()), Err(why))
            }
        }
    } else {
        (Err("not requested".into()), Err("not requested".into()))
    };
    eprintln!("timing kute's W1 ...");
    let kute = w1::run_kute(batch);

    println!(
        "== W1: the layout algebra, all integers dynamic, ns/op (best of {} interleaved batches) ==",
        timing::BATCHES
    );
    if let Some(d) = &bench {
        println!("references: {}", d.display());
    }
    match &cpp {
        Ok(_) => println!(
            "CuTe C++: cute_runtime_bench.cpp, g++ -std=c++17 -O2 (strides static where CuTe refuses dynamic ones)"
        ),
        Err(e) => println!("CuTe C++: unavailable: {e}"),
    }
    match &py {
        Ok(_) => println!("pycute:   pycute_bench.py"),
        Err(e) => println!("pycute:   unavailable: {e}"),
    }
    println!();
    println!("kute:     the *_into form (result written into a reused output layout; the by-value form, which");
    println!("          moves the result once more, in the next column for comparison)");
    println!();
    println!(
        "{:<54} {:>9} {:>9} {:>9} {:>11} {:>10} {:>12}",
        "operation (kute expression)", "kute", "by value", "CuTe C++", "pycute", "kute/C++", "pycute/kute"
    );
    let mut ratios_cpp = Vec::new();
    let mut speedups_py = Vec::new();
    for (row, k) in w1::ROWS.iter().zip(&kute) {
        let kns = k.into_ns;
        let c = cpp.as_ref().ok().and_then(|m| m.get(row.cpp)).map(|x| x.0);
        let p = py.as_ref().ok().and_then(|m| row.py.and_then(|n| m.get(n))).map(|x| x.0);
        let rc = c.map(|c| kns / c);
        let sp = p.map(|p| p / kns);
        ratios_cpp.extend(rc);
        speedups_py.extend(sp);
        let p_txt = match (row.py, p) {
            (None, _) => "-".to_string(),
            (Some(_), p) => fmt_opt(p, 0),
        };
        let sp_txt = match (row.py, sp) {
            (None, _) => "-".to_string(),
            (Some(_), s) => fmt_opt(s, 0),
        };
        println!(
            "{:<54} {:>9.2} {:>9.2} {:>9} {:>11} {:>10} {:>12}",
            row.expr,
            kns,
            k.by_value_ns,
            fmt_opt(c, 2),
            p_txt,
            fmt_opt(rc, 2),
            sp_txt
        );
    }
    let g_cpp = geomean(ratios_cpp.iter().copied());
    let g_py = geomean(speedups_py.iter().copied());
    let min_py = speedups_py.iter().copied().reduce(f64::min);
    let g_k = geomean(kute.iter().map(|x| x.into_ns));
    let g_v = geomean(kute.iter().map(|x| x.by_value_ns));
    let g_c = cpp.as_ref().ok().and_then(|m| geomean(w1::ROWS.iter().filter_map(|r| m.get(r.cpp).map(|x| x.0))));
    println!(
        "{:<54} {:>9.2} {:>9.2} {:>9} {:>11} {:>10} {:>12}",
        "geometric mean",
        g_k.unwrap_or(f64::NAN),
        g_v.unwrap_or(f64::NAN),
        fmt_opt(g_c, 2),
        "",
        fmt_opt(g_cpp, 2),
        fmt_opt(g_py, 0)
    );
    println!("min pycute/kute: {}", fmt_opt(min_py, 0));
    if let (Some(v), Some(c)) = (g_v, g_c) {
        println!("by value: geomean kute/C++ {:.2}", v / c);
    }

    println!();
    println!("-- results side by side (CuTe C++'s run-time path simplifies less; same functions) --");
    for (row, k) in w1::ROWS.iter().zip(&kute) {
        let r = &k.result;
        println!("{}", row.expr);
        println!("    kute     {r}");
        match &cpp {
            Ok(m) => println!("    CuTe C++ {}", m.get(row.cpp).map_or("(missing)", |x| x.1.as_str())),
            Err(_) => println!("    CuTe C++ n/a"),
        }
        match (&py, row.py) {
            (_, None) => println!("    pycute   (not in pycute)"),
            (Ok(m), Some(n)) => println!("    pycute   {}", m.get(n).map_or("(missing)", |x| x.1.as_str())),
            (Err(_), Some(_)) => println!("    pycute   n/a"),
        }
    }
    W1Summary { geomean_cpp: g_cpp, min_pycute: min_py }
}

fn usage() -> ! {
    eprintln!("usage: kute-bench [compare|w1|eval|profile ROW] [--batch-ms N]");
    std::process::exit(2);
}

fn main() {
    let mut cmd = "compare".to_string();
    let mut batch_ms = 30u64;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--batch-ms" => batch_ms = args.next().and_then(|s| s.parse().ok()).unwrap_or_else(|| usage()),
            "compare" | "w1" | "eval" => cmd = a,
            "count" => {
                // count ROW N: run one W1 row N times (for `perf stat`)
                let i: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or_else(|| usage());
                let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or_else(|| usage());
                w1::Operands::new().repeat(i, n);
                return;
            }
            "count-into" => {
                // count-into ROW N: run one W1 row's `*_into` form N times (for valgrind)
                let i: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or_else(|| usage());
                let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or_else(|| usage());
                w1::Operands::new().repeat_into(i, n);
                return;
            }
            "count-iter" => {
                // count-iter LAYOUT N: construct and drain Indices N times (for valgrind)
                let l: kute::Layout = args.next().unwrap_or_else(|| usage()).parse().expect("layout");
                let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or_else(|| usage());
                let mut acc = 0i64;
                for _ in 0..n {
                    kute::iter::Indices::new(std::hint::black_box(&l))
                        .expect("small")
                        .for_each(|v| acc = acc.wrapping_add(std::hint::black_box(v)));
                }
                println!("{acc}");
                return;
            }
            "count-eval" => {
                // count-eval (b|c) LAYOUT N: run the evaluation section's (b) or
                // (c) on LAYOUT N times (for valgrind: like-for-like counts)
                let which = args.next().unwrap_or_else(|| usage());
                let l: kute::Layout = args.next().unwrap_or_else(|| usage()).parse().expect("layout");
                let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or_else(|| usage());
                let (s, d) = eval::flat_digits(&l);
                let mut acc = 0i64;
                for _ in 0..n {
                    acc = acc.wrapping_add(match which.as_str() {
                        "b" => eval::traverse(std::hint::black_box(&l)),
                        "c" => eval::loop_nest(std::hint::black_box(&s), std::hint::black_box(&d)),
                        _ => usage(),
                    });
                }
                println!("{acc}");
                return;
            }
            "probe" => {
                let l: kute::Layout = args.next().unwrap_or_else(|| usage()).parse().expect("layout");
                let b = Duration::from_millis(200);
                let t_new = timing::ns_per_call(b, || kute::iter::Indices::new(std::hint::black_box(&l)));
                let t_ev = timing::ns_per_call(b, || std::hint::black_box(&l).evaluator());
                let t_co = timing::ns_per_call(b, || kute::coalesce(std::hint::black_box(&l)));
                println!("Indices::new {t_new:.1} ns, evaluator {t_ev:.1} ns, coalesce {t_co:.1} ns");
                return;
            }
            "profile" => {
                // profile ROW: run one W1 row for about 3 s (for `perf record`)
                let i: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or_else(|| usage());
                let ns = w1::Operands::new().time(i, w1::Form::Into, Duration::from_millis(600));
                println!("{}: {ns:.2} ns/op", w1::ROWS[i].expr);
                return;
            }
            _ => usage(),
        }
    }
    let batch = Duration::from_millis(batch_ms);
    match cmd.as_str() {
        "w1" => {
            w1_section(batch, false);
        }
        "eval" => {
            eval::section(batch);
        }
        _ => {
            let w = w1_section(batch, true);
            println!();
            let e = eval::section(batch);
            println!();
            println!(
                "summary: geomean kute/cute-cpp {}; min pycute/kute {}; eval worst a/d {}; traversal worst b/c {}",
                fmt_opt(w.geomean_cpp, 2),
                fmt_opt(w.min_pycute, 0),
                fmt_opt(e.worst_ad, 2),
                fmt_opt(e.worst_b, 2)
            );
        }
    }
}
