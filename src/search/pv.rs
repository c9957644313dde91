//! The mating line written after `checkmate`.
//!
//! df-pn proves a mate without caring about its length: the proof it finds is *a* mate, often much
//! longer than the shortest one. The PV search makes the line exact: the attacker takes the shortest
//! mate, the defender the longest resistance (every legal evasion counts, interpositions included).
//! How far it goes is the `PvLevel`.
//!
//! ## Length-bounded searches
//!
//! The tool is a df-pn search with a length bound (`Game::within`, `bounded.rs`): "can the attacker mate within d
//! plies?". It runs over the same table as the proof. Its proofs are ordinary proofs (a mate within d
//! plies is a mate, with `len` ≤ d); its other disproofs are "no mate within d"
//! (`Dependence::Within`), seen only by bounded searches asking for at most d plies (`Table::probe`).
//!
//! **Lengths are path-independent.** Write D(P) for the minimax mate length of P in the game *without*
//! the repetition rule (attacker shortest, defender longest; ∞ without a mate).
//! 1. An attacker who plays, at every position, a check to a position of smaller D mates in D(P)
//!    plies against any defence, and D strictly decreases along every line of that strategy, so no
//!    position repeats: the repetition rule never applies. The rule only ever hurts the attacker
//!    (perpetual check loses), so the defender cannot resist longer with it. So D(P) is the minimax
//!    length under the real rules too, and it depends on P only, not on how P was reached.
//! 2. Hence a bounded search may cut a line at a repetition of a position on the current path, as the
//!    main search does: a shortest mate never needs it. What it may not do is *store* a result that
//!    rests on such a cut as if it held everywhere. komori-n's PV article shows the failure: a search
//!    at depth X that meets a loop back to depth D < X gets lengths for depths D+1…X that depend on
//!    the path, and a position → length cache that keeps them is wrong from another path (see
//!    `tests::komori_example_graph`). The disproof carries the shallowest ply it looped to
//!    (`Within { loop_at }`); at nodes at or above that ply the loop closes inside the subtree and the
//!    result is general (`Dependence::settle`); below it the result is stored under the path key only.
//!    Proofs never rest on a cut.
//! 3. On the PV itself path-dependent refutations are harmless: positions on a minimax line have
//!    strictly decreasing values, so a line from the current node that went back to a position P on
//!    the path would take at least D(P) ≥ the current value more plies: cutting it never hides a
//!    shorter mate.
//!
//! ## The driver
//! 0. With `MinLength`, the search first asks "mate within 1? 3? 5? …" from the root, within a small
//!    node cap (`deepen.rs`). A first yes is exact at once; the line is then read along exact values
//!    (step 4) and the steps below are skipped. Otherwise the proof search runs as usual, and:
//! 1. The first line: follow the table from the root (the attacker taking the proven check with the
//!    fewest recorded plies, the defender the proven reply with the most). This is `PvLevel::None`, and
//!    the fallback of the others.
//! 2. An upper bound U: the root's recorded proof length (the proof is a mate tree of at most U plies).
//! 3. `MinLength`: ask the root "mate within d?" for d below U (U − 2, or lower by jumps:
//!    `tighten`) until every length below U is refuted. Each yes brings a proof and a new, smaller
//!    U, whose line (as `UpperBound` reads it) is read at once, while the bounded proof's entries
//!    are fresh; the last no makes U exact.
//! 4. The line is read along exact values: at an OR node with value k, a check whose child is proven
//!    within k − 1; at an AND node with value k, the reply that refuted "mate within k − 2" (the
//!    table's best move of that bounded disproof), whose child is then proven within k − 1, so its
//!    value is exactly k − 1. Missing entries are searched again, bounded to the same budget.
//!    `UpperBound` reads a line within U without making U exact (the defender takes the longest
//!    recorded reply).
//!
//! A stop or time limit during the PV phase ends it with the best line proven so far, which is still a
//! real mate (the caller verifies every line); the result says it is not known to be the shortest.

pub mod alternatives;
pub mod exact;
mod first;
pub mod multipv;
#[cfg(test)]
mod tests;
pub mod tighten;
pub mod variations;
pub mod walk;

use crate::position::Move;
use crate::search::deepen::Deepened;
use crate::search::dfpn::Searcher;
use crate::search::loops::HARD_MAX_PLY;
use crate::search::tt::UNBOUNDED;
use tighten::tighten;
use walk::{probe_here, walk};

// The PV phase has its own node budget, by steps (`SearchConfig::phase_step`): each "mate within
// U − 2?" may spend a fifth of the nodes of the proof (at least 200 000; 5 M in an open-ended search,
// `SearchLimits::open_ended`), the phase as a
// whole twice that. Proving a length exact means refuting every shorter mate, which on a long problem
// can cost far more than the proof; the phase then ends with the best line found and says so, instead
// of holding the answer back for minutes. A budget by steps, not one for the whole phase, because the
// steps that succeed are cheap and each one shortens the line, while the last one (the refutation)
// is the expensive one and decides nothing about the line printed, only whether it is called exact
// (on Zukou the shortening steps take a small part of the phase's nodes, the refutations that run
// out most of them: docs/benchmarks.md, *The line phase*). A bounded node costs about twice a node
// of the main search: the main search counts its look-ahead's and frontier's nodes too (several per
// node expanded, `Stats::expansions`), a bounded search only the nodes it expands. So a fifth of
// the proof's nodes per step keeps the phase within about half the proof's time on a long problem,
// and a step is spent once per bound decided: a jump that goes unanswered spends from the step of
// the question after it (`tighten`). Every problem of the short sets is made exact well within it.

/// How much work goes into the line after the proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PvLevel {
    /// The first proven line, as the table has it (may be much longer than the shortest mate).
    None,
    /// A line no longer than the proof's bound (cheap; not always the shortest).
    UpperBound,
    /// The minimax line: the shortest mate against the longest defence.
    #[default]
    MinLength,
}

impl PvLevel {
    /// Parses the USI / command-line spelling (`None`, `UpperBound`, `MinLength`, or the kebab-case
    /// `none`, `upper-bound`, `min-length`), case-insensitively.
    pub fn parse(s: &str) -> Option<PvLevel> {
        match s.to_ascii_lowercase().replace(['-', '_'], "").as_str() {
            "none" => Some(PvLevel::None),
            "upperbound" => Some(PvLevel::UpperBound),
            "minlength" => Some(PvLevel::MinLength),
            _ => None,
        }
    }

    /// The USI spelling.
    pub fn usi_name(self) -> &'static str {
        match self {
            PvLevel::None => "None",
            PvLevel::UpperBound => "UpperBound",
            PvLevel::MinLength => "MinLength",
        }
    }
}

/// The line the PV phase settled on.
#[derive(Clone, Debug)]
pub struct Line {
    pub moves: Vec<Move>,
    /// The line's length is proven to be the minimax length.
    pub exact: bool,
    /// A proven upper bound of the root's minimax length (in the game searched), when known. A line
    /// that is not exact may be shorter than the minimax (its defender need not take the longest
    /// reply): only this bound may be claimed ("mate in `bound` or less").
    pub bound: Option<u32>,
    /// `bound` is proven to be the minimax length (the line itself may be shorter: a ranked line, or
    /// a walk that could not read the whole line).
    pub bound_exact: bool,
    /// The composers' ranking changed the canonical line (`canonical/ranking.rs`): its length is the
    /// composers' as far as the pass's tests saw, not a proven minimax length.
    pub ranked: bool,
}

/// The mating line from the (proven) root of `search`, or `None` if not even a first line could be
/// rebuilt within the limits. Each better mate length found is reported (`Searcher::report_mate`).
/// `deepened`: what shortest-first deepening learnt of the root. Leaves the position and the path
/// as it found them.
pub fn extract(s: &mut Searcher, level: PvLevel, deepened: &Deepened) -> Option<Line> {
    log::debug!(
        "pv: proof at nodes {} expansions {}",
        s.stats.nodes,
        s.stats.expansions
    );
    // A proof holds whatever the depth limit, but the line it gives may be longer than the limit
    // (a proof found at ply p may be read at a deeper ply q through a transposition): reading and
    // re-proving lost nodes must not be cut by it.
    s.depth.max_ply = HARD_MAX_PLY;
    s.lift_depth_cuts();
    if level == PvLevel::MinLength
        && let Some(n) = deepened.exact
    {
        // The shortest-first search proved the length (`deepen.rs`): read the line along exact
        // values at once. The first line would only be a fallback, rebuilt (and partly re-proven:
        // the 3-ply frontier stores only its root's proof) for nothing.
        s.budget.end = s.phase_budget();
        let line = final_walk(s, n, true, vec![]);
        s.budget.end = None;
        if line.exact {
            s.report_mate(n, &line.moves);
            return Some(line);
        }
        // Only the phase's budget may end here; the user's limits still hold.
        s.budget.aborted = s.user_limit_reached();
    }
    // The first line is the answer itself, not a refinement of it: rebuilding it (re-proving what
    // the table lost on the way, backing out of dead ends) has only the search's own limits, never
    // the phase budget, so that a proven root with time left does not end as "timeout".
    let first = first::first_line(s)?;
    s.budget.end = s.phase_budget();
    let step = s.phase_step();
    let line = refine(s, level, step, first, deepened);
    s.budget.end = None;
    Some(line)
}

/// The PV phase after the first line: its length bound from the table and, with `MinLength`, the
/// tightening to the exact length, each step within `step` nodes.
fn refine(
    s: &mut Searcher,
    level: PvLevel,
    step: Option<u64>,
    first: Vec<Move>,
    deepened: &Deepened,
) -> Line {
    // The proof's bound: the root's recorded length. (The first line's length is no bound: its
    // defender takes the longest *recorded* replies, and recorded lengths are upper bounds.)
    let root = probe_here(s, s.path.root, UNBOUNDED);
    if level == PvLevel::None || !root.is_proven() {
        return Line {
            ranked: false,
            bound_exact: false,
            moves: first,
            exact: false,
            bound: root.is_proven().then_some(u32::from(root.len)),
        };
    }
    let mut best = first;
    let mut bound = u32::from(root.len);
    if best.len() as u32 == bound {
        s.report_mate(bound, &best);
    }
    // The shortest-first search proved its length exact.
    let mut exact = bound <= 1 || deepened.exact == Some(bound);
    if level == PvLevel::MinLength && !exact {
        exact = tighten(s, &mut bound, &mut best, step, deepened.least_mate);
    }
    final_walk(s, bound, exact, best)
}

/// Reads the line of `bound` plies (exact or not), keeping `best` if that fails.
pub fn final_walk(s: &mut Searcher, bound: u32, mut exact: bool, mut best: Vec<Move>) -> Line {
    let bound_exact = exact;
    log::debug!("pv: walk from nodes {}", s.stats.nodes);
    s.budget_for_reading();
    match walk(s, bound, exact, true) {
        Some(line) => best = line,
        None => exact = false,
    }
    log::debug!(
        "pv: done at nodes {}: {} plies, bound {bound}, exact {exact}",
        s.stats.nodes,
        best.len()
    );
    let exact = exact && best.len() as u32 == bound;
    Line {
        ranked: false,
        bound_exact,
        moves: best,
        exact,
        bound: Some(bound),
    }
}
