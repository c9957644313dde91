//! The `kanju solve --json` record: one object per problem, written by `serde_json`.
//!
//! The field names and their order are part of kanju's interface (the README documents them):
//! scripts read them, so renaming one is a breaking change.

use crate::checked::{Answer, Report};
use serde::Serialize;

/// One line of `solve --json`.
#[derive(Debug, Serialize)]
pub struct SolveRecord<'a> {
    /// The input as given (trimmed).
    pub sfen: &'a str,
    /// `mate`, `nomate`, `timeout` or `error`.
    pub result: &'static str,
    /// Plies of the mate; `null` unless `result` is `mate`.
    pub length: Option<usize>,
    /// For a mate: the plies within which it is proven against every defence (an upper bound of the
    /// minimax length; `length` itself when `exact`, possibly more when the line is not proven
    /// shortest and its defender did not take the longest reply); `null` unless `result` is `mate`.
    pub bound: Option<u32>,
    /// The mating line in USI notation; empty unless `result` is `mate`.
    pub pv: Vec<String>,
    pub nodes: u64,
    pub time_ms: u64,
    /// Why the input was refused or the search failed; `null` unless `result` is `error`.
    pub error: Option<&'a str>,
    /// The mate's length is proven to be the minimax length (the default `--pv min-length` completed).
    pub exact: bool,
    /// Why the search gave up early, or why the line is not known to be the shortest; `null` if nothing.
    pub note: Option<&'a str>,
    /// Threads that searched the proof (`--threads`); 0 for a refused input.
    pub threads: usize,
    /// The side to move was in check and defended (`--in-check defend`): a mate is its being mated,
    /// and `pv` starts with its reply; absent otherwise.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub defends: bool,
    /// With `--futile skip`, for a mate: the canonical length (futile interpositions not counted; the
    /// `pv` is the canonical line); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub canonical_length: Option<u32>,
    /// With `--check-alternatives`, for a mate: the other attacker moves along the line that also mate
    /// within the plies left; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alternatives: Option<Vec<AlternativeRecord>>,
    /// With `--check-alternatives`, for a mate: whether every attacker move of the line was checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alternatives_complete: Option<bool>,
}

/// One alternative mating move (`alternatives`).
#[derive(Debug, Serialize)]
pub struct AlternativeRecord {
    /// The ply of the line's move it replaces, counted from 1.
    pub ply: u32,
    #[serde(rename = "move")]
    pub mv: String,
    /// Plies to mate after it (a proven length, at most the plies left).
    pub mate: u32,
}

impl<'a> SolveRecord<'a> {
    pub fn new(sfen: &'a str, report: &'a Report) -> SolveRecord<'a> {
        let (result, pv, error) = match &report.answer {
            Answer::Mate(line) => ("mate", line.iter().map(|m| m.to_usi()).collect(), None),
            Answer::NoMate => ("nomate", Vec::new(), None),
            Answer::Timeout => ("timeout", Vec::new(), None),
            Answer::Error(e) => ("error", Vec::new(), Some(e.as_str())),
        };
        SolveRecord {
            sfen,
            result,
            length: matches!(report.answer, Answer::Mate(_)).then_some(pv.len()),
            bound: report
                .findings
                .mate_bound
                .filter(|_| matches!(report.answer, Answer::Mate(_))),
            pv,
            nodes: report.nodes,
            time_ms: u64::try_from(report.elapsed.as_millis()).unwrap_or(u64::MAX),
            error,
            exact: report.findings.exact,
            note: report.findings.note.as_deref(),
            threads: report.threads,
            defends: report.defends,
            canonical_length: report.findings.canonical_length,
            alternatives: report.findings.alternatives.as_ref().map(|a| {
                a.found
                    .iter()
                    .map(|x| AlternativeRecord {
                        ply: x.ply,
                        mv: x.mv.to_usi(),
                        mate: x.mate,
                    })
                    .collect()
            }),
            alternatives_complete: report.findings.alternatives.as_ref().map(|a| a.complete),
        }
    }

    /// The record on one line (`serde_json` escapes every control character, so it cannot break).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a record of strings and numbers always serialises")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use std::time::Duration;

    fn report(answer: Answer) -> Report {
        Report {
            answer,
            nodes: 12,
            entries: 6,
            threads: 1,
            ..Report::error(String::new(), Duration::from_millis(3))
        }
    }

    #[test]
    fn keeps_the_documented_fields_in_order() {
        let r = report(Answer::Error("malformed SFEN: \"x\"\n".into()));
        assert_eq!(
            SolveRecord::new("x", &r).to_line(),
            r#"{"sfen":"x","result":"error","length":null,"bound":null,"pv":[],"nodes":12,"time_ms":3,"error":"malformed SFEN: \"x\"\n","exact":false,"note":null,"threads":1}"#
        );
        let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
        let m = pos.parse_usi_move("G*5b").unwrap();
        let mut r = report(Answer::Mate(vec![m]));
        r.findings.mate_bound = Some(1);
        assert_eq!(
            SolveRecord::new("詰\u{1}", &r).to_line(),
            "{\"sfen\":\"詰\\u0001\",\"result\":\"mate\",\"length\":1,\"bound\":1,\"pv\":[\"G*5b\"],\"nodes\":12,\"time_ms\":3,\"error\":null,\"exact\":false,\"note\":null,\"threads\":1}"
        );
        for (answer, word) in [(Answer::NoMate, "nomate"), (Answer::Timeout, "timeout")] {
            let r = report(answer);
            let v: serde_json::Value =
                serde_json::from_str(&SolveRecord::new("s", &r).to_line()).unwrap();
            assert_eq!(v["result"], word);
            assert!(v["length"].is_null() && v["error"].is_null());
        }
    }
}
