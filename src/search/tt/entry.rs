//! One slot of the table as a value (`Entry`: the hand, the numbers, what a result rests on, its
//! effort), and its packing into the three words a cluster stores it in (`cluster.rs`).

use crate::position::Hand;
use crate::search::loops::{Dependence, NO_MATE_PLIES};
use crate::search::numbers::PnDn;

/// Entry flags.
pub(super) const FLAG_PATH_DEPENDENT: u8 = 1;
pub(super) const FLAG_DEPTH_CUT: u8 = 2;
/// The entry is an OR node (attacker to move).
pub(super) const FLAG_OR: u8 = 4;
/// Written by a length-bounded search (the PV search): an estimate for the budget `len`, or, with
/// `dn == 0`, the disproof "no mate within `len` plies". (Its proofs are ordinary proofs.)
pub(super) const FLAG_BOUNDED: u8 = 8;

/// A slot's contents, 24 bytes packed (`Entry::pack`), beside the slot's board key in the cluster's
/// key line: eight to a 256-byte cluster.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    /// Attacker hand: the exact hand (unproven), the proof hand (proven) or the disproof hand.
    pub(super) hand: Hand,
    pub(super) pn: PnDn,
    pub(super) dn: PnDn,
    /// Search effort spent below this entry (nodes, saturating, at least 1): what replacement and GC
    /// keep.
    pub(super) amount: u32,
    /// Best move (`Move::to_u16`), 0 if none.
    pub(super) best: u16,
    /// Proven: plies to mate along the proof found (an upper bound on the shortest mate). Bounded
    /// entries (`FLAG_BOUNDED`): the budget of an estimate, or the plies of a bounded disproof.
    pub(super) len: u16,
    pub(super) flags: u8,
    /// Path-dependent disproofs resting on a loop: the ply of the repeated position (clamped).
    pub(super) loop_ply: u16,
}

// `Entry::dependence`'s argument: no bounded search's bound reaches the 16-bit saturation.
const _: () = assert!(crate::search::loops::HARD_MAX_PLY < u16::MAX as u32);

impl Entry {
    /// A path-dependent disproof has pn = INF and dn = 0 by definition, and no best move or length:
    /// those 64 bits (`pn`, `best`, `len`) hold its path key instead, keeping entries at 24 bytes.
    #[inline(always)]
    pub(super) fn path(&self) -> u64 {
        self.pn as u64 | (self.best as u64) << 32 | (self.len as u64) << 48
    }

    /// Turns the entry into a disproof resting on `d` along `path`. A bounded one ("no mate within d"
    /// on this path) keeps its bound in `dn` (d + 1: `dn` is free, every path-dependent entry being a
    /// disproof).
    pub(super) fn set_dependence(&mut self, d: Dependence, path: u64) {
        self.pn = path as u32;
        self.best = (path >> 32) as u16;
        self.len = (path >> 48) as u16;
        self.dn = 0;
        self.flags |= FLAG_PATH_DEPENDENT;
        match d {
            Dependence::Loop { ply } => self.loop_ply = ply.min(u16::MAX as u32) as u16,
            Dependence::DepthCut => self.flags |= FLAG_DEPTH_CUT,
            Dependence::Within {
                plies,
                loop_at: Some(ply),
            } => {
                self.flags |= FLAG_BOUNDED;
                self.dn = plies + 1;
                self.loop_ply = ply.min(u16::MAX as u32) as u16;
            }
            Dependence::None | Dependence::Within { loop_at: None, .. } => {
                unreachable!("only path-dependent results carry a path")
            }
        }
    }

    #[inline(always)]
    pub(super) fn is_path_dependent(&self) -> bool {
        self.flags & FLAG_PATH_DEPENDENT != 0
    }

    #[inline(always)]
    pub(super) fn is_bounded(&self) -> bool {
        self.flags & FLAG_BOUNDED != 0
    }

    /// A bounded disproof that holds on every path: no mate within `len` plies.
    #[inline(always)]
    pub(super) fn is_within(&self) -> bool {
        self.is_bounded() && !self.is_path_dependent() && self.dn == 0
    }

    #[inline(always)]
    pub(super) fn dependence(&self) -> Dependence {
        if self.is_within() {
            // `len` holds the bound in 16 bits (`Table::store` saturates it). No bounded search
            // reaches 65 535 plies (`HARD_MAX_PLY` is below), so a saturated bound can only be
            // `NO_MATE_PLIES`, "no mate at any length" (a refutation that met no horizon), and reads
            // back as that: read as 65 535, it would look like a refutation of that bound only,
            // and shortest first (`deepen.rs`) would ask again for every longer bound until its cap
            // ran out.
            Dependence::Within {
                plies: if self.len == u16::MAX {
                    NO_MATE_PLIES
                } else {
                    self.len as u32
                },
                loop_at: None,
            }
        } else if !self.is_path_dependent() {
            Dependence::None
        } else if self.is_bounded() {
            Dependence::Within {
                plies: self.dn - 1,
                loop_at: Some(self.loop_ply as u32),
            }
        } else if self.flags & FLAG_DEPTH_CUT != 0 {
            Dependence::DepthCut
        } else {
            Dependence::Loop {
                ply: self.loop_ply as u32,
            }
        }
    }

    #[inline(always)]
    pub(super) fn is_proven(&self) -> bool {
        !self.is_path_dependent() && self.pn == 0
    }

    /// A disproof for every length and every path.
    #[inline(always)]
    pub(super) fn is_general_disproof(&self) -> bool {
        !self.is_path_dependent() && !self.is_bounded() && self.dn == 0
    }

    /// What the entry is worth keeping, for replacement and garbage collection: the effort spent below
    /// it, weighted by kind. A proof at an OR node (one move each) and a disproof at an AND node (one
    /// refutation each) are what a proof or disproof tree is made of, and what a re-search cannot get
    /// back cheaply: they weigh most. The other final results (AND proofs, OR disproofs) are rebuilt by a
    /// single expansion whose children hit the kept entries; path-dependent disproofs match one path
    /// only; unproven entries are estimates.
    #[inline(always)]
    pub(super) fn value(&self) -> u64 {
        let a = self.amount as u64;
        let or = self.flags & FLAG_OR != 0;
        if self.is_path_dependent() {
            a
        } else if self.is_bounded() {
            if self.dn == 0 { a * 2 } else { a }
        } else if (self.pn == 0 && or) || (self.dn == 0 && !or) {
            a * 8
        } else if self.pn == 0 || self.dn == 0 {
            a * 2
        } else {
            a
        }
    }
}

/// An entry packed into three words, as a cluster stores it: the words are written and read whole
/// under the cluster's lock (`cluster.rs`), so a reader never sees one field of an old entry beside
/// another of a new one.
pub(super) type Words = [u64; 3];

impl Entry {
    /// The entry's three words: hand and pn; dn and amount; best, len, flags and loop ply.
    #[inline(always)]
    pub(super) fn pack(&self) -> Words {
        [
            u64::from(self.hand.raw()) | u64::from(self.pn) << 32,
            u64::from(self.dn) | u64::from(self.amount) << 32,
            u64::from(self.best)
                | u64::from(self.len) << 16
                | u64::from(self.flags) << 32
                | u64::from(self.loop_ply) << 48,
        ]
    }

    /// The entry `pack` made these words of (all-zero words: the empty entry).
    #[inline(always)]
    pub(super) fn unpack(w: Words) -> Entry {
        Entry {
            hand: Hand::from_raw(w[0] as u32),
            pn: (w[0] >> 32) as u32,
            dn: w[1] as u32,
            amount: (w[1] >> 32) as u32,
            best: w[2] as u16,
            len: (w[2] >> 16) as u16,
            flags: (w[2] >> 32) as u8,
            loop_ply: (w[2] >> 48) as u16,
        }
    }
}
