use clap::{Parser, Subcommand};
use kanju::position::{Position, movegen};
use kanju::usi::bench::{BenchOptions, run_bench};
use kanju::usi::options::{HASH_DEFAULT_MB, check_hash_mb};
use kanju::usi::shell::{SolveOptions, run_solve};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

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
    /// Solve mate problems: one answer line per problem (`mate <len> <moves>`, `nomate`, `timeout` or
    /// `error <message>`).
    Solve {
        /// Problems: a SFEN, `sfen …`, `startpos` or a whole `position …` command. Without any, one
        /// problem per line is read from stdin (blank and `#` lines skipped).
        sfens: Vec<String>,
        /// Time limit per problem in milliseconds; 0 = none.
        #[arg(long, default_value_t = 60_000)]
        time_ms: u64,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = HASH_DEFAULT_MB, value_parser = parse_hash_mb)]
        hash_mb: usize,
        /// One JSON object per line instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Run problem files (id, sfen, expected, pv, note; tab separated) and count solved, wrong and
    /// timed-out problems. Exits with 1 if any answer was wrong.
    Bench {
        /// Problem files, e.g. ../shared/problems/*.tsv.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Time limit per problem in milliseconds; 0 = none.
        #[arg(long, default_value_t = 10_000)]
        time_ms: u64,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = HASH_DEFAULT_MB, value_parser = parse_hash_mb)]
        hash_mb: usize,
        /// Only problems whose id contains this text.
        #[arg(long)]
        filter: Option<String>,
        /// At most this many problems per file.
        #[arg(long)]
        limit: Option<usize>,
        /// Print one line per problem.
        #[arg(short, long)]
        verbose: bool,
        /// Internal search switches for measurements, e.g. `agg=sum,chains=off` or `plain` (see
        /// `SearchConfig`); the default is the best combination measured.
        #[arg(long, value_parser = parse_config)]
        config: Option<kanju::search::SearchConfig>,
        /// Node limit per problem (deterministic, unlike a time limit).
        #[arg(long)]
        nodes: Option<u64>,
    },
    /// Count the leaves of the legal move tree (move generator check and benchmark).
    Perft {
        depth: u32,
        /// Position to start from (SFEN, `sfen …` or `startpos`); the starting position by default.
        #[arg(long, default_value = "startpos")]
        sfen: String,
    },
}

fn parse_hash_mb(s: &str) -> Result<usize, String> {
    let mb: usize = s
        .parse()
        .map_err(|_| format!("'{s}' is not a size in MiB"))?;
    check_hash_mb(mb).map_err(|e| e.to_string())?;
    Ok(mb)
}

fn parse_config(s: &str) -> Result<kanju::search::SearchConfig, String> {
    let mut c = kanju::search::SearchConfig::default();
    c.apply(s)?;
    Ok(c)
}

fn main() -> ExitCode {
    // Logs go to stderr only: stdout belongs to the USI protocol.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    match cli.command {
        None => {
            let code =
                kanju::usi::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout());
            ExitCode::from(code as u8)
        }
        // The solvers recurse once per ply: they run on a thread with a stack big enough for any mate.
        Some(command) => std::thread::Builder::new()
            .name("kanju".into())
            .stack_size(kanju::search::SEARCH_STACK_BYTES)
            .spawn(move || run_command(command))
            .map_or_else(
                |e| {
                    eprintln!("error: cannot start a thread: {e}");
                    ExitCode::from(2)
                },
                |h| h.join().unwrap_or(ExitCode::FAILURE),
            ),
    }
}

fn run_command(command: Command) -> ExitCode {
    match command {
        Command::Solve {
            sfens,
            time_ms,
            hash_mb,
            json,
        } => solve(
            &sfens,
            &SolveOptions {
                time_ms,
                hash_mb,
                json,
            },
        ),
        Command::Bench {
            files,
            time_ms,
            hash_mb,
            filter,
            limit,
            verbose,
            config,
            nodes,
        } => bench(
            &files,
            &BenchOptions {
                time_ms,
                hash_mb,
                filter,
                limit,
                verbose,
                config: config.unwrap_or_default(),
                nodes,
            },
        ),
        Command::Perft { depth, sfen } => perft(depth, &sfen),
    }
}

/// Exit status: 0 when every problem got an answer, 1 when any was `error`, 2 when the I/O failed.
fn solve(sfens: &[String], opts: &SolveOptions) -> ExitCode {
    let stdout = std::io::stdout();
    match run_solve(sfens, opts, std::io::stdin().lock(), &mut stdout.lock()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
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

fn perft(depth: u32, sfen: &str) -> ExitCode {
    let mut pos = match Position::from_sfen(sfen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let t = Instant::now();
    let n = movegen::perft(&mut pos, depth);
    let secs = t.elapsed().as_secs_f64();
    println!("perft {depth} = {n}");
    println!(
        "time {:.3} s, {:.0} leaves/s",
        secs,
        n as f64 / secs.max(1e-9)
    );
    ExitCode::SUCCESS
}
