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
    eval,
    functions,
)

# (`from kute import *` leaves Python's builtins alone: kute.eval, kute.filter, kute.slice, ...
# and kute._ are reached through the module)
__all__ = ["Layout", "IntTuple", "Tiler", "Value", "Underscore", "KuteError", "call", "functions"]


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
