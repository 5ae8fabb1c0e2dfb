//! The caller's budget, as every generator checks it: a spent budget is the generator's
//! error, `Timeout` or `Cancelled`.

use super::GenError;
use crate::solver::{Budget, StopReason};

/// An error when a cancel came or the time limit has passed.
pub(super) fn check(budget: &Budget<'_>) -> Result<(), GenError> {
    match budget.stop() {
        None => Ok(()),
        Some(StopReason::Cancelled) => Err(GenError::Cancelled),
        Some(_) => Err(GenError::Timeout),
    }
}

/// The error for a solver stopped early for `reason`.
pub(super) fn error_for(budget: &Budget<'_>, reason: StopReason) -> GenError {
    match reason {
        StopReason::Timeout => GenError::Timeout,
        _ if budget.deadline_passed() => GenError::Timeout,
        _ => GenError::Cancelled,
    }
}
