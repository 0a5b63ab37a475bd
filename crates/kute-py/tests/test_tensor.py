"""kute.Tensor over numpy arrays and DLPack buffers: every element checked against the
buffer's element at the offset computed here, from the layout's own formula (the
colexicographic coordinate of a 1-D index, dotted with the strides), not by kute."""

import io
import random
import contextlib

import pytest

import kute

np = pytest.importorskip("numpy", reason="kute.Tensor needs numpy")

DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.bool_]


# ---------------------------------------------------------------- the layout's formula, independently


def leaves(x):
    return [y for z in x for y in leaves(z)] if isinstance(x, tuple) else [x]


def size(shape):
    n = 1
    for s in leaves(shape):
        n *= s
    return n


def offset(shape, stride, i):
    """The offset of 1-D coordinate i: colexicographic (first leaf fastest)."""
    off = 0
    for s, d in zip(leaves(shape), leaves(stride)):
        off += (i % s) * d
        i //= s
    return off


def natural(shape, i):
    """The natural (hierarchical) coordinate of 1-D index i."""
    if isinstance(shape, tuple):
        out = []
        for s in shape:
            out.append(natural(s, i % size(s)))
            i //= size(s)
        return tuple(out)
    return i


def cosize(shape, stride):
    return 1 + sum((s - 1) * d for s, d in zip(leaves(shape), leaves(stride)))


def random_shape(rng, depth=2):
    if depth == 0 or rng.random() < 0.4:
        return rng.randint(1, 4)
    return tuple(random_shape(rng, depth - 1) for _ in range(rng.randint(1, 3)))


def random_stride(rng, shape):
    if isinstance(shape, tuple):
        return tuple(random_stride(rng, s) for s in shape)
    return rng.choice([0, 1, 1, 2, 3, 4, 7])


def cases(n, seed):
    rng = random.Random(seed)
    for _ in range(n):
        shape = random_shape(rng)
        if not isinstance(shape, tuple):
            shape = (shape,)
        stride = random_stride(rng, shape)
        yield rng, shape, stride


# ---------------------------------------------------------------- reading and writing


@pytest.mark.parametrize("dtype", DTYPES)
def test_elements_match_the_layout_formula(dtype):
    for rng, shape, stride in cases(60, DTYPES.index(dtype)):
        n = cosize(shape, stride) + rng.randint(0, 3)
        buf = (np.arange(n) % 120).astype(dtype)
        t = kute.Tensor(buf, kute.Layout(shape, stride))
        assert t.size() == size(shape)
        assert t.dtype == buf.dtype
        for i in range(size(shape)):
            want = buf[offset(shape, stride, i)]
            assert t[i] == want and t(i) == want
            assert t[natural(shape, i)] == want
        # to_numpy: one axis per leaf, element (i0, i1, ...) at the formula's offset
        got = t.to_numpy()
        assert got.dtype == buf.dtype and got.shape == tuple(leaves(shape))
        offs = np.array([offset(shape, stride, i) for i in range(size(shape))])
        assert np.array_equal(got.reshape(-1, order="F"), buf[offs])
        assert np.array_equal(t.to_numpy(shape="size"), buf[offs])
        assert t.to_numpy(shape="modes").shape == tuple(size(s) for s in shape)
        assert list(t) == list(buf[offs])


def test_writes_land_at_the_layout_offsets():
    for rng, shape, stride in cases(80, 7):
        n = cosize(shape, stride)
        buf = np.zeros(n, dtype=np.int64)
        t = kute.Tensor(buf, kute.Layout(shape, stride))
        i = rng.randrange(size(shape))
        t[natural(shape, i)] = 41
        want = np.zeros(n, dtype=np.int64)
        want[offset(shape, stride, i)] = 41
        assert np.array_equal(buf, want)
        t[i] = 5
        assert buf[offset(shape, stride, i)] == 5


def test_fill_and_writes_through_views():
    a = np.zeros((4, 6), dtype=np.float32)
    t = kute.Tensor(a, kute.Layout((4, 6), (6, 1)))  # row-major, as numpy's C order
    t[2, None] = 7.5  # a row
    t[None, 4] = np.arange(4)  # a column, in the order of its coordinates
    want = np.zeros((4, 6), dtype=np.float32)
    want[2, :] = 7.5
    want[:, 4] = np.arange(4)
    assert np.array_equal(a, want)
    t.fill(1)
    assert (a == 1).all()


def test_slices_are_views_at_an_offset():
    for rng, shape, stride in cases(80, 11):
        if len(shape) < 2:
            continue
        buf = np.arange(cosize(shape, stride), dtype=np.int32)
        t = kute.Tensor(buf, kute.Layout(shape, stride))
        # fix mode 0 at a natural coordinate, keep the others
        c0 = natural(shape[0], rng.randrange(size(shape[0])))
        sub = t[(c0,) + (None,) * (len(shape) - 1)]
        assert isinstance(sub, kute.Tensor)
        rest_shape, rest_stride = shape[1:], stride[1:]
        base = sum(c * d for c, d in zip(leaves(c0), leaves(stride[0])))
        assert sub.offset == base
        for j in range(size(rest_shape)):
            assert sub[j] == buf[base + offset(rest_shape, rest_stride, j)]
        # ':' slices as None does
        assert np.array_equal(t[(c0,) + (slice(None),) * (len(shape) - 1)].to_numpy(), sub.to_numpy())


def test_transposes_through_layouts():
    a = np.arange(12, dtype=np.float64).reshape(3, 4)  # C order
    t = kute.Tensor(a, kute.Layout((3, 4), (4, 1)))
    assert np.array_equal(t.to_numpy(), a)
    tt = kute.Tensor(a, kute.Layout((4, 3), (1, 4)))
    assert np.array_equal(tt.to_numpy(), a.T)
    # a Fortran-order array: its elements in memory order
    f = np.asfortranarray(a)
    assert np.array_equal(kute.Tensor(f, kute.Layout((3, 4), (1, 3))).to_numpy(), a)
    # from_numpy: the array's own strides, also for a strided (non-contiguous) view
    assert np.array_equal(kute.Tensor.from_numpy(a).to_numpy(), a)
    assert np.array_equal(kute.Tensor.from_numpy(a.T).to_numpy(), a.T)
    v = np.arange(40, dtype=np.int16).reshape(5, 8)[1:4, ::2]
    tv = kute.Tensor.from_numpy(v)
    assert str(tv.layout) == "(3,4):(8,2)"
    assert np.array_equal(tv.to_numpy(), v)
    tv[2, 3] = -1
    assert v[2, 3] == -1
    with pytest.raises(ValueError, match="negative strides"):
        kute.Tensor.from_numpy(a[::-1])


def test_offsets_and_negative_strides():
    a = np.arange(10, dtype=np.int64)
    r = kute.Tensor(a, kute.Layout(4, -2), offset=7)  # a[7], a[5], a[3], a[1]
    assert r.offset == 7 and list(r) == [7, 5, 3, 1]
    assert np.array_equal(r.to_numpy(), a[7::-2])
    t = kute.Tensor(a, kute.Layout((2, 3), (3, 1)), offset=4)
    assert t[1, 2] == a[4 + 3 + 2]
    with pytest.raises(ValueError, match="at offset 8 reaches positions 8 to 14"):
        kute.Tensor(a, kute.Layout(4, 2), offset=8)
    with pytest.raises(ValueError, match="reaches positions -6 to 0"):
        kute.Tensor(a, kute.Layout(4, -2))
    with pytest.raises(TypeError):
        kute.Tensor(a, 4, offset=1.5)


def test_swizzled_layouts():
    sw = kute.Swizzle(2, 0, 2)  # x ^ ((x >> 2) & 3)
    c = kute.eval("composition(S, L)", S=sw, L=kute.Layout((4, 4), (4, 1)))
    a = np.arange(16, dtype=np.int32)
    t = kute.Tensor(a, c)
    for i in range(4):
        for j in range(4):
            x = 4 * i + j
            assert t[i, j] == a[x ^ ((x >> 2) & 3)]


def test_copy_round_trips():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((8, 6)).astype(np.float32)
    src = kute.Tensor(a, kute.Layout((8, 6), (6, 1)))
    b = np.zeros(48, dtype=np.float32)
    dst = kute.Tensor(b, kute.Layout((8, 6), (1, 8)))  # column-major
    kute.copy(src, dst)
    assert np.array_equal(b.reshape(6, 8).T, a)
    back = np.zeros_like(a)
    kute.copy(dst, kute.Tensor(back, kute.Layout((8, 6), (6, 1))))
    assert np.array_equal(back, a)
    # a dtype conversion, as an assignment
    c = np.zeros(48, dtype=np.float64)
    kute.copy(src, kute.Tensor(c, (8, 6)))
    assert np.array_equal(c.reshape(6, 8).T, a.astype(np.float64))
    with pytest.raises(ValueError, match="48 element"):
        kute.copy(src, kute.Tensor(np.zeros(10), 10))
    with pytest.raises(TypeError):
        kute.copy(a, dst)


# ---------------------------------------------------------------- partitions, against numpy slicing


def grid(m, n):
    a = np.arange(m * n, dtype=np.int32).reshape(m, n)
    return a, kute.Tensor(a, kute.Layout((m, n), (n, 1)))


def test_local_tile_is_a_block():
    a, t = grid(8, 12)
    for i in range(2):
        for j in range(4):
            tile = kute.local_tile(t, (4, 3), (i, j))
            assert isinstance(tile, kute.Tensor)
            assert np.array_equal(tile.to_numpy(), a[4 * i : 4 * i + 4, 3 * j : 3 * j + 3])


def test_local_partition_is_a_strided_slice():
    a, t = grid(8, 12)
    thr = kute.Layout((2, 4), (4, 1))  # thread k at (k // 4, k % 4)
    for k in range(8):
        p = kute.local_partition(t, thr, k)
        assert np.array_equal(p.to_numpy(), a[k // 4 :: 2, k % 4 :: 4])


def test_divides_of_a_tensor():
    a, t = grid(4, 6)
    z = kute.zipped_divide(t, (2, 3))
    assert str(z.layout) == "((2,3),(2,2)):((6,1),(12,3))"
    for tm in range(2):
        for tn in range(3):
            for rm in range(2):
                for rn in range(2):
                    assert z[(tm, tn), (rm, rn)] == a[2 * rm + tm, 3 * rn + tn]
    d = kute.logical_divide(t, (2, 3))
    assert d[(1, 1), (2, 1)] == a[1 + 2 * 1, 2 + 3 * 1]
    assert kute.size(t) == 24 and kute.shape(t) == (4, 6) and kute.rank(t) == 2
    # composition with a thread-value layout: thread t's values
    tv = kute.composition(t, kute.Layout((2, 3), (1, 4)))  # index i + 4 j of t's domain
    assert np.array_equal(tv.to_numpy(), np.array([[a[i % 4, (i // 4)] for i in (0 + 4 * j, 1 + 4 * j)] for j in range(3)]).T)


def test_tiles_past_the_buffer_can_be_formed_not_read():
    a, t = grid(10, 10)
    tile = kute.local_tile(t, (3, 3), (3, 3))  # rows and columns 9 to 11: only (9, 9) is there
    assert tile[0, 0] == a[9, 9]
    with pytest.raises(IndexError, match="outside the buffer of 100"):
        tile[1, 0]
    with pytest.raises(IndexError):
        tile.to_numpy()
    with pytest.raises(IndexError):
        tile[0, 1] = 5
    assert a.sum() == sum(range(100))  # nothing written
    # a position below the buffer is refused, not counted from the end as numpy would
    r = kute.composition(kute.Tensor(np.arange(4), 2), kute.Layout(2, -1))
    assert str(r.layout) == "2:-1" and r[0] == 0
    with pytest.raises(IndexError, match="position -1"):
        r[1]
    with pytest.raises(ValueError, match="offset 9 is outside"):
        kute.Tensor(np.arange(4), 1, offset=9)
    with pytest.raises(IndexError):
        t[2**70]


def test_identity_tensor():
    c = kute.make_identity_tensor((4, 6))
    assert c[1, 2] == (1, 2) and c[13] == (1, 3)
    tile = kute.local_tile(c, (2, 3), (1, 1))
    assert isinstance(tile, kute.IdentityTensor)
    assert [tile[i] for i in range(6)] == [(2 + i % 2, 3 + i // 2) for i in range(6)]


# ---------------------------------------------------------------- printing


def fmt(v, dtype):
    if np.dtype(dtype).kind == "f":
        return "%11.3e" % v if np.dtype(dtype).itemsize == 8 else "%10.2e" % v
    if np.dtype(dtype).kind == "b":
        return "%3d" % int(v)
    return "%5d" % v


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int32, np.uint8, np.bool_])
def test_print_tensor(dtype):
    a = (np.arange(6) % 5).astype(dtype)
    t = kute.Tensor(a, kute.Layout((2, 3), (3, 1)))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        kute.print_tensor(t)
    lines = out.getvalue().split("\n")
    addr = a.__array_interface__["data"][0]
    assert lines[0] == "ptr[%db](%s) o (2,3):(3,1):" % (8 * a.itemsize, hex(addr))
    assert lines[1:] == ["".join(fmt(a[3 * i + j], dtype) for j in range(3)) for i in range(2)] + [""]
    # a rank-1 tensor: one element a line; a slice's pointer moves
    row = t[1, None]
    assert row.table().split("\n")[0] == "ptr[%db](%s) o (3):(1):" % (8 * a.itemsize, hex(addr + 3 * a.itemsize))
    assert row.table().split("\n")[1:] == [fmt(a[3 + j], dtype) for j in range(3)] + [""]


# ---------------------------------------------------------------- DLPack sources and errors


class DLPackOnly:
    """An object that offers only the DLPack protocol (as a foreign library's array)."""

    def __init__(self, array, device=(1, 0)):
        self._a, self._dev = array, device

    def __dlpack__(self, **kwargs):
        return self._a.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._dev


def test_dlpack_source():
    a = np.arange(12, dtype=np.float32)
    t = kute.Tensor(DLPackOnly(a), kute.Layout((3, 4), (4, 1)))
    assert np.array_equal(t.to_numpy(), a.reshape(3, 4))
    assert t[2, 1] == 9.0
    assert kute.make_tensor(np.from_dlpack(a), (12,))[5] == 5.0


def test_device_buffer_is_refused():
    with pytest.raises(ValueError, match="CPU memory only"):
        kute.Tensor(DLPackOnly(np.zeros(4), device=(2, 0)), 4)


def test_torch_cpu_tensor():
    torch = pytest.importorskip("torch", reason="torch is not installed")
    x = torch.arange(24, dtype=torch.float32)
    t = kute.Tensor(x, kute.Layout((4, 6), (1, 4)))
    assert t[1, 2] == 9.0
    t[0, 0] = 100.0  # a view: torch sees the write
    assert float(x[0]) == 100.0


def test_errors():
    with pytest.raises(ValueError, match=r"\(4,6\):\(6,1\).*buffer of 10"):
        kute.Tensor(np.zeros(10), kute.Layout((4, 6), (6, 1)))
    with pytest.raises(TypeError, match="numpy array or an object with __dlpack__"):
        kute.Tensor([1, 2, 3], 3)
    with pytest.raises(ValueError, match="not contiguous"):
        kute.Tensor(np.zeros((4, 4))[:, ::2], 8)
    t = kute.Tensor(np.zeros(6), kute.Layout((2, 3), (3, 1)))
    with pytest.raises(IndexError):
        t[6]
    with pytest.raises(IndexError):
        t[2, 0]
    with pytest.raises(IndexError):
        t[-1]
    with pytest.raises(TypeError):
        t[0:2]
    with pytest.raises(TypeError):
        t["1"]
    assert t[np.int64(4)] == 0 and t[np.int32(1), np.int64(2)] == 0
    with pytest.raises(TypeError):
        kute.print_tensor(kute.Tensor(np.zeros(4, dtype=np.complex64), 4))
