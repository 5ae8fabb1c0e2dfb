//! `[queue]`: where the work queue lives. Without a URL the queue is the daemon's own, in
//! its process (one host); with one, jobs go through NATS JetStream and workers on any host
//! answer them (see `crate::queue` and docs/queue.md).

use super::{SettingsError, check_range, setting};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The queue's resolved settings.
#[derive(Clone, Debug, PartialEq)]
pub struct QueueSettings {
    /// Server URLs, comma-separated.
    pub urls: String,
    /// Prefix of subjects, streams and buckets.
    pub prefix: String,
    /// A `.creds` file.
    pub creds_file: Option<PathBuf>,
    /// Certificate authorities for TLS.
    pub ca_file: Option<PathBuf>,
    /// The consumer's ack wait: a silent worker loses its job after it.
    pub ack_wait: Duration,
    /// Most inputs claimed and not answered.
    pub max_in_flight: usize,
    /// Most parts of a batch sent ahead of the next one to write.
    pub parts_ahead: usize,
    /// Crashes after which an input is answered as failed.
    pub max_crashes: u32,
    /// Stream replicas.
    pub replicas: usize,
    /// The server's duplicate window.
    pub duplicate_window: Duration,
    /// When a claim with no job and no answer gets its job again.
    pub reconcile: Duration,
    /// Inputs of at least this many bytes are large (0: none is).
    pub large_input_bytes: u64,
    /// A `lines` batch is cut into jobs of at most this many puzzles...
    pub batch_chunk_puzzles: usize,
    /// ...and at most this many bytes (a longer single line is a chunk of its own).
    pub batch_chunk_bytes: usize,
}

/// Why `prefix` cannot prefix subjects and stream names, if it cannot.
pub fn invalid_prefix(prefix: &str) -> Option<String> {
    let fine = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    (prefix.is_empty() || prefix.len() > 32 || !prefix.chars().all(fine))
        .then(|| format!("'{prefix}' must be 1 to 32 letters, digits, '_' or '-'"))
}

/// `[queue]`, as written.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct QueueConfig {
    /// `nats://` or `tls://` URLs, comma-separated; empty: the in-process queue.
    pub url: String,
    /// Prefix of the subjects, streams and buckets: one per inbox on a shared server.
    pub subject_prefix: String,
    /// A NATS `.creds` file (user JWT and seed).
    pub creds_file: Option<PathBuf>,
    /// A PEM file of the certificate authorities that sign the servers' certificates.
    pub ca_file: Option<PathBuf>,
    /// How long a worker may hold a job without a sign of life before it goes to another.
    #[serde(rename = "ack_wait_seconds", with = "kakurod_engine::seconds::required")]
    pub ack_wait: Duration,
    /// The most inputs claimed and not yet answered (0: four per worker slot).
    pub max_in_flight: usize,
    /// After this many workers died on one input, it is answered as failed.
    pub max_crashes: u32,
    /// Servers that keep a copy of each stream (1 or 3 in a three-server cluster).
    pub replicas: usize,
    /// How long the server remembers a message id to drop a re-sent copy.
    #[serde(rename = "duplicate_window_seconds", with = "kakurod_engine::seconds::required")]
    pub duplicate_window: Duration,
    /// How long a claim may go without a job, an answer or a running worker before the
    /// daemon sends its job again.
    #[serde(rename = "reconcile_seconds", with = "kakurod_engine::seconds::required")]
    pub reconcile: Duration,
    /// Inputs of at least this many bytes are large: one slot of every worker with more
    /// than one is kept for the others (0: no input is large).
    pub large_input_bytes: u64,
    /// A `lines` batch with more puzzles than this (or more bytes than
    /// `batch_chunk_bytes`) is cut into jobs of at most this many, answered by any worker.
    pub batch_chunk_puzzles: usize,
    /// The most bytes of one chunk of a `lines` batch.
    pub batch_chunk_bytes: usize,
}

impl Default for QueueConfig {
    fn default() -> Self {
        QueueConfig {
            url: String::new(),
            subject_prefix: super::DEFAULT_SUBJECT_PREFIX.into(),
            creds_file: None,
            ca_file: None,
            ack_wait: Duration::from_secs(30),
            max_in_flight: 0,
            max_crashes: 3,
            replicas: 1,
            duplicate_window: Duration::from_secs(120),
            reconcile: Duration::from_secs(60),
            large_input_bytes: 32 * 1024,
            batch_chunk_puzzles: 2000,
            batch_chunk_bytes: 256 * 1024,
        }
    }
}

/// The queue's settings, or `None` for the in-process queue. Files are relative to `base`;
/// `workers` sizes the default `max_in_flight`.
pub(super) fn resolve(
    config: &QueueConfig,
    base: &Path,
    workers: usize,
) -> Result<Option<QueueSettings>, SettingsError> {
    if config.url.trim().is_empty() {
        return Ok(None);
    }
    check_range("queue.ack_wait_seconds", config.ack_wait.as_secs_f64(), 1.0, 3600.0)?;
    check_range("queue.max_in_flight", config.max_in_flight as f64, 0.0, 1e6)?;
    check_range("queue.max_crashes", config.max_crashes as f64, 1.0, 1000.0)?;
    check_range("queue.replicas", config.replicas as f64, 1.0, 5.0)?;
    let window = config.duplicate_window.as_secs_f64();
    check_range("queue.duplicate_window_seconds", window, 1.0, 86400.0)?;
    check_range("queue.reconcile_seconds", config.reconcile.as_secs_f64(), 1.0, 86400.0)?;
    check_range("queue.batch_chunk_puzzles", config.batch_chunk_puzzles as f64, 1.0, 1e6)?;
    check_range("queue.batch_chunk_bytes", config.batch_chunk_bytes as f64, 1024.0, 64e6)?;
    if let Some(message) = invalid_prefix(&config.subject_prefix) {
        return Err(setting("queue.subject_prefix", &message));
    }
    // Each input in flight waits a few round trips and a durable write between two jobs
    // of a slot; with four per slot, the slots of small inputs stood idle half the time.
    // Small inputs travel sixteen to a pack, so 32 per slot were two packs: a slot idled
    // while the last pack's answers were written and the next one claimed. 128 per slot
    // (eight packs) keep it busy. A batch's parts are large: four per slot ahead of the
    // next one to write is plenty, and bounds what the daemon holds of parts that came
    // early.
    let (max_in_flight, parts_ahead) = match config.max_in_flight {
        0 => ((128 * workers).max(256), 4 * workers),
        given => (given, given),
    };
    Ok(Some(QueueSettings {
        urls: config.url.trim().to_string(),
        prefix: config.subject_prefix.clone(),
        creds_file: config.creds_file.as_ref().map(|f| base.join(f)),
        ca_file: config.ca_file.as_ref().map(|f| base.join(f)),
        ack_wait: config.ack_wait,
        max_in_flight: max_in_flight.max(1),
        parts_ahead: parts_ahead.max(2),
        max_crashes: config.max_crashes,
        replicas: config.replicas,
        duplicate_window: config.duplicate_window,
        reconcile: config.reconcile,
        large_input_bytes: config.large_input_bytes,
        batch_chunk_puzzles: config.batch_chunk_puzzles,
        batch_chunk_bytes: config.batch_chunk_bytes,
    }))
}
