//! The interactive session: line editing and history (rustyline), bindings,
//! `:` commands and completion of function names.

use crate::session::Session;
use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::FileHistory;
use rustyline::validate::Validator;
use rustyline::{Config, Context, Editor, Helper};
use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

/// The session's commands, shown by `:help` and `kute repl --help`.
pub const HELP: &str = "\
Commands:
  EXPR                  evaluate an expression, e.g. logical_divide(24:2, 4:2)
  NAME = EXPR           evaluate and bind a name, e.g. A = (4,6):(6,1)
  :table EXPR           CuTe's print_layout table of a layout
  :latex EXPR           CuTe's print_latex TikZ picture of a layout
  :svg FILE EXPR        write an SVG picture of a layout to FILE
  :explain EXPR         how a call is derived, step by step: composition, complement,
                        coalesce, a divide, a product, right_inverse, left_inverse
                        or make_layout
  :env                  list the bound names (as lines that bind them again)
  :help [NAME]          this help and every function; with NAME, its call forms
                        (with the start of names, the functions that start so)
  :help atoms           the MMA and copy atoms kute knows
  :quit                 leave (also :q, :exit, Ctrl-D)
  help, quit, exit      the same, without the colon (unless bound as names)
  A; B                  statements separated by ';', as in the playground

Example session:
  kute> A = (4,6):(6,1)
  (4,6):(6,1)
  kute> logical_divide(A, (2,2))
  ((2,2),(2,3)):((6,12),(1,2))
  kute> :table A

History is kept in $KUTE_HISTORY, or else ~/.kute_history. Tab completes names and
lists the candidates.";

const COMMANDS: &[&str] = &[":table", ":latex", ":svg", ":explain", ":env", ":help", ":quit", ":exit"];

/// What the loop does after a line.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// Leave the session.
    Quit,
}

/// Run the interactive session until `:quit` or end of input. Returns whether
/// the last line succeeded.
pub fn run(session: Session) -> anyhow::Result<bool> {
    let interactive = io::stdin().is_terminal();
    let config = Config::builder()
        .auto_add_history(true)
        .max_history_size(5000)?
        .history_ignore_dups(true)?
        .completion_type(rustyline::CompletionType::List)
        .build();
    let mut rl: Editor<KuteHelper, FileHistory> = Editor::with_config(config)?;
    rl.set_helper(Some(KuteHelper::default()));
    let history = history_path();
    if interactive {
        if let Some(h) = &history {
            let _ = rl.load_history(h);
        }
        println!(
            "kute {}: CuTe layout algebra. :help lists commands and functions, :quit leaves.",
            env!("CARGO_PKG_VERSION")
        );
    }
    let mut repl = Repl { session };
    let mut ok = true;
    loop {
        match rl.readline("kute> ") {
            Ok(line) => {
                let stdout = io::stdout();
                let stderr = io::stderr();
                let (flow, good) = repl.line(&line, &mut stdout.lock(), &mut stderr.lock())?;
                ok = good;
                if let Some(h) = rl.helper_mut() {
                    h.names = repl.session.env.keys().cloned().collect();
                }
                if flow == Flow::Quit {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(e.into()),
        }
    }
    if interactive && let Some(h) = &history {
        let _ = rl.save_history(h);
    }
    Ok(ok)
}

fn history_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("KUTE_HISTORY") {
        return Some(PathBuf::from(p));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".kute_history"))
}

/// The state of a session and the handling of one line.
pub struct Repl {
    /// Bindings.
    pub session: Session,
}

impl Repl {
    /// Handle one line, writing answers to `out` and errors to `err`. Returns
    /// what to do next and whether the line succeeded.
    pub fn line(&mut self, line: &str, out: &mut impl Write, err: &mut impl Write) -> io::Result<(Flow, bool)> {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            return Ok((Flow::Continue, true));
        }
        // `help`, `quit` and `exit` without the colon, unless the session binds the
        // word or the line binds it
        let (word, _) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
        let bare = matches!(word, "help" | "quit" | "exit")
            && !self.session.env.contains_key(word)
            && kute::expr::split_binding(t).is_none();
        let colon = format!(":{t}");
        let t = if bare { colon.as_str() } else { t };
        let Some(cmd) = t.strip_prefix(':') else {
            return match self.session.eval_line(line) {
                Ok(v) => {
                    for note in self.session.notes.drain(..) {
                        writeln!(err, "{note}")?;
                    }
                    writeln!(out, "{v}").map(|_| (Flow::Continue, true))
                }
                Err(f) => writeln!(err, "{}", f.render()).map(|_| (Flow::Continue, false)),
            };
        };
        let (name, rest) = cmd.split_once(char::is_whitespace).unwrap_or((cmd, ""));
        let rest = rest.trim();
        let ok = match name {
            "q" | "quit" | "exit" => return Ok((Flow::Quit, true)),
            "h" | "help" | "?" => help(rest, out, err)?,
            "env" => {
                for line in crate::session::listing(&self.session.env) {
                    writeln!(out, "{line}")?;
                }
                true
            }
            "table" | "latex" if rest.is_empty() => usage(err, &format!(":{name} EXPR"))?,
            "table" | "latex" => {
                let kind = if name == "table" { "table" } else { "latex" };
                match crate::render(&mut self.session, rest, kind) {
                    Ok(text) => out.write_all(text.as_bytes()).map(|_| true)?,
                    Err(f) => writeln!(err, "{}", f.render()).map(|_| false)?,
                }
            }
            "explain" if rest.is_empty() => usage(err, ":explain EXPR")?,
            "explain" => match kute::explain::explain_in(rest, &self.session.env) {
                Ok(e) => out.write_all(e.text.as_bytes()).map(|_| e.error.is_none())?,
                Err(e) => writeln!(err, "{}", crate::session::Failure::new(rest, e).render()).map(|_| false)?,
            },
            "svg" => match rest.split_once(char::is_whitespace) {
                None => usage(err, ":svg FILE EXPR")?,
                Some((file, src)) => match crate::render(&mut self.session, src.trim(), "svg") {
                    Ok(text) => match fs::write(file, text) {
                        Ok(()) => writeln!(out, "wrote {file}").map(|_| true)?,
                        Err(e) => writeln!(err, "error: cannot write {file}: {e}").map(|_| false)?,
                    },
                    Err(f) => writeln!(err, "{}", f.render()).map(|_| false)?,
                },
            },
            other => {
                let hint = kute::expr::nearest(other, COMMANDS.iter().map(|c| &c[1..]))
                    .map(|c| format!("; did you mean :{c}?"))
                    .unwrap_or_default();
                writeln!(err, "error: unknown command :{other}{hint} (:help lists the commands)")?;
                false
            }
        };
        Ok((Flow::Continue, ok))
    }
}

fn usage(err: &mut impl Write, form: &str) -> io::Result<bool> {
    writeln!(err, "usage: {form}")?;
    Ok(false)
}

/// `:help` (commands and every function), `:help NAME`, or `:help PREFIX`
/// (the functions whose names start so).
fn help(topic: &str, out: &mut impl Write, err: &mut impl Write) -> io::Result<bool> {
    let funcs = kute::expr::FUNCTIONS;
    if topic == "atoms" {
        write!(out, "{}", crate::atoms())?;
        return Ok(true);
    }
    if !topic.is_empty() {
        if let Some(f) = kute::expr::lookup(topic) {
            writeln!(out, "{}: {}\n  {}", f.name, crate::summary(f), f.signature)?;
            return Ok(true);
        }
        let starting: Vec<_> = funcs.iter().filter(|f| f.names().any(|n| n.starts_with(topic))).collect();
        if starting.is_empty() {
            let hint = kute::expr::nearest(topic, funcs.iter().flat_map(|f| f.names()))
                .map(|n| format!("; did you mean {n}?"))
                .unwrap_or_default();
            writeln!(err, "error: no function named {topic}{hint} (:help lists them)")?;
            return Ok(false);
        }
        let w = starting.iter().map(|f| f.name.len()).max().unwrap_or(0);
        for f in starting {
            writeln!(out, "  {:<w$}  {}", f.name, crate::summary(f))?;
        }
        return Ok(true);
    }
    writeln!(out, "{HELP}\n\nFunctions (:help NAME shows the call forms):")?;
    let w = funcs.iter().map(|f| f.name.len()).max().unwrap_or(0);
    for f in funcs {
        writeln!(out, "  {:<w$}  {}", f.name, crate::summary(f))?;
    }
    Ok(true)
}

/// Completes function names, bound names and `:` commands.
#[derive(Default)]
pub struct KuteHelper {
    /// The names bound in the session.
    pub names: Vec<String>,
}

impl Completer for KuteHelper {
    type Candidate = Pair;

    fn complete(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        let head = &line[..pos];
        let start = head.rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':')).map_or(0, |i| i + 1);
        let word = &head[start..];
        if word.is_empty() {
            return Ok((pos, Vec::new()));
        }
        let pair = |s: &str| Pair { display: s.to_string(), replacement: s.to_string() };
        let mut found: Vec<Pair> = if word.starts_with(':') {
            COMMANDS.iter().filter(|c| c.starts_with(word)).map(|c| pair(c)).collect()
        } else {
            kute::expr::FUNCTIONS
                .iter()
                .flat_map(|f| f.names())
                // the registry's names are 'static, the session's are not: one item type
                .map(|n| -> &str { n })
                .chain(self.names.iter().map(String::as_str))
                .filter(|n| n.starts_with(word))
                .map(pair)
                .collect()
        };
        found.sort_by(|a, b| a.display.cmp(&b.display));
        found.dedup_by(|a, b| a.display == b.display);
        Ok((start, found))
    }
}

impl Hinter for KuteHelper {
    type Hint = String;
}
impl Highlighter for KuteHelper {}
impl Validator for KuteHelper {}
impl Helper for KuteHelper {}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_lines(lines: &[&str]) -> (String, String, Vec<bool>) {
        let mut r = Repl { session: Session::default() };
        let (mut out, mut err, mut oks) = (Vec::new(), Vec::new(), Vec::new());
        for l in lines {
            let (_, ok) = r.line(l, &mut out, &mut err).unwrap();
            oks.push(ok);
        }
        (String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap(), oks)
    }

    #[test]
    fn bindings_and_commands() {
        let (out, err, oks) = run_lines(&["A = (4,6):(6,1)", "logical_divide(A, (2,2))", ":table (2,2):(1,2)", ":env"]);
        assert_eq!(err, "");
        assert_eq!(oks, [true; 4]);
        assert!(out.starts_with("(4,6):(6,1)\n((2,2),(2,3)):((6,12),(1,2))\n(2,2):(1,2)\n      0   1 \n"), "{out}");
        assert!(out.ends_with("A = (4,6):(6,1)\n"), "{out}");
    }

    /// `:env` lists an unknown with its facts, as it was declared, and each
    /// line it prints declares the same binding again.
    #[test]
    fn env_lists_unknowns_with_their_facts() {
        let lines = ["M = ?{div=8}", "N = ?", "K = ?{div=4,min=64,ne=N}", "P = M", "E = 2*M", "A = (M,N):(_1,M)"];
        let (out, err, _) = run_lines(&[&lines[..], &[":env"]].concat());
        assert_eq!(err, "");
        let listed: Vec<&str> = out.lines().skip(lines.len()).collect();
        let want = ["M = ?{div=8}", "N = ?", "K = ?{div=4,min=64,ne=N}", "A = (M,N):(_1,M)", "E = 2*M", "P = M"];
        assert_eq!(listed, want, "{out}");
        // the whole listing, read back line by line in a new session, binds
        // the same names to values that list the same, unknowns renamed too
        for lines in [&lines[..], &["M = ?", "L = (M,_4):(_1,M)", "M = M*2", "A = ?", "B = ?{ne=A}", "A = (A,B)"]] {
            let (out, _, _) = run_lines(&[lines, &[":env"]].concat());
            let listed: Vec<&str> = out.lines().skip(lines.len()).collect();
            let (again, err, oks) = run_lines(&[&listed[..], &[":env"]].concat());
            assert_eq!((err.as_str(), oks.iter().all(|&ok| ok)), ("", true), "{listed:?}");
            assert_eq!(again.lines().skip(listed.len()).collect::<Vec<_>>(), listed, "{lines:?}");
        }
        // read back, the listing binds unknowns with the same facts: M/8
        // is decided, M/16 is not, K is at least 64 and unequal to N
        let mut r = Repl { session: Session::default() };
        let (mut o, mut e) = (Vec::new(), Vec::new());
        for l in ["N = ?", "M = ?{div=8}", "K = ?{div=4,min=64,ne=N}"] {
            assert!(listed.contains(&l));
            r.line(l, &mut o, &mut e).unwrap();
        }
        for (line, ok) in
            [("M/8", true), ("M/16", false), ("idx2crd(63,(K,_2))", true), ("coalesce((N,_2):(_1,K))", true)]
        {
            assert_eq!(r.line(line, &mut o, &mut e).unwrap().1, ok, "{line}");
        }
    }

    /// Binding an unknown's name anew renames the unknown the earlier values
    /// show, and says so.
    #[test]
    fn an_unknown_renamed_is_noted() {
        let (out, err, oks) = run_lines(&["M = ?", "L = (M,_4):(_1,M)", "M = M*2", "L", "M = 3"]);
        assert_eq!(oks, [true; 5]);
        assert_eq!(out, "M\n(M,_4):(_1,M)\n2*M_1\n(M_1,_4):(_1,M_1)\n3\n");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("note: the unknown M is renamed M_1"), "{err}");
    }

    #[test]
    fn help_lists_every_function() {
        let (out, _, _) = run_lines(&[":help"]);
        for f in kute::expr::FUNCTIONS {
            assert!(out.contains(f.summary), "{}", f.name);
        }
        let (out, _, _) = run_lines(&[":help composition"]);
        assert!(out.contains("composition(A, B)"), "{out}");
        // an alias finds its function, and the listing names it
        let (out, _, oks) = run_lines(&[":help make_stride"]);
        assert_eq!(oks, [true]);
        assert!(out.starts_with("make_shape: a tuple (also make_stride, "), "{out}");
    }

    #[test]
    fn help_atoms_lists_the_atoms() {
        let (out, err, oks) = run_lines(&[":help atoms", "help atoms"]);
        assert_eq!((err.as_str(), oks), ("", vec![true, true]));
        for f in kute::atom::traits::atom_catalog() {
            assert!(out.contains(&format!("  {}", f.form)), "{}", f.form);
        }
        assert_eq!(out.matches("MMA atoms:").count(), 2, "{out}");
        // a misspelt atom gets the nearest name
        let (_, err, oks) = run_lines(&["Copy_Atom<SM75_U32x4_LDSM_M,half_t>{}"]);
        assert_eq!(oks, [false]);
        assert!(err.contains("did you mean 'SM75_U32x4_LDSM_N'?"), "{err}");
    }

    #[test]
    fn words_without_the_colon_and_prefixes() {
        let (out, _, oks) = run_lines(&["help", "help composition", "help logical_", "help zzz_nothing"]);
        assert_eq!(oks, [true, true, true, false]);
        assert!(out.contains("Commands:") && out.contains("composition(A, B)"), "{out}");
        // a prefix lists the functions that start so, and only those
        let (out, _, _) = run_lines(&["help logical_"]);
        let listed: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix("  logical_")).collect();
        assert_eq!(listed.len(), kute::expr::FUNCTIONS.iter().filter(|f| f.name.starts_with("logical_")).count());
        let mut r = Repl { session: Session::default() };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(r.line("exit", &mut out, &mut err).unwrap(), (Flow::Quit, true));
        assert_eq!(r.line("  quit ", &mut out, &mut err).unwrap(), (Flow::Quit, true));
        // a bound name is a name
        assert_eq!(r.line("help = 4", &mut out, &mut err).unwrap(), (Flow::Continue, true));
        assert_eq!(r.line("help", &mut out, &mut err).unwrap(), (Flow::Continue, true));
        assert!(String::from_utf8(out).unwrap().ends_with("4\n4\n"));
        // statements separated by ';'
        let (out, _, oks) = run_lines(&["A = (2,2):(1,2); size(A)"]);
        assert_eq!((out.as_str(), oks[0]), ("4\n", true));
    }

    #[test]
    fn quit_and_errors() {
        let mut r = Repl { session: Session::default() };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(r.line(":quit", &mut out, &mut err).unwrap(), (Flow::Quit, true));
        assert_eq!(r.line(":frobnicate", &mut out, &mut err).unwrap(), (Flow::Continue, false));
        assert_eq!(r.line(":svg onlyafile", &mut out, &mut err).unwrap(), (Flow::Continue, false));
        assert_eq!(r.line("(2,3", &mut out, &mut err).unwrap(), (Flow::Continue, false));
        let err = String::from_utf8(err).unwrap();
        assert!(err.contains("unknown command :frobnicate (:help"), "{err}");
        assert!(err.contains("usage: :svg FILE EXPR"));
        assert!(err.contains("  (2,3\n"), "{err}");
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(r.line(":tabel (4,2):(1,4)", &mut out, &mut err).unwrap(), (Flow::Continue, false));
        let err = String::from_utf8(err).unwrap();
        assert!(err.contains("unknown command :tabel; did you mean :table?"), "{err}");
    }

    #[test]
    fn completion() {
        let h = KuteHelper { names: vec!["tileA".into()] };
        let hist = rustyline::history::DefaultHistory::new();
        let ctx = Context::new(&hist);
        let (start, c) = h.complete("logical_d", 9, &ctx).unwrap();
        assert_eq!(start, 0);
        assert_eq!(c.iter().map(|p| p.display.as_str()).collect::<Vec<_>>(), ["logical_divide"]);
        let (start, c) = h.complete("size(til", 8, &ctx).unwrap();
        assert_eq!(start, 5);
        assert!(c.iter().any(|p| p.display == "tileA") && c.iter().any(|p| p.display == "tile_to_shape"));
        // aliases complete too
        let (_, c) = h.complete("make_st", 7, &ctx).unwrap();
        assert_eq!(c.iter().map(|p| p.display.as_str()).collect::<Vec<_>>(), ["make_step", "make_stride"]);
        let (_, c) = h.complete(":ta", 3, &ctx).unwrap();
        assert_eq!(c[0].display, ":table");
    }
}
