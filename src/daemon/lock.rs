//! One daemon per inbox. The daemon holds an exclusive `flock` on `claim/.kakurod.lock` for
//! its lifetime and writes into the file who it is (pid, host, start time), so that a second
//! `kakurod serve` on the same folders refuses to start at once and names the one that
//! runs. The kernel drops the lock however the process ends; a stale file is only text.
//!
//! Several hosts do not share an inbox: they share a queue (see `crate::queue`).

use super::error::DaemonError;
use rustix::fs::FlockOperation;
use rustix::io::Errno;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::path::Path;

/// The lock file's name in the claim folder.
pub const LOCK_FILE: &str = ".kakurod.lock";

/// The held lock; released when dropped (or when the process ends).
#[derive(Debug)]
pub struct InboxLock {
    _file: File,
}

impl InboxLock {
    /// Takes the lock in `claim_dir`, or says which daemon holds it.
    pub fn take(claim_dir: &Path, inbox: &Path) -> Result<InboxLock, DaemonError> {
        let path = claim_dir.join(LOCK_FILE);
        let io_error = |about, source| DaemonError::Folder { about, path: path.clone(), source };
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| io_error("cannot open the lock", e))?;
        match rustix::fs::flock(&file, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => {}
            Err(e) if e == Errno::WOULDBLOCK => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                return Err(DaemonError::InboxServed {
                    inbox: inbox.to_path_buf(),
                    holder: holder.trim().to_string(),
                    lock: path,
                });
            }
            Err(e) => return Err(io_error("cannot lock", e.into())),
        }
        let me = format!(
            "pid {} on {} since {}",
            std::process::id(),
            rustix::system::uname().nodename().to_string_lossy(),
            started_at()
        );
        file.set_len(0)
            .and_then(|()| file.rewind())
            .and_then(|()| file.write_all(me.as_bytes()))
            .map_err(|e| io_error("cannot write", e))?;
        Ok(InboxLock { _file: file })
    }
}

/// Now, as an RFC 3339 date and time in UTC (`2026-11-26T21:40:00Z`).
fn started_at() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_is_refused_and_told_who_holds_it() {
        let dir = tempfile::tempdir().unwrap();
        let first = InboxLock::take(dir.path(), Path::new("/in")).unwrap();
        let error = InboxLock::take(dir.path(), Path::new("/in")).unwrap_err();
        let text = error.to_string();
        assert!(text.contains(&format!("pid {}", std::process::id())), "{text}");
        // Since a date a person reads, `2026-11-26T21:40:00Z`, not seconds since 1970.
        let since = text.split(" since ").nth(1).expect("a start time");
        let date = since.get(..20).unwrap_or(since);
        assert!(humantime::parse_rfc3339(date).is_ok(), "{text}");
        drop(first);
        InboxLock::take(dir.path(), Path::new("/in")).unwrap();
    }
}
