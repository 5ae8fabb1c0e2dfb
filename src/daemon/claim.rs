//! Ownership of input files through the filesystem: a worker claims an input by renaming it
//! from the inbox into the claim folder (atomic, and never over an existing file), and later
//! moves it on to `done/` or `failed/` under a free name. Whatever is in the claim folder at
//! start-up was being worked on when the last run stopped, and is requeued. The claim
//! folder is the node's own (`claim/NODE/`, see `cluster`), so daemons sharing an inbox
//! never see each other's claims as their own.

use crate::outbox::files::rename_noreplace;
use std::io;
use std::path::{Path, PathBuf};

/// Claims `inbox/name` by renaming it to `claim/name`. Fails with `NotFound` when someone
/// else took it first and with `AlreadyExists` when a file of that name is still being
/// worked on (the input then stays in the inbox for a later attempt).
pub fn claim(inbox: &Path, claim_dir: &Path, name: &str) -> io::Result<PathBuf> {
    let to = claim_dir.join(name);
    rename_noreplace(&inbox.join(name), &to)?;
    Ok(to)
}

/// Moves `from` into `dir` as `name`, or as `NAME-2.EXT`, `NAME-3.EXT`, ... when that name
/// is taken, so that nothing is ever overwritten. Returns the new path.
pub fn move_unique(from: &Path, dir: &Path, name: &str) -> io::Result<PathBuf> {
    for n in 1..=100_000u32 {
        let to = dir.join(numbered(name, n));
        match rename_noreplace(from, &to) {
            Ok(()) => return Ok(to),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(io::ErrorKind::AlreadyExists, "no free name left"))
}

/// `name` for `n == 1`, else `stem-n.ext` (`stem-n` without an extension).
pub fn numbered(name: &str, n: u32) -> String {
    if n <= 1 {
        return name.to_string();
    }
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => format!("{stem}-{n}.{ext}"),
        _ => format!("{name}-{n}"),
    }
}

/// The names of the inputs in the claim folder, sorted: everything but folders (a claimed
/// symbolic link or FIFO is answered like any input).
pub fn claimed(claim_dir: &Path) -> io::Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(claim_dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            continue;
        }
        if let Ok(name) = entry.file_name().into_string() {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_names_keep_the_extension() {
        assert_eq!(numbered("a.txt", 1), "a.txt");
        assert_eq!(numbered("a.txt", 2), "a-2.txt");
        assert_eq!(numbered("a.b.json", 3), "a.b-3.json");
        assert_eq!(numbered("noext", 2), "noext-2");
    }

    #[test]
    fn claiming_never_replaces_a_file_being_worked_on() {
        let dir = tempfile::tempdir().unwrap();
        let (inbox, work) = (dir.path().join("in"), dir.path().join("work"));
        std::fs::create_dir_all(&inbox).unwrap();
        std::fs::create_dir_all(&work).unwrap();
        std::fs::write(inbox.join("a"), "first").unwrap();
        let claimed_path = claim(&inbox, &work, "a").unwrap();
        std::fs::write(inbox.join("a"), "second").unwrap();
        let error = claim(&inbox, &work, "a").unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read_to_string(&claimed_path).unwrap(), "first");
        assert_eq!(std::fs::read_to_string(inbox.join("a")).unwrap(), "second");
        let gone = claim(&inbox, &work, "missing").unwrap_err();
        assert_eq!(gone.kind(), io::ErrorKind::NotFound);
        assert_eq!(claimed(&work).unwrap(), vec!["a".to_string()]);
    }

    #[test]
    fn moving_picks_a_free_name() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("x.txt"), "old").unwrap();
        let src = dir.path().join("src");
        std::fs::write(&src, "new").unwrap();
        let to = move_unique(&src, dir.path(), "x.txt").unwrap();
        assert_eq!(to, dir.path().join("x-2.txt"));
        assert_eq!(std::fs::read_to_string(dir.path().join("x.txt")).unwrap(), "old");
    }
}
