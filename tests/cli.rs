//! End-to-end tests of `kakurod solve` and `kakurod bench`: the real binary on real
//! puzzles, checking what it prints, what it writes and how it exits.

use serde_json::Value;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The puzzle data folder: `$KAKUROD_DATA`, else `../shared/data` beside the package.
fn data() -> PathBuf {
    std::env::var_os("KAKUROD_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
}

/// Copies `rel` (and its `.sol` when there is one) from the data folder into `dir`, and
/// returns the copy's path.
fn copy(rel: &str, dir: &Path) -> PathBuf {
    let from = data().join(rel);
    let to = dir.join(from.file_name().unwrap());
    fs::copy(&from, &to).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    let sol = from.with_extension("sol");
    if sol.exists() {
        fs::copy(&sol, to.with_extension("sol")).unwrap();
    }
    to
}

fn kakurod(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kakurod"))
        .args(args)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(bytes) = stdin {
        child.stdin.take().unwrap().write_all(bytes).unwrap();
    }
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// Lines with their trailing blanks removed, for comparing grids.
fn lines(text: &str) -> Vec<String> {
    text.lines().map(|l| l.trim_end().to_string()).filter(|l| !l.is_empty()).collect()
}

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn json_file(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// The files of `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn kakuro_solution_on_stdout_equals_the_sol_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = copy("kakuro/janko/1_10x12.txt", dir.path());
    let out = kakurod(&["solve", path_str(&file)], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let expected = fs::read_to_string(file.with_extension("sol")).unwrap();
    assert_eq!(lines(&text(&out.stdout)), lines(&expected));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("solved unique kakuro 10x12 nodes="), "{stderr}");
}

#[test]
fn sudoku_and_killer_solutions_equal_their_sol_files() {
    let dir = tempfile::tempdir().unwrap();
    for rel in ["sudoku/janko/1051_16x16.txt", "killer-sudoku/janko/101_4x4.txt"] {
        let file = copy(rel, dir.path());
        let out = kakurod(&["solve", path_str(&file)], None);
        assert_eq!(out.status.code(), Some(0), "{rel}: {}", text(&out.stderr));
        let expected = fs::read_to_string(file.with_extension("sol")).unwrap();
        assert_eq!(lines(&text(&out.stdout)), lines(&expected), "{rel}");
    }
}

#[test]
fn json_output_is_a_solved_unique_document() {
    let dir = tempfile::tempdir().unwrap();
    let file = copy("kakuro/janko/1_10x12.txt", dir.path());
    let out = kakurod(&["solve", "--json", path_str(&file)], None);
    assert_eq!(out.status.code(), Some(0));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["status"], "solved");
    assert_eq!(doc["uniqueness"], "unique");
    assert_eq!(doc["kind"], "kakuro");
    assert_eq!(doc["file"], "1_10x12.txt");
    assert_eq!(doc["solution"].as_array().unwrap().len(), 10);
    assert!(doc["statistics"]["nodes"].as_u64().unwrap() >= 1);
}

#[test]
fn a_puzzle_with_two_solutions_is_solved_and_reported_multiple() {
    let dir = tempfile::tempdir().unwrap();
    let file = copy("kakuro/janko/257_24x28.txt", dir.path());
    let out = kakurod(&["solve", "--json", path_str(&file)], None);
    assert_eq!(out.status.code(), Some(0));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["status"], "solved");
    assert_eq!(doc["uniqueness"], "multiple");
}

#[test]
fn standard_input_is_read_with_a_dash() {
    let sol = fs::read_to_string(data().join("kakuro/janko/1_10x12.sol")).unwrap();
    let puzzle = fs::read(data().join("kakuro/janko/1_10x12.txt")).unwrap();
    let out = kakurod(&["solve", "-"], Some(&puzzle));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(lines(&text(&out.stdout)), lines(&sol));

    let dir = tempfile::tempdir().unwrap();
    let out = kakurod(&["solve", "--out", path_str(dir.path()), "-"], Some(&puzzle));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(listing(dir.path()), ["stdin.json", "stdin.solution.txt"]);
    assert_eq!(json_file(&dir.path().join("stdin.json"))["file"], "stdin");
}

/// A Kakuro whose third line holds a token that is neither `-`, `0` nor a clue.
const BAD_KAKURO: &str = "3 3\n- 4, 6,\n,3 0 x7\n,7 0 0\n";

#[test]
fn out_writes_results_and_error_documents_atomically() {
    let inputs = tempfile::tempdir().unwrap();
    let kakuro = copy("kakuro/janko/1_10x12.txt", inputs.path());
    let sudoku = copy("sudoku/janko/1051_16x16.txt", inputs.path());
    let bad = inputs.path().join("bad.txt");
    fs::write(&bad, BAD_KAKURO).unwrap();
    let out_dir = inputs.path().join("out/nested");
    let out = kakurod(
        &[
            "solve",
            "--out",
            path_str(&out_dir),
            path_str(&kakuro),
            path_str(&sudoku),
            path_str(&bad),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1), "an invalid file makes the exit status 1");
    assert_eq!(
        listing(&out_dir),
        [
            "1051_16x16.json",
            "1051_16x16.solution.txt",
            "1_10x12.json",
            "1_10x12.solution.txt",
            "bad.error.json",
        ],
        "no temporary file is left behind"
    );
    let solution = fs::read_to_string(out_dir.join("1_10x12.solution.txt")).unwrap();
    let sol = fs::read_to_string(kakuro.with_extension("sol")).unwrap();
    assert_eq!(lines(&solution), lines(&sol));
    assert_eq!(json_file(&out_dir.join("1051_16x16.json"))["status"], "solved");
    let error = json_file(&out_dir.join("bad.error.json"));
    assert_eq!(error["status"], "invalid");
    assert_eq!(error["error"]["line"], 3);
    assert!(error["error"]["column"].as_u64().unwrap() >= 1);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("3 files, 3 puzzles: 2 solved, 0 unsatisfiable, 1 invalid"),
        "{stderr}"
    );
}

#[test]
fn an_invalid_file_reports_file_line_and_column_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    fs::write(&bad, BAD_KAKURO).unwrap();
    let out = kakurod(&["solve", path_str(&bad)], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    let prefix = format!("{}:3:", bad.display());
    assert!(stderr.starts_with(&prefix) && stderr.contains("(expected "), "{stderr}");
}

#[test]
fn a_missing_file_is_an_error_result_with_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.txt");
    let out = kakurod(&["solve", path_str(&missing)], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains(":1:1: cannot read the file"));

    let out_dir = dir.path().join("out");
    let out = kakurod(&["solve", "--out", path_str(&out_dir), path_str(&missing)], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(listing(&out_dir), ["missing.error.json"]);
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(kakurod(&["solve", "--no-such-flag", "x"], None).status.code(), Some(2));
    assert_eq!(kakurod(&["solve"], None).status.code(), Some(2));
    let both = kakurod(&["solve", "--json", "--svg", "x.txt"], None);
    assert_eq!(both.status.code(), Some(2));
    assert_eq!(kakurod(&["solve", "-", "-"], None).status.code(), Some(2));
}

/// True when `line` is a valid filled 9x9 Sudoku that keeps every given of `puzzle`.
fn solves(puzzle: &str, line: &str) -> bool {
    let digits: Vec<u32> = line.chars().filter_map(|c| c.to_digit(10)).collect();
    if digits.len() != 81 || line.len() != 81 {
        return false;
    }
    let keeps_givens =
        puzzle.chars().zip(&digits).all(|(g, &d)| g.to_digit(10).is_none_or(|g| g == 0 || g == d));
    let unit_ok = |cells: Vec<usize>| {
        let mut seen = [false; 10];
        cells.iter().all(|&i| !std::mem::replace(&mut seen[digits[i] as usize], true))
    };
    let rows = (0..9).all(|r| unit_ok((0..9).map(|c| r * 9 + c).collect()));
    let cols = (0..9).all(|c| unit_ok((0..9).map(|r| r * 9 + c).collect()));
    let boxes = (0..9)
        .all(|b| unit_ok((0..9).map(|i| (b / 3 * 3 + i / 3) * 9 + b % 3 * 3 + i % 3).collect()));
    keeps_givens && rows && cols && boxes
}

#[test]
fn a_batch_of_sudoku_lines_gives_one_line_per_puzzle_in_order() {
    let all = fs::read_to_string(data().join("sudoku/lines/top1465.txt")).unwrap();
    let puzzles: Vec<&str> = all.lines().filter(|l| !l.starts_with('#')).take(25).collect();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("batch.txt");
    fs::write(&file, puzzles.join("\n") + "\n").unwrap();
    let out = kakurod(&["solve", path_str(&file)], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let answers = lines(&text(&out.stdout));
    assert_eq!(answers.len(), puzzles.len());
    for (puzzle, answer) in puzzles.iter().zip(&answers) {
        assert!(solves(puzzle, answer), "{answer} does not solve {puzzle}");
    }
    assert!(text(&out.stderr).contains("batch of 25 puzzles: 25 solved"));

    let out_dir = dir.path().join("out");
    let out = kakurod(&["solve", "--out", path_str(&out_dir), path_str(&file)], None);
    assert_eq!(out.status.code(), Some(0));
    let written = fs::read_to_string(out_dir.join("batch.solution.txt")).unwrap();
    assert_eq!(lines(&written), answers);
    let doc = json_file(&out_dir.join("batch.json"));
    assert_eq!(doc["puzzles"].as_array().unwrap().len(), 25);
    assert_eq!(doc["summary"]["solved"], 25);
}

#[test]
fn svg_goes_to_stdout_or_beside_the_results() {
    let dir = tempfile::tempdir().unwrap();
    let file = copy("kakuro/janko/1_10x12.txt", dir.path());
    let out = kakurod(&["solve", "--svg", path_str(&file)], None);
    assert_eq!(out.status.code(), Some(0));
    let svg = text(&out.stdout);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("class=\"cell\"").count(), 10 * 12);

    let out_dir = dir.path().join("out");
    let out = kakurod(&["solve", "--svg", "--out", path_str(&out_dir), path_str(&file)], None);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(fs::read_to_string(out_dir.join("1_10x12.svg")).unwrap(), svg);
}

#[test]
fn several_files_print_in_order_and_json_forms_an_array() {
    let dir = tempfile::tempdir().unwrap();
    let a = copy("kakuro/janko/1_10x12.txt", dir.path());
    let b = copy("killer-sudoku/janko/101_4x4.txt", dir.path());
    let out = kakurod(&["solve", "--json", path_str(&a), path_str(&b)], None);
    assert_eq!(out.status.code(), Some(0));
    let docs: Value = serde_json::from_slice(&out.stdout).unwrap();
    let files: Vec<&str> =
        docs.as_array().unwrap().iter().map(|d| d["file"].as_str().unwrap()).collect();
    assert_eq!(files, ["1_10x12.txt", "101_4x4.txt"]);

    let out = kakurod(&["solve", path_str(&a), path_str(&b)], None);
    let stdout = text(&out.stdout);
    let headers: Vec<&str> = stdout.lines().filter(|l| l.starts_with("# ")).collect();
    assert_eq!(headers, [format!("# {}", a.display()), format!("# {}", b.display())]);
}

#[test]
fn bench_reports_medians_and_the_slowest() {
    let dir = tempfile::tempdir().unwrap();
    copy("kakuro/janko/1_10x12.txt", dir.path());
    copy("killer-sudoku/janko/101_4x4.txt", dir.path());
    let out =
        kakurod(&["bench", "--runs", "3", "--top", "1", "--json", path_str(dir.path())], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["files"].as_array().unwrap().len(), 2, "the .sol files are skipped");
    assert_eq!(doc["threads"], 1);
    assert_eq!(doc["runs"], 3);
    assert_eq!(doc["summary"]["solved"], 2);
    assert_eq!(doc["slowest"].as_array().unwrap().len(), 1);
    let total = doc["total_median_ms"].as_f64().unwrap();
    let sum: f64 =
        doc["files"].as_array().unwrap().iter().map(|f| f["median_ms"].as_f64().unwrap()).sum();
    assert!((total - sum).abs() < 1e-6);

    let out = kakurod(&["bench", "--runs", "1", "--threads", "2", path_str(dir.path())], None);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("threads=2") && stdout.contains("total of medians:"), "{stdout}");
}
