//! Parsing USI command lines into `Command`s, and the time budget of a game `go`.
//!
//! Parsing is kept apart from acting on commands so that every malformed line is handled in one place
//! and can be unit-tested without an engine.

use crate::position::Color;
use std::time::Duration;

/// One line from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// An empty line: ignored.
    Empty,
    Usi,
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    UsiNewGame,
    /// The whole `position …` line (the position reader accepts it as is).
    Position(String),
    /// `go mate <limit>`. `ignored`: the line's other words (`go btime 0 mate 1000`, `go mate 1000
    /// nodes 5`), empty when there are none: reported, not obeyed, since `go mate` takes no others.
    GoMate {
        limit: MateLimit,
        ignored: String,
    },
    Go(GoParams),
    Stop,
    Quit,
    GameOver,
    PonderHit,
    /// A command that was understood but cannot be carried out. The GUI still waits for an answer to
    /// it (a `go mate` for its `checkmate` line, a `go` for its `bestmove`), so `reply` is printed
    /// after the error.
    Refused {
        error: String,
        reply: &'static str,
        /// What the reply waits for, as a well-formed `go`'s would.
        awaits: Awaits,
    },
    /// Not a USI command kanju knows.
    Unknown(String),
    /// A line that could not be read whole (not UTF-8, or longer than the reader keeps; see
    /// `parse_unreadable`). It is not carried out: `error` says why. A `position` line forgets the
    /// position in effect (`forget_position`), so that the next `go` is refused instead of solving
    /// the one before; `then` is the command carried out all the same: the answer a GUI waits for
    /// (`usi`, `isready`) or the end of a wait (`stop`, `ponderhit`, `gameover`, `quit`).
    Unreadable {
        error: String,
        forget_position: bool,
        then: Option<Box<Command>>,
    },
}

/// What the answer of a game `go` waits for besides its search (USI: after `go infinite` the
/// `bestmove` comes only once `stop` does, after `go ponder` once `ponderhit` or `stop` does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Awaits {
    Nothing,
    Stop,
    PonderHit,
}

/// The limit of a `go mate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateLimit {
    Infinite,
    Millis(u64),
}

/// The clock of a game `go` (all in milliseconds).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub btime: Option<u64>,
    pub wtime: Option<u64>,
    pub binc: Option<u64>,
    pub winc: Option<u64>,
    pub byoyomi: Option<u64>,
    pub movetime: Option<u64>,
    /// `go nodes N`: at most N nodes (the answer is then `resign` if no mate was proven).
    pub nodes: Option<u64>,
    /// `go depth N`: accepted, and ignored: a mate search has no depth to stop at (a proof is a
    /// proof whatever its length).
    pub depth: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
}

/// Kept back from every game budget so that the `bestmove` reaches the GUI before the flag falls.
const SAFETY_MARGIN_MS: u64 = 100;
/// The least time a game search gets, however short the clock.
const MIN_BUDGET_MS: u64 = 10;
/// With a main time only, spend about this fraction of it on one move.
const MAIN_TIME_DIVISOR: u64 = 20;

impl GoParams {
    /// How long to look for a mate, or `None` to search until `stop`: `infinite`, `ponder` (kanju does not
    /// ponder; it searches until told), or no clock at all (a bare `go`, as in UCI).
    pub fn budget(&self, side: Color) -> Option<Duration> {
        if self.infinite || self.ponder {
            return None;
        }
        if let Some(mt) = self.movetime {
            return Some(millis(mt.saturating_sub(SAFETY_MARGIN_MS.min(mt / 10))));
        }
        let (time, inc) = match side {
            Color::Black => (self.btime, self.binc),
            Color::White => (self.wtime, self.winc),
        };
        if time.is_none() && inc.is_none() && self.byoyomi.is_none() {
            return None;
        }
        let (time, inc, byoyomi) = (
            time.unwrap_or(0),
            inc.unwrap_or(0),
            self.byoyomi.unwrap_or(0),
        );
        let wanted = time / MAIN_TIME_DIVISOR + inc + byoyomi;
        // Never plan past what the clock holds (increment is only credited after the move).
        let cap = time
            .saturating_add(byoyomi)
            .saturating_sub(SAFETY_MARGIN_MS);
        Some(millis(wanted.min(cap)))
    }
}

fn millis(ms: u64) -> Duration {
    Duration::from_millis(ms.max(MIN_BUDGET_MS))
}

const CHECKMATE_TIMEOUT: &str = "checkmate timeout";
const BESTMOVE_RESIGN: &str = "bestmove resign";

/// Parses one input line. Never fails: anything unusable becomes `Unknown` or `Refused`.
pub fn parse(line: &str) -> Command {
    let mut words = line.split_whitespace();
    let Some(head) = words.next() else {
        return Command::Empty;
    };
    let rest: Vec<&str> = words.collect();
    match head {
        "usi" => Command::Usi,
        "isready" => Command::IsReady,
        "setoption" => parse_setoption(&rest),
        "usinewgame" => Command::UsiNewGame,
        "position" => Command::Position(line.trim().to_string()),
        "go" => parse_go(&rest),
        "stop" => Command::Stop,
        "quit" => Command::Quit,
        "gameover" => Command::GameOver,
        "ponderhit" => Command::PonderHit,
        _ => Command::Unknown(head.to_string()),
    }
}

/// A line the reader could not take whole (`error` says why), of which `head` is what could be read
/// (its first bytes, decoded lossily: a byte that is not UTF-8 becomes U+FFFD). Such a line is never
/// carried out as it stands, but a GUI must not be left waiting, nor be answered about something
/// else: a `go` is refused in its turn with the reply its
/// kind waits for (`checkmate timeout` for a `go mate`, `bestmove resign` for a game `go`, held like
/// the `go infinite` or `go ponder` it was); `usi` and `isready` are answered after the error, and
/// `stop`, `ponderhit`, `gameover` and `quit`, which end what a GUI waits on, are carried out; a
/// `position` forgets the position in effect, as a refused one does. Anything else (`setoption`,
/// `usinewgame`) is only the error.
pub fn parse_unreadable(head: &str, error: String) -> Command {
    // A byte that could not be read parts words too: `isready` with a stray byte after it is still
    // an `isready`.
    let words: Vec<&str> = head
        .split(|c: char| c.is_whitespace() || c == char::REPLACEMENT_CHARACTER)
        .filter(|w| !w.is_empty())
        .collect();
    let (forget_position, then) = match words.first().copied() {
        Some("go") => {
            let rest = &words[1..];
            // `parse_go`'s reading: a `go` with the word `mate` is a `go mate`.
            let (reply, awaits) = if rest.contains(&"mate") {
                (CHECKMATE_TIMEOUT, Awaits::Nothing)
            } else {
                (BESTMOVE_RESIGN, game_awaits(rest))
            };
            return Command::Refused {
                error,
                reply,
                awaits,
            };
        }
        Some("position") => (true, None),
        // What a GUI waits on, or what ends a wait: honoured (ignored, a garbled `stop` after `go
        // infinite` would leave the GUI waiting for its `bestmove`).
        Some("usi") => (false, Some(Box::new(Command::Usi))),
        Some("isready") => (false, Some(Box::new(Command::IsReady))),
        Some("stop") => (false, Some(Box::new(Command::Stop))),
        Some("ponderhit") => (false, Some(Box::new(Command::PonderHit))),
        Some("gameover") => (false, Some(Box::new(Command::GameOver))),
        Some("quit") => (false, Some(Box::new(Command::Quit))),
        _ => (false, None),
    };
    Command::Unreadable {
        error,
        forget_position,
        then,
    }
}

/// `setoption name <words…> [value <words…>]`.
fn parse_setoption(words: &[&str]) -> Command {
    if words.first() != Some(&"name") || words.len() < 2 {
        return Command::Unknown(
            "setoption (expected: setoption name <name> value <value>)".into(),
        );
    }
    let words = &words[1..];
    let (name, value) = match words.iter().position(|w| *w == "value") {
        Some(i) => (&words[..i], Some(words[i + 1..].join(" "))),
        None => (words, None),
    };
    if name.is_empty() {
        return Command::Unknown("setoption (no option name)".into());
    }
    Command::SetOption {
        name: name.join(" "),
        value,
    }
}

fn parse_go(words: &[&str]) -> Command {
    if let Some(i) = words.iter().position(|w| *w == "mate") {
        // Everything but `mate` and its limit (a bare `go mate` has none).
        let ignored = |limit_words: usize| {
            let rest = words[..i].iter().chain(&words[i + 1 + limit_words..]);
            rest.copied().collect::<Vec<_>>().join(" ")
        };
        return match words.get(i + 1) {
            None => Command::GoMate {
                limit: MateLimit::Infinite,
                ignored: ignored(0),
            },
            Some(&"infinite") => Command::GoMate {
                limit: MateLimit::Infinite,
                ignored: ignored(1),
            },
            Some(ms) => match ms.parse::<u64>() {
                Ok(ms) => Command::GoMate {
                    limit: MateLimit::Millis(ms),
                    ignored: ignored(1),
                },
                Err(_) => Command::Refused {
                    error: format!(
                        "go mate: '{ms}' is neither a time in milliseconds nor 'infinite'"
                    ),
                    reply: CHECKMATE_TIMEOUT,
                    awaits: Awaits::Nothing,
                },
            },
        };
    }
    match parse_go_params(words) {
        Ok(p) => Command::Go(p),
        // Malformed, but still a `go infinite` or `go ponder`: its answer waits all the same.
        Err(error) => Command::Refused {
            error,
            reply: BESTMOVE_RESIGN,
            awaits: game_awaits(words),
        },
    }
}

/// What the answer of a game `go` with these words waits for, well-formed or not.
fn game_awaits(words: &[&str]) -> Awaits {
    if words.contains(&"ponder") {
        Awaits::PonderHit
    } else if words.contains(&"infinite") {
        Awaits::Stop
    } else {
        Awaits::Nothing
    }
}

fn parse_go_params(words: &[&str]) -> Result<GoParams, String> {
    let mut p = GoParams::default();
    let mut it = words.iter();
    while let Some(&word) = it.next() {
        let slot = match word {
            "infinite" => {
                p.infinite = true;
                continue;
            }
            "ponder" => {
                p.ponder = true;
                continue;
            }
            "btime" => &mut p.btime,
            "wtime" => &mut p.wtime,
            "binc" => &mut p.binc,
            "winc" => &mut p.winc,
            "byoyomi" => &mut p.byoyomi,
            "movetime" => &mut p.movetime,
            "nodes" | "depth" => {
                let value = it
                    .next()
                    .ok_or_else(|| format!("go: {word} needs a value"))?;
                let n = value
                    .parse::<u64>()
                    .map_err(|_| format!("go: {word} '{value}' is not a count"))?;
                *if word == "nodes" {
                    &mut p.nodes
                } else {
                    &mut p.depth
                } = Some(n);
                continue;
            }
            other => return Err(format!("go: unknown parameter '{other}'")),
        };
        let value = it
            .next()
            .ok_or_else(|| format!("go: {word} needs a value"))?;
        // Some GUIs send a negative remaining time when the clock has run into byoyomi; that is zero.
        let ms = match value.parse::<i64>() {
            Ok(v) => v.max(0) as u64,
            Err(_) => {
                return Err(format!(
                    "go: {word} '{value}' is not a time in milliseconds"
                ));
            }
        };
        *slot = Some(ms);
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_usual_commands() {
        assert_eq!(parse(""), Command::Empty);
        assert_eq!(parse("   \r"), Command::Empty);
        assert_eq!(parse("usi"), Command::Usi);
        assert_eq!(parse("isready\r"), Command::IsReady);
        let mate = |limit, ignored: &str| Command::GoMate {
            limit,
            ignored: ignored.into(),
        };
        assert_eq!(parse("go mate infinite"), mate(MateLimit::Infinite, ""));
        assert_eq!(parse("go mate"), mate(MateLimit::Infinite, ""));
        assert_eq!(parse("go mate 3000"), mate(MateLimit::Millis(3000), ""));
        // Other words are kept to be reported, and do not change the limit.
        assert_eq!(
            parse("go mate 3000 nodes 5"),
            mate(MateLimit::Millis(3000), "nodes 5")
        );
        assert_eq!(
            parse("go btime 0 mate infinite"),
            mate(MateLimit::Infinite, "btime 0")
        );
        assert_eq!(
            parse("position startpos moves 7g7f"),
            Command::Position("position startpos moves 7g7f".into())
        );
        assert_eq!(parse("gameover win"), Command::GameOver);
        assert_eq!(parse("hello"), Command::Unknown("hello".into()));
    }

    #[test]
    fn parses_setoption() {
        assert_eq!(
            parse("setoption name USI_Hash value 64"),
            Command::SetOption {
                name: "USI_Hash".into(),
                value: Some("64".into())
            }
        );
        assert_eq!(
            parse("setoption name Some Option"),
            Command::SetOption {
                name: "Some Option".into(),
                value: None
            }
        );
        assert!(matches!(
            parse("setoption USI_Hash 64"),
            Command::Unknown(_)
        ));
        assert!(matches!(parse("setoption name"), Command::Unknown(_)));
    }

    #[test]
    fn a_broken_go_still_owes_an_answer() {
        assert!(matches!(
            parse("go mate soon"),
            Command::Refused {
                reply: "checkmate timeout",
                ..
            }
        ));
        assert!(matches!(
            parse("go btime x"),
            Command::Refused {
                reply: "bestmove resign",
                ..
            }
        ));
        assert!(matches!(parse("go byoyomi"), Command::Refused { .. }));
        assert!(matches!(
            parse("go infinite searchmoves 7g7f"),
            Command::Refused {
                awaits: Awaits::Stop,
                ..
            }
        ));
        assert!(matches!(
            parse("go ponder btime x"),
            Command::Refused {
                awaits: Awaits::PonderHit,
                ..
            }
        ));
        assert!(matches!(parse("go sideways 3"), Command::Refused { .. }));
        assert!(matches!(parse("go nodes"), Command::Refused { .. }));
        assert!(matches!(parse("go depth -1"), Command::Refused { .. }));
        match parse("go depth 7 nodes 5000 byoyomi 1000") {
            Command::Go(p) => {
                assert_eq!(
                    (p.nodes, p.depth, p.byoyomi),
                    (Some(5000), Some(7), Some(1000))
                )
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn game_budgets() {
        let go = |s: &str| match parse(s) {
            Command::Go(p) => p,
            other => panic!("{s}: {other:?}"),
        };
        let ms = |d: Option<Duration>| d.map(|d| d.as_millis() as u64);
        assert_eq!(ms(go("go").budget(Color::Black)), None);
        assert_eq!(ms(go("go infinite").budget(Color::Black)), None);
        assert_eq!(ms(go("go movetime 5000").budget(Color::Black)), Some(4900));
        assert_eq!(ms(go("go movetime 50").budget(Color::Black)), Some(45));
        assert_eq!(
            ms(go("go btime 0 wtime 0 byoyomi 3000").budget(Color::White)),
            Some(2900)
        );
        assert_eq!(
            ms(go("go btime 60000 wtime 1000 byoyomi 0").budget(Color::Black)),
            Some(3000)
        );
        assert_eq!(
            ms(go("go btime 60000 wtime 1000 byoyomi 0").budget(Color::White)),
            Some(50)
        );
        assert_eq!(
            ms(go("go btime 50 wtime 50 binc 2000 winc 2000").budget(Color::Black)),
            Some(10)
        );
        assert_eq!(
            ms(go("go btime -100 wtime 0 byoyomi 1000").budget(Color::Black)),
            Some(900)
        );
    }

    #[test]
    fn an_unreadable_line_is_answered_for_its_first_words() {
        let why = || "why".to_string();
        let refused = |reply, awaits| Command::Refused {
            error: why(),
            reply,
            awaits,
        };
        let only = |forget_position, then: Option<Command>| Command::Unreadable {
            error: why(),
            forget_position,
            then: then.map(Box::new),
        };
        let mate = refused(CHECKMATE_TIMEOUT, Awaits::Nothing);
        for (head, expected) in [
            ("go mate 1000 \u{FFFD}", mate.clone()),
            ("go mate infinite", mate.clone()),
            ("\u{FFFD}go mate 1000", mate),
            (
                "go btime 0 wtime 0",
                refused(BESTMOVE_RESIGN, Awaits::Nothing),
            ),
            (
                "go ponder btime 0",
                refused(BESTMOVE_RESIGN, Awaits::PonderHit),
            ),
            (
                "go infinite\u{FFFD}",
                refused(BESTMOVE_RESIGN, Awaits::Stop),
            ),
            ("position sfen \u{FFFD}", only(true, None)),
            ("isready\u{FFFD}", only(false, Some(Command::IsReady))),
            ("usi \u{FFFD}", only(false, Some(Command::Usi))),
            ("setoption name USI_Hash value \u{FFFD}", only(false, None)),
            ("stop\u{FFFD}", only(false, Some(Command::Stop))),
            ("quit \u{FFFD}", only(false, Some(Command::Quit))),
            ("usinewgame\u{FFFD}", only(false, None)),
            ("", only(false, None)),
        ] {
            assert_eq!(parse_unreadable(head, why()), expected, "{head}");
        }
    }
}
