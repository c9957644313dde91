//! Seeded random positions: single problems in both conventions, and pairs of problems on one board
//! for the table-reuse tests. Positions are written as SFEN text from a sketch of the board (no engine
//! code builds them); the engine's parser then refuses the illegal ones (two pawns on a file, the
//! defender in check, too many pieces), which are drawn again. The sweeps assert that what comes out is
//! worth comparing (shares of mates by length, of no-mates, of White attacking, of pairs built around a
//! lone defender piece), so a generator gone wrong fails them.

use crate::common::Rng;
use kanju::position::Position;

/// Who holds the pieces that are not on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    /// A tsume problem: no attacker king; the attacker's hand is as written and the defender holds
    /// every other piece (`problem_position`).
    Tsume,
    /// A game position: both kings on the board, both hands exactly as written.
    Game,
}

/// A board being built: `cells[rank][column]`, rank 0 = `a`, column 0 = file 9 (SFEN order); each cell
/// a SFEN piece token (`"+R"`, `"g"`).
pub struct Sketch {
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

const BLACK_SLIDERS: [&str; 5] = ["R", "B", "L", "+R", "+B"];

/// The kinds a hand holds, in SFEN order, and how many of each a full set has.
pub const HAND_LETTERS: [char; 7] = ['R', 'B', 'G', 'S', 'N', 'L', 'P'];
const SET: Hand = [2, 2, 4, 4, 4, 4, 18];

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
    /// A White king, mostly near the top edge, 3 to 6 Black pieces (most within three squares of the
    /// king) and up to 3 White ones around it.
    pub fn random(rng: &mut Rng) -> Sketch {
        let king = (*rng.pick(&[0, 0, 0, 1, 1, 2, 3, 4]), rng.below(9));
        let mut s = Sketch {
            cells: [[None; 9]; 9],
            king,
        };
        s.cells[king.0][king.1] = Some("k");
        for _ in 0..3 + rng.below(4) {
            let sq = if rng.chance(1, 6) {
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

    /// A White king in the top three ranks, most of its neighbours taken by its own pieces, one or two
    /// Black sliders anywhere (to check down a line the walls leave open), up to two Black pieces near
    /// the king, and half of the time a Black pawn on the king's file (no Black pawn drop there). The
    /// shape where the defender's only answer is often a drop, and what follows it does not depend on
    /// how many of that kind the attacker holds.
    pub fn walled(rng: &mut Rng) -> Sketch {
        let king = (rng.below(3), rng.below(9));
        let mut s = Sketch {
            cells: [[None; 9]; 9],
            king,
        };
        s.cells[king.0][king.1] = Some("k");
        for dr in -1..=1_i32 {
            for dc in -1..=1_i32 {
                let (r, c) = (king.0 as i32 + dr, king.1 as i32 + dc);
                if (0..9).contains(&r) && (0..9).contains(&c) && rng.chance(2, 3) {
                    s.put((r as usize, c as usize), WHITE_PIECES[rng.below(13)]);
                }
            }
        }
        for _ in 0..1 + rng.below(2) {
            let sq = (rng.below(9), rng.below(9));
            s.put(sq, BLACK_SLIDERS[rng.below(BLACK_SLIDERS.len())]);
        }
        for _ in 0..rng.below(3) {
            let sq = s.near_king(rng);
            s.put(sq, BLACK_PIECES[rng.below(BLACK_PIECES.len())]);
        }
        if rng.chance(1, 2) {
            s.put((rng.below(9), king.1), "P");
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
    pub fn add_black_king(&mut self, rng: &mut Rng) -> bool {
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
    pub fn board(&self) -> String {
        let ranks: Vec<String> = self.cells.iter().map(|row| rank_text(row)).collect();
        ranks.join("/")
    }

    /// How many pieces of each hand kind (promoted ones as their base kind, both colours) the board
    /// holds, in `HAND_LETTERS` order.
    fn material(&self) -> Hand {
        let mut counts = [0; 7];
        for token in self.cells.iter().flatten().flatten() {
            let letter = token.trim_start_matches('+').to_ascii_uppercase();
            if let Some(i) = HAND_LETTERS.iter().position(|&c| letter == c.to_string()) {
                counts[i] += 1;
            }
        }
        counts
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
pub type Hand = [u32; 7];

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

/// A SFEN with Black to move, Black holding `black` and White `white`.
fn sfen(board: &str, black: &Hand, white: &Hand) -> String {
    let hands = format!("{}{}", hand_text(black, true), hand_text(white, false));
    let hands = if hands.is_empty() { "-" } else { &hands };
    format!("{board} b {hands} 1")
}

/// The same position seen from the other side: board turned round, colours and side to move swapped.
/// Used to make White the attacker.
pub fn swap_colours(sfen: &str) -> String {
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

/// Whether the engine takes `text` as a mate problem: a legal position whose defender has a king.
fn accepted(text: &str) -> bool {
    Position::from_sfen(text).is_ok_and(|p| p.validate_mate_problem().is_ok())
}

/// White attacks in about one problem of three: the same kind of position seen from the other side.
fn maybe_swap<const N: usize>(rng: &mut Rng, texts: [String; N]) -> [String; N] {
    if rng.chance(1, 3) {
        texts.map(|t| swap_colours(&t))
    } else {
        texts
    }
}

// ---- single problems ------------------------------------------------------------------------------

/// A random problem in `convention`: a White king, a few pieces, an attacker hand of 1 to 4 pieces
/// and, in a game position, a Black king and a defender hand of up to 2. About one in three is turned
/// round so that White attacks.
pub fn random_problem(rng: &mut Rng, convention: Convention) -> String {
    loop {
        let mut sketch = Sketch::random(rng);
        let mut attacker = random_hand(rng, 3);
        attacker[rng.below(7)] += 1;
        let defender = match convention {
            Convention::Tsume => [0; 7],
            Convention::Game if sketch.add_black_king(rng) => random_hand(rng, 2),
            Convention::Game => continue,
        };
        let [text] = maybe_swap(rng, [sfen(&sketch.board(), &attacker, &defender)]);
        if accepted(&text) {
            return text;
        }
    }
}

// ---- pairs on one board ---------------------------------------------------------------------------

/// What two positions of a reuse pair have in common, and what tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PairKind {
    /// Game positions, same attacker hand; the second defender hand is the first plus a piece or two.
    /// Different total material: the table's salt keeps them apart.
    DefenderGains,
    /// Game positions, same hands, the other side to move (the attacker's colour swapped).
    OtherAttacker,
    /// Tsume problems, same board and total material, attacker hands that differ by one piece (the
    /// defender holds the rest, so it has that piece in one and not in the other).
    TsumeSplit,
    /// Game positions, same board and total material: one or two pieces moved from one hand to the
    /// other.
    GameSplit,
}

/// Two positions on one board.
#[derive(Clone, Debug)]
pub struct Pair {
    pub a: String,
    pub b: String,
    pub kind: PairKind,
    /// The kind of piece (SFEN letter) the defender holds exactly one of in one position and none of
    /// in the other, if the pair was built around one: the case of a refutation by the defender's drop.
    pub lone_defender_piece: Option<char>,
}

/// The pair kinds whose positions differ in total material or attacker colour (the table's salt keeps
/// their results apart): mostly the same attacker hand with two defender hands, one the other plus a
/// piece or two (the extra piece is what a disproof may rest on); otherwise the same hands with the
/// other side to move.
pub fn salted_pair(rng: &mut Rng) -> Pair {
    loop {
        let mut sketch = Sketch::random(rng);
        if !sketch.add_black_king(rng) {
            continue;
        }
        let board = sketch.board();
        let attacker = random_hand(rng, 3);
        let small = random_hand(rng, 1);
        let (texts, kind) = if rng.chance(1, 4) {
            let text = sfen(&board, &attacker, &small);
            let other = text.replacen(" b ", " w ", 1);
            ([text, other], PairKind::OtherAttacker)
        } else {
            let mut big = small;
            for _ in 0..1 + rng.below(2) {
                big[rng.below(7)] += 1;
            }
            let texts = [
                sfen(&board, &attacker, &small),
                sfen(&board, &attacker, &big),
            ];
            (maybe_swap(rng, texts), PairKind::DefenderGains)
        };
        if texts.iter().all(|t| accepted(t)) {
            let [a, b] = texts;
            return Pair {
                a,
                b,
                kind,
                lone_defender_piece: None,
            };
        }
    }
}

/// Two splits of the same material between the hands, on one board with one side to move: the table
/// salt is the same, so superiority applies from one to the other. In about two pairs of three the
/// split is built around one kind the defender holds exactly one of in one position and none of in
/// the other (a refutation by dropping it exists only in the first); otherwise one piece (tsume) or one
/// or two (game) change hands at random. Half are tsume problems, half game positions; about one in
/// three is turned round so that White attacks. Half of the game positions have a walled king
/// (`Sketch::walled`).
pub fn split_pair(rng: &mut Rng) -> Pair {
    loop {
        let tsume = rng.chance(1, 2);
        // Half of the game positions have the walled king (`Sketch::walled`).
        let mut sketch = if !tsume && rng.chance(1, 2) {
            Sketch::walled(rng)
        } else {
            Sketch::random(rng)
        };
        if !tsume && !sketch.add_black_king(rng) {
            continue;
        }
        let board = sketch.board();
        let on_board = sketch.material();
        let lone = rng.chance(2, 3);
        let Some((hands_a, hands_b, piece)) = (if tsume {
            tsume_split(rng, &on_board, lone)
        } else {
            game_split(rng, &on_board, lone)
        }) else {
            continue;
        };
        let texts = [
            sfen(&board, &hands_a[0], &hands_a[1]),
            sfen(&board, &hands_b[0], &hands_b[1]),
        ];
        // Either order is solved anyway; still, put either first in `a`.
        let texts = if rng.chance(1, 2) {
            texts
        } else {
            let [a, b] = texts;
            [b, a]
        };
        let texts = maybe_swap(rng, texts);
        if texts.iter().all(|t| accepted(t)) {
            let [a, b] = texts;
            let kind = if tsume {
                PairKind::TsumeSplit
            } else {
                PairKind::GameSplit
            };
            return Pair {
                a,
                b,
                kind,
                lone_defender_piece: piece,
            };
        }
    }
}

/// Black's and White's hands of the two positions of a split pair, and the lone defender piece.
type Split = ([Hand; 2], [Hand; 2], Option<char>);

/// Tsume split: White holds the rest, so only Black's hand is written. With `lone`, a kind k (not a
/// pawn) is picked and Black holds all of k but one in the first position (White holds one k), all of
/// them in the second (White none).
fn tsume_split(rng: &mut Rng, on_board: &Hand, lone: bool) -> Option<Split> {
    let mut a = random_hand(rng, 3);
    let mut b = a;
    let mut piece = None;
    if lone {
        let k = rng.below(6);
        let rest = SET[k].checked_sub(on_board[k] + 1)?;
        a[k] = rest;
        b[k] = rest + 1;
        piece = Some(HAND_LETTERS[k]);
    } else {
        // One more piece of a kind White holds.
        let k = rng.below(7);
        b[k] += 1;
    }
    let fits = |h: &Hand| (0..7).all(|k| on_board[k] + h[k] <= SET[k]);
    (fits(&a) && fits(&b)).then_some(([a, [0; 7]], [b, [0; 7]], piece))
}

/// Game split: both hands written. With `lone`, a kind k White does not hold is picked (a pawn half of
/// the time); Black holds at least one k, and in the second position one of them is White's instead.
fn game_split(rng: &mut Rng, on_board: &Hand, lone: bool) -> Option<Split> {
    let black = random_hand(rng, 3);
    // Around a lone piece, White often holds nothing else: no other drop can stand in for it.
    let white = if lone && rng.chance(1, 2) {
        [0; 7]
    } else {
        random_hand(rng, 2)
    };
    let (mut a, mut b) = ([black, white], [black, white]);
    let mut piece = None;
    if lone {
        // A pawn half of the time: its one checking square is often taken (or barred by a pawn on
        // the file), so a disproof that never needed the attacker's pawn count is a common shape.
        let k = if rng.chance(1, 2) { 6 } else { rng.below(7) };
        if white[k] > 0 {
            return None;
        }
        a[0][k] = a[0][k].max(1);
        b[0][k] = a[0][k] - 1;
        b[1][k] = 1;
        piece = Some(HAND_LETTERS[k]);
    } else {
        for _ in 0..1 + rng.below(2) {
            let k = rng.below(7);
            let (from, to) = if rng.chance(1, 2) { (0, 1) } else { (1, 0) };
            if b[from][k] == 0 {
                b[from][k] += 1; // create it in a's hand too, so the total stays equal
                a[from][k] += 1;
            }
            b[from][k] -= 1;
            b[to][k] += 1;
        }
    }
    let fits = |h: &[Hand; 2]| (0..7).all(|k| on_board[k] + h[0][k] + h[1][k] <= SET[k]);
    (a != b && fits(&a) && fits(&b)).then_some((a, b, piece))
}

#[test]
fn swap_colours_round_trips() {
    let text = "1kS1R4/9/9/2S6/2L3+p2/9/9/8L/K8 b 2Pn 1";
    let swapped = swap_colours(text);
    assert_eq!(swapped, "8k/l8/9/9/2+P3l2/6s2/9/9/4r1sK1 w 2pN 1");
    assert!(Position::from_sfen(&swapped).is_ok());
    assert_eq!(swap_colours(&swapped), text);
}
