//! The problem a position poses, and the check every line passes before it is printed: legal,
//! every attacker move a check, the last position mate. It shares nothing with the search but the
//! move generator.

use crate::position::{Color, Move, Position};

/// The position a mate search actually solves: in a tsume problem (the attacker has no king) the
/// defender holds every piece that is neither on the board nor in the attacker's hand, whatever the
/// SFEN lists; a position with both kings (a game position) is taken as given. The side without a
/// king is the attacker whether it is to move or not (`roles.rs`). Mating lines are legal in this
/// position, so they are verified against it.
pub fn problem_position(root: &Position) -> Position {
    let mut pos = root.clone();
    let us = pos.side_to_move();
    for side in [us, us.flip()] {
        if pos.king_square(side).is_none() {
            pos.give_rest_to(side.flip());
            break;
        }
    }
    pos
}

/// Plays `line` in `problem_position(root)` if it is a legal line in which every move of `attacker`
/// checks and every other move answers a check, and that ends with the defender to move; the
/// position at its end.
fn play_checking_line(root: &Position, attacker: Color, line: &[Move]) -> Option<Position> {
    use crate::position::movegen::{MoveList, generate_checks, generate_evasions};
    let attacker_first = root.side_to_move() == attacker;
    if line.len().is_multiple_of(2) == attacker_first {
        return None;
    }
    let mut pos = problem_position(root);
    if !attacker_first && !pos.in_check() {
        return None;
    }
    for &m in line {
        let mut list = MoveList::new();
        if pos.side_to_move() == attacker {
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

/// Checks a line in `problem_position(root)`, the side to move attacking: every attacker move is
/// legal and checks, every defender move is legal, odd length, and the defender is in check at its
/// end (a mate, or the end of a canonical line: the futile-interposition test is the search's,
/// `canonical/line.rs`, `ends_without_defence`).
pub fn verify_line_in_check(root: &Position, line: &[Move]) -> bool {
    verify_line_in_check_by(root, root.side_to_move(), line)
}

/// `verify_line_in_check` with `attacker` attacking (the side not to move: the root defends, and
/// the line has an even length).
pub fn verify_line_in_check_by(root: &Position, attacker: Color, line: &[Move]) -> bool {
    play_checking_line(root, attacker, line).is_some_and(|pos| pos.in_check())
}

/// Checks a mating line in `problem_position(root)`: every attacker move is legal and checks, every
/// defender move is legal, and the final position is mate (the last move is not a pawn drop). Used
/// before any `checkmate` is printed. (It checks the line only: whether the defender had a longer
/// defence is for the PV search and the differential tests.)
pub fn verify_mate_line(root: &Position, line: &[Move]) -> bool {
    verify_mate_line_by(root, root.side_to_move(), line)
}

/// `verify_mate_line` with `attacker` attacking (the side not to move: the root defends, the line
/// starts with its reply and has an even length; empty when it is mated already).
pub fn verify_mate_line_by(root: &Position, attacker: Color, line: &[Move]) -> bool {
    use crate::position::movegen::{MoveList, generate_evasions};
    let Some(pos) = play_checking_line(root, attacker, line) else {
        return false;
    };
    if let Some(last) = line.last()
        && last.is_drop()
        && last.drop_kind() == crate::position::PieceKind::Pawn
    {
        return false;
    }
    let mut list = MoveList::new();
    generate_evasions(&pos, &mut list);
    pos.in_check() && list.is_empty()
}
