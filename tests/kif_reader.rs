//! kanju's KIF records read back by an independent KIF reader (`shogi-kifu-converter`): the diagram
//! must give the problem position kanju solved (the defender's tsume hand included) and the move lines
//! the mate kanju found, move for move. The reader knows no `後手番`, so only Black-to-move problems
//! are read here; the White case is checked against hand-written text in `src/cli/kif.rs`.

mod common;

use kanju::checked::{Answer, CheckedSolver};
use kanju::cli::kif::kif_record;
use kanju::position::Position;
use kanju::search::{SearchLimits, problem_position};
use shogi_kifu_converter::parser::parse_kif_str;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Reads `kif` with the other reader and checks it against `root` and `line`.
fn assert_reads_back(kif: &str, root: &Position, line: &[kanju::position::Move]) {
    let jkf = parse_kif_str(kif).unwrap_or_else(|e| panic!("the reader refuses:\n{kif}\n{e:?}"));
    let initial = jkf.initial.as_ref().expect("a diagram");
    let diagram = shogi_core::PartialPosition::try_from(initial).expect("a position");
    // The move number differs (a diagram has none); board, side and hands must not.
    let words = |sfen: &str| sfen.split(' ').take(3).collect::<Vec<_>>().join(" ");
    assert_eq!(
        words(&diagram.to_sfen_owned()),
        words(&problem_position(root).to_sfen()),
        "{kif}"
    );
    let moves: Vec<shogi_core::Move> = jkf
        .moves
        .iter()
        .filter_map(|mf| mf.move_.as_ref())
        .map(|m| m.try_into().expect("a move"))
        .collect();
    let ours: Vec<shogi_core::Move> = line.iter().map(|m| m.to_core()).collect();
    assert_eq!(moves, ours, "{kif}");
}

#[test]
fn solved_problems_read_back_with_the_same_position_and_moves() {
    let mut solver = CheckedSolver::new(16);
    let limits = SearchLimits {
        time: Some(Duration::from_secs(60)),
        ..SearchLimits::default()
    };
    let mut read = 0;
    for file in ["yaneuraou-mate3.tsv", "yaneuraou-mate5.tsv", "tanuki.tsv"] {
        let problems = common::load_problems(file);
        for p in problems.iter().filter(|p| p.sfen.contains(" b ")).take(25) {
            let Ok((root, report)) =
                solver.solve_text(&p.sfen, &limits, &AtomicBool::new(false), &mut |_| {})
            else {
                continue; // refused (tanuki's two-pawn rows)
            };
            let Answer::Mate(line) = &report.answer else {
                panic!("{}: {:?}", p.id, report.answer);
            };
            let kif = kif_record(&p.id, &root, &report.answer);
            assert_reads_back(&kif, &root, line);
            read += 1;
        }
    }
    assert!(read >= 60, "only {read} problems read back");
}

/// `kanju check --kif`: the report's KIF reads back with the composer's line as the main line and
/// every variation as a fork at its ply, move for move (Zukou #5: a 21-ply mate whose variations
/// include a 変化別詰). The 余詰 branches (a first move only) are forks too.
#[test]
fn a_check_report_reads_back_with_its_variations_as_forks() {
    use kanju::cli::check::{CheckOptions, check_problem};
    let zukou5 = "n+B1sS4/1R1g5/1Ls6/2k6/2n6/3L5/R8/9/9 b B2P3gs2n2l16p 1";
    let mut solver = CheckedSolver::new(16);
    let opts = CheckOptions {
        time_ms: 0,
        nodes: Some(5_000_000),
        hash_mb: 16,
        jobs: 1,
        threads: 1,
        length: Some(21),
        line: None,
        json: false,
        kif: true,
        thorough: false,
    };
    let r = check_problem(&mut solver, zukou5, &opts, &AtomicBool::new(false));
    assert_eq!(r.line.len(), 21);
    assert!(r.variations.len() >= 3, "{:?}", r.variations);
    let kif = kanju::cli::check::report_kif(&r);
    let root = Position::from_sfen(zukou5).unwrap();
    assert_reads_back(&kif, &root, &r.line);
    let jkf = parse_kif_str(&kif).unwrap();
    let as_core = |f: &Vec<shogi_kifu_converter::jkf::MoveFormat>| -> Vec<shogi_core::Move> {
        f.iter()
            .filter_map(|mf| mf.move_.as_ref())
            .map(|m| m.try_into().expect("a move"))
            .collect()
    };
    for v in &r.variations {
        // `moves[0]` is the diagram's entry: move k is `moves[k]`.
        let forks = jkf.moves[v.ply as usize]
            .forks
            .as_ref()
            .unwrap_or_else(|| panic!("no fork at move {}:\n{kif}", v.ply));
        let expected: Vec<shogi_core::Move> = std::iter::once(&v.reply)
            .chain(&v.line)
            .map(|m| m.to_core())
            .collect();
        assert!(
            forks.iter().any(|f| as_core(f) == expected),
            "variation at {} not among the forks:\n{kif}",
            v.ply
        );
    }
    assert!(kif.contains("*kanju check: "), "{kif}");
    assert!(kif.contains("変化別詰"), "{kif}");
}
