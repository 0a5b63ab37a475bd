"""pycute.typing: the type ``Integer``.

kute.pycute's names under pycute's module, so that ``from pycute.typing import ...``
runs with ``pycute`` changed to ``kute.pycute``.
"""

import kute.pycute as _pycute

__all__ = _pycute._exports("typing")
globals().update((_name, getattr(_pycute, _name)) for _name in __all__)
