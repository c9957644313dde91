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
//! ## Table soundness
//! Canonical lengths are not minimax lengths, so the bounded searches of the canonical game store
//! their results under a table salt of their own (`CANONICAL_SALT`): a strict "no mate within d"
//! would be wrong for them, and theirs for the strict game. Mate or no mate is the same in both games
//! (a futile drop is captured into a position whose defender has only drops left, each futile again,
//! and the board is finite), but the canonical searches do not rely on it: they read only their own
//! entries.

use super::dfpn::Dfpn;
use crate::position::movegen::{MoveList, generate_checks, generate_evasions};
use crate::position::{Hand, Move};

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

/// Whether the defender's move `m` (legal in the current position, the defender in check) is a futile
/// drop interposition (module comment); if so, the proof hand it needs: none (the rule reads the
/// board only).
pub(super) fn futile_proof(s: &mut Dfpn, m: Move) -> Option<Hand> {
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
            && evasions.iter().all(|&e| futile_proof(s, e).is_some());
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

    #[test]
    fn parses_its_spellings() {
        assert_eq!(Futile::parse("SKIP"), Some(Futile::Skip));
        assert_eq!(Futile::parse(" count "), Some(Futile::Count));
        assert_eq!(Futile::parse("maybe"), None);
        assert_eq!(Futile::parse(Futile::Skip.usi_name()), Some(Futile::Skip));
    }
}
