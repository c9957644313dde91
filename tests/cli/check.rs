//! `kanju check`: the composer's report, from arguments, a problem file and stdin.

use super::*;

const SOUND3: &str = "9/8k/9/7RG/9/9/9/9/9 b r2b3g4s4n4l18p 1";
const FLAWED3: &str = "9/8k/9/7RG/9/9/9/9/9 b Sr2b3g3s4n4l18p 1";

#[test]
fn check_reports_each_problem_in_order() {
    let out = kanju(&["check", "--hash-mb", "16", SOUND3, FLAWED3, NOMATE], "");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let heads: Vec<&str> = text.lines().filter(|l| !l.starts_with("  ")).collect();
    assert_eq!(heads.len(), 3, "{text}");
    assert_eq!(heads[0], format!("{SOUND3}: sound"));
    // 駒余り follows only if the line leaves the silver over (the report's unit tests).
    assert!(
        heads[1].starts_with(&format!("{FLAWED3}: flaws found: 余詰 ×3, 最終手余詰")),
        "{text}"
    );
    assert_eq!(heads[2], format!("{NOMATE}: no mate"));
    assert_has(&text, "  余詰: at ply 1 S*1c also mates in 3\n");
    assert_has(&text, "  not checked: ");
}

#[test]
fn check_reads_records_from_a_file_and_writes_json() {
    let dir = std::env::temp_dir().join(format!("kanju-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("works.tsv");
    std::fs::write(
        &file,
        format!("# id\tsfen\texpected\nw1\t{SOUND3}\tmate:3\nw2\t{SOUND3}\tmate:5\n"),
    )
    .unwrap();
    let out = kanju(&["check", "--json", "-j", "2", file.to_str().unwrap()], "");
    let _ = std::fs::remove_dir_all(&dir);
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 2, "{out:?}");
    assert!(lines[0].starts_with(r#"{"problem":"w1","verdict":"mate","summary":"sound""#));
    assert_has(&lines[1], r#""summary":"flaws found: 早詰""#);
    assert_has(&lines[1], r#""kind":"shorter_than_record""#);
    // From stdin, one problem per line; a broken one is an error report and exit status 1.
    let out = kanju(
        &["check", "--length", "3"],
        &format!("{SOUND3}\nnot a position\n"),
    );
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with(&format!("{SOUND3}: sound\n")), "{text}");
    assert_has(&text, "not a position: error: ");
}

/// The composer's line: `--line` for a SFEN, the file's fourth column for a row; the report is on
/// it (`line_source` given), or says it does not mate (refused) and checks kanju's own.
#[test]
fn check_reads_the_composers_line_from_the_option_and_the_pv_column() {
    let out = kanju(&["check", "--line", "1d2c 1b1a S*1b", FLAWED3], "");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_has(&text, "  line (given) 1d2c 1b1a S*1b\n");
    assert_has(&text, "  余詰: at ply 1 2d2c+ also mates in 3\n");
    let dir = std::env::temp_dir().join(format!("kanju-check-pv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("works.tsv");
    std::fs::write(
        &file,
        format!(
            "# id\tsfen\texpected\tpv\nw1\t{SOUND3}\tmate:3\t1d2c 1b2a 2c2b\nw2\t{SOUND3}\tmate:3\t1d2c 1b2a\n"
        ),
    )
    .unwrap();
    let out = kanju(&["check", "--json", file.to_str().unwrap()], "");
    let _ = std::fs::remove_dir_all(&dir);
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 2, "{out:?}");
    assert_has(&lines[0], r#""summary":"sound""#);
    assert_has(&lines[0], r#""line_source":"given""#);
    assert_has(&lines[1], r#""line_source":"refused""#);
    assert_has(&lines[1], r#""kind":"given_line_fails""#);
}
