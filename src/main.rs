use clap::{Parser, Subcommand};
use kanju::position::{movegen, Position};
use std::time::Instant;

#[derive(Parser)]
#[command(name = "kanju", version, about = "A tsume-shogi (mate problem) engine speaking USI")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (move generator check and benchmark).
    Perft {
        depth: u32,
        /// Position to start from (SFEN, `sfen …` or `startpos`); the starting position by default.
        #[arg(long, default_value = "startpos")]
        sfen: String,
    },
}

fn main() {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft { depth, sfen }) => {
            let mut pos = match Position::from_sfen(&sfen) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("error: {e}");
                    std::process::exit(2);
                }
            };
            let t = Instant::now();
            let n = movegen::perft(&mut pos, depth);
            let secs = t.elapsed().as_secs_f64();
            println!("perft {depth} = {n}");
            println!("time {:.3} s, {:.0} leaves/s", secs, n as f64 / secs.max(1e-9));
        }
        None => {}
    }
}
