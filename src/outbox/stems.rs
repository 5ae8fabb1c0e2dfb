//! Reserving a result stem in the outbox, so that no other writer (in this process, or a
//! daemon on another node sharing the outbox) picks the same one while a result set is
//! renamed into place. "Is `NAME.json` free?" followed by writing it would let two nodes both
//! answer as `NAME`, one over the other; instead the stem is taken by creating its
//! reservation file with `O_EXCL`, which exactly one writer wins (also on NFS v3 and later).
//! The file holds its owner (`NODE PID`), so the reservations of a crashed process or of a
//! dead node can be told apart and removed.

use sha2::{Digest, Sha256};
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Prefix of reservation files; the rest of the name is the SHA-256 of the stem, so that
/// the name stays short whatever the stem's length.
const PREFIX: &str = ".kakurod-stem.";

/// A reserved stem; the reservation ends (its file is removed) when this is dropped.
#[derive(Debug)]
pub(crate) struct Reservation {
    path: PathBuf,
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Reserves `stem` in `dir` for `owner` (`NODE PID`). `None` when another writer holds it.
pub(crate) fn reserve(dir: &Path, stem: &str, owner: &str) -> io::Result<Option<Reservation>> {
    let digest = crate::pipeline::hex(&Sha256::digest(stem.as_bytes()));
    let path = dir.join(format!("{PREFIX}{digest}"));
    let mut file = match OpenOptions::new().write(true).create_new(true).open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => return Ok(None),
        Err(e) => return Err(e),
    };
    let reservation = Reservation { path };
    file.write_all(owner.as_bytes())?;
    Ok(Some(reservation))
}

/// Removes the reservation files in `dir` whose owner (`NODE PID`) `stale` judges left
/// over. Returns how many were removed. One without an owner is kept: it may be another
/// writer's, created an instant ago and not yet written. (Left by a crash at that instant,
/// it only makes its stem's results take the next number.)
pub(crate) fn remove_stale(dir: &Path, stale: impl Fn(&str, u32) -> bool) -> io::Result<usize> {
    let owner = |entry: &std::fs::DirEntry| {
        if !entry.file_name().to_str().is_some_and(|n| n.starts_with(PREFIX)) {
            return None;
        }
        let owner = std::fs::read_to_string(entry.path()).unwrap_or_default();
        let (node, pid) = owner.split_once(' ')?;
        Some((node.to_string(), pid.trim().parse().ok()?))
    };
    remove_owned(dir, owner, stale)
}

/// Removes the files in `dir` whose owner (`NODE`, `PID`), as `owner` reads it off an entry
/// (`None`: not such a file), `stale` judges left over. Returns how many were removed; one
/// that is already gone is not an error.
pub(crate) fn remove_owned(
    dir: &Path,
    owner: impl Fn(&std::fs::DirEntry) -> Option<(String, u32)>,
    stale: impl Fn(&str, u32) -> bool,
) -> io::Result<usize> {
    let mut removed = 0;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let Some((node, pid)) = owner(&entry) else { continue };
        if stale(&node, pid) {
            match std::fs::remove_file(entry.path()) {
                Ok(()) => removed += 1,
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stem_has_one_holder_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let first = reserve(dir.path(), "p", "a 1").unwrap().expect("free");
        assert!(reserve(dir.path(), "p", "b 2").unwrap().is_none());
        assert!(reserve(dir.path(), "q", "b 2").unwrap().is_some());
        drop(first);
        assert!(reserve(dir.path(), "p", "b 2").unwrap().is_some());
    }

    #[test]
    fn only_stale_reservations_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        std::mem::forget(reserve(dir.path(), "p", "dead 7").unwrap());
        std::mem::forget(reserve(dir.path(), "q", "live 8").unwrap());
        fs_write_empty(dir.path(), "r");
        assert_eq!(remove_stale(dir.path(), |node, pid| node == "dead" && pid == 7).unwrap(), 1);
        assert!(reserve(dir.path(), "p", "x 1").unwrap().is_some());
        assert!(reserve(dir.path(), "q", "x 1").unwrap().is_none());
        assert_eq!(remove_stale(dir.path(), |_, _| true).unwrap(), 1, "one without an owner stays");
        assert!(reserve(dir.path(), "r", "x 1").unwrap().is_none());
    }

    /// A reservation as a crash right after its creation leaves it: empty.
    fn fs_write_empty(dir: &Path, stem: &str) {
        let reservation = reserve(dir, stem, "").unwrap().expect("free");
        std::mem::forget(reservation);
    }
}
