//! Benchmark of the whole `kakurod solve` process on the large generated Kakuro listed in
//! `benches/hard/large.toml` (generator seeds and options, not puzzle files).
//!
//! `cargo bench --bench large` writes every instance as a janko file (into
//! `target/large-bench/`), then times
//! `kakurod solve --mode MODE --threads N --timeout 60 FILE` as a child process, `--runs`
//! times for each mode and thread count, and prints a Markdown table of median wall times,
//! with the engine that answered (`engine=` on the statistics line). Every run is checked:
//! exit status 0, status `solved`, the printed solution verified against the puzzle, and in
//! `unique` mode the same verdict at every thread count. A run that fails the check by
//! stopping (timeout) is shown as `> 60 s` instead of aborting the benchmark; a wrong answer
//! aborts it. Each mode's row also times `--algorithm sat` (the SAT engine alone) at one
//! thread, for comparison.
//!
//! Arguments after `--`:
//! - `--threads 1,2,0` thread counts to time (default `1,2,0`; 0 = all cores);
//! - `--runs N` runs per cell, the median is reported (default 3);
//! - `--modes first,unique` modes to time (default both; an entry of the list that names its
//!   `mode` is timed in that mode only);
//! - `--only NAME` time only the instances whose name contains NAME;
//! - `--no-sat` leave out the `--algorithm sat` column;
//! - `--timeout SECONDS` the `--timeout` given to `kakurod solve` (default 60);
//! - `--kakurod PATH` the binary to time (default: the one cargo built with this bench,
//!   `target/release/kakurod`);
//! - `--write-only` write the puzzle files and stop (for `benches/compare_ortools.py`).
#![allow(clippy::unwrap_used, reason = "a test or benchmark that cannot go on panics")]

#[path = "common/generated.rs"]
mod generated;

use generated::Instance;
use kakurod_engine::format::solution::read_sol;
use kakurod_engine::generate;
use kakurod_engine::puzzle::{KakuroCell, Puzzle};
use kakurod_engine::verify;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

struct Config {
    kakurod: PathBuf,
    threads: Vec<usize>,
    runs: usize,
    modes: Vec<String>,
    only: Option<String>,
    sat: bool,
    timeout: u64,
}

/// What one `kakurod solve` run answered.
struct Run {
    seconds: f64,
    /// `solved`, `timeout`, ... (the status on the statistics line).
    status: String,
    /// `unique`, `multiple` or `not_checked`.
    uniqueness: String,
    /// `search` or `sat`.
    engine: String,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let mut config = Config {
        kakurod: PathBuf::from(env!("CARGO_BIN_EXE_kakurod")),
        threads: vec![1, 2, 0],
        runs: 3,
        modes: vec!["first".into(), "unique".into()],
        only: None,
        sat: true,
        timeout: 60,
    };
    let mut write_only = false;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--threads" => {
                let list = iter.next().expect("--threads needs a list");
                config.threads =
                    list.split(',').map(|t| t.parse().expect("thread count")).collect();
            }
            "--runs" => config.runs = iter.next().and_then(|r| r.parse().ok()).expect("--runs N"),
            "--modes" => {
                let list = iter.next().expect("--modes needs a list");
                config.modes = list.split(',').map(str::to_owned).collect();
            }
            "--only" => config.only = iter.next().cloned(),
            "--no-sat" => config.sat = false,
            "--timeout" => {
                config.timeout = iter.next().and_then(|t| t.parse().ok()).expect("--timeout S");
            }
            "--kakurod" => config.kakurod = iter.next().expect("--kakurod PATH").into(),
            "--write-only" => write_only = true,
            other => panic!("unknown argument {other}"),
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("target/large-bench");
    std::fs::create_dir_all(&dir).expect("create target/large-bench");

    let instances = generated::load("large.toml", config.only.as_deref());
    let mut puzzles = Vec::new();
    for instance in &instances {
        let kakuro = instance.kakuro();
        let path = dir.join(format!("{}.txt", instance.name));
        std::fs::write(&path, generate::to_janko(&kakuro)).expect("write a puzzle file");
        puzzles.push((path, Puzzle::Kakuro(kakuro)));
    }
    if write_only {
        println!("{} puzzles written to {}", puzzles.len(), dir.display());
        return;
    }
    print_header(&config);
    for (instance, (path, puzzle)) in instances.iter().zip(&puzzles) {
        // An entry that fixes its mode is timed in that mode only.
        let modes = match instance.mode {
            Some(mode) => vec![mode.name().to_owned()],
            None => config.modes.clone(),
        };
        for mode in &modes {
            bench_instance(instance, mode, path, puzzle, &config);
        }
    }
}

fn print_header(config: &Config) {
    let mut head = String::from("| instance | white cells | mode | answer |");
    let mut rule = String::from("|---|---:|---|---|");
    for t in &config.threads {
        let t = if *t == 0 { "all".to_owned() } else { t.to_string() };
        head.push_str(&format!(" {t} thr s | engine |"));
        rule.push_str("---:|---|");
    }
    if config.sat {
        head.push_str(" sat alone 1 thr s |");
        rule.push_str("---:|");
    }
    head.push_str(" note |");
    rule.push_str("---|");
    println!("{head}\n{rule}");
}

fn bench_instance(instance: &Instance, mode: &str, path: &Path, puzzle: &Puzzle, config: &Config) {
    let white = match puzzle {
        Puzzle::Kakuro(k) => k.cells.iter().filter(|c| matches!(c, KakuroCell::White)).count(),
        _ => 0,
    };
    let mut verdict: Option<String> = None;
    let mut cells = String::new();
    let mut check = |run: &Run| {
        if run.status != "solved" {
            return;
        }
        let this = if mode == "unique" { run.uniqueness.clone() } else { run.status.clone() };
        match &verdict {
            None => verdict = Some(this),
            Some(first) => assert_eq!(first, &this, "{} {mode}: verdicts differ", instance.name),
        }
    };
    for &threads in &config.threads {
        let run = median_run(config, path, puzzle, mode, threads, false);
        check(&run);
        cells.push_str(&format!(" {} | {} |", shown(&run, config), run.engine));
    }
    if config.sat {
        let run = median_run(config, path, puzzle, mode, 1, true);
        check(&run);
        cells.push_str(&format!(" {} |", shown(&run, config)));
    }
    println!(
        "| {} | {white} | {mode} | {} |{cells} {} |",
        instance.name,
        verdict.unwrap_or_else(|| "none".into()),
        instance.note
    );
}

/// The median time, or `> T s` when the run stopped at the timeout.
fn shown(run: &Run, config: &Config) -> String {
    if run.status == "solved" {
        format!("{:.2}", run.seconds)
    } else {
        format!("> {} s ({})", config.timeout, run.status)
    }
}

/// Runs `kakurod solve` `config.runs` times; the run of median wall time.
fn median_run(
    config: &Config,
    path: &Path,
    puzzle: &Puzzle,
    mode: &str,
    threads: usize,
    sat: bool,
) -> Run {
    let mut runs: Vec<Run> = (0..config.runs.max(1))
        .map(|_| solve_once(config, path, puzzle, mode, threads, sat))
        .collect();
    runs.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
    let at = runs.len() / 2;
    runs.swap_remove(at)
}

/// One timed `kakurod solve` process; its answer checked.
fn solve_once(
    config: &Config,
    path: &Path,
    puzzle: &Puzzle,
    mode: &str,
    threads: usize,
    sat: bool,
) -> Run {
    let mut command = Command::new(&config.kakurod);
    command.args(["solve", "--mode", mode, "--threads", &threads.to_string()]);
    command.args(["--timeout", &config.timeout.to_string()]);
    if sat {
        command.args(["--algorithm", "sat"]);
    }
    command.arg(path);
    let start = Instant::now();
    let output = command.output().expect("run kakurod solve");
    let seconds = start.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let figures = stderr
        .lines()
        .find(|line| line.contains(" engine="))
        .unwrap_or_else(|| panic!("no statistics line from kakurod: {stderr}"));
    // `FILE: STATUS UNIQUENESS KIND RxC nodes=... engine=...`
    let words: Vec<&str> = figures.rsplit_once(": ").map_or("", |(_, w)| w).split(' ').collect();
    let field =
        |key: &str| words.iter().find_map(|w| w.strip_prefix(key)).unwrap_or("?").to_owned();
    let run = Run {
        seconds,
        status: words.first().copied().unwrap_or("?").to_owned(),
        uniqueness: words.get(1).copied().unwrap_or("?").to_owned(),
        engine: field("engine="),
    };
    if run.status == "solved" {
        assert!(output.status.success(), "solved, yet exit status {}", output.status);
        let text = String::from_utf8_lossy(&output.stdout);
        let grid = read_sol(&text).expect("kakurod prints the solution grid");
        verify::check(puzzle, &grid).expect("the printed solution must verify");
    } else {
        assert!(!output.status.success(), "{} but exit status 0", run.status);
        assert!(run.status == "timeout", "unexpected answer: {figures}");
    }
    run
}
