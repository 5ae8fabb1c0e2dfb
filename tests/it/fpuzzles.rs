//! f-puzzles URLs checked with lz-string, the compression library of f-puzzles and
//! SudokuPad (`npm install lz-string`), run in node by `tests/fpuzzles/check.js`: every URL
//! `kakurod convert --to fpuzzles` writes must decompress to f-puzzles JSON with the
//! puzzle's size, givens and cages; and a puzzle that node builds as f-puzzles JSON and
//! compresses must read in kakurod, bare and inside a SudokuPad URL, as the same puzzle.
//!
//! lz-string comes from `KAKUROD_LZSTRING` (a `node_modules` folder holding `lz-string`),
//! or `target/lzstring/node_modules`, installed there with npm when npm is on the PATH.
//! Without node or lz-string the test says so and passes, except under `CI=true`, where it
//! fails.

use kakurod_engine::format::{self, Format};
use kakurod_engine::puzzle::Puzzle;
use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common;

const LZSTRING_VERSION: &str = "1.5.0";

/// The `node_modules` folder holding lz-string, installing it when it can.
fn lzstring_modules() -> Option<PathBuf> {
    let package = ("lz-string", LZSTRING_VERSION);
    common::node_modules("the lz-string checks", "KAKUROD_LZSTRING", "lzstring", package)
}

/// The script's answer, one JSON value per input line.
fn node(modules: &Path, mode: &str, lines: &[String]) -> Vec<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fpuzzles/check.js");
    let mut child = Command::new("node")
        .arg(script)
        .arg(mode)
        .env("NODE_PATH", modules)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all((lines.join("\n") + "\n").as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let answers: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(answers.len(), lines.len());
    answers
}

/// The fixtures checked: Sudoku of sides 4, 9 and 16, Killer of 4, 6 (2x3 boxes) and 9.
const FILES: [&str; 6] = [
    "sudoku/generated_4x4.txt",
    "sudoku/1_9x9.txt",
    "sudoku/1051_16x16.txt",
    "killer/101_4x4.txt",
    "killer/574_6x6.txt",
    "killer/111_9x9.txt",
];

fn puzzle_of(path: &Path) -> Puzzle {
    let doc = format::read(&common::text(path), None).unwrap();
    doc.entries.into_iter().next().unwrap().unwrap().puzzle
}

/// `{size, givens, cages}` of a puzzle: givens as rows, cages as `[sum, [[row, col], …]]`
/// with the cells sorted (`null` for a plain Sudoku).
fn description(puzzle: &Puzzle) -> Value {
    let (n, givens, cages) = match puzzle {
        Puzzle::Sudoku(s) => (s.n, &s.givens, None),
        Puzzle::Killer(k) => (k.n, &k.givens, Some(&k.cages)),
        Puzzle::Kakuro(_) => panic!("no Kakuro in f-puzzles"),
    };
    let rows: Vec<&[u32]> = givens.chunks(n).collect();
    let cages = cages.map(|cages| {
        cages
            .iter()
            .map(|c| json!([c.total, c.cells.iter().map(|i| [i / n, i % n]).collect::<Vec<_>>()]))
            .collect::<Vec<_>>()
    });
    json!({"size": n, "givens": rows, "cages": cages})
}

/// The same description read from f-puzzles JSON as lz-string decompressed it.
fn description_of_fpuzzles(doc: &Value) -> Value {
    let n = doc["size"].as_u64().unwrap() as usize;
    let givens: Vec<Vec<u64>> = doc["grid"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            let cell =
                |c: &Value| if c["given"] == true { c["value"].as_u64().unwrap() } else { 0 };
            row.as_array().unwrap().iter().map(cell).collect()
        })
        .collect();
    let cell = |name: &Value| {
        let (r, c) = name.as_str().unwrap()[1..].split_once('C').unwrap();
        [r.parse::<usize>().unwrap() - 1, c.parse::<usize>().unwrap() - 1]
    };
    let cages = doc.get("killercage").map(|cages| {
        cages
            .as_array()
            .unwrap()
            .iter()
            .map(|cage| {
                let mut cells: Vec<[usize; 2]> =
                    cage["cells"].as_array().unwrap().iter().map(cell).collect();
                cells.sort_unstable();
                let sum: u64 = cage["value"].as_str().unwrap().parse().unwrap();
                json!([sum, cells])
            })
            .collect::<Vec<_>>()
    });
    json!({"size": n, "givens": givens, "cages": cages})
}

#[test]
fn lz_string_reads_every_url_kakurod_writes_and_kakurod_reads_what_it_compresses() {
    let Some(modules) = lzstring_modules() else { return };
    let paths: Vec<PathBuf> = FILES.iter().map(|f| common::fixtures().join(f)).collect();
    let puzzles: Vec<Puzzle> = paths.iter().map(|p| puzzle_of(p)).collect();

    let mut args = vec!["convert".to_string(), "--to".into(), "fpuzzles".into()];
    args.extend(paths.iter().map(|p| p.display().to_string()));
    let output = Command::new(env!("CARGO_BIN_EXE_kakurod")).args(&args).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let urls: Vec<String> =
        String::from_utf8(output.stdout).unwrap().lines().map(String::from).collect();
    assert!(urls.iter().all(|u| u.starts_with("https://f-puzzles.com/?load=N4I")), "{urls:?}");
    let decompressed = node(&modules, "decompress", &urls);
    for ((doc, puzzle), path) in decompressed.iter().zip(&puzzles).zip(&paths) {
        assert_eq!(description_of_fpuzzles(doc), description(puzzle), "{}", path.display());
    }

    let described: Vec<String> = puzzles.iter().map(|p| description(p).to_string()).collect();
    let compressed = node(&modules, "compress", &described);
    for ((data, puzzle), path) in compressed.iter().zip(&puzzles).zip(&paths) {
        let data = data.as_str().unwrap();
        for text in [data.to_string(), format!("https://sudokupad.app/fpuzzles{data}")] {
            let doc = format::read(&text, None).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(doc.format, Format::Fpuzzles);
            assert_eq!(&doc.entries[0].as_ref().unwrap().puzzle, puzzle, "{}", path.display());
        }
    }
}
