//! Chains: sibling moves that wait for each other, and the merges that change them while their node
//! is searched (shtsume's sequential defences, KomoringHeights' delayed moves). Some sibling moves tend
//! to lead to the same positions and to be decided the same way; summing (or even counting) them makes a
//! node look many times harder than it is. A chain is a list of such siblings of which only the head is
//! *active*: the others wait until the head is solved the way that does not decide the node — proven, at
//! an AND node; disproven, at an OR node — and then the next one becomes the head and is probed (often it
//! is decided at once by hand superiority: after "drop a pawn, the attacker captures" and "drop a lance,
//! the attacker captures" the board is the same). The node is decided only when every member is, so
//! chains change the order of the search and its numbers, never its answer.
//! * AND nodes: all drop interpositions form one chain, nearest square first and, on each square,
//!   the cheapest piece first; a defender's non-promotion waits for the promotion of the same move.
//! * Not at OR nodes: there a non-promotion is often the key move (a knight or silver that must not
//!   promote, a bishop avoiding pawn-drop mate) while its promotion stays undecided for long; chaining it
//!   behind the promotion hid the solution of Zukou #24 for millions of nodes.
//! * Chains also change while the node is searched (shtsume's merges): under a check from three or
//!   more squares away, a drop on a square the defender does not guard (a middle interposition, which
//!   the checker takes with a piece gained) waits at the end of the chain of the defence the search
//!   would try next (`defer_unguarded_drop`, on by default); and, off by default, blown-up defences
//!   wait behind another (`merge_blown_up`).

use super::dfpn::Dfpn;
use super::node::{Child, NO_NEXT, distance};
use super::numbers::PnDn;
use super::tt::UNBOUNDED;
use crate::position::movegen::check_gap;
use crate::position::{Bitboard, PieceKind};

/// `merge_blown_up`'s dn mark is this many times its pn mark (shtsume's marks: 1024 and 240).
const BLOWUP_DN_FACTOR: PnDn = 4;

/// A child the merges may move or put one behind: active (not waiting in a chain) and unsolved.
#[inline(always)]
fn open(c: &Child) -> bool {
    c.active && c.pn != 0 && c.dn != 0
}

/// The cost order of hand kinds for interposition chains: cheapest first.
#[inline(always)]
fn drop_order(k: PieceKind) -> u32 {
    match k {
        PieceKind::Pawn => 0,
        PieceKind::Lance => 1,
        PieceKind::Knight => 2,
        PieceKind::Silver => 3,
        PieceKind::Gold => 4,
        PieceKind::Bishop => 5,
        _ => 6,
    }
}

impl Dfpn<'_> {
    /// Links each non-promotion among the children `base..end` behind the promotion of the same move.
    pub(super) fn link_promotions(&mut self, base: usize, end: usize) {
        // Promotion / non-promotion pairs: the generators emit one piece's moves together (its
        // promotions, then its non-promotions), so a pair lies within a run of moves from one square.
        let mut i = base;
        while i < end {
            let m = self.children[i].mv;
            if m.is_drop() {
                i += 1;
                continue;
            }
            let mut j = i + 1;
            while j < end
                && !self.children[j].mv.is_drop()
                && self.children[j].mv.from() == m.from()
            {
                j += 1;
            }
            for a in i..j {
                let pa = self.children[a].mv;
                if !pa.is_promotion() {
                    continue;
                }
                if let Some(b) = (i..j).find(|&b| {
                    let pb = self.children[b].mv;
                    !pb.is_promotion() && pb.to() == pa.to()
                }) {
                    self.children[a].next = b as u32;
                    self.children[b].active = false;
                }
            }
            i = j;
        }
    }

    /// Links board-move defences that differ only in which of two alike pieces makes them: the
    /// interpositions on one square by long-range pieces (bishop, rook, horse, dragon), those on one
    /// square by tokins, and the captures of the checker by tokins. After the attacker takes the
    /// piece the positions differ only in where it came from (a horse taken is a bishop in hand as a
    /// bishop is), so the first member's proof usually proves the next at once by the table. Each
    /// promotion pair (`link_promotions`) stays together inside the chain. Sound as every chain: the
    /// AND node is proven only when every member is, with the union of their proof hands.
    pub(super) fn link_moves(&mut self, base: usize, end: usize, gap: Bitboard) {
        let checkers = self.pos.checkers();
        if checkers.has_more_than_one() {
            return;
        }
        let mut groups = std::mem::take(&mut self.scratch);
        groups.clear();
        for i in base..end {
            let c = &self.children[i];
            if !c.active || c.mv.is_drop() {
                continue;
            }
            let to = c.mv.to();
            let class = match c.mv.piece().kind() {
                PieceKind::Bishop | PieceKind::Rook | PieceKind::Horse | PieceKind::Dragon
                    if gap.contains(to) =>
                {
                    0
                }
                PieceKind::ProPawn if gap.contains(to) || checkers.contains(to) => 1,
                _ => continue,
            };
            groups.push((to.index() as u32 * 2 + class, i as u32));
        }
        groups.sort_unstable();
        for w in groups.windows(2) {
            if w[0].0 != w[1].0 {
                continue;
            }
            let mut tail = w[0].1 as usize;
            while self.children[tail].next != NO_NEXT {
                tail = self.children[tail].next as usize;
            }
            self.children[tail].next = w[1].1;
            self.children[w[1].1 as usize].active = false;
        }
        self.scratch = groups;
    }

    /// Links the drop interpositions among the children `base..end` into one chain, nearest square to
    /// the king first, cheapest piece first, and notes on each member how many further squares the
    /// members behind it drop on (`Child::squares_behind`).
    ///
    /// **The ladder cost** (`SearchConfig::ladder_cost`): while a chain waits, its head stands for
    /// every member, and most members cost nothing once the head is proven (another piece on the
    /// same square: after the capture the board is the same and the attacker's hand no smaller, so
    /// the head's proof hand usually covers it). A member on *another* square is another board after
    /// the capture — under a far rook's check, one more rung of a ladder the attacker must climb —
    /// and its proof is found anew. Counting nothing for those made a far check look as cheap as a
    /// near one: a strict mate in 9 spent 274 k nodes climbing a rook's ladder of drops on five
    /// squares before its 4-unit near check was tried. So the head counts a fraction of a unit for
    /// each further square (a whole unit, as if the squares were separate children, measures worse:
    /// `SearchConfig::ladder_cost`), and only near the root (`SearchConfig::ladder_plies`: the cost
    /// adds up along a line of distant checks, and deep in a long one it would only tax the line's
    /// length). A number only: the chain is still proven exactly when every member is, so no answer
    /// changes.
    pub(super) fn link_drops(&mut self, base: usize, end: usize) {
        let Some(ksq) = self.pos.king_square(self.attacker.flip()) else {
            return;
        };
        let mut drops = std::mem::take(&mut self.scratch);
        drops.clear();
        drops.extend(
            (base..end)
                .filter(|&i| self.children[i].mv.is_drop())
                .map(|i| {
                    let m = self.children[i].mv;
                    (
                        distance(m.to(), ksq) * 8 + drop_order(m.drop_kind()),
                        i as u32,
                    )
                }),
        );
        drops.sort_unstable();
        for w in drops.windows(2) {
            self.children[w[0].1 as usize].next = w[1].1;
            self.children[w[1].1 as usize].active = false;
        }
        // The interposition squares lie on one line from the king, each at its own distance: the
        // members of one square are consecutive in the chain.
        let mut behind = 0u8;
        let mut square = None;
        for &(_, i) in drops.iter().rev() {
            let to = self.children[i as usize].mv.to();
            if square.is_some_and(|s| s != to) {
                behind = behind.saturating_add(1);
            }
            square = Some(to);
            self.children[i as usize].squares_behind = behind;
        }
        self.scratch = drops;
    }

    /// While child `i` is solved the non-deciding way and has a successor, activates the successor and
    /// probes it. Returns the member where it stopped: the chain's head now.
    pub(super) fn advance_chain(
        &mut self,
        mut i: usize,
        or_node: bool,
        ply: u32,
        path: u64,
    ) -> usize {
        while self.children[i].done(or_node) && self.children[i].next != NO_NEXT {
            let n = self.children[i].next as usize;
            self.children[i].next = NO_NEXT;
            self.children[n].active = true;
            self.probe_child(n, or_node, ply, path);
            i = n;
        }
        i
    }

    /// `SearchConfig::stall_nodes`, at an AND node just expanded: a drop chain whose head is still
    /// undecided after more than `stall_nodes` nodes (over all its searches, as the table counts
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
    /// millions of nodes (a position derived from Zukou #69,
    /// `9/9/9/9/5l3/p2+rb4/1pG3+R2/S3S4/1+bk6 b 3G2s4n3l16p 1`: KomoringHeights, whose chains
    /// hold one square each, disproves it in 0.25 s, shtsume and kanju with one chain had no
    /// answer in 20 s and 60 s). A head that has resisted this long is where the other squares'
    /// disproof numbers start to count. Only the table's count decides, so the split is the same
    /// at every visit of the node while the head stays undecided; a fresh head (count 0) never
    /// splits, and neither do bounded searches (their probes report no count).
    ///
    /// Sound as every chain: each member is still in exactly one chain, so the node is proven only
    /// when every member is, and refuted only by a refuted active member.
    pub(super) fn split_stalled_drops(&mut self, base: usize, end: usize, ply: u32, path: u64) {
        let stalled = |c: &Child| open(c) && c.mv.is_drop() && c.next != NO_NEXT && c.stalled;
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
            self.stalled_splits += 1;
            self.probe_child(n, false, ply, path);
            let h = self.advance_chain(n, false, ply, path);
            head = stalled(&self.children[h]).then_some(h);
        }
    }

    /// Which merges the node's loop makes: deferred drops (`defer_unguarded_drop`), and the pn mark of
    /// the blow-up merges (`merge_blown_up`; 0: none). Only at AND nodes of the main search in the
    /// plain game, where a drop is an ordinary defence (the canonical and spare games have their own
    /// rules on drops), and deferred drops only under a check from three or more squares away.
    pub(super) fn merges(&self, or_node: bool, budget: u32) -> (bool, PnDn) {
        if or_node || budget != UNBOUNDED || self.futile_skip || self.spare {
            return (false, 0);
        }
        let defer = self.config.defer_drops && check_gap(&self.pos).has_more_than_one();
        (defer, self.config.blowup())
    }

    /// `SearchConfig::defer_drops`, at an AND node under a check from three or more squares away: the
    /// first active, unsolved drop interposition on a square the defender does not guard goes to the
    /// end of the chain of the other active, unsolved defence with the smallest dn (the one the
    /// search would try next), and waits there — unless (`SearchConfig::defer_keeps_best`) its own dn
    /// is smaller still: then it is the defence the search tries first, and it stays. (With drop
    /// chains the only active drop is the head of the drop chain, so keeping it holds back no other.)
    /// Such a middle interposition is usually taken by the checker with a piece gained, and it is
    /// rarely the refutation; counted beside the real defences it only makes the node look harder.
    /// Returns whether a drop was deferred (the caller recomputes the node's numbers). Sound as every
    /// chain: the node is proven only when every member of every chain is, the deferred drops
    /// included, and it is refuted by any refuted active child.
    pub(super) fn defer_unguarded_drop(&mut self, base: usize, end: usize) -> bool {
        let defender = self.attacker.flip();
        let occ = self.pos.occupied();
        let Some(d) = (base..end).find(|&i| {
            let c = &self.children[i];
            open(c) && c.mv.is_drop() && self.pos.attackers_to(defender, c.mv.to(), occ).is_empty()
        }) else {
            return false;
        };
        let Some(t) = self.next_defence(base, end, d) else {
            return false;
        };
        if self.config.defer_keeps_best && self.children[d].dn < self.children[t].dn {
            // The drop is the defence the search would try first (the likeliest refutation): it
            // stays. A tie defers it (new children often tie on their first numbers).
            return false;
        }
        self.chain_behind(d, t);
        self.deferred_drops += 1;
        true
    }

    /// `SearchConfig::blowup` (shtsume's merges of blown-up children), at an AND node whose numbers
    /// (`pn`, and `head`'s, the child the search would try next) have grown past the marks: when the
    /// node's pn passes `mark` and `head` is no capture, the child with the largest pn waits behind
    /// the defence with the smallest dn among the others (a defence that resists that much is left
    /// until the others are proven); when even `head`'s dn passes `BLOWUP_DN_FACTOR` × `mark` (every
    /// defence looks lost), the next defence waits behind it, so the search proves one defence after
    /// the other instead of spreading over all of them. Returns whether a child was moved. Sound as
    /// every chain (see `defer_unguarded_drop`): only the order and the numbers change.
    pub(super) fn merge_blown_up(
        &mut self,
        base: usize,
        end: usize,
        head: usize,
        pn: PnDn,
        mark: PnDn,
    ) -> bool {
        let h = &self.children[head];
        if !open(h) {
            return false;
        }
        let merge = if pn > mark && !self.pos.occupied().contains(h.mv.to()) {
            (base..end)
                .filter(|&i| open(&self.children[i]))
                .max_by_key(|&i| self.children[i].pn)
                .and_then(|m| Some((m, self.next_defence(base, end, m)?)))
        } else if h.dn > mark.saturating_mul(BLOWUP_DN_FACTOR) {
            self.next_defence(base, end, head).map(|s| (s, head))
        } else {
            None
        };
        let Some((moved, target)) = merge else {
            return false;
        };
        self.chain_behind(moved, target);
        self.blown_up += 1;
        true
    }

    /// The open child among `base..end` other than `skip` with the smallest dn: the defence the
    /// search would try next.
    fn next_defence(&self, base: usize, end: usize, skip: usize) -> Option<usize> {
        (base..end)
            .filter(|&i| i != skip && open(&self.children[i]))
            .min_by_key(|&i| self.children[i].dn)
    }

    /// Makes the active child `moved` (with the rest of its chain) wait at the end of `target`'s chain.
    fn chain_behind(&mut self, moved: usize, target: usize) {
        let mut tail = target;
        while self.children[tail].next != NO_NEXT {
            tail = self.children[tail].next as usize;
        }
        self.children[tail].next = moved as u32;
        self.children[moved].active = false;
    }
}

#[cfg(test)]
mod tests {
    use crate::search::dfpn::RootResult;
    use crate::search::node::tests::{after_check, and_node, and_node_in, fresh_search};

    /// A chained AND node is proven exactly when every member of its chains is, and its proof hand
    /// is the union over all of them: the same as without chains.
    fn assert_chains_change_nothing(sfen: &str, check: &str, chain: &str, base: &str) {
        let with = and_node(sfen, check, base);
        let without = and_node(sfen, check, &format!("{base},{chain}=off"));
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
                "chains",
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
            let ladder = s.config.ladder_at(1);
            assert_eq!(ladder, crate::search::numbers::UNIT / 2);
        });
    }

    /// A drop chain whose head the table says took more than `stall_nodes` nodes undecided is split
    /// before its next square (`split_stalled_drops`): after the rook's check from 3d, the drops on
    /// 3b wait behind the stalled head and those on 3c behind a head of their own; every drop is in
    /// exactly one chain, and the stalled head no longer counts the ladder cost of 3c. A fresh head,
    /// a count below the mark (`stall=5000`), or the switch off: one chain.
    #[test]
    fn a_stalled_drop_head_splits_its_chain_before_the_next_square() {
        use crate::search::loops::Dependence;
        use crate::search::node::{Child, NO_NEXT};
        use crate::search::numbers::UNIT;
        use crate::search::tt::{Record, UNBOUNDED};
        let sfen = "6k2/5L2S/5S3/3R5/9/9/9/9/9 b r2b4g2s4n3l18p 1";
        // Unit first numbers: the look-ahead would prove the drops on 3b at once (mate in one).
        let specs = [
            ("init=unit", true),
            ("init=unit,stall=0", false),
            ("init=unit,stall=5000", false),
        ];
        for (spec, split) in specs {
            after_check(sfen, spec, "6d3d", |s, path| {
                let heads = |s: &crate::search::dfpn::Dfpn| -> Vec<usize> {
                    (0..s.children.len())
                        .filter(|&i| super::open(&s.children[i]) && s.children[i].mv.is_drop())
                        .collect()
                };
                s.expand(false, 1, path);
                let first = heads(s);
                assert_eq!(first.len(), 1, "{spec}: one chain when fresh");
                assert_eq!(s.stalled_splits, 0, "{spec}");
                // The table: the head searched for 4 000 nodes so far, undecided.
                let m = s.children[first[0]].mv;
                assert_eq!(m.to().to_string(), "3b");
                let (board, _, _) = s.pos.keys_after(m);
                let record = Record {
                    hand: s.pos.hand(s.attacker),
                    pn: 3 * UNIT,
                    dn: 5 * UNIT,
                    len: 0,
                    best: 0,
                    amount: 4000,
                    dep: Dependence::None,
                    path: 0,
                    or_node: true,
                    budget: UNBOUNDED,
                };
                s.tt.store(board ^ s.salt, &record);
                s.children.clear();
                s.expand(false, 1, path);
                let drops = s.children.iter().filter(|c| c.mv.is_drop()).count();
                let hs = heads(s);
                assert_eq!(hs.len(), if split { 2 } else { 1 }, "{spec}");
                assert_eq!(s.stalled_splits, u64::from(split), "{spec}");
                let mut members = 0;
                for &h in &hs {
                    let square = s.children[h].mv.to();
                    let mut i = h;
                    loop {
                        let c: &Child = &s.children[i];
                        members += 1;
                        if split {
                            assert_eq!(c.mv.to(), square, "{spec}: one square a chain");
                        }
                        if c.next == NO_NEXT {
                            break;
                        }
                        i = c.next as usize;
                    }
                }
                assert_eq!(members, drops, "{spec}: every drop in one chain");
                let stalled = &s.children[first[0]];
                assert_eq!(stalled.squares_behind, u8::from(!split), "{spec}");
            });
        }
    }

    /// The ladder cost is a number only: with none, the default's or a huge one, the node after
    /// the rook's check is proven with the same proof hand.
    #[test]
    fn ladder_cost_changes_no_answer() {
        let sfen = "6k2/5L2S/5S3/3R5/9/9/9/9/9 b r2b4g2s4n3l18p 1";
        let base = and_node(sfen, "6d3d", "ladder=0");
        for spec in ["default", "ladder=255", "init=unit,ladder=64"] {
            let with = and_node(sfen, "6d3d", spec);
            assert!(base.proven && with.proven, "{spec}");
            assert_eq!(with.proven_evasions, with.evasions, "{spec}");
            assert_eq!(with.hand, base.hand, "{spec}: proof hands");
        }
    }

    /// What the ladder cost is for: a strict mate in 9 (from a differential sweep, seed 3202) whose
    /// first proof, without it, climbs the ladder of a rook dropped on 9e (the defender drops on
    /// 8e…4e with six kinds of piece, each capture leaving a new board), 274 k nodes where the
    /// bishop's near check proves it in far fewer; with the default cost the first proof takes
    /// 46 k. (A node count, not a time: the same on every machine.)
    #[test]
    fn a_far_checks_ladder_counts_its_squares() {
        let sfen = "9/9/7+r1/8l/6K2/9/5g3/7+N1/9 w rbl 1";
        let nodes = |spec: &str| {
            fresh_search(sfen, spec, |s| {
                assert_eq!(s.run(), RootResult::Proven, "{spec}");
                s.nodes
            })
        };
        let (with, without) = (nodes("default"), nodes("ladder=0"));
        assert!(
            with * 3 < without,
            "{with} nodes with the ladder cost, {without} without"
        );
    }

    /// The dynamic merges (`defer_unguarded_drop`, `merge_blown_up`): after the rook's check from 3d
    /// the drops on 3c, which only the attacker covers, wait behind another defence (unless one
    /// looks best, `deferkeep`), and with a mark of one unit every defence waits behind another (the
    /// depth limit keeps that search from diving: with every node's defences in one file, no number
    /// grows with the width); the node is still proven with every evasion and the same proof hand.
    /// (With lazy numbers the ladder cost is off: it raises the drop chain's pn enough that the one
    /// drop `deferkeep` keeps is the one the plain deferral defers, and the comparison of the two
    /// counts would show nothing.)
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
        for base in ["default", "init=unit,ladder=0"] {
            let run = |spec: &str| {
                after_check(sfen, spec, "6d3d", |s, path| {
                    let r = and_node_in(s, path);
                    (r, s.deferred_drops, s.blown_up)
                })
            };
            let (without, none, none2) = run(&format!("{base},deferdrops=off"));
            assert_eq!((none, none2), (0, 0), "{base}");
            // With `deferkeep` (the default) a drop whose dn is the smallest stays: here in the
            // whole search fewer drops wait (none with the look-ahead's first numbers).
            let (_, kept, _) = run(&format!("{base},deferdrops=on"));
            for merge in [
                "deferdrops=on,deferkeep=off",
                "deferdrops=off,blowup=1,maxply=24",
            ] {
                let (with, deferred, blown) = run(&format!("{base},{merge}"));
                assert!(deferred + blown > 0, "{base},{merge}: nothing merged");
                if merge.contains("deferkeep") {
                    assert!(
                        kept < deferred,
                        "{base}: {kept} kept-best deferrals vs {deferred}"
                    );
                }
                assert!(with.proven && without.proven, "{base},{merge}");
                assert_eq!(with.proven_evasions, with.evasions, "{base},{merge}");
                assert_eq!(with.hand, without.hand, "{base},{merge}: proof hands");
            }
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
            "promochains",
            "init=unit",
        );
    }
    /// Interpositions by long-range pieces on one square: after R*1e the rook (4d1d) and the bishop
    /// (3b1d) can both block on 1d, and both are mated. With lazy initial numbers: the default
    /// look-ahead proves the first member as the node is expanded and the chain moves on at once.
    #[test]
    fn long_range_interposition_chain_is_proven_with_every_member() {
        assert_chains_change_nothing(
            "6G1k/6b2/6S2/5r3/9/9/9/9/9 b RGS 1",
            "R*1e",
            "movechains",
            "init=unit,movechains=on",
        );
    }

    /// Captures of the checker by tokins: after G*5b (guarded by the knight) both tokins can take
    /// it, and each capture is mated.
    #[test]
    fn tokin_capture_chain_is_proven_with_every_member() {
        for base in ["movechains=on", "init=unit,movechains=on"] {
            assert_chains_change_nothing(
                "4k4/3+p1+p3/9/5N3/9/9/9/9/9 b 2R2B3G 1",
                "G*5b",
                "movechains",
                base,
            );
        }
    }
}
