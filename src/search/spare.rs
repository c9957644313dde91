//! Mates with pieces to spare (駒余り) and the composer's ranking of defences.
//!
//! A tsume problem's intended line ends with the attacker's hand empty. Composers rank a defence after
//! which the attacker can force a mate that ends with pieces left in hand (a *spare* mate) below every
//! defence after which it cannot, whatever the lengths: such a variation is "駒余り", never the main
//! line, and not a flaw even when it is longer (長手数駒余り). This is what makes most interpositions
//! futile in the composer's sense without any special rule: the attacker captures the interposed piece
//! and mates without needing it, so the piece is left over. kanju follows the reading described in the
//! shtsume notes (§4.1): the value of a position is the pair (spare or not, length), the defender
//! preferring any line without pieces to spare, then the longest, the attacker the other way round.
//!
//! ## The spare game
//! "Can the attacker force a spare mate from P?" is a mate search of its own: the same moves and
//! repetition rule, but a mated position counts for the attacker only if it holds a piece in hand (an
//! exact mate counts as a refutation). `Dfpn::spare` switches the search to it, under a table salt of
//! its own. Hands stay sound: with more pieces the attacker can follow the same strategy against a
//! defender holding less, and still ends with a piece in hand, so spare mates are monotone in the hand
//! like mates, and every rule of `hands.rs` holds for them; the one new rule is the mated position's
//! proof hand (`hands::spare_mate_proof`). Mate-in-one and the 3-ply frontier look for any mate: the
//! spare game takes mate-1's mate where it leaves a piece in hand, and its "no mate in one" (no mate
//! is no spare mate) two plies above a bounded test's horizon (`Dfpn::spare_leaf`; the look-ahead
//! likewise); a mate-1 mate with an empty hand decides nothing (another mate might leave a piece),
//! and the 3-ply frontier is not used.
//!
//! ## The canonical game with spare mates (experimental: off by default)
//! By default the ranking is applied to the printed line only, after the canonical search
//! (`pv/ranking.rs`, which asks this module's tests of the line's replies). Inside the search:
//! With `--config sparetest=<nodes>` (`SearchConfig::spare_test_nodes`; 0, the default, turns it off)
//! a defence in the canonical game (`futile.rs`) after which the attacker forces a spare mate is no
//! defence, exactly like a futile drop — unless every reply that is not a futile drop is one (then
//! all count: a node is never emptied by this rule, which would let a long spare mate from the root
//! collapse the whole line to one ply, as literal application of the ranking does on Zukou #36 and
//! #82). It is off by default for its cost: a spare test rarely proves "no", so lengths are seldom
//! exact and, without a phase budget, the canonical phase runs to the time limit (README). The
//! reading itself is the composers' as far as measured: an exhaustive search at the nodes where
//! Zukou's recorded lines part from kanju's agrees with the records under it, not under the reading
//! "a reply is avoided only when the attacker's *shortest* mate after it leaves pieces over". The test is lazy: a bounded canonical search asks it only of a reply that refutes its
//! bound ("no mate within d" after it), since a reply mated within the bound needs no excuse. Each test is
//! a search from the reply's position with a fresh path (the property belongs to the position, not to
//! how it was reached) and a node cap (`SearchConfig::spare_test_nodes`); a test that ends without an answer counts the
//! reply as a defence, and marks the canonical result as not known to be exact (`Dfpn::undecided_test`).

use super::dfpn::{Dfpn, Seen};
use super::loops::{Dependence, NO_MATE_PLIES, PathBoards, PathMap, ROOT_PATH};
use super::numbers::{INF, PN_MAX};
use crate::position::{Hand, Move};

/// Mixed into the table salt while the spare game is searched.
pub const SPARE_SALT: u64 = 0x7370_6172_6500_0001;

/// What a spare test found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Spare {
    /// The attacker forces a spare mate; its proof hand.
    Yes(Hand),
    /// It does not; the disproof hand.
    No(Hand),
    /// Not decided within the cap.
    Unknown,
}

/// Whether the attacker forces a spare mate after the defender's move `m` from the current AND node,
/// searched to a decision within `SearchConfig::spare_test_nodes` (module comment; `Unknown` when that
/// is 0). The node is at `ply` of the current
/// search; the test's depth limit keeps the whole recursion within the search's.
pub(super) fn after_reply(s: &mut Dfpn, m: Move, ply: u32) -> Spare {
    after_reply_within(s, m, ply, s.config.spare_test_nodes, super::tt::UNBOUNDED)
}

/// `after_reply` with a node cap of its own (0: `Unknown` at once), for spare mates of at most
/// `plies` plies after `m` (`UNBOUNDED`: of any length).
pub(super) fn after_reply_within(s: &mut Dfpn, m: Move, ply: u32, cap: u64, plies: u32) -> Spare {
    if cap == 0 {
        return Spare::Unknown;
    }
    s.pos.do_move(m);
    let r = test_here(s, ply + 1, cap, plies);
    s.pos.undo_move(m);
    r
}

/// The state of the search a nested test (a spare test, a futile-interposition test) changes,
/// restored after it.
pub(super) struct Saved {
    path: PathMap,
    boards: PathBoards,
    salt: u64,
    futile_skip: bool,
    spare: bool,
    horizon: u32,
    node_budget: Option<u64>,
    max_ply: u32,
}

impl Saved {
    /// Saves the state, leaving an empty path.
    pub(super) fn take(s: &mut Dfpn) -> Saved {
        Saved {
            path: std::mem::take(&mut s.path),
            boards: std::mem::take(&mut s.boards),
            salt: s.salt,
            futile_skip: s.futile_skip,
            spare: s.spare,
            horizon: s.horizon,
            node_budget: s.node_budget,
            max_ply: s.max_ply,
        }
    }

    pub(super) fn restore(self, s: &mut Dfpn) {
        s.path = self.path;
        s.boards = self.boards;
        s.salt = self.salt;
        s.futile_skip = self.futile_skip;
        s.spare = self.spare;
        s.horizon = self.horizon;
        s.node_budget = self.node_budget;
        s.max_ply = self.max_ply;
    }
}

/// The spare test of the current position (an OR node at `ply`), within `cap` nodes, for spare mates
/// of at most `plies` plies (`UNBOUNDED`: any).
fn test_here(s: &mut Dfpn, ply: u32, cap: u64, plies: u32) -> Spare {
    if let Some(proof) = surplus_witness(s, plies) {
        return Spare::Yes(proof);
    }
    let saved = Saved::take(s);
    let key = s.pos.key();
    s.path.insert(key, 0);
    s.salt = s.main_salt ^ SPARE_SALT;
    // Futile drops are no defence here either: a line that ends where only they are left ends there,
    // spare or not by the hand it has (a spare test that let the defender drop them would call every
    // such ending spare: the captured drop is left over).
    s.futile_skip = true;
    s.spare = true;
    s.horizon = plies;
    let cap = s.nodes + cap;
    s.node_budget = Some(s.node_budget.map_or(cap, |b| b.min(cap)));
    s.max_ply = s.max_ply.saturating_sub(ply).max(2);
    let root_path = ROOT_PATH ^ key ^ s.salt;
    // `Seen::New`: the root may be a spare mate in one (`Dfpn::spare_leaf`).
    let r = s.mid(PN_MAX, PN_MAX, 0, root_path, Seen::New);
    saved.restore(s);
    if s.aborted && !s.limit_reached() {
        // Only the test's own cap stopped it.
        s.aborted = false;
    }
    if r.pn == 0 {
        Spare::Yes(r.hand)
    } else if r.dn == 0 && r.dep.is_general() {
        Spare::No(r.hand)
    } else {
        Spare::Unknown
    }
}

/// A spare mate read off the ordinary game's table, without a search: the current position (attacker
/// to move) is proven there with a proof hand P that the attacker's hand H exceeds.
///
/// Argument: P's proof is a mating strategy for any attacker hand covering P (`hands.rs`). Played
/// with H = P + X, it never drops a piece of X, so X is in hand at every position of it, the mate
/// included. The defender, holding X less, has a subset of the same moves; a line of the canonical
/// game ends sooner where only futile drops are left (still with X in hand). So the attacker forces a
/// mate with pieces to spare, and P plus one piece of X (any kind: every hand covering it is such an
/// H) is a proof hand of the spare game. Proven entries are general (never path-dependent), and every
/// proof of the table's ordinary salt is a mate of the strict game, a canonical mate a fortiori.
fn surplus_witness(s: &Dfpn, plies: u32) -> Option<Hand> {
    let hand = s.pos.hand(s.attacker);
    let key = s.pos.board_key() ^ s.main_salt;
    let p = s.tt.probe(key, hand, 0, plies);
    if !p.is_proven() || u32::from(p.len) > plies {
        return None;
    }
    surplus_proof(hand, p.hand)
}

/// The spare game's proof hand of a position the ordinary game proves with proof hand `proof`, where
/// the attacker holds `hand`: `proof` plus one piece `hand` has over it, if `hand` covers `proof` and
/// exceeds it (`surplus_witness` has the argument, for either side to move).
pub(super) fn surplus_proof(hand: Hand, proof: Hand) -> Option<Hand> {
    if !hand.covers(proof) {
        return None;
    }
    let k = hand.saturating_sub(proof).kinds().next()?;
    Some(proof.added(k))
}

/// Whether a spare test already answered yes for the reply `m` from the current AND node (the table of
/// the spare game holds the proof), without searching.
pub(super) fn known_spare(s: &mut Dfpn, m: Move) -> bool {
    if s.config.spare_test_nodes == 0 {
        return false;
    }
    s.pos.do_move(m);
    let key = s.pos.board_key() ^ s.main_salt ^ SPARE_SALT;
    let hand = s.pos.hand(s.attacker);
    let p = s.tt.probe(key, hand, 0, super::tt::UNBOUNDED);
    s.pos.undo_move(m);
    p.is_proven()
}

/// What `Dfpn::excuse_spare_refutations` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Excuse {
    /// Nothing changed: a refutation stands.
    Unchanged,
    /// Some refutations became no defence: take the node's numbers again.
    Changed,
    /// Every reply that counts is answered by a spare mate: all count again (module comment), and the
    /// node is not to be asked again.
    AllSpare,
}

impl Dfpn<'_> {
    /// At an AND node of the canonical game whose children `base..end` include a refutation of the
    /// bound (a child disproven within its budget): tests such children in turn; a child after which
    /// the attacker forces a spare mate becomes no defence (proven, like a futile drop), unless it is
    /// the last reply that counts. Stops at the first child that stays a refutation, whose disproof
    /// hand then also covers the spare test's.
    pub(super) fn excuse_spare_refutations(
        &mut self,
        base: usize,
        end: usize,
        ply: u32,
        path: u64,
    ) -> Excuse {
        if self.config.spare_test_nodes == 0 {
            // Only the futile-drop rule (an ablation, and the narrow game the differential tests).
            return Excuse::Unchanged;
        }
        let mut changed = Excuse::Unchanged;
        for i in base..end {
            let c = self.children[i];
            if !c.active || c.dn != 0 || c.futile || !refutes_a_bound(c.dep) {
                continue;
            }
            let t = after_reply(self, c.mv, ply);
            log::trace!("spare test ply {ply} {:?}: {t:?}", c.mv);
            match t {
                Spare::Yes(_) if !self.some_reply_counts(base, end, i, ply) => {
                    // Every reply that counts is answered by a spare mate, so none is excused: the
                    // excused ones take their own numbers back.
                    for j in base..end {
                        if self.children[j].spared {
                            let c = &mut self.children[j];
                            (c.futile, c.spared, c.len) = (false, false, 0);
                            self.probe_child(j, false, ply, path);
                        }
                    }
                    return Excuse::AllSpare;
                }
                Spare::Yes(proof) => {
                    self.excuse_child(i, proof, true, ply, path);
                    changed = Excuse::Changed;
                }
                Spare::No(d) => {
                    self.keep_refutation(i, Some(d));
                    return changed;
                }
                Spare::Unknown => {
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

    /// A refutation a nested test (spare or futility) excused: child `i` becomes no defence, proven
    /// with the test's proof hand; the next member of its chain takes over.
    pub(super) fn excuse_child(
        &mut self,
        i: usize,
        proof: Hand,
        spared: bool,
        ply: u32,
        path: u64,
    ) {
        let c = &mut self.children[i];
        (c.pn, c.dn, c.len, c.hand, c.futile, c.spared) = (0, INF, 0, proof, true, spared);
        self.advance_chain(i, false, ply, path);
    }

    /// A refutation that stands after a nested test: it holds only while the test's answer does, so
    /// child `i`'s disproof hand is capped by the test's disproof hand, or, the test undecided
    /// (`None`), by the node's hand, and the canonical length is not known to be exact.
    pub(super) fn keep_refutation(&mut self, i: usize, test_disproof: Option<Hand>) {
        let cap = test_disproof.unwrap_or_else(|| {
            self.undecided_test = true;
            self.pos.hand(self.attacker)
        });
        let c = &mut self.children[i];
        c.hand = c.hand.min(cap);
    }

    /// Whether some reply among `base..end` other than child `except` is not answered by a spare mate
    /// (a witness that the node keeps a defence). Replies not yet tested are tested; one that stays
    /// undecided counts as a witness, and marks the canonical length as not known to be exact.
    fn some_reply_counts(&mut self, base: usize, end: usize, except: usize, ply: u32) -> bool {
        for j in base..end {
            let c = self.children[j];
            if j == except || c.futile {
                continue;
            }
            if c.dn == 0 && !refutes_a_bound(c.dep) {
                // No mate at all after it, on every path (or a repetition, which counts as a
                // defence on this path).
                return true;
            }
            match after_reply(self, c.mv, ply) {
                Spare::Yes(_) => {}
                Spare::No(_) => return true,
                Spare::Unknown => {
                    self.undecided_test = true;
                    return true;
                }
            }
        }
        false
    }
}

/// Whether a disproof with this dependence says "no mate within some bound" on every path (and not
/// "no mate at all", after which no spare mate exists either, nor a repetition of this path, which the
/// canonical line never takes).
fn refutes_a_bound(dep: Dependence) -> bool {
    matches!(dep, Dependence::Within { plies, loop_at: None } if plies < NO_MATE_PLIES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::search::hands::spare_mate_proof;
    use crate::search::node::tests::fresh_search;

    /// The spare test of a tsume position (attacker to move).
    fn spare(sfen: &str) -> Spare {
        fresh_search(sfen, "default", |s| {
            test_here(s, 0, 200_000, crate::search::tt::UNBOUNDED)
        })
    }

    #[test]
    fn a_mate_with_a_piece_left_is_spare_and_one_without_is_not() {
        // R*1b mates (the king is walled in by its lance and pawn, the gold guards 1b's neighbours).
        assert!(matches!(
            spare("7lk/7p1/8G/9/9/9/9/9/9 b RP 1"),
            Spare::Yes(_)
        ));
        assert!(matches!(
            spare("7lk/7p1/8G/9/9/9/9/9/9 b R 1"),
            Spare::No(_)
        ));
        // No mate at all: no spare mate.
        assert!(matches!(spare("8k/9/9/9/9/9/9/9/9 b P 1"), Spare::No(_)));
    }

    /// Mate in one in the spare game is mate-1's when it leaves a piece: R*1b with a pawn over is
    /// proven at the test's root without generating its checks (proof hand: the rook and the pawn);
    /// with the rook alone mate-1's mate is no spare one, and the search (which generates the checks
    /// and finds no other mate) says no. Where mate-1 finds no mate at all, a test of spare mates
    /// within two plies says no without generating the checks either.
    #[test]
    fn a_spare_mate_in_one_is_proven_by_mate_in_one() {
        let test_within = |sfen: &str, plies: u32| {
            fresh_search(sfen, "default", |s| {
                let r = test_here(s, 0, 10_000, plies);
                (r, s.expansions, s.mate1_probes)
            })
        };
        let test = |sfen: &str| test_within(sfen, crate::search::tt::UNBOUNDED);
        let mut rook_pawn = Hand::EMPTY;
        rook_pawn.set_count(crate::position::PieceKind::Rook, 1);
        rook_pawn.set_count(crate::position::PieceKind::Pawn, 1);
        assert_eq!(
            test("7lk/7p1/8G/9/9/9/9/9/9 b RP 1"),
            (Spare::Yes(rook_pawn), 0, 1)
        );
        let (r, expansions, _) = test("7lk/7p1/8G/9/9/9/9/9/9 b R 1");
        assert!(matches!(r, Spare::No(_)));
        assert!(expansions > 0);
        // P*1b checks, but the king takes it: no mate in one, so none within two plies (a bounded
        // "no" that the test reports as no answer: `test_here` says no only for every length).
        let (r, expansions, probes) = test_within("8k/9/9/9/9/9/9/9/9 b P 1", 2);
        assert_eq!(r, Spare::Unknown);
        assert_eq!((expansions, probes), (0, 1));
    }

    /// The surplus witness reads the ordinary game's proof: R*1b mates with the rook alone, so a pawn
    /// more is a piece to spare (the spare proof hand is the rook and the pawn); with the rook alone,
    /// or before the proof is in the table, the witness says nothing and the spare search decides.
    #[test]
    fn a_proof_with_a_smaller_hand_witnesses_a_spare_mate() {
        let witness = |sfen: &str, prove: bool| {
            fresh_search(sfen, "default", |s| {
                let hand = s.pos.hand(crate::position::Color::Black);
                if prove {
                    s.run();
                }
                (surplus_witness(s, crate::search::tt::UNBOUNDED), hand)
            })
        };
        let (w, hand) = witness("7lk/7p1/8G/9/9/9/9/9/9 b RP 1", true);
        assert_eq!(w, Some(hand), "the rook mates, the pawn is left over");
        assert_eq!(witness("7lk/7p1/8G/9/9/9/9/9/9 b RP 1", false).0, None);
        assert_eq!(witness("7lk/7p1/8G/9/9/9/9/9/9 b R 1", true).0, None);
        // Two rooks: either mates, the other is the piece to spare.
        let (w, _) = witness("7lk/7p1/8G/9/9/9/9/9/9 b 2R 1", true);
        let rook = |n| {
            let mut h = Hand::EMPTY;
            h.set_count(crate::position::PieceKind::Rook, n);
            h
        };
        assert_eq!(w, Some(rook(2)));
        assert!(matches!(
            spare("7lk/7p1/8G/9/9/9/9/9/9 b 2R 1"),
            Spare::Yes(_)
        ));
    }

    #[test]
    fn spare_mate_proof_hands() {
        let h = |s: &str| {
            Position::from_sfen(&format!("8k/9/9/9/9/9/9/9/9 b {s} 1"))
                .unwrap()
                .hand(crate::position::Color::Black)
        };
        // Interposition pieces already needed: they are the piece to spare.
        assert_eq!(spare_mate_proof(h("GS"), h("G")), Some(h("G")));
        // Otherwise one piece of the hand, the cheapest.
        assert_eq!(spare_mate_proof(h("RP"), Hand::EMPTY), Some(h("P")));
        assert_eq!(spare_mate_proof(h("B"), Hand::EMPTY), Some(h("B")));
        // Nothing in hand: no spare mate.
        assert_eq!(spare_mate_proof(Hand::EMPTY, Hand::EMPTY), None);
    }
}
