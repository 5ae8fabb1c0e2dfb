//! When a solve must stop before it has what its mode asks: the caller's deadline, node
//! limit and cancel flag, a rival engine that won the race, a part solved beside this one
//! that failed, or other work waiting for the thread. One type serves the depth-first search, the portfolio's workers and the SAT
//! engine (as Pumpkin's `Termination` does); it is checked every few nodes, off the hot
//! path. The flags an engine may have to hold on its own (the SAT solver's terminator
//! owns what it reads) are shared handles.

use super::{Budget, Control, Progress, SolveOptions, StopReason};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

/// The caller's count of other work waiting for a thread (see [`Control::waiting`]).
pub(crate) type Waiting<'a> = Option<&'a Arc<AtomicUsize>>;

/// Whether `waiting` counts work waiting for a thread now.
pub(crate) fn work_waits(waiting: Waiting<'_>) -> bool {
    waiting.is_some_and(|count| count.load(Ordering::Relaxed) > 0)
}

/// The stop conditions of one solve, or of one part of it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Termination<'a> {
    /// The caller's deadline and cancel flag (a daemon's shutdown).
    pub budget: Budget<'a>,
    /// Stop after this many nodes.
    pub node_limit: Option<u64>,
    /// Stop when this flag becomes true: another engine of the race has finished.
    pub rival: Option<&'a Arc<AtomicBool>>,
    /// Stop when this is raised: another part of the same problem, solved beside this
    /// one, has no solution or was stopped, so this part's answer is not needed.
    pub abandon: Option<&'a Abandon>,
    /// Give the thread back while work waits for one: set for helpers a rival engine can
    /// do without.
    pub waiting: Waiting<'a>,
    /// Where the searches report their live counters, if anyone watches.
    pub progress: Option<&'a Progress>,
}

/// Why [`Termination::check`] said stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A limit of the caller's, or its cancel flag.
    Limit(StopReason),
    /// The rival engine won.
    RivalWon,
    /// Work is waiting for the thread.
    Yield,
}

impl Stop {
    /// The reason a search reports for this stop: its own limit, else cancelled.
    pub fn reason(self) -> StopReason {
        match self {
            Stop::Limit(reason) => reason,
            Stop::RivalWon | Stop::Yield => StopReason::Cancelled,
        }
    }
}

impl<'a> Termination<'a> {
    /// The limits `options` set for a solve that started at `start`, with the caller's
    /// cancel flag and progress counters. The job's deadline, when the caller gives one,
    /// wins over `start` plus the time limit, so the whole job has one.
    pub fn new(options: &SolveOptions, start: Instant, control: Control<'a>) -> Self {
        let own = Budget::new(start, options.timeout, control.cancel);
        Termination {
            budget: Budget { deadline: control.deadline.or(own.deadline), ..own },
            node_limit: options.node_limit,
            progress: control.progress,
            ..Termination::default()
        }
    }

    /// The same conditions for the rest of a solve that has explored `spent` nodes.
    pub fn after(self, spent: u64) -> Self {
        Termination { node_limit: self.node_limit.map(|n| n.saturating_sub(spent)), ..self }
    }

    /// Whether to stop now, given the nodes explored so far: the rival and waiting work
    /// first (they end a helper quietly), then the node limit, the cancel flag and the
    /// deadline.
    pub fn check(&self, nodes: u64) -> Option<Stop> {
        if self.rival_won() || self.abandoned() {
            return Some(Stop::RivalWon);
        }
        if work_waits(self.waiting) {
            return Some(Stop::Yield);
        }
        let reason = if self.node_limit.is_some_and(|limit| nodes >= limit) {
            StopReason::NodeLimit
        } else {
            self.budget.stop()?
        };
        Some(Stop::Limit(reason))
    }

    /// Whether another engine of the race has finished.
    pub fn rival_won(&self) -> bool {
        self.rival.is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// Whether a part solved beside this one made this one's answer needless.
    pub fn abandoned(&self) -> bool {
        self.abandon.is_some_and(Abandon::is_raised)
    }
}

/// The flag that stops the parts solved side by side once their answers are not needed,
/// with the flags of the sides the parts themselves belong to: parts are cut into regions,
/// and regions into pieces, each level solved side by side, and abandoning a part must
/// stop every level within it. Shared handles, which the SAT engine's terminator can own.
#[derive(Clone, Debug, Default)]
pub struct Abandon {
    /// The outermost level's flag first, this level's last.
    flags: Vec<Arc<AtomicBool>>,
}

impl Abandon {
    /// A flag of its own for work done within `outer` (the termination's, if any).
    pub fn within(outer: Option<&Abandon>) -> Self {
        let mut flags = outer.map(|outer| outer.flags.clone()).unwrap_or_default();
        flags.push(Arc::default());
        Abandon { flags }
    }

    /// Raises this level's flag; whether it was raised already.
    pub fn raise(&self) -> bool {
        self.flags.last().is_some_and(|flag| flag.swap(true, Ordering::SeqCst))
    }

    /// Whether this level's flag, or an outer level's, is raised.
    pub fn is_raised(&self) -> bool {
        self.flags.iter().any(|flag| flag.load(Ordering::SeqCst))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abandoning_a_level_stops_every_level_within_it_and_none_around_it() {
        let part = Abandon::within(None);
        let region = Abandon::within(Some(&part));
        let piece = Abandon::within(Some(&region));
        assert!(!piece.raise(), "not raised before");
        assert!(piece.raise(), "raised already");
        assert!(piece.is_raised() && !region.is_raised() && !part.is_raised());
        let beside = Abandon::within(Some(&region));
        part.raise();
        assert!(region.is_raised() && beside.is_raised());
        let termination = Termination { abandon: Some(&beside), ..Termination::default() };
        assert_eq!(termination.check(0), Some(Stop::RivalWon));
    }
}
