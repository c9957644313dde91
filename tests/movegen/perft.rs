//! Exact perft counts, and perft against `shunsai` on every problem root.

use super::*;

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
