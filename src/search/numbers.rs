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
/// smaller than a node (the ladder and pump costs, the distance of a check from the king).
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
    /// Weak proof numbers (Ueda et al., CG 2008): the largest child's number plus a share for each
    /// other unsolved child — one unit in the paper (`Grade::FLAT`), a graded share by default (see
    /// `Grade`). Shared subtrees of a DAG are counted once, not once per path, so numbers grow with
    /// the width of a node, not with the size of its subtree.
    Weak(Grade),
}

/// What each child other than the largest adds to a node's weak number: its own number divided by
/// 2^`shift`, at least one unit, at most `cap`.
///
/// Why graded: with one unit per other child a weak number grows by a few units per ply however
/// hard the other children are, so a wide open chase — a free king, many checks, every reply costly
/// — looks as cheap as a narrow forced line of the same depth, and the search sinks millions of
/// nodes into it at a flat number (Zukou #8: after `9i9b+ G*8b` the check `G*4c`, a no-mate with a
/// large tree, takes most of the search while its pn creeps up a few units; docs/benchmarks.md has
/// the figures). A share that follows the other children's numbers lets such a tree's numbers grow
/// with its size, as sums do; the cap keeps the growth additive (at most `cap` per other child and
/// ply), so the DAG's shared subtrees are still not multiplied along its paths and the numbers of a
/// 1 500-ply line cannot saturate (uncapped, an eighth of each number saturates the disproof
/// numbers of a long problem's wide OR nodes early in its search). A number only: which children
/// are solved decides every result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grade {
    shift: u8,
    cap: PnDn,
}

impl Grade {
    /// The paper's weak proof numbers: one unit per other child.
    pub const FLAT: Grade = Grade {
        shift: 0,
        cap: UNIT,
    };

    /// A share of `v >> shift`, between one unit and `cap_units` units (`cap_units` at least 1; 1 is
    /// `FLAT`).
    pub const fn new(shift: u32, cap_units: u32) -> Grade {
        let shift = if shift > 31 { 31 } else { shift };
        let cap_units = if cap_units < 1 {
            1
        } else if cap_units > 1 << 16 {
            1 << 16
        } else {
            cap_units
        };
        Grade {
            shift: shift as u8,
            cap: cap_units * UNIT,
        }
    }

    pub fn shift(self) -> u32 {
        u32::from(self.shift)
    }

    pub fn cap_units(self) -> u32 {
        self.cap / UNIT
    }

    /// What a child of number `v` adds to its node's number when it is not the largest.
    #[inline(always)]
    pub fn share(self, v: PnDn) -> PnDn {
        (v >> self.shift).clamp(UNIT, self.cap)
    }
}

/// The combined side of one node, accumulated over its unsolved children.
#[derive(Clone, Copy, Debug, Default)]
pub struct Combined {
    /// `Sum`: the sum of the ungrouped children. `Weak`: the sum of every child's share.
    plain: PnDn,
    /// Largest grouped child (`Sum` only).
    group_max: PnDn,
    /// Largest child.
    max: PnDn,
    /// Unsolved children counted (those whose number is not 0).
    count: u32,
}

impl Combined {
    /// Adds one child's number (0 for a child solved the other way: it is ignored).
    #[inline(always)]
    pub fn push(&mut self, agg: Aggregation, v: PnDn, grouped: bool) {
        if v == 0 {
            return;
        }
        self.count += 1;
        self.max = self.max.max(v);
        match agg {
            Aggregation::Sum if grouped => self.group_max = self.group_max.max(v),
            Aggregation::Sum => self.plain = add(self.plain, v),
            // At most 2^16 units a child: no overflow below 2^12 children.
            Aggregation::Weak(g) => self.plain = self.plain.saturating_add(g.share(v)),
        }
    }

    /// The node's combined number. With no unsolved child it is 0 (the node is solved that way).
    #[inline(always)]
    pub fn total(&self, agg: Aggregation) -> PnDn {
        match agg {
            Aggregation::Sum => add(self.plain, self.group_max),
            Aggregation::Weak(g) => {
                if self.count == 0 {
                    0
                } else {
                    add(self.max, self.plain - g.share(self.max))
                }
            }
        }
    }

    /// The threshold for one child (number `v`, `grouped`) on the combined side, given the node's
    /// threshold `th`: the value at which the node's total would reach `th`. Never below `v + 1`, so
    /// that the child is always searched a little.
    #[inline(always)]
    pub fn child_threshold(&self, agg: Aggregation, th: PnDn, v: PnDn, grouped: bool) -> PnDn {
        if th == INF {
            return INF;
        }
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
            Aggregation::Weak(g) => {
                let mine = g.share(v);
                // Below the largest, the child raises the total through its share: the total
                // reaches `th` when the share has grown by the difference — unless the share
                // reaches its cap first, or the child passes the largest (the rule below).
                let target = mine.saturating_add(th.saturating_sub(self.total(agg)));
                if v < self.max && target <= g.cap {
                    let grown = u64::from(target) << g.shift;
                    if grown <= u64::from(self.max) {
                        return (grown as PnDn).max(v.saturating_add(1));
                    }
                }
                // As the largest child: the others' shares stay.
                self.plain - mine.min(self.plain)
            }
        };
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

/// The child a node searches next, chosen while its children are scanned: the smallest number on the
/// minimised side (df-pn's most-proving child) and the second smallest (its threshold overtakes it).
///
/// Among children equal on the minimised side, plain df-pn takes the first in move order; with a
/// tie-break, the one largest on the *combined* side. At an AND node that is, among the evasions
/// that look equally easy to refute, the one hardest to prove: the likeliest refutation, and the
/// child that sets the node's weak proof number (the largest child plus the count), so searching it
/// first tells soonest whether the whole node is as cheap as it looks. Only the order changes, never
/// a number or a threshold, so no answer depends on it. Measured (`--config ties=on|off`, `--pv
/// none`): docs/benchmarks.md, *Ablation*.
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
    }

    #[test]
    fn add_saturates_and_keeps_inf() {
        assert_eq!(add(3, 4), 7);
        assert_eq!(add(PN_MAX, 5), PN_MAX);
        assert_eq!(add(INF, 0), INF);
        assert_eq!(add(1, INF), INF);
    }

    const GRADED: Aggregation = Aggregation::Weak(Grade {
        shift: 3,
        cap: 16 * UNIT,
    });
    const FLAT: Aggregation = Aggregation::Weak(Grade::FLAT);

    fn combined(agg: Aggregation, vals: &[(PnDn, bool)]) -> Combined {
        let mut c = Combined::default();
        for &(v, g) in vals {
            c.push(agg, v, g);
        }
        c
    }

    #[test]
    fn sum_counts_groups_once() {
        let vals = [(10, false), (20, true), (30, true), (0, false)]; // 0: solved the other way
        assert_eq!(
            combined(Aggregation::Sum, &vals).total(Aggregation::Sum),
            40
        );
        // Flat weak: the maximum plus a unit for each of the two others.
        assert_eq!(combined(FLAT, &vals).total(FLAT), 30 + 2 * UNIT);
    }

    #[test]
    fn graded_shares_lie_between_one_unit_and_the_cap() {
        let g = Grade::new(3, 16);
        assert_eq!((g.shift(), g.cap_units()), (3, 16));
        assert_eq!(g.share(UNIT), UNIT); // small numbers count one unit, as flat weak
        assert_eq!(g.share(80 * UNIT), 10 * UNIT);
        assert_eq!(g.share(1000 * UNIT), 16 * UNIT);
        assert_eq!(g.share(INF), 16 * UNIT);
        // A cap of one unit is the paper's flat weak number, whatever the shift.
        for v in [UNIT, 80 * UNIT, INF] {
            assert_eq!(Grade::new(3, 1).share(v), Grade::FLAT.share(v));
        }
        // The largest child counts whole, the others their shares.
        let vals = [
            (200 * UNIT, false),
            (80 * UNIT, true),
            (2 * UNIT, false),
            (INF, false),
        ];
        assert_eq!(
            combined(GRADED, &vals[..3]).total(GRADED),
            200 * UNIT + 10 * UNIT + UNIT
        );
        assert_eq!(combined(GRADED, &vals).total(GRADED), INF);
        // A wide node stays additive: at most the cap per other child, whatever their numbers.
        let wide = vec![(PN_MAX / 2, false); 100];
        assert_eq!(
            combined(GRADED, &wide).total(GRADED),
            PN_MAX / 2 + 99 * 16 * UNIT
        );
    }

    #[test]
    fn empty_total_is_zero() {
        let c = Combined::default();
        for agg in [Aggregation::Sum, FLAT, GRADED] {
            assert_eq!(c.total(agg), 0);
        }
    }

    /// A child searched up to its threshold raises the node's total to the node's threshold: for
    /// the largest child, for a smaller one whose share grows, and for one whose share is capped.
    #[test]
    fn child_threshold_inverts_total() {
        let sets: [&[(PnDn, bool)]; 2] = [
            &[(40, false), (50, false), (70, true), (60, true)],
            &[
                (400, false),
                (90 * UNIT, false),
                (700, true),
                (300 * UNIT, true),
                (20, false),
            ],
        ];
        for agg in [Aggregation::Sum, FLAT, GRADED] {
            for vals in sets {
                let c = combined(agg, vals);
                for th in [c.total(agg) + 1, c.total(agg) + 5 * UNIT, 1000 * UNIT] {
                    for (i, &(v, g)) in vals.iter().enumerate() {
                        let t = c.child_threshold(agg, th, v, g);
                        let with = |x: PnDn| {
                            let mut w = vals.to_vec();
                            w[i].0 = x;
                            combined(agg, &w).total(agg)
                        };
                        assert!(t > v, "{agg:?} {vals:?} th {th} child {i}: {t}");
                        assert!(with(t) >= th, "{agg:?} {vals:?} th {th} child {i}: {t}");
                        // Exact where the child's growth can move the total before it.
                        if t > v + 1 {
                            assert!(with(t - 1) < th, "{agg:?} {vals:?} th {th} child {i}: {t}");
                        }
                    }
                }
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
