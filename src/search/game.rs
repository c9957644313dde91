//! The game a search plays: which defences count, what counts as a mate, whether a length bound
//! applies, and where in the table its results live. One value (`Game`), which a nested search swaps
//! in whole and gives back when it returns (`Searcher::in_game`, `Searcher::nested`).
//!
//! * **Strict** — the ordinary game: every legal evasion is a defence. Unbounded, it is the main
//!   search (and a composers' futility test's mate search, `canonical/composers.rs`); bounded ("mate
//!   within n?"), the line phases and shortest-first deepening (`bounded.rs`, `deepen.rs`).
//! * **Canonical** — futile interpositions are no defence (`game/futile.rs`): the composer's
//!   length. Always asked bounded, under a salt of its phase's own.
//! * **Spare** — the canonical game where only a mate with a piece left in the attacker's hand counts
//!   (`canonical/spare.rs`), bounded or not, under a salt of its own.
//!
//! Every rule that differs between games is a method here, so that a reader finds in one place what
//! a game changes, and the search asks the game instead of testing flags. The futile-interposition
//! rule itself, which reads the board only, is `game/futile.rs`.
//!
//! ## Table soundness
//! Canonical lengths are not minimax lengths, so the bounded searches of the canonical game store
//! their results under a table salt of their own (`canonical/line.rs`, `CANONICAL_SALT`): a strict
//! "no mate within d" would be wrong for them, and theirs for the strict game. Mate or no mate is
//! the same in both games (a futile drop is captured into a position whose defender has only drops
//! left, each futile again, and the board is finite), but the canonical searches do not rely on
//! general disproofs of the strict game.
//!
//! They do read its **proofs** (`Game::complete_probe`, `--config strictproofs=on`, the default): a
//! position the strict game proves within d plies is a canonical mate within d. The canonical game
//! is the strict one with some defender replies taken away (futile drops) and with a line ending,
//! not counted, where only such replies are left; the attacker's moves and the rules (pawn-drop
//! mate included) are the same. So the strict proof's strategy is a canonical one: every canonical
//! defence is a strict defence it answers, and each of its lines ends no later than the strict
//! line. Its proof hand carries over for the same reason (any hand covering it mates strictly,
//! hence canonically). The strict table holds such proofs wherever the proof or the exact line
//! phase went, which the canonical phase, starting from an empty table of its own, would otherwise
//! prove again, length-bounded and without the main search's look-ahead. Zukou #89
//! (`tests/problems/lines.rs`) is the example: at ply 19 of the canonical line the composers'
//! ranking reads the line after the king's 7c6b within 21 plies, which the strict proofs answer at
//! once; without them that bounded search starts afresh, and the pass's budget can run out before
//! it answers, leaving the line longer (docs/benchmarks.md has the figures; the test below shows
//! the difference in nodes).
//!
//! The spare game reads the ordinary game's table too: its general disproofs (no mate at all is no
//! spare mate either), and its proofs whose proof hand the position's hand exceeds
//! (`hands::surplus_proof`, which has the argument).

pub mod futile;

use super::hands::surplus_proof;
use super::tt::{Probe, Table, UNBOUNDED};
use crate::position::Hand;

/// Which defences count and what a mate is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    Strict,
    Canonical,
    Spare,
}

/// A game: its rules, its length bound, its table salt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    rules: Rules,
    /// `UNBOUNDED`, or the ply by which the attacker must have mated: a node at ply p asks "mate
    /// within `horizon` − p plies?", ignoring repetitions, and its results are stored for that
    /// budget (`pv.rs`, *Length-bounded searches*).
    horizon: u32,
    /// Mixed into every table key of the game: results of different games never meet.
    salt: u64,
    /// A bounded search that takes its new children's first numbers by looking one ply ahead, like
    /// the main search: shortest-first deepening (`deepen.rs`). The line phases' bounded searches
    /// keep lazy numbers.
    looks: bool,
    /// The canonical and spare games read the strict game's proofs (`complete_probe`;
    /// `SearchConfig::strict_proofs`).
    strict_proofs: bool,
}

impl Game {
    /// The main search: the strict game, unbounded, under the problem's salt.
    pub fn main(salt: u64) -> Game {
        Game {
            rules: Rules::Strict,
            horizon: UNBOUNDED,
            salt,
            looks: false,
            strict_proofs: false,
        }
    }

    /// The canonical game under `salt` (its phase's own, `canonical/line.rs`), to be asked bounded
    /// (`within`); `strict_proofs`: it reads the strict game's proofs (`complete_probe`).
    pub fn canonical(salt: u64, strict_proofs: bool) -> Game {
        Game {
            rules: Rules::Canonical,
            strict_proofs,
            ..Game::main(salt)
        }
    }

    /// The spare game under `salt`: spare mates of at most `horizon` plies (`UNBOUNDED`: any);
    /// `strict_proofs`: it reads the strict game's proofs (`complete_probe`).
    pub fn spare(salt: u64, horizon: u32, strict_proofs: bool) -> Game {
        Game {
            rules: Rules::Spare,
            horizon,
            strict_proofs,
            ..Game::main(salt)
        }
    }

    /// This game with the length bound `horizon` (the ply by which to mate; `UNBOUNDED`: none).
    pub fn within(self, horizon: u32) -> Game {
        Game { horizon, ..self }
    }

    /// This game's bounded searches looking ahead at new children (shortest-first deepening).
    pub fn looking_ahead(self) -> Game {
        Game {
            looks: true,
            ..self
        }
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    #[inline(always)]
    pub fn salt(&self) -> u64 {
        self.salt
    }

    #[inline(always)]
    pub fn horizon(&self) -> u32 {
        self.horizon
    }

    /// The length budget of a node at `ply`: plies left to the horizon (`UNBOUNDED` without one).
    #[inline(always)]
    pub fn budget(&self, ply: u32) -> u32 {
        if self.horizon == UNBOUNDED {
            UNBOUNDED
        } else {
            self.horizon.saturating_sub(ply)
        }
    }

    #[inline(always)]
    pub fn is_bounded(&self) -> bool {
        self.horizon != UNBOUNDED
    }

    /// The strict game without a bound: the main search's rules. Only here do the search's
    /// refinements for an ordinary proof apply: the ladder cost, deferred drops, refuting an AND node
    /// by its first general refutation, the root's live numbers in progress reports.
    #[inline(always)]
    pub fn unbounded_strict(&self) -> bool {
        self.rules == Rules::Strict && self.horizon == UNBOUNDED
    }

    /// Futile interpositions are no defence (the canonical and spare games).
    #[inline(always)]
    pub fn skips_futile(&self) -> bool {
        self.rules != Rules::Strict
    }

    /// Only a mate with a piece left in the attacker's hand counts (the spare game).
    #[inline(always)]
    pub fn spare_only(&self) -> bool {
        self.rules == Rules::Spare
    }

    /// Inferior repetitions are cut (`loops.rs`): only where more in hand is simply better, the
    /// strict game (the canonical and spare games' rules on interpositions and leftover pieces make
    /// it no simple advantage).
    #[inline(always)]
    pub fn cuts_inferior(&self) -> bool {
        self.rules == Rules::Strict
    }

    /// New children get their first numbers by looking one ply ahead (`SearchConfig::init`): the
    /// unbounded searches and shortest-first deepening; the line phases keep lazy numbers.
    #[inline(always)]
    pub fn looks_ahead(&self) -> bool {
        self.horizon == UNBOUNDED || self.looks
    }

    /// Whether `complete_probe` may read the strict game's entries of a position this game probes:
    /// the canonical game with `strict_proofs`, and the spare game always (its strict disproofs).
    #[inline(always)]
    pub fn reads_strict(&self) -> bool {
        match self.rules {
            Rules::Strict => false,
            Rules::Canonical => self.strict_proofs,
            Rules::Spare => true,
        }
    }

    /// This game's probe `own` of the position `board_key` (unsalted), the attacker holding `hand`,
    /// for a search with `budget`, completed by the strict game's entries in `tt` (under
    /// `strict_salt`) where the game's own entries decide nothing (module comment):
    /// * canonical: the strict proof of the position when it mates within `budget` — a canonical
    ///   mate within `budget`, with the same proof hand and length bound;
    /// * spare, where the game has no entry of its own: the strict general disproof, or the strict
    ///   proof within `budget` whose proof hand `hand` exceeds, with the spare proof hand
    ///   (`hands::surplus_proof`); the disproofs are read even without `strict_proofs`;
    /// * strict: `own`.
    #[inline]
    pub fn complete_probe(
        &self,
        tt: &Table,
        strict_salt: u64,
        own: Probe,
        board_key: u64,
        hand: Hand,
        budget: u32,
    ) -> Probe {
        match self.rules {
            Rules::Strict => own,
            Rules::Canonical => {
                if own.is_proven() || own.is_disproven() || !self.strict_proofs {
                    return own;
                }
                let q = tt.probe(board_key ^ strict_salt, hand, 0, UNBOUNDED);
                if q.is_proven() && u32::from(q.len) <= budget {
                    q
                } else {
                    own
                }
            }
            Rules::Spare => {
                if own.found {
                    return own;
                }
                let q = tt.probe(board_key ^ strict_salt, hand, 0, UNBOUNDED);
                if q.is_disproven() && q.dep.is_general() {
                    q
                } else if self.strict_proofs
                    && q.is_proven()
                    && u32::from(q.len) <= budget
                    && let Some(proof) = surplus_proof(hand, q.hand)
                {
                    Probe { hand: proof, ..q }
                } else {
                    own
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Game;
    use crate::search::canonical::line::CANONICAL_SALT;
    use crate::search::dfpn::RootResult;
    use crate::search::dfpn::Searcher;
    use crate::search::dfpn::tests::fresh_search;
    use crate::search::node::Seen;
    use crate::search::numbers::PN_MAX;

    /// Zukou #89 after its 20th move (the king's 7c6b): a strict mate in 19 exactly.
    const AFTER_7C6B: &str = "3B5/n2k1l3/1B1sP4/9/3P5/1SR6/9/9/9 b r4g2s3n3l16p 21";

    /// Proves `AFTER_7C6B` strictly within 19 plies, then asks the canonical game "mate within 19?"
    /// on the same table: whether it is proven, and in how many nodes.
    fn canonical_after_strict(spec: &str) -> (bool, u64) {
        fresh_search(AFTER_7C6B, spec, |s| {
            assert_eq!(s.run(), RootResult::Proven);
            let within = |s: &mut Searcher, game: Game| {
                s.in_game(game, |s| {
                    s.mid(PN_MAX, PN_MAX, 0, s.path.root, Seen::Before)
                })
                .pn == 0
            };
            assert!(
                within(s, s.game.within(19)),
                "the strict game mates within 19"
            );
            let strict_proofs = s.config().strict_proofs;
            let canonical =
                Game::canonical(s.main_salt() ^ CANONICAL_SALT, strict_proofs).within(19);
            let before = s.stats.nodes;
            let proven = within(s, canonical);
            (proven, s.stats.nodes - before)
        })
    }

    /// `reads_strict` (what `expand` prefetches by) answers true for every game whose
    /// `complete_probe` reads the strict game's entries: with a strict proof and a strict general
    /// disproof in the table, each game that takes either instead of its own unknown entry says so,
    /// and each game that says it does not returns its own entry untouched.
    #[test]
    fn reads_strict_names_every_game_that_completes_its_probes_from_the_strict_game() {
        use crate::position::Hand;
        use crate::search::tt::{Record, Table, UNBOUNDED};
        let tt = Table::new(1);
        let (strict_salt, proven, disproven) = (0x5a17, 0x1000_0000, 0x2000_0000);
        tt.store(
            proven ^ strict_salt,
            &Record::proof(Hand::EMPTY, 3, 0, true),
        );
        tt.store(
            disproven ^ strict_salt,
            &Record::disproof(Hand::EMPTY, true),
        );
        let games = [
            Game::main(1),
            Game::canonical(2, true),
            Game::canonical(2, false),
            Game::spare(3, UNBOUNDED, true),
            Game::spare(3, UNBOUNDED, false),
        ];
        for game in games {
            let mut completed = false;
            for board in [proven, disproven] {
                let own = tt.probe(board ^ game.salt(), Hand::EMPTY, 0, 5);
                assert!(!own.found);
                let p = game.complete_probe(&tt, strict_salt, own, board, Hand::EMPTY, 5);
                completed |= p.found;
            }
            assert_eq!(game.reads_strict(), completed, "{game:?}");
        }
    }

    /// The canonical game reads the strict game's proofs (module comment): its
    /// bounded search is proven at once from the strict proof within the same budget; on its own
    /// table it searches afresh.
    #[test]
    fn a_canonical_bounded_search_reads_the_strict_game_s_proofs() {
        let (proven, nodes) = canonical_after_strict("strictproofs=on");
        assert!(proven && nodes <= 1, "proven {proven} in {nodes} nodes");
        let (_, nodes) = canonical_after_strict("strictproofs=off");
        assert!(nodes > 1_000, "{nodes} nodes without the strict proofs");
    }
}
