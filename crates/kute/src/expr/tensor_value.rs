//! The tensors of the expression language as values: a counting or identity
//! (coordinate) tensor.

use crate::error::Result;
use crate::tensor::{Coords, Counting, Pointer, Tensor};
use std::fmt;

/// A tensor value of the expression language.
#[derive(Clone, Debug, PartialEq)]
pub enum TensorValue {
    /// A tensor of a counting engine (`make_tensor(counting, L)`).
    Counting(Tensor<Counting>),
    /// A coordinate tensor (`make_identity_tensor(S)`).
    Identity(Tensor<Coords>),
    /// A tensor of a gmem or smem pointer, as the tensor algorithms give it
    /// (`local_tile` of `make_tensor(make_gmem_ptr<T>(a), L)`): its layout
    /// and address, no elements.
    Pointer(Tensor<Pointer>),
    /// A tensor in tensor memory (`partition_fragment_C` of a tcgen05 MMA,
    /// `make_tensor(make_tmem_ptr<T>(0), L)`), with its layout as an
    /// [`crate::AnyLayout`] for the functions of layouts.
    Tmem(Box<(crate::atom::tmem::TmemTensor, crate::AnyLayout)>),
    /// The coordinate tensor of an im2col TMA copy (`get_tma_tensor` of
    /// `make_im2col_tma_copy`): a composed layout over TMA coordinates.
    Im2col(Box<crate::atom::tma_im2col::Im2colTensor>),
}

impl Eq for TensorValue {}

impl fmt::Display for TensorValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::tensor::Engine;
        match self {
            TensorValue::Counting(t) => write!(f, "{} o {}", t.engine().describe(t.offset()), t.layout()),
            TensorValue::Identity(t) => write!(f, "{} o {}", t.engine().describe(t.offset()), t.layout()),
            TensorValue::Pointer(t) => write!(f, "{} o {}", t.engine().describe(t.offset()), t.layout()),
            TensorValue::Tmem(t) => write!(f, "{}", t.0),
            TensorValue::Im2col(t) => write!(f, "{t}"),
        }
    }
}

impl TensorValue {
    /// Whether the tensor holds a symbol. Pre: none. Post: the answer.
    pub(crate) fn has_symbols(&self) -> bool {
        match self {
            TensorValue::Counting(t) => t.has_symbols(),
            TensorValue::Identity(t) => t.has_symbols(),
            TensorValue::Pointer(t) => t.has_symbols(),
            TensorValue::Tmem(t) => t.0.layout().has_symbols(),
            TensorValue::Im2col(_) => false,
        }
    }

    /// The tensor with values put in for its unknowns.
    pub(crate) fn substitute(&self, v: &crate::sym::Valuation) -> Result<TensorValue> {
        Ok(match self {
            TensorValue::Counting(t) => TensorValue::Counting(t.substitute(v)?),
            TensorValue::Identity(t) => TensorValue::Identity(t.substitute(v)?),
            TensorValue::Pointer(t) => TensorValue::Pointer(t.substitute(v)?),
            TensorValue::Tmem(..) | TensorValue::Im2col(_) => self.clone(),
        })
    }

    /// The leaves of its layout (for the evaluator's budgets).
    pub(crate) fn leaf_count(&self) -> usize {
        match self {
            TensorValue::Counting(t) => t.layout().leaf_count(),
            TensorValue::Identity(t) => t.layout().leaf_count(),
            TensorValue::Pointer(t) => t.layout().leaf_count(),
            TensorValue::Tmem(t) => t.0.layout().leaves().len(),
            TensorValue::Im2col(t) => t.multimode().leaves().len() + t.linear().leaves().len(),
        }
    }

    /// The depth of its layout.
    pub(crate) fn depth(&self) -> usize {
        match self {
            TensorValue::Counting(t) => t.layout().depth(),
            TensorValue::Identity(t) => t.layout().depth(),
            TensorValue::Pointer(t) => t.layout().depth(),
            TensorValue::Tmem(t) => t.0.layout().depth(),
            TensorValue::Im2col(t) => t.multimode().depth().max(t.linear().depth()),
        }
    }

    /// Its layout.
    pub(crate) fn layout(&self) -> Result<&crate::AnyLayout> {
        match self {
            TensorValue::Counting(t) => Ok(t.layout()),
            TensorValue::Identity(t) => Ok(t.layout()),
            TensorValue::Pointer(t) => Ok(t.layout()),
            TensorValue::Tmem(t) => Ok(&t.1),
            TensorValue::Im2col(_) => Err(crate::expr::functions::im2col_unsupported()),
        }
    }
}
