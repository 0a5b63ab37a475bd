"""pycute.typing: the type ``Integer``.

kute.pycute's names under pycute's module, so that ``from pycute.typing import ...``
runs with ``pycute`` changed to ``kute.pycute``.
"""

from . import (  # noqa: F401
    Integer,
)

__all__ = [
    "Integer",
]
