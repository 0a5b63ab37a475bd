#!/usr/bin/env python3
"""Mark `cute-wrong:` the rows of test vector files whose CuTe answer is not the true
result, with two independent checkers (exact Python integers, no kute code):

- for the operations built on composition, `cute_truth.py` of the shared oracle
  (CUTE_ORACLE, or ../shared/oracle beside the repository): the answer must be the
  composite it means to compute;
- CuTe's own documented postconditions: `left_inverse(L) = R` gives
  `L(R(L(i))) == L(i)` for i < size(L); `make_layout_like`, `make_fragment_like` and
  `make_ordered_layout` give "a compact layout" (their modes of non-zero stride map
  their coordinates one-to-one onto [0, n)).

Evaluation is CuTe's: colexicographic, C++'s truncating / and %, last mode unbounded.

    scripts/mark_wrong.py crates/kute/tests/data/*.tsv
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get('CUTE_ORACLE', os.path.join(HERE, '..', '..', 'shared', 'oracle')))
import cute_truth as ct  # noqa: E402


def pairs(L):
    return ct._pairs(L.shape, L.stride)

def ev(pr, x):
    idx = 0
    for k, (s, d) in enumerate(pr):
        if k + 1 == len(pr):
            return idx + x * d
        q = abs(x) // s
        q = q if x >= 0 else -q
        idx += (x - q * s) * d
        x = q
    return idx

def size(pr):
    n = 1
    for s, _ in pr: n *= s
    return n

def arg_layout(expr):
    m = re.match(r'^\w+\((.*)\)$', expr)
    return ct.literal(ct.parse_expr(m.group(1)))

def postcondition(expr, ans):
    op = expr.split('(')[0]
    A = ct.parse_answer(ans)
    if not isinstance(A, ct.Layout):
        return None
    if op == 'left_inverse':
        L = pairs(arg_layout(expr)); R = pairs(A)
        for i in range(size(L)):
            v = ev(L, i)
            if ev(L, ev(R, v)) != v:
                return f"L(R(L({i}))) = {ev(L, ev(R, v))} != L({i}) = {v}"
        return None
    if op in ('make_layout_like', 'make_fragment_like', 'make_ordered_layout'):
        nz = [(s, d) for s, d in pairs(A) if d != 0 and s != 1]
        n = size(nz)
        vals = sorted(ev(nz, i) for i in range(n)) if nz else [0]
        if vals != list(range(n)):
            return f"not compact: the non-zero-stride modes {nz} do not map onto [0,{n})"
        return None
    return None



def why_wrong(expr, ans):
    """Why CuTe's answer `ans` is not the true result of `expr`, or None."""
    # (cute_truth.py extends A to negative indices with floor division, where
    # CuTe's evaluation truncates, as CUTLASS's own composition tests pin down:
    # rows with negative integers are left to the tests' own truncating model)
    if not re.search(r'-\d', expr):
        try:
            r = ct.classify(expr, ans)
            if r['wrong']:
                return r['why']
        except Exception:
            pass
    return postcondition(expr, ans)


def mark(path):
    out, n = [], 0
    for line in open(path):
        line = line.rstrip('\n')
        if not line or line.startswith('#') or '\t' not in line:
            out.append(line)
            continue
        e, a = line.split('\t', 1)
        w = None if a == 'error' or a.startswith('cute-wrong:') else why_wrong(e, a)
        if w:
            n += 1
            print(os.path.basename(path), e, '|', w[:200], file=sys.stderr)
            line = e + '\tcute-wrong:' + a
        out.append(line)
    open(path, 'w').write('\n'.join(out) + '\n')
    print(path, 'newly marked', n)


if __name__ == '__main__':
    for p in sys.argv[1:]:
        mark(p)
