//! The driver at the root: the root on the path, then df-pn until the root is decided, a limit is
//! reached, or the search cannot go on; the depth limit raised when the answer rests on it.

use super::Searcher;
use crate::search::loops::{Dependence, HARD_MAX_PLY};
use crate::search::node::Seen;
use crate::search::numbers::{PN_MAX, PnDn};
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

    /// `prove` for a helper of a parallel proof (`parallel.rs`, *Spreading*): the root is searched in
    /// rounds, each with thresholds `growth` times the root's numbers after the last round (plus
    /// one), starting from one unit, so that the helper returns to the root whenever the root's pn
    /// or dn passes its threshold and chooses its path again from there, instead of staying below
    /// the root for as long as the main searcher (whose root thresholds are the ceiling) does. Once
    /// both thresholds reach the ceiling, or the root is disproven (the depth limit's business), it
    /// goes on as `prove`.
    ///
    /// Sound as `prove` is: thresholds only decide when `mid` returns, never what it stores or
    /// returns (every number is computed from the children's as in any call), and only a root
    /// proven or disproven by the same rules ends the rounds with an answer.
    pub fn prove_in_rounds(&mut self, growth: f64) -> RootResult {
        let (mut thpn, mut thdn): (PnDn, PnDn) = (1, 1);
        loop {
            let r = self.mid(thpn, thdn, 0, self.path.root, Seen::New);
            if r.pn == 0 {
                return RootResult::Proven;
            }
            if self.budget.aborted {
                return RootResult::Aborted;
            }
            if r.dn == 0 {
                return self.prove();
            }
            let grown = |n: PnDn| (f64::from(n) * growth + 1.0).min(f64::from(PN_MAX)) as PnDn;
            (thpn, thdn) = (thpn.max(grown(r.pn)), thdn.max(grown(r.dn)));
            if thpn >= PN_MAX && thdn >= PN_MAX {
                return self.prove();
            }
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

#[cfg(test)]
mod tests {
    use super::RootResult;
    use crate::search::dfpn::tests::{data_rows, fresh_search};

    /// A helper's rounds (`prove_in_rounds`) reach the answer `prove` reaches, mates and no-mates
    /// alike, whatever the growth: the thresholds decide only when the root is left.
    #[test]
    fn rounds_of_growing_thresholds_prove_what_prove_proves() {
        let mut rows: Vec<String> = data_rows("yaneuraou-mate7.tsv")
            .into_iter()
            .map(|(sfen, _)| sfen)
            .take(30)
            .collect();
        // A no-mate by perpetual check (the disproof rests on the path), and one derived from
        // Zukou #69 (a general disproof over wide drop chains, 0.1 s).
        rows.push("6R+P1/8k/7sp/9/9/9/9/9/9 b r2b4g3s4n4l16p 1".to_string());
        rows.push("9/9/9/9/5l3/p2+rb4/1pG3+R2/S3S4/1+bk6 b 2GSgs4n3l16p 1".to_string());
        let (mut mates, mut nomates) = (0, 0);
        for sfen in &rows {
            let whole = fresh_search(sfen, "default", |s| s.run());
            mates += usize::from(whole == RootResult::Proven);
            nomates += usize::from(whole == RootResult::Disproven);
            for growth in [1.1, 2.0, 4.0] {
                let rounds = fresh_search(sfen, "default", |s| {
                    s.enter_root();
                    s.prove_in_rounds(growth)
                });
                assert_eq!(rounds, whole, "{sfen}, growth {growth}");
            }
        }
        assert!(
            mates >= 25 && nomates >= 2,
            "{mates} mates, {nomates} no-mates"
        );
    }
}
