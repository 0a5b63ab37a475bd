"""kute: CuTe's layouts and layout algebra (NVIDIA CUTLASS), from kute's Rust implementation.

Layouts print exactly as CuTe and the ``kute`` command print them::

    >>> import kute
    >>> a = kute.Layout((4, 8), (8, 1))
    >>> a
    Layout('(4,8):(8,1)')
    >>> kute.logical_divide(kute.Layout("24:2"), kute.Layout("4:2"))
    Layout('(4,(2,3)):(4,(2,16))')
    >>> a(5), a(1, 2)
    (9, 10)
    >>> a(None, 2)
    Layout('(4):(8)')
    >>> a.shape, kute.size(a) + 1
    ((4, 8), 33)

Python ints are run-time (dynamic) integers, as a C++ ``int``; a string is an
expression of kute's language (``"_8"`` is a static 8, ``"(_4,_8):(_1,_4)"`` a
layout). Every function of the expression language is a module function of the
same CuTe name (``kute.functions()`` lists them; ``kute.call(name, ...)`` calls one
by name, ``targs=`` giving template arguments: ``kute.size(L, targs=1)`` is
``size<1>(L)``, element types by name: ``targs=("half_t", "uint128_t")``). Integers
and integer tuples come back as Python ints and tuples; ``kute.eval(text)`` answers
kute's own values, where static integers keep their mark (``IntTuple('_8')``,
``.is_static()``). Errors raise :class:`KuteError` (a ``ValueError``) with kute's
message; a wrong number of arguments raises ``TypeError``.

``kute.pycute`` is pycute's API (NVIDIA's pure-Python CuTe), answered by kute;
``kute.dsl`` is CuTe DSL's spelling (``import kute.dsl as cute``). ``kute.Tensor(array,
layout)`` is CuTe's tensor over a numpy array or DLPack buffer (with numpy installed):
``t[c]`` reads and writes through the layout, and kute's slices, divides and
partitions (``kute.local_tile(t, tiler, coord)``) are tensors of the same buffer.

Extents known only at launch are symbols: ``M = kute.sym("M", div=128)`` is an
unknown multiple of 128; layouts take it as an extent or stride, the algebra
answers for every value of ``M`` (or raises ``KuteError`` naming the fact it
needs), ``kute.substitute(L, {"M": 384})`` puts a value in, and
``kute.as_dsl(L)`` prints as CuTe DSL does::

    >>> M = kute.sym("M", div=128)
    >>> kute.logical_divide(kute.Layout((M, 64), (1, M)), (128, 64))
    Layout('((128,M/128),(64,_1)):((1,128),(M,_0))')
"""

import builtins as _builtins
import keyword as _keyword

from . import _kute

from ._kute import (  # noqa: F401
    IntTuple,
    KuteError,
    Layout,
    Swizzle,
    Tiler,
    Underscore,
    Value,
    _,
    __version__,
    _all_static,
    call,
    as_dsl,
    eval,
    functions,
    substitute,
    sym,
)

# (`from kute import *` leaves Python's builtins alone: kute.eval, kute.filter, kute.slice, ...
# and kute._ are reached through the module)
__all__ = [
    "Layout",
    "IntTuple",
    "Tiler",
    "Swizzle",
    "Value",
    "Underscore",
    "KuteError",
    "call",
    "functions",
    "sym",
    "substitute",
    "as_dsl",
    "to_sympy",
]


def to_sympy(x, symbols=()):
    """A kute integer or integer tuple as sympy: an ``IntTuple`` (symbolic or
    not), an int, or a tuple or list of them. Unknowns are the sympy symbols of
    ``symbols`` of the same name, else new positive integer symbols;
    ``ceil_div(a,b)`` is ``ceiling(a/b)`` and ``min(a,b)`` is ``Min(a, b)``; a
    tuple is a tuple of expressions. Needs sympy (``pip install sympy``).

    A sympy expression is valid input where kute takes an integer: a sympy
    symbol is the same kute unknown in every call (a multiple of 2 when
    declared ``even``)::

        >>> import sympy
        >>> M = sympy.Symbol("M", positive=True, integer=True)
        >>> kute.to_sympy(kute.size(kute.Layout((M, 64), (1, M))))
        64*M
    """
    import re
    import sympy

    if isinstance(x, (tuple, list)):
        return tuple(to_sympy(y, symbols) for y in x)
    if isinstance(x, int):
        return sympy.Integer(x)
    if not isinstance(x, IntTuple):
        x = IntTuple(x)
    # static marks (`_4`) go, unnamed unknowns (`?3`) are named `u3`
    text = re.sub(r"(?<![A-Za-z0-9_])_(?=[0-9-])", "", str(x))
    text = re.sub(r"\?([0-9]+)", r"u\1", text)
    given = {s.name: s for s in symbols}
    names = {
        n: given.get(n) or sympy.Symbol(n, positive=True, integer=True)
        for n in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text)
    }
    names["ceil_div"] = lambda a, b: sympy.ceiling(sympy.Rational(1) * a / b)
    names["min"] = sympy.Min
    return sympy.sympify(text, locals=names)


def _function(name, signature, summary):
    def f(*args, targs=None):
        return call(name, *args, targs=targs)

    f.__name__ = f.__qualname__ = name
    f.__module__ = __name__
    f.__doc__ = "%s\n\n%s (kute's %s; template arguments as targs=)" % (signature, summary, name)
    return f


# CuTe's short name of the swizzle
Sw = Swizzle


def _install():
    for name, aliases, signature, summary in functions():
        for n in (name, *aliases):
            if n.isidentifier() and not _keyword.iskeyword(n) and n not in globals():
                # the native function where there is one (a direct path for layouts)
                globals()[n] = getattr(_kute, n, None) or _function(n, signature, summary)
                if not hasattr(_builtins, n):
                    __all__.append(n)


_install()
del _install

# ---------------------------------------------------------------- tensors (_tensor.py)

from . import _tensor  # noqa: E402
from ._tensor import IdentityTensor, Tensor, copy  # noqa: E402,F401

_expr_make_tensor = globals()["make_tensor"]


def make_tensor(buffer, layout):
    """CuTe's ``make_tensor(ptr_or_array, layout)``: ``kute.Tensor(buffer, layout)`` of a
    numpy array or DLPack buffer; ``make_tensor("counting", L)`` is kute's counting tensor
    (a ``kute.Value``)."""
    if isinstance(buffer, str):
        return _expr_make_tensor(buffer, layout)
    return Tensor(buffer, layout)


make_identity_tensor = _tensor.make_identity_tensor
print_tensor = _tensor.print_tensor


def _tensor_install():
    g = globals()
    # the native functions (a direct path for layouts) call their tensor-aware form only for a
    # tensor operand (_kute._tensor_hooks); the others are wrapped
    hooks = {}

    def install(n, aware):
        if getattr(_kute, n, None) is g[n]:
            hooks[n] = aware(g[n])
        else:
            g[n] = aware(g[n])

    # kute's tensor overloads: the answer is a tensor of the same buffer
    for n in ("shape", "stride", "size", "cosize", "rank", "depth", "layout", "logical_divide", "zipped_divide",
              "tiled_divide", "flat_divide", "local_tile", "local_partition", "inner_partition", "outer_partition"):
        install(n, _tensor._tensor_aware)
    # layout to layout: the tensor of the new layout at the same offset
    for n in ("composition", "coalesce", "flatten", "select"):
        install(n, _tensor._relayout_aware)
    _kute._tensor_hooks((Tensor, IdentityTensor), hooks)
    for n in ("Tensor", "IdentityTensor", "make_tensor", "make_identity_tensor", "print_tensor", "copy"):
        if n not in __all__:
            __all__.append(n)


_tensor_install()
del _tensor_install
