//! Unit tests of `movegen.rs`.

use super::*;

fn perft_of(sfen: &str, depth: u32) -> u64 {
    let mut p = Position::from_sfen(sfen).unwrap();
    perft(&mut p, depth)
}

#[test]
fn perft_startpos_shallow() {
    assert_eq!(perft_of("startpos", 1), 30);
    assert_eq!(perft_of("startpos", 2), 900);
    assert_eq!(perft_of("startpos", 3), 25470);
}

#[test]
fn perft_593_moves() {
    let s = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1";
    assert_eq!(perft_of(s, 1), 593);
}

/// The counters agree with the lists, and the check generator with filtering all moves, over every
/// position of a small tree from a few starting points.
#[test]
fn counts_and_checks_agree_with_the_full_lists() {
    fn walk(p: &mut Position, depth: u32) {
        let mut all = MoveList::new();
        generate_legal(p, &mut all);
        assert_eq!(count_legal(p), all.len(), "{p:?}");
        if p.in_check() {
            let mut ev = MoveList::new();
            generate_evasions(p, &mut ev);
            assert_eq!(ev.len(), all.len(), "{p:?}");
            assert_eq!(count_evasions(p), all.len(), "{p:?}");
            // In two parts: the king's moves, then the others (the same moves in the same order).
            let mut parts = MoveList::new();
            generate_king_evasions(p, &mut parts);
            assert!(
                parts
                    .iter()
                    .all(|m| m.piece().kind() == PieceKind::King && !m.is_drop())
            );
            let mut others = MoveList::new();
            generate_other_evasions(p, &mut others);
            assert!(
                others
                    .iter()
                    .all(|m| m.is_drop() || m.piece().kind() != PieceKind::King)
            );
            let split: Vec<Move> = parts.iter().chain(others.iter()).copied().collect();
            assert_eq!(split, ev.to_vec(), "{p:?}");
            // Grouped: interpositions (moves by a piece other than the king onto the checking line)
            // count as one.
            let gap = check_gap(p);
            let blocks = ev
                .iter()
                .filter(|m| {
                    gap.contains(m.to()) && (m.is_drop() || m.piece().kind() != PieceKind::King)
                })
                .count();
            let grouped = ev.len() - blocks + usize::from(blocks > 0);
            assert_eq!(count_evasion_groups(p), grouped, "{p:?}");
        }
        let mut checks = MoveList::new();
        generate_checks(p, &mut checks);
        assert_eq!(count_checks(p), checks.len(), "{p:?}");
        let mut expect: Vec<Move> = all.iter().copied().filter(|&m| p.gives_check(m)).collect();
        let mut got = checks.to_vec();
        expect.sort_by_key(|m| m.to_u16());
        got.sort_by_key(|m| m.to_u16());
        assert_eq!(got, expect, "{p:?}");
        if depth == 0 {
            return;
        }
        for &m in all.iter() {
            p.do_move(m);
            walk(p, depth - 1);
            p.undo_move(m);
        }
    }
    for (sfen, depth) in [
        ("startpos", 2),
        (
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            1,
        ),
        ("6Snl/5s1k1/6rpp/5Bp2/9/9/9/9/9 w RGb3g2s3n3l15p 6", 2),
        ("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", 2),
    ] {
        let mut p = Position::from_sfen(sfen).unwrap();
        walk(&mut p, depth);
    }
}

/// A rook pinned on a diagonal cannot move: its moves are kept to the diagonal through it and its
/// king (`line`), and no rook move stays on a diagonal.
#[test]
fn diagonally_pinned_rook_stays() {
    let p = Position::from_sfen("6Snl/5s1k1/6rpp/5Bp2/9/9/9/9/9 w RGb3g2s3n3l15p 6").unwrap();
    let mut list = MoveList::new();
    generate_legal(&p, &mut list);
    assert!(
        !list
            .iter()
            .any(|m| !m.is_drop() && m.from() == Square::new(3, 3).unwrap())
    );
}

#[test]
fn pawn_drop_mate_is_not_generated() {
    // White king on 1a boxed in by its own pieces; P*1b would be mate.
    let p = Position::from_sfen("7nk/9/8G/9/9/9/9/9/9 b P 1").unwrap();
    let mut list = MoveList::new();
    generate_legal(&p, &mut list);
    assert!(!list.iter().any(|m| m.to_usi() == "P*1b"));
    // With an escape square it is legal.
    let p = Position::from_sfen("8k/9/8G/9/9/9/9/9/9 b P 1").unwrap();
    let mut list = MoveList::new();
    generate_legal(&p, &mut list);
    assert!(list.iter().any(|m| m.to_usi() == "P*1b"));
}
