//! Mate in one: `mate1::mate_in_one` (no move generation) against the generate-and-test oracle
//! `mate_in_one_reference`, over OR nodes met in real searches: every attacker-to-move position along
//! the known PVs of the problem files, every OR node two plies below them (each check, each evasion),
//! and the positions of seeded random check/evasion walks from the problem roots.
//!
//! `cargo bench --bench mate1` prints one line per set with both times per position and their ratio
//! (best of five interleaved passes), then criterion's report. Three groups:
//! * `mate1/new` and `mate1/reference`: the bare question "is there a mate in one";
//! * `frontier/new`: what `frontier::look_or` now does at a new OR node: `mate_in_one`, and when it
//!   fails, `generate_checks` for the disproof number (the old look-up got the checks as a by-product).
//!
//! Measured on the loaded 2-core development machine, positions along and below the PVs: new 660-830 ns,
//! generate-and-test 1,640-2,220 ns (2.5-2.9x); new plus the checks on failure 760-1,030 ns (2.0-2.2x).
//! Random walks: 2.3-2.6x and 1.4-1.9x. Instructions (callgrind, one pass over the PV set): 193.2 M
//! against 675.9 M (3.5x fewer).
//!
//! For instruction counts (repeatable on a noisy machine), `MATE1_ONLY=new` or `MATE1_ONLY=reference`
//! makes the bench binary run one pass of that function over the set and exit, e.g.
//! `valgrind --tool=callgrind target/release/deps/mate1-… --bench` with the variable set.

#[path = "../tests/common/mod.rs"]
mod common;

use common::Rng;
use criterion::{Criterion, criterion_group, criterion_main};
use kanju::position::Position;
use kanju::position::movegen::{MoveList, generate_checks, generate_evasions, generate_legal};
use kanju::search::mate1::{mate_in_one, mate_in_one_reference};
use kanju::search::problem_position;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The OR nodes along and two plies below the PVs, and those of random walks.
fn position_sets() -> (Vec<Position>, Vec<Position>) {
    let mut real = Vec::new();
    let mut roots = Vec::new();
    for p in common::all_problems() {
        let Ok(root) = Position::from_sfen(&p.sfen) else {
            continue;
        };
        let mut pos = problem_position(&root);
        roots.push(pos.clone());
        let mut or_nodes = vec![pos.clone()];
        for (i, text) in p.pv.iter().enumerate() {
            let Some(m) = pos.parse_usi_move(text) else {
                break;
            };
            pos.do_move(m);
            if i % 2 == 1 {
                or_nodes.push(pos.clone());
            }
        }
        for mut node in or_nodes {
            real.push(node.clone());
            let mut checks = MoveList::new();
            generate_checks(&node, &mut checks);
            for &c in checks.iter() {
                node.do_move(c);
                let mut evasions = MoveList::new();
                generate_evasions(&node, &mut evasions);
                for &e in evasions.iter() {
                    node.do_move(e);
                    real.push(node.clone());
                    node.undo_move(e);
                }
                node.undo_move(c);
            }
        }
    }
    let mut rng = Rng::new(0x0062_656e_6368);
    let mut walks = Vec::new();
    while walks.len() < 50_000 {
        let mut pos = rng.pick(&roots).clone();
        for _ in 0..1 + rng.below(12) {
            walks.push(pos.clone());
            let mut moves = MoveList::new();
            generate_checks(&pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            pos.do_move(*rng.pick(&moves));
            moves.clear();
            generate_legal(&pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            pos.do_move(*rng.pick(&moves));
        }
    }
    // Every fourth real position keeps a pass around a tenth of a second.
    let real = real.into_iter().step_by(4).collect();
    (real, walks)
}

fn pass_new(set: &mut [Position]) -> usize {
    let mut mates = 0;
    for p in set.iter_mut() {
        mates += usize::from(mate_in_one(black_box(p)).is_some());
    }
    mates
}

fn pass_reference(set: &mut [Position]) -> usize {
    let mut checks = MoveList::new();
    let mut mates = 0;
    for p in set.iter_mut() {
        mates += usize::from(mate_in_one_reference(black_box(p), &mut checks).0.is_some());
    }
    mates
}

/// `look_or` today: mate-1, then the checks when it fails.
fn pass_frontier(set: &mut [Position]) -> usize {
    let mut checks = MoveList::new();
    set.iter_mut()
        .map(|p| match mate_in_one(black_box(p)) {
            Some(_) => 1,
            None => {
                checks.clear();
                generate_checks(p, &mut checks);
                checks.len()
            }
        })
        .sum()
}

/// Panics naming the first position where the two answers differ.
fn disagreement(set: &mut [Position]) {
    for p in set.iter_mut() {
        let new = mate_in_one(p).map(|(m, _)| m);
        let reference = mate_in_one_reference(p, &mut MoveList::new()).0;
        assert_eq!(
            new.is_some(),
            reference.is_some(),
            "{p:?}: {new:?} vs {reference:?}"
        );
    }
}

/// Best of five interleaved passes of each, in nanoseconds per position.
fn compare(name: &str, set: &mut [Position]) {
    let (mut new, mut reference, mut frontier) = (f64::MAX, f64::MAX, f64::MAX);
    let n = set.len() as f64;
    let mut mates = 0;
    for _ in 0..5 {
        let t = Instant::now();
        mates = pass_new(set);
        new = new.min(t.elapsed().as_secs_f64() * 1e9 / n);
        let t = Instant::now();
        if pass_reference(set) != mates {
            disagreement(set);
        }
        reference = reference.min(t.elapsed().as_secs_f64() * 1e9 / n);
        let t = Instant::now();
        pass_frontier(set);
        frontier = frontier.min(t.elapsed().as_secs_f64() * 1e9 / n);
    }
    println!(
        "mate1 {name}: {} positions ({mates} mate-in-1): new {new:.0} ns, generate-and-test \
         {reference:.0} ns ({:.1}x); new + checks on failure {frontier:.0} ns ({:.1}x)",
        set.len(),
        reference / new,
        reference / frontier
    );
}

fn mate1(c: &mut Criterion) {
    let (mut real, mut walks) = position_sets();
    if let Ok(which) = std::env::var("MATE1_ONLY") {
        let all: &mut [Position] = &mut real;
        let mates = match which.as_str() {
            "new" => pass_new(all),
            "reference" => pass_reference(all),
            other => panic!("MATE1_ONLY={other}: new or reference"),
        };
        println!("{which}: {} positions, {mates} mates", all.len());
        std::process::exit(0);
    }
    compare("PV nodes and two plies below", &mut real);
    compare("random walks", &mut walks);
    let mut group = c.benchmark_group("mate1");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("new", |b| b.iter(|| pass_new(&mut real)));
    group.bench_function("reference", |b| b.iter(|| pass_reference(&mut real)));
    group.bench_function("frontier/new", |b| b.iter(|| pass_frontier(&mut real)));
    group.finish();
}

criterion_group!(benches, mate1);
criterion_main!(benches);
