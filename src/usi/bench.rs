//! `kanju bench`: runs problem files with known answers (the format of `shared/problems/README.md`) and
//! counts what was solved, what was wrong and what timed out.

use super::checked::{Answer, CheckedSolver, Report};
use super::output::nps;
use super::shell::{limits_from_ms, solve_text};
use std::fmt;
use std::io::{self, Write};
use std::path::Path;
use std::time::Duration;

/// How `kanju bench` runs.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    pub time_ms: u64,
    pub hash_mb: usize,
    /// Only problems whose id contains this.
    pub filter: Option<String>,
    /// At most this many problems per file (after the filter).
    pub limit: Option<usize>,
    pub verbose: bool,
}

/// The `expected` column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// A mate of this many plies.
    Mate(usize),
    /// A mate of unknown length.
    MateUnknown,
    /// Proven no mate.
    NoMate,
    /// No mate of this many plies or fewer.
    NoMateWithin(usize),
}

impl Expected {
    pub fn parse(s: &str) -> Option<Expected> {
        match s.trim() {
            "nomate" => Some(Expected::NoMate),
            "mate:unknown" => Some(Expected::MateUnknown),
            s => {
                if let Some(n) = s.strip_prefix("mate:") {
                    n.parse().ok().map(Expected::Mate)
                } else {
                    s.strip_prefix("nomate-within:")?
                        .parse()
                        .ok()
                        .map(Expected::NoMateWithin)
                }
            }
        }
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Mate(n) => write!(f, "mate:{n}"),
            Expected::MateUnknown => f.write_str("mate:unknown"),
            Expected::NoMate => f.write_str("nomate"),
            Expected::NoMateWithin(n) => write!(f, "nomate-within:{n}"),
        }
    }
}

/// One row of a problem file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub id: String,
    pub sfen: String,
    pub expected: Expected,
}

/// Reads the rows of a problem file; a malformed row is returned as an error with its line number.
pub fn parse_problems(text: &str) -> Vec<Result<Problem, String>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| parse_row(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

fn parse_row(line: &str) -> Result<Problem, String> {
    let cols: Vec<&str> = line.split('\t').collect();
    let [id, sfen, expected, ..] = cols[..] else {
        return Err("expected at least 3 tab-separated columns (id, sfen, expected)".into());
    };
    let expected =
        Expected::parse(expected).ok_or_else(|| format!("unknown expected value '{expected}'"))?;
    Ok(Problem {
        id: id.trim().to_string(),
        sfen: sfen.trim().to_string(),
        expected,
    })
}

/// Whether a file's `mate:N` is the minimax length (so a shorter mate is wrong), or the length of a
/// recorded composer's line (zukou, microcosmos: lengths under the futile-interposition rule, see the
/// problems README), where only legality is checked.
pub fn lengths_are_minimax(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    !(name.starts_with("zukou") || name.starts_with("microcosmos"))
}

/// How one answer compares with the expected one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Grade {
    /// Right, and for a `mate:N` row of exactly N plies.
    Exact,
    /// Right, but not of the recorded length (or no length to compare).
    Solved,
    Wrong(String),
    Timeout,
}

/// Grades an answer. `minimax` says whether `mate:N` is the shortest possible mate (see
/// `lengths_are_minimax`). Mate lines reaching here have already passed `verify_mate_line`.
pub fn grade(expected: Expected, answer: &Answer, minimax: bool) -> Grade {
    match (answer, expected) {
        (Answer::Timeout, _) => Grade::Timeout,
        (Answer::Error(e), _) => Grade::Wrong(e.clone()),
        (Answer::NoMate, Expected::Mate(_) | Expected::MateUnknown) => {
            Grade::Wrong("nomate, but a mate exists".into())
        }
        (Answer::NoMate, Expected::NoMate | Expected::NoMateWithin(_)) => Grade::Solved,
        (Answer::Mate(l), Expected::NoMate) => {
            Grade::Wrong(format!("a mate in {} on a nomate row", l.len()))
        }
        (Answer::Mate(l), Expected::NoMateWithin(n)) if l.len() <= n => {
            Grade::Wrong(format!("a mate in {}, but none exists within {n}", l.len()))
        }
        (Answer::Mate(_), Expected::NoMateWithin(_) | Expected::MateUnknown) => Grade::Solved,
        (Answer::Mate(l), Expected::Mate(n)) if l.len() == n => Grade::Exact,
        (Answer::Mate(l), Expected::Mate(n)) if l.len() < n && minimax => Grade::Wrong(format!(
            "a mate in {}, shorter than the minimax length {n}",
            l.len()
        )),
        (Answer::Mate(_), Expected::Mate(_)) => Grade::Solved,
    }
}

/// The counts of one file (or of all files).
#[derive(Clone, Debug, Default)]
pub struct Totals {
    pub problems: usize,
    pub solved: usize,
    pub exact: usize,
    pub wrong: usize,
    pub timeouts: usize,
    pub time: Duration,
    pub nodes: u64,
}

impl Totals {
    fn add(&mut self, grade: &Grade, report: Option<&Report>) {
        self.problems += 1;
        match grade {
            Grade::Exact => {
                self.solved += 1;
                self.exact += 1;
            }
            Grade::Solved => self.solved += 1,
            Grade::Wrong(_) => self.wrong += 1,
            Grade::Timeout => self.timeouts += 1,
        }
        if let Some(r) = report {
            self.time += r.elapsed;
            self.nodes += r.nodes;
        }
    }

    fn merge(&mut self, o: &Totals) {
        self.problems += o.problems;
        self.solved += o.solved;
        self.exact += o.exact;
        self.wrong += o.wrong;
        self.timeouts += o.timeouts;
        self.time += o.time;
        self.nodes += o.nodes;
    }

    /// `<name>  problems N  solved N  exact length N  wrong N  timeouts N  time S  nodes N  nps N`.
    pub fn summary(&self, name: &str) -> String {
        format!(
            "{name}  problems {}  solved {}  exact length {}  wrong {}  timeouts {}  time {:.3} s  nodes {}  nps {}",
            self.problems,
            self.solved,
            self.exact,
            self.wrong,
            self.timeouts,
            self.time.as_secs_f64(),
            self.nodes,
            nps(self.nodes, self.time)
        )
    }
}

/// Runs every file and prints a summary per file (and a total for several). Returns the totals; an
/// unreadable file is an error.
pub fn run_bench(
    files: &[impl AsRef<Path>],
    opts: &BenchOptions,
    out: &mut impl Write,
) -> io::Result<Totals> {
    let mut solver = CheckedSolver::new(opts.hash_mb);
    let mut all = Totals::default();
    for path in files {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let totals = bench_file(&mut solver, path, &text, opts, out)?;
        writeln!(out, "{}", totals.summary(&path.display().to_string()))?;
        out.flush()?;
        all.merge(&totals);
    }
    if files.len() > 1 {
        writeln!(out, "{}", all.summary("total"))?;
    }
    Ok(all)
}

fn bench_file(
    solver: &mut CheckedSolver,
    path: &Path,
    text: &str,
    opts: &BenchOptions,
    out: &mut impl Write,
) -> io::Result<Totals> {
    let minimax = lengths_are_minimax(path);
    let limits = limits_from_ms(opts.time_ms);
    let mut totals = Totals::default();
    let rows = parse_problems(text)
        .into_iter()
        .filter(|row| match (row, &opts.filter) {
            (Ok(p), Some(f)) => p.id.contains(f.as_str()),
            (Err(_), Some(_)) => false,
            (_, None) => true,
        });
    for row in rows.take(opts.limit.unwrap_or(usize::MAX)) {
        match row {
            Ok(problem) => {
                let report = solve_text(solver, &problem.sfen, &limits);
                let grade = grade(problem.expected, &report.answer, minimax);
                if opts.verbose || matches!(grade, Grade::Wrong(_)) {
                    writeln!(out, "{}", problem_line(&problem, &report, &grade))?;
                    out.flush()?;
                }
                totals.add(&grade, Some(&report));
            }
            Err(e) => {
                writeln!(out, "  WRONG {}: {e}", path.display())?;
                totals.add(&Grade::Wrong(e), None);
            }
        }
    }
    Ok(totals)
}

/// One problem's line for `-v` (and for every wrong answer).
fn problem_line(p: &Problem, r: &Report, g: &Grade) -> String {
    let answer = match &r.answer {
        Answer::Mate(l) => format!("mate {}", l.len()),
        Answer::NoMate => "nomate".into(),
        Answer::Timeout => "timeout".into(),
        Answer::Error(_) => "error".into(),
    };
    let verdict = match g {
        Grade::Exact => "ok".to_string(),
        Grade::Solved => "ok (other length)".to_string(),
        Grade::Wrong(why) => format!("WRONG: {why}"),
        Grade::Timeout => "timeout".to_string(),
    };
    format!(
        "  {}  expected {}  got {}  {}  {:.3} s  {} nodes",
        p.id,
        p.expected,
        answer,
        verdict,
        r.elapsed.as_secs_f64(),
        r.nodes
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn parses_rows() {
        let text = "# id\tsfen\texpected\tpv\tnote\n\na\t4k4/9/4P4/9/9/9/9/9/9 b G 1\tmate:1\tG*5b\t\nb\tstartpos\tnomate\nc\tx\tmate:?\nd only one column\n";
        let rows = parse_problems(text);
        assert_eq!(rows.len(), 4);
        assert_eq!(rows[0].as_ref().unwrap().expected, Expected::Mate(1));
        assert_eq!(rows[1].as_ref().unwrap().expected, Expected::NoMate);
        assert!(rows[2].as_ref().unwrap_err().starts_with("line 5:"));
        assert!(rows[3].is_err());
        assert_eq!(
            Expected::parse("nomate-within:3"),
            Some(Expected::NoMateWithin(3))
        );
        assert_eq!(Expected::parse("mate:unknown"), Some(Expected::MateUnknown));
    }

    #[test]
    fn grades_answers() {
        let pos = Position::startpos();
        let m = pos.parse_usi_move("7g7f").unwrap();
        let mate = |n: usize| Answer::Mate(vec![m; n]);
        assert_eq!(grade(Expected::Mate(3), &mate(3), true), Grade::Exact);
        assert_eq!(grade(Expected::Mate(3), &mate(5), true), Grade::Solved);
        assert!(matches!(
            grade(Expected::Mate(5), &mate(3), true),
            Grade::Wrong(_)
        ));
        assert_eq!(grade(Expected::Mate(5), &mate(3), false), Grade::Solved);
        assert!(matches!(
            grade(Expected::Mate(5), &Answer::NoMate, true),
            Grade::Wrong(_)
        ));
        assert!(matches!(
            grade(Expected::MateUnknown, &Answer::NoMate, true),
            Grade::Wrong(_)
        ));
        assert!(matches!(
            grade(Expected::NoMate, &mate(1), true),
            Grade::Wrong(_)
        ));
        assert!(matches!(
            grade(Expected::NoMateWithin(3), &mate(3), true),
            Grade::Wrong(_)
        ));
        assert_eq!(
            grade(Expected::NoMateWithin(3), &mate(5), true),
            Grade::Solved
        );
        assert_eq!(
            grade(Expected::NoMate, &Answer::NoMate, true),
            Grade::Solved
        );
        assert_eq!(
            grade(Expected::Mate(1), &Answer::Timeout, true),
            Grade::Timeout
        );
        assert!(matches!(
            grade(Expected::Mate(1), &Answer::Error("x".into()), true),
            Grade::Wrong(_)
        ));
    }

    #[test]
    fn knows_which_files_record_composers_lengths() {
        assert!(lengths_are_minimax(Path::new(
            "../shared/problems/tanuki.tsv"
        )));
        assert!(lengths_are_minimax(Path::new("yaneuraou-mate3.tsv")));
        assert!(!lengths_are_minimax(Path::new("/x/zukou.tsv")));
        assert!(!lengths_are_minimax(Path::new("microcosmos.tsv")));
    }
}
