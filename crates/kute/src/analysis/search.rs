//! The search for a swizzle that makes a tile's accesses conflict-free.

use super::bank::report;
use super::{elem_log2, tile_coords, tv_coords, tv_extents, Access, Coords, ThreadAccess, WARP};
use crate::composed::{compose3, AnyLayout};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::layout::{Layout, Major};
use crate::swizzle::Swizzle;

/// What to search for: a rank-2 tile, its element size, the base layout and
/// the accesses (each with a label such as `write` or `read`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchSpec {
    /// `(rows, columns)`.
    pub tile: (i64, i64),
    /// Bytes per element: 1, 2, 4, 8 or 16.
    pub elem_bytes: i64,
    /// The base layout: row-major ([`Major::Right`], `(R,C):(C,1)`) or
    /// column-major ([`Major::Left`], `(R,C):(1,R)`).
    pub major: Major,
    /// The accesses, each with a label: named patterns (one warp), or TV
    /// layouts of a whole thread block (every warp counted; see
    /// [`block_bank_conflicts`](super::block_bank_conflicts)).
    pub patterns: Vec<(String, Access)>,
}

/// One swizzle tried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The swizzle (`B == 0`: none).
    pub swizzle: Swizzle,
    /// `swizzle o _0 o base` (the base itself when `B == 0`).
    pub layout: AnyLayout,
    /// Wavefronts of each pattern, in order.
    pub wavefronts: Vec<i64>,
    /// The ideal of each pattern.
    pub ideal: Vec<i64>,
    /// Whether every pattern keeps the base layout's vector width.
    pub keeps_vectors: bool,
}

impl Candidate {
    /// Total wavefronts over the patterns.
    ///
    /// Pre: none. Post: the sum of `wavefronts`.
    ///
    /// ```
    /// use kute::analysis::{search_swizzle, SearchSpec};
    /// let spec = SearchSpec { tile: (8, 64), elem_bytes: 2, major: kute::Major::Right,
    ///     patterns: vec![("read".into(), "column:16".parse().unwrap())] };
    /// assert_eq!(search_swizzle(&spec).unwrap().best.total(), 4);
    /// ```
    pub fn total(&self) -> i64 {
        self.wavefronts.iter().sum()
    }
}

/// The search's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The winner.
    pub best: Candidate,
    /// The CuTe GMMA / UMMA atom the winner equals (see [`umma_atom_name`]).
    pub atom: Option<String>,
    /// Every candidate tried, in order of rank (best first).
    pub candidates: Vec<Candidate>,
    /// The reasoning, one line each.
    pub reasoning: Vec<String>,
}

/// The name of CuTe's GMMA shared-memory atom that `swizzle o base` equals,
/// tiled to the tile (CuTe's `tile_to_shape`), if any.
///
/// In element offsets of `elem_bytes` bytes, with `m0 = log2(16 / elem_bytes)`
/// and `n = W / elem_bytes` for a row of `W` = 16, 32, 64, 128 bytes, CuTe's
/// K-major atoms `Layout_K_INTER`, `_SW32`, `_SW64`, `_SW128` are
/// `Sw<B,m0,3> o (8,n):(n,1)` with `B` = 0, 1, 2, 3, and the MN-major ones
/// `Layout_MN_*` are `Sw<B,m0,3> o (n,8):(1,n)` (CuTe writes them in bytes,
/// `Sw<B,4,3>`, applied to byte addresses). A row-major tile `(R, n)` with `8 |
/// R` is the K-major atom repeated down the rows; a column-major tile `(n, C)`
/// with `8 | C` the MN-major atom repeated along the columns.
///
/// Pre: none (an unknown element size has no atom). Post: the name, or `None`.
///
/// ```
/// use kute::analysis::gmma_atom_name;
/// use kute::{swizzle::Swizzle, Major};
/// let sw = Swizzle::new(3, 3, 3).unwrap();
/// assert_eq!(gmma_atom_name(sw, (8, 64), 2, Major::Right).as_deref(), Some("Layout_K_SW128"));
/// assert_eq!(gmma_atom_name(sw, (64, 8), 2, Major::Left).as_deref(), Some("Layout_MN_SW128"));
/// assert_eq!(gmma_atom_name(Swizzle::new(3, 4, 3).unwrap(), (8, 64), 2, Major::Right), None);
/// ```
pub fn gmma_atom_name(swizzle: Swizzle, tile: (i64, i64), elem_bytes: i64, major: Major) -> Option<String> {
    let k = elem_log2(elem_bytes, "analysis").ok()?;
    let m0 = 4 - k as i32;
    let b = swizzle.bits();
    if !(0..=3).contains(&b) || (b > 0 && (swizzle.base() != m0 || swizzle.shift() != 3)) {
        return None;
    }
    let width = 16i64 << b;
    let n = width / elem_bytes;
    let (along, across, kind) = match major {
        Major::Right => (tile.1, tile.0, "K"),
        Major::Left => (tile.0, tile.1, "MN"),
    };
    if along != n || across % 8 != 0 || across <= 0 {
        return None;
    }
    let name = if b == 0 { "INTER".to_string() } else { format!("SW{width}") };
    Some(format!("Layout_{kind}_{name}"))
}

/// The name of CuTe's UMMA (SM100) shared-memory atom that `swizzle o base`
/// equals, tiled to the tile: the GMMA atoms of [`gmma_atom_name`] (UMMA
/// reuses them: `UMMA::Layout_K_SW128_Atom` is `GMMA::Layout_K_SW128_Atom`),
/// and UMMA's own `Layout_MN_SW128_32B`, `Sw<2,5,2>` on byte addresses over
/// `(n,4):(1,n)` for a 128-byte row of `n` elements (in element offsets
/// `Sw<2,5-log2(elem_bytes),2>`), repeated along the columns (`4 | C`).
///
/// Pre: none (an unknown element size has no atom). Post: the name, or `None`.
///
/// ```
/// use kute::analysis::umma_atom_name;
/// use kute::{swizzle::Swizzle, Major};
/// assert_eq!(umma_atom_name(Swizzle::new(2, 4, 2).unwrap(), (64, 8), 2, Major::Left).as_deref(),
///            Some("Layout_MN_SW128_32B"));
/// assert_eq!(umma_atom_name(Swizzle::new(3, 3, 3).unwrap(), (8, 64), 2, Major::Right).as_deref(),
///            Some("Layout_K_SW128"));
/// ```
pub fn umma_atom_name(swizzle: Swizzle, tile: (i64, i64), elem_bytes: i64, major: Major) -> Option<String> {
    if let Some(name) = gmma_atom_name(swizzle, tile, elem_bytes, major) {
        return Some(name);
    }
    let k = elem_log2(elem_bytes, "analysis").ok()? as i32;
    let n = 128 / elem_bytes;
    let sw32b = swizzle.bits() == 2 && swizzle.base() == 5 - k && swizzle.shift() == 2;
    (sw32b && major == Major::Left && tile.0 == n && tile.1 > 0 && tile.1 % 4 == 0)
        .then(|| "Layout_MN_SW128_32B".to_string())
}

/// The base layout of the tile.
fn base_layout(spec: &SearchSpec) -> Result<Layout> {
    let (r, c) = spec.tile;
    let text = match spec.major {
        Major::Right => format!("(_{r},_{c}):(_{c},_1)"),
        Major::Left => format!("(_{r},_{c}):(_1,_{r})"),
    };
    text.parse()
}

/// An access's warps, each its threads' tile coordinates and the values per
/// thread: one warp for a pattern, every warp of the block for a TV layout.
/// They do not depend on the swizzle, so they are computed once.
type Warps = Vec<(Coords, i64)>;

fn access_warps(base: &AnyLayout, elem_bytes: i64, access: &Access) -> Result<Warps> {
    match access {
        Access::Pattern(_) => Ok(vec![tile_coords(base, elem_bytes, access)?]),
        Access::Tv(tv) => {
            let (threads, _) = tv_extents(tv)?;
            let warps = (threads + WARP as i64 - 1) / WARP as i64;
            (0..warps).map(|w| tv_coords(tv, w)).collect()
        }
    }
}

/// What [`cost`] measures: the sum over the warps, and the narrowest warp's
/// vector width.
struct Cost {
    wavefronts: i64,
    ideal: i64,
    vector_elems: i64,
}

/// The cost of an access's warps when tile coordinate `c` is at offset `table[c]`.
fn cost(table: &[i64], elem_bytes: i64, warps: &Warps) -> Result<Cost> {
    let mut out = Cost { wavefronts: 0, ideal: 0, vector_elems: i64::MAX };
    for (coords, values) in warps {
        let mut threads = Vec::with_capacity(coords.len());
        for (thread, idx) in coords {
            let offsets = idx
                .iter()
                .map(|&i| {
                    usize::try_from(i).ok().and_then(|i| table.get(i).copied()).ok_or_else(|| {
                        Error::inadmissible(
                            "swizzle search",
                            format!("thread {thread} accesses tile coordinate {i}, outside the tile"),
                        )
                    })
                })
                .collect::<Result<Vec<i64>>>()?;
            threads.push(ThreadAccess { thread: *thread, offsets });
        }
        let r = report(&threads, *values, elem_bytes)?;
        out.wavefronts += r.wavefronts;
        out.ideal += r.ideal;
        out.vector_elems = out.vector_elems.min(r.vector_elems);
    }
    if warps.is_empty() {
        out.vector_elems = 1;
    }
    Ok(out)
}

/// The candidate `sw o base` and each access's vector width, or `None` when
/// its offsets leave the tile.
fn evaluate(
    spec: &SearchSpec,
    sw: Swizzle,
    base: &Layout,
    base_offsets: &[i64],
    accesses: &[Warps],
) -> Result<Option<(Candidate, Vec<i64>)>> {
    let size = base_offsets.len() as i64;
    let table: Vec<i64> = base_offsets.iter().map(|&o| sw.apply(o)).collect();
    // the swizzled offsets must stay in the tile's buffer
    if table.iter().any(|o| !(0..size).contains(o)) {
        return Ok(None);
    }
    let (mut wavefronts, mut ideal) = (Vec::new(), Vec::new());
    let mut vectors = Vec::new();
    for warps in accesses {
        let c = cost(&table, spec.elem_bytes, warps)?;
        wavefronts.push(c.wavefronts);
        ideal.push(c.ideal);
        vectors.push(c.vector_elems);
    }
    let layout = compose3(AnyLayout::Swizzle(sw), Int::ZERO, AnyLayout::Layout(base.clone()));
    Ok(Some((Candidate { swizzle: sw, layout, wavefronts, ideal, keeps_vectors: true }, vectors)))
}

/// The swizzle `Sw<B,M,S>` that, composed with the base layout, gives the
/// fewest wavefronts over the patterns while keeping each pattern's vector
/// width.
///
/// Candidates: no swizzle (`B = 0`), and every `Sw<B,M,S>` with `B >= 1`,
/// `M >= 0`, `S >= B`, `M + B + S <= log2(R * C)` (rounded down), whose
/// offsets over the tile stay in `0 .. R*C`. A candidate is kept when every
/// pattern's vector width (the bank model's warp-wide width) equals the
/// base layout's. The winner has the fewest total wavefronts; ties go to the
/// smallest `B`, then to a CuTe GMMA / UMMA atom, then to the smallest `M`, then `S`.
///
/// Pre: `R, C >= 1` with `R * C <= 2^20`; `elem_bytes` in 1, 2, 4, 8, 16; at
/// least one pattern, each fitting the tile as in
/// [`bank_conflicts`](super::bank_conflicts) (else that error; an empty list
/// or a bad tile is `Inadmissible`). Post: `best` is `candidates[0]`; its
/// total is the least of every kept candidate's.
///
/// ```
/// use kute::analysis::{search_swizzle, SearchSpec};
/// let spec = SearchSpec {
///     tile: (8, 64), elem_bytes: 2, major: kute::Major::Right,
///     patterns: vec![("write".into(), "row:16".parse().unwrap()), ("read".into(), "column:16".parse().unwrap())],
/// };
/// let r = search_swizzle(&spec).unwrap();
/// assert_eq!(r.best.swizzle.to_string(), "Sw<3,3,3>");
/// assert_eq!(r.atom.as_deref(), Some("Layout_K_SW128"));
/// ```
pub fn search_swizzle(spec: &SearchSpec) -> Result<SearchResult> {
    let (r, c) = spec.tile;
    elem_log2(spec.elem_bytes, "analysis")?;
    if r < 1 || c < 1 || r.checked_mul(c).is_none_or(|n| n > 1 << 20) {
        return Err(Error::inadmissible("swizzle search", format!("tile ({r},{c}): 1 to 2^20 elements")));
    }
    if spec.patterns.is_empty() {
        return Err(Error::inadmissible("swizzle search", "no access pattern to optimise"));
    }
    let size = r * c;
    let bits = 63 - size.leading_zeros() as i64; // floor(log2(size))
    let base = base_layout(spec)?;
    let base_offsets = base.values()?;
    let base_any = AnyLayout::Layout(base.clone());
    let accesses: Vec<Warps> =
        spec.patterns.iter().map(|(_, p)| access_warps(&base_any, spec.elem_bytes, p)).collect::<Result<_>>()?;
    let none = Swizzle::new(0, 4 - i64::from(elem_log2(spec.elem_bytes, "analysis")?), 3)?;
    let Some((base_c, base_vectors)) = evaluate(spec, none, &base, &base_offsets, &accesses)? else {
        return Err(Error::inadmissible("swizzle search", "the base layout leaves the tile"));
    };
    let mut reasoning = Vec::new();
    let describe = |c: &Candidate| -> String {
        let parts: Vec<String> = spec
            .patterns
            .iter()
            .zip(c.wavefronts.iter().zip(&c.ideal))
            .map(|((label, p), (w, i))| format!("{label} {p}: {w} (ideal {i})"))
            .collect();
        format!("total {} wavefronts; {}", c.total(), parts.join(", "))
    };
    reasoning.push(format!("base layout {base}: {}", describe(&base_c)));
    let mut kept = vec![base_c];
    let (mut tried, mut rejected) = (1usize, 0usize);
    // every B the tile's bits allow (S >= B, so 2B <= bits)
    let most_b = bits / 2;
    for b in 1..=most_b {
        for m in 0..=bits {
            for s in b..=bits {
                if m + b + s > bits {
                    break;
                }
                let sw = Swizzle::new(b, m, s)?;
                tried += 1;
                let Some((mut cand, vectors)) = evaluate(spec, sw, &base, &base_offsets, &accesses)? else {
                    rejected += 1;
                    continue;
                };
                cand.keeps_vectors = vectors == base_vectors;
                if cand.keeps_vectors {
                    kept.push(cand);
                } else {
                    rejected += 1;
                }
            }
        }
    }
    reasoning.push(format!(
        "tried {tried} candidates (no swizzle, and every Sw<B,M,S> with S >= B and M + B + S <= {bits}, the tile's \
         bits: B in 1..={most_b}); {rejected} rejected (offsets leave the tile, or a vector width shrinks below the \
         base's {base_vectors:?} elements)"
    ));
    let atom_of = |c: &Candidate| umma_atom_name(c.swizzle, spec.tile, spec.elem_bytes, spec.major);
    kept.sort_by_key(|c| {
        let bits = c.swizzle.bits();
        let (m, s) = if bits == 0 { (0, 0) } else { (c.swizzle.base(), c.swizzle.shift()) };
        (c.total(), bits, atom_of(c).is_none(), m, s)
    });
    let best = kept[0].clone();
    let ideal: i64 = best.ideal.iter().sum();
    for c in kept.iter().take(5) {
        reasoning.push(format!("  {}: {}", c.swizzle, describe(c)));
    }
    let ties = kept.iter().filter(|c| c.total() == best.total()).count();
    let verdict = if best.total() <= ideal {
        "conflict-free".to_string()
    } else {
        format!("{} wavefronts over the ideal {ideal}", best.total() - ideal)
    };
    reasoning.push(format!(
        "best: {} ({verdict}); {ties} candidate(s) reach {} wavefronts, the fewest, and it has the smallest B among them",
        best.layout,
        best.total()
    ));
    let atom = atom_of(&best);
    if let Some(name) = &atom {
        let spellings = if name.ends_with("_32B") {
            format!("UMMA::{name}_Atom<T>, SM100 only")
        } else {
            format!("GMMA::{name}_Atom<T> on SM90, UMMA::{name}_Atom<T> on SM100")
        };
        reasoning.push(format!(
            "it is CuTe's {name} ({spellings}; CuTe writes its swizzle in bytes, Sw<{},{},{}>, on byte addresses)",
            best.swizzle.bits(),
            if name.ends_with("_32B") { 5 } else { 4 },
            best.swizzle.shift()
        ));
    }
    Ok(SearchResult { best, atom, candidates: kept, reasoning })
}
