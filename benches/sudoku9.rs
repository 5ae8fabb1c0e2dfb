//! The dedicated 9x9 engine against the `sudoku` crate (its JCZSolve port), whole sets,
//! proving uniqueness on both sides, one thread.
//!
//! Sets: top1465 from the data folder, and every file named in `SUDOKU_SETS`
//! (colon-separated paths of 81-character lines; `#` lines are skipped), such as tdoku's
//! `puzzles2_17_clue` or `puzzles5_forum_hardest_1905_11+`. Per set, three sides run in
//! alternation, round after round (`PAIRED_ROUNDS`, default 10), so each round's ratios
//! see one machine state; the medians are printed:
//! - `engine`: the line's digits straight into `solver::sudoku9::solve` in `unique` mode;
//! - `read+engine`: the line read as a `lines` file (`format::read`, with its checks) first;
//! - `crate`: `Sudoku::from_str_line` and `solution()` (which proves uniqueness).
//!
//! Every side must prove as many puzzles unique as the others, so a wrong answer fails the
//! run.
#![allow(clippy::unwrap_used, reason = "a test or benchmark that cannot go on panics")]

mod common;

use kakurod_engine::format::{self, Format};
use kakurod_engine::puzzle::Puzzle;
use kakurod_engine::solver::{self, Control, SolveOptions};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The puzzle lines of a set file.
fn read_set(path: &Path) -> Option<Vec<String>> {
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("{} not found: skipped", path.display());
        return None;
    };
    let lines = text.lines().map(str::trim).filter(|l| l.len() >= 81 && !l.starts_with('#'));
    Some(lines.map(|l| l[..81].to_string()).collect())
}

/// The digits of an 81-character line (`.` and `0` are blanks).
fn digits(line: &str) -> Vec<u32> {
    line.bytes().map(|b| if b.is_ascii_digit() { u32::from(b - b'0') } else { 0 }).collect()
}

/// The dedicated engine alone: how many puzzles it proves unique.
fn engine(lines: &[String], options: &SolveOptions) -> usize {
    let unique = |line: &String| {
        let outcome = solver::sudoku9::solve(&digits(line), options, Control::default());
        outcome.count == 1 && outcome.complete
    };
    lines.iter().filter(|line| black_box(unique(line))).count()
}

/// Reading the line as kakurod reads a `lines` file, then the dedicated engine.
fn read_and_engine(lines: &[String], options: &SolveOptions) -> usize {
    let unique = |line: &String| {
        let Ok(document) = format::read(line, Some(Format::Lines)) else { return false };
        let Some(Ok(parsed)) = document.entries.into_iter().next() else { return false };
        let Puzzle::Sudoku(sudoku) = parsed.puzzle else { return false };
        let outcome = solver::sudoku9::solve(&sudoku.givens, options, Control::default());
        outcome.count == 1 && outcome.complete
    };
    lines.iter().filter(|line| black_box(unique(line))).count()
}

/// The `sudoku` crate: parse, then solve with its uniqueness check.
fn sudoku_crate(lines: &[String]) -> usize {
    let unique = |line: &String| {
        sudoku::Sudoku::from_str_line(line).is_ok_and(|puzzle| puzzle.solution().is_some())
    };
    lines.iter().filter(|line| black_box(unique(line))).count()
}

/// Milliseconds `run` takes, checking it proved as many puzzles unique as the crate did.
fn timed(run: &dyn Fn() -> usize, expected: usize, side: &str) -> f64 {
    let start = Instant::now();
    let unique = run();
    let ms = start.elapsed().as_secs_f64() * 1e3;
    assert_eq!(unique, expected, "{side}: another number of puzzles proved unique");
    ms
}

/// The `q`-th quartile of `values` (2: the median).
fn quartile(values: &mut [f64], q: usize) -> f64 {
    values.sort_by(f64::total_cmp);
    values[(values.len() - 1) * q / 4]
}

/// Runs the three sides in alternation over one set and prints the medians.
fn paired(name: &str, lines: &[String], rounds: usize) {
    let options = SolveOptions::default();
    let n = lines.len();
    let unique = sudoku_crate(lines);
    let sides: [(&str, &dyn Fn() -> usize); 3] = [
        ("engine", &|| engine(lines, &options)),
        ("read+engine", &|| read_and_engine(lines, &options)),
        ("crate", &|| sudoku_crate(lines)),
    ];
    let stats = lines.iter().fold(solver::Stats::default(), |mut sum, line| {
        sum += solver::sudoku9::solve(&digits(line), &options, Control::default()).stats;
        sum
    });
    let per_puzzle = |count: u64| count as f64 / n as f64;
    println!(
        "{name}: the engine's search nodes per puzzle {:.1}, failures {:.1}, propagations {:.1}",
        per_puzzle(stats.nodes),
        per_puzzle(stats.failures),
        per_puzzle(stats.propagations)
    );
    // One side alone (for a cycle count under `perf stat`).
    if let Ok(only) = std::env::var("SUDOKU9_ONLY") {
        let (_, run) =
            sides.iter().find(|(side, _)| *side == only).expect("engine, read+engine or crate");
        (0..rounds).for_each(|_| assert_eq!(run(), unique));
        return;
    }
    let mut times = vec![Vec::new(); sides.len()];
    for round in 0..rounds {
        for k in 0..sides.len() {
            let side = (k + round) % sides.len();
            times[side].push(timed(sides[side].1, unique, sides[side].0));
        }
    }
    let crate_over = |side: usize| {
        let mut ratios: Vec<f64> = times[2].iter().zip(&times[side]).map(|(c, s)| c / s).collect();
        (quartile(&mut ratios, 1), quartile(&mut ratios, 2), quartile(&mut ratios, 3))
    };
    let (engine_ratio, read_ratio) = (crate_over(0), crate_over(1));
    let rate = |ms: f64| n as f64 / ms * 1e3;
    let medians: Vec<f64> = times.iter_mut().map(|t| quartile(t, 2)).collect();
    println!(
        "{name} ({n} puzzles, {unique} unique, {rounds} rounds): puzzles/s engine {:.0}, read+engine {:.0}, \
         crate {:.0}; speed over the crate: engine {:.2}x ({:.2}..{:.2}), read+engine {:.2}x \
         ({:.2}..{:.2})",
        rate(medians[0]),
        rate(medians[1]),
        rate(medians[2]),
        engine_ratio.1,
        engine_ratio.0,
        engine_ratio.2,
        read_ratio.1,
        read_ratio.0,
        read_ratio.2,
    );
}

fn main() {
    // Not when cargo only checks that the benchmarks run (`cargo test --benches`).
    let checking = std::env::args().any(|a| a == "--test" || a == "--list");
    let rounds = std::env::var("PAIRED_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(10);
    let mut sets: Vec<PathBuf> =
        common::data_dir().map(|dir| dir.join("sudoku/lines/top1465.txt")).into_iter().collect();
    if let Some(extra) = std::env::var_os("SUDOKU_SETS") {
        sets.extend(std::env::split_paths(&extra));
    }
    for path in sets {
        let Some(lines) = read_set(&path) else { continue };
        let name = path.file_name().map_or("set".into(), |f| f.to_string_lossy());
        let rounds = if checking { 1 } else { rounds.max(1) };
        let lines = if checking { &lines[..lines.len().min(20)] } else { &lines[..] };
        paired(&name, lines, rounds);
    }
}
