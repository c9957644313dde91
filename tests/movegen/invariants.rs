//! The generators' invariants on every problem position, along the PVs and on random playouts; regressions.

use super::*;

// ---- 2. invariants on every problem position and on random playouts ---------------------------------

/// How much a sweep looked at; asserted on so that a sweep cannot pass by looking at nothing.
#[derive(Default, Debug)]
pub(crate) struct Stats {
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
pub(crate) fn check_position(pos: &mut Position, stats: &mut Stats) {
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
