//! A node's result from its children once its loop ends: the proof or disproof hand (the rules of
//! `hands.rs`), the mate length, what a disproof rests on (`loops.rs`), and the move the table keeps.

use super::{NodeResult, Searcher};
use crate::position::Hand;
use crate::search::hands;
use crate::search::loops::Dependence;
use crate::search::numbers::PnDn;

impl Searcher<'_> {
    /// The node's result from its children: proof/disproof hands, mate length, path dependence.
    pub fn finish(
        &self,
        or_node: bool,
        kids: std::ops::Range<usize>,
        (pn, dn): (PnDn, PnDn),
        hand: Hand,
        ply: u32,
    ) -> NodeResult {
        let kids = &self.children[kids];
        let mut r = NodeResult {
            pn,
            dn,
            len: 0,
            hand,
            dep: Dependence::None,
        };
        if pn == 0 {
            if or_node {
                // The proven check with the shortest known mate.
                let c = kids
                    .iter()
                    .filter(|c| c.pn == 0)
                    .min_by_key(|c| c.len)
                    .expect("a proven OR node has a proven child");
                r.len = c.len.saturating_add(1);
                r.hand = hands::before_proof(&self.pos, c.mv, c.hand);
            } else {
                let mut proof = hands::and_proof_extra(&self.pos, self.attacker());
                let mut len = 0;
                for c in kids {
                    debug_assert!(c.pn == 0, "a proven AND node has only proven children");
                    proof = proof.max(c.hand);
                    len = len.max(c.len);
                }
                // Futile interpositions are no defence (canonical game): mated here if only they
                // are left.
                let mated_here = kids.iter().all(|c| c.futile);
                if mated_here && self.game.spare_only() {
                    proof = hands::spare_mate_proof(hand, proof)
                        .expect("a spare mate has a piece in hand");
                }
                r.hand = proof;
                r.len = if mated_here { 0 } else { len.saturating_add(1) };
            }
            debug_assert!(hand.covers(r.hand), "proof hand exceeds the hand");
        } else if dn == 0 {
            if or_node {
                let mut d = Hand::FULL;
                for c in kids {
                    debug_assert!(c.dn == 0, "a disproven OR node has only disproven children");
                    r.dep = r.dep.and(c.dep);
                    d = d.min(hands::before_disproof(&self.pos, c.mv, c.hand));
                }
                r.dep = r.dep.before_move();
                r.hand = hands::cap_or_disproof(&self.pos, self.attacker(), d);
            } else if kids.iter().all(|c| c.futile) {
                // The spare game: mated with nothing in hand. Holds for this hand (the empty one).
                debug_assert!(self.game.spare_only() && hand.is_empty());
            } else {
                // Prefer the refutation that depends least on the path.
                let c = kids
                    .iter()
                    .filter(|c| c.dn == 0)
                    .max_by_key(|c| c.dep.generality())
                    .expect("a disproven AND node has a disproven child");
                r.dep = c.dep.before_move();
                r.hand = hands::and_disproof(&self.pos, self.attacker(), c.mv, c.hand);
            }
            r.dep = r.dep.settle(ply);
            #[cfg(test)]
            if self.config().naive_loop_cache
                && let Dependence::Within { plies, .. } = r.dep
            {
                // The unsound cache of the tests (`SearchConfig::naive_loop_cache`).
                r.dep = Dependence::Within {
                    plies,
                    loop_at: None,
                };
            }
            if r.dep.on_path() {
                // Stored under the path key, for this exact position only.
                r.hand = hand;
            }
            debug_assert!(r.hand.covers(hand), "disproof hand below the hand");
        }
        r
    }

    /// The move to remember for this node: the proving/refuting child, or the most promising one.
    pub fn best_move_bits(&self, or_node: bool, base: usize, end: usize, r: &NodeResult) -> u16 {
        let kids = &self.children[base..end];
        let pick = if r.pn == 0 && or_node {
            kids.iter().filter(|c| c.pn == 0).min_by_key(|c| c.len)
        } else if r.pn == 0 {
            kids.iter().filter(|c| !c.futile).max_by_key(|c| c.len)
        } else if r.dn == 0 && !or_node {
            // The refutation `finish` chose.
            kids.iter()
                .filter(|c| c.dn == 0)
                .max_by_key(|c| c.dep.generality())
        } else if or_node {
            kids.iter().filter(|c| c.active).min_by_key(|c| c.pn)
        } else {
            kids.iter().filter(|c| c.active).min_by_key(|c| c.dn)
        };
        pick.map_or(0, |c| c.mv.to_u16())
    }
}
