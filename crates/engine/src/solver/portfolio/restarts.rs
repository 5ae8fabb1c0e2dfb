//! Randomized restarts, raced across threads, for finding one solution.
//!
//! A depth-first search that makes one bad decision early can spend almost all of its time
//! in a big failing subtree (the heavy tail of find-first searches on large Kakuro grids).
//! Restarting with a different tie-breaking among equally good variables, under a growing
//! node budget (the Luby sequence, which is within a log factor of the best fixed budget),
//! escapes such subtrees. Each thread runs its own sequence of restarts with its own seed,
//! and the first solution found anywhere stops them all; the first run of the first thread
//! is the plain search, so an easy problem costs what it always did.
//!
//! Ties are broken differently by renumbering the variables at random: the variable orders
//! break ties by variable index, so a renumbered model is searched in another order while
//! the heuristic itself (smallest domain first, ...) is kept. The value order is flipped at
//! random too. A run that exhausts its budget-free search proves there is no solution.

use super::shared::{Shared, WorkerGuard};
use crate::model::{Constraint, Domain, Model};
use crate::solver::goal::Found;
use crate::solver::search::{Driver, Search};
use crate::solver::termination::{Waiting, work_waits};
use crate::solver::{Progress, SolveOptions, Stats, StopReason, ValOrder};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How the restarts are run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan<'a> {
    /// Independent restart sequences run at once.
    pub threads: usize,
    /// Node budget of a run with Luby factor 1.
    pub base_nodes: u64,
    /// Every sequence but the first ends while work waits for a thread.
    pub waiting: Waiting<'a>,
}

impl Plan<'_> {
    /// Whether the sequence of `worker` should give its thread back now.
    fn yields(&self, worker: usize) -> bool {
        worker > 0 && work_waits(self.waiting)
    }
}

/// Looks for one solution of `model` restricted to `domains` (already propagated), as
/// `plan` says; the goal in `shared` should have a target of one solution.
pub(crate) fn run(
    model: &Model,
    domains: &[Domain],
    options: &SolveOptions,
    plan: Plan<'_>,
    shared: Shared<'_>,
) -> Found {
    rayon::scope(|scope| {
        for worker in 0..plan.threads.max(1) {
            let shared = &shared;
            scope.spawn(move |_| restart_loop(model, domains, options, plan, shared, worker));
        }
    });
    shared.into_found()
}

/// One thread's sequence of restarts.
fn restart_loop(
    model: &Model,
    domains: &[Domain],
    options: &SolveOptions,
    plan: Plan<'_>,
    shared: &Shared<'_>,
    worker: usize,
) {
    let _guard = WorkerGuard::new(shared, None);
    let mut rng = ChaCha8Rng::seed_from_u64(worker as u64);
    let mut totals = Stats::default();
    for round in 1u64.. {
        if shared.quitting() || plan.yields(worker) {
            break;
        }
        let plain = worker == 0 && round == 1;
        let renumbered = Renumbered::new(model, domains, if plain { None } else { Some(&mut rng) });
        let mut run_options = options.clone();
        if !plain && rng.random_bool(0.5) {
            run_options.val_order = match options.val_order {
                ValOrder::Min => ValOrder::Max,
                ValOrder::Max => ValOrder::Min,
            };
        }
        let budget = plan.base_nodes.saturating_mul(luby(round));
        let mut search = Search::new(&renumbered.model, &run_options);
        let settled = match search.root() {
            None => true,
            Some(root) => {
                let mut driver = RestartDriver {
                    shared,
                    renumbered: &renumbered,
                    budget,
                    reported: 0,
                    over: false,
                    yields: || plan.yields(worker),
                };
                search.run(root, &mut driver);
                !driver.over
            }
        };
        let stats = search.stats();
        totals.largest_subproblem_nodes = totals.largest_subproblem_nodes.max(stats.nodes);
        totals += stats;
        totals.subproblems += 1;
        // Not over budget: a solution ended it, or the space is exhausted (no solution
        // anywhere, whatever the order), or the others were told to stop.
        if settled {
            shared.quit();
            break;
        }
    }
    shared.add_stats(totals);
}

/// The `i`-th term (from 1) of the Luby sequence: 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...
pub(crate) fn luby(mut i: u64) -> u64 {
    loop {
        let mut k = 1u32;
        while k < 63 && (1u64 << k) - 1 < i {
            k += 1;
        }
        if (1u64 << k) - 1 == i || k >= 63 {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// A copy of the model with its variables renumbered.
struct Renumbered {
    model: Model,
    /// `original[v]` is the variable of the given model that `v` stands for.
    original: Vec<usize>,
}

impl Renumbered {
    /// Renumbers at random with `rng`, or keeps the numbering when `rng` is `None`.
    fn new(model: &Model, domains: &[Domain], rng: Option<&mut ChaCha8Rng>) -> Self {
        let mut original: Vec<usize> = (0..domains.len()).collect();
        if let Some(rng) = rng {
            original.shuffle(rng);
        }
        let mut renamed = vec![0; original.len()];
        for (new, &old) in original.iter().enumerate() {
            renamed[old] = new;
        }
        let map = |vars: &[usize]| vars.iter().map(|&v| renamed[v]).collect::<Vec<_>>();
        let constraints = model
            .constraints
            .iter()
            .map(|c| match c {
                Constraint::Sum { vars, total } => {
                    Constraint::Sum { vars: map(vars), total: *total }
                }
                Constraint::AllDifferent { vars } => Constraint::AllDifferent { vars: map(vars) },
            })
            .collect();
        let domains = original.iter().map(|&old| domains[old]).collect();
        Renumbered { model: Model { domains, constraints }, original }
    }

    /// A solution of the renumbered model in the original numbering.
    fn restore(&self, values: &[u32]) -> Vec<u32> {
        let mut out = vec![0; values.len()];
        for (new, &old) in self.original.iter().enumerate() {
            out[old] = values[new];
        }
        out
    }
}

/// The search loop's view of one restart.
struct RestartDriver<'s, 'a, Y> {
    shared: &'s Shared<'a>,
    renumbered: &'s Renumbered,
    /// Nodes this run may use.
    budget: u64,
    /// Nodes of this run already added to the shared count.
    reported: u64,
    /// Set when the run stopped for its budget (or to give its thread back).
    over: bool,
    /// Whether to give the thread back now.
    yields: Y,
}

impl<Y: Fn() -> bool> Driver for RestartDriver<'_, '_, Y> {
    fn on_solution(&mut self, values: &[u32]) -> bool {
        self.shared.record(&self.renumbered.restore(values))
    }

    fn poll(&mut self, nodes: u64) -> Option<StopReason> {
        let delta = nodes.saturating_sub(self.reported);
        self.reported = self.reported.max(nodes);
        let total = self.shared.add_nodes(delta);
        if let Some(reason) = self.shared.check(total) {
            return Some(reason);
        }
        if nodes >= self.budget || (self.yields)() {
            self.over = true;
            return Some(StopReason::NodeLimit);
        }
        None
    }

    fn progress(&self) -> Option<&Progress> {
        self.shared.progress()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_sequence() {
        let got: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(got, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn renumbering_round_trips() {
        let mut m = Model::default();
        for _ in 0..4 {
            m.new_var(Domain::range(1, 9));
        }
        m.sum(vec![0, 1], 3);
        m.sum(vec![2, 3], 17);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let r = Renumbered::new(&m, &m.domains, Some(&mut rng));
        let solution = [1, 2, 8, 9];
        let renamed: Vec<u32> = (0..4).map(|new| solution[r.original[new]]).collect();
        assert!(r.model.is_satisfied_by(&renamed));
        assert_eq!(r.restore(&renamed), solution);
    }
}
