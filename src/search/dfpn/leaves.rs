//! The node's shortcuts before its moves are generated: mate in one and the 3-ply frontier at OR nodes
//! (Kaneko et al.), and the bounded searches' "no mate within d" where the frontier answers it
//! exactly. Each stores its result and returns it as the node's.

use super::{Dfpn, NodeResult};
use crate::search::frontier;
use crate::search::loops::Dependence;
use crate::search::mate1;
use crate::search::numbers::INF;
use crate::search::tt::Record;

impl Dfpn<'_> {
    /// At a new OR node: mate in one, found without generating the checks, proves it at once.
    pub(super) fn try_mate1(&mut self) -> Option<NodeResult> {
        self.mate1_probes += 1;
        let (m, proof) = mate1::mate_in_one(&mut self.pos)?;
        let key = self.tt_key();
        self.tt
            .store(key, &Record::proof(proof, 1, m.to_u16(), true));
        Some(NodeResult {
            pn: 0,
            dn: INF,
            len: 1,
            hand: proof,
            dep: Dependence::None,
        })
    }

    /// At an OR node without mate in one: the 3-ply search (`frontier::mate_in_three`). A mate found
    /// is stored as a proof (the AND node and its children are not: a walk that needs them proves
    /// them again at once, by mate in one). `Err(cut)`: no mate within 3 plies; `cut`, only on this
    /// path (a line met a position of the path).
    pub(super) fn try_mate3(&mut self) -> Result<NodeResult, bool> {
        let path = &self.path;
        let m = match frontier::mate_in_three(
            &mut self.pos,
            self.attacker,
            |k| path.contains_key(&k),
            &mut self.buf,
            &mut self.nodes,
        ) {
            frontier::Three::Mate(m) => m,
            frontier::Three::NoMate { cut } => return Err(cut),
        };
        let key = self.tt_key();
        self.tt
            .store(key, &Record::proof(m.proof, m.len, m.mv.to_u16(), true));
        Ok(NodeResult {
            pn: 0,
            dn: INF,
            len: m.len,
            hand: m.proof,
            dep: Dependence::None,
        })
    }

    /// In a bounded search: the current OR node has no mate within `plies` (found without expanding
    /// it). Stored for the node's exact hand.
    pub(super) fn bounded_disproof(&mut self, plies: u32) -> NodeResult {
        let hand = self.pos.hand(self.attacker);
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
        self.tt.store(
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
