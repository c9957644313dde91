//! The USI engine as a GUI sees it: the built binary driven through its stdin and stdout.
//!
//! Every read has a deadline, so a hung engine fails its test instead of hanging CI.

mod common;

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

    /// Bytes as they are, line endings included.
    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("the engine reads its stdin");
        stdin.flush().expect("flush");
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

/// Mating nets with a perpetual-check cycle inside, where a naive "position -> mate length" cache
/// prints a wrong length (`tests/differential` `perpetual_check_inside_the_net` shows it with the
/// naive cache and confirms the lengths with the brute force): the engine's `checkmate` line is the
/// minimax line.
/// A GUI may play the answer back move by move: `position … moves …` with the first plies of a line
/// whose interposition drops a piece the SFEN leaves out of the defender's hand (the tsume
/// convention: the defender holds the rest) is accepted, and the search goes on from there with
/// the rest of the line.
#[test]
fn the_engines_own_line_plays_back_with_moves() {
    const PROBLEM: &str = "3R1G3/4k4/4l4/9/9/9/9/9/9 b 2B3SP 1";
    let mut e = Engine::ready();
    e.send(&format!("position sfen {PROBLEM}"));
    e.send("go mate 30000");
    let line = e.checkmate(ANSWER);
    let moves: Vec<&str> = line.split_whitespace().skip(1).collect();
    assert_eq!(moves.len(), 5, "{line}");
    assert_eq!(
        moves[1], "P*4c",
        "{line}: the defender drops a pawn it was not given"
    );
    let played = format!("{PROBLEM} moves {} {}", moves[0], moves[1]);
    e.send(&format!("position sfen {played}"));
    e.send("go mate 30000");
    assert_eq!(assert_mate(&played, &e.checkmate(ANSWER), 3).len(), 3);
}

#[test]
fn perpetual_check_inside_the_net_over_usi() {
    let mut e = Engine::ready();
    for (sfen, minimax) in PERPETUAL_IN_NET {
        e.send(&format!("position sfen {sfen}"));
        e.send("go mate 60000");
        let answer = e.checkmate(ANSWER);
        assert_eq!(
            assert_mate(sfen, &answer, minimax).len(),
            minimax,
            "{sfen}: {answer}"
        );
    }
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
    // Generous: the machine may be loaded. `latencies` (ignored) measures the real figure.
    assert!(took < QUICK, "checkmate came {took:?} after stop");
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
    let status = e.wait_exit(QUICK);
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
    let lines = e.read_until("readyok", QUICK);
    assert!(
        lines.iter().all(|l| !l.starts_with("info string")),
        "{lines:?}"
    );
    // A second go while the first runs waits its turn (`a_go_during_a_search_waits_its_turn`): the
    // first answers at `stop`, then the second, within its own 100 ms.
    e.send("go mate 100");
    e.assert_no("checkmate", Duration::from_millis(200));
    e.send("stop");
    assert_eq!(e.checkmate(QUICK), "checkmate timeout");
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

/// A held `go`'s closing `info` lines (its score and line) come as soon as its search is over; only
/// the `bestmove` waits for `stop` (they waited with it, so a GUI analysing with `go infinite` and
/// `PvInterval 0` showed nothing until it stopped).
#[test]
fn a_held_go_shows_its_line_before_the_stop() {
    let game = "9/7Sk/1+R7/9/9/9/9/9/K8 b r2b4g3s4n4l18p 1";
    let mut e = Engine::ready();
    e.send("setoption name PvInterval value 0");
    e.send(&format!("position sfen {game}"));
    e.send("go infinite");
    let shown = e.read_until("info score mate 1", QUICK);
    assert_eq!(shown.last().unwrap(), "info score mate 1 pv 8c1c");
    e.assert_no("bestmove", Duration::from_millis(200));
    e.send("stop");
    assert_eq!(e.read_until("bestmove", QUICK), ["bestmove 8c1c"]);
}

/// USI: after `go infinite` the `bestmove` comes only once `stop` does, after `go ponder` once
/// `ponderhit` or `stop` does, however soon the search is over (a GUI analysing with `go infinite`
/// takes an early `bestmove` for the end of its analysis); `ponderhit` does not end a `go infinite`;
/// the end of input releases a held answer.
#[test]
fn infinite_and_ponder_answers_wait_for_stop_or_ponderhit() {
    let game = "9/7Sk/1+R7/9/9/9/9/9/K8 b r2b4g3s4n4l18p 1";
    let mut e = Engine::ready();
    e.send(&format!("position sfen {game}"));
    e.send("go infinite");
    e.assert_no("bestmove", Duration::from_millis(300));
    e.send("ponderhit");
    e.assert_no("bestmove", Duration::from_millis(200));
    e.send("stop");
    let best = e.read_until("bestmove", QUICK);
    assert_eq!(best.last().map(String::as_str), Some("bestmove 8c1c"));
    e.send("position startpos");
    e.send("go ponder btime 1000 wtime 1000 byoyomi 1000");
    e.assert_no("bestmove", Duration::from_millis(300));
    e.send("ponderhit");
    let best = e.read_until("bestmove", QUICK);
    assert_eq!(best.last().map(String::as_str), Some("bestmove resign"));
    // `ponderhit` lifts the hold, not the search: a mate that takes a while is still found (Zukou #1
    // with the attacker's king added, a mate in 69; `ponderhit` once stopped the search, and the
    // engine resigned a won position). The clock gives 30 s after `ponderhit` (the proof takes about
    // 2 s alone; with 60 s on the clock, 3 s, a loaded CI machine once ran out).
    let zukou1 = "1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/K1N6 b SP2gn2l11p 1";
    e.send(&format!("position sfen {zukou1}"));
    e.send("go ponder btime 600000 wtime 600000 byoyomi 0");
    thread::sleep(Duration::from_millis(20));
    e.send("ponderhit");
    let best = e.read_until("bestmove", ANSWER);
    assert_eq!(best.last().map(String::as_str), Some("bestmove S*5d"));
    // The end of input lifts the hold, not the search, likewise.
    let mut e = Engine::ready();
    e.send(&format!("position sfen {zukou1}"));
    e.send("go infinite");
    e.close_stdin();
    let best = e.read_until("bestmove", ANSWER);
    assert_eq!(best.last().map(String::as_str), Some("bestmove S*5d"));
    assert!(e.wait_exit(QUICK).success());
    // Held at the end of input: answered, then the engine leaves.
    let mut e = Engine::ready();
    e.send(&format!("position sfen {game}"));
    e.send("go infinite");
    e.assert_no("bestmove", Duration::from_millis(200));
    e.close_stdin();
    let best = e.read_until("bestmove", QUICK);
    assert_eq!(best.last().map(String::as_str), Some("bestmove 8c1c"));
    assert!(e.wait_exit(QUICK).success());
    // `go ponder` with a clock: after `ponderhit` the search has the clock's budget (here the
    // byoyomi less a margin), not all the time it wants (Microcosmos, with the attacker's king put
    // on 6i, is not proven in seconds).
    let mut e = Engine::ready();
    let game = "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B2K2G1g b - 1";
    e.send(&format!("position sfen {game}"));
    e.send("go ponder btime 0 wtime 0 byoyomi 500");
    e.assert_no("bestmove", Duration::from_millis(300));
    // The search after `ponderhit` resigns at the budget's end, not before (400 ms).
    let resigns_on_time = |e: &mut Engine, hit: Instant| {
        let best = e.read_until("bestmove", QUICK);
        assert_eq!(best.last().map(String::as_str), Some("bestmove resign"));
        let spent = hit.elapsed();
        assert!(spent >= Duration::from_millis(350), "{spent:?}");
    };
    let hit = Instant::now();
    e.send("ponderhit");
    resigns_on_time(&mut e, hit);
    // The same with the `go ponder` still waiting its turn behind a stopped search: the
    // `ponderhit` is its, not the stopped one's.
    e.send("go ponder");
    e.assert_no("bestmove", Duration::from_millis(100));
    e.send_raw(
        format!("stop\nposition sfen {game}\ngo ponder btime 0 wtime 0 byoyomi 500\nponderhit\n")
            .as_bytes(),
    );
    let hit = Instant::now();
    assert_eq!(
        e.read_until("bestmove", QUICK).last().map(String::as_str),
        Some("bestmove resign")
    );
    resigns_on_time(&mut e, hit);
    // A refused position (a game needs both kings) says why at once but holds its answer too.
    let mut e = Engine::ready();
    e.send("position sfen 4k4/9/9/9/9/9/9/9/9 b G 1");
    for (go, release, why) in [
        ("go infinite", "stop", "needs both kings"),
        ("go ponder", "ponderhit", "needs both kings"),
        // A malformed `go infinite`/`go ponder` too.
        ("go infinite searchmoves 7g7f", "stop", "unknown parameter"),
        ("go ponder btime x", "ponderhit", "is not a time"),
    ] {
        e.send(go);
        let said = e.read_until("info", QUICK);
        assert!(said.last().unwrap().contains(why), "{go}: {said:?}");
        e.assert_no("bestmove", Duration::from_millis(200));
        e.send(release);
        let best = e.read_until("bestmove", QUICK);
        assert_eq!(
            best.last().map(String::as_str),
            Some("bestmove resign"),
            "{go}"
        );
    }
    e.send("go");
    assert_eq!(
        e.read_until("bestmove", QUICK).last().map(String::as_str),
        Some("bestmove resign")
    );
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
    assert!(start.elapsed() < QUICK);
    // `go nodes` limits the search (Zukou #37, with the attacker's king in a corner, needs some
    // 0.5 M nodes to its proof); `go depth` is accepted and changes nothing.
    let zukou_37 = "1R7/9/g1+P6/+P2s5/1+bk+pg4/GN1Rl4/Pn+p6/3S5/8K b B2N3Pg2s3l10p 1";
    e.send(&format!("position sfen {zukou_37}"));
    e.send("go nodes 1000 depth 3");
    let lines = e.read_until("bestmove", ANSWER);
    assert_eq!(lines.last().map(String::as_str), Some("bestmove resign"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info time ") && l.contains(" nodes 10")),
        "{lines:?}"
    );
    e.send("go depth 3 nodes 10000000");
    assert_eq!(
        e.read_until("bestmove", ANSWER).last().map(String::as_str),
        Some("bestmove B*8d")
    );
    e.send("go nodes many");
    let refused = e.read_until("bestmove", QUICK);
    assert!(
        refused.iter().any(|l| l.contains("'many' is not a count")),
        "{refused:?}"
    );
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

/// Replays the `pv` of every line that has one from `sfen`, panicking at a move illegal there;
/// returns how many lines had one.
fn pvs_from_root(sfen: &str, lines: &[String]) -> usize {
    let root = Position::from_sfen(sfen).expect("test SFEN");
    let mut pvs = 0;
    for l in lines {
        let Some((_, pv)) = l.split_once(" pv ") else {
            continue;
        };
        let mut pos = root.clone();
        for usi in pv.split_whitespace() {
            let m = pos
                .parse_usi_move(usi)
                .unwrap_or_else(|| panic!("{usi} is not legal in the line from the root: {l}"));
            pos.do_move(m);
        }
        pvs += 1;
    }
    pvs
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
    // A report's `pv`, when there is one, is a line from the root (the reports are made deep in the
    // tree; they once walked from there).
    assert!(
        pvs_from_root(MICROCOSMOS, &lines) >= 1,
        "no report with a pv: {lines:?}"
    );
    // In the canonical game too, whose futile-interposition tests search from other nodes (Zukou #90
    // printed moves illegal at the root).
    let zukou90 = "3B1glk1/+Pp2Pp1l1/1S3+RP1s/2s2+B3/S6N1/2pl3p1/2+p6/2G6/+RG3P1Pg b L3n8p 1";
    e.send("setoption name FutileInterposition value Skip");
    e.send("setoption name PvInterval value 1");
    e.send(&format!("position sfen {zukou90}"));
    e.send("go mate 3000");
    pvs_from_root(zukou90, &e.read_until("checkmate", ANSWER));
    e.send("setoption name FutileInterposition value Count");
    e.send("setoption name PvInterval value 50");
    // While proving, each report comes with the root's proof and disproof numbers.
    let numbers: Vec<_> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info string root pn "))
        .collect();
    assert!(numbers.len() >= 2, "{lines:?}");
    for n in numbers {
        let words: Vec<&str> = n.split_whitespace().collect();
        assert!(words.len() == 3 && words[1] == "dn", "{n}");
        assert!(
            words[0].parse::<u32>().is_ok() && words[2].parse::<u32>().is_ok(),
            "{n}"
        );
    }
    e.send("setoption name PvInterval value 0");
    e.send("go mate 300");
    let lines = e.read_until("checkmate", ANSWER);
    assert!(lines.iter().all(|l| !l.contains(" hashfull ")), "{lines:?}");
    assert!(lines.iter().all(|l| !l.contains("root pn")), "{lines:?}");
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

/// Every `go mate` below must be refused with an error and `checkmate timeout`: never `nomate`, and
/// never a mate of a position that was not accepted.
fn assert_refused_go(e: &mut Engine, what: &str) {
    e.send("go mate 2000");
    let lines = e.read_until("checkmate", ANSWER);
    assert!(
        lines.iter().any(|l| l.starts_with("info string error: ")),
        "{what}: {lines:?}"
    );
    assert_eq!(
        lines.last().map(String::as_str),
        Some("checkmate timeout"),
        "{what}"
    );
}

#[test]
fn illegal_positions_are_refused_and_never_solved() {
    let mut e = Engine::ready();
    for (what, sfen) in [
        ("two pawns on a file", "4k4/9/4P4/9/9/9/4P4/9/9 b G 1"),
        ("a pawn on the last rank", "P3k4/9/9/9/9/9/9/9/9 b G 1"),
        ("a knight on the second rank", "4k4/N8/9/9/9/9/9/9/9 b G 1"),
        ("five golds", "4k4/9/9/9/9/9/9/9/9 b 5G 1"),
        ("two black kings", "4k4/9/9/9/9/9/9/9/K3K4 b G 1"),
        ("a king in hand", "4k4/9/9/9/9/9/9/9/9 b K 1"),
        (
            "the side not to move in check",
            "4k4/4R4/9/9/9/9/9/9/9 b - 1",
        ),
        ("no king at all", "9/9/9/9/9/9/9/9/9 b G 1"),
        ("a rank of ten squares", "4k5/9/9/9/9/9/9/9/9 b G 1"),
        ("eight ranks", "4k4/9/9/9/9/9/9/9 b G 1"),
        ("no side to move", "4k4/9/9/9/9/9/9/9/9"),
        ("a side that is no side", "4k4/9/9/9/9/9/9/9/9 x G 1"),
        ("an unknown piece", "4k4/9/9/9/4X4/9/9/9/9 b G 1"),
    ] {
        // A good position first, so that a stale one would be solved if the bad one were ignored.
        e.send(&format!("position sfen {MATE1}"));
        let lines = e.answer_to(&format!("position sfen {sfen}"));
        assert!(
            lines.iter().any(|l| l.starts_with("info string error: ")),
            "{what}: {lines:?}"
        );
        assert_refused_go(&mut e, what);
    }
}

#[test]
fn illegal_or_unparsable_moves_after_moves_are_refused() {
    let mut e = Engine::ready();
    for moves in [
        "7g7f 7g7f",
        "7g7f xyz",
        "7g7f 3c3d 8h2b+ 3a2b 2b3a",
        "P*5e",
        "7g7f+",
        "7g7f 3c3d 8h1a",
        "7g7f\u{1}",
    ] {
        e.send(&format!("position sfen {MATE1}"));
        let lines = e.answer_to(&format!("position startpos moves {moves}"));
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error: illegal move")),
            "{moves}: {lines:?}"
        );
        assert_refused_go(&mut e, moves);
    }
    // A legal list is taken, and an empty one too.
    for ok in [
        "position startpos moves 7g7f 3c3d 8h2b+ 3a2b",
        "position startpos moves",
    ] {
        assert_eq!(e.answer_to(ok), Vec::<String>::new(), "{ok}");
    }
}

#[test]
fn go_mate_with_a_bad_time_still_answers_once() {
    let mut e = Engine::ready();
    e.send(&format!("position sfen {MATE1}"));
    for go in [
        "go mate -5",
        "go mate abc",
        "go mate 1.5",
        "go mate 99999999999999999999999",
    ] {
        e.send(go);
        let lines = e.read_until("checkmate", QUICK);
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error: go mate")),
            "{go}: {lines:?}"
        );
        assert_eq!(
            lines.last().map(String::as_str),
            Some("checkmate timeout"),
            "{go}"
        );
    }
    for go in ["go btime -5 wtime abc", "go movetime", "go nodes x"] {
        e.send(go);
        let lines = e.read_until("bestmove", QUICK);
        assert_eq!(
            lines.last().map(String::as_str),
            Some("bestmove resign"),
            "{go}"
        );
    }
    // `go mate 0`: no time at all is a timeout, at once, not a hang.
    e.send(&format!("position sfen {MICROCOSMOS}"));
    e.send("go mate 0");
    assert_eq!(e.checkmate(QUICK), "checkmate timeout");
    // Nothing was left running: the engine answers the next problem normally.
    e.assert_silent(Duration::from_millis(200));
    e.send(&format!("position sfen {MATE1}"));
    e.send("go mate 30000");
    assert_mate(MATE1, &e.checkmate(ANSWER), 1);
}

/// The node count of a search's final `info` line (the one without a `pv`), among its output.
fn final_nodes(lines: &[String]) -> u64 {
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info time ") && !l.contains(" pv "))
        .unwrap_or_else(|| panic!("no final info line: {lines:?}"));
    info.split_whitespace()
        .skip_while(|w| *w != "nodes")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("a node count")
}

/// Starts a search that runs until `stop` (Microcosmos, `go mate infinite`) and sends a `go mate`
/// of `sfen` to wait its turn behind it.
fn queue_behind_a_long_search(e: &mut Engine, sfen: &str) {
    e.send(&format!("position sfen {MICROCOSMOS}"));
    e.send("go mate infinite");
    e.send(&format!("position sfen {sfen}"));
    e.send("go mate 30000");
}

/// A `go` while a search runs, well-formed or not, waits its turn: each gets its own answer, in the
/// order of the `go`s, each for the position it came with (a script pipes several problems at once;
/// they were refused, and a malformed one answered before the running search).
#[test]
fn a_go_during_a_search_waits_its_turn() {
    let mut e = Engine::ready();
    e.send(&format!("position sfen {MICROCOSMOS}"));
    e.send("go mate infinite");
    e.send(&format!("position sfen {MATE1}"));
    e.send("go mate 30000");
    e.send("go mate abc");
    e.send(&format!("position sfen {MATE3}"));
    e.send("go mate 30000");
    // Nothing is answered while the first search runs.
    e.assert_no("checkmate", Duration::from_millis(300));
    e.send("stop");
    assert_eq!(e.checkmate(ANSWER), "checkmate timeout");
    assert_mate(MATE1, &e.checkmate(ANSWER), 1);
    let refused = e.read_until("checkmate", ANSWER);
    assert!(
        refused
            .iter()
            .any(|l| l.starts_with("info string error: go mate: 'abc'")),
        "{refused:?}"
    );
    assert_eq!(
        refused.last().map(String::as_str),
        Some("checkmate timeout")
    );
    assert_mate(MATE3, &e.checkmate(ANSWER), 3);
    e.assert_silent(Duration::from_millis(300));
    // A waiting `go` searches with the options in effect when it came, not with a later
    // `setoption`'s: yo-m3-17's first proof is longer than its minimax 3.
    queue_behind_a_long_search(&mut e, YO_M3_17);
    e.send("setoption name PostSearchLevel value None");
    e.send("stop");
    assert_eq!(e.checkmate(ANSWER), "checkmate timeout");
    let line = assert_mate(YO_M3_17, &e.checkmate(ANSWER), 3);
    assert_eq!(line.len(), 3, "the later setoption was applied");
    e.send("go mate 30000");
    let line = assert_mate(YO_M3_17, &e.checkmate(ANSWER), 3);
    assert!(line.len() > 3, "the setoption was lost");
    // A `usinewgame` among waiting `go`s clears the table in its turn: the `go` before it still
    // finds yo-m3-17 proven by the search before (a few nodes), the one after searches afresh.
    e.send("setoption name PostSearchLevel value None");
    e.send("usinewgame");
    e.send(&format!("position sfen {YO_M3_17}"));
    e.send("go mate 30000");
    let fresh = final_nodes(&e.read_until("checkmate", ANSWER));
    queue_behind_a_long_search(&mut e, YO_M3_17);
    e.send("usinewgame");
    e.send("go mate 30000");
    e.assert_no("checkmate", Duration::from_millis(200));
    e.send("stop");
    assert_eq!(e.checkmate(ANSWER), "checkmate timeout");
    let warm = final_nodes(&e.read_until("checkmate", ANSWER));
    let cleared = final_nodes(&e.read_until("checkmate", ANSWER));
    assert!(
        warm < fresh && cleared == fresh,
        "fresh {fresh}, before usinewgame {warm}, after {cleared}"
    );
    // Piped at once and the input closed: every problem is answered before the engine leaves.
    let mut e = Engine::start();
    e.send(&format!(
        "position sfen {MATE3}\ngo mate 30000\nposition sfen {MATE1}\ngo mate 30000"
    ));
    e.close_stdin();
    assert_mate(MATE3, &e.checkmate(ANSWER), 3);
    assert_mate(MATE1, &e.checkmate(ANSWER), 1);
    assert!(e.wait_exit(ANSWER).success());
}

/// A `stop` ends every `go` before it that only a `stop` could end, the running one and those still
/// waiting their turn: a waiting one starts with its `stop` already given (it answers at once, with
/// what its first moment finds: a mate in one at the root); a waiting `go` with a limit of its own
/// still searches in its turn.
#[test]
fn a_stop_ends_a_waiting_go_infinite_too() {
    let mut e = Engine::ready();
    e.send(&format!("position sfen {MICROCOSMOS}"));
    e.send("go mate infinite");
    e.send("go mate infinite");
    e.send(&format!("position sfen {MATE1}"));
    e.send("go mate infinite");
    e.send("go mate 30000");
    e.assert_no("checkmate", Duration::from_millis(300));
    e.send("stop");
    assert_eq!(e.checkmate(QUICK), "checkmate timeout");
    // Before: the second search started after the `stop` and ran on for another.
    assert_eq!(e.checkmate(QUICK), "checkmate timeout");
    assert_mate(MATE1, &e.checkmate(QUICK), 1);
    assert_mate(MATE1, &e.checkmate(ANSWER), 1);
    e.assert_silent(Duration::from_millis(200));
    // A game's `go infinite` and `go ponder` likewise (`gameover` stops as `stop` does).
    let game = "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B2K2G1g b - 1";
    e.send(&format!("position sfen {game}"));
    e.send("go infinite");
    e.send("go ponder");
    e.assert_no("bestmove", Duration::from_millis(200));
    e.send("gameover lose");
    for _ in 0..2 {
        let best = e.read_until("bestmove", QUICK);
        assert_eq!(best.last().map(String::as_str), Some("bestmove resign"));
    }
    e.assert_silent(Duration::from_millis(200));
    // A waiting `go ponder` whose `ponderhit` came is an ordinary search on its clock: a `stop`
    // after that is not its (the mate in one with the attacker's king added is played, not resigned).
    let mate1_game = "4k4/9/4P4/9/9/9/9/9/8K b G2r2b3g4s4n4l17p 1";
    e.send(&format!("position sfen {MICROCOSMOS}"));
    e.send("go mate infinite");
    e.send(&format!("position sfen {mate1_game}"));
    e.send("go ponder btime 10000 wtime 10000 byoyomi 5000");
    e.send("ponderhit");
    e.send("stop");
    assert_eq!(e.checkmate(QUICK), "checkmate timeout");
    let best = e.read_until("bestmove", QUICK);
    assert_eq!(best.last().map(String::as_str), Some("bestmove G*5b"));
}

/// Only an open-ended search (no limit of any kind) gets the larger phase after the proof
/// (`SearchLimits::open_ended`): `go mate infinite` proves Zukou #30's line exact where `go mate
/// 60000` stops short and says so; a `go ponder` with a clock is a game's move after its
/// `ponderhit`, not an open-ended search (Kotobuki with the attacker's king added: the same nodes as
/// the same `go` without `ponder`, not five times as many).
#[test]
fn only_an_open_ended_go_gets_the_longer_line_phase() {
    const ZUKOU_30: &str = "4+LgB2/3+P1+R1R1/4+bl1g1/8k/5p1p1/7+p1/9/9/9 b 2G4s4n2l14p 1";
    let not_exact = "info string the search stopped before the line was proven shortest";
    let mut e = Engine::ready();
    e.send(&format!("position sfen {ZUKOU_30}"));
    e.send("go mate 60000");
    let said = e.read_until("checkmate", ANSWER);
    assert!(said.iter().any(|l| l.starts_with(not_exact)), "{said:?}");
    e.send("go mate infinite");
    let said = e.read_until("checkmate", ANSWER);
    assert!(!said.iter().any(|l| l.starts_with(not_exact)), "{said:?}");
    let game = "g1K1p3+r/3lPG3/1s4ppp/1l1B4P/L2b1kPl1/3+p3+R+p/3+p2+s1S/+NP+p1gS3/1g+p2P3 b 4P3n 1";
    let mut nodes = vec![];
    for go in [
        "go btime 0 wtime 0 byoyomi 20000",
        "go ponder btime 0 wtime 0 byoyomi 20000",
    ] {
        e.send("usinewgame");
        e.send(&format!("position sfen {game}"));
        e.send(go);
        e.send("ponderhit");
        let said = e.read_until("bestmove", ANSWER);
        assert_eq!(said.last().map(String::as_str), Some("bestmove 2f4f"));
        nodes.push(final_nodes(&said));
    }
    assert_eq!(nodes[0], nodes[1], "without ponder, with ponder");
}

#[test]
fn absurd_and_unknown_options_keep_the_old_values() {
    let mut e = Engine::ready();
    for cmd in [
        "setoption name USI_Hash value 1e9",
        "setoption name USI_Hash value 18446744073709551616",
        "setoption name USI_Hash value 1048576",
        "setoption name USI_Hash value",
        "setoption name USI_Hash",
        "setoption name PvInterval value -1",
        "setoption name Threads value 0",
        "setoption name USI_Ponder value 3",
        "setoption name Hash value 64",
        "setoption name value 5",
        "setoption name  value 5",
    ] {
        let lines = e.answer_to(cmd);
        assert!(
            lines.iter().any(|l| l.starts_with("info string error: ")),
            "no error for '{cmd}': {lines:?}"
        );
    }
    // Accepted ones are silent, whatever the case of the name.
    for cmd in [
        "setoption name usi_hash value 8",
        "setoption name USI_Ponder value true",
        "setoption name pvinterval value 0",
    ] {
        assert_eq!(e.answer_to(cmd), Vec::<String>::new(), "{cmd}");
    }
    e.send(&format!("position sfen {MATE1}"));
    e.send("go mate 30000");
    let lines = e.read_until("checkmate", ANSWER);
    assert!(
        lines.iter().all(|l| !l.contains("hashfull")),
        "PvInterval 0: {lines:?}"
    );
    assert_mate(MATE1, lines.last().unwrap(), 1);
}

#[test]
fn crlf_line_endings_and_empty_lines_are_fine() {
    let mut e = Engine::start();
    e.send_raw(b"usi\r\n\r\n\r\n   \r\n");
    e.read_until("usiok", QUICK);
    e.send_raw(b"setoption name USI_Hash value 16\r\nisready\r\n");
    assert_eq!(e.read_until("readyok", ANSWER), ["readyok"]);
    e.send_raw(format!("position sfen {MATE3}\r\ngo mate 30000\r\n").as_bytes());
    assert_mate(MATE3, &e.checkmate(ANSWER), 3);
    // A line too long to keep (3 MB with no newline yet) and one not UTF-8 are told and dropped;
    // the memory does not grow with them, and the next line is read as usual.
    e.send_raw(&vec![b'x'; 3_000_000]);
    e.send_raw(b"\n\xff\xfe\r\nisready\r\n");
    let told = e.read_until("readyok", ANSWER);
    assert_eq!(
        told,
        [
            "info string error: a line of more than 1048576 bytes was ignored",
            "info string error: a line that is not UTF-8 was ignored",
            "readyok"
        ]
    );
    e.send_raw(b"quit\r\n");
    assert!(e.wait_exit(QUICK).success());
}

/// A line that cannot be read (not UTF-8, or over 1 MiB) is not carried out, but it is still answered
/// for what it was: a `position` forgets the position before it (the next `go mate` solved the old
/// problem: a wrong `checkmate` for the position the GUI had sent), a `go` gets its reply in its turn,
/// `isready` its `readyok`.
#[test]
fn an_unreadable_line_is_answered_for_what_it_was() {
    let mut e = Engine::ready();
    // Mate in three, then a mate in one whose line is not UTF-8 (a note in Shift JIS after it).
    e.send(&format!("position sfen {MATE3}"));
    e.send("go mate 30000");
    assert_mate(MATE3, &e.checkmate(ANSWER), 3);
    let mut line = format!("position sfen {MATE1} ").into_bytes();
    line.extend_from_slice(b"\x82\xa0\n");
    e.send_raw(&line);
    e.send("go mate 30000");
    let answer = e.read_until("checkmate", ANSWER);
    assert_eq!(answer.last().unwrap(), "checkmate timeout", "{answer:?}");
    assert!(
        answer
            .iter()
            .any(|l| l.contains("the last 'position' line could not be read")),
        "{answer:?}"
    );
    // Too long, the same: the position before it is forgotten.
    e.send(&format!("position sfen {MATE3}"));
    let mut long = format!("position sfen {MATE1} moves").into_bytes();
    long.resize(1_100_000, b' ');
    long.push(b'\n');
    e.send_raw(&long);
    e.send("go mate 30000");
    assert_eq!(e.checkmate(ANSWER), "checkmate timeout");
    // A `go mate`, a game `go` and an `isready` that cannot be read are answered all the same.
    e.send(&format!("position sfen {MATE1}"));
    e.send_raw(b"go mate 1000 \xff\n");
    assert_eq!(e.checkmate(ANSWER), "checkmate timeout");
    e.send_raw(b"go btime 1000 wtime 1000\xff\n");
    let lines = e.read_until("bestmove", ANSWER);
    assert_eq!(lines.last().unwrap(), "bestmove resign", "{lines:?}");
    e.send_raw(b"isready\xff\n");
    let lines = e.read_until("readyok", QUICK);
    assert_eq!(
        lines,
        [
            "info string error: a line that is not UTF-8 was ignored",
            "readyok"
        ]
    );
    // The readable position is searched as usual.
    e.send("go mate 30000");
    assert_mate(MATE1, &e.checkmate(ANSWER), 1);
    // A garbled `stop` still ends a `go infinite` (its `bestmove` never came).
    e.send("position sfen 9/7Sk/1+R7/9/9/9/9/9/K8 b r2b4g3s4n4l18p 1");
    e.send("go infinite");
    e.assert_no("bestmove", Duration::from_millis(200));
    e.send_raw(b"stop\xff\n");
    let lines = e.read_until("bestmove", QUICK);
    assert_eq!(lines.last().unwrap(), "bestmove 8c1c", "{lines:?}");
}

/// An error that quotes its input writes the input's control characters escaped: a refused SFEN
/// with ESC, NUL or BEL in it once reached the GUI raw.
#[test]
fn errors_quote_control_characters_escaped() {
    let mut e = Engine::ready();
    e.send_raw(b"position sfen 4k4/9/9/9/9/9/9/9/9 b G 1\x1b[2J\x00\x07x\n");
    e.send_raw(b"isr\x00eady\n");
    e.send("isready");
    let lines = e.read_until("readyok", QUICK);
    let errors: Vec<_> = lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect();
    assert_eq!(errors.len(), 2, "{lines:?}");
    for l in &errors {
        assert!(!l.chars().any(char::is_control), "{l:?}");
        assert!(l.contains("\\u{"), "{l:?}");
    }
}

#[test]
fn stop_without_a_search_is_silent() {
    let mut e = Engine::ready();
    assert_eq!(e.answer_to("stop"), Vec::<String>::new());
    assert_eq!(e.answer_to("stop"), Vec::<String>::new());
    assert_eq!(e.answer_to("ponderhit"), Vec::<String>::new());
    assert_eq!(e.answer_to("gameover lose"), Vec::<String>::new());
    // A stop just after a search ended does not produce a second answer.
    e.send(&format!("position sfen {MATE1}"));
    e.send("go mate 30000");
    assert_mate(MATE1, &e.checkmate(ANSWER), 1);
    assert_eq!(e.answer_to("stop"), Vec::<String>::new());
}

#[test]
fn end_of_input_during_a_timed_search_answers_then_exits() {
    let mut e = Engine::ready();
    e.send(&format!("position sfen {MICROCOSMOS}"));
    e.send("go mate 1500");
    thread::sleep(Duration::from_millis(200));
    e.close_stdin();
    assert_eq!(e.checkmate(ANSWER), "checkmate timeout");
    assert!(e.wait_exit(QUICK).success());
}

#[test]
fn a_gui_that_closes_both_pipes_does_not_leave_a_search_running() {
    // The GUI dies during `go mate infinite`: stdin ends and stdout has no reader. With progress lines
    // the next one fails to write; without any (`PvInterval 0`) the engine sees the pipe's reader
    // gone. Either way it stops the search and exits instead of searching forever.
    for interval in [100, 0] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kanju"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let mut stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        writeln!(
            stdin,
            "setoption name USI_Hash value 16\nsetoption name PvInterval value {interval}\nposition sfen {MICROCOSMOS}\ngo mate infinite\nisready"
        )
        .unwrap();
        stdin.flush().unwrap();
        let mut reader = BufReader::new(stdout);
        // The search runs (`readyok` comes during it), and progress lines flow if asked for.
        let mut seen = String::new();
        while !(seen.contains("readyok") && (interval == 0 || seen.contains("info time"))) {
            let before = seen.len();
            reader.read_line(&mut seen).unwrap();
            assert!(
                seen.len() > before,
                "PvInterval {interval}: output ended: {seen}"
            );
        }
        // Dropping both ends is what a crashed GUI does.
        drop(stdin);
        drop(reader);
        let deadline = Instant::now() + ANSWER;
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("PvInterval {interval}: the engine kept searching after its GUI went away");
            }
            thread::sleep(Duration::from_millis(20));
        };
        assert!(status.success(), "PvInterval {interval}: {status:?}");
    }
}

/// Latencies a GUI feels, measured rather than asserted (run with `--ignored --nocapture`): the time
/// from `stop` to `checkmate timeout` mid-search, and from `isready` to `readyok` during a search.
#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn latencies() {
    let mut e = Engine::ready();
    let (mut stops, mut readies) = (Vec::new(), Vec::new());
    for _ in 0..20 {
        e.send(&format!("position sfen {MICROCOSMOS}"));
        e.send("go mate infinite");
        thread::sleep(Duration::from_millis(100));
        let t = Instant::now();
        e.send("isready");
        e.read_until("readyok", QUICK);
        readies.push(t.elapsed());
        let t = Instant::now();
        e.send("stop");
        e.checkmate(QUICK);
        stops.push(t.elapsed());
    }
    for (what, mut v) in [
        ("stop -> checkmate", stops),
        ("isready -> readyok", readies),
    ] {
        v.sort();
        println!(
            "{what}: median {:?}, max {:?} over {} searches",
            v[v.len() / 2],
            v[v.len() - 1],
            v.len()
        );
    }
}

/// yaneuraou-mate3 row yo-m3-17: a mate in 3 whose first proof is a much longer line (15 plies when
/// this test was written). A GUI user asking for its mate must be shown the 3 plies.
const YO_M3_17: &str = "3g2S1l/3s2k2/3ppplpp/2p3R2/rP7/1LP1P2P1/N2P1P2P/2GSG4/3KN2NL b BG4Pbsnp 89";

/// `PostSearchLevel` is announced as a combo, `MinLength` (the default) prints the minimax line with
/// an `info … score mate N pv …` line of the same length before it, and `None` prints the first
/// proof's line, which is a real mate but no shorter.
#[test]
fn post_search_level_chooses_the_line() {
    let mut e = Engine::start();
    e.send("usi");
    let hello = e.read_until("usiok", QUICK);
    assert!(
        hello.contains(
            &"option name PostSearchLevel type combo default MinLength var None var UpperBound var MinLength"
                .to_string()
        ),
        "{hello:?}"
    );
    e.send("setoption name USI_Hash value 32");
    e.send("isready");
    e.read_until("readyok", ANSWER);
    e.send(&format!("position sfen {YO_M3_17}"));
    e.send("go mate 60000");
    let lines = e.read_until("checkmate", ANSWER);
    let answer = lines.last().unwrap();
    let line = assert_mate(YO_M3_17, answer, 3);
    assert_eq!(line.len(), 3, "{answer}");
    let moves = answer.strip_prefix("checkmate ").unwrap();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info ") && l.ends_with(&format!("score mate 3 pv {moves}"))),
        "no 'score mate 3' line before the answer: {lines:?}"
    );
    for level in ["None", "UpperBound"] {
        e.send(&format!("setoption name PostSearchLevel value {level}"));
        e.send("usinewgame");
        e.send(&format!("position sfen {YO_M3_17}"));
        e.send("go mate 60000");
        assert_mate(YO_M3_17, &e.checkmate(ANSWER), 3);
    }
    let refused = e.answer_to("setoption name PostSearchLevel value Shortest");
    assert!(
        refused.iter().any(|l| l.starts_with("info string error")),
        "{refused:?}"
    );
}

/// A line the PV phase could not prove shortest (its budget ends first) is printed, but its `score
/// mate` claims only the proven bound: Zukou #37 is proven in 0.5 M nodes, its 23 plies exact only
/// after 44 M (35 s), so the default phase stops with a 19-ply line whose defender did not take the
/// longest reply; `score mate 19` would claim a mate the defender can outlast.
#[test]
fn a_line_not_proven_shortest_claims_only_its_bound() {
    const ZUKOU_37: &str = "1R7/9/g1+P6/+P2s5/1+bk+pg4/GN1Rl4/Pn+p6/3S5/9 b B2N3Pg2s3l10p 1";
    let mut e = Engine::ready();
    e.send(&format!("position sfen {ZUKOU_37}"));
    e.send("go mate 60000");
    let lines = e.read_until("checkmate", ANSWER);
    let answer = lines.last().unwrap();
    let line = assert_mate(ZUKOU_37, answer, 19);
    let bound: usize = lines
        .iter()
        .find_map(|l| {
            l.strip_prefix(
                "info string the search stopped before the line was proven shortest: mate in ",
            )?
            .strip_suffix(" or less")?
            .parse()
            .ok()
        })
        .unwrap_or_else(|| panic!("no bound reported: {lines:?}"));
    assert!(line.len() < bound, "the line is exact after all: {lines:?}");
    let moves = answer.strip_prefix("checkmate ").unwrap();
    assert!(
        lines.contains(&format!("info score mate {bound} pv {moves}")),
        "the score is not the bound {bound}: {lines:?}"
    );
}

/// `CheckAlternatives`: announced as a check option, off by default (no `alternative` lines); on, the
/// other mating move of a mate in 1 with two solutions is reported in an `info string` before the
/// answer, and a one-solution mate in 3 is reported as having none.
#[test]
fn check_alternatives_reports_other_mates() {
    // A gold drop mates on 1b (guarded by the pawn) and on 2b (guarded by the knight).
    let two = "8k/9/8P/6N2/9/9/9/9/9 b G2r2b3g4s3n4l17p 1";
    let one = "9/8k/9/7RG/9/9/9/9/9 b r2b3g4s4n4l18p 1";
    let mut e = Engine::start();
    e.send("usi");
    let hello = e.read_until("usiok", QUICK);
    assert!(
        hello.contains(&"option name CheckAlternatives type check default false".to_string()),
        "{hello:?}"
    );
    e.send("setoption name USI_Hash value 16");
    e.send("isready");
    e.read_until("readyok", ANSWER);
    e.send(&format!("position sfen {two}"));
    e.send("go mate 10000");
    let lines = e.read_until("checkmate", ANSWER);
    assert!(
        !lines.iter().any(|l| l.contains("alternative")),
        "{lines:?}"
    );
    e.send("setoption name CheckAlternatives value true");
    e.send(&format!("position sfen {two}"));
    e.send("go mate 10000");
    let lines = e.read_until("checkmate", ANSWER);
    let answer = lines.last().unwrap();
    assert_mate(two, answer, 1);
    let other = if answer.ends_with("G*1b") {
        "G*2b"
    } else {
        "G*1b"
    };
    assert!(
        lines.contains(&format!("info string alternative ply 1 {other} mate 1")),
        "{lines:?}"
    );
    e.send(&format!("position sfen {one}"));
    e.send("go mate 10000");
    let lines = e.read_until("checkmate", ANSWER);
    assert_mate(one, lines.last().unwrap(), 3);
    assert!(
        lines.contains(&"info string alternatives none".to_string()),
        "{lines:?}"
    );
    let refused = e.answer_to("setoption name CheckAlternatives value maybe");
    assert!(
        refused.iter().any(|l| l.starts_with("info string error")),
        "{refused:?}"
    );
}

/// `FutileInterposition`: announced as a combo (Count default); with `Skip` the strict mate in 13 of
/// edge-3 (every defence a drop the bishop captures into mate) is the composer's mate in 1, with
/// `info string canonical_length 1`; back to `Count`, 13 plies again.
#[test]
fn futile_interposition_skip_prints_the_canonical_line() {
    let edge3 = "k8/9/1K7/9/9/9/8B/8B/9 b 2r4g4s4n4l18p 1";
    let mut e = Engine::start();
    e.send("usi");
    let hello = e.read_until("usiok", QUICK);
    assert!(
        hello.contains(
            &"option name FutileInterposition type combo default Count var Count var Skip"
                .to_string()
        ),
        "{hello:?}"
    );
    e.send("setoption name USI_Hash value 16");
    e.send("setoption name FutileInterposition value Skip");
    e.send("isready");
    e.read_until("readyok", ANSWER);
    e.send(&format!("position sfen {edge3}"));
    e.send("go mate 30000");
    let lines = e.read_until("checkmate", ANSWER);
    assert_eq!(lines.last().unwrap(), "checkmate 1g2h", "{lines:?}");
    assert!(
        lines.contains(&"info string canonical_length 1".to_string()),
        "{lines:?}"
    );
    e.send("setoption name FutileInterposition value Count");
    e.send(&format!("position sfen {edge3}"));
    e.send("go mate 30000");
    let lines = e.read_until("checkmate", ANSWER);
    assert_mate(edge3, lines.last().unwrap(), 13);
    assert!(!lines.iter().any(|l| l.contains("canonical_length")));
}
