//! The composer's report on one problem, built from one checked solve's answer (`checked.rs`, solved
//! with `CheckedSolver::set_composer_check`): the verdict, the flaws (each a proven fact), what the
//! limits left undecided, and the one-line summary. `kanju check` writes it as text, JSON or KIF
//! (`cli/check.rs`); the USI option `ComposerReport` as `info string` lines (`usi/job.rs`).

use crate::checked::{Answer, Report, usi_moves};
use crate::position::{Hand, Move, Position};
use crate::search::Variation;

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
    /// 変長: after the defender's `reply` at ply `ply` (the line's reply replaced), no mate within
    /// the `rest` plies the line has left; the attacker mates in `mate` (`exact`: no sooner), with
    /// `spare` in hand at the end of that variation; `spared`: a spare test proved that the attacker
    /// can also mate with pieces to spare after it (`Variation::spared`).
    LongerVariation {
        ply: u32,
        reply: Move,
        mate: u32,
        exact: bool,
        rest: u32,
        spare: Hand,
        spared: bool,
    },
    /// 変化別詰: after the defender's `reply` at ply `ply`, the variation's shortest mate takes
    /// `mate` plies, and the attacker's `mv` (not the variation's first move) mates within them too.
    VariationAlternative {
        ply: u32,
        reply: Move,
        mv: Move,
        mate: u32,
    },
    /// The composer's line given to check is not a mating line (an illegal move, a move that does
    /// not check or evade, or no mate at its end); the report is on kanju's own line.
    GivenLineFails,
}

/// A defender's drop along the line that lasts longer than the line's own reply by exactly the two
/// plies of its capture: the attacker takes the dropped piece at once and then mates in as many
/// plies as the line has left. Composers do not count such a drop (無駄合, a futile interposition:
/// "futile when, once captured, the mate takes no more moves than it would without the drop"), so
/// it is no 変長; the report lists it apart (`futile_by_composers`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FutileDrop {
    /// The ply of the line's reply it replaces, counted from 1.
    pub ply: u32,
    pub reply: Move,
    /// Plies the line has left after its own reply.
    pub rest: u32,
}

impl FutileDrop {
    /// Plies to mate after the drop: the line's `rest` and the two of the capture.
    pub fn mate(&self) -> u32 {
        self.rest + 2
    }
}

/// Whether the variation `var` (which lasts longer than the `rest` plies the line has left) is a
/// futile drop by the composers' reading (`FutileDrop`). Its length is then exact even when `var`
/// is not called so: "no mate within `rest`" is proven, and mates from the drop's child have odd
/// lengths as `rest` does, so a mate within `rest` + 2 is a mate in exactly that.
fn futile_by_composers(var: &Variation, rest: u32) -> bool {
    var.reply.is_drop()
        && var.mate == rest + 2
        && var.line.first().is_some_and(|m| m.to() == var.reply.to())
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
    /// A line was given to check: the report is on it (`true`), or it was refused and the report is
    /// on kanju's own line (`false`).
    pub given: Option<bool>,
    pub flaws: Vec<Flaw>,
    /// What the limits left open (the line not proven exact, the alternatives not all tested, the
    /// record neither confirmed nor refuted).
    pub undecided: Vec<String>,
    /// The defender's other replies along the line, each with its mate (searched when the line's
    /// length is proven; `Variations::complete` false if the limits cut the search short).
    pub variations: Vec<Variation>,
    /// Drops along the line that last longer only by their own capture (無駄合 by the composers'
    /// reading): listed, not flaws.
    pub futile_drops: Vec<FutileDrop>,
    pub nodes: u64,
    pub elapsed_ms: u64,
    /// The problem's position, when it was read (for the KIF).
    pub root: Option<Position>,
}

/// What this report never examines (module comment).
pub const NOT_CHECKED: &str =
    "other mating moves inside a variation past its first attacker move (変化別詰 deeper in)";

/// The report on `root` from its solve's `report` (solved with `Futile::Skip`, `MinLength` and the
/// alternatives), against the recorded length `record`.
pub fn composer_report(
    name: &str,
    root: &Position,
    report: &Report,
    record: Option<usize>,
) -> CheckReport {
    let mut out = CheckReport::empty(name, Verdict::Undecided, record);
    out.root = Some(root.clone());
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
    out.given = report.findings.given_line;
    if report.findings.given_line == Some(false) {
        out.flaws.push(Flaw::GivenLineFails);
    }
    // The alternatives' search cuts lines back to the line's positions, which hides nothing when
    // every attacker move of the line is a shortest mate (`pv/alternatives.rs`): a given line that
    // is not the minimax line may waste attacker moves, and a mate that passes back through one of
    // its positions could then fit the plies asked.
    if report.findings.given_line == Some(true) && !report.findings.exact {
        out.undecided.push(
            "other mating moves that pass back through the given line's positions (it is not the minimax line)"
                .into(),
        );
    }
    let len = line.len();
    // The length is proven when the line is exact, or when it is as long as the proven minimax
    // length (the composers' ranking chose among defences that long). A ranked line shorter than
    // that takes a defence the ranking prefers (no 駒余り after it): `ranked_below`.
    match (report.findings.exact, report.findings.mate_bound) {
        (true, _) => out.exact = true,
        (false, Some(b)) if report.findings.mate_bound_exact => {
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
    match &report.findings.alternatives {
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
        let bound = report.findings.mate_bound.unwrap_or(len as u32) as usize;
        if bound < record {
            out.flaws.push(Flaw::ShorterThanRecord {
                within: bound as u32,
                record,
            });
        } else if len > record {
            if report.findings.mate_bound_exact {
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
    // The defender's other replies (`pv/variations.rs`): 変長 and 変化別詰, each a completed search.
    match &report.findings.variations {
        Some(v) => {
            for var in &v.found {
                let rest = len as u32 - var.ply;
                if var.longer && futile_by_composers(var, rest) {
                    out.futile_drops.push(FutileDrop {
                        ply: var.ply,
                        reply: var.reply,
                        rest,
                    });
                } else if var.longer {
                    let mut end = root.clone();
                    let played = line[..var.ply as usize - 1].iter();
                    for &m in played.chain([var.reply].iter()).chain(var.line.iter()) {
                        end.do_move(m);
                    }
                    out.flaws.push(Flaw::LongerVariation {
                        ply: var.ply,
                        reply: var.reply,
                        mate: var.mate,
                        exact: var.exact,
                        rest,
                        spare: end.hand(attacker),
                        spared: var.spared,
                    });
                }
                // A second mate at a variation's last move is no flaw to anyone (the JSON's
                // `variations` still lists it).
                for o in var.others.iter().filter(|_| var.mate > 1) {
                    out.flaws.push(Flaw::VariationAlternative {
                        ply: var.ply,
                        reply: var.reply,
                        mv: o.mv,
                        mate: o.mate,
                    });
                }
            }
            out.variations = v.found.clone();
            if !v.undecided.is_empty() {
                let replies: Vec<String> = v
                    .undecided
                    .iter()
                    .map(|(ply, r)| format!("{} at ply {ply}", r.to_usi()))
                    .collect();
                out.undecided.push(format!(
                    "the replies {} (each stopped by its node cap)",
                    replies.join(", ")
                ));
            }
            if !v.complete {
                out.undecided.push(
                    "the defender's other replies past the point the limits stopped the search"
                        .into(),
                );
            }
        }
        None => out
            .undecided
            .push("the defender's other replies (not searched)".into()),
    }
    out
}

impl CheckReport {
    /// A report with `verdict` and nothing else found yet.
    pub fn empty(name: &str, verdict: Verdict, record: Option<usize>) -> CheckReport {
        CheckReport {
            name: name.to_string(),
            verdict,
            line: vec![],
            exact: false,
            ranked_below: None,
            record,
            given: None,
            flaws: vec![],
            undecided: vec![],
            variations: vec![],
            futile_drops: vec![],
            nodes: 0,
            elapsed_ms: 0,
            root: None,
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
        // Only lesser flaws (最終手余詰, 変化別詰): sound by the composers' conventions, said so.
        let lesser = self.flaws.iter().all(Flaw::is_lesser);
        let mut s = match (&self.verdict, flaws.is_empty(), self.undecided.is_empty()) {
            (Verdict::Error(e), ..) => format!("error: {e}"),
            (Verdict::NoMate, ..) => "no mate".to_string(),
            (Verdict::Undecided, ..) => "undecided".to_string(),
            (Verdict::Mate, true, true) => "sound".to_string(),
            (Verdict::Mate, false, true) if lesser => {
                format!("sound, lesser flaws: {}", flaws.join(", "))
            }
            (Verdict::Mate, false, false) if lesser => format!(
                "no flaw found but lesser ones ({}), some questions undecided",
                flaws.join(", ")
            ),
            (Verdict::Mate, false, _) => format!("flaws found: {}", flaws.join(", ")),
            (Verdict::Mate, true, false) => "no flaw found, some questions undecided".to_string(),
        };
        if self.verdict == Verdict::Mate && !lesser && !self.undecided.is_empty() {
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
            let whose = if self.given == Some(true) {
                "line (given)"
            } else {
                "line"
            };
            t.push_str(&format!("  {whose} {}\n", usi_moves(&self.line)));
        }
        for f in &self.flaws {
            t.push_str(&format!("  {}\n", flaw_text(f)));
        }
        for d in &self.futile_drops {
            t.push_str(&format!("  {}\n", futile_drop_text(d)));
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

impl Flaw {
    /// A flaw composers accept in a published work: another mate at the line's last move
    /// (最終手余詰), a second way to mate inside a variation (変化別詰), or a longer variation that
    /// ends with pieces in hand, or after which a mate with pieces to spare is proven (変長駒余り:
    /// the composers' ranking puts such a defence below the main line, whatever its length — the
    /// reading `canonical/ranking.rs` takes).
    pub fn is_lesser(&self) -> bool {
        match self {
            Flaw::Alternative { last, .. } => *last,
            Flaw::VariationAlternative { .. } => true,
            Flaw::LongerVariation { spare, spared, .. } => !spare.is_empty() || *spared,
            _ => false,
        }
    }
}

fn flaw_name(f: &Flaw) -> String {
    match f {
        Flaw::Alternative { last: true, .. } => "最終手余詰".into(),
        Flaw::Alternative { .. } => "余詰".into(),
        Flaw::ShorterThanRecord { .. } => "早詰".into(),
        Flaw::LongerThanRecord { .. } => "longer than the record".into(),
        Flaw::PiecesLeft { .. } => "駒余り".into(),
        Flaw::LongerVariation { spare, spared, .. } if !spare.is_empty() || *spared => {
            "変長駒余り".into()
        }
        Flaw::LongerVariation { .. } => "変長".into(),
        Flaw::VariationAlternative { .. } => "変化別詰".into(),
        Flaw::GivenLineFails => "the given line does not mate".into(),
    }
}

/// The report's line for a drop that is no 変長 by the composers' reading.
pub fn futile_drop_text(d: &FutileDrop) -> String {
    format!(
        "無駄合 (not counted): at ply {} the drop {} is taken at once and mated in {}, the line's {} plies and the two of the capture",
        d.ply,
        d.reply.to_usi(),
        d.mate(),
        d.rest
    )
}

pub fn flaw_text(f: &Flaw) -> String {
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
            format!(
                "早詰: a forced mate within {within} plies (futile interpositions not counted), the record says {record}"
            )
        }
        Flaw::LongerThanRecord { exact, record } => format!(
            "longer than the record: no mate within {record} plies against every defence, the shortest takes {exact}: the record takes a shorter defence (one after which the attacker mates with pieces to spare, by the composers' ranking, or a 変長) or the diagram differs"
        ),
        Flaw::PiecesLeft { hand } => format!("駒余り: {hand:?} left in hand at the end"),
        Flaw::LongerVariation {
            ply,
            reply,
            mate,
            exact,
            rest,
            spare,
            spared,
        } => {
            let mate = if *exact {
                format!("mates in {mate}")
            } else {
                format!("mates within {mate}")
            };
            let spare = match (spare.is_empty(), spared) {
                (false, _) => format!(", {spare:?} left in hand"),
                (true, true) => ", and can mate with pieces to spare".to_string(),
                (true, false) => String::new(),
            };
            let what = flaw_name(f);
            format!(
                "{what}: at ply {ply} the reply {} lasts longer than the line's {rest} plies: the attacker {mate}{spare}",
                reply.to_usi()
            )
        }
        Flaw::VariationAlternative {
            ply,
            reply,
            mv,
            mate,
        } => format!(
            "変化別詰: after the reply {} at ply {ply}, {} also mates in {mate}",
            reply.to_usi(),
            mv.to_usi()
        ),
        Flaw::GivenLineFails => "the given line does not mate (an illegal move, a move that neither checks nor evades, or no mate at its end): the report is on kanju's own line".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Alternatives, Variations};
    use std::time::Duration;

    /// The report on a hand-made answer: the line 9i9a+ G*6a 5c5b (white's king on 5a), and at ply 2
    /// other drops whose variations the search says last longer than the line's one ply left.
    fn report_with(variations: Vec<(&str, u32, &str)>) -> CheckReport {
        let root = Position::from_sfen("4k4/9/4G4/9/9/9/9/9/R8 b r2b3g4s4n4l18p 1").unwrap();
        let mut pos = root.clone();
        let mut line = vec![];
        for m in ["9i9a+", "G*6a", "5c5b"] {
            let mv = pos.parse_usi_move(m).unwrap();
            pos.do_move(mv);
            line.push(mv);
        }
        let mut after = root.clone();
        after.do_move(line[0]);
        let found = variations
            .into_iter()
            .map(|(reply, mate, first)| {
                let reply = after.parse_usi_move(reply).unwrap();
                let mut child = after.clone();
                child.do_move(reply);
                let first = child.parse_usi_move(first).unwrap();
                Variation {
                    ply: 2,
                    reply,
                    mate,
                    exact: true,
                    longer: true,
                    spared: false,
                    others: vec![],
                    line: vec![first],
                }
            })
            .collect();
        let mut report = Report::error(String::new(), Duration::ZERO);
        report.answer = Answer::Mate(line);
        report.findings.exact = true;
        report.findings.alternatives = Some(Alternatives {
            found: vec![],
            complete: true,
        });
        report.findings.variations = Some(Variations {
            found,
            undecided: vec![],
            complete: true,
        });
        composer_report("test", &root, &report, None)
    }

    /// A drop taken at once whose mate is the line's rest and the two plies of the capture is
    /// listed as 無駄合, no flaw; one mated later, or not taken at once, is 変長 (駒余り here: the
    /// silver taken stays in hand after the one-move variation lines of this hand-made answer).
    #[test]
    fn a_drop_longer_only_by_its_capture_is_no_longer_variation() {
        let r = report_with(vec![("S*7a", 3, "9a7a")]);
        assert!(r.flaws.is_empty(), "{:?}", r.flaws);
        assert_eq!(r.futile_drops.len(), 1);
        assert_eq!((r.futile_drops[0].mate(), r.futile_drops[0].rest), (3, 1));
        assert_eq!(r.summary(), "sound");
        assert!(
            r.text()
                .contains("無駄合 (not counted): at ply 2 the drop S*7a")
        );
        let json = serde_json::to_string(&r.record()).unwrap();
        assert!(json.contains("\"futile_drops\":[{\"ply\":2,\"reply\":\"S*7a\""));

        for (reply, mate, first) in [("S*7a", 5, "9a7a"), ("S*7a", 3, "9a9b")] {
            let r = report_with(vec![(reply, mate, first)]);
            assert!(r.futile_drops.is_empty(), "{reply} {mate} {first}");
            assert!(
                matches!(r.flaws[..], [Flaw::LongerVariation { mate: m, rest: 1, .. }] if m == mate),
                "{:?}",
                r.flaws
            );
        }
    }
}
