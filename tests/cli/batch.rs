//! Many problems at once: `--jobs` keeps the input order, input of every form, a reader that goes away.

use super::*;

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
