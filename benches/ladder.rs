//! The size ladder: what a whole `kakurod solve` process costs from a published 31x46 up to
//! a 300x300 grid, and how much of it comes after the search (verification, the grade, the
//! report). It is the benchmark that catches a step after the search that grows faster
//! than the search itself.
//!
//! `cargo bench --bench ladder` makes every rung of `benches/hard/ladder.toml` once (with
//! `kakurod generate`, kept in `target/ladder-bench/` under a name that holds its options),
//! then times `kakurod solve --mode MODE --threads N FILE` as a child process, `--runs`
//! times, and prints a Markdown table of medians: the search's own time (`solve_ms` on the
//! statistics line), the grade's (`grade_ms`), the whole process, the share of the whole
//! that came after the search, the search's span (`span_ms`: its longest chain of work that
//! must run one task after another, where it ran work side by side), and the highest memory
//! seen. Every answer is checked: exit status 0, status `solved`, the printed grid verified
//! against the clues.
//!
//! With more than one thread count (`--threads 1,2`), the runs of one rung take turns over
//! the counts (so that the machine's moods fall on all of them alike), and a second table
//! gives each rung's speed-up over the first count, which `--plot FILE.svg` also draws, and,
//! where one thread was timed, its parallelism: the search's time over its span on one
//! thread, the most that threads enough could divide the search by.
//!
//! Arguments after `--`:
//! - `--modes first,unique` modes to time (default both; `count` too, best with a limit);
//! - `--count-limit N` the limit of `count` (default none; without one the 60x60 rung is
//!   counted for minutes);
//! - `--threads N[,N...]` threads per puzzle (default 1; 0 = all cores);
//! - `--plot FILE.svg` the speed-up curves, one per rung and mode, beside the ideal one;
//! - `--runs N` runs per cell, the median is reported (default 3);
//! - `--only NAME` only the rungs whose name contains NAME;
//! - `--grade off|auto|full` the grade setting (default: the binary's own, `auto`);
//! - `--kakurod PATH` the binary to time (default: the one cargo built with this bench).
#![allow(clippy::unwrap_used, reason = "a test or benchmark that cannot go on panics")]

#[path = "common/proc_status.rs"]
mod proc_status;

use kakurod_engine::format::{self, solution::read_sol};
use kakurod_engine::puzzle::{KakuroCell, Puzzle};
use kakurod_engine::verify;
use proc_status::status_kib;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One `[[rung]]` of the ladder.
#[derive(Debug, Deserialize)]
struct Rung {
    name: String,
    /// A puzzle file, relative to the repository.
    file: Option<String>,
    /// The options of `kakurod generate` that make the puzzle.
    generate: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Ladder {
    rung: Vec<Rung>,
}

struct Config {
    kakurod: PathBuf,
    modes: Vec<String>,
    threads: Vec<usize>,
    plot: Option<PathBuf>,
    runs: usize,
    only: Option<String>,
    grade: Option<String>,
    count_limit: Option<String>,
}

/// What one `kakurod solve` process gave.
struct Run {
    /// Wall time of the whole process.
    whole: f64,
    /// The search's own time, from the statistics line.
    search: f64,
    /// The grade's time, from the statistics line.
    grade: f64,
    /// The search's span, from the statistics line (its time where nothing ran side by
    /// side).
    span: f64,
    /// Highest resident memory seen, KiB.
    peak_kib: u64,
    uniqueness: String,
    engine: String,
    graded_by: String,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let mut config = Config {
        kakurod: PathBuf::from(env!("CARGO_BIN_EXE_kakurod")),
        modes: vec!["first".into(), "unique".into()],
        threads: vec![1],
        plot: None,
        runs: 3,
        only: None,
        grade: None,
        count_limit: None,
    };
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let mut value = || iter.next().unwrap_or_else(|| panic!("{arg} needs a value")).clone();
        match arg.as_str() {
            "--modes" => config.modes = value().split(',').map(str::to_owned).collect(),
            "--threads" => {
                config.threads =
                    value().split(',').map(|n| n.parse().expect("--threads N[,N...]")).collect()
            }
            "--plot" => config.plot = Some(value().into()),
            "--runs" => config.runs = value().parse().expect("--runs N"),
            "--only" => config.only = Some(value()),
            "--grade" => config.grade = Some(value()),
            "--count-limit" => config.count_limit = Some(value()),
            "--kakurod" => config.kakurod = value().into(),
            other => panic!("unknown argument {other}"),
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("benches/hard/ladder.toml")).expect("ladder");
    let ladder: Ladder = toml::from_str(&text).expect("parse benches/hard/ladder.toml");
    let dir = root.join("target/ladder-bench");
    std::fs::create_dir_all(&dir).expect("create target/ladder-bench");

    println!(
        "| rung | white cells | mode | threads | answer | engine | graded_by | search ms | \
         span ms | grade ms | whole ms | after the search | peak MB |"
    );
    println!("|---|---:|---|---:|---|---|---|---:|---:|---:|---:|---:|---:|");
    let only = config.only.as_deref();
    // Per rung and mode, the median whole time at each thread count.
    let mut curves: Vec<Curve> = Vec::new();
    for rung in ladder.rung.iter().filter(|r| only.is_none_or(|o| r.name.contains(o))) {
        let path = puzzle_file(rung, root, &dir, &config.kakurod);
        let puzzle = read_puzzle(&path);
        let white = match &puzzle {
            Puzzle::Kakuro(k) => k.cells.iter().filter(|c| matches!(c, KakuroCell::White)).count(),
            _ => 0,
        };
        for mode in &config.modes {
            // Runs in turns over the thread counts.
            let mut runs: Vec<Vec<Run>> = config.threads.iter().map(|_| Vec::new()).collect();
            for _ in 0..config.runs.max(1) {
                for (i, &threads) in config.threads.iter().enumerate() {
                    runs[i].push(solve(&config, &path, &puzzle, mode, threads));
                }
            }
            let (mut wholes, mut parallelism) = (Vec::new(), None);
            for (mut runs, &threads) in runs.into_iter().zip(&config.threads) {
                let whole = median(runs.iter().map(|r| r.whole));
                let search = median(runs.iter().map(|r| r.search));
                let grade = median(runs.iter().map(|r| r.grade));
                let span = median(runs.iter().map(|r| r.span));
                if threads == 1 && span > 0.0 {
                    parallelism = Some(search / span);
                }
                let after = median(runs.iter().map(|r| (r.whole - r.search).max(0.0) / r.whole));
                let peak = runs.iter().map(|r| r.peak_kib).max().unwrap_or(0);
                let last = runs.swap_remove(0);
                // A process that ends within the first look at its memory shows none.
                let peak =
                    if peak == 0 { "-".to_owned() } else { format!("{:.0}", peak as f64 / 1024.0) };
                println!(
                    "| {} | {white} | {mode} | {threads} | {} | {} | {} | {:.1} | {:.1} | {:.3} | \
                     {:.1} | {:.0}% | {peak} |",
                    rung.name,
                    last.uniqueness,
                    last.engine,
                    last.graded_by,
                    search * 1e3,
                    span * 1e3,
                    grade * 1e3,
                    whole * 1e3,
                    after * 100.0,
                );
                wholes.push(whole);
            }
            curves.push(Curve { name: format!("{} {mode}", rung.name), wholes, parallelism });
        }
    }
    if config.threads.len() > 1 {
        speed_ups(&config.threads, &curves);
        if let Some(plot) = &config.plot {
            draw(plot, &config.threads, &curves);
            println!("\nThe speed-up plot: {}", plot.display());
        }
    }
}

/// One rung and mode: its median whole time at each thread count, and its search's
/// parallelism on one thread, where one thread was timed.
struct Curve {
    name: String,
    wholes: Vec<f64>,
    parallelism: Option<f64>,
}

/// The speed-up table: each rung's median whole time at the first thread count over its
/// time at each count, and the search's parallelism (its time over its span, one thread).
fn speed_ups(threads: &[usize], curves: &[Curve]) {
    let counts: Vec<String> = threads.iter().map(|t| format!("{t} threads")).collect();
    println!("\n| rung and mode | {} | parallelism |", counts.join(" | "));
    println!("|---|{}---:|", "---:|".repeat(threads.len()));
    for Curve { name, wholes, parallelism } in curves {
        let cells: Vec<String> =
            wholes.iter().map(|w| format!("{:.2} s, {:.2}x", w, wholes[0] / w)).collect();
        let parallelism = parallelism.map_or("-".to_owned(), |p| format!("{p:.1}x"));
        println!("| {name} | {} | {parallelism} |", cells.join(" | "));
    }
}

/// Draws the speed-up curves as SVG, with the ideal speed-up for reference.
fn draw(path: &Path, threads: &[usize], curves: &[Curve]) {
    use plotters::prelude::*;
    let base = threads[0] as f64;
    let most = threads.iter().copied().max().unwrap_or(1) as f64 / base;
    let root = SVGBackend::new(path, (720, 480)).into_drawing_area();
    root.fill(&WHITE).unwrap();
    let mut chart = ChartBuilder::on(&root)
        .caption("kakurod solve: speed-up over one thread, whole process", ("sans-serif", 18))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(48)
        .build_cartesian_2d(base..threads.iter().copied().max().unwrap_or(1) as f64, 0.0..most)
        .unwrap();
    chart
        .configure_mesh()
        .x_labels(threads.len())
        .x_label_formatter(&|x| format!("{x:.0}"))
        .x_desc("threads")
        .y_desc("speed-up")
        .draw()
        .unwrap();
    chart
        .draw_series(LineSeries::new(threads.iter().map(|&t| (t as f64, t as f64 / base)), &BLACK))
        .unwrap()
        .label("ideal")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
    for (i, Curve { name, wholes, .. }) in curves.iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        let points = threads.iter().zip(wholes).map(|(&t, w)| (t as f64, wholes[0] / w));
        chart
            .draw_series(LineSeries::new(points, colour.stroke_width(2)))
            .unwrap()
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::LowerRight)
        .draw()
        .unwrap();
    root.present().unwrap();
}

/// The rung's puzzle file: its own, or the generator's output, made once.
fn puzzle_file(rung: &Rung, root: &Path, dir: &Path, kakurod: &Path) -> PathBuf {
    if let Some(file) = &rung.file {
        return root.join(file);
    }
    let options = rung.generate.as_deref().expect("a rung has a file or generate options");
    let stem: String =
        options.split_whitespace().map(|w| w.trim_start_matches('-')).collect::<Vec<_>>().join("_");
    let path = dir.join(format!("{stem}.txt"));
    if !path.exists() {
        eprintln!("making {}: kakurod generate {options}", rung.name);
        let status = Command::new(kakurod)
            .arg("generate")
            .args(options.split_whitespace())
            .arg("--out")
            .arg(&path)
            .stdout(Stdio::null())
            .status()
            .expect("run kakurod generate");
        assert!(status.success(), "kakurod generate {options} failed");
    }
    path
}

fn read_puzzle(path: &Path) -> Puzzle {
    let text = std::fs::read_to_string(path).expect("read a rung's puzzle");
    let document = format::read(&text, None).expect("a readable puzzle");
    let entry = document.entries.into_iter().next().expect("one puzzle");
    entry.expect("a readable puzzle").puzzle
}

/// One timed `kakurod solve` process, its answer checked.
fn solve(config: &Config, path: &Path, puzzle: &Puzzle, mode: &str, threads: usize) -> Run {
    let mut command = Command::new(&config.kakurod);
    command.args(["solve", "--mode", mode, "--threads", &threads.to_string()]);
    if let Some(grade) = &config.grade {
        command.args(["--grade", grade]);
    }
    if let Some(limit) = config.count_limit.as_ref().filter(|_| mode == "count") {
        command.args(["--count-limit", limit]);
    }
    let started = Instant::now();
    let mut child = command
        .arg(path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn kakurod solve");
    // The pipes are read on their own threads so that a large grid never blocks the child.
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || read_all(&mut stdout));
    let err = std::thread::spawn(move || read_all(&mut stderr));
    let mut peak_kib = 0;
    let status = loop {
        peak_kib = peak_kib.max(status_kib(child.id(), "VmHWM:"));
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let whole = started.elapsed().as_secs_f64();
    let (stdout, stderr) = (out.join().expect("stdout"), err.join().expect("stderr"));
    assert!(status.success(), "kakurod solve failed: {stderr}");
    let figures = stderr
        .lines()
        .find(|line| line.contains(" engine="))
        .unwrap_or_else(|| panic!("no statistics line from kakurod: {stderr}"));
    let words: Vec<&str> = figures.rsplit_once(": ").map_or("", |(_, w)| w).split(' ').collect();
    let field = |key: &str| words.iter().find_map(|w| w.strip_prefix(key)).unwrap_or("-");
    let ms = |key: &str| field(key).parse::<f64>().unwrap_or(0.0) / 1e3;
    assert_eq!(words.first().copied(), Some("solved"), "{figures}");
    let grid = read_sol(&stdout).expect("kakurod prints the solution grid");
    verify::check(puzzle, &grid).expect("the printed solution must verify");
    Run {
        whole,
        search: ms("solve_ms="),
        grade: ms("grade_ms="),
        span: if field("span_ms=") == "-" { ms("solve_ms=") } else { ms("span_ms=") },
        peak_kib,
        uniqueness: words.get(1).copied().unwrap_or("?").to_owned(),
        engine: field("engine=").to_owned(),
        graded_by: field("graded_by=").to_owned(),
    }
}

fn read_all(reader: &mut impl std::io::Read) -> String {
    let mut text = String::new();
    reader.read_to_string(&mut text).expect("read the child's output");
    text
}

/// The median of `values` (the upper one of an even count).
fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut values: Vec<f64> = values.collect();
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}
