//! The children of the nodes being searched: one `Child` per move, as last seen, in one arena
//! (`Children`) where each node on the current path owns a contiguous range while it is searched.
//! A child's numbers are kept there between the iterations of its node's loop instead of being
//! probed again. Expansion (`dfpn/expand.rs`) fills a node's range; the chains that make
//! near-identical defences wait for each other link members inside it (`node/chains.rs`).

pub mod chains;
pub mod look_cache;

use super::loops::Dependence;
use super::numbers::PnDn;
use crate::position::{Hand, Move, Square};
use std::ops::{Deref, DerefMut};

/// What was known of a node when the search enters it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen {
    /// The table has an entry for it: it has been searched before.
    Before,
    /// Never searched nor looked at.
    New,
    /// Never searched, but its parent's one-ply look-ahead (`Init::Look`) asked mate-1 there and found
    /// none: the position alone decides that, so the search does not ask again.
    NoMate1,
}

/// No next member.
pub const NO_NEXT: u32 = u32::MAX;

/// One child of a node being searched, as last seen.
#[derive(Clone, Copy, Debug)]
pub struct Child {
    pub mv: Move,
    pub pn: PnDn,
    pub dn: PnDn,
    /// Plies to mate when proven.
    pub len: u16,
    /// Proof hand (proven) or disproof hand (disproven); otherwise the child's attacker hand.
    pub hand: Hand,
    /// For a disproof: what it rests on.
    pub dep: Dependence,
    /// Aggregated with `max` rather than `+` under `Aggregation::Sum` (SNDA-lite).
    pub grouped: bool,
    /// What the table and the look-ahead knew of the child.
    pub seen: Seen,
    /// Counted in the node's numbers: not waiting behind an unsolved chain member.
    pub active: bool,
    /// The next member of the child's chain (an index into the arena), or `NO_NEXT`.
    pub next: u32,
    /// A futile interposition in the canonical game (`game/futile.rs`): proven, no defence at
    /// all.
    pub futile: bool,
    /// A superior repetition of an ancestor, inside a pump (`loops.rs`): its parent counts the pump
    /// cost on its pn.
    pub pump: bool,
    /// In a drop chain (`Children::link_drops`): how many further squares the members behind this
    /// one drop on, this one's own square not counted (`Chains::ladder`).
    pub squares_behind: u8,
    /// The child's slot among a parallel proof's marks (`marks.rs`), set when it is probed.
    pub mark: u16,
    /// The table says more than `STALL_NODES` nodes were spent on the child so far, unsolved
    /// (`Probe::amount`; never when `Chains::stall` is off).
    pub stalled: bool,
    /// In a drop chain split off a stalled head (`split_stalled_drops`): set on the new head, and
    /// handed on to each member that takes over from it (`advance_chain`). A deferred drop
    /// (`defer_unguarded_drop`) with this mark first releases the guarded drops behind it
    /// (`Chains::release`).
    pub split: bool,
}

impl Child {
    /// Solved the way that does not decide the node (proven at an AND node, disproven at an OR node):
    /// the next member of the chain, if any, takes over.
    #[inline(always)]
    pub fn done(&self, or_node: bool) -> bool {
        if or_node { self.dn == 0 } else { self.pn == 0 }
    }
}

/// Chebyshev distance between two squares.
#[inline(always)]
pub fn distance(a: Square, b: Square) -> u32 {
    (a.file().abs_diff(b.file())).max(a.rank().abs_diff(b.rank())) as u32
}

/// The children of every node on the current path, each node's in one contiguous range (from the
/// arena's length when it was expanded to the length after), and scratch space for ordering chains.
#[derive(Default)]
pub struct Children {
    kids: Vec<Child>,
    /// Scratch space for ordering chains (`node/chains.rs`).
    scratch: Vec<(u32, u32)>,
}

impl Children {
    pub fn new() -> Children {
        Children {
            kids: Vec::with_capacity(1 << 16),
            scratch: Vec::new(),
        }
    }

    #[inline(always)]
    pub fn push(&mut self, c: Child) {
        self.kids.push(c);
    }

    /// Drops the children from `base` on (the node that owned them is done).
    #[inline(always)]
    pub fn truncate(&mut self, base: usize) {
        self.kids.truncate(base);
    }

    pub fn clear(&mut self) {
        self.kids.clear();
    }
}

impl Deref for Children {
    type Target = [Child];

    #[inline(always)]
    fn deref(&self) -> &[Child] {
        &self.kids
    }
}

impl DerefMut for Children {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Child] {
        &mut self.kids
    }
}
