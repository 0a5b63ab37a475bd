"""Test vectors, answered by the CuTe oracle (found through CUTE_ORACLE), for
the calls the oracle's translator cannot write by itself:

  - `transform_layout(L, f)`, `transform_layout(L0, L1, f)` with `f` a function
    name: sent to CuTe as a generic lambda calling `f`;
  - `get_hier_coord(L, i)`, `get_flat_coord(L, i)`, `get_1d_coord(L, i)`: sent
    as the member functions `L.get_hier_coord(i)` ... that they are in CuTe;

and for `recast_layout<Old,New>(L)`, which it can. Each row is
`expression<TAB>CuTe's answer` for the all-static variant of the expression (the
oracle's default); expressions with run-time integers are compared by value.

    scripts/oracle_vectors.py transform_layout 11 > crates/kute/tests/data/transform_layout.tsv
    scripts/oracle_vectors.py recast_layout 12 > crates/kute/tests/data/recast_layout.tsv
    scripts/oracle_vectors.py coords 13 > crates/kute/tests/data/coords.tsv
"""
import os
import random
import subprocess
import sys
import tempfile

ORACLE = os.environ.get('CUTE_ORACLE', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'shared', 'oracle'))
sys.path.insert(0, ORACLE)
import expr2cxx  # noqa: E402

expr2cxx.MEMBER_FNS |= {"get_hier_coord", "get_flat_coord", "get_1d_coord"}

R = random.Random()


def split_args(text):
    """The top-level comma-separated arguments of `name(args)`."""
    inner = text[text.index('(') + 1:-1]
    out, depth, cur = [], 0, ''
    for ch in inner:
        if ch in '(<':
            depth += 1
        elif ch in ')>':
            depth -= 1
        if ch == ',' and depth == 0:
            out.append(cur)
            cur = ''
        else:
            cur += ch
    out.append(cur)
    return [a.strip() for a in out]


def to_cxx(e):
    if e.startswith('transform_layout('):
        args = split_args(e)
        f = args[-1]
        ops = [expr2cxx.translate(a) for a in args[:-1]]
        params = ', '.join(f'auto const& x{i}' for i in range(len(ops)))
        call = ', '.join(f'x{i}' for i in range(len(ops)))
        return f"transform_layout({', '.join(ops)}, []({params}) {{ return {f}({call}); }})"
    return expr2cxx.translate(e)


def ask(exprs):
    with tempfile.TemporaryDirectory() as wd:
        cases = os.path.join(wd, 'cases.tsv')
        with open(cases, 'w') as f:
            for e in exprs:
                f.write(f'{e}\t{to_cxx(e)}\n')
        out = os.path.join(wd, 'out.tsv')
        subprocess.run([sys.executable, os.path.join(ORACLE, 'cxx_oracle.py'), cases, out], check=True)
        return [line.rstrip('\n').split('\t', 1) for line in open(out)]


# ----- random operands ---------------------------------------------------------

def num(v, static=None):
    if static is None:
        static = R.random() < 0.6
    return f'_{v}' if static else str(v)


def text(t, static=None):
    if isinstance(t, int):
        return num(t, static)
    return '(' + ','.join(text(c, static) for c in t) + ')'


def flat(t):
    return [t] if isinstance(t, int) else [x for c in t for x in flat(c)]


def unflat(t, it):
    return next(it) if isinstance(t, int) else tuple(unflat(c, it) for c in t)


def rand_shape(depth=2, top=True, extents=(1, 2, 2, 3, 4, 4, 6, 8)):
    if depth == 0 or (not top and R.random() < 0.6) or (top and R.random() < 0.2):
        return R.choice(extents)
    rank = R.choice([1, 2, 2, 3]) if top else R.choice([2, 2, 3])
    return tuple(rand_shape(depth - 1, False, extents) for _ in range(rank))


def compact_strides(shape, order=None):
    ext = flat(shape)
    order = order if order is not None else list(range(len(ext)))
    d, acc = [0] * len(ext), 1
    for i in order:
        d[i] = acc
        acc *= ext[i]
    return unflat(shape, iter(d))


def rand_strides(shape):
    ext = flat(shape)
    r = R.random()
    if r < 0.6:
        order = list(range(len(ext)))
        if r < 0.35:
            R.shuffle(order)
        return compact_strides(shape, order)
    return unflat(shape, iter([R.choice([0, 1, 2, 3, 4, 6, 8, 12, 16]) for _ in ext]))


def layout(shape=None, stride=None, static=None):
    shape = rand_shape() if shape is None else shape
    stride = rand_strides(shape) if stride is None else stride
    return f'{text(shape, static)}:{text(stride, static)}', shape, stride


# ----- the three files -------------------------------------------------------------

UNARY = ['coalesce', 'filter', 'filter_zeros', 'flatten', 'make_layout', 'right_inverse', 'left_inverse',
         'make_layout_like', 'make_fragment_like', 'nullspace']
BINARY_LAYOUTS = ['composition', 'logical_divide', 'logical_product', 'blocked_product', 'raked_product',
                  'make_layout', 'zipped_divide', 'max_common_layout']
BINARY_PROFILE = ['coalesce', 'filter', 'filter_zeros', 'composition', 'logical_divide', 'complement']


def transform_layout_cases(n):
    out = [
        # hand-picked: CuTe's own by-mode uses and the leftover modes of either side
        'transform_layout(((_2,_4),(_3,_1)):((_1,_2),(_8,_0)),coalesce)',
        'transform_layout((_4,_6,_5):(_1,_4,_24),(_2,_3):(_2,_1),composition)',
        'transform_layout((_2,_3):(_2,_1),(_4,_6,_5):(_1,_4,_24),composition)',
        'transform_layout((_2,(_1,_6)):(_1,(_6,_2)),(_1,_1),coalesce)',
        'transform_layout((_2,(_1,_6)):(_1,(_6,_2)),(_1,_1,_1),coalesce)',
        'transform_layout((_4,_6):(_1,_4),(_2,_3,_4),coalesce)',
        'transform_layout(_8:_1,coalesce)',
        'transform_layout(8:1,coalesce)',
        'transform_layout(_8,make_layout)',
        'transform_layout((_2,(_3,_4)),make_layout)',
        'transform_layout((2,(3,4)),make_layout)',
        'transform_layout((_2,_3):(_1,_2),(_4,_5):(_2,_8),make_layout)',
        'transform_layout((_12,_8):(_1,_12),(_4,_2),logical_divide)',
        'transform_layout((_12,_8):(_1,_12),(_4,_2),complement)',
        'transform_layout((_4,_8):(_8,_1),right_inverse)',
        'transform_layout((_4,_8):(_2,_8),(_2,_4):(_1,_2),logical_product)',
        'transform_layout((_6,_4):(_4,_1),(_3,_2):(_2,_1),composition)',
        'transform_layout((_6,4):(_4,_1),(_3,2):(_2,_1),composition)',
        # f giving integers: CuTe's make_layout(shape) and make_layout(shape, stride) overloads
        'transform_layout(_8:_2,size)',
        'transform_layout((_4,_6):(_1,_4),size)',
        'transform_layout((_4,6):(_1,_4),cosize)',
        'transform_layout((_4,_6,_2):(_1,_4,_24),size)',
        'transform_layout((_4,_6):(_1,_4),(_2,_3):(_1,_2),size)',
        # not a function
        'transform_layout(_8:_1,_3)',
        'transform_layout(_8:_1,frobnicate)',
        'transform_layout(_8:_1,(_2,_4):(_1,_2))',
    ]
    while len(out) < n:
        k = R.random()
        a, sa, _ = layout()
        if k < 0.35:
            out.append(f'transform_layout({a},{R.choice(UNARY)})')
        elif k < 0.7:
            ra = 1 if isinstance(sa, int) else len(sa)
            shape_b = tuple(R.choice([1, 2, 2, 3, 4]) for _ in range(max(1, ra + R.choice([-1, 0, 0, 1]))))
            b, _, _ = layout(shape_b)
            out.append(f'transform_layout({a},{b},{R.choice(BINARY_LAYOUTS)})')
        else:
            ra = 1 if isinstance(sa, int) else len(sa)
            prof = tuple(R.choice([1, 2, 4]) for _ in range(max(1, ra + R.choice([-1, 0, 0, 1]))))
            out.append(f'transform_layout({a},{text(prof)},{R.choice(BINARY_PROFILE)})')
    return out


TYPES = ['uint1_t', 'bool', 'int2_t', 'uint4_t', 'int4_t', 'float_e2m1_t', 'int6_t', 'uint8_t', 'int8_t',
         'float_e4m3_t', 'char', 'uint16_t', 'half_t', 'bfloat16_t', 'int32_t', 'uint32_t', 'float', 'tfloat32_t',
         'int', 'double', 'int64_t', 'uint64_t', 'uint128_t', 'uint256_t']


def recast_layout_cases(n):
    out = [
        'recast_layout<uint8_t,uint32_t>((_4,_8):(_1,_4))',
        'recast_layout<uint32_t,uint8_t>((_4,_8):(_1,_4))',
        'recast_layout<half_t,half_t>((_4,_8):(_1,_4))',
        'recast_layout<half_t,bfloat16_t>((_4,_8):(_4,_1))',
        'recast_layout<int4_t,int6_t>((_12,_8):(_1,_12))',
        'recast_layout<int6_t,int4_t>((_12,_8):(_1,_12))',
        'recast_layout<uint8_t,uint128_t>((_32,_8):(_1,_32))',
        'recast_layout<uint8_t,uint128_t>((_32,_8):(_8,_1))',
        'recast_layout<uint128_t,uint8_t>((_2,_8):(_1,_2))',
        'recast_layout<half_t,float>((_3,_8):(_1,_3))',
        'recast_layout<float,half_t>((_4,_8):(_2,_8))',
        'recast_layout<float,half_t>((_4,_8):(_0,_1))',
        'recast_layout<uint8_t,uint32_t>((_4,_8):(_0,_1))',
        'recast_layout<uint8_t,uint32_t>((_4,_8):(_-1,_4))',
        'recast_layout<uint8_t,uint32_t>((4,8):(1,4))',
        'recast_layout<uint32_t,uint8_t>((4,8):(1,4))',
        'recast_layout<uint8_t,uint32_t>(_16:_1)',
        'recast_layout<uint8_t,uint32_t>(_16:_3)',
        'recast_layout<uint1_t,uint256_t>(_1024:_1)',
        'recast_layout<bool,uint8_t>(_1024:_1)',
    ]
    while len(out) < n:
        sh = rand_shape(extents=(1, 2, 4, 4, 6, 8, 16, 32))
        l, _, _ = layout(sh)
        out.append(f'recast_layout<{R.choice(TYPES)},{R.choice(TYPES)}>({l})')
    return out


def coords_cases(n):
    out = [
        'get_hier_coord((_2,(_3,_4)):(_12,(_1,_3)),_17)',
        'get_flat_coord((_2,(_3,_4)):(_12,(_1,_3)),_17)',
        'get_1d_coord((_2,(_3,_4)):(_12,(_1,_3)),_17)',
        'get_hier_coord((_4,_8):(_8,_1),_13)',
        'get_hier_coord((_4,_8):(_8,_1),13)',
        'get_hier_coord(_8:_1,_5)',
        'get_flat_coord(_8:_1,_5)',
        'get_1d_coord(_8:_1,_5)',
        'get_flat_coord((_8):(_1),_5)',
        'get_hier_coord((_4,_8):(_1,_4),_40)',
        'get_hier_coord((_4,_8):(_1,_4),_-3)',
        'get_hier_coord((_4,_1):(_1,_0),_3)',
        'get_hier_coord((_4,_2):(_1,_0),_3)',
        'get_hier_coord((4,2):(1,0),3)',
        'get_flat_coord(((_2,_2),(_3,_2)):((_1,_6),(_2,_12)),_23)',
        'get_1d_coord(((_2,_2),(_3,_2)):((_1,_6),(_2,_12)),_23)',
        'get_hier_coord(make_identity_layout((_4,_8)),_3)',
    ]
    names = ['get_hier_coord', 'get_flat_coord', 'get_1d_coord']
    while len(out) < n:
        sh = rand_shape()
        l, sh, st = layout(sh, compact_strides(sh, R.sample(range(len(flat(sh))), len(flat(sh)))))
        size = 1
        for x in flat(sh):
            size *= x
        i = R.choice([R.randrange(size), R.randrange(size), size + R.randrange(5), -R.randrange(1, 5)])
        out.append(f'{R.choice(names)}({l},{num(i)})')
    return out


def main():
    what, seed = sys.argv[1], int(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    R.seed(seed)
    gen = {'transform_layout': transform_layout_cases, 'recast_layout': recast_layout_cases,
           'coords': coords_cases}[what]
    exprs = list(dict.fromkeys(gen(n)))
    for e, a in ask(exprs):
        print(f'{e}\t{a}')


if __name__ == '__main__':
    main()
