//! The Rust API around the algebra: the method forms of [`HasLayout`] (on a
//! `Layout` and on a borrowed view), the conversions ([`AsIntTuple`],
//! [`AsTiler`]), views and traversal. Each is compared with the path it
//! stands for (the CuTe-named free function, reached through the expression
//! language, which `vectors.rs` checks against CuTe's answers) on every
//! vector row of its operation, or with an independent model.

use kute::expr::{self, ExprKind, Value};
use kute::{HasLayout, IntTuple, Layout, Result, Tiler};

const ALGEBRA: &str = include_str!("data/algebra.tsv");

/// Per row `op(A, B)` of the vectors: the operands as values and the
/// expression language's answer.
fn rows(op: &str) -> Vec<(Vec<Value>, std::result::Result<String, ()>)> {
    let env = expr::Env::new();
    let mut out = Vec::new();
    for line in ALGEBRA.lines() {
        let src = line.split('\t').next().unwrap_or("");
        let Ok(e) = expr::parse(src) else { continue };
        let ExprKind::Call { name, args, .. } = &e.kind else { continue };
        if name != op {
            continue;
        }
        let Ok(vals) = args.iter().map(|a| expr::eval_expr(a, &env)).collect::<Result<Vec<_>>>() else { continue };
        let want = expr::eval(src).map(|v| v.to_string()).map_err(|_| ());
        out.push((vals, want));
    }
    assert!(out.len() >= 50, "{op}: only {} rows", out.len());
    out
}

fn layout(v: &Value) -> Option<&Layout> {
    v.as_layout()
}

/// A tiler argument: a layout, or a by-mode tiler / integer as parsed.
fn tiler(v: &Value) -> Option<Tiler> {
    expr::parse_tiler(&v.to_string()).ok()
}

thread_local! {
    static COMPARED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many comparisons [`same`] made since the last call.
fn compared() -> usize {
    COMPARED.with(|c| c.replace(0))
}

fn same(what: &str, got: Result<Layout>, want: &std::result::Result<String, ()>) {
    COMPARED.with(|c| c.set(c.get() + 1));
    match (got, want) {
        (Ok(g), Ok(w)) => assert_eq!(&g.to_string(), w, "{what}"),
        (Err(_), Err(())) => {}
        (g, w) => panic!("{what}: method form {g:?}, free function {w:?}"),
    }
}

#[test]
fn method_forms_are_the_free_functions() {
    type Method = fn(&Layout, &Layout) -> Result<Layout>;
    let by_layout: [(&str, Method); 3] = [
        ("composition", |a, b| a.compose(b)),
        ("blocked_product", |a, b| a.blocked_product(b)),
        ("raked_product", |a, b| a.raked_product(b)),
    ];
    for (op, f) in by_layout {
        for (args, want) in rows(op) {
            let (Some(a), Some(b)) = (layout(&args[0]), args.get(1).and_then(layout)) else { continue };
            same(&format!("{op}({a}, {b})"), f(a, b), &want);
            // on views: the same answers
            let g = match op {
                "composition" => a.view().compose(&b.view()),
                "blocked_product" => a.view().blocked_product(&b.view()),
                _ => a.view().raked_product(&b.view()),
            };
            same(&format!("{op}({a}, {b}) on views"), g, &want);
        }
        assert!(compared() >= 100, "{op}: too few rows compared");
    }
    type ByTiler = fn(&Layout, &Tiler) -> Result<Layout>;
    let by_tiler: [(&str, ByTiler); 8] = [
        ("logical_divide", |a, t| a.logical_divide(t)),
        ("zipped_divide", |a, t| a.zipped_divide(t)),
        ("tiled_divide", |a, t| a.tiled_divide(t)),
        ("flat_divide", |a, t| a.flat_divide(t)),
        ("logical_product", |a, t| a.logical_product(t)),
        ("zipped_product", |a, t| a.zipped_product(t)),
        ("tiled_product", |a, t| a.tiled_product(t)),
        ("flat_product", |a, t| a.flat_product(t)),
    ];
    for (op, f) in by_tiler {
        for (args, want) in rows(op) {
            let (Some(a), Some(t)) = (layout(&args[0]), args.get(1).and_then(tiler)) else { continue };
            same(&format!("{op}({a}, {t})"), f(a, &t), &want);
            // a layout tiler passed as the layout itself
            if let Some(b) = args.get(1).and_then(layout) {
                let g = match op {
                    "logical_divide" => a.logical_divide(b),
                    "zipped_divide" => a.zipped_divide(b),
                    "tiled_divide" => a.tiled_divide(b),
                    "flat_divide" => a.flat_divide(b),
                    "logical_product" => a.logical_product(b),
                    "zipped_product" => a.zipped_product(b),
                    "tiled_product" => a.tiled_product(b),
                    _ => a.flat_product(b),
                };
                same(&format!("{op}({a}, {b}) with a layout argument"), g, &want);
            }
        }
        assert!(compared() >= 50, "{op}: too few rows compared");
    }
    for (args, want) in rows("complement") {
        let Some(a) = layout(&args[0]) else { continue };
        let got = match args.get(1) {
            Some(Value::IntTuple(c)) => a.complement(c),
            Some(_) => continue,
            None => continue,
        };
        same(&format!("complement({a}, ..)"), got, &want);
    }
    assert!(compared() >= 50, "complement: too few rows compared");
    for (args, want) in rows("coalesce") {
        if args.len() != 1 {
            continue;
        }
        let Some(a) = layout(&args[0]) else { continue };
        same(&format!("coalesce({a})"), a.coalesce(), &want);
        same(&format!("coalesce({a}) on a view"), a.view().coalesce(), &want);
    }
    assert!(compared() >= 100, "coalesce: too few rows compared");
}

#[test]
fn integers_and_rust_tuples_stand_for_integer_tuples() {
    let lit = |s: &str| -> Layout { s.parse().unwrap() };
    assert_eq!(Layout::new((4, 8), (8, 1)).unwrap(), lit("(4,8):(8,1)"));
    assert_eq!(Layout::new(((2, 2), 8), ((1, 16), 2)).unwrap(), lit("((2,2),8):((1,16),2)"));
    let s4 = kute::Int::new_static(4);
    assert_eq!(Layout::new((s4, 8), (kute::Int::ONE, 4)).unwrap(), lit("(_4,8):(_1,4)"));
    assert!(Layout::new((4, 8), (8, (1, 2))).is_err());
    // a plain integer is a dynamic one, as CuTe's `int`
    let b = lit("4:2");
    let m: IntTuple = "24".parse().unwrap();
    assert_eq!(kute::complement(&b, 24).unwrap(), kute::complement(&b, &m).unwrap());
    let ms: IntTuple = "(6,4)".parse().unwrap();
    assert_eq!(kute::complement(&b, (6, 4)).unwrap(), kute::complement(&b, &ms).unwrap());
}

#[test]
fn shapes_layouts_and_integers_stand_for_tilers() {
    let a: Layout = "(12,(4,8)):(59,(13,1))".parse().unwrap();
    let lit = |s: &str| -> Tiler { s.parse().unwrap() };
    // a shape is the by-mode tiler of its extents (the tiler literal reads it the same way)
    let shape: IntTuple = "(3,(2,4))".parse().unwrap();
    for (got, want) in [
        (kute::logical_divide(&a, &shape), kute::logical_divide(&a, &lit("(3,(2,4))"))),
        (kute::zipped_divide(&a, &shape), kute::zipped_divide(&a, &lit("<3,<2,4>>"))),
        (kute::composition_tiler(&a, &shape), kute::composition_tiler(&a, &lit("<3,<2,4>>"))),
        (kute::logical_divide(&a, &3), kute::logical_divide(&a, &lit("3"))),
        (
            kute::logical_product(&a, &lit("2:1")),
            kute::logical_product(&a, &Tiler::from("2:1".parse::<Layout>().unwrap())),
        ),
    ] {
        assert_eq!(got.unwrap(), want.unwrap());
    }
    let b: Layout = "3:4".parse().unwrap();
    assert_eq!(kute::logical_divide(&a, &b).unwrap(), kute::logical_divide(&a, &Tiler::Layout(b.clone())).unwrap());
    assert_eq!(kute::logical_divide(&a, &b.view()).unwrap(), kute::logical_divide(&a, &Tiler::Layout(b)).unwrap());
}

#[test]
fn views_are_the_modes() {
    for line in ALGEBRA.lines().take(600) {
        let Some(want) = line.split('\t').nth(1) else { continue };
        let Ok(l) = want.parse::<Layout>() else { continue };
        let v = l.view();
        assert_eq!(v.to_string(), l.to_string());
        assert_eq!(v.to_layout(), l);
        assert_eq!(v.rank(), l.rank());
        assert_eq!(v.depth(), l.depth());
        assert_eq!(v.shape(), l.shape());
        assert_eq!(v.stride(), l.stride());
        assert_eq!(v.size().ok(), l.size().ok());
        assert_eq!(l.modes().len(), l.rank());
        for (i, m) in l.modes().enumerate() {
            assert_eq!(m.to_layout(), l.mode(i).unwrap(), "{l} mode {i}");
            assert_eq!(Some(m), v.mode(i));
            assert_eq!(l.mode_view(i).unwrap(), m);
            // a view evaluates on its leaves as the copied mode does
            let owned = l.mode(i).unwrap();
            for x in [0, 1, 5, 17] {
                assert_eq!(m.eval(x).ok(), owned.eval(x).ok(), "{l} mode {i} at {x}");
            }
        }
        assert!(v.mode(l.rank().max(1)).is_none() || l.rank() == 0);
    }
}

#[test]
fn a_layout_iterates_over_its_indices() {
    for line in ALGEBRA.lines().take(600) {
        let Some(want) = line.split('\t').nth(1) else { continue };
        let Ok(l) = want.parse::<Layout>() else { continue };
        if !l.has_int_strides() || l.size().map_or(true, |s| s.value() > 1 << 12) {
            continue;
        }
        // the independent model: each L(i) on its own
        let model: Vec<i64> = (0..l.size().unwrap().value()).map(|i| l.eval(i).unwrap()).collect();
        let by_iter: Result<Vec<i64>> = (&l).into_iter().collect();
        assert_eq!(by_iter.unwrap(), model, "{l}");
        assert_eq!(l.indices().unwrap().collect::<Vec<_>>(), model, "{l}");
    }
    // a layout that cannot be traversed gives one error and stops
    assert!(Layout::new((-2, 3), (1, 2)).is_err());
    let bad = Layout::leaf(kute::Int::new_dynamic(-2), kute::Int::ONE);
    let items: Vec<Result<i64>> = (&bad).into_iter().collect();
    assert_eq!(items.len(), 1);
    assert!(items[0].is_err());
}

/// `increment` against an independent model: the next index's natural
/// coordinate (`idx2crd(i + 1, S)`), over whole domains of nested shapes; past
/// the end, the last integer reaches its extent (CuTe's iterator end).
#[test]
fn increment_steps_through_the_domain() {
    use kute::int_tuple::{idx2crd, increment};
    let vals = |t: &IntTuple| t.leaves().iter().map(|x| x.value()).collect::<Vec<_>>();
    for s in ["5", "(2,3)", "(1,2,(2,3),3)", "((2,2),(1,3),2)", "(3,(2,(2,2)))"] {
        let shape: IntTuple = s.parse().unwrap();
        let size = shape.size().unwrap().value();
        for i in 0..size {
            let c = idx2crd(IntTuple::leaf(kute::Int::new_dynamic(i)).as_ref(), shape.as_ref()).unwrap();
            let next = increment(c.as_ref(), shape.as_ref()).unwrap();
            if i + 1 < size {
                let want = idx2crd(IntTuple::leaf(kute::Int::new_dynamic(i + 1)).as_ref(), shape.as_ref()).unwrap();
                assert_eq!(vals(&next), vals(&want), "{s}: after {c}");
            } else {
                let mut end = vec![0; shape.leaves().len()];
                *end.last_mut().unwrap() = shape.leaves().last().unwrap().value();
                assert_eq!(vals(&next), end, "{s}: past the end");
            }
        }
    }
    let bad: IntTuple = "(1,2)".parse().unwrap();
    assert!(increment(bad.as_ref(), "((2,2),3)".parse::<IntTuple>().unwrap().as_ref()).is_err());
}

/// `layout_add` and `greatest_common_domain` against their definitions on
/// random operands: `R(i) == A(i) + B(i)` (evaluated independently), symmetry,
/// and the common domain's size dividing both sizes.
#[test]
fn layout_add_is_the_pointwise_sum() {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut added = 0;
    for _ in 0..3000 {
        // two factorizations of the same size, with random strides
        let size = [6, 8, 12, 16, 24, 36][next(6) as usize];
        let mut factor = |mut n: i64| {
            let mut parts = Vec::new();
            while n > 1 {
                let d = (2..=n).filter(|d| n % d == 0).nth(next(3) as usize).unwrap_or(n);
                parts.push(d);
                n /= d;
            }
            parts
        };
        let (fa, fb) = (factor(size), factor(size));
        let mut lay = |f: &[i64]| -> Layout {
            let s: Vec<String> = f.iter().map(|x| x.to_string()).collect();
            let d: Vec<String> = f.iter().map(|_| next(9).to_string()).collect();
            format!("({}):({})", s.join(","), d.join(",")).parse().unwrap()
        };
        let (a, b) = (lay(&fa), lay(&fb));
        let g = kute::greatest_common_domain(&a.shape(), &b.shape()).unwrap();
        assert_eq!(g, kute::greatest_common_domain(&b.shape(), &a.shape()).unwrap(), "{a} {b}");
        let gs = g.size().unwrap().value();
        assert_eq!(size % gs, 0, "{a} {b}: {g}");
        let Ok(r) = kute::layout_add(&a, &b) else { continue };
        assert_eq!(r, kute::layout_add(&b, &a).unwrap(), "{a} + {b}");
        for i in 0..size {
            assert_eq!(r.eval(i).unwrap(), a.eval(i).unwrap() + b.eval(i).unwrap(), "{a} + {b} = {r} at {i}");
        }
        added += 1;
    }
    assert!(added > 500, "{added} sums");
}

/// A shape as a tree, for the compatibility laws below (an independent model
/// of the reference implementation's `compatible`, `size` and coarsenings).
#[derive(Clone, Debug, PartialEq)]
enum Sh {
    Int(i64),
    Tup(Vec<Sh>),
}

impl Sh {
    fn size(&self) -> i64 {
        match self {
            Sh::Int(n) => *n,
            Sh::Tup(xs) => xs.iter().map(Sh::size).product(),
        }
    }

    fn text(&self) -> String {
        match self {
            Sh::Int(n) => n.to_string(),
            Sh::Tup(xs) => format!("({})", xs.iter().map(Sh::text).collect::<Vec<_>>().join(",")),
        }
    }

    /// `self ≼ other`: `other` refines `self`.
    fn coarsens(&self, other: &Sh) -> bool {
        match (self, other) {
            (Sh::Int(n), o) => *n == o.size(),
            (Sh::Tup(_), Sh::Int(_)) => false,
            (Sh::Tup(a), Sh::Tup(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.coarsens(y)),
        }
    }

    /// Every shape that `self` refines (itself included).
    fn coarsenings(&self) -> Vec<Sh> {
        let mut out = vec![Sh::Int(self.size())];
        if let Sh::Tup(xs) = self {
            let mut tuples: Vec<Vec<Sh>> = vec![vec![]];
            for x in xs {
                let cs = x.coarsenings();
                tuples =
                    tuples.iter().flat_map(|t| cs.iter().map(move |c| [t.clone(), vec![c.clone()]].concat())).collect();
            }
            out.extend(tuples.into_iter().map(Sh::Tup));
        }
        out
    }

    fn parse(t: &IntTuple) -> Sh {
        match t.as_int() {
            Some(n) => Sh::Int(n.value()),
            None => Sh::Tup((0..t.rank()).map(|i| Sh::parse(&t.get(i).unwrap())).collect()),
        }
    }
}

/// PyCuTe's `common_refinement` and `common_coarsening` are the join and the
/// meet of the compatibility order: on random pairs of shapes (often two
/// groupings of one list of extents), each result is compatible with both
/// operands, symmetric, and extremal among the shapes that can be listed
/// (the coarsenings of the operands and of the results).
#[test]
fn common_refinement_and_coarsening_are_join_and_meet() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    // a random grouping of `leaves` into a tree (a few levels deep)
    fn group(leaves: &[i64], depth: u32, next: &mut dyn FnMut(u64) -> u64) -> Sh {
        if leaves.len() == 1 && next(3) > 0 {
            return Sh::Int(leaves[0]);
        }
        if depth == 0 || next(4) == 0 {
            return Sh::Int(leaves.iter().product());
        }
        let mut parts = Vec::new();
        let mut rest = leaves;
        while !rest.is_empty() {
            let k = 1 + next(rest.len() as u64) as usize;
            parts.push(group(&rest[..k], depth - 1, next));
            rest = &rest[k..];
        }
        Sh::Tup(parts)
    }
    let (mut joins, mut meets) = (0, 0);
    for _ in 0..3000 {
        let n = 1 + next(4) as usize;
        let leaves: Vec<i64> = (0..n).map(|_| [1, 2, 3, 4, 5, 6][next(6) as usize]).collect();
        let a = group(&leaves, 3, &mut next);
        let b = if next(4) == 0 {
            let other: Vec<i64> = (0..n).map(|_| [1, 2, 3, 4][next(4) as usize]).collect();
            group(&other, 3, &mut next)
        } else {
            group(&leaves, 3, &mut next)
        };
        let (ta, tb): (IntTuple, IntTuple) = (a.text().parse().unwrap(), b.text().parse().unwrap());
        let ctx = format!("{} and {}", a.text(), b.text());

        let join = kute::common_refinement(&ta, &tb);
        assert_eq!(join.as_ref().ok(), kute::common_refinement(&tb, &ta).as_ref().ok(), "join of {ctx}");
        if let Ok(j) = &join {
            let r = Sh::parse(j);
            assert!(a.coarsens(&r) && b.coarsens(&r), "{ctx}: join {}", r.text());
            // no strictly coarser shape refines both
            for c in r.coarsenings() {
                assert!(
                    !(a.coarsens(&c) && b.coarsens(&c)) || c == r,
                    "{ctx}: {} is a smaller join than {}",
                    c.text(),
                    r.text()
                );
            }
            joins += 1;
        } else {
            // no shape that refines one operand and coarsens the other is a common refinement
            assert!(!a.coarsens(&b) && !b.coarsens(&a), "{ctx}: one refines the other, yet no join");
        }

        let meet = kute::common_coarsening(&ta, &tb);
        assert_eq!(meet.as_ref().ok(), kute::common_coarsening(&tb, &ta).as_ref().ok(), "meet of {ctx}");
        assert_eq!(meet.is_ok(), a.size() == b.size(), "{ctx}: a meet exists iff the sizes agree");
        if let Ok(m) = &meet {
            let c = Sh::parse(m);
            assert!(c.coarsens(&a) && c.coarsens(&b), "{ctx}: meet {}", c.text());
            // every common coarsening is a coarsening of the meet
            for x in a.coarsenings().into_iter().filter(|x| x.coarsens(&b)) {
                assert!(x.coarsens(&c), "{ctx}: {} coarsens both but not the meet {}", x.text(), c.text());
            }
            if let Ok(j) = &join {
                assert!(c.coarsens(&Sh::parse(j)), "{ctx}: the meet {} is not below the join", c.text());
            }
            meets += 1;
        }
        if a.coarsens(&b) {
            assert_eq!(join.as_ref().map(Sh::parse).ok(), Some(b.clone()), "{ctx}");
            assert_eq!(meet.as_ref().map(Sh::parse).ok(), Some(a.clone()), "{ctx}");
        }
    }
    assert!(joins > 1000 && meets > 2000, "{joins} joins, {meets} meets");
}

/// PyCuTe's `coalesce_z` keeps the function everywhere, not only on the
/// domain: on random layouts (with size-1 and stride-0 modes), `R(i) == L(i)`
/// for every `i` up to well past the size, `R` is flat and fully merged (no
/// size-1 mode but a last one, no two neighbours that `coalesce` would merge),
/// it is its own `coalesce_z`, and `coalesce` of it is `coalesce` of `L`.
#[test]
fn coalesce_z_keeps_the_function_past_the_size() {
    let mut seed: u64 = 0x1234_5678_9abc_def1;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut kept_last_one = 0;
    for _ in 0..3000 {
        // a random nesting of random (extent, stride) leaves
        let n = 1 + next(6) as usize;
        let modes: Vec<(i64, i64)> = (0..n)
            .map(|_| ([1, 1, 2, 3, 4][next(5) as usize], [0, 1, 2, 3, 4, 6, 8, 12, 24][next(9) as usize]))
            .collect();
        // chains that merge: make some strides continue the previous mode
        let mut modes = modes;
        for k in 1..n {
            if next(2) == 0 {
                modes[k].1 = modes[k - 1].0 * modes[k - 1].1;
            }
        }
        let cut = next(n as u64 + 1) as usize;
        let text = |ms: &[(i64, i64)], f: &dyn Fn(&(i64, i64)) -> i64| {
            ms.iter().map(|m| f(m).to_string()).collect::<Vec<_>>().join(",")
        };
        let (s, d) = if cut > 0 && cut < n {
            let (x, y) = modes.split_at(cut);
            (
                format!("(({}),({}))", text(x, &|m| m.0), text(y, &|m| m.0)),
                format!("(({}),({}))", text(x, &|m| m.1), text(y, &|m| m.1)),
            )
        } else {
            (format!("({})", text(&modes, &|m| m.0)), format!("({})", text(&modes, &|m| m.1)))
        };
        let l: Layout = format!("{s}:{d}").parse().unwrap();
        let r = kute::coalesce_z(&l).unwrap();
        let size: i64 = modes.iter().map(|m| m.0).product();
        assert_eq!(r.size().unwrap().value(), size, "{l} -> {r}");
        assert!(r.depth() <= 1, "{l} -> {r}");
        for i in 0..size + 24 {
            assert_eq!(r.eval(i).unwrap(), l.eval(i).unwrap(), "{l} -> {r} at {i}");
        }
        let leaves = r.leaves();
        for (k, m) in leaves.iter().enumerate() {
            if k + 1 < leaves.len() {
                assert_ne!(m.shape.value(), 1, "{l} -> {r}: a size-1 mode before the last");
                let next = leaves[k + 1];
                assert_ne!(m.shape.value() * m.stride.value(), next.stride.value(), "{l} -> {r}: unmerged modes");
            }
        }
        if leaves.len() > 1 && leaves[leaves.len() - 1].shape.value() == 1 {
            kept_last_one += 1;
        }
        assert_eq!(kute::coalesce_z(&r).unwrap(), r, "{l} -> {r}: not idempotent");
        assert_eq!(kute::coalesce(&r).unwrap(), kute::coalesce(&l).unwrap(), "{l} -> {r}");
    }
    assert!(kept_last_one > 200, "{kept_last_one} layouts kept a last size-1 mode");
}

/// An extent is a size: a negative one is an error where a layout is made
/// (a literal, `make_layout`, `Layout::new`), never a layout of negative size.
#[test]
fn negative_extents_are_refused() {
    for src in ["(3,-3):(1,1)", "make_layout((3,-3))", "make_layout((2,(-1,4)),(1,(2,2)))", "-4:1"] {
        let e = kute::expr::eval(src).unwrap_err();
        assert_eq!(e.kind(), kute::ErrorKind::Inadmissible, "{src}: {e}");
        assert!(e.to_string().contains("negative"), "{src}: {e}");
    }
    assert!(kute::Layout::new(kute::IntTuple::int_dynamic(-2), kute::IntTuple::int_dynamic(1)).is_err());
    // zero extents and negative strides are layouts
    assert_eq!(kute::expr::eval("size((3,0):(1,1))").unwrap().to_string(), "0");
    assert_eq!(kute::expr::eval("(3,2):(-1,3)(1)").unwrap().to_string(), "-1");
}
