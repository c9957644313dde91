//! The mating line written after `checkmate`: follow the table from the root, the attacker taking the
//! proven check with the fewest recorded plies, the defender the proven reply with the most. A child
//! the table has lost (replaced or collected) is proven again on the spot. The line is verified by the
//! caller.
//!
//! This is the simple PV; it is a mate line, not always the minimax-shortest one.

use super::dfpn::Dfpn;
use super::loops::next_path;
use super::numbers::PN_MAX;
use crate::position::Move;
use crate::position::movegen::{MoveList, generate_checks, generate_evasions};

/// No PV is longer than this (Microcosmos is 1525 plies).
const MAX_PV: usize = 10_000;

/// The mating line from the (proven) root of `search`, or `None` if it could not be rebuilt within the
/// limits. Leaves the position and the path set as it found them.
pub(super) fn extract(search: &mut Dfpn) -> Option<Vec<Move>> {
    let mut line: Vec<Move> = vec![];
    let mut keys = vec![];
    let result = walk(search, &mut line, &mut keys);
    for (&m, k) in line.iter().rev().zip(keys.iter().rev()) {
        search.path.remove(k);
        search.pos.undo_move(m);
    }
    result.then_some(line)
}

fn walk(s: &mut Dfpn, line: &mut Vec<Move>, keys: &mut Vec<u64>) -> bool {
    let mut path = s.root_path;
    let mut moves = MoveList::new();
    while line.len() < MAX_PV {
        let or_node = s.is_or_node();
        moves.clear();
        if or_node {
            generate_checks(&s.pos, &mut moves);
        } else {
            generate_evasions(&s.pos, &mut moves);
            if moves.is_empty() {
                return true;
            }
        }
        let mut pick = pick(s, &moves, or_node, path);
        if pick.is_none() && !s.aborted {
            // The table lost the proof: prove this node again, then look once more.
            let r = s.mid(PN_MAX, PN_MAX, line.len() as u32, path, false);
            if r.pn != 0 {
                return false;
            }
            pick = self::pick(s, &moves, or_node, path);
        }
        let Some(m) = pick else {
            return false;
        };
        s.pos.do_move(m);
        let k = s.pos.key();
        s.path.insert(k, line.len() as u32 + 1);
        line.push(m);
        keys.push(k);
        path = next_path(path, m);
    }
    false
}

/// At an OR node the proven check with the shortest recorded mate; at an AND node the reply with the
/// longest, provided every reply is proven. Moves back onto the line are skipped.
fn pick(s: &mut Dfpn, moves: &MoveList, or_node: bool, path: u64) -> Option<Move> {
    let mut best: Option<(Move, u16)> = None;
    for &m in moves.iter() {
        s.pos.do_move(m);
        let repeated = s.path.contains_key(&s.pos.key());
        let p =
            s.tt.probe(s.tt_key(), s.pos.hand(s.attacker), next_path(path, m));
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
