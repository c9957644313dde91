//! Differential tests: the df-pn solver against an independent brute force on random small positions.
//!
//! The brute force (`BruteForce`) is a memoised exhaustive AND/OR search of "mate within n plies" that
//! shares nothing with the solver but `Position` and its legal-move generator (checked against
//! `shunsai` in `tests/movegen.rs`): attacker moves are the legal moves after which the defender is in check (not
//! `generate_checks`), defender moves are all legal moves (not `generate_evasions`), a position where
//! the defender has no legal move is mate unless the check was a pawn drop. It ignores repetition,
//! which is sound for what it reports: a forced mate within n has a strategy that shortens the distance
//! to mate every move, so it never repeats a position and is a mate under any repetition rule too; and
//! a refutation that never needed the horizon ("no mate at all") only gets stronger when repetitions
//! count against the attacker.
//!
//! Every solver answer is judged against it (`judge`); these are failures:
//! * the solver says no mate, the brute force finds one within n;
//! * the solver's mating line fails `verify_mate_line`;
//! * the solver's line is shorter than the brute force's minimax length (the defence in it is not the
//!   longest one; `tests/problems.rs` asserts the same on the problem files);
//! * the solver claims a mate of at most n plies and the brute force finds none within n;
//! * the solver claims a mate and the brute force proves there is none at all.
//!
//! A solver timeout (it runs under a node limit) is never a failure, nor is a position the brute force
//! gives up on (node budget). Everything is seeded, so a failure reproduces; its message names the
//! SFEN, the solver's answer and the brute force's.
//!
//! The table-reuse tests run one `Solver` on pairs of positions that share the board and the attacker's
//! hand but not the defender's hand (game positions: both kings on the board, hands as written), or
//! share the board but not the attacker's colour, without `clear()` in between. A table keyed on less
//! than the whole problem turns a proof or disproof learnt in the first into a wrong answer in the
//! second, so each second answer is compared with a fresh solver's and with the brute force.
//!
//! The default tests take about ten seconds in release on two cores (`cargo test --release --test
//! differential`); the `#[ignore]`d ones are the same sweeps, longer (`-- --ignored`, minutes).

mod common;

use common::Rng;
use kanju::position::movegen::{MoveList, generate_legal};
use kanju::position::{Move, PieceKind, Position, Square};
use kanju::search::{
    MateOutcome, SEARCH_STACK_BYTES, SearchLimits, Solver, problem_position, verify_mate_line,
};
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

// ---- the brute force ------------------------------------------------------------------------------

/// Brute-force nodes per position: enough for depth 7 on nearly every random position.
const BRUTE_BUDGET: u64 = 2_000_000;

/// What the brute force found about a root position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Truth {
    /// The shortest forced mate (against the longest defence) is this many plies.
    Mate(u32),
    /// No forced mate of this many plies or fewer; longer ones not searched.
    NoMateWithin(u32),
    /// No mate of any length: the refutation never reached the horizon.
    NoMate,
    /// The node budget ran out.
    GaveUp,
}

/// The result of one node searched to a given number of plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Mate,
    /// No mate within the plies given; a deeper search might find one.
    NotWithin,
    /// No mate at any depth (decided without touching the horizon).
    Never,
}

/// What is known about one position, whatever depth it is searched to.
#[derive(Clone, Copy, Debug)]
struct Memo {
    /// The largest ply count known to hold no mate (-1: none).
    not_within: i32,
    /// The smallest ply count known to hold a mate (`i32::MAX`: none).
    mate_within: i32,
    never: bool,
}

/// Zobrist keys are uniformly random already: the memo uses them as their own hash.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 keys are hashed")
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// Exhaustive AND/OR search with a memo keyed on the full position key (board, hands, side to move).
struct BruteForce {
    memo: HashMap<u64, Memo, BuildHasherDefault<KeyHasher>>,
    nodes: u64,
    budget: u64,
}

/// Raised through the recursion when the node budget runs out.
struct OutOfBudget;

impl BruteForce {
    fn new(budget: u64) -> BruteForce {
        BruteForce {
            memo: HashMap::default(),
            nodes: 0,
            budget,
        }
    }

    /// The shortest mate of at most `max_plies` (odd) in `problem_position(root)`, by iterative
    /// deepening over the odd lengths (the memo carries over from one depth to the next).
    fn solve(root: &Position, max_plies: u32, budget: u64) -> Truth {
        let mut pos = problem_position(root);
        let mut bf = BruteForce::new(budget);
        for plies in (1..=max_plies as i32).step_by(2) {
            match bf.attacker(&mut pos, plies) {
                Err(OutOfBudget) => return Truth::GaveUp,
                Ok(Verdict::Mate) => return Truth::Mate(plies as u32),
                Ok(Verdict::Never) => return Truth::NoMate,
                Ok(Verdict::NotWithin) => {}
            }
        }
        Truth::NoMateWithin(max_plies)
    }

    fn recall(&self, pos: &Position, plies: i32) -> Option<Verdict> {
        let m = self.memo.get(&pos.key())?;
        if m.never {
            Some(Verdict::Never)
        } else if m.mate_within <= plies {
            Some(Verdict::Mate)
        } else if m.not_within >= plies {
            Some(Verdict::NotWithin)
        } else {
            None
        }
    }

    fn remember(&mut self, pos: &Position, plies: i32, v: Verdict) -> Verdict {
        let m = self.memo.entry(pos.key()).or_insert(Memo {
            not_within: -1,
            mate_within: i32::MAX,
            never: false,
        });
        match v {
            Verdict::Mate => m.mate_within = m.mate_within.min(plies),
            Verdict::NotWithin => m.not_within = m.not_within.max(plies),
            Verdict::Never => m.never = true,
        }
        v
    }

    fn count_node(&mut self) -> Result<(), OutOfBudget> {
        self.nodes += 1;
        if self.nodes > self.budget {
            Err(OutOfBudget)
        } else {
            Ok(())
        }
    }

    /// Attacker to move, `plies >= 1`: can it force mate within `plies`?
    fn attacker(&mut self, pos: &mut Position, plies: i32) -> Result<Verdict, OutOfBudget> {
        if let Some(v) = self.recall(pos, plies) {
            return Ok(v);
        }
        self.count_node()?;
        let mut list = MoveList::new();
        generate_legal(pos, &mut list);
        let king = pos.king_square(pos.side_to_move().flip());
        // `Never` unless some check fails only for lack of depth.
        let mut verdict = Verdict::Never;
        for &m in list.iter() {
            if m.is_drop() && king.is_some_and(|k| !drop_may_check(m.to(), k)) {
                continue;
            }
            pos.do_move(m);
            let child = if pos.in_check() {
                self.defender(pos, plies - 1)
            } else {
                Ok(Verdict::Never) // not a check: not an attacker move at all
            };
            pos.undo_move(m);
            match child? {
                Verdict::Mate => return Ok(self.remember(pos, plies, Verdict::Mate)),
                Verdict::NotWithin => verdict = Verdict::NotWithin,
                Verdict::Never => {}
            }
        }
        Ok(self.remember(pos, plies, verdict))
    }

    /// Defender to move and in check, `plies >= 0`: is it mated within `plies`?
    fn defender(&mut self, pos: &mut Position, plies: i32) -> Result<Verdict, OutOfBudget> {
        if let Some(v) = self.recall(pos, plies) {
            return Ok(v);
        }
        self.count_node()?;
        let mut list = MoveList::new();
        generate_legal(pos, &mut list);
        if list.is_empty() {
            // Checkmate; but mating by a pawn drop is illegal, so that check was no attacker move.
            let last = pos.last_move();
            let pawn_drop = last.is_drop() && last.drop_kind() == PieceKind::Pawn;
            let v = if pawn_drop {
                Verdict::Never
            } else {
                Verdict::Mate
            };
            return Ok(self.remember(pos, plies, v));
        }
        if plies == 0 {
            return Ok(self.remember(pos, plies, Verdict::NotWithin));
        }
        // `Mate` unless some reply escapes. The first escape settles it: looking on for one that escapes
        // for ever (`Never`) would make `NoMate` verdicts more frequent but the search several times
        // slower, so `Never` is only claimed when the first escape found is one.
        for &m in list.iter() {
            pos.do_move(m);
            let child = self.attacker(pos, plies - 1);
            pos.undo_move(m);
            match child? {
                Verdict::Mate => {}
                escape => return Ok(self.remember(pos, plies, escape)),
            }
        }
        Ok(self.remember(pos, plies, Verdict::Mate))
    }
}

/// Whether a drop on `to` could give check to a king on `king` at all: only from next to it, a knight's
/// jump away, or in line with it (lance, bishop, rook). A geometric bound that spares playing the
/// dozens of far-away drops just to see that they do not check; `in_check` still decides.
fn drop_may_check(to: Square, king: Square) -> bool {
    let df = to.file().abs_diff(king.file());
    let dr = to.rank().abs_diff(king.rank());
    (df <= 2 && dr <= 2) || df == 0 || dr == 0 || df == dr
}

// ---- running the solver and judging it ------------------------------------------------------------

/// The solver's outcome, printed as USI moves.
struct Answer<'a>(&'a MateOutcome);

impl fmt::Display for Answer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            MateOutcome::Mate(line) => write!(f, "mate in {}: {}", line.len(), usi(line)),
            other => write!(f, "{other:?}"),
        }
    }
}

fn usi(line: &[Move]) -> String {
    line.iter()
        .map(|m| m.to_usi())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Solver limits: a node limit keeps hard positions from dominating the run (they end as `Timeout`,
/// not a failure); the time limit is only a backstop on a loaded machine.
fn limits(nodes: u64) -> SearchLimits {
    SearchLimits {
        nodes: Some(nodes),
        time: Some(Duration::from_secs(5)),
        ..SearchLimits::default()
    }
}

fn solve(solver: &mut Solver, pos: &Position, limits: &SearchLimits) -> MateOutcome {
    solver
        .solve(pos, limits, &AtomicBool::new(false), &mut |_| {})
        .expect("a valid mate problem")
        .outcome
}

/// What is wrong with the solver's `outcome` for `root`, given the brute force's `truth`, if anything.
fn judge(root: &Position, outcome: &MateOutcome, truth: Truth) -> Option<String> {
    let MateOutcome::Mate(line) = outcome else {
        return match (outcome, truth) {
            (MateOutcome::NoMate, Truth::Mate(n)) => Some(format!("no mate, but mate in {n}")),
            _ => None,
        };
    };
    if !verify_mate_line(root, line) {
        return Some("the mating line fails verify_mate_line".into());
    }
    let len = line.len() as u32;
    match truth {
        Truth::Mate(n) if len < n => Some(format!("line shorter than the minimax {n}")),
        Truth::NoMateWithin(n) if len <= n => Some(format!("but no mate within {n}")),
        Truth::NoMate => Some("but there is no mate at all".into()),
        _ => None,
    }
}

/// One failure message: the position, what the solver said, what the brute force found, and why.
fn failure(sfen: &str, outcome: &MateOutcome, truth: Truth, why: &str) -> String {
    format!(
        "{sfen}\n    solver: {}\n    brute force: {truth:?}\n    {why}",
        Answer(outcome)
    )
}

/// Runs `f` on a thread with the stack the solver needs (it recurses once per ply) and passes its
/// panic on.
fn on_big_stack(f: impl FnOnce() + Send + 'static) {
    let handle = std::thread::Builder::new()
        .stack_size(SEARCH_STACK_BYTES)
        .spawn(f)
        .expect("cannot start a test thread");
    if let Err(panic) = handle.join() {
        std::panic::resume_unwind(panic);
    }
}

// ---- random positions -----------------------------------------------------------------------------

/// A board being built: `cells[rank][column]`, rank 0 = `a`, column 0 = file 9 (SFEN order); each cell
/// a SFEN piece token (`"+R"`, `"g"`).
struct Sketch {
    cells: [[Option<&'static str>; 9]; 9],
    /// The defender's (White's) king, `(rank, column)`.
    king: (usize, usize),
}

const BLACK_PIECES: [&str; 13] = [
    "P", "L", "N", "S", "G", "B", "R", "+P", "+L", "+N", "+S", "+B", "+R",
];
const WHITE_PIECES: [&str; 13] = [
    "p", "l", "n", "s", "g", "b", "r", "+p", "+l", "+n", "+s", "+b", "+r",
];
const HAND_LETTERS: [char; 7] = ['R', 'B', 'G', 'S', 'N', 'L', 'P'];

/// Whether `token` may stand on `rank` (pawns, lances and knights need a square to move to).
fn can_stand(token: &str, rank: usize) -> bool {
    match token {
        "P" | "L" => rank >= 1,
        "N" => rank >= 2,
        "p" | "l" => rank <= 7,
        "n" => rank <= 6,
        _ => true,
    }
}

impl Sketch {
    /// A White king, mostly near the top edge, 2 to 5 Black pieces (most within three squares of the
    /// king) and up to 3 White ones around it.
    fn random(rng: &mut Rng) -> Sketch {
        let king = (*rng.pick(&[0, 0, 0, 1, 1, 2, 3, 4]), rng.below(9));
        let mut s = Sketch {
            cells: [[None; 9]; 9],
            king,
        };
        s.cells[king.0][king.1] = Some("k");
        for _ in 0..2 + rng.below(4) {
            let sq = if rng.chance(1, 4) {
                (rng.below(9), rng.below(9))
            } else {
                s.near_king(rng)
            };
            s.put(sq, BLACK_PIECES[rng.below(BLACK_PIECES.len())]);
        }
        for _ in 0..rng.below(4) {
            let sq = s.near_king(rng);
            s.put(sq, WHITE_PIECES[rng.below(WHITE_PIECES.len())]);
        }
        s
    }

    fn near_king(&self, rng: &mut Rng) -> (usize, usize) {
        let step = |c: usize, d: usize| (c + d).saturating_sub(3).min(8);
        (
            step(self.king.0, rng.below(7)),
            step(self.king.1, rng.below(7)),
        )
    }

    /// Puts `token` on an empty square where it can stand; otherwise leaves the board as it is.
    fn put(&mut self, (rank, col): (usize, usize), token: &'static str) {
        if self.cells[rank][col].is_none() && can_stand(token, rank) {
            self.cells[rank][col] = Some(token);
        }
    }

    /// Adds a Black king on an empty square at least three squares from White's, which turns the
    /// position into a game position (hands taken as written). False when no square was found.
    fn add_black_king(&mut self, rng: &mut Rng) -> bool {
        for _ in 0..50 {
            let (rank, col) = (5 + rng.below(4), rng.below(9));
            let far = rank.abs_diff(self.king.0).max(col.abs_diff(self.king.1)) >= 3;
            if far && self.cells[rank][col].is_none() {
                self.cells[rank][col] = Some("K");
                return true;
            }
        }
        false
    }

    /// The board field of a SFEN.
    fn board(&self) -> String {
        let ranks: Vec<String> = self.cells.iter().map(|row| rank_text(row)).collect();
        ranks.join("/")
    }
}

/// One rank of a SFEN board from its squares, file 9 first: runs of empty squares become digits.
fn rank_text<S: AsRef<str>>(squares: &[Option<S>]) -> String {
    let mut out = String::new();
    let mut empty = 0;
    for sq in squares {
        match sq {
            None => empty += 1,
            Some(token) => {
                if empty > 0 {
                    out += &empty.to_string();
                    empty = 0;
                }
                out += token.as_ref();
            }
        }
    }
    if empty > 0 {
        out += &empty.to_string();
    }
    out
}

/// A hand: how many of each of `HAND_LETTERS`.
type Hand = [u32; 7];

/// A random hand of up to `max` pieces.
fn random_hand(rng: &mut Rng, max: usize) -> Hand {
    let mut hand = [0; 7];
    for _ in 0..rng.below(max + 1) {
        hand[rng.below(7)] += 1;
    }
    hand
}

/// A hand in SFEN letters: upper case for Black, lower case for White; empty for no piece.
fn hand_text(hand: &Hand, black: bool) -> String {
    let mut out = String::new();
    for (&letter, &n) in HAND_LETTERS.iter().zip(hand) {
        if n > 1 {
            out += &n.to_string();
        }
        if n > 0 {
            out.push(if black {
                letter
            } else {
                letter.to_ascii_lowercase()
            });
        }
    }
    out
}

/// A SFEN with Black to move; `black_hand` upper case, `white_hand` lower case.
fn sfen(board: &str, black_hand: &str, white_hand: &str) -> String {
    let hands = format!("{black_hand}{white_hand}");
    let hands = if hands.is_empty() { "-" } else { &hands };
    format!("{board} b {hands} 1")
}

/// The same position seen from the other side: board turned round, colours and side to move swapped.
/// Used to make White the attacker.
fn swap_colours(sfen: &str) -> String {
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    let swap_case = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let ranks: Vec<String> = fields[0]
        .split('/')
        .rev()
        .map(|rank| {
            // Expand into one token per square, reverse, and compress again.
            let mut squares: Vec<Option<String>> = vec![];
            let mut promoted = false;
            for c in rank.chars() {
                if let Some(n) = c.to_digit(10) {
                    squares.extend((0..n).map(|_| None));
                } else if c == '+' {
                    promoted = true;
                } else {
                    let token = if promoted { format!("+{c}") } else { c.into() };
                    squares.push(Some(swap_case(&token)));
                    promoted = false;
                }
            }
            squares.reverse();
            rank_text(&squares)
        })
        .collect();
    let side = if fields[1] == "b" { "w" } else { "b" };
    let hands = if fields[2] == "-" {
        "-".to_string()
    } else {
        swap_case(fields[2])
    };
    format!("{} {side} {hands} 1", ranks.join("/"))
}

/// A random tsume problem: White king, a few pieces, a Black hand, Black to move without a king, White
/// not in check. White holds the rest of the set (`problem_position`).
fn random_tsume(rng: &mut Rng) -> (String, Position) {
    loop {
        let sketch = Sketch::random(rng);
        let text = sfen(&sketch.board(), &hand_text(&random_hand(rng, 4), true), "");
        if let Ok(pos) = Position::from_sfen(&text)
            && pos.validate_mate_problem().is_ok()
        {
            return (text, pos);
        }
    }
}

// ---- the random sweep -----------------------------------------------------------------------------

/// Counts for the summary line.
#[derive(Debug, Default)]
struct Tally {
    positions: u32,
    /// Solver and brute force agree on a mate.
    mates: u32,
    /// Solver says no mate; the brute force finds none within its depth (or proves none).
    no_mates: u32,
    /// Of `no_mates`, proven by the brute force too.
    proven_no_mates: u32,
    /// Solver mate longer than the brute force's depth, brute force inconclusive: nothing to compare.
    long_mates: u32,
    timeouts: u32,
    brute_gave_up: u32,
}

impl Tally {
    fn add(&mut self, outcome: &MateOutcome, truth: Truth) {
        self.positions += 1;
        match (outcome, truth) {
            (_, Truth::GaveUp) => self.brute_gave_up += 1,
            (MateOutcome::Timeout, _) => self.timeouts += 1,
            (MateOutcome::Mate(_), Truth::Mate(_)) => self.mates += 1,
            (MateOutcome::Mate(_), _) => self.long_mates += 1,
            (MateOutcome::NoMate, truth) => {
                self.no_mates += 1;
                self.proven_no_mates += u32::from(truth == Truth::NoMate);
            }
        }
    }
}

/// `count` random tsume problems from `seed`: the solver (under `nodes`) against the brute force to
/// `depth` plies. Panics with every disagreement.
fn sweep(seed: u64, count: u32, depth: u32, nodes: u64) {
    let mut rng = Rng::new(seed);
    // Small table: `clear()` runs before every position and a search of these sizes fits.
    let mut solver = Solver::new(4);
    let limits = limits(nodes);
    let mut tally = Tally::default();
    let mut failures = vec![];
    let (mut solver_time, mut brute_time) = (Duration::ZERO, Duration::ZERO);
    while tally.positions < count {
        let (text, root) = random_tsume(&mut rng);
        solver.clear();
        let t0 = Instant::now();
        let outcome = solve(&mut solver, &root, &limits);
        let t1 = Instant::now();
        let truth = BruteForce::solve(&root, depth, BRUTE_BUDGET);
        solver_time += t1 - t0;
        brute_time += t1.elapsed();
        if let Some(why) = judge(&root, &outcome, truth) {
            failures.push(failure(&text, &outcome, truth, &why));
        }
        tally.add(&outcome, truth);
    }
    eprintln!(
        "seed {seed}, depth {depth}: {tally:?}; solver {solver_time:.1?}, brute force {brute_time:.1?}"
    );
    assert!(
        failures.is_empty(),
        "{} of {count} positions disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Guard against a sweep that compares nothing (a generator or limit gone wrong).
    assert!(
        tally.mates >= count / 10 && tally.no_mates >= count / 10,
        "too few positions decided: {tally:?}"
    );
}

/// 400 random tsume problems, brute force to depth 7, solver limited to 50 000 nodes: about five
/// seconds in release.
#[test]
fn random_tsume_agree_with_brute_force() {
    on_big_stack(|| sweep(1, 400, 7, 50_000));
}

/// The long run, another seed and a larger node limit: `cargo test --release --test differential --
/// --ignored`.
#[test]
#[ignore]
fn random_tsume_agree_with_brute_force_5000() {
    on_big_stack(|| sweep(2, 5000, 7, 200_000));
}

// ---- table reuse ----------------------------------------------------------------------------------

/// One position solved twice: by a fresh solver, and by one that has just solved `after`.
struct Reused {
    sfen: String,
    /// The SFEN solved first with the same table.
    after: String,
    fresh: MateOutcome,
    reused: MateOutcome,
    truth: Truth,
}

impl Reused {
    /// Everything wrong with the two answers: either against the brute force, or the reused one
    /// deciding the other way from the fresh one.
    fn problems(&self) -> Vec<String> {
        let root = position(&self.sfen);
        let mut out = vec![];
        let mut report = |outcome: &MateOutcome, why: String| {
            out.push(failure(&self.sfen, outcome, self.truth, &why));
        };
        if let Some(why) = judge(&root, &self.fresh, self.truth) {
            report(&self.fresh, format!("{why} (fresh table)"));
        }
        if let Some(why) = judge(&root, &self.reused, self.truth) {
            report(&self.reused, format!("{why} (after {})", self.after));
        }
        let decided = |o: &MateOutcome| !matches!(o, MateOutcome::Timeout);
        let kind = std::mem::discriminant::<MateOutcome>;
        if decided(&self.reused) && decided(&self.fresh) && kind(&self.reused) != kind(&self.fresh)
        {
            let why = format!(
                "a fresh solver says {} (reused after {})",
                Answer(&self.fresh),
                self.after
            );
            report(&self.reused, why);
        }
        out
    }

    /// Panics with every problem.
    fn assert_sound(&self) {
        let problems = self.problems();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}

/// Solves `a` then `b` with one solver and `b` then `a` with another, without `clear()` in between:
/// the first solve of each order is the fresh answer for the other order's second. The brute force
/// searches both to `depth` plies. Returns `b` after `a`, and `a` after `b`.
fn reuse_pair(a: &str, b: &str, depth: u32, limits: &SearchLimits) -> [Reused; 2] {
    let run = |first: &str, second: &str| {
        let mut solver = Solver::new(16);
        let fresh = solve(&mut solver, &position(first), limits);
        let reused = solve(&mut solver, &position(second), limits);
        (fresh, reused)
    };
    let (fresh_a, b_after_a) = run(a, b);
    let (fresh_b, a_after_b) = run(b, a);
    let truth = |text: &str| BruteForce::solve(&position(text), depth, BRUTE_BUDGET);
    [
        Reused {
            sfen: b.into(),
            after: a.into(),
            fresh: fresh_b,
            reused: b_after_a,
            truth: truth(b),
        },
        Reused {
            sfen: a.into(),
            after: b.into(),
            fresh: fresh_a,
            reused: a_after_b,
            truth: truth(a),
        },
    ]
}

fn position(text: &str) -> Position {
    Position::from_sfen(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The two reproductions found by hand: a proof or disproof learnt with one defender hand was reused
/// for another (game positions, so the hands are as written).
#[test]
fn table_reuse_known_cases() {
    on_big_stack(|| {
        let limits = limits(2_000_000);
        // White holding a gold refutes everything; without it G*2c mates in three (G*2c 2b1a B*2b;
        // 2b3a is as long, so only the first move and the length are pinned down).
        let with_gold = "9/6Bk1/9/9/9/9/9/9/K8 b BGg 1";
        let without = "9/6Bk1/9/9/9/9/9/9/K8 b BG 1";
        let [without_after, with_after] = reuse_pair(with_gold, without, 7, &limits);
        assert_eq!(without_after.truth, Truth::Mate(3), "{without}");
        assert!(!matches!(with_after.truth, Truth::Mate(_)), "{with_gold}");
        match &without_after.reused {
            MateOutcome::Mate(line) if line.len() == 3 && line[0].to_usi() == "G*2c" => {}
            other => panic!("{without} after {with_gold}: {}", Answer(other)),
        }
        without_after.assert_sound();
        with_after.assert_sound();

        // The other way round: a knight in White's hand turns a mate in 11 into no mate within 25
        // plies (the brute force's two seconds go there). The table used to hand back a 13-ply line
        // whose defence ignores N*6b.
        let bare = "1kS1R4/9/9/2S6/2L6/9/9/8L/K8 b - 1";
        let knight = "1kS1R4/9/9/2S6/2L6/9/9/8L/K8 b n 1";
        let [knight_after, bare_after] = reuse_pair(bare, knight, 25, &limits);
        assert_eq!(knight_after.truth, Truth::NoMateWithin(25), "{knight}");
        assert_eq!(bare_after.truth, Truth::Mate(11), "{bare}");
        assert!(
            !matches!(knight_after.reused, MateOutcome::Mate(_)),
            "{knight} after {bare}: {}",
            Answer(&knight_after.reused)
        );
        knight_after.assert_sound();
        bare_after.assert_sound();
    });
}

/// Game positions that share a board: mostly the same attacker hand with two defender hands, one the
/// other plus a piece or two (the extra piece is what a disproof may rest on); otherwise the same hands
/// with the other side to move (the attacker's colour swapped). Returns the two SFENs.
fn random_pair(rng: &mut Rng) -> (String, String) {
    loop {
        let mut sketch = Sketch::random(rng);
        if !sketch.add_black_king(rng) {
            continue;
        }
        let board = sketch.board();
        let attacker = hand_text(&random_hand(rng, 3), true);
        let small = random_hand(rng, 1);
        let (a, b) = if rng.chance(1, 4) {
            let text = sfen(&board, &attacker, &hand_text(&small, false));
            let other = text.replacen(" b ", " w ", 1);
            (text, other)
        } else {
            let mut big = small;
            for _ in 0..1 + rng.below(2) {
                big[rng.below(7)] += 1;
            }
            let a = sfen(&board, &attacker, &hand_text(&small, false));
            let b = sfen(&board, &attacker, &hand_text(&big, false));
            // Half of the time White attacks: the same pair seen from the other side.
            if rng.chance(1, 2) {
                (swap_colours(&a), swap_colours(&b))
            } else {
                (a, b)
            }
        };
        let ok = |t: &str| Position::from_sfen(t).is_ok_and(|p| p.validate_mate_problem().is_ok());
        if ok(&a) && ok(&b) {
            return (a, b);
        }
    }
}

/// `count` random pairs from `seed`, each solved in both orders with a reused table. Panics with every
/// disagreement.
fn reuse_sweep(seed: u64, count: u32, depth: u32, nodes: u64) {
    let mut rng = Rng::new(seed);
    let limits = limits(nodes);
    let mut failures = vec![];
    let mut tally = Tally::default();
    let start = Instant::now();
    for _ in 0..count {
        let (a, b) = random_pair(&mut rng);
        for r in reuse_pair(&a, &b, depth, &limits) {
            failures.extend(r.problems());
            tally.add(&r.reused, r.truth);
        }
    }
    eprintln!(
        "reuse seed {seed}, depth {depth}: {tally:?}; {:.1?}",
        start.elapsed()
    );
    assert!(
        failures.is_empty(),
        "{} disagreements in {} pairs:\n{}",
        failures.len(),
        count,
        failures.join("\n")
    );
    assert!(
        tally.mates >= count / 10 && tally.no_mates >= count / 10,
        "too few positions decided: {tally:?}"
    );
}

/// 120 random pairs in both orders (480 solves), brute force to depth 7: about five seconds in
/// release. Reuse bugs show up in a fraction of a percent of pairs, so this is a smoke test; the
/// known cases above are the deterministic ones.
#[test]
fn table_reuse_random_pairs() {
    on_big_stack(|| reuse_sweep(3, 120, 7, 100_000));
}

/// The long run of pairs (8000 solves).
#[test]
#[ignore]
fn table_reuse_random_pairs_2000() {
    on_big_stack(|| reuse_sweep(4, 2000, 7, 100_000));
}

// ---- the brute force itself -----------------------------------------------------------------------

/// The brute force on positions whose answers are known by hand, so that a broken oracle cannot pass
/// the sweeps by agreeing with a broken solver.
#[test]
fn brute_force_sanity() {
    let truth = |text: &str, depth| BruteForce::solve(&position(text), depth, 1_000_000);
    // White's king on 1a is walled in by its own lance and pawn; the gold on 1c guards 1b.
    assert_eq!(truth("7lk/7p1/8G/9/9/9/9/9/K8 b R 1", 7), Truth::Mate(1));
    // The same with a pawn in hand: P*1b would be mate by a pawn drop, which is illegal.
    assert_ne!(truth("7lk/7p1/8G/9/9/9/9/9/K8 b P 1", 1), Truth::Mate(1));
    // Nothing can ever give check.
    assert_eq!(truth("8k/9/9/9/9/9/9/9/K8 b - 1", 7), Truth::NoMate);
    // The reproductions above: G*2c mates in three without White's gold, not with it.
    assert_eq!(truth("9/6Bk1/9/9/9/9/9/9/K8 b BG 1", 7), Truth::Mate(3));
    assert!(!matches!(
        truth("9/6Bk1/9/9/9/9/9/9/K8 b BGg 1", 7),
        Truth::Mate(_)
    ));
    // A tsume problem: White holds the rest of the set, so R*9e no longer mates (pawns interpose).
    assert_ne!(truth("kl7/1p7/9/9/9/9/9/9/9 b R 1", 1), Truth::Mate(1));
    assert_eq!(truth("kl7/1p7/9/9/9/9/9/9/8K b R 1", 1), Truth::Mate(1));
}

/// The colour swap used for White-attacker pairs is an involution and keeps positions legal.
#[test]
fn swap_colours_round_trips() {
    let text = "1kS1R4/9/9/2S6/2L3+p2/9/9/8L/K8 b 2Pn 1";
    let swapped = swap_colours(text);
    assert_eq!(swapped, "8k/l8/9/9/2+P3l2/6s2/9/9/4r1sK1 w 2pN 1");
    assert!(Position::from_sfen(&swapped).is_ok());
    assert_eq!(swap_colours(&swapped), text);
}
