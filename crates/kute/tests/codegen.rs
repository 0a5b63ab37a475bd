//! The CUDA snippets of `kute::codegen::cuda`, compiled as host C++ by the
//! system compiler (`c++`, or `CXX`), must print exactly kute's values at
//! every coordinate (and past the size, where the last mode extends).
//!
//! A missing C++ compiler fails the test with a message saying so: the test
//! never passes without having compiled anything.

use kute::codegen::cuda::{emit, Dynamic};
use kute::expr::eval;
use kute::Int;
use std::process::Command;

/// Compile `code` (after the empty qualifiers) with `main`, run it, return stdout.
fn run_cpp(code: &str, main: &str) -> String {
    run_cpp_at(code, main, "-O1")
}

/// Compiles and runs at the optimisation level `opt` (`-O0` compiles a
/// large snippet fastest).
fn run_cpp_at(code: &str, main: &str, opt: &str) -> String {
    let dir = std::env::temp_dir().join(format!("kute-codegen-{}-{}", std::process::id(), rand_tag()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("t.cpp");
    let exe = dir.join("t");
    let text = format!(
        "#define __host__\n#define __device__\n#define __forceinline__ inline\n#include <cstdio>\n{code}\nint main() {{\n{main}\nreturn 0;\n}}\n"
    );
    std::fs::write(&src, text).unwrap();
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    let out = Command::new(&cxx).args(["-std=c++17", opt, "-o"]).arg(&exe).arg(&src).output().unwrap_or_else(|e| {
        panic!("no C++ compiler '{cxx}' to check the generated code ({e}); install g++ or set CXX")
    });
    assert!(out.status.success(), "the snippet does not compile:\n{}\n{code}", String::from_utf8_lossy(&out.stderr));
    let r = Command::new(&exe).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8(r.stdout).unwrap()
}

fn rand_tag() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

/// Many layouts in one program (one compiler run): each function printed at
/// `0..n`, compared with kute.
fn check(cases: &[(&str, Dynamic)]) {
    let mut code = String::new();
    let mut main = String::new();
    let mut want = String::new();
    for (k, (src, dynamic)) in cases.iter().enumerate() {
        let l = eval(src).unwrap().to_any_layout("l").unwrap();
        let name = format!("f{k}");
        code.push_str(&emit(&l, &name, *dynamic).unwrap());
        let n = l.size().unwrap().value();
        let top = n + n / 2 + 1; // past the size: the last mode extends
        let is_coord = matches!(&l, kute::AnyLayout::Layout(x) if !x.has_int_strides());
        let args: String = match dynamic {
            Dynamic::Literal => String::new(),
            Dynamic::Parameters => {
                // the dynamic integers, in the order the function takes them
                let x = l.as_layout("l").unwrap();
                let mut a = String::new();
                let last = x.leaves().len() - 1;
                for (k, m) in x.leaves().iter().enumerate() {
                    if !m.shape.is_static() && k != last {
                        a.push_str(&format!(", {}LL", m.shape.value()));
                    }
                    if !m.stride.is_static() {
                        a.push_str(&format!(", {}LL", m.stride.value()));
                    }
                }
                a
            }
        };
        if is_coord {
            let dims = l.as_layout("l").unwrap().coprofile().unwrap().leaves().len();
            main.push_str(&format!(
                "for (long long i = 0; i < {top}; ++i) {{ auto r = {name}(i{args}); for (int d = 0; d < {dims}; ++d) printf(\"%lld \", r.c[d]); printf(\"\\n\"); }}\n"
            ));
            for i in 0..top {
                let p = l.as_layout("l").unwrap().eval_point(Int::new_dynamic(i)).unwrap().to_int_tuple();
                for x in p.leaves() {
                    want.push_str(&format!("{} ", x.value()));
                }
                want.push('\n');
            }
        } else {
            main.push_str(&format!("for (long long i = 0; i < {top}; ++i) printf(\"%lld\\n\", {name}(i{args}));\n"));
            for i in 0..top {
                want.push_str(&format!("{}\n", l.eval_int(Int::new_dynamic(i)).unwrap().value()));
            }
        }
    }
    let got = run_cpp(&code, &main);
    if got != want {
        let (g, w): (Vec<_>, Vec<_>) = (got.lines().collect(), want.lines().collect());
        let first = g.iter().zip(&w).position(|(a, b)| a != b).unwrap_or(g.len().min(w.len()));
        panic!(
            "the compiled code differs from kute at output line {first}: {:?} vs {:?}\n{code}",
            g.get(first),
            w.get(first)
        );
    }
}

#[test]
fn integer_layouts_compile_to_kutes_values() {
    check(&[
        ("(_4,_8):(_8,_1)", Dynamic::Literal),
        ("(_3,(_2,_5)):(_10,(_1,_2))", Dynamic::Literal),
        ("((_2,_2),(_2,_4)):((_1,_4),(_2,_8))", Dynamic::Literal),
        ("(_6,_1,_4):(_0,_7,_-3)", Dynamic::Literal),
        ("_1:_0", Dynamic::Literal),
        ("(6,4):(1,6)", Dynamic::Parameters),
        ("(_8,12):(12,_1)", Dynamic::Parameters),
        ("(3,(5,7)):(35,(1,5))", Dynamic::Parameters),
        ("make_identity_layout((6,10))", Dynamic::Parameters),
        ("logical_divide((_24,_32):(_32,_1),<_8,_4>)", Dynamic::Literal),
        ("blocked_product((_2,_3):(_3,_1),(_4,_2):(_1,_4))", Dynamic::Literal),
    ]);
}

#[test]
fn coordinate_and_swizzled_layouts_compile_to_kutes_values() {
    check(&[
        ("make_identity_layout((_8,_12))", Dynamic::Literal),
        ("zipped_divide(make_identity_layout((_16,_12)),(_4,_3))", Dynamic::Literal),
        ("make_identity_layout((_4,(_2,_3)))", Dynamic::Literal),
        ("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", Dynamic::Literal),
        ("Sw<2,4,-3> o _16 o (_32,_8):(_1,_32)", Dynamic::Literal),
        ("make_composed_layout((_4,_4):(_4,_1),_0,(_4,_4):(_1,_4))", Dynamic::Literal),
        ("get_layoutC_TV(make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{},(_2,_2,_1):(_1,_2,_0)))", Dynamic::Literal),
    ]);
}

#[test]
fn bad_names_and_layouts_are_errors() {
    let l = eval("(_4,_8):(_8,_1)").unwrap().to_any_layout("l").unwrap();
    assert!(emit(&l, "9abc", Dynamic::Literal).is_err());
    assert!(emit(&l, "a-b", Dynamic::Literal).is_err());
    let sw = eval("Sw<3,4,3>").unwrap().to_any_layout("l").unwrap();
    assert!(emit(&sw, "sw", Dynamic::Literal).unwrap().contains("long long sw(long long x)"));
}

/// FNV-style hash of a sequence of values, the same in Rust and in the C++
/// the test compiles.
fn hash_step(h: u64, v: i64) -> u64 {
    (h ^ v as u64).wrapping_mul(0x0000_0100_0000_01b3)
}

/// Every row of the vector files whose value (as kute computes it) is a
/// layout, a swizzle or a composed layout: its emitted function, compiled as
/// host C++, hashes to what kute's evaluation hashes to over the whole
/// domain (every component of a coordinate layout's value).
#[test]
fn every_layout_of_the_vector_files_compiles_to_kutes_values() {
    let files = [
        ("algebra", include_str!("data/algebra.tsv")),
        ("basis", include_str!("data/basis.tsv")),
        ("swizzle", include_str!("data/swizzle.tsv")),
    ];
    let (mut code, mut main, mut want) = (String::new(), String::new(), String::new());
    let (mut count, mut kinds) = (0usize, [0usize; 3]);
    for (file, text) in files {
        for (row, line) in text.lines().enumerate() {
            let Some((expr, _)) = line.split_once('\t') else { continue };
            let Ok(v) = eval(expr) else { continue };
            let Ok(l) = v.to_any_layout("row") else { continue };
            let Ok(n) = l.size().map(|n| n.value()) else { continue };
            let name = format!("f{count}");
            let Ok(snippet) = emit(&l, &name, Dynamic::Literal) else {
                panic!("{file}.tsv row {}: {expr} = {l} cannot be emitted", row + 1)
            };
            let (is_coord, dims) = match &l {
                kute::AnyLayout::Layout(x) if !x.has_int_strides() => (true, x.coprofile().unwrap().leaves().len()),
                _ => (false, 0),
            };
            kinds[match &l {
                kute::AnyLayout::Layout(_) if is_coord => 1,
                kute::AnyLayout::Layout(_) => 0,
                _ => 2,
            }] += 1;
            code.push_str(&snippet);
            let mut h = 0xcbf2_9ce4_8422_2325u64;
            if is_coord {
                for i in 0..n {
                    let p = l.as_layout("l").unwrap().eval_point(Int::new_dynamic(i)).unwrap().to_int_tuple();
                    for x in p.leaves() {
                        h = hash_step(h, x.value());
                    }
                }
            } else if let kute::AnyLayout::Layout(x) = &l {
                // the whole domain in one traversal (kute's `indices`, tested
                // against `eval` elsewhere)
                h = x.indices().unwrap().fold(h, hash_step);
            } else {
                h = (0..n).map(|i| l.eval_int(Int::new_dynamic(i)).unwrap().value()).fold(h, hash_step);
            }
            let body = if is_coord {
                format!("{{ auto r = {name}(i); for (int d = 0; d < {dims}; ++d) h = (h ^ (unsigned long long)r.c[d]) * 0x100000001b3ULL; }}")
            } else {
                format!("h = (h ^ (unsigned long long){name}(i)) * 0x100000001b3ULL;")
            };
            main.push_str(&format!(
                "{{ unsigned long long h = 0xcbf29ce484222325ULL; for (long long i = 0; i < {n}LL; ++i) {body} printf(\"%llu\\n\", h); }}\n"
            ));
            want.push_str(&format!("{h}\n"));
            count += 1;
        }
    }
    assert!(count > 3000 && kinds.iter().all(|&k| k > 20), "{count} layouts, kinds {kinds:?}");
    let got = run_cpp_at(&code, &main, "-O0");
    let (g, w): (Vec<_>, Vec<_>) = (got.lines().collect(), want.lines().collect());
    assert_eq!(g.len(), w.len(), "the program printed {} of {} hashes", g.len(), w.len());
    let wrong: Vec<usize> = (0..w.len()).filter(|&k| g[k] != w[k]).collect();
    assert!(wrong.is_empty(), "{} of {count} emitted layouts differ from kute, the first f{}", wrong.len(), wrong[0]);
}

/// Symbolic layouts: the function takes the unknowns as parameters (in the
/// order they were made); compiled and called at several valuations, it
/// prints kute's values of the layout with those values put in.
#[test]
fn symbolic_layouts_compile_to_kutes_values_at_several_valuations() {
    use kute::expr::{eval_line, Env};
    use kute::sym::Valuation;
    let facts = [("M", 128), ("N", 8), ("K", 1)];
    let cases = [
        "(M,N):(_1,M)",
        "(M,N):(N,_1)",
        "zipped_divide((M,N):(N,_1),(_128,_8))",
        "logical_divide((M,K):(_1,M),(_64,_4))",
        "blocked_product((_4,N):(N,_1),(_2,K):(K,_1))",
        "composition((M,N):(_1,M),(_32,_4):(_4,_1))",
        "complement((_4,M):(M,_1),8*M)",
        "tiled_divide((_16,K):(_1,_16),_8:_1)",
        // CuTe's run-time min of an extent and a tile: (min(K,2),ceil_div(2,K)):(N,1)
        "composition((K,N):(N,_1),_2:_1)",
        // coordinate layouts: every component printed
        "zipped_divide(make_identity_layout((M,K)),(_128,_4))",
        "make_identity_layout((N,M))",
    ];
    // multiples of each unknown's divisibility, odd ones among them, and K = 1
    let picks = [(1, 2, 3), (2, 1, 5), (3, 4, 7), (1, 3, 2), (2, 2, 1)];
    let mut code = String::new();
    let mut main = String::new();
    let mut want = String::new();
    let mut env = Env::new();
    for (n, d) in facts {
        eval_line(&mut env, &format!("{n} = ?{{div={d}}}")).unwrap();
    }
    for (k, src) in cases.iter().enumerate() {
        let v = eval_line(&mut env, src).unwrap_or_else(|e| panic!("{src}: {e}"));
        let l = v.as_layout().unwrap_or_else(|| panic!("{src}: not a layout"));
        let name = format!("g{k}");
        let any = v.to_any_layout("l").unwrap();
        code.push_str(&emit(&any, &name, Dynamic::Literal).unwrap());
        // the parameters the function takes, in order
        let params = kute::codegen::cuda::parameters(&any);
        let sig = format!("{name}(i, {params:?})");
        let dims = if l.has_int_strides() { 0 } else { l.coprofile().unwrap().leaves().len() };
        for &(a, b, c) in &picks {
            let vals = [("M", 128 * a), ("N", 8 * b), ("K", c)];
            let mut val = Valuation::new();
            for (n, x) in vals {
                val.set(n, x);
            }
            let concrete = l.substitute(&val).unwrap();
            let n = concrete.size().unwrap().value();
            let args: String = params
                .iter()
                .map(|p| {
                    format!(", {}LL", vals.iter().find(|(q, _)| q == p).unwrap_or_else(|| panic!("{p} in {sig}")).1)
                })
                .collect();
            if dims == 0 {
                main.push_str(&format!("for (long long i = 0; i < {n}; ++i) printf(\"%lld\\n\", {name}(i{args}));\n"));
                for i in 0..n {
                    want.push_str(&format!("{}\n", concrete.eval_int(Int::new_dynamic(i)).unwrap().value()));
                }
            } else {
                main.push_str(&format!(
                    "for (long long i = 0; i < {n}; ++i) {{ auto r = {name}(i{args}); for (int d = 0; d < {dims}; ++d) printf(\"%lld\\n\", r.c[d]); }}\n"
                ));
                for i in 0..n {
                    for x in concrete.eval_point(Int::new_dynamic(i)).unwrap().to_int_tuple().leaves() {
                        want.push_str(&format!("{}\n", x.value()));
                    }
                }
            }
        }
    }
    // past 32 bits the division is a 64-bit one: (M,N):(_1,M) is the
    // identity on every coordinate (its last mode unreduced)
    let big = 5 * (1i64 << 32) + 7;
    main.push_str(&format!("printf(\"%lld\\n\", g0({big}LL, 384LL, 8LL));\n"));
    want.push_str(&format!("{big}\n"));
    let got = run_cpp(&code, &main);
    assert!(got == want, "the compiled symbolic code differs from kute\n{code}");
}
