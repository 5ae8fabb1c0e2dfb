//! The logic grader is sound on real puzzles: every digit it places and every candidate it
//! keeps agrees with the published solution, it never finds a contradiction, and on Kakuro
//! 257_24x28 (two solutions) it never claims a complete solve. Checked on the fixtures
//! always, and on the 751 janko Kakuro when the corpus is available (see `common::data`).

use crate::common;

use common::{data, fixtures, puzzles_in, text};
use kakurod_engine::format::{self, solution::read_sol};
use kakurod_engine::grade::{self, Difficulty, Scale};
use kakurod_engine::puzzle::{Kakuro, Puzzle};
use std::path::Path;

/// Kakuro with more than one solution: logic must leave them open.
const MULTIPLE: &[&str] = &["257_24x28"];

fn read_kakuro(path: &Path) -> Kakuro {
    let document =
        format::read(&text(path), None).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match document.entries.into_iter().next() {
        Some(Ok(parsed)) => match parsed.puzzle {
            Puzzle::Kakuro(k) => k,
            other => panic!("{}: not a Kakuro: {other:?}", path.display()),
        },
        other => panic!("{}: no puzzle: {other:?}", path.display()),
    }
}

/// Checks the logic solve of `path` against its `.sol` and returns the puzzle's grade and
/// whether logic finished it.
fn check(path: &Path) -> (Difficulty, bool) {
    let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let puzzle = read_kakuro(path);
    let solution = read_sol(&text(&path.with_extension("sol")))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(solution.cells.len(), puzzle.cells.len(), "{}", path.display());
    let logic = grade::solve(&puzzle, Difficulty::Expert);
    assert!(!logic.contradiction, "{}: contradiction on a solvable puzzle", path.display());
    for (cell, expected) in solution.cells.iter().enumerate() {
        let Some(digit) = *expected else { continue };
        if let Some(placed) = logic.value(cell) {
            assert_eq!(placed, digit, "{}: cell {cell} placed wrong", path.display());
        }
        let kept = logic.candidates[cell];
        assert!(kept & (1 << digit) != 0, "{}: cell {cell} lost {digit}", path.display());
    }
    let graded = grade::grade(&puzzle);
    assert_eq!(graded.solved_by_logic, logic.solved(), "{}", path.display());
    if MULTIPLE.contains(&name) {
        assert!(!logic.solved(), "{}: has two solutions but logic solved it", path.display());
        assert_eq!(graded.difficulty, Difficulty::Expert, "{}", path.display());
    }
    (graded.difficulty, graded.solved_by_logic)
}

/// Checks every puzzle with a `.sol` in `dir`; returns the counts per grade.
fn check_folder(dir: &Path) -> [usize; 4] {
    let (mut counts, mut stuck) = ([0; 4], 0);
    for path in puzzles_in(dir) {
        if path.extension().is_some_and(|e| e == "txt") && path.with_extension("sol").exists() {
            let (difficulty, solved) = check(&path);
            let level = Scale::Kakuro.levels().iter().position(|&l| l == difficulty);
            counts[level.expect("a Kakuro grade")] += 1;
            stuck += usize::from(!solved);
        }
    }
    eprintln!("{}: easy/medium/hard/expert {counts:?}, {stuck} not finished", dir.display());
    counts
}

#[test]
fn logic_agrees_with_the_fixture_solutions() {
    let dir = fixtures().join("kakuro");
    assert!(puzzles_in(&dir).iter().any(|p| p.ends_with("257_24x28.txt")));
    assert!(check_folder(&dir).iter().sum::<usize>() >= 7);
}

#[test]
fn logic_agrees_with_every_janko_solution() {
    let Some(data) = data() else { return };
    let counts = check_folder(&data.join("kakuro/janko"));
    assert_eq!(counts.iter().sum::<usize>(), 751);
    // The collection is made by hand for people: most of it yields to logic.
    assert!(counts[0] + counts[1] + counts[2] > 700, "{counts:?}");
}

/// Prints how long the logic solver takes on the janko Kakuro, per ceiling (run with
/// `KAKUROD_GRADE_TIMING=1 cargo test --release --test it grade:: -- --nocapture`).
#[test]
fn grading_time() {
    let (Some(data), Some(_)) = (data(), std::env::var_os("KAKUROD_GRADE_TIMING")) else {
        return;
    };
    let puzzles: Vec<Kakuro> = puzzles_in(&data.join("kakuro/janko"))
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .map(|p| read_kakuro(p))
        .collect();
    for &ceiling in Scale::Kakuro.levels() {
        let started = std::time::Instant::now();
        for _ in 0..10 {
            for p in &puzzles {
                std::hint::black_box(grade::solve(p, ceiling));
            }
        }
        eprintln!("{ceiling:?}: {:.3} ms per pass", started.elapsed().as_secs_f64() * 100.0);
    }
}
