//! CuTe's MMA and copy atoms as data: the layouts of `MMA_Traits<Op>` and `Copy_Traits<Op>` ([`traits`]).

pub mod traits;
