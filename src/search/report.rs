//! Where a searcher's progress reports go: the front end's callback, at the interval it asked for.

use super::numbers::PnDn;
use super::outcome::SearchInfo;
use std::time::Duration;

/// The sink of progress reports and when the next is due.
pub struct Reporter<'a> {
    sink: &'a mut dyn FnMut(&SearchInfo),
    interval: Option<Duration>,
    /// Elapsed time at which the next report is due.
    next: Duration,
    /// The root's last numbers (for the reports).
    pub root_numbers: (PnDn, PnDn),
}

impl<'a> Reporter<'a> {
    /// Reports to `sink` every `interval` (`None`: never).
    pub fn new(sink: &'a mut dyn FnMut(&SearchInfo), interval: Option<Duration>) -> Reporter<'a> {
        Reporter {
            sink,
            interval,
            next: interval.unwrap_or(Duration::MAX),
            root_numbers: (0, 0),
        }
    }

    /// Whether anyone wants reports.
    pub fn wanted(&self) -> bool {
        self.interval.is_some()
    }

    /// Whether a report is due at `elapsed`; if so, the next one is scheduled.
    #[inline]
    pub fn due(&mut self, elapsed: Duration) -> bool {
        if elapsed >= self.next
            && let Some(iv) = self.interval
        {
            self.next = elapsed + iv;
            return true;
        }
        false
    }

    pub fn send(&mut self, info: &SearchInfo) {
        (self.sink)(info);
    }
}
