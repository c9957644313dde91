//! What a search counts: one `Stats` per searcher, summed over the searchers of a solve.

use std::ops::AddAssign;

/// Counters of one searcher. `nodes` is also what node limits and phase budgets are measured in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes: every position whose moves the search generates (every entry of `mid`, every one-ply
    /// look of `Init::Look`, the frontier's).
    pub nodes: u64,
    /// Nodes expanded (`nodes` also counts the look-ahead's and the frontier's).
    pub expansions: u64,
    /// Mate-in-one probes (not counted as nodes).
    pub mate1_probes: u64,
    /// Children cut as inferior repetitions that are no exact repetition (`loops.rs`).
    pub inferior_cuts: u64,
    /// Unguarded drop interpositions deferred behind another defence (`Chains::defer`).
    pub deferred_drops: u64,
    /// Drop chains split behind a stalled head (`Chains::stall`).
    pub stalled_splits: u64,
    /// Guarded drops released from behind a deferred split-off head (`Chains::release`).
    pub released_drops: u64,
    /// Children counted with the pump cost (`loops.rs`).
    pub pump_children: u64,
}

impl AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.nodes += o.nodes;
        self.expansions += o.expansions;
        self.mate1_probes += o.mate1_probes;
        self.inferior_cuts += o.inferior_cuts;
        self.deferred_drops += o.deferred_drops;
        self.stalled_splits += o.stalled_splits;
        self.released_drops += o.released_drops;
        self.pump_children += o.pump_children;
    }
}
