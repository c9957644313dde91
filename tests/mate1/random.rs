//! Seeded random positions of five kinds.

use super::*;
use crate::problems::problem_rows;

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
pub(crate) fn rank_text(row: &[Option<String>]) -> String {
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
pub(crate) fn swap_case(c: char) -> char {
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
