//! The USI protocol, for GUIs and harnesses: the command loop, command parsing, options, output, and
//! the search thread of a `go` (`job`).
//!
//! Searches go through `crate::checked::CheckedSolver`, so no `checkmate` line can carry a mate that
//! `verify_mate_line` has not passed. The command-line modes live in `crate::cli`.

pub mod command;
pub mod engine;
mod job;
pub mod options;
pub mod output;

pub use engine::{EngineLimits, run, run_stdio, run_with_limits};
