#!/usr/bin/env python3
"""Test vectors of nested expressions (the result of one operation as an operand of
the next), answered by the CuTe oracle (found through CUTE_ORACLE):

    scripts/nested_vectors.py algebra SEED COUNT > crates/kute/tests/data/nested_algebra.tsv
    scripts/nested_vectors.py basis SEED COUNT > crates/kute/tests/data/nested_basis.tsv

`algebra`: integer layouts through coalesce, complement, the inverses, filter, flatten,
composition, the divides and the products, up to three deep. `basis`: coordinate
layouts (`make_identity_layout`) divided, coalesced, flattened, composed with an
integer layout, sliced and evaluated. Every integer is static, so kute must print
CuTe's answer exactly.

A row whose answer CuTe got wrong is written `cute-wrong:<CuTe's answer>`. Every call
in the expression is judged on its own, bottom up, its operands replaced by CuTe's
answers for them (asked of the oracle): a wrong answer anywhere below makes the whole
row's answer wrong. The judges are independent of kute: for integer layouts those of
scripts/mark_wrong.py (cute_truth.py's true composite, CuTe's documented
postconditions); for coordinate layouts the oracle's vocab_truth.py, and, for
`composition(A, B)` with a coordinate layout `A`, `R(i) == A(B(i))` for every `i` below
`size(B)` wherever `B(i)` is inside `A`'s domain. A coordinate-layout row with a call
no judge can decide, where kute's answer differs from CuTe's, is left out (listed on
standard error): it would test only what kute prints. An integer call the judges of
mark_wrong.py do not cover (coalesce, complement, filter, flatten, right_inverse) counts as
right, so a disagreement there stays in the file and fails the test.
"""
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.environ.get('CUTE_ORACLE', os.path.join(HERE, '..', '..', 'shared', 'oracle'))
sys.path.insert(0, ORACLE)
sys.path.insert(0, HERE)
import mark_wrong  # noqa: E402
from oracle_vectors import split_args  # noqa: E402
import vocab_truth as vt  # noqa: E402

KUTE = os.environ.get('KUTE', os.path.join(HERE, '..', 'target', 'release', 'kute'))
R = random.Random()


# ---------------------------------------------------------------- the expressions

def ext():
    return R.choice([1, 2, 2, 2, 3, 4, 4, 4, 6, 8, 8, 16])


def shape(d=2, top=True):
    if d == 0 or (not top and R.random() < 0.6):
        return ext()
    if top and R.random() < 0.25:
        return ext()
    return tuple(shape(d - 1, False) for _ in range(R.choice([2, 2, 3])))


def flat(t):
    return [t] if isinstance(t, int) else [x for c in t for x in flat(c)]


def show(t):
    return f"_{t}" if isinstance(t, int) else "(" + ",".join(show(c) for c in t) + ")"


def rebuild(s, vals):
    it = iter(vals)

    def go(t):
        return next(it) if isinstance(t, int) else tuple(go(c) for c in t)
    return go(s)


def strides(s, kind):
    f = flat(s)
    if kind == 'rand':
        return [R.choice([0, 1, 2, 3, 4, 8, 16, 32]) for _ in f]
    order = list(range(len(f)))
    if kind in ('perm', 'zero'):
        R.shuffle(order)
    st, cur = [0] * len(f), 1
    for i in order:
        st[i] = cur if f[i] != 1 else R.choice([0, cur])
        cur *= f[i]
    if kind == 'zero':
        st[R.randrange(len(st))] = 0
    return st


def layout(kind=None, s=None):
    s = shape() if s is None else s
    kind = kind or R.choice(['compact', 'perm', 'perm', 'rand', 'zero'])
    return f"{show(s)}:{show(rebuild(s, strides(s, kind)))}"


def tiler():
    r = R.random()
    if r < 0.5:
        return layout(R.choice(['compact', 'perm']))
    if r < 0.6:
        return f"_{ext()}"
    parts = [R.choice([layout('compact'), f"_{ext()}", "_"]) for _ in range(R.choice([1, 2, 2]))]
    return "<" + ",".join(parts) + ">"


BINARY = ['composition', 'logical_divide', 'zipped_divide', 'tiled_divide', 'flat_divide',
          'logical_product', 'zipped_product', 'tiled_product', 'flat_product',
          'blocked_product', 'raked_product']
UNARY = ['coalesce', 'right_inverse', 'left_inverse', 'filter', 'flatten', 'complement']


def algebra_expr(d):
    if d == 0:
        return layout()
    if R.random() < 0.6:
        op = R.choice(BINARY)
        a = algebra_expr(d - 1) if R.random() < 0.6 else layout()
        if op in ('blocked_product', 'raked_product'):
            b = layout('compact')
        elif op == 'composition':
            b = algebra_expr(d - 1) if R.random() < 0.4 else tiler()
        else:
            b = tiler() if R.random() < 0.7 else algebra_expr(d - 1)
        return f"{op}({a},{b})"
    op = R.choice(UNARY)
    a = algebra_expr(d - 1)
    if op == 'complement' and R.random() < 0.5:
        return f"complement({a},_{R.choice([16, 32, 64, 128, 256])})"
    return f"{op}({a})"


def basis_expr():
    def e():
        return R.choice([2, 2, 3, 4, 4, 4, 6, 8, 8, 16])
    r = R.random()
    s = (e(), e()) if r < 0.6 else (e(), (e(), e())) if r < 0.8 else (e(), e(), e())
    ident = f"make_identity_layout({show(s)})"
    sizes = [1] * len(s)
    for i, m in enumerate(s):
        for x in flat(m):
            sizes[i] *= x

    def divisor(n):
        return R.choice([d for d in range(1, n + 1) if n % d == 0])
    parts = []
    for n in sizes[:R.randrange(1, len(s) + 1)]:
        r = R.random()
        d = divisor(n)
        if r < 0.6:
            parts.append(f"_{d}")
        elif r < 0.8:
            parts.append("_")
        else:
            parts.append(f"_{d}:_{R.choice([1, 1, 2]) if n % (2 * d) == 0 else 1}")
    op = R.choice(['logical_divide', 'zipped_divide', 'tiled_divide', 'flat_divide', 'composition'])
    x = f"{op}({ident},<{','.join(parts)}>)"
    r = R.random()
    if r < 0.3:
        return x
    if r < 0.5:
        return f"{R.choice(['coalesce', 'flatten'])}({x})"
    if r < 0.7:
        total = 1
        for n in sizes:
            total *= n
        b = layout('compact', divisor(total) if R.random() < 0.5 else (e(), e()))
        return f"composition({x},{b})"
    if r < 0.85 and op == 'zipped_divide':
        return f"{x}(_,_{R.randrange(2)})"
    if r < 0.85 and op == 'tiled_divide':
        return f"{x}(_,_0)"
    if R.random() < 0.5:
        return f"{R.choice(['zipped_divide', 'logical_divide'])}({x},<_>)"
    return f"{x}(_{R.randrange(4)})"


# ---------------------------------------------------------------- structure of an expression

def close_of(s, i):
    """The index of the bracket closing the one at s[i]."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] in '(<':
            depth += 1
        elif s[j] in ')>':
            depth -= 1
            if depth == 0:
                return j
    raise ValueError(s)


def node(text):
    """(name, args, post) for `name(args)` with an optional application `(post)`
    after it (`post` None without one), else None (a literal)."""
    m = re.match(r'^([a-z_]\w*)\(', text)
    if not m or m.group(1) == 'make_identity_layout':
        return None
    i = m.end() - 1
    j = close_of(text, i)
    post = None
    if j + 1 < len(text):
        assert text[j + 1] == '(' and text.endswith(')'), text
        post = text[j + 2:-1]
    return (m.group(1), split_args(text[:j + 1]), post)


def call_text(name, args):
    return f"{name}({','.join(args)})"


def calls(text):
    """Every call in `text`, innermost first (each a text of its own)."""
    n = node(text)
    if n is None:
        return []
    name, args, post = n
    out = [c for a in args for c in calls(a)]
    out.append(call_text(name, args))
    if post is not None:
        out.append(text)
    return out


# ---------------------------------------------------------------- oracle and judges

def oracle(exprs):
    exprs = sorted(set(exprs))
    p = subprocess.run([sys.executable, os.path.join(ORACLE, 'cute.py'), 'eval', '-'],
                       input='\n'.join(exprs) + '\n', capture_output=True, text=True, check=True)
    got = dict(line.split('\t', 1) for line in p.stdout.splitlines() if '\t' in line)
    missing = [e for e in exprs if e not in got]
    if missing:
        sys.exit(f"nested_vectors.py: the oracle did not answer {len(missing)} expressions, e.g. {missing[0]}")
    return got


def literal_node(text, answers):
    """`text` with the operands that are calls replaced by CuTe's answers for them."""
    name, args, post = node(text)
    lits = [answers[a] if node(a) is not None else a for a in args]
    if any(x == 'error' for x in lits):
        return None
    if post is None:
        return call_text(name, lits)
    # an application: CuTe's answer for the function, applied (none if CuTe rejects it)
    function = answers[call_text(name, args)]
    return None if function == 'error' else f"{function}({post})"


def basis_composition(expr, answer):
    """For `composition(A, B)` with coordinate strides in `A`: (verdict, why)."""
    m = node(expr)
    if m is None or m[0] != 'composition' or len(m[1]) != 2 or m[2] is not None:
        return None, ''
    try:
        A, B, Rl = vt.lit(vt.parse(m[1][0])), vt.lit(vt.parse(m[1][1])), vt.answer_value(answer)
    except Exception:
        return None, ''
    if not isinstance(A, vt.Layout) or not isinstance(B, vt.Layout) or not vt._has_basis(A):
        return None, ''
    if vt._has_basis(B) or not isinstance(Rl, vt.Layout) or vt.size_of(Rl) != vt.size_of(B):
        return None, ''
    for i in range(vt.size_of(B)):
        b = vt.apply(B, i)
        if not isinstance(b, int) or not 0 <= b < vt.size_of(A):
            return None, ''
        if not vt.same(vt.apply(Rl, i), vt.apply(A, b)):
            return False, f"A o B: at {i} the answer holds {vt.fmt(vt.apply(Rl, i))}, A(B({i})) is {vt.fmt(vt.apply(A, b))}"
    return True, ''


def judge(expr, answer):
    """Why CuTe's `answer` for the call `expr` (literal operands) is wrong; None if not
    wrong; '?' if no judge could say."""
    if answer == 'error':
        return None
    if '@' in expr or 'make_identity_layout' in expr or '@' in answer:
        for check in (vt.check, basis_composition):
            v, why = check(expr, answer)
            if v is False:
                return why or 'wrong'
            if v is True:
                return None
        return '?'
    why = mark_wrong.why_wrong(expr, answer)
    return why


def kute_eval(exprs):
    if not os.access(KUTE, os.X_OK):
        sys.exit(f"nested_vectors.py: no kute binary at {KUTE} (cargo build --release, or set KUTE)")
    p = subprocess.run([KUTE, 'eval', '-'], input='\n'.join(exprs) + '\n', capture_output=True, text=True)
    return p.stdout.split('\n')[:len(exprs)]


def main():
    kind, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    R.seed(seed)
    gen = (lambda: algebra_expr(R.choice([1, 2, 2, 3]))) if kind == 'algebra' else basis_expr
    exprs, seen = [], set()
    while len(exprs) < count:
        e = gen()
        if len(e) < 300 and e not in seen:
            seen.add(e)
            exprs.append(e)
    subs = {c for e in exprs for c in calls(e)}
    answers = oracle(subs)
    # the calls with their operands replaced by CuTe's answers (asked in a second round)
    lit = {c: literal_node(c, answers) for c in subs}
    answers.update(oracle([x for x in lit.values() if x is not None and x not in answers]))
    kute = dict(zip(exprs, kute_eval(exprs)))
    print(f"# scripts/nested_vectors.py {kind} {seed} {count}: expression<TAB>CuTe's answer (all static)")
    left_out = 0
    for e in exprs:
        verdicts = []
        for c in calls(e):
            x = lit[c]
            verdicts.append('?' if x is None else judge(x, answers[x]))
        wrong = [v for v in verdicts if v not in (None, '?')]
        a = answers[e]
        if wrong:
            print(f"{e}\tcute-wrong:{a}")
        elif '?' in verdicts and a != 'error' and kute[e] != a:
            left_out += 1
            print(f"left out (no judge; kute answers {kute[e][:120]}): {e}\t{a}", file=sys.stderr)
        else:
            print(f"{e}\t{a}")
    print(f"{left_out} rows left out", file=sys.stderr)


if __name__ == '__main__':
    main()
