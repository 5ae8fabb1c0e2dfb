//! When a search must stop early: deadline, node limit, external cancellation. Checked from
//! the search loop every few nodes, so checking stays off the hot path.

use super::StopReason;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The stop conditions of one search.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits<'a> {
    /// Stop when this instant has passed.
    pub deadline: Option<Instant>,
    /// Stop after this many nodes.
    pub node_limit: Option<u64>,
    /// Stop when this flag becomes true (shutdown, or a parallel race was won).
    pub cancel: Option<&'a AtomicBool>,
}

impl Limits<'_> {
    /// Whether to stop now, given the nodes explored so far.
    pub fn check(&self, nodes: u64) -> Option<StopReason> {
        if self.node_limit.is_some_and(|limit| nodes >= limit) {
            return Some(StopReason::NodeLimit);
        }
        if self.cancel.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
            return Some(StopReason::Cancelled);
        }
        if self.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            return Some(StopReason::Timeout);
        }
        None
    }
}
