//! The counts of a file's (or a run's) puzzles by status: a batch's `summary`, the
//! totals of `kakurod solve` over several files, and what decides its exit status.

use super::{Status, Uniqueness};
use serde::Serialize;

/// Counts of puzzles by status, for batches and command summaries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Solved puzzles.
    pub solved: usize,
    /// Of the solved puzzles, those found to have more than one solution.
    pub multiple: usize,
    /// Unsatisfiable puzzles.
    pub unsatisfiable: usize,
    /// Rejected puzzles.
    pub invalid: usize,
    /// Puzzles stopped by a limit.
    pub timeout: usize,
    /// Puzzles whose answer failed verification.
    pub failed: usize,
    /// Inputs an operator cancelled (written only when there are some).
    #[serde(skip_serializing_if = "is_zero")]
    pub cancelled: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Summary {
    /// Counts one more puzzle with `status` and `uniqueness`.
    pub fn add(&mut self, status: Status, uniqueness: Uniqueness) {
        if status == Status::Solved && uniqueness == Uniqueness::Multiple {
            self.multiple += 1;
        }
        match status {
            Status::Solved => self.solved += 1,
            Status::Unsatisfiable => self.unsatisfiable += 1,
            Status::Invalid => self.invalid += 1,
            Status::Timeout => self.timeout += 1,
            Status::Failed => self.failed += 1,
            Status::Cancelled => self.cancelled += 1,
        }
    }

    /// Adds another summary.
    pub fn merge(&mut self, other: &Summary) {
        self.solved += other.solved;
        self.multiple += other.multiple;
        self.unsatisfiable += other.unsatisfiable;
        self.invalid += other.invalid;
        self.timeout += other.timeout;
        self.failed += other.failed;
        self.cancelled += other.cancelled;
    }

    /// How many puzzles were counted.
    pub fn puzzles(&self) -> usize {
        self.solved
            + self.unsatisfiable
            + self.invalid
            + self.timeout
            + self.failed
            + self.cancelled
    }

    /// A batch's result in one status: its worst puzzles' (failed, invalid, timeout,
    /// unsatisfiable, in that order), else solved.
    pub fn result(&self) -> Status {
        [
            (self.failed, Status::Failed),
            (self.invalid, Status::Invalid),
            (self.timeout, Status::Timeout),
            (self.unsatisfiable, Status::Unsatisfiable),
        ]
        .into_iter()
        .find_map(|(n, status)| (n > 0).then_some(status))
        .unwrap_or(Status::Solved)
    }

    /// True when every puzzle counted was solved.
    pub fn all_solved(&self) -> bool {
        self.unsatisfiable + self.invalid + self.timeout + self.failed + self.cancelled == 0
    }
}
