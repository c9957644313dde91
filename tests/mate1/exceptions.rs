//! Hand-built exception cases, in both colours.

use super::*;
use crate::random::{rank_text, swap_case};

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
