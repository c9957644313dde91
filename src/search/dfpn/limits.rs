//! A searcher's limits: the user's (time, nodes, `stop`) and its own node budget, polled on the
//! schedule of `budget.rs`; the budgets of the phases after the proof.

use super::{READING_NODES, Searcher};
use crate::search::budget::Due;
use crate::search::config::{PHASE_STEP_MIN_NODES, PHASE_STEP_MIN_NODES_UNLIMITED};
use std::sync::atomic::Ordering;

impl Searcher<'_> {
    /// At the entry of a node: polls the limits when due (sets `budget.aborted` when one is reached)
    /// and sends a progress report when one is due.
    #[inline(always)]
    pub(super) fn check_limits(&mut self) {
        match self.budget.due(self.stats.nodes) {
            Due::Nothing => {}
            Due::Clock => {
                self.report_nodes();
                if self.shared.stopped_or_out_of_time() {
                    self.budget.aborted = true;
                }
            }
            Due::Poll => {
                self.report_nodes();
                self.poll();
            }
        }
    }

    /// Adds the nodes searched since the last report to the solve's total.
    #[inline]
    pub fn report_nodes(&mut self) {
        let new = self.stats.nodes - self.budget.reported;
        if new > 0 {
            self.shared.nodes.fetch_add(new, Ordering::Relaxed);
            self.budget.reported = self.stats.nodes;
        }
    }

    /// Nodes searched so far by every searcher of the solve (this one's to the node).
    pub fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + (self.stats.nodes - self.budget.reported)
    }

    /// Polls every limit and reports progress if a report is due.
    fn poll(&mut self) {
        if self.limit_reached() {
            self.budget.aborted = true;
        }
        if self.report.due(self.shared.start.elapsed()) {
            let info = self.info();
            self.report.send(&info);
        }
    }

    /// Whether `stop` or the user's limits say the search must end.
    pub fn user_limit_reached(&self) -> bool {
        self.shared.user_limit_reached(self.total_nodes())
    }

    /// Whether `stop`, the user's limits or the node budget say the search must end.
    pub fn limit_reached(&self) -> bool {
        self.user_limit_reached() || self.budget.spent(self.total_nodes())
    }

    /// The smallest step of a phase after the proof: larger when the user set no limit at all
    /// (`SearchLimits::open_ended`, `PHASE_STEP_MIN_NODES_UNLIMITED`).
    fn phase_floor(&self) -> u64 {
        let l = self.shared.limits;
        if l.open_ended && l.time.is_none() && l.nodes.is_none() {
            PHASE_STEP_MIN_NODES_UNLIMITED
        } else {
            PHASE_STEP_MIN_NODES
        }
    }

    /// The node budget of one step of a phase after the proof, begun now (`SearchConfig::phase_step`).
    pub fn phase_step(&self) -> Option<u64> {
        let spent = self.total_nodes().saturating_add(self.shared.prior_nodes);
        self.config().phase_step(spent, self.phase_floor())
    }

    /// The node count at which a phase after the proof, begun now, stops
    /// (`SearchConfig::phase_budget`).
    pub fn phase_budget(&self) -> Option<u64> {
        let nodes = self.total_nodes();
        let spent = nodes.saturating_add(self.shared.prior_nodes);
        self.config().phase_budget(nodes, spent, self.phase_floor())
    }

    /// After a phase spent its node budget (and only its budget): a small one more, so that the line
    /// it proved can still be read (reading may search again where the table lost an entry).
    pub fn budget_for_reading(&mut self) {
        if self.budget.aborted && self.budget.end.is_some() && !self.user_limit_reached() {
            self.budget.aborted = false;
            self.budget.end = Some(self.total_nodes() + READING_NODES);
        }
    }

    /// Runs `f` within `cap` more nodes (and the node budget already set). Leaves `aborted` set only
    /// for a limit beyond the cap.
    pub fn within_cap<R>(&mut self, cap: u64, f: impl FnOnce(&mut Self) -> R) -> R {
        let saved = self.budget.end;
        self.budget.end = self.budget.capped(self.total_nodes(), cap);
        let r = f(self);
        self.budget.end = saved;
        if !self.limit_reached() {
            self.budget.aborted = false;
        }
        r
    }
}
