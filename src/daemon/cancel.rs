//! Cancelling one input (`kakurod cancel NAME`) through the shared folders, so it works
//! from any host that sees them and needs no network. The command leaves a request,
//! `claim/.kakurod-cancel/NAME`; the daemon's watch looks at the requests every
//! [`super::running::PERIOD`]: a running search of that input is stopped; a queued one is
//! taken from under its queued job (claimed afresh) and answered at once, unsolved. Either
//! way the input is answered `status: "cancelled"` and archived like any answered input,
//! and the daemon replies in `claim/.kakurod-cancel/.reply.NAME` (input names never start
//! with a dot); the command waits for that reply, prints it and removes it.

use super::claim;
use super::job::{Context, Job};
use super::periodic::Periodic;
use super::running::{PERIOD, Stop};
use crate::format::Format;
use crate::puzzle::Kind;
use crate::report::{Body, Cancellation, FileReport, Status};
use crate::status;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The folder of requests and replies, inside the claim folder.
const FOLDER: &str = ".kakurod-cancel";
/// The prefix of a reply's file name.
const REPLY: &str = ".reply.";
/// Replies nobody read (the command was interrupted) are removed after this long.
const UNREAD_REPLY: Duration = Duration::from_secs(3600);

/// The daemon's reply to a request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reply {
    /// True when the input was answered `cancelled`.
    pub cancelled: bool,
    /// Where its answer is, or why it was not cancelled.
    pub detail: String,
}

/// The requests' folder for the claim folder `claim`.
pub fn folder(claim: &Path) -> PathBuf {
    claim.join(FOLDER)
}

/// Leaves a request to cancel the input `name`.
pub fn request(claim: &Path, name: &str) -> io::Result<()> {
    let folder = folder(claim);
    std::fs::create_dir_all(&folder)?;
    let _ = std::fs::remove_file(folder.join(format!("{REPLY}{name}")));
    std::fs::write(folder.join(name), b"")
}

/// True when the input `name` is asked to be cancelled.
pub fn is_requested(claim: &Path, name: &str) -> bool {
    folder(claim).join(name).exists()
}

/// The names with a request waiting.
fn requested(claim: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(folder(claim)) else { return Vec::new() };
    entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|name| !name.starts_with('.'))
        .collect()
}

/// Answers the request for `name` (written whole, then the request goes).
pub fn reply(claim: &Path, name: &str, reply: &Reply) {
    let folder = folder(claim);
    let write = || -> io::Result<()> {
        let bytes = serde_json::to_vec(reply).map_err(io::Error::other)?;
        // Its temporary `.reply.NAME.tmp` starts with a dot: never taken for a request.
        status::write_whole(&folder.join(format!("{REPLY}{name}")), &bytes)?;
        std::fs::remove_file(folder.join(name))
    };
    if let Err(error) = write() {
        tracing::warn!(file = %name, %error, "cannot reply to the request to cancel");
    }
}

/// The daemon's reply for `name`, once there is one; it is removed as it is read.
pub fn take_reply(claim: &Path, name: &str) -> io::Result<Option<Reply>> {
    let path = folder(claim).join(format!("{REPLY}{name}"));
    match std::fs::read(&path) {
        Ok(bytes) => {
            let _ = std::fs::remove_file(&path);
            serde_json::from_slice(&bytes).map(Some).map_err(io::Error::other)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Acts on every waiting request: stops the running search of that name (the job replies
/// when its answer is written); takes a queued input (here or on the shared queue, whose
/// workers then drop its job) out of the queue under a fresh claim and has it answered at
/// once; replies at once when there is no such input.
/// `taken` holds the names sent to the lane and not answered yet, which are left alone.
pub fn handle_requests(ctx: &Context, taken: &mut HashSet<String>) {
    let requests = requested(&ctx.settings.folders.claim);
    taken.retain(|name| requests.contains(name));
    for name in requests {
        if taken.contains(&name) {
            continue;
        }
        ctx.running.cancel_or(&name, || {
            if take_queued(ctx, &name) {
                taken.insert(name.clone());
            }
        });
    }
    remove_unread_replies(&ctx.settings.folders.claim);
}

/// Claims the input `name` afresh (from the inbox, or from its claim in the claim folder)
/// so that its queued job (or its answer from the shared queue) finds it gone, and sends
/// it to the lane of cancelled inputs.
/// Called while no job of that name can start (see [`super::running::Running::cancel_or`]).
/// True when it was sent to the lane.
fn take_queued(ctx: &Context, name: &str) -> bool {
    let folders = &ctx.settings.folders;
    let taken = match claim::claim(&folders.inbox, &folders.claim, name) {
        Ok(claimed) => Ok(Some(claimed)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let claims = claim::claimed(&folders.claim).unwrap_or_default();
            match claims.into_iter().find(|c| c.name == name) {
                Some(old) => claim::claim_from(&old.path(&folders.claim), &folders.claim, name)
                    .map(|new| {
                        // On the shared queue: the workers drop its job.
                        if let Some(remote) = ctx.remote.as_deref().filter(|r| r.holds(old.id)) {
                            remote.cancel(old.id);
                        }
                        Some(new)
                    }),
                None => Ok(None),
            }
        }
        Err(e) => Err(e),
    };
    if matches!(taken, Ok(Some(_))) {
        // No longer queued, whatever becomes of the job left in the pool or the inbox.
        if let Ok(mut queued) = ctx.queued.lock() {
            queued.remove(name);
        }
        if let Some(remote) = ctx.remote.as_deref() {
            remote.forget_deferred(name);
        }
    }
    match taken {
        Ok(Some(claimed)) => ctx.cancelled_lane.send(Job::claimed(claimed)).is_ok(),
        Ok(None) => {
            let detail = "no input of that name is queued or running (answered already?)";
            reply(&folders.claim, name, &Reply { cancelled: false, detail: detail.into() });
            false
        }
        Err(error) => {
            tracing::warn!(file = %name, %error, "cannot take the input to cancel it");
            false
        }
    }
}

/// True while a request or a reply about `name` is there: its input was taken by a
/// cancel.
pub fn is_handled(claim: &Path, name: &str) -> bool {
    let folder = folder(claim);
    folder.join(name).exists() || folder.join(format!("{REPLY}{name}")).exists()
}

/// Removes replies older than [`UNREAD_REPLY`].
fn remove_unread_replies(claim: &Path) {
    let Ok(entries) = std::fs::read_dir(folder(claim)) else { return };
    for entry in entries.flatten() {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > UNREAD_REPLY));
        if old && entry.file_name().to_string_lossy().starts_with(REPLY) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// What was read of an input before its cancel, for its answer and its log line.
#[derive(Default)]
pub(super) struct ReadSoFar {
    format: Option<Format>,
    kind: Option<Kind>,
    size: Option<(usize, usize)>,
}

impl ReadSoFar {
    /// What a report of the input's search says of it.
    pub(super) fn of_report(report: &FileReport) -> ReadSoFar {
        let (kind, size) = match &report.body {
            Body::Single(r) => (r.kind, r.kind.map(|_| (r.rows, r.cols))),
            Body::Batch { puzzles, .. } => (puzzles.iter().find_map(|p| p.kind), None),
            _ => (None, None),
        };
        ReadSoFar { format: report.format, kind, size }
    }

    /// The input read (not solved) for its format, kind and size: a cancel asked before
    /// its search began still says what it was.
    pub(super) fn of_bytes(bytes: &[u8]) -> ReadSoFar {
        let Ok(text) = std::str::from_utf8(bytes) else { return ReadSoFar::default() };
        let Ok(document) = crate::format::read(text, None) else { return ReadSoFar::default() };
        let first = document.entries.iter().find_map(|e| e.as_ref().ok());
        ReadSoFar {
            format: Some(document.format),
            kind: first.map(|parsed| parsed.puzzle.kind()),
            size: first.filter(|_| !document.batch).map(|parsed| parsed.puzzle.size()),
        }
    }
}

/// The answer to an input an operator cancelled, with how far its search had come.
pub(super) fn answer(
    name: &str,
    checksum: String,
    read: ReadSoFar,
    stop: &Stop,
    started: Instant,
) -> FileReport {
    let counts = stop.progress().counts();
    let cancelled = Cancellation {
        after_seconds: (started.elapsed().as_secs_f64() * 1e3).round() / 1e3,
        nodes: counts.nodes,
        failures: counts.failures,
        solutions: counts.solutions,
    };
    let body = Body::Cancelled {
        status: Status::Cancelled,
        kind: read.kind,
        rows: read.size.map(|(rows, _)| rows),
        cols: read.size.map(|(_, cols)| cols),
        cancelled,
    };
    FileReport { file: name.into(), checksum, format: read.format, body }
}
/// Starts the watch over the jobs of `ctx`: a thread that runs [`Running::check`](super::running::Running::check), the
/// requests to cancel and [`Running::notice_long`](super::running::Running::notice_long) every [`PERIOD`], until dropped.
/// Here rather than beside [`Running`](super::running::Running), which the job context holds.
pub fn watch(ctx: Arc<Context>) -> std::io::Result<Periodic> {
    let claim_dir: PathBuf = ctx.settings.folders.claim.clone();
    let mut taken = std::collections::HashSet::new();
    Periodic::start("kakurod-claims", PERIOD, move || {
        ctx.running.check(&claim_dir, &ctx.cancel);
        handle_requests(&ctx, &mut taken);
        ctx.running.notice_long(Instant::now());
    })
}
