//! ipuz Sudoku checked by the `ipuz` library of PyPI, the reference reader and writer of
//! the format: every document `kakurod convert --to ipuz` writes must pass its validation
//! with the same givens, and a document it writes (as JSONP too) must be solved by kakurod.
//!
//! The library comes from `KAKUROD_IPUZ` (a folder for `PYTHONPATH`), or
//! `target/ipuz`, installed there with pip when pip is there. Without python3 or the
//! library the test says so and passes, except under `CI=true`, where it fails.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common;

const IPUZ_VERSION: &str = "1.0";

/// The folder to put on `PYTHONPATH` for `import ipuz`, installing it when it can.
fn ipuz_path() -> Option<PathBuf> {
    let missing = |why: &str| common::skipped("the ipuz library checks", why);
    let importable = |path: &Path| {
        Command::new("python3")
            .args(["-c", "import ipuz"])
            .env("PYTHONPATH", path)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if let Some(named) = std::env::var_os("KAKUROD_IPUZ") {
        return Some(PathBuf::from(named));
    }
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/ipuz");
    if importable(&target) && target.join("ipuz").is_dir() {
        return Some(target);
    }
    let installed = Command::new("python3")
        .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--target"])
        .arg(&target)
        .arg(format!("ipuz=={IPUZ_VERSION}"))
        .output();
    match installed {
        Ok(o) if o.status.success() && importable(&target) => Some(target),
        Ok(o) => {
            missing(&format!("pip could not install it: {}", String::from_utf8_lossy(&o.stderr)))
        }
        Err(e) => missing(&format!("python3: {e}")),
    }
}

fn python(path: &Path, script: &str, arg: &Path) -> String {
    let output = Command::new("python3")
        .args(["-c", script])
        .arg(arg)
        .env("PYTHONPATH", path)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

fn kakurod(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kakurod")).args(args).output().unwrap()
}

/// Validates with the library and prints the givens as numbers, 0 for a blank.
const READ: &str = r#"
import ipuz, json, sys
doc = ipuz.read(open(sys.argv[1]).read())
charset = doc.get("charset", "123456789")
def value(cell):
    if isinstance(cell, dict):
        cell = cell.get("given")
    if cell in (None, 0, "", "0", doc.get("empty", 0)):
        return 0
    return cell if isinstance(cell, int) else charset.index(cell) + 1
print(json.dumps([[value(c) for c in row] for row in doc["puzzle"]]))
"#;

/// Writes the 4x4 Sudoku given as JSON with the library, as JSONP.
const WRITE: &str = r#"
import ipuz, sys
puzzle = [[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]]
doc = {"version": "http://ipuz.org/v2", "kind": ["http://ipuz.org/sudoku#1"],
       "title": "written by the ipuz library", "puzzle": puzzle}
open(sys.argv[1], "w").write(ipuz.write(doc, jsonp=True))
"#;

#[test]
fn the_ipuz_library_validates_what_kakurod_writes_and_kakurod_solves_what_it_writes() {
    let Some(path) = ipuz_path() else { return };
    let scratch = tempfile::tempdir().unwrap();
    let sudoku = common::fixtures().join("sudoku");
    for name in ["generated_4x4.txt", "1_9x9.txt", "1051_16x16.txt", "generated_25x25.txt"] {
        let source = sudoku.join(name);
        let written = scratch.path().join(format!("{name}.ipuz"));
        let out = kakurod(&[
            "convert",
            "--to",
            "ipuz",
            "--out",
            written.to_str().unwrap(),
            source.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let read: Value = serde_json::from_str(&python(&path, READ, &written)).unwrap();
        let givens: Vec<u64> = read
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r.as_array().unwrap().iter().map(|v| v.as_u64().unwrap()))
            .collect();
        let expected: Vec<u64> = common::text(&source)
            .lines()
            .skip(1)
            .flat_map(|l| {
                l.split_whitespace().map(|t| t.parse().unwrap_or(0)).collect::<Vec<u64>>()
            })
            .collect();
        assert_eq!(givens, expected, "{name}");
    }
    let from_library = scratch.path().join("library.ipuz");
    python(&path, WRITE, &from_library);
    let out = kakurod(&["solve", "--json", from_library.to_str().unwrap()]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["format"], "ipuz", "{report}");
    assert_eq!(report["status"], "solved", "{report}");
    assert_eq!(report["solution"][0], serde_json::json!([1, 3, 2, 4]), "{report}");
}
