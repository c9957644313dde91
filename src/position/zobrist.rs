//! Zobrist hashing, tables generated at compile time by splitmix64.
//!
//! The key is split in two: the **board key** (pieces on squares, side to move), which the transposition
//! table indexes by so that positions differing only in hands meet in one bucket and can be compared by
//! hand superiority; and the **hand key**, additive over the pieces in hand (one random number per colour
//! and kind, multiplied by the count), so that adding or removing one piece is one add or subtract.

use super::types::{Color, Piece, PieceKind, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

struct Tables {
    board: [[u64; Square::NUM]; Piece::NUM],
    hand: [[u64; 8]; 2],
    side: u64,
}

const fn make() -> Tables {
    let mut t = Tables {
        board: [[0; Square::NUM]; Piece::NUM],
        hand: [[0; 8]; 2],
        side: 0,
    };
    let mut state = 0x6b61_6e6a_7500_0001u64; // "kanju"
    let mut p = 0;
    while p < Piece::NUM {
        let mut s = 0;
        while s < Square::NUM {
            let (ns, v) = splitmix(state);
            state = ns;
            // Bit 0 is reserved for the side to move.
            t.board[p][s] = v & !1;
            s += 1;
        }
        p += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 8 {
            let (ns, v) = splitmix(state);
            state = ns;
            t.hand[c][k] = v;
            k += 1;
        }
        c += 1;
    }
    t.side = 1;
    t
}

static TABLES: Tables = make();

#[inline(always)]
pub fn piece_square(p: Piece, sq: Square) -> u64 {
    TABLES.board[p.index()][sq.index()]
}

#[inline(always)]
pub fn hand_piece(c: Color, k: PieceKind) -> u64 {
    TABLES.hand[c.index()][k.index()]
}

/// Xored into the board key when White is to move (bit 0, so the side is readable from the key).
#[inline(always)]
pub fn side() -> u64 {
    TABLES.side
}
