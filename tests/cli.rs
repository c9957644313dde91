//! The command line: `kanju solve`, `kanju bench` and `kanju perft` run as a script would run them.

use kanju::position::Position;
use kanju::search::verify_mate_line;
use std::io::Write;
use std::path::Path;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// tanuki-m1-1 (shared/problems/tanuki.tsv): mate in 1.
const MATE1: &str = "9/7Sk/1+R7/9/9/9/9/9/9 b r2b4g3s4n4l18p 1";
/// tanuki-m3-2: mate in 3.
const MATE3: &str = "4nk3/9/6G2/3LB4/9/9/9/9/9 b 2rb3g3s3n3l18p 1";
/// No attacking material at all: no mate.
const NOMATE: &str = "4k4/9/9/9/9/9/9/9/9 b - 1";

fn kanju(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kanju"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kanju starts");
    let mut input = child.stdin.take().expect("piped stdin");
    input.write_all(stdin.as_bytes()).expect("write stdin");
    drop(input);
    let out = child.wait_with_output().expect("kanju runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("panicked"),
        "kanju {args:?} panicked: {stderr}"
    );
    out
}

fn stdout_lines(out: &Output) -> Vec<String> {
    String::from_utf8(out.stdout.clone())
        .expect("UTF-8 output")
        .lines()
        .map(String::from)
        .collect()
}

/// Checks a `mate <len> <moves>` line against `sfen` with kanju's own verifier.
fn assert_mate_line(sfen: &str, line: &str, min_len: usize) {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        words.first(),
        Some(&"mate"),
        "expected a mate for {sfen}: '{line}'"
    );
    let len: usize = words[1].parse().expect("a length");
    assert_eq!(len, words.len() - 2, "{line}");
    assert!(len >= min_len, "{line} is shorter than the shortest mate");
    let root = Position::from_sfen(sfen).expect("test SFEN");
    let mut pos = root.clone();
    let mut moves = Vec::new();
    for usi in &words[2..] {
        let m = pos
            .parse_usi_move(usi)
            .unwrap_or_else(|| panic!("illegal {usi} in '{line}'"));
        pos.do_move(m);
        moves.push(m);
    }
    assert!(verify_mate_line(&root, &moves), "not a mate: {line}");
}

#[test]
fn solve_takes_problems_as_arguments() {
    let out = kanju(
        &[
            "solve",
            "--hash-mb",
            "16",
            "--time-ms",
            "30000",
            MATE1,
            &format!("sfen {NOMATE}"),
        ],
        "",
    );
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_mate_line(MATE1, &lines[0], 1);
    assert_eq!(lines[1], "nomate");
    assert!(out.status.success());
}

#[test]
fn solve_reads_stdin_in_any_position_form() {
    let input = format!(
        "# a comment\n\nposition sfen {MATE3}\n{MATE1}\nposition startpos moves 7g7f 3c3d\n"
    );
    let out = kanju(&["solve", "--hash-mb", "16", "--time-ms", "30000"], &input);
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_mate_line(MATE3, &lines[0], 3);
    assert_mate_line(MATE1, &lines[1], 1);
    assert!(lines[2] == "nomate" || lines[2] == "timeout", "{lines:?}");
    assert!(out.status.success());
}

#[test]
fn solve_json() {
    let out = kanju(
        &[
            "solve",
            "--json",
            "--hash-mb",
            "16",
            "--time-ms",
            "30000",
            MATE1,
            "not a sfen",
        ],
        "",
    );
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 2, "{lines:?}");
    let mate = &lines[0];
    assert!(
        mate.starts_with(&format!(
            "{{\"sfen\":\"{MATE1}\",\"result\":\"mate\",\"length\":1,\"bound\":1,\"pv\":[\""
        )),
        "{mate}"
    );
    assert!(
        mate.contains("\"nodes\":")
            && mate.contains("\"time_ms\":")
            && mate.ends_with("\"error\":null,\"exact\":true,\"note\":null}"),
        "{mate}"
    );
    let error = &lines[1];
    assert!(
        error.starts_with(
            r#"{"sfen":"not a sfen","result":"error","length":null,"bound":null,"pv":[],"nodes":0,"time_ms":"#
        ),
        "{error}"
    );
    assert!(error.contains(r#""error":"malformed SFEN"#), "{error}");
    assert_eq!(
        out.status.code(),
        Some(1),
        "an error line makes the exit status 1"
    );
}

/// `--pv`: the default prints the minimax line (and says it is exact in JSON); `none` and
/// `upper-bound` print real mates, never shorter; a bad level is refused by the parser.
#[test]
fn solve_pv_levels() {
    // yaneuraou-mate3 row yo-m3-17: a mate in 3 whose first proof is longer.
    let sfen = "3g2S1l/3s2k2/3ppplpp/2p3R2/rP7/1LP1P2P1/N2P1P2P/2GSG4/3KN2NL b BG4Pbsnp 89";
    let out = kanju(&["solve", "--hash-mb", "16", "--json", sfen], "");
    let line = &stdout_lines(&out)[0];
    assert!(
        line.contains("\"length\":3,\"bound\":3,") && line.contains("\"exact\":true"),
        "{line}"
    );
    for level in ["none", "upper-bound", "min-length"] {
        let out = kanju(&["solve", "--hash-mb", "16", "--pv", level, sfen], "");
        let line = &stdout_lines(&out)[0];
        let len: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert!(line.starts_with("mate ") && len >= 3, "{level}: {line}");
        if level == "min-length" {
            assert_eq!(len, 3, "{line}");
        }
    }
    let out = kanju(&["solve", "--pv", "shortest", sfen], "");
    assert_eq!(out.status.code(), Some(2));
}

/// A line not proven shortest (Zukou #37: the PV phase's budget ends long before its 23 plies are
/// proven exact) is printed with its note: on stderr in text, as `note`, `"exact":false` and the
/// proven `bound` in JSON.
#[test]
fn solve_says_when_the_line_is_not_proven_shortest() {
    const ZUKOU_37: &str = "1R7/9/g1+P6/+P2s5/1+bk+pg4/GN1Rl4/Pn+p6/3S5/9 b B2N3Pg2s3l10p 1";
    let note = "the search stopped before the line was proven shortest: mate in 23 or less";
    let out = kanju(&["solve", "--hash-mb", "64", ZUKOU_37], "");
    let line = &stdout_lines(&out)[0];
    assert!(line.starts_with("mate 19 "), "{line}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.trim_end(), format!("kanju: {ZUKOU_37}: {note}"));
    let out = kanju(&["solve", "--hash-mb", "64", "--json", ZUKOU_37], "");
    let line = &stdout_lines(&out)[0];
    assert!(
        line.contains("\"length\":19,\"bound\":23,")
            && line.contains(&format!("\"exact\":false,\"note\":\"{note}\"")),
        "{line}"
    );
    assert!(out.stderr.is_empty());
}

/// A search without any limit gets a larger phase after the proof (`PHASE_STEP_MIN_NODES_UNLIMITED`):
/// Zukou #30's refutation of every shorter mate needs a little more than a limited search's phase
/// allows, so only the unlimited one calls its 17-ply line exact.
#[test]
fn an_unlimited_solve_proves_the_line_exact_where_a_limited_one_stops() {
    const ZUKOU_30: &str = "4+LgB2/3+P1+R1R1/4+bl1g1/8k/5p1p1/7+p1/9/9/9 b 2G4s4n2l14p 1";
    let limited = kanju(&["solve", "--hash-mb", "64", "--json", ZUKOU_30], "");
    let line = &stdout_lines(&limited)[0];
    assert!(
        line.contains("\"length\":17,") && line.contains("\"exact\":false,"),
        "{line}"
    );
    let unlimited = kanju(
        &[
            "solve",
            "--hash-mb",
            "64",
            "--json",
            "--time-ms",
            "0",
            ZUKOU_30,
        ],
        "",
    );
    let line = &stdout_lines(&unlimited)[0];
    assert!(
        line.contains("\"length\":17,\"bound\":17,") && line.contains("\"exact\":true,"),
        "{line}"
    );
}

/// The shortening after the proof jumps: a first proof of 69 plies, of a mate in 13 (a random
/// problem a helper built; KomoringHeights' exact line is 13 plies too). Asking only "mate within
/// bound − 2?" spent the line phase's budget on small steps and printed 21 plies (39 with a 64 MiB
/// table), not proven shortest; with jumps: 43, 35, 19, no mate within 9, 15, 13, no mate within 11.
#[test]
fn the_line_phase_jumps_to_a_much_shorter_mate() {
    const MATE_13: &str = "2R6/5B3/5k3/4+p4/8S/7G1/9/9/9 b RN2Lb3g3s3n2l17p 1";
    let out = kanju(&["solve", "--hash-mb", "64", "--json", MATE_13], "");
    let line = &stdout_lines(&out)[0];
    assert!(
        line.contains("\"length\":13,\"bound\":13,") && line.contains("\"exact\":true,"),
        "{line}"
    );
}

/// `--check-alternatives`: an indented `alternative …` line after the answer in text, an
/// `alternatives` array in JSON; without the flag, neither.
#[test]
fn solve_check_alternatives() {
    // A gold drop mates on 1b (guarded by the pawn) and on 2b (guarded by the knight).
    let sfen = "8k/9/8P/6N2/9/9/9/9/9 b G2r2b3g4s3n4l17p 1";
    let out = kanju(&["solve", "--hash-mb", "16", sfen], "");
    assert_eq!(stdout_lines(&out).len(), 1);
    let out = kanju(
        &["solve", "--hash-mb", "16", "--check-alternatives", sfen],
        "",
    );
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 2, "{lines:?}");
    let other = if lines[0].ends_with("G*1b") {
        "G*2b"
    } else {
        "G*1b"
    };
    assert_eq!(lines[1], format!("  alternative ply 1 {other} mate 1"));
    let out = kanju(
        &[
            "solve",
            "--hash-mb",
            "16",
            "--json",
            "--check-alternatives",
            sfen,
        ],
        "",
    );
    let line = &stdout_lines(&out)[0];
    assert!(
        line.ends_with(&format!(
            r#""alternatives":[{{"ply":1,"move":"{other}","mate":1}}],"alternatives_complete":true}}"#
        )),
        "{line}"
    );
    let out = kanju(&["solve", "--hash-mb", "16", "--json", sfen], "");
    assert!(!stdout_lines(&out)[0].contains("alternatives"));
}

/// `--futile skip`: every `edge-cases.tsv` row whose note gives a canonical length (futile drop
/// interpositions not counted) prints a line of exactly that length, with `canonical_length` in JSON;
/// the default `count` prints the minimax length and no `canonical_length`.
#[test]
fn solve_futile_skip_gives_canonical_lengths() {
    let rows = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/edge-cases.tsv"),
    )
    .expect("tests/data/edge-cases.tsv");
    let mut checked = 0;
    for row in rows.lines().filter(|l| l.contains("canonical length")) {
        let cols: Vec<&str> = row.split('\t').collect();
        let (sfen, expected, note) = (cols[1], cols[2], cols[4]);
        let canonical: usize = note
            .split("canonical length ")
            .nth(1)
            .and_then(|t| t.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .expect("a canonical length in the note");
        let strict: usize = expected.trim_start_matches("mate:").parse().unwrap();
        let out = kanju(
            &[
                "solve",
                "--hash-mb",
                "16",
                "--json",
                "--futile",
                "skip",
                sfen,
            ],
            "",
        );
        let line = &stdout_lines(&out)[0];
        assert!(
            line.contains(&format!("\"length\":{canonical},"))
                && line.contains(&format!("\"canonical_length\":{canonical}"))
                && line.contains("\"exact\":true"),
            "{sfen}: {line}"
        );
        let out = kanju(&["solve", "--hash-mb", "16", "--json", sfen], "");
        let line = &stdout_lines(&out)[0];
        assert!(
            line.contains(&format!("\"length\":{strict},")) && !line.contains("canonical"),
            "{sfen}: {line}"
        );
        checked += 1;
    }
    assert_eq!(checked, 8);
    let out = kanju(&["solve", "--futile", "sometimes", "x"], "");
    assert_eq!(out.status.code(), Some(2));
}

/// A canonical line may end where the defender has only futile interpositions left, which is no
/// checkmate: the answer says so. Here 1g2h checks along the long diagonal and every evasion is a
/// drop the bishop captures, all the way to 8b (the strict game's mate is 13 plies).
#[test]
fn a_canonical_line_ending_before_mate_says_so() {
    const SFEN: &str = "k8/9/1K7/9/9/9/8B/8B/9 b 2r4g4s4n4l18p 1";
    let out = kanju(&["solve", "--json", "--futile", "skip", SFEN], "");
    let line = &stdout_lines(&out)[0];
    assert!(
        line.contains("\"pv\":[\"1g2h\"]") && line.contains("only futile interpositions left"),
        "{line}"
    );
    let out = kanju(&["solve", "--json", SFEN], "");
    let line = &stdout_lines(&out)[0];
    assert!(
        line.contains("\"length\":13,") && !line.contains("futile"),
        "{line}"
    );
}

#[test]
fn solve_reports_malformed_input_without_panicking() {
    for bad in [
        "garbage",
        "9/9/9/9/9/9/9/9/9 b - 1",
        "9/9/9/9/9/9/9/9/4K4 b G 1",
        "startpos moves 1a1a",
        "\u{7f}",
        // Blank or comment-like arguments are answered too (they were dropped, so that the answers no
        // longer lined up with the arguments).
        "",
        "   ",
        "# not a comment here",
    ] {
        let out = kanju(&["solve", "--hash-mb", "1", bad], "");
        let lines = stdout_lines(&out);
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
        assert!(lines[0].starts_with("error "), "{bad}: {lines:?}");
        assert_eq!(out.status.code(), Some(1), "{bad}");
    }
}

#[test]
fn solve_refuses_absurd_options() {
    for args in [
        ["--hash-mb", "0"],
        ["--hash-mb", "-3"],
        ["--hash-mb", "9999999"],
        ["--time-ms", "x"],
    ] {
        let out = kanju(&["solve", args[0], args[1], MATE1], "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
    }
}

/// `-j` builds a table per worker: never more workers than problems given, and never more tables
/// than the machine's memory holds (1000 tables of 256 MiB were built for one mate in one, until the
/// kernel killed the process).
#[test]
fn solve_jobs_build_no_more_tables_than_needed_or_fit() {
    let out = kanju(&["solve", "--no-progress", "-j", "1000", MATE1], "");
    assert!(out.status.success(), "{out:?}");
    assert_mate_line(MATE1, &stdout_lines(&out)[0], 1);
    // From stdin the number of problems is unknown: 1024 tables of 1 GiB are refused at once.
    // (No input is written: the refusal comes before any is read.)
    let out = kanju(&["solve", "-j", "1024", "--hash-mb", "1024"], "");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("need 1048576 MiB, more than"), "{stderr}");
    // Two tables that each fit the free memory but not together are refused too (each was checked
    // alone, against memory the other would take: two of 12 000 MiB with 23 GB free).
    #[cfg(target_os = "linux")]
    {
        let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap();
        let free_mb: usize = meminfo
            .lines()
            .find_map(|l| l.strip_prefix("MemAvailable:"))
            .and_then(|v| v.split_whitespace().next()?.parse::<usize>().ok())
            .unwrap()
            / 1024;
        let mb = free_mb * 6 / 10;
        // (Within `--hash-mb`'s range: a machine with over 100 GB free skips this.)
        if (1..=65536).contains(&mb) {
            let mb = mb.to_string();
            let out = kanju(&["solve", "-j", "2", "--hash-mb", &mb, MATE1, MATE1], "");
            assert_eq!(out.status.code(), Some(2), "{out:?}");
            assert!(out.stdout.is_empty());
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.contains("more than the memory free"), "{stderr}");
        }
    }
}

/// A table larger than the process may allocate (an address-space limit) is made smaller, with a
/// warning, instead of aborting the process.
#[cfg(target_os = "linux")]
#[test]
fn a_table_that_cannot_be_allocated_is_made_smaller() {
    let bin = env!("CARGO_BIN_EXE_kanju");
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 1000000 && exec '{bin}' solve --no-progress --hash-mb 1500 '{MATE1}'"
        ))
        .output()
        .expect("sh runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    if stderr.contains("more than this machine's memory") {
        return; // a machine with less than 1.5 GiB refuses the size before allocating.
    }
    assert!(out.status.success(), "{out:?}");
    assert_mate_line(MATE1, &stdout_lines(&out)[0], 1);
    assert!(stderr.contains("could not be allocated"), "{stderr}");
}

/// A problem file in a fresh temporary directory, removed when dropped.
struct TempTsv {
    dir: PathBuf,
    path: PathBuf,
}

impl TempTsv {
    fn new(name: &str, rows: &[String]) -> TempTsv {
        let dir = std::env::temp_dir().join(format!("kanju-cli-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join(format!("{name}.tsv"));
        let text = format!("# id\tsfen\texpected\tpv\tnote\n{}\n", rows.join("\n"));
        std::fs::write(&path, text).expect("write tsv");
        TempTsv { dir, path }
    }

    fn path(&self) -> &str {
        self.path.to_str().expect("UTF-8 temp path")
    }
}

impl Drop for TempTsv {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The number after `key` in a bench summary line.
fn count(summary: &str, key: &str) -> u64 {
    let rest = summary
        .split(&format!("  {key} "))
        .nth(1)
        .unwrap_or_else(|| panic!("no {key} in {summary}"));
    rest.split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a number")
}

#[test]
fn bench_counts_a_small_file() {
    let tsv = TempTsv::new(
        "small",
        &[
            format!("t-m1\t{MATE1}\tmate:1\t8c1c\tnote"),
            format!("t-m3\t{MATE3}\tmate:3\t\t"),
            format!("t-no\t{NOMATE}\tnomate\t\t"),
            format!("t-within\t{NOMATE}\tnomate-within:5\t\t"),
        ],
    );
    let out = kanju(
        &[
            "bench",
            "--hash-mb",
            "16",
            "--time-ms",
            "30000",
            "-v",
            tsv.path(),
        ],
        "",
    );
    let lines = stdout_lines(&out);
    let summary = lines.last().expect("a summary");
    assert!(summary.starts_with(tsv.path()), "{lines:?}");
    assert_eq!(count(summary, "problems"), 4, "{summary}");
    assert_eq!(count(summary, "solved"), 4, "{lines:?}");
    assert_eq!(count(summary, "exact length"), 2, "{summary}");
    assert_eq!(count(summary, "wrong"), 0, "{summary}");
    assert_eq!(count(summary, "timeouts"), 0, "{summary}");
    for key in ["nodes", "nps"] {
        count(summary, key);
    }
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("  t-")).count(),
        4,
        "-v prints every problem: {lines:?}"
    );
    assert!(out.status.success());
}

#[test]
fn bench_fails_on_a_wrong_answer() {
    let tsv = TempTsv::new(
        "wrong",
        &[
            format!("w-claims-nomate\t{MATE1}\tnomate\t\t"),
            format!("w-claims-longer\t{MATE1}\tmate:3\t\t"),
        ],
    );
    let out = kanju(
        &["bench", "--hash-mb", "16", "--time-ms", "30000", tsv.path()],
        "",
    );
    let lines = stdout_lines(&out);
    let summary = lines.last().expect("a summary");
    assert_eq!(count(summary, "wrong"), 1, "{lines:?}");
    // A real mate shorter than the claimed minimax is a short line, not a wrong answer.
    assert_eq!(count(summary, "short"), 1, "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("w-claims-nomate") && l.contains("WRONG")),
        "{lines:?}"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn bench_filter_limit_and_broken_rows() {
    let tsv = TempTsv::new(
        "filter",
        &[
            format!("f-a1\t{NOMATE}\tnomate\t\t"),
            format!("f-a2\t{NOMATE}\tnomate\t\t"),
            format!("f-b1\t{NOMATE}\tnomate\t\t"),
            "f-broken\tonly two columns".to_string(),
        ],
    );
    let out = kanju(
        &["bench", "--hash-mb", "1", "--filter", "f-a", tsv.path()],
        "",
    );
    assert_eq!(
        count(stdout_lines(&out).last().expect("summary"), "problems"),
        2
    );
    let out = kanju(&["bench", "--hash-mb", "1", "--limit", "1", tsv.path()], "");
    assert_eq!(
        count(stdout_lines(&out).last().expect("summary"), "problems"),
        1
    );
    // Unfiltered, the broken row counts as wrong.
    let out = kanju(&["bench", "--hash-mb", "1", tsv.path()], "");
    let lines = stdout_lines(&out);
    assert_eq!(
        count(lines.last().expect("summary"), "wrong"),
        1,
        "{lines:?}"
    );
    assert_eq!(out.status.code(), Some(1));
    let out = kanju(&["bench", "/no/such/file.tsv"], "");
    assert_eq!(out.status.code(), Some(2));
    // An endless device is refused, not read into memory.
    let out = kanju(&["bench", "/dev/zero"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a file or a pipe"));
    // Bytes that are not UTF-8 spoil only their row: a note in Shift JIS leaves its row good, a
    // damaged row is one wrong row, and the rest of the file is benched.
    let mut bytes = format!("f-sjis\t{MATE1}\tmate:1\t\t").into_bytes();
    bytes.extend_from_slice(b"\x90\x7d\x8d\x49\n\xff\xfe\n");
    bytes.extend_from_slice(format!("f-after\t{NOMATE}\tnomate\t\t\n").as_bytes());
    std::fs::write(&tsv.path, bytes).unwrap();
    let out = kanju(&["bench", "--hash-mb", "1", tsv.path()], "");
    let lines = stdout_lines(&out);
    let summary = lines.last().expect("summary");
    assert_eq!(count(summary, "problems"), 3, "{lines:?}");
    assert_eq!(count(summary, "solved"), 2, "{lines:?}");
    assert_eq!(count(summary, "wrong"), 1, "{lines:?}");
}

#[test]
fn usi_mode_is_the_default() {
    let out = kanju(&[], "usi\nquit\n");
    let lines = stdout_lines(&out);
    assert_eq!(lines.last().map(String::as_str), Some("usiok"), "{lines:?}");
    assert!(out.status.success());
}

#[test]
fn perft_still_counts() {
    let out = kanju(&["perft", "2"], "");
    assert_eq!(stdout_lines(&out)[0], "perft 2 = 900");
    assert!(out.status.success());
    // A depth no tree is counted to is refused (a king with a rook and a gold against it overflowed
    // the stack, a crash: a recursion per ply).
    let out = kanju(
        &["perft", "100000", "--sfen", "9/8k/9/7RG/9/9/9/9/9 b - 1"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("0..=64"));
}

/// Mate in 1 for White (the attacker has no king; Black holds the rest): the gold drop 5h.
const WHITE_MATE1: &str = "9/9/9/9/9/9/4p4/9/4K4 w g 1";

/// The one mating move of a mate-in-1 position, in USI, found by kanju's move generator; panics if
/// there is not exactly one (so that the expected notation below cannot depend on which mate the
/// solver happens to pick).
fn only_mate_in_one(sfen: &str) -> String {
    use kanju::position::movegen::{MoveList, generate_checks};
    use kanju::search::problem_position;
    let pos = problem_position(&Position::from_sfen(sfen).expect("test SFEN"));
    let mut checks = MoveList::new();
    generate_checks(&pos, &mut checks);
    let mates: Vec<String> = checks
        .as_slice()
        .iter()
        .filter(|&&m| verify_mate_line(&pos, &[m]))
        .map(|m| m.to_usi())
        .collect();
    assert_eq!(mates.len(), 1, "{sfen}: {mates:?}");
    mates[0].clone()
}

#[test]
fn solve_prints_japanese_notation() {
    assert_eq!(only_mate_in_one(MATE1), "8c1c");
    assert_eq!(only_mate_in_one(WHITE_MATE1), "G*5h");
    let out = kanju(
        &[
            "solve",
            "--notation",
            "ja",
            "--hash-mb",
            "16",
            MATE1,
            WHITE_MATE1,
            NOMATE,
        ],
        "",
    );
    assert_eq!(
        stdout_lines(&out),
        ["mate 1 ☗１三竜", "mate 1 ☖５八金", "nomate"]
    );
    assert!(out.status.success());
}

#[test]
fn solve_writes_kif() {
    assert_eq!(only_mate_in_one(MATE1), "8c1c");
    let out = kanju(&["solve", "--format", "kif", "--hash-mb", "16", MATE1], "");
    let expected = format!(
        "# KIF written by kanju {}: {MATE1}\n{}",
        env!("CARGO_PKG_VERSION"),
        "手合割：平手
後手の持駒：飛　角二　金四　銀三　桂四　香四　歩十八
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・ ・ ・ ・ ・ ・|一
| ・ ・ ・ ・ ・ ・ ・ 銀v玉|二
| ・ 龍 ・ ・ ・ ・ ・ ・ ・|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ ・ ・ ・ ・ ・|九
+---------------------------+
先手の持駒：なし
先手：攻め方
後手：玉方
手数----指手---------消費時間--
   1 １三龍(83)
   2 詰み
まで1手で詰み

"
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
    assert!(out.status.success());
    // A refused problem is a comment, and the exit status says so.
    let out = kanju(
        &["solve", "--format", "kif", "--hash-mb", "1", "garbage"],
        "",
    );
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(text.starts_with("# kanju: error malformed SFEN"), "{text}");
    assert_eq!(out.status.code(), Some(1));
}

/// Problems whose answers come at different speeds: a slower mate first, refused lines, a no-mate.
fn mixed_batch(copies: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for i in 0..copies {
        lines.push(format!("position sfen {MATE3}"));
        lines.push(format!("not a sfen {i}"));
        lines.push(MATE1.to_string());
        lines.push(NOMATE.to_string());
        lines.push(WHITE_MATE1.to_string());
    }
    lines
}

#[test]
fn solve_jobs_answers_every_line_in_input_order() {
    let problems = mixed_batch(6);
    let input = format!("# a comment\n\n{}\n", problems.join("\n"));
    let out = kanju(
        &[
            "solve",
            "--jobs",
            "3",
            "--json",
            "--hash-mb",
            "8",
            "--time-ms",
            "60000",
        ],
        &input,
    );
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), problems.len(), "{lines:#?}");
    for (line, problem) in lines.iter().zip(&problems) {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        assert_eq!(v["sfen"], problem.as_str(), "out of order: {lines:#?}");
        let expected = if problem.starts_with("not") {
            "error"
        } else if problem == NOMATE {
            "nomate"
        } else {
            "mate"
        };
        assert_eq!(v["result"], expected, "{line}");
    }
    // An error line makes the exit status 1, whatever the jobs.
    assert_eq!(out.status.code(), Some(1));
    // The same answers as one job gives, line for line (the PV may differ only in nodes and time).
    let one = kanju(
        &["solve", "--json", "--hash-mb", "8", "--time-ms", "60000"],
        &input,
    );
    let results = |out: &Output| -> Vec<(String, String)> {
        stdout_lines(out)
            .iter()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                (v["sfen"].to_string(), v["result"].to_string())
            })
            .collect()
    };
    assert_eq!(results(&one), results(&out));
}

#[test]
fn solve_refuses_zero_jobs_and_unknown_formats() {
    for args in [
        &["--jobs", "0"][..],
        &["--jobs", "x"],
        &["--format", "csa"],
        &["--notation", "kanji"],
        &["--json", "--format", "kif"],
    ] {
        let mut all = vec!["solve"];
        all.extend_from_slice(args);
        all.push(MATE1);
        let out = kanju(&all, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// Control characters of a refused input are escaped in every format: an ESC or NUL copied to a
/// terminal could retitle or clear it.
#[test]
fn solve_escapes_control_characters_it_quotes() {
    for format in ["text", "kif", "json"] {
        let out = kanju(&["solve", "--format", format, "\u{1b}]0;pwned\u{7}"], "");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains("error") && text.contains("pwned"),
            "{format}: {text}"
        );
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "{format}: {text:?}"
        );
        let out = kanju(&["solve", "--format", format], "\0abc\n");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains("abc") && !text.chars().any(|c| c.is_control() && c != '\n'),
            "{format}: {text:?}"
        );
    }
}

#[test]
fn solve_reads_crlf_and_invalid_utf8_lines() {
    let mut input = format!("{MATE1}\r\n\r\n").into_bytes();
    input.extend_from_slice(b"\xff\xfe not text\r\n");
    input.extend_from_slice(format!("{NOMATE}\r\n").as_bytes());
    let mut child = Command::new(env!("CARGO_BIN_EXE_kanju"))
        .args(["solve", "--hash-mb", "8"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kanju starts");
    let mut stdin = child.stdin.take().unwrap();
    // A line too long to keep (3 MB) is one more malformed problem, not the end of memory; a
    // comment as long is still a comment (no answer).
    let writer = std::thread::spawn(move || {
        stdin.write_all(&input).unwrap();
        stdin.write_all(b"  # ").unwrap();
        stdin.write_all(&vec![b'c'; 3_000_000]).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.write_all(&vec![b'x'; 3_000_000]).unwrap();
        stdin.write_all(b"\n").unwrap();
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_mate_line(MATE1, &lines[0], 1);
    assert!(lines[1].starts_with("error malformed SFEN"), "{lines:?}");
    assert_eq!(lines[2], "nomate");
    assert!(
        lines[3].starts_with("error malformed SFEN: '<a line of more than 1048576 bytes>'"),
        "{lines:?}"
    );
}

#[test]
fn solve_stops_when_its_reader_goes_away() {
    // `kanju solve … | head -1`: the pipe closes after the first answer; kanju must end, quietly,
    // although thousands of problems (some slow) remain.
    let problems = mixed_batch(2000).join("\n");
    let mut child = Command::new(env!("CARGO_BIN_EXE_kanju"))
        .args(["solve", "--jobs", "2", "--hash-mb", "8"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kanju starts");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(problems.as_bytes());
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 4];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    drop(stdout);
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    writer.join().unwrap();
}

/// The same with a long search running when the reader goes: kanju sees the pipe's reader gone
/// while it waits for the answer and stops the search, instead of finishing it for nobody
/// (Microcosmos takes over half a minute).
#[test]
fn solve_stops_a_long_search_when_its_reader_goes_away() {
    let file = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/microcosmos.tsv"),
    )
    .expect("tests/data/microcosmos.tsv");
    let microcosmos = file
        .lines()
        .find(|l| !l.starts_with('#'))
        .and_then(|l| l.split('\t').nth(1))
        .expect("a problem row");
    let mut child = Command::new(env!("CARGO_BIN_EXE_kanju"))
        .args([
            "solve",
            "--hash-mb",
            "16",
            "--time-ms",
            "0",
            MATE1,
            microcosmos,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kanju starts");
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    std::io::BufRead::read_line(&mut stdout, &mut first).unwrap();
    assert!(first.starts_with("mate 1 "), "{first}");
    let start = std::time::Instant::now();
    drop(stdout);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{status:?}");
            break;
        }
        if start.elapsed() > std::time::Duration::from_secs(10) {
            let _ = child.kill();
            panic!("kanju searched on for nobody");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// README's recipe for several machines, run on this one: GNU parallel splits the problems into
/// blocks, runs `kanju solve` on each, and `--keep-order` puts the answers back in input order.
/// Needs `parallel` (Debian: `apt-get install -y parallel`).
#[test]
#[ignore = "needs GNU parallel (apt-get install -y parallel)"]
fn gnu_parallel_recipe_keeps_every_answer_in_order() {
    let problems = mixed_batch(8);
    let kanju = env!("CARGO_BIN_EXE_kanju");
    let mut child = Command::new("parallel")
        .args([
            "--pipe",
            "-N",
            "7",
            "--keep-order",
            "-j",
            "2",
            kanju,
            "solve",
            "--json",
            "--hash-mb",
            "8",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("GNU parallel is installed");
    let input = problems.join("\n") + "\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), problems.len(), "{lines:#?}");
    for (line, problem) in lines.iter().zip(&problems) {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        assert_eq!(v["sfen"], problem.as_str());
    }
}
