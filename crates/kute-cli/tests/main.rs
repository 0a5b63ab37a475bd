//! The integration tests, one module per subject, built as one test binary (one
//! link against kute instead of one per file; `autotests = false` in Cargo.toml).

mod api_table;
mod cli;
mod markdown;
mod python_package;
mod readme;
mod swizzle;
