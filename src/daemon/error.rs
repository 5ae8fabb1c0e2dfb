//! The daemon's two classes of error. A [`DaemonError`] stops the daemon (bad configuration,
//! which is a [`SettingsError`](crate::settings::SettingsError), missing folders, a second daemon on the same inbox, a failed
//! watcher); a [`JobError`] concerns one input file only: the file is left where it is for
//! a later attempt, and the daemon carries on.

use std::io;
use std::path::PathBuf;

/// A fatal error: the daemon cannot start or cannot go on.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DaemonError {
    /// The configuration is wrong (unreadable, not TOML, or a setting out of range).
    #[error(transparent)]
    Settings(#[from] crate::settings::SettingsError),
    /// A folder could not be created or opened.
    #[error("{about} {path}: {source}")]
    Folder {
        /// Which folder (`inbox`, `outbox`, ...).
        about: &'static str,
        /// Its path.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// A folder that must share the inbox's filesystem (so that renames are atomic) does not.
    #[error("the {about} folder {path} is not on the same filesystem as the inbox {inbox}")]
    OtherFilesystem {
        /// Which folder.
        about: &'static str,
        /// Its path.
        path: PathBuf,
        /// The inbox.
        inbox: PathBuf,
    },
    /// Two of the folders are one folder, or one lies inside the other: the daemon would take
    /// its own results, or the inputs it archived, for new inputs.
    #[error(
        "folders.{first} ({first_path}) {relation} folders.{second} ({second_path}); the \
         inbox, outbox, claim, done and failed folders must lie apart"
    )]
    Overlapping {
        /// The first setting's name.
        first: &'static str,
        /// Its folder.
        first_path: PathBuf,
        /// The second setting's name.
        second: &'static str,
        /// Its folder.
        second_path: PathBuf,
        /// How they overlap: "is the same folder as" or "lies inside".
        relation: &'static str,
    },
    /// Another kakurod serves this inbox already.
    #[error(
        "another kakurod already serves the inbox {inbox} ({holder}; it holds the lock \
         {lock}); run one daemon per inbox, and add hosts as workers on a shared queue"
    )]
    InboxServed {
        /// The inbox.
        inbox: PathBuf,
        /// Who holds the lock, as it wrote itself into the file.
        holder: String,
        /// The lock file.
        lock: PathBuf,
    },
    /// The shared queue cannot be used.
    #[error(transparent)]
    Queue(#[from] crate::queue::QueueError),
    /// The file watcher failed.
    #[error("cannot watch {path}: {source}")]
    Watch {
        /// The watched folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: notify::Error,
    },
    /// Another operating-system call on the daemon's control path failed.
    #[error("{about}: {source}")]
    Io {
        /// What was being done.
        about: &'static str,
        /// Why.
        #[source]
        source: io::Error,
    },
}

/// An error while handling one input file. The daemon logs it and goes on; the input stays
/// in the inbox (taken again by a later scan) or the claim folder (requeued by the
/// retrier), so nothing is lost.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JobError {
    /// The input could not be claimed; it stays in the inbox for the next scan.
    #[error("cannot claim {path}: {source}")]
    Claim {
        /// The input in the inbox.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// A file operation failed.
    #[error("{about} {path}: {source}")]
    Io {
        /// What was being done.
        about: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
}

impl JobError {
    /// Wraps an I/O error with what was being done and to which file.
    pub fn io(about: &'static str, path: impl Into<PathBuf>, source: io::Error) -> JobError {
        JobError::Io { about, path: path.into(), source }
    }
}
