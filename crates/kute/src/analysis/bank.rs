//! Bank conflicts of one warp-wide access (the model is in the
//! [module docs](super)).

use super::{elem_log2, offsets_of, thread_offsets, tv_coords, tv_extents, Access, ThreadAccess, WARP};
use crate::composed::AnyLayout;
use crate::error::{Error, Result};
use crate::layout::Layout;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The wavefronts of one phase of one instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseReport {
    /// The instruction (chunk of each thread's values), from 0.
    pub instruction: usize,
    /// The phase within the instruction, from 0.
    pub phase: usize,
    /// Its wavefronts: the most distinct words in one bank (0 if no thread of
    /// the phase is active).
    pub wavefronts: i64,
}

/// The cost of one warp-wide access in shared-memory wavefronts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankReport {
    /// Total wavefronts over every instruction and phase.
    pub wavefronts: i64,
    /// `ceil(bytes / 128)`, at least 1: the fewest wavefronts that move the bytes.
    pub ideal: i64,
    /// Active threads (at most 32).
    pub threads: usize,
    /// Values per thread (`V`).
    pub values: i64,
    /// Elements per vector instruction (`w`, the warp-wide width).
    pub vector_elems: i64,
    /// Bytes per vector instruction, `w * elem_bytes`.
    pub vector_bytes: i64,
    /// Instructions per thread, `V / w`.
    pub instructions: i64,
    /// Bytes the warp accesses, `threads * V * elem_bytes`.
    pub bytes: i64,
    /// Each instruction's phases, in order.
    pub phases: Vec<PhaseReport>,
}

impl BankReport {
    /// The conflict degree, `wavefronts / ideal` (1 is conflict-free).
    ///
    /// Pre: none. Post: `wavefronts as f64 / ideal as f64`.
    ///
    /// ```
    /// use kute::analysis::{bank_conflicts, Access};
    /// let plain = kute::expr::eval("(_8,_64):(_64,_1)").unwrap().to_any_layout("s").unwrap();
    /// let r = bank_conflicts(&plain, 2, &Access::parse("column:16").unwrap()).unwrap();
    /// assert_eq!(r.degree(), 8.0);
    /// ```
    pub fn degree(&self) -> f64 {
        self.wavefronts as f64 / self.ideal as f64
    }

    /// Bank conflicts as a profiler counts them: the wavefronts beyond one
    /// per phase that any thread is active in.
    ///
    /// Pre: none. Post: the sum over phases of `max(0, wavefronts - 1)`.
    ///
    /// ```
    /// use kute::analysis::{bank_conflicts, Access};
    /// let plain = kute::expr::eval("(_32,_32):(_32,_1)").unwrap().to_any_layout("s").unwrap();
    /// // one element down a column per thread: 32 words in one bank
    /// assert_eq!(bank_conflicts(&plain, 4, &Access::parse("column:4").unwrap()).unwrap().conflicts(), 31);
    /// ```
    pub fn conflicts(&self) -> i64 {
        self.phases.iter().map(|p| (p.wavefronts - 1).max(0)).sum()
    }

    /// Whether the access costs its ideal number of wavefronts.
    ///
    /// Pre: none. Post: `wavefronts <= ideal`.
    ///
    /// ```
    /// use kute::analysis::{bank_conflicts, Access};
    /// let plain = kute::expr::eval("(_8,_64):(_64,_1)").unwrap().to_any_layout("s").unwrap();
    /// assert!(bank_conflicts(&plain, 2, &Access::parse("row:16").unwrap()).unwrap().is_conflict_free());
    /// ```
    pub fn is_conflict_free(&self) -> bool {
        self.wavefronts <= self.ideal
    }
}

impl fmt::Display for BankReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let values = super::counted(self.values, "value");
        writeln!(f, "threads:     {} active, {values} each ({} bytes in all)", self.threads, self.bytes)?;
        writeln!(
            f,
            "vector:      {} bytes ({}) per instruction, {} per thread",
            self.vector_bytes,
            super::counted(self.vector_elems, "element"),
            super::counted(self.instructions, "instruction")
        )?;
        let verdict = if self.is_conflict_free() {
            "conflict-free".to_string()
        } else if self.wavefronts % self.ideal == 0 {
            format!("{}-way conflict", self.wavefronts / self.ideal)
        } else {
            format!("{:.2}x the ideal", self.degree())
        };
        writeln!(f, "wavefronts:  {} (ideal {}): {verdict}", self.wavefronts, self.ideal)?;
        let mut per: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        for p in &self.phases {
            per.entry(p.instruction).or_default().push(p.wavefronts.to_string());
        }
        let shown = per.len().min(8);
        for (i, w) in per.iter().take(shown) {
            writeln!(f, "phases:      instruction {i}: {}", w.join(" "))?;
        }
        if per.len() > shown {
            writeln!(f, "phases:      ... {} more instructions", per.len() - shown)?;
        }
        Ok(())
    }
}

/// The wavefronts of one warp-wide access of `smem` with `elem_bytes`-byte
/// elements, in the bank model of the [module docs](super).
///
/// Pre: `elem_bytes` in 1, 2, 4, 8, 16; `smem` has a shape (not a bare
/// swizzle; else a `Type` error); a named pattern needs a rank-2 tile (else a
/// `Mismatch` error) and a byte width that is a whole number of elements and
/// whose vectors divide the tile (else `Inadmissible`); every accessed tile
/// coordinate is inside the tile (else `Inadmissible`); 1 to
/// [`MAX_VALUES`](super::MAX_VALUES) values per thread (else `Limit`); byte
/// addresses fit in `i64` (else `Overflow`).
/// Post: `wavefronts` is the sum of `phases`; `ideal = max(1, ceil(bytes/128))`;
/// `vector_elems * instructions == values`.
///
/// ```
/// use kute::analysis::{bank_conflicts, Access};
/// let smem = kute::expr::eval("(_32,_32):(_32,_1)").unwrap().to_any_layout("s").unwrap();
/// // 4-byte elements, each thread one element down a column: all in bank 0
/// let r = bank_conflicts(&smem, 4, &Access::parse("column:4").unwrap()).unwrap();
/// assert_eq!((r.wavefronts, r.ideal), (32, 1));
/// ```
pub fn bank_conflicts(smem: &AnyLayout, elem_bytes: i64, access: &Access) -> Result<BankReport> {
    crate::sym::refuse("bank_conflicts", || smem.has_symbols())?;
    elem_log2(elem_bytes, "analysis")?;
    let (threads, values) = thread_offsets(smem, elem_bytes, access)?;
    report(&threads, values, elem_bytes)
}

/// The wavefronts of every warp of a thread block's access of `smem`: the
/// TV layout `tv` of shape `(threads, values)` gives each thread's tile
/// coordinates, and warp `w` is threads `32w .. 32w+31` (the last warp may be
/// partial). This is what a kernel whose block runs `tv` costs per block; a
/// profiler's count of shared-memory wavefronts is the sum of these times
/// the number of blocks.
///
/// Pre: as [`bank_conflicts`] with `Access::Tv(tv)`, for every warp.
/// Post: one report per warp, in order, `ceil(threads / 32)` of them; report
/// 0 equals `bank_conflicts(smem, elem_bytes, &Access::Tv(tv))`.
///
/// ```
/// use kute::analysis::block_bank_conflicts;
/// let smem = kute::expr::eval("(_32,_32):(_32,_1)").unwrap().to_any_layout("s").unwrap();
/// // 64 threads, each reading one element of a column: every warp 32-way
/// let tv = "(_64,_1):(_1,_0)".parse().unwrap();
/// let r = block_bank_conflicts(&smem, 4, &tv).unwrap();
/// assert_eq!(r.iter().map(|w| w.wavefronts).collect::<Vec<_>>(), [32, 32]);
/// ```
pub fn block_bank_conflicts(smem: &AnyLayout, elem_bytes: i64, tv: &Layout) -> Result<Vec<BankReport>> {
    crate::sym::refuse("block_bank_conflicts", || smem.has_symbols() || tv.has_symbols())?;
    elem_log2(elem_bytes, "analysis")?;
    let (threads, _) = tv_extents(tv)?;
    let warps = (threads + WARP as i64 - 1) / WARP as i64;
    (0..warps)
        .map(|w| {
            let (coords, values) = tv_coords(tv, w)?;
            report(&offsets_of(smem, &coords)?, values, elem_bytes)
        })
        .collect()
}

/// The report of one warp's accesses.
pub(crate) fn report(threads: &[ThreadAccess], values: i64, elem_bytes: i64) -> Result<BankReport> {
    let (w, all) = phases(threads, values, elem_bytes)?;
    let vbytes = w * elem_bytes;
    let instructions = values / w;
    let phases: Vec<PhaseReport> = all
        .iter()
        .map(|p| PhaseReport {
            instruction: p.instruction,
            phase: p.phase,
            wavefronts: p.per_bank.iter().copied().max().unwrap_or(0),
        })
        .collect();
    let bytes = threads.len() as i64 * values * elem_bytes;
    Ok(BankReport {
        wavefronts: phases.iter().map(|p| p.wavefronts).sum(),
        ideal: ((bytes + 127) / 128).max(1),
        threads: threads.len(),
        values,
        vector_elems: w,
        vector_bytes: vbytes,
        instructions,
        bytes,
        phases,
    })
}

/// One element a warp-wide access touches: its tile coordinate (1-D), the
/// thread, and whether its bank holds another word in the same phase (a
/// conflict).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccessedCell {
    /// The 1-D coordinate of the element in the tile.
    pub coord: i64,
    /// The thread that accesses it.
    pub thread: usize,
    /// Whether another word of the element's bank is accessed in the same
    /// phase of the same instruction.
    pub conflict: bool,
}

/// Every element of one warp-wide access, with its thread and whether it is
/// in a conflicting bank (as [`bank_conflicts`] counts them): what `kute svg
/// --access` outlines.
///
/// Pre: as [`bank_conflicts`]. Post: one entry per (thread, value); `conflict`
/// is set exactly when the element's phase has more than one distinct word in
/// one of the banks the element's own words fall in.
///
/// ```
/// use kute::analysis::{accessed_cells, Access};
/// let plain = kute::expr::eval("(_8,_64):(_64,_1)").unwrap().to_any_layout("s").unwrap();
/// let cells = accessed_cells(&plain, 2, &Access::parse("column:16").unwrap()).unwrap();
/// assert_eq!(cells.len(), 32 * 8);
/// assert!(cells.iter().all(|c| c.conflict)); // 8-way: every bank is shared
/// ```
pub fn accessed_cells(smem: &AnyLayout, elem_bytes: i64, access: &Access) -> Result<Vec<AccessedCell>> {
    crate::sym::refuse("accessed_cells", || smem.has_symbols())?;
    elem_log2(elem_bytes, "analysis")?;
    let (coords, values) = super::tile_coords(smem, elem_bytes, access)?;
    let threads = super::offsets_of(smem, &coords)?;
    let (w, all) = phases(&threads, values, elem_bytes)?;
    let mut out = Vec::new();
    for p in &all {
        for &k in &p.members {
            for e in 0..w as usize {
                let i = p.instruction * w as usize + e;
                let (a, b) = words_of(threads[k].offsets[i], elem_bytes)?;
                let conflict = (a..=b).any(|wd| p.per_bank[wd.rem_euclid(32) as usize] > 1);
                out.push(AccessedCell { coord: coords[k].1[i], thread: threads[k].thread, conflict });
            }
        }
    }
    Ok(out)
}

/// The options of an SVG picture of `smem` coloured by bank for elements of
/// `elem_bytes` bytes, with the cells one warp's `access` touches outlined
/// and labelled with their threads (`kute svg --banks BYTES --access
/// ACCESS`), red where the bank is shared in the access's phase (as
/// [`accessed_cells`] marks them).
///
/// Pre: as [`accessed_cells`] (a layout of element offsets, a power-of-two
/// element size, an access of the tile). Post: `banks` is `Some(elem_bytes)`;
/// one mark per element accessed, at its cell of the picture's grid
/// (row-major: `m · cols + n`; a rank-1 layout is a column), labelled
/// `t<thread>`.
///
/// ```
/// use kute::analysis::{svg_options, Access};
/// let l = kute::expr::eval("(_8,_64):(_64,_1)").unwrap().to_any_layout("l").unwrap();
/// let o = svg_options(&l, 2, &Access::parse("column:16").unwrap()).unwrap();
/// assert_eq!((o.banks, o.marks.len()), (Some(2), 256));
/// // thread 8 reads the next 16 bytes of row 0: columns 8 to 15
/// assert!(o.marks.contains(&(8, "t8".to_string(), true)));
/// ```
pub fn svg_options(smem: &AnyLayout, elem_bytes: i64, access: &Access) -> Result<crate::print::SvgOptions> {
    let shape = smem.shape()?;
    let (rows, cols) = match shape.rank() {
        2 => (shape.get(0)?.size()?.value(), shape.get(1)?.size()?.value()),
        _ => (1, shape.size()?.value()),
    };
    let marks = accessed_cells(smem, elem_bytes, access)?
        .into_iter()
        .map(|c| {
            // (a rank-1 layout is drawn as a column: its cell k is row k)
            let k = if rows == 1 { c.coord } else { (c.coord % rows) * cols + c.coord / rows };
            (k, format!("t{}", c.thread), c.conflict)
        })
        .collect();
    Ok(crate::print::SvgOptions { banks: Some(elem_bytes), marks })
}

/// The first and last 4-byte words of the element at offset `o`.
fn words_of(o: i64, elem_bytes: i64) -> Result<(i64, i64)> {
    let a = o.checked_mul(elem_bytes).ok_or_else(|| Error::overflow("a byte address"))?;
    let last = a.checked_add(elem_bytes - 1).ok_or_else(|| Error::overflow("a byte address"))?;
    Ok((a.div_euclid(4), last.div_euclid(4)))
}

/// One phase of one instruction: its threads (indices into the access's
/// threads) and the distinct words each bank holds.
struct Phase {
    instruction: usize,
    phase: usize,
    members: Vec<usize>,
    per_bank: [i64; 32],
}

/// The warp-wide vector width and every phase of every instruction of the
/// access (the model of the [module docs](super)).
fn phases(threads: &[ThreadAccess], values: i64, elem_bytes: i64) -> Result<(i64, Vec<Phase>)> {
    let w = warp_vector(threads, values, elem_bytes);
    let nphases = (w * elem_bytes / 4).max(1) as usize;
    let per_phase = WARP / nphases;
    let mut out = Vec::new();
    for instruction in 0..(values / w) as usize {
        for phase in 0..nphases {
            let members: Vec<usize> = (0..threads.len()).filter(|&k| threads[k].thread / per_phase == phase).collect();
            let mut words: BTreeSet<i64> = BTreeSet::new();
            for &k in &members {
                for e in 0..w as usize {
                    let (a, b) = words_of(threads[k].offsets[instruction * w as usize + e], elem_bytes)?;
                    words.extend(a..=b);
                }
            }
            let mut per_bank = [0i64; 32];
            for wd in words {
                per_bank[wd.rem_euclid(32) as usize] += 1;
            }
            out.push(Phase { instruction, phase, members, per_bank });
        }
    }
    Ok((w, out))
}

/// The warp-wide vector width: the largest power of two `w` dividing
/// `values`, `w * elem_bytes <= 16`, with every chunk of every thread
/// consecutive and aligned.
pub(crate) fn warp_vector(threads: &[ThreadAccess], values: i64, elem_bytes: i64) -> i64 {
    let mut w = 16 / elem_bytes;
    while w > 1 {
        if values % w == 0 && threads.iter().all(|t| chunks_ok(&t.offsets, w)) {
            return w;
        }
        w /= 2;
    }
    1
}

fn chunks_ok(offsets: &[i64], w: i64) -> bool {
    offsets
        .chunks(w as usize)
        .all(|c| c[0].rem_euclid(w) == 0 && c.iter().enumerate().all(|(i, &o)| c[0].checked_add(i as i64) == Some(o)))
}
