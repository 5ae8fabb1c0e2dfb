use super::*;
use crate::puzzle::KakuroCell;

fn unique(rows: usize, cols: usize, seed: u64) -> Generated {
    let options = GenOptions::unique(rows, cols, 40.0, seed);
    generate(&options, Budget::default()).expect("a puzzle")
}

/// Counts solutions with the depth-first search alone (no SAT, no decomposition): a path
/// independent of the one that made the puzzle.
fn count_by_search(puzzle: &Kakuro) -> u64 {
    let compiled = puzzle.compile();
    let options = SolveOptions { mode: Mode::Count, count_limit: Some(2), ..Default::default() };
    let outcome = crate::solver::search::solve(&compiled.model, &options, None);
    assert!(outcome.complete);
    outcome.count
}

#[test]
fn generated_puzzles_have_exactly_one_solution() {
    for (rows, cols, seed) in [(8, 8, 1), (12, 12, 2), (15, 15, 3), (20, 14, 4)] {
        let g = unique(rows, cols, seed);
        assert_eq!(count_by_search(&g.puzzle), 1, "{rows}x{cols} seed {seed}");
        let proof = g.proof.expect("a proof");
        assert!(proof.checks >= 1);
        let puzzle = crate::puzzle::Puzzle::Kakuro(g.puzzle.clone());
        assert_eq!(crate::verify::check(&puzzle, &g.filling), Ok(()));
    }
}

#[test]
fn generated_layouts_follow_the_publisher_rules() {
    let g = unique(16, 16, 5);
    for run in g.puzzle.runs() {
        assert!((2..=9).contains(&run.cells.len()), "{run:?}");
        assert!(run.total.is_some(), "{run:?}");
    }
    let white: Vec<bool> = g.puzzle.cells.iter().map(|c| *c == KakuroCell::White).collect();
    assert_eq!(super::super::layout::regions(&white, 16, 16).len(), 1);
}

#[test]
fn same_options_same_puzzle() {
    assert_eq!(unique(12, 12, 9).puzzle, unique(12, 12, 9).puzzle);
    assert_ne!(unique(12, 12, 9).puzzle, unique(12, 12, 10).puzzle);
}
