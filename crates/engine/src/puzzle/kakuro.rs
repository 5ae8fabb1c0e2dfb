//! Kakuro: a grid of black cells (some carrying clues) and white cells. Each maximal
//! horizontal or vertical stretch of white cells (a run) holds distinct digits 1..9 that add
//! up to the clue in the black cell just before it.

use super::Compiled;
use super::runs::RunTable;
use crate::model::Domain;
use crate::model::Model;

/// One cell of a Kakuro grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KakuroCell {
    /// A cell to fill with a digit.
    White,
    /// A black cell, with the sum of the run below it (`down`) and/or to its right (`right`).
    Black {
        /// Clue for the run going down, if any.
        down: Option<u32>,
        /// Clue for the run going right, if any.
        right: Option<u32>,
    },
}

/// The direction of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Left to right.
    Right,
    /// Top to bottom.
    Down,
}

/// A maximal line of white cells in one direction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// Direction of the run.
    pub direction: Direction,
    /// Row-major index of the black cell just before the run, if the run does not start at
    /// the grid's edge.
    pub clue_cell: Option<usize>,
    /// The clue in that cell for this direction, if any.
    pub total: Option<u32>,
    /// Row-major indices of the run's white cells, in order.
    pub cells: Vec<usize>,
}

/// A Kakuro puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kakuro {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
    /// Row-major cells.
    pub cells: Vec<KakuroCell>,
}

impl Kakuro {
    /// The cell at `(row, col)`.
    pub fn cell(&self, row: usize, col: usize) -> KakuroCell {
        self.cells[row * self.cols + col]
    }

    /// All maximal runs of white cells (length 1 included), rows first, then columns.
    pub fn runs(&self) -> Vec<Run> {
        let mut runs = Vec::new();
        self.for_each_run(|run| runs.push(run.clone()));
        runs
    }

    /// Calls `visit` with every maximal run, rows first, then columns. The run passed in is
    /// reused between calls, so walking the runs allocates nothing per run.
    pub fn for_each_run(&self, mut visit: impl FnMut(&Run)) {
        let mut run = Run {
            direction: Direction::Right,
            clue_cell: None,
            total: None,
            cells: Vec::with_capacity(9),
        };
        for row in 0..self.rows {
            let line = (0..self.cols).map(|c| row * self.cols + c);
            self.line_runs(Direction::Right, line, &mut run, &mut visit);
        }
        for col in 0..self.cols {
            let line = (0..self.rows).map(|r| r * self.cols + col);
            self.line_runs(Direction::Down, line, &mut run, &mut visit);
        }
    }

    /// Splits one line of cells into its runs.
    fn line_runs(
        &self,
        direction: Direction,
        line: impl Iterator<Item = usize>,
        run: &mut Run,
        visit: &mut impl FnMut(&Run),
    ) {
        run.cells.clear();
        let mut previous: Option<usize> = None;
        for index in line {
            match self.cells[index] {
                KakuroCell::White => {
                    if run.cells.is_empty() {
                        run.direction = direction;
                        run.clue_cell = previous;
                        run.total = previous.and_then(|p| match self.cells[p] {
                            KakuroCell::Black { down, right } => match direction {
                                Direction::Down => down,
                                Direction::Right => right,
                            },
                            KakuroCell::White => None,
                        });
                    }
                    run.cells.push(index);
                }
                KakuroCell::Black { .. } if !run.cells.is_empty() => {
                    visit(run);
                    run.cells.clear();
                }
                KakuroCell::Black { .. } => {}
            }
            previous = Some(index);
        }
        if !run.cells.is_empty() {
            visit(run);
            run.cells.clear();
        }
    }

    /// The runs in flat arrays (see [`RunTable`]).
    pub fn run_table(&self) -> RunTable {
        RunTable::of(self)
    }

    /// Builds the model: one variable per white cell (domain 1..9), and for every run with a
    /// clue a `Sum` and an `AllDifferent` over its cells; a run without a clue (legal only
    /// for a lone cell) adds nothing. The run table comes along for the grader.
    pub fn compile(&self) -> Compiled {
        let runs = self.run_table();
        let mut model = Model::default();
        for _ in &runs.white {
            model.new_var(Domain::range(1, 9));
        }
        for (r, run) in runs.runs.iter().enumerate() {
            let vars: Vec<usize> = runs.run_cells(r).iter().map(|&w| w as usize).collect();
            if let Some(total) = run.total {
                model.sum(vars.clone(), total);
                if vars.len() > 1 {
                    model.all_different(vars);
                }
            } else if vars.len() > 1 {
                model.all_different(vars);
            }
        }
        let cell_of_var = runs.white.iter().map(|&cell| cell as usize).collect();
        Compiled { model, cell_of_var, runs: Some(runs) }
    }
}
