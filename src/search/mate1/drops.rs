//! Mating drops: a table for drops next to the king, short tests for knight and distant drops.
//!
//! The king's eight neighbours are numbered as *slots*, seen from the attacker (a White attacker's
//! board is turned half a turn, which maps its pieces' moves onto Black's). For each hand kind and each
//! 8-bit pattern of escapes, `DropTable` holds the slots where a drop of that kind checks and leaves no
//! escape: the dropped piece covers every other escape (through the king along its own line, since the
//! king that steps away leaves its square) and stands on the one it takes. Pawn drops are never
//! looked at: a pawn drop that mates is illegal.

use super::{Ctx, Finder};
use crate::position::attacks::{
    attacks, bishop_pseudo, direction, knight_attacks, line, pawn_attacks, piece_attacks_square,
    ray_attacks, rook_pseudo,
};
use crate::position::{Bitboard, Color, Move, PieceKind, Square};
use std::sync::LazyLock;

/// Slot offsets (file delta, rank delta) for a Black attacker; a White attacker's slot `i` is the
/// opposite offset.
const SLOTS: [(i8, i8); 8] = [
    (1, -1),
    (0, -1),
    (-1, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
];

/// The kinds the table covers (knights never check from a neighbour, pawns are never dropped to mate).
const TABLE_KINDS: [PieceKind; 5] = [
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Gold,
    PieceKind::Silver,
    PieceKind::Lance,
];

/// The square of slot `slot` around `ksq` for attacker `us`, if it is on the board.
fn slot_square(ksq: Square, us: Color, slot: usize) -> Option<Square> {
    let (df, dr) = SLOTS[slot];
    let (df, dr) = match us {
        Color::Black => (df, dr),
        Color::White => (-df, -dr),
    };
    Square::new((ksq.file() as i8 + df) as u8, (ksq.rank() as i8 + dr) as u8)
}

/// The neighbour squares of `ksq` by slot, for each attacker colour.
static SLOT_SQUARES: LazyLock<[[[Option<Square>; 8]; Square::NUM]; 2]> = LazyLock::new(|| {
    let mut t = [[[None; 8]; Square::NUM]; 2];
    for us in Color::ALL {
        for k in Square::all() {
            for (slot, entry) in t[us.index()][k.index()].iter_mut().enumerate() {
                *entry = slot_square(k, us, slot);
            }
        }
    }
    t
});

/// `mates[kind][escapes]`: the slots where a drop of `kind` checks and covers every escape in the
/// 8-bit pattern `escapes` other than its own square.
struct DropTable {
    mates: [[u8; 256]; PieceKind::NUM],
}

/// Built from the real attack tables around a king in the middle of an empty board (5e), the king
/// itself lifted out: next to the king nothing else can lie on a dropped piece's way to another
/// neighbour (they are adjacent, or the path runs through the king's own square), so the pattern holds
/// for every king square; off-board neighbours never appear in an escape pattern.
static DROP_TABLE: LazyLock<DropTable> = LazyLock::new(|| {
    let ksq = Square::new(5, 5).expect("5e");
    let us = Color::Black;
    let mut mates = [[0u8; 256]; PieceKind::NUM];
    for kind in TABLE_KINDS {
        for slot in 0..8 {
            let to = slot_square(ksq, us, slot).expect("5e has eight neighbours");
            if !piece_attacks_square(kind, us, to, ksq, Bitboard::EMPTY) {
                continue;
            }
            let reach = attacks(kind, us, to, Bitboard::EMPTY);
            let mut cover = 1u8 << slot;
            for other in 0..8 {
                let n = slot_square(ksq, us, other).expect("5e has eight neighbours");
                if reach.contains(n) {
                    cover |= 1 << other;
                }
            }
            for (escapes, entry) in mates[kind.index()].iter_mut().enumerate() {
                if escapes as u8 & !cover == 0 {
                    *entry |= 1 << slot;
                }
            }
        }
    }
    DropTable { mates }
});

/// The 8-bit slot pattern of the neighbours of `ksq` in `set`.
fn slots_of(set: Bitboard, squares: &[Option<Square>; 8]) -> u8 {
    let mut bits = 0u8;
    for (slot, sq) in squares.iter().enumerate() {
        if sq.is_some_and(|s| set.contains(s)) {
            bits |= 1 << slot;
        }
    }
    bits
}

/// A mating drop, if one exists (drops that the judgement leaves open are queued in `f`).
pub(super) fn find(f: &mut Finder) -> Option<Move> {
    let ctx = f.ctx;
    let hand = ctx.pos.hand(ctx.us);
    if PieceKind::HAND[1..].iter().all(|&k| !hand.has(k)) {
        return None;
    }
    let empty = !ctx.occ;
    let squares = &SLOT_SQUARES[ctx.us.index()][ctx.ksq.index()];
    let escapes = slots_of(ctx.escapes, squares) as usize;
    // A dropped piece next to the king must be guarded, or the king takes it. Dropping changes no
    // attack onto the drop square itself.
    let guarded = slots_of(ctx.covered & empty, squares);
    for kind in TABLE_KINDS {
        if !hand.has(kind) {
            continue;
        }
        let mut slots = DROP_TABLE.mates[kind.index()][escapes] & guarded;
        while slots != 0 {
            let slot = slots.trailing_zeros() as usize;
            slots &= slots - 1;
            let to = squares[slot].expect("a slot of the guarded pattern is on the board");
            let m = Move::drop(kind, to, ctx.us);
            if f.mates(m, true) {
                return Some(m);
            }
        }
    }
    knight_drop(f, empty).or_else(|| distant_drop(f, empty))
}

/// A knight check covers none of the king's neighbours and a drop opens no line: only a king without
/// any escape can be mated by it.
fn knight_drop(f: &mut Finder, empty: Bitboard) -> Option<Move> {
    let ctx = f.ctx;
    if !ctx.pos.hand(ctx.us).has(PieceKind::Knight) || ctx.escapes.is_not_empty() {
        return None;
    }
    let last_two = Bitboard::relative_ranks(ctx.us, 1, 2);
    let targets = (knight_attacks(ctx.them, ctx.ksq) & empty).and_not(last_two);
    targets.into_iter().find_map(|to| {
        let m = Move::drop(PieceKind::Knight, to, ctx.us);
        f.mates(m, true).then_some(m)
    })
}

/// Rook, bishop and lance drops two or more squares from the king, along each line whose first square
/// `b1` (next to the king) is empty: the dropped slider covers only `b1` and, through the king, the
/// neighbour opposite; and the defender must not be able to drop on `b1`.
fn distant_drop(f: &mut Finder, empty: Bitboard) -> Option<Move> {
    let ctx = f.ctx;
    let hand = ctx.pos.hand(ctx.us);
    let open_near = (ctx.near & empty).and_not(ctx.sure_blocks());
    if open_near.is_empty() {
        return None;
    }
    let lines = [
        (PieceKind::Rook, rook_pseudo(ctx.ksq)),
        (PieceKind::Bishop, bishop_pseudo(ctx.ksq)),
        // A lance checks from the side it moves away from: where a defender pawn on the king's square
        // would step.
        (PieceKind::Lance, pawn_attacks(ctx.them, ctx.ksq)),
    ];
    for (kind, dirs) in lines {
        if !hand.has(kind) {
            continue;
        }
        for b1 in open_near & dirs {
            // `b1` and the neighbour opposite it.
            let through = line(ctx.ksq, b1) & ctx.near;
            if ctx.escapes.and_not(through).is_not_empty() {
                continue;
            }
            let d = direction(ctx.ksq, b1).expect("a neighbour is on a line");
            let far = (ray_attacks(d, ctx.ksq, ctx.occ) & empty).and_not(Bitboard::from_square(b1));
            for to in far {
                let m = Move::drop(kind, to, ctx.us);
                if f.mates(m, true) {
                    return Some(m);
                }
            }
        }
    }
    None
}

impl Ctx<'_> {
    /// Empty neighbours where the defender can surely drop a piece after any attacker move that gives a
    /// single check: a square in there, between a distant checker and the king, refutes the check.
    /// Silver, gold, bishop and rook go anywhere; a lance or knight not onto its dead ranks; a pawn not
    /// onto its last rank, not onto a file with its own pawn, and not where it would check the attacker's
    /// king (a pawn drop that mates is illegal: left to the exact judgement).
    pub(super) fn sure_blocks(&self) -> Bitboard {
        let hand = self.pos.hand(self.them);
        let empty_near = self.near.and_not(self.occ);
        let anywhere = [
            PieceKind::Silver,
            PieceKind::Gold,
            PieceKind::Bishop,
            PieceKind::Rook,
        ];
        if anywhere.into_iter().any(|k| hand.has(k)) {
            return empty_near;
        }
        let mut blocks = Bitboard::EMPTY;
        let last = Bitboard::relative_ranks(self.them, 1, 1);
        if hand.has(PieceKind::Lance) {
            blocks |= empty_near.and_not(last);
        }
        if hand.has(PieceKind::Knight) {
            blocks |= empty_near.and_not(Bitboard::relative_ranks(self.them, 1, 2));
        }
        if hand.has(PieceKind::Pawn) {
            let mut pawn = empty_near.and_not(last)
                & self.pos.pieces_of(self.them, PieceKind::Pawn).empty_files();
            if let Some(k) = self.our_king {
                pawn = pawn.and_not(pawn_attacks(self.us, k));
            }
            blocks |= pawn;
        }
        blocks
    }
}
