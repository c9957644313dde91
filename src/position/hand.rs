//! `Hand`: the pieces a player holds, packed into one `u32`.
//!
//! Each kind has a field wide enough for its maximum count and one *guard bit* above it:
//!
//! ```text
//! bit  0..5  pawn   (0..=18)  guard 5
//! bit  8..11 lance  (0..=4)   guard 11
//! bit 12..15 knight (0..=4)   guard 15
//! bit 16..19 silver (0..=4)   guard 19
//! bit 20..23 gold   (0..=4)   guard 23
//! bit 24..26 bishop (0..=2)   guard 26
//! bit 28..30 rook   (0..=2)   guard 30
//! ```
//!
//! With guards all zero, `a - b` borrows into a guard bit exactly when some field of `a` is smaller than
//! the same field of `b`: `a ⊇ b` (a holds at least as many of every kind) is one subtraction and one
//! mask. Proof and disproof pieces (the transposition table's superiority look-ups) rest on that.

use super::types::PieceKind;
use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Hand(u32);

/// Shift of each hand kind's field, indexed by `PieceKind as usize` (1..=7).
const SHIFT: [u32; 8] = [0, 0, 8, 12, 16, 20, 24, 28];
/// Field mask (unshifted) of each hand kind.
const MASK: [u32; 8] = [0, 0x1f, 0x7, 0x7, 0x7, 0x7, 0x3, 0x3];
/// The largest count of each kind in a full set.
pub const MAX_COUNT: [u8; 8] = [0, 18, 4, 4, 4, 4, 2, 2];
const GUARDS: u32 = 1 << 5 | 1 << 11 | 1 << 15 | 1 << 19 | 1 << 23 | 1 << 26 | 1 << 30;

impl Hand {
    pub const EMPTY: Hand = Hand(0);

    /// Every piece of a full set that can be in hand: 18 P, 4 L/N/S/G, 2 B/R.
    pub const FULL: Hand = Hand(18 | 4 << 8 | 4 << 12 | 4 << 16 | 4 << 20 | 2 << 24 | 2 << 28);

    #[inline(always)]
    pub const fn from_raw(raw: u32) -> Hand {
        Hand(raw)
    }

    #[inline(always)]
    pub const fn raw(self) -> u32 {
        self.0
    }

    #[inline(always)]
    pub const fn count(self, kind: PieceKind) -> u8 {
        ((self.0 >> SHIFT[kind as usize]) & MASK[kind as usize]) as u8
    }

    #[inline(always)]
    pub const fn has(self, kind: PieceKind) -> bool {
        self.0 & (MASK[kind as usize] << SHIFT[kind as usize]) != 0
    }

    /// Adds one piece of a hand kind (callers pass an unpromoted kind below the maximum count).
    #[inline(always)]
    pub fn add(&mut self, kind: PieceKind) {
        debug_assert!(self.count(kind) < MASK[kind as usize] as u8);
        self.0 += 1 << SHIFT[kind as usize];
    }

    #[inline(always)]
    pub fn remove(&mut self, kind: PieceKind) {
        debug_assert!(self.has(kind));
        self.0 -= 1 << SHIFT[kind as usize];
    }

    #[inline(always)]
    pub const fn added(self, kind: PieceKind) -> Hand {
        Hand(self.0 + (1 << SHIFT[kind as usize]))
    }

    #[inline(always)]
    pub const fn removed(self, kind: PieceKind) -> Hand {
        Hand(self.0 - (1 << SHIFT[kind as usize]))
    }

    /// Sets the count of one kind (clamped to the field).
    pub fn set_count(&mut self, kind: PieceKind, n: u8) {
        let (s, m) = (SHIFT[kind as usize], MASK[kind as usize]);
        self.0 = (self.0 & !(m << s)) | ((n as u32).min(m) << s);
    }

    /// `self` holds at least as many pieces of every kind as `other`.
    #[inline(always)]
    pub const fn covers(self, other: Hand) -> bool {
        self.0.wrapping_sub(other.0) & GUARDS == 0
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Kind by kind minimum.
    pub fn min(self, other: Hand) -> Hand {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            h.set_count(k, self.count(k).min(other.count(k)));
        }
        h
    }

    /// Kind by kind maximum.
    pub fn max(self, other: Hand) -> Hand {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            h.set_count(k, self.count(k).max(other.count(k)));
        }
        h
    }

    /// Kind by kind `self - other`, saturating at zero.
    pub fn saturating_sub(self, other: Hand) -> Hand {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            h.set_count(k, self.count(k).saturating_sub(other.count(k)));
        }
        h
    }

    /// Kind by kind sum, clamped to each field.
    pub fn saturating_add(self, other: Hand) -> Hand {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            h.set_count(k, self.count(k).saturating_add(other.count(k)));
        }
        h
    }

    /// The total number of pieces.
    pub fn total(self) -> u32 {
        PieceKind::HAND.iter().map(|&k| self.count(k) as u32).sum()
    }

    /// The kinds with a non-zero count.
    pub fn kinds(self) -> impl Iterator<Item = PieceKind> {
        PieceKind::HAND.into_iter().filter(move |&k| self.has(k))
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        const LETTERS: [char; 8] = [' ', 'P', 'L', 'N', 'S', 'G', 'B', 'R'];
        for k in PieceKind::HAND.iter().rev() {
            match self.count(*k) {
                0 => {}
                1 => write!(f, "{}", LETTERS[k.index()])?,
                n => write!(f, "{}{}", n, LETTERS[k.index()])?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(counts: [u8; 7]) -> Hand {
        let mut h = Hand::EMPTY;
        for (k, n) in PieceKind::HAND.into_iter().zip(counts) {
            h.set_count(k, n);
        }
        h
    }

    #[test]
    fn add_remove_count() {
        let mut h = Hand::EMPTY;
        for _ in 0..18 {
            h.add(PieceKind::Pawn);
        }
        h.add(PieceKind::Rook);
        h.add(PieceKind::Rook);
        assert_eq!(h.count(PieceKind::Pawn), 18);
        assert_eq!(h.count(PieceKind::Rook), 2);
        h.remove(PieceKind::Pawn);
        assert_eq!(h.count(PieceKind::Pawn), 17);
        assert!(!h.has(PieceKind::Gold));
        assert_eq!(Hand::FULL.total(), 38);
    }

    /// `covers` agrees with the kind-by-kind definition on every pair of a grid of hands.
    #[test]
    fn superiority_is_kindwise_ge() {
        let mut hands = vec![];
        for p in [0, 1, 17, 18] {
            for l in [0, 3, 4] {
                for s in [0, 1, 4] {
                    for g in [0, 2] {
                        for b in [0, 1, 2] {
                            for r in [0, 2] {
                                hands.push(hand([p, l, 4 - l, s, g, b, r]));
                            }
                        }
                    }
                }
            }
        }
        for &a in &hands {
            for &b in &hands {
                let expected = PieceKind::HAND.iter().all(|&k| a.count(k) >= b.count(k));
                assert_eq!(a.covers(b), expected, "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn min_max_sub() {
        let a = hand([3, 1, 0, 2, 4, 0, 1]);
        let b = hand([1, 2, 1, 2, 0, 2, 0]);
        assert_eq!(a.min(b), hand([1, 1, 0, 2, 0, 0, 0]));
        assert_eq!(a.max(b), hand([3, 2, 1, 2, 4, 2, 1]));
        assert_eq!(a.saturating_sub(b), hand([2, 0, 0, 0, 4, 0, 1]));
        assert!(a.max(b).covers(a) && a.covers(a.min(b)));
        assert_eq!(format!("{:?}", hand([2, 0, 0, 0, 1, 0, 1])), "RG2P");
    }
}
