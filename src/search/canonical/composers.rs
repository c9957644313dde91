//! The composers' futility test: a drop interposition is futile when the checker captures it and
//! the attacker mates without the captured piece, however long that takes.
//!
//! The reading most composers give in words ("definition 1" in yaneuraou's article on the subject,
//! and Wikipedia's 合駒 article): the checker captures the dropped piece and the attacker then mates
//! *without it*, however long that takes. It is not the search's rule (it reads edge-cases.tsv's
//! edge-47, canonical 5 by its source, as 3: docs/canonical.md), but the composers' ranking uses it
//! as a test (`composers_test`): a strict mate after the capture, with the captured piece handed
//! back to the defender, is a spare mate after the drop (`ranking.rs`, `drop_spared`).

use crate::position::Hand;
use crate::position::Move;
use crate::position::movegen::{MoveList, generate_checks};
use crate::search::dfpn::{Searcher, Verdict};
use crate::search::game::Game;
use crate::search::loops::KeyHasher;
use crate::search::node::Seen;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// The tests of one canonical phase by the full key of the position tested, with the node cap each
/// was searched with: a node is expanded many times, and a test that ran out of nodes would run out
/// again under the same cap.
pub type Tests = HashMap<u64, (Verdict, u64), BuildHasherDefault<KeyHasher>>;

/// The composers' rule ("definition 1") for the drop `m`: the checker captures the dropped piece
/// (promoting or not, as the attacker likes) and the attacker mates without it. Tested on the
/// position after the capture with the captured piece handed back to the defender — the same for
/// every kind dropped on that square — for a mate of any length in the strict game.
/// * `Mate`: the drop is futile; the test's proof hand is the drop's (the position tested has the
///   attacker's hand of the drop's node, so with any hand covering it the capture mates again).
/// * `NoMate`: the drop counts; the test's disproof hand (the smallest over the captures) bounds the
///   hands for which that holds, so a refutation through the drop carries it.
///
/// Each strict search is capped at `cap` nodes. Verdicts are kept per tested position for the phase
/// (`tests`); a kept `Unknown` is reused only by a test whose cap is no larger than the one that left
/// it undecided.
pub fn composers_test(s: &mut Searcher, tests: &mut Tests, m: Move, ply: u32, cap: u64) -> Verdict {
    let checkers = s.pos.checkers();
    if !m.is_drop() || checkers.is_empty() || checkers.has_more_than_one() {
        return Verdict::NoMate(Hand::FULL);
    }
    let checker = checkers.first();
    let kind = m.drop_kind();
    let attacker = s.attacker();
    s.pos.do_move(m);
    let mut captures = MoveList::new();
    generate_checks(&s.pos, &mut captures);
    let mut verdict = Verdict::NoMate(Hand::FULL);
    for &c in captures
        .iter()
        .filter(|c| !c.is_drop() && c.from() == checker && c.to() == m.to())
    {
        s.pos.do_move(c);
        s.pos.transfer_hand_piece(attacker, kind);
        let key = s.pos.key();
        let v = match tests.get(&key) {
            Some(&(v, tried)) if v != Verdict::Unknown || cap <= tried => v,
            _ => {
                let v = strict_mate_here(s, ply + 2, cap);
                tests.insert(key, (v, cap));
                v
            }
        };
        s.pos.transfer_hand_piece(attacker.flip(), kind);
        s.pos.undo_move(c);
        verdict = match (verdict, v) {
            (_, Verdict::Mate(h)) => {
                verdict = Verdict::Mate(h);
                break;
            }
            (Verdict::NoMate(a), Verdict::NoMate(b)) => Verdict::NoMate(a.min(b)),
            _ => Verdict::Unknown,
        };
    }
    s.pos.undo_move(m);
    verdict
}

/// Whether the current AND node (at `ply`) is a mate in the strict game, searched from a fresh path
/// within `cap` nodes.
fn strict_mate_here(s: &mut Searcher, ply: u32, cap: u64) -> Verdict {
    // The phases after the proof lift the depth limit (`pv::extract`); a test keeps to the main
    // search's first one (a line cut there only leaves the test undecided).
    let max_ply = s
        .depth
        .max_ply
        .saturating_sub(ply)
        .min(s.config().max_ply)
        .max(2);
    let game = Game::main(s.main_salt());
    s.nested(game, cap, max_ply, Seen::Before).verdict()
}
