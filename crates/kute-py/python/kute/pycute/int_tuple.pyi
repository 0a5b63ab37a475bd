# Type stubs of kute.pycute.int_tuple: kute.pycute's names under pycute's module, with
# typing's (as pycute's int_tuple has them).

# Each module has the names of the one before it, re-exported with `import *`; its __all__ is
# that module's, extended with its own names (mypy reads an `__all__ as __all__` import as that
# module's list, and pyright follows `.extend`; stubtest checks the list against the runtime's).
from .typing import *
from .typing import __all__ as __all__
from . import (
    is_int, is_tuple, flatten, signum, product, inner_product, tuple_max, elem_scale, shape_div,
    prefix_product, idx2crd, crd2idx, crd2crd, slice_, has_none,
)

__all__.extend([
    "is_int", "is_tuple", "flatten", "signum", "product", "inner_product", "tuple_max",
    "elem_scale", "shape_div", "prefix_product", "idx2crd", "crd2idx", "crd2crd", "slice_",
    "has_none",
])
