//! The USI engine as a GUI sees it: the built binary driven through its stdin and stdout.
//!
//! Every read has a deadline, so a hung engine fails its test instead of hanging CI.
//!
//! * `session`: a GUI's session — problems one after another, lines played back, progress, game `go`;
//! * `control`: `stop`, `quit`, `isready` at any moment, `go` commands that wait their turn, end of input;
//! * `input`: bad input of every kind, answered with an `info string`;
//! * `lines`: `PostSearchLevel`, `CheckAlternatives` and `FutileInterposition`;
//! * `storm`: random sessions of good and bad commands, every answer counted and verified.

#[path = "../common/mod.rs"]
mod common;

mod control;
mod input;
mod lines;
mod session;
mod storm;

use common::PERPETUAL_IN_NET;
use kanju::position::{Move, Position};
use kanju::search::verify_mate_line;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// tanuki-m3-1 (shared/problems/tanuki.tsv): mate in 3.
const MATE3: &str = "9/8k/9/7RG/9/9/9/9/9 b r2b3g4s4n4l18p 1";

/// tanuki-m1-1: mate in 1.
const MATE1: &str = "9/7Sk/1+R7/9/9/9/9/9/9 b r2b4g3s4n4l18p 1";

/// The attacker has nothing in hand and no piece on the board: no check, so no mate.
const NOMATE: &str = "4k4/9/9/9/9/9/9/9/9 b - 1";

/// Microcosmos (shared/problems/microcosmos.tsv), a mate in 1525: no search finishes it in a test's time.
const MICROCOSMOS: &str =
    "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1";

/// Generous: CI machines are slow and run tests side by side.
const ANSWER: Duration = Duration::from_secs(60);

const QUICK: Duration = Duration::from_secs(5);

/// A running engine with a line reader on its stdout.
struct Engine {
    child: Child,
    /// `None` once closed (end of input).
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything read so far, for failure messages.
    log: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kanju"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin: Some(stdin),
            lines,
            log: Vec::new(),
        }
    }

    /// An engine past the handshake, with a small table (tests run side by side).
    fn ready() -> Engine {
        let mut e = Engine::start();
        e.send("usi");
        e.read_until("usiok", QUICK);
        e.make_ready();
        e
    }

    /// A 32 MiB table, one thread (node counts and lines the same at every run, whatever the
    /// machine's cores), `isready` answered.
    fn make_ready(&mut self) {
        self.send("setoption name USI_Hash value 32");
        self.send("setoption name Threads value 1");
        self.send("isready");
        self.read_until("readyok", ANSWER);
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").expect("the engine reads its stdin");
        stdin.flush().expect("flush");
    }

    /// Bytes as they are, line endings included.
    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("the engine reads its stdin");
        stdin.flush().expect("flush");
    }

    /// `ready`, having answered `usi` with `option` among its lines.
    fn announcing(option: &str) -> Engine {
        let mut e = Engine::start();
        e.send("usi");
        let hello = e.read_until("usiok", QUICK);
        assert!(hello.iter().any(|l| l == option), "{option}: {hello:?}");
        e.make_ready();
        e
    }

    /// Sends `cmd` and expects it refused with an `info string error` (the engine answers `isready`
    /// after it all the same).
    fn assert_refused(&mut self, cmd: &str) {
        let refused = self.answer_to(cmd);
        assert!(
            refused.iter().any(|l| l.starts_with("info string error")),
            "{cmd}: {refused:?}"
        );
    }

    /// Sends `cmd`, then `isready`, and returns what came before `readyok`.
    fn answer_to(&mut self, cmd: &str) -> Vec<String> {
        self.send(cmd);
        self.send("isready");
        let mut lines = self.read_until("readyok", QUICK);
        lines.pop();
        lines
    }

    fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Reads lines up to and including the first that is `word` or starts with `word `.
    fn read_until(&mut self, word: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.log.push(line.clone());
                    let done = line == word || line.starts_with(&format!("{word} "));
                    got.push(line);
                    if done {
                        return got;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!(
                    "no '{word}' within {timeout:?}; output so far: {:#?}",
                    self.log
                ),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the engine closed stdout before '{word}': {:#?}", self.log)
                }
            }
        }
    }

    /// The `checkmate …` line after a `go mate`.
    fn checkmate(&mut self, timeout: Duration) -> String {
        self.read_until("checkmate", timeout)
            .pop()
            .expect("read_until returns the match")
    }

    /// No line that is or starts with `word` for `wait` (other lines, such as `info`, are read and
    /// logged).
    fn assert_no(&mut self, word: &str, wait: Duration) {
        let deadline = Instant::now() + wait;
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.log.push(line.clone());
            assert!(
                line != word && !line.starts_with(&format!("{word} ")),
                "unexpected '{line}'; before it: {:#?}",
                self.log
            );
        }
    }

    /// No more output for `wait`.
    fn assert_silent(&mut self, wait: Duration) {
        if let Ok(line) = self.lines.recv_timeout(wait) {
            panic!("unexpected output '{line}'; before it: {:#?}", self.log);
        }
    }

    /// Waits for the process to exit, at most `timeout`.
    fn wait_exit(&mut self, timeout: Duration) -> std::process::ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the engine did not exit within {timeout:?}"
            );
            thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The moves of `text` (USI, space separated) played from `root`; panics, quoting `context`, at
/// the first that is not legal.
fn replay(root: &Position, text: &str, context: &str) -> Vec<Move> {
    let mut pos = root.clone();
    let mut line = Vec::new();
    for usi in text.split_whitespace() {
        let m = pos
            .parse_usi_move(usi)
            .unwrap_or_else(|| panic!("illegal move {usi} in '{context}'"));
        pos.do_move(m);
        line.push(m);
    }
    line
}

/// Replays a `checkmate` line from `sfen` and checks it with kanju's own verifier.
fn assert_mate(sfen: &str, checkmate: &str, min_len: usize) -> Vec<Move> {
    let text = checkmate
        .strip_prefix("checkmate ")
        .expect("a checkmate line");
    assert!(
        !["nomate", "timeout", "notimplemented"].contains(&text),
        "expected a mate from {sfen}, got '{checkmate}'"
    );
    let root = Position::from_sfen(sfen).expect("test SFEN");
    let line = replay(&root, text, checkmate);
    assert!(verify_mate_line(&root, &line), "not a mate: {checkmate}");
    assert!(
        line.len() >= min_len,
        "{checkmate} is shorter than the shortest mate ({min_len})"
    );
    line
}

/// yaneuraou-mate3 row yo-m3-17: a mate in 3 whose first proof is a much longer line (15 plies when
/// this test was written). A GUI user asking for its mate must be shown the 3 plies.
const YO_M3_17: &str = "3g2S1l/3s2k2/3ppplpp/2p3R2/rP7/1LP1P2P1/N2P1P2P/2GSG4/3KN2NL b BG4Pbsnp 89";
