"""pycute.int_tuple: the functions of integer tuples (and, as in pycute, the names of
``typing``).

kute.pycute's names under pycute's module, so that ``from pycute.int_tuple import ...``
runs with ``pycute`` changed to ``kute.pycute``.
"""

import kute.pycute as _pycute

__all__ = _pycute._exports("int_tuple")
globals().update((_name, getattr(_pycute, _name)) for _name in __all__)
