//! Well-formedness rules of each puzzle kind, checked before solving: clues that distinct
//! digits cannot reach, runs without clues, clue cells pointing at nothing, non-square
//! Sudoku sizes, givens out of range or clashing, cages that are not connected.
//!
//! The rules speak of grid cells, not of text: an [`Invalid`] names a row-major cell and the
//! [`Aspect`] of that cell at fault, and each reader in `format` maps it back to the token of
//! its own file, so the same rule gives a precise line and column in every format.

use super::grid::neighbours;
use super::{Kakuro, KakuroCell, Killer, Sudoku};

/// Which part of a cell a broken rule is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aspect {
    /// The clue of the run to the right of the cell.
    RightClue,
    /// The clue of the run below the cell.
    DownClue,
    /// The cell itself (a white cell, a given).
    Cell,
    /// The sum of the cage with this index in [`Killer::cages`].
    CageSum(usize),
    /// The cell's place in the cage with this index in [`Killer::cages`].
    CageCell(usize),
}

/// A broken rule, placed on one grid cell.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message} (expected {expected})")]
pub struct Invalid {
    /// Row-major index of the cell at fault.
    pub cell: usize,
    /// Which part of that cell is at fault.
    pub aspect: Aspect,
    /// What is wrong.
    pub message: String,
    /// What was expected instead.
    pub expected: String,
}

/// Smallest Sudoku side accepted. Smaller grids (1x1) have no meaningful boxes.
pub const MIN_SIDE: usize = 4;
/// Largest Sudoku or Killer side accepted (digits 1..25, boxes of 5x5).
pub const MAX_SIDE: usize = 25;

/// The smallest and largest sums of `len` distinct digits from `1..=max_digit`, or `None`
/// when there are not that many distinct digits. Every sum between the two is reachable
/// (swap one digit for its successor at a time), so this range is the exact answer.
pub fn sum_range(len: usize, max_digit: u32) -> Option<(u32, u32)> {
    let len = u32::try_from(len).ok()?;
    if len == 0 || len > max_digit {
        return None;
    }
    let low = len * (len + 1) / 2;
    let high = len * (2 * max_digit - len + 1) / 2;
    Some((low, high))
}

/// Box height of a Sudoku of side `n`: `n` must be `k*k` with `MIN_SIDE <= n <= MAX_SIDE`.
pub fn sudoku_box(n: usize) -> Result<usize, String> {
    let k = (1..=5).find(|k| k * k == n);
    match k {
        Some(k) if (MIN_SIDE..=MAX_SIDE).contains(&n) => Ok(k),
        _ => Err(format!("a Sudoku of side {n} has no square boxes")),
    }
}

/// Box height of a Killer Sudoku of side `n`: square boxes when `n = k*k`, otherwise the
/// usual rectangles (2x3 for 6, 2x4 for 8, 3x4 for 12): the tallest box height `h >= 2`
/// with `h*h <= n` that divides `n`. Prime sides have no boxes and are refused.
pub fn killer_box(n: usize) -> Result<usize, String> {
    if !(MIN_SIDE..=MAX_SIDE).contains(&n) {
        return Err(format!("a Killer Sudoku of side {n} is outside {MIN_SIDE}..{MAX_SIDE}"));
    }
    (2..=5)
        .rev()
        .find(|h| h * h <= n && n.is_multiple_of(*h))
        .ok_or_else(|| format!("a Killer Sudoku of side {n} cannot be cut into boxes"))
}

/// Checks every Kakuro rule, in row-major order of the cells, so the first error is the
/// first one in the file.
pub fn kakuro(k: &Kakuro) -> Result<(), Invalid> {
    if k.rows.checked_mul(k.cols) != Some(k.cells.len()) {
        return Err(shape(format!("{} cells in a {}x{} grid", k.cells.len(), k.rows, k.cols)));
    }
    // Nested loops rather than `index / cols`: this runs for every puzzle of a batch.
    for row in 0..k.rows {
        for col in 0..k.cols {
            let index = row * k.cols + col;
            match k.cells[index] {
                KakuroCell::Black { down, right } => {
                    let across = run_length(k, index, 1, k.cols - 1 - col);
                    check_clue(index, right, across, Aspect::RightClue)?;
                    let below = run_length(k, index, k.cols, k.rows - 1 - row);
                    check_clue(index, down, below, Aspect::DownClue)?;
                }
                KakuroCell::White => {
                    // Runs that start at the grid's edge have no cell to hold a clue.
                    if col == 0 {
                        let len = 1 + run_length(k, index, 1, k.cols - 1);
                        edge_run(index, len, "to the right")?;
                    }
                    if row == 0 {
                        let len = 1 + run_length(k, index, k.cols, k.rows - 1);
                        edge_run(index, len, "downwards")?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// A puzzle value whose parts do not fit together (only a reader bug builds one).
fn shape(message: String) -> Invalid {
    Invalid { cell: 0, aspect: Aspect::Cell, message, expected: "a consistent grid".into() }
}

/// Number of white cells after `index`, stepping by `step`, at most `room` steps.
fn run_length(k: &Kakuro, index: usize, step: usize, room: usize) -> usize {
    (1..=room).take_while(|i| k.cells.get(index + i * step) == Some(&KakuroCell::White)).count()
}

#[inline]
fn check_clue(index: usize, clue: Option<u32>, len: usize, aspect: Aspect) -> Result<(), Invalid> {
    // The common case first, without building any message.
    if let Some(total) = clue
        && let Some((low, high)) = sum_range(len, 9)
        && (low..=high).contains(&total)
    {
        return Ok(());
    }
    if clue.is_none() && len < 2 {
        return Ok(());
    }
    clue_error(index, clue, len, aspect)
}

#[cold]
#[inline(never)]
fn clue_error(index: usize, clue: Option<u32>, len: usize, aspect: Aspect) -> Result<(), Invalid> {
    let way = if aspect == Aspect::RightClue { "to the right" } else { "downwards" };
    let fail =
        |message: String, expected: String| Invalid { cell: index, aspect, message, expected };
    match clue {
        None if len >= 2 => Err(fail(
            format!("the run of {len} white cells {way} has no clue"),
            "a clue before every run of two or more white cells".into(),
        )),
        None => Ok(()),
        Some(total) if len == 0 => Err(fail(
            format!("clue {total} points at no white cell {way}"),
            "a white cell next to every clue".into(),
        )),
        Some(total) => match sum_range(len, 9) {
            None => Err(fail(
                format!("the run of {len} white cells {way} is longer than 9"),
                "runs of at most 9 cells".into(),
            )),
            Some((low, high)) if !(low..=high).contains(&total) => Err(fail(
                format!("clue {total} cannot be made of {len} distinct digits 1..9"),
                format!("a sum from {low} to {high} for {len} cells"),
            )),
            Some(_) => Ok(()),
        },
    }
}

fn edge_run(index: usize, len: usize, way: &str) -> Result<(), Invalid> {
    if len < 2 {
        return Ok(());
    }
    Err(Invalid {
        cell: index,
        aspect: Aspect::Cell,
        message: format!("the run of {len} white cells {way} from the grid's edge has no clue"),
        expected: "a clue cell before every run of two or more white cells".into(),
    })
}

/// Checks a Sudoku's givens: each in `0..=n`, none repeated in a row, column or box.
pub fn sudoku(s: &Sudoku) -> Result<(), Invalid> {
    givens(s.n, s.box_size, &s.givens)
}

/// The givens rules shared by Sudoku and Killer Sudoku. `box_size` is the box height.
pub fn givens(n: usize, box_size: usize, givens: &[u32]) -> Result<(), Invalid> {
    if n.checked_mul(n) != Some(givens.len()) || box_size == 0 || !n.is_multiple_of(box_size) {
        let message = format!("{} givens, side {n}, boxes of {box_size} rows", givens.len());
        return Err(shape(message));
    }
    let (height, width) = (box_size, n / box_size);
    // The units of a cell, as the loop below counts them along (only an error looks up).
    let units_of = |index: usize| {
        let (row, col) = (index / n, index % n);
        [row, n + col, 2 * n + (row / height) * height + col / width]
    };
    // seen[unit * words + value / 64]: the values given in each unit, as bits.
    let words = n / 64 + 1;
    let mut seen = vec![0u64; 3 * n * words];
    let mut given = |index: usize, value: u32, units: [usize; 3]| {
        let v = value as usize;
        if v > n {
            return Err(Invalid {
                cell: index,
                aspect: Aspect::Cell,
                message: format!("given {value} is out of range"),
                expected: format!("a digit 1..{n}, or a blank"),
            });
        }
        if v == 0 {
            return Ok(());
        }
        for (unit, name) in units.into_iter().zip(["row", "column", "box"]) {
            let (word, bit) = (unit * words + v / 64, 1 << (v % 64));
            if seen[word] & bit != 0 {
                let other = (0..index)
                    .find(|&i| givens[i] == value && units_of(i).contains(&unit))
                    .unwrap_or(index);
                return Err(Invalid {
                    cell: index,
                    aspect: Aspect::Cell,
                    message: format!(
                        "given {value} repeats in its {name} (also at row {}, column {})",
                        other / n + 1,
                        other % n + 1
                    ),
                    expected: "each digit at most once per row, column and box".into(),
                });
            }
            seen[word] |= bit;
        }
        Ok(())
    };
    // Rows, then the stacks of boxes within a row: no division for each given.
    for (row, line) in givens.chunks_exact(n).enumerate() {
        let band = row / height * height;
        for (stack, cells) in line.chunks_exact(width).enumerate() {
            for (k, &value) in cells.iter().enumerate() {
                let col = stack * width + k;
                given(row * n + col, value, [row, n + col, 2 * n + band + stack])?;
            }
        }
    }
    Ok(())
}

/// Checks a Killer Sudoku: its givens, and for every cage that its cells are on the grid,
/// in no other cage, orthogonally connected, and that its sum is reachable by distinct
/// digits 1..N.
pub fn killer(k: &Killer) -> Result<(), Invalid> {
    givens(k.n, k.box_size, &k.givens)?;
    let cells = k.n * k.n;
    let mut owner = vec![usize::MAX; cells];
    for (id, cage) in k.cages.iter().enumerate() {
        let at = |cell: usize, message: String, expected: &str| Invalid {
            cell,
            aspect: Aspect::CageCell(id),
            message,
            expected: expected.into(),
        };
        for &cell in &cage.cells {
            match owner.get(cell) {
                None => {
                    return Err(at(
                        0,
                        format!("cage cell {cell} is off the grid"),
                        "cells on the grid",
                    ));
                }
                Some(&o) if o != usize::MAX => {
                    let message = if o == id {
                        "cell is listed twice in its cage"
                    } else {
                        "cell is in two cages"
                    };
                    return Err(at(cell, message.into(), "each cell in at most one cage, once"));
                }
                Some(_) => owner[cell] = id,
            }
        }
        if let Some(cell) = disconnected(k.n, &owner, id, &cage.cells) {
            return Err(at(cell, "cage is not connected".into(), "cage cells joined side by side"));
        }
        let first = cage.cells.first().copied().unwrap_or(0);
        let range = sum_range(cage.cells.len(), k.n as u32);
        if !range.is_some_and(|(low, high)| (low..=high).contains(&cage.total)) {
            let expected = match range {
                Some((low, high)) => {
                    format!("a sum from {low} to {high} for {} cells", cage.cells.len())
                }
                None => format!("at most {} cells in a cage", k.n),
            };
            return Err(Invalid {
                cell: first,
                aspect: Aspect::CageSum(id),
                message: format!(
                    "cage sum {} cannot be made of {} distinct digits 1..{}",
                    cage.total,
                    cage.cells.len(),
                    k.n
                ),
                expected,
            });
        }
    }
    Ok(())
}

/// The first cell of the cage (in its listed order) that a flood fill from its first cell
/// does not reach, if any.
fn disconnected(n: usize, owner: &[usize], id: usize, cells: &[usize]) -> Option<usize> {
    let start = *cells.first()?;
    let mut seen = vec![start];
    let mut stack = vec![start];
    while let Some(cell) = stack.pop() {
        for next in neighbours(cell, n, n) {
            if owner.get(next) == Some(&id) && !seen.contains(&next) {
                seen.push(next);
                stack.push(next);
            }
        }
    }
    cells.iter().copied().find(|c| !seen.contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Cage;

    fn kakuro_of(rows: usize, cols: usize, cells: Vec<KakuroCell>) -> Kakuro {
        Kakuro { rows, cols, cells }
    }

    const B: KakuroCell = KakuroCell::Black { down: None, right: None };
    const W: KakuroCell = KakuroCell::White;
    fn clue(down: Option<u32>, right: Option<u32>) -> KakuroCell {
        KakuroCell::Black { down, right }
    }

    #[test]
    fn sum_ranges_match_distinct_digit_bounds() {
        assert_eq!(sum_range(1, 9), Some((1, 9)));
        assert_eq!(sum_range(2, 9), Some((3, 17)));
        assert_eq!(sum_range(9, 9), Some((45, 45)));
        assert_eq!(sum_range(10, 9), None);
        assert_eq!(sum_range(0, 9), None);
        assert_eq!(sum_range(6, 6), Some((21, 21)));
    }

    #[test]
    fn box_shapes() {
        assert_eq!(sudoku_box(9), Ok(3));
        assert_eq!(sudoku_box(25), Ok(5));
        assert!(sudoku_box(1).is_err());
        assert!(sudoku_box(6).is_err());
        assert!(sudoku_box(36).is_err());
        assert_eq!(killer_box(6), Ok(2));
        assert_eq!(killer_box(12), Ok(3));
        assert_eq!(killer_box(16), Ok(4));
        assert!(killer_box(7).is_err());
        assert!(killer_box(3).is_err());
    }

    #[test]
    fn a_valid_kakuro_passes() {
        // - 3, 4,   /  ,3 0 0  / ,4 0 0  -> 1 2 / 2 ... sums reachable
        let k = kakuro_of(
            3,
            3,
            vec![
                B,
                clue(Some(3), None),
                clue(Some(4), None),
                clue(None, Some(3)),
                W,
                W,
                clue(None, Some(4)),
                W,
                W,
            ],
        );
        assert_eq!(kakuro(&k), Ok(()));
    }

    #[test]
    fn unreachable_clue_is_named() {
        let k = kakuro_of(1, 4, vec![clue(None, Some(3)), W, W, W]);
        let err = kakuro(&k).unwrap_err();
        assert_eq!((err.cell, err.aspect), (0, Aspect::RightClue));
        assert!(err.message.contains("clue 3"), "{}", err.message);
        assert_eq!(err.expected, "a sum from 6 to 24 for 3 cells");
    }

    #[test]
    fn clue_pointing_at_nothing_is_refused() {
        let k = kakuro_of(2, 2, vec![clue(Some(5), Some(5)), B, W, B]);
        let err = kakuro(&k).unwrap_err();
        assert_eq!((err.cell, err.aspect), (0, Aspect::RightClue));
        assert!(err.message.contains("points at no white cell"));
    }

    #[test]
    fn run_without_clue_is_refused_at_the_black_cell_or_edge() {
        let k = kakuro_of(1, 3, vec![B, W, W]);
        let err = kakuro(&k).unwrap_err();
        assert_eq!((err.cell, err.aspect), (0, Aspect::RightClue));
        assert!(err.message.contains("has no clue"));
        let k = kakuro_of(1, 2, vec![W, W]);
        let err = kakuro(&k).unwrap_err();
        assert_eq!((err.cell, err.aspect), (0, Aspect::Cell));
    }

    #[test]
    fn lone_cell_needs_no_clue_but_a_clue_fixes_it() {
        let k = kakuro_of(1, 2, vec![B, W]);
        assert_eq!(kakuro(&k), Ok(()));
        let k = kakuro_of(1, 2, vec![clue(None, Some(10)), W]);
        assert_eq!(kakuro(&k).unwrap_err().expected, "a sum from 1 to 9 for 1 cells");
    }

    #[test]
    fn givens_out_of_range_and_clashing() {
        let mut g = vec![0u32; 16];
        g[5] = 5;
        let err = givens(4, 2, &g).unwrap_err();
        assert_eq!((err.cell, err.aspect), (5, Aspect::Cell));
        let mut g = vec![0u32; 16];
        g[0] = 1;
        g[5] = 1; // same 2x2 box
        let err = givens(4, 2, &g).unwrap_err();
        assert_eq!(err.cell, 5);
        assert!(err.message.contains("box") && err.message.contains("row 1, column 1"));
    }

    #[test]
    fn two_equal_givens_clash_exactly_when_they_share_a_unit() {
        for (n, height) in [(4, 2), (6, 2), (9, 3)] {
            let width = n / height;
            let units =
                |i: usize| [i / n, n + i % n, 2 * n + i / n / height * height + i % n / width];
            for i in 0..n * n {
                for j in i + 1..n * n {
                    let mut g = vec![0u32; n * n];
                    (g[i], g[j]) = (1, 1);
                    let share = units(i).iter().zip(units(j)).any(|(a, b)| *a == b);
                    assert_eq!(givens(n, height, &g).is_err(), share, "{n}x{n}: cells {i} and {j}");
                }
            }
        }
    }

    #[test]
    fn rectangular_boxes_of_a_six_by_six() {
        // Cells (0,0) and (1,2) share a 2x3 box; (0,0) and (2,1) do not.
        let mut g = vec![0u32; 36];
        g[0] = 4;
        g[2 * 6 + 1] = 4;
        assert_eq!(givens(6, 2, &g), Ok(()));
        g[6 + 2] = 4;
        assert!(givens(6, 2, &g).unwrap_err().message.contains("box"));
    }

    fn killer_of(cages: Vec<Cage>) -> Killer {
        Killer { n: 4, box_size: 2, cages, givens: vec![0; 16] }
    }

    #[test]
    fn killer_cages_must_be_connected_and_reachable() {
        let ok = killer_of(vec![Cage { total: 3, cells: vec![0, 1] }]);
        assert_eq!(killer(&ok), Ok(()));
        let split = killer_of(vec![Cage { total: 3, cells: vec![0, 2] }]);
        let err = killer(&split).unwrap_err();
        assert_eq!((err.cell, err.aspect), (2, Aspect::CageCell(0)));
        let too_big = killer_of(vec![Cage { total: 8, cells: vec![0, 1] }]);
        let err = killer(&too_big).unwrap_err();
        assert_eq!((err.cell, err.aspect), (0, Aspect::CageSum(0)));
        assert_eq!(err.expected, "a sum from 3 to 7 for 2 cells");
        let twice = killer_of(vec![
            Cage { total: 3, cells: vec![0, 1] },
            Cage { total: 3, cells: vec![1, 5] },
        ]);
        assert_eq!(killer(&twice).unwrap_err().aspect, Aspect::CageCell(1));
    }
}
