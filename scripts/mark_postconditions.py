"""Mark rows whose CuTe answer breaks CuTe's own documented postcondition
(independent checker, exact Python ints; no kute code):
- left_inverse(L) = R: CuTe documents layout(R(layout(i))) == layout(i) for i < size.
- make_layout_like / make_fragment_like / make_ordered_layout: CuTe documents "a compact
  layout": its modes of non-zero stride must map their coordinates one-to-one onto [0, n).
Evaluation is CuTe's: colexicographic, C++ truncating / and %, last mode unbounded."""
import sys, re
import os
sys.path.insert(0, os.environ.get('CUTE_ORACLE', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'shared', 'oracle')))
import cute_truth as ct

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

def wrong(expr, ans):
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

for path in sys.argv[1:]:
    out = []; n = 0
    for line in open(path):
        line = line.rstrip('\n')
        if not line or line.startswith('#') or '\t' not in line:
            out.append(line); continue
        e, a = line.split('\t', 1)
        if a == 'error' or a.startswith('cute-wrong:'):
            out.append(line); continue
        w = wrong(e, a)
        if w:
            n += 1
            print(path.split('/')[-1], e, '|', w[:150], file=sys.stderr)
            out.append(e + '\tcute-wrong:' + a)
        else:
            out.append(line)
    open(path, 'w').write('\n'.join(out) + '\n')
    print(path, 'newly marked', n)
