//! One input file, start to finish: on a worker thread, claim it, read it (within the size
//! limit), run the pipeline (or, for a generation job, `generate_job`) and prepare the
//! result files ([`run`]); on the committer thread,
//! once the result set is durable, move the input to `done/` (or delete it) or, when it was
//! rejected, to `failed/` ([`finish`]). A search cancelled by shutdown
//! writes nothing and leaves the input claimed, so the next start requeues it; a result
//! that cannot be written leaves it claimed too, for the retrier (`retry`) to requeue. An
//! input removed from the claim folder while it is solved cancels its job (`running`).

use super::beat::Beat;
use super::cancel::{self, Reply};
use super::claim::{self, ClaimId, Claimed};
use super::config::{AfterSuccess, Settings};
use super::error::JobError;
use super::log_line::LogLine;
use super::metrics::Metrics;
use super::running::{Running, Stop};
use super::solve;
use crate::format::{Format, InputError};
use crate::outbox::{Outbox, Prepared, Written};
use crate::pipeline;
use crate::report::{Body, Cancellation, FileReport, Status};
use crate::result_names;
use crate::solver::Control;
use crate::util::fs::sync_dir;
use sha2::{Digest, Sha256};
use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::time::Instant;

/// Where a job's input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// In the inbox; the job claims it first.
    Inbox,
    /// Already in the claim folder under this id (left there by an earlier run, or waiting
    /// for its result to be written).
    Claimed(ClaimId),
}

/// One input file to handle.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Job {
    /// The file's name (no folder).
    pub name: String,
    /// Where it is.
    pub source: Source,
}

impl Job {
    /// The job of an input in the claim folder.
    pub fn claimed(claimed: Claimed) -> Job {
        Job { name: claimed.name, source: Source::Claimed(claimed.id) }
    }
}

/// What became of a job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A result was written (`rejected`: an error result, input moved to `failed/`).
    Answered {
        /// True for an error result.
        rejected: bool,
    },
    /// An earlier run had written the result already; only the input was moved on.
    AlreadyAnswered,
    /// The file was gone before it was claimed (taken or removed by someone else).
    Gone,
    /// The claimed input was removed while it was worked on: nothing is answered.
    Withdrawn,
    /// Shutdown cancelled the search; the input stays claimed for the next start.
    LeftClaimed,
    /// Sent to the shared queue; its answer is written when it comes.
    Published,
    /// The shared queue holds `max_in_flight` inputs: this one waits in the inbox.
    Deferred,
}

/// What every job needs.
#[derive(Debug)]
pub struct Context {
    /// The settings.
    pub settings: Settings,
    /// The outbox writer.
    pub outbox: Outbox,
    /// Set at the end of the drain: running searches stop and write nothing.
    pub cancel: AtomicBool,
    /// The jobs running now, each with its own stop flag and live search counters.
    pub running: Running,
    /// The shared queue, when jobs go to workers on other hosts.
    pub remote: std::sync::OnceLock<Arc<super::remote::Remote>>,
    /// Jobs handed to the worker pool and not started yet: while some wait, a hard
    /// puzzle's search gives back the idle workers it borrowed.
    pub waiting: Arc<AtomicUsize>,
    /// Inputs whose result waits for the outbox to be writable (the retrier's backlog).
    pub retry_waiting: AtomicUsize,
    /// The Prometheus metrics.
    pub metrics: Metrics,
    /// Ticked by the intake thread as it goes round its loop.
    pub intake_beat: Arc<Beat>,
    /// Ticked whenever the daemon's state is published.
    pub published: Beat,
    /// Where the inputs an operator cancelled while queued go, to be answered at once.
    pub cancelled_lane: std::sync::OnceLock<crossbeam_channel::Sender<Job>>,
}

/// The first half of a job's result: what the committer needs to finish it.
#[derive(Debug)]
pub struct Answer {
    /// The claimed input.
    pub claimed: Claimed,
    /// Where the input is now.
    path: PathBuf,
    /// True for an error result.
    rejected: bool,
    /// The fields of the log line.
    line: LogLine,
    /// True when an operator cancelled it: the request is answered once it is written.
    by_operator: bool,
}

impl Answer {
    /// The answer to `claimed` (at `path`) that a queue worker sent.
    pub(crate) fn new(claimed: Claimed, path: PathBuf, rejected: bool, line: LogLine) -> Answer {
        Answer { claimed, path, rejected, line, by_operator: false }
    }
}

/// Where a job stands after its worker half.
#[derive(Debug)]
pub enum Step {
    /// Nothing more to do.
    Finished(Outcome),
    /// The result set is prepared; commit it, then call [`finish`].
    Commit(Prepared, Box<Answer>),
}

/// A job that failed on I/O, with its claim when it got that far.
#[derive(Debug)]
pub struct Failure {
    /// What failed.
    pub error: JobError,
    /// The claimed input (`None`: it could not be claimed and stays in the inbox).
    pub claimed: Option<Claimed>,
}

/// The worker half of a job: claim, read, solve, and prepare the result files.
pub fn run(ctx: &Context, job: &Job) -> Result<Step, Failure> {
    let started = Instant::now();
    let folders = &ctx.settings.folders;
    let remote = ctx.remote.get();
    if job.source == Source::Inbox && remote.is_some_and(|r| !r.admit(&job.name)) {
        return Ok(Step::Finished(Outcome::Deferred));
    }
    let claimed = match job.source {
        Source::Claimed(id) => Claimed { id, name: job.name.clone() },
        Source::Inbox => match claim::claim(&folders.inbox, &folders.claim, &job.name) {
            Ok(claimed) => claimed,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(Step::Finished(Outcome::Gone));
            }
            Err(source) => {
                let error = JobError::Claim { path: folders.inbox.join(&job.name), source };
                return Err(Failure { error, claimed: None });
            }
        },
    };
    let requeued = matches!(job.source, Source::Claimed(_));
    run_claimed(ctx, &claimed, requeued, started)
        .map_err(|error| Failure { error, claimed: Some(claimed) })
}

/// [`run`] once the input is claimed (`requeued`: by an earlier run, so its result may
/// exist already).
fn run_claimed(
    ctx: &Context,
    claimed: &Claimed,
    requeued: bool,
    started: Instant,
) -> Result<Step, JobError> {
    let name = &claimed.name;
    let path = claimed.path(&ctx.settings.folders.claim);
    let stop = ctx.running.start(claimed.clone(), &ctx.cancel);
    let (report, size) = match read(ctx, &path)? {
        Input::Bytes(bytes) => {
            let checksum = pipeline::checksum(&bytes);
            if requeued && let Some(json) = ctx.outbox.find_result(name, &checksum) {
                let rejected = json.to_string_lossy().ends_with(".error.json");
                archive(ctx, &path, name, rejected, ctx.settings.fsync)?;
                tracing::info!(file = %name, result = %json.display(),
                    "already answered by an earlier run; input moved on");
                return Ok(Step::Finished(Outcome::AlreadyAnswered));
            }
            let asked = cancel::is_requested(&ctx.settings.folders.claim, name);
            let report = match (result_names::reserved(name), ctx.remote.get()) {
                (Some(error), _) => {
                    FileReport::rejected(name, checksum, None, Status::Invalid, error)
                }
                (None, _) if asked => cancellation(name, checksum, None, &stop, started),
                (None, Some(remote)) => match remote.submit(ctx, claimed, &bytes, checksum) {
                    Ok(()) => return Ok(Step::Finished(Outcome::Published)),
                    Err(report) => *report,
                },
                (None, None) => answer(ctx, name, &bytes, checksum, &stop),
            };
            (report, bytes.len() as u64)
        }
        Input::Refused { size, checksum, message, expected } => {
            let error = InputError::whole_file(message, expected);
            (FileReport::rejected(name, checksum, None, Status::Invalid, error), size)
        }
        // Taken out of the queue by a cancel, which answers it.
        Input::Gone if cancel::is_handled(&ctx.settings.folders.claim, name) => {
            return Ok(Step::Finished(Outcome::Gone));
        }
        Input::Gone => return Ok(Step::Finished(withdrawn(name, started))),
    };
    let report = match report.was_cancelled() {
        true if stop.by_operator() => {
            cancellation(name, report.checksum, report.format, &stop, started)
        }
        true => return Ok(Step::Finished(cancelled(&stop, name, started))),
        false => report,
    };
    drop(stop);
    let prepared = ctx
        .outbox
        .prepare(name, &report)
        .map_err(|e| JobError::io("cannot write the result of", &path, e))?;
    let answer = Answer {
        claimed: claimed.clone(),
        path,
        rejected: report.is_rejected(),
        line: LogLine::new(size, &report, started),
        by_operator: report.result() == Status::Cancelled,
    };
    Ok(Step::Commit(prepared, Box::new(answer)))
}

/// What a cancelled search means: its claim was removed (nothing is answered), or the
/// daemon stops (the input stays claimed for the next start).
fn cancelled(stop: &Stop, name: &str, started: Instant) -> Outcome {
    if stop.withdrawn() {
        return withdrawn(name, started);
    }
    tracing::info!(file = %name, "search or generation cancelled by shutdown; left claimed for requeue");
    Outcome::LeftClaimed
}

/// The claimed input is gone: say so once, plainly.
fn withdrawn(name: &str, started: Instant) -> Outcome {
    tracing::info!(file = %name, after_s = (started.elapsed().as_secs_f64() * 100.0).round() / 100.0,
        "the input was removed from the claim folder while it was worked on; its job is \
         cancelled and nothing is answered");
    Outcome::Withdrawn
}

/// The committer half: once the result set is durable (`written`), move the input on and
/// log the result. The folder syncs of the move are left to the committer's batch.
pub fn finish(
    ctx: &Context,
    answer: Answer,
    written: io::Result<Written>,
) -> Result<Outcome, JobError> {
    let written =
        written.map_err(|e| JobError::io("cannot write the result of", &answer.path, e))?;
    let name = &answer.claimed.name;
    archive(ctx, &answer.path, name, answer.rejected, false)?;
    answer.line.log(name, &written.stem);
    ctx.metrics.answered(&answer.line);
    if answer.by_operator {
        let json = ctx.settings.folders.outbox.join(format!("{}.json", written.stem));
        let detail = format!("answered `cancelled` in {}", json.display());
        cancel::reply(&ctx.settings.folders.claim, name, &Reply { cancelled: true, detail });
    }
    Ok(Outcome::Answered { rejected: answer.rejected })
}

enum Input {
    Bytes(Vec<u8>),
    Refused {
        size: u64,
        checksum: String,
        message: String,
        expected: String,
    },
    /// No longer in the claim folder (removed by hand).
    Gone,
}

/// Reads the claimed file, refusing anything that is not a regular file within the limit.
/// A file that cannot be read is refused too (an error result tells its sender why), since
/// trying it again would fail the same way.
fn read(ctx: &Context, path: &Path) -> Result<Input, JobError> {
    let max = ctx.settings.max_file_bytes;
    let mut file = match open_input(&ctx.settings.folders.inbox, path) {
        Ok(file) => file,
        Err(e) => return Ok(unopenable(path, &e)),
    };
    let meta = match file.metadata() {
        Ok(meta) => meta,
        Err(e) => return Ok(refused(format!("cannot read the file: {e}"), "a readable file")),
    };
    if !meta.is_file() {
        return Ok(not_regular(path, &meta));
    }
    if meta.len() > max {
        return too_large(&mut file, path, meta.len(), max);
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    if let Err(e) = (&mut file).take(max + 1).read_to_end(&mut bytes) {
        return Ok(refused(format!("cannot read the file: {e}"), "a readable file"));
    }
    if bytes.len() as u64 > max {
        // It grew after the stat; hash the whole file without holding it.
        let size = file.metadata().map_or(bytes.len() as u64, |m| m.len());
        return too_large(&mut file, path, size, max);
    }
    Ok(Input::Bytes(bytes))
}

/// Opens a claimed input for reading. A symbolic link is followed; a relative one from the
/// inbox, where it was dropped, since the link itself was renamed into the claim folder.
/// `O_NONBLOCK`: a FIFO must not block a worker on open.
fn open_input(inbox: &Path, path: &Path) -> io::Result<File> {
    let target = match std::fs::read_link(path) {
        Ok(link) if link.is_relative() => inbox.join(link),
        _ => path.to_path_buf(),
    };
    let flags = rustix::fs::OFlags::NONBLOCK.bits();
    OpenOptions::new().read(true).custom_flags(flags as i32).open(target)
}

/// Why a claimed input could not be opened: gone, a link to nothing, or unreadable.
fn unopenable(path: &Path, error: &io::Error) -> Input {
    match path.symlink_metadata() {
        Err(_) => Input::Gone,
        Ok(meta) if meta.file_type().is_symlink() => refused(
            format!("a symbolic link to {} that cannot be opened: {error}", link_target(path)),
            "a regular file, or a symbolic link to one",
        ),
        Ok(_) => refused(format!("cannot read the file: {error}"), "a readable file"),
    }
}

fn link_target(path: &Path) -> String {
    std::fs::read_link(path).map_or_else(|_| "?".into(), |t| t.display().to_string())
}

fn refused(message: String, expected: &str) -> Input {
    Input::Refused {
        size: 0,
        checksum: pipeline::checksum(b""),
        message,
        expected: expected.into(),
    }
}

/// A claimed input that is not a regular file (once links are followed), named by kind.
fn not_regular(path: &Path, meta: &std::fs::Metadata) -> Input {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    let kind = if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else {
        "not a regular file"
    };
    let through = match path.symlink_metadata() {
        Ok(m) if m.file_type().is_symlink() => {
            format!("a symbolic link to {} ({kind})", link_target(path))
        }
        _ => kind.to_string(),
    };
    refused(format!("{through}, not a regular file"), "a regular file, or a symbolic link to one")
}

fn too_large(file: &mut File, path: &Path, size: u64, max: u64) -> Result<Input, JobError> {
    let checksum = stream_checksum(file).map_err(|e| JobError::io("cannot read", path, e))?;
    Ok(Input::Refused {
        size,
        checksum,
        message: format!("the file has {size} bytes, over the limit of {max} bytes"),
        expected: format!("at most {max} bytes"),
    })
}

/// SHA-256 of a whole file read from its start in small pieces.
fn stream_checksum(file: &mut File) -> io::Result<String> {
    use std::io::Seek;
    file.seek(io::SeekFrom::Start(0))?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 64 << 10];
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            return Ok(crate::util::hex(&hasher.finalize()));
        }
        hasher.update(&buffer[..n]);
    }
}

/// The answer to the input's bytes, solved on this worker's thread.
fn answer(ctx: &Context, name: &str, bytes: &[u8], checksum: String, stop: &Stop) -> FileReport {
    let settings = &ctx.settings;
    let control = Control {
        cancel: Some(stop.flag()),
        waiting: Some(&ctx.waiting),
        progress: Some(stop.progress()),
    };
    solve::answer(&settings.pipeline, &settings.generate, name, bytes, checksum, control)
}

/// The answer to an input an operator cancelled, with how far its search had come.
fn cancellation(
    name: &str,
    checksum: String,
    format: Option<Format>,
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
    let body = Body::Cancelled { status: Status::Cancelled, cancelled };
    FileReport { file: name.into(), checksum, format, body }
}

/// Moves the claimed input on once its result is durable.
fn archive(
    ctx: &Context,
    claimed: &Path,
    name: &str,
    rejected: bool,
    sync: bool,
) -> Result<(), JobError> {
    let folders = &ctx.settings.folders;
    let target: Option<&PathBuf> = match (rejected, ctx.settings.after_success) {
        (true, _) => Some(&folders.failed),
        (false, AfterSuccess::Move) => Some(&folders.done),
        (false, AfterSuccess::Delete) => None,
    };
    match target {
        Some(dir) => {
            match claim::move_unique(claimed, dir, name) {
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    vanished_after(name);
                    return Ok(());
                }
                Err(e) => return Err(JobError::io("cannot move on", claimed, e)),
            }
            if sync {
                sync_dir(dir).map_err(|e| JobError::io("cannot sync", dir, e))?;
            }
        }
        None => match std::fs::remove_file(claimed) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                vanished_after(name);
                return Ok(());
            }
            Err(e) => return Err(JobError::io("cannot delete", claimed, e)),
        },
    }
    if sync {
        sync_dir(&folders.claim).map_err(|e| JobError::io("cannot sync", &folders.claim, e))?;
    }
    Ok(())
}

/// The claimed input was removed after its result was written: nothing left to move on.
fn vanished_after(name: &str) {
    tracing::info!(file = %name, "the input was removed from the claim folder after it was \
        answered; there is nothing to move on");
}
