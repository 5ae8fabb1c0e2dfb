//! The search alone and the SAT engine side by side, on a region or piece that the SAT
//! engine would take on next, when one solution is asked for on more than one thread.
//!
//! Most regions are answered by the search alone within its first nodes; a few give up
//! after them, and the SAT engine then starts from nothing: on 16 cores the slowest band
//! of a 300x300 grid, the one the pieces beside it wait for, spent 20 to 40 ms in the
//! search before the SAT engine began. So the SAT engine is offered to the pool as a job
//! of its own as the search begins. A thread with nothing else to do takes it and races
//! the search, and the first to answer stops the other; where no thread is free, this
//! thread takes the job itself once the search gave up, as before, or drops it unbegun
//! where the search answered. Only regions that would not be cut again go this way
//! ([`regions::cut_again`]), and only where one solution is asked for: the even regions
//! of `first` and of `unique`, and the pieces of `first`. Which engine answers may depend
//! on the threads, and so may the solution, which `first` and `unique` allow; a piece of
//! `unique` asks for two, and the SAT engine is not raced for a second.

use super::{Crew, Scope, race, regions, search_first};
use crate::model::{Domain, Model};
use crate::solver::goal::{Found, Goal};
use crate::solver::search::{Search, Subproblem};
use crate::solver::termination::{Abandon, Termination, work_waits};
use crate::solver::{Stats, StopReason};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

/// Whether the search alone and the SAT engine race on this region (`scope`, at `domains`)
/// for `goal`, with the threads of `crew` (the caller's, not the region's one): not while
/// other work waits for a thread (a daemon's next file), which the job would keep waiting.
pub(super) fn races(scope: Scope, domains: &[Domain], crew: Crew<'_>, goal: Goal<'_>) -> bool {
    let cut_again = scope == Scope::Region && regions::cut_again(domains);
    goal.target == 1
        && crew.threads > 1
        && matches!(scope, Scope::Region | Scope::SubRegion)
        && !cut_again
        && !work_waits(crew.waiting)
}

/// The search alone (within its first nodes) and the SAT engine, each on one thread
/// (`crew`, the region's), on the propagated `root`: the answer of the first to give one.
pub(super) fn search_or_sat(
    model: &Model,
    search: &mut Search<'_>,
    root: &Subproblem,
    crew: Crew<'_>,
    goal: Goal<'_>,
) -> Found {
    let answered = Abandon::within(goal.termination.abandon);
    let termination = Termination { abandon: Some(&answered), ..goal.termination };
    let raced = Goal { termination, ..goal };
    let by_sat: Mutex<Option<Found>> = Mutex::new(None);
    // Raising the flag first is what wins: the side it stops also ends without a reason
    // of the caller's, as if it had finished (a search stopped so reports no solution).
    let sat_won = AtomicBool::new(false);
    let (by_search, tried, search_won) = rayon::in_place_scope(|scope| {
        scope.spawn(|_| {
            // Dropped unbegun when the search answered before a thread took it.
            if answered.is_raised() {
                return;
            }
            let found = race::sat_alone(model, &root.domains, raced, crew);
            if found.stopped.is_none() && !answered.raise() {
                sat_won.store(true, Ordering::SeqCst);
            }
            *by_sat.lock().unwrap_or_else(PoisonError::into_inner) = Some(found);
        });
        let (settled, tried) = search_first(model, search, root, crew, raced);
        let finished = settled.as_ref().is_some_and(|found| found.stopped.is_none());
        let won = finished && !answered.raise();
        (settled, tried, won)
    });
    let by_sat = by_sat.into_inner().unwrap_or_else(PoisonError::into_inner);
    let winner = if search_won {
        Side::Search
    } else if sat_won.load(Ordering::SeqCst) {
        Side::Sat
    } else {
        Side::Neither
    };
    taken(winner, by_search, by_sat, tried)
}

/// Which side answered first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Search,
    Sat,
    /// Neither: the search gave up, and the SAT engine was stopped by the caller's limit
    /// or cancel (or both were).
    Neither,
}

/// The answer of the race: the winner's, with the statistics of both sides (`tried`, the
/// search's). Where neither won, the search's where it stopped, else the SAT engine's.
fn taken(winner: Side, by_search: Option<Found>, by_sat: Option<Found>, tried: Stats) -> Found {
    let sat_stats = by_sat.as_ref().map(|found| found.stats).unwrap_or_default();
    let mut found = match (winner, by_search, by_sat) {
        (Side::Search, Some(found), _) => found,
        (Side::Sat, _, Some(found)) | (Side::Neither, None, Some(found)) => {
            Found { stats: tried, ..found }
        }
        (_, Some(found), _) => Found { stats: tried, ..found },
        (_, None, _) => {
            Found { stopped: Some(StopReason::Cancelled), stats: tried, ..Found::default() }
        }
    };
    found.stats += sat_stats;
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(count: u64, stopped: Option<StopReason>) -> Found {
        let solutions = (0..count).map(|_| vec![1]).collect();
        Found { solutions, count, stopped, ..Found::default() }
    }

    #[test]
    fn only_a_search_for_one_solution_races_on_more_than_one_thread() {
        use crate::solver::portfolio::tests::Setup;
        let setup = Setup::default();
        let domains = vec![Domain::range(1, 9); 12];
        let goals_of = |target| regions::pipeline_goals(setup.goal(target));
        for threads in [1, 2] {
            let crew = setup.crew(threads);
            let racing = |goal| races(Scope::Region, &domains, crew, goal);
            assert_eq!(racing(setup.goal(1)), threads > 1, "{threads} threads");
            // The even regions, of `first` and of `unique`: one solution each.
            assert_eq!(racing(goals_of(1).0), threads > 1, "{threads} threads");
            assert_eq!(racing(goals_of(2).0), threads > 1, "{threads} threads");
            assert_eq!(racing(goals_of(1).1), threads > 1, "{threads} threads");
            // The pieces of `unique` look for a second solution.
            assert!(!racing(goals_of(2).1), "{threads} threads");
            assert!(!racing(setup.goal(2)), "{threads} threads");
        }
    }

    #[test]
    fn the_side_stopped_by_the_winner_is_never_taken_for_an_answer() {
        let tried = Stats::default();
        // The SAT engine won; the search, stopped by it, reports no solution and no reason.
        let found = taken(Side::Sat, Some(answer(0, None)), Some(answer(1, None)), tried);
        assert_eq!((found.count, found.stopped), (1, None));
        // The search won; the SAT engine, stopped by it, reports no solution either.
        let found = taken(Side::Search, Some(answer(1, None)), Some(answer(0, None)), tried);
        assert_eq!((found.count, found.stopped), (1, None));
        // The search proved the region has no solution: that is the answer.
        let found = taken(Side::Search, Some(answer(0, None)), None, tried);
        assert_eq!((found.count, found.stopped), (0, None));
        // The caller's deadline stopped both, or the search gave up and the SAT engine was
        // stopped: never an answer.
        let late = Some(StopReason::Timeout);
        let found = taken(Side::Neither, Some(answer(0, late)), Some(answer(0, late)), tried);
        assert_eq!(found.stopped, late);
        let found = taken(Side::Neither, None, Some(answer(0, late)), tried);
        assert_eq!(found.stopped, late);
        let found = taken(Side::Neither, None, None, tried);
        assert!(found.stopped.is_some());
    }
}
