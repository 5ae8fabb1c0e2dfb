//! The runs of a puzzle as the logic solver sees them: the puzzle's [`RunTable`] (shared
//! with the model when the pipeline grades what it solved) and, per run, its
//! combinations.
//!
//! Cells are numbered by their rank among the white cells (row-major), so that the
//! solver's state is a dense array and a run's cells are small indices into it.

use super::masks::ALL_DIGITS;
use crate::puzzle::{RunTable, TableRun};
use crate::solver::combos;

/// One run.
#[derive(Clone, Copy, Debug)]
pub(super) struct RunSpec {
    /// Offset of its cells in [`Layout::run_cells`].
    pub(super) start: u32,
    /// Number of cells.
    pub(super) len: u32,
    /// The clue; `None` for a run that only needs distinct digits.
    pub(super) total: Option<u8>,
    /// The digits of its combinations together (every digit for a run without a clue).
    pub(super) envelope: u16,
    /// The combinations of its length and clue, as 9-bit masks (bit `d - 1` for digit `d`).
    pub(super) combos: &'static [u16],
}

impl RunSpec {
    /// The run of the table's `run`.
    fn of(run: &TableRun) -> RunSpec {
        // A clue above 45 has no combination at all; neither has a run over 9 cells.
        let total = run.total.map(|t| t.min(u32::from(u8::MAX)) as u8);
        let combos = total.map_or(&[][..], |t| combos::list(run.len as usize, u32::from(t)));
        let envelope = match total {
            Some(_) => combos.iter().fold(0, |e, &combo| e | combo << 1),
            None => ALL_DIGITS,
        };
        RunSpec { start: run.start, len: run.len, total, envelope, combos }
    }
}

/// The runs of a puzzle and which runs each white cell is in.
#[derive(Clone, Debug)]
pub(super) struct Layout<'t> {
    /// Cells of every run (as white-cell numbers), run after run.
    pub(super) run_cells: &'t [u32],
    /// Every run, rows first, then columns.
    pub(super) runs: Vec<RunSpec>,
    /// Per white cell: its across and down run.
    pub(super) cell_runs: &'t [[u32; 2]],
    /// Per white cell, its row-major index in the grid.
    pub(super) white: &'t [u32],
    /// Cells of the grid, black ones included.
    pub(super) size: usize,
    /// Columns of the grid (region sums find rows and columns by them).
    pub(super) cols: usize,
}

impl<'t> Layout<'t> {
    /// The layout of the puzzle with the run table `table` and `size` cells in rows of
    /// `cols`.
    pub(super) fn new(table: &'t RunTable, size: usize, cols: usize) -> Layout<'t> {
        Layout {
            run_cells: &table.cells,
            runs: table.runs.iter().map(RunSpec::of).collect(),
            cell_runs: &table.cell_runs,
            white: &table.white,
            size,
            cols,
        }
    }

    /// The cells of run `r`, in order.
    #[inline]
    pub(super) fn cells(&self, r: usize) -> &'t [u32] {
        let spec = &self.runs[r];
        let start = spec.start as usize;
        &self.run_cells[start..start + spec.len as usize]
    }
}
