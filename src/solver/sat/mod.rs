//! The learning engine: the propagated model as CNF ([`encode`]), solved by the CDCL SAT
//! solver CaDiCaL ([`cadical`]), alone or racing the depth-first search.
//!
//! Depth-first search learns nothing from its failures, so on large grids with many short
//! runs it can sink into failing subtrees that clause learning cuts short in seconds. The
//! SAT engine is complete: it finds solutions (`first`), proves a found one unique by
//! forbidding it and solving again (`unique`), counts by the same means, and proves that
//! there is no solution.
//!
//! With several SAT threads the engine runs a *portfolio*: differently seeded solvers on
//! the same formula, the first to finish winning. (Splitting into cubes solved under
//! assumptions was measured against it and lost; see docs/solving.md.)

pub(crate) mod cadical;
pub(crate) mod encode;
#[cfg(test)]
mod tests;

use super::parallel::shared::{Found, Goal};
use super::{Engine, Stats, Termination};
use crate::model::Domain;
use crate::model::Model;
use cadical::Flavour;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// Solves `model` from the propagated `domains` with `threads` SAT solvers (a portfolio)
/// racing `rival_search` (the depth-first workers, given a goal that stops them when a SAT
/// solver wins), if any. The first side to finish its job wins and stops the other.
/// While `waiting` (work queued for a thread) is above zero, everything but the first SAT
/// solver, which runs on the calling thread, gives its thread back.
pub(crate) fn race<F>(
    model: &Model,
    domains: &[Domain],
    goal: Goal<'_>,
    threads: usize,
    waiting: Option<&Arc<AtomicUsize>>,
    rival_search: Option<F>,
) -> Found
where
    F: FnOnce(Goal<'_>) -> Found + Send,
{
    let cnf = encode::encode(model, domains);
    let stop = Arc::new(AtomicBool::new(false));
    // Every side's result, in the order they finished.
    let results: Mutex<Vec<Found>> = Mutex::new(Vec::new());
    let finish = |found: Found| {
        if found.stopped.is_none() {
            stop.store(true, Ordering::SeqCst);
        }
        results.lock().unwrap_or_else(PoisonError::into_inner).push(found);
    };
    rayon::scope(|scope| {
        if let Some(search) = rival_search {
            let (stop, finish) = (&stop, &finish);
            scope.spawn(move |_| {
                let waiting = waiting.map(|count| &**count);
                let termination = Termination { rival: Some(stop), waiting, ..goal.termination };
                let mut found = search(Goal { termination, ..goal });
                found.engine = Engine::Search;
                finish(found);
            });
        }
        for worker in 1..threads {
            let (cnf, stop, finish) = (&cnf, &stop, &finish);
            scope.spawn(move |_| {
                let flavour = Flavour { seed: worker as u32, waiting: waiting.cloned() };
                finish(cadical::enumerate(cnf, goal, stop, goal.termination.node_limit, flavour));
            });
        }
        // The first solver runs on this thread, so the SAT side always makes progress
        // even when every other thread of the pool is busy.
        finish(cadical::enumerate(
            &cnf,
            goal,
            &stop,
            goal.termination.node_limit,
            Flavour::default(),
        ));
    });
    let results = results.into_inner().unwrap_or_else(PoisonError::into_inner);
    let mut stats = Stats::default();
    for found in &results {
        stats += found.stats;
    }
    // The first to finish its job, else the first to stop for a reason of the caller's
    // (a helper that gave its thread back says nothing about the puzzle).
    let pick = results
        .iter()
        .position(|f| f.stopped.is_none())
        .or_else(|| results.iter().position(|f| !f.yielded))
        .unwrap_or(0);
    let mut found = results.into_iter().nth(pick).unwrap_or_default();
    found.stats = stats;
    found
}
