//! Reserving a result stem in the outbox, so that no other writer (in this process, another
//! process on this host, or a daemon on another node sharing the outbox) picks the same one
//! while a result set is renamed into place. "Is `NAME.json` free?" followed by writing it
//! would let two writers both answer as `NAME`, one over the other; instead the stem is
//! taken by renaming a reservation file into place without replacing, which exactly one
//! writer wins.
//!
//! A reservation is complete or absent: its owner ([`Owner`]) is written into a temporary
//! file first, which is then renamed to the reservation's name. A process killed at any
//! step leaves either a temporary file (swept like the others) or a reservation that names
//! it, so the reservation of a writer that is gone is recognised, and removed by the next
//! writer that wants its stem or by the next start of a writer. Reservations without a
//! readable owner (left by older versions, which wrote the owner after creating the file)
//! count as left over once [`ORPHAN_AGE`] old. Removal happens under an exclusive lock on
//! the outbox folder, so that two writers never both remove a reservation, one of them
//! after the other has taken the stem anew.

use super::owner::Owner;
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Prefix of reservation files; the rest of the name is the SHA-256 of the stem, so that
/// the name stays short whatever the stem's length.
pub(crate) const PREFIX: &str = ".kakurod-stem.";

/// From this age, a reservation without a readable owner is taken for a crash's leftover:
/// an older version wrote its owner an instant after creating it.
const ORPHAN_AGE: Duration = Duration::from_secs(60);

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

/// Reserves `stem` in `dir` for `me`, whose record ([`Owner::to_record`]) is in the file
/// `record` in `dir`, which this consumes. `None` when a living writer holds the stem; the
/// reservation of one that is gone is removed and the stem taken.
pub(crate) fn reserve(
    dir: &Path,
    stem: &str,
    record: &Path,
    me: &Owner,
) -> io::Result<Option<Reservation>> {
    let path = path_of(dir, stem);
    let outcome = (|| {
        for _ in 0..2 {
            match crate::util::fs::rename_noreplace(record, &path) {
                Ok(()) => return Ok(Some(Reservation { path })),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
            if !remove_if_left_over(dir, &path, &|owner| owner.is_gone(me))? {
                return Ok(None);
            }
        }
        Ok(None)
    })();
    if !matches!(outcome, Ok(Some(_))) {
        let _ = std::fs::remove_file(record);
    }
    outcome
}

/// The reservation file of `stem` in `dir`.
pub(crate) fn path_of(dir: &Path, stem: &str) -> PathBuf {
    let digest = crate::util::hex(&Sha256::digest(stem.as_bytes()));
    dir.join(format!("{PREFIX}{digest}"))
}

/// Removes the reservation at `path` when `gone` judges its owner gone (or it has no
/// readable owner and is old). True when it is not there any more.
fn remove_if_left_over(dir: &Path, path: &Path, gone: &dyn Fn(&Owner) -> bool) -> io::Result<bool> {
    let Some(_lock) = lock(dir) else { return Ok(false) };
    match left_over(path, gone) {
        Ok(false) => Ok(false),
        Ok(true) => remove(path),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(true),
        Err(e) => Err(e),
    }
}

/// Removes the reservations in `dir` whose owner `gone` judges gone, and those without a
/// readable owner that are old. Returns how many were removed.
pub(crate) fn remove_left_over(dir: &Path, gone: &dyn Fn(&Owner) -> bool) -> io::Result<usize> {
    let Some(_lock) = lock(dir) else { return Ok(0) };
    let mut removed = 0;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if !entry.file_name().to_str().is_some_and(|n| n.starts_with(PREFIX)) {
            continue;
        }
        match left_over(&entry.path(), gone) {
            Ok(true) => removed += usize::from(remove(&entry.path())?),
            Ok(false) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    Ok(removed)
}

/// Whether the reservation at `path` is left over: its owner is gone, or it has none that
/// can be read and is old.
fn left_over(path: &Path, gone: &dyn Fn(&Owner) -> bool) -> io::Result<bool> {
    let bytes = std::fs::read(path)?;
    if let Some(owner) = std::str::from_utf8(&bytes).ok().and_then(Owner::parse) {
        return Ok(gone(&owner));
    }
    let modified = std::fs::symlink_metadata(path)?.modified()?;
    let age = SystemTime::now().duration_since(modified).unwrap_or_default();
    Ok(age >= ORPHAN_AGE)
}

/// Removes `path`; true when it is gone (also when it was gone already).
fn remove(path: &Path) -> io::Result<bool> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(true),
        Err(e) => Err(e),
    }
}

/// An exclusive lock on the folder `dir`, held until dropped; `None` where the filesystem
/// has no such locks (then nothing is removed: a left-over reservation only makes its
/// stem's results take the next number).
fn lock(dir: &Path) -> Option<File> {
    let folder = File::open(dir).ok()?;
    folder.lock().ok()?;
    Some(folder)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reserves `stem` as `owner` would, its record written to a fresh file.
    fn take(dir: &Path, stem: &str, owner: &Owner, me: &Owner) -> Option<Reservation> {
        let record = dir.join(format!("record.{stem}"));
        std::fs::write(&record, owner.to_record()).unwrap();
        reserve(dir, stem, &record, me).unwrap()
    }

    fn other_node() -> Owner {
        Owner::parse("other 1 5 elsewhere/1").unwrap()
    }

    #[test]
    fn a_stem_has_one_holder_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let me = Owner::this_process("n");
        let first = take(dir.path(), "p", &me, &me).expect("free");
        assert!(take(dir.path(), "p", &me, &me).is_none());
        assert!(take(dir.path(), "q", &me, &me).is_some());
        drop(first);
        assert!(take(dir.path(), "p", &me, &me).is_some());
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(names.is_empty(), "records consumed, reservations ended: {names:?}");
    }

    #[test]
    fn the_reservation_of_a_killed_process_does_not_block_its_stem() {
        let dir = tempfile::tempdir().unwrap();
        let me = Owner::this_process("n");
        let mut child = std::process::Command::new("sleep").arg("30").spawn().unwrap();
        let start = super::super::owner::start_time(child.id()).unwrap();
        let mine = me.to_record();
        let host = mine.split(' ').nth(3).unwrap();
        let killed = Owner::parse(&format!("m {} {start} {host}", child.id())).unwrap();
        std::mem::forget(take(dir.path(), "p", &killed, &me).expect("free"));
        assert!(take(dir.path(), "p", &me, &me).is_none(), "held while its owner runs");
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(take(dir.path(), "p", &me, &me).is_some(), "taken over once it is killed");
    }

    #[test]
    fn only_left_over_reservations_are_swept() {
        let dir = tempfile::tempdir().unwrap();
        let me = Owner::this_process("n");
        let dead = Owner::parse(&format!("n {}", u32::MAX)).unwrap();
        std::mem::forget(take(dir.path(), "p", &dead, &me));
        std::mem::forget(take(dir.path(), "q", &other_node(), &me));
        let fresh_orphan = path_of(dir.path(), "r");
        std::fs::write(&fresh_orphan, "").unwrap();
        let old_orphan = path_of(dir.path(), "s");
        std::fs::write(&old_orphan, "").unwrap();
        let long_ago = SystemTime::now() - 2 * ORPHAN_AGE;
        File::options().write(true).open(&old_orphan).unwrap().set_modified(long_ago).unwrap();
        let gone = |owner: &Owner| owner.is_gone(&me);
        assert_eq!(remove_left_over(dir.path(), &gone).unwrap(), 2, "the dead one, the old orphan");
        assert!(take(dir.path(), "q", &me, &me).is_none(), "another node's stays");
        assert!(take(dir.path(), "r", &me, &me).is_none(), "a fresh orphan stays");
        assert!(take(dir.path(), "s", &me, &me).is_some());
    }
}
