//! The portfolio: how the engines are put to work on one solve. The depth-first search
//! ([`search`](super::search)) and the SAT engine (`sat`) know nothing of each other;
//! this module runs them, alone or side by side, splits the work across the rayon pool,
//! restarts, and lends threads back to the caller's queue.
//!
//! Brief overview of one solve:
//! 1. root propagation, then a short sequential *probe* (a few thousand nodes): most
//!    puzzles are solved there, and are never split, so they cost no more than on one
//!    thread;
//! 2. otherwise, except in `count` mode, the propagated problem is cut into independent
//!    parts (`components`: the connected components of the open variables through the
//!    constraints), solved side by side, a thread each, largest first (one after the
//!    other, each with all threads, under a node limit), and put together (`parts`); a
//!    part (or a whole) too large for one solver to be quick on is cut into `regions`,
//!    bands solved in two rounds side by side, for `first` and `unique`;
//! 3. each part is searched by the engines the algorithm names (`race`): the depth-first
//!    workers, the SAT engine, or both racing each other on half the threads each. The
//!    depth-first workers are either the `split` (one task on the root, which donates its
//!    shallowest open choice point whenever a thread is idle; exhaustive, so it serves
//!    `unique` and `count` and proves the absence of solutions) or, for `first` on a
//!    heuristic variable order, `restarts` (randomized restarts on every thread, which
//!    escape the big failing subtrees a single depth-first search can sink into).
//!
//! All depth-first workers share one solution counter (`shared`): `first` stops everything
//! at the first solution, `unique` at the second, `count` at the count limit, exactly; the
//! caller's cancel flag, deadline and node limit are checked against the shared counters.
//! The answer does not depend on the thread count; which solution `first` reports may.

pub(crate) mod components;
mod parts;
mod race;
mod regions;
mod restarts;
mod shared;
mod split;

use super::goal::{Found, Goal, solution_target};
use super::search::{Driver, Search, Subproblem};
use super::technique::Engines;
use super::termination::{Termination, Waiting};
use super::{Control, Mode, Outcome, Progress, SolveOptions, Stats, StopReason};
use crate::model::Model;
use shared::Shared;
use std::sync::atomic::AtomicUsize;
use std::time::Instant;

/// Nodes searched sequentially before anything is split.
const PROBE_NODES: u64 = 2_000;

/// Solves on `threads` threads (of the current rayon pool).
pub fn solve(
    model: &Model,
    options: &SolveOptions,
    threads: usize,
    control: Control<'_>,
) -> Outcome {
    solve_observed(model, options, threads, control, &AtomicUsize::new(0))
}

/// [`solve`], counting the running worker tasks in `live` (raised when a worker starts,
/// lowered when it ends, however it ends), so a caller can check that no work outlives
/// the call.
pub fn solve_observed(
    model: &Model,
    options: &SolveOptions,
    threads: usize,
    control: Control<'_>,
    live: &AtomicUsize,
) -> Outcome {
    let start = Instant::now();
    let goal = Goal {
        target: solution_target(options),
        termination: Termination::new(options, start, control),
        live,
    };
    let crew = Crew { options, threads: threads.max(1), waiting: control.waiting };
    let mut found = solve_model(model, crew, goal, Scope::Whole);
    found.stats.solve_time = start.elapsed();
    // Searches stopped by the target may have met solutions that were not counted.
    found.stats.solutions = found.count;
    Outcome {
        complete: found.stopped.is_none(),
        solutions: found.solutions,
        count: found.count,
        stopped: found.stopped,
        stats: found.stats,
        engine: found.engine,
    }
}

/// What the workers of one solve, or of one side of a race, are given: the options, the
/// threads they may use, and the caller's queue they give threads back to.
#[derive(Clone, Copy)]
struct Crew<'a> {
    options: &'a SolveOptions,
    threads: usize,
    waiting: Waiting<'a>,
}

/// What [`solve_model`] is given: the whole problem, an independent part of it, or a
/// region of a part.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    Whole,
    Part,
    Region,
}

/// Root propagation, then for the `Whole` problem the probe and the parts (or the whole
/// at once), as the module docs say; a `Part` is cut into regions when it is large enough,
/// else searched directly, as a `Region` is.
fn solve_model(model: &Model, crew: Crew<'_>, goal: Goal<'_>, scope: Scope) -> Found {
    let options = crew.options;
    let mut search = Search::new(model, options);
    let Some(root) = search.root() else {
        return Found { stats: counted(search.stats()), ..Found::default() };
    };
    let engines = options.algorithm.engines(options.mode);
    if scope == Scope::Part
        && engines != Engines::Search
        && let Some(mut found) = regions::solve(model, &root.domains, crew, goal)
    {
        found.stats += search.stats();
        return found;
    }
    if engines == Engines::Sat {
        let mut found = race::sat_alone(model, &root.domains, goal, crew);
        found.stats += counted(search.stats());
        return found;
    }
    if scope != Scope::Whole {
        // The whole problem was probed already.
        let mut found = race::run(model, crew, goal, root);
        found.stats += search.stats();
        return found;
    }
    let (probe, mut stats) = probe(&mut search, root.clone(), goal);
    if let Some(found) = probe {
        return found;
    }
    // The search below starts again from the root and meets the probe's solutions again.
    if let Some(progress) = goal.termination.progress {
        progress.retract_solutions(stats.solutions);
    }
    let goal = Goal { termination: goal.termination.after(stats.nodes), ..goal };
    let mut found = if options.mode != Mode::Count {
        let parts = components::split(model, &root.domains);
        if parts.len() > 1 {
            parts::solve(model, crew, goal, &root.domains, &parts)
        } else if engines != Engines::Search
            && let Some(found) = regions::solve(model, &root.domains, crew, goal)
        {
            found
        } else {
            race::run(model, crew, goal, root)
        }
    } else {
        race::run(model, crew, goal, root)
    };
    stats += found.stats;
    found.stats = stats;
    found
}

/// The probe: the plain sequential search for [`PROBE_NODES`] nodes. `Some` when that
/// settled the question (or a limit stopped it); the probe's statistics either way.
fn probe(search: &mut Search<'_>, root: Subproblem, goal: Goal<'_>) -> (Option<Found>, Stats) {
    let shared = Shared::new(goal);
    let mut driver = ProbeDriver { shared: &shared, over: false };
    search.run(root, &mut driver);
    let over = driver.over;
    let stats = counted(search.stats());
    let mut found = shared.into_found();
    found.stats = stats;
    ((!over).then_some(found), stats)
}

/// Statistics of one sequential search, counted as one subproblem.
fn counted(mut stats: Stats) -> Stats {
    stats.subproblems = 1;
    stats.largest_subproblem_nodes = stats.nodes;
    stats
}

/// The probe's driver: the shared checks plus the probe's own node budget.
struct ProbeDriver<'s, 'a> {
    shared: &'s Shared<'a>,
    over: bool,
}

impl Driver for ProbeDriver<'_, '_> {
    fn on_solution(&mut self, values: &[u32]) -> bool {
        self.shared.record(values)
    }

    fn poll(&mut self, nodes: u64) -> Option<StopReason> {
        if let Some(reason) = self.shared.check(nodes) {
            return Some(reason);
        }
        if nodes >= PROBE_NODES {
            self.over = true;
            return Some(StopReason::NodeLimit);
        }
        None
    }

    fn nodes_left(&self, nodes: u64) -> Option<u64> {
        self.shared.nodes_left(nodes)
    }

    fn progress(&self) -> Option<&Progress> {
        self.shared.progress()
    }
}
