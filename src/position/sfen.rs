//! SFEN in and out, through `shogi_usi_parser` and `shogi_core`, with the legality checks a solver needs
//! before it trusts a position.

use super::hand::MAX_COUNT;
use super::types::{Color, Piece, PieceKind, Square};
use super::{Bitboard, Position};
use shogi_core::PartialPosition;
use shogi_usi_parser::FromUsi;
use std::fmt;

pub const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// Why a SFEN (or a `position` command) was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// The text is not SFEN (the parser's message).
    Syntax(String),
    /// A move after `moves` is not legal in the position it is played in.
    IllegalMove(String),
    TooManyKings(Color),
    NoKing,
    /// The player not to move has no king, in a mate problem (`validate_mate_problem`).
    NoDefenderKing,
    /// A pawn, lance or knight where it could never move again.
    DeadPiece(Square),
    TwoPawns(Color, u8),
    /// More pieces of a kind than a full set has.
    TooManyPieces(PieceKind),
    /// The player not to move is in check: the previous move left its king en prise.
    OpponentInCheck,
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SfenError::Syntax(s) => write!(f, "malformed SFEN: {s}"),
            SfenError::IllegalMove(m) => write!(f, "illegal move in the move list: {m}"),
            SfenError::TooManyKings(c) => write!(f, "more than one king for {c:?}"),
            SfenError::NoKing => write!(f, "no king on the board"),
            SfenError::NoDefenderKing => {
                write!(f, "the defender (the side not to move) has no king")
            }
            SfenError::DeadPiece(sq) => write!(f, "a piece on {sq} can never move (dead piece)"),
            SfenError::TwoPawns(c, file) => write!(f, "two unpromoted {c:?} pawns on file {file}"),
            SfenError::TooManyPieces(k) => write!(f, "more {k:?}s than a full set has"),
            SfenError::OpponentInCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for SfenError {}

/// Strips an optional `position` keyword, accepts `startpos`, `sfen …` or a bare SFEN, and splits off
/// a `moves …` list. Returns the text for `PartialPosition::from_usi` and the move texts. Words are
/// apart by any run of blanks (tabs too), and `position` and `moves` are words of their own.
fn split_command(text: &str) -> (String, Vec<&str>) {
    let mut words: Vec<&str> = text.split_whitespace().collect();
    if words.first() == Some(&"position") {
        words.remove(0);
    }
    let (head, moves) = match words.iter().position(|w| *w == "moves") {
        Some(i) => (&words[..i], words[i + 1..].to_vec()),
        None => (&words[..], vec![]),
    };
    let head = head.join(" ");
    let head = if head == "startpos" || head == "sfen" || head.starts_with("sfen ") {
        head
    } else {
        format!("sfen {head}")
    };
    (head, moves)
}

/// At most this many characters of the input are quoted back in an error.
const QUOTED_CHARS: usize = 120;

/// `text` as an error quotes it: cut after `QUOTED_CHARS` characters, so that a megabyte of garbage
/// is not echoed back in full.
fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// The parser's complaint about `head`, with the text it points at.
fn syntax_error(head: &str, e: &shogi_usi_parser::Error) -> SfenError {
    use shogi_usi_parser::Error;
    let text = head.strip_prefix("sfen ").unwrap_or(head);
    if text == "sfen" || text.is_empty() {
        return SfenError::Syntax("no position given".into());
    }
    let at = |from: usize, to: usize| {
        let word = head.get(from..to.max(from + 1)).unwrap_or("").trim();
        if word.is_empty() {
            "at its end".to_string()
        } else {
            format!("at '{}'", quoted(word))
        }
    };
    SfenError::Syntax(match *e {
        Error::InvalidInput {
            from,
            to,
            description,
        } => format!("'{}' {}: {description}", quoted(text), at(from, to)),
        Error::Extra { from } => format!(
            "'{}': unexpected '{}' after the position",
            quoted(text),
            quoted(head.get(from..).unwrap_or("").trim())
        ),
        _ => format!("'{}' is not a position", quoted(text)),
    })
}

impl Position {
    /// Reads a position: a bare SFEN, `sfen <SFEN>`, `startpos`, or a whole USI `position …` command,
    /// optionally followed by `moves …` (each must be legal). The move number may be omitted.
    ///
    /// A mate problem's SFEN often leaves the defender's hand out: when the side to move has no king,
    /// the defender holds every piece neither on the board nor in a hand (`give_rest_to`; the search
    /// reads a problem so, `search::problem_position`). Moves after it are played under the same
    /// convention, so that a line kanju prints (whose interpositions drop those pieces) can be played
    /// back with `position … moves …`; without moves the position stays as written.
    pub fn from_sfen(text: &str) -> Result<Position, SfenError> {
        let (head, moves) = split_command(text);
        if let Some(hand) = head.split_whitespace().nth(3) {
            // The parser skips what a hand cannot hold; a king there is an error, not nothing.
            if hand.contains(['K', 'k']) {
                return Err(SfenError::Syntax(format!(
                    "a king cannot be in hand: '{}'",
                    quoted(hand)
                )));
            }
            // A count is a number of pieces, at least one: the parser would read `0G` as no gold
            // and `03P` as three pawns, a hand no writer of SFEN means.
            let b = hand.as_bytes();
            if (0..b.len()).any(|i| b[i] == b'0' && (i == 0 || !b[i - 1].is_ascii_digit())) {
                return Err(SfenError::Syntax(format!(
                    "a count in hand starts with 0: '{}'",
                    quoted(hand)
                )));
            }
        }
        // Fields apart by any run of blanks, as people type them.
        let head = head.split_whitespace().collect::<Vec<_>>().join(" ");
        let partial = PartialPosition::from_usi(&head).map_err(|e| syntax_error(&head, &e))?;
        let mut pos = Position::empty();
        let mut counts = [0u8; PieceKind::NUM];
        let mut kings = [0u8; 2];
        for sq in Square::all() {
            if let Some(p) = partial.piece_at(sq.to_core()) {
                let p = Piece::from_core(p);
                counts[p.kind().unpromoted().index()] += 1;
                if p.kind() == PieceKind::King {
                    kings[p.color().index()] += 1;
                    if kings[p.color().index()] > 1 {
                        return Err(SfenError::TooManyKings(p.color()));
                    }
                    pos.king[p.color().index()] = Some(sq);
                }
                pos.put(p, sq);
            }
        }
        for c in Color::ALL {
            let h = partial.hand_of_a_player(c.to_core());
            for k in PieceKind::HAND {
                let n = h.count(k.to_core()).unwrap_or(0);
                counts[k.index()] += n;
                if counts[k.index()] > MAX_COUNT[k.index()] {
                    return Err(SfenError::TooManyPieces(k));
                }
                for _ in 0..n {
                    pos.hand_add(c, k);
                }
            }
        }
        for k in PieceKind::HAND {
            if counts[k.index()] > MAX_COUNT[k.index()] {
                return Err(SfenError::TooManyPieces(k));
            }
        }
        pos.side = Color::from_core(partial.side_to_move());
        if pos.side == Color::White {
            pos.board_key ^= super::zobrist::side();
        }
        pos.start_ply = u32::from(partial.ply()).max(1);
        pos.validate()?;
        pos.checkers = pos.compute_checkers();
        if !moves.is_empty() && pos.king_square(pos.side).is_none() {
            pos.give_rest_to(pos.side.flip());
        }
        for text in moves {
            let m = pos
                .parse_usi_move(text)
                .ok_or_else(|| SfenError::IllegalMove(quoted(text)))?;
            pos.do_move(m);
        }
        Ok(pos)
    }

    /// The rule checks of a set-up position (see `SfenError`).
    fn validate(&self) -> Result<(), SfenError> {
        if self.king[0].is_none() && self.king[1].is_none() {
            return Err(SfenError::NoKing);
        }
        for c in Color::ALL {
            let dead_pl = Bitboard::relative_ranks(c, 1, 1);
            let dead_n = Bitboard::relative_ranks(c, 1, 2);
            let dead = (self.pieces_of(c, PieceKind::Pawn) | self.pieces_of(c, PieceKind::Lance))
                & dead_pl
                | self.pieces_of(c, PieceKind::Knight) & dead_n;
            if let Some(sq) = dead.lsb() {
                return Err(SfenError::DeadPiece(sq));
            }
            let pawns = self.pieces_of(c, PieceKind::Pawn);
            for file in 1..=9 {
                if (pawns & Bitboard::file(file)).has_more_than_one() {
                    return Err(SfenError::TwoPawns(c, file));
                }
            }
        }
        let them = self.side.flip();
        if let Some(k) = self.king_square(them)
            && self
                .attackers_to(self.side, k, self.occupied())
                .is_not_empty()
        {
            return Err(SfenError::OpponentInCheck);
        }
        Ok(())
    }

    /// The extra check for a mate problem: the side not to move (the defender) must have a king, and it
    /// must not be in check (the attacker would just capture it).
    pub fn validate_mate_problem(&self) -> Result<(), SfenError> {
        let Some(k) = self.king_square(self.side.flip()) else {
            return Err(SfenError::NoDefenderKing);
        };
        if self.is_attacked(self.side, k) {
            return Err(SfenError::OpponentInCheck);
        }
        Ok(())
    }

    fn to_partial(&self) -> PartialPosition {
        let mut p = PartialPosition::empty();
        for sq in self.occupied() {
            p.piece_set(sq.to_core(), self.piece_at(sq).to_core());
        }
        for c in Color::ALL {
            let h = p.hand_of_a_player_mut(c.to_core());
            for k in PieceKind::HAND {
                for _ in 0..self.hand(c).count(k) {
                    if let Some(nh) = h.added(k.to_core()) {
                        *h = nh;
                    }
                }
            }
        }
        p.side_to_move_set(self.side.to_core());
        let _ = p.ply_set(self.ply().clamp(1, u16::MAX as u32) as u16);
        p
    }

    /// The position as SFEN (board, side, hands, move number).
    pub fn to_sfen(&self) -> String {
        self.to_partial().to_sfen_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_usual_spellings() {
        let a = Position::from_sfen(STARTPOS).unwrap();
        for text in [
            "startpos",
            "position startpos",
            &format!("sfen {STARTPOS}"),
            &format!("position sfen {STARTPOS}"),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
            &format!("  {STARTPOS}\n"),
        ] {
            assert_eq!(
                Position::from_sfen(text).unwrap().to_sfen(),
                a.to_sfen(),
                "{text}"
            );
        }
        let p = Position::from_sfen("position startpos moves 7g7f 3c3d").unwrap();
        assert_eq!(p.moves_played(), 2);
        assert_eq!(p.side_to_move(), Color::Black);
    }

    #[test]
    fn refuses_broken_positions_with_a_reason() {
        type Expect = fn(&SfenError) -> bool;
        let cases: &[(&str, Expect)] = &[
            ("", |e| matches!(e, SfenError::Syntax(_))),
            ("hello world", |e| matches!(e, SfenError::Syntax(_))),
            ("4k4/9/9/9/9/9/9/9/9 x - 1", |e| {
                matches!(e, SfenError::Syntax(_))
            }),
            ("9/9/9/9/9/9/9/9/9 b - 1", |e| *e == SfenError::NoKing),
            ("4k4/9/9/9/9/9/9/9/3kK4 b - 1", |e| {
                matches!(e, SfenError::TooManyKings(_))
            }),
            ("P3k4/9/9/9/9/9/9/9/9 b - 1", |e| {
                matches!(e, SfenError::DeadPiece(_))
            }),
            ("4k4/N8/9/9/9/9/9/9/9 b - 1", |e| {
                matches!(e, SfenError::DeadPiece(_))
            }),
            ("4k4/9/P8/P8/9/9/9/9/9 b - 1", |e| {
                matches!(e, SfenError::TwoPawns(..))
            }),
            ("4k4/9/9/9/9/9/9/9/9 b 3R 1", |e| {
                *e == SfenError::TooManyPieces(PieceKind::Rook)
            }),
            ("4k4/9/9/9/9/9/9/9/4K4 b K 1", |e| {
                matches!(e, SfenError::Syntax(_))
            }),
            ("4k4/9/9/9/9/9/9/9/4K4 b RKk 1", |e| {
                matches!(e, SfenError::Syntax(_))
            }),
            ("4k4/9/9/9/9/9/9/9/4K4 b 0G 1", |e| {
                matches!(e, SfenError::Syntax(_))
            }),
            ("4k4/9/9/9/9/9/9/9/4K4 b 03P 1", |e| {
                matches!(e, SfenError::Syntax(_))
            }),
            ("4k4/9/9/9/9/9/9/9/BB7 b B 1", |e| {
                *e == SfenError::TooManyPieces(PieceKind::Bishop)
            }),
            ("4k4/4R4/9/9/9/9/9/9/9 b - 1", |e| {
                *e == SfenError::OpponentInCheck
            }),
            ("startpos moves 7g7f 7g7f", |e| {
                matches!(e, SfenError::IllegalMove(_))
            }),
        ];
        for (text, ok) in cases {
            let e = Position::from_sfen(text).expect_err(text);
            assert!(ok(&e), "{text}: {e}");
            assert!(!e.to_string().is_empty());
        }
        let p = Position::from_sfen("9/9/9/9/9/9/9/9/4K4 b - 1").unwrap();
        assert_eq!(p.validate_mate_problem(), Err(SfenError::NoDefenderKing));
        // A 0 after a count's first digit is part of the number.
        let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b G10p 1").unwrap();
        assert_eq!(p.hand(Color::White).count(PieceKind::Pawn), 10);
    }

    /// Blanks between fields may be any run of spaces or tabs; a syntax error names the text it
    /// stopped at, not the parser's internals.
    #[test]
    fn blanks_are_free_and_syntax_errors_name_the_text() {
        let p = Position::from_sfen("sfen  k8/9/PK7/9/9/9/9/9/9 \t b  2r 1").unwrap();
        assert_eq!(
            p.key(),
            Position::from_sfen("k8/9/PK7/9/9/9/9/9/9 b 2r 1")
                .unwrap()
                .key()
        );
        let e = Position::from_sfen("k8/9/PK7/9/9/9/9/9/9 x 2r 1").unwrap_err();
        assert!(e.to_string().contains("at 'x'"), "{e}");
        assert!(!e.to_string().contains("InvalidInput"), "{e}");
        let e = Position::from_sfen("k8/9/PK7/9/9/9/9/9/9 b 2r 1 zz").unwrap_err();
        assert!(e.to_string().contains("unexpected 'zz'"), "{e}");
        let e = Position::from_sfen("sfen").unwrap_err();
        assert_eq!(e.to_string(), "malformed SFEN: no position given");
        // `moves` is a word like the others: a tab before it is a blank, and glued to its
        // neighbours it is no keyword.
        let p = Position::from_sfen("position startpos\tmoves 7g7f").unwrap();
        assert_eq!(p.moves_played(), 1);
        let p = Position::from_sfen("k8/9/PK7/9/9/9/9/9/9 b 2r 1\tmoves\t9c9b+").unwrap();
        assert_eq!(p.moves_played(), 1);
        for glued in ["position startposmoves", "position startpos moves7g7f"] {
            assert!(Position::from_sfen(glued).is_err(), "{glued}");
        }
        // A long text is quoted back cut, not whole.
        let e = Position::from_sfen(&"A".repeat(500_000)).unwrap_err();
        assert!(e.to_string().len() < 400, "{} bytes", e.to_string().len());
        let junk = format!("k8/9/PK7/9/9/9/9/9/9 b 2r 1 {}", "x".repeat(300_000));
        let e = Position::from_sfen(&junk).unwrap_err();
        assert!(e.to_string().len() < 400, "{} bytes", e.to_string().len());
    }

    /// Moves after a problem SFEN are played with the defender holding the pieces the SFEN leaves
    /// out (here the pawn it interposes), as the search reads the problem; without moves the
    /// position stays as written. With a king on each side nothing is given.
    #[test]
    fn moves_after_a_problem_follow_the_defenders_hand_convention() {
        let problem = "3R1G3/4k4/4l4/9/9/9/9/9/9 b 2B3SP 1";
        let literal = Position::from_sfen(problem).unwrap();
        assert_eq!(literal.hand(Color::White).count(PieceKind::Pawn), 0);
        let p = Position::from_sfen(&format!("{problem} moves B*3d P*4c")).unwrap();
        assert_eq!(p.hand(Color::White).count(PieceKind::Pawn), 16);
        assert_eq!(p.hand(Color::White).count(PieceKind::Rook), 1);
        assert_eq!(p.hand(Color::Black).count(PieceKind::Bishop), 1);
        // A game position: a pawn the side not to move does not hold cannot be dropped.
        let game = "4k4/9/9/9/9/9/9/9/4K4 b 2P 1";
        assert!(Position::from_sfen(&format!("{game} moves 5i5h P*5b")).is_err());
    }

    #[test]
    fn round_trip() {
        for s in [
            STARTPOS,
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        ] {
            assert_eq!(Position::from_sfen(s).unwrap().to_sfen(), s);
        }
    }
}
