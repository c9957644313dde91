//! Garbage collection and the purge of depth cuts: passes over the whole table, one cluster at a
//! time under its lock, so searchers may go on probing and storing meanwhile.

use super::cluster::CLUSTER;
use super::{GC_TARGET, Table};
use crate::search::loops::Dependence;
use std::sync::atomic::Ordering;

impl Table {
    /// Garbage collection: frees the least valuable entries (see `Entry::value`) until about
    /// `GC_TARGET` per mille of the slots are in use. The threshold is found from a histogram of
    /// log2(value), so the collection is two passes over the table. One collection at a time: a
    /// store that finds one running goes on without starting another.
    pub fn collect(&self) {
        if self.collecting.swap(true, Ordering::Acquire) {
            return;
        }
        self.gcs.fetch_add(1, Ordering::Relaxed);
        let mut histogram = [0usize; 65];
        for c in self.clusters.iter() {
            let c = c.lock();
            for i in (0..CLUSTER).filter(|&i| c.key(i) != 0) {
                histogram[64 - c.entry(i).value().leading_zeros() as usize] += 1;
            }
        }
        let to_free = self
            .used()
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
        let mut total = 0;
        for (idx, c) in self.clusters.iter().enumerate() {
            let c = c.lock();
            let mut freed = 0;
            for i in 0..CLUSTER {
                if c.key(i) != 0 && c.entry(i).value() < limit {
                    c.free(i);
                    freed += 1;
                }
            }
            self.release(idx, freed);
            total += freed as u64;
        }
        self.gc_freed.fetch_add(total, Ordering::Relaxed);
        // A table whose clusters were all written is cleared by a fill anyway.
        self.forget_dirty();
        self.collecting.store(false, Ordering::Release);
    }

    /// Frees every disproof resting on the depth limit (when the limit is raised they no longer hold).
    pub fn purge_depth_cuts(&self) {
        for (idx, c) in self.clusters.iter().enumerate() {
            let c = c.lock();
            let mut freed = 0;
            for i in 0..CLUSTER {
                if c.key(i) != 0 && c.entry(i).dependence() == Dependence::DepthCut {
                    c.free(i);
                    freed += 1;
                }
            }
            self.release(idx, freed);
        }
    }
}
