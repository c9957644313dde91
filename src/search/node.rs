//! Node expansion: the children of the node being searched, with their numbers from the table
//! (probed by key, without playing the move; a new one gets its first numbers in `estimates.rs`),
//! and the chains that make near-identical defences wait for each other.
//!
//! The children of every node on the current path live in one arena (`Dfpn::children`), each node
//! owning a contiguous range while it is searched: a child's numbers are cached there between the
//! iterations of the node's loop instead of being probed again.
//!
//! **Chains** of near-identical defences, and how they change while a node is searched, live in
//! `chains.rs`.

use super::dfpn::{Dfpn, Seen};
use super::frontier::is_interposition;
use super::loops::{Dependence, next_path};
use super::numbers::{INF, PnDn, UNIT};
use super::tt::UNBOUNDED;
use crate::position::movegen::{check_gap, generate_checks, generate_evasions};
use crate::position::{Bitboard, Hand, Move, PieceKind, Square};

/// No next member.
pub(super) const NO_NEXT: u32 = u32::MAX;

/// One child of a node being searched, as last seen.
#[derive(Clone, Copy, Debug)]
pub(super) struct Child {
    pub mv: Move,
    pub pn: PnDn,
    pub dn: PnDn,
    /// Plies to mate when proven.
    pub len: u16,
    /// Proof hand (proven) or disproof hand (disproven); otherwise the child's attacker hand.
    pub hand: Hand,
    /// For a disproof: what it rests on.
    pub dep: Dependence,
    /// Aggregated with `max` rather than `+` under `Aggregation::Sum` (SNDA-lite).
    pub grouped: bool,
    /// What the table and the look-ahead knew of the child.
    pub seen: Seen,
    /// Counted in the node's numbers: not waiting behind an unsolved chain member.
    pub active: bool,
    /// The next member of the child's chain (an index into the arena), or `NO_NEXT`.
    pub next: u32,
    /// A futile interposition in the canonical game (`futile.rs`): proven, no defence at all.
    pub futile: bool,
    /// Set with `futile` for a reply answered by a mate with pieces to spare (`spare.rs`).
    pub spared: bool,
    /// A superior repetition of an ancestor, inside a pump (`loops.rs`): its parent counts the pump
    /// cost on its pn.
    pub pump: bool,
    /// In a drop chain (`link_drops`): how many further squares the members behind this one drop
    /// on, this one's own square not counted (`SearchConfig::ladder_cost`).
    pub squares_behind: u8,
    /// The table says more than `SearchConfig::stall_nodes` nodes were spent on the child so far,
    /// unsolved (`Probe::amount`; never when the switch is off).
    pub stalled: bool,
}

impl Child {
    /// Solved the way that does not decide the node (proven at an AND node, disproven at an OR node):
    /// the next member of the chain, if any, takes over.
    #[inline(always)]
    pub fn done(&self, or_node: bool) -> bool {
        if or_node { self.dn == 0 } else { self.pn == 0 }
    }
}

/// Chebyshev distance between two squares.
#[inline(always)]
pub(super) fn distance(a: Square, b: Square) -> u32 {
    (a.file().abs_diff(b.file())).max(a.rank().abs_diff(b.rank())) as u32
}

impl Dfpn<'_> {
    /// Whether `m` belongs to the `max` group of SNDA-lite aggregation.
    fn in_group(&self, m: Move, or_node: bool, gap: Bitboard) -> bool {
        if or_node {
            if m.is_drop() {
                return matches!(m.drop_kind(), PieceKind::Bishop | PieceKind::Rook);
            }
            let k = m.piece().kind();
            let zone = Bitboard::promotion_zone(self.attacker);
            !m.is_promotion()
                && matches!(k, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Rook)
                && (zone.contains(m.to()) || zone.contains(m.from()))
        } else {
            is_interposition(m, gap)
        }
    }

    /// Generates the node's moves and pushes one `Child` per move onto the arena; the heads of chains
    /// (and every unchained child) are probed. Returns the number of children.
    #[inline(never)]
    pub(super) fn expand(&mut self, or_node: bool, ply: u32, path: u64) -> usize {
        let moves = &mut self.buf[0];
        moves.clear();
        if or_node {
            generate_checks(&self.pos, moves);
        } else {
            generate_evasions(&self.pos, moves);
        }
        let gap = if or_node {
            Bitboard::EMPTY
        } else {
            check_gap(&self.pos)
        };
        let base = self.children.len();
        let hand = self.pos.hand(self.attacker);
        for i in 0..self.buf[0].len() {
            let m = self.buf[0][i];
            let grouped = self.in_group(m, or_node, gap);
            self.children.push(Child {
                mv: m,
                pn: UNIT,
                dn: UNIT,
                len: 0,
                hand,
                dep: Dependence::None,
                grouped,
                seen: Seen::Before,
                active: true,
                next: NO_NEXT,
                futile: false,
                spared: false,
                pump: false,
                squares_behind: 0,
                stalled: false,
            });
        }
        let end = self.children.len();
        if self.futile_skip && !or_node && (self.config.futile_test_nodes == 0 || self.spare) {
            // The narrow rule is cheap (board only): asked at once. The composers' rule searches, so
            // it is asked only of refutations (`excuse_futile_refutations`), except in the spare
            // game, which has no such step and asks it here.
            self.mark_futile(base, end, gap, ply);
        }
        if self.config.promo_chains && !or_node {
            self.link_promotions(base, end);
        }
        if self.config.chains && !or_node && gap.is_not_empty() {
            self.link_drops(base, end);
        }
        if self.config.move_chains && !or_node {
            self.link_moves(base, end, gap);
        }
        // Every cluster the loop below will read starts loading now (see `Table::prefetch`).
        for c in &self.children[base..end] {
            if c.active && !c.futile {
                self.tt.prefetch(self.pos.keys_after(c.mv).0 ^ self.salt);
            }
        }
        // An AND node of the main search is refuted by any evasion disproven for every path: once one
        // is found, probing and looking at the rest would change nothing (`finish` takes the most
        // general refutation, and none is more general). Not in the canonical and spare games, where
        // a refutation may be excused (`excuse_spare_refutations`), nor in bounded searches.
        let refuted_early =
            !or_node && self.horizon == UNBOUNDED && !self.futile_skip && !self.spare;
        for i in base..end {
            if self.children[i].active {
                self.probe_child(i, or_node, ply, path);
                let c = &self.children[i];
                if refuted_early && c.dn == 0 && c.dep.is_general() {
                    return end - base;
                }
            }
        }
        // A head solved the non-deciding way hands over to the next member at once.
        for i in base..end {
            if self.children[i].active {
                self.advance_chain(i, or_node, ply, path);
            }
        }
        if !or_node && self.config.stall_nodes > 0 {
            self.split_stalled_drops(base, end, ply, path);
        }
        end - base
    }

    /// Fills in child `i`'s numbers: a repetition, a depth cut, the table's entry, or (new) an initial
    /// estimate.
    pub(super) fn probe_child(&mut self, i: usize, or_node: bool, ply: u32, path: u64) {
        if self.children[i].futile {
            return;
        }
        let m = self.children[i].mv;
        let (board_key, hand_key, mover_hand) = self.pos.keys_after(m);
        let child_hand = if or_node {
            mover_hand
        } else {
            self.pos.hand(self.attacker)
        };
        let budget = self.budget(ply + 1);
        self.children[i].hand = child_hand;
        let child_path = next_path(path, m);
        // An inferior repetition (an ancestor's board where the attacker held at least as much, see
        // `loops.rs`), only in the game where more in hand is simply better; an exact one in any game.
        let exact = self.path.get(&(board_key ^ hand_key)).copied();
        let (superior, pumps) = self.boards.repeats(board_key, child_hand);
        let repeated = if self.config.inferior && !self.futile_skip && !self.spare {
            match superior {
                // A proof of the copy found elsewhere is a real mate (proofs rest on no path) and
                // proves the ancestor too: the table's entry is taken below rather than cut.
                Some(_)
                    if exact.is_none()
                        && self
                            .tt
                            .probe(board_key ^ self.salt, child_hand, child_path, budget)
                            .is_proven() =>
                {
                    None
                }
                Some(at) if exact.is_none() => {
                    self.inferior_cuts += 1;
                    Some(at)
                }
                // The deepest covering occurrence: an exact repetition is one, unless its board was
                // entered by a phase that keeps no boards (the PV walk).
                at => at.max(exact),
            }
        } else {
            exact
        };
        // Counted on the defender's replies only, unless `pump_checks` (`loops.rs`, *Pumps*).
        let pump = repeated.is_none()
            && self.config.pump_cost > 0
            && pumps
            && (!or_node || self.config.pump_checks);
        self.pump_children += u64::from(pump);
        let c = &mut self.children[i];
        c.pump = pump;
        if let Some(at) = repeated {
            // A repetition: lost for the attacker on this path. (A bounded search may cut it too: a
            // shortest mate never repeats a position; see `pv.rs`.)
            let dep = if budget == UNBOUNDED {
                Dependence::Loop { ply: at }
            } else {
                Dependence::bounded_loop(at)
            };
            (c.pn, c.dn, c.dep) = (INF, 0, dep);
            return;
        }
        if budget == UNBOUNDED {
            if ply + 1 >= self.max_ply {
                // Cut by the depth limit: unsolved on every path through the root.
                self.depth_cuts = true;
                (c.pn, c.dn, c.dep) = (INF, 0, Dependence::DepthCut);
                return;
            }
        } else if !or_node && budget == 0 {
            // A bounded search: no mate in 0 plies.
            (c.pn, c.dn, c.dep) = (
                INF,
                0,
                Dependence::Within {
                    plies: 0,
                    loop_at: None,
                },
            );
            return;
        }
        let key = board_key ^ self.salt;
        let mut p = self.tt.probe(key, child_hand, child_path, budget);
        if self.spare && !p.found {
            // No mate at all is no spare mate either: the main search's general disproofs hold here.
            // A mate with pieces over is one: a proof there within the child's budget whose proof
            // hand the child's hand exceeds (`spare::surplus_proof`, which has the argument).
            let q = self
                .tt
                .probe(board_key ^ self.main_salt, child_hand, 0, UNBOUNDED);
            if q.is_disproven() && q.dep.is_general() {
                p = q;
            } else if self.config.surplus
                && q.is_proven()
                && u32::from(q.len) <= budget
                && let Some(proof) = super::spare::surplus_proof(child_hand, q.hand)
            {
                p = q;
                p.hand = proof;
            }
        }
        // The canonical game: a strict mate within the budget is a canonical one (`futile.rs`).
        let p = self.with_strict_proof(p, board_key, child_hand, budget);
        let c = &mut self.children[i];
        (c.pn, c.dn, c.len, c.dep) = (p.pn, p.dn, p.len, p.dep);
        let stall = self.config.stall_nodes;
        c.stalled = stall > 0 && p.amount > stall;
        if p.is_proven() || p.is_disproven() {
            c.hand = p.hand;
            return;
        }
        if p.found {
            return;
        }
        c.seen = Seen::New;
        self.initial_numbers(i, or_node, key, board_key ^ hand_key);
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::position::Position;
    use crate::position::movegen::{MoveList, generate_evasions};
    use crate::search::config::SearchConfig;
    use crate::search::loops::next_path;
    use crate::search::numbers::PN_MAX;
    use crate::search::tt::{Record, Table, UNBOUNDED};
    use crate::search::{SearchInfo, SearchLimits, problem_position};
    use std::sync::atomic::AtomicBool;

    /// What the search says of the AND node after `check` from the tsume problem `sfen`, searched to
    /// the end with the switches `spec`.
    pub(in crate::search) struct AndNode {
        /// The node is proven.
        pub proven: bool,
        /// Its proof hand.
        pub hand: Hand,
        /// Evasions that were chained behind another when the node was expanded.
        pub chained: usize,
        /// Evasions, and those the table holds proven afterwards.
        pub evasions: usize,
        pub proven_evasions: usize,
        /// Mate-in-one probes the search of the node asked.
        pub mate1_probes: u64,
    }

    /// Runs `f` on a fresh search (16 MiB table, no limits) of the tsume problem `sfen` with the
    /// switches `spec`.
    pub(in crate::search) fn fresh_search<R>(
        sfen: &str,
        spec: &str,
        f: impl FnOnce(&mut Dfpn) -> R,
    ) -> R {
        let root = problem_position(&Position::from_sfen(sfen).unwrap());
        let mut config = SearchConfig::default();
        config.apply(spec).unwrap();
        let mut tt = Table::new(16);
        let limits = SearchLimits::default();
        let stop = AtomicBool::new(false);
        let mut on_info = |_: &SearchInfo| {};
        let mut s = Dfpn::new(&mut tt, root, config, &limits, &stop, &mut on_info);
        f(&mut s)
    }

    /// `fresh_search` with its root on the path and the check `check` played.
    pub(in crate::search) fn after_check<R>(
        sfen: &str,
        spec: &str,
        check: &str,
        f: impl FnOnce(&mut Dfpn, u64) -> R,
    ) -> R {
        fresh_search(sfen, spec, |s| {
            let root_key = s.pos.key();
            s.path.insert(root_key, 0);
            let m = s.pos.parse_usi_move(check).unwrap();
            s.pos.do_move(m);
            s.path.insert(s.pos.key(), 1);
            let path = next_path(s.root_path, m);
            f(s, path)
        })
    }

    pub(in crate::search) fn and_node(sfen: &str, check: &str, spec: &str) -> AndNode {
        after_check(sfen, spec, check, and_node_in)
    }

    pub(in crate::search) fn and_node_in(s: &mut Dfpn, path: u64) -> AndNode {
        s.expand(false, 1, path);
        let chained = s.children.iter().filter(|c| !c.active).count();
        s.children.clear();
        let r = s.mid(PN_MAX, PN_MAX, 1, path, Seen::New);
        let mut evasions = MoveList::new();
        generate_evasions(&s.pos, &mut evasions);
        let mut proven_evasions = 0;
        for &e in evasions.iter() {
            s.pos.do_move(e);
            let p = s.tt.probe(
                s.tt_key(),
                s.pos.hand(s.attacker),
                next_path(path, e),
                UNBOUNDED,
            );
            proven_evasions += usize::from(p.is_proven());
            s.pos.undo_move(e);
        }
        AndNode {
            proven: r.pn == 0,
            hand: r.hand,
            chained,
            evasions: evasions.len(),
            proven_evasions,
            mate1_probes: s.mate1_probes,
        }
    }

    /// An evasion disproven for every path refutes the AND node: the evasions after it are neither
    /// probed nor looked at. After P*5b the king takes the pawn and leaves the attacker nothing.
    #[test]
    fn a_general_refutation_ends_the_expansion() {
        after_check("4k4/9/9/9/9/9/9/9/9 b P 1", "default", "P*5b", |s, path| {
            let n = s.expand(false, 1, path);
            let refuted = s
                .children
                .iter()
                .position(|c| c.dn == 0)
                .expect("a refutation");
            assert!(s.children[refuted].dep.is_general());
            let untouched = s.children[refuted + 1..]
                .iter()
                .filter(|c| c.seen == Seen::Before && c.pn == UNIT && c.dn == UNIT)
                .count();
            assert!(
                n > refuted + 1 && untouched == n - refuted - 1,
                "{n} {refuted} {untouched}"
            );
        });
    }

    /// An evasion that leads to a board of the path where the attacker held at least as much is cut
    /// like a repetition, resting on that ply, unless the table proves it; with the switch off it is
    /// searched as usual. (The ancestor is planted in the path's boards: after 6d3d the evasion 3a2b
    /// leads to a board no real ancestor here has.)
    #[test]
    fn an_inferior_repetition_is_cut_like_a_repetition() {
        let sfen = "6k2/5L2S/5S3/3R5/9/9/9/9/9 b r2b4g2s4n3l18p 1";
        for (spec, cut) in [("default", true), ("inferior=off", false)] {
            after_check(sfen, spec, "6d3d", |s, path| {
                let evasion = s.pos.parse_usi_move("3a2b").unwrap();
                let (board, _, _) = s.pos.keys_after(evasion);
                let mut more = s.pos.hand(s.attacker);
                more.add(PieceKind::Pawn);
                s.boards.push(board, more, 0);
                s.expand(false, 1, path);
                let c = s.children.iter().find(|c| c.mv == evasion).unwrap();
                let is_cut = c.dn == 0 && c.dep == Dependence::Loop { ply: 0 };
                assert_eq!(is_cut, cut, "{spec}: {c:?}");
                assert_eq!(s.inferior_cuts, u64::from(cut));
                // A proof of the copy in the table is taken, not cut (a proof rests on no path).
                s.children.clear();
                let key = board ^ s.salt;
                s.tt.store(key, &Record::proof(Hand::EMPTY, 3, 0, true));
                s.expand(false, 1, path);
                let c = s.children.iter().find(|c| c.mv == evasion).unwrap();
                assert_eq!((c.pn, c.len), (0, 3), "{spec}: {c:?}");
                assert_eq!(s.inferior_cuts, u64::from(cut));
            });
        }
    }

    /// The pump cost counts on the defender's replies only, unless `pumpchecks=on`: a check (not a
    /// drop, which would leave the hand as planted: an exact repetition) that re-enters a board of
    /// the path where the attacker held less is flagged only then.
    #[test]
    fn a_superior_repetition_of_a_check_is_a_pump_only_with_pumpchecks() {
        let sfen = "6k2/5L2S/5S3/3R5/9/9/9/9/9 b Pr2b4g2s4n3l17p 1";
        for (spec, pump) in [("default", false), ("pumpchecks=on", true)] {
            after_check(sfen, spec, "6d3d", |s, path| {
                let evasion = s.pos.parse_usi_move("3a2b").unwrap();
                s.pos.do_move(evasion);
                s.path.insert(s.pos.key(), 2);
                let path = next_path(path, evasion);
                let mut checks = MoveList::new();
                generate_checks(&s.pos, &mut checks);
                let check = *checks.iter().find(|m| !m.is_drop()).expect("a board check");
                let (board, _, _) = s.pos.keys_after(check);
                s.boards.push(board, Hand::EMPTY, 0);
                s.expand(true, 2, path);
                let c = s.children.iter().find(|c| c.mv == check).unwrap();
                assert_eq!(c.pump, pump, "{spec}: {c:?}");
                assert_eq!(s.pump_children, u64::from(pump), "{spec}");
            });
        }
    }

    /// An evasion that leads to a board of the path where the attacker held less (nothing, against
    /// the pawn it holds) is searched, not cut, and counted with the pump cost; where the attacker
    /// held more it is cut instead, and with the cost at 0 nothing is marked. (The ancestor is
    /// planted in the path's boards, as above.)
    #[test]
    fn a_superior_repetition_is_a_pump() {
        let sfen = "6k2/5L2S/5S3/3R5/9/9/9/9/9 b Pr2b4g2s4n3l17p 1";
        for (spec, less, pump) in [
            ("default", true, true),
            ("pump=0", true, false),
            ("default", false, false),
        ] {
            after_check(sfen, spec, "6d3d", |s, path| {
                let evasion = s.pos.parse_usi_move("3a2b").unwrap();
                let (board, _, _) = s.pos.keys_after(evasion);
                let held = if less {
                    Hand::EMPTY
                } else {
                    let mut more = s.pos.hand(s.attacker);
                    more.add(PieceKind::Pawn);
                    more
                };
                s.boards.push(board, held, 0);
                s.expand(false, 1, path);
                let c = s.children.iter().find(|c| c.mv == evasion).unwrap();
                assert_eq!(c.pump, pump, "{spec}, less {less}: {c:?}");
                assert_eq!(
                    c.dn == 0,
                    !less,
                    "cut only where the ancestor held more: {c:?}"
                );
                assert_eq!(s.pump_children, u64::from(pump));
                // The others are no repetition of anything.
                assert!(
                    s.children
                        .iter()
                        .filter(|c| c.mv != evasion)
                        .all(|c| !c.pump)
                );
            });
        }
    }
}
