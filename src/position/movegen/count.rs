//! Counting moves without building them: the bulk counts of the frontier's look-ahead and of perft.
//! Each count is the length of the list the generator would build (`tests/movegen` checks them on
//! every position it walks), with popcounts compiled in one instruction where the CPU has them.

use super::{
    MoveCounter, MoveList, between, evasions_into, legal_into, push_board_moves, push_drops,
    push_king_moves,
};
use crate::position::{Bitboard, Color, Position, Square};

/// The number of legal moves, without building them.
pub fn count_legal(pos: &Position) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: compiled for `popcnt` on top of the baseline; the CPU was just checked for it.
        return unsafe { count_popcnt(pos, false) };
    }
    count_moves(pos, false)
}

/// The number of legal moves of a side in check (0: mated), without building them.
pub fn count_evasions(pos: &Position) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: as in `count_legal`.
        return unsafe { count_popcnt(pos, true) };
    }
    count_moves(pos, true)
}

/// The evasions of a side in check counted as the search groups them (`frontier::look_and`): each king
/// move and each capture of the checker apart, every interposition (a drop or a move onto the squares
/// between a distant checker and the king) together as one. 0: mated. No move is built.
pub fn count_evasion_groups(pos: &Position) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: as in `count_legal`.
        return unsafe { count_groups_popcnt(pos) };
    }
    count_groups(pos)
}

/// `count_evasion_groups` on the baseline instruction set, without generating every evasion: the
/// king's moves, the captures of the checker by the pieces that attack its square (each move apart,
/// promotion and not as the generator gives them), and whether any interposition exists at all —
/// a drop first (the defender of a tsume nearly always holds one), board moves onto the gap only
/// without one. The same count as grouping `generate_evasions` (`tests/movegen.rs` checks it on
/// every position it walks): a king never steps onto the gap (it would stay on the checking line),
/// and no capture lands on it, so the groups are exactly those moves plus one if anything interposes.
/// 0: mated. The side to move must be in check.
#[inline(always)]
fn count_groups(pos: &Position) -> usize {
    let us = pos.side_to_move();
    let Some(ksq) = pos.king_square(us) else {
        return 0;
    };
    let mut counter = MoveCounter(0);
    push_king_moves(pos, &mut counter, us, ksq, !pos.pieces(us));
    let checkers = pos.checkers();
    debug_assert!(checkers.is_not_empty());
    if checkers.is_empty() || checkers.has_more_than_one() {
        return counter.0;
    }
    let checker = checkers.first();
    // The pins are looked for only where a board move must be judged (a capture, or an
    // interposition when no drop interposes).
    let mut takers = pos.attackers_to(us, checker, pos.occupied());
    takers.clear(ksq);
    if takers.is_not_empty() {
        let pinned = pos.pinned(us);
        push_board_moves::<true>(pos, &mut counter, us, checkers, pinned, ksq, takers);
    }
    let gap = between(checker, ksq);
    counter.0 + usize::from(gap.is_not_empty() && interposes(pos, us, gap, ksq))
}

/// Whether `us` (in check from a distant piece, king on `ksq`) has any interposition on `gap`.
#[inline(always)]
fn interposes(pos: &Position, us: Color, gap: Bitboard, ksq: Square) -> bool {
    let mut any = MoveCounter(0);
    push_drops(pos, &mut any, us, gap);
    if any.0 == 0 {
        let pinned = pos.pinned(us);
        push_board_moves::<true>(pos, &mut any, us, gap, pinned, ksq, Bitboard::ALL);
    }
    any.0 > 0
}

/// `count_groups` where popcounts are one instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn count_groups_popcnt(pos: &Position) -> usize {
    count_groups(pos)
}

/// `count_legal` (or `count_evasions` when `evasions`) on the baseline instruction set.
#[inline(always)]
fn count_moves(pos: &Position, evasions: bool) -> usize {
    let mut counter = MoveCounter(0);
    if evasions {
        evasions_into(pos, &mut counter);
    } else {
        legal_into(pos, &mut counter);
    }
    counter.0
}

/// `count_moves` where popcounts are one instruction (see `perft_popcnt`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn count_popcnt(pos: &Position, evasions: bool) -> usize {
    count_moves(pos, evasions)
}

/// Counts the leaf nodes of the legal move tree to `depth` (bulk-counting the last ply: `count_legal`).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: `perft_popcnt` is only compiled for the `popcnt` feature in addition to the build's
        // baseline, and the CPU has just been checked to support it.
        return unsafe { perft_popcnt(pos, depth) };
    }
    perft_baseline(pos, depth)
}

/// `perft` for the build's baseline instruction set.
fn perft_baseline(pos: &mut Position, depth: u32) -> u64 {
    perft_node(pos, depth, perft_baseline)
}

/// `perft` with the generators inlined into code that may use the `popcnt` instruction: bulk counting
/// is a sum of bitboard popcounts, which the x86-64 baseline can only do with a 30-instruction bit
/// trick per `u128`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn perft_popcnt(pos: &mut Position, depth: u32) -> u64 {
    perft_node(pos, depth, |p, d| perft_popcnt(p, d))
}

/// One perft node; `recurse` is the perft flavour to call for the children.
#[inline(always)]
fn perft_node(pos: &mut Position, depth: u32, recurse: impl Fn(&mut Position, u32) -> u64) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        let mut counter = MoveCounter(0);
        legal_into(pos, &mut counter);
        return counter.0 as u64;
    }
    let mut list = MoveList::new();
    legal_into(pos, &mut list);
    let mut n = 0;
    for &m in list.iter() {
        pos.do_move(m);
        n += recurse(pos, depth - 1);
        pos.undo_move(m);
    }
    n
}
