//! Sudoku of any size N = k*k: every row, column and k x k box holds 1..N once.

use super::Compiled;
use crate::model::Domain;
use crate::model::Model;

/// A Sudoku puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sudoku {
    /// Side of the grid (4, 9, 16, 25).
    pub n: usize,
    /// Rows of a box; a box is `box_size` rows by `n / box_size` columns (square boxes,
    /// `box_size * box_size == n`, for a Sudoku; Killer grids such as 6x6 use 2x3 boxes).
    pub box_size: usize,
    /// Row-major givens; 0 is a blank cell.
    pub givens: Vec<u32>,
}

impl Sudoku {
    /// The rows, columns and boxes, each as row-major cell indices. Boxes are `box_size`
    /// rows by `n / box_size` columns.
    pub fn units(n: usize, box_size: usize) -> Vec<Vec<usize>> {
        let (height, width) = (box_size.max(1), n / box_size.max(1));
        let mut units = Vec::with_capacity(3 * n);
        for r in 0..n {
            units.push((0..n).map(|c| r * n + c).collect());
        }
        for c in 0..n {
            units.push((0..n).map(|r| r * n + c).collect());
        }
        for b in 0..n {
            let (top, left) = ((b / height) * height, (b % height) * width);
            // Row by row, without a division per cell.
            let mut cells = Vec::with_capacity(n);
            for row in top..top + height {
                cells.extend(row * n + left..row * n + left + width);
            }
            units.push(cells);
        }
        units
    }

    /// One variable per cell (domain 1..N, or the given), `AllDifferent` per unit.
    pub fn compile(&self) -> Compiled {
        compile_grid(self.n, self.box_size, &self.givens)
    }
}

/// The Sudoku part shared with Killer Sudoku.
pub(crate) fn compile_grid(n: usize, box_size: usize, givens: &[u32]) -> Compiled {
    let mut model = Model::default();
    model.domains.reserve(givens.len());
    model.constraints.reserve(3 * n);
    for &given in givens {
        let domain = if given == 0 { Domain::range(1, n as u32) } else { Domain::single(given) };
        model.new_var(domain);
    }
    for unit in Sudoku::units(n, box_size) {
        model.all_different(unit);
    }
    Compiled { model, cell_of_var: (0..n * n).collect(), runs: None }
}
