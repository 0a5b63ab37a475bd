//! The layout algebra: coalesce, composition, complement, inverses, divides and
//! products, with CuTe's exact answers.
//!
//! Every operation decides by value, exactly as CuTe does when all its inputs
//! are static, so run-time (dynamic) layouts get the same values as static ones.
//! Where CuTe would `static_assert`, or would return a layout that is not the
//! true composite, kute returns an [`Error`](crate::Error).
//!
//! The hot operations also come as `*_into(&mut out, ...)`, writing the result
//! into a layout the caller owns (and may reuse): the fastest form, since a
//! result returned by value is moved once more (see
//! [`doc::performance`](crate::doc::performance)).
//!
//! One file per operation, each written once: its special cases are early
//! branches, and it runs under a policy (the crate-private `policy` module)
//! that decides how it fails: a fast run whose failures are a zero-sized
//! value, then, for whatever that declines, a checked run whose failures are
//! errors. `out` holds where results are written.

mod coalesce;
mod common;
mod complement;
mod composition;
mod divide;
mod has_layout;
mod inverse;
mod like;
mod out;
mod product;
mod recast;
mod transform;

/// Runs an operation's checked run out of line, so that an `*_into` function
/// (try the fast run, else this) is small enough to inline into its caller.
#[inline(never)]
fn general(f: impl FnOnce() -> crate::Result<()>) -> crate::Result<()> {
    f()
}

pub use crate::tiler::{AsTiler, Tiler};
pub use coalesce::{
    bw_coalesce, coalesce, coalesce_into, coalesce_profile, coalesce_profile_with, coalesce_shape, coalesce_z,
    coalesce_z_profile, filter, filter_zeros,
};
pub use common::{common_coarsening, common_refinement, greatest_common_domain, layout_add};
pub use complement::{complement, complement_into, complement_self};
pub use composition::{composition, composition_into, composition_tiler, composition_tiler_into};
pub use divide::{
    domain_distribute, evenly_divides, flat_divide, flat_divide_into, logical_divide, logical_divide_into, tile_unzip,
    tiled_divide, tiled_divide_into, zip2_by, zipped_divide, zipped_divide_into,
};
pub use has_layout::HasLayout;
pub use inverse::{left_inverse, max_alignment, max_common_layout, max_common_vector, nullspace, right_inverse};
pub use like::{make_fragment_like, make_layout_like};
pub use product::{
    blocked_product, blocked_product_into, downcast, flat_product, flat_product_into, logical_product,
    logical_product_into, raked_product, raked_product_into, tile_to_shape, tiled_product, tiled_product_into, upcast,
    zipped_product, zipped_product_into,
};
pub(crate) use recast::{recast_factors, type_names};
pub use recast::{recast_layout, sizeof_bits};
pub(crate) use transform::transform_pairs;
pub use transform::{transform_layout, transform_layout2};
