//! `kakurod bench`: times the whole pipeline (read, check, solve, prove unique, verify) on
//! puzzle files already loaded into memory, several runs per file, and reports each
//! file's median, the total of the medians and the slowest files.
//!
//! Files are timed one after the other, and each search runs on one thread unless
//! `--threads` says otherwise, so the figures measure the solver rather than the machine's
//! core count. The machine and the settings are printed with the figures, since timings
//! mean little without them.

use super::{progress_bar, puzzle_files};
use crate::cli::BenchArgs;
use crate::grade::Difficulty;
use crate::pipeline::{self, PipelineOptions};
use crate::report::{Body, FileReport, PuzzleReport, Summary};
use crate::solver::SolveOptions;
use crate::util::plural;
use anyhow::{Context, bail};
use serde::Serialize;
use std::fs;
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The timings of one file.
#[derive(Clone, Debug, Serialize)]
struct FileTiming {
    /// The path as found.
    file: String,
    /// Puzzles in the file (more than one for a batch).
    puzzles: usize,
    /// Counts of the puzzles by status, from the last run.
    summary: Summary,
    /// Uniqueness of a single puzzle (absent for a batch or a rejected file).
    uniqueness: Option<&'static str>,
    /// Search nodes, summed over the file's puzzles, from the last run.
    nodes: u64,
    /// The grade of a single solved Kakuro.
    #[serde(skip_serializing_if = "Option::is_none")]
    difficulty: Option<Difficulty>,
    /// Counts of the file's solved Kakuro by grade, from the last run.
    #[serde(skip)]
    grades: Grades,
    /// Median of the runs, in milliseconds.
    median_ms: f64,
    /// Fastest run, in milliseconds.
    min_ms: f64,
    /// Slowest run, in milliseconds.
    max_ms: f64,
}

/// Counts of solved Kakuro by grade.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
struct Grades {
    easy: usize,
    medium: usize,
    hard: usize,
    expert: usize,
}

impl Grades {
    /// The counts of the graded puzzles among `reports`.
    fn of<'a>(reports: impl IntoIterator<Item = &'a PuzzleReport>) -> Grades {
        let mut grades = Grades::default();
        for difficulty in reports.into_iter().filter_map(|r| r.difficulty) {
            *grades.count(difficulty) += 1;
        }
        grades
    }

    fn count(&mut self, difficulty: Difficulty) -> &mut usize {
        match difficulty {
            Difficulty::Easy => &mut self.easy,
            Difficulty::Medium => &mut self.medium,
            // The benchmarked grades are Kakuro's; a Sudoku's unfair and extreme (HoDoKu's
            // scale) count with hard and expert.
            Difficulty::Hard | Difficulty::Unfair => &mut self.hard,
            Difficulty::Expert | Difficulty::Extreme => &mut self.expert,
        }
    }

    fn merge(&mut self, other: &Grades) {
        self.easy += other.easy;
        self.medium += other.medium;
        self.hard += other.hard;
        self.expert += other.expert;
    }

    fn total(&self) -> usize {
        self.easy + self.medium + self.hard + self.expert
    }
}

/// The machine the figures were taken on.
#[derive(Clone, Debug, Serialize)]
struct Machine {
    /// Cores available to this process.
    cores: usize,
    /// Threads of the rayon pool.
    pool_threads: usize,
    /// Operating system.
    os: &'static str,
    /// Processor architecture.
    arch: &'static str,
}

/// The whole benchmark, as printed with `--json`.
#[derive(Clone, Debug, Serialize)]
struct BenchReport {
    machine: Machine,
    settings: SolveOptions,
    /// Search threads per puzzle.
    threads: usize,
    runs: usize,
    files: Vec<FileTiming>,
    /// Counts of all puzzles by status.
    summary: Summary,
    /// Counts of the solved Kakuro by grade.
    difficulty: Grades,
    /// Sum of the files' medians, in milliseconds.
    total_median_ms: f64,
    /// Indices into `files` of the slowest ones, slowest first.
    slowest: Vec<usize>,
}

/// Runs `kakurod bench`. Exit status 0 when every puzzle was solved in every run, 1
/// otherwise.
pub fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    if args.runs == 0 {
        bail!("--runs must be at least 1");
    }
    let paths = puzzle_files(&args.paths)?;
    let inputs = paths
        .iter()
        .map(|p| {
            Ok((p.display().to_string(), fs::read(p).with_context(|| p.display().to_string())?))
        })
        .collect::<anyhow::Result<Vec<(String, Vec<u8>)>>>()?;
    let options = PipelineOptions {
        solve: args.solver.solve_options(1)?,
        format: args.solver.format,
        ..PipelineOptions::default()
    };
    let progress = progress_bar(inputs.len());
    let mut files = Vec::with_capacity(inputs.len());
    let mut all_solved = true;
    for (name, bytes) in &inputs {
        let (timing, solved_every_run) = time_file(name, bytes, &options, args.runs);
        all_solved &= solved_every_run;
        files.push(timing);
        progress.inc(1);
    }
    progress.finish_and_clear();
    let report = summarise(files, &options, args.runs, args.top);
    if args.json {
        writeln!(io::stdout().lock(), "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        write!(io::stdout().lock(), "{}", text(&report))?;
    }
    Ok(if all_solved { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// Times `runs` runs of the pipeline on one file. Returns the timing and whether every
/// puzzle was solved in every run.
fn time_file(
    name: &str,
    bytes: &[u8],
    options: &PipelineOptions,
    runs: usize,
) -> (FileTiming, bool) {
    let mut times = Vec::with_capacity(runs);
    let mut solved_every_run = true;
    let mut last: Option<FileReport> = None;
    for _ in 0..runs {
        let started = Instant::now();
        let report = pipeline::process(name, bytes, options, None);
        times.push(started.elapsed());
        solved_every_run &= report.summary().all_solved();
        last = Some(report);
    }
    times.sort_unstable();
    let summary = last.as_ref().map(FileReport::summary).unwrap_or_default();
    let (uniqueness, nodes, grades) = match last.as_ref().map(|r| &r.body) {
        Some(Body::Single(r)) => {
            (Some(r.uniqueness.name()), r.statistics.search.nodes, Grades::of([r.as_ref()]))
        }
        Some(Body::Batch { puzzles, .. }) => {
            (None, puzzles.iter().map(|r| r.statistics.search.nodes).sum(), Grades::of(puzzles))
        }
        _ => (None, 0, Grades::default()),
    };
    let difficulty = match last.as_ref().map(|r| &r.body) {
        Some(Body::Single(r)) => r.difficulty,
        _ => None,
    };
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let timing = FileTiming {
        file: name.to_string(),
        puzzles: summary.solved
            + summary.unsatisfiable
            + summary.invalid
            + summary.timeout
            + summary.failed,
        summary,
        uniqueness,
        nodes,
        difficulty,
        grades,
        median_ms: median(&times).map_or(0.0, ms),
        min_ms: times.first().copied().map_or(0.0, ms),
        max_ms: times.last().copied().map_or(0.0, ms),
    };
    (timing, solved_every_run)
}

/// The median of sorted durations (the mean of the middle two for an even count).
fn median(sorted: &[Duration]) -> Option<Duration> {
    let mid = sorted.len() / 2;
    match sorted.len() {
        0 => None,
        n if n % 2 == 1 => Some(sorted[mid]),
        _ => Some((sorted[mid - 1] + sorted[mid]) / 2),
    }
}

fn summarise(
    files: Vec<FileTiming>,
    options: &PipelineOptions,
    runs: usize,
    top: usize,
) -> BenchReport {
    let mut summary = Summary::default();
    files.iter().for_each(|f| summary.merge(&f.summary));
    let mut difficulty = Grades::default();
    files.iter().for_each(|f| difficulty.merge(&f.grades));
    let total_median_ms = files.iter().map(|f| f.median_ms).sum();
    let mut slowest: Vec<usize> = (0..files.len()).collect();
    slowest.sort_by(|&a, &b| files[b].median_ms.total_cmp(&files[a].median_ms));
    slowest.truncate(top);
    BenchReport {
        machine: Machine {
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            pool_threads: rayon::current_num_threads(),
            os: std::env::consts::OS,
            arch: std::env::consts::ARCH,
        },
        settings: options.solve.clone(),
        threads: crate::solver::effective_threads(options.solve.threads),
        runs,
        files,
        summary,
        difficulty,
        total_median_ms,
        slowest,
    }
}

/// The human-readable report.
fn text(report: &BenchReport) -> String {
    let s = &report.settings;
    let mut out = format!(
        "machine: {} cores ({} pool threads), {} {}\n\
         settings: algorithm={} var_order={} val_order={} mode={} grade={} threads={} \
         timeout={} node_limit={} runs={}\n",
        report.machine.cores,
        report.machine.pool_threads,
        report.machine.os,
        report.machine.arch,
        s.algorithm.name(),
        s.var_order.name(),
        s.val_order.name(),
        s.mode.name(),
        s.grade.name(),
        report.threads,
        s.timeout.map_or("none".into(), |t| format!("{}s", t.as_secs_f64())),
        s.node_limit.map_or("none".into(), |n| n.to_string()),
        report.runs,
    );
    let width = report.files.iter().map(|f| f.file.chars().count()).max().unwrap_or(0).max(4);
    out.push_str(&format!(
        "{:<width$} {:>12} {:>12} {:>12} {:>10}  status\n",
        "file", "median_ms", "min_ms", "max_ms", "nodes"
    ));
    for f in &report.files {
        out.push_str(&line(f, width));
    }
    let sum = &report.summary;
    out.push_str(&format!(
        "total of medians: {:.3} ms over {} ({} solved, {} unsatisfiable, {} invalid, \
         {} timeout, {} failed)\n",
        report.total_median_ms,
        plural(report.files.len(), "file"),
        sum.solved,
        sum.unsatisfiable,
        sum.invalid,
        sum.timeout,
        sum.failed
    ));
    let grades = &report.difficulty;
    if grades.total() > 0 {
        out.push_str(&format!(
            "difficulty: easy {}, medium {}, hard {}, expert {}\n",
            grades.easy, grades.medium, grades.hard, grades.expert
        ));
    }
    out.push_str(&format!("slowest {}:\n", report.slowest.len()));
    for &k in &report.slowest {
        out.push_str(&line(&report.files[k], width));
    }
    out
}

/// One file's row of the table, the name padded to `width`.
fn line(f: &FileTiming, width: usize) -> String {
    let status = match (f.puzzles, f.uniqueness) {
        (1, Some(u)) if f.summary.solved == 1 => format!("solved {u}"),
        (1, _) => status_name(&f.summary).to_string(),
        (n, _) => format!("batch of {n}: {} solved", f.summary.solved),
    };
    format!(
        "{:<width$} {:>12.3} {:>12.3} {:>12.3} {:>10}  {status}\n",
        f.file, f.median_ms, f.min_ms, f.max_ms, f.nodes
    )
}

/// The status of a file holding one puzzle, from its counts.
fn status_name(s: &Summary) -> &'static str {
    if s.solved > 0 {
        "solved"
    } else if s.unsatisfiable > 0 {
        "unsatisfiable"
    } else if s.timeout > 0 {
        "timeout"
    } else if s.failed > 0 {
        "failed"
    } else {
        "invalid"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[d(3)]), Some(d(3)));
        assert_eq!(median(&[d(1), d(2), d(9)]), Some(d(2)));
        assert_eq!(median(&[d(1), d(3), d(5), d(9)]), Some(d(4)));
    }

    #[test]
    fn folders_give_their_puzzle_files_in_order_without_solutions() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["b.txt", "a.txt", "a.sol", ".hidden", "c.json"] {
            fs::write(dir.path().join(name), "x").unwrap();
        }
        fs::create_dir(dir.path().join("sub")).unwrap();
        let files = puzzle_files(&[dir.path().to_path_buf()]).unwrap();
        let names: Vec<_> =
            files.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
        assert_eq!(names, ["a.txt", "b.txt", "c.json"]);
        assert!(puzzle_files(&[dir.path().join("sub")]).is_err());
    }

    #[test]
    fn slowest_are_listed_slowest_first_and_cut_to_top() {
        let timing = |file: &str, median_ms| FileTiming {
            file: file.into(),
            puzzles: 1,
            summary: Summary { solved: 1, ..Summary::default() },
            uniqueness: Some("unique"),
            nodes: 1,
            difficulty: Some(Difficulty::Medium),
            grades: Grades { medium: 1, ..Grades::default() },
            median_ms,
            min_ms: median_ms,
            max_ms: median_ms,
        };
        let files = vec![timing("a", 1.0), timing("b", 5.0), timing("c", 3.0)];
        let report = summarise(files, &PipelineOptions::default(), 3, 2);
        assert_eq!(report.slowest, [1, 2]);
        assert!((report.total_median_ms - 9.0).abs() < 1e-9);
        let text = text(&report);
        assert!(text.contains("total of medians: 9.000 ms over 3 files (3 solved"), "{text}");
        assert!(text.contains("threads=1"), "{text}");
        assert!(text.contains("difficulty: easy 0, medium 3, hard 0, expert 0\n"), "{text}");
    }
}
