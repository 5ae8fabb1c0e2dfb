//! kakurod's solver against the `sudoku` crate (a specialised 9x9 solver) on the hard
//! top1465 collection. Both sides read the 81-character line, solve, and make sure the
//! solution is unique (kakurod in `unique` mode, the crate's `solution()`), one thread.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use kakurod::format::{self, Format};
use kakurod::solver::{self, SolveOptions};
use std::hint::black_box;
use std::time::Duration;

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

fn top1465(c: &mut Criterion) {
    let Some(data) = common::data_dir() else { return };
    let path = data.join("sudoku/lines/top1465.txt");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("{} not found: skipped", path.display());
        return;
    };
    let lines: Vec<&str> =
        text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    let options = SolveOptions::default();
    let mut group = c.benchmark_group(format!("sudoku_top{}", lines.len()));
    group.sample_size(10).warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("kakurod", |b| {
        b.iter(|| lines.iter().map(|l| kakurod_unique(l, &options)).sum::<u64>())
    });
    group.bench_function("sudoku_crate", |b| {
        b.iter(|| lines.iter().filter(|l| black_box(crate_unique(l))).count())
    });
    group.finish();
}

criterion_group!(benches, top1465);
criterion_main!(benches);
