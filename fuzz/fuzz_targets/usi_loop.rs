//! The USI command loop fed arbitrary lines, as a GUI or a broken harness might send them. It must not
//! panic or hang, must never report an internal error or an unverified mate, and must answer every
//! `go` with exactly one `checkmate`/`bestmove` line — except a `go` sent while a search runs, which
//! is refused with an error and owes nothing (README). Searches are capped in nodes and table size so
//! that an execution stays short whatever `go` and `setoption` say.
#![no_main]

use kanju::checked::{INTERNAL_ERROR, UNVERIFIED};
use kanju::usi::command::{self, Command};
use kanju::usi::{EngineLimits, run_with_limits};
use libfuzzer_sys::fuzz_target;
use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the engine says to a `go` sent while a search runs.
const BUSY_REFUSAL: &str =
    "info string error: a search is already running; 'go' ignored (send 'stop' first)";

/// The engine's stdout, readable after the loop returns.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The lines as the engine's reader sees them (`BufRead::lines`: split on `\n`, a trailing `\r`
/// dropped), up to and including the first `quit`; how many answers they owe.
fn owed_answers(data: &[u8]) -> usize {
    let mut owed = 0;
    let body = data.strip_suffix(b"\n").unwrap_or(data);
    if data.is_empty() {
        return 0;
    }
    for raw in body.split(|&b| b == b'\n') {
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let Ok(line) = std::str::from_utf8(raw) else {
            continue;
        };
        match command::parse(line) {
            Command::GoMate(_) | Command::Go(_) | Command::Refused { .. } => owed += 1,
            Command::Quit => break,
            _ => {}
        }
    }
    owed
}

fuzz_target!(|data: &[u8]| {
    let sink = Sink::default();
    let limits = EngineLimits {
        max_nodes: Some(3000),
        max_hash_mb: Some(1),
        // Long enough that a stopped search always hands its answer in before `quit` returns.
        quit_grace: Duration::from_secs(60),
    };
    let code = run_with_limits(Cursor::new(data.to_vec()), sink.clone(), limits);
    assert_eq!(code, 0);
    let out = String::from_utf8(sink.0.lock().unwrap().clone()).expect("UTF-8 output");
    let mut answers = 0;
    let mut refused_while_busy = 0;
    for line in out.lines() {
        // Whole lines: an error message may quote the input, and the input may say "internal".
        let message = line.strip_prefix("info string error: ");
        assert!(
            message != Some(INTERNAL_ERROR) && message != Some(UNVERIFIED),
            "internal error: {line}\ninput: {:?}\noutput:\n{out}",
            String::from_utf8_lossy(data)
        );
        if line.starts_with("checkmate ") || line.starts_with("bestmove ") {
            answers += 1;
        }
        // The whole line (engine.rs, `Engine::go`): the input may quote these words back.
        if line == BUSY_REFUSAL {
            refused_while_busy += 1;
        }
    }
    assert_eq!(
        answers + refused_while_busy,
        owed_answers(data),
        "input: {:?}\noutput:\n{out}",
        String::from_utf8_lossy(data)
    );
});
