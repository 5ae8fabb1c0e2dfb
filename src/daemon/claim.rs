//! Ownership of input files through the filesystem: the daemon claims an input by renaming
//! it from the inbox into the claim folder under a fresh claim id (`claim/ID.NAME`), and
//! later moves it on to `done/` or `failed/` under a free name. Whatever is in the claim
//! folder at start-up was being worked on when the last run stopped, and is requeued.
//!
//! The claim id is the job's identity, here and on a shared queue: the same file dropped
//! twice is two inputs with two ids (answered as `NAME` and `NAME-2`), and an answer
//! carries the id of the claim it answers, so a late answer never lands on a newer claim.

use crate::util::fs::rename_noreplace;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Hex digits of a claim id.
const ID_LEN: usize = 16;

/// A claim id: the claim time in milliseconds (so ids sort by age) and 20 random bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClaimId(u64);

/// The greatest id this process has handed out or found in the claim folder.
static LAST: AtomicU64 = AtomicU64::new(0);

impl ClaimId {
    /// A fresh id, greater than every id handed out before it in this process. The id alone
    /// names a claim on the shared queue (its flight, its answer's writing, its cancel), so
    /// two claims must never share one, whatever their names: with random bits alone, two
    /// inputs claimed in the same millisecond shared one once in a million pairs, and one of
    /// their answers was dropped as a second answer to the other.
    pub fn new() -> ClaimId {
        let ms = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        let drawn = (ms << 20) | (rand::random::<u64>() & 0xf_ffff);
        let after = |last: u64| drawn.max(last.saturating_add(1));
        let last = LAST.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |l| Some(after(l)));
        ClaimId(after(last.unwrap_or_else(|l| l)))
    }

    /// Ids handed out from now on are greater than `id`, one an earlier run left in the
    /// claim folder: a clock set back since cannot draw it again.
    pub fn keep_above(id: ClaimId) {
        LAST.fetch_max(id.0, Ordering::SeqCst);
    }

    /// The id written as 16 lower-case hex digits.
    pub fn parse(text: &str) -> Option<ClaimId> {
        let lower = |c: char| c.is_ascii_digit() || ('a'..='f').contains(&c);
        if text.len() != ID_LEN || !text.chars().all(lower) {
            return None;
        }
        u64::from_str_radix(text, 16).ok().map(ClaimId)
    }
}

impl fmt::Display for ClaimId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// A claimed input: its id and the name it was dropped under.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Claimed {
    /// The claim id.
    pub id: ClaimId,
    /// The input's name in the inbox (no folder).
    pub name: String,
}

impl Claimed {
    /// The file's name in the claim folder: `ID.NAME`.
    pub fn file_name(&self) -> String {
        format!("{}.{}", self.id, self.name)
    }

    /// The claimed input `ID.NAME`, if `file_name` is one.
    pub fn parse(file_name: &str) -> Option<Claimed> {
        let (id, name) = file_name.split_at_checked(ID_LEN)?;
        let name = name.strip_prefix('.').filter(|n| !n.is_empty())?;
        Some(Claimed { id: ClaimId::parse(id)?, name: name.to_string() })
    }

    /// Its path in `claim_dir`.
    pub fn path(&self, claim_dir: &Path) -> PathBuf {
        claim_dir.join(self.file_name())
    }
}

/// Claims `inbox/name` by renaming it to `claim/ID.name` under a fresh id. Fails with
/// `NotFound` when the file is gone.
pub fn claim(inbox: &Path, claim_dir: &Path, name: &str) -> io::Result<Claimed> {
    claim_from(&inbox.join(name), claim_dir, name)
}

/// Claims the file at `from` as the input `name` (`claim/ID.name` under a fresh id); a
/// cancel claims an input afresh this way, from under its queued job.
pub fn claim_from(from: &Path, claim_dir: &Path, name: &str) -> io::Result<Claimed> {
    loop {
        let claimed = Claimed { id: ClaimId::new(), name: name.to_string() };
        match rename_noreplace(from, &claimed.path(claim_dir)) {
            Ok(()) => return Ok(claimed),
            // Taken by a file that an earlier run or a hand left: draw the next id.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
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

/// The inputs in the claim folder, oldest claim first (a claimed symbolic link or FIFO is
/// answered like any input). Dot files are the daemon's own (its lock).
pub fn claimed(claim_dir: &Path) -> io::Result<Vec<Claimed>> {
    let mut claims = Vec::new();
    for entry in std::fs::read_dir(claim_dir)? {
        let entry = entry?;
        let Ok(file_name) = entry.file_name().into_string() else { continue };
        if let Some(claimed) = Claimed::parse(&file_name) {
            claims.push(claimed);
        }
    }
    claims.sort_by_key(|c| c.id);
    Ok(claims)
}

/// Gives an id to what an earlier version left in the claim folder: inputs claimed without
/// one (`claim/NAME`) and the inputs of its node folders (`claim/NODE/NAME`); the node
/// folders' leases go. Dot files and folders are the daemon's own (its lock, its state,
/// the requests to cancel) and stay. Returns how many inputs were adopted.
pub fn adopt_legacy(claim_dir: &Path) -> io::Result<usize> {
    let mut adopted = 0;
    for entry in std::fs::read_dir(claim_dir)? {
        let entry = entry?;
        let Ok(file_name) = entry.file_name().into_string() else { continue };
        if file_name.starts_with(".lease.") {
            std::fs::remove_file(entry.path())?;
        } else if file_name.starts_with('.') {
            continue;
        } else if entry.file_type()?.is_dir() {
            let folder = entry.path();
            for inner in std::fs::read_dir(&folder)? {
                let inner = inner?;
                let Ok(name) = inner.file_name().into_string() else { continue };
                claim(&folder, claim_dir, &name)?;
                adopted += 1;
            }
            // Left in place when it is not empty (a name that is not UTF-8).
            let _ = std::fs::remove_dir(&folder);
        } else if Claimed::parse(&file_name).is_none() {
            claim(claim_dir, claim_dir, &file_name)?;
            adopted += 1;
        }
    }
    Ok(adopted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_daemons_own_dot_folders_are_not_taken_for_an_earlier_versions_node_folders() {
        let dir = tempfile::tempdir().unwrap();
        let requests = dir.path().join(".kakurod-cancel");
        std::fs::create_dir(&requests).unwrap();
        std::fs::write(requests.join("input.txt"), "").unwrap();
        std::fs::create_dir(dir.path().join("old-node")).unwrap();
        std::fs::write(dir.path().join("old-node/left.txt"), "x").unwrap();
        assert_eq!(adopt_legacy(dir.path()).unwrap(), 1);
        assert!(requests.join("input.txt").exists());
        let names: Vec<String> = claimed(dir.path()).unwrap().into_iter().map(|c| c.name).collect();
        assert_eq!(names, ["left.txt"]);
    }

    #[test]
    fn ids_drawn_at_once_on_several_threads_are_all_different_and_rise_on_each() {
        let drawn: Vec<Vec<ClaimId>> = std::thread::scope(|scope| {
            let threads: Vec<_> = (0..4)
                .map(|_| scope.spawn(|| (0..50_000).map(|_| ClaimId::new()).collect::<Vec<_>>()))
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).collect()
        });
        for ids in &drawn {
            assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));
        }
        let all: std::collections::HashSet<ClaimId> = drawn.into_iter().flatten().collect();
        assert_eq!(all.len(), 200_000);
        let far = ClaimId(u64::MAX / 2);
        ClaimId::keep_above(far);
        assert!(ClaimId::new() > far);
    }

    #[test]
    fn numbered_names_keep_the_extension() {
        assert_eq!(numbered("a.txt", 1), "a.txt");
        assert_eq!(numbered("a.txt", 2), "a-2.txt");
        assert_eq!(numbered("a.b.json", 3), "a.b-3.json");
        assert_eq!(numbered("noext", 2), "noext-2");
    }

    #[test]
    fn the_same_name_claimed_twice_is_two_claims() {
        let dir = tempfile::tempdir().unwrap();
        let (inbox, work) = (dir.path().join("in"), dir.path().join("work"));
        std::fs::create_dir_all(&inbox).unwrap();
        std::fs::create_dir_all(&work).unwrap();
        std::fs::write(inbox.join("a.txt"), "first").unwrap();
        let first = claim(&inbox, &work, "a.txt").unwrap();
        std::fs::write(inbox.join("a.txt"), "second").unwrap();
        let second = claim(&inbox, &work, "a.txt").unwrap();
        assert_ne!(first.id, second.id);
        assert_eq!(std::fs::read_to_string(first.path(&work)).unwrap(), "first");
        assert_eq!(std::fs::read_to_string(second.path(&work)).unwrap(), "second");
        let gone = claim(&inbox, &work, "missing").unwrap_err();
        assert_eq!(gone.kind(), io::ErrorKind::NotFound);
        let mut both = vec![first, second];
        both.sort_by_key(|c| c.id);
        assert_eq!(claimed(&work).unwrap(), both);
    }

    #[test]
    fn claim_file_names_round_trip_and_odd_names_are_not_claims() {
        let c = Claimed { id: ClaimId::new(), name: "x.y.txt".into() };
        assert_eq!(Claimed::parse(&c.file_name()), Some(c.clone()));
        for odd in ["x.txt", "0123456789abcdef", "0123456789abcdef.", "0123456789ABCDEF.a"] {
            assert_eq!(Claimed::parse(odd), None, "{odd}");
        }
    }

    #[test]
    fn an_earlier_versions_claims_are_adopted() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("old.txt"), "x").unwrap();
        std::fs::create_dir(root.join("node-1")).unwrap();
        std::fs::write(root.join("node-1/n.txt"), "y").unwrap();
        std::fs::write(root.join(".lease.node-1"), "").unwrap();
        assert_eq!(adopt_legacy(root).unwrap(), 2);
        let mut names: Vec<String> = claimed(root).unwrap().into_iter().map(|c| c.name).collect();
        names.sort();
        assert_eq!(names, ["n.txt", "old.txt"]);
        assert!(!root.join("node-1").exists() && !root.join(".lease.node-1").exists());
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
