//! The algebra allocates nothing on the heap for layouts of up to 16 leaves
//! (one of the performance targets): every W1 operation (docs/benchmarks/algebra.md, all integers
//! dynamic), and larger operations up to 16 leaves, run with a counting global
//! allocator after their operands are built.

use kute::{IntTuple, Layout, Tiler};
use std::alloc::{GlobalAlloc, Layout as AllocLayout, System};
use std::cell::Cell;
use std::hint::black_box;

/// Counts the allocations of the current thread (tests run on several threads).
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count_one() {
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: AllocLayout) -> *mut u8 {
        count_one();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: AllocLayout) -> *mut u8 {
        count_one();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: AllocLayout, new_size: usize) -> *mut u8 {
        count_one();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: AllocLayout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(|c| c.get())
}

/// Heap allocations made by `f` on this thread.
fn allocations_in<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let before = allocations();
    let r = f();
    (allocations() - before, r)
}

fn layout(s: &str) -> Layout {
    s.parse::<Layout>().unwrap_or_else(|e| panic!("{s}: {e}")).to_dynamic()
}

fn tiler(s: &str) -> Tiler {
    kute::expr::parse_tiler(s).unwrap_or_else(|e| panic!("{s}: {e}")).to_dynamic()
}

fn int_tuple(s: &str) -> IntTuple {
    s.parse::<IntTuple>().unwrap_or_else(|e| panic!("{s}: {e}")).to_dynamic()
}

/// An operation on operands built beforehand.
enum Op {
    Composition(Layout, Layout),
    CompositionTiler(Layout, Tiler),
    LogicalDivide(Layout, Tiler),
    ZippedDivide(Layout, Tiler),
    TiledDivide(Layout, Tiler),
    FlatDivide(Layout, Tiler),
    Complement(Layout, IntTuple),
    ComplementInt(Layout, kute::Int),
    LogicalProduct(Layout, Tiler),
    ZippedProduct(Layout, Tiler),
    BlockedProduct(Layout, Layout),
    RakedProduct(Layout, Layout),
    Coalesce(Layout),
}

impl Op {
    fn run(&self) -> kute::Result<Layout> {
        match self {
            Op::Composition(a, b) => kute::composition(a, b),
            Op::CompositionTiler(a, t) => kute::composition_tiler(a, t),
            Op::LogicalDivide(a, t) => kute::logical_divide(a, t),
            Op::ZippedDivide(a, t) => kute::zipped_divide(a, t),
            Op::TiledDivide(a, t) => kute::tiled_divide(a, t),
            Op::FlatDivide(a, t) => kute::flat_divide(a, t),
            Op::Complement(a, c) => kute::complement(a, c),
            Op::ComplementInt(a, n) => kute::complement(a, *n),
            Op::LogicalProduct(a, t) => kute::logical_product(a, t),
            Op::ZippedProduct(a, t) => kute::zipped_product(a, t),
            Op::BlockedProduct(a, b) => kute::blocked_product(a, b),
            Op::RakedProduct(a, b) => kute::raked_product(a, b),
            Op::Coalesce(a) => kute::coalesce(a),
        }
    }

    /// The `*_into` form, into `out`.
    fn run_into(&self, out: &mut Layout) -> kute::Result<()> {
        match self {
            Op::Composition(a, b) => kute::composition_into(out, a, b),
            Op::CompositionTiler(a, t) => kute::composition_tiler_into(out, a, t),
            Op::LogicalDivide(a, t) => kute::logical_divide_into(out, a, t),
            Op::ZippedDivide(a, t) => kute::zipped_divide_into(out, a, t),
            Op::TiledDivide(a, t) => kute::tiled_divide_into(out, a, t),
            Op::FlatDivide(a, t) => kute::flat_divide_into(out, a, t),
            Op::Complement(a, c) => kute::complement_into(out, a, c),
            Op::ComplementInt(a, n) => kute::complement_into(out, a, *n),
            Op::LogicalProduct(a, t) => kute::logical_product_into(out, a, t),
            Op::ZippedProduct(a, t) => kute::zipped_product_into(out, a, t),
            Op::BlockedProduct(a, b) => kute::blocked_product_into(out, a, b),
            Op::RakedProduct(a, b) => kute::raked_product_into(out, a, b),
            Op::Coalesce(a) => kute::coalesce_into(out, a),
        }
    }
}

/// Run every operation (its operands already built) and report those that allocate.
fn check(cases: Vec<(&str, Op)>) {
    let mut bad = Vec::new();
    for (name, op) in &cases {
        let (n, r) = allocations_in(|| {
            let r = black_box(op).run();
            black_box(&r);
            r
        });
        let r = r.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(r.leaves().len() <= 16, "{name}: the result {r} has more than 16 leaves");
        if n != 0 {
            bad.push(format!("{name} -> {r}: {n} allocation(s)"));
        }
        // the *_into form, into an output that already holds a layout
        let mut out = Layout::default();
        let (n, r) = allocations_in(|| {
            let r = black_box(op).run_into(&mut out);
            black_box(&out);
            r
        });
        r.unwrap_or_else(|e| panic!("{name} (into): {e}"));
        if n != 0 {
            bad.push(format!("{name} (into) -> {out}: {n} allocation(s)"));
        }
    }
    assert!(bad.is_empty(), "heap allocations on the success path:\n{}", bad.join("\n"));
}

#[test]
fn w1_allocates_nothing() {
    check(vec![
        ("composition((20,2):(16,4),(4,5):(1,4))", Op::Composition(layout("(20,2):(16,4)"), layout("(4,5):(1,4)"))),
        ("logical_divide(24:2,4:2)", Op::LogicalDivide(layout("24:2"), tiler("4:2"))),
        ("complement((2,2):(4,1),24)", Op::Complement(layout("(2,2):(4,1)"), int_tuple("24"))),
        ("complement((2,2):(4,1),Int 24)", Op::ComplementInt(layout("(2,2):(4,1)"), kute::Int::new_dynamic(24))),
        ("logical_product((2,2):(1,2),(3,4):(4,1))", Op::LogicalProduct(layout("(2,2):(1,2)"), tiler("(3,4):(4,1)"))),
        (
            "zipped_divide((12,32,6):(1,128,0),<4:1,8:1>)",
            Op::ZippedDivide(layout("(12,32,6):(1,128,0)"), tiler("<4:1,8:1>")),
        ),
        ("coalesce((2,(1,6)):(1,(6,2)))", Op::Coalesce(layout("(2,(1,6)):(1,(6,2))"))),
        (
            "tiled_divide((12,(4,8),6):(1,(32,512),0),<4:1,8:1>)",
            Op::TiledDivide(layout("(12,(4,8),6):(1,(32,512),0)"), tiler("<4:1,8:1>")),
        ),
        ("blocked_product((2,5):(5,1),(3,4):(1,3))", Op::BlockedProduct(layout("(2,5):(5,1)"), layout("(3,4):(1,3)"))),
        ("raked_product((2,2):(1,2),(3,4):(4,1))", Op::RakedProduct(layout("(2,2):(1,2)"), layout("(3,4):(4,1)"))),
        (
            "composition((12,(4,8)):(59,(13,1)),<3:4,8:2>)",
            Op::CompositionTiler(layout("(12,(4,8)):(59,(13,1))"), tiler("<3:4,8:2>")),
        ),
        ("logical_divide((8,8):(8,1),<4:1,2:1>)", Op::LogicalDivide(layout("(8,8):(8,1)"), tiler("<4:1,2:1>"))),
    ]);
}

/// Sixteen modes of extent 2 whose strides never coalesce: a permutation of [0, 2^16).
const A16: &str = "(2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2):(1,4,2,8,32,16,64,256,128,512,2048,1024,4096,16384,8192,32768)";

/// Sixteen compact modes of extent 2.
const C16: &str = "(2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2):(1,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768)";

#[test]
fn up_to_16_leaves_allocates_nothing() {
    check(vec![
        // one B-leaf spread over all 16 modes of A
        ("composition(A16, 65536:1)", Op::Composition(layout(A16), layout("65536:1"))),
        // 16 B-leaves, one per mode of A
        ("composition(A16, compact 16 modes)", Op::Composition(layout(A16), layout(C16))),
        // nested B over a deep A
        (
            "composition(((2,3),(4,5),(6,7)):((1,2),(6,24),(120,720)), ((2,2),(3,5)):((1,6),(2,120)))",
            Op::Composition(
                layout("((2,3),(4,5),(6,7)):((1,2),(6,24),(120,720))"),
                layout("((2,2),(3,5)):((1,6),(2,120))"),
            ),
        ),
        // nested 11 deep
        (
            "composition(A16, (2,(2,(2,(2,(2,(2,(2,(2,(2,(2,2))))))))))",
            Op::Composition(
                layout(A16),
                layout("(2,(2,(2,(2,(2,(2,(2,(2,(2,(2,2)))))))))):(1,(2,(4,(8,(16,(32,(64,(128,(256,(512,1024))))))))))"),
            ),
        ),
        ("coalesce(A16)", Op::Coalesce(layout(A16))),
        ("complement(8 modes, big cotarget)", Op::Complement(
            layout("(2,2,2,2,2,2,2,2):(1,4,16,64,256,1024,4096,16384)"),
            int_tuple("(65536,4,(2,3))"),
        )),
        ("complement(8 modes, Int cotarget)", Op::ComplementInt(
            layout("(2,2,2,2,2,2,2,2):(1,4,16,64,256,1024,4096,16384)"),
            kute::Int::new_dynamic(1 << 20),
        )),
        ("logical_divide(A16, 8:2)", Op::LogicalDivide(layout(A16), tiler("8:2"))),
        (
            "logical_divide(8 modes, <_, 2:2, (2,2):(1,4)>)",
            Op::LogicalDivide(
                layout("((2,3),(4,5),(2,2,2),7):((1,2),(6,24),(120,240,480),960)"),
                tiler("<_,2:2,(2,2):(1,4)>"),
            ),
        ),
        (
            "zipped_divide(12 leaves, <4:1,8:1,2:1>)",
            Op::ZippedDivide(
                layout("((4,3),(8,4),(2,3),(5,7,2,3,2,2)):((1,4),(12,96),(384,768),(2304,11520,80640,161280,483840,967680))"),
                tiler("<4:1,8:1,2:1>"),
            ),
        ),
        (
            "flat_divide((12,(4,8),6):(1,(32,512),0),<4:1,(2,2):(1,8)>)",
            Op::FlatDivide(layout("(12,(4,8),6):(1,(32,512),0)"), tiler("<4:1,(2,2):(1,8)>")),
        ),
        (
            "logical_product((2,2,2,2):(1,2,4,8), (3,4,5):(1,3,12))",
            Op::LogicalProduct(layout("(2,2,2,2):(1,2,4,8)"), tiler("(3,4,5):(1,3,12)")),
        ),
        (
            "zipped_product(((2,2),(2,2)):((1,2),(4,8)), <(3,2):(1,3),2:1>)",
            Op::ZippedProduct(layout("((2,2),(2,2)):((1,2),(4,8))"), tiler("<(3,2):(1,3),2:1>")),
        ),
        (
            "blocked_product((2,3,(2,2)):(1,2,(6,12)), (3,4,2):(1,3,12))",
            Op::BlockedProduct(layout("(2,3,(2,2)):(1,2,(6,12))"), layout("(3,4,2):(1,3,12)")),
        ),
        (
            "raked_product((4,(2,2)):(4,(1,2)), (3,(2,5)):(10,(1,2)))",
            Op::RakedProduct(layout("(4,(2,2)):(4,(1,2))"), layout("(3,(2,5)):(10,(1,2))")),
        ),
    ]);
}

#[test]
fn traversal_and_evaluation_allocate_nothing() {
    // the iterator borrows the layout's leaves, and a view evaluates in
    // place: no allocation for any number of leaves (the layouts themselves
    // are built first)
    let layouts: Vec<Layout> = [
        "(4,8,4):(32,1,8)",
        A16,
        C16,
        "((3,4),5,(6,2),7):((1,180),3,(30,15),720)",
        "(2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2):(1,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288)",
    ]
    .iter()
    .map(|s| layout(s))
    .collect();
    for l in &layouts {
        let (n, sum) = allocations_in(|| {
            let mut sum = 0i64;
            l.indices().unwrap().for_each(|i| sum = sum.wrapping_add(i));
            let mut it = l.indices().unwrap();
            sum = sum.wrapping_add(it.nth(5).unwrap_or(0));
            for i in it {
                sum = sum.wrapping_add(i);
            }
            black_box(sum)
        });
        assert_eq!(n, 0, "traversing {l}: {n} allocation(s)");
        // evaluating the layout or a view of one of its modes copies nothing
        let (n, total) = allocations_in(|| {
            let mut total = l.eval(black_box(5)).unwrap() + l.view().eval(black_box(3)).unwrap();
            for m in l.modes() {
                total += m.eval(black_box(1)).unwrap();
            }
            black_box(total)
        });
        assert_eq!(n, 0, "evaluating {l} and its modes: {n} allocation(s)");
        let want = l.eval(5).unwrap()
            + l.eval(3).unwrap()
            + (0..l.rank()).map(|k| l.mode(k).unwrap().eval(1).unwrap()).sum::<i64>();
        assert_eq!(total, want, "{l}");
        // the sums of the traversals, from L(i) one by one
        let all: i64 = (0..l.size().unwrap().value()).map(|i| l.eval(i).unwrap()).sum();
        let sixth_on: i64 = (6..l.size().unwrap().value()).map(|i| l.eval(i).unwrap()).sum();
        assert_eq!(sum, all + l.eval(5).unwrap() + sixth_on, "{l}");
    }
}
