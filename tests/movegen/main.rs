//! The position module against exact perft counts, an independent move generator (`shunsai`), its own
//! invariants (check generation, evasions, Zobrist keys, do/undo, SFEN) on every problem position and
//! on random playouts, hand superiority, and hostile SFEN input.
//!
//! Heavy tests scale down in debug builds (`cfg!(debug_assertions)`); `cargo test --release` runs them
//! at full size. Tests named `known_bug_*` pin down reported bugs: they fail until the bug is fixed.
//!
//! * `perft`: exact perft counts, and perft against `shunsai` on every problem root.
//! * `invariants`: the generators' invariants on every problem position, along the PVs and on random playouts; regressions.
//! * `hands`: hand superiority (`Hand::covers`) and hand round trips.
//! * `sfen`: hostile SFEN input: refused with a reason, never a panic.

#[path = "../common/mod.rs"]
mod common;

mod hands;
mod invariants;
mod perft;
mod sfen;

use common::{Problem, Rng, load_problems, shunsai_perft, shunsai_position, two_pawns_on_a_file};
use kanju::position::hand::MAX_COUNT;
use kanju::position::movegen::{self, MoveList};
use kanju::position::{Bitboard, Color, Hand, Move, Piece, PieceKind, Position, SfenError, Square};
use shunsai::shogi_core::ToUsi;
use std::panic::{AssertUnwindSafe, catch_unwind};

const DEBUG: bool = cfg!(debug_assertions);

const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
const MAX_MOVES: &str = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1";

fn position(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// The rows of a problem file that are legal positions (see `two_pawns_on_a_file`).
fn valid_problems(file: &'static str) -> Vec<Problem> {
    load_problems(file)
        .into_iter()
        .filter(|p| !two_pawns_on_a_file(&p.sfen))
        .collect()
}

fn all_valid_problems() -> Vec<Problem> {
    common::PROBLEM_FILES
        .iter()
        .flat_map(|f| valid_problems(f))
        .collect()
}

fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    movegen::generate_legal(pos, &mut list);
    list
}

fn check_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    movegen::generate_checks(pos, &mut list);
    list
}

fn evasion_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    movegen::generate_evasions(pos, &mut list);
    list
}

fn perft_of(sfen: &str, depth: u32) -> u64 {
    movegen::perft(&mut position(sfen), depth)
}
