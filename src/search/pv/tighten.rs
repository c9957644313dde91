//! The line phase's tightening: "mate within d?" from the root, below the proven bound, until the
//! bound is exact or a limit stops it.

use super::walk::read_bound;
use crate::position::Move;
use crate::search::bounded::mate_within;
use crate::search::dfpn::Searcher;

/// "Mate within d?" from the root, d below `bound`, until every length below `bound` is refuted (then
/// `bound` is exact: returns true) or a limit stops it. Each yes lowers `bound` to the mate's length;
/// `best` takes that bound's line at once (`read_bound`: from the table, else searched again within a
/// small allowance). Each question may spend `step` nodes (within the phase's budget).
///
/// Which d: a yes is cheap next to a no (a bounded search stops at its first mate, a refutation must
/// look at every line), and a bounded search tends to find a mate near its bound, so asking only
/// `bound` − 2 shortens the line by two plies a question, and on a first proof far longer than the
/// shortest mate the phase's budget runs out long before the exact length (a random mate in 13:
/// `tests/cli/solve.rs`, `the_line_phase_jumps_to_a_much_shorter_mate`, and `tests/cli/bench.rs`,
/// `bench_line_phase_jumps_further_than_steps`). So the jump below `bound` doubles after each yes
/// (2, 4, 8, … plies), and a no refutes every length up to d at once: the shortest possible length
/// `least` rises past it, and the next question halves what lies between. A jump gets a quarter of a
/// step; one that ends unanswered ends the jumping, and the question is asked again as `bound` − 2,
/// where the answers are cheapest, with what is left of the step (a step per bound decided: the
/// jump's guess and the question after it decide one bound, and on a long problem whose shorter
/// mates cannot be refuted within any step, a whole step more after the jump would be a quarter of
/// the phase spent for nothing). Unanswered there, the phase ends.
pub fn tighten(
    s: &mut Searcher,
    bound: &mut u32,
    best: &mut Vec<Move>,
    step: Option<u64>,
    least_mate: u32,
) -> bool {
    // Every length below `least` is refuted (mates from the root have odd lengths): `least_mate`,
    // which the caller knows of the game being searched.
    debug_assert!(least_mate <= *bound, "refuted up to a proof's length");
    let mut least = least_mate.min(*bound);
    let mut jump = 2;
    // Jumps are made until one goes unanswered (`SearchConfig::pv_jumps`).
    let mut guessing = s.config().pv_jumps;
    let phase_end = s.budget.end;
    // Where the current step began: at the last answer (yes or no). A jump that goes unanswered
    // spends from the step of the question asked after it.
    let mut step_begun = s.total_nodes();
    while *bound > least && !s.budget.aborted {
        let ask = bound.saturating_sub(jump).max(least);
        if let Some(step) = step {
            let step_end = if ask + 2 < *bound {
                // A jump is a guess: a quarter of a step, so that a wrong one costs little.
                s.total_nodes().saturating_add(step / 4)
            } else {
                step_begun.saturating_add(step)
            };
            s.budget.end = Some(phase_end.map_or(step_end, |end| end.min(step_end)));
        }
        let r = mate_within(s, ask, "pv");
        s.budget.end = phase_end;
        if r.pn == 0 {
            debug_assert!(u32::from(r.len) <= ask);
            *bound = u32::from(r.len);
            if guessing {
                jump *= 2;
            }
            if let Some(line) = read_bound(s, *bound, phase_end) {
                *best = line;
            }
            if !s.game.skips_futile() {
                let shown: &[Move] = if best.len() as u32 == *bound {
                    best
                } else {
                    &[]
                };
                s.report_mate(*bound, shown);
            }
            step_begun = s.total_nodes();
        } else if r.dn == 0 {
            least = ask + 2;
            // Half of what lies between, an even number of plies (at least 2).
            if guessing {
                jump = ((*bound - least) / 4 * 2).max(2);
            }
            step_begun = s.total_nodes();
        } else if ask + 2 < *bound && !s.user_limit_reached() {
            s.budget.aborted = false;
            guessing = false;
            jump = 2;
        } else {
            break;
        }
    }
    *bound <= least
}
