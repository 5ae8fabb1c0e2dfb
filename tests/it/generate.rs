//! End-to-end tests of `kakurod generate`: the real binary makes puzzles, and the real
//! binary solves them by another route (a depth-first count with forward checking, no SAT
//! and no decomposition) to check that each has exactly the one solution it wrote.

use kakurod_engine::format::{self, Parsed};
use kakurod_engine::grade::{self, Difficulty};
use kakurod_engine::puzzle::Puzzle;
use serde_json::Value;
use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn kakurod(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kakurod")).args(args).output().expect("run kakurod")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// Counts the solutions of a puzzle file up to the count limit, by forward checking.
fn count_solutions(file: &Path) -> u64 {
    let output = kakurod(&["solve", "--json", "--mode", "count", "--algorithm", "fc", path(file)]);
    let report: Value = serde_json::from_slice(&output.stdout).expect("a JSON report");
    report["solutions_found"].as_u64().expect("a count")
}

#[test]
fn every_generated_puzzle_has_exactly_its_one_solution() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.txt");
    for (size, seed) in [("8", "1"), ("12", "2"), ("16", "3")] {
        let args =
            // One scratch file for every size: each run replaces the last (--force).
            ["generate", "--rows", size, "--cols", size, "--seed", seed, "--solution", "--force", "--out"];
        let made = kakurod(&[&args[..], &[path(&out)]].concat());
        assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
        assert_eq!(count_solutions(&out), 1, "{size}x{size} seed {seed}");
        let solved = kakurod(&["solve", path(&out)]);
        let written = fs::read_to_string(out.with_extension("sol")).unwrap();
        let grid = |text: &str| -> Vec<String> {
            text.lines().skip(1).map(|l| l.replace(' ', "")).collect()
        };
        assert_eq!(grid(&stdout(&solved)), grid(&written), "{size}x{size} seed {seed}");
    }
}

#[test]
fn the_layout_is_one_a_publisher_prints() {
    let made = kakurod(&["generate", "--rows", "20", "--cols", "24", "--seed", "4"]);
    let text = stdout(&made);
    let rows: Vec<Vec<&str>> = text.lines().skip(1).map(|l| l.split(' ').collect()).collect();
    let white = |r: usize, c: usize| rows[r][c] == "0";
    let (height, width) = (rows.len(), rows[0].len());
    let mut whites = 0;
    for r in 0..height {
        for c in 0..width {
            if !white(r, c) {
                continue;
            }
            whites += 1;
            let across = (0..c).rev().take_while(|&x| white(r, x)).count()
                + (c..width).take_while(|&x| white(r, x)).count();
            let down = (0..r).rev().take_while(|&y| white(y, c)).count()
                + (r..height).take_while(|&y| white(y, c)).count();
            assert!((2..=9).contains(&across) && (2..=9).contains(&down), "cell {r},{c}");
            // Rotational symmetry of the interior (the first row and column are black).
            assert!(white(height - r, width - c), "cell {r},{c} has no partner");
        }
    }
    assert!(whites > 100);
    // Every run has its clue: a white cell's left and upper neighbours are white or clues.
    for r in 1..height {
        for c in 1..width {
            if white(r, c) && !white(r, c - 1) {
                assert!(rows[r][c - 1].split(',').nth(1).is_some_and(|s| !s.is_empty()));
            }
            if white(r, c) && !white(r - 1, c) {
                assert!(rows[r - 1][c].split(',').next().is_some_and(|s| !s.is_empty()));
            }
        }
    }
}

/// The finished puzzle keeps near the black share asked for (border included), though
/// repairs blacken cells on the way: they are whitened again where the puzzle stays unique
/// and solvable by logic.
#[test]
fn the_black_share_stays_near_the_one_asked() {
    for black in ["40", "45"] {
        for seed in ["1", "2", "3"] {
            let args =
                ["generate", "--rows", "24", "--cols", "24", "--black", black, "--seed", seed];
            let made = kakurod(&args);
            assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
            let text = stdout(&made);
            let cells: Vec<&str> = text.lines().skip(1).flat_map(|l| l.split(' ')).collect();
            let blacks = cells.iter().filter(|&&c| c != "0").count();
            let share = 100.0 * blacks as f64 / cells.len() as f64;
            let asked: f64 = black.parse().unwrap();
            // Within the points past which `generate` warns.
            assert!((share - asked).abs() <= 5.0, "--black {black} seed {seed}: {share:.1}%");
            assert!(made.stderr.is_empty(), "{}", String::from_utf8_lossy(&made.stderr));
        }
    }
}

#[test]
fn the_same_options_give_the_same_puzzle() {
    let run = |seed: &str, symmetry: &str| {
        let args = ["generate", "--rows", "14", "--cols", "14", "--seed", seed, "--symmetry"];
        stdout(&kakurod(&[&args[..], &[symmetry]].concat()))
    };
    assert_eq!(run("5", "mirror"), run("5", "mirror"));
    assert_ne!(run("5", "mirror"), run("6", "mirror"));
    assert_ne!(run("5", "mirror"), run("5", "none"));
}

#[test]
fn many_puzzles_go_into_a_folder_with_their_json_lines() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["generate", "--rows", "10", "--cols", "10", "--count", "4", "--solution"];
    let made = kakurod(&[&args[..], &["--json", "--out", path(dir.path())]].concat());
    assert!(made.status.success());
    let lines: Vec<Value> =
        stdout(&made).lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    assert_eq!(lines.len(), 4);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["seed"], i as u64 + 1);
        assert_eq!(line["unique"], true);
        assert!(line["proof"]["checks"].as_u64().is_some_and(|n| n >= 1));
        assert!(["sat", "search"].contains(&line["proof"]["engine"].as_str().unwrap()));
        let puzzle = Path::new(line["puzzle"].as_str().unwrap());
        assert!(puzzle.is_file() && Path::new(line["solution"].as_str().unwrap()).is_file());
        assert_eq!(count_solutions(puzzle), 1);
    }
}

#[test]
fn options_that_cannot_give_a_puzzle_are_refused() {
    for (args, says) in [
        (&["--rows", "2", "--cols", "2"][..], "at least 3"),
        (&["--rows", "10", "--cols", "10", "--black", "100"][..], "black share"),
        (&["--rows", "10", "--cols", "10", "--black=-1"][..], "black share"),
        (&["--rows", "10", "--cols", "10", "--count", "0"][..], "--count"),
        (&["--rows", "10", "--cols", "10", "--any-solution", "--difficulty", "easy"][..], "one"),
        (&["--rows", "5000", "--cols", "5000"][..], "cells"),
        (&["--cols", "10"][..], "--rows and --cols"),
        (&["--kind", "sudoku", "--size", "10"][..], "4, 9, 16 or 25"),
        (&["--kind", "sudoku"][..], "--size"),
        (&["--kind", "killer", "--rows", "9", "--cols", "9"][..], "--size"),
        (&["--kind", "sudoku", "--size", "9", "--black", "30"][..], "Kakuro only"),
        (&["--kind", "killer", "--size", "9", "--difficulty", "easy"][..], "not graded"),
        (&["--rows", "9", "--cols", "9", "--size", "9"][..], "--size"),
        (&["--rows", "15", "--cols", "15", "--black", "0"][..], "from 12.9% (its black first"),
        (&["--rows", "3", "--cols", "200"][..], "keeps only 14 white cells"),
    ] {
        let output = kakurod(&[&["generate"][..], args].concat());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn any_solution_keeps_the_random_grids_of_the_benchmarks() {
    let args = ["generate", "--any-solution", "--rows", "12", "--cols", "12", "--seed", "3"];
    let made = kakurod(&args);
    assert!(made.status.success());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("any.txt");
    fs::write(&file, stdout(&made)).unwrap();
    let solved = kakurod(&["solve", "--json", "--mode", "first", path(&file)]);
    let report: Value = serde_json::from_slice(&solved.stdout).expect("a JSON report");
    assert_eq!(report["solutions_found"].as_u64(), Some(1), "{report}");
}

#[test]
fn each_difficulty_gives_puzzles_that_solve_graded_so() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("graded.txt");
    for level in ["easy", "medium", "hard", "expert"] {
        for seed in ["1", "2"] {
            let args = ["generate", "--rows", "12", "--cols", "12", "--seed", seed];
            let made = kakurod(&[&args[..], &["--difficulty", level, "--json"]].concat());
            assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
            let line: Value = serde_json::from_slice(&made.stdout).expect("a JSON line");
            assert_eq!(line["difficulty"], level);
            fs::write(&file, line["text"].as_str().expect("the puzzle's text")).unwrap();
            let solved = kakurod(&["solve", "--json", path(&file)]);
            let report: Value = serde_json::from_slice(&solved.stdout).expect("a JSON report");
            assert_eq!(report["uniqueness"], "unique", "{level} seed {seed}");
            assert_eq!(report["difficulty"], level, "{level} seed {seed}");
        }
    }
}

/// A Sudoku made for a grade has it: the logic of that level finishes it, to the solution
/// written beside it, the level below gets stuck, and a count by forward checking finds
/// one solution.
#[test]
fn each_difficulty_gives_sudoku_that_need_exactly_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("graded.txt");
    for (level, below) in [
        (Difficulty::Easy, None),
        (Difficulty::Medium, Some(Difficulty::Easy)),
        (Difficulty::Hard, Some(Difficulty::Medium)),
        (Difficulty::Extreme, Some(Difficulty::Unfair)),
    ] {
        let args = ["generate", "--kind", "sudoku", "--size", "9", "--seed", "3", "--solution"];
        // One scratch file for every level: each run replaces the last.
        let out =
            [&args[..], &["--difficulty", level.name(), "--json", "--force", "--out", path(&file)]];
        let made = kakurod(&out.concat());
        assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
        let line: Value = serde_json::from_slice(&made.stdout).expect("a JSON line");
        assert_eq!(line["difficulty"], level.name());
        let text = fs::read_to_string(&file).unwrap();
        let document = format::read(&text, None).expect("a readable Sudoku");
        let Some(Ok(Parsed { puzzle: Puzzle::Sudoku(sudoku), .. })) = document.entries.first()
        else {
            panic!("not a Sudoku: {text}")
        };
        let logic = grade::solve_sudoku(sudoku, level);
        let written = fs::read_to_string(file.with_extension("sol")).unwrap();
        let digits: Vec<u32> =
            written.split_whitespace().skip(2).map(|d| d.parse().expect("a digit")).collect();
        if !level.needs_trial() {
            assert!(logic.solved(), "{level:?}: {text}");
            assert_eq!(logic.values(), digits, "{level:?}");
        }
        if let Some(below) = below {
            // The level below finishes it only where HoDoKu's score of its path raised the
            // grade to the level asked (a 9x9's long path goes up as HoDoKu's does).
            let logic = grade::solve_sudoku(sudoku, below);
            let raised = logic.solved() && logic.grade().difficulty == level;
            assert!(!logic.solved() || raised, "{below:?} suffices: {text}");
        }
        assert_eq!(count_solutions(&file), 1, "{level:?}: {text}");
    }
}

#[test]
fn sudoku_and_killer_sudoku_have_exactly_their_one_solution() {
    let dir = tempfile::tempdir().unwrap();
    for (kind, size, seed) in [
        ("sudoku", 4, 1),
        ("sudoku", 9, 2),
        ("sudoku", 16, 3),
        ("killer", 4, 1),
        ("killer", 9, 2),
        ("killer", 16, 3),
    ] {
        let out = dir.path().join(format!("{kind}{size}.txt"));
        let (size_arg, seed_arg) = (size.to_string(), seed.to_string());
        let args = ["generate", "--kind", kind, "--size", &size_arg, "--seed", &seed_arg];
        let made = kakurod(&[&args[..], &["--solution", "--out", path(&out)]].concat());
        assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
        let text = fs::read_to_string(&out).unwrap();
        assert!(text.starts_with(&format!("{size} {size}\n")), "{text}");
        // Another route: a depth-first count on one thread (no SAT, no decomposition),
        // by forward checking where that ends in time, else by arc consistency.
        let algorithm = if size <= 9 { "fc" } else { "mac" };
        let counted = kakurod(&[
            "solve",
            "--json",
            "--mode",
            "count",
            "--limit",
            "2",
            "--algorithm",
            algorithm,
            "--threads",
            "1",
            path(&out),
        ]);
        let report: Value = serde_json::from_slice(&counted.stdout).expect("a JSON report");
        assert_eq!(report["kind"], kind, "{report}");
        assert_eq!(report["solutions_found"], 1, "{kind} {size}x{size}: {report}");
        let solved = kakurod(&["solve", path(&out)]);
        let written = fs::read_to_string(out.with_extension("sol")).unwrap();
        assert_eq!(stdout(&solved), written, "{kind} {size}x{size}");
        let givens = text.lines().skip(1).take(size).flat_map(|l| l.split(' ')).collect::<Vec<_>>();
        if kind == "sudoku" {
            // The givens keep the default half-turn symmetry.
            let reversed: Vec<bool> = givens.iter().rev().map(|g| *g == "-").collect();
            assert_eq!(givens.iter().map(|g| *g == "-").collect::<Vec<_>>(), reversed, "{text}");
        }
        let again_file = dir.path().join(format!("again-{kind}{size}.txt"));
        let again = kakurod(&[&args[..], &["--out", path(&again_file)]].concat());
        assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
        assert_eq!(fs::read_to_string(&again_file).unwrap(), text, "the seed decides");
    }
}

/// The `--json` line of `kakurod generate ARGS --json`, with its standard error.
fn generated_json(args: &[&str]) -> (Value, String) {
    let made = kakurod(&[&["generate"][..], args, &["--json"]].concat());
    let stderr = String::from_utf8_lossy(&made.stderr).into_owned();
    assert!(made.status.success(), "{args:?}: {stderr}");
    (serde_json::from_str(stdout(&made).trim()).expect("a JSON line"), stderr)
}

#[test]
fn a_black_share_out_of_reach_is_warned_of_and_the_share_reached_reported() {
    let (made, stderr) = generated_json(&["--rows", "15", "--cols", "15", "--black", "60"]);
    let reached = made["black_percent"].as_f64().unwrap();
    assert!(reached < 55.0, "{made}");
    let says = format!("warning: seed 1: {reached:.1}% of the cells are black, not the 60% asked");
    assert!(stderr.contains(&says), "{stderr}");
    let (made, stderr) = generated_json(&["--rows", "15", "--cols", "15", "--black", "42"]);
    assert!((made["black_percent"].as_f64().unwrap() - 42.0).abs() <= 5.0, "{made}");
    assert!(stderr.is_empty(), "{stderr}");
    // The default share is no different: missed by far, it is warned of too.
    let (made, stderr) = generated_json(&["--rows", "12", "--cols", "12", "--seed", "1"]);
    let reached = made["black_percent"].as_f64().unwrap();
    let warned = stderr.contains("% of the cells are black, not the 40% of the default (--black)");
    assert_eq!(warned, (reached - 40.0).abs() > 5.0, "{reached}: {stderr}");
}

#[test]
fn by_default_a_puzzle_is_solvable_by_logic_and_any_allows_expert() {
    let logic = ["easy", "medium", "hard"];
    let mut expert_with_any = 0;
    for seed in ["1", "2", "3", "4"] {
        for side in ["15", "20"] {
            let args = ["--rows", side, "--cols", side, "--seed", seed];
            let (made, _) = generated_json(&args);
            assert!(logic.contains(&made["difficulty"].as_str().unwrap()), "{args:?}: {made}");
            let (any, _) = generated_json(&[&args[..], &["--difficulty", "any"]].concat());
            expert_with_any += usize::from(any["difficulty"] == "expert");
        }
        let (sudoku, _) = generated_json(&["--kind", "sudoku", "--size", "9", "--seed", seed]);
        assert!(logic.contains(&sudoku["difficulty"].as_str().unwrap()), "{sudoku}");
    }
    assert!(expert_with_any > 0, "--difficulty any never gave an expert puzzle");
}
