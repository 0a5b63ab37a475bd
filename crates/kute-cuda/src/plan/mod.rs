//! The plan layer: every kernel's layouts, tile sizes, swizzles and the
//! numbers its text needs, computed with kute's typed algebra (no CUDA text,
//! no expression parsing). [`crate::emit`] turns a plan into CUDA C++.
//!
//! Each kernel family has its module: [`copy`], [`transpose`],
//! [`gemm_sm80`], [`gemm_sm90`], [`attention_sm80`]; the helpers below are shared by them.

pub(crate) mod attention_sm80;
pub(crate) mod attention_sm90;
pub(crate) mod copy;
pub(crate) mod gemm_sm80;
pub(crate) mod gemm_sm90;
pub(crate) mod transpose;

use crate::{Elem, Error, Result};
use kute::{AsIntTuple, Int, IntTuple, Layout};

/// The shape `(a, b)` of dynamic integers (CuTe's `make_shape(int, int)`),
/// or of kute's integers as they are (symbols included).
pub(crate) fn shape2(a: impl AsIntTuple, b: impl AsIntTuple) -> IntTuple {
    (a, b).as_int_tuple().into_owned()
}

/// The layout `(a, b):(da, db)` of dynamic (or kute's) integers.
pub(crate) fn layout2<A: AsIntTuple, B: AsIntTuple, C: AsIntTuple, D: AsIntTuple>(
    (a, b): (A, B),
    (da, db): (C, D),
) -> Result<Layout> {
    Ok(Layout::new((a, b), (da, db))?)
}

/// Whether `x` is a multiple of `d`: by value, or for a symbol, by its facts
/// (an undecided question is "no").
pub(crate) fn known_multiple(x: Int, d: i64) -> bool {
    Int::new_static(d).decide_divides(x, "plan").unwrap_or(false)
}

/// `ceil(a / b)` for positive `b`.
pub(crate) fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

/// Threads per block: a whole number of warps, at most 1024.
pub(crate) fn check_threads(op: &'static str, threads: u32) -> Result<()> {
    if threads == 0 || !threads.is_multiple_of(32) || threads > 1024 {
        return Err(Error::unsupported(op, format!("{threads} threads: a multiple of 32 up to 1024")));
    }
    Ok(())
}

/// Whether `f(i + step * e) == f(i) + e` for `e < n` at every `i` of
/// `starts`, and `f(i)` is a multiple of `n`: the values `e` form one
/// aligned vector.
pub(crate) fn is_vector(
    f: impl Fn(i64) -> Result<i64>,
    starts: impl Iterator<Item = i64>,
    step: i64,
    n: i64,
) -> Result<bool> {
    for i in starts {
        let base = f(i)?;
        if base.rem_euclid(n) != 0 {
            return Ok(false);
        }
        for e in 1..n {
            if f(i + step * e)? != base + e {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// `(T, (V, P))` to tile coordinates for threads arranged by `thr` and
/// values by `val`: CuTe's `make_tiled_copy(atom, thr, val)` for one pass
/// ([`kute::atom::make_layout_tv`]: its TV layout and pass tile), repeated
/// over the tile with `zipped_divide`.
pub(crate) fn tv_layout(thr: &Layout, val: &Layout, tile: (i64, i64)) -> Result<Layout> {
    let (pass, one) = kute::atom::make_layout_tv(thr, val)?;
    let zd = kute::zipped_divide(&Layout::from_shape(&shape2(tile.0, tile.1))?, &pass)?;
    let a = kute::composition(&zd.mode(0)?, &one)?;
    Ok(Layout::concat([&a.mode(0)?, &Layout::concat([&a.mode(1)?, &zd.mode(1)?])?])?)
}

/// The `cp.async` TV layout of `threads` threads over a `(rows, bk)` tile:
/// 16-byte vectors along the contiguous mode (K when `k_major`, else the
/// rows), neighbouring threads along it too, `line` elements of it per
/// pass's line of threads (the whole mode where `None`; a part of it puts
/// a thread's passes of one line at constant offsets along it, which the
/// copies take as immediates).
///
/// Pre: the threads' vectors tile the tile, and `line` divides the
/// contiguous mode (else an `Unsupported` error of `op`). Post: `(threads,
/// (V, P))` to tile coordinates, a bijection.
pub(crate) fn copy_tv(
    op: &'static str,
    threads: i64,
    rows: i64,
    bk: i64,
    elem: Elem,
    k_major: bool,
    line: Option<i64>,
) -> Result<Layout> {
    let vec = 16 / elem.bytes();
    let whole = if k_major { bk } else { rows };
    let line = line.unwrap_or(whole);
    // threads along the contiguous mode (K, or M or N)
    let along = line / vec;
    if line < vec || whole % line != 0 || threads % along != 0 {
        return Err(Error::unsupported(op, format!("lines of {line} elements of a ({rows},{bk}) tile's {whole}")));
    }
    if k_major {
        tv_layout(&layout2((threads / along, along), (along, 1))?, &layout2((1, vec), (0, 1))?, (rows, bk))
    } else {
        if bk % (threads / along) != 0 {
            return Err(Error::unsupported(
                op,
                format!("{threads} threads of {vec}-element vectors do not tile ({rows},{bk})"),
            ));
        }
        tv_layout(&layout2((along, threads / along), (1, along))?, &layout2((vec, 1), (1, 0))?, (rows, bk))
    }
}

/// An operand `(rows, K)`: K-major (row-major), else column-major. The SM80
/// and SM90 GEMMs read their operands through it.
pub(crate) fn operand_layout<T: AsIntTuple + Copy>(rows: T, k: T, k_major: bool) -> Result<Layout> {
    if k_major {
        layout2((rows, k), (k, 1))
    } else {
        layout2((rows, k), (1, rows))
    }
}

/// The identity layout of `(rows, cols)` divided by the tile `(tr, tc)`
/// (CuTe's `zipped_divide(make_identity_tensor(shape), tile)`): mode 0 a
/// tile's coordinates, mode 1 the tiles' first coordinates.
pub(crate) fn identity_tiles<T: AsIntTuple>((rows, cols): (T, T), (tr, tc): (i64, i64)) -> Result<Layout> {
    Ok(kute::zipped_divide(&Layout::identity(&shape2(rows, cols))?, &shape2(tr, tc))?)
}

/// `l` after a size-1 mode of strides `1@0, 1@1`: a part of an
/// identity layout may name one coordinate only (CuTe's sparse `128@0`), and
/// the emitted coordinate then always has both components.
pub(crate) fn both_coordinates(l: &Layout) -> Result<Layout> {
    all_coordinates(l, 2)
}

/// `l` after a size-1 mode of strides `1@0 .. 1@(rank-1)`: the emitted
/// coordinate has all `rank` components.
pub(crate) fn all_coordinates(l: &Layout, rank: usize) -> Result<Layout> {
    let ones = IntTuple::tuple_of_leaves((0..rank).map(|_| Int::ONE));
    // (first: `l`'s last mode stays the last, which the emitted function
    // does not reduce, so a one-mode `l` costs no division)
    Ok(Layout::concat([&Layout::identity(&ones)?, l])?)
}

/// BLAS's name of the operand layouts whose K-majorness is `k_major` (A, B).
pub(crate) fn blas(k_major: (bool, bool)) -> &'static str {
    match k_major {
        (true, true) => "TN",
        (false, false) => "NT",
        (false, true) => "NN",
        (true, false) => "TT",
    }
}

/// Every operand's contiguous extent a whole number of 16-byte vectors of
/// `elem` (what `cp.async` and TMA copy), by value or, for sizes
/// given at launch, by the facts declared; else an `Unsupported` error of
/// `op`.
pub(crate) fn check_rows(
    op: &'static str,
    (m, n, k): (Int, Int, Int),
    (a_k, b_k): (bool, bool),
    elem: Elem,
) -> Result<()> {
    let contiguous = [if a_k { ("K", k) } else { ("M", m) }, if b_k { ("K", k) } else { ("N", n) }];
    let vec = 16 / elem.bytes();
    match contiguous.into_iter().find(|(_, extent)| !known_multiple(*extent, vec)) {
        Some((what, extent)) => Err(Error::unsupported(
            op,
            format!(
                "({m},{n},{k}) {}: {what} = {extent} must be {}a multiple of {vec} (the operands' rows are whole 16-byte vectors of {elem})",
                blas((a_k, b_k)),
                if extent.is_symbolic() { "declared " } else { "" }
            ),
        )),
None => Ok(()),
    }
}

/// A tile grid's layouts by mode: tile `i` along the first mode, `j` along
/// the second and batch `b`, each to its part of the first coordinate (or
/// offset); the sum is the tile's, computed without a division.
#[derive(Clone, Debug)]
pub struct TileModes {
    /// Along the rows (M or N).
    pub first: Layout,
    /// Along the second mode (K, or N for `C`).
    pub second: Layout,
    /// Along the batch.
    pub batch: Option<Layout>,
}

impl TileModes {
    /// The modes of a tile grid of two or three modes (the batch last).
    ///
    /// Pre: `tiles` of rank 2 or 3. Post: its modes, or the algebra's error.
    pub(crate) fn of(tiles: &Layout) -> Result<TileModes> {
        Ok(TileModes {
            first: tiles.mode(0)?,
            second: tiles.mode(1)?,
            batch: if tiles.rank() == 3 { Some(tiles.mode(2)?) } else { None },
        })
    }

    /// The same with every mode's coordinate given all `rank` components
    /// (an identity layout's tile grid).
    ///
    /// Pre: as [`TileModes::of`]. Post: the modes.
    pub(crate) fn coordinates_of(tiles: &Layout, rank: usize) -> Result<TileModes> {
        let m = TileModes::of(tiles)?;
        let all = |l: &Layout| all_coordinates(l, rank);
        Ok(TileModes { first: all(&m.first)?, second: all(&m.second)?, batch: m.batch.as_ref().map(all).transpose()? })
    }
}

/// The layouts of split-K's workspace.
#[derive(Clone, Debug)]
pub(crate) struct SplitK {
    /// `W`'s tiles by mode to their offsets (a slice of `W` is `(M, N[,
    /// L])`, row-major, its matrices contiguous).
    pub w_tiles: TileModes,
    /// Share to its slice's offset in `W`.
    pub w_share: Layout,
    /// Tile coordinate to the offset in `W`'s tile.
    pub w_tile: Layout,
    /// `W`'s offset to `C`'s: `C`'s layout with its first two modes
    /// exchanged, as `W` is row-major.
    pub finish: Layout,
    /// `W`'s offset to its (column, row, batch) coordinate (the bias).
    pub finish_coord: Layout,
}

impl SplitK {
    /// The workspace of `C = (m, n, l)` (rows `ldc`, matrices `sc` apart)
    /// in tiles `(bm, bn)`: one f32 slice `(m, n, l)` per share, row-major,
    /// matrices contiguous, at most 16 shares.
    ///
    /// Pre: positive extents. Post: the layouts, or the algebra's error.
    pub(crate) fn new((m, n, l): (Int, Int, Int), (ldc, sc): (Int, Int), (bm, bn): (i64, i64)) -> Result<SplitK> {
        let one = Int::new_dynamic(1);
        let w = Layout::new((m, n, l), (n, one, m.mul(n)?))?;
        let zw = kute::zipped_divide(&w, &shape2(bm, bn))?;
        Ok(SplitK {
            w_tiles: TileModes::of(&zw.mode(1)?)?,
            w_tile: zw.mode(0)?,
            // (the last mode's extent is never read)
            w_share: Layout::new(Int::new_dynamic(16), m.mul(n)?.mul(l)?)?,
            finish: Layout::new((n, m, l), (one, ldc, sc))?,
            finish_coord: Layout::identity(&(n, m, l).as_int_tuple())?,
        })
    }
}

/// The plans' law tests' draws: a xorshift generator from `seed`, each
/// draw an integer from 1 to `below`.
#[cfg(test)]
pub(crate) fn test_draws(seed: u64) -> impl FnMut(i64) -> i64 {
    let mut rng = seed;
    move |below: i64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % below as u64) as i64 + 1
    }
}
