//! Workload W1 (docs/benchmarks/algebra.md): 11 algebra operations, every integer
//! dynamic, operands built before the timed region.

use crate::timing::{calibrate, one_batch, BATCHES};
use kute::{Layout, Tiler};
use std::hint::black_box;
use std::time::Duration;

/// One W1 row: the kute expression and the names the C++ and pycute programs use.
pub struct Row {
    /// The operation in kute's expression language (all integers dynamic).
    pub expr: &'static str,
    /// The op name printed by `cute_runtime_bench.cpp`.
    pub cpp: &'static str,
    /// The op name printed by `pycute_bench.py` (`None`: pycute lacks it).
    pub py: Option<&'static str>,
}

/// The 11 rows of W1, in the order of docs/benchmarks/algebra.md (and of the C++ program).
pub const ROWS: [Row; 11] = [
    Row { expr: "composition((20,2):(16,4),(4,5):(1,4))", cpp: "composition", py: Some("composition") },
    Row { expr: "logical_divide(24:2,4:2)", cpp: "logical_divide", py: Some("logical_divide") },
    Row { expr: "complement((2,2):(4,1),24)", cpp: "complement", py: Some("complement") },
    Row { expr: "logical_product((2,2):(1,2),(3,4):(4,1))", cpp: "logical_product", py: Some("logical_product") },
    Row { expr: "zipped_divide((12,32,6):(1,128,0),<4:1,8:1>)", cpp: "zipped_divide", py: Some("zipped_divide") },
    Row { expr: "coalesce((2,(1,6)):(1,(6,2)))", cpp: "coalesce", py: Some("coalesce") },
    Row { expr: "tiled_divide((12,(4,8),6):(1,(32,512),0),<4:1,8:1>)", cpp: "tiled_divide", py: Some("tiled_divide") },
    Row { expr: "blocked_product((2,5):(5,1),(3,4):(1,3))", cpp: "blocked_product", py: None },
    Row { expr: "raked_product((2,2):(1,2),(3,4):(4,1))", cpp: "raked_product", py: None },
    Row {
        expr: "composition((12,(4,8)):(59,(13,1)),<3:4,8:2>)",
        cpp: "composition_bymode",
        py: Some("composition_bymode"),
    },
    Row {
        expr: "logical_divide((8,8):(8,1),<4:1,2:1>)",
        cpp: "logical_divide_bymode",
        py: Some("logical_divide_bymode"),
    },
];

fn layout(s: &str) -> Layout {
    s.parse::<Layout>().unwrap_or_else(|e| panic!("{s}: {e}")).to_dynamic()
}

fn tiler(s: &str) -> Tiler {
    kute::expr::parse_tiler(s).unwrap_or_else(|e| panic!("{s}: {e}")).to_dynamic()
}

/// An integer operand (CuTe C++ and pycute pass these as plain integers).
fn int(s: &str) -> kute::Int {
    let t = s.parse::<kute::IntTuple>().unwrap_or_else(|e| panic!("{s}: {e}"));
    t.as_int().unwrap_or_else(|| panic!("{s}: not an integer")).to_dynamic()
}

/// The operands of W1, built (parsed, made dynamic) once.
pub struct Operands {
    comp: (Layout, Layout),
    ldiv: (Layout, Tiler),
    compl: (Layout, kute::Int),
    lprod: (Layout, Tiler),
    zdiv: (Layout, Tiler),
    coal: Layout,
    tdiv: (Layout, Tiler),
    bprod: (Layout, Layout),
    rprod: (Layout, Layout),
    comp_bymode: (Layout, Tiler),
    ldiv_bymode: (Layout, Tiler),
}

/// `$m!(by-value fn, *_into fn, operands...)` for W1 row `$i` of the operands
/// `$o`: one monomorphic arm per row, so timed loops have no dynamic dispatch.
macro_rules! for_row {
    ($o:expr, $i:expr, $m:ident) => {
        match $i {
            0 => $m!(kute::composition, kute::composition_into, $o.comp.0, $o.comp.1),
            1 => $m!(kute::logical_divide, kute::logical_divide_into, $o.ldiv.0, $o.ldiv.1),
            2 => $m!(kute::complement, kute::complement_into, $o.compl.0, $o.compl.1),
            3 => $m!(kute::logical_product, kute::logical_product_into, $o.lprod.0, $o.lprod.1),
            4 => $m!(kute::zipped_divide, kute::zipped_divide_into, $o.zdiv.0, $o.zdiv.1),
            5 => $m!(kute::coalesce, kute::coalesce_into, $o.coal),
            6 => $m!(kute::tiled_divide, kute::tiled_divide_into, $o.tdiv.0, $o.tdiv.1),
            7 => $m!(kute::blocked_product, kute::blocked_product_into, $o.bprod.0, $o.bprod.1),
            8 => $m!(kute::raked_product, kute::raked_product_into, $o.rprod.0, $o.rprod.1),
            9 => $m!(kute::composition_tiler, kute::composition_tiler_into, $o.comp_bymode.0, $o.comp_bymode.1),
            10 => $m!(kute::logical_divide, kute::logical_divide_into, $o.ldiv_bymode.0, $o.ldiv_bymode.1),
            _ => panic!("W1 has 11 rows"),
        }
    };
}

impl Operands {
    /// Build every operand (this is the part the timing excludes).
    pub fn new() -> Operands {
        Operands {
            comp: (layout("(20,2):(16,4)"), layout("(4,5):(1,4)")),
            ldiv: (layout("24:2"), tiler("4:2")),
            compl: (layout("(2,2):(4,1)"), int("24")),
            lprod: (layout("(2,2):(1,2)"), tiler("(3,4):(4,1)")),
            zdiv: (layout("(12,32,6):(1,128,0)"), tiler("<4:1,8:1>")),
            coal: layout("(2,(1,6)):(1,(6,2))"),
            tdiv: (layout("(12,(4,8),6):(1,(32,512),0)"), tiler("<4:1,8:1>")),
            bprod: (layout("(2,5):(5,1)"), layout("(3,4):(1,3)")),
            rprod: (layout("(2,2):(1,2)"), layout("(3,4):(4,1)")),
            comp_bymode: (layout("(12,(4,8)):(59,(13,1))"), tiler("<3:4,8:2>")),
            ldiv_bymode: (layout("(8,8):(8,1)"), tiler("<4:1,2:1>")),
        }
    }

    /// Row `i` of W1 evaluated once with the library API.
    pub fn run(&self, i: usize) -> kute::Result<Layout> {
        macro_rules! call {
            ($f:path, $fi:path, $($a:expr),+) => {
                $f($(&$a),+)
            };
        }
        for_row!(self, i, call)
    }

    /// Row `i` with the `*_into` form, once.
    pub fn run_into(&self, i: usize) -> kute::Result<Layout> {
        let mut out = Layout::default();
        macro_rules! call {
            ($f:path, $fi:path, $($a:expr),+) => {
                $fi(&mut out, $(&$a),+)
            };
        }
        for_row!(self, i, call).map(|()| out)
    }

    /// One timing step of row `i` in `form`: [`Step::Calibrate`] gives the
    /// number of calls in a batch, [`Step::Batch`] the ns/op of one batch. Each
    /// row has its own monomorphic loop (no dynamic dispatch inside the timed
    /// loop); operands, output and status go through `black_box`.
    ///
    /// - [`Form::Into`]: the `*_into` form, the result written into an output
    ///   layout reused across the calls of a batch (kute's fastest API);
    /// - [`Form::ByValue`]: `-> Result<Layout>`, the result through
    ///   `black_box(&result)` (as CuTe C++'s `keep`).
    pub fn step(&self, i: usize, form: Form, step: Step) -> f64 {
        match form {
            Form::Into => {
                let mut out = Layout::default();
                macro_rules! t {
                    ($f:path, $fi:path, $($a:expr),+) => {
                        step.run(|| {
                            let r = $fi(&mut out, $(black_box(&$a)),+);
                            black_box(&out);
                            r
                        })
                    };
                }
                for_row!(self, i, t)
            }
            Form::ByValue => {
                macro_rules! t {
                    ($f:path, $fi:path, $($a:expr),+) => {
                        step.run(|| $f($(black_box(&$a)),+))
                    };
                }
                for_row!(self, i, t)
            }
        }
    }

    /// ns/op of row `i` in `form` on its own: best of [`BATCHES`] batches of
    /// about `batch` each.
    pub fn time(&self, i: usize, form: Form, batch: Duration) -> f64 {
        let n = self.step(i, form, Step::Calibrate(batch)) as u64;
        (0..BATCHES).map(|_| self.step(i, form, Step::Batch(n))).fold(f64::INFINITY, f64::min)
    }
}

/// Which API a W1 timing calls.
#[derive(Clone, Copy, Debug)]
pub enum Form {
    /// The `*_into` form.
    Into,
    /// The by-value form.
    ByValue,
}

/// One step of a timing (see [`Operands::step`]).
#[derive(Clone, Copy, Debug)]
pub enum Step {
    /// Count the calls that take about this long (returned as `f64`).
    Calibrate(Duration),
    /// Time one batch of this many calls: ns per call.
    Batch(u64),
}

impl Step {
    fn run<R>(self, mut f: impl FnMut() -> R) -> f64 {
        match self {
            Step::Calibrate(batch) => calibrate(batch, &mut f) as f64,
            Step::Batch(n) => one_batch(n, &mut f),
        }
    }
}

impl Operands {
    /// Run row `i` `n` times (for counting instructions with `perf stat`).
    pub fn repeat(&self, i: usize, n: u64) {
        for _ in 0..n {
            let r = self.run(black_box(i));
            black_box(&r);
        }
    }

    /// Row `i` with the `*_into` form, `n` times into one output (for valgrind).
    pub fn repeat_into(&self, i: usize, n: u64) {
        let mut out = Layout::default();
        for _ in 0..n {
            macro_rules! call {
                ($f:path, $fi:path, $($a:expr),+) => {
                    $fi(black_box(&mut out), $(black_box(&$a)),+)
                };
            }
            let r = for_row!(self, black_box(i), call);
            black_box(&r);
        }
    }
}

impl Default for Operands {
    fn default() -> Self {
        Self::new()
    }
}

/// One row of kute's W1 timings.
pub struct KuteRow {
    /// ns/op of the `*_into` form (kute's fastest API).
    pub into_ns: f64,
    /// ns/op of the by-value form.
    pub by_value_ns: f64,
    /// The result.
    pub result: String,
}

/// kute's results and ns/op for every row; also checks that the `*_into` form,
/// the by-value form and the expression language agree on the same text.
pub fn run_kute(batch: Duration) -> Vec<KuteRow> {
    let ops = Operands::new();
    let forms = [Form::Into, Form::ByValue];
    let mut rows = Vec::new();
    for (i, row) in ROWS.iter().enumerate() {
        let r = ops.run(i).unwrap_or_else(|e| panic!("{}: {e}", row.expr)).to_string();
        let via_expr = kute::expr::eval(row.expr).map(|v| v.to_string()).unwrap_or_else(|e| e.to_string());
        assert_eq!(r, via_expr, "library call and expression disagree on {}", row.expr);
        let via_into = ops.run_into(i).map(|l| l.to_string()).unwrap_or_else(|e| e.to_string());
        assert_eq!(r, via_into, "by-value and *_into forms disagree on {}", row.expr);
        let n = forms.map(|f| ops.step(i, f, Step::Calibrate(batch)) as u64);
        rows.push((n, [f64::INFINITY; 2], r));
    }
    // the batches are interleaved: round after round, one batch of every row
    // and form, each keeping its best; a busy spell of the machine then costs
    // one batch of several rows, not every batch of one row
    for _ in 0..BATCHES {
        for (i, (n, best, _)) in rows.iter_mut().enumerate() {
            for (k, form) in forms.into_iter().enumerate() {
                best[k] = best[k].min(ops.step(i, form, Step::Batch(n[k])));
            }
        }
    }
    rows.into_iter().map(|(_, [into_ns, by_value_ns], result)| KuteRow { into_ns, by_value_ns, result }).collect()
}
