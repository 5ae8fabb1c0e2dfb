//! Search statistics, in the style of MiniZinc/Gecode: returned by value from every solve
//! and added up over parallel branches. Serialized, they are the search's part of a
//! result document's `statistics` (the SAT solvers' counters are written apart there).

use serde::Serialize;
use std::ops::AddAssign;
use std::time::Duration;

/// Counters of one search (or the sum over several).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Search nodes (decisions tried), the root included.
    pub nodes: u64,
    /// Nodes where propagation or checking failed.
    pub failures: u64,
    /// Deepest decision level reached.
    pub max_depth: u64,
    /// Propagator executions.
    pub propagations: u64,
    /// Solutions found.
    pub solutions: u64,
    /// Subproblems the search was split into (1 for a sequential search).
    pub subproblems: u64,
    /// Nodes of the largest subproblem.
    pub largest_subproblem_nodes: u64,
    /// Regions and pieces that a large part was cut into and solved side by side (0 when
    /// no part was cut).
    #[serde(skip)]
    pub regions: u64,
    /// SAT solver instances run (0 when the learning engine did not join).
    #[serde(skip)]
    pub sat_solvers: u64,
    /// Conflicts of the SAT solvers (each one learns a clause).
    #[serde(skip)]
    pub sat_conflicts: u64,
    /// Decisions of the SAT solvers.
    #[serde(skip)]
    pub sat_decisions: u64,
    /// Unit propagations of the SAT solvers.
    #[serde(skip)]
    pub sat_propagations: u64,
    /// Learned clauses the SAT solvers still held when they stopped.
    #[serde(skip)]
    pub sat_learned: u64,

    /// Of [`solve_time`](Self::solve_time), what the work solved side by side (regions,
    /// pieces, parts) took beyond its longest chain: see [`span`](Self::span).
    #[serde(skip)]
    pub parallel_slack: Duration,

    /// Wall-clock time of the search (`solve_ms`).
    #[serde(rename = "solve_ms", serialize_with = "as_millis")]
    pub solve_time: Duration,
}

impl AddAssign for Stats {
    /// Adds counters; depth and largest subproblem take the maximum; time is kept from
    /// `self` (parallel branches overlap, so the caller measures wall time itself). The
    /// slack adds up as for work done one after another: work side by side sets its own.
    fn add_assign(&mut self, other: Stats) {
        self.nodes += other.nodes;
        self.failures += other.failures;
        self.max_depth = self.max_depth.max(other.max_depth);
        self.propagations += other.propagations;
        self.solutions += other.solutions;
        self.subproblems += other.subproblems;
        self.largest_subproblem_nodes =
            self.largest_subproblem_nodes.max(other.largest_subproblem_nodes);
        self.regions += other.regions;
        self.sat_solvers += other.sat_solvers;
        self.sat_conflicts += other.sat_conflicts;
        self.sat_decisions += other.sat_decisions;
        self.sat_propagations += other.sat_propagations;
        self.sat_learned += other.sat_learned;
        self.parallel_slack += other.parallel_slack;
    }
}

impl Stats {
    /// The search's span: its longest chain of work that must run one task after another,
    /// however many threads there are (the solve time less the slack of the work it ran
    /// side by side). On one thread, `solve_time / span` is how many times faster threads
    /// enough could make this solve, at most: its parallelism.
    pub fn span(&self) -> Duration {
        self.solve_time.saturating_sub(self.parallel_slack)
    }
}

/// Milliseconds to the microsecond (no float noise such as `0.24666800000000003`).
fn as_millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    let millis = d.as_secs_f64() * 1e3;
    s.serialize_f64((millis * 1e3).round() / 1e3)
}
