//! The SFEN / `position` reader on arbitrary text: it must refuse or accept without panicking, and what
//! it accepts must write back as a SFEN that reads again to the same position with consistent keys.
#![no_main]

use kanju::position::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = Position::from_sfen(text) else {
        return;
    };
    let _ = pos.validate_mate_problem();
    assert_eq!(
        (pos.board_key(), pos.hand_key()),
        pos.compute_keys(),
        "{text:?}"
    );
    let sfen = pos.to_sfen();
    let again = Position::from_sfen(&sfen)
        .unwrap_or_else(|e| panic!("{text:?} was read, but its SFEN {sfen} is refused: {e}"));
    assert_eq!(again.to_sfen(), sfen, "{text:?}");
    assert_eq!(again.key(), pos.key(), "{text:?}");
    // The solver's view of a tsume problem must be a position too.
    let problem = kanju::search::problem_position(&pos);
    assert_eq!(
        (problem.board_key(), problem.hand_key()),
        problem.compute_keys(),
        "{text:?}"
    );
});
