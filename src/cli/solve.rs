//! `kanju solve`: one answer per problem, in input order, for scripts and people.
//!
//! Problems are solved by `--jobs` worker threads, each with a table of its own (see `batch`); the
//! answers are printed in input order as soon as every earlier one is known. How an answer is printed
//! (`--format`, `--notation`) is decided here.

use super::batch::{self, Progress, ProgressMode};
use super::json::SolveRecord;
use super::kif::kif_record;
use super::notation::japanese_line;
use crate::checked::{Answer, Report, alternative_lines, push_escaped, usi_moves};
use crate::pipe::{MAX_LINE_BYTES, read_line_capped};
use crate::position::Position;
use crate::search::Futile;
use crate::search::PvLevel;
use crate::search::{SearchLimits, problem_position};
use std::io::{self, BufRead, Write};
use std::time::Duration;

/// How answers are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `mate <len> <moves>`, `nomate`, `timeout` or `error <message>`, one line per problem.
    #[default]
    Text,
    /// One JSON object per line (see `json::SolveRecord`).
    Json,
    /// A KIF record per problem: the diagram and the mate line, for ShogiHome and other readers.
    Kif,
}

/// Who moves first in a position where both kings stand and the side to move is in check
/// (`search::roles`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum InCheck {
    /// The side to move defends: is it mated?
    Defend,
    /// The side to move attacks, its checks answering the check too.
    Attack,
}

/// How the moves of a mate line are written in `--format text`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Notation {
    /// `8c1c 1b1a` (what engines and GUIs exchange).
    #[default]
    Usi,
    /// `☗１三竜 ☖同　玉` (the Japan Shogi Association's notation).
    Ja,
}

/// How `kanju solve` runs.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Per problem; 0 = no limit.
    pub time_ms: u64,
    /// Nodes per problem, at most (a limit that does not depend on the machine's speed).
    pub nodes: Option<u64>,
    /// Per worker: every job has a table of this size.
    pub hash_mb: usize,
    pub format: Format,
    pub notation: Notation,
    /// Worker threads (at least 1).
    pub jobs: usize,
    /// Threads searching each proof (at least 1).
    pub threads: usize,
    /// When the running search's status is shown on stderr.
    pub progress: ProgressMode,
    /// Time between status lines (`ProgressMode::On` without a terminal).
    pub progress_every: Duration,
    /// How much work goes into each mating line after its proof.
    pub pv: PvLevel,
    /// Report other mating moves along each line (`checked::alternative_lines`).
    pub check_alternatives: bool,
    /// Whether futile interpositions count (`skip`: the composer's line and canonical length).
    pub futile: Futile,
    /// With both kings and the side to move in check, the side to move defends (`search::roles`).
    pub root_and_if_checked: bool,
    /// The output is the process's stdout: when its reader goes away (`kanju solve … | head`),
    /// the running searches stop at once instead of running to their answers for nobody.
    pub watch_stdout: bool,
}

/// The limits the command line gives: a time limit (0 means none) and a node limit; with neither,
/// the search is open-ended (`SearchLimits::open_ended`).
pub fn limits_from_ms(time_ms: u64, nodes: Option<u64>) -> SearchLimits {
    SearchLimits {
        time: (time_ms > 0).then(|| Duration::from_millis(time_ms)),
        nodes,
        info_interval: None,
        open_ended: time_ms == 0 && nodes.is_none(),
    }
}

/// A line worth solving: not blank, not a `#` comment.
pub fn is_problem_line(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && !t.starts_with('#')
}

/// Solves each problem text (from `problems`, or from `input` lines when `problems` is empty) and
/// writes one answer each, in input order. Returns false if any problem was answered with `error`.
pub fn run_solve(
    problems: &[String],
    opts: &SolveOptions,
    input: impl BufRead + Send + 'static,
    out: &mut impl Write,
) -> io::Result<bool> {
    let source: Box<dyn Iterator<Item = io::Result<String>> + Send> = if problems.is_empty() {
        // Bytes, not `lines()`: a line that is not UTF-8 is one more malformed problem (answered with
        // `error`), not the end of the input; so is a line too long to keep.
        let mut input = input;
        let mut buf = Vec::new();
        Box::new(std::iter::from_fn(move || {
            match read_line_capped(&mut input, MAX_LINE_BYTES, &mut buf) {
                Ok(None) => None,
                Ok(Some(true)) => Some(Ok(String::from_utf8_lossy(&buf).into_owned())),
                // A comment stays a comment however long (its first bytes say so).
                Ok(Some(false)) if String::from_utf8_lossy(&buf).trim_start().starts_with('#') => {
                    Some(Ok(String::from("#")))
                }
                Ok(Some(false)) => {
                    Some(Ok(format!("<a line of more than {MAX_LINE_BYTES} bytes>")))
                }
                Err(e) => Some(Err(e)),
            }
        }))
    } else {
        // Owned: the feeder thread outlives this call when a write fails.
        let owned: Vec<String> = problems.to_vec();
        Box::new(owned.into_iter().map(Ok))
    };
    // Lines of input skip blanks and comments; arguments are answered one each, whatever they hold
    // (a blank one with `error`), so that answers line up with the arguments.
    let from_args = !problems.is_empty();
    let texts =
        source.filter(move |line| from_args || line.as_ref().map_or(true, |l| is_problem_line(l)));
    let progress = Progress::new(
        opts.progress,
        opts.progress_every,
        (!problems.is_empty()).then_some(problems.len()),
    );
    let limits = SearchLimits {
        // The live status, when it is shown (a line beside the bar, or status lines).
        info_interval: progress
            .visible()
            .then_some(STATUS_INTERVAL.min(opts.progress_every)),
        ..limits_from_ms(opts.time_ms, opts.nodes)
    };
    let mut all_ok = true;
    batch::run(
        texts,
        (opts.jobs, opts.hash_mb),
        &progress,
        |solver, text, stop| {
            solver.set_pv_level(opts.pv);
            solver.set_check_alternatives(opts.check_alternatives);
            solver.set_futile(opts.futile);
            solver.set_threads(opts.threads);
            solver.set_root_and_if_checked(opts.root_and_if_checked);
            let name = short_name(text.trim());
            let solved = solver.solve_text(text, &limits, stop, &mut |info| {
                progress.status(&name, info)
            });
            render(text.trim(), &solved, opts)
        },
        |rendered: Rendered| {
            all_ok &= rendered.ok;
            progress.suspend(|| {
                out.write_all(rendered.text.as_bytes())?;
                out.flush()?;
                if let Some(note) = &rendered.note {
                    // A person reading the text or KIF learns here what JSON's `note` says (why
                    // the line is not proven shortest, why a search gave up): on stderr, so that
                    // scripts reading one answer per line are not disturbed.
                    // (Ignored if stderr is closed: the answer itself went out.)
                    let _ = writeln!(io::stderr(), "kanju: {note}");
                }
                Ok(())
            })
        },
        || opts.watch_stdout && crate::pipe::stdout_gone(),
    )?;
    progress.finish();
    Ok(all_ok)
}

/// A problem as status lines name it: its text, cut short.
fn short_name(text: &str) -> String {
    const MAX: usize = 40;
    match text.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// How often the progress bar's status (`--progress`) is refreshed.
pub const STATUS_INTERVAL: Duration = Duration::from_millis(500);

/// One problem's output, ready to print.
pub struct Rendered {
    /// Whole lines, each ending in a newline.
    pub text: String,
    /// False when the answer was `error`.
    pub ok: bool,
    /// For stderr (text and KIF formats; JSON has its `note` field): the problem and its report's
    /// note.
    pub note: Option<String>,
}

/// Writes one answer in the chosen format.
pub fn render(
    text: &str,
    solved: &Result<(Position, Report), String>,
    opts: &SolveOptions,
) -> Rendered {
    let refused;
    let report = match solved {
        Ok((_, report)) => report,
        Err(e) => {
            refused = Report::error(e.clone(), Duration::ZERO);
            &refused
        }
    };
    let note = match (opts.format, &report.findings.note) {
        (Format::Json, _) | (_, None) => None,
        (_, Some(note)) => Some(format!("{}: {}", one_line(text), one_line(note))),
    };
    let text = match (opts.format, solved) {
        (Format::Json, _) => format!("{}\n", SolveRecord::new(text, report).to_line()),
        (Format::Kif, Ok((root, report))) => {
            format!("{}\n", kif_record(text, root, &report.answer))
        }
        (Format::Kif, Err(e)) => format!("# kanju: error {}: {}\n\n", one_line(e), one_line(text)),
        (Format::Text, Ok((root, report))) => {
            let mut text = format!("{}\n", plain_line(root, &report.answer, opts.notation));
            if let Some(alts) = &report.findings.alternatives {
                for line in alternative_lines(alts) {
                    text.push_str(&format!("  {line}\n"));
                }
            }
            text
        }
        (Format::Text, Err(e)) => format!("error {}\n", one_line(e)),
    };
    Rendered {
        text,
        ok: !matches!(report.answer, Answer::Error(_)),
        note,
    }
}

/// `mate <len> <moves>` / `nomate` / `timeout` / `error <message>`.
pub fn plain_line(root: &Position, answer: &Answer, notation: Notation) -> String {
    match answer {
        Answer::Mate(line) => {
            let moves = match notation {
                Notation::Usi => usi_moves(line),
                Notation::Ja => japanese_line(&problem_position(root), line).join(" "),
            };
            format!("mate {} {moves}", line.len())
        }
        Answer::NoMate => "nomate".into(),
        Answer::Timeout => "timeout".into(),
        Answer::Error(e) => format!("error {}", one_line(e)),
    }
}

/// Keeps a message on one output line whatever it quotes: runs of white space become one space,
/// other control characters are escaped (an ESC or NUL from the input must not reach a terminal).
fn one_line(s: &str) -> String {
    let mut out = String::new();
    push_escaped(
        &mut out,
        s.split_whitespace().collect::<Vec<_>>().join(" ").chars(),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(format: Format, jobs: usize) -> SolveOptions {
        SolveOptions {
            time_ms: 30_000,
            nodes: None,
            hash_mb: 1,
            format,
            notation: Notation::Usi,
            jobs,
            threads: 1,
            progress: ProgressMode::Off,
            progress_every: crate::cli::status::StatusLines::EVERY,
            pv: PvLevel::default(),
            check_alternatives: false,
            futile: Futile::Count,
            root_and_if_checked: true,
            watch_stdout: false,
        }
    }

    #[test]
    fn formats_answers() {
        let root = Position::startpos();
        assert_eq!(plain_line(&root, &Answer::NoMate, Notation::Usi), "nomate");
        assert_eq!(plain_line(&root, &Answer::Timeout, Notation::Ja), "timeout");
        assert_eq!(
            plain_line(&root, &Answer::Error("bad\nthing".into()), Notation::Usi),
            "error bad thing"
        );
    }

    #[test]
    fn skips_blank_and_comment_lines() {
        assert!(!is_problem_line("   "));
        assert!(!is_problem_line("# a comment"));
        assert!(is_problem_line("startpos"));
    }

    #[test]
    fn a_malformed_problem_is_an_error_line() {
        let mut out = Vec::new();
        let input = "# header\n\nnot a sfen\n".as_bytes();
        let ok = run_solve(&[], &opts(Format::Text, 1), input, &mut out).unwrap();
        assert!(!ok);
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("error "), "{text}");
        assert_eq!(text.lines().count(), 1);
    }

    #[test]
    fn answers_come_in_input_order_whatever_the_jobs() {
        // A slow problem first: with two jobs the quick ones finish before it, and must wait.
        let mate3 = "position sfen 9/8k/9/7RG/9/9/9/9/9 b r2b3g4s4n4l18p 1";
        let input = format!("{mate3}\nbad one\n4k4/9/9/9/9/9/9/9/9 b - 1\n{mate3}\nbad two\n");
        let mut expected = Vec::new();
        run_solve(
            &[],
            &opts(Format::Json, 1),
            io::Cursor::new(input.clone()),
            &mut expected,
        )
        .unwrap();
        let mut got = Vec::new();
        run_solve(
            &[],
            &opts(Format::Json, 3),
            io::Cursor::new(input),
            &mut got,
        )
        .unwrap();
        let sfens = |out: &[u8]| -> Vec<String> {
            String::from_utf8(out.to_vec())
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["sfen"].to_string())
                .collect()
        };
        assert_eq!(sfens(&got).len(), 5);
        assert_eq!(sfens(&got), sfens(&expected));
    }
}
