//! The command line: `kanju solve`, `kanju bench` and `kanju perft` run as a script would run them.
//!
//! * `solve`: options, line levels, JSON, canonical lengths, alternatives, bad input, table sizes;
//! * `bench`: problem files, counts and grading;
//! * `notation`: Japanese notation and KIF output;
//! * `batch`: many problems at once (`--jobs`), input forms, a reader that goes away.

mod batch;
mod bench;
mod check;
mod notation;
mod solve;

use kanju::position::Position;
use kanju::search::verify_mate_line;
use std::io::Write;
use std::path::Path;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// tanuki-m1-1 (shared/problems/tanuki.tsv): mate in 1.
const MATE1: &str = "9/7Sk/1+R7/9/9/9/9/9/9 b r2b4g3s4n4l18p 1";
/// tanuki-m3-2: mate in 3.
const MATE3: &str = "4nk3/9/6G2/3LB4/9/9/9/9/9 b 2rb3g3s3n3l18p 1";
/// No attacking material at all: no mate.
const NOMATE: &str = "4k4/9/9/9/9/9/9/9/9 b - 1";

fn kanju(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kanju"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kanju starts");
    let mut input = child.stdin.take().expect("piped stdin");
    input.write_all(stdin.as_bytes()).expect("write stdin");
    drop(input);
    let out = child.wait_with_output().expect("kanju runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("panicked"),
        "kanju {args:?} panicked: {stderr}"
    );
    out
}

fn stdout_lines(out: &Output) -> Vec<String> {
    String::from_utf8(out.stdout.clone())
        .expect("UTF-8 output")
        .lines()
        .map(String::from)
        .collect()
}

/// Asserts that `text` holds `needle`, showing `text` when it does not.
#[track_caller]
fn assert_has(text: &str, needle: &str) {
    assert!(text.contains(needle), "expected {needle:?} in:\n{text}");
}

/// Checks a `mate <len> <moves>` line against `sfen` with kanju's own verifier.
fn assert_mate_line(sfen: &str, line: &str, min_len: usize) {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        words.first(),
        Some(&"mate"),
        "expected a mate for {sfen}: '{line}'"
    );
    let len: usize = words[1].parse().expect("a length");
    assert_eq!(len, words.len() - 2, "{line}");
    assert!(len >= min_len, "{line} is shorter than the shortest mate");
    let root = Position::from_sfen(sfen).expect("test SFEN");
    let mut pos = root.clone();
    let mut moves = Vec::new();
    for usi in &words[2..] {
        let m = pos
            .parse_usi_move(usi)
            .unwrap_or_else(|| panic!("illegal {usi} in '{line}'"));
        pos.do_move(m);
        moves.push(m);
    }
    assert!(verify_mate_line(&root, &moves), "not a mate: {line}");
}

/// Mate in 1 for White (the attacker has no king; Black holds the rest): the gold drop 5h.
const WHITE_MATE1: &str = "9/9/9/9/9/9/4p4/9/4K4 w g 1";
/// A mate in 13 whose first proof is 49 plies long (a random problem a helper built): the line phase
/// must shorten it a long way (`solve::the_line_phase_jumps_to_a_much_shorter_mate`).
const MATE_13: &str = "2R6/5B3/5k3/4+p4/8S/7G1/9/9/9 b RN2Lb3g3s3n2l17p 1";

#[test]
fn usi_mode_is_the_default() {
    let out = kanju(&[], "usi\nquit\n");
    let lines = stdout_lines(&out);
    assert_eq!(lines.last().map(String::as_str), Some("usiok"), "{lines:?}");
    assert!(out.status.success());
}

#[test]
fn perft_still_counts() {
    let out = kanju(&["perft", "2"], "");
    assert_eq!(stdout_lines(&out)[0], "perft 2 = 900");
    assert!(out.status.success());
    // A depth no tree is counted to is refused (a king with a rook and a gold against it overflowed
    // the stack, a crash: a recursion per ply).
    let out = kanju(
        &["perft", "100000", "--sfen", "9/8k/9/7RG/9/9/9/9/9 b - 1"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("0..=64"));
}
