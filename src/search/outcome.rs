//! What a solve is given (`SearchLimits`) and what it answers (`SolveResult`, `SearchInfo`): the
//! types the front ends read.

use crate::position::{Move, SfenError};
use std::time::Duration;

/// What bounds a search. `None` means no bound of that kind.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
    /// How often `on_info` is called while searching (`None`: never).
    pub info_interval: Option<Duration>,
    /// Nobody set a limit of any kind (`go mate infinite`, `solve --time-ms 0`): the search ends
    /// with its answer or at `stop`, and whoever waits for it wants the exact line more than a quick
    /// one, so the phases after the proof get larger budgets (`PHASE_STEP_MIN_NODES_UNLIMITED`).
    /// Set by the front ends; with `time` or `nodes` it has no effect.
    pub open_ended: bool,
}

/// The answer for the root position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateOutcome {
    /// A mate, with the mating line from the root (attacker's move first; odd length).
    Mate(Vec<Move>),
    /// Proven: no mate exists.
    NoMate,
    /// Neither proven nor disproven within the limits, or stopped, or the search could not go on
    /// (`Findings::note` says why).
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
    /// The root's proof and disproof numbers after its last completed iteration (0 before).
    pub root_pn: u32,
    pub root_dn: u32,
    /// The current depth limit.
    pub max_ply: u32,
    /// Garbage collections of the table so far.
    pub gc_count: u64,
    /// Entries those collections freed.
    pub gc_freed: u64,
    /// Set by the PV search: a mate in this many plies is proven (`pv` is such a line, or empty).
    pub score_mate: Option<u32>,
}

/// What a solve found besides its outcome: how far the line is known to be the shortest, and what
/// the phases after the proof added to it. The solver fills it (`SolveResult::findings`); the
/// front ends pass it on with the verified answer (`checked::Report::findings`).
#[derive(Clone, Debug, Default)]
pub struct Findings {
    /// Why the search gave up before its limits, when it did (then the outcome is `Timeout`), or why
    /// a mating line is not known to be the shortest.
    pub note: Option<String>,
    /// For a mate: its length is proven to be the minimax length (`PvLevel::MinLength` completed).
    pub exact: bool,
    /// For a mate, when asked (`Solver::set_check_alternatives`): other attacker moves along the line
    /// that also mate within the plies left.
    pub alternatives: Option<Alternatives>,
    /// For a mate, when asked (`Solver::set_check_variations`): the defender's other replies along
    /// the line, each with its mate.
    pub variations: Option<Variations>,
    /// For a mate with `Futile::Skip`: the canonical length (futile interpositions not counted), when
    /// the canonical line was found; the printed line is then that line.
    pub canonical_length: Option<u32>,
    /// For a mate: the plies within which the mate is proven against every defence — an upper bound
    /// of the minimax length (of the canonical game with `Futile::Skip`), the line's own length when
    /// `exact`. A line that is not exact may be shorter than this (its defender need not take the
    /// longest reply), so a `score mate` claims this number, never the shorter line's length. `None`
    /// when no bound is known (the root's table entry was lost before the line was read).
    pub mate_bound: Option<u32>,
    /// `mate_bound` is proven to be the minimax length (of the canonical game with `Futile::Skip`):
    /// no mate within fewer plies against every defence. The line may still be shorter (the
    /// composers' ranking may take a shorter defence).
    pub mate_bound_exact: bool,
    /// With `Solver::set_multipv` above 1, after a mate: the root's other checks, best first
    /// (`pv/multipv.rs`).
    pub other_lines: Vec<OtherLine>,
    /// With a line given to check (`Solver::set_given_line`): whether it was a (canonical) mating
    /// line and is the line answered and checked (`true`), or was refused and the solver's own line
    /// stands (`false`).
    pub given_line: Option<bool>,
}

impl Findings {
    /// Nothing found but `note` (a search that ended without a mate, or an error).
    pub fn noting(note: Option<String>) -> Findings {
        Findings {
            note,
            ..Findings::default()
        }
    }

    /// Adds `more` to the note.
    pub fn add_note(&mut self, more: &str) {
        self.note = Some(match self.note.take() {
            Some(n) => format!("{n}; {more}"),
            None => more.into(),
        });
    }
}

/// A solve's answer (unverified: the front ends verify a mate before printing it, `checked.rs`),
/// what it found besides, and what it cost.
#[derive(Clone, Debug)]
pub struct SolveResult {
    pub outcome: MateOutcome,
    pub findings: Findings,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Table entries this solve placed (new positions or results, not updates in place; the table is
    /// not cleared between solves, so this counts only what the solve added).
    pub entries: u64,
    /// Children the main search cut as inferior repetitions that were no exact repetition
    /// (`loops.rs`; for tests and measurements).
    pub inferior_cuts: u64,
    /// Children the main search counted with the pump cost, as superior repetitions (`loops.rs`;
    /// for tests and measurements).
    pub pump_children: u64,
    /// Threads that searched the proof.
    pub threads: usize,
    /// The side to move defended (`roles.rs`): a mate is its being mated, its line starts with the
    /// side to move's reply and has an even number of plies.
    pub defends: bool,
}

/// A root check other than the answer's, with what follows it (`pv/multipv.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OtherLine {
    /// The check, then its exact mating line, or the defender's reply that refutes it.
    pub moves: Vec<Move>,
    /// The check mates in this many plies (verified); `None`: it does not mate at all.
    pub mate: Option<u32>,
}

/// Why `Solver::solve` refused a root position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// Not a mate problem: the defender (the side not to move) has no king, or is in check.
    InvalidRoot(SfenError),
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::InvalidRoot(e) => write!(f, "not a mate problem: {e}"),
        }
    }
}

impl std::error::Error for SolveError {}

/// An attacker move that also mates within the plies left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alternative {
    /// The ply of the line's move it replaces, counted from 1.
    pub ply: u32,
    pub mv: Move,
    /// Plies to mate after playing it from there (a proven length, at most the plies left; not
    /// always the shortest mate by that move).
    pub mate: u32,
}

/// A defender reply along the line other than the line's, with its own mate (`pv/variations.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation {
    /// The ply of the line's reply it replaces, counted from 1.
    pub ply: u32,
    pub reply: Move,
    /// Plies to mate after the reply: the length of `line`, proven; the shortest if `exact`.
    pub mate: u32,
    pub exact: bool,
    /// 変長: no mate within the plies the line has left after its own reply (a completed search).
    pub longer: bool,
    /// For a longer variation: a spare test of the composers' ranking (`canonical/ranking.rs`,
    /// `answered_by_spare_mate`) proved that the attacker can also force a mate with pieces to spare
    /// after the reply, so the ranking puts it below the line whatever `line` ends with.
    pub spared: bool,
    /// 変化別詰: the other first attacker moves after the reply that mate within `mate` (asked only
    /// when `exact`; each `Alternative::ply` counted from the root).
    pub others: Vec<Alternative>,
    /// The variation's line after the reply (its moves from the reply's child).
    pub line: Vec<Move>,
}

/// What the variations check found: every reply that counts, searched.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variations {
    pub found: Vec<Variation>,
    /// Replies (ply from 1, move) whose questions their node cap stopped.
    pub undecided: Vec<(u32, Move)>,
    /// Every reply along the line was decided (false: a limit or `stop` cut the check short).
    pub complete: bool,
}

/// What the check found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Alternatives {
    pub found: Vec<Alternative>,
    /// Every check along the line was decided (false: a limit or `stop` cut the check short).
    pub complete: bool,
}
