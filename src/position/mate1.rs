//! Mate in one: is there a check after which the defender has no legal move?

use super::movegen::{generate_checks, generate_evasions, MoveList};
use super::{Move, Position};

/// Whether the side to move (which must be in check) has any legal move.
pub fn has_evasion(pos: &Position) -> bool {
    let mut list = MoveList::new();
    generate_evasions(pos, &mut list);
    !list.is_empty()
}

/// A mating move for the side to move, if one exists. Pawn-drop mates never count: the check generator
/// does not produce them.
pub fn mate_in_one(pos: &mut Position) -> Option<Move> {
    let mut checks = MoveList::new();
    generate_checks(pos, &mut checks);
    for &m in checks.iter() {
        pos.do_move(m);
        let mated = !has_evasion(pos);
        pos.undo_move(m);
        if mated {
            return Some(m);
        }
    }
    None
}
