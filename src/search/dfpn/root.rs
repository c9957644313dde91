//! The driver at the root: the root on the path, then df-pn until the root is decided, a limit is
//! reached, or the search cannot go on; the depth limit raised when the answer rests on it.

use super::Searcher;
use crate::search::loops::{Dependence, HARD_MAX_PLY};
use crate::search::node::Seen;
use crate::search::numbers::PN_MAX;
use crate::search::path::Path;

/// How a search ended at the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootResult {
    Proven,
    Disproven,
    /// Stopped by a limit or `stop`.
    Aborted,
    /// Could not go on; the reason.
    GaveUp(String),
}

impl Searcher<'_> {
    /// Puts the root (the current position) on a fresh path.
    pub fn enter_root(&mut self) {
        let key = self.pos.key();
        self.path = Path::at_root(key, Path::root_key(key, self.game.salt()));
        let (board, hand) = (self.pos.board_key(), self.hand());
        self.path.boards.push(board, hand, 0);
    }

    /// `enter_root`, then `prove`.
    pub fn run(&mut self) -> RootResult {
        self.enter_root();
        self.prove()
    }

    /// Searches the root (entered) until it is proven or disproven, a limit is hit, or the search
    /// cannot go on.
    pub fn prove(&mut self) -> RootResult {
        loop {
            let r = self.mid(PN_MAX, PN_MAX, 0, self.path.root, Seen::New);
            self.report.root_numbers = (r.pn, r.dn);
            if r.pn == 0 {
                return RootResult::Proven;
            }
            if self.budget.aborted {
                return RootResult::Aborted;
            }
            if r.dn == 0 {
                if r.dep != Dependence::DepthCut {
                    return RootResult::Disproven;
                }
                if self.depth.max_ply >= HARD_MAX_PLY {
                    return RootResult::GaveUp(format!(
                        "every line the search tried ran past the depth limit of {HARD_MAX_PLY} plies"
                    ));
                }
                self.depth.max_ply = (self.depth.max_ply * 2).min(HARD_MAX_PLY);
                self.lift_depth_cuts();
                log::info!("depth limit raised to {} plies", self.depth.max_ply);
                continue;
            }
            // Neither solved nor stopped: a number reached its ceiling.
            return RootResult::GaveUp(format!(
                "proof numbers saturated (pn {}, dn {}): the tree is too wide to rank",
                r.pn, r.dn
            ));
        }
    }

    /// Drops the results that rest on the depth limit, when there are any (after the limit rose).
    pub fn lift_depth_cuts(&mut self) {
        if self.depth.cuts {
            self.tt().purge_depth_cuts();
            self.depth.cuts = false;
        }
    }
}
