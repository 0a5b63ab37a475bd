//! Shared-memory analysis: bank conflicts, vector widths and a swizzle search
//! for swizzled and composed layouts.
//!
//! # The tile, the layout and the access
//!
//! A *shared-memory layout* is an [`AnyLayout`] (plain, or swizzled as
//! `Sw<B,M,S> o offset o layout`) that maps a 1-D tile coordinate (the
//! colexicographic index of the tile's shape) to an element offset; the byte
//! address of an element is `offset * elem_bytes`, with `elem_bytes` one of
//! 1, 2, 4, 8, 16. The swizzle acts on element offsets, as kute evaluates a
//! composed layout. CuTe's GMMA atoms carry a pointer flag that makes their
//! swizzle act on *byte* addresses (CuTe prints the 16-bit `Layout_K_SW128` as
//! `Sw<3,4,3> o smem_ptr[16b] o (_8,_64):(_64,_1)`, which is
//! `Sw<3,3,3> o _0 o (_8,_64):(_64,_1)` in element offsets):
//! [`swizzle_bytes_to_elements`] converts such a layout.
//!
//! An [`Access`] says which tile coordinates each thread of one warp reads or
//! writes: thread `t` (`0 <= t < 32`) accesses the values `v = 0 .. V-1`, in
//! that order,
//!
//! * [`Access::Tv`]: a TV layout of shape `(threads, values)` (rank 2; rank 1
//!   is one value per thread): thread `t`'s value `v` is the tile coordinate
//!   `tv(t, v)`. Threads past 32 are not analysed; a layout of fewer threads
//!   leaves the others idle.
//! * [`Access::Pattern`]: a named [`Pattern`] of a rank-2 tile of shape
//!   `(R, C)` (mode sizes; the row index is the coordinate of mode 0). The
//!   pattern has a *thread direction* `T`, a *value direction* `D` (each
//!   [`Dir::Row`] or [`Dir::Column`]) and a byte width per thread,
//!   `V = bytes / elem_bytes` elements. The tile is cut into vectors of `V`
//!   consecutive elements along `D` (along a row: `V` must divide `C`, the
//!   grid of vectors is `R x C/V`; down a column: `V` must divide `R`, the grid
//!   is `R/V x C`). Thread `t` takes vector number `t` of that grid, counted
//!   row by row when `T` is `Row` and column by column when `T` is `Column`;
//!   a thread whose number is past the grid is idle. Its value `v` is element
//!   `v` of the vector. Written `row`, `column`, or `T/D` (`row/column`,
//!   `column/column`, ...), the value direction being along the row unless
//!   given, then optionally `:BYTES` (default 16). So `row:16` is the
//!   vectorised row-by-row store of a row-major tile, and `column:16` (=
//!   `column/row:16`) is what `ldmatrix` reads from a K-major tile: threads
//!   0-7 give the 16 bytes of rows 0-7 of the first 8-column block, threads
//!   8-15 those of the next block, and so on.
//!
//! # The bank model
//!
//! 32 banks of 4 bytes: byte address `a` is in word `floor(a / 4)` and bank
//! `floor(a / 4) mod 32` (floor and modulo of the Euclidean division, for
//! negative offsets). Accesses are *vectorised* with one width `w` (elements)
//! for the whole warp: the largest power of two that divides `V`, with
//! `w * elem_bytes <= 16`, such that for every active thread and every chunk
//! `j` (values `j*w .. j*w+w-1`) the chunk's offsets are consecutive
//! (`o + 0, o + 1, ...`) and its first offset `o` is a multiple of `w` (so
//! its byte address is aligned to `w * elem_bytes`). The access is then `V /
//! w` instructions; instruction `j` has every active thread access its chunk
//! `j`: `w * elem_bytes` bytes. An instruction of at most 4 bytes per thread
//! is one phase of 32 threads; of 8 bytes, two phases of 16 threads (0-15,
//! 16-31); of 16 bytes, four phases of 8 threads. Within a phase the number of
//! wavefronts is the largest number of *distinct* words any bank holds among
//! the bytes the phase accesses (a word accessed by several threads is a
//! broadcast, counted once); an empty phase costs nothing. The access's
//! wavefronts are the sum over instructions and phases. The *ideal* is
//! `ceil(total bytes / 128)` (one wavefront moves at most 128 bytes; at least
//! 1), whatever the instructions, so an access split into narrow
//! instructions shows in the conflict degree `wavefronts / ideal`.
//!
//! ```
//! use kute::analysis::{bank_conflicts, Access};
//! let sw128 = kute::expr::eval("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)").unwrap().to_any_layout("smem").unwrap();
//! let ldmatrix = Access::Pattern("column:16".parse().unwrap());
//! let r = bank_conflicts(&sw128, 2, &ldmatrix).unwrap();
//! assert_eq!((r.wavefronts, r.ideal), (4, 4));
//! ```

mod bank;
mod search;
mod vector;

/// `n` and the noun, in the plural unless `n` is 1 ("1 element", "8 elements").
fn counted(n: i64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

pub use bank::{
    accessed_cells, bank_conflicts, block_bank_conflicts, svg_options, AccessedCell, BankReport, PhaseReport,
};
pub use search::{gmma_atom_name, search_swizzle, umma_atom_name, Candidate, SearchResult, SearchSpec};
pub use vector::{vector_width, VectorReport};
// (the element sizes of the bank model live with the bank colours, below this layer)
pub use crate::print::elem_log2;

use crate::composed::{compose3, AnyLayout};
use crate::error::{Error, ErrorKind, Result};
use crate::int::Int;
use crate::layout::Layout;
use std::fmt;
use std::str::FromStr;

/// The threads of one warp.
pub const WARP: usize = 32;

/// The largest number of values per thread analysed (a guard on the work).
pub const MAX_VALUES: i64 = 4096;

/// A direction in a rank-2 tile: along a row (mode 1 varies) or down a
/// column (mode 0 varies).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Along a row: the column index (mode 1) varies.
    Row,
    /// Down a column: the row index (mode 0) varies.
    Column,
}

/// A named access of a rank-2 tile (see the [module docs](self)).
///
/// ```
/// use kute::analysis::{Dir, Pattern};
/// let p: Pattern = "column:16".parse().unwrap();
/// assert_eq!((p.threads, p.values, p.bytes), (Dir::Column, Dir::Row, 16));
/// assert_eq!(p.to_string(), "column/row:16");
/// assert!("diagonal".parse::<Pattern>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pattern {
    /// Where consecutive threads go.
    pub threads: Dir,
    /// Where a thread's values go.
    pub values: Dir,
    /// Bytes per thread (a multiple of the element size).
    pub bytes: i64,
}

impl FromStr for Pattern {
    type Err = Error;

    /// `T[/D][:BYTES]` with `T` and `D` `row` or `column` (`col`); `D`
    /// defaults to `row`, `BYTES` to 16.
    ///
    /// Pre: that form, `BYTES` in `1..=65536` (else a `Parse`-kind error named
    /// `access`). Post: the pattern.
    fn from_str(s: &str) -> Result<Pattern> {
        let bad = || {
            Error::new(
                ErrorKind::Parse,
                "access",
                format!("`{s}`: an access pattern is row|column[/row|/column][:BYTES], or a TV layout"),
            )
        };
        let dir = |w: &str| match w.trim() {
            "row" | "rows" => Ok(Dir::Row),
            "column" | "col" | "columns" => Ok(Dir::Column),
            _ => Err(bad()),
        };
        let (dirs, bytes) = match s.split_once(':') {
            Some((d, b)) => (d, b.trim().parse::<i64>().map_err(|_| bad())?),
            None => (s, 16),
        };
        if !(1..=65536).contains(&bytes) {
            return Err(bad());
        }
        let (threads, values) = match dirs.split_once('/') {
            Some((t, d)) => (dir(t)?, dir(d)?),
            None => (dir(dirs)?, Dir::Row),
        };
        Ok(Pattern { threads, values, bytes })
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dir::Row => "row",
            Dir::Column => "column",
        })
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}:{}", self.threads, self.values, self.bytes)
    }
}

/// Which tile coordinates each thread of a warp accesses.
// built once per analysis: its size does not matter
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Access {
    /// A TV layout `(threads, values) -> tile coordinate`.
    Tv(Layout),
    /// A named pattern of a rank-2 tile.
    Pattern(Pattern),
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Access::Tv(l) => write!(f, "TV {l}"),
            Access::Pattern(p) => write!(f, "{p}"),
        }
    }
}

impl Access {
    /// A pattern (`row`, `column/row:16`, ...) or else a kute expression giving
    /// a TV layout.
    ///
    /// Pre: one of those (else the pattern's or the expression's error).
    /// Post: the access.
    ///
    /// ```
    /// use kute::analysis::Access;
    /// assert!(matches!(Access::parse("row:8").unwrap(), Access::Pattern(_)));
    /// assert!(matches!(Access::parse("(_32,_4):(_4,_1)").unwrap(), Access::Tv(_)));
    /// assert!(Access::parse("(_32,_4").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<Access> {
        let head = s.split([':', '/']).next().unwrap_or("").trim();
        if head.chars().all(|c| c.is_ascii_alphabetic()) && !head.is_empty() {
            return Ok(Access::Pattern(s.parse()?));
        }
        Ok(Access::Tv(crate::expr::eval(s)?.to_layout("access")?))
    }
}

impl FromStr for Access {
    type Err = Error;

    /// As [`Access::parse`].
    ///
    /// Pre: a pattern or an expression giving a layout. Post: the access.
    fn from_str(s: &str) -> Result<Access> {
        Access::parse(s)
    }
}

/// One active thread: its number and the element offsets of its values.
#[derive(Clone, Debug)]
pub(crate) struct ThreadAccess {
    pub thread: usize,
    pub offsets: Vec<i64>,
}

/// The sizes of the two modes of a rank-2 domain.
pub(crate) fn tile_extents(smem: &AnyLayout) -> Result<(i64, i64)> {
    let shape = smem.shape()?;
    if shape.rank() != 2 {
        return Err(Error::mismatch(
            "analysis",
            format!("a named access needs a rank-2 tile; {smem} has the shape {shape}"),
        ));
    }
    Ok((shape.get(0)?.size()?.value(), shape.get(1)?.size()?.value()))
}

/// Each active thread's number and tile coordinates.
pub(crate) type Coords = Vec<(usize, Vec<i64>)>;

/// `(threads, values)` of a TV layout: its two modes' sizes (rank 1: one
/// value per thread).
pub(crate) fn tv_extents(tv: &Layout) -> Result<(i64, i64)> {
    let (threads, values) = match tv.rank() {
        1 => (tv.size()?.value(), 1),
        2 => (tv.mode(0)?.size()?.value(), tv.mode(1)?.size()?.value()),
        r => {
            return Err(Error::mismatch(
                "analysis",
                format!("a TV layout has rank 2 (threads, values); {tv} has rank {r}"),
            ))
        }
    };
    check_values(values)?;
    Ok((threads, values))
}

/// The tile coordinates of the threads of warp `warp` of a TV layout
/// (threads `32 * warp ..`, numbered from 0 within the warp), and `V`.
pub(crate) fn tv_coords(tv: &Layout, warp: i64) -> Result<(Coords, i64)> {
    let (threads, values) = tv_extents(tv)?;
    let first = warp.checked_mul(WARP as i64).ok_or_else(|| Error::overflow("a warp's first thread"))?;
    let mut out = Vec::new();
    for t in first..threads.min(first.saturating_add(WARP as i64)) {
        let mut v_idx = Vec::with_capacity(values as usize);
        for v in 0..values {
            let i =
                v.checked_mul(threads).and_then(|x| x.checked_add(t)).ok_or_else(|| Error::overflow("a TV index"))?;
            v_idx.push(tv.eval(i)?);
        }
        out.push(((t - first) as usize, v_idx));
    }
    Ok((out, values))
}

/// The tile coordinates (1-D) of each thread's values, for active threads, and `V`.
pub(crate) fn tile_coords(smem: &AnyLayout, elem_bytes: i64, access: &Access) -> Result<(Coords, i64)> {
    elem_log2(elem_bytes, "analysis")?;
    match access {
        Access::Tv(tv) => tv_coords(tv, 0),
        Access::Pattern(p) => {
            let (rows, cols) = tile_extents(smem)?;
            if p.bytes % elem_bytes != 0 {
                return Err(Error::inadmissible(
                    "analysis",
                    format!("{p}: {} bytes per thread is not a whole number of {elem_bytes}-byte elements", p.bytes),
                ));
            }
            let v = p.bytes / elem_bytes;
            check_values(v)?;
            let along = if p.values == Dir::Row { cols } else { rows };
            if along % v != 0 {
                return Err(Error::inadmissible(
                    "analysis",
                    format!(
                        "{p}: {v} values per thread do not divide the tile's {along} elements along a {}",
                        p.values
                    ),
                ));
            }
            // the grid of vectors
            let (gr, gc) = if p.values == Dir::Row { (rows, cols / v) } else { (rows / v, cols) };
            let mut out = Vec::new();
            for t in 0..WARP as i64 {
                if t >= gr.saturating_mul(gc) {
                    break;
                }
                let (r, c) = if p.threads == Dir::Row { (t / gc, t % gc) } else { (t % gr, t / gr) };
                let idx = (0..v)
                    .map(|k| if p.values == Dir::Row { r + rows * (c * v + k) } else { (r * v + k) + rows * c })
                    .collect();
                out.push((t as usize, idx));
            }
            Ok((out, v))
        }
    }
}

fn check_values(v: i64) -> Result<()> {
    if !(1..=MAX_VALUES).contains(&v) {
        return Err(Error::limit("analysis", format!("{v} values per thread: kute analyses 1 to {MAX_VALUES}")));
    }
    Ok(())
}

/// Each active thread's element offsets, and `V`.
pub(crate) fn thread_offsets(smem: &AnyLayout, elem_bytes: i64, access: &Access) -> Result<(Vec<ThreadAccess>, i64)> {
    let (coords, v) = tile_coords(smem, elem_bytes, access)?;
    Ok((offsets_of(smem, &coords)?, v))
}

/// The element offsets of each thread's tile coordinates.
pub(crate) fn offsets_of(smem: &AnyLayout, coords: &Coords) -> Result<Vec<ThreadAccess>> {
    let size = smem.size()?.value();
    let mut out = Vec::with_capacity(coords.len());
    for (thread, idx) in coords {
        let mut offsets = Vec::with_capacity(idx.len());
        for &i in idx {
            if !(0..size).contains(&i) {
                return Err(Error::inadmissible(
                    "analysis",
                    format!("thread {thread} accesses tile coordinate {i}, outside {smem} (size {size})"),
                ));
            }
            offsets.push(smem.eval_int(Int::new_dynamic(i))?.value());
        }
        out.push(ThreadAccess { thread: *thread, offsets });
    }
    Ok(out)
}

/// A layout whose swizzle acts on byte addresses (CuTe's GMMA atoms with
/// their `smem_ptr` flag) as the same function of element offsets:
/// `Sw<B,M,S> o off o L` becomes `Sw<B, M - log2(elem_bytes), S> o off o L`;
/// a plain layout is returned as it is.
///
/// Pre: `elem_bytes` in 1, 2, 4, 8, 16; the layout is plain or
/// `Swizzle o offset o layout`; `M >= log2(elem_bytes)` (else the swizzle
/// moves bytes inside an element and no element layout equals it: an
/// `Inadmissible` error). Post: for every `x`,
/// `result(x) * elem_bytes == sw(elem_bytes * (off + L(x)))`.
///
/// ```
/// use kute::analysis::swizzle_bytes_to_elements;
/// let atom = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap().to_any_layout("a").unwrap();
/// assert_eq!(swizzle_bytes_to_elements(&atom, 2).unwrap().to_string(), "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
/// ```
pub fn swizzle_bytes_to_elements(smem: &AnyLayout, elem_bytes: i64) -> Result<AnyLayout> {
    crate::sym::refuse("swizzle_bytes_to_elements", || smem.has_symbols())?;
    let k = elem_log2(elem_bytes, "analysis")?;
    match smem {
        AnyLayout::Layout(_) => Ok(smem.clone()),
        AnyLayout::Composed(c) => match (c.swizzle(), c.inner()) {
            (Some(s), AnyLayout::Layout(_)) => {
                if s.base() < k as i32 {
                    return Err(Error::inadmissible(
                        "analysis",
                        format!("{s} on byte addresses moves bytes inside a {elem_bytes}-byte element (M < {k})"),
                    ));
                }
                let e = s.upcast(elem_bytes)?;
                Ok(compose3(AnyLayout::Swizzle(e), c.offset(), c.inner().clone()))
            }
            _ => Err(not_swizzled(smem)),
        },
        AnyLayout::Swizzle(_) => Err(not_swizzled(smem)),
    }
}

fn not_swizzled(smem: &AnyLayout) -> Error {
    Error::new(ErrorKind::Type, "analysis", format!("{smem} is not a plain or swizzled layout (Sw o offset o layout)"))
}
