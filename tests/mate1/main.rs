//! `mate1::mate_in_one` (no move generation) against the generate-and-test oracle
//! (`mate_in_one_reference`): the same yes/no answer everywhere, and every returned move replayed (legal,
//! a check, no evasion, not a pawn drop, a proof hand the attacker holds).
//!
//! Positions: every problem file (in the problem position, the defender holding the rest), every
//! attacker-to-move position along the known PVs and every OR node two plies below those (each check,
//! each evasion); seeded random positions of five kinds (sparse boards around a king with and without
//! an attacker king, random playouts from the start position, random check/evasion walks from the
//! problem positions); hand-built cases for each exception, in both colours.
//!
//! `cargo test --release --test mate1` runs 1,000,000 random positions and about 250,000 problem-derived
//! ones (about 15 s on the loaded 2-core development machine); the ignored `random_positions_more` runs
//! 5,000,000 more from another seed: `cargo test --release --test mate1 -- --ignored`.
//!
//! * `problems`: every problem file, its PVs and the OR nodes two plies below them.
//! * `mate3`: mate in three against generate-and-test.
//! * `random`: seeded random positions of five kinds.
//! * `exceptions`: hand-built exception cases, in both colours.

#[path = "../common/mod.rs"]
mod common;

mod exceptions;
mod mate3;
mod problems;
mod random;

use common::Rng;
use kanju::position::movegen::generate_legal;
use kanju::position::movegen::{MoveList, count_evasions, generate_checks, generate_evasions};
use kanju::position::{Color, Move, PieceKind, Position};
use kanju::search::frontier::{Three, mate_in_three};
use kanju::search::mate1::{Mate1Stats, mate_in_one, mate_in_one_reference, mating_move_counted};
use kanju::search::problem_position;
use std::collections::HashSet;
use std::path::Path;

/// What a sweep saw.
#[derive(Default, Debug)]
struct Tally {
    positions: u64,
    mates: u64,
    stats: Mate1Stats,
}

impl Tally {
    fn share(&self) -> f64 {
        self.mates as f64 / self.positions.max(1) as f64
    }
}

/// Checks one position against the oracle and replays the answer.
fn check(pos: &Position, tally: &mut Tally) -> Option<Move> {
    let expected = mate_in_one_reference(&mut pos.clone(), &mut MoveList::new()).0;
    let found = mating_move_counted(pos, &mut tally.stats);
    assert_eq!(
        found.is_some(),
        expected.is_some(),
        "{pos:?}: found {found:?}, generate-and-test {expected:?}"
    );
    tally.positions += 1;
    let m = found?;
    tally.mates += 1;
    assert_really_mates(pos, m);
    let (m2, proof) = mate_in_one(&mut pos.clone()).expect("same answer");
    assert_eq!(m, m2, "{pos:?}");
    assert!(
        pos.hand(pos.side_to_move()).covers(proof),
        "{pos:?}: {m} proof {proof:?}"
    );
    Some(m)
}

/// `m` is a legal check of the side to move, not a pawn drop, and leaves no legal reply.
fn assert_really_mates(pos: &Position, m: Move) {
    let mut legal = MoveList::new();
    generate_legal(pos, &mut legal);
    assert!(legal.contains(&m), "{pos:?}: {m} is not legal");
    assert!(
        !(m.is_drop() && m.drop_kind() == PieceKind::Pawn),
        "{pos:?}: {m} is a pawn drop"
    );
    let mut after = pos.clone();
    after.do_move(m);
    assert!(after.in_check(), "{pos:?}: {m} does not check");
    assert_eq!(count_evasions(&after), 0, "{pos:?}: {m} can be answered");
}
