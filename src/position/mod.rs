//! The board: bitboards, hands, Zobrist keys, do/undo, attack queries, SFEN.
//!
//! Positions without a king for one side (the usual tsume problem: the attacker has none) work everywhere:
//! a missing king simply has no squares to defend and no pins.

pub mod attacks;
pub mod bitboard;
pub mod hand;
pub mod movegen;
pub mod sfen;
pub mod types;
mod zobrist;

pub use bitboard::Bitboard;
pub use hand::Hand;
pub use movegen::MoveList;
pub use sfen::SfenError;
pub use types::{Color, Move, Piece, PieceKind, Square};

use attacks::*;

/// What `do_move` saves so that `undo_move` can restore the position, and what repetition detection
/// reads back.
#[derive(Clone, Copy, Debug)]
struct StateInfo {
    board_key: u64,
    hand_key: u64,
    checkers: Bitboard,
    captured: Piece,
    mv: Move,
}

#[derive(Clone)]
pub struct Position {
    board: [Piece; Square::NUM],
    by_color: [Bitboard; 2],
    /// Indexed by `PieceKind as usize`; index 0 unused.
    by_kind: [Bitboard; PieceKind::NUM],
    hands: [Hand; 2],
    side: Color,
    king: [Option<Square>; 2],
    board_key: u64,
    hand_key: u64,
    checkers: Bitboard,
    /// The SFEN move number of the position this one was set up from.
    start_ply: u32,
    history: Vec<StateInfo>,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_sfen())
    }
}

impl Position {
    /// An empty board, Black to move (used by the SFEN reader, which then places pieces).
    fn empty() -> Position {
        Position {
            board: [Piece::EMPTY; Square::NUM],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; PieceKind::NUM],
            hands: [Hand::EMPTY; 2],
            side: Color::Black,
            king: [None; 2],
            board_key: 0,
            hand_key: 0,
            checkers: Bitboard::EMPTY,
            start_ply: 1,
            history: Vec::with_capacity(256),
        }
    }

    pub fn startpos() -> Position {
        Position::from_sfen(sfen::STARTPOS).expect("the starting position is valid")
    }

    // ---- accessors -------------------------------------------------------------------------------

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }
    #[inline(always)]
    pub fn hand(&self, c: Color) -> Hand {
        self.hands[c.index()]
    }
    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Option<Square> {
        self.king[c.index()]
    }
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }
    #[inline(always)]
    pub fn pieces(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }
    #[inline(always)]
    pub fn kind_bb(&self, k: PieceKind) -> Bitboard {
        self.by_kind[k.index()]
    }
    #[inline(always)]
    pub fn pieces_of(&self, c: Color, k: PieceKind) -> Bitboard {
        self.by_kind[k.index()] & self.by_color[c.index()]
    }
    /// Gold and the four pieces that move like it.
    #[inline(always)]
    pub fn golds(&self) -> Bitboard {
        self.kind_bb(PieceKind::Gold)
            | self.kind_bb(PieceKind::ProPawn)
            | self.kind_bb(PieceKind::ProLance)
            | self.kind_bb(PieceKind::ProKnight)
            | self.kind_bb(PieceKind::ProSilver)
    }
    #[inline(always)]
    pub fn rook_like(&self) -> Bitboard {
        self.kind_bb(PieceKind::Rook) | self.kind_bb(PieceKind::Dragon)
    }
    #[inline(always)]
    pub fn bishop_like(&self) -> Bitboard {
        self.kind_bb(PieceKind::Bishop) | self.kind_bb(PieceKind::Horse)
    }
    /// The pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.is_not_empty()
    }
    /// Board part of the Zobrist key (pieces and side to move).
    #[inline(always)]
    pub fn board_key(&self) -> u64 {
        self.board_key
    }
    /// Hands part of the Zobrist key.
    #[inline(always)]
    pub fn hand_key(&self) -> u64 {
        self.hand_key
    }
    /// The whole position's key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.board_key ^ self.hand_key
    }
    /// Moves played since the position was set up.
    #[inline(always)]
    pub fn moves_played(&self) -> usize {
        self.history.len()
    }
    /// The last move played (`Move::NONE` at the set-up position).
    pub fn last_move(&self) -> Move {
        self.history.last().map_or(Move::NONE, |s| s.mv)
    }
    /// The moves played since set-up, oldest first.
    pub fn played_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|s| s.mv)
    }
    /// The SFEN move number of the current position.
    pub fn ply(&self) -> u32 {
        self.start_ply + self.history.len() as u32
    }

    /// The unpromoted pawns of `c`, as a file mask (bit `f-1` for file `f`).
    #[inline(always)]
    pub fn pawn_files(&self, c: Color) -> u16 {
        self.pieces_of(c, PieceKind::Pawn).files_mask()
    }

    // ---- attack queries --------------------------------------------------------------------------

    /// The pieces of colour `c` that attack `sq`, given the occupancy `occ`.
    ///
    /// A slider's rays are traced only when a slider of `c` stands on one of the lines through `sq`
    /// (on the empty board): most positions have few, and tracing is most of the cost.
    #[inline]
    pub fn attackers_to(&self, c: Color, sq: Square, occ: Bitboard) -> Bitboard {
        let them = c.flip();
        let own = self.pieces(c);
        let steps = ((pawn_attacks(them, sq) & self.kind_bb(PieceKind::Pawn))
            | (knight_attacks(them, sq) & self.kind_bb(PieceKind::Knight))
            | (silver_attacks(them, sq) & self.kind_bb(PieceKind::Silver))
            | (gold_attacks(them, sq) & self.golds())
            | (king_attacks(sq)
                & (self.kind_bb(PieceKind::King)
                    | self.kind_bb(PieceKind::Horse)
                    | self.kind_bb(PieceKind::Dragon))))
            & own;
        let mut attackers = steps;
        let lances = self.kind_bb(PieceKind::Lance) & own;
        if (lance_pseudo(them, sq) & lances).is_not_empty() {
            attackers |= lance_attacks(them, sq, occ) & lances;
        }
        let bishops = self.bishop_like() & own;
        if (bishop_pseudo(sq) & bishops).is_not_empty() {
            attackers |= bishop_attacks(sq, occ) & bishops;
        }
        let rooks = self.rook_like() & own;
        if (rook_pseudo(sq) & rooks).is_not_empty() {
            attackers |= rook_attacks(sq, occ) & rooks;
        }
        attackers
    }

    /// The neighbours of `ksq` that colour `c` attacks, given the occupancy `occ` (for king steps: pass
    /// the occupancy with the king lifted out, so that it cannot hide behind itself on a checking line).
    /// Only the eight neighbours of `ksq` are meaningful in the result.
    ///
    /// Only the pieces of `c` that can reach a neighbour at all contribute (`king_zone_*`): in most
    /// positions that is none or a few, so this beats an `attackers_to` per destination. Adding the
    /// destination to `occ` is not needed: a piece on a square only shortens rays beyond it.
    ///
    /// The pieces are taken kind by kind (no look-up of each piece's kind): a horse or dragon adds its
    /// king steps with the step pieces and its line with the sliders, which together are its attacks.
    #[inline]
    pub fn king_danger(&self, c: Color, ksq: Square, occ: Bitboard) -> Bitboard {
        let own = self.pieces(c);
        let steps = own & king_zone_steps(ksq);
        let mut danger = Bitboard::EMPTY;
        (steps & self.kind_bb(PieceKind::Pawn)).for_each(|s| danger |= pawn_attacks(c, s));
        (steps & self.kind_bb(PieceKind::Knight)).for_each(|s| danger |= knight_attacks(c, s));
        (steps & self.kind_bb(PieceKind::Silver)).for_each(|s| danger |= silver_attacks(c, s));
        (steps & self.golds()).for_each(|s| danger |= gold_attacks(c, s));
        (steps
            & (self.kind_bb(PieceKind::King)
                | self.kind_bb(PieceKind::Horse)
                | self.kind_bb(PieceKind::Dragon)))
        .for_each(|s| danger |= king_attacks(s));
        let rook_zone = own & king_zone_rook(ksq);
        (rook_zone & self.kind_bb(PieceKind::Lance))
            .for_each(|s| danger |= lance_attacks(c, s, occ));
        (rook_zone & self.rook_like()).for_each(|s| danger |= rook_attacks(s, occ));
        (own & king_zone_bishop(ksq) & self.bishop_like())
            .for_each(|s| danger |= bishop_attacks(s, occ));
        danger
    }

    /// Whether `c` attacks `sq` with the current occupancy.
    #[inline]
    pub fn is_attacked(&self, c: Color, sq: Square) -> bool {
        self.attackers_to(c, sq, self.occupied()).is_not_empty()
    }

    /// The sliders of colour `c` that would attack `target` on an empty board (lances, bishops, rooks and
    /// their promotions): the candidates for pins and discovered checks against `target`.
    #[inline]
    pub fn snipers(&self, c: Color, target: Square) -> Bitboard {
        ((rook_pseudo(target) & self.rook_like())
            | (bishop_pseudo(target) & self.bishop_like())
            | (lance_pseudo(c.flip(), target) & self.kind_bb(PieceKind::Lance)))
            & self.pieces(c)
    }

    /// Pieces of either colour that stand alone between a slider of `c` and `target`: moving such a
    /// piece off the line opens an attack of `c` on `target`.
    #[inline]
    pub fn slider_blockers(&self, c: Color, target: Square) -> Bitboard {
        let occ = self.occupied();
        let mut result = Bitboard::EMPTY;
        for s in self.snipers(c, target) {
            let b = between(s, target) & occ;
            if !b.has_more_than_one() {
                // Empty (a checker) adds nothing.
                result |= b;
            }
        }
        result
    }

    /// Pieces of `c` pinned to `c`'s own king.
    #[inline]
    pub fn pinned(&self, c: Color) -> Bitboard {
        match self.king_square(c) {
            Some(k) => self.slider_blockers(c.flip(), k) & self.pieces(c),
            None => Bitboard::EMPTY,
        }
    }

    fn compute_checkers(&self) -> Bitboard {
        match self.king_square(self.side) {
            Some(k) => self.attackers_to(self.side.flip(), k, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// The checkers of the side to move right after `m` was played by the other side, derived from the
    /// move instead of a full `attackers_to`: before the move the mover's opponent was not in check, so
    /// a checker is either the piece that landed on `to` (direct check) or a slider of the mover whose
    /// line to the king ran through `from` (discovered check).
    #[inline(always)]
    fn checkers_after(&self, m: Move) -> Bitboard {
        let Some(k) = self.king_square(self.side) else {
            return Bitboard::EMPTY;
        };
        let mover = self.side.flip();
        let occ = self.occupied();
        let to = m.to();
        let mut checkers = if piece_attacks_square(m.kind_after(), mover, to, k, occ) {
            Bitboard::from_square(to)
        } else {
            Bitboard::EMPTY
        };
        if !m.is_drop() {
            checkers |= self.line_attackers(mover, k, m.from(), occ, self.pieces(mover));
        }
        checkers
    }

    /// Whether the move (assumed legal here) checks the opponent king: a direct check by the piece on
    /// `to`, or a discovered check along the line from the king through `from`.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let Some(eksq) = self.king_square(us.flip()) else {
            return false;
        };
        let to = m.to();
        if m.is_drop() {
            return piece_attacks_square(m.drop_kind(), us, to, eksq, self.occupied());
        }
        let from = m.from();
        let from_bb = Bitboard::from_square(from);
        let occ = self.occupied().and_not(from_bb) | Bitboard::from_square(to);
        piece_attacks_square(m.kind_after(), us, to, eksq, occ)
            || self
                .line_attackers(us, eksq, from, occ, self.pieces(us).and_not(from_bb))
                .is_not_empty()
    }

    /// The sliders among `own` (pieces of `mover`) that attack the king on `k` along the line through
    /// `from`, given `occ` (empty when `from` is not on a line with `k`).
    #[inline(always)]
    fn line_attackers(
        &self,
        mover: Color,
        k: Square,
        from: Square,
        occ: Bitboard,
        own: Bitboard,
    ) -> Bitboard {
        let Some(d) = direction(k, from) else {
            return Bitboard::EMPTY;
        };
        // What the king sees in that direction, and whether it is one of the mover's sliders that
        // attack along it (lances only point one way along a file).
        let seen = ray_attacks(d, k, occ) & own;
        let sliders = if d.is_diagonal() {
            self.bishop_like()
        } else if d.is_lance_direction(mover.flip()) {
            self.rook_like() | self.kind_bb(PieceKind::Lance)
        } else {
            self.rook_like()
        };
        seen & sliders
    }

    // ---- making moves ----------------------------------------------------------------------------

    #[inline(always)]
    fn put(&mut self, p: Piece, sq: Square) {
        self.board[sq.index()] = p;
        self.by_color[p.color().index()].set(sq);
        self.by_kind[p.kind().index()].set(sq);
        self.board_key ^= zobrist::piece_square(p, sq);
    }

    #[inline(always)]
    fn hand_add(&mut self, c: Color, k: PieceKind) {
        self.hands[c.index()].add(k);
        self.hand_key = self.hand_key.wrapping_add(zobrist::hand_piece(c, k));
    }

    #[inline(always)]
    fn hand_remove(&mut self, c: Color, k: PieceKind) {
        self.hands[c.index()].remove(k);
        self.hand_key = self.hand_key.wrapping_sub(zobrist::hand_piece(c, k));
    }

    /// Moves one piece of kind `k` (a hand kind) from `from`'s hand to the other side's, keys
    /// included: the same board with the material split differently (the futile-interposition test
    /// asks whether a mate goes on without a captured piece). `from` must hold one.
    pub fn transfer_hand_piece(&mut self, from: Color, k: PieceKind) {
        debug_assert!(self.hand(from).count(k) > 0);
        self.hand_remove(from, k);
        self.hand_add(from.flip(), k);
    }

    /// Plays a legal move.
    ///
    /// Works on the bitboards directly (one xor of `from | to` for the mover's colour) and keeps the
    /// board key in a register; the moving piece comes from the move, not from the board.
    pub fn do_move(&mut self, m: Move) {
        let us = self.side;
        let them = us.flip();
        let (board_key, hand_key) = (self.board_key, self.hand_key);
        let mut key = board_key ^ zobrist::side();
        let to = m.to();
        let to_bb = Bitboard::from_square(to);
        let p = m.piece();
        let mut captured = Piece::EMPTY;
        if m.is_drop() {
            let k = p.kind();
            self.hand_remove(us, k);
            self.board[to.index()] = p;
            self.by_color[us.index()] |= to_bb;
            self.by_kind[k.index()] |= to_bb;
            key ^= zobrist::piece_square(p, to);
        } else {
            let from = m.from();
            captured = self.board[to.index()];
            if !captured.is_empty() {
                let ck = captured.kind();
                self.by_color[them.index()] ^= to_bb;
                self.by_kind[ck.index()] ^= to_bb;
                key ^= zobrist::piece_square(captured, to);
                self.hand_add(us, ck.unpromoted());
                if ck == PieceKind::King {
                    // Only reachable from broken input; keep the state consistent.
                    self.king[them.index()] = None;
                }
            }
            let moved = if m.is_promotion() { p.promoted() } else { p };
            let from_bb = Bitboard::from_square(from);
            self.board[from.index()] = Piece::EMPTY;
            self.board[to.index()] = moved;
            self.by_color[us.index()] ^= from_bb | to_bb;
            self.by_kind[p.kind().index()] ^= from_bb;
            self.by_kind[moved.kind().index()] ^= to_bb;
            key ^= zobrist::piece_square(p, from) ^ zobrist::piece_square(moved, to);
            if p.kind() == PieceKind::King {
                self.king[us.index()] = Some(to);
            }
        }
        self.board_key = key;
        self.history.push(StateInfo {
            board_key,
            hand_key,
            checkers: self.checkers,
            captured,
            mv: m,
        });
        self.side = them;
        self.checkers = self.checkers_after(m);
        debug_assert_eq!(self.checkers, self.compute_checkers(), "{m}");
        debug_assert_eq!(self.compute_keys(), (self.board_key, self.hand_key), "{m}");
    }

    /// The board key, hand key and mover's hand after `m`, without playing it (a "key-only move"): the
    /// search probes the table for every child this way and plays only the move it descends into.
    #[inline(always)]
    pub fn keys_after(&self, m: Move) -> (u64, u64, Hand) {
        let us = self.side;
        let to = m.to();
        let p = m.piece();
        let mut key = self.board_key ^ zobrist::side();
        let mut hand_key = self.hand_key;
        let mut hand = self.hands[us.index()];
        if m.is_drop() {
            let k = p.kind();
            hand.remove(k);
            hand_key = hand_key.wrapping_sub(zobrist::hand_piece(us, k));
            key ^= zobrist::piece_square(p, to);
        } else {
            let captured = self.board[to.index()];
            if !captured.is_empty() {
                let ck = captured.kind().unpromoted();
                key ^= zobrist::piece_square(captured, to);
                hand.add(ck);
                hand_key = hand_key.wrapping_add(zobrist::hand_piece(us, ck));
            }
            let moved = if m.is_promotion() { p.promoted() } else { p };
            key ^= zobrist::piece_square(p, m.from()) ^ zobrist::piece_square(moved, to);
        }
        (key, hand_key, hand)
    }

    /// Takes back the last move played (which must be `m`). The keys and checkers come back from the
    /// history, so the board and hands are restored without touching them.
    pub fn undo_move(&mut self, m: Move) {
        let st = self.history.pop().expect("undo_move without a move");
        debug_assert!(st.mv == m);
        let them = self.side;
        let us = them.flip();
        self.side = us;
        let to = m.to();
        let to_bb = Bitboard::from_square(to);
        let p = m.piece();
        if m.is_drop() {
            let k = p.kind();
            self.board[to.index()] = Piece::EMPTY;
            self.by_color[us.index()] ^= to_bb;
            self.by_kind[k.index()] ^= to_bb;
            self.hands[us.index()].add(k);
        } else {
            let from = m.from();
            let from_bb = Bitboard::from_square(from);
            let moved = self.board[to.index()];
            self.board[from.index()] = p;
            self.board[to.index()] = st.captured;
            self.by_color[us.index()] ^= from_bb | to_bb;
            self.by_kind[p.kind().index()] ^= from_bb;
            self.by_kind[moved.kind().index()] ^= to_bb;
            if p.kind() == PieceKind::King {
                self.king[us.index()] = Some(from);
            }
            if !st.captured.is_empty() {
                let ck = st.captured.kind();
                self.by_color[them.index()] ^= to_bb;
                self.by_kind[ck.index()] ^= to_bb;
                self.hands[us.index()].remove(ck.unpromoted());
                if ck == PieceKind::King {
                    self.king[them.index()] = Some(to);
                }
            }
        }
        self.board_key = st.board_key;
        self.hand_key = st.hand_key;
        self.checkers = st.checkers;
    }

    /// How many earlier positions on the played path (since set-up) equal the current one, looking only
    /// at positions with the same side to move.
    pub fn repetitions(&self) -> usize {
        let (bk, hk) = (self.board_key, self.hand_key);
        let n = self.history.len();
        (2..=n)
            .step_by(2)
            .filter(|&back| {
                let st = &self.history[n - back];
                st.board_key == bk && st.hand_key == hk
            })
            .count()
    }

    /// Recomputes the keys from scratch (tests check the incremental keys against this).
    pub fn compute_keys(&self) -> (u64, u64) {
        let mut bk = 0;
        for sq in self.occupied() {
            bk ^= zobrist::piece_square(self.piece_at(sq), sq);
        }
        if self.side == Color::White {
            bk ^= zobrist::side();
        }
        let mut hk = 0u64;
        for c in Color::ALL {
            for k in PieceKind::HAND {
                hk = hk.wrapping_add(
                    zobrist::hand_piece(c, k).wrapping_mul(self.hand(c).count(k) as u64),
                );
            }
        }
        (bk, hk)
    }

    /// How many pieces of each hand kind (promoted ones counted as their base kind) are on the board
    /// and in both hands.
    pub fn material_counts(&self) -> [u8; 8] {
        let mut counts = [0u8; 8];
        for sq in self.occupied() {
            let k = self.piece_at(sq).kind().unpromoted();
            if k != PieceKind::King {
                counts[k.index()] += 1;
            }
        }
        for c in Color::ALL {
            for k in PieceKind::HAND {
                counts[k.index()] += self.hand(c).count(k);
            }
        }
        counts
    }

    /// Gives `c` every piece of the standard set that is neither on the board nor in a hand: the tsume
    /// convention that the defender holds all remaining pieces.
    pub fn give_rest_to(&mut self, c: Color) {
        let counts = self.material_counts();
        for k in PieceKind::HAND {
            for _ in counts[k.index()]..hand::MAX_COUNT[k.index()] {
                self.hand_add(c, k);
            }
        }
    }

    /// Whether `c` may drop a pawn on file `file` (1..=9) as far as the two-pawn rule goes.
    #[inline(always)]
    pub fn pawn_file_free(&self, c: Color, file: u8) -> bool {
        (self.pieces_of(c, PieceKind::Pawn) & Bitboard::file(file)).is_empty()
    }

    /// The legal move with this USI text, if there is one.
    pub fn parse_usi_move(&self, text: &str) -> Option<Move> {
        let mut list = MoveList::new();
        movegen::generate_legal(self, &mut list);
        list.iter().copied().find(|m| m.to_usi() == text.trim())
    }

    /// The legal move with these 16 bits (`Move::to_u16`), if there is one: how moves stored in the
    /// transposition table are turned back into moves.
    pub fn move_from_u16(&self, bits: u16) -> Option<Move> {
        let mut list = MoveList::new();
        movegen::generate_legal(self, &mut list);
        list.iter().copied().find(|m| m.to_u16() == bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_basics() {
        let p = Position::startpos();
        assert_eq!(p.occupied().count(), 40);
        assert_eq!(p.king_square(Color::Black), Square::new(5, 9));
        assert!(!p.in_check());
        assert_eq!(p.compute_keys(), (p.board_key(), p.hand_key()));
    }

    #[test]
    fn do_undo_restores_everything() {
        let mut p = Position::startpos();
        let before = p.to_sfen();
        let keys = (p.board_key(), p.hand_key());
        for text in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"] {
            let m = p.parse_usi_move(text).expect(text);
            p.do_move(m);
            assert_eq!(p.compute_keys(), (p.board_key(), p.hand_key()), "{text}");
        }
        assert_eq!(p.hand(Color::Black).count(PieceKind::Bishop), 0);
        assert_eq!(p.hand(Color::White).count(PieceKind::Bishop), 1);
        let moves: Vec<Move> = p.played_moves().collect();
        for m in moves.into_iter().rev() {
            p.undo_move(m);
        }
        assert_eq!(p.to_sfen(), before);
        assert_eq!((p.board_key(), p.hand_key()), keys);
    }

    #[test]
    fn keys_after_match_do_move() {
        let mut p = Position::from_sfen("4k4/4p4/9/9/9/9/9/9/4R4 b S2P 1").unwrap();
        let mut list = MoveList::new();
        movegen::generate_legal(&p, &mut list);
        assert!(list.len() > 20);
        for &m in list.iter() {
            let (bk, hk, h) = p.keys_after(m);
            let us = p.side_to_move();
            p.do_move(m);
            assert_eq!(
                (bk, hk, h),
                (p.board_key(), p.hand_key(), p.hand(us)),
                "{m}"
            );
            p.undo_move(m);
        }
    }

    #[test]
    fn repetition_counts_same_side_positions() {
        let mut p = Position::startpos();
        for _ in 0..2 {
            for text in ["2h3h", "8b7b", "3h2h", "7b8b"] {
                let m = p.parse_usi_move(text).unwrap();
                p.do_move(m);
            }
        }
        assert_eq!(p.repetitions(), 2);
    }

    #[test]
    fn give_rest_fills_defender_hand() {
        let mut p = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
        p.give_rest_to(Color::White);
        let h = p.hand(Color::White);
        assert_eq!(h.count(PieceKind::Pawn), 17);
        assert_eq!(h.count(PieceKind::Gold), 3);
        assert_eq!(h.count(PieceKind::Rook), 2);
        assert_eq!(p.compute_keys(), (p.board_key(), p.hand_key()));
    }
}
