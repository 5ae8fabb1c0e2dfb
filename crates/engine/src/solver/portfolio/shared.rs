//! The state every depth-first worker of one solve shares: the solution counter, the first
//! solutions, the node counter, the quit flag and the summed statistics, with the stop
//! checks of the goal's [`Termination`](crate::solver::Termination) made against them.

use crate::solver::goal::{Found, Goal};
use crate::solver::termination::Stop;
use crate::solver::{Engine, Progress, Stats, StopReason};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The shared state.
pub(crate) struct Shared<'a> {
    /// The goal.
    pub goal: Goal<'a>,
    /// Solutions counted so far; only ever raised up to the target.
    found: AtomicU64,
    /// The first two solutions, with their rank in the order of discovery.
    solutions: Mutex<Vec<(u64, Vec<u32>)>>,
    /// Set when every worker should stop: target reached, a limit hit, or a panic.
    quit: AtomicBool,
    /// The external reason for stopping, when one was seen.
    reason: Mutex<Option<StopReason>>,
    /// Nodes reported by all workers so far.
    nodes: AtomicU64,
    /// Statistics of the finished searches.
    totals: Mutex<Stats>,
    /// Set when the workers stopped to give their threads to waiting work.
    yielded: AtomicBool,
}

impl<'a> Shared<'a> {
    /// Fresh shared state for `goal`.
    pub fn new(goal: Goal<'a>) -> Self {
        Shared {
            goal,
            found: AtomicU64::new(0),
            solutions: Mutex::new(Vec::new()),
            quit: AtomicBool::new(false),
            reason: Mutex::new(None),
            nodes: AtomicU64::new(0),
            totals: Mutex::new(Stats::default()),
            yielded: AtomicBool::new(false),
        }
    }

    /// Counts one solution unless the target is already reached; returns whether the
    /// worker should go on searching.
    pub fn record(&self, values: &[u32]) -> bool {
        let target = self.goal.target;
        let mut seen = self.found.load(Ordering::SeqCst);
        loop {
            if seen >= target {
                self.quit();
                return false;
            }
            match self.found.compare_exchange(seen, seen + 1, Ordering::SeqCst, Ordering::SeqCst) {
                Ok(_) => break,
                Err(now) => seen = now,
            }
        }
        if seen < 2 {
            lock(&self.solutions).push((seen, values.to_vec()));
        }
        if seen + 1 >= target {
            self.quit();
            return false;
        }
        true
    }

    /// Counts one solution like [`Shared::record`], but without touching the shared
    /// counter once two solutions are kept and the target is unlimited: the worker adds
    /// its `local` count with [`Shared::add_found`] when it ends. Counting all solutions
    /// of a big space then costs no contention between threads.
    pub fn record_batched(&self, values: &[u32], local: &mut u64) -> bool {
        if self.goal.target == u64::MAX && self.found.load(Ordering::Relaxed) >= 2 {
            *local += 1;
            return true;
        }
        self.record(values)
    }

    /// Adds solutions counted by [`Shared::record_batched`].
    pub fn add_found(&self, local: u64) {
        self.found.fetch_add(local, Ordering::SeqCst);
    }

    /// Tells every worker to stop.
    pub fn quit(&self) {
        self.quit.store(true, Ordering::SeqCst);
    }

    /// Whether the workers were told to stop.
    pub fn quitting(&self) -> bool {
        self.quit.load(Ordering::Relaxed)
    }

    /// Adds `delta` nodes to the shared count and returns the new total.
    pub fn add_nodes(&self, delta: u64) -> u64 {
        self.nodes.fetch_add(delta, Ordering::Relaxed) + delta
    }

    /// Where the workers report their live counters, if anyone watches.
    pub fn progress(&self) -> Option<&'a Progress> {
        self.goal.termination.progress
    }

    /// Nodes reported so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// How many more nodes the goal's node limit allows, given the total nodes.
    pub fn nodes_left(&self, total_nodes: u64) -> Option<u64> {
        self.goal.termination.node_limit.map(|limit| limit.saturating_sub(total_nodes))
    }

    /// Whether to stop now, given the total nodes: the quit flag, then the goal's
    /// termination (the first external reason seen is kept).
    pub fn check(&self, total_nodes: u64) -> Option<StopReason> {
        if self.quitting() {
            return Some(StopReason::Cancelled);
        }
        let stop = self.goal.termination.check(total_nodes)?;
        match stop {
            Stop::RivalWon => {}
            Stop::Yield => {
                self.yielded.store(true, Ordering::Relaxed);
                lock(&self.reason).get_or_insert(StopReason::Cancelled);
            }
            Stop::Limit(reason) => {
                lock(&self.reason).get_or_insert(reason);
            }
        }
        self.quit();
        Some(stop.reason())
    }

    /// Adds the statistics of one finished search.
    pub fn add_stats(&self, stats: Stats) {
        *lock(&self.totals) += stats;
    }

    /// What was found; `stopped` is set only when the target was not reached.
    pub fn into_found(self) -> Found {
        let count = self.found.into_inner();
        let mut solutions = self.solutions.into_inner().unwrap_or_else(PoisonError::into_inner);
        solutions.sort_by_key(|(rank, _)| *rank);
        let reason = self.reason.into_inner().unwrap_or_else(PoisonError::into_inner);
        Found {
            solutions: solutions.into_iter().map(|(_, values)| values).collect(),
            count,
            stopped: if count >= self.goal.target { None } else { reason },
            stats: self.totals.into_inner().unwrap_or_else(PoisonError::into_inner),
            engine: Engine::Search,
            yielded: self.yielded.into_inner(),
        }
    }
}

/// Marks one worker as running while it lives; on a panic it tells the others to quit, so
/// nothing waits for a worker that is gone (as ripgrep's parallel walker does).
pub(crate) struct WorkerGuard<'s, 'a> {
    shared: &'s Shared<'a>,
    /// Also decremented on drop, when the worker is counted elsewhere too.
    extra: Option<&'s AtomicUsize>,
}

impl<'s, 'a> WorkerGuard<'s, 'a> {
    /// Counts a worker in `shared.goal.live` (and in `extra`, already incremented by the
    /// caller, when given) until the guard is dropped.
    pub fn new(shared: &'s Shared<'a>, extra: Option<&'s AtomicUsize>) -> Self {
        shared.goal.live.fetch_add(1, Ordering::SeqCst);
        WorkerGuard { shared, extra }
    }
}

impl Drop for WorkerGuard<'_, '_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.shared.quit();
        }
        if let Some(extra) = self.extra {
            extra.fetch_sub(1, Ordering::SeqCst);
        }
        self.shared.goal.live.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Locks `mutex`, ignoring poisoning (a panicking worker never leaves these half-written).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Termination;
    use std::panic::AssertUnwindSafe;

    fn goal(live: &AtomicUsize, target: u64) -> Goal<'_> {
        Goal::new(target, Termination::default(), live)
    }

    #[test]
    fn a_panicking_worker_stops_the_others_and_nothing_hangs() {
        let live = AtomicUsize::new(0);
        let shared = Shared::new(goal(&live, u64::MAX));
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("a pool");
        let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
            pool.install(|| {
                rayon::scope(|scope| {
                    // A worker that would run forever unless told to quit.
                    scope.spawn(|_| {
                        let _guard = WorkerGuard::new(&shared, None);
                        while shared.check(0).is_none() {
                            std::thread::yield_now();
                        }
                    });
                    scope.spawn(|_| {
                        let _guard = WorkerGuard::new(&shared, None);
                        panic!("a worker fails");
                    });
                });
            });
        }));
        assert!(result.is_err(), "the panic reaches the caller");
        assert!(shared.quitting());
        assert_eq!(live.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn the_count_stops_exactly_at_the_target_and_keeps_the_first_two() {
        let live = AtomicUsize::new(0);
        let shared = Shared::new(goal(&live, 3));
        assert!(shared.record(&[1]));
        assert!(shared.record(&[2]));
        assert!(!shared.record(&[3]), "the third solution meets the target");
        assert!(!shared.record(&[4]), "past the target nothing is counted");
        let found = shared.into_found();
        assert_eq!(
            (found.count, found.solutions, found.stopped),
            (3, vec![vec![1], vec![2]], None)
        );
    }

    #[test]
    fn an_external_limit_is_reported_unless_the_target_was_met() {
        let live = AtomicUsize::new(0);
        let termination = Termination { node_limit: Some(10), ..Termination::default() };
        let shared = Shared::new(Goal { termination, ..goal(&live, 2) });
        assert_eq!(shared.check(5), None);
        assert_eq!(shared.check(10), Some(StopReason::NodeLimit));
        assert_eq!(shared.check(0), Some(StopReason::Cancelled), "the others just quit");
        assert_eq!(shared.into_found().stopped, Some(StopReason::NodeLimit));
    }
}
