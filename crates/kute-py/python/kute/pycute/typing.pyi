# Type stubs of kute.pycute.typing: kute.pycute's names under pycute's module.

from . import Integer

__all__ = ["Integer"]
