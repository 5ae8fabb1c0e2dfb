//! End-to-end tests of `kakurod solve` and `kakurod bench`: the real binary on real
//! puzzles, checking what it prints, what it writes and how it exits.

use serde_json::{Value, json};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common;

/// A file of `tests/fixtures`.
fn fixture(rel: &str) -> PathBuf {
    common::fixtures().join(rel)
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
    let file = fixture("kakuro/1_10x12.txt");
    let out = kakurod(&["solve", path_str(&file)], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let expected = fs::read_to_string(file.with_extension("sol")).unwrap();
    assert_eq!(lines(&text(&out.stdout)), lines(&expected));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("solved unique kakuro 10x12 nodes="), "{stderr}");
}

#[test]
fn every_kind_and_format_prints_its_sol_file() {
    let cases = [
        ("sudoku/1051_16x16.txt", "sudoku/1051_16x16.sol"),
        ("sudoku/1_9x9.dzn", "sudoku/1_9x9.sol"),
        ("killer/111_9x9.txt", "killer/111_9x9.sol"),
        ("killer/101_4x4.json", "killer/101_4x4.sol"),
        ("formats/960_31x46.matrices.txt", "formats/960_31x46.sol"),
        ("formats/1_10x12.backslash.txt", "formats/1_10x12.sol"),
    ];
    for (rel, sol) in cases {
        let out = kakurod(&["solve", path_str(&fixture(rel))], None);
        assert_eq!(out.status.code(), Some(0), "{rel}: {}", text(&out.stderr));
        let expected = fs::read_to_string(fixture(sol)).unwrap();
        assert_eq!(lines(&text(&out.stdout)), lines(&expected), "{rel}");
    }
}

#[test]
fn json_output_is_a_solved_unique_document() {
    let file = fixture("kakuro/1_10x12.txt");
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
fn the_grade_says_how_it_was_decided_and_grade_off_leaves_it_out() {
    let file = fixture("kakuro/257_24x28.txt");
    for (grade, graded_by) in [("auto", "logic_stuck"), ("full", "logic_stuck")] {
        let out = kakurod(&["solve", "--json", "--grade", grade, path_str(&file)], None);
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        // Several solutions: expert, decided by the logic below trial, never by trial.
        assert_eq!((&doc["difficulty"], &doc["graded_by"]), (&"expert".into(), &graded_by.into()));
        assert_eq!(doc["settings"]["grade"], grade);
        assert!(doc["statistics"]["grade_ms"].as_f64().is_some(), "{doc}");
    }
    let easy = fixture("kakuro/1_10x12.txt");
    let out = kakurod(&["solve", "--grade", "off", path_str(&easy)], None);
    assert!(!text(&out.stderr).contains("difficulty="), "{}", text(&out.stderr));
    let out = kakurod(&["solve", path_str(&easy)], None);
    assert!(text(&out.stderr).contains("difficulty=easy graded_by=logic"), "{}", text(&out.stderr));
}

#[test]
fn a_puzzle_with_two_solutions_is_solved_and_reported_multiple() {
    let file = fixture("kakuro/257_24x28.txt");
    let out = kakurod(&["solve", "--json", path_str(&file)], None);
    assert_eq!(out.status.code(), Some(0));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["status"], "solved");
    assert_eq!(doc["uniqueness"], "multiple");
    let dir = tempfile::tempdir().unwrap();
    let out = kakurod(&["solve", "--out", path_str(dir.path()), path_str(&file)], None);
    let stderr = text(&out.stderr);
    assert!(stderr.contains("1 solved (1 with more than one solution)"), "{stderr}");
}

#[test]
fn standard_input_is_read_with_a_dash() {
    let sol = fs::read_to_string(fixture("kakuro/1_10x12.sol")).unwrap();
    let puzzle = fs::read(fixture("kakuro/1_10x12.txt")).unwrap();
    let out = kakurod(&["solve", "-"], Some(&puzzle));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(lines(&text(&out.stdout)), lines(&sol));

    let dir = tempfile::tempdir().unwrap();
    let out = kakurod(&["solve", "--out", path_str(dir.path()), "-"], Some(&puzzle));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(listing(dir.path()), ["stdin.json", "stdin.solution.txt"]);
    assert_eq!(json_file(&dir.path().join("stdin.json"))["file"], "stdin");
}

#[test]
fn out_writes_results_and_error_documents_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let kakuro = fixture("kakuro/1_10x12.txt");
    let sudoku = fixture("sudoku/1051_16x16.txt");
    let bad = fixture("invalid/unknown-token.txt");
    let out_dir = dir.path().join("out/nested");
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
            "unknown-token.error.json",
        ],
        "no temporary file is left behind"
    );
    let solution = fs::read_to_string(out_dir.join("1_10x12.solution.txt")).unwrap();
    let sol = fs::read_to_string(kakuro.with_extension("sol")).unwrap();
    assert_eq!(lines(&solution), lines(&sol));
    assert_eq!(json_file(&out_dir.join("1051_16x16.json"))["status"], "solved");
    let error = json_file(&out_dir.join("unknown-token.error.json"));
    assert_eq!(error["status"], "invalid");
    assert_eq!(error["error"]["line"], 3);
    assert_eq!(error["error"]["column"], 6);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("3 files, 3 puzzles: 2 solved, 0 unsatisfiable, 1 invalid"),
        "{stderr}"
    );
}

#[test]
fn out_never_overwrites_an_earlier_result_and_numbers_the_later_one() {
    let dir = tempfile::tempdir().unwrap();
    let (txt, json) = (dir.path().join("p.txt"), dir.path().join("p.json"));
    fs::copy(fixture("killer/101_4x4.txt"), &txt).unwrap();
    fs::copy(fixture("killer/101_4x4.json"), &json).unwrap();
    let out_dir = dir.path().join("out");
    let out = kakurod(&["solve", "--out", path_str(&out_dir), path_str(&txt)], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(listing(&out_dir), ["p.json", "p.solution.txt"]);
    let first = fs::read(out_dir.join("p.json")).unwrap();

    // A second run, and two inputs of the same name in one run, keep the earlier results.
    let args = ["solve", "--out", path_str(&out_dir), path_str(&txt), path_str(&json)];
    let out = kakurod(&args, None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        listing(&out_dir),
        [
            "p-2.json",
            "p-2.solution.txt",
            "p-3.json",
            "p-3.solution.txt",
            "p.json",
            "p.solution.txt"
        ]
    );
    assert_eq!(fs::read(out_dir.join("p.json")).unwrap(), first);
    let mut files: Vec<String> = ["p-2.json", "p-3.json"]
        .iter()
        .map(|name| json_file(&out_dir.join(name))["file"].as_str().unwrap().to_string())
        .collect();
    files.sort();
    assert_eq!(files, ["p.json", "p.txt"]);
}

#[test]
fn an_invalid_file_reports_file_line_and_column_and_exits_1() {
    let bad = fixture("invalid/unknown-token.txt");
    let out = kakurod(&["solve", path_str(&bad)], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    let prefix = format!("{}:3:6: ", bad.display());
    assert!(stderr.starts_with(&prefix) && stderr.contains("(expected "), "{stderr}");
}

#[test]
fn a_junk_file_of_megabytes_is_rejected_whole_from_its_first_lines() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("garbage.txt");
    fs::write(&junk, common::junk::base64_junk(90_000)).unwrap();
    let out = kakurod(&["solve", "--json", path_str(&junk)], None);
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["status"], "invalid", "{doc}");
    let message = doc["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("none of the first 100 puzzle lines can be read"), "{message}");
    assert_eq!(doc["error"]["line"], 1, "{doc}");
    let out_dir = dir.path().join("out");
    let out = kakurod(&["solve", "--out", path_str(&out_dir), path_str(&junk)], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(listing(&out_dir), ["garbage.error.json"]);
}

#[test]
fn a_missing_file_is_an_error_result_with_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.txt");
    let out = kakurod(&["solve", path_str(&missing)], None);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with(&format!("{}: cannot read the file", missing.display())),
        "{stderr}"
    );

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
    let file = fixture("sudoku/top1465-first20.txt");
    let all = fs::read_to_string(&file).unwrap();
    let puzzles: Vec<&str> = all.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(puzzles.len(), 20);
    let dir = tempfile::tempdir().unwrap();
    let out = kakurod(&["solve", path_str(&file)], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let answers = lines(&text(&out.stdout));
    assert_eq!(answers.len(), puzzles.len());
    for (puzzle, answer) in puzzles.iter().zip(&answers) {
        assert!(solves(puzzle, answer), "{answer} does not solve {puzzle}");
    }
    assert!(text(&out.stderr).contains("batch of 20 puzzles: 20 solved"));

    let out_dir = dir.path().join("out");
    let out = kakurod(&["solve", "--out", path_str(&out_dir), path_str(&file)], None);
    assert_eq!(out.status.code(), Some(0));
    let written = fs::read_to_string(out_dir.join("top1465-first20.solution.txt")).unwrap();
    assert_eq!(lines(&written), answers);
    let doc = json_file(&out_dir.join("top1465-first20.json"));
    assert_eq!(doc["puzzles"].as_array().unwrap().len(), 20);
    // Each puzzle of a batch names the line it starts on (after the comment lines at the top).
    let starts: Vec<u64> =
        doc["puzzles"].as_array().unwrap().iter().map(|p| p["line"].as_u64().unwrap()).collect();
    let comments = all.lines().take_while(|l| l.starts_with('#')).count() as u64;
    assert_eq!(starts, (1..=20).map(|i| i + comments).collect::<Vec<_>>());
    assert_eq!(doc["summary"]["solved"], 20);
}

#[test]
fn svg_goes_to_stdout_or_beside_the_results() {
    let dir = tempfile::tempdir().unwrap();
    let file = fixture("kakuro/1_10x12.txt");
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
    let a = fixture("kakuro/1_10x12.txt");
    let b = fixture("killer/101_4x4.txt");
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
    let dir = fixture("killer");
    let out = kakurod(&["bench", "--runs", "3", "--top", "1", "--json", path_str(&dir)], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    // 101_4x4.fpuzzles.txt, 101_4x4.json, 101_4x4.txt, 111_9x9.txt, 574_6x6.txt: the .sol
    // files are skipped.
    assert_eq!(doc["files"].as_array().unwrap().len(), 5);
    assert_eq!(doc["threads"], 1);
    assert_eq!(doc["runs"], 3);
    assert_eq!(doc["summary"]["solved"], 5);
    assert_eq!(doc["slowest"].as_array().unwrap().len(), 1);
    let total = doc["total_median_ms"].as_f64().unwrap();
    let sum: f64 =
        doc["files"].as_array().unwrap().iter().map(|f| f["median_ms"].as_f64().unwrap()).sum();
    assert!((total - sum).abs() < 1e-6);

    let out = kakurod(&["bench", "--runs", "1", "--threads", "2", path_str(&dir)], None);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("threads=2") && stdout.contains("total of medians:"), "{stdout}");
    // Only Kakuro are graded.
    assert!(!stdout.contains("difficulty:"), "{stdout}");
}

#[test]
fn bench_counts_the_grades_of_the_kakuro() {
    let dir = fixture("kakuro");
    let out = kakurod(&["bench", "--runs", "1", "--json", path_str(&dir)], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let grades = &doc["difficulty"];
    let count = |level: &str| grades[level].as_u64().unwrap();
    let total = count("easy") + count("medium") + count("hard") + count("expert");
    assert_eq!(total, doc["files"].as_array().unwrap().len() as u64, "{doc}");
    // 257_24x28 has two solutions: logic cannot finish it.
    let several = doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["file"].as_str().is_some_and(|f| f.ends_with("257_24x28.txt")));
    assert_eq!(several.map(|f| &f["difficulty"]), Some(&Value::from("expert")), "{doc}");
    let out = kakurod(&["bench", "--runs", "1", path_str(&dir)], None);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("difficulty: easy "), "{stdout}");
}

#[test]
fn an_unsatisfiable_puzzle_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("unsat.txt");
    // 4x4: the first row needs a 4 in its last cell, and that column already has one.
    fs::write(&file, concat!("123.", "....", "...4", "....", "\n")).unwrap();
    let out = kakurod(&["solve", path_str(&file)], None);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(lines(&text(&out.stdout)), ["# line 1: unsatisfiable"]);
    assert!(text(&out.stderr).contains("0 solved, 1 unsatisfiable"));
}

#[test]
fn a_batch_with_a_bad_line_answers_the_others_and_exits_1() {
    let out = kakurod(&["solve", path_str(&fixture("invalid/lines-bad-line.txt"))], None);
    assert_eq!(out.status.code(), Some(1));
    let answers = lines(&text(&out.stdout));
    assert_eq!(answers.len(), 3);
    assert_eq!(answers[1], "# line 3: invalid");
    assert!(text(&out.stderr).contains("lines-bad-line.txt:3:1: "));
}

#[test]
fn node_limit_and_timeout_stop_the_search_and_keep_its_statistics() {
    // Plain backtracking needs about 1.3 million nodes for this puzzle.
    let file = fixture("kakuro/241_9x9.txt");
    for (flag, value, reason) in
        [("--node-limit", "500", "node_limit"), ("--timeout", "0.001", "timeout")]
    {
        let args = ["solve", "--json", "--threads", "1", "--algorithm", "bt", flag, value];
        let mut args = args.to_vec();
        args.push(path_str(&file));
        let out = kakurod(&args, None);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["status"], "timeout", "{doc}");
        assert_eq!(doc["stopped_by"], reason, "{doc}");
        let nodes = doc["statistics"]["nodes"].as_u64().unwrap();
        assert!(nodes >= 500 || flag == "--timeout", "{doc}");
        assert!(nodes > 0 && doc["solution"].is_null(), "{doc}");
    }
}

#[test]
fn a_node_limit_is_kept_exactly_by_every_engine_on_one_thread_or_more() {
    let dir = tempfile::tempdir().unwrap();
    let blank16 = dir.path().join("blank16.txt");
    fs::write(&blank16, "16 16\n".to_string() + &format!("{}\n", "- ".repeat(16)).repeat(16))
        .unwrap();
    let kakuro = fixture("kakuro/241_9x9.txt");
    let cases = [("bt", &kakuro, "unique"), ("fc", &kakuro, "unique"), ("mac", &blank16, "count")];
    for (algorithm, file, mode) in cases {
        for threads in ["1", "2"] {
            for limit in [1u64, 2, 3, 200] {
                let limit_text = limit.to_string();
                let args = [
                    "solve",
                    "--json",
                    "--algorithm",
                    algorithm,
                    "--mode",
                    mode,
                    "--threads",
                    threads,
                    "--node-limit",
                    &limit_text,
                    path_str(file),
                ];
                let doc: Value = serde_json::from_slice(&kakurod(&args, None).stdout).unwrap();
                let nodes = doc["statistics"]["nodes"].as_u64().unwrap();
                let case = format!("{algorithm} threads {threads} limit {limit}: {doc}");
                assert!(nodes <= limit, "{case}");
                assert_eq!(doc["stopped_by"], "node_limit", "{case}");
            }
        }
    }
}

#[test]
fn timeout_zero_is_no_limit_and_a_node_limit_of_zero_is_refused() {
    let file = fixture("kakuro/241_9x9.txt");
    let out = kakurod(&["solve", "--json", "--timeout", "0", path_str(&file)], None);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["status"], "solved", "{doc}");
    let out = kakurod(&["solve", "--node-limit", "0", path_str(&file)], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--node-limit"), "{}", text(&out.stderr));
}

#[test]
fn a_count_stopped_by_its_timeout_is_a_timeout_with_the_count_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("blank.txt");
    fs::write(&file, "9 9\n".to_string() + &"- - - - - - - - -\n".repeat(9)).unwrap();
    let args = ["solve", "--json", "--mode", "count", "--timeout", "1", path_str(&file)];
    let out = kakurod(&args, None);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["status"], "timeout", "{doc}");
    assert_eq!(doc["stopped_by"], "timeout", "{doc}");
    assert_eq!(doc["uniqueness"], "multiple", "{doc}");
    let found = doc["solutions_found"].as_u64().unwrap();
    assert!(found >= 2 && doc["statistics"]["solutions"].as_u64() == Some(found), "{doc}");
}

#[test]
fn out_refuses_a_name_whose_result_would_read_as_another_inputs_error() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("q.error.txt");
    fs::copy(fixture("kakuro/1_10x12.txt"), &input).unwrap();
    let out_dir = dir.path().join("out");
    let out = kakurod(&["solve", "--out", path_str(&out_dir), path_str(&input)], None);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(listing(&out_dir), ["q.error.error.json"]);
    let doc = json_file(&out_dir.join("q.error.error.json"));
    assert!(doc["error"]["message"].as_str().unwrap().contains("is reserved"), "{doc}");
}

#[test]
fn svg_of_a_batch_is_refused_before_solving_as_a_usage_error() {
    let file = fixture("sudoku/top1465-first20.txt");
    let out = kakurod(&["solve", "--svg", path_str(&file)], None);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("a batch file has no picture"), "{stderr}");
    // Refused before solving: no statistics line of the batch.
    assert!(!stderr.contains("batch of 20 puzzles"), "{stderr}");
}

#[test]
fn a_missing_configuration_is_reported_once_with_its_cause() {
    let out = kakurod(&["serve", "--config", "/nonexistent/kakurod/config.toml"], None);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("cannot read the configuration file"), "{stderr}");
    assert_eq!(stderr.matches("No such file or directory").count(), 1, "{stderr}");
}

/// Runs kakurod with its standard output a pipe whose reader is already gone.
fn with_closed_stdout(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kakurod"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

#[test]
fn a_reader_that_goes_away_ends_the_output_quietly() {
    let kakuro = fixture("kakuro");
    let puzzle = fixture("kakuro/1_10x12.txt");
    for args in [
        vec!["bench", "--runs", "1", path_str(&kakuro)],
        vec!["solve", path_str(&puzzle)],
        vec!["solve", "--json", path_str(&puzzle)],
        vec!["generate", "--rows", "12", "--cols", "12"],
    ] {
        let output = with_closed_stdout(&args);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked") && !stderr.contains("Broken pipe"), "{args:?}");
    }
}

#[test]
fn a_lines_batch_stops_reading_once_its_reader_goes_away() {
    // 400 empty grids, each counted until a 0.25 s limit: 100 s to answer them all.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("empty.txt");
    fs::write(&file, format!("{}\n", ".".repeat(81)).repeat(400)).unwrap();
    let args = ["solve", "--threads", "1", "--mode", "count", "--timeout", "0.25"];
    let mut child = Command::new(env!("CARGO_BIN_EXE_kakurod"))
        .args(args)
        .arg(&file)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The first answer comes long before the batch could end, and its reader then goes.
    let stdout = child.stdout.take().unwrap();
    let (sender, first) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line);
        let _ = sender.send(line);
    });
    let Ok(line) = first.recv_timeout(std::time::Duration::from_secs(60)) else {
        child.kill().unwrap();
        panic!("no answer before the batch's end");
    };
    assert_eq!(line.trim().len(), 81, "{line}");
    // The batch ends within a few puzzles of its reader going away.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("the batch went on solving for a reader that had gone away");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
}

/// A result document without its timings, which differ from run to run.
fn untimed(mut doc: Value) -> Value {
    for puzzle in doc["puzzles"].as_array_mut().into_iter().flatten() {
        for field in ["parse_ms", "solve_ms", "total_ms"] {
            puzzle["statistics"][field] = Value::Null;
        }
    }
    doc
}

#[test]
fn a_lines_batch_written_as_it_is_answered_equals_the_batch_written_whole() {
    let dir = tempfile::tempdir().unwrap();
    let top: Vec<String> = fs::read_to_string(fixture("sudoku/top1465-first20.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    // Rejected lines before and between the puzzles, a 4x4 with several solutions.
    let lines =
        format!("bad\n{}\n1...............\n12x\n{}\n", top[..10].join("\n"), top[10..].join("\n"));
    let batch = dir.path().join("batch.txt");
    fs::write(&batch, lines).unwrap();
    let other = fixture("sudoku/1_9x9.txt");
    // Alone, one file at a time: written as it is answered. With a second file and two
    // threads, the files are solved side by side and each is written whole.
    let (streamed, whole) = (dir.path().join("streamed"), dir.path().join("whole"));
    let alone = kakurod(&["solve", "--out", path_str(&streamed), path_str(&batch)], None);
    assert_eq!(alone.status.code(), Some(1), "{}", text(&alone.stderr));
    let beside = Command::new(env!("CARGO_BIN_EXE_kakurod"))
        .env("RAYON_NUM_THREADS", "2")
        .args(["solve", "--out", path_str(&whole), path_str(&batch), path_str(&other)])
        .output()
        .unwrap();
    assert_eq!(beside.status.code(), Some(1), "{}", text(&beside.stderr));
    let read = |dir: &Path, name: &str| fs::read_to_string(dir.join(name)).unwrap();
    assert_eq!(read(&streamed, "batch.solution.txt"), read(&whole, "batch.solution.txt"));
    let doc = json_file(&streamed.join("batch.json"));
    assert_eq!(untimed(doc.clone()), untimed(json_file(&whole.join("batch.json"))));
    assert_eq!(doc["summary"]["solved"], 21);
    assert_eq!(doc["summary"]["invalid"], 2);
    assert_eq!(doc["invalid_lines"], serde_json::json!([1, 13]));
    assert_eq!(listing(&streamed), ["batch.json", "batch.solution.txt"], "no temporary file left");
    // The same document printed with --json, alone and beside the other file.
    let printed = kakurod(&["solve", "--json", path_str(&batch)], None);
    let printed: Value = serde_json::from_slice(&printed.stdout).unwrap();
    let array = Command::new(env!("CARGO_BIN_EXE_kakurod"))
        .env("RAYON_NUM_THREADS", "2")
        .args(["solve", "--json", path_str(&batch), path_str(&other)])
        .output()
        .unwrap();
    let array: Value = serde_json::from_slice(&array.stdout).unwrap();
    assert_eq!(untimed(printed.clone()), untimed(array[0].clone()));
    assert_eq!(untimed(printed), untimed(doc.clone()));
    // Every invalid line is named on standard error, as for a batch written whole.
    let errors = text(&alone.stderr);
    assert!(errors.contains("batch.txt:1:1:") && errors.contains("batch.txt:13:1:"), "{errors}");
}

#[test]
fn solve_takes_a_folder_as_its_puzzle_files_without_the_solutions() {
    let folder = fixture("kakuro");
    let out = tempfile::tempdir().unwrap();
    let output = kakurod(&["solve", "--out", path_str(out.path()), path_str(&folder)], None);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let puzzles = fs::read_dir(&folder)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "txt"))
        .count();
    let answered = fs::read_dir(out.path())
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().ends_with(".json"))
        .count();
    assert!(puzzles > 0);
    assert_eq!(answered, puzzles);
}

#[test]
fn the_json_document_prints_a_grid_row_per_line_and_says_only_what_is_true() {
    let puzzle = fixture("kakuro/1_10x12.txt");
    let output = kakurod(&["solve", "--json", path_str(&puzzle)], None);
    let json = text(&output.stdout);
    let report: Value = serde_json::from_str(&json).unwrap();
    let rows = report["rows"].as_u64().unwrap() as usize;
    let row_lines = json.lines().filter(|l| l.trim_start().starts_with("[null")).count();
    assert_eq!(row_lines, rows, "{json}");
    assert!(report.get("error").is_none(), "a solved puzzle has no error field");
    assert!(report.get("line").is_none(), "a file of one puzzle needs no line");
    for key in ["parse_ms", "solve_ms", "total_ms"] {
        let ms = report["statistics"][key].as_f64().unwrap();
        assert_eq!((ms * 1e3).round() / 1e3, ms, "{key} to the microsecond");
    }
    let unsat = kakurod(&["solve", "--json", "-"], Some(b"3 3\n- 4, 4,\n,3 0 0\n,4 0 0\n"));
    let report: Value = serde_json::from_slice(&unsat.stdout).unwrap();
    assert_eq!(report["status"], "unsatisfiable");
    assert_eq!(report["uniqueness"], "none");
}

#[test]
fn serve_without_a_config_file_starts_on_the_defaults_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.txt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_kakurod"))
        .arg("serve")
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !fs::read_to_string(&log).unwrap().contains("kakurod started") {
        assert!(child.try_wait().unwrap().is_none(), "{}", fs::read_to_string(&log).unwrap());
        assert!(std::time::Instant::now() < deadline, "no start line");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let term = Command::new("kill").arg("-TERM").arg(child.id().to_string()).status().unwrap();
    assert!(term.success());
    assert!(child.wait().unwrap().success());
    let text = fs::read_to_string(&log).unwrap();
    assert!(text.contains("built-in defaults"), "{text}");
    assert!(dir.path().join("inbox").is_dir() && dir.path().join("outbox").is_dir());
}

#[test]
fn a_missing_configuration_file_is_named_with_its_cause_once() {
    let out = kakurod(&["status", "--config", "/nonexistent/kakurod.toml"], None);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("/nonexistent/kakurod.toml"), "{stderr}");
    assert_eq!(stderr.matches("os error 2").count(), 1, "{stderr}");
}

#[test]
fn a_limit_that_would_be_ignored_is_refused() {
    let file = fixture("kakuro/1_10x12.txt");
    let out = kakurod(&["solve", "--limit", "3", path_str(&file)], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--mode count"), "{}", text(&out.stderr));
    let out = kakurod(&["solve", "--limit", "3", "--mode", "count", path_str(&file)], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn generate_never_writes_over_a_file_without_force_and_makes_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("new/sub/p.txt");
    let args = ["generate", "--rows", "8", "--cols", "8", "--seed", "2", "--solution", "--out"];
    let first = kakurod(&[&args[..], &[path_str(&file)]].concat(), None);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let made = fs::read_to_string(&file).unwrap();
    fs::write(&file, "mine\n").unwrap();
    let again = kakurod(&[&args[..], &[path_str(&file)]].concat(), None);
    assert_eq!(again.status.code(), Some(2));
    assert!(text(&again.stderr).contains("--force"), "{}", text(&again.stderr));
    assert_eq!(fs::read_to_string(&file).unwrap(), "mine\n");
    let forced =
        kakurod(&[&args[..1], &["--force"], &args[1..], &[path_str(&file)]].concat(), None);
    assert_eq!(forced.status.code(), Some(0), "{}", text(&forced.stderr));
    assert_eq!(fs::read_to_string(&file).unwrap(), made);
}

#[test]
fn status_ends_quietly_when_its_reader_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    for args in [&["status", "--json"][..], &["status"]] {
        // A pipe whose reading end is closed before the command writes: every write fails
        // with EPIPE, as under `kakurod status --json | true`.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let output = Command::new(env!("CARGO_BIN_EXE_kakurod"))
            .args(args)
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{args:?}: {}", text(&output.stderr));
        assert_eq!(text(&output.stderr), "", "{args:?}");
    }
}

#[test]
fn ctrl_c_stops_a_count_and_reports_the_solutions_so_far() {
    // An empty 9x9 Sudoku has billions of solutions: its count never ends by itself.
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    fs::write(&empty, ".".repeat(81) + "\n").unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_kakurod"))
        .args(["solve", "--json", "--mode", "count", path_str(&empty)])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Long enough for the handler to be installed and the count to be under way.
    std::thread::sleep(std::time::Duration::from_secs(1));
    let int = Command::new("kill").arg("-INT").arg(child.id().to_string()).status().unwrap();
    assert!(int.success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{}", text(&output.stderr));
    let doc: Value = serde_json::from_slice(&output.stdout).unwrap();
    let puzzle = if doc["puzzles"].is_array() { &doc["puzzles"][0] } else { &doc };
    assert_eq!(puzzle["stopped_by"], "cancelled", "{doc}");
    // The count is a lower bound: never `solved`, which a script would take as final.
    assert_eq!(puzzle["status"], "cancelled", "{doc}");
    assert!(puzzle["solutions_found"].as_u64().is_some_and(|n| n > 0), "{doc}");
}

#[test]
fn a_long_count_on_a_terminal_shows_its_progress_and_a_pipe_gets_none() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    fs::write(&empty, ".".repeat(81) + "\n").unwrap();
    let args = ["solve", "--mode", "count", "--timeout", "2.5", path_str(&empty)];
    // `script` runs the command on a pseudo-terminal, as a user's shell would.
    let command = format!("{} {}", env!("CARGO_BIN_EXE_kakurod"), args.join(" "));
    let on_terminal = Command::new("script").args(["-qefc", &command, "/dev/null"]).output();
    let screen = text(&on_terminal.expect("script (util-linux) runs the command").stdout);
    let live = screen.split(['\r', '\n']).find(|l| l.contains("solutions so far"));
    let live = live.unwrap_or_else(|| panic!("no progress line on the terminal:\n{screen}"));
    assert!(live.contains("empty.txt") && live.contains("/s") && live.contains("nodes"), "{live}");
    let piped = kakurod(&args, None);
    assert!(!text(&piped.stderr).contains("so far"), "{}", text(&piped.stderr));
}

#[test]
fn a_folder_is_summed_up_on_standard_output_too_and_what_it_passes_over_is_named() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["kakuro/1_10x12.txt", "kakuro/1_10x12.sol", "kakuro/281_6x6.txt"] {
        let to = dir.path().join(Path::new(name).file_name().unwrap());
        fs::copy(fixture(name), to).unwrap();
    }
    let out = kakurod(&["solve", path_str(dir.path())], None);
    assert_eq!(out.status.code(), Some(0));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("kakurod: 2 files, 2 puzzles: 2 solved"), "{stderr}");

    let only_folders = tempfile::tempdir().unwrap();
    fs::create_dir(only_folders.path().join("set1")).unwrap();
    fs::write(only_folders.path().join("a.sol"), "").unwrap();
    let out = kakurod(&["solve", path_str(only_folders.path())], None);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("1 folder not read, as folders are not searched recursively"),
        "{stderr}"
    );
    assert!(stderr.contains("set1") && stderr.contains("1 .sol solution skipped"), "{stderr}");

    // A solution named on its own is refused, as the daemon refuses one in its inbox.
    let out = kakurod(&["solve", path_str(&fixture("kakuro/1_10x12.sol"))], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("is a solution file"), "{}", text(&out.stderr));
}

#[test]
fn man_writes_a_page_per_command_and_completions_cover_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let out = kakurod(&["man", path_str(dir.path())], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let commands = [
        "serve",
        "solve",
        "bench",
        "generate",
        "worker",
        "status",
        "cancel",
        "convert",
        "print",
        "explain",
        "hint",
        "man",
        "completions",
    ];
    let mut expected: Vec<String> = commands.iter().map(|c| format!("kakurod-{c}.1")).collect();
    expected.push("kakurod.1".into());
    expected.sort();
    assert_eq!(listing(dir.path()), expected);
    let page = fs::read_to_string(dir.path().join("kakurod-solve.1")).unwrap();
    assert!(page.starts_with(".ie") || page.contains(".TH kakurod-solve 1"), "{page}");
    assert!(page.contains("count\\-limit"), "the page tells of every option: {page}");

    for shell in ["bash", "zsh", "fish"] {
        let out = kakurod(&["completions", shell], None);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = text(&out.stdout);
        for command in commands {
            assert!(script.contains(command), "{shell} completes no `{command}`");
        }
        assert!(script.contains("count-limit"), "{shell}");
    }
    // The bash script is read by bash itself without a syntax error.
    let script = dir.path().join("kakurod.bash");
    fs::write(&script, kakurod(&["completions", "bash"], None).stdout).unwrap();
    let checked = Command::new("bash").arg("-n").arg(&script).output().unwrap();
    assert!(checked.status.success(), "{}", text(&checked.stderr));
    assert_eq!(kakurod(&["completions", "tcsh"], None).status.code(), Some(2));
}

#[test]
fn convert_writes_what_each_format_holds_and_refuses_the_rest_with_the_reason() {
    let kakuro = fixture("kakuro/1_10x12.txt");
    let killer = fixture("killer/101_4x4.txt");
    let sudoku = fixture("sudoku/generated_4x4.txt");
    let url = kakurod(&["convert", "--to", "puzzlink", kakuro.to_str().unwrap()], None);
    assert!(url.status.success());
    let url = String::from_utf8(url.stdout).unwrap();
    assert!(url.starts_with("https://puzz.link/p?kakuro/11/9/"), "{url}");
    // Back from the URL (on standard input) to the janko grid it came from.
    let janko = kakurod(&["convert", "--to", "janko", "-"], Some(url.as_bytes()));
    let direct = kakurod(&["convert", "--to", "janko", kakuro.to_str().unwrap()], None);
    assert!(janko.status.success() && direct.status.success());
    assert_eq!(janko.stdout, direct.stdout);
    // A Sudoku as a line that `solve` reads as one.
    let line = kakurod(&["convert", "--to", "lines", sudoku.to_str().unwrap()], None);
    assert_eq!(String::from_utf8(line.stdout).unwrap().trim().len(), 16);
    // Refused, with the reason, exit 1; the other inputs are still written.
    let both = [killer.to_str().unwrap(), sudoku.to_str().unwrap()];
    let refused = kakurod(&["convert", "--to", "puzzlink", both[0], both[1]], None);
    assert_eq!(refused.status.code(), Some(1));
    let stderr = String::from_utf8(refused.stderr).unwrap();
    assert!(stderr.contains("101_4x4.txt:1: a killer cannot be written as puzzlink"), "{stderr}");
    assert!(
        String::from_utf8(refused.stdout).unwrap().starts_with("https://puzz.link/p?sudoku/4/4/")
    );
    let many = kakurod(&["convert", "--to", "sudoku", both[1], both[1]], None);
    assert_eq!(many.status.code(), Some(2));
}

/// `convert --to` names, and the kinds each holds: every pair is tried below.
const TARGETS: [(&str, &[&str]); 10] = [
    ("janko", &["kakuro"]),
    ("sudoku", &["sudoku"]),
    ("killer", &["killer"]),
    ("lines", &["sudoku"]),
    ("sdk", &["sudoku"]),
    ("ipuz", &["sudoku"]),
    ("puzzlink", &["kakuro", "sudoku"]),
    ("kanpen", &["kakuro"]),
    ("fpuzzles", &["sudoku", "killer"]),
    ("json", &["kakuro", "sudoku", "killer"]),
];

#[test]
fn every_fixture_goes_through_every_format_that_holds_it_and_back_to_the_same_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let as_json = |path: &Path| {
        let out = kakurod(&["convert", "--to", "json", path_str(path)], None);
        assert!(out.status.success(), "{}: {}", path.display(), text(&out.stderr));
        out.stdout
    };
    let mut trips = 0;
    for kind in ["kakuro", "sudoku", "killer"] {
        let mut files = common::puzzles_in(&fixture(kind));
        files.retain(|p| {
            p.extension().is_some_and(|e| e == "txt") && !p.to_str().unwrap().contains("lines")
        });
        files.retain(|p| {
            !p.to_str().unwrap().contains("first20") && !p.to_str().unwrap().contains("puzzlink")
        });
        for path in files {
            let original = as_json(&path);
            for (target, holds) in TARGETS {
                let out = kakurod(&["convert", "--to", target, path_str(&path)], None);
                // f-puzzles grids go up to 16x16.
                let too_large = target == "fpuzzles" && path_str(&path).contains("25x25");
                if !holds.contains(&kind) || too_large {
                    assert_eq!(out.status.code(), Some(1), "{target} took a {kind}");
                    assert!(text(&out.stderr).contains("cannot be written as"), "{target}");
                    continue;
                }
                assert!(
                    out.status.success(),
                    "{} to {target}: {}",
                    path.display(),
                    text(&out.stderr)
                );
                let written = dir.path().join(format!("written.{target}"));
                fs::write(&written, &out.stdout).unwrap();
                assert_eq!(as_json(&written), original, "{} through {target}", path.display());
                trips += 1;
            }
        }
    }
    assert!(trips >= 20, "{trips}");
}

#[test]
fn an_empty_picture_comes_from_solve_blank_and_from_convert_to_svg() {
    let kakuro = fixture("kakuro/1_10x12.txt");
    let solved = text(&kakurod(&["solve", "--svg", path_str(&kakuro)], None).stdout);
    let blank = kakurod(&["solve", "--svg", "--blank", path_str(&kakuro)], None);
    assert!(blank.status.success());
    let blank = text(&blank.stdout);
    let converted = text(&kakurod(&["convert", "--to", "svg", path_str(&kakuro)], None).stdout);
    assert_eq!(blank, converted);
    // Its 48 clue numbers, and no digit in its 69 white cells.
    assert_eq!(blank.matches("<text").count(), 48);
    assert_eq!(solved.matches("<text").count(), 48 + 69);
    let refused = kakurod(&["solve", "--svg", "--blank", "--out", "x", path_str(&kakuro)], None);
    assert_eq!(refused.status.code(), Some(2));
    assert!(text(&refused.stderr).contains("convert --to svg"));
    assert_eq!(kakurod(&["solve", "--blank", path_str(&kakuro)], None).status.code(), Some(2));
}

#[test]
fn generate_writes_the_format_asked_and_refuses_one_that_cannot_hold_the_kind_at_once() {
    let url = kakurod(
        &["generate", "--kind", "sudoku", "--size", "4", "--seed", "7", "--format", "puzzlink"],
        None,
    );
    assert!(url.status.success(), "{}", text(&url.stderr));
    let url = text(&url.stdout);
    assert!(url.starts_with("https://puzz.link/p?sudoku/4/4/"), "{url}");
    let native = kakurod(&["generate", "--kind", "sudoku", "--size", "4", "--seed", "7"], None);
    let back = kakurod(&["convert", "--to", "sudoku", "-"], Some(url.as_bytes()));
    assert_eq!(back.stdout, native.stdout);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("made");
    let args =
        ["generate", "--rows", "6", "--cols", "6", "--count", "2", "--format", "json", "--out"];
    let made = kakurod(&[&args[..], &[path_str(&out)]].concat(), None);
    assert!(made.status.success(), "{}", text(&made.stderr));
    let names = listing(&out);
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names.iter().all(|n| n.ends_with(".json")), "{names:?}");
    let refused =
        kakurod(&["generate", "--kind", "killer", "--size", "4", "--format", "puzzlink"], None);
    assert_eq!(refused.status.code(), Some(2));
    assert!(text(&refused.stderr).contains("no Killer Sudoku"), "{}", text(&refused.stderr));
}

#[test]
fn convert_writes_kanpen_and_fpuzzles_and_refuses_what_they_cannot_hold() {
    let kakuro = fixture("kakuro/1_10x12.txt");
    let killers = [fixture("killer/101_4x4.txt"), fixture("killer/574_6x6.txt")];
    let big = fixture("sudoku/generated_25x25.txt");
    let kanpen = kakurod(&["convert", "--to", "kanpen", kakuro.to_str().unwrap()], None);
    assert!(kanpen.status.success(), "{}", text(&kanpen.stderr));
    assert_eq!(kanpen.stdout, fs::read(fixture("formats/1_10x12.kanpen.txt")).unwrap());
    // Back from kanpen (on standard input) to the janko grid it came from.
    let janko = kakurod(&["convert", "--to", "janko", "-"], Some(&kanpen.stdout));
    let direct = kakurod(&["convert", "--to", "janko", kakuro.to_str().unwrap()], None);
    assert!(janko.status.success() && direct.status.success());
    assert_eq!(janko.stdout, direct.stdout);
    // f-puzzles: one URL per line, many puzzles to a file; read back as a batch.
    let both = [killers[0].to_str().unwrap(), killers[1].to_str().unwrap()];
    let urls = kakurod(&["convert", "--to", "fpuzzles", both[0], both[1]], None);
    assert!(urls.status.success(), "{}", text(&urls.stderr));
    let lines = String::from_utf8(urls.stdout.clone()).unwrap();
    assert_eq!(lines.lines().count(), 2);
    assert!(lines.lines().all(|l| l.starts_with("https://f-puzzles.com/?load=N4I")), "{lines}");
    let solved = kakurod(&["solve", "-"], Some(&urls.stdout));
    assert_eq!(solved.status.code(), Some(0), "{}", text(&solved.stderr));
    // Refused, with the reason, exit 1.
    let refused = kakurod(&["convert", "--to", "fpuzzles", big.to_str().unwrap()], None);
    assert_eq!(refused.status.code(), Some(1));
    assert!(text(&refused.stderr).contains("f-puzzles grids go up to 16x16"));
    let refused = kakurod(&["convert", "--to", "kanpen", both[0]], None);
    assert_eq!(refused.status.code(), Some(1));
    assert!(text(&refused.stderr).contains("a killer cannot be written as kanpen"));
}

#[test]
fn a_malformed_fpuzzles_url_is_answered_with_its_line_and_column() {
    let input = b"# from f-puzzles\nhttps://f-puzzles.com/?load=N4Ig!x\n";
    let output = kakurod(&["solve", "--json", "-"], Some(input));
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["format"], "fpuzzles", "{report}");
    assert_eq!((&report["error"]["line"], &report["error"]["column"]), (&json!(2), &json!(33)));
}

#[test]
fn a_malformed_puzzlink_url_is_answered_with_its_line_and_column() {
    let text = b"# from puzz.link\nhttps://puzz.link/p?kakuro/3/3/.l.m..03\n";
    let output = kakurod(&["solve", "-"], Some(text));
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains(":2:40: the data ends where a clue was due"), "{stderr}");
    let truncated = b"https://puzz.link/p?sudoku/9/9/1g2";
    let output = kakurod(&["solve", "--json", "-"], Some(truncated));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["format"], "puzzlink");
    assert_eq!(report["error"]["column"], 35, "{report}");
}

#[test]
fn sudoku_grids_as_people_keep_them_are_solved_and_their_errors_placed() {
    let rows = "53..7....\n6..195...\n.98....6.\n8...6...3\n4..8.3..1\n7...2...6\n.6....28.\n...419..5\n....8..79\n";
    let spaced: String = rows
        .lines()
        .map(|r| format!("{}\n", r.chars().map(String::from).collect::<Vec<_>>().join(" ")))
        .collect();
    let sadman = format!("[Puzzle]\n{}[Solution]\n", rows.replace('.', "0"));
    for text in [rows.to_string(), format!("9 9\n{rows}"), spaced, sadman] {
        let output = kakurod(&["solve", "--json", "-"], Some(text.as_bytes()));
        let report: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(report["format"], "sdk", "{text}");
        assert_eq!(report["status"], "solved", "{text}");
        assert_eq!(report["solution"][0][0], 5);
    }
    let short = rows.replacen("6..195...", "6..195..", 1);
    let output = kakurod(&["solve", "-"], Some(short.as_bytes()));
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(stderr.contains(":2:1: a row of 8 cells, where the first has 9"), "{stderr}");
}

#[test]
fn the_time_limit_takes_the_name_of_the_configuration_file_too() {
    let puzzle = fixture("kakuro/1_10x12.txt");
    let output =
        kakurod(&["solve", "--json", "--timeout-seconds", "7", puzzle.to_str().unwrap()], None);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["settings"]["timeout_seconds"], 7.0, "{report}");
}

#[test]
fn each_puzzle_of_a_batch_carries_its_play_url() {
    let batch = fixture("daemon/lines-top3.txt");
    let out = kakurod(&["solve", "--json", path_str(&batch)], None);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let urls: Vec<String> = report["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["play_url"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(urls.len(), 3);
    let back = kakurod(&["convert", "--to", "lines", "-"], Some(urls.join("\n").as_bytes()));
    let lines_of = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| l.replace('0', "."))
            .collect()
    };
    assert_eq!(lines_of(&text(&back.stdout)), lines_of(&fs::read_to_string(&batch).unwrap()));
}
