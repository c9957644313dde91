//! Mate in one: is there a check after which the defender has no legal move?

use super::hands::{and_proof_extra, before_proof};
use crate::position::movegen::{MoveList, count_evasions, generate_checks};
use crate::position::{Color, Hand, Move, Position};

/// A mating move of the attacker (to move in `pos`) and the proof hand the mate needs, if there is one.
pub fn mate_in_one_with_proof(
    pos: &mut Position,
    attacker: Color,
    checks: &mut MoveList,
) -> Option<(Move, Hand)> {
    let (m, _) = mate_in_one(pos, checks);
    let m = m?;
    pos.do_move(m);
    let proof = and_proof_extra(pos, attacker);
    pos.undo_move(m);
    Some((m, before_proof(pos, m, proof)))
}

/// Looks for a mating move of the side to move. Its checks are generated into `checks` and left there
/// (callers use their number); evasions are only counted, never built. Pawn-drop mates never count: the
/// check generator does not produce them. Also returns how many checks were played to find out.
pub fn mate_in_one(pos: &mut Position, checks: &mut MoveList) -> (Option<Move>, u64) {
    checks.clear();
    generate_checks(pos, checks);
    for (i, &m) in checks.iter().enumerate() {
        pos.do_move(m);
        let mated = count_evasions(pos) == 0;
        pos.undo_move(m);
        if mated {
            return (Some(m), i as u64 + 1);
        }
    }
    (None, checks.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mate(sfen: &str) -> Option<String> {
        let mut pos = Position::from_sfen(sfen).unwrap();
        mate_in_one(&mut pos, &mut MoveList::new())
            .0
            .map(|m| m.to_usi())
    }

    #[test]
    fn finds_mates_and_refuses_pawn_drop_mate() {
        // A gold drop on the head of a cornered king.
        assert_eq!(mate("8k/9/8P/9/9/9/9/9/9 b G 1").as_deref(), Some("G*1b"));
        // The only "mate" would be a pawn drop.
        assert_eq!(mate("7nk/9/8G/9/9/9/9/9/9 b P 1"), None);
        // No check mates: the king escapes.
        assert_eq!(mate("9/9/9/9/4k4/9/9/9/9 b G 1"), None);
    }
}
