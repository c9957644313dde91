//! The problem a position poses, and the check every line passes before it is printed: legal,
//! every attacker move a check, the last position mate. It shares nothing with the search but the
//! move generator.

use crate::position::Move;
use crate::position::Position;

/// The position a mate search actually solves: in a tsume problem (the attacker has no king) the
/// defender holds every piece that is neither on the board nor in the attacker's hand, whatever the
/// SFEN lists; a position with both kings (a game position) is taken as given. Mating lines are legal
/// in this position, so they are verified against it.
pub fn problem_position(root: &Position) -> Position {
    let mut pos = root.clone();
    let attacker = pos.side_to_move();
    if pos.king_square(attacker).is_none() {
        pos.give_rest_to(attacker.flip());
    }
    pos
}

/// Plays `line` in `problem_position(root)` if it is a legal line of odd length in which every
/// attacker move checks; the position at its end.
fn play_checking_line(root: &Position, line: &[Move]) -> Option<Position> {
    use crate::position::movegen::{MoveList, generate_checks, generate_evasions};
    if line.len().is_multiple_of(2) {
        return None;
    }
    let mut pos = problem_position(root);
    for (i, &m) in line.iter().enumerate() {
        let mut list = MoveList::new();
        if i % 2 == 0 {
            generate_checks(&pos, &mut list);
        } else {
            generate_evasions(&pos, &mut list);
        }
        if !list.contains(&m) {
            return None;
        }
        pos.do_move(m);
    }
    Some(pos)
}

/// Checks a line in `problem_position(root)`: every attacker move is legal and checks, every defender
/// move is legal, odd length, and the defender is in check at its end (a mate, or the end of a
/// canonical line: the futile-interposition test is the search's, `canonical/line.rs`,
/// `ends_without_defence`).
pub fn verify_line_in_check(root: &Position, line: &[Move]) -> bool {
    play_checking_line(root, line).is_some_and(|pos| pos.in_check())
}

/// Checks a mating line in `problem_position(root)`: every attacker move is legal and checks, every
/// defender move is legal, and the final position is mate (the last move is not a pawn drop). Used
/// before any `checkmate` is printed. (It checks the line only: whether the defender had a longer
/// defence is for the PV search and the differential tests.)
pub fn verify_mate_line(root: &Position, line: &[Move]) -> bool {
    use crate::position::movegen::{MoveList, generate_evasions};
    let Some(pos) = play_checking_line(root, line) else {
        return false;
    };
    let last = line[line.len() - 1];
    if last.is_drop() && last.drop_kind() == crate::position::PieceKind::Pawn {
        return false;
    }
    let mut list = MoveList::new();
    generate_evasions(&pos, &mut list);
    pos.in_check() && list.is_empty()
}
