//! Who defends at the root of a mate search: which side the search tries to mate.
//!
//! | side to move: king | in check | other side: king | the defender |
//! |---|---|---|---|
//! | no | — | no | none: refused |
//! | no | — | yes | the other side: the side to move attacks (a tsume problem) |
//! | yes | no | no | none: refused |
//! | yes | yes | no | the side to move: the attacker has just checked (a tsume problem, one ply on) |
//! | yes | no | yes | the other side: the side to move attacks (a game position) |
//! | yes | yes | yes | `RootIsAndNodeIfChecked`: true (the default), the side to move; false, the other side |
//!
//! When the side to move defends, the root is an AND node: the answer says whether it is mated, the
//! line starts with its reply and has an even number of plies (0: it is mated already). When it
//! attacks from a position where it is in check (the option false), its checks must answer the
//! check too, as every move must. In any case the side not to move must not be in check (its king
//! would be taken), and a game `go` always attacks (`usi/engine.rs`).

use crate::position::{Color, Position, SfenError};

/// What the side to move does at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootRole {
    /// It attacks: the root is an OR node, mates have an odd number of plies.
    Attacks,
    /// It defends: the root is an AND node, mates have an even number of plies.
    Defends,
}

impl RootRole {
    /// The attacking side of `pos` in this role.
    pub fn attacker(self, pos: &Position) -> Color {
        match self {
            RootRole::Attacks => pos.side_to_move(),
            RootRole::Defends => pos.side_to_move().flip(),
        }
    }
}

/// The role of the side to move of `pos` (module table); `and_if_checked`: the option
/// `RootIsAndNodeIfChecked`. Refused: no side has a king to mate, or the side not to move is in
/// check.
pub fn root_role(pos: &Position, and_if_checked: bool) -> Result<RootRole, SfenError> {
    let us = pos.side_to_move();
    let them = us.flip();
    if let Some(k) = pos.king_square(them)
        && pos.is_attacked(us, k)
    {
        return Err(SfenError::OpponentInCheck);
    }
    let theirs = pos.king_square(them).is_some();
    // In check: the side to move has a king, and it is attacked.
    let checked = pos.king_square(us).is_some() && pos.in_check();
    match (checked, theirs) {
        (false, true) => Ok(RootRole::Attacks),
        (true, false) => Ok(RootRole::Defends),
        (true, true) if and_if_checked => Ok(RootRole::Defends),
        (true, true) => Ok(RootRole::Attacks),
        (false, false) => Err(SfenError::NoDefenderKing),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn role(sfen: &str, and_if_checked: bool) -> Result<RootRole, SfenError> {
        root_role(&Position::from_sfen(sfen).unwrap(), and_if_checked)
    }

    /// Every row of the module's table.
    #[test]
    fn every_row_of_the_table() {
        // No king for the side to move, a king for the other: the side to move attacks.
        for and in [true, false] {
            assert_eq!(role("8k/9/9/9/9/9/9/9/9 b G 1", and), Ok(RootRole::Attacks));
        }
        // A king for the side to move, none for the other: refused unless in check, then it defends.
        assert_eq!(
            role("8K/9/9/9/9/9/9/9/9 b g 1", true),
            Err(SfenError::NoDefenderKing)
        );
        for and in [true, false] {
            assert_eq!(
                role("7gK/9/9/9/9/9/9/9/9 b - 1", and),
                Ok(RootRole::Defends)
            );
        }
        // Both kings, the side to move not in check: it attacks.
        for and in [true, false] {
            assert_eq!(
                role("8k/9/9/9/9/9/9/9/K8 b G 1", and),
                Ok(RootRole::Attacks)
            );
        }
        // Both kings, the side to move in check: the option decides.
        let checked = "8k/9/9/9/9/9/9/1g7/K8 b G 1";
        assert_eq!(role(checked, true), Ok(RootRole::Defends));
        assert_eq!(role(checked, false), Ok(RootRole::Attacks));
    }
}
