//! The shared-memory analysis against an independent brute-force model of the
//! banks, and against CuTe's published facts about its GMMA atoms.

use crate::common;

use kute::analysis::{
    bank_conflicts, gmma_atom_name, search_swizzle, swizzle_bytes_to_elements, vector_width, Access, Dir, Pattern,
    SearchSpec,
};
use kute::{AnyLayout, ErrorKind, Major};
use std::collections::{BTreeMap, BTreeSet};

fn any(src: &str) -> AnyLayout {
    kute::expr::eval(src).unwrap().to_any_layout("smem").unwrap()
}

fn pat(s: &str) -> Access {
    Access::parse(s).unwrap()
}

// ----- the brute-force model --------------------------------------------------

/// A flat rank-2 layout `(s0,s1):(d0,d1)`, optionally under `Sw<b,m,s>` (s > 0).
#[derive(Clone, Debug)]
struct Smem {
    shape: [i64; 2],
    stride: [i64; 2],
    swizzle: Option<(i64, i64, i64)>,
}

impl Smem {
    fn text(&self) -> String {
        let l = format!("({},{}):({},{})", self.shape[0], self.shape[1], self.stride[0], self.stride[1]);
        match self.swizzle {
            Some((b, m, s)) => format!("Sw<{b},{m},{s}> o _0 o {l}"),
            None => l,
        }
    }
    fn offset(&self, idx: i64) -> i64 {
        let (i, j) = (idx % self.shape[0], idx / self.shape[0]);
        let x = i * self.stride[0] + j * self.stride[1];
        match self.swizzle {
            // bit by bit: bit (m + s + k) of x flips bit (m + k)
            Some((b, m, s)) => {
                let mut y = x;
                for k in 0..b {
                    if (x >> (m + s + k)) & 1 == 1 {
                        y ^= 1 << (m + k);
                    }
                }
                y
            }
            None => x,
        }
    }
}

/// The tile coordinates of each active thread, for a named pattern: list the
/// vectors of the tile in the threads' order and deal them out.
fn pattern_coords(rows: i64, cols: i64, p: Pattern, v: i64) -> Vec<Vec<i64>> {
    let mut vectors: Vec<Vec<(i64, i64)>> = Vec::new();
    let (gr, gc) = match p.values {
        Dir::Row => (rows, cols / v),
        Dir::Column => (rows / v, cols),
    };
    let cell = |a: i64, b: i64| -> Vec<(i64, i64)> {
        (0..v).map(|k| if p.values == Dir::Row { (a, b * v + k) } else { (a * v + k, b) }).collect()
    };
    match p.threads {
        Dir::Row => {
            for a in 0..gr {
                for b in 0..gc {
                    vectors.push(cell(a, b));
                }
            }
        }
        Dir::Column => {
            for b in 0..gc {
                for a in 0..gr {
                    vectors.push(cell(a, b));
                }
            }
        }
    }
    vectors.into_iter().take(32).map(|vec| vec.into_iter().map(|(r, c)| r + rows * c).collect()).collect()
}

/// Wavefronts and ideal of the access, simulated byte by byte.
fn simulate(smem: &Smem, eb: i64, threads: &[Vec<i64>]) -> (i64, i64) {
    let v = threads[0].len() as i64;
    let offs: Vec<Vec<i64>> = threads.iter().map(|idx| idx.iter().map(|&i| smem.offset(i)).collect()).collect();
    // the widest warp-wide aligned vector
    let mut w = 16 / eb;
    while w > 1 {
        let ok = v % w == 0
            && offs.iter().all(|o| {
                (0..v / w).all(|j| {
                    let first = o[(j * w) as usize];
                    first.rem_euclid(w) == 0 && (0..w).all(|k| o[(j * w + k) as usize] == first + k)
                })
            });
        if ok {
            break;
        }
        w /= 2;
    }
    let bytes = w * eb;
    let per_phase = match bytes {
        16 => 8,
        8 => 16,
        _ => 32,
    };
    let mut total = 0;
    for j in 0..v / w {
        let mut phases: BTreeMap<usize, BTreeMap<i64, BTreeSet<i64>>> = BTreeMap::new();
        for (t, o) in offs.iter().enumerate() {
            let start = o[(j * w) as usize] * eb;
            for a in start..start + bytes {
                let word = a.div_euclid(4);
                phases.entry(t / per_phase).or_default().entry(word.rem_euclid(32)).or_default().insert(word);
            }
        }
        total += phases.values().map(|banks| banks.values().map(|s| s.len() as i64).max().unwrap_or(0)).sum::<i64>();
    }
    let all = threads.len() as i64 * v * eb;
    (total, ((all + 127) / 128).max(1))
}

/// The tests' seeded generator, with the helpers this file uses.
struct Rng(common::Gen);
impl Rng {
    fn below(&mut self, n: i64) -> i64 {
        self.0.range(0, n - 1)
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        self.0.pick(xs)
    }
}

#[test]
fn the_library_agrees_with_the_brute_force_model_on_random_cases() {
    let mut rng = Rng(common::Gen::new(0x9e37_79b9_7f4a_7c15));
    let dims = [1, 2, 3, 4, 6, 8, 12, 16, 32, 64];
    let mut cases = 0;
    let mut conflicted = 0;
    while cases < 5_000 {
        let shape = [rng.pick(&dims), rng.pick(&dims)];
        let stride = match rng.below(4) {
            0 => [shape[1], 1],
            1 => [1, shape[0]],
            2 => [rng.below(80) - 8, rng.below(80) - 8],
            _ => [rng.pick(&[1, 2, 4, 8, 16, 64, 65]), rng.pick(&[1, 2, 3, 8, 32, 64, 128, 129])],
        };
        let swizzle = if rng.below(2) == 0 {
            let b = rng.below(4);
            Some((b, rng.below(5), b.max(1) + rng.below(5)))
        } else {
            None
        };
        let smem = Smem { shape, stride, swizzle };
        let eb = rng.pick(&[1, 2, 4, 8, 16]);
        let size = shape[0] * shape[1];
        let (access, coords) = if rng.below(3) == 0 {
            // a TV layout (threads, values):(dt, dv) inside the tile
            let (t, v) = (rng.pick(&[4, 8, 16, 32, 64]), rng.pick(&[1, 2, 3, 4, 8, 16]));
            let (dt, dv) = (rng.below(size), rng.below(size));
            let active = t.min(32);
            if (active - 1) * dt + (v - 1) * dv >= size {
                continue;
            }
            let coords: Vec<Vec<i64>> = (0..active).map(|i| (0..v).map(|k| i * dt + k * dv).collect()).collect();
            (Access::Tv(format!("({t},{v}):({dt},{dv})").parse().unwrap()), coords)
        } else {
            let p = Pattern {
                threads: rng.pick(&[Dir::Row, Dir::Column]),
                values: rng.pick(&[Dir::Row, Dir::Column]),
                bytes: eb * rng.pick(&[1, 1, 2, 3, 4, 8, 16]),
            };
            let v = p.bytes / eb;
            let along = if p.values == Dir::Row { shape[1] } else { shape[0] };
            if along % v != 0 {
                // the library refuses it, with an error and no panic
                let e = bank_conflicts(&any(&smem.text()), eb, &Access::Pattern(p)).unwrap_err();
                assert_eq!(e.kind(), ErrorKind::Inadmissible);
                continue;
            }
            (Access::Pattern(p), pattern_coords(shape[0], shape[1], p, v))
        };
        let layout = any(&smem.text());
        let r = bank_conflicts(&layout, eb, &access).unwrap_or_else(|e| panic!("{} {access}: {e}", smem.text()));
        let (want, ideal) = simulate(&smem, eb, &coords);
        assert_eq!(
            (r.wavefronts, r.ideal, r.threads),
            (want, ideal, coords.len()),
            "{} with {eb}-byte elements, {access}",
            smem.text()
        );
        assert_eq!(r.wavefronts, r.phases.iter().map(|p| p.wavefronts).sum::<i64>());
        conflicted += i64::from(want > ideal);
        cases += 1;
    }
    // the cases are not all of one kind
    assert!(conflicted > 500 && conflicted < 4500, "{conflicted} conflicted cases");
}

// ----- CuTe's published facts -------------------------------------------------

#[test]
fn sw128_k_major_atom_is_conflict_free_for_rows_and_ldmatrix() {
    // Layout_K_SW128 of 16-bit elements, in element offsets (CuTe prints it
    // Sw<3,4,3> o smem_ptr[16b] o (_8,_64):(_64,_1), its swizzle on bytes)
    let atom = any("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
    for a in ["row:16", "column:16"] {
        let r = bank_conflicts(&atom, 2, &pat(a)).unwrap();
        assert_eq!((r.wavefronts, r.ideal, r.vector_bytes), (4, 4, 16), "{a}");
        assert!(r.is_conflict_free());
    }
    // the same atom, written as CuTe prints it and read with its swizzle on bytes
    let printed = any("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)");
    let bytes = swizzle_bytes_to_elements(&printed, 2).unwrap();
    assert_eq!(bytes, atom);
    assert_eq!(bank_conflicts(&bytes, 2, &pat("column:16")).unwrap().wavefronts, 4);
    // read as element offsets, Sw<3,4,3> swizzles 32-byte blocks: 2-way for ldmatrix
    assert_eq!(bank_conflicts(&printed, 2, &pat("column:16")).unwrap().wavefronts, 8);
}

#[test]
fn plain_row_major_has_an_8_way_conflict_for_ldmatrix() {
    let plain = any("(_8,_64):(_64,_1)");
    let r = bank_conflicts(&plain, 2, &pat("column:16")).unwrap();
    assert_eq!((r.wavefronts, r.ideal), (32, 4));
    assert_eq!(r.degree(), 8.0);
    assert_eq!(r.phases.iter().map(|p| p.wavefronts).collect::<Vec<_>>(), [8, 8, 8, 8]);
    // rows are fine
    assert_eq!(bank_conflicts(&plain, 2, &pat("row:16")).unwrap().wavefronts, 4);
}

#[test]
fn ldmatrix_as_a_tv_layout_is_the_column_pattern() {
    // thread t reads row t % 8, columns 8 (t / 8) .. + 8: (t,v) -> t%8 + 8*(8*(t/8) + v)
    let tv = Access::Tv("((_8,_4),_8):((_1,_64),_8)".parse().unwrap());
    for src in ["(_8,_64):(_64,_1)", "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", "Sw<2,3,3> o _0 o (_8,_64):(_64,_1)"] {
        let s = any(src);
        assert_eq!(
            bank_conflicts(&s, 2, &tv).unwrap().wavefronts,
            bank_conflicts(&s, 2, &pat("column:16")).unwrap().wavefronts,
            "{src}"
        );
    }
}

#[test]
fn smaller_atoms_and_32_bit_elements() {
    // SW64 / SW32 of 16-bit elements: 8 rows of 64 / 32 bytes
    for (src, a) in
        [("Sw<2,3,3> o _0 o (_8,_32):(_32,_1)", "column:16"), ("Sw<1,3,3> o _0 o (_8,_16):(_16,_1)", "column:16")]
    {
        let r = bank_conflicts(&any(src), 2, &pat(a)).unwrap();
        assert_eq!(r.wavefronts, r.ideal, "{src}");
    }
    // SW128 of 32-bit elements: Sw<3,2,3> o (8,32):(32,1)
    let r = bank_conflicts(&any("Sw<3,2,3> o _0 o (_8,_32):(_32,_1)"), 4, &pat("column:16")).unwrap();
    assert_eq!((r.wavefronts, r.ideal), (4, 4));
    // 32 threads reading one 4-byte column of a 32x32 row-major tile: 32-way
    let r = bank_conflicts(&any("(_32,_32):(_32,_1)"), 4, &pat("column/column:4")).unwrap();
    assert_eq!((r.wavefronts, r.ideal), (32, 1));
    // padding the rows by one word removes it
    let r = bank_conflicts(&any("(_32,_32):(_33,_1)"), 4, &pat("column/column:4")).unwrap();
    assert_eq!((r.wavefronts, r.ideal), (1, 1));
}

#[test]
fn broadcast_is_not_a_conflict() {
    // every thread reads the same 16 bytes: one wavefront per phase
    let r = bank_conflicts(&any("(_8,_64):(_64,_1)"), 2, &Access::Tv("(_32,_8):(_0,_8)".parse().unwrap())).unwrap();
    assert_eq!((r.wavefronts, r.ideal), (4, 4));
}

#[test]
fn unaligned_or_strided_values_are_split() {
    // values down a column of a row-major tile: 8 scalar 2-byte instructions
    let r = bank_conflicts(&any("(_8,_64):(_64,_1)"), 2, &pat("row/column:16")).unwrap();
    assert_eq!((r.vector_elems, r.instructions, r.wavefronts, r.ideal), (1, 8, 8, 4));
    // an offset of one element breaks the alignment of 16-byte vectors
    let r = bank_conflicts(&any("(_8,(_1,_64)):(_64,(_0,_1))"), 2, &pat("row:16")).unwrap();
    assert_eq!(r.vector_elems, 8);
    let shifted = Access::Tv("(_32,_8):(_8,_1)".parse().unwrap());
    let r = bank_conflicts(&any("_512:_1"), 2, &shifted).unwrap();
    assert_eq!(r.vector_elems, 8);
    let odd = Access::Tv("(_32,_8):(_9,_1)".parse().unwrap());
    let r = bank_conflicts(&any("_512:_1"), 2, &odd).unwrap();
    assert_eq!(r.vector_elems, 1);
}

#[test]
fn vector_width_from_max_common_vector() {
    let sw = any("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
    let r = vector_width(&sw, 2, &pat("row:32")).unwrap();
    assert_eq!((r.cute_common.clone().unwrap(), r.elems, r.bytes, r.warp_elems), (8, 8, 16, 8));
    let plain = any("(_8,_64):(_64,_1)");
    let r = vector_width(&plain, 2, &pat("row:32")).unwrap();
    assert_eq!((r.cute_common.clone().unwrap(), r.elems, r.warp_elems), (16, 8, 8));
    let r = vector_width(&plain, 1, &pat("row:4")).unwrap();
    assert_eq!((r.elems, r.bytes), (4, 4));
    // down a column of a row-major tile: no vector
    let r = vector_width(&plain, 2, &pat("row/column:8")).unwrap();
    assert_eq!((r.cute_common.clone().unwrap(), r.elems, r.warp_elems), (1, 1, 1));
    // a swizzle of base 2 halves the 8-element vectors
    let r = vector_width(&any("Sw<3,2,3> o _0 o (_8,_64):(_64,_1)"), 2, &pat("row:16")).unwrap();
    assert_eq!((r.elems, r.warp_elems), (4, 4));
}

#[test]
fn the_search_finds_layout_k_sw128() {
    let spec = SearchSpec {
        tile: (8, 64),
        elem_bytes: 2,
        major: Major::Right,
        patterns: vec![("write".into(), "row:16".parse().unwrap()), ("read".into(), "column:16".parse().unwrap())],
    };
    let r = search_swizzle(&spec).unwrap();
    assert_eq!(r.best.swizzle.to_string(), "Sw<3,3,3>");
    assert_eq!(r.best.layout.to_string(), "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
    assert_eq!(r.best.wavefronts, [4, 4]);
    assert_eq!(r.atom.as_deref(), Some("Layout_K_SW128"));
    // the winner really is conflict-free, by the brute-force model
    let smem = Smem { shape: [8, 64], stride: [64, 1], swizzle: Some((3, 3, 3)) };
    for p in ["row:16", "column:16"] {
        let p: Pattern = p.parse().unwrap();
        assert_eq!(simulate(&smem, 2, &pattern_coords(8, 64, p, 8)), (4, 4));
    }
    assert!(r.reasoning.iter().any(|l| l.contains("Layout_K_SW128")));
    assert!(r.reasoning[0].starts_with("base layout (_8,_64):(_64,_1): total 36"), "{:?}", r.reasoning);
}

#[test]
fn the_search_on_other_tiles() {
    // a 64x64 tile of halves: the SW128 atom tiled down the rows
    let spec = SearchSpec {
        tile: (64, 64),
        elem_bytes: 2,
        major: Major::Right,
        patterns: vec![("write".into(), "row:16".parse().unwrap()), ("read".into(), "column:16".parse().unwrap())],
    };
    let r = search_swizzle(&spec).unwrap();
    assert_eq!(r.best.wavefronts, r.best.ideal);
    assert_eq!(r.atom.as_deref(), Some("Layout_K_SW128"));
    // column-major (MN-major) tile read with threads along rows, values down columns
    let spec = SearchSpec {
        tile: (64, 8),
        elem_bytes: 2,
        major: Major::Left,
        patterns: vec![
            ("write".into(), "column/column:16".parse().unwrap()),
            ("read".into(), "row/column:16".parse().unwrap()),
        ],
    };
    let r = search_swizzle(&spec).unwrap();
    assert_eq!(r.best.wavefronts, r.best.ideal);
    assert_eq!(r.atom.as_deref(), Some("Layout_MN_SW128"));
    // already conflict-free: no swizzle
    let spec = SearchSpec {
        tile: (8, 64),
        elem_bytes: 2,
        major: Major::Right,
        patterns: vec![("write".into(), "row:16".parse().unwrap())],
    };
    let r = search_swizzle(&spec).unwrap();
    assert_eq!(r.best.swizzle.bits(), 0);
    assert_eq!(r.best.layout.to_string(), "(_8,_64):(_64,_1)");
}

#[test]
fn atom_names() {
    let sw = |b, m, s| kute::Swizzle::new(b, m, s).unwrap();
    assert_eq!(gmma_atom_name(sw(3, 3, 3), (8, 64), 2, Major::Right).as_deref(), Some("Layout_K_SW128"));
    assert_eq!(gmma_atom_name(sw(2, 3, 3), (8, 32), 2, Major::Right).as_deref(), Some("Layout_K_SW64"));
    assert_eq!(gmma_atom_name(sw(1, 3, 3), (8, 16), 2, Major::Right).as_deref(), Some("Layout_K_SW32"));
    assert_eq!(gmma_atom_name(sw(3, 4, 3), (8, 128), 1, Major::Right).as_deref(), Some("Layout_K_SW128"));
    assert_eq!(gmma_atom_name(sw(3, 2, 3), (8, 32), 4, Major::Right).as_deref(), Some("Layout_K_SW128"));
    assert_eq!(gmma_atom_name(sw(3, 3, 3), (8, 32), 2, Major::Right), None);
    assert_eq!(gmma_atom_name(sw(3, 3, 3), (12, 64), 2, Major::Right), None);
}

#[test]
fn bad_inputs_are_errors_not_panics() {
    let plain = any("(_8,_64):(_64,_1)");
    let e = |r: kute::Result<kute::analysis::BankReport>| r.unwrap_err().kind();
    assert_eq!(e(bank_conflicts(&plain, 3, &pat("row"))), ErrorKind::Inadmissible);
    assert_eq!(e(bank_conflicts(&plain, 4, &pat("row:6"))), ErrorKind::Inadmissible);
    assert_eq!(e(bank_conflicts(&any("(_2,_2,_2):(_1,_2,_4)"), 2, &pat("row"))), ErrorKind::Mismatch);
    assert_eq!(e(bank_conflicts(&any("Sw<3,3,3>"), 2, &pat("row"))), ErrorKind::Type);
    assert_eq!(
        e(bank_conflicts(&plain, 2, &Access::Tv("(_32,_8):(_64,_1)".parse().unwrap()))),
        ErrorKind::Inadmissible
    );
    assert_eq!(
        e(bank_conflicts(&plain, 2, &Access::Tv("(_32,_8,_2):(_1,_1,_1)".parse().unwrap()))),
        ErrorKind::Mismatch
    );
    assert_eq!(
        e(bank_conflicts(&any("(_8,_8):(_4611686018427387904,_1)"), 16, &pat("column/column:16"))),
        ErrorKind::Overflow
    );
    assert!("row:0".parse::<Pattern>().is_err());
    assert!("row/diag".parse::<Pattern>().is_err());
    assert!(Access::parse("diagonal").is_err());
    assert!(swizzle_bytes_to_elements(&any("Sw<3,0,3> o _0 o (_8,_64):(_64,_1)"), 2).is_err());
    let bad = |tile, patterns: Vec<(String, Access)>| {
        search_swizzle(&SearchSpec { tile, elem_bytes: 2, major: Major::Right, patterns }).unwrap_err().kind()
    };
    assert_eq!(bad((8, 64), vec![]), ErrorKind::Inadmissible);
    assert_eq!(bad((0, 64), vec![("r".into(), "row".parse().unwrap())]), ErrorKind::Inadmissible);
    assert_eq!(bad((1 << 20, 64), vec![("r".into(), "row".parse().unwrap())]), ErrorKind::Inadmissible);
}

/// The search tries every B the tile allows, and says how far it went: a
/// 32x32 tile of 4-byte elements written by rows and read by columns, one
/// element a thread, is conflict-free only with 5 bits (`Sw<5,0,5>`: the
/// 32 rows of a column in 32 banks), which a search stopping at B = 3 misses.
#[test]
fn the_swizzle_search_tries_every_b_the_tile_allows() {
    use kute::analysis::{search_swizzle, SearchSpec};
    let spec = SearchSpec {
        tile: (32, 32),
        elem_bytes: 4,
        major: kute::Major::Right,
        patterns: vec![("write".into(), "row:4".parse().unwrap()), ("read".into(), "column:4".parse().unwrap())],
    };
    let r = search_swizzle(&spec).unwrap();
    let ideal: i64 = r.best.ideal.iter().sum();
    assert_eq!(r.best.total(), ideal, "{:?}", r.reasoning);
    assert_eq!(r.best.swizzle.bits(), 5, "{}", r.best.swizzle);
    // no candidate of fewer bits is conflict-free
    assert!(r.candidates.iter().filter(|c| c.swizzle.bits() < 5).all(|c| c.total() > ideal));
    assert!(r.reasoning.iter().any(|l| l.contains("B in 1..=5")), "{:?}", r.reasoning);
}

/// The reports count in words: "1 element", "4 elements", each count read
/// back from the report's own fields.
#[test]
fn reports_count_in_the_singular_and_the_plural() {
    let words = |n: i64, noun: &str| if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") };
    for (smem, access) in [
        ("(_32,_32):(_32,_1)", "(_32,_4):(_0,_1)"),
        ("(_32,_32):(_32,_1)", "(_32,_1):(_1,_0)"),
        ("(_8,_64):(_64,_1)", "row:16"),
    ] {
        let (l, a) = (any(smem), pat(access));
        let r = bank_conflicts(&l, 4, &a).unwrap();
        let text = r.to_string();
        for want in [
            format!("{} each", words(r.values, "value")),
            format!("({}) per instruction", words(r.vector_elems, "element")),
            format!("{} per thread", words(r.instructions, "instruction")),
        ] {
            assert!(text.contains(&want), "{smem} {access}: {want} in\n{text}");
        }
        let v = vector_width(&l, 4, &a).unwrap();
        let text = v.to_string();
        assert!(text.contains(&format!("({})\n", words(v.elems, "element"))), "{text}");
        assert!(!text.contains("1 elements") && !text.contains("(s)"), "{text}");
    }
}
