//! Depth-first search over one model: decide, propagate, backtrack.
//!
//! [`Search`] owns the propagators and the state of one search thread. It runs a
//! [`Subproblem`] (a set of domains) to exhaustion or until its [`Driver`] says stop; the
//! driver receives the solutions, decides when to stop, and can ask for work to be split
//! off (the portfolio uses that). `solve`, for tests and benchmarks, is the plain sequential
//! search.

use super::branching::{select_value, select_var};
use super::goal::solution_target;
use super::options::{SolveOptions, ValOrder, VarOrder};
use super::progress::{Counts, Progress};
use super::propagators::{self, Propagate, Propagators};
use super::state::State;
use super::stats::Stats;
use super::technique::Propagation;
use super::termination::{Stop, Termination};
use super::{Control, Outcome, StopReason};
use crate::model::{Domain, Model};
use std::time::Instant;

/// How often (in nodes) the driver is polled.
const POLL_INTERVAL: u64 = 128;

/// A part of the search space: domains to search from, and the decision depth they sit at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subproblem {
    /// Domains of every variable.
    pub domains: Vec<Domain>,
    /// Decisions taken from the root to reach these domains.
    pub depth: u64,
    /// Whether the domains are already propagated (as the algorithm propagates); when
    /// not, [`Search::run`] propagates them first.
    pub propagated: bool,
}

/// What the search loop asks of its caller.
pub trait Driver {
    /// Receives a solution (one value per variable); returns false to stop the search.
    fn on_solution(&mut self, values: &[u32]) -> bool;
    /// Called every few hundred nodes with the nodes explored so far, and when a node
    /// limit is reached ([`Driver::nodes_left`]); `Some` stops.
    fn poll(&mut self, nodes: u64) -> Option<StopReason>;
    /// How many more nodes this search may explore, given the nodes explored so far, when a
    /// node limit bounds it: the next poll comes no later, so the limit is kept exactly.
    fn nodes_left(&self, _nodes: u64) -> Option<u64> {
        None
    }
    /// Polled likewise: true when this search should split off part of its work.
    fn wants_work(&self) -> bool {
        false
    }
    /// Receives the work split off after [`Driver::wants_work`] said yes.
    fn donate(&mut self, _sub: Subproblem) {}
    /// Where the search reports its live counters, if anyone watches.
    fn progress(&self) -> Option<&Progress> {
        None
    }
}

/// An open choice point: the variable decided at this level and its untried values.
struct Frame {
    var: usize,
    remaining: Domain,
    /// Trail position before this level's decision.
    mark: usize,
}

/// One search thread's engine.
pub struct Search<'m> {
    model: &'m Model,
    props: Propagators,
    state: State,
    propagation: Propagation,
    var_order: VarOrder,
    val_order: ValOrder,
    stats: Stats,
    /// The part of `stats` already added to the watched [`Progress`].
    published: Counts,
    values: Vec<u32>,
}

impl<'m> Search<'m> {
    /// Compiles `model` into propagators and prepares an empty search.
    pub fn new(model: &'m Model, options: &SolveOptions) -> Search<'m> {
        let props = propagators::build(model);
        let state = props.state(model.domains.clone());
        Search {
            model,
            props,
            state,
            propagation: options.algorithm.propagation(),
            var_order: options.var_order,
            val_order: options.val_order,
            stats: Stats::default(),
            published: Counts::default(),
            values: Vec::with_capacity(model.num_vars()),
        }
    }

    /// Statistics of everything this engine has searched so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Propagates the model's initial domains (as the algorithm allows). `None` when the
    /// root already fails, i.e. the model has no solution.
    pub fn root(&mut self) -> Option<Subproblem> {
        self.stats.nodes += 1;
        self.props.load(&mut self.state, &self.model.domains);
        if self.propagate_start() {
            Some(Subproblem { domains: self.state.domains().to_vec(), depth: 0, propagated: true })
        } else {
            self.stats.failures += 1;
            None
        }
    }

    // Tests and benchmarks split the search by hand with these; the portfolio splits its own way.
    #[cfg(any(test, feature = "testing"))]
    /// The variable the variable order branches on in `sub`, with its domain; `None` when
    /// every variable is fixed (then `sub` is a solution).
    pub fn branching(&self, sub: &Subproblem) -> Option<(crate::model::VarId, Domain)> {
        select_var(self.var_order, &sub.domains).map(|v| (v, sub.domains[v]))
    }

    // Tests and benchmarks split the search by hand with these; the portfolio splits its own way.
    #[cfg(any(test, feature = "testing"))]
    /// Splits `sub` at its branching variable: one propagated child per value, in value
    /// order; children that fail at once are dropped (and counted as failures).
    pub fn split(&mut self, sub: &Subproblem) -> Vec<Subproblem> {
        let Some((var, mut remaining)) = self.branching(sub) else { return Vec::new() };
        let mut children = Vec::with_capacity(remaining.len() as usize);
        while let Some(value) = select_value(self.val_order, remaining) {
            remaining = remaining.remove(value);
            children.extend(self.decide(sub, var, value));
        }
        children
    }

    // Tests and benchmarks split the search by hand with these; the portfolio splits its own way.
    #[cfg(any(test, feature = "testing"))]
    /// The child of `sub` where `var` takes `value`, propagated; `None` (a counted failure)
    /// when that decision fails at once.
    pub fn decide(
        &mut self,
        sub: &Subproblem,
        var: crate::model::VarId,
        value: u32,
    ) -> Option<Subproblem> {
        self.props.load(&mut self.state, &sub.domains);
        self.stats.nodes += 1;
        self.stats.max_depth = self.stats.max_depth.max(sub.depth + 1);
        if self.assign(var, value) {
            let domains = self.state.domains().to_vec();
            Some(Subproblem { domains, depth: sub.depth + 1, propagated: true })
        } else {
            self.stats.failures += 1;
            None
        }
    }

    /// Searches `sub` depth-first, reporting solutions to `driver`, until it is exhausted
    /// or the driver says stop: the reason when its poll stopped the search, `None` when
    /// the subproblem was searched or the driver's `on_solution` asked no more.
    pub fn run(&mut self, sub: Subproblem, driver: &mut dyn Driver) -> Option<StopReason> {
        let end = self.explore(sub, driver);
        self.publish(driver);
        end
    }

    /// Adds what this engine did since its last report to the driver's live counters.
    fn publish(&mut self, driver: &dyn Driver) {
        if let Some(progress) = driver.progress() {
            progress.publish(&self.stats, &mut self.published);
        }
    }

    /// The depth-first loop of [`Search::run`].
    fn explore(&mut self, sub: Subproblem, driver: &mut dyn Driver) -> Option<StopReason> {
        self.props.load(&mut self.state, &sub.domains);
        // A donated subproblem has not been propagated since its domain was narrowed.
        if !sub.propagated && !self.propagate_start() {
            self.stats.failures += 1;
            return None;
        }
        let mut stack: Vec<Frame> = Vec::new();
        let poll_after = |driver: &dyn Driver, nodes: u64| {
            nodes + driver.nodes_left(nodes).map_or(POLL_INTERVAL, |left| left.min(POLL_INTERVAL))
        };
        let mut next_poll = poll_after(driver, self.stats.nodes);
        loop {
            // Descend: open a choice point, or report the solution at a leaf.
            match select_var(self.var_order, self.state.domains()) {
                Some(var) => {
                    let remaining = self.state.dom(var);
                    stack.push(Frame { var, remaining, mark: self.state.mark() });
                }
                None => {
                    self.stats.solutions += 1;
                    self.values.clear();
                    self.values.extend(self.state.domains().iter().map(|d| d.min().unwrap_or(0)));
                    if !driver.on_solution(&self.values) {
                        return None;
                    }
                }
            }
            // Take the next untried value, backtracking past exhausted choice points.
            loop {
                // No choice point left: the subproblem is exhausted.
                let frame = stack.last_mut()?;
                let Some(value) = select_value(self.val_order, frame.remaining) else {
                    let mark = frame.mark;
                    self.props.undo(&mut self.state, mark);
                    stack.pop();
                    continue;
                };
                frame.remaining = frame.remaining.remove(value);
                let (var, mark) = (frame.var, frame.mark);
                self.props.undo(&mut self.state, mark);
                // Polled before the node is counted, so that a node limit is never passed.
                if self.stats.nodes >= next_poll {
                    next_poll = poll_after(driver, self.stats.nodes);
                    self.publish(driver);
                    if let Some(reason) = driver.poll(self.stats.nodes) {
                        return Some(reason);
                    }
                    if driver.wants_work()
                        && let Some(work) = self.split_off(&mut stack, sub.depth)
                    {
                        driver.donate(work);
                    }
                }
                self.stats.nodes += 1;
                self.stats.max_depth = self.stats.max_depth.max(sub.depth + stack.len() as u64);
                if self.assign(var, value) {
                    break;
                }
                self.stats.failures += 1;
            }
        }
    }

    /// Gives away the untried values of the shallowest open choice point (the biggest piece
    /// of work this search still has), as a subproblem.
    fn split_off(&mut self, stack: &mut [Frame], base_depth: u64) -> Option<Subproblem> {
        let level = stack.iter().position(|f| !f.remaining.is_empty())?;
        let frame = &mut stack[level];
        let mut domains = self.state.domains_at(frame.mark);
        domains[frame.var] = frame.remaining;
        frame.remaining = Domain::EMPTY;
        Some(Subproblem { domains, depth: base_depth + level as u64, propagated: false })
    }

    /// Establishes the starting consistency of the loaded domains.
    fn propagate_start(&mut self) -> bool {
        match self.propagation {
            Propagation::Fixpoint => {
                self.props.propagate_all(&mut self.state, &mut self.stats.propagations).is_ok()
            }
            Propagation::ForwardCheck => {
                self.state.clear_queue();
                (0..self.state.domains().len())
                    .filter(|&v| self.state.dom(v).is_fixed())
                    .collect::<Vec<_>>()
                    .into_iter()
                    .all(|v| self.forward_check(v))
            }
            Propagation::Check => {
                self.stats.propagations += self.props.len() as u64;
                self.props.iter().all(|p| p.check(&self.state))
            }
        }
    }

    /// Fixes `var` to `value` and propagates as the algorithm says; false on failure.
    fn assign(&mut self, var: usize, value: u32) -> bool {
        if self.state.set(var, Domain::single(value)).is_err() {
            return false;
        }
        match self.propagation {
            Propagation::Fixpoint => {
                self.props.fixpoint(&mut self.state, &mut self.stats.propagations).is_ok()
            }
            Propagation::ForwardCheck => {
                self.state.clear_queue();
                self.forward_check(var)
            }
            Propagation::Check => {
                self.state.clear_queue();
                let watchers = self.state.watchers(var);
                self.stats.propagations += watchers.len() as u64;
                watchers.iter().all(|&p| self.props.get(p).check(&self.state))
            }
        }
    }

    /// One forward-checking pass over the constraints of the fixed variable `var`. A
    /// variable that the pass narrows to one value counts as assigned too, so its own
    /// constraints are checked the same way (otherwise constraints whose variables were all
    /// fixed by pruning would never be checked).
    fn forward_check(&mut self, var: usize) -> bool {
        let mut pending = vec![var];
        while let Some(var) = pending.pop() {
            let mark = self.state.mark();
            for i in 0..self.state.watchers(var).len() {
                let p = self.state.watchers(var)[i];
                self.stats.propagations += 1;
                if self.props.get(p).forward_check(&mut self.state, var).is_err() {
                    self.state.clear_queue();
                    return false;
                }
            }
            pending.extend(self.state.fixed_since(mark));
        }
        self.state.clear_queue();
        true
    }
}

/// Collects solutions for a sequential search and applies the limits.
struct Collector<'a> {
    solutions: Vec<Vec<u32>>,
    count: u64,
    target: u64,
    termination: Termination<'a>,
}

impl Driver for Collector<'_> {
    fn on_solution(&mut self, values: &[u32]) -> bool {
        self.count += 1;
        if self.solutions.len() < 2 {
            self.solutions.push(values.to_vec());
        }
        self.count < self.target
    }

    fn poll(&mut self, nodes: u64) -> Option<StopReason> {
        self.termination.check(nodes).map(Stop::reason)
    }

    fn nodes_left(&self, nodes: u64) -> Option<u64> {
        self.termination.node_limit.map(|limit| limit.saturating_sub(nodes))
    }

    fn progress(&self) -> Option<&Progress> {
        self.termination.progress
    }
}

/// Sequential depth-first search of `model`: the baseline the tests and benchmarks hold
/// the portfolio to.
#[cfg(any(test, feature = "testing"))]
pub fn solve(
    model: &Model,
    options: &SolveOptions,
    cancel: Option<&std::sync::Arc<std::sync::atomic::AtomicBool>>,
) -> Outcome {
    solve_with(model, options, Control::from(cancel))
}

/// The plain sequential search, told from outside what [`Control`] carries (the queue it does not use).
pub fn solve_with(model: &Model, options: &SolveOptions, control: Control<'_>) -> Outcome {
    let started = Instant::now();
    let mut collector = Collector {
        solutions: Vec::new(),
        count: 0,
        target: solution_target(options),
        termination: Termination::new(options, started, control),
    };
    let mut search = Search::new(model, options);
    let stopped = search.root().and_then(|sub| search.run(sub, &mut collector));
    let mut stats = search.stats();
    stats.subproblems = 1;
    stats.largest_subproblem_nodes = stats.nodes;
    stats.solve_time = started.elapsed();
    Outcome {
        solutions: collector.solutions,
        count: collector.count,
        complete: stopped.is_none(),
        stopped,
        stats,
        engine: super::Engine::Search,
    }
}
