//! Attack tables, all computed at compile time (no start-up cost, no lazy-initialisation check in hot
//! paths).
//!
//! Step pieces read one table entry. Sliders work on *rays* (for each square and each of the eight
//! directions, the squares up to the edge) and are branch-free:
//! - along a ray of growing square index the nearest blocker is the lowest set bit of `occ & ray`, and
//!   `(b ^ (b - 1)) & ray` is the attack set (`positive_ray`);
//! - ranks and diagonals put every square of a ray in its own byte (squares 8, 9 or 10 bits apart), so
//!   on the byte-reversed occupancy (`u128::swap_bytes`) a ray of shrinking index becomes one of growing
//!   index, and the same trick applies with byte-reversed masks;
//! - the one ray left, "up" a file, takes the highest blocker by `leading_zeros`, with a sentinel bit at
//!   the edge standing in for "no blocker".
//!
//! This takes fewer instructions than one `trailing_zeros`/`leading_zeros` per ray with a branch on
//! "no blocker" (callgrind on perft: docs/benchmarks.md, *Instructions and cache misses*).
//!
//! Lines and segments (`between`, `line`, `direction`) come from an 81 x 81 direction-byte table and
//! the rays, which keeps the tables small (about 30 KB in all).

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

/// The union of rays `d0..d0 + 4` from each square (rook: 0..4, bishop: 4..8).
const fn make_pseudo(d0: usize) -> [u128; 81] {
    let rays = make_rays();
    let mut t = [0u128; 81];
    let mut sq = 0;
    while sq < 81 {
        t[sq] = rays[d0][sq] | rays[d0 + 1][sq] | rays[d0 + 2][sq] | rays[d0 + 3][sq];
        sq += 1;
    }
    t
}

static ROOK_PSEUDO: [u128; 81] = make_pseudo(0);
static BISHOP_PSEUDO: [u128; 81] = make_pseudo(4);

/// For each king square, where enemy pieces must stand to attack any of its eight neighbours:
/// `[0]` step pieces (file distance <= 2, rank distance <= 3: a knight reaches two ranks past a
/// neighbour), `[1]` rook-like pieces and lances (the three files and three ranks through the
/// neighbours), `[2]` bishop-like pieces (the diagonals through the neighbours). Supersets: occupancy
/// only shortens what a slider reaches.
const fn make_king_zones() -> [[u128; 81]; 3] {
    let mut t = [[0u128; 81]; 3];
    let mut k = 0usize;
    while k < 81 {
        let (kf, kr) = ((k / 9) as i32, (k % 9) as i32);
        let mut s = 0usize;
        while s < 81 {
            let (f, r) = ((s / 9) as i32, (s % 9) as i32);
            let (df, dr) = (f - kf, r - kr);
            let bit = 1u128 << s;
            if df.abs() <= 2 && dr.abs() <= 3 {
                t[0][k] |= bit;
            }
            if df.abs() <= 1 || dr.abs() <= 1 {
                t[1][k] |= bit;
            }
            if (df + dr).abs() <= 2 || (df - dr).abs() <= 2 {
                t[2][k] |= bit;
            }
            s += 1;
        }
        k += 1;
    }
    t
}

static KING_ZONES: [[u128; 81]; 3] = make_king_zones();

/// Squares from which a step piece may attack a neighbour of `ksq` (see `make_king_zones`).
#[inline(always)]
pub fn king_zone_steps(ksq: Square) -> Bitboard {
    Bitboard::from_raw(KING_ZONES[0][ksq.index()])
}

/// Squares from which a rook, dragon or lance may attack a neighbour of `ksq`.
#[inline(always)]
pub fn king_zone_rook(ksq: Square) -> Bitboard {
    Bitboard::from_raw(KING_ZONES[1][ksq.index()])
}

/// Squares from which a bishop or horse may attack a neighbour of `ksq`.
#[inline(always)]
pub fn king_zone_bishop(ksq: Square) -> Bitboard {
    Bitboard::from_raw(KING_ZONES[2][ksq.index()])
}

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

/// The masks of the branch-free slider code, per square (see `rook_attacks`).
#[derive(Clone, Copy)]
struct SliderMasks {
    /// The rays along which the square index grows (nearest blocker = lowest bit): for rooks "down"
    /// (+1) and "towards file 9" (+9), for bishops +8 and +10.
    pos: [u128; 2],
    /// The rays along which the index shrinks, byte-reversed: for rooks only "towards file 1" (-9; the
    /// other slot is empty), for bishops -8 and -10.
    neg_rev: [u128; 2],
}

const fn make_slider_masks(pos: [usize; 2], neg: [usize; 2]) -> [SliderMasks; 81] {
    let rays = make_rays();
    let mut t = [SliderMasks {
        pos: [0; 2],
        neg_rev: [0; 2],
    }; 81];
    let mut sq = 0;
    while sq < 81 {
        t[sq].pos = [rays[pos[0]][sq], rays[pos[1]][sq]];
        t[sq].neg_rev = [rays[neg[0]][sq].swap_bytes(), rays[neg[1]][sq].swap_bytes()];
        sq += 1;
    }
    t
}

// Row 8 of the rays is empty: the rook's unused negative slot.
static ROOK_MASKS: [SliderMasks; 81] = make_slider_masks([1, 2], [3, 8]);
static BISHOP_MASKS: [SliderMasks; 81] = make_slider_masks([4, 6], [5, 7]);

/// For the "up" ray (-1) of each square: the bit of its last square (the one on rank 1), or of the
/// square itself when the ray is empty. Or-ed into the blockers it makes the highest-blocker search
/// branch-free: "no blocker" reads as "blocked at the edge", which is the same attack set.
const fn make_up_sentinels() -> [u128; 81] {
    let mut t = [0u128; 81];
    let mut sq = 0;
    while sq < 81 {
        t[sq] = 1u128 << (sq - sq % 9);
        sq += 1;
    }
    t
}

static UP_SENTINEL: [u128; 81] = make_up_sentinels();

/// Attacks along a ray `mask` of growing index: `b ^ (b - 1)` keeps the lowest blocker and everything
/// below it (all ones when there is no blocker), the mask keeps the ray.
#[inline(always)]
fn positive_ray(occ: u128, mask: u128) -> u128 {
    let b = occ & mask;
    (b ^ b.wrapping_sub(1)) & mask
}

/// Attacks along the "up" ray (-1, towards rank 1): the highest blocker via `leading_zeros`, with the
/// sentinel standing in for "none".
#[inline(always)]
fn up_ray(sq: usize, occ: u128) -> u128 {
    let r = RAYS[0][sq];
    let b = (occ & r) | UP_SENTINEL[sq];
    r ^ RAYS[0][127 - b.leading_zeros() as usize]
}

#[inline(always)]
pub fn lance_attacks(c: Color, sq: Square, occ: Bitboard) -> Bitboard {
    // Black's lance looks up (direction 0), White's down (direction 1).
    let s = sq.index();
    Bitboard::from_raw(match c {
        Color::Black => up_ray(s, occ.bits()),
        Color::White => positive_ray(occ.bits(), RAYS[1][s]),
    })
}

/// Rook attacks, branch-free. The two rays of growing index use `positive_ray`. Of the two others,
/// "towards file 1" (-9) has its squares in distinct bytes (nine bits apart), so byte-reversing the
/// occupancy turns it into a ray of growing index as well (the masks are stored reversed); "up" (-1)
/// stays within one file's bytes and takes `up_ray`.
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let (s, o) = (sq.index(), occ.bits());
    let m = &ROOK_MASKS[s];
    let pos = positive_ray(o, m.pos[0]) | positive_ray(o, m.pos[1]);
    let neg = positive_ray(o.swap_bytes(), m.neg_rev[0]).swap_bytes();
    Bitboard::from_raw(pos | neg | up_ray(s, o))
}

/// Bishop attacks, branch-free: both diagonal steps (8 and 10) put every square of a ray in its own
/// byte, so the two rays of shrinking index are done on the byte-reversed occupancy (see
/// `rook_attacks`).
#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let (s, o) = (sq.index(), occ.bits());
    let m = &BISHOP_MASKS[s];
    let pos = positive_ray(o, m.pos[0]) | positive_ray(o, m.pos[1]);
    let r = o.swap_bytes();
    let neg = (positive_ray(r, m.neg_rev[0]) | positive_ray(r, m.neg_rev[1])).swap_bytes();
    Bitboard::from_raw(pos | neg)
}

/// Rook moves on an empty board.
#[inline(always)]
pub fn rook_pseudo(sq: Square) -> Bitboard {
    Bitboard::from_raw(ROOK_PSEUDO[sq.index()])
}

/// Bishop moves on an empty board.
#[inline(always)]
pub fn bishop_pseudo(sq: Square) -> Bitboard {
    Bitboard::from_raw(BISHOP_PSEUDO[sq.index()])
}

/// Lance moves on an empty board.
#[inline(always)]
pub fn lance_pseudo(c: Color, sq: Square) -> Bitboard {
    Bitboard::from_raw(RAYS[c as usize][sq.index()])
}

#[inline(always)]
pub fn pawn_attacks(c: Color, sq: Square) -> Bitboard {
    Bitboard::from_raw(PAWN[c as usize][sq.index()])
}
#[inline(always)]
pub fn knight_attacks(c: Color, sq: Square) -> Bitboard {
    Bitboard::from_raw(KNIGHT[c as usize][sq.index()])
}
#[inline(always)]
pub fn silver_attacks(c: Color, sq: Square) -> Bitboard {
    Bitboard::from_raw(SILVER[c as usize][sq.index()])
}
#[inline(always)]
pub fn gold_attacks(c: Color, sq: Square) -> Bitboard {
    Bitboard::from_raw(GOLD[c as usize][sq.index()])
}
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard::from_raw(KING[0][sq.index()])
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
    Bitboard::from_raw(RAYS[d][a.index()] & RAYS[d ^ 1][b.index()])
}

/// The full line through `a` and `b`, or empty if they are not on one rank, file or diagonal.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    let d = DIRECTION[a.index()][b.index()] as usize;
    Bitboard::from_raw(LINES[d >> 1][a.index()])
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

    /// Every square from which some piece attacks a king neighbour lies in the matching zone.
    #[test]
    fn king_zones_cover_all_attackers() {
        for k in Square::all() {
            let near = king_attacks(k);
            for s in Square::all() {
                for c in Color::ALL {
                    for kind in PieceKind::ALL {
                        if (attacks(kind, c, s, Bitboard::EMPTY) & near).is_empty() {
                            continue;
                        }
                        let zone = match kind {
                            PieceKind::Lance | PieceKind::Rook => king_zone_rook(k),
                            PieceKind::Bishop => king_zone_bishop(k),
                            PieceKind::Horse => king_zone_bishop(k) | king_zone_steps(k),
                            PieceKind::Dragon => king_zone_rook(k) | king_zone_steps(k),
                            _ => king_zone_steps(k),
                        };
                        assert!(zone.contains(s), "{kind:?} on {s} near {k}");
                    }
                }
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
