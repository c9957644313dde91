//! A GUI's session: problems solved one after another, the engine's line played back, progress
//! lines, a game `go`, and how soon the first answers come.

use super::*;

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

/// Who defends (`search::roles`), row by row over USI: the side to move in check with no king for
/// the other side defends (a mate in three one ply on: mated in two, the line starting with its
/// reply, `score mate -2`); both kings and the side to move in check: it defends by default, and
/// with `RootIsAndNodeIfChecked false` it attacks (here it has no check that also answers the check:
/// no mate); the side to move not in check attacks; no king to mate is refused.
#[test]
fn who_defends_row_by_row() {
    let mut e = Engine::ready();
    e.send(&format!("position sfen {MATE3} moves 1d2c"));
    e.send("go mate 60000");
    let said = e.read_until("checkmate", ANSWER);
    assert!(
        said.iter().any(|l| l.starts_with("info score mate -2 ")),
        "{said:?}"
    );
    assert_eq!(said.last().map(String::as_str), Some("checkmate 1b2a 2c2b"));
    // Both kings, Black to move in check from the gold on 8h, which its king takes.
    let both = "8k/9/9/9/9/9/9/1g7/K8 b G 1";
    e.send(&format!("position sfen {both}"));
    e.send("go mate 60000");
    let said = e.read_until("checkmate", ANSWER);
    assert!(said.iter().any(|l| l.contains("defends")), "{said:?}");
    assert_eq!(said.last().map(String::as_str), Some("checkmate nomate"));
    e.send("setoption name RootIsAndNodeIfChecked value false");
    e.send(&format!("position sfen {both}"));
    e.send("go mate 60000");
    let said = e.read_until("checkmate", ANSWER);
    assert!(!said.iter().any(|l| l.contains("defends")), "{said:?}");
    assert_eq!(said.last().map(String::as_str), Some("checkmate nomate"));
    // Not in check: the side to move attacks, whatever the option.
    e.send(&format!("position sfen {MATE3}"));
    e.send("go mate 60000");
    assert_mate(MATE3, &e.checkmate(ANSWER), 3);
    // No king to mate: refused.
    e.send("position sfen 8K/9/9/9/9/9/9/9/9 b g 1");
    e.send("go mate 1000");
    let said = e.read_until("checkmate", ANSWER);
    assert!(
        said.iter().any(|l| l.starts_with("info string error")),
        "{said:?}"
    );
    assert_eq!(said.last().map(String::as_str), Some("checkmate timeout"));
}

/// MultiPV: after the answer, the root's other checks, best first, each mate verified: a gold drop
/// mates on 2b and on 1b (both mates in one come first), the other checks do not mate and come with
/// the reply that refutes them.
#[test]
fn multipv_lists_the_other_checks_best_first() {
    const TWO_MATES: &str = "8k/9/8P/6N2/9/9/9/9/9 b G 1";
    let mut e = Engine::ready();
    e.send("setoption name MultiPV value 5");
    e.send(&format!("position sfen {TWO_MATES}"));
    e.send("go mate 60000");
    let said = e.read_until("checkmate", ANSWER);
    let lines: Vec<&String> = said
        .iter()
        .filter(|l| l.starts_with("info multipv "))
        .collect();
    assert_eq!(lines.len(), 5, "{said:?}");
    for (k, l) in lines.iter().enumerate() {
        assert!(l.starts_with(&format!("info multipv {} ", k + 1)), "{l}");
    }
    assert!(lines[0].contains("score mate 1 pv "), "{}", lines[0]);
    assert!(lines[1].contains("score mate 1 pv "), "{}", lines[1]);
    for l in &lines[2..] {
        assert!(l.ends_with("string nomate"), "{l}");
    }
    let mates: Vec<&str> = lines[..2]
        .iter()
        .map(|l| l.split_whitespace().last().unwrap())
        .collect();
    assert!(
        mates.contains(&"G*2b") && mates.contains(&"G*1b"),
        "{mates:?}"
    );
    assert_mate(TWO_MATES, said.last().unwrap(), 1);
    // MultiPV 1: the answer's line alone, without `multipv`.
    e.send("setoption name MultiPV value 1");
    e.send(&format!("position sfen {TWO_MATES}"));
    e.send("go mate 60000");
    let said = e.read_until("checkmate", ANSWER);
    assert!(!said.iter().any(|l| l.contains("multipv")), "{said:?}");
}
