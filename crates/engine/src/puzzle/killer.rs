//! Killer Sudoku: a Sudoku whose cages carry a sum; the digits of a cage are distinct and
//! add up to its sum.

use super::Compiled;
use super::sudoku::compile_grid;

/// A cage: a set of cells whose distinct digits sum to `total`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cage {
    /// The required sum.
    pub total: u32,
    /// Row-major cell indices, in increasing order.
    pub cells: Vec<usize>,
}

/// A Killer Sudoku puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Killer {
    /// Side of the grid.
    pub n: usize,
    /// Rows of a box; a box is `box_size` rows by `n / box_size` columns (2x3 in a 6x6).
    pub box_size: usize,
    /// The cages; together they need not cover every cell.
    pub cages: Vec<Cage>,
    /// Row-major givens (0 = blank); usually all blank.
    pub givens: Vec<u32>,
}

impl Killer {
    /// The Sudoku rules plus, per cage, `Sum` and `AllDifferent` over its cells.
    pub fn compile(&self) -> Compiled {
        let mut compiled = compile_grid(self.n, self.box_size, &self.givens);
        for cage in &self.cages {
            compiled.model.sum(cage.cells.clone(), cage.total);
            if cage.cells.len() > 1 {
                compiled.model.all_different(cage.cells.clone());
            }
        }
        compiled
    }
}
