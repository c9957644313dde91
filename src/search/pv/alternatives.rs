//! Alternative solutions (余詰): other attacker moves along the mating line that also mate within
//! the plies left. Composers use the list to check that a work has a single solution.
//!
//! At each attacker move of the line (ply k, counted from 1, with n plies left including the move),
//! every other check is asked "mate within n plies?", the defender playing the line's moves up to
//! there: a length-bounded search of the check's child for "mate within n − 1", over the same table
//! as the proof and the PV (`bounded.rs`).
//!
//! The positions of the line are on the path while a check is searched, and a bounded search cuts a
//! line back to one of them. That never hides an alternative when the line is exact: a position at
//! ply j ≤ k of an exact line has minimax value L − j ≥ n, so a mate through it from the check's
//! child takes at least 1 + n plies, more than the n − 1 asked. (When the line is not proven exact
//! the report says so.)

use crate::position::Move;
use crate::position::movegen::{MoveList, generate_checks};
use crate::search::dfpn::Searcher;
use crate::search::loops::next_path;
use crate::search::node::Seen;
use crate::search::numbers::PN_MAX;
use crate::search::outcome::{Alternative, Alternatives};

/// Checks every attacker move of `line` (a verified mating line from the root of `s`), within the
/// phase's node budget if `budgeted`.
pub fn check(s: &mut Searcher, line: &[Move], budgeted: bool) -> Alternatives {
    s.budget.end = if budgeted { s.phase_budget() } else { None };
    s.budget.aborted = false;
    let mut out = Alternatives::default();
    let mut keys = vec![];
    let mut path = s.path.root;
    let mut played = 0;
    let total = line.len() as u32;
    let mut complete = true;
    for (i, &pv_move) in line.iter().enumerate() {
        let ply = i as u32;
        if s.is_or_node() {
            let left = total - ply;
            if !or_node_alternatives(s, pv_move, ply, path, left, &mut out.found) {
                complete = false;
                break;
            }
        }
        s.pos.do_move(pv_move);
        let key = s.pos.key();
        s.path.keys.insert(key, ply + 1);
        keys.push(key);
        played += 1;
        path = next_path(path, pv_move);
    }
    for (&m, key) in line[..played].iter().rev().zip(keys.iter().rev()) {
        s.path.keys.remove(key);
        s.pos.undo_move(m);
    }
    s.budget.end = None;
    out.complete = complete;
    out
}

/// The checks of the current OR node (at `ply`, `left` plies to the line's end) other than `pv_move`
/// that mate within `left`; false if a limit stopped the check.
pub(super) fn or_node_alternatives(
    s: &mut Searcher,
    pv_move: Move,
    ply: u32,
    path: u64,
    left: u32,
    found: &mut Vec<Alternative>,
) -> bool {
    let mut checks = MoveList::new();
    generate_checks(&s.pos, &mut checks);
    for &m in checks.iter().filter(|&&m| m != pv_move) {
        // Back to a position of the line: no shorter mate that way (module comment).
        let mate = s
            .off_path_child(m, ply, path, |s, ply, path| {
                mates_within(s, ply, path, left - 1)
            })
            .flatten();
        if s.budget.aborted {
            return false;
        }
        if let Some(len) = mate {
            found.push(Alternative {
                ply: ply + 1,
                mv: m,
                mate: len + 1,
            });
        }
    }
    true
}

/// At the current (AND) node: the length of a mate within `budget` plies, if there is one.
fn mates_within(s: &mut Searcher, ply: u32, path: u64, budget: u32) -> Option<u32> {
    let probe = |s: &Searcher| s.tt().probe(s.tt_key(), s.hand(), path, budget);
    let p = probe(s);
    if p.is_proven() {
        return Some(u32::from(p.len));
    }
    if p.is_disproven() {
        return None;
    }
    let game = s.game.within(ply + budget);
    let r = s.in_game(game, |s| s.mid(PN_MAX, PN_MAX, ply, path, Seen::Before));
    (r.pn == 0).then_some(u32::from(r.len))
}

#[cfg(test)]
mod tests {
    use crate::position::Position;
    use crate::search::outcome::Alternatives;
    use crate::search::{MateOutcome, SearchLimits, Solver};
    use std::sync::atomic::AtomicBool;

    fn alternatives(sfen: &str) -> (Vec<String>, Alternatives) {
        let mut solver = Solver::new(16);
        solver.set_check_alternatives(true);
        let root = Position::from_sfen(sfen).expect("valid");
        let r = solver
            .solve(
                &root,
                &SearchLimits::default(),
                &AtomicBool::new(false),
                &mut |_| {},
            )
            .expect("a problem");
        let MateOutcome::Mate(line) = r.outcome else {
            panic!("{sfen}: no mate");
        };
        (
            line.iter().map(|m| m.to_string()).collect(),
            r.findings.alternatives.expect("asked for"),
        )
    }

    /// A mate in 3 with one solution, and a mate in 1 with two mating moves.
    #[test]
    fn reports_other_mates_within_the_plies_left() {
        let (line, alts) = alternatives("9/8k/9/7RG/9/9/9/9/9 b r2b3g4s4n4l18p 1");
        assert_eq!(line.len(), 3);
        assert!(alts.complete);
        for a in &alts.found {
            assert!(a.mate <= 3 - (a.ply - 1), "{a:?}");
        }
        // A gold drop mates on 1b (guarded by the pawn) and on 2b (guarded by the knight).
        let (line, alts) = alternatives("8k/9/8P/6N2/9/9/9/9/9 b G 1");
        assert_eq!(line.len(), 1, "{line:?}");
        assert!(alts.complete);
        assert!(!alts.found.is_empty(), "{alts:?}");
        assert!(alts.found.iter().all(|a| a.ply == 1 && a.mate == 1));
    }
}
