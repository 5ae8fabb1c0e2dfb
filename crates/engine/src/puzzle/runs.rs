//! A Kakuro's runs in flat arrays, built in two passes over the grid without an
//! allocation per run. The white cells are numbered row-major, as the model's variables
//! are, so that the model ([`Kakuro::compile`]) and the grader share one table.

use super::kakuro::{Kakuro, KakuroCell};

/// A grid cell's entry in the map from grid cells to white cells when it is black.
const BLACK: u32 = u32::MAX;

/// One run of a [`RunTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableRun {
    /// Offset of its cells in [`RunTable::cells`].
    pub start: u32,
    /// Number of cells.
    pub len: u32,
    /// The clue in the black cell before it, if any.
    pub total: Option<u32>,
}

/// The runs of a Kakuro (length 1 included): across, row by row, then down, column by
/// column, the order of [`Kakuro::for_each_run`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunTable {
    /// Per white cell, its row-major index in the grid.
    pub white: Vec<u32>,
    /// Every run.
    pub runs: Vec<TableRun>,
    /// The cells of every run as white-cell numbers, run after run.
    pub cells: Vec<u32>,
    /// Per white cell, its across and down run (every white cell has both, if only of
    /// one cell).
    pub cell_runs: Vec<[u32; 2]>,
}

impl RunTable {
    /// The table of `puzzle`. Only the `rows` x `cols` grid counts: cells past it are
    /// ignored, and missing ones count as black without a clue.
    pub fn of(puzzle: &Kakuro) -> RunTable {
        let (rows, cols) = (puzzle.rows, puzzle.cols);
        let grid = rows.saturating_mul(cols).min(puzzle.cells.len());
        let cells = &puzzle.cells[..grid];
        let mut table = RunTable {
            white: Vec::with_capacity(grid),
            runs: Vec::with_capacity(grid),
            cells: Vec::with_capacity(2 * grid),
            cell_runs: Vec::with_capacity(grid),
        };
        let mut rank = vec![BLACK; grid];
        for (row, line) in cells.chunks(cols.max(1)).enumerate() {
            let (mut clue, mut open) = (None, false);
            for (col, kind) in line.iter().enumerate() {
                if let KakuroCell::Black { right, .. } = *kind {
                    (clue, open) = (right, false);
                    continue;
                }
                if !open {
                    table.begin(clue);
                    open = true;
                }
                let (cell, white) = (row * cols + col, table.white.len() as u32);
                rank[cell] = white;
                table.cells.push(white);
                table.cell_runs.push([table.runs.len() as u32 - 1, 0]);
                table.white.push(cell as u32);
            }
        }
        for col in 0..cols.min(grid) {
            let (mut clue, mut open) = (None, false);
            for (cell, &white) in rank.iter().enumerate().skip(col).step_by(cols) {
                let down_run = table.runs.len() as u32;
                let Some(runs) = table.cell_runs.get_mut(white as usize) else {
                    clue = match cells.get(cell) {
                        Some(&KakuroCell::Black { down, .. }) => down,
                        _ => None,
                    };
                    open = false;
                    continue;
                };
                runs[1] = if open { down_run - 1 } else { down_run };
                if !open {
                    table.begin(clue);
                    open = true;
                }
                table.cells.push(white);
            }
        }
        // A run ends where the next one starts.
        let mut end = table.cells.len() as u32;
        for run in table.runs.iter_mut().rev() {
            run.len = end - run.start;
            end = run.start;
        }
        table
    }

    /// Starts a run at the end of [`RunTable::cells`], with the clue `total`.
    fn begin(&mut self, total: Option<u32>) {
        self.runs.push(TableRun { start: self.cells.len() as u32, len: 0, total });
    }

    /// The cells of run `r` as white-cell numbers, in order (none for a run it lacks).
    #[inline]
    pub fn run_cells(&self, r: usize) -> &[u32] {
        let Some(run) = self.runs.get(r) else { return &[] };
        let start = run.start as usize;
        self.cells.get(start..start + run.len as usize).unwrap_or_default()
    }
}
