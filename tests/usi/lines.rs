//! The line's options: `PostSearchLevel`, `CheckAlternatives` and `FutileInterposition`.

use super::*;

/// `PostSearchLevel` is announced as a combo, `MinLength` (the default) prints the minimax line with
/// an `info … score mate N pv …` line of the same length before it, and `None` prints the first
/// proof's line, which is a real mate but no shorter.
#[test]
fn post_search_level_chooses_the_line() {
    let mut e = Engine::announcing(
        "option name PostSearchLevel type combo default MinLength var None var UpperBound var MinLength",
    );
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
    e.assert_refused("setoption name PostSearchLevel value Shortest");
}

/// A line not proven shortest is printed, but its `score mate` claims only the proven bound, which
/// a defender who did not take the longest reply may fall short of: with `PostSearchLevel
/// UpperBound` (the first proof's line, no search for shorter ones) Zukou #89's line is 55 plies
/// under a proven bound of 65 (the recorded line is 29), and `score mate 55` would claim a mate the
/// defender may outlast. With the default `MinLength` the phase either proves its line exact or
/// says where it stopped, and then too the score is that bound. (Tests of the default alone served
/// until the first proof changed: Zukou #37 until the ladder cost, #98 and #89 until the graded weak
/// numbers, after which the phase's budget ends on a line of the bound's own length.)
#[test]
fn a_line_not_proven_shortest_claims_only_its_bound() {
    const ZUKOU_89: &str = "k1S+b5/ng1S1l3/1gN1P4/BN1+ps4/3R5/1S2R4/9/9/9 b 2gn3l16p 1";
    let stopped_at = |lines: &[String]| -> Option<usize> {
        lines.iter().find_map(|l| {
            l.strip_prefix(
                "info string the search stopped before the line was proven shortest: mate in ",
            )?
            .strip_suffix(" or less")?
            .parse()
            .ok()
        })
    };
    // One `go mate` at a `PostSearchLevel`: the engine's lines, the line's length and its score.
    let mut e = Engine::ready();
    let mut solve = |level: &str| -> (Vec<String>, usize, usize) {
        e.send(&format!("setoption name PostSearchLevel value {level}"));
        e.send("usinewgame");
        e.send(&format!("position sfen {ZUKOU_89}"));
        e.send("go mate 60000");
        let lines = e.read_until("checkmate", ANSWER);
        let answer = lines.last().unwrap();
        let line = assert_mate(ZUKOU_89, answer, 29);
        let pv = format!(" pv {}", answer.strip_prefix("checkmate ").unwrap());
        let score = lines
            .iter()
            .find_map(|l| {
                l.strip_prefix("info score mate ")?
                    .strip_suffix(&pv)?
                    .parse()
                    .ok()
            })
            .unwrap_or_else(|| panic!("no score: {lines:?}"));
        (lines, line.len(), score)
    };
    let (lines, len, score) = solve("UpperBound");
    assert!(len < score, "the score is the line's length: {lines:?}");
    let (lines, len, score) = solve("MinLength");
    match stopped_at(&lines) {
        Some(bound) => assert!(score == bound && len <= bound, "{lines:?}"),
        None => assert_eq!(score, len, "{lines:?}"),
    }
}

/// `CheckAlternatives`: announced as a check option, off by default (no `alternative` lines); on, the
/// other mating move of a mate in 1 with two solutions is reported in an `info string` before the
/// answer, and a one-solution mate in 3 is reported as having none.
#[test]
fn check_alternatives_reports_other_mates() {
    // A gold drop mates on 1b (guarded by the pawn) and on 2b (guarded by the knight).
    let two = "8k/9/8P/6N2/9/9/9/9/9 b G2r2b3g4s3n4l17p 1";
    let one = "9/8k/9/7RG/9/9/9/9/9 b r2b3g4s4n4l18p 1";
    let mut e = Engine::announcing("option name CheckAlternatives type check default false");
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
    e.assert_refused("setoption name CheckAlternatives value maybe");
}

/// `FutileInterposition`: announced as a combo (Count default); with `Skip` the strict mate in 13 of
/// edge-3 (every defence a drop the bishop captures into mate) is the composer's mate in 1, with
/// `info string canonical_length 1`; back to `Count`, 13 plies again.
#[test]
fn futile_interposition_skip_prints_the_canonical_line() {
    let edge3 = "k8/9/1K7/9/9/9/8B/8B/9 b 2r4g4s4n4l18p 1";
    let mut e = Engine::announcing(
        "option name FutileInterposition type combo default Count var Count var Skip",
    );
    e.send("setoption name FutileInterposition value Skip");
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

/// `ComposerReport`: announced as a check option, off by default; on, each `go mate` runs the
/// composers' check and prints its report as `info string` lines before the answer (the summary
/// first, then each flaw), and off again, the lines are gone and the answer is as before.
#[test]
fn composer_report_prints_the_report_before_the_answer() {
    let edge60 = "+R4G1nl/6k2/4ppppp/9/9/9/9/9/9 b r2b3g4s3n3l13p 1";
    let sound = "9/8k/9/7RG/9/9/9/9/9 b r2b3g4s4n4l18p 1";
    let mut e = Engine::announcing("option name ComposerReport type check default false");
    e.send("setoption name ComposerReport value true");
    e.send(&format!("position sfen {sound}"));
    e.send("go mate 10000");
    let lines = e.read_until("checkmate", ANSWER);
    assert_mate(sound, lines.last().unwrap(), 3);
    assert!(
        lines.contains(&"info string ComposerReport: sound".to_string()),
        "{lines:?}"
    );
    e.send(&format!("position sfen {edge60}"));
    e.send("go mate 10000");
    let lines = e.read_until("checkmate", ANSWER);
    assert_eq!(
        lines.last().unwrap(),
        "checkmate 4a3a 3b4b 9a4a",
        "{lines:?}"
    );
    assert!(
        lines.contains(&"info string ComposerReport: sound, lesser flaws: 変長駒余り".to_string()),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string 変長駒余り: at ply 2 the reply 3b2b")),
        "{lines:?}"
    );
    e.send("setoption name ComposerReport value false");
    e.send(&format!("position sfen {sound}"));
    e.send("go mate 10000");
    let lines = e.read_until("checkmate", ANSWER);
    assert!(
        !lines.iter().any(|l| l.contains("ComposerReport")),
        "{lines:?}"
    );
    e.assert_refused("setoption name ComposerReport value sometimes");
}
