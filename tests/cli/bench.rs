//! `kanju bench`: problem files, what it counts, how it grades.

use super::*;

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

/// The line phase's questions jump below the bound (`pv::tighten`): within the same budget they
/// reach a shorter line than asking "mate within bound − 2?" step by step (`--config
/// pvjumps=off`). The mate in 13 of `solve::the_line_phase_jumps_to_a_much_shorter_mate`, whose
/// first proof is 49 plies: in the default budget of a limited search the jumps print 17 plies, the
/// steps 23 (before the ladder cost the first proof was larger, and so the budget: 13 and 21). The
/// budget follows the first proof's size, so both searches keep the flat weak numbers
/// (`agg=weak`) and the unsplit drop chains (`chains=-stall`) under which those figures were taken: with
/// the graded default the first proof is another, and its budget takes both to 19; with the flat
/// numbers and split chains, both to 25.
#[test]
fn bench_line_phase_jumps_further_than_steps() {
    let tsv = TempTsv::new("jumps", &[format!("t-m13\t{MATE_13}\tmate:13\t\t")]);
    let line_length = |config: &str| -> u64 {
        let out = kanju(
            &[
                "bench",
                "-v",
                "--hash-mb",
                "64",
                "--time-ms",
                "60000",
                "--pv",
                "min-length",
                "--config",
                config,
                tsv.path(),
            ],
            "",
        );
        let text = String::from_utf8_lossy(&out.stdout);
        let row = text
            .lines()
            .find(|l| l.contains("t-m13"))
            .unwrap_or_else(|| panic!("no row: {text}"));
        assert!(row.contains("  ok"), "{config}: {row}");
        count(&row.replace("got mate", " mate"), "mate")
    };
    let (jumps, steps) = (
        line_length("agg=weak,chains=-stall"),
        line_length("agg=weak,chains=-stall,pvjumps=off"),
    );
    assert!(
        (13..steps).contains(&jumps),
        "jumps {jumps} plies, steps {steps}"
    );
}

/// `bench --progress`: status lines on stderr naming the problem being searched, the bench's own
/// lines on stdout unchanged.
#[test]
fn bench_progress_names_the_problem_in_its_status_lines() {
    let tsv = TempTsv::new(
        "progress",
        &[format!("zuko001\t{}\tmate:69\t\t", super::solve::ZUKOU1)],
    );
    let out = kanju(
        &[
            "bench",
            "--hash-mb",
            "16",
            "--nodes",
            "2000000",
            "--pv",
            "none",
            "--progress",
            "--progress-every",
            "0.05",
            tsv.path(),
        ],
        "",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.lines().any(|l| l.starts_with("kanju: [")
            && l.contains("] zuko001: ")
            && l.contains(" nodes, ")),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("problems 1"), "{stdout}");
    assert!(!stdout.contains("kanju: ["), "{stdout}");
}
