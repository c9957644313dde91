//! The USI engine as a GUI sees it: the built binary driven through its stdin and stdout.
//!
//! Every read has a deadline, so a hung engine fails its test instead of hanging CI.

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
        e.send("setoption name USI_Hash value 32");
        e.send("isready");
        e.read_until("readyok", ANSWER);
        e
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").expect("the engine reads its stdin");
        stdin.flush().expect("flush");
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
    let mut pos = root.clone();
    let mut line = Vec::new();
    for usi in text.split_whitespace() {
        let m = pos
            .parse_usi_move(usi)
            .unwrap_or_else(|| panic!("illegal move {usi} in '{checkmate}'"));
        pos.do_move(m);
        line.push(m);
    }
    assert!(verify_mate_line(&root, &line), "not a mate: {checkmate}");
    assert!(
        line.len() >= min_len,
        "{checkmate} is shorter than the shortest mate ({min_len})"
    );
    line
}

#[test]
fn shogihome_sequence_solves_a_mate_in_3() {
    let mut e = Engine::start();
    e.send("usi");
    let hello = e.read_until("usiok", QUICK);
    assert_eq!(
        hello[0],
        format!("id name kanju {}", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(hello[1], "id author the kanju developers");
    for name in ["USI_Hash", "Threads", "PvInterval"] {
        assert!(
            hello
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type spin"))),
            "{name} missing: {hello:?}"
        );
    }
    // ShogiHome sends every option back before isready.
    e.send("setoption name USI_Hash value 32");
    e.send("setoption name Threads value 1");
    e.send("setoption name PvInterval value 1000");
    e.send("isready");
    let ready = e.read_until("readyok", ANSWER);
    assert!(ready.iter().all(|l| !l.contains("error")), "{ready:?}");
    e.send("usinewgame");
    e.send(&format!("position sfen {MATE3}"));
    e.send("go mate infinite");
    let answer = e.checkmate(ANSWER);
    assert_mate(MATE3, &answer, 3);
    e.send("quit");
    assert!(e.wait_exit(QUICK).success());
}

#[test]
fn solves_problems_in_a_row_on_one_table() {
    let mut e = Engine::ready();
    e.send(&format!("position sfen {MATE1}"));
    e.send("go mate 30000");
    assert_eq!(assert_mate(MATE1, &e.checkmate(ANSWER), 1).len(), 1);
    e.send("usinewgame");
    e.send(&format!("position {NOMATE}"));
    e.send("go mate");
    assert_eq!(e.checkmate(ANSWER), "checkmate nomate");
    e.send(&format!("position sfen {MATE3}"));
    e.send("go mate 30000");
    assert_mate(MATE3, &e.checkmate(ANSWER), 3);
}

#[test]
fn stop_mid_search_answers_timeout_at_once() {
    let mut e = Engine::ready();
    e.send(&format!("position sfen {MICROCOSMOS}"));
    e.send("go mate infinite");
    thread::sleep(Duration::from_millis(300));
    e.send("stop");
    let sent = Instant::now();
    let answer = e.checkmate(QUICK);
    let took = sent.elapsed();
    assert_eq!(answer, "checkmate timeout");
    assert!(
        took < Duration::from_millis(100),
        "checkmate came {took:?} after stop"
    );
    // Exactly one answer, and the engine is usable again.
    e.send("isready");
    let after = e.read_until("readyok", QUICK);
    assert!(
        after.iter().all(|l| !l.starts_with("checkmate")),
        "{after:?}"
    );
    e.send("position startpos");
    e.send("go mate 200");
    e.checkmate(ANSWER);
}

#[test]
fn quit_mid_search_exits_zero_promptly() {
    let mut e = Engine::ready();
    e.send(&format!("position sfen {MICROCOSMOS}"));
    e.send("go mate infinite");
    thread::sleep(Duration::from_millis(300));
    e.send("quit");
    let status = e.wait_exit(Duration::from_secs(2));
    assert!(status.success(), "{status:?}");
}

#[test]
fn isready_and_setoption_are_answered_during_a_search() {
    let mut e = Engine::ready();
    e.send(&format!("position sfen {MICROCOSMOS}"));
    e.send("go mate infinite");
    thread::sleep(Duration::from_millis(100));
    e.send("setoption name USI_Hash value 16");
    e.send("isready");
    let lines = e.read_until("readyok", Duration::from_secs(2));
    assert!(
        lines.iter().all(|l| !l.starts_with("info string")),
        "{lines:?}"
    );
    // A second go while the first runs is refused and gets no answer of its own.
    e.send("go mate 100");
    e.read_until("info string error:", QUICK);
    e.send("stop");
    assert_eq!(e.checkmate(QUICK), "checkmate timeout");
    e.assert_silent(Duration::from_millis(300));
}

#[test]
fn bad_input_is_answered_with_errors_and_the_engine_stays_up() {
    let mut e = Engine::ready();
    let long = "x".repeat(100_000);
    let bad = [
        "hello",
        "setoption name USI_Hash value abc",
        "setoption name USI_Hash value -1",
        "setoption name USI_Hash value 0",
        "setoption name USI_Hash value 99999999999",
        "setoption name Threads value 4",
        "setoption name PvInterval value 1.5",
        "setoption name NoSuchOption value 1",
        "setoption USI_Hash 64",
        "position sfen garbage",
        "position sfen 9/9/9/9/9/9/9/9/9 b - 1",
        "position startpos moves 1a1a",
        "position",
        "go mate soon",
        "go wtime lots",
        "\u{1}\u{7f}",
        long.as_str(),
    ];
    for cmd in bad {
        e.send(cmd);
        e.send("isready");
        let lines = e.read_until("readyok", QUICK);
        assert!(
            lines.iter().any(|l| l.starts_with("info string error: ")),
            "no error for '{}': {lines:?}",
            &cmd[..cmd.len().min(60)]
        );
    }
    // Empty lines are ignored silently.
    e.send("");
    e.send("   ");
    e.send("isready");
    assert_eq!(e.read_until("readyok", QUICK), ["readyok"]);
    // The options kept their old values: the search still runs.
    e.send(&format!("position sfen {MATE1}"));
    e.send("go mate 30000");
    assert_mate(MATE1, &e.checkmate(ANSWER), 1);
}

#[test]
fn go_without_a_position_still_answers() {
    let mut e = Engine::ready();
    e.send("go mate 1000");
    let lines = e.read_until("checkmate", QUICK);
    assert!(
        lines.iter().any(|l| l.starts_with("info string error: ")),
        "{lines:?}"
    );
    assert_eq!(lines.last().map(String::as_str), Some("checkmate timeout"));
    e.send("go btime 1000 wtime 1000 byoyomi 1000");
    let lines = e.read_until("bestmove", QUICK);
    assert_eq!(lines.last().map(String::as_str), Some("bestmove resign"));
    // A refused position leaves none behind: no stale answer for the previous one.
    e.send(&format!("position sfen {MATE1}"));
    e.send("position sfen nonsense");
    e.send("go mate 1000");
    let lines = e.read_until("checkmate", QUICK);
    assert_eq!(lines.last().map(String::as_str), Some("checkmate timeout"));
    // A mate problem needs a defending king.
    e.send("position sfen 9/9/9/9/9/9/9/9/4K4 b G 1");
    e.send("go mate 1000");
    let lines = e.read_until("checkmate", QUICK);
    assert!(lines.iter().any(|l| l.contains("king")), "{lines:?}");
}

#[test]
fn game_go_plays_the_mate_or_resigns() {
    let mut e = Engine::ready();
    // MATE1 with the attacker's king added, as in a game.
    let game = "9/7Sk/1+R7/9/9/9/9/9/K8 b r2b4g3s4n4l18p 1";
    e.send(&format!("position sfen {game}"));
    e.send("go btime 0 wtime 0 byoyomi 5000");
    let lines = e.read_until("bestmove", Duration::from_secs(10));
    let best = lines.last().expect("a bestmove line");
    assert_mate(
        game,
        &format!("checkmate {}", &best["bestmove ".len()..]),
        1,
    );
    e.send("gameover win");
    e.send("usinewgame");
    e.send("position startpos moves 7g7f 3c3d");
    let start = Instant::now();
    e.send("go btime 0 wtime 0 byoyomi 500");
    assert_eq!(
        e.read_until("bestmove", QUICK).last().map(String::as_str),
        Some("bestmove resign")
    );
    assert!(start.elapsed() < Duration::from_secs(2));
    e.send("position startpos");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(100));
    e.send("ponderhit");
    e.send("stop");
    assert_eq!(
        e.read_until("bestmove", QUICK).last().map(String::as_str),
        Some("bestmove resign")
    );
}

#[test]
fn progress_lines_follow_pv_interval() {
    let mut e = Engine::ready();
    e.send("setoption name PvInterval value 50");
    e.send(&format!("position sfen {MICROCOSMOS}"));
    e.send("go mate 600");
    let lines = e.read_until("checkmate", ANSWER);
    let progress: Vec<_> = lines.iter().filter(|l| l.contains(" hashfull ")).collect();
    assert!(progress.len() >= 2, "{lines:?}");
    for l in &progress {
        let words: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(&words[..2], ["info", "time"], "{l}");
        for key in ["nodes", "nps", "hashfull"] {
            let i = words
                .iter()
                .position(|w| w == &key)
                .unwrap_or_else(|| panic!("{key} missing in {l}"));
            assert!(words[i + 1].parse::<u64>().is_ok(), "{l}");
        }
    }
    e.send("setoption name PvInterval value 0");
    e.send("go mate 300");
    let lines = e.read_until("checkmate", ANSWER);
    assert!(lines.iter().all(|l| !l.contains(" hashfull ")), "{lines:?}");
}

#[test]
fn end_of_input_lets_the_search_finish() {
    let mut e = Engine::start();
    e.send(&format!("position sfen {MATE1}"));
    e.send("go mate 30000");
    e.close_stdin();
    assert_mate(MATE1, &e.checkmate(ANSWER), 1);
    assert!(e.wait_exit(QUICK).success());
}
