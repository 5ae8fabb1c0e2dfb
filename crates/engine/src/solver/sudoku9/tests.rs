//! The 9x9 engine against the general engine on the same givens: the same counts, the same
//! completeness, and solutions that pass the independent check, on puzzles with none, one
//! and many solutions; and the limits stop it as they stop the general engine.

use super::{CELLS, solve};
use crate::puzzle::{Grid, Puzzle, Sudoku};
use crate::solver::{self, Control, Engine, Mode, Outcome, SolveOptions, StopReason, ValOrder};
use crate::verify;
use proptest::prelude::*;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The first puzzle of top1465.
const TOP: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

fn givens(line: &str) -> Vec<u32> {
    line.bytes().map(|b| if b.is_ascii_digit() { u32::from(b - b'0') } else { 0 }).collect()
}

fn options(mode: Mode, count_limit: Option<u64>) -> SolveOptions {
    SolveOptions { mode, count_limit, ..SolveOptions::default() }
}

fn general(givens: &[u32], options: &SolveOptions) -> Outcome {
    let compiled = Sudoku { n: 9, box_size: 3, givens: givens.to_vec() }.compile();
    solver::solve(&compiled.model, options, None)
}

fn dedicated(givens: &[u32], options: &SolveOptions) -> Outcome {
    solve(givens, options, Control::default())
}

/// Checks every kept solution with the independent checker.
fn assert_verified(givens: &[u32], outcome: &Outcome) {
    let puzzle = Puzzle::Sudoku(Sudoku { n: 9, box_size: 3, givens: givens.to_vec() });
    for values in &outcome.solutions {
        let grid = Grid { rows: 9, cols: 9, cells: values.iter().map(|&v| Some(v)).collect() };
        if let Err(violation) = verify::check(&puzzle, &grid) {
            panic!("{violation}: {values:?}");
        }
    }
}

/// Both engines in every mode: equal counts and completeness, verified solutions.
fn assert_engines_agree(givens: &[u32], count_limit: u64) {
    for (mode, limit) in
        [(Mode::First, None), (Mode::Unique, None), (Mode::Count, Some(count_limit))]
    {
        let options = options(mode, limit);
        let (ours, theirs) = (dedicated(givens, &options), general(givens, &options));
        assert_verified(givens, &ours);
        assert_eq!(ours.engine, Engine::Sudoku9);
        assert_eq!((ours.count, ours.complete), (theirs.count, theirs.complete), "{mode:?}");
        assert_eq!(ours.stats.solutions, ours.count);
        assert!(ours.stats.nodes >= 1 && ours.solutions.len() as u64 == ours.count.min(2));
        if ours.count == 1 && ours.complete && mode != Mode::First {
            assert_eq!(ours.solutions, theirs.solutions, "{mode:?}");
        }
    }
}

#[test]
fn a_hard_puzzle_has_one_solution_and_removing_givens_adds_the_same_others() {
    let top = givens(TOP);
    assert_engines_agree(&top, 10_000);
    assert_eq!(dedicated(&top, &options(Mode::Count, None)).count, 1);
    let given_cells: Vec<usize> = (0..CELLS).filter(|&c| top[c] != 0).collect();
    let mut several = 0;
    for (k, &cell) in given_cells.iter().enumerate() {
        let mut fewer = top.clone();
        fewer[cell] = 0;
        // And a second given, for more solutions still.
        fewer[given_cells[(k + 5) % given_cells.len()]] = 0;
        assert_engines_agree(&fewer, 10_000);
        several += usize::from(dedicated(&fewer, &options(Mode::Unique, None)).count > 1);
    }
    assert!(several > 0, "no variant with several solutions was tried");
}

#[test]
fn a_changed_given_that_clashes_with_nothing_makes_puzzles_without_solution_alike() {
    let top = givens(TOP);
    let mut none = 0;
    for cell in (0..CELLS).filter(|&c| top[c] != 0) {
        for digit in 1..=9 {
            let mut changed = top.clone();
            changed[cell] = digit;
            assert_engines_agree(&changed, 100);
            none += usize::from(dedicated(&changed, &options(Mode::Count, None)).count == 0);
        }
    }
    assert!(none > 0, "no variant without solution was tried");
}

#[test]
fn clashing_or_malformed_givens_have_no_solution() {
    let mut clash = vec![0; CELLS];
    clash[0] = 5;
    clash[80] = 5;
    clash[8] = 5; // Row 0 twice.
    assert_engines_agree(&clash, 10);
    let outcome = dedicated(&clash, &SolveOptions::default());
    assert_eq!((outcome.count, outcome.complete, outcome.stats.failures), (0, true, 1));
    for malformed in [vec![0; 80], vec![10; CELLS]] {
        let outcome = dedicated(&malformed, &SolveOptions::default());
        assert_eq!((outcome.count, outcome.complete), (0, true));
    }
}

#[test]
fn an_empty_grid_counts_to_the_limit_and_either_value_order_gives_a_valid_grid() {
    let empty = vec![0; CELLS];
    assert_engines_agree(&empty, 300);
    let low = dedicated(&empty, &options(Mode::First, None));
    let high =
        dedicated(&empty, &SolveOptions { val_order: ValOrder::Max, ..options(Mode::First, None) });
    assert_verified(&empty, &low);
    assert_verified(&empty, &high);
    assert_eq!(low.solutions[0][0], 1);
    assert_eq!(high.solutions[0][0], 9);
}

#[test]
fn limits_and_cancellation_stop_the_search_and_say_why() {
    let empty = vec![0; CELLS];
    let count_all = options(Mode::Count, None);
    let limited = SolveOptions { node_limit: Some(40), ..count_all.clone() };
    let outcome = dedicated(&empty, &limited);
    assert_eq!((outcome.stopped, outcome.complete), (Some(StopReason::NodeLimit), false));
    assert_eq!(outcome.stats.nodes, 40);
    let timed = SolveOptions { timeout: Some(Duration::ZERO), ..count_all.clone() };
    assert_eq!(dedicated(&empty, &timed).stopped, Some(StopReason::Timeout));
    let cancel = std::sync::Arc::new(AtomicBool::new(true));
    let control = Control { cancel: Some(&cancel), ..Control::default() };
    let outcome = solve(&empty, &count_all, control);
    assert_eq!((outcome.stopped, outcome.complete), (Some(StopReason::Cancelled), false));
    assert!(outcome.count > 0, "it counts what it found before it stopped");
}

/// A solved grid of `TOP`, its digits renamed by `names` (a permutation of 1..=9).
fn renamed_solution(names: &[u32]) -> Vec<u32> {
    let solved = dedicated(&givens(TOP), &options(Mode::First, None));
    solved.solutions[0].iter().map(|&v| names[v as usize - 1]).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Random givens from a valid grid (many solutions when few are kept), sometimes with
    /// one cell changed to any digit (often no solution, sometimes a clash).
    #[test]
    fn random_givens_are_counted_alike(
        names in Just((1..=9).collect::<Vec<u32>>()).prop_shuffle(),
        kept in proptest::collection::vec(0u32..100, CELLS),
        keep_percent in 20u32..60,
        changed in proptest::option::of((0..CELLS, 1u32..=9)),
    ) {
        let solution = renamed_solution(&names);
        let mut givens: Vec<u32> = solution
            .iter()
            .zip(&kept)
            .map(|(&v, &roll)| if roll < keep_percent { v } else { 0 })
            .collect();
        if let Some((cell, digit)) = changed {
            givens[cell] = digit;
        }
        assert_engines_agree(&givens, 50);
    }
}
