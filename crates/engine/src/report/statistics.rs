//! A puzzle's statistics in its result document: the search's counters and time as the
//! solver gives them, what only the pipeline knows (reading, grading, the whole), and the
//! SAT solvers' figures under their own names.

use super::pretty;
use crate::solver::{Engine, Stats};
use serde::Serialize;

/// Statistics of one puzzle, with times in milliseconds: the search's own counters and
/// time as the solver gives them, and what only the pipeline knows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Statistics {
    /// The search's counters and its time (`solve_ms`); the SAT solvers' counters, when
    /// they ran, are written apart under `sat`.
    #[serde(flatten, serialize_with = "search_and_sat")]
    pub search: Stats,
    /// Reading and checking the input.
    #[serde(serialize_with = "pretty::millis")]
    pub parse_ms: f64,
    /// Grading a solved Kakuro after its answer (0 when the answer decided the grade).
    #[serde(serialize_with = "pretty::millis")]
    pub grade_ms: f64,
    /// Everything for this puzzle, verification and grade included.
    #[serde(serialize_with = "pretty::millis")]
    pub total_ms: f64,
    /// Threads the search used.
    pub threads: usize,
    /// The engine that gave the answer: `search` (depth-first with propagation) or `sat`.
    pub engine: Engine,
}

impl Statistics {
    /// The SAT solvers' figures, when the learning engine ran.
    pub fn sat(&self) -> Option<SatStatistics> {
        SatStatistics::of(&self.search)
    }
}

/// Writes a search's counters, and the SAT solvers' figures under `sat` when they ran.
fn search_and_sat<S: serde::Serializer>(search: &Stats, s: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Counters<'a> {
        #[serde(flatten)]
        search: &'a Stats,
        #[serde(skip_serializing_if = "Option::is_none")]
        sat: Option<SatStatistics>,
    }
    Counters { search, sat: SatStatistics::of(search) }.serialize(s)
}

/// The figures of the SAT solvers of one solve, summed over the solvers, under the names
/// a result document gives them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SatStatistics {
    /// Solver instances run (a portfolio runs several).
    pub solvers: u64,
    /// Conflicts (each learns a clause).
    pub conflicts: u64,
    /// Decisions.
    pub decisions: u64,
    /// Unit propagations.
    pub propagations: u64,
    /// Learned clauses still held when the solvers stopped.
    pub learned_clauses: u64,
}

impl SatStatistics {
    /// The SAT solvers' figures of `search`, when the learning engine ran.
    pub fn of(search: &Stats) -> Option<SatStatistics> {
        (search.sat_solvers > 0).then_some(SatStatistics {
            solvers: search.sat_solvers,
            conflicts: search.sat_conflicts,
            decisions: search.sat_decisions,
            propagations: search.sat_propagations,
            learned_clauses: search.sat_learned,
        })
    }
}
