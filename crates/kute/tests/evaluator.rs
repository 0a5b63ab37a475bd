//! `Evaluator` against an independent model: the `i % s * d`, `i / s` chain over
//! the flat leaves in `i128` (C++ truncating `%` and `/`), written here without
//! any of kute's code. Random layouts cover extents that are and are not powers
//! of two, extent 1 (and 0), stride 0, negative strides, random nesting and
//! static/dynamic markers; large ones go near `i64` overflow and near the fast
//! division's limit (`2^62`), where the evaluator must agree with `Layout::eval`
//! and, whenever it answers, with the model (an error is allowed only where
//! `Layout::eval` errs too).

use kute::evaluator::FastDivmod;
use kute::Layout;
use proptest::prelude::*;

/// `L(i)` by the model; `None` when it is not an `i64` (or an extent is 0).
fn model(leaves: &[(i64, i64)], i: i64) -> Option<i64> {
    let (last, rest) = leaves.split_last()?;
    let mut c = i as i128;
    let mut idx: i128 = 0;
    for &(s, d) in rest {
        if s == 0 {
            return None;
        }
        idx = idx.checked_add((c % s as i128).checked_mul(d as i128)?)?;
        c /= s as i128;
    }
    idx = idx.checked_add(c.checked_mul(last.1 as i128)?)?;
    i64::try_from(idx).ok()
}

/// The layout's source text: the leaves grouped into top-level modes by `groups`
/// (sizes of consecutive runs; a run of one may stay a bare leaf or be a 1-tuple).
fn source(leaves: &[(i64, i64)], groups: &[usize], statics: &[bool]) -> String {
    let int = |k: usize, v: i64| if statics[k % statics.len()] && v >= 0 { format!("_{v}") } else { v.to_string() };
    let (mut sh, mut st) = (Vec::new(), Vec::new());
    let mut k = 0;
    for (gi, &g) in groups.iter().enumerate() {
        let g = g.min(leaves.len() - k);
        if g == 0 {
            continue;
        }
        let run = k..k + g;
        let s: Vec<String> = run.clone().map(|j| int(j, leaves[j].0)).collect();
        let d: Vec<String> = run.map(|j| int(j + 1, leaves[j].1)).collect();
        if g == 1 && gi % 2 == 0 {
            sh.push(s[0].clone());
            st.push(d[0].clone());
        } else {
            sh.push(format!("({})", s.join(",")));
            st.push(format!("({})", d.join(",")));
        }
        k += g;
    }
    for (j, &(s, d)) in leaves.iter().enumerate().skip(k) {
        sh.push(int(j, s));
        st.push(int(j + 1, d));
    }
    format!("({}):({})", sh.join(","), st.join(","))
}

/// Every way of evaluating `i` agrees: the evaluator's `eval`, `Layout::eval`,
/// and (when they answer) the model.
fn check_at(l: &Layout, leaves: &[(i64, i64)], e: &kute::evaluator::Evaluator, i: i64) -> Result<(), TestCaseError> {
    let got = e.eval(i).ok();
    let slow = l.eval(i).ok();
    prop_assert_eq!(got, slow, "{} at {}: Evaluator vs Layout::eval", l, i);
    if let Some(v) = got {
        prop_assert_eq!(Some(v), model(leaves, i), "{} at {}: Evaluator vs model", l, i);
    }
    Ok(())
}

/// Coordinates worth probing: the domain's ends, digit boundaries (products of
/// leading extents, +-1), a few below and past the domain, and `extra`.
fn probes(leaves: &[(i64, i64)], size: i64, extra: &[i64]) -> Vec<i64> {
    let mut v = vec![0, 1, 2, size - 2, size - 1, size, size.saturating_add(1), -1, -2, i64::MIN, i64::MAX];
    let mut p: i64 = 1;
    for &(s, _) in leaves {
        match p.checked_mul(s) {
            Some(q) => p = q,
            None => break,
        }
        v.extend([p - 1, p, p.saturating_add(1), size.saturating_sub(p), size.saturating_sub(p).saturating_sub(1)]);
    }
    v.extend(extra.iter().map(|&x| if size > 0 { x.rem_euclid(size) } else { x }));
    v.extend_from_slice(extra);
    v
}

fn check_layout(leaves: &[(i64, i64)], groups: &[usize], statics: &[bool], extra: &[i64]) -> Result<(), TestCaseError> {
    let src = source(leaves, groups, statics);
    let l: Layout = src.parse().map_err(|e| TestCaseError::fail(format!("{src}: {e}")))?;
    let flat: Vec<(i64, i64)> = l.leaves().iter().map(|m| (m.shape.value(), m.stride.value())).collect();
    prop_assert_eq!(&flat, &leaves.to_vec(), "{}: leaves", src);
    let Ok(size) = l.size() else {
        // a size that does not fit: the evaluator may refuse, but must not panic
        let _ = l.evaluator();
        return Ok(());
    };
    let size = size.value();
    let e = l.evaluator().map_err(|err| TestCaseError::fail(format!("{src}: evaluator: {err}")))?;
    for i in probes(leaves, size, extra) {
        check_at(&l, leaves, &e, i)?;
    }
    // for_each / for_each_in over a window straddling the domain's ends
    for (a, b) in [(-3, 40.min(size.saturating_add(3))), (size.saturating_sub(40), size.saturating_add(3))] {
        let want: Vec<Option<i64>> = (a..b).map(|i| l.eval(i).ok()).collect();
        if want.iter().all(Option::is_some) {
            let want: Vec<i64> = want.into_iter().flatten().collect();
            let mut got = Vec::new();
            e.for_each_in(a..b, |x| got.push(x)).map_err(|err| TestCaseError::fail(format!("{src}: {err}")))?;
            prop_assert_eq!(&got, &want, "{}: for_each_in({}..{})", src, a, b);
            got.clear();
            e.for_each(a..b, |x| got.push(x)).map_err(|err| TestCaseError::fail(format!("{src}: {err}")))?;
            prop_assert_eq!(&got, &want, "{}: for_each({}..{})", src, a, b);
        } else {
            prop_assert!(e.for_each_in(a..b, |_| ()).is_err(), "{}: for_each_in({}..{}) must fail", src, a, b);
            prop_assert!(e.for_each(a..b, |_| ()).is_err(), "{}: for_each({}..{}) must fail", src, a, b);
        }
    }
    // the whole domain when it is small
    if (0..=5000).contains(&size) {
        let mut got = Vec::new();
        let r = e.for_each_in(0..size, |x| got.push(x));
        for (i, &v) in got.iter().enumerate() {
            prop_assert_eq!(Some(v), model(leaves, i as i64), "{} at {}", src, i);
        }
        match (0..size).find(|&i| l.eval(i).is_err()) {
            None => prop_assert!(r.is_ok() && got.len() as i64 == size, "{}: whole domain", src),
            Some(i) => prop_assert!(r.is_err() && got.len() as i64 == i, "{}: whole domain, error at {}", src, i),
        }
    }
    Ok(())
}

/// Small extents, powers of two and not, 1 and (rarely) 0.
fn small_extent() -> impl Strategy<Value = i64> {
    prop_oneof![
        4 => 1i64..10,
        3 => (0u32..9).prop_map(|k| 1i64 << k),
        2 => prop::sample::select(vec![3i64, 5, 6, 7, 12, 15, 17, 31, 33, 63, 65, 100, 127, 129, 255, 256, 257, 1000]),
        1 => Just(1i64),
        1 => 2i64..5000,
        1 => Just(0i64),
    ]
}

/// Small strides: 0, +-1, small, negative.
fn small_stride() -> impl Strategy<Value = i64> {
    prop_oneof![
        2 => Just(0i64),
        2 => Just(1i64),
        1 => Just(-1i64),
        4 => -300i64..300,
        2 => -100_000i64..100_000,
    ]
}

/// Large values: near the overflow of `i64` or of the fast path's bounds.
fn big_extent() -> impl Strategy<Value = i64> {
    prop_oneof![
        2 => small_extent(),
        1 => (20u32..62).prop_map(|k| 1i64 << k),
        1 => (20u32..62).prop_flat_map(|k| ((1i64 << k) - 3)..((1i64 << k) + 3)),
        1 => 1i64..=i64::MAX,
    ]
}

fn big_stride() -> impl Strategy<Value = i64> {
    prop_oneof![
        2 => small_stride(),
        1 => (20u32..63).prop_map(|k| ((1u64 << k) - 1) as i64),
        1 => (20u32..63).prop_map(|k| -(((1u64 << k) - 1) as i64)),
        1 => any::<i64>(),
        1 => Just(i64::MAX),
        1 => Just(i64::MIN),
    ]
}

fn config() -> ProptestConfig {
    ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn small_layouts_agree_with_the_model(
        leaves in prop::collection::vec((small_extent(), small_stride()), 1..8),
        groups in prop::collection::vec(1usize..4, 0..5),
        statics in prop::collection::vec(any::<bool>(), 1..4),
        extra in prop::collection::vec(any::<i64>(), 0..8),
    ) {
        check_layout(&leaves, &groups, &statics, &extra)?;
    }

    #[test]
    fn large_layouts_agree_with_the_model(
        leaves in prop::collection::vec((big_extent(), big_stride()), 1..6),
        groups in prop::collection::vec(1usize..4, 0..4),
        statics in prop::collection::vec(any::<bool>(), 1..3),
        extra in prop::collection::vec(any::<i64>(), 0..8),
    ) {
        check_layout(&leaves, &groups, &statics, &extra)?;
    }

    /// A layout whose size fits in `i64` always gets an evaluator, and in its
    /// domain the evaluator answers exactly when the model's value is an `i64`
    /// and every partial sum of the chain is (what `Layout::eval` needs).
    #[test]
    fn in_domain_answers_are_exact(
        leaves in prop::collection::vec((big_extent(), big_stride()), 1..5),
        at in any::<u64>(),
    ) {
        let src = source(&leaves, &[], &[false]);
        let l: Layout = src.parse().unwrap();
        if let Ok(size) = l.size() {
            let size = size.value();
            let e = l.evaluator().map_err(|err| TestCaseError::fail(format!("{src}: {err}")))?;
            if size > 0 {
                let i = (at % size as u64) as i64;
                check_at(&l, &leaves, &e, i)?;
                check_at(&l, &leaves, &e, size - 1)?;
            }
        }
    }
}

/// Layouts of size close to the fast division's limit `2^62`, with digits that
/// need a real division (they do not coalesce): the largest quotients the fast
/// path can meet, on both sides of the limit.
#[test]
fn fast_division_range_boundary() {
    let lim = FastDivmod::LIMIT as i64; // 2^62
    let third = (lim - 1) / 3; // 3 * third == 2^62 - 1
    let cases: Vec<Vec<(i64, i64)>> = vec![
        vec![(3, third), (third, 1)],               // size 2^62 - 1: fast, divisor 3
        vec![(third, 3), (3, 1)],                   // size 2^62 - 1: fast, divisor near 2^62 / 3
        vec![(3, -third), (third, -1)],             // negative strides
        vec![(4, 1 << 60), (1 << 60, 1)],           // size 2^62: not fast
        vec![(3, 1), (third + 1, 3)],               // size 2^62 + 2: not fast (coalesces)
        vec![(3, 2), (third + 1, 7)],               // size 2^62 + 2, no coalescing
        vec![(5, 1), (7, 5), ((lim - 1) / 35, 35)], // coalesces to one mode of extent < 2^62
        vec![(6, 0), (5, 1), ((lim - 1) / 30, 11)], // stride 0 leaf
        vec![(255, 1), (257, 1000), ((lim - 1) / 65535, -3)],
        vec![(256, 1), (256, 1 << 20), (1 << 46, -1)], // size 2^62: not fast
        vec![(256, 1), (256, 1 << 20), ((1 << 46) - 1, -1)],
        vec![(2, i64::MAX), (2, 1)], // bound overflows: not fast
        vec![(2, i64::MIN + 1), (3, 1)],
        vec![(2, 1), (i64::MAX / 2, 2)],
        vec![(4, 1 << 61), (2, 1)], // coalescing would overflow
    ];
    for leaves in cases {
        let src = source(&leaves, &[], &[false]);
        let l: Layout = src.parse().unwrap();
        let e = l.evaluator().unwrap_or_else(|err| panic!("{src}: {err}"));
        let size = l.size().unwrap().value();
        let mut probes = probes(&leaves, size, &[]);
        for k in 0..200 {
            probes.extend([size - 1 - k * 3, size / 2 + k, k * 7919, size - 1 - k * 1_000_003]);
        }
        for i in probes {
            let got = e.eval(i).ok();
            assert_eq!(got, l.eval(i).ok(), "{src} at {i}: Evaluator vs Layout::eval");
            if let Some(v) = got {
                assert_eq!(Some(v), model(&leaves, i), "{src} at {i}: Evaluator vs model");
            }
            if (0..size).contains(&i) && model(&leaves, i).is_some() {
                assert!(got.is_some(), "{src} at {i}: no answer in the domain");
            }
        }
        let (a, b) = (size.saturating_sub(50), size.saturating_add(2));
        let mut got = Vec::new();
        let r = e.for_each_in(a..b, |x| got.push(x));
        let want: Option<Vec<i64>> = (a..b).map(|i| l.eval(i).ok()).collect();
        match want {
            Some(w) => assert_eq!((r.is_ok(), got), (true, w), "{src}: for_each_in"),
            None => assert!(r.is_err(), "{src}: for_each_in must fail"),
        }
    }
}
