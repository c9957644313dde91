//! A searcher's node budget and the schedule on which it looks at its limits.

/// Limits are polled every this many nodes. The node budgets of the phases after the proof are
/// checked only here, so it fixes where a budgeted phase ends: changing it changes lines.
pub const POLL_INTERVAL: u64 = 1024;

/// `stop` and the time limit are looked at every this many nodes besides: 1 024 nodes can take a
/// long while where each node faults in a new page of a large table. Neither is deterministic, so
/// looking more often changes nothing a node count decides. (A clock read costs far less than a
/// node.)
pub const CLOCK_INTERVAL: u64 = 64;

/// What a searcher may still spend, and whether it must stop.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// A node count at which the search stops, besides the user's limits (a phase's or a test's),
    /// in the nodes of every searcher of the solve (`Searcher::total_nodes`): helpers spend a
    /// phase's budget with the searcher they help.
    pub end: Option<u64>,
    /// A limit was reached: every node on the path returns as soon as it can.
    pub aborted: bool,
    /// The node count at which the limits are next polled (`POLL_INTERVAL`).
    next_poll: u64,
    /// The node count at which `stop` and the clock are next looked at (`CLOCK_INTERVAL`).
    next_clock: u64,
    /// The searcher's nodes already added to the solve's total (`Shared::nodes`).
    pub reported: u64,
}

/// What is due at a node (`Budget::due`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Due {
    Nothing,
    /// `stop` and the clock.
    Clock,
    /// Every limit, and a progress report if one is due.
    Poll,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            end: None,
            aborted: false,
            next_poll: POLL_INTERVAL,
            next_clock: CLOCK_INTERVAL,
            reported: 0,
        }
    }
}

impl Budget {
    /// What is due now, `nodes` searched, and the next time each is due. The full poll comes at
    /// the same node counts as it would without the clock's looks in between, which never move
    /// `next_poll` (the count may jump past both marks: the frontier counts its nodes too).
    #[inline(always)]
    pub fn due(&mut self, nodes: u64) -> Due {
        if nodes >= self.next_poll {
            self.next_clock = nodes + CLOCK_INTERVAL;
            self.next_poll = nodes + POLL_INTERVAL;
            Due::Poll
        } else if nodes >= self.next_clock {
            self.next_clock = nodes + CLOCK_INTERVAL;
            Due::Clock
        } else {
            Due::Nothing
        }
    }

    /// Whether the node budget is spent, `nodes` searched.
    #[inline]
    pub fn spent(&self, nodes: u64) -> bool {
        self.end.is_some_and(|n| nodes >= n)
    }

    /// A budget ending `cap` nodes after `nodes`, or at this one's end if that comes first.
    pub fn capped(&self, nodes: u64, cap: u64) -> Option<u64> {
        let end = nodes.saturating_add(cap);
        Some(self.end.map_or(end, |b| b.min(end)))
    }
}
