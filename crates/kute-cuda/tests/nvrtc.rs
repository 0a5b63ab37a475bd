//! NVRTC compiles every kernel kute-cuda generates, for `sm_80` and `sm_90`
//! (and the `wgmma` kernels for `sm_90a`)
//! (CI has no GPU; NVRTC needs none). NVRTC comes from NVIDIA's PyPI wheel
//! `nvidia-cuda-nvrtc` (CUDA 13, the version `cudarc` is built for),
//! downloaded once into `~/.cache/kute-nvrtc` (or `$KUTE_NVRTC_DIR`). Where
//! it cannot be downloaded the test says so on the terminal and is skipped;
//! set `KUTE_REQUIRE_NVRTC=1` to make that a failure.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Prints past the test harness's capture, so that a skip is seen.
fn loud(msg: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{msg}");
}

fn find_lib(dir: &Path) -> Option<PathBuf> {
    let entries = std::fs::read_dir(dir).ok()?;
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if let Some(found) = find_lib(&p) {
                return Some(found);
            }
        } else if p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("libnvrtc.so.13")) {
            return p.parent().map(Path::to_path_buf);
        }
    }
    None
}

/// The folder holding `libnvrtc.so.13`, downloading the wheel once (the
/// tests run in parallel).
fn nvrtc_dir() -> Result<PathBuf, String> {
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    DIR.get_or_init(fetch_nvrtc).clone()
}

fn fetch_nvrtc() -> Result<PathBuf, String> {
    if !(cfg!(target_os = "linux") && cfg!(target_arch = "x86_64")) {
        return Err("NVIDIA's NVRTC wheel is fetched for x86-64 Linux only".into());
    }
    let cache = match std::env::var_os("KUTE_NVRTC_DIR") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(std::env::var_os("HOME").ok_or("HOME is not set")?).join(".cache/kute-nvrtc"),
    };
    let unpacked = cache.join("unpacked");
    if let Some(dir) = find_lib(&unpacked) {
        return Ok(dir);
    }
    std::fs::create_dir_all(&cache).map_err(|e| format!("{}: {e}", cache.display()))?;
    let dl = Command::new("python3")
        .args(["-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--platform", "manylinux2014_x86_64"])
        .args([
            "--platform",
            "manylinux_2_17_x86_64",
            "--platform",
            "manylinux_2_28_x86_64",
            "--python-version",
            "3.11",
            "-d",
        ])
        .arg(&cache)
        .arg("nvidia-cuda-nvrtc>=13,<14")
        .output()
        .map_err(|e| format!("python3 -m pip: {e}"))?;
    if !dl.status.success() {
        return Err(format!("pip download nvidia-cuda-nvrtc failed: {}", String::from_utf8_lossy(&dl.stderr).trim()));
    }
    let wheel = std::fs::read_dir(&cache)
        .map_err(|e| e.to_string())?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .ok_or("pip saved no wheel")?;
    let unzip = Command::new("python3")
        .args(["-m", "zipfile", "-e"])
        .arg(&wheel)
        .arg(&unpacked)
        .status()
        .map_err(|e| format!("python3 -m zipfile: {e}"))?;
    if !unzip.success() {
        return Err(format!("could not unpack {}", wheel.display()));
    }
    find_lib(&unpacked).ok_or_else(|| format!("no libnvrtc.so.13 in {}", wheel.display()))
}

#[test]
#[ignore = "downloads NVRTC: run by the README's test command with `-- --ignored toolchain_`"]
fn toolchain_nvrtc_compiles_every_generated_kernel_for_sm80_and_sm90() {
    let dir = match nvrtc_dir() {
        Ok(d) => d,
        Err(why) => {
            if std::env::var_os("KUTE_REQUIRE_NVRTC").is_some() {
                panic!("NVRTC is required (KUTE_REQUIRE_NVRTC) but unavailable: {why}");
            }
            loud(&format!("SKIPPED toolchain_nvrtc_compiles_every_generated_kernel: {why}"));
            return;
        }
    };
    let out = Command::new(env!("CARGO_BIN_EXE_kute-cuda"))
        .args(["ptx", "--arch", "sm_80,sm_90"])
        .env("LD_LIBRARY_PATH", &dir)
        .output()
        .expect("kute-cuda runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "NVRTC rejected kernels:\n{stdout}\n{stderr}");
    // every attention kernel variant, for both architectures (the SM90
    // kernels for sm_90a)
    for (arch, least) in [("sm_80", 12), ("sm_90", 12), ("sm_90a", 28)] {
        let head = format!("{arch} attention: ");
        let line = stdout.lines().find(|l| l.starts_with(&head)).unwrap_or_else(|| panic!("no {head} line:\n{stdout}"));
        let n: usize = line[head.len()..].split_whitespace().next().and_then(|n| n.parse().ok()).expect("a count");
        assert!(n >= least && line.ends_with(" 0 failed"), "{line}");
    }
    // sm_90a: the wgmma kernels
    for (arch, least) in [("sm_80:", 40), ("sm_90:", 40), ("sm_90a:", 16)] {
        let line = stdout.lines().find(|l| l.starts_with(arch)).unwrap_or_else(|| panic!("no {arch} line:\n{stdout}"));
        let n: usize = line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).expect("a count");
        assert!(n >= least, "{line}");
        assert!(line.ends_with(" 0 failed"), "{line}");
    }
}

#[test]
#[ignore = "downloads NVRTC: run by the README's test command with `-- --ignored toolchain_`"]
fn toolchain_nvrtc_reports_a_bad_kernel_with_its_log() {
    // The same path the catalogue takes, fed a kernel with a type error: the
    // test of the test above (NVRTC's failures are reported, not ignored).
    let Ok(dir) = nvrtc_dir() else {
        loud("SKIPPED toolchain_nvrtc_reports_a_bad_kernel_with_its_log: no NVRTC");
        return;
    };
    let out = Command::new(env!("CARGO_BIN_EXE_kute-cuda"))
        .args(["compile-one", "--arch", "sm_90"])
        .arg("extern \"C\" __global__ void k(int* p) { p[0] = undefined_name; }")
        .env("LD_LIBRARY_PATH", &dir)
        .output()
        .expect("kute-cuda runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("undefined_name"), "{stderr}");
}

#[test]
#[ignore = "downloads NVRTC: run by the README's test command with `-- --ignored toolchain_`"]
fn toolchain_the_attention_kernels_spill_at_most_a_few_registers() {
    // NVRTC's ptxas compiles every attention kernel of the catalogue to
    // sm_90 machine code (the SM90 kernels to sm_90a, where their consumer
    // warpgroups' 240 registers hold O, S and P at once) and reports spills:
    // `attention-regs` fails where a kernel spills more than a few registers
    // (the SM80 kernels' fastest tiles sit at the 255-register edge)
    let Ok(dir) = nvrtc_dir() else {
        if std::env::var_os("KUTE_REQUIRE_NVRTC").is_some() {
            panic!("NVRTC is required (KUTE_REQUIRE_NVRTC) but unavailable");
        }
        loud("SKIPPED toolchain_the_attention_kernels_spill_at_most_a_few_registers: no NVRTC");
        return;
    };
    let out = Command::new(env!("CARGO_BIN_EXE_kute-cuda"))
        .args(["attention-regs", "--arch", "sm_90"])
        .env("LD_LIBRARY_PATH", &dir)
        .output()
        .expect("kute-cuda runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let sm90 = stdout.lines().filter(|l| l.starts_with("sm_90a kute_attention_sm90_")).count();
    assert!(sm90 >= 28, "{stdout}");
}

#[test]
#[ignore = "downloads NVRTC: run by the README's test command with `-- --ignored toolchain_`"]
fn toolchain_the_library_gemm_kernels_do_not_spill_registers() {
    // NVRTC's ptxas compiles the library's kernels to sm_90a machine code
    // and reports their spills: a fused epilogue that held all its values
    // at once spilled 450 to 600 bytes and ran 20% slower.
    let Ok(dir) = nvrtc_dir() else {
        if std::env::var_os("KUTE_REQUIRE_NVRTC").is_some() {
            panic!("NVRTC is required (KUTE_REQUIRE_NVRTC) but unavailable");
        }
        loud("SKIPPED toolchain_the_library_gemm_kernels_do_not_spill_registers: no NVRTC");
        return;
    };
    let out = Command::new(env!("CARGO_BIN_EXE_kute-cuda"))
        .arg("spills")
        .env("LD_LIBRARY_PATH", &dir)
        .output()
        .expect("kute-cuda runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let gemms = stdout.lines().filter(|l| l.starts_with("| gemm |")).count();
    assert!(gemms >= 12, "{stdout}");
}
