"""pycute.layout: ``Layout`` and the layout algebra (and, as in pycute, the names of
``int_tuple``).

kute.pycute's names under pycute's module, so that ``from pycute.layout import ...``
runs with ``pycute`` changed to ``kute.pycute``.
"""

import kute.pycute as _pycute

__all__ = _pycute._exports("layout")
globals().update((_name, getattr(_pycute, _name)) for _name in __all__)
