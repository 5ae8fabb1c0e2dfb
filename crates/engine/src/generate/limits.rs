//! The caller's time limit and cancel flag, as every generator checks them.

use super::GenError;
use crate::solver::StopReason;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The caller's time limit and cancel flag.
#[derive(Clone, Copy)]
pub(super) struct Limits<'a> {
    pub(super) deadline: Option<Instant>,
    pub(super) cancel: Option<&'a Arc<AtomicBool>>,
}

impl Limits<'_> {
    /// An error when a cancel came or the time limit has passed.
    pub(super) fn check(&self) -> Result<(), GenError> {
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            Err(GenError::Cancelled)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Err(GenError::Timeout)
        } else {
            Ok(())
        }
    }

    /// The time left, if there is a limit.
    pub(super) fn left(&self) -> Option<Duration> {
        self.deadline.map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// The error for a solver stopped early for `reason`.
    pub(super) fn error_for(&self, reason: StopReason) -> GenError {
        match reason {
            StopReason::Timeout => GenError::Timeout,
            _ if self.deadline.is_some_and(|d| Instant::now() >= d) => GenError::Timeout,
            _ => GenError::Cancelled,
        }
    }
}
