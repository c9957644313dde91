//! The df-pn loop of one node: expand it, then search its most promising child with thresholds
//! derived from the node's own, until the node is solved, its thresholds are reached, or a limit
//! stops the search; then store its result.

use super::{NodeResult, Searcher};
use crate::search::game::futile::may_mate_in_one;
use crate::search::loops::next_path;
use crate::search::marks::{BUSY_COST, Marks};
use crate::search::node::{Child, Seen};
use crate::search::numbers::{Combined, INF, Pick, PnDn, add, best_threshold};
use crate::search::tt::Record;

impl Searcher<'_> {
    /// Searches the current node until its proof number reaches `thpn` or its disproof number `thdn`
    /// (or it is solved, or a limit is hit), stores the result and returns it. `seen`: what was known of
    /// the node before.
    pub fn mid(&mut self, thpn: PnDn, thdn: PnDn, ply: u32, path: u64, seen: Seen) -> NodeResult {
        self.check_limits();
        let or_node = self.is_or_node();
        let budget = self.game.budget(ply);
        if or_node && budget == 0 {
            // Only a bounded search has budgets: no mate in 0 plies.
            return self.bounded_disproof(0);
        }
        // Mate in three: in bounded searches, where it is exact.
        let mate3 = self.config().frontier.mate3() && (3..=4).contains(&budget);
        // The spare game wants mates with pieces left over: mate-1's counts where it leaves one.
        if or_node
            && self.game.spare_only()
            && self.config().frontier.mate1()
            && let Some(r) = self.spare_leaf(seen, budget)
        {
            return r;
        }
        if or_node
            && self.config().frontier.mate1()
            && !self.game.spare_only()
            && (seen == Seen::New || budget <= 2 || mate3)
        {
            // A child the look-ahead saw has no mate in one (`Seen::NoMate1`): not asked again.
            if seen != Seen::NoMate1
                && let Some(r) = self.try_mate1()
            {
                return r;
            }
            // Mate in one is answered exactly, and an OR node's mates have odd lengths. (In the
            // canonical game a check answered only by futile interpositions mates too: only where
            // no check is, mate-1's answer holds there.)
            if budget <= 2 && !(self.game.skips_futile() && may_mate_in_one(&mut self.pos)) {
                return self.bounded_disproof(2);
            }
            if mate3 {
                match self.try_mate3() {
                    Ok(r) => return r,
                    // Mate within three is answered exactly too, unless the path cut a line (then the
                    // node is searched as usual, its result path-dependent).
                    // The canonical game asks its own frontier too (a check answered only by
                    // futile drops mates there).
                    Err(false)
                        if budget <= 4
                            && (!self.game.skips_futile() || self.canonical_mate3_refuted()) =>
                    {
                        return self.bounded_disproof(4);
                    }
                    Err(_) => {}
                }
            }
        }
        self.stats.nodes += 1;
        self.stats.expansions += 1;
        let key = self.tt_key();
        let hand = self.hand();
        let nodes_before = self.stats.nodes;
        // A parallel search: this searcher marks the node for the others, and at an AND node counts
        // the replies another searcher is inside as dearer (`marks.rs`).
        let marks = self.shared.marks;
        let mark = marks.map(|m| {
            let slot = Marks::slot(self.pos.key());
            m.enter(slot);
            slot
        });
        let busy = marks.filter(|_| !or_node);
        let base = self.children.len();
        self.expand(or_node, ply, path);
        let end = self.children.len();
        let agg = self.config().aggregation;
        let pump = self.config().pump();
        // The ladder cost of drop chains (`Chains::ladder`): in the main search's rules only.
        let ladder = if !or_node && self.game.unbounded_strict() {
            self.config().chains.ladder_at(ply)
        } else {
            0
        };
        let ties = self.config().ties && !or_node;
        let defer_drops = self.merges(or_node);

        let (mut pn, mut dn);
        loop {
            if defer_drops && self.defer_unguarded_drop(base, end, ply, path) {
                continue;
            }
            // Over the active children: `pick` the minimised side (pn at OR nodes; its smallest, `lo`,
            // is the node's number), `comb` the other.
            let mut pick = Pick::new(base);
            let mut comb = Combined::default();
            for i in base..end {
                let c = &self.children[i];
                if !c.active {
                    continue;
                }
                let (l, h) = if or_node {
                    (pumped(c.pn, c.pump, pump), c.dn)
                } else {
                    (c.dn, add_cost(c.pn, and_cost(c, pump, ladder)))
                };
                let l = match busy {
                    Some(m) if l != 0 && l != INF && m.busy(c.mark) => add(l, BUSY_COST),
                    _ => l,
                };
                pick.offer(i, l, h, ties);
                comb.push(agg, h, c.grouped);
            }
            let Pick {
                lo, second, best, ..
            } = pick;
            let hi = comb.total(agg);
            (pn, dn) = if or_node { (lo, hi) } else { (hi, lo) };
            if ply == 0 && self.game.unbounded_strict() {
                // Live numbers for the progress reports.
                self.report.root_numbers = (pn, dn);
            }
            if end == base {
                // No moves: an OR node without checks is disproven, an AND node without evasions mated.
                (pn, dn) = if or_node { (INF, 0) } else { (0, INF) };
                break;
            }
            let (th_lo, th_hi) = if or_node { (thpn, thdn) } else { (thdn, thpn) };
            if lo == 0 || hi == 0 || lo >= th_lo || hi >= th_hi || self.budget.aborted {
                break;
            }
            let c = self.children[best];
            let (cl, ch) = if or_node { (c.pn, c.dn) } else { (c.dn, c.pn) };
            debug_assert!(cl != 0 && ch != 0 && cl != INF);
            let child_lo = best_threshold(th_lo, second, self.config().eps_den);
            // The child's own pn threshold: the costs its parent counts on its pn come off.
            let cost = if or_node {
                if c.pump { pump } else { 0 }
            } else {
                and_cost(&c, pump, ladder)
            };
            let (child_lo, child_hi) = if or_node {
                (
                    child_lo.saturating_sub(cost),
                    comb.child_threshold(agg, th_hi, ch, c.grouped),
                )
            } else {
                let th = comb.child_threshold(agg, th_hi, add(ch, cost), c.grouped);
                (child_lo, th.saturating_sub(cost).max(ch.saturating_add(1)))
            };
            let (cthpn, cthdn) = if or_node {
                (child_lo, child_hi)
            } else {
                (child_hi, child_lo)
            };

            let m = c.mv;
            self.pos.do_move(m);
            let (child_key, child_board) = (self.pos.key(), self.pos.board_key());
            let child_hand = self.hand();
            self.path
                .enter(m, child_key, child_board, child_hand, ply + 1);
            let r = self.mid(cthpn, cthdn, ply + 1, next_path(path, m), c.seen);
            self.path.leave(child_key, child_board);
            self.pos.undo_move(m);
            let c = &mut self.children[best];
            (c.pn, c.dn, c.len, c.hand, c.dep) = (r.pn, r.dn, r.len, r.hand, r.dep);
            c.seen = Seen::Before;
            self.advance_chain(best, or_node, ply, path);
        }

        if self.game.spare_only()
            && !or_node
            && pn == 0
            && hand.is_empty()
            && self.children[base..end].iter().all(|c| c.futile)
        {
            // Mated (or only futile drops left) with nothing in hand: no spare mate.
            (pn, dn) = (INF, 0);
        }
        let amount = (self.stats.nodes - nodes_before + 1).min(u32::MAX as u64) as u32;
        let r = self.finish(or_node, base..end, (pn, dn), hand, ply);
        let best = self.best_move_bits(or_node, base, end, &r);
        if let (Some(m), Some(slot)) = (marks, mark) {
            m.leave(slot);
        }
        self.tt().store(
            key,
            &Record {
                hand: r.hand,
                pn: r.pn,
                dn: r.dn,
                len: r.len,
                best,
                amount,
                dep: r.dep,
                path,
                or_node,
                budget,
            },
        );
        self.children.truncate(base);
        r
    }
}

/// A child's pn as its parent counts it: with the pump cost inside a pump (`loops.rs`).
#[inline(always)]
fn pumped(pn: PnDn, pump: bool, cost: PnDn) -> PnDn {
    add_cost(pn, if pump { cost } else { 0 })
}

/// What an AND node counts on a child's pn besides the pn itself: the pump cost inside a pump
/// (`loops.rs`) and the ladder cost of the squares behind a drop chain's head (`Chains::ladder`).
#[inline(always)]
fn and_cost(c: &Child, pump: PnDn, ladder: PnDn) -> PnDn {
    let pump = if c.pump { pump } else { 0 };
    pump.saturating_add(ladder.saturating_mul(PnDn::from(c.squares_behind)))
}

/// `pn` with `cost` added, unless it is solved.
#[inline(always)]
fn add_cost(pn: PnDn, cost: PnDn) -> PnDn {
    if cost != 0 && pn != 0 && pn != INF {
        add(pn, cost)
    } else {
        pn
    }
}
