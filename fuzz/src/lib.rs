//! The checks the fuzz targets share. Beyond "never a panic", each input that reads must
//! give what the rest of kakurod relies on: a puzzle that compiles to a well-formed model,
//! an error placed inside the text, solver options no looser than the caller's, a
//! generation job within the limits it was read against, a `.sol` grid that round-trips.

use kakurod_engine::format::generation::{self, Limits};
use kakurod_engine::format::solution::read_sol;
use kakurod_engine::format::{self, Format, InputError};
use kakurod_engine::pipeline::{self, PipelineOptions};
use kakurod_engine::puzzle::Puzzle;
use kakurod_engine::report::{Body, Status};
use kakurod_engine::solver::effective_threads;
use kakurod_engine::solver::{Algorithm, Mode, SolveOptions};
use std::time::Duration;

/// The pipeline's default limit on cells: larger puzzles are refused before compiling.
const MAX_CELLS: usize = 250_000;

/// Reads `data` as `forced` (or detected), as `kakurod solve` and the daemon do; every
/// puzzle read must compile, every error must be placed inside the text.
pub fn read_and_compile(data: &[u8], forced: Option<Format>) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let document = match format::read(text, forced) {
        Ok(document) => document,
        Err(error) => return check_placed(text, &error),
    };
    if let Some(format) = forced {
        assert_eq!(document.format, format, "read as another format than forced");
    }
    for entry in &document.entries {
        match entry {
            Ok(parsed) => check_compiles(&parsed.puzzle),
            Err(error) => check_placed(text, error),
        }
    }
}

/// Compiles `puzzle` and checks the model: one variable per distinct cell of the grid,
/// constraints only over existing variables.
pub fn check_compiles(puzzle: &Puzzle) {
    let (rows, cols) = puzzle.size();
    let cells = rows.checked_mul(cols).expect("grid size overflows");
    if cells > MAX_CELLS {
        return;
    }
    let compiled = puzzle.compile();
    let model = &compiled.model;
    assert_eq!(compiled.cell_of_var.len(), model.num_vars(), "a variable without a cell");
    let mut seen = vec![false; cells];
    for &cell in &compiled.cell_of_var {
        assert!(cell < cells, "variable of cell {cell} outside the {rows}x{cols} grid");
        assert!(!seen[cell], "two variables for cell {cell}");
        seen[cell] = true;
    }
    for constraint in &model.constraints {
        assert!(constraint.vars().iter().all(|&v| v < model.num_vars()), "{constraint:?}");
    }
}

/// An error must name a line of the text (after a byte-order mark, as the readers see
/// it) and a column of that line, or just past its end.
pub fn check_placed(text: &str, error: &InputError) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.split('\n').collect();
    assert!((1..=lines.len()).contains(&error.line), "line outside the text: {error:?}");
    let width = lines[error.line - 1].chars().count();
    assert!((1..=width + 1).contains(&error.column), "column outside its line: {error:?}");
    assert!(!error.message.is_empty() && !error.expected.is_empty(), "{error:?}");
}

/// The whole pipeline on `data`, with a search cut short (64 nodes, 1 s, one thread):
/// no solution it reports may break a rule (status `failed`), and the report must
/// serialize as the result file does.
pub fn process(data: &[u8]) {
    let solve = SolveOptions {
        node_limit: Some(64),
        timeout: Some(Duration::from_secs(1)),
        threads: 1,
        ..SolveOptions::default()
    };
    let options = PipelineOptions { solve, ..PipelineOptions::default() };
    let report = pipeline::process("fuzz", data, &options, None);
    let statuses: Vec<Status> = match &report.body {
        Body::Single(puzzle) => vec![puzzle.status],
        Body::Batch { puzzles, .. } => puzzles.iter().map(|p| p.status).collect(),
        Body::Rejected { error, .. } => {
            if let Ok(text) = std::str::from_utf8(data) {
                check_placed(text, error);
            }
            vec![]
        }
        Body::Generation(_) => panic!("the pipeline made a generation job's puzzles"),
        Body::Cancelled { .. } => panic!("the pipeline cancelled what no one cancelled"),
    };
    assert!(!statuses.contains(&Status::Failed), "a solution breaks a rule: {report:?}");
    serde_json::to_string(&report).expect("the report serializes");
}

/// `settings` as the `settings` of a small JSON Sudoku, applied to a few callers'
/// options: a file may lower the caller's threads, timeout and node limit, never raise
/// them.
pub fn settings(data: &[u8]) {
    let Ok(settings) = std::str::from_utf8(data) else { return };
    let text = format!(
        "{{\"kind\": \"sudoku\", \"givens\": [[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], \
         [0, 0, 0, 2]],\n\"settings\": {settings}}}"
    );
    let document = match format::read(&text, Some(Format::Json)) {
        Ok(document) => document,
        Err(error) => return check_placed(&text, &error),
    };
    for parsed in document.entries.iter().flatten() {
        for base in callers() {
            let options = parsed.overrides.within(&base);
            let threads = effective_threads(options.threads);
            assert!(threads <= effective_threads(base.threads), "{base:?} -> {options:?}");
            if let Some(limit) = base.timeout {
                assert!(options.timeout.is_some_and(|t| t <= limit), "{options:?}");
            }
            if let Some(limit) = base.node_limit {
                assert!(options.node_limit.is_some_and(|n| n <= limit), "{options:?}");
            }
            serde_json::to_string(&options).expect("the options serialize");
        }
    }
}

/// The callers' options the settings are applied to: the defaults, a generous operator's
/// and a strict one's.
fn callers() -> [SolveOptions; 3] {
    [
        SolveOptions::default(),
        SolveOptions {
            algorithm: Algorithm::Sat,
            mode: Mode::Count,
            count_limit: Some(5),
            threads: 0,
            timeout: Some(Duration::from_secs(30)),
            node_limit: Some(1_000_000),
            ..SolveOptions::default()
        },
        SolveOptions {
            threads: 4,
            timeout: Some(Duration::ZERO),
            node_limit: Some(0),
            ..SolveOptions::default()
        },
    ]
}

/// A generation job as the daemon reads it (under the default and the widest limits): a
/// job read must be one it can start, and one refused must say where.
pub fn generation_job(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if !generation::is_job(text, Some(Format::Json)) {
        assert!(!generation::detect(text));
        return;
    }
    check_placed(text, &generation::not_a_puzzle(text));
    let default = Limits { max_rows: 150, max_cols: 150, max_count: 100 };
    let widest = Limits { max_rows: 1000, max_cols: 1000, max_count: 10_000 };
    for limits in [default, widest] {
        let job = match generation::read(text, &limits) {
            Ok(job) => job,
            Err(error) => {
                check_placed(text, &error);
                continue;
            }
        };
        assert!((1..=limits.max_count).contains(&job.count), "{job:?}");
        assert_eq!(job.seeds().count(), job.count, "{job:?}");
        let last = job.seeds().last().expect("at least one seed");
        match job.grid_options(last) {
            Some(grid) => {
                assert!(matches!(grid.size, 4 | 9 | 16 | 25), "{job:?}");
                assert!(grid.size <= limits.max_rows.min(limits.max_cols), "{job:?}");
            }
            None => {
                let options = job.options(last);
                assert!(options.check().is_ok(), "{job:?}");
                assert!((3..=limits.max_rows).contains(&options.rows), "{job:?}");
                assert!((3..=limits.max_cols).contains(&options.cols), "{job:?}");
            }
        }
        assert!(!job.shape().is_empty());
        check_placed(text, &generation::refused(text, "refused".into()));
        serde_json::to_string(&job).expect("the job's echo serializes");
    }
}

/// A `.sol` file: a grid read must have its cells, and write back to text that reads as
/// the same grid.
pub fn solution(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match read_sol(text) {
        Ok(grid) => {
            assert_eq!(grid.cells.len(), grid.rows * grid.cols);
            let written = grid.to_string();
            assert_eq!(read_sol(&written).as_ref(), Ok(&grid), "{written}");
        }
        Err(error) => check_placed(text, &error),
    }
}
