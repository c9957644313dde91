//! Repetitions and the depth limit: what a result depends on besides the position.
//!
//! In tsume-shogi a repetition is a loss for the attacker (perpetual check is forbidden). A disproof
//! that rests on a repetition of a position on the current path holds on that path only: reached by
//! another path, the repeated position may not be on it (the graph-history-interaction problem). The
//! same goes for a disproof that rests on the depth limit. `Dependence` says which kind a disproof is;
//! a proof never rests on either (a repetition or a cut is never a mate), so proofs are always general.
//!
//! The positions on the current path live in a `PathMap` (full key → ply), so that detecting a
//! repetition is one hash look-up whatever the path's length.
//!
//! **Inferior repetitions** (`PathBoards`). A position whose board is that of an ancestor on the path,
//! with the same side to move, where the attacker holds no more than it held there (the defender, who
//! holds every other piece, no less), is cut like a repetition: a loss for the attacker on this path.
//! Why this loses no mate: let X be the ancestor and Y the inferior copy below it. A proof of Y is a
//! proof of X too (the same moves: every drop of the attacker is still possible, and the defender,
//! holding a subset of its pieces at Y, has only a subset of its answers), and it is strictly smaller
//! and shorter than any proof of X through Y. So a smallest proof of X never passes an inferior copy
//! of X, nor of any node below X: the search may cut them all without losing X's mate, and a shortest
//! mate within a bound is not lost either (the copy's subtree is shorter). A cut stands for the loop to
//! X's ply (`Dependence::Loop`, like a repetition of X, which is the case of equal hands), so it holds on
//! this path only and settles at X itself (`Dependence::settle`). Only the defender's being steered
//! into such a copy is ruled out for the attacker, so the defender's longest resistance is measured in
//! the same game. (Not in the canonical and spare games, whose rules on interpositions and leftover
//! pieces make "more in hand" no simple advantage.) On a chase where pieces shuttle between the hands
//! it ends each shuttle after one round, where one line of the search could otherwise dive very deep
//! over a few boards (Zukou #8 after 9i9b+ S*8b is such a chase; what the cut saves there is in
//! docs/benchmarks.md, *Loops: inferior repetitions and the pump cost*).
//!
//! **Pumps** (superior repetitions). The other way round, an ancestor's board where the attacker now
//! holds *more*, is no loss: the attacker may have gained a piece it needs (composers build mates on
//! it). It is searched, but its pn counts a little more (`SearchConfig::pump_cost`, a number only:
//! no result changes). Why: a defender holding many pawns can interpose one, see it captured and
//! come back to the same board, round after round; every round looks as cheap to df-pn as the last
//! (the numbers of a narrow chase do not grow with its depth), so the search follows the pump through
//! all of the defender's pawns before it looks elsewhere. Shogi Musou #6 (a classic not in the
//! repository) is such a problem: without the cost the search dives hundreds of plies deep, the
//! board coming back every 10 plies with one more pawn in the attacker's hand. Every node of a
//! repeated stretch pays the cost (a df-pn+ edge cost on pumps only), so a pump grows dearer with
//! each round, and the long forced lines that repeat no board (Kotobuki's 611 plies) pay nothing.
//! The cost is small (½ unit) because mates that pump pay it too (Zukou #71's defender feeds knights
//! and lances round after round), and not smaller because the pumps must still grow dear: a whole
//! unit and an eighth of a unit both measured worse (docs/benchmarks.md, *Loops*).
//! The cost counts on the defender's replies only (an AND node's children): the dive is the defender
//! feeding pieces, and a reply that re-enters a board with the attacker richer makes its AND node —
//! the check that allowed it — dearer. Counted on the attacker's checks too (measured and rejected:
//! docs/experiments.md), it taxes the attacker's own manoeuvres that win material and come back,
//! which long compositions are built on (the classic *1980*, a 693-ply first line, is much dearer
//! with it: docs/benchmarks.md).

use crate::position::{Hand, Move};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A bound larger than any search's: "no mate within `NO_MATE_PLIES`" is "no mate" for a bounded search.
pub const NO_MATE_PLIES: u32 = u32::MAX >> 1;

/// The depth limit is never raised past this (the search recurses once per ply; see
/// `SEARCH_STACK_BYTES`). Loop plies are stored in 16 bits, so it stays below 65536.
pub const HARD_MAX_PLY: u32 = 60_000;

/// The depth limit of a searcher: a child beyond `max_ply` is disproven for this path only
/// (`Dependence::DepthCut`). If the root ends up disproven only because of such cuts, the limit is
/// doubled, the cut results are dropped, and the search goes on: a cut is never an answer.
#[derive(Clone, Copy, Debug)]
pub struct DepthLimit {
    pub max_ply: u32,
    /// Some child was cut by the limit since the table last dropped the cuts' results.
    pub cuts: bool,
}

impl DepthLimit {
    /// A first limit of `max_ply` plies (kept within 2 and `HARD_MAX_PLY`).
    pub fn new(max_ply: u32) -> DepthLimit {
        DepthLimit {
            max_ply: max_ply.clamp(2, HARD_MAX_PLY),
            cuts: false,
        }
    }
}

/// What a result (a disproof: proofs are always general) depends on besides the position and hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dependence {
    /// Holds whatever path reaches the position, and whatever the length.
    None,
    /// Rests on a repetition of the position at this ply of the current path (the shallowest one, if
    /// several).
    Loop { ply: u32 },
    /// Rests on the depth limit: holds only on this path, and only while the limit stays where it is.
    DepthCut,
    /// A disproof of a search bounded in length (the PV search, `pv.rs`): no mate within `plies`
    /// plies; longer mates may exist. With `loop_at`, it also rests on a repetition of the position
    /// at that ply of the current path, and holds on that path only, like `Loop`.
    Within { plies: u32, loop_at: Option<u32> },
}

/// The shallower of two optional loop plies.
#[inline(always)]
fn shallower(a: Option<u32>, b: Option<u32>) -> Option<u32> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) | (None, x) => x,
    }
}

impl Dependence {
    /// A repetition seen by a bounded search: no mate on this path, resting on the loop to `ply`.
    #[inline(always)]
    pub fn bounded_loop(ply: u32) -> Dependence {
        Dependence::Within {
            plies: NO_MATE_PLIES,
            loop_at: Some(ply),
        }
    }

    /// The dependence of a result resting on both `self` and `other`: the more restrictive one (a depth
    /// cut depends on the whole path, root included; a loop on the path down to its ply; a bounded
    /// disproof holds within the smaller bound).
    #[inline(always)]
    pub fn and(self, other: Dependence) -> Dependence {
        use Dependence::*;
        match (self, other) {
            (DepthCut, _) | (_, DepthCut) => DepthCut,
            (
                Within {
                    plies: a,
                    loop_at: la,
                },
                Within {
                    plies: b,
                    loop_at: lb,
                },
            ) => Within {
                plies: a.min(b),
                loop_at: shallower(la, lb),
            },
            (Within { plies, loop_at }, Loop { ply })
            | (Loop { ply }, Within { plies, loop_at }) => Within {
                plies,
                loop_at: shallower(loop_at, Some(ply)),
            },
            (w @ Within { .. }, None) | (None, w @ Within { .. }) => w,
            (Loop { ply: a }, Loop { ply: b }) => Loop { ply: a.min(b) },
            (Loop { ply }, None) | (None, Loop { ply }) => Loop { ply },
            (None, None) => None,
        }
    }

    /// How restrictive: a larger rank holds on more paths, or for longer mates (used to prefer the
    /// most general refutation).
    #[inline(always)]
    pub fn generality(self) -> u64 {
        match self {
            Dependence::DepthCut => 0,
            Dependence::Loop { ply } => 1 + u64::from(ply),
            Dependence::Within {
                plies,
                loop_at: Some(_),
            } => (1 << 32) + u64::from(plies),
            Dependence::Within {
                plies,
                loop_at: Option::None,
            } => (2 << 32) + u64::from(plies),
            Dependence::None => u64::MAX,
        }
    }

    /// The dependence of a result found at a node of ply `ply`, resting on `self`.
    ///
    /// A loop back to a position at this ply or deeper closes inside the node's own subtree: from
    /// whatever path the node is reached, the same moves below it repeat the same positions (the
    /// positions between the node and the repetition are the node's descendants on the path, and the
    /// node itself), so the result holds on every path. Positions above the node that the new path
    /// happens to share only add repetitions, which can only help a disproof. A loop to a shallower
    /// ply, or a depth cut, stays.
    ///
    /// For a bounded disproof ("no mate within d") the same holds: the lines it cut at repetitions
    /// inside the subtree are never needed by a shortest mate, which repeats no position.
    #[inline(always)]
    pub fn settle(self, ply: u32) -> Dependence {
        match self {
            Dependence::Loop { ply: at } if at >= ply => Dependence::None,
            Dependence::Within {
                plies,
                loop_at: Some(at),
            } if at >= ply => Dependence::Within {
                plies,
                loop_at: Option::None,
            },
            d => d,
        }
    }

    /// The dependence of a parent's disproof resting on this child's: "no mate within d" after the move
    /// is "no mate within d + 1" before it; the others pass unchanged.
    #[inline(always)]
    pub fn before_move(self) -> Dependence {
        match self {
            Dependence::Within { plies, loop_at } => Dependence::Within {
                plies: (plies + 1).min(NO_MATE_PLIES),
                loop_at,
            },
            d => d,
        }
    }

    #[inline(always)]
    pub fn is_general(self) -> bool {
        self == Dependence::None
    }

    /// Holds on the current path only (a loop or a depth cut): stored under the path key.
    #[inline(always)]
    pub fn on_path(self) -> bool {
        matches!(
            self,
            Dependence::Loop { .. }
                | Dependence::DepthCut
                | Dependence::Within {
                    loop_at: Some(_),
                    ..
                }
        )
    }
}

/// Zobrist keys are already uniformly random: hash them as they are.
#[derive(Default)]
pub struct KeyHasher(u64);
impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 keys are hashed")
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}

/// The positions on the current path: full key (board and hands) → ply.
pub type PathMap = HashMap<u64, u32, BuildHasherDefault<KeyHasher>>;

/// No earlier occurrence of a board.
const NO_OCCURRENCE: u32 = u32::MAX;

/// One occurrence of a board on the current path.
#[derive(Clone, Copy)]
struct Occurrence {
    /// The attacker's hand there.
    hand: Hand,
    ply: u32,
    /// The previous (shallower) occurrence of the same board, or `NO_OCCURRENCE`.
    prev: u32,
}

/// The boards on the current path with the attacker's hand at each occurrence (see the module's note
/// on inferior repetitions): board key → the deepest occurrence, each occurrence linked to the one
/// before. Occurrences are pushed and popped in path order.
#[derive(Clone, Default)]
pub struct PathBoards {
    deepest: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    stack: Vec<Occurrence>,
}

impl PathBoards {
    pub fn clear(&mut self) {
        self.deepest.clear();
        self.stack.clear();
    }

    /// Enters a node at `ply` with board key `board` and attacker hand `hand`.
    #[inline(always)]
    pub fn push(&mut self, board: u64, hand: Hand, ply: u32) {
        let idx = self.stack.len() as u32;
        let prev = self.deepest.insert(board, idx).unwrap_or(NO_OCCURRENCE);
        self.stack.push(Occurrence { hand, ply, prev });
    }

    /// Leaves the node last entered, whose board key is `board`.
    #[inline(always)]
    pub fn pop(&mut self, board: u64) {
        let o = self.stack.pop().expect("a node was entered");
        if o.prev == NO_OCCURRENCE {
            self.deepest.remove(&board);
        } else {
            self.deepest.insert(board, o.prev);
        }
    }

    /// How a child with `board` and the attacker's `hand` repeats the path, in one look-up: the ply of
    /// the deepest occurrence where the attacker held at least `hand` (an inferior or exact
    /// repetition of it), and whether some occurrence had the attacker holding no more than `hand` (a
    /// superior or exact repetition: a pump, module note).
    #[inline(always)]
    pub fn repeats(&self, board: u64, hand: Hand) -> (Option<u32>, bool) {
        let (mut covering, mut covered) = (None, false);
        let mut i = self.deepest.get(&board).copied().unwrap_or(NO_OCCURRENCE);
        while i != NO_OCCURRENCE {
            let o = &self.stack[i as usize];
            if covering.is_none() && o.hand.covers(hand) {
                covering = Some(o.ply);
            }
            covered |= hand.covers(o.hand);
            if covering.is_some() && covered {
                break;
            }
            i = o.prev;
        }
        (covering, covered)
    }
}

/// The path key of a child: a hash of the move sequence from the root, order-sensitive. Path-dependent
/// disproofs are stored under it.
#[inline(always)]
pub fn next_path(path: u64, m: Move) -> u64 {
    next_path_id(path, m.to_u16() as u64)
}

/// `next_path` for a step named by any number (tests walk abstract graphs with it).
#[inline(always)]
pub fn next_path_id(path: u64, step: u64) -> u64 {
    (path ^ (step + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .rotate_left(17)
        .wrapping_mul(0xbf58_476d_1ce4_e5b9)
}

/// The path key of the root, before mixing in the root position's own key.
pub const ROOT_PATH: u64 = 0x6b61_6e6a_7570_6174;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn and_takes_the_more_restrictive() {
        use Dependence::*;
        assert_eq!(None.and(None), None);
        assert_eq!(None.and(Loop { ply: 4 }), Loop { ply: 4 });
        assert_eq!(Loop { ply: 7 }.and(Loop { ply: 4 }), Loop { ply: 4 });
        assert_eq!(Loop { ply: 0 }.and(DepthCut), DepthCut);
        assert_eq!(DepthCut.and(None), DepthCut);
    }

    #[test]
    fn settle_generalises_inner_loops_only() {
        use Dependence::*;
        assert_eq!(Loop { ply: 5 }.settle(5), None);
        assert_eq!(Loop { ply: 9 }.settle(5), None);
        assert_eq!(Loop { ply: 4 }.settle(5), Loop { ply: 4 });
        assert_eq!(DepthCut.settle(0), DepthCut);
        assert_eq!(None.settle(3), None);
    }

    #[test]
    fn generality_orders_dependences() {
        use Dependence::*;
        assert!(DepthCut.generality() < Loop { ply: 0 }.generality());
        assert!(Loop { ply: 2 }.generality() < Loop { ply: 3 }.generality());
        assert!(Loop { ply: 3000 }.generality() < None.generality());
    }

    /// Bounded disproofs: the smaller bound, the shallower loop; a step up adds a ply; loops inside the
    /// node's subtree settle, and what stays path-dependent is stored under the path.
    #[test]
    fn bounded_disproofs_combine() {
        use Dependence::*;
        let w = |plies, loop_at| Within { plies, loop_at };
        assert_eq!(w(5, Option::None).and(w(3, Some(8))), w(3, Some(8)));
        assert_eq!(w(5, Some(2)).and(Loop { ply: 1 }), w(5, Some(1)));
        assert_eq!(w(5, Option::None).and(None), w(5, Option::None));
        assert_eq!(w(5, Some(4)).before_move(), w(6, Some(4)));
        assert_eq!(
            Dependence::bounded_loop(3).before_move(),
            Dependence::bounded_loop(3)
        );
        assert_eq!(w(5, Some(4)).settle(4), w(5, Option::None));
        assert_eq!(w(5, Some(3)).settle(4), w(5, Some(3)));
        assert!(w(5, Some(3)).on_path() && !w(5, Option::None).on_path());
        // Preferred refutations: no loop before a loop, a wider bound before a narrower one.
        assert!(w(9, Some(0)).generality() < w(1, Option::None).generality());
        assert!(w(3, Option::None).generality() < w(5, Option::None).generality());
        assert!(w(5, Option::None).generality() < None.generality());
    }

    /// A hand holding one piece of each kind listed (a kind listed twice, two).
    fn hand(kinds: &[crate::position::PieceKind]) -> Hand {
        let mut h = Hand::EMPTY;
        for &k in kinds {
            h.add(k);
        }
        h
    }

    /// A board is found again only where the attacker held at least the hand asked about, the deepest
    /// such occurrence first; leaving nodes restores what was there.
    #[test]
    fn inferior_repetitions_need_a_covering_hand() {
        use crate::position::PieceKind::{Gold, Pawn, Rook};
        let (b, other) = (0x1234_5678_9abc_def0, 0x0fed_cba9_8765_4321);
        let mut boards = PathBoards::default();
        boards.push(b, hand(&[Rook, Pawn]), 0);
        boards.push(other, hand(&[Rook]), 1);
        // Less or as much: an inferior (or exact) repetition of ply 0.
        assert_eq!(boards.repeats(b, hand(&[Rook])).0, Some(0));
        assert_eq!(boards.repeats(b, hand(&[Rook, Pawn])).0, Some(0));
        assert_eq!(boards.repeats(b, Hand::EMPTY).0, Some(0));
        // More, or something else: the attacker may have made progress.
        assert_eq!(boards.repeats(b, hand(&[Rook, Pawn, Pawn])).0, None);
        assert_eq!(boards.repeats(b, hand(&[Gold])).0, None);
        assert_eq!(boards.repeats(0x42, Hand::EMPTY).0, None);
        // A deeper occurrence with less in hand: the deepest one that covers answers.
        boards.push(b, hand(&[Rook]), 2);
        assert_eq!(boards.repeats(b, hand(&[Rook])).0, Some(2));
        assert_eq!(boards.repeats(b, hand(&[Pawn])).0, Some(0));
        boards.pop(b);
        assert_eq!(boards.repeats(b, hand(&[Rook])).0, Some(0));
        boards.pop(other);
        assert_eq!(boards.repeats(other, Hand::EMPTY).0, None);
        boards.pop(b);
        assert_eq!(boards.repeats(b, Hand::EMPTY).0, None);
    }

    /// A board found again with the attacker holding as much or more is a pump, with less or
    /// something else it is not.
    #[test]
    fn pumps_need_a_covered_hand() {
        use crate::position::PieceKind::{Gold, Pawn, Rook};
        let b = 0x1234_5678_9abc_def0;
        let mut boards = PathBoards::default();
        boards.push(b, hand(&[Rook, Pawn]), 0);
        boards.push(0x42, hand(&[Gold]), 1);
        assert!(boards.repeats(b, hand(&[Rook, Pawn, Pawn])).1);
        assert!(boards.repeats(b, hand(&[Rook, Pawn, Gold])).1);
        assert!(!boards.repeats(b, hand(&[Rook])).1);
        assert!(!boards.repeats(b, hand(&[Gold, Pawn])).1);
        assert!(!boards.repeats(0x43, hand(&[Rook, Pawn])).1);
        // A deeper occurrence holding more does not hide a shallower one holding less.
        boards.push(b, hand(&[Rook, Pawn, Pawn, Pawn]), 2);
        assert!(boards.repeats(b, hand(&[Rook, Pawn, Pawn])).1);
        boards.pop(b);
        boards.pop(0x42);
        boards.pop(b);
        assert!(!boards.repeats(b, hand(&[Rook, Pawn, Pawn])).1);
    }

    #[test]
    fn path_keys_depend_on_order() {
        // Two different moves in both orders give different keys.
        use crate::position::Position;
        let p = Position::startpos();
        let a = p.parse_usi_move("7g7f").unwrap();
        let b = p.parse_usi_move("2g2f").unwrap();
        assert_ne!(
            next_path(next_path(ROOT_PATH, a), b),
            next_path(next_path(ROOT_PATH, b), a)
        );
    }
}
