//! The inputs being worked on now, each with the live counters of its search, so that a
//! long puzzle shows in the log while it runs rather than only when it is answered: a
//! watcher thread logs each input still running after [`FIRST_NOTICE`], and again every
//! [`LATER_NOTICES`] while it lasts.

use super::job::Context;
use crate::solver::Progress;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, Instant};

/// How long an input runs before the log says it is running.
const FIRST_NOTICE: Duration = Duration::from_secs(1);
/// How often the log says so again while it runs on.
const LATER_NOTICES: Duration = Duration::from_secs(60);
/// How often the watcher looks.
const TICK: Duration = Duration::from_millis(250);

/// The registry of running inputs.
#[derive(Debug, Default)]
pub struct Running {
    jobs: Mutex<BTreeMap<u64, Entry>>,
    next_id: AtomicU64,
}

#[derive(Debug)]
struct Entry {
    name: String,
    started: Instant,
    progress: Arc<Progress>,
    /// When the log last told of it.
    noticed: Option<Instant>,
}

/// One input's place in the registry; dropping it removes the input.
#[derive(Debug)]
pub struct Ticket<'a> {
    running: &'a Running,
    id: u64,
    progress: Arc<Progress>,
}

impl Ticket<'_> {
    /// The counters the input's search reports to.
    pub fn progress(&self) -> &Progress {
        &self.progress
    }
}

impl Drop for Ticket<'_> {
    fn drop(&mut self) {
        self.running.lock().remove(&self.id);
    }
}

impl Running {
    /// Registers `name` as running from now on, until the ticket is dropped.
    pub fn start(&self, name: &str) -> Ticket<'_> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let progress = Arc::new(Progress::default());
        let entry = Entry {
            name: name.to_string(),
            started: Instant::now(),
            progress: Arc::clone(&progress),
            noticed: None,
        };
        self.lock().insert(id, entry);
        Ticket { running: self, id, progress }
    }

    /// Logs the inputs due a notice at `now`: running for [`FIRST_NOTICE`] and not told of
    /// yet, or told of [`LATER_NOTICES`] ago.
    fn notice_long(&self, now: Instant) {
        for entry in self.lock().values_mut() {
            let due = match entry.noticed {
                None => now.duration_since(entry.started) >= FIRST_NOTICE,
                Some(at) => now.duration_since(at) >= LATER_NOTICES,
            };
            if due {
                entry.noticed = Some(now);
                let seconds = now.duration_since(entry.started).as_secs_f64();
                let counts = entry.progress.counts();
                tracing::info!(file = %entry.name, seconds = (seconds * 10.0).round() / 10.0,
                    nodes = counts.nodes, failures = counts.failures,
                    solutions = counts.solutions, "still running");
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Entry>> {
        self.jobs.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Starts the thread that logs the long-running inputs of `ctx`; it ends with the context.
pub fn watch(ctx: Weak<Context>) -> std::io::Result<()> {
    std::thread::Builder::new().name("kakurod-running".into()).spawn(move || {
        while let Some(ctx) = ctx.upgrade() {
            ctx.running.notice_long(Instant::now());
            drop(ctx);
            std::thread::sleep(TICK);
        }
    })?;
    Ok(())
}
