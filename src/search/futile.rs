//! Futile interpositions (無駄合) and the canonical mate length.
//!
//! Composers do not count an interposition that the attacker simply captures, after which the mate
//! goes on without the captured piece: it only lengthens the solution by two plies. Their recorded
//! lengths (Zukou's, Microcosmos') follow that convention; the minimax length counts every evasion.
//!
//! ## The rule, as kanju reads it
//! The defender is in check from one distant piece (a lance, bishop, rook, horse or dragon with empty
//! squares between it and the king). A **drop interposition** on one of those squares `s` is
//! **futile** when the checking piece can capture it (a legal move to `s`, promoting or not) and the
//! defender is then left without any legal move but further drops: no king move, no capture, no
//! interposition by a piece on the board. The further drops are judged by the same rule at the next
//! node, so a chain of interpositions each captured by the checker (edge-3 below) is futile all along.
//!
//! Readings taken where composers differ (the rule of antma/tsumeshogi-check, whose labels the
//! `edge-cases.tsv` canonical lengths follow):
//! * Only drops can be futile: an interposition by a piece already on the board (移動合) always counts.
//! * Only the checking piece's capture is considered, and the position after it must be mated at
//!   once (but for drops): an interposition after whose capture the mate goes on for more moves
//!   counts, even if the captured piece is never needed.
//! * The rule looks at the board only, never at hands: whether a drop is futile does not depend on
//!   the attacker's hand (the capture is a board move, and the defender's moves it counts are board
//!   moves), so a futile child needs no proof hand.
//!
//! ## The composers' rule (`--config futiletest=N`, off by default)
//! The reading most composers give in words ("definition 1" in yaneurao's article on the subject,
//! and Wikipedia's 合駒 article): the checker captures the dropped piece and the attacker then mates
//! *without it*, however long that takes. Tested on the position after the capture with the captured
//! piece handed back to the defender (`composers_test`; the same position whatever kind was
//! dropped on that square): a strict mate there, searched within N nodes, makes the drop futile.
//! Soundness of the hands it carries:
//! * futile: the test's proof hand is the drop's — the tested position has the attacker's hand of
//!   the drop's node, and with any hand covering the proof hand the capture leads to a mate again;
//! * counted: a refutation through the drop holds only while the test stays "no mate", so its
//!   disproof hand is capped by the test's (`excuse_futile_refutations`); a test that ran out of
//!   nodes caps it at the hand itself and marks the canonical length as not known to be exact.
//!
//! The test searches, so it is made lazily: only of a drop that refutes a bounded search's bound
//! (a drop mated within the bound needs no excuse), once per position tested in a canonical phase
//! (`Dfpn::futile_tests`). Mate-1's "no mate in one" is not reused in the canonical game under
//! this rule where some check is answered by drops only (`may_mate_in_one`).
//!
//! Measured on Zukou (`kanju bench --time-ms 30000 --futile skip [--config futiletest=5000]`, the
//! file in two halves side by side): printed length = recorded length on 61 of 101 mates, 57 with
//! the narrow rule, in about the same time (123.6 s against 131.3 s in all). It is not the default
//! because it reads `edge-cases.tsv` edge-47 (`l6nl/3+R1pk2/…`, canonical 5 by its source) as 3:
//! after B*5d 3b2b 6b4b, a drop on 3b is captured by the dragon and the king escapes, but the
//! attacker mates without the piece, so by definition 1 it is futile, while the source counts it
//! (the capture lengthens the mate: the narrow rule). The reading that fits both — a drop is futile
//! when, once captured, the mate takes no more moves than it would had the drop not been there —
//! needs the canonical length of the node without the drop, and is the next step.
//!
//! ## Table soundness
//! Canonical lengths are not minimax lengths, so the bounded searches of the canonical game store
//! their results under a table salt of their own (`CANONICAL_SALT`): a strict "no mate within d"
//! would be wrong for them, and theirs for the strict game. Mate or no mate is the same in both games
//! (a futile drop is captured into a position whose defender has only drops left, each futile again,
//! and the board is finite), but the canonical searches do not rely on general disproofs of the
//! strict game.
//!
//! They do read its **proofs** (`Dfpn::with_strict_proof`, `--config strictproofs=on`, the
//! default): a position the strict game proves within d plies is a canonical mate within d. The
//! canonical game is the strict one with some defender replies taken away (futile drops, and with
//! spare tests replies answered by a spare mate) and with a line ending, not counted, where only such
//! replies are left; the attacker's moves and the rules (pawn-drop mate included) are the same. So the
//! strict proof's strategy is a canonical one: every canonical defence is a strict defence it answers,
//! and each of its lines ends no later than the strict line. Its proof hand carries over for the same
//! reason (any hand covering it mates strictly, hence canonically). The strict table holds such proofs
//! wherever the proof or the exact line phase went, which the canonical phase, starting from an empty
//! table of its own, would otherwise prove again, length-bounded and without the main search's
//! look-ahead. Zukou #89 (`tests/problems/lines.rs`): at ply 19 of the canonical line the composers'
//! ranking reads the line after the king's 7c6b within 21 plies; without the strict proofs that
//! bounded search spent the pass's whole budget (403 000 nodes) and the line stayed 43 plies.

use super::dfpn::{Dfpn, Seen};
use super::frontier::is_interposition;
use super::loops::{KeyHasher, ROOT_PATH};
use super::node::Child;
use super::numbers::INF;
use super::numbers::PN_MAX;
use super::spare::Saved;
use super::tt::{Probe, UNBOUNDED};
use crate::position::movegen::{MoveList, check_gap, generate_checks, generate_evasions};
use crate::position::{Bitboard, Hand, Move, Square};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// What a composers' futility test found for a position (the capture's, the piece handed back).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A strict mate: the drops are futile; the proof hand.
    Mated(Hand),
    /// No mate (for every path): the drops count; the disproof hand.
    Free(Hand),
    /// Not decided within the cap: the drops count, and the canonical length is not known exact.
    Unknown,
}

/// The tests of one canonical phase by the full key of the position tested, with the node cap each
/// was searched with: a node is expanded many times, and a test that ran out of nodes would run out
/// again under the same cap.
pub type Tests = HashMap<u64, (Verdict, u64), BuildHasherDefault<KeyHasher>>;

/// Mixed into the table salt while the canonical game is searched.
pub const CANONICAL_SALT: u64 = 0x6d75_6461_6169_0001;

/// How interpositions count in the printed line and its length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Futile {
    /// Every legal evasion counts: the minimax length.
    #[default]
    Count,
    /// Futile interpositions are no defence: the canonical (composer's) length.
    Skip,
}

impl Futile {
    /// Parses the USI / command-line spelling (`count`, `skip`), case-insensitively.
    pub fn parse(s: &str) -> Option<Futile> {
        match s.trim().to_ascii_lowercase().as_str() {
            "count" => Some(Futile::Count),
            "skip" => Some(Futile::Skip),
            _ => None,
        }
    }

    /// The USI spelling.
    pub fn usi_name(self) -> &'static str {
        match self {
            Futile::Count => "Count",
            Futile::Skip => "Skip",
        }
    }
}

/// Whether the defender's move `m` (legal in the current position, the defender in check, an
/// interposition) is a futile drop interposition under the rule `SearchConfig::futile_test_nodes`
/// selects; if so, the proof hand it needs. `ply`: the current node's ply (nested searches keep
/// within the depth limit). A composers' test that ends undecided counts the drop and marks the
/// canonical length as not known to be exact.
pub(super) fn futile_proof(s: &mut Dfpn, m: Move, ply: u32) -> Option<Hand> {
    if s.config.futile_test_nodes == 0 {
        return narrow(s, m);
    }
    match composers_test(s, m, ply, s.config.futile_test_nodes) {
        Verdict::Mated(proof) => Some(proof),
        Verdict::Free(_) => None,
        Verdict::Unknown => {
            s.undecided_test = true;
            None
        }
    }
}

/// The narrow rule (antma/tsumeshogi-check's): the checker captures and the defender is left with
/// drops only. Needs no proof hand: the rule reads the board only.
fn narrow(s: &mut Dfpn, m: Move) -> Option<Hand> {
    let checkers = s.pos.checkers();
    if !m.is_drop() || checkers.is_empty() || checkers.has_more_than_one() {
        return None;
    }
    let checker = checkers.first();
    s.pos.do_move(m);
    let mut checks = MoveList::new();
    generate_checks(&s.pos, &mut checks);
    let mut futile = false;
    for &c in checks
        .iter()
        .filter(|c| !c.is_drop() && c.from() == checker && c.to() == m.to())
    {
        s.pos.do_move(c);
        let mut evasions = MoveList::new();
        generate_evasions(&s.pos, &mut evasions);
        futile = evasions.iter().all(|e| e.is_drop());
        s.pos.undo_move(c);
        if futile {
            break;
        }
    }
    s.pos.undo_move(m);
    futile.then_some(Hand::EMPTY)
}

/// The composers' rule ("definition 1") for the drop `m`: the checker captures the dropped piece
/// (promoting or not, as the attacker likes) and the attacker mates without it. Tested on the
/// position after the capture with the captured piece handed back to the defender — the same for
/// every kind dropped on that square — for a mate of any length in the strict game.
/// * Mated: the drop is futile; the test's proof hand is the drop's (the position tested has the
///   attacker's hand of the drop's node, so with any hand covering it the capture mates again).
/// * Free: the drop counts; the test's disproof hand (the smallest over the captures) bounds the
///   hands for which that holds, so a refutation through the drop carries it.
///
/// Each strict search is capped at `cap` nodes. Verdicts are kept per tested position for the phase
/// (`Dfpn::futile_tests`); a kept `Unknown` is reused only by a test whose cap is no larger than the
/// one that left it undecided.
pub(super) fn composers_test(s: &mut Dfpn, m: Move, ply: u32, cap: u64) -> Verdict {
    let checkers = s.pos.checkers();
    if !m.is_drop() || checkers.is_empty() || checkers.has_more_than_one() {
        return Verdict::Free(Hand::FULL);
    }
    let checker = checkers.first();
    let kind = m.drop_kind();
    let attacker = s.attacker;
    s.pos.do_move(m);
    let mut captures = MoveList::new();
    generate_checks(&s.pos, &mut captures);
    let mut verdict = Verdict::Free(Hand::FULL);
    for &c in captures
        .iter()
        .filter(|c| !c.is_drop() && c.from() == checker && c.to() == m.to())
    {
        s.pos.do_move(c);
        s.pos.transfer_hand_piece(attacker, kind);
        let key = s.pos.key();
        let v = match s.futile_tests.get(&key) {
            Some(&(v, tried)) if v != Verdict::Unknown || cap <= tried => v,
            _ => {
                let v = strict_mate_here(s, ply + 2, cap);
                s.futile_tests.insert(key, (v, cap));
                v
            }
        };
        s.pos.transfer_hand_piece(attacker.flip(), kind);
        s.pos.undo_move(c);
        verdict = match (verdict, v) {
            (_, Verdict::Mated(h)) => {
                verdict = Verdict::Mated(h);
                break;
            }
            (Verdict::Free(a), Verdict::Free(b)) => Verdict::Free(a.min(b)),
            _ => Verdict::Unknown,
        };
    }
    s.pos.undo_move(m);
    verdict
}

/// Whether the current AND node (at `ply`) is a mate in the strict game, searched from a fresh path
/// within `cap` nodes.
fn strict_mate_here(s: &mut Dfpn, ply: u32, cap: u64) -> Verdict {
    let saved = Saved::take(s);
    let key = s.pos.key();
    s.path.insert(key, 0);
    s.salt = s.main_salt;
    s.futile_skip = false;
    s.spare = false;
    s.horizon = UNBOUNDED;
    let cap = s.nodes + cap;
    s.node_budget = Some(s.node_budget.map_or(cap, |b| b.min(cap)));
    // The phases after the proof lift the depth limit (`pv::extract`); a test keeps to the main
    // search's first one (a line cut there only leaves the test undecided).
    s.max_ply = s.max_ply.saturating_sub(ply).min(s.config.max_ply).max(2);
    let root_path = ROOT_PATH ^ key ^ s.salt;
    let r = s.mid(PN_MAX, PN_MAX, 0, root_path, Seen::Before);
    saved.restore(s);
    if s.aborted && !s.limit_reached() {
        // Only the test's own cap stopped it.
        s.aborted = false;
    }
    if r.pn == 0 {
        Verdict::Mated(r.hand)
    } else if r.dn == 0 && r.dep.is_general() {
        Verdict::Free(r.hand)
    } else {
        Verdict::Unknown
    }
}

impl Dfpn<'_> {
    /// The canonical game's probe `own` of the position `board_key` (unsalted), the attacker holding
    /// `hand`, completed by the strict game: where `own` decides nothing, the strict game's proof
    /// of the position when it mates within `budget` plies — a canonical mate within `budget` with
    /// the same proof hand and length bound (module comment, *Table soundness*). Any other game (the
    /// spare game reads strict proofs its own way) gets `own` back.
    #[inline]
    pub(super) fn with_strict_proof(
        &self,
        own: Probe,
        board_key: u64,
        hand: Hand,
        budget: u32,
    ) -> Probe {
        if own.is_proven()
            || own.is_disproven()
            || !self.futile_skip
            || self.spare
            || !self.config.strict_proofs
        {
            return own;
        }
        let q = self
            .tt
            .probe(board_key ^ self.main_salt, hand, 0, UNBOUNDED);
        if q.is_proven() && u32::from(q.len) <= budget {
            q
        } else {
            own
        }
    }

    /// The canonical game: marks the futile drop interpositions among the children `base..end` of an
    /// AND node (proven, no defence; `futile.rs`). After the children are pushed, since a test may
    /// search (and use the move buffers). Drops on one square share one test: the rule looks at the
    /// position after the checker's capture with the dropped piece handed back, the same whatever
    /// was dropped.
    pub(super) fn mark_futile(&mut self, base: usize, end: usize, gap: Bitboard, ply: u32) {
        let mut tested: [(Option<Square>, Option<Hand>); 8] = [(None, None); 8];
        for i in base..end {
            let m = self.children[i].mv;
            if !is_interposition(m, gap) || !m.is_drop() {
                continue;
            }
            let proof = match tested.iter().find(|t| t.0 == Some(m.to())) {
                Some(&(_, proof)) => proof,
                None => {
                    let proof = futile_proof(self, m, ply);
                    if let Some(slot) = tested.iter_mut().find(|t| t.0.is_none()) {
                        *slot = (Some(m.to()), proof);
                    }
                    proof
                }
            };
            if let Some(proof) = proof {
                let c = &mut self.children[i];
                (c.pn, c.dn, c.len, c.hand, c.futile) = (0, INF, 0, proof, true);
            }
        }
    }

    /// At an AND node of the canonical game (composers' rule) whose children `base..end` include a
    /// refutation of the bound: the test is made only here, lazily (a drop proven within the bound
    /// needs no excuse, and most drops are never a refutation). Each refuting drop interposition is
    /// tested in turn; a futile one becomes no defence (proven with the test's proof hand). Stops at
    /// the first refutation that stands: a reply that is no drop, or a drop the test lets count
    /// (whose disproof hand then also covers the test's). Returns whether some child was excused.
    pub(super) fn excuse_futile_refutations(
        &mut self,
        base: usize,
        end: usize,
        ply: u32,
        path: u64,
    ) -> bool {
        if self.config.futile_test_nodes == 0 {
            return false;
        }
        let gap = check_gap(&self.pos);
        let refuting = |c: &Child| c.active && c.dn == 0 && !c.futile;
        let stands = |c: &Child| !c.mv.is_drop() || !is_interposition(c.mv, gap);
        if self.children[base..end]
            .iter()
            .any(|c| refuting(c) && stands(c))
        {
            return false;
        }
        let mut changed = false;
        for i in base..end {
            let c = self.children[i];
            if !refuting(&c) {
                continue;
            }
            match composers_test(self, c.mv, ply, self.config.futile_test_nodes) {
                Verdict::Mated(proof) => {
                    self.excuse_child(i, proof, false, ply, path);
                    changed = true;
                }
                Verdict::Free(d) => {
                    self.keep_refutation(i, Some(d));
                    return changed;
                }
                Verdict::Unknown => {
                    self.keep_refutation(i, None);
                    return changed;
                }
            }
            if self.aborted {
                return changed;
            }
        }
        changed
    }
}

/// Whether some check of the current OR node leaves the defender nothing but futile drops (or no
/// move at all). Without such a check the canonical game has a mate in one exactly where the strict
/// game has one (a check answered by one evasion that is not a futile drop is answered in both games),
/// so mate-1's "no mate in one" holds in the canonical game too.
pub(super) fn may_mate_in_one(s: &mut Dfpn) -> bool {
    let mut checks = MoveList::new();
    generate_checks(&s.pos, &mut checks);
    let mut evasions = MoveList::new();
    for &c in checks.iter() {
        s.pos.do_move(c);
        evasions.clear();
        generate_evasions(&s.pos, &mut evasions);
        let futile_only = evasions.iter().all(|e| e.is_drop())
            && (s.config.futile_test_nodes > 0 || evasions.iter().all(|&e| narrow(s, e).is_some()));
        s.pos.undo_move(c);
        if futile_only {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::dfpn::RootResult;
    use crate::search::node::tests::fresh_search;

    /// Zukou #89 after its 20th move (the king's 7c6b): a strict mate in 19 exactly.
    const AFTER_7C6B: &str = "3B5/n2k1l3/1B1sP4/9/3P5/1SR6/9/9/9 b r4g2s3n3l16p 21";

    /// Proves `AFTER_7C6B` strictly within 19 plies, then asks the canonical game "mate within 19?"
    /// on the same table: whether it is proven, and in how many nodes.
    fn canonical_after_strict(spec: &str) -> (bool, u64) {
        fresh_search(AFTER_7C6B, spec, |s| {
            assert_eq!(s.run(), RootResult::Proven);
            let within = |s: &mut Dfpn, plies: u32| {
                s.horizon = plies;
                let r = s.mid(PN_MAX, PN_MAX, 0, s.root_path, Seen::Before);
                s.horizon = UNBOUNDED;
                r.pn == 0
            };
            assert!(within(s, 19), "the strict game mates within 19");
            s.futile_skip = true;
            s.salt = s.main_salt ^ CANONICAL_SALT;
            let before = s.nodes;
            let proven = within(s, 19);
            (proven, s.nodes - before)
        })
    }

    /// The canonical game reads the strict game's proofs (module comment, *Table soundness*): its
    /// bounded search is proven at once from the strict proof within the same budget; on its own
    /// table it searches afresh.
    #[test]
    fn a_canonical_bounded_search_reads_the_strict_game_s_proofs() {
        let (proven, nodes) = canonical_after_strict("strictproofs=on");
        assert!(proven && nodes <= 1, "proven {proven} in {nodes} nodes");
        let (_, nodes) = canonical_after_strict("strictproofs=off");
        assert!(nodes > 1_000, "{nodes} nodes without the strict proofs");
    }

    #[test]
    fn parses_its_spellings() {
        assert_eq!(Futile::parse("SKIP"), Some(Futile::Skip));
        assert_eq!(Futile::parse(" count "), Some(Futile::Count));
        assert_eq!(Futile::parse("maybe"), None);
        assert_eq!(Futile::parse(Futile::Skip.usi_name()), Some(Futile::Skip));
    }
}
