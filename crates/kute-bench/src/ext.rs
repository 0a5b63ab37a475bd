//! The reference programs: CuTe C++ (`cute_runtime_bench.cpp`) and pycute
//! (`pycute_bench.py`), found in `shared/bench` next to the repository.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What a reference program printed: op name -> (ns/op, result text).
pub type Results = HashMap<String, (f64, String)>;

/// The root of this repository (two levels above this crate).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `shared/bench`: `$KUTE_BENCH_DIR`, else `../shared/bench` from the repository
/// root, else from the current directory.
pub fn bench_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("KUTE_BENCH_DIR") {
        return Some(PathBuf::from(d));
    }
    let candidates = [repo_root().join("../shared/bench"), PathBuf::from("../shared/bench")];
    candidates.into_iter().find(|d| d.join("cute_runtime_bench.cpp").is_file()).map(|d| d.canonicalize().unwrap_or(d))
}

fn parse_table(stdout: &str) -> Results {
    let mut out = Results::new();
    for line in stdout.lines().skip_while(|l| !l.starts_with("op\t")).skip(1) {
        let mut parts = line.splitn(3, '\t');
        let (Some(name), Some(ns), Some(res)) = (parts.next(), parts.next(), parts.next()) else { continue };
        if let Ok(ns) = ns.trim().parse::<f64>() {
            out.insert(name.to_string(), (ns, res.trim().to_string()));
        }
    }
    out
}

fn tail(s: &[u8]) -> String {
    let s = String::from_utf8_lossy(s);
    let s = s.trim();
    let start = s.len().saturating_sub(400);
    let start = (start..=s.len()).find(|&i| s.is_char_boundary(i)).unwrap_or(s.len());
    s[start..].to_string()
}

/// Build (if needed) and run the CuTe C++ benchmark. `Err` says why it is unavailable.
pub fn run_cpp(bench: &Path) -> Result<Results, String> {
    let src = bench.join("cute_runtime_bench.cpp");
    if !src.is_file() {
        return Err(format!("{} not found", src.display()));
    }
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".to_string());
    let includes = match std::env::var("KUTE_CUTE_INCLUDES") {
        Ok(flags) => flags,
        Err(_) => {
            let script = bench.join("../oracle/includes.sh");
            if !script.is_file() {
                return Err(format!("{} not found (set KUTE_CUTE_INCLUDES to the -I flags)", script.display()));
            }
            let o = Command::new("bash")
                .arg(&script)
                .output()
                .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
            if !o.status.success() {
                return Err(format!("{} failed: {}", script.display(), tail(&o.stderr)));
            }
            String::from_utf8_lossy(&o.stdout).trim().to_string()
        }
    };
    let out_dir = repo_root().join("target/kute-bench");
    std::fs::create_dir_all(&out_dir).map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;
    let exe = out_dir.join("cute_runtime_bench");
    let fresh = match (
        std::fs::metadata(&exe).and_then(|m| m.modified()),
        std::fs::metadata(&src).and_then(|m| m.modified()),
    ) {
        (Ok(e), Ok(s)) => e > s && std::env::var_os("KUTE_BENCH_REBUILD").is_none(),
        _ => false,
    };
    if !fresh {
        eprintln!("building {} with {cxx} -O2 ...", src.display());
        let o = Command::new(&cxx)
            .args(["-std=c++17", "-O2", "-w"])
            .args(includes.split_whitespace())
            .arg(&src)
            .arg("-o")
            .arg(&exe)
            .output()
            .map_err(|e| format!("cannot run {cxx}: {e}"))?;
        if !o.status.success() {
            return Err(format!("{cxx} failed: {}", tail(&o.stderr)));
        }
    }
    eprintln!("running CuTe C++ ...");
    let o = Command::new(&exe).output().map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    if !o.status.success() {
        return Err(format!("{} failed: {}", exe.display(), tail(&o.stderr)));
    }
    let r = parse_table(&String::from_utf8_lossy(&o.stdout));
    if r.is_empty() {
        return Err("the C++ benchmark printed no results".into());
    }
    Ok(r)
}

/// Run the pycute benchmark. `Err` says why it is unavailable.
pub fn run_pycute(bench: &Path) -> Result<Results, String> {
    let script = bench.join("pycute_bench.py");
    if !script.is_file() {
        return Err(format!("{} not found", script.display()));
    }
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
    eprintln!("running pycute ...");
    let mut cmd = Command::new(&python);
    cmd.arg(&script);
    if let Some(dir) = std::env::var_os("KUTE_PYCUTE_DIR") {
        cmd.arg(dir);
    }
    let o = cmd.output().map_err(|e| format!("cannot run {python}: {e}"))?;
    if !o.status.success() {
        return Err(format!("{python} {} failed: {}", script.display(), tail(&o.stderr)));
    }
    let r = parse_table(&String::from_utf8_lossy(&o.stdout));
    if r.is_empty() {
        return Err("the pycute benchmark printed no results".into());
    }
    Ok(r)
}
