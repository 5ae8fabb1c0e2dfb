//! From "this file is ready" to a worker: a crossbeam channel carries jobs from the intake
//! thread to a dispatcher thread, which drops duplicates (a file already queued, running or
//! being committed) and spawns each job on the rayon worker pool; a finished job's result
//! goes to the committer (`commit`), which completes it. The pool is shared with the solver, so a
//! puzzle searched on several threads (`solver.threads` > 1) borrows idle workers.
//!
//! Shutdown happens in two steps: [`Dispatcher::stop_intake`] makes jobs that have not yet
//! started return at once (their files stay in the inbox or the claim folder), then
//! [`Dispatcher::drain`] waits for the running ones.

use super::claim::Claimed;
use super::commit::Committer;
use super::job::{self, Context, Failure, Job, Outcome, Source, Step};
use super::retry::{self, Retrier};
use crossbeam_channel::{Receiver, Sender};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Counts of finished jobs, for the shutdown line.
#[derive(Debug, Default)]
pub struct Counters {
    /// Inputs answered with a result.
    pub answered: AtomicU64,
    /// Of those, answered with an error result.
    pub rejected: AtomicU64,
    /// Jobs that failed on I/O (input left in the inbox, or in the claim folder to be
    /// tried again).
    pub errors: AtomicU64,
}

struct Shared {
    ctx: Arc<Context>,
    committer: Committer,
    retrier: Retrier,
    stopping: AtomicBool,
    /// Jobs queued or running; a job is in here from submission to its end. An input in the
    /// inbox and one of the same name in the claim folder are different jobs.
    pending: Mutex<HashSet<Job>>,
    /// Signalled whenever a job ends.
    idle: Condvar,
    counters: Arc<Counters>,
}

/// The job queue and the worker pool.
pub struct Dispatcher {
    shared: Arc<Shared>,
    sender: Sender<Job>,
}

impl Dispatcher {
    /// Starts `workers` worker threads and the dispatcher thread.
    pub fn start(ctx: Arc<Context>, workers: usize) -> std::io::Result<Dispatcher> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(workers)
            .thread_name(|i| format!("kakurod-worker-{i}"))
            .panic_handler(|_| tracing::error!("a worker panicked outside a job"))
            .build()
            .map_err(std::io::Error::other)?;
        let committer = Committer::start(Arc::clone(&ctx))?;
        let (sender, receiver) = crossbeam_channel::unbounded();
        let retrier = Retrier::start(Arc::clone(&ctx), sender.clone())?;
        let shared = Arc::new(Shared {
            ctx,
            committer,
            retrier,
            stopping: AtomicBool::new(false),
            pending: Mutex::new(HashSet::new()),
            idle: Condvar::new(),
            counters: Arc::default(),
        });
        let for_thread = Arc::clone(&shared);
        // The thread ends when every sender is gone; it is never joined, because at shutdown
        // the queue is abandoned, not emptied.
        std::thread::Builder::new()
            .name("kakurod-dispatch".into())
            .spawn(move || dispatch(&for_thread, &receiver, &pool))?;
        let (cancelled, cancelled_jobs) = crossbeam_channel::unbounded();
        let _ = shared.ctx.cancelled_lane.set(cancelled);
        let for_lane = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("kakurod-cancelled".into())
            .spawn(move || cancelled_lane(&for_lane, &cancelled_jobs))?;
        Ok(Dispatcher { shared, sender })
    }

    /// A handle through which the intake submits jobs.
    pub fn sender(&self) -> Sender<Job> {
        self.sender.clone()
    }

    /// Finished-job counts.
    pub fn counters(&self) -> &Arc<Counters> {
        &self.shared.counters
    }

    /// The committer, for results that come from the queue.
    pub fn committer(&self) -> Committer {
        self.shared.committer.clone()
    }

    /// Jobs not yet started will not start.
    pub fn stop_intake(&self) {
        self.shared.stopping.store(true, Ordering::SeqCst);
    }

    /// Waits until no job is queued or running, or until `timeout`. True when drained.
    pub fn drain(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut pending = self.shared.pending.lock().unwrap_or_else(|e| e.into_inner());
        while !pending.is_empty() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            pending = match self.shared.idle.wait_timeout(pending, left) {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
        true
    }

    /// Jobs queued or running.
    pub fn pending(&self) -> usize {
        self.shared.pending.lock().map_or(0, |p| p.len())
    }
}

fn dispatch(shared: &Arc<Shared>, jobs: &Receiver<Job>, pool: &rayon::ThreadPool) {
    for job in jobs {
        if shared.stopping.load(Ordering::SeqCst) {
            continue;
        }
        let fresh = shared.pending.lock().is_ok_and(|mut p| p.insert(job.clone()));
        if !fresh {
            continue;
        }
        shared.ctx.waiting.fetch_add(1, Ordering::SeqCst);
        let shared = Arc::clone(shared);
        pool.spawn(move || {
            shared.ctx.waiting.fetch_sub(1, Ordering::SeqCst);
            if shared.stopping.load(Ordering::SeqCst) {
                return settle(&shared, &job);
            }
            work(shared, job);
        });
    }
}

/// Runs the jobs of inputs an operator cancelled while they were queued, at once rather
/// than behind the queue (their answer needs no search).
fn cancelled_lane(shared: &Arc<Shared>, jobs: &Receiver<Job>) {
    for job in jobs {
        if shared.pending.lock().is_ok_and(|mut p| p.insert(job.clone())) {
            work(Arc::clone(shared), job);
        }
    }
}

/// Runs one job: its worker half here, its result through the committer.
fn work(shared: Arc<Shared>, job: Job) {
    match job::run(&shared.ctx, &job) {
        Ok(Step::Commit(prepared, answer)) => {
            let for_commit = Arc::clone(&shared);
            let claimed = answer.claimed.clone();
            shared.committer.submit(
                prepared,
                Box::new(move |written| {
                    let outcome = job::finish(&for_commit.ctx, *answer, written)
                        .map_err(|error| Failure { error, claimed: Some(claimed) });
                    end(&for_commit, &job, outcome);
                }),
            );
        }
        Ok(Step::Finished(outcome)) => end(&shared, &job, Ok(outcome)),
        Err(failure) => end(&shared, &job, Err(failure)),
    }
}

/// `job` has ended: it may be submitted again, and the drain may be over.
fn settle(shared: &Shared, job: &Job) {
    let mut pending = shared.pending.lock().unwrap_or_else(|e| e.into_inner());
    pending.remove(job);
    shared.idle.notify_all();
}

/// How a finished job's end concerns the retrier.
enum RetryNote {
    /// Its result could not be written; the input waits in the claim folder.
    Failed(Claimed, String),
    /// It ended without an output error.
    Ended,
    /// Nothing to tell (a cancelled search, or an input still in the inbox).
    Nothing,
}

/// A job has ended: count and log it, let its name be submitted again, then tell the
/// retrier (last, so that an input the retrier requeues at once is not taken for a
/// duplicate of the job that is ending).
fn end(shared: &Shared, job: &Job, outcome: Result<Outcome, Failure>) {
    let note = count(shared, job, outcome);
    settle(shared, job);
    match note {
        RetryNote::Failed(claimed, error) => shared.retrier.failed(&claimed, error),
        RetryNote::Ended => {
            // Only a job of a claimed input can be the retrier's probe.
            if let Source::Claimed(id) = job.source {
                shared.retrier.ended(&Claimed { id, name: job.name.clone() });
            }
        }
        RetryNote::Nothing => {}
    }
}

/// Counts and logs a finished job, and says what its end means to the retrier. A job that
/// failed after its input was claimed is noted for the retrier, which logs it (once for
/// the whole trouble rather than per file).
fn count(shared: &Shared, job: &Job, outcome: Result<Outcome, Failure>) -> RetryNote {
    let c = &shared.counters;
    match outcome {
        Ok(Outcome::Answered { rejected }) => {
            c.answered.fetch_add(1, Ordering::Relaxed);
            if rejected {
                c.rejected.fetch_add(1, Ordering::Relaxed);
            }
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
            let claim = &shared.ctx.settings.folders.claim;
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
