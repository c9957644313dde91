//! The solver the front ends use: one table across problems, the user's settings, and the order of
//! a solve's phases.

use super::canonical::Futile;
use super::canonical::line::{canonical_line, printable, settle, verifies_canonical};
use super::canonical::unspared::line_without_spare;
use super::config::SearchConfig;
use super::deepen::{Deepened, deepen};
use super::dfpn::{RootResult, Searcher};
use super::marks::Marks;
use super::outcome::{Findings, MateOutcome, SearchInfo, SearchLimits, SolveError, SolveResult};
use super::parallel;
use super::pv::{self, PvLevel, alternatives, multipv, variations};
use super::roles::{RootRole, root_role};
use super::shared::{Problem, Shared};
use super::tt;
use super::verify::{problem_position, verify_mate_line_by};
use crate::position::{Color, Move, Position};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What a user sets of a solver (each has its setter on `Solver` too), carried over whole when a
/// front end rebuilds its solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverSettings {
    pub config: SearchConfig,
    pub pv_level: PvLevel,
    pub check_alternatives: bool,
    /// After a mate, search the defender's other replies along the line (`pv/variations.rs`).
    pub check_variations: bool,
    /// After the answer's line, the time left proves the canonical length exact and searches the
    /// alternatives and variations without the phases' node budgets (the composers' check,
    /// `canonical/line.rs`, *Settling*).
    pub settle: bool,
    /// With `settle`: the settled line's ranking goes on with wider spare tests while some test is
    /// undecided (`canonical/line.rs`, `rerank`, *Widening*).
    pub thorough: bool,
    /// A line to answer and check instead of the solver's own, if it mates (the composer's line;
    /// `mate_answer`). Per problem: the front end sets it before each solve.
    pub given_line: Option<Vec<Move>>,
    pub futile: Futile,
    /// Searchers of each search, one thread each (`parallel.rs`).
    pub threads: usize,
    /// With both kings and the side to move in check, the side to move defends (`roles.rs`).
    pub root_and_if_checked: bool,
    /// Lines reported after a mate, the answer's included (`pv/multipv.rs`); 1: the answer alone.
    pub multipv: usize,
}

impl Default for SolverSettings {
    fn default() -> SolverSettings {
        SolverSettings {
            config: SearchConfig::default(),
            pv_level: PvLevel::default(),
            check_alternatives: false,
            check_variations: false,
            settle: false,
            thorough: false,
            given_line: None,
            futile: Futile::default(),
            threads: 1,
            root_and_if_checked: false,
            multipv: 1,
        }
    }
}

/// A mate solver with its transposition table. Reuse one across problems: the table is allocated once.
pub struct Solver {
    tt: tt::Table,
    settings: SolverSettings,
    /// The searchers' marks (`marks.rs`).
    marks: Marks,
    /// Nodes spent on each root (its position key) since the table was last cleared: a root asked
    /// again gets line phases sized by all that work (`Shared::prior_nodes`). Forgotten with the
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
            settings: SolverSettings::default(),
            marks: Marks::default(),
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

    /// Everything a user has set.
    pub fn settings(&self) -> &SolverSettings {
        &self.settings
    }

    pub fn set_settings(&mut self, settings: SolverSettings) {
        self.settings = settings;
    }

    /// Sets the internal search switches (for measurements; the default is the best measured).
    pub fn set_config(&mut self, config: SearchConfig) {
        self.settings.config = config;
    }

    pub fn config(&self) -> &SearchConfig {
        &self.settings.config
    }

    /// How much work goes into the mating line after the proof (default: the exact minimax line).
    pub fn set_pv_level(&mut self, level: PvLevel) {
        self.settings.pv_level = level;
    }

    pub fn pv_level(&self) -> PvLevel {
        self.settings.pv_level
    }

    /// After a mate, look for other attacker moves along the line that also mate within the plies
    /// left (`Findings::alternatives`).
    pub fn set_check_alternatives(&mut self, on: bool) {
        self.settings.check_alternatives = on;
    }

    pub fn check_alternatives(&self) -> bool {
        self.settings.check_alternatives
    }

    /// After a mate, search the defender's other replies along the line, each with its mate
    /// (`Findings::variations`).
    pub fn set_check_variations(&mut self, on: bool) {
        self.settings.check_variations = on;
    }

    /// After the answer's line, prove its canonical length and search its alternatives and
    /// variations with the time left, without the phases' node budgets (`SolverSettings::settle`).
    pub fn set_settle(&mut self, on: bool) {
        self.settings.settle = on;
    }

    /// With the composers' check (`set_settle`), read the ranking of the settled line further with
    /// wider spare tests (`SolverSettings::thorough`).
    pub fn set_thorough(&mut self, on: bool) {
        self.settings.thorough = on;
    }

    /// The line the next solves answer and check instead of their own when it mates
    /// (`SolverSettings::given_line`); `None`: the solver's own.
    pub fn set_given_line(&mut self, line: Option<Vec<Move>>) {
        self.settings.given_line = line;
    }

    /// Whether futile interpositions count as defences (`game/futile.rs`; default: they do).
    pub fn set_futile(&mut self, futile: Futile) {
        self.settings.futile = futile;
    }

    pub fn futile(&self) -> Futile {
        self.settings.futile
    }

    /// How many threads search the proof (at least 1; `parallel.rs`). The phases after the proof
    /// run on the calling thread.
    pub fn set_threads(&mut self, threads: usize) {
        self.settings.threads = threads.max(1);
    }

    pub fn threads(&self) -> usize {
        self.settings.threads
    }

    /// With both kings and the side to move in check, whether the side to move defends (the root an
    /// AND node) or attacks (`RootIsAndNodeIfChecked`, `roles.rs`). The library's default is to
    /// attack, the convention of problem files (the side to move attacks); the front ends set it
    /// from their options (USI and `solve`: defend).
    pub fn set_root_and_if_checked(&mut self, on: bool) {
        self.settings.root_and_if_checked = on;
    }

    pub fn root_and_if_checked(&self) -> bool {
        self.settings.root_and_if_checked
    }

    /// After a mate, report this many lines in all, the answer's first (`Findings::other_lines`
    /// has the others; at least 1).
    pub fn set_multipv(&mut self, lines: usize) {
        self.settings.multipv = lines.max(1);
    }

    pub fn multipv(&self) -> usize {
        self.settings.multipv
    }

    /// Searches for a mate of the side to move in `problem_position(root)` (see there for who holds the
    /// pieces missing from the SFEN). A root that is not a mate problem (the defender has no king, or is
    /// in check) is refused.
    ///
    /// Returns when the root is proven or disproven, when a limit is reached, or soon after `stop`
    /// becomes true (then `Timeout`). A `Mate` line is always verified legal, checking and mating.
    ///
    /// The phases, in order: shortest-first deepening (`MinLength` only, `deepen.rs`); the proof
    /// search (`dfpn/root.rs`); after a proof, the mating line (`pv.rs`), the canonical line
    /// (`Futile::Skip`, `canonical/line.rs`) and the alternatives check (`pv/alternatives.rs`).
    pub fn solve(
        &mut self,
        root: &Position,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Result<SolveResult, SolveError> {
        let start = Instant::now();
        let written_before = self.tt.entries_written();
        let role =
            root_role(root, self.settings.root_and_if_checked).map_err(SolveError::InvalidRoot)?;
        let attacker = role.attacker(root);
        let problem = Problem::new(problem_position(root), attacker);
        let root_key = problem.root.key();
        let mut shared = Shared::new(&self.tt, &self.settings.config, limits, stop, problem)
            .with_threads(self.settings.threads, &self.marks);
        shared.prior_nodes = self.efforts.get(&root_key).copied().unwrap_or(0);
        let mut s = Searcher::new(&shared, on_info);
        s.enter_root();
        // Shortest first asks the odd lengths of an attacking root.
        let deepened = if self.settings.pv_level == PvLevel::MinLength && role == RootRole::Attacks
        {
            deepen(&mut s)
        } else {
            Deepened::NOTHING
        };
        let result = if deepened.exact.is_some() {
            RootResult::Proven
        } else if s.budget.aborted {
            RootResult::Aborted
        } else if shared.threads > 1 {
            parallel::prove(&mut s)
        } else {
            s.prove()
        };
        let settings = Settings {
            level: self.settings.pv_level,
            futile: self.settings.futile,
            check_alternatives: self.settings.check_alternatives,
            check_variations: self.settings.check_variations,
            settle: self.settings.settle,
            thorough: self.settings.thorough,
            given_line: self.settings.given_line.as_deref(),
            attacker,
        };
        let mut answer = answer(&mut s, root, result, &deepened, settings);
        if let MateOutcome::Mate(line) = &answer.outcome
            && self.settings.multipv > 1
            && role == RootRole::Attacks
        {
            let line = line.clone();
            answer.findings.other_lines =
                multipv::other_lines(&mut s, &line, self.settings.multipv - 1)
                    .into_iter()
                    .filter(|l| l.mate.is_none() || verify_mate_line_by(root, attacker, &l.moves))
                    .collect();
        }
        if role == RootRole::Defends && answer.outcome != MateOutcome::Timeout {
            answer.findings.add_note(
                "the side to move is in check and defends (RootIsAndNodeIfChecked): a mate is its being mated, and the line starts with its reply",
            );
        }
        let mut stats = s.stats;
        stats += s.helpers;
        drop(s);
        drop(shared);
        if self.efforts.len() >= EFFORTS_MAX && !self.efforts.contains_key(&root_key) {
            self.efforts.clear();
        }
        *self.efforts.entry(root_key).or_default() += stats.nodes;
        Ok(SolveResult {
            outcome: answer.outcome,
            findings: answer.findings,
            nodes: stats.nodes,
            elapsed: start.elapsed(),
            entries: self.tt.entries_written().saturating_sub(written_before),
            inferior_cuts: stats.inferior_cuts,
            pump_children: stats.pump_children,
            threads: self.settings.threads,
            defends: role == RootRole::Defends,
        })
    }
}

/// What the user asked of the line after a proof.
#[derive(Clone, Copy)]
struct Settings<'a> {
    level: PvLevel,
    futile: Futile,
    check_alternatives: bool,
    check_variations: bool,
    settle: bool,
    thorough: bool,
    given_line: Option<&'a [Move]>,
    /// Who attacks at the root (`roles.rs`).
    attacker: Color,
}

/// The answer of a solve, the search's counters aside.
struct Answer {
    outcome: MateOutcome,
    findings: Findings,
}

impl Answer {
    /// No mate found: `outcome` (no mate, or timeout), with `note` if any.
    fn without_mate(outcome: MateOutcome, note: Option<String>) -> Answer {
        Answer {
            outcome,
            findings: Findings::noting(note),
        }
    }
}

/// The answer for the root once the proof search has ended with `result`.
fn answer(
    s: &mut Searcher,
    root: &Position,
    result: RootResult,
    deepened: &Deepened,
    settings: Settings<'_>,
) -> Answer {
    match result {
        RootResult::Proven => mate_answer(s, root, deepened, settings),
        RootResult::Disproven => Answer::without_mate(MateOutcome::NoMate, None),
        RootResult::Aborted => Answer::without_mate(MateOutcome::Timeout, None),
        RootResult::GaveUp(why) => Answer::without_mate(MateOutcome::Timeout, Some(why)),
    }
}

/// The answer for a proven root: the mating line (`pv.rs`), verified; with `Futile::Skip` the
/// canonical line; with `check_alternatives` the alternatives along the line printed.
fn mate_answer(
    s: &mut Searcher,
    root: &Position,
    deepened: &Deepened,
    settings: Settings<'_>,
) -> Answer {
    let Some(line) = pv::extract(s, settings.level, deepened) else {
        let why = "proven, but the line could not be rebuilt in time";
        return Answer::without_mate(MateOutcome::Timeout, Some(why.into()));
    };
    if !verify_mate_line_by(root, settings.attacker, &line.moves) {
        log::error!(
            "internal: extracted mate line failed verification: {:?}",
            line.moves
        );
        let why = "internal: the mating line failed verification";
        return Answer::without_mate(MateOutcome::Timeout, Some(why.into()));
    }
    let mut f = Findings {
        exact: line.exact,
        // A first line (`PvLevel::None`) may be longer than the root's recorded length: then the
        // bound holds all the more for its length. A line's own length bounds nothing (its
        // defender need not take the longest reply), so with no recorded bound (the root's entry
        // lost) nothing is claimed.
        mate_bound: line.bound.map(|b| b.max(line.moves.len() as u32)),
        mate_bound_exact: line.bound_exact,
        ..Findings::default()
    };
    if settings.level == PvLevel::MinLength && !f.exact {
        f.note = Some(match line.bound {
            Some(b) => format!(
                "the search stopped before the line was proven shortest: mate in {b} or less"
            ),
            None => "the search stopped before the line was proven shortest".into(),
        });
    }
    let mut moves = line.moves.clone();
    // The game the printed line is a minimax line of: the checks after it search the same one.
    let mut game = s.game;
    if settings.futile == Futile::Skip {
        let found = canonical_line(s, &line)
            .map(|(c, g)| {
                let c = if settings.settle {
                    settle(s, c, g, settings.thorough)
                } else {
                    c
                };
                (c, g)
            })
            .filter(|(c, _)| printable(c));
        match found {
            Some((c, canonical)) if verifies_canonical(s, &c.moves) => {
                game = canonical;
                f.canonical_length = Some(c.moves.len() as u32);
                // The canonical game's bound: the line's own length, or more for a line the
                // composers' ranking chose (it may take a defence shorter than the longest).
                f.mate_bound = c.bound.map(|b| b.max(c.moves.len() as u32));
                f.mate_bound_exact = c.bound_exact;
                f.exact = c.exact;
                // Only `printable` lines come here: of the proven bound's length, or chosen by the
                // composers' ranking.
                f.note = if c.ranked {
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
                if !verify_mate_line_by(root, settings.attacker, &c.moves) {
                    // A verified canonical line that is no mate ends where only futile
                    // interpositions are left: say so, a GUI expects mate.
                    f.add_note(
                        "the line ends where the defender has only futile interpositions left (not counted: the composers' convention)",
                    );
                }
                moves = c.moves;
            }
            _ => {
                f.exact = false;
                // The strict bound bounds the canonical length, but is not it.
                f.mate_bound_exact = false;
                f.note = Some(
                    "the canonical line (futile interpositions skipped) was not found in time; the line counts every interposition".into(),
                );
            }
        }
    }
    if let Some(given) = settings.given_line {
        f.given_line = Some(s.in_game(game, |s| take_given_line(s, &mut f, &mut moves, given)));
    }
    if settings.check_alternatives {
        f.alternatives =
            Some(s.in_game(game, |s| alternatives::check(s, &moves, !settings.settle)));
    }
    // The composers' check: a line that leaves pieces over gives way to a 余詰 as long that does
    // not (`canonical/unspared.rs`), whose alternatives are then searched again.
    if settings.settle
        && f.given_line != Some(true)
        && let Some(alts) = &f.alternatives
        && alts.complete
        && f.exact
        && let Some(better) = s.in_game(game, |s| line_without_spare(s, &moves, alts))
    {
        // As long as the exact line it replaces: exact too.
        moves = better;
        f.alternatives = Some(s.in_game(game, |s| alternatives::check(s, &moves, false)));
    }
    if settings.check_variations {
        f.variations = Some(s.in_game(game, |s| variations::check(s, &moves, !settings.settle)));
    }
    Answer {
        outcome: MateOutcome::Mate(moves),
        findings: f,
    }
}

/// A line given to check (the composer's): it replaces `moves` (the solver's own line) when it is a
/// mating line in the game of the answer (the canonical one with `Futile::Skip`:
/// `verifies_canonical`), and then its length is exact only if it is the proven minimax length.
/// Whether it was taken. Its alternatives and variations are then searched along it: the variations
/// without history (`variations.rs`), so their values hold for any line; the alternatives' argument
/// needs an exact line (`alternatives.rs`), and the report calls a shorter given line not exact.
fn take_given_line(
    s: &mut Searcher,
    f: &mut Findings,
    moves: &mut Vec<Move>,
    given: &[Move],
) -> bool {
    let mates = if s.game.skips_futile() {
        verifies_canonical(s, given)
    } else {
        verify_mate_line_by(&s.pos.clone(), s.attacker(), given)
    };
    if !mates {
        f.add_note("the given line is not a mating line: the solver's own line is answered");
        return false;
    }
    let len = given.len() as u32;
    f.exact = f.mate_bound_exact && f.mate_bound == Some(len);
    if f.canonical_length.is_some() {
        f.canonical_length = Some(len);
    }
    f.note = (!f.exact).then(|| match f.mate_bound {
        Some(b) if f.mate_bound_exact => {
            format!("the given line is answered: {len} plies, the minimax length is {b}")
        }
        _ => format!("the given line is answered: {len} plies, not proven the minimax length"),
    });
    *moves = given.to_vec();
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{Color, Move, Piece, PieceKind, SfenError, Square};

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
        assert_eq!(r.findings.note, None);
    }
}
