"""CuTe's answers (the shared vector files of crates/kute/tests/data) through the Python package.

Every row is evaluated by ``kute.eval`` and compared with the stored answer exactly as
crates/kute/tests/vectors.rs compares it:

- a row whose integers are all static must print exactly CuTe's answer;
- a row with dynamic integers must print the same values (compared with ``_`` removed);
- ``error``: kute raises ``KuteError``;
- ``cute-wrong:<answer>``: CuTe's answer is not the true result; kute raises or returns
  the true result (checked here independently: the true composite, a compact layout, a true
  slice);
- booleans: kute's ``True``/``False`` against CuTe's ``_1``/``_0``.
"""

import os

import pytest

import kute

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "kute", "tests", "data")

# the files that crates/kute/tests/vectors.rs checks
FILES = [
    "algebra.tsv",
    "extra_2002.tsv",
    "basis.tsv",
    "tuples.tsv",
    "comparisons.tsv",
    "slices.tsv",
    "coshape.tsv",
    "like.tsv",
    "max_alignment.tsv",
    "domain_offset.tsv",
    "zip2_by.tsv",
    "domain_distribute.tsv",
    "transform_layout.tsv",
    "recast_layout.tsv",
    "get_hier_coord.tsv",
    "pycute.tsv",
    "swizzle.tsv",
    "tv.tsv",
    "seeds.tsv",
]


def split_top(s):
    """The top-level comma-separated parts of s (parentheses and template brackets nest)."""
    out, cur, depth = [], "", 0
    for ch in s:
        if ch in "(<":
            depth += 1
        elif ch in ")>":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        cur += ch
    out.append(cur)
    return out


def call_args(src, names):
    """(name, [argument texts]) of a call `name(...)` of one of `names`, else None."""
    for name in names:
        if src.startswith(name + "(") and src.endswith(")"):
            return name, split_top(src[len(name) + 1 : -1])
    return None


def num(v):
    return int(str(v).replace("_", ""))


def is_true_composite(src, got):
    """For composition(A, B): whether got is the true composite coalesce(A) o B, point by point."""
    c = call_args(src, ["composition"])
    if c is None or len(c[1]) != 2 or not isinstance(got, kute.Layout):
        return False
    try:
        a, b = kute.eval(c[1][0]), kute.eval(c[1][1])
    except kute.KuteError:
        return False
    if not isinstance(a, kute.Layout) or not isinstance(b, kute.Layout):
        return False
    ahat = kute.coalesce(a)
    n = b.size()
    return n == got.size() and all(ahat(b(i)) == got(i) for i in range(n))


def leaves(t):
    return [x for m in t for x in leaves(m)] if isinstance(t, tuple) else [t]


def is_compact_like(src, cute, got):
    """make_layout_like / make_fragment_like: CuTe's shape and zero strides, the others one-to-one onto [0, n)."""
    if not (src.startswith("make_layout_like(") or src.startswith("make_fragment_like(")):
        return False
    if not isinstance(got, kute.Layout):
        return False
    try:
        cute = kute.Layout(cute)
    except kute.KuteError:
        return False
    if cute.shape != got.shape:
        return False
    if not all(isinstance(d, int) for d in leaves(cute.stride) + leaves(got.stride)):
        return False
    shape, stride = leaves(got.shape), leaves(got.stride)
    if [d == 0 for d in leaves(cute.stride)] != [d == 0 for d in stride]:
        return False
    idx = [0]
    for s, d in zip(shape, stride):
        if d != 0:
            idx = [v + k * d for k in range(s) for v in idx]
    return sorted(idx) == list(range(len(idx)))


def is_true_slice(src, got):
    """slice / slice_and_offset of a composed layout C: got (plus the offset) is C on the slice's coordinates."""
    c = call_args(src, ["slice_and_offset", "slice"])
    if c is None or len(c[1]) != 2:
        return False
    name, (coord_text, c_text) = c
    if name == "slice":
        r, off = got, None
    elif isinstance(got, kute.Value) and got.kind == "a tuple" and len(got) == 2:
        r, off = got[0], num(got[1])
    else:
        return False
    free = str(kute.eval("shape(slice(%s,shape(%s)))" % (coord_text, c_text)))
    n = num(kute.eval("size(%s)" % free))
    diff = None
    for j in range(n):
        jc = str(kute.eval("idx2crd(%d,%s)" % (j, free))).replace("_", "")
        parts = iter(split_top(jc[1:-1]) if jc.startswith("(") else [jc])
        full = "".join(next(parts) if ch == "_" else ch for ch in coord_text)
        want = num(kute.eval("%s(%s)" % (c_text, full)))
        have = num(kute.eval("%s(%d)" % (r, j)))
        d = want - have - (off or 0)
        if (off is not None and d != 0) or (diff is not None and diff != d):
            return False
        diff = d
    return True


def row_ok(src, want):
    try:
        got = kute.eval(src)
    except kute.KuteError as e:
        return want == "error" or want.startswith("cute-wrong:"), "error: %s" % e
    shown = str(got)
    if want == "error":
        return False, shown
    if want.startswith("cute-wrong:"):
        cute = want[len("cute-wrong:") :]
        ok = is_true_composite(src, got) or is_compact_like(src, cute, got) or is_true_slice(src, got)
        return ok, shown
    if isinstance(got, bool):
        return want.lstrip("_") == ("1" if got else "0"), shown
    if kute._all_static(src):
        return shown == want, shown
    return shown.replace("_", "") == want.replace("_", ""), shown


def rows(name):
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        for line in f.read().splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            src, want = line.split("\t", 1)
            yield src, want.replace("\\n", "\n")


@pytest.mark.parametrize("name", FILES)
def test_vector_file(name):
    failures, n = [], 0
    for src, want in rows(name):
        n += 1
        ok, got = row_ok(src, want)
        if not ok:
            failures.append("%s\n    want %s\n    got  %s" % (src, want, got))
    assert n > 0, "no rows in %s" % name
    assert not failures, "%s: %d of %d rows fail:\n%s" % (name, len(failures), n, "\n".join(failures[:40]))


def test_checkers_can_fail():
    # CuTe's wrong composite is rejected, kute's answer accepted
    src = "composition((_8,_64):(_64,_1),Sw<3,4,3> o _0 o (_8,_64):(_64,_1))"
    assert not is_true_slice(src, kute.eval("_1:_0"))
    src = "slice_and_offset((0,_,(_,_)),Sw<1,4,3> o _32 o (_4,_4,(_4,_2)):(_1,_4,(_16,_64)))"
    assert not is_true_slice(src, kute.eval("((_4,_4,_2):(_4,_16,_64),_32)"))
    assert is_true_slice(src, kute.eval(src))
    assert not row_ok("logical_divide(24:2,4:2)", "(4,(2,3)):(4,(2,15))")[0]
    assert not row_ok("coalesce((_2,_2):(_1,_2))", "_4:_1 ")[0]
    assert not row_ok("coalesce((_2,_2):(_1,_2))", "4:_1")[0]
    assert row_ok("coalesce((_2,_2):(_1,_2))", "_4:_1")[0]
    assert not row_ok("coalesce((_2,_2):(_1,_2))", "error")[0]
