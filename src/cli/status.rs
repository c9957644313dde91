//! The running search's status for a person watching it: one line of text (`status_text`) beside
//! the progress bar on a terminal, or printed every so often (`StatusLines`) where there is no
//! terminal to redraw — a log file, `kanju bench --progress` over a long problem.

use crate::search::SearchInfo;
use std::io::{self, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The live status of one search: its nodes and speed, the table's fill and what garbage collection
/// freed, and where it stands — the root's proof and disproof numbers while proving, the best mate
/// length once the line is searched.
pub fn status_text(info: &SearchInfo) -> String {
    let secs = info.elapsed.as_secs_f64();
    let nps = if secs > 0.0 {
        info.nodes as f64 / secs
    } else {
        0.0
    };
    let stage = match info.score_mate {
        Some(n) => format!("mate in {n} or less, shortening"),
        // pn 0 with dn 0: the main search has not reported its root's numbers yet.
        None if info.root_pn == 0 && info.root_dn == 0 => "searching short mates first".to_string(),
        None if info.root_pn == 0 => "mate proven, reading the line".to_string(),
        None if info.root_dn == 0 => "no mate proven, checking".to_string(),
        None => format!("root pn {} dn {}", info.root_pn, info.root_dn),
    };
    let gc = match info.gc_count {
        0 => String::new(),
        1 => format!(", 1 GC freed {}", si(info.gc_freed as f64)),
        n => format!(", {n} GCs freed {}", si(info.gc_freed as f64)),
    };
    format!(
        "{} nodes, {}/s, table {:.1}% full{gc}, {stage}",
        si(info.nodes as f64),
        si(nps),
        f64::from(info.hashfull.min(1000)) / 10.0
    )
}

/// `1.2M`-style figures.
fn si(x: f64) -> String {
    match x {
        x if x >= 1e9 => format!("{:.1}G", x / 1e9),
        x if x >= 1e6 => format!("{:.1}M", x / 1e6),
        x if x >= 1e3 => format!("{:.1}k", x / 1e3),
        x => format!("{x:.0}"),
    }
}

/// Status lines on stderr, at most one per `every`: `kanju: [  12.0 s] zuko008: 24.1M nodes, …`.
/// Shared by the workers of a batch (each line names its problem).
pub struct StatusLines {
    every: Duration,
    /// When the last line was printed (`None`: none yet, the first waits `every` from the start).
    last: Mutex<Option<Instant>>,
    started: Instant,
}

impl StatusLines {
    /// How often a line is printed: often enough to see a long search move, rarely enough that a
    /// log of a night's bench stays readable.
    pub const EVERY: Duration = Duration::from_secs(10);

    pub fn new(every: Duration) -> StatusLines {
        StatusLines {
            every,
            last: Mutex::new(None),
            started: Instant::now(),
        }
    }

    /// The line for `info` of problem `name`, if one is due now (and then it counts as printed).
    pub fn due(&self, name: &str, info: &SearchInfo) -> Option<String> {
        let now = Instant::now();
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if now.duration_since(last.unwrap_or(self.started)) < self.every {
            return None;
        }
        *last = Some(now);
        Some(format!(
            "kanju: [{:7.1} s] {name}: {}",
            info.elapsed.as_secs_f64(),
            status_text(info)
        ))
    }

    /// Prints the line for `info` if one is due (ignored if stderr is closed: it is only a status).
    pub fn report(&self, name: &str, info: &SearchInfo) {
        if let Some(line) = self.due(name, info) {
            let _ = writeln!(io::stderr(), "{line}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info() -> SearchInfo {
        SearchInfo {
            nodes: 2_345_678,
            elapsed: Duration::from_secs(2),
            hashfull: 456,
            pv: vec![],
            root_pn: 12,
            root_dn: 3400,
            max_ply: 4000,
            gc_count: 0,
            gc_freed: 0,
            score_mate: None,
        }
    }

    #[test]
    fn status_says_where_the_search_stands() {
        let mut info = info();
        assert_eq!(
            status_text(&info),
            "2.3M nodes, 1.2M/s, table 45.6% full, root pn 12 dn 3400"
        );
        info.gc_count = 3;
        info.gc_freed = 1_500_000;
        assert_eq!(
            status_text(&info),
            "2.3M nodes, 1.2M/s, table 45.6% full, 3 GCs freed 1.5M, root pn 12 dn 3400"
        );
        info.root_pn = 0;
        info.root_dn = u32::MAX;
        assert_eq!(
            status_text(&info),
            "2.3M nodes, 1.2M/s, table 45.6% full, 3 GCs freed 1.5M, mate proven, reading the line"
        );
        info.score_mate = Some(611);
        info.elapsed = Duration::ZERO;
        info.gc_count = 0;
        assert_eq!(
            status_text(&info),
            "2.3M nodes, 0/s, table 45.6% full, mate in 611 or less, shortening"
        );
    }

    #[test]
    fn status_lines_come_at_most_once_per_interval() {
        let lines = StatusLines::new(Duration::from_millis(50));
        // Not before the first interval has passed.
        assert_eq!(lines.due("p", &info()), None);
        std::thread::sleep(Duration::from_millis(60));
        let line = lines.due("zuko008", &info()).expect("a line is due");
        assert_eq!(
            line,
            "kanju: [    2.0 s] zuko008: 2.3M nodes, 1.2M/s, table 45.6% full, root pn 12 dn 3400"
        );
        assert_eq!(lines.due("p", &info()), None, "one per interval");
    }
}
