//! Searches on several threads: one searcher per thread over the one shared table, each from the
//! same node, until one of them decides it. The proof from the root runs so (`prove`), and so does
//! every question of the line phases that may take long (`search`: "mate within d?" from the root or
//! from a node of the line).
//!
//! * **Sharing.** Every result any searcher stores is in the table for all (`tt/cluster.rs`: a
//!   result is never read torn, and no store is lost half-way), so a subtree one searcher proves
//!   is proven for the others the next time they probe it.
//! * **Spreading.** Searchers that started alike would follow each other down the same line. Each
//!   marks the nodes it is inside, and at an AND node counts a reply another searcher is inside as
//!   dearer (`marks.rs`), so the replies a proof needs are proven side by side. In the root proof,
//!   helper `i` also searches the root in rounds whose thresholds grow by `helper_growth(i)` times
//!   the root's numbers (`Searcher::prove_in_rounds`, KomoringHeights' factors 1.7 + 0.3·i): it
//!   comes back to the root whenever the root's numbers pass them and chooses its path again,
//!   where the main searcher (thresholds at the ceiling, as with one thread) stays below the root.
//!   That cut the long runs a second thread sometimes made (docs/benchmarks.md, *Helpers that come
//!   back to the root*).
//! * **Ending.** The first searcher to decide the node (proven, or disproven on every path) sets
//!   `Shared::proof_done`; the others see it at their next clock check (within 64 nodes) and return.
//!   The answer is that searcher's: proofs and general disproofs are facts of the position whoever
//!   found them. When the main searcher ends first (a limit, its budget), the helpers end with it.
//! * **Soundness.** Nothing here decides a node: each searcher's df-pn is the single-threaded one,
//!   its results computed from what the table holds. Depth cuts and repetitions stay path-dependent
//!   entries, matched on their own path key only, and a searcher that raises its depth limit purges
//!   the cut results of all (which only makes others search again).

use super::SEARCH_STACK_BYTES;
use super::dfpn::{NodeResult, RootResult, Searcher};
use super::node::Seen;
use super::numbers::PN_MAX;
use super::outcome::SearchInfo;
use super::stats::Stats;
use std::sync::atomic::Ordering;

/// A search runs on the main searcher alone for this many nodes before helpers join it. A question
/// answered within the count never pays for starting a thread; one that is not runs its first
/// `SOLO_NODES` on one core, so the count is the serial share of a solve whose line phase asks many
/// mid-sized questions. About a millisecond of search: starting a helper costs a small fraction of
/// it. The measured choice against 20 000 and others: docs/benchmarks.md, *The solo count again*.
pub const SOLO_NODES: u64 = 2_000;

/// What a helper brings back: its answer, its counters, and whether it cut lines at its depth limit.
struct Helped<R> {
    answer: R,
    stats: Stats,
    depth_cuts: bool,
}

/// What helper `i` (1, 2, …) grows its root thresholds by in the root proof
/// (`Searcher::prove_in_rounds`).
fn helper_growth(i: usize) -> f64 {
    1.7 + 0.3 * i as f64
}

/// Runs `work` on `main` alone for `SOLO_NODES`, then, if that was not enough, on `main` and on
/// `Shared::threads` − 1 helpers, each a new searcher in `main`'s state (position, path, game, depth
/// limit), until the main searcher returns or some searcher's answer is `decided`. `work` is given
/// the searcher's number (0 for the main searcher, 1, 2, … for the helpers). Returns the main
/// searcher's answer if decided, else a helper's decided one, else the main searcher's; the helpers'
/// counters go to `main.helpers`.
fn with_helpers<R: Send>(
    main: &mut Searcher,
    work: impl Fn(&mut Searcher, usize) -> R + Sync,
    decided: impl Fn(&R) -> bool + Sync,
) -> R {
    #[cfg(not(test))]
    let solo_nodes = SOLO_NODES;
    #[cfg(test)]
    let solo_nodes = main.config().solo_nodes;
    let begun = main.stats.nodes;
    let solo = main.within_cap(solo_nodes, |s| work(s, 0));
    if main.stats.nodes - begun < solo_nodes || main.limit_reached() {
        // Answered within the solo nodes (decided or not), or stopped by a limit of its own.
        return solo;
    }
    let shared = main.shared;
    let (pos, path, game, max_ply) = (
        main.pos.clone(),
        main.path.clone(),
        main.game,
        main.depth.max_ply,
    );
    let (work, decided) = (&work, &decided);
    let (own, helped) = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..shared.threads)
            .filter_map(|i| {
                let (pos, path) = (pos.clone(), path.clone());
                std::thread::Builder::new()
                    .name("kanju-helper".into())
                    .stack_size(SEARCH_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let mut quiet = |_: &SearchInfo| {};
                        let mut s = Searcher::new(shared, &mut quiet);
                        (s.pos, s.path, s.game, s.depth.max_ply) = (pos, path, game, max_ply);
                        let answer = work(&mut s, i);
                        if decided(&answer) {
                            shared.proof_done.store(true, Ordering::Relaxed);
                        }
                        s.report_nodes();
                        Helped {
                            answer,
                            stats: s.stats,
                            depth_cuts: s.depth.cuts,
                        }
                    })
                    .map_err(|e| log::warn!("a helper thread could not start: {e}"))
                    .ok()
            })
            .collect::<Vec<_>>();
        let own = work(main, 0);
        shared.proof_done.store(true, Ordering::Relaxed);
        let helped: Vec<Helped<R>> = handles.into_iter().filter_map(|h| h.join().ok()).collect();
        (own, helped)
    });
    shared.proof_done.store(false, Ordering::Relaxed);
    main.report_nodes();
    let mut answer = own;
    let mut taken = decided(&answer);
    for h in helped {
        main.helpers += h.stats;
        main.depth.cuts |= h.depth_cuts;
        if !taken && decided(&h.answer) {
            answer = h.answer;
            taken = true;
        }
    }
    if taken && main.budget.aborted && !main.limit_reached() {
        // Stopped by the helper that decided the node, not by a limit: the search goes on.
        main.budget.aborted = false;
    }
    answer
}

/// The root proof (`Searcher::prove`) with `main` and `Shared::threads` − 1 helpers, `main`'s root
/// entered.
pub fn prove(main: &mut Searcher) -> RootResult {
    with_helpers(
        main,
        |s: &mut Searcher, i| {
            if i == 0 {
                s.prove()
            } else {
                s.prove_in_rounds(helper_growth(i))
            }
        },
        |r| matches!(r, RootResult::Proven | RootResult::Disproven),
    )
}

/// `Searcher::mid` of the main searcher's current node (at `ply`, reached along `path`), in the
/// current game, with thresholds at their ceiling: on every searcher when there are several.
pub fn search(main: &mut Searcher, ply: u32, path: u64) -> NodeResult {
    let work = move |s: &mut Searcher, _| s.mid(PN_MAX, PN_MAX, ply, path, Seen::Before);
    if main.shared.threads > 1 {
        with_helpers(main, work, |r| {
            r.pn == 0 || (r.dn == 0 && r.dep.is_general())
        })
    } else {
        work(main, 0)
    }
}

#[cfg(test)]
mod tests {
    use crate::position::Position;
    use crate::search::dfpn::tests::data_rows;
    use crate::search::{MateOutcome, SearchConfig, SearchLimits, Solver, verify_mate_line};
    use std::sync::atomic::AtomicBool;

    /// Many short problems on four threads (on any machine: oversubscribed on two cores) with a
    /// table of 1 MiB, so that garbage collection runs while the helpers search, and helpers joining
    /// every search at once (`SearchConfig::solo_nodes` 0): every answer is right, every mate line
    /// verifies and has the labelled minimax length (`MinLength`), and nothing panics.
    #[test]
    fn many_short_problems_on_four_threads_and_a_tiny_table() {
        let run = || {
            let mut solver = Solver::new(1);
            solver.set_threads(4);
            // The files' convention: the side to move attacks, in check or not.
            solver.set_root_and_if_checked(false);
            solver.set_config(SearchConfig {
                solo_nodes: 0,
                ..SearchConfig::default()
            });
            let limits = SearchLimits {
                nodes: Some(3_000_000),
                ..SearchLimits::default()
            };
            let mut checked = 0;
            for file in [
                "yaneuraou-mate5.tsv",
                "yaneuraou-mate7.tsv",
                "edge-cases.tsv",
            ] {
                for (sfen, expected) in data_rows(file) {
                    let Ok(root) = Position::from_sfen(&sfen) else {
                        continue;
                    };
                    if root.validate_mate_problem().is_err() {
                        continue;
                    }
                    solver.clear();
                    let r = solver
                        .solve(&root, &limits, &AtomicBool::new(false), &mut |_| {})
                        .expect("a mate problem");
                    assert_eq!(r.threads, 4);
                    match (&r.outcome, expected.split_once(':')) {
                        (MateOutcome::Mate(line), Some(("mate", n))) => {
                            assert!(verify_mate_line(&root, line), "{sfen}: {line:?}");
                            if let Ok(n) = n.parse::<usize>() {
                                assert!(
                                    !r.findings.exact || line.len() == n,
                                    "{sfen}: {} plies",
                                    line.len()
                                );
                            }
                        }
                        (MateOutcome::NoMate, None) => assert_eq!(expected, "nomate", "{sfen}"),
                        (MateOutcome::NoMate, Some(("nomate-within", _))) => {}
                        (MateOutcome::Mate(line), Some(("nomate-within", n))) => {
                            assert!(verify_mate_line(&root, line), "{sfen}: {line:?}");
                            assert!(line.len() > n.parse::<usize>().unwrap(), "{sfen}");
                        }
                        (MateOutcome::Timeout, _) => {}
                        (other, _) => panic!("{sfen}: expected {expected}, got {other:?}"),
                    }
                    checked += 1;
                }
            }
            checked
        };
        // The search recurses once per ply: a search's stack, not a test thread's.
        let checked = std::thread::Builder::new()
            .stack_size(crate::search::SEARCH_STACK_BYTES)
            .spawn(run)
            .unwrap()
            .join()
            .unwrap();
        assert!(checked > 250, "{checked} problems checked");
    }
}
