//! `layout!`: a CuTe layout literal checked when the program is built.
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
#[proc_macro]
pub fn layout(input: TokenStream) -> TokenStream {
    match expand(input) {
        Ok(ts) => ts,
        Err(msg) => compile_error(&msg),
    }
}

/// The expansion of [`layout!`], or the message of its compile error.
fn expand(input: TokenStream) -> Result<TokenStream, String> {
    let mut tokens = input.into_iter();
    let lit = match (tokens.next(), tokens.next()) {
        (Some(TokenTree::Literal(l)), None) => l,
        _ => return Err("layout! takes one string literal, e.g. layout!(\"(4,8):(8,1)\")".to_string()),
    };
    let text = string_value(&lit.to_string())
        .ok_or_else(|| format!("layout! takes one string literal without escapes, not {lit}"))?;
    check(&text)?;
    // the literal is known to parse: the run-time parse cannot fail
    let code = format!(
        "<::kute::Layout as ::core::str::FromStr>::from_str({}).expect(\"kute_macros::layout!: checked when the program was built\")",
        Literal::string(&text)
    );
    code.parse().map_err(|e| format!("layout!: internal expansion error: {e}"))
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
