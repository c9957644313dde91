//! Solver speed on fixed problem groups from `tests/data`: all of `yaneuraou-mate7.tsv` in sequence, the
//! first 200 legal tanuki mates in 9 and 11, and five quick Zukou problems one by one.
//!
//! `cargo bench --bench solver` takes a minute or two. One `Solver` with a 64 MiB table serves every
//! group, cleared before each problem, as `kanju bench` does.
//!
//! What is timed is the search alone (`Solver::solve`), not the `clear()` before it: clearing 64 MiB
//! costs milliseconds, more than most of these searches, and would hide changes in search speed. The
//! `clear/64MiB` benchmark shows that cost on its own, and `fresh-solver` the cost of a new solver with
//! the default 256 MiB table and its first problem (a one-problem `kanju solve`). Each iteration
//! asserts that every problem ends in a mate that passes `verify_mate_line` (and, where the file's
//! length is the minimax length, is not shorter), so a broken solver fails the bench instead of being
//! measured.
//!
//! Before criterion measures, one run per group prints its nodes and nodes/s; criterion's `thrpt` is
//! nodes/s too (its throughput is the node count of that run).

#[path = "../tests/common/mod.rs"]
mod common;

use common::{Expected, Problem, load_problems, two_pawns_on_a_file};
use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use kanju::position::Position;
use kanju::search::{MateOutcome, SearchLimits, Solver, verify_mate_line};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const HASH_MB: usize = 64;

/// The default table of `kanju solve` and USI (`USI_Hash`), for the fresh-solver benchmark.
const FRESH_MB: usize = 256;

/// A safety net, not a measurement: every problem here takes milliseconds, and a timeout fails the
/// bench (it is not a mate).
const TIME_LIMIT: Duration = Duration::from_secs(30);

const TANUKI_COUNT: usize = 200;

const ZUKOU_IDS: [&str; 5] = ["zuko002", "zuko005", "zuko011", "zuko013", "zuko018"];

/// One problem, ready to solve.
struct Case {
    id: String,
    pos: Position,
    /// The minimax length where the file gives one (a shorter mate would be wrong).
    min_len: Option<usize>,
}

impl Case {
    fn new(p: &Problem) -> Case {
        let pos = Position::from_sfen(&p.sfen)
            .and_then(|pos| pos.validate_mate_problem().map(|()| pos))
            .unwrap_or_else(|e| panic!("{} {}: refused: {e}", p.file, p.id));
        // Zukou lengths are a composer's recorded line (futile interpositions skipped), not minimax.
        let min_len = match p.expected {
            Expected::Mate(n) if p.file != "zukou.tsv" => Some(n as usize),
            Expected::Mate(_) | Expected::MateUnknown => None,
            _ => panic!("{} {}: not a mate row", p.file, p.id),
        };
        Case {
            id: p.id.clone(),
            pos,
            min_len,
        }
    }
}

fn yaneuraou_mate7() -> Vec<Case> {
    load_problems("yaneuraou-mate7.tsv")
        .iter()
        .map(Case::new)
        .collect()
}

/// The first `TANUKI_COUNT` mate-9 and mate-11 rows in file order, skipping the two-pawn rows (not
/// positions; kanju refuses them).
fn tanuki_9_11() -> Vec<Case> {
    let cases: Vec<Case> = load_problems("tanuki.tsv")
        .iter()
        .filter(|p| matches!(p.expected, Expected::Mate(9 | 11)))
        .filter(|p| !two_pawns_on_a_file(&p.sfen))
        .take(TANUKI_COUNT)
        .map(Case::new)
        .collect();
    assert_eq!(cases.len(), TANUKI_COUNT, "too few tanuki mate-9/11 rows");
    cases
}

fn zukou(id: &str) -> Case {
    let p = load_problems("zukou.tsv")
        .into_iter()
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("no {id} in zukou.tsv"));
    Case::new(&p)
}

/// Solves the cases in order, clearing the table before each, and panics unless every answer is a
/// verified mate. Returns the time spent in `solve` alone, the nodes, and the time spent clearing.
fn solve_all(solver: &mut Solver, cases: &[Case]) -> (Duration, u64, Duration) {
    let limits = SearchLimits {
        time: Some(TIME_LIMIT),
        ..SearchLimits::default()
    };
    let stop = AtomicBool::new(false);
    let (mut search, mut nodes, mut clearing) = (Duration::ZERO, 0, Duration::ZERO);
    for c in cases {
        let t = Instant::now();
        solver.clear();
        clearing += t.elapsed();
        let t = Instant::now();
        let r = solver
            .solve(black_box(&c.pos), &limits, &stop, &mut |_| {})
            .expect("a valid mate problem");
        search += t.elapsed();
        nodes += r.nodes;
        match r.outcome {
            MateOutcome::Mate(line) => {
                assert!(
                    verify_mate_line(&c.pos, &line),
                    "{}: the mate line fails verification",
                    c.id
                );
                if let Some(n) = c.min_len {
                    assert!(
                        line.len() >= n,
                        "{}: a mate in {}, shorter than the minimax {n}",
                        c.id,
                        line.len()
                    );
                }
            }
            other => panic!("{}: {other:?} instead of a mate", c.id),
        }
    }
    (search, nodes, clearing)
}

/// The one-off run before criterion: solves the group once (checked) and prints its nodes and nodes/s.
/// Returns the node count and the wall time of the run, clearing included.
fn report(solver: &mut Solver, name: &str, cases: &[Case]) -> (u64, Duration) {
    let (search, nodes, clearing) = solve_all(solver, cases);
    println!(
        "solver {name}: {} problems, {nodes} nodes in {:.1} ms of search, {:.2} M nodes/s \
         (and {:.1} ms clearing the table, not timed)",
        cases.len(),
        search.as_secs_f64() * 1e3,
        nodes as f64 / search.as_secs_f64().max(1e-9) / 1e6,
        clearing.as_secs_f64() * 1e3,
    );
    (nodes, search + clearing)
}

/// Criterion over `solve_all`, timing the searches only (see the module comment). Its throughput is
/// the node count of the one-off run; a note follows if a measured run took a different count.
fn bench_cases(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    solver: &mut Solver,
    name: &str,
    cases: &[Case],
) {
    let (nodes, wall) = report(solver, name, cases);
    // Criterion plans the samples by the wall time of an iteration (clearing included) but records
    // only the search time. Ten samples of one iteration at least, and no "unable to complete" warning.
    group
        .throughput(Throughput::Elements(nodes))
        .measurement_time((wall * 13).max(Duration::from_secs(1)));
    let mut other_counts = vec![];
    group.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let mut search = Duration::ZERO;
            for _ in 0..iters {
                let (t, n, _) = solve_all(solver, cases);
                search += t;
                if n != nodes {
                    other_counts.push(n);
                }
            }
            search
        })
    });
    if !other_counts.is_empty() {
        println!(
            "note: {} runs of {name} took another node count than {nodes} (e.g. {}); the thrpt is \
             approximate",
            other_counts.len(),
            other_counts[0]
        );
    }
}

fn solver(c: &mut Criterion) {
    let mut solver = Solver::new(HASH_MB);
    // Backed now, as `kanju bench` does: the searches timed below should not carry the table's page
    // faults (see `fresh-solver` for a table taken as the search reaches it).
    solver.populate_table();

    // Flat sampling, ten samples: a group iteration of 100–200 problems is 0.1–0.2 s of search but
    // 5–15 ms of clearing per problem, so each group runs a dozen iterations (one in the warm-up).
    let mut group = c.benchmark_group("solver");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(300));
    bench_cases(
        &mut group,
        &mut solver,
        "yaneuraou-mate7/all",
        &yaneuraou_mate7(),
    );
    bench_cases(
        &mut group,
        &mut solver,
        "tanuki-mate9-11/first-200",
        &tanuki_9_11(),
    );
    group.finish();

    let mut group = c.benchmark_group("solver/zukou");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(300));
    for id in ZUKOU_IDS {
        bench_cases(&mut group, &mut solver, id, &[zukou(id)]);
    }
    group.finish();

    // The cost left out of the timings above, per problem.
    let mut group = c.benchmark_group("clear");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    group.bench_function(format!("{HASH_MB}MiB"), |b| b.iter(|| solver.clear()));
    group.finish();

    // A one-problem `kanju solve` past process start: a new solver with the default table, and the
    // file's first mate in seven. The table's memory is backed only where the search touches it
    // (`search/tt/memory.rs`); written at allocation, it cost 30-500 ms here.
    let first = yaneuraou_mate7()
        .into_iter()
        .next()
        .expect("yaneuraou-mate7.tsv has rows");
    let mut group = c.benchmark_group("fresh-solver");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    group.bench_function(format!("{FRESH_MB}MiB/first-mate7"), |b| {
        b.iter(|| {
            let mut solver = Solver::new(FRESH_MB);
            solve_all(&mut solver, std::slice::from_ref(&first))
        })
    });
    group.finish();
}

criterion_group!(benches, solver);
criterion_main!(benches);
