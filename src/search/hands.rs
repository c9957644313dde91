//! Proof and disproof hands (komori-n, "proof and disproof pieces"): which attacker hands a proof or a
//! disproof found for one position also covers.
//!
//! The table compares positions of one board by the attacker's hand. That is sound because, within one
//! problem (the table key is salted with the problem's material and the attacker's colour), the board
//! and the attacker's hand determine the defender's hand: it holds the rest of the material. So a
//! larger attacker hand means a smaller defender hand, and the other way round.
//!
//! * A **proof hand** P of a position: every position of the same board whose attacker holds at least
//!   P (kind by kind) is a mate too.
//! * A **disproof hand** D: every position of the same board whose attacker holds at most D is no mate.
//!
//! Each rule below carries the argument for its soundness. They are tested here on hand-built
//! positions, and against an independent exhaustive search in `tests/differential/` (random pairs
//! of positions with the same board and different hand splits share one table).

use crate::position::movegen::check_squares;
use crate::position::{Color, Hand, Move, PieceKind, Position, attacks};

/// The proof hand of an AND node (defender to move, in check) beyond the union of its children's proof
/// hands — and the whole proof hand of a mated position (no children).
///
/// Argument: with an attacker hand g ⊇ P the defender holds less, so its moves are a subset of the ones
/// examined, each leading to a child proven for g (the union covers every child's proof hand). One
/// exception: a kind k the defender holds none of here. If g[k] < H[k] (the current attacker count) the
/// defender holds some k, and when the check can be blocked (a single distant check with empty squares
/// between) it could interpose it, a move never examined. So for those kinds the proof needs the whole
/// current count H[k] (komori-n's long-range-check rule). Contact checks and double checks cannot be
/// blocked, and a kind the defender already holds adds no new move when it holds more.
pub fn and_proof_extra(pos: &Position, attacker: Color) -> Hand {
    let defender = attacker.flip();
    let checkers = pos.checkers();
    let Some(ksq) = pos.king_square(defender) else {
        return Hand::EMPTY;
    };
    if checkers.has_more_than_one() || checkers.is_empty() {
        return Hand::EMPTY;
    }
    if attacks::between(checkers.first(), ksq).is_empty() {
        return Hand::EMPTY;
    }
    let (ah, dh) = (pos.hand(attacker), pos.hand(defender));
    let mut extra = Hand::EMPTY;
    for k in PieceKind::HAND {
        if dh.count(k) == 0 {
            extra.set_count(k, ah.count(k));
        }
    }
    extra
}

/// The proof hand of a mated position (no evasion) in the *spare* game (`canonical/spare.rs`: the
/// attacker must mate with pieces left in hand), given `extra` = `and_proof_extra` and the
/// attacker's hand `hand` there; `None` when `hand` is empty (a mate, but no spare one).
///
/// Argument: every hand covering `extra` mates (the rule above); the result also covers one piece of
/// `hand` when `extra` is empty, so every hand covering it is non-empty: a mate with a piece to spare.
/// The cheapest kind is taken (any would do; a pawn is the likeliest to be covered by other hands).
pub fn spare_mate_proof(hand: Hand, extra: Hand) -> Option<Hand> {
    if !extra.is_empty() {
        return Some(extra);
    }
    let k = hand.kinds().next()?;
    let mut proof = extra;
    proof.set_count(k, 1);
    Some(proof)
}

/// An OR node's proof hand from the proof hand of the child reached by `m` (`pos` is the OR node).
///
/// Argument: with a hand g ⊇ P the attacker can play `m` (a drop of k needs one k: P counts it) and
/// reaches the child with hand g − k (drop) or g + X (capture of X), which covers the child's proof hand
/// (`child` = P − k + k, or P + X ⊇ child since P = child − X saturating). More pieces never make a
/// move illegal.
pub fn before_proof(pos: &Position, m: Move, child: Hand) -> Hand {
    if m.is_drop() {
        return plus_one(child, m.drop_kind());
    }
    let captured = pos.piece_at(m.to());
    if captured.is_empty() {
        child
    } else {
        minus_one(child, captured.kind().unpromoted())
    }
}

/// The disproof hand an OR node gets from the child reached by `m`, before the cap of `cap_or_disproof`
/// (the OR node's disproof hand is the minimum of these over all its checks, then capped).
///
/// Argument: the inverse of `before_proof`. With a hand g ⊆ D − X (capture of X) the child is reached
/// with g + X ⊆ D; with g ⊆ D + k (drop of k), if the attacker holds a k at all the child has g − k ⊆ D.
pub fn before_disproof(pos: &Position, m: Move, child: Hand) -> Hand {
    before_proof(pos, m, child)
}

/// Caps an OR node's disproof hand `d`: for each kind the attacker does not hold here, holding one would
/// allow drops that were never examined; unless no drop of that kind could check the king here (no empty
/// square from which it would attack the king), the disproof cannot extend to hands holding that kind.
///
/// Argument: for a kind the attacker already holds, more of it adds no move (every drop of it was
/// examined). For a kind it does not hold, the new moves are drops, and a drop that does not check is no
/// attacker move in a mate search. Board moves do not depend on the hand.
pub fn cap_or_disproof(pos: &Position, attacker: Color, mut d: Hand) -> Hand {
    let defender = attacker.flip();
    let Some(ksq) = pos.king_square(defender) else {
        return d;
    };
    let ah = pos.hand(attacker);
    let empty = !pos.occupied();
    let mut squares = None;
    for k in PieceKind::HAND {
        if ah.count(k) != 0 || d.count(k) == 0 {
            continue;
        }
        let sq = squares.get_or_insert_with(|| check_squares(pos, attacker, ksq));
        if (sq[k.index()] & empty).is_not_empty() {
            d.set_count(k, 0);
        }
    }
    d
}

/// The disproof hand of an OR node without a single check: every hand, except the kinds whose drops
/// could check (`cap_or_disproof` of the full hand).
pub fn no_check_disproof(pos: &Position, attacker: Color) -> Hand {
    cap_or_disproof(pos, attacker, Hand::FULL)
}

/// An AND node's disproof hand from the disproof hand `child` of the child reached by the defender's
/// move `m` (`pos` is the AND node, `attacker` the attacking colour).
///
/// Argument: the defender's move does not change the attacker's hand, so with a hand g ⊆ `child` the
/// same move reaches a disproven child — provided the move is still legal. Only a drop depends on the
/// hands: the defender needs a piece of its kind k. The defender holds the rest of the material, T[k] −
/// g[k] with T[k] = H[k] + defender[k] here, so the drop exists only while g[k] ≤ H[k] + defender[k] − 1.
/// The disproof is capped there (it still covers the current hand, since the defender holds one k).
pub fn and_disproof(pos: &Position, attacker: Color, m: Move, mut child: Hand) -> Hand {
    if m.is_drop() {
        let k = m.drop_kind();
        let total = pos.hand(attacker).count(k) + pos.hand(attacker.flip()).count(k);
        debug_assert!(total >= 1, "the defender dropped a piece it holds");
        if child.count(k) >= total {
            child.set_count(k, total.saturating_sub(1));
        }
    }
    child
}

fn plus_one(mut h: Hand, k: PieceKind) -> Hand {
    h.set_count(k, h.count(k).saturating_add(1));
    h
}

fn minus_one(mut h: Hand, k: PieceKind) -> Hand {
    h.set_count(k, h.count(k).saturating_sub(1));
    h
}

/// The spare game's proof hand (`canonical/spare.rs`) of a position the ordinary game proves with
/// proof hand `proof`, where the attacker holds `hand`: `proof` plus one piece `hand` has over it, if
/// `hand` covers `proof` and exceeds it.
///
/// Argument: the proof of `proof` is a mating strategy for any attacker hand covering it. Played with
/// `hand` = `proof` + X, it never drops a piece of X, so X is in hand at every position of it, the
/// mate included. The defender, holding X less, has a subset of the same moves; a line of the
/// canonical game ends sooner where only futile drops are left (still with X in hand). So the
/// attacker forces a mate with pieces to spare, and `proof` plus one piece of X (any kind: every hand
/// covering it is such a hand) is a proof hand of the spare game. This holds with either side to
/// move. Proven entries are general (never path-dependent), and every proof of the table's ordinary
/// salt is a mate of the strict game, a canonical mate a fortiori.
pub fn surplus_proof(hand: Hand, proof: Hand) -> Option<Hand> {
    if !hand.covers(proof) {
        return None;
    }
    let k = hand.saturating_sub(proof).kinds().next()?;
    Some(proof.added(k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::problem_position;

    fn pos(sfen: &str) -> Position {
        problem_position(&Position::from_sfen(sfen).unwrap())
    }

    fn hand(text: &str) -> Hand {
        // "RG2P" style, as `Hand`'s Debug prints it.
        let mut h = Hand::EMPTY;
        let mut n = 0u8;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                n = n * 10 + d as u8;
                continue;
            }
            let k = match c {
                'P' => PieceKind::Pawn,
                'L' => PieceKind::Lance,
                'N' => PieceKind::Knight,
                'S' => PieceKind::Silver,
                'G' => PieceKind::Gold,
                'B' => PieceKind::Bishop,
                'R' => PieceKind::Rook,
                _ => panic!("{c}"),
            };
            h.set_count(k, n.max(1));
            n = 0;
        }
        h
    }

    #[test]
    fn mate_by_contact_needs_nothing() {
        // G*1b mates the king in the corner: the mated position needs no extra pieces.
        let mut p = pos("8k/9/8P/9/9/9/9/9/9 b G 1");
        let m = p.parse_usi_move("G*1b").unwrap();
        p.do_move(m);
        assert_eq!(and_proof_extra(&p, Color::Black), Hand::EMPTY);
        p.undo_move(m);
        assert_eq!(before_proof(&p, m, Hand::EMPTY), hand("G"));
    }

    #[test]
    fn distant_check_needs_the_kinds_the_defender_lacks() {
        // Black holds every gold and the rook checks from afar: with fewer golds White could interpose
        // one, so the golds are part of the proof. White holds pawns, so pawns are not.
        let mut p = pos("8k/9/9/9/9/9/9/9/7R1 b 4GP 1");
        let m = p.parse_usi_move("2i1i").unwrap();
        p.do_move(m);
        let extra = and_proof_extra(&p, Color::Black);
        assert_eq!(extra.count(PieceKind::Gold), 4);
        assert_eq!(extra.count(PieceKind::Pawn), 0);
    }

    #[test]
    fn or_proof_adds_drops_and_removes_captures() {
        let p = pos("4k4/4p4/9/9/9/9/9/9/4R4 b S 1");
        let drop = p.parse_usi_move("S*4b").unwrap();
        assert_eq!(before_proof(&p, drop, hand("G")), hand("GS"));
        let capture = p.parse_usi_move("5i5b").unwrap();
        // The rook captures a pawn: the child's hand has one more pawn than the parent's.
        assert_eq!(before_proof(&p, capture, hand("2P")), hand("P"));
        assert_eq!(before_proof(&p, capture, hand("G")), hand("G"));
    }

    #[test]
    fn or_disproof_cap_only_where_a_drop_could_check() {
        // The king is far from everything; Black holds only a pawn. A gold drop next to the king checks,
        // so golds are capped to the current count (0); a pawn is held, so pawns are not capped.
        let p = pos("4k4/9/9/9/9/9/9/9/9 b P 1");
        let d = no_check_disproof(&p, Color::Black);
        assert_eq!(d.count(PieceKind::Gold), 0);
        assert_eq!(d.count(PieceKind::Pawn), 18);
    }

    #[test]
    fn and_disproof_keeps_the_defender_refuting_drop() {
        // A game position: White holds one gold, Black one. A disproof resting on White's gold drop
        // covers Black hands with at most 1 (H) + 1 (White's) - 1 = 1 gold.
        let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w Gg 1").unwrap();
        let m = Move::drop(
            PieceKind::Gold,
            crate::position::Square::new(5, 5).unwrap(),
            Color::White,
        );
        let capped = and_disproof(&p, Color::Black, m, hand("4G2P"));
        assert_eq!(capped.count(PieceKind::Gold), 1);
        assert_eq!(capped.count(PieceKind::Pawn), 2);
        // A board move is not capped.
        let k = p.parse_usi_move("5a4a").unwrap();
        assert_eq!(and_disproof(&p, Color::Black, k, hand("4G")), hand("4G"));
    }
}
