//! What a search found, checked against the puzzle's own clues and said as a status, a
//! uniqueness and a puzzle's report: a solution is reported only once [`verify`] accepts
//! it.

use crate::format::InputError;
use crate::puzzle::{Compiled, Grid, Puzzle};
use crate::report::{PuzzleReport, Statistics, Status, Uniqueness};
use crate::solver::{self, Mode, SolveOptions, StopReason};
use crate::verify::{self, Violation};

/// What checking a search's solutions against the puzzle's own clues found.
pub(super) struct Checked {
    /// The first solution, as a grid (when the search found one).
    grid: Option<Grid>,
    /// The first rule a solution breaks; checking stops there.
    violation: Option<Violation>,
}

/// Checks every solution the solver kept, not only the one reported: a solver bug must
/// never reach a result file as an answer.
/// Without a compiled model, the values are the grid's cells in row-major order.
pub(super) fn check_solutions(
    puzzle: &Puzzle,
    compiled: Option<&Compiled>,
    outcome: &solver::Outcome,
) -> Checked {
    let mut grid = None;
    for values in &outcome.solutions {
        let solution = match compiled {
            Some(compiled) => puzzle.grid_from_values(compiled, values),
            None => grid_from_cells(puzzle, values),
        };
        if let Err(violation) = verify::check(puzzle, &solution) {
            return Checked { grid, violation: Some(violation) };
        }
        grid.get_or_insert(solution);
    }
    Checked { grid, violation: None }
}

/// A grid whose cells, row-major, hold `values` (cells past their end stay blank).
fn grid_from_cells(puzzle: &Puzzle, values: &[u32]) -> Grid {
    let (rows, cols) = puzzle.size();
    let mut grid = Grid::blank(rows, cols);
    grid.cells.iter_mut().zip(values).for_each(|(cell, &value)| *cell = Some(value));
    grid
}

/// A search's answer once its solutions are checked.
pub(super) struct Verdict {
    pub(super) status: Status,
    pub(super) uniqueness: Uniqueness,
    /// The solved grid, for the text and picture outputs.
    grid: Option<Grid>,
    /// Why the status is `failed`.
    error: Option<InputError>,
}

/// The answer to report for the puzzle on `line`: `failed` when a solution breaks a rule,
/// else what the search found in its mode.
pub(super) fn verdict(
    checked: Checked,
    outcome: &solver::Outcome,
    mode: Mode,
    line: usize,
) -> Verdict {
    let Checked { grid, violation } = checked;
    match violation {
        Some(violation) => Verdict {
            status: Status::Failed,
            uniqueness: Uniqueness::NotChecked,
            grid,
            error: Some(InputError {
                line,
                column: 1,
                message: format!("internal error: the solver's answer breaks a rule: {violation}"),
                expected: "a solution that satisfies every clue".into(),
            }),
        },
        None => Verdict {
            status: status(mode, grid.is_some(), outcome),
            uniqueness: uniqueness(mode, outcome),
            grid,
            error: None,
        },
    }
}

/// The report of one searched puzzle. A failed one keeps neither its solution nor its
/// puzzle, so no output presents an answer of a search that broke a rule or draws it.
pub(super) fn puzzle_report(
    puzzle: Puzzle,
    line: usize,
    outcome: &solver::Outcome,
    options: &SolveOptions,
    statistics: Statistics,
    verdict: Verdict,
) -> PuzzleReport {
    let (rows, cols) = puzzle.size();
    let failed = verdict.status == Status::Failed;
    PuzzleReport {
        line,
        status: verdict.status,
        uniqueness: verdict.uniqueness,
        kind: Some(puzzle.kind()),
        rows,
        cols,
        solutions_found: outcome.count,
        stopped_by: outcome.stopped.map(|s| match s {
            StopReason::Timeout => "timeout",
            StopReason::NodeLimit => "node_limit",
            StopReason::Cancelled => "cancelled",
        }),
        difficulty: None,
        techniques: None,
        graded_by: None,
        grid: verdict.grid.filter(|_| !failed),
        error: verdict.error,
        statistics,
        settings: Some(options.clone()),
        puzzle: (!failed).then_some(puzzle),
        explain: None,
    }
}

/// Whether the puzzle is known to have one solution or several; a search stopped early, or
/// in `first` mode, cannot tell.
pub(super) fn uniqueness(mode: Mode, outcome: &solver::Outcome) -> Uniqueness {
    match mode {
        _ if outcome.count >= 2 => Uniqueness::Multiple,
        _ if outcome.count == 0 && outcome.complete => Uniqueness::None,
        Mode::Unique | Mode::Count if outcome.count == 1 && outcome.complete => Uniqueness::Unique,
        _ => Uniqueness::NotChecked,
    }
}

/// The verdict on one search. A solution found makes a puzzle `solved`, except in `count`
/// mode, whose answer is the number of solutions: a count cut short by a limit is
/// `timeout` and one cut short by a cancel (Ctrl-C) `cancelled` (its `solutions_found` is
/// then a lower bound), like any search stopped before it found what it was asked for.
pub(super) fn status(mode: Mode, found: bool, outcome: &solver::Outcome) -> Status {
    let stopped = match outcome.stopped {
        Some(StopReason::Cancelled) => Status::Cancelled,
        _ => Status::Timeout,
    };
    match (found, outcome.complete) {
        (true, false) if mode == Mode::Count && outcome.stopped.is_some() => stopped,
        (true, _) => Status::Solved,
        (false, true) => Status::Unsatisfiable,
        (false, false) => stopped,
    }
}
