//! The README's commands, run on the built binary, so that what a reader copies from it works on a
//! fresh clone.
//!
//! * Every line of a ```` ```sh ```` block is a command. Lines that run kanju (`kanju …`,
//!   `cargo run --release -- …`, `target/release/kanju`, or a pipeline of local tools such as
//!   `grep`/`cut`/`echo`/`printf` into kanju) and the setup lines that feed them are run in order
//!   by `sh`, with `kanju` standing for the binary cargo built. Each must exit with status 0 and
//!   leave sensible output: answers for `solve`, a summary with nothing wrong for `bench`, leaf
//!   counts for `perft`, a `checkmate` for USI, a non-empty file where the output is redirected.
//!   Text quoted in backticks in a line's trailing comment (`# prints `mate 1 8c1c``) must be a line
//!   of its output. `solve` and `bench` get a 5 s limit per problem where the line sets none, and
//!   every command a wall-clock limit.
//! * Not run: `cargo` itself (`cargo test`, `cargo build`: this test runs under it), GNU `parallel`
//!   (hosts to ssh into), and a line whose comment says it takes minutes. ```` ```bash ```` blocks are
//!   scripts to save (the Slurm job), not commands, and are not run either.
//! * A ```` ```text ```` block of `$ kanju …` lines followed by output is a transcript: the output
//!   must be exactly that (exit status 1 where it has an `error` row, else 0).
//! * A ```` ```text ```` block of `> ` and `< ` lines is a USI session: the `>` lines are sent, the
//!   `<` lines must come back (times and speeds masked).
//!
//! The commands run in a scratch directory whose `tests` is the repository's, so that relative paths
//! read as from the repository root while the files the README writes (`problems.txt`,
//! `answers.jsonl`, `mate3.kifu`) stay out of the working tree.

#![cfg(unix)]

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

const README: &str = include_str!("../README.md");
/// The binary under test.
const KANJU: &str = env!("CARGO_BIN_EXE_kanju");
/// Per-problem limit given to `solve` and `bench` lines that set none.
const TIME_LIMIT: &str = "--time-ms 5000";
/// Wall-clock limit of one command.
const WALL_LIMIT: Duration = Duration::from_secs(20);
/// Tools a command line may start with besides kanju: they feed kanju or make its input file.
const LOCAL_TOOLS: [&str; 7] = ["echo", "printf", "grep", "cut", "cat", "head", "sed"];

/// A fenced code block of the README: its language and its lines, with the line number of the first.
struct Block {
    lang: String,
    first_line: usize,
    lines: Vec<String>,
}

fn blocks() -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in README.lines().enumerate() {
        if let Some(rest) = line.trim_start().strip_prefix("```") {
            match open.take() {
                Some(block) => out.push(block),
                None => {
                    open = Some(Block {
                        lang: rest.trim().to_string(),
                        first_line: i + 2,
                        lines: Vec::new(),
                    })
                }
            }
        } else if let Some(block) = open.as_mut() {
            block.lines.push(line.to_string());
        }
    }
    assert!(open.is_none(), "README.md: a code block is never closed");
    out
}

/// A shell line split into the command and its trailing comment (a `#` that starts a word outside
/// quotes).
fn split_comment(line: &str) -> (&str, &str) {
    let (mut single, mut double) = (false, false);
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && prev.is_whitespace() => {
                return (line[..i].trim_end(), line[i + 1..].trim());
            }
            _ => {}
        }
        prev = c;
    }
    (line.trim_end(), "")
}

/// The text between pairs of backticks.
fn quoted(comment: &str) -> Vec<&str> {
    comment.split('`').skip(1).step_by(2).collect()
}

/// The README's spelling of the binary, as the `kanju` the scripts define.
fn as_kanju(command: &str) -> String {
    let command = match command.strip_prefix("cargo run --release -- ") {
        Some(rest) => format!("kanju {rest}"),
        None => command.to_string(),
    };
    command.replace("target/release/kanju", "kanju")
}

/// The kanju subcommand a line runs (`""` for USI mode), or `None` if it runs no kanju.
fn subcommand(command: &str) -> Option<&'static str> {
    command.split('|').find_map(|stage| {
        let mut words = stage.split_whitespace();
        (words.next() == Some("kanju")).then(|| match words.next() {
            Some("solve") => "solve",
            Some("bench") => "bench",
            Some("perft") => "perft",
            _ => "",
        })
    })
}

/// The file a line's stdout is redirected to, if any.
fn redirected_to(command: &str) -> Option<String> {
    let (_, target) = command.rsplit_once(" > ")?;
    let target = target.split_whitespace().next()?;
    Some(target.trim_matches('"').to_string())
}

/// A directory of its own for one test, holding a `tests` that is the repository's.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("readme-{name}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch directory");
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    std::os::unix::fs::symlink(tests, dir.join("tests")).expect("tests symlink");
    dir
}

/// What a finished command left.
struct Run {
    status: ExitStatus,
    stdout: String,
    stderr: String,
}

/// Reads a pipe to its end on a thread of its own.
fn drain(mut pipe: impl Read + Send + 'static) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8(bytes).expect("UTF-8 output")
    })
}

/// Waits for `child` (the leader of its own process group) at most `limit`; past it, kills the group.
fn wait_within(child: &mut Child, limit: Duration, what: &str) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status;
        }
        if start.elapsed() > limit {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            panic!("{what}: still running after {limit:?}");
        }
        thread::sleep(Duration::from_millis(5));
    }
}

/// Runs `script` with `sh` in `dir`, `kanju` being a function that calls the binary.
fn sh(dir: &Path, script: &str, what: &str) -> Run {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("kanju() {{ \"$KANJU_BIN\" \"$@\"; }}\n{script}"))
        .env("KANJU_BIN", KANJU)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("sh starts");
    let stdout = drain(child.stdout.take().expect("piped stdout"));
    let stderr = drain(child.stderr.take().expect("piped stderr"));
    let status = wait_within(&mut child, WALL_LIMIT, what);
    Run {
        status,
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
    }
}

/// Checks that `output`, written by `kanju <sub>` run as `command`, looks like what it should.
fn assert_sensible(sub: &str, command: &str, output: &str, what: &str) {
    let lines: Vec<&str> = output.lines().collect();
    assert!(!lines.is_empty(), "{what}: no output");
    match sub {
        "solve" if command.contains("--json") || command.contains("--format json") => {
            for line in &lines {
                assert!(
                    line.starts_with("{\"sfen\":") && line.ends_with('}'),
                    "{what}: not a JSON answer: {line}"
                );
                assert!(
                    line.contains("\"result\":\"mate\"") || line.contains("\"result\":\"nomate\""),
                    "{what}: no answer: {line}"
                );
            }
        }
        "solve" if command.contains("--format kif") => {
            assert!(
                output.contains("手合割") && output.contains("手で詰み"),
                "{what}: not a KIF record of a mate:\n{output}"
            );
        }
        "solve" => {
            for line in &lines {
                let answer = line.starts_with("mate ") || *line == "nomate";
                let remark = line.starts_with("  alternative");
                assert!(answer || remark, "{what}: not an answer: '{line}'");
            }
        }
        "bench" => {
            // A summary per file (and a total), each with nothing wrong; `-v` adds indented rows.
            for line in &lines {
                let clean = if line.starts_with("  ") {
                    !line.contains("WRONG")
                } else {
                    line.contains(" problems ") && line.contains(" wrong 0 ")
                };
                assert!(clean, "{what}: '{line}' in\n{output}");
            }
        }
        "perft" => {
            assert!(
                lines[0].starts_with("perft ") && lines[0].contains(" = "),
                "{what}: no leaf count:\n{output}"
            );
        }
        _ => {
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with("checkmate ") && *l != "checkmate timeout"),
                "{what}: no mate over USI:\n{output}"
            );
        }
    }
}

#[test]
fn the_readme_shows_no_paths_outside_the_repository() {
    for (i, line) in README.lines().enumerate() {
        assert!(
            !line.contains("../shared"),
            "README.md:{}: a path outside the repository: {line}",
            i + 1
        );
    }
}

#[test]
fn the_readme_s_commands_run() {
    let dir = scratch("commands");
    let (mut run, mut skipped) = (0, Vec::new());
    for block in blocks().iter().filter(|b| b.lang == "sh") {
        // Backslash-continued lines are one command.
        let mut commands: Vec<(usize, String)> = Vec::new();
        let mut pending: Option<(usize, String)> = None;
        for (k, line) in block.lines.iter().enumerate() {
            let (number, mut text) = pending
                .take()
                .unwrap_or((block.first_line + k, String::new()));
            match line.trim_end().strip_suffix('\\') {
                Some(head) => {
                    text.push_str(head);
                    pending = Some((number, text));
                }
                None => {
                    text.push_str(line.trim());
                    commands.push((number, text));
                }
            }
        }
        assert!(
            pending.is_none(),
            "README.md:{}: a dangling '\\'",
            block.first_line
        );
        for (number, line) in commands {
            let (command, comment) = split_comment(&line);
            if command.is_empty() {
                continue;
            }
            let what = format!("README.md:{number}: {command}");
            let first = command.split_whitespace().next().unwrap_or("");
            if comment.contains("minute") || comment.contains("hour") {
                skipped.push(format!("{what} (a long run)"));
                continue;
            }
            if first == "cargo" && !command.starts_with("cargo run --release -- ") {
                skipped.push(format!("{what} (cargo itself)"));
                continue;
            }
            if first == "parallel" {
                skipped.push(format!("{what} (GNU parallel over ssh)"));
                continue;
            }
            let mut command = as_kanju(command);
            let first = command.split_whitespace().next().unwrap_or("").to_string();
            assert!(
                first == "kanju" || LOCAL_TOOLS.contains(&first.as_str()),
                "{what}: tests/readme.rs does not know how to run this; teach it, or skip it there"
            );
            let sub = subcommand(&command);
            if matches!(sub, Some("solve" | "bench"))
                && !command.contains("--time-ms")
                && !command.contains("--nodes")
            {
                let sub = sub.unwrap_or_default();
                command = command.replacen(
                    &format!("kanju {sub}"),
                    &format!("kanju {sub} {TIME_LIMIT}"),
                    1,
                );
            }
            let out = sh(&dir, &command, &what);
            assert!(
                out.status.success(),
                "{what}: {}\nstdout:\n{}\nstderr:\n{}",
                out.status,
                out.stdout,
                out.stderr
            );
            assert!(
                !out.stderr.contains("panicked"),
                "{what}: panicked:\n{}",
                out.stderr
            );
            let output = match redirected_to(&command) {
                Some(file) => fs::read_to_string(dir.join(&file))
                    .unwrap_or_else(|e| panic!("{what}: cannot read {file}: {e}")),
                None => out.stdout.clone(),
            };
            match sub {
                Some(sub) => assert_sensible(sub, &command, &output, &what),
                None => assert!(!output.trim().is_empty(), "{what}: no output"),
            }
            for expected in quoted(comment) {
                assert!(
                    output.lines().any(|l| l.trim() == expected),
                    "{what}: the comment promises '{expected}', the output is:\n{output}"
                );
            }
            run += 1;
        }
    }
    eprintln!("README commands run: {run}");
    for line in &skipped {
        eprintln!("not run: {line}");
    }
    assert!(run >= 10, "only {run} README commands were run");
}

#[test]
fn the_readme_s_transcripts_are_what_kanju_prints() {
    let dir = scratch("transcripts");
    let mut seen = 0;
    for block in blocks().iter().filter(|b| b.lang == "text") {
        let mut k = 0;
        while k < block.lines.len() {
            let Some(command) = block.lines[k].strip_prefix("$ ") else {
                k += 1;
                continue;
            };
            let what = format!("README.md:{}: {command}", block.first_line + k);
            assert!(
                command.starts_with("kanju "),
                "{what}: a transcript runs kanju"
            );
            let mut expected = Vec::new();
            k += 1;
            while k < block.lines.len() && !block.lines[k].starts_with("$ ") {
                if !block.lines[k].is_empty() {
                    expected.push(block.lines[k].as_str());
                }
                k += 1;
            }
            let out = sh(&dir, command, &what);
            let refused = expected.iter().any(|l| l.starts_with("error "));
            assert_eq!(
                out.status.code(),
                Some(if refused { 1 } else { 0 }),
                "{what}: exit status\nstderr:\n{}",
                out.stderr
            );
            assert_eq!(out.stdout.lines().collect::<Vec<_>>(), expected, "{what}");
            seen += 1;
        }
    }
    assert!(seen >= 2, "only {seen} transcripts in the README");
}

/// A line with the values that depend on the machine masked: an `info` line's time, speed and
/// table fill, and the default of `Threads` (the machine's cores).
fn masked(line: &str) -> String {
    let threads = line.starts_with("option name Threads ");
    let mut out = Vec::new();
    let mut mask_next = false;
    for word in line.split_whitespace() {
        out.push(if mask_next { "*" } else { word });
        mask_next = (line.starts_with("info ") && ["time", "nps", "hashfull"].contains(&word))
            || (threads && word == "default");
    }
    out.join(" ")
}

#[test]
fn the_readme_s_usi_session_is_what_kanju_answers() {
    let sessions: Vec<Block> = blocks()
        .into_iter()
        .filter(|b| b.lang == "text" && b.lines.first().is_some_and(|l| l.starts_with("> ")))
        .collect();
    assert!(!sessions.is_empty(), "no USI session in the README");
    for block in sessions {
        let what = format!("README.md:{}: the USI session", block.first_line);
        let sent: Vec<&str> = block
            .lines
            .iter()
            .filter_map(|l| l.strip_prefix("> "))
            .collect();
        let expected: Vec<String> = block
            .lines
            .iter()
            .filter_map(|l| l.strip_prefix("< "))
            .map(masked)
            .collect();
        let (body, quit) = match sent.split_last() {
            Some((&"quit", body)) => (body, true),
            _ => (&sent[..], false),
        };
        let mut child = Command::new(KANJU)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .expect("kanju starts");
        let mut stdin = child.stdin.take().expect("piped stdin");
        for line in body {
            writeln!(stdin, "{line}").expect("write to kanju");
        }
        stdin.flush().expect("flush");
        // Every answer first, then `quit`, so that `quit` does not cut a search short.
        let (tx, rx) = mpsc::channel();
        let reader = BufReader::new(child.stdout.take().expect("piped stdout"));
        let lines = thread::spawn(move || {
            for line in reader.lines() {
                if tx.send(line.expect("UTF-8 output")).is_err() {
                    break;
                }
            }
        });
        let stderr = drain(child.stderr.take().expect("piped stderr"));
        let deadline = Instant::now() + WALL_LIMIT;
        let mut got = Vec::new();
        while got.len() < expected.len() {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) => got.push(line),
                Err(_) => break,
            }
        }
        if quit {
            writeln!(stdin, "quit").expect("write quit");
        }
        drop(stdin);
        let status = wait_within(&mut child, WALL_LIMIT, &what);
        lines.join().expect("stdout reader");
        got.extend(rx.try_iter());
        assert!(
            status.success(),
            "{what}: {status}\n{}",
            stderr.join().unwrap_or_default()
        );
        let got: Vec<String> = got.iter().map(|l| masked(l)).collect();
        assert_eq!(got, expected, "{what}");
    }
}
