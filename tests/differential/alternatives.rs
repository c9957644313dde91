//! Alternative mating moves (`Solver::set_check_alternatives`) against the brute force: on random
//! positions with a mate of 3 to 7 plies whose line the solver proved exact, every attacker move of
//! the line is compared with every other legal check there. The brute force decides for each whether
//! it mates within the plies left (the defender playing the line up to there); the solver must report
//! exactly those, each with a length the brute force confirms.
//!
//! `cargo test --release --test differential alternatives` (about 150 positions, a few seconds).

use crate::brute::{BRUTE_BUDGET, BruteForce, Truth};
use crate::common::Rng;
use crate::generate::{Convention, random_problem};
use crate::{limits, on_big_stack, position, solve};
use kanju::position::movegen::{MoveList, generate_legal};
use kanju::position::{Move, PieceKind};
use kanju::search::{MateOutcome, Solver, problem_position};
use std::collections::BTreeSet;

/// The attacker's legal checks (not `generate_checks`): legal moves after which the defender is in
/// check, without a pawn drop that mates.
fn checks(pos: &kanju::position::Position) -> Vec<Move> {
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    list.iter()
        .copied()
        .filter(|&m| {
            let mut after = pos.clone();
            after.do_move(m);
            if !after.in_check() {
                return false;
            }
            let mut replies = MoveList::new();
            generate_legal(&after, &mut replies);
            !(m.is_drop() && m.drop_kind() == PieceKind::Pawn && replies.is_empty())
        })
        .collect()
}

fn run(convention: Convention, seed: u64, wanted: u32) {
    let mut rng = Rng::new(seed);
    let mut solver = Solver::new(16);
    solver.set_check_alternatives(true);
    let (mut compared, mut with_alternatives, mut checks_judged) = (0, 0, 0);
    let mut drawn = 0;
    while compared < wanted && drawn < wanted * 200 {
        drawn += 1;
        let text = random_problem(&mut rng, convention);
        let root = position(&text);
        let Truth::Mate(n) = BruteForce::solve(&root, 7, BRUTE_BUDGET) else {
            continue;
        };
        if n < 3 && !rng.chance(1, 4) {
            continue;
        }
        solver.clear();
        let r = solve(&mut solver, &root, &limits(200_000));
        let MateOutcome::Mate(line) = &r.outcome else {
            continue;
        };
        let alts = r.findings.alternatives.as_ref().expect("asked for");
        if !r.findings.exact || !alts.complete {
            continue;
        }
        assert_eq!(line.len() as u32, n, "{text}");
        let reported: BTreeSet<(u32, String)> =
            alts.found.iter().map(|a| (a.ply, a.mv.to_usi())).collect();
        assert_eq!(
            reported.len(),
            alts.found.len(),
            "{text}: duplicates {alts:?}"
        );
        let mut expected = BTreeSet::new();
        let mut pos = problem_position(&root);
        for (i, &pv_move) in line.iter().enumerate() {
            if i % 2 == 0 {
                let left = n - i as u32;
                for m in checks(&pos).into_iter().filter(|&m| m != pv_move) {
                    let mut after = pos.clone();
                    after.do_move(m);
                    let mates = BruteForce::mated_within(&after, left - 1, BRUTE_BUDGET)
                        .unwrap_or_else(|| panic!("{text}: brute force out of budget"));
                    checks_judged += 1;
                    if mates {
                        expected.insert((i as u32 + 1, m.to_usi()));
                    }
                    if let Some(a) = alts
                        .found
                        .iter()
                        .find(|a| a.ply == i as u32 + 1 && a.mv == m)
                    {
                        assert!(a.mate >= 1 && a.mate <= left, "{text}: {a:?}");
                        assert_eq!(
                            BruteForce::mated_within(&after, a.mate - 1, BRUTE_BUDGET),
                            Some(true),
                            "{text}: {a:?} does not mate within its length"
                        );
                    }
                }
            }
            pos.do_move(pv_move);
        }
        assert_eq!(
            reported,
            expected,
            "{text}: line {:?}",
            line.iter().map(|m| m.to_usi()).collect::<Vec<_>>()
        );
        compared += 1;
        with_alternatives += u32::from(!expected.is_empty());
    }
    eprintln!(
        "alternatives ({convention:?}): {compared} exact lines compared ({with_alternatives} with \
         alternatives), {checks_judged} checks judged, {drawn} positions drawn"
    );
    assert!(
        compared >= wanted * 9 / 10,
        "only {compared} lines compared"
    );
    assert!(
        with_alternatives * 5 >= compared,
        "too few alternatives to test anything"
    );
}

#[test]
fn alternatives_agree_with_brute_force_tsume() {
    on_big_stack(|| run(Convention::Tsume, 0x00a1_7e55, 80));
}

#[test]
fn alternatives_agree_with_brute_force_game() {
    on_big_stack(|| run(Convention::Game, 0x00a1_7e56, 80));
}
