# Type stubs of kute.pycute.swizzle: kute.pycute's names under pycute's module, with
# layout's (as pycute's swizzle has them).

# (the names and __all__ of layout, extended as in int_tuple.pyi)
from .layout import *
from .layout import __all__ as __all__
from . import shiftr, shiftl, Swizzle, ComposedLayout

__all__.extend(["shiftr", "shiftl", "Swizzle", "ComposedLayout"])
