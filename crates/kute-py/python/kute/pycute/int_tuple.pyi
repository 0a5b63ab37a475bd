# Type stubs of kute.pycute.int_tuple: kute.pycute's names under pycute's module.

from kute.pycute import Integer as Integer
from kute.pycute import is_int as is_int
from kute.pycute import is_tuple as is_tuple
from kute.pycute import flatten as flatten
from kute.pycute import signum as signum
from kute.pycute import product as product
from kute.pycute import inner_product as inner_product
from kute.pycute import tuple_max as tuple_max
from kute.pycute import elem_scale as elem_scale
from kute.pycute import shape_div as shape_div
from kute.pycute import prefix_product as prefix_product
from kute.pycute import idx2crd as idx2crd
from kute.pycute import crd2idx as crd2idx
from kute.pycute import crd2crd as crd2crd
from kute.pycute import slice_ as slice_
from kute.pycute import has_none as has_none

__all__ = [
    "Integer",
    "is_int",
    "is_tuple",
    "flatten",
    "signum",
    "product",
    "inner_product",
    "tuple_max",
    "elem_scale",
    "shape_div",
    "prefix_product",
    "idx2crd",
    "crd2idx",
    "crd2crd",
    "slice_",
    "has_none",
]
