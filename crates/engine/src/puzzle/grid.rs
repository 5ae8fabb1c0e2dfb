//! A solved (or partly filled) grid: a value or nothing for every cell, row-major.

use serde::Serialize;
use std::fmt;

/// The orthogonal neighbours of `cell` in a `rows` x `cols` grid numbered row by row:
/// up, down, left, right, those inside the grid.
pub fn neighbours(cell: usize, rows: usize, cols: usize) -> impl Iterator<Item = usize> {
    let (row, col) = (cell / cols, cell % cols);
    [
        (row > 0).then(|| cell - cols),
        (row + 1 < rows).then(|| cell + cols),
        (col > 0).then(|| cell - 1),
        (col + 1 < cols).then(|| cell + 1),
    ]
    .into_iter()
    .flatten()
}

/// A rectangular grid of optional values; `None` marks a cell that holds no digit (a black
/// Kakuro cell).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Grid {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
    /// Row-major cells.
    pub cells: Vec<Option<u32>>,
}

impl Grid {
    /// A grid with every cell empty.
    pub fn blank(rows: usize, cols: usize) -> Grid {
        Grid { rows, cols, cells: vec![None; rows * cols] }
    }

    /// The value at `(row, col)`.
    pub fn get(&self, row: usize, col: usize) -> Option<u32> {
        self.cells[row * self.cols + col]
    }

    /// The rows of the grid, top to bottom.
    pub fn rows(&self) -> impl Iterator<Item = &[Option<u32>]> {
        self.cells.chunks(self.cols.max(1))
    }
}

/// The `.sol` layout: `R C`, then one line per row with `-` for a cell without a digit and
/// the digit otherwise, separated by single spaces.
impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} {}", self.rows, self.cols)?;
        for row in self.rows() {
            let mut first = true;
            for cell in row {
                if !first {
                    f.write_str(" ")?;
                }
                first = false;
                match cell {
                    Some(v) => write!(f, "{v}")?,
                    None => f.write_str("-")?,
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
