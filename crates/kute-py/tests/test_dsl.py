"""kute.dsl against CuTe DSL itself: the cases of data/dsl_cases.txt, evaluated with
``kute.dsl`` as ``cute``, must print what the DSL answered (data/dsl_answers.tsv, written
by dsl_cases.py running the DSL). Where the DSL is installed (KUTE_DSL_VENV, default
~/.cache/kute-dsl) the DSL is run again and must still give the recorded answers."""

import os
import subprocess
import sys

import pytest

import kute
import kute.dsl as dsl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from dsl_cases import ANSWERS_FILE, ELEMENT_TYPES, pretty, read_cases  # noqa: E402

# The DSL's answers that are not true ones: kute refuses them (KuteError says why).
UNTRUE = {
    # A(B(i)) for B = 4:3 takes the values 0, 24, 17, 10 of (4,8):(8,1): no layout's; the
    # DSL (CuTe's algorithm) answers (2,2):(24,1), whose values are 0, 24, 1, 25
    "cute.composition(cute.make_layout((4,8), stride=(8,1)), cute.make_layout(4, stride=3))",
    # (2,2):(2,2) is not one-to-one (it takes 2 twice): it has no complement
    "cute.complement(cute.make_layout((2,2), stride=(2,2)), 16)",
}


def answers():
    rows = []
    with open(ANSWERS_FILE, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            case, answer = line.rstrip("\n").split("\t")
            rows.append((case, answer))
    return rows


def test_the_recorded_answers_cover_the_cases():
    assert [c for c, _ in answers()] == read_cases()
    assert len(answers()) >= 40


def names(case):
    """What a case may use: kute.dsl as cute, and buf(name), a buffer of 256 elements of
    an element type (a numpy array; the DSL had a pointer)."""
    if "buf(" not in case:
        return {"cute": dsl}
    np = pytest.importorskip("numpy", reason="the tensor cases need numpy")
    dtypes = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i8": np.int8, "i32": np.int32,
              "u8": np.uint8, "bool": np.bool_}
    assert sorted(dtypes) == sorted(ELEMENT_TYPES)
    return {"cute": dsl, "buf": lambda name: np.zeros(256, dtype=dtypes[name])}


@pytest.mark.parametrize("case,answer", answers())
def test_kute_dsl_answers_as_the_dsl(case, answer):
    env = names(case)
    if case in UNTRUE:
        with pytest.raises(kute.KuteError):
            eval(case, env)
        return
    if answer.startswith("error:"):
        with pytest.raises((kute.KuteError, TypeError, ValueError, IndexError)):
            eval(case, env)
        return
    assert pretty(eval(case, env)) == answer


def dsl_python():
    venv = os.environ.get("KUTE_DSL_VENV", os.path.join(os.path.expanduser("~"), ".cache", "kute-dsl"))
    py = os.path.join(venv, "bin", "python")
    if not os.access(py, os.X_OK):
        return None
    ok = subprocess.run([py, "-c", "import cutlass.cute"], capture_output=True).returncode == 0
    return py if ok else None


def test_the_dsl_still_answers_so():
    py = dsl_python()
    if py is None:
        pytest.skip("CuTe DSL (nvidia-cutlass-dsl) is not installed in KUTE_DSL_VENV or ~/.cache/kute-dsl: "
                    "the recorded answers are tested without it")
    out = subprocess.run([py, os.path.join(HERE, "dsl_cases.py")], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    live = [tuple(line.split("\t")) for line in out.stdout.splitlines()]
    assert live == answers()


def test_conventions():
    L = dsl.make_layout((4, 8), stride=(8, 1))
    assert isinstance(L, kute.Layout) and str(L) == "(4,8):(8,1)"
    # Python ints are static, as the DSL's compile-time constants
    assert L.is_static() and dsl.is_static(L) and not dsl.is_static(kute.sym("M"))
    assert repr(L) == "Layout('(4,8):(8,1)')"
    assert dsl.size(L) == 32 and isinstance(dsl.size(L), int)
    assert dsl.shape(L) == (4, 8)
    # unknowns print as the DSL prints them
    M = kute.sym("M", div=16)
    assert str(dsl.make_layout((M, 4))) == "(?{div=16},4):(1,?{div=16})"
    with pytest.raises(TypeError):
        dsl.make_layout((4, 8), (8, 1))  # stride is keyword-only, as in the DSL


def test_tensors():
    np = pytest.importorskip("numpy")
    a = np.arange(32, dtype=np.float32)
    t = dsl.make_tensor(a, dsl.make_layout((4, 8), stride=(8, 1)))
    assert str(t) == "tensor<ptr<f32, generic> o (4,8):(8,1)>"
    assert t[(1, 2)] == 10.0
    tile = dsl.local_tile(t, (2, 4), (1, 1))
    assert np.array_equal(tile.to_numpy(), a.reshape(4, 8)[2:4, 4:8])
    assert str(tile) == "tensor<ptr<f32, generic> o (2,4):(8,1)>"
    p = dsl.local_partition(t, dsl.make_layout((2, 4), stride=(4, 1)), 5)
    assert np.array_equal(p.to_numpy(), a.reshape(4, 8)[1::2, 1::4])
    b = np.zeros(32, dtype=np.float32)
    dsl.basic_copy(t, dsl.make_tensor(b, dsl.make_layout((4, 8), stride=(8, 1))))
    assert np.array_equal(a, b)


def test_the_module_docstring():
    import doctest

    result = doctest.testmod(dsl)
    assert result.attempted >= 5 and result.failed == 0
