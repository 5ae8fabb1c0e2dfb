//! Worker slots on the queue: `kakurod worker` on any host, and the daemon's own workers
//! under `serve --queue`. Each idle slot fetches one job, so a job never waits out its
//! `AckWait` behind a long search in a buffer; searches run on a rayon pool of one thread
//! per slot, which a hard puzzle's parallel search borrows from while other slots idle,
//! exactly as on the daemon (see `task` for one job's steps). Large jobs (marked by the
//! daemon, `[queue] large_input_bytes`) hold at most all but one of a worker's slots: a
//! large job fetched while every other slot holds one goes back to the queue for a moment
//! and the slot takes the next job, so a few huge puzzles never hold every slot while
//! small ones wait (a worker with one slot runs any job in it).
//!
//! Stopping: no more jobs are fetched; running ones may finish within the drain time, then
//! their searches are cancelled and their jobs handed back at once (a negative ack), which
//! is not counted as a crash.

mod pack;
mod patience;
mod task;

use super::Queue;
use super::crashes::Crashes;
use super::presence;
use super::wire::Job;
use crate::solver::Progress;
use crate::status::{self, NodeState, RunningInput};
use async_nats::jetstream::{AckKind, consumer};
use futures_util::StreamExt;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// How long one fetch waits for a job before it looks at the stop flag again.
const FETCH_WAIT: Duration = Duration::from_secs(2);
/// The most jobs one fetch asks for (one per free slot, at most this many).
const MOST_FETCHED: usize = 64;
/// How long a large job that found every large slot busy waits before it is offered again.
const LARGE_RETRY: Duration = Duration::from_secs(1);

/// What the slots share.
struct Shared {
    queue: Arc<Queue>,
    pool: rayon::ThreadPool,
    /// Jobs handed to the pool and not started.
    waiting: Arc<AtomicUsize>,
    /// The running jobs, by claim id.
    running: Mutex<HashMap<String, Arc<Slot>>>,
    /// Inputs answered since start, by result.
    answered: Mutex<BTreeMap<String, u64>>,
    /// No more jobs are fetched.
    stopping: AtomicBool,
    /// This worker's host name and pid (`HOST/PID`), sent with each answer.
    host: String,
    /// Its slots.
    slots: usize,
    /// Large jobs running now; at most [`Shared::large_slots`].
    large_running: AtomicUsize,
    /// Jobs solved whose answer and acknowledgement are still on their way.
    sending: AtomicUsize,
    /// When it started, in seconds since the Unix epoch.
    started_unix_seconds: f64,
}

impl Shared {
    /// The slots large jobs may hold: all but one, so the smaller jobs always have a slot
    /// (a worker with one slot runs any job in it).
    fn large_slots(&self) -> usize {
        self.slots.saturating_sub(1).max(1)
    }

    /// Takes a slot for a large job if one is left (true), else leaves the count alone.
    fn take_large_slot(&self) -> bool {
        let cap = self.large_slots();
        let taken = |n: usize| (n < cap).then_some(n + 1);
        self.large_running.fetch_update(Ordering::SeqCst, Ordering::SeqCst, taken).is_ok()
    }
}

/// The slot a job holds while it is solved: given back when the search ends, so that the
/// slot fetches its next job while the answer is still on its way to the server.
pub(super) struct Held {
    permit: Option<tokio::sync::OwnedSemaphorePermit>,
    large: bool,
    shared: Arc<Shared>,
}

impl Held {
    /// Gives the slot back; the job's answer is then counted as on its way until the
    /// task ends (see [`Worker::stop`]).
    pub(super) fn release(&mut self) {
        if let Some(permit) = self.permit.take() {
            self.shared.sending.fetch_add(1, Ordering::SeqCst);
            if self.large {
                self.shared.large_running.fetch_sub(1, Ordering::SeqCst);
            }
            drop(permit);
        }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        if self.permit.is_some() {
            self.release();
        }
        self.shared.sending.fetch_sub(1, Ordering::SeqCst);
    }
}

/// One running job: its input, its stop flag and its search's live counters.
struct Slot {
    name: String,
    started: Instant,
    stop: Arc<AtomicBool>,
    /// Set with `stop` when the daemon took the job back (its input was cancelled).
    withdrawn: AtomicBool,
    progress: Progress,
}

/// The running slots; [`Worker::stop`] ends them.
pub struct Worker {
    shared: Arc<Shared>,
    slots: Arc<Semaphore>,
    count: usize,
    fetcher: tokio::task::JoinHandle<()>,
    presence: tokio::task::JoinHandle<()>,
    cancels: tokio::task::JoinHandle<()>,
}

impl Worker {
    /// Starts `slots` slots on the queue.
    pub fn start(queue: Arc<Queue>, slots: usize) -> std::io::Result<Worker> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(slots)
            .thread_name(|i| format!("kakurod-qworker-{i}"))
            .build()
            .map_err(std::io::Error::other)?;
        let shared = Arc::new(Shared {
            queue: Arc::clone(&queue),
            pool,
            waiting: Default::default(),
            running: Default::default(),
            answered: Default::default(),
            stopping: AtomicBool::new(false),
            host: format!("{}/{}", crate::util::host_name(), std::process::id()),
            slots,
            large_running: AtomicUsize::new(0),
            sending: AtomicUsize::new(0),
            started_unix_seconds: crate::status::unix_now(),
        });
        let semaphore = Arc::new(Semaphore::new(slots));
        let fetcher = queue.handle().spawn(fetch(Arc::clone(&shared), Arc::clone(&semaphore)));
        let presence = queue.handle().spawn(publish_state(Arc::clone(&shared)));
        let cancels = queue.handle().spawn(stop_cancelled(Arc::clone(&shared)));
        Ok(Worker { shared, slots: semaphore, count: slots, fetcher, presence, cancels })
    }

    /// Jobs running now.
    pub fn running(&self) -> usize {
        self.shared.running.lock().map_or(0, |r| r.len())
    }

    /// Stops fetching, lets running jobs finish within `drain`, then cancels the rest (they
    /// are handed back) and waits a moment for them. True when every job finished in time.
    pub fn stop(self, drain: Duration) -> bool {
        self.shared.stopping.store(true, Ordering::SeqCst);
        let idle = |w: &Worker| {
            w.slots.available_permits() == w.count && w.shared.sending.load(Ordering::SeqCst) == 0
        };
        let deadline = Instant::now() + drain;
        while !idle(&self) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let drained = idle(&self);
        if !drained {
            if let Ok(running) = self.shared.running.lock() {
                running.values().for_each(|slot| slot.stop.store(true, Ordering::SeqCst));
            }
            let grace = Instant::now() + Duration::from_secs(5);
            while !idle(&self) && Instant::now() < grace {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        self.fetcher.abort();
        self.presence.abort();
        self.cancels.abort();
        let shared = &self.shared;
        shared.queue.block_on(presence::forget(
            &shared.queue.js,
            &shared.queue.names,
            &shared.host,
        ));
        drained
    }
}

/// The fetch loop: one fetch for every slot free at the time (never more jobs than free
/// slots, so none waits out its ack wait in a buffer), each job handled on its own task.
async fn fetch(shared: Arc<Shared>, slots: Arc<Semaphore>) {
    let Some((consumer, crashes)) = attach(&shared).await else { return };
    let ack_wait = consumer.cached_info().config.ack_wait;
    while !shared.stopping.load(Ordering::SeqCst) {
        let Ok(first) = Arc::clone(&slots).acquire_owned().await else { return };
        let mut permits = vec![first];
        while permits.len() < MOST_FETCHED
            && let Ok(permit) = Arc::clone(&slots).try_acquire_owned()
        {
            permits.push(permit);
        }
        let wanted = permits.len();
        let batch = consumer.fetch().max_messages(wanted).expires(FETCH_WAIT).messages().await;
        let mut batch = match batch {
            Ok(batch) => batch,
            Err(error) => {
                tracing::debug!(%error, "cannot fetch a job; trying again");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        while let Some(message) = batch.next().await {
            let Some(permit) = permits.pop() else { break };
            match message {
                Ok(message) => {
                    let job = Job::decode(&message.payload);
                    // A job this worker cannot read is not large: its slot refuses it.
                    let large = job.as_ref().is_ok_and(|job| job.header.large);
                    if large && !shared.take_large_slot() {
                        // Every slot for large jobs is busy: the job goes back for a moment
                        // (to this worker or another), and this slot takes the next one. A
                        // hand-back, not a crash.
                        if let Ok(job) = &job {
                            let count = crashes.count(&message, &job.header.claim).await;
                            let _ = crashes.handed_back(&job.header.claim, count).await;
                        }
                        let later = AckKind::Nak(Some(LARGE_RETRY));
                        if let Err(error) = message.ack_with(later).await {
                            tracing::debug!(%error, "cannot hand a large job back");
                        }
                        continue;
                    }
                    let task = task::Task {
                        shared: Arc::clone(&shared),
                        crashes: crashes.clone(),
                        ack_wait,
                    };
                    let held = Held { permit: Some(permit), large, shared: Arc::clone(&shared) };
                    tokio::spawn(task.handle(message, job, held));
                }
                Err(error) => tracing::debug!(%error, "a fetch ended without a job"),
            }
        }
    }
}

/// The workers' consumer and the crash-count bucket, once the daemon has made them (a
/// worker may start first: it says so once and waits).
async fn attach(shared: &Shared) -> Option<(consumer::PullConsumer, Crashes)> {
    let names = &shared.queue.names;
    let mut said = false;
    loop {
        let consumer = shared
            .queue
            .js
            .get_consumer_from_stream(names.workers_consumer(), names.jobs_stream())
            .await;
        let crashes = Crashes::open(&shared.queue.js, names).await;
        match (consumer, crashes) {
            (Ok(consumer), Ok(crashes)) => {
                if said {
                    tracing::info!("the queue is ready; taking jobs");
                }
                return Some((consumer, crashes));
            }
            (consumer, crashes) if !said => {
                let error = consumer.err().map(|e| e.to_string());
                let error = error.or(crashes.err().map(|e| e.to_string())).unwrap_or_default();
                tracing::warn!(%error, stream = %names.jobs_stream(),
                    "the queue's streams are not there yet (has a daemon started on it?); \
                     waiting");
                said = true;
            }
            _ => {}
        }
        if shared.stopping.load(Ordering::SeqCst) {
            return None;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// Stops the running job of each claim the daemon names on its cancel subject.
async fn stop_cancelled(shared: Arc<Shared>) {
    let subject = shared.queue.names.cancel();
    let mut cancels = match shared.queue.client.subscribe(subject).await {
        Ok(subscriber) => subscriber,
        Err(error) => {
            tracing::warn!(%error, "cannot hear the daemon's cancels; cancelled jobs run on");
            return;
        }
    };
    while let Some(message) = cancels.next().await {
        let claim = String::from_utf8_lossy(&message.payload);
        if let Ok(running) = shared.running.lock()
            && let Some(slot) = running.get(claim.as_ref())
        {
            slot.withdrawn.store(true, Ordering::SeqCst);
            slot.stop.store(true, Ordering::SeqCst);
        }
    }
}

/// Publishes this worker's state every [`status::PERIOD`], for `kakurod status`.
async fn publish_state(shared: Arc<Shared>) {
    let mut every = tokio::time::interval(status::PERIOD);
    loop {
        every.tick().await;
        let state = state_of(&shared);
        presence::publish(&shared.queue.js, &shared.queue.names, &state).await;
    }
}

/// This worker's state now, in the daemon's terms.
fn state_of(shared: &Shared) -> NodeState {
    let mut running: Vec<RunningInput> = shared.running.lock().map_or_else(
        |_| Vec::new(),
        |jobs| {
            let input = |(claim, slot): (&String, &Arc<Slot>)| {
                let (elapsed, counts) = (slot.started.elapsed(), slot.progress.counts());
                RunningInput::new(&slot.name, claim.clone(), elapsed, counts)
            };
            jobs.iter().map(input).collect()
        },
    );
    running.sort_by(|a, b| b.elapsed_seconds.total_cmp(&a.elapsed_seconds));
    NodeState {
        node_id: shared.host.clone(),
        pid: std::process::id(),
        version: env!("CARGO_PKG_VERSION").into(),
        started_unix_seconds: shared.started_unix_seconds,
        updated_unix_seconds: status::unix_now(),
        inbox: None,
        workers: shared.slots,
        queued: shared.waiting.load(Ordering::SeqCst),
        on_shared_queue: 0,
        held_for_queue: 0,
        retry_waiting: 0,
        running,
        answered: shared.answered.lock().map(|a| a.clone()).unwrap_or_default(),
        queue_workers: Vec::new(),
        shared_queue: None,
    }
}
