//! `kanju bench`: runs problem files with known answers (`problems.rs`; the format of
//! `tests/data/README.md`) and counts what was solved, what was wrong, what timed out and which rows
//! kanju refused as illegal positions.

use super::problems::{
    Grade, Problem, grade, lengths_are_minimax, parse_problems, read_limited, refuse_by_metadata,
};
use super::solve::{STATUS_INTERVAL, limits_from_ms};
use super::status::StatusLines;
use crate::checked::{Answer, CheckedSolver, Report, nps};
use crate::search::{SearchInfo, SearchLimits};

use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// How `kanju bench` runs.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    pub time_ms: u64,
    pub hash_mb: usize,
    /// Threads searching each proof.
    pub threads: usize,
    /// Only problems whose id contains this.
    pub filter: Option<String>,
    /// At most this many problems per file (after the filter).
    pub limit: Option<usize>,
    pub verbose: bool,
    /// The search's internal switches.
    pub config: crate::search::SearchConfig,
    /// Node limit per problem (deterministic, for measurements).
    pub nodes: Option<u64>,
    /// How much work goes into each mating line.
    pub pv: crate::search::PvLevel,
    /// Whether futile interpositions count (`skip`: lengths are canonical).
    pub futile: crate::search::Futile,
    /// Status lines on stderr while a problem is searched, this far apart (`StatusLines`).
    pub progress: Option<Duration>,
}

/// Solves one row and grades the answer. A SFEN that kanju refuses (`read_problem`: `from_sfen` or
/// `validate_mate_problem`) is `Illegal` and never reaches the solver (no report). A solver `error`
/// on a position that was accepted stays `Wrong` (see `grade`).
pub fn bench_problem(
    solver: &mut CheckedSolver,
    problem: &Problem,
    limits: &SearchLimits,
    minimax: bool,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> (Grade, Option<Report>) {
    match solver.solve_text(&problem.sfen, limits, &AtomicBool::new(false), on_info) {
        Err(why) => (Grade::Illegal(why), None),
        Ok((_, report)) => (
            grade(problem.expected, &report.answer, minimax),
            Some(report),
        ),
    }
}

/// The counts of one file (or of all files). `problems` counts every row taken (after `--filter` and
/// `--limit`): `problems = solved + wrong + timeouts + illegal`; `short` lines are among `solved`.
#[derive(Clone, Debug, Default)]
pub struct Totals {
    pub problems: usize,
    pub solved: usize,
    pub exact: usize,
    /// Solved with a line shorter than the minimax length (see `Grade::Short`).
    pub short: usize,
    /// Solved with a line longer than the minimax length (see `Grade::Longer`).
    pub longer: usize,
    pub wrong: usize,
    pub timeouts: usize,
    /// Rows whose SFEN kanju refused (see `Grade::Illegal`).
    pub illegal: usize,
    /// Search time of every problem that reached the solver (solved, wrong or timed out).
    pub time: Duration,
    pub nodes: u64,
    /// Table entries placed (`SolveResult::entries`): the size of the tree searched.
    pub entries: u64,
    /// The search time of each solved problem, for the median.
    pub solved_times: Vec<Duration>,
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
            Grade::Short => {
                self.solved += 1;
                self.short += 1;
            }
            Grade::Longer => {
                self.solved += 1;
                self.longer += 1;
            }
            Grade::Wrong(_) => self.wrong += 1,
            Grade::Timeout => self.timeouts += 1,
            Grade::Illegal(_) => self.illegal += 1,
        }
        if let Some(r) = report {
            self.time += r.elapsed;
            self.nodes += r.nodes;
            self.entries += r.entries;
            if matches!(
                grade,
                Grade::Exact | Grade::Solved | Grade::Short | Grade::Longer
            ) {
                self.solved_times.push(r.elapsed);
            }
        }
    }

    fn merge(&mut self, o: &Totals) {
        self.problems += o.problems;
        self.solved += o.solved;
        self.exact += o.exact;
        self.short += o.short;
        self.longer += o.longer;
        self.wrong += o.wrong;
        self.timeouts += o.timeouts;
        self.illegal += o.illegal;
        self.time += o.time;
        self.nodes += o.nodes;
        self.entries += o.entries;
        self.solved_times.extend_from_slice(&o.solved_times);
    }

    /// The median search time per solved problem (the mean of the two middle ones for an even count);
    /// `None` when nothing was solved.
    pub fn median_solved_time(&self) -> Option<Duration> {
        let mut t = self.solved_times.clone();
        t.sort_unstable();
        let n = t.len();
        match n {
            0 => None,
            _ if n % 2 == 1 => Some(t[n / 2]),
            _ => Some((t[n / 2 - 1] + t[n / 2]) / 2),
        }
    }

    /// `<name>  problems N  solved N  exact length N  longer N  short N  wrong N  timeouts N  illegal N  time S s
    /// median M ms  nodes N  nps N`: `time` is the total search time, `median` the median search time
    /// per solved problem (`-` if none), and `nps` is `nodes / time`.
    pub fn summary(&self, name: &str) -> String {
        let median = self.median_solved_time().map_or_else(
            || "-".to_string(),
            |m| format!("{:.3} ms", m.as_secs_f64() * 1e3),
        );
        format!(
            "{name}  problems {}  solved {}  exact length {}  longer {}  short {}  wrong {}  timeouts {}  illegal {}  time {:.3} s  median {median}  nodes {}  nps {}  entries {}",
            self.problems,
            self.solved,
            self.exact,
            self.longer,
            self.short,
            self.wrong,
            self.timeouts,
            self.illegal,
            self.time.as_secs_f64(),
            self.nodes,
            nps(self.nodes, self.time),
            self.entries
        )
    }
}

/// Runs every file and prints a summary per file (and a total for several). Returns the totals; an
/// unreadable file is an error, found before anything is searched.
pub fn run_bench(
    files: &[impl AsRef<Path>],
    opts: &BenchOptions,
    out: &mut impl Write,
) -> io::Result<Totals> {
    let in_file =
        |path: &Path, e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    // Every file is looked at first: a missing, unreadable or refused one (a typo in the last of
    // several files) ends the bench at once, before the table is built and before minutes of
    // searching. A file is opened to see that it can be read and closed again (a bench over
    // thousands of files holds one open at a time); a pipe is not (opening one waits for a writer).
    // Each is read in its turn, so that only one file's text is held at a time.
    for path in files {
        let path = path.as_ref();
        std::fs::metadata(path)
            .and_then(|meta| {
                refuse_by_metadata(&meta)?;
                if meta.is_file() {
                    std::fs::File::open(path)?;
                }
                Ok(())
            })
            .map_err(|e| in_file(path, e))?;
    }
    let mut solver = CheckedSolver::new(opts.hash_mb);
    // The table's memory is backed before the first problem, so that its search time (what the bench
    // reports) does not carry the table's page faults.
    solver.populate_table();
    solver.set_config(opts.config.clone());
    solver.set_pv_level(opts.pv);
    solver.set_futile(opts.futile);
    solver.set_threads(opts.threads);
    // The files' convention: the side to move attacks, in check or not (`tests/data/README.md`).
    solver.set_root_and_if_checked(false);
    let mut all = Totals::default();
    for path in files {
        let path = path.as_ref();
        let bytes = read_limited(path).map_err(|e| in_file(path, e))?;
        // A byte that is not UTF-8 (a note in Shift JIS, a damaged row) spoils its row at most: the
        // row's columns are read as they are, and a broken SFEN is refused like any other.
        let text = String::from_utf8_lossy(&bytes);
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
    let lines = opts.progress.map(StatusLines::new);
    let limits = SearchLimits {
        info_interval: opts.progress.map(|every| every.min(STATUS_INTERVAL)),
        ..limits_from_ms(opts.time_ms, opts.nodes)
    };
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
                let mut status = |info: &SearchInfo| {
                    if let Some(lines) = &lines {
                        lines.report(&problem.id, info);
                    }
                };
                let (grade, report) =
                    bench_problem(solver, &problem, &limits, minimax, &mut status);
                if opts.verbose || matches!(grade, Grade::Wrong(_)) {
                    writeln!(out, "{}", problem_line(&problem, report.as_ref(), &grade))?;
                    out.flush()?;
                }
                totals.add(&grade, report.as_ref());
            }
            Err(e) => {
                writeln!(out, "  WRONG {}: {e}", path.display())?;
                totals.add(&Grade::Wrong(e), None);
            }
        }
    }
    Ok(totals)
}

/// One problem's line for `-v` (and for every wrong answer). `r` is `None` for a refused SFEN.
fn problem_line(p: &Problem, r: Option<&Report>, g: &Grade) -> String {
    let Some(r) = r else {
        let why = match g {
            Grade::Illegal(why) => why.as_str(),
            _ => "not searched",
        };
        return format!("  {}  expected {}  illegal: {why}", p.id, p.expected);
    };
    let answer = match &r.answer {
        Answer::Mate(l) => format!("mate {}", l.len()),
        Answer::NoMate => "nomate".into(),
        Answer::Timeout => "timeout".into(),
        Answer::Error(_) => "error".into(),
    };
    let verdict = match g {
        Grade::Exact => "ok".to_string(),
        Grade::Solved => "ok (other length)".to_string(),
        Grade::Short => "ok (line shorter than the minimax: not the longest defence)".to_string(),
        Grade::Longer => "ok (line longer than the minimax: not the shortest mate)".to_string(),
        Grade::Wrong(why) => format!("WRONG: {why}"),
        Grade::Timeout => "timeout".to_string(),
        Grade::Illegal(why) => format!("illegal: {why}"),
    };
    let note = r
        .findings
        .note
        .as_ref()
        .map_or(String::new(), |n| format!("  ({n})"));
    format!(
        "  {}  expected {}  got {}  {}  {:.3} s  {} nodes{note}",
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
    use crate::checked::read_problem;
    use crate::cli::problems::Expected;

    /// Two unpromoted Black pawns on file 5: an impossible position kanju must refuse.
    const TWO_PAWNS: &str = "4k4/9/4P4/9/9/9/4P4/9/9 b G 1";
    const MATE1: &str = "4k4/9/4P4/9/9/9/9/9/9 b G 1";

    fn problem(id: &str, sfen: &str, expected: Expected) -> Problem {
        Problem {
            id: id.into(),
            sfen: sfen.into(),
            expected,
            pv: None,
        }
    }

    fn opts(verbose: bool) -> BenchOptions {
        BenchOptions {
            time_ms: 30_000,
            hash_mb: 1,
            threads: 1,
            filter: None,
            limit: None,
            verbose,
            config: Default::default(),
            nodes: None,
            pv: Default::default(),
            futile: Default::default(),
            progress: None,
        }
    }

    #[test]
    fn a_refused_sfen_is_illegal_not_wrong_and_is_not_searched() {
        let mut solver = CheckedSolver::new(1);
        let limits = limits_from_ms(30_000, None);
        for sfen in [
            TWO_PAWNS,
            "not a position",
            // No defending king: `validate_mate_problem` refuses it.
            "9/9/9/9/9/9/9/9/4K4 b G 1",
        ] {
            let why = read_problem(sfen).expect_err(sfen);
            let (g, report) = bench_problem(
                &mut solver,
                &problem("x", sfen, Expected::Mate(1)),
                &limits,
                true,
                &mut |_| {},
            );
            assert_eq!(g, Grade::Illegal(why), "{sfen}");
            assert!(report.is_none(), "{sfen} reached the solver");
        }
        // A legal position is searched and graded as before.
        let (g, report) = bench_problem(
            &mut solver,
            &problem("m1", MATE1, Expected::Mate(1)),
            &limits,
            true,
            &mut |_| {},
        );
        assert_eq!(g, Grade::Exact);
        assert!(report.is_some_and(|r| r.nodes > 0));
        // A solver error on an accepted position stays wrong (and never becomes illegal).
        let mut t = Totals::default();
        t.add(
            &grade(Expected::Mate(1), &Answer::Error("x".into()), true),
            None,
        );
        assert_eq!((t.wrong, t.illegal), (1, 0));
    }

    #[test]
    fn illegal_rows_have_their_own_column() {
        let text =
            format!("ok\t{MATE1}\tmate:1\nbad\t{TWO_PAWNS}\tmate:3\nbad2\t{TWO_PAWNS}\tnomate\n");
        let mut solver = CheckedSolver::new(1);
        let mut out = Vec::new();
        let path = Path::new("tanuki.tsv");
        let t = bench_file(&mut solver, path, &text, &opts(false), &mut out).unwrap();
        assert_eq!(
            (
                t.problems, t.solved, t.exact, t.wrong, t.timeouts, t.illegal
            ),
            (3, 1, 1, 0, 0, 2)
        );
        // Without -v nothing is printed for an illegal row (it is not wrong).
        assert!(out.is_empty(), "{}", String::from_utf8_lossy(&out));
        let summary = t.summary("f");
        assert!(summary.contains("  wrong 0  "), "{summary}");
        assert!(summary.contains("  illegal 2  "), "{summary}");

        // With -v, one line per illegal row with kanju's reason.
        let mut out = Vec::new();
        bench_file(&mut solver, path, &text, &opts(true), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let why = read_problem(TWO_PAWNS).unwrap_err();
        let illegal: Vec<&str> = out.lines().filter(|l| l.contains("illegal: ")).collect();
        assert_eq!(illegal.len(), 2, "{out}");
        assert!(
            illegal[0].starts_with("  bad  ") && illegal[0].ends_with(&why),
            "{out}"
        );
        assert!(!out.contains("WRONG"), "{out}");

        // A malformed row (not a SFEN problem, a broken file) is still wrong.
        let t = bench_file(
            &mut solver,
            path,
            &format!("{text}broken\tonly two columns\n"),
            &opts(false),
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!((t.problems, t.wrong, t.illegal), (4, 1, 2));
    }

    #[test]
    fn an_unreadable_file_ends_the_bench_before_any_search() {
        let dir = std::env::temp_dir().join(format!("kanju-bench-early-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.tsv");
        std::fs::write(&good, format!("ok\t{MATE1}\tmate:1\n")).unwrap();
        let missing = dir.join("missing.tsv");
        let mut out = Vec::new();
        let r = run_bench(&[&good, &missing], &opts(false), &mut out);
        std::fs::remove_dir_all(&dir).unwrap();
        let e = r.unwrap_err();
        assert!(e.to_string().contains("missing.tsv"), "{e}");
        // Not a row of the good file was searched or printed.
        assert!(out.is_empty(), "{}", String::from_utf8_lossy(&out));
    }

    #[test]
    fn run_bench_with_only_illegal_wrongs_has_no_wrong() {
        let dir = std::env::temp_dir().join(format!("kanju-bench-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a.tsv"), dir.join("b.tsv"));
        std::fs::write(&a, format!("ok\t{MATE1}\tmate:1\n")).unwrap();
        std::fs::write(
            &b,
            format!("bad\t{TWO_PAWNS}\tmate:1\nok\t{MATE1}\tmate:1\n"),
        )
        .unwrap();
        let mut out = Vec::new();
        let all = run_bench(&[&a, &b], &opts(false), &mut out);
        std::fs::remove_dir_all(&dir).unwrap();
        let all = all.unwrap();
        // `main` exits 0 exactly when `wrong == 0`.
        assert_eq!(
            (all.problems, all.solved, all.wrong, all.illegal),
            (3, 2, 0, 1)
        );
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        assert!(
            lines[1].contains("  illegal 1  ") && lines[1].contains("  median "),
            "{out}"
        );
        assert!(
            lines[2].starts_with("total  problems 3  ") && lines[2].contains("  illegal 1  "),
            "{out}"
        );
        assert_eq!(all.solved_times.len(), 2);
    }

    #[test]
    fn summary_has_median_per_solved_problem_and_nps_over_search_time() {
        let ms = Duration::from_millis;
        let report = |elapsed, nodes| Report {
            answer: Answer::NoMate,
            nodes,
            entries: nodes / 2,
            threads: 1,
            ..Report::error(String::new(), elapsed)
        };
        let mut t = Totals::default();
        assert_eq!(t.median_solved_time(), None);
        assert!(t.summary("x").contains("  median -  "));
        t.add(&Grade::Solved, Some(&report(ms(30), 1000)));
        t.add(&Grade::Exact, Some(&report(ms(10), 1000)));
        // Timeouts and wrong answers count in the time and nps, not in the median.
        t.add(&Grade::Timeout, Some(&report(ms(900), 1000)));
        t.add(&Grade::Wrong("w".into()), Some(&report(ms(60), 1000)));
        t.add(&Grade::Illegal("i".into()), None);
        assert_eq!(t.median_solved_time(), Some(ms(20)));
        t.add(&Grade::Exact, Some(&report(ms(20), 0)));
        assert_eq!(t.median_solved_time(), Some(ms(20)));
        let mut other = Totals::default();
        other.add(&Grade::Exact, Some(&report(ms(1), 0)));
        other.add(&Grade::Exact, Some(&report(ms(2), 0)));
        t.merge(&other);
        // Solved 1, 2, 10, 20, 30 ms: the total median is over all problems, not of the medians.
        assert_eq!(t.median_solved_time(), Some(ms(10)));
        assert_eq!((t.time, t.nodes), (ms(1023), 4000));
        let s = t.summary("total");
        assert!(s.starts_with("total  problems 8  solved 5  exact length 4  longer 0  short 0  wrong 1  timeouts 1  illegal 1  time 1.023 s  median 10.000 ms  nodes 4000  nps 3910"), "{s}");
        assert!(s.ends_with("entries 2000"), "{s}");
    }
}
