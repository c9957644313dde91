//! Small value types of the board: colours, squares, piece kinds, pieces and moves.
//!
//! They are kanju's own compact types (a `u8` or a `u32` each, indexes chosen for table look-ups); the
//! conversions to and from `shogi_core` live here so that the rest of the crate speaks one language.

use std::fmt;

/// A player. `Black` (sente) moves first and moves "up" the board, towards rank 1.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub fn to_core(self) -> shogi_core::Color {
        match self {
            Color::Black => shogi_core::Color::Black,
            Color::White => shogi_core::Color::White,
        }
    }

    pub fn from_core(c: shogi_core::Color) -> Color {
        match c {
            shogi_core::Color::Black => Color::Black,
            shogi_core::Color::White => Color::White,
        }
    }
}

/// A square, `0..81`, file-major: `index = (file - 1) * 9 + (rank - 1)`.
///
/// File-major order keeps each file in nine consecutive bits, so lance attacks and the two-pawn test are
/// shifts and masks of one file.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const NUM: usize = 81;

    /// `file` and `rank` are 1-based, as in USI (`5e` is file 5, rank 5).
    #[inline(always)]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
            Some(Square((file - 1) * 9 + rank - 1))
        } else {
            None
        }
    }

    #[inline(always)]
    pub const fn from_index(index: usize) -> Square {
        debug_assert!(index < 81);
        Square(index as u8)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 1..=9
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 / 9 + 1
    }

    /// 1..=9, rank 1 is the top (White's back rank).
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 % 9 + 1
    }

    /// The rank seen from `c`: 1 is `c`'s far rank (where its pieces promote last).
    #[inline(always)]
    pub const fn relative_rank(self, c: Color) -> u8 {
        match c {
            Color::Black => self.rank(),
            Color::White => 10 - self.rank(),
        }
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square)
    }

    pub fn to_core(self) -> shogi_core::Square {
        // Both use file-major order; shogi_core's is 1-based.
        shogi_core::Square::new(self.file(), self.rank()).expect("square in range")
    }

    pub fn from_core(s: shogi_core::Square) -> Square {
        Square(s.array_index() as u8)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.rank() - 1) as char)
    }
}

/// Piece kinds, numbered as in `shogi_core` (1..=14) so that conversions are free.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    Pawn = 1,
    Lance = 2,
    Knight = 3,
    Silver = 4,
    Gold = 5,
    Bishop = 6,
    Rook = 7,
    King = 8,
    ProPawn = 9,
    ProLance = 10,
    ProKnight = 11,
    ProSilver = 12,
    Horse = 13,
    Dragon = 14,
}

impl PieceKind {
    /// One past the largest discriminant: arrays indexed by kind have this length.
    pub const NUM: usize = 15;
    /// The kinds a hand can hold, in hand order.
    pub const HAND: [PieceKind; 7] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
    ];
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// # Panics
    /// Never for `1..=14`; other values return `None`.
    #[inline(always)]
    pub const fn from_u8(v: u8) -> Option<PieceKind> {
        if v >= 1 && v <= 14 {
            Some(Self::ALL[v as usize - 1])
        } else {
            None
        }
    }

    #[inline(always)]
    pub const fn can_promote(self) -> bool {
        matches!(
            self,
            PieceKind::Pawn
                | PieceKind::Lance
                | PieceKind::Knight
                | PieceKind::Silver
                | PieceKind::Bishop
                | PieceKind::Rook
        )
    }

    /// The promoted kind; `self` for kinds that do not promote.
    #[inline(always)]
    pub const fn promoted(self) -> PieceKind {
        PROMOTED[self as usize]
    }

    /// The kind a captured piece becomes in hand (promoted pieces revert).
    #[inline(always)]
    pub const fn unpromoted(self) -> PieceKind {
        UNPROMOTED[self as usize]
    }

    #[inline(always)]
    pub const fn is_promoted(self) -> bool {
        self as u8 >= 9
    }

    pub fn to_core(self) -> shogi_core::PieceKind {
        shogi_core::PieceKind::from_u8(self as u8).expect("same numbering")
    }

    pub fn from_core(k: shogi_core::PieceKind) -> PieceKind {
        PieceKind::from_u8(k as u8).expect("same numbering")
    }
}

/// `KIND_OF[v & 15]`: the kind with discriminant `v`, for every 4-bit value. Slots 0 and 15 hold no kind;
/// they are filled with `Pawn` so that the look-up needs no branch (callers never read them: `Piece::kind`
/// is only called on non-empty pieces).
const KIND_OF: [PieceKind; 16] = {
    let mut t = [PieceKind::Pawn; 16];
    let mut i = 0;
    while i < 14 {
        t[i + 1] = PieceKind::ALL[i];
        i += 1;
    }
    t
};

/// `PROMOTED[k]` / `UNPROMOTED[k]`, indexed by discriminant (slot 0 unused): one load instead of a match.
const PROMOTED: [PieceKind; PieceKind::NUM] = {
    let mut t = [PieceKind::Pawn; PieceKind::NUM];
    let mut i = 0;
    while i < 14 {
        let k = PieceKind::ALL[i];
        t[k as usize] = match k {
            PieceKind::Pawn => PieceKind::ProPawn,
            PieceKind::Lance => PieceKind::ProLance,
            PieceKind::Knight => PieceKind::ProKnight,
            PieceKind::Silver => PieceKind::ProSilver,
            PieceKind::Bishop => PieceKind::Horse,
            PieceKind::Rook => PieceKind::Dragon,
            k => k,
        };
        i += 1;
    }
    t
};

const UNPROMOTED: [PieceKind; PieceKind::NUM] = {
    let mut t = [PieceKind::Pawn; PieceKind::NUM];
    let mut i = 0;
    while i < 14 {
        let k = PieceKind::ALL[i];
        t[k as usize] = match k {
            PieceKind::ProPawn => PieceKind::Pawn,
            PieceKind::ProLance => PieceKind::Lance,
            PieceKind::ProKnight => PieceKind::Knight,
            PieceKind::ProSilver => PieceKind::Silver,
            PieceKind::Horse => PieceKind::Bishop,
            PieceKind::Dragon => PieceKind::Rook,
            k => k,
        };
        i += 1;
    }
    t
};

/// A coloured piece: `kind | color << 4`, the same numbering as `shogi_core::Piece` (1..=14 black,
/// 17..=30 white). `Piece::EMPTY` (0) marks an empty board square.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Piece(u8);

impl Piece {
    pub const EMPTY: Piece = Piece(0);
    pub const NUM: usize = 31;

    #[inline(always)]
    pub const fn new(kind: PieceKind, color: Color) -> Piece {
        Piece(kind as u8 | (color as u8) << 4)
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Only for non-empty pieces (an empty square reads as a pawn).
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        debug_assert!(self.0 != 0, "kind() of an empty square");
        KIND_OF[(self.0 & 15) as usize]
    }

    /// The same piece promoted (its own kind if it cannot promote).
    #[inline(always)]
    pub const fn promoted(self) -> Piece {
        Piece::new(self.kind().promoted(), self.color())
    }

    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 & 16 != 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub fn to_core(self) -> Option<shogi_core::Piece> {
        if self.is_empty() {
            None
        } else {
            Some(shogi_core::Piece::new(
                self.kind().to_core(),
                self.color().to_core(),
            ))
        }
    }

    pub fn from_core(p: shogi_core::Piece) -> Piece {
        let (k, c) = p.to_parts();
        Piece::new(PieceKind::from_core(k), Color::from_core(c))
    }
}

/// A move in 32 bits: `to` (bits 0..7), `from` or the dropped kind (bits 7..14), promotion (bit 14),
/// drop (bit 15), and the moving piece (bits 16..21) so that `do_move` and move ordering need no board
/// look-up. `Move::NONE` (0) is no move: a real move always has a non-zero piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u32);

impl Move {
    pub const NONE: Move = Move(0);
    const PROMOTE: u32 = 1 << 14;
    const DROP: u32 = 1 << 15;

    #[inline(always)]
    pub const fn normal(from: Square, to: Square, promote: bool, piece: Piece) -> Move {
        Move(
            to.0 as u32
                | (from.0 as u32) << 7
                | if promote { Self::PROMOTE } else { 0 }
                | (piece.0 as u32) << 16,
        )
    }

    #[inline(always)]
    pub const fn drop(kind: PieceKind, to: Square, color: Color) -> Move {
        Move(
            to.0 as u32
                | (kind as u32) << 7
                | Self::DROP
                | (Piece::new(kind, color).0 as u32) << 16,
        )
    }

    /// The move with destination `to` added to `base`, a move with from/promotion/piece (or drop
    /// kind/piece) set and a zero `to`: the generators build the part shared by one piece's moves once.
    #[inline(always)]
    pub(crate) const fn with_to(base: u32, to: Square) -> Move {
        Move(base | to.0 as u32)
    }

    /// The move without its destination: the `base` that `with_to(base, self.to())` turns back into it.
    #[inline(always)]
    pub(crate) const fn base(self) -> u32 {
        self.0 & !0x7f
    }

    /// The `base` of `with_to` for board moves of `piece` from `from`, with or without promotion.
    #[inline(always)]
    pub(crate) const fn base_normal(from: Square, promote: bool, piece: Piece) -> u32 {
        Move::normal(from, Square(0), promote, piece).0
    }

    /// The `base` of `with_to` for drops.
    #[inline(always)]
    pub(crate) const fn base_drop(kind: PieceKind, color: Color) -> u32 {
        Move::drop(kind, Square(0), color).0
    }

    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square((self.0 & 0x7f) as u8)
    }

    /// Only for board moves.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square(((self.0 >> 7) & 0x7f) as u8)
    }

    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        self.0 & Self::DROP != 0
    }

    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & Self::PROMOTE != 0
    }

    /// The piece as it stands before the move (for a drop: the dropped piece).
    #[inline(always)]
    pub const fn piece(self) -> Piece {
        Piece((self.0 >> 16) as u8)
    }

    /// The kind that stands on `to` after the move.
    #[inline(always)]
    pub const fn kind_after(self) -> PieceKind {
        let k = self.piece().kind();
        if self.is_promotion() { k.promoted() } else { k }
    }

    /// Only for drops.
    #[inline(always)]
    pub const fn drop_kind(self) -> PieceKind {
        self.piece().kind()
    }

    /// The 16 bits that identify the move within one position (no piece): what a table stores.
    #[inline(always)]
    pub const fn to_u16(self) -> u16 {
        self.0 as u16
    }

    pub fn to_core(self) -> shogi_core::Move {
        if self.is_drop() {
            shogi_core::Move::Drop {
                piece: self.piece().to_core().expect("drop has a piece"),
                to: self.to().to_core(),
            }
        } else {
            shogi_core::Move::Normal {
                from: self.from().to_core(),
                to: self.to().to_core(),
                promote: self.is_promotion(),
            }
        }
    }

    pub fn to_usi(self) -> String {
        if self.is_none() {
            return "none".to_string();
        }
        if self.is_drop() {
            const LETTERS: [char; 8] = [' ', 'P', 'L', 'N', 'S', 'G', 'B', 'R'];
            format!("{}*{}", LETTERS[self.drop_kind().index()], self.to())
        } else {
            format!(
                "{}{}{}",
                self.from(),
                self.to(),
                if self.is_promotion() { "+" } else { "" }
            )
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_usi())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_usi())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_layout_matches_shogi_core() {
        for sq in Square::all() {
            assert_eq!(Square::from_core(sq.to_core()), sq);
            assert_eq!(sq.to_core().array_index(), sq.index());
        }
        assert_eq!(Square::new(5, 5).unwrap().to_string(), "5e");
    }

    #[test]
    fn kinds_promote_and_revert() {
        for k in PieceKind::ALL {
            assert_eq!(k.to_core() as u8, k as u8);
            if k.can_promote() {
                assert_eq!(k.promoted().unpromoted(), k);
                assert!(k.promoted().is_promoted());
            }
        }
        assert_eq!(PieceKind::Bishop.promoted(), PieceKind::Horse);
        assert_eq!(PieceKind::Dragon.unpromoted(), PieceKind::Rook);
    }

    #[test]
    fn move_packs_fields() {
        let p = Piece::new(PieceKind::Silver, Color::White);
        let m = Move::normal(
            Square::new(3, 3).unwrap(),
            Square::new(4, 4).unwrap(),
            true,
            p,
        );
        assert_eq!(m.to_usi(), "3c4d+");
        assert_eq!(m.piece(), p);
        assert_eq!(m.kind_after(), PieceKind::ProSilver);
        let d = Move::drop(PieceKind::Gold, Square::new(5, 2).unwrap(), Color::Black);
        assert_eq!(d.to_usi(), "G*5b");
        assert!(d.is_drop());
        assert_eq!(
            Piece::new(PieceKind::Rook, Color::White)
                .to_core()
                .unwrap()
                .as_u8(),
            23
        );
    }
}
