//! The exact judgement of one candidate check, on bitboards: the position after the attacker's move is
//! described by the occupancy and piece sets it would have, and the defender's every kind of reply is
//! looked for in turn. Nothing is played.

use super::{Ctx, relevant, slides_towards};
use crate::position::attacks::{attacks, between, direction, piece_attacks_square, ray_attacks};
use crate::position::{Bitboard, Move, PieceKind, Square};

/// What `judge` found.
pub(super) enum Verdict {
    /// The move is legal, checks, and leaves no legal reply.
    Mate,
    /// Illegal, not a check, or the defender has a legal reply.
    NoMate,
    /// Mate unless the defender's only replies, pawn drops that would check the attacker's king, are
    /// legal; a pawn drop that mates is not, and telling needs the position played (rare).
    Open,
}

/// Is the attacker's move `m` mate? `m` must be a move the attacker's piece can make by its shape
/// (destination in reach, not onto its own piece, dead-piece rules respected); the rest is judged here.
/// With `direct`, the caller knows that the moved piece checks and that the move uncovers no line
/// onto the king (a drop, or a move of a piece that shields none): the checker is the moved piece.
pub(super) fn judge(ctx: &Ctx, m: Move, direct: bool) -> Verdict {
    if !legal_for_attacker(ctx, m) {
        return Verdict::NoMate;
    }
    let after = After::new(ctx, m);
    let checkers = if direct {
        after.to_bb()
    } else {
        after.our_attackers(ctx.ksq, after.occ)
    };
    debug_assert_eq!(checkers, after.our_attackers(ctx.ksq, after.occ), "{m}");
    after.judge(checkers)
}

/// Whether the move leaves the attacker's own king safe (the attacker is not in check: its king is
/// exposed only by a pinned piece leaving its line, or by the king stepping onto an attacked square).
fn legal_for_attacker(ctx: &Ctx, m: Move) -> bool {
    let Some(own_king) = ctx.our_king else {
        return true;
    };
    if m.is_drop() {
        return true;
    }
    let (from, to) = (m.from(), m.to());
    if from == own_king {
        // Attacks onto `to` once the king has left `from` (a slider behind it along the step's line).
        let occ = ctx.occ.and_not(Bitboard::from_square(from));
        return ctx.pos.attackers_to(ctx.them, to, occ).is_empty();
    }
    !ctx.our_pinned.contains(from) || line_contains(own_king, from, to)
}

/// Whether `c` lies on the line through `a` and `b`.
fn line_contains(a: Square, b: Square, c: Square) -> bool {
    crate::position::attacks::aligned(a, b, c)
}

/// The position right after the attacker's move, as far as the judgement needs it.
struct After<'c, 'a> {
    ctx: &'c Ctx<'a>,
    /// Where the moved or dropped piece stands, and its kind there.
    to: Square,
    kind: PieceKind,
    occ: Bitboard,
    /// The attacker's other pieces (the moved one left its origin).
    ours_rest: Bitboard,
    /// The defender's pieces (a captured one removed).
    theirs: Bitboard,
}

impl<'c, 'a> After<'c, 'a> {
    fn new(ctx: &'c Ctx<'a>, m: Move) -> After<'c, 'a> {
        let to = m.to();
        let to_bb = Bitboard::from_square(to);
        let from_bb = if m.is_drop() {
            Bitboard::EMPTY
        } else {
            Bitboard::from_square(m.from())
        };
        After {
            ctx,
            to,
            kind: m.kind_after(),
            occ: ctx.occ.and_not(from_bb) | to_bb,
            ours_rest: ctx.ours.and_not(from_bb),
            theirs: ctx.theirs.and_not(to_bb),
        }
    }

    fn to_bb(&self) -> Bitboard {
        Bitboard::from_square(self.to)
    }

    /// The attacker's pieces attacking `sq` given `occ`. `attackers_to` reads the board before the move:
    /// masking with `ours_rest` drops the moved piece's old square (and the captured defender piece,
    /// which was never the attacker's); the moved piece is added with its new kind.
    fn our_attackers(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let ctx = self.ctx;
        let mut a = ctx.pos.attackers_to(ctx.us, sq, occ) & self.ours_rest;
        if piece_attacks_square(self.kind, ctx.us, self.to, sq, occ) {
            a |= self.to_bb();
        }
        a
    }

    /// The king's neighbours the attacker attacks after the move, given `occ`: from the pieces that can
    /// reach one at all, and from the moved piece.
    fn danger(&self, occ: Bitboard) -> Bitboard {
        let ctx = self.ctx;
        let mut d = attacks(self.kind, ctx.us, self.to, occ);
        relevant(ctx.pos, ctx.ksq, self.ours_rest)
            .for_each(|s| d |= attacks(ctx.pos.piece_at(s).kind(), ctx.us, s, occ));
        d
    }

    /// The kind of the attacker's piece on `sq` after the move.
    fn our_kind(&self, sq: Square) -> PieceKind {
        if sq == self.to {
            self.kind
        } else {
            self.ctx.pos.piece_at(sq).kind()
        }
    }

    fn judge(&self, checkers: Bitboard) -> Verdict {
        let ctx = self.ctx;
        if checkers.is_empty() {
            return Verdict::NoMate;
        }
        // King steps, the capture of an adjacent checker included. The king leaves its square, so the
        // checker's line goes on through it (an x-ray); the moved piece's old square is empty, so a
        // slider behind it may now guard (also an x-ray).
        let occ_k = self.occ.and_not(Bitboard::from_square(ctx.ksq));
        if ctx
            .near
            .and_not(self.theirs | self.danger(occ_k))
            .is_not_empty()
        {
            return Verdict::NoMate;
        }
        // Against a double check only the king may move.
        if checkers.has_more_than_one() {
            return Verdict::Mate;
        }
        let checker = checkers.first();
        if self.checker_can_be_taken(checker) {
            return Verdict::NoMate;
        }
        self.judge_interpositions(checker)
    }

    /// Whether a defender piece other than the king can legally take the single checker: it must not be
    /// pinned in the position after the move (the pin may be new: a line opened through the moved
    /// piece's old square).
    fn checker_can_be_taken(&self, checker: Square) -> bool {
        let ctx = self.ctx;
        let takers = ctx.pos.attackers_to(ctx.them, checker, self.occ)
            & self.theirs.and_not(Bitboard::from_square(ctx.ksq));
        // Once taken, the checker is no longer the attacker's.
        let ours = (self.ours_rest | self.to_bb()).and_not(Bitboard::from_square(checker));
        takers.into_iter().any(|d| {
            let occ = self.occ.and_not(Bitboard::from_square(d));
            !self.exposes_king(d, occ, ours)
        })
    }

    /// The single checker cannot be taken and the king cannot step away: mate unless a piece can be put
    /// between a distant checker and the king.
    fn judge_interpositions(&self, checker: Square) -> Verdict {
        let ctx = self.ctx;
        let movers_of = |b: Square| {
            ctx.pos.attackers_to(ctx.them, b, self.occ)
                & self.theirs.and_not(Bitboard::from_square(ctx.ksq))
        };
        let ours = self.ours_rest | self.to_bb();
        let mut open = false;
        for b in between(checker, ctx.ksq) {
            match self.defender_drop(b) {
                DropAnswer::Legal => return Verdict::NoMate,
                DropAnswer::CheckingPawn => open = true,
                DropAnswer::None => {}
            }
            // A move onto `b` (an empty square: `attackers_to` of a pawn is then its step) is legal
            // unless it opens a line onto its own king; moving into the zone it can always promote, so no
            // destination is dead for it.
            let b_bb = Bitboard::from_square(b);
            let blocked = movers_of(b).into_iter().any(|d| {
                let occ = self.occ.and_not(Bitboard::from_square(d)) | b_bb;
                !self.exposes_king(d, occ, ours)
            });
            if blocked {
                return Verdict::NoMate;
            }
        }
        if open { Verdict::Open } else { Verdict::Mate }
    }

    /// Whether, once the defender's piece has left `vacated` (occupancy `occ`, attacker pieces `ours`),
    /// an attacker slider attacks the defender's king along the line through `vacated`. Only that line
    /// can change: before the reply the sole attack on the king is the checker's, which the reply
    /// removes or blocks.
    fn exposes_king(&self, vacated: Square, occ: Bitboard, ours: Bitboard) -> bool {
        let ctx = self.ctx;
        let Some(d) = direction(ctx.ksq, vacated) else {
            return false;
        };
        let hit = ray_attacks(d, ctx.ksq, occ) & ours;
        if hit.is_empty() {
            return false;
        }
        // The first piece met is the attacker's; it is at least two squares away, so only a slider along
        // `d` can reach the king.
        slides_towards(self.our_kind(hit.first()), d, ctx.them)
    }

    /// Whether the defender can drop a piece on the empty square `b` (dead-piece and two-pawn rules; the
    /// defender's hand is what it was before the move).
    fn defender_drop(&self, b: Square) -> DropAnswer {
        let ctx = self.ctx;
        let hand = ctx.pos.hand(ctx.them);
        let rank = b.relative_rank(ctx.them);
        let anywhere = [
            PieceKind::Silver,
            PieceKind::Gold,
            PieceKind::Bishop,
            PieceKind::Rook,
        ];
        if anywhere.into_iter().any(|k| hand.has(k))
            || (hand.has(PieceKind::Lance) && rank > 1)
            || (hand.has(PieceKind::Knight) && rank > 2)
        {
            return DropAnswer::Legal;
        }
        if !hand.has(PieceKind::Pawn) || rank == 1 {
            return DropAnswer::None;
        }
        let pawns = ctx.pos.pieces_of(ctx.them, PieceKind::Pawn) & self.theirs;
        if (pawns & Bitboard::file(b.file())).is_not_empty() {
            return DropAnswer::None;
        }
        // A pawn drop that checks the attacker's king is illegal if it mates it.
        let checks_our_king = ctx
            .our_king
            .is_some_and(|k| crate::position::attacks::pawn_attacks(ctx.them, b).contains(k));
        if checks_our_king {
            DropAnswer::CheckingPawn
        } else {
            DropAnswer::Legal
        }
    }
}

/// Whether the defender can drop on a square.
enum DropAnswer {
    Legal,
    /// Only a pawn, and it would check the attacker's king (legal unless it mates).
    CheckingPawn,
    None,
}
