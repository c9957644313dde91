//! `Bitboard`: a set of squares in the low 81 bits of a `u128` (bit `i` is `Square::from_index(i)`).
//!
//! One `u128` rather than two `u64`: x86-64 and aarch64 lower `u128` and/or/xor to pairs of 64-bit
//! instructions anyway, and the slider code (see `attacks.rs`) relies on a borrow running across the
//! 64-bit boundary (`b - 1`) and on `swap_bytes` of the whole board. Walking a set (`pop`, `for_each`)
//! works on the two 64-bit halves, which is cheaper than `u128` `trailing_zeros`.

use super::types::{Color, Square};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Bitboard(u128);

const ALL_BITS: u128 = (1u128 << 81) - 1;

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const ALL: Bitboard = Bitboard(ALL_BITS);

    #[inline(always)]
    pub const fn from_bits(bits: u128) -> Bitboard {
        Bitboard(bits & ALL_BITS)
    }

    /// A bitboard from bits known to lie in the low 81 (table entries): no masking.
    #[inline(always)]
    pub(crate) const fn from_raw(bits: u128) -> Bitboard {
        debug_assert!(bits & !ALL_BITS == 0);
        Bitboard(bits)
    }

    #[inline(always)]
    pub const fn bits(self) -> u128 {
        self.0
    }

    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(SQUARE_BITS[sq.index()])
    }

    /// All squares of a file (1..=9).
    #[inline(always)]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(0x1ffu128 << ((file as u32 - 1) * 9))
    }

    /// All squares of a rank (1..=9).
    pub const fn rank(rank: u8) -> Bitboard {
        let mut bits = 0u128;
        let mut f = 0;
        while f < 9 {
            bits |= 1u128 << (f * 9 + rank as u32 - 1);
            f += 1;
        }
        Bitboard(bits)
    }

    /// The squares whose rank, seen from `c`, is in `lo..=hi` (rank 1 = `c`'s far rank).
    pub const fn relative_ranks(c: Color, lo: u8, hi: u8) -> Bitboard {
        let mut bits = 0u128;
        let mut r = lo;
        while r <= hi {
            let abs = match c {
                Color::Black => r,
                Color::White => 10 - r,
            };
            bits |= Bitboard::rank(abs).0;
            r += 1;
        }
        Bitboard(bits)
    }

    /// The promotion zone of `c`: its three far ranks.
    #[inline(always)]
    pub const fn promotion_zone(c: Color) -> Bitboard {
        PROMOTION_ZONE[c as usize]
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn is_not_empty(self) -> bool {
        self.0 != 0
    }

    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        (self.0 >> sq.index()) & 1 != 0
    }

    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square.
    #[inline(always)]
    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        self.0 |= SQUARE_BITS[sq.index()];
    }

    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !SQUARE_BITS[sq.index()];
    }

    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= SQUARE_BITS[sq.index()];
    }

    /// The lowest square; `None` when empty.
    #[inline(always)]
    pub fn lsb(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index(self.0.trailing_zeros() as usize))
        }
    }

    /// The only square of a non-empty set (the lowest if there are several).
    #[inline(always)]
    pub fn first(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::from_index(self.0.trailing_zeros() as usize)
    }

    /// Removes and returns the lowest square.
    ///
    /// Works on the two 64-bit halves: a `u128` `trailing_zeros` and `x & (x - 1)` each cost a borrow
    /// or select across the halves, while the low half alone decides most pops.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<Square> {
        let lo = self.0 as u64;
        let hi = (self.0 >> 64) as u64;
        if lo != 0 {
            self.0 = (self.0 & !(u64::MAX as u128)) | (lo & (lo - 1)) as u128;
            Some(Square::from_index(lo.trailing_zeros() as usize))
        } else if hi != 0 {
            self.0 = ((hi & (hi - 1)) as u128) << 64;
            Some(Square::from_index(64 + hi.trailing_zeros() as usize))
        } else {
            None
        }
    }

    /// Calls `f` on every square, lowest first: the fastest way to walk a set (one loop per 64-bit
    /// half, no state carried between the halves).
    #[inline(always)]
    pub fn for_each(self, mut f: impl FnMut(Square)) {
        let mut lo = self.0 as u64;
        while lo != 0 {
            f(Square::from_index(lo.trailing_zeros() as usize));
            lo &= lo - 1;
        }
        let mut hi = (self.0 >> 64) as u64;
        while hi != 0 {
            f(Square::from_index(64 + hi.trailing_zeros() as usize));
            hi &= hi - 1;
        }
    }

    #[inline(always)]
    pub const fn and_not(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    /// Every square one step forward for `c` (towards `c`'s far rank), as pawns of `c` would move.
    /// Squares on `c`'s far rank fall off the board or onto the far end of the neighbouring file, so
    /// callers pass sets with none there (pawns never stand on their last rank).
    #[inline(always)]
    pub const fn forward(self, c: Color) -> Bitboard {
        match c {
            Color::Black => Bitboard(self.0 >> 1),
            Color::White => Bitboard((self.0 << 1) & ALL_BITS),
        }
    }

    /// The files with no square of `self`, filled, for a set with **at most one square per file** (the
    /// unpromoted pawns of one colour): where the two-pawn rule lets that colour drop a pawn.
    ///
    /// Branch-free: per file, `rank9 - pawn` borrows out of the rank-9 bit unless the file is empty (one
    /// bit per file means no borrow crosses into the next file), and the surviving rank-9 bits are then
    /// smeared down their files.
    #[inline(always)]
    pub const fn empty_files(self) -> Bitboard {
        const RANK9: u128 = Bitboard::rank(9).0;
        let free = RANK9.wrapping_sub(self.0) & RANK9;
        Bitboard(free | (free - (free >> 8)))
    }

    /// One bit per file that has a square in `self`, as a 9-bit mask (bit `f-1` for file `f`).
    #[inline(always)]
    pub fn files_mask(self) -> u16 {
        let mut m = 0u16;
        let mut b = self.0;
        for f in 0..9 {
            if b & 0x1ff != 0 {
                m |= 1 << f;
            }
            b >>= 9;
        }
        m
    }

    /// Spread a 9-bit file mask (as from `files_mask`) to the full files.
    #[inline(always)]
    pub fn from_files_mask(mask: u16) -> Bitboard {
        let mut bits = 0u128;
        for f in 0..9 {
            if mask & (1 << f) != 0 {
                bits |= 0x1ffu128 << (f * 9);
            }
        }
        Bitboard(bits)
    }
}

/// `1 << i` for each square: a load is cheaper than a variable `u128` shift (a double shift, a test
/// of bit 6 of the count and two selects).
const SQUARE_BITS: [u128; 81] = {
    let mut t = [0u128; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = 1u128 << i;
        i += 1;
    }
    t
};

const PROMOTION_ZONE: [Bitboard; 2] = [
    Bitboard::relative_ranks(Color::Black, 1, 3),
    Bitboard::relative_ranks(Color::White, 1, 3),
];

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        self.pop()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_BITS)
    }
}

impl std::fmt::Debug for Bitboard {
    /// A 9x9 diagram, file 9 on the left as on a printed board.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f)?;
        for rank in 1..=9 {
            for file in (1..=9).rev() {
                let sq = Square::new(file, rank).expect("valid");
                f.write_str(if self.contains(sq) { "X" } else { "." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterate_and_count() {
        let mut b = Bitboard::EMPTY;
        for i in [0usize, 63, 64, 80] {
            b.set(Square::from_index(i));
        }
        assert_eq!(b.count(), 4);
        assert_eq!(
            b.map(|s| s.index()).collect::<Vec<_>>(),
            vec![0, 63, 64, 80]
        );
        assert!((!Bitboard::EMPTY).count() == 81);
    }

    #[test]
    fn empty_files_fills_pawnless_files() {
        let sq = |f, r| Square::new(f, r).unwrap();
        assert_eq!(Bitboard::EMPTY.empty_files(), Bitboard::ALL);
        let pawns = Bitboard::from_square(sq(1, 9))
            | Bitboard::from_square(sq(5, 1))
            | Bitboard::from_square(sq(9, 4));
        let expect = Bitboard::from_files_mask(!pawns.files_mask() & 0x1ff);
        assert_eq!(pawns.empty_files(), expect);
        for f in 1..=9u8 {
            for r in 1..=9u8 {
                let b = Bitboard::from_square(sq(f, r));
                assert_eq!(b.empty_files(), !Bitboard::file(f));
            }
        }
        assert_eq!(
            Bitboard::from_square(sq(5, 5)).forward(Color::Black),
            Bitboard::from_square(sq(5, 4))
        );
        assert_eq!(
            Bitboard::from_square(sq(5, 5)).forward(Color::White),
            Bitboard::from_square(sq(5, 6))
        );
    }

    #[test]
    fn ranks_files_and_zones() {
        assert_eq!(Bitboard::file(5).count(), 9);
        assert!(Bitboard::rank(1).contains(Square::new(9, 1).unwrap()));
        assert_eq!(Bitboard::promotion_zone(Color::Black).count(), 27);
        assert!(Bitboard::promotion_zone(Color::White).contains(Square::new(1, 7).unwrap()));
        let b = Bitboard::from_square(Square::new(3, 4).unwrap()) | Bitboard::file(9);
        assert_eq!(b.files_mask(), 0b1_0000_0100);
        assert_eq!(Bitboard::from_files_mask(0b100), Bitboard::file(3));
    }
}
