//! The layout algebra: coalesce, composition, complement, inverses, divides and
//! products, with CuTe's exact answers.
//!
//! Every operation decides by value, exactly as CuTe does when all its inputs
//! are static, so run-time (dynamic) layouts get the same values as static ones.
//! Where CuTe would `static_assert`, or would return a layout that is not the
//! true composite, kute returns an [`Error`](crate::Error).

mod coalesce;
mod complement;
mod composition;
mod divide;
mod inverse;
mod product;
mod tiler;

pub use coalesce::{coalesce, coalesce_profile, coalesce_profile_with, coalesce_shape, filter, filter_zeros};
pub use complement::{complement, complement_self};
pub use composition::{composition, composition_tiler};
pub use divide::{flat_divide, logical_divide, tile_unzip, tiled_divide, zipped_divide};
pub use inverse::{left_inverse, max_common_layout, max_common_vector, nullspace, right_inverse};
pub use product::{
    blocked_product, downcast, flat_product, logical_product, raked_product, tile_to_shape, tiled_product, upcast,
    zipped_product,
};
pub use tiler::Tiler;
