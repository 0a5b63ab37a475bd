//! # kute-wasm — kute in the browser
//!
//! The evaluator behind the browser playground (`scripts/build-playground.sh`
//! builds it into a static page). [`evaluate`] takes what was typed — one
//! expression of kute's language, or several statements separated by `;` or
//! new lines, of which `NAME = expr` binds a name for the statements after it
//! — and gives an [`Evaluation`]: the value as `kute eval` prints it, and for a
//! layout its `print_layout` table (`kute table`) and its SVG picture
//! (`kute svg`), or the error kute reports. Every failure is an answer, never
//! a panic.
//!
//! The crate is plain Rust on every target, so its logic is tested by
//! `cargo test` on the host; compiled for `wasm32` the same functions and
//! structures are exported to JavaScript by wasm-bindgen.
//!
//! ```
//! let e = kute_wasm::evaluate("logical_divide(24:2, 4:2)");
//! assert!(e.ok);
//! assert_eq!(e.result, "(4,(2,3)):(4,(2,16))");
//! assert!(e.table.unwrap().contains("+----+"));
//! assert!(e.svg.unwrap().starts_with("<svg"));
//! ```

#![warn(missing_docs)]
#![cfg_attr(not(target_arch = "wasm32"), forbid(unsafe_code))]

use kute::expr::{self, Env, Value};
use kute::{print, AnyLayout, Error};

#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::wasm_bindgen;

/// What the playground shows for one input.
///
/// Exactly one of `result` (with `ok` true) and `error` is set. For a value that
/// can be drawn, `table` and `svg` hold its pictures, or `table_note` and
/// `svg_note` say why it has none (a rank-3 layout has no table; a huge one is
/// past the drawings' size limits).
#[cfg_attr(target_arch = "wasm32", wasm_bindgen(getter_with_clone))]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Evaluation {
    /// Whether every statement evaluated.
    pub ok: bool,
    /// The value of the last statement, as `kute eval` prints it (empty on error).
    pub result: String,
    /// What the value is (`a layout`, `an integer tuple`, ...; empty on error).
    pub kind: String,
    /// CuTe's `print_layout` of the value, as `kute table` prints it.
    pub table: Option<String>,
    /// Why a drawable value has no table.
    pub table_note: Option<String>,
    /// The SVG picture of the value, as `kute svg` draws it.
    pub svg: Option<String>,
    /// Why a drawable value has no picture.
    pub svg_note: Option<String>,
    /// Why the picture has no bank colours or access outlines that were asked
    /// for (a value that is not a layout of indices, an access that does not
    /// parse or does not fit the tile).
    pub banks_note: Option<String>,
    /// What the statements did besides their values: an unknown renamed
    /// when its name was bound anew (as `kute eval` notes it).
    pub note: Option<String>,
    /// kute's error, as `kute eval` prints it (`error: op: message`).
    pub error: Option<String>,
    /// The failing statement with a line of carets under the part the error
    /// points at, when it points at part of it (as `kute eval` shows it).
    pub pointer: Option<String>,
}

/// A worked example of the playground: a title and an expression.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen(getter_with_clone))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// What the example shows.
    pub title: String,
    /// The expression (statements separated by `;`).
    pub expr: String,
}

/// The worked examples, as (title, expression): the tour (docs/tour.md), one click away.
pub const EXAMPLES: &[(&str, &str)] = &[
    ("logical_divide", "logical_divide(24:2, 4:2)"),
    ("a layout as a table", "(2,(2,2)):(4,(2,1))"),
    ("composition with a tiler", "composition((_12,(_4,_8)):(_59,(_13,_1)), <_3:_4,_8:_2>)"),
    ("complement", "complement((_2,_2):(_1,_6), _24)"),
    ("blocked_product", "blocked_product((_2,_2):(_1,_2), (_3,_4):(_4,_1))"),
    ("raked_product", "raked_product((_2,_2):(_1,_2), (_3,_4):(_4,_1))"),
    ("zipped_divide with a name", "A = (_8,_8):(_8,_1); zipped_divide(A, (_2,_4))"),
    ("a swizzle", "composition(Swizzle<3,0,3>{}, (_8,_8):(_8,_1))"),
    ("an MMA's thread-value layouts", "make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{})"),
];

/// The worked examples ([`EXAMPLES`]) for JavaScript.
///
/// Pre: none. Post: one [`Example`] per entry of [`EXAMPLES`], in its order.
///
/// ```
/// let ex = kute_wasm::examples();
/// assert_eq!(ex.len(), kute_wasm::EXAMPLES.len());
/// assert_eq!((ex[0].title.as_str(), ex[0].expr.as_str()), kute_wasm::EXAMPLES[0]);
/// // every example evaluates in the playground
/// for e in &ex {
///     assert!(kute_wasm::evaluate(&e.expr).ok, "{}", e.expr);
/// }
/// ```
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
pub fn examples() -> Vec<Example> {
    EXAMPLES.iter().map(|&(title, expr)| Example { title: title.into(), expr: expr.into() }).collect()
}

/// The version of kute the playground was built from.
///
/// Pre: none. Post: the workspace's package version, as in `Cargo.toml`.
///
/// ```
/// assert_eq!(kute_wasm::version(), env!("CARGO_PKG_VERSION"));
/// assert_eq!(kute_wasm::version().split('.').count(), 3);
/// ```
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

use kute::syntax::statements;

/// Evaluate what was typed into the playground: statements separated by `;` or
/// new lines, each an expression or a binding `NAME = expr`; the last one's
/// value is shown, and drawn when it is a layout (plain or composed), an MMA
/// atom, a TiledMMA or a TiledCopy.
///
/// Pre: none (any text). Post: an [`Evaluation`] — the value and its pictures,
/// or the first statement's error; never a panic.
///
/// ```
/// let e = kute_wasm::evaluate("A = 8:2; size(A)");
/// assert_eq!((e.ok, e.result.as_str()), (true, "8"));
/// let e = kute_wasm::evaluate("composition((6,4):(1,7), 4:4)");
/// assert!(!e.ok && e.error.unwrap().starts_with("error: composition: "));
/// // symbols: the answer for every value of M; no picture of an unknown size
/// let e = kute_wasm::evaluate("M = ?{div=8}; logical_divide((M,_4):(_1,M), (_8,_2))");
/// assert_eq!((e.ok, e.result.as_str()), (true, "((_8,M/8),(_2,_2)):((_1,_8),(M,2*M))"));
/// assert!(e.svg_note.is_some());
/// ```
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
pub fn evaluate(input: &str) -> Evaluation {
    evaluate_drawn(input, 0, "")
}

/// [`evaluate`], with a layout's picture coloured by shared-memory bank as
/// `kute svg --banks ELEM_BYTES [--access ACCESS]` draws it: each cell in the
/// colour of the bank of its element (`elem_bytes` bytes each; 0 colours
/// nothing), and, when `access` is not empty, the cells one warp's access
/// touches outlined with their threads (red where the bank is shared).
///
/// Pre: none. Post: as [`evaluate`]; where the bank colours cannot be drawn
/// (not a layout of indices, an element size below one byte, or one that is
/// not a power of two with an access, an access that does not parse or fit), the picture is drawn without them and
/// `banks_note` says why.
///
/// ```
/// let e = kute_wasm::evaluate_drawn("(_8,_64):(_64,_1)", 2, "column:16");
/// let svg = e.svg.unwrap();
/// assert!(svg.contains("bank 0") && svg.matches("class=\"mark\"").count() == 256);
/// let e = kute_wasm::evaluate_drawn("(_8,_64):(_64,_1)", 2, "sideways");
/// assert!(e.svg.is_some() && e.banks_note.unwrap().contains("sideways"));
/// // element sizes are those of `kute svg --banks` and the bank analysis
/// let e = kute_wasm::evaluate_drawn("(_8,_64):(_64,_1)", 3, "");
/// assert!(e.svg.is_some() && e.banks_note.unwrap().contains("1, 2, 4, 8 or 16"));
/// ```
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
pub fn evaluate_drawn(input: &str, elem_bytes: i32, access: &str) -> Evaluation {
    let mut env = Env::new();
    let (mut last, mut notes) = (None, Vec::new());
    for (_, stmt) in statements(input) {
        match expr::eval_line_renaming(&mut env, stmt) {
            Ok((v, renamed)) => {
                notes.extend(renamed.map(|r| r.to_string()));
                last = Some(v);
            }
            Err(e) => {
                return Evaluation {
                    error: Some(format!("error: {}", e.to_string().replace(['\n', '\r'], " "))),
                    pointer: pointer(stmt, &e),
                    ..Evaluation::default()
                }
            }
        }
    }
    let Some(v) = last else {
        return Evaluation {
            error: Some("error: nothing to evaluate: type an expression, such as logical_divide(24:2, 4:2)".into()),
            ..Evaluation::default()
        };
    };
    let note = (!notes.is_empty()).then(|| notes.join("; "));
    let mut out =
        Evaluation { ok: true, result: v.to_string(), kind: v.kind_name().to_string(), note, ..Default::default() };
    let banks = Banks { elem_bytes: i64::from(elem_bytes), access: access.trim() };
    draw(&v, &mut out, &banks);
    out
}

/// The bank colouring asked for: elements of `elem_bytes` bytes (0: none),
/// and one warp's access (empty: none).
struct Banks<'a> {
    elem_bytes: i64,
    access: &'a str,
}

/// Fill in the pictures of `v`: a layout's table and SVG (the calls of `kute
/// table` and `kute svg`), a TiledMMA's or TiledCopy's thread-value picture
/// (CuTe's `print_svg`); other values are not drawn.
fn draw(v: &Value, out: &mut Evaluation, banks: &Banks) {
    let note = |e: Error| e.to_string().replace(['\n', '\r'], " ");
    if banks.elem_bytes != 0 && matches!(v, Value::TiledMma(_) | Value::MmaAtom(_) | Value::TiledCopy(_)) {
        out.banks_note =
            Some("banks colour a layout of element offsets; an MMA's or a copy's picture shows threads".into());
    }
    let layout = match v {
        Value::Layout(l) => AnyLayout::Layout(l.clone()),
        Value::Composed(_) => match v.to_any_layout("the drawing") {
            Ok(l) => l,
            Err(e) => {
                out.svg_note = Some(note(e));
                return;
            }
        },
        Value::TiledMma(m) => {
            set(print::svg_mma_auto(m), &mut out.svg, &mut out.svg_note);
            return;
        }
        Value::MmaAtom(a) => {
            let svg = kute::atom::TiledMma::new((**a).clone(), None, None).and_then(|m| print::svg_mma_auto(&m));
            set(svg, &mut out.svg, &mut out.svg_note);
            return;
        }
        Value::TiledCopy(c) => {
            set(print::svg_copy_auto(c), &mut out.svg, &mut out.svg_note);
            return;
        }
        _ => return,
    };
    set(print::table(&layout), &mut out.table, &mut out.table_note);
    if banks.elem_bytes == 0 {
        set(print::svg(&layout), &mut out.svg, &mut out.svg_note);
        return;
    }
    // with the colours if they can be drawn, else without, saying why
    let coloured = bank_options(&layout, banks).and_then(|o| print::svg_with(&layout, &o));
    match coloured {
        Ok(svg) => out.svg = Some(svg),
        Err(e) => {
            out.banks_note = Some(note(e));
            set(print::svg(&layout), &mut out.svg, &mut out.svg_note);
        }
    }
}

/// The picture's options for `banks`: the colours, and the access's outlines.
fn bank_options(layout: &AnyLayout, banks: &Banks) -> kute::Result<print::SvgOptions> {
    if banks.access.is_empty() {
        return Ok(print::SvgOptions { banks: Some(banks.elem_bytes), marks: Vec::new() });
    }
    let access = kute::analysis::Access::parse(banks.access)?;
    kute::analysis::svg_options(layout, banks.elem_bytes, &access)
}

/// Store a drawing, or the reason there is none.
fn set(r: kute::Result<String>, picture: &mut Option<String>, note: &mut Option<String>) {
    match r {
        Ok(s) => *picture = Some(s),
        Err(e) => *note = Some(e.to_string().replace(['\n', '\r'], " ")),
    }
}

/// The statement and a line of carets under the span `e` points at — for a
/// parse error, or an error about part of the statement (as `kute eval` does).
fn pointer(stmt: &str, e: &Error) -> Option<String> {
    e.pointer(stmt)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layout_has_its_value_table_and_picture() {
        let e = evaluate("logical_divide(24:2, 4:2)");
        assert!(e.ok, "{e:?}");
        assert_eq!(e.result, "(4,(2,3)):(4,(2,16))");
        assert_eq!(e.kind, "a layout");
        assert_eq!(e.error, None);
        // the same text as `kute table` and `kute svg`
        let l: kute::Layout = "(4,(2,3)):(4,(2,16))".parse().unwrap();
        assert_eq!(e.table.as_deref(), Some(print::table(&l).unwrap().as_str()));
        assert_eq!(e.svg.as_deref(), Some(print::svg(&l).unwrap().as_str()));
    }

    #[test]
    fn statements_share_bindings() {
        let e = evaluate("A = (_8,_8):(_8,_1);\n B = _4:_2 ; logical_divide(A, B)");
        assert_eq!(e.result, "(_4,(_2,_8)):(_16,(_8,_1))", "{e:?}");
        let e = evaluate("A = 8:2");
        assert_eq!((e.ok, e.result.as_str()), (true, "8:2"));
        assert!(e.svg.is_some());
    }

    /// An unknown renamed when its name is bound anew is noted, and the
    /// answer shows its new name.
    #[test]
    fn an_unknown_renamed_is_noted() {
        let e = evaluate("M = ?; L = (M,_4):(_1,M); M = M*2; L");
        assert_eq!(e.result, "(M_1,_4):(_1,M_1)", "{e:?}");
        assert!(e.note.as_deref().is_some_and(|n| n.starts_with("the unknown M is renamed M_1")), "{e:?}");
        let e = evaluate("M = ?; M = 2*M");
        assert_eq!((e.result.as_str(), e.note.is_some()), ("2*M_1", true));
        assert_eq!(evaluate("M = ?; M = 5").note, None);
    }

    #[test]
    fn values_that_are_not_layouts_are_not_drawn() {
        let e = evaluate("size((2,(2,2)):(4,(1,2)))");
        assert_eq!((e.ok, e.result.as_str()), (true, "8"));
        assert_eq!((e.table, e.svg, e.table_note, e.svg_note), (None, None, None, None));
    }

    #[test]
    fn a_rank_3_layout_has_a_picture_note_instead_of_a_table() {
        let e = evaluate("(2,2,2):(1,2,4)");
        assert!(e.ok);
        assert!(e.table.is_none());
        assert!(e.table_note.as_deref().unwrap_or("").contains("table"), "{e:?}");
    }

    #[test]
    fn composed_layouts_and_atoms_are_drawn() {
        let e = evaluate("composition(Swizzle<2,0,2>{},(_4,_4):(_4,_1))");
        assert_eq!(e.result, "Sw<2,0,2> o _0 o (_4,_4):(_4,_1)");
        assert!(e.table.unwrap().contains("| 15 | 14 | 13 | 12 |"));
        let e = evaluate("make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{})");
        assert!(e.ok && e.table.is_none() && e.svg.unwrap().contains("<svg"), "{:?}", e.svg_note);
        let e = evaluate("SM80_16x8x8_F16F16F16F16_TN{}");
        assert!(e.ok && e.svg.is_some(), "{e:?}");
    }

    #[test]
    fn errors_are_answers() {
        let e = evaluate("composition((6,4):(1,7), 4:4)");
        assert!(!e.ok);
        assert_eq!(e.result, "");
        let msg = e.error.unwrap();
        assert_eq!(msg, format!("error: {}", expr::eval("composition((6,4):(1,7), 4:4)").unwrap_err()));

        let e = evaluate("size(foo)");
        assert_eq!(e.pointer.as_deref(), Some("size(foo)\n     ^^^"));
        let e = evaluate("A = 4:1; B = (2,3");
        assert!(e.error.unwrap().starts_with("error: parse"));
        assert!(e.pointer.unwrap().starts_with(" B = (2,3\n"));
        for bad in ["", " ; \n", ")", "(((((", "logical_divide(", "é(", "1:0:1", "_1@@", &"(".repeat(10_000)] {
            let e = evaluate(bad);
            assert!(!e.ok && e.error.is_some(), "{bad:?}: {e:?}");
        }
    }

    #[test]
    fn bank_colours_are_the_command_line_s() {
        // `kute svg '(_8,_64):(_64,_1)' --banks 2 --access column:16`
        let l = kute::expr::eval("(_8,_64):(_64,_1)").unwrap().to_any_layout("l").unwrap();
        let access = kute::analysis::Access::parse("column:16").unwrap();
        let want = print::svg_with(&l, &kute::analysis::svg_options(&l, 2, &access).unwrap()).unwrap();
        let e = evaluate_drawn("(_8,_64):(_64,_1)", 2, " column:16 ");
        assert_eq!((e.svg.as_deref(), e.banks_note.as_deref()), (Some(want.as_str()), None));
        let e = evaluate_drawn("(_8,_64):(_64,_1)", 4, "");
        assert_eq!(e.svg.unwrap(), print::svg_with(&l, &print::SvgOptions { banks: Some(4), marks: vec![] }).unwrap());
        // what cannot be coloured is drawn without, saying why
        for (expr, bytes, access) in [
            ("make_identity_layout((_4,_4))", 2, ""),
            ("(_8,_64):(_64,_1)", 3, "column:16"),
            ("(_8,_64):(_64,_1)", -2, ""),
            ("(_8,_64):(_64,_1)", 2, "(_32,_4"),
            ("make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{})", 2, ""),
        ] {
            let e = evaluate_drawn(expr, bytes, access);
            assert!(e.ok && e.svg.is_some() && e.banks_note.is_some(), "{expr} {bytes} {access}: {e:?}");
        }
    }

    #[test]
    fn pictures_past_the_limits_are_notes() {
        let e = evaluate("(1000,1000):(1,1000)");
        assert!(e.ok);
        assert!(e.table.is_none() && e.table_note.is_some());
        assert!(e.svg.is_none() && e.svg_note.is_some());
    }

    #[test]
    fn every_example_evaluates_and_is_drawn() {
        assert_eq!(examples().len(), EXAMPLES.len());
        for x in examples() {
            let e = evaluate(&x.expr);
            assert!(e.ok, "{}: {e:?}", x.expr);
            assert!(e.svg.is_some(), "{}: {:?}", x.expr, e.svg_note);
        }
    }

    #[test]
    fn statements_split_at_semicolons_and_new_lines() {
        assert_eq!(statements("a;b\n\nc ;"), vec![(0, "a"), (2, "b"), (5, "c ")]);
        assert!(statements(" ;\r\n").is_empty());
    }
}
