//! Legal move generation: all moves, checks only (OR nodes), evasions only (AND nodes).
//!
//! Every generator yields legal moves only: pins and king safety are resolved while generating, the
//! two-pawn rule and the pawn-drop-mate rule are applied to drops, and a pawn, lance or knight is never
//! left where it could not move again. Non-promotions of pawns, lances, bishops and rooks are generated
//! wherever they are legal: a mate problem can hinge on them.
//!
//! Shape of the generators (what makes them fast):
//! - one loop per piece kind rather than one `match` per piece, so each loop knows its kind's attack
//!   function and promotion rule at compile time;
//! - pawns move as a whole bitboard (one shift), not one by one;
//! - a move is built from a per-piece `base` (origin, piece, promotion flag) or-ed with the destination;
//! - pins are computed once per node, king steps are tested square by square against the enemy pieces
//!   that can reach a king neighbour at all, never with a full `attackers_to`;
//! - `MoveList` does not initialise its buffer (see the `SAFETY` notes there).

use super::Position;
use super::attacks::*;
use super::bitboard::Bitboard;
use super::types::{Color, Move, Piece, PieceKind, Square};
use std::mem::MaybeUninit;

/// Enough for any shogi position (the known maximum is 593 legal moves).
pub const MAX_MOVES: usize = 600;

/// A fixed-capacity move list on the stack: no heap allocation in the search.
///
/// The buffer is left uninitialised: zeroing its 2,400 bytes at every node would be the largest
/// single cost of perft (callgrind: docs/benchmarks.md). Invariant: `moves[..len]` is always
/// initialised; `push` writes an element before `len` grows over it, and nothing else raises `len`.
#[derive(Clone)]
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        // Bounds-checked: a generator bug panics instead of writing past the buffer.
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: `moves[..len]` is initialised (the type invariant: only `push` raises `len`, by one,
        // right after writing that slot; `clear` and `retain` only lower it), `len <= MAX_MOVES` because
        // `push` indexes with a bounds check before incrementing, and `MaybeUninit<Move>` has the same
        // layout as `Move`. The slice borrows `self`, so no `push` can run while it is alive.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`; the exclusive borrow of `self` makes the slice the only access.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }
    /// Keeps only the moves for which `f` is true, in order.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let slice = self.as_mut_slice();
        let mut w = 0;
        for r in 0..slice.len() {
            let m = slice[r];
            if f(m) {
                slice[w] = m;
                w += 1;
            }
        }
        self.len = w;
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline(always)]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

/// The last rank of each colour (no pawn or lance may stay there unpromoted).
const LAST_RANK: [Bitboard; 2] = [
    Bitboard::relative_ranks(Color::Black, 1, 1),
    Bitboard::relative_ranks(Color::White, 1, 1),
];
/// The last two ranks of each colour (no knight may stay there unpromoted).
const LAST_TWO_RANKS: [Bitboard; 2] = [
    Bitboard::relative_ranks(Color::Black, 1, 2),
    Bitboard::relative_ranks(Color::White, 1, 2),
];

/// Squares a piece of `kind` may stop on without promoting (pawns and lances not on the last rank,
/// knights not on the last two).
#[inline(always)]
fn nonpromotion_allowed(kind: PieceKind, us: Color) -> Bitboard {
    match kind {
        PieceKind::Pawn | PieceKind::Lance => !LAST_RANK[us.index()],
        PieceKind::Knight => !LAST_TWO_RANKS[us.index()],
        _ => Bitboard::ALL,
    }
}

/// Squares a piece that can promote, standing on `from`, may move to with promotion: anywhere if it
/// starts in the zone, else into the zone.
#[inline(always)]
fn promotion_targets(us: Color, from: Square) -> Bitboard {
    PROMOTION_TARGETS[us.index()][from.index()]
}

/// `promotion_targets` as a table (a look-up is cheaper than a `u128` bit test and a select).
static PROMOTION_TARGETS: [[Bitboard; Square::NUM]; 2] = {
    let mut t = [[Bitboard::EMPTY; Square::NUM]; 2];
    let mut c = 0;
    while c < 2 {
        let color = if c == 0 { Color::Black } else { Color::White };
        let zone = Bitboard::promotion_zone(color);
        let mut sq = 0;
        while sq < Square::NUM {
            t[c][sq] = if zone.contains(Square::from_index(sq)) {
                Bitboard::ALL
            } else {
                zone
            };
            sq += 1;
        }
        c += 1;
    }
    t
};

/// Where the generators put moves: a `MoveList`, or a `MoveCounter` that only adds up set sizes (the
/// last ply of perft, "how many evasions"), so that no move is ever built there.
trait MoveSink {
    /// The moves `base | to` for every `to` in `to_set` (see `Move::with_to`).
    fn add(&mut self, base: u32, to_set: Bitboard);
    /// Pawn moves of `us` to the squares of `to_set`, each from the square behind it.
    fn add_pawn_moves(&mut self, us: Color, to_set: Bitboard, promote: bool);
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn add(&mut self, base: u32, to_set: Bitboard) {
        to_set.for_each(|to| self.push(Move::with_to(base, to)));
    }

    #[inline(always)]
    fn add_pawn_moves(&mut self, us: Color, to_set: Bitboard, promote: bool) {
        let p = Piece::new(PieceKind::Pawn, us);
        to_set.for_each(|to| {
            let from = match us {
                Color::Black => Square::from_index(to.index() + 1),
                Color::White => Square::from_index(to.index() - 1),
            };
            self.push(Move::normal(from, to, promote, p));
        });
    }
}

/// Counts moves instead of storing them.
struct MoveCounter(usize);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn add(&mut self, _base: u32, to_set: Bitboard) {
        self.0 += to_set.count() as usize;
    }

    #[inline(always)]
    fn add_pawn_moves(&mut self, _us: Color, to_set: Bitboard, _promote: bool) {
        self.0 += to_set.count() as usize;
    }
}

/// Adds the moves of `p` from `from`: with promotion to `promo`, without to `plain` (both already
/// restricted to where that choice is legal). Promotions first: they are the better moves to try first.
#[inline(always)]
fn push_split(list: &mut impl MoveSink, p: Piece, from: Square, promo: Bitboard, plain: Bitboard) {
    list.add(Move::base_normal(from, true, p), promo);
    list.add(Move::base_normal(from, false, p), plain);
}

/// Board moves of every piece of `us` except the king, to squares of `target`, with pins against the
/// king on `ksq` resolved (`pinned` must be empty when there is no king; `ksq` is then never read).
/// `NARROW`: `target` is small (evasions: the checker and the squares between), so sliders are first
/// tested on the empty board and most skip their attack set. Only the pieces of `movers` move (all of
/// `us`, or those a caller already knows can reach `target`).
#[inline(always)]
fn push_board_moves<const NARROW: bool>(
    pos: &Position,
    list: &mut impl MoveSink,
    us: Color,
    target: Bitboard,
    pinned: Bitboard,
    ksq: Square,
    movers: Bitboard,
) {
    let occ = pos.occupied();
    let own = pos.pieces(us) & movers;
    let zone = Bitboard::promotion_zone(us);
    let last = LAST_RANK[us.index()];

    // Pawns: the unpinned ones all at once; a pinned pawn can only advance along a file pin.
    let pawns = pos.pieces_of(us, PieceKind::Pawn) & movers;
    let mut pawn_to = pawns.and_not(pinned).forward(us) & target;
    (pawns & pinned).for_each(|from| pawn_to |= pawn_attacks(us, from) & target & line(ksq, from));
    if pawn_to.is_not_empty() {
        list.add_pawn_moves(us, pawn_to & zone, true);
        list.add_pawn_moves(us, pawn_to.and_not(last), false);
    }

    let p = Piece::new(PieceKind::Lance, us);
    each_piece(
        pos.pieces_of(us, PieceKind::Lance) & movers,
        pinned,
        ksq,
        target,
        |from, target| {
            if NARROW && (lance_pseudo(us, from) & target).is_empty() {
                return;
            }
            let to = lance_attacks(us, from, occ) & target;
            push_split(list, p, from, to & zone, to.and_not(last));
        },
    );

    // A pinned knight can never move (no knight move stays on a line).
    let p = Piece::new(PieceKind::Knight, us);
    (pos.pieces_of(us, PieceKind::Knight) & movers)
        .and_not(pinned)
        .for_each(|from| {
            let to = knight_attacks(us, from) & target;
            push_split(
                list,
                p,
                from,
                to & zone,
                to.and_not(LAST_TWO_RANKS[us.index()]),
            );
        });

    // Silvers and gold-likes step one square: with a small target only those next to it can reach it.
    let steppers_near = if NARROW {
        let mut near = Bitboard::EMPTY;
        target.for_each(|t| near |= king_attacks(t));
        near
    } else {
        Bitboard::ALL
    };

    let p = Piece::new(PieceKind::Silver, us);
    each_piece(
        pos.pieces_of(us, PieceKind::Silver) & movers & steppers_near,
        pinned,
        ksq,
        target,
        |from, target| {
            let to = silver_attacks(us, from) & target;
            push_split(list, p, from, to & promotion_targets(us, from), to);
        },
    );

    // Gold and the pieces that move like it.
    each_piece(
        pos.golds() & own & steppers_near,
        pinned,
        ksq,
        target,
        |from, target| {
            let to = gold_attacks(us, from) & target;
            list.add(Move::base_normal(from, false, pos.piece_at(from)), to);
        },
    );

    // Bishops and rooks may promote; non-promotions are always legal for them.
    let p = Piece::new(PieceKind::Bishop, us);
    each_piece(
        pos.pieces_of(us, PieceKind::Bishop) & movers,
        pinned,
        ksq,
        target,
        |from, target| {
            if NARROW && (bishop_pseudo(from) & target).is_empty() {
                return;
            }
            let to = bishop_attacks(from, occ) & target;
            push_split(list, p, from, to & promotion_targets(us, from), to);
        },
    );
    let p = Piece::new(PieceKind::Rook, us);
    each_piece(
        pos.pieces_of(us, PieceKind::Rook) & movers,
        pinned,
        ksq,
        target,
        |from, target| {
            if NARROW && (rook_pseudo(from) & target).is_empty() {
                return;
            }
            let to = rook_attacks(from, occ) & target;
            push_split(list, p, from, to & promotion_targets(us, from), to);
        },
    );
    let p = Piece::new(PieceKind::Horse, us);
    each_piece(
        pos.pieces_of(us, PieceKind::Horse) & movers,
        pinned,
        ksq,
        target,
        |from, target| {
            if NARROW && ((bishop_pseudo(from) | king_attacks(from)) & target).is_empty() {
                return;
            }
            let to = (bishop_attacks(from, occ) | king_attacks(from)) & target;
            list.add(Move::base_normal(from, false, p), to);
        },
    );
    let p = Piece::new(PieceKind::Dragon, us);
    each_piece(
        pos.pieces_of(us, PieceKind::Dragon) & movers,
        pinned,
        ksq,
        target,
        |from, target| {
            if NARROW && ((rook_pseudo(from) | king_attacks(from)) & target).is_empty() {
                return;
            }
            let to = (rook_attacks(from, occ) | king_attacks(from)) & target;
            list.add(Move::base_normal(from, false, p), to);
        },
    );
}

/// Calls `f(from, allowed)` for each piece of `set`: `allowed` is `target`, narrowed for a pinned piece
/// to the line through it and its king on `ksq`. Unpinned and pinned pieces are walked separately, so
/// the common case pays no per-piece pin test.
#[inline(always)]
fn each_piece(
    set: Bitboard,
    pinned: Bitboard,
    ksq: Square,
    target: Bitboard,
    mut f: impl FnMut(Square, Bitboard),
) {
    if pinned.is_empty() {
        set.for_each(|from| f(from, target));
    } else {
        set.and_not(pinned).for_each(|from| f(from, target));
        (set & pinned).for_each(|from| f(from, target & line(ksq, from)));
    }
}

/// Is dropping a pawn of `us` on `to` (which checks the enemy king) mate? Then it is illegal.
pub fn is_pawn_drop_mate(pos: &Position, us: Color, to: Square) -> bool {
    let them = us.flip();
    let Some(eksq) = pos.king_square(them) else {
        return false;
    };
    let mut occ = pos.occupied();
    occ.set(to);
    // Can the king step anywhere safe (including onto the pawn)? The usual way out, so tested first.
    let escapes = king_attacks(eksq).and_not(pos.pieces(them));
    occ.clear(eksq);
    if escapes
        .and_not(pos.king_danger(us, eksq, occ))
        .is_not_empty()
    {
        return false;
    }
    occ.set(eksq);
    // Can a defender other than the king take the pawn without exposing its king?
    let mut takers = pos.attackers_to(them, to, occ);
    takers.clear(eksq);
    if takers.is_empty() {
        return true;
    }
    let pinned = pos.pinned(them);
    for f in takers {
        if !pinned.contains(f) || aligned(eksq, f, to) {
            return false;
        }
    }
    true
}

/// Drops of `us` to the squares of `target` (which must be empty).
#[inline(always)]
fn push_drops(pos: &Position, list: &mut impl MoveSink, us: Color, target: Bitboard) {
    let hand = pos.hand(us);
    if hand.is_empty() || target.is_empty() {
        return;
    }
    if hand.has(PieceKind::Pawn) {
        let mut to_set = target.and_not(LAST_RANK[us.index()])
            & pos.pieces_of(us, PieceKind::Pawn).empty_files();
        if let Some(eksq) = pos.king_square(us.flip()) {
            // The one square where a pawn drop checks: it may be mate.
            let front = pawn_attacks(us.flip(), eksq);
            if (to_set & front).is_not_empty() && is_pawn_drop_mate(pos, us, front.first()) {
                to_set = to_set.and_not(front);
            }
        }
        list.add(Move::base_drop(PieceKind::Pawn, us), to_set);
    }
    if hand.has(PieceKind::Lance) {
        let to_set = target.and_not(LAST_RANK[us.index()]);
        list.add(Move::base_drop(PieceKind::Lance, us), to_set);
    }
    if hand.has(PieceKind::Knight) {
        let to_set = target.and_not(LAST_TWO_RANKS[us.index()]);
        list.add(Move::base_drop(PieceKind::Knight, us), to_set);
    }
    for kind in [
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
    ] {
        if hand.has(kind) {
            list.add(Move::base_drop(kind, us), target);
        }
    }
}

/// King moves of `us` to squares of `target` that no enemy piece attacks once the king has left.
#[inline(always)]
fn push_king_moves(
    pos: &Position,
    list: &mut impl MoveSink,
    us: Color,
    ksq: Square,
    target: Bitboard,
) {
    let cand = king_attacks(ksq) & target;
    if cand.is_empty() {
        return;
    }
    let mut occ = pos.occupied();
    occ.clear(ksq);
    let safe = cand.and_not(pos.king_danger(us.flip(), ksq, occ));
    list.add(
        Move::base_normal(ksq, false, Piece::new(PieceKind::King, us)),
        safe,
    );
}

/// Every legal move.
pub fn generate_legal(pos: &Position, list: &mut MoveList) {
    legal_into(pos, list);
}

/// The empty squares between the king of the side to move and a single distant checker (where
/// interpositions go); empty for a contact check, a double check or no check.
#[inline]
pub fn check_gap(pos: &Position) -> Bitboard {
    let checkers = pos.checkers();
    match pos.king_square(pos.side_to_move()) {
        Some(k) if checkers.is_not_empty() && !checkers.has_more_than_one() => {
            between(checkers.first(), k)
        }
        _ => Bitboard::EMPTY,
    }
}

/// Every legal move when the side to move is in check.
pub fn generate_evasions(pos: &Position, list: &mut MoveList) {
    evasions_into(pos, list);
}

#[inline(always)]
fn legal_into(pos: &Position, list: &mut impl MoveSink) {
    if pos.in_check() {
        evasions_into(pos, list);
        return;
    }
    let us = pos.side_to_move();
    let target = !pos.pieces(us);
    match pos.king_square(us) {
        Some(ksq) => {
            let pinned = pos.pinned(us);
            push_board_moves::<false>(pos, list, us, target, pinned, ksq, Bitboard::ALL);
            push_king_moves(pos, list, us, ksq, target);
        }
        None => push_board_moves::<false>(
            pos,
            list,
            us,
            target,
            Bitboard::EMPTY,
            Square::from_index(0),
            Bitboard::ALL,
        ),
    }
    push_drops(pos, list, us, !pos.occupied());
}

/// The king's evasions only (the side to move must be in check): the first part of
/// `generate_evasions`, for a caller that often needs no other (`frontier::mated_in_two`).
pub fn generate_king_evasions(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    if let Some(ksq) = pos.king_square(us) {
        push_king_moves(pos, list, us, ksq, !pos.pieces(us));
    }
}

/// The evasions by other pieces than the king (captures of a single checker, interpositions): the
/// rest of `generate_evasions` after `generate_king_evasions`.
pub fn generate_other_evasions(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    if let Some(ksq) = pos.king_square(us) {
        other_evasions_into(pos, list, us, ksq);
    }
}

#[inline(always)]
fn evasions_into(pos: &Position, list: &mut impl MoveSink) {
    let us = pos.side_to_move();
    let Some(ksq) = pos.king_square(us) else {
        return;
    };
    push_king_moves(pos, list, us, ksq, !pos.pieces(us));
    other_evasions_into(pos, list, us, ksq);
}

#[inline(always)]
fn other_evasions_into(pos: &Position, list: &mut impl MoveSink, us: Color, ksq: Square) {
    let checkers = pos.checkers();
    debug_assert!(checkers.is_not_empty());
    if checkers.has_more_than_one() {
        return;
    }
    let checker = checkers.first();
    let gap = between(checker, ksq);
    let pinned = pos.pinned(us);
    push_board_moves::<true>(pos, list, us, gap | checkers, pinned, ksq, Bitboard::ALL);
    push_drops(pos, list, us, gap);
}

mod checks;
mod count;
pub use checks::{check_squares, count_checks, generate_checks};
pub use count::{count_evasion_groups, count_evasions, count_legal, perft};

#[cfg(test)]
mod tests;
