//! The `--json` form of a composer's report: one object per problem.

use crate::composer::{CheckReport, Flaw, NOT_CHECKED, Verdict, flaw_text, futile_drop_text};
use serde::Serialize;

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
    /// `given` when the line is the one given to check, `refused` when that was no mating line
    /// (the line is kanju's own), absent when none was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_source: Option<&'static str>,
    pub pv: Vec<String>,
    pub flaws: Vec<FlawRecord>,
    pub undecided: &'a [String],
    /// The defender's other replies along the line, each with its mate.
    pub variations: Vec<VariationRecord>,
    /// Drops that last longer than the line only by their own capture (無駄合 by the composers'
    /// reading, `composer::FutileDrop`): not flaws.
    pub futile_drops: Vec<FutileDropRecord>,
    pub not_checked: Vec<&'static str>,
    pub nodes: u64,
    pub time_ms: u64,
}

/// One flaw in JSON: `kind` is `alternative`, `last_move_alternative`, `shorter_than_record`,
/// `longer_than_record`, `pieces_left`, `longer_variation` (変長: `move` is the defender's reply),
/// `variation_alternative` (変化別詰: `move` is the attacker's other mate after `reply`) or
/// `given_line_fails` (the composer's line given to check does not mate).
#[derive(Debug, Serialize)]
pub struct FlawRecord {
    pub kind: &'static str,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<u32>,
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub mv: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<u32>,
}

/// A drop that is no 変長 by the composers' reading (`CheckReport::futile_drops`).
#[derive(Debug, Serialize)]
pub struct FutileDropRecord {
    pub ply: u32,
    pub reply: String,
    /// Plies to mate after it: the line's `rest` + 2.
    pub mate: u32,
    pub rest: u32,
    pub text: String,
}

/// One defender reply other than the line's (`CheckReport::variations`).
#[derive(Debug, Serialize)]
pub struct VariationRecord {
    /// The ply of the line's reply it replaces, counted from 1.
    pub ply: u32,
    pub reply: String,
    /// Plies to mate after it (proven; the shortest if `exact`).
    pub mate: u32,
    pub exact: bool,
    /// 変長: it lasts longer than the line.
    pub longer: bool,
    /// A longer reply after which a mate with pieces to spare is proven (the composers' ranking
    /// puts it below the line: 変長駒余り).
    pub spared: bool,
    /// The variation's line after the reply.
    pub pv: Vec<String>,
    /// 変化別詰: the other first attacker moves that mate as soon.
    pub other_mates: Vec<String>,
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
            line_source: self.given.map(|g| if g { "given" } else { "refused" }),
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
                        Flaw::LongerVariation {
                            ply, reply, mate, ..
                        } => (
                            "longer_variation",
                            Some(*ply),
                            Some(reply.to_usi()),
                            Some(*mate),
                        ),
                        Flaw::VariationAlternative { ply, mv, mate, .. } => (
                            "variation_alternative",
                            Some(*ply),
                            Some(mv.to_usi()),
                            Some(*mate),
                        ),
                        Flaw::GivenLineFails => ("given_line_fails", None, None, None),
                    };
                    let reply = match f {
                        Flaw::VariationAlternative { reply, .. } => Some(reply.to_usi()),
                        _ => None,
                    };
                    FlawRecord {
                        kind,
                        reply,
                        text: flaw_text(f),
                        ply,
                        mv,
                        mate,
                    }
                })
                .collect(),
            undecided: &self.undecided,
            variations: self
                .variations
                .iter()
                .map(|v| VariationRecord {
                    ply: v.ply,
                    reply: v.reply.to_usi(),
                    mate: v.mate,
                    exact: v.exact,
                    longer: v.longer,
                    spared: v.spared,
                    pv: v.line.iter().map(|m| m.to_usi()).collect(),
                    other_mates: v.others.iter().map(|o| o.mv.to_usi()).collect(),
                })
                .collect(),
            futile_drops: self
                .futile_drops
                .iter()
                .map(|d| FutileDropRecord {
                    ply: d.ply,
                    reply: d.reply.to_usi(),
                    mate: d.mate(),
                    rest: d.rest,
                    text: futile_drop_text(d),
                })
                .collect(),
            not_checked: if mate { vec![NOT_CHECKED] } else { vec![] },
            nodes: self.nodes,
            time_ms: self.elapsed_ms,
        }
    }
}
