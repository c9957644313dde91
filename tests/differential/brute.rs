//! The oracle: a memoised exhaustive AND/OR search of "mate within n plies" (`BruteForce`), and its
//! own tests on positions whose answers are known without it.
//!
//! It shares nothing with the solver but `Position`, its legal-move generator (checked against the
//! `shunsai` crate in `tests/movegen/`) and `problem_position` (who holds the pieces off the board):
//! attacker moves are the legal moves after which the defender is in check (not `generate_checks`),
//! defender moves are all legal moves (not `generate_evasions`), a position where the defender has no
//! legal move is mate, and a pawn drop that leaves the defender no legal move is no move at all (checked
//! here, not trusted to the move generator). No proof numbers, no proof or disproof hands, no table
//! shared between positions: the memo is keyed on the whole position (board, both hands, side to move).
//!
//! It ignores repetition, which is sound for what it reports: a forced mate within n has a strategy
//! that shortens the distance to mate every move, so it never repeats a position and is a mate under
//! any repetition rule too, of the same minimax length; and a refutation that never needed the horizon
//! ("no mate at all") only gets stronger when repetitions count against the attacker.
//!
//! `Truth::Mate(n)` is the exact minimax length: iterative deepening over the odd lengths, the first
//! `n` with a forced mate within `n` plies, every legal defence counted (no futile-interposition
//! rule); `solve_canonical` plays the canonical game instead (`futile_drop`), and `canonical_game`
//! with `spare` the spare game on top of it (a mate counts only with a piece left in hand).
//!
//! Its tests (rules, and 5- and 7-ply minimax lengths whose longest defence is not the first reply
//! generated) take well under a second.

use crate::position;
use kanju::position::movegen::{MoveList, generate_legal};
use kanju::position::{PieceKind, Position, Square};
use kanju::search::problem_position;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Brute-force nodes per position: enough for depth 7 on nearly every random position.
pub const BRUTE_BUDGET: u64 = 2_000_000;

/// What the brute force found about a root position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Truth {
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
pub struct BruteForce {
    memo: HashMap<u64, Memo, BuildHasherDefault<KeyHasher>>,
    nodes: u64,
    budget: u64,
    /// The canonical game: futile drop interpositions are no defence (`futile_drop`).
    canonical: bool,
    /// This instance plays the spare game: a mated defender counts only while the attacker holds a
    /// piece (an exact mate is a refutation, `Never`).
    spare_game: bool,
}

/// Raised through the recursion when the node budget runs out.
struct OutOfBudget;

impl BruteForce {
    fn new(budget: u64) -> BruteForce {
        BruteForce {
            memo: HashMap::default(),
            nodes: 0,
            budget,
            canonical: false,
            spare_game: false,
        }
    }

    /// A brute force of the canonical game (futile drops are no defence, a defender left with only
    /// them is mated), kept across positions (its memo holds for any position); with `spare`, of
    /// the spare game on top (a mate counts only with a piece left in the attacker's hand).
    pub fn canonical_game(spare: bool, budget: u64) -> BruteForce {
        let mut bf = BruteForce::new(budget);
        bf.canonical = true;
        bf.spare_game = spare;
        bf
    }

    /// The attacker to move in `pos` (pieces already distributed): its shortest mate of at most
    /// `max_plies` in this instance's game.
    pub fn value(&mut self, pos: &Position, max_plies: u32) -> Truth {
        self.deepen(pos, max_plies)
    }

    /// `solve` in the canonical game: a defender's drop that `futile_drop` calls futile is no
    /// defence, and a defender left with futile drops only is mated.
    pub fn solve_canonical(root: &Position, max_plies: u32, budget: u64) -> Truth {
        let mut bf = BruteForce::new(budget);
        bf.canonical = true;
        bf.deepen(root, max_plies)
    }

    /// The shortest mate of at most `max_plies` (odd) in `problem_position(root)`, by iterative
    /// deepening over the odd lengths (the memo carries over from one depth to the next).
    pub fn solve(root: &Position, max_plies: u32, budget: u64) -> Truth {
        BruteForce::new(budget).deepen(root, max_plies)
    }

    fn deepen(&mut self, root: &Position, max_plies: u32) -> Truth {
        let mut pos = problem_position(root);
        let bf = self;
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

    /// Defender to move in `pos` (after an attacker's check, pieces already distributed): is it mated
    /// within `plies`? `None` if the budget ran out.
    pub fn mated_within(pos: &Position, plies: u32, budget: u64) -> Option<bool> {
        let mut bf = BruteForce::new(budget);
        match bf.defender(&mut pos.clone(), plies as i32) {
            Err(OutOfBudget) => None,
            Ok(v) => Some(v == Verdict::Mate),
        }
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
            let child = if !pos.in_check() || pawn_drop_mate(pos, m) {
                // Not a check, or a pawn drop that mates (illegal): not an attacker move at all.
                Ok(Verdict::Never)
            } else {
                self.defender(pos, plies - 1)
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
        let mut all = MoveList::new();
        generate_legal(pos, &mut all);
        let mut list = MoveList::new();
        for &m in all.iter() {
            if !(self.canonical && futile_drop(pos, m)) {
                list.push(m);
            }
        }
        if list.is_empty() {
            if self.spare_game && pos.hand(pos.side_to_move().flip()).is_empty() {
                // Mated with nothing in hand: no spare mate, at any depth.
                return Ok(self.remember(pos, plies, Verdict::Never));
            }
            return Ok(self.remember(pos, plies, Verdict::Mate));
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

/// The futile-interposition rule, written here from its statement in kanju's README (not from the
/// solver's code): the defender, in check from one piece, drops a piece (every drop in check is an
/// interposition between a distant checker and the king); it is futile when the checking piece can
/// capture it with a check (a legal move from its square to the drop's, promoting or not) after which
/// every legal move of the defender is a drop (none at all: mate).
pub(crate) fn futile_drop(pos: &mut Position, m: kanju::position::Move) -> bool {
    if !m.is_drop() {
        return false;
    }
    let checkers = pos.checkers();
    if checkers.is_empty() || checkers.has_more_than_one() {
        return false;
    }
    let checker = checkers.first();
    pos.do_move(m);
    let mut captures = MoveList::new();
    generate_legal(pos, &mut captures);
    let mut futile = false;
    for &c in captures
        .iter()
        .filter(|c| !c.is_drop() && c.from() == checker && c.to() == m.to())
    {
        pos.do_move(c);
        if pos.in_check() {
            let mut replies = MoveList::new();
            generate_legal(pos, &mut replies);
            futile = replies.iter().all(|r| r.is_drop());
        }
        pos.undo_move(c);
        if futile {
            break;
        }
    }
    pos.undo_move(m);
    futile
}

/// Whether `m`, just played and checking, is a pawn drop that leaves the defender no legal move (the
/// pawn-drop-mate rule makes it illegal). Decided here rather than in the memo: the same position can
/// be reached by a pawn push, where it is a legal mate.
pub(crate) fn pawn_drop_mate(pos: &Position, m: kanju::position::Move) -> bool {
    if !(m.is_drop() && m.drop_kind() == PieceKind::Pawn) {
        return false;
    }
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    list.is_empty()
}

/// Whether a drop on `to` could give check to a king on `king` at all: only from next to it, a knight's
/// jump away, or in line with it (lance, bishop, rook). A geometric bound that spares playing the
/// dozens of far-away drops just to see that they do not check; `in_check` still decides.
fn drop_may_check(to: Square, king: Square) -> bool {
    let df = to.file().abs_diff(king.file());
    let dr = to.rank().abs_diff(king.rank());
    (df <= 2 && dr <= 2) || df == 0 || dr == 0 || df == dr
}

// ---- the brute force on positions whose answers are known without it ------------------------------

fn truth(text: &str, depth: u32) -> Truth {
    BruteForce::solve(&position(text), depth, 1_000_000)
}

/// Hand-checked rules and short mates, so that a broken oracle cannot pass the sweeps by agreeing with
/// a broken solver.
#[test]
fn brute_force_rules() {
    // White's king on 1a is walled in by its own lance and pawn; the gold on 1c guards 1b.
    assert_eq!(truth("7lk/7p1/8G/9/9/9/9/9/K8 b R 1", 7), Truth::Mate(1));
    // The same with a pawn in hand: P*1b would be mate by a pawn drop, which is illegal.
    assert_eq!(
        truth("7lk/7p1/8G/9/9/9/9/9/K8 b P 1", 1),
        Truth::NoMateWithin(1)
    );
    // The pawn pushed from 1c to 1b instead is a legal mate (the same final position as P*1b, reached
    // by a move the rule allows). The gold moves to 2c so that 1b stays guarded.
    assert_eq!(truth("7lk/9/7GP/9/9/9/9/9/K8 b - 1", 1), Truth::Mate(1));
    // Nothing can ever give check.
    assert_eq!(truth("8k/9/9/9/9/9/9/9/K8 b - 1", 7), Truth::NoMate);
    // G*2c mates in three without White's gold (G*2c 2b1a B*2b), not with it (it interposes).
    assert_eq!(truth("9/6Bk1/9/9/9/9/9/9/K8 b BG 1", 7), Truth::Mate(3));
    assert!(!matches!(
        truth("9/6Bk1/9/9/9/9/9/9/K8 b BGg 1", 7),
        Truth::Mate(_)
    ));
    // A tsume problem: White holds the rest of the set, so R*9e no longer mates (pawns interpose).
    assert_eq!(
        truth("kl7/1p7/9/9/9/9/9/9/9 b R 1", 1),
        Truth::NoMateWithin(1)
    );
    assert_eq!(truth("kl7/1p7/9/9/9/9/9/9/8K b R 1", 1), Truth::Mate(1));
}

/// The position after `moves` (USI) from `sfen`.
fn after(sfen: &str, moves: &str) -> Position {
    position(&format!("sfen {sfen} moves {moves}"))
}

/// Checks the brute force on a mate whose minimax length `n` is known without it, and whose longest
/// defence to the first move `first` is not the reply the move generator lists first: `quick` (listed
/// first) is mated `quick_rest` plies sooner, `longest` lasts the full `n - 2`. A brute force that
/// settled for the first defence, or stopped deepening too soon, would come out short here.
fn check_longest_defence(
    sfen: &str,
    n: u32,
    first: &str,
    (quick, quick_rest): (&str, u32),
    longest: &str,
) {
    let root = position(sfen);
    assert_eq!(truth(sfen, n), Truth::Mate(n), "{sfen}");
    assert_eq!(
        BruteForce::solve(&root, n - 2, 1_000_000),
        Truth::NoMateWithin(n - 2),
        "{sfen}"
    );
    let mut replies = MoveList::new();
    generate_legal(&after(sfen, first), &mut replies);
    assert_eq!(
        replies[0].to_usi(),
        quick,
        "{sfen} {first}: first reply listed"
    );
    let rest =
        |reply: &str| BruteForce::solve(&after(sfen, &format!("{first} {reply}")), n, 1_000_000);
    assert_eq!(
        rest(quick),
        Truth::Mate(quick_rest),
        "{sfen} {first} {quick}"
    );
    assert_eq!(
        rest(longest),
        Truth::Mate(n - 2),
        "{sfen} {first} {longest}"
    );
}

/// Minimax lengths of 5 and 7 plies, from `tests/data/tanuki.tsv` (rows `tanuki-m5-38` and
/// `tanuki-m7-122`, tsume problems with White holding the rest; the lengths are the file's, from an
/// exhaustive search of its own). The mating lines below were checked by hand:
/// * 5 plies: 1d3d, a rook check up the 3-file. 3a2a, listed first, is mated at once by 3d3b+ (the
///   dragon checks diagonally; it and the rook on 1b guard each other along the b rank and cover 1a,
///   2b, 3a); 3a4a lasts longer: 3d3b+ 4a5a 3b5b.
/// * 7 plies: L*1g, a lance check up the 1-file. 1e2d, listed first, is mated at once by G*2e (the
///   bishop on 1d guards the gold, the silver on 2b covers 1c and 3c); 1e2f lasts longer: 6c3f+ 2f1g
///   (taking the lance) G*1h 1g1f 3f2e.
#[test]
fn brute_force_minimax_lengths() {
    check_longest_defence(
        "6k2/8R/9/8R/9/9/9/9/9 b 2b4g4s4n4l18p 1",
        5,
        "1d3d",
        ("3a2a", 1),
        "3a4a",
    );
    check_longest_defence(
        "9/7S1/3B5/8B/8k/9/9/9/9 b GL2r3g3s4n3l18p 1",
        7,
        "L*1g",
        ("1e2d", 1),
        "1e2f",
    );
}
