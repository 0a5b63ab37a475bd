"""kute.Tensor: CuTe's tensors over numpy arrays and DLPack buffers (CPU memory).

A tensor is a buffer (the elements of a numpy array in memory order, or of any object
with ``__dlpack__``, read through ``numpy.from_dlpack``) seen through a kute layout:
the element at coordinate ``c`` is the buffer's element at ``offset + layout(c)``,
counted in elements of the buffer's dtype. Beside the buffer the tensor keeps kute's
counting tensor of the same layout and offset (``make_tensor(counting, L)``), whose
element at ``c`` is that position: slices, divides and partitions are kute's own,
computed on it, and a sub-tensor is a view of the same buffer.
"""

import inspect as _inspect

from . import _kute
from ._kute import KuteError, Layout, Value

# the DLPack device type of CPU memory
_DL_CPU = 1
_DL_DEVICES = {
    2: "a CUDA device",
    3: "CUDA pinned host memory",
    4: "an OpenCL device",
    7: "a Vulkan device",
    8: "a Metal device",
    10: "a ROCm device",
    11: "ROCm pinned host memory",
    13: "CUDA managed memory",
    14: "a oneAPI device",
}


def _numpy():
    try:
        import numpy
    except ImportError:  # pragma: no cover (the tests need numpy)
        raise ImportError("kute.Tensor needs numpy (pip install numpy)") from None
    return numpy


def _as_array(buffer):
    """The numpy array of a numpy array or of a DLPack object in CPU memory."""
    np = _numpy()
    if isinstance(buffer, np.ndarray):
        return buffer
    if isinstance(buffer, Tensor):
        raise TypeError("kute.Tensor: the buffer is a kute.Tensor; slice it, or pass its buffer (t.buffer)")
    if not hasattr(buffer, "__dlpack__"):
        raise TypeError(
            "kute.Tensor: the buffer must be a numpy array or an object with __dlpack__ (in CPU memory), not %s"
            % type(buffer).__name__
        )
    if hasattr(buffer, "__dlpack_device__"):
        dev, ident = buffer.__dlpack_device__()
        if int(dev) != _DL_CPU:
            where = _DL_DEVICES.get(int(dev), "device type %d" % int(dev))
            raise ValueError(
                "kute.Tensor: the buffer is in %s (DLPack device (%d, %d)); kute reads CPU memory only: "
                "copy it to the host first (torch: t.cpu(), cupy: t.get())" % (where, int(dev), int(ident))
            )
    try:
        return np.from_dlpack(buffer)
    except (BufferError, TypeError, RuntimeError) as e:
        raise ValueError("kute.Tensor: numpy cannot read the DLPack buffer: %s" % e) from e


def _flat(array):
    """The elements of an array in memory order, as a 1-D view (no copy)."""
    if array.ndim == 0:
        return array.reshape(1)
    if array.flags.c_contiguous:
        return array.reshape(-1)
    if array.flags.f_contiguous:
        return array.reshape(-1, order="F")
    raise ValueError(
        "kute.Tensor: the array of shape %s and strides %s is not contiguous: a layout's offsets count "
        "elements of contiguous memory. Tensor.from_numpy(array) views a strided array through its own "
        "strides; numpy.ascontiguousarray(array) is a contiguous copy" % (array.shape, array.strides)
    )


def _leaves(x):
    if isinstance(x, tuple):
        out = []
        for y in x:
            out.extend(_leaves(y))
        return out
    return [x]


def _as_layout(layout):
    """A layout operand: a Layout, a composed layout (a Value), a shape (int or
    tuple: CuTe's compact column-major layout, as ``make_tensor(ptr, shape)``)
    or a string."""
    if isinstance(layout, (Layout, Value)):
        return layout
    if isinstance(layout, bool):
        raise TypeError("kute.Tensor: the layout must be a kute.Layout, a shape or a string, not a bool")
    if isinstance(layout, (int, tuple, str)):
        return Layout(layout)
    raise TypeError("kute.Tensor: the layout must be a kute.Layout, a shape or a string, not %s" % type(layout).__name__)


def _counting(layout, offset=0):
    try:
        return _kute._counting_tensor(layout, offset)
    except TypeError:
        raise TypeError("kute.Tensor: %s is not a layout of a tensor" % (layout,)) from None


def _span(layout, pos, offset):
    """The least and the greatest position of a tensor's elements in its buffer."""
    if isinstance(layout, Layout) and not isinstance(layout.stride, Value):
        shape, stride = _leaves(layout.shape), _leaves(layout.stride)
        if all(isinstance(s, int) for s in shape + stride):
            if any(s <= 0 for s in shape):
                return 0, -1
            lo = sum((s - 1) * d for s, d in zip(shape, stride) if d < 0)
            hi = sum((s - 1) * d for s, d in zip(shape, stride) if d > 0)
            return offset + lo, offset + hi
    ps = _kute._positions(pos)
    return (min(ps), max(ps)) if ps else (0, -1)


def _key(key):
    """A Python subscript as a coordinate: ``:`` is ``_`` (None)."""
    if isinstance(key, slice):
        if key == slice(None):
            return None
        raise TypeError("kute.Tensor: a slice other than ':' (%r); slice with None or kute._ per mode" % (key,))
    if isinstance(key, tuple):
        return tuple(_key(k) for k in key)
    if isinstance(key, list):
        return tuple(_key(k) for k in key)
    if key is None or isinstance(key, (int, _kute.Underscore)):
        return key
    if hasattr(key, "__index__"):  # numpy integers
        return key.__index__()
    raise TypeError("kute.Tensor: a coordinate is an int or a tuple, not %s" % type(key).__name__)


_KINDS = {"b": "bool", "i": "int", "u": "uint"}


def _position(pos, coord):
    """The counting or coordinate tensor at a coordinate: an int (a position), a tuple
    (a coordinate), or a tensor (a slice); an invalid coordinate is an IndexError."""
    try:
        return pos(coord)
    except (KuteError, OverflowError) as e:
        raise IndexError(str(e)) from None


def _checked(buf, p):
    """A position in the buffer, or IndexError (a tile past the buffer's end can be
    formed, as in CuTe; its elements there cannot be read or written)."""
    if not 0 <= p < buf.shape[0]:
        raise IndexError("kute.Tensor: the element at position %d is outside the buffer of %d element(s)" % (p, buf.shape[0]))
    return p


def _all_checked(buf, positions):
    np = _numpy()
    pos = np.asarray(positions, dtype=np.int64)
    if pos.size and (pos.min() < 0 or pos.max() >= buf.shape[0]):
        bad = int(pos.min()) if pos.min() < 0 else int(pos.max())
        raise IndexError("kute.Tensor: the element at position %d is outside the buffer of %d element(s)" % (bad, buf.shape[0]))
    return pos.astype(np.intp)


class _CountingView:
    """What a tensor of kute's (a counting or coordinate tensor ``_pos``) reads off
    its layout: shared by ``Tensor`` and ``IdentityTensor``."""

    __slots__ = ()

    @property
    def layout(self):
        """The layout (a ``kute.Layout``, or a ``kute.Value`` for a composed layout;
        an identity tensor's has basis strides, ``(_1@0,_1@1)``)."""
        return _kute.call("layout", self._pos)

    @property
    def shape(self):
        """The shape of the layout (an int or a tuple)."""
        return _kute.call("shape", self._pos)

    def size(self):
        """The number of elements."""
        return _kute.call("size", self._pos)

    def rank(self):
        """The number of top-level modes."""
        return _kute.call("rank", self._pos)


class Tensor(_CountingView):
    """``kute.Tensor(buffer, layout, offset=0)``: CuTe's tensor of a layout over a buffer.

    ``buffer`` is a numpy array (its elements in memory order: C- or Fortran-contiguous)
    or any object with ``__dlpack__`` in CPU memory (a torch CPU tensor, a jax or cupy
    host array, ...), read without a copy through ``numpy.from_dlpack``; ``layout`` a
    ``kute.Layout``, a composed (swizzled) layout, a shape (CuTe's column-major
    ``make_layout(shape)``) or a string. The element at coordinate ``c`` is the buffer's
    element at ``offset + layout(c)`` (in elements of its dtype; ``offset`` is CuTe's
    ``ptr + offset``, from which negative strides can reach back). A layout that reaches
    outside the buffer is a ``ValueError``.

    ``t[c]`` reads, ``t[c] = v`` writes; ``None``, ``kute._`` or ``:`` in ``c`` slices (a
    ``Tensor`` over the same buffer). ``t.layout``, ``t.shape``, ``t.offset``, ``t.dtype``;
    ``t.to_numpy()`` is a copy; ``kute.copy(src, dst)``, ``kute.print_tensor(t)`` and
    kute's divides and partitions (``kute.local_tile(t, tiler, coord)``, ...) take it.
    """

    __slots__ = ("_array", "_buf", "_pos")

    def __init__(self, buffer, layout, offset=0):
        array = _as_array(buffer)
        flat = _flat(array)
        layout = _as_layout(layout)
        if isinstance(offset, bool) or not isinstance(offset, int):
            raise TypeError("kute.Tensor: the offset is an int, not %s" % type(offset).__name__)
        if offset and not 0 <= offset < flat.shape[0]:
            raise ValueError("kute.Tensor: the offset %d is outside the buffer of %d element(s)" % (offset, flat.shape[0]))
        pos = _counting(layout, offset)
        try:
            lo, hi = _span(layout, pos, offset)
        except KuteError as e:
            raise ValueError("kute.Tensor: the layout %s has no concrete positions: %s" % (layout, e)) from e
        n = flat.shape[0]
        if lo < 0 or hi >= n:
            at = " at offset %d" % offset if offset else ""
            raise ValueError(
                "kute.Tensor: the layout %s%s reaches positions %d to %d, outside the buffer of %d element(s) "
                "(numpy shape %s)" % (layout, at, lo, hi, n, array.shape)
            )
        self._array = array
        self._buf = flat
        self._pos = pos

    @classmethod
    def _view(cls, array, buf, pos):
        t = cls.__new__(cls)
        t._array, t._buf, t._pos = array, buf, pos
        return t

    @classmethod
    def from_numpy(cls, array, layout=None):
        """The tensor of a numpy array (or DLPack object) through its own shape and strides
        (a layout with the array's shape and its strides in elements, as CuTe DSL's
        ``from_dlpack``), or through ``layout`` over its elements in memory order. A
        strided array is viewed, not copied; negative strides are a ``ValueError``."""
        array = _as_array(array)
        if layout is not None:
            return cls(array, layout)
        np = _numpy()
        size = array.itemsize
        if any(s % size for s in array.strides):
            raise ValueError("Tensor.from_numpy: the strides %s are not multiples of the element size %d" % (array.strides, size))
        strides = tuple(s // size for s in array.strides)
        if any(s < 0 for s in strides):
            raise ValueError("Tensor.from_numpy: negative strides %s: numpy.ascontiguousarray(array) is a copy without them" % (strides,))
        shape = tuple(int(n) for n in array.shape)
        if array.ndim == 0:
            shape, strides = (1,), (1,)
        span = 1 + sum((n - 1) * s for n, s in zip(shape, strides)) if all(shape) else 0
        # the memory from the first element to the last, as a 1-D view
        buf = np.lib.stride_tricks.as_strided(array, shape=(span,), strides=(size,), writeable=array.flags.writeable)
        layout = Layout(shape[0], strides[0]) if len(shape) == 1 else Layout(shape, strides)
        return cls._view(array, buf, _counting(layout))

    # ------------------------------------------------------------------ properties

    @property
    def stride(self):
        """The stride of the layout."""
        return _kute.call("stride", self._pos)

    @property
    def offset(self):
        """The position of the tensor's origin in the buffer (a slice or tile moves it)."""
        return self._origin()

    def _origin(self):
        # (a layout maps coordinate 0 to position 0: the origin is element 0's position)
        return self._pos(0) if self.size() else 0

    @property
    def dtype(self):
        """The numpy dtype of the elements."""
        return self._buf.dtype

    @property
    def buffer(self):
        """The array the tensor views (the numpy array of a DLPack source)."""
        return self._array

    def positions(self):
        """The position in the buffer of each element, in the order of the 1-D
        coordinates (a list of ints)."""
        return _kute._positions(self._pos)

    # ------------------------------------------------------------------ elements

    def _at(self, key):
        # (t[1, 2] is t[(1, 2)]: the tuple is the coordinate)
        return _position(self._pos, _key(key))

    def __getitem__(self, key):
        p = self._at(key)
        if isinstance(p, Value):
            return type(self)._view(self._array, self._buf, p)
        return self._buf[_checked(self._buf, p)]

    def __setitem__(self, key, value):
        p = self._at(key)
        if isinstance(p, Value):
            sub = Tensor._view(self._array, self._buf, p)
            if isinstance(value, Tensor):
                copy(value, sub)
            else:
                sub.fill(value)
            return
        self._buf[_checked(self._buf, p)] = value

    def __call__(self, *coord):
        """CuTe's ``tensor(c)``: ``t(i)``, ``t(i, j)``, ``t((i, (j, k)))`` as ``t[...]``."""
        return self[coord[0] if len(coord) == 1 else coord]

    def __iter__(self):
        buf = self._buf
        for p in self.positions():
            yield buf[_checked(buf, p)]

    def fill(self, value):
        """Write ``value`` to every element (a scalar, or an array-like of ``size()``
        values in the order of the 1-D coordinates)."""
        np = _numpy()
        pos = _all_checked(self._buf, self.positions())
        v = np.asarray(value)
        if v.ndim and v.size != pos.size:
            raise ValueError("Tensor.fill: %d value(s) for the %d elements of %s" % (v.size, pos.size, self))
        self._buf[pos] = v.reshape(-1, order="F") if v.ndim else v

    def to_numpy(self, shape="flat"):
        """A copy of the elements as a numpy array, element ``c`` of the layout at numpy
        index ``c``: ``shape="flat"`` (default) has one numpy axis per leaf of the
        layout's shape (flattened), ``"modes"`` one per top-level mode, ``"size"`` one."""
        pos = _all_checked(self._buf, self.positions())
        vals = self._buf[pos]
        sh = self.shape
        if shape == "flat":
            dims = tuple(_leaves(sh))
        elif shape == "modes":
            dims = tuple(_size_of(m) for m in sh) if isinstance(sh, tuple) else (sh,)
        elif shape == "size":
            dims = (pos.size,)
        else:
            raise ValueError('Tensor.to_numpy: shape is "flat", "modes" or "size", not %r' % (shape,))
        return vals.reshape(dims, order="F")

    def table(self):
        """CuTe's ``print_tensor`` text (``kute.print_tensor(t)`` prints it)."""
        np = _numpy()
        dt = self._buf.dtype
        bits = 8 * dt.itemsize
        if dt.kind == "f":
            kind = {16: "f32", 32: "f32", 64: "f64"}.get(bits)
        else:
            kind = _KINDS.get(dt.kind)
        if kind is None:
            raise TypeError("print_tensor: CuTe prints integers, bools and 16-, 32- and 64-bit floats, not %s" % dt)
        pos = self.positions()
        _all_checked(self._buf, pos)
        lo, hi = (min(pos), max(pos)) if pos else (0, -1)
        window = self._buf[lo : hi + 1]
        addr = self._buf.__array_interface__["data"][0] + self._origin() * dt.itemsize
        header = "ptr[%db](%s)" % (bits, hex(addr))
        values = window.astype(np.float64).tolist() if kind.startswith("f") else window.tolist()
        return _kute._print_tensor(self._pos, values, lo, kind, header)

    def __str__(self):
        addr = self._buf.__array_interface__["data"][0] + self._origin() * self._buf.dtype.itemsize
        return "ptr[%db](%s) o %s" % (8 * self._buf.dtype.itemsize, hex(addr), self.layout)

    def __repr__(self):
        return "Tensor(%s, '%s')" % (self._buf.dtype, self.layout)


def _size_of(x):
    n = 1
    for s in _leaves(x):
        n *= s
    return n


def copy(src, dst):
    """CuTe ``copy(src, dst)``: element ``i`` of ``src`` to element ``i`` of ``dst``
    (1-D coordinates, each through its own layout), converted to ``dst``'s dtype. The
    two must have the same size (else ``ValueError``)."""
    if not isinstance(dst, Tensor):
        raise TypeError("copy: the destination must be a kute.Tensor, not %s" % type(dst).__name__)
    pd = _all_checked(dst._buf, dst.positions())
    if isinstance(src, Tensor):
        ps = _all_checked(src._buf, src.positions())
        if ps.size != pd.size:
            raise ValueError("copy: the source %s has %d element(s), the destination %s %d" % (src, ps.size, dst, pd.size))
        dst._buf[pd] = src._buf[ps]
        return
    raise TypeError("copy: the source must be a kute.Tensor, not %s" % type(src).__name__)


def make_tensor(buffer, layout):
    """CuTe's ``make_tensor(ptr_or_array, layout)``: ``kute.Tensor(buffer, layout)``."""
    return Tensor(buffer, layout)


def print_tensor(t):
    """CuTe's ``print_tensor``: prints the tensor (its pointer and layout) and its
    elements as a table (a kute.Tensor; kute's identity or counting tensors too)."""
    if isinstance(t, Tensor):
        print(t.table(), end="")
        return None
    if isinstance(t, IdentityTensor):
        print(t.table(), end="")
        return None
    return _kute.call("print_tensor", t)


class IdentityTensor(_CountingView):
    """CuTe's ``make_identity_tensor(shape)``: the element at each coordinate is the
    coordinate (a tuple of ints, or an int). Slices, divides and partitions are kute's,
    as for ``Tensor``."""

    __slots__ = ("_pos",)

    def __init__(self, shape):
        self._pos = _kute.call("make_identity_tensor", shape)

    @classmethod
    def _view(cls, pos):
        t = cls.__new__(cls)
        t._pos = pos
        return t

    def __getitem__(self, key):
        p = _position(self._pos, _key(key))
        if isinstance(p, Value):
            return type(self)._view(p)
        return p

    def __call__(self, *coord):
        """CuTe's ``tensor(c)``: ``t(i)``, ``t(i, j)``, ``t((i, (j, k)))`` as ``t[...]``."""
        return self[coord[0] if len(coord) == 1 else coord]

    def __iter__(self):
        for i in range(self.size()):
            yield self._pos(i)

    def table(self):
        """CuTe's ``print_tensor`` text."""
        text = str(_kute.call("print_tensor", self._pos))
        return text if text.endswith("\n") else text + "\n"

    def __str__(self):
        return str(self._pos)

    def __repr__(self):
        return "IdentityTensor('%s')" % self._pos


def make_identity_tensor(shape):
    """CuTe's ``make_identity_tensor(shape)``."""
    return IdentityTensor(shape)


def _rewrap(like, v):
    if isinstance(v, Value) and v.kind == "a tensor":
        if isinstance(like, Tensor):
            return type(like)._view(like._array, like._buf, v)
        return type(like)._view(v)
    return v


def _tensor_aware(f):
    """``f`` taking kute.Tensor and IdentityTensor operands as kute's counting and
    coordinate tensors, and answering a tensor of the same buffer."""

    def g(*args, **kwargs):
        like = next((a for a in args if isinstance(a, (Tensor, IdentityTensor))), None)
        if like is None:
            return f(*args, **kwargs)
        args = tuple(a._pos if isinstance(a, (Tensor, IdentityTensor)) else a for a in args)
        return _rewrap(like, f(*args, **kwargs))

    return _like(g, f)


def _relayout_aware(f):
    """``f`` (a function of a layout answering a layout) taking a tensor: the tensor
    of ``f(layout)`` over the same buffer, at the same offset (``composition(t, tv)``
    partitions ``t`` by a thread-value layout, as CuTe DSL does)."""

    def g(*args, **kwargs):
        if args and isinstance(args[0], (Tensor, IdentityTensor)):
            t = args[0]
            new = f(t.layout, *args[1:], **kwargs)
            v = _kute._relayout(t._pos, new)
            if isinstance(t, Tensor):
                return type(t)._view(t._array, t._buf, v)
            return type(t)._view(v)
        return f(*args, **kwargs)

    return _like(g, f)


def _like(g, f):
    """``g`` with the name, documentation and signature of ``f``."""
    g.__name__ = g.__qualname__ = f.__name__
    g.__doc__ = f.__doc__
    g.__module__ = "kute"
    try:
        g.__signature__ = _inspect.signature(f)
    except (TypeError, ValueError):  # pragma: no cover
        pass
    return g


# (kute's API: kute.Tensor, ... as the stubs name them)
for _x in (Tensor, IdentityTensor, copy, make_identity_tensor, print_tensor):
    _x.__module__ = "kute"
del _x
