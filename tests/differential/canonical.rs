//! The canonical game (`FutileInterposition skip`, `solve --futile skip`) against the brute force
//! playing the same rule (`BruteForce::solve_canonical`, whose futile-drop test is written from the
//! rule's statement, not from the solver's code): on random tsume positions, where the defender holds
//! every piece off the board and so has drops to interpose, the canonical length the solver reports
//! as exact must be the brute force's, its line must be legal and checking, and end in mate or where
//! only futile drops are left.
//!
//! Sizes and times (`cargo test --release --test differential canonical`): 1 000 positions drawn, the
//! mates among them compared; a few seconds.

use crate::brute::{BruteForce, Truth};
use crate::common::Rng;
use crate::generate::{Convention, random_problem};
use crate::{limits, long_seed, on_big_stack, position, solve, solver_with, usi};
use kanju::position::{Move, Position};
use kanju::search::Futile;
use kanju::search::{
    MateOutcome, PvLevel, SearchLimits, SolveResult, Solver, verify_line_in_check,
};

/// The brute force's depth and node budget per position.
const DEPTH: u32 = 7;
const BUDGET: u64 = 2_000_000;

/// A random tsume problem that `oracle` calls a mate, solved from scratch: its SFEN, position, the
/// oracle's length, the solver's result and its mate line, checked legal and in check at its end (a
/// mate, or no defence that counts). `None` when the oracle finds no mate, when the solver ran out of
/// nodes (counted in `timeouts`: no answer is no wrong answer, but the sweeps bound their share), or
/// when the solve went wrong: the message (naming `game`) is then in `failures`.
fn draw_mate(
    rng: &mut Rng,
    oracle: impl Fn(&Position) -> Truth,
    solver: &mut Solver,
    limits: &SearchLimits,
    game: &str,
    failures: &mut Vec<String>,
    timeouts: &mut u32,
) -> Option<(String, Position, u32, SolveResult, Vec<Move>)> {
    let text = random_problem(rng, Convention::Tsume);
    let root = position(&text);
    let Truth::Mate(n) = oracle(&root) else {
        return None;
    };
    solver.clear();
    let r = solve(solver, &root, limits);
    if r.outcome == MateOutcome::Timeout {
        // Seed 3202 drew `9/9/7+r1/8l/6K2/9/5g3/7+N1/9 w rbl 1` (canonical 7, strict 9): proven,
        // exact, in about 300 000 nodes, past the 100 000 of the long sweep.
        *timeouts += 1;
        return None;
    }
    let MateOutcome::Mate(line) = r.outcome.clone() else {
        failures.push(format!(
            "{text}: {game} mate in {n}, solver {:?}",
            r.outcome
        ));
        return None;
    };
    if !verify_line_in_check(&root, &line) {
        failures.push(format!("{text}: line fails: {}", usi(&line)));
        return None;
    }
    Some((text, root, n, r, line))
}

fn canonical_sweep(seed: u64, count: u32, nodes: u64) {
    let mut rng = Rng::new(seed);
    // The futile-drop rule alone: the ranking off (`ranking.rs` tests it).
    let config = "ranktest=0";
    let mut solver = solver_with(4, config);
    solver.set_futile(Futile::Skip);
    // The cheaper line levels start the canonical search from a strict line that need not be the
    // minimax one: their canonical length, when given, is still a proven bound, never below the truth.
    let mut cheap = solver_with(4, config);
    cheap.set_futile(Futile::Skip);
    let limits = limits(nodes);
    let (mut compared, mut shorter_than_strict, mut unfinished, mut timeouts) = (0, 0, 0, 0);
    let mut failures = vec![];
    for _ in 0..count {
        let oracle = |root: &Position| BruteForce::solve_canonical(root, DEPTH, BUDGET);
        let Some((text, root, n, r, line)) = draw_mate(
            &mut rng,
            oracle,
            &mut solver,
            &limits,
            "canonical",
            &mut failures,
            &mut timeouts,
        ) else {
            continue;
        };
        let line = &line;
        compared += 1;
        for level in [PvLevel::UpperBound, PvLevel::None] {
            cheap.set_pv_level(level);
            cheap.clear();
            let c = solve(&mut cheap, &root, &limits);
            if let Some(len) = c.findings.canonical_length
                && len < n
            {
                failures.push(format!(
                    "{text}: {level:?} claims canonical {len}, brute force {n}"
                ));
            }
        }
        match r.findings.canonical_length {
            Some(len) if r.findings.exact && len != n => failures.push(format!(
                "{text}: canonical {len} claimed exact, brute force {n}: {}",
                usi(line)
            )),
            Some(len) if len < n => failures.push(format!(
                "{text}: canonical {len} below the brute force's {n}: {}",
                usi(line)
            )),
            Some(_) if !r.findings.exact => unfinished += 1,
            Some(_) => {}
            None => unfinished += 1,
        }
        // The rule matters where the strict game has no mate within `n`.
        if !matches!(BruteForce::solve(&root, n, BUDGET), Truth::Mate(_)) {
            shorter_than_strict += 1;
        }
    }
    eprintln!(
        "canonical seed {seed}: {compared} mates compared, {shorter_than_strict} shorter than their \
         strict length, {unfinished} not finished, {timeouts} out of nodes"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        timeouts * 100 <= compared + timeouts,
        "{timeouts} of {} mates out of nodes",
        compared + timeouts
    );
    // Worth comparing: mates, and some where the rule matters.
    assert!(compared >= 50, "only {compared} mates");
    assert!(
        shorter_than_strict >= 5,
        "only {shorter_than_strict} where the rule matters"
    );
    assert!(
        (unfinished + timeouts) * 20 <= compared,
        "{unfinished} of {compared} unfinished, {timeouts} more out of nodes"
    );
}

#[test]
fn canonical_lengths_agree_with_brute_force() {
    on_big_stack(|| canonical_sweep(21, 1_000, 50_000));
}

#[test]
#[ignore = "long: 5000 positions"]
fn canonical_lengths_agree_with_brute_force_5000() {
    on_big_stack(|| canonical_sweep(long_seed(22), 5_000, 100_000));
}

/// The canonical game's 3-ply frontier (`futile::no_mate_within_three`, which answers a bounded
/// canonical search's "mate within 3?" no without expanding the node) against the brute force
/// playing the canonical game to 3 plies, on random tsume problems and on positions two and four
/// plies into them (a random check and evasion, twice), where futile drops are likelier. Its "no
/// mate" must never meet a brute-force mate (that would be an unsound disproof); a "don't know"
/// where the brute force refutes is allowed only when the answer is a mate (no path here to cut a
/// line), so both directions are compared exactly. Some positions must be ones where the rule
/// matters: a canonical mate within 3 with no strict one.
#[test]
fn canonical_frontier_agrees_with_brute_force() {
    use kanju::position::movegen::{MoveList, generate_checks, generate_evasions};
    use kanju::search::game::futile::no_mate_within_three;
    use kanju::search::problem_position;
    let mut rng = Rng::new(23);
    let mut bufs = [MoveList::new(), MoveList::new()];
    let (mut compared, mut mates, mut rule_matters) = (0, 0, 0);
    let mut failures = vec![];
    for _ in 0..12_000 {
        let text = random_problem(&mut rng, Convention::Tsume);
        let mut pos = problem_position(&position(&text));
        // A random check and evasion, up to twice (an OR node again each time).
        let walk = rng.below(3);
        for _ in 0..walk {
            let mut moves = MoveList::new();
            generate_checks(&pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            pos.do_move(moves.as_slice()[rng.below(moves.len())]);
            moves.clear();
            generate_evasions(&pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            pos.do_move(moves.as_slice()[rng.below(moves.len())]);
        }
        if pos.in_check() {
            continue;
        }
        let truth = BruteForce::canonical_game(false, BUDGET).value(&pos, 3);
        let brute_mate = match truth {
            Truth::Mate(_) => true,
            Truth::NoMate | Truth::NoMateWithin(_) => false,
            Truth::GaveUp => continue,
        };
        let refuted = no_mate_within_three(&mut pos.clone(), |_| false, &mut bufs);
        compared += 1;
        if brute_mate {
            mates += 1;
            if !matches!(BruteForce::solve(&pos, 3, BUDGET), Truth::Mate(_)) {
                rule_matters += 1;
            }
        }
        if refuted == brute_mate {
            failures.push(format!(
                "{}: frontier says no mate within 3: {refuted}, brute force {truth:?}",
                pos.to_sfen()
            ));
        }
    }
    eprintln!(
        "canonical frontier: {compared} positions, {mates} canonical mates within 3, {rule_matters} without a strict one"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        compared >= 10_000 && mates >= 500,
        "{compared} compared, {mates} mates"
    );
    assert!(
        rule_matters >= 20,
        "only {rule_matters} where the rule matters"
    );
}
