"""pycute.int_tuple: the functions of integer tuples (and, as in pycute, the names of
``typing``).

kute.pycute's names under pycute's module, so that ``from pycute.int_tuple import ...``
runs with ``pycute`` changed to ``kute.pycute``.
"""

from . import (  # noqa: F401
    Integer,
    is_int,
    is_tuple,
    flatten,
    signum,
    product,
    inner_product,
    tuple_max,
    elem_scale,
    shape_div,
    prefix_product,
    idx2crd,
    crd2idx,
    crd2crd,
    slice_,
    has_none,
)

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
