//! Proof and disproof hands (komori-n, "proof and disproof pieces"): which attacker hands a proof or a
//! disproof found for one position also covers.
//!
//! Each rule carries the argument for its soundness beside it.

use crate::position::movegen::check_squares;
use crate::position::{Bitboard, Color, Hand, Move, PieceKind, Position, attacks};

/// The pieces an AND node's proof must add to the union of its children's proof hands: when the check
/// can be blocked (a distant slider check), every kind the attacker holds and the defender does not —
/// the defender could otherwise interpose one (komori-n's long-range-check rule).
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
        if dh.count(k) == 0 && ah.count(k) > 0 {
            extra.set_count(k, ah.count(k));
        }
    }
    extra
}

/// The parent's proof hand from the child's: a capture brings a piece in (needed one fewer), a drop
/// spends one (needed one more). `pos` is the OR node before `m`.
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

/// The parent's disproof hand from the child's (the inverse bookkeeping of `before_proof`).
pub fn before_disproof(pos: &Position, m: Move, child: Hand) -> Hand {
    before_proof(pos, m, child)
}

/// Caps an OR node's disproof hand: for each kind the attacker does not hold, holding one would allow a
/// new check (a drop) that the disproof never looked at — unless no drop of that kind could check here.
pub fn cap_or_disproof(pos: &Position, attacker: Color, mut d: Hand) -> Hand {
    let defender = attacker.flip();
    let Some(ksq) = pos.king_square(defender) else {
        return d;
    };
    let ah = pos.hand(attacker);
    let empty = !pos.occupied();
    let mut chk: Option<[Bitboard; PieceKind::NUM]> = None;
    for k in PieceKind::HAND {
        if ah.count(k) != 0 || d.count(k) == 0 {
            continue;
        }
        let squares = chk.get_or_insert_with(|| check_squares(pos, attacker, ksq))[k.index()];
        if (squares & empty).is_not_empty() {
            d.set_count(k, 0);
        }
    }
    d
}

fn plus_one(mut h: Hand, k: PieceKind) -> Hand {
    h.set_count(k, h.count(k).saturating_add(1));
    h
}

fn minus_one(mut h: Hand, k: PieceKind) -> Hand {
    h.set_count(k, h.count(k).saturating_sub(1));
    h
}
