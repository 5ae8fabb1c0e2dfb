//! The puzzle kinds kakurod solves. Each kind knows its own rules: it builds a [`Model`]
//! for the solver, turns the solver's values back into a [`Grid`], and checks its own
//! well-formedness (`validate`, in [`validate`]).

pub mod grid;
pub mod kakuro;
pub mod killer;
pub mod runs;
pub mod sudoku;
pub mod validate;

pub use grid::Grid;
pub use kakuro::{Direction, Kakuro, KakuroCell, Run};
pub use killer::{Cage, Killer};
pub use runs::{RunTable, TableRun};
pub use sudoku::Sudoku;

use crate::model::{Model, VarId};
use serde::{Deserialize, Serialize};

/// The three puzzle kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Cross sums.
    Kakuro,
    /// Classic Sudoku, N = k*k.
    Sudoku,
    /// Sudoku with summed cages.
    Killer,
}

impl Kind {
    /// Lower-case name, as used in reports and logs.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Kakuro => "kakuro",
            Kind::Sudoku => "sudoku",
            Kind::Killer => "killer",
        }
    }
}

/// One puzzle of any kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Puzzle {
    /// A Kakuro.
    Kakuro(Kakuro),
    /// A Sudoku.
    Sudoku(Sudoku),
    /// A Killer Sudoku.
    Killer(Killer),
}

/// A puzzle compiled for the solver: the model and, for each variable, the grid cell
/// (row-major index) it stands for.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The constraint model.
    pub model: Model,
    /// `cell_of_var[v]` is the row-major grid index of variable `v`.
    pub cell_of_var: Vec<usize>,
    /// A Kakuro's runs, kept so that grading a solved Kakuro does not find them again.
    pub runs: Option<RunTable>,
}

impl Puzzle {
    /// The kind of this puzzle.
    pub fn kind(&self) -> Kind {
        match self {
            Puzzle::Kakuro(_) => Kind::Kakuro,
            Puzzle::Sudoku(_) => Kind::Sudoku,
            Puzzle::Killer(_) => Kind::Killer,
        }
    }

    /// Rows and columns of the grid.
    pub fn size(&self) -> (usize, usize) {
        match self {
            Puzzle::Kakuro(k) => (k.rows, k.cols),
            Puzzle::Sudoku(s) => (s.n, s.n),
            Puzzle::Killer(k) => (k.n, k.n),
        }
    }

    /// Builds the constraint model.
    pub fn compile(&self) -> Compiled {
        match self {
            Puzzle::Kakuro(k) => k.compile(),
            Puzzle::Sudoku(s) => s.compile(),
            Puzzle::Killer(k) => k.compile(),
        }
    }

    /// Puts solver values (one per variable of [`Puzzle::compile`]'s model) into a grid.
    pub fn grid_from_values(&self, compiled: &Compiled, values: &[u32]) -> Grid {
        let (rows, cols) = self.size();
        let mut grid = Grid::blank(rows, cols);
        for (var, &value) in values.iter().enumerate() {
            let cell: usize = compiled.cell_of_var[var as VarId];
            grid.cells[cell] = Some(value);
        }
        grid
    }
}

/// The character of a cell's value in the line format and every other format that writes
/// one character a cell: `1`-`9`, then `A`-`Z` for 10 to 35, `.` for none.
pub fn value_char(value: u32) -> char {
    match value {
        1..=9 => char::from(b'0' + value as u8),
        10..=35 => char::from(b'A' + (value - 10) as u8),
        _ => '.',
    }
}
