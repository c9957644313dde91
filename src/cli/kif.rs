//! KIF (Kakinoki's record format), as ShogiHome, Kifu for Windows and other readers open it: a header,
//! the board diagram of the problem (with both hands), the mate line with each move's origin square,
//! and how it ends.
//!
//! The diagram is the position kanju solved, `problem_position(root)`: in a tsume problem the defender
//! holds every piece that is neither on the board nor in the attacker's hand, so that a reader replays
//! the defender's interpositions with pieces it really has.

use super::notation::{IDEOGRAPHIC_SPACE, destination, kanji_number, piece_name};
use crate::checked::Answer;
use crate::position::{Color, Move, PieceKind, Position, Square};
use crate::search::problem_position;
use std::fmt::Write;

/// The hand order of a KIF: the most valuable piece first.
const HAND_ORDER: [PieceKind; 7] = [
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Gold,
    PieceKind::Silver,
    PieceKind::Knight,
    PieceKind::Lance,
    PieceKind::Pawn,
];

/// One character per piece on the diagram (promoted minor pieces have their own: 杏, 圭, 全).
fn board_char(kind: PieceKind) -> char {
    match kind {
        PieceKind::Pawn => '歩',
        PieceKind::Lance => '香',
        PieceKind::Knight => '桂',
        PieceKind::Silver => '銀',
        PieceKind::Gold => '金',
        PieceKind::Bishop => '角',
        PieceKind::Rook => '飛',
        PieceKind::King => '玉',
        PieceKind::ProPawn => 'と',
        PieceKind::ProLance => '杏',
        PieceKind::ProKnight => '圭',
        PieceKind::ProSilver => '全',
        PieceKind::Horse => '馬',
        PieceKind::Dragon => '龍',
    }
}

/// `飛　角二　歩十八` or `なし`.
fn hand_line(pos: &Position, c: Color) -> String {
    let hand = pos.hand(c);
    let items: Vec<String> = HAND_ORDER
        .iter()
        .filter(|&&k| hand.count(k) > 0)
        .map(|&k| {
            let n = hand.count(k);
            let count = if n > 1 {
                kanji_number(n)
            } else {
                String::new()
            };
            format!("{}{count}", board_char(k))
        })
        .collect();
    if items.is_empty() {
        "なし".to_string()
    } else {
        items.join(&IDEOGRAPHIC_SPACE.to_string())
    }
}

/// The board diagram (BOD): White's hand, the 9×9 board seen from Black, Black's hand, and
/// `後手番` when White moves first.
fn write_diagram(out: &mut String, pos: &Position) {
    let _ = writeln!(out, "後手の持駒：{}", hand_line(pos, Color::White));
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n");
    out.push_str("+---------------------------+\n");
    for rank in 1..=9u8 {
        out.push('|');
        for file in (1..=9u8).rev() {
            let sq = Square::new(file, rank).expect("1..=9");
            let p = pos.piece_at(sq);
            if p.is_empty() {
                out.push_str(" ・");
            } else {
                out.push(if p.color() == Color::White { 'v' } else { ' ' });
                out.push(board_char(p.kind()));
            }
        }
        let _ = writeln!(out, "|{}", kanji_number(rank));
    }
    out.push_str("+---------------------------+\n");
    let _ = writeln!(out, "先手の持駒：{}", hand_line(pos, Color::Black));
    if pos.side_to_move() == Color::White {
        out.push_str("後手番\n");
    }
}

/// A move as KIF writes it: `２四飛成(28)`, `同　玉(12)`, `５二金打`. A non-promotion is written
/// without `不成`: the origin square already says which move it is, and simpler KIF readers take
/// `不成` for an unknown suffix.
fn kif_move(m: Move, previous_to: Option<Square>) -> String {
    let piece = piece_name(m.piece().kind(), "龍");
    let mut s = destination(m.to(), previous_to, piece);
    s.push_str(piece);
    if m.is_promotion() {
        s.push('成');
    }
    if m.is_drop() {
        s.push('打');
    } else {
        let _ = write!(s, "({}{})", m.from().file(), m.from().rank());
    }
    s
}

/// The KIF record of a problem and kanju's answer. `title` goes into a comment line (the input as
/// given). A mate is written move by move and ends with `詰み`; `nomate`, `timeout` and errors are
/// written as comments on the diagram, so the record still opens and shows the problem.
pub fn kif_record(title: &str, root: &Position, answer: &Answer) -> String {
    let mut out = kif_head(title, root);
    match answer {
        Answer::Mate(line) => write_moves(&mut out, line),
        Answer::NoMate => out.push_str("*kanju: 不詰（詰みなし）\n"),
        Answer::Timeout => out.push_str("*kanju: 時間内に解けず\n"),
        Answer::Error(e) => {
            let _ = writeln!(out, "*kanju: error {}", one_line(e));
        }
    }
    out
}

/// Everything before the first move: the title comment, the diagram, the players, the moves' header.
fn kif_head(title: &str, root: &Position) -> String {
    let pos = problem_position(root);
    let attacker = pos.side_to_move();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# KIF written by kanju {}: {}",
        env!("CARGO_PKG_VERSION"),
        one_line(title)
    );
    out.push_str("手合割：平手\n");
    write_diagram(&mut out, &pos);
    let (black, white) = match attacker {
        Color::Black => ("攻め方", "玉方"),
        Color::White => ("玉方", "攻め方"),
    };
    let _ = writeln!(out, "先手：{black}\n後手：{white}");
    out.push_str("手数----指手---------消費時間--\n");
    out
}

/// The numbered move lines, `詰み`, and the closing `まで N手で詰み`.
fn write_moves(out: &mut String, line: &[Move]) {
    write_numbered(out, line, 1, None, None);
    let _ = writeln!(out, "{:>4} 詰み", line.len() + 1);
    let _ = writeln!(out, "まで{}手で詰み", line.len());
}

/// `line`'s moves numbered from `first`, the move before them having gone to `previous_to` (for
/// 同), `comment` under the first move.
fn write_numbered(
    out: &mut String,
    line: &[Move],
    first: usize,
    mut previous_to: Option<Square>,
    comment: Option<&str>,
) {
    for (i, &m) in line.iter().enumerate() {
        let _ = writeln!(out, "{:>4} {}", first + i, kif_move(m, previous_to));
        if let (0, Some(c)) = (i, comment) {
            let _ = writeln!(out, "*{}", one_line(c));
        }
        previous_to = Some(m.to());
    }
}

/// A variation of a mating line, written as a KIF branch (`変化：N手`).
pub struct Branch {
    /// The number of its first move: it replaces the main line's move of that number.
    pub ply: usize,
    pub moves: Vec<Move>,
    /// Its moves end in mate (`詰み` follows them); false for a branch that shows only a first move.
    pub mates: bool,
    /// Written under its first move (a flaw found there, its length).
    pub comment: String,
}

/// `kif_record` of a mate with `notes` as comments before the first move and `branches` off the
/// main line `line`, as KIF readers (ShogiHome, Kifu for Windows) show them: each `変化：N手` block
/// after the main line, the later branch points first (a block branches off the last line written
/// that reaches its move).
pub fn kif_record_with_branches(
    title: &str,
    root: &Position,
    line: &[Move],
    notes: &[String],
    branches: &[Branch],
) -> String {
    let mut out = kif_head(title, root);
    for n in notes {
        let _ = writeln!(out, "*{}", one_line(n));
    }
    write_moves(&mut out, line);
    let mut order: Vec<&Branch> = branches.iter().filter(|b| b.ply >= 1).collect();
    order.sort_by_key(|b| std::cmp::Reverse(b.ply));
    for b in order {
        let _ = writeln!(out, "\n変化：{}手", b.ply);
        let previous_to = b
            .ply
            .checked_sub(2)
            .and_then(|i| line.get(i))
            .map(|m| m.to());
        write_numbered(&mut out, &b.moves, b.ply, previous_to, Some(&b.comment));
        if b.mates {
            let _ = writeln!(out, "{:>4} 詰み", b.ply + b.moves.len());
        }
    }
    out
}

/// A comment must stay on its line whatever it quotes.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mate(sfen: &str, usi: &[&str]) -> (Position, Answer) {
        let root = Position::from_sfen(sfen).unwrap();
        let line = crate::cli::notation::play(&problem_position(&root), usi);
        (root, Answer::Mate(line))
    }

    /// The README's mate in 3, written out by hand: the defender holds every piece the diagram does
    /// not show (飛 through 歩十八), moves carry their origin, and the record ends with 詰み.
    #[test]
    fn writes_a_black_mate_with_diagram_and_origins() {
        let (root, answer) = mate(
            "9/8k/9/7RG/9/9/9/9/9 b r2b3g4s4n4l18p 1",
            &["1d2c", "1b1a", "2c2b"],
        );
        let expected = format!(
            "# KIF written by kanju {}: mate 3\n{}",
            env!("CARGO_PKG_VERSION"),
            "手合割：平手
後手の持駒：飛　角二　金三　銀四　桂四　香四　歩十八
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・ ・ ・ ・ ・ ・|一
| ・ ・ ・ ・ ・ ・ ・ ・v玉|二
| ・ ・ ・ ・ ・ ・ ・ ・ ・|三
| ・ ・ ・ ・ ・ ・ ・ 飛 金|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ ・ ・ ・ ・ ・|九
+---------------------------+
先手の持駒：なし
先手：攻め方
後手：玉方
手数----指手---------消費時間--
   1 ２三金(14)
   2 １一玉(12)
   3 ２二金(23)
   4 詰み
まで3手で詰み
"
        );
        assert_eq!(kif_record("mate\t3", &root, &answer), expected);
    }

    /// White attacks: 後手番 after the diagram, Black (the defender) holds the rest, a drop is 打.
    #[test]
    fn writes_a_white_mate_with_a_drop() {
        let (root, answer) = mate("9/9/9/9/9/9/4p4/9/4K4 w g 1", &["G*5h"]);
        let kif = kif_record("w", &root, &answer);
        let body: Vec<&str> = kif.lines().skip(1).collect();
        assert_eq!(body[1], "後手の持駒：金");
        assert_eq!(body[10], "| ・ ・ ・ ・v歩 ・ ・ ・ ・|七");
        assert_eq!(body[12], "| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九");
        assert_eq!(
            body[13..],
            [
                "+---------------------------+",
                "先手の持駒：飛二　角二　金三　銀四　桂四　香四　歩十七",
                "後手番",
                "先手：玉方",
                "後手：攻め方",
                "手数----指手---------消費時間--",
                "   1 ５八金打",
                "   2 詰み",
                "まで1手で詰み",
            ]
        );
    }

    #[test]
    fn promotions_same_square_and_promoted_pieces() {
        // A game position: hands as written, kings on both sides.
        let (root, answer) = mate(
            "4k4/5+s3/4p4/9/4R4/9/9/9/4K4 b - 1",
            &["5e5c", "4b5c", "5i5h"],
        );
        let kif = kif_record("game", &root, &answer);
        assert!(kif.contains("| ・ ・ ・ ・ ・v全 ・ ・ ・|二\n"), "{kif}");
        assert!(
            kif.contains("   1 ５三飛(55)\n   2 同成銀(42)\n   3 ５八玉(59)\n"),
            "{kif}"
        );
    }

    #[test]
    fn no_mate_and_timeout_are_comments_on_the_diagram() {
        let root = Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b - 1").unwrap();
        let kif = kif_record("x", &root, &Answer::NoMate);
        assert!(
            kif.ends_with("手数----指手---------消費時間--\n*kanju: 不詰（詰みなし）\n"),
            "{kif}"
        );
        let kif = kif_record("x", &root, &Answer::Timeout);
        assert!(kif.ends_with("*kanju: 時間内に解けず\n"), "{kif}");
    }

    #[test]
    fn hands_are_written_most_valuable_first_with_kanji_counts() {
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b RB2G18P 1").unwrap();
        assert_eq!(hand_line(&pos, Color::Black), "飛　角　金二　歩十八");
        assert_eq!(hand_line(&pos, Color::White), "なし");
    }
}
