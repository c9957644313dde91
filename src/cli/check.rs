//! `kanju check`: the report a composer reads before publishing a work. One solve per problem with
//! the composers' conventions (futile interpositions are no defence: the canonical line and length,
//! `Futile::Skip`; the line made exact, `PvLevel::MinLength`; every other check along it tested,
//! `CheckAlternatives`), and from what that solve proved:
//!
//! * the verdict (mate / no mate / undecided) and the composer's line with its length;
//! * 余詰: other attacker moves along the line that also mate within the plies left, each with its
//!   proven length, a lone one at the last move marked as the lesser flaw (最終手余詰);
//! * 早詰: against the recorded length (a file's `mate:N`, or `--length`), a forced mate in fewer
//!   plies (proven: the solve's proof bound is below the record, whatever the line), or no mate
//!   within the record at all (proven only when the line is exact);
//! * 駒余り: pieces left in the attacker's hand when the line ends.
//!
//! Every flaw it reports is a proven fact: the line passed `verify_mate_line`, an alternative's
//! length comes from a completed bounded search, a shorter mate from the proof's bound. What the
//! limits left open is said as such (`undecided`), and what this report does not examine — the
//! lengths of the defender's other replies along the line (変化別詰, 変長) — is listed under
//! `not checked`, never passed over in silence.

use super::batch::{self, Progress, ProgressMode};
use super::problems::{Expected, parse_row};
use super::solve::limits_from_ms;
use super::status::StatusLines;
use crate::checked::{Answer, CheckedSolver, Report, read_problem, usi_moves};
use crate::position::{Hand, Move, Position};
use crate::search::{Futile, PvLevel, SearchConfig};
use serde::Serialize;
use std::io::{self, BufRead, Write};

/// How `kanju check` runs.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Per problem; 0 = no limit.
    pub time_ms: u64,
    pub nodes: Option<u64>,
    pub hash_mb: usize,
    /// Problems checked at once (each with its own table).
    pub jobs: usize,
    /// Threads searching each problem.
    pub threads: usize,
    /// The recorded length of a problem given as a SFEN (a file row's `mate:N` takes precedence).
    pub length: Option<usize>,
    pub json: bool,
}

/// What the check decided about the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Mate,
    NoMate,
    /// Neither within the limits.
    Undecided,
    /// The position was refused or the search failed.
    Error(String),
}

/// One flaw, each a proven fact (module comment).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Flaw {
    /// 余詰: at attacker ply `ply` (from 1), `mv` also mates, in `mate` plies from there.
    Alternative {
        ply: u32,
        mv: Move,
        mate: u32,
        last: bool,
    },
    /// 早詰: a forced mate within `within` plies, fewer than the record's `record`.
    ShorterThanRecord { within: u32, record: usize },
    /// No mate within the record's `record` plies: the shortest forced mate takes `exact` plies
    /// against the longest defence (and the composer's line is longer than the record too).
    LongerThanRecord { exact: usize, record: usize },
    /// 駒余り: the attacker still holds `hand` when the line ends.
    PiecesLeft { hand: Hand },
}

/// The composer's report on one problem.
#[derive(Clone, Debug)]
pub struct CheckReport {
    /// The problem's id (a file row) or its text.
    pub name: String,
    pub verdict: Verdict,
    /// The composer's line (verified), empty unless `Mate`.
    pub line: Vec<Move>,
    /// The line's length is proven: the canonical minimax length.
    pub exact: bool,
    /// The line takes a defence shorter than the longest, as the composers' ranking prefers (no
    /// 駒余り after it); the longest defence is mated in this many plies (proven).
    pub ranked_below: Option<u32>,
    /// The recorded length compared against, if any.
    pub record: Option<usize>,
    pub flaws: Vec<Flaw>,
    /// What the limits left open (the line not proven exact, the alternatives not all tested, the
    /// record neither confirmed nor refuted).
    pub undecided: Vec<String>,
    pub nodes: u64,
    pub elapsed_ms: u64,
}

/// What this report never examines (module comment).
pub const NOT_CHECKED: &str = "the defender's other replies along the line (変化別詰, 変長)";

/// The report on `root` from its solve's `report` (solved with `Futile::Skip`, `MinLength` and the
/// alternatives), against the recorded length `record`.
pub fn composer_report(
    name: &str,
    root: &Position,
    report: &Report,
    record: Option<usize>,
) -> CheckReport {
    let mut out = CheckReport::empty(name, Verdict::Undecided, record);
    out.nodes = report.nodes;
    out.elapsed_ms = report.elapsed.as_millis() as u64;
    let line = match &report.answer {
        Answer::Mate(line) => line,
        Answer::NoMate => {
            out.verdict = Verdict::NoMate;
            return out;
        }
        Answer::Timeout => {
            out.undecided
                .push("mate or no mate (the limits came first)".into());
            return out;
        }
        Answer::Error(e) => {
            out.verdict = Verdict::Error(e.clone());
            return out;
        }
    };
    out.verdict = Verdict::Mate;
    out.line = line.clone();
    let len = line.len();
    // The length is proven when the line is exact, or when it is as long as the proven minimax
    // length (the composers' ranking chose among defences that long). A ranked line shorter than
    // that takes a defence the ranking prefers (no 駒余り after it): `ranked_below`.
    match (report.exact, report.mate_bound) {
        (true, _) => out.exact = true,
        (false, Some(b)) if report.mate_bound_exact => {
            out.exact = b as usize == len;
            if !out.exact {
                out.ranked_below = Some(b);
            }
        }
        (false, b) => out.undecided.push(format!(
            "whether {len} plies is the shortest mate (proven within {})",
            b.unwrap_or(len as u32)
        )),
    }
    // 余詰 along the line. `last`: the alternative replaces the line's final move (最終手余詰).
    match &report.alternatives {
        Some(alts) => {
            for a in &alts.found {
                out.flaws.push(Flaw::Alternative {
                    ply: a.ply,
                    mv: a.mv,
                    mate: a.mate,
                    last: a.ply as usize == len,
                });
            }
            if !alts.complete {
                out.undecided
                    .push("other mating moves past the point the limits stopped the test".into());
            }
        }
        None => out.undecided.push("other mating moves (not tested)".into()),
    }
    // Against the record. The proof's bound is a forced mate whatever the line shows: a record above
    // it is 早詰. A record below the line is refuted only when the bound is the proven minimax
    // length and the line is longer than the record too (the composers' ranking may take a defence
    // shorter than the longest, and a record that follows it is no flaw).
    if let Some(record) = record {
        let bound = report.mate_bound.unwrap_or(len as u32) as usize;
        if bound < record {
            out.flaws.push(Flaw::ShorterThanRecord {
                within: bound as u32,
                record,
            });
        } else if len > record {
            if report.mate_bound_exact {
                out.flaws.push(Flaw::LongerThanRecord {
                    exact: bound,
                    record,
                });
            } else {
                out.undecided.push(format!(
                    "whether a mate within the record's {record} plies exists"
                ));
            }
        }
    }
    // 駒余り: replay the verified line; the attacker is the side that moved first, or the side not
    // to move when the side to move defended.
    let attacker = if report.defends {
        root.side_to_move().flip()
    } else {
        root.side_to_move()
    };
    let mut pos = root.clone();
    for &m in line {
        pos.do_move(m);
    }
    let hand = pos.hand(attacker);
    if !hand.is_empty() {
        out.flaws.push(Flaw::PiecesLeft { hand });
    }
    out
}

impl CheckReport {
    /// A report with `verdict` and nothing else found yet.
    fn empty(name: &str, verdict: Verdict, record: Option<usize>) -> CheckReport {
        CheckReport {
            name: name.to_string(),
            verdict,
            line: vec![],
            exact: false,
            ranked_below: None,
            record,
            flaws: vec![],
            undecided: vec![],
            nodes: 0,
            elapsed_ms: 0,
        }
    }

    /// The one line a composer reads first.
    pub fn summary(&self) -> String {
        // Each kind of flaw once, with how many there are: `余詰 ×2, 駒余り`.
        let mut flaws: Vec<(String, usize)> = vec![];
        for name in self.flaws.iter().map(flaw_name) {
            match flaws.iter_mut().find(|(n, _)| *n == name) {
                Some((_, count)) => *count += 1,
                None => flaws.push((name, 1)),
            }
        }
        let flaws: Vec<String> = flaws
            .into_iter()
            .map(|(n, c)| if c == 1 { n } else { format!("{n} ×{c}") })
            .collect();
        let mut s = match (&self.verdict, flaws.is_empty(), self.undecided.is_empty()) {
            (Verdict::Error(e), ..) => format!("error: {e}"),
            (Verdict::NoMate, ..) => "no mate".to_string(),
            (Verdict::Undecided, ..) => "undecided".to_string(),
            (Verdict::Mate, true, true) => "sound".to_string(),
            (Verdict::Mate, false, _) => format!("flaws found: {}", flaws.join(", ")),
            (Verdict::Mate, true, false) => "no flaw found, some questions undecided".to_string(),
        };
        if self.verdict == Verdict::Mate && !self.flaws.is_empty() && !self.undecided.is_empty() {
            s.push_str(" (and some questions undecided)");
        }
        s
    }

    /// The text report: a head line, the line, each flaw, what was left undecided.
    pub fn text(&self) -> String {
        let mut t = format!("{}: {}\n", self.name, self.summary());
        if self.verdict == Verdict::Mate {
            let exact = if self.exact {
                "exact"
            } else {
                "not proven shortest"
            };
            let record = self
                .record
                .map_or(String::new(), |r| format!(", record {r}"));
            t.push_str(&format!("  mate {} ({exact}{record})\n", self.line.len()));
            t.push_str(&format!("  line {}\n", usi_moves(&self.line)));
        }
        for f in &self.flaws {
            t.push_str(&format!("  {}\n", flaw_text(f)));
        }
        for u in &self.undecided {
            t.push_str(&format!("  undecided: {u}\n"));
        }
        if self.verdict == Verdict::Mate {
            t.push_str(&format!("  not checked: {NOT_CHECKED}\n"));
        }
        t
    }
}

fn flaw_name(f: &Flaw) -> String {
    match f {
        Flaw::Alternative { last: true, .. } => "最終手余詰".into(),
        Flaw::Alternative { .. } => "余詰".into(),
        Flaw::ShorterThanRecord { .. } => "早詰".into(),
        Flaw::LongerThanRecord { .. } => "longer than the record".into(),
        Flaw::PiecesLeft { .. } => "駒余り".into(),
    }
}

fn flaw_text(f: &Flaw) -> String {
    match f {
        Flaw::Alternative {
            ply,
            mv,
            mate,
            last,
        } => {
            let what = if *last { "最終手余詰" } else { "余詰" };
            format!("{what}: at ply {ply} {} also mates in {mate}", mv.to_usi())
        }
        Flaw::ShorterThanRecord { within, record } => {
            format!("早詰: a forced mate within {within} plies, the record says {record}")
        }
        Flaw::LongerThanRecord { exact, record } => format!(
            "longer than the record: no mate within {record} plies, the shortest takes {exact} (does the diagram match the record?)"
        ),
        Flaw::PiecesLeft { hand } => format!("駒余り: {hand:?} left in hand at the end"),
    }
}

/// The `--json` record of one report.
#[derive(Debug, Serialize)]
pub struct CheckRecord<'a> {
    pub problem: &'a str,
    /// `mate`, `nomate`, `undecided` or `error`.
    pub verdict: &'static str,
    pub summary: String,
    pub length: Option<usize>,
    pub exact: bool,
    /// The longest defence's proven length when the composers' ranking chose a shorter one.
    pub ranked_below: Option<u32>,
    pub record: Option<usize>,
    pub pv: Vec<String>,
    pub flaws: Vec<FlawRecord>,
    pub undecided: &'a [String],
    pub not_checked: Vec<&'static str>,
    pub nodes: u64,
    pub time_ms: u64,
}

/// One flaw in JSON: `kind` is `alternative`, `last_move_alternative`, `shorter_than_record`,
/// `longer_than_record` or `pieces_left`.
#[derive(Debug, Serialize)]
pub struct FlawRecord {
    pub kind: &'static str,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<u32>,
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub mv: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<u32>,
}

impl CheckReport {
    pub fn record(&self) -> CheckRecord<'_> {
        let mate = self.verdict == Verdict::Mate;
        CheckRecord {
            problem: &self.name,
            verdict: match self.verdict {
                Verdict::Mate => "mate",
                Verdict::NoMate => "nomate",
                Verdict::Undecided => "undecided",
                Verdict::Error(_) => "error",
            },
            summary: self.summary(),
            length: mate.then_some(self.line.len()),
            exact: self.exact,
            ranked_below: self.ranked_below,
            record: self.record,
            pv: self.line.iter().map(|m| m.to_usi()).collect(),
            flaws: self
                .flaws
                .iter()
                .map(|f| {
                    let (kind, ply, mv, mate) = match f {
                        Flaw::Alternative {
                            ply,
                            mv,
                            mate,
                            last,
                        } => (
                            if *last {
                                "last_move_alternative"
                            } else {
                                "alternative"
                            },
                            Some(*ply),
                            Some(mv.to_usi()),
                            Some(*mate),
                        ),
                        Flaw::ShorterThanRecord { within, .. } => {
                            ("shorter_than_record", None, None, Some(*within))
                        }
                        Flaw::LongerThanRecord { exact, .. } => {
                            ("longer_than_record", None, None, Some(*exact as u32))
                        }
                        Flaw::PiecesLeft { .. } => ("pieces_left", None, None, None),
                    };
                    FlawRecord {
                        kind,
                        text: flaw_text(f),
                        ply,
                        mv,
                        mate,
                    }
                })
                .collect(),
            undecided: &self.undecided,
            not_checked: if mate { vec![NOT_CHECKED] } else { vec![] },
            nodes: self.nodes,
            time_ms: self.elapsed_ms,
        }
    }
}

/// One problem of the input: a file row (`id`, `sfen`, `expected`, tab-separated) or a position.
fn split_problem(text: &str, default_record: Option<usize>) -> (String, String, Option<usize>) {
    if text.contains('\t')
        && let Ok(p) = parse_row(text)
    {
        let record = match p.expected {
            Expected::Mate(n) => Some(n),
            _ => default_record,
        };
        return (p.id, p.sfen, record);
    }
    let t = text.trim().to_string();
    (t.clone(), t, default_record)
}

/// Checks one problem text with `solver`.
pub fn check_problem(
    solver: &mut CheckedSolver,
    text: &str,
    opts: &CheckOptions,
    stop: &std::sync::atomic::AtomicBool,
) -> CheckReport {
    let (name, sfen, record) = split_problem(text, opts.length);
    solver.set_futile(Futile::Skip);
    solver.set_pv_level(PvLevel::MinLength);
    // The phases after the proof without their node budgets (a share of the proof's nodes, which
    // `solve` keeps so that a line comes back soon): a composer wants the canonical length proven,
    // and the time limit bounds the check. On Zukou #3 the canonical length is proven in 11 M
    // nodes where the budgets stop at 0.7 M with it unproven (docs/benchmarks.md, *kanju check*).
    solver.set_config(SearchConfig {
        phase_budget_pct: 0,
        ..SearchConfig::default()
    });
    solver.set_check_alternatives(true);
    solver.set_threads(opts.threads);
    let limits = limits_from_ms(opts.time_ms, opts.nodes);
    let root = match read_problem(&sfen) {
        Ok(root) => root,
        Err(e) => {
            return CheckReport::empty(&name, Verdict::Error(e), record);
        }
    };
    solver.clear();
    let report = solver.solve(&root, &limits, stop, &mut |_| {});
    composer_report(&name, &root, &report, record)
}

/// `kanju check`: every problem (arguments: a SFEN or a problem file each; none: lines of `input`),
/// one report each in input order. Returns false if any report is an error.
pub fn run_check(
    args: &[String],
    opts: &CheckOptions,
    input: impl BufRead + Send + 'static,
    out: &mut impl Write,
) -> io::Result<bool> {
    let mut texts: Vec<String> = vec![];
    for a in args {
        let path = std::path::Path::new(a);
        if path.is_file() {
            let bytes = super::problems::read_limited(path)
                .map_err(|e| io::Error::new(e.kind(), format!("{a}: {e}")))?;
            texts.extend(
                String::from_utf8_lossy(&bytes)
                    .lines()
                    .filter(|l| super::solve::is_problem_line(l))
                    .map(str::to_string),
            );
        } else {
            texts.push(a.clone());
        }
    }
    let source: Box<dyn Iterator<Item = io::Result<String>> + Send> = if args.is_empty() {
        Box::new(input.lines().filter(|l| {
            l.as_ref()
                .map_or(true, |l| super::solve::is_problem_line(l))
        }))
    } else {
        Box::new(texts.into_iter().map(Ok))
    };
    let progress = Progress::new(ProgressMode::Off, StatusLines::EVERY, None);
    let mut all_ok = true;
    batch::run(
        source,
        (opts.jobs, opts.hash_mb),
        &progress,
        |solver, text, stop| {
            let report = check_problem(solver, text, opts, stop);
            if opts.json {
                let line = serde_json::to_string(&report.record()).unwrap_or_else(|e| {
                    format!("{{\"problem\":\"?\",\"verdict\":\"error\",\"summary\":\"{e}\"}}")
                });
                (
                    format!("{line}\n"),
                    !matches!(report.verdict, Verdict::Error(_)),
                )
            } else {
                (report.text(), !matches!(report.verdict, Verdict::Error(_)))
            }
        },
        |(text, ok): (String, bool)| {
            all_ok &= ok;
            out.write_all(text.as_bytes())?;
            out.flush()
        },
        || false,
    )?;
    Ok(all_ok)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    fn opts(length: Option<usize>) -> CheckOptions {
        CheckOptions {
            time_ms: 0,
            nodes: Some(1_000_000),
            hash_mb: 16,
            jobs: 1,
            threads: 1,
            length,
            json: false,
        }
    }

    fn check(text: &str, length: Option<usize>) -> CheckReport {
        let mut solver = CheckedSolver::new(16);
        check_problem(&mut solver, text, &opts(length), &AtomicBool::new(false))
    }

    /// A mate in 3 with one solution and nothing left in hand: no flaw, nothing undecided.
    const SOUND3: &str = "9/8k/9/7RG/9/9/9/9/9 b r2b3g4s4n4l18p 1";

    #[test]
    fn a_sound_problem_reports_no_flaw() {
        let r = check(SOUND3, Some(3));
        assert_eq!(r.verdict, Verdict::Mate);
        assert_eq!(usi_moves(&r.line), "1d2c 1b2a 2c2b");
        assert!(r.exact);
        assert_eq!(r.flaws, []);
        assert_eq!(r.undecided, Vec::<String>::new());
        assert_eq!(r.summary(), "sound");
    }

    /// The same with a silver in hand: three other first moves mate in 3 (余詰), a silver drop mates
    /// at the last move too (最終手余詰), and the silver is left over (駒余り).
    #[test]
    fn planted_alternatives_and_a_piece_left_over() {
        let r = check("9/8k/9/7RG/9/9/9/9/9 b Sr2b3g3s4n4l18p 1", None);
        assert_eq!(r.line.len(), 3);
        let firsts: Vec<String> = r
            .flaws
            .iter()
            .filter_map(|f| match f {
                Flaw::Alternative {
                    ply: 1,
                    mv,
                    mate: 3,
                    last: false,
                } => Some(mv.to_usi()),
                _ => None,
            })
            .collect();
        assert_eq!(firsts, ["2d2c+", "S*1c", "S*2c"]);
        assert!(r.flaws.iter().any(|f| matches!(
            f,
            Flaw::Alternative {
                ply: 3,
                mate: 1,
                last: true,
                ..
            }
        )));
        assert!(
            r.flaws
                .iter()
                .any(|f| matches!(f, Flaw::PiecesLeft { hand } if format!("{hand:?}") == "S"))
        );
        assert_eq!(r.summary(), "flaws found: 余詰 ×3, 最終手余詰, 駒余り");
    }

    /// Against a record of 5 plies the mate in 3 is 早詰; against 1 it is longer than the record
    /// (proven: the line is exact). A file row's `mate:N` is the record.
    #[test]
    fn shorter_and_longer_than_the_record() {
        let r = check(SOUND3, Some(5));
        assert_eq!(
            r.flaws,
            [Flaw::ShorterThanRecord {
                within: 3,
                record: 5
            }]
        );
        let r = check(SOUND3, Some(1));
        assert_eq!(
            r.flaws,
            [Flaw::LongerThanRecord {
                exact: 3,
                record: 1
            }]
        );
        let r = check(&format!("p1\t{SOUND3}\tmate:7"), Some(3));
        assert_eq!(r.name, "p1");
        assert_eq!(r.record, Some(7));
        assert_eq!(r.summary(), "flaws found: 早詰");
    }

    /// A mate in 1 with a pawn to spare: 駒余り only.
    #[test]
    fn a_piece_left_in_hand() {
        let r = check("9/7Sk/1+R7/9/9/9/9/9/9 b Pr2b4g3s4n4l17p 1", Some(1));
        assert_eq!(r.summary(), "flaws found: 駒余り");
        assert!(r.text().contains("駒余り: P left in hand at the end"));
    }

    /// No mate, a refused position, and a node limit that leaves the question open: no flaw is
    /// claimed for any of them.
    #[test]
    fn no_mate_refused_and_undecided() {
        let r = check("4k4/9/9/9/9/9/9/9/9 b - 1", None);
        assert_eq!(
            (r.verdict.clone(), r.summary()),
            (Verdict::NoMate, "no mate".into())
        );
        let r = check("not a position", None);
        assert!(matches!(r.verdict, Verdict::Error(_)));
        let mut solver = CheckedSolver::new(16);
        let zukou1 = "1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N6 b SP2gn2l11p 1";
        let few = CheckOptions {
            nodes: Some(1_000),
            ..opts(None)
        };
        let r = check_problem(&mut solver, zukou1, &few, &AtomicBool::new(false));
        assert_eq!(r.verdict, Verdict::Undecided);
        assert_eq!(r.flaws, []);
        assert_eq!(r.summary(), "undecided");
    }
}
