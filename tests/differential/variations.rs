//! The defender's other replies along the line (`Solver::set_check_variations`, the variations of
//! `kanju check`) against the brute force: on random tsume positions with a mate of 3 to 7 plies
//! whose line the solver proved exact, every other legal reply along the line is played and the
//! brute force gives its exact minimax value; the solver must report every such reply, with that
//! length, none as lasting longer than the line (the line is the longest defence), and after each
//! exactly the other first checks that mate within that length (変化別詰).
//!
//! `cargo test --release --test differential variations` (about 60 positions, a few seconds).

use crate::brute::{BRUTE_BUDGET, BruteForce, Truth};
use crate::common::Rng;
use crate::generate::{Convention, random_problem};
use crate::{limits, on_big_stack, position, solve, usi};
use kanju::position::movegen::{MoveList, generate_legal};
use kanju::search::{MateOutcome, Solver, problem_position};
use std::collections::BTreeSet;

fn run(seed: u64, wanted: u32) {
    let mut rng = Rng::new(seed);
    let mut solver = Solver::new(16);
    solver.set_check_variations(true);
    let (mut compared, mut replies_judged, mut with_others) = (0, 0, 0);
    let mut drawn = 0;
    while compared < wanted && drawn < wanted * 300 {
        drawn += 1;
        let text = random_problem(&mut rng, Convention::Tsume);
        let root = position(&text);
        let Truth::Mate(n) = BruteForce::solve(&root, 7, BRUTE_BUDGET) else {
            continue;
        };
        if n < 3 {
            continue;
        }
        solver.clear();
        let r = solve(&mut solver, &root, &limits(200_000));
        let MateOutcome::Mate(line) = &r.outcome else {
            continue;
        };
        let vars = r.findings.variations.as_ref().expect("asked for");
        if !r.findings.exact || !vars.complete || !vars.undecided.is_empty() {
            continue;
        }
        let mut pos = problem_position(&root);
        for (i, &line_move) in line.iter().enumerate() {
            if i % 2 == 1 {
                let left = n - i as u32;
                let mut replies = MoveList::new();
                generate_legal(&pos, &mut replies);
                let others: Vec<_> = replies
                    .iter()
                    .copied()
                    .filter(|&m| m != line_move)
                    .collect();
                let reported: Vec<_> = vars
                    .found
                    .iter()
                    .filter(|v| v.ply == i as u32 + 1)
                    .collect();
                assert_eq!(
                    reported.len(),
                    others.len(),
                    "{text}: at ply {}: {reported:?} for {} replies",
                    i + 1,
                    others.len()
                );
                for r in others {
                    let mut after = pos.clone();
                    after.do_move(r);
                    let Truth::Mate(m) = BruteForce::solve(&after, left - 1, BRUTE_BUDGET) else {
                        panic!(
                            "{text}: {} after {} lasts longer than the line",
                            usi(line),
                            r.to_usi()
                        );
                    };
                    replies_judged += 1;
                    let v = reported
                        .iter()
                        .find(|v| v.reply == r)
                        .unwrap_or_else(|| panic!("{text}: {} not reported", r.to_usi()));
                    assert!(v.exact && !v.longer, "{text}: {v:?}");
                    assert_eq!(v.mate, m, "{text}: {v:?}");
                    assert_eq!(v.line.len() as u32, m, "{text}: {v:?}");
                    // 変化別詰: the other first checks that mate within m.
                    let mut expected = BTreeSet::new();
                    let mut checks = MoveList::new();
                    generate_legal(&after, &mut checks);
                    for &c in checks.iter().filter(|&&c| c != v.line[0]) {
                        let mut next = after.clone();
                        next.do_move(c);
                        if !next.in_check() {
                            continue;
                        }
                        let mut evasions = MoveList::new();
                        generate_legal(&next, &mut evasions);
                        if c.is_drop()
                            && c.drop_kind() == kanju::position::PieceKind::Pawn
                            && evasions.is_empty()
                        {
                            continue; // a pawn drop that mates is no move
                        }
                        if BruteForce::mated_within(&next, m - 1, BRUTE_BUDGET) == Some(true) {
                            expected.insert(c.to_usi());
                        }
                    }
                    let found: BTreeSet<String> = v.others.iter().map(|o| o.mv.to_usi()).collect();
                    assert_eq!(
                        found,
                        expected,
                        "{text}: after {} at ply {}",
                        r.to_usi(),
                        i + 1
                    );
                    with_others += u32::from(!expected.is_empty());
                }
            }
            pos.do_move(line_move);
        }
        compared += 1;
    }
    eprintln!(
        "variations: {compared} exact lines compared, {replies_judged} replies judged \
         ({with_others} with another mate), {drawn} positions drawn"
    );
    assert!(
        compared >= wanted * 9 / 10,
        "only {compared} lines compared"
    );
    assert!(
        replies_judged >= compared,
        "too few replies to test anything"
    );
    assert!(with_others > 0, "no 変化別詰 to test");
}

#[test]
fn variations_agree_with_brute_force() {
    on_big_stack(|| run(0x7a41_a710, 60));
}
