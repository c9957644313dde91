//! The engine's one output channel, shared by the command loop and the search thread, and the
//! formatting of `info` lines.

use crate::checked::{nps, push_escaped, usi_moves};
use crate::search::SearchInfo;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A line-oriented writer that flushes after every line (a GUI reads a pipe and must see each line at
/// once) and remembers when the reader has gone away.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
    broken: Arc<AtomicBool>,
    /// The file descriptor behind `sink`, when it is one (the process's stdout): its reader's going
    /// away is then seen without writing (`pipe::reader_gone`).
    fd: Option<i32>,
}

impl Output {
    pub fn new(sink: impl Write + Send + 'static) -> Output {
        Output {
            sink: Arc::new(Mutex::new(Box::new(sink))),
            broken: Arc::new(AtomicBool::new(false)),
            fd: None,
        }
    }

    /// The process's standard output, watched for its reader: a GUI that dies while a search prints
    /// nothing (`PvInterval 0`, `go mate infinite`) is noticed at once, not at the answer.
    pub fn stdout() -> Output {
        Output {
            fd: Some(1),
            ..Output::new(std::io::stdout())
        }
    }

    /// Writes one line. Errors are remembered, not raised: the GUI closing its end must not kill a
    /// search thread with a panic.
    pub fn line(&self, text: &str) {
        log::debug!("> {text}");
        // A poisoned lock only means another writer panicked mid-line; the sink itself is still usable.
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        if writeln!(sink, "{text}").and_then(|_| sink.flush()).is_err() {
            self.broken.store(true, Ordering::Relaxed);
        }
    }

    /// `info string error: …`, the USI way to tell the user something went wrong.
    pub fn error(&self, message: &str) {
        // Control characters are written escaped: messages quote input (a refused SFEN), and a raw
        // CR, ESC or NUL would end the line early or reach the GUI's terminal as a command.
        let mut line = String::from("info string error: ");
        push_escaped(&mut line, message.chars());
        self.line(&line);
    }

    /// True once a write failed (the GUI closed the pipe), or once the watched descriptor's reader is
    /// gone.
    pub fn is_broken(&self) -> bool {
        if self.broken.load(Ordering::Relaxed) {
            return true;
        }
        let gone = self.fd.is_some_and(crate::pipe::reader_gone);
        if gone {
            self.broken.store(true, Ordering::Relaxed);
        }
        gone
    }
}

/// Input text as an error message quotes it: control characters escaped, and cut after
/// `SHOWN_CHARS` characters (a megabyte of garbage is not echoed back in full).
pub fn shown(text: &str) -> String {
    let mut out = String::new();
    push_escaped(&mut out, text.chars().take(SHOWN_CHARS));
    if text.chars().nth(SHOWN_CHARS).is_some() {
        out.push('…');
    }
    out
}

const SHOWN_CHARS: usize = 80;

/// `info time … nodes … nps … hashfull … [score mate N] [pv …]` for a progress report (`score mate`
/// once the PV search has a proven length).
pub fn info_line(info: &SearchInfo) -> String {
    let mut s = format!(
        "info time {} nodes {} nps {} hashfull {}",
        info.elapsed.as_millis(),
        info.nodes,
        nps(info.nodes, info.elapsed),
        info.hashfull.min(1000)
    );
    if let Some(n) = info.score_mate {
        s.push_str(&format!(" score mate {n}"));
    }
    if !info.pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&usi_moves(&info.pv));
    }
    s
}

/// `info string root pn P dn D` while the proof is searched (no mate length yet): how far the root is
/// from a proof (pn) and from a disproof (dn). `string` must end a USI info line and `pv` runs to the
/// end of one, hence a line of its own.
pub fn root_numbers_line(info: &SearchInfo) -> Option<String> {
    // pn 0 with dn 0 is no node's numbers: the main search has not reported yet (the shortest-first
    // phase before it has no root numbers of its own).
    let known = info.root_pn != 0 || info.root_dn != 0;
    (info.score_mate.is_none() && known)
        .then(|| format!("info string root pn {} dn {}", info.root_pn, info.root_dn))
}

/// The closing `info time … nodes … nps …` printed just before a search's answer.
pub fn final_info_line(nodes: u64, elapsed: Duration) -> String {
    format!(
        "info time {} nodes {} nps {}",
        elapsed.as_millis(),
        nodes,
        nps(nodes, elapsed)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_input_is_escaped_and_cut() {
        assert_eq!(shown("gox"), "gox");
        assert_eq!(shown("a\0b\x1b"), "a\\u{0}b\\u{1b}");
        let long = "x".repeat(1_000_000);
        let s = shown(&long);
        assert_eq!(s.chars().count(), SHOWN_CHARS + 1);
        assert!(s.ends_with('…'));
    }
    use crate::position::Position;

    /// A `Write` whose bytes the test can read back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn writes_lines_and_errors() {
        let buf = Shared::default();
        let out = Output::new(buf.clone());
        out.line("usiok");
        out.error("oops");
        assert_eq!(
            String::from_utf8(buf.0.lock().unwrap().clone()).unwrap(),
            "usiok\ninfo string error: oops\n"
        );
        assert!(!out.is_broken());
    }

    #[test]
    fn formats_info() {
        let pos = Position::startpos();
        let m = pos.parse_usi_move("7g7f").unwrap();
        let info = SearchInfo {
            nodes: 5000,
            elapsed: Duration::from_millis(500),
            hashfull: 12,
            pv: vec![m],
            root_pn: 0,
            root_dn: 0,
            max_ply: 4000,
            gc_count: 0,
            gc_freed: 0,
            score_mate: None,
        };
        assert_eq!(
            info_line(&info),
            "info time 500 nodes 5000 nps 10000 hashfull 12 pv 7g7f"
        );
        let quiet = SearchInfo {
            pv: vec![],
            ..info.clone()
        };
        assert_eq!(
            info_line(&quiet),
            "info time 500 nodes 5000 nps 10000 hashfull 12"
        );
        let mate = SearchInfo {
            score_mate: Some(1),
            ..info.clone()
        };
        assert_eq!(
            info_line(&mate),
            "info time 500 nodes 5000 nps 10000 hashfull 12 score mate 1 pv 7g7f"
        );
        // The root's numbers: none before the main search has any (pn 0 with dn 0), none while the
        // line is shortened.
        assert_eq!(root_numbers_line(&info), None);
        let proving = SearchInfo {
            root_pn: 176,
            root_dn: 960,
            ..info.clone()
        };
        assert_eq!(
            root_numbers_line(&proving).as_deref(),
            Some("info string root pn 176 dn 960")
        );
        assert_eq!(root_numbers_line(&mate), None);
    }

    #[test]
    fn errors_escape_control_characters() {
        let buf = Shared::default();
        let out = Output::new(buf.clone());
        out.error("bad 'a\rb\x1b[2J'");
        assert_eq!(
            String::from_utf8(buf.0.lock().unwrap().clone()).unwrap(),
            "info string error: bad 'a\\rb\\u{1b}[2J'\n"
        );
    }
}
