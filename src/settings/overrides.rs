//! What the command line of `kakurod serve` may set over the configuration file, as plain
//! resolved values: the command line fills a [`ServeOverrides`] in, and
//! [`Settings::load`](super::Settings::load) applies it, so the daemon does not know how
//! its settings were typed.

use super::Config;
use super::{LogFormat, LogLevel};
use std::path::PathBuf;
use std::time::Duration;

/// Settings given outside the configuration file; each one present wins over the file's.
/// Folders and files given here are relative to the working directory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServeOverrides {
    /// The configuration file (absent: `./config.toml` when there is one).
    pub config: Option<PathBuf>,
    /// The watched folder.
    pub inbox: Option<PathBuf>,
    /// The results folder.
    pub outbox: Option<PathBuf>,
    /// Worker threads (0 = one per core).
    pub workers: Option<usize>,
    /// Threads per puzzle (0 = one per core).
    pub threads: Option<usize>,
    /// Per-puzzle time limit (zero: none).
    pub timeout: Option<Duration>,
    /// How long running jobs may take after SIGTERM.
    pub drain_timeout: Option<Duration>,
    /// Log format.
    pub log_format: Option<LogFormat>,
    /// Log level.
    pub log_level: Option<LogLevel>,
    /// Whether `NAME.svg` is left out.
    pub no_svg: bool,
    /// Whether results go unsynced.
    pub no_fsync: bool,
    /// The shared queue's URLs.
    pub queue: Option<String>,
    /// The metrics file.
    pub metrics_file: Option<PathBuf>,
    /// The metrics listener's `HOST:PORT`.
    pub metrics_listen: Option<String>,
}

impl ServeOverrides {
    /// Writes the overrides that have a key in the file into `config`. The folders and the
    /// metrics' places are resolved apart, since they are relative to another folder.
    pub(super) fn apply_to(&self, config: &mut Config) {
        if let Some(workers) = self.workers {
            config.workers.workers = workers;
        }
        if let Some(threads) = self.threads {
            config.solver.threads = threads;
        }
        if let Some(timeout) = self.timeout {
            config.limits.timeout = timeout;
        }
        if let Some(drain) = self.drain_timeout {
            config.workers.drain_timeout = drain;
        }
        if let Some(format) = self.log_format {
            config.log.format = format;
        }
        if let Some(level) = self.log_level {
            config.log.level = level;
        }
        if self.no_svg {
            config.output.svg = false;
        }
        if self.no_fsync {
            config.workers.fsync = false;
        }
        if let Some(url) = &self.queue {
            config.queue.url = url.clone();
        }
    }
}
