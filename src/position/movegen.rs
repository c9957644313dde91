//! Legal move generation: all moves, checks only (OR nodes), evasions only (AND nodes).
//!
//! Every generator yields legal moves only: pins and king safety are resolved while generating, the
//! two-pawn rule and the pawn-drop-mate rule are applied to drops, and a pawn, lance or knight is never
//! left where it could not move again. Non-promotions of pawns, lances, bishops and rooks are generated
//! wherever they are legal: a mate problem can hinge on them.

use super::attacks::*;
use super::bitboard::Bitboard;
use super::types::{Color, Move, Piece, PieceKind, Square};
use super::Position;

/// Enough for any shogi position (the known maximum is 593 legal moves).
pub const MAX_MOVES: usize = 600;

/// A fixed-capacity move list on the stack: no heap allocation in the search.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
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
            moves: [Move::NONE; MAX_MOVES],
            len: 0,
        }
    }
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
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
        &self.moves[..self.len]
    }
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
    /// Keeps only the moves for which `f` is true, in order.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut w = 0;
        for r in 0..self.len {
            let m = self.moves[r];
            if f(m) {
                self.moves[w] = m;
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

/// Squares a piece of `kind` may stop on without promoting (pawns and lances not on the last rank,
/// knights not on the last two).
#[inline(always)]
fn nonpromotion_allowed(kind: PieceKind, us: Color) -> Bitboard {
    match kind {
        PieceKind::Pawn | PieceKind::Lance => !Bitboard::relative_ranks(us, 1, 1),
        PieceKind::Knight => !Bitboard::relative_ranks(us, 1, 2),
        _ => Bitboard::ALL,
    }
}

/// Squares a piece of `kind` on `from` may move to with promotion.
#[inline(always)]
fn promotion_allowed(kind: PieceKind, us: Color, from: Square) -> Bitboard {
    if !kind.can_promote() {
        Bitboard::EMPTY
    } else if Bitboard::promotion_zone(us).contains(from) {
        Bitboard::ALL
    } else {
        Bitboard::promotion_zone(us)
    }
}

/// Squares a piece of `kind` may be dropped on (dead-piece rule only).
#[inline(always)]
fn drop_allowed(kind: PieceKind, us: Color) -> Bitboard {
    nonpromotion_allowed(kind, us)
}

/// Pushes the moves of `p` from `from`: with promotion to `promo`, without to `plain` (both already
/// restricted to where that choice is legal). Promotions first: they are the better moves to try first.
#[inline(always)]
fn push_split(list: &mut MoveList, p: Piece, from: Square, promo: Bitboard, plain: Bitboard) {
    for to in promo {
        list.push(Move::normal(from, to, true, p));
    }
    for to in plain {
        list.push(Move::normal(from, to, false, p));
    }
}

/// Pushes every legal promotion choice of `p` from `from` to each square of `to_set`.
#[inline(always)]
fn push_piece_moves(list: &mut MoveList, p: Piece, from: Square, to_set: Bitboard, us: Color) {
    let kind = p.kind();
    push_split(
        list,
        p,
        from,
        to_set & promotion_allowed(kind, us, from),
        to_set & nonpromotion_allowed(kind, us),
    );
}

/// Is dropping a pawn of `us` on `to` (which checks the enemy king) mate? Then it is illegal.
pub fn is_pawn_drop_mate(pos: &Position, us: Color, to: Square) -> bool {
    let them = us.flip();
    let Some(eksq) = pos.king_square(them) else {
        return false;
    };
    let mut occ = pos.occupied();
    occ.set(to);
    // Can a defender other than the king take the pawn without exposing its king?
    let pinned = pos.pinned(them);
    let mut takers = pos.attackers_to(them, to, occ);
    takers.clear(eksq);
    for f in takers {
        if !pinned.contains(f) || aligned(eksq, f, to) {
            return false;
        }
    }
    // Can the king step anywhere safe (including onto the pawn)?
    let mut occ_wo_king = occ;
    occ_wo_king.clear(eksq);
    for sq in king_attacks(eksq).and_not(pos.pieces(them)) {
        if pos.attackers_to(us, sq, occ_wo_king).is_empty() {
            return false;
        }
    }
    true
}

/// Drops of `us` to the squares of `target` (which must be empty).
fn push_drops(pos: &Position, list: &mut MoveList, us: Color, target: Bitboard) {
    let hand = pos.hand(us);
    if hand.is_empty() || target.is_empty() {
        return;
    }
    for kind in PieceKind::HAND {
        if !hand.has(kind) {
            continue;
        }
        let mut to_set = target & drop_allowed(kind, us);
        if kind == PieceKind::Pawn {
            to_set = to_set.and_not(Bitboard::from_files_mask(pos.pawn_files(us)));
            if let Some(eksq) = pos.king_square(us.flip()) {
                // The one square where a pawn drop checks: it may be mate.
                let front = pawn_attacks(us.flip(), eksq);
                if (to_set & front).is_not_empty() && is_pawn_drop_mate(pos, us, front.first()) {
                    to_set = to_set.and_not(front);
                }
            }
        }
        for to in to_set {
            list.push(Move::drop(kind, to, us));
        }
    }
}

/// King moves of `us` to squares of `target` that no enemy piece attacks once the king has left.
#[inline]
fn push_king_moves(pos: &Position, list: &mut MoveList, us: Color, ksq: Square, target: Bitboard) {
    let mut occ = pos.occupied();
    occ.clear(ksq);
    let king = Piece::new(PieceKind::King, us);
    for to in king_attacks(ksq) & target {
        if pos.attackers_to(us.flip(), to, occ).is_empty() {
            list.push(Move::normal(ksq, to, false, king));
        }
    }
}

/// Every legal move.
pub fn generate_legal(pos: &Position, list: &mut MoveList) {
    if pos.in_check() {
        generate_evasions(pos, list);
        return;
    }
    let us = pos.side_to_move();
    let own = pos.pieces(us);
    let occ = pos.occupied();
    let target = !own;
    let ksq = pos.king_square(us);
    let pinned = pos.pinned(us);
    for from in own.and_not(pos.kind_bb(PieceKind::King)) {
        let p = pos.piece_at(from);
        let mut to_set = attacks(p.kind(), us, from, occ) & target;
        if let Some(k) = ksq
            && pinned.contains(from)
        {
            to_set &= line(k, from);
        }
        push_piece_moves(list, p, from, to_set, us);
    }
    if let Some(k) = ksq {
        push_king_moves(pos, list, us, k, target);
    }
    push_drops(pos, list, us, !occ);
}

/// Every legal move when the side to move is in check.
pub fn generate_evasions(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let Some(ksq) = pos.king_square(us) else {
        return;
    };
    let checkers = pos.checkers();
    debug_assert!(checkers.is_not_empty());
    let own = pos.pieces(us);
    push_king_moves(pos, list, us, ksq, !own);
    if checkers.has_more_than_one() {
        return;
    }
    let checker = checkers.first();
    let gap = between(checker, ksq);
    let target = gap | checkers;
    let occ = pos.occupied();
    let pinned = pos.pinned(us);
    for from in own.and_not(pos.kind_bb(PieceKind::King)) {
        let p = pos.piece_at(from);
        let mut to_set = attacks(p.kind(), us, from, occ) & target;
        if pinned.contains(from) {
            to_set &= line(ksq, from);
        }
        push_piece_moves(list, p, from, to_set, us);
    }
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
            ((att & chk[kind.promoted().index()]) | d) & promotion_allowed(kind, us, from)
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
