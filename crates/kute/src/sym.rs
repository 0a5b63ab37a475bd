//! Symbolic integers: extents and strides known only at launch.
//!
//! A [`Sym`] is a polynomial with rational coefficients over *atoms*: unknown
//! positive integers (`M`, or CuTe DSL's `?` and `?{div=N}`), each with the
//! facts declared for it (a multiple of `div`, at least `min`, unequal to
//! integers or other unknowns: kute's `?{div=N,min=K,ne=X}`, [`Facts`]),
//! `ceil_div(p,q)` terms that do not simplify, and `min(x,c)` terms of one
//! unknown and an integer that the facts do not order ([`Sym::min`]). The
//! form is canonical (terms sorted, like terms merged), so two equal forms
//! are equal for every value of the unknowns.
//!
//! The algebra asks questions of symbols: is this a multiple of 8? is this
//! less than that? [`Sym::divisible_by`], [`Sym::sign`] and
//! [`Sym::compare`] answer them from the facts alone, for every value the facts
//! allow, or answer `None`: undecided. An undecided question is never guessed;
//! the algebra turns it into an error naming the fact that would decide it.
//!
//! How the facts decide:
//! - every unknown `x` declared a multiple of `d` is `d·y` with `y ≥ 1`; a
//!   polynomial whose coefficients in the `y`s are integers is an integer, and
//!   their gcd divides it (its known divisor, what the DSL prints as `div`);
//! - writing each atom as its least value times `1 + z` with `z ≥ 0`, a
//!   polynomial whose `z` coefficients are all `≥ 0` takes its least value at
//!   `z = 0` (and its greatest where they are all `≤ 0`); a `ceil_div(p,q)`
//!   atom's least value is `ceil(least(p)/q)`;
//! - a `min(x,c)` atom is a multiple of `gcd(div(x), c)`, at least
//!   `min(least(x), c)`; a bound of a polynomial holding one is the loosest
//!   over its cases: `x` at each value the facts allow below `c` (a few), and
//!   `x` at least `c`, where `min(x,c)` is `c`;
//! - a difference `c·(x - r)` with `x` declared unequal to `r` is not zero.
//!
//! Atoms live in a process-wide table (append-only): an atom's identity is its
//! index, so a symbol is cheap to copy around inside [`Int`](crate::Int).
//!
//! The algebra on symbolic layouts follows two rules:
//! - a question the facts leave open is an `Undecided` error naming the fact
//!   that would decide it ("needs M divisible by 256 (declare M =
//!   ?{div=256})", "needs to know whether M equals LD"), never a guess;
//! - a symbolic extent stays a mode, as CuTe keeps a run-time extent: where
//!   its value is 1 the answer is CuTe's for a run-time extent 1 (the mode
//!   kept), not kute's answer by value (the mode dropped). `?{min=2}`, or
//!   `?{div=N}` with `N >= 2`, rules that out.
//!
//! The law the tests check: for every valuation the facts allow, putting the
//! values into a symbolic answer ([`Valuation`], `substitute`) gives kute's
//! answer on the operands with the values put in.

use crate::arith::gcd_i128;
use crate::error::{Error, ErrorKind, Result};
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// A rational number `n/d`, `d > 0`, in lowest terms.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
struct Rat {
    n: i128,
    d: i128,
}

fn overflow(what: &str) -> Error {
    Error::overflow(format_args!("the symbolic {what}"))
}

impl Rat {
    const ZERO: Rat = Rat { n: 0, d: 1 };
    const ONE: Rat = Rat { n: 1, d: 1 };

    fn int(n: i128) -> Rat {
        Rat { n, d: 1 }
    }

    fn new(n: i128, d: i128) -> Result<Rat> {
        if d == 0 {
            return Err(Error::div_zero("a symbolic quotient"));
        }
        let g = gcd_i128(n, d).max(1);
        let (mut n, mut d) = (n / g, d / g);
        if d < 0 {
            n = n.checked_neg().ok_or_else(|| overflow("quotient"))?;
            d = d.checked_neg().ok_or_else(|| overflow("quotient"))?;
        }
        Ok(Rat { n, d })
    }

    fn add(self, o: Rat) -> Result<Rat> {
        let g = gcd_i128(self.d, o.d);
        let (a, b) = (self.d / g, o.d / g);
        let n = self.n.checked_mul(b).zip(o.n.checked_mul(a)).and_then(|(x, y)| x.checked_add(y));
        let d = self.d.checked_mul(b);
        Rat::new(n.ok_or_else(|| overflow("sum"))?, d.ok_or_else(|| overflow("sum"))?)
    }

    fn mul(self, o: Rat) -> Result<Rat> {
        let g1 = gcd_i128(self.n, o.d).max(1);
        let g2 = gcd_i128(o.n, self.d).max(1);
        let n = (self.n / g1).checked_mul(o.n / g2).ok_or_else(|| overflow("product"))?;
        let d = (self.d / g2).checked_mul(o.d / g1).ok_or_else(|| overflow("product"))?;
        Rat::new(n, d)
    }

    fn recip(self) -> Result<Rat> {
        Rat::new(self.d, self.n)
    }

    fn is_int(self) -> bool {
        self.d == 1
    }

    fn signum(self) -> i128 {
        self.n.signum()
    }
}

/// A product of atoms: `(atom index, exponent)`, sorted by index, exponents ≥ 1.
type Mono = Vec<(u32, u32)>;

/// One term of a polynomial.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Term {
    mono: Mono,
    coef: Rat,
}

/// What an atom is.
#[derive(Clone, Debug)]
enum AtomKind {
    /// An unknown positive integer, a multiple of `div`, at least `least`,
    /// and unequal to each of `ne` (constants or other unknowns).
    Var { name: Option<String>, div: i64, least: i64, ne: Arc<[Sym]> },
    /// `ceil_div(num, den)` that does not simplify: a positive integer.
    CeilDiv(Sym, Sym),
    /// `min(x, c)` of one unknown `x` and an integer `c` that the facts do
    /// not order: a positive integer, at most `c`.
    Min(Sym, i64),
}

struct Table {
    atoms: Vec<AtomKind>,
    ceil_index: HashMap<(Sym, Sym), u32>,
    min_index: HashMap<(Sym, i64), u32>,
    /// Interned symbols (the handles [`Int`](crate::Int) carries).
    syms: Vec<Arc<Sym>>,
    sym_index: HashMap<Sym, u32>,
}

fn table() -> MutexGuard<'static, Table> {
    static T: OnceLock<Mutex<Table>> = OnceLock::new();
    let m = T.get_or_init(|| {
        Mutex::new(Table {
            atoms: Vec::new(),
            ceil_index: HashMap::new(),
            min_index: HashMap::new(),
            syms: Vec::new(),
            sym_index: HashMap::new(),
        })
    });
    // a panic while the lock was held cannot leave the table half-written (every
    // write is one push or insert), so a poisoned lock is still good
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Most distinct symbolic integers, and most unknowns, one process may make
/// (each is kept for the life of the process).
pub const MAX_SYMBOLS: usize = 1 << 22;

/// Most terms one symbol may have (a product of sums grows fast).
pub const MAX_TERMS: usize = 1024;

fn too_many_terms(n: usize) -> Error {
    Error::limit(
        "symbolic integer",
        format!("an expression of {n} terms, past kute's limit of {MAX_TERMS} for one symbolic integer"),
    )
}

/// Whether any symbolic integer was ever made in this process: until one
/// is, the operations' guards against symbolic operands cost one load.
static SYMBOLS_MADE: AtomicBool = AtomicBool::new(false);

/// Whether any `min(x,c)` atom was ever made in this process: until one is,
/// the bounds of a symbol look for none.
static MINS_MADE: AtomicBool = AtomicBool::new(false);

/// Most values of one unknown that a decision or a `min(x,c)` step goes
/// through one by one (the values below `c`).
const MOST_CASES: usize = 64;

/// Whether this process has made a symbolic integer (an [`Int`](crate::Int)
/// holding a [`Sym`]). Pre: none. Post: once true, true for good.
///
/// ```
/// let _ = kute::sym::Sym::var("M").unwrap();
/// assert!(kute::sym::any_made());
/// ```
#[inline(always)]
pub fn any_made() -> bool {
    SYMBOLS_MADE.load(Ordering::Relaxed)
}

/// The handle of `s` (interned: equal symbols share one handle).
pub(crate) fn intern(s: Sym) -> Result<i64> {
    let mut t = table();
    if let Some(&i) = t.sym_index.get(&s) {
        return Ok(i as i64);
    }
    if t.syms.len() >= MAX_SYMBOLS {
        return Err(Error::limit(
            "symbolic integer",
            format!("this process made {} symbolic integers, kute's limit", MAX_SYMBOLS),
        ));
    }
    let i = t.syms.len() as u32;
    t.syms.push(Arc::new(s.clone()));
    t.sym_index.insert(s, i);
    SYMBOLS_MADE.store(true, Ordering::Relaxed);
    Ok(i as i64)
}

/// The symbol of handle `h`.
pub(crate) fn lookup(h: i64) -> Arc<Sym> {
    let t = table();
    match t.syms.get(h as usize) {
        Some(s) => s.clone(),
        None => Arc::new(Sym::ZERO),
    }
}

fn atom(i: u32) -> AtomKind {
    table().atoms[i as usize].clone()
}

fn new_atom(k: AtomKind) -> Result<u32> {
    push_atom(&mut table(), k)
}

/// [`new_atom`] in a table already locked.
fn push_atom(t: &mut Table, k: AtomKind) -> Result<u32> {
    if t.atoms.len() >= MAX_SYMBOLS {
        return Err(Error::limit("symbolic integer", "too many unknowns in this process"));
    }
    t.atoms.push(k);
    SYMBOLS_MADE.store(true, Ordering::Relaxed);
    Ok((t.atoms.len() - 1) as u32)
}

/// Least value and known divisor of an atom.
fn atom_facts(i: u32) -> (i128, i128) {
    match atom(i) {
        AtomKind::Var { div, least, .. } => (least as i128, div as i128),
        AtomKind::CeilDiv(..) => (1, 1),
        AtomKind::Min(x, c) => {
            let (least, div) = x.as_unknown().map_or((1, 1), atom_facts);
            (least.min(c as i128).max(1), gcd_i128(div, c as i128).max(1))
        }
    }
}

/// The values the facts allow the unknown `x` (an atom) from `from` to `to`,
/// in increasing order (a value declared unequal to an unknown kept); `None`
/// past [`MOST_CASES`] of them.
fn values_between(x: u32, from: i128, to: i128) -> Option<Vec<i64>> {
    let AtomKind::Var { div, least, ne, .. } = atom(x) else { return None };
    let (div, least) = (div as i128, least as i128);
    let first = from.max(least);
    let first = first.checked_add(div - 1)? / div * div;
    let mut out = Vec::new();
    let mut v = first;
    while v <= to {
        if !ne.iter().any(|r| r.as_const().is_some_and(|k| k as i128 == v)) {
            if out.len() == MOST_CASES {
                return None;
            }
            out.push(i64::try_from(v).ok()?);
        }
        v = v.checked_add(div)?;
    }
    Some(out)
}

/// The values the facts allow the symbol `x`, one unknown, up to `to`, in
/// increasing order; `None` where `x` is not one unknown or has more than a
/// few such values.
pub(crate) fn values_up_to(x: &Sym, to: i64) -> Option<Vec<i64>> {
    values_between(x.as_unknown()?, 1, to as i128)
}

/// A least and a greatest value, each where known.
type Bounds = (Option<Rat>, Option<Rat>);

/// `a` against `b` as numbers (`None` on overflow).
fn rat_cmp(a: Rat, b: Rat) -> Option<std::cmp::Ordering> {
    Some(a.n.checked_mul(b.d)?.cmp(&b.n.checked_mul(a.d)?))
}

/// A symbolic integer: a polynomial over unknown positive integers (see the
/// module docs). Constants are symbols too ([`Sym::constant`]).
///
/// ```
/// use kute::sym::Sym;
/// let m = Sym::var_div("M", 128).unwrap();
/// let k = Sym::var("K").unwrap();
/// let e = m.mul(&k).unwrap().add(&Sym::constant(4)).unwrap();
/// assert_eq!(e.to_string(), "M*K+4");
/// assert_eq!(e.dsl().to_string(), "?{div=4}");
/// assert_eq!(m.div_exact(&Sym::constant(32)).unwrap().to_string(), "M/32");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Sym {
    terms: Vec<Term>,
}

/// The answer to a question about symbols: decided for every value of the
/// unknowns, or not.
pub type Decision = Option<bool>;

impl Sym {
    /// Zero.
    pub const ZERO: Sym = Sym { terms: Vec::new() };

    /// The constant `c`.
    ///
    /// Pre: none. Post: `as_const() == Some(c)`.
    ///
    /// ```
    /// assert_eq!(kute::sym::Sym::constant(6).as_const(), Some(6));
    /// ```
    pub fn constant(c: i64) -> Sym {
        Sym::from_rat(Rat::int(c as i128))
    }

    fn from_rat(c: Rat) -> Sym {
        if c.n == 0 {
            Sym::ZERO
        } else {
            Sym { terms: vec![Term { mono: Vec::new(), coef: c }] }
        }
    }

    /// A new unknown positive integer named `name` (CuTe DSL's `?`).
    ///
    /// Pre: fewer than [`MAX_SYMBOLS`] unknowns made in this process (else a
    /// `Limit` error). Post: a symbol no earlier one equals; it prints as `name`.
    ///
    /// ```
    /// let m = kute::sym::Sym::var("M").unwrap();
    /// assert_eq!((m.to_string(), m.dsl().to_string()), ("M".to_string(), "?".to_string()));
    /// ```
    pub fn var(name: &str) -> Result<Sym> {
        Sym::var_div(name, 1)
    }

    /// A new unknown positive integer named `name`, known to be a multiple of
    /// `div` (CuTe DSL's `?{div=N}`).
    ///
    /// Pre: `div >= 1` (else an `Inadmissible` error). Post: a new unknown.
    ///
    /// ```
    /// let m = kute::sym::Sym::var_div("M", 64).unwrap();
    /// assert_eq!(m.dsl().to_string(), "?{div=64}");
    /// assert!(kute::sym::Sym::var_div("M", 0).is_err());
    /// ```
    pub fn var_div(name: &str, div: i64) -> Result<Sym> {
        Sym::new_var(Some(name.to_string()), div, 1)
    }

    /// A new unknown named `name`, a multiple of `div` and at least `min`
    /// (kute's `?{div=N,min=K}`; the least value is `min` rounded up to a
    /// multiple of `div`).
    ///
    /// Pre: `div >= 1` (else an `Inadmissible` error). Post: a new unknown.
    ///
    /// ```
    /// use kute::sym::Sym;
    /// let m = Sym::var_facts("M", 1, 2).unwrap();
    /// assert_eq!(Sym::constant(1).compare(&m), Some(-1)); // 1 < M
    /// assert_eq!(Sym::var("N").unwrap().compare(&Sym::constant(1)), None);
    /// ```
    pub fn var_facts(name: &str, div: i64, min: i64) -> Result<Sym> {
        Sym::new_var(Some(name.to_string()), div, min)
    }

    /// A new unknown with no name (printed `?k`, `k` its number in this process).
    ///
    /// Pre: `div >= 1` (else an `Inadmissible` error). Post: a new unknown.
    ///
    /// ```
    /// let u = kute::sym::Sym::unknown(4).unwrap();
    /// assert!(u.to_string().starts_with('?'));
    /// assert_eq!(u.dsl().to_string(), "?{div=4}");
    /// ```
    pub fn unknown(div: i64) -> Result<Sym> {
        Sym::new_var(None, div, 1)
    }

    /// A new unnamed unknown, a multiple of `div` and at least `min`.
    ///
    /// Pre: `div >= 1` (else an `Inadmissible` error). Post: a new unknown.
    ///
    /// ```
    /// let u = kute::sym::Sym::unknown_facts(4, 10).unwrap(); // at least 12
    /// assert_eq!(u.compare(&kute::sym::Sym::constant(11)), Some(1));
    /// ```
    pub fn unknown_facts(div: i64, min: i64) -> Result<Sym> {
        Sym::new_var(None, div, min)
    }

    /// A new unknown with the facts `facts`, named `name` (`None`: printed
    /// `?k`).
    ///
    /// Pre: `facts.div >= 1`, and each of `facts.ne` is a constant or one
    /// unknown (else an `Inadmissible` error). Post: a new unknown.
    ///
    /// ```
    /// use kute::sym::{Facts, Sym};
    /// let m = Sym::var("M").unwrap();
    /// let ld = Sym::unknown_with(Some("LD"), Facts { ne: vec![m.clone()], ..Facts::default() }).unwrap();
    /// assert!(ld.sub(&m).unwrap().declared_nonzero());
    /// assert!(!ld.sub(&Sym::constant(4)).unwrap().declared_nonzero());
    /// ```
    pub fn unknown_with(name: Option<&str>, facts: Facts) -> Result<Sym> {
        if let Some(bad) = facts.ne.iter().find(|s| s.as_const().is_none() && s.as_unknown().is_none()) {
            return Err(Error::inadmissible(
                "?",
                format!("an unknown may be declared unequal to an integer or to another unknown, not to {bad}"),
            ));
        }
        Sym::new_var_ne(name.map(str::to_string), facts.div, facts.min, facts.ne)
    }

    fn new_var(name: Option<String>, div: i64, min: i64) -> Result<Sym> {
        Sym::new_var_ne(name, div, min, Vec::new())
    }

    fn new_var_ne(name: Option<String>, div: i64, min: i64, ne: Vec<Sym>) -> Result<Sym> {
        if div < 1 {
            return Err(Error::inadmissible("?", format!("a divisibility must be at least 1, not {div}")));
        }
        // the least positive multiple of div that is at least min
        let m = min.max(1);
        let least = m.checked_add(div - 1).map(|x| x / div * div).ok_or_else(|| overflow("least value"))?;
        let i = new_atom(AtomKind::Var { name, div, least, ne: ne.into() })?;
        Ok(Sym::of_atom(i))
    }

    /// The symbol that is the atom `i` itself.
    fn of_atom(i: u32) -> Sym {
        Sym { terms: vec![Term { mono: vec![(i, 1)], coef: Rat::ONE }] }
    }

    /// The atom this symbol is, when it is one unknown (`M`, not `2*M`).
    fn as_unknown(&self) -> Option<u32> {
        match &self.terms[..] {
            [Term { mono, coef }] if *coef == Rat::ONE && mono.len() == 1 && mono[0].1 == 1 => {
                matches!(atom(mono[0].0), AtomKind::Var { .. }).then_some(mono[0].0)
            }
            _ => None,
        }
    }

    /// The declaration of a symbol that is one unknown, with its facts, as
    /// `M = ?{div=8}` reads it: `?`, `?{div=8}`, `?{div=8,min=64,ne=LD}`.
    ///
    /// Pre: none. Post: `Some` for one unknown (`M`, not `2*M`), text that
    /// declares an unknown with the same facts; `None` for any other symbol.
    ///
    /// ```
    /// use kute::sym::Sym;
    /// let m = Sym::var_facts("M", 8, 64).unwrap();
    /// assert_eq!(m.declaration().as_deref(), Some("?{div=8,min=64}"));
    /// assert_eq!(Sym::var("N").unwrap().declaration().as_deref(), Some("?"));
    /// assert_eq!(m.mul(&Sym::constant(2)).unwrap().declaration(), None);
    /// ```
    pub fn declaration(&self) -> Option<String> {
        facts_text(self.as_unknown()?, None, None, None)
    }

    /// The anonymous unknown numbered `k` (printed `?k`), if there is one.
    pub(crate) fn anonymous(k: u32) -> Option<Sym> {
        let i = k.checked_sub(1)?;
        let t = table();
        match t.atoms.get(i as usize) {
            Some(AtomKind::Var { name: None, .. }) => {
                Some(Sym { terms: vec![Term { mono: vec![(i, 1)], coef: Rat::ONE }] })
            }
            _ => None,
        }
    }

    /// Gives a name to this unknown if it has none (`M = ?{div=8}` names the
    /// `?`). Pre: none. Post: true when `self` is a single anonymous unknown,
    /// now named `name`.
    ///
    /// ```
    /// let u = kute::sym::Sym::unknown(1).unwrap();
    /// assert!(u.name_if_anonymous("T"));
    /// assert_eq!(u.to_string(), "T");
    /// assert!(!u.name_if_anonymous("U"));
    /// ```
    pub fn name_if_anonymous(&self, name: &str) -> bool {
        self.set_name(name, false)
    }

    /// Renames this unknown (a session rebinding its name keeps the earlier
    /// unknown readable under another). Pre: none. Post: true when `self` is
    /// a single named unknown, now named `name` wherever it appears.
    ///
    /// ```
    /// let m = kute::sym::Sym::var("M").unwrap();
    /// let twice = m.mul(&kute::sym::Sym::constant(2)).unwrap();
    /// assert!(m.rename("M_1"));
    /// assert_eq!(twice.to_string(), "2*M_1");
    /// assert!(!twice.rename("N"));
    /// ```
    pub fn rename(&self, name: &str) -> bool {
        self.set_name(name, true)
    }

    /// Names this single unknown `name` where it is named already (`named`)
    /// or anonymous (else); whether it did.
    fn set_name(&self, name: &str, named: bool) -> bool {
        let Some(i) = self.as_unknown() else { return false };
        match &mut table().atoms[i as usize] {
            AtomKind::Var { name: n, .. } if n.is_some() == named => {
                *n = Some(name.to_string());
                true
            }
            _ => false,
        }
    }

    /// The value, when the symbol is a constant integer.
    ///
    /// Pre: none. Post: `Some(c)` exactly when no unknown is left and the
    /// value is an integer that fits in `i64`.
    ///
    /// ```
    /// use kute::sym::Sym;
    /// let m = Sym::var("M").unwrap();
    /// assert_eq!(m.sub(&m).unwrap().as_const(), Some(0));
    /// assert_eq!(m.as_const(), None);
    /// ```
    pub fn as_const(&self) -> Option<i64> {
        match &self.terms[..] {
            [] => Some(0),
            [Term { mono, coef }] if mono.is_empty() && coef.is_int() => i64::try_from(coef.n).ok(),
            _ => None,
        }
    }

    /// `self = q·c + r` with `0 <= r < c`, for an integer `c`, where the
    /// facts prove `self - r` a multiple of `c` (`r` the constant term's
    /// remainder).
    ///
    /// Pre: `c > 0`, and the constant term an integer (else `None`).
    /// Post: `Some((q, r))` when the facts prove `self - r` a multiple of `c`:
    /// then `q` and `r` are the quotient and remainder of `self` by `c` at
    /// every value of the unknowns where `self >= 0`; `None` otherwise.
    ///
    /// ```
    /// use kute::sym::Sym;
    /// let n = Sym::var_div("N", 4).unwrap();
    /// let (q, r) = n.add(&Sym::constant(6)).unwrap().split_by(4).unwrap();
    /// assert_eq!((q.to_string().as_str(), r), ("N/4+1", 2));
    /// assert!(Sym::var("M").unwrap().split_by(4).is_none());
    /// ```
    pub fn split_by(&self, c: i64) -> Option<(Sym, i64)> {
        if c <= 0 {
            return None;
        }
        let k = self.terms.iter().find(|t| t.mono.is_empty()).map_or(Some(0), |t| {
            if t.coef.is_int() {
                i64::try_from(t.coef.n).ok()
            } else {
                None
            }
        })?;
        let r = k.rem_euclid(c);
        let p = self.sub(&Sym::constant(r)).ok()?;
        if p.divisible_by(c) != Some(true) {
            return None;
        }
        Some((p.div_exact(&Sym::constant(c)).ok()?, r))
    }

    /// Whether a declared inequality (`?{ne=...}`) proves this symbol nonzero:
    /// it is `c·(x - r)` with `x` an unknown declared unequal to `r`.
    ///
    /// Pre: none. Post: `true` only when no value the facts allow makes it 0.
    ///
    /// ```
    /// use kute::sym::{Facts, Sym};
    /// let t = Sym::unknown_with(Some("T"), Facts { ne: vec![Sym::constant(32)], ..Facts::default() }).unwrap();
    /// assert!(Sym::constant(64).sub(&t.mul(&Sym::constant(2)).unwrap()).unwrap().declared_nonzero());
    /// ```
    pub fn declared_nonzero(&self) -> bool {
        self.offsets().iter().any(|(x, r)| matches!(atom(*x), AtomKind::Var { ne, .. } if ne.contains(r)))
    }

    /// Each unknown `x` of a term `c·x` with the `r` that makes this symbol
    /// `c·(x - r)` (`r = x - self/c`).
    fn offsets(&self) -> Vec<(u32, Sym)> {
        self.terms
            .iter()
            .filter_map(|t| {
                let [(x, 1)] = t.mono[..] else { return None };
                if !matches!(atom(x), AtomKind::Var { .. }) {
                    return None;
                }
                let r = t.coef.recip().and_then(|inv| Sym::of_atom(x).sub(&self.scale(inv)?)).ok()?;
                Some((x, r))
            })
            .collect()
    }

    fn normalize(mut terms: Vec<Term>) -> Result<Sym> {
        if terms.len() > 2 * MAX_TERMS {
            return Err(too_many_terms(terms.len()));
        }
        terms.sort_by(|a, b| a.mono.cmp(&b.mono));
        let mut out: Vec<Term> = Vec::with_capacity(terms.len());
        for t in terms {
            match out.last_mut() {
                Some(l) if l.mono == t.mono => l.coef = l.coef.add(t.coef)?,
                _ => out.push(t),
            }
        }
        out.retain(|t| t.coef.n != 0);
        if out.len() > MAX_TERMS {
            return Err(too_many_terms(out.len()));
        }
        Ok(Sym { terms: out })
    }

    /// `self + o`. Pre: the coefficients fit in 128 bits (else `Overflow`).
    /// Post: the canonical sum.
    ///
    /// ```
    /// use kute::sym::Sym;
    /// let m = Sym::var("M").unwrap();
    /// assert_eq!(m.add(&m).unwrap().to_string(), "2*M");
    /// ```
    pub fn add(&self, o: &Sym) -> Result<Sym> {
        Sym::normalize(self.terms.iter().chain(&o.terms).cloned().collect())
    }

    /// `self - o`. Pre/Post: as [`Sym::add`].
    ///
    /// ```
    /// use kute::sym::Sym;
    /// let m = Sym::var("M").unwrap();
    /// assert_eq!(m.sub(&m).unwrap().as_const(), Some(0));
    /// ```
    pub fn sub(&self, o: &Sym) -> Result<Sym> {
        self.add(&o.scale(Rat::int(-1))?)
    }

    fn scale(&self, c: Rat) -> Result<Sym> {
        let terms = self.terms.iter().map(|t| Ok(Term { mono: t.mono.clone(), coef: t.coef.mul(c)? }));
        Sym::normalize(terms.collect::<Result<_>>()?)
    }

    /// `self · o`. Pre/Post: as [`Sym::add`].
    ///
    /// ```
    /// use kute::sym::Sym;
    /// let (m, n) = (Sym::var("M").unwrap(), Sym::var("N").unwrap());
    /// assert_eq!(m.add(&Sym::constant(1)).unwrap().mul(&n).unwrap().to_string(), "M*N+N");
    /// ```
    pub fn mul(&self, o: &Sym) -> Result<Sym> {
        if self.terms.len().saturating_mul(o.terms.len()) > 2 * MAX_TERMS {
            return Err(too_many_terms(self.terms.len().saturating_mul(o.terms.len())));
        }
        let mut terms = Vec::with_capacity(self.terms.len() * o.terms.len());
        for a in &self.terms {
            for b in &o.terms {
                terms.push(Term { mono: mono_mul(&a.mono, &b.mono)?, coef: a.coef.mul(b.coef)? });
            }
        }
        Sym::normalize(terms)
    }

    /// The exact quotient `self / o`, where the facts prove it an integer.
    ///
    /// Pre: `o` is not zero (else `DivisionByZero`) and the quotient is a
    /// polynomial that the facts prove an integer for every value of the
    /// unknowns (else an `Undecided` error naming the divisibility needed).
    /// Post: `q` with `q·o == self`.
    ///
    /// ```
    /// use kute::sym::Sym;
    /// let m = Sym::var_div("M", 128).unwrap();
    /// assert_eq!(m.div_exact(&Sym::constant(128)).unwrap().to_string(), "M/128");
    /// let e = Sym::var("N").unwrap().div_exact(&Sym::constant(2)).unwrap_err();
    /// assert_eq!(e.to_string(), "/: needs N divisible by 2 (declare N = ?{div=2})");
    /// ```
    pub fn div_exact(&self, o: &Sym) -> Result<Sym> {
        match self.quotient(o)? {
            Some(q) if q.integer_valued() => Ok(q),
            _ => self.div_by_min(o).ok_or_else(|| undecided("/", divisibility_fact(self, o))),
        }
    }

    /// `self / min(x,c)` where it is exact for every value the facts allow:
    /// `c` divides `self` and every value of `x` below `c` divides `c`. It is
    /// then `(self/c)·ceil_div(c,x)` (`ceil_div(c,x)` is `c/x` where `x`
    /// divides `c`, and 1 from `x = c` on). `None` otherwise.
    fn div_by_min(&self, o: &Sym) -> Option<Sym> {
        let [Term { mono, coef }] = &o.terms[..] else { return None };
        let (&[(a, 1)], true) = (&mono[..], *coef == Rat::ONE) else { return None };
        let AtomKind::Min(x, c) = atom(a) else { return None };
        if self.divisible_by(c) != Some(true) {
            return None;
        }
        let below = values_between(x.as_unknown()?, 1, c as i128 - 1)?;
        if below.iter().any(|v| c % v != 0) {
            return None;
        }
        let c = Sym::constant(c);
        self.quotient(&c).ok()??.mul(&c.ceil_div(&x).ok()?).ok()
    }

    /// The polynomial quotient `self / o` if `o` divides `self` as a
    /// polynomial (rational coefficients allowed), `None` otherwise.
    fn quotient(&self, o: &Sym) -> Result<Option<Sym>> {
        if o.terms.is_empty() {
            return Err(Error::div_zero(format_args!("{self} / 0")));
        }
        if let [Term { mono, coef }] = &o.terms[..] {
            let inv = coef.recip()?;
            let mut terms = Vec::with_capacity(self.terms.len());
            for t in &self.terms {
                let Some(m) = mono_div(&t.mono, mono) else { return Ok(None) };
                terms.push(Term { mono: m, coef: t.coef.mul(inv)? });
            }
            return Sym::normalize(terms).map(Some);
        }
        // long division by the leading term in the graded lexicographic
        // order (a monomial order, so each step removes the leading term);
        // an overflow on the way means no quotient was found
        let lead_of = |p: &Sym| p.terms.iter().max_by(|a, b| grlex(&a.mono, &b.mono)).cloned();
        let Some(lead) = lead_of(o) else { return Ok(None) };
        let mut rest = self.clone();
        let mut q = Sym::ZERO;
        for _ in 0..64 {
            let Some(t) = lead_of(&rest) else { return Ok(Some(q)) };
            let Some(m) = mono_div(&t.mono, &lead.mono) else { return Ok(None) };
            let step = || -> Result<(Sym, Sym)> {
                let step = Sym { terms: vec![Term { mono: m, coef: t.coef.mul(lead.coef.recip()?)? }] };
                Ok((rest.sub(&step.mul(o)?)?, q.add(&step)?))
            };
            match step() {
                Ok((r, q2)) => (rest, q) = (r, q2),
                Err(_) => return Ok(None),
            }
        }
        Ok(None)
    }

    /// Long division of `self` by `o` with a remainder: `self = q·o + r`,
    /// each leading term of the rest that `o`'s leading term (in the graded
    /// lexicographic order) divides going to `q`, the others to `r`. An
    /// identity of polynomials: it says nothing of the facts. `None` past a
    /// budget of steps, on overflow, or for `o` zero.
    fn long_division(&self, o: &Sym) -> Option<(Sym, Sym)> {
        let lead_of = |p: &Sym| p.terms.iter().max_by(|a, b| grlex(&a.mono, &b.mono)).cloned();
        let lead = lead_of(o)?;
        let inv = lead.coef.recip().ok()?;
        let (mut rest, mut q, mut r) = (self.clone(), Sym::ZERO, Sym::ZERO);
        for _ in 0..64 {
            let Some(t) = lead_of(&rest) else { return Some((q, r)) };
            let single = Sym { terms: vec![t.clone()] };
            match mono_div(&t.mono, &lead.mono) {
                Some(m) => {
                    let step = Sym { terms: vec![Term { mono: m, coef: t.coef.mul(inv).ok()? }] };
                    rest = rest.sub(&step.mul(o).ok()?).ok()?;
                    q = q.add(&step).ok()?;
                }
                None => {
                    rest = rest.sub(&single).ok()?;
                    r = r.add(&single).ok()?;
                }
            }
        }
        None
    }

    /// C++'s quotient and remainder of `self` by `o`, where the facts decide
    /// them without a division that is exact: `self = q·o + r` with `q` an
    /// integer and `0 <= r < o` at every valuation the facts allow, and
    /// `self >= 0` (so that truncation is the floor). `q` is the quotient of
    /// a long division by `o` ([`Sym::long_division`]), or 0 (`r = self`).
    ///
    /// Pre: none. Post: `Some((q, r))` only when the facts prove the above;
    /// `None` otherwise.
    pub(crate) fn div_rem_by(&self, o: &Sym) -> Option<(Sym, Sym)> {
        if o.sign() != Some(1) || Sym::ZERO.at_most(self) != Some(true) {
            return None;
        }
        let fits = |q: &Sym, r: &Sym| {
            q.integer_valued()
                && Sym::ZERO.at_most(r) == Some(true)
                && r.add(&Sym::constant(1)).ok().and_then(|r1| r1.at_most(o)) == Some(true)
        };
        if let Some((q, r)) = self.long_division(o)
            && fits(&q, &r)
        {
            return Some((q, r));
        }
        fits(&Sym::ZERO, self).then(|| (Sym::ZERO, self.clone()))
    }

    /// The fact that would decide the quotient or the remainder of `self` by
    /// `o` where [`Sym::div_rem_by`] does not: for a divisor `o` that is not
    /// a constant and a long division leaving an integer quotient `q` and a
    /// remainder `r` the facts prove non-negative, "needs to know whether
    /// r < o", with the declaration that would decide it (`3 % M` is 3 where
    /// `3 < M`); else the divisibility that would ("needs N divisible by 8").
    pub(crate) fn div_rem_fact(&self, o: &Sym) -> String {
        if o.as_const().is_none()
            && o.sign() == Some(1)
            && Sym::ZERO.at_most(self) == Some(true)
            && let Some((q, r)) = self.long_division(o)
            && q.integer_valued()
            && r.as_const().is_some_and(|r| r >= 0)
        {
            return format!("needs to know whether {r} < {o}{}", order_hint(&r, o));
        }
        divisibility_fact(self, o)
    }

    /// The coefficients in the `y`s (each unknown `x` of divisibility `d` as `d·y`).
    fn y_coefs(&self) -> impl Iterator<Item = Result<Rat>> + '_ {
        self.terms.iter().map(|t| {
            let mut c = t.coef;
            for &(a, e) in &t.mono {
                let d = atom_facts(a).1;
                for _ in 0..e {
                    c = c.mul(Rat::int(d))?;
                }
            }
            Ok(c)
        })
    }

    fn integer_valued(&self) -> bool {
        self.y_coefs().all(|c| c.is_ok_and(|c| c.is_int()))
    }

    /// The largest integer the facts prove divides the symbol for every value
    /// of the unknowns (CuTe DSL's `div`); 0 for zero, `|c|` for a constant.
    ///
    /// Pre: none. Post: `divisor() % n == 0` implies `divisible_by(n) == Some(true)`.
    ///
    /// ```
    /// use kute::sym::Sym;
    /// let m = Sym::var_div("M", 64).unwrap();
    /// assert_eq!(m.mul(&Sym::constant(4)).unwrap().divisor(), 256);
    /// ```
    pub fn divisor(&self) -> i64 {
        let mut g: i128 = 0;
        for c in self.y_coefs() {
            match c {
                Ok(c) if c.is_int() => g = gcd_i128(g, c.n),
                _ => return 1,
            }
        }
        i64::try_from(g).unwrap_or(1)
    }

    /// Is the symbol a multiple of `n`, for every value of the unknowns?
    ///
    /// Pre: none. Post: `Some(true)` when the facts prove it; `Some(false)` for a
    /// constant that is not (or when `n` is 0 and the symbol is not); `None` otherwise.
    ///
    /// ```
    /// use kute::sym::Sym;
    /// let m = Sym::var_div("M", 64).unwrap();
    /// assert_eq!(m.divisible_by(32), Some(true));
    /// assert_eq!(m.divisible_by(128), None);
    /// ```
    pub fn divisible_by(&self, n: i64) -> Decision {
        if let Some(c) = self.as_const() {
            return Some(if n == 0 { c == 0 } else { c % n == 0 });
        }
        if n == 0 {
            return self.sign().map(|s| s == 0);
        }
        let g = self.divisor();
        if g % n == 0 {
            Some(true)
        } else {
            None
        }
    }

    /// Least and greatest values where the facts bound them (see the module docs).
    fn bounds(&self) -> Bounds {
        self.bounds_in(&[])
    }

    /// [`Sym::bounds`] with the least value of one atom raised, `(atom, least)`:
    /// what a further declaration would decide.
    fn bounds_with(&self, raised: Option<(u32, i128)>) -> Bounds {
        self.bounds_in(raised.as_slice())
    }

    /// [`Sym::bounds`] with the least values of some unknowns raised.
    fn bounds_in(&self, raised: &[(u32, i128)]) -> Bounds {
        if MINS_MADE.load(Ordering::Relaxed)
            && let Some(b) = self.bounds_by_cases(raised)
        {
            return b;
        }
        self.z_expansion(raised).map_or((None, None), |z| {
            let constant = z.get(&Vec::new()).copied().unwrap_or(Rat::ZERO);
            let rest = || z.iter().filter(|(m, _)| !m.is_empty()).map(|(_, c)| c.signum());
            let lo = rest().all(|s| s >= 0).then_some(constant);
            let hi = rest().all(|s| s <= 0).then_some(constant);
            (lo, hi)
        })
    }

    /// The bounds over the cases of the first `min(x,c)` atom (see the module
    /// docs): the least of the cases' least values, the greatest of their
    /// greatest. `None` where there is no such atom, or too many cases.
    fn bounds_by_cases(&self, raised: &[(u32, i128)]) -> Option<Bounds> {
        let (a, x, c) = self.terms.iter().flat_map(|t| &t.mono).find_map(|&(a, _)| match atom(a) {
            AtomKind::Min(x, c) => Some((a, x, c)),
            _ => None,
        })?;
        let xa = x.as_unknown()?;
        let (declared, div) = atom_facts(xa);
        let least = raised.iter().find(|(r, _)| *r == xa).map_or(declared, |&(_, l)| l.max(declared));
        let others: Vec<(u32, i128)> = raised.iter().filter(|(r, _)| *r != xa).copied().collect();
        let put = |with: (u32, Sym)| self.replace_atoms(&Valuation { values: HashMap::new(), atoms: vec![with] });
        let mut cases = Vec::new();
        // x at each value below c (min(x,c) is x there)
        for v in values_between(xa, least, c as i128 - 1)? {
            cases.push(put((xa, Sym::constant(v))).ok()?.bounds_in(&others));
        }
        // x at least c: min(x,c) is c
        let mut from_c = others;
        from_c.push((xa, least.max((c as i128).checked_add(div - 1)? / div * div)));
        cases.push(put((a, Sym::constant(c))).ok()?.bounds_in(&from_c));
        // the least of the least values, the greatest of the greatest (unbounded
        // where one case is)
        let extreme = |pick: fn(&Bounds) -> Option<Rat>, want: std::cmp::Ordering| {
            let mut best: Option<Rat> = None;
            for b in &cases {
                let r = pick(b)?;
                best = Some(match best {
                    Some(m) if rat_cmp(r, m)? != want => m,
                    _ => r,
                });
            }
            best
        };
        let lo = extreme(|b| b.0, std::cmp::Ordering::Less);
        let hi = extreme(|b| b.1, std::cmp::Ordering::Greater);
        Some((lo, hi))
    }

    /// The polynomial in the `z`s, each atom `a` written `m_a·(1 + z_a)` with
    /// `m_a` its least value; `None` past a size budget or on overflow.
    fn z_expansion(&self, raised: &[(u32, i128)]) -> Option<HashMap<Mono, Rat>> {
        let raised_least = |a: u32| raised.iter().find(|(r, _)| *r == a).map(|&(_, l)| l);
        let least = |a: u32| match (raised_least(a), atom(a)) {
            (Some(l), _) => l,
            // min(x, c) is at least min(least(x), c)
            (_, AtomKind::Min(x, c)) => {
                let x = x.as_unknown().map_or(1, |x| raised_least(x).unwrap_or(atom_facts(x).0));
                x.min(c as i128).max(1)
            }
            // ceil_div(p, q) is at least ceil(least(p) / q) for a constant q > 0
            (_, AtomKind::CeilDiv(p, q)) => match (p.bounds_in(raised).0, q.as_const()) {
                (Some(lo), Some(q)) if q > 0 && lo.signum() > 0 => {
                    let q = q as i128;
                    ((lo.n + lo.d * q - 1) / (lo.d * q)).max(1)
                }
                _ => 1,
            },
            _ => atom_facts(a).0,
        };
        const BUDGET: usize = 4096;
        let mut out: HashMap<Mono, Rat> = HashMap::new();
        for t in &self.terms {
            // c·Π m^e · Π (1+z)^e = Σ over k ≤ e of c·Π m^e·C(e,k)·z^k
            let mut c = t.coef;
            for &(a, e) in &t.mono {
                for _ in 0..e {
                    c = c.mul(Rat::int(least(a))).ok()?;
                }
            }
            let mut partial: Vec<(Mono, Rat)> = vec![(Vec::new(), c)];
            for &(a, e) in &t.mono {
                let mut next = Vec::with_capacity(partial.len() * (e as usize + 1));
                for (m, c) in &partial {
                    let mut binom: i128 = 1;
                    for k in 0..=e {
                        let mut m2 = m.clone();
                        if k > 0 {
                            m2.push((a, k));
                        }
                        next.push((m2, c.mul(Rat::int(binom)).ok()?));
                        binom = binom.checked_mul((e - k) as i128)? / (k as i128 + 1);
                    }
                }
                if next.len() > BUDGET {
                    return None;
                }
                partial = next;
            }
            for (m, c) in partial {
                let slot = out.entry(m).or_insert(Rat::ZERO);
                *slot = slot.add(c).ok()?;
            }
        }
        Some(out)
    }

    /// The sign (-1, 0 or 1) for every value of the unknowns, where the facts decide it.
    ///
    /// Pre: none. Post: `Some(s)` when the symbol has sign `s` for every value
    /// the facts allow, `None` otherwise.
    ///
    /// ```
    /// use kute::sym::Sym;
    /// let m = Sym::var("M").unwrap();
    /// assert_eq!(m.sign(), Some(1));
    /// assert_eq!(m.sub(&Sym::constant(1)).unwrap().sign(), None); // 0 when M = 1
    /// assert_eq!(Sym::constant(1).sub(&m.mul(&m).unwrap()).unwrap().sign(), None);
    /// ```
    pub fn sign(&self) -> Option<i64> {
        if self.terms.is_empty() {
            return Some(0);
        }
        match self.bounds() {
            (Some(lo), _) if lo.signum() > 0 => Some(1),
            (_, Some(hi)) if hi.signum() < 0 => Some(-1),
            _ => None,
        }
    }

    /// `self` against `o` (-1 less, 0 equal, 1 greater) for every value of the
    /// unknowns, where the facts decide it.
    ///
    /// Pre: none. Post: as [`Sym::sign`] of `self - o`; `None` also on overflow.
    ///
    /// ```
    /// use kute::sym::Sym;
    /// let m = Sym::var_div("M", 8).unwrap();
    /// assert_eq!(m.compare(&Sym::constant(8)), None); // M may be 8
    /// assert_eq!(m.compare(&Sym::constant(7)), Some(1));
    /// ```
    pub fn compare(&self, o: &Sym) -> Option<i64> {
        self.sub(o).ok()?.sign()
    }

    /// `self <= o` for every value of the unknowns, where the facts decide it.
    ///
    /// Pre: none. Post: `Some(true)` when the facts prove `self <= o`,
    /// `Some(false)` when they prove `self > o`, `None` otherwise.
    ///
    /// ```
    /// use kute::sym::Sym;
    /// let n = Sym::var("N").unwrap();
    /// assert_eq!(Sym::constant(1).at_most(&n), Some(true));
    /// assert_eq!(Sym::constant(2).at_most(&n), None);
    /// ```
    pub fn at_most(&self, o: &Sym) -> Option<bool> {
        match self.sub(o).ok()?.bounds() {
            (_, Some(hi)) if hi.signum() <= 0 => Some(true),
            (Some(lo), _) if lo.signum() > 0 => Some(false),
            _ => None,
        }
    }

    /// CuTe's `ceil_div(self, o)`: the exact quotient where the facts prove
    /// one, 1 where `0 < self <= o`, else a `ceil_div(self,o)` term.
    ///
    /// Pre: `o` is not zero (else `DivisionByZero`); where it is not a
    /// constant, both are positive (else an `Undecided` error).
    /// Post: the ceiling of `self / o` for every value of the unknowns.
    ///
    /// ```
    /// use kute::sym::Sym;
    /// let m = Sym::var_div("M", 64).unwrap();
    /// assert_eq!(m.ceil_div(&Sym::constant(8)).unwrap().to_string(), "M/8");
    /// assert_eq!(Sym::constant(8).ceil_div(&m).unwrap().to_string(), "1");
    /// assert_eq!(Sym::var("N").unwrap().ceil_div(&Sym::constant(8)).unwrap().to_string(), "ceil_div(N,8)");
    /// ```
    pub fn ceil_div(&self, o: &Sym) -> Result<Sym> {
        if let (Some(a), Some(b)) = (self.as_const(), o.as_const()) {
            if b == 0 {
                return Err(Error::div_zero(format_args!("ceil_div({a}, 0)")));
            }
            let v = (a as i128 + b as i128 - 1) / b as i128;
            return Ok(Sym::from_rat(Rat::int(v)));
        }
        if let Some(q) = self.quotient(o)?
            && q.integer_valued()
        {
            return Ok(q);
        }
        if self.sign() != Some(1) || o.sign() != Some(1) {
            return Err(undecided("ceil_div", format!("needs {self} and {o} positive")));
        }
        if self.at_most(o) == Some(true) {
            return Ok(Sym::constant(1));
        }
        // one lock: a ceil_div made twice at once is still one atom
        let key = (self.clone(), o.clone());
        let mut t = table();
        let i = match t.ceil_index.get(&key) {
            Some(&i) => i,
            None => {
                let i = push_atom(&mut t, AtomKind::CeilDiv(self.clone(), o.clone()))?;
                t.ceil_index.insert(key, i);
                i
            }
        };
        drop(t);
        Ok(Sym { terms: vec![Term { mono: vec![(i, 1)], coef: Rat::ONE }] })
    }

    /// The smaller of `self` and `o` for every value of the unknowns: the one
    /// the facts prove the smaller; where they do not order one unknown `x`
    /// and an integer `c`, the symbol `min(x,c)` (printed so, and read back
    /// so by the expression language; CuTe DSL prints it `?`).
    ///
    /// Pre: the facts order the two, or one is a single unknown and the
    /// other an integer (else an `Undecided` error naming the comparison
    /// needed). Post: a symbol whose value is the smaller of the two values,
    /// at every valuation the facts allow.
    ///
    /// ```
    /// use kute::sym::{Sym, Valuation};
    /// let m = Sym::var("M").unwrap();
    /// let two = Sym::constant(2);
    /// let s = m.min(&two).unwrap();
    /// assert_eq!(s.to_string(), "min(M,2)");
    /// assert_eq!(s.dsl().to_string(), "?");
    /// assert_eq!(s.eval(&Valuation::from([("M", 1)])).unwrap(), 1);
    /// assert_eq!(s.eval(&Valuation::from([("M", 7)])).unwrap(), 2);
    /// // 2/min(M,2) is exact at every M: it is ceil_div(2,M)
    /// assert_eq!(two.div_exact(&s).unwrap().to_string(), "ceil_div(2,M)");
    /// assert_eq!(Sym::var_div("K", 4).unwrap().min(&two).unwrap().to_string(), "2");
    /// assert!(m.min(&Sym::var("N").unwrap()).is_err());
    /// ```
    pub fn min(&self, o: &Sym) -> Result<Sym> {
        if let (Some(a), Some(b)) = (self.as_const(), o.as_const()) {
            return Ok(Sym::constant(a.min(b)));
        }
        match self.at_most(o) {
            Some(true) => return Ok(self.clone()),
            Some(false) => return Ok(o.clone()),
            None => {}
        }
        let (x, c) = match (self.as_unknown(), o.as_const(), o.as_unknown(), self.as_const()) {
            (Some(_), Some(c), _, _) => (self, c),
            (_, _, Some(_), Some(c)) => (o, c),
            _ => {
                return Err(undecided("min", format!("needs to know whether {self} < {o}{}", order_hint(self, o))));
            }
        };
        // (x is positive and not ordered with c: c is at least 2)
        let key = (x.clone(), c);
        let mut t = table();
        let i = match t.min_index.get(&key) {
            Some(&i) => i,
            None => {
                let i = push_atom(&mut t, AtomKind::Min(x.clone(), c))?;
                t.min_index.insert(key, i);
                MINS_MADE.store(true, Ordering::Relaxed);
                i
            }
        };
        drop(t);
        Ok(Sym::of_atom(i))
    }

    /// `self` with the unknowns a partial valuation replaces put in
    /// ([`Valuation::replacing`]); the others stay.
    pub(crate) fn replace_atoms(&self, v: &Valuation) -> Result<Sym> {
        let mut out = Sym::ZERO;
        for t in &self.terms {
            let mut p = Sym::from_rat(t.coef);
            for &(a, e) in &t.mono {
                let r = match (v.atoms.iter().find(|(x, _)| *x == a), atom(a)) {
                    (Some((_, with)), _) => with.clone(),
                    (None, AtomKind::CeilDiv(n, d)) => n.replace_atoms(v)?.ceil_div(&d.replace_atoms(v)?)?,
                    (None, AtomKind::Min(x, c)) => x.replace_atoms(v)?.min(&Sym::constant(c))?,
                    (None, AtomKind::Var { .. }) => Sym::of_atom(a),
                };
                for _ in 0..e {
                    p = p.mul(&r)?;
                }
            }
            out = out.add(&p)?;
        }
        Ok(out)
    }

    /// The value for the given values of the unknowns (by name; an anonymous
    /// unknown by its printed name `?k`).
    ///
    /// Pre: every unknown has a value (else an `UnknownName` error), each a
    /// positive multiple of its declared divisibility (else `Inadmissible`),
    /// the result an integer fitting in `i64` (else `Overflow`).
    /// Post: the symbol's value there.
    ///
    /// ```
    /// use kute::sym::{Sym, Valuation};
    /// let m = Sym::var_div("M", 128).unwrap();
    /// let v = Valuation::from([("M", 384)]);
    /// assert_eq!(m.div_exact(&Sym::constant(128)).unwrap().eval(&v).unwrap(), 3);
    /// assert!(m.eval(&Valuation::from([("M", 100)])).is_err());
    /// ```
    pub fn eval(&self, v: &Valuation) -> Result<i64> {
        let mut acc = Rat::ZERO;
        for t in &self.terms {
            let mut c = t.coef;
            for &(a, e) in &t.mono {
                let x = eval_atom(a, v)?;
                for _ in 0..e {
                    c = c.mul(Rat::int(x as i128))?;
                }
            }
            acc = acc.add(c)?;
        }
        if !acc.is_int() {
            return Err(Error::inadmissible("substitute", format!("{self} is not an integer at these values")));
        }
        i64::try_from(acc.n).map_err(|_| overflow("value"))
    }

    /// The terms in the order they print: highest degree first, constant last.
    fn printing_order(&self) -> Vec<&Term> {
        let mut order: Vec<&Term> = self.terms.iter().collect();
        order.sort_by(|a, b| degree(&b.mono).cmp(&degree(&a.mono)).then(a.mono.cmp(&b.mono)));
        order
    }

    /// The symbol as a C expression of `long long` unknowns (an unknown's
    /// name; an unnamed one `u<k>`): `(c*M*N/d)` per term, exact where the
    /// facts make the symbol an integer; `ceil_div(p,q)` as `((p)+(q)-1)/(q)`,
    /// `min(x,c)` as `(x < c ? x : c)`.
    ///
    /// Pre: none. Post: C text; its value is the symbol's for the same values.
    ///
    /// ```
    /// use kute::sym::Sym;
    /// let m = Sym::var_div("M", 128).unwrap();
    /// let e = m.div_exact(&Sym::constant(128)).unwrap().add(&Sym::var("N").unwrap()).unwrap();
    /// assert_eq!(e.to_c(), "(M/128LL + N)");
    /// ```
    pub fn to_c(&self) -> String {
        if self.terms.is_empty() {
            return "0LL".to_string();
        }
        let mut out = String::from("(");
        for (k, t) in self.printing_order().iter().enumerate() {
            let (n, d) = (t.coef.n, t.coef.d);
            if k > 0 {
                out.push_str(if n < 0 { " - " } else { " + " });
            } else if n < 0 {
                out.push('-');
            }
            let n = n.unsigned_abs();
            let mut factors: Vec<String> = Vec::new();
            if n != 1 || t.mono.is_empty() {
                factors.push(format!("{n}LL"));
            }
            for &(a, e) in &t.mono {
                for _ in 0..e {
                    factors.push(c_atom(a));
                }
            }
            out.push_str(&factors.join("*"));
            if d != 1 {
                out.push_str(&format!("/{d}LL"));
            }
        }
        out.push(')');
        out
    }

    /// The unknowns as C parameters: (creation order, C name, divisibility),
    /// added to `out` where not there yet.
    pub(crate) fn c_unknowns(&self, out: &mut Vec<(u32, String, i64)>) {
        for (a, div) in self.unknown_atoms() {
            if !out.iter().any(|(b, _, _)| *b == a) {
                out.push((a, c_atom(a), div));
            }
        }
    }

    /// Prints the symbol as CuTe DSL does: `?`, or `?{div=N}` with its known
    /// divisor; a constant as its value.
    ///
    /// Pre: none. Post: a displayable value.
    ///
    /// ```
    /// use kute::sym::Sym;
    /// let m = Sym::var_div("M", 16).unwrap();
    /// assert_eq!(m.dsl().to_string(), "?{div=16}");
    /// ```
    pub fn dsl(&self) -> Dsl<'_> {
        Dsl(self)
    }

    /// The unknowns this symbol depends on, by printed name, each with its
    /// declared divisibility (the unknowns inside `ceil_div` and `min` terms included).
    ///
    /// Pre: none. Post: names without repetition, in order of first use.
    ///
    /// ```
    /// use kute::sym::Sym;
    /// let m = Sym::var_div("M", 8).unwrap();
    /// assert_eq!(m.mul(&Sym::var("K").unwrap()).unwrap().unknowns(), vec![("M".to_string(), 8), ("K".to_string(), 1)]);
    /// ```
    pub fn unknowns(&self) -> Vec<(String, i64)> {
        self.unknown_atoms().into_iter().map(|(a, div)| (atom_name(a), div)).collect()
    }

    /// The unknowns' atoms with their divisibility, without repetition, in
    /// order of first use (those inside `ceil_div` and `min` terms included).
    fn unknown_atoms(&self) -> Vec<(u32, i64)> {
        fn go(s: &Sym, out: &mut Vec<(u32, i64)>) {
            for t in &s.terms {
                for &(a, _) in &t.mono {
                    match atom(a) {
                        AtomKind::Var { div, .. } => {
                            if !out.iter().any(|&(b, _)| b == a) {
                                out.push((a, div));
                            }
                        }
                        AtomKind::CeilDiv(p, q) => {
                            go(&p, out);
                            go(&q, out);
                        }
                        AtomKind::Min(x, _) => go(&x, out),
                    }
                }
            }
        }
        let mut out = Vec::new();
        go(self, &mut out);
        out
    }
}

fn mono_mul(a: &Mono, b: &Mono) -> Result<Mono> {
    let mut out = a.clone();
    for &(i, e) in b {
        match out.iter_mut().find(|(j, _)| *j == i) {
            Some((_, f)) => *f = f.checked_add(e).ok_or_else(|| overflow("power"))?,
            None => out.push((i, e)),
        }
    }
    out.sort();
    Ok(out)
}

/// The graded lexicographic order: total degree, then the exponents of the
/// atoms in increasing index (the larger exponent of the first that differs).
fn grlex(a: &Mono, b: &Mono) -> std::cmp::Ordering {
    degree(a).cmp(&degree(b)).then_with(|| {
        let exp = |m: &Mono, i: u32| m.iter().find(|(j, _)| *j == i).map_or(0, |&(_, e)| e);
        let mut ids: Vec<u32> = a.iter().chain(b).map(|&(i, _)| i).collect();
        ids.sort_unstable();
        ids.dedup();
        ids.iter().map(|&i| exp(a, i).cmp(&exp(b, i))).find(|o| o.is_ne()).unwrap_or(std::cmp::Ordering::Equal)
    })
}

/// `a / b` as monomials, if `b` divides `a`.
fn mono_div(a: &Mono, b: &Mono) -> Option<Mono> {
    let mut out = a.clone();
    for &(i, e) in b {
        let k = out.iter().position(|(j, _)| *j == i)?;
        if out[k].1 < e {
            return None;
        }
        out[k].1 -= e;
        if out[k].1 == 0 {
            out.remove(k);
        }
    }
    Some(out)
}

fn eval_atom(a: u32, v: &Valuation) -> Result<i64> {
    match atom(a) {
        AtomKind::Var { div, least, ne, .. } => {
            let name = atom_name(a);
            let Some(&x) = v.values.get(&name) else {
                return Err(Error::new(ErrorKind::UnknownName, "substitute", format!("no value given for {name}")));
            };
            if x < least || x % div != 0 {
                return Err(Error::inadmissible(
                    "substitute",
                    format!("{name} = {x}, but {name} was declared a positive multiple of {div}, at least {least}"),
                ));
            }
            for r in ne.iter() {
                if r.eval(v)? == x {
                    return Err(Error::inadmissible(
                        "substitute",
                        format!("{name} = {x}, but {name} was declared unequal to {r}"),
                    ));
                }
            }
            Ok(x)
        }
        AtomKind::CeilDiv(p, q) => {
            let (a, b) = (p.eval(v)?, q.eval(v)?);
            if b == 0 {
                return Err(Error::div_zero(format_args!("ceil_div({a}, 0)")));
            }
            Ok(((a as i128 + b as i128 - 1) / b as i128) as i64)
        }
        AtomKind::Min(x, c) => Ok(x.eval(v)?.min(c)),
    }
}

/// An atom as C: an unknown's name (`u<k>` for an unnamed one), a
/// `ceil_div` as its formula.
fn c_atom(a: u32) -> String {
    match atom(a) {
        AtomKind::Var { name: Some(n), .. } => n,
        AtomKind::Var { name: None, .. } => format!("u{}", a + 1),
        AtomKind::CeilDiv(p, q) => {
            let (p, q) = (p.to_c(), q.to_c());
            format!("(({p} + {q} - 1LL) / {q})")
        }
        AtomKind::Min(x, c) => {
            let x = x.to_c();
            format!("({x} < {c}LL ? {x} : {c}LL)")
        }
    }
}

fn atom_name(a: u32) -> String {
    match atom(a) {
        AtomKind::Var { name: Some(n), .. } => n,
        AtomKind::Var { name: None, .. } => format!("?{}", a + 1),
        AtomKind::CeilDiv(p, q) => format!("ceil_div({p},{q})"),
        AtomKind::Min(x, c) => format!("min({x},{c})"),
    }
}

/// " (declare M = ?{min=K})" where `x` is one unknown whose least value would
/// decide `c < x` (or `x > c`): empty otherwise.
pub(crate) fn min_hint(c: &Sym, x: &Sym) -> String {
    let (Some(c), [Term { mono, coef }]) = (c.as_const(), &x.terms[..]) else { return String::new() };
    if mono.len() != 1 || mono[0].1 != 1 || *coef != Rat::ONE {
        return String::new();
    }
    declaration(mono[0].0, None, Some(c.saturating_add(1).max(1) as i128), None)
}

/// Cases that together cover every value of one unknown `x` the facts
/// allow: `x` equal to each of `excluded`, and `x` declared with its least
/// value raised to `least` or unequal to `more_ne` (which excludes exactly
/// that value). An undecided question that such a declaration decides
/// offers one ([`take_split`]): the expression language then answers each
/// case, and where the answers agree the answer holds for every `x`.
#[derive(Clone, Debug)]
pub(crate) struct Split {
    /// The unknown.
    pub(crate) x: Sym,
    /// The values the declaration excludes (at most [`MOST_EXCLUDED`]).
    pub(crate) excluded: Vec<Sym>,
    least: i128,
    more_ne: Option<Sym>,
}

impl Split {
    /// A new unknown, named as `x`, with `x`'s facts and the declaration.
    pub(crate) fn declared(&self) -> Result<Sym> {
        let Some(a) = self.x.as_unknown() else { return Err(refusal("split")) };
        let AtomKind::Var { name, div, ne, .. } = atom(a) else { return Err(refusal("split")) };
        let least = i64::try_from(self.least).map_err(|_| overflow("least value"))?;
        Sym::new_var_ne(name, div, least, ne.iter().cloned().chain(self.more_ne.clone()).collect())
    }
}

thread_local! {
    static LAST_SPLIT: std::cell::RefCell<Option<Split>> = const { std::cell::RefCell::new(None) };
}

/// The split offered by the last undecided question on this thread, taken.
pub(crate) fn take_split() -> Option<Split> {
    LAST_SPLIT.with(|s| s.borrow_mut().take())
}

/// How many values a split may exclude (each is a case to answer).
const MOST_EXCLUDED: i128 = 8;

fn offer_split(x: u32, excluded: Vec<Sym>, least: i128, more_ne: Option<Sym>) {
    let split = Split { x: Sym::of_atom(x), excluded, least, more_ne };
    LAST_SPLIT.with(|s| *s.borrow_mut() = Some(split));
}

/// " (declare M = ?{div=8,min=16,ne=LD})": the declaration of the unknown
/// `x` with its facts, its divisibility made `div`, its least value raised
/// to `least` or `ne` added (the facts not named kept).
fn declaration(x: u32, div: Option<i64>, least: Option<i128>, more_ne: Option<&Sym>) -> String {
    match facts_text(x, div, least, more_ne) {
        Some(facts) => format!(" (declare {} = {facts})", atom_name(x)),
        None => String::new(),
    }
}

/// "?{div=8,min=16,ne=LD}" ("?" with no facts): the unknown `x` as a
/// declaration writes it, changed as [`declaration`] says; `None` where `x`
/// is not an unknown.
fn facts_text(x: u32, div: Option<i64>, least: Option<i128>, more_ne: Option<&Sym>) -> Option<String> {
    let AtomKind::Var { div: declared_div, least: declared, ne, .. } = atom(x) else { return None };
    let div = div.unwrap_or(declared_div);
    let least = least.unwrap_or(declared as i128);
    let mut facts = Vec::new();
    if div > 1 {
        facts.push(format!("div={div}"));
    }
    if least > div as i128 {
        facts.push(format!("min={least}"));
    }
    facts.extend(ne.iter().chain(more_ne).map(|r| format!("ne={r}")));
    let body = if facts.is_empty() { String::new() } else { format!("{{{}}}", facts.join(",")) };
    Some(format!("?{body}"))
}

/// The declaration raising the least value of one unknown of `s` (by
/// multiples of its divisibility) that makes `decided` hold: empty where none does.
fn raised_least_hint(s: &Sym, decided: impl Fn(Option<(u32, i128)>) -> bool) -> String {
    for (x, _) in s.unknown_atoms() {
        let (declared, div) = atom_facts(x);
        // double the step until decided, then halve back to the least that decides
        let (mut lo, mut hi, mut step) = (declared, None, div);
        while let Some(l) = declared.checked_add(step).filter(|&l| l < 1 << 62) {
            if decided(Some((x, l))) {
                hi = Some(l);
                break;
            }
            lo = l;
            step *= 2;
        }
        let Some(mut hi) = hi else { continue };
        while hi - lo > div {
            let mid = lo + ((hi - lo) / div / 2).max(1) * div;
            if decided(Some((x, mid))) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        // the values below `hi` the facts allow, each a case, where few
        if (hi - declared) / div <= MOST_EXCLUDED {
            let below = (0..(hi - declared) / div).map(|k| Sym::constant((declared + k * div) as i64));
            offer_split(x, below.collect(), hi, None);
        }
        return declaration(x, None, Some(hi), None);
    }
    String::new()
}

/// The declaration that would decide whether `a` equals `b`: `x` unequal to
/// `r` where `a - b` is a multiple of `x - r`, else a least value that makes
/// one side greater; empty where kute finds none.
pub(crate) fn equality_hint(a: &Sym, b: &Sym) -> String {
    let Ok(d) = a.sub(b) else { return String::new() };
    // d = c·(x - r); the unknown declared last can name the other: try it first
    let mut offsets = d.offsets();
    offsets.sort_by_key(|&(x, _)| std::cmp::Reverse(x));
    for (x, r) in offsets {
        let AtomKind::Var { div, least, .. } = atom(x) else { continue };
        match r.as_const() {
            Some(k) if k == least => {
                let raised = least as i128 + div as i128;
                offer_split(x, vec![r.clone()], raised, None);
                return declaration(x, None, Some(raised), None);
            }
            Some(_) => {}
            None if r.as_unknown().is_some() => {}
            None => continue,
        }
        offer_split(x, vec![r.clone()], least as i128, Some(r.clone()));
        return declaration(x, None, None, Some(&r));
    }
    raised_least_hint(&d, |raised| {
        let (lo, hi) = d.bounds_with(raised);
        lo.is_some_and(|l| l.signum() > 0) || hi.is_some_and(|h| h.signum() < 0)
    })
}

/// The declaration that would decide whether `a < b`: [`min_hint`]'s, else a
/// least value of one unknown that decides it; empty where kute finds none.
pub(crate) fn order_hint(a: &Sym, b: &Sym) -> String {
    // a < b exactly when a + 1 - b <= 0
    let Ok(d) = a.add(&Sym::constant(1)).and_then(|a1| a1.sub(b)) else { return String::new() };
    let raised = raised_least_hint(&d, |raised| {
        let (lo, hi) = d.bounds_with(raised);
        lo.is_some_and(|l| l.signum() > 0) || hi.is_some_and(|h| h.signum() <= 0)
    });
    let hint = min_hint(a, b);
    if hint.is_empty() {
        raised
    } else {
        hint
    }
}

/// The error of an undecided question: `op`, and the fact that would decide it.
pub(crate) fn undecided(op: &'static str, fact: String) -> Error {
    Error::new(ErrorKind::Undecided, op, fact)
}

/// "needs p divisible by q", with the declaration that would give it where
/// `p` is one unknown and `q` a constant.
pub(crate) fn divisibility_fact(p: &Sym, q: &Sym) -> String {
    let hint = match (&p.terms[..], q.as_const()) {
        ([Term { mono, coef }], Some(c)) if mono.len() == 1 && mono[0].1 == 1 && coef.is_int() => {
            match atom(mono[0].0) {
                AtomKind::Var { div, .. } => {
                    let need = c as i128 / gcd_i128(c as i128, coef.n).max(1);
                    let l = need / gcd_i128(need, div as i128) * div as i128;
                    declaration(mono[0].0, i64::try_from(l).ok(), None, None)
                }
                _ => String::new(),
            }
        }
        _ => String::new(),
    };
    format!("needs {p} divisible by {q}{hint}")
}

/// The facts declared for an unknown (kute's `?{div=N,min=K,ne=X}`): a
/// multiple of `div`, at least `min`, unequal to each of `ne`.
///
/// ```
/// let f = kute::sym::Facts { div: 8, ..Default::default() };
/// assert_eq!(kute::sym::Sym::unknown_with(None, f).unwrap().divisor(), 8);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Facts {
    /// The divisibility (1: none).
    pub div: i64,
    /// The least value (1: none).
    pub min: i64,
    /// Values it is declared unequal to: integers or other unknowns.
    pub ne: Vec<Sym>,
}

impl Default for Facts {
    fn default() -> Self {
        Facts { div: 1, min: 1, ne: Vec::new() }
    }
}

/// Values of unknowns, by name: what [`Sym::eval`] and the layouts'
/// `substitute` read.
///
/// ```
/// let v = kute::sym::Valuation::from([("M", 384), ("N", 64)]);
/// assert_eq!(v.get("N"), Some(64));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Valuation {
    values: HashMap<String, i64>,
    /// Unknowns replaced by symbols (a case of a split): a valuation with
    /// these leaves the other unknowns in place.
    atoms: Vec<(u32, Sym)>,
}

impl Valuation {
    /// No values. Pre: none. Post: empty.
    ///
    /// ```
    /// assert_eq!(kute::sym::Valuation::new().get("M"), None);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Gives `name` the value `x`. Pre: none. Post: `get(name) == Some(x)`.
    ///
    /// ```
    /// let mut v = kute::sym::Valuation::new();
    /// v.set("M", 4);
    /// assert_eq!(v.get("M"), Some(4));
    /// ```
    pub fn set(&mut self, name: &str, x: i64) {
        self.values.insert(name.to_string(), x);
    }

    /// The valuation that replaces the unknown `x` (one atom) by `with`,
    /// leaving every other unknown in place.
    pub(crate) fn replacing(x: &Sym, with: Sym) -> Option<Self> {
        Some(Valuation { values: HashMap::new(), atoms: vec![(x.as_unknown()?, with)] })
    }

    /// Whether this valuation replaces some unknowns by symbols (see [`Valuation::replacing`]).
    pub(crate) fn is_partial(&self) -> bool {
        !self.atoms.is_empty()
    }

    /// The value of `name`. Pre: none. Post: the value set, if any.
    ///
    /// ```
    /// assert_eq!(kute::sym::Valuation::from([("K", 2)]).get("K"), Some(2));
    /// ```
    pub fn get(&self, name: &str) -> Option<i64> {
        self.values.get(name).copied()
    }
}

impl<const N: usize> From<[(&str, i64); N]> for Valuation {
    fn from(xs: [(&str, i64); N]) -> Self {
        Valuation { values: xs.iter().map(|&(k, v)| (k.to_string(), v)).collect(), atoms: Vec::new() }
    }
}

/// [`Sym::dsl`]: the symbol as CuTe DSL prints it.
pub struct Dsl<'a>(&'a Sym);

impl fmt::Display for Dsl<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(c) = self.0.as_const() {
            return write!(f, "{c}");
        }
        match self.0.divisor() {
            d if d > 1 => write!(f, "?{{div={d}}}"),
            _ => f.write_str("?"),
        }
    }
}

/// Total degree, for the order terms print in (highest first, constant last).
fn degree(m: &Mono) -> u32 {
    m.iter().map(|&(_, e)| e).sum()
}

fn write_mono(f: &mut fmt::Formatter<'_>, m: &Mono) -> fmt::Result {
    let mut first = true;
    for &(a, e) in m {
        for _ in 0..e {
            if !first {
                f.write_str("*")?;
            }
            first = false;
            f.write_str(&atom_name(a))?;
        }
    }
    Ok(())
}

impl fmt::Display for Sym {
    /// The symbol with its names, `*`, `/` (exact), `+`, `-`, `ceil_div` and `min`:
    /// text that parses back (with the names bound) to the same symbol.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.terms.is_empty() {
            return f.write_str("0");
        }
        for (k, t) in self.printing_order().iter().enumerate() {
            let (n, d) = (t.coef.n, t.coef.d);
            if n < 0 {
                f.write_str("-")?;
            } else if k > 0 {
                f.write_str("+")?;
            }
            let n = n.unsigned_abs();
            if t.mono.is_empty() {
                write!(f, "{n}")?;
            } else {
                if n != 1 {
                    write!(f, "{n}*")?;
                }
                write_mono(f, &t.mono)?;
            }
            if d != 1 {
                write!(f, "/{d}")?;
            }
        }
        Ok(())
    }
}

/// Whether an operation's operands hold a symbol (asked only once this
/// process has made one: one load otherwise). An operation that takes
/// symbols skips its fast run then: the fast runs read integers by value.
#[inline(always)]
pub(crate) fn present(has_symbols: impl FnOnce() -> bool) -> bool {
    any_made() && has_symbols()
}

thread_local! {
    /// Whether integers print as CuTe DSL prints them ([`as_dsl`]).
    static DSL_PRINTING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with every integer printed as CuTe DSL prints it: a symbol as
/// `?` or `?{div=N}` (its known divisor), a concrete integer without the
/// static mark; so `as_dsl(|| layout.to_string())` is the layout as the DSL
/// prints it, for comparison and for pasting into DSL code.
///
/// Pre: none. Post: `f`'s result; the printing mode as it was before.
///
/// ```
/// use kute::expr::{eval_line, Env};
/// let mut env = Env::new();
/// eval_line(&mut env, "M = ?{div=128}").unwrap();
/// let l = eval_line(&mut env, "logical_divide((M,_64):(_1,M),(_128,_64))").unwrap();
/// assert_eq!(l.to_string(), "((_128,M/128),(_64,_1)):((_1,_128),(M,_0))");
/// assert_eq!(kute::sym::as_dsl(|| l.to_string()), "((128,?),(64,1)):((1,128),(?{div=128},0))");
/// ```
pub fn as_dsl<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            DSL_PRINTING.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(DSL_PRINTING.with(|c| c.replace(true)));
    f()
}

/// Whether integers print as the DSL prints them now (inside [`as_dsl`]).
pub(crate) fn dsl_printing() -> bool {
    DSL_PRINTING.with(|c| c.get())
}

/// The guard of an operation that does not yet take symbolic operands: an
/// `Undecided` error naming it when `has_symbols` finds one (asked only once
/// this process has made a symbol: one load otherwise).
///
/// Pre: none. Post: `Ok(())`, or the error.
#[inline(always)]
pub(crate) fn refuse(op: &'static str, has_symbols: impl FnOnce() -> bool) -> Result<()> {
    if present(has_symbols) {
        return Err(refusal(op));
    }
    Ok(())
}

/// The error of an operation that takes no symbolic operands (yet).
#[cold]
#[inline(never)]
pub(crate) fn refusal(op: &'static str) -> Error {
    Error::new(ErrorKind::Undecided, op, "takes no symbolic operands yet")
}
