//! Work done at frontier nodes (Kaneko et al., "df-pn with fixed-depth search at frontier nodes"), and
//! the proof/disproof hands of terminal positions (komori-n).
//!
//! * A new AND node is checked for mate (no evasion) as soon as its parent generates it, and otherwise
//!   gets its number of evasions as the initial proof number (fewer escapes, likelier mate).
//! * A new OR node is checked for mate in one; a failure gives it the number of checks as the initial
//!   disproof number.
//!
//! Together the 1-ply look-ahead of an OR node and the mate-1 probe of its grandchildren make the
//! 3-ply frontier of the paper.

use crate::position::mate1;
use crate::position::movegen::{MoveList, check_squares, generate_evasions};
use crate::position::{Bitboard, Color, Hand, Move, PieceKind, Position, attacks};

/// What a look at a new AND node (defender to move, in check) found.
pub enum AndLook {
    /// No evasion: mate. The proof hand the mate needs.
    Mated(Hand),
    /// This many legal evasions, counting all interpositions as one (they are aggregated with `max`
    /// by the search, so this is the proof number the node starts from).
    Evasions(usize),
}

/// Looks at a new AND node: mated or how many evasions.
pub fn look_and(pos: &Position, attacker: Color, buf: &mut MoveList) -> AndLook {
    buf.clear();
    generate_evasions(pos, buf);
    if buf.is_empty() {
        return AndLook::Mated(and_proof_extra(pos, attacker));
    }
    let gap = check_gap(pos, attacker);
    let blocks = buf.iter().filter(|&&m| is_interposition(m, gap)).count();
    AndLook::Evasions(buf.len() - blocks + usize::from(blocks > 0))
}

/// The empty squares between the defender's king and a single distant checker (where interpositions
/// go); empty for a contact check or a double check.
pub fn check_gap(pos: &Position, attacker: Color) -> Bitboard {
    let checkers = pos.checkers();
    match pos.king_square(attacker.flip()) {
        Some(k) if checkers.is_not_empty() && !checkers.has_more_than_one() => {
            attacks::between(checkers.first(), k)
        }
        _ => Bitboard::EMPTY,
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
/// how many moves it played (for the node count).
pub fn look_or(pos: &mut Position, attacker: Color, checks: &mut MoveList) -> (OrLook, u64) {
    match mate1::mate_in_one(pos, checks) {
        (Some(m), tried) => {
            pos.do_move(m);
            let proof = and_proof_extra(pos, attacker);
            pos.undo_move(m);
            (OrLook::Mate(m, before_proof(pos, m, proof)), tried)
        }
        (None, tried) => (OrLook::Checks(checks.len()), tried),
    }
}

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
