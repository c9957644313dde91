//! Futile interpositions (無駄合): the canonical game's rule (`game.rs`), read off the board.
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
//! node, so a chain of interpositions each captured by the checker (`edge-cases.tsv`'s edge-3) is
//! futile all along.
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
//! The rule searches nothing, so the searcher asks it wherever a canonical node is expanded
//! (`mark_futile`) and the line phases wherever a canonical line is read (`excused`). The
//! composers' reading, which does search, is a test of the ranking pass (`canonical/composers.rs`).

use crate::position::movegen::{
    MoveList, check_gap, generate_checks, generate_evasions, generate_king_evasions,
    generate_other_evasions,
};
use crate::position::{Bitboard, Hand, Move, Position, Square};
use crate::search::frontier::is_interposition;
use crate::search::mate1;
use crate::search::node::Child;
use crate::search::numbers::INF;

/// Whether the defender's move `m` (legal in the current position, the defender in check, an
/// interposition) is a futile drop interposition (the narrow rule, module comment); if so, the proof
/// hand it needs: none, the rule reads the board only.
pub fn futile_proof(pos: &mut Position, m: Move) -> Option<Hand> {
    narrow(pos, m)
}

/// The narrow rule (antma/tsumeshogi-check's): the checker captures and the defender is left with
/// drops only. Needs no proof hand: the rule reads the board only.
pub fn narrow(pos: &mut Position, m: Move) -> Option<Hand> {
    let checkers = pos.checkers();
    if !m.is_drop() || checkers.is_empty() || checkers.has_more_than_one() {
        return None;
    }
    let checker = checkers.first();
    pos.do_move(m);
    let mut checks = MoveList::new();
    generate_checks(pos, &mut checks);
    let mut futile = false;
    for &c in checks
        .iter()
        .filter(|c| !c.is_drop() && c.from() == checker && c.to() == m.to())
    {
        pos.do_move(c);
        let mut evasions = MoveList::new();
        generate_evasions(pos, &mut evasions);
        futile = evasions.iter().all(|e| e.is_drop());
        pos.undo_move(c);
        if futile {
            break;
        }
    }
    pos.undo_move(m);
    futile.then_some(Hand::EMPTY)
}

/// Whether the reply `m` (`gap`: the check's) is no defence in the canonical game: a futile
/// interposition. Never searches.
pub fn excused(pos: &mut Position, m: Move, gap: Bitboard) -> bool {
    is_interposition(m, gap) && futile_proof(pos, m).is_some()
}

/// Whether no evasion in `moves` (those of `pos`, an AND node) counts in the canonical game: each is
/// a futile interposition.
pub fn no_defence_left(pos: &mut Position, moves: &MoveList) -> bool {
    let gap = check_gap(pos);
    moves.iter().all(|&m| excused(pos, m, gap))
}

/// The canonical game: marks the futile drop interpositions among `kids`, the children of the AND
/// node `pos` (proven, no defence) under the check whose gap is `gap`. Drops on one square share one
/// test: the rule looks at the position after the checker's capture, the same whatever was dropped.
pub fn mark_futile(pos: &mut Position, kids: &mut [Child], gap: Bitboard) {
    let mut tested: [(Option<Square>, Option<Hand>); 8] = [(None, None); 8];
    for c in kids.iter_mut() {
        let m = c.mv;
        if !is_interposition(m, gap) || !m.is_drop() {
            continue;
        }
        let proof = match tested.iter().find(|t| t.0 == Some(m.to())) {
            Some(&(_, proof)) => proof,
            None => {
                let proof = futile_proof(pos, m);
                if let Some(slot) = tested.iter_mut().find(|t| t.0.is_none()) {
                    *slot = (Some(m.to()), proof);
                }
                proof
            }
        };
        if let Some(proof) = proof {
            (c.pn, c.dn, c.len, c.hand, c.futile) = (0, INF, 0, proof, true);
        }
    }
}

/// Whether some check of the current OR node leaves the defender nothing but futile drops (or no
/// move at all). Without such a check the canonical game has a mate in one exactly where the strict
/// game has one (a check answered by one evasion that is not a futile drop is answered in both games),
/// so mate-1's "no mate in one" holds in the canonical game too.
///
/// The king's evasions are generated first: a check the king can step out of is answered by a move
/// that is no drop, so the others (the drops, many of them) are only generated where it cannot.
pub fn may_mate_in_one(pos: &mut Position) -> bool {
    let mut checks = MoveList::new();
    generate_checks(pos, &mut checks);
    let mut evasions = MoveList::new();
    checks.iter().any(|&c| {
        pos.do_move(c);
        let futile_only = drops_only_and_futile(pos, &mut evasions);
        pos.undo_move(c);
        futile_only
    })
}

/// The defender to move in `pos`, in check: whether every evasion is a futile drop (none at all
/// included). `evasions` is scratch.
fn drops_only_and_futile(pos: &mut Position, evasions: &mut MoveList) -> bool {
    evasions.clear();
    generate_king_evasions(pos, evasions);
    if !evasions.is_empty() {
        return false;
    }
    generate_other_evasions(pos, evasions);
    if !evasions.iter().all(|e| e.is_drop()) {
        return false;
    }
    // The rule reads the position after the checker's capture: drops on one square share one answer.
    let mut futile = Bitboard::EMPTY;
    evasions.iter().all(|&e| {
        futile.contains(e.to())
            || narrow(pos, e).is_some() && {
                futile |= Bitboard::from_square(e.to());
                true
            }
    })
}

/// The canonical game's mate in one, exactly: a strict mate in one, or a check answered only by
/// futile drops (`may_mate_in_one`).
fn canonical_mate_in_one(pos: &mut Position) -> bool {
    mate1::mating_move(pos).is_some() || may_mate_in_one(pos)
}

/// The canonical game's 3-ply frontier (the strict game's is `frontier::mate_in_three`): true when
/// the attacker, to move in `pos`, has **no canonical mate within three plies**, on any path; false
/// when it has one, or when a line met a position of the path (`on_path`, full keys) before the
/// answer was known — then the caller searches the node as usual.
///
/// Argument. A canonical mate within three is a check after which every evasion that counts (all
/// but the futile drops, `excused`) allows a canonical mate in one (`canonical_mate_in_one`, exact:
/// a strict mate in one or a check answered only by futile drops); a check with no evasion that
/// counts is a mate in one. So the answer is yes exactly when every check has an evasion that counts
/// and leaves no canonical mate in one, and each such refuting evasion is found by playing the
/// evasions in turn: an evasion is only asked whether it is futile once it has been seen to escape
/// (a futile drop is no defence whatever follows it). Every check is played and every refutation
/// is checked against the path, so a true answer never rests on a cut line and holds for every path
/// to the position, as a bounded disproof must (`Searcher::bounded_disproof`). The killer (the
/// king's destination that refuted the previous check) changes the order, not the answer.
///
/// `tests/differential/canonical.rs` compares it with the brute force's canonical game.
pub fn no_mate_within_three(
    pos: &mut Position,
    on_path: impl Fn(u64) -> bool,
    bufs: &mut [MoveList; 2],
) -> bool {
    let [checks, evasions] = bufs;
    checks.clear();
    generate_checks(pos, checks);
    let mut killer = None;
    for &c in checks.iter() {
        pos.do_move(c);
        let refuted = if on_path(pos.key()) {
            None
        } else {
            escape(pos, &on_path, evasions, &mut killer)
        };
        pos.undo_move(c);
        if refuted != Some(true) {
            return false;
        }
    }
    true
}

/// The defender to move in `pos` (in check): `Some(true)` if some evasion that counts leaves the
/// attacker no canonical mate in one, `Some(false)` if none does, `None` if a line met the path first.
fn escape(
    pos: &mut Position,
    on_path: &impl Fn(u64) -> bool,
    evasions: &mut MoveList,
    killer: &mut Option<Square>,
) -> Option<bool> {
    let gap = check_gap(pos);
    // `Some(true)`: `e` counts and escapes; `None`: it met the path.
    let escapes = |pos: &mut Position, e: Move| {
        pos.do_move(e);
        let r = if on_path(pos.key()) {
            None
        } else {
            Some(!canonical_mate_in_one(pos))
        };
        pos.undo_move(e);
        match r {
            Some(true) => Some(!excused(pos, e, gap)),
            other => other,
        }
    };
    evasions.clear();
    generate_king_evasions(pos, evasions);
    if let Some(i) = killer.and_then(|sq| evasions.iter().position(|e| e.to() == sq)) {
        evasions.as_mut_slice().swap(0, i);
    }
    for i in 0..evasions.len() {
        let e = evasions.as_slice()[i];
        if escapes(pos, e)? {
            *killer = Some(e.to());
            return Some(true);
        }
    }
    evasions.clear();
    generate_other_evasions(pos, evasions);
    for i in 0..evasions.len() {
        if escapes(pos, evasions.as_slice()[i])? {
            return Some(true);
        }
    }
    Some(false)
}
