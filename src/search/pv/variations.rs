//! Variations (変化): the defender's other replies along the mating line, each with its own mate.
//! Composers read them for two flaws besides 余詰 (`alternatives.rs`):
//!
//! * **変長** — a reply after which the attacker needs more plies than the line has left: the line
//!   is then not the longest defence. (On kanju's own canonical line this can only be a reply the
//!   composers' ranking put below the line's, one after which the attacker mates with pieces to
//!   spare; on a line that is not proven exact it says what the limits missed.) A longer reply
//!   is given the ranking's own spare test (`Variation::spared`): where it proves a spare mate,
//!   the report names the reply 変長駒余り even if the variation's line ends with an empty hand.
//! * **変化別詰** — after such a reply, a second attacker move that mates as soon as the shortest:
//!   the variation has no single answer. (Only the variation's first attacker move is compared;
//!   deeper inside a variation nothing is examined, and the report says so.)
//!
//! At each defender move of the line (ply k from 1, with n plies left including it), every other
//! reply that counts in the game searched (in the canonical game a futile interposition is no
//! defence, `game/futile.rs`) is played and its child asked "mate within n − 1?". Yes: its
//! length is made exact the way a node's is inside the line phases (`exact.rs`: shortest first, then
//! "mate within b − 2?" down). No (a completed search): the reply lasts longer than the line — 変長 —
//! and its own mate is proven by an unbounded search and made exact the same way. Then at the
//! variation's first attacker node every other check is asked "mate within m − 1?" (m the
//! variation's exact length), as the alternatives check asks along the line.
//!
//! **One reply at a time.** Each reply is searched within its own node cap (`REPLY_CAP_MIN`, or an
//! eighth of the solve's nodes so far if more): a reply whose questions the cap stops is listed as
//! undecided (`Variations::undecided`) and the next one is searched, so that one hard variation
//! does not leave every later one unexamined. Only the user's limits end the whole check.
//!
//! **No history.** A variation is searched as if its first position were a root: the line's
//! positions are not on the path, and the phase's path keys start from their own salt, so no
//! path-dependent result of another phase (a repetition of a line position) is read here. The values
//! found are the positions' own, and they are the variation's values in the game too: a mate within
//! d plies has a strategy that gets closer to mate every move, so it never repeats one of its own
//! positions, and passing once through a position of the line before it makes only a second
//! occurrence, which no repetition rule punishes; so a mate without history is a mate after the
//! line's moves, of the same length, and a refutation without history is one with it too (a
//! history only takes options from the attacker).

use super::alternatives::or_node_alternatives;
use super::exact::exact_line_and_exactness;
use super::walk::probe_here;
use crate::position::Move;
use crate::position::movegen::{MoveList, check_gap, generate_evasions};
use crate::search::bounded::{At, bounded_search};
use crate::search::canonical::ranking::answered_by_spare_mate;
use crate::search::dfpn::Searcher;
use crate::search::game::futile::excused;
use crate::search::loops::next_path;
use crate::search::outcome::{Variation, Variations};
use crate::search::parallel;

/// The smallest node cap of one reply's questions (module comment, *One reply at a time*).
pub const REPLY_CAP_MIN: u64 = 1_000_000;

/// Mixed into the path key of the phase's root (module comment, *No history*).
const VARIATIONS_PATH_SALT: u64 = 0x7661_7269_6174_696f;

/// Searches every variation of `line` (a verified mating line from the root of `s`) in the current
/// game (the one the line is a minimax line of), within the phase's node budget if `budgeted`
/// (else only the user's limits and the per-reply caps). Leaves the position and the path as it
/// found them.
pub fn check(s: &mut Searcher, line: &[Move], budgeted: bool) -> Variations {
    s.budget.end = if budgeted { s.phase_budget() } else { None };
    s.budget.aborted = false;
    let saved_keys = std::mem::take(&mut s.path.keys);
    let mut out = Variations::default();
    let mut path = s.path.root ^ VARIATIONS_PATH_SALT;
    let total = line.len() as u32;
    let mut played = 0;
    out.complete = true;
    let cap = REPLY_CAP_MIN.max(s.total_nodes() / 8);
    for (i, &line_reply) in line.iter().enumerate() {
        let ply = i as u32;
        if !s.is_or_node()
            && !and_node_variations(s, line_reply, (ply, path, total - ply), cap, &mut out)
        {
            out.complete = false;
            break;
        }
        s.pos.do_move(line_reply);
        played += 1;
        path = next_path(path, line_reply);
    }
    for &m in line[..played].iter().rev() {
        s.pos.undo_move(m);
    }
    s.path.keys = saved_keys;
    s.budget.end = None;
    out
}

/// The other replies of the current AND node (at `ply` and `path`, `left` plies to the line's end
/// including the reply) that count in the current game, each searched within `cap` nodes (module
/// comment); false if a limit beyond the cap stopped the search.
fn and_node_variations(
    s: &mut Searcher,
    line_reply: Move,
    (ply, path, left): (u32, u64, u32),
    cap: u64,
    out: &mut Variations,
) -> bool {
    let mut replies = MoveList::new();
    generate_evasions(&s.pos, &mut replies);
    let gap = check_gap(&s.pos);
    for &r in replies.iter().filter(|&&r| r != line_reply) {
        if s.game.skips_futile() && excused(&mut s.pos, r, gap) {
            continue;
        }
        let begun = s.total_nodes();
        let v = s.within_cap(cap, |s| {
            s.off_path_child(r, ply, path, |s, ply, path| {
                variation(s, At { ply, path }, left - 1)
            })
            .flatten()
        });
        log::debug!(
            "variation at ply {} {}: {:?} in {} nodes",
            ply + 1,
            r.to_usi(),
            v.as_ref().map(|v| (v.mate, v.longer, v.others.len())),
            s.total_nodes() - begun
        );
        match v {
            Some(mut v) => {
                v.ply = ply + 1;
                v.reply = r;
                if v.longer {
                    let tests = s.config().ranking_test_nodes;
                    v.spared = answered_by_spare_mate(s, At { ply, path }, r, v.mate, tests);
                }
                out.found.push(v);
            }
            // `within_cap` leaves `aborted` set only for a limit beyond the cap.
            None if s.budget.aborted => return false,
            None => out.undecided.push((ply + 1, r)),
        }
    }
    true
}

/// The variation from the current OR node `at` (the reply just played), whose line has `rest` plies
/// left: its exact mate and line, whether it lasts longer than `rest`, and the other first checks
/// that mate as soon. `None` if a limit stopped a question (or, never for a proven root, no mate).
fn variation(s: &mut Searcher, at: At, rest: u32) -> Option<Variation> {
    let (within, refuted) = bounded_search(s, at, rest);
    let bound = if within {
        u32::from(probe_here(s, at.path, rest).len).min(rest)
    } else if refuted {
        // 変長: its mate is longer; an unbounded search bounds it.
        let r = parallel::search(s, at.ply, at.path);
        if r.pn != 0 {
            return None;
        }
        u32::from(probe_here(s, at.path, crate::search::tt::UNBOUNDED).len).max(rest + 2)
    } else {
        return None;
    };
    let cap = s.config().ranking_test_nodes.max(1);
    let (moves, exact) = exact_line_and_exactness(s, at, bound, cap)?;
    if s.budget.aborted {
        return None;
    }
    let mate = moves.len() as u32;
    let mut others = vec![];
    if exact && !or_node_alternatives(s, moves[0], at.ply, at.path, mate, &mut others) {
        return None;
    }
    Some(Variation {
        ply: 0,
        reply: moves[0],
        mate,
        exact,
        longer: !within,
        spared: false,
        others,
        line: moves,
    })
}
