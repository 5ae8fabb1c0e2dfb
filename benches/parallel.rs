//! Benchmark of the parallel search on the hard generated instances listed in
//! `benches/hard/instances.toml` (generator seeds and options, not puzzle files).
//!
//! `cargo bench --bench parallel` generates every instance, solves it `RUNS` times at each
//! thread count and prints a Markdown table of median wall times, speed-ups and nodes; every
//! answer is checked (same count or verdict at every thread count, solutions verified).
//!
//! Arguments after `--`:
//! - `--threads 1,2` thread counts to time (default `1,2`);
//! - `--runs N` runs per cell, the median is reported (default 3);
//! - `--only NAME` time only the instances whose name contains NAME;
//! - `--plain` also time the plain sequential search (`solver::search::solve`), the
//!   baseline the instances were selected with;
//! - `--files DIR` instead of the list, solve every `*.txt` puzzle in DIR (e.g. the janko
//!   Kakuro set) in the configured mode (`--mode`, default unique) at each thread count and
//!   print the total of the median times: splitting must not slow down easy puzzles;
//! - `--scan ROWS COLS BLACK MODE FROM TO [SECONDS]` instead of timing the list, time the
//!   plain sequential search on the seeds FROM..TO of that shape (timeout 60 s unless
//!   given), to find new instances for the list.
#![allow(clippy::unwrap_used, reason = "a test or benchmark that cannot go on panics")]

#[path = "common/generated.rs"]
mod generated;

use generated::Instance;
use kakurod_engine::generate;
use kakurod_engine::puzzle::{Grid, Puzzle};
use kakurod_engine::solver::{self, Mode, Outcome, SolveOptions};
use kakurod_engine::verify;
use std::time::{Duration, Instant};

struct Config {
    threads: Vec<usize>,
    runs: usize,
    only: Option<String>,
    plain: bool,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    if let Some(at) = args.iter().position(|a| a == "--scan") {
        scan(&args[at + 1..]);
        return;
    }
    let mut config = Config { threads: vec![1, 2], runs: 3, only: None, plain: false };
    let mut files: Option<String> = None;
    let mut mode = Mode::Unique;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--threads" => {
                let list = iter.next().expect("--threads needs a list");
                config.threads =
                    list.split(',').map(|t| t.parse().expect("thread count")).collect();
            }
            "--runs" => config.runs = iter.next().and_then(|r| r.parse().ok()).expect("--runs N"),
            "--only" => config.only = iter.next().cloned(),
            "--plain" => config.plain = true,
            "--files" => files = iter.next().cloned(),
            "--mode" => mode = parse_mode(iter.next().expect("--mode NAME")),
            _ => {}
        }
    }
    if let Some(dir) = files {
        bench_files(&dir, mode, &config);
        return;
    }
    print_header(&config);
    for instance in &generated::load("instances.toml", config.only.as_deref()) {
        bench_instance(instance, &config);
    }
}

fn puzzle_of(rows: usize, cols: usize, black: f64, seed: u64) -> Puzzle {
    Puzzle::Kakuro(generate::any_solution(rows, cols, black, seed))
}

fn options(mode: Mode, threads: usize) -> SolveOptions {
    SolveOptions { mode, threads, timeout: Some(Duration::from_secs(300)), ..Default::default() }
}

fn print_header(config: &Config) {
    let mut head = String::from("| instance | mode | answer |");
    let mut rule = String::from("|---|---|---|");
    if config.plain {
        head.push_str(" plain 1t s | plain nodes |");
        rule.push_str("---:|---:|");
    }
    for t in &config.threads {
        head.push_str(&format!(" {t}t s | {t}t nodes |"));
        rule.push_str("---:|---:|");
    }
    for t in config.threads.iter().skip(1) {
        head.push_str(&format!(" speed-up {t}t |"));
        rule.push_str("---:|");
    }
    head.push_str(" note |");
    rule.push_str("---|");
    println!("{head}\n{rule}");
}

fn bench_instance(instance: &Instance, config: &Config) {
    let mode = instance.mode.unwrap_or_else(|| panic!("{}: no mode in the list", instance.name));
    let puzzle = Puzzle::Kakuro(instance.kakuro());
    let compiled = puzzle.compile();
    let mut answer: Option<String> = None;
    let mut row = format!("| {} | {mode:?} |", instance.name);
    let mut cells = String::new();
    let mut times = Vec::new();
    let mut check = |outcome: &Outcome| {
        let verdict = verdict(mode, outcome);
        for values in &outcome.solutions {
            let grid: Grid = puzzle.grid_from_values(&compiled, values);
            verify::check(&puzzle, &grid).expect("a reported solution must verify");
        }
        match &answer {
            None => answer = Some(verdict),
            Some(first) => assert_eq!(first, &verdict, "{}: answers differ", instance.name),
        }
    };
    if config.plain {
        let (median, outcome) = time_runs(config.runs, || {
            solver::search::solve(&compiled.model, &options(mode, 1), None)
        });
        check(&outcome);
        cells.push_str(&format!(" {:.3} | {} |", median.as_secs_f64(), outcome.stats.nodes));
    }
    for &threads in &config.threads {
        let (median, outcome) = time_runs(config.runs, || {
            solver::solve(&compiled.model, &options(mode, threads), None)
        });
        check(&outcome);
        times.push(median);
        let stats = &outcome.stats;
        cells.push_str(&format!(
            " {:.3} | {} ({} sub) |",
            median.as_secs_f64(),
            stats.nodes,
            stats.subproblems
        ));
    }
    for t in times.iter().skip(1) {
        cells.push_str(&format!(" {:.2}x |", times[0].as_secs_f64() / t.as_secs_f64()));
    }
    row.push_str(&format!(" {} |{cells}", answer.unwrap_or_default()));
    if !instance.note.is_empty() {
        row.push_str(&format!(" {} |", instance.note));
    }
    println!("{row}");
}

/// The mode's answer in words: the thing that must not depend on the thread count.
fn verdict(mode: Mode, outcome: &Outcome) -> String {
    if let Some(reason) = outcome.stopped {
        return format!("stopped ({reason:?})");
    }
    match mode {
        Mode::First if outcome.count > 0 => "solved".into(),
        Mode::First => "no solution".into(),
        Mode::Unique => match outcome.count {
            0 => "no solution".into(),
            1 => "unique".into(),
            _ => "multiple".into(),
        },
        Mode::Count => format!("{} solutions", outcome.count),
    }
}

/// Runs `solve` `runs` times; the median wall time and the last outcome.
fn time_runs(runs: usize, mut solve: impl FnMut() -> Outcome) -> (Duration, Outcome) {
    let mut times = Vec::new();
    let mut last = Outcome::default();
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        last = solve();
        times.push(start.elapsed());
    }
    times.sort();
    (times[times.len() / 2], last)
}

/// `--scan ROWS COLS BLACK MODE FROM TO`: plain sequential times of a range of seeds.
fn scan(args: &[String]) {
    let (args, limit) = match args {
        [head @ .., secs] if args.len() == 7 => (head, secs.parse().expect("timeout seconds")),
        _ => (args, 60.0),
    };
    let [rows, cols, black, mode, from, to] = args else {
        panic!("usage: --scan ROWS COLS BLACK MODE FROM TO [TIMEOUT_SECONDS]");
    };
    let (rows, cols): (usize, usize) = (rows.parse().expect("rows"), cols.parse().expect("cols"));
    let black: f64 = black.parse().expect("black");
    let mode = parse_mode(mode);
    let (from, to): (u64, u64) = (from.parse().expect("from"), to.parse().expect("to"));
    for seed in from..to {
        let puzzle = puzzle_of(rows, cols, black, seed);
        let compiled = puzzle.compile();
        let mut opts = options(mode, 1);
        opts.timeout = Some(Duration::from_secs_f64(limit));
        let start = Instant::now();
        let outcome = solver::search::solve(&compiled.model, &opts, None);
        println!(
            "seed {seed}: {:.3} s, {} nodes, {}",
            start.elapsed().as_secs_f64(),
            outcome.stats.nodes,
            verdict(mode, &outcome)
        );
    }
}

fn parse_mode(name: &str) -> Mode {
    serde_json::from_value(serde_json::Value::String(name.to_owned())).expect("mode name")
}

/// `--files DIR`: total median time over every puzzle file in DIR, per thread count.
fn bench_files(dir: &str, mode: Mode, config: &Config) {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("read the folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    paths.sort();
    let mut puzzles = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).expect("read a puzzle");
        let document = kakurod_engine::format::read(&text, None).expect("a readable puzzle");
        for parsed in document.entries.into_iter().flatten() {
            puzzles.push(parsed.puzzle);
        }
    }
    println!("{} puzzles from {dir}, mode {mode:?}", puzzles.len());
    let mut verdicts: Option<Vec<String>> = None;
    for &threads in &config.threads {
        let mut total = Duration::ZERO;
        let mut nodes = 0;
        let mut split = 0;
        let mut these = Vec::new();
        for puzzle in &puzzles {
            let compiled = puzzle.compile();
            let (median, outcome) = time_runs(config.runs, || {
                solver::solve(&compiled.model, &options(mode, threads), None)
            });
            total += median;
            nodes += outcome.stats.nodes;
            split += u64::from(outcome.stats.subproblems > 1);
            these.push(verdict(mode, &outcome));
        }
        match &verdicts {
            None => verdicts = Some(these),
            Some(first) => assert_eq!(first, &these, "answers differ at {threads} threads"),
        }
        println!(
            "{threads} threads: total of medians {:.3} s, {nodes} nodes, {split} puzzles split",
            total.as_secs_f64()
        );
    }
}
