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
    let dir = std::env::temp_dir().join(format!("kute-codegen-{}-{}", std::process::id(), rand_tag()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("t.cpp");
    let exe = dir.join("t");
    let text = format!(
        "#define __host__\n#define __device__\n#define __forceinline__ inline\n#include <cstdio>\n{code}\nint main() {{\n{main}\nreturn 0;\n}}\n"
    );
    std::fs::write(&src, text).unwrap();
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    let out = Command::new(&cxx).args(["-std=c++17", "-O1", "-o"]).arg(&exe).arg(&src).output().unwrap_or_else(|e| {
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
