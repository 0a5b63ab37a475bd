# kute's tensors (the module behind kute.Tensor; its API is kute's, see __init__.pyi)
from kute import IdentityTensor as IdentityTensor
from kute import Tensor as Tensor
from kute import copy as copy
from kute import make_identity_tensor as make_identity_tensor
from kute import print_tensor as print_tensor
from typing import Any

def make_tensor(buffer: Any, layout: Any) -> Tensor: ...
