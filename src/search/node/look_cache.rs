//! The look cache: the last one-ply looks at new children (`dfpn/estimates.rs`), so that a node
//! expanded again does not play and look at its unsearched children once more.

use crate::search::numbers::PnDn;

/// The last unsolved looks (`Searcher::look`) by full position key: a node expanded again looks at the
/// children that have no table entry yet once more, and this answers most of those repeats without
/// playing the move. A small direct-mapped array (64 KiB: it stays in the core's own cache, where a
/// larger one measured slower for the misses it adds). What it holds is an initial estimate and "no
/// mate in one" for the exact position: a 64-bit key collision could only misplace an estimate or
/// skip a mate-in-one probe whose mate the expansion then finds among the checks; never an answer.
pub struct LookCache {
    slots: Box<[(u64, PnDn)]>,
}

impl Default for LookCache {
    fn default() -> LookCache {
        LookCache {
            slots: vec![(0, 0); Self::SLOTS].into_boxed_slice(),
        }
    }
}

impl LookCache {
    const SLOTS: usize = 1 << 12;

    /// The number of checks (OR node) or evasion groups (AND node) of the position, if cached. Key 0
    /// is never stored, so an empty slot never matches.
    #[inline(always)]
    pub fn get(&self, key: u64) -> Option<PnDn> {
        let (k, n) = self.slots[key as usize % Self::SLOTS];
        (k == (key | 1)).then_some(n)
    }

    #[inline(always)]
    pub fn put(&mut self, key: u64, n: PnDn) {
        self.slots[key as usize % Self::SLOTS] = (key | 1, n);
    }

    /// How many slots hold a look.
    #[cfg(test)]
    pub fn filled(&self) -> usize {
        self.slots.iter().filter(|&&(k, _)| k != 0).count()
    }
}
