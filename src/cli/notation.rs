//! Moves as people write them in Japanese: `☗２四飛成`, `☖同　玉`, `☗５二金右上`, `☗２三桂打`.
//!
//! The rules are those of the Japan Shogi Association's notation (棋譜の表記方法): destination
//! (full-width file, kanji rank) or `同` when the move lands where the previous one did, the piece,
//! then — only when another piece of the same kind could also go there — the relative position
//! `右`/`左`/`直` and the motion `上`/`寄`/`引`, and last `成`/`不成` (when promoting was possible)
//! or `打` (when a piece on the board could also have gone there). Motion is preferred to position;
//! both are written only when neither alone tells the pieces apart. Gold-like pieces (金, 銀 and the
//! promoted minor pieces) take their position from the destination (`直`: straight up); the others
//! (飛, 角, 竜, 馬, 桂) from the other candidate, and never use `直`.
//!
//! The candidates are the *legal* moves, as a GUI offers them: a pinned piece that cannot go there
//! does not force a disambiguation.

use crate::position::movegen::{MoveList, generate_legal};
use crate::position::{Color, Move, PieceKind, Position, Square};

/// Full-width file digits, as in `２四`.
const FILES: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
/// Kanji ranks (and hand counts up to ten).
const KANJI: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
/// U+3000, the full-width space that pads `同` before a one-character piece name.
pub const IDEOGRAPHIC_SPACE: char = '\u{3000}';

/// The mark of the player who moves: ☗ for Black (sente), ☖ for White (gote).
pub fn mover_mark(c: Color) -> char {
    match c {
        Color::Black => '☗',
        Color::White => '☖',
    }
}

/// A count written in kanji: 一 … 十八 (hand counts never exceed 18).
pub fn kanji_number(n: u8) -> String {
    match n {
        0..=9 => KANJI[usize::from(n)].to_string(),
        10 => "十".to_string(),
        _ => format!("十{}", KANJI[usize::from(n % 10)]),
    }
}

/// `２四`: the square as written in a move.
pub fn square_name(sq: Square) -> String {
    format!(
        "{}{}",
        FILES[usize::from(sq.file() - 1)],
        KANJI[usize::from(sq.rank())]
    )
}

/// The name of a piece in a move. KIF writes the promoted rook `龍`; the JSA notation writes `竜`.
pub fn piece_name(kind: PieceKind, dragon: &'static str) -> &'static str {
    match kind {
        PieceKind::Pawn => "歩",
        PieceKind::Lance => "香",
        PieceKind::Knight => "桂",
        PieceKind::Silver => "銀",
        PieceKind::Gold => "金",
        PieceKind::Bishop => "角",
        PieceKind::Rook => "飛",
        PieceKind::King => "玉",
        PieceKind::ProPawn => "と",
        PieceKind::ProLance => "成香",
        PieceKind::ProKnight => "成桂",
        PieceKind::ProSilver => "成銀",
        PieceKind::Horse => "馬",
        PieceKind::Dragon => dragon,
    }
}

/// The destination part of a move: `２四`, or `同` (padded with a full-width space before a
/// one-character piece name, `同　玉`, as KIF and print do) when it lands on the previous move's square.
pub fn destination(to: Square, previous_to: Option<Square>, piece: &str) -> String {
    if previous_to == Some(to) {
        let pad = if piece.chars().count() == 1 {
            IDEOGRAPHIC_SPACE.to_string()
        } else {
            String::new()
        };
        format!("同{pad}")
    } else {
        square_name(to)
    }
}

/// `成`, `不成` or nothing: `不成` only where the same move could have promoted.
pub fn promotion_word(m: Move, legal: &[Move]) -> &'static str {
    if m.is_drop() {
        ""
    } else if m.is_promotion() {
        "成"
    } else if legal
        .iter()
        .any(|o| !o.is_drop() && o.from() == m.from() && o.to() == m.to() && o.is_promotion())
    {
        "不成"
    } else {
        ""
    }
}

/// The legal moves of `pos`, the candidates every word above is chosen among.
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    list.as_slice().to_vec()
}

/// One move in JSA notation, with its mover's mark. `legal` must be `pos`'s legal moves and `m` one of
/// them; `previous_to` is where the previous move of the line landed (`None` for the first).
pub fn japanese_move(
    pos: &Position,
    m: Move,
    legal: &[Move],
    previous_to: Option<Square>,
) -> String {
    let piece = piece_name(m.piece().kind(), "竜");
    let mut s = String::new();
    s.push(mover_mark(pos.side_to_move()));
    s.push_str(&destination(m.to(), previous_to, piece));
    s.push_str(piece);
    if m.is_drop() {
        if dropped_kind_could_move_there(m, legal) {
            s.push('打');
        }
    } else {
        s.push_str(&disambiguation(m, legal));
        s.push_str(promotion_word(m, legal));
    }
    s
}

/// A whole line from `start`, each move in JSA notation. Moves that are not legal where they are
/// played are written in USI notation (this never happens to a verified mate line).
pub fn japanese_line(start: &Position, line: &[Move]) -> Vec<String> {
    let mut pos = start.clone();
    let mut previous_to = None;
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        let legal = legal_moves(&pos);
        if !legal.contains(&m) {
            out.push(m.to_usi());
            break;
        }
        out.push(japanese_move(&pos, m, &legal, previous_to));
        pos.do_move(m);
        previous_to = Some(m.to());
    }
    out
}

/// `打` is written only when a piece of that kind on the board could also have gone there.
fn dropped_kind_could_move_there(drop: Move, legal: &[Move]) -> bool {
    legal
        .iter()
        .any(|o| !o.is_drop() && o.piece() == drop.piece() && o.to() == drop.to())
}

/// How a piece moves towards its destination, from its owner's side of the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Motion {
    Up,
    Sideways,
    Back,
}

impl Motion {
    fn of(from: Square, to: Square, side: Color) -> Motion {
        // Relative rank 1 is the far side: moving up lowers it.
        match from.relative_rank(side).cmp(&to.relative_rank(side)) {
            std::cmp::Ordering::Greater => Motion::Up,
            std::cmp::Ordering::Equal => Motion::Sideways,
            std::cmp::Ordering::Less => Motion::Back,
        }
    }

    fn word(self) -> &'static str {
        match self {
            Motion::Up => "上",
            Motion::Sideways => "寄",
            Motion::Back => "引",
        }
    }
}

/// Where a piece stands relative to the others that could go to the same square.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Place {
    Right,
    Left,
    /// Gold-like pieces only: on the destination's file, moving straight up.
    Straight,
    /// No word applies (on the destination's file, not moving up; or two candidates on one file).
    None,
}

impl Place {
    fn word(self) -> &'static str {
        match self {
            Place::Right => "右",
            Place::Left => "左",
            Place::Straight => "直",
            Place::None => "",
        }
    }
}

/// Files counted from the mover's right: Black's right is file 1, White's is file 9.
fn file_from_right(sq: Square, side: Color) -> i8 {
    let f = sq.file() as i8;
    match side {
        Color::Black => f,
        Color::White => 10 - f,
    }
}

fn is_gold_like(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::Gold
            | PieceKind::Silver
            | PieceKind::ProPawn
            | PieceKind::ProLance
            | PieceKind::ProKnight
            | PieceKind::ProSilver
    )
}

/// The place word of a candidate `from`, among `candidates`, going to `to`.
fn place_of(
    from: Square,
    to: Square,
    candidates: &[Square],
    kind: PieceKind,
    side: Color,
) -> Place {
    let here = file_from_right(from, side);
    if is_gold_like(kind) {
        // Gold-likes are told apart by where they stand from the destination.
        let there = file_from_right(to, side);
        return match here.cmp(&there) {
            std::cmp::Ordering::Less => Place::Right,
            std::cmp::Ordering::Greater => Place::Left,
            std::cmp::Ordering::Equal if Motion::of(from, to, side) == Motion::Up => {
                Place::Straight
            }
            std::cmp::Ordering::Equal => Place::None,
        };
    }
    // Rooks, bishops, dragons, horses and knights: at most two can reach a square; the one nearer the
    // mover's right is 右.
    let others: Vec<i8> = candidates
        .iter()
        .filter(|&&c| c != from)
        .map(|&c| file_from_right(c, side))
        .collect();
    if others.iter().all(|&o| here < o) {
        Place::Right
    } else if others.iter().all(|&o| here > o) {
        Place::Left
    } else {
        Place::None
    }
}

/// `右`/`左`/`直` and/or `上`/`寄`/`引` for a board move, or nothing when no other piece of the same
/// kind could legally go to the same square.
fn disambiguation(m: Move, legal: &[Move]) -> String {
    let (to, side, kind) = (m.to(), m.piece().color(), m.piece().kind());
    let mut candidates: Vec<Square> = legal
        .iter()
        .filter(|o| !o.is_drop() && o.piece() == m.piece() && o.to() == to)
        .map(|o| o.from())
        .collect();
    candidates.sort();
    candidates.dedup();
    if candidates.len() <= 1 {
        return String::new();
    }
    let motion = |sq: Square| Motion::of(sq, to, side);
    let place = |sq: Square| place_of(sq, to, &candidates, kind, side);
    let (my_motion, my_place) = (motion(m.from()), place(m.from()));
    let same_motion = candidates
        .iter()
        .filter(|&&c| motion(c) == my_motion)
        .count();
    if same_motion == 1 {
        return my_motion.word().to_string();
    }
    let same_place = candidates.iter().filter(|&&c| place(c) == my_place).count();
    if same_place == 1 && my_place != Place::None {
        return my_place.word().to_string();
    }
    format!("{}{}", my_place.word(), my_motion.word())
}

/// The moves of `usi` played one after the other from `start` (test helper for notation and KIF).
#[cfg(test)]
pub(crate) fn play(start: &Position, usi: &[&str]) -> Vec<Move> {
    let mut pos = start.clone();
    usi.iter()
        .map(|u| {
            let m = pos
                .parse_usi_move(u)
                .unwrap_or_else(|| panic!("{u} is not legal in {pos:?}"));
            pos.do_move(m);
            m
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each position with moves written out by hand from the JSA rules (棋譜の表記方法). Black moves up
    /// (towards rank 1), White down; a player's right is file 1 for Black and file 9 for White.
    const CASES: &[(&str, &str, &str)] = &[
        // Drops: `打` only when a piece on the board could go there too.
        ("4k4/9/4P4/9/9/9/9/9/9 b G 1", "G*5b", "☗５二金"),
        ("4k4/9/5G3/9/9/9/9/9/9 b G 1", "G*5b", "☗５二金打"),
        ("4k4/9/5G3/9/9/9/9/9/9 b G 1", "4c5b", "☗５二金"),
        ("k8/9/9/9/9/9/3N5/9/9 b N 1", "N*5e", "☗５五桂打"),
        // Promotion: `成`, and `不成` only where promoting was possible (into, within or out of the zone).
        ("k8/9/9/4R4/9/9/9/9/9 b - 1", "5d5b+", "☗５二飛成"),
        ("k8/9/9/4R4/9/9/9/9/9 b - 1", "5d5b", "☗５二飛不成"),
        ("k8/9/9/4R4/9/9/9/9/9 b - 1", "5d5e", "☗５五飛"),
        ("k8/9/4R4/9/9/9/9/9/9 b - 1", "5c5e", "☗５五飛不成"),
        ("k8/9/4R4/9/9/9/9/9/9 b - 1", "5c5e+", "☗５五飛成"),
        ("k8/4P4/9/9/9/9/9/9/9 b - 1", "5b5a+", "☗５一歩成"),
        ("k8/9/9/9/4N4/9/9/9/9 b - 1", "5e4c", "☗４三桂不成"),
        // Gold-likes: motion first (上/寄/引), then place (右/左/直), both when neither alone tells.
        ("k8/9/9/9/5G3/4G4/9/9/9 b - 1", "5f5e", "☗５五金上"),
        ("k8/9/9/9/5G3/4G4/9/9/9 b - 1", "4e5e", "☗５五金寄"),
        ("k8/9/9/4G4/5G3/9/9/9/9 b - 1", "5d5e", "☗５五金引"),
        ("k8/9/9/9/9/3G1G3/9/9/9 b - 1", "6f5e", "☗５五金左"),
        ("k8/9/9/9/9/3G1G3/9/9/9 b - 1", "4f5e", "☗５五金右"),
        ("k8/9/9/9/9/3GGG3/9/9/9 b - 1", "5f5e", "☗５五金直"),
        ("k8/9/9/9/9/3GGG3/9/9/9 b - 1", "6f5e", "☗５五金左"),
        ("k8/9/9/5S3/9/3S1S3/9/9/9 b - 1", "4f5e", "☗５五銀右上"),
        ("k8/9/9/5S3/9/3S1S3/9/9/9 b - 1", "4d5e", "☗５五銀引"),
        ("k8/9/9/5S3/9/3S1S3/9/9/9 b - 1", "6f5e", "☗５五銀左"),
        ("k8/9/9/9/3G1G3/5G3/9/9/9 b - 1", "4e5e", "☗５五金右寄"),
        ("k8/9/9/9/3G1G3/5G3/9/9/9 b - 1", "6e5e", "☗５五金左"),
        ("k8/9/9/9/3G1G3/5G3/9/9/9 b - 1", "4f5e", "☗５五金上"),
        ("k8/9/9/9/9/4+P+P3/9/9/9 b - 1", "5f5e", "☗５五と直"),
        ("k8/9/9/9/9/4+P+P3/9/9/9 b - 1", "4f5e", "☗５五と右"),
        // Rooks, bishops, dragons, horses, knights: place from the other candidate, never 直.
        ("1k7/9/9/9/R7R/9/9/9/9 b - 1", "9e5e", "☗５五飛左"),
        ("1k7/9/9/9/R7R/9/9/9/9 b - 1", "1e5e", "☗５五飛右"),
        ("k8/4R4/9/9/9/9/9/4R4/9 b - 1", "5h5e", "☗５五飛上"),
        ("k8/4R4/9/9/9/9/9/4R4/9 b - 1", "5b5e", "☗５五飛引不成"),
        ("k8/7+R1/8+R/9/9/9/9/9/9 b - 1", "1c2d", "☗２四竜右"),
        ("k8/7+R1/8+R/9/9/9/9/9/9 b - 1", "2b2d", "☗２四竜左"),
        ("+B+B7/9/9/9/9/9/9/9/7k1 b - 1", "9a8b", "☗８二馬左"),
        ("+B+B7/9/9/9/9/9/9/9/7k1 b - 1", "8a8b", "☗８二馬右"),
        ("k8/9/9/9/9/9/3N1N3/9/9 b - 1", "6g5e", "☗５五桂左"),
        ("k8/9/9/9/9/9/3N1N3/9/9 b - 1", "4g5e", "☗５五桂右"),
        // White (☖): up is towards rank 9, right is file 9.
        ("9/9/9/4g4/5g3/9/9/9/8K w - 1", "5d5e", "☖５五金上"),
        ("9/9/9/4g4/5g3/9/9/9/8K w - 1", "4e5e", "☖５五金寄"),
        ("9/9/9/3g1g3/9/9/9/9/8K w - 1", "6d5e", "☖５五金右"),
        ("9/9/9/3g1g3/9/9/9/9/8K w - 1", "4d5e", "☖５五金左"),
        ("9/9/9/3ggg3/9/9/9/9/8K w - 1", "5d5e", "☖５五金直"),
        ("9/9/9/3s1s3/9/3s5/9/9/8K w - 1", "6d5e", "☖５五銀右上"),
        ("9/9/9/3s1s3/9/3s5/9/9/8K w - 1", "6f5e", "☖５五銀引"),
        ("9/9/9/3s1s3/9/3s5/9/9/8K w - 1", "4d5e", "☖５五銀左"),
        ("8K/9/9/9/9/9/+r8/1+r7/9 w - 1", "9g8f", "☖８六竜右"),
        ("8K/9/9/9/9/9/+r8/1+r7/9 w - 1", "8h8f", "☖８六竜左"),
        ("9/4r4/9/9/9/9/9/4r4/K8 w - 1", "5h5e", "☖５五飛引不成"),
        ("9/4r4/9/9/9/9/9/4r4/K8 w - 1", "5b5e", "☖５五飛上"),
        ("9/9/3n1n3/9/9/9/9/9/K8 w - 1", "6c5e", "☖５五桂右"),
        ("9/9/3n1n3/9/9/9/9/9/K8 w - 1", "4c5e", "☖５五桂左"),
        ("9/9/9/9/9/4p4/9/9/K8 w - 1", "5f5g+", "☖５七歩成"),
        ("9/9/9/9/9/4p4/9/9/K8 w - 1", "5f5g", "☖５七歩不成"),
        ("9/9/9/9/9/9/9/9/K8 w b 1", "B*5e", "☖５五角"),
        ("9/9/3n5/9/9/9/9/9/K8 w n 1", "N*5e", "☖５五桂打"),
    ];

    #[test]
    fn writes_moves_as_the_jsa_rules_say() {
        let mut wrong = Vec::new();
        for &(sfen, usi, expected) in CASES {
            let pos = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
            let legal = legal_moves(&pos);
            let m = pos
                .parse_usi_move(usi)
                .unwrap_or_else(|| panic!("{usi} is not legal in {sfen}"));
            let got = japanese_move(&pos, m, &legal, None);
            if got != expected {
                wrong.push(format!("{usi} in {sfen}: {got}, expected {expected}"));
            }
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    fn line(sfen: &str, usi: &[&str]) -> (Position, Vec<Move>) {
        let start = Position::from_sfen(sfen).unwrap();
        let moves = play(&start, usi);
        (start, moves)
    }

    #[test]
    fn same_square_is_dou_padded_for_one_character_names() {
        let (start, moves) = line("4k4/5s3/4p4/9/4R4/9/9/9/4K4 b - 1", &["5e5c+", "4b5c"]);
        assert_eq!(japanese_line(&start, &moves), ["☗５三飛成", "☖同　銀"]);
        let (start, moves) = line("4k4/5+s3/4p4/9/4R4/9/9/9/4K4 b - 1", &["5e5c+", "4b5c"]);
        assert_eq!(japanese_line(&start, &moves), ["☗５三飛成", "☖同成銀"]);
        // 同 refers to the previous move of the line only: a first move is never 同.
        let (start, moves) = line("4k4/9/4p4/9/4R4/9/9/9/4K4 b - 1", &["5e5c"]);
        assert_eq!(japanese_line(&start, &moves), ["☗５三飛不成"]);
    }

    #[test]
    fn numbers_and_squares() {
        assert_eq!(kanji_number(1), "一");
        assert_eq!(kanji_number(10), "十");
        assert_eq!(kanji_number(18), "十八");
        assert_eq!(square_name(Square::new(2, 4).unwrap()), "２四");
        assert_eq!(square_name(Square::new(9, 9).unwrap()), "９九");
    }
}
