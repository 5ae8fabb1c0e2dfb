//! kakurod's solver against the `sudoku` crate (a specialised 9x9 solver) on the hard
//! top1465 collection. Both sides read the 81-character line, solve, and make sure the
//! solution is unique (kakurod in `unique` mode, the crate's `solution()`), one thread.
//!
//! Criterion times the two sides one after the other, so a machine whose speed drifts
//! (a shared one) puts its drift into their ratio. After the criterion groups, a paired
//! run therefore times both sides in alternation over the whole collection, round after
//! round, and prints the median of the rounds' ratios (`PAIRED_ROUNDS`, default 30; 0
//! skips it).
#![allow(clippy::unwrap_used, reason = "a test or benchmark that cannot go on panics")]

mod common;

use criterion::{Criterion, criterion_group};
use kakurod_engine::format::{self, Format};
use kakurod_engine::solver::{self, SolveOptions};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// kakurod: read the line, compile, search for a second solution.
fn kakurod_unique(line: &str, options: &SolveOptions) -> u64 {
    let Ok(document) = format::read(line, Some(Format::Lines)) else {
        panic!("unreadable: {line}")
    };
    let Some(Ok(parsed)) = document.entries.into_iter().next() else { panic!("no puzzle: {line}") };
    let compiled = parsed.puzzle.compile();
    let outcome = solver::solve(&compiled.model, options, None);
    assert!(outcome.count == 1 && outcome.complete, "not unique: {line}");
    outcome.count
}

/// The `sudoku` crate: parse the line, solve with its uniqueness check.
fn crate_unique(line: &str) -> bool {
    let puzzle = sudoku::Sudoku::from_str_line(line).unwrap_or_else(|e| panic!("{e:?}: {line}"));
    puzzle.solution().is_some()
}

/// The puzzle lines of top1465, if the data is there.
fn top1465_lines() -> Option<Vec<String>> {
    let path = common::data_dir()?.join("sudoku/lines/top1465.txt");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("{} not found: skipped", path.display());
        return None;
    };
    let lines = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'));
    Some(lines.map(String::from).collect())
}

/// kakurod over every line; the number of unique solutions.
fn kakurod_all(lines: &[String], options: &SolveOptions) -> u64 {
    lines.iter().map(|l| kakurod_unique(l, options)).sum()
}

/// The crate over every line; the number of unique solutions.
fn crate_all(lines: &[String]) -> usize {
    lines.iter().filter(|l| black_box(crate_unique(l))).count()
}

fn top1465(c: &mut Criterion) {
    let Some(lines) = top1465_lines() else { return };
    let options = SolveOptions::default();
    let mut group = c.benchmark_group(format!("sudoku_top{}", lines.len()));
    group.sample_size(10).warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("kakurod", |b| b.iter(|| kakurod_all(&lines, &options)));
    group.bench_function("sudoku_crate", |b| b.iter(|| crate_all(&lines)));
    group.finish();
}

/// Both sides over the whole collection in alternation (which goes first alternates too),
/// so each round's ratio sees one machine state. Prints the median ratio with its
/// quartiles, and the median times.
fn paired(rounds: usize) {
    let Some(lines) = top1465_lines() else { return };
    let options = SolveOptions::default();
    let time = |run: &dyn Fn()| {
        let start = Instant::now();
        run();
        start.elapsed().as_secs_f64() * 1e3
    };
    let ours = || assert_eq!(kakurod_all(&lines, &options), lines.len() as u64);
    let theirs = || assert_eq!(crate_all(&lines), lines.len());
    let (mut kakurod, mut sudoku, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        let (a, b) = if round % 2 == 0 {
            let a = time(&ours);
            (a, time(&theirs))
        } else {
            let b = time(&theirs);
            (time(&ours), b)
        };
        kakurod.push(a);
        sudoku.push(b);
        ratios.push(a / b);
    }
    let median = |values: &mut Vec<f64>, q: usize| {
        values.sort_by(f64::total_cmp);
        values[(values.len() - 1) * q / 4]
    };
    println!(
        "sudoku_top{} paired, {rounds} rounds: kakurod/crate time ratio median {:.2} \
         (quartiles {:.2} .. {:.2}); median times {:.1} ms and {:.1} ms",
        lines.len(),
        median(&mut ratios, 2),
        median(&mut ratios, 1),
        median(&mut ratios, 3),
        median(&mut kakurod, 2),
        median(&mut sudoku, 2),
    );
}

criterion_group!(benches, top1465);

fn main() {
    benches();
    // Not when cargo only checks that the benchmarks run (`cargo test --benches`).
    let checking = std::env::args().any(|a| a == "--test" || a == "--list");
    let rounds = std::env::var("PAIRED_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(30);
    if !checking && rounds > 0 {
        paired(rounds);
    }
    Criterion::default().configure_from_args().final_summary();
}
