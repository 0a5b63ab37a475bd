//! The Python package's tests (crates/kute-py), as a toolchain test of the
//! README's test command. It lives here rather than in kute-py, so that the plain
//! `cargo test --workspace` does not build PyO3 for a test that builds the
//! package itself. Runs
//! `scripts/test-python.sh`, which builds and installs `crates/kute-py` into a
//! virtual environment and runs its pytest suite (CuTe's answers of the shared
//! vector files through `kute.eval`, and the Python API). The test fails when
//! the script fails; when the script cannot run the tests (no python3, no
//! venv module, PyPI out of reach) it says so on the terminal, not captured.

use std::io::Write;
use std::process::Command;

#[test]
#[ignore = "builds the Python package: run by the README's test command with `-- --ignored toolchain_`"]
fn toolchain_python_package_tests() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let out = Command::new("bash")
        .arg(format!("{root}/scripts/test-python.sh"))
        .current_dir(root)
        // the script builds in its own target directory (target/python)
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .expect("run bash scripts/test-python.sh");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    print!("{stdout}");
    eprint!("{stderr}");
    if let Some(line) = stdout.lines().find(|l| l.starts_with("SKIPPED:")) {
        // straight to the terminal: a skip must be seen even when the test passes
        let _ = writeln!(std::io::stderr(), "\n*** kute-py: {line} ***\n");
    }
    assert!(out.status.success(), "scripts/test-python.sh failed ({}):\n{stdout}\n{stderr}", out.status);
}
