//! The canonical and spare games: how composers count a mate, beside the minimax count.
//!
//! * `composers.rs` — the composers' futility test (the ranking's test of a drop); the canonical
//!   game's own rule reads the board only and is `game/futile.rs`.
//! * `spare.rs` — mates with pieces to spare (駒余り) and the spare game.
//! * `line.rs` — the canonical line phase after the strict line.
//! * `ranking.rs` — the composers' ranking of defences on the printed canonical line.
//! * `unspared.rs` — among 余詰 of the same length, the line that uses every piece (the check).

pub mod composers;
pub mod line;
pub mod ranking;
pub mod spare;
pub mod unspared;

/// How interpositions count in the printed line and its length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Futile {
    /// Every legal evasion counts: the minimax length.
    #[default]
    Count,
    /// Futile interpositions are no defence: the canonical (composer's) length.
    Skip,
}

impl Futile {
    /// Parses the USI / command-line spelling (`count`, `skip`), case-insensitively.
    pub fn parse(s: &str) -> Option<Futile> {
        match s.trim().to_ascii_lowercase().as_str() {
            "count" => Some(Futile::Count),
            "skip" => Some(Futile::Skip),
            _ => None,
        }
    }

    /// The USI spelling.
    pub fn usi_name(self) -> &'static str {
        match self {
            Futile::Count => "Count",
            Futile::Skip => "Skip",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Futile;

    #[test]
    fn parses_its_spellings() {
        assert_eq!(Futile::parse("SKIP"), Some(Futile::Skip));
        assert_eq!(Futile::parse(" count "), Some(Futile::Count));
        assert_eq!(Futile::parse("maybe"), None);
        assert_eq!(Futile::parse(Futile::Skip.usi_name()), Some(Futile::Skip));
    }
}
