//! The portfolio: how the engines are put to work on one solve. The depth-first search
//! ([`search`](super::search)) and the SAT engine (`sat`) know nothing of each other;
//! this module runs them, alone or side by side, splits the work across the rayon pool,
//! restarts, and lends threads back to the caller's queue.
//!
//! Brief overview of one solve:
//! 1. root propagation, then a short sequential *probe* (a few thousand nodes): most
//!    puzzles are solved there, and are never split, so they cost no more than on one
//!    thread;
//! 2. otherwise the propagated problem is cut into independent parts (`components`: the
//!    connected components of the open variables through the constraints), solved side by
//!    side, a thread each, largest first (one after the other, each with all threads,
//!    under a node limit), and put together (`parts`; in `count` mode their counts
//!    multiply, and each is asked for only as many solutions as the limit needs: `count`); a
//!    part (or a whole) too large for one solver to be quick on is cut into `regions`,
//!    bands solved in two rounds side by side, for `first` and `unique`, and the pieces
//!    left without a completion opened wider in `repair` rounds;
//! 3. under `mac`, a part too small for regions, and each region and piece, is first
//!    tried by the depth-first search alone on one thread, within a node budget: most are
//!    easy, and the search answers them many times sooner than the SAT engine encodes
//!    them; a region its propagation left in independent pieces is solved as those, and
//!    one still too hard is cut again into sub-regions before the SAT engine takes it
//!    (for one solution on more than one thread, an idle thread may start the SAT engine
//!    beside the search: `beside`);
//! 4. otherwise each part is searched by the engines the algorithm names (`race`): the depth-first
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
//! The verdict and the count do not depend on the thread count; which solutions are
//! reported may.

mod beside;
pub(crate) mod components;
mod count;
mod cubes;
mod early;
mod graph;
mod parts;
mod pipeline;
mod race;
mod regions;
mod repair;
mod restarts;
mod shared;
mod span;
mod split;
#[cfg(test)]
mod tests;

use super::goal::{Found, Goal, solution_target};
use super::search::{Driver, Search, Subproblem};
use super::technique::Engines;
use super::termination::{Termination, Waiting};
use super::{Control, Mode, Outcome, Progress, SolveOptions, Stats, StopReason, VarOrder};
use crate::model::Model;
use shared::Shared;
use std::sync::atomic::AtomicUsize;
use std::time::Instant;

/// Nodes searched sequentially before anything is split.
const PROBE_NODES: u64 = 2_000;

/// Nodes the search alone may take on a part or region before the engines race on it.
const FIRST_SEARCH_NODES: u64 = 10_000;

/// The same when two solutions are asked for, which the plain search looks for: it finds
/// a piece's first solution within a few hundred nodes, but proving that there is no
/// second takes it far longer than the SAT engine. With 10,000 nodes, as for one solution,
/// `unique` took a quarter longer on large grids, on one thread and on two.
const SECOND_SEARCH_NODES: u64 = 2_000;

/// The node budget of the first of a part's or region's restarts (Luby factor 1).
const FIRST_RESTART_NODES: u64 = 2_000;

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
    let termination = Termination::new(options, start, control);
    let goal = Goal::new(solution_target(options), termination, live);
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

/// What [`solve_model`] is given: the whole problem, an independent part of it, a region
/// of a part (or a piece of the second round), or a region of a region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scope {
    Whole,
    Part,
    Region,
    SubRegion,
}

/// Root propagation, then for the `Whole` problem the probe and the parts (or the whole
/// at once), as the module docs say; a `Part` is cut into regions when it is large enough,
/// else searched directly, as a `Region` is, unless the search alone cannot answer it
/// quickly: then a large one is cut again, into sub-regions solved side by side on the
/// crew's idle threads. A region's own engines run on one thread, so that its answer does
/// not depend on the thread count.
fn solve_model(model: &Model, crew: Crew<'_>, goal: Goal<'_>, scope: Scope) -> Found {
    let options = crew.options;
    let cut_crew = crew;
    let crew = match scope {
        Scope::Region | Scope::SubRegion => Crew { threads: 1, ..crew },
        Scope::Whole | Scope::Part => crew,
    };
    let engines = options.algorithm.engines(options.mode);
    // A part comes propagated (the whole's fixpoint, restricted to it): one large enough is
    // cut into regions as it is, without propagating it again.
    if scope == Scope::Part
        && engines != Engines::Search
        && let Some(found) = regions::solve(model, &model.domains, crew, goal)
    {
        return found;
    }
    let begun = Instant::now();
    let mut search = Search::new(model, options);
    let root = search.root();
    if scope == Scope::Whole {
        tracing::debug!(ms = span::ms(begun.elapsed()), "root propagation");
    }
    let Some(root) = root else {
        return Found { stats: counted(search.stats()), ..Found::default() };
    };
    if engines == Engines::Sat {
        let mut found = race::sat_alone(model, &root.domains, goal, crew);
        found.stats += counted(search.stats());
        return found;
    }
    if scope != Scope::Whole {
        // The whole problem was probed already. A region that its propagation left in
        // independent pieces is solved as they are: the search thrashes between them.
        if scope == Scope::Region && engines == Engines::SearchAndSat {
            let pieces = components::split(model, &root.domains);
            if pieces.len() > 1 {
                let sub = Scope::SubRegion;
                let mut found = parts::solve(model, cut_crew, goal, &root.domains, &pieces, sub);
                found.stats += search.stats();
                return found;
            }
        }
        // A part or region is tried by the search alone first, where that is quick.
        let mut tried = Stats::default();
        if searched_first(scope, engines, &root, goal) {
            if beside::races(scope, &root.domains, cut_crew, goal) {
                let mut found = beside::search_or_sat(model, &mut search, &root, crew, goal);
                found.stats += search.stats();
                return found;
            }
            let (settled, stats) = search_first(model, &mut search, &root, crew, goal);
            if let Some(mut found) = settled {
                found.stats += search.stats();
                return found;
            }
            tried = stats;
        }
        if scope == Scope::Region
            && let Some(mut found) = regions::solve_again(model, &root.domains, cut_crew, goal)
        {
            found.stats += tried;
            found.stats += search.stats();
            return found;
        }
        let mut found = race::run(model, crew, goal, root);
        found.stats += tried;
        found.stats += search.stats();
        return found;
    }
    let (probe, mut stats) = if skips_probe(&root, engines, goal) {
        (None, counted(search.stats()))
    } else {
        probe(&mut search, root.clone(), goal, PROBE_NODES)
    };
    if let Some(found) = probe {
        return found;
    }
    let goal = Goal { termination: goal.termination.after(stats.nodes), ..goal };
    let split = Instant::now();
    let parts = components::split(model, &root.domains);
    tracing::debug!(parts = parts.len(), ms = span::ms(split.elapsed()), "independent parts");
    let mut found = if options.mode == Mode::Count && !parts.is_empty() {
        count::solve(crew, goal, &root.domains, &parts)
    } else if parts.len() > 1 {
        parts::solve(model, crew, goal, &root.domains, &parts, Scope::Part)
    } else if engines != Engines::Search
        && let Some(found) = regions::solve(model, &root.domains, crew, goal)
    {
        found
    } else {
        race::run(model, crew, goal, root)
    };
    stats += found.stats;
    found.stats = stats;
    found
}

/// Whether the whole problem goes to its parts and regions without the probe: under `mac`,
/// for one solution or two, without the caller's node limit, where the root leaves
/// [`regions::LARGE_OPEN`] open variables or more. On so large a problem each of the
/// probe's nodes propagates over the whole (a tenth of a second on a 500x500 grid, on one
/// thread, before anything is split), and the search-first pass of its parts and regions
/// does the probe's job where the work is divided. Below it the probe stays: a grid it
/// answers (a 101x31 filling in 1,100 nodes) can cost several times more cut.
fn skips_probe(root: &Subproblem, engines: Engines, goal: Goal<'_>) -> bool {
    engines == Engines::SearchAndSat
        && goal.target <= 2
        && goal.termination.node_limit.is_none()
        && components::open_count(&root.domains) >= regions::LARGE_OPEN
}

/// Whether a part or region is tried by the depth-first search alone before the engines
/// race on it: under `mac` (search and SAT), for a region, or a part below
/// [`regions::LARGE_OPEN`] that was not cut, solved without the caller's node limit (which
/// counts the parts' nodes in order).
fn searched_first(scope: Scope, engines: Engines, root: &Subproblem, goal: Goal<'_>) -> bool {
    if engines != Engines::SearchAndSat {
        return false;
    }
    match scope {
        Scope::Whole => false,
        Scope::Region | Scope::SubRegion => true,
        Scope::Part => {
            goal.termination.node_limit.is_none()
                && components::open_count(&root.domains) < regions::LARGE_OPEN
        }
    }
}

/// The depth-first search alone on a part or region, within [`FIRST_SEARCH_NODES`]: one
/// thread of randomized restarts when one solution is wanted, the plain search (which can
/// prove a second solution absent) within [`SECOND_SEARCH_NODES`] otherwise. Most regions
/// of a large grid are easy, and the search answers them ten to thirty times sooner than
/// the SAT engine encodes and loads their formula; on one thread, and seeded alike, so
/// that its answer does not depend on the thread count. `Some` when that settled the
/// question; its statistics either way.
fn search_first(
    model: &Model,
    search: &mut Search<'_>,
    root: &Subproblem,
    crew: Crew<'_>,
    goal: Goal<'_>,
) -> (Option<Found>, Stats) {
    let most = if goal.target == 1 { FIRST_SEARCH_NODES } else { SECOND_SEARCH_NODES };
    let limit = goal.termination.node_limit.map_or(most, |n| n.min(most));
    if goal.target == 1 && crew.options.var_order != VarOrder::InputOrder {
        let within = Goal {
            termination: Termination { node_limit: Some(limit), ..goal.termination },
            ..goal
        };
        let plan = restarts::Plan { threads: 1, base_nodes: FIRST_RESTART_NODES, waiting: None };
        let found = restarts::run(model, &root.domains, crew.options, plan, Shared::new(within));
        let stats = found.stats;
        let over = found.count == 0 && found.stopped == Some(StopReason::NodeLimit);
        return ((!over).then_some(found), stats);
    }
    probe(search, root.clone(), goal, limit)
}

/// The probe: the plain sequential search for `nodes` nodes. `Some` when that settled the
/// question (or a limit stopped it); the probe's statistics either way. Unsettled, its
/// solutions are taken back from the live count: what runs next starts again from the
/// root and meets them again.
fn probe(
    search: &mut Search<'_>,
    root: Subproblem,
    goal: Goal<'_>,
    nodes: u64,
) -> (Option<Found>, Stats) {
    let shared = Shared::new(goal);
    let mut driver = ProbeDriver { shared: &shared, nodes, over: false };
    search.run(root, &mut driver);
    let over = driver.over;
    let stats = counted(search.stats());
    if over && let Some(progress) = goal.termination.progress {
        progress.retract_solutions(stats.solutions);
    }
    let mut found = shared.into_found();
    found.stats = stats;
    ((!over).then_some(found), stats)
}

/// Runs `work` on `workers` threads of the pool at once: as `work(true)` on the helpers
/// spawned for it, and as `work(false)` on the caller's thread, which works too and never
/// gives itself back, so that the work is done even when every other thread of the pool
/// is busy.
fn side_by_side_on(workers: usize, work: impl Fn(bool) + Sync) {
    rayon::scope(|scope| {
        for _ in 1..workers {
            let work = &work;
            scope.spawn(move |_| work(true));
        }
        work(false);
    });
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
    /// The probe's own node budget.
    nodes: u64,
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
        if nodes >= self.nodes {
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
