//! Mates with pieces to spare (駒余り) and the composer's ranking of defences.
//!
//! A tsume problem's intended line ends with the attacker's hand empty. Composers rank a defence after
//! which the attacker can force a mate that ends with pieces left in hand (a *spare* mate) below every
//! defence after which it cannot, whatever the lengths: such a variation is "駒余り", never the main
//! line, and not a flaw even when it is longer (長手数駒余り). This is what makes most interpositions
//! futile in the composer's sense without any special rule: the attacker captures the interposed piece
//! and mates without needing it, so the piece is left over. kanju follows the reading described in the
//! shtsume notes (§4.1): the value of a position is the pair (spare or not, length), the defender
//! preferring any line without pieces to spare, then the longest, the attacker the other way round.
//!
//! ## The spare game
//! "Can the attacker force a spare mate from P?" is a mate search of its own: the same moves and
//! repetition rule, but a mated position counts for the attacker only if it holds a piece in hand (an
//! exact mate counts as a refutation). `Game::spare` is that game, under a table salt of its own. Hands stay sound: with more pieces the attacker can follow the same strategy against a
//! defender holding less, and still ends with a piece in hand, so spare mates are monotone in the hand
//! like mates, and every rule of `hands.rs` holds for them; the one new rule is the mated position's
//! proof hand (`hands::spare_mate_proof`). Mate-in-one and the 3-ply frontier look for any mate: the
//! spare game takes mate-1's mate where it leaves a piece in hand, and its "no mate in one" (no mate
//! is no spare mate) two plies above a bounded test's horizon (`Searcher::spare_leaf`; the look-ahead
//! likewise); a mate-1 mate with an empty hand decides nothing (another mate might leave a piece),
//! and the 3-ply frontier is not used.
//!
//! ## Where it is played
//! The ranking is applied to the printed canonical line only, after the canonical search
//! (`canonical/ranking.rs`, which asks this module's tests of the line's replies). Each test is a search
//! from the reply's position with a fresh path (the property belongs to the position, not to how it
//! was reached) and a node cap; a test that ends without an answer says so (`Verdict::Unknown`).

use crate::position::{Hand, Move};
use crate::search::dfpn::{Searcher, Verdict};
use crate::search::game::Game;
use crate::search::hands::surplus_proof;
use crate::search::node::Seen;

/// Mixed into the table salt while the spare game is searched.
pub const SPARE_SALT: u64 = 0x7370_6172_6500_0001;

/// Whether the attacker forces a spare mate after the defender's move `m` from the current AND node
/// (at `ply` of the current search; the test's depth limit keeps the whole recursion within the
/// search's), searched within `cap` nodes (0: `Unknown` at once), for spare mates of at most `plies`
/// plies after `m` (`UNBOUNDED`: of any length).
pub fn after_reply_within(s: &mut Searcher, m: Move, ply: u32, cap: u64, plies: u32) -> Verdict {
    if cap == 0 {
        return Verdict::Unknown;
    }
    s.pos.do_move(m);
    let r = test_here(s, ply + 1, cap, plies);
    s.pos.undo_move(m);
    r
}

/// The spare test of the current position (an OR node at `ply`), within `cap` nodes, for spare mates
/// of at most `plies` plies (`UNBOUNDED`: any).
fn test_here(s: &mut Searcher, ply: u32, cap: u64, plies: u32) -> Verdict {
    if let Some(proof) = surplus_witness(s, plies) {
        return Verdict::Mate(proof);
    }
    // Futile drops are no defence here either (the spare game is played on the canonical one): a
    // line that ends where only they are left ends there, spare or not by the hand it has (a spare
    // test that let the defender drop them would call every such ending spare: the captured drop is
    // left over).
    let game = Game::spare(s.main_salt() ^ SPARE_SALT, plies, s.config().strict_proofs);
    let max_ply = s.depth.max_ply.saturating_sub(ply).max(2);
    // `Seen::New`: the root may be a spare mate in one (`Searcher::spare_leaf`).
    s.nested(game, cap, max_ply, Seen::New).verdict()
}

/// A spare mate read off the ordinary game's table, without a search: the current position (attacker
/// to move) is proven there within `plies` with a proof hand its hand exceeds
/// (`hands::surplus_proof` has the argument).
fn surplus_witness(s: &Searcher, plies: u32) -> Option<Hand> {
    let hand = s.hand();
    let key = s.pos.board_key() ^ s.main_salt();
    let p = s.tt().probe(key, hand, 0, plies);
    if !p.is_proven() || u32::from(p.len) > plies {
        return None;
    }
    surplus_proof(hand, p.hand)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::search::dfpn::tests::fresh_search;
    use crate::search::hands::spare_mate_proof;
    use crate::search::tt::UNBOUNDED;

    /// The spare test of a tsume position (attacker to move).
    fn spare(sfen: &str) -> Verdict {
        fresh_search(sfen, "default", |s| test_here(s, 0, 200_000, UNBOUNDED))
    }

    #[test]
    fn a_mate_with_a_piece_left_is_spare_and_one_without_is_not() {
        // R*1b mates (the king is walled in by its lance and pawn, the gold guards 1b's neighbours).
        assert!(matches!(
            spare("7lk/7p1/8G/9/9/9/9/9/9 b RP 1"),
            Verdict::Mate(_)
        ));
        assert!(matches!(
            spare("7lk/7p1/8G/9/9/9/9/9/9 b R 1"),
            Verdict::NoMate(_)
        ));
        // No mate at all: no spare mate.
        assert!(matches!(
            spare("8k/9/9/9/9/9/9/9/9 b P 1"),
            Verdict::NoMate(_)
        ));
    }

    /// Mate in one in the spare game is mate-1's when it leaves a piece: R*1b with a pawn over is
    /// proven at the test's root without generating its checks (proof hand: the rook and the pawn);
    /// with the rook alone mate-1's mate is no spare one, and the search (which generates the checks
    /// and finds no other mate) says no. Where mate-1 finds no mate at all, a test of spare mates
    /// within two plies says no without generating the checks either.
    #[test]
    fn a_spare_mate_in_one_is_proven_by_mate_in_one() {
        let test_within = |sfen: &str, plies: u32| {
            fresh_search(sfen, "default", |s| {
                let r = test_here(s, 0, 10_000, plies);
                (r, s.stats.expansions, s.stats.mate1_probes)
            })
        };
        let test = |sfen: &str| test_within(sfen, UNBOUNDED);
        let mut rook_pawn = Hand::EMPTY;
        rook_pawn.set_count(crate::position::PieceKind::Rook, 1);
        rook_pawn.set_count(crate::position::PieceKind::Pawn, 1);
        assert_eq!(
            test("7lk/7p1/8G/9/9/9/9/9/9 b RP 1"),
            (Verdict::Mate(rook_pawn), 0, 1)
        );
        let (r, expansions, _) = test("7lk/7p1/8G/9/9/9/9/9/9 b R 1");
        assert!(matches!(r, Verdict::NoMate(_)));
        assert!(expansions > 0);
        // P*1b checks, but the king takes it: no mate in one, so none within two plies (a bounded
        // "no" that the test reports as no answer: `test_here` says no only for every length).
        let (r, expansions, probes) = test_within("8k/9/9/9/9/9/9/9/9 b P 1", 2);
        assert_eq!(r, Verdict::Unknown);
        assert_eq!((expansions, probes), (0, 1));
    }

    /// The surplus witness reads the ordinary game's proof: R*1b mates with the rook alone, so a pawn
    /// more is a piece to spare (the spare proof hand is the rook and the pawn); with the rook alone,
    /// or before the proof is in the table, the witness says nothing and the spare search decides.
    #[test]
    fn a_proof_with_a_smaller_hand_witnesses_a_spare_mate() {
        let witness = |sfen: &str, prove: bool| {
            fresh_search(sfen, "default", |s| {
                let hand = s.pos.hand(crate::position::Color::Black);
                if prove {
                    s.run();
                }
                (surplus_witness(s, UNBOUNDED), hand)
            })
        };
        let (w, hand) = witness("7lk/7p1/8G/9/9/9/9/9/9 b RP 1", true);
        assert_eq!(w, Some(hand), "the rook mates, the pawn is left over");
        assert_eq!(witness("7lk/7p1/8G/9/9/9/9/9/9 b RP 1", false).0, None);
        assert_eq!(witness("7lk/7p1/8G/9/9/9/9/9/9 b R 1", true).0, None);
        // Two rooks: either mates, the other is the piece to spare.
        let (w, _) = witness("7lk/7p1/8G/9/9/9/9/9/9 b 2R 1", true);
        let rook = |n| {
            let mut h = Hand::EMPTY;
            h.set_count(crate::position::PieceKind::Rook, n);
            h
        };
        assert_eq!(w, Some(rook(2)));
        assert!(matches!(
            spare("7lk/7p1/8G/9/9/9/9/9/9 b 2R 1"),
            Verdict::Mate(_)
        ));
    }

    #[test]
    fn spare_mate_proof_hands() {
        let h = |s: &str| {
            Position::from_sfen(&format!("8k/9/9/9/9/9/9/9/9 b {s} 1"))
                .unwrap()
                .hand(crate::position::Color::Black)
        };
        // Interposition pieces already needed: they are the piece to spare.
        assert_eq!(spare_mate_proof(h("GS"), h("G")), Some(h("G")));
        // Otherwise one piece of the hand, the cheapest.
        assert_eq!(spare_mate_proof(h("RP"), Hand::EMPTY), Some(h("P")));
        assert_eq!(spare_mate_proof(h("B"), Hand::EMPTY), Some(h("B")));
        // Nothing in hand: no spare mate.
        assert_eq!(spare_mate_proof(Hand::EMPTY, Hand::EMPTY), None);
    }
}
