//! Unit tests of `pv.rs`.

//! The length cache on komori-n's example graph (`pv-search-with-loops` in the references): the
//! table and the dependence rules the bounded searches use, driven by a small AND/OR search over
//! an abstract graph instead of positions.

use super::super::loops::{Dependence, next_path_id};
use super::super::numbers::INF;
use super::super::tt::{Record, Table};
use crate::position::Hand;

/// A node: attacker to move (OR) or defender to move (AND), and its children.
struct Node {
    or: bool,
    children: Vec<usize>,
}

const A: usize = 0;
const B: usize = 1;
const C: usize = 2;
const D: usize = 3;
const E: usize = 4;
const F: usize = 5;

/// A → B, C; B → D; D → E, F; E → A (the loop); C mates in 4 more plies, F in 16.
fn komori_graph() -> Vec<Node> {
    let mut g = vec![
        Node {
            or: true,
            children: vec![B, C],
        },
        Node {
            or: false,
            children: vec![D],
        },
        Node {
            or: false,
            children: vec![],
        },
        Node {
            or: true,
            children: vec![E, F],
        },
        Node {
            or: false,
            children: vec![A],
        },
        Node {
            or: false,
            children: vec![],
        },
    ];
    // A forced line of `plies` from an AND node to a mated AND node.
    for (start, plies) in [(C, 4), (F, 16)] {
        let mut at = start;
        for i in 0..plies {
            g.push(Node {
                or: i % 2 == 0,
                children: vec![],
            });
            let next = g.len() - 1;
            g[at].children.push(next);
            at = next;
        }
    }
    g
}

enum Outcome {
    Proven(u16),
    Disproven(Dependence),
}

/// "Mate within `budget` plies?" from `node` at `ply`, the nodes of `path` above it, with the
/// engine's rules: a repetition is cut and the result rests on it; results are stored in `t`,
/// path-dependent ones under the path key. `naive`: store every result as if it held everywhere.
fn search(
    g: &[Node],
    t: &mut Table,
    node: usize,
    budget: u32,
    path: &mut Vec<usize>,
    naive: bool,
) -> Outcome {
    let ply = path.len() as u32;
    let path_key = path.iter().fold(7u64, |k, &n| next_path_id(k, n as u64));
    // Spread over the table (keys are Zobrist hashes in the engine).
    let key = (node as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let p = t.probe(key, Hand::EMPTY, path_key, budget);
    if p.is_proven() {
        return Outcome::Proven(p.len);
    }
    if p.is_disproven() {
        return Outcome::Disproven(p.dep);
    }
    let or = g[node].or;
    if budget == 0 && (or || !g[node].children.is_empty()) {
        // No mate in 0 plies, except for a mated AND node.
        return Outcome::Disproven(Dependence::Within {
            plies: 0,
            loop_at: None,
        });
    }
    path.push(node);
    let mut proven: Option<u16> = None;
    let mut dep = Dependence::None;
    let mut refuted = false;
    if !or && g[node].children.is_empty() {
        proven = Some(0);
    }
    for &child in &g[node].children {
        let r = if let Some(at) = path.iter().position(|&n| n == child) {
            Outcome::Disproven(Dependence::bounded_loop(at as u32))
        } else {
            search(g, t, child, budget - 1, path, naive)
        };
        match r {
            Outcome::Proven(len) if or => {
                proven = Some(proven.map_or(len + 1, |l| l.min(len + 1)));
            }
            Outcome::Proven(len) => proven = Some(proven.map_or(len + 1, |l| l.max(len + 1))),
            Outcome::Disproven(d) if or => dep = dep.and(d),
            Outcome::Disproven(d) => {
                dep = d;
                refuted = true;
                break;
            }
        }
    }
    path.pop();
    let mut rec = Record::proof(Hand::EMPTY, 0, 0, or);
    rec.budget = budget;
    rec.path = path_key;
    let outcome = match proven {
        Some(len) if or || !refuted => {
            rec.len = len;
            Outcome::Proven(len)
        }
        _ => {
            let mut d = dep.before_move().settle(ply);
            if naive && let Dependence::Within { plies, .. } = d {
                d = Dependence::Within {
                    plies,
                    loop_at: None,
                };
            }
            (rec.pn, rec.dn, rec.dep) = (INF, 0, d);
            Outcome::Disproven(d)
        }
    };
    t.store(key, &rec);
    outcome
}

/// The minimax length from `root` (a new search: nothing above it), by deepening the bound.
fn value(g: &[Node], t: &mut Table, root: usize, naive: bool) -> u32 {
    (0..64)
        .find(|&d| {
            matches!(
                search(g, t, root, d, &mut vec![], naive),
                Outcome::Proven(_)
            )
        })
        .expect("every node of the graph mates")
}

/// The article's tables: from A, A is a mate in 5 (through C), and B, D, E get lengths that rest
/// on the loop back to A (18, 17, none). Searched from D, D is a mate in 7 (D → E → A → C …).
/// After a search from A with a wide bound, the table must still give 7 for D and 8 for B: the
/// results that rested on the loop were kept to their path. A cache that stores them as general
/// (`naive`) answers 17 for D, the failure the article warns about.
#[test]
fn komori_example_graph() {
    let g = komori_graph();
    for naive in [false, true] {
        let mut t = Table::new(1);
        let wide = search(&g, &mut t, A, 17, &mut vec![], naive);
        assert!(matches!(wide, Outcome::Proven(5)));
        let d = value(&g, &mut t, D, naive);
        if naive {
            assert_eq!(d, 17, "the naive cache should show the article's failure");
            continue;
        }
        assert_eq!(d, 7);
        assert_eq!(value(&g, &mut t, B, naive), 8);
        assert_eq!(value(&g, &mut t, A, naive), 5);
        assert_eq!(value(&g, &mut t, E, naive), 6);
    }
    // Fresh tables agree with the path-independent values.
    for (node, len) in [(A, 5), (B, 8), (D, 7), (E, 6)] {
        assert_eq!(value(&g, &mut Table::new(1), node, false), len);
    }
}

/// The same failure in the solver: game positions whose mating nets hold a perpetual-check cycle
/// (`tests/common`'s `PERPETUAL_IN_NET`, their minimax lengths confirmed by the brute force in
/// `tests/differential`, `perpetual_check_inside_the_net`). The loop-aware cache prints the minimax
/// length, proven shortest, on each; the naive cache (`SearchConfig::naive_loop_cache`: a bounded
/// result resting on a repetition stored as if it held on every path) prints another on at least one.
/// Whether the naive cache errs depends on the order of the questions that meet the cycle: with the
/// line phase's jumps it happens to be right on both, so it asks two plies at a time (`pv_jumps`
/// off), the order the witnesses were found with.
#[test]
fn the_naive_length_cache_prints_a_wrong_length_in_a_net_with_a_perpetual_check() {
    use crate::position::Position;
    use crate::search::{MateOutcome, SearchConfig, SearchLimits, Solver, verify_mate_line};
    use std::sync::atomic::AtomicBool;
    const PERPETUAL_IN_NET: [(&str, usize); 2] = [
        ("2+r2k3/9/2+P6/9/7+S1/5K3/9/9/9 b RBN 1", 11),
        ("6+P2/3k5/5+P3/9/9/9/9/9/6K2 b R2GP 1", 11),
    ];
    let solve = |naive: bool, root: &Position| {
        let mut solver = Solver::new(16);
        solver.set_config(SearchConfig {
            naive_loop_cache: naive,
            pv_jumps: !naive,
            ..Default::default()
        });
        let limits = SearchLimits {
            nodes: Some(5_000_000),
            ..Default::default()
        };
        let r = solver
            .solve(root, &limits, &AtomicBool::new(false), &mut |_| {})
            .expect("a problem");
        let MateOutcome::Mate(line) = r.outcome else {
            panic!("naive {naive}: {:?}", r.outcome);
        };
        assert!(verify_mate_line(root, &line), "naive {naive}: {line:?}");
        (line.len(), r.findings.exact)
    };
    // The search recurses once per ply: a search's stack, not a test thread's.
    let wrong = std::thread::Builder::new()
        .stack_size(crate::search::SEARCH_STACK_BYTES)
        .spawn(move || {
            let mut wrong = vec![];
            for (text, minimax) in PERPETUAL_IN_NET {
                let root = Position::from_sfen(text).unwrap();
                assert_eq!(solve(false, &root), (minimax, true), "{text}");
                let (len, _) = solve(true, &root);
                if len != minimax {
                    wrong.push((text, len));
                }
            }
            wrong
        })
        .unwrap()
        .join()
        .unwrap();
    assert!(
        !wrong.is_empty(),
        "the naive cache is right on every witness: find new ones (tests/common, PERPETUAL_IN_NET)"
    );
}
