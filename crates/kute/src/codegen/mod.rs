//! Code from layouts: source text that computes a layout's function with
//! every value baked in ([`cuda`]).

pub mod cuda;
