//! The plan of a transpose staged through shared memory (see
//! [`crate::transpose`] for the steps).

use super::{check_threads, is_vector, layout2, shape2, tv_layout};
use crate::transpose::{SharedCost, TransposeConfig, TILES};
use crate::{Elem, Error, Result};
use kute::analysis::{block_bank_conflicts, search_swizzle, Access, SearchSpec};
use kute::{AnyLayout, Layout, Major};

const OP: &str = "transpose kernel";

/// A transpose's layouts, for the tile chosen.
pub(crate) struct TransposePlan {
    /// The source, contiguous along mode 1 (the modes of both layouts
    /// exchanged if the source was contiguous along mode 0).
    pub src: Layout,
    /// The destination, contiguous along mode 0.
    pub dst: Layout,
    /// The tile `(TM, TN)`.
    pub tile: (i64, i64),
    /// Threads per block.
    pub threads: i64,
    /// Elements per vector (16 bytes).
    pub vector_elems: i64,
    /// Vectors per thread (`P`).
    pub passes: i64,
    /// `(T, (V, P))` to the tile coordinate each thread reads and stores to shared memory.
    pub tv_read: Layout,
    /// Same for the loads from shared memory and the destination.
    pub tv_write: Layout,
    /// The shared-memory tile: the tile coordinate to an element offset.
    pub smem: AnyLayout,
    /// The swizzle search's reasoning (empty when not searched).
    pub reasoning: Vec<String>,
    /// `composition(src tile, tv_read)`.
    pub src_read: Layout,
    /// `composition(dst tile, tv_write)`.
    pub dst_write: Layout,
    /// A tile's number to its first source offset.
    pub src_tiles: Layout,
    /// A tile's number to its first destination offset.
    pub dst_tiles: Layout,
    /// Number of tiles (blocks).
    pub blocks: i64,
    /// Predicted shared-memory cost of one block.
    pub cost: SharedCost,
}

/// Plans the transpose of `src` into `dst`: the tiles of `config` (else
/// [`TILES`]) tried in order, the first without bank conflicts (else the one
/// with the fewest) kept; the Pre and Post of
/// [`crate::transpose::TransposeKernel::new`].
pub(crate) fn plan(src: &Layout, dst: &Layout, elem: Elem, config: TransposeConfig) -> Result<TransposePlan> {
    check_threads(OP, config.threads)?;
    let (mut src, mut dst) = (src.clone(), dst.clone());
    for l in [&src, &dst] {
        if l.rank() != 2 {
            return Err(Error::unsupported(OP, format!("{l} is not rank 2")));
        }
    }
    let unit = |l: &Layout, k: usize| -> Result<bool> { Ok(l.mode(k)?.eval(1)? == 1) };
    if unit(&src, 0)? && unit(&dst, 1)? {
        let swap = |l: &Layout| -> Result<Layout> { Ok(Layout::concat([&l.mode(1)?, &l.mode(0)?])?) };
        (src, dst) = (swap(&src)?, swap(&dst)?);
    }
    if !(unit(&src, 1)? && unit(&dst, 0)?) {
        return Err(Error::unsupported(
            OP,
            format!("{src} -> {dst}: the source must be contiguous along one mode and the destination along the other"),
        ));
    }
    let (m, n) = (src.mode(0)?.size()?.value(), src.mode(1)?.size()?.value());
    if (dst.mode(0)?.size()?.value(), dst.mode(1)?.size()?.value()) != (m, n) {
        return Err(Error::unsupported(OP, format!("{src} and {dst} have different mode sizes")));
    }
    let tiles: Vec<(i64, i64)> = match config.tile {
        Some(t) => vec![t],
        None => TILES.to_vec(),
    };
    let mut best: Option<(i64, TransposePlan)> = None;
    let mut why = Vec::new();
    for tile in tiles {
        match plan_tile(&src, &dst, elem, config, tile, (m, n)) {
            Ok(k) => {
                let ex = k.cost.store_conflicts() + k.cost.load_conflicts();
                if best.as_ref().is_none_or(|(b, _)| ex < *b) {
                    best = Some((ex, k));
                }
                if ex == 0 {
                    break;
                }
            }
            Err(e) => why.push(format!("tile {tile:?}: {e}")),
        }
    }
    best.map(|(_, k)| k).ok_or_else(|| Error::unsupported(OP, why.join("; ")))
}

fn plan_tile(
    src: &Layout,
    dst: &Layout,
    elem: Elem,
    config: TransposeConfig,
    tile: (i64, i64),
    (m, n): (i64, i64),
) -> Result<TransposePlan> {
    let (tm, tn) = tile;
    let t = i64::from(config.threads);
    let vec = 16 / elem.bytes();
    if tm < 1 || tn < 1 || m % tm != 0 || n % tn != 0 {
        return Err(Error::unsupported(OP, format!("the tile ({tm},{tn}) does not divide ({m},{n})")));
    }
    if tn % vec != 0 || tm % vec != 0 || (t * vec) % tn != 0 || (t * vec) % tm != 0 {
        return Err(Error::unsupported(
            OP,
            format!("{t} threads of {vec}-element vectors do not cover rows of {tn} and columns of {tm}"),
        ));
    }
    let (rows, cols) = (t * vec / tn, t * vec / tm);
    if rows > tm || cols > tn || tm % rows != 0 || tn % cols != 0 {
        return Err(Error::unsupported(OP, format!("{t} threads do not fit the tile ({tm},{tn})")));
    }
    // Threads along the source's contiguous mode (1), values too; then along mode 0 for the destination.
    let tv_read = tv_layout(&layout2((rows, tn / vec), (tn / vec, 1))?, &layout2((1, vec), (0, 1))?, tile)?;
    let tv_write = tv_layout(&layout2((tm / vec, cols), (1, tm / vec))?, &layout2((vec, 1), (1, 0))?, tile)?;
    let passes = tm * tn / (t * vec);

    let (smem, reasoning) = if config.swizzle {
        let spec = SearchSpec {
            tile,
            elem_bytes: elem.bytes(),
            major: Major::Right,
            patterns: vec![
                ("store".into(), Access::Tv(tv_read.clone())),
                ("load".into(), Access::Tv(tv_write.clone())),
            ],
        };
        let r = search_swizzle(&spec)?;
        (r.best.layout, r.reasoning)
    } else {
        (AnyLayout::Layout(layout2((tm, tn), (tn, 1))?), Vec::new())
    };
    let cost = SharedCost {
        stores: block_bank_conflicts(&smem, elem.bytes(), &tv_read)?,
        loads: block_bank_conflicts(&smem, elem.bytes(), &tv_write)?,
    };

    let zs = kute::zipped_divide(src, &shape2(tm, tn))?;
    let zd = kute::zipped_divide(dst, &shape2(tm, tn))?;
    let src_read = kute::composition(&zs.mode(0)?, &tv_read)?;
    let dst_write = kute::composition(&zd.mode(0)?, &tv_write)?;
    let (src_tiles, dst_tiles) = (zs.mode(1)?, zd.mode(1)?);
    let blocks = src_tiles.size()?.value();

    // Every vector access contiguous and aligned; the smem offsets inside the tile.
    let starts = || (0..passes).flat_map(move |p| (0..t).map(move |th| th + t * vec * p));
    let smem_at = |c: i64| -> Result<i64> { Ok(smem.eval_int(kute::Int::new_dynamic(c))?.value()) };
    let checks: [(&str, bool); 3] = [
        ("source reads", is_vector(|i| Ok(src_read.eval(i)?), starts(), t, vec)?),
        ("destination writes", is_vector(|i| Ok(dst_write.eval(i)?), starts(), t, vec)?),
        ("shared stores", is_vector(|i| smem_at(tv_read.eval(i)?), starts(), t, vec)?),
    ];
    for (what, ok) in checks {
        if !ok {
            return Err(Error::unsupported(
                OP,
                format!("the {what} of tile ({tm},{tn}) are not aligned 16-byte vectors"),
            ));
        }
    }
    for i in 0..tm * tn {
        let o = smem_at(i)?;
        if !(0..tm * tn).contains(&o) {
            return Err(Error::unsupported(OP, format!("{smem} leaves the shared tile at {i}")));
        }
    }
    for (c, b) in [(src_tiles.eval(0)?, "source"), (dst_tiles.eval(0)?, "destination")] {
        if c < 0 {
            return Err(Error::unsupported(OP, format!("a negative {b} offset")));
        }
    }
    Ok(TransposePlan {
        src: src.clone(),
        dst: dst.clone(),
        tile,
        threads: t,
        vector_elems: vec,
        passes,
        tv_read,
        tv_write,
        smem,
        reasoning,
        src_read,
        dst_write,
        src_tiles,
        dst_tiles,
        blocks,
        cost,
    })
}
