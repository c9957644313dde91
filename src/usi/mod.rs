//! The front ends: the USI protocol for GUIs and harnesses, and the `solve` and `bench` commands.
//!
//! Everything here goes through `checked::CheckedSolver`, so no front end can print a mate line that
//! `verify_mate_line` has not passed.

pub mod bench;
pub mod checked;
pub mod command;
pub mod engine;
pub mod json;
pub mod options;
pub mod output;
pub mod shell;

pub use engine::run;
