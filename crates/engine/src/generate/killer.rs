//! Killer Sudoku with exactly one solution and no given digit: a random full grid cut into
//! random connected cages of 2 to 5 cells with distinct digits, whose sums are the clues
//! (a cell left with no room joins a neighbouring cage where it can).
//! While the solver finds a second solution, a cage holding a cell where the two differ
//! is split (the cell leaves it, and what is left falls into its connected parts), so the
//! other solution breaks; a check that settles nothing within its node limit splits a
//! largest cage. Every split adds a clue, so the loop ends.

use super::GenError;
use super::grids::{GridOptions, Prover, Verdict};
use super::sudoku::{box_side, full_grid};
use crate::puzzle::{Cage, Killer, Puzzle};
use rand::RngExt;
use rand::seq::{IndexedRandom, SliceRandom};
use rand_chacha::ChaCha8Rng;

/// Makes a Killer Sudoku with exactly one solution; returns it with its solution.
pub fn generate(
    options: &GridOptions,
    prover: &mut Prover<'_>,
    rng: &mut ChaCha8Rng,
) -> Result<(Puzzle, Vec<u32>), GenError> {
    let n = options.size;
    let k = box_side(n).ok_or_else(|| GenError::Options(super::grids::SIZES.into()))?;
    let solution = full_grid(n, k, rng);
    let mut cages = grow_cages(n, &solution, rng);
    loop {
        let puzzle = killer(n, k, &cages, &solution);
        let differing: Vec<usize> = match prover.verdict(&puzzle)? {
            Verdict::Unique => return Ok((puzzle, solution)),
            // Either may be the planted one: the cells where they differ are the same.
            Verdict::Two(two) => (0..n * n).filter(|&c| two[0][c] != two[1][c]).collect(),
            // Too open to settle within a check: a cell of a largest cage gets its own.
            Verdict::Unknown => {
                let largest = cages.iter().map(Vec::len).max().unwrap_or(0);
                cages.iter().filter(|c| c.len() == largest).flatten().copied().collect()
            }
        };
        let Some(&cell) = differing.choose(rng) else {
            return Err(GenError::Options("internal error: no cell to split a cage at".into()));
        };
        split(n, &mut cages, cell);
    }
}

/// The puzzle of `cages` (cell lists) over the grid `solution`.
fn killer(n: usize, k: usize, cages: &[Vec<usize>], solution: &[u32]) -> Puzzle {
    let cages = cages
        .iter()
        .map(|cells| Cage { total: cells.iter().map(|&c| solution[c]).sum(), cells: cells.clone() })
        .collect();
    Puzzle::Killer(Killer { n, box_size: k, cages, givens: vec![0; n * n] })
}

/// The orthogonal neighbours of `cell` in a grid of side `n`.
fn neighbours(n: usize, cell: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (cell / n, cell % n);
    let up = (r > 0).then(|| cell - n);
    let down = (r + 1 < n).then(|| cell + n);
    let left = (c > 0).then(|| cell - 1);
    let right = (c + 1 < n).then(|| cell + 1);
    [up, down, left, right].into_iter().flatten()
}

/// Cuts the grid into connected cages of 2 to 5 cells (fewer where a cage finds no room
/// to grow) whose digits differ.
fn grow_cages(n: usize, solution: &[u32], rng: &mut ChaCha8Rng) -> Vec<Vec<usize>> {
    let mut cage_of = vec![usize::MAX; n * n];
    let mut cages: Vec<Vec<usize>> = Vec::new();
    let mut order: Vec<usize> = (0..n * n).collect();
    order.shuffle(rng);
    for start in order {
        if cage_of[start] != usize::MAX {
            continue;
        }
        let id = cages.len();
        let size = rng.random_range(2..=5);
        let mut cells = vec![start];
        cage_of[start] = id;
        while cells.len() < size {
            let mut room: Vec<usize> = cells
                .iter()
                .flat_map(|&c| neighbours(n, c))
                .filter(|&c| cage_of[c] == usize::MAX)
                .filter(|&c| cells.iter().all(|&d| solution[d] != solution[c]))
                .collect();
            room.sort_unstable();
            room.dedup();
            let Some(&next) = room.choose(rng) else { break };
            cage_of[next] = id;
            cells.push(next);
        }
        cages.push(cells);
    }
    join_lone_cells(n, solution, &mut cages, &mut cage_of);
    cages.retain(|cells| !cells.is_empty());
    cages
}

/// Joins each cage of one cell (a cell left with no room to grow) to a neighbouring cage of
/// fewer than 5 cells without its digit, where there is one: a lone cell gives its digit
/// away, which puzzles keep for the places that need it.
fn join_lone_cells(n: usize, solution: &[u32], cages: &mut [Vec<usize>], cage_of: &mut [usize]) {
    for id in 0..cages.len() {
        let [cell] = cages[id][..] else { continue };
        let target = neighbours(n, cell).map(|c| cage_of[c]).find(|&other| {
            other != id
                && cages[other].len() < 5
                && cages[other].iter().all(|&c| solution[c] != solution[cell])
        });
        if let Some(other) = target {
            cages[id].clear();
            cages[other].push(cell);
            cage_of[cell] = other;
        }
    }
}

/// Takes `cell` out of its cage as a cage of its own, and splits what is left of the cage
/// into its connected parts. A cage of one cell stays as it is.
fn split(n: usize, cages: &mut Vec<Vec<usize>>, cell: usize) {
    let Some(at) = cages.iter().position(|cells| cells.contains(&cell)) else { return };
    if cages[at].len() < 2 {
        return;
    }
    let mut rest: Vec<usize> = cages.swap_remove(at);
    rest.retain(|&c| c != cell);
    cages.push(vec![cell]);
    while let Some(&seed) = rest.first() {
        let mut part = vec![seed];
        let mut i = 0;
        while let Some(&c) = part.get(i) {
            for next in neighbours(n, c) {
                if rest.contains(&next) && !part.contains(&next) {
                    part.push(next);
                }
            }
            i += 1;
        }
        rest.retain(|c| !part.contains(c));
        cages.push(part);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn cages_cover_the_grid_once_are_connected_and_hold_distinct_digits() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let solution = full_grid(9, 3, &mut rng);
        let mut cages = grow_cages(9, &solution, &mut rng);
        split(9, &mut cages, 40);
        let mut covered: Vec<usize> = cages.iter().flatten().copied().collect();
        covered.sort_unstable();
        assert_eq!(covered, (0..81).collect::<Vec<_>>());
        for cells in &cages {
            assert!((1..=5).contains(&cells.len()), "{cells:?}");
            let mut digits: Vec<u32> = cells.iter().map(|&c| solution[c]).collect();
            digits.sort_unstable();
            digits.dedup();
            assert_eq!(digits.len(), cells.len(), "distinct digits in {cells:?}");
            let mut reached = vec![cells[0]];
            let mut i = 0;
            while let Some(&c) = reached.get(i) {
                for next in neighbours(9, c) {
                    if cells.contains(&next) && !reached.contains(&next) {
                        reached.push(next);
                    }
                }
                i += 1;
            }
            assert_eq!(reached.len(), cells.len(), "connected: {cells:?}");
        }
        assert!(cages.iter().any(|cells| cells == &vec![40]), "the split cell stands alone");
    }
}
