//! The `kanju` binary: argument parsing only. USI lives in `kanju::usi`, the subcommands in
//! `kanju::cli`.

use clap::{Parser, Subcommand};
use kanju::checked::{HASH_DEFAULT_MB, check_table_size, check_tables_fit};
use kanju::cli::batch::ProgressMode;
use kanju::cli::bench::{BenchOptions, run_bench};
use kanju::cli::check::{CheckOptions, run_check};
use kanju::cli::solve::{Format, InCheck, Notation, SolveOptions, run_solve};
use kanju::cli::{on_search_stack, perft_report};
use kanju::search::Futile;
use kanju::search::PvLevel;
use std::io::{BufReader, ErrorKind};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "kanju",
    version,
    about = "A tsume-shogi (mate problem) engine speaking USI",
    long_about = "A tsume-shogi (mate problem) engine. Without a subcommand it speaks USI on stdin/stdout \
                  (load it into a GUI as a mate engine)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Solve mate problems: one answer per problem, in input order (`mate <len> <moves>`, `nomate`,
    /// `timeout` or `error <message>`).
    Solve {
        /// Problems: a SFEN, `sfen …`, `startpos` or a whole `position …` command. Without any, one
        /// problem per line is read from stdin (blank and `#` lines skipped).
        sfens: Vec<String>,
        /// Time limit per problem in milliseconds; 0 = none (with no `--nodes` either, the line
        /// after the proof gets a larger budget: docs/mating-line.md).
        #[arg(long, default_value_t = 60_000)]
        time_ms: u64,
        /// Node limit per problem (answers `timeout` when reached); the same on every machine.
        #[arg(long)]
        nodes: Option<u64>,
        /// Transposition table size in MiB, per job.
        #[arg(long, default_value_t = HASH_DEFAULT_MB, value_parser = parse_hash_mb)]
        hash_mb: usize,
        /// Problems solved at once, each on its own thread with its own table.
        #[arg(long, short = 'j', default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
        jobs: u16,
        /// Threads searching each problem's proof, over its one table (beside `--jobs`, which
        /// solves several problems at once: `--jobs` × `--threads` threads in all).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Same as `--format json`.
        #[arg(long, conflicts_with = "format")]
        json: bool,
        /// How `--format text` writes the moves of a mate.
        #[arg(long, value_enum, default_value_t = Notation::Usi)]
        notation: Notation,
        /// The running search's status on stderr (nodes, speed, table fill, what garbage
        /// collection freed, the root's proof/disproof numbers, then the mate length being
        /// shortened): a progress bar when stderr is a terminal (shown by default), else, with
        /// `--progress`, a status line every 10 s.
        #[arg(long, overrides_with = "no_progress")]
        progress: bool,
        /// Seconds between status lines (`--progress` without a terminal).
        #[arg(long, default_value_t = 10.0, value_parser = parse_seconds)]
        progress_every: f64,
        /// No progress bar.
        #[arg(long, overrides_with = "progress")]
        no_progress: bool,
        /// The mating line: `min-length` (the shortest mate against the longest defence), `upper-bound`
        /// (no longer than the proof found; cheaper) or `none` (the first proof's line).
        #[arg(long, default_value = "min-length", value_parser = parse_pv)]
        pv: PvLevel,
        /// After each mate, report other attacker moves along the line that also mate within the
        /// plies left (余詰): `alternative ply <k> <move> mate <n>` lines after the answer (text), an
        /// `alternatives` array (JSON).
        #[arg(long)]
        check_alternatives: bool,
        /// `skip`: futile interpositions (無駄合) are no defence; the line printed is the composer's and
        /// its length the canonical one. `count` (default): every evasion counts.
        #[arg(long, default_value = "count", value_parser = parse_futile)]
        futile: Futile,
        /// With both kings and the side to move in check: `defend` (default) asks whether the side
        /// to move is mated (the line starts with its reply); `attack` searches its own mate, its
        /// checks answering the check too.
        #[arg(long, value_enum, default_value_t = InCheck::Defend)]
        in_check: InCheck,
    },
    /// Run problem files (id, sfen, expected, pv, note; tab separated) and count solved, wrong and
    /// timed-out problems. Exits with 1 if any answer was wrong.
    Bench {
        /// Problem files, e.g. tests/data/*.tsv.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Time limit per problem in milliseconds; 0 = none (with no `--nodes` either, the line
        /// after the proof gets a larger budget: docs/mating-line.md).
        #[arg(long, default_value_t = 10_000)]
        time_ms: u64,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = HASH_DEFAULT_MB, value_parser = parse_hash_mb)]
        hash_mb: usize,
        /// Threads searching each problem's proof, over its one table.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// Only problems whose id contains this text.
        #[arg(long)]
        filter: Option<String>,
        /// At most this many problems per file.
        #[arg(long)]
        limit: Option<usize>,
        /// Print one line per problem.
        #[arg(short, long)]
        verbose: bool,
        /// Internal search switches for measurements, e.g. `agg=sum,chains=none` or `plain`
        /// (docs/config.md lists every key); the default is the best combination measured.
        #[arg(long, value_parser = parse_config)]
        config: Option<kanju::search::SearchConfig>,
        /// Node limit per problem (deterministic, unlike a time limit).
        #[arg(long)]
        nodes: Option<u64>,
        /// The mating line, as for `solve`.
        #[arg(long, default_value = "min-length", value_parser = parse_pv)]
        pv: PvLevel,
        /// Futile interpositions, as for `solve`: with `skip` the printed length is the canonical one.
        #[arg(long, default_value = "count", value_parser = parse_futile)]
        futile: Futile,
        /// A status line on stderr every 10 s while a problem is searched (nodes, speed, table
        /// fill, what garbage collection freed, the root's proof/disproof numbers), so that a long
        /// problem shows it moves.
        #[arg(long)]
        progress: bool,
        /// Seconds between status lines.
        #[arg(long, default_value_t = 10.0, value_parser = parse_seconds)]
        progress_every: f64,
    },
    /// A composer's check of each problem: the verdict, the composer's line (futile interpositions
    /// not counted) and its length, other mating moves along it (余詰, 最終手余詰), a mate shorter
    /// than the recorded length (早詰) or none within it, pieces left in hand (駒余り), and a
    /// one-line summary. Every flaw reported is proven; what the limits left open is said.
    Check {
        /// Problems: a SFEN each, or a problem file (tab-separated `id`, `sfen`, `expected`: a
        /// `mate:N` row is checked against N). Without any, one problem per line from stdin.
        problems: Vec<String>,
        /// Time limit per problem in milliseconds; 0 = none.
        #[arg(long, default_value_t = 60_000)]
        time_ms: u64,
        /// Node limit per problem.
        #[arg(long)]
        nodes: Option<u64>,
        /// Transposition table size in MiB, per job.
        #[arg(long, default_value_t = HASH_DEFAULT_MB, value_parser = parse_hash_mb)]
        hash_mb: usize,
        /// Problems checked at once, each with its own table.
        #[arg(long, short = 'j', default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
        jobs: u16,
        /// Threads searching each problem.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// The recorded length (plies) of problems given as SFEN: 早詰 and a longer shortest mate
        /// are reported against it.
        #[arg(long)]
        length: Option<usize>,
        /// The composer's line (USI moves, e.g. "2d2c+ 1b1a S*1b") of problems given as SFEN, checked
        /// instead of kanju's own line: a file row's fourth column (`pv`) does the same for it.
        #[arg(long)]
        line: Option<String>,
        /// One JSON object per problem instead of the text report.
        #[arg(long)]
        json: bool,
        /// A KIF record per problem instead of the text report: the report as comments before
        /// the first move, every other defence as a branch (変化) with its length, every 余詰 as
        /// a branch of its first move (blank line between records).
        #[arg(long, conflicts_with = "json")]
        kif: bool,
        /// Read the composers' ranking further: after the line is settled, rank it again with
        /// spare-mate tests (駒余り) eight times larger, round after round, while a test is left
        /// undecided and a quarter of the time limit remains. Worth it with minutes per problem.
        #[arg(long)]
        thorough: bool,
    },
    /// Count the leaves of the legal move tree (move generator check and benchmark).
    Perft {
        /// Plies to count (at most 64: deeper trees never finish, and each ply takes stack).
        #[arg(value_parser = clap::value_parser!(u32).range(0..=MAX_PERFT_DEPTH))]
        depth: u32,
        /// Position to start from (SFEN, `sfen …` or `startpos`); the starting position by default.
        #[arg(long, default_value = "startpos")]
        sfen: String,
    },
}

/// The deepest `kanju perft`: a recursion per ply, and no move tree this deep is ever counted whole.
const MAX_PERFT_DEPTH: i64 = 64;

fn parse_hash_mb(s: &str) -> Result<usize, String> {
    let mb: usize = s
        .parse()
        .map_err(|_| format!("'{s}' is not a size in MiB"))?;
    check_table_size(mb).map_err(|e| e.to_string())?;
    Ok(mb)
}

/// Seconds between status lines: a positive number of at most a day (`Duration::from_secs_f64`
/// panics on what is not finite).
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x <= 86_400.0 => Ok(x),
        _ => Err(format!(
            "'{s}' is not a number of seconds between 0 and 86400"
        )),
    }
}

fn parse_futile(s: &str) -> Result<Futile, String> {
    Futile::parse(s).ok_or_else(|| format!("'{s}' is not count or skip"))
}

fn parse_pv(s: &str) -> Result<PvLevel, String> {
    PvLevel::parse(s).ok_or_else(|| format!("'{s}' is not none, upper-bound or min-length"))
}

fn parse_config(s: &str) -> Result<kanju::search::SearchConfig, String> {
    let mut c = kanju::search::SearchConfig::default();
    c.apply(s)?;
    Ok(c)
}

fn main() -> ExitCode {
    // Logs go to stderr only: stdout belongs to the USI protocol and to the answers.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    match Cli::parse().command {
        None => {
            let code = kanju::usi::run_stdio();
            ExitCode::from(code as u8)
        }
        Some(command) => on_search_stack(move || run_command(command)).unwrap_or_else(|| {
            eprintln!("error: the command failed inside (see the log above)");
            ExitCode::from(2)
        }),
    }
}

fn run_command(command: Command) -> ExitCode {
    match command {
        Command::Solve {
            sfens,
            time_ms,
            nodes,
            hash_mb,
            jobs,
            threads,
            format,
            json,
            notation,
            progress,
            progress_every,
            no_progress,
            pv,
            check_alternatives,
            futile,
            in_check,
        } => {
            // More workers than problems would only build tables nobody uses.
            let jobs = match sfens.len() {
                0 => usize::from(jobs),
                n => usize::from(jobs).min(n),
            };
            if let Err(e) = check_tables_fit(jobs, hash_mb) {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
            let opts = SolveOptions {
                time_ms,
                nodes,
                hash_mb,
                format: if json { Format::Json } else { format },
                notation,
                jobs,
                threads: usize::from(threads),
                progress: if no_progress {
                    ProgressMode::Off
                } else if progress {
                    ProgressMode::On
                } else {
                    ProgressMode::Auto
                },
                progress_every: Duration::from_secs_f64(progress_every),
                pv,
                check_alternatives,
                futile,
                root_and_if_checked: in_check == InCheck::Defend,
                watch_stdout: true,
            };
            solve(&sfens, &opts)
        }
        Command::Bench {
            files,
            time_ms,
            hash_mb,
            threads,
            filter,
            limit,
            verbose,
            config,
            nodes,
            pv,
            futile,
            progress,
            progress_every,
        } => {
            let opts = BenchOptions {
                time_ms,
                hash_mb,
                threads: usize::from(threads),
                filter,
                limit,
                verbose,
                config: config.unwrap_or_default(),
                nodes,
                pv,
                futile,
                progress: progress.then(|| Duration::from_secs_f64(progress_every)),
            };
            bench(&files, &opts)
        }
        Command::Check {
            problems,
            time_ms,
            nodes,
            hash_mb,
            jobs,
            threads,
            length,
            line,
            json,
            kif,
            thorough,
        } => {
            let jobs = usize::from(jobs);
            if let Err(e) = check_tables_fit(jobs, hash_mb) {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
            let opts = CheckOptions {
                time_ms,
                nodes,
                hash_mb,
                jobs,
                threads: usize::from(threads),
                length,
                line,
                json,
                kif,
                thorough,
            };
            let stdout = std::io::stdout();
            match run_check(
                &problems,
                &opts,
                BufReader::new(std::io::stdin()),
                &mut stdout.lock(),
            ) {
                Ok(true) => ExitCode::SUCCESS,
                Ok(false) => ExitCode::from(1),
                Err(e) if e.kind() == ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Perft { depth, sfen } => match perft_report(&sfen, depth) {
            Ok(report) => {
                println!("{report}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
    }
}

/// Exit status: 0 when every problem got an answer, 1 when any was `error`, 2 when the I/O failed.
fn solve(sfens: &[String], opts: &SolveOptions) -> ExitCode {
    let stdout = std::io::stdout();
    match run_solve(
        sfens,
        opts,
        BufReader::new(std::io::stdin()),
        &mut stdout.lock(),
    ) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        // The reader went away (`kanju solve … | head`): nobody is left to tell.
        Err(e) if e.kind() == ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Exit status: 0 when nothing was wrong, 1 when an answer was wrong, 2 when a file could not be read.
fn bench(files: &[PathBuf], opts: &BenchOptions) -> ExitCode {
    let stdout = std::io::stdout();
    match run_bench(files, opts, &mut stdout.lock()) {
        Ok(t) if t.wrong == 0 => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
