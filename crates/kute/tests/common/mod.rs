//! Shared generators and independent reference helpers for kute's law, regression,
//! golden and no-panic tests.
//!
//! Everything here is written from the mathematics (theory.md §6, cute_cpp_inventory.md
//! §2), not from kute's implementation: layouts are evaluated by our own colexicographic
//! evaluator, `coalesce_x` and the admissibility predicates are re-derived, so a law test
//! compares kute against an independent model.
//!
//! Random cases come from a small deterministic PRNG seeded by proptest (`any::<u64>()`),
//! which keeps the generators short and every failing case reproducible from its seed.

#![allow(dead_code)]

use kute::expr::{self, Value};
use kute::tree::TreeRef;
use kute::{Int, IntTuple, Layout};
use std::fmt::Write as _;

// ---------------------------------------------------------------------------
// Layout trees
// ---------------------------------------------------------------------------

/// A layout as a tree of `(extent, stride)` leaves, printable with static (`_N`) or
/// dynamic (`N`) integers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum T {
    Leaf(i64, i64),
    Node(Vec<T>),
}

impl T {
    pub fn flat(modes: &[(i64, i64)]) -> T {
        if modes.len() == 1 {
            T::Leaf(modes[0].0, modes[0].1)
        } else {
            T::Node(modes.iter().map(|&(s, d)| T::Leaf(s, d)).collect())
        }
    }

    pub fn leaves(&self) -> Vec<(i64, i64)> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    fn collect(&self, out: &mut Vec<(i64, i64)>) {
        match self {
            T::Leaf(s, d) => out.push((*s, *d)),
            T::Node(cs) => cs.iter().for_each(|c| c.collect(out)),
        }
    }

    pub fn size(&self) -> i64 {
        self.leaves().iter().map(|m| m.0).product()
    }

    fn write(&self, f: &mut String, stride: bool, st: bool) {
        match self {
            T::Leaf(s, d) => {
                let v = if stride { *d } else { *s };
                if st {
                    f.push('_');
                }
                write!(f, "{v}").unwrap();
            }
            T::Node(cs) => {
                f.push('(');
                for (i, c) in cs.iter().enumerate() {
                    if i > 0 {
                        f.push(',');
                    }
                    c.write(f, stride, st);
                }
                f.push(')');
            }
        }
    }

    /// CuTe notation; `st` selects static (`_N`) or dynamic (`N`) integers.
    pub fn show(&self, st: bool) -> String {
        let mut f = String::new();
        self.write(&mut f, false, st);
        f.push(':');
        self.write(&mut f, true, st);
        f
    }

    /// The shape alone.
    pub fn show_shape(&self, st: bool) -> String {
        let mut f = String::new();
        self.write(&mut f, false, st);
        f
    }

    pub fn s(&self) -> String {
        self.show(true)
    }

    pub fn d(&self) -> String {
        self.show(false)
    }

    pub fn layout(&self) -> Layout {
        lay(&self.s())
    }

    /// The top-level modes (an integral layout is its own single mode).
    pub fn modes(&self) -> Vec<T> {
        match self {
            T::Leaf(..) => vec![self.clone()],
            T::Node(cs) => cs.clone(),
        }
    }
}

/// Parse a layout, panicking with the text on failure (test inputs only).
pub fn lay(s: &str) -> Layout {
    s.parse().unwrap_or_else(|e| panic!("cannot parse layout {s}: {e}"))
}

/// Evaluate an expression to a layout.
pub fn eval_layout(src: &str) -> kute::Result<Layout> {
    match expr::eval(src)? {
        Value::Layout(l) => Ok(l),
        other => panic!("{src} gave a {} ({other}), not a layout", other.kind_name()),
    }
}

/// Remove every static marker: `(_2,3):(_1,_2)` -> `(2,3):(1,2)`.
pub fn strip(s: &str) -> String {
    s.replace('_', "")
}

// ---------------------------------------------------------------------------
// Independent evaluation
// ---------------------------------------------------------------------------

/// Flat leaves of a kute layout as `(extent, stride)` pairs.
pub fn modes_of(l: &Layout) -> Vec<(i64, i64)> {
    l.leaves().iter().map(|m| (m.shape.value(), m.stride.value())).collect()
}

/// CuTe evaluation of a 1-D coordinate on flat modes: colexicographic split, the
/// last mode unbounded (so `x >= size` extends it).
pub fn eval_modes(modes: &[(i64, i64)], mut x: i64) -> i64 {
    let n = modes.len();
    let mut acc: i64 = 0;
    for (k, &(s, d)) in modes.iter().enumerate() {
        if k + 1 == n {
            acc += x * d;
        } else {
            acc += (x % s) * d;
            x /= s;
        }
    }
    acc
}

/// `L(i)` for `i` in `[0, size)`, by our own evaluator.
pub fn values_modes(modes: &[(i64, i64)]) -> Vec<i64> {
    let n: i64 = modes.iter().map(|m| m.0).product();
    (0..n).map(|i| eval_modes(modes, i)).collect()
}

pub fn values(l: &Layout) -> Vec<i64> {
    values_modes(&modes_of(l))
}

pub fn size(l: &Layout) -> i64 {
    modes_of(l).iter().map(|m| m.0).product()
}

/// CuTe's `coalesce` (`fake_last = false`) and `coalesce_x` (`true`) on flat modes,
/// by value (§2.2 of the inventory): right to left, drop extent-1 modes, merge when
/// `s[i]*d[i] == d[i+1]`.
pub fn coalesce_modes(leaves: &[(i64, i64)], fake_last: bool) -> Vec<(i64, i64)> {
    let r = leaves.len();
    if r == 0 {
        return vec![(1, 0)];
    }
    let mut out: Vec<(i64, i64)> = Vec::new(); // reversed
    let last = leaves[r - 1];
    out.push(if fake_last && last.0 == 1 { (2, last.1) } else { last });
    let mut scalar = true;
    for &(s, d) in leaves[..r - 1].iter().rev() {
        let front = out.last_mut().unwrap();
        if s == 1 {
            continue;
        }
        if scalar && front.0 == 1 {
            *front = (s, d);
        } else if s * d == front.1 {
            front.0 *= s;
            front.1 = d;
        } else {
            out.push((s, d));
            scalar = false;
        }
    }
    if scalar && out[0].0 == 1 {
        out[0] = (1, 0);
    }
    out.reverse();
    out
}

/// `Â(x)`: `A` coalesced CuTe-style (`coalesce_x`), its last mode unbounded. This is
/// the function CuTe's composition composes with.
pub fn ahat(a: &Layout, x: i64) -> i64 {
    eval_modes(&coalesce_modes(&modes_of(a), true), x)
}

/// CuTe's `compatible(a, b)` on shapes: `a`'s integers are the sizes of `b`'s modes.
pub fn compatible(a: TreeRef<'_, Int>, b: TreeRef<'_, Int>) -> bool {
    match a.as_leaf() {
        Some(x) => b.leaves().iter().map(|y| y.value()).product::<i64>() == x.value(),
        None => {
            if b.is_leaf() || a.rank() != b.rank() {
                return false;
            }
            a.children().zip(b.children()).all(|(x, y)| compatible(x, y))
        }
    }
}

pub fn shapes_compatible(a: &Layout, b: &Layout) -> bool {
    let (sa, sb): (IntTuple, IntTuple) = (a.shape(), b.shape());
    compatible(sa.as_ref(), sb.as_ref())
}

/// Whether the flat, filtered, stride-sorted layout is tractable (Colfax Def. 2.1.8.1):
/// `s_i·d_i | d_{i+1}` for consecutive non-zero strides (positive strides assumed).
pub fn tractable(modes: &[(i64, i64)]) -> bool {
    let mut m: Vec<(i64, i64)> = modes.iter().copied().filter(|&(s, d)| s != 1 && d != 0).collect();
    m.sort_by_key(|&(s, d)| (d, s));
    m.windows(2).all(|w| w[1].1 % (w[0].0 * w[0].1) == 0)
}

/// Whether the layout function is injective on its domain.
pub fn injective(modes: &[(i64, i64)]) -> bool {
    let mut v = values_modes(modes);
    v.sort_unstable();
    v.windows(2).all(|w| w[0] != w[1])
}

/// Ordered factorizations of `n` (all extents > 1); `[]` for `n == 1`.
pub fn factorizations(n: i64) -> Vec<Vec<i64>> {
    if n == 1 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for f in 2..=n {
        if n % f == 0 {
            for mut rest in factorizations(n / f) {
                rest.insert(0, f);
                out.push(rest);
            }
        }
    }
    out
}

/// Whether some flat layout of size `v.len()` has exactly these values on its domain.
/// (Only the shape is free: the strides are then the values at the prefix products.)
pub fn realizable(v: &[i64]) -> bool {
    let n = v.len() as i64;
    if n <= 1 {
        return v.iter().all(|&x| x == 0);
    }
    factorizations(n).into_iter().any(|shape| {
        let mut modes = Vec::new();
        let mut pre = 1;
        for &s in &shape {
            modes.push((s, v[pre as usize]));
            pre *= s;
        }
        values_modes(&modes) == v
    })
}

// ---------------------------------------------------------------------------
// A small deterministic PRNG (splitmix64), seeded by proptest
// ---------------------------------------------------------------------------

/// Largest domain a generator produces.
pub const MAX_SIZE: i64 = 4096;

pub struct Gen(u64);

impl Gen {
    pub fn new(seed: u64) -> Gen {
        Gen(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, n)`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Uniform in `[lo, hi]`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }

    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }

    pub fn pick<X: Copy>(&mut self, xs: &[X]) -> X {
        xs[self.below(xs.len())]
    }

    pub fn shuffle<X>(&mut self, xs: &mut [X]) {
        for i in (1..xs.len()).rev() {
            let j = self.below(i + 1);
            xs.swap(i, j);
        }
    }

    pub fn extent(&mut self) -> i64 {
        self.pick(&[1, 2, 2, 2, 3, 4, 4, 4, 5, 6, 8, 8, 16])
    }

    pub fn big_extent(&mut self) -> i64 {
        self.pick(&[2, 2, 3, 4, 4, 5, 6, 8])
    }

    /// A stride: often 0 or small, sometimes a power of two or a product, rarely negative.
    pub fn stride(&mut self, negative: bool) -> i64 {
        let d = match self.below(10) {
            0 => 0,
            1 | 2 => 1,
            3 => self.pick(&[2, 4, 8, 16, 32, 64]),
            4 => self.pick(&[3, 6, 12, 24, 48]),
            _ => self.range(1, 40),
        };
        if negative && self.chance(0.1) {
            -d
        } else {
            d
        }
    }

    /// `n` extents with product at most `MAX_SIZE`.
    pub fn extents(&mut self, n: usize) -> Vec<i64> {
        let mut out = Vec::with_capacity(n);
        let mut p = 1;
        for _ in 0..n {
            let mut e = self.extent();
            while p * e > MAX_SIZE {
                e = (e / 2).max(1);
            }
            p *= e;
            out.push(e);
        }
        out
    }

    /// A random flat list of modes, any strides.
    pub fn flat_modes(&mut self, max_rank: usize, negative: bool) -> Vec<(i64, i64)> {
        let n = 1 + self.below(max_rank);
        let ext = self.extents(n);
        ext.into_iter().map(|s| (s, self.stride(negative))).collect()
    }

    /// Group flat leaves into a random hierarchy (keeps the leaf order).
    pub fn nest(&mut self, leaves: &[(i64, i64)]) -> T {
        self.nest_depth(leaves, 3, true)
    }

    fn nest_depth(&mut self, leaves: &[(i64, i64)], depth: usize, top: bool) -> T {
        let n = leaves.len();
        if n == 1 {
            // Occasionally a rank-1 tuple `(s):(d)`.
            if depth > 0 && self.chance(0.08) {
                return T::Node(vec![T::Leaf(leaves[0].0, leaves[0].1)]);
            }
            return T::Leaf(leaves[0].0, leaves[0].1);
        }
        if depth == 0 || (!top && self.chance(0.5)) {
            return T::flat(leaves);
        }
        // Split into 1..=n contiguous chunks.
        let k = 1 + self.below(n);
        let mut cuts: Vec<usize> = (1..n).collect();
        self.shuffle(&mut cuts);
        let mut cuts: Vec<usize> = cuts.into_iter().take(k - 1).collect();
        cuts.sort_unstable();
        let mut parts = Vec::new();
        let mut start = 0;
        for c in cuts.into_iter().chain(std::iter::once(n)) {
            parts.push(self.nest_depth(&leaves[start..c], depth - 1, false));
            start = c;
        }
        if parts.len() == 1 {
            return match parts.pop().unwrap() {
                leaf @ T::Leaf(..) => leaf,
                node => node,
            };
        }
        T::Node(parts)
    }

    /// A random layout: random extents and strides, random hierarchy.
    pub fn layout(&mut self, max_rank: usize, negative: bool) -> T {
        let m = self.flat_modes(max_rank, negative);
        self.nest(&m)
    }

    /// A random morphism of tuples (Colfax): encoded as a tractable layout.
    pub fn morphism(&mut self, max_cod_rank: usize, unmapped: f64) -> Morphism {
        let n = 1 + self.below(max_cod_rank);
        let mut cod = Vec::with_capacity(n);
        let mut p = 1;
        for _ in 0..n {
            let mut e = self.big_extent();
            while p * e > MAX_SIZE {
                e = (e / 2).max(2);
                if p * e > MAX_SIZE {
                    break;
                }
            }
            if p * e > MAX_SIZE {
                break;
            }
            p *= e;
            cod.push(e);
        }
        if cod.is_empty() {
            cod.push(2);
        }
        // A random subset of the codomain, in random order, is hit by the domain.
        let mut idx: Vec<usize> = (0..cod.len()).collect();
        self.shuffle(&mut idx);
        let k = if self.chance(0.5) { cod.len() } else { 1 + self.below(cod.len()) };
        let mut alpha: Vec<Option<usize>> = idx.into_iter().take(k).map(Some).collect();
        let mut dsize: i64 = alpha.iter().map(|a| cod[a.unwrap()]).product();
        while self.chance(unmapped) && alpha.len() < 6 {
            let e = self.big_extent();
            if dsize * e > MAX_SIZE {
                break;
            }
            dsize *= e;
            alpha.push(None);
        }
        self.shuffle(&mut alpha);
        let dom = alpha.iter().map(|a| if let Some(j) = a { cod[*j] } else { self.big_extent() }).collect();
        let mut m = Morphism { dom, cod, alpha };
        // the extents of unmapped modes were drawn again above: re-cap the size
        while m.dom.iter().product::<i64>() > MAX_SIZE {
            let k = m.alpha.iter().position(Option::is_none).unwrap();
            m.dom.remove(k);
            m.alpha.remove(k);
        }
        m
    }

    /// The layout of a random morphism, randomly nested.
    pub fn morph_nested(&mut self, max_cod_rank: usize, unmapped: f64) -> T {
        let m = self.morphism(max_cod_rank, unmapped).modes();
        self.nest(&m)
    }

    /// A morphism whose domain is exactly `dom` (every mode of extent > 1 mapped with
    /// probability `p_map`): composable after a morphism with codomain `dom`.
    pub fn morphism_from(&mut self, dom: &[i64], p_map: f64, extra: usize) -> Morphism {
        let mapped: Vec<bool> = dom.iter().map(|_| self.chance(p_map)).collect();
        // codomain: the mapped extents plus `extra` fresh ones, shuffled
        let mut cod_items: Vec<(i64, Option<usize>)> =
            dom.iter().enumerate().filter(|(i, _)| mapped[*i]).map(|(i, &e)| (e, Some(i))).collect();
        let mut total: i64 = cod_items.iter().map(|c| c.0).product();
        for _ in 0..extra {
            let e = self.big_extent();
            if total * e <= 8 * MAX_SIZE {
                total *= e;
                cod_items.push((e, None));
            }
        }
        if cod_items.is_empty() {
            cod_items.push((2, None));
        }
        self.shuffle(&mut cod_items);
        let mut alpha = vec![None; dom.len()];
        for (j, (_, src)) in cod_items.iter().enumerate() {
            if let Some(i) = src {
                alpha[*i] = Some(j);
            }
        }
        Morphism { dom: dom.to_vec(), cod: cod_items.iter().map(|c| c.0).collect(), alpha }
    }
}

/// A morphism of tuples `f: dom -> cod` over a partial injection `alpha`
/// (`dom[i] == cod[alpha[i]]` where mapped).
#[derive(Clone, Debug)]
pub struct Morphism {
    pub dom: Vec<i64>,
    pub cod: Vec<i64>,
    pub alpha: Vec<Option<usize>>,
}

impl Morphism {
    /// The encoded layout `L_f`: shape `dom`, stride `prod(cod[..alpha(i)])`, 0 where unmapped.
    pub fn modes(&self) -> Vec<(i64, i64)> {
        self.dom
            .iter()
            .zip(&self.alpha)
            .map(|(&s, a)| match a {
                Some(j) => (s, self.cod[..*j].iter().product()),
                None => (s, 0),
            })
            .collect()
    }

    pub fn cod_size(&self) -> i64 {
        self.cod.iter().product()
    }

    pub fn injective(&self) -> bool {
        self.alpha.iter().zip(&self.dom).all(|(a, &s)| a.is_some() || s == 1)
    }
}

/// proptest configuration shared by the law tests: no regression files written into
/// the source tree. `PROPTEST_CASES` in the environment overrides the number of cases
/// (for long stress runs).
pub fn config(cases: u32) -> proptest::test_runner::Config {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(cases);
    proptest::test_runner::Config { cases, failure_persistence: None, ..proptest::test_runner::Config::default() }
}

/// Every `.rs` file below `dir`, recursively (the source scans of the docs and layers tests).
pub fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}
