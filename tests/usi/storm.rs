//! Random sessions: seeded streams of good and bad commands — positions from the problem files,
//! some of them damaged, `go mate` with short limits, `stop` at any moment, option changes
//! (tiny tables and several threads among them, so that garbage collection runs under threads),
//! game `go`s, garbage — sent without waiting for answers, as a GUI or a script might. Whatever
//! comes, the engine must answer every `go mate` exactly once, in order, print only mating lines
//! that verify from the position that `go` was sent for, answer `isready`, and exit cleanly on
//! `quit`. The hand-written tests beside this one pin each rule; this one looks for what their
//! orderings miss (a race between a `stop` and a queued `go`, a table resized between searches).

use super::*;
use common::{Rng, load_problems};
use kanju::position::Color;
use kanju::search::{verify_line_in_check_by, verify_mate_line_by};

/// Sessions per run and the most commands in one; small enough for the default test run.
const SESSIONS: u64 = 16;
const MAX_COMMANDS: usize = 30;

/// The positions the sessions set up: short mates, no-mates and edge cases.
fn positions() -> Vec<String> {
    let mut rows: Vec<String> = ["yaneuraou-mate3.tsv", "tanuki.tsv", "edge-cases.tsv"]
        .into_iter()
        .flat_map(load_problems)
        .map(|p| p.sfen)
        .collect();
    rows.push(NOMATE.to_string());
    rows
}

/// `sfen`, damaged in one of several ways about half the time: a character changed, the text cut
/// short, the side to move swapped.
fn damaged(rng: &mut Rng, sfen: &str) -> String {
    match rng.below(8) {
        0 | 1 => {
            let mut s: Vec<char> = sfen.chars().collect();
            let at = rng.below(s.len());
            s[at] = *rng.pick(&['k', 'K', 'p', '+', '/', '9', '0', ' ', 'x']);
            s.into_iter().collect()
        }
        2 => sfen.chars().take(rng.below(sfen.len())).collect(),
        3 => sfen.replacen(" b ", " w ", 1),
        _ => sfen.to_string(),
    }
}

/// One random command (`None`: a pause instead).
fn command(rng: &mut Rng, rows: &[String]) -> Option<String> {
    const GO: [&str; 9] = [
        "go mate 1",
        "go mate 30",
        "go mate 200",
        "go mate 400",
        "go mate infinite",
        "go mate",
        "go mate 100 nodes 100",
        "go mate -5",
        "go mate 10 10 10",
    ];
    const OTHER: [&str; 14] = [
        "isready",
        "usinewgame",
        "ponderhit",
        "gameover win",
        "position startpos",
        "position startpos moves 7g7f 3c3d",
        "position sfen",
        "position",
        "go btime 1000 wtime 1000 byoyomi 100",
        "go movetime 100",
        "go nodes 5000",
        "xyzzy",
        "setoption name",
        "\u{1}\u{7f}",
    ];
    const OPTIONS: [&str; 9] = [
        "USI_Hash",
        "Threads",
        "NodesLimit",
        "PostSearchLevel",
        "CheckAlternatives",
        "FutileInterposition",
        "MultiPV",
        "ComposerReport",
        "NoSuchOption",
    ];
    const VALUES: [&str; 14] = [
        "1",
        "2",
        "4",
        "16",
        "0",
        "-1",
        "99999999999999999999",
        "true",
        "false",
        "MinLength",
        "UpperBound",
        "None",
        "Skip",
        "abc",
    ];
    Some(match rng.below(20) {
        0..=4 => {
            let row = rng.pick(rows);
            format!("position sfen {}", damaged(rng, row))
        }
        5..=8 => rng.pick(&GO).to_string(),
        9..=11 => "stop".to_string(),
        12..=14 => format!(
            "setoption name {} value {}",
            rng.pick(&OPTIONS),
            rng.pick(&VALUES)
        ),
        15..=16 => rng.pick(&OTHER).to_string(),
        _ => return None,
    })
}

/// Checks one `checkmate …` answer for `sfen` (the position its `go mate` was sent for; `None`:
/// none was set, or the last one was refused). `canonical`: the session asked for composers' lines
/// at some point, which may end with the defender in check and only futile drops left.
fn check_answer(answer: &str, sfen: Option<&str>, canonical: bool, log: &[String]) {
    let text = answer.strip_prefix("checkmate ").unwrap_or("");
    if ["nomate", "timeout", "notimplemented"].contains(&text) {
        return;
    }
    let sfen = sfen.unwrap_or_else(|| panic!("'{answer}' without a position: {log:#?}"));
    let root = Position::from_sfen(sfen)
        .unwrap_or_else(|_| panic!("'{answer}' for the unreadable {sfen}: {log:#?}"));
    let line = replay(&root, text, &format!("{answer}' from '{sfen}"));
    // An odd line is the side to move's mate; an even one starts with its reply (it defends).
    let attacker: Color = if line.len() % 2 == 1 {
        root.side_to_move()
    } else {
        root.side_to_move().flip()
    };
    assert!(
        verify_mate_line_by(&root, attacker, &line)
            || (canonical && verify_line_in_check_by(&root, attacker, &line)),
        "'{answer}' does not mate from {sfen}: {log:#?}"
    );
}

/// One session of up to `MAX_COMMANDS` commands from `seed`.
fn session(seed: u64, rows: &[String]) {
    let mut rng = Rng::new(seed);
    let mut e = Engine::start();
    e.send("usi");
    e.read_until("usiok", QUICK);
    let mut position: Option<String> = None;
    // The position each `go mate` was sent for, in order.
    let mut asked: Vec<Option<String>> = vec![];
    let mut canonical = false;
    let mut sent = vec![];
    for _ in 0..1 + rng.below(MAX_COMMANDS) {
        let Some(cmd) = command(&mut rng, rows) else {
            thread::sleep(Duration::from_millis(rng.below(3) as u64 * 40));
            continue;
        };
        if let Some(sfen) = cmd.strip_prefix("position sfen ") {
            // A refused position is forgotten, so a `checkmate` for it is caught as one for an
            // unreadable SFEN, or one that does not verify from it.
            position = Some(sfen.to_string());
        } else if cmd.starts_with("position") {
            position = None;
        }
        if cmd.starts_with("go mate") {
            asked.push(position.clone());
        }
        let lower = cmd.to_lowercase();
        canonical |= lower.ends_with("futileinterposition value skip")
            || lower.ends_with("composerreport value true");
        e.send(&cmd);
        sent.push(cmd);
    }
    // Every `go mate` is answered: stop whatever runs or waits, every half second, until all are.
    e.send("isready");
    let deadline = Instant::now() + ANSWER;
    let mut answers = vec![];
    let mut ready = false;
    while !(ready && answers.len() >= asked.len()) {
        assert!(
            Instant::now() < deadline,
            "{} of {} go mates answered, readyok {ready}; sent {sent:#?}; output {:#?}",
            answers.len(),
            asked.len(),
            e.log
        );
        e.send("stop");
        while let Ok(line) = e.lines.recv_timeout(Duration::from_millis(500)) {
            e.log.push(line.clone());
            ready |= line == "readyok";
            if line.starts_with("checkmate") {
                answers.push(line);
            }
        }
    }
    e.send("quit");
    assert!(
        e.wait_exit(ANSWER).success(),
        "no clean exit; sent {sent:#?}"
    );
    while let Ok(line) = e.lines.try_recv() {
        assert!(
            !line.starts_with("checkmate"),
            "an answer too many: '{line}'; sent {sent:#?}"
        );
    }
    assert_eq!(answers.len(), asked.len(), "sent {sent:#?}");
    for (answer, sfen) in answers.iter().zip(&asked) {
        check_answer(answer, sfen.as_deref(), canonical, &sent);
    }
}

#[test]
fn random_sessions_answer_every_go_mate_once_with_verified_lines() {
    let rows = positions();
    for seed in 0..SESSIONS {
        session(seed, &rows);
    }
}
