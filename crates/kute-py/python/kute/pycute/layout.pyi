# Type stubs of kute.pycute.layout: kute.pycute's names under pycute's module.

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
from kute.pycute import LayoutBase as LayoutBase
from kute.pycute import is_layout as is_layout
from kute.pycute import Layout as Layout
from kute.pycute import make_layout as make_layout
from kute.pycute import size as size
from kute.pycute import cosize as cosize
from kute.pycute import coalesce as coalesce
from kute.pycute import filter as filter
from kute.pycute import composition as composition
from kute.pycute import complement as complement
from kute.pycute import right_inverse as right_inverse
from kute.pycute import left_inverse as left_inverse
from kute.pycute import logical_divide as logical_divide
from kute.pycute import logical_product as logical_product
from kute.pycute import hier_unzip as hier_unzip
from kute.pycute import zipped_divide as zipped_divide
from kute.pycute import tiled_divide as tiled_divide
from kute.pycute import zipped_product as zipped_product
from kute.pycute import tiled_product as tiled_product
from kute.pycute import blocked_product as blocked_product
from kute.pycute import raked_product as raked_product
from kute.pycute import slice_and_offset as slice_and_offset

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
    "LayoutBase",
    "is_layout",
    "Layout",
    "make_layout",
    "size",
    "cosize",
    "coalesce",
    "filter",
    "composition",
    "complement",
    "right_inverse",
    "left_inverse",
    "logical_divide",
    "logical_product",
    "hier_unzip",
    "zipped_divide",
    "tiled_divide",
    "zipped_product",
    "tiled_product",
    "blocked_product",
    "raked_product",
    "slice_and_offset",
]
