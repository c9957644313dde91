//! The mating line written after `checkmate`.
//!
//! df-pn proves a mate without caring about its length: the proof it finds is *a* mate, often much
//! longer than the shortest one. The PV search makes the line exact: the attacker takes the shortest
//! mate, the defender the longest resistance (every legal evasion counts, interpositions included).
//! How far it goes is the `PvLevel`.
//!
//! ## Length-bounded searches
//!
//! The tool is a df-pn search with a length bound (`Dfpn::horizon`): "can the attacker mate within d
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
//! 3. `MinLength`: ask the root "mate within U − 2?" until the answer is no. Each yes brings a proof
//!    and a new, smaller U, whose line (as `UpperBound` reads it) is read at once, while the bounded
//!    proof's entries are fresh; the final no makes U exact.
//! 4. The line is read along exact values: at an OR node with value k, a check whose child is proven
//!    within k − 1; at an AND node with value k, the reply that refuted "mate within k − 2" (the
//!    table's best move of that bounded disproof), whose child is then proven within k − 1, so its
//!    value is exactly k − 1. Missing entries are searched again, bounded to the same budget.
//!    `UpperBound` reads a line within U without making U exact (the defender takes the longest
//!    recorded reply).
//!
//! A stop or time limit during the PV phase ends it with the best line proven so far, which is still a
//! real mate (the caller verifies every line); the result says it is not known to be the shortest.

use super::dfpn::{Dfpn, NodeResult, READING_NODES, Seen};
use super::frontier::is_interposition;
use super::futile::{CANONICAL_SALT, futile_proof};
use super::loops::next_path;
use super::numbers::PN_MAX;
use super::spare::{self, Spare};
use super::tt::{Probe, UNBOUNDED};
use crate::position::Move;
use crate::position::movegen::{MoveList, check_gap, generate_checks, generate_evasions};

/// No PV is longer than this (Microcosmos is 1525 plies).
const MAX_PV: usize = 10_000;

// The PV phase has its own node budget, by steps (`SearchConfig::phase_step`): each "mate within
// U − 2?" may spend a fifth of the nodes of the proof (at least 200 000; 5 M in an open-ended search,
// `SearchLimits::open_ended`), the phase as a
// whole twice that. Proving a length exact means refuting every shorter mate, which on a long problem
// can cost far more than the proof; the phase then ends with the best line found and says so, instead
// of holding the answer back for minutes. A budget by steps, not one for the whole phase, because the
// steps that succeed are cheap and each one shortens the line, while the last one (the refutation)
// is the expensive one and decides nothing about the line printed, only whether it is called exact:
// on Zukou (debug log of `pv`, 10 s cap) 253 shortening steps took 5.6 M nodes in all, while 69
// refutations that ran out took 37.7 M and the 30 that succeeded 6.5 M (with the old budget, half
// the proof's nodes and at least 500 000 for the whole phase). A bounded node costs about twice a
// node of the main search: the main search counts its look-ahead's and frontier's nodes too (3 to 6
// of them per node expanded on Zukou, `Dfpn::expansions`), a bounded search only the nodes it
// expands (Kotobuki, callgrind: ~10 900 instructions per expansion of the main search, ~6 600 per
// bounded node). So a fifth of the proof's nodes per step keeps the phase within about half the
// proof's time on a long problem, and a step is spent once per bound decided: a jump that goes
// unanswered spends from the step of the question after it (`tighten`). Every problem of the short
// sets is made exact well within it.

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
pub(super) struct Line {
    pub moves: Vec<Move>,
    /// The line's length is proven to be the minimax length.
    pub exact: bool,
    /// A proven upper bound of the root's minimax length (in the game searched), when known. A line
    /// that is not exact may be shorter than the minimax (its defender need not take the longest
    /// reply): only this bound may be claimed ("mate in `bound` or less").
    pub bound: Option<u32>,
    /// The composers' ranking changed the canonical line (`ranking.rs`): its length is the
    /// composers' as far as the pass's tests saw, not a proven minimax length.
    pub ranked: bool,
}

/// The mating line from the (proven) root of `search`, or `None` if not even a first line could be
/// rebuilt within the limits. Each better mate length found is reported (`Dfpn::report_mate`). Leaves
/// the position, the path set and the horizon as it found them.
pub(super) fn extract(s: &mut Dfpn, level: PvLevel) -> Option<Line> {
    log::debug!("pv: proof at nodes {} expansions {}", s.nodes, s.expansions);
    // A proof holds whatever the depth limit, but the line it gives may be longer than the limit
    // (a proof found at ply p may be read at a deeper ply q through a transposition): reading and
    // re-proving lost nodes must not be cut by it.
    s.max_ply = super::dfpn::HARD_MAX_PLY;
    s.lift_depth_cuts();
    if level == PvLevel::MinLength
        && let Some(n) = s.exact_root
    {
        // The shortest-first search proved the length (`deepen.rs`): read the line along exact
        // values at once. The first line would only be a fallback, rebuilt (and partly re-proven:
        // the 3-ply frontier stores only its root's proof) for nothing.
        s.node_budget = s.phase_budget();
        let line = final_walk(s, n, true, vec![]);
        s.node_budget = None;
        if line.exact {
            s.report_mate(n, &line.moves);
            return Some(line);
        }
        // Only the phase's budget may end here; the user's limits still hold.
        s.aborted = s.user_limit_reached();
    }
    // The first line is the answer itself, not a refinement of it: rebuilding it (re-proving what
    // the table lost on the way, backing out of dead ends) has only the search's own limits, never
    // the phase budget, so that a proven root with time left does not end as "timeout".
    let first = first::first_line(s)?;
    s.node_budget = s.phase_budget();
    let step = s.phase_step();
    let line = refine(s, level, step, first);
    s.node_budget = None;
    Some(line)
}

/// The PV phase after the first line: its length bound from the table and, with `MinLength`, the
/// tightening to the exact length, each step within `step` nodes.
fn refine(s: &mut Dfpn, level: PvLevel, step: Option<u64>, first: Vec<Move>) -> Line {
    // The proof's bound: the root's recorded length. (The first line's length is no bound: its
    // defender takes the longest *recorded* replies, and recorded lengths are upper bounds.)
    let root = probe_here(s, s.root_path, UNBOUNDED);
    if level == PvLevel::None || !root.is_proven() {
        return Line {
            ranked: false,
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
    let mut exact = bound <= 1 || s.exact_root == Some(bound);
    if level == PvLevel::MinLength && !exact {
        exact = tighten(s, &mut bound, &mut best, step);
    }
    final_walk(s, bound, exact, best)
}

/// "Mate within d?" from the root, d below `bound`, until every length below `bound` is refuted (then
/// `bound` is exact: returns true) or a limit stops it. Each yes lowers `bound` to the mate's length;
/// `best` takes that bound's line at once (`read_bound`: from the table, else searched again within a
/// small allowance). Each question may spend `step` nodes (within the phase's budget).
///
/// Which d: a yes is cheap next to a no (a bounded search stops at its first mate, a refutation must
/// look at every line), and a bounded search tends to find a mate near its bound, so asking only
/// `bound` − 2 shortens the line by two plies a question: from a first proof of 69 plies of a random
/// mate in 13 the phase's budget ran out at 21 (`tests/cli/solve.rs`,
/// `the_line_phase_jumps_to_a_much_shorter_mate`). So the jump below `bound` doubles after each yes
/// (2, 4, 8, … plies), and a no refutes every length up to d at once: the shortest possible length
/// `least` rises past it, and the next question halves what lies between. A jump gets a quarter of a
/// step; one that ends unanswered ends the jumping, and the question is asked again as `bound` − 2,
/// where the answers are cheapest, with what is left of the step (a step per bound decided: the
/// jump's guess and the question after it decide one bound, and on a long problem whose shorter
/// mates cannot be refuted within any step, a whole step more after the jump was a quarter of the
/// phase spent for nothing; Kotobuki 1 408 180 → 1 352 884 nodes). Unanswered there, the phase ends.
fn tighten(s: &mut Dfpn, bound: &mut u32, best: &mut Vec<Move>, step: Option<u64>) -> bool {
    // Every length below `least` is refuted (mates from the root have odd lengths). Deepening's
    // refutations are of the strict game: the canonical game's mates may be shorter.
    debug_assert!(s.least_mate <= *bound, "refuted up to a proof's length");
    let mut least = if s.futile_skip {
        1
    } else {
        s.least_mate.min(*bound)
    };
    let mut jump = 2;
    // Jumps are made until one goes unanswered (`SearchConfig::pv_jumps`).
    let mut guessing = s.config.pv_jumps;
    let phase_end = s.node_budget;
    // Where the current step began: at the last answer (yes or no). A jump that goes unanswered
    // spends from the step of the question asked after it.
    let mut step_begun = s.nodes;
    while *bound > least && !s.aborted {
        let ask = bound.saturating_sub(jump).max(least);
        if let Some(step) = step {
            let step_end = if ask + 2 < *bound {
                // A jump is a guess: a quarter of a step, so that a wrong one costs little.
                s.nodes.saturating_add(step / 4)
            } else {
                step_begun.saturating_add(step)
            };
            s.node_budget = Some(phase_end.map_or(step_end, |end| end.min(step_end)));
        }
        let r = mate_within(s, ask, "pv");
        s.node_budget = phase_end;
        if r.pn == 0 {
            debug_assert!(u32::from(r.len) <= ask);
            *bound = u32::from(r.len);
            if guessing {
                jump *= 2;
            }
            if let Some(line) = read_bound(s, *bound, phase_end) {
                *best = line;
            }
            if !s.futile_skip {
                let shown: &[Move] = if best.len() as u32 == *bound {
                    best
                } else {
                    &[]
                };
                s.report_mate(*bound, shown);
            }
            step_begun = s.nodes;
        } else if r.dn == 0 {
            least = ask + 2;
            // Half of what lies between, an even number of plies (at least 2).
            if guessing {
                jump = ((*bound - least) / 4 * 2).max(2);
            }
            step_begun = s.nodes;
        } else if ask + 2 < *bound && !s.user_limit_reached() {
            s.aborted = false;
            guessing = false;
            jump = 2;
        } else {
            break;
        }
    }
    *bound <= least
}

/// The line of the bound `bound` just proven from the root (`tighten`): from the table alone if it
/// gives one; else searched again where entries are missing (the 3-ply frontier stores only its root's
/// proof, and a large search loses entries), within `READING_NODES` more nodes and the phase's end
/// `phase_end`. Read at once, while the bounded proof's entries are fresh: when a later question is
/// stopped by the user's limit, no budget is left to read at the end, and the answer would be the
/// first proof's line beside a much shorter proven bound (Zukou #8 at `go mate 30000` with 256 MiB:
/// a 77-ply line for a proven mate in 43, each bound's table-only reading having failed).
/// `None` (the caller keeps its line) if no line is read.
fn read_bound(s: &mut Dfpn, bound: u32, phase_end: Option<u64>) -> Option<Vec<Move>> {
    if let Some(line) = walk(s, bound, false, false) {
        return Some(line);
    }
    let allowance = s.nodes.saturating_add(READING_NODES);
    s.node_budget = Some(phase_end.map_or(allowance, |end| end.min(allowance)));
    let line = walk(s, bound, false, true);
    s.node_budget = phase_end;
    // Only the allowance may end the reading here: the phase goes on unless a limit of its own or
    // the user's was reached.
    if s.aborted && !s.limit_reached() {
        s.aborted = false;
    }
    log::debug!(
        "pv: bound {bound} read by searching: {:?} plies, nodes {}",
        line.as_ref().map(Vec::len),
        s.nodes
    );
    line
}

/// Asks the root "mate within `plies`?" (a length-bounded search to the end or to a limit) and logs
/// the answer under `phase`. Leaves the search unbounded again.
pub(super) fn mate_within(s: &mut Dfpn, plies: u32, phase: &str) -> NodeResult {
    s.horizon = plies;
    let r = s.mid(PN_MAX, PN_MAX, 0, s.root_path, Seen::Before);
    s.horizon = UNBOUNDED;
    log::debug!(
        "{phase}: mate within {plies}? pn {} dn {} len {} nodes {} expansions {}",
        r.pn,
        r.dn,
        r.len,
        s.nodes,
        s.expansions
    );
    r
}

/// Reads the line of `bound` plies (exact or not), keeping `best` if that fails.
fn final_walk(s: &mut Dfpn, bound: u32, mut exact: bool, mut best: Vec<Move>) -> Line {
    log::debug!("pv: walk from nodes {}", s.nodes);
    s.budget_for_reading();
    match walk(s, bound, exact, true) {
        Some(line) => best = line,
        None => exact = false,
    }
    log::debug!(
        "pv: done at nodes {}: {} plies, bound {bound}, exact {exact}",
        s.nodes,
        best.len()
    );
    s.horizon = UNBOUNDED;
    let exact = exact && best.len() as u32 == bound;
    Line {
        ranked: false,
        moves: best,
        exact,
        bound: Some(bound),
    }
}

/// The canonical line (`futile.rs`): the minimax line of the game without futile interpositions,
/// searched from `strict` (a strict mating line and a proven bound of the strict minimax length,
/// which bounds the canonical one: dropping futile defences only shortens mates). Its own table
/// space, its own budget. `None` if no line of the canonical bound could be read.
pub(super) fn canonical(s: &mut Dfpn, strict: &Line) -> Option<Line> {
    let mut bound = strict.bound?;
    s.node_budget = s.phase_budget();
    let step = s.phase_step();
    s.aborted = false;
    s.futile_skip = true;
    s.undecided_test = false;
    s.futile_tests.clear();
    // A salt of this phase's own: its bounded results may rest on spare tests that ended without an
    // answer (`spare.rs`), true for this solve's approximation only, so no later solve may read them.
    s.salt = s.main_salt ^ CANONICAL_SALT ^ s.tt.next_phase_salt();
    // The strict line is a mate in the canonical game too, only perhaps not read as one (a futile
    // interposition in it is no defence): the fallback if no better line is read.
    let mut best = strict.moves.clone();
    let exact = tighten(s, &mut bound, &mut best, step);
    let mut line = final_walk(s, bound, exact, best);
    line.exact &= !s.undecided_test;
    if line.moves.len() as u32 == bound {
        let (moves, changed) = ranking::rank(s, line.moves.clone());
        if changed && super::verifies_canonical(s, &moves) {
            line.moves = moves;
            line.exact = false;
            line.ranked = true;
        }
    }
    s.futile_skip = false;
    s.salt = s.main_salt;
    s.node_budget = None;
    (line.ranked || line.moves.len() as u32 == bound).then_some(line)
}

/// The current position's table entry for a search with `budget`, reached along `path`; in the
/// canonical game a strict proof within `budget` where the game's own entry decides nothing
/// (`Dfpn::with_strict_proof`).
fn probe_here(s: &Dfpn, path: u64, budget: u32) -> Probe {
    let hand = s.pos.hand(s.attacker);
    let p = s.tt.probe(s.tt_key(), hand, path, budget);
    s.with_strict_proof(p, s.pos.board_key(), hand, budget)
}

/// The child `m`'s table entry for a search with `budget`.
fn probe_child(s: &mut Dfpn, path: u64, m: Move, budget: u32) -> Probe {
    s.pos.do_move(m);
    let p = probe_here(s, next_path(path, m), budget);
    s.pos.undo_move(m);
    p
}

/// Where the walk is: the node's ply from the root and its path key.
#[derive(Clone, Copy)]
struct At {
    ply: u32,
    path: u64,
}

/// Reads a line of at most `total` plies from the root along bounded proofs. `exact`: `total` is the
/// root's minimax length, and the defender takes replies that keep it (see the module comment);
/// otherwise the longest recorded reply. `search`: entries the table lacks are searched again (bounded);
/// otherwise the walk fails on them. Leaves the position and the path set as it found them.
fn walk(s: &mut Dfpn, total: u32, exact: bool, search: bool) -> Option<Vec<Move>> {
    let root = At {
        ply: 0,
        path: s.root_path,
    };
    walk_from(s, root, total, exact, search)
}

/// `walk` from the current position, at `at` of the search (its path set up to it).
fn walk_from(s: &mut Dfpn, mut at: At, total: u32, exact: bool, search: bool) -> Option<Vec<Move>> {
    let mut line = vec![];
    let mut keys = vec![];
    let mut moves = MoveList::new();
    let mut k = total;
    let ok = loop {
        if line.len() >= MAX_PV || s.aborted {
            break false;
        }
        let or_node = node_moves(s, &mut moves);
        if !or_node && (moves.is_empty() || (s.futile_skip && no_defence_left(s, &moves, at.ply))) {
            break true;
        }
        if k == 0 {
            break false;
        }
        let step = if or_node {
            or_step(s, &moves, k, at, search)
        } else if exact {
            and_step_exact(s, &moves, k, at, search)
        } else {
            and_step_longest(s, &moves, k, at, search)
        };
        let Some((m, child_k)) = step else {
            log::debug!("pv: walk (exact {exact}) failed at ply {}, k {k}", at.ply);
            if log::log_enabled!(log::Level::Trace) {
                for &m in moves.iter() {
                    let p = probe_child(s, at.path, m, k.saturating_sub(1));
                    log::trace!(
                        "pv:   {m:?} pn {} dn {} len {} found {} dep {:?} line {:?}",
                        p.pn,
                        p.dn,
                        p.len,
                        p.found,
                        p.dep,
                        line
                    );
                }
            }
            break false;
        };
        s.pos.do_move(m);
        let key = s.pos.key();
        if s.path.contains_key(&key) {
            // Never on a line of decreasing values; a table inconsistency.
            s.pos.undo_move(m);
            break false;
        }
        s.path.insert(key, at.ply + 1);
        line.push(m);
        keys.push(key);
        at = At {
            ply: at.ply + 1,
            path: next_path(at.path, m),
        };
        k = child_k;
    };
    for (&m, key) in line.iter().rev().zip(keys.iter().rev()) {
        s.path.remove(key);
        s.pos.undo_move(m);
    }
    s.horizon = UNBOUNDED;
    ok.then_some(line)
}

/// The moves of a line's node into `moves`: the checks at an OR node, the evasions at an AND node.
/// Returns whether the node is an OR node.
fn node_moves(s: &Dfpn, moves: &mut MoveList) -> bool {
    let or_node = s.is_or_node();
    moves.clear();
    if or_node {
        generate_checks(&s.pos, moves);
    } else {
        generate_evasions(&s.pos, moves);
    }
    or_node
}

/// Whether `line` (legal from the root, checks and evasions) ends in a position where the defender is
/// in check and has no defence that counts in the canonical game (only futile interpositions and
/// replies after which the attacker forces a spare mate): the end of a canonical line that is not a
/// mate yet.
pub(super) fn ends_without_defence(s: &mut Dfpn, line: &[Move]) -> bool {
    for &m in line {
        s.pos.do_move(m);
    }
    let mut moves = MoveList::new();
    generate_evasions(&s.pos, &mut moves);
    let ok = s.pos.in_check() && !moves.is_empty() && no_defence_left(s, &moves, line.len() as u32);
    for &m in line.iter().rev() {
        s.pos.undo_move(m);
    }
    ok
}

/// Whether the reply `m` (`gap`: the check's) is no defence in the canonical game by what is known
/// already: a futile interposition, or a reply whose spare test said yes (`spare.rs`). Never searches.
fn excused(s: &mut Dfpn, m: Move, gap: crate::position::Bitboard, ply: u32) -> bool {
    s.futile_skip
        && ((is_interposition(m, gap) && futile_proof(s, m, ply).is_some())
            || spare::known_spare(s, m))
}

/// Whether no evasion in `moves` (the current AND node's, at `ply`) counts in the canonical game:
/// each is a futile interposition or a reply after which the attacker forces a spare mate.
fn no_defence_left(s: &mut Dfpn, moves: &MoveList, ply: u32) -> bool {
    let gap = check_gap(&s.pos);
    moves.iter().all(|&m| {
        (is_interposition(m, gap) && futile_proof(s, m, ply).is_some())
            || matches!(spare::after_reply(s, m, ply), Spare::Yes(_))
    })
}

/// Searches the current node (`at`) for "mate within `budget`?". Returns (proven, disproven).
fn bounded_search(s: &mut Dfpn, at: At, budget: u32) -> (bool, bool) {
    s.horizon = at.ply + budget;
    let r = s.mid(PN_MAX, PN_MAX, at.ply, at.path, Seen::Before);
    s.horizon = UNBOUNDED;
    (r.pn == 0, r.dn == 0)
}

/// `pick` from the table; if it finds nothing and `search` allows, searches the node for "mate within
/// `k`?" and, proven, picks again.
fn pick_or_search(
    s: &mut Dfpn,
    at: At,
    k: u32,
    search: bool,
    pick: impl Fn(&mut Dfpn) -> Option<(Move, u32)>,
) -> Option<(Move, u32)> {
    if let Some(b) = pick(s) {
        return Some(b);
    }
    if !search || !bounded_search(s, at, k).0 {
        return None;
    }
    pick(s)
}

/// At an OR node worth at most `k`: the check of the shortest proof within `k` (the node's own entry,
/// or the children's), and the length left after it.
fn or_step(s: &mut Dfpn, moves: &MoveList, k: u32, at: At, search: bool) -> Option<(Move, u32)> {
    let pick = |s: &mut Dfpn| {
        let p = probe_here(s, at.path, k);
        if p.is_proven()
            && p.len >= 1
            && let Some(&m) = moves.iter().find(|m| m.to_u16() == p.best)
        {
            return Some((m, u32::from(p.len) - 1));
        }
        let mut best: Option<(Move, u32)> = None;
        for &m in moves.iter() {
            let p = probe_child(s, at.path, m, k - 1);
            if p.is_proven() && best.is_none_or(|(_, l)| u32::from(p.len) < l) {
                best = Some((m, u32::from(p.len)));
            }
        }
        best
    };
    pick_or_search(s, at, k, search, pick)
}

/// At an AND node worth exactly `k`: a reply worth exactly k − 1 (it refuted "mate within k − 2"
/// and is proven within k − 1).
fn and_step_exact(
    s: &mut Dfpn,
    moves: &MoveList,
    k: u32,
    at: At,
    search: bool,
) -> Option<(Move, u32)> {
    if k < 2 {
        return None;
    }
    let mut p = probe_here(s, at.path, k - 2);
    if !p.is_disproven() && search {
        let (proven, disproven) = bounded_search(s, at, k - 2);
        if proven || !disproven {
            // Proven: `k` was not exact (it always is when the root's value was made exact).
            return None;
        }
        p = probe_here(s, at.path, k - 2);
    }
    if !p.is_disproven() {
        return None;
    }
    // The refuting reply: the table's best move, except that a path-dependent disproof keeps none.
    let m = match moves.iter().copied().find(|m| m.to_u16() == p.best) {
        Some(m) => m,
        None => refuting_reply(s, moves, k - 2, at, search)?,
    };
    if probe_child(s, at.path, m, k - 1).is_proven() {
        return Some((m, k - 1));
    }
    if !search {
        return None;
    }
    let proven = s.off_path_child(m, at.ply, at.path, |s, ply, path| {
        bounded_search(s, At { ply, path }, k - 1).0
    })?;
    proven.then_some((m, k - 1))
}

/// At an AND node refuted "mate within `budget`?" without a recorded refutation: a reply whose child
/// has no mate within `budget` − 1, from the table or, if `search` allows, by searching the replies in
/// turn. On the PV a refutation that rests on the path is as good as a general one (module comment,
/// point 3).
fn refuting_reply(
    s: &mut Dfpn,
    moves: &MoveList,
    budget: u32,
    at: At,
    search: bool,
) -> Option<Move> {
    let child_budget = budget.checked_sub(1)?;
    let gap = check_gap(&s.pos);
    let mut counted = MoveList::new();
    for &m in moves.iter() {
        if !excused(s, m, gap, at.ply) {
            counted.push(m);
        }
    }
    if let Some(&m) = counted
        .iter()
        .find(|&&m| probe_child(s, at.path, m, child_budget).is_disproven())
    {
        return Some(m);
    }
    if !search {
        return None;
    }
    for &m in counted.iter() {
        // A reply back onto the path is never the line's reply (its values decrease).
        let refuted = s
            .off_path_child(m, at.ply, at.path, |s, ply, path| {
                bounded_search(s, At { ply, path }, child_budget).1
            })
            .unwrap_or(false);
        if refuted {
            return Some(m);
        }
        if s.aborted {
            return None;
        }
    }
    None
}

/// At an AND node worth at most `k`: every reply must be proven within k − 1; the one with the
/// longest recorded proof, and its length.
fn and_step_longest(
    s: &mut Dfpn,
    moves: &MoveList,
    k: u32,
    at: At,
    search: bool,
) -> Option<(Move, u32)> {
    let pick = |s: &mut Dfpn| {
        let gap = check_gap(&s.pos);
        let mut best: Option<(Move, u32)> = None;
        for &m in moves.iter() {
            if excused(s, m, gap, at.ply) {
                continue;
            }
            let p = probe_child(s, at.path, m, k - 1);
            if !p.is_proven() {
                return None;
            }
            if best.is_none_or(|(_, l)| u32::from(p.len) > l) {
                best = Some((m, u32::from(p.len)));
            }
        }
        best
    };
    pick_or_search(s, at, k, search, pick)
}

mod first;
mod ranking;
#[cfg(test)]
mod tests;
