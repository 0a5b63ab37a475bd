"""The type stubs (python/kute/__init__.pyi, pycute/*.pyi, py.typed): complete, in step with the
package, and checked by mypy (installed by scripts/test-python.sh): typed code passes
``mypy --strict``, and code that misuses the API is flagged where it does.

``python crates/kute-py/tests/test_stubs.py --write`` rewrites the generated part of
__init__.pyi (the functions of the expression language) from ``kute.functions()``.
"""

import ast
import keyword
import os
import subprocess
import sys
import tempfile
import textwrap

import pytest

import kute
from kute import pycute

PACKAGE = os.path.join(os.path.dirname(__file__), "..", "python", "kute")
STUB = os.path.join(PACKAGE, "__init__.pyi")
PYCUTE_STUB = os.path.join(PACKAGE, "pycute", "__init__.pyi")
PYCUTE_MODULES = ("int_tuple", "layout", "swizzle", "typing")
PYCUTE_MODULE_STUBS = [os.path.join(PACKAGE, "pycute", m + ".pyi") for m in PYCUTE_MODULES]
DSL_STUB = os.path.join(PACKAGE, "dsl.pyi")
BEGIN = "# --- generated: the other functions of the expression language ---\n"
END = "# --- end generated ---\n"


def stub_names(path):
    """The names a stub defines at its top level."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname for a in node.names if a.asname)
    return names


def generated_block(handwritten):
    """The stub lines of the expression language's functions not written by hand."""
    names = set()
    for name, aliases, _signature, _summary in kute.functions():
        for n in (name, *aliases):
            if n.isidentifier() and not keyword.iskeyword(n) and n not in handwritten and callable(getattr(kute, n, None)):
                names.add(n)
    lines = ["def %s(*args: _Operand, targs: _TArgs = None) -> Any: ...\n" % n for n in sorted(names)]
    return BEGIN + "".join(lines) + END


def current_stub():
    with open(STUB, encoding="utf-8") as f:
        return f.read()


def handwritten_names():
    text = current_stub()
    head = text[: text.index(BEGIN)]
    with tempfile.NamedTemporaryFile("w", suffix=".pyi", delete=False) as f:
        f.write(head)
    try:
        return stub_names(f.name)
    finally:
        os.unlink(f.name)


# the package's own helpers, not its API
PRIVATE = {"_builtins", "_keyword", "_function", "_kute", "_all_static", "pycute", "dsl", "annotations"}


def public(module, skip=()):
    return {n for n in dir(module) if (not n.startswith("_") or n == "_") and n not in PRIVATE and n not in skip}


def test_the_generated_part_is_current():
    text = current_stub()
    block = text[text.index(BEGIN) : text.index(END) + len(END)]
    assert block == generated_block(handwritten_names()), (
        "python/kute/__init__.pyi is not in step with kute.functions(): run "
        "python crates/kute-py/tests/test_stubs.py --write"
    )


def test_the_stubs_name_everything_there_is():
    names = stub_names(STUB)
    assert public(kute) - names == set()
    assert names - public(kute) - {"_Operand", "_TArgs", "_PyIntTuple", "__version__"} == set()
    names = stub_names(PYCUTE_STUB)
    helpers = {"ABC", "KuteError"}
    assert public(pycute, helpers) - names == set()
    assert names - public(pycute) - {"_IntTuple", "_Coord", "_Tiler"} == set()
    assert os.path.exists(os.path.join(PACKAGE, "py.typed"))


GOOD = """
from typing import Tuple
import kute
from kute import pycute

a = kute.Layout((4, 8), (8, 1))
n: int = a.size() + a.cosize() + a.rank() + len(a)
d: kute.Layout = kute.logical_divide(a, kute.Layout(4, 2))
c: kute.Layout = kute.composition(a, kute.Layout(4, 1))
s = kute.size(a) + 1
m: kute.Layout = a[0]
sw = kute.Swizzle(3, 3, 3)
x: int = sw(200) + sw.bits
t = kute.eval("size(L)", L=a)
ok: bool = isinstance(t, kute.IntTuple) and t.is_static()
p = pycute.Layout((4, 8), (8, 1))
q: pycute.Layout = pycute.logical_divide(p, (pycute.Layout(2), None))
k: int = pycute.size(q) + pycute.cosize(q) + pycute.crd2idx((1, 2), (4, 8))
r: pycute.Layout = pycute.composition(p, 4)
inv = pycute.right_inverse(None)
u: Tuple[pycute.Layout, int] = pycute.slice_and_offset((1, None), p)
v: kute.Layout = pycute.zipped_divide(p, pycute.Layout(2, 1))
w = pycute.ComposedLayout(pycute.Swizzle(1, 2, 3), 0, p)
z: int = w.size() + pycute.shiftl(1, 3)


def tensors(buf: object) -> None:
    t = kute.Tensor(buf, kute.Layout((4, 8)))
    e = t[1, 2]
    t[0, 0] = 1.0
    f: kute.Tensor = kute.Tensor.from_numpy(buf)
    n2: int = t.size() + t.offset + len(t.positions())
    kute.copy(t, f)
    txt: str = t.table()
    ct: kute.IdentityTensor = kute.make_identity_tensor((4, 8))
    mt: kute.Tensor = kute.make_tensor(buf, (4, 8))


import kute.dsl as cute

L2: kute.Layout = cute.make_layout((4, 8), stride=(8, 1))
k2 = cute.size(L2, mode=[1])
dt: kute.Tensor = cute.make_tensor(None, L2)
"""

# each line marked `# E` is an error mypy must find
BAD = """
import kute
from kute import pycute

a = kute.Layout((4, 8), (8, 1))
s: str = a.size()  # E
a.rank() + "x"  # E
kute.Swizzle(3, 3)  # E
pycute.composition(pycute.Layout(4))  # E
b: pycute.Layout = pycute.right_inverse(None)  # E
pycute.size(a) + "x"  # E
kute.copy(1, 2)  # E
kute.make_identity_tensor((4, 8)).offset  # E
import kute.dsl as cute
cute.make_layout((4, 8), (8, 1))  # E
"""


def mypy(source):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "sample.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(source))
        run = subprocess.run(
            [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", os.path.join(tmp, "cache"), path],
            capture_output=True,
            text=True,
        )
        return run.returncode, run.stdout + run.stderr


@pytest.fixture(scope="module")
def have_mypy():
    if os.environ.get("KUTE_PY_REQUIRE_PYCUTE"):  # (set by scripts/test-python.sh, which installs mypy)
        import mypy  # noqa: F401
    else:
        pytest.importorskip("mypy")


def test_typed_code_passes_mypy_strict(have_mypy):
    code, out = mypy(GOOD)
    assert code == 0, out


def test_mypy_flags_misuse(have_mypy):
    code, out = mypy(BAD)
    flagged = sorted({int(line.split(":")[1]) for line in out.splitlines() if ": error:" in line})
    marked = [i + 1 for i, line in enumerate(textwrap.dedent(BAD).splitlines()) if line.endswith("# E")]
    assert code != 0 and flagged == marked, out


def test_the_stubs_pass_mypy_strict(have_mypy):
    with tempfile.TemporaryDirectory() as tmp:
        run = subprocess.run(
            [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", os.path.join(tmp, "cache"), STUB, PYCUTE_STUB, *PYCUTE_MODULE_STUBS, DSL_STUB],
            capture_output=True,
            text=True,
        )
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_stubs_match_the_runtime(have_mypy):
    # mypy's stubtest: every name, class and signature of the stubs as the running package has it
    helptext = subprocess.run([sys.executable, "-m", "mypy.stubtest", "--help"], capture_output=True, text=True).stdout
    with tempfile.TemporaryDirectory() as tmp:
        allow = os.path.join(tmp, "allow.txt")
        with open(allow, "w", encoding="utf-8") as f:
            f.write("kute.__all__\nkute.pycute.__all__\nkute.dsl.__all__\n")  # (the stubs list the names themselves)
        flags = ["--ignore-disjoint-bases"] if "--ignore-disjoint-bases" in helptext else []
        run = subprocess.run(
            [sys.executable, "-m", "mypy.stubtest", "kute", "--allowlist", allow, "--ignore-unused-allowlist", *flags],
            capture_output=True,
            text=True,
            cwd=tmp,
        )
    assert run.returncode == 0, run.stdout + run.stderr


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    text = current_stub()
    text = text[: text.index(BEGIN)] + generated_block(handwritten_names()) + text[text.index(END) + len(END) :]
    with open(STUB, "w", encoding="utf-8") as f:
        f.write(text)
