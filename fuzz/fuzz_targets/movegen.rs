//! Do/undo and the three move generators on positions read from the input: the input is a SFEN line
//! followed by bytes that pick the moves of a random walk. At every step the generators must agree
//! (evasions = legal moves in check; checks = the legal moves after which the opponent is in check),
//! the incremental keys must equal recomputed ones, and taking every move back must restore the SFEN
//! and the keys.
#![no_main]

use kanju::position::movegen::{MoveList, generate_checks, generate_evasions, generate_legal};
use kanju::position::{Move, Position};
use libfuzzer_sys::fuzz_target;

/// Enough plies to reach positions far from the input, few enough to keep an execution fast.
const MAX_WALK: usize = 64;

fn sorted(list: &MoveList) -> Vec<String> {
    let mut v: Vec<String> = list.as_slice().iter().map(|m| m.to_usi()).collect();
    v.sort();
    v
}

fn check_generators(pos: &mut Position) {
    let sfen = pos.to_sfen();
    let (mut legal, mut checks, mut evasions) = (MoveList::new(), MoveList::new(), MoveList::new());
    generate_legal(pos, &mut legal);
    generate_checks(pos, &mut checks);
    let legal_set = sorted(&legal);
    let mut dedup = legal_set.clone();
    dedup.dedup();
    assert_eq!(
        dedup.len(),
        legal_set.len(),
        "duplicate legal moves in {sfen}"
    );
    if pos.in_check() {
        generate_evasions(pos, &mut evasions);
        assert_eq!(sorted(&evasions), legal_set, "evasions != legal in {sfen}");
    }
    let mover = pos.side_to_move();
    let keys = (pos.board_key(), pos.hand_key());
    let mut checking = Vec::new();
    for &m in legal.as_slice() {
        pos.do_move(m);
        assert_eq!(
            (pos.board_key(), pos.hand_key()),
            pos.compute_keys(),
            "keys after {m} in {sfen}"
        );
        let mover_king_safe = pos.king_square(mover).is_none_or(|k| {
            pos.attackers_to(pos.side_to_move(), k, pos.occupied())
                .is_empty()
        });
        assert!(mover_king_safe, "{m} leaves the mover in check in {sfen}");
        if pos.in_check() {
            checking.push(m.to_usi());
        }
        pos.undo_move(m);
        assert_eq!(
            (pos.board_key(), pos.hand_key()),
            keys,
            "keys after undo {m} in {sfen}"
        );
    }
    checking.sort();
    assert_eq!(
        sorted(&checks),
        checking,
        "checks != checking legal moves in {sfen}"
    );
    assert_eq!(pos.to_sfen(), sfen, "undo did not restore {sfen}");
}

fuzz_target!(|data: &[u8]| {
    let split = data.iter().position(|&b| b == b'\n').unwrap_or(data.len());
    let Ok(text) = std::str::from_utf8(&data[..split]) else {
        return;
    };
    let Ok(mut pos) = Position::from_sfen(text) else {
        return;
    };
    let start = (pos.to_sfen(), pos.key());
    let mut played: Vec<Move> = Vec::new();
    for &choice in data.get(split + 1..).unwrap_or(&[]).iter().take(MAX_WALK) {
        check_generators(&mut pos);
        let mut legal = MoveList::new();
        generate_legal(&pos, &mut legal);
        if legal.is_empty() {
            break;
        }
        let m = legal.as_slice()[usize::from(choice) % legal.len()];
        pos.do_move(m);
        played.push(m);
    }
    check_generators(&mut pos);
    while let Some(m) = played.pop() {
        pos.undo_move(m);
    }
    assert_eq!(
        (pos.to_sfen(), pos.key()),
        start,
        "the walk did not undo to {text:?}"
    );
});
