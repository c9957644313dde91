//! Helpers shared by the integration tests (and by `benches/movegen.rs`, which includes this file by
//! path): the problem files copied into `tests/data`, a seeded PRNG, and a reference perft on the
//! `shunsai` crate.
//!
//! The problem files live in the repository (not in `../shared`) so that `cargo test` works on a fresh
//! clone; `tests/data/README.md` describes their columns and provenance.

// Every test crate compiles its own copy of this module and uses a different subset of it.
#![allow(dead_code)]

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// Every problem file in `tests/data`, smallest first so that a failure in a sweep shows up early.
pub const PROBLEM_FILES: [&str; 7] = [
    "microcosmos.tsv",
    "edge-cases.tsv",
    "yaneuraou-mate3.tsv",
    "yaneuraou-mate5.tsv",
    "yaneuraou-mate7.tsv",
    "zukou.tsv",
    "tanuki.tsv",
];

/// What a problem file claims about a position (the `expected` column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// The shortest mate against the longest defence is this many plies.
    Mate(u32),
    /// Mate, length not known.
    MateUnknown,
    /// Proven: no mate at all.
    NoMate,
    /// No mate of this many plies or fewer.
    NoMateWithin(u32),
}

impl Expected {
    fn parse(text: &str) -> Option<Expected> {
        match text.split_once(':') {
            Some(("mate", "unknown")) => Some(Expected::MateUnknown),
            Some(("mate", n)) => n.parse().ok().map(Expected::Mate),
            Some(("nomate-within", n)) => n.parse().ok().map(Expected::NoMateWithin),
            None if text == "nomate" => Some(Expected::NoMate),
            _ => None,
        }
    }
}

/// One row of a problem file.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The file it came from (`tanuki.tsv`), for messages.
    pub file: &'static str,
    pub id: String,
    /// The position, SFEN without the `sfen` keyword.
    pub sfen: String,
    pub expected: Expected,
    /// A known mating line in USI moves; empty when none is known.
    pub pv: Vec<String>,
    pub note: String,
}

pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
}

/// Reads one problem file. Panics (naming file and line) on a malformed row: a broken data file must
/// fail the tests loudly rather than shrink them silently.
pub fn load_problems(file: &'static str) -> Vec<Problem> {
    let path = data_dir().join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(i, line)| {
            parse_row(file, line).unwrap_or_else(|| panic!("{file}:{}: bad row", i + 1))
        })
        .collect()
}

fn parse_row(file: &'static str, line: &str) -> Option<Problem> {
    let mut cols = line.split('\t');
    let id = cols.next()?.to_string();
    let sfen = cols.next()?.trim().to_string();
    let expected = Expected::parse(cols.next()?.trim())?;
    let pv = cols
        .next()
        .unwrap_or("")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let note = cols.next().unwrap_or("").to_string();
    Some(Problem {
        file,
        id,
        sfen,
        expected,
        pv,
        note,
    })
}

/// Every row of every problem file.
pub fn all_problems() -> Vec<Problem> {
    PROBLEM_FILES
        .iter()
        .flat_map(|f| load_problems(f))
        .collect()
}

/// Whether the board of a SFEN has two unpromoted pawns of one colour on one file (二歩), read from the
/// text alone, independently of any engine.
///
/// 174 `tanuki.tsv` rows are such positions (the generator did not apply the rule); an engine must
/// refuse them, so the sweeps skip exactly those rows and check that each is refused.
pub fn two_pawns_on_a_file(sfen: &str) -> bool {
    let board = sfen.split_whitespace().next().unwrap_or("");
    let mut pawns = [[0u8; 9]; 2];
    for rank in board.split('/') {
        let mut file = 9usize;
        let mut promoted = false;
        for c in rank.chars() {
            if let Some(n) = c.to_digit(10) {
                file = file.saturating_sub(n as usize);
            } else if c == '+' {
                promoted = true;
                continue;
            } else {
                if !promoted && file >= 1 && (c == 'P' || c == 'p') {
                    pawns[usize::from(c == 'p')][file - 1] += 1;
                }
                file = file.saturating_sub(1);
            }
            promoted = false;
        }
    }
    pawns.iter().flatten().any(|&n| n > 1)
}

/// xorshift64*: tiny, seedable and good enough to pick moves; the tests must be reproducible, so no
/// external randomness.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // One splitmix64 step spreads small seeds over all bits and keeps the state non-zero.
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Rng((z ^ (z >> 31)) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `0..n` (`n > 0`); the modulo bias is irrelevant at these sizes.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next_u64() % den < num
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Reads a SFEN (bare, as in the problem files) into a `shunsai` position.
pub fn shunsai_position(sfen: &str) -> shunsai::Position {
    use shogi_usi_parser::FromUsi;
    let partial = shunsai::shogi_core::PartialPosition::from_usi(&format!("sfen {sfen}"))
        .unwrap_or_else(|e| panic!("shogi_usi_parser refuses {sfen}: {e:?}"));
    shunsai::Position::new(partial)
}

/// Perft on `shunsai` with its fastest public API: `generate_moves` hands out one bitboard of
/// destinations per origin, so the last ply is counted without building a single move.
pub fn shunsai_perft(pos: &mut shunsai::Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0u64;
    if depth == 1 {
        let _ = pos.generate_moves(|set| {
            n += set.len() as u64;
            ControlFlow::Continue(())
        });
        return n;
    }
    for m in pos.legal_moves() {
        let undo = pos.do_move(m);
        n += shunsai_perft(pos, depth - 1);
        pos.undo_move(m, undo);
    }
    n
}

/// Positions whose mating nets hold a perpetual-check cycle, where a naive "position -> mate length"
/// cache can go wrong (komori-n's PV article), with their minimax lengths. Found by solving random
/// game positions (`tests/differential`'s generator, seed 99) with the loop-aware cache and with the
/// naive one (`SearchConfig::naive_loop_cache`, a switch of test builds only), and keeping two where
/// the lengths differed. `tests/differential` (`perpetual_check_inside_the_net`) checks every one
/// against the brute force; the library's unit test
/// `the_naive_length_cache_prints_a_wrong_length_in_a_net_with_a_perpetual_check` (`pv/tests.rs`,
/// which holds a copy of this list) needs the naive cache wrong on at least one;
/// `tests/usi/session.rs` (`perpetual_check_inside_the_net_over_usi`) asks the binary.
pub const PERPETUAL_IN_NET: [(&str, usize); 2] = [
    ("2+r2k3/9/2+P6/9/7+S1/5K3/9/9/9 b RBN 1", 11),
    ("6+P2/3k5/5+P3/9/9/9/9/9/6K2 b R2GP 1", 11),
];
