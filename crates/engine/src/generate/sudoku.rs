//! Sudoku (N = k*k, 4x4 to 25x25) with exactly one solution: a random full grid, then
//! givens taken away in random order (a symmetric pair at a time) wherever the puzzle
//! stays unique, until none more can go. Each step is checked by the solver in `unique`
//! mode; a check that runs past its node limit keeps the givens, so every step is proved.
//!
//! For a target grade below expert the check is the grader's logic instead, with the
//! techniques up to that grade: a puzzle it finishes is unique by that proof (as in Simon
//! Tatham's `solo.c`). The finished puzzle must need exactly that grade (the level below
//! gets stuck), else a new grid is drawn; an extreme target (HoDoKu's scale; `expert`
//! reads as `extreme`) keeps the solver's check and draws again until the grade is
//! extreme.

use super::GenError;
use super::Symmetry;
use super::grids::{GridOptions, Prover};
use crate::grade::{self, Difficulty, Scale};
use crate::puzzle::{Puzzle, Sudoku};
use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// The side of the box of a grid of side `n`, when `n` is a square from 4 to 25.
pub fn box_side(n: usize) -> Option<usize> {
    (2..=5).find(|&k| k * k == n)
}

/// A random full Sudoku grid of side `n = k*k` (row-major digits): the pattern grid
/// shuffled by the moves that keep a grid valid (digits relabelled, rows within a band
/// and bands, columns within a stack and stacks, and a transpose).
pub fn full_grid(n: usize, k: usize, rng: &mut ChaCha8Rng) -> Vec<u32> {
    let mut digits: Vec<u32> = (1..=n as u32).collect();
    digits.shuffle(rng);
    let rows = shuffled_lines(k, rng);
    let cols = shuffled_lines(k, rng);
    let transpose = rng.random_bool(0.5);
    let mut grid = vec![0; n * n];
    for (r, &pr) in rows.iter().enumerate() {
        for (c, &pc) in cols.iter().enumerate() {
            let pattern = (k * (pr % k) + pr / k + pc) % n;
            let at = if transpose { c * n + r } else { r * n + c };
            grid[at] = digits[pattern];
        }
    }
    grid
}

/// A random order of the `k*k` rows (or columns) that keeps each band of `k` together.
fn shuffled_lines(k: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let mut bands: Vec<usize> = (0..k).collect();
    bands.shuffle(rng);
    let mut lines = Vec::with_capacity(k * k);
    for band in bands {
        let mut within: Vec<usize> = (0..k).collect();
        within.shuffle(rng);
        lines.extend(within.into_iter().map(|i| band * k + i));
    }
    lines
}

/// The cells that `symmetry` keeps together with `cell` in a grid of side `n`.
fn partner(symmetry: Symmetry, n: usize, cell: usize) -> usize {
    let (r, c) = (cell / n, cell % n);
    match symmetry {
        Symmetry::None => cell,
        Symmetry::Rotational => (n - 1 - r) * n + (n - 1 - c),
        Symmetry::Mirror => r * n + (n - 1 - c),
    }
}

/// Grids drawn for a target grade before it is declared out of reach.
const DRAWS: usize = 2_000;

/// Makes a Sudoku with exactly one solution (of the grade asked, if one is); returns it
/// with its solution and its grade.
pub fn generate(
    options: &GridOptions,
    prover: &mut Prover<'_>,
    rng: &mut ChaCha8Rng,
) -> Result<(Puzzle, Vec<u32>, Difficulty), GenError> {
    // Graded on HoDoKu's scale: `expert` asks for its top, `extreme`.
    let goal = options.difficulty.on(Scale::Sudoku).map_err(GenError::Options)?;
    for _ in 0..DRAWS {
        let (sudoku, solution) = thin_out(options, goal.logic_level(), prover, rng)?;
        // Made with one solution: the uniqueness techniques may grade it.
        let grade = grade::grade_sudoku_known(&sudoku, true).difficulty;
        if goal.accepts(grade) {
            return Ok((Puzzle::Sudoku(sudoku), solution, grade));
        }
    }
    Err(GenError::Options(format!(
        "no {n}x{n} Sudoku{} was found in {DRAWS} draws",
        goal.described(),
        n = options.size
    )))
}

/// Takes givens away from a random full grid while the puzzle stays unique: proved by the
/// logic up to `by_logic` when there is such a level, by the solver otherwise.
fn thin_out(
    options: &GridOptions,
    by_logic: Option<Difficulty>,
    prover: &mut Prover<'_>,
    rng: &mut ChaCha8Rng,
) -> Result<(Sudoku, Vec<u32>), GenError> {
    let n = options.size;
    let k = box_side(n).ok_or_else(|| GenError::Options(super::grids::SIZES.into()))?;
    let solution = full_grid(n, k, rng);
    let mut givens = solution.clone();
    let mut order: Vec<usize> = (0..n * n).collect();
    order.shuffle(rng);
    for cell in order {
        let pair = partner(options.symmetry, n, cell);
        if givens[cell] == 0 {
            continue;
        }
        let kept = (givens[cell], givens[pair]);
        givens[cell] = 0;
        givens[pair] = 0;
        let sudoku = Sudoku { n, box_size: k, givens: givens.clone() };
        let unique = match by_logic {
            Some(level) => {
                prover.poll()?;
                grade::solve_sudoku(&sudoku, level).solved()
            }
            None => prover.unique(&Puzzle::Sudoku(sudoku))?,
        };
        if !unique {
            (givens[cell], givens[pair]) = kept;
        }
    }
    Ok((Sudoku { n, box_size: k, givens }, solution))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn full_grids_are_valid_sudoku_solutions_at_every_size() {
        for n in [4, 9, 16, 25] {
            let k = box_side(n).unwrap();
            let grid = full_grid(n, k, &mut ChaCha8Rng::seed_from_u64(n as u64));
            for unit in Sudoku::units(n, k) {
                let mut seen: Vec<u32> = unit.iter().map(|&c| grid[c]).collect();
                seen.sort_unstable();
                assert_eq!(seen, (1..=n as u32).collect::<Vec<_>>(), "side {n}");
            }
        }
    }

    #[test]
    fn partners_keep_the_symmetry() {
        assert_eq!(partner(Symmetry::Rotational, 9, 0), 80);
        assert_eq!(partner(Symmetry::Mirror, 9, 10), 16);
        assert_eq!(partner(Symmetry::None, 9, 10), 10);
    }
}
