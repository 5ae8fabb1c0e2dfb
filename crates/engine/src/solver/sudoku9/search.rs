//! Depth-first search over [`Bands`]: pick a cell, try its candidates on copies of the
//! state, propagate, go deeper. A 9x9 state is small enough that copying it costs less
//! than undoing changes would.

use super::bands::Bands;
use crate::solver::StopReason;
use crate::solver::options::ValOrder;
use crate::solver::progress::Counts;
use crate::solver::stats::Stats;
use crate::solver::termination::Termination;

/// How often (in nodes) the clock and the cancel flag are looked at.
const POLL_INTERVAL: u64 = 128;

/// Solutions kept (the first two: one to answer with, one to prove a second exists).
const KEPT: usize = 2;

/// One search: its limits, what it has found and its counters.
pub(super) struct Search<'a> {
    /// Stop once this many solutions are found.
    pub(super) target: u64,
    /// The caller's limits.
    pub(super) termination: Termination<'a>,
    /// Digits in rising or falling order.
    pub(super) val_order: ValOrder,
    /// The first solutions found, row-major digits.
    pub(super) solutions: Vec<Vec<u32>>,
    /// Solutions found in all.
    pub(super) count: u64,
    /// Why the search stopped early, if it did.
    pub(super) stopped: Option<StopReason>,
    /// Counters, in the general engine's terms.
    pub(super) stats: Stats,
    /// The part of the counters already added to the caller's live progress.
    pub(super) published: Counts,
}

impl Search<'_> {
    /// Whether the search has what it was asked for, or must stop.
    fn done(&self) -> bool {
        self.count >= self.target || self.stopped.is_some()
    }

    /// Searches below `state`, a propagated, consistent state at decision `depth`. The
    /// last digit tried at a cell is tried on `state` itself, which nothing needs after.
    pub(super) fn explore(&mut self, state: &mut Bands, depth: u64) {
        if state.is_solved() {
            self.record(state);
            return;
        }
        let Some(cell) = state.pair_cell().or_else(|| state.fewest_candidates_cell()) else {
            return;
        };
        let mut digits = state.candidates(cell);
        while digits != 0 && !self.done() {
            let digit = match self.val_order {
                ValOrder::Min => digits.trailing_zeros(),
                ValOrder::Max => 31 - digits.leading_zeros(),
            };
            digits &= !(1 << digit);
            if !self.may_branch() {
                return;
            }
            self.stats.max_depth = self.stats.max_depth.max(depth + 1);
            let mut copy;
            let child = if digits == 0 {
                &mut *state
            } else {
                copy = *state;
                &mut copy
            };
            let consistent = child.assign(digit as usize, cell).is_ok()
                && child.propagate(&mut self.stats.propagations).is_ok();
            if consistent {
                self.explore(child, depth + 1);
            } else {
                self.stats.failures += 1;
            }
        }
    }

    /// Counts the node about to be tried and says whether the limits allow it.
    fn may_branch(&mut self) -> bool {
        let nodes = self.stats.nodes;
        let over_nodes = self.termination.node_limit.is_some_and(|limit| nodes >= limit);
        let stop = if over_nodes {
            Some(StopReason::NodeLimit)
        } else if nodes.is_multiple_of(POLL_INTERVAL) {
            self.publish();
            self.termination.check(nodes).map(|stop| stop.reason())
        } else {
            None
        };
        if let Some(reason) = stop {
            self.stopped = Some(reason);
            return false;
        }
        self.stats.nodes += 1;
        true
    }

    /// Adds what this search did since its last report to the caller's live progress.
    pub(super) fn publish(&mut self) {
        if let Some(progress) = self.termination.progress {
            let stats = Stats { solutions: self.count, ..self.stats };
            progress.publish(&stats, &mut self.published);
        }
    }

    /// Keeps a solution (the first two) and counts it.
    fn record(&mut self, state: &Bands) {
        self.count += 1;
        self.stats.solutions += 1;
        if self.solutions.len() < KEPT {
            self.solutions.push(state.values());
        }
    }
}
