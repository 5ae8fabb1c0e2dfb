//! The command-line edges a new user runs into, each through the real binary: what a
//! misread input, a missing file, a folder given for a file, a negative number or a file
//! in the way is told, and how the command exits.

use crate::common;
use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn kakurod(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kakurod")).args(args).output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `kakurod solve` on a file holding `text`: its exit code and standard error.
fn solved(text: &str) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("input.txt");
    fs::write(&file, text).unwrap();
    let out = kakurod(&["solve", path(&file)]);
    (out.status.code(), stderr(&out))
}

#[test]
fn links_of_other_puzzles_are_refused_for_what_they_are() {
    let (code, said) = solved("https://puzz.link/p?nurikabe/5/5/g5k\n");
    assert_eq!(code, Some(1));
    assert!(said.contains("puzz.link type `nurikabe` is not one kakurod solves"), "{said}");
    let (_, said) = solved("https://puzz.link/p?killersudoku/9/9/abc\n");
    assert!(said.contains("type `killersudoku`") && said.contains("f-puzzles"), "{said}");
    let (code, said) = solved("https://sudokupad.app/psxczr0jpr\n");
    assert_eq!(code, Some(1));
    assert!(said.contains("SudokuPad short link") && said.contains("network"), "{said}");
}

#[test]
fn prose_and_web_pages_are_no_puzzle_format() {
    let (code, said) = solved("this is not a puzzle\n1 2 3\n");
    assert_eq!(code, Some(1));
    assert!(said.contains("input.txt:1:1: cannot tell the puzzle format"), "{said}");
    let (_, said) = solved("<!DOCTYPE html>\n<html><body>a page</body></html>\n");
    assert!(said.contains("input.txt:1:1: the file is markup"), "{said}");
}

#[test]
fn explain_and_hint_name_the_file_they_cannot_read_and_exit_1() {
    let puzzle = common::fixtures().join("kakuro/241_9x9.txt");
    let out = kakurod(&["explain", "missing.txt"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("missing.txt: cannot read the file: "), "{}", stderr(&out));
    let out = kakurod(&["hint", "--progress", "no-progress.txt", path(&puzzle)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("no-progress.txt: cannot read the file"), "{}", stderr(&out));
}

#[test]
fn negative_and_too_large_numbers_are_refused_by_what_they_mean() {
    let puzzle = common::fixtures().join("kakuro/241_9x9.txt");
    let out = kakurod(&["solve", "--timeout", "-1", path(&puzzle)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("'-1' is not a number of seconds"), "{}", stderr(&out));
    let out = kakurod(&["solve", "--threads=-1", path(&puzzle)]);
    assert!(stderr(&out).contains("-1 is not in 0..=1024"), "{}", stderr(&out));
    let out = kakurod(&["solve", "--threads", "99999", path(&puzzle)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("99999 is not in 0..=1024"), "{}", stderr(&out));
    // Zero is no limit, for generate as everywhere else.
    let out = kakurod(&["generate", "--rows", "8", "--cols", "8", "--seed", "3", "--timeout", "0"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn convert_and_print_take_folders_as_solve_does() {
    let kakuro = common::fixtures().join("kakuro");
    let out = kakurod(&["convert", "--to", "puzzlink", path(&kakuro)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let urls = String::from_utf8_lossy(&out.stdout).lines().count();
    let puzzles = fs::read_dir(&kakuro)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "txt"))
        .count();
    assert_eq!(urls, puzzles, "one URL per puzzle, no .sol read");
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("sheet.pdf");
    let out = kakurod(&["print", "--out", path(&pdf), path(&kakuro)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains(&format!("{puzzles} puzzles on")), "{}", stderr(&out));
}

#[test]
fn print_says_where_a_bad_line_is_once() {
    let dir = tempfile::tempdir().unwrap();
    let clue = dir.path().join("clue-0.txt");
    fs::write(&clue, "2 2\n- 3,\n,3 x\n").unwrap();
    let out = kakurod(&["print", "--out", path(&dir.path().join("a.pdf")), path(&clue)]);
    let said = stderr(&out);
    assert!(said.contains("clue-0.txt:3:"), "{said}");
    assert!(!said.contains("clue-0.txt: clue-0.txt"), "the name said twice: {said}");
}

#[test]
fn convert_splits_a_batch_into_a_folder_and_names_the_formats_that_hold_it() {
    let batch = common::fixtures().join("sudoku/top1465-first20.txt");
    let out = kakurod(&["convert", "--to", "sdk", path(&batch)]);
    assert_eq!(out.status.code(), Some(2));
    let said = stderr(&out);
    assert!(said.contains("give --out an existing folder"), "{said}");
    assert!(said.contains("lines, puzzlink or fpuzzles"), "{said}");
    // A Kakuro among them: only the formats that hold both kinds are named.
    let kakuro = common::fixtures().join("kakuro/241_9x9.txt");
    let out = kakurod(&["convert", "--to", "json", path(&batch), path(&kakuro)]);
    let said = stderr(&out);
    assert!(said.contains("or convert to puzzlink\n") && !said.contains("lines"), "{said}");

    let dir = tempfile::tempdir().unwrap();
    let out = kakurod(&["convert", "--to", "sdk", "--out", path(dir.path()), path(&batch)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut files: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files.len(), 20, "{files:?}");
    assert!(files.iter().all(|f| f.starts_with("top1465-first20-") && f.ends_with(".sdk")));
    // Each file reads back as the one puzzle it holds.
    let first = dir.path().join(&files[0]);
    let out = kakurod(&["solve", path(&first)]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn files_in_the_way_are_kept_unless_forced_and_folders_are_asked_for_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = common::fixtures().join("kakuro/241_9x9.txt");
    let taken = dir.path().join("taken.txt");
    fs::write(&taken, "mine\n").unwrap();
    for args in [
        vec!["convert", "--to", "janko", "--out", path(&taken), path(&puzzle)],
        vec!["print", "--out", path(&taken), path(&puzzle)],
    ] {
        let out = kakurod(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains("exists: it is not replaced without --force"), "{args:?}");
        assert_eq!(fs::read_to_string(&taken).unwrap(), "mine\n", "{args:?}");
    }
    let out =
        kakurod(&["convert", "--to", "janko", "--out", path(&taken), "--force", path(&puzzle)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_ne!(fs::read_to_string(&taken).unwrap(), "mine\n");

    let out = kakurod(&["solve", "--out", path(&taken), path(&puzzle)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--out wants a folder"), "{}", stderr(&out));
    let out = kakurod(&["explain", "--svg", path(&taken), path(&puzzle)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--svg wants a folder"), "{}", stderr(&out));

    let pictures = dir.path().join("steps");
    let first = kakurod(&["explain", "--svg", path(&pictures), "--steps", "1", path(&puzzle)]);
    assert!(first.status.success(), "{}", stderr(&first));
    let again = kakurod(&["explain", "--svg", path(&pictures), "--steps", "1", path(&puzzle)]);
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(&again).contains("step-001.svg exists"), "{}", stderr(&again));
    let forced =
        kakurod(&["explain", "--svg", path(&pictures), "--steps", "1", "--force", path(&puzzle)]);
    assert!(forced.status.success(), "{}", stderr(&forced));
}

#[test]
fn every_command_says_how_it_exits() {
    for command in ["serve", "generate", "solve", "convert", "print", "explain", "worker"] {
        let out = kakurod(&[command, "--help"]);
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(help.contains("Exit status") || help.contains("exit 0"), "{command}:\n{help}");
    }
    let help = String::from_utf8_lossy(&kakurod(&["serve", "--help"]).stdout).into_owned();
    assert!(help.contains("SIGTERM or SIGINT"), "{help}");
    let help = String::from_utf8_lossy(&kakurod(&["convert", "--help"]).stdout).into_owned();
    assert!(help.contains("kanpen") && help.contains("fpuzzles"), "{help}");
}
