//! Length-bounded questions: "can the attacker mate within d plies?" of the current game, from the
//! root or from a node of a line, and the shortest-first series "mate within 1? 3? 5? …". Their
//! answers and why they are exact: `pv.rs`, *Length-bounded searches*.

use crate::search::dfpn::{NodeResult, Searcher};
use crate::search::parallel;

/// Where a bounded question is asked: the node's ply from the search's root and its path key.
#[derive(Clone, Copy)]
pub struct At {
    pub ply: u32,
    pub path: u64,
}

/// Asks the root "mate within `plies`?" (a length-bounded search to the end or to a limit) and logs
/// the answer under `phase`.
pub fn mate_within(s: &mut Searcher, plies: u32, phase: &str) -> NodeResult {
    let game = s.game.within(plies);
    let r = s.in_game(game, |s| parallel::search(s, 0, s.path.root));
    log::debug!(
        "{phase}: mate within {plies}? pn {} dn {} len {} nodes {} expansions {}",
        r.pn,
        r.dn,
        r.len,
        s.stats.nodes,
        s.stats.expansions
    );
    r
}

/// Searches the current node (`at`) for "mate within `budget`?". Returns (proven, disproven).
pub fn bounded_search(s: &mut Searcher, at: At, budget: u32) -> (bool, bool) {
    let game = s.game.within(at.ply + budget);
    let r = s.in_game(game, |s| parallel::search(s, at.ply, at.path));
    (r.pn == 0, r.dn == 0)
}

/// Shortest first from the current node (an OR node): asks `ask` "mate within d?" for d = 1, 3,
/// 5, … up to `longest`, within `cap` more nodes (and the node budget already set). The first d
/// answered `Mate` is the node's minimax length, since every shorter bound was refuted before
/// it. `None` if the cap or a limit comes first, a bound is neither proven nor refuted, or
/// `longest` is passed. Leaves `aborted` set only for a limit beyond the cap.
pub fn shortest_first(
    s: &mut Searcher,
    cap: u64,
    longest: u32,
    mut ask: impl FnMut(&mut Searcher, u32) -> Bound,
) -> Option<u32> {
    let end = s.total_nodes().saturating_add(cap);
    s.within_cap(cap, |s| {
        let mut d = 1;
        while d <= longest && !s.budget.aborted {
            let begun = s.total_nodes();
            match ask(s, d) {
                Bound::Mate => return Some(d),
                Bound::Refuted => {}
                Bound::Stop => break,
            }
            // Each bound costs more than the last: one that cannot finish is not begun (it
            // would be spent for nothing).
            let now = s.total_nodes();
            if now - begun > end.saturating_sub(now) {
                break;
            }
            d += 2;
        }
        None
    })
}

/// What one bound of a shortest-first search (`shortest_first`) found.
pub enum Bound {
    /// A mate within the bound.
    Mate,
    /// No mate within it: the next bound is asked.
    Refuted,
    /// Neither: the search ends.
    Stop,
}
