//! The jobs running now, each with its own stop flag and the live counters of its search,
//! and the watch over them: every [`PERIOD`], a job whose claimed input was removed (by an
//! operator or a client that changed its mind) is cancelled, and at shutdown every job is.
//! A per-job flag, rather than the daemon's one, lets one input be withdrawn without
//! disturbing the others; an operator's `kakurod cancel` sets it too (`cancel`). The watch
//! also logs each job still running after [`FIRST_NOTICE`], and again every
//! [`LATER_NOTICES`], so a long puzzle shows in the log while it runs rather than only when
//! it is answered.

use super::claim::{ClaimId, Claimed};
use crate::solver::Progress;
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often the claims of running jobs are checked.
pub const PERIOD: Duration = Duration::from_millis(200);
/// How long a job runs before the log says it is running.
const FIRST_NOTICE: Duration = Duration::from_secs(1);
/// How often the log says so again while it runs on.
const LATER_NOTICES: Duration = Duration::from_secs(60);

#[derive(Debug, Default)]
struct Flags {
    /// The search stops once this is set (shared: the SAT engine's terminator holds it).
    stop: Arc<AtomicBool>,
    /// Set with `stop` when the claimed input was removed.
    withdrawn: AtomicBool,
    /// Set with `stop` when an operator cancelled the input (`kakurod cancel`).
    by_operator: AtomicBool,
    /// The live counters of the job's search.
    progress: Progress,
    /// Set once the job's search begins here. An input handed to the shared queue never
    /// sets it: it is registered only so that a cancel or shutdown finds it while it is
    /// read and sent, and its search is listed by the worker that runs it.
    searching: AtomicBool,
}

/// One running job.
#[derive(Debug)]
struct Entry {
    claimed: Claimed,
    flags: Arc<Flags>,
    started: Instant,
    /// When the log last told of it.
    noticed: Option<Instant>,
}

/// The registry of running jobs.
#[derive(Debug, Default)]
pub struct Running {
    jobs: Mutex<HashMap<ClaimId, Entry>>,
    /// Ticked whenever a job starts or ends, for the watchdog.
    pub changed: super::beat::Beat,
}

/// A running job's handle; the job leaves the registry when it is dropped.
#[derive(Debug)]
pub struct Stop<'a> {
    running: &'a Running,
    id: ClaimId,
    flags: Arc<Flags>,
}

impl Stop<'_> {
    /// The flag the job's search watches.
    pub fn flag(&self) -> &Arc<AtomicBool> {
        &self.flags.stop
    }

    /// The counters the job's search reports to.
    pub fn progress(&self) -> &Progress {
        &self.flags.progress
    }

    /// Marks the job's search as begun here, so that status and the log list it.
    pub fn begin_search(&self) {
        self.flags.searching.store(true, Ordering::SeqCst);
    }

    /// True when the job was cancelled because its claimed input was removed.
    pub fn withdrawn(&self) -> bool {
        self.flags.withdrawn.load(Ordering::SeqCst)
    }

    /// True when an operator cancelled the job.
    pub fn by_operator(&self) -> bool {
        self.flags.by_operator.load(Ordering::SeqCst)
    }
}

/// One running job as `kakurod status` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The claimed input.
    pub claimed: Claimed,
    /// Time since the job started.
    pub elapsed: Duration,
    /// The live counters of its search.
    pub counts: crate::solver::progress::Counts,
}

impl Drop for Stop<'_> {
    fn drop(&mut self) {
        if let Ok(mut jobs) = self.running.jobs.lock() {
            jobs.remove(&self.id);
        }
        self.running.changed.tick();
    }
}

impl Running {
    /// Registers a job; it starts stopped when the daemon is stopping already (`shutdown`).
    pub fn start(&self, claimed: Claimed, shutdown: &AtomicBool) -> Stop<'_> {
        let flags = Arc::new(Flags::default());
        flags.stop.store(shutdown.load(Ordering::SeqCst), Ordering::SeqCst);
        let id = claimed.id;
        if let Ok(mut jobs) = self.jobs.lock() {
            let entry = Entry {
                claimed,
                flags: Arc::clone(&flags),
                started: Instant::now(),
                noticed: None,
            };
            jobs.insert(id, entry);
        }
        self.changed.tick();
        Stop { running: self, id, flags }
    }

    /// How many jobs run now.
    pub fn count(&self) -> usize {
        self.jobs.lock().map_or(0, |jobs| jobs.len())
    }

    /// Stops every job on `shutdown`, and each job whose input left `claim_dir`.
    pub fn check(&self, claim_dir: &Path, shutdown: &AtomicBool) {
        let stopping = shutdown.load(Ordering::SeqCst);
        let Ok(jobs) = self.jobs.lock() else { return };
        for Entry { claimed, flags, .. } in jobs.values() {
            let gone = claimed
                .path(claim_dir)
                .symlink_metadata()
                .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound);
            if gone {
                flags.withdrawn.store(true, Ordering::SeqCst);
            }
            if gone || stopping {
                flags.stop.store(true, Ordering::SeqCst);
            }
        }
    }
}

impl Running {
    /// Stops the running jobs of the input `name` for an operator; when none runs, calls
    /// `otherwise` with the registry locked, so that no job of that input can start
    /// meanwhile. True when a running job was stopped.
    pub fn cancel_or(&self, name: &str, otherwise: impl FnOnce()) -> bool {
        let Ok(jobs) = self.jobs.lock() else { return false };
        let mut found = false;
        for Entry { claimed, flags, .. } in jobs.values().filter(|e| e.claimed.name == name) {
            // The request stays until the job answers: said once, not at every look.
            if !flags.by_operator.swap(true, Ordering::SeqCst) {
                tracing::info!(file = %claimed.name, "cancel requested; stopping its search");
            }
            flags.stop.store(true, Ordering::SeqCst);
            found = true;
        }
        if !found {
            otherwise();
        }
        found
    }

    /// The jobs searching now, the longest running first.
    pub fn snapshot(&self) -> Vec<Snapshot> {
        let Ok(jobs) = self.jobs.lock() else { return Vec::new() };
        let mut all: Vec<Snapshot> = jobs
            .values()
            .filter(|e| e.flags.searching.load(Ordering::SeqCst))
            .map(|e| Snapshot {
                claimed: e.claimed.clone(),
                elapsed: e.started.elapsed(),
                counts: e.flags.progress.counts(),
            })
            .collect();
        all.sort_by_key(|s| std::cmp::Reverse(s.elapsed));
        all
    }

    /// Logs the searches due a notice at `now`: running for [`FIRST_NOTICE`] and not told
    /// of yet, or told of [`LATER_NOTICES`] ago.
    pub fn notice_long(&self, now: Instant) {
        let Ok(mut jobs) = self.jobs.lock() else { return };
        let searching = jobs.values_mut().filter(|e| e.flags.searching.load(Ordering::SeqCst));
        for entry in searching {
            let due = match entry.noticed {
                None => now.duration_since(entry.started) >= FIRST_NOTICE,
                Some(at) => now.duration_since(at) >= LATER_NOTICES,
            };
            if due {
                entry.noticed = Some(now);
                let seconds = now.duration_since(entry.started).as_secs_f64();
                let counts = entry.flags.progress.counts();
                tracing::info!(file = %entry.claimed.name,
                    seconds = (seconds * 10.0).round() / 10.0, nodes = counts.nodes,
                    failures = counts.failures, solutions = counts.solutions, "still running");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_removed_claim_stops_its_job_only_and_shutdown_stops_all() {
        let dir = tempfile::tempdir().unwrap();
        let running = Running::default();
        let shutdown = AtomicBool::new(false);
        let a = Claimed { id: ClaimId::new(), name: "a".into() };
        let b = Claimed { id: ClaimId::new(), name: "b".into() };
        for c in [&a, &b] {
            std::fs::write(c.path(dir.path()), "x").unwrap();
        }
        let (stop_a, stop_b) = (running.start(a.clone(), &shutdown), running.start(b, &shutdown));
        std::fs::remove_file(a.path(dir.path())).unwrap();
        running.check(dir.path(), &shutdown);
        assert!(stop_a.flag().load(Ordering::SeqCst) && stop_a.withdrawn());
        assert!(!stop_b.flag().load(Ordering::SeqCst));
        shutdown.store(true, Ordering::SeqCst);
        running.check(dir.path(), &shutdown);
        assert!(stop_b.flag().load(Ordering::SeqCst) && !stop_b.withdrawn());
        drop(stop_a);
        assert_eq!(running.jobs.lock().unwrap().len(), 1);
    }

    #[test]
    fn only_a_search_begun_here_is_listed_as_running() {
        let running = Running::default();
        let shutdown = AtomicBool::new(false);
        let handed_off = Claimed { id: ClaimId::new(), name: "sent".into() };
        let searched = Claimed { id: ClaimId::new(), name: "here".into() };
        let _sent = running.start(handed_off, &shutdown);
        let here = running.start(searched, &shutdown);
        assert!(running.snapshot().is_empty());
        here.begin_search();
        let listed: Vec<String> = running.snapshot().into_iter().map(|s| s.claimed.name).collect();
        assert_eq!(listed, ["here"]);
    }
}
