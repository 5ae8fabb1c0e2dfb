//! The filesystem steps that writing results (and claiming inputs) build on: a rename that
//! never replaces a file, and the syncs that make data and renames durable. Shared, so
//! that the result writer, its stem reservations and the daemon's claims and commits use
//! the very same steps.

use rustix::fs::{CWD, RenameFlags};
use rustix::io::Errno;
use std::fs::File;
use std::io;
use std::path::Path;

/// Renames `from` to `to`, failing with `AlreadyExists` rather than replacing `to`.
/// Falls back to link-then-unlink (equally atomic) where `renameat2` is not supported.
pub(crate) fn rename_noreplace(from: &Path, to: &Path) -> io::Result<()> {
    match rustix::fs::renameat_with(CWD, from, CWD, to, RenameFlags::NOREPLACE) {
        Ok(()) => Ok(()),
        Err(e) if e == Errno::INVAL || e == Errno::NOSYS || e == Errno::OPNOTSUPP => {
            std::fs::hard_link(from, to)?;
            std::fs::remove_file(from)
        }
        Err(e) => Err(e.into()),
    }
}

/// fsyncs a folder, making the renames in it durable.
pub(crate) fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Flushes one file's data to disk.
pub(crate) fn sync_file(path: &Path) -> io::Result<()> {
    File::open(path)?.sync_data()
}
