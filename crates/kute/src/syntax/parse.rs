//! Tokenizer and recursive-descent parser: text to [`Expr`].
//!
//! The grammar is small (CuTe's printed notation plus calls), so it is parsed
//! by hand: every error carries the byte span it points at. Nothing here knows
//! what a layout is; meaning is given by [`super::literal`] or the evaluator.

use crate::error::{Error, Result};

/// A node of the syntax tree, with its byte span in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    /// What the node is.
    pub kind: ExprKind,
    /// Byte offsets `[start, end)` in the source text.
    pub span: (usize, usize),
}

/// The kinds of syntax nodes.
///
/// Non-exhaustive: new literal kinds may be added (match with a `_` arm).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExprKind {
    /// An integer literal: `8` (dynamic), `_8` or `Int<8>{}` (static).
    Int {
        /// The value.
        value: i64,
        /// Written static?
        is_static: bool,
    },
    /// A scaled basis element (a stride of CuTe's coordinate layouts):
    /// `3@1`, `_3@1`, `-1@0`, `_2@0@1`. Written without spaces around `@`.
    Basis {
        /// The scale.
        value: i64,
        /// Scale written static (`_3@1`)?
        is_static: bool,
        /// The `@` indices in the order written, innermost first as CuTe
        /// prints them: `_2@0@1` has path `[0, 1]`.
        path: Vec<u32>,
    },
    /// `_`.
    Underscore,
    /// `(a, b, ...)`; `(a)` is a rank-1 tuple and `()` the empty tuple.
    Tuple(Vec<Expr>),
    /// `<a, b, ...>`: a by-mode tiler.
    Tile(Vec<Expr>),
    /// `shape:stride`.
    Layout(Box<Expr>, Box<Expr>),
    /// `name<targs...>(args...)`, or `name<targs...>{}` (a value-initialised
    /// CuTe type such as `E<1,0>{}`, which has no arguments).
    Call {
        /// Function name.
        name: String,
        /// Template arguments (`take<1,3>`, `recast_layout<uint8_t,half_t>`).
        targs: Vec<TemplateArg>,
        /// Arguments.
        args: Vec<Expr>,
    },
    /// A bare name: `LayoutLeft{}`, `LayoutRight{}`, or a variable bound in a session.
    Name(String),
    /// Application `f(args...)` of a value, e.g. `L(5)` or `L(_,1)`.
    Apply(Box<Expr>, Vec<Expr>),
    /// A composed layout in CuTe's printed form, `A o offset o B`
    /// (`Sw<3,4,3> o _0 o (_8,_64):(_64,_1)`); a chain nests to the right.
    Composed(Box<Expr>, Box<Expr>, Box<Expr>),
    /// An unknown positive integer, CuTe DSL's printed forms: `?` (a new
    /// one), `?{div=N}` (a new one known to be a multiple of N), or `?k`
    /// (the unnamed unknown numbered `k`, as kute prints one).
    Unknown {
        /// The divisibility declared (`{div=N}`), 1 if none.
        div: i64,
        /// The least value declared (`{min=K}`, kute's own), 1 if none.
        min: i64,
        /// `?k`: an existing unknown's number.
        id: Option<u32>,
        /// What it is declared unequal to (`{ne=X}`, kute's own): integers
        /// or names of other unknowns, as written.
        ne: Vec<String>,
    },
    /// Integer arithmetic `a + b`, `a - b`, `a * b`, `a / b` (`/` is C++'s
    /// truncating division, exact on symbols); `-a` is `0 - a`.
    Arith(char, Box<Expr>, Box<Expr>),
}

/// A template argument: an integer (`take<1,3>`) or a type name
/// (`recast_layout<uint8_t,half_t>`). Which a function takes is the
/// evaluator's business, not the parser's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplateArg {
    /// An integer, written `1`, `_1` or `-1` (its static mark carries no meaning).
    Int(i64),
    /// A type name such as `uint8_t` or `half_t`.
    Type(String),
}

impl std::fmt::Display for TemplateArg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TemplateArg::Int(v) => write!(f, "{v}"),
            TemplateArg::Type(t) => f.write_str(t),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Int(i64, bool),
    /// `?`, `?{div=N,min=K,ne=X}` or `?k`: the divisibility, the least value,
    /// the number and what it is unequal to.
    Unknown(i64, i64, Option<u32>, Vec<String>),
    /// A scaled basis literal: scale, static mark, `@` path.
    Basis(i64, bool, Vec<u32>),
    /// `{}` after a template argument list (`E<1,0>{}`).
    Braces,
    Under,
    Ident(String),
    P(char),
}

struct Lexer;

impl Lexer {
    fn lex(src: &str) -> Result<Vec<(Tok, usize, usize)>> {
        let b = src.as_bytes();
        let mut i = 0;
        let mut out = Vec::new();
        while i < b.len() {
            let c = b[i];
            if c.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            let start = i;
            // after an operand, '-' is subtraction (`M-1`); elsewhere it starts a number
            let after_operand = matches!(
                out.last(),
                Some((Tok::Int(..) | Tok::Basis(..) | Tok::Ident(_) | Tok::Unknown(..) | Tok::P(')'), _, _))
            );
            let digit_follows = b.get(i + 1).is_some_and(|d| d.is_ascii_digit());
            if c == b'-' && (after_operand || !digit_follows) {
                out.push((Tok::P('-'), start, i + 1));
                i += 1;
                continue;
            }
            if c == b'?' {
                i += 1;
                let digits = i;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                let id = match i > digits {
                    true => Some(
                        src[digits..i]
                            .parse::<u32>()
                            .map_err(|_| Error::parse("unknown number does not fit in 32 bits", start, i))?,
                    ),
                    false => None,
                };
                let (mut div, mut min, mut ne) = (1, 1, Vec::new());
                if id.is_none() && i < b.len() && b[i] == b'{' {
                    let close = src[i..]
                        .find('}')
                        .map(|k| i + k)
                        .ok_or_else(|| Error::parse("expected '}' closing ?{div=N}", start, b.len()))?;
                    let bad = || {
                        Error::parse(
                            "expected ?{div=N}, ?{min=K}, ?{ne=X} or several, ?{div=N,min=K,ne=X}, with N and K \
                             positive integers and X an integer or a name",
                            start,
                            close + 1,
                        )
                    };
                    for fact in src[i + 1..close].split(',') {
                        let (key, value) = fact.split_once('=').ok_or_else(bad)?;
                        let (key, value) = (key.trim(), value.trim());
                        if key == "ne" {
                            let name = value.chars().all(|c| c.is_alphanumeric() || c == '_');
                            let int = value.parse::<i64>().is_ok();
                            if value.is_empty() || !(name || int) {
                                return Err(bad());
                            }
                            ne.push(value.to_string());
                            continue;
                        }
                        let value = value.parse::<i64>().ok().filter(|&d| d >= 1).ok_or_else(bad)?;
                        // a repeated fact adds to the others: a multiple of 6
                        // and of 4 is one of 12, and the least value is the
                        // largest of the least values
                        match key {
                            "div" => {
                                div = lcm(div, value).ok_or_else(|| {
                                    Error::parse(
                                        format!("div={div} and div={value}: their least common multiple does not fit in 64 bits"),
                                        start,
                                        close + 1,
                                    )
                                })?
                            }
                            "min" => min = min.max(value),
                            _ => return Err(bad()),
                        }
                    }
                    i = close + 1;
                }
                out.push((Tok::Unknown(div, min, id, ne), start, i));
                continue;
            }
            if c == b'_' || c == b'-' || c.is_ascii_digit() {
                let is_static = c == b'_';
                if is_static {
                    i += 1;
                }
                let num_start = i;
                if i < b.len() && b[i] == b'-' {
                    i += 1;
                }
                let digits = i;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                if i == digits {
                    if is_static && i == num_start && !(i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_')) {
                        out.push((Tok::Under, start, i));
                        continue;
                    }
                    if is_static && i == num_start {
                        // an identifier starting with '_'
                        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                            i += 1;
                        }
                        out.push((Tok::Ident(src[start..i].to_string()), start, i));
                        continue;
                    }
                    return Err(Error::parse("expected digits after '-'", start, i.max(start + 1)));
                }
                let text = &src[num_start..i];
                let v: i64 = text
                    .parse()
                    .map_err(|_| Error::parse(format!("integer {text} does not fit in 64 bits"), start, i))?;
                if i + 1 < b.len() && b[i] == b'{' && b[i + 1] == b'}' && is_static {
                    i += 2;
                }
                if i < b.len() && b[i] == b'@' {
                    let (path, end) = Self::basis_path(src, i)?;
                    i = end;
                    out.push((Tok::Basis(v, is_static, path), start, i));
                    continue;
                }
                if i < b.len() && (b[i].is_ascii_alphabetic() || b[i] == b'_') {
                    return Err(Error::parse("unexpected character after a number", i, i + 1));
                }
                out.push((Tok::Int(v, is_static), start, i));
                continue;
            }
            if c.is_ascii_alphabetic() {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let name = &src[start..i];
                // Int<N>{}, C<N>{}
                if (name == "Int" || name == "C") && i < b.len() && b[i] == b'<' {
                    let mut j = i + 1;
                    while j < b.len() && b[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    let ns = j;
                    if j < b.len() && b[j] == b'-' {
                        j += 1;
                    }
                    while j < b.len() && b[j].is_ascii_digit() {
                        j += 1;
                    }
                    let text = &src[ns..j];
                    while j < b.len() && b[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if j + 2 < b.len() && b[j] == b'>' && b[j + 1] == b'{' && b[j + 2] == b'}' {
                        let v: i64 = text.parse().map_err(|_| Error::parse("bad Int<N>{} literal", start, j + 3))?;
                        out.push((Tok::Int(v, true), start, j + 3));
                        i = j + 3;
                        continue;
                    }
                    if name == "Int" {
                        return Err(Error::parse("expected Int<N>{}", start, j.min(b.len()).max(start + 1)));
                    }
                    // `C<...>` that is not an integer: a name
                    out.push((Tok::Ident(name.to_string()), start, i));
                    continue;
                }
                if i + 1 < b.len() && b[i] == b'{' && b[i + 1] == b'}' {
                    i += 2;
                }
                out.push((Tok::Ident(src[start..i].trim_end_matches("{}").to_string()), start, i));
                continue;
            }
            if c == b'{' && i + 1 < b.len() && b[i + 1] == b'}' {
                out.push((Tok::Braces, start, i + 2));
                i += 2;
                continue;
            }
            if matches!(c, b'(' | b')' | b',' | b':' | b'<' | b'>' | b'=' | b'+' | b'*' | b'/') {
                out.push((Tok::P(c as char), start, i + 1));
                i += 1;
                continue;
            }
            let ch = src[i..].chars().next().unwrap_or('?');
            return Err(Error::parse(format!("unexpected character '{ch}'"), i, i + ch.len_utf8()));
        }
        Ok(out)
    }

    /// The `@i@j...` path of a basis literal starting at `src[at] == '@'`,
    /// and the end of the literal.
    fn basis_path(src: &str, mut at: usize) -> Result<(Vec<u32>, usize)> {
        let b = src.as_bytes();
        let mut path = Vec::new();
        while at < b.len() && b[at] == b'@' {
            let digits = at + 1;
            let mut j = digits;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if j == digits {
                return Err(Error::parse("expected a mode index after '@'", at, (at + 2).min(b.len()).max(at + 1)));
            }
            let text = &src[digits..j];
            let i: u32 = text
                .parse()
                .map_err(|_| Error::parse(format!("mode index {text} does not fit in 32 bits"), digits, j))?;
            path.push(i);
            at = j;
        }
        if at < b.len() && (b[at].is_ascii_alphabetic() || b[at] == b'_') {
            return Err(Error::parse("unexpected character after a scaled basis", at, at + 1));
        }
        Ok((path, at))
    }
}

/// Deepest syntax accepted: room for a layout of `MAX_DEPTH` levels inside a few calls.
const MAX_NESTING: usize = crate::tree::MAX_DEPTH + 8;

/// How an arithmetic operand is read: with its applications (a value) or
/// without (a stride, whose applications are the layout's).
type Operand<P> = fn(&mut P) -> Result<Expr>;

struct Parser<'s> {
    toks: Vec<(Tok, usize, usize)>,
    pos: usize,
    len: usize,
    depth: usize,
    _src: &'s str,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }
    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.pos + k).map(|t| &t.0)
    }
    fn here(&self) -> (usize, usize) {
        match self.toks.get(self.pos) {
            Some(t) => (t.1, t.2),
            None => (self.len, self.len + 1),
        }
    }
    fn prev_end(&self) -> usize {
        if self.pos == 0 {
            0
        } else {
            self.toks[self.pos - 1].2
        }
    }
    fn expect(&mut self, c: char) -> Result<()> {
        if self.peek() == Some(&Tok::P(c)) {
            self.pos += 1;
            return Ok(());
        }
        let (s, e) = self.here();
        let found = match self.peek() {
            None => "the end of the expression".to_string(),
            Some(Tok::P(p)) => format!("'{p}'"),
            Some(Tok::Int(v, st)) => format!("'{}{v}'", if *st { "_" } else { "" }),
            Some(Tok::Basis(v, st, path)) => {
                let at: String = path.iter().map(|i| format!("@{i}")).collect();
                format!("'{}{v}{at}'", if *st { "_" } else { "" })
            }
            Some(Tok::Braces) => "'{}'".to_string(),
            Some(Tok::Unknown(..)) => "'?'".to_string(),
            Some(Tok::Under) => "'_'".to_string(),
            Some(Tok::Ident(n)) => format!("'{n}'"),
        };
        Err(Error::parse(format!("expected '{c}', found {found}"), s, e))
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            let (s, e) = self.here();
            return Err(Error::parse(format!("nesting deeper than {MAX_NESTING} levels"), s, e));
        }
        Ok(())
    }

    /// value := part ('o' part 'o' value)?, where a trailing application of
    /// the last part applies to the whole composed layout (as CuTe prints it).
    fn value(&mut self) -> Result<Expr> {
        let start = self.here().0;
        let a = self.part(true)?;
        if !self.at_compose() {
            return Ok(a);
        }
        self.enter()?;
        self.pos += 1;
        let off = self.part(true)?;
        if !self.at_compose() {
            let (s, e) = self.here();
            return Err(Error::parse("expected 'o' and the inner layout of a composed layout A o offset o B", s, e));
        }
        self.pos += 1;
        let b = if self.chain_follows() { self.value()? } else { self.part(false)? };
        let mut c =
            Expr { span: (start, self.prev_end()), kind: ExprKind::Composed(Box::new(a), Box::new(off), Box::new(b)) };
        self.applications(start, &mut c)?;
        self.depth -= 1;
        Ok(c)
    }

    /// `::NAME` (a member or namespace step), consumed; its name, and whether
    /// `{}` followed it (the lexer keeps `NAME{}` as one identifier).
    fn member(&mut self) -> Option<(String, bool)> {
        match (self.peek(), self.peek_at(1), self.peek_at(2)) {
            (Some(Tok::P(':')), Some(Tok::P(':')), Some(Tok::Ident(n))) => {
                let n = n.clone();
                let (start, end) = (self.toks[self.pos + 2].1, self.toks[self.pos + 2].2);
                self.pos += 3;
                Some((n, self._src.get(start..end).is_some_and(|t| t.ends_with("{}"))))
            }
            _ => None,
        }
    }

    /// The template arguments after a `<` already consumed, to the closing `>`:
    /// integers and types (`take<1,3>`, `Copy_Atom<UniversalCopy<uint128_t>,half_t>`).
    fn template_args(&mut self) -> Result<Vec<TemplateArg>> {
        let mut out = Vec::new();
        loop {
            match self.peek().cloned() {
                Some(Tok::Int(v, _)) => {
                    self.pos += 1;
                    out.push(TemplateArg::Int(v));
                }
                Some(Tok::Ident(_)) => out.push(TemplateArg::Type(self.type_arg()?)),
                _ => {
                    let (a, b) = self.here();
                    return Err(Error::parse("expected an integer or a type as template argument", a, b));
                }
            }
            if self.peek() == Some(&Tok::P(',')) {
                self.pos += 1;
                continue;
            }
            self.expect('>')?;
            return Ok(out);
        }
    }

    /// A type as a template argument, as text without spaces:
    /// `half_t`, `UniversalCopy<uint128_t>`, `GMMA::Major::K`.
    fn type_arg(&mut self) -> Result<String> {
        self.enter()?;
        let Some(Tok::Ident(name)) = self.peek().cloned() else {
            let (a, b) = self.here();
            return Err(Error::parse("expected a type name", a, b));
        };
        self.pos += 1;
        let mut text = name;
        loop {
            if self.peek() == Some(&Tok::P('<')) {
                self.pos += 1;
                let parts: Vec<String> = self.template_args()?.iter().map(|t| t.to_string()).collect();
                text = format!("{text}<{}>", parts.join(","));
            }
            match self.member() {
                Some((m, _)) => text = format!("{text}::{m}"),
                None => break,
            }
        }
        self.depth -= 1;
        Ok(text)
    }

    /// The end of [`Parser::primary`]: its depth given back.
    fn done(&mut self, r: Result<Expr>) -> Result<Expr> {
        self.depth -= 1;
        r
    }

    /// Whether the next token is the composition operator `o`.
    fn at_compose(&self) -> bool {
        matches!(self.peek(), Some(Tok::Ident(n)) if n == "o")
    }

    /// Whether another `o` follows the next part at this level (the inner part
    /// is itself a composed layout), found by skipping one balanced part.
    fn chain_follows(&self) -> bool {
        let mut k = self.pos;
        let mut depth = 0i64;
        while let Some((t, _, _)) = self.toks.get(k) {
            match t {
                Tok::P('(') | Tok::P('<') => depth += 1,
                Tok::P(')') | Tok::P('>') => {
                    if depth == 0 {
                        return false;
                    }
                    depth -= 1
                }
                Tok::P(',') if depth == 0 => return false,
                Tok::Ident(n) if n == "o" && depth == 0 => return true,
                _ => {}
            }
            k += 1;
        }
        false
    }

    /// part := postfix (':' primary ('(' args ')')*)?; without `apply`, a
    /// layout's trailing applications are left to the caller.
    fn part(&mut self, apply: bool) -> Result<Expr> {
        let start = self.here().0;
        let v = self.sum(Self::postfix)?;
        if self.peek() != Some(&Tok::P(':')) {
            return Ok(v);
        }
        self.pos += 1;
        // a stride's own applications would be the layout's: operands are primaries
        let stride = self.sum(Self::primary)?;
        let mut l = Expr { span: (start, self.prev_end()), kind: ExprKind::Layout(Box::new(v), Box::new(stride)) };
        if apply {
            self.applications(start, &mut l)?;
        }
        Ok(l)
    }

    /// sum := product (('+' | '-') product)*, over operands read by `operand`.
    fn sum(&mut self, operand: Operand<Self>) -> Result<Expr> {
        self.left_assoc(&['+', '-'], Self::product, operand)
    }

    /// product := unary (('*' | '/') unary)*; unary := '-' unary | operand.
    fn product(&mut self, operand: Operand<Self>) -> Result<Expr> {
        self.left_assoc(&['*', '/'], Self::unary, operand)
    }

    /// `next (op next)*` for the operators `ops`, associating to the left;
    /// each link nests the syntax tree one level deeper, so it counts
    /// against the nesting limit.
    fn left_assoc(
        &mut self,
        ops: &[char],
        next: fn(&mut Self, Operand<Self>) -> Result<Expr>,
        operand: Operand<Self>,
    ) -> Result<Expr> {
        let start = self.here().0;
        let base = self.depth;
        let mut v = next(self, operand)?;
        while let Some(&Tok::P(op)) = self.peek().filter(|t| matches!(t, Tok::P(c) if ops.contains(c))) {
            self.enter()?;
            self.pos += 1;
            let r = next(self, operand)?;
            v = Expr { span: (start, self.prev_end()), kind: ExprKind::Arith(op, Box::new(v), Box::new(r)) };
        }
        self.depth = base;
        Ok(v)
    }

    fn unary(&mut self, operand: Operand<Self>) -> Result<Expr> {
        let (s, e) = self.here();
        if self.peek() == Some(&Tok::P('-')) {
            self.enter()?;
            self.pos += 1;
            let x = self.unary(operand)?;
            let zero = Expr { span: (s, e), kind: ExprKind::Int { value: 0, is_static: false } };
            self.depth -= 1;
            return Ok(Expr { span: (s, self.prev_end()), kind: ExprKind::Arith('-', Box::new(zero), Box::new(x)) });
        }
        operand(self)
    }

    /// A chain of applications `v(..)(..)`: each link nests the syntax tree one
    /// level deeper, so it counts against the nesting limit.
    fn applications(&mut self, start: usize, v: &mut Expr) -> Result<()> {
        let base = self.depth;
        while self.peek() == Some(&Tok::P('(')) {
            self.enter()?;
            let args = self.args('(', ')')?;
            let f = std::mem::replace(v, Expr { span: (0, 0), kind: ExprKind::Underscore });
            *v = Expr { span: (start, self.prev_end()), kind: ExprKind::Apply(Box::new(f), args) };
        }
        self.depth = base;
        Ok(())
    }

    fn postfix(&mut self) -> Result<Expr> {
        let start = self.here().0;
        let mut v = self.primary()?;
        self.applications(start, &mut v)?;
        Ok(v)
    }

    fn args(&mut self, open: char, close: char) -> Result<Vec<Expr>> {
        self.expect(open)?;
        let mut out = Vec::new();
        if self.peek() == Some(&Tok::P(close)) {
            self.pos += 1;
            return Ok(out);
        }
        loop {
            out.push(self.value()?);
            if self.peek() == Some(&Tok::P(',')) {
                self.pos += 1;
                continue;
            }
            self.expect(close)?;
            return Ok(out);
        }
    }

    fn primary(&mut self) -> Result<Expr> {
        self.enter()?;
        let (s, e) = self.here();
        let r = match self.peek().cloned() {
            Some(Tok::P('(')) => {
                let items = self.args('(', ')')?;
                Ok(Expr { span: (s, self.prev_end()), kind: ExprKind::Tuple(items) })
            }
            Some(Tok::P('<')) => {
                let items = self.args('<', '>')?;
                if items.is_empty() {
                    return Err(Error::parse("a tiler needs at least one mode", s, self.prev_end()));
                }
                Ok(Expr { span: (s, self.prev_end()), kind: ExprKind::Tile(items) })
            }
            Some(Tok::Under) => {
                self.pos += 1;
                Ok(Expr { span: (s, e), kind: ExprKind::Underscore })
            }
            Some(Tok::Int(value, is_static)) => {
                self.pos += 1;
                Ok(Expr { span: (s, e), kind: ExprKind::Int { value, is_static } })
            }
            Some(Tok::Basis(value, is_static, path)) => {
                self.pos += 1;
                Ok(Expr { span: (s, e), kind: ExprKind::Basis { value, is_static, path } })
            }
            Some(Tok::Unknown(div, min, id, ne)) => {
                self.pos += 1;
                Ok(Expr { span: (s, e), kind: ExprKind::Unknown { div, min, id, ne } })
            }
            Some(Tok::Ident(name)) => {
                self.pos += 1;
                let mut targs = Vec::new();
                // a qualified name, `SM120::SPARSE::Op<...>{}`, `UMMA::tile_to_mma_shape(...)`:
                // the namespaces are part of the name
                let mut name = name;
                let mut member_braces = false;
                while !member_braces && self.peek() == Some(&Tok::P(':')) {
                    let Some((member, braces)) = self.member() else { break };
                    name = format!("{name}::{member}");
                    member_braces = braces;
                }
                // `E<>{}`: an empty template argument list names a type
                let empty_targs = !member_braces
                    && self.peek() == Some(&Tok::P('<'))
                    && self.peek_at(1) == Some(&Tok::P('>'))
                    && self.peek_at(2) == Some(&Tok::Braces);
                if empty_targs {
                    self.pos += 2;
                }
                if !member_braces
                    && self.peek() == Some(&Tok::P('<'))
                    && matches!(self.peek_at(1), Some(Tok::Int(..) | Tok::Ident(_)))
                {
                    self.pos += 1;
                    targs = self.template_args()?;
                }
                // a member type, `MMA_Traits<Op>::ALayout`: the call is named
                // `MMA_Traits::ALayout`, its template arguments those of the class
                while let Some((member, braces)) = self.member() {
                    name = format!("{name}::{member}");
                    member_braces = braces;
                }
                if member_braces {
                    // `MMA_Traits<Op>::ALayout{}`: a value-initialised member type
                    return self.done(Ok(Expr {
                        span: (s, self.prev_end()),
                        kind: ExprKind::Call { name, targs, args: Vec::new() },
                    }));
                }
                if self.peek() == Some(&Tok::P('(')) {
                    let args = self.args('(', ')')?;
                    Ok(Expr { span: (s, self.prev_end()), kind: ExprKind::Call { name, targs, args } })
                } else if self.peek() == Some(&Tok::Braces) && (empty_targs || !targs.is_empty()) {
                    // a value-initialised type, `E<1,0>{}`: a call without arguments
                    self.pos += 1;
                    Ok(Expr { span: (s, self.prev_end()), kind: ExprKind::Call { name, targs, args: Vec::new() } })
                } else if !targs.is_empty() && name == "Sw" {
                    // CuTe's printed swizzle `Sw<3,4,3>`: a value, as `Swizzle<3,4,3>{}`
                    Ok(Expr { span: (s, self.prev_end()), kind: ExprKind::Call { name, targs, args: Vec::new() } })
                } else if !targs.is_empty() {
                    let (a, b) = self.here();
                    Err(Error::parse(format!("expected '(' after {name}<...>"), a, b))
                } else {
                    Ok(Expr { span: (s, e), kind: ExprKind::Name(name) })
                }
            }
            Some(Tok::P(c)) => Err(Error::parse(format!("unexpected '{c}'"), s, e)),
            Some(Tok::Braces) => Err(Error::parse("unexpected '{}'", s, e)),
            None => Err(Error::parse("unexpected end of expression", s, e)),
        };
        self.depth -= 1;
        r
    }
}

/// Parse one expression.
///
/// Pre: `src` is one well-formed expression, nested at most `MAX_DEPTH + 8`
/// levels (else a `Parse` error with the span of the offending text), of at
/// most [`MAX_SOURCE`](crate::limits::MAX_SOURCE) bytes (else a `Limit` error).
/// Post: its syntax tree; spans are byte ranges of `src`.
///
/// ```
/// let e = kute::syntax::parse("logical_divide(24:2, 4:2)").unwrap();
/// assert_eq!(e.span, (0, 25));
/// assert!(kute::syntax::parse("(2,3").is_err());
/// ```
pub fn parse(src: &str) -> Result<Expr> {
    if src.len() > crate::limits::MAX_SOURCE {
        return Err(Error::limit(
            "parse",
            format!(
                "the text is {} bytes long, past kute's limit of {} for one expression",
                src.len(),
                crate::limits::MAX_SOURCE
            ),
        ));
    }
    let toks = Lexer::lex(src)?;
    let mut p = Parser { toks, pos: 0, len: src.len(), depth: 0, _src: src };
    if p.toks.is_empty() {
        return Err(Error::parse("empty expression", 0, 1));
    }
    let v = p.value()?;
    if p.pos < p.toks.len() {
        let (s, e) = p.here();
        return Err(Error::parse("unexpected text after the expression", s, e));
    }
    Ok(v)
}

/// Split `name = expr` (a binding) from a plain expression.
///
/// Pre: none. Post: `Some((name, rest))` when the text before the first `=`,
/// trimmed, is an ASCII identifier (a letter, then letters, digits or `_`);
/// `rest` is the text after that `=`, untrimmed. `None` otherwise.
///
/// ```
/// assert_eq!(kute::syntax::split_binding("A = (4,6):(6,1)"), Some(("A", " (4,6):(6,1)")));
/// assert_eq!(kute::syntax::split_binding("size(A)"), None);
/// ```
pub fn split_binding(src: &str) -> Option<(&str, &str)> {
    let eq = src.find('=')?;
    let name = src[..eq].trim();
    let ok = !name.is_empty()
        && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ok {
        Some((name, &src[eq + 1..]))
    } else {
        None
    }
}

/// The least common multiple of two positive integers, `None` past `i64`.
/// (Its gcd is `crate::arith`'s, which is below every layer: the parser stays
/// below the layer of values, `Int`.)
fn lcm(a: i64, b: i64) -> Option<i64> {
    (a / crate::arith::gcd_i64(a, b)).checked_mul(b)
}
