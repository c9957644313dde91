//! Initial estimates: the numbers a new child (never searched, not in the table) starts from.
//!
//! * `Init::Look` (the default): the child is played and looked at one ply ahead (`frontier`): a
//!   check's pn is its number of evasion groups (a mate is proven at once), an evasion's dn its number
//!   of checks (a mate in one is proven at once). These are the frontier paper's small-tree numbers
//!   for the price of a move generation; `LookCache` (`node/look_cache.rs`) keeps the last looks so
//!   that a node expanded again does not look at its unsearched children once more.
//! * `Init::Unit`: one unit each, a check's pn growing with its distance from the king when
//!   `SearchConfig::distance` is on; the child's real numbers come when it is first searched (lazy
//!   one-ply expansion). The line phases after the proof (length-bounded searches) always use
//!   these; the shortest-first search before it (`deepen.rs`) looks ahead like the main search
//!   (`Game::looks_ahead`).
//!
//! Measured against each other: docs/benchmarks.md, *Ablation* (`--config init=unit|look`).

use super::Searcher;
use crate::position::{Hand, Move, attacks};
use crate::search::config::Init;
use crate::search::frontier::{self, AndLook, OrLook};
use crate::search::hands;
use crate::search::node::{Seen, distance};
use crate::search::numbers::{INF, PnDn, UNIT};
use crate::search::tt::Record;

impl Searcher<'_> {
    /// Gives the new child `i` (`key`: its table key, `full`: its full position key) its first
    /// numbers, by the configured `Init`.
    pub fn initial_numbers(&mut self, i: usize, or_node: bool, key: u64, full: u64) {
        // The main search and the shortest-first search before the proof (`deepen.rs`) look ahead.
        // A look's answers hold at every length (a mate in 0 or 1 is within any budget the child
        // can have — a child with budget 0 never gets here, `probe_child` — and "no check at all"
        // is no mate at any length), and its counts order a refutation's defences (fewest checks
        // first), which makes deepening cheaper (docs/benchmarks.md, *The line phase*). The line
        // phases after the proof keep the lazy numbers: there the look's pn ordering, made for an
        // unbounded proof, can miss a mate within the bound (a random mate in 13 whose first proof
        // is 49 plies is one: its "mate within 47?" is answered far sooner with lazy numbers than
        // with looks; docs/benchmarks.md, *The line phase*), and their budgets were measured with
        // them.
        let init = if self.game.looks_ahead() {
            self.config().init
        } else {
            Init::Unit
        };
        match init {
            Init::Unit => {
                if or_node && self.config().distance {
                    let d = self.check_distance_pn(self.children[i].mv);
                    let c = &mut self.children[i];
                    c.pn = c.pn.max(d);
                }
            }
            Init::Look => self.look(i, or_node, key, full),
        }
    }

    /// The initial pn of a check by its distance from the king: a unit for a check from next to the king
    /// (or a knight's jump), a unit more for each square further along the line.
    fn check_distance_pn(&self, m: Move) -> PnDn {
        let Some(ksq) = self.pos.king_square(self.attacker().flip()) else {
            return UNIT;
        };
        let d = distance(m.to(), ksq);
        if d >= 2 && attacks::direction(ksq, m.to()).is_some() {
            d * UNIT
        } else {
            UNIT
        }
    }

    /// `Init::Look`: the new child `i`'s numbers from a look one ply ahead of it (evasions of a check,
    /// mate in one after an evasion), taken from the look cache when it has the position (`full`: the
    /// child's full key). A look counts as a node either way, so node counts and node budgets are those
    /// of a search without the cache.
    fn look(&mut self, i: usize, or_node: bool, key: u64, full: u64) {
        self.stats.nodes += 1;
        let n = match self.looks.get(full) {
            Some(n) => n,
            None => match self.play_look(i, or_node, key) {
                Some(n) => {
                    self.looks.put(full, n);
                    n
                }
                None => return,
            },
        };
        let c = &mut self.children[i];
        if or_node {
            c.pn = c.pn.max(n * UNIT);
        } else {
            c.dn = c.dn.max(n * UNIT);
            c.seen = Seen::NoMate1;
        }
    }

    /// Plays the new child `i` and looks one ply ahead of it. A child the look solves gets its result
    /// (stored in the table too) and `None`; otherwise its number of evasion groups (a check) or of
    /// checks (an evasion, with no mate in one).
    fn play_look(&mut self, i: usize, or_node: bool, key: u64) -> Option<PnDn> {
        let m = self.children[i].mv;
        self.pos.do_move(m);
        let attacker = self.attacker();
        let tt = self.tt();
        let c = &mut self.children[i];
        let mut count = None;
        if or_node {
            match frontier::look_and(&self.pos, attacker) {
                AndLook::Mated(extra) if self.game.spare_only() => {
                    // The spare game: a mate counts only with a piece left in hand.
                    match hands::spare_mate_proof(c.hand, extra) {
                        Some(proof) => {
                            tt.store(key, &Record::proof(proof, 0, 0, false));
                            (c.pn, c.dn, c.len, c.hand) = (0, INF, 0, proof);
                        }
                        None => {
                            tt.store(key, &Record::disproof(Hand::EMPTY, false));
                            (c.pn, c.dn, c.hand) = (INF, 0, Hand::EMPTY);
                        }
                    }
                }
                AndLook::Mated(proof) => {
                    tt.store(key, &Record::proof(proof, 0, 0, false));
                    (c.pn, c.dn, c.len, c.hand) = (0, INF, 0, proof);
                }
                AndLook::Evasions(n) => count = Some(n as PnDn),
            }
        } else {
            match frontier::look_or(&mut self.pos, attacker).0 {
                OrLook::Mate(mv, proof) => {
                    // In the spare game a mate in one counts if it leaves a piece in hand
                    // (`spare_mate1_proof`); otherwise another mate might: the child is left to
                    // the search.
                    let proof = if self.game.spare_only() {
                        self.spare_mate1_proof(mv)
                    } else {
                        Some(proof)
                    };
                    if let Some(proof) = proof {
                        tt.store(key, &Record::proof(proof, 1, mv.to_u16(), true));
                        let c = &mut self.children[i];
                        (c.pn, c.dn, c.len, c.hand) = (0, INF, 1, proof);
                    }
                }
                OrLook::Checks(0) => {
                    let d = hands::no_check_disproof(&self.pos, attacker);
                    tt.store(key, &Record::disproof(d, true));
                    (c.pn, c.dn, c.hand) = (INF, 0, d);
                }
                OrLook::Checks(n) => count = Some(n as PnDn),
            }
        }
        self.pos.undo_move(m);
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::dfpn::tests::{after_check, and_node};
    use crate::search::node::Child;
    use crate::search::numbers::PN_MAX;

    /// An AND node expanded twice before any child is searched: the second expansion takes every
    /// unsolved child's look from the cache, which holds exactly the counts the looks found (the
    /// children's numbers come out the same).
    #[test]
    fn a_repeated_look_comes_from_the_cache() {
        let sfen = "6k2/5L2S/5S3/3R5/9/9/9/9/9 b r2b4g2s4n3l18p 1";
        after_check(sfen, "default", "6d3d", |s, path| {
            let n = s.expand(false, 1, path);
            // Proven children come from the table the second time, the others from the cache.
            let numbers = |s: &Searcher| -> Vec<(PnDn, PnDn, bool)> {
                let looked = |c: &Child| c.seen == Seen::NoMate1;
                s.children.iter().map(|c| (c.pn, c.dn, looked(c))).collect()
            };
            let first = numbers(s);
            let mut cached = 0;
            for c in s.children.iter().filter(|c| c.seen == Seen::NoMate1) {
                let (board, hand, _) = s.pos.keys_after(c.mv);
                assert_eq!(s.looks.get(board ^ hand), Some(c.dn / UNIT), "{}", c.mv);
                cached += 1;
            }
            assert!(cached > 0);
            s.children.clear();
            let key = s.pos.key();
            assert_eq!(s.expand(false, 1, path), n);
            assert_eq!(first, numbers(s));
            assert_eq!(s.pos.key(), key);
        });
    }

    /// In a bounded search too (deepening's, `deepen.rs`): the AND node after the check, three plies
    /// from the horizon, answered by the 3-ply frontier at its children without asking mate in one
    /// again where the look-ahead asked it.
    #[test]
    fn a_looked_at_child_is_not_asked_mate_in_one_again_in_a_bounded_search() {
        let (sfen, check) = ("6k2/5L2S/5S3/3R5/9/9/9/9/9 b r2b4g2s4n3l18p 1", "6d3d");
        let probes = |spec: &str| {
            after_check(sfen, spec, check, |s, path| {
                let game = s.game.within(5).looking_ahead();
                let r = s.in_game(game, |s| s.mid(PN_MAX, PN_MAX, 1, path, Seen::New));
                assert!(r.pn == 0 || r.dn == 0, "{spec}: unsolved");
                s.stats.mate1_probes
            })
        };
        assert_eq!(probes("init=look"), 0);
        assert!(probes("init=unit") > 0);
    }

    /// The look-ahead asks mate-1 at every new OR child; the search, entering such a child later,
    /// does not ask again (`Seen::NoMate1`). With lazy numbers it must.
    #[test]
    fn a_looked_at_child_is_not_asked_mate_in_one_again() {
        let (sfen, check) = ("6k2/5L2S/5S3/3R5/9/9/9/9/9 b r2b4g2s4n3l18p 1", "6d3d");
        let look = and_node(sfen, check, "init=look");
        assert!(look.proven);
        assert_eq!(look.mate1_probes, 0);
        let unit = and_node(sfen, check, "init=unit");
        assert!(unit.proven && unit.mate1_probes > 0);
    }
}
