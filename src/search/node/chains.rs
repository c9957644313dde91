//! Chains: sibling moves that wait for each other, and the merges that change them while their node
//! is searched (shtsume's sequential defences, KomoringHeights' delayed moves). Some sibling moves tend
//! to lead to the same positions and to be decided the same way; summing (or even counting) them makes a
//! node look many times harder than it is. A chain is a list of such siblings of which only the head is
//! *active*: the others wait until the head is solved the way that does not decide the node — proven, at
//! an AND node; disproven, at an OR node — and then the next one becomes the head and is probed (often it
//! is decided at once by hand superiority: after "drop a pawn, the attacker captures" and "drop a lance,
//! the attacker captures" the board is the same). The node is decided only when every member is, so
//! chains change the order of the search and its numbers, never its answer.
//! * AND nodes: all drop interpositions form one chain, nearest square first and, on each square,
//!   the cheapest piece first; a defender's non-promotion waits for the promotion of the same move.
//! * Not at OR nodes: there a non-promotion is often the key move (a knight or silver that must not
//!   promote, a bishop avoiding pawn-drop mate) while its promotion stays undecided for long; chaining it
//!   behind the promotion hides the solution that long (Zukou #24 is such a problem).
//! * Chains also change while the node is searched (shtsume's merges): under a check from three or
//!   more squares away, a drop on a square the defender does not guard (a middle interposition, which
//!   the checker takes with a piece gained) waits at the end of the chain of the defence the search
//!   would try next (`Searcher::defer_unguarded_drop`).
//!
//! This file holds the links themselves, operations on a node's range of the arena; when a chain
//! moves on (its head solved, or stalled) and the deferral are the searcher's (`dfpn/chains.rs`),
//! since the member that takes over is probed in the table.

use super::{Child, Children, NO_NEXT, distance};
use crate::position::{PieceKind, Square};

/// A child the merges may move or put one behind: active (not waiting in a chain) and unsolved.
#[inline(always)]
pub fn open(c: &Child) -> bool {
    c.active && c.pn != 0 && c.dn != 0
}

/// The cost order of hand kinds for interposition chains: cheapest first.
#[inline(always)]
fn drop_order(k: PieceKind) -> u32 {
    match k {
        PieceKind::Pawn => 0,
        PieceKind::Lance => 1,
        PieceKind::Knight => 2,
        PieceKind::Silver => 3,
        PieceKind::Gold => 4,
        PieceKind::Bishop => 5,
        _ => 6,
    }
}

impl Children {
    /// Links each non-promotion among the children `base..end` behind the promotion of the same move.
    pub fn link_promotions(&mut self, base: usize, end: usize) {
        // Promotion / non-promotion pairs: the generators emit one piece's moves together (its
        // promotions, then its non-promotions), so a pair lies within a run of moves from one square.
        let mut i = base;
        while i < end {
            let m = self[i].mv;
            if m.is_drop() {
                i += 1;
                continue;
            }
            let mut j = i + 1;
            while j < end && !self[j].mv.is_drop() && self[j].mv.from() == m.from() {
                j += 1;
            }
            for a in i..j {
                let pa = self[a].mv;
                if !pa.is_promotion() {
                    continue;
                }
                if let Some(b) = (i..j).find(|&b| {
                    let pb = self[b].mv;
                    !pb.is_promotion() && pb.to() == pa.to()
                }) {
                    self[a].next = b as u32;
                    self[b].active = false;
                }
            }
            i = j;
        }
    }

    /// Links the drop interpositions among the children `base..end` into one chain, nearest square to
    /// the king first, cheapest piece first, and notes on each member how many further squares the
    /// members behind it drop on (`Child::squares_behind`).
    ///
    /// **The ladder cost** (`Chains::ladder`, `LADDER_COST`): while a chain waits, its head stands
    /// for every member, and most members cost nothing once the head is proven (another piece on
    /// the same square: after the capture the board is the same and the attacker's hand no smaller,
    /// so the head's proof hand usually covers it). A member on *another* square is another board
    /// after the capture — under a far rook's check, one more rung of a ladder the attacker must
    /// climb — and its proof is found anew. Counting nothing for those makes a far check look as
    /// cheap as a near one: a strict mate in 9 (`a_far_checks_ladder_counts_its_squares` in
    /// `dfpn/chains.rs`) climbs a rook's ladder of drops on five squares before its 4-unit near
    /// check is tried. So the head counts a fraction of a unit for each further square
    /// (`LADDER_COST`; a whole unit, as if the squares were separate children, measures worse:
    /// docs/benchmarks.md), and only near the root (`LADDER_PLIES`: the cost adds up along a line
    /// of distant checks, and deep in a long one it would only tax the line's length). A number
    /// only: the chain is still proven exactly when every member is, so no answer changes.
    pub fn link_drops(&mut self, base: usize, end: usize, ksq: Square) {
        let mut drops = std::mem::take(&mut self.scratch);
        drops.clear();
        drops.extend((base..end).filter(|&i| self[i].mv.is_drop()).map(|i| {
            let m = self[i].mv;
            (
                distance(m.to(), ksq) * 8 + drop_order(m.drop_kind()),
                i as u32,
            )
        }));
        drops.sort_unstable();
        for w in drops.windows(2) {
            self[w[0].1 as usize].next = w[1].1;
            self[w[1].1 as usize].active = false;
        }
        // The interposition squares lie on one line from the king, each at its own distance: the
        // members of one square are consecutive in the chain.
        let mut behind = 0u8;
        let mut square = None;
        for &(_, i) in drops.iter().rev() {
            let to = self[i as usize].mv.to();
            if square.is_some_and(|s| s != to) {
                behind = behind.saturating_add(1);
            }
            square = Some(to);
            self[i as usize].squares_behind = behind;
        }
        self.scratch = drops;
    }

    /// Child `i`'s successor, made the chain's head (active, and no longer linked from `i`), if `i`
    /// has one.
    #[inline]
    pub fn take_next(&mut self, i: usize) -> Option<usize> {
        let n = self[i].next;
        if n == NO_NEXT {
            return None;
        }
        self[i].next = NO_NEXT;
        let n = n as usize;
        self[n].active = true;
        Some(n)
    }

    /// The open child among `base..end` other than `skip` with the smallest dn: the defence the
    /// search would try next.
    pub fn next_defence(&self, base: usize, end: usize, skip: usize) -> Option<usize> {
        (base..end)
            .filter(|&i| i != skip && open(&self[i]))
            .min_by_key(|&i| self[i].dn)
    }

    /// Makes the active child `moved` (with the rest of its chain) wait at the end of `target`'s chain.
    pub fn chain_behind(&mut self, moved: usize, target: usize) {
        let mut tail = target;
        while self[tail].next != NO_NEXT {
            tail = self[tail].next as usize;
        }
        self[tail].next = moved as u32;
        self[moved].active = false;
    }
}
