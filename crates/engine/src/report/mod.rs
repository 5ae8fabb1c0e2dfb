//! The result documents kakurod writes (`NAME.json`, `NAME.error.json`) and the text of
//! `NAME.solution.txt`, shared by `kakurod solve` and the daemon so both say the same thing.
//! A generation job's document is a [`GenerationReport`]. The solver's settings and search
//! statistics are written as the solver's own types serialize them ([`SolveOptions`],
//! [`Stats`](crate::solver::Stats)), so a knob or a counter is declared once.

mod generation;
pub mod pretty;
mod statistics;
pub mod streamed;
mod summary;

pub use generation::{GeneratedPuzzle, GenerationReport, GenerationStatus, PuzzleFiles};
pub use statistics::{SatStatistics, Statistics};
pub use summary::Summary;

use crate::format::{Format, InputError};
use crate::grade::{Difficulty, GradedBy, Uses};
use crate::puzzle::{Grid, Kind, Puzzle};
use crate::solver::SolveOptions;
use serde::{Deserialize, Serialize};

/// Final state of one puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// A verified solution was found.
    Solved,
    /// The search proved there is no solution.
    Unsatisfiable,
    /// A time or node limit (or shutdown) stopped the search before it found what its mode
    /// asks for: any solution, or in `count` mode the number of solutions.
    Timeout,
    /// The input was rejected.
    Invalid,
    /// The solver's answer failed verification (a bug; reported, never hidden).
    Failed,
    /// An operator cancelled the input (`kakurod cancel`) before it was answered, or a
    /// cancel (Ctrl-C) stopped the search before it found what its mode asks for (in
    /// `count` mode the solutions so far are then a lower bound).
    Cancelled,
}

impl Status {
    /// Lower-case name, as in the JSON.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsatisfiable => "unsatisfiable",
            Status::Timeout => "timeout",
            Status::Invalid => "invalid",
            Status::Failed => "failed",
            Status::Cancelled => "cancelled",
        }
    }
}

/// What is known about the number of solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Uniqueness {
    /// Exactly one solution (proved).
    Unique,
    /// At least two solutions.
    Multiple,
    /// No solution at all (proved: the puzzle is unsatisfiable).
    None,
    /// Not looked for (mode `first`, or stopped before the proof ended).
    NotChecked,
}

impl Uniqueness {
    /// Lower-case name, as in the JSON.
    pub fn name(self) -> &'static str {
        match self {
            Uniqueness::Unique => "unique",
            Uniqueness::Multiple => "multiple",
            Uniqueness::None => "none",
            Uniqueness::NotChecked => "not_checked",
        }
    }
}

/// The result for one puzzle.
#[derive(Clone, Debug, Serialize)]
pub struct PuzzleReport {
    /// 1-based line where the puzzle starts in its file: written for the puzzles of a batch
    /// (see `Body::Batch`), where it tells them apart, and left out for a file of one puzzle.
    #[serde(skip)]
    pub line: usize,
    /// Final state.
    pub status: Status,
    /// What is known about other solutions.
    pub uniqueness: Uniqueness,
    /// Puzzle kind (absent when the puzzle could not be read).
    pub kind: Option<Kind>,
    /// Grid rows.
    pub rows: usize,
    /// Grid columns.
    pub cols: usize,
    /// Solutions found (exact in `count` mode when the search completed).
    pub solutions_found: u64,
    /// Why the search stopped early, if it did: `timeout`, `node_limit` or `cancelled`.
    pub stopped_by: Option<&'static str>,
    /// The grade of a solved Kakuro: the hardest level of human technique its logic solve
    /// needs (absent for other kinds and unsolved puzzles).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<Difficulty>,
    /// How often each technique made progress in that logic solve, by name (only those
    /// used; absent with `difficulty`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub techniques: Option<Uses>,
    /// How the grade was decided (`logic`, `logic_stuck`, `trial`, `trial_stuck`), or that
    /// its time ran out first (`over_budget`, with no `difficulty`); absent when the puzzle
    /// was not graded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub graded_by: Option<GradedBy>,
    /// The verified solution (absent when the search broke a rule), for every output: the
    /// JSON writes it row by row as `solution`, `null` marking a cell without a digit.
    #[serde(rename = "solution", serialize_with = "grid_rows")]
    pub grid: Option<Grid>,
    /// Why the puzzle was rejected (status `invalid` or `failed`); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<InputError>,
    /// Statistics.
    pub statistics: Statistics,
    /// Solver settings used (the threads are in the statistics).
    #[serde(serialize_with = "crate::solver::options::as_reported")]
    pub settings: Option<SolveOptions>,
    /// The puzzle (none when the search broke a rule), for the picture of a file of one
    /// puzzle; written as its puzz.link URL, `play_url`, where pzprjs has its kind (Kakuro
    /// and Sudoku), so that it is one click from being played, in a batch's entries too.
    #[serde(rename = "play_url", serialize_with = "play_url", skip_serializing_if = "unplayable")]
    pub puzzle: Option<Puzzle>,
    /// The solving path of a solved puzzle, when its file asked for it (`"explain": true`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explain: Option<crate::explain::Path>,
}

/// Writes a puzzle as its puzz.link URL.
fn play_url<S: serde::Serializer>(
    puzzle: &Option<Puzzle>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_some(&puzzle.as_ref().and_then(crate::format::puzzlink::play_url))
}

/// True when there is no puzzle, or no URL for it.
fn unplayable(puzzle: &Option<Puzzle>) -> bool {
    puzzle.as_ref().and_then(crate::format::puzzlink::play_url).is_none()
}

/// Writes a grid as its rows, straight from its cells.
fn grid_rows<S: serde::Serializer>(grid: &Option<Grid>, serializer: S) -> Result<S::Ok, S::Error> {
    match grid {
        Some(grid) => serializer.collect_seq(grid.rows()),
        None => serializer.serialize_none(),
    }
}

/// What a file produced.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Body {
    /// A single-puzzle file.
    Single(Box<PuzzleReport>),
    /// A batch file: one report per puzzle, in order, and their summary.
    Batch {
        /// One report per puzzle, each with its line. The counts follow them, so that the
        /// document can be written in the order its puzzles are answered.
        #[serde(serialize_with = "numbered")]
        puzzles: Vec<PuzzleReport>,
        /// Counts by status.
        summary: Summary,
        /// The lines of the puzzles that could not be read (`invalid`), in order.
        invalid_lines: Vec<usize>,
    },
    /// A generation job (the daemon's): the puzzles it made.
    Generation(Box<GenerationReport>),
    /// An operator cancelled the input before it was answered.
    Cancelled {
        /// Always `cancelled`.
        status: Status,
        /// The puzzle's kind, when it was read before the cancel.
        #[serde(skip_serializing_if = "Option::is_none")]
        kind: Option<Kind>,
        /// Its grid's rows and columns, when it was read.
        #[serde(skip_serializing_if = "Option::is_none")]
        rows: Option<usize>,
        /// Its grid's columns.
        #[serde(skip_serializing_if = "Option::is_none")]
        cols: Option<usize>,
        /// How far its search had come.
        cancelled: Cancellation,
    },
    /// The file as a whole was rejected ([`FileReport::rejected`]).
    Rejected {
        /// `invalid`; `failed` when the input could not be processed at all (an internal
        /// error, or workers that died on it).
        status: Status,
        /// Why and where.
        error: InputError,
    },
}

/// How far a cancelled input's search had come when it stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Cancellation {
    /// Seconds from the start of its search (0 when it had not started).
    pub after_seconds: f64,
    /// Search nodes so far.
    pub nodes: u64,
    /// Failed nodes so far.
    pub failures: u64,
    /// Solutions found so far.
    pub solutions: u64,
}

/// A batch's reports, each with the line its puzzle starts on.
fn numbered<S: serde::Serializer>(puzzles: &[PuzzleReport], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(puzzles.iter().map(Numbered::of))
}

/// A puzzle's report in a batch: with the line its puzzle starts on.
#[derive(Serialize)]
struct Numbered<'a> {
    line: usize,
    #[serde(flatten)]
    report: &'a PuzzleReport,
}

impl Numbered<'_> {
    fn of(report: &PuzzleReport) -> Numbered<'_> {
        Numbered { line: report.line, report }
    }
}

/// The result for one input file.
#[derive(Clone, Debug, Serialize)]
pub struct FileReport {
    /// The input's file name.
    pub file: String,
    /// SHA-256 of the input's bytes, hex.
    pub checksum: String,
    /// The format it was read as (absent when detection failed).
    pub format: Option<Format>,
    /// Results.
    #[serde(flatten)]
    pub body: Body,
}

impl FileReport {
    /// The report of a file rejected as a whole, answered with `NAME.error.json`: the one
    /// place such a report is made, whether the file could not be read, was refused by
    /// name or size, held no puzzle that could be read, or could not be processed.
    /// `format` is the one it was read as, when it got that far.
    pub fn rejected(
        file: &str,
        checksum: String,
        format: Option<Format>,
        status: Status,
        error: InputError,
    ) -> FileReport {
        FileReport {
            file: file.to_string(),
            checksum,
            format,
            body: Body::Rejected { status, error },
        }
    }

    /// Counts of the puzzles in this file by status.
    pub fn summary(&self) -> Summary {
        let mut summary = Summary::default();
        match &self.body {
            Body::Single(report) => summary.add(report.status, report.uniqueness),
            Body::Batch { summary: s, .. } => summary.merge(s),
            Body::Generation(g) if g.status == GenerationStatus::Timeout => {
                summary.add(Status::Timeout, Uniqueness::NotChecked);
            }
            Body::Generation(_) => {}
            Body::Cancelled { .. } => summary.add(Status::Cancelled, Uniqueness::NotChecked),
            Body::Rejected { .. } => summary.add(Status::Invalid, Uniqueness::NotChecked),
        }
        summary
    }

    /// True when the input is answered with `NAME.error.json` rather than `NAME.json`.
    pub fn is_rejected(&self) -> bool {
        matches!(&self.body, Body::Rejected { .. })
            || matches!(&self.body, Body::Single(r) if r.status == Status::Invalid)
    }

    /// True when a search, or the explanation asked for, was cancelled (an operator, a
    /// withdrawn input, the daemon's shutdown): such a result is not final.
    pub fn was_cancelled(&self) -> bool {
        let cancelled = |r: &PuzzleReport| {
            r.stopped_by == Some("cancelled")
                || r.explain.as_ref().is_some_and(|path| path.stopped_by == Some("cancelled"))
        };
        match &self.body {
            Body::Single(r) => cancelled(r),
            Body::Batch { puzzles, .. } => puzzles.iter().any(cancelled),
            Body::Generation(g) => g.cancelled,
            Body::Cancelled { .. } | Body::Rejected { .. } => false,
        }
    }

    /// The input's result in one word, as the metrics and `kakurod status` count it: the
    /// status of a single puzzle; for a batch the worst of its puzzles' (`failed`, then
    /// `invalid`, `timeout`, `unsatisfiable`); `solved` or `timeout` for a generation job.
    pub fn result(&self) -> Status {
        match &self.body {
            Body::Single(r) => r.status,
            Body::Batch { summary, .. } => summary.result(),
            Body::Generation(g) if g.status == GenerationStatus::Timeout => Status::Timeout,
            Body::Generation(_) => Status::Solved,
            Body::Cancelled { status, .. } | Body::Rejected { status, .. } => *status,
        }
    }

    /// The text of `NAME.solution.txt`: the `.sol` layout for one puzzle, or one line per
    /// puzzle for a batch (a `#` comment line for a puzzle without a solution). `None` when
    /// there is nothing to write (a generation job has a solution file per puzzle instead).
    pub fn solution_text(&self) -> Option<String> {
        match &self.body {
            Body::Single(r) => r.grid.as_ref().map(|g| g.to_string()),
            Body::Batch { puzzles, .. } => {
                let mut text = String::new();
                for r in puzzles {
                    text.push_str(&solution_line(r));
                    text.push('\n');
                }
                Some(text)
            }
            Body::Generation(_) | Body::Cancelled { .. } | Body::Rejected { .. } => None,
        }
    }

    /// The JSON document (pretty-printed): the error document for a rejected input, the
    /// result document otherwise.
    pub fn to_json(&self) -> String {
        // Straight from the structures: a batch of many puzzles never builds a JSON tree.
        let text = match &self.body {
            Body::Single(r) if r.status == Status::Invalid => {
                let error = r.error.clone().unwrap_or_else(|| InputError {
                    line: r.line,
                    column: 1,
                    message: "invalid puzzle".into(),
                    expected: "a valid puzzle".into(),
                });
                let checksum = self.checksum.clone();
                let format = self.format;
                pretty::to_string(&FileReport::rejected(
                    &self.file,
                    checksum,
                    format,
                    Status::Invalid,
                    error,
                ))
            }
            _ => pretty::to_string(self),
        };
        let mut text =
            text.unwrap_or_else(|e| format!("{{\"status\":\"failed\",\"error\":\"{e}\"}}"));
        text.push('\n');
        text
    }
}

/// A solved grid as one line of the line format: N*N characters, `1`-`9` then `A`.. for
/// values above 9.
/// A batch puzzle's line of `NAME.solution.txt` (without the line break): its grid, or a
/// `#` comment line with its status.
pub fn solution_line(report: &PuzzleReport) -> String {
    match &report.grid {
        Some(grid) => grid_line(grid),
        None => format!("# line {}: {}", report.line, report.status.name()),
    }
}

/// A grid as one line of the `lines` format.
pub fn grid_line(grid: &Grid) -> String {
    grid.cells.iter().map(|c| crate::puzzle::value_char(c.unwrap_or(0))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{Engine, Mode, Stats};
    use std::time::Duration;

    #[test]
    fn settings_and_statistics_are_written_as_the_report_names_them() {
        let options = SolveOptions {
            mode: Mode::Count,
            threads: 4,
            timeout: Some(Duration::from_millis(1500)),
            ..SolveOptions::default()
        };
        let reported = Some(options);
        let settings =
            crate::solver::options::as_reported(&reported, serde_json::value::Serializer);
        let settings = settings.unwrap();
        let expected = r#"{"algorithm": "mac", "var_order": "first_fail", "val_order": "min",
            "mode": "count", "count_limit": null, "timeout_seconds": 1.5, "node_limit": null,
            "grade": "auto"}"#;
        assert_eq!(settings, serde_json::from_str::<serde_json::Value>(expected).unwrap());

        let search =
            Stats { nodes: 7, solve_time: Duration::from_nanos(1_234_567), ..Stats::default() };
        let statistics = Statistics {
            search,
            parse_ms: 0.5,
            grade_ms: 0.25,
            total_ms: 2.0,
            threads: 4,
            engine: Engine::Search,
        };
        let json = serde_json::to_value(statistics).unwrap();
        let keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
        let expected = [
            "engine",
            "failures",
            "grade_ms",
            "largest_subproblem_nodes",
            "max_depth",
            "nodes",
            "parse_ms",
            "propagations",
            "solutions",
            "solve_ms",
            "subproblems",
            "threads",
            "total_ms",
        ];
        assert_eq!(keys, expected, "{json}");
        assert_eq!((json["nodes"].as_u64(), json["solve_ms"].as_f64()), (Some(7), Some(1.235)));

        let sat = Stats { sat_solvers: 2, sat_conflicts: 9, sat_learned: 3, ..search };
        let json = serde_json::to_value(Statistics { search: sat, ..statistics }).unwrap();
        let expected = r#"{"solvers": 2, "conflicts": 9, "decisions": 0, "propagations": 0,
            "learned_clauses": 3}"#;
        assert_eq!(json["sat"], serde_json::from_str::<serde_json::Value>(expected).unwrap());
        assert!(json.get("sat_solvers").is_none(), "{json}");
    }
}
