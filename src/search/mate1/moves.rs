//! Mating board moves: per attacker piece, the destinations from which it could check (one bitboard),
//! and per destination a bitboard test that no escape is left uncovered; the survivors go to the exact
//! judgement.

use super::{Ctx, Finder, slides_towards};
use crate::position::attacks::{
    attacks, bishop_pseudo, direction, king_attacks, king_zone_rook, king_zone_steps,
    knight_attacks, lance_pseudo, line, piece_attacks_square, ray_attacks, rook_pseudo,
};
use crate::position::{Bitboard, Color, Move, Piece, PieceKind, Square};

/// A mating board move, if one exists (moves the judgement leaves open are queued in `f`).
pub(super) fn find(f: &mut Finder) -> Option<Move> {
    let ctx = f.ctx;
    let targets = Targets::new(&ctx);
    let king = ctx.our_king.map_or(Bitboard::EMPTY, Bitboard::from_square);
    // Discoverers are handled apart (every move of theirs may check); the king checks only that way.
    for from in movers(&ctx, &targets).and_not(ctx.discoverers | king) {
        let p = ctx.pos.piece_at(from);
        let want = targets.of(p.kind()).and_not(ctx.ours);
        if (pseudo_reach(p.kind(), ctx.us, from) & want).is_empty() {
            continue;
        }
        let reach = attacks(p.kind(), ctx.us, from, ctx.occ) & want & pin_line(&ctx, from);
        for to in reach {
            if let Some(m) = try_move(f, p, from, to, true) {
                return Some(m);
            }
        }
    }
    for from in ctx.discoverers {
        let p = ctx.pos.piece_at(from);
        let mut reach = attacks(p.kind(), ctx.us, from, ctx.occ).and_not(ctx.ours);
        if p.kind() != PieceKind::King {
            reach &= pin_line(&ctx, from);
        }
        for to in reach {
            if let Some(m) = try_move(f, p, from, to, false) {
                return Some(m);
            }
        }
    }
    None
}

/// The attacker's pieces that could reach a target: step pieces close to the king (`king_zone_steps`
/// holds every square from which a step reaches a neighbour), knights a jump away from a target, lances
/// on the files through the neighbours, and every rook and bishop (few, and they come from anywhere).
fn movers(ctx: &Ctx, targets: &Targets) -> Bitboard {
    let pos = ctx.pos;
    let knights = pos.pieces_of(ctx.us, PieceKind::Knight);
    let mut origins = Bitboard::EMPTY;
    if knights.is_not_empty() {
        (targets.near | targets.knight).for_each(|t| origins |= knight_attacks(ctx.them, t));
    }
    let sliders = pos.rook_like()
        | pos.bishop_like()
        | (pos.kind_bb(PieceKind::Lance) & king_zone_rook(ctx.ksq));
    ctx.ours & ((king_zone_steps(ctx.ksq) | sliders) | (knights & origins))
}

/// Where a piece pinned to the attacker's king may go (its pin line); everywhere for the others.
fn pin_line(ctx: &Ctx, from: Square) -> Bitboard {
    match ctx.our_king {
        Some(k) if ctx.our_pinned.contains(from) => line(k, from),
        _ => Bitboard::ALL,
    }
}

/// A superset of a piece's destinations from empty-board tables (sliders without their blockers).
fn pseudo_reach(kind: PieceKind, us: Color, from: Square) -> Bitboard {
    match kind {
        PieceKind::Bishop => bishop_pseudo(from),
        PieceKind::Rook => rook_pseudo(from),
        PieceKind::Horse => bishop_pseudo(from) | king_attacks(from),
        PieceKind::Dragon => rook_pseudo(from) | king_attacks(from),
        PieceKind::Lance => lance_pseudo(us, from),
        _ => attacks(kind, us, from, Bitboard::EMPTY),
    }
}

/// The squares from which a piece could check: the king's neighbours for every kind, the knight squares
/// for knights, and the distant line squares (two or more away) for the sliders, on lines the defender
/// cannot surely block.
struct Targets {
    near: Bitboard,
    knight: Bitboard,
    far_orthogonal: Bitboard,
    far_diagonal: Bitboard,
}

impl Targets {
    fn new(ctx: &Ctx) -> Targets {
        let mut t = Targets {
            near: ctx.near,
            knight: knight_attacks(ctx.them, ctx.ksq),
            far_orthogonal: Bitboard::EMPTY,
            far_diagonal: Bitboard::EMPTY,
        };
        // A piece that is not a discoverer gives a single check; from two or more squares away it
        // passes the empty neighbour `b1` on its line, where a sure drop blocks it.
        let open_near = ctx.near.and_not(ctx.occ | ctx.sure_blocks());
        for b1 in open_near {
            let d = direction(ctx.ksq, b1).expect("a neighbour is on a line");
            let far = ray_attacks(d, ctx.ksq, ctx.occ).and_not(Bitboard::from_square(b1));
            if d.is_diagonal() {
                t.far_diagonal |= far;
            } else {
                t.far_orthogonal |= far;
            }
        }
        t
    }

    /// The destinations from which a piece of `kind`, moving there (promoted or not), may check. A
    /// lance checks from afar only by taking the defender's piece that blocked its file.
    fn of(&self, kind: PieceKind) -> Bitboard {
        match kind {
            PieceKind::Knight => self.near | self.knight,
            PieceKind::Bishop | PieceKind::Horse => self.near | self.far_diagonal,
            PieceKind::Rook | PieceKind::Dragon | PieceKind::Lance => {
                self.near | self.far_orthogonal
            }
            _ => self.near,
        }
    }
}

/// Tries `from`-`to` with promotion, then without (each where the rules allow it). With
/// `direct_only`, a choice must check by the moved piece itself (the piece shields no line).
fn try_move(f: &mut Finder, p: Piece, from: Square, to: Square, direct_only: bool) -> Option<Move> {
    let ctx = f.ctx;
    let kind = p.kind();
    let occ_from = ctx.occ.and_not(Bitboard::from_square(from));
    if direct_only && ctx.near.contains(to) && !contact_may_stand(&ctx, from, to) {
        return None;
    }
    for promote in [true, false] {
        if !may_move(kind, ctx.us, from, to, promote) {
            continue;
        }
        let after = if promote { kind.promoted() } else { kind };
        if direct_only && !piece_attacks_square(after, ctx.us, to, ctx.ksq, occ_from) {
            continue;
        }
        if !covers_escapes(&ctx, from, to, after) {
            continue;
        }
        let m = Move::normal(from, to, promote, p);
        if f.mates(m, direct_only) {
            return Some(m);
        }
    }
    None
}

/// Necessary conditions for a single contact check from `to` by a piece coming from `from`:
/// * the king must not take it: another attacker piece guards `to` (a guard stays one after the move:
///   its line to `to` cannot run through `from`, which blocked nothing of it), or a slider behind `from`
///   does once `from` is empty;
/// * no other defender piece may take it for sure: a taker that is not pinned now stays unpinned unless
///   `from` lies on its line to the king (only a line through `from` opens; the moved piece stands next
///   to the king, so it cannot pin), and the check is single, so its capture is legal.
fn contact_may_stand(ctx: &Ctx, from: Square, to: Square) -> bool {
    if !ctx.covered_twice.contains(to) && !guarded_through(ctx, from, to) {
        return false;
    }
    // Asked per candidate rather than once per call for every neighbour: most calls judge no
    // contact check at all.
    let takers = ctx.pos.attackers_to(ctx.them, to, ctx.occ)
        & ctx
            .theirs
            .and_not(Bitboard::from_square(ctx.ksq) | ctx.their_pinned);
    takers.into_iter().all(|d| line(ctx.ksq, d).contains(from))
}

/// Whether an attacker slider behind `from` (seen from `to`) attacks `to` once `from` is empty.
fn guarded_through(ctx: &Ctx, from: Square, to: Square) -> bool {
    let Some(d) = direction(to, from) else {
        return false;
    };
    let others = ctx.ours.and_not(Bitboard::from_square(from));
    let hit = ray_attacks(d, to, ctx.occ.and_not(Bitboard::from_square(from))) & others;
    hit.is_not_empty() && slides_towards(ctx.pos.piece_at(hit.first()).kind(), d, ctx.them)
}

/// The promotion and dead-piece rules: promote when starting or ending in the zone; a pawn or lance
/// may not stay unpromoted on the last rank, a knight on the last two.
fn may_move(kind: PieceKind, us: Color, from: Square, to: Square, promote: bool) -> bool {
    if promote {
        let zone = Bitboard::promotion_zone(us);
        return kind.can_promote() && (zone.contains(from) || zone.contains(to));
    }
    match kind {
        PieceKind::Pawn | PieceKind::Lance => to.relative_rank(us) > 1,
        PieceKind::Knight => to.relative_rank(us) > 2,
        _ => true,
    }
}

/// A necessary condition for mate after moving a piece from `from` to `to` (becoming `after`): every
/// escape the king has now is covered afterwards. An escape is neither the defender's nor attacked
/// now; afterwards it is still not the defender's (unless it is `to`, where the king would have to
/// take), and an attack on it comes from the moved piece or through a line that the move opened: an
/// attacker line can only open where a square was vacated, `from` (the king leaves its own square too,
/// but no attacker line ran into it before the move, or the defender would be in check). So what the
/// moved piece leaves uncovered must be reached by an attacker slider whose line runs through `from`.
fn covers_escapes(ctx: &Ctx, from: Square, to: Square, after: PieceKind) -> bool {
    let (from_bb, to_bb) = (Bitboard::from_square(from), Bitboard::from_square(to));
    let occ = (ctx.occ.and_not(from_bb) | to_bb).and_not(Bitboard::from_square(ctx.ksq));
    let left = ctx.escapes.and_not(to_bb | attacks(after, ctx.us, to, occ));
    if left.is_empty() {
        return true;
    }
    if left
        .and_not(rook_pseudo(from) | bishop_pseudo(from))
        .is_not_empty()
    {
        return false;
    }
    let others = ctx.ours.and_not(from_bb);
    left.into_iter().all(|n| {
        let d = direction(n, from).expect("aligned with `from`");
        let hit = ray_attacks(d, n, occ) & others;
        hit.is_not_empty() && slides_towards(ctx.pos.piece_at(hit.first()).kind(), d, ctx.them)
    })
}
