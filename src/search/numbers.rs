//! Proof and disproof numbers: the type, its saturating arithmetic, and how a node combines its
//! children's numbers (sum with SNDA-lite groups, or weak proof numbers) and derives their thresholds.
//!
//! Vocabulary: at every node one side is *minimised* over the children (pn at OR nodes, dn at AND
//! nodes: one good child suffices) and the other is *combined* (dn at OR nodes, pn at AND nodes: every
//! child must be refuted). `Combined` accumulates the combined side.

/// A proof or disproof number. `INF` marks a solved value (pn = INF: disproven; dn = INF: proven);
/// search values saturate at `PN_MAX`.
pub type PnDn = u32;
pub const INF: PnDn = u32::MAX;
pub const PN_MAX: PnDn = INF - 1;
/// The number of one unexpanded node. Numbers are scaled by this so that the search can add costs
/// smaller than a node (the df-pn+ edge cost, the distance of a check from the king).
pub const UNIT: PnDn = 16;

/// `a + b`, saturating at `PN_MAX`; `INF` stays `INF`.
#[inline(always)]
pub fn add(a: PnDn, b: PnDn) -> PnDn {
    if a == INF || b == INF {
        INF
    } else {
        a.saturating_add(b).min(PN_MAX)
    }
}

/// How the combined side of a node is computed from its children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aggregation {
    /// Nagai's df-pn: the sum, except that children marked `grouped` (moves that tend to reach the same
    /// positions: interpositions; bishop/rook drops and P/B/R non-promotions) count once, with their
    /// maximum (komori-n's SNDA-lite).
    Sum,
    /// Weak proof numbers (Ueda et al., CG 2008): the largest child's number plus one unit for each
    /// other unsolved child. Shared subtrees of a DAG are counted once, not once per path, so numbers
    /// grow with the width of a node, not with the size of its subtree.
    Weak,
}

/// The combined side of one node, accumulated over its unsolved children.
#[derive(Clone, Copy, Debug, Default)]
pub struct Combined {
    /// Sum of the ungrouped children.
    plain: PnDn,
    /// Largest grouped child.
    group_max: PnDn,
    /// Largest child.
    max: PnDn,
    /// Unsolved children counted (those whose number is not 0).
    count: u32,
}

impl Combined {
    /// Adds one child's number (0 for a child solved the other way: it is ignored).
    #[inline(always)]
    pub fn push(&mut self, v: PnDn, grouped: bool) {
        if v == 0 {
            return;
        }
        self.count += 1;
        self.max = self.max.max(v);
        if grouped {
            self.group_max = self.group_max.max(v);
        } else {
            self.plain = add(self.plain, v);
        }
    }

    /// `push` for a node that aggregates with `Aggregation::Weak`, which reads only the count and the
    /// largest child: the sums are left alone.
    #[inline(always)]
    pub fn push_weak(&mut self, v: PnDn) {
        if v != 0 {
            self.count += 1;
            self.max = self.max.max(v);
        }
    }

    /// The node's combined number. With no unsolved child it is 0 (the node is solved that way).
    #[inline(always)]
    pub fn total(&self, agg: Aggregation) -> PnDn {
        match agg {
            Aggregation::Sum => add(self.plain, self.group_max),
            Aggregation::Weak => {
                if self.count == 0 {
                    0
                } else {
                    add(self.max, (self.count - 1).saturating_mul(UNIT))
                }
            }
        }
    }

    /// The threshold for one child (number `v`, `grouped`) on the combined side, given the node's
    /// threshold `th`: the value at which the node's total would reach `th`. Never below `v + 1`, so
    /// that the child is always searched a little.
    #[inline(always)]
    pub fn child_threshold(&self, agg: Aggregation, th: PnDn, v: PnDn, grouped: bool) -> PnDn {
        let others = match agg {
            // The other children's contribution (a grouped child counts only if it is the maximum:
            // when it is not, the others' total is the whole total and the child can grow up to it).
            Aggregation::Sum => {
                if grouped {
                    self.plain
                } else {
                    add(self.plain - v.min(self.plain), self.group_max)
                }
            }
            Aggregation::Weak => (self.count.saturating_sub(1)).saturating_mul(UNIT),
        };
        if th == INF {
            return INF;
        }
        th.saturating_sub(others)
            .max(v.saturating_add(1))
            .min(PN_MAX)
    }
}

/// The threshold of the best child on the minimised side: enough to overtake the second best child
/// (`second`), by the factor 1 + 1/`eps_den` when `eps_den` is non-zero (the 1+ε trick, which makes
/// the search stay longer in one child), never above the node's own threshold `th`.
#[inline(always)]
pub fn best_threshold(th: PnDn, second: PnDn, eps_den: u32) -> PnDn {
    if second == INF || second >= th {
        return th;
    }
    let over = second.checked_div(eps_den).unwrap_or(0) + 1;
    th.min(add(second, over))
}

/// Which children get a tie-break (`Pick`): at AND nodes (measured best), at OR nodes, both or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    Off,
    And,
    Or,
    Both,
}

impl Ties {
    /// Whether nodes of this kind break ties.
    #[inline(always)]
    pub fn at(self, or_node: bool) -> bool {
        match self {
            Ties::Off => false,
            Ties::And => !or_node,
            Ties::Or => or_node,
            Ties::Both => true,
        }
    }
}

/// The child a node searches next, chosen while its children are scanned: the smallest number on the
/// minimised side (df-pn's most-proving child) and the second smallest (its threshold overtakes it).
///
/// Among children equal on the minimised side, plain df-pn takes the first in move order; with a
/// tie-break, the one largest on the *combined* side. At an AND node that is, among the evasions
/// that look equally easy to refute, the one hardest to prove: the likeliest refutation, and the
/// child that sets the node's weak proof number (the largest child plus the count), so searching it
/// first tells soonest whether the whole node is as cheap as it looks. Only the order changes, never
/// a number or a threshold, so no answer depends on it. Measured (`--config ties=…`, nodes, `--pv
/// none`): README, *Ablation*.
#[derive(Clone, Copy, Debug)]
pub struct Pick {
    /// The smallest number on the minimised side.
    pub lo: PnDn,
    /// The chosen child's number on the combined side.
    lo_other: PnDn,
    /// The second smallest on the minimised side (equal to `lo` when several share it).
    pub second: PnDn,
    /// The chosen child (its index as offered).
    pub best: usize,
}

impl Pick {
    /// No child offered yet; `best` stays `first` if none is below `INF`.
    #[inline(always)]
    pub fn new(first: usize) -> Pick {
        Pick {
            lo: INF,
            lo_other: 0,
            second: INF,
            best: first,
        }
    }

    /// Offers child `i` with `l` on the minimised side and `other` on the combined one; `ties`: break
    /// ties by the larger `other` (see the type's comment).
    #[inline(always)]
    pub fn offer(&mut self, i: usize, l: PnDn, other: PnDn, ties: bool) {
        if l < self.lo || (ties && l == self.lo && l != INF && other > self.lo_other) {
            self.second = self.lo;
            self.lo = l;
            self.lo_other = other;
            self.best = i;
        } else if l < self.second {
            self.second = l;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(children: &[(PnDn, PnDn)], ties: bool) -> (usize, PnDn, PnDn) {
        let mut p = Pick::new(0);
        for (i, &(l, o)) in children.iter().enumerate() {
            p.offer(i, l, o, ties);
        }
        (p.best, p.lo, p.second)
    }

    #[test]
    fn pick_takes_the_smallest_and_breaks_ties_by_the_other_side() {
        let kids = [(48, 16), (32, 16), (64, 80), (32, 64), (32, 48)];
        // Plain: the first of the smallest; with the tie-break the largest other side among them.
        assert_eq!(pick(&kids, false), (1, 32, 32));
        assert_eq!(pick(&kids, true), (3, 32, 32));
        // No tie: the same child either way, and the second smallest is the next value.
        let kids = [(48, 16), (32, 16), (64, 80)];
        assert_eq!(pick(&kids, false), (1, 32, 48));
        assert_eq!(pick(&kids, true), (1, 32, 48));
        // Only solved children: nothing chosen.
        assert_eq!(pick(&[(INF, 0), (INF, 5)], true), (0, INF, INF));
        assert!(Ties::And.at(false) && !Ties::And.at(true));
        assert!(Ties::Or.at(true) && !Ties::Or.at(false));
        assert!(Ties::Both.at(true) && !Ties::Off.at(false));
    }

    #[test]
    fn add_saturates_and_keeps_inf() {
        assert_eq!(add(3, 4), 7);
        assert_eq!(add(PN_MAX, 5), PN_MAX);
        assert_eq!(add(INF, 0), INF);
        assert_eq!(add(1, INF), INF);
    }

    #[test]
    fn sum_counts_groups_once() {
        let mut c = Combined::default();
        c.push(10, false);
        c.push(20, true);
        c.push(30, true);
        c.push(0, false); // solved the other way: ignored
        assert_eq!(c.total(Aggregation::Sum), 40);
        // Weak: the maximum plus a unit for each of the two others.
        assert_eq!(c.total(Aggregation::Weak), 30 + 2 * UNIT);
    }

    #[test]
    fn push_weak_gives_the_weak_numbers_of_push() {
        let children = [(32, false), (0, true), (INF, true), (48, true), (16, false)];
        let (mut full, mut weak) = (Combined::default(), Combined::default());
        for &(v, grouped) in &children {
            full.push(v, grouped);
            weak.push_weak(v);
        }
        let agg = Aggregation::Weak;
        assert_eq!(weak.total(agg), full.total(agg));
        for &(v, grouped) in &children {
            for th in [0, 40, 500, PN_MAX, INF] {
                assert_eq!(
                    weak.child_threshold(agg, th, v, grouped),
                    full.child_threshold(agg, th, v, grouped)
                );
            }
        }
    }

    #[test]
    fn empty_total_is_zero() {
        let c = Combined::default();
        assert_eq!(c.total(Aggregation::Sum), 0);
        assert_eq!(c.total(Aggregation::Weak), 0);
    }

    /// A child searched up to its threshold raises the node's total to the node's threshold.
    #[test]
    fn child_threshold_inverts_total() {
        for agg in [Aggregation::Sum, Aggregation::Weak] {
            let vals = [(40, false), (50, false), (70, true), (60, true)];
            let mut c = Combined::default();
            for &(v, g) in &vals {
                c.push(v, g);
            }
            let th = 1000;
            for (i, &(v, g)) in vals.iter().enumerate() {
                let t = c.child_threshold(agg, th, v, g);
                let mut after = Combined::default();
                for (j, &(w, h)) in vals.iter().enumerate() {
                    after.push(if i == j { t } else { w }, h);
                }
                assert!(after.total(agg) >= th, "{agg:?} child {i}: {t}");
                let mut before = Combined::default();
                for (j, &(w, h)) in vals.iter().enumerate() {
                    before.push(if i == j { t - 1 } else { w }, h);
                }
                assert!(before.total(agg) < th, "{agg:?} child {i}: {t}");
            }
        }
    }

    #[test]
    fn best_threshold_overtakes_second() {
        assert_eq!(best_threshold(1000, 40, 0), 41);
        assert_eq!(best_threshold(1000, 40, 4), 51);
        assert_eq!(best_threshold(45, 40, 4), 45);
        assert_eq!(best_threshold(1000, INF, 4), 1000);
    }
}
