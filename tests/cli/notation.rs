//! `kanju solve` output formats: Japanese notation and KIF.

use super::*;

/// The one mating move of a mate-in-1 position, in USI, found by kanju's move generator; panics if
/// there is not exactly one (so that the expected notation below cannot depend on which mate the
/// solver happens to pick).
fn only_mate_in_one(sfen: &str) -> String {
    use kanju::position::movegen::{MoveList, generate_checks};
    use kanju::search::problem_position;
    let pos = problem_position(&Position::from_sfen(sfen).expect("test SFEN"));
    let mut checks = MoveList::new();
    generate_checks(&pos, &mut checks);
    let mates: Vec<String> = checks
        .as_slice()
        .iter()
        .filter(|&&m| verify_mate_line(&pos, &[m]))
        .map(|m| m.to_usi())
        .collect();
    assert_eq!(mates.len(), 1, "{sfen}: {mates:?}");
    mates[0].clone()
}

#[test]
fn solve_prints_japanese_notation() {
    assert_eq!(only_mate_in_one(MATE1), "8c1c");
    assert_eq!(only_mate_in_one(WHITE_MATE1), "G*5h");
    let out = kanju(
        &[
            "solve",
            "--notation",
            "ja",
            "--hash-mb",
            "16",
            MATE1,
            WHITE_MATE1,
            NOMATE,
        ],
        "",
    );
    assert_eq!(
        stdout_lines(&out),
        ["mate 1 ☗１三竜", "mate 1 ☖５八金", "nomate"]
    );
    assert!(out.status.success());
}

#[test]
fn solve_writes_kif() {
    assert_eq!(only_mate_in_one(MATE1), "8c1c");
    let out = kanju(&["solve", "--format", "kif", "--hash-mb", "16", MATE1], "");
    let expected = format!(
        "# KIF written by kanju {}: {MATE1}\n{}",
        env!("CARGO_PKG_VERSION"),
        "手合割：平手
後手の持駒：飛　角二　金四　銀三　桂四　香四　歩十八
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・ ・ ・ ・ ・ ・|一
| ・ ・ ・ ・ ・ ・ ・ 銀v玉|二
| ・ 龍 ・ ・ ・ ・ ・ ・ ・|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ ・ ・ ・ ・ ・|九
+---------------------------+
先手の持駒：なし
先手：攻め方
後手：玉方
手数----指手---------消費時間--
   1 １三龍(83)
   2 詰み
まで1手で詰み

"
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
    assert!(out.status.success());
    // A refused problem is a comment, and the exit status says so.
    let out = kanju(
        &["solve", "--format", "kif", "--hash-mb", "1", "garbage"],
        "",
    );
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(text.starts_with("# kanju: error malformed SFEN"), "{text}");
    assert_eq!(out.status.code(), Some(1));
}
