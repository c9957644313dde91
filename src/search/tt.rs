//! The transposition table: a fixed-size array of clusters, allocated once, indexed by the board key.
//!
//! Positions that differ only in hands share a cluster, and each entry stores the **attacker's** hand
//! beside the board key, so a probe can use superiority (komori-n, "proof and disproof pieces"; the
//! rules that make hands general are in `hands.rs`):
//!
//! * a *proven* entry stores its **proof hand**: it proves every position with the same board whose
//!   attacker hand covers it;
//! * a *disproven* entry stores its **disproof hand**: it disproves every position whose attacker hand
//!   it covers;
//! * an unproven entry of a superior hand bounds dn from below, one of an inferior hand bounds pn.
//!
//! Disproofs that rest on a repetition on the current path or on the depth limit (`Dependence`) are
//! stored with a **path key** and only match the same path: they are never taken as general disproofs.
//!
//! **Memory.** An entry is 32 bytes (24 and its key), eight to a 256-byte cluster whose first cache
//! line holds the eight keys. The table never runs out: a full
//! cluster replaces its least valuable entry, and when the whole table passes `GC_TRIGGER` full, a
//! garbage collection frees the least valuable entries everywhere until it is at `GC_TARGET` (see
//! `value` for what is kept longest).

use super::loops::Dependence;
use super::numbers::{INF, PnDn, UNIT};
use crate::position::Hand;
use memory::Clusters;

/// The clusters' memory: zero pages the kernel backs on first touch (`memory.rs`), with huge pages
/// asked for. The table is probed at random: with 4 KiB pages a 2 GiB table spans 524 288 pages, far
/// more than the TLB holds, so nearly every probe of a large table also walks the page tables, and
/// filling it takes as many page faults. With 2 MiB pages both shrink 512-fold. Linux gives anonymous
/// memory huge pages on request (`madvise`) when transparent huge pages are in `madvise` mode, the
/// common default; where they are off, or on other systems, the request is skipped or refused and
/// nothing changes but the speed.
mod memory;

/// The budget of a search without a length bound.
pub const UNBOUNDED: u32 = u32::MAX;

mod entry;
use entry::{CLUSTER, Cluster, Entry, FLAG_BOUNDED, FLAG_OR, slot_key};

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    pub pn: PnDn,
    pub dn: PnDn,
    /// Plies to mate if proven.
    pub len: u16,
    pub best: u16,
    /// Proof hand (if proven) or disproof hand (if disproven); otherwise the hand probed.
    pub hand: Hand,
    /// For a disproof: what it depends on (always `None` for a general one).
    pub dep: Dependence,
    /// An entry for exactly this position, or a proof/disproof covering it, was found.
    pub found: bool,
    /// The nodes spent so far on this position unsolved (the main search's entry for exactly this
    /// hand, over all its searches); 0 otherwise.
    pub amount: u32,
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

/// What a store records.
#[derive(Clone, Copy, Debug)]
pub struct Record {
    /// The attacker hand: exact (unproven), proof hand (proven) or disproof hand (disproven).
    pub hand: Hand,
    pub pn: PnDn,
    pub dn: PnDn,
    pub len: u16,
    pub best: u16,
    /// Nodes spent on this search of the position (added to what the entry had).
    pub amount: u32,
    /// For a disproof: what it rests on, with the path key it was found on.
    pub dep: Dependence,
    pub path: u64,
    /// The position is an OR node.
    pub or_node: bool,
    /// The length budget of the search that found it (`UNBOUNDED`: the main search).
    pub budget: u32,
}

impl Record {
    /// A proof with proof hand `hand`, a mate in `len` plies starting with `best`.
    pub fn proof(hand: Hand, len: u16, best: u16, or_node: bool) -> Record {
        Record {
            hand,
            pn: 0,
            dn: INF,
            len,
            best,
            amount: 1,
            dep: Dependence::None,
            path: 0,
            or_node,
            budget: UNBOUNDED,
        }
    }

    /// A general disproof with disproof hand `hand`.
    pub fn disproof(hand: Hand, or_node: bool) -> Record {
        Record {
            hand,
            pn: INF,
            dn: 0,
            len: 0,
            best: 0,
            amount: 1,
            dep: Dependence::None,
            path: 0,
            or_node,
            budget: UNBOUNDED,
        }
    }
}

/// Garbage collection starts when this share (per mille) of the slots is in use...
const GC_TRIGGER: usize = 900;
/// ... and frees the least valuable entries until about this share is.
const GC_TARGET: usize = 600;

pub struct Table {
    clusters: Clusters,
    /// Slots in use.
    used: usize,
    /// Garbage collections run since the last clear.
    gcs: u64,
    /// Entries placed since the last clear (a new position or result, not an update in place): the
    /// size of the tree the search built, for the ablation table.
    written: u64,
    /// The clusters written since the last clear, while they are few (`None` once there are more than
    /// `DIRTY_MAX`): clearing after a short problem then resets a few clusters, not the whole table
    /// (a 256 MiB fill costs ~30 ms, hundreds of times the search itself on a mate in 7).
    dirty: Option<Vec<u32>>,
    /// Phases given a table salt of their own since the last clear (`next_phase_salt`).
    phases: u64,
}

/// The largest share of the free memory a table takes (numerator, denominator): the rest is the
/// process's own and the page cache's.
const FREE_SHARE: (usize, usize) = (7, 8);

/// The most memory, in MiB, that tables may take now: `FREE_SHARE` of the memory free
/// (`memory::free_bytes`), the cap `Table::new` applies to each table; `None` where unknown. Front
/// ends that build several tables at once (`kanju solve -j`) check their sum against it.
pub fn table_room_mb() -> Option<u64> {
    memory::free_bytes().map(|free| ((free / FREE_SHARE.1 * FREE_SHARE.0) >> 20) as u64)
}

/// The machine's memory in MiB, where the system says cheaply (Linux: `MemTotal`); `None` elsewhere.
pub fn machine_memory_mb() -> Option<u64> {
    memory::meminfo_bytes("MemTotal").map(|b| b >> 20)
}

/// `n` clusters, halved until they take at most `FREE_SHARE` of `free` bytes (at least one).
fn within_free(mut n: usize, free: Option<usize>) -> usize {
    if let Some(free) = free {
        let cap = free / FREE_SHARE.1 * FREE_SHARE.0;
        while n > 1 && n.saturating_mul(std::mem::size_of::<Cluster>()) > cap {
            n /= 2;
        }
    }
    n
}

/// Past this many written clusters, `clear` fills the whole table.
const DIRTY_MAX: usize = 1 << 16;

impl Table {
    /// A table of about `mb` MiB (at least one cluster); if that much memory cannot be had, the largest
    /// half, quarter, … of it that can (`size_mb` tells), down to a single cluster. "Can be had":
    /// the address space takes it, and it is at most `FREE_SHARE` of the memory free now
    /// (`memory::free_bytes`): the table is backed in full before a search (`populate`), and more than
    /// the free memory would stall the machine or wake the kernel's OOM killer instead of answering.
    pub fn new(mb: usize) -> Table {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let mut n = within_free(
            (bytes / std::mem::size_of::<Cluster>()).max(1),
            memory::free_bytes(),
        );
        let clusters = loop {
            match Clusters::new(n) {
                Some(clusters) => break clusters,
                None if n > 1 => n /= 2,
                None => std::alloc::handle_alloc_error(std::alloc::Layout::new::<Cluster>()),
            }
        };
        if clusters.len() * std::mem::size_of::<Cluster>() < bytes {
            log::warn!(
                "a {mb} MiB table could not be allocated (address space, or more than the memory free now); using {} MiB",
                (clusters.len() * std::mem::size_of::<Cluster>()) >> 20
            );
        }
        Table {
            clusters,
            used: 0,
            gcs: 0,
            written: 0,
            dirty: Some(Vec::new()),
            phases: 0,
        }
    }

    /// Backs the whole table with memory now instead of on the search's first touches
    /// (`memory.rs`): for front ends that time their searches from a point after the table is
    /// built, as USI does from `go` (the GUI allows time for `isready`). Nothing else changes.
    /// Pages already backed are passed over (clearing writes, never unmaps), so calling it at every
    /// `isready` costs only the first time.
    pub fn populate(&mut self) {
        self.clusters.populate();
    }

    /// The table's size in whole MiB (less than asked for when that much memory could not be had).
    pub fn size_mb(&self) -> usize {
        (self.clusters.len() * std::mem::size_of::<Cluster>()) >> 20
    }

    /// Bytes per entry (for the README and `info string`): the entry and its key.
    pub const ENTRY_BYTES: usize = std::mem::size_of::<Cluster>() / CLUSTER;

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
        self.gcs = 0;
        self.written = 0;
        self.phases = 0;
    }

    /// A salt no phase has used since the last clear, for results that no later phase may read (the
    /// canonical phase's, see `pv::canonical`). Counted from the clear, not over the process: a solve
    /// on a cleared table then searches the same slots whatever was solved before it, so its answer
    /// and node count do not depend on the problems before it.
    pub fn next_phase_salt(&mut self) -> u64 {
        let salt = self.phases.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.phases += 1;
        salt
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

    fn capacity(&self) -> usize {
        self.clusters.len() * CLUSTER
    }

    /// Occupancy in per mille.
    pub fn hashfull(&self) -> u32 {
        ((self.used as u128 * 1000) / self.capacity() as u128) as u32
    }

    /// Garbage collections run since the last clear.
    pub fn gc_count(&self) -> u64 {
        self.gcs
    }

    /// Entries placed since the last clear (updates in place not counted).
    pub fn entries_written(&self) -> u64 {
        self.written
    }

    #[inline(always)]
    fn cluster_index(&self, key: u64) -> usize {
        ((key as u128 * self.clusters.len() as u128) >> 64) as usize
    }

    /// Starts loading the cluster of `key` into the cache without waiting for it. A node's children
    /// are probed one after the other with work between (a look one ply ahead of each new one), and
    /// each probe of a large table is a cache miss: prefetching every child's cluster first lets
    /// those misses overlap instead of queueing.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let p: *const Cluster = &self.clusters[self.cluster_index(key)];
            let p = p.cast::<i8>();
            // SAFETY: a prefetch is a hint that never faults and changes no memory or register the
            // program can observe; `p` points into the cluster borrowed above. Only its key line is
            // fetched: that is all a probe that finds no entry of its board reads (most probes), and
            // fetching all four lines of every child measured no faster (zuko008, 30 M nodes, best of
            // four: 10.39 s for four lines, 10.34 s for one; Microcosmos, 2 GiB: 9.20 s, 9.14 s).
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(p);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks up the position `(key, hand)` reached along `path` (for path-dependent disproofs), by a
    /// search bounded to `budget` plies (`UNBOUNDED`: the main search). Returns the exact or covering
    /// result, or bounds with `found == false`.
    ///
    /// * The main search sees no bounded entry.
    /// * A bounded search sees proofs no longer than its budget, general disproofs (no mate at all is
    ///   no mate within any length), bounded disproofs "no mate within d" for d ≥ its budget, and its
    ///   own estimates for exactly its budget. It sees no path-dependent disproof (bounded searches
    ///   ignore repetitions: see `pv.rs`) and no estimate of the main search.
    #[inline]
    pub fn probe(&self, key: u64, hand: Hand, path: u64, budget: u32) -> Probe {
        let key = slot_key(key);
        let c = &self.clusters[self.cluster_index(key)];
        let bounded = budget != UNBOUNDED;
        let (mut bound_pn, mut bound_dn) = (0, 0);
        let mut r = Probe {
            pn: UNIT,
            dn: UNIT,
            len: 0,
            best: 0,
            hand,
            dep: Dependence::None,
            found: false,
            amount: 0,
        };
        for (i, e) in c.entries.iter().enumerate() {
            if c.keys[i] != key {
                continue;
            }
            if e.is_path_dependent() {
                // Each kind of search sees its own: a bounded one only those for a bound ≥ its budget.
                if e.is_bounded() == bounded
                    && e.hand == hand
                    && e.path() == path
                    && (!bounded || e.dn > budget)
                {
                    return Probe {
                        pn: INF,
                        dn: 0,
                        len: 0,
                        best: 0,
                        hand: e.hand,
                        dep: e.dependence(),
                        found: true,
                        amount: 0,
                    };
                }
            } else if e.is_bounded() {
                if !bounded {
                    continue;
                }
                if e.dn == 0 {
                    if e.len as u32 >= budget && e.hand.covers(hand) {
                        return Probe {
                            pn: INF,
                            dn: 0,
                            len: 0,
                            best: e.best,
                            hand: e.hand,
                            dep: e.dependence(),
                            found: true,
                            amount: 0,
                        };
                    }
                } else if e.hand == hand && e.len as u32 == budget {
                    (r.pn, r.dn, r.best, r.found) = (e.pn, e.dn, e.best, true);
                }
            } else if e.pn == 0 {
                if hand.covers(e.hand) && e.len as u32 <= budget {
                    return Probe {
                        pn: 0,
                        dn: INF,
                        len: e.len,
                        best: e.best,
                        hand: e.hand,
                        dep: Dependence::None,
                        found: true,
                        amount: 0,
                    };
                }
            } else if e.dn == 0 {
                if e.hand.covers(hand) {
                    return Probe {
                        pn: INF,
                        dn: 0,
                        len: 0,
                        best: e.best,
                        hand: e.hand,
                        dep: Dependence::None,
                        found: true,
                        amount: 0,
                    };
                }
            } else if bounded {
                // The main search's estimate is a first guess for a bounded question (not an entry of
                // its own: `found` stays false until the bounded search stores one).
                if e.hand == hand && !r.found {
                    (r.pn, r.dn) = (e.pn, e.dn);
                }
            } else if e.hand == hand {
                // The exact entry replaces the default; bounds from neighbours still apply.
                (r.pn, r.dn) = (e.pn.max(bound_pn), e.dn.max(bound_dn));
                r.best = e.best;
                r.found = true;
                r.amount = e.amount;
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

    /// Stores a result for the position with board key `key`. Entries made redundant by a new proof or
    /// disproof are freed.
    ///
    /// A bounded search's proofs are ordinary proofs (a mate within its budget is a mate, see `pv.rs`),
    /// and so are its disproofs that rest on nothing (no mate at all); its other disproofs ("no mate
    /// within d") and its estimates are bounded entries.
    pub fn store(&mut self, key: u64, rec: &Record) {
        let key = slot_key(key);
        let idx = self.cluster_index(key);
        let amount = rec.amount.max(1);
        let proven = rec.pn == 0;
        let general_disproof = rec.dn == 0 && rec.dep.is_general();
        let bounded = rec.budget != UNBOUNDED && !proven && !general_disproof;
        let mut new = Entry {
            hand: rec.hand,
            pn: rec.pn,
            dn: rec.dn,
            amount,
            best: rec.best,
            len: rec.len,
            flags: if rec.or_node { FLAG_OR } else { 0 },
            _pad: 0,
            loop_ply: 0,
        };
        if rec.dn == 0 && rec.dep.on_path() {
            new.set_dependence(rec.dep, rec.path);
        } else if bounded {
            new.flags |= FLAG_BOUNDED;
            new.len = match rec.dep {
                Dependence::Within { plies, .. } if rec.dn == 0 => plies,
                _ => {
                    debug_assert!(rec.dn != 0, "a bounded disproof rests on its bound");
                    rec.budget
                }
            }
            .min(u16::MAX as u32) as u16;
        }
        let within = new.is_within();
        let c = &mut self.clusters[idx];
        // The slot of this very position (same board, same hand, same kind of result; for a bounded
        // estimate the same budget; a bounded disproof takes the place of the estimates it decides) is
        // updated in place, keeping the effort already spent there.
        let same = |e: &Entry| {
            e.hand == rec.hand
                && e.is_path_dependent() == new.is_path_dependent()
                && e.is_bounded() == new.is_bounded()
                && (!new.is_path_dependent() || e.path() == rec.path)
                && (!new.is_bounded()
                    || new.is_path_dependent()
                    || if within {
                        e.is_within() || e.len <= new.len
                    } else {
                        !e.is_within() && e.len == new.len
                    })
        };
        if let Some(i) = (0..CLUSTER).find(|&i| c.keys[i] == key && same(&c.entries[i])) {
            let e = &mut c.entries[i];
            new.amount = e.amount.saturating_add(amount);
            // A fact already known stays: the shortest proof, the widest bounded disproof.
            if e.is_proven() && proven {
                if e.len < new.len {
                    (new.len, new.best) = (e.len, e.best);
                }
            } else if e.is_within() && within {
                if e.len > new.len {
                    (new.len, new.best) = (e.len, e.best);
                }
            } else if new.is_path_dependent() && new.is_bounded() && e.dn > new.dn {
                // The wider bound on this path, with the loop it rests on.
                (new.dn, new.loop_ply) = (e.dn, e.loop_ply);
            } else if (e.is_proven() && !proven) || (e.is_general_disproof() && !general_disproof) {
                // A final result is never overwritten by an estimate.
                e.amount = new.amount;
                return;
            }
            *e = new;
            self.used -= Self::free_decided(c, key, &new);
            return;
        }
        self.used -= Self::free_decided(c, key, &new);
        if c.keys.iter().all(|&k| k == 0) {
            self.mark_dirty(idx);
        }
        let c = &mut self.clusters[idx];
        let i = match c.keys.iter().position(|&k| k == 0) {
            Some(i) => i,
            None => {
                // Replace the least valuable entry.
                let (i, _) = c
                    .entries
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, e)| e.value())
                    .expect("clusters are non-empty");
                self.used -= 1;
                i
            }
        };
        self.used += 1;
        self.written += 1;
        c.keys[i] = key;
        c.entries[i] = new;
        if self.used * 1000 >= self.capacity() * GC_TRIGGER {
            self.collect();
        }
    }

    /// After storing `new` (a proof, a general disproof or a bounded disproof), frees the other entries
    /// of the same board that it decides. Returns how many.
    /// * A proof with proof hand H in `len` plies: estimates for hands covering H (main ones, and bounded
    ///   ones whose budget is at least `len`) and proofs of such hands that are no shorter.
    /// * A general disproof with disproof hand H: every unproven entry whose hand H covers.
    /// * "No mate within d" with hand H: bounded estimates for budgets up to d and bounded disproofs no
    ///   wider, for hands H covers.
    fn free_decided(c: &mut Cluster, key: u64, new: &Entry) -> usize {
        let proven = new.is_proven();
        let within = new.is_within();
        if !proven && !within && !new.is_general_disproof() {
            return 0;
        }
        let mut freed = 0;
        for i in 0..CLUSTER {
            let e = &c.entries[i];
            let same_slot = e.hand == new.hand
                && e.is_bounded() == new.is_bounded()
                && e.is_path_dependent() == new.is_path_dependent();
            if c.keys[i] != key || same_slot {
                continue;
            }
            let decided = if proven {
                !e.is_path_dependent()
                    && e.hand.covers(new.hand)
                    && if e.is_bounded() {
                        !e.is_within() && e.len >= new.len
                    } else {
                        !e.is_proven() || e.len >= new.len
                    }
            } else if within {
                e.is_bounded()
                    && !e.is_path_dependent()
                    && e.len <= new.len
                    && new.hand.covers(e.hand)
            } else {
                !e.is_proven() && new.hand.covers(e.hand)
            };
            if decided {
                c.free(i);
                freed += 1;
            }
        }
        freed
    }

    /// Garbage collection: frees the least valuable entries (see `Entry::value`) until about
    /// `GC_TARGET` per mille of the slots are in use. The threshold is found from a histogram of
    /// log2(value), so the collection is two passes over the table.
    pub fn collect(&mut self) {
        self.gcs += 1;
        let mut histogram = [0usize; 65];
        for c in self.clusters.iter() {
            for (e, _) in c.entries.iter().zip(c.keys).filter(|&(_, k)| k != 0) {
                histogram[64 - e.value().leading_zeros() as usize] += 1;
            }
        }
        let to_free = self
            .used
            .saturating_sub(self.capacity() * GC_TARGET / 1000)
            .max(1);
        // The smallest bucket bound whose entries, with all below it, make up the entries to free.
        let mut freed_below = 0;
        let mut bound = 0;
        while bound < 64 && freed_below < to_free {
            freed_below += histogram[bound];
            bound += 1;
        }
        let limit = if bound >= 64 { u64::MAX } else { 1u64 << bound };
        let mut freed = 0;
        for c in self.clusters.iter_mut() {
            for i in 0..CLUSTER {
                if c.keys[i] != 0 && c.entries[i].value() < limit {
                    c.free(i);
                    freed += 1;
                }
            }
        }
        self.used -= freed;
        // A table whose clusters were all written is cleared by a fill anyway.
        self.dirty = None;
    }

    /// Frees every disproof resting on the depth limit (when the limit is raised they no longer hold).
    pub fn purge_depth_cuts(&mut self) {
        let mut freed = 0;
        for c in self.clusters.iter_mut() {
            for i in 0..CLUSTER {
                if c.keys[i] != 0 && c.entries[i].dependence() == Dependence::DepthCut {
                    c.free(i);
                    freed += 1;
                }
            }
        }
        self.used -= freed;
    }
}

#[cfg(test)]
mod tests;
