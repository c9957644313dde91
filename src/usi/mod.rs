//! The USI protocol, for GUIs and harnesses: the command loop, command parsing, options, and output.
//!
//! Searches go through `crate::checked::CheckedSolver`, so no `checkmate` line can carry a mate that
//! `verify_mate_line` has not passed. The command-line modes live in `crate::cli`.

pub mod command;
pub mod engine;
pub mod options;
pub mod output;

pub use engine::{EngineLimits, run, run_stdio, run_with_limits};
