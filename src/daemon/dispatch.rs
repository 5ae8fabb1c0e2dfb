//! From "this file is ready" to a worker: a crossbeam channel carries jobs from the intake
//! thread to a dispatcher thread, which drops duplicates (a file already queued, running or
//! being committed) and spawns each job's life (`lifecycle`) on the rayon worker pool; a
//! job is pending until its life releases it. The pool is shared with the solver, so a
//! puzzle searched on several threads (`solver.threads` > 1) borrows idle workers.
//!
//! Shutdown happens in two steps: [`Dispatcher::stop_intake`] makes jobs that have not yet
//! started return at once (their files stay in the inbox or the claim folder), then
//! [`Dispatcher::drain`] waits for the running ones.

use super::answered::Counters;
use super::commit::Committer;
use super::job::{Context, Job};
use super::lifecycle::{self, Stages};
use super::retry::Retrier;
use crossbeam_channel::{Receiver, Sender};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

struct Shared {
    /// What each job's life passes through.
    stages: Arc<Stages>,
    stopping: AtomicBool,
    /// Jobs queued or running; a job is in here from submission to its end. An input in the
    /// inbox and one of the same name in the claim folder are different jobs.
    pending: Mutex<HashSet<Job>>,
    /// Signalled whenever a job ends.
    idle: Condvar,
}

/// The channels into the dispatcher, made before the parts that send on them (the
/// context's cancelled lane, the shared queue's deferred inputs), so that each part gets its
/// sender when it is built.
pub struct Lanes {
    jobs: (Sender<Job>, Receiver<Job>),
    cancelled: (Sender<Job>, Receiver<Job>),
}

impl Lanes {
    /// Both lanes, empty.
    pub fn new() -> Lanes {
        Lanes { jobs: crossbeam_channel::unbounded(), cancelled: crossbeam_channel::unbounded() }
    }

    /// Where jobs are submitted.
    pub fn jobs(&self) -> Sender<Job> {
        self.jobs.0.clone()
    }

    /// Where the inputs an operator cancelled while queued go, to be answered at once.
    pub fn cancelled(&self) -> Sender<Job> {
        self.cancelled.0.clone()
    }
}

/// The job queue and the worker pool.
pub struct Dispatcher {
    shared: Arc<Shared>,
    sender: Sender<Job>,
}

impl Dispatcher {
    /// Starts `workers` worker threads, the dispatcher thread on `lanes`' jobs, and the
    /// thread of its cancelled lane.
    pub fn start(ctx: Arc<Context>, workers: usize, lanes: Lanes) -> std::io::Result<Dispatcher> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(workers)
            .thread_name(|i| format!("kakurod-worker-{i}"))
            .panic_handler(|_| tracing::error!("a worker panicked outside a job"))
            .build()
            .map_err(std::io::Error::other)?;
        let committer = Committer::start(Arc::clone(&ctx))?;
        let Lanes { jobs: (sender, receiver), cancelled: (_, cancelled_jobs) } = lanes;
        let retrier = Retrier::start(Arc::clone(&ctx), sender.clone())?;
        let stages = Arc::new(Stages { ctx, committer, retrier, counters: Arc::default() });
        let shared = Arc::new(Shared {
            stages,
            stopping: AtomicBool::new(false),
            pending: Mutex::new(HashSet::new()),
            idle: Condvar::new(),
        });
        let for_thread = Arc::clone(&shared);
        // The thread ends when every sender is gone; it is never joined, because at shutdown
        // the queue is abandoned, not emptied.
        std::thread::Builder::new()
            .name("kakurod-dispatch".into())
            .spawn(move || dispatch(&for_thread, &receiver, &pool))?;
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
        &self.shared.stages.counters
    }

    /// The committer, for results that come from the queue.
    pub fn committer(&self) -> Committer {
        self.shared.stages.committer.clone()
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
        let ctx = &shared.stages.ctx;
        ctx.waiting.fetch_add(1, Ordering::SeqCst);
        if let Ok(mut queued) = ctx.queued.lock() {
            queued.insert(job.name.clone());
        }
        let shared = Arc::clone(shared);
        pool.spawn(move || {
            let ctx = &shared.stages.ctx;
            ctx.waiting.fetch_sub(1, Ordering::SeqCst);
            if let Ok(mut queued) = ctx.queued.lock() {
                queued.remove(&job.name);
            }
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

/// Runs one job: its life (`lifecycle`), which releases it as it ends.
fn work(shared: Arc<Shared>, job: Job) {
    let for_release = Arc::clone(&shared);
    lifecycle::run(&shared.stages, job, Box::new(move |job| settle(&for_release, job)));
}

/// `job` has ended: it may be submitted again, and the drain may be over.
fn settle(shared: &Shared, job: &Job) {
    let mut pending = shared.pending.lock().unwrap_or_else(|e| e.into_inner());
    pending.remove(job);
    shared.idle.notify_all();
}
