# Type stubs of kute.pycute.typing: kute.pycute's names under pycute's module.

from kute.pycute import Integer as Integer

__all__ = [
    "Integer",
]
