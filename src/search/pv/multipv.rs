//! MultiPV: after the answer, the root's other checks, each searched in turn, so that a GUI can show
//! the best lines as it shows an evaluation engine's.
//!
//! For each other check (the root attacks): the table's proof of the child, else a proof search of
//! the child within a step of the phase's budget; a proven child's exact line from there
//! (`exact.rs`: "mate within 1? 3? …" then "mate within b − 2?"), or, disproven on every path, the
//! defender's refuting reply (the table's best move of the disproof). A check left undecided by its
//! step is not reported. The lines come back best first: mates by length, then the checks that do
//! not mate. Every mate line is verified by the caller like the answer's.

use super::exact::exact_line;
use super::walk::probe_here;
use crate::position::Move;
use crate::position::movegen::{MoveList, generate_checks};
use crate::search::bounded::At;
use crate::search::dfpn::Searcher;
use crate::search::outcome::OtherLine;
use crate::search::parallel;
use crate::search::tt::{Probe, UNBOUNDED};

/// The node cap of the shortest-first start of each check's exact line.
const SHORTEST_FIRST_NODES: u64 = 10_000;

/// Up to `count` lines of the root's checks other than `answer`'s first move, best first (module
/// comment), within the phase's budget. The root must be an attacking one.
pub fn other_lines(s: &mut Searcher, answer: &[Move], count: usize) -> Vec<OtherLine> {
    let Some(&best) = answer.first() else {
        return vec![];
    };
    if count == 0 || !s.is_or_node() {
        return vec![];
    }
    s.budget.end = s.phase_budget();
    s.budget.aborted = false;
    let step = s.phase_step().unwrap_or(u64::MAX);
    let mut checks = MoveList::new();
    generate_checks(&s.pos, &mut checks);
    let mut lines = vec![];
    let root = s.path.root;
    for &c in checks.iter().filter(|&&c| c != best) {
        if s.budget.aborted {
            break;
        }
        let line = s
            .off_path_child(c, 0, root, |s, ply, path| {
                s.within_cap(step, |s| check_line(s, At { ply, path }))
            })
            .flatten();
        if let Some(mut line) = line {
            line.moves.insert(0, c);
            lines.push(line);
        }
    }
    s.budget.end = None;
    // Mates first, shortest first; then the checks that do not mate, in the order generated.
    lines.sort_by_key(|l| l.mate.unwrap_or(u32::MAX));
    lines.truncate(count);
    lines
}

/// The line after a check from the defender's node `at`: its exact mating line, or the refuting
/// reply; `None` when the step ran out first.
fn check_line(s: &mut Searcher, at: At) -> Option<OtherLine> {
    let decided = |p: &Probe| p.is_proven() || (p.is_disproven() && p.dep.is_general());
    let mut p = probe_here(s, at.path, UNBOUNDED);
    if !decided(&p) {
        parallel::search(s, at.ply, at.path);
        p = probe_here(s, at.path, UNBOUNDED);
    }
    if !p.is_proven() && decided(&p) {
        let reply = s.pos.move_from_u16(p.best);
        return Some(OtherLine {
            moves: reply.into_iter().collect(),
            mate: None,
        });
    }
    if !p.is_proven() {
        return None;
    }
    let bound = u32::from(p.len);
    let line = if bound == 0 {
        vec![]
    } else {
        exact_line(s, at, bound, SHORTEST_FIRST_NODES)?
    };
    Some(OtherLine {
        mate: Some(line.len() as u32 + 1),
        moves: line,
    })
}

#[cfg(test)]
mod tests {
    use crate::position::Position;
    use crate::search::{MateOutcome, SearchLimits, Solver};
    use std::sync::atomic::AtomicBool;

    /// A line in USI moves, and the mate it is (`None`: no mate).
    type Reported = (Vec<String>, Option<u32>);

    fn lines(sfen: &str, multipv: usize) -> (Vec<String>, Vec<Reported>) {
        let mut solver = Solver::new(16);
        solver.set_multipv(multipv);
        let root = Position::from_sfen(sfen).unwrap();
        let r = solver
            .solve(
                &root,
                &SearchLimits::default(),
                &AtomicBool::new(false),
                &mut |_| {},
            )
            .unwrap();
        let MateOutcome::Mate(line) = r.outcome else {
            panic!("{sfen}: {:?}", r.outcome);
        };
        let usi = |l: &[crate::position::Move]| l.iter().map(|m| m.to_usi()).collect::<Vec<_>>();
        (
            usi(&line),
            r.findings
                .other_lines
                .iter()
                .map(|o| (usi(&o.moves), o.mate))
                .collect(),
        )
    }

    /// A gold drop mates on 1b and on 2b: two mates in one; the other checks (a gold on 1c, the
    /// knight's) do not mate: reported after them, with the reply that refutes each.
    #[test]
    fn every_check_of_the_root_best_first() {
        let (answer, others) = lines("8k/9/8P/6N2/9/9/9/9/9 b G 1", 5);
        assert_eq!(answer.len(), 1);
        assert!(!others.is_empty(), "{others:?}");
        assert_eq!(others[0].1, Some(1), "{others:?}");
        assert_ne!(others[0].0[0], answer[0]);
        for w in others.windows(2) {
            assert!(
                w[0].1.unwrap_or(u32::MAX) <= w[1].1.unwrap_or(u32::MAX),
                "{others:?}"
            );
        }
        assert!(
            others
                .iter()
                .skip(1)
                .all(|(l, m)| m.is_none() && l.len() == 2),
            "{others:?}"
        );
        // MultiPV 1: the answer alone.
        assert!(lines("8k/9/8P/6N2/9/9/9/9/9 b G 1", 1).1.is_empty());
    }
}
