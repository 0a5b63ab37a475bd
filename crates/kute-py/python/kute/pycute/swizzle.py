"""pycute.swizzle: ``Swizzle``, ``ComposedLayout``, ``shiftl`` and ``shiftr`` (and, as in
pycute, the names of ``layout``).

kute.pycute's names under pycute's module, so that ``from pycute.swizzle import ...``
runs with ``pycute`` changed to ``kute.pycute``.
"""

import kute.pycute as _pycute

__all__ = _pycute._exports("swizzle")
globals().update((_name, getattr(_pycute, _name)) for _name in __all__)
