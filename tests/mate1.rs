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

mod common;

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

// ---- problem files ------------------------------------------------------------------------------------

/// `(sfen, pv)` of every row of the problem files: `tests/data` and, when present, `../shared/problems`.
fn problem_rows() -> Vec<(String, Vec<String>)> {
    let mut seen = HashSet::new();
    let mut rows = Vec::new();
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/problems");
    let mut files: Vec<_> = [common::data_dir(), shared]
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tsv"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable problem file");
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let cols: Vec<&str> = line.split('\t').collect();
            let sfen = cols.get(1).expect("a sfen column").trim().to_string();
            let pv: Vec<String> = cols
                .get(3)
                .unwrap_or(&"")
                .split_whitespace()
                .map(str::to_string)
                .collect();
            if seen.insert((sfen.clone(), pv.clone())) {
                rows.push((sfen, pv));
            }
        }
    }
    rows
}

/// Every OR node two plies below `pos`: each check, each evasion.
fn grandchildren(pos: &mut Position, tally: &mut Tally) {
    let mut checks = MoveList::new();
    generate_checks(pos, &mut checks);
    for &c in checks.iter() {
        pos.do_move(c);
        let mut evasions = MoveList::new();
        generate_evasions(pos, &mut evasions);
        for &e in evasions.iter() {
            pos.do_move(e);
            check(pos, tally);
            pos.undo_move(e);
        }
        pos.undo_move(c);
    }
}

#[test]
fn problem_files_and_their_pvs() {
    let rows = problem_rows();
    assert!(
        rows.len() > 2000,
        "problem files missing: {} rows",
        rows.len()
    );
    let (mut roots, mut along, mut below) = (Tally::default(), Tally::default(), Tally::default());
    let mut refused = 0;
    for (sfen, pv) in &rows {
        let Ok(root) = Position::from_sfen(sfen) else {
            refused += 1;
            continue;
        };
        let mut pos = problem_position(&root);
        check(&pos, &mut roots);
        grandchildren(&mut pos, &mut below);
        for (i, text) in pv.iter().enumerate() {
            let m = pos
                .parse_usi_move(text)
                .unwrap_or_else(|| panic!("{sfen}: pv move {text} is illegal"));
            pos.do_move(m);
            if i % 2 == 1 {
                check(&pos, &mut along);
                grandchildren(&mut pos, &mut below);
            }
        }
    }
    eprintln!(
        "problems: {} roots ({} mate-in-1), {} along PVs ({} mate-in-1), {} two plies below ({:.1}% \
         mate-in-1), {refused} refused rows",
        roots.positions,
        roots.mates,
        along.positions,
        along.mates,
        below.positions,
        100.0 * below.share()
    );
    assert!(
        below.positions > 100_000 && below.share() > 0.05,
        "{below:?}"
    );
    assert!(along.mates > 1000, "{along:?}");
    // Only game positions (both kings) can put the attacker in check, and rarely.
    assert!(
        below.stats.in_check_fallbacks * 1000 < below.positions,
        "{below:?}"
    );
    eprintln!(
        "problems: two plies below: judged {} candidates, {} in-check fallbacks, {} played",
        below.stats.judged, below.stats.in_check_fallbacks, below.stats.played
    );
}

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

// ---- random positions -------------------------------------------------------------------------------

/// A board under construction: `cells[rank - 1][9 - file]` in SFEN order, with material bookkeeping.
struct Sketch {
    cells: [[Option<String>; 9]; 9],
    /// Pieces of each hand kind left for the board and the hands (index: `PieceKind as usize`).
    left: [u8; 8],
}

const KINDS: [(char, u8, bool); 7] = [
    // (letter, full-set count, can promote)
    ('P', 18, true),
    ('L', 4, true),
    ('N', 4, true),
    ('S', 4, true),
    ('G', 4, false),
    ('B', 2, true),
    ('R', 2, true),
];

impl Sketch {
    fn new() -> Sketch {
        let mut left = [0u8; 8];
        for (i, k) in KINDS.iter().enumerate() {
            left[i + 1] = k.1;
        }
        Sketch {
            cells: Default::default(),
            left,
        }
    }

    fn free(&self, file: u8, rank: u8) -> bool {
        self.cells[rank as usize - 1][9 - file as usize].is_none()
    }

    fn put(&mut self, file: u8, rank: u8, token: String) {
        self.cells[rank as usize - 1][9 - file as usize] = Some(token);
    }

    /// A random piece of `black`'s colour on (file, rank), if the square is free and material is left.
    fn put_random(&mut self, rng: &mut Rng, file: u8, rank: u8, black: bool) {
        if !(1..=9).contains(&file) || !(1..=9).contains(&rank) || !self.free(file, rank) {
            return;
        }
        let i = rng.below(7);
        if self.left[i + 1] == 0 {
            return;
        }
        self.left[i + 1] -= 1;
        let (letter, _, can_promote) = KINDS[i];
        let promoted = can_promote && rng.chance(1, 4);
        let letter = if black {
            letter
        } else {
            letter.to_ascii_lowercase()
        };
        let token = if promoted {
            format!("+{letter}")
        } else {
            letter.to_string()
        };
        self.put(file, rank, token);
    }

    /// A random hand from what is left: every kind independently none, a few or all.
    fn take_hand(&mut self, rng: &mut Rng, black: bool, all: bool) -> String {
        let mut text = String::new();
        for i in (0..7).rev() {
            let n = if all {
                self.left[i + 1]
            } else {
                match rng.below(4) {
                    0 | 1 => 0,
                    2 => 1.min(self.left[i + 1]),
                    _ => (rng.below(self.left[i + 1] as usize + 1)) as u8,
                }
            };
            self.left[i + 1] -= n;
            let letter = if black {
                KINDS[i].0
            } else {
                KINDS[i].0.to_ascii_lowercase()
            };
            match n {
                0 => {}
                1 => text.push(letter),
                n => text.push_str(&format!("{n}{letter}")),
            }
        }
        text
    }

    fn board(&self) -> String {
        let ranks: Vec<String> = self.cells.iter().map(|row| rank_text(row)).collect();
        ranks.join("/")
    }
}

/// One SFEN rank from its squares, file 9 first (`None`: empty).
fn rank_text(row: &[Option<String>]) -> String {
    let mut s = String::new();
    let mut gap = 0;
    for cell in row {
        match cell {
            None => gap += 1,
            Some(t) => {
                if gap > 0 {
                    s.push_str(&gap.to_string());
                    gap = 0;
                }
                s.push_str(t);
            }
        }
    }
    if gap > 0 {
        s.push_str(&gap.to_string());
    }
    s
}

/// The same letter for the other colour.
fn swap_case(c: char) -> char {
    if c.is_ascii_uppercase() {
        c.to_ascii_lowercase()
    } else {
        c.to_ascii_uppercase()
    }
}

/// A sparse board around the defender's king: a few defender pieces and attacker pieces close to it,
/// some far (sliders from afar), maybe an attacker king, attacker hands of every mix, the defender
/// holding the rest, nothing, or some. Either colour attacks. `None` if the sketch was not legal.
fn sparse(rng: &mut Rng, attacker_king: bool) -> Option<Position> {
    let mut s = Sketch::new();
    let black_attacks = rng.chance(1, 2);
    // The defender's king, often near its own back rank as in problems.
    let kf = 1 + rng.below(9) as u8;
    let rows = if rng.chance(2, 3) { 3 } else { 9 };
    let back = 1 + rng.below(rows) as u8;
    let kr = if black_attacks { back } else { 10 - back };
    s.put(kf, kr, if black_attacks { "k" } else { "K" }.to_string());
    let near = |rng: &mut Rng, r: usize| {
        (
            (kf as i32 + rng.below(2 * r + 1) as i32 - r as i32) as u8,
            (kr as i32 + rng.below(2 * r + 1) as i32 - r as i32) as u8,
        )
    };
    for _ in 0..rng.below(5) {
        let (f, r) = near(rng, 2);
        s.put_random(rng, f, r, !black_attacks);
    }
    for _ in 0..1 + rng.below(5) {
        let (f, r) = if rng.chance(3, 4) {
            near(rng, 2)
        } else {
            (1 + rng.below(9) as u8, 1 + rng.below(9) as u8)
        };
        s.put_random(rng, f, r, black_attacks);
    }
    if attacker_king {
        let (f, r) = if rng.chance(1, 2) {
            near(rng, 3)
        } else {
            (1 + rng.below(9) as u8, 1 + rng.below(9) as u8)
        };
        if !(1..=9).contains(&f) || !(1..=9).contains(&r) || !s.free(f, r) {
            return None;
        }
        s.put(f, r, if black_attacks { "K" } else { "k" }.to_string());
    }
    let attacker_hand = s.take_hand(rng, black_attacks, false);
    let defender_hand = match rng.below(5) {
        0 => String::new(),
        1 => s.take_hand(rng, !black_attacks, false),
        _ => s.take_hand(rng, !black_attacks, true),
    };
    let hands = format!("{attacker_hand}{defender_hand}");
    let sfen = format!(
        "{} {} {} 1",
        s.board(),
        if black_attacks { "b" } else { "w" },
        if hands.is_empty() { "-" } else { &hands }
    );
    Position::from_sfen(&sfen).ok()
}

/// Random legal moves from `pos`, checking every position on the way (`plies` of them).
fn playout(rng: &mut Rng, mut pos: Position, plies: usize, tally: &mut Tally) {
    let mut moves = MoveList::new();
    for _ in 0..plies {
        check(&pos, tally);
        moves.clear();
        generate_legal(&pos, &mut moves);
        if moves.is_empty() {
            return;
        }
        let m = *rng.pick(&moves);
        pos.do_move(m);
    }
}

/// A mate-problem walk: the attacker plays a random check, the defender a random evasion; every
/// attacker-to-move position is checked. Sometimes a random non-checking attacker move is slipped in.
fn tsume_walk(rng: &mut Rng, mut pos: Position, plies: usize, tally: &mut Tally) {
    let mut moves = MoveList::new();
    for _ in 0..plies {
        check(&pos, tally);
        moves.clear();
        if rng.chance(1, 8) {
            generate_legal(&pos, &mut moves);
        } else {
            generate_checks(&pos, &mut moves);
        }
        if moves.is_empty() {
            return;
        }
        let m = *rng.pick(&moves);
        pos.do_move(m);
        moves.clear();
        generate_legal(&pos, &mut moves);
        if moves.is_empty() {
            return;
        }
        let e = *rng.pick(&moves);
        pos.do_move(e);
    }
}

/// Runs `count` random positions from `seed`, a fifth of each kind; returns the tallies by kind.
fn random_sweep(seed: u64, count: u64) -> [Tally; 5] {
    let mut rng = Rng::new(seed);
    let roots: Vec<Position> = problem_rows()
        .iter()
        .filter_map(|(sfen, _)| Position::from_sfen(sfen).ok())
        .map(|p| problem_position(&p))
        .collect();
    let mut t: [Tally; 5] = Default::default();
    let per_kind = count / 5;
    while t[0].positions < per_kind {
        if let Some(p) = sparse(&mut rng, false) {
            check(&p, &mut t[0]);
        }
    }
    while t[1].positions < per_kind {
        if let Some(p) = sparse(&mut rng, true) {
            check(&p, &mut t[1]);
        }
    }
    while t[2].positions < per_kind {
        let plies = 20 + rng.below(200);
        playout(&mut rng, Position::startpos(), plies, &mut t[2]);
    }
    while t[3].positions < per_kind {
        let root = rng.pick(&roots).clone();
        let plies = 1 + rng.below(12);
        tsume_walk(&mut rng, root, plies, &mut t[3]);
    }
    while t[4].positions < per_kind {
        let root = rng.pick(&roots).clone();
        let plies = 1 + rng.below(60);
        playout(&mut rng, root, plies, &mut t[4]);
    }
    t
}

fn report(label: &str, t: &[Tally; 5]) {
    let names = [
        "sparse, no attacker king",
        "sparse, attacker king",
        "playouts from the start",
        "check/evasion walks from problems",
        "playouts from problems",
    ];
    for (name, t) in names.iter().zip(t) {
        eprintln!(
            "{label}: {name}: {} positions, {:.1}% mate-in-1; judged {}, in-check fallbacks {}, \
             played {}",
            t.positions,
            100.0 * t.share(),
            t.stats.judged,
            t.stats.in_check_fallbacks,
            t.stats.played
        );
    }
}

#[test]
fn random_positions() {
    let t = random_sweep(0x006d_6174_6531, 1_000_000);
    report("random", &t);
    // The generators must produce what they claim, or agreement proves little.
    assert!(t[0].share() > 0.05, "sparse boards too rarely mate");
    assert!(
        t[1].share() > 0.05,
        "sparse boards with kings too rarely mate"
    );
    assert!(t[3].share() > 0.05, "walks too rarely mate");
    assert!(
        t[2].stats.in_check_fallbacks > 100,
        "playouts never in check"
    );
}

#[test]
#[ignore = "5,000,000 positions: run with --ignored (about a minute in release)"]
fn random_positions_more() {
    let start = std::time::Instant::now();
    let t = random_sweep(0x6d31_6d31_6d31, 5_000_000);
    report("more", &t);
    eprintln!("more: {:.1} s", start.elapsed().as_secs_f64());
}

// ---- hand-built exceptions ------------------------------------------------------------------------------

/// The same position with colours swapped: the board turned half a turn, pieces and hands changing
/// sides, the other side to move.
fn flip(sfen: &str) -> String {
    let parts: Vec<&str> = sfen.split_whitespace().collect();
    let mut cells: Vec<Vec<Option<String>>> = Vec::new();
    for rank in parts[0].split('/') {
        let mut row = Vec::new();
        let mut plus = false;
        for c in rank.chars() {
            if let Some(n) = c.to_digit(10) {
                row.extend((0..n).map(|_| None));
            } else if c == '+' {
                plus = true;
            } else {
                row.push(Some(format!(
                    "{}{}",
                    if plus { "+" } else { "" },
                    swap_case(c)
                )));
                plus = false;
            }
        }
        cells.push(row);
    }
    cells.reverse();
    for row in &mut cells {
        row.reverse();
    }
    let board: Vec<String> = cells.iter().map(|row| rank_text(row)).collect();
    let hands: String = if parts[2] == "-" {
        "-".to_string()
    } else {
        // Swap case; keep counts with their letters; uppercase (Black) first.
        let mut items: Vec<(String, char)> = Vec::new();
        let mut count = String::new();
        for c in parts[2].chars() {
            if c.is_ascii_digit() {
                count.push(c);
            } else {
                items.push((std::mem::take(&mut count), swap_case(c)));
            }
        }
        items.sort_by_key(|(_, c)| c.is_ascii_lowercase());
        items.iter().map(|(n, c)| format!("{n}{c}")).collect()
    };
    let side = if parts[1] == "b" { "w" } else { "b" };
    format!("{} {side} {hands} 1", board.join("/"))
}

/// Turns a USI move half a turn (files and ranks mirrored), for the flipped position.
fn flip_move(text: &str) -> String {
    let flip_sq = |f: char, r: char| {
        let f = (b'9' - f as u8 + b'1') as char;
        let r = (b'i' - r as u8 + b'a') as char;
        format!("{f}{r}")
    };
    let c: Vec<char> = text.chars().collect();
    if c[1] == '*' {
        format!("{}*{}", c[0], flip_sq(c[2], c[3]))
    } else {
        let promo = if c.len() > 4 { "+" } else { "" };
        format!("{}{}{promo}", flip_sq(c[0], c[1]), flip_sq(c[2], c[3]))
    }
}

/// What a hand-built case expects.
enum Expect {
    /// No mate in one.
    None,
    /// Some mate (any).
    Some,
    /// Exactly this mating move is the only one.
    Only(&'static str),
    /// Some mate, and it is a promotion.
    Promotion,
}

/// Checks a case in the given colours and its mirror with the other colour attacking; returns the
/// stats of both.
fn case(name: &str, sfen: &str, expect: Expect) -> Mate1Stats {
    let mut stats = Mate1Stats::default();
    for (sfen, flipped) in [(sfen.to_string(), false), (flip(sfen), true)] {
        let pos = Position::from_sfen(&sfen).unwrap_or_else(|e| panic!("{name}: {sfen}: {e}"));
        assert_eq!(
            pos.side_to_move(),
            if flipped { Color::White } else { Color::Black }
        );
        let mut t = Tally::default();
        let found = check(&pos, &mut t);
        stats.judged += t.stats.judged;
        stats.played += t.stats.played;
        stats.in_check_fallbacks += t.stats.in_check_fallbacks;
        let text = found.map(|m| m.to_usi());
        match expect {
            Expect::None => assert_eq!(text, None, "{name}: {sfen}"),
            Expect::Some => assert!(text.is_some(), "{name}: {sfen}"),
            Expect::Promotion => {
                assert!(
                    found.is_some_and(|m| m.is_promotion()),
                    "{name}: {sfen}: {text:?}"
                )
            }
            Expect::Only(m) => {
                let want = if flipped { flip_move(m) } else { m.to_string() };
                assert_eq!(text.as_deref(), Some(want.as_str()), "{name}: {sfen}");
                // The only one: every other check is answered.
                let mut checks = MoveList::new();
                generate_checks(&pos, &mut checks);
                for &c in checks.iter().filter(|c| c.to_usi() != want) {
                    let mut p = pos.clone();
                    p.do_move(c);
                    assert!(count_evasions(&p) > 0, "{name}: {sfen}: {c} mates too");
                }
            }
        }
    }
    stats
}

#[test]
fn a_drop_that_blocks_its_own_line_is_no_mate() {
    // B*2b checks and is guarded by the lance, but cuts the lance's line to 2a.
    case("block", "8k/9/8P/9/9/9/9/9/7L1 b Bg 1", Expect::None);
}

#[test]
fn a_piece_pinned_to_its_own_king_cannot_mate() {
    // 4c5b would mate, but the gold is pinned along rank 3 to the attacker's king.
    case("pinned", "4k4/9/4KG2r/9/9/9/9/9/9 b - 1", Expect::None);
    case(
        "unpinned",
        "4k4/9/4KG3/9/9/9/9/9/9 b - 1",
        Expect::Only("4c5b"),
    );
}

#[test]
fn a_pinned_defender_cannot_take_the_checker() {
    // The gold on 6a would take G*5b, but the rook on 9a pins it to its king.
    case(
        "pinned taker",
        "R2gk4/9/4P4/9/9/9/9/9/9 b G 1",
        Expect::Some,
    );
    case("free taker", "3gk4/9/4P4/9/9/9/9/9/9 b G 1", Expect::None);
}

#[test]
fn the_king_takes_an_unguarded_checker_but_not_one_guarded_through_the_vacated_square() {
    // 5c5b: the lance behind the silver guards 5b once the silver has left 5c (an x-ray).
    case(
        "x-ray guard",
        "4k4/3p1p3/4S4/9/9/9/9/9/4L4 b - 1",
        Expect::Some,
    );
    case("no guard", "4k4/3p1p3/4S4/9/9/9/9/9/9 b - 1", Expect::None);
}

#[test]
fn interpositions_by_drops() {
    // R*1c from afar: the defender has nothing to drop on 1b.
    case("empty hand", "7lk/7n1/9/9/9/9/9/9/9 b R 1", Expect::Some);
    case(
        "a pawn to drop",
        "7lk/7n1/9/9/9/9/9/9/9 b Rp 1",
        Expect::None,
    );
    // Two pawns on a file: the defender's pawn on 1h forbids the drop on 1b.
    case("two pawns", "7lk/7n1/9/9/9/9/9/8p/9 b Rp 1", Expect::Some);
    // A knight cannot be dropped on the defender's last two ranks (1h for White).
    case(
        "dead knight",
        "9/9/9/9/9/9/9/7l1/7gk b Rn 1",
        Expect::Only("R*1g"),
    );
    case("live silver", "9/9/9/9/9/9/9/7l1/7gk b Rs 1", Expect::None);
}

#[test]
fn interpositions_by_moves_and_pinned_interposers() {
    // The gold on 2b would step between, but the bishop on 4d pins it.
    case(
        "pinned interposer",
        "7lk/7g1/9/5B3/9/9/9/9/9 b R 1",
        Expect::Some,
    );
    case(
        "free interposer",
        "7lk/7g1/9/9/9/9/9/9/9 b R 1",
        Expect::None,
    );
}

#[test]
fn discovered_and_double_checks() {
    // The silver leaves the rook's file: a discovered check, blockable when the defender holds a gold.
    case("discovered", "8k/6G2/9/9/8S/9/9/9/8R b - 1", Expect::Some);
    case(
        "discovered, blockable",
        "8k/6G2/9/9/8S/9/9/9/8R b g 1",
        Expect::None,
    );
    // The knight checks from 2c and uncovers the rook: a double check, which no drop answers. Promoted,
    // it would not check itself.
    case(
        "double",
        "8k/6G2/9/9/8N/9/9/9/8R b g 1",
        Expect::Only("1e2c"),
    );
}

#[test]
fn a_lance_takes_the_blocker_of_its_file() {
    // 1i1c takes the pawn and checks from two squares away; the defender cannot drop on 1b.
    case(
        "lance takes",
        "7lk/7n1/8p/9/9/9/9/9/8L b - 1",
        Expect::Only("1i1c"),
    );
}

#[test]
fn promotion_and_non_promotion() {
    // Only the promoted silver or pawn covers 4b and 6b.
    case(
        "promotion",
        "4k4/9/3SP4/9/9/9/9/9/9 b - 1",
        Expect::Promotion,
    );
}

#[test]
fn pawn_drop_mate_is_not_mate_but_a_pawn_push_is() {
    case("pawn drop", "7nk/9/8G/9/9/9/9/9/9 b P 1", Expect::None);
    case("pawn push", "7nk/9/7GP/9/9/9/9/9/9 b - 1", Expect::Some);
}

#[test]
fn a_defending_pawn_drop_that_checks_the_attacker_is_played_out() {
    // 5a3c checks from afar; the defender's only block, P*2b, checks the attacker's king on 2c. Such a
    // drop is illegal if it mates, which the bitboard judgement does not decide: the candidate is played
    // (here the bishop takes the pawn, so the drop is legal and there is no mate).
    let stats = case(
        "pawn-drop defence",
        "4B2bk/9/7KN/6LPL/9/9/9/9/9 b p 1",
        Expect::None,
    );
    assert!(stats.played >= 2, "{stats:?}");
}

#[test]
fn an_attacker_in_check_falls_back_to_generate_and_test() {
    let stats = case("in check", "4k4/9/9/9/9/9/9/4r4/4K4 b G 1", Expect::None);
    assert_eq!(stats.in_check_fallbacks, 2);
}

#[test]
fn flip_is_an_involution() {
    for sfen in [
        "4B2bk/9/7KN/6LPL/9/9/9/9/9 b p 1",
        "4k4/9/3+SP4/9/9/9/9/9/9 b 2G3p 1",
    ] {
        let pos = Position::from_sfen(sfen).unwrap();
        let back = Position::from_sfen(&flip(&flip(sfen))).unwrap();
        assert_eq!(pos.to_sfen(), back.to_sfen());
    }
    assert_eq!(flip_move("1e2c+"), "9e8g+");
    assert_eq!(flip_move("B*3c"), "B*7g");
}
