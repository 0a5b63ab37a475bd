//! The `kute` binary, run as a user runs it. Expected answers are CuTe's (from
//! the CuTe oracle, which runs CuTe's own C++), not whatever the code printed when the test was written.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn kute(args: &[&str]) -> Output {
    run(args, None)
}

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kute"))
        .args(args)
        .env("KUTE_HISTORY", std::env::temp_dir().join("kute-test-history"))
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kute");
    if let Some(input) = stdin {
        let mut w = child.stdin.take().unwrap();
        let input = input.to_string();
        // Write from a thread so a large input cannot deadlock against our reads.
        std::thread::spawn(move || {
            let _ = w.write_all(input.as_bytes());
        });
    }
    let out = child.wait_with_output().expect("wait for kute");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "kute panicked: {stderr}");
    out
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

// ----- eval -----------------------------------------------------------------

#[test]
fn eval_prints_each_answer_on_its_own_line() {
    let o = kute(&["eval", "logical_divide(24:2, 4:2)", "logical_divide(_24:_2, _4:_2)", "complement(4:2, 24)"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "(4,(2,3)):(4,(2,16))\n(_4,(_2,_3)):(_4,(_2,_16))\n(2,3):(_1,8)\n");
}

#[test]
fn an_expression_argument_is_short_for_eval() {
    let o = kute(&["composition((_6,_2):(_8,_2), (_4,_3):(_3,_1))"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "((_2,_2),_3):((_24,_2),_8)\n");
    let o = kute(&["size((2,(2,2)):(4,(1,2)))", "8:1(3)"]);
    assert_eq!(stdout(&o), "8\n3\n");
}

#[test]
fn bindings_carry_across_arguments() {
    let o = kute(&["eval", "A = (4,6):(6,1)", "logical_divide(A, (2,2))"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "(4,6):(6,1)\n((2,2),(2,3)):((6,12),(1,2))\n");
}

#[test]
fn a_bad_argument_fails_but_the_others_still_print() {
    let o = kute(&["eval", "size(8:1)", "(2,3", "rank(_5)"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "8\n_1\n");
    assert!(stderr(&o).starts_with("error: parse"), "{}", stderr(&o));
}

// ----- batch ----------------------------------------------------------------

const BATCH_IN: &str = "\
size(8:1)

# a comment
logical_divide(24:2, 4:2
   # an indented comment
composition((6,4):(1,7), 4:4)
A = (4,6):(6,1)
logical_divide(A, <2,2>)
B
coalesce((2,(1,6)):(1,(6,2)))
";

fn check_batch_output(o: &Output) {
    assert_eq!(o.status.code(), Some(1), "a bad line makes the status 1");
    let out = stdout(o);
    let lines: Vec<&str> = out.split_terminator('\n').collect();
    assert_eq!(lines.len(), BATCH_IN.lines().count(), "one output line per input line:\n{out}");
    assert_eq!(lines[0], "8");
    assert_eq!(lines[1], "");
    assert_eq!(lines[2], "");
    assert!(lines[3].starts_with("error: parse: "), "{}", lines[3]);
    assert_eq!(lines[4], "");
    assert!(lines[5].starts_with("error: composition: "), "{}", lines[5]);
    assert_eq!(lines[6], "(4,6):(6,1)");
    assert_eq!(lines[7], "((2,2),(2,3)):((6,12),(1,2))");
    assert!(lines[8].starts_with("error: ") && lines[8].contains("'B'"), "{}", lines[8]);
    assert_eq!(lines[9], "12:1");
}

#[test]
fn batch_mode_answers_every_line() {
    check_batch_output(&run(&["eval", "-"], Some(BATCH_IN)));
}

#[test]
fn no_arguments_and_piped_input_is_batch_mode() {
    check_batch_output(&run(&[], Some(BATCH_IN)));
    check_batch_output(&run(&["-"], Some(BATCH_IN)));
}

#[test]
fn batch_mode_succeeds_when_every_line_does() {
    let o = run(&["eval", "-"], Some("size(8:1)\n\n# x\r\nrank(_5)\r\nshape(4:1)"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "8\n\n\n_1\n4\n");
}

#[test]
fn batch_mode_survives_invalid_utf8_and_long_lines() {
    let mut input = String::from("size(8:1)\n");
    input.push_str(&"(".repeat(100_000));
    input.push('\n');
    input.push_str("rank(_5)\n");
    let o = run(&["eval", "-"], Some(&input));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out:.200}");
    assert!(lines[1].starts_with("error: "));
    assert_eq!(lines[2], "_1");
}

#[test]
fn batch_mode_does_thousands_of_lines_per_second() {
    let exprs = [
        "logical_divide(24:2, 4:2)",
        "composition((_6,_2):(_8,_2), (_4,_3):(_3,_1))",
        "coalesce((2,(1,6)):(1,(6,2)))",
        "(2,3",
    ];
    let n = 20_000;
    let input: String = (0..n).map(|i| format!("{}\n", exprs[i % exprs.len()])).collect();
    let t = Instant::now();
    let o = run(&["eval", "-"], Some(&input));
    let took = t.elapsed();
    assert_eq!(stdout(&o).lines().count(), n);
    // Even an unoptimised test build must manage 2000 lines a second.
    assert!(took < Duration::from_secs(10), "{n} lines took {took:?}");
}

#[test]
fn a_closed_output_pipe_is_not_a_crash() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kute"))
        .args(["eval", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut w = child.stdin.take().unwrap();
    std::thread::spawn(move || {
        for _ in 0..200_000 {
            if w.write_all(b"size(8:1)\n").is_err() {
                break;
            }
        }
    });
    let mut r = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    r.read_line(&mut first).unwrap();
    assert_eq!(first, "8\n");
    drop(r);
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{err}");
}

// ----- table / latex --------------------------------------------------------

#[test]
fn table_is_cute_print_layout() {
    let o = kute(&["table", "(2,(2,2)):(4,(2,1))"]);
    assert!(o.status.success());
    assert_eq!(
        stdout(&o),
        "(2,(2,2)):(4,(2,1))\n      0   1   2   3 \n    +---+---+---+---+\n 0  | 0 | 2 | 1 | 3 |\n    \
         +---+---+---+---+\n 1  | 4 | 6 | 5 | 7 |\n    +---+---+---+---+\n"
    );
    let o = kute(&["table", "(_2,_3):(_-1,_4)"]);
    assert_eq!(
        stdout(&o),
        "(_2,_3):(_-1,_4)\n       0    1    2 \n    +----+----+----+\n 0  |  0 |  4 |  8 |\n    +----+----+----+\n 1  \
         | -1 |  3 |  7 |\n    +----+----+----+\n"
    );
}

#[test]
fn table_of_an_expression() {
    // CuTe: logical_divide(_16:_1, _4:_1) = (_4,_4):(_1,_4), a column-major 4×4 table.
    let o = kute(&["table", "logical_divide(_16:_1, _4:_1)"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("(_4,_4):(_1,_4)\n"), "{out}");
    assert!(out.contains("\n 1  |  1 |  5 |  9 | 13 |\n"), "{out}");
}

#[test]
fn table_of_rank_one_is_one_column() {
    // the column of (8,_1):(2,_0), CuTe's print_latex padding, under 8:2's own header
    let (o, padded) = (kute(&["table", "8:2"]), kute(&["table", "(8,_1):(2,_0)"]));
    assert!(o.status.success() && padded.status.success());
    let (out, padded) = (stdout(&o), stdout(&padded));
    assert_eq!(out.split_once('\n').unwrap(), ("8:2", padded.split_once('\n').unwrap().1));
    assert!(out.contains("\n 7  | 14 |\n"), "{out}");
}

#[test]
fn table_of_rank_three_is_an_error() {
    let o = kute(&["table", "(2,2,2):(1,2,4)"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    assert!(err.contains("rank 3") && err.contains("(2,2,2):(1,2,4)"), "{err}");
}

#[test]
fn table_needs_a_layout() {
    let o = kute(&["table", "size(8:1)"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("needs a layout"), "{}", stderr(&o));
}

#[test]
fn latex_is_cute_print_latex() {
    let o = kute(&["latex", "(_2,_3):(_3,_1)"]);
    assert!(o.status.success());
    let want = r"% Layout: (_2,_3):(_3,_1)
\documentclass[convert]{standalone}
\usepackage{tikz}

\begin{document}
\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]

\node[fill=black!00] at (0,0) {0};
\node[fill=black!40] at (0,1) {1};
\node[fill=black!20] at (0,2) {2};
\node[fill=black!60] at (1,0) {3};
\node[fill=black!10] at (1,1) {4};
\node[fill=black!50] at (1,2) {5};
\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (2,3);

\node at (0,-1) {\Large{\texttt{0}}};
\node at (1,-1) {\Large{\texttt{1}}};
\node at (-1,0) {\Large{\texttt{0}}};
\node at (-1,1) {\Large{\texttt{1}}};
\node at (-1,2) {\Large{\texttt{2}}};
\end{tikzpicture}
\end{document}
";
    assert_eq!(stdout(&o), want);
    let o = kute(&["latex", "(2,2,2):(1,2,4)"]);
    assert_eq!(o.status.code(), Some(1));
}

// ----- svg ------------------------------------------------------------------

fn check_svg(text: &str, cells: usize) {
    let doc = roxmltree::Document::parse(text).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
    let n = doc.descendants().filter(|n| n.has_tag_name("rect") && n.attribute("class") == Some("cell")).count();
    assert_eq!(n, cells);
    let values = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("values"))
        .expect("a group of values")
        .children()
        .filter(|n| n.has_tag_name("text"))
        .count();
    assert_eq!(values, cells);
}

#[test]
fn svg_to_standard_output() {
    let o = kute(&["svg", "(2,(2,2)):(4,(2,1))"]);
    assert!(o.status.success(), "{}", stderr(&o));
    check_svg(&stdout(&o), 8);
}

#[test]
fn svg_to_a_file() {
    let path = std::env::temp_dir().join(format!("kute-cli-test-{}.svg", std::process::id()));
    let p = path.to_str().unwrap();
    let o = kute(&["svg", "blocked_product((2,2):(1,2), (3,4):(1,3))", "-o", p]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let text = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    check_svg(&text, 48);
}

#[test]
fn svg_of_rank_one_and_a_big_layout() {
    check_svg(&stdout(&kute(&["svg", "((4,2)):((2,1))"])), 8);
    check_svg(&stdout(&kute(&["svg", "zipped_divide((64,64):(64,1), <8,8>)"])), 4096);
    let o = kute(&["svg", "(2,2,2):(1,2,4)"]);
    assert_eq!(o.status.code(), Some(1));
}

// ----- errors ---------------------------------------------------------------

#[test]
fn explain_of_a_failing_operation_ends_with_its_error_and_fails() {
    // the same error as eval's (CuTe's answer here is not the true one)
    let src = "left_inverse((2,3):(2,1))";
    let want = kute(&["eval", src]);
    assert_eq!(want.status.code(), Some(1));
    let message = stderr(&want).lines().next().unwrap().trim_start_matches("error: ").to_string();
    let o = kute(&["explain", src]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).trim_end().ends_with(&message), "{}", stdout(&o));
    let o = kute(&["explain", "logical_divide(24:2, 4:2)"]);
    assert!(o.status.success() && stdout(&o).ends_with("  = (4,(2,3)):(4,(2,16))\n"), "{}", stdout(&o));
}

#[test]
fn a_parse_error_points_a_caret_at_the_problem() {
    let src = "logical_divide(24:2, 4:2]";
    let o = kute(&["eval", src]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert!(lines[0].starts_with("error: parse: "), "{err}");
    assert_eq!(lines[1], format!("  {src}"));
    // The caret sits under the ']'.
    assert_eq!(lines[2], format!("  {}^", " ".repeat(src.find(']').unwrap())));
}

#[test]
fn a_caret_after_the_end_for_an_unfinished_expression() {
    let o = kute(&["eval", "B = (2,3"]);
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines[1], "  B = (2,3");
    assert_eq!(lines[2], "          ^", "{err}");
}

#[test]
fn an_unknown_name_is_underlined() {
    let o = kute(&["logical_divide(Q, 2:1)"]);
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines[0].contains("unknown name 'Q'"), "{err}");
    // a short name is most often an extent not given yet: how to give it
    assert!(lines[0].contains("Q = ? for an unknown extent"), "{err}");
    assert_eq!(lines[2], format!("  {}^", " ".repeat("logical_divide(".len())), "{err}");
}

#[test]
fn an_algebra_error_names_operation_operand_and_condition() {
    let o = kute(&["composition((6,4):(1,7), 4:4)"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    assert!(err.starts_with("error: composition: "), "{err}");
    assert!(err.contains("(6,4):(1,7)") && err.contains("4:4"), "{err}");
    // CuTe's wrong answer (2,2):(4,7) is not the composite: A(B(2)) = A(8) = 9, not 7.
    assert!(err.contains('9'), "{err}");
}

#[test]
fn overflow_is_an_error() {
    let o = kute(&["size((4294967296,4294967296))"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("overflow"), "{}", stderr(&o));
}

// ----- help -----------------------------------------------------------------

#[test]
fn every_command_has_help_with_examples() {
    for cmd in [
        &["--help"][..],
        &["eval", "--help"],
        &["table", "--help"],
        &["latex", "--help"],
        &["svg", "--help"],
        &["repl", "--help"],
        &["functions", "--help"],
        &["analyze", "--help"],
        &["analyze", "swizzle", "--help"],
    ] {
        let o = kute(cmd);
        assert!(o.status.success(), "{cmd:?}");
        let out = stdout(&o);
        assert!(out.contains("Usage: kute"), "{cmd:?}: {out}");
        assert!(out.contains("Example"), "{cmd:?} has no examples: {out}");
    }
    let o = kute(&["help", "svg"]);
    assert!(stdout(&o).contains("-o, --output <FILE>"));
}

#[test]
fn the_examples_in_the_help_work() {
    let mut n = 0;
    for cmd in ["eval", "table", "latex", "svg", "repl", "functions"] {
        let help = stdout(&kute(&[cmd, "--help"])) + &stdout(&kute(&["--help"]));
        for line in help.lines().filter(|l| l.starts_with("  kute ")) {
            // The single-quoted arguments of one example line, evaluated together
            // (so that a binding reaches the expressions after it).
            let command = line.split(" # ").next().unwrap_or(line);
            let quoted: Vec<&str> = command.split('\'').skip(1).step_by(2).collect();
            if quoted.is_empty() {
                continue;
            }
            let mut args = vec!["eval"];
            args.extend(&quoted);
            let o = kute(&args);
            assert!(o.status.success(), "help example fails: {line}\n{}", stderr(&o));
            n += 1;
        }
    }
    assert!(n >= 10, "only {n} examples found");
}

#[test]
fn a_usage_error_is_reported_by_clap() {
    let o = kute(&["svg"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("Usage"));
}

#[test]
fn functions_lists_every_function() {
    let o = kute(&["functions"]);
    let out = stdout(&o);
    for name in ["composition", "logical_divide", "blocked_product", "right_inverse", "slice_and_offset"] {
        assert!(out.lines().any(|l| l.starts_with(name)), "{name} missing");
    }
}

#[test]
fn functions_lists_the_registry() {
    let o = kute(&["functions"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    // the functions, then (after a blank line) the atoms
    let lines: Vec<&str> = out.lines().take_while(|l| !l.is_empty()).collect();
    let reg = kute::expr::FUNCTIONS;
    assert_eq!(lines.len(), 2 * reg.len(), "{out}");
    for (pair, f) in lines.chunks(2).zip(reg) {
        // "NAME  summary (also ALIASES)" then "      signature"
        let (name, summary) = pair[0].split_once(' ').unwrap();
        assert_eq!(name, f.name);
        let summary = summary.trim_start();
        assert!(summary.starts_with(f.summary), "{}", pair[0]);
        let also = summary[f.summary.len()..].trim_start();
        let aliases: Vec<&str> = match also.strip_prefix("(also ").and_then(|a| a.strip_suffix(')')) {
            Some(a) => a.split(", ").collect(),
            None => {
                assert_eq!(also, "", "{}", pair[0]);
                Vec::new()
            }
        };
        assert_eq!(aliases, f.aliases, "{}", pair[0]);
        assert!(pair[1].starts_with(' '), "{}", pair[1]);
        assert_eq!(pair[1].trim_start(), f.signature);
        // each name listed is callable: a wrong count is a count error, not an unknown function
        for n in f.names() {
            let e = kute::expr::eval(&format!("{n}<0,0>(_1,_1,_1,_1)")).unwrap_err().to_string();
            assert!(!e.contains("unknown function"), "{n}: {e}");
        }
    }
}

#[test]
fn functions_lists_every_atom() {
    use kute::atom::traits::{atom_catalog, AtomKind};
    let out = stdout(&kute(&["functions"]));
    let (_, atoms) = out.split_once("\n\n").expect("a blank line before the atoms");
    let (mma, copy) = atoms.split_once("\nCopy atoms").expect("the copy atoms after the MMA atoms");
    assert!(mma.starts_with("MMA atoms: write Op{} or MMA_Atom<Op>{}"), "{mma}");
    for f in atom_catalog() {
        let part = if f.kind == AtomKind::Mma { mma } else { copy };
        let line = part.lines().find(|l| l.split_whitespace().next() == Some(&f.form));
        assert!(line.is_some(), "{} is not listed", f.form);
        assert!(part.contains(&f.note), "{}: {}", f.form, f.note);
    }
    // a name the listing shows is one kute takes
    for name in ["SM80_16x8x16_F32F16F16F32_TN", "SM75_U32x4_LDSM_N", "SM80_CP_ASYNC_CACHEGLOBAL<S[,D]>"] {
        assert!(out.lines().any(|l| l.trim_start().starts_with(name)), "{name}");
    }
}

// ----- print calls ------------------------------------------------------------

#[test]
fn print_calls_print_what_cute_prints() {
    // CuTe's print_layout of (2,(2,2)):(4,(2,1)), as `kute table` prints it
    let o = kute(&["eval", "A = (2,(2,2)):(4,(2,1))", "print_layout(A)", "print(A)", "size(A)"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "(2,(2,2)):(4,(2,1))\n(2,(2,2)):(4,(2,1))\n      0   1   2   3 \n    +---+---+---+---+\n 0  | 0 | 2 | 1 | 3 |\n    \
         +---+---+---+---+\n 1  | 4 | 6 | 5 | 7 |\n    +---+---+---+---+\n(2,(2,2)):(4,(2,1))\n8\n"
    );
    // print_latex is `kute latex`, byte for byte
    let latex = kute(&["latex", "(_2,_3):(_3,_1)"]);
    let call = kute(&["eval", "print_latex((_2,_3):(_3,_1))"]);
    assert!(call.status.success() && latex.status.success());
    assert_eq!(stdout(&call), stdout(&latex));
    // a print call is no operand
    let o = kute(&["eval", "size(print_layout((2,2):(1,2)))"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("printed text"), "{}", stderr(&o));
}

/// `kute latex` of a TiledCopy whose tile is wider than its `Tiler_MN` (a
/// permuted MMA's C cut to the copy atom): CuTe draws the 32x16 tile its
/// `print_latex` spans (the recorded bytes of the library's tests).
#[test]
fn latex_of_a_copy_of_a_permuted_mma_is_cute_s() {
    let rows = include_str!("../../kute/tests/data/print_calls.jsonl");
    let row: serde_json::Value = serde_json::from_str(rows.lines().next().unwrap()).unwrap();
    let expr = row["expr"].as_str().unwrap();
    assert!(expr.starts_with("make_tiled_copy_C_atom("), "{expr}");
    let o = kute(&["latex", expr]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), row["latex"].as_str().unwrap());
    assert!(stdout(&o).contains("grid (32,16)"));
}

// ----- interactive session (through a pipe) ---------------------------------

#[test]
fn the_session_binds_names_and_runs_commands() {
    let svg = std::env::temp_dir().join(format!("kute-cli-repl-{}.svg", std::process::id()));
    let input = format!(
        "A = (4,6):(6,1)\nlogical_divide(A, (2,2))\n:table (2,2):(1,2)\n:svg {} A\n:help\n(2,3\n:quit\nsize(A)\n",
        svg.display()
    );
    let o = run(&["repl"], Some(&input));
    let out = stdout(&o);
    assert!(out.contains("(4,6):(6,1)\n"), "{out}");
    assert!(out.contains("((2,2),(2,3)):((6,12),(1,2))\n"), "{out}");
    assert!(out.contains(" 1  | 1 | 3 |\n"), "{out}");
    assert!(out.contains("logical_divide"), "{out}");
    assert!(!out.contains("\n24\n"), ":quit stops the session: {out}");
    assert!(stderr(&o).contains("  (2,3\n"), "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).unwrap();
    let _ = std::fs::remove_file(&svg);
    check_svg(&text, 24);
}

/// A misspelt subcommand is an error that lists the subcommands, not an
/// expression; a bare word that is no subcommand's near miss is still evaluated.
#[test]
fn misspelt_subcommands_list_the_subcommands() {
    let o = kute(&["tabel", "(4,2):(1,4)"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("unknown subcommand 'tabel'; did you mean 'table'?"), "{e}");
    assert!(e.contains("eval, table, latex, svg"), "{e}");
    assert!(stdout(&o).is_empty());
    let o = kute(&["LayoutLeft"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = kute(&["sise(4)"]);
    assert!(stderr(&o).contains("did you mean 'size'?"), "{}", stderr(&o));
}

/// `kute completions SHELL` prints a completion script naming the subcommands.
#[test]
fn completions_name_the_subcommands() {
    let o = kute(&["completions", "bash"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(s.contains("_kute()") && s.contains("table") && s.contains("functions"), "{s}");
    let o = kute(&["completions", "fish"]);
    assert!(stdout(&o).contains("complete -c kute"), "{}", stdout(&o));
    assert!(!kute(&["completions", "cmd"]).status.success());
}

/// `kute eval --json`: one JSON object per input line, the value and its
/// kind or the error's operation, kind, message and span.
#[test]
fn json_output_for_scripts() {
    let o = run(&["eval", "--json", "-"], Some("A = (4,6):(6,1)\nsize(A)\n\n(2,3\n"));
    assert!(!o.status.success());
    let lines: Vec<serde_json::Value> =
        stdout(&o).lines().map(|l| serde_json::from_str(l).expect("a JSON object per line")).collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["value"], "(4,6):(6,1)");
    assert_eq!(lines[1]["value"], "24");
    assert_eq!(lines[1]["input"], "size(A)");
    assert_eq!(lines[2]["input"], "");
    assert_eq!(lines[3]["error"]["kind"], "parse");
    assert_eq!(lines[3]["error"]["span"], serde_json::json!([4, 5]));
    // kinds in snake_case; integers, tuples and layouts also structured, static marks beside
    assert_eq!(lines[0]["kind"], "layout");
    assert_eq!(lines[0]["shape"], serde_json::json!([4, 6]));
    assert_eq!(lines[1]["kind"], "integer");
    let o = run(
        &["eval", "--json", "-"],
        Some("(_2,(3,_4)):(_1,(2,_6))\n((2,_3),4)\nmake_identity_layout((_2,_2))\nM = ?{div=8}; (M,2):(1,M)\nN = 2; size(Q)\nmake_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{})\n"),
    );
    let lines: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["shape"], serde_json::json!([2, [3, 4]]));
    assert_eq!(lines[0]["stride"], serde_json::json!([1, [2, 6]]));
    assert_eq!(lines[0]["static"]["shape"], serde_json::json!([true, [false, true]]));
    assert_eq!(lines[0]["static"]["stride"], serde_json::json!([true, [false, true]]));
    assert_eq!(lines[1]["kind"], "int_tuple");
    assert_eq!(lines[1]["int_tuple"], serde_json::json!([[2, 3], 4]));
    assert_eq!(lines[1]["static"], serde_json::json!([[false, true], false]));
    assert_eq!(lines[2]["stride"], serde_json::json!(["_1@0", "_1@1"]));
    assert_eq!(lines[3]["shape"], serde_json::json!(["M", 2]));
    // a span within the whole line, past the statement before it
    assert_eq!(lines[4]["error"]["kind"], "unknown_name");
    assert_eq!(lines[4]["error"]["span"], serde_json::json!([12, 13]));
    assert_eq!(lines[5]["kind"], "tiled_mma");
}

/// `table`, `latex` and `svg` take bindings and several expressions: each
/// expression that is not a binding is drawn, in order.
#[test]
fn pictures_take_bindings_and_several_expressions() {
    let one = stdout(&kute(&["table", "(4,6):(6,1)"]));
    let o = kute(&["table", "A = (4,6):(6,1)", "A", "A"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("{one}{one}"));
    let o = kute(&["latex", "B = 8:2", "B"]);
    assert_eq!(stdout(&o), stdout(&kute(&["latex", "8:2"])));
    let o = kute(&["svg", "A = 4:1"]);
    assert!(!o.status.success() && stderr(&o).contains("nothing to draw"), "{}", stderr(&o));
    let o = kute(&["svg", "A = 4:1", "A", "A", "-o", "/dev/null"]);
    assert!(!o.status.success() && stderr(&o).contains("one picture"), "{}", stderr(&o));
}

// ----- analyze ----------------------------------------------------------------

#[test]
fn analyze_conflicts_of_cute_atoms() {
    // CuTe: ldmatrix reads of a plain K-major tile of halves conflict 8 ways ...
    let o = kute(&["analyze", "conflicts", "(_8,_64):(_64,_1)", "--elem-bytes", "2", "--access", "column:16"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("wavefronts:  32 (ideal 4): 8-way conflict\n"), "{}", stdout(&o));
    // ... and none in Layout_K_SW128, as CuTe prints it (its swizzle on bytes)
    let o = kute(&[
        "analyze",
        "conflicts",
        "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)",
        "--elem-bytes",
        "2",
        "--access",
        "column",
        "--swizzle-on-bytes",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("layout:      Sw<3,3,3> o _0 o (_8,_64):(_64,_1)\n"), "{out}");
    assert!(out.contains("wavefronts:  4 (ideal 4): conflict-free\n"), "{out}");
    // a TV layout: 32 threads down one column of 32-bit words
    let o = kute(&["analyze", "conflicts", "(_32,_32):(_32,_1)", "--elem-bytes", "4", "--access", "(_32,_1):(_1,_0)"]);
    assert!(stdout(&o).contains("wavefronts:  32 (ideal 1): 32-way conflict\n"), "{}", stdout(&o));
}

#[test]
fn analyze_vector_and_swizzle() {
    let o =
        kute(&["analyze", "vector", "Sw<3,2,3> o _0 o (_8,_64):(_64,_1)", "--elem-bytes", "2", "--access", "row:16"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("vector:            8 bytes (4 elements)\n"), "{}", stdout(&o));
    let o = kute(&[
        "analyze",
        "swizzle",
        "--tile",
        "(8,64)",
        "--elem-bytes",
        "2",
        "--major",
        "row",
        "--write",
        "row:16",
        "--read",
        "column:16",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.ends_with("result: Sw<3,3,3> o _0 o (_8,_64):(_64,_1) = Layout_K_SW128\n"), "{out}");
    assert!(out.contains("read column/row:16: 32 (ideal 4)"), "{out}");
}

#[test]
fn analyze_errors_are_reported() {
    for args in [
        &["analyze", "conflicts", "(_8,_64):(_64,_1)", "--elem-bytes", "3", "--access", "row"][..],
        &["analyze", "conflicts", "(_8,_64", "--elem-bytes", "2", "--access", "row"],
        &["analyze", "conflicts", "(_8,_64):(_64,_1)", "--elem-bytes", "2", "--access", "diagonal"],
        &["analyze", "vector", "Sw<3,3,3>", "--elem-bytes", "2", "--access", "row"],
        &["analyze", "swizzle", "--tile", "8", "--elem-bytes", "2", "--read", "row"],
        &["analyze", "swizzle", "--tile", "8,64", "--elem-bytes", "2"],
    ] {
        let o = kute(args);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains("error"), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn the_analyze_help_examples_work() {
    let help = stdout(&kute(&["analyze", "--help"]));
    let mut n = 0;
    for line in help.lines().filter(|l| l.starts_with("  kute analyze ")) {
        let command = line.split(" # ").next().unwrap_or(line);
        // split on spaces outside single quotes
        let mut args = Vec::new();
        for (i, part) in command.trim().split('\'').enumerate() {
            if i % 2 == 1 {
                args.push(part.to_string());
            } else {
                args.extend(part.split_whitespace().map(str::to_string));
            }
        }
        let args: Vec<&str> = args.iter().skip(1).map(String::as_str).collect();
        let o = kute(&args);
        assert!(o.status.success(), "help example fails: {line}\n{}", stderr(&o));
        assert!(stdout(&o).contains("wavefronts") || stdout(&o).contains("vector"), "{line}");
        n += 1;
    }
    assert!(n >= 5, "only {n} examples");
}

// ----- new-user audit ----------------------------------------------------------

/// Session commands piped to `kute` (batch mode) are errors that point to
/// `kute repl`, one output line each, the other lines answered; the exit
/// status is batch mode's (1: a line failed). `kute repl` runs the same input.
#[test]
fn session_commands_in_batch_mode_point_to_the_repl() {
    let input = "A = (4,2):(2,1)\nsize(A)\n:help logical\nhelp\nquit\nsize(A)\n";
    let o = run(&[], Some(input));
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 6, "one line per input line: {out}");
    assert_eq!((lines[0], lines[1], lines[5]), ("(4,2):(2,1)", "8", "8"), "{out}");
    for (line, cmd) in [(lines[2], ":help"), (lines[3], "help"), (lines[4], "quit")] {
        assert!(line.starts_with("error: ") && line.contains(&format!("'{cmd}'")), "{line}");
        assert!(line.contains("session command") && line.contains("kute repl"), "{line}");
    }
    // `kute eval -` is the same batch mode; a name bound as `help` is a name
    let o = run(&["eval", "-"], Some("help = 3\nhelp\n"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "3\n3\n");
    // what the error suggests works: the session reads piped input
    let o = run(&["repl"], Some(input));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("logical_divide") && !out.contains("session command"), "{out}");
    assert_eq!(out.lines().filter(|l| *l == "8").count(), 1, "quit leaves the session: {out}");
}

/// `--json`: a plain integer's kind is `integer`, a tuple's `int_tuple`; a
/// known function called with the wrong number of arguments is a `type`
/// error, an unknown name an `unknown_name` error; blank and `#` lines give
/// an object with the input only.
#[test]
fn json_kinds_are_the_documented_ones() {
    let o = run(&["eval", "--json", "-"], Some("8\n(2,3)\nsize(1,2,3)\nmake_layout<1>(2)\nnosuch(2)\n\n# note\n"));
    let lines: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 7);
    assert_eq!((lines[0]["kind"].as_str(), &lines[0]["int_tuple"]), (Some("integer"), &serde_json::json!(8)));
    assert_eq!((lines[1]["kind"].as_str(), &lines[1]["int_tuple"]), (Some("int_tuple"), &serde_json::json!([2, 3])));
    assert_eq!(lines[2]["error"]["kind"], "type", "{}", lines[2]);
    assert_eq!(lines[3]["error"]["kind"], "type", "{}", lines[3]);
    assert_eq!(lines[4]["error"]["kind"], "unknown_name", "{}", lines[4]);
    assert_eq!(lines[5], serde_json::json!({ "input": "" }));
    assert_eq!(lines[6], serde_json::json!({ "input": "# note" }));
    // the documented kinds are the ones emitted
    let doc = include_str!("../../../docs/cli.md");
    for kind in ["`integer`", "`int_tuple`", "`layout`", "`type`", "`unknown_name`", "`parse`"] {
        assert!(doc.contains(kind), "docs/cli.md does not name the kind {kind}");
    }
}

/// A TiledMMA is not a layout: `kute table` says so on one short line, naming
/// the kind and the commands that draw it, and those commands do.
#[test]
fn table_of_a_tiled_mma_is_a_short_error() {
    let expr = "make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{})";
    let o = kute(&["table", expr]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.len() < 200, "{} bytes: {err}", err.len());
    assert!(err.contains("a TiledMMA") && err.contains("kute latex") && err.contains("kute svg"), "{err}");
    for cmd in ["latex", "svg"] {
        let o = kute(&[cmd, expr]);
        assert!(o.status.success(), "{cmd}: {}", stderr(&o));
    }
}

/// The help of `kute explain` and of the session's `:explain` lists what
/// explain covers: every operation it names is explained (not refused).
#[test]
fn explain_help_lists_what_explain_covers() {
    let calls = [
        ("composition", "composition(20:2, (4,5):(1,4))"),
        ("complement", "complement((2,2):(1,6), 24)"),
        ("coalesce", "coalesce((2,(1,6)):(1,(6,2)))"),
        ("divide", "zipped_divide(24:2, 4:2)"),
        ("product", "blocked_product((2,2):(1,2), (3,4):(1,3))"),
        ("right_inverse", "right_inverse((4,2):(2,1))"),
        ("left_inverse", "left_inverse((4,2):(2,1))"),
        ("make_layout", "make_layout(4:1, 2:4)"),
    ];
    let help = stdout(&kute(&["explain", "--help"]));
    let session = stdout(&kute(&["repl", "--help"]));
    let session: String = session.lines().skip_while(|l| !l.contains(":explain")).take(3).collect();
    for (word, call) in calls {
        assert!(help.contains(word), "kute explain --help does not name {word}: {help}");
        assert!(session.contains(word), ":explain's help does not name {word}: {session}");
        let o = kute(&["explain", call]);
        assert!(o.status.success(), "{call}: {}", stdout(&o));
        // the last line is the operation's own answer
        let answer = stdout(&kute(&["eval", call]));
        assert!(stdout(&o).ends_with(&format!("  = {answer}")), "{call}: {}", stdout(&o));
    }
}
