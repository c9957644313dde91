//! Bad input: malformed or illegal positions and moves, unknown commands and options, absurd values,
//! unreadable lines. Each gets a clear `info string` and the engine stays up.

use super::*;

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
        "setoption name Threads value 257",
        "setoption name NodesLimit value -5",
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

/// `go mate` takes a time or `infinite` and nothing else: other words on the line are named in a
/// warning and not obeyed (`nodes 5` would otherwise look like a node limit that was applied), and
/// the search answers as for the bare `go mate`.
#[test]
fn go_mate_with_other_words_warns_and_solves() {
    let mut e = Engine::ready();
    e.send(&format!("position sfen {MATE3}"));
    e.send("go mate 30000 nodes 5");
    let lines = e.read_until("checkmate", ANSWER);
    assert!(
        lines.iter().any(|l| l
            == "info string warning: go mate takes only a time or 'infinite'; ignoring 'nodes 5'"),
        "{lines:?}"
    );
    assert_mate(MATE3, lines.last().unwrap(), 3);
    e.send("go btime 0 mate infinite");
    let lines = e.read_until("checkmate", ANSWER);
    assert!(
        lines.iter().any(|l| l.ends_with("ignoring 'btime 0'")),
        "{lines:?}"
    );
    assert_mate(MATE3, lines.last().unwrap(), 3);
    // Without other words, no warning.
    e.send("go mate 30000");
    let lines = e.read_until("checkmate", ANSWER);
    assert!(!lines.iter().any(|l| l.contains("warning")), "{lines:?}");
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
