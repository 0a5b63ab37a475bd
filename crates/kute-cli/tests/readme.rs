//! Every `console` example of the README is real: each `$ kute ...` command is run
//! and its output (stdout, then stderr) must be the text under it.
//! (`scripts/readme-examples.py` rewrites the outputs after a deliberate change.)

use std::process::Command;

const README: &str = include_str!("../../../README.md");

/// A command line split as a POSIX shell would, for the quoting the README uses:
/// bare words and single-quoted strings.
fn shell_words(cmd: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = cmd.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    cur.push(q);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                assert!(!"\"\\$`|<>;&".contains(c), "unsupported shell syntax in README command: {cmd}");
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

/// `(command, expected output)` for every example of every console block.
fn examples() -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut block: Option<&str> = None; // the fence's indentation while inside a block
    let mut current: Option<(String, Vec<String>)> = None;
    for line in README.lines() {
        let stripped = line.trim_start_matches(' ');
        let indent = &line[..line.len() - stripped.len()];
        match block {
            None => {
                if stripped == "```console" {
                    block = Some(indent);
                }
            }
            Some(ind) => {
                if stripped == "```" && indent == ind {
                    found.extend(current.take().map(|(c, o)| (c, o.join("\n"))));
                    block = None;
                } else {
                    let body = line.strip_prefix(ind).unwrap_or(line);
                    if let Some(cmd) = body.strip_prefix("$ ") {
                        found.extend(current.take().map(|(c, o)| (c, o.join("\n"))));
                        current = Some((cmd.to_string(), Vec::new()));
                    } else if let Some((_, out)) = current.as_mut() {
                        out.push(body.to_string());
                    } else {
                        panic!("output before any command in a console block: {line}");
                    }
                }
            }
        }
    }
    assert!(block.is_none(), "unterminated console block");
    found
}

#[test]
fn shell_words_split_like_a_shell() {
    assert_eq!(shell_words("kute eval 'a b' c'd e'"), ["kute", "eval", "a b", "cd e"]);
}

#[test]
fn readme_examples_are_real() {
    let ex = examples();
    assert!(ex.len() >= 40, "only {} examples found", ex.len());
    let mut bad = Vec::new();
    for (cmd, want) in &ex {
        let argv = shell_words(cmd);
        assert_eq!(argv[0], "kute", "{cmd}");
        let o = Command::new(env!("CARGO_BIN_EXE_kute")).args(&argv[1..]).output().unwrap();
        let got = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        if got.trim_end_matches('\n') != want.trim_end_matches('\n') {
            bad.push(format!("$ {cmd}\n--- README\n{want}\n--- kute\n{got}"));
        }
    }
    assert!(bad.is_empty(), "README examples differ from kute's output:\n{}", bad.join("\n\n"));
}

/// `.ci/run` runs exactly the README's test command: the second line of the
/// "Getting started" block.
#[test]
fn ci_runs_the_readmes_test_command() {
    let ci = include_str!("../../../.ci/run");
    let start = README.find("## Getting started").expect("a Getting started section");
    let block = README[start..].split("```sh\n").nth(1).and_then(|b| b.split("```").next()).expect("a sh block");
    let test_command = block.lines().nth(1).expect("two commands");
    assert!(test_command.starts_with("cargo test"), "{test_command}");
    assert_eq!(ci.lines().rfind(|l| !l.trim().is_empty()), Some(test_command), ".ci/run:\n{ci}");
}
