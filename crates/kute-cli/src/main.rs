//! `kute`: evaluate CuTe layout-algebra expressions, print layouts as CuTe's
//! tables and TikZ pictures, draw them as SVG, or explore them interactively.

mod json;
mod repl;
mod session;

use anyhow::Context as _;
use clap::{CommandFactory, Parser, Subcommand};
use session::Session;
use std::ffi::OsString;
use std::fs;
use std::io::{self, BufRead, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

const ABOUT: &str = "Evaluate and draw CuTe layouts and layout algebra";

const LONG_ABOUT: &str = "\
kute evaluates expressions of CuTe's layout algebra and prints the answers exactly as
CuTe's C++ prints them. Integers are dynamic (8) or static (_8); layouts are written
shape:stride; tilers <A,B>; functions have CuTe's names (composition, logical_divide, ...).

With no arguments, kute starts an interactive session on a terminal, and reads one
expression per line (like `kute eval -`) when its input is a pipe or a file. A first
argument that is not a command is an expression: `kute EXPR...` is `kute eval EXPR...`.";

const EXAMPLES: &str = "\
Examples:
  kute 'logical_divide(24:2, 4:2)'          # same as: kute eval 'logical_divide(24:2, 4:2)'
  kute eval 'A = (4,6):(6,1)' 'logical_divide(A, <2,2>)'
  kute eval - < expressions.txt             # one answer (or error) per line
  kute table '(2,(2,2)):(4,(2,1))'          # CuTe's print_layout
  kute latex '(_2,_3):(_3,_1)' > l.tex      # CuTe's print_latex
  kute svg 'blocked_product((2,2):(1,2), (3,4):(1,3))' -o layout.svg
  kute analyze conflicts '(_8,_64):(_64,_1)' --elem-bytes 2 --access column:16
  kute functions                            # every function, with its call forms
  kute                                      # interactive session";

const EVAL_EXAMPLES: &str = "\
Examples:
  kute eval 'composition((_6,_2):(_8,_2), (_4,_3):(_3,_1))'
  kute eval 'coalesce((2,(1,6)):(1,(6,2)))' 'complement(4:2, 24)'
  kute eval 'A = (4,6):(6,1)' 'logical_divide(A, <2,2>)'
  printf 'size(8:1)\\n(2,3\\n' | kute eval -

Batch mode (`-`) prints exactly one line per input line, in order: the answer, or
`error: <message>`. Blank lines and lines starting with # come out as blank lines;
`NAME = expr` binds a name and prints its value. The exit status is 1 if any line
failed, else 0.";

const TABLE_EXAMPLES: &str = "\
Examples:
  kute table '(2,(2,2)):(4,(2,1))'
  kute table 'logical_divide(16:1, 4:1)'
  kute table '8:2'                           # rank 1: one column
  kute table 'A = (4,6):(6,1)' 'A' 'logical_divide(A, <2,3>)'   # bindings, several tables

The output is byte-identical to CuTe's print_layout: the layout, a header of column
indices, then one row per coordinate of mode 0. Hierarchical modes are indexed
colexicographically. Rank 1 gives one column, as CuTe's print_latex draws it;
rank 3 or more is an error.";

const LATEX_EXAMPLES: &str = "\
Examples:
  kute latex '(_2,_3):(_3,_1)' > layout.tex && pdflatex layout.tex
  kute latex 'raked_product((2,2):(1,2), (2,3):(1,2))'

The output is byte-identical to CuTe's print_latex (a standalone TikZ document, cells
shaded with CuTe's 8-grey palette). A rank-1 layout is drawn as one column, as CuTe
does.";

const SVG_EXAMPLES: &str = "\
Examples:
  kute svg '(2,(2,2)):(4,(2,1))' -o layout.svg
  kute svg 'zipped_divide((8,8):(8,1), <2,4>)' > divided.svg
  kute svg 'Sw<3,3,3> o _0 o (_8,_64):(_64,_1)' --banks 2 -o sw128.svg   # cells by bank
  kute svg '(_8,_64):(_64,_1)' --banks 2 --access column:16 -o ldsm.svg   # one warp's ldmatrix
  kute svg 'make_tiled_mma(SM90_64x256x16_F32F16F16_SS{})' -o wgmma.svg   # compact: 0.3 MB
  kute svg 'make_tiled_mma(SM90_64x256x16_F32F16F16_SS{})' --cute        # CuTe's print_svg: 6 MB

Each cell shows its index, shaded with CuTe's LaTeX palette; rows and columns are
labelled with their index and, for nested modes, their natural coordinate. A rank-1
layout is drawn as one column.";

const F2_EXAMPLES: &str = "\
Examples:
  kute f2 'Sw<3,4,3> o _0 o (_8,_64):(_64,_1)'
  kute f2 'Sw<3,4,3>'                       # a swizzle alone: on its 10 bits
  kute f2 '(_4,_8):(_8,_1)'
  kute f2 --from-linear '{\"dim0\": [64, 144, 288], \"dim1\": [1, 2, 4, 8, 16, 32]}'

A layout of size 2^n is xor-linear when each value is the xor of the values of its
coordinate's set bits (swizzles are). Its bit matrix has one column per input bit
(the bit's value) and one row per output bit, lowest first. Triton's linear-layout
form lists, per input dimension (the layout's modes: dim0, dim1, ...), the value of
each of its bits. --from-linear goes back: a plain layout when no two basis vectors
share a bit, else a swizzled one. A map that is not xor-linear is an error.";

const ANALYZE_EXAMPLES: &str = "\
Examples:
  kute analyze conflicts '(_8,_64):(_64,_1)' --elem-bytes 2 --access column:16
  kute analyze conflicts 'Sw<3,3,3> o _0 o (_8,_64):(_64,_1)' --elem-bytes 2 --access row:16
  kute analyze conflicts 'Sw<3,4,3> o _0 o (_8,_64):(_64,_1)' --elem-bytes 2 --access column --swizzle-on-bytes
  kute analyze conflicts '(_32,_32):(_32,_1)' --elem-bytes 4 --access '(_32,_1):(_1,_0)'   # a column: 32-way
  kute analyze vector '(_8,_64):(_64,_1)' --elem-bytes 2 --access row:32
  kute analyze swizzle --tile 8,64 --elem-bytes 2 --major row --write row:16 --read column:16

LAYOUT maps a tile coordinate to an element offset (a kute expression: a layout, or a
swizzled layout `Sw<B,M,S> o offset o layout`, its swizzle on element offsets unless
--swizzle-on-bytes says it acts on byte addresses, as in CuTe's GMMA and UMMA atoms).

ACCESS is what one warp of 32 threads reads or writes, either a TV layout (an
expression of shape (threads, values) giving the tile coordinate of thread t's value v;
threads past 32 are ignored) or a pattern of a rank-2 tile (R, C):
  T[/D][:BYTES]   T, D: row or column; BYTES per thread (default 16)
The tile is cut into vectors of BYTES/elem-bytes elements along D (along the row unless
given); thread t takes vector t, counting the vectors row by row (T = row) or column
by column (T = column). So `row:16` is a row-by-row 16-byte store of a row-major tile
and `column:16` what ldmatrix reads from a K-major one (threads 0-7: 16 bytes of rows
0-7, threads 8-15 the next 16 bytes of the same rows, ...).

Bank model: 32 banks of 4 bytes; each thread's values are cut into the widest aligned
contiguous vectors (at most 16 bytes, the same width for the whole warp), one
instruction per vector; an instruction of 8 bytes per thread runs in 2 phases of 16
threads, of 16 bytes in 4 phases of 8; a phase costs the most distinct 4-byte words
one bank holds (a word read by several threads is a broadcast). The ideal is
ceil(bytes / 128). `swizzle` tries Sw<B,M,S> composed with the row- or column-major
tile and keeps the one with the fewest wavefronts over the accesses (each keeping its
vector width), the smallest B on ties, and names the CuTe GMMA / UMMA atom it equals.";

const EXPLAIN_EXAMPLES: &str = "\
Examples:
  kute explain 'logical_divide(24:2, 4:2)'
  kute explain 'composition(20:2, (4,5):(1,4))' 'complement((2,2):(1,6), 24)'
  kute explain 'logical_product((2,2):(1,2), (3,4):(1,3))'
  kute explain 'composition((6,4):(1,7), 4:4)'    # the step that fails, and why
  kute explain 'right_inverse((4,2):(2,1))' 'make_layout(4:1, 2:4)'

Each step is computed by kute: the complement (with the indices the divisor reaches and
the offsets of its repeats), the concatenation, the composition leaf by leaf with CuTe's
base case a:b o c:d = c:b.d, and the operation's own answer last.";

const EMIT_EXAMPLES: &str = "\
Examples:
  kute emit cuda '(_4,_8):(_8,_1)' --name idx
  kute emit cuda 'Sw<3,3,3> o _0 o (_8,_64):(_64,_1)' --name smem
  kute emit cuda 'make_identity_layout((_128,_64))' --name coord
  kute emit cuda '(64,32):(1,64)' --dynamic-params    # layout(i, s0, d0, d1)

The snippet has no #include: `__host__ __device__ __forceinline__` functions from a 1-D
coordinate to the index (a struct of coordinates for a coordinate layout, the swizzled
index for a swizzled layout), every extent and stride a literal, divisions and remainders
by powers of two as shifts and masks. With --dynamic-params the integers written without
`_` become parameters after the coordinate (the last extent is not needed: the last mode
is not reduced). Compiled as host C++ (the qualifiers defined
empty) it gives exactly kute's values; the coordinate is expected to be non-negative.";

/// The languages `kute emit` writes.
#[derive(Clone, Copy, clap::ValueEnum)]
enum EmitTarget {
    /// CUDA C++ (host and device)
    Cuda,
}

#[derive(Parser)]
#[command(name = "kute", version, about = ABOUT, long_about = LONG_ABOUT, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Evaluate expressions and print each answer on its own line
    #[command(after_help = EVAL_EXAMPLES)]
    Eval {
        /// Expressions (`NAME = expr` binds a name for the later ones); `-` reads
        /// one expression per line from standard input
        #[arg(value_name = "EXPR", required = true)]
        exprs: Vec<String>,
        /// Print each answer as a JSON object on its own line: `input`, then
        /// `value` and `kind`, or `error` (`op`, `kind`, `message`, `span`)
        #[arg(long)]
        json: bool,
        /// `dsl`: print answers as CuTe DSL prints them (a symbol as `?` or
        /// `?{div=N}`, no `_` marks), to compare with it or paste into DSL code
        #[arg(long = "as", value_name = "FORM", value_parser = ["kute", "dsl"], default_value = "kute")]
        form: String,
    },
    /// Print a layout as CuTe's print_layout table
    #[command(after_help = TABLE_EXAMPLES)]
    Table {
        /// Expressions giving layouts of rank 1 or 2, each drawn in turn
        /// (`NAME = expr` binds a name for the later ones and draws nothing)
        #[arg(value_name = "EXPR", required = true)]
        exprs: Vec<String>,
    },
    /// Print a layout as CuTe's print_latex TikZ picture
    #[command(after_help = LATEX_EXAMPLES)]
    Latex {
        /// Expressions giving layouts of rank 1 or 2, each drawn in turn
        /// (`NAME = expr` binds a name for the later ones and draws nothing)
        #[arg(value_name = "EXPR", required = true)]
        exprs: Vec<String>,
    },
    /// Draw a layout's table as an SVG picture
    #[command(after_help = SVG_EXAMPLES)]
    Svg {
        /// Expressions giving layouts of rank 1 or 2, each drawn in turn
        /// (`NAME = expr` binds a name for the later ones and draws nothing)
        #[arg(value_name = "EXPR", required = true)]
        exprs: Vec<String>,
        /// Write the picture to FILE instead of standard output
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Colour each cell of a layout by its shared-memory bank (32 banks of 4
        /// bytes) for elements of BYTES bytes (1, 2, 4, 8 or 16), with a legend of
        /// the banks; an error for an MMA or a copy, whose picture shows threads
        #[arg(long, value_name = "BYTES")]
        banks: Option<i64>,
        /// With --banks: outline the cells one warp accesses (a pattern such as
        /// column:16, or a TV layout; see `kute analyze --help`), each labelled
        /// with its thread, in red where its bank is shared in its phase
        #[arg(long, value_name = "ACCESS", requires = "banks")]
        access: Option<String>,
        /// An MMA's or a copy's picture as CuTe's print_svg writes it, byte for
        /// byte, however large (by default, panels of more than 4096 cells are
        /// drawn compactly: the same picture, each repeated row defined once);
        /// an error for a layout, whose picture it does not change
        #[arg(long)]
        cute: bool,
    },
    /// Show an xor-linear layout (a swizzle, a power-of-two layout) as a bit
    /// matrix and in Triton's linear-layout form, or read one back
    #[command(after_help = F2_EXAMPLES)]
    #[command(group(clap::ArgGroup::new("input").required(true).args(["expr", "from_linear"])))]
    F2 {
        /// An expression giving a layout of power-of-two size with integer strides
        /// (plain, or swizzled: `Sw<B,M,S> o _0 o L`), or a swizzle alone
        /// (`Sw<B,M,S>`: shown on the integers below 2^(B+M+|S|))
        #[arg(value_name = "EXPR")]
        expr: Option<String>,
        /// Read a linear layout given as JSON, `{"dim0": [basis vectors...], ...}`,
        /// and print a kute layout with that map
        #[arg(long, value_name = "JSON", conflicts_with = "expr")]
        from_linear: Option<String>,
    },
    /// Analyse shared-memory accesses: bank conflicts, vector widths, swizzles
    #[command(after_help = ANALYZE_EXAMPLES)]
    Analyze {
        #[command(subcommand)]
        what: Analyze,
    },
    /// Print code computing a layout: a CUDA C++ snippet with every value baked in
    #[command(after_help = EMIT_EXAMPLES)]
    Emit {
        /// The target language
        #[arg(value_enum)]
        target: EmitTarget,
        /// An expression giving a layout (plain, coordinate, swizzled or composed),
        /// after bindings separated by `;` (`M = ?{div=128}; (M,_64):(_64,_1)`: a
        /// symbolic layout's function takes its unknowns as parameters)
        #[arg(value_name = "EXPR")]
        expr: String,
        /// The function's name
        #[arg(long, default_value = "layout")]
        name: String,
        /// Keep the expression's dynamic integers (written without `_`) as
        /// function parameters (s<k>, d<k>: leaf k's extent and stride)
        #[arg(long)]
        dynamic_params: bool,
    },
    /// Show how a result is derived, step by step (composition, complement,
    /// coalesce, the divides, the products, right_inverse, left_inverse and
    /// make_layout)
    #[command(after_help = EXPLAIN_EXAMPLES)]
    Explain {
        /// Calls to explain, each in turn
        #[arg(value_name = "EXPR", required = true)]
        exprs: Vec<String>,
    },
    /// Start an interactive session (the default on a terminal)
    #[command(after_help = repl::HELP)]
    Repl,
    /// List every function of the expression language, with its call forms
    #[command(after_help = "Example:\n  kute functions | grep divide")]
    Functions,
    /// Print a shell completion script (bash, zsh, fish, elvish or powershell)
    #[command(after_help = "Example:\n  kute completions bash > ~/.local/share/bash-completion/completions/kute")]
    Completions {
        /// The shell
        #[arg(value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
}

/// What `kute analyze` computes.
#[derive(Subcommand)]
enum Analyze {
    /// Wavefronts of one warp-wide access against the ideal
    #[command(after_help = ANALYZE_EXAMPLES)]
    Conflicts {
        #[command(flatten)]
        args: AccessArgs,
    },
    /// The widest aligned vector each thread can use (at most 16 bytes)
    #[command(after_help = ANALYZE_EXAMPLES)]
    Vector {
        #[command(flatten)]
        args: AccessArgs,
    },
    /// Search the swizzle that makes a tile's accesses conflict-free
    #[command(after_help = ANALYZE_EXAMPLES)]
    Swizzle {
        /// The tile's shape, ROWS,COLUMNS (or (ROWS,COLUMNS))
        #[arg(long, value_name = "R,C")]
        tile: String,
        /// Bytes per element: 1, 2, 4, 8 or 16
        #[arg(long, value_name = "N")]
        elem_bytes: i64,
        /// The base layout: row-major (R,C):(C,1) or column-major (R,C):(1,R)
        #[arg(long, value_enum, default_value = "row")]
        major: MajorArg,
        /// A pattern that writes the tile (T[/D][:BYTES]); repeatable
        #[arg(long, value_name = "PATTERN")]
        write: Vec<String>,
        /// A pattern that reads the tile (T[/D][:BYTES]); repeatable
        #[arg(long, value_name = "PATTERN")]
        read: Vec<String>,
        /// Print every candidate kept, not only the first five
        #[arg(long)]
        all: bool,
    },
}

/// The layout and access of `analyze conflicts` and `analyze vector`.
#[derive(clap::Args)]
struct AccessArgs {
    /// The shared-memory layout (a kute expression)
    #[arg(value_name = "LAYOUT")]
    layout: String,
    /// Bytes per element: 1, 2, 4, 8 or 16
    #[arg(long, value_name = "N")]
    elem_bytes: i64,
    /// The warp's access: T[/D][:BYTES] (T, D: row or column) or a TV layout
    #[arg(long, value_name = "ACCESS")]
    access: String,
    /// The layout's swizzle acts on byte addresses (CuTe's GMMA and UMMA atoms), not on
    /// element offsets
    #[arg(long)]
    swizzle_on_bytes: bool,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum MajorArg {
    /// Row-major (K-major for a (rows, K) tile)
    Row,
    /// Column-major (MN-major)
    Column,
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    if let Some(msg) = misspelt_subcommand(&args) {
        eprintln!("{msg}");
        return ExitCode::from(2);
    }
    let cli = Cli::parse_from(with_eval_shorthand(args));
    let result = match cli.command {
        None if io::stdin().is_terminal() => repl::run(Session::default()),
        None => eval(&["-".to_string()], false),
        Some(Command::Eval { exprs, json, form }) => {
            if form == "dsl" {
                kute::sym::as_dsl(|| eval(&exprs, json))
            } else {
                eval(&exprs, json)
            }
        }
        Some(Command::Table { exprs }) => picture(&exprs, "table", None, &Drawing::default()),
        Some(Command::Latex { exprs }) => picture(&exprs, "latex", None, &Drawing::default()),
        Some(Command::Svg { exprs, output, banks, access, cute }) => {
            // the element sizes `kute analyze` takes, checked before any picture
            let bad_banks = banks.map(|b| kute::analysis::elem_log2(b, "svg")).and_then(Result::err);
            match (bad_banks, access.as_deref().map(kute::analysis::Access::parse)) {
                (Some(e), _) => Err(anyhow::anyhow!(
                    "svg --banks {}: {} (as `kute analyze` takes it)",
                    banks.unwrap_or_default(),
                    e.message()
                )),
                (None, Some(Err(e))) => Err(anyhow::anyhow!("svg --access: {e}")),
                (None, access) => {
                    picture(&exprs, "svg", output, &Drawing { banks, access: access.and_then(Result::ok), cute })
                }
            }
        }
        Some(Command::F2 { expr, from_linear }) => f2(expr.as_deref(), from_linear.as_deref()),
        Some(Command::Analyze { what }) => analyze(what),
        Some(Command::Emit { target: EmitTarget::Cuda, expr, name, dynamic_params }) => {
            emit(&expr, &name, dynamic_params)
        }
        Some(Command::Explain { exprs }) => explain(&exprs),
        Some(Command::Repl) => repl::run(Session::default()),
        Some(Command::Functions) => functions(),
        Some(Command::Completions { shell }) => {
            clap_complete::generate(shell, &mut Cli::command(), "kute", &mut io::stdout());
            Ok(true)
        }
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        // The reader of our output went away (`kute eval - | head`): stop quietly.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// `kute explain EXPR...`.
fn explain(exprs: &[String]) -> anyhow::Result<bool> {
    let mut ok = true;
    let mut out = io::stdout().lock();
    for src in exprs {
        match kute::explain::explain(src) {
            Ok(e) => {
                // an operation that fails: its steps, and its error last
                ok &= e.error.is_none();
                out.write_all(e.text.as_bytes())?
            }
            Err(e) => {
                // as eval reports it: on stderr, with a caret under the span it names
                ok = false;
                out.flush()?;
                eprintln!("{}", session::Failure::new(src, e).render());
            }
        }
    }
    Ok(ok)
}

/// The layout of `NAME = expr; ...; layout`: bindings first (unknowns such
/// as `M = ?{div=128}`), then the expression.
fn layout_after_bindings(src: &str) -> anyhow::Result<kute::AnyLayout> {
    let mut env = kute::expr::Env::new();
    let mut parts: Vec<&str> = kute::syntax::statements(src).into_iter().map(|(_, p)| p).collect();
    let last = parts.pop().context("no expression")?;
    for p in parts {
        kute::expr::eval_line(&mut env, p)?;
    }
    Ok(kute::expr::eval_in(last, &env)?.to_any_layout("the layout")?)
}

/// `kute emit cuda EXPR`.
fn emit(src: &str, name: &str, dynamic_params: bool) -> anyhow::Result<bool> {
    use kute::codegen::cuda::{emit, Dynamic};
    let l = layout_after_bindings(src)?;
    let dynamic = if dynamic_params { Dynamic::Parameters } else { Dynamic::Literal };
    print!("{}", emit(&l, name, dynamic)?);
    Ok(true)
}

/// `kute f2 EXPR` or `kute f2 --from-linear JSON`.
fn f2(expr: Option<&str>, from_linear: Option<&str>) -> anyhow::Result<bool> {
    use kute::f2::{BitMatrix, LinearLayout};
    let mut out = io::stdout().lock();
    if let Some(json) = from_linear {
        let v: serde_json::Value = serde_json::from_str(json).context("--from-linear takes a JSON object")?;
        let obj = v.as_object().context("--from-linear takes a JSON object {\"dim0\": [...], ...}")?;
        let mut bases = Vec::new();
        let mut top = 0i64;
        for (name, vs) in obj {
            let vs = vs
                .as_array()
                .and_then(|a| a.iter().map(|x| x.as_i64()).collect::<Option<Vec<i64>>>())
                .with_context(|| format!("{name}: basis vectors are a list of integers"))?;
            top = vs.iter().fold(top, |a, &x| a | x);
            bases.push((name.clone(), vs));
        }
        let out_size = 1i64 << (64 - top.max(1).leading_zeros()).min(62);
        let ll = LinearLayout::new(bases, out_size)?;
        writeln!(out, "{}", ll.to_layout()?)?;
        return Ok(true);
    }
    let src = expr.unwrap_or_default();
    let (l, note) = match layout_after_bindings(src)? {
        // a swizzle alone: on the integers below 2^(B+M+|S|), the bits it reads and
        // writes (each higher bit maps to itself)
        kute::AnyLayout::Swizzle(sw) => {
            let n = sw.bits() + sw.base() + sw.shift().abs();
            let size = 1i64.checked_shl(n as u32).filter(|&x| x > 0).context("f2: the swizzle reaches past bit 62")?;
            let domain = kute::Layout::from_shape(&kute::IntTuple::leaf(kute::Int::new_static(size)))?;
            let l = kute::composed::compose3(
                kute::AnyLayout::Swizzle(sw),
                kute::Int::new_static(0),
                kute::AnyLayout::Layout(domain),
            );
            (l, format!("   ({sw} on its bits 0 to {}; each higher bit maps to itself)", n - 1))
        }
        l => (l, String::new()),
    };
    let m = BitMatrix::of(&l)?;
    writeln!(out, "{l}{note}")?;
    writeln!(out, "{m}")?;
    match LinearLayout::of(&l) {
        Ok(ll) => writeln!(out, "linear layout: {ll}")?,
        Err(e) => writeln!(out, "linear layout: none ({})", e.message())?,
    }
    Ok(true)
}

/// `kute EXPR...` means `kute eval EXPR...`: insert `eval` when the first
/// argument is neither a command nor an option.
fn with_eval_shorthand(mut args: Vec<OsString>) -> Vec<OsString> {
    let Some(first) = args.get(1).and_then(|a| a.to_str()) else { return args };
    let cmd = Cli::command();
    let is_command = first == "help"
        || cmd.get_subcommands().any(|c| c.get_name() == first || c.get_all_aliases().any(|a| a == first));
    if !is_command && (first == "-" || !first.starts_with('-')) {
        args.insert(1, OsString::from("eval"));
    }
    args
}

/// `kute tabel X`: a first argument that is a bare word near a subcommand's
/// name (and no name an expression could mean) is a misspelt subcommand, not
/// an expression: the error lists the subcommands.
fn misspelt_subcommand(args: &[OsString]) -> Option<String> {
    let first = args.get(1)?.to_str()?;
    if first.is_empty() || !first.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let cmd = Cli::command();
    let names: Vec<&str> = cmd.get_subcommands().map(|c| c.get_name()).chain(["help"]).collect();
    if names.contains(&first) || kute::expr::eval(first).is_ok() || kute::expr::lookup(first).is_some() {
        return None;
    }
    let near = kute::expr::nearest(first, names.iter().copied())?;
    Some(format!(
        "error: unknown subcommand '{first}'; did you mean '{near}'?\n  the subcommands: {}\n  (an expression is evaluated as `kute EXPR` or `kute eval EXPR`)",
        names.join(", ")
    ))
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<io::Error>().is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe))
}

/// `kute eval`: the arguments in order, sharing bindings; `-` reads standard input.
fn eval(exprs: &[String], json: bool) -> anyhow::Result<bool> {
    let mut session = Session::default();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut ok = true;
    for e in exprs {
        if e == "-" {
            let stdin = io::stdin();
            ok &= batch(&mut session, stdin.lock(), &mut out, json)?;
            continue;
        }
        let r = session_command(&session, e).map_or_else(|| session.eval_line(e), Err);
        print_notes(&mut session, &mut out)?;
        match r {
            Ok(v) if json => writeln!(out, "{}", json_answer(e, Ok(&v)))?,
            Ok(v) => writeln!(out, "{v}")?,
            Err(f) if json => {
                writeln!(out, "{}", json_answer(e, Err(&f)))?;
                ok = false;
            }
            Err(f) => {
                out.flush()?;
                eprintln!("{}", f.render());
                ok = false;
            }
        }
    }
    out.flush()?;
    Ok(ok)
}

/// The session's notes, taken, on standard error after what `out` holds so
/// far (standard output keeps one line per input line).
fn print_notes(session: &mut Session, out: &mut impl Write) -> io::Result<()> {
    if !session.notes.is_empty() {
        out.flush()?;
        for note in session.notes.drain(..) {
            eprintln!("{note}");
        }
    }
    Ok(())
}

/// One answer as a JSON object ([`json::answer`], [`json::failure`]).
fn json_answer(input: &str, r: Result<&kute::expr::Value, &session::Failure>) -> serde_json::Value {
    match r {
        Ok(v) => json::answer(input, v),
        Err(f) => json::failure(input, f),
    }
}

/// Batch mode: one output line per input line, never stopping at a bad one
/// (with `json`, one JSON object per line; a blank or comment line gives an
/// object with its input only). Returns whether every line succeeded.
pub fn batch(session: &mut Session, mut input: impl BufRead, out: &mut impl Write, json: bool) -> io::Result<bool> {
    let mut ok = true;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        let text = String::from_utf8_lossy(&buf);
        let line = text.trim_end_matches(['\n', '\r']);
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            if json {
                writeln!(out, "{}", serde_json::json!({ "input": line }))?;
            } else {
                out.write_all(b"\n")?;
            }
            continue;
        }
        let r = session_command(session, line).map_or_else(|| session.eval_line(line), Err);
        ok &= r.is_ok();
        print_notes(session, out)?;
        match (r, json) {
            (r, true) => writeln!(out, "{}", json_answer(line, r.as_ref()))?,
            (Ok(v), false) => writeln!(out, "{v}")?,
            (Err(f), false) => writeln!(out, "error: {}", f.one_line())?,
        }
    }
    Ok(ok)
}

/// A line that is a session command (`:help`, `:table A`, or `help`, `quit`,
/// `exit` where the session binds no such name): the error saying that
/// session commands work in `kute repl`, which reads piped input too. `None`
/// for any other line.
pub fn session_command(session: &Session, line: &str) -> Option<session::Failure> {
    let t = line.trim();
    let (word, _) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
    let bare = matches!(word, "help" | "quit" | "exit")
        && !session.env.contains_key(word)
        && kute::expr::split_binding(t).is_none();
    if !bare && !t.starts_with(':') {
        return None;
    }
    let start = line.len() - line.trim_start().len();
    let end = start + word.len();
    // the kinds the evaluator gives such a line: `:` does not parse, a bare word is an unknown name
    let (kind, op) = if bare { (kute::ErrorKind::UnknownName, "evaluate") } else { (kute::ErrorKind::Parse, "parse") };
    let err = kute::Error::new(
        kind,
        op,
        format!("'{word}' is a session command, and this reads expressions: session commands work in `kute repl`, which also reads piped input"),
    );
    Some(session::Failure { src: line.to_string(), err: Box::new(err), span: Some((start, end)), offset: 0 })
}

/// Render a layout as `kind` (table, latex or svg) for `session`, or the failure.
pub fn render(session: &mut Session, src: &str, kind: &'static str) -> Result<String, session::Failure> {
    render_with(session, src, kind, &Default::default())
}

/// What an SVG picture adds: bank colours for elements of `banks` bytes, and
/// one warp's `access` outlined.
#[derive(Default)]
pub struct Drawing {
    banks: Option<i64>,
    access: Option<kute::analysis::Access>,
    /// TV pictures as CuTe's print_svg, however large.
    cute: bool,
}

/// [`render`], an SVG picture drawn as `drawing` asks.
pub fn render_with(
    session: &mut Session,
    src: &str,
    kind: &'static str,
    drawing: &Drawing,
) -> Result<String, session::Failure> {
    let fail = |err: kute::Error| session::Failure { src: src.to_string(), err: Box::new(err), span: None, offset: 0 };
    let drawn = session.drawn(src, kind)?;
    // options that would change nothing are refused, not ignored
    let what = match &drawn {
        session::Drawn::Layout(_) => None,
        session::Drawn::Mma(_) => Some("a TiledMMA (or an MMA atom)"),
        session::Drawn::Copy(_) => Some("a TiledCopy"),
    };
    match what {
        Some(what) if drawing.banks.is_some() => {
            return Err(fail(kute::Error::new(
                kute::ErrorKind::Type,
                "svg",
                format!("--banks colours a layout of element offsets by shared-memory bank; the expression gives {what}, whose picture shows threads and values (draw it without --banks)"),
            )));
        }
        None if drawing.cute => {
            return Err(fail(kute::Error::new(
                kute::ErrorKind::Type,
                "svg",
                "--cute writes an MMA's or a copy's picture as CuTe's print_svg does; the expression gives a layout, whose picture it does not change (draw it without --cute)",
            )));
        }
        _ => {}
    }
    let l = match drawn {
        session::Drawn::Layout(l) => l,
        // a TiledMMA or a TiledCopy: CuTe's TV pictures
        session::Drawn::Mma(m) if kind == "latex" => return kute::print::latex_mma(&m).map_err(fail),
        session::Drawn::Mma(m) if drawing.cute => return kute::print::svg_mma(&m).map_err(fail),
        session::Drawn::Mma(m) => return kute::print::svg_mma_auto(&m).map_err(fail),
        session::Drawn::Copy(c) if kind == "latex" => return kute::print::latex_copy(&c).map_err(fail),
        session::Drawn::Copy(c) if drawing.cute => return kute::print::svg_copy(&c).map_err(fail),
        session::Drawn::Copy(c) => return kute::print::svg_copy_auto(&c).map_err(fail),
    };
    let r = match kind {
        "table" => kute::print::table(&l),
        "latex" => kute::print::latex(&l),
        _ => {
            let opts = match (drawing.banks, &drawing.access) {
                (Some(bytes), Some(access)) => kute::analysis::svg_options(&l, bytes, access).map_err(fail)?,
                (banks, _) => kute::print::SvgOptions { banks, marks: Vec::new() },
            };
            kute::print::svg_with(&l, &opts)
        }
    };
    r.map_err(fail)
}

/// `kute table|latex|svg EXPR...`: the bindings evaluated in order, every
/// other expression drawn (the pictures one after another; an SVG file holds
/// one picture, so `-o FILE` takes one drawn expression).
fn picture(exprs: &[String], kind: &'static str, output: Option<PathBuf>, opts: &Drawing) -> anyhow::Result<bool> {
    let mut session = Session::default();
    let mut pictures = Vec::new();
    for src in exprs {
        // (a line whose last statement binds draws nothing)
        let last = kute::syntax::statements(src).last().map_or(src.as_str(), |&(_, s)| s);
        let drawn = if kute::expr::split_binding(last).is_some() {
            session.eval_line(src).map(|_| None)
        } else {
            render_with(&mut session, src, kind, opts).map(Some)
        };
        match drawn {
            Ok(Some(text)) => pictures.push(text),
            Ok(None) => {}
            Err(f) => {
                eprintln!("{}", f.render());
                return Ok(false);
            }
        }
    }
    if pictures.is_empty() {
        anyhow::bail!("{kind}: nothing to draw (every argument is a binding)");
    }
    match output {
        Some(path) if path.as_os_str() != "-" => {
            if pictures.len() > 1 {
                anyhow::bail!(
                    "{kind} -o {}: an SVG file holds one picture, and {} expressions draw",
                    path.display(),
                    pictures.len()
                );
            }
            fs::write(&path, &pictures[0]).with_context(|| format!("cannot write {}", path.display()))?
        }
        _ => {
            let mut out = io::stdout().lock();
            for text in &pictures {
                out.write_all(text.as_bytes())?;
            }
            out.flush()?;
        }
    }
    Ok(true)
}

/// `kute analyze ...`.
fn analyze(what: Analyze) -> anyhow::Result<bool> {
    use kute::analysis::{self, SearchSpec};
    let mut out = BufWriter::new(io::stdout().lock());
    match what {
        Analyze::Conflicts { args } => {
            let Some((smem, access)) = access_args(&args)? else { return Ok(false) };
            let r = analysis::bank_conflicts(&smem, args.elem_bytes, &access)?;
            writeln!(out, "layout:      {smem}")?;
            writeln!(out, "access:      {access}, {}-byte elements", args.elem_bytes)?;
            write!(out, "{r}")?;
        }
        Analyze::Vector { args } => {
            let Some((smem, access)) = access_args(&args)? else { return Ok(false) };
            let r = analysis::vector_width(&smem, args.elem_bytes, &access)?;
            writeln!(out, "layout:            {smem}")?;
            writeln!(out, "access:            {access}, {}-byte elements", args.elem_bytes)?;
            write!(out, "{r}")?;
        }
        Analyze::Swizzle { tile, elem_bytes, major, write, read, all } => {
            let t = tile.trim();
            let t = if t.starts_with('(') { t.to_string() } else { format!("({t})") };
            let shape = kute::expr::parse_int_tuple(&t).map_err(|e| anyhow::anyhow!("--tile {tile}: {e}"))?;
            let dims: Vec<i64> = (0..shape.rank())
                .map(|i| shape.get(i).and_then(|m| m.size()).map(|n| n.value()))
                .collect::<kute::Result<_>>()?;
            let &[rows, cols] = &dims[..] else {
                anyhow::bail!("--tile {tile}: a rank-2 shape ROWS,COLUMNS");
            };
            let mut patterns = Vec::new();
            for (label, list) in [("write", &write), ("read", &read)] {
                for p in list {
                    patterns.push((label.to_string(), p.parse().map_err(|e| anyhow::anyhow!("--{label} {p}: {e}"))?));
                }
            }
            if patterns.is_empty() {
                anyhow::bail!("swizzle: give at least one --write or --read pattern");
            }
            let major = match major {
                MajorArg::Row => kute::Major::Right,
                MajorArg::Column => kute::Major::Left,
            };
            let r = analysis::search_swizzle(&SearchSpec { tile: (rows, cols), elem_bytes, major, patterns })?;
            for line in &r.reasoning {
                writeln!(out, "{line}")?;
            }
            if all {
                writeln!(out, "every candidate kept, best first:")?;
                for c in &r.candidates {
                    writeln!(out, "  {}: {} wavefronts {:?}", c.swizzle, c.total(), c.wavefronts)?;
                }
            }
            match &r.atom {
                Some(a) => writeln!(out, "result: {} = {a}", r.best.layout)?,
                None => writeln!(out, "result: {}", r.best.layout)?,
            }
        }
    }
    out.flush()?;
    Ok(true)
}

/// The layout (element offsets) and the access of `analyze conflicts|vector`,
/// or `None` after printing an expression's failure.
fn access_args(args: &AccessArgs) -> anyhow::Result<Option<(kute::AnyLayout, kute::analysis::Access)>> {
    let mut session = Session::default();
    let value = match session.eval_line(&args.layout) {
        Ok(v) => v,
        Err(f) => {
            eprintln!("{}", f.render());
            return Ok(None);
        }
    };
    let mut smem = value.to_any_layout("LAYOUT")?;
    // a GMMA / UMMA shared-memory atom (its smem_ptr flag) swizzles byte addresses
    let flag = match &smem {
        kute::AnyLayout::Composed(c) => c.flag(),
        _ => None,
    };
    if let Some(flag) = flag
        && flag.bits != 8 * args.elem_bytes
    {
        anyhow::bail!(
            "{smem} is CuTe's atom for {}-bit elements; --elem-bytes is {} ({} bits)",
            flag.bits,
            args.elem_bytes,
            8 * args.elem_bytes
        );
    }
    if args.swizzle_on_bytes || flag.is_some() {
        smem = kute::analysis::swizzle_bytes_to_elements(&smem, args.elem_bytes)?;
    }
    let access =
        kute::analysis::Access::parse(&args.access).map_err(|e| anyhow::anyhow!("--access {}: {e}", args.access))?;
    Ok(Some((smem, access)))
}

/// A function's summary, naming its aliases (listed nowhere else).
pub(crate) fn summary(f: &kute::expr::FunctionInfo) -> String {
    if f.aliases.is_empty() {
        f.summary.to_string()
    } else {
        format!("{} (also {})", f.summary, f.aliases.join(", "))
    }
}

/// `kute functions`: every function, then every atom.
fn functions() -> anyhow::Result<bool> {
    let mut out = BufWriter::new(io::stdout().lock());
    for f in kute::expr::FUNCTIONS {
        writeln!(out, "{:<20} {}", f.name, summary(f))?;
        writeln!(out, "{:<20} {}", "", f.signature)?;
    }
    write!(out, "\n{}", atoms())?;
    out.flush()?;
    Ok(true)
}

/// The MMA and copy atoms kute knows, one family a line, with how to write
/// them (`kute functions`, and `:help atoms` in the session).
pub(crate) fn atoms() -> String {
    use kute::atom::traits::{atom_catalog, AtomKind};
    use std::fmt::Write as _;
    let all = atom_catalog();
    let mut s = String::new();
    for (kind, head) in [
        (AtomKind::Mma, "MMA atoms: write Op{} or MMA_Atom<Op>{}, tile with make_tiled_mma(Op{}, atom_layout, permutation)"),
        (AtomKind::Copy, "Copy atoms: write Copy_Atom<Op,T>{} (T the value type: half_t, float, ...), tile with make_tiled_copy(atom, thr, val)"),
    ] {
        let _ = writeln!(s, "{head}");
        // a form longer than the column puts its note on the next line
        let w = 37;
        for f in all.iter().filter(|f| f.kind == kind) {
            if f.form.len() > w {
                let _ = writeln!(s, "  {}\n  {:<w$}  {}", f.form, "", f.note);
            } else {
                let _ = writeln!(s, "  {:<w$}  {}", f.form, f.note);
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        with_eval_shorthand(a.iter().map(OsString::from).collect())
            .into_iter()
            .map(|s| s.into_string().unwrap())
            .collect()
    }

    #[test]
    fn shorthand_inserts_eval() {
        assert_eq!(args(&["kute", "8:1"]), ["kute", "eval", "8:1"]);
        assert_eq!(args(&["kute", "-"]), ["kute", "eval", "-"]);
        assert_eq!(args(&["kute", "table", "8:1"]), ["kute", "table", "8:1"]);
        assert_eq!(args(&["kute", "help"]), ["kute", "help"]);
        assert_eq!(args(&["kute", "--help"]), ["kute", "--help"]);
        assert_eq!(args(&["kute"]), ["kute"]);
    }

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn batch_keeps_going() {
        let mut s = Session::default();
        let mut out = Vec::new();
        let ok = batch(&mut s, &b"size(8:1)\n\n# c\n(2,3\nA = 4:1\r\nA\n"[..], &mut out, false).unwrap();
        assert!(!ok);
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 6);
        assert_eq!(lines[0], "8");
        assert_eq!(lines[1], "");
        assert_eq!(lines[2], "");
        assert!(lines[3].starts_with("error: parse"), "{}", lines[3]);
        assert_eq!(lines[4], "4:1");
        assert_eq!(lines[5], "4:1");
    }
}
