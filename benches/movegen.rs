//! Move generation speed: kanju's perft against `shunsai`'s on the same tree, and check generation (the
//! OR-node generator of the mate search) over the problem roots.
//!
//! `cargo bench --bench movegen` takes a minute or two. Besides criterion's report it prints one line
//! with both perft speeds and their ratio, so that runs on different machines compare at a glance.

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use kanju::position::Position;
use kanju::position::movegen::{self, MoveList};
use std::hint::black_box;
use std::time::{Duration, Instant};

const PERFT_DEPTH: u32 = 5;
const STARTPOS_PERFT_5: u64 = 19_861_490;

fn kanju_perft() -> u64 {
    movegen::perft(&mut Position::startpos(), black_box(PERFT_DEPTH))
}

fn shunsai_perft() -> u64 {
    common::shunsai_perft(&mut shunsai::Position::startpos(), black_box(PERFT_DEPTH))
}

/// Seconds for one run, checking the count: a wrong perft would make the benchmark meaningless.
fn timed(perft: fn() -> u64) -> f64 {
    let t = Instant::now();
    assert_eq!(perft(), STARTPOS_PERFT_5, "wrong perft");
    t.elapsed().as_secs_f64()
}

/// Best-of-five leaves per second of both, with the runs interleaved so that a change in machine load
/// (other jobs, frequency scaling) hits both alike.
fn leaves_per_second() -> (f64, f64) {
    let (mut ours, mut theirs) = (f64::MAX, f64::MAX);
    for _ in 0..5 {
        ours = ours.min(timed(kanju_perft));
        theirs = theirs.min(timed(shunsai_perft));
    }
    let leaves = STARTPOS_PERFT_5 as f64;
    (leaves / ours, leaves / theirs)
}

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    // One iteration is most of a second: flat sampling with few samples keeps the run short.
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8))
        .throughput(Throughput::Elements(STARTPOS_PERFT_5));
    group.bench_function("kanju/startpos/5", |b| b.iter(kanju_perft));
    group.bench_function("shunsai/startpos/5", |b| b.iter(shunsai_perft));
    group.finish();

    let (ours, theirs) = leaves_per_second();
    println!(
        "perft {PERFT_DEPTH} from startpos: kanju {:.1} M leaves/s, shunsai {:.1} M leaves/s, \
         kanju/shunsai speed ratio {:.2}",
        ours / 1e6,
        theirs / 1e6,
        ours / theirs
    );
}

/// Every legal problem root in `tests/data` (rows with two pawns on a file are not positions).
fn problem_roots() -> Vec<Position> {
    common::all_problems()
        .iter()
        .filter(|p| !common::two_pawns_on_a_file(&p.sfen))
        .map(|p| Position::from_sfen(&p.sfen).expect("problem root"))
        .collect()
}

fn generate_over(roots: &[Position], generate: fn(&Position, &mut MoveList)) -> usize {
    let mut list = MoveList::new();
    roots
        .iter()
        .map(|pos| {
            list.clear();
            generate(black_box(pos), &mut list);
            list.len()
        })
        .sum()
}

fn checks(c: &mut Criterion) {
    let roots = problem_roots();
    let mut group = c.benchmark_group("checks");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(roots.len() as u64));
    group.bench_function("generate_checks/problem-roots", |b| {
        b.iter(|| generate_over(&roots, movegen::generate_checks));
    });
    // All legal moves of the same positions, for scale: a check generator slower than this would be
    // better replaced by filtering.
    group.bench_function("generate_legal/problem-roots", |b| {
        b.iter(|| generate_over(&roots, movegen::generate_legal));
    });
    group.finish();
}

criterion_group!(benches, perft, checks);
criterion_main!(benches);
