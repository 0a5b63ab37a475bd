//! Plan choices recorded per problem: what `kute-cuda tune` measured
//! fastest on a GPU, which [`crate::library::gemm_with`] takes in place of
//! its heuristics ([`crate::gemm_sm90::tile_n_heuristic`] and
//! [`crate::gemm_sm90::Sm90Problem::split_heuristic`]) for exactly that
//! problem on that kind of GPU. Choices the caller pins in
//! [`crate::library::GemmOptions`] come first.
//!
//! The table is a text file of JSON lines, one problem each:
//!
//! ```text
//! {"gpu":"NVIDIA H200","elem":"f16","c":"f16","majors":"TN","m":6000,"n":3000,"k":1000,"batch":1,"tile_n":256,"splits":1}
//! ```
//!
//! Its path is `$KUTE_CUDA_TUNE`, else `tune.jsonl` in the kernel cache's
//! folder ([`crate::cache`]); `KUTE_CUDA_TUNE=off` turns it off. A choice
//! only changes the speed, never the result: every choice computes the
//! same sums.

use crate::gemm_sm90::TILE_NS;
use crate::{Elem, Error, Result};
use std::collections::BTreeMap;
use std::path::PathBuf;

const OP: &str = "tune table";

/// A problem as the table keys it: the GPU's name, the input and output
/// types, the operands' majors, the sizes and the batch.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TuneKey {
    /// The GPU's name (`Gpu::name`, e.g. `NVIDIA H200`).
    pub gpu: String,
    /// The inputs' type.
    pub elem: Elem,
    /// `C`'s type.
    pub c_elem: Elem,
    /// Whether A and B are K-major.
    pub k_major: (bool, bool),
    /// `(M, N, K)`.
    pub mnk: (i64, i64, i64),
    /// Matrices in the batch.
    pub batch: i64,
    /// Whether the choice is the SM80 kernels' (`"kernels":"sm80"`; on a
    /// Hopper GPU the library runs its SM90 kernels unless asked for
    /// these).
    pub sm80: bool,
}

/// The choices the table records for a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The block tile's width: one of [`TILE_NS`].
    pub tile_n: i64,
    /// The k-tiles' splits (1: none).
    pub splits: i64,
    /// The blocks of a cluster (1 or 2; tables written before clusters
    /// read as 1).
    pub cluster: i64,
}

/// Recorded choices by problem.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TuneTable {
    entries: BTreeMap<TuneKey, Choice>,
}

/// BLAS's name of the majors.
fn majors(k_major: (bool, bool)) -> &'static str {
    match k_major {
        (true, true) => "TN",
        (false, false) => "NT",
        (false, true) => "NN",
        (true, false) => "TT",
    }
}

impl TuneTable {
    /// The choice recorded for `key`, if any.
    ///
    /// Pre: none. Post: the choice last inserted or read for `key`.
    ///
    /// ```
    /// use kute_cuda::{tune::{Choice, TuneKey, TuneTable}, Elem};
    /// let key = TuneKey { gpu: "NVIDIA H200".into(), elem: Elem::F16, c_elem: Elem::F16,
    ///                     k_major: (true, true), mnk: (256, 8192, 8192), batch: 1, sm80: false };
    /// let mut t = TuneTable::default();
    /// assert_eq!(t.get(&key), None);
    /// t.insert(key.clone(), Choice { tile_n: 128, splits: 1, cluster: 1 }).unwrap();
    /// assert_eq!(t.get(&key), Some(Choice { tile_n: 128, splits: 1, cluster: 1 }));
    /// ```
    pub fn get(&self, key: &TuneKey) -> Option<Choice> {
        self.entries.get(key).copied()
    }

    /// Records `choice` for `key`, replacing an earlier one.
    ///
    /// Pre: `choice.tile_n` one of [`TILE_NS`], `choice.splits` at least 1
    /// (else an `Unsupported` error naming the choice). Post: `get(&key)`
    /// is `choice`.
    ///
    /// ```
    /// use kute_cuda::{tune::{Choice, TuneKey, TuneTable}, Elem};
    /// let key = TuneKey { gpu: "g".into(), elem: Elem::E4m3, c_elem: Elem::Bf16,
    ///                     k_major: (true, true), mnk: (128, 8192, 8192), batch: 1, sm80: false };
    /// let mut t = TuneTable::default();
    /// assert!(t.insert(key.clone(), Choice { tile_n: 96, splits: 1, cluster: 1 }).is_err()); // no such width
    /// t.insert(key.clone(), Choice { tile_n: 64, splits: 2, cluster: 1 }).unwrap();
    /// t.insert(key.clone(), Choice { tile_n: 64, splits: 1, cluster: 1 }).unwrap(); // replaces
    /// assert_eq!((t.len(), t.get(&key).unwrap().splits), (1, 1));
    /// ```
    pub fn insert(&mut self, key: TuneKey, choice: Choice) -> Result<()> {
        let widths: &[i64] = if key.sm80 { &crate::library::SM80_TILE_NS } else { &TILE_NS };
        let clusters = if key.sm80 { 1..=1 } else { 1..=2 };
        if !widths.contains(&choice.tile_n) || choice.splits < 1 || !clusters.contains(&choice.cluster) {
            return Err(Error::unsupported(
                OP,
                format!(
                    "tile width {}, {} splits and clusters of {} (a width of {widths:?}, splits from 1, clusters of {clusters:?})",
                    choice.tile_n, choice.splits, choice.cluster
                ),
            ));
        }
        self.entries.insert(key, choice);
        Ok(())
    }

    /// Problems recorded.
    ///
    /// Pre: none. Post: the number of distinct keys.
    ///
    /// ```
    /// assert_eq!(kute_cuda::tune::TuneTable::default().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is recorded.
    ///
    /// Pre: none. Post: `len() == 0`.
    ///
    /// ```
    /// assert!(kute_cuda::tune::TuneTable::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Reads the JSON lines of [`TuneTable::to_text`]; blank lines are
    /// skipped.
    ///
    /// Pre: none. Post: the table, or an `Unsupported` error naming the
    /// line and what is wrong with it.
    ///
    /// ```
    /// use kute_cuda::tune::{Choice, TuneKey, TuneTable};
    /// let text = r#"{"gpu":"NVIDIA H200","elem":"f16","c":"f16","majors":"TN","m":128,"n":8192,"k":8192,"batch":1,"tile_n":64,"splits":1}"#;
    /// let t = TuneTable::parse(text).unwrap();
    /// let key = TuneKey { gpu: "NVIDIA H200".into(), elem: kute_cuda::Elem::F16, c_elem: kute_cuda::Elem::F16,
    ///                     k_major: (true, true), mnk: (128, 8192, 8192), batch: 1, sm80: false };
    /// assert_eq!(t.get(&key), Some(Choice { tile_n: 64, splits: 1, cluster: 1 }));
    /// assert_eq!(TuneTable::parse(&t.to_text()).unwrap(), t);
    /// assert!(TuneTable::parse(&text.replace("64,", "96,")).is_err()); // no such width
    /// ```
    pub fn parse(text: &str) -> Result<TuneTable> {
        let mut t = TuneTable::default();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let bad = |why: String| Error::unsupported(OP, format!("line {}: {why}", i + 1));
            let v: serde_json::Value = serde_json::from_str(line).map_err(|e| bad(e.to_string()))?;
            let text_of = |f: &str| v[f].as_str().ok_or_else(|| bad(format!("no text \"{f}\"")));
            let int_of = |f: &str| v[f].as_i64().ok_or_else(|| bad(format!("no integer \"{f}\"")));
            let elem_of = |f: &str| -> Result<Elem> { text_of(f)?.parse::<Elem>().map_err(&bad) };
            let k_major = match text_of("majors")? {
                "TN" => (true, true),
                "NT" => (false, false),
                "NN" => (false, true),
                "TT" => (true, false),
                m => return Err(bad(format!("majors \"{m}\" (TN, NT, NN or TT)"))),
            };
            let key = TuneKey {
                gpu: text_of("gpu")?.to_string(),
                elem: elem_of("elem")?,
                c_elem: elem_of("c")?,
                k_major,
                mnk: (int_of("m")?, int_of("n")?, int_of("k")?),
                batch: int_of("batch")?,
                sm80: match v["kernels"].as_str() {
                    None => false,
                    Some("sm80") => true,
                    Some(k) => return Err(bad(format!("kernels \"{k}\" (sm80, or none for the GPU's own)"))),
                },
            };
            let cluster = if v["cluster"].is_null() { 1 } else { int_of("cluster")? };
            let choice = Choice { tile_n: int_of("tile_n")?, splits: int_of("splits")?, cluster };
            t.insert(key, choice).map_err(|e| bad(e.to_string()))?;
        }
        Ok(t)
    }

    /// The table as JSON lines, one problem each, in key order.
    ///
    /// Pre: none. Post: text [`TuneTable::parse`] reads back to this table.
    ///
    /// ```
    /// use kute_cuda::{tune::{Choice, TuneKey, TuneTable}, Elem};
    /// let mut t = TuneTable::default();
    /// let key = TuneKey { gpu: "g".into(), elem: Elem::F16, c_elem: Elem::F32,
    ///                     k_major: (false, true), mnk: (1, 2, 8), batch: 3, sm80: false };
    /// t.insert(key, Choice { tile_n: 256, splits: 1, cluster: 1 }).unwrap();
    /// assert!(t.to_text().contains(r#""majors":"NN""#));
    /// assert_eq!(TuneTable::parse(&t.to_text()).unwrap(), t);
    /// ```
    pub fn to_text(&self) -> String {
        self.entries
            .iter()
            .map(|(k, c)| {
                let (m, n, kk) = k.mnk;
                let mut line = serde_json::json!({
                    "gpu": k.gpu, "elem": k.elem.to_string(), "c": k.c_elem.to_string(),
                    "majors": majors(k.k_major), "m": m, "n": n, "k": kk, "batch": k.batch,
                    "tile_n": c.tile_n, "splits": c.splits, "cluster": c.cluster,
                });
                if k.sm80 {
                    line["kernels"] = "sm80".into();
                }
                format!("{line}\n")
            })
            .collect()
    }

    /// The table file's path: `$KUTE_CUDA_TUNE`, else `tune.jsonl` in the
    /// kernel cache's folder; `None` where `KUTE_CUDA_TUNE=off` or no
    /// folder is known.
    ///
    /// Pre: none. Post: the path, or `None`.
    ///
    /// ```no_run
    /// if let Some(p) = kute_cuda::tune::TuneTable::path() {
    ///     println!("the library reads its recorded choices from {}", p.display());
    /// }
    /// ```
    pub fn path() -> Option<PathBuf> {
        match std::env::var_os("KUTE_CUDA_TUNE") {
            Some(v) if v == "off" => None,
            Some(v) if !v.is_empty() => Some(PathBuf::from(v)),
            _ => crate::cache::folder().map(|d| d.join("tune.jsonl")),
        }
    }

    /// The table at [`TuneTable::path`]: empty where there is none.
    ///
    /// Pre: none. Post: the table, or an `Unsupported` error naming the
    /// file where it exists but cannot be read or parsed.
    ///
    /// ```no_run
    /// let t = kute_cuda::tune::TuneTable::load()?;
    /// println!("{} problems recorded", t.len());
    /// # Ok::<(), kute_cuda::Error>(())
    /// ```
    pub fn load() -> Result<TuneTable> {
        let Some(path) = TuneTable::path() else { return Ok(TuneTable::default()) };
        match std::fs::read_to_string(&path) {
            Ok(text) => TuneTable::parse(&text).map_err(|e| Error::unsupported(OP, format!("{}: {e}", path.display()))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(TuneTable::default()),
            Err(e) => Err(Error::unsupported(OP, format!("{}: {e}", path.display()))),
        }
    }

    /// Writes the table to `path` (its folder made where missing).
    ///
    /// Pre: none. Post: the file holds [`TuneTable::to_text`], or an
    /// `Unsupported` error naming the file.
    ///
    /// ```
    /// use kute_cuda::tune::TuneTable;
    /// let path = std::env::temp_dir().join(format!("kute-tune-doc-{}.jsonl", std::process::id()));
    /// let t = TuneTable::parse(r#"{"gpu":"g","elem":"bf16","c":"bf16","majors":"TN","m":8,"n":8,"k":8,"batch":1,"tile_n":64,"splits":1}"#).unwrap();
    /// t.save(&path).unwrap();
    /// assert_eq!(TuneTable::parse(&std::fs::read_to_string(&path).unwrap()).unwrap(), t);
    /// std::fs::remove_file(&path).unwrap();
    /// ```
    pub fn save(&self, path: &std::path::Path) -> Result<()> {
        let fail = |e: std::io::Error| Error::unsupported(OP, format!("{}: {e}", path.display()));
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(fail)?;
        }
        std::fs::write(path, self.to_text()).map_err(fail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key and choice survives the text; a later line replaces an
    /// earlier one of the same problem; broken lines are errors that name
    /// their line.
    #[test]
    fn the_table_reads_back_what_it_writes() {
        let mut t = TuneTable::default();
        let mut n = 0;
        for gpu in ["NVIDIA H200", "NVIDIA H100 80GB HBM3"] {
            for (elem, c_elem) in [(Elem::F16, Elem::F16), (Elem::Bf16, Elem::F32), (Elem::E4m3, Elem::Bf16)] {
                for (i, k_major) in [(true, true), (false, false), (false, true), (true, false)].into_iter().enumerate()
                {
                    let key = TuneKey {
                        gpu: gpu.into(),
                        elem,
                        c_elem,
                        k_major,
                        mnk: (100 + i as i64, 200, 64),
                        batch: 1 + i as i64,
                        sm80: false,
                    };
                    let choice =
                        Choice { tile_n: TILE_NS[i % TILE_NS.len()], splits: 1 + i as i64, cluster: 1 + i as i64 % 2 };
                    t.insert(key.clone(), choice).unwrap();
                    // the SM80 kernels' choice for the same problem, beside it
                    let sm80 = TuneKey { sm80: true, ..key };
                    let w = [128, 64][i % 2];
                    t.insert(sm80.clone(), Choice { tile_n: w, splits: 1 + i as i64, cluster: 1 }).unwrap();
                    assert!(t.clone().insert(sm80, Choice { tile_n: 256, splits: 1, cluster: 1 }).is_err());
                    n += 2;
                }
            }
        }
        assert_eq!(t.len(), n);
        let back = TuneTable::parse(&t.to_text()).unwrap();
        assert_eq!(back, t);
        let text = t.to_text();
        let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        let with = |field: &str, value: serde_json::Value| {
            let mut v = first.clone();
            v[field] = value;
            v.to_string()
        };
        let twice = format!("{first}\n{}\n", with("splits", 3.into()));
        let one = TuneTable::parse(&twice).unwrap();
        assert_eq!(one.len(), 1);
        assert_eq!(one.entries.values().next().unwrap().splits, 3);
        // a table written before clusters: clusters of 1
        let mut old = first.clone();
        if let Some(o) = old.as_object_mut() {
            o.remove("cluster");
        }
        assert_eq!(TuneTable::parse(&old.to_string()).unwrap().entries.values().next().unwrap().cluster, 1);
        let mut renamed = first.clone();
        if let Some(o) = renamed.as_object_mut() {
            let m = o.remove("m").unwrap();
            o.insert("rows".into(), m);
        }
        for broken in [
            with("majors", "XY".into()),
            with("elem", "f8".into()),
            with("splits", 0.into()),
            with("tile_n", 96.into()),
            with("cluster", 3.into()),
            with("kernels", "sm70".into()),
            renamed.to_string(),
            "{not json".to_string(),
        ] {
            let e = TuneTable::parse(&format!("\n{broken}")).unwrap_err().to_string();
            assert!(e.contains("line 2"), "{broken}: {e}");
        }
    }
}
