//! The span of work solved side by side: the longest chain of it that must run one task
//! after another, whatever the threads. A solve's span is its wall time less the *slack*
//! of the work it ran side by side (regions, pieces, parts): that work's wall time beyond
//! its longest chain. Measured on one thread, where every task runs alone, the solve's
//! time over its span is how many times faster it could run with threads enough (its
//! parallelism, as Cilkview reports it); on more threads the tasks' times include what
//! the threads cost each other.

use crate::solver::Stats;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Each task's span, by index, recorded as the tasks finish.
pub(super) struct TaskSpans(Mutex<Vec<Duration>>);

impl TaskSpans {
    pub(super) fn new(tasks: usize) -> TaskSpans {
        TaskSpans(Mutex::new(vec![Duration::ZERO; tasks]))
    }

    /// Records the task `index`, begun at `begun` and answered with `stats` (see
    /// [`of_task`]; the longest, for a task recorded more than once, as the speculations of
    /// a repair round are).
    pub(super) fn record(&self, index: usize, begun: Instant, stats: &Stats) {
        let span = of_task(begun, stats);
        let mut spans = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(slot) = spans.get_mut(index) {
            *slot = (*slot).max(span);
        }
    }

    pub(super) fn into_inner(self) -> Vec<Duration> {
        self.0.into_inner().unwrap_or_else(PoisonError::into_inner)
    }

    /// The longest of the tasks' spans: theirs, side by side.
    pub(super) fn longest(self) -> Duration {
        self.into_inner().into_iter().max().unwrap_or_default()
    }
}

/// The span of a task begun at `begun` and answered with `stats`: its wall time less the
/// slack of the work it ran side by side.
pub(super) fn of_task(begun: Instant, stats: &Stats) -> Duration {
    begun.elapsed().saturating_sub(stats.parallel_slack)
}

/// The slack of work begun at `begun` whose longest chain took `chain`: its wall time
/// beyond that chain.
pub(super) fn slack(begun: Instant, chain: Duration) -> Duration {
    begun.elapsed().saturating_sub(chain)
}

/// `duration` in milliseconds, to the hundredth, for the solver's debug log.
pub(super) fn ms(duration: Duration) -> f64 {
    (duration.as_secs_f64() * 1e5).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::super::tests::random_grid;
    use crate::solver::{self, Control, SolveOptions};
    use std::time::Duration;

    #[test]
    fn a_grid_cut_into_regions_has_a_span_shorter_than_its_solve_and_a_small_one_none() {
        let options = SolveOptions { threads: 1, ..SolveOptions::default() };
        // A 100x100 filling: about 6,000 open cells, cut into bands on one thread.
        let cut = solver::solve_with(&random_grid(100, 1), &options, Control::default());
        let stats = cut.stats;
        assert!(cut.complete && stats.regions > 0, "{stats:?}");
        assert!(stats.parallel_slack > Duration::ZERO, "{stats:?}");
        assert!(stats.span() > Duration::ZERO && stats.span() < stats.solve_time, "{stats:?}");
        // A 12x12 filling is answered whole: nothing runs side by side.
        let whole = solver::solve_with(&random_grid(12, 1), &options, Control::default());
        assert_eq!(whole.stats.regions, 0);
        assert_eq!(whole.stats.parallel_slack, Duration::ZERO);
        assert_eq!(whole.stats.span(), whole.stats.solve_time);
    }
}
