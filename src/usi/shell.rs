//! `kanju solve`: one answer line per problem, for scripts.

use super::checked::{Answer, CheckedSolver, Report, read_problem};
use super::json::{self, Value};
use super::output::usi_moves;
use crate::search::SearchLimits;
use std::io::{self, BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// How `kanju solve` runs.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Per problem; 0 = no limit.
    pub time_ms: u64,
    pub hash_mb: usize,
    pub json: bool,
}

/// Time limits as the command line gives them: 0 means none.
pub fn limits_from_ms(time_ms: u64) -> SearchLimits {
    SearchLimits {
        time: (time_ms > 0).then(|| Duration::from_millis(time_ms)),
        nodes: None,
        info_interval: None,
    }
}

/// A line worth solving: not blank, not a `#` comment.
pub fn is_problem_line(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && !t.starts_with('#')
}

/// Solves each problem text (from `problems`, or from `input` lines when `problems` is empty), writing one
/// answer line each as soon as it is known. Returns false if any problem was answered with `error`.
pub fn run_solve(
    problems: &[String],
    opts: &SolveOptions,
    input: impl BufRead,
    out: &mut impl Write,
) -> io::Result<bool> {
    let mut solver = CheckedSolver::new(opts.hash_mb);
    let limits = limits_from_ms(opts.time_ms);
    let mut all_ok = true;
    let mut solve_one = |text: &str, out: &mut dyn Write| -> io::Result<()> {
        let report = solve_text(&mut solver, text, &limits);
        all_ok &= !matches!(report.answer, Answer::Error(_));
        let line = if opts.json {
            json_line(text.trim(), &report)
        } else {
            plain_line(&report.answer)
        };
        writeln!(out, "{line}")?;
        out.flush()
    };
    if problems.is_empty() {
        for line in input.lines() {
            let line = line?;
            if is_problem_line(&line) {
                solve_one(&line, out)?;
            }
        }
    } else {
        for text in problems.iter().filter(|t| is_problem_line(t)) {
            solve_one(text, out)?;
        }
    }
    Ok(all_ok)
}

/// Reads and solves one problem with a fresh table (problems are unrelated, and a clean table makes
/// each answer independent of the order of the input).
pub fn solve_text(solver: &mut CheckedSolver, text: &str, limits: &SearchLimits) -> Report {
    match read_problem(text) {
        Ok(root) => {
            solver.clear();
            solver.solve(&root, limits, &AtomicBool::new(false), &mut |_| {})
        }
        Err(e) => Report {
            answer: Answer::Error(e),
            nodes: 0,
            elapsed: Duration::ZERO,
            note: None,
        },
    }
}

/// `mate <len> <moves>` / `nomate` / `timeout` / `error <message>`.
pub fn plain_line(answer: &Answer) -> String {
    match answer {
        Answer::Mate(line) => format!("mate {} {}", line.len(), usi_moves(line)),
        Answer::NoMate => "nomate".into(),
        Answer::Timeout => "timeout".into(),
        Answer::Error(e) => format!("error {}", one_line(e)),
    }
}

/// Keeps a message on one output line whatever it quotes.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The `--json` object for one problem.
pub fn json_line(sfen: &str, report: &Report) -> String {
    let (result, length, pv, error) = match &report.answer {
        Answer::Mate(line) => (
            "mate",
            Value::Number(line.len() as u64),
            line.iter().map(|m| m.to_usi()).collect(),
            Value::Null,
        ),
        Answer::NoMate => ("nomate", Value::Null, vec![], Value::Null),
        Answer::Timeout => ("timeout", Value::Null, vec![], Value::Null),
        Answer::Error(e) => ("error", Value::Null, vec![], Value::Str(e.clone())),
    };
    json::object(&[
        ("sfen", Value::Str(sfen.to_string())),
        ("result", Value::Str(result.to_string())),
        ("length", length),
        ("pv", Value::Strings(pv)),
        ("nodes", Value::Number(report.nodes)),
        (
            "time_ms",
            Value::Number(report.elapsed.as_millis().min(u128::from(u64::MAX)) as u64),
        ),
        ("error", error),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_answers() {
        assert_eq!(plain_line(&Answer::NoMate), "nomate");
        assert_eq!(plain_line(&Answer::Timeout), "timeout");
        assert_eq!(
            plain_line(&Answer::Error("bad\nthing".into())),
            "error bad thing"
        );
        let report = Report {
            answer: Answer::Error("malformed SFEN: \"x\"".into()),
            nodes: 0,
            elapsed: Duration::from_millis(3),
            note: None,
        };
        assert_eq!(
            json_line("x", &report),
            r#"{"sfen":"x","result":"error","length":null,"pv":[],"nodes":0,"time_ms":3,"error":"malformed SFEN: \"x\""}"#
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
        let opts = SolveOptions {
            time_ms: 100,
            hash_mb: 1,
            json: false,
        };
        let ok = run_solve(&[], &opts, "# header\n\nnot a sfen\n".as_bytes(), &mut out).unwrap();
        assert!(!ok);
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("error "), "{text}");
        assert_eq!(text.lines().count(), 1);
    }
}
