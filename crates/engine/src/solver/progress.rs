//! Live counters of a running solve, for whoever watches it from another thread: the
//! command line's progress line, the daemon's log of long puzzles. Each search thread adds
//! what it did since its last report at its poll points (every few hundred nodes) and when
//! it ends, so the counters lag the search by a poll interval and cost it nothing more.

use super::Stats;
use std::sync::atomic::{AtomicU64, Ordering};

/// Counters that search threads add to while they run.
#[derive(Debug, Default)]
pub struct Progress {
    nodes: AtomicU64,
    failures: AtomicU64,
    solutions: AtomicU64,
}

/// What a [`Progress`] held at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Search nodes so far.
    pub nodes: u64,
    /// Failed nodes so far.
    pub failures: u64,
    /// Solutions found so far.
    pub solutions: u64,
}

impl Counts {
    fn of(stats: &Stats) -> Counts {
        Counts { nodes: stats.nodes, failures: stats.failures, solutions: stats.solutions }
    }
}

impl Progress {
    /// Adds what one search engine did since `published`, its last report, given its
    /// running totals `stats`; `published` moves up to them.
    pub fn publish(&self, stats: &Stats, published: &mut Counts) {
        let now = Counts::of(stats);
        self.nodes.fetch_add(now.nodes.saturating_sub(published.nodes), Ordering::Relaxed);
        self.failures.fetch_add(now.failures.saturating_sub(published.failures), Ordering::Relaxed);
        self.solutions
            .fetch_add(now.solutions.saturating_sub(published.solutions), Ordering::Relaxed);
        *published = now;
    }

    /// Takes back solutions counted by a search whose work is done again from the start.
    pub fn retract_solutions(&self, solutions: u64) {
        self.solutions.fetch_sub(solutions, Ordering::Relaxed);
    }

    /// Sets the solutions to `solutions`, the whole's count, where the search counted
    /// independent parts of it (whose counts multiply) and is done.
    pub fn settle_solutions(&self, solutions: u64) {
        self.solutions.store(solutions, Ordering::Relaxed);
    }

    /// The counters now.
    pub fn counts(&self) -> Counts {
        Counts {
            nodes: self.nodes.load(Ordering::Relaxed),
            failures: self.failures.load(Ordering::Relaxed),
            solutions: self.solutions.load(Ordering::Relaxed),
        }
    }
}
