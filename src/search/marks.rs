//! Virtual numbers for a parallel search (after Kaneko's parallel df-pn): each searcher marks the
//! nodes it is inside, and a searcher choosing among the defender's replies at an AND node counts a
//! reply another searcher is inside as dearer than its numbers say, so that the searchers split the
//! replies between them instead of following each other down the same line.
//!
//! Only AND nodes: to prove an AND node every reply must be proven, so a second searcher on another
//! reply does work the proof needs; at an OR node only one check has to work, and a searcher sent
//! to the second best check mostly searches a line the proof will not use. Measured on Zukou
//! (docs/benchmarks.md, *Parallel search*): marks at AND nodes only, at every ply, with a constant
//! cost, take the least time of the variants tried.
//!
//! A mark is a counter in a small shared array indexed by the position's full key (collisions only
//! make a child look busy that is not: an ordering cost, never a wrong answer). Marks change the
//! order of the search and, while an AND node's cheapest reply is busy, the dn it reports: the
//! node's dn is the least of its replies' as the choice saw them, the mark's cost included, so that
//! its threshold test and its parent's see the number the choice did (with the real number the
//! node would stop at its threshold while its parent, seeing that number below the threshold it
//! gave, entered it again at once). The cost is added only to numbers strictly between 0 and ∞, so
//! a node is proven or disproven from its children's results alone, and no answer depends on
//! marks; a dn that carries a cost is the real one again once the mark is gone and the node is
//! searched anew.

use std::sync::atomic::{AtomicU8, Ordering};

/// What a reply another searcher is inside costs more on its dn: four units (`dfpn/mid.rs`). A
/// constant, so that a reply far better than its siblings keeps its searcher while one about as good
/// as another is left to the other searcher.
pub const BUSY_COST: u32 = 4 * crate::search::numbers::UNIT;

/// The slots of the array (a power of two).
const SLOTS: usize = 1 << 16;

/// The marks of the searchers of one solve.
pub struct Marks {
    counts: Box<[AtomicU8]>,
}

impl Default for Marks {
    fn default() -> Marks {
        Marks {
            counts: (0..SLOTS).map(|_| AtomicU8::new(0)).collect(),
        }
    }
}

impl Marks {
    /// The slot of the position with full key `key`.
    #[inline(always)]
    pub fn slot(key: u64) -> u16 {
        (key >> 48) as u16
    }

    /// A searcher enters the node of `slot`.
    #[inline]
    pub fn enter(&self, slot: u16) {
        self.counts[slot as usize].fetch_add(1, Ordering::Relaxed);
    }

    /// A searcher leaves the node of `slot` (entered before).
    #[inline]
    pub fn leave(&self, slot: u16) {
        self.counts[slot as usize].fetch_sub(1, Ordering::Relaxed);
    }

    /// Whether some searcher is inside the node of `slot`.
    #[inline]
    pub fn busy(&self, slot: u16) -> bool {
        self.counts[slot as usize].load(Ordering::Relaxed) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_count_the_searchers_inside() {
        let m = Marks::default();
        let s = Marks::slot(0xabcd_0000_0000_1234);
        assert!(!m.busy(s));
        m.enter(s);
        m.enter(s);
        m.leave(s);
        assert!(m.busy(s));
        m.leave(s);
        assert!(!m.busy(s));
    }
}
