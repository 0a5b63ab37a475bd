//! Answers by cases: where a question on one unknown is undecided and a
//! declaration would decide it by excluding a few values (`LD != M`,
//! `M >= 3`), the call is answered once with the unknown equal to each
//! excluded value and once with the declaration; where the last answer,
//! with each value put in, is that value's answer, it holds for every
//! value, and is the answer.

use super::value::Value;
use crate::error::{ErrorKind, Result};
use crate::sym::{self, Valuation};
use std::cell::Cell;

/// How many splits may nest (each doubles the work).
const MOST_NESTED: u8 = 3;

thread_local! {
    static NESTED: Cell<u8> = const { Cell::new(0) };
}

/// `run(args)`, or where it is undecided on one unknown, the answer that
/// both cases of the split it offers agree on.
///
/// Pre: `run` is a function of its arguments. Post: `run`'s answer, or an
/// answer equal to `run`'s on the arguments with any value of the split
/// unknown put in; else `run`'s error.
pub(super) fn by_cases(args: &[Value], run: &dyn Fn(&[Value]) -> Result<Value>) -> Result<Value> {
    let _ = sym::take_split();
    let err = match run(args) {
        Ok(v) => return Ok(v),
        Err(e) => e,
    };
    let nested = NESTED.with(Cell::get);
    if err.kind() != ErrorKind::Undecided || nested >= MOST_NESTED || !args.iter().any(Value::has_symbols) {
        return Err(err);
    }
    let Some(split) = sym::take_split() else { return Err(err) };
    NESTED.with(|n| n.set(nested + 1));
    let answer = agreed(args, &split, run);
    NESTED.with(|n| n.set(nested));
    answer.ok_or(err)
}

/// The answer every case of `split` gives, if they agree.
fn agreed(args: &[Value], split: &sym::Split, run: &dyn Fn(&[Value]) -> Result<Value>) -> Option<Value> {
    let declared = split.declared().ok()?;
    let put = |v: &Valuation| args.iter().map(|a| a.substitute(v)).collect::<Result<Vec<_>>>().ok();
    let other = by_cases(&put(&Valuation::replacing(&split.x, declared.clone())?)?, run).ok()?;
    // the declared case's answer, in the original unknown again
    let other = other.substitute(&Valuation::replacing(&declared, split.x.clone())?).ok()?;
    for value in &split.excluded {
        let excluded = Valuation::replacing(&split.x, value.clone())?;
        let one = by_cases(&put(&excluded)?, run).ok()?;
        // (equal values; a value the excluded case knows statically, `_2`,
        // is a run-time value in the other)
        if unmarked(&other.substitute(&excluded).ok()?) != unmarked(&one) {
            return None;
        }
    }
    Some(other)
}

/// The printed value without static marks: `_2` as `2` (a `_` that starts a
/// number; names start with a letter).
fn unmarked(v: &Value) -> String {
    let text = v.to_string();
    let mut out = String::with_capacity(text.len());
    let mut prev = ' ';
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let starts_number = chars.peek().is_some_and(|d| d.is_ascii_digit() || *d == '-');
        if !(c == '_' && starts_number && !(prev.is_alphanumeric() || prev == '_')) {
            out.push(c);
        }
        prev = c;
    }
    out
}
