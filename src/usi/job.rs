//! The search thread of one `go`: progress lines while it searches, its closing lines as soon as it
//! is over, and exactly one answer line, held back as USI asks after `go infinite` and `go ponder`.

use super::output::{self, Output};
use crate::checked::{Answer, CheckedSolver, usi_moves};
use crate::position::Position;
use crate::search::SearchLimits;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::Duration;

/// What a search thread answers with when it ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// `go mate`: one `checkmate` line.
    Mate,
    /// A game `go`: one `bestmove` line.
    Game,
}

/// A running search.
pub(super) struct Job {
    pub(super) handle: JoinHandle<CheckedSolver>,
    pub(super) stop: Arc<AtomicBool>,
    /// What the answer waits for once the search is over (`Hold`).
    pub(super) hold: Hold,
    /// Set by the search thread just before it prints its answer: from then on the job is over as far as
    /// the GUI is concerned, and a new `go` may join it.
    pub(super) answered: Arc<AtomicBool>,
    /// Lets a held answer (`Hold`) go once the search is over, without stopping the search
    /// (`ponderhit`, the end of input); `stop` lets it go too.
    pub(super) release: Arc<AtomicBool>,
    /// For `go ponder` with a clock: the time the search may go on after `ponderhit` (its budget as
    /// if the `go` had not pondered, counted from the `ponderhit`).
    pub(super) after_ponderhit: Option<Duration>,
}

/// Runs one search on its own thread. If the thread cannot be started the solver is lost with it; the
/// slot is then empty and the next command that needs a table builds a new one.
pub(super) fn spawn_search(
    mut solver: CheckedSolver,
    root: Result<Position, String>,
    limits: SearchLimits,
    mode: Mode,
    hold: Hold,
    stopped: bool,
    out: Output,
) -> std::io::Result<Job> {
    // `stopped`: a `stop` came for this search before it started (`Engine::stop`).
    let stop = Arc::new(AtomicBool::new(stopped));
    let answered = Arc::new(AtomicBool::new(false));
    let release = Arc::new(AtomicBool::new(false));
    let (stop2, answered2, release2) = (stop.clone(), answered.clone(), release.clone());
    let handle = thread::Builder::new()
        .name("search".into())
        .stack_size(crate::search::SEARCH_STACK_BYTES)
        .spawn(move || {
            search(
                &mut solver,
                &root,
                &limits,
                &stop2,
                &answered2,
                mode,
                (hold, &release2),
                &out,
            );
            solver
        })?;
    Ok(Job {
        handle,
        hold,
        stop,
        answered,
        release,
        after_ponderhit: None,
    })
}

/// What a game search's answer waits for. USI: after `go infinite` the engine sends `bestmove` only
/// once `stop` comes, after `go ponder` only once `stop` or `ponderhit` comes, however soon its search
/// is over (a GUI analysing with `go infinite` takes an early `bestmove` for the end of the analysis).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Hold {
    No,
    Infinite,
    Ponder,
}

/// The body of the search thread: progress lines while searching, then exactly one answer line.
#[allow(clippy::too_many_arguments)]
fn search(
    solver: &mut CheckedSolver,
    root: &Result<Position, String>,
    limits: &SearchLimits,
    stop: &AtomicBool,
    answered: &AtomicBool,
    mode: Mode,
    (hold, release): (Hold, &AtomicBool),
    out: &Output,
) {
    let mut on_info = |info: &crate::search::SearchInfo| {
        out.line(&output::info_line(info));
        if let Some(line) = output::root_numbers_line(info) {
            out.line(&line);
        }
        if out.is_broken() {
            // Nobody is listening any more (the GUI died): don't search on for nothing.
            stop.store(true, Ordering::Relaxed);
        }
    };
    let report = match root {
        Ok(root) => Some(solver.solve(root, limits, stop, &mut on_info)),
        // A refused position (only a held `go` gets here): why, at once; the answer in its turn.
        Err(e) => {
            out.error(e);
            None
        }
    };
    // The search's closing `info` lines come as soon as it is over; only the answer of a held `go`
    // waits (USI: `bestmove` after `stop` or `ponderhit`; the GUI shows the lines meanwhile).
    if let Some(report) = &report {
        report_lines(out, report);
        // `ComposerReport`: the composer's report, line by line (`crate::composer`).
        if let (Ok(root), Mode::Mate, true) = (root, mode, solver.composer_check()) {
            let check = crate::composer::composer_report("ComposerReport", root, report, None);
            for line in check.text().lines() {
                out.line(&format!("info string {}", line.trim_start()));
            }
        }
    }
    // A held answer waits for `stop`, for its release (`ponderhit` for a ponder search, the end of
    // input), or for a GUI that has gone away.
    while hold != Hold::No
        && !stop.load(Ordering::Relaxed)
        && !release.load(Ordering::Relaxed)
        && !out.is_broken()
    {
        thread::sleep(Duration::from_millis(2));
    }
    answered.store(true, Ordering::Release);
    let answer = report.map_or(Answer::Timeout, |r| r.answer);
    out.line(&answer_line(mode, &answer));
}

/// The closing `info` lines of a search: nodes and time, its note, and for a mate the canonical
/// length, the alternatives and the line with its proven score.
fn report_lines(out: &Output, report: &crate::checked::Report) {
    out.line(&output::final_info_line(report.nodes, report.elapsed));
    if let Some(note) = &report.findings.note {
        out.line(&format!("info string {note}"));
    }
    match &report.answer {
        Answer::Error(e) => out.error(e),
        Answer::Mate(line) => {
            if let Some(n) = report.findings.canonical_length {
                out.line(&format!("info string canonical_length {n}"));
            }
            if let Some(alts) = &report.findings.alternatives {
                for text in crate::checked::alternative_lines(alts) {
                    out.line(&format!("info string {text}"));
                }
            }
            // The score claims only what is proven: a line not proven shortest may be shorter
            // than the longest defence, and its bound is the claim; with none known, USI's
            // `mate +` (a mate, of unknown length).
            // The side to move defended (`search::roles`): it is the one mated, a score of `-`.
            let sign = if report.defends { "-" } else { "" };
            let score = report
                .findings
                .mate_bound
                .map_or_else(|| "+".to_string(), |b| b.to_string());
            let score = if report.defends && score == "+" {
                "-".to_string()
            } else {
                format!("{sign}{score}")
            };
            if report.findings.other_lines.is_empty() {
                out.line(&format!("info score mate {score} pv {}", usi_moves(line)));
            } else {
                // MultiPV: the answer is line 1, the root's other checks follow, best first.
                out.line(&format!(
                    "info multipv 1 score mate {score} pv {}",
                    usi_moves(line)
                ));
                for (k, other) in report.findings.other_lines.iter().enumerate() {
                    let pv = usi_moves(&other.moves);
                    out.line(&match other.mate {
                        Some(n) => format!("info multipv {} score mate {n} pv {pv}", k + 2),
                        None => format!("info multipv {} pv {pv} string nomate", k + 2),
                    });
                }
            }
        }
        _ => {}
    }
}

/// The answer line a search owes: `checkmate …` for `go mate`, `bestmove …` for a game `go`. An error
/// answers `checkmate timeout`, which claims nothing (`nomate` would claim a proof).
pub(super) fn answer_line(mode: Mode, answer: &Answer) -> String {
    match (mode, answer) {
        (Mode::Mate, Answer::Mate(line)) if line.is_empty() => "checkmate".into(),
        (Mode::Mate, Answer::Mate(line)) => format!("checkmate {}", usi_moves(line)),
        (Mode::Mate, Answer::NoMate) => "checkmate nomate".into(),
        (Mode::Mate, _) => "checkmate timeout".into(),
        (Mode::Game, Answer::Mate(line)) if !line.is_empty() => {
            format!("bestmove {}", line[0].to_usi())
        }
        // Kanju only plays mates: without one it has no move it would stand behind.
        (Mode::Game, _) => "bestmove resign".into(),
    }
}
