//! Hostile SFEN input: refused with a reason, never a panic.

use super::*;
use crate::invariants::{Stats, check_position};

// ---- 4. hostile SFEN input ---------------------------------------------------------------------------

/// `from_sfen` on `text`, with a panic turned into an `Err` naming the input.
fn parse_guarded(text: &str) -> Result<Result<Position, String>, String> {
    catch_unwind(AssertUnwindSafe(|| {
        Position::from_sfen(text).map_err(|e| e.to_string())
    }))
    .map_err(|_| format!("from_sfen panicked on {text:?}"))
}

/// Inputs that are not positions, each with what is wrong with it.
const BAD_SFENS: &[(&str, &str)] = &[
    ("empty", ""),
    ("blank", "   \t  "),
    ("garbage", "hello world"),
    ("keyword only", "sfen"),
    ("position keyword only", "position"),
    (
        "board only",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",
    ),
    (
        "no hand",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b",
    ),
    (
        "truncated board",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1",
    ),
    ("eight ranks", "4k4/9/9/9/9/9/9/4K4 b - 1"),
    ("ten ranks", "4k4/9/9/9/9/9/9/9/9/4K4 b - 1"),
    ("ten files in a rank", "4k5/9/9/9/9/9/9/9/4K4 b - 1"),
    ("rank of eight", "4k3/9/9/9/9/9/9/9/4K4 b - 1"),
    ("digit zero", "4k4/9/9/0/9/9/9/9/4K4 b - 1"),
    ("unknown piece letter", "4k4/9/9/9/4X4/9/9/9/4K4 b - 1"),
    ("promoted king", "4+k4/9/9/9/9/9/9/9/4K4 b - 1"),
    ("promoted gold", "4k4/9/9/4+G4/9/9/9/9/4K4 b - 1"),
    ("dangling plus", "4k4/9/9/9/9/9/9/9/4K3+ b - 1"),
    ("bad side char", "4k4/9/9/9/9/9/9/9/4K4 x - 1"),
    ("upper-case side", "4k4/9/9/9/9/9/9/9/4K4 B - 1"),
    ("bad hand letter", "4k4/9/9/9/9/9/9/9/4K4 b X 1"),
    ("promoted piece in hand", "4k4/9/9/9/9/9/9/9/4K4 b +P 1"),
    ("count without piece", "4k4/9/9/9/9/9/9/9/4K4 b 3 1"),
    ("negative move number", "4k4/9/9/9/9/9/9/9/4K4 b - -3"),
    ("trailing garbage", "4k4/9/9/9/9/9/9/9/4K4 b - 1 extra"),
    ("two black kings", "4k4/9/9/9/9/9/9/9/3KK4 b - 1"),
    ("two white kings", "3kk4/9/9/9/9/9/9/9/4K4 b - 1"),
    ("no king", "9/9/9/4p4/9/9/9/9/9 b - 1"),
    ("pawn on last rank", "P3k4/9/9/9/9/9/9/9/4K4 b - 1"),
    (
        "white pawn on its last rank",
        "4k4/9/9/9/9/9/9/9/p3K4 b - 1",
    ),
    ("lance on last rank", "L3k4/9/9/9/9/9/9/9/4K4 b - 1"),
    ("knight on second rank", "4k4/N8/9/9/9/9/9/9/4K4 b - 1"),
    (
        "white knight on its second rank",
        "4k4/9/9/9/9/9/9/n8/4K4 b - 1",
    ),
    ("two pawns on a file", "4k4/9/P8/9/P8/9/9/9/4K4 b - 1"),
    ("two white pawns on a file", "4k4/p8/9/p8/9/9/9/9/4K4 b - 1"),
    ("three rooks", "4k4/9/9/9/9/9/9/9/4K4 b 3R 1"),
    ("five golds", "4k4/9/9/9/9/9/9/9/GGGGK4 b G 1"),
    ("nineteen pawns", "4k4/9/9/9/9/9/9/9/4K4 b 10P9p 1"),
    ("a hundred pawns", "4k4/9/9/9/9/9/9/9/4K4 b 99P 1"),
    ("three bishops split", "4k4/9/9/9/9/9/9/9/B3K4 b Bb 1"),
    ("opponent in check", "4k4/4R4/9/9/9/9/9/9/4K4 b - 1"),
    ("illegal move in list", "startpos moves 7g7f 7g7f"),
    ("garbage move in list", "startpos moves 7g7f zz"),
    ("unicode digits", "４ｋ４/9/9/9/9/9/9/9/4K4 b - 1"),
    ("unicode hand", "4k4/9/9/9/9/9/9/9/4K4 b 歩 1"),
];

#[test]
fn bad_sfens_are_refused_with_a_reason() {
    let mut accepted = Vec::new();
    for (what, text) in BAD_SFENS {
        match parse_guarded(text) {
            Err(panic) => panic!("{what}: {panic}"),
            Ok(Ok(p)) => accepted.push(format!("{what}: {text:?} -> {p:?}")),
            Ok(Err(msg)) => assert!(!msg.trim().is_empty(), "{what}: empty error message"),
        }
    }
    assert!(
        accepted.is_empty(),
        "accepted bad SFENs:\n{}",
        accepted.join("\n")
    );
}

#[test]
fn very_long_inputs_are_refused() {
    let long_rank = format!("4k4/9/9/9/{}/9/9/9/4K4 b - 1", "1".repeat(100_000));
    let long_hand = format!("4k4/9/9/9/9/9/9/9/4K4 b {} 1", "P".repeat(100_000));
    let many_ranks = format!("{}4K4 b - 1", "9/".repeat(10_000));
    let long_moves = format!("startpos moves {}", "7g7f ".repeat(10_000));
    for text in [long_rank, long_hand, many_ranks, long_moves] {
        let head: String = text.chars().take(40).collect();
        match parse_guarded(&text) {
            Err(panic) => panic!("{head}…: {panic}"),
            Ok(Ok(p)) => panic!("{head}… accepted as {p:?}"),
            Ok(Err(msg)) => assert!(!msg.trim().is_empty()),
        }
    }
    // A move number beyond `u16` is clamped rather than refused (it does not change the position);
    // either is fine, a panic is not.
    let long_ply = format!("4k4/9/9/9/9/9/9/9/4K4 b - {}", "9".repeat(10_000));
    assert!(
        parse_guarded(&long_ply).is_ok(),
        "from_sfen panicked on a long move number"
    );
}

/// Characters a mutation may insert: mostly SFEN's own alphabet, so that many mutants still parse and
/// reach the rule checks, plus a few strangers.
const MUTATION_ALPHABET: &[char] = &[
    '1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '/', '+', ' ', '-', 'p', 'l', 'n', 's', 'g',
    'b', 'r', 'k', 'P', 'L', 'N', 'S', 'G', 'B', 'R', 'K', 'w', 'x', '*', '\t', 'é', '歩',
];

/// One or two random edits: replace, delete, swap, duplicate a short run, or insert.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let edits = if rng.chance(3, 4) { 1 } else { 2 };
    for _ in 0..edits {
        let at = rng.below(chars.len() + 1);
        let c = *rng.pick(MUTATION_ALPHABET);
        match rng.below(5) {
            0 if at < chars.len() => chars[at] = c,
            1 if at < chars.len() => {
                chars.remove(at);
            }
            2 if at < chars.len() => {
                let other = rng.below(chars.len());
                chars.swap(at, other);
            }
            3 => {
                // Repeated ranks, pieces and hand counts.
                let run: Vec<char> = chars
                    .iter()
                    .skip(at)
                    .take(1 + rng.below(4))
                    .copied()
                    .collect();
                chars.splice(at..at, run);
            }
            _ => chars.insert(at, c),
        }
    }
    chars.into_iter().collect()
}

#[test]
fn mutated_sfens_never_panic_and_round_trip() {
    let mut seeds: Vec<String> = vec![
        "startpos".to_string(),
        "startpos moves 7g7f 3c3d 8h2b+".to_string(),
        MATSURI.to_string(),
        MAX_MOVES.to_string(),
    ];
    seeds.extend(
        common::all_problems()
            .iter()
            .step_by(20)
            .map(|p| p.sfen.clone()),
    );
    let mut rng = Rng::new(0xf022);
    let (mut ok, mut err) = (0, 0);
    let mut stats = Stats::default();
    let rounds = if DEBUG { 4_000 } else { 20_000 };
    for _ in 0..rounds {
        let seed: &String = rng.pick(&seeds);
        let text = mutate(seed, &mut rng);
        match parse_guarded(&text) {
            Err(panic) => panic!("{panic}"),
            Ok(Err(msg)) => {
                assert!(!msg.trim().is_empty(), "empty error message for {text:?}");
                err += 1;
            }
            Ok(Ok(mut pos)) => {
                let sfen = pos.to_sfen();
                let again = Position::from_sfen(&sfen)
                    .unwrap_or_else(|e| panic!("{text:?} was accepted but {sfen} is refused: {e}"));
                assert_eq!(again.to_sfen(), sfen, "round trip of {text:?}");
                // An accepted position is one the engine will search: it must pass the same checks.
                check_position(&mut pos, &mut stats);
                ok += 1;
            }
        }
    }
    eprintln!("mutated SFENs: {ok} accepted, {err} refused");
    assert!(
        ok > rounds / 50 && err > rounds / 50,
        "mutations too tame or too wild: {ok} accepted, {err} refused"
    );
}
