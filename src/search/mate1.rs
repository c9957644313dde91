//! Mate in one without generating the attacker's moves (Kaneko et al., "df-pn with fixed-depth search
//! at frontier nodes", §4.3; the bitboard layout follows the idea of YaneuraOu's mate-1-ply: candidate
//! sets per piece kind, tables for drops).
//!
//! `mate_in_one` answers **exactly** whether the side to move has a check after which the defender has
//! no legal reply, and returns such a move with the proof hand it needs. It never builds a move list and
//! never plays a move to find out:
//!
//! 1. Once per call (`Ctx::new`): the defender king's neighbours, which of them the attacker covers, the
//!    *escapes* (neighbours the king could step to now), the attacker's pinned pieces and the attacker's
//!    pieces that shield a slider line onto the king (discoverers).
//! 2. Drops (`drops.rs`): a table indexed by the 8-bit escape pattern gives, per hand kind, the
//!    neighbours where a drop of that kind checks and covers every escape; it is and-ed with the
//!    neighbours that are empty and guarded. Knight and distant slider drops have their own short tests.
//! 3. Board moves (`moves.rs`): per attacker piece, one bitboard of destinations that can check (king
//!    neighbours, knight squares, distant lines that the defender cannot surely block), and a bitboard
//!    test that the piece covers every escape it must (only a line opened through the vacated square can
//!    cover the others). Pieces shielding a discovered check have all their moves considered.
//! 4. The few candidates that pass are judged exactly on bitboards by `after::judge`, which sees the
//!    position after the move without playing it: attacker legality (pins to its own king, king
//!    steps), every king step with x-rays through the vacated square and through the king, captures of
//!    the checker with the capturer's pin *after* the move, double checks, drops and moves between a
//!    distant checker and the king (two-pawn rule, dead pieces).
//!
//! Moves are tried before drops (the paper's order: a move keeps the proof hand small).
//!
//! Slow exact paths, both rare (counted in `Mate1Stats`; `tests/mate1/` measures how rare):
//! * the attacker is in check (only in game positions): generate-and-test (`mate_in_one_reference`);
//! * a candidate whose only defence is a pawn drop that would check the attacker's king (both kings on
//!   the board): that drop is illegal if it mates, so the candidate is played and its evasions counted.
//!
//! On the OR nodes around the problems' lines few candidates reach the judgement, and the whole
//! call takes several times fewer instructions than generate-and-test (`benches/mate1.rs`; the
//! rates and the speed measured are in docs/benchmarks.md).

mod after;
mod drops;
mod moves;

use super::hands::{and_proof_extra, before_proof};
use crate::position::attacks::{
    Direction, attacks, king_attacks, king_zone_bishop, king_zone_rook, king_zone_steps,
};
use crate::position::movegen::{MoveList, count_evasions, generate_checks};
use crate::position::{Bitboard, Color, Hand, Move, PieceKind, Position, Square};
use after::Verdict;

/// How `mating_move_counted` got its answers (for tests and measurements).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mate1Stats {
    /// Calls.
    pub calls: u64,
    /// Calls answered by generate-and-test because the attacker was in check.
    pub in_check_fallbacks: u64,
    /// Candidates passed to the exact bitboard judgement.
    pub judged: u64,
    /// Candidates the judgement left open (a defending pawn drop would check the attacker's king), then
    /// settled by playing the move.
    pub played: u64,
}

/// A mating move of the side to move and the proof hand it needs (what the attacker must hold for this
/// mate: `before_proof` of the mated position's `and_proof_extra`), or `None` when no check mates.
/// `pos` is played into and restored only when a mate is found (to read the mated position's proof).
pub fn mate_in_one(pos: &mut Position) -> Option<(Move, Hand)> {
    let m = mating_move(pos)?;
    Some((m, proof_hand(pos, m)))
}

/// A mating move of the side to move, if there is one (no proof hand).
pub fn mating_move(pos: &Position) -> Option<Move> {
    mating_move_counted(pos, &mut Mate1Stats::default())
}

/// `mating_move`, adding to `stats` how the answer was found.
pub fn mating_move_counted(pos: &Position, stats: &mut Mate1Stats) -> Option<Move> {
    stats.calls += 1;
    if pos.in_check() {
        // Every move must then also answer the attacker's own check: rare (game positions only), so the
        // generator, which knows evasions, does it.
        stats.in_check_fallbacks += 1;
        return mate_in_one_reference(&mut pos.clone(), &mut MoveList::new()).0;
    }
    let ctx = Ctx::new(pos)?;
    let mut finder = Finder {
        ctx,
        stats,
        open: Vec::new(),
    };
    if let Some(m) = moves::find(&mut finder).or_else(|| drops::find(&mut finder)) {
        return Some(m);
    }
    let open = std::mem::take(&mut finder.open);
    open.into_iter().find(|&m| {
        finder.stats.played += 1;
        mates_when_played(pos, m)
    })
}

/// The proof hand of the mate `m` in `pos` (see `mate_in_one`).
pub fn proof_hand(pos: &mut Position, m: Move) -> Hand {
    let attacker = pos.side_to_move();
    pos.do_move(m);
    let extra = and_proof_extra(pos, attacker);
    pos.undo_move(m);
    before_proof(pos, m, extra)
}

/// The generate-and-test oracle: every check is generated into `checks` (left there) and played, and
/// the defender's evasions counted. Pawn-drop mates never count: the check generator does not produce
/// them. Also returns how many checks were played.
pub fn mate_in_one_reference(pos: &mut Position, checks: &mut MoveList) -> (Option<Move>, u64) {
    checks.clear();
    generate_checks(pos, checks);
    for (i, &m) in checks.iter().enumerate() {
        pos.do_move(m);
        let mated = count_evasions(pos) == 0;
        pos.undo_move(m);
        if mated {
            return (Some(m), i as u64 + 1);
        }
    }
    (None, checks.len() as u64)
}

/// Plays the legal check `m` on a copy and counts the defender's replies.
fn mates_when_played(pos: &Position, m: Move) -> bool {
    let mut p = pos.clone();
    p.do_move(m);
    count_evasions(&p) == 0
}

/// Whether an attacker piece of `kind`, first met from a square in direction `d`, attacks that square
/// along the line (from afar: bishops and horses on diagonals, rooks and dragons on ranks and files, a
/// lance when it points back along `d`, that is when `d` is the way a defender's lance moves).
fn slides_towards(kind: PieceKind, d: Direction, defender: Color) -> bool {
    if d.is_diagonal() {
        matches!(kind, PieceKind::Bishop | PieceKind::Horse)
    } else {
        matches!(kind, PieceKind::Rook | PieceKind::Dragon)
            || (kind == PieceKind::Lance && d.is_lance_direction(defender))
    }
}

/// What every test of one call shares: the position and the facts around the defender's king.
#[derive(Clone, Copy)]
struct Ctx<'a> {
    pos: &'a Position,
    us: Color,
    them: Color,
    /// The defender's king.
    ksq: Square,
    /// The attacker's king, if any (game positions).
    our_king: Option<Square>,
    occ: Bitboard,
    ours: Bitboard,
    theirs: Bitboard,
    /// The king's neighbours.
    near: Bitboard,
    /// Neighbours the attacker attacks now.
    covered: Bitboard,
    /// Neighbours two or more attacker pieces attack now.
    covered_twice: Bitboard,
    /// Defender pieces pinned to their king now.
    their_pinned: Bitboard,
    /// Neighbours the king could step to now: not the defender's, not attacked.
    escapes: Bitboard,
    /// Attacker pieces pinned to the attacker's king.
    our_pinned: Bitboard,
    /// Attacker pieces alone between an attacker slider and the defender's king: any move off that line
    /// checks.
    discoverers: Bitboard,
}

impl<'a> Ctx<'a> {
    /// `None` when the defender has no king (nothing to mate).
    fn new(pos: &'a Position) -> Option<Ctx<'a>> {
        let us = pos.side_to_move();
        let them = us.flip();
        let ksq = pos.king_square(them)?;
        let occ = pos.occupied();
        let (ours, theirs) = (pos.pieces(us), pos.pieces(them));
        let near = king_attacks(ksq);
        // The defender is not in check (the attacker is to move), so no attacker line runs through the
        // king: lifting it out of the occupancy would change nothing here.
        let (covered, covered_twice) = coverage(pos, us, ours, ksq);
        // One scan of the attacker's lines onto the king gives both the defender's pinned pieces and
        // the attacker's discoverers: the pieces standing alone on such a line, sorted by colour.
        let blockers = pos.slider_blockers(us, ksq);
        Some(Ctx {
            pos,
            us,
            them,
            ksq,
            our_king: pos.king_square(us),
            occ,
            ours,
            theirs,
            near,
            covered,
            covered_twice,
            their_pinned: blockers & theirs,
            escapes: near.and_not(theirs | covered),
            our_pinned: pos.pinned(us),
            discoverers: blockers & ours,
        })
    }
}

/// The neighbours of `ksq` that the pieces `set` of colour `c` attack, with one piece or more and with
/// two or more. Only pieces standing where they could reach a neighbour are looked at (the
/// `king_zone_*` tables).
fn coverage(pos: &Position, c: Color, set: Bitboard, ksq: Square) -> (Bitboard, Bitboard) {
    let near = king_attacks(ksq);
    let occ = pos.occupied();
    let (mut once, mut twice) = (Bitboard::EMPTY, Bitboard::EMPTY);
    relevant(pos, ksq, set).for_each(|s| {
        let a = attacks(pos.piece_at(s).kind(), c, s, occ) & near;
        twice |= once & a;
        once |= a;
    });
    (once, twice)
}

/// The pieces of `set` that could attack a neighbour of `ksq`: step pieces close by, sliders on the
/// lines through the neighbours.
fn relevant(pos: &Position, ksq: Square, set: Bitboard) -> Bitboard {
    let rook_or_lance = pos.rook_like() | pos.kind_bb(PieceKind::Lance);
    set & (king_zone_steps(ksq)
        | (rook_or_lance & king_zone_rook(ksq))
        | (pos.bishop_like() & king_zone_bishop(ksq)))
}

/// The candidate checks' judge: counts, and keeps the candidates that must be played to be settled.
struct Finder<'a, 's> {
    ctx: Ctx<'a>,
    stats: &'s mut Mate1Stats,
    open: Vec<Move>,
}

impl Finder<'_, '_> {
    /// Whether the attacker's move `m` (a legal move by its shape: dead-piece rules and the mover's
    /// reach already hold) mates for sure. `direct`: see `after::judge`.
    fn mates(&mut self, m: Move, direct: bool) -> bool {
        self.stats.judged += 1;
        match after::judge(&self.ctx, m, direct) {
            Verdict::Mate => true,
            Verdict::NoMate => false,
            Verdict::Open => {
                self.open.push(m);
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mate(sfen: &str) -> Option<String> {
        let mut pos = Position::from_sfen(sfen).unwrap();
        let reference = mate_in_one_reference(&mut pos.clone(), &mut MoveList::new()).0;
        let found = mate_in_one(&mut pos).map(|(m, _)| m);
        assert_eq!(found.is_some(), reference.is_some(), "{sfen}");
        found.map(|m| m.to_usi())
    }

    #[test]
    fn finds_mates_and_refuses_pawn_drop_mate() {
        // A gold drop on the head of a cornered king.
        assert_eq!(mate("8k/9/8P/9/9/9/9/9/9 b G 1").as_deref(), Some("G*1b"));
        // The only "mate" would be a pawn drop.
        assert_eq!(mate("7nk/9/8G/9/9/9/9/9/9 b P 1"), None);
        // No check mates: the king escapes.
        assert_eq!(mate("9/9/9/9/4k4/9/9/9/9 b G 1"), None);
    }

    #[test]
    fn proof_hand_counts_the_drop() {
        let mut pos = Position::from_sfen("8k/9/8P/9/9/9/9/9/9 b 2G 1").unwrap();
        let (m, proof) = mate_in_one(&mut pos).unwrap();
        assert_eq!(m.to_usi(), "G*1b");
        assert_eq!(format!("{proof:?}"), "G");
    }

    #[test]
    fn board_move_preferred_to_drop() {
        // G*1b mates, and so do the board moves 2c1b and 1c1b+: a board move is returned, which keeps
        // the proof hand empty.
        let mut pos = Position::from_sfen("8k/9/7GP/9/9/9/9/9/9 b G 1").unwrap();
        let (m, proof) = mate_in_one(&mut pos).unwrap();
        assert!(!m.is_drop(), "{m}");
        assert!(proof.is_empty(), "{proof:?}");
    }
}
