//! The daemon's state as `kakurod status` reads it: one small JSON document, rewritten
//! atomically every second into the claim folder (`claim/.kakurod.status.json`), so any
//! host that sees the folders can read it with no network. A document not rewritten for
//! [`STALE`] belongs to a daemon that stopped without removing it (killed) or hangs.

use crate::solver::progress::Counts;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The document's name in the claim folder (a dot file: never taken for an input).
const FILE: &str = ".kakurod.status.json";
/// How often the daemon rewrites it.
pub const PERIOD: Duration = Duration::from_secs(1);
/// Age after which the document no longer stands for a running daemon.
pub const STALE: Duration = Duration::from_secs(5);

/// One daemon's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeState {
    /// The node: the host the daemon runs on.
    pub node_id: String,
    /// Its process id.
    pub pid: u32,
    /// Its version.
    pub version: String,
    /// When it started, in seconds since the Unix epoch.
    pub started_unix_seconds: f64,
    /// When this document was written, in seconds since the Unix epoch.
    pub updated_unix_seconds: f64,
    /// The inbox it serves (none for a `kakurod worker`, which has no folders).
    pub inbox: Option<PathBuf>,
    /// Its worker threads (a `kakurod worker`'s slots).
    pub workers: usize,
    /// Inputs waiting for one of its workers.
    pub queued: usize,
    /// Inputs held in the inbox until the shared queue has room (`max_in_flight`).
    #[serde(default)]
    pub held_for_queue: usize,
    /// Inputs on the shared queue (NATS), waiting for or solved by `kakurod worker`s.
    pub on_shared_queue: usize,
    /// Inputs whose result waits for the outbox to be writable again.
    pub retry_waiting: usize,
    /// The inputs its workers solve now, the longest running first.
    pub running: Vec<RunningInput>,
    /// Inputs answered since it started, by result.
    pub answered: BTreeMap<String, u64>,
    /// The last states of the `kakurod worker`s on the shared queue (the daemon's only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub queue_workers: Vec<NodeState>,
    /// The shared queue's backlog as its server counts it (the daemon's only, when the
    /// server answered at the last beat).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_queue: Option<Backlog>,
}

/// One input being solved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunningInput {
    /// The input's name.
    pub input: String,
    /// Its claim id (`claim/ID.NAME`).
    pub claim_id: String,
    /// Seconds since its job started.
    pub elapsed_seconds: f64,
    /// Search nodes so far.
    pub nodes: u64,
    /// Failed nodes so far.
    pub failures: u64,
    /// Solutions found so far.
    pub solutions: u64,
}

impl RunningInput {
    /// The input `input` of claim `claim_id`, running for `elapsed` with `counts` so far.
    pub fn new(input: &str, claim_id: String, elapsed: Duration, counts: Counts) -> RunningInput {
        RunningInput {
            input: input.to_string(),
            claim_id,
            elapsed_seconds: (elapsed.as_secs_f64() * 10.0).round() / 10.0,
            nodes: counts.nodes,
            failures: counts.failures,
            solutions: counts.solutions,
        }
    }
}

impl NodeState {
    /// Seconds since the document was written (0 when its clock is ahead).
    pub fn age(&self) -> Duration {
        Duration::from_secs_f64((unix_now() - self.updated_unix_seconds).max(0.0))
    }
}

/// The document's path for the claim folder `claim`.
pub fn path(claim: &Path) -> PathBuf {
    claim.join(FILE)
}

/// Writes the document whole.
pub fn write(claim: &Path, state: &NodeState) -> io::Result<()> {
    let text = serde_json::to_vec_pretty(state).map_err(io::Error::other)?;
    write_whole(&path(claim), &text)
}

/// Replaces `path` with `bytes` so that a reader sees the old file or the new one, never
/// a part: a temporary file `PATH.tmp` beside it, renamed over it.
pub fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    std::fs::write(&temporary, bytes)?;
    std::fs::rename(&temporary, path)
}

/// Removes the document (at a clean shutdown).
pub fn remove(claim: &Path) {
    let _ = std::fs::remove_file(path(claim));
}

/// The document, if there is one.
pub fn read(claim: &Path) -> io::Result<Option<NodeState>> {
    match std::fs::read(path(claim)) {
        Ok(bytes) => serde_json::from_slice(&bytes).map(Some).map_err(io::Error::other),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Seconds since the Unix epoch now.
pub fn unix_now() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64())
}

/// The shared queue's backlog as its server counts it ([`crate::queue::backlog::read`]):
/// the counts of the queue's two consumers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Backlog {
    /// Jobs no worker has taken yet.
    pub pending: u64,
    /// Jobs taken by a worker and not acknowledged yet (running, or held by a worker that
    /// died and waiting out the ack wait).
    pub running: u64,
    /// Of the jobs taken, those delivered more than once (a worker died or went silent, or
    /// handed a large job back while its large slots were busy).
    pub redelivered: u64,
    /// Answers the workers published that the daemon has not written yet.
    pub answers_waiting: u64,
}
