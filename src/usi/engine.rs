//! The USI command loop.
//!
//! Three threads: a reader that turns stdin into a channel of lines, the command loop (this module),
//! and at most one search thread. The search owns the solver while it runs and hands it back when it
//! ends, so the loop never blocks on the table: `stop`, `quit` and `isready` are answered at once
//! whatever the search is doing.

use super::command::{self, Awaits, Command, GoParams, MateLimit};
use super::job::{Hold, Job, Mode, answer_line, spawn_search};
use super::options::Options;
use super::output::{self, Output};
use crate::checked::{Answer, CheckedSolver};
use crate::pipe::MAX_LINE_BYTES;
use crate::position::Position;
use crate::search::{SearchLimits, root_role};
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// Bounds the engine puts on itself, whatever the GUI asks. The binary runs without any (`default`);
/// the fuzz target and tests run the loop in-process with small ones, so that a `go mate infinite`
/// or a `setoption name USI_Hash value 20000` ends quickly and cheaply.
#[derive(Clone, Debug)]
pub struct EngineLimits {
    /// Nodes per search, at most.
    pub max_nodes: Option<u64>,
    /// The table size used, at most, whatever `USI_Hash` says.
    pub max_hash_mb: Option<usize>,
    /// How long `quit` waits for a stopped search to hand its answer in before the loop returns.
    pub quit_grace: Duration,
}

impl Default for EngineLimits {
    fn default() -> EngineLimits {
        EngineLimits {
            max_nodes: None,
            max_hash_mb: None,
            quit_grace: Duration::from_millis(300),
        }
    }
}

/// Runs the USI protocol until `quit` or the end of the input; returns the process exit status.
pub fn run(input: impl BufRead + Send + 'static, output: impl Write + Send + 'static) -> i32 {
    run_with_limits(input, output, EngineLimits::default())
}

/// `run` with bounds on every search (see `EngineLimits`).
pub fn run_with_limits(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    limits: EngineLimits,
) -> i32 {
    run_on(input, Output::new(output), limits)
}

/// `run` on the process's stdin and stdout, whose reader is watched (`Output::stdout`).
pub fn run_stdio() -> i32 {
    run_on(
        std::io::BufReader::new(std::io::stdin()),
        Output::stdout(),
        EngineLimits::default(),
    )
}

fn run_on(input: impl BufRead + Send + 'static, out: Output, limits: EngineLimits) -> i32 {
    let lines = spawn_reader(input);
    let mut engine = Engine::new(out, limits);
    loop {
        // With `go`s waiting their turn, the loop also wakes to start the next when a search is over.
        let line = if engine.queue.is_empty() {
            lines.recv().ok()
        } else {
            match lines.recv_timeout(QUEUE_POLL) {
                Ok(line) => Some(line),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    engine.start_queued();
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => None,
            }
        };
        let Some(line) = line else {
            // End of input: let the running search and those waiting their turn finish (a script may
            // have piped `go mate …` and closed its end), then leave.
            engine.finish_all();
            return 0;
        };
        // A search that answered lets the next `go` start first, so that this command (a `stop`, a
        // `ponderhit`) reaches the search it is meant for.
        engine.start_queued();
        let command = match line {
            Ok(line) => {
                log::debug!("< {line}");
                command::parse(&line)
            }
            Err(Unreadable { head, why }) => command::parse_unreadable(&head, why),
        };
        if !engine.handle(command) {
            return 0;
        }
    }
}

/// A line that cannot be a command (not UTF-8, too long to keep): its first bytes, and what to tell
/// the user (`command::parse_unreadable`).
struct Unreadable {
    head: String,
    why: String,
}

/// How much of an unreadable line is kept to tell what command it was: a `go`'s words come first.
const UNREADABLE_HEAD_BYTES: usize = 256;

/// Reads lines on their own thread so that the command loop can wait on a channel. A line that
/// cannot be a command comes as `Err`.
fn spawn_reader(
    input: impl BufRead + Send + 'static,
) -> mpsc::Receiver<Result<String, Unreadable>> {
    let (tx, rx) = mpsc::channel();
    let spawned = thread::Builder::new()
        .name("usi-reader".into())
        .spawn(move || {
            let mut input = input;
            let mut buf = Vec::new();
            let unreadable = |buf: &[u8], why: String| Unreadable {
                head: String::from_utf8_lossy(&buf[..buf.len().min(UNREADABLE_HEAD_BYTES)])
                    .into_owned(),
                why,
            };
            loop {
                // Only a failed read ends the input early; a line that is not UTF-8 or too long is
                // one more line, answered for what its first words say.
                let line = match crate::pipe::read_line_capped(&mut input, MAX_LINE_BYTES, &mut buf)
                {
                    Ok(None) => return,
                    Ok(Some(true)) => match std::str::from_utf8(&buf) {
                        Ok(l) => Ok(l.strip_suffix('\r').unwrap_or(l).to_string()),
                        Err(_) => Err(unreadable(
                            &buf,
                            "a line that is not UTF-8 was ignored".to_string(),
                        )),
                    },
                    Ok(Some(false)) => Err(unreadable(
                        &buf,
                        format!("a line of more than {MAX_LINE_BYTES} bytes was ignored"),
                    )),
                    Err(e) => {
                        log::warn!("stdin: {e}");
                        return;
                    }
                };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
    if let Err(e) = spawned {
        log::error!("cannot start the input thread: {e}");
    }
    rx
}

/// Why a `go` before any `position` has nothing to search.
const NO_POSITION: &str = "no position to search (send 'position' first)";

/// How often the command loop looks whether the next waiting `go` can start.
const QUEUE_POLL: Duration = Duration::from_millis(2);

/// A `go` that came while a search ran. It waits its turn: it starts (or is refused) once every search
/// before it has answered, so that each `go` gets its own answer, in the order of the `go`s (a script
/// may pipe several `position …`/`go mate …` pairs at once).
enum Queued {
    /// Boxed: a position is large beside the other variant.
    Search(Box<Go>),
    /// A `go` with unusable parameters: its error and its reply, in its turn.
    Refused { error: String, reply: &'static str },
    /// A `usinewgame` that came while a search held the table: the table is cleared in its turn.
    NewGame,
}

/// A search as its `go` asked for it, with everything in effect when the `go` came: a `position` or a
/// `setoption` after it is for a later `go`.
struct Go {
    mode: Mode,
    time: Option<Duration>,
    /// A node limit of its own (`go nodes`), besides the engine's.
    nodes: Option<u64>,
    hold: Hold,
    /// `Job::after_ponderhit`.
    after_ponderhit: Option<Duration>,
    position: Result<Position, String>,
    options: Options,
    /// A `go` refused for its own words (a malformed `go infinite …`): why.
    refused: Option<String>,
    /// When a `ponderhit` came for this `go ponder` while it still waited its turn.
    ponderhit_at: Option<Instant>,
    /// A `go` that only a `stop` ends, ended by one (or by `gameover`) while it still waited its
    /// turn (`Engine::stop`): it starts in its turn with its `stop` already given.
    stopped: bool,
}

impl Go {
    /// Whether this `go` set no limit of its own of any kind. A `go ponder`'s time limit is its
    /// clock's budget (`after_ponderhit`), which runs from its `ponderhit`: its own `time` is none.
    fn unlimited(&self) -> bool {
        let time = if self.hold == Hold::Ponder {
            self.after_ponderhit
        } else {
            self.time
        };
        time.is_none() && self.nodes.is_none()
    }

    /// Whether only a `stop` ends this search: it holds its answer until then (`go infinite`, `go
    /// ponder` before its `ponderhit`), or it has no limit at all (`go mate infinite`).
    fn ends_only_by_stop(&self) -> bool {
        let holds = self.hold != Hold::No && self.ponderhit_at.is_none();
        holds || self.unlimited()
    }
}

/// Where the solver is: not built yet (built lazily so that `usi` is answered at once), idle, or lent to a
/// search thread.
enum Slot {
    Empty,
    /// Boxed: a solver is far larger than the other variants, and moves in and out of the slot.
    Idle(Box<CheckedSolver>),
    Busy(Job),
}

struct Engine {
    out: Output,
    limits: EngineLimits,
    options: Options,
    /// The position in effect, or why there is none: before any `position`, and after one that was
    /// refused or could not be read, so that a `go` never solves stale input and its refusal says why.
    position: Result<Position, String>,
    slot: Slot,
    /// `go`s waiting for the running search to answer (`Queued`).
    queue: VecDeque<Queued>,
}

impl Engine {
    fn new(out: Output, limits: EngineLimits) -> Engine {
        Engine {
            out,
            limits,
            options: Options::default(),
            position: Err(NO_POSITION.into()),
            slot: Slot::Empty,
            queue: VecDeque::new(),
        }
    }

    /// Acts on one command; false means quit.
    fn handle(&mut self, cmd: Command) -> bool {
        match cmd {
            Command::Empty => {}
            Command::PonderHit => self.ponder_hit(),
            Command::Usi => self.usi(),
            Command::IsReady => self.isready(),
            Command::SetOption { name, value } => {
                if let Err(e) = self.options.set(&name, value.as_deref()) {
                    self.out.error(&e.to_string());
                }
            }
            Command::UsiNewGame => self.new_game(),
            Command::Position(text) => self.set_position(&text),
            Command::GoMate { limit, ignored } => {
                if !ignored.is_empty() {
                    self.out.line(&format!(
                        "info string warning: go mate takes only a time or 'infinite'; ignoring '{}'",
                        output::shown(&ignored)
                    ));
                }
                self.go(Queued::Search(Box::new(Go {
                    time: mate_time(limit),
                    ..self.request(Mode::Mate, Hold::No)
                })))
            }
            Command::Go(params) => self.go_game(&params),
            Command::Stop | Command::GameOver => self.stop(),
            Command::Quit => {
                // `go`s still waiting are dropped unanswered: the GUI is leaving.
                self.queue.clear();
                self.stop();
                self.wait_for_search(Some(self.limits.quit_grace));
                return false;
            }
            // A refused `go` answers in its turn too: while a search runs, a `checkmate`/`bestmove`
            // printed at once would be taken for the running search's answer.
            Command::Refused {
                error,
                reply,
                awaits: Awaits::Nothing,
            } => self.go(Queued::Refused { error, reply }),
            // A held refusal answers like a held search whose position was refused.
            Command::Refused { error, awaits, .. } => {
                let hold = if awaits == Awaits::PonderHit {
                    Hold::Ponder
                } else {
                    Hold::Infinite
                };
                self.go(Queued::Search(Box::new(Go {
                    refused: Some(error),
                    ..self.request(Mode::Game, hold)
                })))
            }
            Command::Unknown(what) => {
                self.out
                    .error(&format!("unknown command '{}'", output::shown(&what)));
            }
            Command::Unreadable {
                error,
                forget_position,
                then,
            } => {
                self.out.error(&error);
                if forget_position {
                    self.position = Err(format!(
                        "no position to search: the last 'position' line could not be read ({error})"
                    ));
                }
                if let Some(then) = then {
                    return self.handle(*then);
                }
            }
        }
        true
    }

    fn usi(&self) {
        self.out
            .line(&format!("id name kanju {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the kanju developers");
        for line in Options::usi_lines() {
            self.out.line(&line);
        }
        self.out.line("usiok");
    }

    /// Builds or resizes the table here (a GUI allows time for `isready`, not for `go`), and backs all
    /// of its memory now, so that no `go` pays the page faults of the table's first touches (a search
    /// is timed from `go`; `kanju solve`, which has no such pause, leaves the memory to be taken as
    /// the search reaches it). While a search runs the table is busy, and the answer is immediate.
    fn isready(&mut self) {
        self.reclaim();
        if !matches!(self.slot, Slot::Busy(_)) {
            let mut solver = self.idle_solver(&self.options.clone());
            solver.populate_table();
            self.slot = Slot::Idle(Box::new(solver));
        }
        self.out.line("readyok");
    }

    /// `usinewgame`: the table is cleared now, or, while a search holds it, in its turn after the
    /// `go`s before it (a `go` after it then starts on a clear table, one before it does not).
    fn new_game(&mut self) {
        self.reclaim();
        match &mut self.slot {
            Slot::Idle(solver) => solver.clear(),
            Slot::Busy(_) => self.queue.push_back(Queued::NewGame),
            Slot::Empty => {}
        }
    }

    fn set_position(&mut self, text: &str) {
        self.position = Position::from_sfen(text).map_err(|e| {
            let e = e.to_string();
            self.out.error(&e);
            // Said again by the `go` that it leaves without a position: an error printed now may come
            // before the answer of a search still running (a script's earlier `go`).
            format!("no position to search: the last 'position' was refused ({e})")
        });
    }

    /// `stop` (and `gameover`): the running search stops, and so does every `go` still waiting its
    /// turn that only a `stop` can end (a script or a GUI that sent it before the last search
    /// answered, then `stop`): `go infinite`, `go ponder`, `go mate infinite`. No `stop` may come
    /// after this one: started after it, such a search would run (or hold its answer) for ever. It
    /// starts in its turn with the `stop` already given, as if it had come at its first moment: it
    /// answers at once, with what that moment finds (a mate in one at the root). A waiting `go` with
    /// a limit of its own still searches in its turn (a script pipes several `go mate 30000` behind
    /// one `go mate infinite` and ends that one with `stop`).
    fn stop(&mut self) {
        if let Slot::Busy(job) = &self.slot {
            job.stop.store(true, Ordering::Relaxed);
        }
        for q in &mut self.queue {
            if let Queued::Search(go) = q
                && go.ends_only_by_stop()
            {
                go.stopped = true;
            }
        }
    }

    fn go_game(&mut self, params: &GoParams) {
        let side = self.position.as_ref().ok().map(|p| p.side_to_move());
        let budget = side.and_then(|side| params.budget(side));
        // After `ponderhit` the clock runs: the budget the same `go` would have had without `ponder`.
        let after_ponderhit = side.filter(|_| params.ponder).and_then(|side| {
            GoParams {
                ponder: false,
                ..params.clone()
            }
            .budget(side)
        });
        let hold = if params.ponder {
            Hold::Ponder
        } else if params.infinite {
            Hold::Infinite
        } else {
            Hold::No
        };
        self.go(Queued::Search(Box::new(Go {
            time: budget,
            nodes: params.nodes,
            after_ponderhit,
            ..self.request(Mode::Game, hold)
        })));
    }

    /// A `go` of `mode` for the position and options in effect now, with no limit of its own.
    fn request(&self, mode: Mode, hold: Hold) -> Go {
        Go {
            mode,
            time: None,
            nodes: None,
            hold,
            after_ponderhit: None,
            position: self.position.clone(),
            options: self.options.clone(),
            refused: None,
            ponderhit_at: None,
            stopped: false,
        }
    }

    /// `ponderhit`: the move a `go ponder` search finds is now wanted. The search goes on (kanju does
    /// not ponder: it searches the same way either way) and answers as soon as it is over, no longer
    /// waiting for `stop` — but within the `go`'s clock budget from now on, if it had a clock: a timer
    /// stops it then (the flag is the job's own, so a late timer touches no later search). Anything
    /// else ignores it.
    fn ponder_hit(&mut self) {
        // The newest `go` is meant: one still waiting its turn takes the `ponderhit` with it.
        if let Some(Queued::Search(go)) = self.queue.back_mut()
            && go.hold == Hold::Ponder
            && go.ponderhit_at.is_none()
        {
            go.ponderhit_at = Some(Instant::now());
            return;
        }
        if let Slot::Busy(job) = &self.slot
            && job.hold == Hold::Ponder
            && !job.release.load(Ordering::Relaxed)
            && let Some(budget) = job.after_ponderhit
        {
            let stop = job.stop.clone();
            let timer = thread::Builder::new()
                .name("ponderhit".into())
                .spawn(move || {
                    thread::sleep(budget);
                    stop.store(true, Ordering::Relaxed);
                });
            if let Err(e) = timer {
                // Without the timer the search is stopped now rather than left without a limit.
                log::warn!("cannot start the ponderhit timer: {e}");
                job.stop.store(true, Ordering::Relaxed);
            }
        }
        self.release_if(|hold| hold == Hold::Ponder);
    }

    /// The end of input: a held answer (`Hold`) would wait for ever, so the search answers as soon as
    /// it is over (it is not stopped: like any search at the end of input, it runs to its answer).
    fn release_held(&self) {
        self.release_if(|hold| hold != Hold::No);
    }

    fn release_if(&self, which: impl Fn(Hold) -> bool) {
        if let Slot::Busy(job) = &self.slot
            && which(job.hold)
        {
            job.release.store(true, Ordering::Relaxed);
        }
    }

    /// A `go`: started now, or in its turn after the running search and those waiting before it.
    fn go(&mut self, go: Queued) {
        self.queue.push_back(go);
        self.start_queued();
    }

    /// Starts the `go`s waiting their turn while no search runs (a refused one answers and lets the
    /// next start).
    fn start_queued(&mut self) {
        loop {
            self.reclaim();
            if matches!(self.slot, Slot::Busy(_)) {
                return;
            }
            match self.queue.pop_front() {
                None => return,
                Some(Queued::Refused { error, reply }) => {
                    self.out.error(&error);
                    self.out.line(reply);
                }
                Some(Queued::Search(go)) => self.start(*go),
                Some(Queued::NewGame) => {
                    if let Slot::Idle(solver) = &mut self.slot {
                        solver.clear();
                    }
                }
            }
        }
    }

    /// At the end of input: every search, running or waiting, runs to its answer (a held one answers
    /// at once).
    fn finish_all(&mut self) {
        loop {
            self.release_held();
            self.wait_for_search(None);
            if self.queue.is_empty() {
                return;
            }
            self.start_queued();
        }
    }

    /// Starts the search a `go` asked for, or answers at once with an error.
    fn start(&mut self, go: Go) {
        let unlimited = go.unlimited();
        let Go {
            mode,
            time,
            nodes,
            hold,
            after_ponderhit,
            position,
            options,
            refused,
            ponderhit_at,
            stopped,
        } = go;
        // A `go ponder` whose `ponderhit` came while it waited: an ordinary search now, on what is
        // left of its clock's budget.
        let (hold, time) = match ponderhit_at {
            Some(at) => (
                Hold::No,
                after_ponderhit
                    .map(|b| b.saturating_sub(at.elapsed()).max(Duration::from_millis(1))),
            ),
            None => (hold, time),
        };
        let root = match refused {
            Some(error) => Err(error),
            None => Self::problem(position, mode),
        };
        // A `go` stopped while it waited starts with its `stop` given: it answers with what its first
        // moment finds (a mate in one at the root), and holds nothing.
        let hold = if stopped { Hold::No } else { hold };
        if let (Err(e), Hold::No) = (&root, hold) {
            self.out.error(e);
            self.out.line(&answer_line(mode, &Answer::Timeout));
            return;
        }
        // A refused `go infinite`/`go ponder` still holds its answer like any other (USI: its
        // `bestmove` comes only after `stop` or `ponderhit`): the search thread says why at once and
        // answers in its turn.
        let mut solver = self.idle_solver(&options);
        // A game's move is always the engine's own mate: it attacks even in check.
        solver.set_root_and_if_checked(mode == Mode::Mate && options.root_and_if_checked);
        let option_nodes = (options.nodes_limit > 0).then_some(options.nodes_limit);
        let nodes = [self.limits.max_nodes, nodes, option_nodes]
            .into_iter()
            .flatten()
            .min();
        let limits = SearchLimits {
            time,
            nodes,
            info_interval: (options.pv_interval_ms > 0)
                .then(|| Duration::from_millis(options.pv_interval_ms)),
            // A `go ponder` with a clock is a game's move, not an open-ended search, even while it
            // ponders (`Go::unlimited`).
            open_ended: unlimited && nodes.is_none(),
        };
        self.slot = match spawn_search(solver, root, limits, mode, hold, stopped, self.out.clone())
        {
            Ok(job) => Slot::Busy(Job {
                after_ponderhit,
                ..job
            }),
            Err(e) => {
                self.out.error(&crate::checked::spawn_error(&e));
                self.out.line(&answer_line(mode, &Answer::Timeout));
                Slot::Empty
            }
        };
    }

    /// The position to search, checked as a mate problem (a game `go` needs both kings too, and
    /// attacks: `search::roles`).
    fn problem(position: Result<Position, String>, mode: Mode) -> Result<Position, String> {
        let pos = position?;
        root_role(&pos, mode == Mode::Mate).map_err(|e| e.to_string())?;
        if mode == Mode::Game && pos.king_square(pos.side_to_move()).is_none() {
            return Err("a game position needs both kings".into());
        }
        Ok(pos)
    }

    /// Takes the solver out of the slot, building or resizing it as the options say.
    fn idle_solver(&mut self, options: &Options) -> CheckedSolver {
        let hash_mb = options
            .hash_mb
            .min(self.limits.max_hash_mb.unwrap_or(usize::MAX));
        let (mut solver, built) = match std::mem::replace(&mut self.slot, Slot::Empty) {
            Slot::Idle(s) => (*s, false),
            Slot::Empty => (CheckedSolver::new(hash_mb), true),
            Slot::Busy(_) => unreachable!("idle_solver is only called when no search runs"),
        };
        let built = solver.ensure_size(hash_mb) || built;
        if built && solver.table_mb() < hash_mb {
            self.out.line(&format!(
                "info string warning: a {hash_mb} MiB table could not be allocated; searching with {} MiB",
                solver.table_mb()
            ));
        }
        solver.set_pv_level(options.pv_level);
        solver.set_check_alternatives(options.check_alternatives);
        solver.set_futile(options.futile);
        solver.set_threads(options.threads);
        solver.set_multipv(options.multipv);
        // After the line settings: the composers' check sets its own.
        solver.set_composer_check(options.composer_report);
        solver.set_thorough(options.composer_thorough);
        solver
    }

    /// Puts a finished search's solver back in the slot. A search counts as finished once it has started
    /// to print its answer: the GUI may send the next `go` the moment it reads it.
    fn reclaim(&mut self) {
        let done = matches!(&self.slot, Slot::Busy(job) if job.answered.load(Ordering::Acquire) || job.handle.is_finished());
        if !done {
            return;
        }
        if let Slot::Busy(job) = std::mem::replace(&mut self.slot, Slot::Empty) {
            // The search thread catches panics in the solver; a panic elsewhere in it loses the table,
            // which is rebuilt on demand.
            if let Ok(solver) = job.handle.join() {
                self.slot = Slot::Idle(Box::new(solver));
            }
        }
    }

    /// Waits for a running search to end, at most `limit` (forever with `None`). A search whose output
    /// has nowhere to go is stopped rather than waited for.
    fn wait_for_search(&mut self, limit: Option<Duration>) {
        let start = Instant::now();
        while let Slot::Busy(job) = &self.slot {
            if job.handle.is_finished() {
                self.reclaim();
                return;
            }
            if limit.is_some_and(|l| start.elapsed() >= l) {
                return;
            }
            if self.out.is_broken() {
                job.stop.store(true, Ordering::Relaxed);
            }
            thread::sleep(Duration::from_millis(2));
        }
    }
}

fn mate_time(limit: MateLimit) -> Option<Duration> {
    match limit {
        MateLimit::Infinite => None,
        MateLimit::Millis(ms) => Some(Duration::from_millis(ms)),
    }
}
