//! Every problem file, its PVs and the OR nodes two plies below them.

use super::*;

// ---- problem files ------------------------------------------------------------------------------------

/// `(sfen, pv)` of every row of the problem files: `tests/data` and, when present, `../shared/problems`.
pub(crate) fn problem_rows() -> Vec<(String, Vec<String>)> {
    let mut seen = HashSet::new();
    let mut rows = Vec::new();
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/problems");
    let mut files: Vec<_> = [common::data_dir(), shared]
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tsv"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable problem file");
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let cols: Vec<&str> = line.split('\t').collect();
            let sfen = cols.get(1).expect("a sfen column").trim().to_string();
            let pv: Vec<String> = cols
                .get(3)
                .unwrap_or(&"")
                .split_whitespace()
                .map(str::to_string)
                .collect();
            if seen.insert((sfen.clone(), pv.clone())) {
                rows.push((sfen, pv));
            }
        }
    }
    rows
}

/// Every OR node two plies below `pos`: each check, each evasion.
fn grandchildren(pos: &mut Position, tally: &mut Tally) {
    let mut checks = MoveList::new();
    generate_checks(pos, &mut checks);
    for &c in checks.iter() {
        pos.do_move(c);
        let mut evasions = MoveList::new();
        generate_evasions(pos, &mut evasions);
        for &e in evasions.iter() {
            pos.do_move(e);
            check(pos, tally);
            pos.undo_move(e);
        }
        pos.undo_move(c);
    }
}

#[test]
fn problem_files_and_their_pvs() {
    let rows = problem_rows();
    assert!(
        rows.len() > 2000,
        "problem files missing: {} rows",
        rows.len()
    );
    let (mut roots, mut along, mut below) = (Tally::default(), Tally::default(), Tally::default());
    let mut refused = 0;
    for (sfen, pv) in &rows {
        let Ok(root) = Position::from_sfen(sfen) else {
            refused += 1;
            continue;
        };
        let mut pos = problem_position(&root);
        check(&pos, &mut roots);
        grandchildren(&mut pos, &mut below);
        for (i, text) in pv.iter().enumerate() {
            let m = pos
                .parse_usi_move(text)
                .unwrap_or_else(|| panic!("{sfen}: pv move {text} is illegal"));
            pos.do_move(m);
            if i % 2 == 1 {
                check(&pos, &mut along);
                grandchildren(&mut pos, &mut below);
            }
        }
    }
    eprintln!(
        "problems: {} roots ({} mate-in-1), {} along PVs ({} mate-in-1), {} two plies below ({:.1}% \
         mate-in-1), {refused} refused rows",
        roots.positions,
        roots.mates,
        along.positions,
        along.mates,
        below.positions,
        100.0 * below.share()
    );
    assert!(
        below.positions > 100_000 && below.share() > 0.05,
        "{below:?}"
    );
    assert!(along.mates > 1000, "{along:?}");
    // Only game positions (both kings) can put the attacker in check, and rarely.
    assert!(
        below.stats.in_check_fallbacks * 1000 < below.positions,
        "{below:?}"
    );
    eprintln!(
        "problems: two plies below: judged {} candidates, {} in-check fallbacks, {} played",
        below.stats.judged, below.stats.in_check_fallbacks, below.stats.played
    );
}
