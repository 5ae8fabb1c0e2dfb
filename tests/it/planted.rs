//! Property tests on puzzles built around a planted solution: a random valid Sudoku grid is
//! cut into random connected cages whose sums are read off the grid (a Killer Sudoku that is
//! solvable by construction), and random Kakuro grids are filled with distinct digits per
//! run and given the clues of their filling. The solver must find a solution that passes the
//! independent verifier, and propagation must never remove a planted value, at the root or
//! after any sequence of decisions that agree with the planted solution.

use kakurod_engine::model::Model;
use kakurod_engine::puzzle::{Cage, Grid, Kakuro, KakuroCell, Killer, Puzzle};
use kakurod_engine::solver::search::{Search, Subproblem};
use kakurod_engine::solver::{self, Algorithm, Mode, SolveOptions};
use kakurod_engine::verify;
use proptest::prelude::*;

/// A valid 9x9 Sudoku solution, shuffled by `seed` (digit relabelling, row and column
/// permutations inside bands and stacks).
fn sudoku_solution(seed: &[u8]) -> Vec<u32> {
    let base = |r: usize, c: usize| ((r * 3 + r / 3 + c) % 9) as u32;
    let mut digits: Vec<u32> = (1..=9).collect();
    let mut rows: Vec<usize> = (0..9).collect();
    let mut cols: Vec<usize> = (0..9).collect();
    for (i, &s) in seed.iter().enumerate() {
        let (a, b) = ((s as usize) % 9, (i * 7 + s as usize / 9) % 9);
        match i % 3 {
            0 => digits.swap(a, b),
            1 => rows.swap(a, a / 3 * 3 + b % 3),
            _ => cols.swap(a, a / 3 * 3 + b % 3),
        }
    }
    (0..81).map(|i| digits[base(rows[i / 9], cols[i % 9]) as usize]).collect()
}

/// Cuts the grid into connected cages of at most `max` cells with distinct digits.
fn cages(solution: &[u32], seed: &[u8], max: usize) -> Vec<Cage> {
    let mut owner = vec![usize::MAX; 81];
    let mut cages: Vec<Cage> = Vec::new();
    let mut choice = seed.iter().cycle();
    for start in 0..81 {
        if owner[start] != usize::MAX {
            continue;
        }
        let id = cages.len();
        let mut cells = vec![start];
        owner[start] = id;
        let size = 1 + *choice.next().unwrap_or(&0) as usize % max;
        while cells.len() < size {
            let grow = cells.iter().flat_map(|&c| neighbours(c)).find(|&n| {
                owner[n] == usize::MAX && !cells.iter().any(|&c| solution[c] == solution[n])
            });
            let Some(next) = grow else { break };
            owner[next] = id;
            cells.push(next);
        }
        cells.sort_unstable();
        let total = cells.iter().map(|&c| solution[c]).sum();
        cages.push(Cage { total, cells });
    }
    cages
}

fn neighbours(cell: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (cell / 9, cell % 9);
    [
        (r > 0).then(|| cell - 9),
        (r < 8).then(|| cell + 9),
        (c > 0).then(|| cell - 1),
        (c < 8).then(|| cell + 1),
    ]
    .into_iter()
    .flatten()
}

/// A Kakuro whose white cells are filled with `digits` (distinct within every run) and whose
/// clues are the sums of that filling. `layout[i]` true marks a white cell; the first row
/// and column are black. Returns `None` when a run repeats a digit or is longer than 9.
fn kakuro_from_filling(
    rows: usize,
    cols: usize,
    layout: &[bool],
    seed: &[u8],
) -> Option<(Kakuro, Vec<Option<u32>>)> {
    let white = |r: usize, c: usize| r > 0 && c > 0 && layout[r * cols + c];
    let mut filling: Vec<Option<u32>> = vec![None; rows * cols];
    let mut choice = seed.iter().cycle();
    for r in 0..rows {
        for c in 0..cols {
            if !white(r, c) {
                continue;
            }
            // Digits already used in this cell's row run and column run.
            let mut used = 0u32;
            let mut cc = c;
            while cc > 0 && white(r, cc - 1) {
                cc -= 1;
                used |= 1 << filling[r * cols + cc]?;
            }
            let mut rr = r;
            while rr > 0 && white(rr - 1, c) {
                rr -= 1;
                used |= 1 << filling[rr * cols + c]?;
            }
            let free: Vec<u32> = (1..=9).filter(|d| used & (1 << d) == 0).collect();
            if free.is_empty() {
                return None;
            }
            filling[r * cols + c] = Some(free[*choice.next().unwrap_or(&0) as usize % free.len()]);
        }
    }
    let mut cells = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            if white(r, c) {
                cells.push(KakuroCell::White);
                continue;
            }
            let sum_run = |dr: usize, dc: usize| {
                let (mut rr, mut cc, mut total) = (r + dr, c + dc, 0);
                while rr < rows && cc < cols && white(rr, cc) {
                    total += filling[rr * cols + cc].unwrap_or(0);
                    rr += dr;
                    cc += dc;
                }
                (total > 0).then_some(total)
            };
            cells.push(KakuroCell::Black { down: sum_run(1, 0), right: sum_run(0, 1) });
        }
    }
    Some((Kakuro { rows, cols, cells }, filling))
}

/// Decides the planted values one by one (in `order`), propagating after each, and checks
/// that no planted value is ever removed.
fn planted_values_survive(model: &Model, planted: &[u32], order: &[usize]) {
    let options = SolveOptions { algorithm: Algorithm::Mac, ..SolveOptions::default() };
    let mut search = Search::new(model, &options);
    let mut sub: Subproblem = search.root().expect("a planted solution exists");
    for &var in order {
        for (v, d) in sub.domains.iter().enumerate() {
            assert!(d.contains(planted[v]), "planted value of variable {v} removed");
        }
        if sub.domains[var].is_fixed() {
            continue;
        }
        sub = search.decide(&sub, var, planted[var]).expect("a planted decision propagates");
    }
    for (v, d) in sub.domains.iter().enumerate() {
        assert_eq!(d.value(), Some(planted[v]), "variable {v} after every decision");
    }
}

fn solve_and_verify(puzzle: &Puzzle) {
    let compiled = puzzle.compile();
    let options = SolveOptions { mode: Mode::First, ..SolveOptions::default() };
    let outcome = solver::solve(&compiled.model, &options, None);
    let values = outcome.solutions.first().expect("a planted solution exists");
    let grid: Grid = puzzle.grid_from_values(&compiled, values);
    verify::check(puzzle, &grid).expect("solution verifies");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn killer_sudoku_with_planted_solution(seed in proptest::collection::vec(any::<u8>(), 30..60), max in 2usize..6) {
        let solution = sudoku_solution(&seed);
        let killer = Killer { n: 9, box_size: 3, cages: cages(&solution, &seed, max), givens: vec![0; 81] };
        let puzzle = Puzzle::Killer(killer);
        let compiled = puzzle.compile();
        let order: Vec<usize> = (0..81).map(|i| (i * 37 + seed[0] as usize) % 81).collect();
        planted_values_survive(&compiled.model, &solution, &order);
        solve_and_verify(&puzzle);
    }

    #[test]
    fn kakuro_with_planted_filling(
        rows in 3usize..10,
        cols in 3usize..10,
        layout in proptest::collection::vec(proptest::bool::weighted(0.7), 100),
        seed in proptest::collection::vec(any::<u8>(), 20..40),
    ) {
        let Some((kakuro, filling)) = kakuro_from_filling(rows, cols, &layout[..rows * cols], &seed) else {
            return Ok(());
        };
        let puzzle = Puzzle::Kakuro(kakuro);
        let compiled = puzzle.compile();
        let planted: Vec<u32> = compiled.cell_of_var.iter().map(|&c| filling[c].unwrap_or(0)).collect();
        prop_assume!(compiled.model.is_satisfied_by(&planted));
        let order: Vec<usize> = (0..planted.len()).rev().collect();
        planted_values_survive(&compiled.model, &planted, &order);
        solve_and_verify(&puzzle);
    }
}

/// The Kakuro builder is not vacuous: an open 7x7 layout always yields a puzzle, and the
/// property above then runs on it.
#[test]
fn an_open_layout_gives_a_kakuro_with_its_filling() {
    let (kakuro, filling) = kakuro_from_filling(7, 7, &[true; 49], &[3, 1, 4, 1, 5, 9, 2, 6])
        .expect("6x6 white block fits");
    assert_eq!(filling.iter().flatten().count(), 36);
    let puzzle = Puzzle::Kakuro(kakuro);
    let compiled = puzzle.compile();
    let planted: Vec<u32> = compiled.cell_of_var.iter().map(|&c| filling[c].unwrap_or(0)).collect();
    assert!(compiled.model.is_satisfied_by(&planted));
    planted_values_survive(&compiled.model, &planted, &(0..36).collect::<Vec<_>>());
    solve_and_verify(&puzzle);
}
