//! Reading a line along bounded proofs (`pv.rs`'s module comment, point 4): at an OR node the
//! check of the shortest proof, at an AND node the reply that keeps the value (exact) or the longest
//! recorded one; entries the table lost are searched again, bounded.

use crate::position::Move;
use crate::position::movegen::{MoveList, check_gap, generate_checks, generate_evasions};
use crate::search::bounded::{At, bounded_search};
use crate::search::dfpn::{READING_NODES, Searcher};
use crate::search::game::futile::{excused, no_defence_left};
use crate::search::loops::next_path;
use crate::search::tt::Probe;

/// No PV is longer than this (Microcosmos is 1525 plies).
pub const MAX_PV: usize = 10_000;

/// The line of the bound `bound` just proven from the root (`tighten`): from the table alone if it
/// gives one; else searched again where entries are missing (the 3-ply frontier stores only its root's
/// proof, and a large search loses entries), within `READING_NODES` more nodes and the phase's end
/// `phase_end`. Read at once, while the bounded proof's entries are fresh: when a later question is
/// stopped by the user's limit, no budget is left to read at the end, and the answer would be the
/// first proof's line beside a much shorter proven bound (where each bound's table-only reading
/// fails, as on Zukou #8 under a time limit: docs/mating-line.md, *The budget*).
/// `None` (the caller keeps its line) if no line is read.
pub fn read_bound(s: &mut Searcher, bound: u32, phase_end: Option<u64>) -> Option<Vec<Move>> {
    if let Some(line) = walk(s, bound, false, false) {
        return Some(line);
    }
    let allowance = s.total_nodes().saturating_add(READING_NODES);
    s.budget.end = Some(phase_end.map_or(allowance, |end| end.min(allowance)));
    let line = walk(s, bound, false, true);
    s.budget.end = phase_end;
    // Only the allowance may end the reading here: the phase goes on unless a limit of its own or
    // the user's was reached.
    if s.budget.aborted && !s.limit_reached() {
        s.budget.aborted = false;
    }
    log::debug!(
        "pv: bound {bound} read by searching: {:?} plies, nodes {}",
        line.as_ref().map(Vec::len),
        s.stats.nodes
    );
    line
}

/// The current position's table entry for a search with `budget`, reached along `path`; in the
/// canonical game a strict proof within `budget` where the game's own entry decides nothing
/// (`Game::complete_probe`).
pub fn probe_here(s: &Searcher, path: u64, budget: u32) -> Probe {
    let hand = s.hand();
    let p = s.tt().probe(s.tt_key(), hand, path, budget);
    s.game
        .complete_probe(s.tt(), s.main_salt(), p, s.pos.board_key(), hand, budget)
}

/// The child `m`'s table entry for a search with `budget`.
pub fn probe_child(s: &mut Searcher, path: u64, m: Move, budget: u32) -> Probe {
    s.pos.do_move(m);
    let p = probe_here(s, next_path(path, m), budget);
    s.pos.undo_move(m);
    p
}

/// Reads a line of at most `total` plies from the root along bounded proofs. `exact`: `total` is the
/// root's minimax length, and the defender takes replies that keep it (see the module comment);
/// otherwise the longest recorded reply. `search`: entries the table lacks are searched again (bounded);
/// otherwise the walk fails on them. Leaves the position and the path set as it found them.
pub fn walk(s: &mut Searcher, total: u32, exact: bool, search: bool) -> Option<Vec<Move>> {
    let root = At {
        ply: 0,
        path: s.path.root,
    };
    walk_from(s, root, total, exact, search)
}

/// `walk` from the current position, at `at` of the search (its path set up to it).
pub fn walk_from(
    s: &mut Searcher,
    mut at: At,
    total: u32,
    exact: bool,
    search: bool,
) -> Option<Vec<Move>> {
    let mut line = vec![];
    let mut keys = vec![];
    let mut moves = MoveList::new();
    let mut k = total;
    let ok = loop {
        if line.len() >= MAX_PV || s.budget.aborted {
            break false;
        }
        let or_node = node_moves(s, &mut moves);
        if !or_node
            && (moves.is_empty() || (s.game.skips_futile() && no_defence_left(&mut s.pos, &moves)))
        {
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
        if s.path.keys.contains_key(&key) {
            // Never on a line of decreasing values; a table inconsistency.
            s.pos.undo_move(m);
            break false;
        }
        s.path.keys.insert(key, at.ply + 1);
        line.push(m);
        keys.push(key);
        at = At {
            ply: at.ply + 1,
            path: next_path(at.path, m),
        };
        k = child_k;
    };
    for (&m, key) in line.iter().rev().zip(keys.iter().rev()) {
        s.path.keys.remove(key);
        s.pos.undo_move(m);
    }
    ok.then_some(line)
}

/// The moves of a line's node into `moves`: the checks at an OR node, the evasions at an AND node.
/// Returns whether the node is an OR node.
pub fn node_moves(s: &Searcher, moves: &mut MoveList) -> bool {
    let or_node = s.is_or_node();
    moves.clear();
    if or_node {
        generate_checks(&s.pos, moves);
    } else {
        generate_evasions(&s.pos, moves);
    }
    or_node
}

/// `pick` from the table; if it finds nothing and `search` allows, searches the node for "mate within
/// `k`?" and, proven, picks again.
fn pick_or_search(
    s: &mut Searcher,
    at: At,
    k: u32,
    search: bool,
    pick: impl Fn(&mut Searcher) -> Option<(Move, u32)>,
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
fn or_step(
    s: &mut Searcher,
    moves: &MoveList,
    k: u32,
    at: At,
    search: bool,
) -> Option<(Move, u32)> {
    let pick = |s: &mut Searcher| {
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
    s: &mut Searcher,
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
    s: &mut Searcher,
    moves: &MoveList,
    budget: u32,
    at: At,
    search: bool,
) -> Option<Move> {
    let child_budget = budget.checked_sub(1)?;
    let gap = check_gap(&s.pos);
    let mut counted = MoveList::new();
    for &m in moves.iter() {
        if !(s.game.skips_futile() && excused(&mut s.pos, m, gap)) {
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
        if s.budget.aborted {
            return None;
        }
    }
    None
}

/// At an AND node worth at most `k`: every reply must be proven within k − 1; the one with the
/// longest recorded proof, and its length.
fn and_step_longest(
    s: &mut Searcher,
    moves: &MoveList,
    k: u32,
    at: At,
    search: bool,
) -> Option<(Move, u32)> {
    let pick = |s: &mut Searcher| {
        let gap = check_gap(&s.pos);
        let mut best: Option<(Move, u32)> = None;
        for &m in moves.iter() {
            if s.game.skips_futile() && excused(&mut s.pos, m, gap) {
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
