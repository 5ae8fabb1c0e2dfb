//! A player's progress for `kakurod hint --progress`: a partly filled grid in the layout
//! of a solution (`R C`, then rows of digits and `-`), checked against the puzzle before
//! any hint is given: its size, each digit's range and cell, and each digit against the
//! verified solution, so that a wrong digit is named with its cell, never explained around.

use super::cell_name;
use crate::format::InputError;
use crate::format::solution::read_placed;
use crate::puzzle::{Grid, KakuroCell, Puzzle};

/// The progress in `text` for `puzzle`, whose solution is `solution`.
pub fn read(text: &str, puzzle: &Puzzle, solution: &Grid) -> Result<Grid, InputError> {
    let placed = read_placed(text)?;
    let grid = &placed.grid;
    let (rows, cols) = puzzle.size();
    if (grid.rows, grid.cols) != (rows, cols) {
        return Err(InputError::whole_file(
            format!("the grid is {}x{}, the puzzle {rows}x{cols}", grid.rows, grid.cols),
            format!("a grid of {rows} rows and {cols} columns"),
        ));
    }
    let (largest, givens) = match puzzle {
        Puzzle::Kakuro(_) => (9, None),
        Puzzle::Sudoku(s) => (s.n as u32, Some(&s.givens)),
        Puzzle::Killer(k) => (k.n as u32, Some(&k.givens)),
    };
    for (cell, digit) in grid.cells.iter().enumerate() {
        let Some(digit) = *digit else { continue };
        let name = cell_name(cell, cols);
        if !(1..=largest).contains(&digit) {
            let message = format!("{digit} in {name} is not a digit of this puzzle");
            return Err(placed.error_at(
                cell,
                message,
                &format!("a digit from 1 to {largest}, or `-`"),
            ));
        }
        if let Puzzle::Kakuro(k) = puzzle
            && matches!(k.cells.get(cell), Some(KakuroCell::Black { .. }))
        {
            return Err(placed.error_at(
                cell,
                format!("{name} is a clue cell"),
                "`-` in a clue cell",
            ));
        }
        let given = givens.and_then(|g| g.get(cell)).copied().filter(|&g| g != 0);
        if given.is_some_and(|g| g != digit) {
            let message = format!("{name} is given as {}, not {digit}", given.unwrap_or(0));
            return Err(placed.error_at(cell, message, "the given digit, or `-`"));
        }
        if solution.cells.get(cell).copied().flatten() != Some(digit) {
            let message =
                format!("{digit} in {name} is wrong: the puzzle's solution differs there");
            return Err(placed.error_at(cell, message, "a digit of the solution, or `-`"));
        }
    }
    Ok(placed.grid.clone())
}
