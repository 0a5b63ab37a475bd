"""CuTe DSL's spelling of kute (``import kute.dsl as cute``).

CuTe DSL (``cutlass.cute``, the ``nvidia-cutlass-dsl`` package) computes layouts inside
``@cute.jit`` functions; this module has its names, argument names and conventions, and
answers on the host with kute, so that layout code written for the DSL runs (and prints)
as it would at the DSL's trace time::

    >>> import kute.dsl as cute
    >>> L = cute.make_layout((4, 8), stride=(8, 1))
    >>> print(L)
    (4,8):(8,1)
    >>> cute.size(cute.make_layout((4, (8, 2))), mode=[1])
    16
    >>> print(cute.coalesce(cute.make_layout((2, (1, 6)), stride=(1, (6, 2)))))
    12:1

Conventions, as the DSL's: a Python int is a compile-time constant (a static integer,
``Int<N>`` in C++), so the answers are CuTe's static answers; ``mode=[i, j]`` is CuTe's
``<i, j>`` template path (``size(L, mode=[1])`` is ``size<1>(L)``); ``None`` is ``_``;
layouts print as the DSL prints them (``(4,8):(1,4)``, ``S<3,4,3> o 0 o ...``, unknowns
``?{div=16}``); integers and tuples are Python ints and tuples. ``kute.sym("M", div=16)``
is the DSL's dynamic ``cute.assume(m, divby=16)``. Tensors are ``kute.Tensor`` (over numpy
arrays and DLPack buffers) and identity tensors.
"""

import kute as _k
from . import _kute, _tensor
from ._kute import KuteError  # noqa: F401

__all__ = [
    "Layout",
    "ComposedLayout",
    "Swizzle",
    "Tensor",
    "IdentityTensor",
    "make_layout",
    "make_ordered_layout",
    "make_identity_layout",
    "make_identity_tensor",
    "make_tensor",
    "make_swizzle",
    "make_composed_layout",
    "make_layout_tv",
    "size",
    "cosize",
    "rank",
    "depth",
    "shape",
    "get",
    "select",
    "group_modes",
    "slice_",
    "dice",
    "flatten",
    "filter",
    "filter_zeros",
    "coalesce",
    "crd2idx",
    "idx2crd",
    "composition",
    "complement",
    "right_inverse",
    "left_inverse",
    "logical_product",
    "zipped_product",
    "tiled_product",
    "flat_product",
    "raked_product",
    "blocked_product",
    "logical_divide",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
    "max_common_layout",
    "max_common_vector",
    "tile_to_shape",
    "recast_layout",
    "product_each",
    "ceil_div",
    "shape_div",
    "local_tile",
    "local_partition",
    "is_static",
    "print_tensor",
    "basic_copy",
    "autovec_copy",
    "pretty_str",
]


def _dsl_text(x):
    return _kute.as_dsl(x).replace("Sw<", "S<")


class Layout(_k.Layout):
    """A ``kute.Layout`` that prints as CuTe DSL prints it (``(4,8):(1,4)``)."""

    def __str__(self):
        return _dsl_text(self)

    def __repr__(self):
        return "Layout('%s')" % _dsl_text(self)


class ComposedLayout:
    """A composed layout (``inner o offset o outer``) that prints as the DSL prints it."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __call__(self, *coord):
        return _wrap(self.value(*coord))

    def __str__(self):
        return _dsl_text(self.value)

    def __repr__(self):
        return "ComposedLayout('%s')" % _dsl_text(self.value)

    def __eq__(self, other):
        return isinstance(other, ComposedLayout) and other.value == self.value

    def __hash__(self):
        return hash(self.value)


class Swizzle(_k.Swizzle):
    """A ``kute.Swizzle`` that prints as the DSL prints it (``S<3,4,3>``)."""

    def __str__(self):
        return "S<%d,%d,%d>" % (self.bits, self.base, self.shift)

    def __repr__(self):
        return str(self)


class Tensor(_tensor.Tensor):
    """A ``kute.Tensor`` that prints as the DSL prints it (``tensor<ptr<f32, generic> o (4,8):(8,1)>``)."""

    __slots__ = ()

    def __str__(self):
        return "tensor<ptr<%s, generic> o %s>" % (_elem_name(self.dtype), _dsl_text(self.layout))


class IdentityTensor(_tensor.IdentityTensor):
    """An identity tensor that prints as the DSL prints it (``tensor<(0,0) o (4,8):(1@0,1@1)>``)."""

    __slots__ = ()

    def __str__(self):
        return "tensor<%s o %s>" % (pretty_str(self._origin()), _dsl_text(self.layout))

    def _origin(self):
        # the coordinate of element 0 (the layout maps coordinate 0 to the origin)
        return self[0]


def _elem_name(dtype):
    """The DSL's (MLIR's) name of an element type: integers are signless (``i8`` for both
    int8 and uint8), a bool is ``i1``."""
    kind, bits = dtype.kind, 8 * dtype.itemsize
    if kind == "b":
        return "i1"
    return {"f": "f", "i": "i", "u": "i"}.get(kind, str(dtype)) + str(bits)


def pretty_str(x):
    """The DSL's printed form of a value: a tuple as ``(a,b)``, ``None`` as ``_``."""
    if isinstance(x, tuple):
        return "(" + ",".join(pretty_str(y) for y in x) + ")"
    if x is None:
        return "_"
    if isinstance(x, bool):
        return str(int(x))
    if isinstance(x, int):
        return str(x)
    return str(_wrap(x))


# ---------------------------------------------------------------- operands and answers


def _plain(x):
    if isinstance(x, tuple):
        return all(_plain(y) for y in x)
    return x is None or isinstance(x, (int, _kute.Underscore)) and not isinstance(x, bool)


def _text(y):
    if isinstance(y, tuple):
        return "(" + ",".join(_text(z) for z in y) + ")"
    if isinstance(y, int):
        return "_%d" % y
    return "_"


def _static(x):
    """DSL operands as kute's: a Python int is a static integer (a compile-time
    constant of the DSL); tuples nest; layouts and unknowns pass through."""
    if isinstance(x, bool):
        raise TypeError("a bool is not an integer of a shape, stride or coordinate")
    if isinstance(x, list):
        x = tuple(x)
    if isinstance(x, int):
        return _kute.eval("_%d" % x)
    if isinstance(x, tuple):
        if _plain(x) and x != ():
            return _kute.eval(_text(x))
        return tuple(_static(y) for y in x)
    return _unwrap(x)


def _unwrap(x):
    if isinstance(x, ComposedLayout):
        return x.value
    return x


def _wrap(x):
    """kute's answer as the DSL's: layouts print as the DSL's, ints and tuples plain."""
    if isinstance(x, _k.Layout) and not isinstance(x, Layout):
        return Layout(x)
    if isinstance(x, _k.IntTuple):
        return x.value
    if isinstance(x, _k.Swizzle) and not isinstance(x, Swizzle):
        return Swizzle(x.bits, x.base, x.shift)
    if isinstance(x, _k.Value):
        if x.kind == "a composed layout":
            return ComposedLayout(x)
        if x.kind == "a tuple":
            return tuple(_wrap(y) for y in x)
        return x
    if isinstance(x, _tensor.Tensor) and not isinstance(x, Tensor):
        return Tensor._view(x._array, x._buf, x._pos)
    if isinstance(x, _tensor.IdentityTensor) and not isinstance(x, IdentityTensor):
        return IdentityTensor._view(x._pos)
    if isinstance(x, tuple):
        return tuple(_wrap(y) for y in x)
    return x


def _call(f, *args, targs=None):
    return _wrap(f(*(_static(a) for a in args), targs=targs) if targs is not None else f(*(_static(a) for a in args)))


def _mode(mode):
    if mode is None:
        return None
    if isinstance(mode, int):
        return (mode,)
    return tuple(mode) or None


# ---------------------------------------------------------------- constructors


def make_layout(shape, *, stride=None):
    """``cute.make_layout(shape, stride=None)``: the layout of ``shape`` and ``stride``
    (none: column-major); a tuple of layouts is their concatenation."""
    if isinstance(shape, (tuple, list)) and shape and all(isinstance(x, _k.Layout) for x in shape):
        if stride is not None:
            raise TypeError("make_layout: a stride with a tuple of layouts")
        return _call(_k.make_layout, *shape)
    if stride is None:
        return _call(_k.make_layout, shape)
    return _call(_k.make_layout, shape, stride)


def make_ordered_layout(shape, order):
    """``cute.make_ordered_layout(shape, order)``: compact strides in the order ``order``
    (the mode of order 0 has stride 1)."""
    return _call(_k.make_ordered_layout, shape, order)


def make_identity_layout(shape):
    """``cute.make_identity_layout(shape)``: the layout whose value at each coordinate is
    the coordinate (strides ``1@0, 1@1, ...``)."""
    return _call(_k.make_identity_layout, shape)


def make_identity_tensor(shape):
    """``cute.make_identity_tensor(shape)``: the tensor whose element at each coordinate
    is the coordinate."""
    return IdentityTensor._view(_kute.call("make_identity_tensor", _static(shape)))


def make_tensor(iterator, layout):
    """``cute.make_tensor(ptr_or_array, layout)``: a tensor of ``layout`` over a numpy
    array or DLPack buffer (CPU memory), or a shape (column-major)."""
    if isinstance(layout, ComposedLayout):
        layout = layout.value
    elif not isinstance(layout, (_k.Layout, _k.Value, str)):
        layout = _static(layout)
        if isinstance(layout, _k.IntTuple):
            layout = _k.make_layout(layout)
    t = _tensor.Tensor(iterator, layout)
    return Tensor._view(t._array, t._buf, t._pos)


def make_swizzle(b, m, s):
    """``cute.make_swizzle(b, m, s)``: CuTe's ``Swizzle<B,M,S>``."""
    return Swizzle(b, m, s)


def make_composed_layout(inner, offset, outer):
    """``cute.make_composed_layout(inner, offset, outer)``: ``inner o offset o outer``."""
    return _call(_k.make_composed_layout, inner, offset, outer)


def make_layout_tv(thr_layout, val_layout):
    """``cute.make_layout_tv(thr_layout, val_layout)``: ``(tiler_mn, layout_tv)``."""
    return _call(_k.make_layout_tv, thr_layout, val_layout)


# ---------------------------------------------------------------- queries


def size(a, mode=[]):  # noqa: B006 (the DSL's signature)
    """``cute.size(a, mode=[])``: the number of elements (of the mode at the path ``mode``)."""
    return _call(_k.size, a, targs=_mode(mode))


def cosize(a, mode=[]):  # noqa: B006
    """``cute.cosize(a, mode=[])``: one past the largest index (of the mode at ``mode``)."""
    return _call(_k.cosize, a, targs=_mode(mode))


def rank(a, mode=[]):  # noqa: B006
    """``cute.rank(a, mode=[])``: the number of top-level modes (of the mode at ``mode``)."""
    return _call(_k.rank, a, targs=_mode(mode))


def depth(a):
    """``cute.depth(a)``: the nesting depth."""
    return _call(_k.depth, a)


def shape(input, *, mode=None):
    """``cute.shape(input, mode=None)``: the shape (of mode ``mode``)."""
    return _call(_k.shape, input, targs=_mode(mode))


def get(input, mode=[]):  # noqa: B006
    """``cute.get(input, mode=[i, j])``: the mode at the path ``mode`` (CuTe ``get<i,j>``)."""
    return _call(_k.get, input, targs=_mode(mode))


def select(input, mode=[]):  # noqa: B006
    """``cute.select(input, mode=[i, j, ...])``: the modes ``i, j, ...`` in that order."""
    return _call(_k.select, input, targs=_mode(mode))


def group_modes(input, begin, end=None):
    """``cute.group_modes(input, begin, end=None)``: modes ``begin`` to ``end - 1`` as one
    mode (``end`` defaults to the rank)."""
    if end is None:
        end = rank(input)
    return _call(_k.group, input, targs=(begin, end))


def slice_(src, coord):
    """``cute.slice_(src, coord)``: the modes of ``src`` where ``coord`` has ``None``."""
    return _call(_k.slice, coord, src)


def dice(src, dicer):
    """``cute.dice(src, dicer)``: the modes of ``src`` where ``dicer`` has an integer."""
    return _call(_k.dice, dicer, src)


def flatten(a):
    """``cute.flatten(a)``: the leaves as one level of modes."""
    return _call(_k.flatten, a)


def filter(input):
    """``cute.filter(input)``: the layout without its stride-0 and size-1 modes, coalesced."""
    return _call(_k.filter, input)


def filter_zeros(input, *, target_profile=None):
    """``cute.filter_zeros(input, target_profile=None)``: stride-0 modes made size 1."""
    if target_profile is None:
        return _call(_k.filter_zeros, input)
    return _call(_k.filter_zeros, input, target_profile)


def coalesce(input, *, target_profile=None):
    """``cute.coalesce(input, target_profile=None)``: the fewest modes (by the modes of
    ``target_profile``)."""
    if target_profile is None:
        return _call(_k.coalesce, input)
    return _call(_k.coalesce, input, target_profile)


def crd2idx(coord, layout):
    """``cute.crd2idx(coord, layout)``: the index of a coordinate (a layout's value there,
    or the colexicographic index in a shape)."""
    return _call(_k.crd2idx, coord, layout)


def idx2crd(idx, shape):
    """``cute.idx2crd(idx, shape)``: the natural coordinate of an index in a shape."""
    return _call(_k.idx2crd, idx, shape)


def is_static(x):
    """``cute.is_static(x)``: whether every integer of ``x`` is known at compile time (a
    Python int is; an unknown of ``kute.sym`` is not)."""
    x = _static(x)
    if isinstance(x, (_k.Layout, _k.IntTuple)):
        return x.is_static()
    return isinstance(x, (_k.Swizzle, type(None)))


# ---------------------------------------------------------------- the algebra


def composition(lhs, rhs):
    """``cute.composition(lhs, rhs)``: ``lhs o rhs`` (``rhs`` a layout, shape or tiler)."""
    return _call(_k.composition, lhs, rhs)


def complement(input, cotarget):
    """``cute.complement(input, cotarget)``: the layout of what ``input`` leaves out of
    ``cotarget``."""
    return _call(_k.complement, input, cotarget)


def right_inverse(input):
    """``cute.right_inverse(input)``."""
    return _call(_k.right_inverse, input)


def left_inverse(input):
    """``cute.left_inverse(input)``."""
    return _call(_k.left_inverse, input)


def logical_product(block, tiler):
    """``cute.logical_product(block, tiler)``: CuTe's logical_product."""
    return _call(_k.logical_product, block, tiler)


def zipped_product(block, tiler):
    """``cute.zipped_product(block, tiler)``: CuTe's zipped_product."""
    return _call(_k.zipped_product, block, tiler)


def tiled_product(block, tiler):
    """``cute.tiled_product(block, tiler)``: CuTe's tiled_product."""
    return _call(_k.tiled_product, block, tiler)


def flat_product(block, tiler):
    """``cute.flat_product(block, tiler)``: CuTe's flat_product."""
    return _call(_k.flat_product, block, tiler)


def raked_product(block, tiler):
    """``cute.raked_product(block, tiler)``: CuTe's raked_product."""
    return _call(_k.raked_product, block, tiler)


def blocked_product(block, tiler):
    """``cute.blocked_product(block, tiler)``: CuTe's blocked_product."""
    return _call(_k.blocked_product, block, tiler)


def logical_divide(target, tiler):
    """``cute.logical_divide(target, tiler)``: CuTe's logical_divide."""
    return _call(_k.logical_divide, target, tiler)


def zipped_divide(target, tiler):
    """``cute.zipped_divide(target, tiler)``: CuTe's zipped_divide."""
    return _call(_k.zipped_divide, target, tiler)


def tiled_divide(target, tiler):
    """``cute.tiled_divide(target, tiler)``: CuTe's tiled_divide."""
    return _call(_k.tiled_divide, target, tiler)


def flat_divide(target, tiler):
    """``cute.flat_divide(target, tiler)``: CuTe's flat_divide."""
    return _call(_k.flat_divide, target, tiler)


def max_common_layout(a, b):
    """``cute.max_common_layout(a, b)``: CuTe's max_common_layout."""
    return _call(_k.max_common_layout, a, b)


def max_common_vector(a, b):
    """``cute.max_common_vector(a, b)``: CuTe's max_common_vector."""
    return _call(_k.max_common_vector, a, b)


def ceil_div(input, tiler):
    """``cute.ceil_div(input, tiler)``: CuTe's ceil_div."""
    return _call(_k.ceil_div, input, tiler)


def shape_div(lhs, rhs):
    """``cute.shape_div(lhs, rhs)``: CuTe's shape_div."""
    return _call(_k.shape_div, lhs, rhs)


def tile_to_shape(atom, trg_shape, order):
    """``cute.tile_to_shape(atom, trg_shape, order)``: ``atom`` repeated to ``trg_shape``,
    the repetitions in the order ``order``."""
    return _call(_k.tile_to_shape, atom, trg_shape, order)


def recast_layout(new_type_bits, old_type_bits, src_layout):
    """``cute.recast_layout(new_type_bits, old_type_bits, src_layout)``: the layout of the
    same memory in elements of ``new_type_bits`` bits."""
    return _call(_k.recast_layout, src_layout, targs=(old_type_bits, new_type_bits))


def product_each(a):
    """``cute.product_each(a)``: the size of each mode."""
    return _call(_k.product_each, a)


# ---------------------------------------------------------------- tensors


def local_tile(input, tiler, coord, proj=None):
    """``cute.local_tile(input, tiler, coord, proj=None)``: the tile of ``input`` at
    ``coord`` (``proj``, a tuple of 1 and None, keeps the tiler's modes marked 1)."""
    if proj is not None:
        keep = [i for i, p in enumerate(proj) if p is not None]
        tiler = tuple(tiler[i] for i in keep)
        coord = tuple(coord[i] for i in keep)
    return _call(_k.local_tile, input, tiler, coord)


def local_partition(target, tiler, index, proj=1):
    """``cute.local_partition(target, tiler, index)``: thread ``index``'s elements of
    ``target`` (``tiler`` the threads' layout), one per tile."""
    if proj != 1:
        raise NotImplementedError("local_partition: kute has no projection of the thread layout (proj=1 only)")
    return _call(_k.local_partition, target, tiler, index)


def print_tensor(tensor, *, verbose=False):
    """``cute.print_tensor(tensor)``: CuTe's ``print_tensor`` (kute's text of it)."""
    return _k.print_tensor(tensor)


def basic_copy(src, dst):
    """``cute.basic_copy(src, dst)``: element ``i`` of ``src`` to element ``i`` of ``dst``."""
    _k.copy(src, dst)


autovec_copy = basic_copy
