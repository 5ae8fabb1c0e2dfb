//! What a solve asks of an engine and what an engine hands back. Every engine (the
//! depth-first search, the SAT solver) and the portfolio above them speak these two types,
//! so none of them needs to know another.

use super::options::{Mode, SolveOptions};
use super::{Engine, Stats, StopReason, Termination};
use std::sync::atomic::AtomicUsize;

/// What the engines are asked for and when they must stop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Goal<'a> {
    /// Stop once this many solutions are found (`u64::MAX`: find them all).
    pub target: u64,
    /// When to stop before that; its node limit counts the nodes of all workers, and
    /// waiting work makes them stop marked as yielded.
    pub termination: Termination<'a>,
    /// Counts running workers, so a caller can check that none outlives a solve.
    pub live: &'a AtomicUsize,
}

impl<'a> Goal<'a> {
    /// `target` solutions within `termination`, counting the workers in `live`.
    pub fn new(target: u64, termination: Termination<'a>, live: &'a AtomicUsize) -> Self {
        Goal { target, termination, live }
    }
}

/// What an engine (or all the workers of a solve together) found.
#[derive(Clone, Debug, Default)]
pub(crate) struct Found {
    /// The first solutions found, in order (at most two).
    pub solutions: Vec<Vec<u32>>,
    /// Solutions found in all (never above the target).
    pub count: u64,
    /// The limit or cancellation that stopped the workers before the target, if any.
    pub stopped: Option<StopReason>,
    /// Statistics summed over workers.
    pub stats: Stats,
    /// The engine that found the answer.
    pub engine: Engine,
    /// Set when the workers stopped to give their threads to waiting work.
    pub yielded: bool,
}

/// How many solutions the mode of `options` needs before a solve can stop (`u64::MAX`:
/// every one).
pub(crate) fn solution_target(options: &SolveOptions) -> u64 {
    match options.mode {
        Mode::First => 1,
        Mode::Unique => 2,
        Mode::Count => options.count_limit.unwrap_or(u64::MAX),
    }
}
