//! Check generation (OR nodes): every legal check, built from the squares where each kind of piece
//! would check the enemy king.

use super::*;

/// For each kind, the squares from which a piece of that kind (of the side to move) would check the
/// enemy king on `eksq` with the current occupancy.
#[inline]
pub fn check_squares(pos: &Position, us: Color, eksq: Square) -> [Bitboard; PieceKind::NUM] {
    let occ = pos.occupied();
    let them = us.flip();
    let gold = gold_attacks(them, eksq);
    let bishop = bishop_attacks(eksq, occ);
    let rook = rook_attacks(eksq, occ);
    let king = king_attacks(eksq);
    let mut t = [Bitboard::EMPTY; PieceKind::NUM];
    t[PieceKind::Pawn.index()] = pawn_attacks(them, eksq);
    t[PieceKind::Lance.index()] = lance_attacks(them, eksq, occ);
    t[PieceKind::Knight.index()] = knight_attacks(them, eksq);
    t[PieceKind::Silver.index()] = silver_attacks(them, eksq);
    t[PieceKind::Gold.index()] = gold;
    t[PieceKind::Bishop.index()] = bishop;
    t[PieceKind::Rook.index()] = rook;
    t[PieceKind::ProPawn.index()] = gold;
    t[PieceKind::ProLance.index()] = gold;
    t[PieceKind::ProKnight.index()] = gold;
    t[PieceKind::ProSilver.index()] = gold;
    t[PieceKind::Horse.index()] = bishop | king;
    t[PieceKind::Dragon.index()] = rook | king;
    t
}

/// Every legal move that checks the enemy king: direct checks (with and without promotion), discovered
/// checks and checking drops, generated from the check squares rather than by filtering all moves.
/// When the side to move is itself in check, its evasions that also give check.
pub fn generate_checks(pos: &Position, list: &mut MoveList) {
    checks_into(pos, list);
}

/// The number of moves `generate_checks` gives, without building them (the search's look at a new OR
/// node needs only the count).
pub fn count_checks(pos: &Position) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: `count_checks_popcnt` is compiled for `popcnt` on top of the baseline, and the CPU
        // has just been checked for it.
        return unsafe { count_checks_popcnt(pos) };
    }
    let mut counter = MoveCounter(0);
    checks_into(pos, &mut counter);
    counter.0
}

/// `count_checks` where popcounts are one instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn count_checks_popcnt(pos: &Position) -> usize {
    let mut counter = MoveCounter(0);
    checks_into(pos, &mut counter);
    counter.0
}

/// `generate_checks` into any sink.
#[inline(always)]
fn checks_into<L: MoveSink>(pos: &Position, list: &mut L) {
    let us = pos.side_to_move();
    let them = us.flip();
    let Some(eksq) = pos.king_square(them) else {
        return;
    };
    if pos.in_check() {
        let mut all = MoveList::new();
        generate_evasions(pos, &mut all);
        for &m in all.iter() {
            if pos.gives_check(m) {
                list.add(m.base(), Bitboard::from_square(m.to()));
            }
        }
        return;
    }
    let own = pos.pieces(us);
    let occ = pos.occupied();
    let target = !own;
    let zone = Bitboard::promotion_zone(us);
    let ksq = pos.king_square(us);
    let pinned = pos.pinned(us);
    let discoverers = pos.slider_blockers(us, eksq) & own;

    // Check squares: where a piece of each kind (of ours) would give check.
    let chk_pawn = pawn_attacks(them, eksq);
    let chk_knight = knight_attacks(them, eksq);
    let chk_silver = silver_attacks(them, eksq);
    let chk_gold = gold_attacks(them, eksq);
    let chk_lance = lance_attacks(them, eksq, occ);
    let chk_bishop = bishop_attacks(eksq, occ);
    let chk_rook = rook_attacks(eksq, occ);
    let chk_horse = chk_bishop | king_attacks(eksq);
    let chk_dragon = chk_rook | king_attacks(eksq);

    // Pawns, all at once: a pawn checks by stepping onto the pawn check square, or by promoting on a
    // gold check square.
    let special = (pinned | discoverers) & own;
    let not_last = !LAST_RANK[us.index()];
    let pawn_to = pos
        .pieces_of(us, PieceKind::Pawn)
        .and_not(special)
        .forward(us)
        & target;
    list.add_pawn_moves(us, pawn_to & zone & chk_gold, true);
    list.add_pawn_moves(us, pawn_to & chk_pawn & not_last, false);

    // Every other piece (the attacker in a mate problem has few, so one loop with a `match` beats a
    // loop per kind). Each arm knows its kind's check squares and promotion rule.
    let knight_plain = chk_knight.and_not(LAST_TWO_RANKS[us.index()]);
    let gold_promo = chk_gold & zone;
    let lance_plain = chk_lance & not_last;
    let lance_any = lance_plain | gold_promo;
    let direct = Direct {
        us,
        occ,
        target,
        chk_silver,
        chk_gold,
        chk_bishop,
        chk_rook,
        chk_horse,
        chk_dragon,
        knight_plain,
        gold_promo,
        lance_plain,
        lance_any,
    };
    // A gold-like piece or a silver checks only from a neighbour of the king (promoted or not), so it
    // must stand within two files and two ranks of it (`king_zone_steps` holds those squares): the
    // others are skipped without a look. Sliders and knights are filtered by their own tests below.
    let far_steppers =
        (pos.golds() | pos.kind_bb(PieceKind::Silver)).and_not(king_zone_steps(eksq));
    let others =
        own.and_not(pos.kind_bb(PieceKind::King) | pos.kind_bb(PieceKind::Pawn) | far_steppers);
    if special.is_empty() {
        for from in others {
            direct.push(pos, list, from);
        }
    } else {
        for from in others.and_not(special) {
            direct.push(pos, list, from);
        }
        // Pinned pieces and discoverers (rare): pinned ones stay on their pin line, and a discoverer
        // checks with every move off its line to the king.
        let chk_of = |k: PieceKind| match k {
            PieceKind::Pawn => chk_pawn,
            PieceKind::Lance => chk_lance,
            PieceKind::Knight => chk_knight,
            PieceKind::Silver => chk_silver,
            PieceKind::Bishop => chk_bishop,
            PieceKind::Rook => chk_rook,
            PieceKind::Horse => chk_horse,
            PieceKind::Dragon => chk_dragon,
            PieceKind::King => Bitboard::EMPTY,
            _ => chk_gold,
        };
        special
            .and_not(pos.kind_bb(PieceKind::King))
            .for_each(|from| {
                let p = pos.piece_at(from);
                let kind = p.kind();
                let mut att = attacks(kind, us, from, occ) & target;
                if let Some(k) = ksq
                    && pinned.contains(from)
                {
                    att &= line(k, from);
                }
                let d = if discoverers.contains(from) {
                    att.and_not(line(eksq, from))
                } else {
                    Bitboard::EMPTY
                };
                let promo = if kind.can_promote() {
                    ((att & chk_of(kind.promoted())) | d) & promotion_targets(us, from)
                } else {
                    Bitboard::EMPTY
                };
                let plain = ((att & chk_of(kind)) | d) & nonpromotion_allowed(kind, us);
                push_split(list, p, from, promo, plain);
            });
        if let Some(k) = ksq
            && discoverers.contains(k)
        {
            push_king_moves(pos, list, us, k, target.and_not(line(eksq, k)));
        }
    }

    // Drops on empty check squares.
    let hand = pos.hand(us);
    if hand.is_empty() {
        return;
    }
    let empty = !occ;
    if hand.has(PieceKind::Pawn) {
        let to_set = chk_pawn & empty & pos.pieces_of(us, PieceKind::Pawn).empty_files();
        if to_set.is_not_empty() && !is_pawn_drop_mate(pos, us, to_set.first()) {
            list.add(Move::base_drop(PieceKind::Pawn, us), to_set);
        }
    }
    let drops = [
        (PieceKind::Lance, chk_lance.and_not(LAST_RANK[us.index()])),
        (
            PieceKind::Knight,
            chk_knight.and_not(LAST_TWO_RANKS[us.index()]),
        ),
        (PieceKind::Silver, chk_silver),
        (PieceKind::Gold, chk_gold),
        (PieceKind::Bishop, chk_bishop),
        (PieceKind::Rook, chk_rook),
    ];
    for (kind, squares) in drops {
        if hand.has(kind) {
            list.add(Move::base_drop(kind, us), squares & empty);
        }
    }
}

/// What the direct checks of one piece need to know: the squares from which each kind checks the
/// enemy king and where a move may land. A function rather than a closure so that it is inlined into
/// `count_checks_popcnt` and its popcounts are one instruction there too.
struct Direct {
    us: Color,
    occ: Bitboard,
    target: Bitboard,
    chk_silver: Bitboard,
    chk_gold: Bitboard,
    chk_bishop: Bitboard,
    chk_rook: Bitboard,
    chk_horse: Bitboard,
    chk_dragon: Bitboard,
    knight_plain: Bitboard,
    gold_promo: Bitboard,
    lance_plain: Bitboard,
    lance_any: Bitboard,
}

impl Direct {
    /// The direct checks (with and without promotion) of the piece on `from`, neither pinned nor a
    /// discoverer.
    #[inline(always)]
    fn push(&self, pos: &Position, list: &mut impl MoveSink, from: Square) {
        let p = pos.piece_at(from);
        match p.kind() {
            PieceKind::Knight => {
                let att = knight_attacks(self.us, from) & self.target;
                push_split(
                    list,
                    p,
                    from,
                    att & self.gold_promo,
                    att & self.knight_plain,
                );
            }
            PieceKind::Silver => {
                let att = silver_attacks(self.us, from) & self.target;
                let promo = att & self.chk_gold & promotion_targets(self.us, from);
                push_split(list, p, from, promo, att & self.chk_silver);
            }
            PieceKind::Lance => {
                if (lance_pseudo(self.us, from) & self.lance_any).is_not_empty() {
                    let att = lance_attacks(self.us, from, self.occ) & self.target;
                    push_split(list, p, from, att & self.gold_promo, att & self.lance_plain);
                }
            }
            PieceKind::Bishop => {
                if (bishop_pseudo(from) & self.chk_horse).is_not_empty() {
                    let att = bishop_attacks(from, self.occ) & self.target;
                    let promo = att & self.chk_horse & promotion_targets(self.us, from);
                    push_split(list, p, from, promo, att & self.chk_bishop);
                }
            }
            PieceKind::Rook => {
                if (rook_pseudo(from) & self.chk_dragon).is_not_empty() {
                    let att = rook_attacks(from, self.occ) & self.target;
                    let promo = att & self.chk_dragon & promotion_targets(self.us, from);
                    push_split(list, p, from, promo, att & self.chk_rook);
                }
            }
            PieceKind::Horse => {
                if ((bishop_pseudo(from) | king_attacks(from)) & self.chk_horse).is_not_empty() {
                    let att = (bishop_attacks(from, self.occ) | king_attacks(from)) & self.target;
                    list.add(Move::base_normal(from, false, p), att & self.chk_horse);
                }
            }
            PieceKind::Dragon => {
                if ((rook_pseudo(from) | king_attacks(from)) & self.chk_dragon).is_not_empty() {
                    let att = (rook_attacks(from, self.occ) | king_attacks(from)) & self.target;
                    list.add(Move::base_normal(from, false, p), att & self.chk_dragon);
                }
            }
            PieceKind::Pawn | PieceKind::King => {}
            // Gold and the promoted minor pieces.
            _ => {
                let att = gold_attacks(self.us, from) & self.target & self.chk_gold;
                list.add(Move::base_normal(from, false, p), att);
            }
        }
    }
}
