//! Helpers shared by the integration tests: where the fixtures and the puzzle corpus live.

pub mod junk;

use std::fs;
use std::path::{Path, PathBuf};

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
