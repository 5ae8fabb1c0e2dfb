//! The split: subproblems of one depth-first search run as tasks on the rayon pool.
//!
//! Work is split on demand rather than up front: one task starts on the root subproblem,
//! and once the searches have run past a small node budget (so a trivial puzzle is never
//! split), a running search donates its shallowest open choice point whenever fewer than
//! `threads` tasks are active; each donation becomes a new task. The first split is
//! therefore at the root's branching variable, and later ones wherever work remains, so
//! the threads stay busy however uneven the branches are. Tasks never block, and
//! `rayon::scope` returns only when every task has finished, so no work outlives the split.

use super::shared::{Shared, WorkerGuard};
use crate::model::Model;
use crate::solver::SolveOptions;
use crate::solver::goal::{Found, Goal};
use crate::solver::search::{Driver, Search, Subproblem};
use crate::solver::termination::{Waiting, work_waits};
use crate::solver::{Progress, StopReason};
use std::sync::atomic::{AtomicUsize, Ordering};

/// How the work is split.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan<'a> {
    /// At most this many tasks run at once.
    pub threads: usize,
    /// Nodes searched (over all tasks) before the first split.
    pub probe_nodes: u64,
    /// Split nothing off while work waits for a thread.
    pub waiting: Waiting<'a>,
}

/// The tasks searching one model's subproblems.
struct Tasks<'a> {
    model: &'a Model,
    options: &'a SolveOptions,
    plan: Plan<'a>,
    shared: Shared<'a>,
    /// Tasks spawned and not yet finished.
    active: AtomicUsize,
}

/// Searches `root` of `model` on up to `plan.threads` tasks until `goal` is met or the
/// subproblem is exhausted.
pub(crate) fn run(
    model: &Model,
    options: &SolveOptions,
    plan: Plan<'_>,
    goal: Goal<'_>,
    root: Subproblem,
) -> Found {
    let tasks =
        Tasks { model, options, plan, shared: Shared::new(goal), active: AtomicUsize::new(1) };
    rayon::scope(|scope| tasks.task(scope, root));
    tasks.shared.into_found()
}

impl Tasks<'_> {
    /// Searches one subproblem; donations from this search become new tasks on `scope`.
    fn task<'s>(&'s self, scope: &rayon::Scope<'s>, sub: Subproblem) {
        let _guard = WorkerGuard::new(&self.shared, Some(&self.active));
        if self.shared.quitting() {
            return;
        }
        let mut search = Search::new(self.model, self.options);
        let mut driver = TaskDriver { tasks: self, scope, reported: 0, local: 0 };
        search.run(sub, &mut driver);
        self.shared.add_found(driver.local);
        let mut stats = search.stats();
        stats.subproblems = 1;
        stats.largest_subproblem_nodes = stats.nodes;
        self.shared.add_stats(stats);
    }
}

/// The search loop's view of the split, for one task.
struct TaskDriver<'r, 's, 'a> {
    tasks: &'s Tasks<'a>,
    scope: &'r rayon::Scope<'s>,
    /// Nodes of this task's search already added to the shared count.
    reported: u64,
    /// Solutions counted here and not yet added to the shared count.
    local: u64,
}

impl Driver for TaskDriver<'_, '_, '_> {
    fn on_solution(&mut self, values: &[u32]) -> bool {
        self.tasks.shared.record_batched(values, &mut self.local)
    }

    fn poll(&mut self, nodes: u64) -> Option<StopReason> {
        let delta = nodes.saturating_sub(self.reported);
        self.reported = self.reported.max(nodes);
        let total = self.tasks.shared.add_nodes(delta);
        self.tasks.shared.check(total)
    }

    fn nodes_left(&self, nodes: u64) -> Option<u64> {
        let unreported = nodes.saturating_sub(self.reported);
        self.tasks.shared.nodes_left(self.tasks.shared.nodes() + unreported)
    }

    fn progress(&self) -> Option<&Progress> {
        self.tasks.shared.progress()
    }

    fn wants_work(&self) -> bool {
        let tasks = self.tasks;
        tasks.active.load(Ordering::Relaxed) < tasks.plan.threads
            && tasks.shared.nodes() >= tasks.plan.probe_nodes
            && !tasks.shared.quitting()
            && !work_waits(tasks.plan.waiting)
    }

    fn donate(&mut self, sub: Subproblem) {
        let tasks = self.tasks;
        tasks.active.fetch_add(1, Ordering::SeqCst);
        self.scope.spawn(move |scope| tasks.task(scope, sub));
    }
}
