//! `kanju solve`: its options, line levels, JSON, canonical lengths and alternatives, bad input, table sizes.

use super::*;

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
            && mate.ends_with("\"error\":null,\"exact\":true,\"note\":null,\"threads\":1}"),
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

/// A line not proven shortest (Zukou #37: the PV phase's budget ends long before its 19 plies are
/// proven exact) is printed with its note: on stderr in text, as `note`, `"exact":false` and the
/// proven `bound` in JSON; the line is no longer than the bound, and the text line is the JSON's.
#[test]
fn solve_says_when_the_line_is_not_proven_shortest() {
    const ZUKOU_37: &str = "1R7/9/g1+P6/+P2s5/1+bk+pg4/GN1Rl4/Pn+p6/3S5/9 b B2N3Pg2s3l10p 1";
    let out = kanju(&["solve", "--hash-mb", "64", "--json", ZUKOU_37], "");
    let json = &stdout_lines(&out)[0];
    let field = |name: &str| -> usize {
        let rest = json
            .split(&format!("\"{name}\":"))
            .nth(1)
            .unwrap_or_else(|| panic!("no {name}: {json}"));
        rest[..rest.find(',').unwrap()].parse().expect("a number")
    };
    let (len, bound) = (field("length"), field("bound"));
    // The recorded line is 19 plies: a line of 19 would be exact only if proven so.
    assert!((19..=bound).contains(&len) && bound > 19, "{json}");
    let note =
        format!("the search stopped before the line was proven shortest: mate in {bound} or less");
    assert!(
        json.contains(&format!("\"exact\":false,\"note\":\"{note}\"")),
        "{json}"
    );
    assert!(out.stderr.is_empty());
    let out = kanju(&["solve", "--hash-mb", "64", ZUKOU_37], "");
    let line = &stdout_lines(&out)[0];
    assert!(line.starts_with(&format!("mate {len} ")), "{line}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.trim_end(), format!("kanju: {ZUKOU_37}: {note}"));
}

/// `kanju solve --json` of `sfen` without a time limit (64 MiB): its one answer line.
fn unlimited_json(sfen: &str) -> String {
    let args = ["solve", "--hash-mb", "64", "--json", "--time-ms", "0", sfen];
    stdout_lines(&kanju(&args, ""))[0].clone()
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
    let line = &unlimited_json(ZUKOU_30);
    assert!(
        line.contains("\"length\":17,\"bound\":17,") && line.contains("\"exact\":true,"),
        "{line}"
    );
}

/// The shortening after the proof jumps: a first proof of 49 plies, of a mate in 13 (a random
/// problem a helper built; KomoringHeights' exact line is 13 plies too). Given no limit, the line
/// phase proves the 13-ply line exact. Within the default budget (a limited solve), asking only
/// "mate within bound − 2?" spends it on small steps: `kanju bench --config pvjumps=off` prints a
/// longer line than the jumps do (`tests/cli/bench.rs`, `bench_line_phase_jumps_further_than_steps`).
#[test]
fn the_line_phase_jumps_to_a_much_shorter_mate() {
    let line = &unlimited_json(MATE_13);
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

/// Zukou #1 (tests/data/zukou.tsv): a mate in 69 whose proof takes a few million nodes.
pub const ZUKOU1: &str = "1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N6 b SP2gn2l11p 1";

/// `--progress` with stderr not a terminal (a log file): status lines at the interval asked for,
/// each with the nodes, the speed, the table's fill, what garbage collection freed (a 1 MiB table
/// fills) and the root's numbers; the answer on stdout as without them. Without `--progress`, a log gets
/// no status at all.
#[test]
fn solve_progress_prints_status_lines_without_a_terminal() {
    let args = [
        "solve",
        "--hash-mb",
        "1",
        "--nodes",
        "3000000",
        "--pv",
        "none",
        ZUKOU1,
    ];
    let with: Vec<&str> = args
        .iter()
        .copied()
        .chain(["--progress", "--progress-every", "0.05"])
        .collect();
    let out = kanju(&with, "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("kanju: ["))
        .collect();
    assert!(lines.len() >= 2, "{stderr}");
    for l in &lines {
        assert!(l.contains(" nodes, ") && l.contains("/s, table "), "{l}");
    }
    assert!(lines.iter().any(|l| l.contains("GCs freed ")), "{stderr}");
    assert!(lines.iter().any(|l| l.contains("root pn ")), "{stderr}");
    // Within the node limit on a table this small, no answer: `timeout`, as without the status.
    assert_eq!(stdout_lines(&out), ["timeout"], "{out:?}");
    let out = kanju(&args, "");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("kanju: ["));
    let out = kanju(&["solve", "--progress-every", "0", MATE1], "");
    assert!(!out.status.success(), "an interval of 0 s is refused");
}
