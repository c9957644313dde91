//! Helpers for the unit tests of the search: a fresh searcher on a problem, the AND node after a
//! check, searched to the end.

use super::Searcher;
use crate::position::movegen::{MoveList, generate_evasions};
use crate::position::{Hand, Position};
use crate::search::config::SearchConfig;
use crate::search::loops::{ROOT_PATH, next_path};
use crate::search::node::Seen;
use crate::search::numbers::PN_MAX;
use crate::search::outcome::{SearchInfo, SearchLimits};
use crate::search::shared::{Problem, Shared};
use crate::search::tt::{Table, UNBOUNDED};
use crate::search::verify::problem_position;
use std::sync::atomic::AtomicBool;

/// What the search says of the AND node after `check` from the tsume problem `sfen`, searched to
/// the end with the switches `spec`.
pub struct AndNode {
    /// The node is proven.
    pub proven: bool,
    /// Its proof hand.
    pub hand: Hand,
    /// Evasions that were chained behind another when the node was expanded.
    pub chained: usize,
    /// Evasions, and those the table holds proven afterwards.
    pub evasions: usize,
    pub proven_evasions: usize,
    /// Mate-in-one probes the search of the node asked.
    pub mate1_probes: u64,
}

/// The rows of a problem file in `tests/data`: its SFEN and expected columns.
pub fn data_rows(file: &str) -> Vec<(String, String)> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            (c[1].to_string(), c[2].to_string())
        })
        .collect()
}

/// Runs `f` on a fresh search (16 MiB table, no limits) of the tsume problem `sfen` with the
/// switches `spec`.
pub fn fresh_search<R>(sfen: &str, spec: &str, f: impl FnOnce(&mut Searcher) -> R) -> R {
    let root = problem_position(&Position::from_sfen(sfen).unwrap());
    let mut config = SearchConfig::default();
    config.apply(spec).unwrap();
    let tt = Table::new(16);
    let limits = SearchLimits::default();
    let stop = AtomicBool::new(false);
    let mut on_info = |_: &SearchInfo| {};
    let shared = Shared::new(
        &tt,
        &config,
        &limits,
        &stop,
        Problem::new(root.clone(), root.side_to_move()),
    );
    let mut s = Searcher::new(&shared, &mut on_info);
    s.path.root = ROOT_PATH;
    f(&mut s)
}

/// `fresh_search` with its root on the path and the check `check` played.
pub fn after_check<R>(
    sfen: &str,
    spec: &str,
    check: &str,
    f: impl FnOnce(&mut Searcher, u64) -> R,
) -> R {
    fresh_search(sfen, spec, |s| {
        let root_key = s.pos.key();
        s.path.keys.insert(root_key, 0);
        let m = s.pos.parse_usi_move(check).unwrap();
        s.pos.do_move(m);
        s.path.keys.insert(s.pos.key(), 1);
        let path = next_path(s.path.root, m);
        f(s, path)
    })
}

pub fn and_node(sfen: &str, check: &str, spec: &str) -> AndNode {
    after_check(sfen, spec, check, and_node_in)
}

pub fn and_node_in(s: &mut Searcher, path: u64) -> AndNode {
    s.expand(false, 1, path);
    let chained = s.children.iter().filter(|c| !c.active).count();
    s.children.clear();
    let r = s.mid(PN_MAX, PN_MAX, 1, path, Seen::New);
    let mut evasions = MoveList::new();
    generate_evasions(&s.pos, &mut evasions);
    let mut proven_evasions = 0;
    for &e in evasions.iter() {
        s.pos.do_move(e);
        let p = s
            .tt()
            .probe(s.tt_key(), s.hand(), next_path(path, e), UNBOUNDED);
        proven_evasions += usize::from(p.is_proven());
        s.pos.undo_move(e);
    }
    AndNode {
        proven: r.pn == 0,
        hand: r.hand,
        chained,
        evasions: evasions.len(),
        proven_evasions,
        mate1_probes: s.stats.mate1_probes,
    }
}
