//! kakurod's Sudoku solving path beside HoDoKu's own: `tests/hodoku/compare.py` runs
//! hodoku-py (HoDoKu 2.2's solver and rater, PyPI) and `kakurod explain --json` on the
//! held-out set `tests/hodoku/puzzles.txt` (top1465 lines, QQWing puzzles and the first
//! puzzle of each section of HoDoKu's exemplar library, each group's source named there).
//! The grades must agree level for level on at least 80% of the puzzles, and kakurod's
//! logic must finish (no trial, no search) at least as many as it does today. hodoku-py
//! is found in `.venv-hodoku/` (which `.ci/run` makes) or at `KAKUROD_HODOKU_PYTHON`.

use crate::common::skipped;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What the logic finishes today without trial or search (forcing chains and nets
/// allowed), of the 60: a floor that only rises. (HoDoKu finishes 55 without forcing
/// chains or nets, and kakurod as many without its own.)
const LOGIC_FLOOR: u64 = 60;

/// The puzzles whose levels agree today, of the 60: a floor that only rises.
const AGREE_FLOOR: u64 = 60;

/// The Python that has hodoku-py, if any.
fn python() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = std::env::var_os("KAKUROD_HODOKU_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join(".venv-hodoku/bin/python"));
    let has = Command::new(&python).args(["-c", "import hodoku"]).output();
    has.is_ok_and(|o| o.status.success()).then_some(python)
}

#[test]
fn the_sudoku_grades_agree_with_hodoku_and_the_logic_finishes_as_many_as_before() {
    let case = "the comparison with HoDoKu";
    let Some(python) = python().or_else(|| {
        skipped(case, "hodoku-py is missing (python3 -m venv .venv-hodoku && .venv-hodoku/bin/pip install hodoku-py==0.2.1)")
    }) else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let (json, report) = (dir.path().join("report.json"), dir.path().join("report.md"));
    let out = Command::new(python)
        .arg(root.join("tests/hodoku/compare.py"))
        .arg(root.join("tests/hodoku/puzzles.txt"))
        .arg(env!("CARGO_BIN_EXE_kakurod"))
        .arg("--json")
        .arg(&json)
        .arg("--markdown")
        .arg(&report)
        .args(["--jobs", "2", "--timeout", "120", "--quiet"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let summary = &summary["summary"];
    let text = std::fs::read_to_string(&report).unwrap_or_default();
    let (agree, graded) =
        (&summary["level_agreement"]["agree"], &summary["level_agreement"]["graded"]);
    let (agree, graded) = (agree.as_u64().unwrap(), graded.as_u64().unwrap());
    let logic = summary["kakurod"]["logic_no_trial"].as_u64().unwrap();
    let hodoku = summary["hodoku"]["no_forcing"].as_u64().unwrap();
    eprintln!(
        "levels agree on {agree} of {graded}; logic finishes {logic} (HoDoKu without forcing \
         chains {hodoku})"
    );
    assert_eq!(summary["kakurod"]["errors"], 0, "{text}");
    assert!(graded >= 60 && agree * 5 >= graded * 4 && agree >= AGREE_FLOOR, "{text}");
    assert!(logic >= LOGIC_FLOOR, "{text}");
}
