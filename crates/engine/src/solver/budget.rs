//! What one job may spend: its deadline and its cancel flag, built once per job from the
//! job's time limit and taken by everything the job runs (the search, the grader, the
//! explainer, the generator), so that they all stop at the same instant and for the same
//! reason. The search adds its own limits on top (node limit, rival engines, waiting
//! work) in its `Termination`.

use super::StopReason;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A limit so far ahead that it is none (a century), for limits past what an `Instant` holds.
const FAR: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

/// A job's deadline and cancel flag; the default is neither.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget<'a> {
    /// Give up at this instant.
    pub deadline: Option<Instant>,
    /// Give up once this is true (a daemon's shutdown, an operator's cancel). A shared
    /// handle, so that an engine that must own what it polls holds it directly.
    pub cancel: Option<&'a Arc<AtomicBool>>,
}

impl<'a> Budget<'a> {
    /// The budget of a job that started at `started`, may take `limit` (none: no limit)
    /// and stops when `cancel` is raised.
    pub fn new(
        started: Instant,
        limit: Option<Duration>,
        cancel: Option<&'a Arc<AtomicBool>>,
    ) -> Self {
        let deadline = limit.map(|limit| started.checked_add(limit).unwrap_or(started + FAR));
        Budget { deadline, cancel }
    }

    /// The same budget, ending at the latest after `share` more time.
    pub fn at_most(self, share: Duration) -> Self {
        let end = Instant::now() + share;
        Budget { deadline: Some(self.deadline.map_or(end, |deadline| deadline.min(end))), ..self }
    }

    /// Why the job must stop now, if it must: its cancel flag first, then its deadline.
    pub fn stop(&self) -> Option<StopReason> {
        if self.cancelled() {
            Some(StopReason::Cancelled)
        } else if self.deadline_passed() {
            Some(StopReason::Timeout)
        } else {
            None
        }
    }

    /// True once the deadline has passed or the flag is raised.
    pub fn spent(&self) -> bool {
        self.stop().is_some()
    }

    /// True once the flag is raised.
    pub fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// True once the deadline has passed.
    pub fn deadline_passed(&self) -> bool {
        self.deadline.is_some_and(|deadline| Instant::now() >= deadline)
    }

    /// The time left, if there is a deadline.
    pub fn left(&self) -> Option<Duration> {
        self.deadline.map(|deadline| deadline.saturating_duration_since(Instant::now()))
    }

    /// Why a spent budget is spent, as a report's `stopped_by` says it: `"cancelled"` when
    /// the flag is raised, else `"timeout"`.
    pub fn reason(&self) -> &'static str {
        if self.cancelled() { "cancelled" } else { "timeout" }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_wins_over_the_deadline_and_a_share_never_extends_it() {
        let raised = Arc::new(AtomicBool::new(true));
        let past = Budget { deadline: Some(Instant::now()), cancel: Some(&raised) };
        assert_eq!((past.stop(), past.reason()), (Some(StopReason::Cancelled), "cancelled"));
        raised.store(false, Ordering::Relaxed);
        assert_eq!((past.stop(), past.reason()), (Some(StopReason::Timeout), "timeout"));
        assert_eq!(past.left(), Some(Duration::ZERO));
        // A zero limit is spent at once (the command line and the files say "no limit"
        // with it, and leave it out before it gets here).
        assert!(Budget::new(Instant::now(), Some(Duration::ZERO), None).deadline_passed());
        assert!(Budget::new(Instant::now(), Some(Duration::MAX), None).left().is_some());
        let open = Budget::default();
        assert!(!open.spent() && open.left().is_none());
        let shared = open.at_most(Duration::from_secs(60));
        assert!(shared.left().is_some_and(|left| left <= Duration::from_secs(60)));
        assert!(past.at_most(Duration::from_secs(60)).deadline_passed());
    }
}
