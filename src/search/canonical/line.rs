//! The canonical line phase: after the strict line, the minimax line of the canonical game (futile
//! interpositions no defence, `game/futile.rs`), asked as the strict line was ("mate within d?" below a
//! proven bound, `pv/tighten.rs`), then ranked as composers rank defences (`ranking.rs`).

use super::ranking::{Ranked, rank, rank_within};
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
/// space, its own budget. `None` without a strict bound. With the line, the game it was searched in
/// (its table space), for the checks that follow it. The line may be shorter than its bound (a walk
/// along recorded lengths, `walk_and_rank`): such a line is no minimax line and is not printed
/// (`printable`), but `settle` can go on from its bound.
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
        walk_and_rank(s, bound, exact, best)
    });
    s.budget.end = None;
    Some((line, game))
}

/// Whether a canonical line is one to print: read whole at its bound's length (a mating line as long
/// as a proven bound of the minimax length), or chosen by the composers' ranking.
pub fn printable(line: &Line) -> bool {
    line.ranked || Some(line.moves.len() as u32) == line.bound
}

/// The canonical line of `bound` plies (`exact` or not; `best` the fallback), ranked as composers
/// rank defences when it is read whole.
///
/// A walk that is not exact takes at each defender node the reply with the longest *recorded* proof,
/// which may be shorter than the reply's value: its line can come out shorter than `bound`, and such a
/// line says nothing of the minimax length (its defender need not resist longest). A fallback of
/// `bound` plies is then kept instead: a mating line as long as a proven bound of the minimax
/// length, which the ranking may read as the walk's would have been (which of the two a walk returns
/// depends only on the order the bounded searches found their proofs in).
fn walk_and_rank(s: &mut Searcher, bound: u32, exact: bool, best: Vec<Move>) -> Line {
    let fallback = (best.len() as u32 == bound).then(|| best.clone());
    let mut line = final_walk(s, bound, exact, best);
    if line.moves.len() as u32 != bound
        && let Some(fallback) = fallback
    {
        line.moves = fallback;
    }
    if line.moves.len() as u32 == bound {
        let ranked = rank(s, line.moves.clone());
        return take_ranked(s, line, ranked);
    }
    line
}

/// `line` with the ranking's moves taken when they changed it and verify: a ranked line, no longer
/// called exact (`Line::ranked`).
fn take_ranked(s: &mut Searcher, mut line: Line, ranked: Ranked) -> Line {
    if ranked.changed && verifies_canonical(s, &ranked.moves) {
        line.moves = ranked.moves;
        line.exact = false;
        line.ranked = true;
    }
    line
}

/// The settled line ranked again, with the time left: the same spare tests (each within
/// `SearchConfig::ranking_test_nodes`) on the table settling has filled, the pass without a node
/// budget. A test that answers yes now where the budgeted pass's did not (it ran out of its cap, or
/// the pass's budget ended before it) is as much a proven spare mate (`ranking.rs`: only yes answers
/// change the line, and each change is a complete verified mating line), so this only reads the
/// composers' ranking further than the budgeted pass could.
///
/// **Widening** (`thorough`: `kanju check --thorough`). Where a test of that pass ran out of its
/// cap undecided, the line is ranked again with caps `WIDEN_FACTOR` times larger, round after round
/// (at most `WIDEN_ROUNDS`), until a round leaves no test at its cap, the rounds have spent one step
/// of a phase's budget (a share of what the solve spent before them), or less than a quarter of
/// the user's limits is left (`WIDEN_LEFT`: the alternatives and variations searched after the line
/// need their time). Sound for the same reason: a larger cap only turns undecided tests into
/// answers, and only yes answers move the line. Each round starts from the table the last one
/// filled, so the cheap answers come first and a round pays mostly for the tests the last one left
/// open (one large cap from the start would let a single test that does not decide within reach
/// take the whole time, as Zukou #71's S*6h does). Not the default: on most problems some test
/// never decides, and the rounds then add their whole budget to the check (docs/benchmarks.md,
/// *Spare tests widened*).
fn rerank(s: &mut Searcher, mut line: Line, thorough: bool) -> Line {
    if s.user_limit_reached() {
        return line;
    }
    let mut cap = s.config().ranking_test_nodes;
    // Each node bounded by the root's proven length (`ranking.rs`, *A ranked line ranked again*);
    // without one, by the line's own lengths.
    let bound = line.bound.unwrap_or(0).max(line.moves.len() as u32);
    let mut budget = None;
    let rounds = if thorough { WIDEN_ROUNDS } else { 0 };
    for _ in 0..=rounds {
        let ranked = rank_within(s, line.moves.clone(), bound, cap, budget, true);
        if ranked.cut && budget.is_some() {
            // A widening round cut short is not taken: at a node whose line's reply a wider test
            // has just answered yes, the replies it had no time to read may be longer than the one
            // it took, so its line may be shorter than the composers' (and than the last round's).
            break;
        }
        let capped = ranked.capped;
        line = take_ranked(s, line, ranked);
        if !capped || !s.shared.limits_left(s.total_nodes(), WIDEN_LEFT) {
            break;
        }
        // The rounds' budget, counted from the first round's end (the pass without a budget): one
        // step of a phase after the proof (`SearchConfig::phase_budget`), a share of what the solve
        // spent before them.
        let end = budget.unwrap_or_else(|| {
            let step = s.phase_step().unwrap_or(u64::MAX);
            s.total_nodes().saturating_add(step)
        });
        if s.total_nodes() >= end {
            break;
        }
        budget = Some(end);
        cap = cap.saturating_mul(WIDEN_FACTOR);
    }
    line
}

/// The widening rounds of `rerank`: each round's caps are this many times the last's.
const WIDEN_FACTOR: u64 = 8;

/// At most this many widening rounds (caps up to `WIDEN_FACTOR`^`WIDEN_ROUNDS` times the default).
const WIDEN_ROUNDS: u32 = 5;

/// A widening round begins only while one `WIDEN_LEFT`-th of each of the user's limits is left.
const WIDEN_LEFT: u32 = 4;

/// ## Settling (the composers' check)
///
/// `canonical_line` runs within the phase's node budget, as `solve` runs it, so that the check's
/// line is the one `solve --futile skip` prints. A composer wants the length proven too: with
/// the time left, `settle` goes on asking "mate within b − 2?" in the canonical game (`game`) with
/// only the user's limits, from the line's bound `b`, until a no makes `b` exact. A yes is a shorter
/// mate: its line is read and ranked again, as `canonical_line` does. A line whose bound only
/// becomes exact keeps its moves (a ranked one included: the ranking's choice stands, now against
/// a proven minimax length). Then the line is ranked once more without the pass's budget (`rerank`).
/// A limit that stops it leaves the line as it was, or the shorter one found. Asking the budgeted
/// phase's questions without a budget from the start instead holds the check on the first hard
/// refutation, far above the length the budgeted phase reaches by its cheap yeses
/// (docs/benchmarks.md, *kanju check*).
pub fn settle(s: &mut Searcher, line: Line, game: Game, thorough: bool) -> Line {
    let Some(before) = line.bound else {
        return line;
    };
    if s.user_limit_reached() {
        return line;
    }
    s.budget.end = None;
    s.budget.aborted = false;
    s.in_game(game, |s| {
        let line = if line.bound_exact && printable(&line) {
            line
        } else {
            let mut bound = before;
            let mut best = line.moves.clone();
            let exact = line.bound_exact || tighten(s, &mut bound, &mut best, None, 1);
            // A shorter bound, or a line shorter than its bound (`canonical_line`), is read again
            // along the values now in the table.
            if bound < before || !printable(&line) {
                walk_and_rank(s, bound, exact, best)
            } else {
                Line {
                    exact: exact && !line.ranked && line.moves.len() as u32 == bound,
                    bound_exact: exact,
                    ..line
                }
            }
        };
        // Ranked as `walk_and_rank` ranks: a line read whole (or ranked already), not a fallback.
        if printable(&line) {
            rerank(s, line, thorough)
        } else {
            line
        }
    })
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
