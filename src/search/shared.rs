//! What every searcher of one solve shares: the table, the switches, the user's limits and `stop`,
//! the clock, and the problem. Nothing in it changes while the solve runs but through the table's
//! own methods and the atomics, so any number of searchers may hold it.

use super::config::SearchConfig;
use super::marks::Marks;
use super::outcome::SearchLimits;
use super::tt::Table;
use crate::position::{Color, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// The problem a solve searches: its root (a `problem_position`, whose defender has a king), who
/// attacks (the side to move, or the other side when the root is an AND node: `roles.rs`), and the
/// table salt of its main game.
pub struct Problem {
    pub root: Position,
    pub attacker: Color,
    /// Mixed into every table key of the main game: the attacker's colour and the material of the
    /// whole problem. Superiority compares attacker hands on one board, which is sound only while
    /// the board and the attacker's hand determine the defender's hand — true within one problem,
    /// not across problems that share the table (a game position with other hands, or the other
    /// side attacking).
    pub salt: u64,
}

impl Problem {
    pub fn new(root: Position, attacker: Color) -> Problem {
        let mut salt = 0x243f_6a88_85a3_08d3u64 ^ attacker as u64;
        for n in root.material_counts() {
            salt = (salt ^ u64::from(n))
                .wrapping_mul(0x1000_0000_01b3)
                .rotate_left(29);
        }
        Problem {
            root,
            attacker,
            salt,
        }
    }
}

/// The state every searcher of a solve reads.
pub struct Shared<'a> {
    pub table: &'a Table,
    pub config: &'a SearchConfig,
    pub limits: &'a SearchLimits,
    pub stop: &'a AtomicBool,
    /// When the solve began: the time limit and progress reports count from here.
    pub start: Instant,
    pub problem: Problem,
    /// Nodes earlier solves spent on this same root with this same table (`Solver`): the phases
    /// after the proof take their budgets from all the work behind the answer, so that asking again
    /// does not give the line less search than the first time (the proof, found in the table, costs
    /// next to nothing then).
    pub prior_nodes: u64,
    /// Searchers of the proof (`parallel.rs`); 1: the searcher alone.
    pub threads: usize,
    /// The nodes every searcher has reported so far (each adds its own at its polls,
    /// `Searcher::report_nodes`): what the user's node limit counts.
    pub nodes: AtomicU64,
    /// Some searcher of the parallel proof decided the root: the others stop (`parallel.rs`).
    pub proof_done: AtomicBool,
    /// The searchers' marks of the nodes they are in (`marks.rs`), with more than one searcher.
    pub marks: Option<&'a Marks>,
}

impl<'a> Shared<'a> {
    pub fn new(
        table: &'a Table,
        config: &'a SearchConfig,
        limits: &'a SearchLimits,
        stop: &'a AtomicBool,
        problem: Problem,
    ) -> Shared<'a> {
        Shared {
            table,
            config,
            limits,
            stop,
            start: Instant::now(),
            problem,
            prior_nodes: 0,
            threads: 1,
            nodes: AtomicU64::new(0),
            proof_done: AtomicBool::new(false),
            marks: None,
        }
    }

    /// With `threads` searchers (at least 1), and with several the marks they share (every mark
    /// made is taken back, so one set serves solve after solve).
    pub fn with_threads(mut self, threads: usize, marks: &'a Marks) -> Shared<'a> {
        self.threads = threads.max(1);
        self.marks = (self.threads > 1).then_some(marks);
        self
    }

    /// Whether `stop` or the user's limits say the search must end, `nodes` searched so far by every
    /// searcher.
    #[inline]
    pub fn user_limit_reached(&self, nodes: u64) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.proof_done.load(Ordering::Relaxed)
            || self.limits.nodes.is_some_and(|n| nodes >= n)
            || self.limits.time.is_some_and(|t| self.start.elapsed() >= t)
    }

    /// Whether one `part`-th of each of the user's limits (time and nodes, `nodes` searched so far)
    /// is left: work that only refines an answer already found begins only then, so that what
    /// follows it keeps some of the time.
    pub fn limits_left(&self, nodes: u64, part: u32) -> bool {
        self.limits
            .nodes
            .is_none_or(|n| n.saturating_sub(nodes) >= n / u64::from(part))
            && self
                .limits
                .time
                .is_none_or(|t| t.saturating_sub(self.start.elapsed()) >= t / part)
    }

    /// Whether `stop` or the time limit say the search must end, or another searcher decided the
    /// root of the parallel proof (the cheap check made between the full polls, `dfpn/limits.rs`).
    #[inline]
    pub fn stopped_or_out_of_time(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.proof_done.load(Ordering::Relaxed)
            || self.limits.time.is_some_and(|t| self.start.elapsed() >= t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// `limits_left`: a part of every limit the user set must be left; no limit, always.
    #[test]
    fn a_part_of_each_limit_left() {
        let (table, config, stop) = (
            Table::new(1),
            SearchConfig::default(),
            AtomicBool::new(false),
        );
        let root = Position::from_sfen("8k/9/9/9/9/9/9/9/9 b G 1").unwrap();
        let problem = || Problem::new(root.clone(), Color::Black);
        let none = SearchLimits::default();
        let shared = Shared::new(&table, &config, &none, &stop, problem());
        assert!(shared.limits_left(u64::MAX, 4));
        let nodes = SearchLimits {
            nodes: Some(1_000),
            ..SearchLimits::default()
        };
        let shared = Shared::new(&table, &config, &nodes, &stop, problem());
        assert!(shared.limits_left(750, 4));
        assert!(!shared.limits_left(751, 4));
        assert!(!shared.limits_left(5_000, 4));
        let time = SearchLimits {
            time: Some(Duration::from_secs(3_600)),
            ..SearchLimits::default()
        };
        let mut shared = Shared::new(&table, &config, &time, &stop, problem());
        assert!(shared.limits_left(0, 4));
        shared.start = Instant::now() - Duration::from_secs(2_701);
        assert!(!shared.limits_left(0, 4));
    }
}
