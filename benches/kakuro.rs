//! Whole-pipeline timings on Kakuro: read, check, solve, prove unique and verify, for a
//! few janko puzzles of growing size (up to the 31x46 giant) and for the whole set of
//! 751, one thread per search. The bytes are read into memory beforehand.
#![allow(clippy::unwrap_used, reason = "a test or benchmark that cannot go on panics")]

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use kakurod_engine::pipeline::{self, PipelineOptions};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

/// Single puzzles timed on their own, from small to the largest.
const SINGLES: [&str; 5] = ["281_6x6", "346_14x14", "251_20x30", "990_29x39", "960_31x46"];

/// Every `*.txt` puzzle of `dir`, with its name, in name order.
fn puzzles(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "txt"));
    files.sort();
    files
        .into_iter()
        .filter_map(|p| {
            let name = p.file_stem()?.to_string_lossy().into_owned();
            Some((name, std::fs::read(&p).ok()?))
        })
        .collect()
}

/// Runs the pipeline once and insists on a solved puzzle, so a broken solver cannot
/// produce a fast benchmark.
fn solve(name: &str, bytes: &[u8], options: &PipelineOptions) {
    let report = pipeline::process(name, bytes, options, None);
    assert!(report.summary().all_solved(), "{name} was not solved");
    black_box(report);
}

fn kakuro(c: &mut Criterion) {
    let Some(data) = common::data_dir() else { return };
    let all = puzzles(&data.join("kakuro/janko"));
    if all.is_empty() {
        eprintln!("no janko kakuro puzzles in {}: skipped", data.display());
        return;
    }
    let options = PipelineOptions::default();
    let mut group = c.benchmark_group("kakuro");
    group.sample_size(10).warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    for single in SINGLES {
        if let Some((name, bytes)) = all.iter().find(|(n, _)| n == single) {
            group.bench_function(name.as_str(), |b| b.iter(|| solve(name, bytes, &options)));
        }
    }
    group.measurement_time(Duration::from_secs(10));
    group.bench_function(format!("all_{}", all.len()), |b| {
        b.iter(|| all.iter().for_each(|(name, bytes)| solve(name, bytes, &options)))
    });
    group.finish();
}

criterion_group!(benches, kakuro);
criterion_main!(benches);
