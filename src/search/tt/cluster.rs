//! The table's unit of memory and of locking: eight slots, their board keys in one cache line and
//! their entries in the three lines after it, 256 bytes in all.
//!
//! ## Concurrent access
//! Every searcher of a solve reads and writes the one table, through `&Table`. Each cluster carries
//! its own lock: the top bit of slot 0's key word (`LOCK`; every slot key has it clear, `slot_key`).
//!
//! * **Writers** (`Table::store`, garbage collection, `purge_depth_cuts`) take the lock for the whole
//!   read-modify-write of the cluster: which slot, what it held, the entries a new proof frees. Two
//!   stores to one cluster are serialised, so none is lost half-way.
//! * **Readers** (`Table::probe`) first look at the key line without the lock (`Cluster::may_hold`).
//!   Most probes find no key of their board there and end at once: they never write the line, so a
//!   read does not take the line away from another core's cache. A probe that finds its key takes
//!   the lock and reads the entries under it.
//!
//! Why a result is never read half old, half new: entries are read and written only while the lock
//! is held (`Locked`), and a lock taken with `Acquire` sees every word the previous holder wrote
//! before releasing it (`Release`). The lock-free look at the keys only decides whether to take the
//! lock; it may miss a key being written at that moment, which is the answer the probe would have
//! given a moment earlier (a position not yet stored), never a wrong one.
//!
//! Every word is an atomic, so all of this is safe Rust: the memory model forbids a plain write
//! beside a read of the same word on another thread, and the atomics' relaxed loads and stores are
//! plain moves on x86-64 and arm64. The one locked instruction is the compare-exchange that takes
//! the lock.

use super::entry::{Entry, Words};
use std::sync::atomic::{AtomicU64, Ordering};

/// Slots per cluster.
pub(super) const CLUSTER: usize = 8;

/// The lock bit, in slot 0's key word.
const LOCK: u64 = 1 << 63;

/// Eight slots: their board keys first, in one cache line, then their entries (three words each).
/// Most probes find no entry of their board (docs/benchmarks.md has the share measured), and such
/// a probe reads the key line only: one cache line from memory instead of four.
#[repr(C, align(64))]
pub(super) struct Cluster {
    /// Slot keys (`slot_key`); 0 for an empty slot. The top bit of `keys[0]` is the lock.
    keys: [AtomicU64; CLUSTER],
    /// The slots' entries, packed (`Entry::pack`).
    words: [[AtomicU64; 3]; CLUSTER],
}

// The layout `memory.rs` relies on: 256 bytes of 64-bit words, no padding, all-zero the empty cluster.
const _: () = assert!(std::mem::size_of::<Cluster>() == 256);

/// The key a slot stores for board key `key`: the top bit clear (the lock's bit), never 0 (an empty
/// slot's mark). The bit is no loss: a key's cluster is chosen by its top bits (`Table::cluster_index`,
/// from the whole key), so two keys of one cluster differ in the top bit only in a table of one
/// cluster. Keys 0 and 1 share a slot key, a collision like any other.
#[inline(always)]
pub(super) fn slot_key(key: u64) -> u64 {
    let k = key & !LOCK;
    if k == 0 { 1 } else { k }
}

impl Cluster {
    /// The empty cluster: all words zero.
    #[cfg(any(test, not(target_os = "linux")))]
    #[allow(clippy::declare_interior_mutable_const)]
    pub(super) const EMPTY: Cluster = Cluster {
        keys: [const { AtomicU64::new(0) }; CLUSTER],
        words: [const { [const { AtomicU64::new(0) }; 3] }; CLUSTER],
    };

    /// Whether some slot holds `key` (a slot key), by a look at the key line without the lock. A
    /// `false` may miss a store that is under way (module comment).
    #[inline(always)]
    pub(super) fn may_hold(&self, key: u64) -> bool {
        self.keys
            .iter()
            .any(|k| k.load(Ordering::Relaxed) & !LOCK == key)
    }

    /// Takes the cluster's lock, spinning while another thread holds it (a holder keeps it for a
    /// few hundred instructions and never blocks inside).
    #[inline(always)]
    pub(super) fn lock(&self) -> Locked<'_> {
        let word = &self.keys[0];
        loop {
            let k = word.load(Ordering::Relaxed);
            if k & LOCK == 0
                && word
                    .compare_exchange_weak(k, k | LOCK, Ordering::Acquire, Ordering::Relaxed)
                    .is_ok()
            {
                return Locked(self);
            }
            std::hint::spin_loop();
        }
    }

    /// The slot keys, read without the lock (for tests).
    #[cfg(test)]
    pub(super) fn keys(&self) -> [u64; CLUSTER] {
        std::array::from_fn(|i| self.keys[i].load(Ordering::Relaxed) & !LOCK)
    }

    /// Writes slot `i`'s key word (for tests of the memory).
    #[cfg(test)]
    pub(super) fn set_key_word(&mut self, i: usize, key: u64) {
        *self.keys[i].get_mut() = key;
    }
}

/// A cluster whose lock this thread holds; dropping it releases the lock.
pub(super) struct Locked<'a>(&'a Cluster);

impl Locked<'_> {
    /// Slot `i`'s key (0: empty).
    #[inline(always)]
    pub(super) fn key(&self, i: usize) -> u64 {
        self.0.keys[i].load(Ordering::Relaxed) & !LOCK
    }

    /// Whether every slot is empty.
    #[inline(always)]
    pub(super) fn is_empty(&self) -> bool {
        (0..CLUSTER).all(|i| self.key(i) == 0)
    }

    /// Slot `i`'s entry.
    #[inline(always)]
    pub(super) fn entry(&self, i: usize) -> Entry {
        let w = &self.0.words[i];
        let words: Words = std::array::from_fn(|j| w[j].load(Ordering::Relaxed));
        Entry::unpack(words)
    }

    /// Writes slot `i`'s entry, its key unchanged.
    #[inline(always)]
    pub(super) fn set_entry(&self, i: usize, e: &Entry) {
        for (w, v) in self.0.words[i].iter().zip(e.pack()) {
            w.store(v, Ordering::Relaxed);
        }
    }

    /// Writes slot `i`: `key` and its entry.
    #[inline(always)]
    pub(super) fn set(&self, i: usize, key: u64, e: &Entry) {
        self.set_key(i, key);
        self.set_entry(i, e);
    }

    /// Empties slot `i`.
    #[inline(always)]
    pub(super) fn free(&self, i: usize) {
        self.set(i, 0, &Entry::default());
    }

    /// Empties every slot.
    pub(super) fn clear(&self) {
        for i in 0..CLUSTER {
            self.free(i);
        }
    }

    #[inline(always)]
    fn set_key(&self, i: usize, key: u64) {
        // The lock bit stays set in slot 0's word while the lock is held.
        let lock = if i == 0 { LOCK } else { 0 };
        self.0.keys[i].store(key | lock, Ordering::Relaxed);
    }
}

impl Drop for Locked<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        // Only the holder writes slot 0's word while the lock is held: clearing the bit with a plain
        // store loses nothing, and `Release` publishes every write made under the lock.
        let word = &self.0.keys[0];
        word.store(word.load(Ordering::Relaxed) & !LOCK, Ordering::Release);
    }
}
