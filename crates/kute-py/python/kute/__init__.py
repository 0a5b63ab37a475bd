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

Python ints are run-time (dynamic) integers, as a C++ ``int``; a string is an
expression of kute's language (``"_8"`` is a static 8, ``"(_4,_8):(_1,_4)"`` a
layout). Every function of the expression language is a module function of the
same CuTe name (``kute.functions()`` lists them; ``kute.call(name, ...)`` calls one
by name, ``targs=`` giving template arguments: ``kute.size(L, targs=1)`` is
``size<1>(L)``). Errors raise :class:`KuteError` (a ``ValueError``) with kute's
message.

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
    Tiler,
    Underscore,
    Value,
    _,
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
__all__ = ["Layout", "IntTuple", "Tiler", "Value", "Underscore", "KuteError", "call", "functions", "sym", "substitute", "as_dsl"]


def _function(name, signature, summary):
    def f(*args, targs=None):
        return call(name, *args, targs=targs)

    f.__name__ = f.__qualname__ = name
    f.__module__ = __name__
    f.__doc__ = "%s\n\n%s (kute's %s; template arguments as targs=)" % (signature, summary, name)
    return f


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
