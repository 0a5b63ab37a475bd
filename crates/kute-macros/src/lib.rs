//! `layout!`: a CuTe layout literal checked when the program is built, and
//! `static_layout!`: a zero-sized layout whose evaluation is plain arithmetic.
//!
//! The literal is parsed by kute's own parser at compile time; a bad literal
//! fails the build with the parse error. (A separate crate because a
//! procedural macro that uses kute's parser cannot live in kute itself.)
//!
//! ```
//! use kute_macros::layout;
//! let l: kute::Layout = layout!("(_4,(2,2)):(_1,(4,8))");
//! assert_eq!(l.to_string(), "(_4,(2,2)):(_1,(4,8))");
//! assert_eq!(l.eval(3).unwrap(), 3);
//! ```
//!
//! A literal that does not parse does not compile:
//!
//! ```compile_fail
//! let l: kute::Layout = kute_macros::layout!("(4,8):(8,1");
//! ```
//!
//! Nor does one whose shape and stride are not congruent, or anything but
//! one string literal:
//!
//! ```compile_fail
//! let l: kute::Layout = kute_macros::layout!("(4,8):1");
//! ```
//!
//! ```compile_fail
//! let s = "4:1";
//! let l: kute::Layout = kute_macros::layout!(s);
//! ```

use proc_macro::{Literal, TokenStream, TokenTree};

/// A [`kute::Layout`] from a literal in CuTe's notation (`shape:stride`,
/// `_` marking static integers, basis strides such as `_1@0` allowed),
/// checked when the program is built.
///
/// Pre: one string literal that `"...".parse::<kute::Layout>()` accepts;
/// anything else is a compile error naming the problem.
/// Post: the value is that layout.
///
/// ```
/// let l: kute::Layout = kute_macros::layout!("(_2,_4):(_4,_1)");
/// assert_eq!(l, "(_2,_4):(_4,_1)".parse::<kute::Layout>().unwrap());
/// assert_eq!(l.eval(1).unwrap(), 4); // L(1) = L(1,0) = 1·4
/// let e: kute::Layout = kute_macros::layout!("(_2,_3):(_1@0,_1@1)");
/// assert_eq!(e.to_string(), "(_2,_3):(_1@0,_1@1)");
/// ```
#[proc_macro]
pub fn layout(input: TokenStream) -> TokenStream {
    match expand(input) {
        Ok(ts) => ts,
        Err(msg) => compile_error(&msg),
    }
}

/// A zero-sized layout known when the program is compiled: a value of a
/// new type implementing [`kute::codegen::StaticLayout`] whose `eval` and
/// `for_each` are integer arithmetic on the literal's values (shifts and
/// masks for powers of two), as a programmer would write them.
///
/// ```
/// use kute::codegen::StaticLayout;
/// let l = kute_macros::static_layout!("(_4,(_2,_3)):(_6,(_1,_24))");
/// assert_eq!(std::mem::size_of_val(&l), 0);
/// let dynamic = l.to_layout().unwrap();
/// for i in 0..24 {
///     assert_eq!(l.eval(i), dynamic.eval(i).unwrap());
/// }
/// ```
///
/// Pre: one string literal of a layout with integer strides (else a compile
/// error naming the problem). Post: a value whose `eval(i)` is the layout's
/// value at `i` for every `i >= 0`.
#[proc_macro]
pub fn static_layout(input: TokenStream) -> TokenStream {
    match expand_static(input) {
        Ok(ts) => ts,
        Err(msg) => compile_error(&msg),
    }
}

/// The expansion of [`static_layout!`], or the message of its compile error.
fn expand_static(input: TokenStream) -> Result<TokenStream, String> {
    let text = the_literal(input, "static_layout")?;
    let l: kute::Layout = text.parse().map_err(|e| format!("static_layout!(\"{text}\"): {e}"))?;
    let leaves: Vec<(i64, i64)> = l
        .leaves()
        .iter()
        .map(|m| Ok((m.shape.value(), m.stride.as_int().ok_or("a basis stride")?.value())))
        .collect::<Result<_, &str>>()
        .map_err(|e| format!("static_layout!(\"{text}\"): {e}: static layouts have integer strides"))?;
    let size: i64 =
        leaves.iter().try_fold(1i64, |a, &(s, _)| a.checked_mul(s)).ok_or("static_layout!: the size overflows i64")?;
    // eval: the coordinate's digits, each times its stride
    let mut eval = String::from("let mut i = i; let mut r: i64 = 0;");
    let n = leaves.len();
    for (k, &(s, d)) in leaves.iter().enumerate() {
        let last = k + 1 == n;
        if s == 1 && !last {
            continue;
        }
        let pow2 = s > 0 && s & (s - 1) == 0;
        let digit = if last {
            "i".to_string()
        } else if pow2 {
            format!("(i & {}i64)", s - 1)
        } else {
            format!("i.wrapping_rem({s}i64)")
        };
        if d != 0 {
            eval.push_str(&format!(" r = r.wrapping_add({digit}.wrapping_mul({d}i64));"));
        }
        if !last {
            if pow2 {
                eval.push_str(&format!(" i >>= {};", s.trailing_zeros()));
            } else {
                eval.push_str(&format!(" i = i.wrapping_div({s}i64);"));
            }
        }
    }
    eval.push_str(" let _ = i; r");
    // for_each: a loop nest, the first mode innermost
    let mut nest = String::new();
    for (k, &(s, _)) in leaves.iter().enumerate().rev() {
        nest.push_str(&format!("for c{k} in 0..{s}i64 {{ "));
    }
    let sum: Vec<String> = leaves.iter().enumerate().map(|(k, &(_, d))| format!("c{k}.wrapping_mul({d}i64)")).collect();
    let sum = if sum.is_empty() {
        "0i64".to_string()
    } else {
        sum.join(".wrapping_add(") + &")".repeat(sum.len().saturating_sub(1))
    };
    nest.push_str(&format!("f({sum});"));
    nest.push_str(&" }".repeat(leaves.len()));
    if leaves.is_empty() {
        nest = "f(0i64);".to_string();
    }
    let code = format!(
        "{{ #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)] struct KuteStaticLayout; \
         impl ::kute::codegen::StaticLayout for KuteStaticLayout {{ \
           const SIZE: i64 = {size}i64; const TEXT: &'static str = {text_lit}; \
           #[inline(always)] #[allow(unused_mut)] fn eval(self, i: i64) -> i64 {{ {eval} }} \
           #[inline(always)] fn for_each(self, mut f: impl FnMut(i64)) {{ {nest} }} \
         }} KuteStaticLayout }}",
        text_lit = Literal::string(&text)
    );
    code.parse().map_err(|e| format!("static_layout!: internal expansion error: {e}"))
}

/// The expansion of [`layout!`], or the message of its compile error.
fn expand(input: TokenStream) -> Result<TokenStream, String> {
    let text = the_literal(input, "layout")?;
    // the literal is known to parse: the run-time parse cannot fail
    let code = format!(
        "<::kute::Layout as ::core::str::FromStr>::from_str({}).expect(\"kute_macros::layout!: checked when the program was built\")",
        Literal::string(&text)
    );
    code.parse().map_err(|e| format!("layout!: internal expansion error: {e}"))
}

/// The macro's one string literal, checked to parse as a layout; else the
/// message of the compile error (`mac` names the macro).
fn the_literal(input: TokenStream, mac: &str) -> Result<String, String> {
    let mut tokens = input.into_iter();
    let lit = match (tokens.next(), tokens.next()) {
        (Some(TokenTree::Literal(l)), None) => l,
        _ => return Err(format!("{mac}! takes one string literal, e.g. {mac}!(\"(4,8):(8,1)\")")),
    };
    let text = string_value(&lit.to_string())
        .ok_or_else(|| format!("{mac}! takes one string literal without escapes, not {lit}"))?;
    check(&text)?;
    Ok(text)
}

/// Parses `text` as kute does at run time; the parse error as the message.
fn check(text: &str) -> Result<(), String> {
    text.parse::<kute::Layout>().map(|_| ()).map_err(|e| format!("layout!(\"{text}\"): {e}"))
}

/// The value of a plain or raw string literal's source (`"..."`, `r"..."`,
/// `r#"..."#`), or `None` for any other literal or one with escapes.
fn string_value(src: &str) -> Option<String> {
    if let Some(rest) = src.strip_prefix('r') {
        let hashes = rest.len() - rest.trim_start_matches('#').len();
        let body = rest.get(hashes..rest.len().checked_sub(hashes)?)?;
        return body.strip_prefix('"')?.strip_suffix('"').map(str::to_string);
    }
    let body = src.strip_prefix('"')?.strip_suffix('"')?;
    if body.contains('\\') {
        return None;
    }
    Some(body.to_string())
}

/// `compile_error!(msg)`.
fn compile_error(msg: &str) -> TokenStream {
    format!("::core::compile_error!({})", Literal::string(msg)).parse().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::{check, string_value};

    #[test]
    fn string_literals_are_read() {
        assert_eq!(string_value("\"(4,8):(8,1)\"").as_deref(), Some("(4,8):(8,1)"));
        assert_eq!(string_value("r\"4:1\"").as_deref(), Some("4:1"));
        assert_eq!(string_value("r#\"4:1\"#").as_deref(), Some("4:1"));
        assert_eq!(string_value("\"4:\\n1\""), None);
        assert_eq!(string_value("42"), None);
        assert_eq!(string_value("b\"4:1\""), None);
    }

    /// The compile error is kute's parse error, for each way a literal can be bad.
    #[test]
    fn bad_literals_give_the_parse_error() {
        for bad in ["(4,8):(8,1", "(4,8):1", "4:1:2", "", "size(4):1"] {
            let msg = check(bad).unwrap_err();
            let want = bad.parse::<kute::Layout>().unwrap_err().to_string();
            assert!(msg.ends_with(&want), "{bad}: {msg}");
            assert!(msg.starts_with(&format!("layout!(\"{bad}\"): ")), "{msg}");
        }
        assert!(check("(_4,(2,2)):(_1,(4,8))").is_ok());
        assert!(check("(_8,_12):(_1@0,_1@1)").is_ok());
        // a shape alone is a layout (compact, column-major), as CuTe's make_layout(shape)
        assert!(check("(4,8)").is_ok());
    }
}
