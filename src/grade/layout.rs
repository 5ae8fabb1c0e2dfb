//! The runs of a puzzle as the logic solver sees them, built once per solve.
//!
//! Cells are numbered by their rank among the white cells (row-major), so that the
//! solver's state is a dense array and a run's cells are small indices into it.

use super::masks::ALL_DIGITS;
use crate::puzzle::{Kakuro, KakuroCell};
use crate::solver::combos;

/// A black cell's entry in [`Layout::new`]'s map from grid cells to white cells.
const BLACK: u32 = u32::MAX;

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

/// The runs of a puzzle and which runs each white cell is in.
#[derive(Clone, Debug)]
pub(super) struct Layout {
    /// Cells of every run (as white-cell numbers), run after run.
    pub(super) run_cells: Vec<u32>,
    /// Every run, rows first, then columns.
    pub(super) runs: Vec<RunSpec>,
    /// Per white cell: its across and down run (every white cell has both, if only of one
    /// cell).
    pub(super) cell_runs: Vec<[u32; 2]>,
    /// Per white cell, its row-major index in the grid.
    pub(super) white: Vec<u32>,
    /// Cells of the grid, black ones included.
    pub(super) size: usize,
}

impl Layout {
    /// The layout of `puzzle`: runs across, row by row, then down, column by column. A
    /// run's clue is in the black cell before it; a cell missing from a short `cells`
    /// counts as black without a clue.
    pub(super) fn new(puzzle: &Kakuro) -> Layout {
        let (rows, cols) = (puzzle.rows, puzzle.cols);
        let grid = rows.saturating_mul(cols).min(puzzle.cells.len());
        let cells = &puzzle.cells[..grid];
        // Each run's first cell in `run_cells` and its clue; the lengths follow at the end.
        let mut starts: Vec<(u32, Option<u32>)> = Vec::with_capacity(grid);
        let mut run_cells = Vec::with_capacity(2 * grid);
        let mut cell_runs = Vec::with_capacity(grid);
        let mut white = Vec::with_capacity(grid);
        let mut rank = vec![BLACK; grid];
        for (row, line) in cells.chunks(cols.max(1)).enumerate() {
            let (mut clue, mut open) = (None, false);
            for (col, kind) in line.iter().enumerate() {
                if let KakuroCell::Black { right, .. } = *kind {
                    (clue, open) = (right, false);
                    continue;
                }
                if !open {
                    starts.push((run_cells.len() as u32, clue));
                    open = true;
                }
                let cell = row * cols + col;
                rank[cell] = white.len() as u32;
                run_cells.push(white.len() as u32);
                cell_runs.push([starts.len() as u32 - 1, 0]);
                white.push(cell as u32);
            }
        }
        for col in 0..cols.min(grid) {
            let (mut clue, mut open) = (None, false);
            for (cell, &rank) in rank.iter().enumerate().skip(col).step_by(cols) {
                let Some(runs) = cell_runs.get_mut(rank as usize) else {
                    clue = match cells.get(cell) {
                        Some(&KakuroCell::Black { down, .. }) => down,
                        _ => None,
                    };
                    open = false;
                    continue;
                };
                if !open {
                    starts.push((run_cells.len() as u32, clue));
                    open = true;
                }
                runs[1] = starts.len() as u32 - 1;
                run_cells.push(rank);
            }
        }
        let ends = starts.iter().skip(1).map(|&(start, _)| start).chain([run_cells.len() as u32]);
        let runs = starts.iter().zip(ends).map(|(&(start, clue), end)| run(start, end, clue));
        Layout { runs: runs.collect(), run_cells, cell_runs, white, size: puzzle.cells.len() }
    }

    /// The cells of run `r`, in order.
    #[inline]
    pub(super) fn cells(&self, r: usize) -> &[u32] {
        let spec = &self.runs[r];
        let start = spec.start as usize;
        &self.run_cells[start..start + spec.len as usize]
    }
}

/// The run of the cells from `start` to `end` in [`Layout::run_cells`] with the clue
/// `clue`.
fn run(start: u32, end: u32, clue: Option<u32>) -> RunSpec {
    let len = end - start;
    // A clue above 45 has no combination at all; neither has a run over 9 cells.
    let total = clue.map(|t| t.min(u32::from(u8::MAX)) as u8);
    let combos = total.map_or(&[][..], |t| combos::list(len as usize, u32::from(t)));
    let envelope = match total {
        Some(_) => combos.iter().fold(0, |e, &combo| e | combo << 1),
        None => ALL_DIGITS,
    };
    RunSpec { start, len, total, envelope, combos }
}
