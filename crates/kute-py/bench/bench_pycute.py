"""Time pycute against kute's Python package on the same inputs, in one run.

    python crates/kute-py/bench/bench_pycute.py [--repeat N]

pycute is NVIDIA's pure-Python CuTe (the `pycute` package of the `nvidia-cutlass` wheel, or
the CUTLASS repository's python/ directory). It is imported from PYCUTE_PATH when that is
set, else from the installed packages (scripts/test-python.sh installs it into its virtual
environment), else from ~/.cache/kute-oracle/cutlass.

Four tables, each time the best of 15 runs of N calls, per call, in µs (the best of many
short runs: a shared machine slows some of them):

1. building a layout from Python tuples (rank 1 to 4, flat and nested): `pycute.Layout`,
   `kute.Layout` and `kute.pycute.Layout`;
2. pycute's five operations (the 15 cases of docs/benchmarks/python.md) on layouts built
   once (`kute`: the module functions, `kute.pycute`: pycute's API answered by kute);
3. the same with fresh operands: each call builds its layouts from the tuples first, as
   `f(Layout(s, d), Layout(s2, d2))` (the same statement for the three libraries);
4. the pycute suite: each of pycute's public layout and integer-tuple functions, fresh
   operands, pycute against `kute.pycute`, and against `kute` where kute has a function of
   the name that answers the same (by value; else `-`).

The ratio is pycute's time over kute's; the answers are compared by value (kute prints `_`
for static integers and no spaces, pycute prints Python tuples), and a disagreement is shown.

    python crates/kute-py/bench/bench_pycute.py --count

counts instructions instead (callgrind; needs valgrind): for tables 3 and 4, each call's
instructions in pycute, `kute.pycute` and `kute`, counted in a process that makes 2001 calls
less one that makes 1 (the imports cancel), over 2000. A count does not move with the
machine's load, as a time does; the floor of the loop and the call itself is counted too
(`lambda: None`, the first row). A last table, the floor (`--count-floor` alone), counts
CPython's own objects standing in for the layouts of the suite's smallest calls, doing no
more than those calls must, beside a tenth of pycute's count: what 10x would leave.
"""

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import timeit

_path = os.environ.get("PYCUTE_PATH")
if _path and os.path.isdir(os.path.join(_path, "pycute")):
    sys.path.insert(0, _path)
else:
    try:
        import pycute  # noqa: F401
    except ImportError:
        sys.path.insert(0, os.path.expanduser("~/.cache/kute-oracle/cutlass"))

import pycute  # noqa: E402

import kute  # noqa: E402
from kute import pycute as kp  # noqa: E402

# (shape, stride) pairs: rank 1 to 4, flat and nested
BUILD = [
    ((8,), (1,)),
    ((4, 8), (8, 1)),
    ((2, 4, 8), (1, 2, 8)),
    ((2, 4, 8, 16), (1, 2, 8, 64)),
    ((2, (2, 2)), (4, (2, 1))),
    (((2, 4), (8, 16)), ((1, 2), (8, 64))),
]

# (shape, stride) pairs; the divides and products take a tiler layout, complement a cosize bound
CASES = {
    "coalesce": [
        (((2, (1, 6)), (1, (6, 2))),),
        (((4, (2, 3)), (2, (1, 8))),),
        ((((2, 2), (2, 2), 4), ((1, 2), (4, 8), 32)),),
    ],
    "composition": [
        (((6, 2), (8, 2)), ((4, 3), (3, 1))),
        (((10, 2), (16, 4)), ((5, 4), (1, 5))),
        (((12, (4, 8)), (59, (13, 1))), ((3, 4), (4, 1))),
    ],
    "complement": [
        (((4,), (2,)), 24),
        (((2, 4), (1, 6)), 24),
        (((2, (2, 4)), (16, (1, 4))), 128),
    ],
    "logical_divide": [
        ((24, 2), (4, 2)),
        (((8, 8), (8, 1)), ((2, 2), (1, 4))),
        (((4, 2, 3), (2, 1, 8)), (4, 2)),
    ],
    "logical_product": [
        (((2, 2), (4, 1)), (6, 1)),
        (((2, 2), (4, 1)), ((4, 2), (2, 1))),
        (((2, 5), (5, 1)), ((3, 4), (1, 3))),
    ],
}


def build(lib, case):
    """The operands of one case as lib's objects (a pair is a layout, an int stays an int)."""
    return tuple(lib.Layout(*x) if isinstance(x, tuple) else x for x in case)


def fresh_call(lib, f, case):
    """`f` called on operands built from the tuples of `case` in the call: the statement
    `f(L(s0, d0), v1, ...)`, compiled once, the same for every library (no loop or
    generator of the benchmark's own in the timed call)."""
    ns = {"f": f, "L": lib.Layout}
    args = []
    for i, x in enumerate(case):
        if isinstance(x, tuple):
            ns["s%d" % i], ns["d%d" % i] = x
            args.append("L(s%d, d%d)" % (i, i))
        else:
            ns["v%d" % i] = x
            args.append("v%d" % i)
    return eval("lambda: f(%s)" % ", ".join(args), ns)


# The pycute suite: (name, the call as a statement of L (the library's Layout) and f (the
# function), the operands). The statement builds its layouts in the call; a tuple tiler
# holds layouts built there too.
A8 = ((8, 8), (8, 1))
SUITE = [
    ("size", "f(L(s, d))", dict(s=(4, (2, 3)), d=(2, (1, 8)))),
    ("cosize", "f(L(s, d))", dict(s=(4, (2, 3)), d=(2, (1, 8)))),
    ("coalesce", "f(L(s, d))", dict(s=((2, 2), (2, 2), 4), d=((1, 2), (4, 8), 32))),
    ("filter", "f(L(s, d))", dict(s=(2, (1, 6), 4), d=(1, (6, 2), 0))),
    ("composition", "f(L(s, d), L(t, e))", dict(s=(12, (4, 8)), d=(59, (13, 1)), t=(3, 4), e=(4, 1))),
    ("composition", "f(L(s, d), (L(2, 4), L(4, 2)))", dict(s=A8[0], d=A8[1])),
    ("complement", "f(L(s, d))", dict(s=(2, 4), d=(1, 6))),
    ("complement", "f(L(s, d), 128)", dict(s=(2, (2, 4)), d=(16, (1, 4)))),
    ("right_inverse", "f(L(s, d))", dict(s=(4, (2, 3)), d=(2, (1, 8)))),
    ("left_inverse", "f(L(s, d))", dict(s=(4, 8), d=(8, 1))),
    ("logical_divide", "f(L(s, d), L(t, e))", dict(s=A8[0], d=A8[1], t=(2, 2), e=(1, 4))),
    ("logical_divide", "f(L(s, d), (L(2, 1), L(4, 2)))", dict(s=A8[0], d=A8[1])),
    ("logical_product", "f(L(s, d), L(t, e))", dict(s=(2, 2), d=(4, 1), t=(4, 2), e=(2, 1))),
    ("zipped_divide", "f(L(s, d), (L(2, 1), L(4, 2)))", dict(s=A8[0], d=A8[1])),
    ("tiled_divide", "f(L(s, d), (L(2, 1), L(4, 2)))", dict(s=A8[0], d=A8[1])),
    ("zipped_product", "f(L(s, d), (L(2, 1), L(4, 1)))", dict(s=(2, 2), d=(1, 2))),
    ("tiled_product", "f(L(s, d), (L(2, 1), L(4, 1)))", dict(s=(2, 2), d=(1, 2))),
    ("make_layout", "f(L(s, d), L(t, e))", dict(s=(4, 8), d=(8, 1), t=2, e=32)),
    ("Layout(crd)", "L(s, d)(c)", dict(s=(4, (2, 3)), d=(2, (1, 8)), c=(3, (1, 2)))),
    ("Layout(slice)", "L(s, d)(c)", dict(s=(4, (2, 3)), d=(2, (1, 8)), c=(None, (1, None)))),
    ("Layout[i]", "L(s, d)[1]", dict(s=(4, (2, 3)), d=(2, (1, 8)))),
    ("slice_and_offset", "f(c, L(s, d))", dict(s=(4, (2, 3)), d=(2, (1, 8)), c=(None, (1, None)))),
    ("crd2idx", "f(c, s, d)", dict(s=(4, (2, 3)), d=(2, (1, 8)), c=(3, (1, 2)))),
    ("idx2crd", "f(i, s)", dict(s=(4, (2, 3)), i=17)),
    ("product", "f(s)", dict(s=(4, (2, 3), 5))),
    ("prefix_product", "f(s)", dict(s=(4, (2, 3), 5))),
    ("shape_div", "f(s, t)", dict(s=(4, (2, 3), 5), t=8)),
    ("inner_product", "f(s, d)", dict(s=(4, (2, 3)), d=(2, (1, 8)))),
    ("flatten", "f(s)", dict(s=(4, (2, (3, 5))))),
]


def suite_call(lib, name, stmt, ops):
    ns = dict(ops, L=lib.Layout, f=getattr(lib, name, None))
    return eval("lambda: " + stmt, ns)


def normal(x):
    return str(x).replace(" ", "").replace("_", "").replace(",)", ")")


def best(f, n):
    return min(timeit.repeat(f, number=n, repeat=15)) / n


def text(sd):
    return normal("%s:%s" % sd)


LIBS = {"pycute": pycute, "kp": kp, "kute": kute}


def counted_calls():
    """The calls --count counts, as (label, lib -> the call or None): a floor, the 15 cases
    with fresh operands, and the suite (kute where it answers the same by value)."""
    calls = [("floor: lambda: None", lambda lib: lambda: None)]
    for op, cases in CASES.items():
        for case in cases:
            calls.append(("%s %s" % (op, text(case[0])), lambda lib, op=op, case=case: fresh_call(lib, getattr(lib, op), case)))
    for name, stmt, ops in SUITE:
        def make(lib, name=name, stmt=stmt, ops=ops):
            if lib is kute:
                f, fp = suite_call(kute, name, stmt, ops), suite_call(pycute, name, stmt, ops)
                try:
                    ok = "L(s, d)" in stmt and getattr(kute, name, None) is not None and normal(f()) == normal(fp())
                except Exception:
                    ok = False
                return f if ok else None
            return suite_call(lib, name, stmt, ops)
        calls.append(("%s %s" % (name, stmt), make))
    return calls


# The floor under the suite's smallest calls: CPython's own objects standing in for the
# layouts, each doing no more than the call must (a call of `size` makes an object of its two
# tuples and passes it to a function that answers an int; `make_layout` makes three objects;
# `L[i]` makes one and indexes it). No library can answer below these.
FLOOR = [
    ("size", "id(slice(s, d))", "an object of the tuples, passed to a built-in"),
    ("size", "id(reversed(s))", "an object of one tuple, passed to a built-in"),
    ("make_layout", "slice(slice(s, d), slice(t, e))", "three such objects"),
    ("Layout[i]", "(s, d)[1]", "a tuple display, indexed (no call at all)"),
]


def floor_call(index, lib):
    """Row `index` of FLOOR as a call: the suite's pycute call (lib `floor-pycute`) or
    CPython's objects on the same operands (`floor-cpython`)."""
    name, stmt, _ = FLOOR[index]
    _, pstmt, ops = next(row for row in SUITE if row[0] == name)
    return suite_call(pycute, name, pstmt, ops) if lib == "floor-pycute" else eval("lambda: " + stmt, dict(ops))


def count_child(lib, index, n):
    """The child of --count: call number `index` of counted_calls() (row `index` of FLOOR
    for `floor-pycute` and `floor-cpython`), n times."""
    if lib.startswith("floor-"):
        f = floor_call(index, lib)
    else:
        f = counted_calls()[index][1](LIBS[lib])
    for _ in range(n):
        f()


def instructions(lib, index, n):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "callgrind.out")
        subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, sys.executable, __file__,
             "--count-child", lib, str(index), str(n)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
            env=dict(os.environ, PYTHONHASHSEED="0"))  # (the same dicts in both runs)
        for line in open(out):
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise RuntimeError("callgrind wrote no total")


def count():
    print("python %s, instructions per call (callgrind: 2001 calls less 1, over 2000)" % platform.python_version())
    print("%-66s %9s %12s %9s %8s %8s" % ("call", "pycute", "kute.pycute", "kute", "ratio kp", "ratio k"))
    for i, (label, make) in enumerate(counted_calls()):
        per = {}
        for lib in LIBS:
            if make(LIBS[lib]) is not None:
                per[lib] = (instructions(lib, i, 2001) - instructions(lib, i, 1)) / 2000
        ratio = lambda lib: "%.1fx" % (per["pycute"] / per[lib]) if lib in per else "-"
        print("%-66s %9.0f %12.0f %9s %8s %8s" % (
            label[:66], per["pycute"], per["kp"], "%.0f" % per["kute"] if "kute" in per else "-", ratio("kp"), ratio("kute")),
            flush=True)
    count_floor()


def count_floor():
    """The floor table of --count: pycute's count of the suite's smallest calls, a tenth of
    it (what 10x leaves, the loop included), and CPython's own objects doing no more."""
    print("\nthe floor: CPython's own objects in place of the layouts, instructions per call")
    print("%-28s %9s %9s %-34s %9s" % ("pycute call", "pycute", "a tenth", "CPython's objects", "count"))
    for i, (name, stmt, what) in enumerate(FLOOR):
        per = {lib: (instructions(lib, i, 2001) - instructions(lib, i, 1)) / 2000 for lib in ("floor-pycute", "floor-cpython")}
        print("%-28s %9.0f %9.0f %-34s %9.0f  (%s)" % (
            name, per["floor-pycute"], per["floor-pycute"] / 10, stmt, per["floor-cpython"], what), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=2000, help="calls per timing run (default 2000)")
    ap.add_argument("--count", action="store_true", help="count instructions under callgrind instead of timing")
    ap.add_argument("--count-floor", action="store_true", help="count only the floor table of --count")
    ap.add_argument("--count-child", nargs=3, metavar=("LIB", "INDEX", "N"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.count_child:
        lib, index, k = args.count_child
        return count_child(lib, int(index), int(k))
    if args.count:
        return count()
    if args.count_floor:
        return count_floor()
    n = args.repeat
    print("python %s on %s (%s), kute %s, pycute from %s" % (
        platform.python_version(), platform.machine(), platform.processor() or "?", kute.__version__,
        os.path.dirname(pycute.__file__)))

    print("\n1. building a layout from Python tuples, us per call")
    print("%-30s %10s %10s %12s %8s" % ("shape:stride", "pycute", "kute", "kute.pycute", "ratio"))
    for s, d in BUILD:
        tp = best(lambda: pycute.Layout(s, d), n)
        tk = best(lambda: kute.Layout(s, d), n)
        tkp = best(lambda: kp.Layout(s, d), n)
        print("%-30s %10.2f %10.2f %12.2f %7.1fx" % (text((s, d)), tp * 1e6, tk * 1e6, tkp * 1e6, tp / tk))
    floor = best(lambda: kute.Swizzle(3, 3, 3), n)
    print("(the floor of making a kute object from Python, kute.Swizzle(3,3,3): %.2f us)" % (floor * 1e6))

    for fresh in (False, True):
        print("\n%d. pycute's operations, %s, us per call" % (
            3 if fresh else 2, "fresh operands (built from the tuples in each call)" if fresh else "operands built once"))
        print("%-16s %-28s %9s %9s %12s %8s %8s  %s" % (
            "operation", "input A", "pycute", "kute", "kute.pycute", "ratio", "ratio kp", "same answer"))
        total = {"pycute": 0.0, "kute": 0.0, "kp": 0.0}
        for op, cases in CASES.items():
            for case in cases:
                pf, kf, kpf = getattr(pycute, op), getattr(kute, op), getattr(kp, op)
                if fresh:
                    tp = best(fresh_call(pycute, pf, case), n)
                    tk = best(fresh_call(kute, kf, case), n)
                    tkp = best(fresh_call(kp, kpf, case), n)
                else:
                    pa, ka, kpa = build(pycute, case), build(kute, case), build(kp, case)
                    tp = best(lambda: pf(*pa), n)
                    tk = best(lambda: kf(*ka), n)
                    tkp = best(lambda: kpf(*kpa), n)
                pr, kr, kpr = pf(*build(pycute, case)), kf(*build(kute, case)), kpf(*build(kp, case))
                total["pycute"] += tp
                total["kute"] += tk
                total["kp"] += tkp
                same = "yes" if normal(pr) == normal(kr) and str(pr) == str(kpr) else "no: pycute %s, kute %s, kute.pycute %s" % (pr, kr, kpr)
                print("%-16s %-28s %9.2f %9.2f %12.2f %7.1fx %7.1fx  %s" % (
                    op, text(case[0]), tp * 1e6, tk * 1e6, tkp * 1e6, tp / tk, tp / tkp, same))
        print("all %d cases: pycute %.1f us, kute %.1f us (%.1fx), kute.pycute %.1f us (%.1fx)" % (
            sum(map(len, CASES.values())), total["pycute"] * 1e6, total["kute"] * 1e6,
            total["pycute"] / total["kute"], total["kp"] * 1e6, total["pycute"] / total["kp"]))


    print("\n4. the pycute suite, fresh operands (built in each call), us per call")
    print("%-17s %-34s %9s %12s %9s %8s %8s  %s" % (
        "function", "call", "pycute", "kute.pycute", "kute", "ratio kp", "ratio k", "same answer"))
    total = {"pycute": 0.0, "kp": 0.0}
    for name, stmt, ops in SUITE:
        fp, fkp, fk = suite_call(pycute, name, stmt, ops), suite_call(kp, name, stmt, ops), suite_call(kute, name, stmt, ops)
        pr, kpr = fp(), fkp()
        tp, tkp = best(fp, n), best(fkp, n)
        total["pycute"] += tp
        total["kp"] += tkp
        try:
            kr = fk() if "L(s, d)" in stmt and getattr(kute, name, None) is not None else None
        except Exception:
            kr = None
        tk = best(fk, n) if kr is not None and normal(kr) == normal(pr) else None
        same = "yes" if str(pr) == str(kpr) else "no: pycute %s, kute.pycute %s" % (pr, kpr)
        call = stmt
        for k, v in ops.items():
            call = call.replace("(%s," % k, "(%s," % normal(v)).replace(", %s)" % k, ", %s)" % normal(v))
            call = call.replace("(%s)" % k, "(%s)" % normal(v)).replace(" %s)" % k, " %s)" % normal(v))
        print("%-17s %-34s %9.2f %12.2f %9s %7.1fx %8s  %s" % (
            name, call[:34], tp * 1e6, tkp * 1e6, "-" if tk is None else "%.2f" % (tk * 1e6), tp / tkp,
            "-" if tk is None else "%.1fx" % (tp / tk), same))
    print("the %d calls: pycute %.1f us, kute.pycute %.1f us (%.1fx)" % (
        len(SUITE), total["pycute"] * 1e6, total["kp"] * 1e6, total["pycute"] / total["kp"]))


if __name__ == "__main__":
    main()
