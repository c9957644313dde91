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
/// The buffer is left uninitialised: zeroing 2,400 bytes per node was the largest single cost of perft
/// (31 % of the instructions of `perft 4`, `memset` in callgrind). Invariant: `moves[..len]` is always
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
    let zone = Bitboard::promotion_zone(us);
    if zone.contains(from) {
        Bitboard::ALL
    } else {
        zone
    }
}

/// Squares a piece of `kind` may be dropped on (dead-piece rule only).
#[inline(always)]
fn drop_allowed(kind: PieceKind, us: Color) -> Bitboard {
    nonpromotion_allowed(kind, us)
}

/// Pushes `base | to` for every `to` in `to_set` (see `Move::with_to`).
#[inline(always)]
fn push_all(list: &mut MoveList, base: u32, to_set: Bitboard) {
    for to in to_set {
        list.push(Move::with_to(base, to));
    }
}

/// Pushes the moves of `p` from `from`: with promotion to `promo`, without to `plain` (both already
/// restricted to where that choice is legal). Promotions first: they are the better moves to try first.
#[inline(always)]
fn push_split(list: &mut MoveList, p: Piece, from: Square, promo: Bitboard, plain: Bitboard) {
    push_all(list, Move::base_normal(from, true, p), promo);
    push_all(list, Move::base_normal(from, false, p), plain);
}

/// Pushes pawn moves of `us` to the squares of `to_set`, each from the square behind it.
#[inline(always)]
fn push_pawn_moves(list: &mut MoveList, us: Color, to_set: Bitboard, promote: bool) {
    let p = Piece::new(PieceKind::Pawn, us);
    for to in to_set {
        let from = match us {
            Color::Black => Square::from_index(to.index() + 1),
            Color::White => Square::from_index(to.index() - 1),
        };
        list.push(Move::normal(from, to, promote, p));
    }
}

/// Where a pinned piece on `from` may go: the line through it and its king (`ALL` when not pinned).
#[inline(always)]
fn pin_mask(pinned: Bitboard, ksq: Square, from: Square) -> Bitboard {
    if pinned.contains(from) {
        line(ksq, from)
    } else {
        Bitboard::ALL
    }
}

/// Board moves of every piece of `us` except the king, to squares of `target`, with pins against the
/// king on `ksq` resolved (`pinned` must be empty when there is no king; `ksq` is then never read).
#[inline(always)]
fn push_board_moves(
    pos: &Position,
    list: &mut MoveList,
    us: Color,
    target: Bitboard,
    pinned: Bitboard,
    ksq: Square,
) {
    let occ = pos.occupied();
    let own = pos.pieces(us);
    let zone = Bitboard::promotion_zone(us);

    // Pawns: the unpinned ones all at once; a pinned pawn can only advance along a file pin.
    let pawns = pos.pieces_of(us, PieceKind::Pawn);
    let mut pawn_to = pawns.and_not(pinned).forward(us) & target;
    for from in pawns & pinned {
        pawn_to |= pawn_attacks(us, from) & target & line(ksq, from);
    }
    if pawn_to.is_not_empty() {
        push_pawn_moves(list, us, pawn_to & zone, true);
        push_pawn_moves(list, us, pawn_to.and_not(LAST_RANK[us.index()]), false);
    }

    // Lances.
    let p = Piece::new(PieceKind::Lance, us);
    for from in pos.pieces_of(us, PieceKind::Lance) {
        let to = lance_attacks(us, from, occ) & target & pin_mask(pinned, ksq, from);
        push_split(list, p, from, to & zone, to.and_not(LAST_RANK[us.index()]));
    }

    // Knights: a pinned knight can never move (no knight move stays on a line).
    let p = Piece::new(PieceKind::Knight, us);
    for from in pos.pieces_of(us, PieceKind::Knight).and_not(pinned) {
        let to = knight_attacks(us, from) & target;
        push_split(
            list,
            p,
            from,
            to & zone,
            to.and_not(LAST_TWO_RANKS[us.index()]),
        );
    }

    // Silvers.
    let p = Piece::new(PieceKind::Silver, us);
    for from in pos.pieces_of(us, PieceKind::Silver) {
        let to = silver_attacks(us, from) & target & pin_mask(pinned, ksq, from);
        push_split(list, p, from, to & promotion_targets(us, from), to);
    }

    // Gold and the pieces that move like it.
    for from in pos.golds() & own {
        let to = gold_attacks(us, from) & target & pin_mask(pinned, ksq, from);
        push_all(list, Move::base_normal(from, false, pos.piece_at(from)), to);
    }

    // Bishops and rooks may promote; non-promotions are always legal for them.
    let p = Piece::new(PieceKind::Bishop, us);
    for from in pos.pieces_of(us, PieceKind::Bishop) {
        let to = bishop_attacks(from, occ) & target & pin_mask(pinned, ksq, from);
        push_split(list, p, from, to & promotion_targets(us, from), to);
    }
    let p = Piece::new(PieceKind::Rook, us);
    for from in pos.pieces_of(us, PieceKind::Rook) {
        let to = rook_attacks(from, occ) & target & pin_mask(pinned, ksq, from);
        push_split(list, p, from, to & promotion_targets(us, from), to);
    }
    let p = Piece::new(PieceKind::Horse, us);
    for from in pos.pieces_of(us, PieceKind::Horse) {
        let to =
            (bishop_attacks(from, occ) | king_attacks(from)) & target & pin_mask(pinned, ksq, from);
        push_all(list, Move::base_normal(from, false, p), to);
    }
    let p = Piece::new(PieceKind::Dragon, us);
    for from in pos.pieces_of(us, PieceKind::Dragon) {
        let to =
            (rook_attacks(from, occ) | king_attacks(from)) & target & pin_mask(pinned, ksq, from);
        push_all(list, Move::base_normal(from, false, p), to);
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
    if pos.unattacked_squares(us, escapes, occ).is_not_empty() {
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
fn push_drops(pos: &Position, list: &mut MoveList, us: Color, target: Bitboard) {
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
        push_all(list, Move::base_drop(PieceKind::Pawn, us), to_set);
    }
    if hand.has(PieceKind::Lance) {
        let to_set = target.and_not(LAST_RANK[us.index()]);
        push_all(list, Move::base_drop(PieceKind::Lance, us), to_set);
    }
    if hand.has(PieceKind::Knight) {
        let to_set = target.and_not(LAST_TWO_RANKS[us.index()]);
        push_all(list, Move::base_drop(PieceKind::Knight, us), to_set);
    }
    for kind in [
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
    ] {
        if hand.has(kind) {
            push_all(list, Move::base_drop(kind, us), target);
        }
    }
}

/// King moves of `us` to squares of `target` that no enemy piece attacks once the king has left.
#[inline(always)]
fn push_king_moves(pos: &Position, list: &mut MoveList, us: Color, ksq: Square, target: Bitboard) {
    let cand = king_attacks(ksq) & target;
    if cand.is_empty() {
        return;
    }
    let mut occ = pos.occupied();
    occ.clear(ksq);
    let safe = pos.unattacked_squares(us.flip(), cand, occ);
    push_all(
        list,
        Move::base_normal(ksq, false, Piece::new(PieceKind::King, us)),
        safe,
    );
}

/// Every legal move.
pub fn generate_legal(pos: &Position, list: &mut MoveList) {
    if pos.in_check() {
        generate_evasions(pos, list);
        return;
    }
    let us = pos.side_to_move();
    let target = !pos.pieces(us);
    match pos.king_square(us) {
        Some(ksq) => {
            let pinned = pos.pinned(us);
            push_board_moves(pos, list, us, target, pinned, ksq);
            push_king_moves(pos, list, us, ksq, target);
        }
        None => push_board_moves(
            pos,
            list,
            us,
            target,
            Bitboard::EMPTY,
            Square::from_index(0),
        ),
    }
    push_drops(pos, list, us, !pos.occupied());
}

/// Every legal move when the side to move is in check.
pub fn generate_evasions(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let Some(ksq) = pos.king_square(us) else {
        return;
    };
    let checkers = pos.checkers();
    debug_assert!(checkers.is_not_empty());
    push_king_moves(pos, list, us, ksq, !pos.pieces(us));
    if checkers.has_more_than_one() {
        return;
    }
    let checker = checkers.first();
    let gap = between(checker, ksq);
    let pinned = pos.pinned(us);
    push_board_moves(pos, list, us, gap | checkers, pinned, ksq);
    push_drops(pos, list, us, gap);
}

/// For each kind, the squares from which a piece of that kind (of the side to move) would check the
/// enemy king on `eksq` with the current occupancy.
#[inline]
pub fn check_squares(pos: &Position, us: Color, eksq: Square) -> [Bitboard; PieceKind::NUM] {
    let occ = pos.occupied();
    let them = us.flip();
    let gold = gold_attacks(them, eksq);
    let bishop = bishop_attacks(eksq, occ);
    let rook = rook_attacks(eksq, occ);
    let king = king_attacks(eksq);
    let mut t = [Bitboard::EMPTY; PieceKind::NUM];
    t[PieceKind::Pawn.index()] = pawn_attacks(them, eksq);
    t[PieceKind::Lance.index()] = lance_attacks(them, eksq, occ);
    t[PieceKind::Knight.index()] = knight_attacks(them, eksq);
    t[PieceKind::Silver.index()] = silver_attacks(them, eksq);
    t[PieceKind::Gold.index()] = gold;
    t[PieceKind::Bishop.index()] = bishop;
    t[PieceKind::Rook.index()] = rook;
    t[PieceKind::ProPawn.index()] = gold;
    t[PieceKind::ProLance.index()] = gold;
    t[PieceKind::ProKnight.index()] = gold;
    t[PieceKind::ProSilver.index()] = gold;
    t[PieceKind::Horse.index()] = bishop | king;
    t[PieceKind::Dragon.index()] = rook | king;
    t
}

/// Every legal move that checks the enemy king: direct checks (with and without promotion), discovered
/// checks and checking drops, generated from the check squares rather than by filtering all moves.
/// When the side to move is itself in check, its evasions that also give check.
pub fn generate_checks(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let Some(eksq) = pos.king_square(us.flip()) else {
        return;
    };
    if pos.in_check() {
        let mut all = MoveList::new();
        generate_evasions(pos, &mut all);
        for &m in all.iter() {
            if pos.gives_check(m) {
                list.push(m);
            }
        }
        return;
    }
    let own = pos.pieces(us);
    let occ = pos.occupied();
    let target = !own;
    let ksq = pos.king_square(us);
    let pinned = pos.pinned(us);
    let discoverers = pos.slider_blockers(us, eksq) & own;
    let chk = check_squares(pos, us, eksq);
    // A piece can only check if it is a discoverer, or if it can reach some check square: the union of
    // all check squares bounds that, and most pieces fail the cheap test below.
    let reach_any = chk[PieceKind::Dragon.index()]
        | chk[PieceKind::Horse.index()]
        | chk[PieceKind::Knight.index()]
        | chk[PieceKind::Lance.index()];
    for from in own.and_not(pos.kind_bb(PieceKind::King)) {
        let p = pos.piece_at(from);
        let kind = p.kind();
        let mut att = attacks(kind, us, from, occ) & target;
        if let Some(k) = ksq
            && pinned.contains(from)
        {
            att &= line(k, from);
        }
        let disc = discoverers.contains(from);
        if !disc && (att & reach_any).is_empty() {
            continue;
        }
        let d = if disc {
            att.and_not(line(eksq, from))
        } else {
            Bitboard::EMPTY
        };
        let promo = if kind.can_promote() {
            ((att & chk[kind.promoted().index()]) | d) & promotion_targets(us, from)
        } else {
            Bitboard::EMPTY
        };
        let plain = ((att & chk[kind.index()]) | d) & nonpromotion_allowed(kind, us);
        push_split(list, p, from, promo, plain);
    }
    if let Some(k) = ksq
        && discoverers.contains(k)
    {
        push_king_moves(pos, list, us, k, target.and_not(line(eksq, k)));
    }
    let empty = !occ;
    let hand = pos.hand(us);
    for kind in PieceKind::HAND {
        if !hand.has(kind) {
            continue;
        }
        let mut to_set = chk[kind.index()] & empty & drop_allowed(kind, us);
        if kind == PieceKind::Pawn
            && let Some(to) = to_set.lsb()
            && (!pos.pawn_file_free(us, to.file()) || is_pawn_drop_mate(pos, us, to))
        {
            to_set = Bitboard::EMPTY;
        }
        for to in to_set {
            list.push(Move::drop(kind, to, us));
        }
    }
}

/// Counts the leaf nodes of the legal move tree to `depth` (bulk-counting the last ply).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut n = 0;
    for &m in list.iter() {
        pos.do_move(m);
        n += perft(pos, depth - 1);
        pos.undo_move(m);
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn perft_of(sfen: &str, depth: u32) -> u64 {
        let mut p = Position::from_sfen(sfen).unwrap();
        perft(&mut p, depth)
    }

    #[test]
    fn perft_startpos_shallow() {
        assert_eq!(perft_of("startpos", 1), 30);
        assert_eq!(perft_of("startpos", 2), 900);
        assert_eq!(perft_of("startpos", 3), 25470);
    }

    #[test]
    fn perft_593_moves() {
        let s = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1";
        assert_eq!(perft_of(s, 1), 593);
    }

    #[test]
    fn pawn_drop_mate_is_not_generated() {
        // White king on 1a boxed in by its own pieces; P*1b would be mate.
        let p = Position::from_sfen("7nk/9/8G/9/9/9/9/9/9 b P 1").unwrap();
        let mut list = MoveList::new();
        generate_legal(&p, &mut list);
        assert!(!list.iter().any(|m| m.to_usi() == "P*1b"));
        // With an escape square it is legal.
        let p = Position::from_sfen("8k/9/8G/9/9/9/9/9/9 b P 1").unwrap();
        let mut list = MoveList::new();
        generate_legal(&p, &mut list);
        assert!(list.iter().any(|m| m.to_usi() == "P*1b"));
    }
}
