//! What an [`Algorithm`] asks of the solver, in two independent parts: which engines run
//! (the depth-first search, the SAT solver, or both side by side) and how much the
//! depth-first search propagates at each node. The user names one algorithm; the engines
//! and the portfolio read only the part that concerns them.

use super::options::{Algorithm, Mode};

/// The engines a solve runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engines {
    /// The depth-first search alone.
    Search,
    /// The depth-first search, raced by the SAT solver once a short probe has not settled
    /// the question.
    SearchAndSat,
    /// The SAT solver alone, on the propagated model.
    Sat,
}

/// How much the depth-first search propagates after each decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Propagation {
    /// Check the constraints of the assigned variable (backtracking).
    Check,
    /// Prune the other variables of the assigned variable's constraints once.
    ForwardCheck,
    /// Propagate every constraint to a fixed point (arc consistency).
    Fixpoint,
}

impl Algorithm {
    /// The engines a solve in `mode` runs: `mac` adds the SAT solver to the search in
    /// `first` and `unique` modes, not when counting.
    pub fn engines(self, mode: Mode) -> Engines {
        match self {
            Algorithm::Sat => Engines::Sat,
            Algorithm::Mac if mode != Mode::Count => Engines::SearchAndSat,
            Algorithm::Bt | Algorithm::Fc | Algorithm::Mac => Engines::Search,
        }
    }

    /// The propagation of the depth-first search (for `sat`, the root propagation the
    /// encoding starts from).
    pub fn propagation(self) -> Propagation {
        match self {
            Algorithm::Bt => Propagation::Check,
            Algorithm::Fc => Propagation::ForwardCheck,
            Algorithm::Mac | Algorithm::Sat => Propagation::Fixpoint,
        }
    }
}
