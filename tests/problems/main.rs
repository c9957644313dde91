//! Problem-set correctness and the search's behaviour on real problems: the solver against the known
//! answers in `tests/data/` (copies of `../shared/problems/`). Every mate it returns is checked move
//! by move; a wrong answer of any kind fails the test with the problem's id.
//!
//! * `sets`: every problem file, rule edge cases, Zukou #73's two rows, the long problems (ignored);
//! * `search`: table reuse and size, depth limits, deepening's table, pumps and drop chains;
//! * `lines`: the line phase after the proof (budgets, bounds read, canonical lengths, ranking).
//!
//! Release mode keeps this to a few seconds; the long Zukou problems belong to `kanju bench`.

#[path = "../common/mod.rs"]
mod common;

mod lines;
mod search;
mod sets;

use common::{Expected, Problem, load_problems, two_pawns_on_a_file};
use kanju::position::Position;
use kanju::search::Futile;
use kanju::search::config::PHASE_STEP_MIN_NODES;
use kanju::search::{
    MateOutcome, PvLevel, SearchConfig, SearchInfo, SearchLimits, SolveResult, Solver,
    verify_mate_line,
};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Generous: every short problem takes milliseconds; hitting this is a failure, not a pass.
pub(crate) const LIMIT: Duration = Duration::from_secs(20);

/// The position of Zukou problem `id` (`zukou.tsv`).
pub(crate) fn zukou_position(id: &str) -> Position {
    let p = load_problems("zukou.tsv")
        .into_iter()
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("no {id} in zukou.tsv"));
    Position::from_sfen(&p.sfen).unwrap()
}

/// `pos` solved on a cleared table at the solver's line level, within `LIMIT`.
pub(crate) fn solve(solver: &mut Solver, pos: &Position) -> MateOutcome {
    solver.clear();
    let level = solver.pv_level();
    solve_at(solver, pos, level, None).outcome
}

/// `pos` solved at line level `level` on the solver's table as it is (no clear), within `LIMIT` and
/// `nodes`.
pub(crate) fn solve_at(
    solver: &mut Solver,
    pos: &Position,
    level: PvLevel,
    nodes: Option<u64>,
) -> SolveResult {
    solver.set_pv_level(level);
    let limits = SearchLimits {
        time: Some(LIMIT),
        nodes,
        ..SearchLimits::default()
    };
    solver
        .solve(pos, &limits, &AtomicBool::new(false), &mut |_| {})
        .expect("a valid mate problem")
}

/// What is wrong with the solver's answer to `p`, if anything.
pub(crate) fn judge(p: &Problem, pos: &Position, outcome: &MateOutcome) -> Option<String> {
    let mate_len = |line: &Vec<_>| {
        if verify_mate_line(pos, line) {
            Ok(line.len() as u32)
        } else {
            Err(format!("mate line fails verification: {line:?}"))
        }
    };
    match (p.expected, outcome) {
        (_, MateOutcome::Timeout) => Some("timeout".into()),
        (Expected::Mate(n), MateOutcome::Mate(line)) => match mate_len(line) {
            Err(e) => Some(e),
            // The labels are exact minimax lengths, and the default PV is the minimax line: a shorter
            // line lets the defender give up early, a longer one lets the attacker dawdle.
            Ok(len) if len != n => Some(format!("mate in {len}, minimax {n}")),
            Ok(_) => None,
        },
        (Expected::MateUnknown, MateOutcome::Mate(line)) => mate_len(line).err(),
        (Expected::NoMateWithin(n), MateOutcome::Mate(line)) => match mate_len(line) {
            Err(e) => Some(e),
            Ok(len) if len <= n => Some(format!("mate in {len}, but none exists within {n}")),
            Ok(_) => None,
        },
        (Expected::NoMate | Expected::NoMateWithin(_), MateOutcome::NoMate) => None,
        (Expected::Mate(_) | Expected::MateUnknown, MateOutcome::NoMate) => {
            Some("nomate on a mate".into())
        }
        (Expected::NoMate, MateOutcome::Mate(line)) => Some(format!("mate {line:?} on a nomate")),
    }
}
