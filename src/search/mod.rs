//! The mate search: df-pn over a transposition table of proof and disproof pieces, and the PV extractor
//! that writes the `checkmate` line.
//!
//! `Solver` is the whole interface the front ends (`usi`, the command line) use. Inside:
//! * `dfpn` — the df-pn loop of one node and the driver at the root;
//! * `node` — a node's children: generation, table probes by key; `chains` — defences that wait
//!   for each other, and the merges that change them during the search;
//! * `numbers` — proof numbers, how children combine (sums, SNDA-lite, weak proof numbers), thresholds;
//! * `hands` — proof and disproof hands, each rule with its argument;
//! * `loops` — repetitions and the depth limit: what a disproof depends on;
//! * `tt` — the transposition table, its replacement and garbage collection;
//! * `mate1` — mate in one; `frontier` — one-ply looks at new nodes; `estimates` — a new child's
//!   first numbers;
//! * `pv` — the mating line; `deepen` — shortest first ("mate within 1? 3? …") before the proof;
//! * `config` — the internal switches, for measuring each technique.

pub mod alternatives;
pub mod chains;
pub mod config;
pub mod deepen;
pub mod dfpn;
pub mod estimates;
pub mod frontier;
pub mod futile;
pub mod hands;
pub mod loops;
pub mod mate1;
pub mod node;
pub mod numbers;
pub mod pv;
pub mod spare;
pub mod tt;

pub use config::SearchConfig;
pub use pv::PvLevel;

use crate::position::{Move, Position, SfenError};
use dfpn::RootResult;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The stack a thread running `Solver::solve` needs: the search recurses once per ply (up to
/// `dfpn::HARD_MAX_PLY`), a few hundred bytes a frame. Only the pages touched are ever committed.
pub const SEARCH_STACK_BYTES: usize = 256 << 20;

/// What bounds a search. `None` means no bound of that kind.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
    /// How often `on_info` is called while searching (`None`: never).
    pub info_interval: Option<Duration>,
    /// Nobody set a limit of any kind (`go mate infinite`, `solve --time-ms 0`): the search ends
    /// with its answer or at `stop`, and whoever waits for it wants the exact line more than a quick
    /// one, so the phases after the proof get larger budgets (`PHASE_STEP_MIN_NODES_UNLIMITED`).
    /// Set by the front ends; with `time` or `nodes` it has no effect.
    pub open_ended: bool,
}

/// The answer for the root position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateOutcome {
    /// A mate, with the mating line from the root (attacker's move first; odd length).
    Mate(Vec<Move>),
    /// Proven: no mate exists.
    NoMate,
    /// Neither proven nor disproven within the limits, or stopped, or the search could not go on
    /// (`SolveResult::note` says why).
    Timeout,
}

/// Progress, passed to the `on_info` callback about every `info_interval`.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    pub nodes: u64,
    pub elapsed: Duration,
    /// Table occupancy in per mille, as USI `hashfull`.
    pub hashfull: u32,
    /// The current best line (may be empty).
    pub pv: Vec<Move>,
    /// The root's proof and disproof numbers after its last completed iteration (0 before).
    pub root_pn: u32,
    pub root_dn: u32,
    /// The current depth limit.
    pub max_ply: u32,
    /// Garbage collections of the table so far.
    pub gc_count: u64,
    /// Set by the PV search: a mate in this many plies is proven (`pv` is such a line, or empty).
    pub score_mate: Option<u32>,
}

#[derive(Clone, Debug)]
pub struct SolveResult {
    pub outcome: MateOutcome,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Why the search gave up before its limits, when it did (then the outcome is `Timeout`), or why
    /// a mating line is not known to be the shortest.
    pub note: Option<String>,
    /// For a mate: its length is proven to be the minimax length (`PvLevel::MinLength` completed).
    pub exact: bool,
    /// For a mate, when asked (`Solver::set_check_alternatives`): other attacker moves along the line
    /// that also mate within the plies left.
    pub alternatives: Option<alternatives::Alternatives>,
    /// For a mate with `Futile::Skip`: the canonical length (futile interpositions not counted), when
    /// the canonical line was found; the printed line is then that line.
    pub canonical_length: Option<u32>,
    /// For a mate: the plies within which the mate is proven against every defence — an upper bound
    /// of the minimax length (of the canonical game with `Futile::Skip`), the line's own length when
    /// `exact`. A line that is not exact may be shorter than this (its defender need not take the
    /// longest reply), so a `score mate` claims this number, never the shorter line's length. `None`
    /// when no bound is known (the root's table entry was lost before the line was read).
    pub mate_bound: Option<u32>,
    /// Table entries this solve placed (new positions or results, not updates in place; the table is
    /// not cleared between solves, so this counts only what the solve added).
    pub entries: u64,
    /// Children the main search cut as inferior repetitions that were no exact repetition
    /// (`loops.rs`; for tests and measurements).
    pub inferior_cuts: u64,
    /// Children the main search counted with the pump cost, as superior repetitions (`loops.rs`;
    /// for tests and measurements).
    pub pump_children: u64,
}

/// Why `Solver::solve` refused a root position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// Not a mate problem: the defender (the side not to move) has no king, or is in check.
    InvalidRoot(SfenError),
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::InvalidRoot(e) => write!(f, "not a mate problem: {e}"),
        }
    }
}

impl std::error::Error for SolveError {}

/// A mate solver with its transposition table. Reuse one across problems: the table is allocated once.
pub struct Solver {
    tt: tt::Table,
    config: SearchConfig,
    pv_level: PvLevel,
    check_alternatives: bool,
    futile: futile::Futile,
    /// Nodes spent on each root (its position key) since the table was last cleared: a root asked
    /// again gets line phases sized by all that work (`Dfpn::prior_nodes`). Forgotten with the
    /// table, and wholesale past `EFFORTS_MAX` roots (a batch of problems, each asked once).
    efforts: HashMap<u64, u64>,
}

/// The most roots `Solver::efforts` remembers before it starts over.
const EFFORTS_MAX: usize = 4096;

impl Solver {
    /// A solver whose table uses about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Solver {
        Solver {
            tt: tt::Table::new(hash_mb),
            config: SearchConfig::default(),
            pv_level: PvLevel::default(),
            check_alternatives: false,
            futile: futile::Futile::default(),
            efforts: HashMap::new(),
        }
    }

    /// Re-allocates the table with a new size (clearing it).
    pub fn resize(&mut self, hash_mb: usize) {
        // The old table goes first: both at once could need twice the memory.
        self.tt = tt::Table::new(1);
        self.tt = tt::Table::new(hash_mb);
        self.efforts.clear();
    }

    /// The table's size in MiB: less than asked for when that much memory could not be had.
    pub fn table_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Backs the whole table with memory now, so that no search pays the page faults of its first
    /// touches (`tt::Table::populate`). Without it, memory is taken as the search reaches it.
    pub fn populate_table(&mut self) {
        self.tt.populate();
    }

    /// Forgets everything learnt (between unrelated problems).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.efforts.clear();
    }

    /// Sets the internal search switches (for measurements; the default is the best measured).
    pub fn set_config(&mut self, config: SearchConfig) {
        self.config = config;
    }

    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// How much work goes into the mating line after the proof (default: the exact minimax line).
    pub fn set_pv_level(&mut self, level: PvLevel) {
        self.pv_level = level;
    }

    pub fn pv_level(&self) -> PvLevel {
        self.pv_level
    }

    /// After a mate, look for other attacker moves along the line that also mate within the plies
    /// left (`SolveResult::alternatives`).
    pub fn set_check_alternatives(&mut self, on: bool) {
        self.check_alternatives = on;
    }

    pub fn check_alternatives(&self) -> bool {
        self.check_alternatives
    }

    /// Whether futile interpositions count as defences (`futile.rs`; default: they do).
    pub fn set_futile(&mut self, futile: futile::Futile) {
        self.futile = futile;
    }

    pub fn futile(&self) -> futile::Futile {
        self.futile
    }

    /// Searches for a mate of the side to move in `problem_position(root)` (see there for who holds the
    /// pieces missing from the SFEN). A root that is not a mate problem (the defender has no king, or is
    /// in check) is refused.
    ///
    /// Returns when the root is proven or disproven, when a limit is reached, or soon after `stop`
    /// becomes true (then `Timeout`). A `Mate` line is always verified legal, checking and mating.
    pub fn solve(
        &mut self,
        root: &Position,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Result<SolveResult, SolveError> {
        let start = Instant::now();
        let written_before = self.tt.entries_written();
        root.validate_mate_problem()
            .map_err(SolveError::InvalidRoot)?;
        let problem = problem_position(root);
        let root_key = problem.key();
        let mut search = dfpn::Dfpn::new(
            &mut self.tt,
            problem,
            self.config.clone(),
            limits,
            stop,
            on_info,
        );
        search.prior_nodes = self.efforts.get(&root_key).copied().unwrap_or(0);
        search.deepen = self.pv_level == PvLevel::MinLength;
        let mut note = None;
        let mut exact = false;
        let mut alternatives = None;
        let mut canonical_length = None;
        let mut mate_bound = None;
        let outcome = match search.run() {
            RootResult::Proven => match pv::extract(&mut search, self.pv_level) {
                Some(line) if verify_mate_line(root, &line.moves) => {
                    exact = line.exact;
                    // A first line (`PvLevel::None`) may be longer than the root's recorded
                    // length: then the bound holds all the more for its length. A line's own
                    // length bounds nothing (its defender need not take the longest reply), so
                    // with no recorded bound (the root's entry lost) nothing is claimed.
                    mate_bound = line.bound.map(|b| b.max(line.moves.len() as u32));
                    if self.pv_level == PvLevel::MinLength && !exact {
                        note = Some(match line.bound {
                            Some(b) => format!(
                                "the search stopped before the line was proven shortest: mate in {b} or less"
                            ),
                            None => "the search stopped before the line was proven shortest".into(),
                        });
                    }
                    let mut moves = line.moves.clone();
                    if self.futile == futile::Futile::Skip {
                        match pv::canonical(&mut search, &line) {
                            Some(c) if verifies_canonical(&mut search, &c.moves) => {
                                canonical_length = Some(c.moves.len() as u32);
                                // The canonical game's bound: the line's own length, or more
                                // for a line the composers' ranking chose (it may take a
                                // defence shorter than the longest).
                                mate_bound = c.bound.map(|b| b.max(c.moves.len() as u32));
                                exact = c.exact;
                                // `canonical` returns only lines of the proven bound's length,
                                // or lines the composers' ranking chose.
                                note = if c.ranked {
                                    Some(format!(
                                        "the canonical line avoids defences after which the attacker mates with pieces to spare (composers' ranking): {} plies, not proven shortest",
                                        c.moves.len()
                                    ))
                                } else {
                                    (!c.exact).then(|| {
                                        format!(
                                            "the search stopped before the canonical line was proven shortest: {} plies or less",
                                            c.moves.len()
                                        )
                                    })
                                };
                                if !verify_mate_line(root, &c.moves) {
                                    // A verified canonical line that is no mate ends where only
                                    // futile interpositions are left: say so, a GUI expects mate.
                                    let end = "the line ends where the defender has only futile interpositions left (not counted: the composers' convention)";
                                    note = Some(match note {
                                        Some(n) => format!("{n}; {end}"),
                                        None => end.into(),
                                    });
                                }
                                moves = c.moves;
                            }
                            _ => {
                                exact = false;
                                note = Some(
                                    "the canonical line (futile interpositions skipped) was not found in time; the line counts every interposition".into(),
                                );
                            }
                        }
                    }
                    if self.check_alternatives {
                        alternatives = Some(alternatives::check(&mut search, &moves));
                    }
                    MateOutcome::Mate(moves)
                }
                Some(line) => {
                    log::error!(
                        "internal: extracted mate line failed verification: {:?}",
                        line.moves
                    );
                    note = Some("internal: the mating line failed verification".into());
                    MateOutcome::Timeout
                }
                None => {
                    note = Some("proven, but the line could not be rebuilt in time".into());
                    MateOutcome::Timeout
                }
            },
            RootResult::Disproven => MateOutcome::NoMate,
            RootResult::Aborted => MateOutcome::Timeout,
            RootResult::GaveUp(why) => {
                note = Some(why);
                MateOutcome::Timeout
            }
        };
        let nodes = search.nodes;
        if self.efforts.len() >= EFFORTS_MAX && !self.efforts.contains_key(&root_key) {
            self.efforts.clear();
        }
        *self.efforts.entry(root_key).or_default() += nodes;
        Ok(SolveResult {
            outcome,
            nodes,
            elapsed: start.elapsed(),
            note,
            exact,
            alternatives,
            canonical_length,
            mate_bound,
            entries: search.tt.entries_written().saturating_sub(written_before),
            inferior_cuts: search.inferior_cuts,
            pump_children: search.pump_children,
        })
    }
}

/// The position a mate search actually solves: in a tsume problem (the attacker has no king) the
/// defender holds every piece that is neither on the board nor in the attacker's hand, whatever the
/// SFEN lists; a position with both kings (a game position) is taken as given. Mating lines are legal
/// in this position, so they are verified against it.
pub fn problem_position(root: &Position) -> Position {
    let mut pos = root.clone();
    let attacker = pos.side_to_move();
    if pos.king_square(attacker).is_none() {
        pos.give_rest_to(attacker.flip());
    }
    pos
}

/// Plays `line` in `problem_position(root)` if it is a legal line of odd length in which every
/// attacker move checks; the position at its end.
fn play_checking_line(root: &Position, line: &[Move]) -> Option<Position> {
    use crate::position::movegen::{MoveList, generate_checks, generate_evasions};
    if line.len().is_multiple_of(2) {
        return None;
    }
    let mut pos = problem_position(root);
    for (i, &m) in line.iter().enumerate() {
        let mut list = MoveList::new();
        if i % 2 == 0 {
            generate_checks(&pos, &mut list);
        } else {
            generate_evasions(&pos, &mut list);
        }
        if !list.contains(&m) {
            return None;
        }
        pos.do_move(m);
    }
    Some(pos)
}

/// Checks a line in `problem_position(root)`: every attacker move is legal and checks, every defender
/// move is legal, odd length, and the defender is in check at its end (a mate, or the end of a
/// canonical line: the futile-interposition test is the search's, `pv::ends_without_defence`).
pub fn verify_line_in_check(root: &Position, line: &[Move]) -> bool {
    play_checking_line(root, line).is_some_and(|pos| pos.in_check())
}

/// Checks a canonical line from the search's root (its current position): a mating line, or a line
/// that ends with the defender in check and no defence that counts (`pv::ends_without_defence`).
fn verifies_canonical(s: &mut dfpn::Dfpn, line: &[Move]) -> bool {
    let root = s.pos.clone();
    verify_mate_line(&root, line)
        || (verify_line_in_check(&root, line) && pv::ends_without_defence(s, line))
}

/// Checks a mating line in `problem_position(root)`: every attacker move is legal and checks, every
/// defender move is legal, and the final position is mate (the last move is not a pawn drop). Used
/// before any `checkmate` is printed. (It checks the line only: whether the defender had a longer
/// defence is for the PV search and the differential tests.)
pub fn verify_mate_line(root: &Position, line: &[Move]) -> bool {
    use crate::position::movegen::{MoveList, generate_evasions};
    let Some(pos) = play_checking_line(root, line) else {
        return false;
    };
    let last = line[line.len() - 1];
    if last.is_drop() && last.drop_kind() == crate::position::PieceKind::Pawn {
        return false;
    }
    let mut list = MoveList::new();
    generate_evasions(&pos, &mut list);
    pos.in_check() && list.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{Color, Piece, PieceKind, Square};

    fn solve_pos(pos: &Position) -> Result<SolveResult, SolveError> {
        Solver::new(1).solve(
            pos,
            &SearchLimits::default(),
            &AtomicBool::new(false),
            &mut |_| {},
        )
    }

    fn solve(sfen: &str) -> Result<SolveResult, SolveError> {
        solve_pos(&Position::from_sfen(sfen).unwrap())
    }

    /// A root without a defender king is refused, not answered "no mate".
    #[test]
    fn root_without_defender_king_is_refused() {
        // White to move and attack; Black, the defender, has no king.
        let err = solve("8k/9/9/9/9/9/9/9/9 w G 1").unwrap_err();
        assert_eq!(err, SolveError::InvalidRoot(SfenError::NoDefenderKing));
    }

    /// A root whose defender is already in check (only reachable by playing an illegal move through the
    /// library) is refused.
    #[test]
    fn root_with_defender_in_check_is_refused() {
        let mut pos = Position::from_sfen("8k/9/9/9/p8/9/9/9/9 b G 1").unwrap();
        let check = pos.parse_usi_move("G*1b").unwrap();
        pos.do_move(check);
        // White ignores the check (no legal move does that; `do_move` trusts its caller).
        let sq = |f, r| Square::new(f, r).unwrap();
        pos.do_move(Move::normal(
            sq(9, 5),
            sq(9, 6),
            false,
            Piece::new(PieceKind::Pawn, Color::White),
        ));
        let err = solve_pos(&pos).unwrap_err();
        assert_eq!(err, SolveError::InvalidRoot(SfenError::OpponentInCheck));
    }

    #[test]
    fn a_mate_and_a_no_mate() {
        let r = solve("8k/9/8P/9/9/9/9/9/9 b G 1").unwrap();
        match r.outcome {
            MateOutcome::Mate(line) => {
                assert_eq!(line.len(), 1);
                assert_eq!(line[0].to_usi(), "G*1b");
            }
            other => panic!("{other:?}"),
        }
        let r = solve("8k/9/9/9/9/9/9/9/9 b - 1").unwrap();
        assert_eq!(r.outcome, MateOutcome::NoMate);
        assert_eq!(r.note, None);
    }
}
