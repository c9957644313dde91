//! The transposition table: a fixed-size array of clusters, allocated once, indexed by the board key.
//!
//! Positions that differ only in hands share a cluster, and each entry stores the **attacker's** hand
//! beside the board key, so a probe can use superiority (komori-n, "proof and disproof pieces"):
//!
//! * a *proven* entry stores its **proof hand** (the pieces the mate needs): it proves every position
//!   with the same board whose attacker hand covers it;
//! * a *disproven* entry stores its **disproof hand**: it disproves every position whose attacker hand
//!   it covers;
//! * an unproven entry of a superior hand bounds dn from below, one of an inferior hand bounds pn.
//!
//! Disproofs that rest on a repetition on the current path (perpetual check, GHI) are stored with a
//! **path key** and only match the same path: they are never taken as general disproofs.

use crate::position::Hand;

/// Proof and disproof numbers. `INF` is a proven (pn) or disproven (dn) value; search values saturate
/// at `INF - 1`.
pub type PnDn = u32;
pub const INF: PnDn = u32::MAX;
pub const PN_MAX: PnDn = INF - 1;
/// The proof (disproof) number of one unexpanded node. Numbers are scaled by this so that the search
/// can add costs smaller than a node (see `dfpn::EDGE_COST`).
pub const PN_UNIT: PnDn = 16;

/// The entry was disproven only because of a repetition on the path that reached it.
const FLAG_PATH_DEPENDENT: u8 = 1;

/// What a path-dependent disproof rests on: the path that reached it (a hash of the moves from the
/// root) and the ply of the shallowest repeated position on that path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dependence {
    pub path: u64,
    pub loop_ply: u16,
}

/// 32 bytes: eight to a 256-byte cluster.
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    /// Full board key; 0 with `amount == 0` marks an empty slot.
    key: u64,
    /// Attacker hand: the exact hand (unproven), the proof hand (proven) or the disproof hand (disproven).
    hand: Hand,
    pn: PnDn,
    dn: PnDn,
    /// Search effort spent below this entry (saturating): what replacement keeps.
    amount: u32,
    /// Best move (`Move::to_u16`), 0 if none.
    best: u16,
    /// Plies to mate (proven) — an upper bound used to pick the PV.
    len: u16,
    flags: u8,
    _pad: u8,
    /// For path-dependent disproofs: the ply of the shallowest repeated position they rest on.
    loop_ply: u16,
}

impl Entry {
    /// A path-dependent disproof has pn = INF and dn = 0 by definition, and no best move or length:
    /// those 64 bits (`pn`, `best`, `len`) hold its path key instead, keeping entries at 32 bytes.
    #[inline(always)]
    fn path(&self) -> u64 {
        self.pn as u64 | (self.best as u64) << 32 | (self.len as u64) << 48
    }

    /// Turns the entry into a path-dependent disproof resting on `d` (the packing `path` reads).
    fn set_dependence(&mut self, d: Dependence) {
        self.flags = FLAG_PATH_DEPENDENT;
        self.pn = d.path as u32;
        self.best = (d.path >> 32) as u16;
        self.len = (d.path >> 48) as u16;
        self.dn = 0;
        self.loop_ply = d.loop_ply;
    }

    #[inline(always)]
    fn is_path_dependent(&self) -> bool {
        self.flags & FLAG_PATH_DEPENDENT != 0
    }
}

const CLUSTER: usize = 8;

#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Cluster {
    entries: [Entry; CLUSTER],
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    pub pn: PnDn,
    pub dn: PnDn,
    /// Plies to mate if proven.
    pub len: u16,
    pub best: u16,
    /// Effort recorded for the exact entry (0 if none).
    pub amount: u32,
    /// Proof hand (if proven) or disproof hand (if disproven).
    pub hand: Hand,
    /// For a path-dependent disproof: the ply of the repeated position it rests on.
    pub loop_ply: Option<u16>,
    /// An entry for exactly this position (or a proof/disproof covering it) was found.
    pub found: bool,
}

impl Probe {
    #[inline(always)]
    pub fn is_proven(&self) -> bool {
        self.pn == 0
    }
    #[inline(always)]
    pub fn is_disproven(&self) -> bool {
        self.dn == 0
    }
}

pub struct Table {
    clusters: Vec<Cluster>,
    /// Slots in use (for `hashfull`).
    used: usize,
    /// The clusters written since the last clear, while they are few (`None` once there are more than
    /// `DIRTY_MAX`): clearing after a short problem then resets a few clusters, not the whole table
    /// (a 256 MiB fill costs ~30 ms, hundreds of times the search itself on a mate in 7).
    dirty: Option<Vec<u32>>,
}

/// Past this many written clusters, `clear` fills the whole table.
const DIRTY_MAX: usize = 1 << 16;

impl Table {
    /// A table of about `mb` MiB (at least one cluster).
    pub fn new(mb: usize) -> Table {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let n = (bytes / std::mem::size_of::<Cluster>()).max(1);
        Table {
            clusters: vec![Cluster::default(); n],
            used: 0,
            dirty: Some(Vec::new()),
        }
    }

    pub fn clear(&mut self) {
        match &mut self.dirty {
            Some(list) => {
                for &i in list.iter() {
                    self.clusters[i as usize] = Cluster::default();
                }
                list.clear();
            }
            None => {
                self.clusters.fill(Cluster::default());
                self.dirty = Some(Vec::new());
            }
        }
        self.used = 0;
    }

    /// Notes that cluster `idx`, empty until now, is being written.
    #[inline]
    fn mark_dirty(&mut self, idx: usize) {
        if let Some(list) = &mut self.dirty {
            if list.len() < DIRTY_MAX {
                list.push(idx as u32);
            } else {
                self.dirty = None;
            }
        }
    }

    /// Occupancy in per mille.
    pub fn hashfull(&self) -> u32 {
        let total = self.clusters.len() * CLUSTER;
        ((self.used as u128 * 1000) / total as u128) as u32
    }

    #[inline(always)]
    fn cluster_index(&self, key: u64) -> usize {
        ((key as u128 * self.clusters.len() as u128) >> 64) as usize
    }

    /// Looks up the position `(key, hand)`. `path` is the current path key (for path-dependent
    /// disproofs). Returns the exact or covering result, or bounds with `found == false`.
    #[inline]
    pub fn probe(&self, key: u64, hand: Hand, path: u64) -> Probe {
        let c = &self.clusters[self.cluster_index(key)];
        let (mut bound_pn, mut bound_dn) = (0, 0);
        let mut r = Probe {
            pn: PN_UNIT,
            dn: PN_UNIT,
            len: 0,
            best: 0,
            amount: 0,
            hand,
            loop_ply: None,
            found: false,
        };
        for e in &c.entries {
            if e.key != key || e.amount == 0 {
                continue;
            }
            if e.is_path_dependent() {
                if e.hand == hand && e.path() == path {
                    return Probe {
                        pn: INF,
                        dn: 0,
                        len: 0,
                        best: 0,
                        amount: e.amount,
                        hand: e.hand,
                        loop_ply: Some(e.loop_ply),
                        found: true,
                    };
                }
            } else if e.pn == 0 {
                if hand.covers(e.hand) {
                    return Probe {
                        pn: 0,
                        dn: INF,
                        len: e.len,
                        best: e.best,
                        amount: e.amount,
                        hand: e.hand,
                        loop_ply: None,
                        found: true,
                    };
                }
            } else if e.dn == 0 {
                if e.hand.covers(hand) {
                    return Probe {
                        pn: INF,
                        dn: 0,
                        len: 0,
                        best: e.best,
                        amount: e.amount,
                        hand: e.hand,
                        loop_ply: Some(e.loop_ply),
                        found: true,
                    };
                }
            } else if e.hand == hand {
                // The exact entry replaces the default; bounds from neighbours still apply.
                (r.pn, r.dn) = (e.pn.max(bound_pn), e.dn.max(bound_dn));
                r.best = e.best;
                r.amount = e.amount;
                r.found = true;
            } else if hand.covers(e.hand) {
                // We hold more: at least as hard to disprove.
                bound_dn = bound_dn.max(e.dn);
                r.dn = r.dn.max(e.dn);
            } else if e.hand.covers(hand) {
                // We hold less: at least as hard to prove.
                bound_pn = bound_pn.max(e.pn);
                r.pn = r.pn.max(e.pn);
            }
        }
        r
    }

    /// Stores a result for `(key, hand)`. For a proof `hand` is the proof hand, for a disproof the
    /// disproof hand. Entries made redundant by a new proof or disproof are freed.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        key: u64,
        hand: Hand,
        pn: PnDn,
        dn: PnDn,
        len: u16,
        best: u16,
        amount: u32,
        dep: Option<Dependence>,
    ) {
        let idx = self.cluster_index(key);
        let c = &mut self.clusters[idx];
        let amount = amount.max(1);
        let proven = pn == 0;
        let disproven = dn == 0 && dep.is_none();
        let live = |e: &Entry| e.amount != 0 && e.key == key;
        // The slot of this very position (same board, same hand) is updated in place, keeping the
        // effort already spent there.
        let mut new = Entry {
            key,
            hand,
            pn,
            dn,
            amount,
            best,
            len,
            flags: 0,
            _pad: 0,
            loop_ply: 0,
        };
        if let Some(d) = dep {
            new.set_dependence(d);
        }
        if let Some(e) = c.entries.iter_mut().find(|e| live(e) && e.hand == hand) {
            let amount = e.amount.saturating_add(amount);
            *e = new;
            e.amount = amount;
            if proven || disproven {
                Self::free_subsumed(c, key, hand, proven, &mut self.used);
            }
            return;
        }
        if proven || disproven {
            Self::free_subsumed(c, key, hand, proven, &mut self.used);
        }
        if c.entries.iter().all(|e| e.amount == 0) {
            self.mark_dirty(idx);
        }
        let c = &mut self.clusters[idx];
        let i = match c.entries.iter().position(|e| e.amount == 0) {
            Some(i) => i,
            None => {
                // Replace the least valuable entry: final results are worth more than open ones.
                let value = |e: &Entry| {
                    let v = e.amount as u64;
                    if !e.is_path_dependent() && (e.pn == 0 || e.dn == 0) {
                        v.saturating_mul(4)
                    } else {
                        v
                    }
                };
                let (i, _) = c
                    .entries
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, e)| value(e))
                    .expect("clusters are non-empty");
                self.used -= 1;
                i
            }
        };
        self.used += 1;
        c.entries[i] = new;
    }
}

impl Table {
    /// After a proof with proof hand `hand` (or a disproof with disproof hand `hand`), frees the other
    /// entries of the same board that it decides: unproven or proven entries whose hand covers the
    /// proof hand (resp. unproven or disproven entries covered by the disproof hand).
    fn free_subsumed(c: &mut Cluster, key: u64, hand: Hand, proven: bool, used: &mut usize) {
        for e in c.entries.iter_mut() {
            if e.amount == 0 || e.key != key || e.hand == hand {
                continue;
            }
            let subsumed = if proven {
                e.hand.covers(hand)
            } else {
                !e.is_path_dependent() && e.pn != 0 && hand.covers(e.hand)
            };
            if subsumed {
                *e = Entry::default();
                *used -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::PieceKind;

    fn hand(p: u8, g: u8) -> Hand {
        let mut h = Hand::EMPTY;
        h.set_count(PieceKind::Pawn, p);
        h.set_count(PieceKind::Gold, g);
        h
    }

    #[test]
    fn proofs_cover_superior_hands_only() {
        let mut t = Table::new(1);
        t.store(42, hand(1, 1), 0, INF, 5, 0, 10, None);
        assert!(t.probe(42, hand(1, 1), 0).is_proven());
        assert!(t.probe(42, hand(3, 2), 0).is_proven());
        assert!(!t.probe(42, hand(0, 2), 0).is_proven());
        assert!(!t.probe(43, hand(3, 2), 0).is_proven());
    }

    #[test]
    fn disproofs_cover_inferior_hands_only() {
        let mut t = Table::new(1);
        t.store(7, hand(2, 0), INF, 0, 0, 0, 10, None);
        assert!(t.probe(7, hand(1, 0), 0).is_disproven());
        assert!(t.probe(7, hand(2, 0), 0).is_disproven());
        assert!(!t.probe(7, hand(2, 1), 0).is_disproven());
    }

    #[test]
    fn path_dependent_disproofs_match_their_path_only() {
        let mut t = Table::new(1);
        let dep = Dependence {
            path: 1234,
            loop_ply: 3,
        };
        t.store(9, hand(0, 1), INF, 0, 0, 0, 10, Some(dep));
        assert!(t.probe(9, hand(0, 1), 1234).is_disproven());
        assert_eq!(t.probe(9, hand(0, 1), 1234).loop_ply, Some(3));
        assert!(!t.probe(9, hand(0, 1), 999).is_disproven());
        assert!(!t.probe(9, hand(0, 0), 1234).is_disproven());
    }

    #[test]
    fn unproven_entries_bound_neighbours() {
        let mut t = Table::new(1);
        t.store(5, hand(1, 1), 300, 7, 0, 0, 10, None);
        let exact = t.probe(5, hand(1, 1), 0);
        assert!(exact.found && exact.pn == 300 && exact.dn == 7);
        // Fewer pieces: at least as hard to prove.
        assert_eq!(t.probe(5, hand(0, 1), 0).pn, 300);
        // More pieces: at least as hard to disprove (never below an unexpanded node's number).
        assert_eq!(t.probe(5, hand(2, 1), 0).dn, PN_UNIT);
        t.store(5, hand(1, 1), 300, 70, 0, 0, 10, None);
        assert_eq!(t.probe(5, hand(2, 1), 0).dn, 70);
    }

    #[test]
    fn full_cluster_replaces_and_counts() {
        let mut t = Table::new(1);
        // Same key, many hands: more than a cluster holds.
        for p in 0..20u8 {
            t.store(11, hand(p, 0), 3, 3, 0, 0, p as u32 + 1, None);
        }
        assert!(t.hashfull() <= 1000);
        // The most searched ones survive.
        assert!(t.probe(11, hand(19, 0), 0).found);
        // A proof frees what it subsumes.
        t.store(11, hand(0, 0), 0, INF, 1, 0, 1, None);
        assert!(t.probe(11, hand(5, 0), 0).is_proven());
    }

    /// Clearing forgets everything, whether it resets the written clusters only or fills the table.
    #[test]
    fn clear_forgets_few_and_many_writes() {
        for n in [3u64, (DIRTY_MAX as u64) * 2] {
            // Room for every entry: nothing is replaced before the clear.
            let mut t = Table::new(64);
            for k in 1..=n {
                t.store(
                    k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                    hand(1, 0),
                    0,
                    INF,
                    1,
                    0,
                    1,
                    None,
                );
            }
            assert!(t.probe(0x9e37_79b9_7f4a_7c15, hand(1, 0), 0).is_proven());
            t.clear();
            assert_eq!(t.hashfull(), 0);
            for k in 1..=n {
                let key = k.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                assert!(!t.probe(key, hand(1, 0), 0).found, "{n}: {k}");
            }
        }
    }
}
