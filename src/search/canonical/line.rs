//! The canonical line phase: after the strict line, the minimax line of the canonical game (futile
//! interpositions no defence, `game/futile.rs`), asked as the strict line was ("mate within d?" below a
//! proven bound, `pv/tighten.rs`), then ranked as composers rank defences (`ranking.rs`).

use super::ranking::rank;
use crate::position::Move;
use crate::position::Position;
use crate::position::movegen::{MoveList, generate_evasions};
use crate::search::dfpn::Searcher;
use crate::search::game::Game;
use crate::search::game::futile::no_defence_left;
use crate::search::pv::tighten::tighten;
use crate::search::pv::{Line, final_walk};
use crate::search::verify::{verify_line_in_check_by, verify_mate_line_by};

/// Mixed into the table salt while the canonical game is searched.
pub const CANONICAL_SALT: u64 = 0x6d75_6461_6169_0001;

/// The canonical line: the minimax line of the game without futile interpositions,
/// searched from `strict` (a strict mating line and a proven bound of the strict minimax length,
/// which bounds the canonical one: dropping futile defences only shortens mates). Its own table
/// space, its own budget. `None` if no line of the canonical bound could be read. With the line, the
/// game it was searched in (its table space), for the checks that follow it.
pub fn canonical_line(s: &mut Searcher, strict: &Line) -> Option<(Line, Game)> {
    let mut bound = strict.bound?;
    s.budget.end = s.phase_budget();
    let step = s.phase_step();
    s.budget.aborted = false;
    // A salt of this phase's own: its results are true of this solve's approximations of the
    // composers' rules (a ranking test that ended without an answer, say), so no later solve may
    // read them.
    let salt = s.main_salt() ^ CANONICAL_SALT ^ s.tt().next_phase_salt();
    let game = Game::canonical(salt, s.config().strict_proofs);
    let line = s.in_game(game, |s| {
        // The strict line is a mate in the canonical game too, only perhaps not read as one (a
        // futile interposition in it is no defence): the fallback if no better line is read. Its
        // shortest mates may be shorter than the strict game's: nothing below is known refuted.
        let mut best = strict.moves.clone();
        let exact = tighten(s, &mut bound, &mut best, step, 1);
        let mut line = final_walk(s, bound, exact, best);
        if line.moves.len() as u32 == bound {
            let (moves, changed) = rank(s, line.moves.clone());
            if changed && verifies_canonical(s, &moves) {
                line.moves = moves;
                line.exact = false;
                line.ranked = true;
            }
        }
        line
    });
    s.budget.end = None;
    (line.ranked || line.moves.len() as u32 == bound).then_some((line, game))
}

/// Checks a canonical line from the search's root (its current position): a mating line, or a line
/// that ends with the defender in check and no defence that counts (`ends_without_defence`).
pub fn verifies_canonical(s: &mut Searcher, line: &[Move]) -> bool {
    let (root, attacker) = (s.pos.clone(), s.attacker());
    verify_mate_line_by(&root, attacker, line)
        || (verify_line_in_check_by(&root, attacker, line)
            && ends_without_defence(&mut s.pos, line))
}

/// Whether `line` (legal from the root, checks and evasions) ends in a position where the defender is
/// in check and has no defence that counts in the canonical game (only futile interpositions): the
/// end of a canonical line that is not a mate yet.
fn ends_without_defence(pos: &mut Position, line: &[Move]) -> bool {
    for &m in line {
        pos.do_move(m);
    }
    let mut moves = MoveList::new();
    generate_evasions(pos, &mut moves);
    let ok = pos.in_check() && !moves.is_empty() && no_defence_left(pos, &moves);
    for &m in line.iter().rev() {
        pos.undo_move(m);
    }
    ok
}
