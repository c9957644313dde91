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

use crate::position::Move;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A bound larger than any search's: "no mate within `NO_MATE_PLIES`" is "no mate" for a bounded search.
pub const NO_MATE_PLIES: u32 = u32::MAX >> 1;

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
