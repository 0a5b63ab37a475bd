"""pycute's API, answered by kute.

pycute is NVIDIA's pure-Python CuTe (the ``pycute`` package of the ``nvidia-cutlass``
wheel). This module has its names and conventions, so that pycute code runs with one
import changed::

    >>> from kute import pycute
    >>> a = pycute.Layout((4, 8), (8, 1))
    >>> a, str(a), a.shape, a(5), a[1]
    (Layout((4, 8),(8, 1)), '(4, 8):(8, 1)', (4, 8), 9, Layout(8,1))
    >>> pycute.logical_divide(pycute.Layout(24, 2), pycute.Layout(4, 2))
    Layout((4, (2, 3)),(4, (2, 16)))
    >>> pycute.composition(pycute.Layout((6, 2), (8, 2)), (pycute.Layout(2, 1), None))
    Layout((2, 2),(8, 2))

Every answer is pycute's answer, in pycute's form, wherever pycute's answer is the
true one; kute checks it. Where pycute's answer is not the true one (a composite that
is no layout, a complement of a layout that is not injective, a right inverse that is
not the largest, ``logical_product(A, n)`` of an int, which pycute computes as a
divide), a :class:`kute.KuteError` says why and what the true answer is; where pycute's
own algorithm fails (an ``AssertionError``) and kute has the answer, kute answers.

Differences from pycute: layouts are kute's (``kute.pycute.Layout`` is a ``kute.Layout``
that prints and compares as pycute's, so kute's functions, ``.table()`` and the Jupyter
pictures take it), immutable and hashable; integers are Python ints of 64 bits; errors
are ``kute.KuteError`` (a ``ValueError``) and ``TypeError`` where pycute raises
``AssertionError``. ``blocked_product`` and ``raked_product`` are CuTe's (pycute has
none).
"""

from abc import ABC

import kute as _k

from .. import _kute
from .._kute import KuteError  # noqa: F401

_n = _kute._pycute

# pycute's modules, in the order each imports the one before, with the names each
# defines (kute's blocked_product and raked_product beside pycute's layout functions);
# each module also has the names of the ones before it, as pycute's do
_MODULES = {
    "typing": ("Integer",),
    "int_tuple": (
        "is_int", "is_tuple", "flatten", "signum", "product", "inner_product", "tuple_max",
        "elem_scale", "shape_div", "prefix_product", "idx2crd", "crd2idx", "crd2crd", "slice_",
        "has_none",
    ),
    "layout": (
        "LayoutBase", "is_layout", "Layout", "make_layout", "size", "cosize", "coalesce", "filter",
        "composition", "complement", "right_inverse", "left_inverse", "logical_divide",
        "logical_product", "hier_unzip", "zipped_divide", "tiled_divide", "zipped_product",
        "tiled_product", "blocked_product", "raked_product", "slice_and_offset",
    ),
    "swizzle": ("shiftr", "shiftl", "Swizzle", "ComposedLayout"),
}


def _exports(module):
    """The names of pycute's ``module``: its own and those of the modules before it."""
    names = []
    for m, own in _MODULES.items():
        names.extend(own)
        if m == module:
            return names
    raise KeyError(module)


__all__ = _exports("swizzle")


class Integer(ABC):
    """pycute's integer type: a Python int, not a bool."""

    @classmethod
    def __subclasshook__(cls, c):
        if c in (bool, float):
            return False
        return issubclass(c, int)


def is_int(x):
    """Whether ``x`` is an integer (a Python int, not a bool)."""
    return isinstance(x, int) and not isinstance(x, bool)


def is_tuple(x):
    """Whether ``x`` is a tuple."""
    return isinstance(x, tuple)


def signum(a):
    """-1, 0 or 1, the sign of ``a``."""
    return bool(a > 0) - bool(a < 0)


def _is_sym(x):
    """Whether an argument holds an unknown (kute.sym, a sympy symbol)."""
    if x is None or isinstance(x, (int, str, ComposedLayout)):
        return False
    if isinstance(x, (tuple, list)):
        return any(_is_sym(y) for y in x)
    return _n._has_symbols(x)


def _pc(x):
    """kute's answer in pycute's types: layouts as pycute's, integers as ints where known."""
    if isinstance(x, _kute.Layout):
        return x if isinstance(x, _n.Layout) else _n._from_kute(x)
    if isinstance(x, tuple):
        return tuple(_pc(y) for y in x)
    return x


# the arguments a symbolic answer adds where the call leaves them out: (count, defaults)
_DEFAULTS = {"complement": (2, (1,))}


def _symbolic(name, args, err):
    """kute's ``name`` on ``args`` where an argument holds an unknown: the answer is
    symbolic (kute's CuTe algebra, which knows the unknowns' facts); else ``err`` (the
    ``TypeError`` of pycute's algorithm, which refuses unknowns) raised again. The
    native functions call it only where they raise a ``TypeError``: no cost otherwise."""
    if not any(_is_sym(a) for a in args):
        raise err
    default = _DEFAULTS.get(name)
    if default is not None and len(args) < default[0]:
        args = args + default[1]
    return _pc(getattr(_k, name)(*args))


_n._symbolic_hook(_symbolic)


flatten = _n.flatten
product = _n.product
inner_product = _n.inner_product
tuple_max = _n.tuple_max
elem_scale = _n.elem_scale
shape_div = _n.shape_div
prefix_product = _n.prefix_product
idx2crd = _n.idx2crd
crd2idx = _n.crd2idx
crd2crd = _n.crd2crd
slice_ = _n.slice_
has_none = _n.has_none


class LayoutBase(ABC):
    """The base of pycute's layouts: ``Layout`` (kute's layouts) and ``ComposedLayout``."""


LayoutBase.register(_kute.Layout)


def is_layout(x):
    """Whether ``x`` is a layout (a ``Layout`` or a ``ComposedLayout``)."""
    return isinstance(x, LayoutBase)


Layout = _n.Layout
make_layout = _n.make_layout
size = _n.size
cosize = _n.cosize
coalesce = _n.coalesce
filter = _n.filter
composition = _n.composition
complement = _n.complement
right_inverse = _n.right_inverse
left_inverse = _n.left_inverse
logical_divide = _n.logical_divide
logical_product = _n.logical_product
hier_unzip = _n.hier_unzip
zipped_divide = _n.zipped_divide
tiled_divide = _n.tiled_divide
zipped_product = _n.zipped_product
tiled_product = _n.tiled_product
blocked_product = _n.blocked_product
raked_product = _n.raked_product
slice_and_offset = _n.slice_and_offset


def shiftr(a, s):
    """``a >> s``, or ``a << -s`` for a negative ``s`` (``a`` for 0, where pycute recurses
    without end)."""
    return a >> s if s >= 0 else a << -s


def shiftl(a, s):
    """``a << s``, or ``a >> -s`` for a negative ``s`` (``a`` for 0, where pycute recurses
    without end)."""
    return a << s if s >= 0 else a >> -s


class Swizzle(_kute.Swizzle):
    """pycute's ``Swizzle(bits, base, shift)``: kute's swizzle, printed ``SW_b_m_s``."""

    __slots__ = ()

    def __str__(self):
        return "SW_%d_%d_%d" % (self.bits, self.base, self.shift)


class ComposedLayout(LayoutBase):
    """pycute's ``ComposedLayout(layoutB, offset, layoutA)``: the function
    ``layoutB(offset + layoutA(c))`` (``layoutB`` a swizzle or a layout)."""

    def __init__(self, layoutB, offset, layoutA):
        self.layoutB = layoutB
        self.offset = offset
        self.layoutA = layoutA

    def __eq__(self, other):
        return (
            isinstance(other, ComposedLayout)
            and self.layoutB == other.layoutB
            and self.offset == other.offset
            and self.layoutA == other.layoutA
        )

    __hash__ = None

    def __len__(self):
        return len(self.layoutA)

    def __call__(self, *args):
        return self.layoutB(self.offset + self.layoutA(*args))

    def __getitem__(self, i):
        return ComposedLayout(self.layoutB, self.offset, self.layoutA[i])

    def size(self):
        return size(self.layoutA)

    def cosize(self):
        return cosize(self.layoutB)

    def __str__(self):
        return f"{self.layoutB} o {self.offset} o {self.layoutA}"

    def __repr__(self):
        return f"ComposedLayout({repr(self.layoutB)},{repr(self.offset)},{repr(self.layoutA)})"


# Symbolic integers (kute.sym, sympy symbols): shape_div, size, cosize and the algebra
# answer symbolically with kute's algebra where an argument holds an unknown (_symbolic);
# product, prefix_product, idx2crd, crd2idx, make_layout, filter, hier_unzip and
# slice_and_offset compute pycute's way with kute's symbolic integers (natively), each step
# where the facts decide it, else an error naming the fact.

# pycute's modules (pycute.int_tuple, .layout, .swizzle, .typing), each with the names
# pycute's has, for code that imports from them
from . import int_tuple, layout, swizzle, typing  # noqa: E402,F401
