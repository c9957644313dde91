//! The composers' ranking on the canonical line: a defence after which the attacker forces a mate with
//! pieces to spare (駒余り) is not the main line.
//!
//! Composers rank such a defence below every defence after which the attacker cannot force one,
//! whatever the lengths (`spare.rs` states the ranking; an exhaustive search at the nodes where
//! Zukou's recorded lines part from kanju's canonical ones agrees with the records under it). Playing
//! the ranking inside the canonical search needs a "no spare mate" proof for
//! every reply that refutes a bound anywhere in the tree, and those proofs are the expensive kind (every
//! mate must end with an empty hand): the canonical phase then seldom ends. Here the ranking is applied
//! to the printed line only, after the canonical search, the way shtsume's refinement pass
//! (`make_tree`, notes §4.3) applies its own:
//!
//! * Walk the canonical line from the root. At each defender node, ask a spare test of the line's
//!   reply (a search capped at `SearchConfig::ranking_test_nodes`, a quarter of it for a reply that
//!   is not a drop; a proof in the ordinary table whose proof hand the attacker's hand exceeds
//!   answers it at once, `spare.rs`, `surplus_witness`; a drop is first asked whether the checker
//!   captures it and the attacker mates without it, an ordinary mate search, `drop_spared`).
//! * If the attacker forces a spare mate after it, look among the other replies that count in the
//!   canonical game (futile drops do not) for the longest one that no spare test answers yes (a
//!   drop is tested first, any other reply once its length is known): its canonical minimax length
//!   is made exact from its child ("mate within 1? 3? …" within the test's cap, then "mate within
//!   b − 2?" down from the bound until no, the same bounded searches as the root's, each within half
//!   of what the pass has left) and its line is read along exact values (along the bound reached,
//!   not called exact, if a question ran out). Replies are tried by their recorded upper bounds,
//!   longest first, and the trial stops once no bound can beat the best length found.
//! * If there is one, the line takes it, with its exact continuation, and the walk goes on into it
//!   (its own defender nodes are ranked in turn); otherwise (every reply is answered by a spare mate:
//!   the variation is 駒余り whatever the defender does) the line keeps its reply.
//! * In the check's pass without a budget (`line::rerank`), at each attacker node, once its check's
//!   continuation is ranked, every other check that mates as soon in the canonical game is read and
//!   ranked too, and the line takes the one whose ranked line is shortest (`shortest_ranked_check`):
//!   the attacker mates as soon as he can in the composers' count. Not in the budgeted pass
//!   (`solve --futile skip`): there the reads cost the budget the defender's nodes further down
//!   need (docs/experiments.md, *the attacker's shortest ranked check in both passes*).
//!
//! A ranked line ranked again (the check's `line::rerank`, after settling): its defender nodes may
//! have taken a shorter reply than the canonical one, so the line's own lengths do not bound the
//! other replies. Each node is bounded instead by the root's proven canonical bound less its depth
//! (`Pass::bound`): along a line whose attacker moves are read from proven bounds (the canonical
//! line, and every continuation the pass splices in), a node `p` plies deep is proven within
//! `bound - p`, since the child of each move on it, the attacker's or the defender's, is proven within
//! one ply less than its parent. With the line's own lengths the second pass could never take back a
//! longer reply the first pass could not read within its cap (Zukou #56: the recorded 4i4h, 21 plies
//! without pieces over, whose line the budgeted pass could not read, so that a 17-ply reply stood;
//! `tests/problems/lines.rs`, `the_settled_line_ranked_again_takes_back_a_longer_reply`). On the
//! first pass the two bounds are the same.
//!
//! What the pass does not claim. Only "yes" answers change the line; a test that runs out of its
//! own cap counts the reply as one without spare mate, as does a reply the pass never tests (an
//! attacker node's other checks are read only where they mate within the line's canonical length
//! there, `shortest_ranked_check`). A test that the pass's budget or a user's limit stops answers
//! nothing: the walk ends there. So a ranked line is a real mate (it is verified like every line)
//! whose length is the composers' as far as the tests saw; it is not called exact. Each change
//! replaces the rest of the line with a complete mating line, so a pass that a limit ends halfway
//! still leaves a mate. The
//! pass has the node budget of a phase after the proof (`SearchConfig::phase_budget`). A test's cap
//! (`RANKING_TEST_NODES`, 30 000 nodes by default) is larger than spare tests at every node of the
//! canonical search could afford: here only the line's replies are tested. The cap, the budget, the
//! drops' capture test and the quarter cap of other replies were each chosen by the recorded
//! lengths they meet on Zukou and Shogi Musou with `--futile skip` (docs/benchmarks.md, *Composers'
//! lengths*; the design: docs/canonical.md, *The composers' ranking of the printed line*).

use super::composers::{Tests, composers_test};
use super::spare::after_reply_within;
use crate::position::Move;
use crate::position::movegen::{MoveList, check_gap, generate_checks, generate_evasions};
use crate::search::bounded::{At, bounded_search};
use crate::search::dfpn::{Searcher, Verdict};
use crate::search::frontier::is_interposition;
use crate::search::game::futile::futile_proof;
use crate::search::pv::exact::exact_line;
use crate::search::pv::walk::probe_child;
use crate::search::tt::UNBOUNDED;

/// One pass of the ranking: the node cap of its spare tests, and the composers' futility tests it
/// made, by the position tested (a node is ranked once, but a drop's test may be asked again).
struct Pass {
    cap: u64,
    /// A proven bound of the root's canonical minimax length: a node `p` plies deep on the line is
    /// proven within `bound - p` (module comment, *A ranked line ranked again*).
    bound: u32,
    /// The attacker's other checks are read and ranked too (`shortest_ranked_check`): only in the
    /// check's pass without a node budget, where the time is the user's.
    attacker: bool,
    tests: Tests,
    /// Some spare test (or the composers' test of a drop) ran out of its cap undecided: a pass with
    /// larger caps may answer it (`Ranked::capped`).
    capped: bool,
}

impl Pass {
    /// The bound of the node `at` whose line has `len` plies: the root's bound less the depth, or
    /// the line's own length where that is more (`Pass::bound`).
    fn left(&self, at: At, len: u32) -> u32 {
        self.bound.saturating_sub(at.ply).max(len)
    }
}

/// What a pass of the ranking returns.
pub struct Ranked {
    /// The line, ranked.
    pub moves: Vec<Move>,
    /// The ranking changed the line.
    pub changed: bool,
    /// Some test of the pass ran out of its own cap without an answer, so a pass with larger caps
    /// may read the line further (`line::rerank`'s widening rounds).
    pub capped: bool,
    /// The pass's budget or a user's limit ended it before the walk was done.
    pub cut: bool,
}

/// The canonical line `line` (from the current position, the root, in the canonical game) ranked as
/// the composers rank defences (module comment), and whether the ranking changed it. Leaves the
/// position and the path set as it found them.
pub fn rank(s: &mut Searcher, line: Vec<Move>) -> Ranked {
    let cap = s.config().ranking_test_nodes;
    let budget = s.phase_budget();
    let bound = line.len() as u32;
    rank_within(s, line, bound, cap, budget, false)
}

/// `rank` with each spare test capped at `cap` nodes, the pass ending at the node count `budget`
/// (`None`: only the user's limits), and `bound` a proven bound of the root's canonical length, no
/// less than the line's (`Pass::bound`; the line's own length bounds the nodes as `rank` does);
/// `attacker`: the attacker's other checks ranked too (`Pass::attacker`).
pub fn rank_within(
    s: &mut Searcher,
    line: Vec<Move>,
    bound: u32,
    cap: u64,
    budget: Option<u64>,
    attacker: bool,
) -> Ranked {
    if cap == 0 || line.len() < 3 || s.user_limit_reached() {
        return Ranked {
            moves: line,
            changed: false,
            capped: false,
            cut: false,
        };
    }
    // The canonical phase may have ended on its own budget; the pass has its own.
    s.budget.aborted = false;
    let saved_budget = s.budget.end;
    s.budget.end = budget;
    let root = At {
        ply: 0,
        path: s.path.root,
    };
    let begun = s.stats.nodes;
    let mut pass = Pass {
        cap,
        bound,
        attacker,
        tests: Tests::default(),
        capped: false,
    };
    let ranked = rank_or(s, root, line.clone(), &mut pass);
    log::debug!(
        "ranking: {} plies to {} in {} nodes{}",
        line.len(),
        ranked.len(),
        s.stats.nodes - begun,
        if s.budget.aborted {
            ", out of budget"
        } else {
            ""
        }
    );
    s.budget.end = saved_budget;
    let cut = s.budget.aborted;
    if s.budget.aborted && !s.user_limit_reached() {
        // Only the pass's own budget ended it.
        s.budget.aborted = false;
    }
    Ranked {
        changed: ranked != line,
        moves: ranked,
        capped: pass.capped,
        cut,
    }
}

/// From the OR node `at`: its canonical line `line` (a check, then the defender's node) with the
/// defender's node ranked.
fn rank_or(s: &mut Searcher, at: At, mut line: Vec<Move>, pass: &mut Pass) -> Vec<Move> {
    let Some(&check) = line.first() else {
        return line;
    };
    // The node's canonical bound, as at a defender's node (`rank_and`): on a line ranked already, a
    // check as short as the canonical line's may be longer than the ranked line.
    let k0 = pass.left(at, line.len() as u32);
    let rest = s.off_path_child(check, at.ply, at.path, |s, ply, path| {
        rank_and(s, At { ply, path }, &line[1..], pass)
    });
    if let Some(rest) = rest {
        line.truncate(1);
        line.extend(rest);
    }
    if pass.attacker {
        line = shortest_ranked_check(s, at, line, k0, pass);
    }
    line
}

/// The attacker takes the shortest ranked continuation: from the OR node `at`, proven within `k0`
/// plies in the canonical game, whose line is now `line` (its check's continuation ranked), every
/// other check that mates within `k0` in the canonical game ("mate within k0 − 1?" from its child,
/// within the pass's cap) has its exact line read and ranked; the line takes the first whose ranked
/// line is shorter than the best so far. Where the ranking shortened the line's own continuation
/// (a defence answered by a spare mate), another check as short in the canonical game may lead to
/// a shorter ranked line still (Zukou #47: after 7g7h the attacker's B*2c, itself a mate as short
/// as the line's 5h6g).
fn shortest_ranked_check(
    s: &mut Searcher,
    at: At,
    mut line: Vec<Move>,
    k0: u32,
    pass: &mut Pass,
) -> Vec<Move> {
    let Some(&check) = line.first() else {
        return line;
    };
    let mut checks = MoveList::new();
    generate_checks(&s.pos, &mut checks);
    for &m in checks.iter().filter(|&&m| m != check) {
        if s.budget.aborted || line.len() <= 1 || k0 < 2 {
            break;
        }
        let cap = pass.cap;
        let alt = s
            .within_cap(cap, |s| {
                s.off_path_child(m, at.ply, at.path, |s, ply, path| {
                    let child = At { ply, path };
                    if !bounded_search(s, child, k0 - 1).0 {
                        return None;
                    }
                    exact_line(s, child, k0 - 1, cap)
                })
                .flatten()
            })
            .and_then(|l| {
                s.off_path_child(m, at.ply, at.path, |s, ply, path| {
                    rank_and(s, At { ply, path }, &l, pass)
                })
            });
        if let Some(alt) = alt
            && !alt.is_empty()
            && alt.len() + 1 < line.len()
        {
            log::debug!(
                "ranking: ply {}: {check:?} ({} plies) gives way to the check {m:?} ({} plies)",
                at.ply,
                line.len(),
                alt.len() + 1
            );
            line = vec![m];
            line.extend(alt);
        }
    }
    line
}

/// From the defender node `at`: its canonical line `line` (a reply, then the attacker's node; empty
/// where the line ends) ranked: the reply is the one with the longest ranked continuation among the
/// replies that count and that no spare test answers yes (`drop_spared`, `reply_spared`); if every
/// reply is answered by a spare mate, the line's own reply. Replies are tried by upper bounds of
/// their lengths, longest first, until no bound can beat the best continuation found (a ranked
/// length is at most the canonical one: the defender only loses choices).
fn rank_and(s: &mut Searcher, at: At, line: &[Move], pass: &mut Pass) -> Vec<Move> {
    let Some(&chosen) = line.first() else {
        return vec![];
    };
    let k = line.len() as u32;
    // The node's own bound: its line's length on a minimax line, more where the line was ranked
    // already and took a shorter reply above or here.
    let left = pass.left(at, k);
    let mut moves = MoveList::new();
    generate_evasions(&s.pos, &mut moves);
    let gap = check_gap(&s.pos);
    // Each reply with an upper bound of its canonical length: the line's reply k − 1; the others their
    // recorded proofs within left − 1 (the node is proven within left, so every reply that counts
    // is), else left − 1 itself.
    let mut replies: Vec<(Move, u32)> = vec![(chosen, k - 1)];
    for &m in moves.iter() {
        if m == chosen || (is_interposition(m, gap) && futile_proof(&mut s.pos, m).is_some()) {
            continue;
        }
        let p = probe_child(s, at.path, m, left - 1);
        let bound = if p.is_proven() {
            u32::from(p.len).min(left - 1)
        } else {
            left - 1
        };
        replies.push((m, bound));
    }
    // Longest bound first; among equal bounds, the line's reply, then the order of generation.
    replies.sort_by_key(|&(_, bound)| std::cmp::Reverse(bound));
    let mut best: Option<Vec<Move>> = None;
    for (m, bound) in replies {
        if s.budget.aborted || best.as_ref().is_some_and(|b| b.len() as u32 > bound) {
            break;
        }
        // A drop's test does not depend on the length of its line: asked before the line is read.
        if m.is_drop() && drop_spared(s, at, m, pass) {
            continue;
        }
        let rest = s
            .off_path_child(m, at.ply, at.path, |s, ply, path| {
                let child = At { ply, path };
                let canonical = if m == chosen {
                    line[1..].to_vec()
                } else {
                    let before = s.stats.nodes;
                    let l = exact_line(s, child, bound, pass.cap);
                    log::trace!(
                        "ranking: ply {} {m:?}: line of {:?} plies (bound {bound}) in {} nodes",
                        at.ply,
                        l.as_ref().map(Vec::len),
                        s.stats.nodes - before
                    );
                    l?
                };
                Some(canonical)
            })
            .flatten();
        let Some(rest) = rest else {
            continue;
        };
        if !m.is_drop() && reply_spared(s, at, m, rest.len() as u32, pass.cap, &mut pass.capped) {
            continue;
        }
        if s.budget.aborted {
            // A limit stopped the test (not its own cap): its "no" is no answer, and a reply taken
            // on it could be one a finished test would have answered yes.
            break;
        }
        let rest = s
            .off_path_child(m, at.ply, at.path, |s, ply, path| {
                rank_or(s, At { ply, path }, rest.clone(), pass)
            })
            .unwrap_or(rest);
        if best.as_ref().is_none_or(|b| rest.len() + 1 > b.len()) {
            let mut ranked = vec![m];
            ranked.extend(rest);
            best = Some(ranked);
        }
    }
    if let Some(b) = &best
        && b[0] != chosen
    {
        log::debug!(
            "ranking: ply {}: {chosen:?} ({} plies) gives way to {:?} ({} plies)",
            at.ply,
            k - 1,
            b[0],
            b.len() - 1
        );
    }
    // Every reply answered by a spare mate: the line's own.
    best.unwrap_or_else(|| line.to_vec())
}

/// Whether a spare test of the ranking proves that the attacker forces a mate with pieces to spare
/// after the reply `m` from the defender node `at`: for a drop within any length (`drop_spared`),
/// for any other reply within `len` plies, its canonical length (`reply_spared`), each test within
/// the caps the pass gives it (`cap` the ranking's). Only a completed proof says yes. The check's
/// variations use it to name a longer reply the ranking puts below the line (`pv/variations.rs`).
pub fn answered_by_spare_mate(s: &mut Searcher, at: At, m: Move, len: u32, cap: u64) -> bool {
    if cap == 0 {
        // The ranking is off (`ranktest=0`): no test, no answer.
        return false;
    }
    if m.is_drop() {
        let mut pass = Pass {
            cap,
            bound: 0,
            attacker: false,
            tests: Tests::default(),
            capped: false,
        };
        drop_spared(s, at, m, &mut pass)
    } else {
        reply_spared(s, at, m, len, cap, &mut false)
    }
}

/// A spare test of a reply that is not a drop gets this fraction of the cap. Such tests seldom decide
/// (most end undecided, and most of those that answer yes do so within a small part of the cap),
/// and the pass's budget is better spent further down the line. Of the fractions measured, a
/// quarter met the most recorded lengths on Zukou and Shogi Musou (docs/benchmarks.md, *Composers'
/// lengths*).
const MOVE_TEST_SHARE: u64 = 4;

/// Whether the attacker forces a spare mate (of any length) after the drop interposition `m` from
/// the defender node `at`.
///
/// First the composers' futility test (`composers::composers_test`: the checker captures the drop
/// and the attacker mates without the piece, the piece handed back to the defender). A mate there
/// is a spare mate after the drop: the attacker captures, then plays the test's mating strategy;
/// the defender of the real position holds one piece fewer than the test's, so it has no reply the
/// test did not answer, and the mate ends with at least the captured piece in hand. That test is an
/// ordinary mate search (mate in one, the frontier and the main table serve it) and settles most
/// drops the spare game's own search leaves undecided within the same cap (Zukou #79's P*5d after
/// R*5c, which the spare search leaves undecided within the default cap). Then that search.
fn drop_spared(s: &mut Searcher, at: At, m: Move, pass: &mut Pass) -> bool {
    let before = s.stats.nodes;
    match composers_test(s, &mut pass.tests, m, at.ply, pass.cap) {
        Verdict::Mate(_) => {
            log::trace!("ranking: ply {} {m:?}: captured, mated without it", at.ply);
            return true;
        }
        t => pass.capped |= ran_out(&t, s.stats.nodes - before, pass.cap),
    }
    spare_test(s, at, m, UNBOUNDED, pass.cap, &mut pass.capped)
}

/// Whether the attacker forces a spare mate of at most `len` plies (the reply's canonical length)
/// after the reply `m`, not a drop, from the defender node `at`; the test gets a share of the cap
/// (`MOVE_TEST_SHARE`). `capped` is set if the test ran out of it.
fn reply_spared(s: &mut Searcher, at: At, m: Move, len: u32, cap: u64, capped: &mut bool) -> bool {
    spare_test(s, at, m, len, cap / MOVE_TEST_SHARE, capped)
}

/// Whether a test that answered `t` after `spent` nodes ran out of its `cap` undecided (a test that
/// ends on its search's own answer within fewer nodes, a bounded "no" included, did not): a larger
/// cap may answer it.
fn ran_out(t: &Verdict, spent: u64, cap: u64) -> bool {
    *t == Verdict::Unknown && spent >= cap
}

/// The spare game's own search after `m` (`spare::after_reply_within`), for mates of at most
/// `plies`; `capped` is set if it ran out of its cap undecided (`ran_out`).
fn spare_test(s: &mut Searcher, at: At, m: Move, plies: u32, cap: u64, capped: &mut bool) -> bool {
    let before = s.stats.nodes;
    let t = after_reply_within(s, m, at.ply, cap, plies);
    *capped |= ran_out(&t, s.stats.nodes - before, cap);
    log::trace!(
        "ranking: ply {} {m:?} (within {plies}): spare test {t:?} in {} nodes",
        at.ply,
        s.stats.nodes - before
    );
    matches!(t, Verdict::Mate(_))
}
