//! One input file from bytes to [`FileReport`]: decode, read (format detection), compile,
//! solve, verify, and grade a solved Kakuro by human techniques ([`grade`]). The solver
//! settings a puzzle file asks for are applied here, within the caller's
//! ([`SolveOverrides::within`](crate::solver::SolveOverrides::within)). Pure apart
//! from the clock; never panics on input. Used by `kakurod solve` and by the daemon's
//! workers alike.

use crate::explain;
use crate::format::{self, Format, InputError, Parsed};
use crate::grade;
use crate::puzzle::{Compiled, Puzzle};
use crate::report::{Body, FileReport, PuzzleReport, Statistics, Status, Uniqueness};
use crate::solver::{self, Budget, Control, Engine, SolveOptions, sudoku9};
use sha2::{Digest, Sha256};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

mod batch;
mod grading;
mod logic;
mod verdict;

pub use batch::{answer_part, stream_lines};
use batch::{batch, solve_entries};
pub use batch::{line_list, none_readable};
use verdict::{check_solutions, puzzle_report, verdict};

/// The most cells a puzzle may have unless the operator says otherwise (`max_cells` in
/// `[limits]`): the one default for the command line and the daemon.
pub const MAX_CELLS: usize = 250_000;

/// How to handle one file.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PipelineOptions {
    /// Solver settings (a JSON puzzle may override some of them for itself).
    pub solve: SolveOptions,
    /// Read every file as this format instead of detecting it.
    pub format: Option<Format>,
    /// Reject puzzles with more cells than this.
    pub max_cells: usize,
}

impl Default for PipelineOptions {
    fn default() -> Self {
        PipelineOptions { solve: SolveOptions::default(), format: None, max_cells: MAX_CELLS }
    }
}

/// Processes one file's bytes. `name` is only echoed in the report.
pub fn process(
    name: &str,
    bytes: &[u8],
    options: &PipelineOptions,
    cancel: Option<&Arc<AtomicBool>>,
) -> FileReport {
    process_with(name, bytes, checksum(bytes), options, Control::from(cancel))
}

/// [`process`], for a caller that has the bytes' [`checksum`] already (the daemon looks
/// for an earlier result by it), with the solver told from outside what [`Control`]
/// carries.
pub fn process_with(
    name: &str,
    bytes: &[u8],
    checksum: String,
    options: &PipelineOptions,
    control: Control<'_>,
) -> FileReport {
    let started = Instant::now();
    let reject = |format, error| {
        FileReport::rejected(name, checksum.clone(), format, Status::Invalid, error)
    };
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => return reject(None, utf8_error(bytes, e.valid_up_to())),
    };
    if format::generation::is_job(text, options.format) {
        // Only the daemon makes puzzles from a job; solving it would only give a schema error.
        return reject(Some(Format::Json), format::generation::not_a_puzzle(text));
    }
    let document = match format::read(text, options.format) {
        Ok(document) => document,
        // The error document still names the format the file was read as.
        Err(error) => return reject(options.format.or_else(|| format::detect(text)), error),
    };
    let parse_time = started.elapsed() / document.entries.len().max(1) as u32;
    let mut reports = solve_entries(document.entries, document.batch, options, control, parse_time);
    let body = if document.batch {
        batch(reports)
    } else {
        reports
            .pop()
            .map(|report| Body::Single(Box::new(report)))
            .ok_or_else(|| InputError::whole_file("no puzzle in the file", "a puzzle"))
    };
    let format = Some(document.format);
    match body {
        Ok(body) => FileReport { file: name.to_string(), checksum, format, body },
        Err(error) => reject(format, error),
    }
}

/// Solves, verifies and grades one puzzle already read (`kakurod print` reads its files
/// itself, to keep every puzzle of a batch).
pub fn solve_parsed(
    parsed: Parsed,
    options: &PipelineOptions,
    control: Control<'_>,
) -> PuzzleReport {
    solve_one(parsed, options, control, Duration::ZERO)
}

/// Compiles, solves and verifies one puzzle.
fn solve_one(
    parsed: Parsed,
    options: &PipelineOptions,
    control: Control<'_>,
    parse_time: Duration,
) -> PuzzleReport {
    let started = Instant::now();
    // The one place a puzzle file's own settings are applied, within the operator's.
    let solve_options = parsed.overrides.within(&options.solve);
    let wants_explain = parsed.overrides.wants_explain();
    let Parsed { puzzle, line, .. } = parsed;
    if let Some(error) = over_size_limit(&puzzle, line, options.max_cells) {
        return invalid(line, error);
    }
    // The job's one budget: the grade and the path stop where the search would.
    let budget = Budget::new(started, solve_options.timeout, control.cancel);
    let control = control.within(budget);
    let Searched { outcome, compiled, grading } = search(&puzzle, &solve_options, control);
    let checked = check_solutions(&puzzle, compiled.as_ref(), &outcome);
    let verdict = verdict(checked, &outcome, solve_options.mode, line);
    let grade_started = Instant::now();
    let graded = match &puzzle {
        Puzzle::Kakuro(kakuro) if verdict.status == Status::Solved => {
            let answered = grading::Answered {
                compiled: compiled.as_ref(),
                first: grading,
                outcome: &outcome,
                uniqueness: verdict.uniqueness,
                budget,
            };
            grading::grade(kakuro, &answered, &solve_options)
        }
        _ => grading::Graded::Not,
    };
    let grade_time = grade_started.elapsed();
    // Taken after the checks, so that the total time includes them.
    let statistics = Statistics {
        grade_ms: grade_time.as_secs_f64() * 1e3,
        ..statistics(&outcome, parse_time, started, &solve_options)
    };
    let report = puzzle_report(puzzle, line, &outcome, &solve_options, statistics, verdict);
    let (grading, graded_by) = graded.fields();
    let report = PuzzleReport {
        difficulty: grading.map(|g| g.difficulty),
        techniques: grading.map(|g| g.uses),
        graded_by,
        ..report
    };
    if !wants_explain {
        return report;
    }
    // The path is part of the job: within its time limit, stopped by its cancel.
    with_path(report, budget)
}

/// `report` with the solving path of its puzzle, when it is solved: asked for by the file
/// (`"explain": true`), after the answer and its statistics, which never pay for it. A
/// path `budget` cut short says so in its `stopped_by`.
fn with_path(report: PuzzleReport, budget: Budget<'_>) -> PuzzleReport {
    let path = match (&report.status, &report.puzzle, &report.grid) {
        (Status::Solved, Some(puzzle), Some(grid)) => {
            Some(explain::explain_within(puzzle, grid, None, budget))
        }
        _ => None,
    };
    PuzzleReport { explain: path, ..report }
}

/// What [`search`] found.
struct Searched {
    outcome: solver::Outcome,
    /// The model it was solved on (none for the dedicated 9x9 engine).
    compiled: Option<Compiled>,
    /// The grade the logic that ran first decided (under `mac`, for a Kakuro).
    grading: Option<grade::Grading>,
}

/// Solves `puzzle` with the engine made for it: the dedicated 9x9 engine for a plain 9x9
/// Sudoku (no model to compile); for a Kakuro under `mac`, the grader's logic when it
/// finishes the grid ([`logic`]); the general engine on the compiled model otherwise (after
/// that logic, for a Kakuro under `mac`, whose grade is kept).
fn search(puzzle: &Puzzle, options: &SolveOptions, control: Control<'_>) -> Searched {
    match puzzle {
        Puzzle::Sudoku(s) if sudoku9::fits(s.n, s.box_size, options.algorithm) => {
            let outcome = sudoku9::solve(&s.givens, options, control);
            Searched { outcome, compiled: None, grading: None }
        }
        _ => {
            let compiled = puzzle.compile();
            let search = || solver::solve_with(&compiled.model, options, control);
            let (outcome, grading) = match puzzle {
                Puzzle::Kakuro(kakuro) if logic::runs_beside(&compiled, options) => {
                    let (searched, first) =
                        logic::beside_search(kakuro, &compiled, options, control);
                    logic::settle(first, |_| searched)
                }
                Puzzle::Kakuro(kakuro) => {
                    let budget = Budget { deadline: control.deadline, cancel: control.cancel };
                    let first = logic::answer(kakuro, &compiled, options, budget);
                    let beside = logic::beside_with_threads(&compiled, options);
                    logic::settle(first, |time| {
                        // The logic that ran first is part of the answer's time; on more
                        // threads it would run beside the search, off its span.
                        let mut outcome = search();
                        if beside {
                            outcome.stats.parallel_slack += time.min(outcome.stats.span());
                        }
                        outcome.stats.solve_time += time;
                        outcome
                    })
                }
                _ => (search(), None),
            };
            Searched { outcome, compiled: Some(compiled), grading }
        }
    }
}

/// Why a puzzle is refused before it is compiled, if it is: more cells than `max_cells`.
fn over_size_limit(puzzle: &Puzzle, line: usize, max_cells: usize) -> Option<InputError> {
    let (rows, cols) = puzzle.size();
    (rows * cols > max_cells).then(|| InputError {
        line,
        column: 1,
        message: format!("grid of {rows}x{cols} cells is over the limit of {max_cells} cells"),
        expected: format!("at most {max_cells} cells"),
    })
}

fn statistics(
    outcome: &solver::Outcome,
    parse_time: Duration,
    started: Instant,
    options: &SolveOptions,
) -> Statistics {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let threads = match outcome.engine {
        Engine::Sudoku9 | Engine::Logic => 1,
        Engine::Search | Engine::Sat => solver::effective_threads(options.threads),
    };
    Statistics {
        search: outcome.stats,
        parse_ms: ms(parse_time),
        grade_ms: 0.0,
        total_ms: ms(parse_time + started.elapsed()),
        threads,
        engine: outcome.engine,
    }
}

/// The report of a puzzle that was rejected.
fn invalid(line: usize, error: InputError) -> PuzzleReport {
    PuzzleReport {
        line,
        status: Status::Invalid,
        uniqueness: Uniqueness::NotChecked,
        kind: None,
        rows: 0,
        cols: 0,
        solutions_found: 0,
        stopped_by: None,
        difficulty: None,
        techniques: None,
        graded_by: None,
        grid: None,
        error: Some(error),
        statistics: Statistics::default(),
        settings: None,
        puzzle: None::<Puzzle>,
        explain: None,
    }
}

/// Locates the first byte that is not UTF-8.
fn utf8_error(bytes: &[u8], valid_up_to: usize) -> InputError {
    let before = &bytes[..valid_up_to];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let column = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
    InputError {
        line,
        column,
        message: "the file is not valid UTF-8 text".into(),
        expected: "a text file".into(),
    }
}

/// The checksum a result document carries for its input: the SHA-256 of its bytes, in hex.
pub fn checksum(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Lower-case hex digits of `bytes` (a digest).
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::verdict::status;
    use super::*;
    use crate::solver::{Mode, SolveOverrides, StopReason};

    #[test]
    fn a_search_stopped_short_says_why_and_a_partial_count_is_never_solved() {
        let stopped = |count: u64, stopped: Option<StopReason>| solver::Outcome {
            solutions: Vec::new(),
            count,
            complete: stopped.is_none(),
            stopped,
            stats: solver::Stats::default(),
            engine: Engine::Search,
        };
        let cancel = Some(StopReason::Cancelled);
        let limit = Some(StopReason::NodeLimit);
        assert_eq!(status(Mode::Count, true, &stopped(5, cancel)), Status::Cancelled);
        assert_eq!(status(Mode::Count, true, &stopped(5, limit)), Status::Timeout);
        assert_eq!(status(Mode::First, false, &stopped(0, cancel)), Status::Cancelled);
        assert_eq!(status(Mode::Unique, false, &stopped(0, limit)), Status::Timeout);
        // A verified solution found before the stop answers `first` and `unique`.
        assert_eq!(status(Mode::Unique, true, &stopped(1, cancel)), Status::Solved);
        assert_eq!(status(Mode::Count, true, &stopped(3, None)), Status::Solved);
    }

    fn single(report: &FileReport) -> &PuzzleReport {
        match &report.body {
            Body::Single(r) => r,
            other => panic!("not a single puzzle: {other:?}"),
        }
    }

    #[test]
    fn a_generation_job_is_not_solved_but_pointed_elsewhere() {
        let job = br#"{"kind": "generate", "rows": 5, "cols": 5}"#;
        let report = process("job.json", job, &PipelineOptions::default(), None);
        let Body::Rejected { error, .. } = &report.body else { panic!("{report:?}") };
        assert!(error.message.starts_with("a generation job, not a puzzle"), "{error}");
        assert_eq!((error.line, error.column, report.format), (1, 10, Some(Format::Json)));
    }

    #[test]
    fn a_solved_kakuro_carries_its_grade_and_other_kinds_do_not() {
        let options = PipelineOptions::default();
        let kakuro = "3 3\n- 4, 3,\n,3 0 0\n,4 0 0\n";
        let report = process("k.txt", kakuro.as_bytes(), &options, None);
        assert_eq!(single(&report).difficulty, Some(grade::Difficulty::Easy));
        let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        assert_eq!(json["difficulty"], "easy", "{json}");
        let techniques = json["techniques"].as_object().expect("an object of counts");
        assert!(techniques.contains_key("unique_combination"), "{json}");
        assert!(techniques.values().all(|n| n.as_u64().is_some_and(|n| n > 0)), "{json}");

        let sudoku = format!("1{}\n", ".".repeat(80));
        let report = process("s.txt", sudoku.as_bytes(), &options, None);
        let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        let puzzle = &json["puzzles"][0];
        assert_eq!(puzzle["status"], "solved", "{json}");
        assert!(puzzle.get("difficulty").is_none() && puzzle.get("techniques").is_none());

        // Contradictory clues: unsatisfiable, and not graded.
        let report = process("u.txt", b"3 3\n- 4, 4,\n,3 0 0\n,4 0 0\n", &options, None);
        assert_eq!(single(&report).status, Status::Unsatisfiable);
        assert_eq!((single(&report).difficulty, single(&report).techniques), (None, None));
    }

    #[test]
    fn an_explanation_asked_for_is_cut_by_the_cancel_and_leaves_the_answer_not_final() {
        let kakuro = "3 3\n- 4, 3,\n,3 0 0\n,4 0 0\n";
        let report = process("k.txt", kakuro.as_bytes(), &PipelineOptions::default(), None);
        assert!(!report.was_cancelled());
        let raised = Arc::new(AtomicBool::new(true));
        let budget = Budget { cancel: Some(&raised), ..Budget::default() };
        let Body::Single(solved) = report.body else { panic!("{report:?}") };
        let cut = with_path(*solved, budget);
        assert_eq!(cut.explain.as_ref().and_then(|path| path.stopped_by), Some("cancelled"));
        let json = serde_json::to_value(&cut).unwrap();
        assert_eq!(json["explain"]["stopped_by"], "cancelled", "{json}");
        // A search that ended but whose explanation was cancelled is not answered either.
        let report = FileReport { body: Body::Single(Box::new(cut)), ..report };
        assert!(report.was_cancelled());
    }

    #[test]
    fn a_batch_spread_over_threads_answers_as_one_thread_does_in_file_order() {
        let lines = include_str!("../../../../tests/fixtures/sudoku/top1465-first20.txt");
        let batch = format!("{lines}\n{}\n1234\n", "1".repeat(81));
        let answers = |threads: usize| {
            let mut options = PipelineOptions::default();
            options.solve.threads = threads;
            let report = process("b.txt", batch.as_bytes(), &options, None);
            let Body::Batch { puzzles, summary, .. } = report.body else { panic!("{report:?}") };
            let each: Vec<_> = puzzles
                .iter()
                .map(|p| (p.line, p.status, p.uniqueness, p.grid.clone(), p.statistics.threads))
                .collect();
            (each, summary)
        };
        let (one, summary) = answers(1);
        assert_eq!((summary.solved, summary.invalid), (20, 2), "{summary:?}");
        assert!(one.windows(2).all(|w| w[0].0 < w[1].0), "in file order");
        assert_eq!(answers(2), (one.clone(), summary));
        assert_eq!(answers(0), (one.clone(), summary));
        // Other work waiting: the batch goes on one thread, with the same answers.
        let waiting = Arc::new(std::sync::atomic::AtomicUsize::new(1));
        let mut options = PipelineOptions::default();
        options.solve.threads = 2;
        let control = Control { waiting: Some(&waiting), ..Control::default() };
        let report = process_with("b.txt", batch.as_bytes(), String::new(), &options, control);
        let Body::Batch { puzzles, .. } = report.body else { panic!("{report:?}") };
        let grids: Vec<_> = puzzles.iter().map(|p| p.grid.clone()).collect();
        assert_eq!(grids, one.into_iter().map(|answer| answer.3).collect::<Vec<_>>());
    }

    #[test]
    fn a_puzzle_may_lower_its_threads_but_not_raise_them() {
        let json = |threads: usize| {
            format!(
                "{{\"kind\": \"sudoku\", \"givens\": [[1,0,0,0],[0,0,3,0],[0,4,0,0],[0,0,0,2]], \
                 \"settings\": {{\"threads\": {threads}}}}}"
            )
        };
        let mut options = PipelineOptions::default();
        options.solve.threads = 1;
        let report = process("p.json", json(64).as_bytes(), &options, None);
        assert_eq!(single(&report).status, Status::Solved);
        assert_eq!(single(&report).statistics.threads, 1);
        options.solve.threads = 3;
        let report = process("p.json", json(2).as_bytes(), &options, None);
        assert_eq!(single(&report).statistics.threads, 2);
        // 0 is every core: never fewer than one thread.
        let capped = |operator: usize, asked: Option<usize>| {
            let solve = SolveOptions { threads: operator, ..SolveOptions::default() };
            SolveOverrides { threads: asked, ..Default::default() }.within(&solve)
        };
        assert_eq!(capped(1, Some(0)).threads, 1);
        assert_eq!(solver::effective_threads(capped(0, Some(1)).threads), 1);
        assert_eq!(capped(2, None).threads, 2);
    }

    #[test]
    fn a_batch_without_one_readable_puzzle_is_rejected_and_a_mixed_one_names_its_bad_lines() {
        let options = PipelineOptions::default();
        let good = format!("1{}\n", ".".repeat(80));
        let bad = format!("Z{}\n", ".".repeat(80));
        let report = process("bad.txt", (bad.clone() + &bad).as_bytes(), &options, None);
        assert!(report.is_rejected(), "{report:?}");
        let Body::Rejected { error, .. } = &report.body else { panic!("{report:?}") };
        assert!(error.message.contains("invalid: lines 1, 2"), "{error:?}");
        assert_eq!((error.line, error.column), (1, 1));
        let report = process("mixed.txt", (bad + &good).as_bytes(), &options, None);
        assert!(!report.is_rejected());
        let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        assert_eq!(json["invalid_lines"], serde_json::json!([1]), "{json}");
        let many: Vec<usize> = (1..=12).collect();
        assert_eq!(line_list(&many), "lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 2 more");
    }
}
