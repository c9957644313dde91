//! The exact line from a node inside the tree: the same questions the root's line phase asks
//! (`deepen.rs`'s shortest first, `tighten.rs`'s "mate within b − 2?"), asked of a node reached by
//! another move — a reply the composers' ranking prefers (`canonical/ranking.rs`), a root check other
//! than the answer's (`multipv.rs`).

use super::walk::{probe_here, walk_from};
use crate::position::Move;
use crate::search::bounded::{At, Bound, bounded_search, shortest_first};
use crate::search::dfpn::Searcher;

/// From the node `at` (its path set up to it): the minimax line of the current game, its length made
/// exact ("mate within 1? 3? …" within `cap` nodes, else "mate within b − 2?" down from the upper
/// bound `bound` until no); `None` if it is not proven within `bound` or no line is read. A limit
/// that stops the tightening leaves the shortest line proven so far. From an AND node the questions
/// of odd lengths ask the even lengths below them (a defender's node mates in an even number of
/// plies), and the line is as long as the mate.
pub fn exact_line(s: &mut Searcher, at: At, bound: u32, cap: u64) -> Option<Vec<Move>> {
    exact_line_and_exactness(s, at, bound, cap).map(|(line, _)| line)
}

/// `exact_line`, and whether its length was proven the node's minimax length (false when a cap or
/// a limit stopped the tightening).
pub fn exact_line_and_exactness(
    s: &mut Searcher,
    at: At,
    bound: u32,
    cap: u64,
) -> Option<(Vec<Move>, bool)> {
    let shortest = shortest_first(s, cap, bound, |s, d| match bounded_search(s, at, d) {
        (true, _) => Bound::Mate,
        (_, true) => Bound::Refuted,
        _ => Bound::Stop,
    });
    if let Some(b) = shortest {
        return walk_from(s, at, b, true, true)
            .filter(|l| !l.is_empty())
            .map(|l| (l, true));
    }
    if !bounded_search(s, at, bound).0 {
        return None;
    }
    let mut b = u32::from(probe_here(s, at.path, bound).len).min(bound);
    let mut exact = b <= 1;
    while !exact && !s.budget.aborted {
        // Each question within half of what the pass has left (at least the cap): a refutation
        // that ran on would spend the whole budget and end the walk here; stopped, the line is
        // read from `b`, not called exact.
        let share = s
            .budget
            .end
            .map_or(u64::MAX, |end| end.saturating_sub(s.total_nodes()) / 2)
            .max(cap);
        let (proven, disproven) = s.within_cap(share, |s| bounded_search(s, at, b - 2));
        if proven {
            b = u32::from(probe_here(s, at.path, b - 2).len).min(b - 2);
            exact = b <= 1;
        } else if disproven {
            exact = true;
        } else {
            break;
        }
    }
    walk_from(s, at, b, exact, true)
        .filter(|l| !l.is_empty())
        .map(|l| (l, exact))
}
