//! The first line: the main search's proof read from the table as it is, every attacker move the
//! check with the shortest recorded mate and every defender move the reply with the longest (see
//! `pv.rs`'s module comment). Lost entries are proven again on the spot, and dead ends (a line that
//! comes back to a position it has passed) are backed out of.

use super::walk::{MAX_PV, node_moves};
use crate::position::Move;
use crate::position::movegen::MoveList;
use crate::search::dfpn::Searcher;
use crate::search::loops::next_path;
use crate::search::node::Seen;
use crate::search::numbers::PN_MAX;
use crate::search::tt::UNBOUNDED;

/// The first line: the table's proof as it is (see the module comment). A child the table has lost
/// (replaced or collected) is proven again on the spot. Leaves the position and the path set as it
/// found them.
pub(super) fn first_line(search: &mut Searcher) -> Option<Vec<Move>> {
    let mut line: Vec<Move> = vec![];
    let mut keys = vec![];
    let result = first_walk(search, &mut line, &mut keys);
    for (&m, k) in line.iter().rev().zip(keys.iter().rev()) {
        search.path.keys.remove(k);
        search.pos.undo_move(m);
    }
    result.then_some(line)
}

fn first_walk(s: &mut Searcher, line: &mut Vec<Move>, keys: &mut Vec<u64>) -> bool {
    // The path key of each node of the line, and the checks found to lead nowhere at each OR node.
    let mut paths = vec![s.path.root];
    let mut dead: Vec<Vec<Move>> = vec![vec![]];
    let mut backtracks = 0;
    let mut moves = MoveList::new();
    while line.len() < MAX_PV {
        let path = *paths.last().expect("the root's path");
        let or_node = node_moves(s, &mut moves);
        if !or_node && moves.is_empty() {
            return true;
        }
        let avoid = dead.last().expect("one list per node");
        let mut pick = first_pick(s, &moves, or_node, path, avoid);
        if pick.is_none() && !s.budget.aborted {
            // The table lost the proof: prove this node again, then look once more.
            let r = s.mid(PN_MAX, PN_MAX, line.len() as u32, path, Seen::Before);
            if r.pn == 0 {
                let avoid = dead.last().expect("one list per node");
                pick = first_pick(s, &moves, or_node, path, avoid);
            }
        }
        let Some(m) = pick else {
            // A dead end. Proofs hold on every path, but a line read from them may come back to a
            // position it has passed: the table's shortest mate after a check may go through a
            // position on the line (Zukou #44 after 2f2g: the checks read first lead back to it),
            // and from here, with the line's positions barred, no mate is left. Back to the last
            // check of the line, which is tried no more.
            if s.budget.aborted || backtracks == MAX_BACKTRACKS || s.user_limit_reached() {
                return false;
            }
            backtracks += 1;
            loop {
                let Some(m) = line.pop() else {
                    return false;
                };
                let k = keys.pop().expect("one key per move");
                s.path.keys.remove(&k);
                s.pos.undo_move(m);
                paths.pop();
                dead.pop();
                if s.is_or_node() {
                    dead.last_mut().expect("one list per node").push(m);
                    break;
                }
            }
            continue;
        };
        s.pos.do_move(m);
        let k = s.pos.key();
        s.path.keys.insert(k, line.len() as u32 + 1);
        line.push(m);
        keys.push(k);
        paths.push(next_path(path, m));
        dead.push(vec![]);
    }
    false
}

/// How many dead ends the first line may back out of before it gives up (the user's limits end it
/// sooner). Each costs a few probes; a dead end deep in a long line backs out one check at a time
/// through every OR node with a single proven check, so the cap must allow thousands: a cap the
/// line runs into ends a proven root as `timeout`, and the first line of a long classic (Starship
/// Trooper, not in the repository) backs out of more dead ends than a small cap allows (figures:
/// docs/benchmarks.md).
const MAX_BACKTRACKS: u32 = 1 << 16;

/// At an OR node the proven check with the shortest recorded mate, other than those in `avoid`; at an
/// AND node the reply with the longest, provided every reply is proven. Moves back onto the line are
/// skipped.
fn first_pick(
    s: &mut Searcher,
    moves: &MoveList,
    or_node: bool,
    path: u64,
    avoid: &[Move],
) -> Option<Move> {
    let mut best: Option<(Move, u16)> = None;
    for &m in moves.iter().filter(|m| !avoid.contains(m)) {
        s.pos.do_move(m);
        let repeated = s.path.keys.contains_key(&s.pos.key());
        let p = s
            .tt()
            .probe(s.tt_key(), s.hand(), next_path(path, m), UNBOUNDED);
        s.pos.undo_move(m);
        if repeated {
            continue;
        }
        if !p.is_proven() {
            if or_node {
                continue;
            }
            return None;
        }
        let better = match best {
            None => true,
            Some((_, len)) => {
                if or_node {
                    p.len < len
                } else {
                    p.len > len
                }
            }
        };
        if better {
            best = Some((m, p.len));
        }
    }
    best.map(|(m, _)| m)
}
