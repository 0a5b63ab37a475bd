//! The expression evaluator fed line by line, as `kute eval -` feeds it:
//! `NAME = expr` binds, anything else evaluates; every layout answered is
//! also printed (text, table, LaTeX, SVG), and a symbolic answer must read
//! back as itself. Any panic, hang or memory blow-up is a bug: every line
//! must answer a value or an error.
#![no_main]

use kute::expr::{self, Env, Value};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut env = Env::new();
    for line in text.lines() {
        let Ok(v) = expr::eval_line(&mut env, line) else { continue };
        let text = v.to_string();
        // a symbolic answer reads back as itself where it was printed, its
        // unknowns named as the session names them (an unknown whose name
        // is bound anew is renamed)
        if v.has_symbols() && matches!(v, Value::IntTuple(_) | Value::Layout(_)) {
            match expr::eval_in(&text, &env) {
                Ok(back) => assert!(back == v, "{line}: {text} reads back as {back}"),
                Err(e) => panic!("{line}: {text} does not read back: {e}"),
            }
        }
        // (pictures of up to 1024 cells: larger ones take milliseconds, and
        // the limit on cells is tested on its own; a symbolic layout's
        // pictures must be refused)
        if let Value::Layout(l) = &v {
            if !l.size().is_ok_and(|n| n.is_symbolic() || n.value() <= 1024) {
                continue;
            }
            let _ = kute::print::table(l);
            let _ = kute::print::latex(l);
            let _ = kute::print::svg(l);
        }
    }
});
