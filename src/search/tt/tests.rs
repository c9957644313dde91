//! Unit tests of `tt.rs`.

use super::*;
use crate::position::PieceKind;
use crate::search::loops::NO_MATE_PLIES;
use crate::search::numbers::UNIT;

fn hand(p: u8, g: u8) -> Hand {
    let mut h = Hand::EMPTY;
    h.set_count(PieceKind::Pawn, p);
    h.set_count(PieceKind::Gold, g);
    h
}

impl Record {
    /// The record as an estimate (no dependence).
    fn clone_estimate(&self) -> Record {
        Record {
            dep: Dependence::None,
            ..*self
        }
    }
}

fn rec(hand: Hand, pn: PnDn, dn: PnDn, amount: u32) -> Record {
    Record {
        hand,
        pn,
        dn,
        len: 0,
        best: 0,
        amount,
        dep: Dependence::None,
        path: 0,
        or_node: true,
        budget: UNBOUNDED,
    }
}

#[test]
fn proofs_cover_superior_hands_only() {
    let t = Table::new(1);
    t.store(42, &rec(hand(1, 1), 0, INF, 10));
    assert!(t.probe(42, hand(1, 1), 0, UNBOUNDED).is_proven());
    assert!(t.probe(42, hand(3, 2), 0, UNBOUNDED).is_proven());
    assert!(!t.probe(42, hand(0, 2), 0, UNBOUNDED).is_proven());
    assert!(!t.probe(43, hand(3, 2), 0, UNBOUNDED).is_proven());
}

/// A general disproof read back from the table carries no dependence.
#[test]
fn general_disproofs_cover_inferior_hands_and_depend_on_nothing() {
    let t = Table::new(1);
    t.store(7, &rec(hand(2, 0), INF, 0, 10));
    let p = t.probe(7, hand(1, 0), 0, UNBOUNDED);
    assert!(p.is_disproven());
    assert_eq!(p.dep, Dependence::None);
    assert!(t.probe(7, hand(2, 0), 12345, UNBOUNDED).is_disproven());
    assert!(!t.probe(7, hand(2, 1), 0, UNBOUNDED).is_disproven());
}

#[test]
fn loop_disproofs_match_their_path_only() {
    let t = Table::new(1);
    let mut r = rec(hand(0, 1), INF, 0, 10);
    r.dep = Dependence::Loop { ply: 3 };
    r.path = 1234;
    t.store(9, &r);
    let p = t.probe(9, hand(0, 1), 1234, UNBOUNDED);
    assert!(p.is_disproven());
    assert_eq!(p.dep, Dependence::Loop { ply: 3 });
    assert!(!t.probe(9, hand(0, 1), 999, UNBOUNDED).is_disproven());
    assert!(!t.probe(9, hand(0, 0), 1234, UNBOUNDED).is_disproven());
}

#[test]
fn depth_cut_disproofs_match_their_path_and_are_purged() {
    let t = Table::new(1);
    let mut r = rec(hand(0, 1), INF, 0, 10);
    r.dep = Dependence::DepthCut;
    r.path = 77;
    t.store(9, &r);
    t.store(9, &rec(hand(3, 3), 0, INF, 5));
    let p = t.probe(9, hand(0, 1), 77, UNBOUNDED);
    assert!(p.is_disproven());
    assert_eq!(p.dep, Dependence::DepthCut);
    assert!(!t.probe(9, hand(0, 1), 78, UNBOUNDED).is_disproven());
    t.purge_depth_cuts();
    assert!(!t.probe(9, hand(0, 1), 77, UNBOUNDED).found);
    // Other entries stay.
    assert!(t.probe(9, hand(3, 3), 0, UNBOUNDED).is_proven());
}

fn bounded(hand: Hand, pn: PnDn, dn: PnDn, plies: u32, budget: u32) -> Record {
    Record {
        dep: Dependence::Within {
            plies,
            loop_at: None,
        },
        budget,
        ..rec(hand, pn, dn, 10)
    }
}

/// What each kind of search sees: a bounded one the proofs within its budget, the bounded
/// disproofs at least as wide, its own estimates for its budget only; the main search none of the
/// bounded entries.
#[test]
fn bounded_entries_answer_bounded_questions_only() {
    let t = Table::new(1);
    let mut proof = rec(hand(1, 0), 0, INF, 10);
    proof.len = 9;
    t.store(3, &proof);
    assert!(t.probe(3, hand(1, 0), 0, 9).is_proven());
    assert!(t.probe(3, hand(2, 0), 0, 11).is_proven());
    assert!(!t.probe(3, hand(1, 0), 0, 7).found);
    // No mate within 7 (for this hand and smaller ones).
    t.store(3, &bounded(hand(1, 0), INF, 0, 7, 7));
    let p = t.probe(3, hand(0, 0), 0, 5);
    assert!(p.is_disproven());
    assert_eq!(
        p.dep,
        Dependence::Within {
            plies: 7,
            loop_at: None
        }
    );
    assert!(t.probe(3, hand(1, 0), 0, 7).is_disproven());
    assert!(!t.probe(3, hand(2, 0), 0, 7).is_disproven());
    // The main search sees the proof, not the bounded disproof.
    assert!(t.probe(3, hand(1, 0), 0, UNBOUNDED).is_proven());
    assert!(!t.probe(3, hand(0, 0), 0, UNBOUNDED).found);
    // A bounded estimate is for its own budget.
    t.store(4, &bounded(hand(0, 1), 40, 50, 0, 13).clone_estimate());
    assert!(t.probe(4, hand(0, 1), 0, 13).found);
    assert!(!t.probe(4, hand(0, 1), 0, 15).found);
    assert!(!t.probe(4, hand(0, 1), 0, UNBOUNDED).found);
    // A wider disproof replaces the estimates it decides; a proof frees those it decides.
    t.store(4, &bounded(hand(0, 1), INF, 0, 15, 15));
    assert!(t.probe(4, hand(0, 1), 0, 13).is_disproven());
    let used = t.used();
    t.store(5, &bounded(hand(0, 1), 40, 50, 0, 13).clone_estimate());
    let mut p5 = rec(hand(0, 1), 0, INF, 10);
    p5.len = 11;
    t.store(5, &p5);
    assert_eq!(t.used(), used + 1);
    assert!(t.probe(5, hand(0, 1), 0, 13).is_proven());
}

/// A bounded search's "no mate at any length" (`NO_MATE_PLIES`, a refutation that met no horizon)
/// is stored in 16 bits, saturated, and reads back as itself, not as "no mate within 65 535": the
/// shortest-first search stops on it instead of asking every longer bound (`Entry::dependence`).
/// A real bound reads back as it was stored.
#[test]
fn no_mate_at_any_length_reads_back_as_itself() {
    let t = Table::new(1);
    t.store(8, &bounded(hand(1, 0), INF, 0, NO_MATE_PLIES, 9));
    let p = t.probe(8, hand(1, 0), 0, 9);
    assert!(p.is_disproven());
    assert_eq!(
        p.dep,
        Dependence::Within {
            plies: NO_MATE_PLIES,
            loop_at: None
        }
    );
    t.store(9, &bounded(hand(1, 0), INF, 0, 60_000, 60_000));
    assert_eq!(
        t.probe(9, hand(1, 0), 0, 9).dep,
        Dependence::Within {
            plies: 60_000,
            loop_at: None
        }
    );
}

/// A bounded disproof resting on a loop above the node holds on its path only, within its bound.
#[test]
fn bounded_loop_disproofs_match_their_path_only() {
    let t = Table::new(1);
    let mut r = bounded(hand(0, 1), INF, 0, 9, 9);
    r.dep = Dependence::Within {
        plies: 9,
        loop_at: Some(2),
    };
    r.path = 4321;
    t.store(8, &r);
    let p = t.probe(8, hand(0, 1), 4321, 9);
    assert!(p.is_disproven());
    assert_eq!(p.dep, r.dep);
    assert!(t.probe(8, hand(0, 1), 4321, 7).is_disproven());
    assert!(!t.probe(8, hand(0, 1), 4321, 11).found);
    assert!(!t.probe(8, hand(0, 1), 1234, 9).found);
    assert!(!t.probe(8, hand(0, 1), 4321, UNBOUNDED).found);
}

#[test]
fn unproven_entries_bound_neighbours() {
    let t = Table::new(1);
    t.store(5, &rec(hand(1, 1), 300, 7, 10));
    let exact = t.probe(5, hand(1, 1), 0, UNBOUNDED);
    assert!(exact.found && exact.pn == 300 && exact.dn == 7);
    // Fewer pieces: at least as hard to prove.
    assert_eq!(t.probe(5, hand(0, 1), 0, UNBOUNDED).pn, 300);
    // More pieces: at least as hard to disprove (never below an unexpanded node's number).
    assert_eq!(t.probe(5, hand(2, 1), 0, UNBOUNDED).dn, UNIT);
    t.store(5, &rec(hand(1, 1), 300, 70, 10));
    assert_eq!(t.probe(5, hand(2, 1), 0, UNBOUNDED).dn, 70);
}

#[test]
fn full_cluster_replaces_the_cheapest() {
    let t = Table::new(1);
    // Same key, many hands: more than a cluster holds.
    for p in 0..20u8 {
        t.store(11, &rec(hand(p, 0), 3 * UNIT, 3 * UNIT, p as u32 + 1));
    }
    // One cluster's worth are live; the most searched ones survive, the cheapest went.
    assert_eq!(t.used(), CLUSTER);
    assert!(t.probe(11, hand(19, 0), 0, UNBOUNDED).found);
    assert!(!t.probe(11, hand(0, 0), 0, UNBOUNDED).found);
    // A proof frees what it subsumes.
    t.store(11, &rec(hand(0, 0), 0, INF, 1));
    assert!(t.probe(11, hand(5, 0), 0, UNBOUNDED).is_proven());
    assert_eq!(t.used(), 1);
}

/// Filling a tiny table past the trigger collects garbage, keeps the valuable entries and leaves
/// the table usable below the trigger.
#[test]
fn garbage_collection_frees_the_cheap_and_keeps_the_valuable() {
    let t = Table::new(1);
    let cap = t.capacity();
    let key = |i: usize| (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    // Valuable proofs first, then many cheap estimates.
    for i in 0..cap / 10 {
        t.store(key(i), &rec(hand(1, 0), 0, INF, 1000));
    }
    for i in cap / 10..cap * 2 {
        t.store(key(i), &rec(hand(1, 0), UNIT, UNIT, 1));
    }
    assert!(t.gc_count() > 0);
    assert!(t.hashfull() < GC_TRIGGER as u32);
    let kept = (0..cap / 10)
        .filter(|&i| t.probe(key(i), hand(1, 0), 0, UNBOUNDED).is_proven())
        .count();
    // Replacement inside a full cluster may cost a few; GC costs none.
    assert!(kept * 100 >= (cap / 10) * 95, "{kept} of {}", cap / 10);
}

/// Clearing forgets everything, whether it resets the written clusters only or fills the table.
#[test]
fn clear_forgets_few_and_many_writes() {
    for n in [3u64, (DIRTY_MAX as u64) * 2] {
        // Room for every entry: nothing is replaced before the clear.
        let t = Table::new(64);
        for k in 1..=n {
            t.store(
                k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                &rec(hand(1, 0), 0, INF, 1),
            );
        }
        assert!(
            t.probe(0x9e37_79b9_7f4a_7c15, hand(1, 0), 0, UNBOUNDED)
                .is_proven()
        );
        t.clear();
        assert_eq!(t.hashfull(), 0);
        for k in 1..=n {
            let key = k.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            assert!(!t.probe(key, hand(1, 0), 0, UNBOUNDED).found, "{n}: {k}");
        }
    }
}

/// A table larger than the memory free now is made smaller, not mapped in full: `isready` backs it
/// whole, and a table as large as the machine's memory, with no swap, stalls the machine with no
/// `readyok`.
#[test]
fn a_table_never_takes_more_than_the_free_memory() {
    let size = std::mem::size_of::<Cluster>();
    let mib = 1 << 20;
    // 1 GiB of clusters with 4 GiB free stays; with 1 GiB free it is halved to within 7/8 of it.
    assert_eq!(
        within_free(4096 * 1024, Some(4096 * mib)) * size,
        1024 * mib
    );
    assert_eq!(within_free(4096 * 1024, Some(1024 * mib)) * size, 512 * mib);
    assert_eq!(within_free(4096 * 1024, None) * size, 1024 * mib);
    assert_eq!(within_free(4096 * 1024, Some(0)), 1);
    let Some(free) = memory::free_bytes() else {
        return; // not Linux: only the address space limits the table.
    };
    // A little more than is free: the kernel maps that much all the same (it refuses only what
    // exceeds the whole memory and swap), so without the cap the table would be that large.
    let mb = ((free >> 20) / 16 * 17).max(1);
    let t = Table::new(mb);
    assert!(t.size_mb() < mb, "{} MiB of {mb}", t.size_mb());
    assert!(
        t.size_mb() << 20 <= free,
        "{} MiB, {free} bytes free",
        t.size_mb()
    );
}

/// The cluster's lock (`cluster.rs`): threads that write whole entries (every field the same number)
/// and threads that read them never see an entry whose fields come from two writes (an entry is
/// three words: read one by one without the lock while another thread writes them, it could be).
#[test]
fn a_locked_entry_is_never_read_torn() {
    use super::cluster::{CLUSTER, Cluster};
    use super::entry::Entry;
    use std::sync::atomic::AtomicBool;
    let cluster = Cluster::EMPTY;
    let done = AtomicBool::new(false);
    let entry = |v: u32| Entry {
        hand: Hand::from_raw(v),
        pn: v,
        dn: v,
        amount: v,
        best: v as u16,
        len: v as u16,
        flags: v as u8,
        loop_ply: v as u16,
    };
    std::thread::scope(|scope| {
        for t in 0..2u32 {
            let (cluster, done) = (&cluster, &done);
            scope.spawn(move || {
                let mut v = t;
                while !done.load(Ordering::Relaxed) {
                    v = v.wrapping_mul(2_654_435_761).wrapping_add(1);
                    let c = cluster.lock();
                    c.set((v as usize) % CLUSTER, 2, &entry(v));
                }
            });
        }
        let mut reads = 0u64;
        while reads < 200_000 {
            let c = cluster.lock();
            for i in 0..CLUSTER {
                let e = c.entry(i);
                assert_eq!(e, entry(e.pn), "slot {i} read torn after {reads} reads");
                reads += 1;
            }
        }
        done.store(true, Ordering::Relaxed);
    });
}

/// Threads storing and probing one small table at once (proofs, disproofs and estimates over a few
/// boards, with garbage collections): no panic, every proof read back covers a hand it was stored
/// for with the length it was stored with (lengths and hands are tied: proof hand `h` ↔ length
/// `2·pawns(h) + 1`), and once they stop the count of slots in use is exact.
#[test]
fn threads_share_one_table() {
    let t = Table::new(1);
    std::thread::scope(|scope| {
        for id in 0..4u64 {
            let t = &t;
            scope.spawn(move || {
                let mut x = id.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
                for _ in 0..50_000 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let key = (x >> 40) % 5_000 + 1;
                    let p = ((x >> 8) % 4) as u8;
                    let h = hand(p, 0);
                    let len = 2 * u16::from(p) + 1;
                    match x % 4 {
                        0 => t.store(key, &Record::proof(h, len, 0, true)),
                        1 => t.store(key, &rec(h, 2 * UNIT, UNIT, (x % 100) as u32)),
                        2 => t.store(key, &rec(hand(p + 4, 0), INF, 0, 1)),
                        _ => {
                            let probe = t.probe(key, hand(3, 0), 0, UNBOUNDED);
                            if probe.is_proven() {
                                let pawns = probe.hand.count(PieceKind::Pawn);
                                assert!(pawns <= 3, "{probe:?}");
                                assert_eq!(probe.len, 2 * u16::from(pawns) + 1, "{probe:?}");
                            }
                        }
                    }
                }
            });
        }
    });
    let in_use: usize = t
        .clusters
        .iter()
        .map(|c| c.keys().iter().filter(|&&k| k != 0).count())
        .sum();
    assert_eq!(t.used(), in_use);
}
