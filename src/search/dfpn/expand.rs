//! Node expansion: a node's moves become its children in the arena (`node.rs`), each with its
//! numbers from the table (probed by key, without playing the move), a repetition or a depth cut, or,
//! new, its first estimate (`dfpn/estimates.rs`); then the node's chains are linked.

use super::Searcher;
use crate::position::movegen::{check_gap, generate_checks, generate_evasions};
use crate::position::{Bitboard, Move, PieceKind};
use crate::search::config::STALL_NODES;
use crate::search::frontier::is_interposition;
use crate::search::game::futile::mark_futile;
use crate::search::loops::{Dependence, next_path};
use crate::search::marks::Marks;
use crate::search::node::{Child, NO_NEXT, Seen};
use crate::search::numbers::{INF, UNIT};
use crate::search::tt::UNBOUNDED;

impl Searcher<'_> {
    /// Whether `m` belongs to the `max` group of SNDA-lite aggregation.
    fn in_group(&self, m: Move, or_node: bool, gap: Bitboard) -> bool {
        if or_node {
            if m.is_drop() {
                return matches!(m.drop_kind(), PieceKind::Bishop | PieceKind::Rook);
            }
            let k = m.piece().kind();
            let zone = Bitboard::promotion_zone(self.attacker());
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
    pub fn expand(&mut self, or_node: bool, ply: u32, path: u64) -> usize {
        let moves = &mut self.moves[0];
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
        let hand = self.hand();
        for i in 0..self.moves[0].len() {
            let m = self.moves[0][i];
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
                pump: false,
                squares_behind: 0,
                mark: 0,
                stalled: false,
                split: false,
            });
        }
        let end = self.children.len();
        if self.game.skips_futile() && !or_node {
            // The rule reads the board only: asked at once.
            mark_futile(&mut self.pos, &mut self.children[base..end], gap);
        }
        if self.config().chains.promotions && !or_node {
            self.children.link_promotions(base, end);
        }
        if self.config().chains.drops
            && !or_node
            && gap.is_not_empty()
            && let Some(ksq) = self.pos.king_square(self.attacker().flip())
        {
            self.children.link_drops(base, end, ksq);
        }
        // Every cluster the loop below will read starts loading now (see `Table::prefetch`), the
        // strict game's too where this game's probes are completed from it (`Game::complete_probe`).
        let (tt, salt, main_salt) = (self.tt(), self.game.salt(), self.main_salt());
        let reads_strict = self.game.reads_strict();
        for c in &self.children[base..end] {
            if c.active && !c.futile {
                let board_key = self.pos.keys_after(c.mv).0;
                tt.prefetch(board_key ^ salt);
                if reads_strict {
                    tt.prefetch(board_key ^ main_salt);
                }
            }
        }
        // An AND node of the main search is refuted by any evasion disproven for every path: once
        // one is found, probing and looking at the rest would change nothing (`finish` takes the
        // most general refutation, and none is more general). Only under the main search's rules
        // (`Game::unbounded_strict`): not in the canonical and spare games, nor in bounded
        // searches.
        let refuted_early = !or_node && self.game.unbounded_strict();
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
        if !or_node && (self.config().chains.stall || self.config().chains.node_stall) {
            self.split_stalled_drops(base, end, ply, path);
        }
        end - base
    }

    /// Fills in child `i`'s numbers: a repetition, a depth cut, the table's entry, or (new) an initial
    /// estimate.
    pub fn probe_child(&mut self, i: usize, or_node: bool, ply: u32, path: u64) {
        if self.children[i].futile {
            return;
        }
        let m = self.children[i].mv;
        let (board_key, hand_key, mover_hand) = self.pos.keys_after(m);
        let child_hand = if or_node { mover_hand } else { self.hand() };
        let budget = self.game.budget(ply + 1);
        self.children[i].hand = child_hand;
        self.children[i].mark = Marks::slot(board_key ^ hand_key);
        let child_path = next_path(path, m);
        // An inferior repetition (an ancestor's board where the attacker held at least as much, see
        // `loops.rs`), only in the game where more in hand is simply better; an exact one in any game.
        let exact = self.path.keys.get(&(board_key ^ hand_key)).copied();
        let (superior, pumps) = self.path.boards.repeats(board_key, child_hand);
        let repeated = if self.config().inferior && self.game.cuts_inferior() {
            match superior {
                // A proof of the copy found elsewhere is a real mate (proofs rest on no path) and
                // proves the ancestor too: the table's entry is taken below rather than cut.
                Some(_)
                    if exact.is_none()
                        && self
                            .tt()
                            .probe(board_key ^ self.game.salt(), child_hand, child_path, budget)
                            .is_proven() =>
                {
                    None
                }
                Some(at) if exact.is_none() => {
                    self.stats.inferior_cuts += 1;
                    Some(at)
                }
                // The deepest covering occurrence: an exact repetition is one, unless its board was
                // entered by a phase that keeps no boards (the PV walk).
                at => at.max(exact),
            }
        } else {
            exact
        };
        // Counted on the defender's replies only (`loops.rs`, *Pumps*).
        let pump = repeated.is_none() && self.config().pump_cost > 0 && pumps && !or_node;
        self.stats.pump_children += u64::from(pump);
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
            if ply + 1 >= self.depth.max_ply {
                // Cut by the depth limit: unsolved on every path through the root.
                self.depth.cuts = true;
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
        let key = board_key ^ self.game.salt();
        let own = self.tt().probe(key, child_hand, child_path, budget);
        // The canonical and spare games read the strict game's entries too (`Game::complete_probe`).
        let p = self.game.complete_probe(
            self.tt(),
            self.main_salt(),
            own,
            board_key,
            child_hand,
            budget,
        );
        let stall = self.config().chains.stall;
        let c = &mut self.children[i];
        (c.pn, c.dn, c.len, c.dep) = (p.pn, p.dn, p.len, p.dep);
        c.stalled = stall && p.amount > STALL_NODES;
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
mod tests {
    use crate::position::{Hand, PieceKind};
    use crate::search::dfpn::tests::after_check;
    use crate::search::loops::Dependence;
    use crate::search::node::Seen;
    use crate::search::numbers::UNIT;
    use crate::search::tt::Record;

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
                let mut more = s.hand();
                more.add(PieceKind::Pawn);
                s.path.boards.push(board, more, 0);
                s.expand(false, 1, path);
                let c = s.children.iter().find(|c| c.mv == evasion).unwrap();
                let is_cut = c.dn == 0 && c.dep == Dependence::Loop { ply: 0 };
                assert_eq!(is_cut, cut, "{spec}: {c:?}");
                assert_eq!(s.stats.inferior_cuts, u64::from(cut));
                // A proof of the copy in the table is taken, not cut (a proof rests on no path).
                s.children.clear();
                let key = board ^ s.game.salt();
                s.tt().store(key, &Record::proof(Hand::EMPTY, 3, 0, true));
                s.expand(false, 1, path);
                let c = s.children.iter().find(|c| c.mv == evasion).unwrap();
                assert_eq!((c.pn, c.len), (0, 3), "{spec}: {c:?}");
                assert_eq!(s.stats.inferior_cuts, u64::from(cut));
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
                    let mut more = s.hand();
                    more.add(PieceKind::Pawn);
                    more
                };
                s.path.boards.push(board, held, 0);
                s.expand(false, 1, path);
                let c = s.children.iter().find(|c| c.mv == evasion).unwrap();
                assert_eq!(c.pump, pump, "{spec}, less {less}: {c:?}");
                assert_eq!(
                    c.dn == 0,
                    !less,
                    "cut only where the ancestor held more: {c:?}"
                );
                assert_eq!(s.stats.pump_children, u64::from(pump));
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
