//! `kanju solve` fed arbitrary stdin: every problem line gets exactly one answer, in input order, in
//! the chosen format, and nothing panics. The first byte picks the format, the notation and the
//! number of jobs; searches are capped in nodes.
#![no_main]

use kanju::checked::{INTERNAL_ERROR, UNVERIFIED};
use kanju::cli::solve::{Format, Notation, SolveOptions, is_problem_line, run_solve};
use kanju::position::Position;
use kanju::search::Futile;
use kanju::search::PvLevel;
use kanju::search::verify_mate_line;
use libfuzzer_sys::fuzz_target;
use std::io::Cursor;

/// The problem lines `solve` reads: split on `\n`, not blank, not `#`.
fn problem_lines(input: &[u8]) -> Vec<String> {
    input
        .split(|&b| b == b'\n')
        .map(|l| String::from_utf8_lossy(l).into_owned())
        .filter(|l| is_problem_line(l))
        .collect()
}

/// A text answer line: its word, and for a mate in USI notation, a line that really mates.
fn check_text_line(problem: &str, line: &str, notation: Notation) {
    let words: Vec<&str> = line.split(' ').collect();
    match words[0] {
        "nomate" | "timeout" => assert_eq!(words.len(), 1, "{line}"),
        "error" => {
            let message = line.strip_prefix("error ").unwrap_or("");
            assert!(message != INTERNAL_ERROR && message != UNVERIFIED, "{line}");
        }
        "mate" => {
            let len: usize = words[1].parse().expect("a length");
            assert_eq!(words.len(), len + 2, "{line}");
            if notation == Notation::Usi {
                let root = Position::from_sfen(problem).expect("a solved problem reads");
                let mut pos = kanju::search::problem_position(&root);
                let moves: Vec<_> = words[2..]
                    .iter()
                    .map(|u| {
                        let m = pos.parse_usi_move(u).expect("a legal move");
                        pos.do_move(m);
                        m
                    })
                    .collect();
                assert!(verify_mate_line(&root, &moves), "{problem}: {line}");
            }
        }
        other => panic!("unknown answer '{other}' in {line}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, input)) = data.split_first() else {
        return;
    };
    let format = [Format::Text, Format::Json, Format::Kif][usize::from(mode % 3)];
    let notation = if mode & 4 == 0 {
        Notation::Usi
    } else {
        Notation::Ja
    };
    let pv = [PvLevel::MinLength, PvLevel::UpperBound, PvLevel::None, PvLevel::MinLength]
        [usize::from(mode >> 4 & 3)];
    let futile = if mode & 64 == 0 {
        Futile::Count
    } else {
        Futile::Skip
    };
    let check_alternatives = mode & 128 != 0;
    let opts = SolveOptions {
        time_ms: 0,
        nodes: Some(2000),
        hash_mb: 1,
        format,
        notation,
        jobs: 1 + usize::from(mode >> 3 & 1),
        progress: false,
        pv,
        check_alternatives,
        futile,
    };
    let mut out = Vec::new();
    run_solve(&[], &opts, Cursor::new(input.to_vec()), &mut out).expect("writing to memory works");
    let out = String::from_utf8(out).expect("UTF-8 output");
    let problems = problem_lines(input);
    match format {
        Format::Text => {
            // Alternatives are reported on indented lines below their answer.
            assert!(
                check_alternatives || out.lines().all(|l| !l.starts_with(' ')),
                "{out}"
            );
            let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with(' ')).collect();
            assert_eq!(lines.len(), problems.len(), "{out}");
            for (p, l) in problems.iter().zip(&lines) {
                check_text_line(p, l, notation);
            }
        }
        Format::Json => {
            let lines: Vec<&str> = out.lines().collect();
            assert_eq!(lines.len(), problems.len(), "{out}");
            for (p, l) in problems.iter().zip(&lines) {
                let v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
                assert_eq!(v["sfen"], p.trim(), "{l}");
                assert!(
                    v["error"] != INTERNAL_ERROR && v["error"] != UNVERIFIED,
                    "{l}"
                );
            }
        }
        Format::Kif => {
            let records = out
                .lines()
                .filter(|l| {
                    l.starts_with("# KIF written by kanju") || l.starts_with("# kanju: error")
                })
                .count();
            assert_eq!(records, problems.len(), "{out}");
            for internal in [INTERNAL_ERROR, UNVERIFIED] {
                let comment = format!("*kanju: error {internal}");
                assert!(out.lines().all(|l| l != comment), "{out}");
            }
        }
    }
});
