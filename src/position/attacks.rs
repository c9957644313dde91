//! Attack tables, all computed at compile time (no start-up cost, no lazy-initialisation check in hot
//! paths).
//!
//! Step pieces read one table entry. Sliders use *rays*: for each square and each of the eight directions
//! the set of squares up to the edge. The squares a slider reaches in one direction are the ray minus the
//! ray behind the first blocker; with file-major square numbering the first blocker is the lowest set bit
//! for directions of increasing index and the highest for the others, so each direction is one
//! `trailing_zeros` or `leading_zeros`, one look-up and one xor.

use super::bitboard::Bitboard;
use super::types::{Color, PieceKind, Square};

/// (file delta, rank delta). Rank delta -1 is "up" (towards rank 1, Black's forward direction).
const DIRS: [(i8, i8); 8] = [
    (0, -1),  // 0: up, index -1
    (0, 1),   // 1: down, +1
    (1, 0),   // 2: towards file 9, +9
    (-1, 0),  // 3: towards file 1, -9
    (1, -1),  // 4: +8
    (-1, 1),  // 5: -8
    (1, 1),   // 6: +10
    (-1, -1), // 7: -10
];
// Directions come in opposite pairs: `d ^ 1` is the opposite of `d`.

/// Whether the index grows along the direction (then the nearest blocker is the lowest bit).
const DIR_POSITIVE: [bool; 8] = [false, true, true, false, true, false, true, false];

const fn offset(sq: usize, df: i8, dr: i8) -> Option<usize> {
    let f = (sq / 9) as i8 + df;
    let r = (sq % 9) as i8 + dr;
    if f >= 0 && f < 9 && r >= 0 && r < 9 {
        Some(f as usize * 9 + r as usize)
    } else {
        None
    }
}

/// Eight real directions plus two empty rows (8 and 9), so that `NO_DIRECTION` and its "opposite" index
/// rays that are empty: `between` and `line` stay branch-free for unaligned squares.
const fn make_rays() -> [[u128; 81]; 10] {
    let mut t = [[0u128; 81]; 10];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 81 {
            let mut cur = sq;
            while let Some(n) = offset(cur, DIRS[d].0, DIRS[d].1) {
                t[d][sq] |= 1u128 << n;
                cur = n;
            }
            sq += 1;
        }
        d += 1;
    }
    t
}

static RAYS: [[u128; 81]; 10] = make_rays();

/// The direction index of "no direction" (squares not on one line).
const NO_DIRECTION: u8 = 8;

/// `DIRECTION[a][b]`: the direction from `a` towards `b` (an index into `DIRS`), or `NO_DIRECTION`.
const fn make_directions() -> [[u8; 81]; 81] {
    let mut t = [[NO_DIRECTION; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let mut cur = a;
            while let Some(n) = offset(cur, DIRS[d].0, DIRS[d].1) {
                t[a][n] = d as u8;
                cur = n;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

static DIRECTION: [[u8; 81]; 81] = make_directions();

/// `LINES[d / 2][a]`: the whole line through `a` along direction pair `d` (row 4: empty).
const fn make_lines() -> [[u128; 81]; 5] {
    let rays = make_rays();
    let mut t = [[0u128; 81]; 5];
    let mut p = 0;
    while p < 4 {
        let mut a = 0;
        while a < 81 {
            t[p][a] = rays[2 * p][a] | rays[2 * p + 1][a] | (1u128 << a);
            a += 1;
        }
        p += 1;
    }
    t
}

static LINES: [[u128; 81]; 5] = make_lines();

/// One of the eight directions of the board (see `direction`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Direction(u8);

impl Direction {
    /// A diagonal direction (bishop lines); the others are ranks and files.
    #[inline(always)]
    pub const fn is_diagonal(self) -> bool {
        self.0 >= 4
    }

    /// The direction in which a lance of `c` moves.
    #[inline(always)]
    pub const fn is_lance_direction(self, c: Color) -> bool {
        self.0 == c as u8
    }
}

/// The direction from `a` towards `b`, if they share a rank, file or diagonal (and differ).
#[inline(always)]
pub fn direction(a: Square, b: Square) -> Option<Direction> {
    let d = DIRECTION[a.index()][b.index()];
    if d == NO_DIRECTION {
        None
    } else {
        Some(Direction(d))
    }
}

/// The squares a slider on `sq` reaches in direction `d`, up to and including the first occupied one.
#[inline(always)]
pub fn ray_attacks(d: Direction, sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard::from_bits(ray(d.0 as usize, sq.index(), occ.bits()))
}

/// Step patterns for Black, as (file delta, rank delta); White mirrors the rank delta.
const PAWN_STEPS: &[(i8, i8)] = &[(0, -1)];
const KNIGHT_STEPS: &[(i8, i8)] = &[(1, -2), (-1, -2)];
const SILVER_STEPS: &[(i8, i8)] = &[(0, -1), (1, -1), (-1, -1), (1, 1), (-1, 1)];
const GOLD_STEPS: &[(i8, i8)] = &[(0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1)];
const KING_STEPS: &[(i8, i8)] = &[
    (0, -1),
    (1, -1),
    (-1, -1),
    (1, 0),
    (-1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
];

const fn make_steps(steps: &[(i8, i8)]) -> [[u128; 81]; 2] {
    let mut t = [[0u128; 81]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 81 {
            let mut i = 0;
            while i < steps.len() {
                let (df, dr) = steps[i];
                let dr = if c == 0 { dr } else { -dr };
                if let Some(n) = offset(sq, df, dr) {
                    t[c][sq] |= 1u128 << n;
                }
                i += 1;
            }
            sq += 1;
        }
        c += 1;
    }
    t
}

static PAWN: [[u128; 81]; 2] = make_steps(PAWN_STEPS);
static KNIGHT: [[u128; 81]; 2] = make_steps(KNIGHT_STEPS);
static SILVER: [[u128; 81]; 2] = make_steps(SILVER_STEPS);
static GOLD: [[u128; 81]; 2] = make_steps(GOLD_STEPS);
static KING: [[u128; 81]; 2] = make_steps(KING_STEPS);

#[inline(always)]
fn ray(d: usize, sq: usize, occ: u128) -> u128 {
    let r = RAYS[d][sq];
    let blockers = r & occ;
    if blockers == 0 {
        return r;
    }
    let first = if DIR_POSITIVE[d] {
        blockers.trailing_zeros()
    } else {
        127 - blockers.leading_zeros()
    } as usize;
    r ^ RAYS[d][first]
}

#[inline(always)]
pub fn lance_attacks(c: Color, sq: Square, occ: Bitboard) -> Bitboard {
    // Black's lance looks up (direction 0), White's down (direction 1).
    Bitboard::from_bits(ray(c as usize, sq.index(), occ.bits()))
}

#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let (s, o) = (sq.index(), occ.bits());
    Bitboard::from_bits(ray(0, s, o) | ray(1, s, o) | ray(2, s, o) | ray(3, s, o))
}

#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let (s, o) = (sq.index(), occ.bits());
    Bitboard::from_bits(ray(4, s, o) | ray(5, s, o) | ray(6, s, o) | ray(7, s, o))
}

/// Rook moves on an empty board.
#[inline(always)]
pub fn rook_pseudo(sq: Square) -> Bitboard {
    let s = sq.index();
    Bitboard::from_bits(RAYS[0][s] | RAYS[1][s] | RAYS[2][s] | RAYS[3][s])
}

/// Bishop moves on an empty board.
#[inline(always)]
pub fn bishop_pseudo(sq: Square) -> Bitboard {
    let s = sq.index();
    Bitboard::from_bits(RAYS[4][s] | RAYS[5][s] | RAYS[6][s] | RAYS[7][s])
}

/// Lance moves on an empty board.
#[inline(always)]
pub fn lance_pseudo(c: Color, sq: Square) -> Bitboard {
    Bitboard::from_bits(RAYS[c as usize][sq.index()])
}

#[inline(always)]
pub fn pawn_attacks(c: Color, sq: Square) -> Bitboard {
    Bitboard::from_bits(PAWN[c as usize][sq.index()])
}
#[inline(always)]
pub fn knight_attacks(c: Color, sq: Square) -> Bitboard {
    Bitboard::from_bits(KNIGHT[c as usize][sq.index()])
}
#[inline(always)]
pub fn silver_attacks(c: Color, sq: Square) -> Bitboard {
    Bitboard::from_bits(SILVER[c as usize][sq.index()])
}
#[inline(always)]
pub fn gold_attacks(c: Color, sq: Square) -> Bitboard {
    Bitboard::from_bits(GOLD[c as usize][sq.index()])
}
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard::from_bits(KING[0][sq.index()])
}

/// The squares a piece of `kind` and colour `c` on `sq` attacks, given the occupancy.
#[inline(always)]
pub fn attacks(kind: PieceKind, c: Color, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Pawn => pawn_attacks(c, sq),
        PieceKind::Lance => lance_attacks(c, sq, occ),
        PieceKind::Knight => knight_attacks(c, sq),
        PieceKind::Silver => silver_attacks(c, sq),
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => gold_attacks(c, sq),
        PieceKind::Bishop => bishop_attacks(sq, occ),
        PieceKind::Rook => rook_attacks(sq, occ),
        PieceKind::King => king_attacks(sq),
        PieceKind::Horse => bishop_attacks(sq, occ) | king_attacks(sq),
        PieceKind::Dragon => rook_attacks(sq, occ) | king_attacks(sq),
    }
}

/// The squares from which a piece of `kind` and colour `c` would attack `target` (given the
/// occupancy): by the symmetry of shogi moves, the attacks of the same kind of the other colour.
#[inline(always)]
pub fn attackers_from(kind: PieceKind, c: Color, target: Square, occ: Bitboard) -> Bitboard {
    attacks(kind, c.flip(), target, occ)
}

/// The squares strictly between two aligned squares (empty when not aligned): the ray from `a` towards
/// `b` and the ray from `b` towards `a` overlap exactly there. Two small tables (the direction bytes and
/// the rays) instead of an 81 x 81 bitboard table: 17 KB instead of 105 KB of cache.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    let d = DIRECTION[a.index()][b.index()] as usize;
    // Directions come in opposite pairs (d ^ 1); NO_DIRECTION (8) pairs with the other empty row (9).
    Bitboard::from_bits(RAYS[d][a.index()] & RAYS[d ^ 1][b.index()])
}

/// The full line through `a` and `b`, or empty if they are not on one rank, file or diagonal.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    let d = DIRECTION[a.index()][b.index()] as usize;
    Bitboard::from_bits(LINES[d >> 1][a.index()])
}

/// Whether `c` lies on the line through `a` and `b`.
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

/// Whether a piece of `kind` and colour `c` on `from` attacks `target`, given the occupancy: for a
/// slider, one empty-board test and one `between`, no attack set.
#[inline(always)]
pub fn piece_attacks_square(
    kind: PieceKind,
    c: Color,
    from: Square,
    target: Square,
    occ: Bitboard,
) -> bool {
    let clear = || (between(from, target) & occ).is_empty();
    match kind {
        PieceKind::Pawn => pawn_attacks(c, from).contains(target),
        PieceKind::Lance => lance_pseudo(c, from).contains(target) && clear(),
        PieceKind::Knight => knight_attacks(c, from).contains(target),
        PieceKind::Silver => silver_attacks(c, from).contains(target),
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => gold_attacks(c, from).contains(target),
        PieceKind::King => king_attacks(from).contains(target),
        PieceKind::Bishop => bishop_pseudo(from).contains(target) && clear(),
        PieceKind::Rook => rook_pseudo(from).contains(target) && clear(),
        PieceKind::Horse => {
            king_attacks(from).contains(target) || (bishop_pseudo(from).contains(target) && clear())
        }
        PieceKind::Dragon => {
            king_attacks(from).contains(target) || (rook_pseudo(from).contains(target) && clear())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(f: u8, r: u8) -> Square {
        Square::new(f, r).unwrap()
    }

    /// Slow reference: walk each direction square by square.
    fn slide(sq0: Square, occ: Bitboard, dirs: &[(i8, i8)]) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for &(df, dr) in dirs {
            let (mut f, mut r) = (sq0.file() as i8, sq0.rank() as i8);
            loop {
                f += df;
                r += dr;
                let Some(s) = Square::new(f as u8, r as u8) else {
                    break;
                };
                if !(1..=9).contains(&f) || !(1..=9).contains(&r) {
                    break;
                }
                b.set(s);
                if occ.contains(s) {
                    break;
                }
            }
        }
        b
    }

    #[test]
    fn sliders_match_reference_on_pseudo_random_occupancies() {
        let mut seed = 0x9e3779b97f4a7c15u64;
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let occ = Bitboard::from_bits((seed as u128) << 20 ^ (seed.rotate_left(31) as u128));
            for s in Square::all() {
                let rook = slide(s, occ, &[(0, -1), (0, 1), (1, 0), (-1, 0)]);
                let bishop = slide(s, occ, &[(1, -1), (1, 1), (-1, -1), (-1, 1)]);
                assert_eq!(rook_attacks(s, occ), rook);
                assert_eq!(bishop_attacks(s, occ), bishop);
                assert_eq!(
                    lance_attacks(Color::Black, s, occ),
                    slide(s, occ, &[(0, -1)])
                );
                assert_eq!(
                    lance_attacks(Color::White, s, occ),
                    slide(s, occ, &[(0, 1)])
                );
            }
        }
    }

    #[test]
    fn step_tables() {
        assert_eq!(knight_attacks(Color::Black, sq(5, 5)).count(), 2);
        assert!(knight_attacks(Color::Black, sq(5, 5)).contains(sq(4, 3)));
        assert!(knight_attacks(Color::White, sq(5, 5)).contains(sq(6, 7)));
        assert_eq!(gold_attacks(Color::Black, sq(5, 5)).count(), 6);
        assert!(!gold_attacks(Color::Black, sq(5, 5)).contains(sq(4, 6)));
        assert_eq!(silver_attacks(Color::White, sq(1, 1)).count(), 2);
        assert_eq!(king_attacks(sq(9, 9)).count(), 3);
        assert_eq!(pawn_attacks(Color::Black, sq(3, 1)), Bitboard::EMPTY);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(sq(5, 1), sq(5, 9)).count(), 7);
        assert_eq!(between(sq(1, 1), sq(9, 9)).count(), 7);
        assert!(between(sq(1, 1), sq(2, 3)).is_empty());
        assert!(line(sq(1, 1), sq(2, 3)).is_empty());
        assert_eq!(line(sq(5, 5), sq(6, 6)).count(), 9);
        assert!(aligned(sq(9, 1), sq(5, 5), sq(1, 9)));
        assert!(between(sq(5, 5), sq(5, 4)).is_empty());
        assert!(between(sq(5, 5), sq(5, 5)).is_empty());
        assert!(line(sq(5, 5), sq(5, 5)).is_empty());
    }

    /// `between`, `line` and `direction` agree with a square-by-square walk for every pair.
    #[test]
    fn geometry_matches_walks() {
        let all_dirs = [
            (0, -1),
            (0, 1),
            (1, 0),
            (-1, 0),
            (1, -1),
            (-1, 1),
            (1, 1),
            (-1, -1),
        ];
        for a in Square::all() {
            for b in Square::all() {
                let mut expect_between = Bitboard::EMPTY;
                let mut expect_line = Bitboard::EMPTY;
                let mut found = None;
                for (i, &(df, dr)) in all_dirs.iter().enumerate() {
                    let (mut f, mut r) = (a.file() as i8, a.rank() as i8);
                    let mut acc = Bitboard::EMPTY;
                    loop {
                        f += df;
                        r += dr;
                        if !(1..=9).contains(&f) || !(1..=9).contains(&r) {
                            break;
                        }
                        let s = Square::new(f as u8, r as u8).unwrap();
                        if s == b {
                            found = Some(i);
                            expect_between = acc;
                            let both = slide(a, Bitboard::EMPTY, &[(df, dr), (-df, -dr)]);
                            expect_line = both | Bitboard::from_square(a);
                            break;
                        }
                        acc.set(s);
                    }
                }
                assert_eq!(between(a, b), expect_between, "{a} {b}");
                assert_eq!(line(a, b), expect_line, "{a} {b}");
                assert_eq!(direction(a, b).map(|d| d.0 as usize), found, "{a} {b}");
            }
        }
    }

    /// `piece_attacks_square` agrees with the attack sets.
    #[test]
    fn piece_attacks_square_matches_attacks() {
        let mut seed = 0x2545f4914f6cdd1du64;
        for _ in 0..200 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let occ = Bitboard::from_bits((seed as u128) << 17 ^ (seed.rotate_left(29) as u128));
            for k in PieceKind::ALL {
                for c in Color::ALL {
                    for from in Square::all() {
                        let att = attacks(k, c, from, occ);
                        for t in Square::all() {
                            assert_eq!(piece_attacks_square(k, c, from, t, occ), att.contains(t));
                        }
                    }
                }
            }
        }
    }
}
