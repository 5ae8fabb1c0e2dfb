//! Benchmark of the whole `kakurod generate` process: puzzles with exactly one solution.
//!
//! `cargo bench --bench generate` times, as a child process,
//! `kakurod generate --rows S --cols S --seed K --json` (default threads) for every size
//! and seed, and prints a Markdown table of the median, fastest and slowest wall times per
//! size. Every run is checked: exit status 0 and `"unique": true` in its JSON line. Then it
//! times `--count N --out DIR` at 15x15 with one thread and with every core, and prints
//! both rates and their ratio.
//!
//! Arguments after `--`:
//! - `--sizes 15,30,50,100` grid sizes (square; default those);
//! - `--seeds N` seeds 1..=N per size, the median is reported (default 5);
//! - `--difficulty LEVEL` generate puzzles of that grade only;
//! - `--kind sudoku|killer` time Sudoku or Killer Sudoku instead (`--size S` for each of
//!   the sizes, which default to 9,16,25; no rate run);
//! - `--count N` puzzles of the rate run (default 100; 0 leaves it out);
//! - `--kakurod PATH` the binary to time (default: the one cargo built with this bench).
#![allow(clippy::unwrap_used, reason = "a test or benchmark that cannot go on panics")]

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

struct Config {
    kakurod: PathBuf,
    sizes: Vec<usize>,
    seeds: u64,
    difficulty: Option<String>,
    count: usize,
    /// `sudoku` or `killer`; Kakuro when `None`.
    kind: Option<String>,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let mut config = Config {
        kakurod: PathBuf::from(env!("CARGO_BIN_EXE_kakurod")),
        sizes: vec![15, 30, 50, 100],
        seeds: 5,
        difficulty: None,
        count: 100,
        kind: None,
    };
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let mut value = || iter.next().unwrap_or_else(|| panic!("{arg} needs a value")).clone();
        match arg.as_str() {
            "--sizes" => {
                config.sizes = value().split(',').map(|s| s.parse().expect("a size")).collect();
            }
            "--seeds" => config.seeds = value().parse().expect("--seeds N"),
            "--difficulty" => config.difficulty = Some(value()),
            "--count" => config.count = value().parse().expect("--count N"),
            "--kakurod" => config.kakurod = value().into(),
            "--kind" => {
                config.kind = Some(value());
                if !args.iter().any(|a| a == "--sizes") {
                    config.sizes = vec![9, 16, 25];
                }
                config.count = 0;
            }
            other => panic!("unknown argument {other}"),
        }
    }
    println!(
        "machine: {} cores; kakurod generate{}, whole process, default threads{}",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        config.kind.as_ref().map(|k| format!(" --kind {k}")).unwrap_or_default(),
        config.difficulty.as_ref().map(|d| format!(", --difficulty {d}")).unwrap_or_default()
    );
    println!("\n| size | seeds | median | fastest | slowest |\n|---|---|---|---|---|");
    for &size in &config.sizes {
        let mut times: Vec<f64> = (1..=config.seeds).map(|seed| one(&config, size, seed)).collect();
        times.sort_by(f64::total_cmp);
        println!(
            "| {size}x{size} | {} | {:.3} s | {:.3} s | {:.3} s |",
            times.len(),
            times[times.len() / 2],
            times[0],
            times[times.len() - 1]
        );
    }
    if config.count > 0 {
        let single = rate(&config, 1);
        let all = rate(&config, 0);
        println!(
            "\n--count {} at 15x15: {single:.1} puzzles/s on 1 thread, {all:.1} on every core ({:.2}x)",
            config.count,
            all / single
        );
    }
}

/// Times one puzzle and checks that it was proved unique.
fn one(config: &Config, size: usize, seed: u64) -> f64 {
    let size = size.to_string();
    let seed = seed.to_string();
    let mut args = match &config.kind {
        Some(kind) => vec!["generate", "--kind", kind, "--size", &size],
        None => vec!["generate", "--rows", &size, "--cols", &size],
    };
    args.extend(["--seed", &seed, "--json"]);
    if let Some(level) = &config.difficulty {
        args.extend(["--difficulty", level]);
    }
    let started = Instant::now();
    let output = Command::new(&config.kakurod).args(&args).output().expect("run kakurod");
    let seconds = started.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("\"unique\":true"), "{args:?} not proved unique: {stdout}");
    seconds
}

/// Puzzles per second of `--count` at 15x15 on `threads` threads (0 = every core).
fn rate(config: &Config, threads: usize) -> f64 {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (count, threads) = (config.count.to_string(), threads.to_string());
    let args =
        ["generate", "--rows", "15", "--cols", "15", "--count", &count, "--threads", &threads];
    let started = Instant::now();
    let status = Command::new(&config.kakurod)
        .args(args)
        .arg("--out")
        .arg(dir.path())
        .status()
        .expect("run kakurod");
    let seconds = started.elapsed().as_secs_f64();
    assert!(status.success(), "{args:?}");
    config.count as f64 / seconds
}
