//! The node's shortcuts before its moves are generated: mate in one and the 3-ply frontier at OR nodes
//! (Kaneko et al.), and the bounded searches' "no mate within d" where the frontier answers it
//! exactly. Each stores its result and returns it as the node's.

use super::{NodeResult, Searcher};
use crate::position::{Hand, Move};
use crate::search::frontier;
use crate::search::game::futile::{may_mate_in_one, no_mate_within_three};
use crate::search::hands;
use crate::search::loops::Dependence;
use crate::search::mate1;
use crate::search::node::Seen;
use crate::search::numbers::INF;
use crate::search::tt::Record;

impl Searcher<'_> {
    /// At a new OR node: mate in one, found without generating the checks, proves it at once.
    pub fn try_mate1(&mut self) -> Option<NodeResult> {
        self.stats.mate1_probes += 1;
        let (m, proof) = mate1::mate_in_one(&mut self.pos)?;
        Some(self.mated_in_one(m, proof))
    }

    /// The current OR node mates in one by `m` with proof hand `proof`: stored and returned.
    fn mated_in_one(&mut self, m: Move, proof: Hand) -> NodeResult {
        let key = self.tt_key();
        self.tt()
            .store(key, &Record::proof(proof, 1, m.to_u16(), true));
        NodeResult {
            pn: 0,
            dn: INF,
            len: 1,
            hand: proof,
            dep: Dependence::None,
        }
    }

    /// At an OR node of the spare game (`canonical/spare.rs`), before its moves are generated: a mate in one
    /// that leaves the attacker a piece in hand proves it at once; no mate in one at all answers a
    /// bounded search's "mate within 2?" no, as in the ordinary game (no mate is no spare mate).
    /// Mate-1 finds one mating move: when that one mates with an empty hand another might not, and
    /// the node is searched as usual. Asked where the ordinary game asks mate-1 without mate-3:
    /// at new nodes, and two plies or less above a bounded search's horizon.
    pub fn spare_leaf(&mut self, seen: Seen, budget: u32) -> Option<NodeResult> {
        if seen != Seen::New && budget > 2 {
            return None;
        }
        // A child the look-ahead saw has no mate in one (`Seen::NoMate1`).
        let mated = seen != Seen::NoMate1 && {
            self.stats.mate1_probes += 1;
            match mate1::mate_in_one(&mut self.pos) {
                Some((m, _)) => {
                    if let Some(proof) = self.spare_mate1_proof(m) {
                        return Some(self.mated_in_one(m, proof));
                    }
                    true
                }
                None => false,
            }
        };
        // (In the canonical game, which spare tests play, a check answered only by futile drops
        // mates too: mate-1's "none" holds only where no check is, as in `mid`.)
        if !mated && budget <= 2 && !(self.game.skips_futile() && may_mate_in_one(&mut self.pos)) {
            return Some(self.bounded_disproof(2));
        }
        None
    }

    /// The spare game's proof hand at the current OR node of the mate in one `m` (a legal check
    /// after which the defender has no move, a pawn drop excepted), or `None` when `m` leaves the
    /// attacker's hand empty (a mate, but no spare one).
    ///
    /// Argument: after `m` the defender is mated; `hands::spare_mate_proof` gives a hand H such that
    /// every attacker hand covering it there is a mate with a piece left (its own argument), and
    /// `hands::before_proof` the hand before `m` from which `m` is playable and reaches a hand
    /// covering H (its argument) — the rules of every OR node, in the game where only spare mates
    /// count.
    pub fn spare_mate1_proof(&mut self, m: Move) -> Option<Hand> {
        self.pos.do_move(m);
        let extra = hands::and_proof_extra(&self.pos, self.attacker());
        let child = hands::spare_mate_proof(self.hand(), extra);
        self.pos.undo_move(m);
        Some(hands::before_proof(&self.pos, m, child?))
    }

    /// At an OR node without mate in one: the 3-ply search (`frontier::mate_in_three`). A mate found
    /// is stored as a proof (the AND node and its children are not: a walk that needs them proves
    /// them again at once, by mate in one). `Err(cut)`: no mate within 3 plies; `cut`, only on this
    /// path (a line met a position of the path).
    pub fn try_mate3(&mut self) -> Result<NodeResult, bool> {
        let attacker = self.attacker();
        let path = &self.path.keys;
        let m = match frontier::mate_in_three(
            &mut self.pos,
            attacker,
            |k| path.contains_key(&k),
            &mut self.moves,
            &mut self.stats.nodes,
        ) {
            frontier::Three::Mate(m) => m,
            frontier::Three::NoMate { cut } => return Err(cut),
        };
        let key = self.tt_key();
        self.tt()
            .store(key, &Record::proof(m.proof, m.len, m.mv.to_u16(), true));
        Ok(NodeResult {
            pn: 0,
            dn: INF,
            len: m.len,
            hand: m.proof,
            dep: Dependence::None,
        })
    }

    /// In the canonical game, at an OR node strict mate-3 has refuted without a cut: whether the
    /// canonical game has no mate within three plies either (`futile::no_mate_within_three`, on
    /// every path). Its positions count as nodes, as `try_mate3`'s do.
    pub fn canonical_mate3_refuted(&mut self) -> bool {
        let path = &self.path.keys;
        self.stats.nodes += 1;
        no_mate_within_three(&mut self.pos, |k| path.contains_key(&k), &mut self.moves)
    }

    /// In a bounded search: the current OR node has no mate within `plies` (found without expanding
    /// it). Stored for the node's exact hand.
    pub fn bounded_disproof(&mut self, plies: u32) -> NodeResult {
        let hand = self.hand();
        let r = NodeResult {
            pn: INF,
            dn: 0,
            len: 0,
            hand,
            dep: Dependence::Within {
                plies,
                loop_at: None,
            },
        };
        let key = self.tt_key();
        self.tt().store(
            key,
            &Record {
                dep: r.dep,
                budget: plies,
                ..Record::disproof(hand, true)
            },
        );
        r
    }
}
