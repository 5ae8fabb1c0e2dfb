//! puzz.link URLs checked by pzprjs, the engine of puzz.link itself (`npm install pzpr`),
//! run in node by `tests/pzpr/check.js`: every `play_url` kakurod writes must open in
//! pzprjs, re-encode to the very same URL, and take kakurod's solution as complete by
//! pzprjs's own answer check; a wrong digit must be caught. `convert` then reads every
//! such URL back to the same puzzle. `tests/pzpr/kanpen.js` does the same for kanpen files:
//! each file `convert --to kanpen` writes must open in pzprjs as the board of kakurod's
//! `play_url`, and the kanpen files pzprjs saves must read in kakurod as the same puzzle.
//!
//! pzprjs comes from `KAKUROD_PZPR` (a `node_modules` folder holding `pzpr`), or
//! `target/pzpr/node_modules`, installed there with npm when npm is on the PATH. Without
//! node or pzprjs the test says so and passes, except under `CI=true`, where it fails.

use kakurod_engine::format::{self, Format, puzzlink};
use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common;

const PZPR_VERSION: &str = "0.10.1";

fn kakurod(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kakurod")).args(args).output().unwrap()
}

/// The `node_modules` folder holding pzpr, installing it when it can.
fn pzpr_modules() -> Option<PathBuf> {
    common::node_modules("the pzprjs checks", "KAKUROD_PZPR", "pzpr", ("pzpr", PZPR_VERSION))
}

/// `(play_url, solution)` of a solved puzzle file.
fn answer(path: &Path) -> (String, Value) {
    let output = kakurod(&["solve", "--json", path.to_str().unwrap()]);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["status"], "solved", "{}", path.display());
    let url = report["play_url"].as_str().unwrap_or_else(|| panic!("{}", path.display()));
    (url.to_string(), report["solution"].clone())
}

/// The Kakuro and Sudoku the test plays: every fixture of one puzzle, and generated ones.
fn puzzles(scratch: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for kind in ["kakuro", "sudoku"] {
        for path in common::puzzles_in(&common::fixtures().join(kind)) {
            let name = path.file_name().unwrap().to_str().unwrap();
            if name.ends_with(".txt")
                && !["first20", "lines", "puzzlink"].iter().any(|b| name.contains(b))
            {
                files.push(path);
            }
        }
    }
    let generated = [
        ("kakuro-15.txt", vec!["--rows", "15", "--cols", "15", "--seed", "3"]),
        ("sudoku-16.txt", vec!["--kind", "sudoku", "--size", "16", "--seed", "2"]),
        ("sudoku-4.txt", vec!["--kind", "sudoku", "--size", "4", "--seed", "5"]),
    ];
    for (name, args) in generated {
        let path = scratch.join(name);
        let mut all = vec!["generate", "--out", path.to_str().unwrap()];
        all.extend(args);
        assert!(kakurod(&all).status.success(), "{name}");
        files.push(path);
    }
    files
}

/// What pzprjs says of each `{url, solution}` line.
fn pzprjs_verdicts(modules: &Path, lines: &[Value]) -> Vec<Value> {
    run_script(modules, "check.js", lines)
}

/// What the script of `tests/pzpr` prints for each JSON line.
fn run_script(modules: &Path, name: &str, lines: &[Value]) -> Vec<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pzpr").join(name);
    let mut child = Command::new("node")
        .arg(script)
        .env("NODE_PATH", modules)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = String::new();
    for line in lines {
        input.push_str(&line.to_string());
        input.push('\n');
    }
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn pzprjs_opens_every_play_url_as_written_and_accepts_every_solution() {
    let Some(modules) = pzpr_modules() else { return };
    let scratch = tempfile::tempdir().unwrap();
    let files = puzzles(scratch.path());
    let mut lines: Vec<Value> = files
        .iter()
        .map(|path| {
            let (url, solution) = answer(path);
            json!({"url": url, "solution": solution})
        })
        .collect();
    // One wrong digit in the first Kakuro's solution: pzprjs must not take it.
    let mut wrong = lines[0].clone();
    let cell =
        wrong["solution"][1].as_array_mut().unwrap().iter_mut().find(|c| c.is_number()).unwrap();
    *cell = json!(cell.as_u64().unwrap() % 9 + 1);
    lines.push(wrong);

    let verdicts = pzprjs_verdicts(&modules, &lines);
    assert_eq!(verdicts.len(), lines.len(), "{verdicts:?}");
    let (right, broken) = verdicts.split_at(files.len());
    for (verdict, path) in right.iter().zip(&files) {
        let name = path.display();
        assert_eq!(verdict["same_url"], true, "{name}: {verdict}");
        assert_eq!(verdict["complete"], true, "{name}: {verdict}");
    }
    assert!(
        right.iter().any(|v| v["type"] == "kakuro") && right.iter().any(|v| v["type"] == "sudoku")
    );
    assert_eq!(broken[0]["same_url"], true, "{}", broken[0]);
    assert_eq!(broken[0]["complete"], false, "a wrong digit passed pzprjs's check: {}", broken[0]);

    // Read back: the URLs, as one batch file, convert to the same puzzles.
    let urls: String =
        lines[..files.len()].iter().map(|l| format!("{}\n", l["url"].as_str().unwrap())).collect();
    let batch = scratch.path().join("urls.txt");
    std::fs::write(&batch, &urls).unwrap();
    let again = kakurod(&["convert", "--to", "puzzlink", batch.to_str().unwrap()]);
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    assert_eq!(String::from_utf8(again.stdout).unwrap(), urls);
}

#[test]
fn pzprjs_opens_every_kanpen_file_as_its_play_url_and_its_files_read_back() {
    let Some(modules) = pzpr_modules() else { return };
    let files: Vec<PathBuf> = common::puzzles_in(&common::fixtures().join("kakuro"));
    let mut puzzles = Vec::new();
    let lines: Vec<Value> = files
        .iter()
        .map(|path| {
            let output = kakurod(&["convert", "--to", "kanpen", path.to_str().unwrap()]);
            assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
            let doc = format::read(&common::text(path), None).unwrap();
            let puzzle = doc.entries.into_iter().next().unwrap().unwrap().puzzle;
            let url = puzzlink::play_url(&puzzle).unwrap();
            puzzles.push(puzzle);
            json!({"kanpen": String::from_utf8(output.stdout).unwrap(), "url": url})
        })
        .collect();
    let verdicts = run_script(&modules, "kanpen.js", &lines);
    assert_eq!(verdicts.len(), files.len(), "{verdicts:?}");
    for ((verdict, puzzle), path) in verdicts.iter().zip(&puzzles).zip(&files) {
        let name = path.display();
        assert_eq!(verdict["same_url"], true, "{name}: {verdict}");
        for saved in ["from_kanpen", "from_url"] {
            let text = verdict[saved].as_str().unwrap_or_else(|| panic!("{name}: {verdict}"));
            let doc = format::read(text, None).unwrap_or_else(|e| panic!("{name} {saved}: {e}"));
            assert_eq!(doc.format, Format::Kanpen, "{name} {saved}");
            assert_eq!(&doc.entries[0].as_ref().unwrap().puzzle, puzzle, "{name} {saved}");
        }
    }
}
