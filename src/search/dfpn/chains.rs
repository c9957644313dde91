//! The searcher's side of chains (`node/chains.rs` has the links and why): a chain moves on when its
//! head is solved the way that does not decide the node, a drop chain is split behind a head that
//! has stalled, and an unguarded middle interposition is deferred. Each new head is probed in the
//! table, so these are the searcher's.

use super::Searcher;
use crate::position::movegen::check_gap;
use crate::search::config::NODE_STALL_NODES;
use crate::search::node::chains::open;
use crate::search::node::{Child, NO_NEXT};

impl Searcher<'_> {
    /// While child `i` is solved the non-deciding way and has a successor, activates the successor and
    /// probes it (a chain split off a stalled head keeps its mark, `Child::split`). Returns the member
    /// where it stopped: the chain's head now.
    pub fn advance_chain(&mut self, mut i: usize, or_node: bool, ply: u32, path: u64) -> usize {
        while self.children[i].done(or_node)
            && let Some(n) = self.children.take_next(i)
        {
            self.children[n].split |= self.children[i].split;
            self.probe_child(n, or_node, ply, path);
            i = n;
        }
        i
    }

    /// `Chains::stall`, at an AND node just expanded: a drop chain whose head is still
    /// undecided after more than `STALL_NODES` nodes (over all its searches, as the table counts
    /// them) is split before its first member on another square. That member heads a chain of its
    /// own (the rest behind it), is probed, and is split the same way if it has stalled too; the
    /// members on the stalled head's square keep waiting behind it, and it no longer counts the
    /// ladder cost of the squares that left.
    ///
    /// Why: one chain over every square is right for proofs (a drop on another square is usually
    /// proven at once once the nearer ones are), but its later members are seen only after every
    /// member in front of them is proven. When the refutation is a drop on a further square, the
    /// search must first prove a defence that may well be lost, and while it tries, the node's
    /// numbers are those of its head alone: a wide no-mate whose pn stays low holds the search for
    /// millions of nodes. A position derived from Zukou #69,
    /// `9/9/9/9/5l3/p2+rb4/1pG3+R2/S3S4/1+bk6 b 3G2s4n3l16p 1`, is one: KomoringHeights, whose
    /// chains hold one square each, disproves it quickly, where one chain over every square
    /// (shtsume's, and kanju's without the split) gives no answer in a long time
    /// (docs/benchmarks.md). A head that has resisted this long is where the other squares'
    /// disproof numbers start to count. Only the table's count decides, so the split is the same
    /// at every visit of the node while the head stays undecided; a fresh head (count 0) never
    /// splits by its own count, and bounded searches never split (their probes report no count).
    ///
    /// `Chains::node_stall`: when the node itself has taken more than `NODE_STALL_NODES` nodes
    /// undecided, every drop chain head counts as stalled, so the chains are split before every
    /// square. Why: a head that is never searched never stalls. When the node's smallest dn is another
    /// defence (a king run that takes millions of nodes to refute), a drop chain's head with a larger
    /// dn waits unsearched, and so do the members behind it, the refutation among them: in a no-mate
    /// derived from Kotobuki (Zukou #100 at ply 354 of its line, one pawn given to the defender),
    /// after the dragon's check from 6f the king's step to 3e takes millions of nodes to refute, while
    /// `N*5f`, waiting behind `P*4f`, is refuted at once (docs/benchmarks.md, *Stalled nodes*). A node
    /// that has resisted this long is where the other squares' drops must count. The mark is far
    /// above the head's: a node of a proof that takes this long is rare, and lower marks split the
    /// chains of proofs' expensive nodes too, costing mates more than they save (docs/benchmarks.md).
    /// The count is the node's own entry's, read once per expansion of a node with a drop chain.
    ///
    /// Sound as every chain: each member is still in exactly one chain, so the node is proven only
    /// when every member is, and refuted only by a refuted active member.
    pub fn split_stalled_drops(&mut self, base: usize, end: usize, ply: u32, path: u64) {
        let chained = |c: &Child| open(c) && c.mv.is_drop() && c.next != NO_NEXT;
        if !(base..end).any(|i| chained(&self.children[i])) {
            return;
        }
        let node_stalled = self.config().chains.node_stall && {
            let own = self
                .tt()
                .probe(self.tt_key(), self.hand(), path, self.game.budget(ply));
            own.amount > NODE_STALL_NODES
        };
        let stalled = |c: &Child| chained(c) && (c.stalled || node_stalled);
        let mut head = (base..end).find(|&i| stalled(&self.children[i]));
        while let Some(h) = head {
            let to = self.children[h].mv.to();
            let mut last = h;
            loop {
                self.children[last].squares_behind = 0;
                let n = self.children[last].next;
                if n == NO_NEXT || self.children[n as usize].mv.to() != to {
                    break;
                }
                last = n as usize;
            }
            let n = self.children[last].next;
            if n == NO_NEXT {
                return;
            }
            self.children[last].next = NO_NEXT;
            let n = n as usize;
            self.children[n].active = true;
            self.children[n].split = true;
            self.stats.stalled_splits += 1;
            self.probe_child(n, false, ply, path);
            let h = self.advance_chain(n, false, ply, path);
            head = stalled(&self.children[h]).then_some(h);
        }
    }

    /// Whether the node's loop defers drops (`defer_unguarded_drop`): only at AND nodes of the main
    /// search in the plain game, where a drop is an ordinary defence (the canonical and spare games
    /// have their own rules on drops), and only under a check from three or more squares away.
    pub fn merges(&self, or_node: bool) -> bool {
        if or_node || !self.game.unbounded_strict() {
            return false;
        }
        self.config().chains.defer && check_gap(&self.pos).has_more_than_one()
    }

    /// `Chains::defer`, at an AND node under a check from three or more squares away: the
    /// first active, unsolved drop interposition on a square the defender does not guard goes to the
    /// end of the chain of the other active, unsolved defence with the smallest dn (the one the
    /// search would try next), and waits there — unless (`Chains::keep_best`) its own dn
    /// is smaller still: then it is the defence the search tries first, and it stays. (With drop
    /// chains the only active drop is the head of the drop chain, so keeping it holds back no other.)
    /// Such a middle interposition is usually taken by the checker with a piece gained, and it is
    /// rarely the refutation; counted beside the real defences it only makes the node look harder.
    /// A drop that heads a chain split off a stalled head (`Child::split`) first lets the guarded
    /// drops behind it go (`release_guarded_drop`, `Chains::release`).
    /// Returns whether a drop was deferred (the caller recomputes the node's numbers). Sound as every
    /// chain: the node is proven only when every member of every chain is, the deferred drops
    /// included, and it is refuted by any refuted active child.
    pub fn defer_unguarded_drop(&mut self, base: usize, end: usize, ply: u32, path: u64) -> bool {
        let defender = self.attacker().flip();
        let occ = self.pos.occupied();
        let Some(d) = (base..end).find(|&i| {
            let c = &self.children[i];
            open(c) && c.mv.is_drop() && self.pos.attackers_to(defender, c.mv.to(), occ).is_empty()
        }) else {
            return false;
        };
        let Some(t) = self.children.next_defence(base, end, d) else {
            return false;
        };
        if self.config().chains.keep_best && self.children[d].dn < self.children[t].dn {
            // The drop is the defence the search would try first (the likeliest refutation): it
            // stays. A tie defers it (new children often tie on their first numbers).
            return false;
        }
        if self.config().chains.release && self.children[d].split {
            self.release_guarded_drop(d, ply, path);
        }
        self.children.chain_behind(d, t);
        self.stats.deferred_drops += 1;
        true
    }

    /// `Chains::release`: cuts the drop chain behind `d` (a drop about to be deferred, heading a
    /// chain split off a stalled head) before its first member on a square the defender guards; that
    /// member becomes an active chain head of its own (probed, its chain advanced past solved
    /// members), the members behind it stay behind it, and the unguarded ones between go with `d`.
    ///
    /// Why: the split said that the squares behind a stalled head count, but the deferral takes
    /// the split-off chain, whole, behind another defence. A waiting drop is never searched, so it
    /// never stalls and is never split: a guarded interposition (a real defence, which the checker
    /// cannot simply take) behind it would never be looked at. A no-mate derived from Zukou #69
    /// (`tests/problems/search.rs`) was refuted by such a drop, S*4i behind the deferred S*5i.
    ///
    /// Why only behind a split-off head: releasing behind every deferred drop fired at thousands of
    /// fresh nodes of proofs, where one chain over every square is right (the guarded drops are
    /// proven cheaply once the nearer ones are), and made Zukou #8's proof far longer; a split marks
    /// the nodes where the one chain went wrong (figures: docs/benchmarks.md, *Released guarded
    /// drops*).
    ///
    /// Sound as every split of a chain: each member is still in exactly one chain, so the node is
    /// proven only when every member of every chain is, and refuted by any refuted active child.
    fn release_guarded_drop(&mut self, d: usize, ply: u32, path: u64) {
        let defender = self.attacker().flip();
        let occ = self.pos.occupied();
        let mut last = d;
        loop {
            let n = self.children[last].next;
            if n == NO_NEXT {
                return;
            }
            let n = n as usize;
            if !self
                .pos
                .attackers_to(defender, self.children[n].mv.to(), occ)
                .is_empty()
            {
                self.children[last].next = NO_NEXT;
                self.children[n].active = true;
                self.stats.released_drops += 1;
                self.probe_child(n, false, ply, path);
                self.advance_chain(n, false, ply, path);
                return;
            }
            last = n;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::position::Hand;
    use crate::search::dfpn::tests::{after_check, and_node, and_node_in, fresh_search};
    use crate::search::dfpn::{RootResult, Searcher};
    use crate::search::loops::Dependence;
    use crate::search::node::NO_NEXT;
    use crate::search::node::chains::open;
    use crate::search::numbers::UNIT;
    use crate::search::tt::{Record, UNBOUNDED};

    /// A chained AND node is proven exactly when every member of its chains is, and its proof hand
    /// is the union over all of them: the same as without chains.
    fn assert_chains_change_nothing(sfen: &str, check: &str, chain: &str, base: &str) {
        let with = and_node(sfen, check, base);
        let without = and_node(sfen, check, &format!("{base},chains=-{chain}"));
        assert!(with.chained > without.chained, "{sfen} {check}: no {chain}");
        assert!(with.proven && without.proven, "{sfen} {check}");
        assert_eq!(with.proven_evasions, with.evasions, "{sfen} {check}");
        assert_eq!(with.hand, without.hand, "{sfen} {check}: proof hands");
    }

    /// Drop interpositions: the rook check from 3d leaves two empty squares, and the defender holds
    /// every kind of piece (tanuki-m5-15).
    #[test]
    fn drop_interposition_chain_is_proven_with_every_member() {
        for base in ["default", "init=unit"] {
            assert_chains_change_nothing(
                "6k2/5L2S/5S3/3R5/9/9/9/9/9 b r2b4g2s4n3l18p 1",
                "6d3d",
                "drops",
                base,
            );
        }
    }

    /// The drop chain notes how many further squares wait behind each member: after the rook's
    /// check from 3d the defender may drop on 3b (nearest, chained first) and 3c.
    #[test]
    fn drop_chain_counts_the_squares_behind_each_member() {
        let sfen = "6k2/5L2S/5S3/3R5/9/9/9/9/9 b r2b4g2s4n3l18p 1";
        after_check(sfen, "default", "6d3d", |s, path| {
            s.expand(false, 1, path);
            let drops: Vec<_> = s.children.iter().filter(|c| c.mv.is_drop()).collect();
            assert!(drops.len() >= 12, "{} drops", drops.len());
            for c in drops {
                let want = u8::from(c.mv.to().to_string() == "3b");
                assert_eq!(c.squares_behind, want, "{:?}", c.mv);
            }
            let ladder = s.config().chains.ladder_at(1);
            assert_eq!(ladder, crate::search::numbers::UNIT / 2);
        });
    }

    /// An undecided entry that took `amount` nodes (all the stall splits read of an entry).
    fn undecided(hand: Hand, amount: u32, or_node: bool) -> Record {
        Record {
            hand,
            pn: 3 * UNIT,
            dn: 5 * UNIT,
            len: 0,
            best: 0,
            amount,
            dep: Dependence::None,
            path: 0,
            or_node,
            budget: UNBOUNDED,
        }
    }

    /// The heads of the node's drop chains: its open drops.
    fn drop_heads(s: &Searcher) -> Vec<usize> {
        (0..s.children.len())
            .filter(|&i| open(&s.children[i]) && s.children[i].mv.is_drop())
            .collect()
    }

    /// Walks the chain of each head, asserting (with `one_square`) that a chain holds the drops of
    /// one square only, and that every drop of the node is in exactly one chain.
    fn assert_chains_cover_the_drops(s: &Searcher, heads: &[usize], one_square: bool, spec: &str) {
        let mut members = 0;
        for &h in heads {
            let square = s.children[h].mv.to();
            let mut i = h;
            loop {
                members += 1;
                if one_square {
                    assert_eq!(s.children[i].mv.to(), square, "{spec}: one square a chain");
                }
                match s.children[i].next {
                    NO_NEXT => break,
                    n => i = n as usize,
                }
            }
        }
        let drops = s.children.iter().filter(|c| c.mv.is_drop()).count();
        assert_eq!(members, drops, "{spec}: every drop in one chain");
    }

    /// A drop chain whose head the table says took more than `STALL_NODES` nodes undecided is split
    /// before its next square (`split_stalled_drops`): after the rook's check from 3d, the drops on
    /// 3b wait behind the stalled head and those on 3c behind a head of their own; every drop is in
    /// exactly one chain, and the stalled head no longer counts the ladder cost of 3c. A fresh head,
    /// a count below the mark, or the switch off: one chain.
    #[test]
    fn a_stalled_drop_head_splits_its_chain_before_the_next_square() {
        use crate::search::config::STALL_NODES;
        let sfen = "6k2/5L2S/5S3/3R5/9/9/9/9/9 b r2b4g2s4n3l18p 1";
        // Unit first numbers: the look-ahead would prove the drops on 3b at once (mate in one).
        let specs = [
            ("init=unit", STALL_NODES + 1000, true),
            ("init=unit,chains=-stall", STALL_NODES + 1000, false),
            ("init=unit", STALL_NODES - 1000, false),
        ];
        for (spec, amount, split) in specs {
            after_check(sfen, spec, "6d3d", |s, path| {
                s.expand(false, 1, path);
                let first = drop_heads(s);
                assert_eq!(first.len(), 1, "{spec}: one chain when fresh");
                assert_eq!(s.stats.stalled_splits, 0, "{spec}");
                // The table: the head searched for `amount` nodes so far, undecided.
                let m = s.children[first[0]].mv;
                assert_eq!(m.to().to_string(), "3b");
                let (board, _, _) = s.pos.keys_after(m);
                s.tt()
                    .store(board ^ s.game.salt(), &undecided(s.hand(), amount, true));
                s.children.clear();
                s.expand(false, 1, path);
                let hs = drop_heads(s);
                assert_eq!(hs.len(), if split { 2 } else { 1 }, "{spec}");
                assert_eq!(s.stats.stalled_splits, u64::from(split), "{spec}");
                assert_chains_cover_the_drops(s, &hs, split, spec);
                let stalled = &s.children[first[0]];
                assert_eq!(stalled.squares_behind, u8::from(!split), "{spec}");
            });
        }
    }

    /// A node the table says took more than `NODE_STALL_NODES` nodes undecided splits its drop chain
    /// before every square (`Chains::node_stall`), fresh heads and all: after the rook's check from
    /// 3d, the drops on 3b and those on 3c head a chain each, every drop in exactly one chain. The
    /// head's own stall is not needed (`chains=-stall` splits too); a count below the mark, or the
    /// part off: one chain.
    #[test]
    fn a_stalled_node_splits_its_drop_chain_before_every_square() {
        use crate::search::config::NODE_STALL_NODES;
        let sfen = "6k2/5L2S/5S3/3R5/9/9/9/9/9 b r2b4g2s4n3l18p 1";
        let (over, under) = (NODE_STALL_NODES + 1000, NODE_STALL_NODES - 1000);
        let specs = [
            ("init=unit", over, true),
            ("init=unit,chains=-stall", over, true),
            ("init=unit,chains=-nodestall", over, false),
            ("init=unit", under, false),
        ];
        for (spec, amount, split) in specs {
            after_check(sfen, spec, "6d3d", |s, path| {
                // The table: this node searched for `amount` nodes so far, undecided.
                s.tt()
                    .store(s.tt_key(), &undecided(s.hand(), amount, false));
                s.expand(false, 1, path);
                let hs = drop_heads(s);
                assert_eq!(hs.len(), if split { 2 } else { 1 }, "{spec}");
                assert_chains_cover_the_drops(s, &hs, split, spec);
            });
        }
    }

    /// The ladder cost is a number only: with it or without, the node after the rook's check is
    /// proven with the same proof hand.
    #[test]
    fn ladder_cost_changes_no_answer() {
        let sfen = "6k2/5L2S/5S3/3R5/9/9/9/9/9 b r2b4g2s4n3l18p 1";
        let base = and_node(sfen, "6d3d", "chains=-ladder");
        for spec in ["default", "init=unit"] {
            let with = and_node(sfen, "6d3d", spec);
            assert!(base.proven && with.proven, "{spec}");
            assert_eq!(with.proven_evasions, with.evasions, "{spec}");
            assert_eq!(with.hand, base.hand, "{spec}: proof hands");
        }
    }

    /// What the ladder cost is for: a strict mate in 9 (from a differential sweep, seed 3202) whose
    /// first proof, without it, climbs the ladder of a rook dropped on 9e (the defender drops on
    /// 8e…4e with six kinds of piece, each capture leaving a new board) where the bishop's near
    /// check proves it in far fewer nodes; with the default cost the first proof takes less than a
    /// third of the nodes. (A node count, not a time: the same on every machine.)
    #[test]
    fn a_far_checks_ladder_counts_its_squares() {
        let sfen = "9/9/7+r1/8l/6K2/9/5g3/7+N1/9 w rbl 1";
        let nodes = |spec: &str| {
            fresh_search(sfen, spec, |s| {
                assert_eq!(s.run(), RootResult::Proven, "{spec}");
                s.stats.nodes
            })
        };
        let (with, without) = (nodes("default"), nodes("chains=-ladder"));
        assert!(
            with * 3 < without,
            "{with} nodes with the ladder cost, {without} without"
        );
    }

    /// Deferred drops (`defer_unguarded_drop`): after the rook's check from 3d the drops on 3c,
    /// which only the attacker covers, wait behind another defence (unless one looks best,
    /// `keepbest`); the node is still proven with every evasion and the same proof hand. (With lazy
    /// numbers the ladder cost is off: it raises the drop chain's pn enough that the one drop
    /// `keepbest` keeps is the one the plain deferral defers, and the comparison of the two counts
    /// would show nothing.)
    #[test]
    fn merged_defences_are_proven_with_every_member() {
        // Serialised defences make long lines: a search's stack, not a test thread's.
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(merged_defences)
            .unwrap()
            .join()
            .unwrap();
    }

    fn merged_defences() {
        let sfen = "6k2/5L2S/5S3/3R5/9/9/9/9/9 b r2b4g2s4n3l18p 1";
        for base in ["default", "init=unit,chains=-ladder"] {
            let run = |spec: &str| {
                after_check(sfen, spec, "6d3d", |s, path| {
                    let r = and_node_in(s, path);
                    (r, s.stats.deferred_drops)
                })
            };
            let (without, none) = run(&format!("{base},chains=-defer"));
            assert_eq!(none, 0, "{base}");
            // With `keepbest` (the default) a drop whose dn is the smallest stays: here in the
            // whole search fewer drops wait (none with the look-ahead's first numbers).
            let (_, kept) = run(base);
            let (with, deferred) = run(&format!("{base},chains=-keepbest"));
            assert!(deferred > 0, "{base}: nothing deferred");
            assert!(
                kept < deferred,
                "{base}: {kept} kept-best deferrals vs {deferred}"
            );
            assert!(with.proven && without.proven, "{base}");
            assert_eq!(with.proven_evasions, with.evasions, "{base}");
            assert_eq!(with.hand, without.hand, "{base}: proof hands");
        }
    }

    /// A promotion and its non-promotion: after G*2i the defender's only answers are the silver's
    /// capture, promoting or not, and each is mated by 2a2i+. With lazy initial numbers: the default
    /// one-ply look-ahead proves both captures as the node is expanded (mate in one after each), so
    /// no chain is needed there.
    #[test]
    fn promotion_chain_is_proven_with_both_members() {
        assert_chains_change_nothing(
            "7R1/9/9/9/9/4B4/9/6s2/8k b G 1",
            "G*2i",
            "promotions",
            "init=unit",
        );
    }
}
