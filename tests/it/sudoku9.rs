//! The dedicated 9x9 engine through the real binary: it answers every 9x9 Sudoku solved
//! with the default algorithm (single files and `lines` batches alike, its name in each
//! puzzle's statistics), and only those; and on top1465 its answers are verified, unique
//! and the general engine's.

use crate::common;

use common::{data, fixtures, text};
use kakurod_engine::format::{self, Format};
use kakurod_engine::puzzle::Puzzle;
use kakurod_engine::solver::{self, Control, SolveOptions};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// `kakurod solve --json FILE ARGS...`, parsed.
fn solve_json(file: &Path, args: &[&str]) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_kakurod"))
        .arg("solve")
        .arg("--json")
        .arg(file)
        .args(args)
        .output()
        .expect("kakurod runs");
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stderr)))
}

/// The puzzles of a result document: a batch's list, or the one puzzle of a single file.
fn puzzles(document: &Value) -> Vec<Value> {
    match document["puzzles"].as_array() {
        Some(list) => list.clone(),
        None => vec![document.clone()],
    }
}

/// The engine named in each puzzle's statistics.
fn engines(document: &Value) -> Vec<String> {
    puzzles(document)
        .iter()
        .map(|p| p["statistics"]["engine"].as_str().unwrap_or("none").to_string())
        .collect()
}

#[test]
fn nine_by_nine_sudoku_gets_the_dedicated_engine_and_other_kinds_keep_the_general_one() {
    let sudoku = fixtures().join("sudoku");
    assert_eq!(engines(&solve_json(&sudoku.join("1_9x9.txt"), &[])), ["sudoku9"]);
    assert_eq!(engines(&solve_json(&sudoku.join("1_9x9.json"), &[])), ["sudoku9"]);
    let counted = solve_json(&sudoku.join("1_9x9.txt"), &["--mode", "count", "--threads", "2"]);
    assert_eq!(engines(&counted), ["sudoku9"]);
    assert_eq!(counted["statistics"]["threads"], 1, "{counted}");
    assert_eq!(counted["solutions_found"], 1, "{counted}");
    // A technique of the general engine, asked for by name, keeps it.
    assert_eq!(engines(&solve_json(&sudoku.join("1_9x9.txt"), &["--algorithm", "fc"])), ["search"]);
    assert_eq!(engines(&solve_json(&sudoku.join("1051_16x16.txt"), &[])), ["search"]);
    let killer = solve_json(&fixtures().join("killer/111_9x9.txt"), &[]);
    assert!(!engines(&killer).contains(&"sudoku9".to_string()), "{killer}");
    let kakuro = solve_json(&fixtures().join("kakuro/241_9x9.txt"), &[]);
    assert!(!engines(&kakuro).contains(&"sudoku9".to_string()), "{kakuro}");
}

#[test]
fn a_lines_batch_answers_its_nine_by_nine_puzzles_with_the_dedicated_engine() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("mixed.txt");
    let top = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    let four = "1.....3..4.....2";
    // The first given removed: several solutions; one changed (1 to 7): none.
    let several = format!("....{}", &top[4..]);
    let none = format!("{}7{}", &top[..26], &top[27..]);
    std::fs::write(&path, format!("{top}\n{four}\n{several}\n{none}\n")).expect("write");
    let document = solve_json(&path, &[]);
    let list = puzzles(&document);
    assert_eq!(engines(&document), ["sudoku9", "search", "sudoku9", "sudoku9"], "{document}");
    let verdicts: Vec<(&str, &str)> = list
        .iter()
        .map(|p| (p["status"].as_str().unwrap_or(""), p["uniqueness"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(verdicts[0], ("solved", "unique"));
    assert_eq!(verdicts[2], ("solved", "multiple"));
    assert_eq!(verdicts[3].0, "unsatisfiable", "{document}");
}

#[test]
fn every_top1465_puzzle_is_answered_by_the_dedicated_engine_verified_and_as_the_general_one() {
    let Some(data) = data() else { return };
    let path = data.join("sudoku/lines/top1465.txt");
    let document = solve_json(&path, &[]);
    let list = puzzles(&document);
    assert_eq!(list.len(), 1465);
    assert_eq!(document["summary"]["solved"], 1465, "{}", document["summary"]);
    for puzzle in &list {
        assert_eq!(puzzle["uniqueness"], "unique");
        assert_eq!(puzzle["statistics"]["engine"], "sudoku9");
    }
    // The same answers as the general engine's, compared on the library for a sample.
    let options = SolveOptions::default();
    for (k, line) in text(&path).lines().filter(|l| l.len() >= 81).enumerate().step_by(15) {
        let entry = format::read(line, Some(Format::Lines)).expect("a line").entries.remove(0);
        let Ok(parsed) = entry else { panic!("line {}: unreadable", k + 1) };
        let Puzzle::Sudoku(sudoku) = &parsed.puzzle else { panic!("not a Sudoku") };
        let general = solver::solve(&parsed.puzzle.compile().model, &options, None);
        let dedicated = solver::sudoku9::solve(&sudoku.givens, &options, Control::default());
        assert_eq!((dedicated.count, dedicated.complete), (1, true), "line {}", k + 1);
        assert_eq!(dedicated.solutions, general.solutions, "line {}", k + 1);
        let reported: Vec<u32> = list[k]["solution"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|row| row.as_array().into_iter().flatten().filter_map(Value::as_u64))
            .map(|v| v as u32)
            .collect();
        assert_eq!(reported, dedicated.solutions[0], "line {}", k + 1);
    }
}
