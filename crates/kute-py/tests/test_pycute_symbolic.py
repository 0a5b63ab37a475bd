"""kute.pycute with unknowns (kute.sym, sympy symbols): the answer is symbolic, and
putting values in for the unknowns gives the concrete answer of the same call with the
values (kute.pycute's, which test_pycute.py checks against pycute itself)."""

import pytest

import kute
from kute import pycute as P

L = P.Layout

# (name, the call with the unknown M, the divisibility M is declared with)
CASES = [
    ("logical_divide", lambda M: P.logical_divide(L((M, 64), (1, M)), (L(128, 1), L(64, 1))), 128),
    ("logical_divide", lambda M: P.logical_divide(L((M, 64), (1, M)), (128, 64)), 128),
    ("logical_divide", lambda M: P.logical_divide(L((M, 64), (1, M)), (None, L(16, 1))), 1),
    ("logical_divide", lambda M: P.logical_divide(L((64, M), (M, 1)), (L(8, 1), L(32, 1))), 32),
    ("logical_divide", lambda M: P.logical_divide(L(M, 2), L(4, 2)), 8),
    ("zipped_divide", lambda M: P.zipped_divide(L((M, 64), (1, M)), (L(128, 1), L(64, 1))), 128),
    ("tiled_divide", lambda M: P.tiled_divide(L((M, 32), (1, M)), (L(16, 1), L(8, 1))), 16),
    ("composition", lambda M: P.composition(L((M, 64), (1, M)), L(128, 1)), 128),
    ("composition", lambda M: P.composition(L((M, 64), (1, M)), (L(16, 1), L(8, 2))), 16),
    ("composition", lambda M: P.composition(L((M, 4)), 4), 4),
    ("logical_product", lambda M: P.logical_product(L(4, 1), L(M, 1)), 1),
    ("logical_product", lambda M: P.logical_product(L((2, 2), (1, 2)), L((M, 3))), 1),
    ("zipped_product", lambda M: P.zipped_product(L((M, 4)), L((2, 3))), 1),
    ("tiled_product", lambda M: P.tiled_product(L((M, 4)), L((2, 3))), 1),
    ("blocked_product", lambda M: P.blocked_product(L((M, 4)), L((2, 3))), 1),
    ("raked_product", lambda M: P.raked_product(L((M, 4)), L((2, 3))), 1),
    ("coalesce", lambda M: P.coalesce(L((M, 64), (1, M))), 1),
    ("coalesce", lambda M: P.coalesce(L((4, M, 2))), 1),
    ("complement", lambda M: P.complement(L(4, 1), M), 4),
    ("complement", lambda M: P.complement(L((2, 4), (1, 8)), M), 32),
    ("right_inverse", lambda M: P.right_inverse(L((M, 4), (1, M))), 1),
    ("right_inverse", lambda M: P.right_inverse(L((4, M), (M, 1))), 2),
    ("left_inverse", lambda M: P.left_inverse(L((M, 4), (4, 1))), 1),
    ("size", lambda M: P.size(L((M, (4, 2)))), 1),
    ("cosize", lambda M: P.cosize(L((M, 4), (1, M))), 1),
    ("product", lambda M: P.product((M, (4, 2))), 1),
    ("shape_div", lambda M: P.shape_div((M, 4), (128, 2)), 128),
]


def same(concrete, symbolic_substituted):
    """The same value; layouts the same function: the same size and the same index at
    every 1-D coordinate (where an extent of M's is 1, CuTe's concrete answer drops or
    zeroes that mode, the symbolic one keeps it: different forms of the same layout)."""
    a, b = concrete, symbolic_substituted
    if isinstance(a, kute.Layout):
        return isinstance(b, kute.Layout) and a.size() == b.size() and all(a(i) == b(i) for i in range(a.size()))
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def put(x, values):
    """Values in for the unknowns of an answer (a layout, an integer, a tuple of them)."""
    if isinstance(x, tuple):
        return tuple(put(y, values) for y in x)
    if isinstance(x, int):
        return x
    y = kute.substitute(x, values)
    return y.value if isinstance(y, kute.IntTuple) else y


@pytest.mark.parametrize("k", range(len(CASES)))
def test_substituting_values_gives_the_concrete_answer(k):
    name, call, div = CASES[k]
    M = kute.sym("M", div=div)
    answer = call(M)
    if isinstance(answer, kute.Layout):
        assert isinstance(answer, P.Layout)
    for v in [div * j for j in (1, 2, 3, 5, 8)]:
        concrete = call(v)
        got = put(answer, {"M": v})
        assert same(concrete, got), (name, v, concrete, answer)
        if v > div and isinstance(concrete, kute.Layout):
            # where no extent of M's is 1, the same shape and strides
            assert concrete == got, (name, v, concrete, answer)


def test_answers_are_symbolic():
    held = [name for name, call, div in CASES if "M" in str(call(kute.sym("M", div=div)))]
    assert len(held) >= len(CASES) - 3


def test_sympy_symbols():
    sympy = pytest.importorskip("sympy")
    N = sympy.Symbol("N", positive=True, integer=True)
    A = P.Layout((N, 64), (1, N))
    assert str(A) == "(N, 64):(1, N)"
    d = P.logical_divide(A, (None, P.Layout(16, 1)))
    assert repr(d) == "Layout((N, (16, 4)),(1, (N, 16*N)))"
    assert kute.to_sympy(P.size(A)) == 64 * N
    for v in (1, 3, 10):
        assert P.logical_divide(P.Layout((v, 64), (1, v)), (None, P.Layout(16, 1))) == kute.substitute(d, {"N": v})


def test_symbolic_layouts_in_pycutes_own_algorithm_are_refused():
    M = kute.sym("M")
    A = P.Layout((M, 4))
    with pytest.raises(TypeError, match="has unknowns"):
        P.filter(A)
    with pytest.raises(TypeError, match="has unknowns"):
        P.slice_and_offset((0, None), A)
    # what kute cannot decide without a fact is kute's error, naming the fact
    with pytest.raises(kute.KuteError):
        P.right_inverse(L((4, M), (M, 1)))
    # methods
    assert str(A.size()) == "4*M" and kute.substitute(A.size(), {"M": 5}).value == 20
    assert P.Layout((4, M))(3) == 3 and A[0] == P.Layout(M, 1)
