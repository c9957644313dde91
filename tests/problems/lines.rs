//! The line phase after the proof on real problems: its budgets, the bounds it reads, canonical
//! lengths and the composers' ranking.

use super::*;

/// The cheaper line levels start the canonical search from the first proof's line, whose defender
/// need not take the longest replies (on zuko085 it is 9 plies where the minimax is 15): the
/// canonical length they report must still be the proven one, never that line's length.
#[test]
fn canonical_length_never_below_the_minimax_at_any_line_level() {
    let pos = zukou_position("zuko085");
    let mut solver = Solver::new(64);
    solver.set_futile(Futile::Skip);
    // Solves afresh at `level`: the verified mating line and the result.
    let mate = |solver: &mut Solver, level: PvLevel| {
        solver.clear();
        let r = solve_at(solver, &pos, level, None);
        let MateOutcome::Mate(line) = r.outcome.clone() else {
            panic!("{level:?}: {:?}", r.outcome);
        };
        assert!(verify_mate_line(&pos, &line), "{level:?}: {line:?}");
        (line, r)
    };
    for level in [PvLevel::UpperBound, PvLevel::None, PvLevel::MinLength] {
        let (line, r) = mate(&mut solver, level);
        // Strict and canonical minimax are both 15 here (every interposition on the line counts).
        match r.findings.canonical_length {
            Some(n) => assert_eq!(n, 15, "{level:?}: {line:?} ({:?})", r.findings.note),
            None => assert!(level != PvLevel::MinLength, "{:?}", r.findings.note),
        }
        if level == PvLevel::MinLength {
            assert_eq!(line.len(), 15, "{line:?}");
        }
    }
    // Calling 15 exact means refuting every canonical mate within 13: about 460 000 nodes, more
    // than a step of the default budget (200 000 here); given only the time limit it is proven.
    let mut config = solver.config().clone();
    config.apply("phasebudget=0").unwrap();
    solver.set_config(config);
    let (line, r) = mate(&mut solver, PvLevel::MinLength);
    assert!(
        r.findings.exact && line.len() == 15,
        "{line:?} ({:?})",
        r.findings.note
    );
    assert_eq!(
        r.findings.canonical_length,
        Some(15),
        "{:?}",
        r.findings.note
    );
}

/// A line phase that spends its node budget still reads the line of the bound it proved: zuko009's
/// strict and canonical phases both prove "mate within 31" and run out of budget asking for 29; the
/// line printed is the 31-ply one (before the reading had a budget of its own, the 35-ply first line
/// was printed under a proven bound of 31).
#[test]
fn the_line_of_the_proven_bound_is_read_after_the_budget_runs_out() {
    let pos = zukou_position("zuko009");
    let limits = SearchLimits {
        time: Some(LIMIT),
        ..SearchLimits::default()
    };
    for futile in [Futile::Count, Futile::Skip] {
        let mut solver = Solver::new(64);
        solver.set_futile(futile);
        let r = solver
            .solve(&pos, &limits, &AtomicBool::new(false), &mut |_| {})
            .unwrap();
        let MateOutcome::Mate(line) = &r.outcome else {
            panic!("{futile:?}: {:?}", r.outcome);
        };
        assert!(verify_mate_line(&pos, line), "{futile:?}: {line:?}");
        assert_eq!(
            line.len(),
            31,
            "{futile:?}: {line:?} ({:?})",
            r.findings.note
        );
        if futile == Futile::Skip {
            assert_eq!(
                r.findings.canonical_length,
                Some(31),
                "{:?}",
                r.findings.note
            );
        }
    }
}

/// A jump of the line phase that goes unanswered spends from the step of the question asked after it
/// (`pv::tighten`): one step per bound decided. Zukou #82h (variant h), without the shortest-first
/// search so that both solves share one proof: "mate within 21?" yes at once, the jump to 17 runs out
/// of its quarter step (50 000 nodes), and "mate within 19?" gets the rest of the step, not a whole
/// one more: the phase spends about one step (201 000 nodes), where it spent a step and a quarter
/// (251 000).
#[test]
fn an_unanswered_jump_spends_from_the_next_question_s_step() {
    let pos = zukou_position("zuko082h");
    let mut solver = Solver::new(64);
    let mut config = solver.config().clone();
    config.apply("deepen=0").unwrap();
    solver.set_config(config);
    let proof = solve_at(&mut solver, &pos, PvLevel::None, None);
    solver.clear();
    let line = solve_at(&mut solver, &pos, PvLevel::MinLength, None);
    let MateOutcome::Mate(moves) = &line.outcome else {
        panic!("{:?}", line.outcome);
    };
    assert!(verify_mate_line(&pos, moves), "{moves:?}");
    assert_eq!(moves.len(), 21, "{moves:?}");
    assert!(
        !line.findings.exact,
        "\"mate within 19?\" answered: pick another problem ({:?})",
        line.findings.note
    );
    // One step, beside the first yes and the reading (a few nodes).
    let phase = line.nodes - proof.nodes;
    assert!(
        phase <= PHASE_STEP_MIN_NODES + 10_000,
        "the phase spent {phase} nodes"
    );
}

/// Each bound the line phase proves is read at once, searching where the table alone gives no line
/// (`pv.rs`, `read_bound`): Zukou #16's first proof (17 562 nodes) reads as 27 plies; "mate within
/// 25?" is proven at once, but its line ends in a mate in three the frontier proved without storing
/// it. The next question is stopped by the user's 30 000-node limit, which leaves no budget for
/// reading at the end: the answer used to be the first line of 27 plies beside a proven 25. Now it
/// is the 25-ply line, and the bound claimed is its length. (A node count: the same on every
/// machine.)
#[test]
fn each_proven_bound_is_read_while_its_entries_are_fresh() {
    let pos = zukou_position("zuko016");
    let mut solver = Solver::new(16);
    let r = solve_at(&mut solver, &pos, PvLevel::MinLength, Some(30_000));
    let MateOutcome::Mate(line) = &r.outcome else {
        panic!("{:?} ({:?})", r.outcome, r.findings.note);
    };
    assert!(verify_mate_line(&pos, line), "{line:?}");
    assert!(
        !r.findings.exact,
        "stopped by the node limit: {:?}",
        r.findings.note
    );
    assert_eq!(line.len(), 25, "{line:?} ({:?})", r.findings.note);
    assert_eq!(r.findings.mate_bound, Some(25), "{:?}", r.findings.note);
}

/// A second `go mate` on the same position and table (a GUI user asking again for a better line)
/// gives each question of the line phase the budget the work on that position earns (a fifth of it,
/// `SearchConfig::phase_budget_pct`), not the floor a nearly free proof would: Zukou #47's first
/// solve (2.5 M nodes) ends "not proven shortest"; the second, whose proof the table holds, asked its
/// next question with the floor of 200 000 nodes (211 k in all) and could get no further than the
/// first. Now that question gets a fifth of all the work (517 k in all).
#[test]
fn a_repeated_solve_gets_the_line_budget_of_the_work_behind_it() {
    let pos = zukou_position("zuko047");
    let mut solver = Solver::new(64);
    let first = solve_at(&mut solver, &pos, PvLevel::MinLength, None);
    assert!(matches!(first.outcome, MateOutcome::Mate(_)), "{first:?}");
    assert!(
        !first.findings.exact,
        "the first line is proven shortest: pick another problem"
    );
    let second = solve_at(&mut solver, &pos, PvLevel::MinLength, None);
    assert!(matches!(second.outcome, MateOutcome::Mate(_)), "{second:?}");
    assert!(
        second.nodes > first.nodes / 5,
        "first {} nodes, second {} nodes",
        first.nodes,
        second.nodes
    );
    // Forgotten with the table.
    solver.clear();
    let fresh = solve_at(&mut solver, &pos, PvLevel::MinLength, None);
    assert_eq!(fresh.nodes, first.nodes);
}

/// The first line backs out of a dead end: in this position (Zukou #44 after its 8th ply and the
/// reply 2f2g) the table's shortest recorded mates lead the first line back to a position it has
/// passed (the gold returning to 2g), and re-proving there with the line's positions barred finds
/// nothing. The line used to be given up ("proven, but the line could not be rebuilt": `timeout` at
/// every line level); now the check that led there is tried no more and another is read.
#[test]
fn the_first_line_backs_out_of_a_position_it_has_passed() {
    let pos = Position::from_sfen("9/9/9/5nSp1/8p/9/5N1k1/6N1l/4+p1rN1 b RBGb3g3s3l15p 9").unwrap();
    let mut solver = Solver::new(16);
    for level in [PvLevel::None, PvLevel::UpperBound, PvLevel::MinLength] {
        solver.clear();
        let r = solve_at(&mut solver, &pos, level, None);
        let MateOutcome::Mate(line) = &r.outcome else {
            panic!("{level:?}: {:?} ({:?})", r.outcome, r.findings.note);
        };
        assert!(verify_mate_line(&pos, line), "{level:?}: {line:?}");
        if level == PvLevel::MinLength {
            assert_eq!(line.len(), 17, "{line:?}");
        }
    }
}

/// The composers' ranking of the printed canonical line (`pv/ranking.rs`, on by default with
/// `FutileInterposition skip`): a defence after which the attacker forces a mate with pieces to
/// spare is not the main line. Zukou #18: at ply 14 the canonical game's longest defence is the
/// pawn drop P*3d, answered by a mate that leaves the pawn over; the recorded line takes the king
/// move 2c1c instead (23 plies, where the canonical minimax is 25). An antma test position (edge-60,
/// a mate in 7): after 4a3a the longest reply 3b2b lets the attacker capture and mate with the
/// captured pieces left over; 3b4b is mated at once with an empty hand (3 plies). Without the pass
/// (`ranktest=0`) both keep their canonical lengths, proven exact; with it the line is said not to
/// be proven shortest.
#[test]
fn the_composers_ranking_avoids_defences_answered_by_spare_mates() {
    let zukou_18 = zukou_position("zuko018");
    let edge_60 = Position::from_sfen("+R4G1nl/6k2/4ppppp/9/9/9/9/9/9 b r2b3g4s3n3l13p 1").unwrap();
    for (pos, canonical, ranked) in [(&zukou_18, 25, 23), (&edge_60, 7, 3)] {
        for (tests, len) in [(0, canonical), (5_000, ranked)] {
            let mut solver = Solver::new(16);
            solver.set_config(kanju::search::SearchConfig {
                ranking_test_nodes: tests,
                ..Default::default()
            });
            solver.set_futile(Futile::Skip);
            let r = solve_at(&mut solver, pos, PvLevel::MinLength, None);
            let MateOutcome::Mate(line) = &r.outcome else {
                panic!("ranktest={tests}: {:?}", r.outcome);
            };
            assert_eq!(
                r.findings.canonical_length,
                Some(len),
                "ranktest={tests}: {line:?}"
            );
            assert_eq!(line.len(), len as usize, "ranktest={tests}: {line:?}");
            assert_eq!(
                r.findings.exact,
                tests == 0,
                "ranktest={tests}: {:?}",
                r.findings.note
            );
        }
    }
}

/// The ranking's test of a drop (`pv/ranking.rs`, `spare_after`): the checker captures the dropped
/// piece and the attacker mates without it, a spare mate found by an ordinary mate search. Zukou #79:
/// after R*5c the canonical game's longest defence is the pawn drop P*5d (21 plies in all), which
/// the rook captures, and the mate goes on without the pawn; the spare game's own search does not
/// decide that within its cap, so without the capture test the line kept P*5d. The recorded line
/// answers R*5c with the king move 5f4g: 13 plies.
#[test]
fn a_drop_captured_and_mated_without_is_not_the_main_line() {
    let pos = zukou_position("zuko079");
    let mut solver = Solver::new(64);
    solver.set_futile(Futile::Skip);
    let r = solve_at(&mut solver, &pos, PvLevel::MinLength, None);
    let MateOutcome::Mate(line) = &r.outcome else {
        panic!("{:?}", r.outcome);
    };
    assert!(verify_mate_line(&pos, line), "{line:?}");
    assert_eq!(r.findings.canonical_length, Some(13), "{line:?}");
    assert_eq!(line[5].to_usi(), "5f4g", "{line:?}");
}

/// Zukou `id` solved with `--futile skip` and `config` on a fresh 64 MiB table: the canonical length
/// reported, its line verified as a mate.
fn zukou_canonical(
    id: &str,
    config: kanju::search::SearchConfig,
) -> (Option<u32>, Vec<kanju::position::Move>) {
    let pos = zukou_position(id);
    let mut solver = Solver::new(64);
    solver.set_config(config);
    solver.set_futile(Futile::Skip);
    let r = solve_at(&mut solver, &pos, PvLevel::MinLength, None);
    let MateOutcome::Mate(line) = r.outcome else {
        panic!("{id}: {:?}", r.outcome);
    };
    assert!(verify_mate_line(&pos, &line), "{id}: {line:?}");
    (r.findings.canonical_length, line)
}

/// Spare tests read the ordinary game's proofs at every node they search, not only at their root
/// (`spare::surplus_proof`): a position the main search proved with a smaller hand than the test
/// holds there is a spare mate. Zukou #69: the test of the king's reply 7i6h (the line's sixth move)
/// says yes in 192 nodes with the proofs read, and has no answer within its cap of 8 192 without
/// them (debug log of `pv::ranking`); the line is then the recorded 13 plies, else 19.
#[test]
fn spare_tests_read_the_ordinary_game_s_proofs_at_every_node() {
    for (strict_proofs, len) in [(true, 13), (false, 19)] {
        let config = kanju::search::SearchConfig {
            strict_proofs,
            ..Default::default()
        };
        let (canonical, line) = zukou_canonical("zuko069", config);
        assert_eq!(
            canonical,
            Some(len),
            "strictproofs={strict_proofs}: {line:?}"
        );
    }
}

/// The composers' ranking reads an alternative reply's line with each tightening question within
/// half of what the pass has left: Zukou #89's line changes at ply 19 to the king's 7c6b (every drop
/// on 7e is captured and mated without the piece), whose line within 21 plies took some 200 000
/// nodes to tighten; with each question free to run on, a refutation that did not finish spent the
/// pass's whole budget there and the line stayed 43 plies. Now the recorded 29.
#[test]
fn the_ranking_s_tightening_leaves_budget_for_the_rest_of_the_line() {
    let (canonical, line) = zukou_canonical("zuko089", Default::default());
    assert_eq!(canonical, Some(29), "{line:?}");
}

/// The canonical game reads the strict game's proofs (`Dfpn::with_strict_proof`): a position the
/// strict game proves within a node's budget is a canonical mate within it. Zukou #71: 41 plies
/// with them, 57 without (`strictproofs=off` also keeps the spare tests from the strict proofs: the
/// ranking's searches of other replies' lines, proven from the strict table at once, leave it the
/// budget to rank the line further). Where the ranking's budget runs out depends on the proofs the
/// bounded searches happen to find first: before the canonical game's 3-ply frontier it was the
/// recorded 39 with them.
#[test]
fn the_canonical_game_reads_the_strict_game_s_proofs() {
    for (strict_proofs, len) in [(true, 41), (false, 57)] {
        let config = kanju::search::SearchConfig {
            strict_proofs,
            ..Default::default()
        };
        let (canonical, line) = zukou_canonical("zuko071", config);
        assert_eq!(
            canonical,
            Some(len),
            "strict_proofs={strict_proofs}: {line:?}"
        );
    }
}

/// The composers' check ranks its settled line again (`canonical/line.rs`, `rerank`) with each node
/// bounded by the root's proven length, not by the ranked line's own lengths
/// (`canonical/ranking.rs`, *A ranked line ranked again*). Zukou #56: at ply 4 the budgeted pass
/// finds three 21-ply replies answered by mates with a gold to spare and cannot read the line of the
/// fourth, the recorded 4i4h, within its cap, so it takes 4f4h (17 plies; 21 in all). Ranked again
/// from the proven bound, 4i4h is read and no spare test answers yes: the recorded 25 plies.
#[test]
fn the_settled_line_ranked_again_takes_back_a_longer_reply() {
    let line = settled_composer_line("zuko056");
    assert_eq!(line.len(), 25, "{line:?}");
    assert_eq!(line[3].to_usi(), "4i4h", "{line:?}");
}

/// Zukou `id` solved as the composers' check solves it (`--futile skip`, the line settled and ranked
/// again) on a fresh 64 MiB table: its line, verified as a mate.
fn settled_composer_line(id: &str) -> Vec<kanju::position::Move> {
    let pos = zukou_position(id);
    let mut solver = Solver::new(64);
    solver.set_futile(Futile::Skip);
    solver.set_settle(true);
    let r = solve_at(&mut solver, &pos, PvLevel::MinLength, None);
    let MateOutcome::Mate(line) = r.outcome else {
        panic!("{id}: {:?}", r.outcome);
    };
    assert!(verify_mate_line(&pos, &line), "{id}: {line:?}");
    line
}

/// The attacker takes the shortest ranked continuation (`canonical/ranking.rs`,
/// `shortest_ranked_check`). Zukou #47: at ply 18 the king's 7g7h lasts longer than the recorded
/// 7g8g in the canonical game, through 5h6g; but after 7g7h the bishop drop B*2c mates as soon in
/// that game, and ranked it is the shorter: 7g7h no longer outlasts 7g8g and the line is the
/// record's 27 plies (29 when the attacker's checks stayed the canonical line's).
#[test]
fn the_attacker_takes_the_shortest_ranked_check() {
    let line = settled_composer_line("zuko047");
    assert_eq!(line.len(), 27, "{line:?}");
    assert_eq!(line[17].to_usi(), "7g8g", "{line:?}");
}

/// Spare tests widened (`canonical/line.rs`, `rerank`; `kanju check --thorough`): where a test of
/// the settled line's ranking runs out of its cap, the line is ranked again with caps eight times
/// larger while the budget of a phase step lasts. Zukou #20 with caps of 300 nodes: the first pass
/// leaves the 41-ply canonical line (its spare tests run out where the record's defence parts from
/// it); the widened rounds read the record's 37 plies, as the default caps do in one pass. Without
/// the rounds: 41.
#[test]
fn undecided_spare_tests_are_widened_until_they_answer() {
    let pos = zukou_position("zuko020");
    for (thorough, len) in [(true, 37), (false, 41)] {
        let mut solver = Solver::new(64);
        solver.set_config(kanju::search::SearchConfig {
            ranking_test_nodes: 300,
            ..Default::default()
        });
        solver.set_futile(Futile::Skip);
        solver.set_settle(true);
        solver.set_thorough(thorough);
        let r = solve_at(&mut solver, &pos, PvLevel::MinLength, None);
        let MateOutcome::Mate(line) = r.outcome else {
            panic!("{:?}", r.outcome);
        };
        assert!(verify_mate_line(&pos, &line), "{line:?}");
        assert_eq!(line.len(), len, "thorough {thorough}: {line:?}");
    }
}
