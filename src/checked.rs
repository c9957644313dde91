//! The solver as every front end (USI, the command line) uses it: mate lines verified before anyone
//! prints them, a panic inside the search turned into an error answer instead of a dead process, and
//! the table sizes a front end may ask for.

use crate::position::{Move, Position};
use crate::search::Alternatives;
use crate::search::Futile;
use crate::search::tt::machine_memory_mb;
use crate::search::{
    Findings, MateOutcome, PvLevel, SearchInfo, SearchLimits, Solver, root_role,
    verify_line_in_check_by, verify_mate_line, verify_mate_line_by,
};
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

pub const HASH_DEFAULT_MB: usize = 256;
pub const HASH_MIN_MB: usize = 1;
pub const HASH_MAX_MB: usize = 65536;

pub const UNVERIFIED: &str = "internal: unverified mate line";
pub const INTERNAL_ERROR: &str = "internal error";

/// What kanju is willing to say about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A mate whose line passed `verify_mate_line`.
    Mate(Vec<Move>),
    /// Proven: no mate.
    NoMate,
    /// No answer within the limits, or stopped.
    Timeout,
    /// The position was refused, or the search failed; the message says why.
    Error(String),
}

/// A verified answer, what the solve found besides it, and the effort it took.
#[derive(Clone, Debug)]
pub struct Report {
    pub answer: Answer,
    /// The line's standing and what the phases after the proof added (`Findings`), the root's
    /// other lines (`Findings::other_lines`) verified like the answer.
    pub findings: Findings,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Table entries the search placed (`SolveResult::entries`).
    pub entries: u64,
    /// Threads that searched the proof (`SolveResult::threads`; 0 when no search ran).
    pub threads: usize,
    /// The side to move defended (`SolveResult::defends`): a mate is its being mated.
    pub defends: bool,
}

impl Report {
    /// An error answer with no search behind it: a refused input, or a search that failed.
    pub fn error(message: String, elapsed: Duration) -> Report {
        Report {
            answer: Answer::Error(message),
            findings: Findings::default(),
            nodes: 0,
            elapsed,
            entries: 0,
            threads: 0,
            defends: false,
        }
    }
}

/// Appends `chars` to `out`, control characters escaped (`\u{1b}`, `\r`): text that quotes input
/// (a refused SFEN) must not end an output line early or reach a terminal as a command.
pub fn push_escaped(out: &mut String, chars: impl Iterator<Item = char>) {
    for c in chars {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
}

/// Why a search thread could not be started, for the user: the usual cause is an address-space
/// limit (`ulimit -v`) too small for the thread's stack.
pub fn spawn_error(e: &std::io::Error) -> String {
    format!(
        "cannot start a search thread (its stack takes {} MiB of address space): {e}",
        crate::search::SEARCH_STACK_BYTES >> 20
    )
}

/// Reads a mate problem: a bare SFEN, `sfen …`, `startpos` or a whole `position …` command, refused
/// when no side has a king to mate (`search::roles`; whether it is refused does not depend on
/// `RootIsAndNodeIfChecked`).
pub fn read_problem(text: &str) -> Result<Position, String> {
    let pos = Position::from_sfen(text).map_err(|e| e.to_string())?;
    root_role(&pos, true).map_err(|e| e.to_string())?;
    Ok(pos)
}

/// Turns a solver outcome into an answer, verifying a mate line first so that a wrong `checkmate` is
/// never printed. `canonical`: the line is a canonical line (futile interpositions skipped), which may
/// end with the defender in check and only futile interpositions left (the search has checked that).
/// `defends`: the side to move defended (`search::roles`), the other side attacks.
pub fn check(root: &Position, outcome: MateOutcome, canonical: bool, defends: bool) -> Answer {
    let attacker = if defends {
        root.side_to_move().flip()
    } else {
        root.side_to_move()
    };
    match outcome {
        MateOutcome::Mate(line)
            if verify_mate_line_by(root, attacker, &line)
                || (canonical && verify_line_in_check_by(root, attacker, &line)) =>
        {
            Answer::Mate(line)
        }
        MateOutcome::Mate(line) => {
            log::error!("unverified mate line from {root:?}: {line:?}");
            Answer::Error(UNVERIFIED.to_string())
        }
        MateOutcome::NoMate => Answer::NoMate,
        MateOutcome::Timeout => Answer::Timeout,
    }
}

/// Why a table size was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableSizeError {
    OutOfRange(usize),
    MoreThanMemory { mb: usize, memory_mb: u64 },
}

impl fmt::Display for TableSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableSizeError::OutOfRange(mb) => {
                write!(
                    f,
                    "{mb} MiB is out of range ({HASH_MIN_MB}..={HASH_MAX_MB})"
                )
            }
            TableSizeError::MoreThanMemory { mb, memory_mb } => {
                write!(
                    f,
                    "{mb} MiB is more than this machine's memory ({memory_mb} MiB)"
                )
            }
        }
    }
}

impl std::error::Error for TableSizeError {}

/// Refuses a table size outside the announced range or larger than the machine's memory: allocating it
/// would abort the process (Rust does not unwind on allocation failure) or swap it to a standstill.
pub fn check_table_size(mb: usize) -> Result<(), TableSizeError> {
    if !(HASH_MIN_MB..=HASH_MAX_MB).contains(&mb) {
        return Err(TableSizeError::OutOfRange(mb));
    }
    if let Some(memory_mb) = machine_memory_mb()
        && mb as u64 > memory_mb
    {
        return Err(TableSizeError::MoreThanMemory { mb, memory_mb });
    }
    Ok(())
}

/// Refuses `jobs` tables of `mb` MiB each (one per worker of `kanju solve -j`) when together they
/// exceed the memory free for tables now (`tt::table_room_mb`; the machine's memory where that is
/// unknown): each would be touched in full, and the kernel would kill the process. (Each table alone
/// is made to fit by `Table::new`, but the first ones built take the room the later ones count on.)
pub fn check_tables_fit(jobs: usize, mb: usize) -> Result<(), String> {
    if jobs <= 1 {
        return Ok(());
    }
    let total = (jobs as u64).saturating_mul(mb as u64);
    let (room, what) = match crate::search::tt::table_room_mb() {
        Some(room) => (Some(room), "the memory free for tables now"),
        None => (machine_memory_mb(), "this machine's memory"),
    };
    match room {
        Some(room) if total > room => Err(format!(
            "{jobs} jobs with a {mb} MiB table each need {total} MiB, more than {what} ({room} MiB)"
        )),
        _ => Ok(()),
    }
}

/// Moves in USI notation, space separated: how both the USI protocol and `kanju solve` print a line.
pub fn usi_moves(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_usi())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Nodes per second, guarded against a zero elapsed time.
pub fn nps(nodes: u64, elapsed: Duration) -> u64 {
    let ms = elapsed.as_millis().max(1);
    (u128::from(nodes) * 1000 / ms).min(u128::from(u64::MAX)) as u64
}

/// A `Solver` together with the table size it was built with.
pub struct CheckedSolver {
    solver: Solver,
    hash_mb: usize,
    /// Set up for the composers' check (`set_composer_check`).
    composer: bool,
}

impl CheckedSolver {
    pub fn new(hash_mb: usize) -> CheckedSolver {
        CheckedSolver {
            solver: Solver::new(hash_mb),
            hash_mb,
            composer: false,
        }
    }

    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Re-allocates the table if the size changed (then returns true).
    pub fn ensure_size(&mut self, hash_mb: usize) -> bool {
        let changed = hash_mb != self.hash_mb;
        if changed {
            // `resize` keeps the settings and drops the old table before building the new one.
            self.solver.resize(hash_mb);
            self.hash_mb = hash_mb;
        }
        changed
    }

    pub fn clear(&mut self) {
        self.solver.clear();
    }

    /// The table's size in MiB: less than `hash_mb` when that much memory could not be had.
    pub fn table_mb(&self) -> usize {
        self.solver.table_mb()
    }

    /// Backs the whole table with memory now (`Solver::populate_table`).
    pub fn populate_table(&mut self) {
        self.solver.populate_table();
    }

    /// Sets the search's internal switches (kept across `ensure_size`).
    pub fn set_config(&mut self, config: crate::search::SearchConfig) {
        self.solver.set_config(config);
    }

    /// How much work goes into the mating line (kept across `ensure_size`).
    pub fn set_pv_level(&mut self, level: PvLevel) {
        self.solver.set_pv_level(level);
    }

    /// Look for alternative mating moves along the line (kept across `ensure_size`).
    pub fn set_check_alternatives(&mut self, on: bool) {
        self.solver.set_check_alternatives(on);
    }

    /// Whether the solver is set up for the composers' check (`set_composer_check`).
    pub fn composer_check(&self) -> bool {
        self.composer
    }

    /// Search the defender's other replies along the line (kept across `ensure_size`).
    pub fn set_check_variations(&mut self, on: bool) {
        self.solver.set_check_variations(on);
    }

    /// The composers' check (`composer.rs`; `kanju check`, USI `ComposerReport`): futile
    /// interpositions no defence; first the line `solve --futile skip` prints (its phases within
    /// their node budgets), then, with the time left, its canonical length proven and every other
    /// check and every other defence along it searched (`SolverSettings::settle`). Replaces the
    /// line settings and the configuration; off, the configuration goes back to the default and
    /// the variations are not searched (the line settings are the caller's to set).
    pub fn set_composer_check(&mut self, on: bool) {
        self.composer = on;
        self.set_config(crate::search::SearchConfig::default());
        self.solver.set_settle(on);
        if !on {
            self.set_check_variations(false);
            return;
        }
        self.set_futile(Futile::Skip);
        self.set_pv_level(PvLevel::MinLength);
        self.set_check_alternatives(true);
        self.set_check_variations(true);
    }

    /// The composers' check reads its ranking further (`Solver::set_thorough`).
    pub fn set_thorough(&mut self, on: bool) {
        self.solver.set_thorough(on);
    }

    /// The line the next solves answer and check instead of their own when it mates (the
    /// composer's line, `Solver::set_given_line`); `None`: their own.
    pub fn set_given_line(&mut self, line: Option<Vec<crate::position::Move>>) {
        self.solver.set_given_line(line);
    }

    /// Whether futile interpositions count (kept across `ensure_size`).
    pub fn set_futile(&mut self, futile: Futile) {
        self.solver.set_futile(futile);
    }

    /// Threads that search each proof (kept across `ensure_size`).
    pub fn set_threads(&mut self, threads: usize) {
        self.solver.set_threads(threads);
    }

    /// With both kings and the side to move in check, whether the side to move defends
    /// (`search::roles`; kept across `ensure_size`).
    pub fn set_root_and_if_checked(&mut self, on: bool) {
        self.solver.set_root_and_if_checked(on);
    }

    /// Lines to report after a mate, the answer's included (`MultiPV`; kept across `ensure_size`).
    pub fn set_multipv(&mut self, lines: usize) {
        self.solver.set_multipv(lines);
    }

    /// Reads one problem text (see `read_problem`) and solves it on a cleared table, so that the answer
    /// does not depend on what was solved before (the command line's problems are unrelated). A text
    /// that is not a mate problem is `Err` with the reason, and never reaches the search.
    /// `on_info` gets the search's progress reports (`SearchLimits::info_interval`).
    pub fn solve_text(
        &mut self,
        text: &str,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Result<(Position, Report), String> {
        let root = read_problem(text)?;
        self.clear();
        let report = self.solve(&root, limits, stop, on_info);
        Ok((root, report))
    }

    /// Searches `root` (which should have passed `validate_mate_problem`). A panic in the search is
    /// logged, answered with `Error(INTERNAL_ERROR)`, and the solver rebuilt, since its table may be
    /// half-written.
    pub fn solve(
        &mut self,
        root: &Position,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Report {
        let start = Instant::now();
        let solver = &mut self.solver;
        match catch_unwind(AssertUnwindSafe(|| {
            solver.solve(root, limits, stop, on_info)
        })) {
            Ok(Ok(mut r)) => {
                r.findings
                    .other_lines
                    .retain(|l| l.mate.is_none() || verify_mate_line(root, &l.moves));
                Report {
                    answer: check(
                        root,
                        r.outcome,
                        r.findings.canonical_length.is_some(),
                        r.defends,
                    ),
                    findings: r.findings,
                    nodes: r.nodes,
                    elapsed: r.elapsed,
                    entries: r.entries,
                    threads: r.threads,
                    defends: r.defends,
                }
            }
            Ok(Err(e)) => Report::error(e.to_string(), start.elapsed()),
            Err(_) => {
                log::error!("the search panicked on {root:?}");
                let settings = self.solver.settings().clone();
                self.solver = Solver::new(self.hash_mb);
                self.solver.set_settings(settings);
                Report::error(INTERNAL_ERROR.to_string(), start.elapsed())
            }
        }
    }
}

/// The alternative mating moves of a report, one text each (`alternative ply <k> <move> mate <n>`,
/// then a remark if the check did not reach the end of the line, or `alternatives none` if it found
/// none): the `info string` lines of USI and the extra lines of `solve --check-alternatives`.
pub fn alternative_lines(alts: &Alternatives) -> Vec<String> {
    let mut lines: Vec<String> = alts
        .found
        .iter()
        .map(|a| {
            format!(
                "alternative ply {} {} mate {}",
                a.ply,
                a.mv.to_usi(),
                a.mate
            )
        })
        .collect();
    if !alts.complete {
        lines.push("alternatives: the check stopped before the end of the line".into());
    } else if lines.is_empty() {
        lines.push("alternatives none".into());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_is_not_a_mate_problem() {
        assert!(read_problem("not a position").is_err());
        assert!(read_problem("9/9/9/9/9/9/9/9/4K4 b - 1").is_err());
        assert!(read_problem("position sfen 4k4/9/4P4/9/9/9/9/9/9 b G 1").is_ok());
    }

    #[test]
    fn refuses_table_sizes_out_of_range() {
        assert_eq!(check_table_size(1), Ok(()));
        assert_eq!(check_table_size(0), Err(TableSizeError::OutOfRange(0)));
        assert_eq!(
            check_table_size(HASH_MAX_MB + 1),
            Err(TableSizeError::OutOfRange(HASH_MAX_MB + 1))
        );
        assert_eq!(nps(7, Duration::ZERO), 7000);
    }

    #[test]
    fn never_passes_a_wrong_mate() {
        let root = read_problem("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
        let mate = root.parse_usi_move("G*5b").unwrap();
        let not_mate = root.parse_usi_move("5c5b+").unwrap();
        assert_eq!(
            check(&root, MateOutcome::Mate(vec![mate]), false, false),
            Answer::Mate(vec![mate])
        );
        assert_eq!(
            check(&root, MateOutcome::Mate(vec![not_mate]), false, false),
            Answer::Error(UNVERIFIED.into())
        );
        assert_eq!(
            check(&root, MateOutcome::Mate(vec![]), false, false),
            Answer::Error(UNVERIFIED.into())
        );
        assert_eq!(
            check(&root, MateOutcome::NoMate, false, false),
            Answer::NoMate
        );
    }
}
