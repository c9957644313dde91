//! The command-line front end: `kanju solve`, `kanju bench`, `kanju perft`, and the output formats they
//! write (JSON, Japanese notation, KIF). `main.rs` only parses the arguments and calls in here.
//!
//! Like the USI front end, everything here solves through `crate::checked::CheckedSolver`.

pub mod batch;
pub mod bench;
pub mod check;
pub mod json;
pub mod kif;
pub mod notation;
pub mod problems;
pub mod solve;
pub mod status;

use crate::position::{Position, movegen};
use std::time::Instant;

/// Runs `f` on a thread with the stack a search needs (it recurses once per ply), and returns its
/// result; `None` if the thread could not be started or panicked.
pub fn on_search_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    std::thread::Builder::new()
        .name("kanju".into())
        .stack_size(crate::search::SEARCH_STACK_BYTES)
        .spawn(f)
        .ok()?
        .join()
        .ok()
}

/// `kanju perft`: the leaf count of the legal move tree and how fast it was counted, as printed.
pub fn perft_report(sfen: &str, depth: u32) -> Result<String, String> {
    let mut pos = Position::from_sfen(sfen).map_err(|e| e.to_string())?;
    let t = Instant::now();
    let n = movegen::perft(&mut pos, depth);
    let secs = t.elapsed().as_secs_f64();
    Ok(format!(
        "perft {depth} = {n}\ntime {secs:.3} s, {:.0} leaves/s",
        n as f64 / secs.max(1e-9)
    ))
}
