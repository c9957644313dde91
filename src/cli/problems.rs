//! Problem files (`tests/data/README.md` describes the columns): reading them, within a size limit,
//! and grading an answer against the `expected` column.

use crate::checked::Answer;
use std::fmt;
use std::io;
use std::path::Path;

/// The `expected` column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// A mate of this many plies.
    Mate(usize),
    /// A mate of unknown length.
    MateUnknown,
    /// Proven no mate.
    NoMate,
    /// No mate of this many plies or fewer.
    NoMateWithin(usize),
}

impl Expected {
    pub fn parse(s: &str) -> Option<Expected> {
        match s.trim() {
            "nomate" => Some(Expected::NoMate),
            "mate:unknown" => Some(Expected::MateUnknown),
            s => {
                if let Some(n) = s.strip_prefix("mate:") {
                    // The attacker moves first and last: a mate has an odd number of plies.
                    n.parse().ok().filter(|n| n % 2 == 1).map(Expected::Mate)
                } else {
                    s.strip_prefix("nomate-within:")?
                        .parse()
                        .ok()
                        .map(Expected::NoMateWithin)
                }
            }
        }
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Mate(n) => write!(f, "mate:{n}"),
            Expected::MateUnknown => f.write_str("mate:unknown"),
            Expected::NoMate => f.write_str("nomate"),
            Expected::NoMateWithin(n) => write!(f, "nomate-within:{n}"),
        }
    }
}

/// One row of a problem file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub id: String,
    pub sfen: String,
    pub expected: Expected,
    /// The fourth column, when not empty: a line (USI moves from the position), e.g. the recorded
    /// solution that `kanju check` checks instead of its own.
    pub pv: Option<String>,
}

/// Reads the rows of a problem file; a malformed row is returned as an error with its line number.
pub fn parse_problems(text: &str) -> Vec<Result<Problem, String>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| parse_row(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

pub fn parse_row(line: &str) -> Result<Problem, String> {
    let cols: Vec<&str> = line.split('\t').collect();
    let [id, sfen, expected, ref rest @ ..] = cols[..] else {
        return Err("expected at least 3 tab-separated columns (id, sfen, expected)".into());
    };
    let expected =
        Expected::parse(expected).ok_or_else(|| format!("unknown expected value '{expected}'"))?;
    Ok(Problem {
        id: id.trim().to_string(),
        sfen: sfen.trim().to_string(),
        expected,
        pv: rest
            .first()
            .map(|pv| pv.trim())
            .filter(|pv| !pv.is_empty())
            .map(str::to_string),
    })
}

/// Whether a file's `mate:N` is the minimax length (so a shorter mate is wrong), or the length of a
/// recorded composer's line (zukou, microcosmos: lengths under the futile-interposition rule, see the
/// problems README), where only legality is checked.
pub fn lengths_are_minimax(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    !(name.starts_with("zukou") || name.starts_with("microcosmos"))
}

/// How one answer compares with the expected one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Grade {
    /// Right, and for a `mate:N` row of exactly N plies.
    Exact,
    /// Right, but not of the recorded length (or no length to compare).
    Solved,
    /// A verified mate whose line is longer than the minimax length: right, but not the shortest
    /// mate against the longest defence. Counted as solved, and apart.
    Longer,
    /// A verified mate whose line is shorter than the minimax length: the mate is real (df-pn proved
    /// it), but the printed line lets the defender give up early. Counted as solved, and apart.
    Short,
    Wrong(String),
    Timeout,
    /// The SFEN was refused (`Position::from_sfen` or `validate_mate_problem`): a malformed or
    /// impossible position, e.g. two unpromoted pawns of one colour on a file. Refusing it is the
    /// specified behaviour, so it is neither solved nor wrong; the string is kanju's reason.
    Illegal(String),
}

/// Grades an answer. `minimax` says whether `mate:N` is the shortest possible mate (see
/// `lengths_are_minimax`). Mate lines reaching here have already passed `verify_mate_line`.
pub fn grade(expected: Expected, answer: &Answer, minimax: bool) -> Grade {
    match (answer, expected) {
        (Answer::Timeout, _) => Grade::Timeout,
        (Answer::Error(e), _) => Grade::Wrong(e.clone()),
        (Answer::NoMate, Expected::Mate(_) | Expected::MateUnknown) => {
            Grade::Wrong("nomate, but a mate exists".into())
        }
        (Answer::NoMate, Expected::NoMate | Expected::NoMateWithin(_)) => Grade::Solved,
        (Answer::Mate(l), Expected::NoMate) => {
            Grade::Wrong(format!("a mate in {} on a nomate row", l.len()))
        }
        (Answer::Mate(l), Expected::NoMateWithin(n)) if l.len() <= n => {
            Grade::Wrong(format!("a mate in {}, but none exists within {n}", l.len()))
        }
        (Answer::Mate(_), Expected::NoMateWithin(_) | Expected::MateUnknown) => Grade::Solved,
        (Answer::Mate(l), Expected::Mate(n)) if l.len() == n => Grade::Exact,
        (Answer::Mate(l), Expected::Mate(n)) if l.len() < n && minimax => Grade::Short,
        (Answer::Mate(l), Expected::Mate(n)) if l.len() > n && minimax => Grade::Longer,
        (Answer::Mate(_), Expected::Mate(_)) => Grade::Solved,
    }
}

/// The most a problem file may hold (about a million rows); a larger one, or an endless one such as
/// `/dev/zero`, is refused instead of filling the memory.
const MAX_FILE_BYTES: u64 = 256 << 20;

fn too_large() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "larger than {} MiB: not a problem file",
            MAX_FILE_BYTES >> 20
        ),
    )
}

/// Refuses, by what its metadata says, what is no problem file: a file larger than `MAX_FILE_BYTES`,
/// or anything but a file or a pipe.
pub fn refuse_by_metadata(meta: &std::fs::Metadata) -> io::Result<()> {
    // A file says its size; a device (`/dev/zero`) is no problem file at all; only a pipe
    // (`<(…)`) must be read to learn it.
    if meta.is_file() && meta.len() > MAX_FILE_BYTES {
        return Err(too_large());
    }
    if !meta.is_file() && !is_fifo(meta) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a file or a pipe",
        ));
    }
    Ok(())
}

/// Reads a problem file whole, refusing it past `MAX_FILE_BYTES` (a pipe says its size only so).
pub fn read_limited(path: &Path) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    refuse_by_metadata(&file.metadata()?)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large());
    }
    Ok(bytes)
}

#[cfg(unix)]
fn is_fifo(meta: &std::fs::Metadata) -> bool {
    std::os::unix::fs::FileTypeExt::is_fifo(&meta.file_type())
}

#[cfg(not(unix))]
fn is_fifo(_meta: &std::fs::Metadata) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn parses_rows() {
        let text = "# id\tsfen\texpected\tpv\tnote\n\na\t4k4/9/4P4/9/9/9/9/9/9 b G 1\tmate:1\tG*5b\t\nb\tstartpos\tnomate\nc\tx\tmate:?\nd only one column\n";
        let rows = parse_problems(text);
        assert_eq!(rows.len(), 4);
        assert_eq!(rows[0].as_ref().unwrap().expected, Expected::Mate(1));
        assert_eq!(rows[1].as_ref().unwrap().expected, Expected::NoMate);
        assert!(rows[2].as_ref().unwrap_err().starts_with("line 5:"));
        assert!(rows[3].is_err());
        assert_eq!(
            Expected::parse("nomate-within:3"),
            Some(Expected::NoMateWithin(3))
        );
        assert_eq!(Expected::parse("mate:unknown"), Some(Expected::MateUnknown));
        // No mate has 0 or an even number of plies (taken, `mate:0` would grade a mate in 3
        // "longer").
        for label in ["mate:0", "mate:4", "mate:-1", "mate:"] {
            assert_eq!(Expected::parse(label), None, "{label}");
        }
    }

    #[test]
    fn grades_answers() {
        let pos = Position::startpos();
        let m = pos.parse_usi_move("7g7f").unwrap();
        let mate = |n: usize| Answer::Mate(vec![m; n]);
        assert_eq!(grade(Expected::Mate(3), &mate(3), true), Grade::Exact);
        assert_eq!(grade(Expected::Mate(3), &mate(5), true), Grade::Longer);
        assert_eq!(grade(Expected::Mate(3), &mate(5), false), Grade::Solved);
        assert_eq!(grade(Expected::Mate(5), &mate(3), true), Grade::Short);
        assert_eq!(grade(Expected::Mate(5), &mate(3), false), Grade::Solved);
        assert!(matches!(
            grade(Expected::Mate(5), &Answer::NoMate, true),
            Grade::Wrong(_)
        ));
        assert!(matches!(
            grade(Expected::MateUnknown, &Answer::NoMate, true),
            Grade::Wrong(_)
        ));
        assert!(matches!(
            grade(Expected::NoMate, &mate(1), true),
            Grade::Wrong(_)
        ));
        assert!(matches!(
            grade(Expected::NoMateWithin(3), &mate(3), true),
            Grade::Wrong(_)
        ));
        assert_eq!(
            grade(Expected::NoMateWithin(3), &mate(5), true),
            Grade::Solved
        );
        assert_eq!(
            grade(Expected::NoMate, &Answer::NoMate, true),
            Grade::Solved
        );
        assert_eq!(
            grade(Expected::Mate(1), &Answer::Timeout, true),
            Grade::Timeout
        );
        assert!(matches!(
            grade(Expected::Mate(1), &Answer::Error("x".into()), true),
            Grade::Wrong(_)
        ));
    }

    #[test]
    fn knows_which_files_record_composers_lengths() {
        assert!(lengths_are_minimax(Path::new(
            "../shared/problems/tanuki.tsv"
        )));
        assert!(lengths_are_minimax(Path::new("yaneuraou-mate3.tsv")));
        assert!(!lengths_are_minimax(Path::new("/x/zukou.tsv")));
        assert!(!lengths_are_minimax(Path::new("microcosmos.tsv")));
    }
}
