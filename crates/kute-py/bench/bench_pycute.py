"""Time pycute's five layout operations against kute's Python package, on the same inputs.

    python crates/kute-py/bench/bench_pycute.py [--repeat N]

pycute is NVIDIA's pure-Python CuTe (the `pycute` package of the `nvidia-cutlass` wheel, or
the CUTLASS repository's python/ directory). It is imported from PYCUTE_PATH when that is
set, else from ~/.cache/kute-oracle/cutlass, else from the installed packages.

Each operation runs on the same layouts, built once from the same Python tuples (Python ints:
run-time integers for kute). The time is the best of 5 runs of N calls per case, per call;
the ratio is pycute's time over kute's. The answers are compared by value (kute prints `_`
for static integers and no spaces; pycute prints Python tuples), and a disagreement is shown.
"""

import argparse
import os
import platform
import sys
import timeit

_path = os.environ.get("PYCUTE_PATH", os.path.expanduser("~/.cache/kute-oracle/cutlass"))
if os.path.isdir(os.path.join(_path, "pycute")):
    sys.path.insert(0, _path)

import pycute  # noqa: E402

import kute  # noqa: E402

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


def normal(x):
    return str(x).replace(" ", "").replace("_", "").replace(",)", ")")


def best(f, n):
    return min(timeit.repeat(f, number=n, repeat=5)) / n


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=2000, help="calls per timing run (default 2000)")
    args = ap.parse_args()
    print("python %s on %s (%s), pycute from %s" % (
        platform.python_version(), platform.machine(), platform.processor() or "?", os.path.dirname(pycute.__file__)))
    print("%-16s %-28s %12s %12s %8s  %s" % ("operation", "input A", "pycute us", "kute us", "ratio", "same answer"))
    total = {"pycute": 0.0, "kute": 0.0}
    for op, cases in CASES.items():
        for case in cases:
            pa, ka = build(pycute, case), build(kute, case)
            pf, kf = getattr(pycute, op), getattr(kute, op)
            pr, kr = pf(*pa), kf(*ka)
            tp = best(lambda: pf(*pa), args.repeat)
            tk = best(lambda: kf(*ka), args.repeat)
            total["pycute"] += tp
            total["kute"] += tk
            same = "yes" if normal(pr) == normal(kr) else "no: pycute %s, kute %s" % (pr, kr)
            print("%-16s %-28s %12.2f %12.2f %7.1fx  %s" % (op, normal(ka[0]), tp * 1e6, tk * 1e6, tp / tk, same))
    floor = best(lambda: ka[0].rank(), args.repeat)
    print("the floor of a call into kute (Layout.rank() from Python): %.2f us" % (floor * 1e6))
    print("all %d cases: pycute %.1f us, kute %.1f us, ratio %.1fx" % (
        sum(map(len, CASES.values())), total["pycute"] * 1e6, total["kute"] * 1e6, total["pycute"] / total["kute"]))


if __name__ == "__main__":
    main()
