//! Parallel search: split the problem and race the parts on the rayon pool.
//!
//! Brief overview of one solve:
//! 1. root propagation, then a short sequential *probe* (a few thousand nodes): most
//!    puzzles are solved there, and are never split, so they cost no more than on one
//!    thread;
//! 2. otherwise, except in `count` mode, the propagated problem is cut into independent
//!    parts (`components`: the connected components of the open variables through the
//!    constraints), solved one after the other, each with all threads, and put together;
//! 3. each part is searched either by the `race` (one task on the root, which donates its
//!    shallowest open choice point whenever a thread is idle; exhaustive, so it serves
//!    `unique` and `count` and proves the absence of solutions) or, for `first` on a
//!    heuristic variable order, by `restarts` (randomized restarts on every thread, which
//!    escape the big failing subtrees a single depth-first search can sink into).
//!
//! All workers share one solution counter (`shared`): `first` stops everything at the
//! first solution, `unique` at the second, `count` at the count limit, exactly; the
//! caller's cancel flag, deadline and node limit are checked against the shared counters.
//! The answer does not depend on the thread count; which solution `first` reports may.

pub(crate) mod components;
mod race;
mod restarts;
pub(crate) mod shared;

use super::sat;
use super::search::{Driver, Search, Subproblem};
use super::termination::{self, Termination};
use super::{
    Algorithm, Control, Engine, Mode, Outcome, Progress, SolveOptions, Stats, StopReason, VarOrder,
};
use crate::model::Domain;
use crate::model::Model;
use shared::{Found, Goal, Shared};
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::Instant;

/// Nodes searched sequentially before anything is split.
const PROBE_NODES: u64 = 2_000;
/// Node budget of a restart with Luby factor 1.
const RESTART_NODES: u64 = 2_000;

/// The number of threads `requested` stands for (0 = all cores).
pub fn effective_threads(requested: usize) -> usize {
    if requested == 0 { rayon::current_num_threads().max(1) } else { requested }
}

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
        target: termination::solution_target(options),
        termination: Termination::new(options, start, control),
        live,
    };
    let threads = threads.max(1);
    let mut found = solve_model(model, options, threads, goal, control.waiting, true);
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

/// Root propagation, then for the `whole` problem the probe and the parts (or the whole
/// at once), as the module docs say; a part (`whole` false) is searched directly.
fn solve_model(
    model: &Model,
    options: &SolveOptions,
    threads: usize,
    goal: Goal<'_>,
    waiting: Waiting<'_>,
    whole: bool,
) -> Found {
    let mut search = Search::new(model, options);
    let Some(root) = search.root() else {
        return Found { stats: counted(search.stats()), ..Found::default() };
    };
    if options.algorithm == Algorithm::Sat {
        let mut found = sat::race(model, &root.domains, goal, threads, waiting, NO_SEARCH);
        found.stats += counted(search.stats());
        return found;
    }
    if !whole {
        // The whole problem was probed already.
        let mut found = search_whole(model, options, threads, goal, waiting, root);
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
            solve_parts(model, options, threads, goal, waiting, &root.domains, &parts)
        } else {
            search_whole(model, options, threads, goal, waiting, root)
        }
    } else {
        search_whole(model, options, threads, goal, waiting, root)
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

    fn progress(&self) -> Option<&Progress> {
        self.shared.progress()
    }
}

/// Searches the whole (propagated) problem: the depth-first workers (restarts for `first`
/// on a heuristic order, the race otherwise), raced by the SAT engine where the algorithm
/// and mode call for it. On one thread the SAT engine takes over alone: the probe has
/// shown the problem is not easy, and clause learning is what answers hard grids.
fn search_whole(
    model: &Model,
    options: &SolveOptions,
    threads: usize,
    goal: Goal<'_>,
    waiting: Waiting<'_>,
    root: Subproblem,
) -> Found {
    if !options.algorithm.uses_sat(options.mode) {
        return depth_first(model, options, threads, goal, waiting.map(|count| &**count), root);
    }
    let sat_threads = threads.div_ceil(2);
    let search_threads = threads - sat_threads;
    let domains = root.domains.clone();
    if search_threads == 0 {
        return sat::race(model, &domains, goal, sat_threads, waiting, NO_SEARCH);
    }
    // The rival gives all its threads back while work waits (`Goal::waiting`).
    let search =
        move |goal: Goal<'_>| depth_first(model, options, search_threads, goal, None, root);
    sat::race(model, &domains, goal, sat_threads, waiting, Some(search))
}

/// The caller's count of work waiting for a thread, if it keeps one (see [`Control`]).
type Waiting<'a> = Option<&'a Arc<AtomicUsize>>;

/// No depth-first rival for the SAT engine.
const NO_SEARCH: Option<fn(Goal<'_>) -> Found> = None;

/// The depth-first workers on the whole (propagated) problem: restarts for `first` on a
/// heuristic order, the race otherwise (which splits nothing off while `waiting` is above
/// zero; the pieces already split off are searched to their end).
fn depth_first(
    model: &Model,
    options: &SolveOptions,
    threads: usize,
    goal: Goal<'_>,
    waiting: Option<&AtomicUsize>,
    root: Subproblem,
) -> Found {
    if goal.target == 1 && options.var_order != VarOrder::InputOrder {
        let plan = restarts::Plan { threads, base_nodes: RESTART_NODES, waiting };
        restarts::run(model, &root.domains, options, plan, Shared::new(goal))
    } else {
        let split = race::Split { threads, probe_nodes: 0, waiting };
        race::run(model, options, split, goal, root)
    }
}

/// Solves the independent parts one after the other and puts the answers together: the
/// whole has as many solutions as the product of the parts' counts, capped at the target.
fn solve_parts(
    model: &Model,
    options: &SolveOptions,
    threads: usize,
    goal: Goal<'_>,
    waiting: Waiting<'_>,
    domains: &[Domain],
    parts: &[components::Component],
) -> Found {
    let mut base: Vec<u32> = domains.iter().map(|d| d.value().unwrap_or(0)).collect();
    let mut stats = Stats::default();
    let mut engine = Engine::Search;
    // `second` keeps another solution of the whole once one part has shown two.
    let mut second: Option<(usize, Vec<u32>)> = None;
    for (index, part) in parts.iter().enumerate() {
        let target = if second.is_some() { 1 } else { goal.target };
        let part_goal = Goal { target, termination: goal.termination.after(stats.nodes), ..goal };
        let found = solve_model(&part.model, options, threads, part_goal, waiting, false);
        stats += found.stats;
        if found.engine == Engine::Sat {
            engine = Engine::Sat;
        }
        if found.stopped.is_some() || found.count == 0 {
            let stopped = found.stopped;
            return Found {
                solutions: Vec::new(),
                count: 0,
                stopped,
                stats,
                engine,
                yielded: false,
            };
        }
        components::place(part, &found.solutions[0], &mut base);
        if second.is_none() && found.count > 1 {
            second = found.solutions.get(1).map(|s| (index, s.clone()));
        }
    }
    let mut solutions = vec![base.clone()];
    if let Some((index, values)) = second {
        let mut other = base;
        components::place(&parts[index], &values, &mut other);
        solutions.push(other);
    }
    debug_assert!(solutions.iter().all(|s| model.is_satisfied_by(s)));
    Found { count: solutions.len() as u64, solutions, stopped: None, stats, engine, yielded: false }
}
