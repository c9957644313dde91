//! `Table::store`: a search's result into its slot, and the entries a new proof or disproof frees.

use super::cluster::{CLUSTER, Locked, slot_key};
use super::entry::{Entry, FLAG_BOUNDED, FLAG_OR};
use super::{Record, Table, UNBOUNDED};
use crate::search::loops::Dependence;

impl Table {
    /// Stores a result for the position with board key `key`. Entries made redundant by a new proof or
    /// disproof are freed.
    ///
    /// A bounded search's proofs are ordinary proofs (a mate within its budget is a mate, see `pv.rs`),
    /// and so are its disproofs that rest on nothing (no mate at all); its other disproofs ("no mate
    /// within d") and its estimates are bounded entries.
    pub fn store(&self, key: u64, rec: &Record) {
        let idx = self.cluster_index(key);
        let key = slot_key(key);
        let amount = rec.amount.max(1);
        let proven = rec.pn == 0;
        let general_disproof = rec.dn == 0 && rec.dep.is_general();
        let bounded = rec.budget != UNBOUNDED && !proven && !general_disproof;
        let mut new = Entry {
            hand: rec.hand,
            pn: rec.pn,
            dn: rec.dn,
            amount,
            best: rec.best,
            len: rec.len,
            flags: if rec.or_node { FLAG_OR } else { 0 },
            loop_ply: 0,
        };
        if rec.dn == 0 && rec.dep.on_path() {
            new.set_dependence(rec.dep, rec.path);
        } else if bounded {
            new.flags |= FLAG_BOUNDED;
            new.len = match rec.dep {
                Dependence::Within { plies, .. } if rec.dn == 0 => plies,
                _ => {
                    debug_assert!(rec.dn != 0, "a bounded disproof rests on its bound");
                    rec.budget
                }
            }
            .min(u16::MAX as u32) as u16;
        }
        let within = new.is_within();
        let c = self.clusters[idx].lock();
        // The slot of this very position (same board, same hand, same kind of result; for a bounded
        // estimate the same budget; a bounded disproof takes the place of the estimates it decides) is
        // updated in place, keeping the effort already spent there.
        let same = |e: &Entry| {
            e.hand == rec.hand
                && e.is_path_dependent() == new.is_path_dependent()
                && e.is_bounded() == new.is_bounded()
                && (!new.is_path_dependent() || e.path() == rec.path)
                && (!new.is_bounded()
                    || new.is_path_dependent()
                    || if within {
                        e.is_within() || e.len <= new.len
                    } else {
                        !e.is_within() && e.len == new.len
                    })
        };
        if let Some(i) = (0..CLUSTER).find(|&i| c.key(i) == key && same(&c.entry(i))) {
            let mut e = c.entry(i);
            new.amount = e.amount.saturating_add(amount);
            // A fact already known stays: the shortest proof, the widest bounded disproof.
            if e.is_proven() && proven {
                if e.len < new.len {
                    (new.len, new.best) = (e.len, e.best);
                }
            } else if e.is_within() && within {
                if e.len > new.len {
                    (new.len, new.best) = (e.len, e.best);
                }
            } else if new.is_path_dependent() && new.is_bounded() && e.dn > new.dn {
                // The wider bound on this path, with the loop it rests on.
                (new.dn, new.loop_ply) = (e.dn, e.loop_ply);
            } else if (e.is_proven() && !proven) || (e.is_general_disproof() && !general_disproof) {
                // A final result is never overwritten by an estimate.
                e.amount = new.amount;
                c.set_entry(i, &e);
                return;
            }
            c.set_entry(i, &new);
            self.release(idx, Self::free_decided(&c, key, &new));
            return;
        }
        self.release(idx, Self::free_decided(&c, key, &new));
        if c.is_empty() {
            self.mark_dirty(idx);
        }
        let i = match (0..CLUSTER).find(|&i| c.key(i) == 0) {
            Some(i) => i,
            None => {
                // Replace the least valuable entry.
                let i = (0..CLUSTER)
                    .min_by_key(|&i| c.entry(i).value())
                    .expect("clusters are non-empty");
                self.release(idx, 1);
                i
            }
        };
        let full = self.place(idx);
        c.set(i, key, &new);
        drop(c);
        if full {
            self.collect();
        }
    }

    /// After storing `new` (a proof, a general disproof or a bounded disproof), frees the other entries
    /// of the same board that it decides. Returns how many.
    /// * A proof with proof hand H in `len` plies: estimates for hands covering H (main ones, and bounded
    ///   ones whose budget is at least `len`) and proofs of such hands that are no shorter.
    /// * A general disproof with disproof hand H: every unproven entry whose hand H covers.
    /// * "No mate within d" with hand H: bounded estimates for budgets up to d and bounded disproofs no
    ///   wider, for hands H covers.
    fn free_decided(c: &Locked, key: u64, new: &Entry) -> usize {
        let proven = new.is_proven();
        let within = new.is_within();
        if !proven && !within && !new.is_general_disproof() {
            return 0;
        }
        let mut freed = 0;
        for i in 0..CLUSTER {
            if c.key(i) != key {
                continue;
            }
            let e = &c.entry(i);
            let same_slot = e.hand == new.hand
                && e.is_bounded() == new.is_bounded()
                && e.is_path_dependent() == new.is_path_dependent();
            if same_slot {
                continue;
            }
            let decided = if proven {
                !e.is_path_dependent()
                    && e.hand.covers(new.hand)
                    && if e.is_bounded() {
                        !e.is_within() && e.len >= new.len
                    } else {
                        !e.is_proven() || e.len >= new.len
                    }
            } else if within {
                e.is_bounded()
                    && !e.is_path_dependent()
                    && e.len <= new.len
                    && new.hand.covers(e.hand)
            } else {
                !e.is_proven() && new.hand.covers(e.hand)
            };
            if decided {
                c.free(i);
                freed += 1;
            }
        }
        freed
    }
}
