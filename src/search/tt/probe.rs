//! `Table::probe`: what the table knows of a position, for a search of a given kind.

use super::cluster::{CLUSTER, slot_key};
use super::{Probe, Table, UNBOUNDED};
use crate::position::Hand;
use crate::search::loops::Dependence;
use crate::search::numbers::{INF, UNIT};

impl Table {
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
        let c = &self.clusters[self.cluster_index(key)];
        let key = slot_key(key);
        let r = Probe {
            pn: UNIT,
            dn: UNIT,
            len: 0,
            best: 0,
            hand,
            dep: Dependence::None,
            found: false,
            amount: 0,
        };
        if !c.may_hold(key) {
            return r;
        }
        let c = c.lock();
        let bounded = budget != UNBOUNDED;
        let (mut bound_pn, mut bound_dn) = (0, 0);
        let mut r = r;
        for i in 0..CLUSTER {
            if c.key(i) != key {
                continue;
            }
            let e = c.entry(i);
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
}
