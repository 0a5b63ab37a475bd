//! kute's integration tests, one module per subject, built as one test binary:
//! on a 2-core machine twenty binaries, each linked against kute and its test
//! dependencies, cost more to build than the tests take to run, and one binary
//! runs all of them in parallel. (`autotests = false` in Cargo.toml.)

mod common;

mod alloc;
mod analysis;
mod api;
mod atom_traits;
mod basis;
mod codegen;
mod composed;
mod docs;
mod evaluator;
mod explain;
mod fast_paths;
mod format;
mod golden;
mod into;
mod laws;
mod layers;
mod no_panic;
mod print_vectors;
mod registry;
mod regressions;
mod svg_pictures;
mod symbolic;
mod syntax;
mod tensor;
mod tma;
mod tv_simulation;
mod units;
mod vectors;
