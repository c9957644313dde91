//! The USI options kanju offers, their `usi` announcement, and `setoption` applied to them.
//!
//! Every check lives here so that a bad `setoption` is refused with a reason and the old value kept:
//! a GUI that sends garbage must not leave the engine half-configured.

use crate::checked::{HASH_DEFAULT_MB, HASH_MAX_MB, HASH_MIN_MB, TableSizeError, check_table_size};
use crate::search::Futile;
use crate::search::PvLevel;
use std::fmt;

pub const PV_INTERVAL_DEFAULT_MS: u64 = 1000;
pub const PV_INTERVAL_MAX_MS: u64 = 3_600_000;
pub const THREADS_MAX: u64 = 256;
/// `MultiPV`'s largest value: more lines than a position has checks are never printed anyway.
pub const MULTIPV_MAX: u64 = 128;
/// The most `Threads` defaults to: the parallel search has been measured up to here
/// (docs/benchmarks.md, *Parallel search*).
pub const THREADS_DEFAULT_MAX: usize = 8;
/// `NodesLimit`'s largest value (USI spins are signed 64-bit in most GUIs).
pub const NODES_LIMIT_MAX: u64 = 1_000_000_000_000_000_000;

/// The default of `Threads`: every core the machine has, up to `THREADS_DEFAULT_MAX`. A GUI user
/// who asks for a mate wants it as soon as the machine can give it, and the threads of one search
/// share one table, so more threads cost no memory.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, usize::from)
        .clamp(1, THREADS_DEFAULT_MAX)
}

/// The settings a `setoption` can change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub hash_mb: usize,
    /// Threads searching each problem (`parallel.rs`).
    pub threads: usize,
    /// A node limit for every search (`NodesLimit`); 0: none.
    pub nodes_limit: u64,
    /// Lines printed after a mate, the answer's first (`MultiPV`).
    pub multipv: usize,
    /// How often an `info … pv …` line is printed during a search; 0 turns them off.
    pub pv_interval_ms: u64,
    /// How much work goes into the mating line after the proof (`PostSearchLevel`).
    pub pv_level: PvLevel,
    /// After a mate, report other attacker moves along the line that also mate within the plies left
    /// (`CheckAlternatives`).
    pub check_alternatives: bool,
    /// The composers' check after each `go mate`, its report as `info string` lines
    /// (`ComposerReport`; `crate::composer`).
    pub composer_report: bool,
    /// With `composer_report`, the ranking read further with wider spare tests
    /// (`ComposerThorough`; `kanju check --thorough`).
    pub composer_thorough: bool,
    /// Whether futile interpositions count as defences (`FutileInterposition`).
    pub futile: Futile,
    /// With both kings and the side to move in check, the side to move defends
    /// (`RootIsAndNodeIfChecked`, `search::roles`).
    pub root_and_if_checked: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: HASH_DEFAULT_MB,
            threads: default_threads(),
            nodes_limit: 0,
            multipv: 1,
            pv_interval_ms: PV_INTERVAL_DEFAULT_MS,
            pv_level: PvLevel::default(),
            check_alternatives: false,
            composer_report: false,
            composer_thorough: false,
            futile: Futile::Count,
            root_and_if_checked: true,
        }
    }
}

/// Why a `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    Unknown(String),
    MissingValue(String),
    NotANumber {
        name: &'static str,
        value: String,
    },
    OutOfRange {
        name: &'static str,
        value: i128,
        min: u64,
        max: u64,
    },
    /// In the announced range, but refused by `check_table_size` (more than the machine's memory).
    TableSize(TableSizeError),
    NotABool {
        name: &'static str,
        value: String,
    },
    /// Not one of a combo option's values.
    NotAChoice {
        name: &'static str,
        value: String,
        choices: &'static [&'static str],
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(n) => write!(f, "unknown option '{n}'"),
            OptionError::MissingValue(n) => write!(f, "option '{n}' needs a value"),
            OptionError::NotANumber { name, value } => {
                write!(f, "{name}: '{value}' is not a whole number")
            }
            OptionError::OutOfRange {
                name,
                value,
                min,
                max,
            } => {
                write!(f, "{name}: {value} is out of range ({min}..={max})")
            }
            OptionError::TableSize(e) => write!(f, "{}: {e}", HASH.name),
            OptionError::NotABool { name, value } => {
                write!(f, "{name}: '{value}' is not true or false")
            }
            OptionError::NotAChoice {
                name,
                value,
                choices,
            } => {
                write!(f, "{name}: '{value}' is not one of {}", choices.join(", "))
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// A `type spin` option as announced to the GUI.
struct Spin {
    name: &'static str,
    default: u64,
    min: u64,
    max: u64,
}

const HASH: Spin = Spin {
    name: "USI_Hash",
    default: HASH_DEFAULT_MB as u64,
    min: HASH_MIN_MB as u64,
    max: HASH_MAX_MB as u64,
};
/// `Threads`, whose default is the machine's (`default_threads`).
fn threads_spin() -> Spin {
    Spin {
        name: "Threads",
        default: default_threads() as u64,
        min: 1,
        max: THREADS_MAX,
    }
}
const MULTIPV: Spin = Spin {
    name: "MultiPV",
    default: 1,
    min: 1,
    max: MULTIPV_MAX,
};
const NODES_LIMIT: Spin = Spin {
    name: "NodesLimit",
    default: 0,
    min: 0,
    max: NODES_LIMIT_MAX,
};
const PV_INTERVAL: Spin = Spin {
    name: "PvInterval",
    default: PV_INTERVAL_DEFAULT_MS,
    min: 0,
    max: PV_INTERVAL_MAX_MS,
};

/// `PostSearchLevel`, as other mate engines call it: how much work goes into the line after the proof.
const POST_SEARCH_LEVEL: &str = "PostSearchLevel";
const POST_SEARCH_LEVELS: &[&str] = &["None", "UpperBound", "MinLength"];

/// The standard pondering switch. GUIs send it whether or not it was announced, so it is accepted and
/// ignored (kanju does not ponder) rather than answered with an error on every game start.
const PONDER: &str = "USI_Ponder";
const CHECK_ALTERNATIVES: &str = "CheckAlternatives";
const COMPOSER_REPORT: &str = "ComposerReport";
const COMPOSER_THOROUGH: &str = "ComposerThorough";
const FUTILE: &str = "FutileInterposition";
const FUTILE_CHOICES: &[&str] = &["Count", "Skip"];
const ROOT_AND: &str = "RootIsAndNodeIfChecked";

impl Spin {
    fn usi_line(&self) -> String {
        format!(
            "option name {} type spin default {} min {} max {}",
            self.name, self.default, self.min, self.max
        )
    }

    fn parse(&self, value: &str) -> Result<u64, OptionError> {
        let n: i128 = value.trim().parse().map_err(|_| OptionError::NotANumber {
            name: self.name,
            value: value.to_string(),
        })?;
        if n < i128::from(self.min) || n > i128::from(self.max) {
            return Err(OptionError::OutOfRange {
                name: self.name,
                value: n,
                min: self.min,
                max: self.max,
            });
        }
        // In range, so it fits a u64.
        Ok(n as u64)
    }
}

impl Options {
    /// The `option …` lines of the `usi` answer, in the order GUIs show them.
    pub fn usi_lines() -> Vec<String> {
        let mut lines: Vec<String> = [&HASH, &threads_spin(), &NODES_LIMIT, &MULTIPV, &PV_INTERVAL]
            .iter()
            .map(|s| s.usi_line())
            .collect();
        lines.push(format!(
            "option name {POST_SEARCH_LEVEL} type combo default {} var {}",
            PvLevel::default().usi_name(),
            POST_SEARCH_LEVELS.join(" var ")
        ));
        lines.push(format!(
            "option name {CHECK_ALTERNATIVES} type check default false"
        ));
        lines.push(format!(
            "option name {FUTILE} type combo default Count var Count var Skip"
        ));
        lines.push(format!("option name {ROOT_AND} type check default true"));
        lines.push(format!(
            "option name {COMPOSER_REPORT} type check default false"
        ));
        lines.push(format!(
            "option name {COMPOSER_THOROUGH} type check default false"
        ));
        lines
    }

    /// Applies `setoption name <name> value <value>`. Names are case-insensitive. On error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        let key = name.trim().to_ascii_lowercase();
        // Every option needs a value; none given (or only blanks) is said as such, whatever its type.
        let need = |name: &'static str| {
            value
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .ok_or_else(|| OptionError::MissingValue(name.to_string()))
        };
        let threads = threads_spin();
        let spin = match key.as_str() {
            "usi_hash" => &HASH,
            "threads" => &threads,
            "nodeslimit" => &NODES_LIMIT,
            "multipv" => &MULTIPV,
            "pvinterval" => &PV_INTERVAL,
            "usi_ponder" => return parse_bool(PONDER, need(PONDER)?).map(|_| ()),
            "futileinterposition" => {
                let v = need(FUTILE)?;
                self.futile = Futile::parse(v).ok_or_else(|| OptionError::NotAChoice {
                    name: FUTILE,
                    value: v.to_string(),
                    choices: FUTILE_CHOICES,
                })?;
                return Ok(());
            }
            "rootisandnodeifchecked" => {
                self.root_and_if_checked = parse_bool(ROOT_AND, need(ROOT_AND)?)?;
                return Ok(());
            }
            "checkalternatives" => {
                self.check_alternatives =
                    parse_bool(CHECK_ALTERNATIVES, need(CHECK_ALTERNATIVES)?)?;
                return Ok(());
            }
            "composerreport" => {
                self.composer_report = parse_bool(COMPOSER_REPORT, need(COMPOSER_REPORT)?)?;
                return Ok(());
            }
            "composerthorough" => {
                self.composer_thorough = parse_bool(COMPOSER_THOROUGH, need(COMPOSER_THOROUGH)?)?;
                return Ok(());
            }
            "postsearchlevel" => {
                let v = need(POST_SEARCH_LEVEL)?;
                self.pv_level = PvLevel::parse(v).ok_or_else(|| OptionError::NotAChoice {
                    name: POST_SEARCH_LEVEL,
                    value: v.to_string(),
                    choices: POST_SEARCH_LEVELS,
                })?;
                return Ok(());
            }
            _ => return Err(OptionError::Unknown(name.to_string())),
        };
        let n = spin.parse(need(spin.name)?)?;
        match key.as_str() {
            "usi_hash" => {
                let mb = n as usize;
                check_table_size(mb).map_err(OptionError::TableSize)?;
                self.hash_mb = mb;
            }
            "threads" => self.threads = n as usize,
            "nodeslimit" => self.nodes_limit = n,
            "multipv" => self.multipv = n as usize,
            _ => self.pv_interval_ms = n,
        }
        Ok(())
    }
}

fn parse_bool(name: &'static str, value: &str) -> Result<bool, OptionError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(OptionError::NotABool {
            name,
            value: value.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn announces_every_option() {
        let lines = Options::usi_lines();
        assert_eq!(
            lines[0],
            "option name USI_Hash type spin default 256 min 1 max 65536"
        );
        assert_eq!(
            lines[1],
            format!(
                "option name Threads type spin default {} min 1 max 256",
                default_threads()
            )
        );
        assert_eq!(
            lines[2],
            "option name NodesLimit type spin default 0 min 0 max 1000000000000000000"
        );
        assert_eq!(
            lines[3],
            "option name MultiPV type spin default 1 min 1 max 128"
        );
        assert_eq!(
            lines[4],
            "option name PvInterval type spin default 1000 min 0 max 3600000"
        );
        assert_eq!(
            lines[5],
            "option name PostSearchLevel type combo default MinLength var None var UpperBound var MinLength"
        );
        assert_eq!(
            lines[6],
            "option name CheckAlternatives type check default false"
        );
        assert_eq!(
            lines[7],
            "option name FutileInterposition type combo default Count var Count var Skip"
        );
        assert_eq!(
            lines[8],
            "option name RootIsAndNodeIfChecked type check default true"
        );
        assert_eq!(
            lines[9],
            "option name ComposerReport type check default false"
        );
        assert_eq!(
            lines[10],
            "option name ComposerThorough type check default false"
        );
    }

    #[test]
    fn sets_values_case_insensitively() {
        let mut o = Options::default();
        o.set("usi_hash", Some("16")).unwrap();
        o.set("PVINTERVAL", Some("0")).unwrap();
        o.set("Threads", Some("1")).unwrap();
        assert_eq!(o.threads, 1);
        o.set("threads", Some("256")).unwrap();
        assert_eq!(o.threads, 256);
        o.set("NodesLimit", Some("5000")).unwrap();
        assert_eq!(o.nodes_limit, 5000);
        o.set("USI_Ponder", Some("false")).unwrap();
        o.set("postsearchlevel", Some("upperbound")).unwrap();
        assert_eq!(o.pv_level, PvLevel::UpperBound);
        o.set("PostSearchLevel", Some("None")).unwrap();
        assert_eq!(o.pv_level, PvLevel::None);
        o.set("FutileInterposition", Some("skip")).unwrap();
        assert_eq!(o.futile, Futile::Skip);
        o.set("checkalternatives", Some("TRUE")).unwrap();
        o.set("rootisandnodeifchecked", Some("false")).unwrap();
        assert!(!o.root_and_if_checked);
        o.set("composerthorough", Some("true")).unwrap();
        assert!(o.composer_thorough);
        assert!(o.check_alternatives);
        assert_eq!(o.hash_mb, 16);
        assert_eq!(o.pv_interval_ms, 0);
    }

    #[test]
    fn refuses_bad_values_and_keeps_the_old_one() {
        let mut o = Options::default();
        for (name, value) in [
            ("USI_Hash", Some("abc")),
            ("USI_Hash", Some("-5")),
            ("USI_Hash", Some("0")),
            ("USI_Hash", Some("65537")),
            (
                "USI_Hash",
                Some("99999999999999999999999999999999999999999"),
            ),
            ("USI_Hash", None),
            ("Threads", Some("0")),
            ("Threads", Some("257")),
            ("NodesLimit", Some("-1")),
            ("MultiPV", Some("0")),
            ("NodesLimit", Some("1000000000000000001")),
            ("PvInterval", Some("3600001")),
            ("USI_Ponder", Some("maybe")),
            ("PostSearchLevel", Some("Shortest")),
            ("PostSearchLevel", None),
            ("CheckAlternatives", Some("yes")),
            ("FutileInterposition", Some("sometimes")),
            ("CheckAlternatives", None),
            ("NoSuchOption", Some("1")),
        ] {
            let e = o.set(name, value).expect_err(name);
            assert!(!e.to_string().is_empty());
        }
        assert_eq!(o, Options::default());
        // No value is said as such for every type (a check option too, not as "'' is not true or
        // false").
        for name in [
            "USI_Hash",
            "USI_Ponder",
            "CheckAlternatives",
            "PostSearchLevel",
            "FutileInterposition",
        ] {
            for value in [None, Some("  ")] {
                let e = o.set(name, value).expect_err(name);
                assert_eq!(e.to_string(), format!("option '{name}' needs a value"));
            }
        }
    }
}
