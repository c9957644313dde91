//! Searches inside a search: a bounded question of the current game (`in_game`), a test from the
//! current position with a path, game, node cap and depth limit of its own (`nested`), and a step
//! to a child off the path (`off_path_child`). Each gives back, whole, what it swapped out.

use super::{NodeResult, Searcher};
use crate::position::Move;
use crate::search::game::Game;
use crate::search::loops::next_path;
use crate::search::node::Seen;
use crate::search::numbers::PN_MAX;
use crate::search::path::Path;

impl Searcher<'_> {
    /// Runs `f` in `game` (the current game bounded, say, or another game on the same path), and
    /// puts the current game back.
    #[inline]
    pub fn in_game<R>(&mut self, game: Game, f: impl FnOnce(&mut Self) -> R) -> R {
        let outer = std::mem::replace(&mut self.game, game);
        let r = f(self);
        self.game = outer;
        r
    }

    /// A search of the current position as the root of its own: `game`, a fresh path (the answer
    /// belongs to the position, not to how it was reached), at most `cap` more nodes (within the
    /// budget already set), the depth limit `max_ply`; `seen`: what is known of the position. The
    /// path, game, budget and depth limit are the caller's again afterwards; `aborted` stays set
    /// only for a limit beyond the cap.
    pub fn nested(&mut self, game: Game, cap: u64, max_ply: u32, seen: Seen) -> NodeResult {
        let key = self.pos.key();
        let path = Path::at_root(key, Path::root_key(key, game.salt()));
        let outer_path = std::mem::replace(&mut self.path, path);
        let outer_game = std::mem::replace(&mut self.game, game);
        let outer_end = self.budget.end;
        self.budget.end = self.budget.capped(self.total_nodes(), cap);
        let outer_ply = std::mem::replace(&mut self.depth.max_ply, max_ply);
        let r = self.mid(PN_MAX, PN_MAX, 0, self.path.root, seen);
        self.path = outer_path;
        self.game = outer_game;
        self.budget.end = outer_end;
        self.depth.max_ply = outer_ply;
        if self.budget.aborted && !self.limit_reached() {
            // Only the test's own cap stopped it.
            self.budget.aborted = false;
        }
        r
    }

    /// Plays `m` from the current node (at `ply`, reached along `path`), runs `f` on the child (its
    /// ply and path key) with the child on the path, and takes the move back. `None`, without running
    /// `f`, when the child is on the path already: a repetition, where no line of decreasing values
    /// (the PV phase's lines) ever goes.
    pub fn off_path_child<R>(
        &mut self,
        m: Move,
        ply: u32,
        path: u64,
        f: impl FnOnce(&mut Self, u32, u64) -> R,
    ) -> Option<R> {
        self.pos.do_move(m);
        let key = self.pos.key();
        let r = match self.path.keys.entry(key) {
            std::collections::hash_map::Entry::Occupied(_) => None,
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(ply + 1);
                let r = f(self, ply + 1, next_path(path, m));
                self.path.keys.remove(&key);
                Some(r)
            }
        };
        self.pos.undo_move(m);
        r
    }
}
