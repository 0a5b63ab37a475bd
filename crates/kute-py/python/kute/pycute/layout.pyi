# Type stubs of kute.pycute.layout: kute.pycute's names under pycute's module, with
# int_tuple's (as pycute's layout has them).

# (the names and __all__ of int_tuple, extended as in int_tuple.pyi)
from .int_tuple import *
from .int_tuple import __all__ as __all__
from . import (
    LayoutBase, is_layout, Layout, make_layout, size, cosize, coalesce, filter, composition,
    complement, right_inverse, left_inverse, logical_divide, logical_product, hier_unzip,
    zipped_divide, tiled_divide, zipped_product, tiled_product, blocked_product, raked_product,
    slice_and_offset,
)

__all__.extend([
    "LayoutBase", "is_layout", "Layout", "make_layout", "size", "cosize", "coalesce", "filter",
    "composition", "complement", "right_inverse", "left_inverse", "logical_divide",
    "logical_product", "hier_unzip", "zipped_divide", "tiled_divide", "zipped_product",
    "tiled_product", "blocked_product", "raked_product", "slice_and_offset",
])
