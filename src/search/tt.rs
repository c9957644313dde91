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
use super::numbers::{INF, PnDn};
use crate::position::Hand;
use memory::Clusters;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};

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

mod cluster;
mod entry;
mod gc;
mod probe;
mod store;
use cluster::{CLUSTER, Cluster};

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
pub(super) const GC_TRIGGER: usize = 900;
/// ... and frees the least valuable entries until about this share is.
pub(super) const GC_TARGET: usize = 600;

/// Shards of the table's counters: cluster `i` counts in shard `i % SHARDS`.
const SHARDS: usize = 16;

/// The counters every store of a new entry updates, one set per shard of clusters, each on its own
/// cache line. One pair for the whole table was written by every store of every thread, and the
/// line bouncing between cores cost a parallel search much of its second thread (docs/benchmarks.md,
/// *Threads*); stores of two threads now meet on a shard's line once in `SHARDS` stores. Garbage
/// collection starts when one shard is past its trigger: clusters are chosen by hash, so the shards
/// fill alike (a shard of a 1 MiB table holds over a thousand slots).
#[derive(Default)]
#[repr(align(64))]
struct Counts {
    /// Slots in use.
    used: AtomicUsize,
    /// Entries placed since the last clear (a new position or result, not an update in place): the
    /// size of the tree the search built, for the ablation table (docs/benchmarks.md, *Ablation*).
    written: AtomicU64,
}

/// The table every searcher of a solve shares: all its methods but `clear` and `populate` take
/// `&self`, and any number of threads may call them at once (`cluster.rs` has the locking and why no
/// result is read torn). The counters are atomics updated with relaxed order: each is exact once the
/// searches have stopped, and only steers (garbage collection, `hashfull`) while they run.
pub struct Table {
    clusters: Clusters,
    /// Slots in use and entries placed, counted per shard of clusters (`Counts`).
    counts: Box<[Counts]>,
    /// Garbage collections run since the last clear.
    gcs: AtomicU64,
    /// Entries those collections freed.
    gc_freed: AtomicU64,
    /// A garbage collection is running (`collect`).
    collecting: AtomicBool,
    /// The clusters written since the last clear, while they are few: the first `dirty_len` slots of
    /// `dirty` (more than `DIRTY_MAX` of them: the list has overflowed). Clearing after a short
    /// problem then resets a few clusters, not the whole table (filling a large table costs many
    /// times what the search itself costs on a short mate: docs/benchmarks.md).
    dirty: Box<[AtomicU32]>,
    dirty_len: AtomicUsize,
    /// Phases given a table salt of their own since the last clear (`next_phase_salt`).
    phases: AtomicU64,
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
            counts: (0..SHARDS).map(|_| Counts::default()).collect(),
            gcs: AtomicU64::new(0),
            gc_freed: AtomicU64::new(0),
            collecting: AtomicBool::new(false),
            dirty: (0..DIRTY_MAX).map(|_| AtomicU32::new(0)).collect(),
            dirty_len: AtomicUsize::new(0),
            phases: AtomicU64::new(0),
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

    /// Bytes per entry: the entry and its key (docs/table.md, *Memory*).
    pub const ENTRY_BYTES: usize = std::mem::size_of::<Cluster>() / CLUSTER;

    /// Empties the table. Meant for between searches (a solve clears it after a deepening that
    /// found nothing, before any other searcher starts): a search running meanwhile would lose
    /// entries and see counters restart, never read a torn entry.
    pub fn clear(&self) {
        let dirty = self.dirty_len.load(Ordering::Relaxed);
        if dirty <= DIRTY_MAX {
            for i in 0..dirty {
                self.clusters[self.dirty[i].load(Ordering::Relaxed) as usize]
                    .lock()
                    .clear();
            }
        } else {
            for c in self.clusters.iter() {
                c.lock().clear();
            }
        }
        self.dirty_len.store(0, Ordering::Relaxed);
        for c in self.counts.iter() {
            c.used.store(0, Ordering::Relaxed);
            c.written.store(0, Ordering::Relaxed);
        }
        self.gcs.store(0, Ordering::Relaxed);
        self.gc_freed.store(0, Ordering::Relaxed);
        self.phases.store(0, Ordering::Relaxed);
    }

    /// A salt no phase has used since the last clear, for results that no later phase may read (the
    /// canonical phase's, see `canonical/line.rs`). Counted from the clear, not over the process: a
    /// solve on a cleared table then searches the same slots whatever was solved before it, so its
    /// answer and node count do not depend on the problems before it.
    pub fn next_phase_salt(&self) -> u64 {
        let phase = self.phases.fetch_add(1, Ordering::Relaxed);
        phase.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    /// Notes that cluster `idx`, empty until now, is being written.
    #[inline]
    fn mark_dirty(&self, idx: usize) {
        if self.dirty_len.load(Ordering::Relaxed) > DIRTY_MAX {
            return;
        }
        let i = self.dirty_len.fetch_add(1, Ordering::Relaxed);
        if i < DIRTY_MAX {
            self.dirty[i].store(idx as u32, Ordering::Relaxed);
        }
    }

    /// Gives up the list of written clusters: the next `clear` fills the whole table.
    fn forget_dirty(&self) {
        self.dirty_len.store(DIRTY_MAX + 1, Ordering::Relaxed);
    }

    /// Notes that `n` slots of cluster `idx` were freed.
    #[inline(always)]
    fn release(&self, idx: usize, n: usize) {
        if n > 0 {
            self.counts[idx % SHARDS]
                .used
                .fetch_sub(n, Ordering::Relaxed);
        }
    }

    /// Notes that an entry was placed in a free slot of cluster `idx`; true when its shard is past
    /// the garbage collection's trigger (`GC_TRIGGER`).
    #[inline(always)]
    fn place(&self, idx: usize) -> bool {
        let c = &self.counts[idx % SHARDS];
        let used = c.used.fetch_add(1, Ordering::Relaxed) + 1;
        c.written.fetch_add(1, Ordering::Relaxed);
        used * 1000 >= self.shard_capacity(idx % SHARDS) * GC_TRIGGER
    }

    fn capacity(&self) -> usize {
        self.clusters.len() * CLUSTER
    }

    /// The slots of shard `s`: clusters `s`, `s + SHARDS`, `s + 2·SHARDS`, …
    fn shard_capacity(&self, s: usize) -> usize {
        self.clusters.len().saturating_sub(s).div_ceil(SHARDS) * CLUSTER
    }

    /// Slots in use (the sum of the shards': exact once the searches have stopped).
    fn used(&self) -> usize {
        self.counts
            .iter()
            .map(|c| c.used.load(Ordering::Relaxed))
            .sum()
    }

    /// Occupancy in per mille.
    pub fn hashfull(&self) -> u32 {
        let used = self.used();
        ((used as u128 * 1000) / self.capacity() as u128) as u32
    }

    /// Garbage collections run since the last clear.
    pub fn gc_count(&self) -> u64 {
        self.gcs.load(Ordering::Relaxed)
    }

    /// Entries garbage collection freed since the last clear.
    pub fn gc_freed(&self) -> u64 {
        self.gc_freed.load(Ordering::Relaxed)
    }

    /// Entries placed since the last clear (updates in place not counted).
    pub fn entries_written(&self) -> u64 {
        self.counts
            .iter()
            .map(|c| c.written.load(Ordering::Relaxed))
            .sum()
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
            // fetching all four lines of every child measured no faster (docs/benchmarks.md).
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(p);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }
}

#[cfg(test)]
mod tests;
