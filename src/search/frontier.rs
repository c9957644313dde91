//! Work done at frontier nodes (Kaneko et al., "df-pn with fixed-depth search at frontier nodes"), and
//! the proof/disproof hands of terminal positions (komori-n).
//!
//! * A new AND node is checked for mate (no evasion) as soon as its parent generates it, and otherwise
//!   gets its number of evasions as the initial proof number (fewer escapes, likelier mate).
//! * A new OR node is checked for mate in one; a failure gives it the number of checks as the initial
//!   disproof number.
//!
//! * `mate_in_three`: the paper's fixed-depth search — each check, every evasion, mate in one after
//!   each — answering exactly whether the attacker mates within 3 plies.
//!
//! Together the 1-ply look-ahead of an OR node and the mate-1 probe of its grandchildren make the
//! 3-ply frontier of the paper.

use super::hands::{and_proof_extra, before_proof};
use super::mate1;
use crate::position::movegen::{
    MoveList, count_checks, count_evasion_groups, generate_checks, generate_king_evasions,
    generate_other_evasions,
};
use crate::position::{Bitboard, Color, Hand, Move, PieceKind, Position, Square};

/// What a look at a new AND node (defender to move, in check) found.
pub enum AndLook {
    /// No evasion: mate. The proof hand the mate needs.
    Mated(Hand),
    /// This many legal evasions, counting all interpositions as one (they are aggregated with `max`
    /// by the search, so this is the proof number the node starts from).
    Evasions(usize),
}

/// Looks at a new AND node: mated or how many evasions.
pub fn look_and(pos: &Position, attacker: Color) -> AndLook {
    match count_evasion_groups(pos) {
        0 => AndLook::Mated(and_proof_extra(pos, attacker)),
        n => AndLook::Evasions(n),
    }
}

/// A defender move that blocks the check: a drop, or a move by a piece other than the king, onto the
/// checking line.
#[inline]
pub fn is_interposition(m: Move, gap: Bitboard) -> bool {
    gap.contains(m.to()) && (m.is_drop() || m.piece().kind() != PieceKind::King)
}

/// What a look at a new OR node (attacker to move) found.
pub enum OrLook {
    /// Mate in one by this move, needing this proof hand.
    Mate(Move, Hand),
    /// This many checks, none of which mates at once.
    Checks(usize),
}

/// Looks at a new OR node: mate in one (returned with its proof hand) or the number of checks, and
/// how many moves it played (for the node count: the mate-1 test plays none; a mate is played once for
/// its proof hand).
pub fn look_or(pos: &mut Position, attacker: Color) -> (OrLook, u64) {
    debug_assert_eq!(attacker, pos.side_to_move());
    if let Some((m, proof)) = mate1::mate_in_one(pos) {
        return (OrLook::Mate(m, proof), 1);
    }
    (OrLook::Checks(count_checks(pos)), 0)
}

/// A mate within three plies found by `mate_in_three`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mate3 {
    /// The first check.
    pub mv: Move,
    /// 1 or 3.
    pub len: u16,
    /// The proof hand of the OR node.
    pub proof: Hand,
}

/// What `mate_in_three` found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Three {
    Mate(Mate3),
    /// No mate within three plies that avoids the positions of the path. `cut`: some line was cut at
    /// such a position, so the answer holds for this path only.
    NoMate {
        cut: bool,
    },
}

/// Whether the attacker (to move in `pos`, which has **no mate in one**: the caller has asked
/// `mate1` already) mates within three plies: a check after which every evasion allows a mate in one.
/// `nodes` counts the positions whose moves it generated (the OR node and each AND node).
///
/// Like the search, it treats a move back to a position of the path (`on_path`, full keys) as a
/// failure of the attacker, so that its proofs are trees the search itself could have found and a
/// line read from the table can be played back without meeting the path. Without a cut the answers
/// are exact and hold for every path to the position; a proof always holds (it is a mate tree).
///
/// Proof hand (as `Searcher::finish` builds it, the rules in `hands.rs`): at the AND node after the
/// check, the union of the grandchildren's mate-1 proof hands and `and_proof_extra`; before the
/// check, `before_proof`. The defender's moves leave the attacker's hand as it is, so the union
/// needs no adjustment.
pub fn mate_in_three(
    pos: &mut Position,
    attacker: Color,
    on_path: impl Fn(u64) -> bool,
    bufs: &mut [MoveList; 2],
    nodes: &mut u64,
) -> Three {
    debug_assert_eq!(attacker, pos.side_to_move());
    let [checks, evasions] = bufs;
    checks.clear();
    generate_checks(pos, checks);
    *nodes += 1;
    let mut cut = false;
    let mut killer = None;
    for &c in checks.iter() {
        pos.do_move(c);
        let proof = if on_path(pos.key()) {
            cut = true;
            None
        } else {
            mated_in_two(
                pos,
                attacker,
                &on_path,
                evasions,
                nodes,
                &mut cut,
                &mut killer,
            )
        };
        pos.undo_move(c);
        if let Some((len, and_hand)) = proof {
            return Three::Mate(Mate3 {
                mv: c,
                len: len + 1,
                proof: before_proof(pos, c, and_hand),
            });
        }
    }
    Three::NoMate { cut }
}

/// At an AND node: whether every evasion allows a mate in one; the mate's length and the node's
/// proof hand.
///
/// The answer is usually no (in a bounded search's refutations, nearly always), and the evasion
/// without a mate in one is nearly always a king move (measured on the short problem sets: the
/// figure is in docs/benchmarks.md). So the king's moves are generated and tried first, the others
/// only when every king move is mated; and the king's destination that refuted the previous check
/// (`killer`, kept by the caller across its checks) is tried before the others. The order changes
/// the work, not the answer: every evasion is tried before a yes. (It may change `cut`, which only
/// says that some line met the path: a refutation found before such a line is met holds on every
/// path, one found after is merely searched again by the caller; both are sound.)
pub(super) fn mated_in_two(
    pos: &mut Position,
    attacker: Color,
    on_path: &impl Fn(u64) -> bool,
    evasions: &mut MoveList,
    nodes: &mut u64,
    cut: &mut bool,
    killer: &mut Option<Square>,
) -> Option<(u16, Hand)> {
    *nodes += 1;
    let mut proof = and_proof_extra(pos, attacker);
    // Whether the evasion `e` allows a mate in one (and then its proof hand joins the node's).
    let mut mated = |pos: &mut Position, e: Move, proof: &mut Hand| {
        pos.do_move(e);
        let mate = if on_path(pos.key()) {
            *cut = true;
            None
        } else {
            mate1::mate_in_one(pos)
        };
        pos.undo_move(e);
        let Some((_, hand)) = mate else {
            return false;
        };
        *proof = proof.max(hand);
        true
    };
    evasions.clear();
    generate_king_evasions(pos, evasions);
    let kings = evasions.len();
    let first = killer.and_then(|sq| evasions.iter().position(|e| e.to() == sq));
    if let Some(i) = first {
        evasions.as_mut_slice().swap(0, i);
    }
    for &e in evasions.iter() {
        if !mated(pos, e, &mut proof) {
            *killer = Some(e.to());
            return None;
        }
    }
    evasions.clear();
    generate_other_evasions(pos, evasions);
    if kings == 0 && evasions.is_empty() {
        return Some((0, proof));
    }
    for &e in evasions.iter() {
        if !mated(pos, e, &mut proof) {
            return None;
        }
    }
    Some((2, proof))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::movegen::{count_evasions, generate_evasions};

    /// Generate-and-test over every line of three plies, without hands.
    fn reference(pos: &mut Position) -> Option<u16> {
        let mut checks = MoveList::new();
        generate_checks(pos, &mut checks);
        let mut best = None;
        for &c in checks.iter() {
            pos.do_move(c);
            let mut evasions = MoveList::new();
            generate_evasions(pos, &mut evasions);
            let len = if evasions.is_empty() {
                Some(1)
            } else {
                evasions
                    .iter()
                    .all(|&e| {
                        pos.do_move(e);
                        let mut replies = MoveList::new();
                        generate_checks(pos, &mut replies);
                        let mate = replies.iter().any(|&r| {
                            pos.do_move(r);
                            let mated = count_evasions(pos) == 0;
                            pos.undo_move(r);
                            mated
                        });
                        pos.undo_move(e);
                        mate
                    })
                    .then_some(3)
            };
            pos.undo_move(c);
            best = match (best, len) {
                (Some(b), Some(l)) => Some(l.min(b)),
                (b, l) => b.or(l),
            };
        }
        best
    }

    /// The answers on a few positions; `tests/mate1/` compares thousands with generate-and-test.
    #[test]
    fn agrees_with_generate_and_test() {
        let positions = [
            // Mate in 3 (rook check from the side, then the gold).
            "9/8k/9/7RG/9/9/9/9/9 b r2b3g4s4n4l18p 1",
            // Real-game mates in 3 and 5 (yaneuraou-mate3/5.tsv).
            "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
            "l2gkg2l/2s3s2/p1nppp1pp/2p3p2/P4P1P1/4n3P/1PPPG1N2/1BKS2+s2/LN3+r3 w RBgl3p 72",
            "lnsgs2+Pl/3kg4/p1pppN2p/6pp1/9/7R1/P1PP1Sg1P/1S3+b3/LN5KL w Nrbg6p 58",
        ];
        let mut bufs = [MoveList::new(), MoveList::new()];
        for sfen in positions {
            let mut pos = Position::from_sfen(sfen).expect("a valid sfen");
            let attacker = pos.side_to_move();
            let expect = reference(&mut pos);
            let mut nodes = 0;
            let got = if mate1::mating_move(&pos).is_some() {
                Some(1)
            } else {
                match mate_in_three(&mut pos, attacker, |_| false, &mut bufs, &mut nodes) {
                    Three::Mate(m) => Some(m.len),
                    Three::NoMate { cut } => {
                        assert!(!cut);
                        None
                    }
                }
            };
            assert_eq!(got, expect, "{sfen}");
            if got == Some(3)
                && let Three::Mate(m) =
                    mate_in_three(&mut pos, attacker, |_| false, &mut bufs, &mut nodes)
            {
                assert!(pos.hand(attacker).covers(m.proof), "{sfen}");
            }
        }
    }
}
