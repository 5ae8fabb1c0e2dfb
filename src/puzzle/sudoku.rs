//! Sudoku of any size N = k*k: every row, column and k x k box holds 1..N once.

use super::Compiled;
use crate::model::Model;
use crate::solver::domain::Domain;

/// A Sudoku puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sudoku {
    /// Side of the grid (4, 9, 16, 25).
    pub n: usize,
    /// Side of a box (`box_size * box_size == n`).
    pub box_size: usize,
    /// Row-major givens; 0 is a blank cell.
    pub givens: Vec<u32>,
}

impl Sudoku {
    /// The rows, columns and boxes, each as row-major cell indices.
    pub fn units(n: usize, box_size: usize) -> Vec<Vec<usize>> {
        let mut units = Vec::with_capacity(3 * n);
        for r in 0..n {
            units.push((0..n).map(|c| r * n + c).collect());
        }
        for c in 0..n {
            units.push((0..n).map(|r| r * n + c).collect());
        }
        for b in 0..n {
            let (top, left) = ((b / box_size) * box_size, (b % box_size) * box_size);
            units.push((0..n).map(|i| (top + i / box_size) * n + left + i % box_size).collect());
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
    for &given in givens {
        let domain = if given == 0 { Domain::range(1, n as u32) } else { Domain::single(given) };
        model.new_var(domain);
    }
    for unit in Sudoku::units(n, box_size) {
        model.all_different(unit);
    }
    Compiled { model, cell_of_var: (0..n * n).collect() }
}
