//! Helpers shared by the integration tests: where the fixtures and the puzzle corpus live.

pub mod junk;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// Held while an npm client is looked for and installed: the tests that need one run side
/// by side, and two npm installs into one folder at once both fail.
static NPM_INSTALL: Mutex<()> = Mutex::new(());

/// The `node_modules` folder holding `package@version` for `case`: the folder named by the
/// environment variable `named_by`, or `target/FOLDER/node_modules`, installed there with
/// npm when it is missing. `None` (through [`skipped`]) without node or the package.
pub fn node_modules(
    case: &str,
    named_by: &str,
    folder: &str,
    (package, version): (&str, &str),
) -> Option<PathBuf> {
    let _one_at_a_time = NPM_INSTALL.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if Command::new("node").arg("--version").output().is_err() {
        return skipped(case, "node is not installed");
    }
    if let Some(named) = std::env::var_os(named_by) {
        return Some(PathBuf::from(named));
    }
    let prefix = Path::new(env!("CARGO_MANIFEST_DIR")).join("target").join(folder);
    let modules = prefix.join("node_modules");
    let installed = || modules.join(package).join("package.json").is_file();
    if installed() {
        return Some(modules);
    }
    let npm = Command::new("npm")
        .args(["install", "--no-save", "--no-audit", "--no-fund", "--silent", "--prefix"])
        .arg(&prefix)
        .arg(format!("{package}@{version}"))
        .status();
    match npm {
        Ok(status) if status.success() && installed() => Some(modules),
        _ => skipped(case, &format!("npm could not install {package}")),
    }
}

/// Says that `case` is skipped because `why`, and gives `None`; under `CI=true`, where
/// every tool and client is installed, it fails instead, so CI never skips a check silently.
pub fn skipped<T>(case: &str, why: &str) -> Option<T> {
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{case}: {why}");
    eprintln!("SKIPPED {case}: {why}");
    None
}

/// The fixture folder shipped with the repository.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The full puzzle corpus, when it is available: `$KAKUROD_DATA` (a set but missing folder is
/// an error, so CI cannot silently skip the corpus), else `../shared/data` beside the package
/// if present, else `None` (the tests then check the fixtures only).
pub fn data() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("KAKUROD_DATA") {
        let dir = PathBuf::from(dir);
        assert!(dir.is_dir(), "KAKUROD_DATA={} is not a folder", dir.display());
        return Some(dir);
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("no {}: corpus part skipped, fixtures still checked", dir.display());
        None
    }
}

/// Reads a file as text, naming it on failure.
pub fn text(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Puzzle files (not `.sol`, not READMEs) in `dir`, sorted.
pub fn puzzles_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            p.is_file() && !name.ends_with(".sol") && !name.ends_with(".md")
        })
        .collect();
    files.sort();
    files
}

/// A random filling of `size` by `size` cells (35% black, from `seed`), written to `file`
/// by the binary's own `kakurod generate`, as the ladder makes its rungs; the puzzle, as
/// read back from the file.
pub fn random_filling(file: &Path, size: usize, seed: u64) -> kakurod_engine::puzzle::Puzzle {
    let (size, seed) = (size.to_string(), seed.to_string());
    let made = Command::new(env!("CARGO_BIN_EXE_kakurod"))
        .args(["generate", "--any-solution", "--black", "35", "--rows", &size, "--cols", &size])
        .args(["--seed", &seed, "--out"])
        .arg(file)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let document = kakurod_engine::format::read(&text(file), None).unwrap();
    let [Ok(parsed)] = &document.entries[..] else { panic!("{}: not one puzzle", file.display()) };
    parsed.puzzle.clone()
}

/// Checks an answer in the `.sol` layout against the puzzle's own clues.
pub fn assert_solves(puzzle: &kakurod_engine::puzzle::Puzzle, answer: &str, case: &str) {
    let grid = kakurod_engine::format::solution::read_sol(answer)
        .unwrap_or_else(|e| panic!("{case}: not a solution grid: {e}"));
    assert_eq!(kakurod_engine::verify::check(puzzle, &grid), Ok(()), "{case}");
}
