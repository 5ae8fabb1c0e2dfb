//! Every real puzzle solves to exactly its published solution and is reported unique: the
//! fixture set always, and the whole corpus (751 Kakuro, 96 Sudoku, 608 Killer Sudoku) when
//! it is available (see `common::data`). The known exceptions have several solutions and
//! must be reported as `multiple`, with a solution that verifies: Kakuro 257_24x28, and nine
//! 9x9 Killer Sudoku whose published solutions also have distinct diagonals (they come from
//! a diagonal variant whose extra rule the file format cannot express).

use crate::common;

use common::{data, fixtures, puzzles_in, text};
use kakurod_engine::format::{self, solution::read_sol};
use kakurod_engine::pipeline::{self, PipelineOptions};
use kakurod_engine::report::{Body, Status, Uniqueness};
use kakurod_engine::solver::{self, Algorithm, Mode, SolveOptions, VarOrder};
use std::path::Path;

/// Puzzles known to have more than one solution, with their exact number of solutions:
/// Kakuro first, then Killer Sudoku (some Kakuro share these names).
const MULTIPLE_KAKURO: &[(&str, u64)] = &[("257_24x28", 2)];
const MULTIPLE_KILLER: &[(&str, u64)] = &[
    ("197_9x9", 2),
    ("198_9x9", 2),
    ("249_9x9", 4),
    ("257_9x9", 4),
    ("717_9x9", 2),
    ("718_9x9", 4),
    ("719_9x9", 2),
    ("726_9x9", 4),
    ("727_9x9", 2),
];

/// Solves `path` with `options` and checks the verdict and the solution against its `.sol`.
fn check_against_sol(path: &Path, options: &PipelineOptions) {
    let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let report = pipeline::process(name, text(path).as_bytes(), options, None);
    let Body::Single(result) = &report.body else {
        panic!("{}: not a single result: {}", path.display(), report.to_json())
    };
    assert_eq!(result.status, Status::Solved, "{}: {}", path.display(), report.to_json());
    let grid = result.grid.as_ref().expect("solved puzzles carry their grid");
    let known =
        if path.to_string_lossy().contains("killer") { MULTIPLE_KILLER } else { MULTIPLE_KAKURO };
    if known.iter().any(|&(m, _)| m == name) {
        if options.solve.mode != Mode::First {
            assert_eq!(result.uniqueness, Uniqueness::Multiple, "{}", path.display());
        }
        return; // Either solution is right; the pipeline has verified it.
    }
    if options.solve.mode == Mode::Unique {
        assert_eq!(result.uniqueness, Uniqueness::Unique, "{}", path.display());
    }
    let expected = read_sol(&text(&path.with_extension("sol"))).expect("readable .sol");
    assert_eq!(grid, &expected, "{}: solution differs from the .sol", path.display());
}

fn check_folder(dir: &Path, options: &PipelineOptions) -> usize {
    let files: Vec<_> = puzzles_in(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "txt") && p.with_extension("sol").exists())
        .collect();
    for path in &files {
        check_against_sol(path, options);
    }
    files.len()
}

#[test]
fn fixtures_solve_to_their_published_solutions() {
    let options = PipelineOptions::default();
    for kind in ["kakuro", "sudoku", "killer"] {
        assert!(check_folder(&fixtures().join(kind), &options) > 0, "no fixtures for {kind}");
    }
    check_other_formats(&fixtures().join("formats"));
}

#[test]
fn puzzles_with_several_solutions_are_counted_exactly() {
    let Some(data) = data() else { return };
    let solve = SolveOptions { mode: Mode::Count, ..SolveOptions::default() };
    let options = PipelineOptions { solve, ..PipelineOptions::default() };
    let known = MULTIPLE_KAKURO.iter().map(|k| ("kakuro", k));
    for (kind, &(name, count)) in known.chain(MULTIPLE_KILLER.iter().map(|k| ("killer-sudoku", k)))
    {
        let path = data.join(format!("{kind}/janko/{name}.txt"));
        let report = pipeline::process(name, text(&path).as_bytes(), &options, None);
        let Body::Single(result) = &report.body else { panic!("{name}: {}", report.to_json()) };
        assert_eq!(result.solutions_found, count, "{name}");
        assert_eq!(result.uniqueness, Uniqueness::Multiple, "{name}");
    }
}

#[test]
fn all_janko_kakuro_solve_uniquely_to_their_solutions() {
    let Some(data) = data() else { return };
    assert_eq!(check_folder(&data.join("kakuro/janko"), &PipelineOptions::default()), 751);
}

/// The pipeline answers most Kakuro by the grader's logic without searching, so the search
/// engine is checked on its own over the whole set as well.
#[test]
fn all_janko_kakuro_solve_uniquely_by_search_alone() {
    let Some(data) = data() else { return };
    let files: Vec<_> = puzzles_in(&data.join("kakuro/janko"))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    for path in &files {
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        let document = format::read(&text(path), None).expect("readable puzzle");
        let [Ok(parsed)] = &document.entries[..] else { panic!("{name}: not one puzzle") };
        let compiled = parsed.puzzle.compile();
        let outcome = solver::solve(&compiled.model, &SolveOptions::default(), None);
        assert!(outcome.complete, "{name}");
        assert_ne!(outcome.engine, solver::Engine::Logic, "{name}");
        let known = MULTIPLE_KAKURO.iter().find(|&&(m, _)| m == name).map(|&(_, count)| count);
        assert_eq!(outcome.count, known.map_or(1, |count| count.min(2)), "{name}");
        let grid = parsed.puzzle.grid_from_values(&compiled, &outcome.solutions[0]);
        if known.is_none() {
            let expected = read_sol(&text(&path.with_extension("sol"))).expect("readable .sol");
            assert_eq!(grid, expected, "{name}: solution differs from the .sol");
        }
    }
    assert_eq!(files.len(), 751);
}

#[test]
fn all_janko_sudoku_solve_uniquely_to_their_solutions() {
    let Some(data) = data() else { return };
    assert_eq!(check_folder(&data.join("sudoku/janko"), &PipelineOptions::default()), 96);
}

#[test]
fn all_janko_killer_sudoku_solve_uniquely_to_their_solutions() {
    let Some(data) = data() else { return };
    assert_eq!(check_folder(&data.join("killer-sudoku/janko"), &PipelineOptions::default()), 608);
}

#[test]
fn the_kakuro_in_other_formats_solve_to_the_same_solutions() {
    let Some(data) = data() else { return };
    check_other_formats(&data.join("kakuro/formats"));
}

/// Each file `STEM.FORMAT.txt` in `dir` solves uniquely, to `STEM.sol` where there is one.
fn check_other_formats(dir: &Path) {
    let options = PipelineOptions::default();
    for path in puzzles_in(dir) {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let Some(stem) = name.split('.').next() else { continue };
        let sol = dir.join(format!("{stem}.sol"));
        let report = pipeline::process(name, text(&path).as_bytes(), &options, None);
        let Body::Single(result) = &report.body else { panic!("{name}: {}", report.to_json()) };
        assert_eq!(result.status, Status::Solved, "{name}");
        assert_eq!(result.uniqueness, Uniqueness::Unique, "{name}");
        if sol.exists() {
            let expected = read_sol(&text(&sol)).expect("readable .sol");
            assert_eq!(result.grid.as_ref(), Some(&expected), "{name}");
        }
    }
}

#[test]
fn top1465_batch_is_solved_line_by_line_and_verified() {
    let Some(data) = data() else { return };
    let path = data.join("sudoku/lines/top1465.txt");
    let report =
        pipeline::process("top1465", text(&path).as_bytes(), &PipelineOptions::default(), None);
    let Body::Batch { puzzles, summary, .. } = &report.body else { panic!("not a batch") };
    assert_eq!(puzzles.len(), 1465);
    assert_eq!(summary.solved, 1465, "{summary:?}");
    assert!(puzzles.iter().all(|p| p.uniqueness == Uniqueness::Unique));
    let lines = report.solution_text().expect("solution lines");
    assert_eq!(lines.lines().count(), 1465);
    assert!(lines.lines().all(|l| l.len() == 81 && !l.contains('.')));
}

/// Every algorithm with every variable order gives the same answer on a sample of small
/// puzzles of each kind (plain backtracking is only asked to do the smallest); the SAT
/// engine alone too.
#[test]
fn every_algorithm_and_variable_order_agree() {
    let sample = [
        "kakuro/281_6x6.txt",
        "kakuro/241_9x9.txt",
        "kakuro/1_10x12.txt",
        "killer/101_4x4.txt",
        "killer/574_6x6.txt",
        "sudoku/generated_4x4.txt",
        "sudoku/1_9x9.txt",
    ];
    for algorithm in [Algorithm::Mac, Algorithm::Fc, Algorithm::Bt, Algorithm::Sat] {
        for var_order in [VarOrder::InputOrder, VarOrder::FirstFail, VarOrder::Smallest] {
            for file in sample {
                let path = fixtures().join(file);
                assert!(
                    path.exists() && path.with_extension("sol").exists(),
                    "missing fixture {file} or its .sol"
                );
                let big = !file.contains("4x4") && !file.contains("6x6");
                if algorithm == Algorithm::Bt && big {
                    continue;
                }
                let solve = SolveOptions { algorithm, var_order, ..SolveOptions::default() };
                let options = PipelineOptions { solve, ..PipelineOptions::default() };
                check_against_sol(&path, &options);
            }
        }
    }
}
