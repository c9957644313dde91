//! `stop`, `quit`, `isready` and `setoption` at any moment, `go` commands that wait their turn, and
//! the end of input.

use super::*;

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
fn end_of_input_lets_the_search_finish() {
    let mut e = Engine::start();
    e.send(&format!("position sfen {MATE1}"));
    e.send("go mate 30000");
    e.close_stdin();
    assert_mate(MATE1, &e.checkmate(ANSWER), 1);
    assert!(e.wait_exit(QUICK).success());
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

/// `NodesLimit`: a search that would run on stops at about that many nodes with `checkmate timeout`
/// (Microcosmos needs tens of millions); 0 lifts the limit again, and a mate in three is found.
#[test]
fn nodes_limit_ends_a_search_with_timeout() {
    let mut e = Engine::ready();
    e.send("setoption name NodesLimit value 20000");
    e.send(&format!("position sfen {MICROCOSMOS}"));
    e.send("go mate infinite");
    assert_eq!(e.checkmate(ANSWER), "checkmate timeout");
    e.send("setoption name NodesLimit value 0");
    e.send(&format!("position sfen {MATE3}"));
    e.send("go mate 60000");
    assert_mate(MATE3, &e.checkmate(ANSWER), 3);
}

/// `Threads`: every count from 1 to 256 is taken, and a search with several threads answers like
/// one with a single thread (the line verified, the minimax length of a mate in three); 0 and 257
/// are refused and the old value stays.
#[test]
fn threads_are_taken_and_search_together() {
    let mut e = Engine::ready();
    for threads in [1, 4, 256] {
        e.send(&format!("setoption name Threads value {threads}"));
        e.send(&format!("position sfen {MATE3}"));
        e.send("go mate 60000");
        assert_mate(MATE3, &e.checkmate(ANSWER), 3);
    }
    for bad in ["0", "257"] {
        e.send(&format!("setoption name Threads value {bad}"));
        e.send("isready");
        let lines = e.read_until("readyok", QUICK);
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error") && l.contains("Threads")),
            "{lines:?}"
        );
    }
}
