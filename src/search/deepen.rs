//! Shortest first: "mate within 1? 3? 5? …" from the root, before the proof.
//!
//! With `PvLevel::MinLength` the answer is the minimax line, and proving it exact ends with a
//! refutation of "mate within N − 2" from the root whatever comes first (`pv::tighten`). The usual
//! order is: a df-pn proof (any mate, often much longer than the shortest), then "mate within U − 2?"
//! until the answer is no. On short problems the proof and the re-proofs that shorten it cost more
//! than the final refutation: the first proof of a mate in 7 is often a mate in 13 or 19.
//!
//! Iterative deepening asks the same bounded question (`bounded.rs`) bottom-up. The first yes is
//! exact at once: "mate within d" is proven after "mate within d − 2" was refuted, and mates from the
//! root have odd lengths, so the proof's length is d (the argument that bounded answers are the
//! minimax lengths, repetitions cut or not, is `pv.rs`'s). The refutations on the way are the ones the
//! proof-first order needs anyway, and each costs about a branching factor less than the next.
//!
//! Deepening a long problem would never end, so it has a node cap (`SearchConfig::deepen_nodes`,
//! small against any search that takes longer than a blink). When it runs out on a table that was
//! empty before it (every solve but a USI `go` that reuses an earlier search's table), the table is
//! cleared and the ordinary proof-first order starts afresh, so the proof under `MinLength` is the
//! very proof of `PvLevel::None` (same tree, same nodes) and costs at most the cap more. (On a
//! reused table the earlier search's entries shape the proof anyway, and wiping them would throw
//! their work away: what deepening wrote stays there.) Keeping what deepening wrote would be sound
//! (its proofs are proofs, its bounded refutations are read only by bounded searches) but changes
//! the proof search's path, and df-pn is chaotic: with the entries kept, Zukou #31 goes unproven
//! within a time limit it meets easily from an empty table, and with only deepening's proofs
//! dropped, Shogi Musou #17 (a classic not in the repository) still takes many times the nodes of
//! its proof (figures: docs/benchmarks.md, *The line phase*). The bounded refutations that the
//! shortening after the proof would have reused cost less than the cap to find again.

use crate::search::bounded::{Bound, mate_within, shortest_first};
use crate::search::dfpn::Searcher;
use crate::search::loops::{Dependence, NO_MATE_PLIES};

/// What shortest-first deepening learnt of the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deepened {
    /// The root's minimax length, when a mate was found (the root is then proven in the table with
    /// that length).
    pub exact: Option<u32>,
    /// The shortest a mate from the root can be: every shorter bound was refuted ("no mate within
    /// `least_mate` − 2"), whatever became of the table entries that said so. The line phase starts
    /// from it (`pv::tighten`). 1 when nothing was refuted.
    pub least_mate: u32,
}

impl Deepened {
    /// Nothing learnt (no deepening).
    pub const NOTHING: Deepened = Deepened {
        exact: None,
        least_mate: 1,
    };
}

/// Deepens from the root (entered, `Searcher::enter_root`) within the node cap
/// (`SearchConfig::deepen_nodes`). `exact` is `None` if the cap, a limit or `stop` came first or the
/// root has no mate at all (the proof search then decides). Leaves `aborted` set only for the user's
/// limits and `stop`. On a table that was empty before it, a deepening that found no mate leaves it
/// empty again (module comment).
pub fn deepen(s: &mut Searcher) -> Deepened {
    let cap = s.config().deepen_nodes;
    if cap == 0 {
        return Deepened::NOTHING;
    }
    // Nothing in the table yet: a failed deepening can put it back as it was (see above).
    let fresh = s.tt().entries_written() == 0;
    let mut least_mate = 1;
    let game = s.game.looking_ahead();
    let exact = s.in_game(game, |s| {
        shortest_first(s, cap, u32::MAX, |s, d| {
            // The iteration's visit of the root (counted even where the frontier answers it).
            s.stats.nodes += 1;
            let r = mate_within(s, d, "deepen");
            if r.pn == 0 {
                // "No mate within d − 2" came before (or d = 1): the length is d.
                debug_assert_eq!(u32::from(r.len), d);
                return Bound::Mate;
            }
            match r.dep {
                // Refuted within the bound: ask the next length.
                Dependence::Within { plies, .. } if r.dn == 0 && plies < NO_MATE_PLIES => {
                    least_mate = d + 2;
                    Bound::Refuted
                }
                // Stopped; refuted without reaching the horizon anywhere (no mate at all: the
                // proof search finds that on its own, bounded refutations are not read by it); or
                // refuted by the depth limit.
                _ => Bound::Stop,
            }
        })
    });
    if exact.is_none() && fresh {
        s.tt().clear();
    }
    Deepened { exact, least_mate }
}

#[cfg(test)]
mod tests {
    use super::deepen;
    use crate::search::dfpn::RootResult;
    use crate::search::dfpn::tests::fresh_search;
    use crate::search::tt::UNBOUNDED;

    /// yaneuraou-mate7.tsv `yo-m7-13`: a mate in 7 whose first df-pn proof is a longer mate.
    const MATE_IN_7: &str =
        "ln2+Rg1nl/5g1k1/p2+B1p1gp/4p2R1/2pK2p2/P3P1P1P/3+b1PN2/5S3/L7L b 2SN7Pgs 81";

    /// Runs the root search with deepening on and a node cap of `cap`; returns how it ended, the
    /// length deepening proved exact, the root's proof length in the table, and the nodes searched.
    fn run(sfen: &str, cap: u64) -> (RootResult, Option<u32>, Option<u32>, u64) {
        run_with(sfen, cap, "").0
    }

    /// `run` with the switches `spec` (`SearchConfig::apply`); also returns how many looks the
    /// look cache holds at the end.
    fn run_with(
        sfen: &str,
        cap: u64,
        spec: &str,
    ) -> ((RootResult, Option<u32>, Option<u32>, u64), usize) {
        fresh_search(sfen, &format!("deepen={cap},{spec}"), |s| {
            s.enter_root();
            let deepened = deepen(s);
            let result = if deepened.exact.is_some() {
                RootResult::Proven
            } else {
                s.prove()
            };
            let probe = s.tt().probe(s.tt_key(), s.hand(), s.path.root, UNBOUNDED);
            (
                (
                    result,
                    deepened.exact,
                    probe.is_proven().then_some(u32::from(probe.len)),
                    s.stats.nodes,
                ),
                s.looks.filled(),
            )
        })
    }

    /// Deepening's bounded searches take the main search's initial numbers: with the look-ahead
    /// (the default) their new children are looked at — the proof here is deepening's alone, so
    /// every look in the cache is one of its own — and with lazy numbers none is.
    #[test]
    fn deepening_looks_ahead_like_the_main_search() {
        let ((result, exact, _, _), looks) = run_with(MATE_IN_7, 10_000, "");
        assert_eq!((result, exact), (RootResult::Proven, Some(7)));
        assert!(looks > 0);
        let ((result, exact, _, _), looks) = run_with(MATE_IN_7, 10_000, "init=unit");
        assert_eq!((result, exact), (RootResult::Proven, Some(7)));
        assert_eq!(looks, 0);
    }

    #[test]
    fn the_first_mate_found_is_the_shortest() {
        let (result, exact, len, _) = run(MATE_IN_7, 10_000);
        assert_eq!(result, RootResult::Proven);
        assert_eq!(exact, Some(7));
        assert_eq!(len, Some(7));
        // Proof first, the proof is a longer mate: the line phase has the shortening to do.
        let (result, exact, len, _) = run(MATE_IN_7, 0);
        assert_eq!(result, RootResult::Proven);
        assert_eq!(exact, None);
        assert!(len.is_some_and(|l| l > 7), "{len:?}");
    }

    #[test]
    fn a_spent_cap_hands_over_to_the_proof() {
        // zukou.tsv `zuko002`, a mate in 21: deepening to 21 costs far more than 2 000 nodes.
        let (result, exact, len, _) = run(
            "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1",
            2_000,
        );
        assert_eq!(result, RootResult::Proven);
        assert_eq!(exact, None);
        assert!(len.is_some());
    }

    /// A refutation read from the table as "no mate at any length" ends deepening at once: in
    /// edge-cases.tsv `edge-40` (no mate within 3, nor at all) the refutation of "mate within 15"
    /// rests on such entries. Read back as a refutation within some bound instead (`tt/entry.rs`,
    /// `Entry::dependence`), it would have deepening ask every longer bound, two nodes each, until
    /// its cap ran out.
    #[test]
    fn no_mate_at_any_length_ends_deepening() {
        let (result, exact, _, nodes) = run("9/4k4/9/4P4/9/9/9/9/9 b G2r2b4s4n4l17p 1", 10_000);
        assert_eq!(result, RootResult::Disproven);
        assert_eq!(exact, None);
        assert!(nodes < 2_000, "{nodes} nodes");
    }

    #[test]
    fn no_mate_is_left_to_the_proof_search() {
        // A lone pawn in hand: every check is a pawn drop the king takes.
        let (result, exact, _, _) = run("9/9/9/9/4k4/9/9/9/9 b P 1", 10_000);
        assert_eq!(result, RootResult::Disproven);
        assert_eq!(exact, None);
    }
}
