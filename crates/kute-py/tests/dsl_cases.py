"""The CuTe DSL's own answers to the cases of test_dsl.py, recorded in data/dsl_answers.tsv.

Each case is a Python expression in CuTe DSL's spelling (``cute.make_layout((4,8),
stride=(8,1))``); this script evaluates them with the DSL itself (``nvidia-cutlass-dsl``,
at trace time of one ``@cute.jit`` function, on the CPU) and writes ``case<TAB>answer``,
the answer in the printed form ``pretty`` gives. test_dsl.py evaluates the same text with
``kute.dsl`` as ``cute`` and compares; where the DSL is installed it also runs the DSL
again. Run with the DSL's interpreter:

    DSL_PYTHON crates/kute-py/tests/dsl_cases.py --write
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_FILE = os.path.join(HERE, "data", "dsl_cases.txt")
ANSWERS_FILE = os.path.join(HERE, "data", "dsl_answers.tsv")


def read_cases():
    with open(CASES_FILE, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")]


def pretty(x):
    """A value as the DSL prints it; tuples without spaces, None as _."""
    if isinstance(x, (tuple, list)):
        return "(" + ",".join(pretty(y) for y in x) + ")"
    if x is None:
        return "_"
    if isinstance(x, bool):
        return str(int(x))
    return str(x)


# the element types of buf(name): a buffer of 256 elements (the DSL: a pointer of that
# element type; kute.dsl: a numpy array of that dtype)
ELEMENT_TYPES = ["f16", "f32", "f64", "i8", "i32", "u8", "bool"]


def dsl_answers(cases):
    os.environ.setdefault("CUTE_DSL_DISABLE_FILE_CACHING", "1")
    import cutlass
    import cutlass.cute as cute

    types = {
        "f16": cutlass.Float16,
        "f32": cutlass.Float32,
        "f64": cutlass.Float64,
        "i8": cutlass.Int8,
        "i32": cutlass.Int32,
        "u8": cutlass.Uint8,
        "bool": cutlass.Boolean,
    }
    out = {}

    def body(addr):
        def buf(name):
            return cute.make_ptr(types[name], addr, cute.AddressSpace.generic)

        for c in cases:
            try:
                out[c] = pretty(eval(c, {"cute": cute, "buf": buf}))
            except Exception as e:  # noqa: BLE001 (any refusal of the DSL is an answer)
                out[c] = "error: %s" % type(e).__name__

    @cute.jit
    def run(addr: cutlass.Int64):
        body(addr)  # (the DSL rewrites this function's own control flow, not body's)

    cute.compile(run, cutlass.Int64(4096))
    return [out.get(c, "error: no answer") for c in cases]


def main():
    cases = read_cases()
    answers = dsl_answers(cases)
    lines = ["%s\t%s\n" % (c, a) for c, a in zip(cases, answers)]
    if "--write" in sys.argv:
        with open(ANSWERS_FILE, "w", encoding="utf-8") as f:
            f.write("# CuTe DSL (nvidia-cutlass-dsl 4.8.1) answers: case<TAB>answer (tests/dsl_cases.py writes it)\n")
            f.writelines(lines)
    else:
        sys.stdout.writelines(lines)


if __name__ == "__main__":
    main()
