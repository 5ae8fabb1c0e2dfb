//! The life of one input, each step once. [`run`] takes a [`Job`] from the inbox (or the
//! claim folder) through its steps on a worker thread, and its last steps run on the
//! committer's thread once its result set is durable:
//!
//! ```text
//! inbox -claim-> claimed -read-> read -solve-> solved -commit-> committed -archive-> archived
//!                                                          \-> waiting to retry -requeue-> claimed
//! ```
//!
//! - **claimed** ([`claim()`]): renamed into the claim folder. A file already gone ends here
//!   (`Gone`), and while the shared queue is full the input waits in the inbox (`Deferred`).
//! - **read** ([`read`], through `input`): its bytes. A file that is not a regular one, is
//!   too large or cannot be read is *rejected*: its error result is committed and archived
//!   like any other. An input removed from the claim folder by hand ends here. A requeued
//!   input whose result an earlier run wrote is archived at once ([`answered_before`]).
//! - **solved** ([`solve()`]): the pipeline's report, or a generation job's; an input with a
//!   reserved name is rejected. On the shared queue the input is sent instead
//!   (`Published`): a worker elsewhere solves it, and `remote` brings its answer back to
//!   the *committed* step ([`answered::committed`]). A search can be *cancelled* ([`cancelled`]): by an
//!   operator (answered `cancelled`), by removing the claimed input (`Withdrawn`: nothing
//!   is answered) or by shutdown (`LeftClaimed`: the next start requeues it).
//! - **committed** ([`prepare`], [`commit`], [`answered::committed`]): the result set is prepared
//!   here and made durable by the committer's group commit. When it cannot be written,
//!   the input *waits to retry* in the claim folder, and the retrier requeues it.
//! - **archived** ([`answered::archive`]): moved to `done/` (or deleted) or, rejected, to `failed/`.
//! - **ended** ([`end`]): counted and logged; the dispatcher may take the name again, then
//!   the retrier hears whether the result could be written.

use super::answered::{self, Answer, Counters};
use super::cancel::{self, ReadSoFar};
use super::claim::{self, Claimed};
use super::commit::Committer;
use super::error::JobError;
use super::input::{self, Input};
use super::job::{Context, Failure, Job, Outcome, Source};
use super::retry::{self, Retrier};
use super::running::Stop;
use crate::outbox::Prepared;
use crate::pipeline;
use crate::report::{FileReport, Status};
use crate::result_names;
use crate::solver::Control;
use crate::work;
use crate::work::log_line::LogLine;
use std::io;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// What the life of every input passes through.
pub(super) struct Stages {
    /// The settings, the outbox, the running searches.
    pub ctx: Arc<Context>,
    /// Makes result sets durable.
    pub committer: Committer,
    /// Times the retries of results that could not be written.
    pub retrier: Retrier,
    /// Counts of ended lives.
    pub counters: Arc<Counters>,
}

/// Called as a life ends, before the retrier hears of it: the job may be submitted again.
pub(super) type Release = Box<dyn FnOnce(&Job) + Send>;

/// How a life ended early: what became of it, or the I/O error that stopped it.
type Ended = Result<Outcome, Failure>;

/// Lives `job`: here up to the commit, then on the committer's thread.
pub(super) fn run(stages: &Arc<Stages>, job: Job, release: Release) {
    let started = Instant::now();
    let ctx = &stages.ctx;
    let ready = claim(ctx, &job).and_then(|claimed| {
        let requeued = matches!(job.source, Source::Claimed(_));
        let (report, size) = solved(ctx, &claimed, requeued, started)?;
        prepare(ctx, claimed, &report, size, started)
    });
    match ready {
        Ok((prepared, answer)) => commit(stages, prepared, answer, job, release),
        Err(ended) => end(stages, &job, ended, release),
    }
}

/// *claimed*: the input in the claim folder.
fn claim(ctx: &Context, job: &Job) -> Result<Claimed, Ended> {
    let folders = &ctx.settings.folders;
    match job.source {
        Source::Claimed(id) => Ok(Claimed { id, name: job.name.clone() }),
        Source::Inbox if ctx.remote.as_deref().is_some_and(|r| !r.admit(&job.name)) => {
            Err(Ok(Outcome::Deferred))
        }
        Source::Inbox => match claim::claim(&folders.inbox, &folders.claim, &job.name) {
            Ok(claimed) => Ok(claimed),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Err(Ok(Outcome::Gone)),
            Err(source) => {
                let error = JobError::Claim { path: folders.inbox.join(&job.name), source };
                Err(Err(Failure { error, claimed: None }))
            }
        },
    }
}

/// The end of a claimed input's life on an I/O error: it waits in the claim folder.
fn failed(claimed: &Claimed) -> impl Fn(JobError) -> Ended + '_ {
    move |error| Err(Failure { error, claimed: Some(claimed.clone()) })
}

/// The steps from *read* to *solved* of a claimed input (`requeued`: by an earlier run,
/// so its result may exist already), its search known to `running` meanwhile: its report
/// and the input's size.
fn solved(
    ctx: &Context,
    claimed: &Claimed,
    requeued: bool,
    started: Instant,
) -> Result<(FileReport, u64), Ended> {
    let name = &claimed.name;
    let stop = ctx.running.start(claimed.clone(), &ctx.cancel);
    let (report, size) = match read(ctx, claimed, started)? {
        (Ok(bytes), _) => {
            let checksum = pipeline::checksum(&bytes);
            if requeued {
                answered_before(ctx, claimed, &checksum)?;
            }
            (solve(ctx, claimed, &bytes, checksum, &stop, started)?, bytes.len() as u64)
        }
        (Err(report), size) => (report, size),
    };
    Ok((cancelled(report, &stop, name, started)?, size))
}

/// *read*: the claimed input's bytes, or its rejection (with its size) when it is refused.
/// An input gone from the claim folder ends here: taken out of the queue by a cancel
/// (which answers it), or removed by hand.
fn read(
    ctx: &Context,
    claimed: &Claimed,
    started: Instant,
) -> Result<(Result<Vec<u8>, FileReport>, u64), Ended> {
    let folders = &ctx.settings.folders;
    let path = claimed.path(&folders.claim);
    let input = input::read(&folders.inbox, &path, ctx.settings.max_file_bytes);
    match input.map_err(failed(claimed))? {
        Input::Bytes(bytes) => {
            let size = bytes.len() as u64;
            Ok((Ok(bytes), size))
        }
        Input::Refused { size, checksum, error } => {
            let report =
                FileReport::rejected(&claimed.name, checksum, None, Status::Invalid, error);
            Ok((Err(report), size))
        }
        Input::Gone if cancel::is_handled(&folders.claim, &claimed.name) => Err(Ok(Outcome::Gone)),
        Input::Gone => Err(Ok(withdrawn(&claimed.name, started))),
    }
}

/// A requeued input whose result an earlier run wrote (found by its checksum) is only
/// archived, which ends its life.
fn answered_before(ctx: &Context, claimed: &Claimed, checksum: &str) -> Result<(), Ended> {
    let name = &claimed.name;
    let Some(json) = ctx.outbox.find_result(name, checksum) else {
        return Ok(());
    };
    let rejected = json.to_string_lossy().ends_with(".error.json");
    let path = claimed.path(&ctx.settings.folders.claim);
    answered::archive(ctx, &path, name, rejected, ctx.settings.fsync).map_err(failed(claimed))?;
    tracing::info!(file = %name, result = %json.display(),
        "already answered by an earlier run; input moved on");
    Err(Ok(Outcome::AlreadyAnswered))
}

/// *solved*: the input's report: its rejection when its name is reserved, `cancelled` when
/// an operator asked before its search began, else solved here, or sent to the shared
/// queue (which ends its life here: its answer comes back through `remote`).
fn solve(
    ctx: &Context,
    claimed: &Claimed,
    bytes: &[u8],
    checksum: String,
    stop: &Stop,
    started: Instant,
) -> Result<FileReport, Ended> {
    let name = &claimed.name;
    let asked = cancel::is_requested(&ctx.settings.folders.claim, name);
    Ok(match (result_names::reserved(name), ctx.remote.as_deref()) {
        (Some(error), _) => FileReport::rejected(name, checksum, None, Status::Invalid, error),
        (None, _) if asked => {
            cancel::answer(name, checksum, ReadSoFar::of_bytes(bytes), stop, started)
        }
        (None, Some(remote)) => match remote.submit(ctx, claimed, bytes, checksum) {
            Ok(()) => return Err(Ok(Outcome::Published)),
            Err(report) => *report,
        },
        (None, None) => {
            stop.begin_search();
            let settings = &ctx.settings;
            let control = Control {
                cancel: Some(stop.flag()),
                waiting: Some(&ctx.waiting),
                progress: Some(stop.progress()),
                ..Control::default()
            };
            work::answer(
                &settings.job.pipeline,
                &settings.job.generate,
                name,
                bytes,
                checksum,
                control,
            )
        }
    })
}

/// *cancelled*: a search stopped by an operator is answered `cancelled`, with how far it
/// had come; one whose claimed input was removed ends with nothing answered; one stopped
/// by shutdown ends with its input left claimed for the next start.
fn cancelled(
    report: FileReport,
    stop: &Stop,
    name: &str,
    started: Instant,
) -> Result<FileReport, Ended> {
    if !report.was_cancelled() {
        return Ok(report);
    }
    if stop.by_operator() {
        let read = ReadSoFar::of_report(&report);
        return Ok(cancel::answer(name, report.checksum, read, stop, started));
    }
    if stop.withdrawn() {
        return Err(Ok(withdrawn(name, started)));
    }
    tracing::info!(file = %name, "search or generation cancelled by shutdown; left claimed for requeue");
    Err(Ok(Outcome::LeftClaimed))
}

/// The claimed input is gone: say so once, plainly.
fn withdrawn(name: &str, started: Instant) -> Outcome {
    tracing::info!(file = %name, after_s = (started.elapsed().as_secs_f64() * 100.0).round() / 100.0,
        "the input was removed from the claim folder while it was worked on; its job is \
         cancelled and nothing is answered");
    Outcome::Withdrawn
}

/// *committed*, its first half: the result set prepared (written, not yet in place) and
/// what the last steps need once it is durable.
fn prepare(
    ctx: &Context,
    claimed: Claimed,
    report: &FileReport,
    size: u64,
    started: Instant,
) -> Result<(Prepared, Answer), Ended> {
    let path = claimed.path(&ctx.settings.folders.claim);
    let prepared = ctx.outbox.prepare(&claimed.name, report);
    let prepared = prepared
        .map_err(|e| JobError::io("cannot write the result of", &path, e))
        .map_err(failed(&claimed))?;
    let answer = Answer {
        claimed,
        path,
        rejected: report.is_rejected(),
        line: LogLine::new(size, report, started),
        by_operator: report.result() == Status::Cancelled,
    };
    Ok((prepared, answer))
}

/// *committed*, its second half: hands the prepared set to the committer; the rest of the life runs on its
/// thread once the set is durable, or failed to be.
fn commit(stages: &Arc<Stages>, prepared: Prepared, answer: Answer, job: Job, release: Release) {
    let for_commit = Arc::clone(stages);
    stages.committer.submit(
        prepared,
        Box::new(move |written| {
            let claimed = answer.claimed.clone();
            let outcome = answered::committed(&for_commit.ctx, answer, written)
                .map_err(|error| Failure { error, claimed: Some(claimed) });
            end(&for_commit, &job, outcome, release);
        }),
    );
}

/// How an ended life concerns the retrier.
enum RetryNote {
    /// Its result could not be written; the input waits in the claim folder.
    Failed(Claimed, String),
    /// It ended without an output error.
    Ended,
    /// Nothing to tell (a cancelled search, or an input still in the inbox).
    Nothing,
}

/// *ended*: counts and logs the life's end, releases the job, then tells the retrier (last,
/// so that an input the retrier requeues at once is not taken for a duplicate of the job
/// that is ending).
fn end(stages: &Stages, job: &Job, outcome: Ended, release: Release) {
    let note = count(stages, job, outcome);
    release(job);
    match note {
        RetryNote::Failed(claimed, error) => stages.retrier.failed(&claimed, error),
        RetryNote::Ended => {
            // Only a job of a claimed input can be the retrier's probe.
            if let Source::Claimed(id) = job.source {
                stages.retrier.ended(&Claimed { id, name: job.name.clone() });
            }
        }
        RetryNote::Nothing => {}
    }
}

/// Counts and logs an ended life, and says what its end means to the retrier. A life that
/// failed after its input was claimed is noted for the retrier, which logs it (once for
/// the whole trouble rather than per file).
fn count(stages: &Stages, job: &Job, outcome: Ended) -> RetryNote {
    let c = &stages.counters;
    match outcome {
        Ok(Outcome::Answered { rejected }) => {
            c.count_answer(rejected);
            RetryNote::Ended
        }
        Ok(Outcome::AlreadyAnswered) => {
            c.answered.fetch_add(1, Ordering::Relaxed);
            RetryNote::Ended
        }
        // Logged by the job; the shutdown line counts what is left in the claim folder. A
        // cancelled search says nothing about the outbox.
        Ok(Outcome::LeftClaimed) => RetryNote::Nothing,
        // Sent to the queue: its answer is counted when it is written.
        Ok(Outcome::Published) => RetryNote::Ended,
        Ok(Outcome::Deferred) => {
            tracing::debug!(file = %job.name, "the queue is full; the input waits in the inbox");
            RetryNote::Nothing
        }
        Ok(Outcome::Withdrawn) => RetryNote::Ended,
        Ok(Outcome::Gone) => {
            tracing::debug!(file = %job.name, "gone before it was claimed");
            RetryNote::Ended
        }
        Err(Failure { error, claimed }) => {
            c.errors.fetch_add(1, Ordering::Relaxed);
            let claim = &stages.ctx.settings.folders.claim;
            match claimed {
                None => tracing::error!(file = %job.name, %error,
                    "cannot take the input; it stays in the inbox for the next scan"),
                Some(claimed) if retry::claimed_input(claim, &claimed).is_some() => {
                    return RetryNote::Failed(claimed, error.to_string());
                }
                Some(_) => tracing::warn!(file = %job.name, %error,
                    "the input was removed from the claim folder while it was worked on; \
                     nothing is answered"),
            }
            RetryNote::Nothing
        }
    }
}
