//! `kanju bench`: runs problem files with known answers (the format of `shared/problems/README.md`) and
//! counts what was solved, what was wrong, what timed out and which rows kanju refused as illegal
//! positions.

use super::solve::limits_from_ms;
use crate::checked::{Answer, CheckedSolver, Report, nps};
use crate::search::SearchLimits;
use std::fmt;
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
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
    /// The search's internal switches.
    pub config: crate::search::SearchConfig,
    /// Node limit per problem (deterministic, for measurements).
    pub nodes: Option<u64>,
    /// How much work goes into each mating line.
    pub pv: crate::search::PvLevel,
    /// Whether futile interpositions count (`skip`: lengths are canonical).
    pub futile: crate::search::Futile,
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
                    // The attacker moves first and last: a mate has an odd number of plies.
                    n.parse().ok().filter(|n| n % 2 == 1).map(Expected::Mate)
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
    /// A verified mate whose line is longer than the minimax length: right, but not the shortest
    /// mate against the longest defence. Counted as solved, and apart.
    Longer,
    /// A verified mate whose line is shorter than the minimax length: the mate is real (df-pn proved
    /// it), but the printed line lets the defender give up early. Counted as solved, and apart.
    Short,
    Wrong(String),
    Timeout,
    /// The SFEN was refused (`Position::from_sfen` or `validate_mate_problem`): a malformed or
    /// impossible position, e.g. two unpromoted pawns of one colour on a file. Refusing it is the
    /// specified behaviour, so it is neither solved nor wrong; the string is kanju's reason.
    Illegal(String),
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
        (Answer::Mate(l), Expected::Mate(n)) if l.len() < n && minimax => Grade::Short,
        (Answer::Mate(l), Expected::Mate(n)) if l.len() > n && minimax => Grade::Longer,
        (Answer::Mate(_), Expected::Mate(_)) => Grade::Solved,
    }
}

/// Solves one row and grades the answer. A SFEN that kanju refuses (`read_problem`: `from_sfen` or
/// `validate_mate_problem`) is `Illegal` and never reaches the solver (no report). A solver `error`
/// on a position that was accepted stays `Wrong` (see `grade`).
pub fn bench_problem(
    solver: &mut CheckedSolver,
    problem: &Problem,
    limits: &SearchLimits,
    minimax: bool,
) -> (Grade, Option<Report>) {
    match solver.solve_text(&problem.sfen, limits, &AtomicBool::new(false), &mut |_| {}) {
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

/// The most a problem file may hold (about a million rows); a larger one, or an endless one such as
/// `/dev/zero`, is refused instead of filling the memory.
const MAX_FILE_BYTES: u64 = 256 << 20;

fn too_large() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "larger than {} MiB: not a problem file",
            MAX_FILE_BYTES >> 20
        ),
    )
}

/// Refuses, by what its metadata says, what is no problem file: a file larger than `MAX_FILE_BYTES`,
/// or anything but a file or a pipe.
fn refuse_by_metadata(meta: &std::fs::Metadata) -> io::Result<()> {
    // A file says its size; a device (`/dev/zero`) is no problem file at all; only a pipe
    // (`<(…)`) must be read to learn it.
    if meta.is_file() && meta.len() > MAX_FILE_BYTES {
        return Err(too_large());
    }
    if !meta.is_file() && !is_fifo(meta) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a file or a pipe",
        ));
    }
    Ok(())
}

/// Reads a problem file whole, refusing it past `MAX_FILE_BYTES` (a pipe says its size only so).
fn read_limited(path: &Path) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    refuse_by_metadata(&file.metadata()?)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large());
    }
    Ok(bytes)
}

#[cfg(unix)]
fn is_fifo(meta: &std::fs::Metadata) -> bool {
    std::os::unix::fs::FileTypeExt::is_fifo(&meta.file_type())
}

#[cfg(not(unix))]
fn is_fifo(_meta: &std::fs::Metadata) -> bool {
    false
}

fn bench_file(
    solver: &mut CheckedSolver,
    path: &Path,
    text: &str,
    opts: &BenchOptions,
    out: &mut impl Write,
) -> io::Result<Totals> {
    let minimax = lengths_are_minimax(path);
    let limits = limits_from_ms(opts.time_ms, opts.nodes);
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
                let (grade, report) = bench_problem(solver, &problem, &limits, minimax);
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
        // No mate has 0 or an even number of plies (`mate:0` was taken, and a mate in 3 graded
        // "longer" against it).
        for label in ["mate:0", "mate:4", "mate:-1", "mate:"] {
            assert_eq!(Expected::parse(label), None, "{label}");
        }
    }

    #[test]
    fn grades_answers() {
        let pos = Position::startpos();
        let m = pos.parse_usi_move("7g7f").unwrap();
        let mate = |n: usize| Answer::Mate(vec![m; n]);
        assert_eq!(grade(Expected::Mate(3), &mate(3), true), Grade::Exact);
        assert_eq!(grade(Expected::Mate(3), &mate(5), true), Grade::Longer);
        assert_eq!(grade(Expected::Mate(3), &mate(5), false), Grade::Solved);
        assert_eq!(grade(Expected::Mate(5), &mate(3), true), Grade::Short);
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

    /// Two unpromoted Black pawns on file 5: an impossible position kanju must refuse.
    const TWO_PAWNS: &str = "4k4/9/4P4/9/9/9/4P4/9/9 b G 1";
    const MATE1: &str = "4k4/9/4P4/9/9/9/9/9/9 b G 1";

    fn problem(id: &str, sfen: &str, expected: Expected) -> Problem {
        Problem {
            id: id.into(),
            sfen: sfen.into(),
            expected,
        }
    }

    fn opts(verbose: bool) -> BenchOptions {
        BenchOptions {
            time_ms: 30_000,
            hash_mb: 1,
            filter: None,
            limit: None,
            verbose,
            config: Default::default(),
            nodes: None,
            pv: Default::default(),
            futile: Default::default(),
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
            elapsed,
            note: None,
            exact: false,
            alternatives: None,
            canonical_length: None,
            mate_bound: None,
            entries: nodes / 2,
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
