//! Mate in three against generate-and-test.

use super::*;
use crate::problems::problem_rows;

// ---- mate in three ------------------------------------------------------------------------------------

/// Generate-and-test over every line of three plies: whether the side to move mates within three,
/// treating positions for which `on_path` holds as failures of the attacker (as the search does).
fn mate3_reference(pos: &mut Position, on_path: &dyn Fn(u64) -> bool) -> Option<u16> {
    let mut checks = MoveList::new();
    generate_checks(pos, &mut checks);
    let mut best = None;
    for &c in checks.iter() {
        pos.do_move(c);
        let mut evasions = MoveList::new();
        generate_evasions(pos, &mut evasions);
        let len = if on_path(pos.key()) {
            None
        } else if evasions.is_empty() {
            Some(1)
        } else {
            evasions
                .iter()
                .all(|&e| {
                    pos.do_move(e);
                    let mate = !on_path(pos.key())
                        && mate_in_one_reference(pos, &mut MoveList::new()).0.is_some();
                    pos.undo_move(e);
                    mate
                })
                .then_some(3)
        };
        pos.undo_move(c);
        best = match (best, len) {
            (Some(b), Some(l)) => Some(l.min(b)),
            (b, l) => b.or(l),
        };
    }
    best
}

/// `frontier::mate_in_three` against the reference on `pos` (attacker to move, no mate in one), with
/// and without a path; a mate found is replayed.
fn check_mate3(pos: &Position, path_key: Option<u64>, counts: &mut [u64; 3]) {
    let attacker = pos.side_to_move();
    let on_path = |k: u64| Some(k) == path_key;
    let mut work = pos.clone();
    let expected = mate3_reference(&mut work, &on_path);
    let mut bufs = [MoveList::new(), MoveList::new()];
    let mut nodes = 0;
    let found = mate_in_three(&mut work, attacker, on_path, &mut bufs, &mut nodes);
    match found {
        Three::Mate(m) => {
            assert_eq!(expected, Some(3), "{pos:?}: found {m:?}");
            assert!(pos.hand(attacker).covers(m.proof), "{pos:?}: {m:?}");
            let mut after = pos.clone();
            after.do_move(m.mv);
            let mut evasions = MoveList::new();
            generate_evasions(&after, &mut evasions);
            for &e in evasions.iter() {
                after.do_move(e);
                let (mate, proof) = mate_in_one(&mut after).expect("every evasion is mated");
                assert_really_mates(&after, mate);
                assert!(m.proof.covers(proof) || after.hand(attacker).covers(proof));
                after.undo_move(e);
            }
            counts[0] += 1;
        }
        Three::NoMate { cut } => {
            assert_eq!(expected, None, "{pos:?}");
            counts[1 + usize::from(cut)] += 1;
        }
    }
}

/// Mate in three (the PV search's exact frontier) on every attacker-to-move position of the problem
/// files and their PVs without a mate in one: the same answer as generate-and-test, with no path and
/// with the position after one check on the path.
#[test]
fn mate_in_three_agrees_with_generate_and_test() {
    let mut counts = [0u64; 3];
    let mut positions = 0;
    for (sfen, pv) in problem_rows() {
        let Ok(root) = Position::from_sfen(&sfen) else {
            continue;
        };
        let mut pos = problem_position(&root);
        let mut stops = vec![pos.clone()];
        for (i, text) in pv.iter().enumerate() {
            let Some(m) = pos.parse_usi_move(text) else {
                break;
            };
            pos.do_move(m);
            if i % 2 == 1 {
                stops.push(pos.clone());
            }
        }
        for p in stops {
            if mating_move_counted(&p, &mut Mate1Stats::default()).is_some() {
                continue;
            }
            positions += 1;
            check_mate3(&p, None, &mut counts);
            // A path through the position after one of its checks.
            let mut checks = MoveList::new();
            generate_checks(&p, &mut checks);
            if let Some(&c) = checks.first() {
                let mut after = p.clone();
                after.do_move(c);
                check_mate3(&p, Some(after.key()), &mut counts);
            }
        }
    }
    eprintln!(
        "mate in three: {positions} positions; {} mates, {} no mate, {} no mate on the path",
        counts[0], counts[1], counts[2]
    );
    assert!(
        positions > 2000 && counts[0] > 500 && counts[1] > 500 && counts[2] > 0,
        "{counts:?}"
    );
}
