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

use super::hands::and_proof_extra;
use super::mate1;
use crate::position::movegen::{MoveList, generate_checks, generate_evasions};
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
/// how many moves it played (for the node count: the mate-1 test plays none; a mate is played once for
/// its proof hand).
pub fn look_or(pos: &mut Position, attacker: Color, checks: &mut MoveList) -> (OrLook, u64) {
    debug_assert_eq!(attacker, pos.side_to_move());
    if let Some((m, proof)) = mate1::mate_in_one(pos) {
        return (OrLook::Mate(m, proof), 1);
    }
    checks.clear();
    generate_checks(pos, checks);
    (OrLook::Checks(checks.len()), 0)
}
