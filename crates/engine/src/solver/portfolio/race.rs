//! The engines side by side on one propagated problem: the depth-first workers alone, the
//! SAT engine alone (a portfolio of differently seeded solvers on the same formula), or
//! both racing, the first to finish its job stopping the other through the shared rival
//! flag of their [`Termination`]s.
//!
//! While work waits for a thread (`waiting`), every helper gives its thread back: all but
//! the first SAT solver, which runs on the calling thread, and the depth-first rival with
//! all its workers. (Splitting the formula into cubes solved under assumptions was measured
//! against the portfolio and lost; see docs/solving.md.)

use super::shared::Shared;
use super::{Crew, restarts, split};
use crate::model::{Domain, Model};
use crate::solver::goal::{Found, Goal};
use crate::solver::sat;
use crate::solver::search::Subproblem;
use crate::solver::technique::Engines;
use crate::solver::termination::Termination;
use crate::solver::{Engine, Stats, VarOrder};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// Node budget of a restart with Luby factor 1.
const RESTART_NODES: u64 = 2_000;

/// Searches the (propagated) problem at `root` with the engines the algorithm names: the
/// depth-first workers, raced by the SAT engine on half the threads where the algorithm
/// and mode call for it. On one thread the SAT engine takes over alone: the probe has
/// shown the problem is not easy, and clause learning is what answers hard grids.
pub(super) fn run(model: &Model, crew: Crew<'_>, goal: Goal<'_>, root: Subproblem) -> Found {
    let options = crew.options;
    if options.algorithm.engines(options.mode) == Engines::Search {
        return depth_first(model, crew, goal, root);
    }
    both(model, crew, goal, root)
}

/// The SAT engine on half the crew's threads (all of one) racing the depth-first workers on
/// the rest, whatever the mode: also for a count, where the SAT engine blocks each solution
/// it finds and proves the rest absent with what it learnt.
pub(super) fn both(model: &Model, crew: Crew<'_>, goal: Goal<'_>, root: Subproblem) -> Found {
    let sat_threads = crew.threads.div_ceil(2);
    let search_threads = crew.threads - sat_threads;
    let sat = Crew { threads: sat_threads, ..crew };
    let domains = root.domains.clone();
    if search_threads == 0 {
        return sat_alone(model, &domains, goal, sat);
    }
    // The rival gives all its threads back while work waits (its termination's `waiting`).
    let rival = Crew { threads: search_threads, waiting: None, ..crew };
    let search = move |goal: Goal<'_>| depth_first(model, rival, goal, root);
    race(model, &domains, goal, sat, Some(search))
}

/// The SAT engine alone on the crew's threads, from the propagated `domains`.
pub(super) fn sat_alone(
    model: &Model,
    domains: &[Domain],
    goal: Goal<'_>,
    crew: Crew<'_>,
) -> Found {
    race(model, domains, goal, crew, NO_SEARCH)
}

/// No depth-first rival for the SAT engine.
const NO_SEARCH: Option<fn(Goal<'_>) -> Found> = None;

/// The depth-first workers on the (propagated) problem: restarts for `first` on a
/// heuristic order, the split otherwise (which splits nothing off while work waits; the
/// pieces already split off are searched to their end).
fn depth_first(model: &Model, crew: Crew<'_>, goal: Goal<'_>, root: Subproblem) -> Found {
    let Crew { options, threads, waiting } = crew;
    if goal.target == 1 && options.var_order != VarOrder::InputOrder {
        let plan = restarts::Plan { threads, base_nodes: RESTART_NODES, waiting };
        restarts::run(model, &root.domains, options, plan, Shared::new(goal))
    } else {
        let plan = split::Plan { threads, probe_nodes: 0, waiting };
        split::run(model, options, plan, goal, root)
    }
}

/// Solves `model` from the propagated `domains` with a SAT solver on each of the `sat`
/// crew's threads (a portfolio) racing `rival_search` (the depth-first workers, given a
/// goal that stops them when a SAT solver wins), if any. The first side to finish its job
/// wins and stops the other.
fn race<F>(
    model: &Model,
    domains: &[Domain],
    goal: Goal<'_>,
    sat: Crew<'_>,
    rival_search: Option<F>,
) -> Found
where
    F: FnOnce(Goal<'_>) -> Found + Send,
{
    let cnf = sat::encode(model, domains);
    let stop = Arc::new(AtomicBool::new(false));
    // Every side's result, in the order they finished, and the winner's place among them:
    // the side that finished its job and raised `stop` first. A search stopped by `stop`
    // ends without a reason of its own, as if it had finished, and the SAT engine raises
    // `stop` on the caller's cancel flag and deadline too, so only the winner's answer is
    // one.
    let results: Mutex<(Vec<Found>, Option<usize>)> = Mutex::new((Vec::new(), None));
    let finish = |found: Found| {
        let mut results = results.lock().unwrap_or_else(PoisonError::into_inner);
        if found.stopped.is_none() && !stop.swap(true, Ordering::SeqCst) {
            results.1 = Some(results.0.len());
        }
        results.0.push(found);
    };
    // A helper: stopped by the rival flag and by waiting work.
    let helper = Goal {
        termination: Termination { rival: Some(&stop), waiting: sat.waiting, ..goal.termination },
        ..goal
    };
    rayon::scope(|scope| {
        if let Some(search) = rival_search {
            let finish = &finish;
            scope.spawn(move |_| {
                let mut found = search(helper);
                found.engine = Engine::Search;
                finish(found);
            });
        }
        for seed in 1..sat.threads {
            let (cnf, finish) = (&cnf, &finish);
            scope.spawn(move |_| finish(sat::solve(cnf, helper, seed as u32)));
        }
        // The first solver runs on this thread, so the SAT side always makes progress
        // even when every other thread of the pool is busy; it never gives its thread up.
        let first = Termination { waiting: None, ..helper.termination };
        finish(sat::solve(&cnf, Goal { termination: first, ..goal }, 0));
    });
    let (results, winner) = results.into_inner().unwrap_or_else(PoisonError::into_inner);
    let mut stats = Stats::default();
    for found in &results {
        stats += found.stats;
    }
    let pick = taken(&results, winner);
    let mut found = results.into_iter().nth(pick).unwrap_or_default();
    found.stats = stats;
    found
}

/// Which of the race's `results` is its answer: the `winner`'s, else the first that
/// stopped for a reason of the caller's (a helper that gave its thread back says nothing
/// about the puzzle, nor does a side that `stop` ended without a reason).
fn taken(results: &[Found], winner: Option<usize>) -> usize {
    let stopped = |f: &Found| f.stopped.is_some();
    winner
        .or_else(|| results.iter().position(|f| stopped(f) && !f.yielded))
        .or_else(|| results.iter().position(stopped))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::StopReason;

    fn ended(stopped: Option<StopReason>, yielded: bool) -> Found {
        Found { stopped, yielded, ..Found::default() }
    }

    #[test]
    fn the_winner_is_taken_and_never_a_side_the_flag_ended_without_a_reason() {
        // The SAT engine raised the flag on the caller's cancel flag: the search it ended
        // reports no reason, and finished before the engine's own answer.
        let flagged = || ended(None, false);
        let cancelled = || ended(Some(StopReason::Cancelled), false);
        let gave_back = || ended(Some(StopReason::Cancelled), true);
        assert_eq!(taken(&[flagged(), cancelled()], None), 1);
        assert_eq!(taken(&[gave_back(), flagged(), cancelled()], None), 2);
        assert_eq!(taken(&[flagged(), gave_back()], None), 1);
        // The side that finished its job first and raised the flag, wherever it finished.
        assert_eq!(taken(&[flagged(), ended(None, false)], Some(1)), 1);
        assert_eq!(taken(&[cancelled(), ended(None, false)], Some(1)), 1);
    }
}
