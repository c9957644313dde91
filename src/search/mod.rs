//! The mate search: df-pn over a transposition table of proof and disproof pieces, with a mate-1/mate-3
//! frontier, and the PV extractor that writes the `checkmate` line.
//!
//! `Solver` is the whole interface the front ends (`usi`, the command line) use.

pub mod dfpn;
pub mod frontier;
pub mod hands;
pub mod mate1;
pub mod pv;
pub mod tt;

use crate::position::{Move, Position};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The stack a thread running `Solver::solve` needs: the search recurses once per ply (up to
/// `dfpn::MAX_PLY`), a few hundred bytes a frame. Only the pages touched are ever committed.
pub const SEARCH_STACK_BYTES: usize = 256 << 20;

/// What bounds a search. `None` means no bound of that kind.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
    /// How often `on_info` is called while searching (`None`: never).
    pub info_interval: Option<Duration>,
}

/// The answer for the root position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateOutcome {
    /// A mate, with the mating line from the root (attacker's move first; odd length).
    Mate(Vec<Move>),
    /// Proven: no mate exists.
    NoMate,
    /// Neither proven nor disproven within the limits, or stopped.
    Timeout,
}

/// Progress, passed to the `on_info` callback about every `info_interval`.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    pub nodes: u64,
    pub elapsed: Duration,
    /// Table occupancy in per mille, as USI `hashfull`.
    pub hashfull: u32,
    /// The current best line (may be empty).
    pub pv: Vec<Move>,
}

#[derive(Clone, Debug)]
pub struct SolveResult {
    pub outcome: MateOutcome,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// A mate solver with its transposition table. Reuse one across problems: the table is allocated once.
pub struct Solver {
    tt: tt::Table,
}

impl Solver {
    /// A solver whose table uses about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Solver {
        Solver {
            tt: tt::Table::new(hash_mb),
        }
    }

    /// Re-allocates the table with a new size (clearing it).
    pub fn resize(&mut self, hash_mb: usize) {
        self.tt = tt::Table::new(hash_mb);
    }

    /// Forgets everything learnt (between unrelated problems).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Searches for a mate of the side to move in `problem_position(root)` (see there for who holds the
    /// pieces missing from the SFEN). A position whose
    /// defender has no king has no mate (`NoMate`); front ends should refuse it before calling.
    ///
    /// Returns when the root is proven or disproven, when a limit is reached, or soon after `stop`
    /// becomes true (then `Timeout`). A `Mate` line is always verified legal, checking and mating.
    pub fn solve(
        &mut self,
        root: &Position,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SolveResult {
        let start = Instant::now();
        let (outcome, nodes) = if root.validate_mate_problem().is_err() {
            (MateOutcome::NoMate, 0)
        } else {
            let mut search =
                dfpn::Dfpn::new(&mut self.tt, problem_position(root), limits, stop, on_info);
            (search.run(), search.nodes)
        };
        SolveResult {
            outcome,
            nodes,
            elapsed: start.elapsed(),
        }
    }
}

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

/// Checks a mating line in `problem_position(root)`: every attacker move is legal and checks, every
/// defender move is legal, and the final position is mate (the last move is not a pawn drop). Used
/// before any `checkmate` is printed.
pub fn verify_mate_line(root: &Position, line: &[Move]) -> bool {
    use crate::position::movegen::{MoveList, generate_checks, generate_evasions};
    if line.len().is_multiple_of(2) {
        return false;
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
            return false;
        }
        pos.do_move(m);
    }
    let last = line[line.len() - 1];
    if last.is_drop() && last.drop_kind() == crate::position::PieceKind::Pawn {
        return false;
    }
    let mut list = MoveList::new();
    generate_evasions(&pos, &mut list);
    pos.in_check() && list.is_empty()
}
