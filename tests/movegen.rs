//! The position module against exact perft counts, an independent move generator (`shunsai`), its own
//! invariants (check generation, evasions, Zobrist keys, do/undo, SFEN) on every problem position and
//! on random playouts, hand superiority, and hostile SFEN input.
//!
//! Heavy tests scale down in debug builds (`cfg!(debug_assertions)`); `cargo test --release` runs them
//! at full size. Tests named `known_bug_*` pin down reported bugs: they fail until the bug is fixed.

mod common;

use common::{Problem, Rng, load_problems, shunsai_perft, shunsai_position, two_pawns_on_a_file};
use kanju::position::hand::MAX_COUNT;
use kanju::position::movegen::{self, MoveList};
use kanju::position::{Bitboard, Color, Hand, Move, Piece, PieceKind, Position, SfenError, Square};
use shunsai::shogi_core::ToUsi;
use std::panic::{AssertUnwindSafe, catch_unwind};

const DEBUG: bool = cfg!(debug_assertions);

const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
const MAX_MOVES: &str = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1";

fn position(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// The rows of a problem file that are legal positions (see `two_pawns_on_a_file`).
fn valid_problems(file: &'static str) -> Vec<Problem> {
    load_problems(file)
        .into_iter()
        .filter(|p| !two_pawns_on_a_file(&p.sfen))
        .collect()
}

fn all_valid_problems() -> Vec<Problem> {
    common::PROBLEM_FILES
        .iter()
        .flat_map(|f| valid_problems(f))
        .collect()
}

fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    movegen::generate_legal(pos, &mut list);
    list
}

fn check_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    movegen::generate_checks(pos, &mut list);
    list
}

fn evasion_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    movegen::generate_evasions(pos, &mut list);
    list
}

fn perft_of(sfen: &str, depth: u32) -> u64 {
    movegen::perft(&mut position(sfen), depth)
}

// ---- 1. perft ----------------------------------------------------------------------------------------

#[test]
fn perft_startpos_to_depth_4() {
    for (depth, expected) in [(1, 30), (2, 900), (3, 25_470), (4, 719_731)] {
        assert_eq!(
            perft_of("startpos", depth),
            expected,
            "startpos depth {depth}"
        );
    }
}

#[test]
fn perft_startpos_depth_5() {
    if DEBUG {
        eprintln!("perft_startpos_depth_5: skipped in debug builds (run with --release)");
        return;
    }
    assert_eq!(perft_of("startpos", 5), 19_861_490);
}

#[test]
#[ignore = "half a billion leaves: run with --release -- --ignored"]
fn perft_startpos_depth_6() {
    assert_eq!(perft_of("startpos", 6), 547_581_517);
}

#[test]
fn perft_matsuri() {
    // Depth 3 is 4.8 million leaves: release builds only.
    let last = if DEBUG { 2 } else { 3 };
    for (depth, expected) in [(1, 207), (2, 28_684), (3, 4_809_015)] {
        if depth <= last {
            assert_eq!(perft_of(MATSURI, depth), expected, "matsuri depth {depth}");
        }
    }
}

#[test]
fn perft_max_moves_position() {
    assert_eq!(perft_of(MAX_MOVES, 1), 593);
    assert_eq!(perft_of(MAX_MOVES, 2), 105_677);
}

/// Deeper trees than the per-position oracle comparison reaches: perft on a spread of problem roots must
/// match `shunsai`'s. On a mismatch the first differing subtree is narrowed down to one position.
#[test]
fn perft_matches_shunsai_on_problem_roots() {
    let depth = if DEBUG { 2 } else { 3 };
    let stride = if DEBUG { 40 } else { 12 };
    for p in all_valid_problems().iter().step_by(stride) {
        let mut ours = position(&p.sfen);
        let mut theirs = shunsai_position(&p.sfen);
        let (a, b) = (
            movegen::perft(&mut ours, depth),
            shunsai_perft(&mut theirs, depth),
        );
        if a != b {
            panic!(
                "{} {}: perft {depth} kanju {a} shunsai {b}; first difference: {}",
                p.file,
                p.id,
                perft_divergence(&mut ours, depth)
            );
        }
    }
}

/// Walks down the first subtree where the two perfts disagree and names the path to it.
fn perft_divergence(pos: &mut Position, depth: u32) -> String {
    let sfen = pos.to_sfen();
    if depth <= 1 {
        return sfen;
    }
    for &m in legal_moves(pos).iter() {
        pos.do_move(m);
        let (a, b) = (
            movegen::perft(pos, depth - 1),
            shunsai_perft(&mut shunsai_position(&pos.to_sfen()), depth - 1),
        );
        let below = (a != b).then(|| perft_divergence(pos, depth - 1));
        pos.undo_move(m);
        if let Some(below) = below {
            return format!("{sfen} then {m} -> {below}");
        }
    }
    format!("{sfen} (the children agree: the difference is at this node)")
}

// ---- 2. invariants on every problem position and on random playouts ---------------------------------

/// How much a sweep looked at; asserted on so that a sweep cannot pass by looking at nothing.
#[derive(Default, Debug)]
struct Stats {
    /// Problem rows refused as illegal positions (two pawns on a file).
    refused: usize,
    positions: usize,
    in_check: usize,
    moves: usize,
    checks: usize,
}

/// Whether `c`'s king is attacked, asked through the attack query rather than the stored checkers.
fn king_attacked(pos: &Position, c: Color) -> bool {
    pos.king_square(c)
        .is_some_and(|k| pos.is_attacked(c.flip(), k))
}

/// Everything observable about a position: `undo_move` must restore all of it.
#[derive(PartialEq, Debug)]
struct Snapshot {
    board: Vec<Piece>,
    hands: [Hand; 2],
    side: Color,
    kings: [Option<Square>; 2],
    keys: (u64, u64),
    checkers: Bitboard,
    occupied: Bitboard,
    moves_played: usize,
}

impl Snapshot {
    fn of(pos: &Position) -> Snapshot {
        Snapshot {
            board: Square::all().map(|sq| pos.piece_at(sq)).collect(),
            hands: [pos.hand(Color::Black), pos.hand(Color::White)],
            side: pos.side_to_move(),
            kings: [pos.king_square(Color::Black), pos.king_square(Color::White)],
            keys: (pos.board_key(), pos.hand_key()),
            checkers: pos.checkers(),
            occupied: pos.occupied(),
            moves_played: pos.moves_played(),
        }
    }
}

/// The bitboards, king squares and keys agree with the mailbox board, and the stored checkers are the
/// real ones.
fn assert_consistent(pos: &Position, sfen: &str) {
    assert_eq!(
        (pos.board_key(), pos.hand_key()),
        pos.compute_keys(),
        "incremental keys differ from compute_keys in {sfen}"
    );
    for sq in Square::all() {
        let p = pos.piece_at(sq);
        assert_eq!(
            !p.is_empty(),
            pos.occupied().contains(sq),
            "occupancy of {sq} in {sfen}"
        );
        if p.is_empty() {
            continue;
        }
        assert!(
            pos.pieces(p.color()).contains(sq) && !pos.pieces(p.color().flip()).contains(sq),
            "colour bitboards at {sq} in {sfen}"
        );
        for k in PieceKind::ALL {
            assert_eq!(
                pos.kind_bb(k).contains(sq),
                k == p.kind(),
                "{k:?} bitboard at {sq} in {sfen}"
            );
        }
        if p.kind() == PieceKind::King {
            assert_eq!(
                pos.king_square(p.color()),
                Some(sq),
                "king square in {sfen}"
            );
        }
    }
    let side = pos.side_to_move();
    let checkers = match pos.king_square(side) {
        Some(k) => pos.attackers_to(side.flip(), k, pos.occupied()),
        None => Bitboard::EMPTY,
    };
    assert_eq!(pos.checkers(), checkers, "checkers in {sfen}");
    assert_eq!(
        pos.in_check(),
        king_attacked(pos, side),
        "in_check in {sfen}"
    );
    assert!(
        !king_attacked(pos, side.flip()),
        "the side not to move is in check in {sfen}"
    );
}

/// `moves` in a canonical order. The move bits include the piece, so two moves are equal only if every
/// field is.
fn sorted(moves: &[Move]) -> Vec<Move> {
    let mut v = moves.to_vec();
    v.sort_by_key(|m| (m.to_u16(), m.piece().index()));
    v
}

fn usi_list(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_usi())
        .collect::<Vec<_>>()
        .join(" ")
}

fn assert_no_duplicates(what: &str, moves: &[Move], sfen: &str) {
    let v = sorted(moves);
    let dups: Vec<Move> = v
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| w[0])
        .collect();
    assert!(
        dups.is_empty(),
        "{what} has duplicates [{}] in {sfen}",
        usi_list(&dups)
    );
}

/// Two move lists hold the same set; the message lists what each has that the other lacks.
fn assert_same_set(what: &str, got: &[Move], want: &[Move], sfen: &str) {
    let (got, want) = (sorted(got), sorted(want));
    if got != want {
        let extra: Vec<Move> = got.iter().copied().filter(|m| !want.contains(m)).collect();
        let missing: Vec<Move> = want.iter().copied().filter(|m| !got.contains(m)).collect();
        panic!(
            "{what} in {sfen}\n  extra:   [{}]\n  missing: [{}]",
            usi_list(&extra),
            usi_list(&missing)
        );
    }
}

/// The piece a move carries is the one that really moves (or is dropped from the mover's hand).
fn assert_move_well_formed(pos: &Position, m: Move, sfen: &str) {
    let us = pos.side_to_move();
    assert_eq!(
        m.piece().color(),
        us,
        "{m} moves the wrong colour in {sfen}"
    );
    if m.is_drop() {
        assert!(
            pos.hand(us).has(m.drop_kind()) && pos.piece_at(m.to()).is_empty(),
            "drop {m} without the piece in hand or onto a piece in {sfen}"
        );
    } else {
        assert_eq!(
            pos.piece_at(m.from()),
            m.piece(),
            "{m}: piece field in {sfen}"
        );
        assert!(
            !m.is_promotion() || m.piece().kind().can_promote(),
            "{m} promotes an unpromotable piece in {sfen}"
        );
    }
}

/// `shunsai`'s legal moves (sorted USI) and whether it thinks the side to move is in check.
fn oracle(sfen: &str) -> (Vec<String>, bool) {
    let theirs = shunsai_position(sfen);
    let mut moves: Vec<String> = theirs
        .legal_moves()
        .iter()
        .map(|m| m.to_usi_owned())
        .collect();
    moves.sort();
    (moves, theirs.in_check())
}

/// Every check of the position invariants on one position; `pos` is left as it was found.
fn check_position(pos: &mut Position, stats: &mut Stats) {
    let sfen = pos.to_sfen();
    assert_consistent(pos, &sfen);

    // (f) SFEN round trip.
    let reread =
        Position::from_sfen(&sfen).unwrap_or_else(|e| panic!("{sfen} does not re-read: {e}"));
    assert_eq!(reread.to_sfen(), sfen, "SFEN round trip");

    // (c) No duplicates in any list, and every move carries the right piece.
    let legal = legal_moves(pos);
    let checks = check_moves(pos);
    assert_no_duplicates("generate_legal", &legal, &sfen);
    assert_no_duplicates("generate_checks", &checks, &sfen);
    assert_eq!(
        movegen::count_checks(pos),
        checks.len(),
        "count_checks in {sfen}"
    );
    for &m in legal.iter() {
        assert_move_well_formed(pos, m, &sfen);
    }

    // (b) In check, the evasions are exactly the legal moves.
    if pos.in_check() {
        stats.in_check += 1;
        let evasions = evasion_moves(pos);
        assert_no_duplicates("generate_evasions", &evasions, &sfen);
        assert_same_set(
            "generate_evasions != generate_legal",
            &evasions,
            &legal,
            &sfen,
        );
        // The counters the search's look-ahead uses: every evasion, and the evasions grouped (each
        // king move and capture of the checker apart, every interposition together as one).
        assert_eq!(movegen::count_evasions(pos), evasions.len(), "{sfen}");
        let gap = movegen::check_gap(pos);
        let blocks = evasions
            .iter()
            .filter(|m| {
                gap.contains(m.to()) && (m.is_drop() || m.piece().kind() != PieceKind::King)
            })
            .count();
        let grouped = evasions.len() - blocks + usize::from(blocks > 0);
        assert_eq!(
            movegen::count_evasion_groups(pos),
            grouped,
            "count_evasion_groups in {sfen}"
        );
    }

    // (a), (b), (e): play every legal move, look at the result, take it back.
    let before = Snapshot::of(pos);
    let mover = pos.side_to_move();
    let mut by_gives_check = Vec::new();
    let mut by_result = Vec::new();
    for &m in legal.iter() {
        let gives_check = pos.gives_check(m);
        pos.do_move(m);
        assert_eq!(
            (pos.board_key(), pos.hand_key()),
            pos.compute_keys(),
            "keys after do_move {m} in {sfen}"
        );
        assert!(
            !king_attacked(pos, mover),
            "{m} leaves the mover in check in {sfen}"
        );
        // The opponent's king, asked through the attack query: independent of `gives_check`. The
        // checkers `do_move` derives from the move must be exactly the attackers (a missed second
        // checker would let non-king moves answer a double check).
        let checked = king_attacked(pos, mover.flip());
        let checkers = pos.king_square(mover.flip()).map_or(Bitboard::EMPTY, |k| {
            pos.attackers_to(mover, k, pos.occupied())
        });
        assert_eq!(pos.checkers(), checkers, "checkers after {m} in {sfen}");
        pos.undo_move(m);
        assert_eq!(Snapshot::of(pos), before, "undo_move of {m} in {sfen}");
        if gives_check {
            by_gives_check.push(m);
        }
        if checked {
            by_result.push(m);
        }
    }
    assert_eq!(pos.to_sfen(), sfen, "SFEN after taking every move back");
    assert_same_set(
        "generate_checks vs gives_check",
        &checks,
        &by_gives_check,
        &sfen,
    );
    assert_same_set(
        "generate_checks vs check after do_move",
        &checks,
        &by_result,
        &sfen,
    );

    // (d) The oracle. `shunsai` supports positions without a king (its docs: "A side may have no king
    // (as in tsume-shogi problems)"), so every position is compared, none skipped.
    let (theirs, their_check) = oracle(&sfen);
    let mut ours: Vec<String> = legal.iter().map(|m| m.to_usi()).collect();
    ours.sort();
    if ours != theirs {
        let extra: Vec<&String> = ours.iter().filter(|m| !theirs.contains(m)).collect();
        let missing: Vec<&String> = theirs.iter().filter(|m| !ours.contains(m)).collect();
        panic!(
            "legal moves differ from shunsai in {sfen}\n  extra:   {extra:?}\n  missing: {missing:?}"
        );
    }
    assert_eq!(
        pos.in_check(),
        their_check,
        "in_check differs from shunsai in {sfen}"
    );

    stats.positions += 1;
    stats.moves += legal.len();
    stats.checks += checks.len();
}

/// Checks the root of a problem and every position along its PV, and that the PV is the mating line the
/// data promises: each attacker move is a generated check, each defender move a generated evasion, and
/// the last position is mate, not by a pawn drop.
fn sweep_problem(p: &Problem, stats: &mut Stats) {
    let mut pos =
        Position::from_sfen(&p.sfen).unwrap_or_else(|e| panic!("{} {}: {e}", p.file, p.id));
    let attacker = pos.side_to_move();
    check_position(&mut pos, stats);
    if p.pv.is_empty() {
        return;
    }
    for (ply, text) in p.pv.iter().enumerate() {
        let at = |pos: &Position| format!("{} {} ply {} {text} in {pos:?}", p.file, p.id, ply + 1);
        let m = pos
            .parse_usi_move(text)
            .unwrap_or_else(|| panic!("PV move not legal: {}", at(&pos)));
        if pos.side_to_move() == attacker {
            assert!(
                check_moves(&pos).contains(&m),
                "PV check not generated: {}",
                at(&pos)
            );
        } else {
            assert!(pos.in_check(), "defender not in check: {}", at(&pos));
            assert!(
                evasion_moves(&pos).contains(&m),
                "PV evasion not generated: {}",
                at(&pos)
            );
        }
        pos.do_move(m);
        check_position(&mut pos, stats);
    }
    let last = pos.last_move();
    assert!(
        pos.in_check() && legal_moves(&pos).is_empty(),
        "{} {}: the PV does not end in mate: {pos:?}",
        p.file,
        p.id
    );
    assert!(
        !(last.is_drop() && last.drop_kind() == PieceKind::Pawn),
        "{} {}: the PV ends in a pawn-drop mate",
        p.file,
        p.id
    );
    // Take the whole line back: keys stay right on the way and the root comes back.
    let played: Vec<Move> = pos.played_moves().collect();
    for &m in played.iter().rev() {
        pos.undo_move(m);
        assert_eq!(
            (pos.board_key(), pos.hand_key()),
            pos.compute_keys(),
            "{} {}: keys after undoing {m}",
            p.file,
            p.id
        );
    }
    assert_eq!(
        pos.to_sfen(),
        position(&p.sfen).to_sfen(),
        "{} {}: undo the PV",
        p.file,
        p.id
    );
}

fn sweep_files(files: &[&'static str]) -> Stats {
    let mut stats = Stats::default();
    for file in files {
        let problems = load_problems(file);
        assert!(!problems.is_empty(), "{file} has no problems");
        for p in &problems {
            if two_pawns_on_a_file(&p.sfen) {
                let e = Position::from_sfen(&p.sfen).expect_err(&p.id);
                assert!(
                    matches!(e, SfenError::TwoPawns(..)),
                    "{} {}: {e}",
                    p.file,
                    p.id
                );
                stats.refused += 1;
            } else {
                sweep_problem(p, &mut stats);
            }
        }
    }
    eprintln!("{files:?}: {stats:?}");
    assert!(stats.positions > 0 && stats.moves > 0);
    stats
}

#[test]
fn sweep_microcosmos_pv() {
    let stats = sweep_files(&["microcosmos.tsv"]);
    // The root and the 1525 positions of the line; the 763 after an attacker move are in check.
    assert_eq!(stats.positions, 1526);
    assert_eq!(stats.in_check, 763);
}

#[test]
fn sweep_edge_cases_and_zukou() {
    let stats = sweep_files(&["edge-cases.tsv", "zukou.tsv"]);
    assert_eq!(stats.refused, 0);
}

#[test]
fn sweep_yaneuraou() {
    let stats = sweep_files(&[
        "yaneuraou-mate3.tsv",
        "yaneuraou-mate5.tsv",
        "yaneuraou-mate7.tsv",
    ]);
    assert_eq!(stats.refused, 0);
}

#[test]
fn sweep_tanuki() {
    let stats = sweep_files(&["tanuki.tsv"]);
    assert!(stats.in_check > 4000, "{stats:?}");
    // The generator behind tanuki.tsv ignored the two-pawn rule in these rows; they must be refused.
    assert_eq!(stats.refused, 174);
}

/// Plays random legal moves from `pos`, checking every position on the way, until there is no move or
/// `max_plies` were played; then takes them all back, comparing each position with the one recorded on
/// the way down. Half the time it prefers a check when there is one, so that positions in check (the
/// AND nodes of a mate search) are frequent.
fn random_playout(pos: &mut Position, rng: &mut Rng, max_plies: usize, stats: &mut Stats) {
    let mut path: Vec<(Move, Snapshot, String)> = Vec::new();
    for _ in 0..max_plies {
        check_position(pos, stats);
        let legal = legal_moves(pos);
        if legal.is_empty() {
            break;
        }
        let checks = check_moves(pos);
        let m = if !checks.is_empty() && rng.chance(1, 2) {
            *rng.pick(&checks)
        } else {
            *rng.pick(&legal)
        };
        path.push((m, Snapshot::of(pos), pos.to_sfen()));
        pos.do_move(m);
    }
    while let Some((m, snapshot, sfen)) = path.pop() {
        pos.undo_move(m);
        assert_eq!(
            Snapshot::of(pos),
            snapshot,
            "undo {m} at the end of a playout"
        );
        assert_eq!(pos.to_sfen(), sfen, "undo {m} at the end of a playout");
    }
}

/// Random positions to check in each of the two playout tests: 2 × 60 000 in release builds.
fn playout_target() -> usize {
    if DEBUG { 3_000 } else { 60_000 }
}

#[test]
fn random_playouts_from_startpos() {
    let mut rng = Rng::new(0x5eed_0001);
    let mut stats = Stats::default();
    while stats.positions < playout_target() {
        random_playout(&mut Position::startpos(), &mut rng, 300, &mut stats);
    }
    eprintln!("startpos playouts: {stats:?}");
    assert!(
        stats.in_check * 20 > stats.positions,
        "too few checks: {stats:?}"
    );
}

#[test]
fn random_playouts_from_problem_roots() {
    let mut rng = Rng::new(0x5eed_0002);
    let roots = all_valid_problems();
    let mut stats = Stats::default();
    while stats.positions < playout_target() {
        let p = rng.pick(&roots);
        random_playout(&mut position(&p.sfen), &mut rng, 48, &mut stats);
    }
    eprintln!("problem-root playouts: {stats:?}");
    assert!(
        stats.in_check * 10 > stats.positions,
        "too few checks: {stats:?}"
    );
}

// ---- regressions and known bugs ----------------------------------------------------------------------

/// Regression (found by this suite in 007e402, fixed in 5760db8): `attacks::line` paired the diagonal
/// directions wrongly (`d ^ 1`, but the diagonals were not laid out in opposite pairs), so a piece pinned
/// on a diagonal could move onto the wrong diagonal branch: here the rook on 4g, pinned by the bishop on
/// 2e against the king on 5h, was allowed 4g4i.
#[test]
fn pinned_piece_stays_on_its_diagonal_pin_line() {
    let sfen = "4k4/9/9/9/7b1/9/5R3/4K4/9 b - 1";
    let pos = position(sfen);
    let legal = legal_moves(&pos);
    assert!(
        !legal.iter().any(|m| m.to_usi() == "4g4i"),
        "illegal 4g4i generated in {sfen}"
    );
    let mut ours: Vec<String> = legal.iter().map(|m| m.to_usi()).collect();
    ours.sort();
    assert_eq!(ours, oracle(sfen).0);
}

/// Regression (same `attacks::line` fault): `generate_checks` dropped discovered checks. The lance on 5e
/// unmasks the bishop on 9a against the king on 4f wherever it goes, but 5g was taken for a square of the
/// bishop's line.
#[test]
fn discovered_checks_off_a_diagonal_are_generated() {
    let sfen = "b3k4/9/9/9/4l4/5K3/9/9/9 w - 1";
    let pos = position(sfen);
    let checks: Vec<String> = check_moves(&pos).iter().map(|m| m.to_usi()).collect();
    for m in ["5e5f", "5e5g", "5e5g+", "5e5h", "5e5h+", "5e5i+"] {
        assert!(
            checks.iter().any(|c| c == m),
            "{m} missing from {checks:?} in {sfen}"
        );
    }
}

/// A king in hand is not a position. `shogi_usi_parser` skips what a `Hand` cannot hold, so without
/// its own check `from_sfen` would drop the king silently and solve another problem than the one given.
#[test]
fn king_in_hand_is_refused() {
    for text in [
        "4k4/9/9/9/9/9/9/9/4K4 b K 1",
        "4k4/9/9/9/9/9/9/9/4K4 b 2k 1",
        "4k4/9/9/9/9/9/9/9/4K4 b RKk 1",
    ] {
        if let Ok(p) = Position::from_sfen(text) {
            panic!("{text} accepted as {}", p.to_sfen());
        }
    }
}

// ---- 3. hand superiority -----------------------------------------------------------------------------

fn random_hand(rng: &mut Rng) -> Hand {
    let mut h = Hand::EMPTY;
    for k in PieceKind::HAND {
        h.set_count(k, rng.below(usize::from(MAX_COUNT[k.index()]) + 1) as u8);
    }
    h
}

/// `a` with each kind nudged by -1, 0 or +1 (within range): close pairs, so that `covers` is true often
/// enough and the boundary cases (equal, one more, one less) are all hit.
fn nearby_hand(a: Hand, rng: &mut Rng) -> Hand {
    let mut b = a;
    for k in PieceKind::HAND {
        let n = match rng.below(4) {
            0 => a.count(k).saturating_sub(1),
            1 => (a.count(k) + 1).min(MAX_COUNT[k.index()]),
            _ => a.count(k),
        };
        b.set_count(k, n);
    }
    b
}

#[test]
fn hand_covers_is_kindwise_ge() {
    let mut rng = Rng::new(0x4a4d);
    let (mut yes, mut no) = (0, 0);
    for i in 0..200_000 {
        let a = random_hand(&mut rng);
        let b = if i % 2 == 0 {
            random_hand(&mut rng)
        } else {
            nearby_hand(a, &mut rng)
        };
        for (x, y) in [(a, b), (b, a)] {
            let expected = PieceKind::HAND.iter().all(|&k| x.count(k) >= y.count(k));
            assert_eq!(x.covers(y), expected, "{x:?} covers {y:?}");
            if expected {
                yes += 1;
            } else {
                no += 1;
            }
        }
        assert!(
            a.covers(a) && a.covers(Hand::EMPTY) && Hand::FULL.covers(a),
            "{a:?}"
        );
    }
    // Both outcomes must be well represented, or the test says little about one of them.
    assert!(
        yes > 40_000 && no > 40_000,
        "unbalanced sample: {yes} / {no}"
    );
}

#[test]
fn hand_set_count_round_trips() {
    let mut rng = Rng::new(7);
    for _ in 0..10_000 {
        let h = random_hand(&mut rng);
        let mut rebuilt = Hand::EMPTY;
        for k in PieceKind::HAND {
            rebuilt.set_count(k, h.count(k));
            assert_eq!(h.has(k), h.count(k) > 0, "{h:?} {k:?}");
        }
        assert_eq!(rebuilt, h);
        let total: u32 = PieceKind::HAND.iter().map(|&k| u32::from(h.count(k))).sum();
        assert_eq!(h.total(), total, "{h:?}");
    }
}

// ---- 4. hostile SFEN input ---------------------------------------------------------------------------

/// `from_sfen` on `text`, with a panic turned into an `Err` naming the input.
fn parse_guarded(text: &str) -> Result<Result<Position, String>, String> {
    catch_unwind(AssertUnwindSafe(|| {
        Position::from_sfen(text).map_err(|e| e.to_string())
    }))
    .map_err(|_| format!("from_sfen panicked on {text:?}"))
}

/// Inputs that are not positions, each with what is wrong with it.
const BAD_SFENS: &[(&str, &str)] = &[
    ("empty", ""),
    ("blank", "   \t  "),
    ("garbage", "hello world"),
    ("keyword only", "sfen"),
    ("position keyword only", "position"),
    (
        "board only",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",
    ),
    (
        "no hand",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b",
    ),
    (
        "truncated board",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1",
    ),
    ("eight ranks", "4k4/9/9/9/9/9/9/4K4 b - 1"),
    ("ten ranks", "4k4/9/9/9/9/9/9/9/9/4K4 b - 1"),
    ("ten files in a rank", "4k5/9/9/9/9/9/9/9/4K4 b - 1"),
    ("rank of eight", "4k3/9/9/9/9/9/9/9/4K4 b - 1"),
    ("digit zero", "4k4/9/9/0/9/9/9/9/4K4 b - 1"),
    ("unknown piece letter", "4k4/9/9/9/4X4/9/9/9/4K4 b - 1"),
    ("promoted king", "4+k4/9/9/9/9/9/9/9/4K4 b - 1"),
    ("promoted gold", "4k4/9/9/4+G4/9/9/9/9/4K4 b - 1"),
    ("dangling plus", "4k4/9/9/9/9/9/9/9/4K3+ b - 1"),
    ("bad side char", "4k4/9/9/9/9/9/9/9/4K4 x - 1"),
    ("upper-case side", "4k4/9/9/9/9/9/9/9/4K4 B - 1"),
    ("bad hand letter", "4k4/9/9/9/9/9/9/9/4K4 b X 1"),
    ("promoted piece in hand", "4k4/9/9/9/9/9/9/9/4K4 b +P 1"),
    ("count without piece", "4k4/9/9/9/9/9/9/9/4K4 b 3 1"),
    ("negative move number", "4k4/9/9/9/9/9/9/9/4K4 b - -3"),
    ("trailing garbage", "4k4/9/9/9/9/9/9/9/4K4 b - 1 extra"),
    ("two black kings", "4k4/9/9/9/9/9/9/9/3KK4 b - 1"),
    ("two white kings", "3kk4/9/9/9/9/9/9/9/4K4 b - 1"),
    ("no king", "9/9/9/4p4/9/9/9/9/9 b - 1"),
    ("pawn on last rank", "P3k4/9/9/9/9/9/9/9/4K4 b - 1"),
    (
        "white pawn on its last rank",
        "4k4/9/9/9/9/9/9/9/p3K4 b - 1",
    ),
    ("lance on last rank", "L3k4/9/9/9/9/9/9/9/4K4 b - 1"),
    ("knight on second rank", "4k4/N8/9/9/9/9/9/9/4K4 b - 1"),
    (
        "white knight on its second rank",
        "4k4/9/9/9/9/9/9/n8/4K4 b - 1",
    ),
    ("two pawns on a file", "4k4/9/P8/9/P8/9/9/9/4K4 b - 1"),
    ("two white pawns on a file", "4k4/p8/9/p8/9/9/9/9/4K4 b - 1"),
    ("three rooks", "4k4/9/9/9/9/9/9/9/4K4 b 3R 1"),
    ("five golds", "4k4/9/9/9/9/9/9/9/GGGGK4 b G 1"),
    ("nineteen pawns", "4k4/9/9/9/9/9/9/9/4K4 b 10P9p 1"),
    ("a hundred pawns", "4k4/9/9/9/9/9/9/9/4K4 b 99P 1"),
    ("three bishops split", "4k4/9/9/9/9/9/9/9/B3K4 b Bb 1"),
    ("opponent in check", "4k4/4R4/9/9/9/9/9/9/4K4 b - 1"),
    ("illegal move in list", "startpos moves 7g7f 7g7f"),
    ("garbage move in list", "startpos moves 7g7f zz"),
    ("unicode digits", "４ｋ４/9/9/9/9/9/9/9/4K4 b - 1"),
    ("unicode hand", "4k4/9/9/9/9/9/9/9/4K4 b 歩 1"),
];

#[test]
fn bad_sfens_are_refused_with_a_reason() {
    let mut accepted = Vec::new();
    for (what, text) in BAD_SFENS {
        match parse_guarded(text) {
            Err(panic) => panic!("{what}: {panic}"),
            Ok(Ok(p)) => accepted.push(format!("{what}: {text:?} -> {p:?}")),
            Ok(Err(msg)) => assert!(!msg.trim().is_empty(), "{what}: empty error message"),
        }
    }
    assert!(
        accepted.is_empty(),
        "accepted bad SFENs:\n{}",
        accepted.join("\n")
    );
}

#[test]
fn very_long_inputs_are_refused() {
    let long_rank = format!("4k4/9/9/9/{}/9/9/9/4K4 b - 1", "1".repeat(100_000));
    let long_hand = format!("4k4/9/9/9/9/9/9/9/4K4 b {} 1", "P".repeat(100_000));
    let many_ranks = format!("{}4K4 b - 1", "9/".repeat(10_000));
    let long_moves = format!("startpos moves {}", "7g7f ".repeat(10_000));
    for text in [long_rank, long_hand, many_ranks, long_moves] {
        let head: String = text.chars().take(40).collect();
        match parse_guarded(&text) {
            Err(panic) => panic!("{head}…: {panic}"),
            Ok(Ok(p)) => panic!("{head}… accepted as {p:?}"),
            Ok(Err(msg)) => assert!(!msg.trim().is_empty()),
        }
    }
    // A move number beyond `u16` is clamped rather than refused (it does not change the position);
    // either is fine, a panic is not.
    let long_ply = format!("4k4/9/9/9/9/9/9/9/4K4 b - {}", "9".repeat(10_000));
    assert!(
        parse_guarded(&long_ply).is_ok(),
        "from_sfen panicked on a long move number"
    );
}

/// Characters a mutation may insert: mostly SFEN's own alphabet, so that many mutants still parse and
/// reach the rule checks, plus a few strangers.
const MUTATION_ALPHABET: &[char] = &[
    '1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '/', '+', ' ', '-', 'p', 'l', 'n', 's', 'g',
    'b', 'r', 'k', 'P', 'L', 'N', 'S', 'G', 'B', 'R', 'K', 'w', 'x', '*', '\t', 'é', '歩',
];

/// One or two random edits: replace, delete, swap, duplicate a short run, or insert.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let edits = if rng.chance(3, 4) { 1 } else { 2 };
    for _ in 0..edits {
        let at = rng.below(chars.len() + 1);
        let c = *rng.pick(MUTATION_ALPHABET);
        match rng.below(5) {
            0 if at < chars.len() => chars[at] = c,
            1 if at < chars.len() => {
                chars.remove(at);
            }
            2 if at < chars.len() => {
                let other = rng.below(chars.len());
                chars.swap(at, other);
            }
            3 => {
                // Repeated ranks, pieces and hand counts.
                let run: Vec<char> = chars
                    .iter()
                    .skip(at)
                    .take(1 + rng.below(4))
                    .copied()
                    .collect();
                chars.splice(at..at, run);
            }
            _ => chars.insert(at, c),
        }
    }
    chars.into_iter().collect()
}

#[test]
fn mutated_sfens_never_panic_and_round_trip() {
    let mut seeds: Vec<String> = vec![
        "startpos".to_string(),
        "startpos moves 7g7f 3c3d 8h2b+".to_string(),
        MATSURI.to_string(),
        MAX_MOVES.to_string(),
    ];
    seeds.extend(
        common::all_problems()
            .iter()
            .step_by(20)
            .map(|p| p.sfen.clone()),
    );
    let mut rng = Rng::new(0xf022);
    let (mut ok, mut err) = (0, 0);
    let mut stats = Stats::default();
    let rounds = if DEBUG { 4_000 } else { 20_000 };
    for _ in 0..rounds {
        let seed: &String = rng.pick(&seeds);
        let text = mutate(seed, &mut rng);
        match parse_guarded(&text) {
            Err(panic) => panic!("{panic}"),
            Ok(Err(msg)) => {
                assert!(!msg.trim().is_empty(), "empty error message for {text:?}");
                err += 1;
            }
            Ok(Ok(mut pos)) => {
                let sfen = pos.to_sfen();
                let again = Position::from_sfen(&sfen)
                    .unwrap_or_else(|e| panic!("{text:?} was accepted but {sfen} is refused: {e}"));
                assert_eq!(again.to_sfen(), sfen, "round trip of {text:?}");
                // An accepted position is one the engine will search: it must pass the same checks.
                check_position(&mut pos, &mut stats);
                ok += 1;
            }
        }
    }
    eprintln!("mutated SFENs: {ok} accepted, {err} refused");
    assert!(
        ok > rounds / 50 && err > rounds / 50,
        "mutations too tame or too wild: {ok} accepted, {err} refused"
    );
}
