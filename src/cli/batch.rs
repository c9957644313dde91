//! Many problems on several threads, answers in input order: the engine of `kanju solve --jobs N`.
//!
//! Three kinds of thread. A *feeder* reads the problem texts (stdin may be a slow pipe) and hands
//! them out numbered; *workers*, each with a solver and table of its own on a search-sized stack,
//! solve them in whatever order they finish; the calling thread puts the answers back in input order
//! and emits each as soon as every earlier one has been emitted. A failed write (the reader of stdout
//! went away) stops everything promptly: running searches are stopped, and the feeder is not waited
//! for, since it may be blocked on a terminal that never sends another line.

use super::status::{StatusLines, status_text};
use crate::checked::CheckedSolver;
use crate::search::{SEARCH_STACK_BYTES, SearchInfo};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::BTreeMap;
use std::io::{self, IsTerminal};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How often the collector, waiting for answers, asks whether the output's reader is still there.
const WATCH_INTERVAL: Duration = Duration::from_millis(50);

/// How often an idle worker looks at the stop flag while it waits for the feeder.
const IDLE_POLL: Duration = Duration::from_millis(50);

/// What the feeder and the workers tell the calling thread.
enum Event<T> {
    /// Problem `index` is answered.
    Done(usize, T),
    /// Problem `index` made its worker panic (outside the search, which `CheckedSolver` guards).
    Panicked(usize),
    /// The input ended after this many problems.
    End(usize),
    /// Reading the input failed.
    ReadFailed(io::Error),
}

/// When `kanju solve` shows the running search's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// Never (`--no-progress`).
    Off,
    /// A bar when stderr is a terminal, nothing otherwise: a log file or a pipe stays clean (the
    /// default).
    Auto,
    /// A bar when stderr is a terminal, else a status line every `StatusLines::EVERY`, so that a
    /// long solve logged to a file shows it moves (`--progress`).
    On,
}

/// The running search's status on stderr: a progress bar on a terminal, or status lines.
pub struct Progress {
    bar: ProgressBar,
    lines: Option<StatusLines>,
}

impl Progress {
    /// `total`: the number of problems when known in advance (arguments); from stdin the bar's length
    /// grows as lines are read.
    /// `every`: the time between status lines.
    pub fn new(mode: ProgressMode, every: Duration, total: Option<usize>) -> Progress {
        let hidden = || Progress {
            bar: ProgressBar::hidden(),
            lines: None,
        };
        match mode {
            ProgressMode::Off => return hidden(),
            ProgressMode::On if !io::stderr().is_terminal() => {
                return Progress {
                    lines: Some(StatusLines::new(every)),
                    ..hidden()
                };
            }
            ProgressMode::Auto if !io::stderr().is_terminal() => return hidden(),
            _ => {}
        }
        let bar = ProgressBar::with_draw_target(
            Some(total.unwrap_or(0) as u64),
            ProgressDrawTarget::stderr(),
        );
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} solved, eta {eta}  {msg}",
            )
            .expect("a valid template"),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress { bar, lines: None }
    }

    /// Whether the status is shown (progress reports are then worth asking the search for).
    pub fn visible(&self) -> bool {
        !self.bar.is_hidden() || self.lines.is_some()
    }

    /// Shows the running search's state (a search's progress report on problem `name`) beside the
    /// bar, or as a status line when one is due.
    pub fn status(&self, name: &str, info: &SearchInfo) {
        match &self.lines {
            Some(lines) => lines.report(name, info),
            None => self.bar.set_message(status_text(info)),
        }
    }

    /// Runs `f` (which writes to the terminal) with the bar cleared, so lines and bar do not mix.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Runs `work` on every text from `texts` on `jobs` workers (each with a `hash_mb` table) and gives
/// the results to `emit` in input order. Returns the first read or write error; a write error stops
/// the workers, and so does `gone` turning true while they search (the output's reader went away:
/// a `BrokenPipe` error, as a write would give).
pub fn run<T: Send + 'static>(
    texts: impl Iterator<Item = io::Result<String>> + Send + 'static,
    (jobs, hash_mb): (usize, usize),
    progress: &Progress,
    work: impl Fn(&mut CheckedSolver, &str, &AtomicBool) -> T + Sync,
    mut emit: impl FnMut(T) -> io::Result<()>,
    gone: impl Fn() -> bool,
) -> io::Result<()> {
    let jobs = jobs.max(1);
    let stop = Arc::new(AtomicBool::new(false));
    // A short queue: the feeder stays just ahead of the workers instead of reading all of stdin.
    let (job_tx, job_rx) = mpsc::sync_channel::<(usize, String)>(jobs * 2);
    let job_rx = Mutex::new(job_rx);
    let (event_tx, events) = mpsc::channel::<Event<T>>();
    spawn_feeder(
        texts,
        job_tx,
        event_tx.clone(),
        progress.bar.clone(),
        stop.clone(),
    )?;
    thread::scope(|scope| {
        for n in 0..jobs {
            let (job_rx, event_tx, stop, work) = (&job_rx, event_tx.clone(), &*stop, &work);
            let spawned = thread::Builder::new()
                .name(format!("solve-{n}"))
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    worker(hash_mb, job_rx, &event_tx, stop, work)
                });
            if let Err(e) = spawned {
                stop.store(true, Ordering::Relaxed);
                return Err(io::Error::new(e.kind(), crate::checked::spawn_error(&e)));
            }
        }
        // Only the feeder and the workers may keep the channel open: when all are gone, so is the input.
        drop(event_tx);
        let result = collect(&events, progress, &mut emit, &gone);
        // Whatever ended the collection, nothing more is wanted from the workers.
        stop.store(true, Ordering::Relaxed);
        result
    })
}

/// Reads the texts on a thread of its own, numbering them; detached, so that a caller that stops
/// early never waits on a blocked read.
fn spawn_feeder<T: Send + 'static>(
    texts: impl Iterator<Item = io::Result<String>> + Send + 'static,
    jobs: mpsc::SyncSender<(usize, String)>,
    events: mpsc::Sender<Event<T>>,
    bar: ProgressBar,
    stop: Arc<AtomicBool>,
) -> io::Result<()> {
    thread::Builder::new()
        .name("solve-input".into())
        .spawn(move || {
            let mut count = 0;
            for text in texts {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                match text {
                    Ok(text) => {
                        if bar.length().is_some_and(|len| len <= count as u64) {
                            bar.inc_length(1);
                        }
                        if jobs.send((count, text)).is_err() {
                            return;
                        }
                        count += 1;
                    }
                    Err(e) => {
                        let _ = events.send(Event::ReadFailed(e));
                        return;
                    }
                }
            }
            let _ = events.send(Event::End(count));
        })?;
    Ok(())
}

/// A worker: takes numbered texts until the input is exhausted or the run is stopped.
fn worker<T>(
    hash_mb: usize,
    jobs: &Mutex<mpsc::Receiver<(usize, String)>>,
    events: &mpsc::Sender<Event<T>>,
    stop: &AtomicBool,
    work: &(impl Fn(&mut CheckedSolver, &str, &AtomicBool) -> T + Sync),
) {
    let mut solver = CheckedSolver::new(hash_mb);
    while !stop.load(Ordering::Relaxed) {
        // A poisoned lock means another worker panicked while holding it; the receiver is still fine.
        let next = jobs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .recv_timeout(IDLE_POLL);
        let (index, text) = match next {
            Ok(job) => job,
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => return,
        };
        let event = match catch_unwind(AssertUnwindSafe(|| work(&mut solver, &text, stop))) {
            Ok(result) => Event::Done(index, result),
            Err(_) => {
                // The solver may be half-written; start the next problem on a fresh one.
                solver = CheckedSolver::new(hash_mb);
                Event::Panicked(index)
            }
        };
        if events.send(event).is_err() {
            return;
        }
    }
}

/// Puts the results back in input order and emits them; returns when every problem has been emitted
/// or something failed.
fn collect<T>(
    events: &mpsc::Receiver<Event<T>>,
    progress: &Progress,
    emit: &mut impl FnMut(T) -> io::Result<()>,
    gone: &impl Fn() -> bool,
) -> io::Result<()> {
    let mut pending = BTreeMap::new();
    let (mut next, mut total) = (0, None);
    let mut watched = Instant::now();
    while total != Some(next) {
        // Every `WATCH_INTERVAL`, whether answers come or not (quick ones may come faster than that
        // while the one next in order searches on).
        if watched.elapsed() >= WATCH_INTERVAL {
            if gone() {
                return Err(io::Error::new(
                    io::ErrorKind::BrokenPipe,
                    "the output's reader went away",
                ));
            }
            watched = Instant::now();
        }
        let event = match events.recv_timeout(WATCH_INTERVAL) {
            Ok(event) => event,
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(io::Error::other(
                    "the solving threads ended before every problem was answered",
                ));
            }
        };
        match event {
            Event::Done(index, result) => {
                progress.bar.inc(1);
                pending.insert(index, result);
            }
            Event::Panicked(index) => {
                return Err(io::Error::other(format!(
                    "internal error while answering problem {}",
                    index + 1
                )));
            }
            Event::End(count) => {
                progress.bar.set_length(count as u64);
                total = Some(count);
            }
            Event::ReadFailed(e) => return Err(e),
        }
        while let Some(result) = pending.remove(&next) {
            emit(result)?;
            next += 1;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(n: usize) -> impl Iterator<Item = io::Result<String>> + Send + 'static {
        (0..n).map(|i| Ok(i.to_string()))
    }

    #[test]
    fn emits_in_input_order_when_later_ones_finish_first() {
        let mut got = Vec::new();
        let work = |_: &mut CheckedSolver, text: &str, _: &AtomicBool| {
            let i: u64 = text.parse().unwrap();
            // Early problems take longest.
            thread::sleep(Duration::from_millis(40u64.saturating_sub(i * 4)));
            i
        };
        run(
            texts(10),
            (4, 1),
            &Progress::new(ProgressMode::Off, StatusLines::EVERY, None),
            work,
            |i| {
                got.push(i);
                Ok(())
            },
            || false,
        )
        .unwrap();
        assert_eq!(got, (0..10).collect::<Vec<_>>());
    }

    #[test]
    fn a_write_error_stops_the_run() {
        let mut emitted = 0;
        let err = run(
            texts(1000),
            (2, 1),
            &Progress::new(ProgressMode::Off, StatusLines::EVERY, None),
            |_, text, _| text.to_string(),
            |_| {
                emitted += 1;
                if emitted == 3 {
                    Err(io::Error::from(io::ErrorKind::BrokenPipe))
                } else {
                    Ok(())
                }
            },
            || false,
        )
        .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
        assert_eq!(emitted, 3);
    }

    #[test]
    fn a_read_error_is_returned_and_a_panic_is_an_error() {
        let failing = (0..3).map(|i| {
            if i == 2 {
                Err(io::Error::other("disk on fire"))
            } else {
                Ok(i.to_string())
            }
        });
        let err = run(
            failing,
            (1, 1),
            &Progress::new(ProgressMode::Off, StatusLines::EVERY, None),
            |_, t, _| t.to_string(),
            |_| Ok(()),
            || false,
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "disk on fire");
        let err = run(
            texts(3),
            (2, 1),
            &Progress::new(ProgressMode::Off, StatusLines::EVERY, None),
            |_, t, _| assert_ne!(t, "1", "boom"),
            |_| Ok(()),
            || false,
        )
        .unwrap_err();
        assert!(err.to_string().contains("problem 2"), "{err}");
    }

    /// The output's reader going away stops searches that would otherwise run on for nobody, even
    /// while the other worker's quick answers keep coming (the first problem, whose answer is next
    /// to print, searches until stopped).
    #[test]
    fn a_reader_gone_stops_the_searches() {
        let start = Instant::now();
        let err = run(
            texts(5000),
            (2, 1),
            &Progress::new(ProgressMode::Off, StatusLines::EVERY, None),
            |_, text, stop| {
                if text == "0" {
                    while !stop.load(Ordering::Relaxed) {
                        assert!(start.elapsed() < Duration::from_secs(30), "never stopped");
                        thread::sleep(Duration::from_millis(5));
                    }
                } else {
                    thread::sleep(Duration::from_millis(1));
                }
            },
            |_| Ok(()),
            || start.elapsed() > Duration::from_millis(100),
        )
        .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
        // The quick answers alone would take over 5 s.
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn no_input_is_no_output() {
        let mut n = 0;
        run(
            texts(0),
            (3, 1),
            &Progress::new(ProgressMode::Off, StatusLines::EVERY, None),
            |_, _, _| (),
            |_| {
                n += 1;
                Ok(())
            },
            || false,
        )
        .unwrap();
        assert_eq!(n, 0);
    }
}
