//! search

use super::{Outcome, SolveOptions};
use crate::model::Model;
use std::sync::atomic::AtomicBool;

/// Sequential depth-first search.
pub fn solve(model: &Model, options: &SolveOptions, cancel: Option<&AtomicBool>) -> Outcome {
    let _ = (model, options, cancel);
    todo!()
}
