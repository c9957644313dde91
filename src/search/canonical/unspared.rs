//! Among mates of the same length, the composers' line is one that uses every piece: a line that
//! ends with pieces in the attacker's hand (駒余り) is not the main line when another first move at
//! one of its attacker nodes mates as soon and its line ends with an empty hand.
//!
//! The composers' check (`SolverSettings::settle`) asks this after the alternatives: each 余詰 of an
//! exact line mates in exactly the plies the line has left there (it cannot mate sooner: the line's
//! values are exact), so the line through it is as long. For each, earliest first, the exact line
//! from its child is read (`exact_line`, the line phases' questions, within `CAP` nodes each), the
//! line's prefix, the alternative and that continuation joined, and taken if it is as long, verifies
//! as a canonical line and leaves the attacker's hand empty. The old line's move is then one of the
//! new line's alternatives, and the caller searches the alternatives along the new line again.
//!
//! Only proven facts change the line: the new one is verified, and it is as long as the old one,
//! whose length is the proven minimax length, so the new line's length is exact too. (Its
//! continuation is the minimax line from the alternative's child, not ranked.)
//!
//! Example (README, `kanju check`): with a silver in hand, 1d2c 1b2a 2c2b mates in 3 and leaves the
//! silver over; 2d2c+ 1b1a S*1b, one of its 余詰, mates in 3 with it: that is the line.

use crate::position::Move;
use crate::search::bounded::At;
use crate::search::canonical::line::verifies_canonical;
use crate::search::dfpn::Searcher;
use crate::search::loops::next_path;
use crate::search::outcome::Alternatives;
use crate::search::pv::exact::exact_line;

/// The node cap of each continuation's questions.
const CAP: u64 = 100_000;

/// A line as long as `line` (exact, from the root of `s`, in the game searched) through one of its
/// `alternatives`, ending with the attacker's hand empty; `None` if `line` leaves no pieces over or
/// no alternative gives one.
pub fn line_without_spare(
    s: &mut Searcher,
    line: &[Move],
    alternatives: &Alternatives,
) -> Option<Vec<Move>> {
    if end_hand_empty(s, line) {
        return None;
    }
    let total = line.len() as u32;
    let mut found = alternatives.found.clone();
    found.sort_by_key(|a| a.ply);
    for a in found {
        let before = a.ply - 1;
        if a.mate != total - before || s.user_limit_reached() {
            continue;
        }
        let prefix = &line[..before as usize];
        let rest = with_prefix(s, prefix, |s, ply, path| {
            s.off_path_child(a.mv, ply, path, |s, ply, path| {
                if a.mate == 1 {
                    return Some(vec![]);
                }
                exact_line(s, At { ply, path }, a.mate - 1, CAP)
            })
            .flatten()
        });
        let Some(rest) = rest else {
            continue;
        };
        let mut candidate = prefix.to_vec();
        candidate.push(a.mv);
        candidate.extend(rest);
        if candidate.len() == line.len()
            && verifies_canonical(s, &candidate)
            && end_hand_empty(s, &candidate)
        {
            return Some(candidate);
        }
    }
    None
}

/// Runs `f` at the end of `prefix` (played from the root, its positions on the path), with the ply
/// and path key there; takes the moves back.
fn with_prefix<R>(
    s: &mut Searcher,
    prefix: &[Move],
    f: impl FnOnce(&mut Searcher, u32, u64) -> R,
) -> R {
    let mut path = s.path.root;
    let mut keys = vec![];
    for (i, &m) in prefix.iter().enumerate() {
        s.pos.do_move(m);
        let key = s.pos.key();
        if s.path.keys.insert(key, i as u32 + 1).is_none() {
            keys.push(key);
        }
        path = next_path(path, m);
    }
    let r = f(s, prefix.len() as u32, path);
    for key in keys {
        s.path.keys.remove(&key);
    }
    for &m in prefix.iter().rev() {
        s.pos.undo_move(m);
    }
    r
}

/// Whether the attacker's hand is empty after `line` from the root.
fn end_hand_empty(s: &mut Searcher, line: &[Move]) -> bool {
    for &m in line {
        s.pos.do_move(m);
    }
    let empty = s.hand().is_empty();
    for &m in line.iter().rev() {
        s.pos.undo_move(m);
    }
    empty
}
