//! Checks a filled grid against a puzzle's own clues. Written separately from the model
//! compiler and the solver (it scans the grid itself), so a bug there cannot vouch for its
//! own answer: every solution kakurod reports has passed this check.

use crate::puzzle::{Grid, Kakuro, KakuroCell, Killer, Puzzle};

/// The first rule a grid breaks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("row {row}, column {col}: {rule}")]
pub struct Violation {
    /// 1-based row of the cell where the broken rule is seen.
    pub row: usize,
    /// 1-based column of that cell.
    pub col: usize,
    /// The rule, in words.
    pub rule: String,
}

/// Checks `grid` against every rule of `puzzle`.
pub fn check(puzzle: &Puzzle, grid: &Grid) -> Result<(), Violation> {
    let (rows, cols) = puzzle.size();
    if grid.rows != rows || grid.cols != cols || grid.cells.len() != rows * cols {
        return Err(violation(0, cols, "grid size differs from the puzzle's"));
    }
    match puzzle {
        Puzzle::Kakuro(k) => check_kakuro(k, grid),
        Puzzle::Sudoku(s) => check_sudoku(s.n, s.box_size, &s.givens, grid),
        Puzzle::Killer(k) => check_killer(k, grid),
    }
}

/// `rule`, broken at cell `index` (row-major) of a grid `cols` wide.
fn violation(index: usize, cols: usize, rule: impl Into<String>) -> Violation {
    let cols = cols.max(1);
    Violation { row: index / cols + 1, col: index % cols + 1, rule: rule.into() }
}

fn check_kakuro(k: &Kakuro, grid: &Grid) -> Result<(), Violation> {
    let cols = k.cols;
    for (index, (cell, value)) in k.cells.iter().zip(&grid.cells).enumerate() {
        match (cell, value) {
            (KakuroCell::White, Some(v)) if (1..=9).contains(v) => {}
            (KakuroCell::White, _) => {
                return Err(violation(index, cols, "white cell without a digit 1..9"));
            }
            (KakuroCell::Black { .. }, None) => {}
            (KakuroCell::Black { .. }, Some(_)) => {
                return Err(violation(index, cols, "black cell holds a digit"));
            }
        }
    }
    // Walk right from every clue's cell and down from every clue's cell.
    for (index, cell) in k.cells.iter().enumerate() {
        let KakuroCell::Black { down, right } = *cell else {
            continue;
        };
        let (row, col) = (index / cols, index % cols);
        let white = |&i: &usize| k.cells[i] == KakuroCell::White;
        let right_run = (col + 1..cols).map(|c| row * cols + c).take_while(white);
        check_run(index, right, right_run, grid, cols, "across")?;
        let down_run = (row + 1..k.rows).map(|r| r * cols + col).take_while(white);
        check_run(index, down, down_run, grid, cols, "down")?;
    }
    Ok(())
}

fn check_run(
    clue_cell: usize,
    clue: Option<u32>,
    run: impl Iterator<Item = usize>,
    grid: &Grid,
    cols: usize,
    name: &str,
) -> Result<(), Violation> {
    let (mut sum, mut seen, mut repeated) = (0u32, 0u64, false);
    for digit in run.filter_map(|i| grid.cells[i]) {
        sum += digit;
        repeated |= seen & (1 << digit.min(63)) != 0;
        seen |= 1 << digit.min(63);
    }
    if let Some(total) = clue
        && sum != total
    {
        let rule = format!("{name} run does not sum to {total}");
        return Err(violation(clue_cell, cols, rule));
    }
    if repeated {
        return Err(violation(clue_cell, cols, format!("{name} run repeats a digit")));
    }
    Ok(())
}

/// True when no value repeats (values are small: at most 63).
fn distinct(values: impl Iterator<Item = u32>) -> bool {
    let mut seen = 0u64;
    let mut repeated = false;
    for v in values {
        let bit = 1u64 << v.min(63);
        repeated |= seen & bit != 0;
        seen |= bit;
    }
    !repeated
}

fn check_sudoku(n: usize, box_size: usize, givens: &[u32], grid: &Grid) -> Result<(), Violation> {
    for (index, (&given, value)) in givens.iter().zip(&grid.cells).enumerate() {
        match value {
            Some(v) if (1..=n as u32).contains(v) => {
                if given != 0 && given != *v {
                    return Err(violation(index, n, format!("given {given} was changed")));
                }
            }
            _ => {
                return Err(violation(index, n, format!("cell without a digit 1..{n}")));
            }
        }
    }
    let value = |r: usize, c: usize| grid.cells[r * n + c].unwrap_or(0);
    // Boxes are `box_size` rows by `n / box_size` columns (square unless e.g. a 6x6 Killer).
    let (height, width) = (box_size.max(1), n / box_size.max(1));
    for i in 0..n {
        let (top, left) = ((i / height) * height, (i % height) * width);
        if !distinct((0..n).map(|c| value(i, c))) {
            return Err(violation(i * n, n, "row repeats a digit"));
        }
        if !distinct((0..n).map(|r| value(r, i))) {
            return Err(violation(i, n, "column repeats a digit"));
        }
        if !distinct((0..n).map(|j| value(top + j / width, left + j % width))) {
            return Err(violation(top * n + left, n, "box repeats a digit"));
        }
    }
    Ok(())
}

fn check_killer(k: &Killer, grid: &Grid) -> Result<(), Violation> {
    check_sudoku(k.n, k.box_size, &k.givens, grid)?;
    for cage in &k.cages {
        let digits: Vec<u32> =
            cage.cells.iter().filter_map(|&i| grid.cells.get(i).copied().flatten()).collect();
        let first = cage.cells.first().copied().unwrap_or(0);
        if digits.iter().sum::<u32>() != cage.total {
            return Err(violation(first, k.n, format!("cage does not sum to {}", cage.total)));
        }
        if !distinct(digits.iter().copied()) {
            return Err(violation(first, k.n, "cage repeats a digit"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Sudoku;

    fn tiny_kakuro() -> Kakuro {
        // - 4,   3,
        // ,3 W   W
        // ,4 W   W
        use KakuroCell::*;
        Kakuro {
            rows: 3,
            cols: 3,
            cells: vec![
                Black { down: None, right: None },
                Black { down: Some(4), right: None },
                Black { down: Some(3), right: None },
                Black { down: None, right: Some(3) },
                White,
                White,
                Black { down: None, right: Some(4) },
                White,
                White,
            ],
        }
    }

    #[test]
    fn accepts_a_correct_kakuro_and_names_the_broken_run() {
        let k = tiny_kakuro();
        let good = Grid {
            rows: 3,
            cols: 3,
            cells: vec![None, None, None, None, Some(1), Some(2), None, Some(3), Some(1)],
        };
        assert_eq!(check(&Puzzle::Kakuro(k.clone()), &good), Ok(()));
        let bad = Grid {
            rows: 3,
            cols: 3,
            cells: vec![None, None, None, None, Some(2), Some(1), None, Some(2), Some(2)],
        };
        let err = check(&Puzzle::Kakuro(k), &bad).expect_err("must fail");
        assert!(err.rule.contains("run"), "{err}");
    }

    #[test]
    fn sudoku_given_must_be_kept() {
        let s = Sudoku {
            n: 4,
            box_size: 2,
            givens: vec![1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        };
        let cells = [2, 1, 4, 3, 4, 3, 2, 1, 1, 2, 3, 4, 3, 4, 1, 2].map(Some).to_vec();
        let err = check(&Puzzle::Sudoku(s), &Grid { rows: 4, cols: 4, cells }).expect_err("given");
        assert!(err.rule.contains("given"));
    }
}
